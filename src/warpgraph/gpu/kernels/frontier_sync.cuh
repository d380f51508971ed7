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

// Ticket barrier on one word that only ever grows: barrier k of a launch takes the tickets
// [k * G, (k + 1) * G) (G = gridDim.x), so a block waits until the word reaches the end of its
// ticket's group. The last block to arrive releases the others by its arrival alone (no reset,
// no generation word): one atomic round trip less on the critical path than grid_barrier. Valid
// when every launch that uses the word has the same grid size and completes every barrier it
// starts (the word then stays a multiple of G between launches); the word must start at zero.
__device__ __forceinline__ void grid_barrier_ticket(u64* word) {
    __syncthreads();
    if (threadIdx.x == 0) {
        const u64 g = (u64)gridDim.x;
        __threadfence();  // publish the block's writes (after its __syncthreads) device-wide
        const u64 ticket = atomicAdd(word, 1ull);
        const u64 target = (ticket / g + 1ull) * g;
        if (ticket + 1ull != target) {
            const volatile u64* vw = word;
            while (*vw < target) __nanosleep(20);
        }
        __threadfence();
    }
    __syncthreads();
}

}  // namespace fr
}  // namespace wg
