// A training step that launches every kernel through the wrappers in
// wrappers.cuh, as llm.c's gpt2_forward does. test/Audit/wrappers.test.
#include "wrappers.cuh"

void block_forward(const float *x, const float *y, float *out, int B, int T, int C,
                   cudaStream_t stream) {
  float *residual, *act;
  size_t bytes = (size_t)B * T * C * sizeof(float);
  cudaCheck(cudaMalloc(&residual, bytes));
  cudaCheck(cudaMalloc(&act, bytes));
  residual_forward(residual, x, y, B * T * C, stream);
  activation_forward(act, residual, B * T * C, stream);
  residual_forward(out, act, x, B * T * C, stream);
  cudaCheck(cudaFree(act));
  cudaCheck(cudaFree(residual));
}

// The grid is computed for n, then reassigned for m before the second
// launch: the same spelling <<<grid, 256>>>, another shape.
void regrid(const float *x, const float *y, float *out, int n, int m) {
  float *t;
  cudaMalloc(&t, n * sizeof(float));
  int grid = CEIL_DIV(n, 256);
  residual_forward_kernel<<<grid, 256>>>(t, x, y, n);
  grid = CEIL_DIV(m, 256);
  gelu_forward_kernel<<<grid, 256>>>(out, t, n);
  cudaFree(t);
}
