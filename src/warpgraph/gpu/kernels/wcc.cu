// warpgraph: weakly connected components by lock-free union-find (hooking + pointer jumping),
// in the style of ECL-CC (Jaiganesh & Burtscher, HPDC 2018).
//
// Invariant: parent[x] <= x. Hooking links the larger of two roots under the smaller with
// atomicCAS (which succeeds only while it is still a root), so every tree's root is its
// smallest vertex and the final label of a component is its minimum vertex id. One pass over
// the arcs joins all components (union is symmetric, so arcs need not be reversed); wcc_compress
// then points every vertex at its root.
#include "common.cuh"

// Root of x, halving the path on the way (a non-root's parent is only ever replaced by one of
// its ancestors, so concurrent halving is safe).
template <typename V>
__device__ __forceinline__ V wcc_find(V* parent, V x) {
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
__device__ __forceinline__ void wcc_union(V* parent, V a, V b) {
    V ra = wcc_find(parent, a);
    V rb = wcc_find(parent, b);
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

// Union over all arcs; `lower_only` (for symmetric CSRs, which hold each edge twice) skips the
// arcs u -> v with v > u. Warp-cooperative for adjacency lists of 32 or more arcs.
template <typename V>
__global__ void wcc_hook(const long long* __restrict__ indptr, const V* __restrict__ indices,
                         long long n, V* parent, int lower_only) {
    const int lane = wg::lane_id();
    for (long long base = wg::warp_base(); base < n; base += wg::warp_stride()) {
        const long long u = base + lane;
        long long begin = 0, end = 0;
        if (u < n) {
            begin = wg::ldg(indptr + u);
            end = wg::ldg(indptr + u + 1);
        }
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
                if (!(lower_only && v > w)) wcc_union(parent, w, v);
            }
        }
        if (deg < wg::WARP_SIZE) {
            for (long long j = begin; j < end; ++j) {
                const V v = wg::ldg(indices + j);
                if (!(lower_only && v > (V)u)) wcc_union(parent, (V)u, v);
            }
        }
    }
}

template <typename V>
__global__ void wcc_compress(V* parent, long long n) {
    for (long long x = wg::global_thread_id(); x < n; x += wg::grid_threads()) {
        V r = parent[x];
        while (r != parent[r]) r = parent[r];
        parent[x] = r;
    }
}

#ifdef WARPGRAPH_NVCC_CHECK
template __global__ void wcc_hook<int>(const long long*, const int*, long long, int*, int);
template __global__ void wcc_hook<long long>(const long long*, const long long*, long long,
                                             long long*, int);
template __global__ void wcc_compress<int>(int*, long long);
template __global__ void wcc_compress<long long>(long long*, long long);
#endif
