//===- ChainOverlap.cpp - A loop-carried chain across entries -------------===//
//
// The steady state of a recurrence over iterations n (entry n / E, step
// j = n % E), with unlimited execution units:
//   dispatch  D(n) = max(D(n-1), Retire(n - R), Issue(n - S))
//   issue     I(n) = D(n) at j = 0 (the chain starts anew), else
//                    max(D(n), Done(n-1))
//   done      Done(n) = I(n) + C
//   retire    Retire(n) = max(Done(n), Retire(n-1))   (in order)
// R and S are the windows rounded up (more overlap: the bound stays a
// lower bound). Long entries overlap by at most a window (per entry
// (E - R + 1) C, or (E - S) C); short ones run side by side, as many as
// the windows hold.
//
//===----------------------------------------------------------------------===//
#include "roofline/Model/ChainOverlap.h"

#include <algorithm>
#include <cmath>
#include <vector>

namespace roofline {

namespace {

constexpr long NoWindow = 0;

/// Cycles an entry of \p E (>= 1) iterations takes in the steady state.
double simulate(long E, double C, long R, long S) {
  long Widest = std::max(R, S);
  // Enough entries for the pattern to repeat: the windows hold at most
  // Widest / E + 1 entries at once; the second half is measured.
  long Entries = 16 * (Widest / E + 2);
  std::vector<double> Retire, Issue;
  Retire.reserve(Entries * E);
  Issue.reserve(Entries * E);
  double Dispatch = 0, Done = 0, Retired = 0, AtHalf = 0;
  for (long K = 0, N = 0; K < Entries; ++K) {
    for (long J = 0; J < E; ++J, ++N) {
      if (R != NoWindow && N >= R)
        Dispatch = std::max(Dispatch, Retire[N - R]);
      if (S != NoWindow && N >= S)
        Dispatch = std::max(Dispatch, Issue[N - S]);
      double Start = J > 0 ? std::max(Dispatch, Done) : Dispatch;
      Done = Start + C;
      Retired = std::max(Retired, Done);
      Issue.push_back(Start);
      Retire.push_back(Retired);
    }
    if (K + 1 == Entries / 2)
      AtHalf = Retired;
  }
  return (Retired - AtHalf) / double(Entries - Entries / 2);
}

/// The same for any whole \p E: past a few windows every further iteration
/// adds one link of the chain (no entry overlaps the next by more than a
/// window), so long entries are extrapolated.
double perEntry(long E, double C, long R, long S) {
  if (E <= 0)
    return 0;
  long Longest = 4 * std::max(R, S) + 16;
  if (E <= Longest)
    return simulate(E, C, R, S);
  return simulate(Longest, C, R, S) + double(E - Longest) * C;
}

} // namespace

double chainCyclesPerEntry(double Chain, double Iterations, ChainWindows W) {
  if (Chain <= 0 || Iterations <= 0)
    return 0;
  if (W.Reorder <= 0 && W.Scheduler <= 0)
    return Iterations * Chain;
  auto Whole = [](double Window) {
    return Window > 0 ? std::max(1L, long(std::ceil(Window - 1e-9))) : NoWindow;
  };
  long R = Whole(W.Reorder), S = Whole(W.Scheduler);
  // A fractional mean lies between two whole lengths: the straight line
  // between them (entries of both lengths, in that mix).
  double Low = std::floor(Iterations);
  double Frac = Iterations - Low;
  double A = perEntry(long(Low), Chain, R, S);
  if (Frac < 1e-9)
    return A;
  double B = perEntry(long(Low) + 1, Chain, R, S);
  return A + Frac * (B - A);
}

} // namespace roofline
