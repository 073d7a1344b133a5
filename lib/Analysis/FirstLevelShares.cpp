//===- FirstLevelShares.cpp - A GPU access's bytes at the first level -----===//
#include "roofline/Analysis/FirstLevelShares.h"

#include "roofline/Runtime/CostKinds.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/Analysis/ValueTracking.h"
#include "llvm/IR/DataLayout.h"
#include "llvm/IR/Function.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/Module.h"

#include <algorithm>
#include <map>
#include <tuple>

using namespace llvm;

namespace roofline {

namespace {

struct MemAccess {
  const Instruction *I;
  int64_t Offset, Bytes;
  uint64_t Align;
  unsigned Order; ///< in the block, for a stable order
};

/// The widest access a lane makes in one instruction: 16 bytes (ld.v4.f32,
/// global_load_dwordx4), 32 on sm_100 and later (ld.v8.f32).
int64_t widestAccess(const Function &F) {
  StringRef CPU = F.getFnAttribute("target-cpu").getValueAsString();
  unsigned SM = 0;
  if (CPU.consume_front("sm_"))
    CPU.take_while([](char C) { return C >= '0' && C <= '9'; })
        .getAsInteger(10, SM);
  return SM >= 100 ? 32 : 16;
}

/// Splits accesses to one base, sorted by offset, into the groups the back
/// end may merge: consecutive, each group starting at an access aligned to
/// its size. Taking each group as wide as it may be gives the fewest
/// groups, so the cycles a bound charges are never more than the merged
/// code takes.
void shareGroups(SmallVectorImpl<MemAccess> &Run, int64_t Widest,
                 DenseMap<const Instruction *, int64_t> &Share) {
  for (size_t S = 0; S < Run.size();) {
    int64_t Limit = std::min<int64_t>(Widest, int64_t(Run[S].Align));
    size_t E = S + 1;
    int64_t Size = Run[S].Bytes;
    while (E < Run.size() && Run[E].Offset == Run[E - 1].Offset + Run[E - 1].Bytes &&
           Size + Run[E].Bytes <= Limit)
      Size += Run[E++].Bytes;
    if (Size > WarpCycleShare)
      for (size_t I = S; I < E; ++I)
        Share[Run[I].I] = WarpCycleShare * Run[I].Bytes / Size;
    S = E;
  }
}

} // namespace

FirstLevelShares::FirstLevelShares(const Function &F) {
  const DataLayout &DL = F.getDataLayout();
  int64_t Widest = widestAccess(F);
  for (const BasicBlock &BB : F) {
    // (base, store?) -> its accesses in the block
    std::map<std::pair<const Value *, bool>, SmallVector<MemAccess, 4>> ByBase;
    unsigned Order = 0;
    for (const Instruction &I : BB) {
      const Value *Ptr = getLoadStorePointerOperand(&I);
      if (!Ptr || cast<Instruction>(I).isAtomic())
        continue;
      Type *Ty = getLoadStoreType(const_cast<Instruction *>(&I));
      if (Ty->isScalableTy())
        continue;
      APInt Off(DL.getIndexTypeSizeInBits(Ptr->getType()), 0);
      const Value *Base = Ptr->stripAndAccumulateConstantOffsets(
          DL, Off, /*AllowNonInbounds=*/true);
      Align A = std::max(getLoadStoreAlignment(&I),
                         Ptr->getPointerAlignment(DL));
      ByBase[{Base, isa<StoreInst>(I)}].push_back(
          {&I, Off.getSExtValue(), int64_t(DL.getTypeStoreSize(Ty).getFixedValue()),
           A.value(), Order++});
    }
    for (auto &[Key, Run] : ByBase) {
      llvm::sort(Run, [](const MemAccess &X, const MemAccess &Y) {
        return std::tie(X.Offset, X.Order) < std::tie(Y.Offset, Y.Order);
      });
      shareGroups(Run, Widest, Share);
    }
  }
}

int64_t FirstLevelShares::of(const Instruction &I, int64_t Bytes) const {
  auto It = Share.find(&I);
  if (It != Share.end())
    return std::min(It->second, Bytes);
  return std::min(Bytes, WarpCycleShare);
}

} // namespace roofline
