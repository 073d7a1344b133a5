// Unit tests of the footprint arithmetic: distinct bytes of affine accesses,
// each against a count derived by hand in its comment.
#include "roofline/Analysis/AccessSet.h"

#include <gtest/gtest.h>

using namespace roofline;

namespace {

Polynomial var(const char *N) { return Polynomial::variable(N); }
Polynomial num(int64_t V) { return Polynomial(V); }

AffineAccess access(Polynomial Offset, std::vector<Dimension> Dims,
                    int64_t Size = 4) {
  AffineAccess A;
  A.Offset = std::move(Offset);
  A.Size = num(Size);
  A.Dims = std::move(Dims);
  A.Where = "t.c:1";
  return A;
}

TEST(AccessSet, GemmOperandIsItsMatrixNotItsIterations) {
  // for i < M, j < N, k < K: A[i*K + k]. The map (i, k) -> i*K + k is
  // injective (stride K >= span K of k), j does not move it: M*K floats.
  std::vector<Dimension> D{{"i", var("M")}, {"j", var("N")}, {"k", var("K")}};
  auto R = distinctBytes({access(num(4) * var("K") * var("i") + num(4) * var("k"), D)});
  EXPECT_TRUE(R.Exact);
  EXPECT_EQ(R.AtMost.str({"M", "N", "K"}), "4*M*K");
  // B[k*N + j]: K*N floats.
  R = distinctBytes({access(num(4) * var("N") * var("k") + num(4) * var("j"), D)});
  EXPECT_EQ(R.AtMost.str({"M", "N", "K"}), "4*N*K");
}

TEST(AccessSet, TriangleIsItsTriangle) {
  // for i < n, j < i + 1: A[i*n + j]: sum_{i<n} (i + 1) = n(n+1)/2
  // elements, 2n^2 + 2n bytes (the address range would say 4n^2).
  std::vector<Dimension> D{{"i", var("n")}, {"j", var("i") + num(1)}};
  auto R = distinctBytes({access(num(4) * var("n") * var("i") + num(4) * var("j"), D)});
  EXPECT_TRUE(R.Exact);
  EXPECT_EQ(R.AtMost.str(), "2*n^2 + 2*n");
}

TEST(AccessSet, StencilPointsAreUnitedNotAdded) {
  // The interior i, j in [1, n-1) of an n x n grid, counters 0..n-3:
  // A[(i+1)*n + (j+1)] and its four neighbours. Five (n-2)^2 boxes shifted
  // by one step: their union is the n x n grid less its four corners,
  // n^2 - 4 floats = 4n^2 - 16 bytes.
  std::vector<Dimension> D{{"i", var("n") - num(2)}, {"j", var("n") - num(2)}};
  Polynomial Centre = num(4) * (var("n") * (var("i") + num(1)) + var("j") + num(1));
  std::vector<AffineAccess> A;
  for (Polynomial Off : {num(0), num(4), num(-4), num(4) * var("n"),
                         num(-4) * var("n")})
    A.push_back(access(Centre + Off, D));
  auto R = distinctBytes(A);
  EXPECT_TRUE(R.Exact) << (R.Notes.empty() ? "" : R.Notes.front());
  EXPECT_EQ(R.AtMost.str(), "4*n^2 - 16");
  // Two shifts apart along each axis: the formula holds from n = 4 on.
  ASSERT_EQ(R.Assumptions.size(), 2u);
  EXPECT_EQ(R.Assumptions[0].str(), "n - 4 >= 0");
}

TEST(AccessSet, ConvolutionWindowIsARange) {
  // for i < N, k < K: x[i + k]: strides 4 and 4 overlap, but together
  // they cover N + K - 1 floats without a gap.
  std::vector<Dimension> D{{"i", var("N")}, {"k", var("K")}};
  auto R = distinctBytes({access(num(4) * var("i") + num(4) * var("k"), D)});
  EXPECT_TRUE(R.Exact);
  EXPECT_EQ(R.AtMost.str({"N", "K"}), "4*N + 4*K - 4");
}

TEST(AccessSet, ReverseWalkIsTheSameArray) {
  // for i < n: A[n - 1 - i]: n floats.
  std::vector<Dimension> D{{"i", var("n")}};
  auto R = distinctBytes({access(num(4) * (var("n") - num(1) - var("i")), D)});
  EXPECT_TRUE(R.Exact);
  EXPECT_EQ(R.AtMost.str(), "4*n");
}

TEST(AccessSet, GatherIsABoundAndSaysSo) {
  // x[col[j]]: at most its n counted loads, at least nothing known.
  std::vector<Dimension> D{{"j", var("n")}};
  AffineAccess A = access(Polynomial(), D, 8);
  A.Known = false;
  auto R = distinctBytes({A});
  EXPECT_FALSE(R.Exact);
  EXPECT_EQ(R.AtMost.str(), "8*n");
  EXPECT_EQ(R.AtLeast.str(), "0");
  ASSERT_EQ(R.Notes.size(), 1u);
  EXPECT_NE(R.Notes[0].find("depends on data"), std::string::npos);
}

TEST(AccessSet, SameArrayFromTwoNestsIsCountedOnce) {
  // C[i*n + j] = 0 in one nest, C[i*n + j] += ... in another: n^2 floats.
  std::vector<Dimension> D1{{"i", var("n")}, {"j", var("n")}};
  std::vector<Dimension> D2{{"a", var("n")}, {"b", var("n")}, {"c", var("n")}};
  auto R = distinctBytes(
      {access(num(4) * var("n") * var("i") + num(4) * var("j"), D1),
       access(num(4) * var("n") * var("a") + num(4) * var("b"), D2)});
  EXPECT_TRUE(R.Exact);
  EXPECT_EQ(R.AtMost.str(), "4*n^2");
}

TEST(AccessSet, TransposedWalkOfASquareIsTheSameSquare) {
  // A[i*n + j] and A[j*n + i], i, j < n: one lattice shape (strides 4 and
  // 4n, n points each) from the same base: the same n^2 floats.
  std::vector<Dimension> D{{"i", var("n")}, {"j", var("n")}};
  auto R = distinctBytes(
      {access(num(4) * var("n") * var("i") + num(4) * var("j"), D),
       access(num(4) * var("n") * var("j") + num(4) * var("i"), D)});
  EXPECT_TRUE(R.Exact);
  EXPECT_EQ(R.AtMost.str(), "4*n^2");
}

TEST(AccessSet, DifferentShapesAreABound) {
  // A[i] and A[2*i], i < n: n floats each, overlapping in about n/2. The
  // sum 8n bounds the union from above, one of them (4n) from below.
  std::vector<Dimension> D{{"i", var("n")}};
  auto R = distinctBytes({access(num(4) * var("i"), D),
                          access(num(8) * var("i"), D)});
  EXPECT_FALSE(R.Exact);
  EXPECT_EQ(R.AtMost.str(), "8*n");
  EXPECT_EQ(R.AtLeast.str(), "4*n");
}

TEST(AccessSet, ElementBeforeAWalkJoinsIt) {
  // rp[0] before the loop, rp[i + 1] for i < n inside (a rotated CSR row
  // loop): n + 1 ints.
  std::vector<Dimension> D{{"i", var("n")}};
  auto R = distinctBytes({access(num(0), {}),
                          access(num(4) * var("i") + num(4), D)});
  EXPECT_TRUE(R.Exact);
  EXPECT_EQ(R.AtMost.str(), "4*n + 4");
}

TEST(AccessSet, RegisterTileRowsFillEachOthersGaps) {
  // for i < T (step 4 rows), k < n: A[(4i + a)*n + k] for a = 0..3 (a 4 x
  // 4 register tile's rows): stride 4n along i, n along k; the rows are n
  // apart, in the gaps: 4*T*n doubles, not 4 copies of one.
  std::vector<Dimension> D{{"i", var("T")}, {"k", var("n")}};
  std::vector<AffineAccess> A;
  for (int Row = 0; Row < 4; ++Row)
    A.push_back(access(num(32) * var("n") * var("i") + num(8 * Row) * var("n") +
                           num(8) * var("k"),
                       D, 8));
  auto R = distinctBytes(A);
  EXPECT_TRUE(R.Exact) << (R.Notes.empty() ? "" : R.Notes.front());
  EXPECT_EQ(R.AtMost.str(), "32*T*n");
}

TEST(AccessSet, ElementsWithAGapAreNotARange) {
  // p[0] and p[3] (found by the footprint differential tester): 2 floats,
  // not the 4 of the range they span.
  auto R = distinctBytes({access(num(0), {}), access(num(12), {})});
  EXPECT_TRUE(R.Exact);
  EXPECT_EQ(R.AtMost.str(), "8");
}

TEST(AccessSet, SizesArePositiveIntegers) {
  EXPECT_TRUE(nonNegativeForSizes(var("n") - num(1)));
  EXPECT_FALSE(nonNegativeForSizes(var("n") - num(2)));
  EXPECT_TRUE(nonNegativeForSizes(var("n") * var("m") - var("n")));
}

} // namespace
