//===- LaunchRows.h - Reading a profile's CUDA launch rows fast -*- C++ -*-===//
//
// A CUDA kernel's "launches" (docs/profile-schema.md) is an array of flat
// rows of numbers, a million of them in a large run: most of a profile's
// bytes. nlohmann's lexer reads about 100 MB/s; these rows are read here
// directly from the file's bytes, as nlohmann would read them (the same
// number types and values), and any row that is not a flat array of
// numbers and nulls is handed to nlohmann whole, so every input means what
// it meant.
//
//===----------------------------------------------------------------------===//
#ifndef ROOFLINE_MODEL_LAUNCHROWS_H
#define ROOFLINE_MODEL_LAUNCHROWS_H

#include <nlohmann/json.hpp>

#include <cstdint>
#include <cstdio>
#include <optional>
#include <string>
#include <vector>

namespace roofline {

/// One value of a launch row, typed as nlohmann types a parsed number.
struct LaunchCell {
  enum Kind : uint8_t { Unsigned, Integer, Float, Null, Other };
  Kind K = Null;
  union {
    uint64_t U;
    int64_t I;
    double F = 0;
  };
  bool isNumber() const { return K <= Float; }
  double number() const {
    return K == Unsigned ? double(U) : K == Integer ? double(I) : F;
  }
};

/// A row as read: its cells when it is an array; Dom too when some value in
/// it is not a number or null (or it is not an array at all).
struct LaunchRow {
  bool IsArray = true;
  std::vector<LaunchCell> Cells;
  std::optional<nlohmann::json> Dom;

  /// The row of a parsed document.
  static LaunchRow fromJSON(const nlohmann::json &V);
};

/// What receives the rows of one launch array, in order.
class LaunchRowSink {
public:
  virtual ~LaunchRowSink() = default;
  virtual void row(const LaunchRow &R) = 0;
};

/// The first size of a ByteReader's buffer: the fuzz target of the reader
/// (fuzz/FuzzProfileStream.cpp) makes it a few bytes, so that refills fall
/// anywhere in a document.
#ifndef ROOFLINE_BYTE_READER_BUFFER
#define ROOFLINE_BYTE_READER_BUFFER (1 << 20)
#endif

/// A file read through a buffer that a refill may grow but never moves
/// past Mark, so a row can be read again from its start.
class ByteReader {
public:
  ~ByteReader();
  /// "" or why the file cannot be opened.
  std::string open(const std::string &Path);
  /// Reads from byte \p Offset on; false when it cannot seek there.
  bool seek(uint64_t Offset);

  /// The next byte, or -1 at the end (or a read error: see Error).
  int peek() {
    if (Pos == End && !fill())
      return -1;
    return static_cast<unsigned char>(Buf[Pos]);
  }
  /// The file offset of the next byte.
  uint64_t offset() const { return BufOffset + Pos; }
  /// Reads more after End, keeping [min(Mark, Pos), End); false at the end.
  bool fill();

  std::vector<char> Buf = std::vector<char>(ROOFLINE_BYTE_READER_BUFFER);
  size_t Pos = 0, End = 0, Mark = SIZE_MAX;
  uint64_t BufOffset = 0;
  std::string Error; ///< a read error, when there was one

private:
  std::FILE *F = nullptr;
};

/// Reads a JSON array of launch rows from \p R (at its '[', after any
/// whitespace), each row to \p Sink; leaves R after the ']'. Rows: the
/// number of rows. False when the array is not valid JSON (or R.Error).
bool scanLaunchArray(ByteReader &R, LaunchRowSink &Sink, size_t &Rows);

} // namespace roofline

#endif
