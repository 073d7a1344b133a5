// libFuzzer target: --assume / -roofline-assume values.
#include "roofline/Model/Formula.h"

#include <cstdint>
#include <string>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *Data, size_t Size) {
  std::string Text(reinterpret_cast<const char *>(Data), Size);
  auto V = roofline::parseAssignments(Text);
  if (!V && V.error().empty())
    __builtin_trap();
  return 0;
}
