//===- CacheLevels.cpp - Each cache level's bandwidth from a sweep --------===//
#include "CacheLevels.h"

#include <algorithm>

namespace roofline {
namespace probe {

std::vector<LevelBandwidth> detectLevels(const std::vector<topology::CacheInfo> &Caches,
                                         const std::vector<size_t> &Sizes,
                                         const std::vector<double> &Best,
                                         unsigned Threads) {
  std::vector<LevelBandwidth> Out;
  size_t Below = 0;
  for (const topology::CacheInfo &C : Caches) {
    LevelBandwidth L;
    L.Cache = C;
    L.SharePerThread = C.SizeBytes / std::max(1u, std::min(C.SharedBy, Threads));
    size_t Share = L.SharePerThread;
    for (size_t K = 0; K < Sizes.size() && K < Best.size(); ++K)
      if (Sizes[K] <= Share * 3 / 4 && Sizes[K] > Below &&
          Best[K] > L.BytesPerSecond) {
        L.BytesPerSecond = Best[K];
        L.MeasuredAt = Sizes[K];
      }
    for (size_t K = 1; K < Sizes.size() && K < Best.size(); ++K)
      if (Sizes[K - 1] > Below && Best[K] < Best[K - 1] * 0.67 &&
          Sizes[K - 1] <= Share * 2) {
        L.DropAt = Sizes[K];
        L.LastFastAt = Sizes[K - 1];
        break;
      }
    L.AgreesWithOS =
        L.DropAt && Share >= L.LastFastAt / 2 && Share <= L.DropAt * 2;
    Out.push_back(L);
    Below = Share;
  }
  return Out;
}

} // namespace probe
} // namespace roofline
