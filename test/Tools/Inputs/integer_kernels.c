unsigned hash(long n, const unsigned char *s) {
  unsigned h = 2166136261u;
  for (long i = 0; i < n; i++)
    h = (h ^ s[i]) * 16777619u;
  return h;
}
void saxpy(long n, float a, const float *x, float *y) {
  for (long i = 0; i < n; i++)
    y[i] = a * x[i] + y[i];
}
