//===- CacheTraffic.cpp - Per-kernel traffic from the cache model ---------===//
//
// Threads: every level but the last is private to a thread, the last level
// is shared (one lock, taken only for what misses the private levels).
// With a single level, that level is the shared one.
//
//===----------------------------------------------------------------------===//
#include "CacheTraffic.h"

#include "roofline/Runtime/ProfileKeys.h"

#include <algorithm>
#include <atomic>
#include <cinttypes>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <mutex>
#include <pthread.h>

// Read by the traced copies before each access (the inline sample test,
// on 64-byte lines): line number (address >> 6) is simulated when bit
// (line % 64) of __roofline_cache_sets is set; bit r of
// __roofline_cache_sets_or_next is set when line r or r + 1 is. With any
// other line size no set is sampled (both all ones). Instrumented code
// reads __roofline_cache_on at entry to choose the traced copy.
extern "C" {
int __roofline_cache_on = 0;
uint64_t __roofline_cache_sets = ~uint64_t(0);
uint64_t __roofline_cache_sets_or_next = ~uint64_t(0);
}

namespace roofline {
namespace rt {

namespace {

/// One thread's events: per registered descriptor (by Id), one row of
/// levels per part and per loop nest.
constexpr size_t MaxKernels = 16384; // descriptors with ids above: not counted

struct ThreadEvents {
  // Fixed arrays: the writer reads them while the thread may still run.
  std::atomic<LevelEvents *> ByKernel[MaxKernels] = {};
  uint32_t RowsOf[MaxKernels] = {};
};

struct ModelState {
  std::vector<CacheGeometry> Levels;
  uint64_t Mask = ~uint64_t(0);
  unsigned Shift = 6;
  size_t Private = 0; ///< levels per thread; the rest are shared
  std::unique_ptr<CacheHierarchy> Shared;
  std::mutex ThreadsLock;
  std::vector<ThreadEvents *> Threads; ///< leaked: read at exit
};

ModelState &model() {
  static ModelState *S = new ModelState; // leaked: used from atexit
  return *S;
}

/// A call whose callee's traffic also counts for the caller (inclusive
/// traffic, as the caller's counts include the callee's work): the
/// caller's descriptor and site, and the frame of the call's entry.
struct Enclosing {
  const roofline_kernel *K;
  uint32_t Site;
  uintptr_t Frame;
};
constexpr uint32_t MaxEnclosing = 64; // deeper calls: counted for the inner 64

/// The rows a miss at one site adds to, found once: a miss at the same
/// site under the same enclosing calls adds to the same rows. Finding them
/// (the records to count once, each row's lookup) was half the model's
/// time on misses.
struct SiteRows {
  static constexpr unsigned MaxRows = 8; ///< more: not kept, found each time
  const roofline_kernel *K = nullptr;
  uint32_t Site = 0;
  uint64_t Context = ~uint64_t(0); ///< ThreadState::Context when found
  uint64_t Region = 0;             ///< RegionContext when found
  uint32_t NumRows = 0;
  LevelEvents *Rows[MaxRows];
};
constexpr unsigned NumSiteRows = 32; // direct-mapped by site

struct ThreadState {
  std::unique_ptr<CacheHierarchy> Private;
  Enclosing Callers[MaxEnclosing];
  uint32_t Depth = 0; ///< may exceed MaxEnclosing: those are not stored
  /// Changes whenever Callers or Depth do.
  uint64_t Context = 0;
  ThreadEvents *Events = nullptr;
  CacheLevel *First = nullptr; ///< the private first level, for the fast path
  unsigned Shift = 6;
  uint64_t Mask = ~uint64_t(0);
  SiteRows Found[NumSiteRows];
};

/// The enclosing calls of the outermost OpenMP parallel region in flight,
/// as its forking thread had them: the team's other threads run its body
/// with none of their own, and count for them too (inclusive traffic).
struct RegionCallers {
  /// The forking thread; Claiming while it copies its stack; null: none.
  std::atomic<const ThreadState *> Master{nullptr};
  Enclosing Callers[MaxEnclosing];
  uint32_t Depth = 0;
};
RegionCallers Region;
/// Changes whenever Region does (a fork or a join).
std::atomic<uint64_t> RegionContext{0};
const ThreadState *const Claiming = reinterpret_cast<const ThreadState *>(1);

// A plain pointer in static TLS: no wrapper call per access. (Each thread's
// state is leaked at its exit, a few of its caches' tags.)
__attribute__((tls_model("initial-exec"))) thread_local ThreadState *Current = nullptr;

ThreadState &newThread() {
  ModelState &S = model();
  auto *T = new ThreadState;
  T->Events = new ThreadEvents;
  std::vector<CacheGeometry> Mine(S.Levels.begin(), S.Levels.begin() + S.Private);
  if (!Mine.empty()) {
    T->Private = std::make_unique<CacheHierarchy>(Mine);
    T->First = &T->Private->first();
  }
  T->Shift = S.Shift;
  T->Mask = S.Mask;
  {
    std::lock_guard<std::mutex> G(S.ThreadsLock);
    S.Threads.push_back(T->Events);
  }
  Current = T;
  return *T;
}

/// The shared level's lock: a spin lock, as it is held for one lookup.
class SpinLock {
public:
  void lock() {
    while (Flag.test_and_set(std::memory_order_acquire))
#if defined(__x86_64__) || defined(__i386__)
      __builtin_ia32_pause();
#endif
  }
  void unlock() { Flag.clear(std::memory_order_release); }

private:
  std::atomic_flag Flag = ATOMIC_FLAG_INIT;
};
SpinLock SharedLock;

LevelEvents *rowOf(ThreadEvents &E, const roofline_kernel *K, uint32_t Row) {
  if (K->Id < 0)
    return nullptr;
  size_t Id = size_t(K->Id);
  if (Id >= MaxKernels)
    return nullptr;
  LevelEvents *Rows = E.ByKernel[Id].load(std::memory_order_relaxed);
  if (!Rows) {
    E.RowsOf[Id] = K->NumParts + K->NumLoops;
    Rows = new LevelEvents[size_t(E.RowsOf[Id]) * model().Levels.size()]();
    E.ByKernel[Id].store(Rows, std::memory_order_release);
  }
  if (Row >= E.RowsOf[Id])
    return nullptr;
  return &Rows[size_t(Row) * model().Levels.size()];
}

/// The rest of a line's access after its first level missed (evicting
/// \p Evicted), or with no private levels, all of it.
void missLine(ThreadState &T, uint64_t Line, bool Write, uint64_t Evicted,
              LevelEvents *Events) {
  ModelState &S = model();
  CacheSpill Out;
  if (T.Private) {
    T.Private->afterFirstMiss(Line, Evicted, Events, Out);
    if (!Out.Fetch && !Out.NumWritebacks)
      return;
  }
  LevelEvents *Below = Events + S.Private;
  CacheSpill Memory;
  std::lock_guard<SpinLock> G(SharedLock);
  for (unsigned I = 0; I < Out.NumWritebacks; ++I)
    S.Shared->writeBack(Out.Writebacks[I], Below, Memory);
  if (!T.Private)
    S.Shared->fetch(Line, Write, Below, Memory);
  else if (Out.Fetch)
    S.Shared->fetch(Out.FetchLine, false, Below, Memory);
}

/// One line through the hierarchy; its events into \p Events. Returns
/// false when it hit the first level.
bool accessLine(ThreadState &T, uint64_t Line, bool Write, LevelEvents *Events) {
  uint64_t Evicted = CacheLevel::None;
  if (T.Private && T.First->access(Line, Write, Evicted))
    return false;
  missLine(T, Line, Write, Evicted, Events);
  return true;
}

/// Adds \p Events to \p Row.
void addTo(LevelEvents *Row, const LevelEvents *Events) {
  size_t N = model().Levels.size();
  for (size_t L = 0; L < N; ++L) {
    Row[L].Fills += Events[L].Fills;
    Row[L].Writebacks += Events[L].Writebacks;
  }
}

/// Calls \p Add with \p Site's part row and loop nest row of \p K.
template <typename AddFn>
void rowsAt(ThreadState &T, const roofline_kernel *K, uint32_t Site,
            AddFn Add) {
  uint32_t Part = Site >> 16, Nest = Site & 0xffff;
  for (uint32_t Row : {Part, Nest ? K->NumParts + Nest - 1 : ~0u}) {
    if (Row == ~0u)
      continue;
    if (LevelEvents *R = rowOf(*T.Events, K, Row))
      Add(R);
  }
}

/// Calls \p Add with every row an access at \p Site of \p K counts in:
/// its own site's (none for a straight-line helper's access: K null) and
/// every call's it is inside, once per (record, part).
template <typename AddFn>
void rowsOf(ThreadState &T, const roofline_kernel *K, uint32_t Site,
            AddFn Add) {
  // Each (record, part) once: the access's own, its function's own record
  // (part 0) when it is in inlined code, as the function's counts include
  // it; then the enclosing calls'.
  std::pair<const roofline_kernel *, uint32_t> Counted[4 * MaxEnclosing + 2];
  uint32_t NumCounted = 0;
  auto One = [&](const roofline_kernel *R, uint32_t At) {
    for (uint32_t J = 0; J < NumCounted; ++J)
      if (Counted[J].first == R && Counted[J].second >> 16 == At >> 16)
        return;
    Counted[NumCounted++] = {R, At};
    rowsAt(T, R, At, Add);
  };
  auto Once = [&](const roofline_kernel *R, uint32_t At) {
    One(R, At);
    if (At >> 16)
      One(R, 0);
  };
  if (K)
    Once(K, Site);
  uint32_t Depth = T.Depth < MaxEnclosing ? T.Depth : MaxEnclosing;
  for (uint32_t I = 0; I < Depth; ++I)
    Once(T.Callers[I].K, T.Callers[I].Site);
  // A thread of a parallel region's team other than the one that forked it.
  const ThreadState *Master = Region.Master.load(std::memory_order_acquire);
  if (Master && Master != Claiming && Master != &T)
    for (uint32_t I = 0; I < Region.Depth; ++I)
      Once(Region.Callers[I].K, Region.Callers[I].Site);
}

/// Adds one access's events to every row it counts in (rowsOf), through
/// the rows found for its site before when the calls around it are the
/// same.
void count(ThreadState &T, const LevelEvents *Events, const roofline_kernel *K,
           uint32_t Site) {
  uint64_t InRegion = RegionContext.load(std::memory_order_acquire);
  SiteRows &S =
      T.Found[(uintptr_t(K) / alignof(roofline_kernel) ^ Site) % NumSiteRows];
  if (S.K == K && S.Site == Site && S.Context == T.Context &&
      S.Region == InRegion) {
    for (uint32_t I = 0; I < S.NumRows; ++I)
      addTo(S.Rows[I], Events);
    return;
  }
  S = SiteRows();
  uint32_t Found = 0;
  rowsOf(T, K, Site, [&](LevelEvents *Row) {
    addTo(Row, Events);
    if (Found < SiteRows::MaxRows)
      S.Rows[Found] = Row;
    ++Found;
  });
  if (Found > SiteRows::MaxRows)
    return; // not kept
  S.K = K;
  S.Site = Site;
  S.Context = T.Context;
  S.Region = InRegion;
  S.NumRows = Found;
}

void access(uint64_t Address, uint64_t Size, bool Write,
            const roofline_kernel *K, uint32_t Site) {
  ModelState &S = model();
  if (!Size || !S.Shared)
    return;
  ThreadState &T = Current ? *Current : newThread();
  uint64_t First = Address >> S.Shift, Last = (Address + Size - 1) >> S.Shift;
  LevelEvents Events[6] = {};
  bool Missed = false;
  for (uint64_t Line = First; Line <= Last; ++Line)
    if ((S.Mask >> (Line & 63)) & 1)
      Missed |= accessLine(T, Line, Write, Events);
  if (Missed)
    count(T, Events, K, Site);
}

std::string levelName(size_t L) { return "l" + std::to_string(L + 1); }

} // namespace

void startCacheModel() {
  const char *Env = std::getenv("ROOFLINE_CACHE");
  if (!Env || !*Env || !std::strcmp(Env, "0"))
    return;
  ModelState &S = model();
  std::string Error;
  if (!std::strcmp(Env, "1")) {
    topology::CacheTopology T = topology::readCacheTopology();
    // The probe's sizes where its sweep disagrees with the OS (a VM's CPUID
    // may give the package's L3): the report places on the same ones.
    bool Probed = topology::applyProbedSizes(T, topology::probedPlatformPath());
    bool Package = std::any_of(T.Levels.begin(), T.Levels.end(),
                               [](const topology::CacheInfo &C) { return C.WholePackage; });
    std::string Notes;
    S.Levels = modelGeometry(T.Levels, Notes, Error);
    if (T.Levels.empty())
      Error = "neither " + topology::sysfsCacheDir() +
              " nor CPUID describes this machine's caches; give them as "
              "size:ways:line,...";
    else if (Error.empty() && (Probed || T.From != topology::CacheSource::SysFS))
      // Said once, so that a run in a VM knows what it simulated.
      std::fprintf(stderr, "roofline: cache model: the caches of %s: %s%s\n",
                   T.Origin.c_str(), Notes.c_str(),
                   Package ? "the last level is the whole package's (run "
                             "roofline-probe to measure the share a core sees)"
                   : Probed ? "as measured"
                            : "as CPUID gives them");
  } else {
    parseCacheSpec(Env, S.Levels, Error);
  }
  unsigned Of = 0; // the default sample
  if (const char *Sample = std::getenv("ROOFLINE_CACHE_SAMPLE")) {
    // ROOFLINE_CACHE_SAMPLE=N: one set in N (1: every set).
    unsigned long N = std::strtoul(Sample, nullptr, 10);
    if (Error.empty() && (N == 0 || N > 64 || (N & (N - 1))))
      Error = std::string("ROOFLINE_CACHE_SAMPLE='") + Sample +
              "' is not 1, 2, 4, 8, 16, 32 or 64";
    else
      Of = unsigned(64 / N);
  }
  if (!Error.empty()) {
    std::fprintf(stderr, "roofline: ROOFLINE_CACHE='%s': %s; the cache model is off\n",
                 Env, Error.c_str());
    S.Levels.clear();
    return;
  }
  S.Mask = !canSampleSets(S.Levels) || S.Levels[0].LineBytes != 64 ? ~uint64_t(0)
           : Of                     ? sampleMaskOf(Of)
                                    : defaultSampleMask();
  S.Shift = 0;
  while ((1u << S.Shift) < S.Levels[0].LineBytes)
    ++S.Shift;
  S.Private = S.Levels.size() - 1;
  S.Shared = std::make_unique<CacheHierarchy>(
      std::vector<CacheGeometry>(S.Levels.end() - 1, S.Levels.end()));
  __roofline_cache_sets = S.Mask;
  __roofline_cache_sets_or_next = S.Mask | (S.Mask >> 1) | (S.Mask << 63);
  // fork() while another thread holds a lock (a lookup in the shared level,
  // a thread starting) would leave it held in the child, which then spins
  // on it for ever: the forking thread takes both first.
  pthread_atfork(
      [] {
        model().ThreadsLock.lock();
        SharedLock.lock();
      },
      [] {
        SharedLock.unlock();
        model().ThreadsLock.unlock();
      },
      [] {
        SharedLock.unlock();
        model().ThreadsLock.unlock();
      });
  __roofline_cache_on = 1;
}

bool cacheModelOn() { return model().Shared != nullptr; }

void addTraffic(const roofline_kernel *K, uint32_t Row, std::vector<double> &Fills,
                std::vector<double> &Writebacks) {
  ModelState &S = model();
  size_t N = S.Levels.size();
  Fills.resize(N, 0.0);
  Writebacks.resize(N, 0.0);
  if (K->Id < 0 || !N)
    return;
  double Scale = 64.0 / __builtin_popcountll(S.Mask);
  std::lock_guard<std::mutex> G(S.ThreadsLock);
  for (ThreadEvents *E : S.Threads) {
    size_t Id = size_t(K->Id);
    const LevelEvents *Rows =
        Id < MaxKernels ? E->ByKernel[Id].load(std::memory_order_acquire) : nullptr;
    if (!Rows || Row >= E->RowsOf[Id])
      continue;
    const LevelEvents *R = &Rows[size_t(Row) * N];
    for (size_t L = 0; L < N; ++L) {
      Fills[L] += R[L].Fills * Scale * S.Levels[L].LineBytes;
      Writebacks[L] += R[L].Writebacks * Scale * S.Levels[L].LineBytes;
    }
  }
}

std::string trafficJSON(const std::vector<double> &Fills,
                        const std::vector<double> &Writebacks) {
  ModelState &S = model();
  unsigned Sampled = unsigned(__builtin_popcountll(S.Mask));
  std::string Model =
      std::string("set-associative LRU, write-allocate, write-back; ") +
      (Sampled == 64
           ? "every set simulated"
           : std::to_string(Sampled) + " of every 64 sets simulated") +
      (S.Levels.size() > 1 ? "; last level shared by the threads" : "");
  char Buf[64];
  auto Number = [&Buf](const char *Format, double V) {
    std::snprintf(Buf, sizeof(Buf), Format, V);
    return std::string(Buf);
  };
  std::string J = field(key::Traffic) + "{" + field(key::Model) + "\"" + Model +
                  "\", " + field(key::SampledSets) +
                  Number("%.6g", Sampled / 64.0) + ", " + field(key::Levels) +
                  "[";
  for (size_t L = 0; L < S.Levels.size(); ++L) {
    const CacheGeometry &G = S.Levels[L];
    J += std::string(L ? ", " : "") + "{" + field(key::Level) + "\"" +
         levelName(L) + "\", " + field(key::SizeBytes) +
         std::to_string(G.SizeBytes) + ", " + field(key::Ways) +
         std::to_string(G.Ways) + ", " + field(key::LineBytes) +
         std::to_string(G.LineBytes) + ", " + field(key::FillBytes) +
         Number("%.0f", L < Fills.size() ? Fills[L] : 0.0) + ", " +
         field(key::WritebackBytes) +
         Number("%.0f", L < Writebacks.size() ? Writebacks[L] : 0.0) + "}";
  }
  return J + "]}";
}

void resetTraffic() {
  ModelState &S = model();
  std::lock_guard<std::mutex> G(S.ThreadsLock);
  for (ThreadEvents *E : S.Threads)
    for (size_t Id = 0; Id < MaxKernels; ++Id)
      if (LevelEvents *Rows = E->ByKernel[Id].load(std::memory_order_acquire))
        std::memset(static_cast<void *>(Rows), 0,
                    sizeof(LevelEvents) * E->RowsOf[Id] * S.Levels.size());
}

} // namespace rt
} // namespace roofline

// The traced copies' calls. Site: the part << 16 | the loop nest (0 none).
// preserve_most (the pass calls it so on x86-64 and AArch64): the loop that
// calls it need not save its registers around the call.
//
// Returns the 64-byte line the access lay in, << 1, with the line's dirty
// bit below, when the access has left that line the most recent of its set
// in the thread's private first level; ~0 otherwise. Until it calls out,
// the traced copy skips a later access of the same line that would change
// nothing there (a read, or a write to a line already dirty): the model
// counts only misses, and such an access is a hit that moves nothing.
#if defined(__x86_64__) || defined(__aarch64__)
#define ROOFLINE_PRESERVE_MOST __attribute__((preserve_most))
#else
#define ROOFLINE_PRESERVE_MOST
#endif
extern "C" ROOFLINE_PRESERVE_MOST uint64_t
__roofline_cache_access_line(const void *P, uint64_t SizeAndWrite,
                             const roofline_kernel *K, uint32_t Site) {
  using namespace roofline::rt;
  constexpr uint64_t NoLine = ~uint64_t(0);
  uint64_t Size = SizeAndWrite & ~(uint64_t(1) << 63);
  bool Write = SizeAndWrite >> 63;
  // Most sampled accesses lie in one line and hit the private first level:
  // settled here, without the rest of the model.
  if (ThreadState *T = Current; T && T->First && Size) {
    uint64_t Line = uint64_t(P) >> T->Shift;
    if (((uint64_t(P) + Size - 1) >> T->Shift) == Line) {
      uint64_t Evicted;
      if (!((T->Mask >> (Line & 63)) & 1))
        return NoLine;
      if (!T->First->access(Line, Write, Evicted)) {
        LevelEvents Events[6] = {};
        missLine(*T, Line, Write, Evicted, Events);
        count(*T, Events, K, Site);
      }
      return T->Shift == 6 ? Line << 1 | T->First->mostRecentDirty(Line)
                           : NoLine;
    }
  }
  access(uint64_t(P), Size, Write, K, Site);
  return NoLine;
}

// Around a call whose callee's work counts for the caller, in the caller's
// traced copy: the callee's traffic counts for the caller's site too.
// Returns the depth to restore. An exception that skipped a leave leaves
// entries of frames that are gone: the next enter from a frame at or above
// theirs drops them.
extern "C" __attribute__((noinline)) uint32_t
__roofline_cache_enter(const roofline_kernel *K, uint32_t Site) {
  using namespace roofline::rt;
  if (!model().Shared)
    return 0;
  ThreadState &T = Current ? *Current : newThread();
  uintptr_t Frame = uintptr_t(__builtin_frame_address(0));
  while (T.Depth && T.Depth <= MaxEnclosing && T.Callers[T.Depth - 1].Frame <= Frame)
    --T.Depth;
  uint32_t Before = T.Depth;
  if (T.Depth < MaxEnclosing)
    T.Callers[T.Depth] = {K, Site, Frame};
  ++T.Depth;
  ++T.Context;
  return Before;
}

extern "C" void __roofline_cache_leave(uint32_t Depth) {
  using namespace roofline::rt;
  if (ThreadState *T = Current) {
    T->Depth = Depth;
    ++T->Context;
  }
}

// Around an OpenMP fork (__kmpc_fork_call) in a traced copy: as enter and
// leave, and the outermost region in flight also lends the forking
// thread's enclosing calls to its team (the top bit of the result says so).
extern "C" __attribute__((noinline)) uint32_t
__roofline_cache_fork(const roofline_kernel *K, uint32_t Site) {
  using namespace roofline::rt;
  uint32_t Before = __roofline_cache_enter(K, Site);
  ThreadState *T = Current;
  const ThreadState *None = nullptr;
  if (!T || !Region.Master.compare_exchange_strong(None, Claiming,
                                                   std::memory_order_acquire))
    return Before;
  Region.Depth = T->Depth < MaxEnclosing ? T->Depth : MaxEnclosing;
  std::copy(T->Callers, T->Callers + Region.Depth, Region.Callers);
  Region.Master.store(T, std::memory_order_release);
  // After the store: a thread that sees the new context sees the region.
  RegionContext.fetch_add(1, std::memory_order_release);
  return Before | (1u << 31);
}

extern "C" void __roofline_cache_join(uint32_t Depth) {
  using namespace roofline::rt;
  if (Depth >> 31) {
    Region.Master.store(nullptr, std::memory_order_release);
    RegionContext.fetch_add(1, std::memory_order_release);
  }
  __roofline_cache_leave(Depth & ~(1u << 31));
}

extern "C" void __roofline_cache_range(const void *P, uint64_t Length, uint32_t Write,
                                       const roofline_kernel *K, uint32_t Site) {
  roofline::rt::access(uint64_t(P), Length, Write != 0, K, Site);
}
