// warpgraph frontier operators, part 1: strategy codes, the control block, output sinks and the
// BFS-4K duplicate filter. Part 2 (frontier_advance.cuh) holds the load-balancing policies.
//
// Vocabulary (Busato's thesis, ch. 4-7; Liu's thesis, ch. 2):
//   frontier   the vertices to expand at one level: a vertex queue, or in "bins" form four
//              queues split by out-degree (small < 32 <= middle < 256 <= large < 65536 <= extreme)
//   advance    visit every out-arc u -> v of the frontier; a functor decides whether v joins the
//              next frontier (for BFS: v unvisited, then claimed)
//   sink       where accepted vertices go: a queue written with one atomic per warp (ballot),
//              per-thread register queues flushed by warp (local), nowhere (status: the next
//              queue is generated from the status array), the bins, or an edge queue; or
//              nowhere but counted (count: per-lane counters, one atomic per warp and phase)
//
// Every function marked "warp-collective" must be called by all 32 lanes of a warp with the same
// control flow; every loop that calls one is warp-uniform (block-uniform where it contains a
// __syncthreads). Counters are unsigned long long (CUDA has no signed 64-bit atomicAdd).
#pragma once

#include "common.cuh"

#ifndef WG_FRONTIER_BLOCK
#define WG_FRONTIER_BLOCK 256
#endif

namespace wg {
namespace fr {

constexpr int BLOCK = WG_FRONTIER_BLOCK;  // threads per block of every frontier kernel
constexpr int WARPS = BLOCK / WARP_SIZE;
static_assert(BLOCK % WARP_SIZE == 0 && BLOCK <= 1024, "block must be whole warps");

// ---- strategy codes (index of the value in warpgraph/gpu/frontier/options.py CHOICES) --------
enum LoadBalance : int {
    LB_NODE1 = 0,
    LB_NODE4 = 1,
    LB_NODE16 = 2,
    LB_NODE32 = 3,
    LB_WARP_SCAN = 4,
    LB_WARP_SEARCH = 5,
    LB_BLOCK_SEARCH = 6,
    LB_BINS = 7,
    LB_MERGE_PATH = 8,
};
enum Gather : int { GATHER_NONE = 0, GATHER_WARP = 1, GATHER_BLOCK = 2 };
// SINK_COUNT: no queue; the frontier's size (per degree class with bins), degree sum and hubs
// are counted per lane and added once per warp by finish(), so a phase that accepts millions
// of vertices makes one atomic per warp on the counters instead of one per warp step (the
// caller generates the queue from the status array if the next step needs one).
enum Update : int {
    UPDATE_BALLOT = 0,
    UPDATE_LOCAL = 1,
    UPDATE_STATUS = 2,
    SINK_EDGE = 3,
    SINK_COUNT = 4,
};
enum Dedup : int { DEDUP_NONE = 0, DEDUP_WARP_HASH = 1, DEDUP_BLOCK_HASH = 2, DEDUP_CAS = 3 };
enum Status : int { STATUS_ARRAY = 0, STATUS_BITMASK = 1 };

// ---- degree classes of the bins (Enterprise's thread / warp / CTA / grid queues) -------------
constexpr long long CLASS_MIDDLE = 32;
constexpr long long CLASS_LARGE = 256;
constexpr long long CLASS_EXTREME = 65536;

__device__ __forceinline__ int degree_class(long long d) {
    return (int)(d >= CLASS_MIDDLE) + (int)(d >= CLASS_LARGE) + (int)(d >= CLASS_EXTREME);
}

// The same with a run-time threshold of the grid-wide class (`extreme` >= CLASS_LARGE; BFS picks
// it from the degree distribution so that only a few thousand vertices are "extreme").
__device__ __forceinline__ int degree_class(long long d, long long extreme) {
    return (int)(d >= CLASS_MIDDLE) + (int)(d >= CLASS_LARGE) + (int)(d >= extreme);
}

// ---- control block ---------------------------------------------------------------------------
// Three rotating slots of per-level counters: the step that builds frontier d+1 writes slot
// d % 3, readers of frontier d use slot (d + 2) % 3, and slot (d + 1) % 3 is cleared during step d
// (no one reads it any more, no one writes it before the next grid-wide barrier).
constexpr int SLOT_WORDS = 16;
enum SlotField : int {
    S_COUNT = 0,     // vertices pushed; classes 0..3 at S_COUNT + c when the frontier is binned
    S_DEGSUM = 4,    // sum of out-degrees of the pushed vertices
    S_HUBS = 5,      // pushed vertices of out-degree > tau
    S_HUBLIST = 6,   // entries appended to this slot's hub list (capped at HUB_LIST)
    S_OVERFLOW = 7,  // a queue overflowed (duplicates): regenerate from the status array
    S_EDGES = 8,     // edge-queue entries
};
// Persistent kernels with the counter-fused barrier (frontier_sync.cuh, fused_arrive_wait) add
// their block's arrival to the count words themselves, in the bits from ARRIVE_SHIFT up: values
// stay below 2^52 and grids below 4096 blocks. Readers of a count mask it (COUNT_MASK).
constexpr int ARRIVE_SHIFT = 52;
constexpr u64 ARRIVE = 1ull << ARRIVE_SHIFT;
constexpr u64 COUNT_MASK = ARRIVE - 1ull;
constexpr int CTL_GLOBAL = 3 * SLOT_WORDS;
enum GlobalField : int {
    G_DEPTH = 0,   // number of levels (max level + 1)
    G_TD = 1,      // top-down steps
    G_BU = 2,      // bottom-up steps
    G_REGEN = 3,   // frontier regenerations from the status array
    G_PATH = 4,    // directions taken, one bit per level (1 = bottom-up), first 64 levels
};
constexpr int CTL_WORDS = CTL_GLOBAL + 16;
constexpr int HUB_LIST = 1024;  // hub-list entries per slot, and hub-cache entries per block

__device__ __forceinline__ u64* slot_of(u64* ctl, int level) { return ctl + (level % 3) * SLOT_WORDS; }

// ---- frontier in -----------------------------------------------------------------------------
template <typename V>
struct FrontierIn {
    const V* q;          // vertex queue, or (bins) small from the front, middle from the back
    long long qcap;
    const V* big;        // (bins) large from the front, extreme from the back
    long long bigcap;
    long long count[4];  // queue length in count[0]; (bins) the four class sizes
    bool bins;
    bool deal_extreme;   // (bins) extreme class dealt to blocks in equal edge chunks (false: each
                         // vertex by the whole grid, one after the other)
    bool deal_large;     // (bins, with deal_extreme) the large class dealt too when it has fewer
                         // vertices than the grid has blocks

    __device__ long long total() const { return count[0] + count[1] + count[2] + count[3]; }
};

// ---- duplicate filter (BFS-4K "hash64") ------------------------------------------------------
// Each candidate stores (vertex, thread) in a shared-memory slot chosen by a hash of the vertex
// and reads it back; finding its vertex with another thread's id marks it a duplicate, dropped.
// The candidate whose store is last in the slot's coherence order always keeps its vertex, so
// at least one copy of every vertex survives; missed duplicates only cost work. Warp-collective.
__device__ __forceinline__ unsigned hash_slot(u64 v, unsigned mask) {
    return (unsigned)((v * 0x9E3779B97F4A7C15ull) >> 40) & mask;
}

template <typename V>
__device__ __forceinline__ bool hash_filter(bool keep, V v, volatile u64* table, unsigned mask) {
    u64 key = 0;
    unsigned h = 0;
    if (keep) {
        key = ((u64)v << 10) | (u64)threadIdx.x;
        h = hash_slot((u64)v, mask);
        table[h] = key;
    }
    __syncwarp();
    if (keep) {
        const u64 seen = table[h];
        if ((seen >> 10) == (u64)v && seen != key) keep = false;
    }
    __syncwarp();
    return keep;
}

constexpr int WARP_HASH = 64;              // entries per warp (warp-level table)
constexpr int BLOCK_HASH = 4 * BLOCK;      // entries per block (block-level table)

// ---- sinks -----------------------------------------------------------------------------------
template <typename V>
struct Sink {
    int mode;               // Update code, or SINK_EDGE
    bool bins;              // write the four degree-class queues
    const eid_t* indptr;    // out-degrees of pushed vertices (counters, classes, hubs)
    V* q;
    long long qcap;
    V* big;
    long long bigcap;
    V* eu;                  // edge queue (sources, targets)
    V* ev;
    long long ecap;
    u64* slot;              // counters of the frontier being built
    V* hubs;                // hub list of the frontier being built
    long long tau;          // hub threshold (out-degree > tau)
    long long xclass;       // (bins) out-degree of the extreme class; init() sets CLASS_EXTREME
    u64 degsum;             // per-lane accumulators, flushed by finish()
    u64 nhubs;
    V b0, b1, b2, b3;       // local queue (update = local)
    int nb;
    unsigned c0, c1, c2, c3;  // (count) vertices per degree class, flushed by finish()

    __device__ void init() {
        degsum = 0;
        nhubs = 0;
        nb = 0;
        c0 = c1 = c2 = c3 = 0;
        b0 = b1 = b2 = b3 = (V)0;
        xclass = CLASS_EXTREME;
    }

    // Warp-collective: lanes with `keep` append `v` (reached from `u`).
    __device__ __forceinline__ void push(bool keep, V u, V v) { push_known(keep, u, v, -1); }

    // The same when the caller already knows the out-degree of `v` (`deg` >= 0; -1: unknown,
    // read from indptr). BFS gets it for free from its status array (frontier_bfs.cuh).
    __device__ __forceinline__ void push_known(bool keep, V u, V v, long long deg) {
        if (mode == SINK_EDGE) {
            push_edge(keep, u, v);
            return;
        }
        if (mode == UPDATE_STATUS) return;  // counters and queue come from the status array
        if (keep) {
            if (deg < 0) deg = indptr[v + 1] - indptr[v];
            degsum += (u64)deg;
            if (deg > tau) {
                ++nhubs;
                const u64 k = atomicAdd(slot + S_HUBLIST, 1ull);
                if (k < (u64)HUB_LIST) hubs[k] = v;
            }
        }
        if (mode == SINK_COUNT) {
            if (keep) {
                const int k = bins ? degree_class(deg, xclass) : 0;
                c0 += k == 0;
                c1 += k == 1;
                c2 += k == 2;
                c3 += k == 3;
            }
        } else if (bins) {
            push_bins(keep, v, deg);
        } else if (mode == UPDATE_BALLOT) {
            const u64 s = warp_reserve(slot + S_COUNT, (u64)keep) & COUNT_MASK;
            if (keep && s < (u64)qcap) q[s] = v;
        } else {
            if (keep) {
                b3 = b2;
                b2 = b1;
                b1 = b0;
                b0 = v;
                ++nb;
            }
            if (__any_sync(FULL_MASK, nb == 4)) flush_local();
        }
    }

    // The four class counters are bumped at once (lane k adds class k's share of the warp), so a
    // warp that pushes to several classes waits for one atomic round trip, not one per class.
    __device__ __forceinline__ void push_bins(bool keep, V v, long long deg) {
        const int c = keep ? degree_class(deg, xclass) : -1;
        const int lane = lane_id();
        const unsigned m0 = __ballot_sync(FULL_MASK, c == 0);
        const unsigned m1 = __ballot_sync(FULL_MASK, c == 1);
        const unsigned m2 = __ballot_sync(FULL_MASK, c == 2);
        const unsigned m3 = __ballot_sync(FULL_MASK, c == 3);
        if ((m0 | m1 | m2 | m3) == 0) return;
        const unsigned mk = lane == 0 ? m0 : lane == 1 ? m1 : lane == 2 ? m2 : m3;
        u64 base = 0;
        if (lane < 4 && mk != 0) base = atomicAdd(slot + S_COUNT + lane, (u64)__popc(mk));
        base = __shfl_sync(FULL_MASK, base, c < 0 ? 0 : c);
        if (c < 0) return;
        const unsigned mc = c == 0 ? m0 : c == 1 ? m1 : c == 2 ? m2 : m3;
        const u64 s = (base & COUNT_MASK) + (u64)__popc(mc & ((1u << lane) - 1u));
        if (c == 0) {
            if (s < (u64)qcap) q[s] = v;
        } else if (c == 1) {
            if (s < (u64)qcap) q[qcap - 1 - (long long)s] = v;
        } else if (c == 2) {
            if (s < (u64)bigcap) big[s] = v;
        } else {
            if (s < (u64)bigcap) big[bigcap - 1 - (long long)s] = v;
        }
    }

    __device__ __forceinline__ void flush_local() {
        const u64 base = warp_reserve(slot + S_COUNT, (u64)nb) & COUNT_MASK;
        const long long cap = qcap;
        if (nb > 0 && base + 0 < (u64)cap) q[base + 0] = b0;
        if (nb > 1 && base + 1 < (u64)cap) q[base + 1] = b1;
        if (nb > 2 && base + 2 < (u64)cap) q[base + 2] = b2;
        if (nb > 3 && base + 3 < (u64)cap) q[base + 3] = b3;
        nb = 0;
    }

    __device__ __forceinline__ void push_edge(bool keep, V u, V v) {
        const u64 s = warp_reserve(slot + S_EDGES, (u64)keep);
        if (keep) {
            if (s < (u64)ecap) {
                eu[s] = u;
                ev[s] = v;
            } else {
                slot[S_OVERFLOW] = 1;
            }
        }
    }

    // Warp-collective, once at the end of a phase: flush local queues and counters.
    __device__ void finish() {
        if (mode == UPDATE_LOCAL && !bins && __any_sync(FULL_MASK, nb > 0)) flush_local();
        const u64 ds = warp_sum(degsum);
        const u64 nh = warp_sum(nhubs);
        if (lane_id() == 0) {
            if (ds) atomicAdd(slot + S_DEGSUM, ds);
            if (nh) atomicAdd(slot + S_HUBS, nh);
        }
        if (mode == SINK_COUNT) {
            const unsigned s0 = warp_sum(c0), s1 = warp_sum(c1), s2 = warp_sum(c2);
            const unsigned s3 = warp_sum(c3);
            const int lane = lane_id();
            const unsigned mine = lane == 0 ? s0 : lane == 1 ? s1 : lane == 2 ? s2 : s3;
            if (lane < 4 && mine) atomicAdd(slot + S_COUNT + lane, (u64)mine);
            c0 = c1 = c2 = c3 = 0;
        }
        degsum = 0;
        nhubs = 0;
    }
};

// ---- search helpers --------------------------------------------------------------------------
// First index i in [0, n) with a[i] > x (n if none); a is nondecreasing.
__device__ __forceinline__ long long upper_bound(const eid_t* a, long long n, eid_t x) {
    long long lo = 0, hi = n;
    while (lo < hi) {
        const long long mid = (lo + hi) >> 1;
        if (a[mid] <= x) lo = mid + 1;
        else hi = mid;
    }
    return lo;
}

// Number of lanes whose inclusive prefix `incl` is <= x (warp-collective, 5 shuffles): the lane
// owning work unit x when x < the warp total (Busato's optimized binary search, Algorithm 5).
__device__ __forceinline__ int warp_owner(eid_t incl, eid_t x) {
    int lo = 0;
#pragma unroll
    for (int s = WARP_SIZE / 2; s > 0; s >>= 1) {
        const eid_t val = __shfl_sync(FULL_MASK, incl, lo + s - 1);
        if (val <= x) lo += s;
    }
    return lo;
}

}  // namespace fr
}  // namespace wg
