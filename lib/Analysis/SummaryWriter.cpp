//===- SummaryWriter.cpp - Kernel summaries as text and JSON --------------===//
#include "roofline/Analysis/SummaryWriter.h"
#include "roofline/Model/JSONAccess.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

#include <cerrno>
#include <cmath>
#include <fcntl.h>
#include <sys/file.h>
#include <unistd.h>
#include <algorithm>
#include <cstdio>
#include <set>

using namespace llvm;

namespace roofline {

namespace {

std::string number(double V) {
  char Buf[32];
  std::snprintf(Buf, sizeof(Buf), "%.4g", V);
  return Buf;
}

/// A formula as it is printed: in the kernel's parameter order.
std::string formula(const KernelSummary &K, const Polynomial &P) {
  return P.str(K.variableOrder());
}

/// A JSON number for a constant polynomial, null for a formula.
nlohmann::json value(const Polynomial &P) {
  auto C = P.constantValue();
  if (!C)
    return nullptr;
  if (C->isInteger())
    return C->num();
  return C->toDouble();
}

/// "read", "written", "read-write" from the two byte counts.
const char *accessText(const Polynomial &Read, const Polynomial &Written) {
  if (!Read.isZero() && !Written.isZero())
    return "read-write";
  return Read.isZero() ? "written" : "read";
}

std::string paramName(const KernelSummary &K, unsigned Index) {
  return Index < K.Params.size() ? K.Params[Index] : "arg" + std::to_string(Index);
}

std::string flopsByPrecision(const KernelSummary &K, const CountPolys &C) {
  std::string Out;
  for (unsigned P = 0; P < NumPrecisions; ++P) {
    Polynomial F = C.flops(Precision(P));
    if (F.isZero())
      continue;
    if (!Out.empty())
      Out += ", ";
    Out += std::string(precisionName(Precision(P))) + " " + formula(K, F);
  }
  return Out.empty() ? "none" : Out;
}

} // namespace

std::string intensityText(const Polynomial &Flops, const Polynomial &Bytes) {
  auto W = Flops.constantValue(), Q = Bytes.constantValue();
  if (W && Q) {
    if (Q->isZero())
      return "I undefined (no memory traffic)";
    return "I = " + number(W->toDouble() / Q->toDouble()) + " FLOP/B";
  }
  if (Bytes.isZero())
    return "I undefined (no memory traffic)";
  Polynomial WL = Flops.leadingTerms(), QL = Bytes.leadingTerms();
  if (Flops.degree() == Bytes.degree())
    if (auto R = WL.ratioTo(QL))
      return "I -> " + number(R->toDouble()) + " FLOP/B for large sizes";
  if (Flops.degree() > Bytes.degree())
    return "I grows with the problem size (FLOPs degree " +
           std::to_string(Flops.degree()) + ", bytes degree " +
           std::to_string(Bytes.degree()) + ")";
  if (Flops.degree() < Bytes.degree())
    return "I -> 0 FLOP/B for large sizes";
  return "I = (" + Flops.str() + ")/(" + Bytes.str() + ") FLOP/B";
}

std::string kernelText(const KernelSummary &K) {
  std::string S;
  raw_string_ostream OS(S);
  const CountPolys &C = K.Totals;
  OS << "kernel " << K.DisplayName << " [" << K.Kind << ", per " << K.Per
     << "]";
  if (!K.File.empty())
    OS << " at " << sys::path::filename(K.File) << ":" << K.Line;
  OS << "\n";
  OS << "  flops: " << formula(K, C.flops()) << " ("
     << (K.Exact ? "exact" : "estimate") << ")\n";
  OS << "  by precision: " << flopsByPrecision(K, C) << "\n";
  for (unsigned P = 0; P < NumPrecisions; ++P) {
    std::string Classes;
    for (unsigned Cl = 0; Cl < NumFlopClasses; ++Cl) {
      const Polynomial &N = C.Slots[flopSlot(Precision(P), FlopClass(Cl))];
      if (N.isZero())
        continue;
      Classes += std::string(" ") + flopClassName(FlopClass(Cl)) + " " +
                 formula(K, N) + ";";
    }
    if (!Classes.empty())
      OS << "  " << precisionName(Precision(P)) << " ops:" << Classes << "\n";
  }
  OS << "  special: " << formula(K, C.special()) << "\n";
  if (!C.intOps().isZero()) {
    OS << "  intops: " << formula(K, C.intOps()) << "\n";
    for (unsigned W = 0; W < NumIntWidths; ++W) {
      std::string Kinds;
      for (unsigned Kd = 0; Kd < NumIntKinds; ++Kd) {
        const Polynomial &N = C.Slots[intSlot(IntWidth(W), IntKind(Kd))];
        if (!N.isZero())
          Kinds += std::string(" ") + intKindName(IntKind(Kd)) + " " +
                   formula(K, N) + ";";
      }
      if (!Kinds.empty())
        OS << "  " << intWidthName(IntWidth(W)) << " ops:" << Kinds << "\n";
    }
  }
  OS << "  bytes: load " << formula(K, C.bytes(Access::Load)) << ", store "
     << formula(K, C.bytes(Access::Store)) << "\n";
  for (unsigned Sp = 0; Sp < NumMemSpaces; ++Sp) {
    Polynomial L = C.bytes(MemSpace(Sp), Access::Load),
               St = C.bytes(MemSpace(Sp), Access::Store);
    if (L.isZero() && St.isZero())
      continue;
    OS << "  " << memSpaceName(MemSpace(Sp)) << ": load " << formula(K, L)
       << ", store " << formula(K, St) << "\n";
  }
  OS << "  intensity: "
     << intensityText(C.flops(), C.bytes(Access::Load) + C.bytes(Access::Store))
     << "\n";
  OS << "  instructions: " << formula(K, C.Instructions) << "\n";
  for (const auto &[Arg, LS] : C.ArgBytes)
    if (!LS[0].isZero() || !LS[1].isZero())
      OS << "  param " << paramName(K, Arg) << ": "
         << accessText(LS[0], LS[1]) << ", read " << formula(K, LS[0])
         << " B, written " << formula(K, LS[1]) << " B\n";
  OS << "  footprint per " << (K.IsGPU ? "launch" : "call") << ": "
     << footprintText(K, K.Footprint.Total) << "\n";
  for (const auto &[Array, FA] : K.Footprint.ByArray)
    OS << "  footprint " << Array << ": " << footprintText(K, FA) << "\n";
  for (const Assumption &A : K.Footprint.Total.Assumptions)
    OS << "  footprint assumes: " << A.str() << "\n";
  for (const std::string &N : K.Footprint.Total.Notes)
    OS << "  footprint note: " << N << "\n";
  for (const auto &[Name, N] : C.Unknown)
    OS << "  unknown: " << Name << " x " << formula(K, N) << "\n";
  for (const Assumption &A : K.Assumptions)
    OS << "  assumes: " << A.str() << "\n";
  for (const std::string &N : K.Notes)
    OS << "  note: " << N << "\n";
  for (const LoopSummary &L : K.Loops) {
    OS << "  loop at " << sys::path::filename(L.File) << ":" << L.Line
       << " depth " << L.Depth << ": trip " << formula(K, L.Trip) << ", flops "
       << formula(K, L.Totals.flops()) << ", load "
       << formula(K, L.Totals.bytes(Access::Load)) << ", store "
       << formula(K, L.Totals.bytes(Access::Store))
       << (L.Exact ? "" : " (estimate)") << ", footprint "
       << footprintText(K, L.Footprint) << "\n";
  }
  return S;
}

std::string footprintText(const KernelSummary &K, const FootprintCounts &F) {
  auto Side = [&](const Polynomial &AtMost, const Polynomial &AtLeast) {
    if (F.Exact || AtMost == AtLeast)
      return formula(K, AtMost);
    return formula(K, AtLeast) + " to " + formula(K, AtMost);
  };
  std::string If;
  for (const Assumption &A : F.Assumptions)
    If += (If.empty() ? " if " : "; ") + A.str();
  return "read " + Side(F.Read, F.ReadAtLeast) + " B, written " +
         Side(F.Written, F.WrittenAtLeast) + " B" +
         (F.Exact ? " (exact" + If + ")" : " (bounds)");
}

nlohmann::json footprintJSON(const KernelSummary &K, const FootprintCounts &F) {
  nlohmann::json J;
  J["read"] = formula(K, F.Read);
  J["written"] = formula(K, F.Written);
  J["exact"] = F.Exact;
  if (!F.ReadOwn.isZero())
    J["read_own"] = formula(K, F.ReadOwn);
  if (!F.Exact) {
    J["read_at_least"] = formula(K, F.ReadAtLeast);
    J["written_at_least"] = formula(K, F.WrittenAtLeast);
  }
  std::string Note;
  for (const std::string &N : F.Notes)
    Note += (Note.empty() ? "" : "; ") + N;
  J["note"] = Note;
  J["assumptions"] = texts(F.Assumptions);
  J["per"] = K.IsGPU ? "launch" : "call";
  return J;
}

std::vector<RemarkArg> kernelRemarkArgs(const KernelSummary &K) {
  const CountPolys &C = K.Totals;
  std::vector<RemarkArg> A;
  auto Text = [&](std::string T) { A.push_back({"", std::move(T)}); };
  A.push_back({"Kernel", K.DisplayName});
  Text(": ");
  A.push_back({"FLOPs", formula(K, C.flops())});
  Text(" FLOP");
  std::string ByPrecision = flopsByPrecision(K, C);
  unsigned Precisions = 0;
  for (unsigned P = 0; P < NumPrecisions; ++P)
    Precisions += !C.flops(Precision(P)).isZero();
  if (Precisions == 1) {
    Text(" ");
    A.push_back({"Precision", ByPrecision.substr(0, ByPrecision.find(' '))});
  } else if (Precisions > 1) {
    Text(" (");
    A.push_back({"FLOPsByPrecision", ByPrecision});
    Text(")");
  }
  Text(" (");
  A.push_back({"Exact", K.Exact ? "exact" : "estimate"});
  Text(")");
  if (!C.special().isZero()) {
    Text(", ");
    A.push_back({"Special", formula(K, C.special())});
    Text(" special");
  }
  Text(", load ");
  A.push_back({"BytesLoad", formula(K, C.bytes(Access::Load))});
  Text(" B, store ");
  A.push_back({"BytesStore", formula(K, C.bytes(Access::Store))});
  Text(" B, ");
  A.push_back({"Intensity", intensityText(C.flops(), C.bytes(Access::Load) +
                                                         C.bytes(Access::Store))});
  Text(", per ");
  A.push_back({"Per", K.Per});
  Text("; footprint per " + std::string(K.IsGPU ? "launch" : "call") + ": ");
  A.push_back({"Footprint", footprintText(K, K.Footprint.Total)});
  if (!K.Assumptions.empty()) {
    std::string T;
    for (size_t I = 0; I < K.Assumptions.size(); ++I)
      T += (I ? "; " : "") + K.Assumptions[I].str();
    Text("; assumes ");
    A.push_back({"Assumes", T});
  }
  for (const std::string &N : K.Notes)
    Text("; " + N);
  return A;
}

std::string remarkText(const std::vector<RemarkArg> &Args) {
  std::string S;
  for (const RemarkArg &A : Args)
    S += A.Value;
  return S;
}

std::string kernelRemark(const KernelSummary &K) {
  return remarkText(kernelRemarkArgs(K));
}

std::vector<RemarkArg> loopRemarkArgs(const KernelSummary &K, const LoopSummary &L) {
  const CountPolys &C = L.Totals;
  return {{"", "loop in "},
          {"Kernel", K.DisplayName},
          {"", ": trip "},
          {"Trip", formula(K, L.Trip)},
          {"", ", "},
          {"FLOPs", formula(K, C.flops())},
          {"", std::string(" FLOP") + (L.Exact ? "" : " (estimate)") + ", load "},
          {"BytesLoad", formula(K, C.bytes(Access::Load))},
          {"", " B, store "},
          {"BytesStore", formula(K, C.bytes(Access::Store))},
          {"", " B, "},
          {"Intensity", intensityText(C.flops(), C.bytes(Access::Load) +
                                                     C.bytes(Access::Store))}};
}

std::string loopRemark(const KernelSummary &K, const LoopSummary &L) {
  return remarkText(loopRemarkArgs(K, L));
}

/// The "formula" object: every count as a formula in the parameters it
/// uses, by FLOP class, integer class and memory space.
static nlohmann::json formulaJSON(const KernelSummary &K) {
  using nlohmann::json;
  const CountPolys &C = K.Totals;
  json Formula = json::object();
  Formula["flops"] = formula(K, C.flops());
  Formula["special"] = formula(K, C.special());
  Formula["intops"] = formula(K, C.intOps());
  Formula["instructions"] = formula(K, C.Instructions);
  Formula["bytes_load"] = formula(K, C.bytes(Access::Load));
  Formula["bytes_store"] = formula(K, C.bytes(Access::Store));
  std::set<std::string> Used;
  auto Collect = [&](const Polynomial &P) {
    for (const std::string &V : P.variables())
      Used.insert(V);
  };
  for (const auto &[Slot, P] : C.Slots)
    Collect(P);
  // The instructions' named variables too, not the unknowns only they may
  // have (a loop without work whose trip count is unknown; -O0).
  if (C.Instructions.isValid())
    for (const Atom &A : C.Instructions.atoms())
      if (A.kind() != AtomKind::Unknown && A.kind() != AtomKind::UnknownTrip &&
          A.kind() != AtomKind::Floor)
        Used.insert(A.name());
  // The footprint's sizes too (not the CUDA launch built-ins: a launch
  // binds those).
  for (const Polynomial *P : {&K.Footprint.Total.ReadAtLeast,
                              &K.Footprint.Total.WrittenAtLeast})
    if (P->isValid())
      for (const Atom &A : P->atoms())
        if (A.kind() != AtomKind::LaunchDim)
          Used.insert(A.name());

  json Params = json::array();
  for (const std::string &P : K.Params)
    if (Used.count(P))
      Params.push_back(P);
  for (const std::string &V : Used)
    if (std::find(K.Params.begin(), K.Params.end(), V) == K.Params.end())
      Params.push_back(V);
  Formula["params"] = Params;
  // The kernel's parameters, every one: a reader types these names as
  // parameters whatever they spell (a C parameter named `unknown`).
  Formula["parameters"] = K.Params;
  json Classes = json::object();
  for (unsigned P = 0; P < NumPrecisions; ++P)
    for (unsigned Cl = 0; Cl < NumFlopClasses; ++Cl) {
      const Polynomial &N = C.Slots[flopSlot(Precision(P), FlopClass(Cl))];
      if (!N.isZero())
        Classes[precisionName(Precision(P))][flopClassName(FlopClass(Cl))] =
            formula(K, N);
    }
  Formula["classes"] = Classes;
  json IntClasses = json::object();
  for (unsigned W = 0; W < NumIntWidths; ++W)
    for (unsigned Kd = 0; Kd < NumIntKinds; ++Kd) {
      const Polynomial &N = C.Slots[intSlot(IntWidth(W), IntKind(Kd))];
      if (!N.isZero())
        IntClasses[intWidthName(IntWidth(W))][intKindName(IntKind(Kd))] =
            formula(K, N);
    }
  Formula["int_classes"] = IntClasses;
  json Spaces = json::object();
  for (unsigned Sp = 0; Sp < NumMemSpaces; ++Sp)
    for (Access A : {Access::Load, Access::Store}) {
      const Polynomial &N = C.bytes(MemSpace(Sp), A);
      if (!N.isZero())
        Spaces[memSpaceName(MemSpace(Sp))]
              [A == Access::Load ? "load" : "store"] = formula(K, N);
    }
  for (unsigned Sp = 0; Sp < NumMemSpaces; ++Sp)
    if (Polynomial N = C.shareable(MemSpace(Sp)); !N.isZero())
      Spaces[memSpaceName(MemSpace(Sp))]["warp_shareable"] = formula(K, N);
  Formula["bytes_by_space"] = Spaces;
  return Formula;
}

/// "pointer_params": the bytes read and written through each pointer
/// argument, with its footprint where known.
static nlohmann::json pointersJSON(const KernelSummary &K) {
  using nlohmann::json;
  const CountPolys &C = K.Totals;
  json Pointers = json::array();
  for (const auto &[Arg, LS] : C.ArgBytes)
    if (!LS[0].isZero() || !LS[1].isZero())
      Pointers.push_back({{"index", Arg},
                          {"name", paramName(K, Arg)},
                          {"access", accessText(LS[0], LS[1])},
                          {"bytes_read", formula(K, LS[0])},
                          {"bytes_written", formula(K, LS[1])}});
  for (json &P : Pointers) {
    auto It = K.Footprint.ByArray.find(P["name"].get<std::string>());
    if (It != K.Footprint.ByArray.end())
      P["footprint"] = footprintJSON(K, It->second);
  }
  return Pointers;
}

/// "loops": each loop's trip and counts.
static nlohmann::json loopsJSON(const KernelSummary &K) {
  using nlohmann::json;
  json Loops = json::array();
  for (const LoopSummary &L : K.Loops)
    Loops.push_back({{"file", L.File},
                     {"line", L.Line},
                     {"column", L.Column},
                     {"depth", L.Depth},
                     {"trip", formula(K, L.Trip)},
                     {"trip_known", L.TripKnown},
                     {"exact", L.Exact},
                     {"flops", formula(K, L.Totals.flops())},
                     {"intops", formula(K, L.Totals.intOps())},
                     {"bytes_load", formula(K, L.Totals.bytes(Access::Load))},
                     {"bytes_store", formula(K, L.Totals.bytes(Access::Store))},
                     {"footprint", footprintJSON(K, L.Footprint)}});
  return Loops;
}

nlohmann::json kernelJSON(const KernelSummary &K) {
  using nlohmann::json;
  const CountPolys &C = K.Totals;
  json J;
  J["name"] = K.Name;
  J["display_name"] = K.DisplayName;
  J["kind"] = K.Kind;
  J["file"] = K.File;
  J["line"] = K.Line;
  J["per"] = K.Per;
  J["target"] = K.Target;

  json Flops = json::object();
  for (unsigned P = 0; P < NumPrecisions; ++P)
    Flops[precisionName(Precision(P))] = value(C.flops(Precision(P)));
  Flops["total"] = value(C.flops());
  Flops["special"] = value(C.special());
  J["flops"] = Flops;
  json ByWidth = json::object(), ByKind = json::object();
  for (unsigned W = 0; W < NumIntWidths; ++W)
    ByWidth[intWidthName(IntWidth(W))] = value(C.intOps(IntWidth(W)));
  for (unsigned Kd = 0; Kd < NumIntKinds; ++Kd)
    ByKind[intKindName(IntKind(Kd))] = value(C.intKind(IntKind(Kd)));
  J["intops"] = {{"total", value(C.intOps())},
                 {"by_width", ByWidth},
                 {"by_kind", ByKind}};
  J["instructions"] = value(C.Instructions);

  json Bytes = json::object();
  Bytes["load"] = value(C.bytes(Access::Load));
  Bytes["store"] = value(C.bytes(Access::Store));
  for (unsigned Sp = 0; Sp < NumMemSpaces; ++Sp) {
    Polynomial L = C.bytes(MemSpace(Sp), Access::Load),
               St = C.bytes(MemSpace(Sp), Access::Store);
    if (L.isZero() && St.isZero())
      continue;
    Bytes[memSpaceName(MemSpace(Sp))] = {{"load", value(L)},
                                         {"store", value(St)}};
  }
  J["bytes"] = Bytes;

  J["formula"] = formulaJSON(K);

  J["exact"] = K.Exact;
  J["upper_bound"] = C.UpperBound;
  J["notes"] = K.Notes;
  J["assumptions"] = texts(K.Assumptions);
  json Unknown = json::array();
  for (const auto &[Name, N] : C.Unknown)
    Unknown.push_back({{"name", Name}, {"count", formula(K, N)}});
  J["unknown"] = Unknown;
  J["pointer_params"] = pointersJSON(K);
  J["footprint"] = footprintJSON(K, K.Footprint.Total);

  J["loops"] = loopsJSON(K);
  return J;
}

std::string summaryFileInDirectory(const std::string &Dir,
                                   const std::string &Source,
                                   const std::string &Target) {
  std::string Name = sys::path::filename(Source).str();
  if (Name.empty())
    Name = "module";
  std::string Tgt = Target;
  for (char &C : Tgt)
    if (!isalnum((unsigned char)C) && C != '_' && C != '.')
      C = '-';
  SmallString<256> P(Dir);
  sys::path::append(P, Name + "." + Tgt + ".roofline.json");
  return std::string(P);
}

std::string writeSummaryFile(const std::string &Path, const std::string &Source,
                             const std::string &Target,
                             const std::vector<KernelSummary> &Kernels,
                             const std::vector<nlohmann::json> &Inlined) {
  using nlohmann::json;
  // Serialise concurrent compilations writing one file (host + device, or a
  // parallel build) with a lock on its directory: no lock file is left
  // beside the summaries.
  SmallString<256> Dir(Path);
  sys::path::remove_filename(Dir);
  if (Dir.empty())
    Dir = ".";
  int LockFD = ::open(Dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (LockFD < 0)
    return "cannot write static summary '" + Path + "': " +
           std::error_code(errno, std::generic_category()).message();
  while (::flock(LockFD, LOCK_EX) != 0 && errno == EINTR) {
  }

  json Doc = {{"schema", "roofline-static-summary"},
              {"version", 1},
              {"kernels", json::array()}};
  if (auto Old = MemoryBuffer::getFile(Path)) {
    json Prev = json::parse((*Old)->getBuffer().begin(),
                            (*Old)->getBuffer().end(), nullptr, false);
    if (!Prev.is_discarded() && Prev.is_object() && Prev.contains("kernels") &&
        Prev["kernels"].is_array())
      for (const json &K : Prev["kernels"])
        if (!(stringOr(K, "source", "") == Source &&
              stringOr(K, "target", "") == Target))
          Doc["kernels"].push_back(K);
  }
  for (const KernelSummary &K : Kernels) {
    json J = kernelJSON(K);
    J["source"] = Source;
    Doc["kernels"].push_back(J);
  }
  for (json J : Inlined) {
    J["source"] = Source;
    Doc["kernels"].push_back(J);
  }

  std::string Error;
  SmallString<256> Temp;
  int TempFD;
  if (std::error_code EC = sys::fs::createUniqueFile(Path + ".tmp-%%%%%%",
                                                     TempFD, Temp)) {
    Error = "cannot write static summary '" + Path + "': " + EC.message();
  } else {
    {
      raw_fd_ostream OS(TempFD, /*shouldClose=*/true);
      OS << Doc.dump(2) << "\n";
      OS.close();
      if (OS.has_error())
        Error = "cannot write static summary '" + Path +
                "': " + OS.error().message();
    }
    if (Error.empty())
      if (std::error_code EC = sys::fs::rename(Temp, Path))
        Error = "cannot write static summary '" + Path + "': " + EC.message();
    if (!Error.empty())
      sys::fs::remove(Temp);
  }
  ::flock(LockFD, LOCK_UN);
  ::close(LockFD);
  return Error;
}

} // namespace roofline
