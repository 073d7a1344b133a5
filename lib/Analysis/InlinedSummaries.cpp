//===- InlinedSummaries.cpp - Static summaries of inlined kernels ---------===//
#include "roofline/Analysis/InlinedSummaries.h"
#include "roofline/Analysis/SummaryWriter.h"

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
