//===- ProfileStream.cpp - Reading a profile without its launch rows ------===//
//
// nlohmann's parser reads the file through a stream buffer (SplitBuf) over
// a ByteReader, and builds the document with nlohmann's own DOM handler.
// When the handler sees the key "launches" in an object of the top-level
// "kernels" array, the stream buffer reads the array that follows itself
// (LaunchRows.h) and hands the parser ":[]" in its place, or ":[}" when
// the array is not valid JSON, so that the parse fails as it would have.
//
//===----------------------------------------------------------------------===//
#include "roofline/Model/ProfileStream.h"

#include <filesystem>
#include <istream>
#include <streambuf>
#include <vector>

namespace roofline {

using nlohmann::json;

namespace {

class SplitBuf : public std::streambuf {
public:
  explicit SplitBuf(ByteReader &R) : R(R) {}

  /// Called just after the key "launches": reads the array that follows
  /// into \p Sink, if the value is an array.
  void takeArray(LaunchArrays &Arrays, size_t Kernel, const json &SoFar) {
    R.Pos = size_t(gptr() - R.Buf.data());
    auto Space = [&] {
      while (R.peek() == ' ' || R.peek() == '\n' || R.peek() == '\r' ||
             R.peek() == '\t')
        ++R.Pos;
    };
    Space();
    if (R.peek() == ':') {
      ++R.Pos;
      Space();
      if (R.peek() == '[') {
        uint64_t Begin = R.offset();
        size_t Rows = 0;
        bool Valid = scanLaunchArray(R, Arrays.begin(Kernel, SoFar), Rows);
        if (Valid)
          Arrays.end(Kernel, Begin, R.offset(), Rows);
        Synth = Valid ? ":[]" : ":[}";
      } else {
        Synth = ":";
      }
      setg(Synth.data(), Synth.data(), Synth.data() + Synth.size());
      InSynth = true;
      return;
    }
    resume();
  }

protected:
  int_type underflow() override {
    if (!InSynth)
      R.Pos = R.End;
    InSynth = false;
    if (R.Pos == R.End && !R.fill())
      return traits_type::eof();
    resume();
    return traits_type::to_int_type(*gptr());
  }

private:
  void resume() {
    setg(R.Buf.data(), R.Buf.data() + R.Pos, R.Buf.data() + R.End);
  }

  ByteReader &R;
  std::string Synth;
  bool InSynth = false;
};

/// nlohmann's DOM builder, watching the path to kernels[i].launches.
class StreamSax {
public:
  StreamSax(json &Root, SplitBuf &Buf, LaunchArrays &Arrays)
      : Root(Root), Dom(Root, /*allow_exceptions=*/false), Buf(Buf),
        Arrays(Arrays) {}

  using string_t = json::string_t;
  bool null() { return Dom.null(); }
  bool boolean(bool V) { return Dom.boolean(V); }
  bool number_integer(json::number_integer_t V) { return Dom.number_integer(V); }
  bool number_unsigned(json::number_unsigned_t V) {
    return Dom.number_unsigned(V);
  }
  bool number_float(json::number_float_t V, const string_t &S) {
    return Dom.number_float(V, S);
  }
  bool string(string_t &V) { return Dom.string(V); }
  bool binary(json::binary_t &V) { return Dom.binary(V); }
  bool start_object(std::size_t N) {
    Open.push_back(false);
    return Dom.start_object(N);
  }
  bool end_object() {
    Open.pop_back();
    return Dom.end_object();
  }
  bool start_array(std::size_t N) {
    // The top-level "kernels" array (the last one, if given twice).
    bool Kernels = Open.size() == 1 && RootKey == "kernels";
    if (Kernels)
      Arrays.reset();
    Open.push_back(Kernels);
    return Dom.start_array(N);
  }
  bool end_array() {
    Open.pop_back();
    return Dom.end_array();
  }
  bool key(string_t &K) {
    if (Open.size() == 1)
      RootKey = K;
    bool Ok = Dom.key(K);
    if (Ok && Open.size() == 3 && Open[1] && K == "launches") {
      const json &Kernels = Root["kernels"];
      Buf.takeArray(Arrays, Kernels.size() - 1, Kernels.back());
    }
    return Ok;
  }
  bool parse_error(std::size_t P, const std::string &T,
                   const nlohmann::detail::exception &E) {
    return Dom.parse_error(P, T, E);
  }

private:
  json &Root;
  nlohmann::detail::json_sax_dom_parser<json> Dom;
  SplitBuf &Buf;
  LaunchArrays &Arrays;
  std::vector<bool> Open; ///< per open container: is it the kernels array
  std::string RootKey;
};

} // namespace

Result<json> readProfileStream(const std::string &Path, LaunchArrays &Arrays) {
  std::error_code EC;
  if (std::filesystem::is_directory(Path, EC))
    return Failure{Path + ": is a directory (expected a JSON file)"};
  ByteReader R;
  if (!R.open(Path).empty())
    return Failure{Path + ": cannot be read"};
  SplitBuf Buf(R);
  std::istream In(&Buf);
  json J;
  StreamSax Sax(J, Buf, Arrays);
  bool Valid = json::sax_parse(In, &Sax);
  if (!R.Error.empty())
    return Failure{Path + ": cannot be read (" + R.Error + ")"};
  if (!Valid)
    return Failure{Path + ": not valid JSON"};
  if (!J.is_object())
    return Failure{Path + ": expected a JSON object"};
  return J;
}

} // namespace roofline
