//===- Rational.cpp - Exact rational numbers for count formulas -----------===//
#include "roofline/Model/Rational.h"

namespace roofline {

static __int128 gcdWide(__int128 A, __int128 B) {
  if (A < 0)
    A = -A;
  if (B < 0)
    B = -B;
  // Nearly always both fit in 64 bits, where division is a single
  // instruction rather than a library call.
  if (A <= UINT64_MAX && B <= UINT64_MAX) {
    uint64_t X = uint64_t(A), Y = uint64_t(B);
    while (Y != 0) {
      uint64_t T = X % Y;
      X = Y;
      Y = T;
    }
    return X;
  }
  while (B != 0) {
    __int128 T = A % B;
    A = B;
    B = T;
  }
  return A;
}

int64_t gcd64(int64_t A, int64_t B) { return int64_t(gcdWide(A, B)); }

Rational Rational::invalid() {
  Rational R;
  R.Valid = false;
  return R;
}

Rational::Rational(int64_t N, int64_t D) {
  *this = fromWide(N, D);
}

Rational Rational::fromWide(__int128 N, __int128 D) {
  if (D == 0)
    return invalid();
  if (D < 0) {
    N = -N;
    D = -D;
  }
  __int128 G = gcdWide(N, D);
  if (G > 1) {
    N /= G;
    D /= G;
  }
  if (N > INT64_MAX || N < -INT64_MAX || D > INT64_MAX)
    return invalid();
  Rational R;
  R.Num = int64_t(N);
  R.Den = int64_t(D);
  return R;
}

/// An integer result: no divisor to reduce by.
static Rational integer(__int128 N) {
  if (N > INT64_MAX || N < -INT64_MAX)
    return Rational::invalid();
  return Rational(int64_t(N));
}

Rational Rational::operator+(const Rational &O) const {
  if (!Valid || !O.Valid)
    return invalid();
  if (Den == 1 && O.Den == 1)
    return integer(__int128(Num) + O.Num);
  return fromWide(__int128(Num) * O.Den + __int128(O.Num) * Den,
                  __int128(Den) * O.Den);
}

Rational Rational::operator-(const Rational &O) const { return *this + (-O); }

Rational Rational::operator-() const {
  if (!Valid)
    return invalid();
  Rational R = *this;
  R.Num = -Num;
  return R;
}

Rational Rational::operator*(const Rational &O) const {
  if (!Valid || !O.Valid)
    return invalid();
  if (Den == 1 && O.Den == 1)
    return integer(__int128(Num) * O.Num);
  return fromWide(__int128(Num) * O.Num, __int128(Den) * O.Den);
}

Rational Rational::operator/(const Rational &O) const {
  if (!Valid || !O.Valid || O.Num == 0)
    return invalid();
  return fromWide(__int128(Num) * O.Den, __int128(Den) * O.Num);
}

std::string Rational::str() const {
  if (!Valid)
    return "invalid";
  if (Den == 1)
    return std::to_string(Num);
  return std::to_string(Num) + "/" + std::to_string(Den);
}

} // namespace roofline
