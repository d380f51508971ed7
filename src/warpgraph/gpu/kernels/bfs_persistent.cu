// warpgraph BFS, persistent mode: the whole traversal in one cooperative launch, levels
// separated by grid-wide barriers (Helix's "single kernel call"; SIMD-X's persistent kernels).
// No host round trip per level, which is what makes graphs with thousands of levels (roads,
// grids) fast, and keeps small-diameter graphs free of launch overhead.
//
// Per level: choose the direction (every block computes the same choice from the same
// counters), expand (top-down with policy LB, or bottom-up), barrier; if the update mode is
// "status" or a queue overflowed (duplicates), generate the next queue from the status array
// (two passes, two barriers). The barrier (frontier_sync.cuh; its two words follow the
// generation counters in `scratch`) needs every block resident: launch with launch_cooperative
// (or a plain launch of at most the occupancy limit). Launch with blockDim = BLOCK.
#include "frontier_bfs.cuh"
#include "frontier_sync.cuh"

using namespace wg::bfs;

template <typename V, int LB>
__global__ void __launch_bounds__(BLOCK, WG_BFS_MIN_BLOCKS) bfs_persistent(
    const long long* indptr, const V* indices, const long long* rindptr, const V* rindices,
    int* levels, V* parents, unsigned char* vis8, V* q0, V* q1, V* big0, V* big1, V* eu, V* ev,
    const long long* pre, V* hubs, unsigned long long* ctl, unsigned long long* scratch,
    const long long* cfg, V source) {
    static_assert(LB != LB_MERGE_PATH, "merge-path needs the level-synchronous mode");
    constexpr bool bins = LB == LB_BINS;
    __shared__ unsigned long long s_hash[BLOCK_HASH];
    __shared__ V s_hc[HUB_LIST];
    Ctx<V> c;
    load_ctx(c, indptr, indices, rindptr, rindices, levels, parents, vis8, q0, q1, big0, big1, eu,
             ev, pre, hubs, ctl, scratch, cfg);
    unsigned long long* bar = scratch + (long long)GEN_ROWS * gridDim.x;
    init_bfs(c, source, bins);
    grid_barrier(bar);

    const int update = (int)c.cfg[C_UPDATE];
    const long long sdeg = wg::ldg(indptr + source + 1) - wg::ldg(indptr + source);
    DirState st = start_direction(c.cfg[C_ARCS], sdeg, c.cfg[C_TAU]);
    unsigned long long path = 0;
    long long td = 0, bu = 0, regen = 0;
    const long long max_steps = c.cfg[C_N] + 1;
    long long d = 0;
    for (; d < max_steps; ++d) {
        choose_direction(st, c.cfg);
        expand_level<LB>(c, (int)d, st.dir, update, s_hash, s_hc);
        if (st.dir == BOTTOM_UP) {
            ++bu;
            if (d < 64) path |= 1ull << d;
        } else {
            ++td;
        }
        grid_barrier(bar);
        if (update == UPDATE_STATUS || overflowed(c, (int)d, bins)) {
            regen += update != UPDATE_STATUS;
            gen_count(c, (int)d + 1, bins, (int)d);
            grid_barrier(bar);
            gen_write(c, (int)d + 1, bins, (int)d);
            grid_barrier(bar);
        }
        const volatile unsigned long long* s = slot_of(c.ctl, (int)d);
        const long long count = slot_count(s, bins);
        after_step(st, c.cfg, count, (long long)s[S_DEGSUM], (long long)s[S_HUBS]);
        if (count == 0) break;
    }
    if (blockIdx.x == 0 && threadIdx.x == 0) {
        unsigned long long* g = ctl + CTL_GLOBAL;
        g[G_DEPTH] = (unsigned long long)(d + 1);
        g[G_TD] = (unsigned long long)td;
        g[G_BU] = (unsigned long long)bu;
        g[G_REGEN] = (unsigned long long)regen;
        g[G_PATH] = path;
    }
}

#ifdef WARPGRAPH_NVCC_CHECK
#define WG_BFS_ARGS(V)                                                                            \
    const long long*, const V*, const long long*, const V*, int*, V*, unsigned char*, V*, V*, V*, \
        V*, V*, V*, const long long*, V*, unsigned long long*, unsigned long long*, const long long*
#define WG_BFS_PERSISTENT(V, LB) template __global__ void bfs_persistent<V, LB>(WG_BFS_ARGS(V), V);
#define WG_BFS_PERSISTENT_ALL(V)                                                            \
    WG_BFS_PERSISTENT(V, 0) WG_BFS_PERSISTENT(V, 1) WG_BFS_PERSISTENT(V, 2)                 \
    WG_BFS_PERSISTENT(V, 3) WG_BFS_PERSISTENT(V, 4) WG_BFS_PERSISTENT(V, 5)                 \
    WG_BFS_PERSISTENT(V, 6) WG_BFS_PERSISTENT(V, 7)
WG_BFS_PERSISTENT_ALL(int)
WG_BFS_PERSISTENT_ALL(long long)
#endif
