//===- StaticSummaryTest.cpp - A summary's formulas, read once ------------===//
#include "roofline/Model/StaticSummary.h"

#include <gtest/gtest.h>

using namespace roofline;

namespace {

// A kernel whose C parameters are called `unknown` and `vscale`: its
// formulas, footprint and footprint assumptions are read once, when the
// file is, with its parameter list, so both stay parameters (sizes the
// user gives), not the unknown value and the vector scale their spelling
// would make them.
const char *Summary = R"({"kernels": [{
  "name": "k", "display_name": "k", "kind": "function", "per": "call",
  "formula": {"parameters": ["a", "unknown", "vscale"],
              "classes": {"fp64": {"fma": "unknown*vscale"}},
              "bytes_load": "8*unknown*vscale", "bytes_store": "8*unknown",
              "instructions": "3*unknown*vscale + 2"},
  "footprint": {"read": "8*unknown*vscale", "written": "8*unknown", "exact": true,
                "assumptions": ["vscale - 1 >= 0 for a", "the lanes it runs"]}}]})";

TEST(StaticSummary, FormulasAreReadOnceWithTheKernelsParameters) {
  Result<std::vector<KernelRecord>> Read = parseStaticSummary(std::string(Summary), "s.json");
  ASSERT_TRUE(Read) << Read.error();
  const KernelRecord &K = Read->at(0);
  const Formula &Fma = K.Classes.at("fp64").at("fma");
  EXPECT_EQ(Fma.Text, "unknown*vscale");
  for (const Atom &A : Fma.Value.atoms())
    EXPECT_EQ(A.kind(), AtomKind::Parameter) << A.name();
  // Both are sizes: at unknown=3, vscale=4 the values are exact.
  std::map<std::string, double> At = {{"unknown", 3}, {"vscale", 4}};
  EXPECT_DOUBLE_EQ(*evaluateFormula(K.BytesLoad, At), 96);
  EXPECT_DOUBLE_EQ(*evaluateFormula(K.BytesStore, At), 24);
  ASSERT_TRUE(K.Instructions);
  EXPECT_DOUBLE_EQ(*evaluateFormula(*K.Instructions, At), 38);
  // An exact footprint is its own lower bound.
  ASSERT_TRUE(K.Footprint);
  EXPECT_DOUBLE_EQ(*evaluateFormula(K.Footprint->ReadAtLeast, At), 96);
  EXPECT_TRUE(K.Footprint->ReadOwn.isZero());
  // The assumption that reads as a test is one, in the parameter; the
  // one of words alone keeps its words.
  ASSERT_EQ(K.Footprint->Assumptions.size(), 2u);
  const StatedAssumption &Test = K.Footprint->Assumptions[0];
  EXPECT_EQ(Test.Text, "vscale - 1 >= 0 for a");
  ASSERT_TRUE(Test.Read && Test.Read->isCondition());
  EXPECT_EQ(Test.Read->Test.holds({{"vscale", 0}}), false);
  EXPECT_EQ(Test.Read->Test.holds({{"vscale", 2}}), true);
  EXPECT_EQ(K.Footprint->Assumptions[1].Text, "the lanes it runs");
}

// A formula that does not read is the file's error, naming the field.
TEST(StaticSummary, ABadFormulaNamesItsField) {
  std::string Bad = Summary;
  const std::string Store = "\"bytes_store\": \"8*unknown\"";
  Bad.replace(Bad.find(Store), Store.size(), "\"bytes_store\": \"8*(unknown\"");
  Result<std::vector<KernelRecord>> Read = parseStaticSummary(Bad, "s.json");
  ASSERT_FALSE(Read);
  EXPECT_NE(Read.error().find("s.json: kernels[0].formula.bytes_store: "),
            std::string::npos)
      << Read.error();
  std::string BadClass = Summary;
  const std::string Fma = "\"fma\": \"unknown*vscale\"";
  BadClass.replace(BadClass.find(Fma), Fma.size(), "\"fma\": \"unknown**\"");
  Read = parseStaticSummary(BadClass, "s.json");
  ASSERT_FALSE(Read);
  EXPECT_NE(Read.error().find("kernels[0].formula.classes.fp64.fma: "),
            std::string::npos)
      << Read.error();
}

} // namespace
