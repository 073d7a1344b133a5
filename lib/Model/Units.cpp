//===- Units.cpp - Numbers for people -------------------------------------===//
#include "roofline/Model/Units.h"

#include <cctype>
#include <cmath>
#include <cstdio>

namespace roofline {

std::string siNumber(double V, int Digits) {
  if (!std::isfinite(V))
    return V > 0 ? "inf" : "n/a";
  static const char *Prefix[] = {"", " k", " M", " G", " T", " P", " E"};
  int I = 0;
  double A = std::fabs(V);
  while (A >= 1000 && I < 6) {
    A /= 1000;
    V /= 1000;
    ++I;
  }
  char Buf[48];
  std::snprintf(Buf, sizeof(Buf), "%.*g%s", Digits, V, Prefix[I]);
  return Buf;
}

std::string siUnit(double V, const char *Unit, int Digits) {
  std::string S = siNumber(V, Digits);
  // siNumber ends in a prefix letter after a space, or in a digit.
  if (!S.empty() && (std::isdigit((unsigned char)S.back()) || S == "inf" || S == "n/a"))
    S += ' ';
  return S + Unit;
}

std::string secondsText(double S) {
  char Buf[48];
  if (S >= 1)
    std::snprintf(Buf, sizeof(Buf), "%.3g s", S);
  else if (S >= 1e-3)
    std::snprintf(Buf, sizeof(Buf), "%.3g ms", S * 1e3);
  else if (S >= 1e-6)
    std::snprintf(Buf, sizeof(Buf), "%.3g us", S * 1e6);
  else
    std::snprintf(Buf, sizeof(Buf), "%.3g ns", S * 1e9);
  return Buf;
}

std::string binaryBytes(double B) {
  char Buf[32];
  const char *Unit[] = {"B", "KiB", "MiB", "GiB", "TiB"};
  int U = 0;
  while (B >= 1024 && U < 4) {
    B /= 1024;
    ++U;
  }
  std::snprintf(Buf, sizeof(Buf), U ? "%.3g %s" : "%.0f %s", B, Unit[U]);
  return Buf;
}

} // namespace roofline
