//===- TraceFusion.cpp - Fusion candidates from a traced run --------------===//
#include "roofline/Model/TraceFusion.h"
#include "roofline/Model/Formula.h"
#include "roofline/Model/JSONAccess.h"
#include "roofline/Runtime/ProfileKeys.h"

#include <algorithm>
#include <map>
#include <optional>
#include <tuple>

namespace roofline {

using nlohmann::json;

namespace {

struct PointerParam {
  unsigned Index = 0;
  std::string Name, Read, Written; ///< counted bytes
  /// The array's footprint when exact (each byte once): what fusing saves.
  std::string FootprintRead, FootprintWritten;
  /// The bytes [lo, hi) from the pointer it reads and writes, when known.
  std::string ReadLo, ReadHi, WrittenLo, WrittenHi;
};

/// What the analysis needs of one kernel of the profile.
struct TracedKernel {
  std::string Display, File;
  unsigned Line = 0;
  std::vector<std::string> Params;
  std::vector<PointerParam> Pointers;
  bool PerThread = false; ///< a CUDA kernel: formulas per thread, rows end
                          ///< with the launch's threads
  Work PerCall;
  double BytesPerCall = 0, SecondsPerCall = 0;
  /// The measured footprint per call; unset when the run did not measure it.
  std::optional<double> FootprintPerCall;
};

/// One write of a buffer and the calls that read it before it is written
/// again.
struct Write {
  const TracedKernel *Kernel;
  std::string Param;
  uint64_t Begin, End;
  double Bytes, Footprint; ///< counted; the footprint (or counted when unknown)
  struct Read {
    size_t Call;
    const TracedKernel *Kernel;
    std::string Param;
    double Bytes, Footprint;
  };
  std::vector<Read> Reads;
};

std::string shortName(const std::string &Display) {
  return Display.substr(0, Display.find('('));
}

Result<std::map<std::string, TracedKernel>> tracedKernels(const json &J,
                                                          const std::string &Path) {
  std::map<std::string, TracedKernel> Out;
  const json &Kernels = J[key::Kernels];
  for (size_t I = 0; I < Kernels.size(); ++I) {
    const json &K = Kernels[I];
    if (!K.is_object() || !K.contains(key::Static) ||
        !K[key::Static].is_object())
      continue;
    const json &S = K[key::Static];
    TracedKernel T;
    T.Display =
        shortName(stringOr(K, key::DisplayName, stringOr(K, key::Name, "")));
    T.File = stringOr(K, key::File, "");
    T.Line = unsigned(clampedUnsigned(numberOr(K, key::Line, 0)));
    T.PerThread = stringOr(S, key::Per, "") == value::PerThread;
    for (const json &P : arrayOr(S, key::Params))
      T.Params.push_back(P.is_string() ? P.get<std::string>() : "");
    for (const json &P : arrayOr(S, key::PointerParams)) {
      double Index = numberOr(P, key::Index, -1);
      if (Index < 0 || Index >= double(T.Params.size()))
        return Failure{Path + ": kernels[" + std::to_string(I) +
                       "].static.pointer_params: index out of range"};
      PointerParam PP{unsigned(Index),
                      stringOr(P, key::Name, ""),
                      stringOr(P, key::BytesRead, "0"),
                      stringOr(P, key::BytesWritten, "0"),
                      "",
                      "",
                      "",
                      "",
                      "",
                      ""};
      if (P.contains(key::Footprint) && P[key::Footprint].is_object() &&
          boolOr(P[key::Footprint], key::Exact, false)) {
        PP.FootprintRead = stringOr(P[key::Footprint], key::Read, "");
        PP.FootprintWritten = stringOr(P[key::Footprint], key::Written, "");
      }
      for (auto [Key, Lo, Hi] :
           {std::tuple<const char *, std::string *, std::string *>{
                key::ReadRange, &PP.ReadLo, &PP.ReadHi},
            {key::WrittenRange, &PP.WrittenLo, &PP.WrittenHi}})
        if (P.contains(Key) && P[Key].is_array() && P[Key].size() == 2 &&
            P[Key][0].is_string() && P[Key][1].is_string()) {
          *Lo = P[Key][0].get<std::string>();
          *Hi = P[Key][1].get<std::string>();
        }
      T.Pointers.push_back(PP);
    }
    double Calls = numberOr(K, key::Calls, 0);
    if (Calls > 0) {
      if (K.contains(key::FlopClasses) && K[key::FlopClasses].is_object())
        for (auto &[Prec, Classes] : K[key::FlopClasses].items())
          if (Classes.is_object())
            for (auto &[Class, N] : Classes.items())
              if (N.is_number())
                T.PerCall.Ops[Prec][Class] = N.get<double>() / Calls;
      if (K.contains(key::Bytes) && K[key::Bytes].is_object())
        T.BytesPerCall = (numberOr(K[key::Bytes], key::Load, 0) +
                          numberOr(K[key::Bytes], key::Store, 0)) /
                         Calls;
      T.SecondsPerCall = numberOr(K, key::Seconds, 0) / Calls;
      if (K.contains(key::Footprint) && K[key::Footprint].is_object())
        T.FootprintPerCall = (numberOr(K[key::Footprint], key::Read, 0) +
                              numberOr(K[key::Footprint], key::Written, 0)) /
                             Calls;
    }
    Out[stringOr(K, key::Name, "")] = std::move(T);
  }
  return Out;
}

/// \p Text with the call's scalar arguments; unknown when it needs more.
double bytesOf(const std::string &Text, const std::map<std::string, double> &Args,
               ParamNames Params, bool &Known) {
  Result<double> V = evaluateFormula(Text, Args, Params);
  if (!V || *V < 0) {
    Known = false;
    return 0;
  }
  return *V;
}

/// The bytes of one pointer argument in one call.
struct Range {
  uint64_t Begin = 0, End = 0;
  double Bytes = 0, Footprint = 0;
};

/// The range a pointer argument's access covers, by its counted bytes (at
/// least its extent); none for a null pointer or no bytes, one byte when the
/// formula needs a value the call lacks (followed by its address alone). Its
/// footprint is what a fused kernel would not move.
std::optional<Range> rangeOf(const json &Call, const PointerParam &Ptr,
                             bool Write,
                             const std::map<std::string, double> &Args,
                             ParamNames Params, double Threads) {
  const json &V = Call[Ptr.Index + 1];
  uint64_t Begin = V.is_number_unsigned() ? V.get<uint64_t>() : 0;
  bool Known = true;
  double Bytes =
      bytesOf(Write ? Ptr.Written : Ptr.Read, Args, Params, Known) * Threads;
  if (!Begin || (Known && Bytes == 0))
    return std::nullopt;
  const std::string &Foot = Write ? Ptr.FootprintWritten : Ptr.FootprintRead;
  bool FootKnown = !Foot.empty();
  double Footprint = FootKnown ? bytesOf(Foot, Args, Params, FootKnown) : 0;
  Range R{Begin, Begin + (Known ? clampedUnsigned(Bytes, UINT64_MAX - Begin)
                                : 1),
          Bytes, FootKnown ? Footprint : Bytes};
  // The bytes it touches, where the analysis knows them: a GEMM's
  // counted bytes of A are M*N*K elements, its range M*K.
  const std::string &Lo = Write ? Ptr.WrittenLo : Ptr.ReadLo;
  const std::string &Hi = Write ? Ptr.WrittenHi : Ptr.ReadHi;
  Result<double> L = Lo.empty() ? Failure{""} : evaluateFormula(Lo, Args, Params);
  Result<double> H = Hi.empty() ? Failure{""} : evaluateFormula(Hi, Args, Params);
  if (L && H && *H > *L && double(Begin) + *L >= 0) {
    R.Begin = uint64_t(double(Begin) + *L);
    R.End = std::max(R.Begin + 1, uint64_t(double(Begin) + *H));
  } else if (!Write) {
    // Its extent is unknown (bias[i % m], x[idx[i]]): a read is matched
    // by its address, not by counted bytes that may run past its array
    // into a neighbour's. (A write keeps the counted extent: ending a
    // live value too early only loses a candidate.)
    R.End = R.Begin + 1;
  }
  return R;
}

/// Every write of the traced calls, each with the calls that read it before
/// it is written again.
Result<std::vector<Write>>
writesOf(const json &Calls, const std::map<std::string, TracedKernel> &Kernels,
         const std::string &Path) {
  std::vector<Write> Live, Done;
  auto Overlaps = [](const Write &W, uint64_t Begin, uint64_t End) {
    return Begin < W.End && W.Begin < End;
  };
  for (size_t I = 0; I < Calls.size(); ++I) {
    const json &Call = Calls[I];
    std::string Where = Path + ": trace.calls[" + std::to_string(I) + "]";
    if (!Call.is_array() || Call.empty() || !Call[0].is_string())
      return Failure{Where + ": expected [\"kernel\", arguments...]"};
    auto It = Kernels.find(Call[0].get<std::string>());
    if (It == Kernels.end())
      return Failure{Where + ": kernel '" + Call[0].get<std::string>() +
                     "' is not in the profile's kernels"};
    const TracedKernel &K = It->second;
    size_t Expected = K.Params.size() + 1 + (K.PerThread ? 1 : 0);
    if (Call.size() != Expected)
      return Failure{Where + ": expected " + std::to_string(K.Params.size()) +
                     " arguments" + (K.PerThread ? " and the threads" : "")};
    // A CUDA launch's bytes: the per-thread formula times its threads.
    double Threads = K.PerThread && Call.back().is_number()
                         ? Call.back().get<double>()
                         : 1;
    std::map<std::string, double> Args;
    for (size_t Arg = 0; Arg < K.Params.size(); ++Arg)
      if (Call[Arg + 1].is_number())
        Args[K.Params[Arg]] = Call[Arg + 1].get<double>();
    // Reads first: a kernel that reads and writes a buffer reads the old
    // contents.
    for (const PointerParam &Ptr : K.Pointers)
      if (std::optional<Range> R = rangeOf(Call, Ptr, false, Args, &K.Params, Threads))
        for (Write &W : Live)
          if (Overlaps(W, R->Begin, R->End))
            W.Reads.push_back({I, &K, Ptr.Name, R->Bytes, R->Footprint});
    for (const PointerParam &Ptr : K.Pointers) {
      std::optional<Range> R = rangeOf(Call, Ptr, true, Args, &K.Params, Threads);
      if (!R)
        continue;
      for (size_t L = 0; L < Live.size();)
        if (Overlaps(Live[L], R->Begin, R->End)) {
          Done.push_back(std::move(Live[L]));
          Live.erase(Live.begin() + L);
        } else {
          ++L;
        }
      Live.push_back(
          {&K, Ptr.Name, R->Begin, R->End, R->Bytes, R->Footprint, {}});
    }
  }
  Done.insert(Done.end(), Live.begin(), Live.end());
  return Done;
}

/// Each producer and its first reader, per (kernels, buffer names), placed
/// on \p P before and after fusing.
std::vector<FusionCandidate> pairUp(const std::vector<Write> &Done,
                                    const Platform &P, Convention C) {
  std::vector<FusionCandidate> Out;
  std::map<std::string, FusionCandidate> ByKey;
  struct PairBytes {
    Work W;          ///< both kernels' work, all occurrences
    KernelBytes B;   ///< their counted bytes and footprints
    double CountedSaved = 0; ///< the intermediate's loads and stores
  };
  std::map<std::string, PairBytes> Pairs;
  std::vector<std::string> Order;
  auto AddWork = [](Work &Into, const Work &From) {
    for (const auto &[Prec, Classes] : From.Ops)
      for (const auto &[Class, N] : Classes)
        Into.Ops[Prec][Class] += N;
  };
  for (const Write &W : Done) {
    if (W.Reads.empty())
      continue; // an output of the run, or overwritten unread
    const Write::Read &First = W.Reads.front();
    const Write::Read *Again = nullptr; // a later call reading it too
    for (const Write::Read &R : W.Reads)
      if (R.Call != First.Call && !Again)
        Again = &R;
    // Fusible occurrences and those read again (by whom) are rows apart.
    std::string Key = W.Kernel->Display + "\n" + First.Kernel->Display + "\n" +
                      W.Param + "\n" + First.Param + "\n" +
                      (Again ? Again->Kernel->Display : "");
    auto [It, New] = ByKey.try_emplace(Key);
    FusionCandidate &F = It->second;
    PairBytes &PB = Pairs[Key];
    if (New) {
      Order.push_back(Key);
      F.Producer = W.Kernel->Display;
      F.Consumer = First.Kernel->Display;
      F.ProducerParam = W.Param;
      F.ConsumerParam = First.Param;
      F.File = W.Kernel->File;
      F.Line = W.Kernel->Line;
      F.Fusible = true;
      PB.B.Footprint = 0;
    }
    F.Occurrences += 1;
    AddWork(PB.W, W.Kernel->PerCall);
    AddWork(PB.W, First.Kernel->PerCall);
    for (const TracedKernel *K : {W.Kernel, First.Kernel}) {
      PB.B.Counted += K->BytesPerCall;
      // The measured footprint below the first level; without one, the
      // counted bytes stand in (a note says so).
      *PB.B.Footprint += K->FootprintPerCall.value_or(K->BytesPerCall);
      if (!K->FootprintPerCall)
        F.FootprintMeasured = false;
    }
    F.MeasuredSeconds += W.Kernel->SecondsPerCall + First.Kernel->SecondsPerCall;
    if (Again) {
      F.Fusible = false;
      F.Reason = "'" + W.Param + "' is read again later by " +
                 Again->Kernel->Display + ": it must still be written";
    } else {
      F.BytesSaved += W.Footprint + First.Footprint;
      PB.CountedSaved += W.Bytes + First.Bytes;
    }
  }
  for (const std::string &Key : Order) {
    FusionCandidate &F = ByKey[Key];
    PairBytes &PB = Pairs[Key];
    if (F.Fusible)
      F.Reason = "the intermediate '" + F.ProducerParam +
                 "' is read only by " + F.Consumer +
                 ": fused, it is neither written nor read back";
    // The static formulas count every launched thread; the run may have
    // moved less (threads past a guard): never save more than was moved.
    F.BytesBefore = *PB.B.Footprint;
    F.BytesSaved = std::min(F.BytesSaved, F.BytesBefore);
    F.Flops = PB.W.flops(C);
    F.Before = place(P, PB.W, levelTraffic(P, PB.B), C);
    KernelBytes After = PB.B;
    After.Counted = std::max(0.0, After.Counted - PB.CountedSaved);
    *After.Footprint = std::max(0.0, *After.Footprint - F.BytesSaved);
    F.After = place(P, PB.W, levelTraffic(P, After), C);
    F.EstimatedSecondsAfter =
        F.Before.MinSeconds > 0
            ? F.MeasuredSeconds * F.After.MinSeconds / F.Before.MinSeconds
            : F.MeasuredSeconds;
    Out.push_back(F);
  }
  return Out;
}

} // namespace

Result<FusionAnalysis> findFusions(const json &J, const std::string &Path,
                                   const Platform &P, Convention C) {
  if (!J.contains(key::Trace) || !J[key::Trace].is_object() ||
      !J[key::Trace].contains(key::Calls) ||
      !J[key::Trace][key::Calls].is_array())
    return Failure{Path + ": no trace (run the program with ROOFLINE_TRACE=1)"};
  if (!J.contains(key::Kernels) || !J[key::Kernels].is_array())
    return Failure{Path + ": kernels: missing (expected an array)"};
  Result<std::map<std::string, TracedKernel>> Kernels = tracedKernels(J, Path);
  if (!Kernels)
    return Failure{Kernels.error()};
  FusionAnalysis A;
  A.CallsNotKept = numberOr(J[key::Trace], key::CallsNotKept, 0);
  const json &Calls = J[key::Trace][key::Calls];
  A.Calls = double(Calls.size());
  Result<std::vector<Write>> Writes = writesOf(Calls, *Kernels, Path);
  if (!Writes)
    return Failure{Writes.error()};
  A.Candidates = pairUp(*Writes, P, C);
  return A;
}

} // namespace roofline
