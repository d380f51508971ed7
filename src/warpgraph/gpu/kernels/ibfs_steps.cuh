// warpgraph: the steps of a level of iBFS's joint traversal (64 searches a word), shared by
// ibfs.cu (distance statistics) and harmonic.cu.
//
// A search runs either one launch per step of each level (ibfs.cu's ibfs_expand, then the
// caller's `*_step` kernel; the host reads *last_level after each level), or all its levels in
// one cooperative launch of a persistent kernel (ibfs_levels below, grid barriers between the
// steps): a level launched from the host costs two launches and a read back (~25-75 us on an
// H100), which a lattice's thousand levels make the whole time, while a batch of many groups
// ran 8-30 % faster as launches (warpgraph.algorithms.bfs.multi_source.PERSISTENT_WORDS).
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

// Every level of the batch in one launch (all blocks resident: a cooperative launch): the
// expansion of every word, a barrier, `step(level)` (which settles the words and writes *last_level
// = level when any was new), a barrier; ends after a level that found nothing, or after `top`.
// Every block reads the same *last_level: the next write comes after the next barrier.
template <typename V, typename Step>
__device__ __forceinline__ void ibfs_levels(const long long* __restrict__ indptr,
                                            const V* __restrict__ indices, long long stride,
                                            long long width, unsigned long long* seen,
                                            unsigned long long* front, unsigned long long* found,
                                            long long top, long long* last_level,
                                            unsigned long long* barrier, Step step) {
    unsigned long long phase = 0;
    const long long total = width * stride;
    for (long long level = 1; level <= top; ++level) {
        for (long long i = global_thread_id(); i < total; i += grid_threads()) {
            ibfs_expand_word(i, indptr, indices, stride, front, seen, found);
        }
        grid_sync(barrier, phase);
        step(level);
        grid_sync(barrier, phase);
        if (*(volatile long long*)last_level != level) return;
    }
}

}  // namespace wg
