//===- InlinedSummaries.cpp - Static summaries of inlined kernels ---------===//
#include "roofline/Analysis/InlinedSummaries.h"
#include "roofline/Model/JSONAccess.h"
#include "roofline/Analysis/SummaryWriter.h"
#include "roofline/Model/Condition.h"
#include "roofline/Model/Formula.h"

#include "llvm/Demangle/Demangle.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/Intrinsics.h"
#include "llvm/IR/Module.h"

#include <algorithm>
#include <map>

using namespace llvm;

namespace roofline {

namespace {

/// !roofline.summary !{!"<json>", !"<remark>"}
constexpr const char *SummaryKind = "roofline.summary";

} // namespace

void attachSummary(Instruction &Marker, const KernelSummary &K) {
  LLVMContext &Ctx = Marker.getContext();
  // The formulas' name of each parameter, by position, for evaluating
  // them with the values the inlined code has (InlinedFunctions.h).
  std::string Names;
  for (size_t A = 0; A < K.Params.size(); ++A)
    Names += (A ? "\t" : "") + K.Params[A];
  Marker.setMetadata(SummaryKind,
                     MDNode::get(Ctx, {MDString::get(Ctx, kernelJSON(K).dump()),
                                       MDString::get(Ctx, kernelRemark(K)),
                                       MDString::get(Ctx, Names)}));
}

std::vector<std::string> carriedParameterNames(const Instruction &I) {
  std::vector<std::string> Out;
  const MDNode *N = I.getMetadata(SummaryKind);
  auto *Text = N && N->getNumOperands() >= 3 ? dyn_cast<MDString>(N->getOperand(2))
                                             : nullptr;
  if (!Text)
    return Out;
  for (StringRef Rest = Text->getString(); !Rest.empty();) {
    auto [Name, Tail] = Rest.split('\t');
    Out.push_back(Name.str());
    Rest = Tail;
  }
  return Out;
}

bool carriesSummary(const Instruction &I) { return I.getMetadata(SummaryKind); }

const nlohmann::json *CarriedSummaries::of(const Instruction &I) {
  if (!Kind)
    Kind = I.getContext().getMDKindID(SummaryKind);
  const MDNode *N = I.getMetadata(*Kind);
  if (!N || N->getNumOperands() < 2)
    return nullptr;
  auto [It, New] = Parsed.try_emplace(N);
  if (New)
    if (auto *Text = dyn_cast<MDString>(N->getOperand(0)))
      It->second = nlohmann::json::parse(Text->getString().str(), nullptr,
                                         /*allow_exceptions=*/false);
  return It->second.is_object() ? &It->second : nullptr;
}

namespace {

std::string stringAt(const nlohmann::json &J, const char *Key) {
  auto It = J.find(Key);
  return It != J.end() && It->is_string() ? It->get<std::string>() : "";
}

bool boolAt(const nlohmann::json &J, const char *Key) {
  auto It = J.find(Key);
  return It != J.end() && It->is_boolean() && It->get<bool>();
}

/// kernelJSON's fields (SummaryWriter.cpp), back.
CarriedKernel decode(const nlohmann::json &J) {
  CarriedKernel K;
  std::vector<std::string> Params; // parameters by any name (Atom::named)
  auto Formula = J.find("formula");
  if (Formula != J.end() && Formula->is_object()) {
    Params = stringsAt(*Formula, "parameters");
    K.Flops = stringAt(*Formula, "flops");
    K.Load = stringAt(*Formula, "bytes_load");
    K.Store = stringAt(*Formula, "bytes_store");
  }
  K.Exact = boolAt(J, "exact");
  auto FP = J.find("footprint");
  bool HasFootprint = FP != J.end() && FP->is_object();
  for (const nlohmann::json *List :
       {&J, HasFootprint ? &*FP : static_cast<const nlohmann::json *>(nullptr)}) {
    if (!List)
      continue;
    auto A = List->find("assumptions");
    if (A != List->end() && A->is_array())
      for (const nlohmann::json &Item : *A)
        if (Item.is_string()) {
          std::string Text = Item.get<std::string>();
          Result<Assumption> Read = parseAssumption(Text, &Params);
          K.Assumptions.push_back(Read ? std::move(*Read)
                                       : Assumption::words(std::move(Text)));
        }
  }
  if (!HasFootprint)
    return K;
  K.FootprintExact = boolAt(*FP, "exact");
  const char *Keys[2][2] = {{"read_at_least", "read"},
                            {"written_at_least", "written"}};
  for (unsigned A = 0; A < 2; ++A)
    for (const char *Key : Keys[A])
      if (std::string Text = stringAt(*FP, Key); !K.Footprint[A] && !Text.empty())
        if (Result<Polynomial> P = formulaPolynomial(Text, &Params))
          K.Footprint[A] = *P;
  return K;
}

} // namespace

const CarriedKernel *CarriedSummaries::kernelOf(const Instruction &I) {
  const nlohmann::json *J = of(I);
  if (!J)
    return nullptr;
  auto [It, New] = Decoded.try_emplace(J);
  if (New)
    It->second = decode(*J);
  return &It->second;
}

std::vector<InlinedSummary>
inlinedSummaries(const Module &M, const std::vector<std::string> &Known) {
  std::vector<InlinedSummary> Out;
  std::map<std::string, size_t> Index;
  CarriedSummaries Summaries;
  // The summaries ride on entry markers, which are pseudo probes: their
  // users, not every instruction of the module.
  const Function *Probe = Intrinsic::getDeclarationIfExists(&M, Intrinsic::pseudoprobe);
  if (!Probe)
    return Out;
  for (const User *U : Probe->users())
    if (const auto *Call = dyn_cast<CallInst>(U)) {
        const Instruction &I = *Call;
        const Function &F = *I.getFunction();
        const nlohmann::json *S = Summaries.of(I);
        if (!S || !S->contains("name") || !(*S)["name"].is_string())
          continue;
        std::string Name = (*S)["name"].get<std::string>();
        if (Name == F.getName() ||
            std::find(Known.begin(), Known.end(), Name) != Known.end())
          continue; // its own marker, or reported from its own code
        auto [It, New] = Index.try_emplace(Name, Out.size());
        if (New) {
          const MDNode *N = I.getMetadata(SummaryKind);
          auto *Remark = dyn_cast<MDString>(N->getOperand(1));
          Out.push_back({*S, Remark ? Remark->getString().str() : "", &I});
          Out.back().Summary["inlined_into"] = nlohmann::json::array();
        }
        nlohmann::json &Into = Out[It->second].Summary["inlined_into"];
        std::string Caller = demangle(F.getName());
        if (std::find(Into.begin(), Into.end(), Caller) == Into.end())
          Into.push_back(Caller);
      }
  // In source order, as the other kernels are.
  auto Where = [](const InlinedSummary &S) {
    return std::make_tuple(S.Summary.value("file", std::string()),
                           S.Summary.value("line", 0u),
                           S.Summary.value("name", std::string()));
  };
  std::sort(Out.begin(), Out.end(),
                   [&](const InlinedSummary &A, const InlinedSummary &B) {
                     return Where(A) < Where(B);
                   });
  return Out;
}

} // namespace roofline
