// Unit tests of platform loading: every shipped file is valid, and every kind
// of bad file gets one message naming the file and the field.
#include "roofline/Model/Platform.h"

#include <gtest/gtest.h>

using namespace roofline;

namespace {

const char *Good = R"({"schema": "roofline-platform", "version": 1,
  "name": "x", "display_name": "X", "kind": "gpu",
  "compute": [{"precision": "fp32", "unit": "vector", "flops_per_s": 1e12,
               "fma": true, "source": "s"}],
  "memory": [{"level": "dram", "bytes_per_s": 1e11, "source": "s"}]})";

std::string errorOf(const std::string &Text) {
  Result<Platform> P = parsePlatform(Text, "p.json");
  return P ? "" : P.error();
}

std::string replace(std::string S, const std::string &From,
                    const std::string &To) {
  S.replace(S.find(From), From.size(), To);
  return S;
}

TEST(Platform, ParsesAValidFile) {
  Result<Platform> P = parsePlatform(Good, "p.json");
  ASSERT_TRUE(bool(P)) << P.error();
  EXPECT_EQ(P->headlinePeak().FlopsPerSecond, 1e12);
  EXPECT_EQ(P->dram().BytesPerSecond, 1e11);
}

TEST(Platform, EveryShippedPlatformIsValid) {
  std::vector<std::string> Dirs = {ROOFLINE_PLATFORMS_DIR};
  std::vector<std::string> Names = platformNames(Dirs);
  EXPECT_GE(Names.size(), 16u);
  for (const std::string &N : Names) {
    Result<Platform> P = findPlatform(N, Dirs);
    ASSERT_TRUE(bool(P)) << P.error();
    EXPECT_EQ(P->Name, N);
  }
  // The note's card: 11.3 TFLOP/s FP32 and 484 GB/s.
  Result<Platform> G = findPlatform("gtx1080ti", Dirs);
  ASSERT_TRUE(bool(G));
  EXPECT_EQ(G->peak("fp32", "vector")->FlopsPerSecond, 11.3e12);
  EXPECT_EQ(G->dram().BytesPerSecond, 484e9);
}

TEST(Platform, BadFilesNameTheField) {
  EXPECT_EQ(errorOf("{"), "p.json: not valid JSON");
  EXPECT_EQ(errorOf("[]"), "p.json: expected a JSON object");
  EXPECT_EQ(errorOf(replace(Good, "\"name\": \"x\",", "")), "p.json: name: missing");
  EXPECT_EQ(errorOf(replace(Good, "1e12", "0")),
            "p.json: compute[0].flops_per_s: must be a positive number (got 0)");
  EXPECT_EQ(errorOf(replace(Good, "1e11", "-5")),
            "p.json: memory[0].bytes_per_s: must be a positive number (got -5)");
  EXPECT_EQ(errorOf(replace(Good, "\"fp32\"", "\"fp31\"")),
            "p.json: compute[0].precision: unknown precision \"fp31\"");
  EXPECT_EQ(errorOf(replace(Good, "\"dram\"", "\"l2\"")),
            "p.json: memory: needs a \"dram\" level (main memory bandwidth)");
  EXPECT_EQ(errorOf(replace(Good, "\"source\": \"s\"}]", "\"source\": \"\"}]")),
            "p.json: compute[0].source: must not be empty");
  EXPECT_EQ(errorOf(replace(Good, "\"gpu\"", "\"tpu\"")),
            "p.json: kind: must be \"gpu\", \"cpu\" or \"accelerator\"");
}

// The instruction roofline's roof: precision "instructions" with unit
// "issue", and a GPU's warp size; neither goes with anything else.
TEST(Platform, IssueRates) {
  std::string Issue = replace(
      Good, "\"source\": \"s\"}],",
      "\"source\": \"s\"}, {\"precision\": \"instructions\", \"unit\": "
      "\"issue\", \"flops_per_s\": 2e11, \"fma\": false, \"warp_size\": 32, "
      "\"source\": \"s\"}],");
  Result<Platform> P = parsePlatform(Issue, "p.json");
  ASSERT_TRUE(bool(P)) << P.error();
  const ComputePeak *R = P->peak("instructions", "issue");
  ASSERT_NE(R, nullptr);
  EXPECT_EQ(R->FlopsPerSecond, 2e11);
  EXPECT_EQ(R->WarpSize, 32u);
  EXPECT_EQ(R->label(), "instruction issue");
  // The headline stays the fp32 vector roof; the file round-trips.
  EXPECT_EQ(P->headlinePeak().label(), "fp32 vector");
  Result<Platform> Again = parsePlatform(platformJSON(*P), "p.json");
  ASSERT_TRUE(bool(Again)) << Again.error();
  EXPECT_EQ(Again->peak("instructions", "issue")->WarpSize, 32u);

  EXPECT_EQ(errorOf(replace(Good, "\"vector\"", "\"issue\"")),
            "p.json: compute[0].unit: \"issue\" goes with precision "
            "\"instructions\" and only with it");
  EXPECT_EQ(errorOf(replace(Issue, "\"warp_size\": 32", "\"warp_size\": 0")),
            "p.json: compute[1].warp_size: must be a positive integer, on an "
            "\"issue\" peak");
  EXPECT_EQ(errorOf(replace(Good, "\"fma\": true", "\"fma\": true, \"warp_size\": 32")),
            "p.json: compute[0].warp_size: must be a positive integer, on an "
            "\"issue\" peak");
}

TEST(Platform, UnknownNamesSuggestTheNearest) {
  Result<Platform> P = findPlatform("h100", {ROOFLINE_PLATFORMS_DIR});
  ASSERT_FALSE(bool(P));
  EXPECT_NE(P.error().find("unknown platform 'h100'; did you mean"),
            std::string::npos);
  EXPECT_NE(P.error().find("'h100-sxm'"), std::string::npos);
  EXPECT_NE(P.error().find("'h100-pcie'"), std::string::npos);
  Result<Platform> F = findPlatform("/nonexistent/x.json", {});
  ASSERT_FALSE(bool(F));
  EXPECT_EQ(F.error(), "/nonexistent/x.json: no such file");
}

// The writer is the reader's inverse: every platform in platforms/ read,
// written and read again is the same platform, field by field.
TEST(Platform, WriterRoundTripsEveryBundledPlatform) {
  unsigned Checked = 0;
  for (const char *Name : {"h100-sxm", "h200", "a100", "gtx1080ti",
                           "intel-xeon-8480", "amd-epyc-9654", "edge-tpu"}) {
    Result<Platform> P = findPlatform(Name, {ROOFLINE_PLATFORMS_DIR});
    ASSERT_TRUE(bool(P)) << P.error();
    Result<Platform> Q = parsePlatform(platformJSON(*P), "again.json");
    ASSERT_TRUE(bool(Q)) << Q.error();
    EXPECT_EQ(Q->Name, P->Name);
    EXPECT_EQ(Q->DisplayName, P->DisplayName);
    EXPECT_EQ(Q->Kind, P->Kind);
    EXPECT_EQ(Q->Vendor, P->Vendor);
    ASSERT_EQ(Q->Compute.size(), P->Compute.size());
    for (size_t I = 0; I < P->Compute.size(); ++I) {
      EXPECT_EQ(Q->Compute[I].label(), P->Compute[I].label());
      EXPECT_EQ(Q->Compute[I].FlopsPerSecond, P->Compute[I].FlopsPerSecond);
      EXPECT_EQ(Q->Compute[I].FMA, P->Compute[I].FMA);
      EXPECT_EQ(Q->Compute[I].Source, P->Compute[I].Source);
    }
    ASSERT_EQ(Q->Memory.size(), P->Memory.size());
    for (size_t I = 0; I < P->Memory.size(); ++I) {
      EXPECT_EQ(Q->Memory[I].Level, P->Memory[I].Level);
      EXPECT_EQ(Q->Memory[I].Name, P->Memory[I].Name);
      EXPECT_EQ(Q->Memory[I].BytesPerSecond, P->Memory[I].BytesPerSecond);
    }
    ++Checked;
  }
  EXPECT_EQ(Checked, 7u);
  // Extra members (roofline-probe's measurement) go at the top level.
  Result<Platform> P = findPlatform("h200", {ROOFLINE_PLATFORMS_DIR});
  std::string Text = platformJSON(*P, "{\"measurement\": {\"threads\": 2}}");
  EXPECT_NE(Text.find("\"measurement\": {\n    \"threads\": 2"), std::string::npos);
}

} // namespace
