//===- Instrumentation.cpp - Exact dynamic counts -------------------------===//
//
// USAGE:
//   clang++-22 -O2 -fpass-plugin=build/lib/RooflinePass.so \
//       -mllvm -roofline-instrument app.cpp build/lib/libroofline_rt.so
//   opt -load-pass-plugin=build/lib/RooflinePass.so \
//       -passes=roofline-instrument in.ll -S -o out.ll
//
// Three phases, as in SanitizerCoverage: skip what must not be touched,
// collect (counters per block, loop nests, costs), inject with IRBuilder.
//
// A counter per block with a cost counts its executions; blocks that run on
// every iteration of a loop whose trip count ScalarEvolution knows on entry
// are counted once, in the preheader, by the trip count. Counters live in
// allocas promoted to registers; each return adds them, the call and its
// time into a thread_local block of the function, without calling the
// runtime (which reads the blocks when it writes the profile).
//
// In CUDA device code (nvptx64) the counters stay per thread in registers;
// at the kernel's one exit each full warp sums them with shuffles and its
// first lane adds the warp's FLOPs and bytes to the kernel's device buffer,
// one atomic per cost slot (a partial warp: one per thread). In host code,
// cudaLaunchKernel calls (the <<<...>>> stubs make them too) go to the
// runtime's CUDA shim, which finds that buffer and reads it per launch.
//
//===----------------------------------------------------------------------===//
#include "roofline/Transforms/Instrumentation.h"

#include "CacheTracing.h"
#include "CalleeCounts.h"
#include "FormulaCode.h"
#include "roofline/Analysis/DeviceCode.h"
#include "roofline/Analysis/CostModel.h"
#include "roofline/Analysis/KernelAnalysis.h"
#include "roofline/Analysis/KernelSelection.h"
#include "roofline/Runtime/Descriptor.h"
#include "roofline/Transforms/InlinedFunctions.h"
#include "roofline/Analysis/InlinedSummaries.h"

#include "llvm/Analysis/LoopInfo.h"
#include "llvm/Analysis/ScalarEvolution.h"
#include "llvm/Demangle/Demangle.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/DebugInfoMetadata.h"
#include "llvm/IR/DiagnosticInfo.h"
#include "llvm/IR/Dominators.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/Intrinsics.h"
#include "llvm/IR/IntrinsicsNVPTX.h"
#include "llvm/IR/Module.h"
#include "llvm/TargetParser/Triple.h"
#include "llvm/Transforms/Utils/BasicBlockUtils.h"
#include "llvm/Transforms/Utils/Cloning.h"
#include "llvm/Transforms/Utils/LoopSimplify.h"
#include "llvm/Transforms/Utils/LoopUtils.h"
#include "llvm/Transforms/Utils/ModuleUtils.h"
#include "llvm/Transforms/Utils/PromoteMemToReg.h"
#include "llvm/Transforms/Utils/ScalarEvolutionExpander.h"

#include <map>
#include <set>
#include <numeric>

using namespace llvm;

namespace roofline {

namespace {

/// The kinds of DescriptorFields.inc's fields.
enum class FieldKind { U32, I32, U64, STRING, COSTS, PARTS, LOOPS };

/// A roofline_kernel initializer, filled by field name; values() lists them
/// in the struct's order.
struct KernelFields {
#define ROOFLINE_KERNEL_FIELD(Kind, Name) Constant *Name = nullptr;
#include "roofline/Runtime/DescriptorFields.inc"
  std::vector<Constant *> values() const {
    std::vector<Constant *> V;
#define ROOFLINE_KERNEL_FIELD(Kind, Name) V.push_back(Name);
#include "roofline/Runtime/DescriptorFields.inc"
    assert(llvm::all_of(V, [](Constant *C) { return C; }) && "a field not set");
    return V;
  }
};

/// roofline_part and roofline_loop initializers, the same way.
struct PartFields {
#define ROOFLINE_PART_FIELD(Kind, Name) Constant *Name = nullptr;
#include "roofline/Runtime/DescriptorFields.inc"
  std::vector<Constant *> values() const {
    std::vector<Constant *> V;
#define ROOFLINE_PART_FIELD(Kind, Name) V.push_back(Name);
#include "roofline/Runtime/DescriptorFields.inc"
    return V;
  }
};
struct LoopFields {
#define ROOFLINE_LOOP_FIELD(Kind, Name) Constant *Name = nullptr;
#include "roofline/Runtime/DescriptorFields.inc"
  std::vector<Constant *> values() const {
    std::vector<Constant *> V;
#define ROOFLINE_LOOP_FIELD(Kind, Name) V.push_back(Name);
#include "roofline/Runtime/DescriptorFields.inc"
    return V;
  }
};

/// A roofline_cost initializer, the same way.
struct CostFields {
#define ROOFLINE_COST_FIELD(Kind, Name) Constant *Name = nullptr;
#include "roofline/Runtime/DescriptorFields.inc"
  std::vector<Constant *> values() const {
    std::vector<Constant *> V;
#define ROOFLINE_COST_FIELD(Kind, Name) V.push_back(Name);
#include "roofline/Runtime/DescriptorFields.inc"
    assert(llvm::all_of(V, [](Constant *C) { return C; }) && "a field not set");
    return V;
  }
};


// Names of the runtime's entry points and of generated globals, in one place.
constexpr const char *RegisterFn = "__roofline_register";
constexpr const char *RegisterThreadFn = "__roofline_register_thread";
constexpr const char *RegionBeginFn = "__roofline_region_begin";
constexpr const char *RegionEndFn = "__roofline_region_end";
constexpr const char *CtorName = "roofline.module_ctor";
constexpr const char *Marker = "roofline.instrumented";

/// A kernel without reuse (every byte it loads and stores once, before
/// vectorisation) whose code as compiled has no vector memory access (a
/// vectorised strided access loads the gaps): its footprint is its counted
/// bytes, which the runtime has already.
bool footprintIsCounted(const StaticFormulas &SF, const Function &F) {
  if (!SF.FootprintExact || SF.FootprintRead != SF.Load ||
      SF.FootprintWritten != SF.Store)
    return false;
  for (const Instruction &I : instructions(F)) {
    Type *T = nullptr;
    if (auto *L = dyn_cast<LoadInst>(&I))
      T = L->getType();
    else if (auto *St = dyn_cast<StoreInst>(&I))
      T = St->getValueOperand()->getType();
    else if (isa<MemIntrinsic>(&I))
      return false; // a memcpy's length is counted, its bytes maybe twice
    else if (auto *CB = dyn_cast<CallBase>(&I))
      T = CB->getType(); // a masked load or gather returns a vector
    if (T && T->isVectorTy())
      return false;
    if (auto *CB = dyn_cast<CallBase>(&I))
      for (const Value *A : CB->args())
        if (A->getType()->isVectorTy())
          return false; // a masked store or scatter takes one
  }
  return true;
}

struct Counter {
  BasicBlock *Block = nullptr;       // counted block (or the transfer's)
  const Value *Length = nullptr;     // set: counts bytes of a transfer
  Instruction *At = nullptr;         // the transfer
  Loop *HoistTo = nullptr;           // counted in this loop's preheader
  const std::string *Formula = nullptr; // set: adds its value once per call
  /// With Formula: where to add it instead (before each, with its values):
  /// an inlined kernel's entries.
  std::vector<std::pair<Instruction *, std::map<std::string, DbgVariableRecord *>>>
      FormulaSites;
  /// With Formula: the assumptions it holds under; an entry that breaks
  /// one adds 0, and 1 to counter Broken (when >= 0).
  std::vector<std::string> Conditions;
  int Broken = -1;
  std::vector<Instruction *> Markers;   // set: +1 at each entry marker
  bool Timer = false;                // a loop timer's: the timer code adds
  bool Counted = false;              // another counter's code adds to it
  bool Maximum = false;              // flushed by maximum, not sum
  /// Set: adds how much this counter of a callee's block grew during the
  /// call At (the callee's work, for the caller's inclusive count).
  const CalleeCounts::Block *GrowthOf = nullptr;
  uint32_t GrowthCounter = 0;
};

/// A cost of the descriptor: counter x PerUnit into a slot, for a part
/// (source function) and one of its loop nests.
struct CostEntry {
  uint32_t Counter, Slot;
  uint64_t PerUnit;
  uint32_t Part, Nest;
  /// For the innermost part of the code it counts; false: the same work
  /// again for an enclosing part (inclusive counts), which a caller that
  /// reads this function's block must not add twice.
  bool Innermost = true;
};

/// A source function whose code the instrumented function holds.
struct Part {
  const SourceFunction *Source; ///< null: the function itself
  int Entries = -1;             ///< counter of entries into inlined bodies
  uint32_t Kind = ROOFLINE_PART_SELF;
  /// An inlined kernel's footprint: 0 not counted, 1 exact, 2 a lower
  /// bound; its formulas (read, written), evaluated at each entry.
  uint32_t FootprintKind = 0;
  std::string Footprint[2];
  int FootprintBroken = -1; ///< counter of entries that broke an assumption
};

/// A top-level loop nest of a part and the counters that measure it.
struct Nest {
  Loop *L;
  uint32_t Part, Line;
  const DILocation *Start = nullptr; ///< the source loop's location
  int Entries = -1, Iterations = -1, Ticks = -1, Timed = -1;
  int Entered = -1; ///< entries into the source loop (first of its nests)
  /// The fewest (as a complement) and most iterations of one entry.
  int Fewest = -1, Most = -1;
  bool ExitsInsertable = false;
};

class FunctionInstrumenter {
public:
  /// \p Sources (may be null) attribute inlined code to its own function;
  /// \p RecordSelf: the function itself is a kernel (else only what was
  /// inlined into it is counted).
  FunctionInstrumenter(Function &F, LoopInfo &LI, ScalarEvolution &SE,
                       DominatorTree &DT, const InlinedFunctions *Sources,
                       bool RecordSelf)
      : F(F), LI(LI), SE(SE), DT(DT), CM(F), Sources(Sources),
        RecordSelf(RecordSelf) {}

  /// Calls add their callees' work (\p Callees: fixed costs, and the
  /// blocks of callees instrumented already). \p Helper: the function is
  /// counted for its callers only; its own record is hidden.
  void countCalls(const CalleeCounts &C, bool IsHelper) {
    Callees = &C;
    Helper = IsHelper;
  }
  /// After run: this function's block, as its callers read it.
  CalleeCounts::Block block() const;
  /// Per part: the calls whose work is not in its counts (a library, a
  /// function pointer).
  std::map<uint32_t, std::set<std::string>> Uncounted;

  /// Host code: counters flushed into a thread_local block per call.
  bool run(GlobalVariable *Desc);
  /// Also counts the call's footprint, evaluated from its arguments at
  /// entry (before run); false when the formulas need more than them.
  bool countFootprint(const StaticFormulas &SF);
  /// Device code: counters reduced per warp into \p Counts at kernel exit.
  bool runDevice(GlobalVariable *Counts);
  /// The summaries inlined kernels' markers carry: their footprints are
  /// counted at each entry, with the arguments the entry had.
  void countInlinedFootprints(CarriedSummaries &C) { Carried = &C; }

  std::vector<CostEntry> Costs;
  std::vector<Part> Parts{Part{nullptr}};
  /// Host code: every memory access and where its cache traffic counts.
  std::vector<AccessSite> AccessSites;
  /// Host code: the calls whose callee's work counts here, and where.
  std::vector<CallSite> CallSites;
  std::vector<Nest> Nests;
  size_t numCounters() const { return Counters.size(); }

private:
  bool everyIterationRuns(Loop *L, BasicBlock *BB) const;
  /// Another nest comes from \p N's source loop (a vector loop and its
  /// remainder, copies in an unrolled outer loop); false without a location.
  bool sharesItsSourceLoop(const Nest &N) const {
    return N.Start && llvm::any_of(Nests, [&](const Nest &O) {
             return &O != &N && O.Start &&
                    InlinedFunctions::sameLocation(O.Start, N.Start, /*Columns=*/false);
           });
  }
  bool canHoist(Loop *L) const;
  /// The source function \p I came from (null: this one).
  const SourceFunction *sourceOf(const Instruction &I) const;
  /// Where \p I's cache traffic counts: its source's part << 16 | its
  /// loop nest in that part (a source with no part counts for the
  /// function).
  uint32_t siteOf(const Instruction &I) const;
  const SourceFunction *sourceOf(const BasicBlock &BB) const;
  uint32_t partOf(const SourceFunction *S);
  /// The nest of part \p P that \p BB is in (0: none).
  uint32_t nestOf(const BasicBlock *BB, uint32_t P) const;
  /// The parts' top-level loop nests; with \p Measure, their entries,
  /// iterations and time.
  void findNests(bool Measure);
  uint32_t newCounter(Counter C) {
    Counters.push_back(std::move(C));
    return Counters.size() - 1;
  }
  /// Chooses the counters and their costs; false when nothing is counted.
  bool collect(bool Host);
  /// Counters as allocas zeroed at entry (promoted to registers at the end).
  void createSlots(IRBuilder<> &B);
  /// The counting code: per block, per preheader, per transfer.
  void addIncrements(Instruction *AfterPrelude);
  /// Times sampled entries of each measured nest (the first 1024, then one
  /// in 64), as the function's calls are.
  /// (The function's own nests are timed in the calls that are timed:
  /// \p CallStart is nonzero in them.)
  void emitLoopTimers(Value *Block, ArrayType *BlockTy, Value *CallStart);
  void emitWarpFlush(GlobalVariable *Counts);
  /// ROOFLINE_TRACE: the call's arguments to the runtime, when it asks.
  void emitTrace(GlobalVariable *Desc);

  Function &F;
  LoopInfo &LI;
  ScalarEvolution &SE;
  DominatorTree &DT;
  CostModel CM;
  const InlinedFunctions *Sources;
  bool RecordSelf;
  std::vector<Counter> Counters;
  std::map<const Loop *, uint32_t> IterationCounter;
  std::map<const Loop *, uint32_t> LoopPart;
  std::map<const Loop *, uint32_t> NestIndex; // top-level nests: 1-based
  std::vector<AllocaInst *> Slots;
  std::vector<AllocaInst *> Scratch; ///< promoted with the slots
  std::string FootprintText[2];
  std::vector<std::string> FootprintConditions;
  std::map<std::string, Value *> ArgByName;
public:
  int FootprintBroken = -1; ///< counter of calls that broke an assumption
private:
  CarriedSummaries *Carried = nullptr;
  const CalleeCounts *Callees = nullptr;
  bool Helper = false;
  GlobalVariable *TLSBlock = nullptr;
  ArrayType *BlockType = nullptr;
  GlobalVariable *Descriptor = nullptr;
  /// The parts (and their nests) an instruction's cost counts for: its
  /// innermost source function's, then each enclosing kernel's.
  std::vector<std::pair<uint32_t, uint32_t>> partsOf(const Instruction &I);
  /// The counters that add a measured call's work (its callees' growth).
  bool addCallGrowth(CallBase &CB,
                     const std::vector<std::pair<uint32_t, uint32_t>> &Parts);
  /// Counts part \p P's footprint at every entry when each entry has the
  /// values its formulas need.
  void addInlinedFootprint(uint32_t P);
};

bool FunctionInstrumenter::countFootprint(const StaticFormulas &SF) {
  if (SF.FootprintRead.empty())
    return false;
  for (unsigned A = 0; A < SF.Params.size() && A < F.arg_size(); ++A)
    ArgByName[SF.Params[A]] = F.getArg(A);
  if (!formulaUses(SF.FootprintRead, ArgByName) ||
      !formulaUses(SF.FootprintWritten, ArgByName))
    return false; // an unknown trip, say: not from the arguments alone
  // Each call tests the assumptions the formulas hold under; a call that
  // breaks one adds 0 (the sum is then a lower bound).
  for (const std::string &C : SF.FootprintAssumptions)
    if (!conditionUses(C, ArgByName))
      return false;
  FootprintText[0] = SF.FootprintRead;
  FootprintText[1] = SF.FootprintWritten;
  FootprintConditions = SF.FootprintAssumptions;
  return true;
}

/// \p C's formula with \p Args, or 0 where one of its conditions fails;
/// \p Holds: whether they all hold (an i1).
/// (\p Holds, when set, is the conditions' test already made at \p B for
/// the same values: the read and written counters share one.)
static Value *conditionalCount(IRBuilder<> &B, const Counter &C,
                               const std::map<std::string, Value *> &Args,
                               Value *&Holds) {
  Value *Zero = ConstantInt::get(B.getInt64Ty(), 0);
  if (!Holds) {
    Holds = B.getTrue();
    std::set<std::string> Seen; // the kernel's and the footprint's overlap
    for (const std::string &Text : C.Conditions) {
      if (!Seen.insert(Text.substr(0, Text.find(" ("))).second)
        continue;
      Value *H = emitCondition(B, Text, Args);
      Holds = B.CreateAnd(Holds, H ? H : B.getFalse());
    }
  }
  Value *N = emitCount(B, *C.Formula, Args);
  return N ? B.CreateSelect(Holds, N, Zero) : Zero;
}

void FunctionInstrumenter::addInlinedFootprint(uint32_t P) {
  Part &Pt = Parts[P];
  if (Pt.Entries < 0 || Counters[Pt.Entries].Markers.empty())
    return;
  std::vector<std::pair<Instruction *, std::map<std::string, DbgVariableRecord *>>>
      Sites;
  const nlohmann::json *First = nullptr;
  for (Instruction *M : Counters[Pt.Entries].Markers) {
    const nlohmann::json *J = Carried->of(*M);
    if (!J || (First && J != First))
      return; // no summary, or copies that disagree
    First = J;
    InlinedFunctions::EntryArguments Args = InlinedFunctions::entryArguments(*M);
    if (!Args.Use)
      return; // an entry without its values: none of its footprint
    std::vector<std::string> Names = carriedParameterNames(*M);
    std::map<std::string, DbgVariableRecord *> ByName;
    for (const auto &[No, R] : Args.ByNumber) {
      // A debug record may name a value that no longer dominates it (the
      // optimiser moved its definition): not a value the code can use.
      bool Dominates = llvm::all_of(R->location_ops(), [&](Value *V) {
        auto *I = dyn_cast_or_null<Instruction>(V);
        return !I || DT.dominates(I, Args.Use);
      });
      if (No < Names.size() && Dominates)
        ByName[Names[No]] = R;
    }
    Sites.push_back({Args.Use, std::move(ByName)});
  }
  const nlohmann::json &FP = First->contains("footprint") &&
                                     (*First)["footprint"].is_object()
                                 ? (*First)["footprint"]
                                 : nlohmann::json::object();
  bool Exact = FP.contains("exact") && FP["exact"].is_boolean() &&
               FP["exact"].get<bool>();
  // The formulas hold under the analysis's assumptions (a guard's bound):
  // each entry tests them, and one that breaks them adds 0, so the sum is
  // a lower bound.
  std::vector<std::string> Conditions;
  for (const nlohmann::json *List : {&(*First)["assumptions"], &FP["assumptions"]})
    if (List->is_array())
      for (const nlohmann::json &A : *List)
        if (A.is_string())
          Conditions.push_back(A.get<std::string>());
  const char *Keys[2][2] = {{"read_at_least", "read"},
                            {"written_at_least", "written"}};
  std::string Text[2];
  for (unsigned A = 0; A < 2; ++A)
    for (const char *Key : Keys[A])
      if (Text[A].empty() && FP.contains(Key) && FP[Key].is_string())
        Text[A] = FP[Key].get<std::string>();
  for (unsigned A = 0; A < 2; ++A) {
    if (Text[A].empty())
      return;
    for (const auto &Site : Sites) {
      std::map<std::string, Value *> Known;
      for (const auto &[Name, R] : Site.second)
        Known[Name] = R->getVariableLocationOp(0);
      if (!formulaUses(Text[A], Known))
        return; // an unknown trip, say: not from the arguments alone
      for (const std::string &C : Conditions)
        if (!conditionUses(C, Known))
          return; // an assumption the entry cannot test
    }
  }
  Pt.FootprintKind = Exact ? 1 : 2;
  if (!Conditions.empty()) {
    Counter B;
    B.Block = Sites.front().first->getParent();
    B.Counted = true; // by the footprint's code
    Pt.FootprintBroken = newCounter(B);
  }
  for (Access A : {Access::Load, Access::Store}) {
    Pt.Footprint[unsigned(A)] = Text[unsigned(A)];
    Counter C;
    C.Block = Sites.front().first->getParent();
    C.Formula = &Pt.Footprint[unsigned(A)];
    C.FormulaSites = Sites;
    C.Conditions = Conditions;
    C.Broken = A == Access::Load ? Pt.FootprintBroken : -1;
    Costs.push_back({uint32_t(Counters.size()), footprintSlot(A), 1, P, 0});
    newCounter(C);
  }
}

bool FunctionInstrumenter::canHoist(Loop *L) const {
  // One exit, at the latch, with a trip count computable on entry.
  if (!L->getLoopPreheader() || !L->getLoopLatch() ||
      L->getExitingBlock() != L->getLoopLatch())
    return false;
  const SCEV *BTC = SE.getBackedgeTakenCount(L);
  if (isa<SCEVCouldNotCompute>(BTC) || !BTC->getType()->isIntegerTy())
    return false;
  // The counters are 64-bit: a wider trip count (an __int128 IV, or the i128
  // ScalarEvolution uses for `j <= n` exits) is hoisted only when its
  // constant maximum fits, so truncating it loses nothing.
  if (SE.getTypeSizeInBits(BTC->getType()) > 64) {
    const SCEV *Max = SE.getConstantMaxBackedgeTakenCount(L);
    if (isa<SCEVCouldNotCompute>(Max) ||
        !SE.getUnsignedRangeMax(Max).isIntN(63))
      return false;
  }
  SCEVExpander Probe(SE, "roofline.probe");
  return Probe.isSafeToExpand(BTC) &&
         Probe.isSafeToExpandAt(BTC, L->getLoopPreheader()->getTerminator());
}

bool FunctionInstrumenter::everyIterationRuns(Loop *L, BasicBlock *BB) const {
  return DT.dominates(BB, L->getLoopLatch());
}

const SourceFunction *
FunctionInstrumenter::sourceOf(const BasicBlock &BB) const {
  // Hoisted and merged instructions often lose their location; the block's
  // branch (or its first located instruction) says whose code it is.
  if (const DILocation *DL = BB.getTerminator()->getDebugLoc().get())
    return Sources->sourceOf(DL, F);
  for (const Instruction &I : BB)
    if (const DILocation *DL = I.getDebugLoc().get())
      return Sources->sourceOf(DL, F);
  return nullptr;
}

uint32_t FunctionInstrumenter::siteOf(const Instruction &I) const {
  const SourceFunction *Src = sourceOf(I);
  uint32_t P = 0;
  for (uint32_t K = 1; K < Parts.size(); ++K)
    if (Parts[K].Source == Src)
      P = K;
  return P << 16 | nestOf(I.getParent(), P);
}

const SourceFunction *
FunctionInstrumenter::sourceOf(const Instruction &I) const {
  if (!Sources || Sources->empty())
    return nullptr;
  if (const DILocation *DL = I.getDebugLoc().get())
    return Sources->sourceOf(DL, F);
  return sourceOf(*I.getParent());
}

uint32_t FunctionInstrumenter::partOf(const SourceFunction *S) {
  if (!S || S->Subprogram == F.getSubprogram())
    return 0;
  for (uint32_t P = 1; P < Parts.size(); ++P)
    if (Parts[P].Source == S)
      return P;
  Parts.push_back({S, -1, ROOFLINE_PART_INLINED});
  return Parts.size() - 1;
}

uint32_t FunctionInstrumenter::nestOf(const BasicBlock *BB, uint32_t P) const {
  for (const Loop *L = LI.getLoopFor(BB); L; L = L->getParentLoop()) {
    auto It = NestIndex.find(L);
    if (It != NestIndex.end() && Nests[It->second - 1].Part == P)
      return It->second;
  }
  return 0;
}

void FunctionInstrumenter::findNests(bool Measure) {
  // A part's top-level nests: its loops that no loop of its own encloses
  // (a kernel inlined into a time-step loop of main has its nests inside
  // main's).
  std::vector<Nest> Found;
  for (Loop *L : LI.getLoopsInPreorder()) {
    DebugLoc Start = L->getStartLoc();
    const SourceFunction *S =
        !Sources || Sources->empty() ? nullptr
        : Start                      ? Sources->sourceOf(Start.get(), F)
                                     : sourceOf(*L->getHeader());
    uint32_t P = S || RecordSelf ? partOf(S) : UINT32_MAX;
    LoopPart[L] = P;
    if (P == UINT32_MAX)
      continue; // the function's own loop, not counted
    bool Top = true;
    for (Loop *A = L->getParentLoop(); A && Top; A = A->getParentLoop())
      Top = LoopPart[A] != P;
    if (Top)
      Found.push_back({L, P, Start ? Start.getLine() : 0, Start.get()});
  }
  // By part, then line; preorder breaks ties.
  std::vector<size_t> Order(Found.size());
  std::iota(Order.begin(), Order.end(), 0);
  std::sort(Order.begin(), Order.end(), [&](size_t A, size_t B) {
    return std::tie(Found[A].Part, Found[A].Line, A) <
           std::tie(Found[B].Part, Found[B].Line, B);
  });
  std::vector<Nest> Sorted;
  for (size_t I : Order)
    Sorted.push_back(Found[I]);
  Found = std::move(Sorted);
  Nests = std::move(Found);
  for (size_t I = 0; I < Nests.size(); ++I)
    NestIndex[Nests[I].L] = I + 1;
  if (!Measure)
    return;
  // One source loop may have become several compiled ones (a vector loop
  // and its remainder, runtime-check versions, copies in an unrolled outer
  // loop): the marker EntryMarkerPass put before it, copied with the code,
  // counts its entries. Without markers (-O0, or opt alone), a loop that is
  // the only one of its source loop counts its own entries.
  std::vector<std::pair<const DILocation *, std::vector<Instruction *>>> MarkersOf;
  if (Sources && !Sources->empty())
    for (Instruction &I : instructions(F))
      if (const DILocation *At = Sources->loopMarkerOf(I)) {
        auto Known = llvm::find_if(MarkersOf, [&](const auto &E) {
          return InlinedFunctions::sameLocation(E.first, At);
        });
        if (Known == MarkersOf.end())
          MarkersOf.push_back({At, {&I}});
        else
          Known->second.push_back(&I);
      }
  for (auto &[At, Markers] : MarkersOf) {
    auto First = llvm::find_if(Nests, [&, At = At](const Nest &N) {
      return N.Start && InlinedFunctions::sameLocation(N.Start, At, /*Columns=*/false);
    });
    if (First == Nests.end())
      continue; // a loop unrolled away, or not counted here
    for (Nest &N : Nests)
      if (&N != &*First && N.Start &&
          InlinedFunctions::sameLocation(N.Start, At, /*Columns=*/false))
        N.Entered = -2; // counted on the first
    // One marker in the entry block of the function's own loop: entered
    // once per call, which the call count says already.
    if (Markers.size() == 1 && Markers[0]->getParent() == &F.getEntryBlock() &&
        First->Part == 0) {
      First->Entered = ROOFLINE_LOOP_ONCE_PER_CALL;
      continue;
    }
    Counter C;
    C.Block = Markers[0]->getParent();
    C.Markers = Markers;
    First->Entered = newCounter(C);
  }
  for (Nest &N : Nests) {
    Loop *L = N.L;
    // The optimiser leaves loops out of simplified form (vectorised ones,
    // say): give them back the preheader and exits their counters need.
    if (!L->getLoopPreheader())
      InsertPreheaderForLoop(L, &DT, &LI, nullptr, /*PreserveLCSSA=*/false);
    if (!L->hasDedicatedExits())
      formDedicatedExitBlocks(L, &DT, &LI, nullptr, /*PreserveLCSSA=*/false);
    BasicBlock *Pre = L->getLoopPreheader();
    // Its own entries: for an inlined nest's sampling, or where no marker
    // counts the source loop's.
    if (Pre && (N.Part != 0 || N.Entered == -1)) {
      Counter C;
      C.Block = Pre;
      N.Entries = newCounter(C);
    }
    // Iterations of the outermost loop: the counter that blocks running
    // once per iteration share, counted by the trip count where it can be.
    Counter C;
    C.Block = L->getHeader();
    bool Latched = L->getLoopLatch() && L->getExitingBlock() == L->getLoopLatch();
    if (Latched && canHoist(L))
      C.HoistTo = L;
    N.Iterations = newCounter(C);
    if (Latched)
      IterationCounter[L] = N.Iterations;
    bool ExitsInsertable = L->hasDedicatedExits();
    SmallVector<BasicBlock *, 4> Exits;
    L->getExitBlocks(Exits);
    for (BasicBlock *E : Exits)
      ExitsInsertable &= E->getFirstInsertionPt() != E->end();
    N.ExitsInsertable = ExitsInsertable;
    // The function's own nests are timed in the timed calls (their sample
    // is the calls'); inlined ones count their own timed entries.
    if (Pre && ExitsInsertable) {
      Counter T;
      T.Timer = true;
      N.Ticks = newCounter(T);
      if (N.Part != 0)
        N.Timed = newCounter(T);
    }
  }
  for (Nest &N : Nests) {
    if (N.Entered != -1)
      continue;
    if (!sharesItsSourceLoop(N))
      N.Entered = N.Entries;
  }
  for (Nest &N : Nests)
    if (N.Entered == -2)
      N.Entered = -1;
  // The fewest and most iterations of one entry: where one compiled loop is
  // the whole source loop (not a vector loop and its remainder) and each
  // entry's count is known on entry or at an exit it cannot unwind past.
  for (Nest &N : Nests) {
    bool Alone = N.Start && !sharesItsSourceLoop(N);
    BasicBlock *Pre = N.L->getLoopPreheader();
    bool OnEntry = Counters[N.Iterations].HoistTo != nullptr;
    bool AtExits = N.ExitsInsertable && llvm::none_of(N.L->blocks(), [](BasicBlock *BB) {
      return llvm::any_of(*BB, [](Instruction &I) { return I.mayThrow(); });
    });
    if (!Alone || !Pre || !(OnEntry || AtExits))
      continue;
    // Entries of the compiled loop too: source entries it never reached
    // (a guard skipped it) ran no iteration.
    if (N.Entries < 0) {
      Counter C;
      C.Block = Pre;
      N.Entries = newCounter(C);
    }
    Counter E;
    E.Block = Pre;
    E.Counted = E.Maximum = true;
    N.Fewest = newCounter(E);
    N.Most = newCounter(E);
  }
}

std::vector<std::pair<uint32_t, uint32_t>>
FunctionInstrumenter::partsOf(const Instruction &I) {
  std::vector<std::pair<uint32_t, uint32_t>> Out;
  const BasicBlock *BB = I.getParent();
  if (Sources && !Sources->empty()) {
    // As sourceOf: the instruction's location, else its block's.
    const DILocation *DL = I.getDebugLoc().get();
    if (!DL)
      DL = BB->getTerminator()->getDebugLoc().get();
    for (auto It = BB->begin(); !DL && It != BB->end(); ++It)
      DL = It->getDebugLoc().get();
    for (const SourceFunction *S : Sources->sourcesOf(DL, F)) {
      uint32_t P = partOf(S);
      if (P && llvm::none_of(Out, [&](auto &W) { return W.first == P; }))
        Out.push_back({P, nestOf(BB, P)});
    }
  }
  // The function's own record includes the inlined code (inclusive counts).
  if (RecordSelf)
    Out.push_back({0, nestOf(BB, 0)});
  return Out;
}

bool FunctionInstrumenter::addCallGrowth(
    CallBase &CB, const std::vector<std::pair<uint32_t, uint32_t>> &Where) {
  // After an invoke, the growth is read at its normal destination, which
  // must be reached from the invoke alone.
  if (auto *Inv = dyn_cast<InvokeInst>(&CB);
      Inv && !Inv->getNormalDest()->getSinglePredecessor()) {
    for (auto [P, N] : Where)
      Uncounted[P].insert(demangle(CB.getCalledFunction()->getName().str()));
    return false;
  }
  for (const CalleeCounts::Block *B : Callees->measured(CB)) {
    std::map<uint32_t, uint32_t> CounterOf;
    for (const CalleeCounts::Block::Cost &C : B->Costs) {
      auto [It, New] = CounterOf.try_emplace(C.Counter, 0);
      if (New) {
        Counter G;
        G.Block = CB.getParent();
        G.At = &CB;
        G.GrowthOf = B;
        G.GrowthCounter = C.Counter;
        It->second = newCounter(G);
      }
      for (size_t K = 0; K < Where.size(); ++K)
        Costs.push_back({It->second, C.Slot, C.PerUnit, Where[K].first,
                         Where[K].second, K == 0});
    }
  }
  return true;
}

CalleeCounts::Block FunctionInstrumenter::block() const {
  CalleeCounts::Block B{TLSBlock, BlockType, Descriptor, {}};
  for (const CostEntry &C : Costs)
    if (C.Innermost && C.Slot != footprintSlot(Access::Load) &&
        C.Slot != footprintSlot(Access::Store))
      B.Costs.push_back({C.Counter, C.Slot, C.PerUnit});
  return B;
}

bool FunctionInstrumenter::collect(bool Host) {
  findNests(/*Measure=*/Host);

  // Collect: one counter per block with a cost, one per variable transfer.
  // Keyed (counter, slot, part, nest, innermost).
  std::map<std::tuple<uint32_t, uint32_t, uint32_t, uint32_t, bool>, uint64_t> BlockCosts;
  bool OwnWork = false;
  for (BasicBlock &BB : F) {
    // Per (part, nest, innermost): the block's fixed costs.
    std::map<std::tuple<uint32_t, uint32_t, bool>, CostVector> Fixed;
    for (Instruction &I : BB) {
      OpCost C = CM.costOf(I);
      auto *CB = dyn_cast<CallBase>(&I);
      bool CountsCalls = CB && Callees && Host;
      if (CountsCalls)
        if (const CostVector *Call = Callees->fixedCost(*CB))
          C.Fixed += *Call;
      bool Any = !C.Variable.empty();
      for (unsigned S = 0; S < NumSlots && !Any; ++S)
        Any = C.Fixed.Slots[S] != 0;
      bool Measured = CountsCalls && !Callees->measured(*CB).empty();
      if (CountsCalls && !Measured)
        if (std::string Name = Callees->uncounted(*CB); !Name.empty())
          for (auto [P, N] : partsOf(I))
            Uncounted[P].insert(Name);
      if (!Any && !Measured)
        continue;
      // The function's own code when it is not a kernel has no part.
      std::vector<std::pair<uint32_t, uint32_t>> Where = partsOf(I);
      if (Where.empty())
        continue;
      OwnWork |= Where.front().first == 0;
      bool Counted = Measured ? addCallGrowth(*CB, Where)
                              : CountsCalls && Callees->fixedCost(*CB);
      if (Counted && tracedCopiesEnabled())
        CallSites.push_back({CB, siteOf(I), !Measured});
      for (size_t K = 0; K < Where.size(); ++K) {
        auto [P, N] = Where[K];
        Fixed[{P, N, K == 0}] += C.Fixed;
      }
      for (const VariableBytes &VB : C.Variable) {
        Counter VC;
        VC.Block = &BB;
        VC.Length = VB.Length;
        VC.At = &I;
        uint32_t Id = newCounter(VC);
        for (unsigned S : VB.Slots)
          for (size_t K = 0; K < Where.size(); ++K)
            Costs.push_back({Id, S, 1, Where[K].first, Where[K].second, K == 0});
      }
    }
    bool Any = false;
    for (const auto &[Key, CV] : Fixed)
      for (unsigned S = 0; S < NumSlots; ++S)
        Any |= CV.Slots[S] != 0;
    if (!Any)
      continue;
    // Blocks that run exactly once per iteration of their loop share one
    // counter (fewer registers live across the loop): the loop's.
    Loop *L = LI.getLoopFor(&BB);
    bool PerIteration = L && L->getLoopLatch() &&
                        L->getExitingBlock() == L->getLoopLatch() &&
                        everyIterationRuns(L, &BB);
    uint32_t Id;
    auto Shared = PerIteration ? IterationCounter.find(L) : IterationCounter.end();
    if (Shared != IterationCounter.end()) {
      Id = Shared->second;
    } else {
      Counter C;
      C.Block = &BB;
      if (PerIteration && canHoist(L))
        C.HoistTo = L;
      Id = newCounter(C);
      if (PerIteration)
        IterationCounter[L] = Id;
    }
    for (const auto &[Key, CV] : Fixed)
      for (unsigned S = 0; S < NumSlots; ++S)
        if (CV.Slots[S])
          BlockCosts[{Id, S, std::get<0>(Key), std::get<1>(Key), std::get<2>(Key)}] +=
              uint64_t(CV.Slots[S]);
  }
  for (const auto &[Key, N] : BlockCosts) {
    auto [Id, S, P, Nst, Innermost] = Key;
    Costs.push_back({Id, S, N, P, Nst, Innermost});
  }
  // Every access's part and nest, for the traced copy (an access of a
  // source function with nothing counted here counts for the function).
  if (Host && tracedCopiesEnabled())
    for (BasicBlock &BB : F)
      for (Instruction &I : BB)
        if (isTracedAccess(I))
          AccessSites.push_back({&I, siteOf(I)});
  // Entries into inlined bodies: one at each of their markers (copies of a
  // marker, where the optimiser duplicated or vectorised the code, count
  // each).
  if (Sources && !Sources->empty())
    for (Instruction &I : instructions(F))
      if (const SourceFunction *S = Sources->markerOf(I)) {
        auto It = llvm::find_if(Parts, [&](const Part &P) { return P.Source == S; });
        if (It == Parts.end())
          continue; // none of its code is left here
        if (It->Entries < 0) {
          Counter C;
          C.Block = I.getParent();
          It->Entries = newCounter(C);
        }
        Counters[It->Entries].Markers.push_back(&I);
      }
  if (Carried)
    for (uint32_t P = 1; P < Parts.size(); ++P)
      addInlinedFootprint(P);
  // The footprint: one counter per direction, its formula added per call.
  if (RecordSelf && !FootprintText[0].empty() && !FootprintConditions.empty()) {
    Counter B;
    B.Block = &F.getEntryBlock();
    B.Counted = true; // by the footprint's code
    FootprintBroken = newCounter(B);
  }
  for (Access A : {Access::Load, Access::Store})
    if (RecordSelf && !FootprintText[unsigned(A)].empty()) {
      Counter C;
      C.Block = &F.getEntryBlock();
      C.Formula = &FootprintText[unsigned(A)];
      C.Conditions = FootprintConditions;
      C.Broken = A == Access::Load ? FootprintBroken : -1;
      Costs.push_back({uint32_t(Counters.size()), footprintSlot(A), 1, 0, 0});
      newCounter(C);
    }
  // The function's own record: a kernel's, unless it holds inlined kernels
  // and has no work of its own; a helper's, counted for its callers, is
  // hidden.
  if (!RecordSelf || Helper || (Parts.size() > 1 && !OwnWork))
    Parts[0].Kind = ROOFLINE_PART_HIDDEN;
  if (Parts[0].Kind == ROOFLINE_PART_HIDDEN && Parts.size() == 1 && !Helper)
    return false;
  return !Counters.empty();
}

void FunctionInstrumenter::createSlots(IRBuilder<> &B) {
  Type *I64 = B.getInt64Ty();
  for (size_t I = 0; I < Counters.size(); ++I)
    Slots.push_back(B.CreateAlloca(I64, nullptr, "roofline.counter"));
  for (AllocaInst *A : Slots)
    B.CreateStore(ConstantInt::get(I64, 0), A);
}

void FunctionInstrumenter::addIncrements(Instruction *AfterPrelude) {
  Type *I64 = Type::getInt64Ty(F.getContext());
  BasicBlock &Entry = F.getEntryBlock();
  auto Add = [&](IRBuilder<> &IB, AllocaInst *A, Value *N) {
    Value *Old = IB.CreateLoad(I64, A);
    IB.CreateStore(IB.CreateAdd(Old, N), A);
  };
  std::map<Loop *, Value *> TripAt; // expanded once per preheader
  // A parallel region's body's blocks summed over all threads, before the
  // fork and grown by the join (runtime/Counters.cpp); once per fork.
  struct RegionTotals {
    Value *Whole;       ///< the runtime could sum them (the outermost region)
    AllocaInst *Totals; ///< then, per counter, the growth
    Instruction *End;   ///< the growth is read after it
  };
  std::map<std::pair<CallBase *, const CalleeCounts::Block *>, RegionTotals> Regions;
  auto RegionOf = [&](CallBase *CB, Instruction *After,
                      const CalleeCounts::Block *B) -> RegionTotals & {
    auto [It, New] = Regions.try_emplace({CB, B});
    if (!New)
      return It->second;
    Module &M = *F.getParent();
    LLVMContext &Ctx = F.getContext();
    PointerType *Ptr = PointerType::getUnqual(Ctx);
    Type *I32 = Type::getInt32Ty(Ctx);
    uint64_t N = B->Type->getNumElements() - ROOFLINE_BLOCK_COUNTERS;
    AllocaInst *Totals = IRBuilder<>(&*Entry.begin())
                             .CreateAlloca(ArrayType::get(I64, N), nullptr,
                                           "roofline.region.totals");
    FunctionCallee Begin =
        M.getOrInsertFunction(RegionBeginFn, I32, Ptr, Ptr);
    FunctionCallee End = M.getOrInsertFunction(
        RegionEndFn, Type::getVoidTy(Ctx), Ptr, Ptr, I32);
    IRBuilder<> IB(CB);
    Value *Whole = IB.CreateCall(Begin, {B->Desc, Totals});
    Value *IsWhole = IB.CreateICmpNE(Whole, ConstantInt::get(I32, 0));
    Instruction *Ended = IRBuilder<>(After).CreateCall(End, {B->Desc, Totals, Whole});
    It->second = {IsWhole, Totals, Ended};
    return It->second;
  };
  // A footprint's assumptions, tested once per entry (read and written
  // share them; keyed by the point and the assumptions' text).
  std::map<std::pair<Instruction *, std::string>, Value *> HoldsAt;
  auto Joined = [](const std::vector<std::string> &V) {
    std::string J;
    for (const std::string &T : V)
      J += T + "\n";
    return J;
  };
  for (size_t I = 0; I < Counters.size(); ++I) {
    Counter &C = Counters[I];
    if (C.Timer || C.Counted)
      continue; // the loop timers (the footprint's code) add to it
    if (!C.Markers.empty()) {
      for (Instruction *At : C.Markers) {
        IRBuilder<> IB(At);
        Add(IB, Slots[I], ConstantInt::get(I64, 1));
      }
    } else if (C.Formula && !C.FormulaSites.empty()) {
      for (auto &[At, Records] : C.FormulaSites) {
        IRBuilder<> IB(At);
        std::map<std::string, Value *> Args;
        for (auto &[Name, R] : Records)
          if (Value *V = InlinedFunctions::argumentValue(IB, *R))
            Args[Name] = V;
        Value *&Holds = HoldsAt[{At, Joined(C.Conditions)}];
        Add(IB, Slots[I], conditionalCount(IB, C, Args, Holds));
        if (C.Broken >= 0)
          Add(IB, Slots[C.Broken], IB.CreateZExt(IB.CreateNot(Holds), I64));
      }
    } else if (C.Formula) {
      IRBuilder<> IB(AfterPrelude);
      Value *&Holds = HoldsAt[{AfterPrelude, Joined(C.Conditions)}];
      Add(IB, Slots[I], conditionalCount(IB, C, ArgByName, Holds));
      if (C.Broken >= 0)
        Add(IB, Slots[C.Broken], IB.CreateZExt(IB.CreateNot(Holds), I64));
    } else if (C.GrowthOf) {
      // The callee's counter before and after the call: its growth is the
      // call's work (an invoke's, at its normal destination).
      auto *CB = cast<CallBase>(C.At);
      IRBuilder<> IB(CB);
      Value *Block = IB.CreateThreadLocalAddress(C.GrowthOf->TLS);
      Value *P = IB.CreateConstGEP2_64(C.GrowthOf->Type, Block, 0,
                                       ROOFLINE_BLOCK_COUNTERS + C.GrowthCounter);
      Value *Before = IB.CreateLoad(I64, P, "roofline.callee.before");
      Instruction *After = CB->getNextNode();
      if (auto *Inv = dyn_cast<InvokeInst>(CB))
        After = &*Inv->getNormalDest()->getFirstInsertionPt();
      // A parallel region's: over all threads, unless it is nested in
      // another (then it runs on this thread alone: its own block's growth).
      RegionTotals *R = CalleeCounts::forkedBody(*CB)
                            ? &RegionOf(CB, After, C.GrowthOf)
                            : nullptr;
      if (R)
        After = R->End->getNextNode();
      IRBuilder<> AB(After);
      Value *Growth = AB.CreateSub(AB.CreateLoad(I64, P), Before);
      if (R) {
        Value *All = AB.CreateLoad(
            I64, AB.CreateConstGEP2_64(R->Totals->getAllocatedType(), R->Totals,
                                       0, C.GrowthCounter));
        Growth = AB.CreateSelect(R->Whole, All, Growth, "roofline.region.growth");
      }
      Add(AB, Slots[I], Growth);
    } else if (C.Length) {
      IRBuilder<> IB(C.At);
      Value *Len = IB.CreateZExtOrTrunc(const_cast<Value *>(C.Length), I64);
      Add(IB, Slots[I], Len);
    } else if (C.HoistTo) {
      BasicBlock *Pre = C.HoistTo->getLoopPreheader();
      Value *&Trip = TripAt[C.HoistTo];
      if (!Trip) {
        SCEVExpander Exp(SE, "roofline.trip");
        const SCEV *BTC = SE.getBackedgeTakenCount(C.HoistTo);
        const SCEV *T = SE.getAddExpr(SE.getTruncateOrZeroExtend(BTC, I64),
                                      SE.getOne(I64));
        Trip = Exp.expandCodeFor(T, I64, Pre->getTerminator());
      }
      IRBuilder<> IB(Pre->getTerminator());
      Add(IB, Slots[I], Trip);
    } else {
      // In the entry block, after the allocas the counters are.
      IRBuilder<> IB(C.Block == &Entry ? AfterPrelude
                                       : &*C.Block->getFirstInsertionPt());
      Add(IB, Slots[I], ConstantInt::get(I64, 1));
    }
  }
  // Each entry's iterations into its nest's fewest and most: the trip count
  // hoisted on entry, or the iteration counter's growth at the exit.
  for (const Nest &N : Nests) {
    if (N.Most < 0)
      continue;
    auto Record = [&](IRBuilder<> &IB, Value *Trip) {
      auto Max = [&](int S, Value *V) {
        Value *Old = IB.CreateLoad(I64, Slots[S]);
        IB.CreateStore(IB.CreateBinaryIntrinsic(Intrinsic::umax, Old, V), Slots[S]);
      };
      Max(N.Most, Trip);
      Max(N.Fewest, IB.CreateNot(Trip));
    };
    Instruction *OnEntry = N.L->getLoopPreheader()->getTerminator();
    if (Loop *H = Counters[N.Iterations].HoistTo) {
      IRBuilder<> IB(OnEntry);
      Record(IB, TripAt[H]);
      continue;
    }
    AllocaInst *Before = IRBuilder<>(&*Entry.begin())
                             .CreateAlloca(I64, nullptr, "roofline.iterations.before");
    Scratch.push_back(Before);
    IRBuilder<> PB(OnEntry);
    PB.CreateStore(PB.CreateLoad(I64, Slots[N.Iterations]), Before);
    SmallVector<BasicBlock *, 4> Exits;
    N.L->getUniqueExitBlocks(Exits);
    for (BasicBlock *E : Exits) {
      IRBuilder<> EB(&*E->getFirstInsertionPt());
      Record(EB, EB.CreateSub(EB.CreateLoad(I64, Slots[N.Iterations]),
                              EB.CreateLoad(I64, Before)));
    }
  }
}

bool FunctionInstrumenter::run(GlobalVariable *Desc) {
  if (!collect(/*Host=*/true))
    return false;
  LLVMContext &Ctx = F.getContext();
  Module &M = *F.getParent();
  Type *I64 = Type::getInt64Ty(Ctx);
  BasicBlock &Entry = F.getEntryBlock();
  IRBuilder<> B(&Entry, Entry.getFirstInsertionPt());
  createSlots(B);

  // This thread's block: [calls, ticks, timed calls, counters...].
  ArrayType *BlockTy =
      ArrayType::get(I64, ROOFLINE_BLOCK_COUNTERS + Counters.size());
  bool SharedObject = M.getPICLevel() != PICLevel::NotPIC &&
                      M.getPIELevel() == PIELevel::Default;
  auto *TLS = new GlobalVariable(
      M, BlockTy, /*isConstant=*/false, GlobalValue::InternalLinkage,
      ConstantAggregateZero::get(BlockTy), "__roofline_tls_" + F.getName(),
      nullptr,
      SharedObject ? GlobalValue::GeneralDynamicTLSModel
                   : GlobalValue::InitialExecTLSModel);
  TLSBlock = TLS;
  BlockType = BlockTy;
  Descriptor = Desc;
  Value *Block = B.CreateThreadLocalAddress(TLS);
  Instruction *AfterPrelude = &*B.GetInsertPoint();
  auto Field = [&](IRBuilder<> &IB, unsigned I) {
    return IB.CreateConstGEP2_64(BlockTy, Block, 0, I);
  };
  addIncrements(AfterPrelude);

  // Time every call at first, then one call in 64: a short function called
  // millions of times is not slowed down by reading the clock. (The CFG
  // changes only now, after ScalarEvolution has expanded the trip counts.)
  B.SetInsertPoint(AfterPrelude);
  Value *CallsSoFar = B.CreateLoad(I64, Field(B, ROOFLINE_BLOCK_CALLS));
  Value *Timed = B.CreateOr(
      B.CreateICmpULT(CallsSoFar,
                      ConstantInt::get(I64, ROOFLINE_TIME_ALL_CALLS)),
      B.CreateICmpEQ(
          B.CreateAnd(CallsSoFar,
                      ConstantInt::get(I64, ROOFLINE_TIME_SAMPLE_MASK)),
          ConstantInt::get(I64, 0)),
      "roofline.timed");
  Function *Cycles =
      Intrinsic::getOrInsertDeclaration(&M, Intrinsic::readcyclecounter);
  Instruction *SplitAt = &*B.GetInsertPoint();
  Instruction *ThenTerm = SplitBlockAndInsertIfThen(Timed, SplitAt, false);
  IRBuilder<> TB(ThenTerm);
  Value *Clock = TB.CreateCall(Cycles, {}, "roofline.clock");
  IRBuilder<> JB(SplitAt);
  PHINode *Start = JB.CreatePHI(I64, 2, "roofline.start");
  Start->addIncoming(Clock, ThenTerm->getParent());
  Start->addIncoming(ConstantInt::get(I64, 0), &Entry);
  emitLoopTimers(Block, BlockTy, Start);

  // At every return: add the call into this thread's block (registering
  // the block with the runtime on the thread's first call).
  FunctionCallee RegisterThread = M.getOrInsertFunction(
      RegisterThreadFn, Type::getVoidTy(Ctx), PointerType::getUnqual(Ctx),
      PointerType::getUnqual(Ctx));
  std::vector<ReturnInst *> Returns;
  for (BasicBlock &BB : F)
    if (auto *Ret = dyn_cast<ReturnInst>(BB.getTerminator()))
      Returns.push_back(Ret);
  for (ReturnInst *Ret : Returns) {
    IRBuilder<> IB(Ret);
    Value *Calls = IB.CreateLoad(I64, Field(IB, ROOFLINE_BLOCK_CALLS));
    Instruction *First = SplitBlockAndInsertIfThen(
        IB.CreateICmpEQ(Calls, ConstantInt::get(I64, 0)), Ret, false);
    IRBuilder<>(First).CreateCall(RegisterThread, {Desc, Block});
    IB.SetInsertPoint(Ret);
    IB.CreateStore(IB.CreateAdd(Calls, ConstantInt::get(I64, 1)),
                   Field(IB, ROOFLINE_BLOCK_CALLS));
    for (size_t I = 0; I < Slots.size(); ++I) {
      if (Counters[I].Timer)
        continue; // the loop timers add to the block themselves
      Value *P = Field(IB, ROOFLINE_BLOCK_COUNTERS + I);
      Value *Old = IB.CreateLoad(I64, P), *Now = IB.CreateLoad(I64, Slots[I]);
      IB.CreateStore(Counters[I].Maximum
                         ? IB.CreateBinaryIntrinsic(Intrinsic::umax, Old, Now)
                         : IB.CreateAdd(Old, Now),
                     P);
    }
    Instruction *TimedTerm = SplitBlockAndInsertIfThen(
        IB.CreateICmpNE(Start, ConstantInt::get(I64, 0)), Ret, false);
    IRBuilder<> TI(TimedTerm);
    Value *Elapsed = TI.CreateSub(TI.CreateCall(Cycles, {}), Start);
    Value *TicksP = Field(TI, ROOFLINE_BLOCK_TICKS);
    TI.CreateStore(TI.CreateAdd(TI.CreateLoad(I64, TicksP), Elapsed), TicksP);
    Value *TimedP = Field(TI, ROOFLINE_BLOCK_TIMED);
    TI.CreateStore(TI.CreateAdd(TI.CreateLoad(I64, TimedP),
                                ConstantInt::get(I64, 1)),
                   TimedP);
  }

  if (RecordSelf && !Helper)
    emitTrace(Desc);
  // Counters in registers.
  DominatorTree FreshDT(F);
  std::vector<AllocaInst *> Promoted = Slots;
  Promoted.insert(Promoted.end(), Scratch.begin(), Scratch.end());
  PromoteMemToReg(Promoted, FreshDT);
  return true;
}

void FunctionInstrumenter::emitLoopTimers(Value *Block, ArrayType *BlockTy,
                                          Value *CallStart) {
  LLVMContext &Ctx = F.getContext();
  Type *I64 = Type::getInt64Ty(Ctx);
  Function *Cycles = Intrinsic::getOrInsertDeclaration(F.getParent(),
                                                       Intrinsic::readcyclecounter);
  auto Zero = ConstantInt::get(I64, 0);
  for (const Nest &N : Nests) {
    if (N.Ticks < 0)
      continue;
    // Where the timer starts and stops, before any block is split.
    Instruction *StartAt = N.L->getLoopPreheader()->getTerminator();
    SmallVector<BasicBlock *, 4> Exits;
    N.L->getUniqueExitBlocks(Exits);
    std::vector<Instruction *> StopAt;
    for (BasicBlock *E : Exits)
      StopAt.push_back(&*E->getFirstInsertionPt());
    // The start tick lives in a stack slot, not a register: it is written
    // and read only on the timed entries, and costs the others nothing.
    AllocaInst *StartTick = IRBuilder<>(&*F.getEntryBlock().begin())
                                .CreateAlloca(I64, nullptr, "roofline.loop.start");
    auto InBlock = [&](IRBuilder<> &B, int Counter) {
      return B.CreateConstGEP2_64(BlockTy, Block, 0, ROOFLINE_BLOCK_COUNTERS + Counter);
    };
    auto AddToBlock = [&](IRBuilder<> &B, int Counter, Value *N) {
      Value *P = InBlock(B, Counter);
      B.CreateStore(B.CreateAdd(B.CreateLoad(I64, P), N), P);
    };

    IRBuilder<> B(StartAt);
    Value *Timed;
    if (N.Part == 0) {
      // The function's own nest: timed when the call is (a short function
      // called a hundred million times pays one branch, not a sample
      // decision per entry).
      Timed = B.CreateICmpNE(CallStart, Zero);
    } else {
      // An inlined nest, entered many times per call of the function it
      // is in: entries so far (this thread's earlier calls and this
      // call's) decide, as calls do.
      Value *Seen = B.CreateAdd(B.CreateLoad(I64, InBlock(B, N.Entries)),
                                B.CreateLoad(I64, Slots[N.Entries]));
      Timed = B.CreateOr(
          B.CreateICmpULE(Seen, ConstantInt::get(I64, ROOFLINE_TIME_ALL_CALLS)),
          B.CreateICmpEQ(
              B.CreateAnd(Seen, ConstantInt::get(I64, ROOFLINE_TIME_SAMPLE_MASK)),
              Zero));
      B.CreateStore(Zero, StartTick);
    }
    Instruction *Then = SplitBlockAndInsertIfThen(Timed, StartAt, false);
    IRBuilder<> TB(Then);
    TB.CreateStore(TB.CreateCall(Cycles, {}), StartTick);

    // At each exit, a timed entry adds its ticks straight into this
    // thread's block (the counters are not carried to the return).
    for (Instruction *At : StopAt) {
      IRBuilder<> EB(At);
      Value *WasTimed = N.Part == 0
                            ? EB.CreateICmpNE(CallStart, Zero)
                            : EB.CreateICmpNE(EB.CreateLoad(I64, StartTick), Zero);
      Instruction *Stop = SplitBlockAndInsertIfThen(WasTimed, At, false);
      IRBuilder<> SB(Stop);
      Value *Elapsed =
          SB.CreateSub(SB.CreateCall(Cycles, {}), SB.CreateLoad(I64, StartTick));
      AddToBlock(SB, N.Ticks, Elapsed);
      if (N.Timed >= 0)
        AddToBlock(SB, N.Timed, ConstantInt::get(I64, 1));
    }
  }
}

void FunctionInstrumenter::emitTrace(GlobalVariable *Desc) {
  if (F.arg_empty())
    return;
  LLVMContext &Ctx = F.getContext();
  Module &M = *F.getParent();
  Type *I32 = Type::getInt32Ty(Ctx), *I64 = Type::getInt64Ty(Ctx);
  BasicBlock &Entry = F.getEntryBlock();
  ArrayType *ArgsTy = ArrayType::get(I64, F.arg_size());
  AllocaInst *Args =
      IRBuilder<>(&Entry, Entry.begin()).CreateAlloca(ArgsTy, nullptr, "roofline.args");
  GlobalVariable *Tracing = M.getGlobalVariable("__roofline_tracing");
  if (!Tracing)
    Tracing = new GlobalVariable(M, I32, /*isConstant=*/false,
                                 GlobalValue::ExternalLinkage, nullptr,
                                 "__roofline_tracing");
  Instruction *At = &*Entry.getFirstNonPHIOrDbgOrAlloca();
  IRBuilder<> B(At);
  Value *On = B.CreateICmpNE(B.CreateLoad(I32, Tracing), ConstantInt::get(I32, 0));
  Instruction *Then = SplitBlockAndInsertIfThen(On, At, false);
  IRBuilder<> TB(Then);
  const DataLayout &DL = M.getDataLayout();
  for (Argument &A : F.args()) {
    Type *T = A.getType();
    Value *V = ConstantInt::get(I64, 0);
    if (T->isPointerTy())
      V = TB.CreatePtrToInt(&A, I64);
    else if (T->isIntegerTy() && T->getIntegerBitWidth() <= 64)
      V = TB.CreateSExtOrTrunc(&A, I64);
    else if (T->isFloatingPointTy() && DL.getTypeSizeInBits(T) <= 64)
      V = TB.CreateBitCast(TB.CreateFPExt(&A, Type::getDoubleTy(Ctx)), I64);
    TB.CreateStore(V, TB.CreateConstGEP2_64(ArgsTy, Args, 0, A.getArgNo()));
  }
  FunctionCallee Trace = M.getOrInsertFunction(
      "__roofline_trace", Type::getVoidTy(Ctx), PointerType::getUnqual(Ctx),
      PointerType::getUnqual(Ctx));
  TB.CreateCall(Trace, {Desc, Args});
}

bool FunctionInstrumenter::runDevice(GlobalVariable *Counts) {
  if (!collect(/*Host=*/false))
    return false;
  BasicBlock &Entry = F.getEntryBlock();
  IRBuilder<> B(&Entry, Entry.getFirstInsertionPt());
  createSlots(B);
  addIncrements(&*B.GetInsertPoint());
  emitWarpFlush(Counts);
  DominatorTree FreshDT(F);
  PromoteMemToReg(Slots, FreshDT);
  return true;
}

/// The SM version of a device function ("sm_90" -> 90; 0 if unknown).
unsigned smVersion(const Function &F) {
  StringRef CPU = F.getFnAttribute("target-cpu").getValueAsString();
  unsigned V = 0;
  if (CPU.consume_front("sm_"))
    CPU.take_while([](char C) { return C >= '0' && C <= '9'; }).getAsInteger(10, V);
  return V;
}

void FunctionInstrumenter::emitWarpFlush(GlobalVariable *Counts) {
  LLVMContext &Ctx = F.getContext();
  Module &M = *F.getParent();
  Type *I32 = Type::getInt32Ty(Ctx), *I64 = Type::getInt64Ty(Ctx);

  // One exit, so that a warp's threads meet there (mostly) together.
  std::vector<ReturnInst *> Returns;
  for (BasicBlock &BB : F)
    if (auto *Ret = dyn_cast<ReturnInst>(BB.getTerminator()))
      Returns.push_back(Ret);
  if (Returns.empty())
    return; // never returns (traps): nothing to add
  BasicBlock *Exit = BasicBlock::Create(Ctx, "roofline.exit", &F);
  for (ReturnInst *Ret : Returns) {
    BranchInst::Create(Exit, Ret->getParent());
    Ret->eraseFromParent(); // kernels return void
  }
  BasicBlock *Atomics = BasicBlock::Create(Ctx, "roofline.atomics", &F);
  BasicBlock *Done = BasicBlock::Create(Ctx, "roofline.ret", &F);

  IRBuilder<> B(Exit);
  auto Intrinsic = [&](Intrinsic::ID ID, ArrayRef<Type *> Types = {}) {
    return Intrinsic::getOrInsertDeclaration(&M, ID, Types);
  };
  Value *Mask = B.CreateCall(Intrinsic(Intrinsic::nvvm_activemask), {},
                             "roofline.mask");
  Value *Lane = B.CreateCall(Intrinsic(Intrinsic::nvvm_read_ptx_sreg_laneid));
  std::vector<Value *> Own;
  for (AllocaInst *A : Slots)
    Own.push_back(B.CreateLoad(I64, A));

  std::vector<Value *> Values; // the warp's sums (or a thread's own)
  Value *Threads, *Leader;
  if (smVersion(F) >= 80) {
    // sm_80+: redux.sync sums the active threads, whichever they are, in
    // one instruction per 32-bit value. A 64-bit counter goes as three
    // 27-bit chunks (32 lanes x 2^27 fits in 32 bits) and is put together
    // again. The first active lane adds the warp's sums.
    Function *Redux = Intrinsic(Intrinsic::nvvm_redux_sync_add);
    Value *Low27 = ConstantInt::get(I64, (uint64_t(1) << 27) - 1);
    for (Value *V : Own) {
      Value *Sum = nullptr;
      for (unsigned Shift : {0u, 27u, 54u}) {
        Value *Bits = Shift ? B.CreateLShr(V, Shift) : V;
        Value *Chunk = B.CreateTrunc(B.CreateAnd(Bits, Low27), I32);
        Value *Part = B.CreateZExt(B.CreateCall(Redux, {Chunk, Mask}), I64);
        Part = Shift ? B.CreateShl(Part, Shift) : Part;
        Sum = Sum ? B.CreateAdd(Sum, Part) : Part;
      }
      Values.push_back(Sum);
    }
    Threads = B.CreateZExt(
        B.CreateCall(Intrinsic(Intrinsic::ctpop, {I32}), {Mask}), I64);
    Leader = B.CreateICmpEQ(
        Lane, B.CreateCall(Intrinsic(Intrinsic::cttz, {I32}),
                           {Mask, B.getTrue()}));
    B.CreateCondBr(Leader, Atomics, Done);
  } else {
    // Turing: a full warp sums with butterfly shuffles (64-bit, as two
    // 32-bit halves) and its first lane adds; in a partial warp (threads
    // that left early, a block size not a multiple of 32) each thread adds
    // its own.
    BasicBlock *Reduce = BasicBlock::Create(Ctx, "roofline.warp_sum", &F, Atomics);
    BasicBlock *Merge = BasicBlock::Create(Ctx, "roofline.warp_done", &F, Atomics);
    Value *Full = B.CreateICmpEQ(Mask, ConstantInt::getAllOnesValue(I32),
                                 "roofline.full_warp");
    B.CreateCondBr(Full, Reduce, Merge);
    B.SetInsertPoint(Reduce);
    Function *Shuffle = Intrinsic(Intrinsic::nvvm_shfl_sync_bfly_i32);
    Value *AllLanes = ConstantInt::getAllOnesValue(I32);
    Value *Clamp = ConstantInt::get(I32, 31);
    std::vector<Value *> Summed;
    for (Value *V : Own) {
      for (unsigned Offset = 16; Offset; Offset /= 2) {
        Value *Lo = B.CreateTrunc(V, I32);
        Value *Hi = B.CreateTrunc(B.CreateLShr(V, 32), I32);
        Value *Off = ConstantInt::get(I32, Offset);
        Value *OLo = B.CreateCall(Shuffle, {AllLanes, Lo, Off, Clamp});
        Value *OHi = B.CreateCall(Shuffle, {AllLanes, Hi, Off, Clamp});
        Value *Other = B.CreateOr(B.CreateZExt(OLo, I64),
                                  B.CreateShl(B.CreateZExt(OHi, I64), 32));
        V = B.CreateAdd(V, Other);
      }
      Summed.push_back(V);
    }
    B.CreateBr(Merge);
    B.SetInsertPoint(Merge);
    for (size_t I = 0; I < Own.size(); ++I) {
      PHINode *P = B.CreatePHI(I64, 2);
      P->addIncoming(Summed[I], Reduce);
      P->addIncoming(Own[I], Exit);
      Values.push_back(P);
    }
    Threads = B.CreateSelect(Full, ConstantInt::get(I64, 32),
                             ConstantInt::get(I64, 1));
    Leader = B.CreateOr(B.CreateNot(Full),
                        B.CreateICmpEQ(Lane, ConstantInt::get(I32, 0)));
    B.CreateCondBr(Leader, Atomics, Done);
  }

  B.SetInsertPoint(Atomics);
  ArrayType *BufTy = cast<ArrayType>(Counts->getValueType());
  SyncScope::ID Device = Ctx.getOrInsertSyncScopeID("device");
  auto AtomicAdd = [&](unsigned Word, Value *N) {
    Value *P = B.CreateConstInBoundsGEP2_64(BufTy, Counts, 0, Word);
    B.CreateAtomicRMW(AtomicRMWInst::Add, P, N, MaybeAlign(8),
                      AtomicOrdering::Monotonic, Device);
  };
  AtomicAdd(ROOFLINE_DEVICE_THREADS, Threads);
  std::map<uint32_t, Value *> PerSlot; // slot -> sum of counter * cost
  for (const CostEntry &C : Costs) {
    Value *Term = B.CreateMul(Values[C.Counter], ConstantInt::get(I64, C.PerUnit));
    Value *&Sum = PerSlot[C.Slot];
    Sum = Sum ? B.CreateAdd(Sum, Term) : Term;
  }
  for (auto [Slot, Sum] : PerSlot)
    AtomicAdd(ROOFLINE_DEVICE_SLOTS + Slot, Sum);
  B.CreateBr(Done);
  ReturnInst::Create(Ctx, Done);
}

Constant *stringConstant(Module &M, StringRef S, const Twine &Name) {
  return IRBuilder<>(M.getContext())
      .CreateGlobalString(S, Name, 0, &M);
}

/// The file (with its directory) and line where \p F is defined.
std::pair<std::string, unsigned> sourceLocation(const Function &F) {
  DISubprogram *SP = F.getSubprogram();
  if (!SP)
    return {"", 0};
  return {InlinedFunctions::sourcePath(SP->getDirectory(), SP->getFilename()),
          SP->getLine()};
}

/// "index\tread\twritten\tfootprint read\tfootprint written\tread lo\t
/// read hi\twritten lo\twritten hi\n" per pointer parameter with traffic
/// (the runtime's ROOFLINE_TRACE follows buffers by these).
std::string pointerBytes(const StaticFormulas &SF) {
  std::string Out;
  for (const StaticFormulas::PointerBytes &P : SF.Pointers) {
    Out += std::to_string(P.Index);
    for (const std::string *F : {&P.Read, &P.Written, &P.FootprintRead,
                                 &P.FootprintWritten, &P.ReadLo, &P.ReadHi,
                                 &P.WrittenLo, &P.WrittenHi})
      Out += "\t" + *F;
    Out += "\n";
  }
  return Out;
}

/// The parameter list of a kernel's meta string: name:type each.
std::string paramList(const Function &F, const StaticFormulas &SF) {
  std::string Out;
  for (const Argument &A : F.args()) {
    std::string Name = A.getArgNo() < SF.Params.size()
                           ? SF.Params[A.getArgNo()]
                       : A.hasName() ? A.getName().str()
                                     : "arg" + std::to_string(A.getArgNo());
    Type *T = A.getType();
    std::string Ty = "other";
    if (T->isIntegerTy())
      Ty = "i" + std::to_string(T->getIntegerBitWidth());
    else if (T->isHalfTy())
      Ty = "f16";
    else if (T->isFloatTy())
      Ty = "f32";
    else if (T->isDoubleTy())
      Ty = "f64";
    else if (T->isPointerTy())
      Ty = "ptr";
    Out += (Out.empty() ? "" : "\t") + Name + ":" + Ty;
  }
  return Out;
}

} // namespace

/// Host code: every cudaLaunchKernel goes through the runtime's shim,
/// which has the same signature and calls the real one.
bool InstrumentationPass::redirectLaunches(Module &M) {
  bool Changed = false;
  for (const char *Name : {"cudaLaunchKernel", "cudaLaunchKernel_ptsz"}) {
    Function *Launch = M.getFunction(Name);
    if (!Launch)
      continue;
    FunctionCallee Shim = M.getOrInsertFunction(
        std::string("__roofline_") + Name, Launch->getFunctionType());
    for (Use &U : llvm::make_early_inc_range(Launch->uses()))
      if (auto *CB = dyn_cast<CallBase>(U.getUser()))
        if (CB->isCallee(&U)) {
          CB->setCalledOperand(Shim.getCallee());
          Changed = true;
        }
  }
  return Changed;
}

/// Device code: each kernel counts per thread and adds per warp into
/// __roofline_counts_<kernel>; __roofline_meta_<kernel> describes it.
PreservedAnalyses InstrumentationPass::instrumentDevice(
    Module &M, ModuleAnalysisManager &MAM) {
  FunctionAnalysisManager &FAM =
      MAM.getResult<FunctionAnalysisManagerModuleProxy>(M).getManager();
  LLVMContext &Ctx = M.getContext();
  Type *I64 = Type::getInt64Ty(Ctx);
  ArrayType *BufTy = ArrayType::get(I64, ROOFLINE_DEVICE_SLOTS + NumSlots);
  std::vector<Function *> Kernels;
  for (Function &F : M)
    if (!F.isDeclaration() && F.getCallingConv() == CallingConv::PTX_Kernel &&
        IsKernel(F))
      Kernels.push_back(&F);
  std::vector<GlobalValue *> Used;
  for (Function *F : Kernels) {
    // Globals the host finds by name (cuModuleGetGlobal): visible, and
    // merged like the kernel when it is a template instance.
    GlobalValue::LinkageTypes Linkage =
        F->hasLinkOnceLinkage() || F->hasWeakLinkage()
            ? GlobalValue::WeakODRLinkage
            : GlobalValue::ExternalLinkage;
    auto *Counts = new GlobalVariable(
        M, BufTy, /*isConstant=*/false, Linkage,
        ConstantAggregateZero::get(BufTy),
        ROOFLINE_DEVICE_COUNTS_PREFIX + F->getName(), nullptr,
        GlobalValue::NotThreadLocal, /*AddressSpace=*/1,
        /*isExternallyInitialized=*/true);
    inlineDeviceCalls(*F);
    FAM.invalidate(*F, PreservedAnalyses::none());
    FunctionInstrumenter FI(*F, FAM.getResult<LoopAnalysis>(*F),
                            FAM.getResult<ScalarEvolutionAnalysis>(*F),
                            FAM.getResult<DominatorTreeAnalysis>(*F),
                            /*Sources=*/nullptr, /*RecordSelf=*/true);
    // A kernel with nothing to count keeps a zero buffer: the host still
    // records its launches and times.
    if (FI.runDevice(Counts))
      FAM.invalidate(*F, PreservedAnalyses::none());
    StaticFormulas SF = Static(*F);
    auto [File, Line] = sourceLocation(*F);
    std::string Meta;
    raw_string_ostream OS(Meta);
    auto Field = [&](const char *Key, const Twine &Value) {
      OS << Key << "\t" << Value << "\n";
    };
    Field(ROOFLINE_META_KEY_Version, Twine(ROOFLINE_DEVICE_META_VERSION));
    Field(ROOFLINE_META_KEY_Slots, Twine(NumSlots));
    Field(ROOFLINE_META_KEY_Params, paramList(*F, SF));
    Field(ROOFLINE_META_KEY_File, File);
    Field(ROOFLINE_META_KEY_Line, Twine(Line));
    Field(ROOFLINE_META_KEY_Flops, SF.Flops);
    Field(ROOFLINE_META_KEY_Load, SF.Load);
    Field(ROOFLINE_META_KEY_Store, SF.Store);
    Field(ROOFLINE_META_KEY_Exact, Twine(SF.Exact ? 1 : 0));
    for (const StaticFormulas::PointerBytes &P : SF.Pointers)
      Field(ROOFLINE_META_KEY_Pointer,
            Twine(P.Index) + "\t" + P.Read + "\t" + P.Written);
    // The host shim evaluates it per launch, with the launch's arguments
    // and dimensions.
    if (!SF.FootprintRead.empty())
      Field(ROOFLINE_META_KEY_Footprint,
            SF.FootprintRead + "\t" + SF.FootprintWritten + "\t" +
                (SF.FootprintExact ? "1" : "0"));
    Constant *Text = ConstantDataArray::getString(Ctx, Meta);
    auto *MetaVar = new GlobalVariable(
        M, Text->getType(), /*isConstant=*/true, Linkage, Text,
        ROOFLINE_DEVICE_META_PREFIX + F->getName(), nullptr,
        GlobalValue::NotThreadLocal, /*AddressSpace=*/1);
    Used.push_back(Counts);
    Used.push_back(MetaVar);
  }
  if (Used.empty())
    return PreservedAnalyses::all();
  appendToCompilerUsed(M, Used);
  M.getOrInsertNamedMetadata(Marker);
  return PreservedAnalyses::none();
}

namespace {

/// What the descriptor carries of a kernel's static summary.
StaticFormulas formulasOf(const KernelSummary *K) {
  if (!K)
    return StaticFormulas();
  const CountPolys &C = K->Totals;
  std::vector<std::string> Order = K->variableOrder();
  StaticFormulas SF{C.flops().str(Order), C.bytes(Access::Load).str(Order),
                    C.bytes(Access::Store).str(Order), K->Exact, K->Params, {}};
  const FootprintCounts &FP = K->Footprint.Total;
  if (FP.ReadAtLeast.isValid() && FP.WrittenAtLeast.isValid()) {
    SF.FootprintRead = FP.ReadAtLeast.str(Order);
    SF.FootprintWritten = FP.WrittenAtLeast.str(Order);
    SF.FootprintExact = FP.Exact;
    SF.FootprintAssumptions = K->Assumptions;
    SF.FootprintAssumptions.insert(SF.FootprintAssumptions.end(),
                                   FP.Assumptions.begin(), FP.Assumptions.end());
  }
  for (const auto &[Arg, LS] : C.ArgBytes) {
    if (LS[0].isZero() && LS[1].isZero())
      continue;
    StaticFormulas::PointerBytes P{Arg, LS[0].str(Order), LS[1].str(Order)};
    auto It = Arg < K->Params.size() ? K->Footprint.ByArray.find(K->Params[Arg])
                                     : K->Footprint.ByArray.end();
    if (It != K->Footprint.ByArray.end()) {
      const FootprintCounts &FA = It->second;
      // Only what holds with no assumption: the runtime cannot check one.
      if (FA.Exact && FA.Assumptions.empty() && FA.Read.isValid() &&
          FA.Written.isValid()) {
        P.FootprintRead = FA.Read.str(Order);
        P.FootprintWritten = FA.Written.str(Order);
      }
      if (FA.Assumptions.empty()) {
        auto Range = [&](const std::optional<FootprintCounts::Hull> &H,
                         std::string &Lo, std::string &Hi) {
          if (H && H->Lo.isValid() && H->Hi.isValid()) {
            Lo = H->Lo.str(Order);
            Hi = H->Hi.str(Order);
          }
        };
        Range(FA.ReadHull, P.ReadLo, P.ReadHi);
        Range(FA.WrittenHull, P.WrittenLo, P.WrittenHi);
      }
    }
    SF.Pointers.push_back(P);
  }
  return SF;
}

} // namespace

PreservedAnalyses InstrumentationPass::run(Module &M,
                                           ModuleAnalysisManager &MAM) {
  if (M.getNamedMetadata(Marker))
    return PreservedAnalyses::all(); // already instrumented (LTO)
  // The summaries of the analysis (computed now when no pass asked for
  // them earlier in the pipeline, as under `opt -passes=roofline-instrument`).
  const auto &Summaries = MAM.getResult<RooflineAnalysis>(M);
  auto Selector = std::make_shared<KernelSelector>(
      MAM.getResult<FunctionAnalysisManagerModuleProxy>(M).getManager(),
      Opts.KernelFilter, Opts.AllFunctions);
  // A kernel the analysis reported is instrumented even when the optimiser
  // has since unrolled its loops away: the profile has every kernel the
  // summary has.
  IsKernel = [Selector, &Summaries](Function &F) {
    if (!Selector->isKernel(F) && !Summaries.find(F.getName()))
      return false;
    std::string Why = KernelSelector::whyNotInstrumented(F);
    if (!Why.empty())
      F.getContext().diagnose(DiagnosticInfoGeneric(
          "roofline: " + F.getName() + " is not instrumented: " + Why,
          DS_Remark));
    return Why.empty();
  };
  Static = [&Summaries](const Function &F) {
    return formulasOf(Summaries.find(F.getName()));
  };
  if (Triple(M.getTargetTriple()).isNVPTX())
    return instrumentDevice(M, MAM);
  bool Changed = redirectLaunches(M);
  FunctionAnalysisManager &FAM =
      MAM.getResult<FunctionAnalysisManagerModuleProxy>(M).getManager();
  LLVMContext &Ctx = M.getContext();
  Type *I32 = Type::getInt32Ty(Ctx), *I64 = Type::getInt64Ty(Ctx);
  PointerType *Ptr = PointerType::getUnqual(Ctx);
  // The IR types of roofline_kernel and roofline_cost, from the field list
  // the runtime's structs are made of.
  auto KindType = [&](FieldKind K) -> Type * {
    return K == FieldKind::U64 ? I64 : K == FieldKind::U32 || K == FieldKind::I32 ? I32 : Ptr;
  };
  SmallVector<Type *, 20> KernelTypes, CostTypes;
#define ROOFLINE_KERNEL_FIELD(Kind, Name) KernelTypes.push_back(KindType(FieldKind::Kind));
#define ROOFLINE_COST_FIELD(Kind, Name) CostTypes.push_back(KindType(FieldKind::Kind));
#include "roofline/Runtime/DescriptorFields.inc"
  StructType *DescTy = StructType::create(Ctx, KernelTypes, "roofline.kernel");
  StructType *CostTy = StructType::create(Ctx, CostTypes, "roofline.cost");

  std::vector<Type *> PartTypes, LoopTypes;
#define ROOFLINE_PART_FIELD(Kind, Name) PartTypes.push_back(KindType(FieldKind::Kind));
#define ROOFLINE_LOOP_FIELD(Kind, Name) LoopTypes.push_back(KindType(FieldKind::Kind));
#include "roofline/Runtime/DescriptorFields.inc"
  StructType *PartTy = StructType::create(Ctx, PartTypes, "roofline.part");
  StructType *LoopTy = StructType::create(Ctx, LoopTypes, "roofline.loop");

  // Kernels, and functions that hold kernels inlined into them (markers of
  // other functions say so).
  InlinedFunctions Sources(M);
  CarriedSummaries Carried;
  // Kernels, and functions that hold kernels inlined into them (markers of
  // other functions say so); then, callees first, the helpers their calls
  // need counted (CalleeCounts.h).
  std::map<const Function *, bool> OwnKernel;
  auto IsTarget = [&](Function &F) {
    bool Kernel = IsKernel(F);
    OwnKernel[&F] = Kernel;
    if (Kernel)
      return true;
    if (!Sources.empty())
      for (Instruction &I : instructions(F))
        if (const SourceFunction *S = Sources.markerOf(I))
          if (S->Subprogram != F.getSubprogram())
            return KernelSelector::whyNotInstrumented(F).empty();
    return false;
  };
  auto CanInstrument = [](Function &F) {
    return KernelAnalysis::isKernel(F) &&
           KernelSelector::whyNotInstrumented(F).empty();
  };
  CalleeCounts Callees(M, FAM, IsTarget, CanInstrument);

  auto Array = [&](Type *ElemTy, ArrayRef<Constant *> Elems,
                   const Twine &Name) -> Constant * {
    if (Elems.empty())
      return ConstantPointerNull::get(Ptr);
    ArrayType *T = ArrayType::get(ElemTy, Elems.size());
    return new GlobalVariable(M, T, true, GlobalValue::PrivateLinkage,
                              ConstantArray::get(T, Elems), Name);
  };
  std::vector<GlobalVariable *> Descs;
  std::set<const GlobalVariable *> TracedBlocks; // functions with whole traffic
  for (auto [F, IsTargetFn] : Callees.order()) {
    bool IsOwnKernel = IsTargetFn && OwnKernel[F];
    auto *Desc = new GlobalVariable(M, DescTy, /*isConstant=*/false,
                                    GlobalValue::PrivateLinkage, nullptr,
                                    "__roofline_desc_" + F->getName());
    FunctionInstrumenter FI(*F, FAM.getResult<LoopAnalysis>(*F),
                            FAM.getResult<ScalarEvolutionAnalysis>(*F),
                            FAM.getResult<DominatorTreeAnalysis>(*F),
                            &Sources, IsOwnKernel || !IsTargetFn);
    StaticFormulas SF = IsOwnKernel ? Static(*F) : StaticFormulas();
    // Decided once, on the code before instrumentation: the counters and
    // the descriptor's footprint field must agree.
    bool CountedFootprint = IsOwnKernel && footprintIsCounted(SF, *F);
    bool Footprint = IsOwnKernel && !CountedFootprint && FI.countFootprint(SF);
    FI.countInlinedFootprints(Carried);
    FI.countCalls(Callees, /*IsHelper=*/!IsTargetFn);
    if (!FI.run(Desc)) {
      Desc->eraseFromParent();
      Callees.instrumented(*F, {}); // nothing to count: its calls add 0
      continue;
    }
    Callees.instrumented(*F, FI.block());
    // Its code writes its block now: whatever the optimiser inferred of
    // its memory effects (none, read only) no longer holds.
    F->setMemoryEffects(MemoryEffects::unknown());
    for (User *U : F->users())
      if (auto *CB = dyn_cast<CallBase>(U))
        CB->removeFnAttr(Attribute::Memory);
    bool Traced = false;
    if (tracedCopiesEnabled()) {
      std::string Why = addTracedCopy(*F, Desc, FI.AccessSites, FI.CallSites);
      // Its traffic is whole only where its callees' is too.
      for (const CallSite &C : FI.CallSites)
        if (!C.Fixed && Why.empty())
          for (const CalleeCounts::Block *B : Callees.measured(*C.Call))
            if (!TracedBlocks.count(B->TLS))
              Why = "a callee's traffic is not traced (" +
                    demangle(C.Call->getCalledFunction()->getName().str()) + ")";
      Traced = Why.empty();
      if (Traced)
        TracedBlocks.insert(FI.block().TLS);
      else
        Ctx.diagnose(DiagnosticInfoGeneric(
            "roofline: " + F->getName() + " has no cache traffic from the "
            "model (ROOFLINE_CACHE): " + Why, DS_Remark));
    }
    FAM.invalidate(*F, PreservedAnalyses::none());
    std::string Base = "__roofline_" + F->getName().str();

    std::vector<Constant *> Costs;
    for (const CostEntry &C : FI.Costs) {
      CostFields Cost;
      Cost.Counter = ConstantInt::get(I32, C.Counter);
      Cost.Slot = ConstantInt::get(I32, C.Slot);
      Cost.PerUnit = ConstantInt::get(I64, C.PerUnit);
      Cost.Part = ConstantInt::get(I32, C.Part);
      Cost.Nest = ConstantInt::get(I32, C.Nest);
      Costs.push_back(ConstantStruct::get(CostTy, Cost.values()));
    }
    auto [File, Line] = sourceLocation(*F);
    // The inlined kernels' own summaries, carried by their markers.
    std::map<const SourceFunction *, const nlohmann::json *> SummaryOf;
    for (Instruction &I : instructions(*F))
      if (const SourceFunction *S = Sources.markerOf(I))
        if (const nlohmann::json *J = Carried.of(I))
          SummaryOf.emplace(S, J);
    std::vector<Constant *> Parts;
    for (size_t I = 0; I < FI.Parts.size(); ++I) {
      const Part &P = FI.Parts[I];
      std::string Tag = Base + ".part" + std::to_string(I);
      std::string Formula[3];
      bool FormulaExact = false;
      if (auto It = SummaryOf.find(P.Source); It != SummaryOf.end()) {
        const nlohmann::json &J = *It->second;
        const char *Keys[] = {"flops", "bytes_load", "bytes_store"};
        if (J.contains("formula") && J["formula"].is_object())
          for (int K = 0; K < 3; ++K)
            if (J["formula"].contains(Keys[K]) && J["formula"][Keys[K]].is_string())
              Formula[K] = J["formula"][Keys[K]].get<std::string>();
        FormulaExact = J.contains("exact") && J["exact"].is_boolean() &&
                       J["exact"].get<bool>();
      }
      PartFields PF;
      PF.StaticFlops = stringConstant(M, Formula[0], Tag + ".flops");
      PF.StaticLoad = stringConstant(M, Formula[1], Tag + ".load");
      PF.StaticStore = stringConstant(M, Formula[2], Tag + ".store");
      PF.StaticExact = ConstantInt::get(I32, FormulaExact);
      PF.Name = stringConstant(M, P.Source ? P.Source->Name : F->getName().str(),
                               Tag + ".name");
      PF.File = stringConstant(M, P.Source ? P.Source->File : File, Tag + ".file");
      PF.Line = ConstantInt::get(I32, P.Source ? P.Source->Line : Line);
      PF.Kind = ConstantInt::get(I32, P.Kind);
      PF.Entries = ConstantInt::get(I32, P.Entries);
      PF.Footprint = ConstantInt::get(I32, P.FootprintKind);
      PF.FootprintBroken = ConstantInt::get(I32, P.FootprintBroken);
      std::string Uncounted;
      if (auto It = FI.Uncounted.find(I); It != FI.Uncounted.end())
        for (const std::string &Name : It->second)
          Uncounted += Name + "\n";
      PF.UncountedCalls = stringConstant(M, Uncounted, Tag + ".uncounted");
      Parts.push_back(ConstantStruct::get(PartTy, PF.values()));
    }
    std::vector<Constant *> Loops;
    for (size_t I = 0; I < FI.Nests.size(); ++I) {
      const Nest &N = FI.Nests[I];
      std::string LoopFile =
          N.Start ? InlinedFunctions::sourcePath(N.Start->getDirectory(),
                                                 N.Start->getFilename())
                  : "";
      LoopFields LF;
      LF.Part = ConstantInt::get(I32, N.Part);
      LF.File = stringConstant(M, LoopFile, Base + ".loop" + std::to_string(I) + ".file");
      LF.Line = ConstantInt::get(I32, N.Line);
      LF.Entries = ConstantInt::get(I32, N.Entries);
      LF.Entered = ConstantInt::get(I32, N.Entered);
      LF.Iterations = ConstantInt::get(I32, N.Iterations);
      LF.Ticks = ConstantInt::get(I32, N.Ticks);
      LF.Timed = ConstantInt::get(I32, N.Timed);
      LF.FewestIterations = ConstantInt::get(I32, N.Fewest);
      LF.MostIterations = ConstantInt::get(I32, N.Most);
      Loops.push_back(ConstantStruct::get(LoopTy, LF.values()));
    }

    KernelFields K;
    K.Version = ConstantInt::get(I32, ROOFLINE_DESCRIPTOR_VERSION);
    K.NumCounters = ConstantInt::get(I32, FI.numCounters());
    K.NumCosts = ConstantInt::get(I32, FI.Costs.size());
    K.NumLoops = ConstantInt::get(I32, FI.Nests.size());
    K.Name = stringConstant(M, F->getName(), Base + ".name");
    K.File = stringConstant(M, File, Base + ".file");
    K.Line = ConstantInt::get(I32, Line);
    K.Id = ConstantInt::get(I32, uint32_t(-1));
    K.Costs = Array(CostTy, Costs, Base + ".costs");
    K.NumParts = ConstantInt::get(I32, Parts.size());
    K.Parts = Array(PartTy, Parts, Base + ".parts");
    K.Loops = Array(LoopTy, Loops, Base + ".loops");
    K.StaticFlops = stringConstant(M, SF.Flops, Base + ".flops");
    K.StaticLoad = stringConstant(M, SF.Load, Base + ".load");
    K.StaticStore = stringConstant(M, SF.Store, Base + ".store");
    K.StaticExact = ConstantInt::get(I32, SF.Exact);
    K.NumSlots = ConstantInt::get(I32, NumSlots);
    K.Params = stringConstant(M, paramList(*F, SF), Base + ".params");
    K.PointerBytes = stringConstant(M, pointerBytes(SF), Base + ".pointers");
    K.Footprint = ConstantInt::get(
        I32, !IsOwnKernel         ? 0
             : CountedFootprint       ? 3
             : !Footprint             ? 0
             : SF.FootprintExact      ? 1
                                      : 2);
    K.FootprintBroken = ConstantInt::get(I32, Footprint ? FI.FootprintBroken : -1);
    K.Traced = ConstantInt::get(I32, Traced);
    Desc->setInitializer(ConstantStruct::get(DescTy, K.values()));
    Descs.push_back(Desc);
  }
  Changed |= InlinedFunctions::eraseMarkers(M);
  if (Descs.empty())
    return Changed ? PreservedAnalyses::none() : PreservedAnalyses::all();

  // One constructor registers every descriptor of the module.
  Function *Ctor = Function::Create(FunctionType::get(Type::getVoidTy(Ctx), false),
                                    GlobalValue::InternalLinkage, CtorName, &M);
  IRBuilder<> B(BasicBlock::Create(Ctx, "", Ctor));
  FunctionCallee Register =
      M.getOrInsertFunction(RegisterFn, Type::getVoidTy(Ctx), Ptr);
  for (GlobalVariable *D : Descs)
    B.CreateCall(Register, {D});
  B.CreateRetVoid();
  appendToGlobalCtors(M, Ctor, 0);
  std::vector<GlobalValue *> Used(Descs.begin(), Descs.end());
  appendToCompilerUsed(M, Used);
  M.getOrInsertNamedMetadata(Marker);
  return PreservedAnalyses::none();
}

} // namespace roofline
