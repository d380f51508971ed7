// warpgraph: the onion decomposition (Hebert-Dufresne, Grochow & Allard 2016) in one block.
//
// onion_peel<V>: the layers of an undirected graph's onion decomposition, peeled round by round
// as NetworkX's onion_layers peels them. A round removes every remaining vertex whose degree is
// at most the current core; the core rises to the smallest remaining degree when no vertex is
// that low; each removed vertex's remaining neighbours lose one degree. One block runs every
// round, its phases separated by __syncthreads: a lattice peels in ~sqrt(n) rounds of a few
// hundred vertices each, where a launch per round (~10 us) or a grid barrier (~3 us) would cost
// more than the round's work.
//
// In:  deg[v], v's degree without self-loops (counted down here); the rows' self-loops are
//      skipped, parallel arcs must have been merged.
// Out: layer[v] (1-based; vertices of degree 0 form layer 1) and rdeg[v], v's degree when its
//      round began (NetworkX orders a round's vertices by it, then by vertex).
// Scratch: qa, qb (frontiers), alive (the vertices not yet removed, compacted whenever the
//      frontier runs dry) and heavy (a round's long rows), n entries each.
// Launch with one block whose size is a multiple of 32.
#include "common.cuh"

// Rows longer than this are walked by a warp; shorter ones by one thread.
constexpr long long LONG_ROW = 32;

// Arc j of the removed vertex v: its other end u, if still there, loses one degree, and joins
// the next round's frontier when that degree just fell to the core.
template <typename V>
__device__ __forceinline__ void peel_arc(const V* __restrict__ indices, long long* deg,
                                         const long long* layer, long long* next,
                                         unsigned long long* count, long long v, long long j,
                                         long long core) {
    const long long u = (long long)indices[j];
    if (u != v && layer[u] == 0) {
        const long long before = (long long)atomicAdd((unsigned long long*)(deg + u), ~0ull);
        if (before == core + 1) next[atomicAdd(count, 1ull)] = u;
    }
}

template <typename V>
__global__ void onion_peel(const long long* __restrict__ indptr, const V* __restrict__ indices,
                           long long n, long long* deg, long long* layer, long long* rdeg,
                           long long* qa, long long* qb, long long* alive, long long* heavy) {
    __shared__ unsigned long long s_count, s_alive, s_isolated, s_heavy;
    __shared__ long long s_min[32];
    const long long t = threadIdx.x, T = blockDim.x;
    const int lane = wg::lane_id();
    const long long warp = t / wg::WARP_SIZE, warps = T / wg::WARP_SIZE;

    if (t == 0) {
        s_count = 0;
        s_alive = 0;
        s_isolated = 0;
        s_heavy = 0;
    }
    __syncthreads();
    for (long long v = t; v < n; v += T) {
        if (deg[v] == 0) {
            layer[v] = 1;
            rdeg[v] = 0;
            atomicAdd(&s_isolated, 1ull);
        } else {
            layer[v] = 0;
            alive[atomicAdd(&s_alive, 1ull)] = v;
        }
    }
    __syncthreads();
    long long removed = (long long)s_isolated;
    long long na = (long long)s_alive;
    long long current = removed > 0 ? 2 : 1;  // NetworkX starts the others at layer 2 then
    long long core = 1;
    long long nf = 0;
    while (removed < n) {
        if (nf == 0) {
            // The frontier ran dry: every remaining degree exceeds the core. Compact the
            // remaining vertices into qb (free now) and find their smallest degree.
            long long low = 0x7fffffffffffffffll;
            for (long long i = t; i < na; i += T) {
                const long long v = alive[i];
                if (layer[v] == 0) {
                    qb[atomicAdd(&s_count, 1ull)] = v;
                    low = deg[v] < low ? deg[v] : low;
                }
            }
            low = wg::warp_min(low);
            if (lane == 0) s_min[warp] = low;
            __syncthreads();
            low = s_min[0];
            for (long long w = 1; w < warps; ++w) low = s_min[w] < low ? s_min[w] : low;
            na = (long long)s_count;
            long long* spare = alive;
            alive = qb;
            qb = spare;
            core = low > core ? low : core;
            __syncthreads();
            if (t == 0) s_count = 0;
            __syncthreads();
            for (long long i = t; i < na; i += T) {
                const long long v = alive[i];
                if (deg[v] <= core) qa[atomicAdd(&s_count, 1ull)] = v;
            }
            __syncthreads();
            nf = (long long)s_count;
            __syncthreads();
            if (t == 0) s_count = 0;
        }
        for (long long i = t; i < nf; i += T) {
            const long long v = qa[i];
            layer[v] = current;
            rdeg[v] = deg[v];
        }
        __syncthreads();
        // A thread walks a short row itself (a lattice's frontier is hundreds of 4-arc rows:
        // one vertex per warp left the block latency-bound, 31 us a round on an H200); rows of
        // more than LONG_ROW arcs are listed and walked by a warp each after.
        for (long long i = t; i < nf; i += T) {
            const long long v = qa[i];
            const long long begin = indptr[v], end = indptr[v + 1];
            if (end - begin > LONG_ROW) {
                heavy[atomicAdd(&s_heavy, 1ull)] = v;
                continue;
            }
            for (long long j = begin; j < end; ++j)
                peel_arc(indices, deg, layer, qb, &s_count, v, j, core);
        }
        __syncthreads();
        const long long nh = (long long)s_heavy;
        for (long long i = warp; i < nh; i += warps) {
            const long long v = heavy[i];
            for (long long j = indptr[v] + lane; j < indptr[v + 1]; j += wg::WARP_SIZE)
                peel_arc(indices, deg, layer, qb, &s_count, v, j, core);
        }
        __syncthreads();
        removed += nf;
        nf = (long long)s_count;
        long long* spare = qa;
        qa = qb;
        qb = spare;
        ++current;
        __syncthreads();
        if (t == 0) {
            s_count = 0;
            s_heavy = 0;
        }
        __syncthreads();
    }
}

#ifdef WARPGRAPH_NVCC_CHECK
template __global__ void onion_peel<int>(const long long*, const int*, long long, long long*,
                                         long long*, long long*, long long*, long long*,
                                         long long*, long long*);
template __global__ void onion_peel<long long>(const long long*, const long long*, long long,
                                               long long*, long long*, long long*, long long*,
                                               long long*, long long*, long long*);
#endif
