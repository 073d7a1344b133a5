//===- Machine.cpp - What the OS says about this machine ------------------===//
#include "Machine.h"

#include "CacheTopology.h"

#include <algorithm>
#include <fstream>
#include <thread>

namespace roofline {
namespace probe {

Machine describeMachine() {
  Machine M;
  M.LogicalCPUs = std::max(1u, std::thread::hardware_concurrency());
  std::ifstream Info("/proc/cpuinfo");
  std::string Line;
  while (std::getline(Info, Line)) {
    auto Value = [&] {
      size_t C = Line.find(':');
      return C == std::string::npos ? std::string() : Line.substr(C + 2);
    };
    if (M.CPUModel.empty() && Line.rfind("model name", 0) == 0)
      M.CPUModel = Value();
    if (M.NominalMHz == 0 && Line.rfind("cpu MHz", 0) == 0)
      M.NominalMHz = std::stod(Value());
  }
  // One reader of the geometry for the probe and the cache model.
  topology::CacheTopology T = topology::readCacheTopology();
  for (topology::CacheInfo C : T.Levels) {
    C.SharedBy = std::min(C.SharedBy, M.LogicalCPUs);
    M.DataCaches.push_back(C);
  }
  M.CachesFromCPUID = T.From == topology::CacheSource::CPUID ||
                      T.From == topology::CacheSource::CPUIDLegacy;
  M.CacheOrigin = T.Origin;
#ifdef __clang__
  M.Compiler = "clang " __clang_version__;
#else
  M.Compiler = "unknown compiler";
#endif
  return M;
}

} // namespace probe
} // namespace roofline
