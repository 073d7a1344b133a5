//===- AuditOutput.h - roofline-audit's formats -----------------*- C++ -*-===//
//
// The candidates as text (one block per pair, then the chains), JSON (the
// "candidates" and "chains" arrays, docs/audit.md) and SARIF 2.1.0 (a result
// per pair at the consumer's launch, the producer's as a related location).
//
//===----------------------------------------------------------------------===//
#ifndef ROOFLINE_TOOLS_AUDIT_AUDITOUTPUT_H
#define ROOFLINE_TOOLS_AUDIT_AUDITOUTPUT_H

#include "SourceFusion.h"

#include <nlohmann/json.hpp>

#include <string>

namespace roofline {

std::string renderAuditText(const FusionAudit &A);
nlohmann::json auditJSON(const FusionAudit &A);
std::string renderAuditSARIF(const FusionAudit &A, const std::string &SourceRoot = "");

/// A formula for output: its number when it is constant, else its text.
nlohmann::json formulaJSON(const Polynomial &P);

} // namespace roofline

#endif
