// libFuzzer target: formula text, evaluated and read as a polynomial.
#include "roofline/Model/Formula.h"

#include <cstdint>
#include <string>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *Data, size_t Size) {
  std::string Text(reinterpret_cast<const char *>(Data), Size);
  auto V = roofline::evaluateFormula(
      Text, {{"n", 7}, {"M", 3}, {"N", 5}, {"K", 11}, {"blockDim.x", 128}});
  if (!V && V.error().empty())
    __builtin_trap();
  auto P = roofline::formulaPolynomial(Text);
  if (P)
    (void)P->str(); // printing any accepted polynomial must work
  else if (P.error().empty())
    __builtin_trap();
  return 0;
}
