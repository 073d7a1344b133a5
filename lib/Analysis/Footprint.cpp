//===- Footprint.cpp - The distinct bytes a call touches ------------------===//
//
// Each load and store to memory that reaches DRAM becomes an AffineAccess:
// its address as base + offset (ScalarEvolution), the offset as a
// polynomial in the counters of the loops around it ($iv<depth>, running
// over the loop's iterations) and, on a GPU, in the thread and block
// indices (which run over the launch). AccessSet.cpp counts the distinct
// bytes of each array's accesses.
//
// On a GPU the thread and block indices become counters over the launch
// (LaunchFootprint.cpp).
//
//===----------------------------------------------------------------------===//
#include "Footprint.h"
#include "roofline/Model/Condition.h"

#include "roofline/Analysis/AccessSet.h"
#include "roofline/Analysis/DeviceCode.h"
#include "roofline/Model/Formula.h"

#include "llvm/Demangle/Demangle.h"
#include "llvm/IR/DataLayout.h"
#include "llvm/Analysis/CFG.h"
#include "llvm/IR/Dominators.h"
#include "llvm/IR/GlobalVariable.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/Module.h"
#include "llvm/TargetParser/Triple.h"

#include <cmath>
#include <map>
#include <tuple>

using namespace llvm;

namespace roofline::detail {

std::optional<Polynomial> coefficientOf(const Polynomial &P,
                                        const std::string &Var) {
  Polynomial C;
  for (const auto &[M, K] : P.terms()) {
    Polynomial Rest(K);
    bool Has = false;
    for (const auto &[V, E] : M) {
      if (V.name() == Var) {
        if (E != 1)
          return std::nullopt;
        Has = true;
        continue;
      }
      for (unsigned I = 0; I < E; ++I)
        Rest = Rest * Polynomial::atom(V);
    }
    if (Has)
      C += Rest;
  }
  return C;
}

namespace {

/// The array \p Base is, by name: a parameter, a global, or a pointer
/// loaded from one of those at a constant offset (a member of a struct the
/// kernel is passed, a std::vector's data pointer in it), written `*(d+8)`.
/// A loaded pointer names one array only when it is loaded outside
/// \p Outermost, the outermost loop around the access (a row pointer
/// loaded in the loop is a different array on each iteration).
std::optional<std::string> arrayName(const Value *Base, const Loop *Outermost,
                                     const std::vector<std::string> &Params,
                                     const DataLayout &DL, unsigned Depth = 0) {
  // A GPU kernel's global pointer seen as a flat one (addrspacecast).
  if (const auto *Cast = dyn_cast_or_null<AddrSpaceCastInst>(Base))
    Base = Cast->getPointerOperand();
  if (const auto *Arg = dyn_cast_or_null<Argument>(Base))
    return Params[Arg->getArgNo()];
  if (const auto *GV = dyn_cast_or_null<GlobalVariable>(Base))
    return GV->getName().str();
  const auto *L = dyn_cast_or_null<LoadInst>(Base);
  if (!L || Depth > 4 || !L->getType()->isPointerTy() || L->isVolatile() ||
      (Outermost && Outermost->contains(L)))
    return std::nullopt;
  APInt Offset(DL.getIndexTypeSizeInBits(L->getPointerOperandType()), 0);
  const Value *From = L->getPointerOperand()->stripAndAccumulateConstantOffsets(
      DL, Offset, /*AllowNonInbounds=*/true);
  auto Name = arrayName(From, Outermost, Params, DL, Depth + 1);
  if (!Name)
    return std::nullopt;
  return "*(" + *Name +
         (Offset.isZero() ? "" : "+" + std::to_string(Offset.getSExtValue())) + ")";
}

} // namespace

bool FootprintAnalysis::impliedByFacts(const Assumption &A) const {
  // "L >= R", implied when a guard's fact or a trip count's range condition
  // F >= 0 has (L - R) - F a constant >= 0 ("N - 1 >= 0" by the guard
  // "N > 0").
  const Condition &C = A.Test;
  if (!A.isCondition() || C.K != Condition::Kind::Compare ||
      C.Op != Comparison::GE || C.WideRhs)
    return false;
  Polynomial P = C.Lhs - C.Rhs;
  std::vector<Polynomial> Facts = GuardFacts;
  for (const RangeCondition &C : RangeConditions)
    Facts.push_back(C.Value);
  for (const Polynomial &F : Facts)
    if (auto Gap = (P - F).constantValue(); Gap && Gap->num() >= 0)
      return true;
  return false;
}

void FootprintAnalysis::addAccess(AccessGroups &G, Instruction &I,
                                  const Value *Ptr, Polynomial Size,
                                  bool Write, std::optional<MemSpace> Space,
                                  int64_t Offset) const {
  if (!Space || *Space == MemSpace::Generic)
    Space = S.CM.spaceOf(Ptr);
  if (!isDRAMSpace(*Space))
    return;
  const DataLayout &DL = S.F.getParent()->getDataLayout();
  bool GPU = isDeviceModule(*S.F.getParent());
  AffineAccess A;
  A.Size = Size;
  A.Where = locationText(&I);
  if (A.Where.empty())
    A.Where =
        std::string("'") + I.getOpcodeName() + "' in " + S.F.getName().str();
  BasicBlock *BB = I.getParent();
  Loop *Inner = S.LI.getLoopFor(BB);
  // The loops around it, outermost first, each over the iterations the
  // block runs in (the header runs once more in a loop that exits there).
  std::vector<Loop *> Chain;
  for (Loop *L = Inner; L; L = L->getParentLoop())
    Chain.insert(Chain.begin(), L);
  A.EveryTime = Flow.RunsEveryTime.lookup(BB);
  for (Loop *L : Chain) {
    bool Header = L == Inner && BB == L->getHeader();
    auto It = Header ? Trips.find(L) : Flow.Iterations.find(L);
    if (It == (Header ? Trips.end() : Flow.Iterations.end())) {
      A.Known = false;
      continue;
    }
    A.Dims.push_back({FunctionScope::ivName(L), It->second});
    A.EveryTime &= Flow.RunsEveryTime.lookup(L);
  }

  // __ldg(&x[i]) casts the flat address of x[i] to a global one (the same
  // 64-bit address): read the address before the cast.
  // (Stripping constant offsets strips the cast too.)
  APInt CastOffset(DL.getIndexTypeSizeInBits(Ptr->getType()), 0);
  const Value *Flat = Ptr->stripAndAccumulateConstantOffsets(DL, CastOffset, true);
  if (const auto *Cast = dyn_cast<AddrSpaceCastInst>(Flat))
    Flat = Cast->getPointerOperand();
  if (Flat->getType()->getPointerAddressSpace() !=
          Ptr->getType()->getPointerAddressSpace() &&
      DL.getPointerTypeSizeInBits(Flat->getType()) ==
          DL.getPointerTypeSizeInBits(Ptr->getType())) {
    Ptr = Flat;
    Offset += CastOffset.getSExtValue();
  }
  const SCEV *Addr = S.SE.getSCEV(const_cast<Value *>(Ptr));
  if (Offset)
    Addr = S.SE.getAddExpr(
        Addr, S.SE.getConstant(S.SE.getEffectiveSCEVType(Ptr->getType()), Offset,
                               /*isSigned=*/true));
  const SCEV *Base = S.SE.getPointerBase(Addr);
  std::string Array = "(other)";
  const Value *BaseV = nullptr;
  if (const auto *U = dyn_cast<SCEVUnknown>(Base))
    BaseV = U->getValue();
  if (auto Name = arrayName(BaseV, Chain.empty() ? nullptr : Chain.front(),
                            S.Params, DL))
    Array = *Name;
  else
    A.Known = false; // a pointer computed from data: a gather

  if (A.Known) {
    SCEVPolynomial T = S.translatorAround(Inner);
    const SCEV *Off = S.SE.getMinusSCEV(Addr, Base);
    auto P = isa<SCEVCouldNotCompute>(Off)
                 ? std::nullopt
                 : T.translate(Off, SCEVPolynomial::Reading::Modular);
    if (!P || P->mentions("laneid")) {
      A.Known = false;
    } else {
      A.Offset = *P;
      bool Restricted = false;
      if (GPU)
        gridDimensions(A.Offset, A.Dims, G.Assumed[Array], Restricted,
                       holdingAt(Guards.Facts, Guards.Where, BB),
                       holdingAt(Guards.Tests, Guards.TestWhere, BB));
      A.SomeThreads = Restricted;
      A.EveryTime &= !Restricted;
      // A thread or block index inside a floor (the row idx / C of the
      // thread's element) varies over the launch; a lattice would read the
      // floor as one value.
      std::vector<Atom> Atoms = A.Offset.atoms();
      if (std::any_of(Atoms.begin(), Atoms.end(), [](const Atom &T) {
            return T.kind() == AtomKind::Floor && T.involves(AtomKind::ThreadIndex);
          }))
        A.Known = false, A.DividesThreadIndex = true;
      // A trip that varies with the thread cannot be summed over the
      // launch (a grid-stride loop was recognised above).
      for (Dimension &D : A.Dims)
        if (D.Trip.involves(AtomKind::ThreadIndex)) {
          A.Known = false;
          D.Trip = Polynomial::invalid();
        }
    }
  }
  if (!A.Known && GPU && A.Dims.size() == Chain.size()) {
    // The upper bound counts every thread of the launch.
    std::vector<Dimension> Grid;
    for (const char *Ax : LaunchAxes) {
      Grid.push_back({std::string("$block.") + Ax,
                      Polynomial::variable(std::string("gridDim.") + Ax)});
      Grid.push_back({std::string("$thread.") + Ax,
                      Polynomial::variable(std::string("blockDim.") + Ax)});
    }
    A.Dims.insert(A.Dims.begin(), Grid.begin(), Grid.end());
  }
  G.Accesses[{Array, Write}].push_back(std::move(A));
  G.Sites[{Array, Write}].push_back(&I);
}

/// What accessesIn reads: a load, store, atomic read-modify-write, memory
/// intrinsic, PTX inline asm or counted call.
static bool bringsFootprint(const Instruction &I) {
  if (isa<LoadInst, StoreInst, AtomicRMWInst, MemIntrinsic>(I))
    return true;
  const auto *CB = dyn_cast<CallBase>(&I);
  if (CB && CB->isInlineAsm())
    return I.getModule()->getTargetTriple().isNVPTX();
  return CB && CostModel::isCountedCallee(*CB);
}

void FootprintAnalysis::asmAccesses(AccessGroups &G, CallBase &CB) const {
  // __ldcs, __stcs and the other cache-hinted loads and stores are inline
  // PTX: each ld/st/atom/red addresses memory through one of its operands.
  for (const auto &[A, Ptr] : asmMemoryOperands(CB)) {
    if (!isDRAMSpace(A.Space))
      continue;
    if (!Ptr) {
      G.Unknowable["(other)"].push_back(
          "an inline asm at " + locationText(&CB) +
          " addresses memory through a register of its own");
      continue;
    }
    Polynomial Size(int64_t(A.Bytes));
    if (A.Loads)
      addAccess(G, CB, Ptr, Size, false, A.Space, A.Offset);
    if (A.Stores)
      addAccess(G, CB, Ptr, Size, true, A.Space, A.Offset);
  }
}

FootprintAnalysis::AccessGroups
FootprintAnalysis::accessesIn(const Loop *Within) const {
  const DataLayout &DL = S.F.getParent()->getDataLayout();
  AccessGroups G;
  for (BasicBlock &BB : S.F) {
    // A block the counts never reach never runs under their assumptions.
    if ((Within && !Within->contains(&BB)) || !Flow.Reached.count(&BB))
      continue;
    for (Instruction &I : BB) {
      if (!bringsFootprint(I))
        continue;
      if (auto *Ld = dyn_cast<LoadInst>(&I)) {
        TypeSize TS = DL.getTypeStoreSize(Ld->getType());
        if (!TS.isScalable())
          addAccess(G, I, Ld->getPointerOperand(),
                    Polynomial(int64_t(TS.getFixedValue())), false);
      } else if (auto *St = dyn_cast<StoreInst>(&I)) {
        TypeSize TS = DL.getTypeStoreSize(St->getValueOperand()->getType());
        if (!TS.isScalable())
          addAccess(G, I, St->getPointerOperand(),
                    Polynomial(int64_t(TS.getFixedValue())), true);
      } else if (auto *RMW = dyn_cast<AtomicRMWInst>(&I)) {
        Polynomial Size(int64_t(DL.getTypeStoreSize(RMW->getType()).getFixedValue()));
        addAccess(G, I, RMW->getPointerOperand(), Size, false);
        addAccess(G, I, RMW->getPointerOperand(), Size, true);
      } else if (auto *MI = dyn_cast<MemIntrinsic>(&I)) {
        SCEVPolynomial T = S.translatorAround(S.LI.getLoopFor(&BB));
        auto Len = T.translate(S.SE.getSCEV(MI->getLength()));
        if (!Len)
          continue; // counted as unknown by the mass flow already
        addAccess(G, I, MI->getDest(), *Len, true);
        if (auto *MT = dyn_cast<MemTransferInst>(MI))
          addAccess(G, I, MT->getSource(), *Len, false);
      } else if (cast<CallBase>(I).isInlineAsm()) {
        asmAccesses(G, cast<CallBase>(I));
      } else {
        callFootprints(cast<CallBase>(I), G.Calls, G.Unknowable);
      }
    }
  }
  return G;
}

void FootprintAnalysis::addCallFootprints(
    std::map<std::string, FootprintCounts> &ByArray,
    const std::map<std::string, std::vector<CallFootprint>> &Calls) {
  // A callee's footprint of the array: exact when it is the array's only
  // use here, or when every call touches the same bytes (the same callee
  // footprint from the same arguments); else their sum bounds the union.
  for (auto &[Array, List] : Calls) {
    bool Own = ByArray.count(Array);
    FootprintCounts &FA = ByArray[Array];
    bool Same = List[0].Offset.has_value();
    for (const CallFootprint &C : List)
      Same &= C.Offset == List[0].Offset && C.Counts.Read == List[0].Counts.Read &&
              C.Counts.Written == List[0].Counts.Written &&
              C.Counts.Exact == List[0].Counts.Exact;
    if (!Own && Same) {
      FA = List[0].Counts;
      continue;
    }
    // Pieces of one array that cannot meet (the weights of several layers
    // at their offsets in one buffer, activations written by one call and
    // read by the next) unite exactly.
    std::vector<const FootprintCounts *> Pieces;
    if (Own)
      Pieces.push_back(&FA);
    for (const CallFootprint &C : List)
      Pieces.push_back(&C.Counts);
    if (std::all_of(Pieces.begin(), Pieces.end(),
                    [](const FootprintCounts *C) { return C->Exact; })) {
      auto Read = unitePieces(Pieces, false), Written = unitePieces(Pieces, true);
      if (Read && Written) {
        FootprintCounts U;
        for (const FootprintCounts *C : Pieces)
          U.Assumptions.insert(U.Assumptions.end(), C->Assumptions.begin(),
                               C->Assumptions.end());
        U.Read = U.ReadAtLeast = Read->first;
        U.Written = U.WrittenAtLeast = Written->first;
        U.ReadHull = Read->second;
        U.WrittenHull = Written->second;
        FA = U;
        continue;
      }
    }
    FootprintCounts Largest = Own ? FA : List[0].Counts;
    for (const CallFootprint &C : List)
      FA.add(C.Counts);
    FA.Exact = false;
    FA.ReadAtLeast = Largest.ReadAtLeast;
    FA.WrittenAtLeast = Largest.WrittenAtLeast;
    FA.Notes.push_back("calls touch " + Array + " more than once: their "
                       "footprints are added (an upper bound)");
  }
}

DominatorTree &FootprintAnalysis::dominators() const {
  if (!DT)
    DT = std::make_unique<DominatorTree>(S.F);
  return *DT;
}

std::vector<Polynomial>
FootprintAnalysis::holdingAt(const std::vector<Polynomial> &All,
                             const std::vector<const BasicBlock *> &Where,
                             const BasicBlock *BB) const {
  // A guard around some of the code (`if (i > 0) d[i] = ...`) says
  // nothing of the accesses outside it.
  std::vector<Polynomial> Holding;
  for (size_t I = 0; I < All.size(); ++I) {
    const BasicBlock *Work = I < Where.size() ? Where[I] : nullptr;
    if (!Work || dominators().dominates(Work, BB))
      Holding.push_back(All[I]);
  }
  return Holding;
}

Polynomial FootprintAnalysis::readOwnWrites(const AccessGroups &G,
                                           const std::string &Array,
                                           const Polynomial &Read) const {
  auto Reads = G.Accesses.find({Array, false}), Writes = G.Accesses.find({Array, true});
  if (Reads == G.Accesses.end() || Writes == G.Accesses.end() || !Read.isValid())
    return Polynomial(0);
  DominatorTree &Dom = dominators();
  const auto &ReadSites = G.Sites.at({Array, false});
  const auto &WriteSites = G.Sites.at({Array, true});
  // W's iterations are all done before R runs. In the same loops: W comes
  // first in the iteration. Else the outermost loop around W but not R is
  // entered (or skipped, by its guard: then R's same iterations are none)
  // on every path to R, and R cannot lead back to it within the loops
  // around both.
  auto Before = [&](const Instruction *W, const Instruction *R) {
    const Loop *Outer = nullptr;
    for (const Loop *L = S.LI.getLoopFor(W->getParent());
         L && !L->contains(R->getParent()); L = L->getParentLoop())
      Outer = L;
    if (!Outer)
      return W != R && Dom.dominates(W, R);
    // The guard: the block outside the loop that branches to its header or
    // past it, to its exit (optimised IR has no preheader to ask for it).
    const BasicBlock *Gate = Outer->getHeader();
    if (const BasicBlock *In = Outer->getLoopPredecessor())
      if (const auto *Br = dyn_cast<BranchInst>(In->getTerminator());
          Br && Br->isConditional() && Outer->getExitBlock() &&
          is_contained(Br->successors(), Outer->getExitBlock()))
        Gate = In;
    if (!Dom.dominates(Gate, R->getParent()))
      return false;
    SmallPtrSet<BasicBlock *, 1> Around;
    if (const Loop *Both = Outer->getParentLoop())
      Around.insert(Both->getHeader());
    return !isPotentiallyReachable(R->getParent(), Outer->getHeader(), &Around,
                                   &Dom, nullptr);
  };
  auto Same = [](const AffineAccess &A, const AffineAccess &B) {
    if (!A.Known || !B.Known || A.Offset != B.Offset || A.Size != B.Size ||
        A.Dims.size() != B.Dims.size())
      return false;
    for (size_t D = 0; D < A.Dims.size(); ++D)
      if (A.Dims[D].Var != B.Dims[D].Var || A.Dims[D].Trip != B.Dims[D].Trip)
        return false;
    return true;
  };
  for (size_t R = 0; R < Reads->second.size(); ++R) {
    bool Covered = false;
    for (size_t W = 0; W < Writes->second.size() && !Covered; ++W)
      Covered = Writes->second[W].EveryTime &&
                Same(Writes->second[W], Reads->second[R]) &&
                Before(WriteSites[W], ReadSites[R]);
    if (!Covered)
      return Polynomial(0);
  }
  return Read;
}

std::map<std::string, FootprintCounts>
FootprintAnalysis::arrayFootprints(AccessGroups &G) const {
  std::map<std::string, FootprintCounts> ByArray;
  for (auto &[K, Accesses] : G.Accesses) {
    DistinctBytes D = distinctBytes(Accesses);
    FootprintCounts &FA = ByArray[K.Array];
    (K.Write ? FA.Written : FA.Read) = D.AtMost;
    (K.Write ? FA.WrittenAtLeast : FA.ReadAtLeast) = D.AtLeast;
    FA.Exact &= D.Exact;
    for (const std::string &N : D.Notes)
      FA.Notes.push_back(N);
    for (Assumption A : D.Assumptions)
      if (!impliedByFacts(A)) {
        A.Origin += " for " + K.Array;
        FA.Assumptions.push_back(std::move(A));
      }
    if (D.Lo)
      (K.Write ? FA.WrittenHull : FA.ReadHull) = FootprintCounts::Hull{*D.Lo, *D.Hi};
  }
  for (auto &[Array, List] : G.Assumed)
    if (ByArray.count(Array))
      for (const Assumption &A : List)
        if (std::find(ByArray[Array].Assumptions.begin(),
                      ByArray[Array].Assumptions.end(),
                      A) == ByArray[Array].Assumptions.end())
          ByArray[Array].Assumptions.push_back(A);
  for (auto &[Array, FA] : ByArray)
    if (FA.Exact)
      FA.ReadOwn = readOwnWrites(G, Array, FA.Read);
  addCallFootprints(ByArray, G.Calls);
  for (auto &[Array, List] : G.Unknowable) {
    FootprintCounts &FA = ByArray[Array];
    FA.Exact = false;
    FA.Read = FA.Written = Polynomial::invalid();
    FA.ReadOwn = Polynomial(0);
    FA.Notes.insert(FA.Notes.end(), List.begin(), List.end());
  }
  // Bytes through pointers the analysis cannot name may be anywhere: no
  // lower bound (a few bytes would place the kernel as if its data were in
  // cache), only the counted bytes above.
  if (ByArray.count("(other)")) {
    FootprintCounts &Other = ByArray["(other)"];
    Other.Notes.insert(
        Other.Notes.begin(),
        "some addresses are not a parameter, a global or a pointer loaded "
        "from one before the loops, plus an offset (a pointer loaded in a "
        "loop or chosen at run time): no lower bound");
    Other.Exact = false;
    Other.ReadAtLeast = Other.WrittenAtLeast = Polynomial::invalid();
  }
  return ByArray;
}

bool FootprintAnalysis::holdsEveryAccess(const Loop *L) const {
  for (const BasicBlock &BB : S.F) {
    if (L->contains(&BB))
      continue;
    for (const Instruction &I : BB)
      if (bringsFootprint(I))
        return false;
  }
  return true;
}

FootprintCounts
FootprintAnalysis::footprintOf(const Loop *Within,
                               FootprintSummary *PerArray) const {
  AccessGroups G = accessesIn(Within);
  std::map<std::string, FootprintCounts> ByArray = arrayFootprints(G);
  FootprintCounts Total;
  Total.Read = Total.Written = Total.ReadAtLeast = Total.WrittenAtLeast =
      Polynomial(0);
  // Distinct arrays are taken not to overlap (docs/counting.md).
  for (auto &[Array, FA] : ByArray)
    Total.add(FA);
  if (PerArray)
    PerArray->ByArray = std::move(ByArray);
  return Total;
}

std::optional<std::pair<Polynomial, FootprintCounts::Hull>>
unitePieces(const std::vector<const FootprintCounts *> &Pieces, bool Written) {
  // Identical dense ranges count once; the rest must not meet.
  std::vector<std::pair<Polynomial, FootprintCounts::Hull>> Kept;
  for (const FootprintCounts *C : Pieces) {
    const Polynomial &B = Written ? C->Written : C->Read;
    const auto &H = Written ? C->WrittenHull : C->ReadHull;
    if (B.isZero())
      continue;
    if (!H)
      return std::nullopt;
    bool Dense = B == H->Hi - H->Lo;
    bool Again = std::any_of(Kept.begin(), Kept.end(), [&](const auto &K) {
      return Dense && K.first == B && K.second.Lo == H->Lo && K.second.Hi == H->Hi;
    });
    if (!Again)
      Kept.push_back({B, *H});
  }
  if (Kept.empty())
    return std::make_pair(Polynomial(0), FootprintCounts::Hull{Polynomial(0), Polynomial(0)});
  std::sort(Kept.begin(), Kept.end(), [](const auto &X, const auto &Y) {
    return orderAtLargeSizes(X.second.Lo) < orderAtLargeSizes(Y.second.Lo);
  });
  Polynomial Sum;
  for (size_t I = 0; I < Kept.size(); ++I) {
    if (I && !nonNegativeForSizes(Kept[I].second.Lo - Kept[I - 1].second.Hi))
      return std::nullopt;
    Sum += Kept[I].first;
  }
  return std::make_pair(Sum, FootprintCounts::Hull{Kept.front().second.Lo,
                                                   Kept.back().second.Hi});
}

void FootprintAnalysis::callFootprints(
    CallBase &CB, std::map<std::string, std::vector<CallFootprint>> &Calls,
    std::map<std::string, std::vector<std::string>> &Unknowable) const {
  Function *Callee = CB.getCalledFunction();
  std::string CalleeName = Callee ? demangle(Callee->getName().str())
                                  : std::string("a function pointer");
  // A call with arguments the analysis can name brings the callee's
  // footprint of each array it is passed; in loops, when it runs on every
  // iteration, swept over the iterations (sweepCall).
  Loop *Inner = S.LI.getLoopFor(CB.getParent());
  std::vector<Loop *> Chain;
  for (Loop *L = Inner; L; L = L->getParentLoop())
    Chain.insert(Chain.begin(), L);
  bool EveryTime = Flow.RunsEveryTime.lookup(CB.getParent());
  for (Loop *L : Chain)
    EveryTime &= Flow.RunsEveryTime.lookup(L) && Flow.Iterations.count(L);
  const FunctionCounts *FC = Callee && !Callee->isDeclaration() && EveryTime
                                 ? Owner.counts(*Callee)
                                 : nullptr;
  std::map<std::string, Polynomial> Args;
  if (FC) {
    SCEVPolynomial T = S.translatorAround(Inner);
    for (unsigned A = 0; A < FC->Params.size() && A < CB.arg_size(); ++A) {
      Value *Arg = CB.getArgOperand(A);
      if (S.SE.isSCEVable(Arg->getType()) && !Arg->getType()->isPointerTy())
        if (auto P = T.translate(S.SE.getSCEV(Arg),
                                 SCEVPolynomial::Reading::Modular))
          Args[FC->Params[A]] = *P;
    }
  }
  for (unsigned A = 0; A < CB.arg_size(); ++A) {
    Value *U = CB.getArgOperand(A);
    if (!U->getType()->isPointerTy() || !isDRAMSpace(S.CM.spaceOf(U)))
      continue;
    const SCEV *Addr = S.SE.getSCEV(U);
    const auto *BU = dyn_cast<SCEVUnknown>(S.SE.getPointerBase(Addr));
    std::string Array = "(other)";
    if (BU)
      if (auto Name =
              arrayName(BU->getValue(), Chain.empty() ? nullptr : Chain.front(),
                        S.Params, S.F.getParent()->getDataLayout()))
        Array = *Name;
    std::string Why = "a call at " + locationText(&CB) + " passes " + Array +
                      " to " + CalleeName;
    if (!FC || A >= FC->Params.size() || Array == "(other)") {
      Unknowable[Array].push_back(Why + ": the bytes it touches there are "
                                        "not in the footprint");
      continue;
    }
    auto It = FC->Footprint.ByArray.find(FC->Params[A]);
    if (It == FC->Footprint.ByArray.end())
      continue; // the callee does not touch it
    // Every variable of the callee's footprint, in floors' operands too,
    // must be bound (an opaque floor's operands cannot be read).
    FootprintCounts Sub = It->second;
    Sub.ReadOwn = Polynomial(0); // the callee's read-backs: counted as reads here
    bool Bound = true;
    for (Polynomial *P : {&Sub.Read, &Sub.Written, &Sub.ReadAtLeast,
                          &Sub.WrittenAtLeast}) {
      std::optional<std::set<std::string>> Leaves = P->leafVariables();
      if (!Leaves)
        Bound = false;
      else
        for (const std::string &W : *Leaves)
          Bound &= Args.count(W) > 0;
      *P = P->substitute(Args);
    }
    if (!Bound) {
      Unknowable[Array].push_back(Why + ": its footprint there depends on an "
                                        "argument the analysis cannot name");
      continue;
    }
    for (std::string &N : Sub.Notes)
      N += " (in " + CalleeName + ")";
    for (Assumption &N : Sub.Assumptions)
      N.Origin += " (in " + CalleeName + ")";
    // Where in the array the callee's bytes start: two calls touch the
    // same bytes only from the same place.
    SCEVPolynomial T = S.translatorAround(Inner);
    const SCEV *Off = S.SE.getMinusSCEV(Addr, S.SE.getPointerBase(Addr));
    auto At = isa<SCEVCouldNotCompute>(Off)
                  ? std::nullopt
                  : T.translate(Off, SCEVPolynomial::Reading::Modular);
    // The callee's hulls, in this array: shifted by where the pointer points.
    auto Opaque = [](const Polynomial &P) { return P.involves(AtomKind::Floor); };
    for (auto *H : {&Sub.ReadHull, &Sub.WrittenHull}) {
      if (!*H)
        continue;
      Polynomial Lo = (*H)->Lo.substitute(Args), Hi = (*H)->Hi.substitute(Args);
      if (!At || Opaque((*H)->Lo) || Opaque((*H)->Hi) || !Lo.isValid() ||
          !Hi.isValid())
        H->reset();
      else
        **H = {*At + Lo, *At + Hi};
    }
    // Over the loops around the call, innermost first.
    bool Swept = true;
    for (size_t I = Chain.size(); I-- > 0 && Swept;)
      Swept = sweepCall(Sub, At, FunctionScope::ivName(Chain[I]),
                        Flow.Iterations.lookup(Chain[I]));
    if (!Swept) {
      Unknowable[Array].push_back(Why + " in a loop: the iterations' bytes "
                                        "may overlap");
      continue;
    }
    Calls[Array].push_back({Sub, At});
  }
}

bool FootprintAnalysis::sweepCall(FootprintCounts &Sub,
                                  std::optional<Polynomial> &At,
                                  const std::string &IV,
                                  const Polynomial &Trip) {
  auto Mentions = [&](const Polynomial &P) { return P.mentions(IV); };
  bool InCounts = Mentions(Sub.Read) || Mentions(Sub.Written) ||
                  Mentions(Sub.ReadAtLeast) || Mentions(Sub.WrittenAtLeast);
  bool InPlace = At && Mentions(*At);
  if (!InCounts && !InPlace)
    return true; // the same bytes on every iteration
  bool TripVaries = false;
  for (const std::string &V : Trip.variables())
    TripVaries |= V.rfind("$iv", 0) == 0;
  if (InCounts || !At || TripVaries || !Trip.isValid())
    return false;
  // Each iteration's bytes shifted by Step: apart when Step is at least
  // the extent of a piece, and then they add up.
  auto Step = coefficientOf(*At, IV);
  if (!Step || Step->mentions(IV))
    return false;
  for (auto *H : {&Sub.ReadHull, &Sub.WrittenHull}) {
    if (!*H)
      return false;
    Polynomial Lo0 = (*H)->Lo.substitute({{IV, Polynomial(0)}});
    Polynomial Hi0 = (*H)->Hi.substitute({{IV, Polynomial(0)}});
    if (!nonNegativeForSizes(*Step - (Hi0 - Lo0)))
      return false;
    **H = {Lo0, Hi0 + *Step * (Trip - Polynomial(1))};
  }
  for (Polynomial *P : {&Sub.Read, &Sub.Written, &Sub.ReadAtLeast,
                        &Sub.WrittenAtLeast})
    *P = *P * Trip;
  At = At->substitute({{IV, Polynomial(0)}});
  return true;
}

} // namespace roofline::detail
