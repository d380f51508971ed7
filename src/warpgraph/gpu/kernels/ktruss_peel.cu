// warpgraph: truss decomposition, one peeling round (level-synchronous, triangle subtraction as in
// Green et al.'s cuSTINGER k-truss, seed 000 ch. 19, on a static CSR with edge states).
//
// Edges are the arcs of the rank-space oriented graph (osrc[e] -> oidx[e]); the full adjacency
// (both directions, rows sorted) carries the edge id of every entry (feid). state[e]: 0 alive,
// 1 in the current frontier (support <= level, being removed now), 2 removed earlier.
//
// A group of GROUP lanes per frontier edge e = (u, v) intersects the rows of u and v (strides
// the shorter, binary-searches the longer). For each common w with edges e1 = (u, w), e2 = (v, w):
//   - e1 or e2 removed earlier: the triangle is already gone;
//   - e1 and e2 both in the frontier: the triangle dies with no survivor to update;
//   - exactly one of them (say e1) in the frontier: e2 loses this triangle once, decremented by
//     the smaller of e and e1 (the tie-break that keeps a triangle from being subtracted twice);
//   - both alive: both lose one.
// A decrement that takes a support from level + 1 to level (exactly one does) queues the edge
// for the next round of the same level.
#include "common.cuh"

namespace ktruss {

template <typename Id>
__device__ __forceinline__ long long lower_bound(const Id* __restrict__ a, long long lo,
                                                 long long hi, Id x) {
    while (lo < hi) {
        const long long mid = (lo + hi) >> 1;
        if (wg::ldg(a + mid) < x) {
            lo = mid + 1;
        } else {
            hi = mid;
        }
    }
    return lo;
}

__device__ __forceinline__ void drop(long long f, long long* sup, long long level, long long* next,
                                     unsigned long long* nlen) {
    const long long old = (long long)atomicAdd((unsigned long long*)(sup + f), ~0ULL);  // -= 1
    if (old == level + 1) next[atomicAdd(nlen, 1ULL)] = f;
}

}  // namespace ktruss

template <typename Id, int GROUP>
__global__ void ktruss_peel(const Id* __restrict__ osrc, const Id* __restrict__ oidx,
                            const long long* __restrict__ fptr, const Id* __restrict__ fidx,
                            const long long* __restrict__ feid,
                            const long long* __restrict__ frontier, long long size,
                            const signed char* __restrict__ state, long long* sup,
                            long long level, long long* next, unsigned long long* nlen) {
    const int lane = (int)(threadIdx.x % GROUP);
    const long long ngroups = wg::grid_threads() / GROUP;
    for (long long i = wg::global_thread_id() / GROUP; i < size; i += ngroups) {
        const long long e = frontier[i];
        const Id u = osrc[e], v = oidx[e];
        long long s0 = fptr[u], se = fptr[u + 1];
        long long l0 = fptr[v], le = fptr[v + 1];
        const bool swap = (se - s0) > (le - l0);
        if (swap) {
            long long t = s0;
            s0 = l0;
            l0 = t;
            t = se;
            se = le;
            le = t;
        }
        long long lo = l0;
        for (long long k = s0 + lane; k < se; k += GROUP) {
            const Id w = fidx[k];
            lo = ktruss::lower_bound(fidx, lo, le, w);
            if (lo >= le) break;
            if (fidx[lo] != w) continue;
            const long long e1 = feid[k], e2 = feid[lo];
            const signed char s1 = state[e1], s2 = state[e2];
            if (s1 == 2 || s2 == 2 || (s1 == 1 && s2 == 1)) continue;
            if (s1 == 1) {
                if (e < e1) ktruss::drop(e2, sup, level, next, nlen);
            } else if (s2 == 1) {
                if (e < e2) ktruss::drop(e1, sup, level, next, nlen);
            } else {
                ktruss::drop(e1, sup, level, next, nlen);
                ktruss::drop(e2, sup, level, next, nlen);
            }
        }
    }
}

#ifdef WARPGRAPH_NVCC_CHECK
template __global__ void ktruss_peel<int, 8>(const int*, const int*, const long long*, const int*,
                                             const long long*, const long long*, long long,
                                             const signed char*, long long*, long long,
                                             long long*, unsigned long long*);
template __global__ void ktruss_peel<long long, 8>(const long long*, const long long*,
                                                   const long long*, const long long*,
                                                   const long long*, const long long*, long long,
                                                   const signed char*, long long*, long long,
                                                   long long*, unsigned long long*);
#endif
