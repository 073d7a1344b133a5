//===- CompileFlags.cpp - How a loop was compiled, from DWARF -------------===//
#include "roofline/Model/CompileFlags.h"

#include <sstream>

namespace roofline {

CompileFlags compileFlags(const std::string &Producer) {
  CompileFlags F;
  std::istringstream In(Producer);
  int Vectorize = -1; // -fvectorize, -fno-vectorize: the last one
  for (std::string A; In >> A;) {
    if (A.size() < 2 || A[0] != '-')
      continue; // clang's version, the compiler's path, the sources
    F.Recorded = true;
    if (A.rfind("-O", 0) == 0) {
      F.Optimize = A;
      // -Ofast is -O3 with -ffast-math.
      if (A == "-Ofast")
        F.Reassociate = F.ContractFast = true;
    } else if (A.rfind("-march=", 0) == 0) {
      F.Arch = A;
    } else if (A == "-ffast-math" || A == "-funsafe-math-optimizations" ||
               A == "-fassociative-math") {
      F.Reassociate = true;
      if (A == "-ffast-math")
        F.ContractFast = true;
    } else if (A == "-fno-fast-math" || A == "-fno-associative-math" ||
               A == "-fno-unsafe-math-optimizations") {
      F.Reassociate = false;
    } else if (A.rfind("-ffp-contract=", 0) == 0) {
      std::string V = A.substr(14);
      F.ContractFast = V == "fast" || V == "fast-honor-pragmas";
    } else if (A == "-fno-vectorize" || A == "-fvectorize") {
      Vectorize = A == "-fvectorize";
    }
  }
  // clang vectorises loops at -O2, -O3, -Os and -Ofast unless told.
  const std::string &O = F.Optimize;
  bool ByLevel = O == "-O2" || O == "-O3" || O == "-Os" || O == "-Ofast";
  F.Vectorize = Vectorize < 0 ? ByLevel : Vectorize == 1;
  return F;
}

} // namespace roofline
