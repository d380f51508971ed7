// warpgraph BFS on the frontier operators: the visit functor, the bottom-up step with the hub
// cache, frontier generation from the status array, direction switching and one whole level.
// Used by bfs_level.cu (one launch per level) and bfs_persistent.cu (one cooperative launch).
//
// The status array is `levels` (int32, negative = unvisited): it stays authoritative whatever the
// duplicate policy, so a vertex pushed twice is only expanded twice, never given a wrong level.
// With C_DEGREE_STATUS (GAPBS's trick: its parent array starts at minus the degree), an
// unvisited vertex holds -(out-degree + 1), so whoever claims a vertex learns its degree from
// the value it replaces: the frontier's degree sum and degree classes need no indptr read at
// push time (one dependent load less per level). A last pass turns what is left into -1.
#pragma once

#include "frontier_advance.cuh"
#include "frontier_sync.cuh"

// Minimum resident blocks per SM the kernels are compiled for (caps registers at 64 per thread
// with 256-thread blocks: half occupancy, enough loads in flight for the random accesses).
#ifndef WG_BFS_MIN_BLOCKS
#define WG_BFS_MIN_BLOCKS 4
#endif

// Vertices per thread and warp step of the bottom-up sweep (bottom_up): the step's loads (status,
// in-row start, in-neighbour, its status) are issued for all of them at once, so a warp has
// WG_BFS_BU_BATCH dependent chains in flight instead of one. 1: one vertex per lane and step.
#ifndef WG_BFS_BU_BATCH
#define WG_BFS_BU_BATCH 1
#endif

// Items per thread and step of the whole-array passes (initialization, final pass): their loads
// are issued together before the stores (these passes are latency-bound, not bandwidth-bound,
// at half occupancy). 1: one item per thread and step.
#ifndef WG_BFS_STREAM_BATCH
#define WG_BFS_STREAM_BATCH 4
#endif

// WG_BFS_PROFILE (defined: tests and benchmarks only): the persistent kernel records per level
// the time (%globaltimer, block 0 after the level's barrier), the direction, the new frontier's
// size and the arcs examined (top-down: the frontier's out-arcs; bottom-up: the in-arcs scanned)
// in a profile area after the grid barrier's word in `scratch` (PROF_* below).

namespace wg {
namespace bfs {

using namespace wg::fr;

// ---- configuration words (warpgraph/algorithms/bfs/gpu.py writes them) -----------------------
enum Config : int {
    C_N = 0,           // vertices
    C_ARCS = 1,        // stored arcs
    C_QCAP = 2,        // capacity of each vertex queue
    C_BIGCAP = 3,      // capacity of each large/extreme bins queue
    C_ECAP = 4,        // capacity of the edge queue
    C_UPDATE = 5,      // Update code
    C_DEDUP = 6,       // Dedup code
    C_GATHER = 7,      // Gather code
    C_STATUS = 8,      // Status code
    C_DIRECTION = 9,   // 0 auto, 1 top-down only, 2 bottom-up only
    C_RULE = 10,       // 0 Beamer (alpha/beta), 1 Enterprise (hub ratio gamma)
    C_ALPHA_M = 11,    // alpha * 1000
    C_BETA_M = 12,     // beta * 1000
    C_GAMMA_M = 13,    // gamma (percent) * 1000
    C_TAU = 14,        // hub threshold: out-degree > tau
    C_TOTAL_HUBS = 15, // vertices of out-degree > tau
    C_HUB_CACHE = 16,  // 1: bottom-up steps probe the shared-memory hub cache first
    C_SWITCH_BACK = 17,// 1: bottom-up may return to top-down (Beamer's beta rule)
    C_FRONTIER = 18,   // 0 vertex queue, 1 edge queue (level mode)
    C_FORCE_REGEN = 19,// tests: regenerate every frontier from the status array
    C_DEGREE_STATUS = 20, // 1: unvisited = -(out-degree + 1) (see above); 0: unvisited = -1
    C_XCLASS = 21,     // (bins) out-degree of the grid-wide class (>= 256)
    C_XDEAL = 22,      // (bins) 1: extreme class dealt to blocks in equal edge chunks
    C_FUSED_SYNC = 23, // (persistent) 1: counter-fused level barrier (fused_level_barrier)
    C_CLAIM_LIMIT = 24,// (persistent) top-down levels whose frontier has at most this many
                       // out-arcs claim with one atomicMin, without reading the status first
    C_SYMMETRIC = 25,  // 1: in-arcs = out-arcs (undirected): with C_DEGREE_STATUS a status of -1
                       // means no in-arcs (bottom-up skips the vertex) and -(d + 1) in-degree d
    C_COUNT_BU = 26,   // (persistent) bottom-up steps only count (SINK_COUNT) while at least this
                       // many vertices with in-arcs are unreached (0: never); the queue is
                       // generated from the status array when the next step is top-down
    C_COUNT_ARCS = 27, // (persistent, dedup cas) top-down steps whose frontier has more than
                       // this many out-arcs only count too; 0: never
    C_HAS_IN = 28,     // vertices with at least one in-arc (C_COUNT_BU's rule)
    C_DEAL_LARGE = 29, // (bins, with C_XDEAL) 1: FrontierIn::deal_large
    C_WORDS = 32,
};
enum Direction : int { TOP_DOWN = 0, BOTTOM_UP = 1 };

template <typename V>
struct Ctx {
    Csr<V> g;          // out-arcs
    Csr<V> r;          // in-arcs (bottom-up)
    int* levels;
    V* parents;        // may be null
    unsigned char* vis8;  // 8-bit visited bitmask, may be null
    V* q[2];
    V* big[2];
    V* eu;
    V* ev;
    const eid_t* pre;
    V* hubs;           // 3 * HUB_LIST entries, one list per slot
    u64* ctl;
    u64* scratch;      // per-block counters of the frontier generation: 6 * gridDim.x
    const long long* cfg;  // configuration words (read-only for the whole launch); global
                           // memory, or a shared-memory copy (persistent kernel): plain loads
    u64* prof;         // WG_BFS_PROFILE: the profile area (null in the level-synchronous kernels)

    __device__ __forceinline__ long long at(int k) const { return cfg[k]; }
    __device__ __forceinline__ V* queue(int parity) const { return parity ? q[1] : q[0]; }
    __device__ __forceinline__ V* bigq(int parity) const { return parity ? big[1] : big[0]; }
};

template <typename V>
__device__ void load_ctx(Ctx<V>& c, const eid_t* indptr, const V* indices, const eid_t* rindptr,
                         const V* rindices, int* levels, V* parents, unsigned char* vis8, V* q0,
                         V* q1, V* big0, V* big1, V* eu, V* ev, const eid_t* pre, V* hubs, u64* ctl,
                         u64* scratch, const long long* cfg) {
    c.g = Csr<V>{indptr, indices};
    c.r = Csr<V>{rindptr, rindices};
    c.levels = levels;
    c.parents = parents;
    c.vis8 = vis8;
    c.q[0] = q0;
    c.q[1] = q1;
    c.big[0] = big0;
    c.big[1] = big1;
    c.eu = eu;
    c.ev = ev;
    c.pre = pre;
    c.hubs = hubs;
    c.ctl = ctl;
    c.scratch = scratch;
    c.cfg = cfg;
    c.prof = nullptr;
}

// ---- profile (WG_BFS_PROFILE) ----------------------------------------------------------------
// Area of PROF_WORDS words: [PROF_T0] kernel entry, [PROF_T_INIT] after the initialization's
// barrier, [PROF_T_LOOP] after the last level, [PROF_T_END] end of the final pass (latest block),
// then per level d < PROF_LEVELS four words at PROF_LEVEL + 4 d: time after its barrier,
// direction, new frontier's size, arcs examined. Times are %globaltimer nanoseconds.
enum Prof : int {
    PROF_T0 = 0,
    PROF_T_INIT = 1,
    PROF_T_LOOP = 2,
    PROF_T_END = 3,
    PROF_LEVEL = 8,
    PROF_LEVELS = 64,
    PROF_WORDS = PROF_LEVEL + 4 * PROF_LEVELS,
    PROF_OFFSET = 8,  // words after the barrier word
};

__device__ __forceinline__ u64 global_timer() {
    u64 t;
    asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
    return t;
}

// ---- status encoding -------------------------------------------------------------------------
// Unvisited value of a vertex of out-degree `deg`, and the degree an unvisited value tells
// (-1: unknown, the status is plain -1).
__device__ __forceinline__ int unvisited_status(long long deg, bool degree_status) {
    if (!degree_status) return -1;
    return -(int)(deg < 0x7ffffffeLL ? deg : 0x7ffffffeLL) - 1;
}

__device__ __forceinline__ long long status_degree(int old, bool degree_status) {
    return degree_status ? -(long long)old - 1 : -1;
}

// ---- the visit functor (top-down) ------------------------------------------------------------
// Direct claim (`direct`, with dedup = cas): one atomicMin on the status word seen as unsigned,
// instead of a read and then a compare-and-swap. Unvisited words are negative (2^31 and up as
// unsigned), visited ones hold a level <= next, so the minimum turns exactly the first claimer's
// unvisited word into `next`, leaves visited words alone, and returns the old status (the degree
// with C_DEGREE_STATUS). One dependent round trip instead of two for a new vertex, but an atomic
// for every arc: for small frontiers (latency-bound levels of grids and roads). The persistent
// kernel uses it (C_CLAIM_LIMIT) except with the degree bins.
template <typename V>
struct Visit {
    int* levels;
    V* parents;
    unsigned char* vis8;
    int next;
    int dedup;
    bool claim;  // false: only pre-filter (edge queue), the filter kernel claims later
    bool degree_status;
    bool direct;  // claim by atomicMin without a pre-read (see above)

    static constexpr bool REPORTS_DEGREE = true;
    static constexpr bool PEEKS = true;

    // The status read of a visit, issued early by the caller (frontier_advance.cuh,
    // expand_peeked): a stale value is safe (visited stays visited; a claim is decided by the
    // compare-and-swap). Not used with `direct`.
    __device__ __forceinline__ int peek(V v) const { return levels[v]; }

    __device__ __forceinline__ bool operator()(V u, V v, long long& deg, int old) const {
        deg = -1;
        const unsigned char bit = (unsigned char)(1u << (v & 7));
        if (vis8 != nullptr && (vis8[v >> 3] & bit)) return false;
        if (old >= 0) return false;
        if (!claim) return true;
        if (dedup == DEDUP_CAS) {
            if (atomicCAS(levels + v, old, next) != old) return false;
        } else {
            levels[v] = next;  // benign race: every writer writes the same level
        }
        if (parents != nullptr) parents[v] = u;
        if (vis8 != nullptr) vis8[v >> 3] |= bit;
        deg = status_degree(old, degree_status);
        return true;
    }

    // deg: out-degree of v when claimed and known from the status array, else -1.
    __device__ __forceinline__ bool operator()(V u, V v, long long& deg) const {
        deg = -1;
        const unsigned char bit = (unsigned char)(1u << (v & 7));
        if (vis8 != nullptr && (vis8[v >> 3] & bit)) return false;
        int old;
        if (direct && claim && dedup == DEDUP_CAS) {
            old = (int)atomicMin(reinterpret_cast<unsigned*>(levels + v), (unsigned)next);
            if (old >= 0) return false;
        } else {
            old = levels[v];
            if (old >= 0) return false;
            if (!claim) return true;
            if (dedup == DEDUP_CAS) {
                if (atomicCAS(levels + v, old, next) != old) return false;
            } else {
                levels[v] = next;  // benign race: every writer writes the same level
            }
        }
        if (parents != nullptr) parents[v] = u;  // any writer is a valid parent
        if (vis8 != nullptr) vis8[v >> 3] |= bit;  // a lost bit only costs a levels[] read
        deg = status_degree(old, degree_status);
        return true;
    }

    __device__ __forceinline__ bool operator()(V u, V v) const {
        long long deg;
        return (*this)(u, v, deg);
    }
};

template <typename V>
__device__ __forceinline__ Visit<V> make_visit(const Ctx<V>& c, int d, bool claim,
                                               bool direct = false) {
    return Visit<V>{c.levels, c.parents, c.at(C_STATUS) == STATUS_BITMASK ? c.vis8 : nullptr, d + 1,
                    (int)c.at(C_DEDUP), claim, c.at(C_DEGREE_STATUS) != 0, direct};
}

template <typename V>
__device__ __forceinline__ Sink<V> make_sink(const Ctx<V>& c, int d, int mode, bool bins) {
    Sink<V> s;
    s.mode = mode;
    s.bins = bins;
    s.indptr = c.g.indptr;
    s.q = c.queue((d + 1) & 1);
    s.qcap = c.at(C_QCAP);
    s.big = c.bigq((d + 1) & 1);
    s.bigcap = c.at(C_BIGCAP);
    s.eu = c.eu;
    s.ev = c.ev;
    s.ecap = c.at(C_ECAP);
    s.slot = slot_of(c.ctl, d);
    s.hubs = c.hubs + (d % 3) * HUB_LIST;
    s.tau = c.at(C_TAU);
    s.init();
    s.xclass = c.at(C_XCLASS);
    return s;
}

// Frontier d; `known` (may be null) holds the four count words of its slot, already read.
template <typename V>
__device__ __forceinline__ FrontierIn<V> frontier_of(const Ctx<V>& c, int d, bool bins,
                                                     const long long* known = nullptr) {
    const volatile u64* s = slot_of(c.ctl, d + 2);  // written by the step that built frontier d
    FrontierIn<V> in;
    in.q = c.queue(d & 1);
    in.qcap = c.at(C_QCAP);
    in.big = c.bigq(d & 1);
    in.bigcap = c.at(C_BIGCAP);
    in.bins = bins;
    in.deal_extreme = c.at(C_XDEAL) != 0;
    in.deal_large = c.at(C_DEAL_LARGE) != 0;
#pragma unroll
    for (int k = 0; k < 4; ++k) {
        const long long x = known != nullptr ? known[k] : (long long)s[S_COUNT + k];
        in.count[k] = bins || k == 0 ? x : 0;
    }
    return in;
}

// ---- bottom-up step (Beamer; Enterprise's hub cache) ----------------------------------------
// Every unvisited vertex scans its in-neighbours for one at level d and stops at the first
// (early exit). With the hub cache, the block first loads the hubs of frontier d (vertices of
// out-degree > tau, listed when they were pushed) into a shared-memory hash table; a neighbour
// found there is a parent without a global-memory status read.
template <typename V>
__device__ __forceinline__ unsigned hub_slot(V u) {
    return (unsigned)(((u64)u * 0x9E3779B97F4A7C15ull) >> 40) & (HUB_LIST - 1);
}

// 8-bit visited bitmask after a bottom-up step: one byte per 8 lanes, no lost bits in the warp.
__device__ __forceinline__ void bu_mark_bitmask(unsigned char* vis8, bool found, long long v,
                                                long long n) {
    if (vis8 == nullptr) return;
    const int lane = lane_id();
    const unsigned ball = __ballot_sync(FULL_MASK, found);
    if ((lane & 7) == 0 && v < n) {
        const unsigned char byte = (unsigned char)((ball >> lane) & 0xffu);
        if (byte) vis8[v >> 3] |= byte;
    }
}

template <typename V, typename S>
__device__ void bottom_up(const Ctx<V>& c, int d, S& sink, V* s_hc) {
    const long long n = c.at(C_N);
    const bool use_hc = c.at(C_HUB_CACHE) != 0;
    if (use_hc) {
        const volatile u64* prev = slot_of(c.ctl, d + 2);
        const long long nh = (long long)(prev[S_HUBLIST] < (u64)HUB_LIST ? prev[S_HUBLIST] : HUB_LIST);
        const V* list = c.hubs + ((d + 2) % 3) * HUB_LIST;
        for (int k = threadIdx.x; k < HUB_LIST; k += BLOCK) s_hc[k] = (V)-1;
        __syncthreads();
        for (long long k = threadIdx.x; k < nh; k += BLOCK) {
            const V h = list[k];
            s_hc[hub_slot(h)] = h;
        }
        __syncthreads();
    }
    int* levels = c.levels;
    unsigned char* vis8 = c.at(C_STATUS) == STATUS_BITMASK ? c.vis8 : nullptr;
    const bool dstat = c.at(C_DEGREE_STATUS) != 0;
    const int lane = lane_id();
#ifdef WG_BFS_PROFILE
    u64 scanned = 0;
#endif
#if WG_BFS_BU_BATCH == 1
    for (long long v0 = warp_base(); v0 < n; v0 += warp_stride()) {
        const long long v = v0 + lane;
        bool found = false;
        V par = 0;
        const int lv = v < n ? levels[v] : 0;
        if (lv < 0) {
            const eid_t je = ldg(c.r.indptr + v + 1);
            for (eid_t j = ldg(c.r.indptr + v); j < je; ++j) {
                const V u = ldg(c.r.indices + j);
#ifdef WG_BFS_PROFILE
                ++scanned;
#endif
                if ((use_hc && s_hc[hub_slot(u)] == u) || levels[u] == d) {
                    found = true;
                    par = u;
                    break;
                }
            }
            if (found) {
                levels[v] = d + 1;
                if (c.parents != nullptr) c.parents[v] = par;
            }
        }
        bu_mark_bitmask(vis8, found, v, n);
        sink.push_known(found, par, (V)v, found ? status_degree(lv, dstat) : -1);
    }
#else
    // K vertices per lane and step (v0 + 32 k + lane: coalesced per k), each scanned by its own
    // chain; every round issues the K chains' loads together. With C_SYMMETRIC and the degree
    // status, a status of -1 (no arcs) skips the vertex and -(d + 1) gives the row's length.
    constexpr int K = WG_BFS_BU_BATCH;
    const bool known = dstat && c.at(C_SYMMETRIC) != 0;
    const long long stride = warp_stride() * K;
    for (long long v0 = warp_base() * K; v0 < n; v0 += stride) {
        int lv[K];
        eid_t j[K], e[K];
        V par[K];
#pragma unroll
        for (int k = 0; k < K; ++k) {
            const long long v = v0 + k * WARP_SIZE + lane;
            lv[k] = v < n ? levels[v] : 0;
        }
#pragma unroll
        for (int k = 0; k < K; ++k) {
            const long long v = v0 + k * WARP_SIZE + lane;
            j[k] = 0;
            e[k] = 0;
            par[k] = (V)0;
            if (lv[k] < 0 && !(known && lv[k] == -1)) {
                j[k] = ldg(c.r.indptr + v);
                // -0x7fffffff: a degree clamped by unvisited_status, read the row's end
                e[k] = known && lv[k] > -0x7fffffff ? j[k] + (-(eid_t)lv[k] - 1)
                                                    : ldg(c.r.indptr + v + 1);
            }
        }
        unsigned found = 0;  // bit k: vertex k found its parent
        bool live = false;
#pragma unroll
        for (int k = 0; k < K; ++k) live |= j[k] < e[k];
        while (live) {  // per lane; no warp collective inside
            V u[K];
#pragma unroll
            for (int k = 0; k < K; ++k) u[k] = j[k] < e[k] ? ldg(c.r.indices + j[k]) : (V)0;
            int lu[K];
#pragma unroll
            for (int k = 0; k < K; ++k) {
                lu[k] = -1;
                if (j[k] < e[k]) lu[k] = use_hc && s_hc[hub_slot(u[k])] == u[k] ? d : levels[u[k]];
            }
            live = false;
#pragma unroll
            for (int k = 0; k < K; ++k) {
                if (j[k] < e[k]) {
#ifdef WG_BFS_PROFILE
                    ++scanned;
#endif
                    if (lu[k] == d) {
                        found |= 1u << k;
                        par[k] = u[k];
                        e[k] = j[k];
                    } else {
                        ++j[k];
                    }
                }
                live |= j[k] < e[k];
            }
        }
#pragma unroll
        for (int k = 0; k < K; ++k) {
            const long long v = v0 + k * WARP_SIZE + lane;
            const bool f = (found >> k) & 1u;
            if (f) {
                levels[v] = d + 1;
                if (c.parents != nullptr) c.parents[v] = par[k];
            }
            bu_mark_bitmask(vis8, f, v, n);
            sink.push_known(f, par[k], (V)v, f ? status_degree(lv[k], dstat) : -1);
        }
    }
#endif
#ifdef WG_BFS_PROFILE
    const u64 ws = warp_sum(scanned);
    if (c.prof != nullptr && lane == 0 && ws) atomicAdd(c.prof + PROF_LEVEL + 4 * (d % PROF_LEVELS) + 3, ws);
#endif
}

// ---- frontier generation from the status array (Enterprise) ---------------------------------
// Two passes over contiguous vertex ranges, one range per block (so the queue comes out sorted):
// count the vertices at level `target` (per degree class when binned), then, after a grid-wide
// barrier, write them at offsets given by the counts of the preceding blocks. No atomics on the
// queue and no duplicates; the hub list is rebuilt on the way.
constexpr int GEN_ROWS = 6;  // scratch rows: 4 class counts, degree sum, hubs

__device__ __forceinline__ long long gen_range(long long n, long long* lo) {
    long long per = (n + gridDim.x - 1) / gridDim.x;
    per = (per + BLOCK - 1) / BLOCK * BLOCK;
    *lo = (long long)blockIdx.x * per;
    long long hi = *lo + per;
    return hi < n ? hi : n;
}

template <typename V>
__device__ void gen_count(const Ctx<V>& c, int target, bool bins, int d) {
    const long long n = c.at(C_N);
    const long long tau = c.at(C_TAU);
    const long long xclass = c.at(C_XCLASS);
    long long lo;
    const long long hi = gen_range(n, &lo);
    u64 cnt[4] = {0, 0, 0, 0};
    u64 degsum = 0, hubs = 0;
    constexpr int K = WG_BFS_STREAM_BATCH;  // the K statuses are loaded first
    for (long long v0 = lo + threadIdx.x; v0 < hi; v0 += (long long)BLOCK * K) {
        int lv[K];
#pragma unroll
        for (int k = 0; k < K; ++k) {
            const long long v = v0 + (long long)k * BLOCK;
            lv[k] = v < hi ? c.levels[v] : -1;
        }
#pragma unroll
        for (int k = 0; k < K; ++k) {
            const long long v = v0 + (long long)k * BLOCK;
            if (lv[k] == target) {
                const long long deg = ldg(c.g.indptr + v + 1) - ldg(c.g.indptr + v);
                const int cls = bins ? degree_class(deg, xclass) : 0;
                cnt[0] += cls == 0;
                cnt[1] += cls == 1;
                cnt[2] += cls == 2;
                cnt[3] += cls == 3;
                degsum += (u64)deg;
                hubs += deg > tau;
            }
        }
    }
    const u64 vals[GEN_ROWS] = {cnt[0], cnt[1], cnt[2], cnt[3], degsum, hubs};
#pragma unroll
    for (int r = 0; r < GEN_ROWS; ++r) {
        const u64 t = block_sum(vals[r]);
        if (threadIdx.x == 0) c.scratch[(long long)r * gridDim.x + blockIdx.x] = t;
    }
    if (blockIdx.x == 0 && threadIdx.x == 0) slot_of(c.ctl, d)[S_HUBLIST] = 0;
}

template <typename V>
__device__ void gen_write(const Ctx<V>& c, int target, bool bins, int d) {
    __shared__ u64 s_base[4];
    __shared__ u64 s_warp[4][WARPS];
    const long long n = c.at(C_N);
    const long long tau = c.at(C_TAU);
    const long long qcap = c.at(C_QCAP), bigcap = c.at(C_BIGCAP);
    const long long xclass = c.at(C_XCLASS);
    V* q = c.queue((d + 1) & 1);
    V* big = c.bigq((d + 1) & 1);
    u64* slot = slot_of(c.ctl, d);
    V* hubs = c.hubs + (d % 3) * HUB_LIST;
    // offsets of this block (sum over preceding blocks) and totals (block 0 publishes them)
    for (int r = 0; r < GEN_ROWS; ++r) {
        u64 before = 0, all = 0;
        for (long long b = threadIdx.x; b < gridDim.x; b += BLOCK) {
            const u64 x = ((const volatile u64*)c.scratch)[(long long)r * gridDim.x + b];
            all += x;
            if (b < blockIdx.x) before += x;
        }
        before = block_sum(before);
        all = block_sum(all);
        if (threadIdx.x == 0) {
            if (r < 4) s_base[r] = before;
            if (blockIdx.x == 0) {
                if (r < 4) slot[S_COUNT + r] = all;
                else if (r == 4) slot[S_DEGSUM] = all;
                else slot[S_HUBS] = all;
            }
        }
    }
    if (blockIdx.x == 0 && threadIdx.x == 0) slot[S_OVERFLOW] = 0;
    __syncthreads();
    long long lo;
    const long long hi = gen_range(n, &lo);
    const int lane = lane_id();
    const int w = (int)(threadIdx.x / WARP_SIZE);
    // the next tile's status is loaded while this tile is written
    int lv_next = lo + threadIdx.x < hi ? c.levels[lo + threadIdx.x] : -1;
    for (long long t0 = lo; t0 < hi; t0 += BLOCK) {
        const long long v = t0 + threadIdx.x;
        const int lv = lv_next;
        lv_next = v + BLOCK < hi ? c.levels[v + BLOCK] : -1;
        const bool at = v < hi && lv == target;
        long long deg = 0;
        if (at) deg = ldg(c.g.indptr + v + 1) - ldg(c.g.indptr + v);
        const int k = at ? (bins ? degree_class(deg, xclass) : 0) : -1;
        if (at && deg > tau) {
            const u64 h = atomicAdd(slot + S_HUBLIST, 1ull);
            if (h < (u64)HUB_LIST) hubs[h] = (V)v;
        }
        unsigned masks[4];
#pragma unroll
        for (int r = 0; r < 4; ++r) {
            masks[r] = __ballot_sync(FULL_MASK, k == r);
            if (lane == 0) s_warp[r][w] = __popc(masks[r]);
        }
        __syncthreads();
        if (k >= 0) {
            const unsigned mk = k == 0 ? masks[0] : k == 1 ? masks[1] : k == 2 ? masks[2] : masks[3];
            u64 pos = s_base[k] + __popc(mk & ((1u << lane) - 1u));
            for (int x = 0; x < w; ++x) pos += s_warp[k][x];
            if (k == 0) q[pos] = (V)v;
            else if (k == 1) q[qcap - 1 - (long long)pos] = (V)v;
            else if (k == 2) big[pos] = (V)v;
            else big[bigcap - 1 - (long long)pos] = (V)v;
        }
        __syncthreads();
        if (threadIdx.x < 4) {
            u64 t = 0;
            for (int x = 0; x < WARPS; ++x) t += s_warp[threadIdx.x][x];
            s_base[threadIdx.x] += t;
        }
        __syncthreads();
    }
}

// ---- initialization -------------------------------------------------------------------------
// levels = unvisited (-1, or -(out-degree + 1) with C_DEGREE_STATUS), parents = -1, bitmask = 0,
// control block = 0, then the source as frontier 0 (its counters in slot 2 = slot of "level
// -1"). Each word is written once, by one thread, with its final value, so a single pass needs
// no barrier.
template <typename V>
__device__ void init_bfs(const Ctx<V>& c, V s, bool bins) {
    const long long n = c.at(C_N);
    const long long tau = c.at(C_TAU);
    const bool dstat = c.at(C_DEGREE_STATUS) != 0;
    const long long gid = global_thread_id(), stride = grid_threads();
    const long long deg = ldg(c.g.indptr + s + 1) - ldg(c.g.indptr + s);
    const int cls = bins ? degree_class(deg, c.at(C_XCLASS)) : 0;
    constexpr int K = WG_BFS_STREAM_BATCH;  // the K items' row offsets are loaded first
    for (long long i0 = gid; i0 < n; i0 += stride * K) {
        long long dg[K];
#pragma unroll
        for (int k = 0; k < K; ++k) {
            const long long i = i0 + k * stride;
            dg[k] = dstat && i < n ? ldg(c.g.indptr + i + 1) - ldg(c.g.indptr + i) : 0;
        }
#pragma unroll
        for (int k = 0; k < K; ++k) {
            const long long i = i0 + k * stride;
            if (i < n) {
                const int lv = i == (long long)s ? 0 : dstat ? unvisited_status(dg[k], true) : -1;
                c.levels[i] = lv;
                if (c.parents != nullptr) c.parents[i] = i == (long long)s ? s : (V)-1;
            }
        }
    }
    if (c.vis8 != nullptr && c.at(C_STATUS) == STATUS_BITMASK) {
        for (long long i = gid; i < (n + 7) / 8; i += stride) {
            c.vis8[i] = i == (long long)(s >> 3) ? (unsigned char)(1u << (s & 7)) : (unsigned char)0;
        }
    }
    for (long long i = gid; i < CTL_WORDS; i += stride) {
        u64 val = 0;
        const long long f = i - 2 * SLOT_WORDS;
        if (f == S_COUNT + cls) val = 1;
        else if (f == S_DEGSUM) val = (u64)deg;
        else if (f == S_HUBS || f == S_HUBLIST) val = deg > tau;
        c.ctl[i] = val;
    }
    if (gid == 0) {
        const long long qcap = c.at(C_QCAP), bigcap = c.at(C_BIGCAP);
        if (cls == 0) c.q[0][0] = s;
        else if (cls == 1) c.q[0][qcap - 1] = s;
        else if (cls == 2) c.big[0][0] = s;
        else c.big[0][bigcap - 1] = s;
        if (deg > tau) c.hubs[2 * HUB_LIST] = s;
    }
}

// After the last level (C_DEGREE_STATUS): the vertices never reached hold -(degree + 1); make
// them -1. Needs every write of the search done (after the last grid barrier, or a new launch).
template <typename V>
__device__ void finalize_levels(const Ctx<V>& c) {
    if (c.at(C_DEGREE_STATUS) == 0) return;
    const long long n = c.at(C_N);
    constexpr int K = WG_BFS_STREAM_BATCH;  // the K items' loads first
    const long long stride = grid_threads();
    for (long long i0 = global_thread_id(); i0 < n; i0 += stride * K) {
        int x[K];
#pragma unroll
        for (int k = 0; k < K; ++k) {
            const long long i = i0 + k * stride;
            x[k] = i < n ? c.levels[i] : 0;
        }
#pragma unroll
        for (int k = 0; k < K; ++k) {
            if (x[k] < -1) c.levels[i0 + k * stride] = -1;
        }
    }
}

// ---- one level -------------------------------------------------------------------------------
// Expand frontier d (top-down with policy LB, or bottom-up) into frontier d + 1. Block-collective.
// `known` (may be null): the four count words of frontier d's slot, already read by the caller.
// `direct`: top-down claims by atomicMin (Visit), block-uniform.
template <int LB, typename V>
__device__ void expand_level(const Ctx<V>& c, int d, int dir, int sink_mode, u64* s_hash, V* s_hc,
                             const long long* known = nullptr, bool direct = false) {
    constexpr bool bins = LB == LB_BINS;
    if (blockIdx.x == 0 && threadIdx.x < SLOT_WORDS) slot_of(c.ctl, d + 1)[threadIdx.x] = 0;
    if (dir == BOTTOM_UP) {
        Sink<V> sink = make_sink(c, d, sink_mode == SINK_EDGE ? (int)c.at(C_UPDATE) : sink_mode,
                                 bins);
        bottom_up(c, d, sink, s_hc);
        sink.finish();
    } else {
        Sink<V> sink = make_sink(c, d, sink_mode, bins);
        const Visit<V> visit = make_visit(c, d, sink_mode != SINK_EDGE, direct);
        const FrontierIn<V> in = frontier_of(c, d, bins, known);
        const int dedup = sink_mode == SINK_EDGE ? DEDUP_NONE : (int)c.at(C_DEDUP);
        advance<LB>(c.g, in, c.pre, visit, sink, (int)c.at(C_GATHER), dedup, s_hash);
        sink.finish();
    }
}

// Edge queue -> vertex queue: claim the targets (level mode, frontier = edge).
template <typename V>
__device__ void filter_edges(const Ctx<V>& c, int d, u64* s_hash) {
    const volatile u64* slot = slot_of(c.ctl, d);
    const long long ne = (long long)slot[S_EDGES];
    Sink<V> sink = make_sink(c, d, (int)c.at(C_UPDATE), false);
    const Visit<V> visit = make_visit(c, d, true);
    const int dedup = (int)c.at(C_DEDUP);
    for (long long i0 = warp_base(); i0 < ne; i0 += warp_stride()) {
        const long long i = i0 + lane_id();
        const bool has = i < ne;
        V u = 0, v = 0;
        if (has) {
            u = c.eu[i];
            v = c.ev[i];
        }
        emit(has, u, v, visit, sink, dedup, s_hash);
    }
    sink.finish();
}

// True when frontier d + 1 (counted in slot d) overflowed its queue: regenerate it.
template <typename V>
__device__ __forceinline__ bool overflowed(const Ctx<V>& c, int d, bool bins) {
    const volatile u64* s = slot_of(c.ctl, d);
    const u64 qcap = (u64)c.at(C_QCAP), bigcap = (u64)c.at(C_BIGCAP);
    if (s[S_OVERFLOW] || c.at(C_FORCE_REGEN)) return true;
    if (bins) return s[S_COUNT] + s[S_COUNT + 1] > qcap || s[S_COUNT + 2] + s[S_COUNT + 3] > bigcap;
    return s[S_COUNT] > qcap;
}

// Persistent kernels: words [0, S_EDGES) of slot `level` into shared memory, by one thread after
// a grid-wide barrier (independent loads: one round trip), visible to the block on return.
// Block-collective; the block must not read `words` between the barrier and this call.
template <typename V>
__device__ __forceinline__ void read_slot(const Ctx<V>& c, int level, long long* words) {
    if (threadIdx.x == 0) {
        const volatile u64* s = slot_of(c.ctl, level);
        long long w[S_EDGES];
#pragma unroll
        for (int k = 0; k < S_EDGES; ++k) w[k] = (long long)(s[k] & COUNT_MASK);
#pragma unroll
        for (int k = 0; k < S_EDGES; ++k) words[k] = w[k];
    }
    __syncthreads();
}

// Persistent kernels, instead of a grid barrier + read_slot: the counter-fused barrier
// (frontier_sync.cuh, fused_arrive_wait). Threads k < S_EDGES of each block take word k of slot
// `level`: the words the sinks count in (frontier size, per class with bins; degree sum; hubs)
// get the block's arrival and are waited on, each by its own thread, so the barrier and the read
// of the level's counters are one round trip; the others are 0 here (the hub list's length is
// read from the slot by bottom_up; S_OVERFLOW is set only by the edge sink, which the persistent
// kernel never uses). Block-collective; `words` as read_slot's, visible to the block on return.
// Slot `level` is cleared in step level - 1 and its previous barrier (level - 3) was left by
// every block before the barrier of level - 2, so its arrival bits start at zero.
__device__ __forceinline__ bool fused_word(int k, bool bins) {
    return k == S_COUNT || k == S_DEGSUM || k == S_HUBS || (bins && k < S_COUNT + 4);
}

template <typename V>
__device__ __forceinline__ void fused_level_barrier(const Ctx<V>& c, int level, long long* words,
                                                    bool bins) {
    __syncthreads();
    const int k = (int)threadIdx.x;
    if (k < S_EDGES) {
        long long x = 0;
        if (fused_word(k, bins)) x = (long long)fused_arrive_wait(slot_of(c.ctl, level) + k);
        words[k] = x;
    }
    __syncthreads();
}

// True when frontier d + 1, whose slot words are `w`, overflowed its queue.
template <typename V>
__device__ __forceinline__ bool overflowed_words(const Ctx<V>& c, const long long* w, bool bins) {
    const long long qcap = c.at(C_QCAP), bigcap = c.at(C_BIGCAP);
    if (w[S_OVERFLOW] || c.at(C_FORCE_REGEN)) return true;
    if (bins) return w[S_COUNT] + w[S_COUNT + 1] > qcap || w[S_COUNT + 2] + w[S_COUNT + 3] > bigcap;
    return w[S_COUNT] > qcap;
}

// ---- direction switching (identical in every block: all read the same counters) ------------
struct DirState {
    int dir;
    long long edges_to_check;  // arcs not yet expanded top-down (Beamer's m_u)
    long long scout;           // out-degree sum of the current frontier (m_f)
    long long hubs;            // hubs in the current frontier (Enterprise's F_h)
    long long awake;           // size of the current frontier
};

__device__ __forceinline__ DirState start_direction(long long arcs, long long source_degree,
                                                    long long tau) {
    return DirState{TOP_DOWN, arcs, source_degree, source_degree > tau ? 1 : 0, 1};
}

// Called before expanding a frontier: may switch top-down -> bottom-up.
__device__ __forceinline__ void choose_direction(DirState& st, const long long* cfg) {
    if (cfg[C_DIRECTION] == 1) {
        st.dir = TOP_DOWN;
        return;
    }
    if (cfg[C_DIRECTION] == 2) {
        st.dir = BOTTOM_UP;
        return;
    }
    if (st.dir == TOP_DOWN) {
        bool go;
        if (cfg[C_RULE] == 1) {
            go = cfg[C_TOTAL_HUBS] > 0 &&
                 (double)st.hubs * 100.0 * 1000.0 > (double)cfg[C_GAMMA_M] * (double)cfg[C_TOTAL_HUBS];
        } else {
            go = (double)st.scout > (double)st.edges_to_check * 1000.0 / (double)cfg[C_ALPHA_M];
        }
        if (go) st.dir = BOTTOM_UP;
        else st.edges_to_check -= st.scout;
    }
}

// Called after a step with the new frontier's size, degree sum and hubs.
__device__ __forceinline__ void after_step(DirState& st, const long long* cfg, long long count,
                                           long long degsum, long long hubs) {
    if (st.dir == BOTTOM_UP && cfg[C_DIRECTION] == 0 && cfg[C_SWITCH_BACK]) {
        const double n = (double)cfg[C_N];
        const bool stay = count >= st.awake || (double)count * (double)cfg[C_BETA_M] > n * 1000.0;
        if (!stay) {
            st.dir = TOP_DOWN;
            st.scout = 1;  // as GAPBS: the next top-down step measures its own scout count
            st.hubs = 0;
            st.awake = count;
            return;
        }
    }
    st.scout = degsum;
    st.hubs = hubs;
    st.awake = count;
}

__device__ __forceinline__ long long slot_count(const volatile u64* s, bool bins) {
    return bins ? (long long)(s[S_COUNT] + s[S_COUNT + 1] + s[S_COUNT + 2] + s[S_COUNT + 3])
                : (long long)s[S_COUNT];
}

}  // namespace bfs
}  // namespace wg
