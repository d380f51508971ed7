// warpgraph: degree histograms.
//
// count_degrees<V>: counts[ids[i]] += 1 for every i < m (the in-degree when `ids` is a CSR's
// indices array, the out-degree when it is an edge list's sources). One warp-aggregated
// atomicAdd per distinct id in a warp, so sorted or hub-heavy inputs do not serialise on one
// address. Counts are 64-bit: a hub's degree may exceed 2^31.
#include "common.cuh"

template <typename V>
__global__ void count_degrees(const V* __restrict__ ids, long long m,
                              unsigned long long* __restrict__ counts) {
    for (long long base = wg::warp_base(); base < m; base += wg::warp_stride()) {
        const long long i = base + wg::lane_id();
        const bool valid = i < m;
        const V id = valid ? wg::ldg(ids + i) : (V)0;
        wg::warp_aggregated_count(counts, id, valid);
    }
}

#ifdef WARPGRAPH_NVCC_CHECK
template __global__ void count_degrees<int>(const int*, long long, unsigned long long*);
template __global__ void count_degrees<long long>(const long long*, long long, unsigned long long*);
#endif
