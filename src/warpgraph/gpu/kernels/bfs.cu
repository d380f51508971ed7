// warpgraph: level-synchronous top-down BFS step (stand-in used by the graph statistics, e.g.
// the double-sweep diameter estimate, until the frontier engine of the BFS family lands).
//
// One launch expands one level: each warp takes 32 frontier vertices. Vertices with degree >= 32
// are expanded by the whole warp together (32 neighbours per step, coalesced); the others by
// their own lane. A neighbour is claimed with atomicCAS on its level (-1 -> next_level), so each
// vertex enters the next frontier exactly once; queue slots come from warp_reserve (one atomic
// per warp and step).
#include "common.cuh"

template <typename V>
__device__ __forceinline__ bool bfs_claim(int* levels, V v, int next_level) {
    return levels[v] == -1 && atomicCAS(levels + v, -1, next_level) == -1;
}

template <typename V>
__global__ void bfs_topdown_step(const long long* __restrict__ indptr,
                                 const V* __restrict__ indices, const V* __restrict__ frontier,
                                 long long frontier_size, int* __restrict__ levels,
                                 V* __restrict__ next_frontier,
                                 unsigned long long* __restrict__ next_size, int next_level) {
    const int lane = wg::lane_id();
    for (long long base = wg::warp_base(); base < frontier_size; base += wg::warp_stride()) {
        const long long i = base + lane;
        long long begin = 0, end = 0;
        if (i < frontier_size) {
            const V u = frontier[i];
            begin = wg::ldg(indptr + u);
            end = wg::ldg(indptr + u + 1);
        }
        const long long deg = end - begin;

        // 1. large adjacency lists: the whole warp walks one list at a time
        unsigned big = __ballot_sync(wg::FULL_MASK, deg >= wg::WARP_SIZE);
        while (big) {
            const int owner = __ffs(big) - 1;
            big &= big - 1;
            const long long b = __shfl_sync(wg::FULL_MASK, begin, owner);
            const long long e = __shfl_sync(wg::FULL_MASK, end, owner);
            for (long long jb = b; jb < e; jb += wg::WARP_SIZE) {
                const long long j = jb + lane;
                V v = 0;
                bool claimed = false;
                if (j < e) {
                    v = wg::ldg(indices + j);
                    claimed = bfs_claim(levels, v, next_level);
                }
                const unsigned long long slot =
                    wg::warp_reserve(next_size, (unsigned long long)claimed);
                if (claimed) next_frontier[slot] = v;
            }
        }

        // 2. small adjacency lists: each lane walks its own, in lock-step
        const long long small = deg < wg::WARP_SIZE ? deg : 0;
        const long long steps = wg::warp_max(small);
        for (long long k = 0; k < steps; ++k) {
            V v = 0;
            bool claimed = false;
            if (k < small) {
                v = wg::ldg(indices + begin + k);
                claimed = bfs_claim(levels, v, next_level);
            }
            const unsigned long long slot = wg::warp_reserve(next_size, (unsigned long long)claimed);
            if (claimed) next_frontier[slot] = v;
        }
    }
}

#ifdef WARPGRAPH_NVCC_CHECK
template __global__ void bfs_topdown_step<int>(const long long*, const int*, const int*, long long,
                                               int*, int*, unsigned long long*, int);
template __global__ void bfs_topdown_step<long long>(const long long*, const long long*,
                                                     const long long*, long long, int*, long long*,
                                                     unsigned long long*, int);
#endif
