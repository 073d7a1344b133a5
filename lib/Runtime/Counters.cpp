//===- Counters.cpp - The runtime's counts, per thread --------------------===//
#include "Counters.h"
#include "CacheTraffic.h"
#include "DeviceLaunches.h"
#include "ProfileWriter.h"
#include "Trace.h"

#include "roofline/Runtime/CostKinds.h"

#include <atomic>
#include <chrono>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <mutex>
#include <pthread.h>
#include <thread>
#include <algorithm>

namespace roofline {
namespace rt {

namespace {

using Clock = std::chrono::steady_clock;

/// One thread's block of one kernel (see Descriptor.h for its layout).
struct LiveBlock {
  const roofline_kernel *Kernel;
  uint64_t *Block;
  std::thread::id Owner;
};

struct Registry {
  std::mutex M;
  std::vector<roofline_kernel *> Kernels;
  std::vector<LiveBlock> Live;         // blocks of running threads
  std::vector<KernelTotals> Retired;   // folded in from exited threads
  uint64_t StartTicks = __builtin_readcyclecounter();
  Clock::time_point Start = Clock::now();
  pthread_key_t ExitKey;
};

/// Adds one thread's block of a kernel into \p T. Another thread may be
/// adding to its block right now: its in-flight call is simply not seen.
void addBlock(KernelTotals &T, const LiveBlock &B) {
  auto Read = [&](size_t I) {
    return __atomic_load_n(&B.Block[I], __ATOMIC_RELAXED);
  };
  uint64_t Calls = Read(ROOFLINE_BLOCK_CALLS);
  T.Calls += Calls;
  T.Threads += Calls > 0;
  T.Ticks += Read(ROOFLINE_BLOCK_TICKS);
  T.Timed += Read(ROOFLINE_BLOCK_TIMED);
  for (uint32_t C = 0; C < B.Kernel->NumCounters; ++C) {
    uint64_t V = Read(ROOFLINE_BLOCK_COUNTERS + C);
    T.Counters[C] = T.ByMaximum[C] ? std::max(T.Counters[C], V) : T.Counters[C] + V;
  }
}

// Leaked on purpose: instrumented code may run from other static
// destructors and atexit handlers after ours.
Registry &registry() {
  static Registry *R = [] {
    auto *R = new Registry;
    pthread_key_create(&R->ExitKey, [](void *) {
      // A thread is exiting: its thread_local blocks are still readable
      // here; fold them into the retired totals.
      Registry &Reg = registry();
      std::lock_guard<std::mutex> L(Reg.M);
      std::thread::id Me = std::this_thread::get_id();
      for (size_t I = 0; I < Reg.Live.size();) {
        LiveBlock &B = Reg.Live[I];
        if (B.Owner != Me) {
          ++I;
          continue;
        }
        addBlock(Reg.Retired[size_t(B.Kernel->Id)], B);
        Reg.Live[I] = Reg.Live.back();
        Reg.Live.pop_back();
      }
    });
    return R;
  }();
  return *R;
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

/// Opt-in (ROOFLINE_FLUSH_ON_SIGNAL=1): SIGTERM, SIGINT and SIGHUP write the
/// profile, then end the process as the signal would have. Writing JSON is
/// not async-signal-safe, so this is best effort and off by default.
void writeOnSignal(int Sig) {
  static std::atomic<bool> Once{false};
  if (!Once.exchange(true))
    writeProfile(nullptr);
  std::signal(Sig, SIG_DFL);
  std::raise(Sig);
}

} // namespace

void startRuntime() {
  registry();
  static std::once_flag Once;
  std::call_once(Once, [] {
    startTrace();
    startCacheModel();
    std::atexit(writeAtExit);
    pthread_atfork(atForkPrepare, atForkParent, atForkChild);
    const char *OnSignal = std::getenv("ROOFLINE_FLUSH_ON_SIGNAL");
    if (OnSignal && *OnSignal && *OnSignal != '0')
      for (int Sig : {SIGTERM, SIGINT, SIGHUP})
        std::signal(Sig, writeOnSignal);
  });
}

uint64_t flopsOf(const uint64_t *Slots, int Prec) {
  uint64_t F = 0;
  for (unsigned P = 0; P < NumPrecisions; ++P)
    for (unsigned C = 0; C < NumFlopClasses; ++C)
      if (Prec < 0 || unsigned(Prec) == P)
        F += Slots[flopSlot(Precision(P), FlopClass(C))] *
             flopsPerOperation(FlopClass(C));
  return F;
}

uint64_t specialOf(const uint64_t *Slots) {
  uint64_t F = 0;
  for (unsigned P = 0; P < NumPrecisions; ++P)
    F += Slots[flopSlot(Precision(P), FlopClass::Special)];
  return F;
}

uint64_t dramBytesOf(const uint64_t *Slots, Access A) {
  uint64_t B = 0;
  for (unsigned Sp = 0; Sp < NumMemSpaces; ++Sp)
    if (isDRAMSpace(MemSpace(Sp)))
      B += Slots[byteSlot(MemSpace(Sp), A)];
  return B;
}

std::vector<KernelTotals> snapshot() {
  Registry &R = registry();
  std::lock_guard<std::mutex> L(R.M);
  std::vector<KernelTotals> Totals = R.Retired;
  for (const LiveBlock &B : R.Live)
    addBlock(Totals[size_t(B.Kernel->Id)], B);
  return Totals;
}

void resetCounts() {
  Registry &R = registry();
  for (KernelTotals &T : R.Retired) {
    T.Calls = T.Ticks = T.Timed = T.Threads = 0;
    std::fill(T.Counters.begin(), T.Counters.end(), 0);
  }
  for (const LiveBlock &B : R.Live)
    std::fill(B.Block, B.Block + ROOFLINE_BLOCK_COUNTERS + B.Kernel->NumCounters,
              0);
  R.StartTicks = __builtin_readcyclecounter();
  R.Start = Clock::now();
  resetTraffic();
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
  startRuntime();
  if (K->Version != ROOFLINE_DESCRIPTOR_VERSION ||
      K->NumSlots != roofline::NumRunSlots) {
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
  KernelTotals T;
  T.Kernel = K;
  T.Counters.assign(K->NumCounters, 0);
  T.ByMaximum.assign(K->NumCounters, false);
  for (uint32_t N = 0; N < K->NumLoops; ++N)
    for (int32_t C : {K->Loops[N].FewestIterations, K->Loops[N].MostIterations})
      if (C >= 0 && uint32_t(C) < K->NumCounters)
        T.ByMaximum[C] = true;
  R.Retired.push_back(std::move(T));
}

extern "C" void __roofline_register_thread(roofline_kernel *K,
                                           uint64_t *Block) {
  if (K->Id < 0)
    return; // not registered (another version: already reported)
  Registry &R = registry();
  // Ask for a call at this thread's exit (any non-null value will do).
  pthread_setspecific(R.ExitKey, &R);
  std::lock_guard<std::mutex> L(R.M);
  // After a reset (or in a forked child) a block counts from zero again and
  // comes back here: it is already known.
  for (const LiveBlock &B : R.Live)
    if (B.Block == Block)
      return;
  R.Live.push_back({K, Block, std::this_thread::get_id()});
}

extern "C" void __roofline_timed_return(roofline_kernel *K, uint64_t *Block,
                                        uint64_t Ticks, uint64_t Weight) {
  Block[ROOFLINE_BLOCK_TICKS] += Ticks * Weight;
  Block[ROOFLINE_BLOCK_TIMED] += Weight;
  // The thread's first call has just added itself, and is always timed.
  if (Block[ROOFLINE_BLOCK_CALLS] == 1)
    __roofline_register_thread(K, Block);
}

namespace {

/// Parallel regions in flight, over all threads: only the outermost one
/// sums over the threads (the threads of a nested one are busy in it).
std::atomic<uint32_t> RegionsInFlight{0};

/// K's counters over every thread (the exited ones' included) into Out.
void sumCounters(const roofline_kernel *K, uint64_t *Out) {
  std::fill(Out, Out + K->NumCounters, 0);
  if (K->Id < 0)
    return;
  Registry &R = registry();
  std::lock_guard<std::mutex> L(R.M);
  const KernelTotals &T = R.Retired[size_t(K->Id)];
  for (uint32_t C = 0; C < K->NumCounters; ++C)
    Out[C] = T.Counters[C];
  for (const LiveBlock &B : R.Live)
    if (B.Kernel == K)
      for (uint32_t C = 0; C < K->NumCounters; ++C)
        Out[C] += __atomic_load_n(&B.Block[ROOFLINE_BLOCK_COUNTERS + C],
                                  __ATOMIC_RELAXED);
}

} // namespace

extern "C" uint32_t __roofline_region_begin(const roofline_kernel *K,
                                            uint64_t *Totals) {
  if (RegionsInFlight.fetch_add(1, std::memory_order_acq_rel) != 0)
    return 0;
  sumCounters(K, Totals);
  return 1;
}

extern "C" void __roofline_region_end(const roofline_kernel *K, uint64_t *Totals,
                                      uint32_t Whole) {
  if (Whole) {
    // The join has waited for the team: every thread's block is final.
    std::vector<uint64_t> Now(K->NumCounters);
    sumCounters(K, Now.data());
    for (uint32_t C = 0; C < K->NumCounters; ++C)
      Totals[C] = Now[C] - Totals[C];
  }
  RegionsInFlight.fetch_sub(1, std::memory_order_acq_rel);
}

extern "C" void roofline_reset(void) {
  {
    std::lock_guard<std::mutex> L(registry().M);
    resetCounts();
  }
  resetDeviceLaunches();
  resetTrace();
}
