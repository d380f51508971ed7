// warpgraph: device helpers shared by every kernel source.
//
// Conventions (docs/GPU.md): vertex ids are `int` (int32) while n < 2^31 and `long long` beyond;
// row offsets and edge positions are always 64-bit (`eid_t`). Kernels are templates on the id
// type, use grid-stride loops (the launcher caps the grid), and are launched with a block size
// that is a multiple of 32, so the warp-level helpers below may assume full warps.
//
// Only compiler built-ins are used (no standard-library headers), so that a source compiles
// unchanged with NVRTC (run time, through CuPy) and with nvcc (tools/check_kernels).
#pragma once

namespace wg {

using eid_t = long long;          // row offsets / edge positions: always 64-bit
using u64 = unsigned long long;   // packed keys, counters
constexpr unsigned FULL_MASK = 0xffffffffu;
constexpr int WARP_SIZE = 32;

// ---- indexing -------------------------------------------------------------------------------

__device__ __forceinline__ long long global_thread_id() {
    return (long long)blockIdx.x * blockDim.x + threadIdx.x;
}

__device__ __forceinline__ long long grid_threads() { return (long long)gridDim.x * blockDim.x; }

__device__ __forceinline__ int lane_id() { return (int)(threadIdx.x & (WARP_SIZE - 1)); }

// First item of this thread's warp in a warp-uniform grid-stride loop, and the stride:
//   for (long long base = warp_base(); base < n; base += warp_stride()) { i = base + lane_id(); }
// Every lane of a warp runs the same iterations, so warp collectives are legal in the body.
__device__ __forceinline__ long long warp_base() {
    return global_thread_id() & ~(long long)(WARP_SIZE - 1);
}

__device__ __forceinline__ long long warp_stride() { return grid_threads(); }

// ---- read-only loads ------------------------------------------------------------------------

template <typename T>
__device__ __forceinline__ T ldg(const T* p) {
    return __ldg(p);
}

// ---- warp reductions and scans (full warp, all 32 lanes must call) --------------------------

template <typename T>
__device__ __forceinline__ T warp_sum(T v) {
    for (int o = WARP_SIZE / 2; o > 0; o >>= 1) v += __shfl_xor_sync(FULL_MASK, v, o);
    return v;
}

template <typename T>
__device__ __forceinline__ T warp_max(T v) {
    for (int o = WARP_SIZE / 2; o > 0; o >>= 1) {
        T other = __shfl_xor_sync(FULL_MASK, v, o);
        v = other > v ? other : v;
    }
    return v;
}

template <typename T>
__device__ __forceinline__ T warp_min(T v) {
    for (int o = WARP_SIZE / 2; o > 0; o >>= 1) {
        T other = __shfl_xor_sync(FULL_MASK, v, o);
        v = other < v ? other : v;
    }
    return v;
}

// Inclusive prefix sum over the lanes of a warp (Kogge-Stone with shuffles).
template <typename T>
__device__ __forceinline__ T warp_inclusive_sum(T v) {
    const int lane = lane_id();
    for (int o = 1; o < WARP_SIZE; o <<= 1) {
        T up = __shfl_up_sync(FULL_MASK, v, o);
        if (lane >= o) v += up;
    }
    return v;
}

template <typename T>
__device__ __forceinline__ T warp_exclusive_sum(T v) {
    return warp_inclusive_sum(v) - v;
}

// Reserve `want` consecutive slots of a global counter for each lane with one atomic per warp;
// returns this lane's first slot. Typical use: appending to a frontier queue.
template <typename C>
__device__ __forceinline__ C warp_reserve(C* counter, C want) {
    const C incl = warp_inclusive_sum(want);
    const C total = __shfl_sync(FULL_MASK, incl, WARP_SIZE - 1);
    C base = 0;
    if (lane_id() == WARP_SIZE - 1 && total != 0) base = atomicAdd(counter, total);
    base = __shfl_sync(FULL_MASK, base, WARP_SIZE - 1);
    return base + incl - want;
}

// Add 1 to counts[key] for each lane with `valid` set, one atomic per distinct key in the warp
// (__match_any_sync groups equal keys; sm_70+). Cuts contention on sorted or skewed inputs.
template <typename K>
__device__ __forceinline__ void warp_aggregated_count(u64* counts, K key, bool valid) {
    const unsigned peers = __match_any_sync(FULL_MASK, valid ? key : (K)-1);
    const int leader = __ffs(peers) - 1;
    if (valid && lane_id() == leader) atomicAdd(counts + key, (u64)__popc(peers));
}

// ---- block reduction (all threads of the block must call; blockDim.x % 32 == 0) -------------

template <typename T>
__device__ __forceinline__ T block_sum(T v) {
    __shared__ T partial[32];
    const int lane = lane_id();
    const int warp = (int)(threadIdx.x / WARP_SIZE);
    const int nwarps = (int)(blockDim.x / WARP_SIZE);
    v = warp_sum(v);
    if (lane == 0) partial[warp] = v;
    __syncthreads();
    T r = (threadIdx.x < (unsigned)nwarps) ? partial[threadIdx.x] : (T)0;
    if (warp == 0) r = warp_sum(r);
    __syncthreads();  // partial[] may be reused by the next call
    return r;         // valid in thread 0
}

// ---- grid-wide barrier for persistent kernels ------------------------------------------------

// Barrier across all blocks of a grid launched with launch_cooperative() (which guarantees that
// every block is resident, so spinning cannot deadlock). `counter` is one 64-bit word zeroed
// before the launch and shared by all barriers of that launch; `phase` is a per-thread register
// starting at 0. Arrivals only ever increase the counter, so barrier k of the launch completes
// when it reaches k * gridDim.x: no reset, no wrap-around. Needs no CUDA header and no
// relocatable device code (cooperative_groups::this_grid().sync() is the alternative where the
// CUDA headers are installed).
__device__ __forceinline__ void grid_sync(unsigned long long* counter, unsigned long long& phase) {
    __threadfence();  // publish this thread's writes device-wide
    __syncthreads();
    phase += 1;
    if (threadIdx.x == 0) {
        atomicAdd(counter, 1ull);
        const unsigned long long target = phase * (unsigned long long)gridDim.x;
        while (*(volatile unsigned long long*)counter < target) __nanosleep(32);
        __threadfence();
    }
    __syncthreads();
}

// ---- atomics on the id types ----------------------------------------------------------------

__device__ __forceinline__ int atomic_cas(int* p, int expected, int desired) {
    return atomicCAS(p, expected, desired);
}

__device__ __forceinline__ long long atomic_cas(long long* p, long long expected, long long desired) {
    return (long long)atomicCAS((u64*)p, (u64)expected, (u64)desired);
}

}  // namespace wg
