//===- MassFlow.cpp - How often each block runs ---------------------------===//
//
// How often does a block run? Within one iteration of its innermost loop (or
// one call, outside loops) a unit of "mass" flows from the loop header along
// the acyclic CFG; inner loops are single nodes. A branch sends all its mass
// one way when it is
//   - the loop's own exit test (stays in the loop until the last iteration),
//   - a guard whose condition depends only on parameters and GPU indices and
//     that merely skips work (`if (i < n) {...}`, `if (n > 0) loop`): the
//     work is assumed to run, and the assumption is recorded;
// and otherwise splits by static branch probabilities, which makes the blocks
// below it estimates. A block with mass 1 runs exactly once per iteration.
// A loop's total is its per-iteration total summed over its trip count with
// Faulhaber's formulas, so inner trip counts that depend on an outer
// induction variable give exact closed forms.
//
//===----------------------------------------------------------------------===//
#include "MassFlow.h"

#include "llvm/Demangle/Demangle.h"
#include "llvm/IR/CFG.h"
#include "llvm/IR/DebugInfoMetadata.h"
#include "llvm/IR/Instructions.h"
#include "llvm/Support/Path.h"

#include <cmath>
#include <set>

using namespace llvm;

namespace roofline::detail {

MassFlow::Result MassFlow::run() {
  for (Loop *Top : S.LI)
    ZeroTrip.find(Top);
  Region R = Region::build(S, nullptr, Found);
  Out.Totals = regionTotal(R, nullptr, false);
  return std::move(Out);
}

std::vector<std::pair<int, double>> MassFlow::exitsOf(const Region &R,
                                                      Loop *Sub) {
  SmallVector<BasicBlock *, 4> Exits;
  Sub->getUniqueExitBlocks(Exits);
  std::vector<std::pair<int, double>> Shares;
  if (Exits.size() > 1)
    Found.note(loopText(Sub) + " has " + std::to_string(Exits.size()) +
               " exits: the code after it is weighted equally per exit");
  for (BasicBlock *E : Exits)
    Shares.push_back({R.nodeOf(S.LI, E), 1.0 / Exits.size()});
  return Shares;
}

void MassFlow::noteRunsEveryTime(const RegionNode &Nd, double Mass) {
  const void *Key =
      Nd.Sub ? static_cast<const void *>(Nd.Sub) : static_cast<const void *>(Nd.BB);
  bool Full = std::fabs(Mass - 1.0) < 1e-9 &&
              !(Nd.BB && GuardedBlocks.count(Nd.BB));
  auto [It, New] = Out.RunsEveryTime.try_emplace(Key, Full);
  if (!New)
    It->second &= Full;
}

CountPolys MassFlow::regionTotal(const Region &R, BasicBlock *FinalExit,
                                 bool LastIteration) {
  std::vector<double> Mass(R.Nodes.size(), 0.0);
  std::vector<char> Estimated(R.Nodes.size(), 0);

  BasicBlock *Entry = R.L ? R.L->getHeader() : &S.F.getEntryBlock();
  Mass[R.nodeOf(S.LI, Entry)] = 1.0;

  CountPolys Total;
  for (unsigned N : R.Order) {
    double M = Mass[N];
    if (M < 1e-12)
      continue;
    bool Est = Estimated[N] && std::fabs(M - 1.0) > 1e-9;
    noteRunsEveryTime(R.Nodes[N], M);
    // Distributes this node's mass and decides whether its targets become
    // estimates.
    auto Send = [&](int To, double Share, bool Split) {
      if (To == Region::Sink || Share <= 0)
        return;
      Mass[To] += M * Share;
      Estimated[To] |= Est || Split;
    };
    const RegionNode &Nd = R.Nodes[N];
    Polynomial Times =
        Est ? Polynomial(Rational(int64_t(std::llround(M * 1024)), 1024))
            : Polynomial(1);
    if (Nd.Sub) {
      bool ExactBefore = Found.Exact;
      Found.Exact = true;
      CountPolys LoopCounts = loopTotal(Nd.Sub);
      bool LoopExact = Found.Exact;
      Found.Exact = ExactBefore && LoopExact;
      if (!R.L) { // a top-level loop nest: a row of its own
        Out.TopLoops.push_back(
            loopRow(Nd.Sub, LoopCounts.times(Times), !Est && LoopExact));
        Out.TopLoopNests.push_back(Nd.Sub);
      }
      Total.add(Est ? LoopCounts.times(Times) : LoopCounts);
      // A share of a loop's exits is a guess: what it reaches is estimated.
      for (auto [To, Share] : exitsOf(R, Nd.Sub))
        Send(To, Share, Share < 1.0);
      continue;
    }
    BasicBlock *BB = Nd.BB;
    Out.Reached.insert(BB);
    Total.add(Est ? blockCost(BB, R.L).times(Times) : blockCost(BB, R.L));
    Instruction *Term = BB->getTerminator();
    unsigned NumSucc = Term->getNumSuccessors();
    if (NumSucc == 0)
      continue;
    if (NumSucc == 1) {
      BasicBlock *Succ = Term->getSuccessor(0);
      if (!(R.L && Succ == R.L->getHeader()))
        Send(R.nodeOf(S.LI, Succ), 1.0, false);
      continue;
    }
    // The loop's own exit test: stay until the final iteration.
    if (R.L && R.L->isLoopExiting(BB)) {
      if (LastIteration && BB == FinalExit)
        continue; // all mass leaves the loop
      std::vector<unsigned> Inside;
      for (unsigned I = 0; I < NumSucc; ++I)
        if (R.L->contains(Term->getSuccessor(I)))
          Inside.push_back(I);
      bool Split = Inside.size() > 1;
      for (unsigned I : Inside) {
        BasicBlock *Succ = Term->getSuccessor(I);
        if (Succ == R.L->getHeader())
          continue;
        double Share = 1.0 / Inside.size();
        if (Split) {
          BranchProbability Sum = BranchProbability::getZero();
          for (unsigned J : Inside)
            Sum += GetBPI().getEdgeProbability(BB, J);
          Share = Sum.isZero() ? Share
                               : double(GetBPI().getEdgeProbability(BB, I).getNumerator()) /
                                     double(Sum.getNumerator());
        }
        Send(R.nodeOf(S.LI, Succ), Share, Split);
      }
      if (Split)
        Found.note(
            "branch at " + locationText(Term) +
            " depends on data: counts below it are estimates (static branch "
            "probabilities)");
      continue;
    }
    if (auto Work = Guards.assumedSuccessor(R, BB)) {
      // An inner loop's zero-trip guard on this loop's counter: the blocks
      // it leads to before the paths join run on some iterations only (a
      // load hoisted into the preheader, a store sunk to the exit). The
      // counts are right (the guard is checked); the footprint must know.
      if (R.L && ZeroTrip.isGuard(Term) && Term->getNumSuccessors() == 2 &&
          !isParameterOnly(cast<BranchInst>(Term)->getCondition()))
        markGuarded(R, Term->getSuccessor(*Work), Term->getSuccessor(1 - *Work));
      Send(R.nodeOf(S.LI, Term->getSuccessor(*Work)), 1.0, false);
      continue;
    }
    auto *Br = dyn_cast<BranchInst>(Term);
    if (Br && Br->isConditional() && singlesOutThreads(Br->getCondition()))
      Found.note(
          "branch at " + locationText(Term) +
          " singles out threads (an equality on the thread index): counts "
          "below it are estimates (static branch probabilities)");
    else
      Found.note(
          "branch at " + locationText(Term) +
          " depends on data: counts below it are estimates (static branch "
          "probabilities)");
    for (unsigned I = 0; I < NumSucc; ++I) {
      BasicBlock *Succ = Term->getSuccessor(I);
      if (R.L && Succ == R.L->getHeader())
        continue;
      BranchProbability P = GetBPI().getEdgeProbability(BB, I);
      Send(R.nodeOf(S.LI, Succ), double(P.getNumerator()) / P.getDenominator(),
           true);
    }
  }
  return Total;
}

void MassFlow::markGuarded(const Region &R, BasicBlock *From,
                           BasicBlock *Join) {
  SmallVector<BasicBlock *, 16> Work{From};
  while (!Work.empty()) {
    BasicBlock *BB = Work.pop_back_val();
    if (BB == Join || BB == R.L->getHeader() || !R.L->contains(BB) ||
        !GuardedBlocks.insert(BB).second)
      continue;
    for (BasicBlock *Succ : successors(BB))
      Work.push_back(Succ);
  }
}

LoopSummary MassFlow::loopRow(Loop *L, const CountPolys &Totals,
                              bool RowExact) {
  LoopSummary LS;
  if (DebugLoc DL = L->getStartLoc()) {
    LS.File = DL->getFilename().str();
    if (!DL->getDirectory().empty() && !sys::path::is_absolute(LS.File))
      LS.File = (DL->getDirectory() + "/" + LS.File).str();
    LS.Line = DL.getLine();
    LS.Column = DL.getCol();
  }
  unsigned Depth = 1;
  for (Loop *Inner : L->getLoopsInPreorder())
    Depth = std::max(Depth, Inner->getLoopDepth());
  LS.Depth = Depth;
  LS.Trip = Out.Iterations.lookup(L);
  LS.TripKnown = Trips.known(L);
  LS.Totals = Totals;
  LS.Exact = RowExact;
  return LS;
}

CountPolys MassFlow::loopTotal(Loop *L) {
  auto Cached = LoopTotals.find(L);
  if (Cached != LoopTotals.end())
    return Cached->second;
  // Inner loops' zero-trip guards are part of the inner loop, not data.
  for (Loop *Sub : L->getSubLoops())
    ZeroTrip.find(Sub);

  Polynomial Trip = Trips.tripCount(L);
  Region R = Region::build(S, L, Found);

  // The exit taken on the last iteration: the only one, or the one whose
  // exit count is the loop's backedge-taken count.
  SmallVector<BasicBlock *, 4> Exiting;
  L->getExitingBlocks(Exiting);
  BasicBlock *Final = Exiting.empty() ? nullptr : Exiting.front();
  if (Exiting.size() > 1) {
    const SCEV *BTC = S.SE.getBackedgeTakenCount(L);
    SmallVector<BasicBlock *, 2> Matches;
    for (BasicBlock *E : Exiting)
      if (!isa<SCEVCouldNotCompute>(BTC) && S.SE.getExitCount(L, E) == BTC)
        Matches.push_back(E);
    if (Matches.size() == 1)
      Final = Matches.front();
    else if (L->getLoopLatch() && L->isLoopExiting(L->getLoopLatch()))
      Final = L->getLoopLatch();
  }
  std::string IV = FunctionScope::ivName(L);
  CountPolys Stay = regionTotal(R, Final, /*LastIteration=*/false);
  CountPolys Total;
  if (!Final || Final == L->getLoopLatch()) {
    Total = Stay.sumOver(IV, Trip);
    Out.Iterations[L] = Trip;
  } else {
    Out.Iterations[L] = Trip - Polynomial(1);
    // Iterations 0..T-2 run the whole body; the last stops at Final.
    CountPolys Last = regionTotal(R, Final, /*LastIteration=*/true);
    Polynomial LastIV = Trip - Polynomial(1);
    Total = Stay.sumOver(IV, LastIV);
    Total.add(Last.substitute({{IV, LastIV}}));
  }
  if (Total.anyValidityLost())
    Found.note(loopText(L) + ": a count overflows 64-bit coefficients");
  LoopTotals[L] = Total;
  return Total;
}

CountPolys MassFlow::calleeCost(CallBase &CB, const FunctionCounts &FC,
                                Loop *Context) {
  Function *Callee = CB.getCalledFunction();
  // The callee's totals, with its parameters replaced by the arguments.
  std::map<std::string, Polynomial> Args;
  FunctionScope::bindLoops(Translator, Context);
  for (unsigned A = 0; A < FC.Params.size() && A < CB.arg_size(); ++A) {
    Value *Arg = CB.getArgOperand(A);
    if (!S.SE.isSCEVable(Arg->getType()))
      continue;
    if (auto P = Translator.translate(S.SE.getSCEV(Arg),
                                      SCEVPolynomial::Reading::Modular)) {
      Args[FC.Params[A]] = *P;
      continue;
    }
    // An argument the analysis cannot name: the callee's parameter must
    // not leak into this function's formulas as if it were its own.
    // Inside a floor too: substitution reaches into floors' operands.
    const std::string &Name = FC.Params[A];
    auto Reads = [&Name](const Polynomial &P) {
      for (const Atom &At : P.atoms())
        if (At.involves(Name))
          return true;
      return false;
    };
    if (Reads(FC.Totals.flops()) || Reads(FC.Totals.bytes(Access::Load)) ||
        Reads(FC.Totals.bytes(Access::Store))) {
      Args[Name] = Polynomial::atom(Atom::unknown());
      Found.note("call to " + demangle(Callee->getName()) + " at " +
                 locationText(&CB) + ": its count depends on '" + Name +
                 "', an argument the analysis cannot name (written unknown)");
    }
  }
  // Floors take the arguments in their operands (Polynomial::substitute).
  CountPolys Sub = FC.Totals.substitute(Args);
  // The callee's traffic through its pointer parameters is the caller's
  // through whatever parameter of its own it passed.
  std::map<unsigned, std::array<Polynomial, 2>> Through;
  for (const auto &[CalleeArg, LS] : Sub.ArgBytes)
    if (CalleeArg < CB.arg_size())
      if (auto Mine = S.CM.parameterOf(CB.getArgOperand(CalleeArg))) {
        Through[*Mine][0] += LS[0];
        Through[*Mine][1] += LS[1];
      }
  Sub.ArgBytes = std::move(Through);
  bool Unbound = false;
  for (unsigned A = 0; A < FC.Params.size(); ++A)
    if (!Args.count(FC.Params[A]) && FC.Totals.mentions(FC.Params[A]))
      Unbound = true;
  if (Unbound)
    Found.note(
        "call to " + demangle(Callee->getName()) + " at " + locationText(&CB) +
        ": an argument has no closed form; the callee's parameter name is "
        "kept in the formula");
  if (!FC.Exact)
    Found.note("call to " + demangle(Callee->getName()) + " at " +
               locationText(&CB) + ": the callee's counts are not exact");
  for (Assumption A : FC.Assumptions) {
    A.Origin += " in " + demangle(Callee->getName());
    Found.assume(std::move(A));
  }
  return Sub;
}

CountPolys MassFlow::blockCost(BasicBlock *BB, Loop *Context) {
  CountPolys Total;
  CostVector Fixed;
  for (Instruction &I : *BB) {
    // Scalable vectors hold vscale times their minimum lanes, known only
    // on the machine that runs them.
    if (isa<ScalableVectorType>(I.getType()) ||
        any_of(I.operands(), [](const Use &U) {
          return isa<ScalableVectorType>(U->getType());
        }))
      Found.note("scalable vectors at " + locationText(&I) +
                 ": counted at vscale = 1 (their minimum length); the run does "
                 "vscale times more work");
    OpCost C = S.CM.costOf(I);
    Fixed += C.Fixed;
    // Bytes through a pointer chosen among parameters at run time count in
    // the totals, not in any one parameter's: say so (the counts stay exact).
    if (const Value *Ptr = getLoadStorePointerOperand(&I)) {
      SmallVector<unsigned, 2> Candidates = S.CM.parameterCandidates(Ptr);
      if (!Candidates.empty()) {
        std::string Names;
        for (unsigned A : Candidates)
          Names += (Names.empty() ? "" : " or ") + S.Params[A];
        Found.remark("an access at " + locationText(&I) + " goes through " +
                     Names +
                     " (chosen at run time): its bytes are in the "
                     "totals but in no pointer parameter's");
      }
    }
    for (const VariableBytes &VB : C.Variable) {
      FunctionScope::bindLoops(Translator, Context);
      auto Len =
          Translator.translate(S.SE.getSCEV(const_cast<Value *>(VB.Length)));
      if (!Len) {
        Found.note("memory transfer at " + locationText(&I) +
                   ": length unknown (" + Translator.reason() + ")");
        Fixed.addUnknown("memory transfer of unknown length");
        continue;
      }
      for (unsigned Slot : VB.Slots)
        Total.Slots[Slot] += *Len;
      for (auto [Arg, Acc] : VB.Args)
        Total.ArgBytes[Arg][unsigned(Acc)] += *Len;
    }
    auto *CB = dyn_cast<CallBase>(&I);
    if (!CB || !CostModel::isCountedCallee(*CB))
      continue;
    Function *Callee = CB->getCalledFunction();
    const FunctionCounts *FC = Owner.counts(*Callee);
    if (!FC) {
      Found.note("recursive call to " + demangle(Callee->getName()) + " at " +
                 locationText(&I) + " is not counted");
      Fixed.addUnknown("call:" + Callee->getName().str());
      continue;
    }
    Total.add(calleeCost(*CB, *FC, Context));
  }
  Total.add(Fixed, Polynomial(1));
  return Total;
}

} // namespace roofline::detail
