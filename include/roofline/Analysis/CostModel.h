//===- CostModel.h - FLOPs and bytes of one IR instruction ------*- C++ -*-===//
//
// The counting conventions of docs/counting.md, one instruction at a time.
// Calls to functions with bodies are left to KernelAnalysis (it substitutes
// the callee's own totals); everything else is priced here.
//
//===----------------------------------------------------------------------===//
#ifndef ROOFLINE_ANALYSIS_COSTMODEL_H
#define ROOFLINE_ANALYSIS_COSTMODEL_H

#include "roofline/Analysis/FirstLevelShares.h"
#include "roofline/Analysis/IntegerWork.h"
#include "roofline/Runtime/CostKinds.h"

#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringRef.h"

#include <optional>

namespace llvm {
class CallBase;
class DataLayout;
class Function;
class Instruction;
class TargetTransformInfo;
class Type;
class Value;
} // namespace llvm

namespace roofline {

/// Bytes whose amount is a run-time value (memcpy/memset with a variable
/// length): \p Length bytes go to each slot in \p Slots.
struct VariableBytes {
  const llvm::Value *Length = nullptr;
  llvm::SmallVector<unsigned, 2> Slots;
  /// The pointer parameters it goes through: {parameter index, access}.
  llvm::SmallVector<std::pair<unsigned, Access>, 2> Args;
};

struct OpCost {
  CostVector Fixed;
  llvm::SmallVector<VariableBytes, 1> Variable;
};

class CostModel {
public:
  /// With \p TTI, each cost also holds the machine instructions the IR
  /// lowers to (InstructionCount.h): the static summary's; the
  /// instrumentation, which does not count them, passes none.
  CostModel(const llvm::Function &F,
            const llvm::TargetTransformInfo *TTI = nullptr);

  /// Marks a copy of an optnone function that the analysis optimised: the
  /// back end compiles the original at -O0.
  static constexpr const char *UnoptimizedAttr = "roofline-unoptimized";

  /// Whether costs hold machine instructions.
  bool countsInstructions() const { return TTI != nullptr; }

  /// Cost of one execution of \p I.
  OpCost costOf(const llvm::Instruction &I) const;

  /// The memory space an access through \p Ptr goes to.
  MemSpace spaceOf(const llvm::Value *Ptr) const;

  /// The index of the pointer parameter \p Ptr points into, if it does.
  std::optional<unsigned> parameterOf(const llvm::Value *Ptr) const;

  /// The parameters \p Ptr may point into when it is chosen among several
  /// at run time (a select or phi of parameters); empty otherwise.
  llvm::SmallVector<unsigned, 2> parameterCandidates(const llvm::Value *Ptr) const;

  /// Space of a scalar pointer or of a vector of pointers (gather/scatter).
  MemSpace spaceOfLanes(const llvm::Value *Ptr) const;

  /// True when \p CB calls a function whose body KernelAnalysis should
  /// count in its place (not an intrinsic or a known math routine).
  static bool isCountedCallee(const llvm::CallBase &CB);


private:
  void costOfCall(const llvm::CallBase &CB, OpCost &Cost) const;
  bool costOfIntrinsic(const llvm::CallBase &CB, OpCost &Cost) const;
  bool costOfNVVMIntrinsic(const llvm::CallBase &CB, llvm::StringRef Name,
                           OpCost &Cost) const;
  /// HIP device code's llvm.amdgcn.* (AMDGCNCosts.cpp).
  bool costOfAMDGCNIntrinsic(const llvm::CallBase &CB, llvm::StringRef Name,
                             OpCost &Cost) const;
  void addMemoryTransfer(const llvm::CallBase &CB, bool Loads, bool Stores,
                         OpCost &Cost) const;
  /// One access of \p Bytes (a lane's, on a GPU, whose wide accesses a
  /// warp's lanes may share: CostKinds.h); \p I, a load or store the back
  /// end may merge with its neighbours (FirstLevelShares.h).
  void addAccess(CostVector &C, MemSpace S, Access A, int64_t Bytes,
                 const llvm::Instruction *I = nullptr) const {
    C.addBytes(S, A, Bytes);
    if (!Shares)
      return;
    if (I)
      C.Slots[shareableSlot(S)] += Bytes - Shares->of(*I, Bytes);
    else
      C.addWarpShareable(S, Bytes);
  }
  /// An atomic: a load and a store of \p Bytes, one access.
  void addAtomic(CostVector &C, MemSpace S, int64_t Bytes) const {
    C.addBytes(S, Access::Load, Bytes);
    C.addBytes(S, Access::Store, Bytes);
    if (GPU)
      C.addWarpShareable(S, 2 * Bytes);
  }

  /// \p Mul, an operand of \p Add, is a product the back end may fuse
  /// into it (contractible, and its other uses allow it).
  bool fusesInto(const llvm::Value *Mul, const llvm::Instruction &Add) const;
  /// The product \p Add fuses into an FMA; null when it stays an add.
  const llvm::Instruction *fusedProduct(const llvm::Instruction &Add) const;

  const llvm::Function &F;
  const llvm::DataLayout &DL;
  bool GPU;
  /// Which integer operations are the user's work; found on the code as it
  /// is when the model is made (instrumentation added later is not work).
  IntegerWork Ints;
  /// NVPTX at -O1 and above fuses a product into each of up to four adds
  /// that use it; otherwise only a product with one use is fused.
  bool FuseShared;
  const llvm::TargetTransformInfo *TTI;
  bool X86; ///< loads fold into the arithmetic that uses them
  /// On a GPU, each load's and store's bytes at the first level.
  std::optional<FirstLevelShares> Shares;
};

/// Precision of a scalar or vector floating-point type; Other for the rest.
Precision precisionOf(const llvm::Type *Ty);
/// A call with a floating-point result or argument.
bool mentionsFloat(const llvm::CallBase &CB);
/// The floating-point type a math call works on: its result, or its first
/// floating-point argument for routines such as sincos that return void.
llvm::Type *mathType(const llvm::CallBase &CB);
/// Lanes of a vector type (minimum lanes for scalable vectors), else 1.
unsigned lanesOf(const llvm::Type *Ty);

/// Recognises a math routine by name ("expf", "__nv_sqrt", "sinh"): returns
/// false for unknown names; sets \p Free for routines that cost no FLOPs
/// (fabs, floor, fmin...), else their \p Class.
bool classifyMathFunction(llvm::StringRef Name, FlopClass &Class, bool &Free);

} // namespace roofline

#endif
