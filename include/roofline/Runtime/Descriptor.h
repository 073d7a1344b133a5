/*===- Descriptor.h - What instrumented code tells the runtime ---*- C -*-===*\
|*                                                                            *|
|* The one definition of the records the instrumentation pass emits and the  *|
|* runtime reads, so the two cannot drift. The pass builds these structs as  *|
|* IR constants field by field in this order; bump the version on change.    *|
|*                                                                            *|
\*===----------------------------------------------------------------------===*/
#ifndef ROOFLINE_RUNTIME_DESCRIPTOR_H
#define ROOFLINE_RUNTIME_DESCRIPTOR_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define ROOFLINE_DESCRIPTOR_VERSION 1

/* Counter `Counter` adds `PerUnit` to cost slot `Slot` (the numbering of
   roofline/Analysis/CostKinds.h: FLOP classes per precision, then bytes per
   memory space and access) for every unit it counts. */
typedef struct roofline_cost {
  uint32_t Counter;
  uint32_t Slot;
  uint64_t PerUnit;
} roofline_cost;

/* One instrumented function. Counters count block executions (or bytes for
   transfers of run-time length); the runtime turns them into FLOPs and
   bytes with Costs. */
typedef struct roofline_kernel {
  uint32_t Version;
  uint32_t NumCounters;
  uint32_t NumCosts;
  uint32_t NumLoops;
  const char *Name;          /* mangled */
  const char *File;
  uint32_t Line;
  int32_t Id;                /* -1 until the runtime registers it */
  const roofline_cost *Costs;
  const uint32_t *CounterLoop; /* per counter: 0 outside loops, k = nest k */
  const uint32_t *LoopLines;   /* per top-level loop nest: its line */
  const char *StaticFlops;     /* the static formulas, for the report */
  const char *StaticLoad;
  const char *StaticStore;
  uint32_t StaticExact;
  uint32_t NumSlots;           /* the slot count the pass was built with */
} roofline_kernel;

/* Called from each instrumented module's constructor. */
void __roofline_register(roofline_kernel *K);
/* Called once per call, at each return: the call's counters and its start
   time in cycle-counter ticks (llvm.readcyclecounter). */
void __roofline_flush(roofline_kernel *K, const uint64_t *Counters,
                      uint64_t StartTicks);

#ifdef __cplusplus
}
#endif

#endif
