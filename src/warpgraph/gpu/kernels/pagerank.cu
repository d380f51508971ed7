// warpgraph: one PageRank power step, as a pull over the in-arcs (no atomics on ranks).
//
// For each vertex v:  y = alpha * (sum_{u -> v} w(u, v) * contrib[u] + mass * dangling_to[v])
//                         + (1 - alpha) * teleport[v]
// with contrib[u] = x[u] / out-weight(u) and `mass` the rank on dangling vertices (sums_in[1]).
// The step writes x_next[v] = y and contrib_next[v] = y * inv_out[v], and adds |y - x[v]| and
// (for dangling v) y into sums_out[0] and sums_out[1]: one block reduction, then one atomic per
// block. A step whose sums_in[0] (the previous step's L1 change) is below `threshold` returns at
// once: the iteration stopped there, so the host can queue several steps and read their changes
// together (gpu.py), and the steps queued past the last one leave every buffer as it was (their
// sums_out stays zero, so the step after them returns too).
//
// Vertices are split by in-degree, as Helix's node-based mapping with group size g:
//   pagerank_pull_group<V, GROUP, WEIGHTED>: GROUP lanes (1..32, a power of two) per vertex,
//     grid-stride over all vertices, skipping those with more than `heavy_degree` in-arcs;
//   pagerank_pull_heavy<V, WEIGHTED>: one block per listed heavy vertex.
// WEIGHTED = 0 reads unit weights (the `weights` pointer is not read). R (double or float) is
// how the ranks x, x_next and the contributions are stored; every sum is accumulated in double.
#include "common.cuh"

namespace {

template <int WEIGHTED>
__device__ __forceinline__ double arc_weight(const double* __restrict__ weights, long long a) {
    if (WEIGHTED) return wg::ldg(weights + a);
    return 1.0;
}

// The rank of v from its in-arc sum `acc`; writes v's next values (y as stored in R) and
// returns |y - x[v]|.
template <typename R>
__device__ __forceinline__ double finish_vertex(long long v, double acc, double alpha, double mass,
                                                const R* __restrict__ x,
                                                const double* __restrict__ inv_out,
                                                const double* __restrict__ teleport,
                                                const double* __restrict__ dangling_to,
                                                R* __restrict__ x_next,
                                                R* __restrict__ contrib_next, double& y) {
    const R stored = (R)(alpha * (acc + mass * dangling_to[v]) + (1.0 - alpha) * teleport[v]);
    y = (double)stored;
    x_next[v] = stored;
    contrib_next[v] = (R)(y * inv_out[v]);
    return fabs(y - (double)x[v]);
}

}  // namespace

template <typename V, int GROUP, int WEIGHTED, typename R>
__global__ void pagerank_pull_group(const long long* __restrict__ indptr,
                                    const V* __restrict__ indices,
                                    const double* __restrict__ weights,
                                    const R* __restrict__ contrib,
                                    const R* __restrict__ x,
                                    const double* __restrict__ inv_out,
                                    const bool* __restrict__ dangling,
                                    const double* __restrict__ teleport,
                                    const double* __restrict__ dangling_to, long long n,
                                    long long heavy_degree, double alpha, double threshold,
                                    const double* __restrict__ sums_in,
                                    R* __restrict__ x_next,
                                    R* __restrict__ contrib_next,
                                    double* __restrict__ sums_out) {
    static_assert(GROUP >= 1 && GROUP <= 32 && (GROUP & (GROUP - 1)) == 0, "GROUP: 1..32, 2^k");
    if (sums_in[0] < threshold) return;  // (the whole grid: the iteration stopped before)
    const double mass = sums_in[1];
    const int lane = (int)(threadIdx.x % GROUP);
    const long long groups = wg::grid_threads() / GROUP;
    double change = 0.0, dangling_rank = 0.0;
    // Every lane of a warp runs the same number of iterations (n rounded up to whole warps),
    // so the group shuffles below always see their full group.
    const long long first = wg::global_thread_id() / GROUP;
    const long long rounded = (n + 32 / GROUP - 1) / (32 / GROUP) * (32 / GROUP);
    for (long long v = first; v < rounded; v += groups) {
        const bool mine = v < n;
        long long begin = 0, end = 0;
        if (mine) {
            begin = indptr[v];
            end = indptr[v + 1];
        }
        const bool light = mine && end - begin <= heavy_degree;
        double acc = 0.0;
        if (light) {
            for (long long a = begin + lane; a < end; a += GROUP)
                acc += arc_weight<WEIGHTED>(weights, a) * (double)contrib[wg::ldg(indices + a)];
        }
        for (int o = GROUP / 2; o > 0; o >>= 1) acc += __shfl_down_sync(wg::FULL_MASK, acc, o, GROUP);
        if (light && lane == 0) {
            double y;
            change += finish_vertex(v, acc, alpha, mass, x, inv_out, teleport, dangling_to, x_next,
                                    contrib_next, y);
            if (dangling[v]) dangling_rank += y;
        }
    }
    change = wg::block_sum(change);
    dangling_rank = wg::block_sum(dangling_rank);
    if (threadIdx.x == 0) {
        atomicAdd(sums_out, change);
        atomicAdd(sums_out + 1, dangling_rank);
    }
}

template <typename V, int WEIGHTED, typename R>
__global__ void pagerank_pull_heavy(const long long* __restrict__ indptr,
                                    const V* __restrict__ indices,
                                    const double* __restrict__ weights,
                                    const R* __restrict__ contrib,
                                    const R* __restrict__ x,
                                    const double* __restrict__ inv_out,
                                    const bool* __restrict__ dangling,
                                    const double* __restrict__ teleport,
                                    const double* __restrict__ dangling_to,
                                    const V* __restrict__ heavy, long long num_heavy,
                                    double alpha, double threshold,
                                    const double* __restrict__ sums_in,
                                    R* __restrict__ x_next,
                                    R* __restrict__ contrib_next,
                                    double* __restrict__ sums_out) {
    if (sums_in[0] < threshold) return;
    const double mass = sums_in[1];
    for (long long h = blockIdx.x; h < num_heavy; h += gridDim.x) {
        const long long v = heavy[h];
        const long long end = indptr[v + 1];
        double acc = 0.0;
        for (long long a = indptr[v] + threadIdx.x; a < end; a += blockDim.x)
            acc += arc_weight<WEIGHTED>(weights, a) * (double)contrib[wg::ldg(indices + a)];
        acc = wg::block_sum(acc);
        if (threadIdx.x == 0) {
            double y;
            atomicAdd(sums_out, finish_vertex(v, acc, alpha, mass, x, inv_out, teleport,
                                              dangling_to, x_next, contrib_next, y));
            if (dangling[v]) atomicAdd(sums_out + 1, y);
        }
    }
}

#ifdef WARPGRAPH_NVCC_CHECK
#define WG_PR_GROUP(V, G, W, R)                                                                 \
    template __global__ void pagerank_pull_group<V, G, W, R>(                                   \
        const long long*, const V*, const double*, const R*, const R*, const double*,           \
        const bool*, const double*, const double*, long long, long long, double, double,         \
        const double*, R*, R*, double*);
#define WG_PR_ALL(V, W, R)                                                                       \
    WG_PR_GROUP(V, 1, W, R) WG_PR_GROUP(V, 2, W, R) WG_PR_GROUP(V, 4, W, R)                     \
    WG_PR_GROUP(V, 8, W, R) WG_PR_GROUP(V, 16, W, R) WG_PR_GROUP(V, 32, W, R)                   \
    template __global__ void pagerank_pull_heavy<V, W, R>(                                      \
        const long long*, const V*, const double*, const R*, const R*, const double*,           \
        const bool*, const double*, const double*, const V*, long long, double, double,         \
        const double*, R*, R*, double*);
#define WG_PR_TYPES(V, W) WG_PR_ALL(V, W, double) WG_PR_ALL(V, W, float)
WG_PR_TYPES(int, 0)
WG_PR_TYPES(int, 1)
WG_PR_TYPES(long long, 0)
WG_PR_TYPES(long long, 1)
#endif
