//===- PTXAsm.cpp - Counting the PTX inside inline asm --------------------===//
#include "roofline/Analysis/PTXAsm.h"

#include <cctype>
#include <optional>
#include <set>
#include <string>
#include <vector>

namespace roofline {

namespace {

struct PTXType {
  Precision Prec = Precision::Other;
  bool Float = false;
  unsigned Lanes = 1; // f16x2 holds two values
  unsigned Bytes = 0; // size of one register of this type
};

std::optional<PTXType> parseType(std::string_view T) {
  if (T == "f16")
    return PTXType{Precision::FP16, true, 1, 2};
  if (T == "f16x2")
    return PTXType{Precision::FP16, true, 2, 4};
  if (T == "bf16")
    return PTXType{Precision::BF16, true, 1, 2};
  if (T == "bf16x2")
    return PTXType{Precision::BF16, true, 2, 4};
  if (T == "f32" || T == "tf32")
    return PTXType{Precision::FP32, true, 1, 4};
  if (T == "f32x2")
    return PTXType{Precision::FP32, true, 2, 8};
  if (T == "f64")
    return PTXType{Precision::FP64, true, 1, 8};
  static const std::set<std::string_view> Int8 = {"b8", "s8", "u8"};
  static const std::set<std::string_view> Int16 = {"b16", "s16", "u16"};
  static const std::set<std::string_view> Int32 = {"b32", "s32", "u32"};
  static const std::set<std::string_view> Int64 = {"b64", "s64", "u64"};
  if (Int8.count(T))
    return PTXType{Precision::Other, false, 1, 1};
  if (Int16.count(T))
    return PTXType{Precision::Other, false, 1, 2};
  if (Int32.count(T))
    return PTXType{Precision::Other, false, 1, 4};
  if (Int64.count(T))
    return PTXType{Precision::Other, false, 1, 8};
  if (T == "b128")
    return PTXType{Precision::Other, false, 1, 16};
  return std::nullopt;
}

std::vector<std::string_view> split(std::string_view S, char Sep) {
  std::vector<std::string_view> Parts;
  size_t Start = 0;
  for (size_t I = 0; I <= S.size(); ++I)
    if (I == S.size() || S[I] == Sep) {
      Parts.push_back(S.substr(Start, I - Start));
      Start = I + 1;
    }
  return Parts;
}

std::string_view trim(std::string_view S) {
  while (!S.empty() && (std::isspace((unsigned char)S.front()) ||
                        S.front() == '{' || S.front() == '}'))
    S.remove_prefix(1);
  while (!S.empty() && (std::isspace((unsigned char)S.back()) ||
                        S.back() == '{' || S.back() == '}'))
    S.remove_suffix(1);
  return S;
}

std::optional<MemSpace> stateSpace(const std::vector<std::string_view> &Mods) {
  for (std::string_view M : Mods) {
    if (M == "global")
      return MemSpace::Global;
    if (M == "shared")
      return MemSpace::Shared;
    if (M == "local")
      return MemSpace::Local;
    if (M == "const")
      return MemSpace::Constant;
    if (M == "param")
      return std::nullopt; // kernel parameters: not memory traffic
  }
  return MemSpace::Generic;
}

/// Reads "m16n8k16" into M, N, K.
bool parseShape(std::string_view S, int64_t &M, int64_t &N, int64_t &K) {
  if (S.size() < 6 || S[0] != 'm')
    return false;
  int64_t *Dst[] = {&M, &N, &K};
  const char Keys[] = {'m', 'n', 'k'};
  size_t I = 0;
  for (unsigned D = 0; D < 3; ++D) {
    if (I >= S.size() || S[I] != Keys[D])
      return false;
    ++I;
    int64_t V = 0;
    bool Any = false;
    while (I < S.size() && std::isdigit((unsigned char)S[I])) {
      V = V * 10 + (S[I++] - '0');
      Any = true;
    }
    if (!Any)
      return false;
    *Dst[D] = V;
  }
  return I == S.size();
}

Precision mmaPrecision(const std::vector<std::string_view> &Mods) {
  // The A/B operand type decides the tensor-core precision: mma.sync has
  // types dtype.atype.btype.ctype; the second type listed is A's.
  std::vector<std::string_view> Types;
  for (std::string_view M : Mods)
    if (parseType(M) || M == "e4m3" || M == "e5m2")
      Types.push_back(M);
  std::string_view AType =
      Types.size() >= 4 ? Types[1] : (Types.empty() ? "" : Types.back());
  if (auto T = parseType(AType))
    return T->Float ? T->Prec : Precision::Other;
  return Precision::Other;
}

/// Counts one PTX statement; returns false when the opcode is not known.
bool countStatement(std::string_view Stmt, CostVector &Cost) {
  // A guard predicate "@%p1" or "@!%p1" comes before the opcode.
  if (!Stmt.empty() && Stmt.front() == '@') {
    size_t Sp = Stmt.find_first_of(" \t");
    if (Sp == std::string_view::npos)
      return true;
    Stmt = trim(Stmt.substr(Sp));
  }
  size_t Sp = Stmt.find_first_of(" \t");
  std::string_view Mnemonic = Stmt.substr(0, Sp);
  std::vector<std::string_view> Parts = split(Mnemonic, '.');
  std::string_view Op = Parts[0];
  std::vector<std::string_view> Mods(Parts.begin() + 1, Parts.end());

  std::optional<PTXType> Type;
  unsigned VectorCount = 1;
  for (std::string_view M : Mods) {
    if (auto T = parseType(M))
      Type = T; // the last type wins (e.g. cvt.f32.f16 converts to f32)
    if (M == "v2")
      VectorCount = 2;
    else if (M == "v4")
      VectorCount = 4;
    else if (M == "v8")
      VectorCount = 8;
  }

  static const std::set<std::string_view> Free = {
      "mov",  "cvt",   "cvta", "neg",   "abs",   "min",    "max",
      "set",  "setp",  "selp", "slct",  "testp", "copysign", "and",
      "or",   "xor",   "not",  "shl",   "shr",   "prmt",   "bra",
      "ret",  "bar",   "barrier", "membar", "fence", "shfl", "vote",
      "activemask", "brev", "bfe", "bfi", "clz", "popc", "cnot", "lop3",
      "mov.b32", "exit", "nanosleep", "pmevent", "trap", "prefetch",
      "prefetchu", "isspacep", "getctarank", "elect", "griddepcontrol"};

  bool IsFloat = Type && Type->Float;
  unsigned Lanes = Type ? Type->Lanes : 1;
  Precision P = Type ? Type->Prec : Precision::Other;

  if (Op == "add" || Op == "sub" || Op == "mul" || Op == "fma" ||
      Op == "mad" || Op == "div" || Op == "rcp" || Op == "sqrt" ||
      Op == "rsqrt" || Op == "ex2" || Op == "lg2" || Op == "sin" ||
      Op == "cos" || Op == "tanh") {
    if (!IsFloat)
      return Type.has_value(); // integer arithmetic: known, not a FLOP
    FlopClass C = FlopClass::Add;
    if (Op == "mul")
      C = FlopClass::Mul;
    else if (Op == "fma" || Op == "mad")
      C = FlopClass::FMA;
    else if (Op == "div" || Op == "rcp")
      C = FlopClass::Div;
    else if (Op == "sqrt" || Op == "rsqrt")
      C = FlopClass::Sqrt;
    else if (Op == "ex2" || Op == "lg2" || Op == "sin" || Op == "cos" ||
             Op == "tanh")
      C = FlopClass::Special;
    Cost.addFlops(P, C, Lanes);
    return true;
  }
  if (Op == "ld" || Op == "ldu" || Op == "st" || Op == "atom" ||
      Op == "red") {
    if (!Type)
      return false;
    std::optional<MemSpace> S = stateSpace(Mods);
    if (!S)
      return true;
    int64_t Bytes = int64_t(Type->Bytes) * VectorCount;
    bool Loads = Op != "st" && Op != "red";
    bool Stores = Op != "ld" && Op != "ldu";
    if (Loads)
      Cost.addBytes(*S, Access::Load, Bytes);
    if (Stores)
      Cost.addBytes(*S, Access::Store, Bytes);
    Cost.addWarpShareable(*S, Loads && Stores ? 2 * Bytes : Bytes);
    if ((Op == "atom" || Op == "red") && IsFloat)
      Cost.addFlops(P, FlopClass::Add, Lanes);
    return true;
  }
  if (Op == "mma" || Op == "wmma") {
    int64_t M = 0, N = 0, K = 0;
    for (std::string_view Mod : Mods)
      if (parseShape(Mod, M, N, K)) {
        // 2*M*N*K FLOPs per warp-wide operation; counts are per thread.
        Cost.addFlops(mmaPrecision(Mods), FlopClass::Tensor, 2 * M * N * K / 32);
        return true;
      }
    return false;
  }
  if (Free.count(Op))
    return true;
  return false;
}

/// The instructions of an asm template, without directives, labels and
/// comments. Statements end with ';'; newlines and braces only group them.
std::vector<std::string> statements(std::string_view AsmText) {
  std::string Text(AsmText);
  for (char &C : Text)
    if (C == '\n')
      C = ';';
  std::vector<std::string> Out;
  for (std::string_view Raw : split(Text, ';')) {
    std::string_view Stmt = trim(Raw);
    size_t Comment = Stmt.find("//");
    if (Comment != std::string_view::npos)
      Stmt = trim(Stmt.substr(0, Comment));
    if (Stmt.empty() || Stmt.front() == '.')
      continue; // a directive such as ".reg .b16 t;"
    if (Stmt.back() == ':')
      continue; // a label
    Out.emplace_back(Stmt);
  }
  return Out;
}

/// "[$1]", "[$1+8]", "[${1}]" or "[%1]" (the source's spelling): operand 1.
std::optional<std::pair<unsigned, int64_t>> addressOperand(std::string_view S) {
  size_t Open = S.find('['), Close = S.find(']');
  if (Open == std::string_view::npos || Close == std::string_view::npos ||
      Close < Open)
    return std::nullopt;
  std::string_view A = trim(S.substr(Open + 1, Close - Open - 1));
  if (A.size() < 2 || (A[0] != '$' && A[0] != '%'))
    return std::nullopt;
  A.remove_prefix(1);
  bool Braced = !A.empty() && A.front() == '{';
  if (Braced)
    A.remove_prefix(1);
  size_t I = 0;
  unsigned N = 0;
  while (I < A.size() && std::isdigit((unsigned char)A[I]))
    N = N * 10 + unsigned(A[I++] - '0');
  if (I == 0)
    return std::nullopt; // a register of the asm's own, such as %rd1
  if (Braced) {
    I = A.find('}', I);
    if (I == std::string_view::npos)
      return std::nullopt;
    ++I;
  }
  std::string_view Rest = trim(A.substr(I));
  int64_t Offset = 0;
  if (!Rest.empty()) {
    bool Neg = Rest.front() == '-';
    if (Rest.front() != '+' && !Neg)
      return std::nullopt;
    Rest = trim(Rest.substr(1));
    if (Rest.empty())
      return std::nullopt;
    for (char C : Rest) {
      if (!std::isdigit((unsigned char)C))
        return std::nullopt;
      Offset = Offset * 10 + (C - '0');
    }
    if (Neg)
      Offset = -Offset;
  }
  return std::make_pair(N, Offset);
}

} // namespace

CostVector costOfPTXAsm(std::string_view AsmText) {
  CostVector Cost;
  for (const std::string &Stmt : statements(AsmText))
    if (!countStatement(Stmt, Cost)) {
      size_t Sp = Stmt.find_first_of(" \t");
      Cost.addUnknown("asm:" + Stmt.substr(0, Sp));
    }
  return Cost;
}

std::vector<PTXMemoryAccess> memoryAccessesOfPTXAsm(std::string_view AsmText) {
  std::vector<PTXMemoryAccess> Out;
  for (std::string_view Stmt : statements(AsmText)) {
    if (!Stmt.empty() && Stmt.front() == '@') // a guard predicate
      Stmt = trim(Stmt.substr(std::min(Stmt.size(), Stmt.find_first_of(" \t"))));
    size_t Sp = Stmt.find_first_of(" \t");
    std::vector<std::string_view> Parts = split(Stmt.substr(0, Sp), '.');
    std::string_view Op = Parts[0];
    if (Op != "ld" && Op != "ldu" && Op != "st" && Op != "atom" && Op != "red")
      continue;
    std::vector<std::string_view> Mods(Parts.begin() + 1, Parts.end());
    std::optional<PTXType> Type;
    unsigned VectorCount = 1;
    for (std::string_view M : Mods) {
      if (auto T = parseType(M))
        Type = T;
      if (M.size() == 2 && M[0] == 'v' && std::isdigit((unsigned char)M[1]))
        VectorCount = unsigned(M[1] - '0');
    }
    std::optional<MemSpace> Space = stateSpace(Mods);
    if (!Space)
      continue; // a kernel parameter
    PTXMemoryAccess A;
    A.Space = *Space;
    A.Bytes = Type ? Type->Bytes * VectorCount : 0;
    A.Loads = Op != "st" && Op != "red";
    A.Stores = Op != "ld" && Op != "ldu";
    if (auto Addr = addressOperand(Stmt.substr(std::min(Sp, Stmt.size()))))
      A.Operand = Addr->first, A.Offset = Addr->second;
    Out.push_back(A);
  }
  return Out;
}

} // namespace roofline
