// Graph generators on the GPU: R-MAT / Graph500 Kronecker, uniform edges, permutations, weights.
//
// The arithmetic mirrors warpgraph/generators/_counter_rng.py word for word (SplitMix64 words
// addressed by (key, counter), multiply-high bounding, 32-bit quadrant thresholds), so a seed
// gives the same edge list on the CPU and on the GPU. Keep the two files in step.
//
// Compiled at run time by CuPy (NVRTC, -std=c++17) from warpgraph/generators/_gpu.py; the
// templates are instantiated through name_expressions. No standard headers, so NVRTC needs no
// include path. tools/check_kernels defines WARPGRAPH_NVCC_CHECK, which enables the explicit
// instantiations at the end so that `nvcc -c` compiles the template bodies too.

typedef unsigned long long u64;
typedef long long i64;

#define WG_GAMMA 0x9E3779B97F4A7C15ULL

__device__ __forceinline__ u64 wg_mix64(u64 z) {
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
  return z ^ (z >> 31);
}

__device__ __forceinline__ u64 wg_unmix64(u64 z) {
  z = (z ^ (z >> 31) ^ (z >> 62)) * 0x319642B2D24D8EC3ULL;
  z = (z ^ (z >> 27) ^ (z >> 54)) * 0x96DE1B173F119089ULL;
  return z ^ (z >> 30) ^ (z >> 60);
}

// Word `counter` of stream `key`.
__device__ __forceinline__ u64 wg_word(u64 key, u64 counter) {
  return wg_mix64(key + (counter + 1ULL) * WG_GAMMA);
}

// 1. R-MAT edges: thread e draws edge e; level l reads 32 bits of word e*W + l/2, picks the
//    quadrant by comparing with the cumulative thresholds, and sets bit l of both endpoints.
//    With `permute` set the endpoints are relabelled through `perm` (ignored otherwise).
//    wg_rmat_edges_from draws edges first .. first + m - 1 of the same list (chunked
//    generation: each slice equals the same slice of the whole list).
__device__ __forceinline__ void wg_rmat_edge(u64 key, int scale, u64 e, u64 t_a, u64 t_ab,
                                             u64 t_abc, i64* u_out, i64* v_out) {
  const int nwords = (scale + 1) / 2;
  const u64 base = e * (u64)nwords;
  i64 u = 0, v = 0;
  for (int w = 0; w < nwords; ++w) {
    const u64 h = wg_word(key, base + (u64)w);
    for (int half = 0; half < 2; ++half) {
      const int level = 2 * w + half;
      if (level < scale) {
        const u64 r = half == 0 ? (h >> 32) : (h & 0xFFFFFFFFULL);
        const i64 ge_ab = r >= t_ab;
        u |= ge_ab << level;
        v |= ((i64)(r >= t_a) ^ ge_ab ^ (i64)(r >= t_abc)) << level;
      }
    }
  }
  *u_out = u;
  *v_out = v;
}

template <typename T>
__global__ void wg_rmat_edges_from(u64 key, int scale, i64 first, i64 m, u64 t_a, u64 t_ab,
                                   u64 t_abc, int permute, const T* __restrict__ perm,
                                   T* __restrict__ src, T* __restrict__ dst) {
  const i64 stride = (i64)gridDim.x * blockDim.x;
  for (i64 e = (i64)blockIdx.x * blockDim.x + threadIdx.x; e < m; e += stride) {
    i64 u, v;
    wg_rmat_edge(key, scale, (u64)(first + e), t_a, t_ab, t_abc, &u, &v);
    if (permute) {
      src[e] = __ldg(perm + u);
      dst[e] = __ldg(perm + v);
    } else {
      src[e] = (T)u;
      dst[e] = (T)v;
    }
  }
}

template <typename T>
__global__ void wg_rmat_edges(u64 key, int scale, i64 m, u64 t_a, u64 t_ab, u64 t_abc,
                              int permute, const T* __restrict__ perm, T* __restrict__ src,
                              T* __restrict__ dst) {
  const i64 stride = (i64)gridDim.x * blockDim.x;
  for (i64 e = (i64)blockIdx.x * blockDim.x + threadIdx.x; e < m; e += stride) {
    i64 u, v;
    wg_rmat_edge(key, scale, (u64)e, t_a, t_ab, t_abc, &u, &v);
    if (permute) {
      src[e] = __ldg(perm + u);
      dst[e] = __ldg(perm + v);
    } else {
      src[e] = (T)u;
      dst[e] = (T)v;
    }
  }
}

// 2. Uniform edges: endpoints are words 2e and 2e+1 mapped to [0, n) by multiply-high.
template <typename T>
__global__ void wg_uniform_edges(u64 key, u64 n, i64 m, T* __restrict__ src,
                                 T* __restrict__ dst) {
  const i64 stride = (i64)gridDim.x * blockDim.x;
  for (i64 e = (i64)blockIdx.x * blockDim.x + threadIdx.x; e < m; e += stride) {
    const u64 c = (u64)e * 2ULL;
    src[e] = (T)__umul64hi(wg_word(key, c), n);
    dst[e] = (T)__umul64hi(wg_word(key, c + 1ULL), n);
  }
}

// 3. Distinct random keys (word i of stream key), to be sorted into a permutation.
extern "C" __global__ void wg_random_keys(u64 key, i64 n, u64* __restrict__ out) {
  const i64 stride = (i64)gridDim.x * blockDim.x;
  for (i64 i = (i64)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += stride) {
    out[i] = wg_word(key, (u64)i);
  }
}

// 4. Sorted keys back to their counters: out[j] is the index whose key ranks j-th.
template <typename T>
__global__ void wg_counters_of(const u64* __restrict__ sorted_keys, u64 key, i64 n,
                               T* __restrict__ out) {
  const i64 stride = (i64)gridDim.x * blockDim.x;
  for (i64 j = (i64)blockIdx.x * blockDim.x + threadIdx.x; j < n; j += stride) {
    out[j] = (T)((wg_unmix64(sorted_keys[j]) - key) * 0xF1DE83E19937733DULL - 1ULL);
  }
}

// 5. Weights: GAP's integers in [1, 255] and Graph500's floats in [0, 1) (2^-24 grid).
extern "C" __global__ void wg_gap_weights(u64 key, i64 m, int* __restrict__ out) {
  const i64 stride = (i64)gridDim.x * blockDim.x;
  for (i64 e = (i64)blockIdx.x * blockDim.x + threadIdx.x; e < m; e += stride) {
    out[e] = (int)__umul64hi(wg_word(key, (u64)e), 255ULL) + 1;
  }
}

extern "C" __global__ void wg_unit_weights(u64 key, i64 m, float* __restrict__ out) {
  const i64 stride = (i64)gridDim.x * blockDim.x;
  for (i64 e = (i64)blockIdx.x * blockDim.x + threadIdx.x; e < m; e += stride) {
    out[e] = (float)(wg_word(key, (u64)e) >> 40) * (1.0f / 16777216.0f);
  }
}

#ifdef WARPGRAPH_NVCC_CHECK
template __global__ void wg_rmat_edges<int>(u64, int, i64, u64, u64, u64, int, const int*, int*,
                                            int*);
template __global__ void wg_rmat_edges<i64>(u64, int, i64, u64, u64, u64, int, const i64*, i64*,
                                            i64*);
template __global__ void wg_rmat_edges_from<int>(u64, int, i64, i64, u64, u64, u64, int,
                                                 const int*, int*, int*);
template __global__ void wg_rmat_edges_from<i64>(u64, int, i64, i64, u64, u64, u64, int,
                                                 const i64*, i64*, i64*);
template __global__ void wg_uniform_edges<int>(u64, u64, i64, int*, int*);
template __global__ void wg_uniform_edges<i64>(u64, u64, i64, i64*, i64*);
template __global__ void wg_counters_of<int>(const u64*, u64, i64, int*);
template __global__ void wg_counters_of<i64>(const u64*, u64, i64, i64*);
#endif
