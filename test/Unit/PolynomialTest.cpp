// Unit tests of the closed-form arithmetic behind every count formula.
#include "roofline/Analysis/KernelSummary.h"
#include "roofline/Model/Formula.h"
#include "roofline/Model/Polynomial.h"

#include <gtest/gtest.h>

using namespace roofline;

namespace {

Polynomial var(const char *N) { return Polynomial::variable(N); }

TEST(Rational, NormalisesSignAndGcd) {
  Rational R(6, -4);
  EXPECT_EQ(R.num(), -3);
  EXPECT_EQ(R.den(), 2);
  EXPECT_EQ(R.str(), "-3/2");
  EXPECT_EQ((Rational(1, 2) + Rational(1, 3)).str(), "5/6");
}

TEST(Rational, OverflowBecomesInvalidNotWrong) {
  Rational Big(INT64_MAX / 2 + 1);
  EXPECT_FALSE((Big * Rational(4)).isValid());
  EXPECT_FALSE(Rational(1, 0).isValid());
  EXPECT_FALSE((Rational::invalid() + Rational(1)).isValid());
}

TEST(Rational, IntegerShortcutsOverflowAsTheGeneralPath) {
  // Integers add and multiply without a divisor; the range is the same:
  // |num| <= INT64_MAX, so INT64_MIN is invalid, as a fraction's would be.
  EXPECT_EQ((Rational(INT64_MAX - 1) + Rational(1)).num(), INT64_MAX);
  EXPECT_FALSE((Rational(INT64_MAX) + Rational(1)).isValid());
  EXPECT_FALSE((Rational(-INT64_MAX) - Rational(1)).isValid());
  EXPECT_FALSE((Rational(INT64_MAX) * Rational(-2)).isValid());
  EXPECT_EQ((Rational(-3) * Rational(5)).num(), -15);
  EXPECT_EQ((Rational(3, 2) * Rational(2)).str(), "3");
}

TEST(Polynomial, LongMonomialsLeaveTheirTerm) {
  // Up to four atoms live in the term; a fifth moves them to the heap.
  // Copies, moves, products and sums agree either way.
  Polynomial P(1);
  for (const char *N : {"a", "b", "c", "d", "e", "f"})
    P = P * var(N);
  EXPECT_EQ(P.str(), "a*b*c*d*e*f");
  Polynomial Copy = P;
  Polynomial Moved = std::move(Copy);
  EXPECT_EQ(Moved, P);
  EXPECT_EQ((P * P).str(), "a^2*b^2*c^2*d^2*e^2*f^2");
  EXPECT_EQ((P + P - P * Polynomial(2)).str(), "0");
  EXPECT_EQ((P - var("a")).str(), "a*b*c*d*e*f - a");
  Polynomial Four = var("a") * var("b") * var("c") * var("d");
  EXPECT_EQ((Four * var("e")).terms().front().first.size(), 5u);
  EXPECT_EQ(*P.evaluate({{"a", 1}, {"b", 2}, {"c", 3}, {"d", 4}, {"e", 5},
                          {"f", 6}}),
            720.0);
}

TEST(Polynomial, AddScaledIsTheSumOfTheProduct) {
  Polynomial N = var("n"), M = var("m");
  Polynomial Acc = N * M + Polynomial(3);
  Polynomial Expect = Acc + (N + M) * Polynomial(Rational(-5, 2));
  Acc.addScaled(N + M, Rational(-5, 2));
  EXPECT_EQ(Acc, Expect);
  Acc.addScaled(N, Rational(0)); // adds nothing
  EXPECT_EQ(Acc, Expect);
  Polynomial Big = Polynomial(Rational(INT64_MAX / 2 + 1)) + N;
  Polynomial Sum = N;
  Sum.addScaled(Big, Rational(4)); // the product overflows
  EXPECT_FALSE(Sum.isValid());
  Polynomial Z = N;
  Z.addScaled(Polynomial::invalid(), Rational(0)); // invalid stays invalid
  EXPECT_FALSE(Z.isValid());
}

TEST(Polynomial, PrintsInParameterOrder) {
  // 2*M*N*K + M*N: the GEMM of the issue, printed in the kernel's order.
  Polynomial P = Polynomial(2) * var("M") * var("N") * var("K") +
                 var("M") * var("N");
  EXPECT_EQ(P.str({"M", "N", "K"}), "2*M*N*K + M*N");
  EXPECT_EQ(P.str(), "2*K*M*N + M*N"); // by name without an order
}

TEST(Polynomial, PrintsFractionsOverACommonDenominator) {
  Polynomial N = var("n");
  Polynomial Tri = (N * N - N) * Polynomial(Rational(1, 2));
  EXPECT_EQ(Tri.str(), "(n^2 - n)/2");
  EXPECT_EQ(Polynomial().str(), "0");
  EXPECT_EQ((N * Polynomial(Rational(3, 2))).str(), "3*n/2");
  EXPECT_EQ((Polynomial(0) - N).str(), "-n");
}

TEST(Polynomial, HugeDenominatorsPrintPerTerm) {
  // Found by fuzzing: the common denominator of 1/(2^40) and 1/(3^30) does
  // not fit in 64 bits; each term then keeps its own.
  Polynomial P = var("a") * Polynomial(Rational(1, int64_t(1) << 40)) +
                 var("b") * Polynomial(Rational(1, 205891132094649));
  EXPECT_EQ(P.str(), "1/1099511627776*a + 1/205891132094649*b");
}

TEST(Polynomial, SumOverRangeIsFaulhaber) {
  Polynomial N = var("n"), I = var("i");
  // sum_{i=0}^{n-1} 1 = n
  EXPECT_EQ(Polynomial(1).sumOver("i", N), N);
  // sum_{i=0}^{n-1} i = n(n-1)/2: the triangular nest.
  EXPECT_EQ(I.sumOver("i", N).str(), "(n^2 - n)/2");
  // sum i^2 = (n-1)n(2n-1)/6 = (2n^3 - 3n^2 + n)/6
  EXPECT_EQ((I * I).sumOver("i", N).str(), "(2*n^3 - 3*n^2 + n)/6");
  // sum i^3 = (n(n-1)/2)^2 = (n^4 - 2n^3 + n^2)/4
  EXPECT_EQ((I * I * I).sumOver("i", N).str(), "(n^4 - 2*n^3 + n^2)/4");
  // Other variables are coefficients: sum_{i<n} (m*i + 3) = m(n^2-n)/2 + 3n
  EXPECT_EQ((var("m") * I + Polynomial(3)).sumOver("i", N).str({"n", "m"}),
            "(n^2*m - n*m + 6*n)/2");
}

TEST(Polynomial, SumOverMatchesBruteForce) {
  // sum_{i=0}^{T-1} (i^4 + 2i) for T = 0..12, against a loop.
  Polynomial I = var("i");
  Polynomial Body = I * I * I * I + Polynomial(2) * I;
  Polynomial Closed = Body.sumOver("i", var("T"));
  for (int T = 0; T <= 12; ++T) {
    int64_t Loop = 0;
    for (int64_t X = 0; X < T; ++X)
      Loop += X * X * X * X + 2 * X;
    // Exact: substitute the value and read back the rational constant.
    auto Value = Closed.substitute({{"T", Polynomial(int64_t(T))}}).constantValue();
    ASSERT_TRUE(Value.has_value());
    EXPECT_EQ(*Value, Rational(Loop)) << "T=" << T;
  }
}

TEST(Polynomial, SubstituteIsSimultaneous) {
  Polynomial P = var("a") * var("b");
  Polynomial Q = P.substitute({{"a", var("b")}, {"b", var("a") + Polynomial(1)}});
  EXPECT_EQ(Q.str(), "a*b + b");
}

// The one substitution (the analysis's calls, the footprints', the
// audit's launches): a floor takes the values in its operands.
TEST(Polynomial, SubstituteReachesIntoFloors) {
  Polynomial F = Polynomial::floorOf(var("n") + Polynomial(3), 4) * var("m");
  // A constant operand: the floor's exact value, floor(15/4) = 3.
  EXPECT_EQ(F.substitute({{"n", Polynomial(12)}}).str(), "3*m");
  // A renamed operand: the floor of the new one.
  EXPECT_EQ(F.substitute({{"n", var("k") * Polynomial(2)}}).str(),
            "floor((2*k + 3)/4)*m");
  EXPECT_EQ(*evaluateFormula(F.substitute({{"n", var("k") * Polynomial(2)}}).str(),
                             {{"k", 6}, {"m", 1}}),
            3);
  // A floor named in the values is replaced whole, operands unread.
  std::string Name = F.atoms()[0].kind() == AtomKind::Floor
                         ? F.atoms()[0].name()
                         : F.atoms()[1].name();
  EXPECT_EQ(F.substitute({{Name, Polynomial(5)}, {"n", Polynomial(100)}}).str(),
            "5*m");
  // Untouched operands leave the same atom.
  EXPECT_EQ(F.substitute({{"m", Polynomial(2)}}),
            Polynomial::floorOf(var("n") + Polynomial(3), 4) * Polynomial(2));
}

TEST(Polynomial, LeadingTermsGiveAsymptoticIntensity) {
  Polynomial M = var("M"), N = var("N"), K = var("K");
  Polynomial W = Polynomial(2) * M * N * K;
  Polynomial Q = Polynomial(8) * M * N * K + Polynomial(4) * M * N;
  auto R = W.leadingTerms().ratioTo(Q.leadingTerms());
  ASSERT_TRUE(R.has_value());
  EXPECT_EQ(R->str(), "1/4");
  EXPECT_FALSE(M.ratioTo(N).has_value());
}

TEST(Polynomial, EvaluateNeedsEveryVariable) {
  Polynomial P = var("n") * Polynomial(3);
  EXPECT_EQ(*P.evaluate({{"n", 5}}), 15);
  EXPECT_FALSE(P.evaluate({}).has_value());
}

TEST(Polynomial, CancellingTermsDisappear) {
  // A strip-mined loop: 4*floor(n/4) main iterations + (n - 4*floor(n/4))
  // remainder iterations is exactly n.
  Polynomial Q = var("floor(n/4)");
  Polynomial Total = Polynomial(4) * Q + (var("n") - Polynomial(4) * Q);
  EXPECT_EQ(Total, var("n"));
}

// floor(N/D) with a divisor that is not a constant is a floor atom spelled
// so that the formula evaluator computes it; a constant divisor folds.
TEST(Polynomial, FloorByAParameter) {
  Polynomial H = Polynomial::variable("H"), Hkv = Polynomial::variable("Hkv");
  EXPECT_EQ(Polynomial::floorOf(H, Hkv).str(), "floor(H/Hkv)");
  EXPECT_EQ(Polynomial::floorOf(H + Polynomial(1), Hkv * Polynomial(2)).str(),
            "floor((H + 1)/(2*Hkv))");
  EXPECT_EQ(Polynomial::floorOf(Polynomial(7), Polynomial(2)).str(), "3");
  EXPECT_FALSE(Polynomial::floorOf(H, Polynomial(0)).isValid());
  auto V = evaluateFormula((Polynomial::floorOf(H, Hkv) * Polynomial(3)).str(),
                           {{"H", 32}, {"Hkv", 6}});
  ASSERT_TRUE(bool(V));
  EXPECT_EQ(*V, 15); // floor(32/6) = 5
}

// Atoms are typed by what they are, not read from their names again.
TEST(Atom, KindsFromSpelling) {
  EXPECT_EQ(Atom::named("n").kind(), AtomKind::Parameter);
  EXPECT_EQ(Atom::named("threadIdx.y").kind(), AtomKind::ThreadIndex);
  EXPECT_EQ(Atom::named("blockIdx.x").kind(), AtomKind::ThreadIndex);
  EXPECT_EQ(Atom::named("laneid").kind(), AtomKind::ThreadIndex);
  EXPECT_EQ(Atom::named("gridDim.z").kind(), AtomKind::LaunchDim);
  EXPECT_EQ(Atom::named("vscale").kind(), AtomKind::VScale);
  EXPECT_EQ(Atom::named("trip_L12").kind(), AtomKind::UnknownTrip);
  EXPECT_EQ(Atom::unknownTrip("12"), Atom::named("trip_L12"));
  // One kind and one name: a parameter spelled as a built-in is another
  // atom, ordered beside it by kind.
  EXPECT_NE(Atom::parameter("unknown"), Atom::unknown());
  EXPECT_EQ(Atom::parameter("unknown").name(), Atom::unknown().name());
  EXPECT_TRUE(Atom::parameter("unknown") < Atom::unknown() ||
              Atom::unknown() < Atom::parameter("unknown"));
  EXPECT_EQ(Atom::parameter("n"), Atom::named("n"));
  EXPECT_EQ(Atom::named("unknown").kind(), AtomKind::Unknown);
  EXPECT_EQ(Polynomial::invalid().str(), Atom::unknown().name());
  // A parameter that only starts like a built-in is a parameter.
  EXPECT_EQ(Atom::named("threadIdxBase").kind(), AtomKind::Parameter);
}

// A floor keeps its operands, whether built by the analysis or read back
// from a summary's text: it is searched and evaluated through them.
TEST(Atom, FloorKeepsItsOperands) {
  Polynomial F = Polynomial::floorOf(var("n") + Polynomial(3), 4);
  ASSERT_EQ(F.atoms().size(), 1u);
  Atom A = F.atoms()[0];
  EXPECT_EQ(A.kind(), AtomKind::Floor);
  EXPECT_EQ(A.name(), "floor((n + 3)/4)");
  EXPECT_TRUE(A.involves("n"));
  EXPECT_FALSE(A.involves("m"));
  EXPECT_EQ(*F.evaluate({{"n", 10}}), 3); // floor(13/4)
  // Read back from text: the same atom, operands and all.
  Result<Polynomial> Back = formulaPolynomial(F.str() + " + 2*threadIdx.x");
  ASSERT_TRUE(bool(Back));
  EXPECT_EQ(*Back, F + Polynomial(2) * var("threadIdx.x"));
  EXPECT_EQ(*Back->evaluate({{"n", 10}, {"threadIdx.x", 1}}), 5);
  EXPECT_TRUE(Back->involves(AtomKind::ThreadIndex));
  EXPECT_FALSE(F.involves(AtomKind::ThreadIndex));
  // A thread index inside a floor is still found.
  Polynomial Warp = Polynomial::floorOf(var("threadIdx.x"), 32);
  EXPECT_TRUE(Warp.involves(AtomKind::ThreadIndex));
  // A divisor that is a parameter: floor(H/Hkv) at H = 32, Hkv = 6 is 5.
  Polynomial G = Polynomial::floorOf(var("H"), var("Hkv"));
  EXPECT_EQ(*G.evaluate({{"H", 32}, {"Hkv", 6}}), 5);
  EXPECT_FALSE(G.evaluate({{"H", 32}}).has_value());
  // Bound by its name, the name wins (a run's measured value, say).
  EXPECT_EQ(*G.evaluate({{"floor(H/Hkv)", 7}}), 7);
}

// One name is one atom: atoms are interned, so equal names compare equal
// and order by name, however they were made.
TEST(Atom, OneNameIsOneAtom) {
  EXPECT_EQ(Atom::named("n"), Atom::named(std::string("n")));
  EXPECT_NE(Atom::named("n"), Atom::named("m"));
  EXPECT_TRUE(Atom::named("m") < Atom::named("n"));
  EXPECT_FALSE(Atom::named("n") < Atom::named("n"));
  EXPECT_EQ(Atom::unknownTrip("12"), Atom::named("trip_L12"));
  // A floor first read back without operands (its text does not parse)
  // is the same atom as one built later with operands, and gains them.
  Atom Opaque = Atom::opaqueFloor("floor(k7/2)");
  EXPECT_EQ(Opaque.numerator(), nullptr);
  Polynomial Built = Polynomial::floorOf(var("k7"), 2);
  ASSERT_EQ(Built.atoms().size(), 1u);
  EXPECT_EQ(Built.atoms()[0], Opaque);
  ASSERT_NE(Opaque.numerator(), nullptr);
  EXPECT_EQ(*Opaque.numerator(), var("k7"));
}

// Terms stay sorted and unique through sums, products and scaling, so
// equal polynomials compare equal however they were built.
TEST(Polynomial, TermsStayCanonical) {
  Polynomial A = var("n") * var("m") + Polynomial(3) * var("n") + Polynomial(1);
  Polynomial B = Polynomial(1) + var("n") * Polynomial(3) + var("m") * var("n");
  EXPECT_EQ(A, B);
  Polynomial Sum = A;
  Sum += Polynomial(0) - var("n") * var("m"); // cancels a term in place
  EXPECT_EQ(Sum, Polynomial(3) * var("n") + Polynomial(1));
  EXPECT_EQ(Sum.terms().size(), 2u);
  EXPECT_EQ((A * Polynomial(Rational(1, 2))).str(), "(m*n + 3*n + 1)/2");
  EXPECT_EQ(A * Polynomial(0), Polynomial());
  EXPECT_EQ(A.withoutConstant(), var("n") * var("m") + Polynomial(3) * var("n"));
  EXPECT_EQ(Polynomial(5).withoutConstant(), Polynomial());
  // A coefficient past 64 bits makes the product invalid, not wrong.
  Polynomial Big = Polynomial(int64_t(1) << 40) * var("n");
  EXPECT_FALSE((Big * Big).isValid());
  EXPECT_FALSE((Big * Polynomial(int64_t(1) << 40)).isValid());
}

// A loop's counts share its power sums; each count is what it is alone.
TEST(Polynomial, SharedPowerSumsGiveTheSameSums) {
  Polynomial T = var("n") - Polynomial(1);
  std::vector<Polynomial> Shared;
  for (const Polynomial &P : {var("i") * var("i"), Polynomial(2) * var("i") + var("m"),
                              var("i") * var("i") * var("i"), var("i")})
    EXPECT_EQ(P.sumOver("i", T, Shared), P.sumOver("i", T));
  EXPECT_EQ(Shared.size(), 4u); // powers 0..3 computed once each
}

// Counts by slot: an absent slot reads as zero; slots are kept in order.
TEST(CountPolys, SlotsAbsentAreZero) {
  CountPolys C;
  const CountPolys &Read = C;
  EXPECT_TRUE(Read.Slots[5].isZero());
  C.Slots[9] += var("n");
  C.Slots[2] += Polynomial(4);
  C.Slots[9] += var("n");
  std::vector<unsigned> Order;
  for (const auto &[Slot, P] : Read.Slots)
    Order.push_back(Slot);
  EXPECT_EQ(Order, (std::vector<unsigned>{2, 9}));
  EXPECT_EQ(Read.Slots[9], Polynomial(2) * var("n"));
  CountPolys D;
  D.Slots[9] += Polynomial(1);
  D.add(C);
  EXPECT_EQ(D.Slots[9], Polynomial(2) * var("n") + Polynomial(1));
  EXPECT_EQ(D.Slots[2], Polynomial(4));
  CountPolys S = D.sumOver("n", var("k"));
  EXPECT_EQ(S.Slots[2], Polynomial(4) * var("k"));
  EXPECT_EQ(S.Slots[9], var("k") * var("k")); // sum_{n<k} (2n + 1) = k^2
}

} // namespace
