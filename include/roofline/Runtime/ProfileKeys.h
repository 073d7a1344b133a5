//===- ProfileKeys.h - The profile's JSON keys as constants -----*- C++ -*-===//
//
// ProfileKeys.inc as C++ constants: `key::Seconds` is "seconds", in the
// runtime that writes a profile and in the model that reads it.
//
//===----------------------------------------------------------------------===//
#ifndef ROOFLINE_RUNTIME_PROFILEKEYS_H
#define ROOFLINE_RUNTIME_PROFILEKEYS_H

#include <string>

namespace roofline {
namespace key {
#define ROOFLINE_PROFILE_KEY(Name, Spelling)                                   \
  inline constexpr const char Name[] = Spelling;
#include "roofline/Runtime/ProfileKeys.inc"
} // namespace key

namespace value {
#define ROOFLINE_PROFILE_VALUE(Name, Spelling)                                 \
  inline constexpr const char Name[] = Spelling;
#include "roofline/Runtime/ProfileKeys.inc"
} // namespace value

/// `"Key": `, as the runtime's hand-written JSON spells a key.
inline std::string field(const char *Key) {
  return std::string("\"") + Key + "\": ";
}
/// `"Value"`, a fixed value (no character in one needs escaping).
inline std::string text(const char *Value) {
  return std::string("\"") + Value + "\"";
}
} // namespace roofline

#endif
