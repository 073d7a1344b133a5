// Unit tests of the LLVM side of the analysis (lib/Analysis, linked as a
// library): the cost of single instructions (CostModel) and
// ScalarEvolution's expressions as polynomials (SCEVPolynomial), on IR
// parsed from text, with no pass pipeline around them.
#include "roofline/Analysis/CostModel.h"
#include "roofline/Analysis/SCEVPolynomial.h"

#include "llvm/Analysis/AssumptionCache.h"
#include "llvm/Analysis/LoopInfo.h"
#include "llvm/Analysis/ScalarEvolution.h"
#include "llvm/Analysis/TargetLibraryInfo.h"
#include "llvm/AsmParser/Parser.h"
#include "llvm/IR/Dominators.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/SourceMgr.h"

#include <gtest/gtest.h>

using namespace llvm;
using namespace roofline;

namespace {

std::unique_ptr<Module> parse(LLVMContext &Ctx, const char *IR) {
  SMDiagnostic Err;
  std::unique_ptr<Module> M = parseAssemblyString(IR, Err, Ctx);
  if (!M)
    ADD_FAILURE() << Err.getMessage().str();
  return M;
}

/// The instruction of \p F whose name is \p Name.
const Instruction &named(const Function &F, StringRef Name) {
  for (const Instruction &I : instructions(F))
    if (I.getName() == Name)
      return I;
  ADD_FAILURE() << "no instruction %" << Name.str();
  return *F.getEntryBlock().begin();
}

int64_t flops(const OpCost &C, Precision P, FlopClass K) {
  return C.Fixed.Slots[flopSlot(P, K)];
}
int64_t bytes(const OpCost &C, Access A) {
  return C.Fixed.Slots[byteSlot(MemSpace::Memory, A)];
}

// Each operation's lanes: a <4 x float> multiply is 4 fp32 multiplies, an
// fma intrinsic on double 1 FMA, a <8 x float> store 32 bytes to memory;
// address arithmetic counts no work.
TEST(CostModel, CountsOperationsByPrecisionClassAndLane) {
  LLVMContext Ctx;
  std::unique_ptr<Module> M = parse(Ctx, R"IR(
    declare double @llvm.fma.f64(double, double, double)
    define void @k(ptr %x, ptr %y, double %a, double %b) {
      %p = getelementptr float, ptr %x, i64 4
      %v = load <4 x float>, ptr %p
      %m = fmul <4 x float> %v, %v
      %s = fadd float 1.0, 2.0
      %f = call double @llvm.fma.f64(double %a, double %b, double %a)
      %w = shufflevector <4 x float> %m, <4 x float> %m, <8 x i32> <i32 0, i32 1, i32 2, i32 3, i32 4, i32 5, i32 6, i32 7>
      store <8 x float> %w, ptr %y
      ret void
    })IR");
  ASSERT_TRUE(M);
  const Function &F = *M->getFunction("k");
  CostModel CM(F);
  EXPECT_EQ(flops(CM.costOf(named(F, "m")), Precision::FP32, FlopClass::Mul), 4);
  EXPECT_EQ(flops(CM.costOf(named(F, "s")), Precision::FP32, FlopClass::Add), 1);
  EXPECT_EQ(flops(CM.costOf(named(F, "f")), Precision::FP64, FlopClass::FMA), 1);
  EXPECT_EQ(bytes(CM.costOf(named(F, "v")), Access::Load), 16);
  const Instruction &Store = *std::prev(F.getEntryBlock().end(), 2);
  ASSERT_TRUE(isa<StoreInst>(Store));
  EXPECT_EQ(bytes(CM.costOf(Store), Access::Store), 32);
  OpCost Gep = CM.costOf(named(F, "p"));
  for (int64_t Slot : Gep.Fixed.Slots)
    EXPECT_EQ(Slot, 0);
  // The pointer parameters the accesses go through.
  EXPECT_EQ(CM.parameterOf(&named(F, "p")), std::optional<unsigned>(0));
}

/// ScalarEvolution of a function's loops, and what it needs.
struct LoopAnalyses {
  explicit LoopAnalyses(Function &F)
      : TLII(F.getParent()->getTargetTriple()), TLI(TLII), AC(F), DT(F),
        LI(DT), SE(F, TLI, AC, DT, LI) {}
  TargetLibraryInfoImpl TLII;
  TargetLibraryInfo TLI;
  AssumptionCache AC;
  DominatorTree DT;
  LoopInfo LI;
  ScalarEvolution SE;
};

/// Function @k of \p IR, whose one top-level loop the tests read.
struct OneLoop {
  explicit OneLoop(const char *IR)
      : M(parse(Ctx, IR)), F(*M->getFunction("k")), A(F),
        L(A.LI.getTopLevelLoops().front()) {}
  LLVMContext Ctx;
  std::unique_ptr<Module> M;
  Function &F;
  LoopAnalyses A;
  const Loop *L;
};

std::optional<std::string> parameterName(const Value *V) {
  if (const auto *A = dyn_cast<Argument>(V))
    return A->getName().str();
  return std::nullopt;
}

// A loop `for (i = 0; i < n; i += 2)` over a signed 32-bit n: its
// backedge-taken count is floor((n - 1)/2) for n >= 1, which the
// translation states; a parameter named `unknown` stays a parameter.
TEST(SCEVPolynomial, TripCountOfAStridedLoop) {
  OneLoop K(R"IR(
    define void @k(i32 %unknown, ptr %x) {
    entry:
      %guard = icmp sgt i32 %unknown, 0
      br i1 %guard, label %loop, label %exit
    loop:
      %i = phi i32 [ 0, %entry ], [ %next, %loop ]
      %next = add nsw i32 %i, 2
      %more = icmp slt i32 %next, %unknown
      br i1 %more, label %loop, label %exit
    exit:
      ret void
    })IR");
  ASSERT_EQ(K.A.LI.getTopLevelLoops().size(), 1u);
  const SCEV *Taken = K.A.SE.getBackedgeTakenCount(K.L);
  ASSERT_FALSE(isa<SCEVCouldNotCompute>(Taken));
  SCEVPolynomial Translate(K.A.SE, parameterName);
  std::optional<Polynomial> P = Translate.translate(Taken);
  ASSERT_TRUE(P) << Translate.reason();
  ASSERT_EQ(P->atoms().size(), 1u);
  Atom Floor = P->atoms().front();
  ASSERT_EQ(Floor.kind(), AtomKind::Floor);
  ASSERT_NE(Floor.numerator(), nullptr);
  for (const Atom &V : Floor.numerator()->atoms())
    EXPECT_EQ(V.kind(), AtomKind::Parameter) << V.name();
  // The trip count at n = 7 is 4 (i = 0, 2, 4, 6): 3 back edges.
  EXPECT_EQ(P->evaluate({{"unknown", 7}}), std::optional<double>(3));
  EXPECT_EQ(P->evaluate({{"unknown", 8}}), std::optional<double>(3));
}

// The add recurrence of a bound loop is its induction variable.
TEST(SCEVPolynomial, AddRecurrenceOfABoundLoop) {
  OneLoop K(R"IR(
    define void @k(i64 %n, ptr %x) {
    entry:
      br label %loop
    loop:
      %i = phi i64 [ 0, %entry ], [ %next, %loop ]
      %off = mul nsw nuw i64 %i, 3
      %next = add nsw nuw i64 %i, 1
      %more = icmp ult i64 %next, %n
      br i1 %more, label %loop, label %exit
    exit:
      ret void
    })IR");
  SCEVPolynomial Translate(K.A.SE, parameterName);
  Translate.bindLoop(K.L, "i");
  const Value *Off = &named(K.F, "off");
  std::optional<Polynomial> P =
      Translate.translate(K.A.SE.getSCEV(const_cast<Value *>(Off)));
  ASSERT_TRUE(P) << Translate.reason();
  EXPECT_EQ(P->str(), "3*i");
}

} // namespace
