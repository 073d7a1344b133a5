// What saxpy's instrumented device code adds to its counter buffer in a
// launch of grid G and block B (the fake runtimes' device, CUDA's and
// HIP's): every thread counts itself at exit; the n threads that pass
// `i < n` do one FMA, load 8 B and store 4 B of global memory, in
// Instructions machine instructions each.
#include "roofline/Runtime/CostKinds.h"
#include "roofline/Runtime/Descriptor.h"

#include <algorithm>
#include <cstdint>

template <class Dim3>
void addSaxpyCounts(uint64_t *Counts, Dim3 G, Dim3 B, void **Args,
                    uint64_t Instructions) {
  using namespace roofline;
  uint64_t Threads = uint64_t(G.x) * G.y * G.z * B.x * B.y * B.z;
  uint64_t Active = std::min<uint64_t>(Threads, *static_cast<int *>(Args[0]));
  Counts[ROOFLINE_DEVICE_THREADS] += Threads;
  Counts[ROOFLINE_DEVICE_SLOTS + flopSlot(Precision::FP32, FlopClass::FMA)] += Active;
  Counts[ROOFLINE_DEVICE_SLOTS + byteSlot(MemSpace::Global, Access::Load)] += 8 * Active;
  Counts[ROOFLINE_DEVICE_SLOTS + byteSlot(MemSpace::Global, Access::Store)] += 4 * Active;
  Counts[ROOFLINE_DEVICE_SLOTS + InstructionSlot] += Instructions * Active;
}
