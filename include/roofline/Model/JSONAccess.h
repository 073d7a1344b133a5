//===- JSONAccess.h - Reading fields of untrusted JSON ----------*- C++ -*-===//
//
// nlohmann::json::value() throws (or, without exceptions, aborts) when a
// field exists with another type. Input files are untrusted (fuzzing found
// this), so fields are read through these: a missing or mistyped field is
// the default, never a crash. Header-only; the plugin uses it too.
//
//===----------------------------------------------------------------------===//
#ifndef ROOFLINE_MODEL_JSONACCESS_H
#define ROOFLINE_MODEL_JSONACCESS_H

#include <nlohmann/json.hpp>

#include <cstdint>

#include <string>
#include <vector>

namespace roofline {

inline std::string stringOr(const nlohmann::json &O, const char *Key,
                            const std::string &Default) {
  if (!O.is_object())
    return Default;
  auto It = O.find(Key);
  return It != O.end() && It->is_string() ? It->get<std::string>() : Default;
}

inline double numberOr(const nlohmann::json &O, const char *Key,
                       double Default) {
  if (!O.is_object())
    return Default;
  auto It = O.find(Key);
  return It != O.end() && It->is_number() ? It->get<double>() : Default;
}

inline bool boolOr(const nlohmann::json &O, const char *Key, bool Default) {
  if (!O.is_object())
    return Default;
  auto It = O.find(Key);
  return It != O.end() && It->is_boolean() ? It->get<bool>() : Default;
}

/// \p V as an unsigned integer no larger than \p Max (negative or NaN: 0):
/// a JSON number from a file may be anything, and converting an out-of-range
/// double to an integer type is undefined.
inline uint64_t clampedUnsigned(double V, uint64_t Max = UINT32_MAX) {
  if (!(V > 0))
    return 0;
  if (V >= double(Max))
    return Max;
  return uint64_t(V);
}

/// The array at Key, or an empty one.
inline nlohmann::json arrayOr(const nlohmann::json &O, const char *Key) {
  if (!O.is_object())
    return nlohmann::json::array();
  auto It = O.find(Key);
  return It != O.end() && It->is_array() ? *It : nlohmann::json::array();
}

/// The strings of the array at Key (other items skipped), or none.
inline std::vector<std::string> stringsAt(const nlohmann::json &O,
                                          const char *Key) {
  std::vector<std::string> Out;
  for (const nlohmann::json &Item : arrayOr(O, Key))
    if (Item.is_string())
      Out.push_back(Item.get<std::string>());
  return Out;
}

} // namespace roofline

#endif
