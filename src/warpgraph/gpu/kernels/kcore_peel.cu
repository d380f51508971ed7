// warpgraph: core decomposition by parallel peeling (level-synchronous, as k-core in SIMD-X).
//
// Level k removes every remaining vertex of degree <= k, repeatedly, and gives it core number k.
//   kcore_scan: remaining vertices with deg <= k get core = k and enter the queue;
//   kcore_peel_rounds: one round; one warp per queued vertex; each lane decrements the degree
//               of a remaining neighbour with an atomic; the one decrement that takes it from
//               k + 1 to k (exactly one, whatever the interleaving) sets its core and queues
//               it. The queue length is read on the device (the previous round's counter) and
//               the grid is fixed, so the host queues many rounds back to back and reads one
//               counter per batch: a level peeled from a boundary inwards (a lattice: one round
//               per row) costs a launch per round, not a host round trip.
// The host repeats rounds until the queue is empty, then jumps k to the smallest remaining
// degree. Degrees of removed vertices are never read again, so decrementing them is harmless;
// skipping neighbours whose core is already set only saves atomics.
#include "common.cuh"

namespace {
// One queued vertex per warp: decrement the remaining neighbours' degrees, queue those that drop
// to k (each exactly once) into next.
template <typename Id>
__device__ __forceinline__ void peel_vertex(const long long* __restrict__ indptr,
                                            const Id* __restrict__ indices, long long v,
                                            long long* __restrict__ deg,
                                            long long* __restrict__ core, long long k,
                                            long long* __restrict__ next,
                                            unsigned long long* nlen) {
    const long long start = wg::ldg(indptr + v), end = wg::ldg(indptr + v + 1);
    // warp-uniform loop over the row: every lane runs the same iterations (warp_reserve)
    for (long long base = start; base < end; base += wg::WARP_SIZE) {
        const long long p = base + wg::lane_id();
        bool push = false;
        long long u = 0;
        if (p < end) {
            u = (long long)wg::ldg(indices + p);
            if (core[u] < 0) {
                const long long old =
                    (long long)atomicAdd((unsigned long long*)(deg + u), ~0ULL);  // -= 1
                if (old == k + 1) {
                    core[u] = k;
                    push = true;
                }
            }
        }
        const unsigned long long slot = wg::warp_reserve(nlen, push ? 1ULL : 0ULL);
        if (push) next[slot] = u;
    }
}
}  // namespace

__global__ void kcore_scan(long long* __restrict__ deg, long long* __restrict__ core, long long n,
                           long long k, long long* __restrict__ queue, unsigned long long* qlen) {
    for (long long base = wg::warp_base(); base < n; base += wg::warp_stride()) {
        const long long v = base + wg::lane_id();
        const bool take = v < n && core[v] < 0 && deg[v] <= k;
        if (take) core[v] = k;
        const unsigned long long slot = wg::warp_reserve(qlen, take ? 1ULL : 0ULL);
        if (take) queue[slot] = v;
    }
}

template <typename Id>
__global__ void kcore_peel_rounds(const long long* __restrict__ indptr,
                                  const Id* __restrict__ indices,
                                  const long long* __restrict__ queue,
                                  const unsigned long long* __restrict__ qlen,
                                  long long* __restrict__ deg, long long* __restrict__ core,
                                  long long k, long long* __restrict__ next,
                                  unsigned long long* nlen) {
    const long long size = (long long)*qlen;  // written by the previous launch: final here
    const long long warps = wg::grid_threads() / wg::WARP_SIZE;
    for (long long i = wg::global_thread_id() / wg::WARP_SIZE; i < size; i += warps)
        peel_vertex(indptr, indices, queue[i], deg, core, k, next, nlen);
}

#ifdef WARPGRAPH_NVCC_CHECK
template __global__ void kcore_peel_rounds<int>(const long long*, const int*, const long long*,
                                                const unsigned long long*, long long*, long long*,
                                                long long, long long*, unsigned long long*);
template __global__ void kcore_peel_rounds<long long>(const long long*, const long long*,
                                                      const long long*, const unsigned long long*,
                                                      long long*, long long*, long long,
                                                      long long*, unsigned long long*);
#endif
