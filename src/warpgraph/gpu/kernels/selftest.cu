// warpgraph: self-test kernels that exercise the helpers of common.cuh, so that the GPU test
// suite checks them against NumPy (tests/test_gpu_loader.py). Not used by any algorithm.
#include "common.cuh"

// For each warp-sized chunk c of `in` (n items; missing lanes count as 0 for sums and as the
// chunk's first item for min/max): sums/maxs/mins[c] and per-item inclusive/exclusive scans.
template <typename T>
__global__ void warp_primitives_test(const T* __restrict__ in, long long n, T* __restrict__ sums,
                                     T* __restrict__ maxs, T* __restrict__ mins,
                                     T* __restrict__ incl, T* __restrict__ excl) {
    for (long long base = wg::warp_base(); base < n; base += wg::warp_stride()) {
        const long long i = base + wg::lane_id();
        const bool valid = i < n;
        const T first = in[base];
        const T x = valid ? in[i] : (T)0;
        const T xm = valid ? x : first;
        const T s = wg::warp_sum(x);
        const T mx = wg::warp_max(xm);
        const T mn = wg::warp_min(xm);
        const T a = wg::warp_inclusive_sum(x);
        const T b = wg::warp_exclusive_sum(x);
        if (valid) {
            incl[i] = a;
            excl[i] = b;
        }
        if (wg::lane_id() == 0) {
            const long long c = base / wg::WARP_SIZE;
            sums[c] = s;
            maxs[c] = mx;
            mins[c] = mn;
        }
    }
}

// Item i asks for want[i] slots of a shared queue; slot s of the queue receives i. The caller
// checks that every item got exactly its slots and that the counter equals sum(want).
template <typename T>
__global__ void warp_reserve_test(const unsigned long long* __restrict__ want, long long n,
                                  unsigned long long* __restrict__ counter, T* __restrict__ queue) {
    for (long long base = wg::warp_base(); base < n; base += wg::warp_stride()) {
        const long long i = base + wg::lane_id();
        const unsigned long long w = i < n ? want[i] : 0ull;
        const unsigned long long slot = wg::warp_reserve(counter, w);
        for (unsigned long long k = 0; k < w; ++k) queue[slot + k] = (T)i;
    }
}

// counts[key] for key in keys, through warp_aggregated_count.
template <typename K>
__global__ void warp_count_test(const K* __restrict__ keys, long long n,
                                unsigned long long* __restrict__ counts) {
    for (long long base = wg::warp_base(); base < n; base += wg::warp_stride()) {
        const long long i = base + wg::lane_id();
        const bool valid = i < n;
        wg::warp_aggregated_count(counts, valid ? keys[i] : (K)0, valid);
    }
}

// out[b] = sum of the items handled by block b (grid-stride), through block_sum.
template <typename T>
__global__ void block_sum_test(const T* __restrict__ in, long long n, T* __restrict__ out) {
    T acc = (T)0;
    for (long long i = wg::global_thread_id(); i < n; i += wg::grid_threads()) acc += in[i];
    const T s = wg::block_sum(acc);
    if (threadIdx.x == 0) out[blockIdx.x] = s;
}

#ifdef WARPGRAPH_NVCC_CHECK
#define WG_PRIMS(T)                                                                            \
    template __global__ void warp_primitives_test<T>(const T*, long long, T*, T*, T*, T*, T*); \
    template __global__ void block_sum_test<T>(const T*, long long, T*);
WG_PRIMS(int)
WG_PRIMS(long long)
WG_PRIMS(float)
WG_PRIMS(double)
#undef WG_PRIMS
template __global__ void warp_reserve_test<long long>(const unsigned long long*, long long,
                                                      unsigned long long*, long long*);
template __global__ void warp_count_test<int>(const int*, long long, unsigned long long*);
template __global__ void warp_count_test<long long>(const long long*, long long,
                                                    unsigned long long*);
#endif
