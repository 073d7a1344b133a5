//===- Counters.cpp - The runtime's counts, per thread --------------------===//
#include "Counters.h"
#include "ProfileWriter.h"

#include "roofline/Analysis/CostKinds.h"

#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <mutex>
#include <pthread.h>

namespace roofline {
namespace rt {

namespace {

struct KernelCounts {
  explicit KernelCounts(uint32_t N)
      : Counters(new std::atomic<uint64_t>[N]()), NumCounters(N) {}
  // Written by the owning thread only (load + store, relaxed); read by the
  // thread that writes a profile.
  std::atomic<uint64_t> Calls{0}, Ticks{0};
  std::unique_ptr<std::atomic<uint64_t>[]> Counters;
  uint32_t NumCounters;
};

struct ThreadCounts {
  std::mutex M; // held to grow Kernels, and by readers
  std::vector<std::unique_ptr<KernelCounts>> Kernels;
};

using Clock = std::chrono::steady_clock;

struct Registry {
  std::mutex M;
  std::vector<roofline_kernel *> Kernels;
  std::vector<ThreadCounts *> Threads; // never freed: a thread's counts
                                       // outlive it, until the profile
  uint64_t StartTicks = __builtin_readcyclecounter();
  Clock::time_point Start = Clock::now();
};

// Leaked on purpose: instrumented code may run from other static
// destructors and atexit handlers after ours.
Registry &registry() {
  static Registry *R = new Registry;
  return *R;
}

thread_local ThreadCounts *Mine = nullptr;

ThreadCounts &myCounts() {
  if (!Mine) {
    Mine = new ThreadCounts;
    Registry &R = registry();
    std::lock_guard<std::mutex> L(R.M);
    R.Threads.push_back(Mine);
  }
  return *Mine;
}

void bump(std::atomic<uint64_t> &A, uint64_t N) {
  A.store(A.load(std::memory_order_relaxed) + N, std::memory_order_relaxed);
}

void atForkPrepare() { registry().M.lock(); }
void atForkParent() { registry().M.unlock(); }
void atForkChild() {
  // The forking thread is the child's only thread and holds the lock from
  // atForkPrepare. The child starts its own profile (its pid, at its exit).
  resetCounts();
  registry().M.unlock();
}

void writeAtExit() { writeProfile(nullptr); }

} // namespace

std::vector<KernelTotals> snapshot() {
  Registry &R = registry();
  std::lock_guard<std::mutex> L(R.M);
  std::vector<KernelTotals> Totals(R.Kernels.size());
  for (size_t I = 0; I < R.Kernels.size(); ++I) {
    Totals[I].Kernel = R.Kernels[I];
    Totals[I].Counters.assign(R.Kernels[I]->NumCounters, 0);
  }
  for (ThreadCounts *T : R.Threads) {
    std::lock_guard<std::mutex> TL(T->M);
    for (size_t I = 0; I < T->Kernels.size() && I < Totals.size(); ++I) {
      KernelCounts *K = T->Kernels[I].get();
      if (!K)
        continue;
      Totals[I].Calls += K->Calls.load(std::memory_order_relaxed);
      Totals[I].Ticks += K->Ticks.load(std::memory_order_relaxed);
      for (uint32_t C = 0; C < K->NumCounters; ++C)
        Totals[I].Counters[C] += K->Counters[C].load(std::memory_order_relaxed);
    }
  }
  return Totals;
}

void resetCounts() {
  Registry &R = registry();
  for (ThreadCounts *T : R.Threads)
    for (auto &K : T->Kernels)
      if (K) {
        K->Calls.store(0, std::memory_order_relaxed);
        K->Ticks.store(0, std::memory_order_relaxed);
        for (uint32_t C = 0; C < K->NumCounters; ++C)
          K->Counters[C].store(0, std::memory_order_relaxed);
      }
  R.StartTicks = __builtin_readcyclecounter();
  R.Start = Clock::now();
}

double ticksPerSecond() {
  // Calibrate over at least 10 ms of the process's life: a short program
  // waits out the rest once, at exit.
  Registry &R = registry();
  Clock::time_point Now = Clock::now();
  while (Now - R.Start < std::chrono::milliseconds(10))
    Now = Clock::now();
  uint64_t Ticks = __builtin_readcyclecounter() - R.StartTicks;
  double Seconds = std::chrono::duration<double>(Now - R.Start).count();
  return Ticks / Seconds;
}

} // namespace rt
} // namespace roofline

using namespace roofline::rt;

extern "C" void __roofline_register(roofline_kernel *K) {
  Registry &R = registry();
  static std::once_flag Once;
  std::call_once(Once, [] {
    std::atexit(writeAtExit);
    pthread_atfork(atForkPrepare, atForkParent, atForkChild);
  });
  if (K->Version != ROOFLINE_DESCRIPTOR_VERSION ||
      K->NumSlots != roofline::NumSlots) {
    std::fprintf(stderr,
                 "roofline: %s was instrumented by another version of "
                 "Roofline; its counts are not recorded\n",
                 K->Name);
    return;
  }
  std::lock_guard<std::mutex> L(R.M);
  if (K->Id >= 0)
    return;
  K->Id = int32_t(R.Kernels.size());
  R.Kernels.push_back(K);
}

extern "C" void __roofline_flush(roofline_kernel *K, const uint64_t *Counters,
                                 uint64_t StartTicks) {
  uint64_t Elapsed = __builtin_readcyclecounter() - StartTicks;
  if (K->Id < 0)
    return; // not registered (a version mismatch, already reported)
  ThreadCounts &T = myCounts();
  size_t Id = size_t(K->Id);
  if (Id >= T.Kernels.size() || !T.Kernels[Id]) {
    std::lock_guard<std::mutex> L(T.M);
    if (Id >= T.Kernels.size())
      T.Kernels.resize(Id + 1);
    T.Kernels[Id] = std::make_unique<KernelCounts>(K->NumCounters);
  }
  KernelCounts &C = *T.Kernels[Id];
  bump(C.Calls, 1);
  bump(C.Ticks, Elapsed);
  for (uint32_t I = 0; I < C.NumCounters; ++I)
    if (Counters[I])
      bump(C.Counters[I], Counters[I]);
}

extern "C" void roofline_reset(void) {
  std::lock_guard<std::mutex> L(registry().M);
  resetCounts();
}
