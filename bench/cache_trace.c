// Where the cache model and cachegrind part (bench/cache_polybench.py
// --explain): reads a `valgrind --tool=lackey --trace-mem=yes` trace of
// bench/cache_polybench.c on stdin and replays it through four two-level
// LRU hierarchies at once, each one step from cachegrind towards the model,
// counting the first- and last-level fills of the instructions of one
// function:
//
//   1 cachegrind's cg_sim.c: I1 and D1 feed one LL, which so holds
//     instruction lines too; an access over two lines is one access (one
//     miss if either line misses), and LL then sees both lines;
//   2 as 1, but instruction fetches never reach LL;
//   3 every data access, line by line, as the model takes them;
//   4 as 3, but only the accesses inside the driver's arena: those of the
//     program's loads and stores. Spills and reloads of registers, the
//     constant pool, return addresses are not there (the model traces the
//     IR, before registers are allocated): 4 is what the model sees.
//
// Fills are misses x 64 for 1 and 2 (cachegrind's D1mr + D1mw), lines filled
// for 3 and 4 (the model's fill_bytes).
//
// And the last level's write-backs, three ways:
//   callgrind --simulate-wb=yes: D1 write-through, LL write-back; LL sees
//     D1's misses and every write (a write that hits D1 is passed on, and
//     refills LL where LL lost the line); a miss that evicts a dirty line
//     is counted (ILdmr + DLdmr + DLdmw), the evictions of the passed-on
//     writes are not;
//   the same, every dirty line LL evicts counted;
//   the model's: both levels write-back; a dirty line evicted from L1 is
//     marked dirty in LL where LL holds it, else it goes on to memory
//     (a last-level write-back too); over every data access, then over the
//     arena's only (what the model sees). The arena begins at the first
// address the function `flush` reads (its buffer is the arena's first array)
// and is 256 MiB long.
//
// USAGE: cache_trace FN_LO FN_HI FLUSH_LO FLUSH_HI L1_BYTES L1_WAYS LL_BYTES LL_WAYS
//        (addresses in hex, of a -no-pie build: `nm -S`); 64-byte lines,
//        I1 32 KiB 8-way.
#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct {
  uint64_t Sets, Ways;
  uint64_t *Tags; // per set, most recent first; 0 empty, else (line + 1) << 1 | dirty
} Cache;

static const uint64_t None = ~(uint64_t)0;

static void init(Cache *C, uint64_t Bytes, uint64_t Ways) {
  C->Ways = Ways;
  C->Sets = Bytes / 64 / Ways;
  C->Tags = calloc(C->Sets * Ways, sizeof(uint64_t));
}

// One line, LRU, write-allocate (a write makes it dirty); 1 on a miss, with
// *Evicted the dirty line the fill evicted, or None.
static int touch(Cache *C, uint64_t Line, int Write, uint64_t *Evicted) {
  uint64_t *S = &C->Tags[(Line % C->Sets) * C->Ways], Want = Line + 1, Prev = S[0];
  *Evicted = None;
  if ((Prev >> 1) == Want) {
    S[0] |= (uint64_t)Write;
    return 0;
  }
  for (uint64_t J = 1; J < C->Ways; J++) {
    uint64_t Cur = S[J];
    S[J] = Prev;
    if ((Cur >> 1) == Want) {
      S[0] = Cur | (uint64_t)Write;
      return 0;
    }
    Prev = Cur;
  }
  S[0] = Want << 1 | (uint64_t)Write;
  if (Prev & 1)
    *Evicted = (Prev >> 1) - 1;
  return 1;
}

// A dirty line from above: marked dirty where present (recency unchanged).
static int mark(Cache *C, uint64_t Line) {
  uint64_t *S = &C->Tags[(Line % C->Sets) * C->Ways];
  for (uint64_t J = 0; J < C->Ways; J++)
    if ((S[J] >> 1) == Line + 1) {
      S[J] |= 1;
      return 1;
    }
  return 0;
}

// cg_sim.c's cachesim_ref_is_miss: both lines touched, one miss; *Dirty
// the number of dirty lines evicted.
static int access2(Cache *C, uint64_t A, uint64_t Size, int Write, int *Dirty) {
  uint64_t B1 = A >> 6, B2 = (A + Size - 1) >> 6, E;
  int Miss = touch(C, B1, Write, &E);
  *Dirty = E != None;
  if (B2 != B1) {
    Miss |= touch(C, B2, Write, &E);
    *Dirty += E != None;
  }
  return Miss;
}
static int access1(Cache *C, uint64_t A, uint64_t Size) {
  int Dirty;
  return access2(C, A, Size, 0, &Dirty);
}

typedef struct {
  Cache I1, D1, LL;
  uint64_t L1, Last; // the function's misses (1, 2) or lines filled (3, 4)
  uint64_t Wb, WbAll; // its last-level write-backs (counted, all)
} Hierarchy;

// The model's line: L1 then LL, both write-back.
static void modelLine(Hierarchy *H, uint64_t L, int Write, int Mine) {
  uint64_t E, E2;
  if (!touch(&H->D1, L, Write, &E))
    return;
  if (E != None && !mark(&H->LL, E))
    H->Wb += Mine; // not in LL: on to memory
  if (touch(&H->LL, L, 0, &E2) && Mine)
    H->Last++;
  H->L1 += Mine;
  if (E2 != None)
    H->Wb += Mine;
}

int main(int argc, char **argv) {
  if (argc != 9) {
    fprintf(stderr, "usage: cache_trace FN_LO FN_HI FLUSH_LO FLUSH_HI L1_BYTES L1_WAYS "
                    "LL_BYTES LL_WAYS < lackey-trace\n");
    return 2;
  }
  uint64_t FnLo = strtoull(argv[1], 0, 16), FnHi = strtoull(argv[2], 0, 16);
  uint64_t FlushLo = strtoull(argv[3], 0, 16), FlushHi = strtoull(argv[4], 0, 16);
  Hierarchy H[6];
  memset(H, 0, sizeof(H));
  for (int V = 0; V < 6; V++) {
    init(&H[V].I1, 32768, 8);
    init(&H[V].D1, strtoull(argv[5], 0, 10), strtoull(argv[6], 0, 10));
    init(&H[V].LL, strtoull(argv[7], 0, 10), strtoull(argv[8], 0, 10));
  }
  uint64_t Arena = 0, IP = 0, Accesses = 0, Outside = 0, Straddling = 0;
  char Buf[256];
  while (fgets(Buf, sizeof Buf, stdin)) {
    char Kind;
    uint64_t A, Size;
    if (Buf[0] == 'I') {
      if (sscanf(Buf + 1, " %" SCNx64 ",%" SCNu64, &A, &Size) != 2)
        continue;
      IP = A;
      if (access1(&H[0].I1, A, Size))
        access1(&H[0].LL, A, Size);
      if (access1(&H[4].I1, A, Size)) {
        int Dirty;
        access2(&H[4].LL, A, Size, 0, &Dirty);
        H[4].Wb += Dirty && IP >= FnLo && IP < FnHi;
        H[4].WbAll += (uint64_t)Dirty * (IP >= FnLo && IP < FnHi);
      }
      continue;
    }
    if (Buf[0] != ' ' || sscanf(Buf, " %c %" SCNx64 ",%" SCNu64, &Kind, &A, &Size) != 3 ||
        (Kind != 'L' && Kind != 'S' && Kind != 'M') || !Size)
      continue;
    if (!Arena && IP >= FlushLo && IP < FlushHi)
      Arena = A;
    int Mine = IP >= FnLo && IP < FnHi;
    int InArena = Arena && A >= Arena && A - Arena < ((uint64_t)256 << 20);
    if (Mine) {
      Accesses++;
      Outside += !InArena;
      Straddling += (A >> 6) != ((A + Size - 1) >> 6);
    }
    for (int V = 0; V < 2; V++)
      if (access1(&H[V].D1, A, Size)) {
        H[V].L1 += Mine;
        if (access1(&H[V].LL, A, Size))
          H[V].Last += Mine;
      }
    int Write = Kind != 'L';
    for (int V = 2; V < 4; V++) {
      if (V == 3 && !InArena)
        continue;
      for (uint64_t L = A >> 6; L <= (A + Size - 1) >> 6; L++)
        modelLine(&H[V], L, Write, Mine);
    }
    // callgrind's: D1 write-through, so D1 holds no dirty lines.
    int Dirty;
    if (access1(&H[4].D1, A, Size)) {
      access2(&H[4].LL, A, Size, Write, &Dirty);
      H[4].Wb += Dirty && Mine;
      H[4].WbAll += (uint64_t)Dirty * Mine;
    } else if (Write) {
      access2(&H[4].LL, A, Size, Write, &Dirty);
      H[4].WbAll += (uint64_t)Dirty * Mine;
    }
  }
  printf("data accesses %" PRIu64 ", outside the arena %" PRIu64 " (%.2f%%), over two lines %" PRIu64
         "\n",
         Accesses, Outside, Accesses ? 100.0 * Outside / Accesses : 0.0, Straddling);
  static const char *Name[4] = {"1 cachegrind", "2 no instruction lines in LL",
                                "3 every data access, by line", "4 the arena's only (the model)"};
  for (int V = 0; V < 4; V++)
    printf("%-32s L1 fill %14" PRIu64 "  LL fill %14" PRIu64 "\n", Name[V], H[V].L1 * 64,
           H[V].Last * 64);
  printf("last-level write-backs:\n");
  printf("%-32s %14" PRIu64 "\n", "callgrind --simulate-wb=yes", H[4].Wb * 64);
  printf("%-32s %14" PRIu64 "\n", "the same, every eviction counted", H[4].WbAll * 64);
  printf("%-32s %14" PRIu64 "\n", "write-back L1, every data access", H[2].Wb * 64);
  printf("%-32s %14" PRIu64 "\n", "the same, the arena's (the model)", H[3].Wb * 64);
  return 0;
}
