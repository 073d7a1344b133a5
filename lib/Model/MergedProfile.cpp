//===- MergedProfile.cpp - A merged profile, written as it is read --------===//
//
// The output is byte for byte what nlohmann's dump(2) of the whole document
// with its rows would be: the root object, the kernels array and each
// kernel object are laid out here as nlohmann's serializer lays them out,
// every other value is written by that serializer, and the rows, read
// again from the inputs, are written cell by cell with it too.
//
//===----------------------------------------------------------------------===//
#include "roofline/Model/MergedProfile.h"
#include "roofline/Model/LaunchRows.h"

#include <charconv>
#include <memory>

namespace roofline {

using nlohmann::json;

namespace {

/// Collects output and hands it on in large pieces.
class Buffered : public nlohmann::detail::output_adapter_protocol<char> {
public:
  explicit Buffered(const std::function<void(const char *, size_t)> &Write)
      : Write(Write) {}
  void write_character(char C) override {
    Buf.push_back(C);
    if (Buf.size() >= (1 << 20))
      flush();
  }
  void write_characters(const char *S, std::size_t N) override {
    Buf.append(S, N);
    if (Buf.size() >= (1 << 20))
      flush();
  }
  void flush() {
    if (!Buf.empty())
      Write(Buf.data(), Buf.size());
    Buf.clear();
  }

private:
  const std::function<void(const char *, size_t)> &Write;
  std::string Buf;
};

class Writer : public LaunchRowSink {
public:
  Writer(const MergedProfile &M,
         const std::function<void(const char *, size_t)> &Write)
      : M(M), Out(std::make_shared<Buffered>(Write)), S(Out, ' ') {}

  std::string write() {
    const json &Doc = M.Doc;
    if (!Doc.is_object() || Doc.empty()) {
      S.dump(Doc, true, false, 2, 0);
    } else {
      text("{\n");
      size_t N = 0;
      for (auto &[Key, V] : Doc.items()) {
        member(Key, 2);
        if (Key == "kernels" && V.is_array()) {
          if (std::string E = kernels(V); !E.empty())
            return E;
        } else {
          S.dump(V, true, false, 2, 2);
        }
        text(++N < Doc.size() ? ",\n" : "\n");
      }
      text("}");
    }
    text("\n");
    Out->flush();
    return "";
  }

  void row(const LaunchRow &R) override {
    text(FirstRow ? "" : ",\n");
    FirstRow = false;
    indent(8);
    if (R.Dom) {
      S.dump(*R.Dom, true, false, 2, 8);
      return;
    }
    if (R.Cells.empty()) {
      text("[]");
      return;
    }
    text("[\n");
    for (size_t I = 0; I < R.Cells.size(); ++I) {
      indent(10);
      cell(R.Cells[I]);
      text(I + 1 < R.Cells.size() ? ",\n" : "\n");
    }
    indent(8);
    text("]");
  }

private:
  void text(const char *T) { Out->write_characters(T, std::char_traits<char>::length(T)); }
  void indent(unsigned N) { Out->write_characters(Spaces, N); }
  void member(const std::string &Key, unsigned Indent) {
    indent(Indent);
    S.dump(json(Key), true, false, 2, Indent); // quoted and escaped
    text(": ");
  }
  void cell(const LaunchCell &C) {
    char Buf[24];
    char *End = Buf;
    switch (C.K) {
    case LaunchCell::Unsigned:
      End = std::to_chars(Buf, Buf + sizeof(Buf), C.U).ptr;
      break;
    case LaunchCell::Integer:
      End = std::to_chars(Buf, Buf + sizeof(Buf), C.I).ptr;
      break;
    case LaunchCell::Float:
      S.dump(json(C.F), true, false, 2, 10);
      return;
    default:
      text("null");
      return;
    }
    Out->write_characters(Buf, size_t(End - Buf));
  }

  std::string kernels(const json &Kernels) {
    if (Kernels.empty()) {
      text("[]");
      return "";
    }
    text("[\n");
    for (size_t I = 0; I < Kernels.size(); ++I) {
      const json &K = Kernels[I];
      indent(4);
      if (!K.is_object() || K.empty()) {
        S.dump(K, true, false, 2, 4);
      } else {
        text("{\n");
        size_t N = 0;
        for (auto &[Key, V] : K.items()) {
          member(Key, 6);
          if (Key == "launches" && V.is_array() && I < M.Launches.size()) {
            if (std::string E = launches(M.Launches[I]); !E.empty())
              return E;
          } else {
            S.dump(V, true, false, 2, 6);
          }
          text(++N < K.size() ? ",\n" : "\n");
        }
        indent(4);
        text("}");
      }
      text(I + 1 < Kernels.size() ? ",\n" : "\n");
    }
    indent(2);
    text("]");
    return "";
  }

  std::string launches(const std::vector<MergedProfile::Rows> &From) {
    size_t Total = 0;
    for (const MergedProfile::Rows &R : From)
      Total += R.Count;
    if (Total == 0) {
      text("[]");
      return "";
    }
    text("[\n");
    FirstRow = true;
    for (const MergedProfile::Rows &R : From) {
      const std::string &Path = M.Inputs[R.Input];
      ByteReader In;
      size_t Rows = 0;
      if (!In.open(Path).empty() || !In.seek(R.Begin) ||
          !scanLaunchArray(In, *this, Rows) || Rows != R.Count ||
          In.offset() != R.End)
        return Path + ": changed while it was merged (its launch rows are "
                      "read again to be written)";
    }
    text("\n");
    indent(6);
    text("]");
    return "";
  }

  static constexpr char Spaces[] = "                ";
  const MergedProfile &M;
  std::shared_ptr<Buffered> Out;
  nlohmann::detail::serializer<json> S;
  bool FirstRow = true;
};

} // namespace

std::string
writeMergedProfile(const MergedProfile &M,
                   const std::function<void(const char *, size_t)> &Write) {
  return Writer(M, Write).write();
}

} // namespace roofline
