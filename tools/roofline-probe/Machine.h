//===- Machine.h - What the OS says about this machine ----------*- C++ -*-===//
#ifndef ROOFLINE_TOOLS_PROBE_MACHINE_H
#define ROOFLINE_TOOLS_PROBE_MACHINE_H

#include <cstddef>
#include <string>
#include <vector>

namespace roofline {
namespace probe {

struct CacheLevel {
  unsigned Level = 0;  ///< 1, 2, 3
  size_t Bytes = 0;    ///< per instance
  unsigned SharedBy = 1; ///< logical CPUs sharing one instance
  bool WholePackage = false; ///< Bytes is the package's (old CPUID leaves)
};

struct Machine {
  std::string CPUModel;
  unsigned LogicalCPUs = 1;
  double NominalMHz = 0; ///< from /proc/cpuinfo (0 when unknown)
  std::vector<CacheLevel> DataCaches; ///< L1d, L2, L3 (CacheTopology.h)
  bool CachesFromCPUID = false; ///< the OS listed none; CPUID described them
  std::string CacheOrigin;      ///< where DataCaches came from, in words
  std::string Compiler;
};

Machine describeMachine();

} // namespace probe
} // namespace roofline

#endif
