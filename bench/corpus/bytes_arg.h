/* A working set on the command line: a number of bytes, with K or M for
 * KiB or MiB ("16K", "256M"); for the corpus programs that take one. */
#ifndef CORPUS_BYTES_ARG_H
#define CORPUS_BYTES_ARG_H
#include <stdlib.h>

static long parse_bytes(const char *s) {
  char *end;
  long v = strtol(s, &end, 10);
  if (*end == 'K') v <<= 10;
  if (*end == 'M') v <<= 20;
  return v;
}

#endif
