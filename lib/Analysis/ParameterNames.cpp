//===- ParameterNames.cpp - The names formulas use ------------------------===//
//
// Parameters are named from debug info, from IR names, or, for CUDA device
// code whose debug info has no variables, from the declaration in the
// source file.
//
//===----------------------------------------------------------------------===//
#include "FunctionScope.h"

#include "roofline/Analysis/CostModel.h"
#include "roofline/Analysis/SCEVPolynomial.h"
#include "llvm/ADT/PostOrderIterator.h"
#include "llvm/ADT/SetVector.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/ADT/StringSwitch.h"
#include "llvm/Analysis/BranchProbabilityInfo.h"
#include "llvm/Analysis/LoopInfo.h"
#include "llvm/Analysis/ScalarEvolution.h"
#include "llvm/Analysis/ScalarEvolutionExpressions.h"
#include "llvm/Demangle/Demangle.h"
#include "llvm/IR/CFG.h"
#include "llvm/IR/DebugInfoMetadata.h"
#include "llvm/IR/DebugProgramInstruction.h"
#include "llvm/IR/Instructions.h"
#include "llvm/Support/Regex.h"
#include "llvm/IR/PatternMatch.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/TargetParser/Triple.h"
#include <cmath>
#include <set>

using namespace llvm;

namespace roofline::detail {

/// Parameter names read from the declaration in the source file, for CUDA
/// device code whose debug info is line tables only. Empty when the text
/// does not split into exactly \p Count parameters.
static std::vector<std::string> namesFromSource(const DISubprogram *SP,
                                         unsigned Count) {
  SmallString<256> Path(SP->getFilename());
  if (!sys::path::is_absolute(Path) && !SP->getDirectory().empty()) {
    Path = SP->getDirectory();
    sys::path::append(Path, SP->getFilename());
  }
  auto Buf = MemoryBuffer::getFile(Path);
  if (!Buf || SP->getLine() == 0)
    return {};
  StringRef Text = (*Buf)->getBuffer();
  for (unsigned L = 1; L < SP->getLine() && !Text.empty(); ++L)
    Text = Text.split('\n').second;
  // A template instance is named "linear<float>"; its source says "linear".
  StringRef Name = SP->getName().take_until([](char C) { return C == '<'; });
  size_t NamePos = Name.empty() ? StringRef::npos : Text.find(Name);
  if (NamePos == StringRef::npos)
    return {};
  size_t Open = Text.find('(', NamePos);
  if (Open == StringRef::npos)
    return {};
  std::vector<std::string> Names;
  int Depth = 0;
  std::string Current;
  auto Finish = [&] {
    StringRef P = StringRef(Current).split('=').first.rtrim();
    while (P.ends_with("]")) // int a[16] -> a
      P = P.substr(0, P.rfind('[')).rtrim();
    size_t Start = P.size();
    while (Start > 0 && (isAlnum(P[Start - 1]) || P[Start - 1] == '_'))
      --Start;
    Names.push_back(P.substr(Start).str());
    Current.clear();
  };
  for (size_t I = Open + 1; I < Text.size() && I < Open + 4096; ++I) {
    char C = Text[I];
    if (C == '(' || C == '<' || C == '[' || C == '{')
      ++Depth;
    else if ((C == ')' || C == '>' || C == ']' || C == '}') && Depth > 0)
      --Depth;
    else if (C == ')') {
      if (!StringRef(Current).trim().empty())
        Finish();
      break;
    } else if (C == ',' && Depth == 0) {
      Finish();
      continue;
    }
    Current += C;
  }
  if (Names.size() != Count)
    return {};
  return Names;
}

/// Parameter names from debug info (dbg records and retained nodes), the IR,
/// or the source text; else "argN". Made unique and usable in formulas.
std::vector<std::string> parameterNames(const Function &F) {
  std::vector<std::string> Names(F.arg_size());
  const DISubprogram *SP = F.getSubprogram();
  auto Take = [&](const DILocalVariable *V) {
    if (V && V->getArg() && V->getArg() <= Names.size() &&
        V->getScope() == SP && Names[V->getArg() - 1].empty())
      Names[V->getArg() - 1] = V->getName().str();
  };
  if (SP) {
    for (const DINode *N : SP->getRetainedNodes())
      Take(dyn_cast<DILocalVariable>(N));
    for (const BasicBlock &BB : F)
      for (const Instruction &I : BB)
        for (const DbgVariableRecord &DVR : filterDbgVars(I.getDbgRecordRange()))
          if (!DVR.getDebugLoc() || !DVR.getDebugLoc()->getInlinedAt())
            Take(DVR.getVariable());
  }
  std::vector<std::string> FromSource;
  for (unsigned I = 0; I < Names.size(); ++I) {
    if (!Names[I].empty())
      continue;
    if (F.getArg(I)->hasName())
      Names[I] = F.getArg(I)->getName().str();
    else if (SP) {
      if (FromSource.empty())
        FromSource = namesFromSource(SP, F.arg_size());
      if (!FromSource.empty())
        Names[I] = FromSource[I];
    }
  }
  std::set<std::string> Used;
  for (unsigned I = 0; I < Names.size(); ++I) {
    std::string &N = Names[I];
    for (char &C : N)
      if (!isAlnum(C) && C != '_')
        C = '_';
    if (N.empty() || isDigit(N[0]))
      N = "arg" + std::to_string(I);
    std::string Base = N;
    for (unsigned K = 2; Used.count(N); ++K)
      N = Base + "_" + std::to_string(K);
    Used.insert(N);
  }
  return Names;
}

bool mentionsCounter(const Polynomial &P) {
  auto IsCounter = [](const std::string &V) { return V.rfind('$', 0) == 0; };
  if (std::optional<std::set<std::string>> Leaves = P.leafVariables())
    return std::any_of(Leaves->begin(), Leaves->end(), IsCounter);
  // An opaque floor: its name is all that is known of its operands.
  for (const Atom &A : P.atoms())
    if (A.name().find('$') != std::string::npos)
      return true;
  return false;
}

std::optional<std::string> FunctionScope::nameOf(const Value *V) const {
  if (const auto *A = dyn_cast<Argument>(V))
    if (A->getParent() == &F)
      return Params[A->getArgNo()];
  if (const char *S = sregName(V))
    return std::string(S);
  return std::nullopt;
}

SCEVPolynomial FunctionScope::translator() const {
  return SCEVPolynomial(SE, [this](const Value *V) { return nameOf(V); });
}

SCEVPolynomial FunctionScope::translatorAround(const Loop *Around) const {
  SCEVPolynomial T = translator();
  bindLoops(T, Around);
  return T;
}

void FunctionScope::bindLoops(SCEVPolynomial &T, const Loop *Innermost) {
  for (const Loop *P = Innermost; P; P = P->getParentLoop())
    T.bindLoop(P, ivName(P));
}

} // namespace roofline::detail
