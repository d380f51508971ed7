// warpgraph: many breadth-first searches at once, 64 per word (iBFS's bitwise status).
//
// A batch of `width` groups of 64 searches; group g's words for vertex v sit at g * stride + v
// (stride: n rounded up to 32, so a warp's 32 words belong to one group). Bit b of a word is the
// group's search b.
//
// ibfs_stats<V>: a persistent kernel (cooperative launch, wg::grid_sync between steps) that runs
//   every level of the batch in one launch. Per level: the expansion (ibfs_steps.cuh: each
//   frontier word marks its vertex's unseen neighbours in their next words), a barrier, then the
//   settling, a warp per 32 words: each next word becomes the frontier and joins the seen word;
//   the warp counts its 32 new words bit by bit (64 ballots) and adds each search's count of
//   newly reached vertices into its results (reached, distance sum, eccentricity = this level)
//   at g * 64 + b, and writes the level into *last_level when it found anything; a barrier; the
//   kernel ends after a level that found nothing. (A level launched from the host cost two
//   launches and a one-word read back: a lattice's thousand levels were launch-bound.)
#include "common.cuh"
#include "ibfs_steps.cuh"

template <typename V>
__global__ void ibfs_stats(const long long* __restrict__ indptr, const V* __restrict__ indices,
                           long long stride, long long width, unsigned long long* seen,
                           unsigned long long* front, unsigned long long* found,
                           long long* reached, long long* distance_sum, long long* eccentricity,
                           long long* last_level, unsigned long long* barrier) {
    unsigned long long phase = 0;
    const long long total = width * stride;  // (a multiple of 32: a warp's words, one group)
    const int lane = wg::lane_id();
    for (long long level = 1;; ++level) {
        for (long long i = wg::global_thread_id(); i < total; i += wg::grid_threads()) {
            wg::ibfs_expand_word(i, indptr, indices, stride, front, seen, found);
        }
        wg::grid_sync(barrier, phase);
        for (long long base = wg::warp_base(); base < total; base += wg::warp_stride()) {
            const unsigned long long w = wg::ibfs_settle_word(base + lane, seen, front, found);
            if (__ballot_sync(wg::FULL_MASK, w != 0) == 0) continue;
            unsigned long long low = 0, high = 0;  // this lane's counts for bits lane, lane + 32
            for (int b = 0; b < 64; ++b) {
                const unsigned m = __ballot_sync(wg::FULL_MASK, (unsigned)((w >> b) & 1ull));
                if (b == lane) low = __popc(m);
                if (b == lane + 32) high = __popc(m);
            }
            const long long group = (base / stride) * 64;
            // (bits past the batch's last search are never set, so their slots are never
            // touched; every writer of an eccentricity stores the same level)
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
        wg::grid_sync(barrier, phase);
        // (every block reads the same value: the next write comes after the next barrier)
        if (*(volatile long long*)last_level != level) return;
    }
}

#ifdef WARPGRAPH_NVCC_CHECK
template __global__ void ibfs_stats<int>(const long long*, const int*, long long, long long,
                                         unsigned long long*, unsigned long long*,
                                         unsigned long long*, long long*, long long*, long long*,
                                         long long*, unsigned long long*);
template __global__ void ibfs_stats<long long>(const long long*, const long long*, long long,
                                               long long, unsigned long long*,
                                               unsigned long long*, unsigned long long*,
                                               long long*, long long*, long long*, long long*,
                                               unsigned long long*);
#endif
