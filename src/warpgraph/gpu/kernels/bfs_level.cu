// warpgraph BFS, level-synchronous mode: one launch per step, the host loop in between
// (warpgraph/algorithms/bfs/gpu.py). Helix's "multiple kernel calls": each level gets a fresh
// launch, so any load-balancing policy works, including merge-path (its prefix sum of degrees is
// computed between launches) and the edge frontier (advance into an edge queue, then filter).
//
// All kernels take the same arrays (null where a strategy does not use one) and the
// configuration words `cfg` (frontier_bfs.cuh, enum Config). Launch with blockDim = BLOCK.
#include "frontier_bfs.cuh"

using namespace wg::bfs;

// levels/parents/bitmask/control block initialised, source placed as frontier 0.
template <typename V>
__global__ void __launch_bounds__(BLOCK, WG_BFS_MIN_BLOCKS) bfs_init(
    const long long* indptr, const V* indices, const long long* rindptr, const V* rindices,
    int* levels, V* parents, unsigned char* vis8, V* q0, V* q1, V* big0, V* big1, V* eu, V* ev,
    const long long* pre, V* hubs, unsigned long long* ctl, unsigned long long* scratch,
    const long long* cfg, V source, int bins) {
    Ctx<V> c;
    load_ctx(c, indptr, indices, rindptr, rindices, levels, parents, vis8, q0, q1, big0, big1, eu,
             ev, pre, hubs, ctl, scratch, cfg);
    init_bfs(c, source, bins != 0);
}

// Expand frontier d into frontier d + 1 (dir: 0 top-down with policy LB, 1 bottom-up).
// sink_mode: Update code, or 3 = into the edge queue (then bfs_filter_edges claims).
template <typename V, int LB>
__global__ void __launch_bounds__(BLOCK, WG_BFS_MIN_BLOCKS) bfs_level_step(
    const long long* indptr, const V* indices, const long long* rindptr, const V* rindices,
    int* levels, V* parents, unsigned char* vis8, V* q0, V* q1, V* big0, V* big1, V* eu, V* ev,
    const long long* pre, V* hubs, unsigned long long* ctl, unsigned long long* scratch,
    const long long* cfg, int d, int dir, int sink_mode) {
    __shared__ unsigned long long s_hash[BLOCK_HASH];
    __shared__ V s_hc[HUB_LIST];
    Ctx<V> c;
    load_ctx(c, indptr, indices, rindptr, rindices, levels, parents, vis8, q0, q1, big0, big1, eu,
             ev, pre, hubs, ctl, scratch, cfg);
    expand_level<LB>(c, d, dir, sink_mode, s_hash, s_hc);
}

// Claim the targets of the edge queue built by step d into frontier d + 1.
template <typename V>
__global__ void __launch_bounds__(BLOCK, WG_BFS_MIN_BLOCKS) bfs_filter_edges(
    const long long* indptr, const V* indices, const long long* rindptr, const V* rindices,
    int* levels, V* parents, unsigned char* vis8, V* q0, V* q1, V* big0, V* big1, V* eu, V* ev,
    const long long* pre, V* hubs, unsigned long long* ctl, unsigned long long* scratch,
    const long long* cfg, int d) {
    __shared__ unsigned long long s_hash[BLOCK_HASH];
    Ctx<V> c;
    load_ctx(c, indptr, indices, rindptr, rindices, levels, parents, vis8, q0, q1, big0, big1, eu,
             ev, pre, hubs, ctl, scratch, cfg);
    filter_edges(c, d, s_hash);
}

// Frontier generation from the status array, pass 1 (counts per block) and pass 2 (writes);
// both passes must run with the same grid. target = d + 1.
template <typename V>
__global__ void __launch_bounds__(BLOCK, WG_BFS_MIN_BLOCKS) bfs_gen_count(
    const long long* indptr, const V* indices, const long long* rindptr, const V* rindices,
    int* levels, V* parents, unsigned char* vis8, V* q0, V* q1, V* big0, V* big1, V* eu, V* ev,
    const long long* pre, V* hubs, unsigned long long* ctl, unsigned long long* scratch,
    const long long* cfg, int d, int bins) {
    Ctx<V> c;
    load_ctx(c, indptr, indices, rindptr, rindices, levels, parents, vis8, q0, q1, big0, big1, eu,
             ev, pre, hubs, ctl, scratch, cfg);
    gen_count(c, d + 1, bins != 0, d);
}

template <typename V>
__global__ void __launch_bounds__(BLOCK, WG_BFS_MIN_BLOCKS) bfs_gen_write(
    const long long* indptr, const V* indices, const long long* rindptr, const V* rindices,
    int* levels, V* parents, unsigned char* vis8, V* q0, V* q1, V* big0, V* big1, V* eu, V* ev,
    const long long* pre, V* hubs, unsigned long long* ctl, unsigned long long* scratch,
    const long long* cfg, int d, int bins) {
    Ctx<V> c;
    load_ctx(c, indptr, indices, rindptr, rindices, levels, parents, vis8, q0, q1, big0, big1, eu,
             ev, pre, hubs, ctl, scratch, cfg);
    gen_write(c, d + 1, bins != 0, d);
}

// After the last level: unreached vertices -1 (with C_DEGREE_STATUS they hold -(degree + 1)).
template <typename V>
__global__ void __launch_bounds__(BLOCK, WG_BFS_MIN_BLOCKS) bfs_finalize(
    const long long* indptr, const V* indices, const long long* rindptr, const V* rindices,
    int* levels, V* parents, unsigned char* vis8, V* q0, V* q1, V* big0, V* big1, V* eu, V* ev,
    const long long* pre, V* hubs, unsigned long long* ctl, unsigned long long* scratch,
    const long long* cfg) {
    Ctx<V> c;
    load_ctx(c, indptr, indices, rindptr, rindices, levels, parents, vis8, q0, q1, big0, big1, eu,
             ev, pre, hubs, ctl, scratch, cfg);
    finalize_levels(c);
}

// out[i] = out-degree of q[i] (merge-path: the host turns it into an inclusive prefix sum).
template <typename V>
__global__ void bfs_frontier_degrees(const long long* __restrict__ indptr, const V* __restrict__ q,
                                     long long qn, long long* __restrict__ out) {
    for (long long i = wg::global_thread_id(); i < qn; i += wg::grid_threads()) {
        const V u = q[i];
        out[i] = wg::ldg(indptr + u + 1) - wg::ldg(indptr + u);
    }
}

#ifdef WARPGRAPH_NVCC_CHECK
#define WG_BFS_ARGS(V)                                                                            \
    const long long*, const V*, const long long*, const V*, int*, V*, unsigned char*, V*, V*, V*, \
        V*, V*, V*, const long long*, V*, unsigned long long*, unsigned long long*, const long long*
#define WG_BFS_STEP(V, LB) template __global__ void bfs_level_step<V, LB>(WG_BFS_ARGS(V), int, int, int);
#define WG_BFS_LEVEL(V)                                                                  \
    template __global__ void bfs_init<V>(WG_BFS_ARGS(V), V, int);                        \
    template __global__ void bfs_filter_edges<V>(WG_BFS_ARGS(V), int);                   \
    template __global__ void bfs_gen_count<V>(WG_BFS_ARGS(V), int, int);                 \
    template __global__ void bfs_gen_write<V>(WG_BFS_ARGS(V), int, int);                 \
    template __global__ void bfs_finalize<V>(WG_BFS_ARGS(V));                             \
    template __global__ void bfs_frontier_degrees<V>(const long long*, const V*, long long, \
                                                     long long*);                        \
    WG_BFS_STEP(V, 0) WG_BFS_STEP(V, 1) WG_BFS_STEP(V, 2) WG_BFS_STEP(V, 3) WG_BFS_STEP(V, 4) \
    WG_BFS_STEP(V, 5) WG_BFS_STEP(V, 6) WG_BFS_STEP(V, 7) WG_BFS_STEP(V, 8)
WG_BFS_LEVEL(int)
WG_BFS_LEVEL(long long)
#endif
