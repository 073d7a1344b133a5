//===- Descriptors.cpp - Each instrumented function's descriptor ---------===//
#include "Descriptors.h"
#include "RuntimeNames.h"

#include "roofline/Runtime/CostKinds.h"

#include "llvm/IR/Constants.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/ErrorHandling.h"
#include "llvm/Transforms/Utils/ModuleUtils.h"


using namespace llvm;

namespace roofline {

namespace {

/// The kinds of DescriptorFields.inc's fields.
enum class FieldKind { U32, I32, U64, STRING, COSTS, PARTS, LOOPS };

/// The initializer's values in the struct's order. A field the emitter
/// did not set is a fatal error in every build (not an assert): the
/// runtime would read a null pointer or a wrong count.
std::vector<Constant *> setFields(std::vector<Constant *> V, const char *Struct) {
  if (!llvm::all_of(V, [](Constant *C) { return C; }))
    report_fatal_error(Twine("roofline: a field of ") + Struct +
                       " was not set (DescriptorFields.inc and "
                       "Descriptors.cpp disagree)");
  return V;
}

/// A roofline_kernel initializer, filled by field name; values() lists them
/// in the struct's order.
struct KernelFields {
#define ROOFLINE_KERNEL_FIELD(Kind, Name) Constant *Name = nullptr;
#include "roofline/Runtime/DescriptorFields.inc"
  std::vector<Constant *> values() const {
    std::vector<Constant *> V;
#define ROOFLINE_KERNEL_FIELD(Kind, Name) V.push_back(Name);
#include "roofline/Runtime/DescriptorFields.inc"
    return setFields(V, "roofline_kernel");
  }
};

/// roofline_part, roofline_loop and roofline_cost initializers, the same way.
struct PartFields {
#define ROOFLINE_PART_FIELD(Kind, Name) Constant *Name = nullptr;
#include "roofline/Runtime/DescriptorFields.inc"
  std::vector<Constant *> values() const {
    std::vector<Constant *> V;
#define ROOFLINE_PART_FIELD(Kind, Name) V.push_back(Name);
#include "roofline/Runtime/DescriptorFields.inc"
    return setFields(V, "roofline_part");
  }
};
struct LoopFields {
#define ROOFLINE_LOOP_FIELD(Kind, Name) Constant *Name = nullptr;
#include "roofline/Runtime/DescriptorFields.inc"
  std::vector<Constant *> values() const {
    std::vector<Constant *> V;
#define ROOFLINE_LOOP_FIELD(Kind, Name) V.push_back(Name);
#include "roofline/Runtime/DescriptorFields.inc"
    return setFields(V, "roofline_loop");
  }
};
struct CostFields {
#define ROOFLINE_COST_FIELD(Kind, Name) Constant *Name = nullptr;
#include "roofline/Runtime/DescriptorFields.inc"
  std::vector<Constant *> values() const {
    std::vector<Constant *> V;
#define ROOFLINE_COST_FIELD(Kind, Name) V.push_back(Name);
#include "roofline/Runtime/DescriptorFields.inc"
    return setFields(V, "roofline_cost");
  }
};

Constant *stringConstant(Module &M, StringRef S, const Twine &Name) {
  return IRBuilder<>(M.getContext()).CreateGlobalString(S, Name, 0, &M);
}

/// "index\tread\twritten\tfootprint read\tfootprint written\tread lo\t
/// read hi\twritten lo\twritten hi\n" per pointer parameter with traffic
/// (the runtime's ROOFLINE_TRACE follows buffers by these).
std::string pointerBytes(const StaticFormulas &SF) {
  std::string Out;
  for (const StaticFormulas::PointerBytes &P : SF.Pointers) {
    Out += std::to_string(P.Index);
    for (const std::string *F :
         {&P.Read, &P.Written, &P.FootprintRead, &P.FootprintWritten, &P.ReadLo,
          &P.ReadHi, &P.WrittenLo, &P.WrittenHi})
      Out += "\t" + *F;
    Out += "\n";
  }
  return Out;
}

} // namespace

DescriptorTypes::DescriptorTypes(LLVMContext &Ctx) {
  Type *I32 = Type::getInt32Ty(Ctx), *I64 = Type::getInt64Ty(Ctx);
  PointerType *Ptr = PointerType::getUnqual(Ctx);
  auto KindType = [&](FieldKind K) -> Type * {
    return K == FieldKind::U64                          ? I64
           : K == FieldKind::U32 || K == FieldKind::I32 ? I32
                                                        : Ptr;
  };
  SmallVector<Type *, 20> KernelTypes, CostTypes;
#define ROOFLINE_KERNEL_FIELD(Kind, Name)                                      \
  KernelTypes.push_back(KindType(FieldKind::Kind));
#define ROOFLINE_COST_FIELD(Kind, Name)                                        \
  CostTypes.push_back(KindType(FieldKind::Kind));
#include "roofline/Runtime/DescriptorFields.inc"
  Kernel = StructType::create(Ctx, KernelTypes, "roofline.kernel");
  Cost = StructType::create(Ctx, CostTypes, "roofline.cost");

  std::vector<Type *> PartTypes, LoopTypes;
#define ROOFLINE_PART_FIELD(Kind, Name)                                        \
  PartTypes.push_back(KindType(FieldKind::Kind));
#define ROOFLINE_LOOP_FIELD(Kind, Name)                                        \
  LoopTypes.push_back(KindType(FieldKind::Kind));
#include "roofline/Runtime/DescriptorFields.inc"
  Part = StructType::create(Ctx, PartTypes, "roofline.part");
  Loop = StructType::create(Ctx, LoopTypes, "roofline.loop");
}

std::pair<std::string, unsigned> sourceLocation(const Function &F) {
  DISubprogram *SP = F.getSubprogram();
  if (!SP)
    return {"", 0};
  return {InlinedFunctions::sourcePath(SP->getDirectory(), SP->getFilename()),
          SP->getLine()};
}

std::string paramList(const Function &F, const StaticFormulas &SF) {
  std::string Out;
  for (const Argument &A : F.args()) {
    std::string Name = A.getArgNo() < SF.Params.size() ? SF.Params[A.getArgNo()]
                       : A.hasName()                   ? A.getName().str()
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

/// The descriptor's loop rows, one per measured nest of \p L.
static std::vector<Constant *> loopConstants(Module &M, const DescriptorTypes &T,
                                             const CountLayout &L,
                                             const std::string &Base) {
  Type *I32 = Type::getInt32Ty(M.getContext());
  std::vector<Constant *> Loops;
  for (size_t I = 0; I < L.Nests.size(); ++I) {
    const Nest &N = L.Nests[I];
    std::string LoopFile =
        N.Start ? InlinedFunctions::sourcePath(N.Start->getDirectory(),
                                               N.Start->getFilename())
                : "";
    LoopFields LF;
    LF.Part = ConstantInt::get(I32, N.Part);
    LF.File = stringConstant(M, LoopFile,
                             Base + ".loop" + std::to_string(I) + ".file");
    LF.Line = ConstantInt::get(I32, N.Line);
    LF.Entries = ConstantInt::get(I32, N.Entries);
    LF.Entered = ConstantInt::get(I32, N.Entered);
    LF.Iterations = ConstantInt::get(I32, N.Iterations);
    LF.Ticks = ConstantInt::get(I32, N.Ticks);
    LF.Timed = ConstantInt::get(I32, N.Timed);
    LF.FewestIterations = ConstantInt::get(I32, N.Fewest);
    LF.MostIterations = ConstantInt::get(I32, N.Most);
    Loops.push_back(ConstantStruct::get(T.Loop, LF.values()));
  }
  return Loops;
}

void fillDescriptor(GlobalVariable &Desc, Function &F, const DescriptorTypes &T,
                    const CountLayout &L, const StaticFormulas &SF,
                    const InlinedFunctions &Sources, CarriedSummaries &Carried,
                    const DescriptorFacts &Facts) {
  Module &M = *F.getParent();
  LLVMContext &Ctx = M.getContext();
  Type *I32 = Type::getInt32Ty(Ctx), *I64 = Type::getInt64Ty(Ctx);
  PointerType *Ptr = PointerType::getUnqual(Ctx);
  auto Array = [&](Type *ElemTy, ArrayRef<Constant *> Elems,
                   const Twine &Name) -> Constant * {
    if (Elems.empty())
      return ConstantPointerNull::get(Ptr);
    ArrayType *T = ArrayType::get(ElemTy, Elems.size());
    return new GlobalVariable(M, T, true, GlobalValue::PrivateLinkage,
                              ConstantArray::get(T, Elems), Name);
  };
  std::string Base = "__roofline_" + F.getName().str();

  std::vector<Constant *> Costs;
  for (const CostEntry &C : L.Costs) {
    CostFields Cost;
    Cost.Counter = ConstantInt::get(I32, C.Counter);
    Cost.Slot = ConstantInt::get(I32, C.Slot);
    Cost.PerUnit = ConstantInt::get(I64, C.PerUnit);
    Cost.Part = ConstantInt::get(I32, C.Part);
    Cost.Nest = ConstantInt::get(I32, C.Nest);
    Costs.push_back(ConstantStruct::get(T.Cost, Cost.values()));
  }
  auto [File, Line] = sourceLocation(F);
  // The inlined kernels' own summaries, carried by their markers.
  std::map<const SourceFunction *, const CarriedKernel *> SummaryOf;
  for (Instruction &I : instructions(F))
    if (const SourceFunction *S = Sources.markerOf(I))
      if (const CarriedKernel *K = Carried.kernelOf(I))
        SummaryOf.emplace(S, K);
  std::vector<Constant *> Parts;
  for (size_t I = 0; I < L.Parts.size(); ++I) {
    const Part &P = L.Parts[I];
    std::string Tag = Base + ".part" + std::to_string(I);
    std::string Formula[3];
    bool FormulaExact = false;
    if (auto It = SummaryOf.find(P.Source); It != SummaryOf.end()) {
      const CarriedKernel &K = *It->second;
      Formula[0] = K.Flops;
      Formula[1] = K.Load;
      Formula[2] = K.Store;
      FormulaExact = K.Exact;
    }
    PartFields PF;
    PF.StaticFlops = stringConstant(M, Formula[0], Tag + ".flops");
    PF.StaticLoad = stringConstant(M, Formula[1], Tag + ".load");
    PF.StaticStore = stringConstant(M, Formula[2], Tag + ".store");
    PF.StaticExact = ConstantInt::get(I32, FormulaExact);
    PF.Name = stringConstant(M, P.Source ? P.Source->Name : F.getName().str(),
                             Tag + ".name");
    PF.File =
        stringConstant(M, P.Source ? P.Source->File : File, Tag + ".file");
    PF.Line = ConstantInt::get(I32, P.Source ? P.Source->Line : Line);
    PF.Kind = ConstantInt::get(I32, P.Kind);
    PF.Entries = ConstantInt::get(I32, P.Entries);
    PF.Footprint = ConstantInt::get(I32, P.FootprintKind);
    PF.FootprintBroken = ConstantInt::get(I32, P.FootprintBroken);
    std::string Uncounted;
    if (auto It = L.Uncounted.find(I); It != L.Uncounted.end())
      for (const std::string &Name : It->second)
        Uncounted += Name + "\n";
    PF.UncountedCalls = stringConstant(M, Uncounted, Tag + ".uncounted");
    Parts.push_back(ConstantStruct::get(T.Part, PF.values()));
  }
  std::vector<Constant *> Loops = loopConstants(M, T, L, Base);

  KernelFields K;
  K.Version = ConstantInt::get(I32, ROOFLINE_DESCRIPTOR_VERSION);
  K.NumCounters = ConstantInt::get(I32, L.NumCounters);
  K.NumCosts = ConstantInt::get(I32, L.Costs.size());
  K.NumLoops = ConstantInt::get(I32, L.Nests.size());
  K.Name = stringConstant(M, F.getName(), Base + ".name");
  K.File = stringConstant(M, File, Base + ".file");
  K.Line = ConstantInt::get(I32, Line);
  K.Id = ConstantInt::get(I32, uint32_t(-1));
  K.Costs = Array(T.Cost, Costs, Base + ".costs");
  K.NumParts = ConstantInt::get(I32, Parts.size());
  K.Parts = Array(T.Part, Parts, Base + ".parts");
  K.Loops = Array(T.Loop, Loops, Base + ".loops");
  K.StaticFlops = stringConstant(M, SF.Flops, Base + ".flops");
  K.StaticLoad = stringConstant(M, SF.Load, Base + ".load");
  K.StaticStore = stringConstant(M, SF.Store, Base + ".store");
  K.StaticExact = ConstantInt::get(I32, SF.Exact);
  K.NumSlots = ConstantInt::get(I32, NumRunSlots);
  K.Params = stringConstant(M, paramList(F, SF), Base + ".params");
  K.PointerBytes = stringConstant(M, pointerBytes(SF), Base + ".pointers");
  K.Footprint = ConstantInt::get(I32, !Facts.OwnKernel         ? 0
                                      : Facts.CountedFootprint ? 3
                                      : !Facts.Footprint       ? 0
                                      : SF.FootprintExact      ? 1
                                                               : 2);
  K.FootprintBroken =
      ConstantInt::get(I32, Facts.Footprint ? L.FootprintBroken : -1);
  K.Traced = ConstantInt::get(I32, Facts.Traced);
  Desc.setInitializer(ConstantStruct::get(T.Kernel, K.values()));
}

void registerDescriptors(Module &M, ArrayRef<GlobalVariable *> Descs) {
  LLVMContext &Ctx = M.getContext();
  PointerType *Ptr = PointerType::getUnqual(Ctx);
  // One constructor registers every descriptor of the module.
  Function *Ctor =
      Function::Create(FunctionType::get(Type::getVoidTy(Ctx), false),
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
}

std::optional<std::vector<Condition>>
conditionsOf(const std::vector<Assumption> &Assumptions) {
  std::vector<Condition> Out;
  for (const Assumption &A : Assumptions) {
    // The generated code computes in 64 bits.
    if (!A.isCondition() || A.Test.hasWideConstant())
      return std::nullopt;
    Out.push_back(A.Test);
  }
  return Out;
}

/// What the descriptor carries of a kernel's static summary.
StaticFormulas formulasOf(const KernelSummary *K) {
  if (!K)
    return StaticFormulas();
  const CountPolys &C = K->Totals;
  std::vector<std::string> Order = K->variableOrder();
  StaticFormulas SF{C.flops().str(Order),
                    C.bytes(Access::Load).str(Order),
                    C.bytes(Access::Store).str(Order),
                    K->Exact,
                    K->Params,
                    {}};
  const FootprintCounts &FP = K->Footprint.Total;
  if (FP.ReadAtLeast.isValid() && FP.WrittenAtLeast.isValid()) {
    SF.FootprintRead = FP.ReadAtLeast.str(Order);
    SF.FootprintWritten = FP.WrittenAtLeast.str(Order);
    SF.FootprintExact = FP.Exact;
    std::vector<Assumption> HoldsUnder = K->Assumptions;
    HoldsUnder.insert(HoldsUnder.end(), FP.Assumptions.begin(),
                      FP.Assumptions.end());
    SF.FootprintFormula[0] = FP.ReadAtLeast;
    SF.FootprintFormula[1] = FP.WrittenAtLeast;
    SF.FootprintTests = conditionsOf(HoldsUnder);
    SF.FootprintAssumes = !FP.Assumptions.empty();
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

} // namespace roofline
