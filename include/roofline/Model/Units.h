//===- Units.h - Numbers for people -----------------------------*- C++ -*-===//
#ifndef ROOFLINE_MODEL_UNITS_H
#define ROOFLINE_MODEL_UNITS_H

#include <string>

namespace roofline {

/// 1.23e12 -> "1.23 T" (append the unit: "1.23 TFLOP/s").
std::string siNumber(double V, int Digits = 3);
/// \p V with its SI prefix and \p Unit: "67 TFLOP/s", "12 B", "0 FLOP/s".
std::string siUnit(double V, const char *Unit, int Digits = 3);
/// Sizes of memory: 49152 -> "48 KiB", 3 -> "3 B".
std::string binaryBytes(double B);
/// 2.5e-3 -> "2.5 ms".
std::string secondsText(double S);

} // namespace roofline

#endif
