// Godfrey's algebraic method for the Langford problem L(2,n), one GPU thread per sub-task.
//
// The thesis (seed 004, eq. 1.5 with its optimizations) computes
//
//   2^(2n-2) L(2,n) = sum over x in {-1,1}^(2n) with x[n-1] = x[n] = +1 of
//                     (prod_k x_k) * S'_1(x) * prod_{i=2..n} S_i(x),
//   S_i(x)  = sum_{k=0}^{2n-i-2} x_k x_{k+i+1}        (0-based positions)
//   S'_1(x) = sum_{k=0}^{n-2}    x_k x_{k+2}          (mirror symmetry: half of S_1)
//
// valid for n = 0 or 3 (mod 4) (the host returns 0 for the others). The 2n-2 free variables are
// numbered in "walk order" (walk_position): the variables that flip most often in the Gray-code
// walk are the end positions, which appear in the fewest terms. A sub-task fixes the high walk
// bits; the thread walks the low `walk_bits` bits in Gray-code order (one flip per step) and
// updates each S_i in O(1) per flipped variable. Everything that depends on a flipped position is
// resolved at compile time: the lowest U walk bits are unrolled (2^U steps per block) and a flip
// of a higher bit dispatches to a compile-time position through a chain of compares.
//
// Exact arithmetic (no float): |S'_1| <= n-1 and |S_i| <= 2n-i-1. The factors are multiplied in
// int32 chunks (chunk bound < 2^31), the chunks into two int64 groups (each bound < 2^62), and
// the groups into one __int128. For n <= 24 the product bound is < 2^121, a block of 2^U <= 32
// steps sums to < 2^126, and the thread's total is kept in 192 bits (unsigned __int128 + int64
// with carry). The host rejects n > 24. Each thread adds its 192-bit total, as six 32-bit limbs,
// to its task's six 64-bit accumulators (a warp is first reduced with shuffles); the host reads
// sum(limb_k << 32k) mod 2^192 as a signed number, exact while a task has < 2^32 threads.

#ifndef LF_HD
#if defined(__CUDACC__)
#define LF_HD __host__ __device__ __forceinline__
#else
#define LF_HD inline
#endif
#endif

namespace lfg {

typedef long long i64;
typedef unsigned long long u64;
typedef __int128 i128;
typedef unsigned __int128 u128;

// Largest |factor I|: factor 0 is S'_1, factor I >= 1 is S_{I+1} (0-based I).
LF_HD constexpr int factor_bound(int n, int I) { return I == 0 ? n - 1 : 2 * n - I - 2; }

// Position of walk bit k: positions taken alternately from the right and the left end, skipping
// the fixed positions n-1 and n. The Python side (godfrey_cpu.walk_order) is the same rule.
LF_HD constexpr int walk_position(int n, int k) {
  int lo = 0, hi = 2 * n - 1, idx = 0;
  bool take_hi = true;
  while (lo <= hi) {
    int p = take_hi ? hi-- : lo++;
    take_hi = !take_hi;
    if (p == n - 1 || p == n) continue;
    if (idx == k) return p;
    ++idx;
  }
  return -1;
}

// Group (0 or 1) of factor I: factors in decreasing bound order (S_2..S_n, then S'_1) go to the
// group whose bound product is smaller so far. The Python side (godfrey_cpu.factor_groups) is
// the same rule and checks both products stay below 2^62 for every supported n.
LF_HD constexpr int factor_group(int n, int I) {
  u64 a = 1, b = 1;
  for (int t = 0; t < n; ++t) {
    const int J = (t < n - 1) ? t + 1 : 0;
    const u64 f = (u64)factor_bound(n, J);
    const int g = (a <= b) ? 0 : 1;
    if (g == 0) a *= f; else b *= f;
    if (J == I) return g;
  }
  return 0;
}

LF_HD constexpr int ctz_const(unsigned v) {
  int c = 0;
  while ((v & 1u) == 0u) { v >>= 1; ++c; }
  return c;
}

LF_HD int ctz64(u64 v) {
#if defined(__CUDA_ARCH__)
  return __ffsll((long long)v) - 1;
#else
  return __builtin_ctzll(v);
#endif
}

// ---- product of the factors of one group, int32 chunks then int64 ----------------------------

template <int N, int G, int I, long long CB>
LF_HD void group_product(const int (&S)[N], int chunk, i64 &acc) {
  if constexpr (I == N) {
    acc *= chunk;
  } else if constexpr (factor_group(N, I) != G) {
    group_product<N, G, I + 1, CB>(S, chunk, acc);
  } else {
    constexpr long long f = factor_bound(N, I);
    if constexpr (CB * f < (1LL << 31)) {
      group_product<N, G, I + 1, CB * f>(S, chunk * S[I], acc);
    } else {
      acc *= chunk;
      group_product<N, G, I + 1, f>(S, S[I], acc);
    }
  }
}

template <int N>
LF_HD i128 full_product(const int (&S)[N]) {
  i64 a = 1, b = 1;
  group_product<N, 0, 0, 1>(S, 1, a);
  group_product<N, 1, 0, 1>(S, 1, b);
  return (i128)a * (i128)b;
}

// ---- flipping one variable at a compile-time position P -------------------------------------

template <int N, int P, int I>
LF_HD void flip_terms(const int (&x)[2 * N], int (&S)[N], int u) {
  if constexpr (I < N) {
    constexpr int g = I + 2;  // S_{I+1} pairs positions k and k+g
    if constexpr (P - g >= 0 && P + g <= 2 * N - 1) {
      S[I] += u * (x[P - g] + x[P + g]);
    } else if constexpr (P - g >= 0) {
      S[I] += u * x[P - g];
    } else if constexpr (P + g <= 2 * N - 1) {
      S[I] += u * x[P + g];
    }
    flip_terms<N, P, I + 1>(x, S, u);
  }
}

template <int N, int P>
LF_HD void flip(int (&x)[2 * N], int (&S)[N]) {
  x[P] = -x[P];
  const int u = 2 * x[P];  // a term x_P x_q changes by 2 x_P(new) x_q
  // S'_1: pairs (k, k+2) with k <= n-2
  if constexpr (P <= N - 2 && P >= 2) {
    S[0] += u * (x[P + 2] + x[P - 2]);
  } else if constexpr (P <= N - 2) {
    S[0] += u * x[P + 2];
  } else if constexpr (P >= 2 && P <= N) {
    S[0] += u * x[P - 2];
  }
  flip_terms<N, P, 1>(x, S, u);
}

// Flip walk bit j (a run-time value in [K, 2N-3]) by comparing against compile-time bits.
template <int N, int K>
LF_HD void flip_walk_bit(int j, int (&x)[2 * N], int (&S)[N]) {
  if constexpr (K < 2 * N - 2) {
    if (j == K) {
      flip<N, walk_position(N, K)>(x, S);
    } else {
      flip_walk_bit<N, K + 1>(j, x, S);
    }
  }
}

// ---- initialization --------------------------------------------------------------------------

template <int N, int K>
LF_HD void init_x(u64 bits, int (&x)[2 * N]) {
  if constexpr (K < 2 * N - 2) {
    x[walk_position(N, K)] = ((bits >> K) & 1ull) ? -1 : 1;
    init_x<N, K + 1>(bits, x);
  }
}

template <int N>
LF_HD void init_sums(const int (&x)[2 * N], int (&S)[N]) {
  int s1 = 0;
#pragma unroll
  for (int k = 0; k <= N - 2; ++k) s1 += x[k] * x[k + 2];
  S[0] = s1;
#pragma unroll
  for (int I = 1; I < N; ++I) {
    int s = 0;
#pragma unroll
    for (int k = 0; k + I + 2 <= 2 * N - 1; ++k) s += x[k] * x[k + I + 2];
    S[I] = s;
  }
}

// ---- the walk --------------------------------------------------------------------------------

// Steps T .. 2^U-1 of one unrolled block: evaluate, then flip walk bit ctz(T+1).
template <int N, int U, int T>
LF_HD void block_steps(int (&x)[2 * N], int (&S)[N], i128 &blk) {
  const i128 p = full_product<N>(S);
  if constexpr (T % 2 == 0) blk += p; else blk -= p;
  if constexpr (T + 1 < (1 << U)) {
    flip<N, walk_position(N, ctz_const(T + 1))>(x, S);
    block_steps<N, U, T + 1>(x, S, blk);
  }
}

// Exact sum over the 2^walk_bits points whose walk bits >= walk_bits equal those of `bits`
// (the low walk_bits bits of `bits` must be zero). Returns the 192-bit two's complement value
// as (hi, lo). Needs U <= walk_bits <= 2N-2.
template <int N, int U>
LF_HD void walk(u64 bits, int walk_bits, i64 &hi_out, u128 &lo_out) {
  int x[2 * N];
  int S[N];
  x[N - 1] = 1;
  x[N] = 1;
  init_x<N, 0>(bits, x);
  init_sums<N>(x, S);
  int sign = 1;
#pragma unroll
  for (int k = 0; k < 2 * N; ++k) sign *= x[k];

  u128 lo = 0;
  i64 hi = 0;
  const u64 nblocks = 1ull << (walk_bits - U);
  for (u64 b = 0; b < nblocks; ++b) {
    i128 blk = 0;
    block_steps<N, U, 0>(x, S, blk);  // step parity = parity within the block (2^U is even)
    const u128 ub = (u128)blk;
    lo += ub;
    hi += (i64)(lo < ub) - (i64)(blk < 0);
    if (b + 1 < nblocks) flip_walk_bit<N, U>(U + ctz64(b + 1), x, S);
  }
  if (sign < 0) {  // 192-bit negation
    lo = ~lo + 1;
    hi = ~hi + (lo == 0 ? 1 : 0);
  }
  hi_out = hi;
  lo_out = lo;
}

}  // namespace lfg

#if defined(__CUDACC__)

// One thread per (task, sub-task): thread g works on task task0 + g / 2^sub_bits, sub-task
// g mod 2^sub_bits, i.e. walk bits [walk_bits + sub_bits, ...) = task, [walk_bits, ...) = sub.
// out[6 * t + k] (u64) accumulates 32-bit limb k of task t's 192-bit sum; zero it first.
template <int N, int U>
__global__ void __launch_bounds__(128) godfrey_walk(unsigned long long task0,
                                                    unsigned long long num_tasks, int sub_bits,
                                                    int walk_bits, unsigned long long *out) {
  using namespace lfg;
  const u64 g = (u64)blockIdx.x * blockDim.x + threadIdx.x;
  if (g >= (num_tasks << sub_bits)) return;
  const u64 t = g >> sub_bits;
  const u64 sub = g & ((1ull << sub_bits) - 1ull);
  const u64 bits = ((task0 + t) << (walk_bits + sub_bits)) | (sub << walk_bits);
  i64 hi;
  u128 lo;
  walk<N, U>(bits, walk_bits, hi, lo);
  u64 limb[6];
  limb[0] = (u64)lo & 0xffffffffull;
  limb[1] = (u64)lo >> 32;
  limb[2] = (u64)(lo >> 64) & 0xffffffffull;
  limb[3] = (u64)(lo >> 96);
  limb[4] = (u64)hi & 0xffffffffull;
  limb[5] = (u64)hi >> 32;
  if (sub_bits >= 5) {
    // The whole warp works on one task and is fully active (32 | 2^sub_bits, blockDim % 32 == 0).
#pragma unroll
    for (int k = 0; k < 6; ++k) {
#pragma unroll
      for (int off = 16; off > 0; off >>= 1) limb[k] += __shfl_down_sync(0xffffffffu, limb[k], off);
    }
    if ((threadIdx.x & 31) != 0) return;
  }
#pragma unroll
  for (int k = 0; k < 6; ++k) atomicAdd(out + 6 * t + k, limb[k]);
}

#ifdef WARPGRAPH_NVCC_CHECK
template __global__ void godfrey_walk<7, 3>(unsigned long long, unsigned long long, int, int,
                                            unsigned long long *);
template __global__ void godfrey_walk<19, 4>(unsigned long long, unsigned long long, int, int,
                                             unsigned long long *);
template __global__ void godfrey_walk<24, 4>(unsigned long long, unsigned long long, int, int,
                                             unsigned long long *);
#endif

#endif  // __CUDACC__
