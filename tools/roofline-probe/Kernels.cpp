//===- Kernels.cpp - The probe's measurement kernels ----------------------===//
#include "Kernels.h"

#include <cstring>

namespace roofline {
namespace probe {

namespace {

// 16 independent accumulators: two FMA pipes with a latency of 4 cycles
// need 8 in flight; 16 leave room and fit in 32 vector registers.
#define ROOFLINE_FMA_BODY(V, M, C)                                              \
  V a0 = (V){} + 1, a1 = a0 + 1, a2 = a0 + 2, a3 = a0 + 3, a4 = a0 + 4,         \
    a5 = a0 + 5, a6 = a0 + 6, a7 = a0 + 7, a8 = a0 + 8, a9 = a0 + 9,            \
    a10 = a0 + 10, a11 = a0 + 11, a12 = a0 + 12, a13 = a0 + 13, a14 = a0 + 14,  \
    a15 = a0 + 15;                                                              \
  for (uint64_t I = 0; I < Iterations; ++I) {                                   \
    a0 = a0 * M + C; a1 = a1 * M + C; a2 = a2 * M + C; a3 = a3 * M + C;         \
    a4 = a4 * M + C; a5 = a5 * M + C; a6 = a6 * M + C; a7 = a7 * M + C;         \
    a8 = a8 * M + C; a9 = a9 * M + C; a10 = a10 * M + C; a11 = a11 * M + C;     \
    a12 = a12 * M + C; a13 = a13 * M + C; a14 = a14 * M + C; a15 = a15 * M + C; \
  }                                                                             \
  V S = a0 + a1 + a2 + a3 + a4 + a5 + a6 + a7 + a8 + a9 + a10 + a11 + a12 +     \
        a13 + a14 + a15;                                                        \
  double Sum = 0;                                                               \
  for (unsigned L = 0; L < sizeof(V) / sizeof(S[0]); ++L)                       \
    Sum += S[L];                                                                \
  *Sink += Sum;                                                                 \
  return 2.0 * 16 * (sizeof(V) / sizeof(S[0])) * double(Iterations);

// Element alignment only: arrays come from std::vector (unaligned vector
// loads and stores, as compiled code over such arrays does).
typedef double d8 __attribute__((vector_size(64), aligned(8)));
typedef float f16 __attribute__((vector_size(64), aligned(8)));
typedef double d4 __attribute__((vector_size(32), aligned(8)));
typedef float f8 __attribute__((vector_size(32), aligned(8)));
typedef double d2 __attribute__((vector_size(16), aligned(8)));
typedef float f4 __attribute__((vector_size(16), aligned(8)));

__attribute__((target("avx512f"), noinline)) double
fmaAVX512(bool Double, uint64_t Iterations, double *Sink) {
  if (Double) {
    ROOFLINE_FMA_BODY(d8, 0.9999999, 1e-9)
  }
  ROOFLINE_FMA_BODY(f16, 0.9999f, 1e-6f)
}

__attribute__((target("avx2,fma"), noinline)) double
fmaAVX2(bool Double, uint64_t Iterations, double *Sink) {
  if (Double) {
    ROOFLINE_FMA_BODY(d4, 0.9999999, 1e-9)
  }
  ROOFLINE_FMA_BODY(f8, 0.9999f, 1e-6f)
}

// SSE2 has no FMA: a multiply and an add (still 2 FLOPs per lane).
__attribute__((noinline)) double fmaSSE2(bool Double, uint64_t Iterations,
                                         double *Sink) {
  if (Double) {
    ROOFLINE_FMA_BODY(d2, 0.9999999, 1e-9)
  }
  ROOFLINE_FMA_BODY(f4, 0.9999f, 1e-6f)
}

__attribute__((target("fma"), noinline)) double
fmaScalar(bool Double, uint64_t Iterations, double *Sink) {
  typedef double d1 __attribute__((vector_size(8)));
  typedef float f1 __attribute__((vector_size(4)));
  if (Double) {
    ROOFLINE_FMA_BODY(d1, 0.9999999, 1e-9)
  }
  ROOFLINE_FMA_BODY(f1, 0.9999f, 1e-6f)
}

// 16 independent int32 accumulators, each stepped by an add per round (one
// cycle of latency: 16 cover four ALUs). The empty asm keeps them in
// registers and stops the compiler from folding the rounds into a multiply.
#define ROOFLINE_INT_BODY(V, R)                                                 \
  V a0 = (V){} + 1, a1 = a0 + 1, a2 = a0 + 2, a3 = a0 + 3, a4 = a0 + 4,         \
    a5 = a0 + 5, a6 = a0 + 6, a7 = a0 + 7, a8 = a0 + 8, a9 = a0 + 9,            \
    a10 = a0 + 10, a11 = a0 + 11, a12 = a0 + 12, a13 = a0 + 13, a14 = a0 + 14,  \
    a15 = a0 + 15, c = (V){} + 3;                                               \
  for (uint64_t I = 0; I < Iterations; ++I) {                                   \
    a0 += c; a1 += c; a2 += c; a3 += c; a4 += c; a5 += c; a6 += c; a7 += c;    \
    a8 += c; a9 += c; a10 += c; a11 += c; a12 += c; a13 += c; a14 += c;         \
    a15 += c;                                                                   \
    asm volatile("" : "+" R(a0), "+" R(a1), "+" R(a2), "+" R(a3), "+" R(a4),    \
                 "+" R(a5), "+" R(a6), "+" R(a7), "+" R(a8), "+" R(a9),         \
                 "+" R(a10), "+" R(a11), "+" R(a12), "+" R(a13), "+" R(a14),    \
                 "+" R(a15));                                                   \
  }                                                                             \
  V S = a0 + a1 + a2 + a3 + a4 + a5 + a6 + a7 + a8 + a9 + a10 + a11 + a12 +     \
        a13 + a14 + a15;                                                        \
  uint64_t Sum = 0;                                                             \
  for (unsigned L = 0; L < sizeof(V) / sizeof(S[0]); ++L)                       \
    Sum += uint32_t(S[L]);                                                      \
  *Sink += Sum;                                                                 \
  return 16.0 * (sizeof(V) / sizeof(S[0])) * double(Iterations);

typedef int32_t i16x32 __attribute__((vector_size(64)));
typedef int32_t i8x32 __attribute__((vector_size(32)));
typedef int32_t i4x32 __attribute__((vector_size(16)));

__attribute__((target("avx512f"), noinline)) double
intAddAVX512(uint64_t Iterations, uint64_t *Sink) {
  ROOFLINE_INT_BODY(i16x32, "v")
}
__attribute__((target("avx2"), noinline)) double
intAddAVX2(uint64_t Iterations, uint64_t *Sink) {
  ROOFLINE_INT_BODY(i8x32, "x")
}
__attribute__((noinline)) double intAddSSE2(uint64_t Iterations,
                                            uint64_t *Sink) {
  ROOFLINE_INT_BODY(i4x32, "x")
}

// Eight accumulators: two loads per cycle against a 4-cycle add latency.
#define ROOFLINE_READ_BODY(V)                                                   \
  const V *P = reinterpret_cast<const V *>(X);                                  \
  size_t Lanes = sizeof(V) / sizeof(double), M = N / Lanes / 8 * 8;             \
  V s0 = {}, s1 = {}, s2 = {}, s3 = {}, s4 = {}, s5 = {}, s6 = {}, s7 = {};     \
  for (unsigned R = 0; R < Repeat; ++R)                                         \
  for (size_t I = 0; I < M; I += 8) {                                           \
    s0 += P[I];                                                                 \
    s1 += P[I + 1];                                                             \
    s2 += P[I + 2];                                                             \
    s3 += P[I + 3];                                                             \
    s4 += P[I + 4];                                                             \
    s5 += P[I + 5];                                                             \
    s6 += P[I + 6];                                                             \
    s7 += P[I + 7];                                                             \
  }                                                                             \
  V S = (s0 + s1) + (s2 + s3) + (s4 + s5) + (s6 + s7);                          \
  for (size_t L = 0; L < Lanes; ++L)                                            \
    *Sink += S[L];                                                              \
  return double(M * sizeof(V)) * Repeat;

__attribute__((target("avx512f"), noinline)) double
readAVX512(const double *X, size_t N, unsigned Repeat, double *Sink) {
  ROOFLINE_READ_BODY(d8)
}
__attribute__((target("avx2"), noinline)) double
readAVX2(const double *X, size_t N, unsigned Repeat, double *Sink) {
  ROOFLINE_READ_BODY(d4)
}
__attribute__((noinline)) double readSSE2(const double *X, size_t N,
                                          unsigned Repeat, double *Sink) {
  ROOFLINE_READ_BODY(d2)
}

#define ROOFLINE_TRIAD_BODY(V)                                                  \
  V *PA = reinterpret_cast<V *>(A);                                             \
  const V *PB = reinterpret_cast<const V *>(B);                                 \
  const V *PC = reinterpret_cast<const V *>(C);                                 \
  size_t M = N / (sizeof(V) / sizeof(double));                                  \
  for (unsigned R = 0; R < Repeat; ++R) {                                       \
    for (size_t I = 0; I < M; ++I)                                              \
      PA[I] = PB[I] + 3.0 * PC[I];                                              \
    asm volatile("" : : "r"(PA) : "memory"); /* every repeat really runs */     \
  }                                                                             \
  return double(M * sizeof(V) * 3) * Repeat;

__attribute__((target("avx512f"), noinline)) double
triadAVX512(double *A, const double *B, const double *C, size_t N,
                   unsigned Repeat) {
  ROOFLINE_TRIAD_BODY(d8)
}
__attribute__((target("avx2,fma"), noinline)) double
triadAVX2(double *A, const double *B, const double *C, size_t N,
                   unsigned Repeat) {
  ROOFLINE_TRIAD_BODY(d4)
}
__attribute__((noinline)) double triadSSE2(double *A, const double *B,
                                           const double *C, size_t N,
                                           unsigned Repeat) {
  ROOFLINE_TRIAD_BODY(d2)
}

#define ROOFLINE_DAXPY_BODY(V)                                                  \
  V *PA = reinterpret_cast<V *>(A);                                             \
  const V *PB = reinterpret_cast<const V *>(B);                                 \
  size_t M = N / (sizeof(V) / sizeof(double));                                  \
  for (unsigned R = 0; R < Repeat; ++R) {                                       \
    for (size_t I = 0; I < M; ++I)                                              \
      PA[I] += 1e-9 * PB[I];                                                    \
    asm volatile("" : : "r"(PA) : "memory"); /* every repeat really runs */     \
  }                                                                             \
  return double(M * sizeof(V) * 3) * Repeat;

__attribute__((target("avx512f"), noinline)) double
daxpyAVX512(double *A, const double *B, size_t N, unsigned Repeat) {
  ROOFLINE_DAXPY_BODY(d8)
}
__attribute__((target("avx2,fma"), noinline)) double
daxpyAVX2(double *A, const double *B, size_t N, unsigned Repeat) {
  ROOFLINE_DAXPY_BODY(d4)
}
__attribute__((noinline)) double daxpySSE2(double *A, const double *B, size_t N,
                                           unsigned Repeat) {
  ROOFLINE_DAXPY_BODY(d2)
}

// Non-temporal stores write whole lines to memory without reading them
// first (no write-allocate), as STREAM's best builds and likwid-bench's
// copy_mem/stream_mem do. They need aligned vectors: the head of the array
// up to the vector's alignment is stored plainly.
typedef double d8a __attribute__((vector_size(64), aligned(64)));
typedef double d4a __attribute__((vector_size(32), aligned(32)));
typedef double d2a __attribute__((vector_size(16), aligned(16)));

#define ROOFLINE_NT_BODY(V, VA, EXPR, BYTES)                                   \
  constexpr size_t Lanes = sizeof(V) / sizeof(double);                         \
  size_t Head = (sizeof(V) - (uintptr_t(A) % sizeof(V))) % sizeof(V) /         \
                sizeof(double);                                                \
  Head = Head > N ? N : Head;                                                  \
  size_t M = (N - Head) / Lanes;                                               \
  for (unsigned R = 0; R < Repeat; ++R) {                                      \
    for (size_t I = 0; I < Head; ++I) {                                        \
      const double *PB = B + I, *PC = C + I;                                   \
      (void)PC;                                                                \
      A[I] = (EXPR)[0];                                                        \
    }                                                                          \
    VA *PA = reinterpret_cast<VA *>(A + Head);                                 \
    for (size_t J = 0; J < M; ++J) {                                           \
      const double *PB = B + Head + J * Lanes, *PC = C + Head + J * Lanes;     \
      (void)PC;                                                                \
      VA Value = (VA)(EXPR);                                                   \
      __builtin_nontemporal_store(Value, PA + J);                              \
    }                                                                          \
    for (size_t I = Head + M * Lanes; I < N; ++I)                              \
      A[I] = B[I] + (BYTES == 24 ? 3.0 * C[I] : 0.0);                          \
    __builtin_ia32_sfence();                                                   \
    asm volatile("" : : "r"(A) : "memory");                                    \
  }                                                                            \
  return double(N) * BYTES * Repeat;

#define ROOFLINE_COPY(V) (*reinterpret_cast<const V *>(PB))
#define ROOFLINE_TRIAD(V)                                                      \
  (*reinterpret_cast<const V *>(PB) + 3.0 * *reinterpret_cast<const V *>(PC))

/// copyNT<ISA> (16 bytes an element) and triadNT<ISA> (24) for one ISA.
#define ROOFLINE_NT_KERNELS(ISA, Attributes, V, VA)                            \
  Attributes double copyNT##ISA(double *A, const double *B, const double *C,   \
                                size_t N, unsigned Repeat){ROOFLINE_NT_BODY(   \
      V, VA, ROOFLINE_COPY(V),                                                 \
      16)} Attributes double triadNT##ISA(double *A, const double *B,          \
                                          const double *C, size_t N,           \
                                          unsigned Repeat) {                   \
    ROOFLINE_NT_BODY(V, VA, ROOFLINE_TRIAD(V), 24)                             \
  }

ROOFLINE_NT_KERNELS(AVX512, __attribute__((target("avx512f"), noinline)), d8,
                    d8a)
ROOFLINE_NT_KERNELS(AVX2, __attribute__((target("avx2"), noinline)), d4, d4a)
ROOFLINE_NT_KERNELS(SSE2, __attribute__((noinline)), d2, d2a)

} // namespace

std::vector<ISA> availableISAs() {
  std::vector<ISA> Out;
  __builtin_cpu_init();
  if (__builtin_cpu_supports("avx512f"))
    Out.push_back({"avx512", 512, true});
  if (__builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma"))
    Out.push_back({"avx2", 256, true});
  Out.push_back({"sse2", 128, false});
  Out.push_back({"scalar", 64, __builtin_cpu_supports("fma") != 0});
  return Out;
}

double computeKernel(const ISA &I, bool Double, uint64_t Iterations,
                     double *Sink) {
  if (I.Name == "avx512")
    return fmaAVX512(Double, Iterations, Sink);
  if (I.Name == "avx2")
    return fmaAVX2(Double, Iterations, Sink);
  if (I.Name == "sse2")
    return fmaSSE2(Double, Iterations, Sink);
  return I.FMA ? fmaScalar(Double, Iterations, Sink)
               : fmaSSE2(Double, Iterations, Sink) / 2;
}

double addChainKernel(uint64_t Iterations, uint64_t *Sink) {
  uint64_t X = *Sink;
  for (uint64_t K = 0; K < Iterations; ++K) {
#if defined(__x86_64__)
    asm volatile("add $1, %0\n\tadd $1, %0\n\tadd $1, %0\n\tadd $1, %0\n\t"
                 "add $1, %0\n\tadd $1, %0\n\tadd $1, %0\n\tadd $1, %0\n\t"
                 "add $1, %0\n\tadd $1, %0\n\tadd $1, %0\n\tadd $1, %0\n\t"
                 "add $1, %0\n\tadd $1, %0\n\tadd $1, %0\n\tadd $1, %0"
                 : "+r"(X));
#else
    X += 16;
#endif
  }
  *Sink = X;
  return double(Iterations) * 16;
}

__attribute__((target("fma"))) static double fmaChain(uint64_t Iterations,
                                                     double *Sink) {
  double X = *Sink, A = 1.0000001, B = 1e-9;
  for (uint64_t K = 0; K < Iterations; ++K) {
#if defined(__x86_64__)
    asm volatile(".rept 16\n\tvfmadd231sd %1, %2, %0\n\t.endr"
                 : "+x"(X) : "x"(A), "x"(B));
#endif
  }
  *Sink = X;
  return double(Iterations) * 16;
}

double fpChainKernel(bool FMA, uint64_t Iterations, double *Sink) {
  if (FMA)
    return fmaChain(Iterations, Sink);
  double X = *Sink, A = 1e-9;
  for (uint64_t K = 0; K < Iterations; ++K) {
#if defined(__x86_64__)
    asm volatile(".rept 16\n\taddsd %1, %0\n\t.endr" : "+x"(X) : "x"(A));
#endif
  }
  *Sink = X;
  return double(Iterations) * 16;
}

// The issue rate: eight independent instructions a round and the loop's
// two (a subtract and a branch, which x86 cores fuse into one operation, as
// they fuse every counted loop's). Four adds of an immediate on four
// registers (each an add a round: the one-cycle latency never binds) with
// four zeroing idioms, which need no execution unit; or two of the idioms
// replaced by loads of one cached line. A short body is the fastest
// (measured on Zen 5, 8-wide dispatch: 8.9 instructions a cycle against
// 8.2 with the group repeated four times, 7.3-8.0 with eight).
double issueKernel(IssueMix Mix, uint64_t Iterations, uint64_t *Sink) {
  if (Iterations == 0)
    return 0;
#if defined(__x86_64__)
  uint64_t K = Iterations, Line[8] = {*Sink, 1, 2, 3, 4, 5, 6, 7};
  uint64_t *P = Line;
  if (Mix == IssueMix::Adds)
    asm volatile(".p2align 6\n1:\n\t"
                 "add $1, %%r8\n\tadd $1, %%r9\n\tadd $1, %%r10\n\t"
                 "add $1, %%r11\n\txor %%eax, %%eax\n\txor %%edx, %%edx\n\t"
                 "xor %%ecx, %%ecx\n\txor %%esi, %%esi\n\t"
                 "sub $1, %0\n\tjnz 1b"
                 : "+r"(K)
                 :
                 : "rax", "rcx", "rdx", "rsi", "r8", "r9", "r10", "r11", "cc");
  else
    asm volatile(".p2align 6\n1:\n\t"
                 "add $1, %%r8\n\tadd $1, %%r9\n\tadd $1, %%r10\n\t"
                 "add $1, %%r11\n\tmov (%1), %%rax\n\tmov 8(%1), %%rdx\n\t"
                 "xor %%ecx, %%ecx\n\txor %%esi, %%esi\n\t"
                 "sub $1, %0\n\tjnz 1b"
                 : "+r"(K)
                 : "r"(P)
                 : "rax", "rcx", "rdx", "rsi", "r8", "r9", "r10", "r11", "cc",
                   "memory");
  *Sink += K;
  return double(Iterations) * 10;
#else
  (void)Mix;
  (void)Sink;
  return 0; // not measured: the kernels are x86-64 assembly
#endif
}

const char *issueMixText(IssueMix M) {
  return M == IssueMix::Adds
             ? "4 adds, 4 zeroing idioms and the loop's 2"
             : "4 adds, 2 loads, 2 zeroing idioms and the loop's 2";
}

/// \p Kernel's version for ISA \p I: Kernel##AVX512, AVX2 or SSE2.
#define ROOFLINE_BY_ISA(I, Kernel, ...)                                        \
  ((I).Name == "avx512" ? Kernel##AVX512(__VA_ARGS__)                          \
   : (I).Name == "avx2" ? Kernel##AVX2(__VA_ARGS__)                            \
                        : Kernel##SSE2(__VA_ARGS__))

double intAddKernel(const ISA &I, uint64_t Iterations, uint64_t *Sink) {
  return ROOFLINE_BY_ISA(I, intAdd, Iterations, Sink);
}

double readKernel(const ISA &I, const double *X, size_t N, unsigned Repeat,
                  double *Sink) {
  return ROOFLINE_BY_ISA(I, read, X, N, Repeat, Sink);
}

double triadKernel(const ISA &I, double *A, const double *B, const double *C,
                   size_t N, unsigned Repeat) {
  return ROOFLINE_BY_ISA(I, triad, A, B, C, N, Repeat);
}

double daxpyKernel(const ISA &I, double *A, const double *B, size_t N,
                   unsigned Repeat) {
  return ROOFLINE_BY_ISA(I, daxpy, A, B, N, Repeat);
}

double copyNTKernel(const ISA &I, double *A, const double *B, size_t N,
                    unsigned Repeat) {
  return ROOFLINE_BY_ISA(I, copyNT, A, B, B, N, Repeat);
}

double memcpyKernel(double *A, const double *B, size_t N, unsigned Repeat) {
  for (unsigned R = 0; R < Repeat; ++R) {
    std::memcpy(A, B, N * sizeof(double));
    asm volatile("" : : "r"(A) : "memory");
  }
  return double(N) * 16 * Repeat;
}

double triadNTKernel(const ISA &I, double *A, const double *B, const double *C,
                     size_t N, unsigned Repeat) {
  return ROOFLINE_BY_ISA(I, triadNT, A, B, C, N, Repeat);
}

} // namespace probe
} // namespace roofline
