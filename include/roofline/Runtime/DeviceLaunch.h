/*===- DeviceLaunch.h - What the CUDA shim tells the runtime -----*- C -*-===*\
|*                                                                            *|
|* libroofline_rt_cuda (linked against the program's own CUDA runtime) reads *|
|* an instrumented kernel's device counters after each launch and hands the  *|
|* launch to libroofline_rt, which has no CUDA dependency and writes it into *|
|* the profile with the host kernels.                                         *|
|*                                                                            *|
\*===----------------------------------------------------------------------===*/
#ifndef ROOFLINE_RUNTIME_DEVICELAUNCH_H
#define ROOFLINE_RUNTIME_DEVICELAUNCH_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* The profile's fixed columns of a launch row (docs/profile-schema.md), in
   order; the kernel's parameters follow. The runtime writes them and the
   report reads them by this one list. */
#define ROOFLINE_LAUNCH_COLUMNS                                               \
  {"grid_x", "grid_y", "grid_z", "block_x", "block_y", "block_z", "shared",  \
   "stream", "start", "seconds", "threads", "flops", "bytes_load",           \
   "bytes_store"}

/* One completed launch of an instrumented kernel. */
typedef struct roofline_launch {
  uint32_t Grid[3];
  uint32_t Block[3];
  uint64_t SharedBytes;  /* dynamic shared memory */
  uint32_t Stream;       /* 0: the default stream; 1, 2...: in order seen */
  double Start;          /* seconds since the program's first launch */
  double Seconds;        /* between CUDA events around the launch */
  const uint64_t *Counts; /* the device buffer, as Descriptor.h lays it out */
  const double *Args;    /* per parameter: its value, NaN if not a scalar */
  uint32_t NumArgs;
  const uint64_t *ArgBits; /* per parameter, for ROOFLINE_TRACE: pointers as
                              addresses, integers sign-extended, floating
                              point as the bits of a double */
} roofline_launch;

/* Registers a device kernel by its mangled name and its meta string
   (Descriptor.h); returns its id, or -1 (and says why, once) when the meta
   string comes from another version of Roofline. */
int __roofline_device_kernel(const char *Name, const char *Meta);
/* Records one launch of kernel Id (counts are copied). */
void __roofline_device_launch(int Id, const roofline_launch *L);
/* ROOFLINE_TRACE: records a launch of kernel Id in the call trace, in
   launch order (the counts come later, with __roofline_device_launch). */
void __roofline_device_trace(int Id, const uint32_t *Grid,
                             const uint32_t *Block, const uint64_t *ArgBits);
/* Called before every profile write, to finish launches still in flight. */
void __roofline_set_device_drain(void (*Drain)(void));

#ifdef __cplusplus
}
#endif

#endif
