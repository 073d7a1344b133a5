// A cubic in Horner's form over floats: three FMAs a vector for one load
// and one store, so the FMA pipes bound it. Built for Zen 5 with 512-bit
// vectors preferred, one vector step an iteration.
void cubic(float *restrict y, const float *restrict x, float a, float b,
           float c, float d, long n) {
#pragma clang loop interleave_count(1)
  for (long i = 0; i < n; i++)
    y[i] = ((a * x[i] + b) * x[i] + c) * x[i] + d;
}
