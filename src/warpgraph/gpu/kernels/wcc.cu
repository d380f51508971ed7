// warpgraph: weakly connected components on the GPU.
//
// Union-find in the style of ECL-CC (Jaiganesh & Burtscher, HPDC 2018) and Afforest (Sutton,
// Ben-Nun & Barak, IPDPS 2018), plus minimum-label propagation.
//
// Invariant of every method: label[x] <= x and label[x] lies in x's component. Hooking links the
// larger of two roots under the smaller with atomicCAS (which succeeds only while it is still a
// root), so a tree's root is its smallest vertex, and after wcc_compress every vertex holds the
// smallest vertex id of its component. Union is symmetric, so out-arcs alone give weak
// components.
//
// Work distribution of wcc_visit (one pass over the arcs of the selected vertices): a warp takes
// 32 consecutive vertices; rows shorter than 32 arcs are walked by their own lane, longer ones by
// the whole warp in turn. A row longer than `chunk` arcs keeps only its first chunk there and
// appends the rest, `chunk` arcs per item, to a queue that wcc_visit_chunks drains with one warp
// per item (a hub of 10^5 arcs would otherwise hold one warp for the whole pass).
#include "common.cuh"

namespace wcc {

enum Op { UNION = 0, MIN_LABEL = 1 };

// Root of x, halving the path on the way (a non-root's parent is only ever replaced by one of
// its ancestors, so concurrent halving is safe).
template <typename V>
__device__ __forceinline__ V find(V* parent, V x) {
    V cur = parent[x];
    if (cur != x) {
        V prev = x;
        V next;
        while (cur > (next = parent[cur])) {
            parent[prev] = next;
            prev = cur;
            cur = next;
        }
    }
    return cur;
}

template <typename V>
__device__ __forceinline__ void unite(V* parent, V a, V b) {
    V ra = find(parent, a);
    V rb = find(parent, b);
    while (ra != rb) {
        if (ra < rb) {
            const V old = wg::atomic_cas(parent + rb, rb, ra);
            if (old == rb) break;
            rb = old;  // rb was hooked meanwhile: climb
        } else {
            const V old = wg::atomic_cas(parent + ra, ra, rb);
            if (old == ra) break;
            ra = old;
        }
    }
}

__device__ __forceinline__ int atomic_min(int* p, int v) { return atomicMin(p, v); }
__device__ __forceinline__ long long atomic_min(long long* p, long long v) {
    return atomicMin(p, v);
}

// One arc u - v: union (returns false) or one step of minimum-label propagation (returns
// whether a label dropped).
template <typename V, int OP>
__device__ __forceinline__ bool visit(V* label, V u, V v) {
    if (OP == UNION) {
        unite(label, u, v);
        return false;
    }
    const V lu = label[u];
    const V lv = label[v];
    if (lu < lv) {
        atomic_min(label + v, lu);
        return true;
    }
    if (lv < lu) {
        atomic_min(label + u, lv);
        return true;
    }
    return false;
}

}  // namespace wcc

// label[v] = v, or v's first neighbour when that is smaller (ECL-CC's initialisation: a valid
// parent that shortens the later finds; every arc is still joined afterwards).
template <typename V>
__global__ void wcc_init(const long long* __restrict__ indptr, const V* __restrict__ indices,
                         long long n, V* label, int first_neighbor) {
    for (long long v = wg::global_thread_id(); v < n; v += wg::grid_threads()) {
        V p = (V)v;
        if (first_neighbor) {
            const long long b = wg::ldg(indptr + v);
            if (b < wg::ldg(indptr + v + 1)) {
                const V w = wg::ldg(indices + b);
                if (w < p) p = w;
            }
        }
        label[v] = p;
    }
}

// Visit the arcs [indptr[u] + start, indptr[u + 1]) of every vertex u with label[u] != skip
// (skip < 0: every vertex). lower_only (symmetric CSR: each edge stored twice) skips the arcs
// u -> v with v > u. Rows longer than `chunk` queue their tail (q_* arrays, q_count items).
// `changed` is set when a MIN_LABEL step lowered a label.
template <typename V, int OP>
__global__ void wcc_visit(const long long* __restrict__ indptr, const V* __restrict__ indices,
                          long long n, V* label, long long start, long long skip, int lower_only,
                          long long chunk, long long* q_vertex, long long* q_begin,
                          long long* q_end, unsigned long long* q_count, int* changed) {
    const int lane = wg::lane_id();
    bool dropped = false;
    for (long long base = wg::warp_base(); base < n; base += wg::warp_stride()) {
        const long long u = base + lane;
        long long begin = 0, end = 0;
        if (u < n) {
            end = wg::ldg(indptr + u + 1);
            begin = wg::ldg(indptr + u) + start;
            if (begin > end) begin = end;
            if (skip >= 0 && (long long)label[u] == skip) end = begin;
        }
        // 1. split long rows: keep the first chunk, queue the rest
        const long long rest = end - begin - chunk;
        const long long items = rest > 0 ? (rest + chunk - 1) / chunk : 0;
        if (__any_sync(wg::FULL_MASK, items > 0)) {
            const unsigned long long slot =
                wg::warp_reserve(q_count, (unsigned long long)items);
            for (long long i = 0; i < items; ++i) {
                const long long b = begin + chunk * (i + 1);
                const long long e = b + chunk < end ? b + chunk : end;
                q_vertex[slot + i] = u;
                q_begin[slot + i] = b;
                q_end[slot + i] = e;
            }
            if (items > 0) end = begin + chunk;
        }
        // 2. rows of 32+ arcs: the whole warp, one row after the other
        const long long deg = end - begin;
        unsigned big = __ballot_sync(wg::FULL_MASK, deg >= wg::WARP_SIZE);
        while (big) {
            const int owner = __ffs(big) - 1;
            big &= big - 1;
            const long long b = __shfl_sync(wg::FULL_MASK, begin, owner);
            const long long e = __shfl_sync(wg::FULL_MASK, end, owner);
            const V w = (V)(base + owner);
            for (long long j = b + lane; j < e; j += wg::WARP_SIZE) {
                const V v = wg::ldg(indices + j);
                if (!(lower_only && v > w)) dropped |= wcc::visit<V, OP>(label, w, v);
            }
        }
        // 3. short rows: each lane its own
        if (deg < wg::WARP_SIZE) {
            for (long long j = begin; j < end; ++j) {
                const V v = wg::ldg(indices + j);
                if (!(lower_only && v > (V)u)) dropped |= wcc::visit<V, OP>(label, (V)u, v);
            }
        }
    }
    if (OP == wcc::MIN_LABEL && dropped) *changed = 1;
}

// Drain the queue of row tails left by wcc_visit: one warp per item.
template <typename V, int OP>
__global__ void wcc_visit_chunks(const V* __restrict__ indices, V* label, int lower_only,
                                 const long long* __restrict__ q_vertex,
                                 const long long* __restrict__ q_begin,
                                 const long long* __restrict__ q_end,
                                 const unsigned long long* __restrict__ q_count, int* changed) {
    const long long count = (long long)*q_count;
    const int lane = wg::lane_id();
    const long long warps = wg::grid_threads() / wg::WARP_SIZE;
    bool dropped = false;
    for (long long i = wg::global_thread_id() / wg::WARP_SIZE; i < count; i += warps) {
        const V w = (V)q_vertex[i];
        const long long e = q_end[i];
        for (long long j = q_begin[i] + lane; j < e; j += wg::WARP_SIZE) {
            const V v = wg::ldg(indices + j);
            if (!(lower_only && v > w)) dropped |= wcc::visit<V, OP>(label, w, v);
        }
    }
    if (OP == wcc::MIN_LABEL && dropped) *changed = 1;
}

// Afforest's sampling step: join every vertex to its neighbour number r (if it has one).
template <typename V>
__global__ void wcc_link_nth(const long long* __restrict__ indptr, const V* __restrict__ indices,
                             long long n, V* parent, long long r) {
    for (long long u = wg::global_thread_id(); u < n; u += wg::grid_threads()) {
        const long long p = wg::ldg(indptr + u) + r;
        if (p < wg::ldg(indptr + u + 1)) wcc::unite(parent, (V)u, wg::ldg(indices + p));
    }
}

// Pointer jumping to the root: afterwards label[x] is the root of x's tree. The walk halves the
// path as it goes (wcc::find), so threads climbing the same deep chain (a grid's columns after
// one Afforest round) shorten it for each other instead of each walking all of it.
template <typename V>
__global__ void wcc_compress(V* parent, long long n) {
    for (long long x = wg::global_thread_id(); x < n; x += wg::grid_threads()) {
        parent[x] = wcc::find(parent, (V)x);
    }
}

// Second pass after wcc_compress, which can leave a few entries short of the root: a thread
// halving a path may write parent[x] = (an ancestor it read earlier) after x's own thread stored
// the root. Here threads only read others' entries and store their own root, so no store can
// undo another, and the paths left by wcc_compress are a few hops long.
template <typename V>
__global__ void wcc_flatten(V* parent, long long n) {
    for (long long x = wg::global_thread_id(); x < n; x += wg::grid_threads()) {
        V r = parent[x];
        V next;
        while ((next = parent[r]) != r) r = next;
        parent[x] = r;
    }
}

// Smallest vertex of every label: first[label[v]] = min v (first[] preset to n). Turns any
// labelling with labels in [0, size of first) into "smallest vertex" labels.
template <typename V>
__global__ void wcc_first_vertex(const V* __restrict__ label, long long n, V* first) {
    for (long long v = wg::global_thread_id(); v < n; v += wg::grid_threads()) {
        wcc::atomic_min(first + label[v], (V)v);
    }
}

#ifdef WARPGRAPH_NVCC_CHECK
#define WCC_INSTANTIATE(V)                                                                     \
    template __global__ void wcc_init<V>(const long long*, const V*, long long, V*, int);      \
    template __global__ void wcc_visit<V, 0>(const long long*, const V*, long long, V*,        \
                                             long long, long long, int, long long, long long*, \
                                             long long*, long long*, unsigned long long*,      \
                                             int*);                                            \
    template __global__ void wcc_visit<V, 1>(const long long*, const V*, long long, V*,        \
                                             long long, long long, int, long long, long long*, \
                                             long long*, long long*, unsigned long long*,      \
                                             int*);                                            \
    template __global__ void wcc_visit_chunks<V, 0>(const V*, V*, int, const long long*,       \
                                                    const long long*, const long long*,        \
                                                    const unsigned long long*, int*);          \
    template __global__ void wcc_visit_chunks<V, 1>(const V*, V*, int, const long long*,       \
                                                    const long long*, const long long*,        \
                                                    const unsigned long long*, int*);          \
    template __global__ void wcc_link_nth<V>(const long long*, const V*, long long, V*,        \
                                             long long);                                       \
    template __global__ void wcc_compress<V>(V*, long long);                                   \
    template __global__ void wcc_flatten<V>(V*, long long);                                    \
    template __global__ void wcc_first_vertex<V>(const V*, long long, V*);
WCC_INSTANTIATE(int)
WCC_INSTANTIATE(long long)
#endif
