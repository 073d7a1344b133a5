//===- Machine.h - What the OS says about this machine ----------*- C++ -*-===//
#ifndef ROOFLINE_TOOLS_PROBE_MACHINE_H
#define ROOFLINE_TOOLS_PROBE_MACHINE_H

#include "CacheTopology.h"

#include <cstddef>
#include <string>
#include <vector>

namespace roofline {
namespace probe {

struct Machine {
  std::string CPUModel;
  unsigned LogicalCPUs = 1;
  double NominalMHz = 0; ///< from /proc/cpuinfo (0 when unknown)
  /// L1d, L2, L3, each shared by at most this machine's logical CPUs.
  std::vector<topology::CacheInfo> DataCaches;
  bool CachesFromCPUID = false; ///< the OS listed none; CPUID described them
  std::string CacheOrigin;      ///< where DataCaches came from, in words
  std::string Compiler;
};

Machine describeMachine();

} // namespace probe
} // namespace roofline

#endif
