//===- LaunchGroups.cpp - CUDA launches by launch configuration -----------===//
//
// A launch record has total FLOPs and DRAM bytes: the precision mix and the
// other memory spaces are the kernel's, scaled to the group. The static
// predictions are evaluated once per configuration, when the records are
// made (the formulas may come after the rows in the file); sums are taken
// in the order of the rows, as they always were.
//
//===----------------------------------------------------------------------===//
#include "roofline/Model/LaunchGroups.h"
#include "roofline/Model/Formula.h"
#include "roofline/Model/JSONAccess.h"
#include "roofline/Runtime/DeviceLaunch.h"
#include "roofline/Runtime/ProfileKeys.h"

#include <algorithm>
#include <cstdio>
#include <cstring>

namespace roofline {

using nlohmann::json;

namespace {

// Rows of numbers named by launch_columns; the scalar arguments last.
const char *const Fixed[] = ROOFLINE_LAUNCH_COLUMNS;
constexpr size_t NumFixed = sizeof(Fixed) / sizeof(Fixed[0]);

/// "4096" for (4096, 1, 1), else "64x64x1".
std::string dims(double X, double Y, double Z) {
  auto I = [](double V) {
    return std::to_string(clampedUnsigned(V, UINT64_MAX >> 1));
  };
  return Y == 1 && Z == 1 ? I(X) : I(X) + "x" + I(Y) + "x" + I(Z);
}

std::string shortNumber(double V) {
  char Buf[32];
  std::snprintf(Buf, sizeof(Buf), "%.10g", V);
  return Buf;
}

uint64_t bitsOf(double V) {
  uint64_t B;
  std::memcpy(&B, &V, sizeof(B));
  return B;
}

std::vector<std::string> columnsOf(const json *C) {
  std::vector<std::string> Out;
  if (C && C->is_array())
    for (const json &V : *C)
      Out.push_back(V.is_string() ? V.get<std::string>() : "");
  return Out;
}

} // namespace

struct LaunchGroups::Group {
  KernelRecord::LaunchShape Shape;
  double Calls = 0, Seconds = 0, Flops = 0, Load = 0, Store = 0;
  double Dims[6] = {};
  std::map<std::string, double> Args; ///< of the first launch
  std::optional<double> Footprint;    ///< per launch of this configuration
  double FootprintSum = 0;
};

size_t LaunchGroups::KeyHash::operator()(const std::vector<uint64_t> &K) const {
  uint64_t H = 1469598103934665603ull;
  for (uint64_t W : K)
    H = (H ^ W) * 1099511628211ull;
  return size_t(H ^ (H >> 29));
}

LaunchGroups::LaunchGroups(const json *Columns) {
  if (Columns)
    setColumns(Columns);
}

LaunchGroups::~LaunchGroups() = default;

void LaunchGroups::setColumns(const json *C) {
  Known = true;
  Columns = columnsOf(C);
  for (size_t I = 0; I < NumFixed && ColumnsError.empty(); ++I)
    if (I >= Columns.size() || Columns[I] != Fixed[I])
      ColumnsError = ".launch_columns: expected \"" + std::string(Fixed[I]) +
                     "\" as column " + std::to_string(I + 1);
}

void LaunchGroups::row(const LaunchRow &R) {
  size_t Index = Rows++;
  if (!Known)
    Pending.push_back(R);
  else
    add(R, Index);
}

void LaunchGroups::add(const LaunchRow &E, size_t I) {
  if (!ColumnsError.empty() || !RowError.empty())
    return; // the first error is the one reported
  std::string At = ".launches[" + std::to_string(I) + "]";
  if (!E.IsArray || E.Cells.size() != Columns.size()) {
    RowError = At + ": expected an array of " + std::to_string(Columns.size()) +
               " values (launch_columns)";
    return;
  }
  double V[NumFixed];
  for (size_t C = 0; C < NumFixed; ++C) {
    if (!E.Cells[C].isNumber() || E.Cells[C].number() < 0) {
      RowError = At + ": " + Fixed[C] + ": expected a number >= 0";
      return;
    }
    V[C] = E.Cells[C].number();
  }
  if (std::min({V[0], V[1], V[2], V[3], V[4], V[5]}) < 1) {
    RowError = At + ": grid and block sizes must be >= 1";
    return;
  }
  // The configuration is a function of these numbers: seen before, it is
  // found by them; new, its key is formatted once.
  Bits.clear();
  for (size_t C = 0; C <= 6; ++C)
    Bits.push_back(bitsOf(V[C]));
  for (size_t C = NumFixed; C < Columns.size(); ++C) {
    Bits.push_back(E.Cells[C].isNumber());
    if (E.Cells[C].isNumber())
      Bits.push_back(bitsOf(E.Cells[C].number()));
  }
  auto Seen = ByBits.find(Bits);
  size_t Index;
  if (Seen != ByBits.end()) {
    Index = Seen->second;
  } else {
    std::string Key = "<<<" + dims(V[0], V[1], V[2]) + ", " +
                      dims(V[3], V[4], V[5]) +
                      (V[6] > 0 ? ", " + shortNumber(V[6]) : "") + ">>>";
    std::map<std::string, double> Args;
    for (size_t C = NumFixed; C < Columns.size(); ++C)
      if (E.Cells[C].isNumber()) {
        double A = E.Cells[C].number();
        Args[Columns[C]] = A;
        Key += " " + Columns[C] + "=" + shortNumber(A);
      }
    auto [It, New] = ByConfig.try_emplace(Key, Groups.size());
    if (New) {
      auto G = std::make_unique<Group>();
      G->Shape.Config = Key;
      G->Shape.Threads = V[0] * V[1] * V[2] * V[3] * V[4] * V[5];
      std::copy(V, V + 6, G->Dims);
      G->Args = std::move(Args);
      Groups.push_back(std::move(G));
    }
    Index = It->second;
    ByBits.emplace(Bits, Index);
  }
  Group &G = *Groups[Index];
  G.Calls += 1;
  G.Seconds += V[9];
  G.Flops += V[11];
  G.Load += V[12];
  G.Store += V[13];
}

/// The static formulas of a kernel's profile record ("static"), read once
/// for all its launch groups; one that does not read predicts nothing.
struct LaunchGroups::StaticPrediction {
  std::optional<Formula> Flops, Load, Store, FootRead, FootWritten;
  bool FootExact = false;

  static StaticPrediction of(const json &K, const KernelRecord &Total) {
    StaticPrediction P;
    P.Flops = Total.StaticFlops;
    if (!K.contains(key::Static) || !K[key::Static].is_object())
      return P;
    const json &S = K[key::Static];
    std::vector<std::string> Params = stringsAt(S, key::Params);
    auto Read = [&](const json &O, const char *Key, const char *Default,
                    std::optional<Formula> &Dst) {
      if (Result<Formula> F = Formula::read(stringOr(O, Key, Default), &Params))
        Dst = *F;
    };
    Read(S, key::BytesLoad, "0", P.Load);
    Read(S, key::BytesStore, "0", P.Store);
    if (S.contains(key::Footprint) && S[key::Footprint].is_object()) {
      Read(S[key::Footprint], key::Read, "", P.FootRead);
      Read(S[key::Footprint], key::Written, "", P.FootWritten);
      P.FootExact = boolOr(S[key::Footprint], key::Exact, false);
    }
    return P;
  }

  /// \p G's predicted FLOPs and bytes (per-thread counts that vary with
  /// the thread: their mean over the first launch's threads) and its
  /// footprint per launch, in the arguments and the dimensions.
  void apply(Group &G) const {
    LaunchDims Dims;
    std::copy(G.Dims, G.Dims + 3, Dims.Grid);
    std::copy(G.Dims + 3, G.Dims + 6, Dims.Block);
    if (Flops)
      if (Result<double> F = evaluatePerThreadMean(*Flops, G.Args, Dims))
        G.Shape.PredictedFlops = *F * G.Shape.Threads;
    if (Load && Store) {
      Result<double> L = evaluatePerThreadMean(*Load, G.Args, Dims);
      Result<double> S = evaluatePerThreadMean(*Store, G.Args, Dims);
      if (L && S)
        G.Shape.PredictedBytes = (*L + *S) * G.Shape.Threads;
    }
    if (!FootRead || !FootWritten)
      return;
    std::map<std::string, double> Values = G.Args;
    const char *Axes[] = {"x", "y", "z"};
    for (int A = 0; A < 3; ++A) {
      Values[std::string("gridDim.") + Axes[A]] = Dims.Grid[A];
      Values[std::string("blockDim.") + Axes[A]] = Dims.Block[A];
    }
    Result<double> FR = evaluateFormula(*FootRead, Values);
    Result<double> FW = evaluateFormula(*FootWritten, Values);
    if (FR && FW)
      G.Footprint = std::max(0.0, *FR) + std::max(0.0, *FW);
  }
};

Result<std::vector<KernelRecord>>
LaunchGroups::records(const json &K, const KernelRecord &Total,
                      const std::string &Where) {
  const json *FinalColumns =
      K.contains(key::LaunchColumns) ? &K[key::LaunchColumns] : nullptr;
  if (!Known) {
    setColumns(FinalColumns);
    for (size_t I = 0; I < Pending.size(); ++I)
      add(Pending[I], I);
    Pending.clear();
  } else if (columnsOf(FinalColumns) != Columns) {
    return Failure{Where + ".launch_columns: given twice, differently"};
  }
  if (!ColumnsError.empty())
    return Failure{Where + ColumnsError};
  if (!RowError.empty())
    return Failure{Where + RowError};

  StaticPrediction Predict = StaticPrediction::of(K, Total);
  for (const std::unique_ptr<Group> &P : Groups) {
    Group &G = *P;
    Predict.apply(G);
    // Summed launch by launch, as the rows came.
    for (double N = 0; N < G.Calls; ++N)
      G.FootprintSum += G.Footprint.value_or(0);
  }

  std::vector<const Group *> Order;
  for (const std::unique_ptr<Group> &G : Groups)
    Order.push_back(G.get());
  // Launches beyond the runtime's record limit: the rest of the totals.
  const Measurement &T = *Total.Measured;
  double TotalFlops = K.contains(key::Flops) && K[key::Flops].is_object()
                          ? numberOr(K[key::Flops], key::Total, 0)
                          : 0;
  double Dropped = numberOr(K, key::LaunchesNotRecorded, 0);
  Group Rest;
  if (Dropped > 0) {
    Rest.Shape.Config = "(" + shortNumber(Dropped) + " launches not recorded)";
    Rest.Shape.Threads = 0; // no shape: the totals' remainder
    Rest.Calls = T.Calls, Rest.Seconds = T.Seconds, Rest.Load = T.BytesLoad,
    Rest.Store = T.BytesStore, Rest.Flops = TotalFlops;
    for (const auto &[Key, Index] : ByConfig) { // in the order of the keys
      const Group &G = *Groups[Index];
      Rest.Calls -= G.Calls, Rest.Seconds -= G.Seconds, Rest.Flops -= G.Flops;
      Rest.Load -= G.Load, Rest.Store -= G.Store;
    }
    Order.push_back(&Rest);
  }
  std::vector<KernelRecord> Out;
  for (const Group *P : Order) {
    const Group &G = *P;
    KernelRecord R = Total;
    // "saxpy <<<4096, 256>>> n=1048576": the signature is in the kernel's
    // own row of the static summary; here the configuration matters.
    R.DisplayName = R.DisplayName.substr(0, R.DisplayName.find('(')) + " " +
                    G.Shape.Config;
    R.Launch = G.Shape;
    Measurement &M = *R.Measured;
    M.Calls = G.Calls;
    M.Seconds = G.Seconds;
    double FlopShare = TotalFlops > 0 ? G.Flops / TotalFlops : 0;
    for (auto &[Prec, Classes] : M.Classes)
      for (auto &[C, N] : Classes)
        N *= FlopShare;
    double TotalBytes = T.BytesLoad + T.BytesStore;
    double ByteShare = TotalBytes > 0 ? (G.Load + G.Store) / TotalBytes : 0;
    for (auto &[Space, LS] : M.BytesBySpace)
      LS = {LS.first * ByteShare, LS.second * ByteShare};
    for (auto &[Space, N] : M.ShareableBySpace)
      N *= ByteShare;
    M.BytesLoad = G.Load;
    M.BytesStore = G.Store;
    // Launches are grouped by their FLOPs and bytes; their instructions
    // are known only for the kernel as a whole.
    if (Order.size() > 1)
      M.Instructions.reset();
    if (G.Footprint) {
      M.Footprint = G.FootprintSum;
      M.FootprintExact = Predict.FootExact;
    }
    Out.push_back(std::move(R));
  }
  return Out;
}

} // namespace roofline
