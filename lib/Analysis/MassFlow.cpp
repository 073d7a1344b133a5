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
#include "FunctionAnalyzer.h"

#include "roofline/Analysis/CostModel.h"
#include "roofline/Analysis/SCEVPolynomial.h"
#include "llvm/ADT/PostOrderIterator.h"
#include "llvm/ADT/SetVector.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/ADT/StringSwitch.h"
#include "llvm/Analysis/BranchProbabilityInfo.h"
#include "llvm/Analysis/LoopInfo.h"
#include "llvm/Analysis/ScalarEvolution.h"
#include "llvm/Analysis/ScalarEvolutionExpressions.h"
#include "llvm/Demangle/Demangle.h"
#include "llvm/IR/CFG.h"
#include "llvm/IR/DebugInfoMetadata.h"
#include "llvm/IR/DebugProgramInstruction.h"
#include "llvm/IR/Instructions.h"
#include "llvm/Support/Regex.h"
#include "llvm/IR/PatternMatch.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/TargetParser/Triple.h"
#include <cmath>
#include <set>

using namespace llvm;

namespace roofline::detail {

int FunctionAnalyzer::nodeOf(const Region &R, BasicBlock *BB) const {
  Loop *BL = LI.getLoopFor(BB);
  if (R.L && !R.L->contains(BB))
    return Sink;
  const void *Key = BB;
  if (BL != R.L) {
    while (BL->getParentLoop() != R.L)
      BL = BL->getParentLoop();
    Key = BL;
  }
  auto It = R.Index.find(Key);
  return It == R.Index.end() ? Sink : int(It->second);
}

FunctionAnalyzer::Region FunctionAnalyzer::buildRegion(Loop *L) {
  Region R;
  R.L = L;
  auto Add = [&](BasicBlock *BB) {
    Loop *BL = LI.getLoopFor(BB);
    Node N;
    const void *Key = BB;
    if (BL == L) {
      N.BB = BB;
    } else {
      while (BL->getParentLoop() != L)
        BL = BL->getParentLoop();
      N.Sub = BL;
      Key = BL;
    }
    if (R.Index.count(Key))
      return;
    R.Index[Key] = R.Nodes.size();
    R.Nodes.push_back(N);
  };
  if (L)
    for (BasicBlock *BB : L->blocks())
      Add(BB);
  else
    for (BasicBlock &BB : F)
      Add(&BB);

  // Reverse post-order over the acyclic graph (back edges to the header and
  // edges leaving the loop are not followed).
  BasicBlock *Entry = L ? L->getHeader() : &F.getEntryBlock();
  unsigned EntryIdx = nodeOf(R, Entry);
  std::vector<char> State(R.Nodes.size(), 0); // 0 new, 1 open, 2 done
  std::vector<unsigned> Post;
  std::vector<std::pair<unsigned, std::vector<int>>> Stack;
  auto Successors = [&](unsigned N) {
    std::vector<int> S;
    if (Loop *Sub = R.Nodes[N].Sub) {
      SmallVector<BasicBlock *, 4> Exits;
      Sub->getUniqueExitBlocks(Exits);
      for (BasicBlock *E : Exits)
        S.push_back(nodeOf(R, E));
    } else {
      for (BasicBlock *Succ : successors(R.Nodes[N].BB))
        if (!(L && Succ == L->getHeader()))
          S.push_back(nodeOf(R, Succ));
    }
    return S;
  };
  State[EntryIdx] = 1;
  Stack.push_back({EntryIdx, Successors(EntryIdx)});
  bool Irreducible = false;
  while (!Stack.empty()) {
    auto &[N, Succs] = Stack.back();
    if (Succs.empty()) {
      State[N] = 2;
      Post.push_back(N);
      Stack.pop_back();
      continue;
    }
    int S = Succs.back();
    Succs.pop_back();
    if (S == Sink)
      continue;
    if (State[S] == 1)
      Irreducible = true;
    if (State[S] != 0)
      continue;
    State[S] = 1;
    Stack.push_back({unsigned(S), Successors(S)});
  }
  if (Irreducible)
    note("irreducible control flow in " +
         (L ? loopText(L) : std::string("the function body")) +
         ": counts of the blocks in the cycle are not summed");
  R.Order.assign(Post.rbegin(), Post.rend());
  return R;
}

bool FunctionAnalyzer::reaches(const Region &R, BasicBlock *From,
                               BasicBlock *To) const {
  SmallPtrSet<BasicBlock *, 32> Seen;
  SmallVector<BasicBlock *, 32> Work{From};
  while (!Work.empty()) {
    BasicBlock *BB = Work.pop_back_val();
    if (BB == To)
      return true;
    if (!Seen.insert(BB).second)
      continue;
    if (R.L && (!R.L->contains(BB) || (BB == R.L->getHeader() && BB != From)))
      continue;
    for (BasicBlock *S : successors(BB))
      Work.push_back(S);
  }
  return false;
}

std::vector<std::pair<int, double>> FunctionAnalyzer::exitsOf(const Region &R,
                                                              Loop *Sub) {
  SmallVector<BasicBlock *, 4> Exits;
  Sub->getUniqueExitBlocks(Exits);
  std::vector<std::pair<int, double>> Out;
  if (Exits.size() > 1)
    note(loopText(Sub) + " has " + std::to_string(Exits.size()) +
         " exits: the code after it is weighted equally per exit");
  for (BasicBlock *E : Exits)
    Out.push_back({nodeOf(R, E), 1.0 / Exits.size()});
  return Out;
}

void FunctionAnalyzer::noteRunsEveryTime(const Node &Nd, double Mass) {
  const void *Key =
      Nd.Sub ? static_cast<const void *>(Nd.Sub) : static_cast<const void *>(Nd.BB);
  bool Full = std::fabs(Mass - 1.0) < 1e-9 &&
              !(Nd.BB && GuardedBlocks.count(Nd.BB));
  auto [It, New] = RunsEveryTime.try_emplace(Key, Full);
  if (!New)
    It->second &= Full;
}

CountPolys FunctionAnalyzer::regionTotal(const Region &R,
                                         BasicBlock *FinalExit,
                                         bool LastIteration) {
  std::vector<double> Mass(R.Nodes.size(), 0.0);
  std::vector<char> Estimated(R.Nodes.size(), 0);

  BasicBlock *Entry = R.L ? R.L->getHeader() : &F.getEntryBlock();
  Mass[nodeOf(R, Entry)] = 1.0;

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
      if (To == Sink || Share <= 0)
        return;
      Mass[To] += M * Share;
      Estimated[To] |= Est || Split;
    };
    const Node &Nd = R.Nodes[N];
    Polynomial Times =
        Est ? Polynomial(Rational(int64_t(std::llround(M * 1024)), 1024))
            : Polynomial(1);
    if (Nd.Sub) {
      bool ExactBefore = Exact;
      Exact = true;
      CountPolys LoopCounts = loopTotal(Nd.Sub);
      bool LoopExact = Exact;
      Exact = ExactBefore && LoopExact;
      if (!R.L) { // a top-level loop nest: a row of its own
        TopLoops.push_back(
            loopRow(Nd.Sub, LoopCounts.times(Times), !Est && LoopExact));
        TopLoopNests.push_back(Nd.Sub);
      }
      Total.add(Est ? LoopCounts.times(Times) : LoopCounts);
      for (auto [To, Share] : exitsOf(R, Nd.Sub))
        Send(To, Share, false);
      continue;
    }
    BasicBlock *BB = Nd.BB;
    Total.add(Est ? blockCost(BB, R.L).times(Times) : blockCost(BB, R.L));
    Instruction *Term = BB->getTerminator();
    unsigned NumSucc = Term->getNumSuccessors();
    if (NumSucc == 0)
      continue;
    if (NumSucc == 1) {
      BasicBlock *S = Term->getSuccessor(0);
      if (!(R.L && S == R.L->getHeader()))
        Send(nodeOf(R, S), 1.0, false);
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
        BasicBlock *S = Term->getSuccessor(I);
        if (S == R.L->getHeader())
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
        Send(nodeOf(R, S), Share, Split);
      }
      if (Split)
        note("branch at " + locationText(Term) +
             " depends on data: counts below it are estimates (static branch "
             "probabilities)");
      continue;
    }
    if (auto Work = assumedSuccessor(R, BB)) {
      // An inner loop's zero-trip guard on this loop's counter: the blocks
      // it leads to before the paths join run on some iterations only (a
      // load hoisted into the preheader, a store sunk to the exit). The
      // counts are right (the guard is checked); the footprint must know.
      if (R.L && LoopGuards.count(Term) && Term->getNumSuccessors() == 2 &&
          !isParameterOnly(cast<BranchInst>(Term)->getCondition()))
        markGuarded(R, Term->getSuccessor(*Work), Term->getSuccessor(1 - *Work));
      Send(nodeOf(R, Term->getSuccessor(*Work)), 1.0, false);
      continue;
    }
    auto *Br = dyn_cast<BranchInst>(Term);
    if (Br && Br->isConditional() && singlesOutThreads(Br->getCondition()))
      note("branch at " + locationText(Term) +
           " singles out threads (an equality on the thread index): counts "
           "below it are estimates (static branch probabilities)");
    else
      note("branch at " + locationText(Term) +
           " depends on data: counts below it are estimates (static branch "
           "probabilities)");
    for (unsigned I = 0; I < NumSucc; ++I) {
      BasicBlock *S = Term->getSuccessor(I);
      if (R.L && S == R.L->getHeader())
        continue;
      BranchProbability P = GetBPI().getEdgeProbability(BB, I);
      Send(nodeOf(R, S), double(P.getNumerator()) / P.getDenominator(), true);
    }
  }
  return Total;
}

void FunctionAnalyzer::markGuarded(const Region &R, BasicBlock *From,
                                    BasicBlock *Join) {
  SmallVector<BasicBlock *, 16> Work{From};
  while (!Work.empty()) {
    BasicBlock *BB = Work.pop_back_val();
    if (BB == Join || BB == R.L->getHeader() || !R.L->contains(BB) ||
        !GuardedBlocks.insert(BB).second)
      continue;
    for (BasicBlock *S : successors(BB))
      Work.push_back(S);
  }
}

LoopSummary FunctionAnalyzer::loopRow(Loop *L, const CountPolys &Totals,
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
  LS.Trip = Iterations.lookup(L);
  LS.TripKnown = !UnknownTrips.count(L);
  LS.Totals = Totals;
  LS.Exact = RowExact;
  return LS;
}

CountPolys FunctionAnalyzer::loopTotal(Loop *L) {
  auto Cached = LoopTotals.find(L);
  if (Cached != LoopTotals.end())
    return Cached->second;
  // Inner loops' zero-trip guards are part of the inner loop, not data.
  for (Loop *Sub : L->getSubLoops())
    findLoopGuard(Sub);

  Polynomial Trip = tripCount(L);
  Region R = buildRegion(L);

  // The exit taken on the last iteration: the only one, or the one whose
  // exit count is the loop's backedge-taken count.
  SmallVector<BasicBlock *, 4> Exiting;
  L->getExitingBlocks(Exiting);
  BasicBlock *Final = Exiting.empty() ? nullptr : Exiting.front();
  if (Exiting.size() > 1) {
    const SCEV *BTC = SE.getBackedgeTakenCount(L);
    SmallVector<BasicBlock *, 2> Matches;
    for (BasicBlock *E : Exiting)
      if (!isa<SCEVCouldNotCompute>(BTC) && SE.getExitCount(L, E) == BTC)
        Matches.push_back(E);
    if (Matches.size() == 1)
      Final = Matches.front();
    else if (L->getLoopLatch() && L->isLoopExiting(L->getLoopLatch()))
      Final = L->getLoopLatch();
  }
  std::string IV = ivName(L);
  CountPolys Stay = regionTotal(R, Final, /*LastIteration=*/false);
  CountPolys Result;
  if (!Final || Final == L->getLoopLatch()) {
    Result = Stay.sumOver(IV, Trip);
    Iterations[L] = Trip;
  } else {
    Iterations[L] = Trip - Polynomial(1);
    // Iterations 0..T-2 run the whole body; the last stops at Final.
    CountPolys Last = regionTotal(R, Final, /*LastIteration=*/true);
    Polynomial LastIV = Trip - Polynomial(1);
    Result = Stay.sumOver(IV, LastIV);
    Result.add(Last.substitute({{IV, LastIV}}));
  }
  if (Result.anyValidityLost())
    note(loopText(L) + ": a count overflows 64-bit coefficients");
  LoopTotals[L] = Result;
  return Result;
}

CountPolys FunctionAnalyzer::calleeCost(CallBase &CB, const FunctionCounts &FC,
                                       Loop *Context) {
  Function *Callee = CB.getCalledFunction();
  // The callee's totals, with its parameters replaced by the arguments.
  std::map<std::string, Polynomial> Args;
  bindLoops(Context);
  for (unsigned A = 0; A < FC.Params.size() && A < CB.arg_size(); ++A) {
    Value *Arg = CB.getArgOperand(A);
    if (!SE.isSCEVable(Arg->getType()))
      continue;
    if (auto P = Translator.translate(SE.getSCEV(Arg),
                                      SCEVPolynomial::Reading::Modular)) {
      Args[FC.Params[A]] = *P;
      continue;
    }
    // An argument the analysis cannot name: the callee's parameter must
    // not leak into this function's formulas as if it were its own.
    const std::string &Name = FC.Params[A];
    if (FC.Totals.flops().mentions(Name) ||
        FC.Totals.bytes(Access::Load).mentions(Name) ||
        FC.Totals.bytes(Access::Store).mentions(Name)) {
      Args[Name] = Polynomial::atom(Atom::unknown());
      note("call to " + demangle(Callee->getName()) + " at " +
           locationText(&CB) + ": its count depends on '" + Name +
           "', an argument the analysis cannot name (written unknown)");
    }
  }
  // floor(E/D) terms are not substituted into: one that mentions a
  // parameter whose argument is not that same name cannot be rewritten;
  // it becomes unknown rather than keep the callee's name.
  std::set<Atom> Floors;
  for (const Polynomial &P :
       {FC.Totals.flops(), FC.Totals.bytes(Access::Load),
        FC.Totals.bytes(Access::Store)})
    for (const Atom &A : P.atoms())
      if (A.kind() == AtomKind::Floor)
        Floors.insert(A);
  for (const Atom &Floor : Floors)
    for (const std::string &Name : FC.Params) {
      auto It = Args.find(Name);
      bool Same = It != Args.end() && It->second == Polynomial::variable(Name) &&
                  std::find(Params.begin(), Params.end(), Name) != Params.end();
      if (Same || !Floor.involves(Name))
        continue;
      Args[Floor.name()] = Polynomial::atom(Atom::unknown());
      note("call to " + demangle(Callee->getName()) + " at " +
           locationText(&CB) + ": its count has the term " + Floor.name() +
           " in its parameter '" + Name + "', which this call does not "
           "pass by the same name (written unknown)");
      break;
    }
  CountPolys Sub = FC.Totals.substitute(Args);
  // The callee's traffic through its pointer parameters is the caller's
  // through whatever parameter of its own it passed.
  std::map<unsigned, std::array<Polynomial, 2>> Through;
  for (const auto &[CalleeArg, LS] : Sub.ArgBytes)
    if (CalleeArg < CB.arg_size())
      if (auto Mine = CM.parameterOf(CB.getArgOperand(CalleeArg))) {
        Through[*Mine][0] += LS[0];
        Through[*Mine][1] += LS[1];
      }
  Sub.ArgBytes = std::move(Through);
  bool Unbound = false;
  for (unsigned A = 0; A < FC.Params.size(); ++A)
    if (!Args.count(FC.Params[A]) && FC.Totals.mentions(FC.Params[A]))
      Unbound = true;
  if (Unbound)
    note("call to " + demangle(Callee->getName()) + " at " +
         locationText(&CB) +
         ": an argument has no closed form; the callee's parameter name is "
         "kept in the formula");
  if (!FC.Exact)
    note("call to " + demangle(Callee->getName()) + " at " +
         locationText(&CB) + ": the callee's counts are not exact");
  for (const std::string &A : FC.Assumptions)
    Assumptions.insert(A + " in " + demangle(Callee->getName()));
  return Sub;
}

CountPolys FunctionAnalyzer::blockCost(BasicBlock *BB, Loop *Context) {
  CountPolys Total;
  CostVector Fixed;
  for (Instruction &I : *BB) {
    // Scalable vectors hold vscale times their minimum lanes, known only
    // on the machine that runs them.
    if (isa<ScalableVectorType>(I.getType()) ||
        any_of(I.operands(), [](const Use &U) {
          return isa<ScalableVectorType>(U->getType());
        }))
      note("scalable vectors at " + locationText(&I) +
           ": counted at vscale = 1 (their minimum length); the run does "
           "vscale times more work");
    OpCost C = CM.costOf(I);
    Fixed += C.Fixed;
    // Bytes through a pointer chosen among parameters at run time count in
    // the totals, not in any one parameter's: say so (the counts stay exact).
    if (const Value *Ptr = getLoadStorePointerOperand(&I)) {
      SmallVector<unsigned, 2> Candidates = CM.parameterCandidates(Ptr);
      if (!Candidates.empty()) {
        std::string Names;
        for (unsigned A : Candidates)
          Names += (Names.empty() ? "" : " or ") + Params[A];
        Notes.insert("an access at " + locationText(&I) + " goes through " +
                     Names + " (chosen at run time): its bytes are in the "
                     "totals but in no pointer parameter's");
      }
    }
    for (const VariableBytes &VB : C.Variable) {
      bindLoops(Context);
      auto Len = Translator.translate(SE.getSCEV(const_cast<Value *>(VB.Length)));
      if (!Len) {
        note("memory transfer at " + locationText(&I) + ": length unknown (" +
             Translator.reason() + ")");
        Fixed.addUnknown("memory transfer of unknown length");
        continue;
      }
      for (unsigned S : VB.Slots)
        Total.Slots[S] += *Len;
      for (auto [Arg, Acc] : VB.Args)
        Total.ArgBytes[Arg][unsigned(Acc)] += *Len;
    }
    auto *CB = dyn_cast<CallBase>(&I);
    if (!CB || !CostModel::isCountedCallee(*CB))
      continue;
    Function *Callee = CB->getCalledFunction();
    const FunctionCounts *FC = Owner.counts(*Callee);
    if (!FC) {
      note("recursive call to " + demangle(Callee->getName()) + " at " +
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
