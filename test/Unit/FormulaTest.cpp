// Unit tests of formula evaluation (the summary's formulas and --assume).
#include "roofline/Model/Formula.h"

#include <gtest/gtest.h>

using namespace roofline;

namespace {

TEST(Formula, EvaluatesTheSummaryGrammar) {
  std::map<std::string, double> V = {{"M", 2}, {"N", 3}, {"K", 4}, {"n", 10}};
  EXPECT_DOUBLE_EQ(*evaluateFormula("2*M*N*K + M*N", V), 54);
  EXPECT_DOUBLE_EQ(*evaluateFormula("(n^2 - n)/2", V), 45);
  EXPECT_DOUBLE_EQ(*evaluateFormula("6*n^2 - 24*n + 24", V), 384);
  EXPECT_DOUBLE_EQ(*evaluateFormula("-n + 3", V), -7);
  // floor() of an exact quotient: ceil(K/16) for K = 100 is 7.
  EXPECT_DOUBLE_EQ(*evaluateFormula("floor((K - 1)/16) + 1", {{"K", 100}}), 7);
  EXPECT_DOUBLE_EQ(*evaluateFormula("32*floor(K/16)", {{"K", 33}}), 64);
  EXPECT_DOUBLE_EQ(*evaluateFormula("blockDim.x*2", {{"blockDim.x", 128}}), 256);
}

TEST(Formula, MissingVariableIsAClearError) {
  Result<double> R = evaluateFormula("2*n*m", {{"n", 1}});
  ASSERT_FALSE(bool(R));
  EXPECT_EQ(R.error(), "formula '2*n*m' needs a value for 'm' (give it with "
                       "--assume m=VALUE)");
}

TEST(Formula, SyntaxErrorsSayWhere) {
  Result<double> R = evaluateFormula("2*(n", {{"n", 1}});
  ASSERT_FALSE(bool(R));
  EXPECT_EQ(R.error(), "formula '2*(n': expected ')' at column 5");
  EXPECT_FALSE(bool(evaluateFormula("", {})));
  EXPECT_FALSE(bool(evaluateFormula("n $ 2", {{"n", 1}})));
  // Deep nesting is refused, not a stack overflow.
  EXPECT_FALSE(bool(evaluateFormula(std::string(100000, '-') + "1", {})));
}

TEST(Formula, PolynomialKeepsFloorOpaque) {
  Result<Polynomial> P = formulaPolynomial("256*floor((K - 1)/16) + 256");
  ASSERT_TRUE(bool(P)) << P.error();
  EXPECT_EQ(P->variables(), std::set<std::string>{"floor((K - 1)/16)"});
  Result<Polynomial> Q = formulaPolynomial("(n^2 - n)/2");
  ASSERT_TRUE(bool(Q));
  EXPECT_EQ(Q->str(), "(n^2 - n)/2");
}

// Text is read once into a polynomial, and evaluated as one: a decimal is
// an exact rational (1.5*n at n = 4 is 6, and 0.1 + 0.2 is 3/10 exactly),
// a division by a variable outside a floor is not a count formula, and the
// unknown value has no size to take.
TEST(Formula, TextIsReadIntoOnePolynomial) {
  EXPECT_DOUBLE_EQ(*evaluateFormula("1.5*n", {{"n", 4}}), 6);
  Result<Polynomial> Tenths = formulaPolynomial("0.1 + 0.2");
  ASSERT_TRUE(bool(Tenths)) << Tenths.error();
  EXPECT_EQ(*Tenths->constantValue(), Rational(3, 10));
  Result<double> Ratio = evaluateFormula("n/m", {{"n", 4}, {"m", 2}});
  ASSERT_FALSE(bool(Ratio));
  EXPECT_EQ(Ratio.error(), "formula 'n/m': division by a non-constant");
  EXPECT_FALSE(bool(evaluateFormula("n^0.5", {{"n", 4}})));
  // floor(n/m) is a floor of two polynomials: 7/2 rounds down to 3.
  EXPECT_DOUBLE_EQ(*evaluateFormula("floor(n/m) + 1", {{"n", 7}, {"m", 2}}), 4);
  Result<double> Unknown = evaluateAtLargeSizes("unknown + n", {});
  ASSERT_FALSE(bool(Unknown));
  EXPECT_NE(Unknown.error().find("needs a value for 'unknown'"), std::string::npos);
  // Terms that cancel name no variable: n - n + 2 needs no n.
  EXPECT_DOUBLE_EQ(*evaluateFormula("n - n + 2", {}), 2);
}

// A summary writes a coefficient as a ratio of 64-bit integers; those past
// a double's 2^53 are read exactly (issue 52: llm.c's training step wrote
// 10332931395676725/72057594037927936*trip_L1712, which both tools
// rejected as "constant too large or not exact").
TEST(Formula, WideIntegersAreExact) {
  Result<Polynomial> P =
      formulaPolynomial("10332931395676725/72057594037927936*t + 9007199254740993");
  ASSERT_TRUE(bool(P)) << P.error();
  Polynomial Want =
      Polynomial(Rational(10332931395676725, 72057594037927936)) *
          Polynomial::variable("t") +
      Polynomial(Rational(9007199254740993)); // 2^53 + 1: no double holds it
  EXPECT_TRUE(*P == Want) << P->str();
  EXPECT_NEAR(*evaluateFormula("10332931395676725/72057594037927936*t", {{"t", 1e6}}),
              143398.2293, 1e-3); // 0.1433982293... x 10^6
  // Past 64 bits a number is no exact coefficient.
  EXPECT_FALSE(bool(formulaPolynomial("99999999999999999999*t")));
}

// The footprint's order: every atom at 2^20, signed, thread indices too.
TEST(Formula, OrderAtLargeSizes) {
  EXPECT_DOUBLE_EQ(orderAtLargeSizes(*formulaPolynomial("n - 2*m")), -1048576.0);
  EXPECT_DOUBLE_EQ(orderAtLargeSizes(*formulaPolynomial("threadIdx.x + 1")),
                   1048577.0);
  EXPECT_DOUBLE_EQ(orderAtLargeSizes(Polynomial::invalid()), 0);
}

TEST(Formula, Assignments) {
  auto V = parseAssignments("n=4096,M=1.5e3");
  ASSERT_TRUE(bool(V)) << V.error();
  EXPECT_EQ((*V)["n"], 4096);
  EXPECT_EQ((*V)["M"], 1500);
  EXPECT_EQ(parseAssignments("n").error(), "'n': expected NAME=VALUE");
  EXPECT_EQ(parseAssignments("n=abc").error(), "'n=abc': value must be a number");
}

// guards.cu's thread_start: the trip of `for (y = 2*threadIdx.y +
// threadIdx.x/8; y < 128; y += 32)` is ceil((128 - y0)/32) per thread.
// A 16x16 block has y0 in 0..31: 4 each. A 32x32 block has y0 = 2ty + q
// (q = tx/8 in 0..3, 8 threads each): 3552 iterations over 1024 threads
// (by enumeration, 2..4 each), a mean of 3.46875.
TEST(Formula, PerThreadMeanRunsThroughTheBlock) {
  const std::string Trip = "floor((-floor(threadIdx.x/8) - 2*threadIdx.y + 159)/32)";
  LaunchDims Small, Large;
  Small.Block[0] = Small.Block[1] = 16;
  Large.Block[0] = Large.Block[1] = 32;
  EXPECT_DOUBLE_EQ(*evaluatePerThreadMean(Trip, {}, Small), 4.0);
  EXPECT_DOUBLE_EQ(*evaluatePerThreadMean(Trip, {}, Large), 3.46875);
  // blockDim comes from the launch; a thread past the range counts 0, not
  // a negative count: 256 - 2*threadIdx.x over threadIdx.x in 0..255 is
  // 256, 254, ..., 2 for the first 128 threads (sum 129*128) and 0 after.
  LaunchDims Row;
  Row.Block[0] = 256;
  EXPECT_DOUBLE_EQ(*evaluatePerThreadMean("blockDim.x - 2*threadIdx.x", {}, Row),
                   129.0 * 128 / 256);
  // The lane is the linear thread index modulo 32; blockIdx runs the grid.
  LaunchDims Warps;
  Warps.Block[0] = 64;
  Warps.Grid[0] = 3;
  EXPECT_DOUBLE_EQ(*evaluatePerThreadMean("laneid", {}, Warps), 15.5);
  EXPECT_DOUBLE_EQ(*evaluatePerThreadMean("blockIdx.x*n", {{"n", 2}}, Warps), 2.0);
  EXPECT_TRUE(mentionsThreadIndex("floor(threadIdx.x/8)"));
  EXPECT_FALSE(mentionsThreadIndex("blockDim.x*n"));
  Result<double> Missing = evaluatePerThreadMean("threadIdx.x + n", {}, Row);
  ASSERT_FALSE(bool(Missing));
  EXPECT_NE(Missing.error().find("needs a value for 'n'"), std::string::npos);
}

} // namespace

namespace {

// The large-size limit of a polynomial (the compile-time judgement's, no
// text in between) agrees with that of its text: given sizes, the rest at
// LargeSize = 2^20, thread indices at the first thread's 0, floors with
// their slack, and a negative count as 0.
TEST(Formula, LargeSizesOfAPolynomialAgreeWithItsText) {
  for (const char *Text :
       {"2*M*N*K + M*N", "(n^2 - n)/2", "4*floor((n - 1)/3) + 4",
        "blockDim.x*gridDim.x - threadIdx.x", "n - 2*m", "7"}) {
    Result<Polynomial> P = formulaPolynomial(Text);
    ASSERT_TRUE(bool(P)) << Text;
    std::set<std::string> FromText, FromPolynomial;
    Result<double> T = evaluateAtLargeSizes(Text, {{"M", 3}}, &FromText);
    Result<double> V = evaluateAtLargeSizes(*P, {{"M", 3}}, &FromPolynomial);
    ASSERT_TRUE(T && V) << Text;
    EXPECT_DOUBLE_EQ(*T, *V) << Text;
    EXPECT_EQ(FromText, FromPolynomial) << Text;
  }
  // By hand: (n^2 - n)/2 at n = 2^20 is 2^39 - 2^19; n - 2*m is negative: 0;
  // M = 3 given, N and K not: 2*3*2^40 + 3*2^20.
  std::set<std::string> Unbound;
  EXPECT_DOUBLE_EQ(*evaluateAtLargeSizes(*formulaPolynomial("(n^2 - n)/2"), {}),
                   549755813888.0 - 524288.0);
  EXPECT_DOUBLE_EQ(*evaluateAtLargeSizes(*formulaPolynomial("n - 2*m"), {}), 0);
  EXPECT_DOUBLE_EQ(
      *evaluateAtLargeSizes(*formulaPolynomial("2*M*N*K + M*N"), {{"M", 3}},
                            &Unbound),
      6.0 * 1099511627776.0 + 3.0 * 1048576.0);
  EXPECT_EQ(Unbound, (std::set<std::string>{"K", "N"}));
  EXPECT_FALSE(bool(evaluateAtLargeSizes(Polynomial::variable("unknown"), {})));
}

} // namespace

// A variable is its kind and its name. Text read with the kernel's
// parameter list keeps a parameter a parameter whatever it is called (a C
// parameter may be `unknown`, `vscale`, `laneid` or `trip_L3`); without the
// list the spelling types it, as summaries name the built-ins.
TEST(Formula, ParametersStayParametersWhateverTheirNames) {
  const std::vector<std::string> Params = {"unknown", "vscale", "laneid",
                                           "trip_L3"};
  for (const std::string &Name : Params) {
    Result<Polynomial> Typed = formulaPolynomial("4*" + Name, &Params);
    ASSERT_TRUE(Typed) << Name;
    ASSERT_EQ(Typed->atoms().size(), 1u);
    EXPECT_EQ(Typed->atoms()[0].kind(), AtomKind::Parameter) << Name;
    Result<Polynomial> Spelled = formulaPolynomial("4*" + Name);
    ASSERT_TRUE(Spelled);
    EXPECT_NE(Spelled->atoms()[0].kind(), AtomKind::Parameter) << Name;
    // Two atoms of one name and two kinds are two atoms.
    EXPECT_NE(Typed->atoms()[0], Spelled->atoms()[0]) << Name;
    EXPECT_FALSE(*Typed == *Spelled) << Name;
  }
  // A parameter named `unknown` takes the large size, as any size does;
  // the unknown value has none to take.
  std::set<std::string> Unbound;
  EXPECT_DOUBLE_EQ(*evaluateAtLargeSizes("4*unknown", {}, &Unbound, {}, &Params),
                   4 * LargeSize);
  EXPECT_EQ(Unbound, std::set<std::string>{"unknown"});
  EXPECT_FALSE(evaluateAtLargeSizes("4*unknown", {}));
  // A parameter named `laneid` is not the lane: a per-thread formula does
  // not run through the block for it, and it needs its value.
  EXPECT_FALSE(mentionsThreadIndex("laneid + 1", &Params));
  EXPECT_TRUE(mentionsThreadIndex("laneid + 1"));
  EXPECT_DOUBLE_EQ(*evaluatePerThreadMean("laneid", {{"laneid", 7}}, {}, &Params), 7);
  EXPECT_FALSE(evaluatePerThreadMean("laneid", {}, {}, &Params));
}
