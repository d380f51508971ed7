// warpgraph: betweenness centrality, Brandes' accumulation, one search per thread block.
//
// brandes<V>: block b runs the searches from sources b, b + gridDim.x, ... in turn, with its own
// n-entry slices of every scratch array; its dependencies go into its own partial sum (row b of
// `partial`), added up on the host side in row order, so the result does not depend on timing.
// Per search:
//   1. forward, a level at a time: the threads take the level's vertices from the block's queue
//      (`order`), claim unseen out-neighbours with atomicCAS on dist and append them; then each
//      new vertex pulls its path count sigma from its in-neighbours one level up (no atomics on
//      sigma: the sums' order is the in-rows' order);
//   2. backward, farthest level first: each vertex pulls its dependency over its out-arcs to the
//      next level, delta[v] = sum sigma[v] * (1 + delta[w]) / sigma[w], and adds it into the
//      block's partial sum;
//   3. the vertices it touched are cleared for the next search.
// Levels are __syncthreads apart: a level's work fits one block on lattices (thousands of levels
// of a few hundred vertices), where a launch per level would cost more than the level.
//
// In:  indptr/indices (out-arcs), rindptr/rindices (in-arcs; the same arrays when undirected),
//      sources[k], endpoints (NetworkX's endpoints=True).
// Scratch per block (row b of each, n entries; levels n + 1): dist (-1 on entry, left so),
//      sigma and delta (0 on entry, left so), order, levels.
// Out: partial[b][v] += the dependencies of block b's searches; where arc_stride is not 0 (edge
//      betweenness), also arc_partial[b * arc_stride + j] += the share of arc j, (v, w) with w
//      one level farther: sigma[v] * (1 + delta[w]) / sigma[w].
#include "common.cuh"

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
            for (long long a = lo + threadIdx.x; a < hi; a += blockDim.x) {
                const long long v = (long long)order[a];
                for (long long j = indptr[v]; j < indptr[v + 1]; ++j) {
                    const long long u = (long long)indices[j];
                    if (dist[u] < 0 && atomicCAS(dist + u, -1, depth + 1) == -1)
                        order[atomicAdd(&tail, 1ull)] = (V)u;
                }
            }
            __syncthreads();
            const long long next = (long long)tail;
            for (long long a = hi + threadIdx.x; a < next; a += blockDim.x) {
                const long long u = (long long)order[a];
                double count = 0.0;
                for (long long j = rindptr[u]; j < rindptr[u + 1]; ++j) {
                    const long long v = (long long)rindices[j];
                    if (dist[v] == depth) count += sigma[v];
                }
                sigma[u] = count;
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
                const double sv = sigma[v];
                double total = 0.0;
                for (long long j = indptr[v]; j < indptr[v + 1]; ++j) {
                    const long long u = (long long)indices[j];
                    if (dist[u] != level + 1) continue;
                    const double share = sv * ((1.0 + delta[u]) / sigma[u]);
                    total += share;
                    if (arc_stride) arc_partial[j] += share;
                }
                delta[v] = total;
                if (v != s) partial[v] += endpoints ? total + 1.0 : total;
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
