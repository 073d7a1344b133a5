//===- ProfileWriter.cpp - The profile's JSON ----------------------------===//
//
// docs/profile-schema.md describes the file. Written by hand (no JSON
// library in user programs); ProfileFile.cpp puts it on disk.
//
//===----------------------------------------------------------------------===//
#include "ProfileWriter.h"
#include "CacheTraffic.h"
#include "Counters.h"
#include "DescriptorText.h"
#include "DeviceLaunches.h"
#include "RunClock.h"
#include "Trace.h"

#include "roofline/Runtime/CostKinds.h"
#include "roofline/Runtime/DeviceLaunch.h"
#include "roofline/Runtime/ProfileKeys.h"
#include "roofline/Runtime/roofline_rt.h"

#include <algorithm>
#include <atomic>
#include <cinttypes>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <cxxabi.h>
#include <map>
#include <set>
#include <unistd.h>
#include <utility>

namespace roofline {
namespace rt {

namespace {

std::string quoted(const char *S) {
  std::string Out = "\"";
  for (const char *P = S ? S : ""; *P; ++P) {
    unsigned char C = (unsigned char)*P;
    if (C == '"' || C == '\\') {
      Out += '\\';
      Out += char(C);
    } else if (C < 0x20) {
      char Buf[8];
      std::snprintf(Buf, sizeof(Buf), "\\u%04x", C);
      Out += Buf;
    } else {
      Out += char(C);
    }
  }
  return Out + "\"";
}

std::string demangled(const char *Name) {
  // Only mangled names: __cxa_demangle reads a C function 'f' as the type
  // 'float' (and 's' as 'short').
  if (std::strncmp(Name, "_Z", 2) != 0)
    return Name;
  int Status = 0;
  char *D = abi::__cxa_demangle(Name, nullptr, nullptr, &Status);
  std::string Out = Status == 0 && D ? D : Name;
  std::free(D);
  return Out;
}

std::string number(uint64_t V) { return std::to_string(V); }

std::string seconds(double S) {
  char Buf[40];
  std::snprintf(Buf, sizeof(Buf), "%.9g", S);
  return Buf;
}

/// FLOPs and bytes of one part of a kernel (or one of its loop nests).
struct Sums {
  uint64_t Slots[NumRunSlots] = {};
};

/// Adds the counts of part \p Part (its nest \p Nest, or all with -1).
void addSums(Sums &S, const KernelTotals &T, uint32_t Part, int64_t Nest) {
  const roofline_kernel *K = T.Kernel;
  for (uint32_t I = 0; I < K->NumCosts; ++I) {
    const roofline_cost &C = K->Costs[I];
    if (C.Counter >= T.Counters.size() || C.Slot >= NumRunSlots || C.Part != Part)
      continue;
    if (Nest >= 0 && C.Nest != uint32_t(Nest))
      continue;
    S.Slots[C.Slot] += T.Counters[C.Counter] * C.PerUnit;
  }
}

uint64_t counterOr0(const KernelTotals &T, int32_t C) {
  return C >= 0 && size_t(C) < T.Counters.size() ? T.Counters[C] : 0;
}

/// A top-level loop nest of a source function, over every function its
/// code was inlined into.
struct LoopRow {
  std::string File;
  uint32_t Line = 0;
  Sums Counts;
  uint64_t Entries = 0, Iterations = 0, Ticks = 0, Timed = 0;
  bool EntriesKnown = true, HasEntries = false, TimeKnown = true;
  bool TimedByCalls = false; ///< timed in its function's timed calls
  /// Iterations of one entry, the fewest and the most, over the compiled
  /// loops that measured them (each the whole source loop) and their
  /// entries; known when every one did.
  uint64_t Fewest = UINT64_MAX, Most = 0, MeasuredEntries = 0;
  bool ExtremesKnown = true;
  double Seconds = 0;
  std::vector<double> Fills, Writebacks; ///< per cache level (ROOFLINE_CACHE)
  bool Untraced = false; ///< some of its code has no traced copy
};

/// One kernel record of the profile: a source function, from its own
/// (out-of-line) code and from its bodies inlined into other functions.
struct SourceRecord {
  std::string Name, File;
  uint32_t Line = 0;
  uint64_t Calls = 0, TimedCalls = 0;
  uint64_t Threads = 0; ///< the most threads any of its parts ran on
  double Seconds = 0;
  bool OutOfLine = false, Inlined = false, InlinedTimeMissing = false;
  Sums Counts;
  const roofline_kernel *Own = nullptr; ///< its own descriptor
  const roofline_part *InlinedStatic = nullptr; ///< formulas from before inlining
  std::vector<std::string> InlinedInto;
  std::vector<LoopRow> Loops;
  std::vector<double> Fills, Writebacks; ///< per cache level (ROOFLINE_CACHE)
  bool Untraced = false; ///< some of its code has no traced copy
  /// Its footprint: every part of it counted one (a lower bound where one
  /// was, or where a call broke an assumption), in its footprint slots.
  bool FootprintMissing = false, FootprintBound = false;
  bool FootprintCounted = false; ///< out of line, no reuse: the counted bytes
  /// Callees whose work is not in its counts (a library, a function pointer).
  std::set<std::string> Uncounted;
};

/// Adds part \p P's loops, as counted in \p T, to \p R's loop rows (and
/// an inlined body's time to \p R).
void addLoopRows(SourceRecord &R, const KernelTotals &T, uint32_t P,
                 double TPS) {
  const roofline_kernel *K = T.Kernel;
  const roofline_part &Part = K->Parts[P];
  // The calls' ticks, once: the nests that take them are one source loop.
  bool CallTicksTaken = false;
  for (uint32_t N = 1; N <= K->NumLoops; ++N) {
    const roofline_loop &L = K->Loops[N - 1];
    if (L.Part != P)
      continue;
    std::string File = *L.File ? L.File : Part.File;
    auto Row = std::find_if(R.Loops.begin(), R.Loops.end(), [&](const LoopRow &X) {
      return X.Line == L.Line && X.File == File;
    });
    if (Row == R.Loops.end()) {
      R.Loops.emplace_back();
      Row = R.Loops.end() - 1;
      Row->Line = L.Line;
      Row->File = File;
    }
    addSums(Row->Counts, T, P, N);
    if (cacheModelOn() && K->Traced)
      addTraffic(K, K->NumParts + N - 1, Row->Fills, Row->Writebacks);
    Row->Untraced |= !K->Traced;
    // Entries into the source loop (counted on the first of the loops
    // it was compiled into); iterations of every one of them.
    Row->Entries += L.Entered == ROOFLINE_LOOP_ONCE_PER_CALL
                        ? T.Calls
                        : counterOr0(T, L.Entered);
    Row->HasEntries |= L.Entered >= 0 || L.Entered == ROOFLINE_LOOP_ONCE_PER_CALL;
    Row->Iterations += counterOr0(T, L.Iterations);
    Row->EntriesKnown &= L.Iterations >= 0;
    Row->ExtremesKnown &= L.MostIterations >= 0;
    if (uint64_t Most = counterOr0(T, L.MostIterations)) {
      Row->Most = std::max(Row->Most, Most);
      Row->Fewest = std::min(Row->Fewest, ~counterOr0(T, L.FewestIterations));
    }
    Row->MeasuredEntries += counterOr0(T, L.Entries);
    // Timed entries scale to all entries; the function's own nests are
    // timed in its timed calls, which scale to all calls (and a nest that
    // is all the function does takes the calls' own ticks).
    bool CallTicks = L.Ticks == ROOFLINE_LOOP_CALL_TICKS;
    uint64_t Ticks = !CallTicks ? counterOr0(T, L.Ticks)
                     : std::exchange(CallTicksTaken, true) ? 0
                                                           : T.Ticks;
    bool ByCalls = L.Timed < 0;
    uint64_t Timed = ByCalls ? T.Timed : counterOr0(T, L.Timed);
    uint64_t Of = ByCalls ? T.Calls : counterOr0(T, L.Entries);
    Row->TimeKnown &= L.Ticks >= 0 || CallTicks;
    Row->TimedByCalls |= ByCalls;
    Row->Ticks += Ticks;
    Row->Timed += ByCalls ? 0 : Timed;
    double Seconds = Timed ? Ticks / TPS * (double(Of) / double(Timed)) : 0.0;
    Row->Seconds += Seconds;
    // An inlined body is timed by its loop nests' timers.
    if (Part.Kind == ROOFLINE_PART_INLINED) {
      R.Seconds += Seconds;
      R.InlinedTimeMissing |= L.Ticks < 0;
    }
  }
}

/// The kernel records of a snapshot: every part of every descriptor, by
/// name (a function inlined into many callers is one record).
std::vector<SourceRecord> sourceRecords(const std::vector<KernelTotals> &All,
                                        double TPS) {
  std::vector<SourceRecord> Out;
  std::map<std::string, size_t> Index;
  for (const KernelTotals &T : All) {
    const roofline_kernel *K = T.Kernel;
    if (!T.Calls)
      continue;
    for (uint32_t P = 0; P < K->NumParts; ++P) {
      const roofline_part &Part = K->Parts[P];
      if (Part.Kind == ROOFLINE_PART_HIDDEN)
        continue;
      auto [It, New] = Index.try_emplace(Part.Name, Out.size());
      if (New) {
        Out.emplace_back();
        Out.back().Name = Part.Name;
        Out.back().File = Part.File;
        Out.back().Line = Part.Line;
      }
      SourceRecord &R = Out[It->second];
      addSums(R.Counts, T, P, -1);
      for (const char *C = Part.UncountedCalls; C && *C;) {
        const char *End = std::strchr(C, '\n');
        R.Uncounted.insert(End ? std::string(C, End) : std::string(C));
        C = End ? End + 1 : C + std::strlen(C);
      }
      // Traffic only where the model saw all of a record's code.
      if (cacheModelOn() && K->Traced)
        addTraffic(K, P, R.Fills, R.Writebacks);
      R.Untraced |= !K->Traced;
      // Each part's footprint: a function's own code, from its arguments
      // at each call (not when it holds inlined kernels: its formulas
      // count their code too); an inlined body, at each entry.
      uint32_t Foot = Part.Kind == ROOFLINE_PART_SELF
                          ? (K->NumParts > 1 ? 0 : K->Footprint)
                          : Part.Footprint;
      int32_t Broken = Part.Kind == ROOFLINE_PART_SELF ? K->FootprintBroken
                                                       : Part.FootprintBroken;
      R.FootprintMissing |= Foot == 0;
      R.FootprintCounted |= Foot == 3;
      // A call that broke an assumption of the formula added 0.
      R.FootprintBound |= Foot == 2 || counterOr0(T, Broken) > 0;
      if (Part.Kind == ROOFLINE_PART_SELF) {
        R.OutOfLine = true;
        R.Own = K;
        R.Calls += T.Calls;
        R.TimedCalls += T.Timed;
        R.Threads = std::max(R.Threads, T.Threads);
        // The timed calls, each weighted by the calls it stands for
        // (Descriptor.h): scale their ticks to all calls.
        if (T.Timed)
          R.Seconds += T.Ticks / TPS * (double(T.Calls) / double(T.Timed));
      } else {
        R.Inlined = true;
        if (!R.InlinedStatic && *Part.StaticFlops)
          R.InlinedStatic = &Part;
        R.Calls += counterOr0(T, Part.Entries);
        R.Threads = std::max(R.Threads, T.Threads);
        std::string Into = demangled(K->Name);
        if (std::find(R.InlinedInto.begin(), R.InlinedInto.end(), Into) ==
            R.InlinedInto.end())
          R.InlinedInto.push_back(Into);
      }
      addLoopRows(R, T, P, TPS);
      if (Part.Kind == ROOFLINE_PART_INLINED &&
          std::none_of(K->Loops, K->Loops + K->NumLoops,
                       [&](const roofline_loop &L) { return L.Part == P; }))
        R.InlinedTimeMissing = true; // straight-line code: not timed
    }
  }
  // An inlined body whose code ran no counted operation and was never
  // entered (its markers were optimised away with it) says nothing.
  Out.erase(std::remove_if(Out.begin(), Out.end(),
                           [](const SourceRecord &R) {
                             return !R.Calls &&
                                    std::all_of(R.Counts.Slots, R.Counts.Slots + NumSlots,
                                                [](uint64_t V) { return V == 0; });
                           }),
            Out.end());
  return Out;
}

/// {"outer": {"inner": N, ...}, ...} over a grid of slots, nonzero ones
/// only: the FLOP classes by precision, or the integer kinds by width.
template <typename SlotFn, typename OuterFn, typename InnerFn>
std::string slotGrid(const uint64_t *Slots, unsigned Outer, unsigned Inner,
                     SlotFn Slot, OuterFn OuterName, InnerFn InnerName) {
  std::string J = "{";
  bool First = true;
  for (unsigned O = 0; O < Outer; ++O) {
    std::string Row;
    for (unsigned In = 0; In < Inner; ++In)
      if (uint64_t N = Slots[Slot(O, In)])
        Row += (Row.empty() ? "" : ", ") + quoted(InnerName(In)) + ": " + number(N);
    if (Row.empty())
      continue;
    J += (First ? "" : ", ") + quoted(OuterName(O)) + ": {" + Row + "}";
    First = false;
  }
  return J + "}";
}

/// {"fp32": {"fma": N, ...}, ...}: the operations by precision and class.
std::string flopClasses(const uint64_t *Slots) {
  return slotGrid(
      Slots, NumPrecisions, NumFlopClasses,
      [](unsigned P, unsigned C) { return flopSlot(Precision(P), FlopClass(C)); },
      [](unsigned P) { return precisionName(Precision(P)); },
      [](unsigned C) { return flopClassName(FlopClass(C)); });
}

/// {"i32": {"add": N, ...}, ...}: the integer operations by width and kind.
std::string intClasses(const uint64_t *Slots) {
  return slotGrid(
      Slots, NumIntWidths, NumIntKinds,
      [](unsigned W, unsigned K) { return intSlot(IntWidth(W), IntKind(K)); },
      [](unsigned W) { return intWidthName(IntWidth(W)); },
      [](unsigned K) { return intKindName(IntKind(K)); });
}

uint64_t intOpsOf(const uint64_t *Slots) {
  uint64_t N = 0;
  for (unsigned S = FirstIntSlot; S < FirstShareableSlot; ++S)
    N += Slots[S];
  return N;
}

/// {"total": N, "by_width": {"i8": N, ...}, "by_kind": {"add": N, ...}}:
/// the user's integer operations.
std::string intOps(const uint64_t *Slots) {
  uint64_t Total = 0, ByKind[NumIntKinds] = {};
  std::string Widths;
  for (unsigned W = 0; W < NumIntWidths; ++W) {
    uint64_t N = 0;
    for (unsigned K = 0; K < NumIntKinds; ++K) {
      N += Slots[intSlot(IntWidth(W), IntKind(K))];
      ByKind[K] += Slots[intSlot(IntWidth(W), IntKind(K))];
    }
    Total += N;
    Widths += (W ? ", " : "") + quoted(intWidthName(IntWidth(W))) + ": " + number(N);
  }
  std::string Kinds;
  for (unsigned K = 0; K < NumIntKinds; ++K)
    Kinds += (K ? ", " : "") + quoted(intKindName(IntKind(K))) + ": " + number(ByKind[K]);
  return "{" + field(key::Total) + number(Total) + ", " + field(key::ByWidth) +
         "{" + Widths + "}, " + field(key::ByKind) + "{" + Kinds + "}}";
}

void appendCounts(std::string &J, const uint64_t *Slots, const char *Indent) {
  Sums S;
  std::copy(Slots, Slots + NumRunSlots, S.Slots);
  std::string I = Indent;
  J += I + field(key::Flops) + "{";
  for (unsigned P = 0; P < NumPrecisions; ++P)
    J += quoted(precisionName(Precision(P))) + ": " + number(flopsOf(S.Slots, P)) + ", ";
  J += field(key::Total) + number(flopsOf(S.Slots)) + ", " +
       field(key::Special) + number(specialOf(S.Slots)) + "},\n";
  J += I + field(key::FlopClasses) + flopClasses(S.Slots) + ",\n";
  J += I + field(key::Bytes) + "{" + field(key::Load) +
       number(dramBytesOf(S.Slots, Access::Load)) + ", " + field(key::Store) +
       number(dramBytesOf(S.Slots, Access::Store));
  for (unsigned Sp = 0; Sp < NumMemSpaces; ++Sp) {
    uint64_t L = S.Slots[byteSlot(MemSpace(Sp), Access::Load)];
    uint64_t St = S.Slots[byteSlot(MemSpace(Sp), Access::Store)];
    uint64_t Shareable = S.Slots[shareableSlot(MemSpace(Sp))];
    if (L || St)
      J += ", " + quoted(memSpaceName(MemSpace(Sp))) + ": {" +
           field(key::Load) + number(L) + ", " + field(key::Store) +
           number(St) +
           (Shareable ? ", " + field(key::WarpShareable) + number(Shareable)
                      : "") +
           "}";
  }
  J += "},\n";
  J += I + field(key::Intops) + intOps(S.Slots) + ",\n";
  J += I + field(key::IntClasses) + intClasses(S.Slots) + ",\n";
  J += I + field(key::Instructions) + number(S.Slots[InstructionSlot]);
}

/// The parameters' names as JSON strings, comma-separated.
std::string paramNames(const std::vector<ParamText> &Params) {
  std::string Out;
  for (const ParamText &P : Params)
    Out += (Out.empty() ? "" : ", ") + quoted(P.Name.c_str());
  return Out;
}

/// `, "pointer_params": [...]` from the descriptor's lines: "index\tread\t
/// written", then (from version 6 on) the footprint read and written and
/// the read and written ranges lo, hi ("-": not known).
std::string pointerParams(const std::vector<std::string> &Lines,
                          const std::vector<ParamText> &Params) {
  std::string J = ", " + field(key::PointerParams) + "[";
  bool First = true;
  for (const std::string &Line : Lines) {
    std::vector<std::string> F = splitText(Line.c_str(), '\t');
    if (F.size() != 3 && F.size() != 9)
      continue;
    unsigned Index = unsigned(std::strtoul(F[0].c_str(), nullptr, 10));
    std::string Name = Index < Params.size() ? Params[Index].Name : "";
    J += std::string(First ? "" : ", ") + "{" + field(key::Index) +
         std::to_string(Index) + ", " + field(key::Name) +
         quoted(Name.c_str()) + ", " + field(key::BytesRead) +
         quoted(F[1].c_str()) + ", " + field(key::BytesWritten) +
         quoted(F[2].c_str());
    if (F.size() == 9 && F[3] != "-")
      J += ", " + field(key::Footprint) + "{" + field(key::Read) +
           quoted(F[3].c_str()) + ", " + field(key::Written) +
           quoted(F[4].c_str()) + ", " + field(key::Exact) + "true}";
    if (F.size() == 9 && F[5] != "-")
      J += ", " + field(key::ReadRange) + "[" + quoted(F[5].c_str()) + ", " +
           quoted(F[6].c_str()) + "]";
    if (F.size() == 9 && F[7] != "-")
      J += ", " + field(key::WrittenRange) + "[" + quoted(F[7].c_str()) + ", " +
           quoted(F[8].c_str()) + "]";
    J += "}";
    First = false;
  }
  return J + "]";
}

/// The parameters' names and the pointer parameters' byte formulas of a
/// host kernel, for fusion analysis: `, "params": [...], "pointer_params": [...]`.
std::string staticParameters(const roofline_kernel *K) {
  std::vector<ParamText> Params = parseParams(K->Params);
  return ", " + field(key::Params) + "[" + paramNames(Params) + "]" +
         pointerParams(splitText(K->PointerBytes, '\n'), Params);
}

struct DeviceOutput {
  std::string &J;
  bool &First;
};

/// A number for JSON: NaN (a parameter that is not a scalar) as null.
std::string argValue(double V) {
  if (V != V)
    return "null";
  char Buf[40];
  std::snprintf(Buf, sizeof(Buf), "%.17g", V);
  return Buf;
}

/// `, "footprint": {...}` from the meta's "read\twritten\texact" (the
/// per-launch formulas the report evaluates for each launch), or "".
std::string footprintFormulas(const std::string &Meta) {
  size_t A = Meta.find('\t');
  size_t B = A == std::string::npos ? A : Meta.find('\t', A + 1);
  if (B == std::string::npos)
    return "";
  return ", " + field(key::Footprint) + "{" + field(key::Read) +
         quoted(Meta.substr(0, A).c_str()) + ", " + field(key::Written) +
         quoted(Meta.substr(A + 1, B - A - 1).c_str()) + ", " +
         field(key::Exact) + (Meta.substr(B + 1) == "1" ? "true" : "false") +
         "}";
}

/// A CUDA kernel: totals over its launches, then one record per launch.
void appendDeviceKernel(const DeviceKernel &K, void *Context) {
  if (!K.Launches)
    return;
  DeviceOutput &Out = *static_cast<DeviceOutput *>(Context);
  std::string &J = Out.J;
  J += Out.First ? "\n" : ",\n";
  Out.First = false;
  J += "    {\n      " + field(key::Name) + quoted(K.Name.c_str()) + ",\n";
  J += "      " + field(key::DisplayName) +
       quoted(demangled(K.Name.c_str()).c_str()) + ",\n";
  J += "      " + field(key::Device) + quoted(K.Device.c_str()) + ",\n";
  J += "      " + field(key::File) + quoted(K.File.c_str()) + ",\n";
  J += "      " + field(key::Line) + std::to_string(K.Line) + ",\n";
  J += "      " + field(key::Calls) + number(K.Launches) + ",\n";
  J += "      " + field(key::Seconds) + seconds(K.Seconds) + ",\n";
  J += "      " + field(key::Threads) + number(K.Threads) + ",\n";
  appendCounts(J, K.Slots, "      ");
  J += ",\n      " + field(key::Static) + "{" + field(key::Flops) +
       quoted(K.Flops.c_str()) + ", " + field(key::BytesLoad) +
       quoted(K.Load.c_str()) + ", " + field(key::BytesStore) +
       quoted(K.Store.c_str()) + ", " + field(key::Exact) +
       (K.Exact ? "true" : "false") + ", " + field(key::Per) +
       text(value::PerThread) + ", " + field(key::Params) + "[" +
       paramNames(K.Params) + "]" + pointerParams(K.PointerLines, K.Params) +
       footprintFormulas(K.Footprint) + "},\n";
  J += "      " + field(key::LaunchesNotRecorded) + number(K.Dropped) + ",\n";
  // One flat row of numbers per launch (a million launches stay a few
  // hundred bytes each in a reader's memory); the columns name them, the
  // kernel's scalar parameters last.
  J += "      " + field(key::LaunchColumns) + "[";
  static const char *const Columns[] = ROOFLINE_LAUNCH_COLUMNS;
  for (const char *C : Columns)
    J += std::string(C == Columns[0] ? "" : ", ") + quoted(C);
  if (!K.Params.empty())
    J += ", " + paramNames(K.Params);
  J += "],\n      " + field(key::Launches) + "[";
  for (size_t I = 0; I < K.Records.size(); ++I) {
    const LaunchRecord &R = K.Records[I];
    J += I ? ",\n        [" : "\n        [";
    for (uint32_t V : R.Grid)
      J += std::to_string(V) + ", ";
    for (uint32_t V : R.Block)
      J += std::to_string(V) + ", ";
    J += number(R.SharedBytes) + ", " + std::to_string(R.Stream) + ", " +
         seconds(R.Start) + ", " + seconds(R.Seconds) + ", " +
         number(R.Threads) + ", " + number(R.Flops) + ", " + number(R.Load) +
         ", " + number(R.Store);
    for (size_t A = 0; A < K.Params.size(); ++A)
      J += ", " + argValue(K.Args[R.FirstArg + A]);
    J += "]";
  }
  J += K.Records.empty() ? "]\n    }" : "\n      ]\n    }";
}

/// One loop nest's row of a record's "loops".
void appendLoopRow(std::string &J, const LoopRow &L, const std::string &Function,
                   bool First) {
  J += std::string(First ? "\n" : ",\n") + "        {" + field(key::Line) +
       std::to_string(L.Line) + ", " + field(key::File) +
       quoted(L.File.c_str()) + ", " + field(key::Function) +
       quoted(Function.c_str()) + ", " + field(key::Flops) +
       number(flopsOf(L.Counts.Slots)) + ", " + field(key::FlopClasses) +
       flopClasses(L.Counts.Slots) + ", " + field(key::BytesLoad) +
       number(dramBytesOf(L.Counts.Slots, Access::Load)) + ", " +
       field(key::BytesStore) +
       number(dramBytesOf(L.Counts.Slots, Access::Store));
  if (L.EntriesKnown && L.HasEntries) {
    J += ", " + field(key::Entries) + number(L.Entries) + ", " +
         field(key::Iterations) + number(L.Iterations);
    if (L.Entries)
      J += ", " + field(key::IterationsPerEntry) +
           seconds(double(L.Iterations) / double(L.Entries));
    // Entries of the source loop that never reached the compiled one
    // (its guard skipped it) ran none.
    if (L.Entries && L.ExtremesKnown)
      J += ", " + field(key::MinIterationsPerEntry) +
           number(L.Entries > L.MeasuredEntries || !L.Most ? 0 : L.Fewest) +
           ", " + field(key::MaxIterationsPerEntry) + number(L.Most);
  }
  if (L.TimeKnown) {
    J += ", " + field(key::Seconds) + seconds(L.Seconds);
    if (!L.TimedByCalls)
      J += ", " + field(key::TimedEntries) + number(L.Timed);
  }
  if (!L.Fills.empty() && !L.Untraced)
    J += ", " + trafficJSON(L.Fills, L.Writebacks);
  if (uint64_t N = intOpsOf(L.Counts.Slots))
    J += ", " + field(key::Intops) + number(N);
  if (uint64_t N = L.Counts.Slots[InstructionSlot])
    J += ", " + field(key::Instructions) + number(N);
  J += "}";
}

/// One source function's record in "kernels".
void appendRecord(std::string &J, const SourceRecord &R) {
  const roofline_kernel *K = R.Own;
  J += "    {\n      " + field(key::Name) + quoted(R.Name.c_str()) + ",\n";
  J += "      " + field(key::DisplayName) +
       quoted(demangled(R.Name.c_str()).c_str()) + ",\n";
  J += "      " + field(key::File) + quoted(R.File.c_str()) + ",\n";
  J += "      " + field(key::Line) + std::to_string(R.Line) + ",\n";
  if (R.Inlined) {
    J += "      " + field(key::InlinedInto) + "[";
    for (size_t I = 0; I < R.InlinedInto.size(); ++I)
      J += (I ? ", " : "") + quoted(R.InlinedInto[I].c_str());
    J += "],\n";
  }
  J += "      " + field(key::Calls) + number(R.Calls) + ",\n";
  J += "      " + field(key::Threads) + number(R.Threads) + ",\n";
  J += "      " + field(key::Seconds) + seconds(R.Seconds) + ",\n";
  // How the time was measured: the function's own timer, its loop
  // nests' timers (inlined bodies: the code outside loops is not timed),
  // or only in part.
  const char *Timing =
      !R.Inlined ? value::TimedByCalls
      : R.InlinedTimeMissing
          ? (R.Seconds > 0 ? value::TimedInPart : value::NotTimed)
      : R.OutOfLine ? value::TimedByCallsAndLoops
                    : value::TimedByLoops;
  J += "      " + field(key::Timing) + quoted(Timing) + ",\n";
  if (R.OutOfLine)
    J += "      " + field(key::TimedCalls) + number(R.TimedCalls) + ",\n";
  appendCounts(J, R.Counts.Slots, "      ");
  if (!R.Uncounted.empty()) {
    J += ",\n      " + field(key::UncountedCalls) + "[";
    bool FirstCall = true;
    for (const std::string &C : R.Uncounted) {
      J += (FirstCall ? "" : ", ") + quoted(C.c_str());
      FirstCall = false;
    }
    J += "]";
  }
  // Each call's (entry's) footprint, from its arguments, summed over the
  // calls; a kernel without reuse: its counted bytes.
  // A kernel without reuse: its counted bytes (only as its one part).
  bool Counted = R.FootprintCounted && !R.Inlined;
  if (!R.FootprintMissing && (Counted || !R.FootprintCounted))
    J += ",\n      " + field(key::Footprint) + "{" + field(key::Read) +
         number(Counted ? dramBytesOf(R.Counts.Slots, Access::Load)
                        : R.Counts.Slots[footprintSlot(Access::Load)]) +
         ", " + field(key::Written) +
         number(Counted ? dramBytesOf(R.Counts.Slots, Access::Store)
                        : R.Counts.Slots[footprintSlot(Access::Store)]) +
         ", " + field(key::Exact) + (R.FootprintBound ? "false" : "true") + "}";
  if (K && *K->StaticFlops)
    J += ",\n      " + field(key::Static) + "{" + field(key::Flops) +
         quoted(K->StaticFlops) + ", " + field(key::BytesLoad) +
         quoted(K->StaticLoad) + ", " + field(key::BytesStore) +
         quoted(K->StaticStore) + ", " + field(key::Exact) +
         (K->StaticExact ? "true" : "false") + staticParameters(K) + "}";
  else if (!K && R.InlinedStatic)
    J += ",\n      " + field(key::Static) + "{" + field(key::Flops) +
         quoted(R.InlinedStatic->StaticFlops) + ", " + field(key::BytesLoad) +
         quoted(R.InlinedStatic->StaticLoad) + ", " + field(key::BytesStore) +
         quoted(R.InlinedStatic->StaticStore) + ", " + field(key::Exact) +
         (R.InlinedStatic->StaticExact ? "true" : "false") + ", " +
         field(key::BeforeInlining) + "true}";
  if (!R.Fills.empty() && !R.Untraced)
    J += ",\n      " + trafficJSON(R.Fills, R.Writebacks);
  J += ",\n      " + field(key::Loops) + "[";
  std::string Function = demangled(R.Name.c_str());
  for (size_t I = 0; I < R.Loops.size(); ++I)
    appendLoopRow(J, R.Loops[I], Function, I == 0);
  J += R.Loops.empty() ? "]\n    }" : "\n      ]\n    }";
}

/// ROOFLINE_CACHE set for a program built without traced copies (they are
/// made only under -roofline-cache-model): said once, rather than profiles
/// without traffic and no reason given.
void warnIfNothingTraced(const std::vector<KernelTotals> &All) {
  static std::atomic<bool> Warned{false};
  if (!cacheModelOn() || All.empty())
    return;
  for (const KernelTotals &T : All)
    if (T.Kernel->Traced)
      return;
  if (!Warned.exchange(true))
    std::fprintf(stderr,
                 "roofline: ROOFLINE_CACHE is set, but this program was built "
                 "without traced copies: no cache traffic is measured (build "
                 "with -mllvm -roofline-cache-model)\n");
}

} // namespace

std::string profileJSON() {
  std::vector<KernelTotals> All = snapshot();
  warnIfNothingTraced(All);
  double TPS = ticksPerSecond();
  char Host[256] = "";
  gethostname(Host, sizeof(Host) - 1);
  std::string J = "{\n  " + field(key::Schema) + text(value::ProfileSchema) +
                  ",\n  " + field(key::Version) + "1,\n";
  J += "  " + field(key::Pid) + std::to_string(getpid()) + ",\n";
  J += "  " + field(key::Host) + quoted(Host) + ",\n";
  // The program, so the report can read its machine code (in-core bounds).
  char Exe[4096];
  ssize_t N = readlink("/proc/self/exe", Exe, sizeof(Exe) - 1);
  if (N > 0) {
    Exe[N] = 0;
    J += "  " + field(key::Executable) + quoted(Exe) + ",\n";
  }
  // The clock as the run ends: the in-core bound's, when faster than the
  // probe's (RunClock.h).
  if (double Hz = measureRunClockHz(); Hz > 0)
    J += "  " + field(key::ClockHz) + number(uint64_t(Hz)) + ",\n";
#if defined(__x86_64__) || defined(__i386__)
  // The pass stops x86 timers with rdtscp (HostLowering.cpp): a timed
  // entry's time holds all its work, and no overlap with the next.
  J += "  " + field(key::TimerStop) + text(value::StopWaits) + ",\n";
#endif
  if (int Rank = launcherRank(); Rank >= 0)
    J += "  " + field(key::Rank) + std::to_string(Rank) + ",\n";
  J += "  " + field(key::Kernels) + "[";
  bool First = true;
  for (const SourceRecord &R : sourceRecords(All, TPS)) {
    J += First ? "\n" : ",\n";
    First = false;
    appendRecord(J, R);
  }
  DeviceOutput Out{J, First};
  visitDeviceKernels(appendDeviceKernel, &Out);
  J += First ? "]" : "\n  ]";
  appendTrace(J);
  return J + "\n}\n";
}

} // namespace rt
} // namespace roofline
