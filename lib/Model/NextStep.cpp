//===- NextStep.cpp - One line of advice for a kernel's limiter -----------===//
//
// The seed's guidance: memory-bound code needs less traffic (fusion,
// blocking, lower precision); compute-bound code needs the machine's wide
// units (vectors, FMA, matrix units). A limit inside the core names what the
// compiled loop does and what lifts it. Each line ends with how far the next
// limit is: removing this one can gain that much and no more.
//
//===----------------------------------------------------------------------===//
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

} // namespace

std::string nextStep(const Placement &Pl) {
  double Up = headroom(Pl);
  std::string Gain = Up > 1.05 ? ", up to " + factor(Up) + " faster" : "";
  const std::string &L = Pl.Limiter;
  std::string Why = Pl.InCore ? Pl.InCore->Detail : "";
  if (L == "in-core: dependency chain")
    return Why + ": several accumulators and wider vectors (or "
                 "-fassociative-math on this loop) let the operations overlap" +
           Gain;
  if (L == "in-core: divide")
    return Why + ": multiply by a reciprocal computed once (or "
                 "-freciprocal-math), or divide fewer times" + Gain;
  if (L == "in-core: ports")
    return Why + ": fewer instructions per FLOP: vectorise (-O3 -march=native), "
                 "fuse multiply-adds (-ffp-contract=fast), keep operands in "
                 "registers" + Gain;
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
