//===- Units.h - Numbers for people -----------------------------*- C++ -*-===//
#ifndef ROOFLINE_MODEL_UNITS_H
#define ROOFLINE_MODEL_UNITS_H

#include <string>

namespace roofline {

/// 1.23e12 -> "1.23 T" (append the unit: "1.23 TFLOP/s").
std::string siNumber(double V, int Digits = 3);
/// 2.5e-3 -> "2.5 ms".
std::string secondsText(double S);

} // namespace roofline

#endif
