// Three tiny loops whose in-core ceilings test/InCore/ceilings.test derives
// by hand on Skylake's scheduling model (-mcpu=skylake).
double sum(int n, const double *a) {
  double s = 0;
  for (int i = 0; i < n; ++i)
    s += a[i];
  return s;
}
void triad(int n, double *a, const double *b, const double *c, double s) {
#pragma clang loop interleave_count(1)
  for (int i = 0; i < n; ++i)
    a[i] = b[i] + s * c[i];
}
void quotient(int n, double *a, const double *b, const double *c) {
#pragma clang loop vectorize(disable) interleave_count(1)
  for (int i = 0; i < n; ++i)
    a[i] = b[i] / c[i];
}
