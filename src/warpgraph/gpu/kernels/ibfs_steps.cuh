// warpgraph: the two steps of a level of iBFS's joint traversal (64 searches a word), shared by
// the persistent searches of ibfs.cu (distance statistics) and harmonic.cu.
//
// Group g's words for vertex v sit at g * stride + v. The arrays a persistent kernel writes
// between its grid barriers (front, seen, found) are plain pointers here: a const __restrict__
// one may be read through the non-coherent cache, which a barrier does not refresh.
#pragma once

#include "common.cuh"

namespace wg {

// Word i: the searches that reached its vertex in the last level (front) mark every neighbour
// they have not seen in its next word (atomicOr).
template <typename V>
__device__ __forceinline__ void ibfs_expand_word(long long i, const long long* __restrict__ indptr,
                                                 const V* __restrict__ indices, long long stride,
                                                 const unsigned long long* front,
                                                 const unsigned long long* seen,
                                                 unsigned long long* found) {
    const unsigned long long f = front[i];
    if (f == 0) return;
    const long long g = i / stride, v = i - g * stride;
    const long long base = g * stride;
    for (long long j = indptr[v]; j < indptr[v + 1]; ++j) {
        const long long u = base + (long long)indices[j];
        // (a plain read first: where other frontier vertices already set these bits, no
        // atomic; a stale read only costs an atomic that changes nothing)
        const unsigned long long add = f & ~seen[u] & ~found[u];
        if (add) atomicOr(found + u, add);
    }
}

// The settling of word i: the new word becomes the frontier and joins the seen word; returns it.
__device__ __forceinline__ unsigned long long ibfs_settle_word(long long i, unsigned long long* seen,
                                                               unsigned long long* front,
                                                               unsigned long long* found) {
    const unsigned long long w = found[i];
    front[i] = w;
    if (w) {
        found[i] = 0;
        seen[i] |= w;
    }
    return w;
}

}  // namespace wg
