// warpgraph: betweenness centrality, Brandes' accumulation, one search per thread block.
//
// brandes<V>: block b runs the searches from sources b, b + gridDim.x, ... in turn, with its own
// n-entry slices of every scratch array; its dependencies go into its own partial sum (row b of
// `partial`), added up on the host side in row order, so the result does not depend on timing.
// Per search:
//   1. forward, a level at a time: the level's vertices (the block's queue `order`) claim their
//      unseen out-neighbours with atomicCAS on dist and append them; then each new vertex pulls
//      its path count sigma from its in-neighbours one level up (no atomics on sigma: each sum
//      has a fixed order);
//   2. backward, farthest level first: each vertex pulls its dependency over its out-arcs to the
//      next level, delta[v] = sum sigma[v] * (1 + delta[w]) / sigma[w], and adds it into the
//      block's partial sum (and, for edge betweenness, each arc's share into the arc's);
//   3. the vertices it touched are cleared for the next search.
// In each step a row of at most LONG_ROW arcs is walked by one thread, a longer one by a warp
// (lanes stride over its arcs and add up with shuffles): a power-law hub would otherwise hold
// the whole block at the level's barrier. Levels are __syncthreads apart: a level's work fits
// one block on lattices (thousands of levels of a few hundred vertices), where a launch per
// level would cost more than the level.
//
// In:  indptr/indices (out-arcs), rindptr/rindices (in-arcs; the same arrays when undirected),
//      sources[k], endpoints (NetworkX's endpoints=True).
// Scratch per block (row b of each, n entries; levels n + 1): dist (-1 on entry, left so),
//      sigma and delta (0 on entry, left so), order, levels.
// Out: partial[b][v] += the dependencies of block b's searches; where arc_stride is not 0 (edge
//      betweenness), also arc_partial[b * arc_stride + j] += the share of arc j, (v, w) with w
//      one level farther: sigma[v] * (1 + delta[w]) / sigma[w].
// Launch with a block size that is a multiple of 32.
#include "common.cuh"

// Rows longer than this are walked by a warp; shorter ones by one thread.
constexpr long long LONG_ROW = 32;

// Claim the unseen heads of arcs [first, last) for level `next` and queue them.
template <typename V>
__device__ __forceinline__ void claim(const V* __restrict__ indices, long long first,
                                      long long last, long long step, int next, int* dist,
                                      V* order, unsigned long long* tail) {
    for (long long j = first; j < last; j += step) {
        const long long u = (long long)indices[j];
        if (dist[u] < 0 && atomicCAS(dist + u, -1, next) == -1) order[atomicAdd(tail, 1ull)] = (V)u;
    }
}

// Paths into u: the sum of sigma over its in-neighbours at level `depth`, arcs [first, last).
template <typename V>
__device__ __forceinline__ double paths_in(const V* __restrict__ rindices, long long first,
                                           long long last, long long step, int depth,
                                           const int* dist, const double* sigma) {
    double count = 0.0;
    for (long long j = first; j < last; j += step) {
        const long long v = (long long)rindices[j];
        if (dist[v] == depth) count += sigma[v];
    }
    return count;
}

// v's dependency over its arcs [first, last) to level `next` (and each arc's share).
template <typename V>
__device__ __forceinline__ double dependency(const V* __restrict__ indices, long long first,
                                             long long last, long long step, int next,
                                             double sv, const int* dist, const double* sigma,
                                             const double* delta, double* arc_partial,
                                             bool arcs) {
    double total = 0.0;
    for (long long j = first; j < last; j += step) {
        const long long u = (long long)indices[j];
        if (dist[u] != next) continue;
        const double share = sv * ((1.0 + delta[u]) / sigma[u]);
        total += share;
        if (arcs) arc_partial[j] += share;
    }
    return total;
}

template <typename V>
__global__ void brandes(const long long* __restrict__ indptr, const V* __restrict__ indices,
                        const long long* __restrict__ rindptr, const V* __restrict__ rindices,
                        long long n, const long long* __restrict__ sources, long long k,
                        int endpoints, int* dist_all, double* sigma_all, double* delta_all,
                        V* order_all, long long* levels_all, double* partial_all,
                        double* arc_partial_all, long long arc_stride) {
    __shared__ unsigned long long tail;
    const long long b = blockIdx.x;
    int* dist = dist_all + b * n;
    double* sigma = sigma_all + b * n;
    double* delta = delta_all + b * n;
    V* order = order_all + b * n;
    long long* levels = levels_all + b * (n + 1);
    double* partial = partial_all + b * n;
    double* arc_partial = arc_partial_all + b * arc_stride;
    const bool arcs = arc_stride != 0;
    const int lane = wg::lane_id();
    const long long warp = threadIdx.x / wg::WARP_SIZE, warps = blockDim.x / wg::WARP_SIZE;
    for (long long i = b; i < k; i += gridDim.x) {
        const long long s = sources[i];
        if (threadIdx.x == 0) {
            dist[s] = 0;
            sigma[s] = 1.0;
            order[0] = (V)s;
            levels[0] = 0;
            tail = 1;
        }
        __syncthreads();
        long long lo = 0, hi = 1;
        int depth = 0;  // (the level of order[lo, hi))
        while (lo < hi) {
            for (long long a = lo + threadIdx.x; a < hi; a += blockDim.x) {  // short rows
                const long long v = (long long)order[a];
                if (indptr[v + 1] - indptr[v] <= LONG_ROW)
                    claim(indices, indptr[v], indptr[v + 1], 1, depth + 1, dist, order, &tail);
            }
            for (long long a = lo + warp; a < hi; a += warps) {  // long rows, a warp each
                const long long v = (long long)order[a];
                if (indptr[v + 1] - indptr[v] > LONG_ROW)
                    claim(indices, indptr[v] + lane, indptr[v + 1], wg::WARP_SIZE, depth + 1,
                          dist, order, &tail);
            }
            __syncthreads();
            const long long next = (long long)tail;
            for (long long a = hi + threadIdx.x; a < next; a += blockDim.x) {
                const long long u = (long long)order[a];
                if (rindptr[u + 1] - rindptr[u] <= LONG_ROW)
                    sigma[u] = paths_in(rindices, rindptr[u], rindptr[u + 1], 1, depth, dist,
                                        sigma);
            }
            for (long long a = hi + warp; a < next; a += warps) {
                const long long u = (long long)order[a];
                if (rindptr[u + 1] - rindptr[u] <= LONG_ROW) continue;
                const double count = wg::warp_sum(paths_in(
                    rindices, rindptr[u] + lane, rindptr[u + 1], wg::WARP_SIZE, depth, dist, sigma));
                if (lane == 0) sigma[u] = count;
            }
            ++depth;
            if (threadIdx.x == 0) levels[depth] = hi;
            lo = hi;
            hi = next;
            __syncthreads();
        }
        // levels[0 .. depth] bound the levels 0 .. depth - 1; levels[depth] = hi = reached
        const long long reached = hi;
        for (int level = depth - 1; level >= 0; --level) {
            const long long first = levels[level], last = levels[level + 1];
            for (long long a = first + threadIdx.x; a < last; a += blockDim.x) {
                const long long v = (long long)order[a];
                if (indptr[v + 1] - indptr[v] > LONG_ROW) continue;
                const double total = dependency(indices, indptr[v], indptr[v + 1], 1, level + 1,
                                                sigma[v], dist, sigma, delta, arc_partial, arcs);
                delta[v] = total;
                if (v != s) partial[v] += endpoints ? total + 1.0 : total;
            }
            for (long long a = first + warp; a < last; a += warps) {
                const long long v = (long long)order[a];
                if (indptr[v + 1] - indptr[v] <= LONG_ROW) continue;
                const double total = wg::warp_sum(
                    dependency(indices, indptr[v] + lane, indptr[v + 1], wg::WARP_SIZE, level + 1,
                               sigma[v], dist, sigma, delta, arc_partial, arcs));
                if (lane == 0) {
                    delta[v] = total;
                    if (v != s) partial[v] += endpoints ? total + 1.0 : total;
                }
            }
            __syncthreads();
        }
        if (endpoints && threadIdx.x == 0) partial[s] += (double)(reached - 1);
        for (long long a = threadIdx.x; a < reached; a += blockDim.x) {
            const long long v = (long long)order[a];
            dist[v] = -1;
            sigma[v] = 0.0;
            delta[v] = 0.0;
        }
        __syncthreads();
    }
}

#ifdef WARPGRAPH_NVCC_CHECK
template __global__ void brandes<int>(const long long*, const int*, const long long*, const int*,
                                      long long, const long long*, long long, int, int*, double*,
                                      double*, int*, long long*, double*, double*, long long);
template __global__ void brandes<long long>(const long long*, const long long*, const long long*,
                                            const long long*, long long, const long long*,
                                            long long, int, int*, double*, double*, long long*,
                                            long long*, double*, double*, long long);
#endif
