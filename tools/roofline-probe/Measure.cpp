//===- Measure.cpp - Timing the probe's kernels ---------------------------===//
#include "Measure.h"

#include <atomic>
#include <chrono>
#include <new>
#include <pthread.h>
#include <sched.h>
#include <thread>

namespace roofline {
namespace probe {

namespace {

using Clock = std::chrono::steady_clock;

bool QuickPace = false;

volatile double Sink; // keeps the kernels' results alive


void pin(unsigned CPU) {
  cpu_set_t Set;
  CPU_ZERO(&Set);
  CPU_SET(CPU, &Set);
  pthread_setaffinity_np(pthread_self(), sizeof(Set), &Set);
}

/// Runs Work(thread) on \p N pinned threads started together; returns the
/// total units over the slowest thread's seconds.
template <typename Fn> double together(unsigned N, Fn Work) {
  std::atomic<unsigned> Ready{0};
  std::atomic<bool> Go{false};
  std::vector<double> Units(N), Seconds(N);
  std::vector<std::thread> T;
  for (unsigned I = 0; I < N; ++I)
    T.emplace_back([&, I] {
      pin(I);
      ++Ready;
      while (!Go.load())
        ;
      auto Start = Clock::now();
      Units[I] = Work(I);
      Seconds[I] = std::chrono::duration<double>(Clock::now() - Start).count();
    });
  while (Ready.load() < N)
    ;
  Go = true;
  for (std::thread &Th : T)
    Th.join();
  double Total = 0, Slowest = 0;
  for (unsigned I = 0; I < N; ++I) {
    Total += Units[I];
    Slowest = std::max(Slowest, Seconds[I]);
  }
  return Total / Slowest;
}



/// The rate of a chain kernel (Kernel(Iterations, Sink) returns the units
/// done) on one thread: calibrated to about 2 ms a run, then many short
/// runs, so that on a shared machine one of them runs uninterrupted.
template <typename Fn> Stat measureChain(Fn Kernel) {
  uint64_t Iterations = 1 << 12;
  for (;;) {
    auto Start = Clock::now();
    Kernel(Iterations);
    double S = std::chrono::duration<double>(Clock::now() - Start).count();
    if (S >= 0.002 || Iterations > (uint64_t(1) << 40))
      break;
    Iterations *= 2;
  }
  Stat R;
  for (unsigned Rep = 0; Rep < 40; ++Rep)
    R.Runs.push_back(together(1, [&](unsigned) { return Kernel(Iterations); }));
  R.finish();
  return R;
}

} // namespace

/// The core clock while one thread runs: a chain of dependent integer adds
/// (one cycle each) over time.
Stat measureClock() {
  return measureChain([](uint64_t Iterations) {
    uint64_t S = 0;
    double Cycles = addChainKernel(Iterations, &S);
    Sink = Sink + double(S);
    return Cycles;
  });
}

/// Dependent FP operations per second on one thread (their latency is the
/// clock over this).
Stat measureFPChain(bool FMA) {
  return measureChain([FMA](uint64_t Iterations) {
    double S = 1;
    double Ops = fpChainKernel(FMA, Iterations, &S);
    Sink = Sink + S;
    return Ops;
  });
}

/// Operations per second of \p Kernel (Iterations -> operations done) on
/// \p N threads, its rounds calibrated on one thread to targetSeconds().
template <typename KernelFn> Stat measureRate(KernelFn Kernel, unsigned N) {
  uint64_t Iterations = 1 << 12;
  for (;;) { // calibrate on one thread
    auto Start = Clock::now();
    Kernel(Iterations);
    double S = std::chrono::duration<double>(Clock::now() - Start).count();
    if (S >= targetSeconds() / 2 || Iterations > (uint64_t(1) << 40))
      break;
    Iterations *= 2;
  }
  Stat R;
  for (unsigned Rep = 0; Rep < repeats(); ++Rep)
    R.Runs.push_back(together(N, [&](unsigned) { return Kernel(Iterations); }));
  R.finish();
  return R;
}

Stat measureCompute(const ISA &I, bool Double, unsigned N) {
  return measureRate(
      [&](uint64_t Iterations) {
        double S = 0;
        double F = computeKernel(I, Double, Iterations, &S);
        Sink = Sink + S;
        return F;
      },
      N);
}

/// measureRate of an integer kernel that leaves a checksum in its sink.
template <typename KernelFn>
Stat measureChecksummed(KernelFn Kernel, unsigned N) {
  return measureRate(
      [&](uint64_t Iterations) {
        uint64_t S = 0;
        double Ops = Kernel(Iterations, &S);
        Sink = Sink + double(S & 1);
        return Ops;
      },
      N);
}

Stat measureIntAdd(const ISA &I, unsigned N) {
  return measureChecksummed(
      [&](uint64_t It, uint64_t *S) { return intAddKernel(I, It, S); }, N);
}

Stat measureIssue(IssueMix Mix, unsigned N) {
  return measureChecksummed(
      [&](uint64_t It, uint64_t *S) { return issueKernel(Mix, It, S); }, N);
}

namespace {

/// Page-aligned storage: a kernel's 64-byte vectors then never straddle
/// two lines, as in a compiled loop over aligned arrays (malloc's 16-byte
/// alignment split every other AVX-512 load, and the L1 and L2 roofs came
/// out below what such a loop reaches).
template <class T> struct PageAligned {
  using value_type = T;
  PageAligned() = default;
  template <class U> PageAligned(const PageAligned<U> &) {}
  T *allocate(size_t N) {
    return static_cast<T *>(::operator new(N * sizeof(T), std::align_val_t(4096)));
  }
  void deallocate(T *P, size_t) { ::operator delete(P, std::align_val_t(4096)); }
  bool operator==(const PageAligned &) const { return true; }
};

struct Arrays {
  std::vector<double, PageAligned<double>> A, B, C;
};

} // namespace

const char *kernelText(BandwidthKernel K) {
  switch (K) {
  case BandwidthKernel::Read:
    return "read-only sum";
  case BandwidthKernel::Triad:
    return "STREAM triad";
  case BandwidthKernel::Daxpy:
    return "daxpy update";
  case BandwidthKernel::CopyNT:
    return "copy with non-temporal stores";
  case BandwidthKernel::TriadNT:
    return "STREAM triad with non-temporal stores";
  case BandwidthKernel::Memcpy:
    return "the C library's memcpy";
  }
  return "";
}

/// Bandwidth of kernel \p K with a working set of \p Bytes per thread.
/// With \p SinglePasses, each of \p Runs measurements is one pass over the
/// working set (STREAM's method for memory: the best single pass), else
/// enough passes for TargetSeconds.
Stat measureBandwidth(const ISA &I, BandwidthKernel K, size_t Bytes,
                      unsigned N, bool SinglePasses, unsigned Runs) {
  if (!Runs)
    Runs = repeats();
  unsigned ArrayCount = K == BandwidthKernel::Read ? 1
                     : K == BandwidthKernel::CopyNT || K == BandwidthKernel::Memcpy ||
                               K == BandwidthKernel::Daxpy
                         ? 2
                         : 3;
  size_t Elems = std::max<size_t>(Bytes / sizeof(double) / ArrayCount, 64);
  Elems = Elems / 64 * 64;
  std::vector<Arrays> Data(N);
  // First touch in the threads that use the data (their own NUMA node).
  together(N, [&](unsigned T) {
    Data[T].B.assign(Elems, 1.0);
    if (ArrayCount > 1)
      Data[T].A.assign(Elems, 0.0);
    if (ArrayCount > 2)
      Data[T].C.assign(Elems, 2.0);
    return 1.0;
  });
  // Small working sets are swept many times per call: at least ~4 MiB of
  // traffic per call, so the call itself costs nothing measurable.
  unsigned Repeat =
      unsigned(std::max<size_t>(1, (size_t(4) << 20) / (Elems * sizeof(double))));
  auto Pass = [&](unsigned T) {
    Arrays &D = Data[T];
    switch (K) {
    case BandwidthKernel::Triad:
      return triadKernel(I, D.A.data(), D.B.data(), D.C.data(), Elems, Repeat);
    case BandwidthKernel::Daxpy:
      return daxpyKernel(I, D.A.data(), D.B.data(), Elems, Repeat);
    case BandwidthKernel::CopyNT:
      return copyNTKernel(I, D.A.data(), D.B.data(), Elems, Repeat);
    case BandwidthKernel::Memcpy:
      return memcpyKernel(D.A.data(), D.B.data(), Elems, Repeat);
    case BandwidthKernel::TriadNT:
      return triadNTKernel(I, D.A.data(), D.B.data(), D.C.data(), Elems,
                           Repeat);
    case BandwidthKernel::Read:
      break;
    }
    double S = 0;
    double B = readKernel(I, D.B.data(), Elems, Repeat, &S);
    Sink = Sink + S;
    return B;
  };
  // Passes per measurement: enough for TargetSeconds at the rate of a warm
  // first pass.
  auto Start = Clock::now();
  Pass(0);
  Pass(0);
  double One =
      std::chrono::duration<double>(Clock::now() - Start).count() / 2;
  uint64_t Passes =
      SinglePasses ? 1 : std::max<uint64_t>(1, uint64_t(targetSeconds() / One));
  Stat R;
  for (unsigned Rep = 0; Rep < Runs; ++Rep)
    R.Runs.push_back(together(N, [&](unsigned T) {
      double B = 0;
      for (uint64_t P = 0; P < Passes; ++P)
        B += Pass(T);
      return B;
    }));
  R.finish();
  return R;
}

/// Each memory kernel's best single pass of 20 over \p Bytes per thread
/// (at least 4x the last-level cache in all), as STREAM times its kernels.
std::map<BandwidthKernel, double> memoryRates(const ISA &I, size_t Bytes,
                                              unsigned N) {
  std::map<BandwidthKernel, double> Rate;
  for (BandwidthKernel K :
       {BandwidthKernel::Read, BandwidthKernel::Triad, BandwidthKernel::Daxpy,
        BandwidthKernel::CopyNT, BandwidthKernel::TriadNT, BandwidthKernel::Memcpy})
    Rate[K] = measureBandwidth(I, K, Bytes, N, true, 20).best();
  return Rate;
}


void setQuickPace(bool Quick) { QuickPace = Quick; }
double targetSeconds() { return QuickPace ? 0.02 : 0.1; }
unsigned repeats() { return QuickPace ? 3 : 7; }

} // namespace probe
} // namespace roofline
