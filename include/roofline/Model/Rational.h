//===- Rational.h - Exact rational numbers for count formulas ---*- C++ -*-===//
//
// Counts are integers, but closed forms such as n*(n-1)/2 need exact
// fractions on the way. A Rational is a normalised int64 fraction that turns
// "invalid" instead of wrapping when an operation overflows, so a formula that
// outgrows 64 bits is reported as unknown rather than wrong.
//
//===----------------------------------------------------------------------===//
#ifndef ROOFLINE_MODEL_RATIONAL_H
#define ROOFLINE_MODEL_RATIONAL_H

#include <cstdint>
#include <string>

namespace roofline {

class Rational {
public:
  Rational() = default;
  Rational(int64_t N) : Num(N) {}
  Rational(int64_t N, int64_t D);

  static Rational invalid();

  bool isValid() const { return Valid; }
  bool isZero() const { return Valid && Num == 0; }
  bool isInteger() const { return Valid && Den == 1; }
  int64_t num() const { return Num; }
  int64_t den() const { return Den; }
  double toDouble() const { return Valid ? double(Num) / double(Den) : 0.0; }

  Rational operator+(const Rational &O) const;
  Rational operator-(const Rational &O) const;
  Rational operator*(const Rational &O) const;
  Rational operator/(const Rational &O) const;
  Rational operator-() const;
  bool operator==(const Rational &O) const {
    return Valid == O.Valid && Num == O.Num && Den == O.Den;
  }
  bool operator!=(const Rational &O) const { return !(*this == O); }

  /// "3", "-1/2"; "invalid" for an overflowed value.
  std::string str() const;

private:
  static Rational fromWide(__int128 N, __int128 D);
  int64_t Num = 0;
  int64_t Den = 1;
  bool Valid = true;
};

/// Greatest common divisor of |A| and |B| (gcd(0, 0) = 0).
int64_t gcd64(int64_t A, int64_t B);

} // namespace roofline

#endif
