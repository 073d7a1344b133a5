// libFuzzer target: ROOFLINE_PROFILE patterns (%p, %h, %%).
#include "../lib/Runtime/ProfileWriter.h"

#include <cstdint>
#include <string>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *Data, size_t Size) {
  std::string Text(reinterpret_cast<const char *>(Data), Size);
  std::string Error;
  std::string Path = roofline::rt::expandProfilePattern(Text, Error);
  if (Path.empty() == Error.empty())
    __builtin_trap(); // exactly one of a path or a reason
  return 0;
}
