/*===- Descriptor.h - What instrumented code tells the runtime ---*- C -*-===*\
|*                                                                            *|
|* The records the instrumentation pass emits and the runtime reads, made   *|
|* from the one field list in DescriptorFields.inc (which the pass also     *|
|* builds its IR types and initializers from), so the two cannot drift.     *|
|*                                                                            *|
\*===----------------------------------------------------------------------===*/
#ifndef ROOFLINE_RUNTIME_DESCRIPTOR_H
#define ROOFLINE_RUNTIME_DESCRIPTOR_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define ROOFLINE_DESCRIPTOR_VERSION                                            \
  11 /* 11: __roofline_timed_return takes the weight */

/* The C types of the field kinds of DescriptorFields.inc. */
#define ROOFLINE_FIELD_TYPE_U32 uint32_t
#define ROOFLINE_FIELD_TYPE_I32 int32_t
#define ROOFLINE_FIELD_TYPE_U64 uint64_t
#define ROOFLINE_FIELD_TYPE_STRING const char *
#define ROOFLINE_FIELD_TYPE_COSTS const struct roofline_cost *
#define ROOFLINE_FIELD_TYPE_PARTS const struct roofline_part *
#define ROOFLINE_FIELD_TYPE_LOOPS const struct roofline_loop *

/* Counter `Counter` adds `PerUnit` to cost slot `Slot` for every unit it
   counts. */
typedef struct roofline_cost {
#define ROOFLINE_COST_FIELD(Kind, Name) ROOFLINE_FIELD_TYPE_##Kind Name;
#include "roofline/Runtime/DescriptorFields.inc"
} roofline_cost;

/* A source function whose code an instrumented function holds: itself, or
   a function inlined into it (counted as its own kernel record). */
#define ROOFLINE_PART_SELF 0    /* the function itself, a kernel */
#define ROOFLINE_PART_INLINED 1 /* an inlined function's bodies */
#define ROOFLINE_PART_HIDDEN 2  /* the function itself, not a kernel: not
                                   written (it holds inlined kernels) */
typedef struct roofline_part {
#define ROOFLINE_PART_FIELD(Kind, Name) ROOFLINE_FIELD_TYPE_##Kind Name;
#include "roofline/Runtime/DescriptorFields.inc"
} roofline_part;

/* A top-level loop nest of a part, with the counters that measure it.
   Entered may also be ROOFLINE_LOOP_ONCE_PER_CALL: the function's own loop,
   entered once per call (its calls count it). Ticks may also be
   ROOFLINE_LOOP_CALL_TICKS: the function's one source loop, with nothing
   around it but its setup, timed by the calls' own ticks. */
#define ROOFLINE_LOOP_ONCE_PER_CALL (-3)
#define ROOFLINE_LOOP_CALL_TICKS (-3)
typedef struct roofline_loop {
#define ROOFLINE_LOOP_FIELD(Kind, Name) ROOFLINE_FIELD_TYPE_##Kind Name;
#include "roofline/Runtime/DescriptorFields.inc"
} roofline_loop;

/* One instrumented function. Counters count block executions (or bytes for
   transfers of run-time length); the runtime turns them into FLOPs and
   bytes with Costs. */
typedef struct roofline_kernel {
#define ROOFLINE_KERNEL_FIELD(Kind, Name) ROOFLINE_FIELD_TYPE_##Kind Name;
#include "roofline/Runtime/DescriptorFields.inc"
} roofline_kernel;

/* Each instrumented function keeps, per thread, one thread_local block of
   64-bit counts that its code updates at every return without calling the
   runtime: */
#define ROOFLINE_BLOCK_CALLS 0    /* completed calls */
#define ROOFLINE_BLOCK_TICKS 1    /* cycle-counter ticks of the timed calls */
#define ROOFLINE_BLOCK_TIMED 2    /* the calls the timed ones stand for */
#define ROOFLINE_BLOCK_COUNTERS 3 /* NumCounters counters follow */
/* Which calls are timed, by the thread's calls so far: all of the first
   1024, then one in 64, and past 65536 one in 1024. Each timed call's ticks
   and its place in TIMED are weighted by its stride (1, 64 or 1024), so
   that ticks * calls / timed stays an unbiased estimate whatever share of
   the calls came early. Loop nests sample their entries the same way. */
#define ROOFLINE_TIME_ALL_CALLS 1024
#define ROOFLINE_TIME_SAMPLE_MASK 63
#define ROOFLINE_TIME_SPARSE_CALLS 65536
#define ROOFLINE_TIME_SPARSE_MASK 1023

/* CUDA (nvptx64) and HIP (amdgcn) kernels count per thread in registers; at
   exit each warp (wavefront) adds its sum with one atomic per cost slot
   into a device global named
   ROOFLINE_DEVICE_COUNTS_PREFIX + the kernel's mangled name, of
   ROOFLINE_DEVICE_SLOTS + NumRunSlots 64-bit words: */
#define ROOFLINE_DEVICE_THREADS 0 /* threads that ran the kernel to its end */
#define ROOFLINE_DEVICE_SLOTS 1   /* the cost slots follow */
#define ROOFLINE_DEVICE_COUNTS_PREFIX "__roofline_counts_"
/* Beside it, a constant string ROOFLINE_DEVICE_META_PREFIX + name describes
   the kernel to the host, one "key\tvalue" line each, the keys of
   DescriptorFields.inc's ROOFLINE_META_KEY list (params: name:type per
   parameter, tab-separated; type i8..i64, f16, f32, f64, ptr or other);
   one "pointer\tindex\tread\twritten" line per pointer parameter with
   traffic (per-thread byte formulas). ROOFLINE_META_KEY_Flops is "flops". */
#define ROOFLINE_DEVICE_META_PREFIX "__roofline_meta_"
/* HIP code objects also have ROOFLINE_DEVICE_METAREF_PREFIX + name, two
   64-bit words: the meta string's device address and its bytes (HIP's
   runtime gives a variable's address only for a size known beforehand). */
#define ROOFLINE_DEVICE_METAREF_PREFIX "__roofline_metaref_"
#define ROOFLINE_META_KEY(Name, Key) static const char *const ROOFLINE_META_KEY_##Name = Key;
#include "roofline/Runtime/DescriptorFields.inc"
#define ROOFLINE_DEVICE_META_VERSION 1

/* ROOFLINE_TRACE=1: the runtime sets this, and every instrumented function
   then passes its arguments at entry (pointers and integers as 64-bit
   integers, floating point as the bits of a double) to __roofline_trace.
   Timed calls pass them too; __roofline_trace ignores them unless set. */
extern int __roofline_tracing;
void __roofline_trace(const roofline_kernel *K, const uint64_t *Args);

/* Called from each instrumented module's constructor. */
void __roofline_register(roofline_kernel *K);
/* Called by instrumented code the first time a thread completes a call of
   K, with that thread's block, so the runtime can read it (and fold it into
   the totals when the thread exits). */
void __roofline_register_thread(roofline_kernel *K, uint64_t *Block);
/* At the return of a timed call, after the call and its counters were
   added to Block: its Ticks times Weight (the calls it stands for, above)
   and Weight added too, and the block registered on the thread's first
   call. */
void __roofline_timed_return(roofline_kernel *K, uint64_t *Block,
                             uint64_t Ticks, uint64_t Weight);

/* Around an OpenMP parallel region forked with outlined body K: its work
   counts for the caller, summed over all threads. Begin fills Totals (one
   per counter of K) with K's counters summed over every thread and returns
   1, or returns 0 when another region is in flight (a nested region runs on
   the forking thread: its own block's growth is the region's work). End,
   when begin returned 1, turns Totals into each counter's growth since. */
uint32_t __roofline_region_begin(const roofline_kernel *K, uint64_t *Totals);
void __roofline_region_end(const roofline_kernel *K, uint64_t *Totals,
                           uint32_t Whole);

#ifdef __cplusplus
}
#endif

#endif
