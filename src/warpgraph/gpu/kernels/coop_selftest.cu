// warpgraph: self-test of cooperative (persistent) launches with a grid-wide barrier
// (wg::grid_sync). Launched with launch_cooperative(); tests/test_gpu_loader.py checks it.
//
// Phase 1: each block sums its grid-stride share of `in` into partial[blockIdx.x].
// Barrier: every block's partial is visible to every block.
// Phase 2: every block sums all partials into out[1 + blockIdx.x] (all must equal the total,
// which fails if any block passed the barrier early); block 0 also writes out[0].
// A third phase repeats the barrier `rounds` times, counting arrivals, to exercise reuse.
#include "common.cuh"

template <typename T>
__global__ void grid_sync_sum(const T* __restrict__ in, long long n, T* __restrict__ partial,
                              T* __restrict__ out, unsigned long long* __restrict__ barrier,
                              int rounds, unsigned long long* __restrict__ arrivals) {
    unsigned long long phase = 0;
    T acc = (T)0;
    for (long long i = wg::global_thread_id(); i < n; i += wg::grid_threads()) acc += in[i];
    const T s = wg::block_sum(acc);
    if (threadIdx.x == 0) partial[blockIdx.x] = s;
    wg::grid_sync(barrier, phase);

    T t = (T)0;
    for (long long b = threadIdx.x; b < (long long)gridDim.x; b += blockDim.x) t += partial[b];
    t = wg::block_sum(t);
    if (threadIdx.x == 0) {
        out[1 + blockIdx.x] = t;
        if (blockIdx.x == 0) out[0] = t;
    }

    // arrivals[r] must equal gridDim.x after round r: nobody may run ahead of a barrier
    for (int r = 0; r < rounds; ++r) {
        if (threadIdx.x == 0) atomicAdd(arrivals + r, 1ull);
        wg::grid_sync(barrier, phase);
        if (threadIdx.x == 0 &&
            *(volatile unsigned long long*)(arrivals + r) != (unsigned long long)gridDim.x) {
            atomicAdd(arrivals + rounds, 1ull);  // error count
        }
        wg::grid_sync(barrier, phase);
    }
}

#ifdef WARPGRAPH_NVCC_CHECK
template __global__ void grid_sync_sum<long long>(const long long*, long long, long long*,
                                                  long long*, unsigned long long*, int,
                                                  unsigned long long*);
template __global__ void grid_sync_sum<double>(const double*, long long, double*, double*,
                                               unsigned long long*, int, unsigned long long*);
#endif
