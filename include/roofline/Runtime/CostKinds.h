//===- CostKinds.h - What the cost model counts -----------------*- C++ -*-===//
//
// The vocabulary shared by the cost model, the summary writer, the runtime
// and the tests: FLOP classes per precision and bytes per memory space,
// laid out as slots of a flat vector so a basic block's cost is one small
// array. The descriptor's roofline_cost records name these slots, which is
// why it lives beside Descriptor.h. No LLVM here.
//
//===----------------------------------------------------------------------===//
#ifndef ROOFLINE_RUNTIME_COSTKINDS_H
#define ROOFLINE_RUNTIME_COSTKINDS_H

#include <array>
#include <cstdint>
#include <map>
#include <string>

namespace roofline {

enum class Precision : unsigned { FP16, BF16, FP32, FP64, Other };
constexpr unsigned NumPrecisions = 5;

/// Operation classes. Kept apart so other tools' conventions can be rebuilt:
/// FLOPs = add + mul + 2*fma + div + sqrt + tensor (the tool's own),
/// Nsight Compute = add + mul + 2*fma, one-MAC-is-one = add + mul + fma + ...
enum class FlopClass : unsigned { Add, Mul, FMA, Div, Sqrt, Special, Tensor };
constexpr unsigned NumFlopClasses = 7;

/// Where bytes go. CPU: Memory (anything not provably the function's own
/// stack) and Stack. NVPTX: the PTX state spaces.
enum class MemSpace : unsigned {
  Memory,
  Stack,
  Global,
  Shared,
  Local,
  Constant,
  Generic
};
constexpr unsigned NumMemSpaces = 7;

enum class Access : unsigned { Load, Store };

/// Integer operations, by width (the operands' bits, rounded up: i1 counts
/// as i8, i128 as i64) and kind. Only the user's work: address arithmetic,
/// induction variables and loop control are not counted (docs/counting.md,
/// "Integer operations").
enum class IntWidth : unsigned { I8, I16, I32, I64 };
constexpr unsigned NumIntWidths = 4;
/// Dot holds operations, two per multiply-accumulate pair (vpdpbusd, sdot),
/// as an FMA is two FLOPs; the other kinds hold one per lane.
enum class IntKind : unsigned { AddSub, Mul, DivRem, Bitwise, CompareSelect, Dot };
constexpr unsigned NumIntKinds = 6;

const char *precisionName(Precision P);
const char *flopClassName(FlopClass C);
const char *memSpaceName(MemSpace S);
const char *intWidthName(IntWidth W);
const char *intKindName(IntKind K);
/// The width class of an integer of \p Bits bits.
IntWidth intWidthOf(unsigned Bits);

/// Operations of class \p C recorded in a slot contribute this many FLOPs to
/// the FLOP total. Special functions are counted apart (0 here); the tensor
/// slot already holds FLOPs (2*M*N*K per warp-wide MMA, per thread /32).
int64_t flopsPerOperation(FlopClass C);

/// Traffic against the DRAM roof: main memory on a CPU, global and generic
/// on a GPU.
bool isDRAMSpace(MemSpace S);

constexpr unsigned NumFlopSlots = NumPrecisions * NumFlopClasses;
/// After the bytes, two slots: a call's footprint (distinct bytes read,
/// written), evaluated at entry from its arguments by the instrumented code.
/// Then the integer operations, by width and kind.
constexpr unsigned FirstIntSlot = NumFlopSlots + NumMemSpaces * 2 + 2;
/// Last, per memory space, a GPU's bytes that a warp's lanes may share:
/// of each access wider than WarpCycleShare bytes a lane, the bytes beyond
/// that share. The first level serves a warp's access in cycles of 128
/// bytes, one at least, so 4 bytes a lane of it is all a bound may charge
/// there unless the lanes' addresses are known to differ
/// (docs/counting.md, "The first level on a GPU").
constexpr unsigned FirstShareableSlot = FirstIntSlot + NumIntWidths * NumIntKinds;
constexpr unsigned NumSlots = FirstShareableSlot + NumMemSpaces;
/// The bytes a lane of a 32-wide warp gets of one 128-byte cycle.
constexpr int64_t WarpCycleShare = 4;

/// A run counts one thing more than the costs: after their slots, the
/// machine instructions (which CostVector keeps apart, as Instructions:
/// they are not work, and make no block or function counted).
constexpr unsigned InstructionSlot = NumSlots;
constexpr unsigned NumRunSlots = NumSlots + 1;

inline unsigned flopSlot(Precision P, FlopClass C) {
  return unsigned(P) * NumFlopClasses + unsigned(C);
}
inline unsigned byteSlot(MemSpace S, Access A) {
  return NumFlopSlots + unsigned(S) * 2 + unsigned(A);
}
inline unsigned footprintSlot(Access A) {
  return NumFlopSlots + NumMemSpaces * 2 + unsigned(A);
}
inline unsigned intSlot(IntWidth W, IntKind K) {
  return FirstIntSlot + unsigned(W) * NumIntKinds + unsigned(K);
}
inline unsigned shareableSlot(MemSpace S) {
  return FirstShareableSlot + unsigned(S);
}

/// The static cost of one instruction or one basic block (one execution).
struct CostVector {
  std::array<int64_t, NumSlots> Slots{};
  /// Constructs the model does not understand, by name, with their counts.
  std::map<std::string, int64_t> Unknown;
  /// Set when a count is an upper bound (masked or gather/scatter lanes).
  bool UpperBound = false;
  /// Bytes loaded and stored through each pointer parameter (by index),
  /// for fusion auditing: which buffers a kernel reads and writes.
  std::map<unsigned, std::array<int64_t, 2>> ArgBytes;
  /// Machine instructions the IR lowers to, as the target's cost model
  /// sizes them (docs/counting.md, "Instructions"). Kept out of Slots: it
  /// is the static summary's, not a run's; the instrumentation neither
  /// counts it nor lets it make a block or a function count.
  int64_t Instructions = 0;

  void addFlops(Precision P, FlopClass C, int64_t N) {
    Slots[flopSlot(P, C)] += N;
  }
  void addBytes(MemSpace S, Access A, int64_t N) { Slots[byteSlot(S, A)] += N; }
  /// One GPU access of \p N bytes a lane (an atomic's load and store
  /// together) that is one instruction: its bytes beyond WarpCycleShare
  /// may reach the whole warp in one first-level cycle.
  void addWarpShareable(MemSpace S, int64_t N) {
    if (N > WarpCycleShare)
      Slots[shareableSlot(S)] += N - WarpCycleShare;
  }
  void addIntOps(IntWidth W, IntKind K, int64_t N) {
    Slots[intSlot(W, K)] += N;
  }
  void addUnknown(const std::string &Name, int64_t N = 1) { Unknown[Name] += N; }
  void addArgBytes(unsigned Arg, Access A, int64_t N) {
    ArgBytes[Arg][unsigned(A)] += N;
  }
  CostVector &operator+=(const CostVector &O);
  /// No work (instructions aside).
  bool empty() const;
};

} // namespace roofline

#endif
