// warpgraph: CSR construction from an edge list by counting sort (pipeline in gpu/csr.py).
//
// 1. count_arcs: row lengths (an undirected edge gives both arcs, a self-loop one, a removed
//    loop none) and the number of edges with an id outside [0, n).
// 2. (host) exclusive scan -> indptr; a copy of indptr[:-1] serves as per-row cursors.
// 3. scatter_arcs: every arc claims a slot of its row (one atomicAdd per distinct row per
//    warp) and writes its key there: the column, or (column << ob) | edge index when weights
//    follow (the edge index restores the input order that the atomics lose).
// 4. bin_rows groups rows by length; sort_rows_warp / sort_rows_block sort rows of up to 32 /
//    P keys in registers / shared memory (bitonic networks, csr_sort.cuh); longer rows go to
//    CuPy's radix sort in batches of (rank << kb) | key (pack_batch / unpack_batch).
// 5. Merging parallel arcs: mark_row_starts and mark_heads set one bit per run of equal
//    columns; a prefix sum of the per-word bit counts gives each run its output slot;
//    compact_runs writes the column and the merged weight (walking the run in input order, as
//    the CPU builder does); runs_before turns indptr into the merged row offsets. Without
//    merging, compact_runs maps keys one to one to (column, weight).
// Requires n < 2^32 (and colbits + ob <= 63); csr.py has a general path beyond that.
#include "common.cuh"
#include "csr_sort.cuh"

namespace wgcsr {

// This lane's slot in row `row`: one atomicAdd per distinct row in the warp (all lanes call).
template <typename V>
__device__ __forceinline__ long long claim_slot(unsigned long long* cursor, V row, bool valid) {
    const unsigned peers = __match_any_sync(wg::FULL_MASK, valid ? row : (V)-1);
    const int leader = __ffs(peers) - 1;
    const int lane = wg::lane_id();
    unsigned long long base = 0;
    if (valid && lane == leader) base = atomicAdd(cursor + row, (unsigned long long)__popc(peers));
    base = __shfl_sync(wg::FULL_MASK, base, leader);
    return (long long)(base + (unsigned long long)__popc(peers & ((1u << lane) - 1u)));
}

__device__ __forceinline__ bool bit_set(const unsigned int* bits, long long p) {
    return (bits[p >> 5] >> (p & 31)) & 1u;
}

}  // namespace wgcsr

// deg[row] += 1 per arc kept; bad[0] += number of edges with an id outside [0, n).
template <typename V>
__global__ void count_arcs(const V* __restrict__ src, const V* __restrict__ dst, long long m,
                           long long n, int undirected, int drop_loops,
                           unsigned long long* __restrict__ deg,
                           unsigned long long* __restrict__ bad) {
    for (long long base = wg::warp_base(); base < m; base += wg::warp_stride()) {
        const long long i = base + wg::lane_id();
        const bool in = i < m;
        const long long s = in ? (long long)wg::ldg(src + i) : 0;
        const long long d = in ? (long long)wg::ldg(dst + i) : 0;
        const bool ok = in && s >= 0 && s < n && d >= 0 && d < n;
        const bool loop = s == d;
        wg::warp_aggregated_count(deg, s, ok && !(loop && drop_loops));
        wg::warp_aggregated_count(deg, d, ok && undirected && !loop);
        const unsigned b = __ballot_sync(wg::FULL_MASK, in && !ok);
        if (wg::lane_id() == 0 && b) atomicAdd(bad, (unsigned long long)__popc(b));
    }
}

// Ids are valid (count_arcs found none bad). cursor[row] starts at indptr[row].
template <typename V, typename K>
__global__ void scatter_arcs(const V* __restrict__ src, const V* __restrict__ dst, long long m,
                             int undirected, int drop_loops, int ob, int with_order,
                             unsigned long long* __restrict__ cursor, K* __restrict__ keys) {
    for (long long base = wg::warp_base(); base < m; base += wg::warp_stride()) {
        const long long i = base + wg::lane_id();
        const bool in = i < m;
        const V s = in ? wg::ldg(src + i) : (V)0;
        const V d = in ? wg::ldg(dst + i) : (V)0;
        const bool loop = s == d;
        const bool fwd = in && !(loop && drop_loops);
        const bool rev = in && undirected && !loop;
        const K order = with_order ? (K)i : (K)0;
        long long slot = wgcsr::claim_slot(cursor, s, fwd);
        if (fwd) keys[slot] = ((K)d << ob) | order;
        slot = wgcsr::claim_slot(cursor, d, rev);
        if (rev) keys[slot] = ((K)s << ob) | order;
    }
}

// Bins rows by length: bin b < nb - 1 holds lengths in (ub[b-1], ub[b]] (ub[-1] = lo - 1), bin
// nb - 1 everything longer; rows shorter than lo are left out. Each block takes a contiguous
// range of rows and one atomicAdd per bin. Phase 0 adds the bin sizes to cursor[]; phase 1
// (cursor[b] = first slot of bin b) writes the row ids (in no particular order within a bin).
#define WG_CSR_MAX_BINS 16
template <typename R>
__global__ void bin_rows(const long long* __restrict__ indptr, long long n, long long lo,
                         const long long* __restrict__ ub, int nb, int phase,
                         unsigned long long* __restrict__ cursor, R* __restrict__ rows) {
    __shared__ unsigned long long count[WG_CSR_MAX_BINS];
    __shared__ unsigned long long base[WG_CSR_MAX_BINS];
    const long long per_block = (n + gridDim.x - 1) / gridDim.x;
    const long long r0 = (long long)blockIdx.x * per_block;
    const long long r1 = r0 + per_block < n ? r0 + per_block : n;
    if (threadIdx.x < WG_CSR_MAX_BINS) count[threadIdx.x] = 0;
    __syncthreads();
    for (long long r = r0 + threadIdx.x; r < r1; r += blockDim.x) {
        const long long len = indptr[r + 1] - indptr[r];
        if (len < lo) continue;
        int b = 0;
        while (b < nb - 1 && len > ub[b]) ++b;
        atomicAdd(count + b, 1ull);
    }
    __syncthreads();
    if (threadIdx.x < (unsigned)nb) {
        const unsigned long long c = count[threadIdx.x];
        base[threadIdx.x] = c ? atomicAdd(cursor + threadIdx.x, c) : 0ull;
        count[threadIdx.x] = 0;
    }
    __syncthreads();
    if (phase == 0) return;
    for (long long r = r0 + threadIdx.x; r < r1; r += blockDim.x) {
        const long long len = indptr[r + 1] - indptr[r];
        if (len < lo) continue;
        int b = 0;
        while (b < nb - 1 && len > ub[b]) ++b;
        rows[base[b] + atomicAdd(count + b, 1ull)] = (R)r;
    }
}

// Sorts rows of at most g keys (g a power of two in [2, 32]), 32 / g rows per warp.
template <typename K>
__global__ void sort_rows_warp(K* __restrict__ keys, const long long* __restrict__ indptr,
                               const unsigned int* __restrict__ rows, long long nrows, int g) {
    const int lane = wg::lane_id();
    const long long per_warp = 32 / g;
    const long long first = (wg::warp_base() >> 5) * per_warp;
    const long long stride = (wg::warp_stride() >> 5) * per_warp;
    for (long long r0 = first; r0 < nrows; r0 += stride) {  // warp-uniform
        const long long r = r0 + lane / g;
        const int li = lane & (g - 1);
        long long begin = 0, len = 0;
        if (r < nrows) {
            const unsigned int row = rows[r];
            begin = indptr[row];
            len = indptr[row + 1] - begin;
        }
        K v = li < len ? keys[begin + li] : wgcsr::all_ones<K>();
        v = wgcsr::warp_bitonic(v, li, g);
        if (li < len) keys[begin + li] = v;
    }
}

// Sorts rows of at most P keys (P a power of two), one row per block at a time.
template <typename K, int P>
__global__ void sort_rows_block(K* __restrict__ keys, const long long* __restrict__ indptr,
                                const unsigned int* __restrict__ rows, long long nrows) {
    __shared__ K s[P];
    for (long long r = blockIdx.x; r < nrows; r += gridDim.x) {  // block-uniform
        const unsigned int row = rows[r];
        const long long begin = indptr[row];
        const int len = (int)(indptr[row + 1] - begin);
        int p = 1;
        while (p < len) p <<= 1;
        for (int i = threadIdx.x; i < p; i += blockDim.x) {
            s[i] = i < len ? keys[begin + i] : wgcsr::all_ones<K>();
        }
        wgcsr::block_bitonic(s, p);
        for (int i = threadIdx.x; i < len; i += blockDim.x) keys[begin + i] = s[i];
        __syncthreads();  // s is refilled for the next row
    }
}

// out[offs[r] + i] = (r << kb) | key i of row rows[r]: row r of a batch gets rank r.
template <typename K, typename B>
__global__ void pack_batch(const K* __restrict__ keys, const long long* __restrict__ indptr,
                           const unsigned int* __restrict__ rows,
                           const long long* __restrict__ offs, long long nrows, int kb,
                           B* __restrict__ out) {
    for (long long r = blockIdx.x; r < nrows; r += gridDim.x) {
        const long long begin = indptr[rows[r]];
        const long long len = indptr[rows[r] + 1] - begin;
        const B tag = (B)r << kb;
        for (long long i = threadIdx.x; i < len; i += blockDim.x) {
            out[offs[r] + i] = tag | (B)keys[begin + i];
        }
    }
}

// The inverse of pack_batch once `in` is sorted: rank r's keys fill offs[r] .. + its length.
template <typename K, typename B>
__global__ void unpack_batch(K* __restrict__ keys, const long long* __restrict__ indptr,
                             const unsigned int* __restrict__ rows,
                             const long long* __restrict__ offs, long long nrows,
                             unsigned long long mask, const B* __restrict__ in) {
    for (long long r = blockIdx.x; r < nrows; r += gridDim.x) {
        const long long begin = indptr[rows[r]];
        const long long len = indptr[rows[r] + 1] - begin;
        for (long long i = threadIdx.x; i < len; i += blockDim.x) {
            keys[begin + i] = (K)((unsigned long long)in[offs[r] + i] & mask);
        }
    }
}

// Bit indptr[r] of `bits` for every non-empty row r: a row's first arc starts a run.
template <typename R>
__global__ void mark_row_starts(const long long* __restrict__ indptr, R n,
                                unsigned int* __restrict__ bits) {
    for (long long r = wg::global_thread_id(); r < (long long)n; r += wg::grid_threads()) {
        const long long p = indptr[r];
        if (indptr[r + 1] > p) atomicOr(bits + (p >> 5), 1u << (p & 31));
    }
}

// Adds the bit of every arc whose column differs from the previous arc's; counts[w] = number of
// bits set in word w afterwards. One warp per 32-arc word.
template <typename K>
__global__ void mark_heads(const K* __restrict__ keys, long long total, int ob,
                           unsigned int* __restrict__ bits, unsigned int* __restrict__ counts) {
    const long long span = ((total + 31) >> 5) << 5;
    for (long long base = wg::warp_base(); base < span; base += wg::warp_stride()) {
        const int lane = wg::lane_id();
        const long long p = base + lane;
        const bool in = p < total;
        const K col = in ? (K)(keys[p] >> ob) : (K)0;
        K prev = __shfl_up_sync(wg::FULL_MASK, col, 1);
        if (lane == 0) prev = p > 0 ? (K)(keys[p - 1] >> ob) : col;
        const unsigned diff = __ballot_sync(wg::FULL_MASK, in && col != prev);
        if (lane == 0) {
            const unsigned word = bits[base >> 5] | diff;
            bits[base >> 5] = word;
            counts[base >> 5] = (unsigned)__popc(word);
        }
    }
}

// MODE 0 min, 1 max, 2 sum, 3 first, 4 last: every run (bits) becomes one arc, its weight
// merged over the run in input order with the CPU builder's rules (a later weight replaces the
// current one only if strictly smaller / larger, so a NaN survives only in first place);
// 5: columns only; 6: no merging, one arc per key (bits and word_start unused).
// word_start[w] = runs starting before word w.
template <typename K, typename I, typename W>
__global__ void compact_runs(const K* __restrict__ keys, long long total, int ob, int mode,
                             const unsigned int* __restrict__ bits,
                             const long long* __restrict__ word_start, const W* __restrict__ w,
                             I* __restrict__ cols, W* __restrict__ wout) {
    const unsigned long long omask = ob ? ((1ull << ob) - 1ull) : 0ull;
    for (long long base = wg::warp_base(); base < total; base += wg::warp_stride()) {
        const int lane = wg::lane_id();
        const long long p = base + lane;
        unsigned word = 0xffffffffu;
        long long q = p;
        if (mode != 6) {
            word = bits[base >> 5];
            q = word_start[base >> 5] + __popc(word & ((1u << lane) - 1u));
        }
        if (p >= total || !((word >> lane) & 1u)) continue;
        const K key = keys[p];
        cols[q] = (I)(key >> ob);
        if (mode == 5) continue;
        W acc = w[(unsigned long long)key & omask];
        if (mode != 3 && mode != 6) {
            for (long long j = p + 1; j < total && !wgcsr::bit_set(bits, j); ++j) {
                const W x = w[(unsigned long long)keys[j] & omask];
                if (mode == 0) {
                    if (x < acc) acc = x;
                } else if (mode == 1) {
                    if (x > acc) acc = x;
                } else if (mode == 2) {
                    acc += x;
                } else {
                    acc = x;
                }
            }
        }
        wout[q] = acc;
    }
}

// indptr[r] := runs before arc indptr[r] (r <= n), in place: the merged row offsets.
template <typename R>
__global__ void runs_before(long long* __restrict__ indptr, R n, long long total,
                            const unsigned int* __restrict__ bits,
                            const long long* __restrict__ word_start) {
    for (long long r = wg::global_thread_id(); r <= (long long)n; r += wg::grid_threads()) {
        const long long p = indptr[r];
        long long q = word_start[(total + 31) >> 5];
        if (p < total) q = word_start[p >> 5] + __popc(bits[p >> 5] & ((1u << (p & 31)) - 1u));
        indptr[r] = q;
    }
}

// General path (ids beyond 32 bits, csr.py): OP 0 min, 1 max, 2 sum over the run of sorted
// positions [starts[r], starts[r+1]) (the last run ends at `total`), one thread per run, in
// input order, with the same rules as compact_runs.
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

#ifdef WARPGRAPH_NVCC_CHECK
#define WG_V(V)                                                                                  \
    template __global__ void count_arcs<V>(const V*, const V*, long long, long long, int, int,   \
                                           unsigned long long*, unsigned long long*);            \
    template __global__ void scatter_arcs<V, unsigned int>(const V*, const V*, long long, int,   \
                                                           int, int, int, unsigned long long*,   \
                                                           unsigned int*);                       \
    template __global__ void scatter_arcs<V, unsigned long long>(                                \
        const V*, const V*, long long, int, int, int, int, unsigned long long*,                  \
        unsigned long long*);
WG_V(int)
WG_V(long long)
#undef WG_V
#define WG_K(K, P3)                                                                              \
    template __global__ void sort_rows_warp<K>(K*, const long long*, const unsigned int*,        \
                                               long long, int);                                  \
    template __global__ void sort_rows_block<K, 256>(K*, const long long*, const unsigned int*,  \
                                                     long long);                                 \
    template __global__ void sort_rows_block<K, 2048>(K*, const long long*, const unsigned int*, \
                                                      long long);                                \
    template __global__ void sort_rows_block<K, P3>(K*, const long long*, const unsigned int*,   \
                                                    long long);                                  \
    template __global__ void pack_batch<K, unsigned int>(const K*, const long long*,             \
                                                         const unsigned int*, const long long*,  \
                                                         long long, int, unsigned int*);         \
    template __global__ void pack_batch<K, unsigned long long>(                                  \
        const K*, const long long*, const unsigned int*, const long long*, long long, int,       \
        unsigned long long*);                                                                    \
    template __global__ void unpack_batch<K, unsigned int>(K*, const long long*,                 \
                                                           const unsigned int*,                  \
                                                           const long long*, long long,          \
                                                           unsigned long long,                   \
                                                           const unsigned int*);                 \
    template __global__ void unpack_batch<K, unsigned long long>(                                \
        K*, const long long*, const unsigned int*, const long long*, long long,                  \
        unsigned long long, const unsigned long long*);                                          \
    template __global__ void mark_heads<K>(const K*, long long, int, unsigned int*,              \
                                           unsigned int*);
WG_K(unsigned int, 8192)
WG_K(unsigned long long, 4096)
#undef WG_K
#define WG_C(K, I, W)                                                                            \
    template __global__ void compact_runs<K, I, W>(const K*, long long, int, int,                \
                                                   const unsigned int*, const long long*,        \
                                                   const W*, I*, W*);
WG_C(unsigned int, int, int)
WG_C(unsigned long long, long long, int)
WG_C(unsigned long long, int, int)
WG_C(unsigned long long, int, long long)
WG_C(unsigned long long, int, float)
WG_C(unsigned long long, int, double)
WG_C(unsigned long long, long long, long long)
WG_C(unsigned long long, long long, float)
WG_C(unsigned long long, long long, double)
#undef WG_C
template __global__ void bin_rows<unsigned int>(const long long*, long long, long long,
                                                const long long*, int, int, unsigned long long*,
                                                unsigned int*);
template __global__ void mark_row_starts<long long>(const long long*, long long, unsigned int*);
template __global__ void runs_before<long long>(long long*, long long, long long,
                                               const unsigned int*, const long long*);
#define WG_M(W)                                                                                  \
    template __global__ void merge_runs<W, 0>(const long long*, long long, long long, const W*,  \
                                              W*);                                               \
    template __global__ void merge_runs<W, 1>(const long long*, long long, long long, const W*,  \
                                              W*);                                               \
    template __global__ void merge_runs<W, 2>(const long long*, long long, long long, const W*,  \
                                              W*);
WG_M(int)
WG_M(long long)
WG_M(float)
WG_M(double)
#undef WG_M
#endif
