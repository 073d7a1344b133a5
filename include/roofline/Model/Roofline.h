//===- Roofline.h - The roofline model --------------------------*- C++ -*-===//
//
// Ridge I_max = pi/beta, attainable P = min(pi, beta*I), lower-bound time
// max(W/pi, Q/beta). Mixed precision takes time max(sum_p W_p/pi_p, Q/beta),
// i.e. the compute roof is the harmonic combination of the precisions' roofs
// weighted by their FLOPs. Hierarchical roofs give one memory time per level.
// The FMA-adjusted ceiling is the compute roof a kernel can reach when only
// part of its FLOPs are FMAs and the peak is quoted for FMAs.
//
//===----------------------------------------------------------------------===//
#ifndef ROOFLINE_MODEL_ROOFLINE_H
#define ROOFLINE_MODEL_ROOFLINE_H

#include "roofline/Model/InCore.h"
#include "roofline/Model/Platform.h"
#include "roofline/Model/Result.h"

#include <map>
#include <optional>
#include <string>
#include <vector>

namespace roofline {

double ridgePoint(double PeakFlops, double Bandwidth);
double attainableFlops(double PeakFlops, double Bandwidth, double Intensity);

/// How operations become "FLOPs".
enum class Convention {
  FMA2, ///< the tool's own: an FMA is two FLOPs (add+mul+2fma+div+sqrt+tensor)
  NCU,  ///< Nsight Compute: add + mul + 2*fma
  MAC   ///< one multiply-accumulate is one operation (fvcore, the seed note)
};
Result<Convention> parseConvention(const std::string &Name);
const char *conventionName(Convention C);
/// A sentence for every output: what a "FLOP" is under \p C.
const char *conventionDescription(Convention C);
/// \p P with its peaks in the convention's operations: under mac an
/// FMA-quoted peak counts multiply-accumulates (half the FLOP/s), so the
/// roofs, ridges and chart agree with the kernels placed under it.
Platform peaksUnder(const Platform &P, Convention C);

/// Operation counts of a kernel: precision ("fp32") -> class ("add", "mul",
/// "fma", "div", "sqrt", "special", "tensor") -> count. "fma" counts FMAs;
/// "tensor" counts FLOPs (2*M*N*K per MMA).
struct Work {
  std::map<std::string, std::map<std::string, double>> Ops;

  double flops(Convention C) const;
  double flops(const std::string &Precision, Convention C) const;
  /// The part executed by matrix units (tensor class), under \p C.
  double tensorFlops(const std::string &Precision, Convention C) const;
  double special() const;
  /// From a total alone (the calculator): all of it fp32 FMA-free FLOPs.
  static Work fromTotal(double Flops, const std::string &Precision = "fp32");
  /// Integer work for an integer roof: width "i32" becomes precision
  /// "int32", and every kind is one operation (held as "add", which weighs
  /// 1 under every convention).
  static Work fromIntClasses(
      const std::map<std::string, std::map<std::string, double>> &IntClasses);
  /// Instructions for the instruction roofline's issue roof (precision
  /// "instructions", one each under every convention).
  static Work fromInstructions(double Instructions);
};

/// Traffic per memory level ("dram", "l2", "shared"...): the bytes that
/// cross it at least; a level without an entry has no traffic to bound.
using Traffic = std::map<std::string, double>;

/// What a kernel's bytes are known to be (docs/counting.md): the counted
/// bytes of its loads and stores, GPU shared-memory bytes among them, and
/// the footprint (or a lower bound of it).
struct KernelBytes {
  double Counted = 0; ///< every load and store to memory (not shared)
  double Shared = 0;  ///< GPU shared memory
  /// Of Counted and of Shared, a GPU's bytes of wide accesses that a
  /// warp's lanes may share (CostKinds.h): the first level gets the rest.
  double CountedShareable = 0, SharedShareable = 0;
  /// GPU code (a CUDA or HIP kernel): a GPU's first level (shared) takes
  /// its counted bytes. CPU code placed on a GPU (a what-if) has no warps
  /// there: that level gets none of its bytes.
  bool GPUCode = false;
  std::optional<double> Footprint; ///< per call
  bool FootprintExact = true;
  /// Per call, an inexact footprint's upper bound (a summary's read and
  /// written formulas), when known.
  std::optional<double> FootprintAtMost;
  double Calls = 1; ///< Counted is over all of them
};

/// The bytes that must cross each memory level of \p P: the counted bytes
/// through the first level (l1; GPU shared-memory bytes through shared),
/// the footprint below it less what the cache levels above can hold (data
/// a previous call left there may be served from them, so the bound holds
/// for repeated calls too). \p Notes says which level may serve it.
Traffic levelTraffic(const Platform &P, const KernelBytes &B,
                     std::vector<std::string> *Notes = nullptr);

struct LevelBound {
  std::string Level;
  double Bytes = 0, BytesPerSecond = 0, Intensity = 0, Seconds = 0;
  /// The traffic gave this level's bytes (false: nothing bounds them, and
  /// Bytes is 0 only for the arithmetic of the bound).
  bool Known = true;
};

/// The least time the core needs for a kernel's loops as compiled (their
/// in-core ceilings, InCore.h, at the platform's clock).
struct InCoreBound {
  double Seconds = 0;
  InCoreCause Cause = InCoreCause::Ports;
  std::string Detail; ///< of the loop that sets it
  double CyclesPerIteration = 0; ///< of that loop, per machine iteration
  /// A chain's links ("vaddsd, 8 x 3 cycles an iteration") and what it
  /// runs through, when a chain sets it.
  std::string Chain;
  ChainKind Kind = ChainKind::None;
  /// The loop's compile unit's DW_AT_producer: the flags it was built
  /// with, when -grecord-command-line recorded them ("": not known).
  std::string Producer;
};

/// Bytes, Intensity, Bandwidth and Ridge are those of the binding level
/// (BytesLevel): the memory level whose bytes take longest at its
/// bandwidth, the roof nearest to binding. For a memory-bound kernel it is
/// the limiter; for a compute- or in-core-bound one, the memory roof it
/// would meet first. DRAM's (0 bytes) only when no level has bytes.
struct Placement {
  double Flops = 0;      ///< W under the convention
  double Bytes = 0;      ///< Q of the binding level
  std::string BytesLevel; ///< which level that is ("dram", "l1", ...)
  double Intensity = 0;  ///< W / Q (infinite when Q = 0)
  double PeakFlops = 0;  ///< the compute roof the kernel is judged against
  double FMAPeakFlops = 0; ///< the same, FMA-adjusted for its FMA share
  double Bandwidth = 0;  ///< that level's bandwidth
  double Ridge = 0;      ///< PeakFlops / Bandwidth
  /// W / max(compute time, each level's bytes / bandwidth): the bound over
  /// every roof.
  double Attainable = 0;
  double AttainableFMA = 0;
  double MinSeconds = 0; ///< max(sum_p W_p/pi_p, each level's Q_l/beta_l)
  bool MemoryBound = false;
  std::string Roof;      ///< e.g. "fp32 vector", "fp16 tensor + fp32 vector"
  /// What sets MinSeconds: "compute", "in-core: ports", "in-core:
  /// dependency chain", "in-core: divide", or a memory level ("l1", "dram").
  std::string Limiter;
  std::optional<InCoreBound> InCore; ///< when the loops' ceilings are known
  /// The FLOP/s the in-core time allows (0: no in-core bound).
  double InCoreFlops = 0;
  std::string NextStep;  ///< one line of advice for the limiter
  std::vector<LevelBound> Levels;
  std::vector<std::string> Notes; ///< e.g. a precision without its own roof
};

/// Places \p W with traffic \p Q on \p P under convention \p C.
Placement place(const Platform &P, const Work &W, const Traffic &Q,
                Convention C, const InCoreBound *InCore = nullptr);

/// One line of advice for \p Pl's limiter, with how much faster the next
/// limit would let the kernel go (NextStep.cpp).
std::string nextStep(const Placement &Pl);

/// "in-core: ports" and the like, for a cause.
std::string inCoreLimiter(InCoreCause C);

/// The limiter in words: Limiter, and for a chain its links ("in-core:
/// dependency chain (vaddsd, 8 x 3 cycles an iteration)").
std::string limiterName(const Placement &Pl);

} // namespace roofline

#endif
