//===- Kernels.h - The probe's measurement kernels --------------*- C++ -*-===//
//
// Compute: independent FMA chains (enough to cover the FMA latency of two
// pipes) in the widest vectors an ISA has. Bandwidth: a read-only sum, a
// STREAM triad, a daxpy update (read-modify-write: no write-allocate read),
// and a copy and a triad with non-temporal stores (memory's peak: no
// write-allocate reads) over one array size. Each ISA's code is compiled for it with
// target attributes and chosen at run time.
//
//===----------------------------------------------------------------------===//
#ifndef ROOFLINE_TOOLS_PROBE_KERNELS_H
#define ROOFLINE_TOOLS_PROBE_KERNELS_H

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace roofline {
namespace probe {

struct ISA {
  std::string Name; ///< "avx512", "avx2", "sse2", "scalar"
  unsigned Bits;    ///< vector width (64 for scalar)
  bool FMA;         ///< fused multiply-add instructions
};

/// The ISAs this CPU can run, widest first (always ends with "scalar").
std::vector<ISA> availableISAs();

/// Runs \p Iterations rounds of FMA chains in \p I's vectors of doubles
/// (or floats); returns the FLOPs done (2 per lane per FMA).
double computeKernel(const ISA &I, bool Double, uint64_t Iterations,
                     double *Sink);

/// Runs \p Iterations rounds of 16 independent int32 vector adds in \p I's
/// widest vectors (SSE2's for "scalar"); returns the int32 operations done
/// (one per lane per add): the integer roof.
double intAddKernel(const ISA &I, uint64_t Iterations, uint64_t *Sink);

/// The issue-rate kernels' mixes of independent instructions.
enum class IssueMix { Adds, AddsAndLoads };
const char *issueMixText(IssueMix M);

/// Runs \p Iterations rounds of 10 independent instructions of mix \p Mix
/// (8 and the loop's two); returns the instructions done, 0 where the
/// kernels do not exist (they are x86-64 assembly): the instruction roof.
double issueKernel(IssueMix Mix, uint64_t Iterations, uint64_t *Sink);

/// Reads \p N doubles \p Repeat times (vectorised with \p I); returns
/// bytes read. Repeating inside the kernel keeps the call's overhead out of
/// small (L1-sized) working sets.
double readKernel(const ISA &I, const double *X, size_t N, unsigned Repeat,
                  double *Sink);
/// a[i] = b[i] + s*c[i] over N doubles, \p Repeat times; returns bytes
/// moved (24 per element, the STREAM convention).
double triadKernel(const ISA &I, double *A, const double *B, const double *C,
                   size_t N, unsigned Repeat);
/// a[i] += s*b[i] over N doubles, \p Repeat times (likwid-bench's daxpy):
/// the written line was read, so no write-allocate fill. Returns bytes
/// moved (24 per element: two reads and a write, which every level's
/// traffic counts too).
double daxpyKernel(const ISA &I, double *A, const double *B, size_t N,
                   unsigned Repeat);
/// a[i] = b[i] with non-temporal stores (no write-allocate read of a);
/// returns bytes moved (16 per element).
double copyNTKernel(const ISA &I, double *A, const double *B, size_t N,
                    unsigned Repeat);
/// The C library's memcpy of N doubles (large copies use non-temporal
/// stores in glibc); 16 bytes per element. A compiled copy loop is often
/// replaced by it (STREAM's Copy built by clang -O3 is).
double memcpyKernel(double *A, const double *B, size_t N, unsigned Repeat);
/// The triad with non-temporal stores; 24 bytes per element.
double triadNTKernel(const ISA &I, double *A, const double *B, const double *C,
                     size_t N, unsigned Repeat);

/// Runs \p Iterations rounds of 16 dependent 64-bit integer adds (one
/// cycle each on every x86-64 core): 16 cycles a round, whatever else the
/// core does in parallel. Returns the cycles that took.
double addChainKernel(uint64_t Iterations, uint64_t *Sink);

/// Runs \p Iterations rounds of 16 dependent double-precision adds (or,
/// with \p FMA, fused multiply-adds through the accumulator); returns the
/// operations done. Their time over the clock is the latency a loop-carried
/// chain of them pays on this core.
double fpChainKernel(bool FMA, uint64_t Iterations, double *Sink);

} // namespace probe
} // namespace roofline

#endif
