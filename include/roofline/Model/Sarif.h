//===- Sarif.h - The SARIF 2.1.0 log around a tool's results ----*- C++ -*-===//
//
// roofline-report --format sarif and roofline-audit --format sarif share
// the envelope: schema, version, one run with the tool, its rules and its
// results, and what code scanning (GitHub, GitLab) needs of them: artifact
// URIs relative to the repository (`--source-root DIR`: uriBaseId
// %SRCROOT%), a partial fingerprint per result that survives a line moving,
// and rules with help.
//
//===----------------------------------------------------------------------===//
#ifndef ROOFLINE_MODEL_SARIF_H
#define ROOFLINE_MODEL_SARIF_H

#include <nlohmann/json.hpp>

#include <cstdint>
#include <cstdio>
#include <string>

namespace roofline {

/// Where the documentation lives, for the rules' helpUri and the tool's
/// informationUri (ROOFLINE_DOCS_URL at configure time).
#ifndef ROOFLINE_DOCS_URL
#define ROOFLINE_DOCS_URL "file:///usr/local/share/doc/roofline"
#endif

/// A rule: its id, one-line description, longer help, and the section of
/// the docs (e.g. "report.md#formats") it points to.
inline nlohmann::json sarifRule(const std::string &Id, const std::string &Short,
                                const std::string &Help, const std::string &Doc) {
  return {{"id", Id},
          {"shortDescription", {{"text", Short}}},
          {"fullDescription", {{"text", Help}}},
          {"help", {{"text", Help}, {"markdown", Help}}},
          {"helpUri", std::string(ROOFLINE_DOCS_URL) + "/" + Doc}};
}

/// \p File as an artifact location: relative to \p SourceRoot (with
/// uriBaseId %SRCROOT%) when it lies under it, else as given.
inline nlohmann::json sarifArtifact(const std::string &File,
                                    const std::string &SourceRoot) {
  std::string Root = SourceRoot;
  while (Root.size() > 1 && Root.back() == '/')
    Root.pop_back();
  if (!Root.empty() && File.size() > Root.size() + 1 &&
      File.compare(0, Root.size(), Root) == 0 && File[Root.size()] == '/')
    return {{"uri", File.substr(Root.size() + 1)}, {"uriBaseId", "%SRCROOT%"}};
  return {{"uri", File}};
}

/// A stable fingerprint (FNV-1a, 64 bits, in hex) of what identifies a
/// result apart from its line: rule, function, file.
inline std::string sarifFingerprint(const std::string &Text) {
  uint64_t H = 1469598103934665603ull;
  for (unsigned char C : Text) {
    H ^= C;
    H *= 1099511628211ull;
  }
  char Buf[24];
  std::snprintf(Buf, sizeof(Buf), "%016llx", (unsigned long long)H);
  return Buf;
}

inline std::string sarifLog(const std::string &Tool, nlohmann::json Rules,
                            nlohmann::json Results,
                            const std::string &SourceRoot = "") {
  nlohmann::json Driver = {{"name", Tool},
                           {"version", "0.1.0"},
                           {"informationUri", std::string(ROOFLINE_DOCS_URL) + "/"},
                           {"rules", std::move(Rules)}};
  nlohmann::json Run = {{"tool", {{"driver", std::move(Driver)}}},
                        {"results", std::move(Results)}};
  if (!SourceRoot.empty()) {
    std::string Root = SourceRoot;
    if (Root.back() != '/')
      Root += '/';
    Run["originalUriBaseIds"] = {{"%SRCROOT%", {{"uri", "file://" + Root}}}};
  }
  nlohmann::json Log = {
      {"$schema", "https://json.schemastore.org/sarif-2.1.0.json"},
      {"version", "2.1.0"},
      {"runs", nlohmann::json::array({std::move(Run)})}};
  return Log.dump(2) + "\n";
}

} // namespace roofline

#endif
