//===- InlinedFunctions.cpp - Source functions after inlining -------------===//
#include "roofline/Transforms/InlinedFunctions.h"
#include "roofline/Model/SourceFiles.h"
#include "roofline/Analysis/InlinedSummaries.h"
#include "roofline/Analysis/KernelAnalysis.h"
#include "roofline/Analysis/KernelSelection.h"
#include "roofline/Analysis/DeviceCode.h"
#include "roofline/Analysis/PipelineAnalyses.h"

#include "llvm/ADT/SCCIterator.h"
#include "llvm/Analysis/AliasAnalysis.h"
#include "llvm/Analysis/BranchProbabilityInfo.h"
#include "llvm/Analysis/CallGraph.h"
#include "llvm/Analysis/ScalarEvolution.h"

#include "llvm/Analysis/LoopInfo.h"
#include "llvm/IR/DIBuilder.h"
#include "llvm/IR/DebugInfoMetadata.h"
#include "llvm/IR/DebugProgramInstruction.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/Module.h"
#include "llvm/TargetParser/Triple.h"
#include "llvm/Transforms/IPO/FunctionAttrs.h"

#include <limits>

using namespace llvm;

namespace roofline {

namespace {

/// The markers' pseudo-probe index ("roof"), told apart from the probes of
/// -fpseudo-probe-for-profiling, whose indices count blocks from 1.
constexpr uint64_t MarkerIndex = 0x726f6f66;
/// Loop markers' ("roop"); their location is the loop's.
constexpr uint64_t LoopMarkerIndex = 0x726f6f70;
/// The marked functions, in marker-id order: !{DISubprogram, !"name"}.
constexpr const char *TableName = "roofline.sources";
/// The llvm.sideeffect calls beside the markers.
constexpr const char *KeepAliveName = "roofline.marker";
// The debug variables that hold a marked function's integer arguments at
// its entry: "__roofline_arg<N>" for argument N. Debug records survive
// inlining (with the call site as their inlinedAt) and never change the
// code; the last one before a copy of the marker has the call's values.
constexpr const char *ArgumentPrefix = "__roofline_arg";

std::string fileOf(const DISubprogram &SP) {
  return InlinedFunctions::sourcePath(SP.getDirectory(), SP.getFilename());
}

} // namespace

std::string InlinedFunctions::sourcePath(StringRef Directory, StringRef File) {
  if (Directory.empty() || File.empty() || File.starts_with("/"))
    return File.str();
  return (Directory + "/" + File).str();
}

PreservedAnalyses EntryMarkerPass::run(Module &M, ModuleAnalysisManager &MAM) {
  // Device code is inlined into its kernels on purpose; it keeps one record
  // per kernel.
  if (isDeviceModule(M))
    return PreservedAnalyses::all();
  LLVMContext &Ctx = M.getContext();
  NamedMDNode *Table = M.getOrInsertNamedMetadata(TableName);
  if (Table->getNumOperands())
    return PreservedAnalyses::all(); // marked already
  Type *I32 = Type::getInt32Ty(Ctx), *I64 = Type::getInt64Ty(Ctx);
  Function *Probe = Intrinsic::getOrInsertDeclaration(&M, Intrinsic::pseudoprobe);
  Function *SideEffect = Intrinsic::getOrInsertDeclaration(&M, Intrinsic::sideeffect);
  unsigned KeepAliveKind = Ctx.getMDKindID(KeepAliveName);
  FunctionAnalysisManager &FAM =
      MAM.getResult<FunctionAnalysisManagerModuleProxy>(M).getManager();
  KernelSelector Selector(FAM, Opts.KernelFilter, Opts.AllFunctions);
  for (Function &F : M) {
    DISubprogram *SP = F.getSubprogram();
    if (F.isDeclaration() || !SP || isSystemFile(fileOf(*SP)))
      continue;
    if (!Selector.isKernelByOwnCode(F))
      continue;
    unsigned Id = Table->getNumOperands();
    Table->addOperand(MDNode::get(Ctx, {SP, MDString::get(Ctx, F.getName())}));
    auto Mark = [&](Instruction *Before, uint64_t Index, const DILocation *DL) {
      IRBuilder<> B(Before);
      B.SetCurrentDebugLocation(DL);
      B.CreateCall(Probe, {ConstantInt::get(I64, Id), ConstantInt::get(I64, Index),
                           ConstantInt::get(I32, 0),
                           ConstantInt::get(I64, std::numeric_limits<uint64_t>::max())});
      // SimplifyCFG folds a block that holds only pseudo probes into its
      // successor, and drops them: a side effect keeps the block, and
      // costs nothing (the vectoriser, too, ignores it).
      if (ForInstrumentation)
        B.CreateCall(SideEffect, {})->setMetadata(KeepAliveKind, MDNode::get(Ctx, {}));
    };
    Instruction *EntryAt = &*F.getEntryBlock().getFirstInsertionPt();
    const DILocation *EntryLoc = DILocation::get(
        Ctx, SP->getScopeLine() ? SP->getScopeLine() : SP->getLine(), 0, SP);
    if (!ForInstrumentation) {
      Mark(EntryAt, MarkerIndex, EntryLoc);
      continue;
    }
    for (Loop *L : FAM.getResult<LoopAnalysis>(F))
      if (BasicBlock *Pre = L->getLoopPreheader())
        if (DebugLoc Start = L->getStartLoc())
          Mark(Pre->getTerminator(), LoopMarkerIndex, Start.get());
    Mark(EntryAt, MarkerIndex, EntryLoc);
    // The integer arguments, as debug values of variables of our own at
    // the marker: inlined, they hold the call's values, and the
    // instrumentation evaluates the kernel's footprint formula with them.
    DIBuilder DIB(M, /*AllowUnresolved=*/false, SP->getUnit());
    DIType *IntTy = DIB.createBasicType("long", 64, dwarf::DW_ATE_signed);
    for (Argument &A : F.args())
      if (A.getType()->isIntegerTy() && A.getType()->getIntegerBitWidth() <= 64) {
        DILocalVariable *Var = DIB.createAutoVariable(
            SP, ArgumentPrefix + std::to_string(A.getArgNo()), SP->getFile(),
            SP->getLine(), IntTy);
        DIB.insertDbgValueIntrinsic(&A, Var, DIB.createExpression(), EntryLoc,
                                    EntryAt->getIterator());
      }
    DIB.finalize();
  }
  if (!Table->getNumOperands()) {
    // No kernel to mark: leave the module as it was.
    Table->eraseFromParent();
    for (Function *Decl : {Probe, SideEffect})
      if (Decl->use_empty())
        Decl->eraseFromParent();
    return PreservedAnalyses::all();
  }
  return PreservedAnalyses::none();
}

InlinedFunctions::InlinedFunctions(const Module &M) {
  const NamedMDNode *Table = M.getNamedMetadata(TableName);
  if (!Table)
    return;
  for (const MDNode *N : Table->operands()) {
    auto *SP = N->getNumOperands() == 2
                   ? dyn_cast_or_null<DISubprogram>(N->getOperand(0))
                   : nullptr;
    auto *Name = SP ? dyn_cast_or_null<MDString>(N->getOperand(1)) : nullptr;
    unsigned Id = Sources.size();
    Sources.push_back({Id, Name ? Name->getString().str() : "",
                       SP ? fileOf(*SP) : "", SP ? SP->getLine() : 0, SP});
    if (SP && Name)
      BySubprogram[SP] = Id;
  }
}

const SourceFunction *InlinedFunctions::sourceOf(const DILocation *DL,
                                                 const Function &In) const {
  const DISubprogram *Own = In.getSubprogram();
  for (; DL; DL = DL->getInlinedAt()) {
    const DISubprogram *SP = DL->getScope()->getSubprogram();
    if (SP == Own)
      return nullptr;
    auto It = BySubprogram.find(SP);
    if (It != BySubprogram.end())
      return &Sources[It->second];
  }
  return nullptr;
}

std::vector<const SourceFunction *>
InlinedFunctions::sourcesOf(const DILocation *DL, const Function &In) const {
  std::vector<const SourceFunction *> Out;
  const DISubprogram *Own = In.getSubprogram();
  for (; DL; DL = DL->getInlinedAt()) {
    const DISubprogram *SP = DL->getScope()->getSubprogram();
    if (SP == Own)
      break;
    auto It = BySubprogram.find(SP);
    if (It != BySubprogram.end() &&
        (Out.empty() || Out.back() != &Sources[It->second]))
      Out.push_back(&Sources[It->second]);
  }
  return Out;
}

const SourceFunction *InlinedFunctions::markerOf(const Instruction &I) const {
  const auto *P = dyn_cast<PseudoProbeInst>(&I);
  if (!P || P->getIndex()->getZExtValue() != MarkerIndex)
    return nullptr;
  uint64_t Id = P->getFuncGuid()->getZExtValue();
  if (Id >= Sources.size() || Sources[Id].Name.empty())
    return nullptr;
  return &Sources[Id];
}

const DILocation *InlinedFunctions::loopMarkerOf(const Instruction &I) const {
  const auto *P = dyn_cast<PseudoProbeInst>(&I);
  if (!P || P->getIndex()->getZExtValue() != LoopMarkerIndex)
    return nullptr;
  return I.getDebugLoc().get();
}

bool InlinedFunctions::sameLocation(const DILocation *A, const DILocation *B,
                                    bool Columns) {
  // Discriminators (a vector loop's remainder, unrolled copies) live in
  // lexical block files wrapping the scope: compared without them.
  // Columns are ignored (when asked) in the innermost frame only: calls on
  // one line at different columns are different inlined copies.
  for (bool Inner = true; A && B; A = A->getInlinedAt(), B = B->getInlinedAt(), Inner = false)
    if (A != B && (A->getLine() != B->getLine() ||
                   ((Columns || !Inner) && A->getColumn() != B->getColumn()) ||
                   A->getScope()->getNonLexicalBlockFileScope() !=
                       B->getScope()->getNonLexicalBlockFileScope()))
      return false;
  return !A && !B;
}

InlinedFunctions::EntryArguments
InlinedFunctions::entryArguments(Instruction &Marker) {
  EntryArguments Out;
  const DILocation *At = Marker.getDebugLoc();
  if (!At || !isa<PseudoProbeInst>(&Marker))
    return Out;
  // The argument variables' values at the entry of this copy: records of
  // the same frame (subprogram and call site) after the marker in its
  // block, up to the next entry marker (EntryMarkerPass put them right
  // after it; an unrolled caller's copies each have their own).
  auto SameFrame = [&](const DbgVariableRecord &R) {
    const DILocation *L = R.getDebugLoc();
    return L && R.getVariable()->getName().starts_with(ArgumentPrefix) &&
           L->getInlinedAt() == At->getInlinedAt() &&
           R.getVariable()->getScope()->getSubprogram() ==
               At->getScope()->getSubprogram();
  };
  auto Take = [&](Instruction &I) {
    for (DbgVariableRecord &R : filterDbgVars(I.getDbgRecordRange())) {
      if (!SameFrame(R))
        continue;
      unsigned No = 0;
      StringRef Suffix = R.getVariable()->getName().drop_front(
          std::char_traits<char>::length(ArgumentPrefix));
      if (Suffix.getAsInteger(10, No) || Out.ByNumber.count(No))
        continue;
      // Code computing with it goes before I: not before a PHI or a pad.
      if (readableArgument(R) && !I.isEHPad() && !isa<PHINode>(I)) {
        Out.ByNumber[No] = &R;
        Out.Use = &I;
      }
    }
  };
  for (Instruction *I = Marker.getNextNode(); I; I = I->getNextNode()) {
    if (auto *P = dyn_cast<PseudoProbeInst>(I);
        P && P->getIndex()->getZExtValue() == MarkerIndex)
      break;
    Take(*I);
  }
  return Out;
}

namespace {

/// Walks \p R's expression; with \p B, computes it in i64 (null: an
/// operation that is not integer arithmetic on its values).
Value *evaluateArgument(IRBuilder<> *B, const DbgVariableRecord &R) {
  if (R.isKillLocation() || !R.isDbgValue())
    return nullptr;
  const DIExpression *E = R.getExpression();
  Type *I64 = Type::getInt64Ty(R.getVariable()->getContext());
  std::vector<Value *> Stack;
  auto Operand = [&](unsigned N) -> Value * {
    Value *V = R.getVariableLocationOp(N);
    if (!V || isa<UndefValue>(V) || !V->getType()->isIntegerTy() ||
        V->getType()->getIntegerBitWidth() > 64)
      return nullptr;
    // Placeholder when only checking: any non-null value.
    return B ? B->CreateSExtOrTrunc(V, I64) : V;
  };
  auto Const = [&](int64_t C) -> Value * { return ConstantInt::get(I64, C); };
  if (!R.hasArgList()) {
    Value *V = Operand(0);
    if (!V)
      return nullptr;
    Stack.push_back(V);
  }
  for (auto Op = E->expr_op_begin(); Op != E->expr_op_end(); ++Op) {
    uint64_t Code = Op->getOp();
    auto Binary = [&](Instruction::BinaryOps Kind) -> bool {
      if (Stack.size() < 2)
        return false;
      Value *Y = Stack.back();
      Stack.pop_back();
      Value *X = Stack.back();
      Stack.back() = B ? B->CreateBinOp(Kind, X, Y) : X;
      return true;
    };
    static const std::pair<uint64_t, Instruction::BinaryOps> Binaries[] = {
        {dwarf::DW_OP_plus, Instruction::Add},  {dwarf::DW_OP_minus, Instruction::Sub},
        {dwarf::DW_OP_mul, Instruction::Mul},   {dwarf::DW_OP_shl, Instruction::Shl},
        {dwarf::DW_OP_shra, Instruction::AShr}, {dwarf::DW_OP_shr, Instruction::LShr},
        {dwarf::DW_OP_and, Instruction::And},   {dwarf::DW_OP_or, Instruction::Or},
        {dwarf::DW_OP_xor, Instruction::Xor}};
    auto Bin = llvm::find_if(Binaries, [&](const auto &P) { return P.first == Code; });
    if (Bin != std::end(Binaries)) {
      if (!Binary(Bin->second))
        return nullptr;
      continue;
    }
    switch (Code) {
    case dwarf::DW_OP_LLVM_arg: {
      Value *V = Operand(unsigned(Op->getArg(0)));
      if (!V)
        return nullptr;
      Stack.push_back(V);
      break;
    }
    case dwarf::DW_OP_constu:
    case dwarf::DW_OP_consts:
      Stack.push_back(Const(int64_t(Op->getArg(0))));
      break;
    case dwarf::DW_OP_plus_uconst:
      if (Stack.empty())
        return nullptr;
      Stack.back() = B ? B->CreateAdd(Stack.back(), Const(int64_t(Op->getArg(0))))
                       : Stack.back();
      break;
    case dwarf::DW_OP_neg:
      if (Stack.empty())
        return nullptr;
      Stack.back() = B ? B->CreateNeg(Stack.back()) : Stack.back();
      break;
    case dwarf::DW_OP_LLVM_convert: {
      // To Bits wide, then back to i64 by the encoding's sign.
      if (Stack.empty())
        return nullptr;
      unsigned Bits = unsigned(Op->getArg(0));
      bool Signed = Op->getArg(1) == dwarf::DW_ATE_signed;
      if (Bits == 0 || Bits > 64)
        return nullptr;
      if (B) {
        Value *T = B->CreateTrunc(Stack.back(), B->getIntNTy(Bits));
        Stack.back() = Signed ? B->CreateSExt(T, I64) : B->CreateZExt(T, I64);
      }
      break;
    }
    case dwarf::DW_OP_stack_value:
      break;
    default:
      return nullptr; // a fragment, a memory read, ...
    }
  }
  return Stack.size() == 1 ? Stack.back() : nullptr;
}

} // namespace

bool InlinedFunctions::readableArgument(const DbgVariableRecord &R) {
  return evaluateArgument(nullptr, R) != nullptr;
}

Value *InlinedFunctions::argumentValue(IRBuilder<> &B, DbgVariableRecord &R) {
  return evaluateArgument(&B, R);
}

Instruction *InlinedFunctions::ownEntryMarker(Function &F) {
  for (Instruction &I : instructions(F))
    if (auto *P = dyn_cast<PseudoProbeInst>(&I))
      if (P->getIndex()->getZExtValue() == MarkerIndex && I.getDebugLoc() &&
          !I.getDebugLoc()->getInlinedAt() &&
          I.getDebugLoc()->getScope()->getSubprogram() == F.getSubprogram())
        return &I;
  return nullptr;
}

PreservedAnalyses SourceSummaryPass::run(Function &F, FunctionAnalysisManager &FAM) {
  // Only a function that can disappear (static, inline, a template
  // instance) needs it: one that stays out of line is summarised as it is
  // at the summary pass, which then covers its inlined copies too.
  if (!F.isDiscardableIfUnused())
    return PreservedAnalyses::all();
  Instruction *Marker = InlinedFunctions::ownEntryMarker(F);
  if (!Marker || carriesSummary(*Marker))
    return PreservedAnalyses::all(); // not a marked kernel, or done
  PipelineAnalyses Analyses(FAM);
  KernelAnalysis KA([&Analyses](Function &G) { return Analyses(G); });
  attachSummary(*Marker, KA.summarize(F, F));
  return PreservedAnalyses::all(); // metadata only
}

PreservedAnalyses MarkerRemovalPass::run(Module &M, ModuleAnalysisManager &MAM) {
  std::set<const Function *> Marked;
  if (!InlinedFunctions::eraseMarkers(M, &Marked))
    return PreservedAnalyses::all();
  // The markers (inaccessible memory, to the optimiser) were in place when
  // the function attributes were inferred: infer each marked function's
  // memory effects again without them, callees first, and keep what both
  // inferences allow. The code the plugin leaves is then the code a
  // compile without it makes (test/Plugin/unchanged-o2.c).
  FunctionAnalysisManager &FAM =
      MAM.getResult<FunctionAnalysisManagerModuleProxy>(M).getManager();
  CallGraph CG(M);
  std::set<const Function *> Changed;
  for (scc_iterator<CallGraph *> SCC = scc_begin(&CG); !SCC.isAtEnd(); ++SCC)
    for (CallGraphNode *N : *SCC) {
      Function *F = N->getFunction();
      if (!F || F->isDeclaration() || !F->hasExactDefinition())
        continue;
      bool CallsChanged = llvm::any_of(*N, [&](const CallGraphNode::CallRecord &C) {
        return C.second->getFunction() && Changed.count(C.second->getFunction());
      });
      if (!Marked.count(F) && !CallsChanged)
        continue;
      FAM.invalidate(*F, PreservedAnalyses::none());
      // Only the inaccessible memory the markers stood for, and only where
      // the optimiser inferred the effects (unknown: it did not).
      MemoryEffects Old = F->getMemoryEffects();
      if (Old == MemoryEffects::unknown())
        continue;
      MemoryEffects Body = computeFunctionBodyMemoryAccess(*F, FAM.getResult<AAManager>(*F));
      MemoryEffects Now = Old.getWithModRef(
          IRMemLocation::InaccessibleMem,
          Old.getModRef(IRMemLocation::InaccessibleMem) &
              Body.getModRef(IRMemLocation::InaccessibleMem));
      if (Now != Old) {
        F->setMemoryEffects(Now);
        Changed.insert(F);
      }
    }
  return PreservedAnalyses::none();
}

bool InlinedFunctions::eraseMarkers(Module &M, std::set<const Function *> *From) {
  bool Erased = false;
  if (Function *Probe =
          Intrinsic::getDeclarationIfExists(&M, Intrinsic::pseudoprobe)) {
    for (User *U : make_early_inc_range(Probe->users()))
      if (auto *P = dyn_cast<PseudoProbeInst>(U))
        if (P->getIndex()->getZExtValue() == MarkerIndex ||
            P->getIndex()->getZExtValue() == LoopMarkerIndex) {
          if (From)
            From->insert(P->getFunction());
          P->eraseFromParent();
          Erased = true;
        }
    if (Probe->use_empty())
      Probe->eraseFromParent();
  }
  if (Function *SideEffect =
          Intrinsic::getDeclarationIfExists(&M, Intrinsic::sideeffect)) {
    unsigned KeepAliveKind = M.getContext().getMDKindID(KeepAliveName);
    for (User *U : make_early_inc_range(SideEffect->users()))
      if (auto *I = dyn_cast<Instruction>(U); I && I->getMetadata(KeepAliveKind)) {
        if (From)
          From->insert(I->getFunction());
        I->eraseFromParent();
        Erased = true;
      }
    if (SideEffect->use_empty())
      SideEffect->eraseFromParent();
  }
  // The argument variables' records (code generation must not emit them).
  if (M.getNamedMetadata(TableName))
    for (Function &F : M)
      for (Instruction &I : instructions(F))
        for (DbgVariableRecord &R :
             make_early_inc_range(filterDbgVars(I.getDbgRecordRange())))
          if (R.getVariable()->getName().starts_with(ArgumentPrefix)) {
            R.eraseFromParent();
            Erased = true;
          }
  if (NamedMDNode *Table = M.getNamedMetadata(TableName)) {
    Table->eraseFromParent();
    Erased = true;
  }
  return Erased;
}

} // namespace roofline
