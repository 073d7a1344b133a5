//===- InCore.h - Loops' in-core ceilings, as data --------------*- C++ -*-===//
//
// What the in-core analysis (lib/InCore, LLVM's MCA) found for each
// innermost loop of a program as compiled, kept apart from LLVM so the
// report can read it from JSON and turn it into a time: a machine iteration
// of the loop does FlopsPerIteration FLOPs and BytesPerIteration bytes of
// loads and stores in CyclesPerIteration cycles at best, so the nest the
// loop belongs to runs at most at those rates (docs/incore.md).
//
//===----------------------------------------------------------------------===//
#ifndef ROOFLINE_MODEL_INCORE_H
#define ROOFLINE_MODEL_INCORE_H

#include "roofline/Model/Result.h"

#include <optional>
#include <string>
#include <vector>

namespace roofline {

/// What holds a loop back inside the core.
enum class InCoreCause {
  Ports,           ///< execution ports or the issue width
  DependencyChain, ///< a loop-carried chain of latencies
  Divide           ///< the divider (or square root) unit
};
const char *inCoreCauseName(InCoreCause C); // "ports", "dependency chain", ...
std::optional<InCoreCause> parseInCoreCause(const std::string &Name);

/// What a loop-carried chain runs through: it says what lifts it.
enum class ChainKind {
  None,          ///< no chain longer than the ports' bound
  FloatingPoint, ///< FP adds, multiplies or FMAs (a reduction: reassociable)
  Memory,        ///< a store that a later iteration's load reads back
  Other          ///< integer work, pointer chasing, ...
};
const char *chainKindName(ChainKind K); // "none", "fp", "memory", "other"
std::optional<ChainKind> parseChainKind(const std::string &Name);

/// One innermost loop of the machine code.
struct InCoreLoop {
  std::string Function; ///< demangled name of the function the code is in
  uint64_t Address = 0; ///< of the loop's first instruction
  unsigned Instructions = 0;
  /// Source positions the loop's instructions come from: every frame,
  /// inlined ones too, as (function, file, line).
  struct Position {
    std::string Function, File;
    unsigned Line = 0;
  };
  std::vector<Position> Positions;
  double CyclesPerIteration = 0; ///< MCA's steady state, one machine iteration
  double PortCycles = 0;  ///< the busiest port's (or issue width's) share
  double ChainCycles = 0; ///< the longest loop-carried latency chain
  double MicroOps = 0;    ///< per iteration, in the scheduling model
  /// Iterations in flight at most: the reorder buffer or the first
  /// scheduler queue to fill (0: not known, WindowMicroOps / MicroOps).
  double WindowIterations = 0;
  std::string WindowDetail; ///< which, e.g. "Zn4FP's 64 scheduler entries"
  std::string PortDetail; ///< what the port bound is, e.g. "2 cycles on ..."
  double FlopsPerIteration = 0; ///< FMA = 2 (the fma2 convention)
  double BytesPerIteration = 0; ///< loads and stores
  InCoreCause Cause = InCoreCause::Ports;
  std::string Detail; ///< e.g. "a 4-cycle chain through vaddsd"
  /// The chain's links, e.g. "vaddsd, 8 x 3 cycles an iteration" ("": no
  /// chain longer than the ports' bound), and what it runs through.
  std::string Chain;
  ChainKind Kind = ChainKind::None;
  /// Source frames of the back branch of the machine loop around this one
  /// (empty: none): which loop re-enters it.
  std::vector<Position> Enclosing;
  int Producer = -1; ///< its compile unit's in InCoreReport::Producers
  std::vector<std::string> Code; ///< the loop's instructions, as assembly
};

/// The analysis of one binary.
struct InCoreReport {
  std::string Binary;
  std::string Cpu;    ///< the scheduling model used (-mcpu)
  /// Micro-ops the core keeps in flight (the model's reorder buffer): a
  /// chain in a loop that runs fewer than this many per entry overlaps
  /// the next entry's.
  double WindowMicroOps = 0;
  std::vector<InCoreLoop> Loops;
  /// A call inside a machine loop to a function of the binary (not to
  /// another library, not to the runtime): a nest's counts around it hold
  /// the callee's work, which no loop of the nest does.
  struct LoopCall {
    std::string Callee; ///< "" when called through a register
    std::vector<InCoreLoop::Position> Positions; ///< every frame of the call
  };
  std::vector<LoopCall> Calls;
  std::vector<std::string> Notes; ///< why some loops have no ceiling
  /// The compile units' DW_AT_producer strings, each once: clang's version
  /// and, built with -grecord-command-line, its command line.
  std::vector<std::string> Producers;
};

std::string inCoreJSON(const InCoreReport &R);
Result<InCoreReport> parseInCoreJSON(const std::string &Text,
                                     const std::string &Path);

/// The first call inside the nest at \p Line (to \p EndLine) of \p Function
/// in \p File to a function of the binary: its callee ("an indirect call"
/// when through a register), or none.
std::optional<std::string> callInside(const InCoreReport &R,
                                      const std::string &Function,
                                      const std::string &File, unsigned Line,
                                      unsigned EndLine);

/// Where a loop nest is in the source: its function, file and lines
/// (EndLine 0: to the function's end).
struct NestPlace {
  std::string Function, File;
  unsigned Line = 0, EndLine = 0;
  bool holds(const InCoreLoop::Position &P) const {
    return P.Function == Function && P.File == File && P.Line >= Line &&
           (EndLine == 0 || P.Line < EndLine);
  }
};

/// Whether some machine loop has code from both nests: \p Inner, of a
/// function inlined into \p Outer's, sits in it.
bool loopsShared(const InCoreReport &R, const NestPlace &Inner,
                 const NestPlace &Outer);

/// A rate a loop of the nest reaches at best, and why no higher.
struct InCoreRate {
  double PerCycle = 0;           ///< FLOPs or bytes per cycle (0: none)
  double CyclesPerIteration = 0; ///< of the loop that reaches it
  InCoreCause Cause = InCoreCause::Ports;
  std::string Detail;
  std::string Chain; ///< when a chain sets it: its links
  ChainKind Kind = ChainKind::None;
  std::string Producer; ///< how the loop was compiled ("": not known)
};

/// The fastest rates of the innermost loops in a loop nest, and the least
/// time the nest's work takes at them.
struct InCoreCeiling {
  InCoreRate Flops, Bytes; ///< the best loop for each
  unsigned Loops = 0;      ///< innermost machine loops found for the nest
  /// Cycles for \p Flops FLOPs and \p Bytes bytes: the longer of the two
  /// at the best rates (each a lower bound when all of the nest's work runs
  /// in its innermost loops).
  double cycles(double Flops, double Bytes) const;
  /// The rate that gives cycles() its value.
  const InCoreRate &limiting(double Flops, double Bytes) const;
};

/// The share of a loop-carried chain an entry of \p IterationsPerEntry
/// machine iterations of \p L (0: not known) cannot hide: the chain starts
/// anew at each entry, and the core runs the next entry's beside the
/// draining one as far as its windows allow (ChainOverlap.h;
/// docs/incore.md, "Chains across entries"). \p WindowMicroOps is the
/// report's reorder buffer: the window L.WindowIterations names is a
/// scheduler queue when it is the smaller.
double chainShare(const InCoreLoop &L, double WindowMicroOps,
                  double IterationsPerEntry);

/// Where the nest of \p Function at \p Line of \p File ends: before the
/// first of \p Later (the later nests' lines, ascending) past every line
/// its own machine loops (those with code from \p Line) hold. A later
/// "nest" within those lines is a copy the compiler made of a loop inside
/// this one (the other side of an unswitched test), not the next nest in
/// the source. 0: to the end.
unsigned nestEnd(const InCoreReport &R, const std::string &Function,
                 const std::string &File, unsigned Line,
                 const std::vector<unsigned> &Later);

/// What a run measured of a loop nest, for the chains its entries hide.
struct NestRun {
  double IterationsPerEntry = 0; ///< of its outermost loop (0: not known)
  double Iterations = 0;         ///< of its outermost loop, all entries
  double Flops = 0, Bytes = 0;   ///< the nest's work (FLOPs under fma2)
  /// Each timed entry's time ends when its work has executed (the
  /// profile's "timer_stop": "rdtscp"): the entries measured do not
  /// overlap, so the nest's own loop hides none of its chain behind the
  /// next entry.
  bool EntriesApart = false;
};

/// The ceiling of the loop nest of \p Function that starts at \p Line of
/// \p File and ends before \p EndLine (the next nest's line, or 0 for none):
/// the innermost loops with an instruction from there. A loop-carried
/// chain bounds a loop as far as its entries cannot hide it: the nest's own
/// loop runs \p Run.IterationsPerEntry an entry; a loop directly inside it
/// is entered once an iteration of it, for the nest's work over its
/// iterations' (an estimate: the work of every loop so entered); deeper
/// loops' entries are not known, and their chains are taken as hidden.
std::optional<InCoreCeiling> ceilingOf(const InCoreReport &R,
                                       const std::string &Function,
                                       const std::string &File, unsigned Line,
                                       unsigned EndLine, const NestRun &Run = {});

} // namespace roofline

#endif
