// warpgraph frontier operators: grid-wide barrier of the persistent kernels.
//
// A sense-counting barrier on two global words (SIMD-X's "deadlock-free" barrier): correct when
// every block of the grid is resident at once, which a cooperative launch guarantees (and a plain
// launch of at most the occupancy-calculator's number of blocks achieves on an idle GPU). The
// words must be zero before the first launch; every completed barrier leaves them reusable, so
// no reset between launches is needed (unlike wg::grid_sync in common.cuh). Needs no CUDA header.
#pragma once

#include "common.cuh"

namespace wg {
namespace fr {

// bar[0]: arrivals at the current barrier, bar[1]: barriers completed (generation).
__device__ __forceinline__ void grid_barrier(u64* bar) {
    __syncthreads();
    if (threadIdx.x == 0) {
        volatile u64* vb = bar;
        const u64 gen = vb[1];
        __threadfence();  // publish the block's writes (after its __syncthreads) device-wide
        const u64 arrived = atomicAdd(bar, 1ull) + 1ull;
        if (arrived == (u64)gridDim.x) {
            atomicExch(bar, 0ull);
            __threadfence();
            atomicAdd(bar + 1, 1ull);
        } else {
            while (vb[1] == gen) __nanosleep(32);
        }
        __threadfence();
    }
    __syncthreads();
}

}  // namespace fr
}  // namespace wg
