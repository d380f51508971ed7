// warpgraph: many breadth-first searches at once, 64 per word (iBFS's bitwise status).
//
// A batch of `width` groups of 64 searches; group g's words for vertex v sit at g * stride + v
// (stride: n rounded up to 32, so a warp's 32 words belong to one group). Bit b of a word is the
// group's search b. A level is two steps (ibfs_steps.cuh), run as two launches from the host or
// inside one persistent kernel for every level:
//
// ibfs_expand<V>: a thread per frontier word: the searches that reached v in the last level
//   (front) mark every neighbour they have not seen in its next word (atomicOr). Also the first
//   step of harmonic.cu's levels.
// ibfs_stats_step: a warp per 32 words settles them and counts each search's newly reached
//   vertices (ibfs_settle_counted), added into its results (reached, distance sum,
//   eccentricity = this level) at g * 64 + b.
// ibfs_stats<V>: both steps of every level in one cooperative launch (wg::ibfs_levels, its
//   sparse levels on the frontier lists given: list_entries, list_counts, list_limit).
// ibfs_level_counts_step / ibfs_level_counts<V>: the same settling, each search's count kept
//   per level (global efficiency's sum needs how many targets lie at each distance).
#include "common.cuh"
#include "ibfs_steps.cuh"

template <typename V>
__global__ void ibfs_expand(const long long* __restrict__ indptr, const V* __restrict__ indices,
                            long long stride, long long width,
                            const unsigned long long* __restrict__ seen,
                            const unsigned long long* __restrict__ front,
                            unsigned long long* found) {  // (found: read and written: no __restrict__)
    const long long total = width * stride;
    for (long long i = wg::global_thread_id(); i < total; i += wg::grid_threads()) {
        wg::ibfs_expand_word(i, indptr, indices, stride, front, seen, found);
    }
}

// The settling of a level with counts: a warp per 32 words of one group (every word, or the
// level's list: ibfs_settle_pass); each next word becomes the frontier, joins the seen word and
// is cleared; the warp counts its 32 new words bit by bit (64 ballots) and calls add(group,
// bit, count) for each search of the group that reached vertices here (lane b holds bits b and
// b + 32); writes the level into *last_level when it found anything (the host reads that one
// word per level and runs no reduction of its own).
template <typename Add>
__device__ __forceinline__ void ibfs_settle_counted(const wg::IbfsPass& pass,
                                                    unsigned long long* seen,
                                                    unsigned long long* front,
                                                    unsigned long long* found, long long level,
                                                    long long* last_level, Add add) {
    const int lane = wg::lane_id();
    wg::ibfs_settle_pass(pass, seen, front, found,
                         [&](long long, unsigned long long w, long long group) {
        if (__ballot_sync(wg::FULL_MASK, w != 0) == 0) return;
        unsigned long long low = 0, high = 0;  // this lane's counts for bits lane and lane + 32
        for (int b = 0; b < 64; ++b) {
            const unsigned m = __ballot_sync(wg::FULL_MASK, (unsigned)((w >> b) & 1ull));
            if (b == lane) low = __popc(m);
            if (b == lane + 32) high = __popc(m);
        }
        // (bits past the batch's last search are never set, so their slots are never touched)
        if (low) add(group, lane, low);
        if (high) add(group, lane + 32, high);
        if (lane == 0) *last_level = level;
    });
}

// Distance statistics: each search's reached count, distance sum and eccentricity (this level)
// at its batch index g * 64 + b (every writer of an eccentricity stores the same level).
__device__ __forceinline__ void ibfs_stats_words(const wg::IbfsPass& pass,
                                                 unsigned long long* seen,
                                                 unsigned long long* front,
                                                 unsigned long long* found, long long* reached,
                                                 long long* distance_sum, long long* eccentricity,
                                                 long long level, long long* last_level) {
    ibfs_settle_counted(pass, seen, front, found, level, last_level,
                        [&](long long group, int bit, unsigned long long count) {
                            const long long s = group * 64 + bit;
                            atomicAdd((unsigned long long*)(reached + s), count);
                            atomicAdd((unsigned long long*)(distance_sum + s), count * level);
                            eccentricity[s] = level;
                        });
}

__global__ void ibfs_stats_step(long long stride, long long width, unsigned long long* seen,
                                unsigned long long* front, unsigned long long* found,
                                long long* reached, long long* distance_sum,
                                long long* eccentricity, long long level, long long* last_level) {
    ibfs_stats_words(wg::dense_pass(stride, width), seen, front, found, reached, distance_sum,
                     eccentricity, level, last_level);
}

template <typename V>
__global__ void ibfs_stats(const long long* __restrict__ indptr, const V* __restrict__ indices,
                           long long stride, long long width, unsigned long long* seen,
                           unsigned long long* front, unsigned long long* found,
                           long long* reached, long long* distance_sum, long long* eccentricity,
                           long long top, long long* last_level, unsigned long long* barrier,
                           unsigned int* list_entries, unsigned int* list_counts,
                           unsigned int list_limit) {
    const wg::IbfsLists lists{list_entries, list_counts, stride, width, list_limit};
    wg::ibfs_levels(indptr, indices, stride, width, seen, front, found, top, last_level, barrier,
                    lists, [&](long long level, const wg::IbfsPass& pass) {
                        ibfs_stats_words(pass, seen, front, found, reached, distance_sum,
                                         eccentricity, level, last_level);
                    });
}

// Level counts (global efficiency): counts[(g * (room + 1) + level) * 64 + b] += the vertices
// search b of group g reaches at `level`, for levels up to `room` (a deeper level is searched,
// so *last_level tells the host, but not counted: the host runs the batch again with more room).
__device__ __forceinline__ void ibfs_level_counts_words(const wg::IbfsPass& pass,
                                                        unsigned long long* seen,
                                                        unsigned long long* front,
                                                        unsigned long long* found,
                                                        unsigned int* counts, long long room,
                                                        long long level, long long* last_level) {
    ibfs_settle_counted(pass, seen, front, found, level, last_level,
                        [&](long long group, int bit, unsigned long long count) {
                            if (level <= room) {
                                atomicAdd(counts + (group * (room + 1) + level) * 64 + bit,
                                          (unsigned int)count);
                            }
                        });
}

__global__ void ibfs_level_counts_step(long long stride, long long width,
                                       unsigned long long* seen, unsigned long long* front,
                                       unsigned long long* found, unsigned int* counts,
                                       long long room, long long level, long long* last_level) {
    ibfs_level_counts_words(wg::dense_pass(stride, width), seen, front, found, counts, room,
                            level, last_level);
}

template <typename V>
__global__ void ibfs_level_counts(const long long* __restrict__ indptr,
                                  const V* __restrict__ indices, long long stride,
                                  long long width, unsigned long long* seen,
                                  unsigned long long* front, unsigned long long* found,
                                  unsigned int* counts, long long room, long long top,
                                  long long* last_level, unsigned long long* barrier,
                                  unsigned int* list_entries, unsigned int* list_counts,
                                  unsigned int list_limit) {
    const wg::IbfsLists lists{list_entries, list_counts, stride, width, list_limit};
    wg::ibfs_levels(indptr, indices, stride, width, seen, front, found, top, last_level, barrier,
                    lists, [&](long long level, const wg::IbfsPass& pass) {
                        ibfs_level_counts_words(pass, seen, front, found, counts, room, level,
                                                last_level);
                    });
}

#ifdef WARPGRAPH_NVCC_CHECK
template __global__ void ibfs_expand<int>(const long long*, const int*, long long, long long,
                                          const unsigned long long*, const unsigned long long*,
                                          unsigned long long*);
template __global__ void ibfs_expand<long long>(const long long*, const long long*, long long,
                                                long long, const unsigned long long*,
                                                const unsigned long long*, unsigned long long*);
template __global__ void ibfs_stats<int>(const long long*, const int*, long long, long long,
                                         unsigned long long*, unsigned long long*,
                                         unsigned long long*, long long*, long long*, long long*,
                                         long long, long long*, unsigned long long*,
                                         unsigned int*, unsigned int*, unsigned int);
template __global__ void ibfs_stats<long long>(const long long*, const long long*, long long,
                                               long long, unsigned long long*,
                                               unsigned long long*, unsigned long long*,
                                               long long*, long long*, long long*, long long,
                                               long long*, unsigned long long*, unsigned int*,
                                               unsigned int*, unsigned int);
template __global__ void ibfs_level_counts<int>(const long long*, const int*, long long,
                                                long long, unsigned long long*,
                                                unsigned long long*, unsigned long long*,
                                                unsigned int*, long long, long long, long long*,
                                                unsigned long long*, unsigned int*, unsigned int*,
                                                unsigned int);
template __global__ void ibfs_level_counts<long long>(const long long*, const long long*,
                                                      long long, long long,
                                                      unsigned long long*, unsigned long long*,
                                                      unsigned long long*, unsigned int*,
                                                      long long, long long, long long*,
                                                      unsigned long long*, unsigned int*,
                                                      unsigned int*, unsigned int);
#endif
