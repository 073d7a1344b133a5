//===- CacheModel.h - A set-associative LRU cache hierarchy -----*- C++ -*-===//
//
// The cache model of ROOFLINE_CACHE (docs/instrumentation.md, "Traffic from
// a run"): levels of set-associative LRU caches, write-allocate and
// write-back, each fed by the misses of the one above, as cachegrind models
// D1 and LL, for any number of levels. Set sampling (Kessler, Hill and
// Wood): only the sets whose index modulo 64 is in a fixed mask are
// simulated, at every level alike, so the sampled sets see exactly the
// accesses they would in the full cache; their counts scale by 64 / the
// mask's population. Internal to libroofline_rt (and its unit test); no
// globals, no locks: the caller owns the threading.
//
//===----------------------------------------------------------------------===//
#ifndef ROOFLINE_RUNTIME_CACHEMODEL_H
#define ROOFLINE_RUNTIME_CACHEMODEL_H

#include "CacheTopology.h"

#include <cstdint>
#include <string>
#include <vector>

namespace roofline {
namespace rt {

/// One level's geometry.
struct CacheGeometry {
  uint64_t SizeBytes = 0;
  uint32_t Ways = 0;
  uint32_t LineBytes = 0;
  uint64_t sets() const { return SizeBytes / (uint64_t(Ways) * LineBytes); }
};

/// Parses "32K:8:64,1M:16:64" (size with an optional K, M or G suffix,
/// ways, line bytes; the first level first). Returns false and says why in
/// \p Error for anything else, or a geometry the model cannot use (lines
/// not a power of two or unequal across levels, a size not a whole number
/// of sets).
bool parseCacheSpec(const std::string &Spec, std::vector<CacheGeometry> &Levels,
                    std::string &Error);

/// \p Levels (CacheTopology.h) as the model's geometry, the first level
/// first. A level whose ways are unknown (AMD's old CPUID leaves) gets 16,
/// said in \p Notes; empty, with why in \p Error, when the model cannot use
/// them (lines not a power of two or unequal, a size not whole sets).
std::vector<CacheGeometry>
modelGeometry(const std::vector<topology::CacheInfo> &Levels,
              std::string &Notes, std::string &Error);

/// The caches a sysfs cache directory lists, as the model's geometry
/// (empty when it lists none or the model cannot use them).
std::vector<CacheGeometry> machineCaches(const std::string &SysDir);

/// The events of one level: lines filled from below (misses, with
/// write-allocate) and dirty lines written back below, in sampled sets.
struct LevelEvents {
  uint64_t Fills = 0, Writebacks = 0;
};

/// One cache level's tags: per set, the ways from most to least recently
/// used, each (line number + 1) << 1 with the dirty bit below; 0 is an
/// empty way.
class CacheLevel {
public:
  static constexpr uint64_t None = ~uint64_t(0);
  explicit CacheLevel(const CacheGeometry &G);
  const CacheGeometry &geometry() const { return Geometry; }

  /// Looks \p LineNumber up and makes it the most recent (dirty on a
  /// write); a miss fills it, in the same pass over the set. Returns true
  /// on a hit; on a miss \p Evicted is the dirty line the fill evicted, or
  /// None.
  bool access(uint64_t LineNumber, bool Write, uint64_t &Evicted) {
    uint64_t *S = set(LineNumber);
    uint64_t Want = LineNumber + 1, Prev = S[0];
    if ((Prev >> 1) == Want) {
      S[0] = Prev | uint64_t(Write);
      return true;
    }
    for (uint32_t J = 1; J < Geometry.Ways; ++J) {
      uint64_t Cur = S[J];
      S[J] = Prev;
      if ((Cur >> 1) == Want) {
        S[0] = Cur | uint64_t(Write);
        return true;
      }
      Prev = Cur;
    }
    S[0] = (Want << 1) | uint64_t(Write);
    Evicted = (Prev & 1) ? (Prev >> 1) - 1 : None;
    return false;
  }
  /// Whether the most recent line of \p LineNumber's set is dirty.
  bool mostRecentDirty(uint64_t LineNumber) { return set(LineNumber)[0] & 1; }
  /// A dirty line written back from above: marks it dirty where present
  /// (its recency unchanged) and returns true; false where absent (it goes
  /// on below: as in cachegrind, a level's contents depend only on the
  /// misses of the level above).
  bool writeBack(uint64_t LineNumber) {
    uint64_t *S = set(LineNumber);
    uint64_t Want = LineNumber + 1;
    for (uint32_t J = 0; J < Geometry.Ways; ++J)
      if ((S[J] >> 1) == Want) {
        S[J] |= 1;
        return true;
      }
    return false;
  }

private:
  uint64_t *set(uint64_t LineNumber) {
    uint64_t S = SetMask ? LineNumber & SetMask : LineNumber % Sets;
    return &Tags[S * Geometry.Ways];
  }
  CacheGeometry Geometry;
  uint64_t Sets;
  uint64_t SetMask; ///< Sets - 1 when a power of two, else 0
  std::vector<uint64_t> Tags; ///< Sets * Ways
};

/// What leaves a hierarchy's last level: the line to fetch from below,
/// and the dirty lines written back below.
struct CacheSpill {
  bool Fetch = false;
  uint64_t FetchLine = 0;
  unsigned NumWritebacks = 0;
  uint64_t Writebacks[16];
};

/// Levels of caches, each fed by the misses of the one above. A threaded
/// program has one per thread for its private levels and one shared one
/// for the last level: what spills from the first feeds the second.
class CacheHierarchy {
public:
  explicit CacheHierarchy(const std::vector<CacheGeometry> &Levels);
  CacheLevel &first() { return Levels.front(); }

  /// A line fetched into the first level (a write marks it dirty there).
  /// \p Events has one entry per level.
  void fetch(uint64_t LineNumber, bool Write, LevelEvents *Events, CacheSpill &Out) {
    fetchAt(0, LineNumber, Write, Events, Out);
  }
  /// The rest of a fetch whose first-level access (first().access) missed
  /// and evicted \p Evicted.
  void afterFirstMiss(uint64_t LineNumber, uint64_t Evicted, LevelEvents *Events,
                      CacheSpill &Out) {
    missedAt(0, LineNumber, Evicted, Events, Out);
  }
  /// A dirty line written back into the first level from above.
  void writeBack(uint64_t LineNumber, LevelEvents *Events, CacheSpill &Out) {
    writeBackAt(0, LineNumber, Events, Out);
  }

private:
  void fetchAt(size_t L, uint64_t Line, bool Write, LevelEvents *Events, CacheSpill &Out);
  void missedAt(size_t L, uint64_t Line, uint64_t Evicted, LevelEvents *Events,
                CacheSpill &Out);
  void writeBackAt(size_t L, uint64_t Line, LevelEvents *Events, CacheSpill &Out);
  std::vector<CacheLevel> Levels;
};

/// Whether set sampling can be used with \p Levels: every level's set
/// count a multiple of 64, so that a line's residue modulo 64 decides its
/// set's residue at every level.
bool canSampleSets(const std::vector<CacheGeometry> &Levels);

/// The default sample: 8 of the 64 residues (one set in 8), spread as
/// sampleMaskOf says (docs/instrumentation.md has the measured error).
uint64_t defaultSampleMask();
/// A mask of \p Of residues in 64 (1, 2, 4, 8, 16, 32 or 64), spread as the
/// default is; 0 for any other value.
uint64_t sampleMaskOf(unsigned Of);

} // namespace rt
} // namespace roofline

#endif
