//===- Sarif.h - The SARIF 2.1.0 log around a tool's results ----*- C++ -*-===//
//
// roofline-report --format sarif and roofline-audit --format sarif share
// the envelope: schema, version, one run with the tool, its rules and its
// results (code-scanning services read this).
//
//===----------------------------------------------------------------------===//
#ifndef ROOFLINE_MODEL_SARIF_H
#define ROOFLINE_MODEL_SARIF_H

#include <nlohmann/json.hpp>

#include <string>

namespace roofline {

inline std::string sarifLog(const std::string &Tool, nlohmann::json Rules,
                            nlohmann::json Results) {
  nlohmann::json Driver = {
      {"name", Tool}, {"version", "0.1.0"}, {"rules", std::move(Rules)}};
  nlohmann::json Run = {{"tool", {{"driver", std::move(Driver)}}},
                        {"results", std::move(Results)}};
  nlohmann::json Log = {
      {"$schema", "https://json.schemastore.org/sarif-2.1.0.json"},
      {"version", "2.1.0"},
      {"runs", nlohmann::json::array({std::move(Run)})}};
  return Log.dump(2) + "\n";
}

} // namespace roofline

#endif
