// Helpers shared by the SCC kernels (scc.cu: the multi-step scheme; scc_ecl.cu: the
// max-signature scheme).
#pragma once
#include "common.cuh"

namespace wgscc_common {

// Does v have an arc (other than a self-loop) to a vertex of subgraph/class r? (The trim-1 test,
// against the out-arcs or, given the reverse CSR, the in-arcs.)
template <typename V>
__device__ __forceinline__ bool has_nbr(const long long* ptr, const V* idx, const V* part,
                                        long long v, V r) {
    const long long e = ptr[v + 1];
    for (long long p = ptr[v]; p < e; ++p) {
        const V w = wg::ldg(idx + p);
        if ((long long)w != v && part[w] == r) return true;
    }
    return false;
}

}  // namespace wgscc_common
