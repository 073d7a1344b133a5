// libFuzzer target: runtime profile JSON as the report and merge read it.
#include "roofline/Model/Profile.h"

#include <cstdint>
#include <string>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *Data, size_t Size) {
  std::string Text(reinterpret_cast<const char *>(Data), Size);
  nlohmann::json J = nlohmann::json::parse(Text, nullptr, false);
  if (J.is_discarded() || !roofline::isProfile(J))
    return 0;
  auto K = roofline::parseProfile(J, "fuzz.json");
  if (!K && K.error().empty())
    __builtin_trap();
  return 0;
}
