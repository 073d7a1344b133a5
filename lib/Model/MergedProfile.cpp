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
#include "roofline/Runtime/ProfileKeys.h"

#include <charconv>
#include <cstring>
#include <memory>

namespace roofline {

using nlohmann::json;

namespace {

/// Collects output and hands it on in large pieces.
class Buffered : public nlohmann::detail::output_adapter_protocol<char> {
public:
  explicit Buffered(const std::function<void(const char *, size_t)> &Write)
      : Write(Write), Buf(Size) {}
  void write_character(char C) override { append(&C, 1); }
  void write_characters(const char *S, std::size_t N) override { append(S, N); }
  void append(const char *S, size_t N) {
    if (Len + N > Size) {
      flush();
      if (N > Size)
        return Write(S, N);
    }
    std::memcpy(Buf.data() + Len, S, N);
    Len += N;
  }
  /// Room for \p N more bytes, to be claimed with used().
  char *room(size_t N) {
    if (Len + N > Size)
      flush();
    return Buf.data() + Len;
  }
  void used(size_t N) { Len += N; }
  void flush() {
    if (Len)
      Write(Buf.data(), Len);
    Len = 0;
  }

private:
  static constexpr size_t Size = 1 << 20;
  const std::function<void(const char *, size_t)> &Write;
  std::vector<char> Buf;
  size_t Len = 0;
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
        if (Key == key::Kernels && V.is_array()) {
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
      // Ten spaces, the cell (at most 20 digits and a sign), ",\n".
      char *Start = Out->room(40), *P = Start;
      std::memcpy(P, Spaces, 10);
      P += 10;
      const LaunchCell &C = R.Cells[I];
      if (C.K == LaunchCell::Unsigned) {
        P = std::to_chars(P, P + 24, C.U).ptr;
      } else if (C.K == LaunchCell::Integer) {
        P = std::to_chars(P, P + 24, C.I).ptr;
      } else if (C.K == LaunchCell::Float) {
        Out->used(size_t(P - Start));
        S.dump(json(C.F), true, false, 2, 10);
        Start = P = Out->room(2);
      } else {
        std::memcpy(P, "null", 4);
        P += 4;
      }
      if (I + 1 < R.Cells.size())
        *P++ = ',';
      *P++ = '\n';
      Out->used(size_t(P - Start));
    }
    indent(8);
    text("]");
  }

private:
  void text(const char *T) { Out->append(T, std::strlen(T)); }
  void indent(unsigned N) { Out->append(Spaces, N); }
  void member(const std::string &Key, unsigned Indent) {
    indent(Indent);
    S.dump(json(Key), true, false, 2, Indent); // quoted and escaped
    text(": ");
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
          if (Key == key::Launches && V.is_array() && I < M.Launches.size()) {
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
