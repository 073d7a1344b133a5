// libFuzzer target, differential: the streamed profile reader (the report
// and merge: ProfileStream.h, LaunchRows.h, LaunchGroups.h,
// MergedProfile.h) against nlohmann's whole-document parser and
// parseProfile, on every input. They must agree: the same document, the
// same records (bit for bit), the same error message, or a finding
// (__builtin_trap). Checked per input:
//
//  1. readProfileStream, with its rows put back into each "launches",
//     dumps as json::parse of the same bytes dumps (numbers typed alike:
//     1 and 1.0 differ), or both reject the input.
//  2. loadInputs (by function and by loop) gives what parseProfile (or
//     parseStaticSummary) of the whole document gives, after loadInputs'
//     own merging of records with the same name (and launch
//     configuration); or the same error. The one divergence allowed:
//     launch_columns given twice in a kernel, differently, with rows
//     between them, is an error when streamed (the rows were already
//     grouped under the first), while a whole document keeps the last.
//  3. mergeProfiles of the file: where parseProfile rejects the document,
//     merge fails with the same message; where merge succeeds,
//     writeMergedProfile writes exactly dump(2) of its document with each
//     kernel's rows (read from the byte ranges merge kept) in place.
//  4. The input as one launch array: scanLaunchArray through a buffer of
//     1 and of 7 bytes (every row crosses refills) reads the rows
//     json::parse reads, or both reject it.
#include "roofline/Model/JSONAccess.h"
#include "roofline/Model/LaunchRows.h"
#include "roofline/Model/MergedProfile.h"
#include "roofline/Model/Profile.h"
#include "roofline/Model/ProfileStream.h"

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>
#include <string>
#include <unistd.h>

using nlohmann::json;
using namespace roofline;

namespace {

[[noreturn]] void finding(const char *What) {
  std::fprintf(stderr, "roofline-fuzz-profile-stream: %s\n", What);
  __builtin_trap();
}
#define AGREE(Cond)                                                            \
  do {                                                                         \
    if (!(Cond))                                                               \
      finding("disagree: " #Cond);                                             \
  } while (0)

/// A launch row as json, typed as its cells are.
json rowJSON(const LaunchRow &R) {
  if (R.Dom)
    return *R.Dom;
  json A = json::array();
  for (const LaunchCell &C : R.Cells)
    switch (C.K) {
    case LaunchCell::Unsigned: A.push_back(C.U); break;
    case LaunchCell::Integer: A.push_back(C.I); break;
    case LaunchCell::Float: A.push_back(C.F); break;
    case LaunchCell::Null: A.push_back(nullptr); break;
    case LaunchCell::Other: finding("a cell of another kind with no Dom");
    }
  return A;
}

class RowsToJSON : public LaunchRowSink {
public:
  json Rows = json::array();
  void row(const LaunchRow &R) override { Rows.push_back(rowJSON(R)); }
};

/// Each kernel's rows as readProfileStream hands them over.
class Recorder : public LaunchArrays {
public:
  std::map<size_t, RowsToJSON> ByKernel;
  void reset() override { ByKernel.clear(); }
  LaunchRowSink &begin(size_t Kernel, const json &) override {
    return ByKernel[Kernel] = RowsToJSON();
  }
};

/// The bits of a double (-0 and 0 differ; NaN equals itself).
uint64_t bits(double V) {
  uint64_t B;
  std::memcpy(&B, &V, sizeof(B));
  return B;
}

void put(std::string &S, double V) { S += std::to_string(bits(V)) + ","; }
void put(std::string &S, const std::string &V) {
  S += std::to_string(V.size()) + ":" + V + ",";
}
void put(std::string &S, const std::optional<double> &V) {
  if (V)
    put(S, *V);
  else
    S += "-,";
}

/// Every field of a record, for comparison.
std::string describe(const KernelRecord &R) {
  std::string S;
  for (const std::string *F : {&R.Name, &R.DisplayName, &R.Kind, &R.Per,
                               &R.File, &R.Target, &R.Source,
                               &R.BytesLoad.Text, &R.BytesStore.Text, &R.Origin})
    put(S, *F);
  put(S, R.StaticFlops ? R.StaticFlops->Text : "-");
  put(S, double(R.Line));
  S += R.Exact ? "E" : "e";
  S += R.StaticExact ? "S" : "s";
  for (auto &[P, Cs] : R.Classes)
    for (auto &[C, F] : Cs)
      put(S, P + "/" + C + "=" + F.Text);
  for (auto &[Sp, LS] : R.BytesBySpace)
    put(S, Sp + "=" + LS.first.Text + "/" + LS.second.Text);
  for (const auto *L : {&R.Params, &R.Notes, &R.Assumptions}) {
    S += "[";
    for (const std::string &V : *L)
      put(S, V);
    S += "]";
  }
  if (R.Footprint) {
    const FootprintRecord &F = *R.Footprint;
    for (const std::string *V : {&F.Read.Text, &F.Written.Text, &F.ReadAtLeast.Text,
                                 &F.WrittenAtLeast.Text, &F.Note})
      put(S, *V);
    S += F.Exact ? "X" : "x";
    for (const StatedAssumption &A : F.Assumptions)
      put(S, A.Text);
  }
  if (R.Launch) {
    S += "L";
    put(S, R.Launch->Config);
    put(S, R.Launch->Threads);
    put(S, R.Launch->PredictedFlops);
    put(S, R.Launch->PredictedBytes);
  }
  if (R.LoopNest) {
    const Measurement::Nest &N = *R.LoopNest;
    S += "N";
    put(S, N.Function), put(S, N.File), put(S, double(N.Line));
    put(S, double(N.EndLine)), put(S, N.IterationsPerEntry);
    put(S, N.Iterations), put(S, N.Flops), put(S, N.Bytes);
  }
  if (R.Measured) {
    const Measurement &M = *R.Measured;
    S += "M";
    put(S, M.Calls), put(S, M.Seconds), put(S, M.BytesLoad);
    put(S, M.BytesStore), put(S, M.Footprint), put(S, M.Threads);
    S += M.FootprintExact ? "F" : "f";
    S += M.TimeFromCacheModel ? "C" : "c";
    put(S, M.Executable), put(S, M.TrafficModel);
    for (auto &[P, Cs] : M.Classes)
      for (auto &[C, N] : Cs)
        put(S, P + "/" + C), put(S, N);
    for (auto &[Sp, LS] : M.BytesBySpace)
      put(S, Sp), put(S, LS.first), put(S, LS.second);
    for (const Measurement::LevelTraffic &T : M.Traffic)
      put(S, T.Level), put(S, T.SizeBytes), put(S, T.FillBytes),
          put(S, T.WritebackBytes);
    if (M.Ranks)
      put(S, M.Ranks->Ranks), put(S, M.Ranks->Min), put(S, M.Ranks->Mean),
          put(S, M.Ranks->Max), put(S, M.Ranks->SlowestRank);
    for (const Measurement::Nest &N : M.Nests)
      put(S, N.Function), put(S, N.File), put(S, double(N.Line)),
          put(S, double(N.EndLine)), put(S, N.IterationsPerEntry),
          put(S, N.Iterations), put(S, N.Flops), put(S, N.Bytes);
  }
  return S;
}


std::string describeAll(const Result<std::vector<KernelRecord>> &R) {
  if (!R)
    return "error: " + R.error();
  std::string S;
  for (const KernelRecord &K : *R)
    S += describe(K) + "\n";
  return S;
}

bool endsWith(const std::string &S, const std::string &Tail) {
  return S.size() >= Tail.size() &&
         S.compare(S.size() - Tail.size(), Tail.size(), Tail) == 0;
}

/// Counts the keys "launch_columns" (after unescaping) in a document.
class ColumnKeys : public nlohmann::json_sax<json> {
public:
  size_t Count = 0;
  bool null() override { return true; }
  bool boolean(bool) override { return true; }
  bool number_integer(number_integer_t) override { return true; }
  bool number_unsigned(number_unsigned_t) override { return true; }
  bool number_float(number_float_t, const string_t &) override { return true; }
  bool string(string_t &) override { return true; }
  bool binary(binary_t &) override { return true; }
  bool start_object(std::size_t) override { return true; }
  bool end_object() override { return true; }
  bool start_array(std::size_t) override { return true; }
  bool end_array() override { return true; }
  bool key(string_t &K) override {
    Count += K == "launch_columns";
    return true;
  }
  bool parse_error(std::size_t, const std::string &,
                   const nlohmann::detail::exception &) override {
    return false;
  }
};

/// The allowed divergence: the streamed error for launch_columns given
/// twice, differently. Only where the document has the key twice.
bool columnsTwice(const std::string &Error, const std::string &Text) {
  if (!endsWith(Error, ".launch_columns: given twice, differently"))
    return false;
  ColumnKeys Keys;
  json::sax_parse(Text, &Keys);
  if (Keys.Count < 2)
    finding("'given twice' with launch_columns once at most");
  return true;
}

/// The file each input is written to, removed when the process exits.
const std::string &tempPath() {
  struct Temp {
    std::string P;
    Temp() {
      const char *Dir = std::getenv("TMPDIR");
      P = std::string(Dir && *Dir ? Dir : "/tmp") +
          "/roofline-fuzz-profile-stream." + std::to_string(getpid()) +
          ".json";
    }
    ~Temp() { std::remove(P.c_str()); }
  };
  static const Temp T;
  return T.P;
}

void writeFile(const std::string &Path, const std::string &Text) {
  std::FILE *F = std::fopen(Path.c_str(), "wb");
  if (!F || std::fwrite(Text.data(), 1, Text.size(), F) != Text.size() ||
      std::fclose(F) != 0)
    finding("cannot write the temporary file");
}

/// 4: the input as a launch array, through a buffer of \p BufSize bytes.
void checkArray(const std::string &Path, const std::string &Text,
                const json &Whole, size_t BufSize) {
  ByteReader R;
  if (!R.open(Path).empty())
    finding("cannot read the temporary file");
  R.Buf.assign(BufSize, 0);
  RowsToJSON Rows;
  size_t N = 0;
  bool Valid = scanLaunchArray(R, Rows, N);
  if (Valid) {
    // Only whitespace may follow the array.
    while (R.peek() == ' ' || R.peek() == '\n' || R.peek() == '\r' ||
           R.peek() == '\t')
      ++R.Pos;
    // nlohmann's lexer takes a NUL byte for the end of the input (for
    // string literals): what follows it is not read.
    Valid = (R.peek() < 0 || R.peek() == 0) && R.Error.empty();
  }
  // nlohmann skips a byte order mark before the value; a launch array in a
  // profile never starts the file.
  if (Text.compare(0, 3, "\xEF\xBB\xBF") == 0)
    return;
  bool WholeArray = !Whole.is_discarded() && Whole.is_array();
  AGREE(Valid == WholeArray);
  if (Valid) {
    AGREE(N == Whole.size());
    AGREE(Rows.Rows.dump() == Whole.dump());
  }
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *Data, size_t Size) {
  std::string Text(reinterpret_cast<const char *>(Data), Size);
  const std::string &Path = tempPath();
  writeFile(Path, Text);
  json Whole = json::parse(Text, nullptr, /*allow_exceptions=*/false);

  checkArray(Path, Text, Whole, 1);
  checkArray(Path, Text, Whole, 7);

  // 1: the document.
  bool WholeOk = !Whole.is_discarded() && Whole.is_object();
  Recorder Rec;
  Result<json> Doc = readProfileStream(Path, Rec);
  AGREE(bool(Doc) == WholeOk);
  if (!Doc) {
    std::string Expected = Path + (Whole.is_discarded()
                                       ? ": not valid JSON"
                                       : ": expected a JSON object");
    AGREE(Doc.error() == Expected);
    Result<std::vector<KernelRecord>> L = loadInputs({Path});
    AGREE(!L && L.error() == Expected);
    return 0;
  }
  json Filled = *Doc;
  if (Filled.contains("kernels") && Filled["kernels"].is_array())
    for (auto &[I, Rows] : Rec.ByKernel) {
      AGREE(I < Filled["kernels"].size());
      json &K = Filled["kernels"][I];
      AGREE(K.is_object() && K.contains("launches"));
      if (K["launches"].is_array()) {
        AGREE(K["launches"].empty());
        K["launches"] = Rows.Rows;
      }
    }
  AGREE(Filled.dump() == Whole.dump());

  // 2: the records, by function and by loop.
  bool Profile = isProfile(Whole);
  for (RowsBy By : {RowsBy::Function, RowsBy::Loop}) {
    Result<std::vector<KernelRecord>> Streamed = loadInputs({Path}, By);
    Result<std::vector<KernelRecord>> Expected =
        std::vector<KernelRecord>();
    if (Profile) {
      Expected = parseProfile(Whole, Path, By);
      if (Expected)
        Expected = joinRecords({}, std::move(*Expected));
    } else if (By == RowsBy::Function) {
      Expected = parseStaticSummary(Whole, Path);
    }
    if (!Streamed && columnsTwice(Streamed.error(), Text))
      continue;
    AGREE(describeAll(Streamed) == describeAll(Expected));
  }

  // 3: merge.
  if (!Profile)
    return 0;
  Result<MergedProfile> M = mergeProfiles({Path});
  Result<std::vector<KernelRecord>> Parsed = parseProfile(Whole, Path);
  if (!M) {
    AGREE(!M.error().empty());
    // After its schema and version, merge validates the kernels as the
    // report reads them.
    if (!Parsed && numberOr(Whole, "version", 0) == 1 &&
        !columnsTwice(M.error(), Text))
      AGREE(M.error() == Parsed.error());
    return 0;
  }
  AGREE(bool(Parsed));
  std::string Written;
  std::string Error = writeMergedProfile(
      *M, [&](const char *P, size_t N) { Written.append(P, N); });
  AGREE(Error.empty());
  json Expected = M->Doc;
  const json &Kernels = Expected["kernels"];
  AGREE(M->Launches.size() == Kernels.size());
  for (size_t I = 0; I < Kernels.size(); ++I) {
    json &K = Expected["kernels"][I];
    if (!K.contains("launches") || !K["launches"].is_array())
      continue;
    for (const MergedProfile::Rows &R : M->Launches[I]) {
      AGREE(R.Input == 0 && R.Begin <= R.End && R.End <= Text.size());
      json Rows = json::parse(Text.substr(R.Begin, R.End - R.Begin), nullptr,
                              false);
      AGREE(Rows.is_array() && Rows.size() == R.Count);
      for (json &Row : Rows)
        K["launches"].push_back(std::move(Row));
    }
  }
  AGREE(Written == Expected.dump(2) + "\n");
  return 0;
}
