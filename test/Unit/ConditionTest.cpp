// Unit tests of assumptions read as typed conditions (Condition.h): the
// texts below are the forms the analysis writes.
#include "roofline/Model/Condition.h"

#include <gtest/gtest.h>

using namespace roofline;

namespace {

Assumption read(const std::string &Text) {
  Result<Assumption> A = parseAssumption(Text);
  EXPECT_TRUE(bool(A)) << (A ? "" : A.error());
  return A ? *A : Assumption();
}

TEST(Condition, ReadsAGuardAndWhereItComesFrom) {
  Assumption A = read("n > 4 && m > 8 (guard at g2.c:2)");
  EXPECT_EQ(A.Origin, " (guard at g2.c:2)");
  ASSERT_EQ(A.Test.K, Condition::Kind::All);
  ASSERT_EQ(A.Test.Parts.size(), 2u);
  EXPECT_EQ(A.Test.Parts[0].K, Condition::Kind::Compare);
  EXPECT_EQ(A.Test.Parts[0].Op, Comparison::GT);
  EXPECT_EQ(A.Test.Parts[1].Lhs.str(), "m");
  EXPECT_EQ(A.Test.str(), "n > 4 && m > 8");
  // Both must hold: n = 5 with m = 8 breaks it.
  EXPECT_EQ(A.Test.holds({{"n", 5}, {"m", 9}}), std::optional<bool>(true));
  EXPECT_EQ(A.Test.holds({{"n", 5}, {"m", 8}}), std::optional<bool>(false));
  EXPECT_EQ(A.Test.holds({{"n", 5}}), std::nullopt);
  EXPECT_EQ(*A.Test.variables(), (std::set<std::string>{"m", "n"}));
}

TEST(Condition, ReadsTheOtherOrigins) {
  // A trip count's range, a footprint's lattice for an array, a callee's.
  Assumption Loop = read("floor((n - 1)/3) >= 0 (loop 'for.body')");
  EXPECT_EQ(Loop.Origin, " (loop 'for.body')");
  EXPECT_EQ(Loop.Test.K, Condition::Kind::Compare);
  // n = 1: floor(0/3) = 0 >= 0; n = -5: floor(-6/3) = -2.
  EXPECT_EQ(Loop.Test.holds({{"n", 1}}), std::optional<bool>(true));
  EXPECT_EQ(Loop.Test.holds({{"n", -5}}), std::optional<bool>(false));
  EXPECT_EQ(read("m - 1 >= 0 for a").Origin, " for a");
  EXPECT_EQ(read("n > 0 (guard at the entry of g) in g").Origin,
            " (guard at the entry of g) in g");
  EXPECT_EQ(read("m + 2 <= 4294967295 (loop at f.c:4) in g").Test.Rhs.str(),
            "4294967295");
  EXPECT_EQ(read("n - m - 1 >= 0").Origin, "");
}

TEST(Condition, ParenthesesOfFormulasAreNotOrigins) {
  // "(n^2 - n)/2" starts with a parenthesis, and " (" after an operator is
  // the formula's.
  Assumption A = read("(n^2 - n)/2 >= m + (k + 1)/2 (guard at x.c:9)");
  EXPECT_EQ(A.Origin, " (guard at x.c:9)");
  EXPECT_EQ(A.Test.holds({{"n", 4}, {"m", 4}, {"k", 3}}),
            std::optional<bool>(true)); // 6 >= 6
  // A disjunction inside a conjunction, in parentheses.
  Assumption B = read("(n > 4 || m > 8) && k != 0 (guard at y.c:1)");
  ASSERT_EQ(B.Test.K, Condition::Kind::All);
  EXPECT_EQ(B.Test.Parts[0].K, Condition::Kind::Any);
  EXPECT_EQ(B.Test.str(), "(n > 4 || m > 8) && k != 0");
  EXPECT_EQ(B.Test.holds({{"n", 1}, {"m", 9}, {"k", 1}}),
            std::optional<bool>(true));
  EXPECT_EQ(B.Test.holds({{"n", 1}, {"m", 8}, {"k", 1}}),
            std::optional<bool>(false));
  // A group of comparisons last, then the origin.
  Assumption C = read("k != 0 && (n > 4 || m > 8) (guard at y.c:2)");
  EXPECT_EQ(C.Origin, " (guard at y.c:2)");
  EXPECT_EQ(C.Test.str(), "k != 0 && (n > 4 || m > 8)");
  // A formula's group last is not a comparison: "(n - 1)/2" stays whole.
  EXPECT_EQ(read("m >= (n - 1)/2 (loop 'l')").Origin, " (loop 'l')");
}

TEST(Condition, BadTextIsAnError) {
  EXPECT_FALSE(bool(parseAssumption("the loop runs")));
  EXPECT_FALSE(bool(parseAssumption("n > (m")));
  EXPECT_FALSE(bool(parseAssumption("")));
  Result<Assumption> R = parseAssumption("n >= 0 >= m");
  ASSERT_FALSE(bool(R));
  EXPECT_EQ(R.error(), "assumption 'n >= 0 >= m': 'n >= 0 >= m': more than "
                       "one comparison");
  // An unknown value cannot be tested from variables.
  EXPECT_EQ(read("unknown > 0").Test.variables(), std::nullopt);
}

TEST(Condition, MadeTypedIsWrittenAsTheAnalysisWritesIt) {
  Polynomial N = Polynomial::variable("n"), M = Polynomial::variable("m");
  // A guard `(i < n && j < m) || k > 0` that holds, whose first part also
  // relies on its operand's range: the conjunction inside the disjunction
  // is parenthesised, and the text reads back as the same condition.
  Condition Inner = Condition::junction(
      true, {Condition::compare(M + N, Comparison::LT, Polynomial(8)),
             Condition::compare(N, Comparison::LE, int64_t(2147483647))});
  Condition C = Condition::junction(
      false, {Inner, Condition::compare(M, Comparison::GT, Polynomial(0))});
  Assumption A = Assumption::of(C, " (guard at g.c:3)", {"n", "m"});
  EXPECT_EQ(A.str(),
            "(n + m < 8 && n <= 2147483647) || m > 0 (guard at g.c:3)");
  // The variables' order is the stating function's parameters'.
  A.Order = {"m", "n"};
  EXPECT_EQ(A.Test.Parts[0].str(A.Order), "m + n < 8 && n <= 2147483647");
  Assumption Back = read(A.str());
  EXPECT_EQ(Back.Origin, " (guard at g.c:3)");
  EXPECT_EQ(Back.Test.holds({{"n", 1}, {"m", 0}}), std::optional<bool>(true));
  EXPECT_EQ(Back.Test.holds({{"n", 9}, {"m", 0}}), std::optional<bool>(false));
}

TEST(Condition, AnUnsigned64BitRangeIsPast64BitPolynomials) {
  // `n + m <= 2^64 - 1`: no Polynomial holds the bound, the condition does.
  __int128 Max = (__int128(1) << 64) - 1;
  Condition C =
      Condition::compare(Polynomial::variable("n"), Comparison::LE, Max);
  ASSERT_TRUE(C.WideRhs.has_value());
  EXPECT_TRUE(C.hasWideConstant());
  EXPECT_EQ(C.str(), "n <= 18446744073709551615");
  EXPECT_EQ(C.holds({{"n", 5}}), std::optional<bool>(true));
  EXPECT_EQ(*C.variables(), (std::set<std::string>{"n"}));
  // A bound that fits stays a polynomial.
  EXPECT_FALSE(Condition::compare(Polynomial::variable("n"), Comparison::GE,
                                  __int128(-9223372036854775807LL - 1))
                   .WideRhs.has_value());
}

TEST(Condition, WordsAreAnAssumptionWithoutATest) {
  Assumption W = Assumption::words("counts are per thread");
  EXPECT_FALSE(W.isCondition());
  EXPECT_EQ(W.str(), "counts are per thread");
  EXPECT_EQ(
      Assumption::nonNegative(Polynomial::variable("n") - Polynomial(4)).str(),
      "n - 4 >= 0");
  EXPECT_TRUE(Assumption::nonNegative(Polynomial::variable("n")) ==
              read("n >= 0"));
}

} // namespace

// A summary's assumption names its kernel's parameters, whatever they are
// called: read with the kernel's parameter list, `unknown` and `laneid`
// are parameters (and the launch's values decide it); read by spelling,
// they are the unknown value and the GPU lane, other variables.
TEST(Condition, AssumptionsReadWithTheKernelsParameters) {
  const std::vector<std::string> Params = {"unknown", "laneid", "n"};
  const std::map<std::string, double> Values = {
      {"unknown", 10}, {"laneid", 3}, {"n", 20}};
  Result<Assumption> Typed =
      parseAssumption("2*unknown >= n && laneid < n (guard at x.c:4)", &Params);
  ASSERT_TRUE(Typed) << Typed.error();
  ASSERT_TRUE(Typed->isCondition());
  EXPECT_EQ(Typed->Test.holds(Values), std::optional<bool>(true));
  EXPECT_EQ(Typed->Test.holds({{"unknown", 9}, {"laneid", 3}, {"n", 20}}),
            std::optional<bool>(false));
  ASSERT_EQ(Typed->Test.Parts.size(), 2u);
  for (const Condition &Part : Typed->Test.Parts)
    for (const Atom &A : Part.Lhs.atoms())
      EXPECT_EQ(A.kind(), AtomKind::Parameter) << A.name();
  Result<Assumption> Spelled =
      parseAssumption("2*unknown >= n && laneid < n (guard at x.c:4)");
  ASSERT_TRUE(Spelled);
  ASSERT_EQ(Spelled->Test.Parts.size(), 2u);
  for (const Condition &Part : Spelled->Test.Parts)
    for (const Atom &A : Part.Lhs.atoms())
      EXPECT_NE(A.kind(), AtomKind::Parameter) << A.name();
  EXPECT_FALSE(Typed->Test.Parts[0].Lhs == Spelled->Test.Parts[0].Lhs);
}
