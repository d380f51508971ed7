// warpgraph: bitonic sorting networks for the row sort of the CSR build (kernels in csr.cu).
//
// Both networks sort ascending and expect their input padded to a power of two with the
// all-ones key (all_ones<K>()), which no real key equals and which therefore sorts last.
// - warp_bitonic: one key per lane, groups of g lanes (g a power of two <= 32) each sort their
//   own g keys with __shfl_xor_sync; every lane of the warp must call it (same g).
// - block_bitonic: p keys in shared memory, every thread of the block doing useful
//   compare-exchanges (pair index i -> positions lo and lo + j); every thread must call it.
#pragma once

#include "common.cuh"

namespace wgcsr {

template <typename K>
__device__ __forceinline__ K all_ones() {
    return (K) ~(K)0;
}

// Returns this lane's key after sorting the g keys of its group (li = lane index in the group).
template <typename K>
__device__ __forceinline__ K warp_bitonic(K v, int li, int g) {
    for (int k = 2; k <= g; k <<= 1) {
        for (int j = k >> 1; j > 0; j >>= 1) {
            const K other = __shfl_xor_sync(wg::FULL_MASK, v, j);
            // the lower position of an ascending pair, or the upper of a descending one, keeps
            // the minimum
            const bool take_min = ((li & j) == 0) == ((li & k) == 0);
            v = take_min ? (other < v ? other : v) : (other > v ? other : v);
        }
    }
    return v;
}

// Sorts s[0, p) in place (p a power of two); starts and ends with a block barrier.
template <typename K>
__device__ __forceinline__ void block_bitonic(K* s, int p) {
    const int t = (int)threadIdx.x;
    const int nt = (int)blockDim.x;
    const int half = p >> 1;
    __syncthreads();
    for (int k = 2; k <= p; k <<= 1) {
        for (int j = k >> 1; j > 0; j >>= 1) {
            for (int i = t; i < half; i += nt) {
                const int lo = ((i & ~(j - 1)) << 1) | (i & (j - 1));
                const int hi = lo | j;
                const K a = s[lo];
                const K b = s[hi];
                if ((a > b) == ((lo & k) == 0)) {  // out of order for this pair's direction
                    s[lo] = b;
                    s[hi] = a;
                }
            }
            __syncthreads();
        }
    }
}

}  // namespace wgcsr
