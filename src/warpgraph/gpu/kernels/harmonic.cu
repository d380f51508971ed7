// warpgraph: harmonic centrality's GPU steps, on the iBFS groups of kernels/ibfs.cu.
//
// A batch of `width` groups of 64 searches, group g's words for vertex v at g * stride + v (as in
// ibfs.cu). Each target's sum adds its terms in a fixed order, one after another from 0, so its
// bits are those of a sequential loop; the kernels below keep that order and never split a sum
// between threads.
//
// The searches' levels are ibfs_steps.cuh's: ibfs.cu's expansion, then a step of this file,
// launched per level from the host, or all levels in one cooperative launch (the kernels without
// `_step`, through wg::ibfs_levels).
//
// harmonic_levels_step<L> / harmonic_levels<V, L>: each word's new bits write the level at
//   levels[i * 64 + b] (L: 16- or 32-bit levels; 0: the search's own start, or not reached).
//   The persistent kernel stops after level `top` (*last_level == top then: the host cannot
//   tell whether a search goes on, and starts again with 32-bit levels).
// harmonic_by_distance_step / harmonic_by_distance<V>: per level, the previous level's counts
//   are added to each search's sum (1 / level, counts times: nearest level first, order
//   "distance"), then a warp per 32 words (one group) counts, per search, the weight (times[v],
//   how often v is a source; or 1 when every vertex is a source once) of every vertex it
//   reached, into the other half of `counts`.
// harmonic_sum_sources<L>: a thread per search of the batch (searches from the targets): the sum
//   of table[level] over the sources in their given order.
// harmonic_sum_sources_warp<L>: the same sums, a warp per search, for batches of few searches
//   (a thread per search is then a few dozen threads, each waiting on its loads one chunk at a
//   time): the lanes gather SUM_CHUNK terms into shared memory, in the sources' order, then
//   lane 0 adds them one after another.
// harmonic_add_wave<L>: a thread per target (searches from the sources): adds the batch's terms,
//   group after group, bit after bit (the sources' order), to the target's running sum.
//
// Arrays written between barriers (words, levels, counts, sums, last_level) are plain pointers:
// a const __restrict__ one may be read through the non-coherent cache, which a barrier does
// not refresh.
#include "common.cuh"
#include "ibfs_steps.cuh"

// The level step of harmonic_levels: each word's new bits write the level into its row of
// `levels`, in 16-byte pieces (each read and written once if any of its bits is new: a bit at a
// time was up to 64 two-byte stores per word).
template <typename L>
__device__ __forceinline__ void harmonic_record_words(const wg::IbfsPass& pass,
                                                      unsigned long long* seen,
                                                      unsigned long long* front,
                                                      unsigned long long* found, L* levels,
                                                      long long level, long long* last_level) {
    wg::ibfs_settle_pass(pass, seen, front, found, [&](long long i, unsigned long long w, long long) {
        if (w == 0) return;
        constexpr int PER = 16 / sizeof(L);
        constexpr unsigned long long SLICE = (1ull << PER) - 1;
        uint4* row = reinterpret_cast<uint4*>(levels + i * 64);
        for (int q = 0; q < 64 / PER; ++q) {
            const unsigned long long bits = (w >> (q * PER)) & SLICE;
            if (bits == 0) continue;
            uint4 x = row[q];
            L* e = reinterpret_cast<L*>(&x);
#pragma unroll
            for (int r = 0; r < PER; ++r) {
                if ((bits >> r) & 1ull) e[r] = (L)level;
            }
            row[q] = x;
        }
        *last_level = level;  // (every writer stores the same value)
    });
}

// The level step of harmonic_by_distance. First the previous level's counts (counts[(level - 1)
// & 1], `searches` of them) are added to the sums, 1 / (level - 1) at a time, and cleared; then
// this level's go into the other half, counts[level & 1]: a warp per 32 words (one group) adds,
// per search, the weight of every vertex it reached. The halves are `width * 64` apart. (IEEE
// division, as the CPU's.)
__device__ __forceinline__ void harmonic_distance_words(
    const wg::IbfsPass& pass, unsigned long long* seen, unsigned long long* front,
    unsigned long long* found, const long long* __restrict__ times, int unit, long long searches,
    unsigned long long* counts, double* sums, long long level, long long* last_level) {
    const long long stride = pass.lists.stride;
    const long long half = pass.lists.width * 64;
    if (level > 1) {
        unsigned long long* before = counts + ((level - 1) & 1) * half;
        const double step = 1.0 / (double)(level - 1);
        for (long long s = wg::global_thread_id(); s < searches; s += wg::grid_threads()) {
            unsigned long long c = before[s];
            if (c == 0) continue;
            before[s] = 0;
            double acc = sums[s];
            for (; c; --c) acc += step;  // (one term at a time: the sequential sum's bits)
            sums[s] = acc;
        }
    }
    unsigned long long* now = counts + (level & 1) * half;
    const int lane = wg::lane_id();
    wg::ibfs_settle_pass(pass, seen, front, found,
                         [&](long long i, unsigned long long w, long long group) {
        if (__ballot_sync(wg::FULL_MASK, w != 0) == 0) return;
        // (padding words past n are never set: times is read for real vertices only)
        const unsigned long long weight =
            (w == 0 || unit) ? 1ull : (unsigned long long)times[i - group * stride];
        unsigned long long low = 0, high = 0;  // this lane's sums for bits lane and lane + 32
        for (int b = 0; b < 64; ++b) {
            const bool hit = (w >> b) & 1ull;
            const unsigned long long c =
                unit ? (unsigned long long)__popc(__ballot_sync(wg::FULL_MASK, hit))
                     : wg::warp_sum<unsigned long long>(hit ? weight : 0ull);
            if (b == lane) low = c;
            if (b == lane + 32) high = c;
        }
        if (low) atomicAdd(now + group * 64 + lane, low);
        if (high) atomicAdd(now + group * 64 + lane + 32, high);
        if (lane == 0) *last_level = level;
    });
}

template <typename L>
__global__ void harmonic_levels_step(long long stride, long long width, unsigned long long* seen,
                                     unsigned long long* front, unsigned long long* found,
                                     L* levels, long long level, long long* last_level) {
    harmonic_record_words(wg::dense_pass(stride, width), seen, front, found, levels, level,
                          last_level);
}

template <typename V, typename L>
__global__ void harmonic_levels(const long long* __restrict__ indptr, const V* __restrict__ indices,
                                long long stride, long long width, unsigned long long* seen,
                                unsigned long long* front, unsigned long long* found, L* levels,
                                long long top, long long* last_level,
                                unsigned long long* barrier, unsigned int* list_entries,
                                unsigned int* list_counts, unsigned int list_limit) {
    const wg::IbfsLists lists{list_entries, list_counts, stride, width, list_limit};
    wg::ibfs_levels(indptr, indices, stride, width, seen, front, found, top, last_level, barrier,
                    lists, [&](long long level, const wg::IbfsPass& pass) {
                        harmonic_record_words(pass, seen, front, found, levels, level,
                                              last_level);
                    });
}

__global__ void harmonic_by_distance_step(long long stride, long long width,
                                          unsigned long long* seen, unsigned long long* front,
                                          unsigned long long* found,
                                          const long long* __restrict__ times, int unit,
                                          long long searches, unsigned long long* counts,
                                          double* sums, long long level, long long* last_level) {
    harmonic_distance_words(wg::dense_pass(stride, width), seen, front, found, times, unit,
                            searches, counts, sums, level, last_level);
}

template <typename V>
__global__ void harmonic_by_distance(const long long* __restrict__ indptr,
                                     const V* __restrict__ indices, long long stride,
                                     long long width, unsigned long long* seen,
                                     unsigned long long* front, unsigned long long* found,
                                     const long long* __restrict__ times, int unit,
                                     long long searches, unsigned long long* counts,
                                     double* sums, long long top, long long* last_level,
                                     unsigned long long* barrier, unsigned int* list_entries,
                                     unsigned int* list_counts, unsigned int list_limit) {
    const wg::IbfsLists lists{list_entries, list_counts, stride, width, list_limit};
    wg::ibfs_levels(indptr, indices, stride, width, seen, front, found, top, last_level, barrier,
                    lists, [&](long long level, const wg::IbfsPass& pass) {
                        harmonic_distance_words(pass, seen, front, found, times, unit, searches,
                                                counts, sums, level, last_level);
                    });
}

template <typename L>
__global__ void harmonic_sum_sources(long long searches, long long stride,
                                     const L* __restrict__ levels,
                                     const long long* __restrict__ sources, long long k,
                                     const double* __restrict__ table, double* out) {
    for (long long s = wg::global_thread_id(); s < searches; s += wg::grid_threads()) {
        const L* column = levels + (s >> 6) * stride * 64 + (s & 63);
        double acc = 0.0;
        long long i = 0;
        // (four loads issued before the four dependent adds: the adds keep their order)
        for (; i + 4 <= k; i += 4) {
            const L a = column[sources[i] * 64], b = column[sources[i + 1] * 64];
            const L c = column[sources[i + 2] * 64], d = column[sources[i + 3] * 64];
            acc += table[a];
            acc += table[b];
            acc += table[c];
            acc += table[d];
        }
        for (; i < k; ++i) acc += table[column[sources[i] * 64]];
        out[s] = acc;
    }
}

constexpr int SUM_CHUNK = 1024;      // terms a warp gathers per round (32 per lane)
constexpr int SUM_WARP_BLOCK = 128;  // threads per block of the warp kernel: 4 warps, 32 KiB

template <typename L>
__global__ void __launch_bounds__(SUM_WARP_BLOCK)
    harmonic_sum_sources_warp(long long searches, long long stride, const L* __restrict__ levels,
                              const long long* __restrict__ sources, long long k,
                              const double* __restrict__ table, double* out) {
    __shared__ double terms[SUM_WARP_BLOCK / 32][SUM_CHUNK];
    const int lane = wg::lane_id();
    double* mine = terms[threadIdx.x / 32];
    const long long warps = wg::grid_threads() / 32;
    for (long long s = wg::global_thread_id() / 32; s < searches; s += warps) {
        const L* column = levels + (s >> 6) * stride * 64 + (s & 63);
        double acc = 0.0;
        for (long long base = 0; base < k; base += SUM_CHUNK) {
            const int count = (int)(k - base < SUM_CHUNK ? k - base : SUM_CHUNK);
#pragma unroll 8
            for (int j = lane; j < count; j += 32) mine[j] = table[column[sources[base + j] * 64]];
            __syncwarp();
            if (lane == 0) {
                for (int j = 0; j < count; ++j) acc += mine[j];  // (the sources' order)
            }
            __syncwarp();
        }
        if (lane == 0) out[s] = acc;
    }
}

template <typename L>
__global__ void harmonic_add_wave(long long k, const long long* __restrict__ targets,
                                  long long stride, const L* __restrict__ levels,
                                  long long groups, long long left,
                                  const double* __restrict__ table, double* out) {
    for (long long i = wg::global_thread_id(); i < k; i += wg::grid_threads()) {
        const long long t = targets[i];
        double acc = out[i];
        for (long long g = 0; g < groups; ++g) {
            const L* row = levels + (g * stride + t) * 64;
            const long long bits = left - g * 64 < 64 ? left - g * 64 : 64;
            if (bits == 64) {  // (a full row in 16-byte loads: 8 or 16 instead of 64)
                constexpr int PER = 16 / sizeof(L);
                const uint4* vec = reinterpret_cast<const uint4*>(row);
#pragma unroll
                for (int q = 0; q < 64 / PER; ++q) {
                    const uint4 x = vec[q];
                    const L* e = reinterpret_cast<const L*>(&x);
#pragma unroll
                    for (int r = 0; r < PER; ++r) acc += table[e[r]];
                }
            } else {
                for (long long b = 0; b < bits; ++b) acc += table[row[b]];
            }
        }
        out[i] = acc;
    }
}

#ifdef WARPGRAPH_NVCC_CHECK
#define WG_HARMONIC_LEVELS(V, L)                                                                \
    template __global__ void harmonic_levels<V, L>(const long long*, const V*, long long,       \
                                                   long long, unsigned long long*,             \
                                                   unsigned long long*, unsigned long long*, L*, \
                                                   long long, long long*, unsigned long long*, \
                                                   unsigned int*, unsigned int*, unsigned int);
WG_HARMONIC_LEVELS(int, unsigned short)
WG_HARMONIC_LEVELS(int, unsigned int)
WG_HARMONIC_LEVELS(long long, unsigned short)
WG_HARMONIC_LEVELS(long long, unsigned int)
#undef WG_HARMONIC_LEVELS
template __global__ void harmonic_levels_step<unsigned short>(long long, long long,
                                                              unsigned long long*,
                                                              unsigned long long*,
                                                              unsigned long long*,
                                                              unsigned short*, long long,
                                                              long long*);
template __global__ void harmonic_levels_step<unsigned int>(long long, long long,
                                                            unsigned long long*,
                                                            unsigned long long*,
                                                            unsigned long long*, unsigned int*,
                                                            long long, long long*);
template __global__ void harmonic_by_distance<int>(const long long*, const int*, long long, long long,
                                                   unsigned long long*, unsigned long long*,
                                                   unsigned long long*, const long long*, int,
                                                   long long, unsigned long long*, double*,
                                                   long long, long long*, unsigned long long*,
                                                   unsigned int*, unsigned int*, unsigned int);
template __global__ void harmonic_by_distance<long long>(const long long*, const long long*,
                                                         long long, long long,
                                                         unsigned long long*, unsigned long long*,
                                                         unsigned long long*, const long long*,
                                                         int, long long, unsigned long long*,
                                                         double*, long long, long long*,
                                                         unsigned long long*, unsigned int*,
                                                         unsigned int*, unsigned int);
template __global__ void harmonic_sum_sources<unsigned short>(long long, long long,
                                                              const unsigned short*,
                                                              const long long*, long long,
                                                              const double*, double*);
template __global__ void harmonic_sum_sources<unsigned int>(long long, long long,
                                                            const unsigned int*, const long long*,
                                                            long long, const double*, double*);
template __global__ void harmonic_sum_sources_warp<unsigned short>(long long, long long,
                                                                   const unsigned short*,
                                                                   const long long*, long long,
                                                                   const double*, double*);
template __global__ void harmonic_sum_sources_warp<unsigned int>(long long, long long,
                                                                 const unsigned int*,
                                                                 const long long*, long long,
                                                                 const double*, double*);
template __global__ void harmonic_add_wave<unsigned short>(long long, const long long*, long long,
                                                           const unsigned short*, long long,
                                                           long long, const double*, double*);
template __global__ void harmonic_add_wave<unsigned int>(long long, const long long*, long long,
                                                         const unsigned int*, long long, long long,
                                                         const double*, double*);
#endif
