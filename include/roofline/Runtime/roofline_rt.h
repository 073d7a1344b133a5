/*===- roofline_rt.h - The runtime's public API -------------------*- C -*-===*\
|*                                                                            *|
|* Programs built with roofline-clang/roofline-clang++ write their profile   *|
|* at normal exit (return from main, exit()) to $ROOFLINE_PROFILE (default   *|
|* roofline-%p.json; %p is the pid, %h the host name, %% a percent sign).   *|
|* These calls are for programs that want more control; declare them weak   *|
|* or guard with ROOFLINE_INSTRUMENTED if the program is also built plain.  *|
|*                                                                            *|
\*===----------------------------------------------------------------------===*/
#ifndef ROOFLINE_RUNTIME_ROOFLINE_RT_H
#define ROOFLINE_RUNTIME_ROOFLINE_RT_H

#ifdef __cplusplus
extern "C" {
#endif

/* Writes the counts so far to `path` (NULL: the $ROOFLINE_PROFILE pattern),
   atomically. Returns 0, or an errno value (and says why on stderr). */
int roofline_write_profile(const char *path);

/* Forgets the counts so far (for example after a warm-up phase). */
void roofline_reset(void);

#ifdef __cplusplus
}
#endif

#endif
