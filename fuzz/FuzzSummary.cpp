// libFuzzer target: static summary JSON, and the report built from it.
#include "roofline/Model/Formula.h"
#include "roofline/Model/StaticSummary.h"

#include <cstdint>
#include <string>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *Data, size_t Size) {
  std::string Text(reinterpret_cast<const char *>(Data), Size);
  auto K = roofline::parseStaticSummary(Text, "fuzz.json");
  if (!K) {
    if (K.error().empty())
      __builtin_trap();
    return 0;
  }
  // Every formula of an accepted summary evaluates (or says what it needs).
  for (const roofline::KernelRecord &R : *K)
    for (const auto &[P, Classes] : R.Classes)
      for (const auto &[C, F] : Classes) {
        auto V = roofline::evaluateFormula(F, {{"n", 3}, {"M", 2}});
        if (!V && V.error().empty())
          __builtin_trap();
      }
  return 0;
}
