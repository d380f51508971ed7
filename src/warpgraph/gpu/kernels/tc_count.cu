// warpgraph: triangle enumeration on a rank-space oriented graph (triangles, k-truss, triad census).
//
// Input (built by algorithms/triangles/gpu.py): vertices renumbered by (degree, id) rank, each
// undirected edge kept once as the arc low -> high, rows sorted. A triangle a < b < c (ranks) is
// found exactly once, at arc p = a -> b, as c in both row(a) after p and row(b) (Schank-Wagner
// "forward", as GAPBS tc). Oriented out-degrees are at most sqrt(2m).
//
// Mapping: a group of GROUP lanes per arc (grid-stride over arcs). The group strides over the
// shorter of the two lists and binary-searches each element in the longer; a lane's searches
// are monotone, so each starts where its previous one ended. For a hit w the group knows the
// positions q (a -> w) and r (b -> w). MODE selects the bookkeeping:
//   TC_COUNT   total only (per-thread count, block reduction, one atomic per block);
//   TC_ARCS    c[p] += hits, c[q] += 1: per-vertex counts follow (tc_scatter below);
//   TC_SUPPORT c[p] += hits, c[q] += 1, c[r] += 1: triangles per edge (k-truss);
//   TC_CENSUS  64-bin histogram of the triad code codes[p] + 4 codes[q] + 16 codes[r], one per
//              block in shared memory, added to the global histogram at the end;
//   TC_DYAD_ARCS as TC_ARCS, each triangle weighted by the product of its three dyads' arc
//              counts (1 one-way, 2 mutual: codes[]), for the directed clustering.
// Every mode also adds the total to *total.
#include "common.cuh"

#define TC_COUNT 0
#define TC_ARCS 1
#define TC_SUPPORT 2
#define TC_CENSUS 3
#define TC_DYAD_ARCS 4

namespace tc {

template <typename Id>
__device__ __forceinline__ wg::eid_t lower_bound(const Id* __restrict__ a, wg::eid_t lo,
                                                 wg::eid_t hi, Id x) {
    while (lo < hi) {
        const wg::eid_t mid = (lo + hi) >> 1;
        if (wg::ldg(a + mid) < x) {
            lo = mid + 1;
        } else {
            hi = mid;
        }
    }
    return lo;
}

// Arcs of a dyad of census code `code` (bit 0: one way, bit 1: the other).
__device__ __forceinline__ unsigned long long dyad_arcs(unsigned char code) {
    return (unsigned long long)((code & 1) + (code >> 1));
}

}  // namespace tc

template <typename Id, int GROUP, int MODE>
__global__ void tc_arcs(const long long* __restrict__ indptr, const Id* __restrict__ indices,
                        const Id* __restrict__ src, long long m, unsigned long long* total,
                        unsigned long long* c, const unsigned char* __restrict__ codes,
                        unsigned long long* hist) {
    __shared__ unsigned long long block_hist[64];
    if (MODE == TC_CENSUS) {
        for (int i = threadIdx.x; i < 64; i += blockDim.x) block_hist[i] = 0;
        __syncthreads();
    }
    const int lane = (int)(threadIdx.x % GROUP);
    const long long ngroups = wg::grid_threads() / GROUP;
    unsigned long long local = 0;
    // 1. one arc p = a -> b per group
    for (long long p = wg::global_thread_id() / GROUP; p < m; p += ngroups) {
        const Id a = wg::ldg(src + p);
        const Id b = wg::ldg(indices + p);
        const wg::eid_t i0 = p + 1, ie = wg::ldg(indptr + a + 1);
        const wg::eid_t j0 = wg::ldg(indptr + b), je = wg::ldg(indptr + b + 1);
        if (i0 >= ie || j0 >= je) continue;
        // 2. iterate the shorter list, search the longer
        const bool a_short = (ie - i0) <= (je - j0);
        const wg::eid_t s0 = a_short ? i0 : j0, se = a_short ? ie : je;
        wg::eid_t lo = a_short ? j0 : i0;
        const wg::eid_t le = a_short ? je : ie;
        unsigned long long hits = 0, weight = 0;
        const unsigned long long wp = MODE == TC_DYAD_ARCS ? tc::dyad_arcs(codes[p]) : 0;
        for (wg::eid_t k = s0 + lane; k < se; k += GROUP) {
            const Id w = wg::ldg(indices + k);
            lo = tc::lower_bound(indices, lo, le, w);
            if (lo >= le) break;
            if (wg::ldg(indices + lo) != w) continue;
            // 3. a triangle (a, b, w): q = a -> w, r = b -> w
            ++hits;
            const wg::eid_t q = a_short ? k : lo;
            const wg::eid_t r = a_short ? lo : k;
            if (MODE == TC_ARCS) {
                atomicAdd(c + q, 1ULL);
            } else if (MODE == TC_SUPPORT) {
                atomicAdd(c + q, 1ULL);
                atomicAdd(c + r, 1ULL);
            } else if (MODE == TC_CENSUS) {
                const int code = (int)codes[p] + 4 * (int)codes[q] + 16 * (int)codes[r];
                atomicAdd(block_hist + code, 1ULL);
            } else if (MODE == TC_DYAD_ARCS) {
                const unsigned long long w = wp * tc::dyad_arcs(codes[q]) * tc::dyad_arcs(codes[r]);
                weight += w;
                atomicAdd(c + q, w);
            }
        }
        if ((MODE == TC_ARCS || MODE == TC_SUPPORT) && hits != 0) atomicAdd(c + p, hits);
        if (MODE == TC_DYAD_ARCS && weight != 0) atomicAdd(c + p, weight);
        local += hits;
    }
    // 4. totals: block reduction, one global atomic per block
    const unsigned long long block_total = wg::block_sum(local);
    if (threadIdx.x == 0 && block_total != 0) atomicAdd(total, block_total);
    if (MODE == TC_CENSUS) {
        __syncthreads();
        for (int i = threadIdx.x; i < 64; i += blockDim.x) {
            if (block_hist[i] != 0) atomicAdd(hist + i, block_hist[i]);
        }
    }
}

// Per-vertex triangles from the arc counts of TC_ARCS: a triangle a < b < c adds 1 to arcs a -> b
// and a -> c, so row sums (halved) count each vertex as the lowest corner and sums over entering
// arcs count it as middle or top corner. low[] and high[] are summed (low halved) by the caller.
template <typename Id>
__global__ void tc_scatter(const Id* __restrict__ indices, const Id* __restrict__ src,
                           const unsigned long long* __restrict__ c, long long m,
                           unsigned long long* low, unsigned long long* high) {
    for (long long p = wg::global_thread_id(); p < m; p += wg::grid_threads()) {
        const unsigned long long x = c[p];
        if (x == 0) continue;
        atomicAdd(low + wg::ldg(src + p), x);
        atomicAdd(high + wg::ldg(indices + p), x);
    }
}

#ifdef WARPGRAPH_NVCC_CHECK
#define TC_INST(ID, G, M)                                                                        \
    template __global__ void tc_arcs<ID, G, M>(const long long*, const ID*, const ID*, long long, \
                                               unsigned long long*, unsigned long long*,          \
                                               const unsigned char*, unsigned long long*);
TC_INST(int, 1, TC_COUNT)
TC_INST(int, 4, TC_COUNT)
TC_INST(int, 8, TC_COUNT)
TC_INST(int, 32, TC_COUNT)
TC_INST(int, 8, TC_ARCS)
TC_INST(int, 8, TC_SUPPORT)
TC_INST(int, 8, TC_CENSUS)
TC_INST(int, 8, TC_DYAD_ARCS)
TC_INST(long long, 8, TC_COUNT)
template __global__ void tc_scatter<int>(const int*, const int*, const unsigned long long*,
                                         long long, unsigned long long*, unsigned long long*);
#endif
