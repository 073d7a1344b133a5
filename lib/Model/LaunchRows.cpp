//===- LaunchRows.cpp - Reading a profile's CUDA launch rows fast ---------===//
//
// A row is read by a fast path that accepts only what is plainly valid
// JSON (a flat array of numbers in JSON's grammar, and nulls); anything
// else (strings, nested values, a stray comma, a number too long or out of
// range) is read again from the row's first byte as one JSON value and
// given to nlohmann, which decides whether it is valid and what it is.
// Numbers are typed as nlohmann's lexer types them: no fraction or
// exponent and no minus sign: unsigned; with a minus sign: integer; either
// out of range, or with a fraction or an exponent: float (correctly
// rounded, as strtod is).
//
//===----------------------------------------------------------------------===//
#include "roofline/Model/LaunchRows.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdlib>
#include <cstring>

namespace roofline {

using nlohmann::json;

LaunchRow LaunchRow::fromJSON(const json &V) {
  LaunchRow R;
  R.IsArray = V.is_array();
  bool Plain = R.IsArray;
  if (R.IsArray)
    for (const json &E : V) {
      LaunchCell C;
      if (E.is_number_unsigned())
        C.K = LaunchCell::Unsigned, C.U = E.get<uint64_t>();
      else if (E.is_number_integer())
        C.K = LaunchCell::Integer, C.I = E.get<int64_t>();
      else if (E.is_number_float())
        C.K = LaunchCell::Float, C.F = E.get<double>();
      else if (E.is_null())
        C.K = LaunchCell::Null;
      else
        C.K = LaunchCell::Other, Plain = false;
      R.Cells.push_back(C);
    }
  if (!Plain)
    R.Dom = V;
  return R;
}

ByteReader::~ByteReader() {
  if (F)
    std::fclose(F);
}

std::string ByteReader::open(const std::string &Path) {
  F = std::fopen(Path.c_str(), "rb");
  if (!F)
    return std::strerror(errno);
  return "";
}

bool ByteReader::seek(uint64_t Offset) {
  if (!F || std::fseek(F, long(Offset), SEEK_SET) != 0)
    return false;
  Pos = End = 0;
  Mark = SIZE_MAX;
  BufOffset = Offset;
  return true;
}

bool ByteReader::fill() {
  size_t Keep = std::min(Mark, Pos);
  if (Keep > 0) {
    std::memmove(Buf.data(), Buf.data() + Keep, End - Keep);
    BufOffset += Keep;
    Pos -= Keep;
    End -= Keep;
    if (Mark != SIZE_MAX)
      Mark -= Keep;
  }
  if (End == Buf.size()) // one row longer than the buffer
    Buf.resize(Buf.size() * 2);
  if (!F)
    return false;
  size_t N = std::fread(Buf.data() + End, 1, Buf.size() - End, F);
  if (N == 0 && std::ferror(F) && Error.empty())
    Error = std::strerror(errno);
  End += N;
  return N > 0;
}

namespace {

bool isSpace(int C) { return C == ' ' || C == '\n' || C == '\r' || C == '\t'; }
bool isDigit(int C) { return C >= '0' && C <= '9'; }

void skipSpace(ByteReader &R) {
  for (;;) {
    const char *P = R.Buf.data() + R.Pos, *E = R.Buf.data() + R.End;
    while (P < E && isSpace(*P))
      ++P;
    R.Pos = size_t(P - R.Buf.data());
    if (P < E || !R.fill())
      return;
  }
}

/// A number in JSON's grammar at R, typed as nlohmann types it; false
/// (R anywhere) when it is not one, or one to leave to nlohmann.
bool fastNumber(ByteReader &R, LaunchCell &C) {
  // A number longer than this is left to nlohmann.
  constexpr size_t Longest = 48;
  while (R.End - R.Pos < Longest + 1 && R.fill())
    ;
  const char *Start = R.Buf.data() + R.Pos, *E = R.Buf.data() + R.End;
  const char *P = Start;
  auto Digits = [&] {
    const char *From = P;
    while (P < E && isDigit(*P))
      ++P;
    return P > From;
  };
  bool Negative = P < E && *P == '-';
  if (Negative)
    ++P;
  if (P < E && *P == '0')
    ++P;
  else if (!Digits())
    return false;
  bool Whole = true;
  if (P < E && *P == '.') {
    Whole = false;
    ++P;
    if (!Digits())
      return false;
  }
  if (P < E && (*P == 'e' || *P == 'E')) {
    Whole = false;
    ++P;
    if (P < E && (*P == '+' || *P == '-'))
      ++P;
    if (!Digits())
      return false;
  }
  size_t N = size_t(P - Start);
  if (N > Longest || (P == E && R.End - R.Pos > Longest))
    return false;
  R.Pos += N;
  if (Whole && !Negative && N <= 19) { // no overflow in 19 digits
    uint64_t V = 0;
    for (const char *D = Start; D < P; ++D)
      V = V * 10 + uint64_t(*D - '0');
    C.K = LaunchCell::Unsigned;
    C.U = V;
    return true;
  }
  if (Whole && !Negative) {
    auto [End, EC] = std::from_chars(Start, P, C.U);
    if (EC == std::errc() && End == P) {
      C.K = LaunchCell::Unsigned;
      return true;
    }
  } else if (Whole) {
    auto [End, EC] = std::from_chars(Start, P, C.I);
    if (EC == std::errc() && End == P) {
      C.K = LaunchCell::Integer;
      return true;
    }
  }
  auto [End, EC] = std::from_chars(Start, P, C.F);
  if (EC == std::errc::result_out_of_range) {
    char Text[Longest + 1];
    std::memcpy(Text, Start, N);
    Text[N] = 0;
    C.F = std::strtod(Text, nullptr); // underflow to 0 is fine; inf is not
  } else if (EC != std::errc() || End != P) {
    return false;
  }
  C.K = LaunchCell::Float;
  return std::isfinite(C.F);
}

/// Reads the '[' at \p R and the space after it, and the ']' when the
/// array is empty (\p Empty); false when \p R is not at an array.
bool openArray(ByteReader &R, bool &Empty) {
  if (R.peek() != '[')
    return false;
  ++R.Pos;
  skipSpace(R);
  Empty = R.peek() == ']';
  if (Empty)
    ++R.Pos;
  return true;
}

/// A flat array of numbers and nulls at R, into Row; false when it is
/// anything else (or invalid), to be read again by nlohmann.
bool fastRow(ByteReader &R, LaunchRow &Row) {
  Row.IsArray = true;
  Row.Cells.clear();
  Row.Dom.reset();
  bool Empty = false;
  if (!openArray(R, Empty))
    return false;
  if (Empty)
    return true;
  for (;;) {
    skipSpace(R);
    LaunchCell C;
    int Ch = R.peek();
    if (Ch == 'n') {
      for (const char *L = "null"; *L; ++L, ++R.Pos)
        if (R.peek() != *L)
          return false;
      C.K = LaunchCell::Null;
    } else if (!fastNumber(R, C)) {
      return false;
    }
    Row.Cells.push_back(C);
    skipSpace(R);
    Ch = R.peek();
    if (Ch != ']' && Ch != ',')
      return false;
    ++R.Pos;
    if (Ch == ']')
      return true;
  }
}

/// One JSON value at R read whole (its extent found by brackets outside
/// strings) and parsed by nlohmann; false when it is not valid JSON.
bool slowRow(ByteReader &R, LaunchRow &Row) {
  int Depth = 0;
  bool InString = false;
  for (;;) {
    int C = R.peek();
    if (C < 0)
      return false;
    if (InString) {
      if (C == '\\') {
        ++R.Pos;
        if (R.peek() < 0)
          return false;
      } else if (C == '"') {
        InString = false;
      }
    } else if (C == '"') {
      InString = true;
    } else if (C == '[' || C == '{') {
      ++Depth;
    } else if (C == ']' || C == '}') {
      if (Depth == 0)
        break; // the end of the launch array
      if (--Depth == 0) {
        ++R.Pos;
        break;
      }
    } else if (Depth == 0 && (C == ',' || isSpace(C))) {
      break;
    }
    ++R.Pos;
  }
  // The row began at Mark (which a refill moves with the bytes).
  size_t Start = R.Mark;
  // nlohmann's parser skips a byte order mark at the start of its input and
  // stops at a NUL byte; inside the launch array neither is JSON.
  auto First = R.Buf.begin() + Start, End = R.Buf.begin() + R.Pos;
  if ((End - First >= 3 && First[0] == char(0xEF) && First[1] == char(0xBB) &&
       First[2] == char(0xBF)) ||
      std::find(First, End, '\0') != End)
    return false;
  json V = json::parse(R.Buf.begin() + Start, R.Buf.begin() + R.Pos, nullptr,
                       /*allow_exceptions=*/false);
  if (V.is_discarded())
    return false;
  Row = LaunchRow::fromJSON(V);
  return true;
}

} // namespace

bool scanLaunchArray(ByteReader &R, LaunchRowSink &Sink, size_t &Rows) {
  Rows = 0;
  skipSpace(R);
  bool Empty = false;
  if (!openArray(R, Empty))
    return false;
  if (Empty)
    return true;
  LaunchRow Row;
  for (;;) {
    skipSpace(R);
    R.Mark = R.Pos;
    if (!fastRow(R, Row)) {
      R.Pos = R.Mark;
      if (!slowRow(R, Row)) {
        R.Mark = SIZE_MAX;
        return false;
      }
    }
    R.Mark = SIZE_MAX;
    Sink.row(Row);
    ++Rows;
    skipSpace(R);
    int C = R.peek();
    if (C != ']' && C != ',')
      return false;
    ++R.Pos;
    if (C == ']')
      return R.Error.empty();
  }
}

} // namespace roofline
