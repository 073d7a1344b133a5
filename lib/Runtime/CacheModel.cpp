//===- CacheModel.cpp - A set-associative LRU cache hierarchy -------------===//
#include "CacheModel.h"

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>

namespace roofline {
namespace rt {

namespace {

bool isPowerOf2(uint64_t V) { return V && !(V & (V - 1)); }

/// "48K" -> 49152; false for anything that is not a positive size.
bool parseSize(const std::string &S, uint64_t &Out) {
  if (S.empty())
    return false;
  char *End = nullptr;
  unsigned long long V = std::strtoull(S.c_str(), &End, 10);
  if (End == S.c_str() || V == 0)
    return false;
  std::string Suffix(End);
  uint64_t Mul = 1;
  if (Suffix == "K" || Suffix == "k" || Suffix == "KB" || Suffix == "KiB")
    Mul = 1024;
  else if (Suffix == "M" || Suffix == "m" || Suffix == "MB" || Suffix == "MiB")
    Mul = 1024 * 1024;
  else if (Suffix == "G" || Suffix == "g" || Suffix == "GB" || Suffix == "GiB")
    Mul = 1024ull * 1024 * 1024;
  else if (!Suffix.empty())
    return false;
  Out = uint64_t(V) * Mul;
  return true;
}

std::vector<std::string> split(const std::string &S, char Sep) {
  std::vector<std::string> Out(1);
  for (char C : S) {
    if (C == Sep)
      Out.emplace_back();
    else
      Out.back() += C;
  }
  return Out;
}

std::string readLine(const std::string &Path) {
  std::ifstream In(Path);
  std::string Line;
  std::getline(In, Line);
  return Line;
}

} // namespace

bool parseCacheSpec(const std::string &Spec, std::vector<CacheGeometry> &Levels,
                    std::string &Error) {
  Levels.clear();
  for (const std::string &Level : split(Spec, ',')) {
    std::vector<std::string> Fields = split(Level, ':');
    CacheGeometry G;
    uint64_t Ways = 0, Line = 0;
    if (Fields.size() != 3 || !parseSize(Fields[0], G.SizeBytes) ||
        !parseSize(Fields[1], Ways) || !parseSize(Fields[2], Line) ||
        Ways > 1024 || Line > 4096) {
      Error = "'" + Level + "' is not size:ways:line (for example 32K:8:64)";
      return false;
    }
    G.Ways = uint32_t(Ways);
    G.LineBytes = uint32_t(Line);
    if (!isPowerOf2(G.LineBytes)) {
      Error = "'" + Level + "': the line size is not a power of two";
      return false;
    }
    if (!Levels.empty() && G.LineBytes != Levels.front().LineBytes) {
      Error = "'" + Level + "': every level must have the first level's line size";
      return false;
    }
    if (G.SizeBytes % (uint64_t(G.Ways) * G.LineBytes) != 0) {
      Error = "'" + Level + "': the size is not a whole number of sets (ways x line)";
      return false;
    }
    Levels.push_back(G);
  }
  if (Levels.size() > 6) {
    Error = "more than 6 levels";
    return false;
  }
  return true;
}

std::vector<CacheGeometry>
modelGeometry(const std::vector<topology::CacheInfo> &Levels,
              std::string &Notes, std::string &Error) {
  std::vector<CacheGeometry> Out;
  for (const topology::CacheInfo &C : Levels) {
    CacheGeometry G;
    G.SizeBytes = C.SizeBytes;
    G.Ways = C.Ways;
    G.LineBytes = C.LineBytes ? C.LineBytes : 64;
    if (!G.Ways) {
      G.Ways = 16;
      Notes += "L" + std::to_string(C.Level) + "'s ways are not given: 16 assumed; ";
    }
    Out.push_back(G);
  }
  for (size_t I = 0; I < Out.size(); ++I)
    if (!isPowerOf2(Out[I].LineBytes) || Out[I].LineBytes != Out[0].LineBytes ||
        Out[I].SizeBytes % (uint64_t(Out[I].Ways) * Out[I].LineBytes)) {
      Error = "level " + std::to_string(I + 1) + " (" +
              std::to_string(Out[I].SizeBytes) + " B, " +
              std::to_string(Out[I].Ways) + " ways, " +
              std::to_string(Out[I].LineBytes) +
              " B lines) is not a geometry the model can simulate";
      return {};
    }
  if (Out.size() > 6) {
    Error = "more than 6 levels";
    return {};
  }
  return Out;
}

std::vector<CacheGeometry> machineCaches(const std::string &SysDir) {
  std::string Notes, Error;
  return modelGeometry(topology::sysfsCaches(SysDir), Notes, Error);
}

CacheLevel::CacheLevel(const CacheGeometry &G)
    : Geometry(G), Sets(G.sets()), SetMask(isPowerOf2(Sets) ? Sets - 1 : 0),
      Tags(G.sets() * G.Ways, 0) {}

CacheHierarchy::CacheHierarchy(const std::vector<CacheGeometry> &Geometries) {
  for (const CacheGeometry &G : Geometries)
    Levels.emplace_back(G);
}

void CacheHierarchy::fetchAt(size_t L, uint64_t Line, bool Write,
                             LevelEvents *Events, CacheSpill &Out) {
  if (L == Levels.size()) {
    Out.Fetch = true;
    Out.FetchLine = Line;
    return;
  }
  uint64_t Evicted;
  if (!Levels[L].access(Line, Write, Evicted))
    missedAt(L, Line, Evicted, Events, Out);
}

void CacheHierarchy::missedAt(size_t L, uint64_t Line, uint64_t Evicted,
                              LevelEvents *Events, CacheSpill &Out) {
  ++Events[L].Fills;
  if (Evicted != CacheLevel::None) {
    ++Events[L].Writebacks;
    writeBackAt(L + 1, Evicted, Events, Out);
  }
  fetchAt(L + 1, Line, /*Write=*/false, Events, Out);
}

void CacheHierarchy::writeBackAt(size_t L, uint64_t Line, LevelEvents *Events,
                                 CacheSpill &Out) {
  for (; L < Levels.size(); ++L) {
    if (Levels[L].writeBack(Line))
      return;
    ++Events[L].Writebacks; // absent here: it crosses this level too
  }
  if (Out.NumWritebacks < sizeof(Out.Writebacks) / sizeof(Out.Writebacks[0]))
    Out.Writebacks[Out.NumWritebacks++] = Line;
}

bool canSampleSets(const std::vector<CacheGeometry> &Levels) {
  for (const CacheGeometry &G : Levels)
    if (G.sets() % 64 != 0)
      return false;
  return true;
}

uint64_t sampleMaskOf(unsigned Of) {
  if (Of == 0 || Of > 64 || !isPowerOf2(Of))
    return 0;
  // One residue in each block of 64/Of consecutive residues (data that
  // varies smoothly with the address keeps its share), and, as far as the
  // blocks allow, one in each class modulo Of (so do strides of up to
  // 64/Of... Of lines): residue Block * B + Offset, the offsets a Latin
  // square over the blocks that share a class.
  unsigned B = 64 / Of, D = Of > B ? Of / B : 1;
  uint64_t Mask = 0;
  for (unsigned Block = 0; Block < Of; ++Block)
    Mask |= uint64_t(1) << (Block * B + (Block % D + Block / D) % B);
  return Mask;
}

uint64_t defaultSampleMask() { return sampleMaskOf(8); }

} // namespace rt
} // namespace roofline
