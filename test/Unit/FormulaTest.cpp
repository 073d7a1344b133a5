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

TEST(Formula, Assignments) {
  auto V = parseAssignments("n=4096,M=1.5e3");
  ASSERT_TRUE(bool(V)) << V.error();
  EXPECT_EQ((*V)["n"], 4096);
  EXPECT_EQ((*V)["M"], 1500);
  EXPECT_EQ(parseAssignments("n").error(), "'n': expected NAME=VALUE");
  EXPECT_EQ(parseAssignments("n=abc").error(), "'n=abc': value must be a number");
}

} // namespace
