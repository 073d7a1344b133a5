//===- GPU.cu - The probe's CUDA measurements -----------------------------===//
//
// FP32 and FP64 FMA peak (8 independent chains per thread, enough blocks to
// fill every SM many times over) and device-memory bandwidth (a float4 copy
// over 1 GiB, read + write bytes), timed with CUDA events, best of several
// runs. Built with clang-22's CUDA mode and the static CUDA runtime.
//
//===----------------------------------------------------------------------===//
#include "GPU.h"

#include <cuda_runtime.h>

#include <algorithm>

namespace roofline {
namespace probe {

namespace {

template <typename T>
__global__ void fmaChains(T *Out, int Iterations, T M, T C) {
  T A0 = threadIdx.x, A1 = A0 + 1, A2 = A0 + 2, A3 = A0 + 3, A4 = A0 + 4,
    A5 = A0 + 5, A6 = A0 + 6, A7 = A0 + 7;
  for (int I = 0; I < Iterations; ++I) {
    A0 = A0 * M + C; A1 = A1 * M + C; A2 = A2 * M + C; A3 = A3 * M + C;
    A4 = A4 * M + C; A5 = A5 * M + C; A6 = A6 * M + C; A7 = A7 * M + C;
  }
  T S = A0 + A1 + A2 + A3 + A4 + A5 + A6 + A7;
  if (S == T(-1)) // never true: keeps the chains alive
    Out[blockIdx.x * blockDim.x + threadIdx.x] = S;
}

__global__ void copy4(const float4 *In, float4 *Out, size_t N) {
  for (size_t I = blockIdx.x * size_t(blockDim.x) + threadIdx.x; I < N;
       I += size_t(gridDim.x) * blockDim.x)
    Out[I] = In[I];
}

template <typename F> float bestMilliseconds(int Runs, F Launch) {
  cudaEvent_t Start, Stop;
  cudaEventCreate(&Start);
  cudaEventCreate(&Stop);
  Launch(); // warm up
  float Best = 1e30f;
  for (int R = 0; R < Runs; ++R) {
    cudaEventRecord(Start);
    Launch();
    cudaEventRecord(Stop);
    cudaEventSynchronize(Stop);
    float Ms = 0;
    cudaEventElapsedTime(&Ms, Start, Stop);
    Best = std::min(Best, Ms);
  }
  cudaEventDestroy(Start);
  cudaEventDestroy(Stop);
  return Best;
}

} // namespace

bool probeGPU(GPUResult &R, bool Quick, std::string &Why) {
  int Count = 0;
  cudaError_t E = cudaGetDeviceCount(&Count);
  if (E != cudaSuccess || Count == 0) {
    Why = E != cudaSuccess ? cudaGetErrorString(E) : "no CUDA device";
    return false;
  }
  cudaDeviceProp P;
  cudaGetDeviceProperties(&P, 0);
  R.Name = P.name;
  R.Major = P.major;
  R.Minor = P.minor;
  R.SMs = P.multiProcessorCount;
  int Runs = Quick ? 3 : 7;
  int Blocks = P.multiProcessorCount * 32, Threads = 256;
  int Iterations = Quick ? 1 << 14 : 1 << 16;
  float *OutF;
  double *OutD;
  cudaMalloc(&OutF, sizeof(float) * Blocks * Threads);
  cudaMalloc(&OutD, sizeof(double) * Blocks * Threads);
  double Flops = 2.0 * 8 * Iterations * double(Blocks) * Threads;
  float MsF = bestMilliseconds(Runs, [&] {
    fmaChains<float><<<Blocks, Threads>>>(OutF, Iterations, 0.9999f, 1e-6f);
  });
  float MsD = bestMilliseconds(Runs, [&] {
    fmaChains<double><<<Blocks, Threads>>>(OutD, Iterations / 8, 0.9999999, 1e-9);
  });
  R.FP32 = Flops / (MsF * 1e-3);
  R.FP64 = Flops / 8 / (MsD * 1e-3);
  size_t Bytes = size_t(1) << 30, N = Bytes / sizeof(float4);
  float4 *In, *Out;
  if (cudaMalloc(&In, Bytes) != cudaSuccess || cudaMalloc(&Out, Bytes) != cudaSuccess) {
    Why = "cannot allocate 2 GiB of device memory";
    return false;
  }
  cudaMemset(In, 0, Bytes);
  float MsC = bestMilliseconds(Runs, [&] {
    copy4<<<P.multiProcessorCount * 8, 1024>>>(In, Out, N);
  });
  R.Bandwidth = 2.0 * Bytes / (MsC * 1e-3);
  cudaFree(In);
  cudaFree(Out);
  cudaFree(OutF);
  cudaFree(OutD);
  if (cudaGetLastError() != cudaSuccess) {
    Why = "a CUDA call failed";
    return false;
  }
  return true;
}

} // namespace probe
} // namespace roofline
