//===- NextStep.cpp - One line of advice for a kernel's limiter -----------===//
//
// The seed's guidance: memory-bound code needs less traffic (fusion,
// blocking, lower precision); compute-bound code needs the machine's wide
// units (vectors, FMA, matrix units). A limit inside the core names what the
// compiled loop does and what lifts it. Each line ends with how far the next
// limit is: removing this one can gain that much and no more. Flags the
// loop was already built with (its DW_AT_producer) are not advised again.
//
//===----------------------------------------------------------------------===//
#include "roofline/Model/CompileFlags.h"
#include "roofline/Model/Roofline.h"

#include <algorithm>
#include <cstdio>

namespace roofline {

namespace {

/// MinSeconds over the longest of the other limits: the most that lifting
/// the limiter alone can gain.
double headroom(const Placement &Pl) {
  std::vector<std::pair<double, std::string>> Times;
  if (Pl.Flops > 0 && Pl.PeakFlops > 0)
    Times.push_back({Pl.Flops / Pl.PeakFlops, "compute"});
  if (Pl.InCore)
    Times.push_back({Pl.InCore->Seconds, inCoreLimiter(Pl.InCore->Cause)});
  for (const LevelBound &L : Pl.Levels)
    Times.push_back({L.Seconds, L.Level});
  double Next = 0;
  for (const auto &[T, Name] : Times)
    if (Name != Pl.Limiter)
      Next = std::max(Next, T);
  return Next > 0 ? Pl.MinSeconds / Next : 0;
}

std::string factor(double X) {
  char Buf[48];
  if (X >= 100)
    std::snprintf(Buf, sizeof(Buf), "%.0fx", X);
  else
    std::snprintf(Buf, sizeof(Buf), "%.3gx", X);
  return Buf;
}

/// What lifts a loop-carried chain, by what it runs through.
std::string chainAdvice(const InCoreBound &B) {
  CompileFlags F = compileFlags(B.Producer);
  switch (B.Kind) {
  case ChainKind::Memory:
    return "the chain runs through memory (a value stored and read back by "
           "a later iteration): keep it in a register, or reorder the sweep "
           "(red-black or wavefront order) so that neighbouring iterations "
           "are independent";
  case ChainKind::FloatingPoint:
    if (F.Reassociate)
      return "several accumulators by hand (the build already allows "
             "reassociation, and the compiler left one chain) let the "
             "operations overlap";
    return "several accumulators or reassociation (-ffast-math / "
           "-fassociative-math) let the operations overlap";
  default:
    return "several independent chains at once (interleave the work of "
           "separate iterations or entries) let the operations overlap";
  }
}

/// Fewer instructions per FLOP, with only the flags not already used.
std::string portsAdvice(const InCoreBound &B) {
  CompileFlags F = compileFlags(B.Producer);
  std::string Vectorize = "vectorise (-O3 -march=native)";
  if (F.Vectorize && !F.Arch.empty())
    Vectorize = "vectorise (already built with " + F.Optimize + " " + F.Arch +
                ": -Rpass-missed=loop-vectorize says why the loop stayed "
                "scalar, if it did)";
  else if (F.Vectorize)
    Vectorize = "vectorise (-march=native: wider vectors and FMA)";
  std::string S = "fewer instructions per FLOP: " + Vectorize;
  if (!F.ContractFast)
    S += ", fuse multiply-adds (-ffp-contract=fast)";
  return S + ", keep operands in registers";
}

} // namespace

std::string nextStep(const Placement &Pl) {
  double Up = headroom(Pl);
  std::string Gain = Up > 1.05 ? ", up to " + factor(Up) + " faster" : "";
  const std::string &L = Pl.Limiter;
  std::string Why = Pl.InCore ? Pl.InCore->Detail : "";
  if (L == "in-core: dependency chain")
    return Why + ": " + chainAdvice(*Pl.InCore) + Gain;
  if (L == "in-core: divide")
    return Why + ": multiply by a reciprocal computed once (or "
                 "-freciprocal-math), or divide fewer times" + Gain;
  if (L == "in-core: ports")
    return Why + ": " + portsAdvice(*Pl.InCore) + Gain;
  bool Integer = Pl.Roof.rfind("int", 0) == 0;
  if (L == "compute" && Integer)
    return "at the integer roof for these operations: fewer of them (table "
           "lookups, strength reduction), narrower integers in wider vectors, "
           "or dot-product instructions (VNNI, sdot) for int8 work; nothing "
           "else lifts it";
  if (L == "compute")
    return "at the compute roof for these FLOPs: fewer FLOPs, a lower "
           "precision, or matrix units; nothing else lifts it";
  if (L == "dram")
    return "DRAM traffic bounds it: fuse with the kernels that make or use its "
           "data, block so each byte is used more than once while cached, or "
           "store it in a lower precision" + Gain;
  if (L == "l1")
    return "L1 bandwidth bounds it: fewer loads and stores per FLOP (keep "
           "values in registers: unroll and jam, register blocking)" + Gain;
  if (L == "l2" || L == "l3")
    return L + " traffic bounds it: block the loops so the data in use fits "
               "in the level above, and use each line fully (unit stride)" + Gain;
  if (L == "shared")
    return "shared-memory bandwidth bounds it: reuse values in registers, avoid "
           "bank conflicts" + Gain;
  return "";
}

} // namespace roofline
