// warpgraph: many breadth-first searches at once, 64 per word (iBFS's bitwise status).
//
// A batch of `width` groups of 64 searches; group g's words for vertex v sit at g * stride + v
// (stride: n rounded up to 32, so a warp's 32 words belong to one group). Bit b of a word is the
// group's search b.
//
// ibfs_expand<V>: a thread per frontier word: the searches that reached v in the last level
//   (front) mark every neighbour they have not seen in its next word (atomicOr).
// ibfs_update: a thread per word: the next word becomes the frontier, joins the seen word and is
//   cleared; the warp counts its 32 new words bit by bit (64 ballots) and adds each search's count
//   of newly reached vertices into its results (reached, distance sum, eccentricity = this level)
//   at g * 64 + b, and writes the level into *last_level when it found anything: the host reads
//   that one word per level and runs no reduction of its own.
#include "common.cuh"
#include "ibfs_steps.cuh"

template <typename V>
__global__ void ibfs_expand(const long long* __restrict__ indptr, const V* __restrict__ indices,
                            long long n, long long stride, long long width,
                            const unsigned long long* __restrict__ front,
                            const unsigned long long* __restrict__ seen,
                            unsigned long long* found) {  // (found: read and written: no __restrict__)
    const long long total = width * stride;
    for (long long i = wg::global_thread_id(); i < total; i += wg::grid_threads()) {
        wg::ibfs_expand_word(i, indptr, indices, stride, front, seen, found);
    }
}

__global__ void ibfs_update(long long total, unsigned long long* seen, unsigned long long* front,
                            unsigned long long* found, long long stride, long long level,
                            long long* reached, long long* distance_sum, long long* eccentricity,
                            long long* last_level) {
    const int lane = wg::lane_id();
    for (long long base = wg::warp_base(); base < total; base += wg::warp_stride()) {
        const long long i = base + lane;  // (total is a multiple of 32: every lane is in range)
        const unsigned long long w = found[i];
        front[i] = w;
        if (__ballot_sync(wg::FULL_MASK, w != 0) == 0) continue;
        found[i] = 0;
        seen[i] |= w;
        unsigned long long low = 0, high = 0;  // this lane's counts for bits lane and lane + 32
        for (int b = 0; b < 64; ++b) {
            const unsigned m = __ballot_sync(wg::FULL_MASK, (unsigned)((w >> b) & 1ull));
            if (b == lane) low = __popc(m);
            if (b == lane + 32) high = __popc(m);
        }
        const long long group = (base / stride) * 64;
        // (bits past the batch's last search are never set, so their slots are never touched;
        // every writer of an eccentricity stores the same level)
        if (low) {
            atomicAdd((unsigned long long*)(reached + group + lane), low);
            atomicAdd((unsigned long long*)(distance_sum + group + lane), low * level);
            eccentricity[group + lane] = level;
        }
        if (high) {
            atomicAdd((unsigned long long*)(reached + group + lane + 32), high);
            atomicAdd((unsigned long long*)(distance_sum + group + lane + 32), high * level);
            eccentricity[group + lane + 32] = level;
        }
        if (lane == 0) *last_level = level;
    }
}

#ifdef WARPGRAPH_NVCC_CHECK
template __global__ void ibfs_expand<int>(const long long*, const int*, long long, long long,
                                          long long, const unsigned long long*,
                                          const unsigned long long*, unsigned long long*);
template __global__ void ibfs_expand<long long>(const long long*, const long long*, long long,
                                                long long, long long, const unsigned long long*,
                                                const unsigned long long*, unsigned long long*);
#endif
