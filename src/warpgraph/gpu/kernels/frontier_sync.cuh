// warpgraph frontier operators: grid-wide barrier of the persistent kernels.
//
// A sense-counting barrier on two global words (SIMD-X's "deadlock-free" barrier): correct when
// every block of the grid is resident at once, which a cooperative launch guarantees (and a plain
// launch of at most the occupancy-calculator's number of blocks achieves on an idle GPU). The
// words must be zero before the first launch; every completed barrier leaves them reusable, so
// no reset between launches is needed (unlike wg::grid_sync in common.cuh). Needs no CUDA header.
#pragma once

#include "frontier_core.cuh"

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

// Acquire-release add and acquire load at GPU scope (PTX, sm_70+): the ordering of
// __threadfence() + atomicAdd + __threadfence() and of a volatile load + __threadfence(),
// without the full (sequentially consistent) fences. The add must acquire too: the last block
// to arrive never polls, and without an acquire its SM's L1 may keep lines that other blocks
// have since written (with a release-only add one GPU test run, 2026-11-21, lost one vertex
// in a bottom-up step: the likely cause).
__device__ __forceinline__ u64 atomic_add_acq_rel_gpu(u64* p, u64 v) {
    u64 old;
    asm volatile("atom.acq_rel.gpu.global.add.u64 %0, [%1], %2;" : "=l"(old) : "l"(p), "l"(v) : "memory");
    return old;
}

__device__ __forceinline__ u64 load_acquire_gpu(const u64* p) {
    u64 v;
    asm volatile("ld.acquire.gpu.global.u64 %0, [%1];" : "=l"(v) : "l"(p) : "memory");
    return v;
}

// Counter-fused barrier, one counter word: the calling thread adds its block's arrival
// (ARRIVE, bits ARRIVE_SHIFT and up) to `word`, then waits until gridDim.x blocks have arrived;
// returns the word's count (the low bits), final once every block has arrived. Each block's
// arrival comes after its own updates of the word (the caller puts a __syncthreads before), so
// the value read with the last arrival includes every block's updates: the barrier and the read
// of the level's counter are one round trip, not two. Every block must call it once per use of
// the word, from a thread that the block's __syncthreads orders after its writes; the word must
// hold no arrivals before the first call (cleared between uses: see the BFS's rotating slots),
// and the grid must have fewer than 2^(64 - ARRIVE_SHIFT) blocks. Needs all blocks resident.
__device__ __forceinline__ u64 fused_arrive_wait(u64* word) {
    const u64 g = (u64)gridDim.x;
    u64 x = atomic_add_acq_rel_gpu(word, ARRIVE) + ARRIVE;
    while ((x >> ARRIVE_SHIFT) < g) {
        __nanosleep(20);
        x = load_acquire_gpu(word);
    }
    return x & COUNT_MASK;
}

}  // namespace fr
}  // namespace wg
