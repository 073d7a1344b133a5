// libFuzzer target: runtime profile JSON as the report and merge read it,
// CUDA launch tables and the call trace (--fusion) included.
#include "roofline/Model/TraceFusion.h"
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
  static const roofline::Platform P = [] {
    roofline::Platform P;
    P.Name = "fuzz";
    P.Compute.push_back({"fp32", "vector", 1e12, true, "fuzz"});
    P.Memory.push_back({"dram", "", 1e11, "fuzz"});
    return P;
  }();
  auto F = roofline::findFusions(J, "fuzz.json", P, roofline::Convention::FMA2);
  if (!F && F.error().empty())
    __builtin_trap();
  return 0;
}
