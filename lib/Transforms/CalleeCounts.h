//===- CalleeCounts.h - A call's work in its caller's counts ----*- C++ -*-===//
//
// A kernel's measured counts include what its callees did for it, as its
// static count does. A call to a function defined in the module reaches
// the caller's counters in one of two ways:
//
//  - fixed: a callee without loops whose every counted instruction runs on
//    every call (a straight-line helper: an element's volume) costs the
//    same each time; the caller counts that cost with the call's block and
//    the callee needs no counters;
//  - measured: any other callee is instrumented before its callers (a
//    kernel, or a helper whose own record is hidden) and the caller adds
//    how much the callee's per-thread block grew during the call, counter
//    by counter, with the callee's costs.
//
// An OpenMP parallel region (__kmpc_fork_call, __kmpc_fork_teams) runs its
// outlined body on every thread of the team: the caller adds how much the
// body's blocks grew on all threads together (measured, all threads).
//
// Calls within one strongly connected component (recursion) add nothing:
// the growth that a call from outside it reads, of every block of the
// component, already holds them.
//
//===----------------------------------------------------------------------===//
#ifndef ROOFLINE_LIB_TRANSFORMS_CALLEECOUNTS_H
#define ROOFLINE_LIB_TRANSFORMS_CALLEECOUNTS_H

#include "roofline/Runtime/CostKinds.h"

#include "llvm/IR/PassManager.h"

#include <functional>

#include <map>
#include <optional>
#include <set>
#include <vector>

namespace llvm {
class ArrayType;
class CallBase;
class Function;
class GlobalVariable;
class Module;
} // namespace llvm

namespace roofline {

class CalleeCounts {
public:
  /// One instrumented function's per-thread block, as its callers read it.
  struct Block {
    llvm::GlobalVariable *TLS = nullptr;
    llvm::ArrayType *Type = nullptr;
    /// Its descriptor: the runtime sums its blocks over threads by it.
    llvm::GlobalVariable *Desc = nullptr;
    /// Its costs: (counter, slot, amount per unit); footprints excluded.
    struct Cost {
      uint32_t Counter, Slot;
      uint64_t PerUnit;
    };
    std::vector<Cost> Costs;
  };

  /// Decides, for the module as it is before instrumentation, which callees
  /// are fixed and which must be measured. \p IsTarget: the functions
  /// instrumented for records of their own (or of inlined kernels).
  CalleeCounts(llvm::Module &M, llvm::FunctionAnalysisManager &FAM,
               const std::function<bool(llvm::Function &)> &IsTarget,
               const std::function<bool(llvm::Function &)> &CanInstrument);

  /// Every function to instrument, callees before callers: the targets and
  /// the helpers their measured calls need (second: it is a target).
  const std::vector<std::pair<llvm::Function *, bool>> &order() const {
    return Order;
  }
  /// The fixed cost of one call at \p CB, or null.
  const CostVector *fixedCost(const llvm::CallBase &CB) const;
  /// The blocks whose growth during \p CB is the call's work (the callee's
  /// component's, once instrumented); empty when the call adds nothing or
  /// is within the caller's own component.
  std::vector<const Block *> measured(const llvm::CallBase &CB) const;
  /// The outlined body a call forks an OpenMP parallel region with, or
  /// null: its growth is read over all threads.
  static const llvm::Function *forkedBody(const llvm::CallBase &CB);
  /// The call's work is not in the caller's count: a callee with no body
  /// here, or one that cannot be instrumented. Empty when it is counted.
  std::string uncounted(const llvm::CallBase &CB) const;

  /// Called once \p F is instrumented, before any of its callers.
  void instrumented(llvm::Function &F, Block B) { Blocks[&F] = std::move(B); }
  /// \p Kept is \p Original's kept function (KeptCalls.h): its calls
  /// count as the original's.
  void keptAs(const llvm::Function &Kept, const llvm::Function &Original) {
    KeptOriginal[&Kept] = &Original;
  }

private:
  std::optional<CostVector> fixedCostOf(llvm::Function &F,
                                        llvm::FunctionAnalysisManager &FAM);
  std::map<const llvm::Function *, std::optional<CostVector>> Fixed;
  std::set<const llvm::Function *> Visiting;
  std::map<const llvm::Function *, unsigned> Component;
  std::map<unsigned, std::vector<const llvm::Function *>> Members;
  std::set<const llvm::Function *> Instrumentable;
  std::map<const llvm::Function *, Block> Blocks;
  std::map<const llvm::Function *, const llvm::Function *> KeptOriginal;
  /// The function whose counts a call of \p F adds to.
  const llvm::Function *countedAs(const llvm::Function *F) const {
    auto It = KeptOriginal.find(F);
    return It == KeptOriginal.end() ? F : It->second;
  }
  std::vector<std::pair<llvm::Function *, bool>> Order;
};

} // namespace roofline

#endif
