// warpgraph BFS, persistent mode: the whole traversal in one cooperative launch, levels
// separated by grid-wide barriers (Helix's "single kernel call"; SIMD-X's persistent kernels).
// No host round trip per level, which is what makes graphs with thousands of levels (roads,
// grids) fast, and keeps small-diameter graphs free of launch overhead.
//
// Per level: choose the direction (every block computes the same choice from the same
// counters), expand (top-down with policy LB, or bottom-up), barrier, read the new frontier's
// counters once (they serve the direction rule and the next expansion). With C_FUSED_SYNC the
// barrier and the read are one: every block adds its arrival to the counter words themselves
// (fused_level_barrier); otherwise a ticket barrier, then one thread reads the words. Small
// top-down levels (frontier out-arcs <= C_CLAIM_LIMIT) claim by atomicMin without a status
// read (Visit, "direct"). If the update mode is
// "status" or a queue overflowed (duplicates), generate the next queue from the status array
// (two passes, two barriers); so does a count-only step (C_COUNT_BU, C_COUNT_ARCS: no queue
// written, one atomic per warp on the counters) when the next step is top-down. After the last level, unreached vertices get -1
// (finalize_levels). The barrier (frontier_sync.cuh, the ticket barrier on the word after the
// generation counters in `scratch`; every launch of a plan has the same grid) needs every block
// resident: launch with launch_cooperative (or a plain launch of at most the occupancy limit).
// Launch with blockDim = BLOCK.
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
    // the configuration words in shared memory: each level's acquire (barrier) may drop L1
    // lines, and they are read at the start of every level, on its critical path (not in the
    // register-bound bins kernel, where the generic loads cost spills)
    __shared__ long long s_cfg[C_WORDS];
    if (threadIdx.x < C_WORDS) s_cfg[threadIdx.x] = wg::ldg(cfg + threadIdx.x);
    __syncthreads();
    Ctx<V> c;
    load_ctx(c, indptr, indices, rindptr, rindices, levels, parents, vis8, q0, q1, big0, big1, eu,
             ev, pre, hubs, ctl, scratch, bins ? cfg : s_cfg);
    unsigned long long* bar = scratch + (long long)GEN_ROWS * gridDim.x;
#ifdef WG_BFS_PROFILE
    const unsigned long long t_entry = global_timer();
    c.prof = bar + PROF_OFFSET;
    if (blockIdx.x == 0) {
        for (int k = threadIdx.x; k < PROF_WORDS; k += BLOCK) c.prof[k] = 0;
        __syncthreads();
        if (threadIdx.x == 0) c.prof[PROF_T0] = t_entry;
    }
#endif
    init_bfs(c, source, bins);
    grid_barrier_ticket(bar);
#ifdef WG_BFS_PROFILE
    if (blockIdx.x == 0 && threadIdx.x == 0) c.prof[PROF_T_INIT] = global_timer();
#endif

    const int update = (int)c.cfg[C_UPDATE];
    const long long sdeg = wg::ldg(indptr + source + 1) - wg::ldg(indptr + source);
    DirState st = start_direction(c.cfg[C_ARCS], sdeg, c.cfg[C_TAU]);
    unsigned long long path = 0;
    long long td = 0, bu = 0, regen = 0;
    const long long max_steps = c.cfg[C_N] + 1;
    // the words of the frontier being expanded, read once (by one thread, into shared memory)
    // after the barrier that completed it; they serve the direction rule and the next expansion
    // (frontier 0, the source, was counted by init_bfs and is read from memory)
    __shared__ long long s_words[S_EDGES];
    bool have = false;
    bool decided = false;  // the direction of level d was chosen at the end of level d - 1
    long long reached = 1;  // vertices reached so far (C_COUNT_BU's rule)
    long long d = 0;
    for (; d < max_steps; ++d) {
        if (!decided) choose_direction(st, c.cfg);
        decided = false;
        const int dir = st.dir;
        const long long arcs_out = have ? s_words[S_DEGSUM] : sdeg;  // frontier d's out-arcs
        const long long claim_limit = c.at(C_CLAIM_LIMIT);  // read per level: fewer live registers
        // not in the bins kernel (compiled out): it is register-bound, the extra state spills
        const bool direct =
            !bins && dir == TOP_DOWN && claim_limit > 0 && arcs_out <= claim_limit;
        // count-only steps (SINK_COUNT): bottom-up with C_COUNT_BU, top-down above C_COUNT_ARCS
        const long long count_arcs = c.at(C_COUNT_ARCS);
        const long long count_bu = c.at(C_COUNT_BU);
        const bool count_only =
            update != UPDATE_STATUS &&
            (dir == BOTTOM_UP ? count_bu > 0 && c.at(C_HAS_IN) - reached >= count_bu
                              : count_arcs > 0 && arcs_out > count_arcs);
        expand_level<LB>(c, (int)d, dir, count_only ? SINK_COUNT : update, s_hash, s_hc,
                         have ? s_words : nullptr, direct);
        if (dir == BOTTOM_UP) {
            ++bu;
            if (d < 64) path |= 1ull << d;
        } else {
            ++td;
        }
        if (!bins && c.at(C_FUSED_SYNC) != 0) {  // bins: ticket barrier (as `direct`)
            fused_level_barrier(c, (int)d, s_words, bins);
        } else {
            grid_barrier_ticket(bar);
            read_slot(c, (int)d, s_words);
        }
        if (update == UPDATE_STATUS || overflowed_words(c, s_words, bins)) {
            regen += update != UPDATE_STATUS;
            gen_count(c, (int)d + 1, bins, (int)d);
            grid_barrier_ticket(bar);
            gen_write(c, (int)d + 1, bins, (int)d);
            grid_barrier_ticket(bar);
            read_slot(c, (int)d, s_words);
        }
        const long long count = bins ? s_words[S_COUNT] + s_words[S_COUNT + 1] +
                                           s_words[S_COUNT + 2] + s_words[S_COUNT + 3]
                                     : s_words[S_COUNT];
        after_step(st, c.cfg, count, s_words[S_DEGSUM], s_words[S_HUBS]);
        have = true;
        reached += count;
        if (count_only && count != 0) {
            // no queue was written: the next step's direction decides whether it needs one
            choose_direction(st, c.cfg);
            decided = true;
            if (st.dir == TOP_DOWN) {
                gen_count(c, (int)d + 1, bins, (int)d);
                grid_barrier_ticket(bar);
                gen_write(c, (int)d + 1, bins, (int)d);
                grid_barrier_ticket(bar);
                read_slot(c, (int)d, s_words);
            }
        }
#ifdef WG_BFS_PROFILE
        if (blockIdx.x == 0 && threadIdx.x == 0) {
            unsigned long long* p = c.prof + PROF_LEVEL + 4 * (d % PROF_LEVELS);
            p[0] = global_timer();
            p[1] = (unsigned long long)dir;
            p[2] = (unsigned long long)count;
            if (dir == TOP_DOWN) p[3] = (unsigned long long)arcs_out;  // bottom-up: bottom_up's
        }
#endif
        if (count == 0) break;
    }
#ifdef WG_BFS_PROFILE
    if (blockIdx.x == 0 && threadIdx.x == 0) c.prof[PROF_T_LOOP] = global_timer();
#endif
    finalize_levels(c);
#ifdef WG_BFS_PROFILE
    __syncthreads();
    if (threadIdx.x == 0) atomicMax(c.prof + PROF_T_END, global_timer());
#endif
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
