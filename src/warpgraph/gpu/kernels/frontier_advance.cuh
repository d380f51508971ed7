// warpgraph frontier operators, part 2: "advance" with selectable load balancing.
//
// advance<LB>(g, in, visit, sink, gather, dedup, hash) visits every out-arc u -> v of the frontier
// `in` and calls `visit(u, v)` (a functor: true = v joins the next frontier), then the duplicate
// filter, then `sink.push`. Policies (Busato's thesis ch. 4-7, Merrill et al. PPoPP 2012, Liu and
// Huang SC 2015):
//
//   node<G>        LB_NODE1/4: a group of G threads per frontier vertex, every thread of the
//                  group reads the vertex; LB_NODE16/32: each thread reads a different vertex
//                  (coalesced) and groups of G take them in turn through warp shuffles
//   warp-scan      warp prefix sum of the degrees; lanes scatter their edge positions into a
//                  per-warp shared buffer, then the warp consumes it 32 edges at a time
//   warp-search    BFS-4K edge-discover: warp prefix sum, each lane finds the owner of its edge
//                  by a 5-step shuffle binary search
//   block-search   block prefix sum into shared memory, binary search there (Helix)
//   bins           Enterprise's degree classes: small by thread, middle by warp, large by block,
//                  extreme by the whole grid (supplementary queues instead of dynamic parallelism)
//   merge-path     device-wide: equal chunks of edges per block located by binary search in the
//                  global prefix sum of degrees, staged in shared memory (Multi-Phase search)
//
// Support: gather = warp expands vertices of degree >= 32 with the whole warp first (Helix warp
// gathering); gather = block also expands degree >= BLOCK with the whole block.
// Every outer loop is block-uniform (tiles of the frontier), so block barriers are legal inside.
#pragma once

#include "frontier_core.cuh"

namespace wg {
namespace fr {

template <typename V>
struct Csr {
    const eid_t* indptr;
    const V* indices;
};

// A functor may report the out-degree of the vertex it accepts: it declares
// `static constexpr bool REPORTS_DEGREE = true` and `bool operator()(V u, V v, long long& deg)`
// (deg = -1 when it does not know). The sink then need not read indptr for its counters
// (Sink::push_known). Functors without the member are called as visit(u, v).
template <typename T, typename = void>
struct reports_degree {
    static constexpr bool value = false;
};
template <typename T>
struct reports_degree<T, decltype((void)T::REPORTS_DEGREE)> {
    static constexpr bool value = T::REPORTS_DEGREE;
};

// A functor may also let its status read be issued early (`static constexpr bool PEEKS = true`,
// `int peek(V v)` and `bool operator()(V u, V v, long long& deg, int peeked)`): then
// `expand_batched` loads the neighbours of WG_BFS_TD_BATCH arcs, then their statuses, then
// visits them, so a lane has that many status reads in flight instead of one.
template <typename T, typename = void>
struct peeks {
    static constexpr bool value = false;
};
template <typename T>
struct peeks<T, decltype((void)T::PEEKS)> {
    static constexpr bool value = T::PEEKS;
};

#ifndef WG_BFS_TD_BATCH
#define WG_BFS_TD_BATCH 1
#endif

// Degree bins, small class (degree < 32): 1 = the warp expands its 32 vertices' arcs together,
// 32 consecutive arcs per step (warp prefix sum of the degrees, owner found by shuffle binary
// search, as warp-search), so a step has 32 busy lanes; 0 = one vertex per lane in lock-step
// (as many steps as the warp's largest degree, most lanes idle on skewed degrees).
#ifndef WG_BFS_SMALL_SEARCH
#define WG_BFS_SMALL_SEARCH 1
#endif

// Visit one candidate arc, filter duplicates, push (warp-collective).
template <typename V, typename Visit, typename S>
__device__ __forceinline__ void emit(bool has, V u, V v, const Visit& visit, S& sink, int dedup,
                                     u64* hash) {
    long long deg = -1;
    bool keep;
    if constexpr (reports_degree<Visit>::value) {
        keep = has && visit(u, v, deg);
    } else {
        keep = has && visit(u, v);
    }
    if (dedup == DEDUP_WARP_HASH) {
        keep = hash_filter(keep, v, hash + (threadIdx.x / WARP_SIZE) * WARP_HASH, WARP_HASH - 1);
    } else if (dedup == DEDUP_BLOCK_HASH) {
        keep = hash_filter(keep, v, hash, BLOCK_HASH - 1);
    }
    if constexpr (reports_degree<Visit>::value) {
        sink.push_known(keep, u, v, deg);
    } else {
        sink.push(keep, u, v);
    }
}

// emit() with the status already read by visit.peek (PEEKS functors).
template <typename V, typename Visit, typename S>
__device__ __forceinline__ void emit_peeked(bool has, V u, V v, int peeked, const Visit& visit,
                                            S& sink, int dedup, u64* hash) {
    long long deg = -1;
    bool keep = has && visit(u, v, deg, peeked);
    if (dedup == DEDUP_WARP_HASH) {
        keep = hash_filter(keep, v, hash + (threadIdx.x / WARP_SIZE) * WARP_HASH, WARP_HASH - 1);
    } else if (dedup == DEDUP_BLOCK_HASH) {
        keep = hash_filter(keep, v, hash, BLOCK_HASH - 1);
    }
    sink.push_known(keep, u, v, deg);
}

// Arcs j0, j0 + step, ... (T of them, those below e) of vertex u: neighbours loaded, then their
// statuses (peek), then visited in order. Warp-collective (every lane calls with the same T).
template <int T, typename V, typename Visit, typename S>
__device__ __forceinline__ void expand_peeked(V u, eid_t j0, eid_t step, eid_t e, const Csr<V>& g,
                                              const Visit& visit, S& sink, int dedup, u64* hash) {
    V v[T];
    int st[T];
#pragma unroll
    for (int t = 0; t < T; ++t) {
        const eid_t j = j0 + t * step;
        v[t] = j < e ? ldg(g.indices + j) : (V)0;
    }
#pragma unroll
    for (int t = 0; t < T; ++t) st[t] = j0 + t * step < e ? visit.peek(v[t]) : 0;
#pragma unroll
    for (int t = 0; t < T; ++t) emit_peeked(j0 + t * step < e, u, v[t], st[t], visit, sink, dedup, hash);
}

// Expand [b, e) of vertex u with `width` threads starting at `first` (warp-uniform trip count).
// The neighbour of the next step is loaded before this step's visit (one load in flight ahead);
// with a PEEKS functor and WG_BFS_TD_BATCH > 1, that many arcs per lane and step (expand_peeked).
template <typename V, typename Visit, typename S>
__device__ __forceinline__ void expand_strided(V u, eid_t b, eid_t e, long long first, long long width,
                                               const Csr<V>& g, const Visit& visit, S& sink,
                                               int dedup, u64* hash) {
    if constexpr (peeks<Visit>::value && WG_BFS_TD_BATCH > 1) {
        if (!visit.direct) {
            constexpr int T = WG_BFS_TD_BATCH;
            for (eid_t jb = b; jb < e; jb += T * width) {
                expand_peeked<T>(u, jb + first, (eid_t)width, e, g, visit, sink, dedup, hash);
            }
            return;
        }
    }
    eid_t j = b + first;
    V v = j < e ? ldg(g.indices + j) : (V)0;
    for (eid_t jb = b; jb < e; jb += width) {
        const eid_t jn = j + width;
        const V vn = jn < e ? ldg(g.indices + jn) : (V)0;
        emit(j < e, u, v, visit, sink, dedup, hash);
        j = jn;
        v = vn;
    }
}

// ---- gathering -------------------------------------------------------------------------------
// Block gathering: vertices of degree >= BLOCK are expanded by the whole block, one after the
// other; their range is then marked consumed (b = e). Block-collective.
template <typename V, typename Visit, typename S>
__device__ void block_gather(bool own, V u, eid_t& b, eid_t e, const Csr<V>& g,
                             const Visit& visit, S& sink, int dedup, u64* hash) {
    __shared__ V s_u[BLOCK];
    __shared__ eid_t s_b[BLOCK];
    __shared__ eid_t s_e[BLOCK];
    __shared__ int s_n;
    if (threadIdx.x == 0) s_n = 0;
    __syncthreads();
    if (own && e - b >= BLOCK) {
        const int k = atomicAdd(&s_n, 1);
        s_u[k] = u;
        s_b[k] = b;
        s_e[k] = e;
        b = e;
    }
    __syncthreads();
    const int count = s_n;
    for (int k = 0; k < count; ++k) {
        expand_strided(s_u[k], s_b[k], s_e[k], (long long)threadIdx.x, (long long)BLOCK, g, visit,
                       sink, dedup, hash);
    }
    __syncthreads();
}

// Warp gathering: lanes owning a vertex of degree >= 32 hand it to the whole warp.
template <typename V, typename Visit, typename S>
__device__ void warp_gather(bool own, V u, eid_t& b, eid_t e, const Csr<V>& g, const Visit& visit,
                            S& sink, int dedup, u64* hash) {
    const bool mine = own && e - b >= WARP_SIZE;
    unsigned big = __ballot_sync(FULL_MASK, mine);
    while (big) {
        const int o = __ffs(big) - 1;
        big &= big - 1;
        const V wu = __shfl_sync(FULL_MASK, u, o);
        const eid_t wb = __shfl_sync(FULL_MASK, b, o);
        const eid_t we = __shfl_sync(FULL_MASK, e, o);
        expand_strided(wu, wb, we, (long long)lane_id(), (long long)WARP_SIZE, g, visit, sink, dedup,
                       hash);
    }
    if (mine) b = e;
}

template <typename V, typename Visit, typename S>
__device__ __forceinline__ void gather_large(int gather, bool own, V u, eid_t& b, eid_t e,
                                             const Csr<V>& g, const Visit& visit, S& sink,
                                             int dedup, u64* hash) {
    if (gather == GATHER_BLOCK) block_gather(own, u, b, e, g, visit, sink, dedup, hash);
    if (gather != GATHER_NONE) warp_gather(own, u, b, e, g, visit, sink, dedup, hash);
}

// ---- node-based mapping ----------------------------------------------------------------------
// G = 1 or 4: BLOCK / G vertices per tile, every thread of a group reads its group's vertex.
template <int G, typename V, typename Visit, typename S>
__device__ void advance_node(const Csr<V>& g, const V* q, long long qn, const Visit& visit,
                             S& sink, int gather, int dedup, u64* hash) {
    constexpr int PER = BLOCK / G;
    const int gl = (int)(threadIdx.x % G);
    for (long long t0 = (long long)blockIdx.x * PER; t0 < qn; t0 += (long long)gridDim.x * PER) {
        const long long i = t0 + threadIdx.x / G;
        V u = 0;
        eid_t b = 0, e = 0;
        if (i < qn) {
            u = q[i];
            b = ldg(g.indptr + u);
            e = ldg(g.indptr + u + 1);
        }
        if (gather != GATHER_NONE) {
            gather_large(gather, gl == 0 && i < qn, u, b, e, g, visit, sink, dedup, hash);
            if (G > 1) b = __shfl_sync(FULL_MASK, b, lane_id() - gl);  // the leader's verdict
        }
        const long long steps = warp_max((long long)((e - b + G - 1) / G));
        for (long long k = 0; k < steps; ++k) {
            const eid_t j = b + k * G + gl;
            const bool has = j < e;
            const V v = has ? ldg(g.indices + j) : (V)0;
            emit(has, u, v, visit, sink, dedup, hash);
        }
    }
}

// G = 16 or 32: one vertex per thread (coalesced), groups of G take the G vertices of their
// segment in turn (shuffle broadcast).
template <int G, typename V, typename Visit, typename S>
__device__ void advance_node_shfl(const Csr<V>& g, const V* q, long long qn, const Visit& visit,
                                  S& sink, int gather, int dedup, u64* hash) {
    const int gl = lane_id() % G;
    for (long long t0 = (long long)blockIdx.x * BLOCK; t0 < qn; t0 += (long long)gridDim.x * BLOCK) {
        const long long i = t0 + threadIdx.x;
        V u = 0;
        eid_t b = 0, e = 0;
        if (i < qn) {
            u = q[i];
            b = ldg(g.indptr + u);
            e = ldg(g.indptr + u + 1);
        }
        gather_large(gather, i < qn, u, b, e, g, visit, sink, dedup, hash);
        for (int r = 0; r < G; ++r) {
            const V ru = __shfl_sync(FULL_MASK, u, r, G);
            const eid_t rb = __shfl_sync(FULL_MASK, b, r, G);
            const eid_t re = __shfl_sync(FULL_MASK, e, r, G);
            const long long steps = warp_max((long long)((re - rb + G - 1) / G));
            for (long long k = 0; k < steps; ++k) {
                const eid_t j = rb + k * G + gl;
                const bool has = j < re;
                const V v = has ? ldg(g.indices + j) : (V)0;
                emit(has, ru, v, visit, sink, dedup, hash);
            }
        }
    }
}

// ---- scan-based mappings ---------------------------------------------------------------------
template <typename V>
__device__ __forceinline__ void load_tile_vertex(const Csr<V>& g, const V* q, long long qn,
                                                 long long i, V& u, eid_t& b, eid_t& e) {
    u = 0;
    b = e = 0;
    if (i < qn) {
        u = q[i];
        b = ldg(g.indptr + u);
        e = ldg(g.indptr + u + 1);
    }
}

// The arcs of a warp's 32 tile vertices, 32 at a time: lane x takes arc x of the warp's
// concatenated lists, its owner found by a search of the inclusive degree sums.
template <typename V, typename Visit, typename S>
__device__ __forceinline__ void expand_warp_tile(const Csr<V>& g, int lane, V u, eid_t b, eid_t e,
                                                 const Visit& visit, S& sink, int dedup,
                                                 u64* hash) {
    const eid_t deg = e - b;
    const eid_t incl = warp_inclusive_sum(deg);
    const eid_t total = __shfl_sync(FULL_MASK, incl, WARP_SIZE - 1);
    const eid_t start = b - (incl - deg);  // arc x of the warp is start(owner) + x
    for (eid_t base = 0; base < total; base += WARP_SIZE) {
        const eid_t x = base + lane;
        int owner = warp_owner(incl, x);
        owner = owner < WARP_SIZE - 1 ? owner : WARP_SIZE - 1;
        const V ou = __shfl_sync(FULL_MASK, u, owner);
        const eid_t os = __shfl_sync(FULL_MASK, start, owner);
        const bool has = x < total;
        const V v = has ? ldg(g.indices + os + x) : (V)0;
        emit(has, ou, v, visit, sink, dedup, hash);
    }
}

template <typename V, typename Visit, typename S>
__device__ void advance_warp_search(const Csr<V>& g, const V* q, long long qn, const Visit& visit,
                                    S& sink, int gather, int dedup, u64* hash) {
    const int lane = lane_id();
    for (long long t0 = (long long)blockIdx.x * BLOCK; t0 < qn; t0 += (long long)gridDim.x * BLOCK) {
        V u;
        eid_t b, e;
        load_tile_vertex(g, q, qn, t0 + threadIdx.x, u, b, e);
        gather_large(gather, t0 + threadIdx.x < qn, u, b, e, g, visit, sink, dedup, hash);
        expand_warp_tile(g, lane, u, b, e, visit, sink, dedup, hash);
    }
}

template <typename V, typename Visit, typename S>
__device__ void advance_warp_scan(const Csr<V>& g, const V* q, long long qn, const Visit& visit,
                                  S& sink, int gather, int dedup, u64* hash) {
    constexpr int BUF = 2 * WARP_SIZE;
    __shared__ eid_t s_pos[WARPS][BUF];
    __shared__ V s_src[WARPS][BUF];
    const int lane = lane_id();
    const int w = (int)(threadIdx.x / WARP_SIZE);
    for (long long t0 = (long long)blockIdx.x * BLOCK; t0 < qn; t0 += (long long)gridDim.x * BLOCK) {
        V u;
        eid_t b, e;
        load_tile_vertex(g, q, qn, t0 + threadIdx.x, u, b, e);
        gather_large(gather, t0 + threadIdx.x < qn, u, b, e, g, visit, sink, dedup, hash);
        const eid_t deg = e - b;
        const eid_t incl = warp_inclusive_sum(deg);
        const eid_t excl = incl - deg;
        const eid_t total = __shfl_sync(FULL_MASK, incl, WARP_SIZE - 1);
        for (eid_t base = 0; base < total; base += BUF) {
            // 1. scatter: each lane writes the positions of its edges that fall in this window
            const eid_t lo = excl > base ? excl : base;
            const eid_t hi = incl < base + BUF ? incl : base + BUF;
            for (eid_t p = lo; p < hi; ++p) {
                s_pos[w][p - base] = b + (p - excl);
                s_src[w][p - base] = u;
            }
            __syncwarp();
            // 2. gather: the warp consumes the window, 32 consecutive edges at a time
#pragma unroll
            for (int k = 0; k < BUF / WARP_SIZE; ++k) {
                const int slot = k * WARP_SIZE + lane;
                const bool has = base + slot < total;
                V v = 0, src = 0;
                if (has) {
                    src = s_src[w][slot];
                    v = ldg(g.indices + s_pos[w][slot]);
                }
                emit(has, src, v, visit, sink, dedup, hash);
            }
            __syncwarp();
        }
    }
}

template <typename V, typename Visit, typename S>
__device__ void advance_block_search(const Csr<V>& g, const V* q, long long qn, const Visit& visit,
                                     S& sink, int gather, int dedup, u64* hash) {
    __shared__ eid_t s_incl[BLOCK];
    __shared__ eid_t s_start[BLOCK];
    __shared__ V s_u[BLOCK];
    __shared__ eid_t s_wsum[WARPS];
    const int lane = lane_id();
    const int w = (int)(threadIdx.x / WARP_SIZE);
    for (long long t0 = (long long)blockIdx.x * BLOCK; t0 < qn; t0 += (long long)gridDim.x * BLOCK) {
        V u;
        eid_t b, e;
        load_tile_vertex(g, q, qn, t0 + threadIdx.x, u, b, e);
        gather_large(gather, t0 + threadIdx.x < qn, u, b, e, g, visit, sink, dedup, hash);
        // 1. block-wide inclusive prefix sum of the remaining degrees
        const eid_t deg = e - b;
        const eid_t wincl = warp_inclusive_sum(deg);
        if (lane == WARP_SIZE - 1) s_wsum[w] = wincl;
        __syncthreads();
        if (w == 0) {
            eid_t t = lane < WARPS ? s_wsum[lane] : 0;
            t = warp_inclusive_sum(t);
            if (lane < WARPS) s_wsum[lane] = t;
        }
        __syncthreads();
        const eid_t incl = wincl + (w > 0 ? s_wsum[w - 1] : 0);
        s_incl[threadIdx.x] = incl;
        s_start[threadIdx.x] = b - (incl - deg);
        s_u[threadIdx.x] = u;
        const eid_t total = s_wsum[WARPS - 1];
        __syncthreads();
        // 2. each thread finds the owner of its edge by binary search in shared memory
        for (eid_t base = 0; base < total; base += BLOCK) {
            const eid_t x = base + threadIdx.x;
            int lo = 0;
#pragma unroll
            for (int s = BLOCK / 2; s > 0; s >>= 1) {
                if (s_incl[lo + s - 1] <= x) lo += s;
            }
            const int owner = lo < BLOCK - 1 ? lo : BLOCK - 1;
            const bool has = x < total;
            const V v = has ? ldg(g.indices + s_start[owner] + x) : (V)0;
            emit(has, s_u[owner], v, visit, sink, dedup, hash);
        }
        __syncthreads();
    }
}

// ---- degree bins -----------------------------------------------------------------------------
// Block-wide inclusive prefix sum (block-collective); *total receives the block's sum.
__device__ __forceinline__ eid_t block_inclusive_scan(eid_t x, eid_t* total) {
    __shared__ eid_t s_wsum[WARPS];
    const int lane = lane_id();
    const int w = (int)(threadIdx.x / WARP_SIZE);
    const eid_t wincl = warp_inclusive_sum(x);
    if (lane == WARP_SIZE - 1) s_wsum[w] = wincl;
    __syncthreads();
    if (w == 0) {
        eid_t t = lane < WARPS ? s_wsum[lane] : 0;
        t = warp_inclusive_sum(t);
        if (lane < WARPS) s_wsum[lane] = t;
    }
    __syncthreads();
    const eid_t incl = wincl + (w > 0 ? s_wsum[w - 1] : 0);
    *total = s_wsum[WARPS - 1];
    __syncthreads();  // s_wsum may be reused by the next call
    return incl;
}

// The extreme class, dealt: the edges of its vertices are cut into chunks of BLOCK edges,
// numbered in queue order, and chunk k goes to block k % gridDim.x, so every block gets the same
// share whatever the degrees (one vertex per block would serialize a hub of 60,000 edges in one
// block; the whole grid per vertex, one vertex after the other, serializes the vertices). Each
// block reads the class BLOCK vertices at a time: a block prefix sum of their chunk counts
// numbers the chunks, the block lists its own in shared memory and expands them one edge per
// thread. xq[dir * i] is the i-th vertex (dir = -1: the extreme class, which fills the big
// queue from the back; +1: the large class, dealt too when it has fewer vertices than blocks).
template <typename V, typename Visit, typename S>
__device__ void deal_extreme(const Csr<V>& g, const V* xq, long long count, const Visit& visit,
                             S& sink, int dedup, u64* hash, int dir = -1) {
    __shared__ V s_u[BLOCK];
    __shared__ eid_t s_first[BLOCK];
    __shared__ eid_t s_end[BLOCK];
    __shared__ int s_n;
    const long long nblocks = gridDim.x;
    const eid_t stride = (eid_t)nblocks * BLOCK;
    eid_t before = 0;  // chunks of the earlier rounds' vertices
    for (long long r0 = 0; r0 < count; r0 += BLOCK) {
        // 1. load: this round's vertices, one per thread, and their chunk counts
        const long long i = r0 + threadIdx.x;
        V u = 0;
        eid_t b = 0, e = 0;
        if (i < count) {
            u = xq[dir * i];
            b = ldg(g.indptr + u);
            e = ldg(g.indptr + u + 1);
        }
        const eid_t nch = (e - b + BLOCK - 1) / BLOCK;
        // 2. scan: global number of each vertex's first chunk
        eid_t total;
        const eid_t incl = block_inclusive_scan(nch, &total);
        const eid_t first = before + incl - nch;
        // 3. list: the vertices with a chunk for this block, and its first such chunk
        long long k0 = ((long long)blockIdx.x - first) % nblocks;
        if (k0 < 0) k0 += nblocks;
        if (threadIdx.x == 0) s_n = 0;
        __syncthreads();
        if (k0 < nch) {
            const int k = atomicAdd(&s_n, 1);
            s_u[k] = u;
            s_first[k] = b + (eid_t)k0 * BLOCK;
            s_end[k] = e;
        }
        __syncthreads();
        // 4. visit: the block's chunks, one edge per thread (with a PEEKS functor and
        // WG_BFS_TD_BATCH > 1, the first chunks of that many vertices at once)
        const int items = s_n;
        if constexpr (peeks<Visit>::value && WG_BFS_TD_BATCH > 1) {
            if (!visit.direct) {
                constexpr int T = WG_BFS_TD_BATCH;
                for (int k0 = 0; k0 < items; k0 += T) {
                    V xv[T], xu[T];
                    int st[T];
                    bool has[T];
#pragma unroll
                    for (int t = 0; t < T; ++t) {
                        const int k = k0 + t;
                        const eid_t j = k < items ? s_first[k] + threadIdx.x : 0;
                        has[t] = k < items && j < s_end[k];
                        xu[t] = k < items ? s_u[k] : (V)0;
                        xv[t] = has[t] ? ldg(g.indices + j) : (V)0;
                    }
#pragma unroll
                    for (int t = 0; t < T; ++t) st[t] = has[t] ? visit.peek(xv[t]) : 0;
#pragma unroll
                    for (int t = 0; t < T; ++t) {
                        emit_peeked(has[t], xu[t], xv[t], st[t], visit, sink, dedup, hash);
                    }
                    for (int t = 0; t < T && k0 + t < items; ++t) {  // later chunks, if any
                        const int k = k0 + t;
                        const eid_t xe = s_end[k];
                        for (eid_t cb = s_first[k] + stride; cb < xe; cb += stride) {
                            const eid_t j = cb + threadIdx.x;
                            const bool h = j < xe;
                            const V v = h ? ldg(g.indices + j) : (V)0;
                            emit(h, s_u[k], v, visit, sink, dedup, hash);
                        }
                    }
                }
                before += total;
                __syncthreads();  // the lists are rewritten by the next round
                continue;
            }
        }
        for (int k = 0; k < items; ++k) {
            const V xu = s_u[k];
            const eid_t xe = s_end[k];
            for (eid_t cb = s_first[k]; cb < xe; cb += stride) {
                const eid_t j = cb + threadIdx.x;
                const bool has = j < xe;
                const V v = has ? ldg(g.indices + j) : (V)0;
                emit(has, xu, v, visit, sink, dedup, hash);
            }
        }
        before += total;
        __syncthreads();  // the lists are rewritten by the next round
    }
}

template <typename V, typename Visit, typename S>
__device__ void advance_bins(const Csr<V>& g, const FrontierIn<V>& in, const Visit& visit, S& sink,
                             int dedup, u64* hash) {
    const int lane = lane_id();
    const long long warp = (long long)blockIdx.x * WARPS + threadIdx.x / WARP_SIZE;
    const long long nwarps = (long long)gridDim.x * WARPS;
    // small (< 32): one thread per vertex, lanes in lock-step
    const long long ns = in.count[0];
    for (long long t0 = (long long)blockIdx.x * BLOCK; t0 < ns; t0 += (long long)gridDim.x * BLOCK) {
        V u;
        eid_t b, e;
        load_tile_vertex(g, in.q, ns, t0 + threadIdx.x, u, b, e);
        if constexpr (WG_BFS_SMALL_SEARCH != 0) {
            expand_warp_tile(g, lane, u, b, e, visit, sink, dedup, hash);
            continue;
        }
        const long long steps = warp_max((long long)(e - b));
        if constexpr (peeks<Visit>::value && WG_BFS_TD_BATCH > 1) {
            if (!visit.direct) {
                constexpr int T = WG_BFS_TD_BATCH;
                for (long long k = 0; k < steps; k += T) {
                    expand_peeked<T>(u, b + k, (eid_t)1, e, g, visit, sink, dedup, hash);
                }
                continue;
            }
        }
        for (long long k = 0; k < steps; ++k) {
            const eid_t j = b + k;
            const bool has = j < e;
            const V v = has ? ldg(g.indices + j) : (V)0;
            emit(has, u, v, visit, sink, dedup, hash);
        }
    }
    // middle (32..255): one warp per vertex
    for (long long i = warp; i < in.count[1]; i += nwarps) {
        const V u = in.q[in.qcap - 1 - i];
        expand_strided(u, ldg(g.indptr + u), ldg(g.indptr + u + 1), (long long)lane,
                       (long long)WARP_SIZE, g, visit, sink, dedup, hash);
    }
    // large (256..65535): one block per vertex; dealt in chunks like the extreme class when
    // there are fewer of them than blocks (a level of a few hubs is not left to a few blocks)
    const bool deal_large = in.deal_large && in.deal_extreme && in.count[2] < gridDim.x;
    if (deal_large) deal_extreme(g, in.big, in.count[2], visit, sink, dedup, hash, 1);
    for (long long i = deal_large ? in.count[2] : blockIdx.x; i < in.count[2]; i += gridDim.x) {
        const V u = in.big[i];
        expand_strided(u, ldg(g.indptr + u), ldg(g.indptr + u + 1), (long long)threadIdx.x,
                       (long long)BLOCK, g, visit, sink, dedup, hash);
    }
    // extreme (>= 65536, or the caller's threshold): the whole grid
    if (in.deal_extreme) {
        deal_extreme(g, in.big + in.bigcap - 1, in.count[3], visit, sink, dedup, hash);
        return;
    }
    const long long first = (long long)blockIdx.x * BLOCK + (threadIdx.x / WARP_SIZE) * WARP_SIZE;
    for (long long i = 0; i < in.count[3]; ++i) {
        const V u = in.big[in.bigcap - 1 - i];
        const eid_t b = ldg(g.indptr + u) + first, e = ldg(g.indptr + u + 1);
        expand_strided(u, b, e, (long long)lane, (long long)gridDim.x * BLOCK, g, visit, sink, dedup,
                       hash);
    }
}

// ---- merge-path (device-wide binary search over the prefix sum of degrees) -------------------
// pre[i] = inclusive sum of the degrees of q[0..i]. Each block takes chunks of CHUNK edges; two
// threads find the chunk's first and last owners in `pre`, the block stages the owners' prefix
// and start positions in shared memory, then each thread binary-searches there for its edges
// (consecutive threads take consecutive edges: coalesced reads of `indices`).
constexpr int MP_ITEMS = 4;
constexpr int MP_CHUNK = BLOCK * MP_ITEMS;

template <typename V, typename Visit, typename S>
__device__ void advance_merge_path(const Csr<V>& g, const V* q, long long qn, const eid_t* pre,
                                   const Visit& visit, S& sink, int dedup, u64* hash) {
    __shared__ eid_t s_pre[MP_CHUNK + 1];
    __shared__ eid_t s_start[MP_CHUNK + 1];
    __shared__ V s_u[MP_CHUNK + 1];
    __shared__ long long s_range[2];
    if (qn <= 0) return;
    const eid_t total = pre[qn - 1];
    for (eid_t c0 = (eid_t)blockIdx.x * MP_CHUNK; c0 < total; c0 += (eid_t)gridDim.x * MP_CHUNK) {
        const eid_t c1 = c0 + MP_CHUNK < total ? c0 + MP_CHUNK : total;
        if (threadIdx.x < 2) s_range[threadIdx.x] = upper_bound(pre, qn, threadIdx.x ? c1 - 1 : c0);
        __syncthreads();
        const long long lo = s_range[0];
        const long long cnt = s_range[1] - lo + 1;
        const bool staged = cnt <= MP_CHUNK + 1;
        if (staged) {
            for (long long k = threadIdx.x; k < cnt; k += BLOCK) {
                const long long i = lo + k;
                const V u = q[i];
                const eid_t excl = i > 0 ? pre[i - 1] : 0;
                s_pre[k] = pre[i];
                s_start[k] = ldg(g.indptr + u) - excl;
                s_u[k] = u;
            }
        }
        __syncthreads();
#pragma unroll
        for (int it = 0; it < MP_ITEMS; ++it) {
            const eid_t x = c0 + it * BLOCK + threadIdx.x;
            const bool has = x < c1;
            V u = 0, v = 0;
            if (has) {
                eid_t start;
                if (staged) {
                    long long a = 0, z = cnt;  // first staged k with s_pre[k] > x
                    while (a < z) {
                        const long long mid = (a + z) >> 1;
                        if (s_pre[mid] <= x) a = mid + 1;
                        else z = mid;
                    }
                    u = s_u[a];
                    start = s_start[a];
                } else {
                    const long long i = upper_bound(pre, qn, x);
                    u = q[i];
                    start = ldg(g.indptr + u) - (i > 0 ? pre[i - 1] : 0);
                }
                v = ldg(g.indices + start + x);
            }
            emit(has, u, v, visit, sink, dedup, hash);
        }
        __syncthreads();
    }
}

// ---- dispatch --------------------------------------------------------------------------------
template <int LB, typename V, typename Visit, typename S>
__device__ __forceinline__ void advance(const Csr<V>& g, const FrontierIn<V>& in, const eid_t* pre,
                                        const Visit& visit, S& sink, int gather, int dedup,
                                        u64* hash) {
    const long long qn = in.count[0];
    if constexpr (LB == LB_NODE1) {
        advance_node<1>(g, in.q, qn, visit, sink, gather, dedup, hash);
    } else if constexpr (LB == LB_NODE4) {
        advance_node<4>(g, in.q, qn, visit, sink, gather, dedup, hash);
    } else if constexpr (LB == LB_NODE16) {
        advance_node_shfl<16>(g, in.q, qn, visit, sink, gather, dedup, hash);
    } else if constexpr (LB == LB_NODE32) {
        advance_node_shfl<32>(g, in.q, qn, visit, sink, gather, dedup, hash);
    } else if constexpr (LB == LB_WARP_SCAN) {
        advance_warp_scan(g, in.q, qn, visit, sink, gather, dedup, hash);
    } else if constexpr (LB == LB_WARP_SEARCH) {
        advance_warp_search(g, in.q, qn, visit, sink, gather, dedup, hash);
    } else if constexpr (LB == LB_BLOCK_SEARCH) {
        advance_block_search(g, in.q, qn, visit, sink, gather, dedup, hash);
    } else if constexpr (LB == LB_BINS) {
        advance_bins(g, in, visit, sink, dedup, hash);
    } else {
        static_assert(LB == LB_MERGE_PATH, "unknown load-balancing policy");
        advance_merge_path(g, in.q, qn, pre, visit, sink, dedup, hash);
    }
}

}  // namespace fr
}  // namespace wg
