/* McCalpin's STREAM (v5.10) in its own shape, one thread: three arrays of
 * doubles, the Copy, Scale, Add and Triad loops written out in main's
 * timing loop, NTIMES repeats. The array length is a run-time argument here
 * (STREAM takes it as -DSTREAM_ARRAY_SIZE) so one binary runs the L1, L2 and
 * past-LLC working sets.
 *
 *   stream BYTES NTIMES      (BYTES: the three arrays together, e.g. 24K)
 */
#include <stdio.h>
#include <stdlib.h>

#include "bytes_arg.h"

#define STREAM_TYPE double

static STREAM_TYPE *a, *b, *c;

int main(int argc, char **argv) {
  if (argc != 3 || parse_bytes(argv[1]) < 96 || atoi(argv[2]) < 1) {
    fprintf(stderr, "usage: stream BYTES NTIMES\n");
    return 2;
  }
  ssize_t STREAM_ARRAY_SIZE = parse_bytes(argv[1]) / (3 * sizeof(STREAM_TYPE));
  int NTIMES = atoi(argv[2]);
  a = malloc(sizeof(STREAM_TYPE) * STREAM_ARRAY_SIZE);
  b = malloc(sizeof(STREAM_TYPE) * STREAM_ARRAY_SIZE);
  c = malloc(sizeof(STREAM_TYPE) * STREAM_ARRAY_SIZE);
  if (!a || !b || !c)
    return 1;
  ssize_t j;
  int k;
  STREAM_TYPE scalar;
  for (j = 0; j < STREAM_ARRAY_SIZE; j++) {
    a[j] = 1.0;
    b[j] = 2.0;
    c[j] = 0.0;
  }
  for (j = 0; j < STREAM_ARRAY_SIZE; j++)
    a[j] = 2.0E0 * a[j];

  scalar = 3.0;
  for (k = 0; k < NTIMES; k++) {
    for (j = 0; j < STREAM_ARRAY_SIZE; j++)
      c[j] = a[j];
    for (j = 0; j < STREAM_ARRAY_SIZE; j++)
      b[j] = scalar * c[j];
    for (j = 0; j < STREAM_ARRAY_SIZE; j++)
      c[j] = a[j] + b[j];
    for (j = 0; j < STREAM_ARRAY_SIZE; j++)
      a[j] = b[j] + scalar * c[j];
  }
  printf("%zd elements, %d times, a[0] %.6g\n", STREAM_ARRAY_SIZE, NTIMES, a[0]);
  return 0;
}
