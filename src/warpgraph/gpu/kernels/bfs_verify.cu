// warpgraph: BFS level checks on the GPU (algorithms/bfs/verify.py, verify_levels_gpu).
//
// The rules of verify_bfs without parents, on the device, one pass over the arcs:
//  R3  every arc u -> v out of a reached u (level >= 0) reaches a reached v at most one level
//      deeper (undirected graphs store both arcs, so an unreached u has no reached neighbour);
//  R0  levels are >= -1, the source is at level 0 and no other vertex is;
//  RP  every reached v other than the source has an in-neighbour at level(v) - 1.
// Together they make every level the exact hop distance and the reached set the source's
// component. bfs_check_vertices takes one warp per vertex (out-arcs of rows shorter than
// `big`, in-arcs with a warp-wide early exit); bfs_check_tiles takes the out-arcs of the long
// rows, one block per tile of a row (tiles listed by the host), so no warp walks a hub alone.
// counts[0] = arcs breaking R3, counts[1] = vertices breaking R0/RP, counts[2] = reached
// vertices; first[0], first[1] = smallest offending vertex of each kind.
#include "common.cuh"

namespace wgverify {

__device__ __forceinline__ void note(unsigned long long* counts, unsigned long long* first,
                                     int which, unsigned long long how_many, long long vertex) {
    atomicAdd(counts + which, how_many);
    atomicMin(first + which, (unsigned long long)vertex);
}

}  // namespace wgverify

template <typename V>
__global__ void bfs_check_vertices(const long long* __restrict__ indptr,
                                   const V* __restrict__ indices,
                                   const long long* __restrict__ rindptr,
                                   const V* __restrict__ rindices, const int* __restrict__ levels,
                                   long long n, long long source, long long big,
                                   unsigned long long* __restrict__ counts,
                                   unsigned long long* __restrict__ first) {
    const int lane = wg::lane_id();
    const long long warps = wg::grid_threads() >> 5;
    for (long long u = wg::global_thread_id() >> 5; u < n; u += warps) {  // warp-uniform
        const int lu = levels[u];
        unsigned long long bad = 0;
        if (lu >= 0) {
            const long long b = indptr[u], e = indptr[u + 1];
            if (e - b < big) {
                for (long long p = b + lane; p < e; p += 32) {
                    const int lv = levels[indices[p]];
                    bad += (lv < 0 || lv > lu + 1) ? 1ull : 0ull;
                }
            }
        }
        bool found = false;
        if (lu > 0) {
            const long long b = rindptr[u], e = rindptr[u + 1];
            for (long long p0 = b; p0 < e; p0 += 32) {  // warp-uniform trip count
                const long long p = p0 + lane;
                const bool hit = p < e && levels[rindices[p]] == lu - 1;
                if (__any_sync(wg::FULL_MASK, hit)) {
                    found = true;
                    break;
                }
            }
        }
        bad = wg::warp_sum(bad);
        if (lane == 0) {
            if (bad) wgverify::note(counts, first, 0, bad, u);
            const bool vbad = lu < -1 || (lu == 0) != (u == source) || (lu > 0 && !found);
            if (vbad) wgverify::note(counts, first, 1, 1ull, u);
            if (lu >= 0) atomicAdd(counts + 2, 1ull);
        }
    }
}

// Out-arcs of long rows: tile t covers arcs [begin[t], end[t]) of row row[t].
template <typename V>
__global__ void bfs_check_tiles(const V* __restrict__ indices, const int* __restrict__ levels,
                                const long long* __restrict__ row,
                                const long long* __restrict__ begin,
                                const long long* __restrict__ end, long long ntiles,
                                unsigned long long* __restrict__ counts,
                                unsigned long long* __restrict__ first) {
    for (long long t = blockIdx.x; t < ntiles; t += gridDim.x) {  // block-uniform
        const long long u = row[t];
        const int lu = levels[u];
        if (lu < 0) continue;
        unsigned long long bad = 0;
        for (long long p = begin[t] + threadIdx.x; p < end[t]; p += blockDim.x) {
            const int lv = levels[indices[p]];
            bad += (lv < 0 || lv > lu + 1) ? 1ull : 0ull;
        }
        bad = wg::warp_sum(bad);
        if (wg::lane_id() == 0 && bad) wgverify::note(counts, first, 0, bad, u);
    }
}

#ifdef WARPGRAPH_NVCC_CHECK
#define WG_BFS_VERIFY(V)                                                                         \
    template __global__ void bfs_check_vertices<V>(const long long*, const V*, const long long*, \
                                                   const V*, const int*, long long, long long,   \
                                                   long long, unsigned long long*,               \
                                                   unsigned long long*);                         \
    template __global__ void bfs_check_tiles<V>(const V*, const int*, const long long*,          \
                                                const long long*, const long long*, long long,   \
                                                unsigned long long*, unsigned long long*);
WG_BFS_VERIFY(int)
WG_BFS_VERIFY(long long)
#undef WG_BFS_VERIFY
#endif
