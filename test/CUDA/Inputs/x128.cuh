// llm.c's packed type (train_gpt2.cu): eight bf16s in 128 bits, loaded
// through __ldcs (inline PTX "ld.global.cs.v4.s32") and stored whole.
// Shared by test/CUDA/inline-ptx.cu and gpt2-layer.cu.
#pragma once
#include <cuda_bf16.h>

typedef __nv_bfloat16 floatX;

struct alignas(16) x128 {
  static constexpr int size = 8;
  floatX payload[8];
  __device__ explicit x128(int4 bits) { memcpy(&payload, &bits, sizeof(bits)); }
  __device__ x128() = default;
  __device__ floatX &operator[](int i) { return payload[i]; }
  __device__ int4 get_bits() const {
    int4 bits;
    memcpy(&bits, &payload, sizeof(bits));
    return bits;
  }
};
__device__ inline x128 load128cs(const floatX *address) {
  return x128{__ldcs(reinterpret_cast<const int4 *>(address))};
}
__device__ inline void store128(floatX *target, x128 value) {
  *reinterpret_cast<int4 *>(target) = value.get_bits();
}
