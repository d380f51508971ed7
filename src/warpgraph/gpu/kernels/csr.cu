// warpgraph: CSR construction from an edge list (see warpgraph/gpu/csr.py for the pipeline).
//
// 1. pack_arc_keys: one 64-bit key (row << 32 | col) per arc; an undirected edge i writes its
//    forward arc at 2i and its reverse at 2i + 1, so a stable sort keeps input order among equal
//    keys ("first"/"last" merges). Dropped arcs (the reverse of a self-loop, or any self-loop
//    when loops are removed) and out-of-range ids get the sentinel key ~0, which sorts last.
// 2. (host) stable radix sort of the keys (CuPy/CUB), argsort when weights follow.
// 3. merge_runs: one thread per run of equal keys reduces its weights (min / max / sum) in input
//    order, so results are deterministic (no floating-point atomics).
// 4. unpack_count: column ids from the low 32 bits, plus a row histogram for the row offsets.
// Requires n < 2^32 (ids fit 32 bits); csr.py has a general path beyond that.
#include "common.cuh"

#define WG_SENTINEL_KEY 0xffffffffffffffffull

// counters[0] += number of sentinel keys written, counters[1] += number of edges with an id
// outside [0, n).
template <typename V>
__global__ void pack_arc_keys(const V* __restrict__ src, const V* __restrict__ dst, long long m,
                              long long n, int undirected, int drop_loops,
                              unsigned long long* __restrict__ keys,
                              unsigned long long* __restrict__ counters) {
    for (long long base = wg::warp_base(); base < m; base += wg::warp_stride()) {
        const long long i = base + wg::lane_id();
        unsigned long long sentinels = 0, bad = 0;
        if (i < m) {
            const long long s = (long long)wg::ldg(src + i);
            const long long d = (long long)wg::ldg(dst + i);
            const bool out_of_range = s < 0 || s >= n || d < 0 || d >= n;
            const bool loop = s == d;
            const unsigned long long fwd = ((unsigned long long)s << 32) | (unsigned long long)d;
            const unsigned long long rev = ((unsigned long long)d << 32) | (unsigned long long)s;
            const bool drop_fwd = out_of_range || (loop && drop_loops);
            if (undirected) {
                const bool drop_rev = out_of_range || loop;
                keys[2 * i] = drop_fwd ? WG_SENTINEL_KEY : fwd;
                keys[2 * i + 1] = drop_rev ? WG_SENTINEL_KEY : rev;
                sentinels = (unsigned long long)drop_fwd + (unsigned long long)drop_rev;
            } else {
                keys[i] = drop_fwd ? WG_SENTINEL_KEY : fwd;
                sentinels = (unsigned long long)drop_fwd;
            }
            bad = out_of_range ? 1ull : 0ull;
        }
        sentinels = wg::warp_sum(sentinels);
        bad = wg::warp_sum(bad);
        if (wg::lane_id() == 0) {
            if (sentinels) atomicAdd(counters, sentinels);
            if (bad) atomicAdd(counters + 1, bad);
        }
    }
}

// OP: 0 = min, 1 = max, 2 = sum. Run r covers sorted positions [starts[r], starts[r+1]) (the
// last one ends at `total`). Same rule as the CPU builder: a later weight replaces the current
// one only if it compares strictly smaller (larger), so a NaN is kept only when it comes first.
template <typename W, int OP>
__global__ void merge_runs(const long long* __restrict__ starts, long long runs, long long total,
                           const W* __restrict__ w, W* __restrict__ out) {
    for (long long r = wg::global_thread_id(); r < runs; r += wg::grid_threads()) {
        const long long b = starts[r];
        const long long e = (r + 1 < runs) ? starts[r + 1] : total;
        W acc = w[b];
        for (long long j = b + 1; j < e; ++j) {
            const W x = w[j];
            if (OP == 0) {
                if (x < acc) acc = x;
            } else if (OP == 1) {
                if (x > acc) acc = x;
            } else {
                acc += x;
            }
        }
        out[r] = acc;
    }
}

// cols[i] = low 32 bits of keys[i]; counts[high 32 bits] += 1.
template <typename V>
__global__ void unpack_count(const unsigned long long* __restrict__ keys, long long m,
                             V* __restrict__ cols, unsigned long long* __restrict__ counts) {
    for (long long base = wg::warp_base(); base < m; base += wg::warp_stride()) {
        const long long i = base + wg::lane_id();
        const bool valid = i < m;
        const unsigned long long key = valid ? wg::ldg(keys + i) : 0ull;
        if (valid) cols[i] = (V)(key & 0xffffffffull);
        wg::warp_aggregated_count(counts, key >> 32, valid);
    }
}

#ifdef WARPGRAPH_NVCC_CHECK
template __global__ void pack_arc_keys<int>(const int*, const int*, long long, long long, int, int,
                                            unsigned long long*, unsigned long long*);
template __global__ void pack_arc_keys<long long>(const long long*, const long long*, long long,
                                                  long long, int, int, unsigned long long*,
                                                  unsigned long long*);
#define WG_MERGE(W)                                                                             \
    template __global__ void merge_runs<W, 0>(const long long*, long long, long long, const W*, \
                                              W*);                                            \
    template __global__ void merge_runs<W, 1>(const long long*, long long, long long, const W*, \
                                              W*);                                            \
    template __global__ void merge_runs<W, 2>(const long long*, long long, long long, const W*, W*);
WG_MERGE(int)
WG_MERGE(long long)
WG_MERGE(float)
WG_MERGE(double)
#undef WG_MERGE
template __global__ void unpack_count<int>(const unsigned long long*, long long, int*,
                                           unsigned long long*);
template __global__ void unpack_count<long long>(const unsigned long long*, long long, long long*,
                                                 unsigned long long*);
#endif
