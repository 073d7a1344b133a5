//===- KernelAnalysis.cpp - Per-kernel static counts ----------------------===//
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
#include "roofline/Analysis/KernelAnalysis.h"
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

namespace roofline {

namespace {

/// "file.cpp:12" for a debug location, or "" without one.
std::string locationText(const DebugLoc &DL) {
  if (!DL)
    return "";
  return (sys::path::filename(DL->getFilename()) + ":" + Twine(DL.getLine()))
      .str();
}

std::string locationText(const Instruction *I) {
  std::string L = locationText(I->getDebugLoc());
  if (!L.empty())
    return L;
  const BasicBlock *BB = I->getParent();
  if (BB->hasName())
    return "block '" + BB->getName().str() + "'";
  return BB->isEntryBlock() ? "the entry of " + demangle(BB->getParent()->getName())
                            : "a block of " + demangle(BB->getParent()->getName());
}

std::string loopText(const Loop *L) {
  std::string Loc = locationText(L->getStartLoc());
  return Loc.empty() ? "loop '" + L->getHeader()->getName().str() + "'"
                     : "loop at " + Loc;
}

const char *sregName(StringRef Intrinsic) {
  return StringSwitch<const char *>(Intrinsic)
      .Case("llvm.nvvm.read.ptx.sreg.tid.x", "threadIdx.x")
      .Case("llvm.nvvm.read.ptx.sreg.tid.y", "threadIdx.y")
      .Case("llvm.nvvm.read.ptx.sreg.tid.z", "threadIdx.z")
      .Case("llvm.nvvm.read.ptx.sreg.ntid.x", "blockDim.x")
      .Case("llvm.nvvm.read.ptx.sreg.ntid.y", "blockDim.y")
      .Case("llvm.nvvm.read.ptx.sreg.ntid.z", "blockDim.z")
      .Case("llvm.nvvm.read.ptx.sreg.ctaid.x", "blockIdx.x")
      .Case("llvm.nvvm.read.ptx.sreg.ctaid.y", "blockIdx.y")
      .Case("llvm.nvvm.read.ptx.sreg.ctaid.z", "blockIdx.z")
      .Case("llvm.nvvm.read.ptx.sreg.nctaid.x", "gridDim.x")
      .Case("llvm.nvvm.read.ptx.sreg.nctaid.y", "gridDim.y")
      .Case("llvm.nvvm.read.ptx.sreg.nctaid.z", "gridDim.z")
      .Case("llvm.nvvm.read.ptx.sreg.laneid", "laneid")
      .Default(nullptr);
}

const char *sregName(const Value *V) {
  if (const auto *CB = dyn_cast<CallBase>(V))
    if (const Function *Callee = CB->getCalledFunction())
      return sregName(Callee->getName());
  return nullptr;
}

/// Parameter names read from the declaration in the source file, for CUDA
/// device code whose debug info is line tables only. Empty when the text
/// does not split into exactly \p Count parameters.
std::vector<std::string> namesFromSource(const DISubprogram *SP,
                                         unsigned Count) {
  SmallString<256> Path(SP->getFilename());
  if (!sys::path::is_absolute(Path) && !SP->getDirectory().empty()) {
    Path = SP->getDirectory();
    sys::path::append(Path, SP->getFilename());
  }
  auto Buf = MemoryBuffer::getFile(Path);
  if (!Buf || SP->getLine() == 0)
    return {};
  StringRef Text = (*Buf)->getBuffer();
  for (unsigned L = 1; L < SP->getLine() && !Text.empty(); ++L)
    Text = Text.split('\n').second;
  // A template instance is named "linear<float>"; its source says "linear".
  StringRef Name = SP->getName().take_until([](char C) { return C == '<'; });
  size_t NamePos = Name.empty() ? StringRef::npos : Text.find(Name);
  if (NamePos == StringRef::npos)
    return {};
  size_t Open = Text.find('(', NamePos);
  if (Open == StringRef::npos)
    return {};
  std::vector<std::string> Names;
  int Depth = 0;
  std::string Current;
  auto Finish = [&] {
    StringRef P = StringRef(Current).split('=').first.rtrim();
    while (P.ends_with("]")) // int a[16] -> a
      P = P.substr(0, P.rfind('[')).rtrim();
    size_t Start = P.size();
    while (Start > 0 && (isAlnum(P[Start - 1]) || P[Start - 1] == '_'))
      --Start;
    Names.push_back(P.substr(Start).str());
    Current.clear();
  };
  for (size_t I = Open + 1; I < Text.size() && I < Open + 4096; ++I) {
    char C = Text[I];
    if (C == '(' || C == '<' || C == '[' || C == '{')
      ++Depth;
    else if ((C == ')' || C == '>' || C == ']' || C == '}') && Depth > 0)
      --Depth;
    else if (C == ')') {
      if (!StringRef(Current).trim().empty())
        Finish();
      break;
    } else if (C == ',' && Depth == 0) {
      Finish();
      continue;
    }
    Current += C;
  }
  if (Names.size() != Count)
    return {};
  return Names;
}

/// Parameter names from debug info (dbg records and retained nodes), the IR,
/// or the source text; else "argN". Made unique and usable in formulas.
std::vector<std::string> parameterNames(const Function &F) {
  std::vector<std::string> Names(F.arg_size());
  const DISubprogram *SP = F.getSubprogram();
  auto Take = [&](const DILocalVariable *V) {
    if (V && V->getArg() && V->getArg() <= Names.size() &&
        V->getScope() == SP && Names[V->getArg() - 1].empty())
      Names[V->getArg() - 1] = V->getName().str();
  };
  if (SP) {
    for (const DINode *N : SP->getRetainedNodes())
      Take(dyn_cast<DILocalVariable>(N));
    for (const BasicBlock &BB : F)
      for (const Instruction &I : BB)
        for (const DbgVariableRecord &DVR : filterDbgVars(I.getDbgRecordRange()))
          if (!DVR.getDebugLoc() || !DVR.getDebugLoc()->getInlinedAt())
            Take(DVR.getVariable());
  }
  std::vector<std::string> FromSource;
  for (unsigned I = 0; I < Names.size(); ++I) {
    if (!Names[I].empty())
      continue;
    if (F.getArg(I)->hasName())
      Names[I] = F.getArg(I)->getName().str();
    else if (SP) {
      if (FromSource.empty())
        FromSource = namesFromSource(SP, F.arg_size());
      if (!FromSource.empty())
        Names[I] = FromSource[I];
    }
  }
  std::set<std::string> Used;
  for (unsigned I = 0; I < Names.size(); ++I) {
    std::string &N = Names[I];
    for (char &C : N)
      if (!isAlnum(C) && C != '_')
        C = '_';
    if (N.empty() || isDigit(N[0]))
      N = "arg" + std::to_string(I);
    std::string Base = N;
    for (unsigned K = 2; Used.count(N); ++K)
      N = Base + "_" + std::to_string(K);
    Used.insert(N);
  }
  return Names;
}

/// Depends only on parameters, constants and GPU thread/block indices:
/// the same answer whatever the data in memory.
/// With \p SE, induction variables (add recurrences) are accepted too.
bool isParameterOnly(const Value *V, ScalarEvolution *SE = nullptr,
                     unsigned Depth = 0) {
  if (isa<Constant>(V) || isa<Argument>(V))
    return true;
  if (Depth > 12)
    return false;
  if (SE && isa<PHINode>(V) && SE->isSCEVable(V->getType()) &&
      isa<SCEVAddRecExpr>(SE->getSCEV(const_cast<Value *>(V))))
    return true;
  const auto *I = dyn_cast<Instruction>(V);
  if (!I || isa<PHINode>(I) || I->mayReadOrWriteMemory()) {
    if (const auto *CB = dyn_cast_or_null<CallBase>(I))
      return sregName(CB) != nullptr;
    return false;
  }
  if (const auto *CB = dyn_cast<CallBase>(I)) {
    if (sregName(CB))
      return true;
    if (!isa<IntrinsicInst>(CB))
      return false;
  }
  for (const Value *Op : I->operands())
    if (!isParameterOnly(Op, SE, Depth + 1))
      return false;
  return true;
}

/// An equality on the thread index (`threadIdx.x == 0`), alone or as a
/// part of `&&` / `||`: it singles out some threads of a block.
bool singlesOutThreads(const Value *C, unsigned Depth = 0) {
  using namespace PatternMatch;
  if (Depth > 8)
    return false;
  if (const auto *Cmp = dyn_cast<ICmpInst>(C)) {
    if (!Cmp->isEquality())
      return false;
    for (const Value *Op : Cmp->operands()) {
      const Value *Index = Op->stripPointerCasts();
      if (const auto *Cast = dyn_cast<CastInst>(Index))
        Index = Cast->getOperand(0);
      if (const char *Name = sregName(Index))
        if (StringRef(Name).starts_with("threadIdx") ||
            StringRef(Name).starts_with("laneid"))
          return true;
    }
    return false;
  }
  const Value *X, *Y;
  if (match(C, m_LogicalAnd(m_Value(X), m_Value(Y))) ||
      match(C, m_LogicalOr(m_Value(X), m_Value(Y))))
    return singlesOutThreads(X, Depth + 1) || singlesOutThreads(Y, Depth + 1);
  return false;
}

const char *predicateText(CmpInst::Predicate P) {
  switch (P) {
  case CmpInst::ICMP_EQ:
    return "==";
  case CmpInst::ICMP_NE:
    return "!=";
  case CmpInst::ICMP_SGT:
  case CmpInst::ICMP_UGT:
    return ">";
  case CmpInst::ICMP_SGE:
  case CmpInst::ICMP_UGE:
    return ">=";
  case CmpInst::ICMP_SLT:
  case CmpInst::ICMP_ULT:
    return "<";
  case CmpInst::ICMP_SLE:
  case CmpInst::ICMP_ULE:
    return "<=";
  default:
    return "?";
  }
}

class FunctionAnalyzer {
public:
  FunctionAnalyzer(Function &F, FunctionAnalyses A, KernelAnalysis &Owner)
      : F(F), LI(A.LI), SE(A.SE), GetBPI(A.BPI), Owner(Owner), CM(F),
        Params(parameterNames(F)),
        Translator(SE, [this](const Value *V) { return nameOf(V); }) {}

  FunctionCounts run();

private:
  /// A node of one loop level's acyclic graph: a block, or an inner loop.
  struct Node {
    BasicBlock *BB = nullptr;
    Loop *Sub = nullptr;
  };
  struct Region {
    Loop *L = nullptr; // null: the function body outside loops
    std::vector<Node> Nodes;
    DenseMap<const void *, unsigned> Index;
    std::vector<unsigned> Order; // reverse post-order from the entry
  };
  static constexpr int Sink = -1;

  std::optional<std::string> nameOf(const Value *V) const {
    if (const auto *A = dyn_cast<Argument>(V))
      if (A->getParent() == &F)
        return Params[A->getArgNo()];
    if (const char *S = sregName(V))
      return std::string(S);
    return std::nullopt;
  }
  static std::string ivName(const Loop *L) {
    return "$iv" + std::to_string(L->getLoopDepth());
  }
  void note(const std::string &N) {
    Exact = false;
    Notes.insert(N);
  }

  Region buildRegion(Loop *L);
  int nodeOf(const Region &R, BasicBlock *BB) const;
  std::vector<std::pair<int, double>> exitsOf(const Region &R, Loop *Sub);
  bool reaches(const Region &R, BasicBlock *From, BasicBlock *To) const;
  std::optional<unsigned> assumedSuccessor(const Region &R, BasicBlock *BB);
  /// "A < B", "A < B && C < D": a guard's condition in the parameters (when
  /// \p Holds is false, its negation); nothing when it is not comparisons.
  /// With \p Facts, each comparison the condition asserts is added to it
  /// as a polynomial that is >= 0.
  /// A fresh translator (its own conditions) that names the counters of
  /// \p Around and the loops around it.
  SCEVPolynomial translatorAround(Loop *Around) {
    SCEVPolynomial T(SE, [this](const Value *V) { return nameOf(V); });
    for (Loop *P = Around; P; P = P->getParentLoop())
      T.bindLoop(P, ivName(P));
    return T;
  }
  /// With \p Around, the counters of the loops around it may appear too.
  std::optional<std::string> conditionText(const Value *C, bool Holds,
                                           std::vector<Polynomial> *Facts = nullptr,
                                           Loop *Around = nullptr);
  CountPolys regionTotal(const Region &R, BasicBlock *FinalExit,
                         bool LastIteration);
  CountPolys loopTotal(Loop *L);
  void findLoopGuard(Loop *S);
  Polynomial tripCount(Loop *L);
  /// The translator's conditions for \p L's count, as assumptions.
  void recordConditions(Loop *L);
  /// A zero-trip guard of an inner loop that depends on enclosing loops'
  /// counters is assumed taken: that is exact only where its condition
  /// holds or the loop's trip formula is 0. Checked at the enclosing loops'
  /// first and last iterations (linear conditions); false when it fails.
  bool checkInnerGuard(const BranchInst *Br, bool Holds);
  /// \p P at the first and last iteration of each loop around \p L that
  /// it mentions, with the substitutions made; nullopt when it is not
  /// linear in one of them or its trip count is not known yet.
  using Substitution = std::vector<std::pair<std::string, Polynomial>>;
  std::optional<std::vector<std::pair<Polynomial, Substitution>>>
  atEndpoints(Loop *L, const Polynomial &P);
  std::optional<Polynomial> steppedTripCount(Loop *L);
  void staysInRange(ICmpInst::Predicate P, const Polynomial &Bound,
                    const Polynomial &Step, unsigned Width);
  std::optional<Polynomial>
  symbolicStepTripCount(Loop *L, ICmpInst::Predicate P, const SCEV *Step,
                        const Polynomial &First, const Polynomial &Bound,
                        SCEVPolynomial::Reading As);
  /// The compare's counter cannot wrap before the loop exits.
  bool counterCannotWrap(Loop *L, const SCEVAddRecExpr *AR,
                         const ICmpInst *Cmp, bool Signed);
  bool isInvariant(const SCEV *S, const Loop *L, unsigned Depth = 0);
  CountPolys blockCost(BasicBlock *BB, Loop *Context);
  void bindLoops(Loop *Innermost);

  Function &F;
  LoopInfo &LI;
  ScalarEvolution &SE;
  std::function<BranchProbabilityInfo &()> GetBPI;
  KernelAnalysis &Owner;
  CostModel CM;
  std::vector<std::string> Params;
  SCEVPolynomial Translator;
  DenseMap<const Loop *, CountPolys> LoopTotals;
  DenseMap<const Loop *, Polynomial> Trips;
  DenseMap<const Loop *, Polynomial> Iterations; // body runs, for loop rows
  SmallPtrSet<const Instruction *, 8> LoopGuards;
  SmallPtrSet<const Loop *, 8> GuardedLoops; // those with a zero-trip guard
  DenseMap<const Instruction *, Loop *> GuardOf; // the loop a guard skips
  bool Exact = true;
  using StringSet = SetVector<std::string, std::vector<std::string>, std::set<std::string>>;
  StringSet Notes;
  StringSet Assumptions;
  /// What the assumed guards assert, each as a polynomial >= 0.
  std::vector<Polynomial> GuardFacts;
  /// Range conditions of trip counts, each as a polynomial >= 0 with its
  /// text: stated at the end unless a guard's fact implies them.
  /// A count's range condition: the polynomial that must be >= 0, its
  /// text, and, for one on the thread index, the note it makes instead.
  struct LoopCondition {
    Polynomial Value;
    std::string Text;
    std::string ThreadNote;
  };
  std::vector<LoopCondition> LoopConditions;
  std::vector<LoopSummary> TopLoops;
};

void FunctionAnalyzer::findLoopGuard(Loop *S) {
  // The nearest conditional branch above the loop's entry, when its
  // condition is affine in parameters and induction variables: the loop's
  // zero-trip test (LoopSimplify form is not required, unlike
  // Loop::getLoopGuardBranch).
  BasicBlock *G = S->getLoopPredecessor();
  for (unsigned Step = 0; G && Step < 3; ++Step) {
    auto *Br = dyn_cast<BranchInst>(G->getTerminator());
    if (Br && Br->isConditional()) {
      // A data-dependent test guards a loop whose trip count is itself
      // unknown (a rotated while loop): its named trip count includes zero.
      if (isParameterOnly(Br->getCondition(), &SE) ||
          (isa<SCEVCouldNotCompute>(SE.getBackedgeTakenCount(S)) &&
           isa<SCEVCouldNotCompute>(SE.getSymbolicMaxBackedgeTakenCount(S))))
      {
        LoopGuards.insert(Br);
        GuardedLoops.insert(S);
        GuardOf[Br] = S;
      }
      return;
    }
    G = G->getUniquePredecessor();
  }
}

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

std::optional<unsigned> FunctionAnalyzer::assumedSuccessor(const Region &R,
                                                           BasicBlock *BB) {
  auto *Br = dyn_cast<BranchInst>(BB->getTerminator());
  if (!Br || !Br->isConditional())
    return std::nullopt;
  bool ParameterOnly = isParameterOnly(Br->getCondition());
  if (!ParameterOnly && !LoopGuards.count(Br))
    return std::nullopt;
  // An assertion: the side that fails it never returns, so the other side
  // is the one taken, and the assertion's condition is what is assumed.
  auto Fails = [](BasicBlock *BB) {
    for (Instruction &I : *BB)
      if (auto *CB = dyn_cast<CallBase>(&I)) {
        Function *Callee = CB->getCalledFunction();
        if (CB->doesNotReturn() ||
            (Callee && (Callee->getName() == "__assertfail" ||
                        Callee->getName() == "__assert_fail" ||
                        Callee->doesNotReturn())))
          return true;
      }
    return false;
  };
  BasicBlock *T = Br->getSuccessor(0), *E = Br->getSuccessor(1);
  // A thread-index equality (`threadIdx.x == 0`) singles out some threads
  // of a block: a per-thread count cannot assume it either way.
  if (singlesOutThreads(Br->getCondition()) && !Fails(T) && !Fails(E))
    return std::nullopt;
  // -O0 code leaves empty blocks on the way (`if (i >= n) return;` jumps
  // to a block that only jumps to the return): look through them.
  auto Through = [](BasicBlock *BB) {
    for (unsigned Hops = 0; Hops < 8 && BB->size() == 1; ++Hops) {
      auto *Jump = dyn_cast<BranchInst>(BB->getTerminator());
      if (!Jump || Jump->isConditional())
        break;
      BB = Jump->getSuccessor(0);
    }
    return BB;
  };
  unsigned Work;
  if (Fails(T) != Fails(E))
    Work = Fails(T) ? 1 : 0;
  else if (reaches(R, T, E) || reaches(R, T, Through(E)))
    Work = 0;
  else if (reaches(R, E, T) || reaches(R, E, Through(T)))
    Work = 1;
  else
    return std::nullopt;
  if (!ParameterOnly && LoopGuards.count(Br))
    checkInnerGuard(Br, Work == 0);
  if (ParameterOnly) {
    std::optional<std::string> Cond =
        conditionText(Br->getCondition(), Work == 0, &GuardFacts);
    if (!Cond) // an assumption nobody can check is no assumption: split
      return std::nullopt;
    Assumptions.insert(*Cond + " (guard at " + locationText(Br) + ")");
  }
  return Work;
}

std::optional<std::string>
FunctionAnalyzer::conditionText(const Value *C, bool Holds,
                                std::vector<Polynomial> *Facts, Loop *Around) {
  using namespace PatternMatch;
  if (auto *Cmp = dyn_cast<ICmpInst>(C)) {
    SCEVPolynomial Plain = translatorAround(Around);
    if (!SE.isSCEVable(Cmp->getOperand(0)->getType()))
      return std::nullopt;
    // The compare reads both sides as numbers, signed or unsigned.
    using Reading = SCEVPolynomial::Reading;
    Reading As = Cmp->isEquality() ? Reading::Modular
                 : Cmp->isSigned() ? Reading::Signed
                                   : Reading::Unsigned;
    auto A = Plain.translate(SE.getSCEV(Cmp->getOperand(0)), As);
    auto B = Plain.translate(SE.getSCEV(Cmp->getOperand(1)), As);
    if (!A || !B)
      return std::nullopt;
    CmpInst::Predicate P =
        Holds ? Cmp->getPredicate() : Cmp->getInversePredicate();
    std::string Text =
        A->str(Params) + " " + predicateText(P) + " " + B->str(Params);
    if (Facts && !CmpInst::isEquality(P)) {
      bool Less = ICmpInst::isLT(P) || ICmpInst::isLE(P);
      bool Strict = ICmpInst::isLT(P) || ICmpInst::isGT(P);
      Polynomial D = Less ? *B - *A : *A - *B;
      Facts->push_back(Strict ? D - Polynomial(1) : D);
    }
    for (const SCEVPolynomial::Condition &R : Plain.conditions()) {
      Text += " && " + R.Value.str(Params) + (R.AtLeast ? " >= " : " <= ") +
              R.Bound;
      if (Facts && R.nonNegative().isValid())
        Facts->push_back(R.nonNegative());
    }
    return Text;
  }
  // a && b holds: both do; it fails: one of them fails (De Morgan).
  const Value *X, *Y;
  bool And = match(C, m_LogicalAnd(m_Value(X), m_Value(Y)));
  if (!And && !match(C, m_LogicalOr(m_Value(X), m_Value(Y))))
    return std::nullopt;
  bool Conjunction = And == Holds;
  const char *Op = Conjunction ? " && " : " || ";
  const char *Other = Conjunction ? " || " : " && ";
  std::string Out;
  for (const Value *Part : {X, Y}) {
    std::optional<std::string> T =
        conditionText(Part, Holds, Conjunction ? Facts : nullptr, Around);
    if (!T)
      return std::nullopt;
    if (T->find(Other) != std::string::npos)
      T = "(" + *T + ")";
    Out += (Out.empty() ? "" : Op) + *T;
  }
  return Out;
}

Polynomial FunctionAnalyzer::tripCount(Loop *L) {
  auto Cached = Trips.find(L);
  if (Cached != Trips.end())
    return Cached->second;
  Translator.clearAssumptions();
  bindLoops(L->getParentLoop());
  Polynomial Trip;
  const SCEV *BTC = SE.getBackedgeTakenCount(L);
  std::string Why;
  std::optional<Polynomial> Counted = Translator.translate(BTC);
  Why = Counted ? "" : Translator.reason(); // before another translation
  if (Counted) {
    Trip = *Counted + Polynomial(1);
  } else if (Translator.clearAssumptions(); auto Manual = steppedTripCount(L)) {
    Trip = *Manual;
  } else {
    Translator.clearAssumptions();
    // A symbolic maximum helps when it is a formula or a small constant; a
    // constant from the bound's type range (2^31/16) would only mislead.
    const SCEV *Max = SE.getSymbolicMaxBackedgeTakenCount(L);
    auto *MaxC = dyn_cast<SCEVConstant>(Max);
    if (MaxC && MaxC->getAPInt().getActiveBits() > 20)
      Max = SE.getCouldNotCompute();
    if (auto M = Translator.translate(Max)) {
      Trip = *M + Polynomial(1);
      note(loopText(L) + ": trip count is an upper bound (" + Why +
           "; the loop may exit early)");
    } else {
      std::string Loc = locationText(L->getStartLoc());
      std::string Name =
          "trip_L" + (L->getStartLoc() ? std::to_string(L->getStartLoc().getLine())
                                       : L->getHeader()->getName().str());
      Trip = Polynomial::variable(Name);
      note(loopText(L) + ": trip count unknown (" + Why + "), written " + Name);
    }
    // The count is not exact: the range conditions of the attempts that
    // failed, or of the upper bound, are not assumptions of anything.
    Translator.clearAssumptions();
  }
  recordConditions(L);
  Trips[L] = Trip;
  return Trip;
}

std::optional<std::vector<std::pair<Polynomial, FunctionAnalyzer::Substitution>>>
FunctionAnalyzer::atEndpoints(Loop *L, const Polynomial &P) {
  std::vector<std::pair<Polynomial, Substitution>> Cases{{P, {}}};
  for (Loop *Outer = L; Outer; Outer = Outer->getParentLoop()) {
    std::string IV = ivName(Outer);
    std::vector<std::pair<Polynomial, Substitution>> Next;
    for (const auto &[Q, Sub] : Cases) {
      if (!Q.mentions(IV)) {
        Next.push_back({Q, Sub});
        continue;
      }
      for (const auto &[M, K] : Q.terms())
        for (const auto &[Var, Exp] : M)
          if (Var == IV && Exp != 1)
            return std::nullopt;
      auto Trip = Trips.find(Outer);
      if (Trip == Trips.end())
        return std::nullopt;
      for (const Polynomial &At : {Polynomial(0), Trip->second - Polynomial(1)}) {
        Substitution S = Sub;
        S.push_back({IV, At});
        Next.push_back({Q.substitute({{IV, At}}), S});
      }
    }
    Cases = std::move(Next);
  }
  return Cases;
}

bool FunctionAnalyzer::checkInnerGuard(const BranchInst *Br, bool Holds) {
  Loop *Guarded = GuardOf.lookup(Br);
  Loop *Around = LI.getLoopFor(Br->getParent());
  if (!Guarded || !Around)
    return true;
  std::vector<Polynomial> Facts;
  std::string Where = "the guard of " + loopText(Guarded);
  Polynomial Trip = tripCount(Guarded);
  // `i != c` (LLVM's form of `i > 0` for a counter it knows is not
  // negative): the loop is skipped only where i == c, which for i linear
  // in the enclosing counter is one iteration: exact when the trip formula
  // is 0 there.
  if (auto *Cmp = dyn_cast<ICmpInst>(Br->getCondition()))
    if (Cmp->isEquality() && SE.isSCEVable(Cmp->getOperand(0)->getType())) {
      bool EnteredWhenDiffer =
          (Cmp->getPredicate() == ICmpInst::ICMP_NE) == Holds;
      SCEVPolynomial Plain = translatorAround(Around);
      using Reading = SCEVPolynomial::Reading;
      auto A = Plain.translate(SE.getSCEV(Cmp->getOperand(0)), Reading::Modular);
      auto B = Plain.translate(SE.getSCEV(Cmp->getOperand(1)), Reading::Modular);
      std::string IV = ivName(Around);
      if (EnteredWhenDiffer && A && B) {
        Polynomial D = *A - *B;
        Polynomial K = D.substitute({{IV, Polynomial(1)}}) -
                       D.substitute({{IV, Polynomial(0)}});
        auto Slope = K.constantValue();
        bool Linear = true;
        for (const auto &[M, C] : D.terms())
          for (const auto &[Var, Exp] : M)
            Linear &= Var != IV || Exp == 1;
        if (Linear && Slope && !Slope->isZero()) {
          // D == 0 at IV = -(D at IV = 0) / slope.
          Polynomial At = D.substitute({{IV, Polynomial(0)}}) *
                          Polynomial(Rational(-1) / *Slope);
          if (Trip.substitute({{IV, At}}).isZero())
            return true;
        }
      }
      note(Where + ": skips it where an equality holds, which the trip "
                   "formula does not count as 0");
      return false;
    }
  if (!conditionText(Br->getCondition(), Holds, &Facts, Around)) {
    note(Where + ": its condition cannot be checked on every iteration");
    return false;
  }
  if (Facts.empty()) { // a disjunction: no bound to check
    note(Where + ": its condition cannot be checked on every iteration");
    return false;
  }
  for (const Polynomial &F : Facts) {
    auto Cases = atEndpoints(Around, F);
    if (!Cases) {
      note(Where + ": its condition varies non-linearly with an enclosing loop");
      return false;
    }
    for (const auto &[Value, Sub] : *Cases) {
      if (!Value.isValid()) {
        note(Where + ": its condition overflows 64-bit coefficients");
        return false;
      }
      if (auto V = Value.constantValue()) {
        if (V->isValid() && V->num() >= 0)
          continue; // taken there
        // Not taken there: exact only if the formula counts 0 as well.
        Polynomial T = Trip;
        for (const auto &[IV, At] : Sub)
          T = T.substitute({{IV, At}});
        auto Zero = T.constantValue();
        if (Zero && Zero->isZero())
          continue;
        note(Where + ": skips it on some iterations, where its trip formula "
                     "is not 0");
        return false;
      }
      std::string Text = Value.str(Params) + " >= 0";
      if (Text.find('$') != std::string::npos) {
        note(Where + ": its condition cannot be stated in the parameters");
        return false;
      }
      LoopConditions.push_back({Value, Text + " (" + Where + ")", ""});
    }
  }
  return true;
}

void FunctionAnalyzer::recordConditions(Loop *L) {
  for (const SCEVPolynomial::Condition &C : Translator.conditions()) {
    // A condition in an enclosing loop's iteration variable must hold on
    // each of its iterations: when it is linear in it, on the first and the
    // last suffices.
    auto Cases = atEndpoints(L->getParentLoop(), C.Value);
    if (!Cases) {
      note(loopText(L) + ": its count relies on a range condition that "
                         "varies non-linearly with an enclosing loop");
      return;
    }
    for (const auto &[P, Sub] : *Cases) {
      if (!P.isValid()) {
        note(loopText(L) + ": a range condition of its count overflows "
                           "64-bit coefficients");
        return;
      }
      if (auto V = P.constantValue()) {
        // Decided already: one that fails means the count wraps.
        __int128 X = V->num() / V->den();
        if (V->isInteger() && (C.AtLeast ? X >= C.BoundValue : X <= C.BoundValue))
          continue;
        // A guarded loop not entered on this iteration of the enclosing one
        // (a triangular nest's first): its backedge-taken count -1 makes the
        // trip 0, as it is.
        if (C.Root && C.AtLeast && C.BoundValue == 0 && X == -1 &&
            V->isInteger() && GuardedLoops.count(L))
          continue;
        note(loopText(L) + ": its count wraps around its type's range");
        return;
      }
      if (Translator.provable(P, C.AtLeast, C.BoundValue))
        continue;
      std::string Text = P.str(Params) + (C.AtLeast ? " >= " : " <= ") + C.Bound;
      // A count whose range condition is on the thread index differs from
      // thread to thread: no one per-thread number is exact.
      if (Text.find('$') != std::string::npos) {
        note(loopText(L) + ": its count relies on a condition the analysis "
                           "cannot state in the parameters");
        return;
      }
      SCEVPolynomial::Condition AtP = C;
      AtP.Value = P;
      // A condition on the thread index that no guard implies (checked at
      // the end, once every guard is known) holds for some threads only:
      // then the per-thread count is an estimate.
      std::string ThreadNote;
      if (SCEVPolynomial::variesWithThread(P))
        ThreadNote = loopText(L) + ": its trip count varies with the thread "
                                   "index (a per-thread count is an estimate)";
      LoopConditions.push_back(
          {AtP.nonNegative(), Text + " (" + loopText(L) + ")", ThreadNote});
    }
  }
}

bool FunctionAnalyzer::isInvariant(const SCEV *S, const Loop *L,
                                   unsigned Depth) {
  if (SE.isLoopInvariant(S, L))
    return true;
  // -O0 code recomputes `K / 16` inside the loop: the same value on every
  // iteration when the instruction only combines invariant values.
  const auto *U = dyn_cast<SCEVUnknown>(S);
  const auto *I = U ? dyn_cast<Instruction>(U->getValue()) : nullptr;
  if (!I || Depth > 8 || I->mayReadOrWriteMemory() || isa<PHINode>(I) ||
      isa<CallBase>(I))
    return false;
  for (const Value *Op : I->operands())
    if (!isa<Constant>(Op) &&
        !isInvariant(SE.getSCEV(const_cast<Value *>(Op)), L, Depth + 1))
      return false;
  return true;
}

bool FunctionAnalyzer::counterCannotWrap(Loop *L, const SCEVAddRecExpr *AR,
                                         const ICmpInst *Cmp, bool Signed) {
  if (Signed ? AR->hasNoSignedWrap() : AR->hasNoUnsignedWrap())
    return true;
  // ScalarEvolution drops the flag it cannot prove for every iteration;
  // the increment's own flag (C's `k += 16` on an int is nsw) suffices,
  // as the increment runs on every iteration that reaches the test.
  for (const Value *Op : Cmp->operands()) {
    const auto *Phi = dyn_cast<PHINode>(Op);
    const auto *Inc = dyn_cast<BinaryOperator>(Op);
    if (Phi && Phi->getParent() == L->getHeader() && L->getLoopLatch())
      Inc = dyn_cast<BinaryOperator>(
          Phi->getIncomingValueForBlock(L->getLoopLatch()));
    if (Inc && (Inc->getOpcode() == Instruction::Add ||
                Inc->getOpcode() == Instruction::Sub) &&
        SE.getSCEV(const_cast<BinaryOperator *>(Inc)) != nullptr &&
        (Signed ? Inc->hasNoSignedWrap() : Inc->hasNoUnsignedWrap()))
      return true;
  }
  return false;
}

std::optional<Polynomial> FunctionAnalyzer::steppedTripCount(Loop *L) {
  // ScalarEvolution gives up on `for (k = 0; k < K; k += 16)` because
  // K + 15 might overflow, and on bounds it cannot see into (`K / 16` with a
  // signed K). For a loop whose only exit test (at the bottom, or at the top
  // in unrotated -O0 code) compares an affine induction variable with a
  // loop-invariant bound, the count is ceil((bound - first)/step) under the
  // language's no-overflow rule.
  BasicBlock *Exiting = L->getExitingBlock();
  if (!Exiting ||
      (Exiting != L->getLoopLatch() && Exiting != L->getHeader()))
    return std::nullopt;
  auto *Br = dyn_cast<BranchInst>(Exiting->getTerminator());
  auto *Cmp = Br && Br->isConditional()
                  ? dyn_cast<ICmpInst>(Br->getCondition())
                  : nullptr;
  if (!Cmp)
    return std::nullopt;
  ICmpInst::Predicate P = Cmp->getPredicate();
  if (!L->contains(Br->getSuccessor(0)))
    P = CmpInst::getInversePredicate(P); // the condition to keep looping
  const SCEV *LHS = SE.getSCEV(Cmp->getOperand(0));
  const SCEV *RHS = SE.getSCEV(Cmp->getOperand(1));
  if (!isa<SCEVAddRecExpr>(LHS)) {
    std::swap(LHS, RHS);
    P = CmpInst::getSwappedPredicate(P);
  }
  const auto *AR = dyn_cast<SCEVAddRecExpr>(LHS);
  if (!AR || AR->getLoop() != L || !AR->isAffine() || !isInvariant(RHS, L))
    return std::nullopt;
  const SCEV *StepS = AR->getStepRecurrence(SE);
  const auto *StepC = dyn_cast<SCEVConstant>(StepS);
  if (StepC && (StepC->getAPInt().getSignificantBits() > 32 ||
                StepC->getAPInt().isZero()))
    return std::nullopt;
  // The count below holds when the counter cannot wrap before the exit:
  // ScalarEvolution's no-wrap flag in the compare's signedness (C's signed
  // overflow rule gives it). Otherwise (an unsigned counter, or `i +=
  // blockDim.x` whose sum is unsigned) the last step must stay in the
  // type's range: stated, as `n + blockDim.x <= 2147483648`.
  bool NoWrap = counterCannotWrap(L, AR, Cmp, ICmpInst::isSigned(P));
  unsigned Width = SE.getTypeSizeInBits(AR->getType());
  if (!NoWrap && Width > 64)
    return std::nullopt;
  bindLoops(L->getParentLoop());
  using Reading = SCEVPolynomial::Reading;
  Reading As = ICmpInst::isSigned(P) ? Reading::Signed : Reading::Unsigned;
  auto First = Translator.translate(AR->getStart(), As);
  auto Bound = Translator.translate(RHS, As);
  if (!First || !Bound)
    return std::nullopt;
  if (!StepC) {
    auto Trip = symbolicStepTripCount(L, P, StepS, *First, *Bound, As);
    if (Trip && !NoWrap)
      staysInRange(P, *Bound, *Translator.translate(StepS, As), Width);
    return Trip;
  }
  int64_t Step = StepC->getAPInt().getSExtValue();
  if (!NoWrap)
    staysInRange(P, *Bound, Polynomial(Step < 0 ? -Step : Step), Width);
  // Continue while First + Step*k (op) Bound, for k = 0, 1, ...
  Polynomial Span;
  bool Inclusive;
  if (Step > 0 && (ICmpInst::isLT(P) || ICmpInst::isLE(P))) {
    Span = *Bound - *First;
    Inclusive = ICmpInst::isLE(P);
  } else if (Step < 0 && (ICmpInst::isGT(P) || ICmpInst::isGE(P))) {
    Span = *First - *Bound;
    Inclusive = ICmpInst::isGE(P);
    Step = -Step;
  } else {
    return std::nullopt;
  }
  // The test passes for k = 0 .. C-1 and fails at k = C, so the body runs
  // C + 1 times, with C = floor(Span/Step) + 1 when inclusive, else
  // ceil(Span/Step) = floor((Span + Step - 1)/Step) (Span > 0 by the guard).
  Polynomial Num = Inclusive ? Span : Span + Polynomial(Step - 1);
  if (Num.mentions(ivName(L)))
    return std::nullopt;
  // A quotient of an outer loop's counter cannot be summed over it.
  if (Step != 1)
    for (const std::string &V : Num.variables())
      if (V.rfind("$", 0) == 0)
        return std::nullopt;
  // floor(Num/Step) counts the passes when the test passes at least once
  // (Num >= 0); a do-while loop or an unguarded one may not: stated.
  Translator.addCondition({Num, true, "0", 0});
  Polynomial Passes = Polynomial::floorOf(Num, Step, Params);
  return Passes + Polynomial(Inclusive ? 2 : 1);
}

void FunctionAnalyzer::staysInRange(ICmpInst::Predicate P,
                                     const Polynomial &Bound,
                                     const Polynomial &Step, unsigned Width) {
  // The last value that passes the test is at most Bound (Bound - 1 for a
  // strict test); one step past it must not leave the type's range.
  bool Signed = ICmpInst::isSigned(P);
  bool Strict = !ICmpInst::isLE(P) && !ICmpInst::isGE(P);
  Polynomial Slack(Strict ? 1 : 0);
  __int128 Max = Signed ? (__int128(1) << (Width - 1)) - 1 : (__int128(1) << Width) - 1;
  __int128 Min = Signed ? -(__int128(1) << (Width - 1)) : 0;
  if (ICmpInst::isLT(P) || ICmpInst::isLE(P))
    Translator.require(Bound + Step - Slack, false, Max);
  else
    Translator.require(Bound - Step + Slack, true, Min);
}

std::optional<Polynomial> FunctionAnalyzer::symbolicStepTripCount(
    Loop *L, ICmpInst::Predicate P, const SCEV *StepS, const Polynomial &First,
    const Polynomial &Bound, SCEVPolynomial::Reading As) {
  // A grid-stride loop, `for (i = tid; i < n; i += blockDim.x * gridDim.x)`:
  // a step that is loop-invariant and at least 1 (blockDim and gridDim are;
  // a parameter's is stated) counts ceil((n - first)/step).
  if (!(ICmpInst::isLT(P) || ICmpInst::isLE(P)) || !isInvariant(StepS, L))
    return std::nullopt;
  auto Step = Translator.translate(StepS, As);
  if (!Step || Step->mentions(ivName(L)))
    return std::nullopt;
  for (const std::string &V : Step->variables())
    if (V.rfind("$", 0) == 0)
      return std::nullopt; // a step that changes with an outer loop
  if (!Translator.provable(*Step, true, 1))
    Translator.addCondition({*Step - Polynomial(1), true, "0", 0});
  bool Inclusive = ICmpInst::isLE(P);
  Polynomial Span = Bound - First;
  Polynomial Num = Inclusive ? Span : Span + *Step - Polynomial(1);
  if (Num.mentions(ivName(L)))
    return std::nullopt;
  for (const std::string &V : Num.variables())
    if (V.rfind("$", 0) == 0)
      return std::nullopt;
  Translator.addCondition({Num, true, "0", 0});
  return Polynomial::floorOf(Num, *Step, Params) +
         Polynomial(Inclusive ? 2 : 1);
}

void FunctionAnalyzer::bindLoops(Loop *Innermost) {
  for (Loop *P = Innermost; P; P = P->getParentLoop())
    Translator.bindLoop(P, ivName(P));
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
    // The callee's totals, with its parameters replaced by the arguments.
    std::map<std::string, Polynomial> Args;
    bindLoops(Context);
    for (unsigned A = 0; A < FC->Params.size() && A < CB->arg_size(); ++A) {
      Value *Arg = CB->getArgOperand(A);
      if (!SE.isSCEVable(Arg->getType()))
        continue;
      if (auto P = Translator.translate(SE.getSCEV(Arg),
                                        SCEVPolynomial::Reading::Modular)) {
        Args[FC->Params[A]] = *P;
        continue;
      }
      // An argument the analysis cannot name: the callee's parameter must
      // not leak into this function's formulas as if it were its own.
      const std::string &Name = FC->Params[A];
      if (FC->Totals.flops().mentions(Name) ||
          FC->Totals.bytes(Access::Load).mentions(Name) ||
          FC->Totals.bytes(Access::Store).mentions(Name)) {
        Args[Name] = Polynomial::variable("unknown");
        note("call to " + demangle(Callee->getName()) + " at " +
             locationText(&I) + ": its count depends on '" + Name +
             "', an argument the analysis cannot name (written unknown)");
      }
    }
    // floor(E/D) terms are opaque names: one that mentions a parameter
    // whose argument is not that same name cannot be rewritten; it becomes
    // unknown rather than keep the callee's name.
    std::set<std::string> Atoms;
    for (const Polynomial &P :
         {FC->Totals.flops(), FC->Totals.bytes(Access::Load),
          FC->Totals.bytes(Access::Store)})
      for (const std::string &V : P.variables())
        if (V.rfind("floor(", 0) == 0)
          Atoms.insert(V);
    for (const std::string &Atom : Atoms)
      for (const std::string &Name : FC->Params) {
        auto It = Args.find(Name);
        bool Same = It != Args.end() && It->second == Polynomial::variable(Name) &&
                    std::find(Params.begin(), Params.end(), Name) != Params.end();
        if (Same || !Regex("(^|[^A-Za-z0-9_.])" + Regex::escape(Name) +
                           "($|[^A-Za-z0-9_.])").match(Atom))
          continue;
        Args[Atom] = Polynomial::variable("unknown");
        note("call to " + demangle(Callee->getName()) + " at " +
             locationText(&I) + ": its count has the term " + Atom +
             " in its parameter '" + Name + "', which this call does not "
             "pass by the same name (written unknown)");
        break;
      }
    CountPolys Sub = FC->Totals.substitute(Args);
    // The callee's traffic through its pointer parameters is the caller's
    // through whatever parameter of its own it passed.
    std::map<unsigned, std::array<Polynomial, 2>> Through;
    for (const auto &[CalleeArg, LS] : Sub.ArgBytes)
      if (CalleeArg < CB->arg_size())
        if (auto Mine = CM.parameterOf(CB->getArgOperand(CalleeArg))) {
          Through[*Mine][0] += LS[0];
          Through[*Mine][1] += LS[1];
        }
    Sub.ArgBytes = std::move(Through);
    bool Unbound = false;
    for (unsigned A = 0; A < FC->Params.size(); ++A)
      if (!Args.count(FC->Params[A]) && FC->Totals.mentions(FC->Params[A]))
        Unbound = true;
    if (Unbound)
      note("call to " + demangle(Callee->getName()) + " at " +
           locationText(&I) +
           ": an argument has no closed form; the callee's parameter name is "
           "kept in the formula");
    if (!FC->Exact)
      note("call to " + demangle(Callee->getName()) + " at " +
           locationText(&I) + ": the callee's counts are not exact");
    for (const std::string &A : FC->Assumptions)
      Assumptions.insert(A + " in " + demangle(Callee->getName()));
    Total.add(Sub);
  }
  Total.add(Fixed, Polynomial(1));
  return Total;
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
      if (!R.L) {
        LoopSummary LS;
        DebugLoc DL = Nd.Sub->getStartLoc();
        if (DL) {
          LS.File = DL->getFilename().str();
          if (!DL->getDirectory().empty() && !sys::path::is_absolute(LS.File))
            LS.File = (DL->getDirectory() + "/" + LS.File).str();
          LS.Line = DL.getLine();
          LS.Column = DL.getCol();
        }
        unsigned Depth = 1;
        for (Loop *Inner : Nd.Sub->getLoopsInPreorder())
          Depth = std::max(Depth, Inner->getLoopDepth());
        LS.Depth = Depth;
        LS.Trip = Iterations.lookup(Nd.Sub);
        LS.TripKnown = !LS.Trip.variables().size() ||
                       LS.Trip.variables().begin()->rfind("trip_L", 0) != 0;
        LS.Totals = LoopCounts.times(Times);
        LS.Exact = !Est && LoopExact;
        TopLoops.push_back(LS);
      }
      Total.add(LoopCounts.times(Times));
      for (auto [To, Share] : exitsOf(R, Nd.Sub))
        Send(To, Share, false);
      continue;
    }
    BasicBlock *BB = Nd.BB;
    Total.add(blockCost(BB, R.L).times(Times));
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

FunctionCounts FunctionAnalyzer::run() {
  FunctionCounts FC;
  FC.Params = Params;
  for (Loop *Top : LI)
    findLoopGuard(Top);
  Region R = buildRegion(nullptr);
  FC.Totals = regionTotal(R, nullptr, false);
  std::sort(TopLoops.begin(), TopLoops.end(),
            [](const LoopSummary &A, const LoopSummary &B) {
              return std::tie(A.Line, A.Column) < std::tie(B.Line, B.Column);
            });
  FC.Loops = std::move(TopLoops);
  if (FC.Totals.UpperBound)
    note("masked, gather or scatter accesses count every lane (an upper "
         "bound)");
  if (!FC.Totals.Unknown.empty())
    note("some operations are not understood by the cost model (see "
         "'unknown')");
  // A trip count's range condition that an assumed guard implies (the
  // guard 'n > 0' and the count's 'n - 1 >= 0') is not stated again.
  // Nor one that a condition already stated implies ('n >= 1' and
  // 'n - 1 >= 0').
  auto Implies = [](const Polynomial &Fact, const Polynomial &C) {
    if (!Fact.isValid() || !C.isValid())
      return false;
    auto Gap = (C - Fact).constantValue();
    return Gap && Gap->isValid() && Gap->num() >= 0;
  };
  for (size_t I = 0; I < LoopConditions.size(); ++I) {
    const Polynomial &C = LoopConditions[I].Value;
    bool Implied = false;
    for (const Polynomial &Fact : GuardFacts)
      Implied |= Implies(Fact, C);
    if (!Implied && !LoopConditions[I].ThreadNote.empty()) {
      // A thread-index condition may follow from two facts together: the
      // first step of a grid-stride loop stays in range because the start
      // is below n (the guard) and n + stride is (a stated condition).
      std::vector<Polynomial> Facts = GuardFacts;
      for (const LoopCondition &D : LoopConditions)
        if (D.ThreadNote.empty())
          Facts.push_back(D.Value);
      for (size_t A = 0; A < Facts.size() && !Implied; ++A)
        for (size_t B = A; B < Facts.size() && !Implied; ++B)
          Implied = Implies(Facts[A], C) || Implies(Facts[A] + Facts[B], C);
      if (!Implied) {
        note(LoopConditions[I].ThreadNote);
        continue;
      }
    }
    // By another condition: a stronger one, or an equal one stated first.
    for (size_t J = 0; J < LoopConditions.size() && !Implied; ++J) {
      const Polynomial &D = LoopConditions[J].Value;
      if (J != I && LoopConditions[J].ThreadNote.empty() && Implies(D, C) &&
          (!Implies(C, D) || J < I))
        Implied = true;
    }
    if (!Implied)
      Assumptions.insert(LoopConditions[I].Text);
  }
  FC.Exact = Exact;
  FC.Notes.assign(Notes.begin(), Notes.end());
  FC.Assumptions.assign(Assumptions.begin(), Assumptions.end());
  return FC;
}

} // namespace

KernelAnalysis::~KernelAnalysis() = default;

const FunctionCounts *KernelAnalysis::counts(Function &F) {
  auto It = Cache.find(&F);
  if (It != Cache.end())
    return It->second.get(); // null while F is on the stack: recursion
  Cache[&F] = nullptr;
  FunctionAnalyzer A(F, Get(F), *this);
  auto FC = std::make_unique<FunctionCounts>(A.run());
  const FunctionCounts *Result = FC.get();
  Cache[&F] = std::move(FC);
  return Result;
}

bool KernelAnalysis::isKernel(const Function &F) {
  if (F.isDeclaration() || F.hasAvailableExternallyLinkage())
    return false;
  StringRef Name = F.getName();
  if (Name.starts_with("__roofline") || Name.starts_with("__nv_") ||
      Name.starts_with("__cuda") || Name.starts_with("__clang") ||
      F.hasFnAttribute(Attribute::Naked))
    return false;
  if (Triple(F.getParent()->getTargetTriple()).isNVPTX())
    return F.getCallingConv() == CallingConv::PTX_Kernel;
  return true; // the caller checks for work in loops
}

KernelSummary KernelAnalysis::summarize(Function &F,
                                        const Function &Original) {
  const FunctionCounts *FC = counts(F);
  KernelSummary K;
  K.Name = Original.getName().str();
  K.DisplayName = demangle(K.Name);
  Triple T(Original.getParent()->getTargetTriple());
  K.IsGPU = T.isNVPTX();
  K.Kind = K.IsGPU ? "cuda-kernel" : "function";
  K.Per = K.IsGPU ? "thread" : "call";
  K.Target = T.str();
  if (K.IsGPU) {
    Attribute CPU = Original.getFnAttribute("target-cpu");
    if (CPU.isValid())
      K.Target += " " + CPU.getValueAsString().str();
  }
  if (const DISubprogram *SP = Original.getSubprogram()) {
    K.File = SP->getFilename().str();
    if (!SP->getDirectory().empty() && !sys::path::is_absolute(K.File))
      K.File = (SP->getDirectory() + "/" + K.File).str();
    K.Line = SP->getLine();
  }
  K.Params = FC->Params;
  K.Totals = FC->Totals;
  K.Exact = FC->Exact;
  K.Notes = FC->Notes;
  K.Assumptions = FC->Assumptions;
  K.Loops = FC->Loops;
  if (K.IsGPU)
    K.Assumptions.insert(K.Assumptions.begin(),
                         "counts are per thread that passes the kernel's "
                         "index guards");
  return K;
}

} // namespace roofline
