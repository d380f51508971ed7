// warpgraph: degree-ordered orientation for triangle counting without a global sort.
//
// Builds the rank-space oriented CSR of algorithms/triangles/gpu.py (vertices ranked by
// (simple degree, id), each edge kept once as the arc low -> high, ids replaced by ranks, rows
// sorted) from an undirected CSR with sorted rows, in linear passes instead of one 64-bit key
// sort of all arcs:
//   1. tc_prep_degree  (one thread per arc): the row u of the arc (binary search in indptr) is
//      stored, and the arc counts towards u's simple degree unless it is a self-loop or repeats
//      its predecessor (rows are sorted). Counts are added once per run of equal rows in a warp.
//   2. (CuPy) rank = inverse of a stable argsort of the degrees.
//   3. tc_prep_keep    (one thread per arc): an arc u -> v is kept when rank[v] > rank[u]; kept
//      ranks are appended to a scratch copy of u's own row (slots reserved by one atomic per run
//      of equal rows in a warp), so no scan over the arcs is needed. Order within a row is
//      arbitrary here.
//   4. (CuPy) oriented offsets: scan of the kept counts in rank order.
//   5. tc_prep_sort_warp  (one warp per rank row of up to 512 entries): bitonic sort in
//      registers (R entries per lane, shuffles across lanes), written to the oriented row.
//      tc_prep_sort_block (one block per listed longer row, up to CAP entries): bitonic sort in
//      shared memory. Longer rows are left to the caller (it falls back to a global sort).
#include "common.cuh"

namespace tcp {

template <typename Id>
__device__ __forceinline__ Id max_id();
template <>
__device__ __forceinline__ int max_id<int>() {
    return 0x7fffffff;
}
template <>
__device__ __forceinline__ long long max_id<long long>() {
    return 0x7fffffffffffffffLL;
}

// Row of arc p: the largest u with indptr[u] <= p (indptr[n] = m > p, so u < n).
__device__ __forceinline__ long long row_of(const long long* __restrict__ indptr, long long n,
                                            long long p) {
    long long lo = 0, hi = n - 1;
    while (lo < hi) {
        const long long mid = (lo + hi + 1) >> 1;
        if (wg::ldg(indptr + mid) <= p) {
            lo = mid;
        } else {
            hi = mid - 1;
        }
    }
    return lo;
}

// Lanes of the run that starts at head lane `lane`: bits lane .. next head - 1 of the warp.
__device__ __forceinline__ unsigned run_mask(unsigned heads, int lane) {
    const unsigned above = lane == 31 ? 0u : (heads & (0xffffffffu << (lane + 1)));
    const unsigned below_next = above ? ((above & (~above + 1u)) - 1u) : 0xffffffffu;
    return below_next & (0xffffffffu << lane);
}

// Head lane of the run holding `lane` (the highest head at or below it; lane 0 is a head).
__device__ __forceinline__ int run_head(unsigned heads, int lane) {
    return 31 - __clz(heads & (0xffffffffu >> (31 - lane)));
}

// Bitonic sort of 32 * R keys held R per lane (key e = r * 32 + lane in x[r]), ascending.
template <typename Id, int R>
__device__ __forceinline__ void warp_bitonic(Id (&x)[R], int lane) {
    constexpr int N = 32 * R;
#pragma unroll
    for (int k = 2; k <= N; k <<= 1) {
#pragma unroll
        for (int j = k >> 1; j > 0; j >>= 1) {
#pragma unroll
            for (int r = 0; r < R; ++r) {
                const int e = r * 32 + lane;
                const bool up = (e & k) == 0;
                if (j >= 32) {  // partner in this lane's register r ^ (j / 32)
                    const int rr = r ^ (j >> 5);
                    if (rr > r) {
                        const Id a = x[r], b = x[rr];
                        if (up ? (a > b) : (a < b)) {
                            x[r] = b;
                            x[rr] = a;
                        }
                    }
                } else {  // partner in lane ^ j, same register
                    const Id y = __shfl_xor_sync(wg::FULL_MASK, x[r], j);
                    const bool low = (lane & j) == 0;
                    const Id lo = x[r] < y ? x[r] : y;
                    const Id hi = x[r] < y ? y : x[r];
                    x[r] = (low == up) ? lo : hi;
                }
            }
        }
    }
}

template <typename Id, int R>
__device__ __forceinline__ void sort_row(const Id* __restrict__ row, int len, Id* __restrict__ oidx,
                                         Id* __restrict__ osrc, Id r_id, int lane) {
    Id x[R];
#pragma unroll
    for (int r = 0; r < R; ++r) {
        const int e = r * 32 + lane;
        x[r] = e < len ? row[e] : max_id<Id>();
    }
    warp_bitonic<Id, R>(x, lane);
#pragma unroll
    for (int r = 0; r < R; ++r) {
        const int e = r * 32 + lane;
        if (e < len) {
            oidx[e] = x[r];
            osrc[e] = r_id;
        }
    }
}

}  // namespace tcp

// 1. Row of every arc and simple degrees (deg zeroed by the caller).
template <typename Id>
__global__ void tc_prep_degree(const long long* __restrict__ indptr, const Id* __restrict__ indices,
                               long long n, long long m, Id* __restrict__ src,
                               int* __restrict__ deg) {
    const int lane = wg::lane_id();
    for (long long base = wg::warp_base(); base < m; base += wg::warp_stride()) {
        const long long p = base + lane;
        long long u = -1;
        bool valid = false;
        if (p < m) {
            u = tcp::row_of(indptr, n, p);
            const Id v = wg::ldg(indices + p);
            valid = (long long)v != u &&
                    (p == wg::ldg(indptr + u) || wg::ldg(indices + p - 1) != v);
            src[p] = (Id)u;
        }
        const long long prev = __shfl_up_sync(wg::FULL_MASK, u, 1);
        const bool head = lane == 0 || prev != u;
        const unsigned heads = __ballot_sync(wg::FULL_MASK, head);
        const unsigned vmask = __ballot_sync(wg::FULL_MASK, valid);
        if (head && u >= 0) {
            const int c = __popc(vmask & tcp::run_mask(heads, lane));
            if (c != 0) atomicAdd(deg + u, c);
        }
    }
}

// 3. Kept arcs (rank[v] > rank[u]) appended, as ranks, to scratch[indptr[u] ...]; cnt[u] counts
//    them (cnt zeroed by the caller).
template <typename Id>
__global__ void tc_prep_keep(const long long* __restrict__ indptr, const Id* __restrict__ indices,
                             const Id* __restrict__ src, const Id* __restrict__ rank, long long m,
                             int* __restrict__ cnt, Id* __restrict__ scratch) {
    const int lane = wg::lane_id();
    for (long long base = wg::warp_base(); base < m; base += wg::warp_stride()) {
        const long long p = base + lane;
        long long u = -1;
        long long row0 = 0;
        bool keep = false;
        Id rv = 0;
        if (p < m) {
            u = wg::ldg(src + p);
            const Id v = wg::ldg(indices + p);
            row0 = wg::ldg(indptr + u);
            if ((long long)v != u && (p == row0 || wg::ldg(indices + p - 1) != v)) {
                rv = wg::ldg(rank + v);
                keep = rv > wg::ldg(rank + u);
            }
        }
        const long long prev = __shfl_up_sync(wg::FULL_MASK, u, 1);
        const bool head = lane == 0 || prev != u;
        const unsigned heads = __ballot_sync(wg::FULL_MASK, head);
        const unsigned kmask = __ballot_sync(wg::FULL_MASK, keep);
        int slot = 0;
        if (head && u >= 0) {
            const int c = __popc(kmask & tcp::run_mask(heads, lane));
            if (c != 0) slot = atomicAdd(cnt + u, c);
        }
        const int h = tcp::run_head(heads, lane);
        slot = __shfl_sync(wg::FULL_MASK, slot, h);
        if (keep) {
            const unsigned before = kmask & ~((1u << h) - 1u) & ((1u << lane) - 1u);
            scratch[row0 + slot + __popc(before)] = rv;
        }
    }
}

// 5a. One warp per rank row r (vertex order[r]) of at most 512 kept entries: sort, write to
//     oidx[oindptr[r] ...] with osrc = r.
template <typename Id>
__global__ void tc_prep_sort_warp(const Id* __restrict__ order, const int* __restrict__ cnt,
                                  const long long* __restrict__ indptr,
                                  const Id* __restrict__ scratch,
                                  const long long* __restrict__ oindptr, long long n,
                                  Id* __restrict__ oidx, Id* __restrict__ osrc) {
    const int lane = wg::lane_id();
    const long long warps = wg::grid_threads() / wg::WARP_SIZE;
    for (long long r = wg::global_thread_id() / wg::WARP_SIZE; r < n; r += warps) {
        const Id u = wg::ldg(order + r);
        const int len = wg::ldg(cnt + u);
        if (len == 0 || len > 512) continue;  // warp-uniform
        const Id* row = scratch + wg::ldg(indptr + u);
        const long long o = wg::ldg(oindptr + r);
        if (len == 1) {
            if (lane == 0) {
                oidx[o] = row[0];
                osrc[o] = (Id)r;
            }
        } else if (len <= 32) {
            tcp::sort_row<Id, 1>(row, len, oidx + o, osrc + o, (Id)r, lane);
        } else if (len <= 64) {
            tcp::sort_row<Id, 2>(row, len, oidx + o, osrc + o, (Id)r, lane);
        } else if (len <= 128) {
            tcp::sort_row<Id, 4>(row, len, oidx + o, osrc + o, (Id)r, lane);
        } else if (len <= 256) {
            tcp::sort_row<Id, 8>(row, len, oidx + o, osrc + o, (Id)r, lane);
        } else {
            tcp::sort_row<Id, 16>(row, len, oidx + o, osrc + o, (Id)r, lane);
        }
    }
}

// 5b. One block per listed rank row big[i] (513 .. CAP kept entries), bitonic sort in shared
//     memory over the next power of two.
template <typename Id, int CAP>
__global__ void tc_prep_sort_block(const int* __restrict__ big, long long nbig,
                                   const Id* __restrict__ order, const int* __restrict__ cnt,
                                   const long long* __restrict__ indptr,
                                   const Id* __restrict__ scratch,
                                   const long long* __restrict__ oindptr, Id* __restrict__ oidx,
                                   Id* __restrict__ osrc) {
    __shared__ Id s[CAP];
    for (long long b = blockIdx.x; b < nbig; b += gridDim.x) {
        const long long r = wg::ldg(big + b);
        const Id u = wg::ldg(order + r);
        const int len = wg::ldg(cnt + u);
        int size = 1;
        while (size < len) size <<= 1;
        const Id* row = scratch + wg::ldg(indptr + u);
        for (int i = threadIdx.x; i < size; i += blockDim.x) s[i] = i < len ? row[i] : tcp::max_id<Id>();
        __syncthreads();
        for (int k = 2; k <= size; k <<= 1) {
            for (int j = k >> 1; j > 0; j >>= 1) {
                for (int i = threadIdx.x; i < size; i += blockDim.x) {
                    const int ij = i ^ j;
                    if (ij > i) {
                        const Id a = s[i], c = s[ij];
                        if (((i & k) == 0) ? (a > c) : (a < c)) {
                            s[i] = c;
                            s[ij] = a;
                        }
                    }
                }
                __syncthreads();
            }
        }
        const long long o = wg::ldg(oindptr + r);
        for (int i = threadIdx.x; i < len; i += blockDim.x) {
            oidx[o + i] = s[i];
            osrc[o + i] = (Id)r;
        }
        __syncthreads();
    }
}

#ifdef WARPGRAPH_NVCC_CHECK
template __global__ void tc_prep_degree<int>(const long long*, const int*, long long, long long,
                                             int*, int*);
template __global__ void tc_prep_keep<int>(const long long*, const int*, const int*, const int*,
                                           long long, int*, int*);
template __global__ void tc_prep_sort_warp<int>(const int*, const int*, const long long*,
                                                const int*, const long long*, long long, int*,
                                                int*);
template __global__ void tc_prep_sort_block<int, 8192>(const int*, long long, const int*,
                                                       const int*, const long long*, const int*,
                                                       const long long*, int*, int*);
#endif
