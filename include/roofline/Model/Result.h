//===- Result.h - A value or an error message -------------------*- C++ -*-===//
//
// The model library has no LLVM dependency, so it cannot use llvm::Expected.
// Result<T> is the same idea, small: a value, or a one-line message that
// already names the file and the field at fault.
//
//===----------------------------------------------------------------------===//
#ifndef ROOFLINE_MODEL_RESULT_H
#define ROOFLINE_MODEL_RESULT_H

#include <optional>
#include <string>
#include <utility>

namespace roofline {

struct Failure {
  std::string Message;
};

template <typename T> class Result {
public:
  Result(T V) : Value(std::move(V)) {}
  Result(Failure F) : Message(std::move(F.Message)) {}

  explicit operator bool() const { return Value.has_value(); }
  T &operator*() { return *Value; }
  const T &operator*() const { return *Value; }
  T *operator->() { return &*Value; }
  const T *operator->() const { return &*Value; }
  const std::string &error() const { return Message; }

private:
  std::optional<T> Value;
  std::string Message;
};

} // namespace roofline

#endif
