// libFuzzer target: platform JSON. Any input: a Platform or one message.
#include "roofline/Model/Platform.h"
#include "roofline/Model/Roofline.h"

#include <cstdint>
#include <string>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *Data, size_t Size) {
  std::string Text(reinterpret_cast<const char *>(Data), Size);
  roofline::Result<roofline::Platform> P =
      roofline::parsePlatform(Text, "fuzz.json");
  if (!P) {
    if (P.error().empty())
      __builtin_trap(); // every failure says why
    return 0;
  }
  // A valid platform must be usable: place a kernel on it.
  roofline::Work W = roofline::Work::fromTotal(1e9);
  roofline::place(*P, W, {{"dram", 1e8}}, roofline::Convention::FMA2);
  return 0;
}
