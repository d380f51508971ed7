// warpgraph: triad census by Batagelj and Mrvar's dyad algorithm (seed 001), one thread per
// canonical dyad, one census per thread block in shared memory, 64-bit global accumulation.
//
// Input: the census adjacency (every vertex's distinct neighbours in either direction, rows
// sorted, a 2-bit dyad code per entry: bit 0 row -> neighbour, bit 1 neighbour -> row) and the
// canonical dyads u < v as (u, position of v in u's row). For each dyad the thread merges the
// rows of u and v: every w of the union S (w != u, v) is a connected triad, counted here when
// v < w or (u < w < v and w is not a neighbour of u); the n - |S| - 2 other vertices make
// dyadic triads. The dyad codes give the triad code pre + 4 c_u(w) + 16 c_v(w) directly, with
// no IsEdge search. The 003 count is left to the host (exact integers).
#include "common.cuh"

__constant__ unsigned char triad_table[64] = {
    0, 1, 1, 2, 1, 3, 5, 7,  1, 5, 4, 6,  2, 7,  6,  10, 1, 5, 3, 7,  4, 8,
    8, 12, 5, 9, 8, 13, 6, 13, 11, 14, 1, 4,  5,  6,  5, 8, 9, 13, 3, 8, 8,
    11, 7, 12, 13, 14, 2, 6, 7, 10, 6, 11, 13, 14, 7, 13, 12, 14, 10, 14, 14, 15};

template <typename Id>
__global__ void triad_bm(const long long* __restrict__ ptr, const Id* __restrict__ idx,
                         const unsigned char* __restrict__ code, const Id* __restrict__ dyad_u,
                         const long long* __restrict__ dyad_p, long long ndyads, long long n,
                         unsigned long long* census) {
    __shared__ unsigned long long block_census[16];
    if (threadIdx.x < 16) block_census[threadIdx.x] = 0;
    __syncthreads();
    for (long long t = wg::global_thread_id(); t < ndyads; t += wg::grid_threads()) {
        const Id u = dyad_u[t];
        const long long p = dyad_p[t];
        const Id v = idx[p];
        const int pre = code[p];
        long long a = ptr[u], ae = ptr[u + 1];
        long long b = ptr[v], be = ptr[v + 1];
        long long s = 0;
        while (a < ae || b < be) {
            Id w;
            int cu = 0, cv = 0;
            if (b >= be || (a < ae && idx[a] < idx[b])) {
                w = idx[a];
                cu = code[a];
                ++a;
            } else if (a >= ae || idx[b] < idx[a]) {
                w = idx[b];
                cv = code[b];
                ++b;
            } else {
                w = idx[a];
                cu = code[a];
                cv = code[b];
                ++a;
                ++b;
            }
            if (w == u || w == v) continue;
            ++s;
            if (v < w || (u < w && cu == 0)) {
                atomicAdd(block_census + triad_table[pre + 4 * cu + 16 * cv], 1ULL);
            }
        }
        atomicAdd(block_census + triad_table[pre], (unsigned long long)(n - s - 2));
    }
    __syncthreads();
    if (threadIdx.x < 16 && block_census[threadIdx.x] != 0) {
        atomicAdd(census + threadIdx.x, block_census[threadIdx.x]);
    }
}

#ifdef WARPGRAPH_NVCC_CHECK
template __global__ void triad_bm<int>(const long long*, const int*, const unsigned char*,
                                       const int*, const long long*, long long, long long,
                                       unsigned long long*);
template __global__ void triad_bm<long long>(const long long*, const long long*,
                                             const unsigned char*, const long long*,
                                             const long long*, long long, long long,
                                             unsigned long long*);
#endif
