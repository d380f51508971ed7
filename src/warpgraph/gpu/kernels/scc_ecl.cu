// warpgraph: strongly connected components by max-signature propagation, the whole
// decomposition in one persistent (cooperative) kernel. For high-diameter, low-degree graphs
// (meshes, roads, oriented grids) where the multi-step scheme pays thousands of closure levels
// per coloring round. The scheme follows ECL-SCC (Alabandi, Sands, Biros, Burtscher 2023):
//
//   every active vertex v gets a key k(v) (a per-round hash in the high bits, v in the low bits,
//   so keys are distinct and name their vertex); vin[v] := max key of a vertex that reaches v
//   and vout[v] := max key of a vertex that v reaches, both inside v's class (arcs between
//   different classes are ignored). Then vin[v] == vout[v] = k(x) means x reaches v and v
//   reaches x: v is in x's SCC (label x). The members of one SCC reach the same vertices, so
//   they share (vin, vout); the other vertices take a hash of the pair as their new class, and
//   arcs between classes are dropped. The largest key of every class is finished each round.
//   Classes merged by a hash collision are unions of SCCs too, so the rule stays exact.
//
// Round r (every phase ends with a grid barrier; the decisions are grid-uniform):
//   T  optional trim-1 pass in place (an active vertex with no in- or no out-neighbour in its
//      class is its own SCC), counting the vertices left; stop when none is left;
//   I  vin = vout = k(v), every active vertex queued for both directions;
//   P  levels: the forward queue pushes vin along out-arcs, the backward queue pushes vout
//      along in-arcs (atomicMax), arc-parallel inside a warp, both queues in the same pass. A
//      warp keeps the vertices it raises (up to 32) and expands them itself, for up to `chase`
//      extra rounds inside the level, so values travel chase + 1 arcs per barrier on thin
//      frontiers; the others go to the next level's queue (once: a stamp per vertex and
//      direction). Until both queues are empty;
//   C  classify: vin == vout finishes v, else part[v] = hash(vin, vout).
//
// Per-vertex state: part[v] (class, -1 once finished), label[v], vin/vout (u64), stamp_f/stamp_b
// (1 + the level whose queue holds v; level counts over all rounds, so stamps never repeat).
// ctl (u64 words, zero before the launch): CTL_BAR barrier ticket word, CTL_LF/CTL_LB three
// rotating queue lengths each, CTL_LEFT three rotating "left" counters, CTL_ROUNDS/CTL_LEVELS
// outputs (rounds run and levels summed), CTL_LEFT_END vertices still active at the end (0
// unless max_rounds was reached). Launch with blockDim = ECL_BLOCK and every block resident.
#include "common.cuh"
#include "scc_common.cuh"

#ifndef ECL_BLOCK
#define ECL_BLOCK 512
#endif

namespace wgecl {

using wgscc_common::has_nbr;

using u64 = unsigned long long;
constexpr int WARPS = ECL_BLOCK / 32;
constexpr int CTL_BAR = 0, CTL_LF = 1, CTL_LB = 4, CTL_LEFT = 7, CTL_ROUNDS = 10,
              CTL_LEVELS = 11, CTL_LEFT_END = 12;

template <typename V>
struct Bits;  // low bits of a key: the vertex id
template <>
struct Bits<int> {
    static constexpr int SHIFT = 32;
};
template <>
struct Bits<long long> {
    static constexpr int SHIFT = 40;
};

__device__ __forceinline__ u64 mix(u64 x) {  // a 64-bit finalizer (splitmix64's)
    x ^= x >> 30;
    x *= 0xbf58476d1ce4e5b9ull;
    x ^= x >> 27;
    x *= 0x94d049bb133111ebull;
    x ^= x >> 31;
    return x;
}

template <typename V>
__device__ __forceinline__ u64 key_of(long long v, u64 round) {
    constexpr int S = Bits<V>::SHIFT;
    const u64 h = mix((u64)v * 0x9e3779b97f4a7c15ull + (round + 1ull) * 0xd1b54a32d192ed03ull);
    return ((h >> S) << S) | (u64)v;
}

template <typename V>
__device__ __forceinline__ V vertex_of(u64 key) {
    constexpr int S = Bits<V>::SHIFT;
    return (V)(key & ((1ull << S) - 1ull));
}

template <typename V>
__device__ __forceinline__ V class_of(u64 a, u64 b) {  // >= 0
    const u64 h = mix(a ^ mix(b + 0x632be59bd9b4e019ull));
    return (V)(h >> (65 - 8 * (int)sizeof(V)));
}

__device__ __forceinline__ u64 fresh(const u64* p) { return *(const volatile u64*)p; }

__device__ __forceinline__ u64 read_word(u64* p) { return *(volatile u64*)p; }

// Grid barrier on one ticket word that only grows (zero before the launch): barrier k takes the
// tickets [k G, (k + 1) G), G = gridDim.x, and the last arrival releases the others. Needs every
// block resident (cooperative launch) and the same barrier count in every block.
__device__ __forceinline__ void grid_barrier(u64* word) {
    __syncthreads();
    if (threadIdx.x == 0) {
        const u64 g = (u64)gridDim.x;
        __threadfence();  // the block's writes (ordered by __syncthreads) before the arrival
        const u64 ticket = atomicAdd(word, 1ull);
        const u64 target = (ticket / g + 1ull) * g;
        if (ticket + 1ull != target) {
            while (*(const volatile u64*)word < target) __nanosleep(20);
        }
        __threadfence();
    }
    __syncthreads();
}

// Raise w to cv if it is in class r and lower. A lane that raised w keeps it in the warp's
// buffer while `keep` and room last (the warp expands it next, in this level); otherwise w goes
// to the next level's queue unless it is there already (stamp == tag: that entry reads w's
// value after the barrier, so it sees this raise). No fence is needed: a kept vertex is read
// by the thread that raised it, a queued one after a grid barrier. Warp-collective: every lane
// calls it; `cnt` (the buffer's fill) is warp-uniform.
template <typename V>
__device__ __forceinline__ void claim(bool valid, V w, V r, u64 cv, const V* part, u64* val,
                                      unsigned int* stamp, unsigned int tag, bool keep, V* buf,
                                      int& cnt, V* out, u64* out_len) {
    bool up = false;
    if (valid) {
        const V pw = part[w];
        const u64 vw = val[w];  // issued with part[w]: one load latency, not two
        up = pw == r && vw < cv && atomicMax(val + w, cv) < cv;
    }
    const unsigned m = __ballot_sync(wg::FULL_MASK, up);
    if (m == 0u) return;
    const int lane = wg::lane_id();
    const int rank = __popc(m & ((1u << lane) - 1u));
    const int room = keep ? 32 - cnt : 0;
    const bool local = up && rank < room;
    if (local) buf[cnt + rank] = w;
    const int total = __popc(m);
    cnt += total < room ? total : room;
    const bool push = up && !local && atomicExch(stamp + w, tag) != tag;
    if (__any_sync(wg::FULL_MASK, push)) {
        const u64 slot = wg::warp_reserve(out_len, push ? 1ull : 0ull);
        if (push) out[slot] = w;
    }
}

// Expand one warp's vertices (v = -1: none), arc-parallel: the warp's arcs are numbered by a
// prefix sum of the degrees and lane j takes arc j (then j + 32, ...), so a thin frontier of a
// low-degree graph costs one claim step per level, whatever the degrees; then up to `chase`
// more rounds on the vertices the warp kept.
template <typename V>
__device__ void expand_warp(const long long* __restrict__ ptr, const V* __restrict__ idx,
                            const V* part, u64* val, unsigned int* stamp, unsigned int tag, V v,
                            V* out, u64* out_len, int chase, V* buf) {
    const int lane = wg::lane_id();
    for (int round = 0;; ++round) {
        const bool keep = round < chase;
        int cnt = 0;
        long long b = 0, deg = 0;
        V r = 0;
        u64 cv = 0;
        if (v >= 0) {
            b = ptr[v];
            deg = ptr[(long long)v + 1] - b;
            r = part[v];
            cv = fresh(val + v);
        }
        const long long incl = wg::warp_inclusive_sum(deg);
        const long long total = __shfl_sync(wg::FULL_MASK, incl, 31);
        const long long off = b - (incl - deg);  // arc j of this lane's list is idx[off + j]
        for (long long base = 0; base < total; base += 32) {
            const long long j = base + lane;
            int owner = 0;  // the first lane whose inclusive sum exceeds j
            for (int step = 16; step > 0; step >>= 1) {
                const long long x = __shfl_sync(wg::FULL_MASK, incl, owner + step - 1);
                if (x <= j) owner += step;
            }
            owner = owner < 31 ? owner : 31;
            const long long oo = __shfl_sync(wg::FULL_MASK, off, owner);
            const V rr = __shfl_sync(wg::FULL_MASK, r, owner);
            const u64 cc = __shfl_sync(wg::FULL_MASK, cv, owner);
            const bool valid = j < total;
            const V w = valid ? wg::ldg(idx + oo + j) : (V)0;
            claim(valid, w, rr, cc, part, val, stamp, tag, keep, buf, cnt, out, out_len);
        }
        if (cnt == 0) break;  // warp-uniform
        __syncwarp();
        v = lane < cnt ? buf[lane] : (V)-1;
        __syncwarp();  // every lane has its vertex before the buffer is refilled
    }
}

// One level, both directions at once: warps take 32 entries of the forward queue, or of the
// backward queue (each queue rounded up to whole warps), so the two chains run side by side.
template <typename V>
__device__ void expand_level(const long long* __restrict__ fptr, const V* __restrict__ fidx,
                             const long long* __restrict__ bptr, const V* __restrict__ bidx,
                             const V* part, u64* vin, u64* vout, unsigned int* stamp_f,
                             unsigned int* stamp_b, unsigned int tag, const V* fin, long long lf,
                             const V* bin, long long lb, V* fout, u64* lf_out, V* bout,
                             u64* lb_out, int chase, V* buf) {
    const long long lf32 = (lf + 31) & ~31LL;
    const long long all = lf32 + ((lb + 31) & ~31LL);
    for (long long base = wg::warp_base(); base < all; base += wg::warp_stride()) {
        const long long i = base + wg::lane_id();
        if (base < lf32) {
            const V v = i < lf ? fin[i] : (V)-1;
            expand_warp(fptr, fidx, part, vin, stamp_f, tag, v, fout, lf_out, chase, buf);
        } else {
            const long long k = i - lf32;
            const V v = k < lb ? bin[k] : (V)-1;
            expand_warp(bptr, bidx, part, vout, stamp_b, tag, v, bout, lb_out, chase, buf);
        }
    }
}

}  // namespace wgecl

template <typename V>
__global__ void __launch_bounds__(ECL_BLOCK) scc_ecl(
    const long long* __restrict__ indptr, const V* __restrict__ indices,
    const long long* __restrict__ rindptr, const V* __restrict__ rindices, long long n, V* part,
    V* label, unsigned long long* vin, unsigned long long* vout, unsigned int* stamp_f,
    unsigned int* stamp_b, V* qf0, V* qf1, V* qb0, V* qb1, unsigned long long* ctl, int chase,
    int trim, long long max_rounds) {
    using namespace wgecl;
    __shared__ V s_buf[WARPS * 32];
    V* buf = s_buf + (threadIdx.x / 32) * 32;
    u64* bar = ctl + CTL_BAR;
    const bool leader = wg::global_thread_id() == 0;
    long long level = 0;  // levels so far, over all rounds (selects queue buffers and slots)
    long long r = 0;
    for (; r < max_rounds; ++r) {
        // T: trim pass (optional) and count of the vertices left
        u64 left = 0;
        for (long long base = wg::warp_base(); base < n; base += wg::warp_stride()) {
            const long long v = base + wg::lane_id();
            bool act = false;
            if (v < n) {
                const V c = part[v];
                act = c >= 0;
                if (act && trim &&
                    (!has_nbr(indptr, indices, part, v, c) || !has_nbr(rindptr, rindices, part, v, c))) {
                    label[v] = (V)v;
                    part[v] = (V)-1;
                    act = false;
                }
            }
            left += __popc(__ballot_sync(wg::FULL_MASK, act));
        }
        if (wg::lane_id() == 0 && left) atomicAdd(ctl + CTL_LEFT + r % 3, left);
        if (leader) ctl[CTL_LEFT + (r + 1) % 3] = 0ull;  // last read in round r - 2
        grid_barrier(bar);
        if (read_word(ctl + CTL_LEFT + r % 3) == 0ull) break;

        // I: keys, both queues full of the active vertices
        const int cur = (int)(level % 3);
        for (long long base = wg::warp_base(); base < n; base += wg::warp_stride()) {
            const long long v = base + wg::lane_id();
            const bool act = v < n && part[v] >= 0;
            if (act) {
                const u64 k = key_of<V>(v, (u64)r);
                vin[v] = k;
                vout[v] = k;
                stamp_f[v] = (unsigned int)(level + 1);  // queued for this level
                stamp_b[v] = (unsigned int)(level + 1);
            }
            const u64 sf = wg::warp_reserve(ctl + CTL_LF + cur, act ? 1ull : 0ull);
            const u64 sb = wg::warp_reserve(ctl + CTL_LB + cur, act ? 1ull : 0ull);
            if (act) {
                ((level & 1) ? qf1 : qf0)[sf] = (V)v;
                ((level & 1) ? qb1 : qb0)[sb] = (V)v;
            }
        }
        grid_barrier(bar);

        // P: levels until both queues are empty
        for (;;) {
            const int c0 = (int)(level % 3), c1 = (int)((level + 1) % 3), c2 = (int)((level + 2) % 3);
            const long long lf = (long long)read_word(ctl + CTL_LF + c0);
            const long long lb = (long long)read_word(ctl + CTL_LB + c0);
            if (lf == 0 && lb == 0) break;
            if (leader) {  // the lengths of level - 1, read by all before the last barrier
                ctl[CTL_LF + c2] = 0ull;
                ctl[CTL_LB + c2] = 0ull;
            }
            const bool odd = (level & 1) != 0;
            const unsigned int tag = (unsigned int)(level + 2);  // queued for the next level
            expand_level(indptr, indices, rindptr, rindices, part, vin, vout, stamp_f, stamp_b,
                         tag, odd ? qf1 : qf0, lf, odd ? qb1 : qb0, lb, odd ? qf0 : qf1,
                         ctl + CTL_LF + c1, odd ? qb0 : qb1, ctl + CTL_LB + c1, chase, buf);
            ++level;
            grid_barrier(bar);
        }

        // C: classify
        for (long long v = wg::global_thread_id(); v < n; v += wg::grid_threads()) {
            if (part[v] < 0) continue;
            const u64 a = vin[v], b = vout[v];
            if (a == b) {
                label[v] = vertex_of<V>(a);
                part[v] = (V)-1;
            } else {
                part[v] = class_of<V>(a, b);
            }
        }
        grid_barrier(bar);
    }
    if (leader) {
        ctl[CTL_ROUNDS] = (u64)r;
        ctl[CTL_LEVELS] = (u64)level;
        ctl[CTL_LEFT_END] = r < max_rounds ? 0ull : read_word(ctl + CTL_LEFT + (r - 1) % 3);
    }
}

#ifdef WARPGRAPH_NVCC_CHECK
#define SCC_ECL_INSTANTIATE(V)                                                                     \
    template __global__ void scc_ecl<V>(const long long*, const V*, const long long*, const V*,  \
                                        long long, V*, V*, unsigned long long*,                    \
                                        unsigned long long*, unsigned int*, unsigned int*, V*, V*, \
                                        V*, V*, unsigned long long*, int, int, long long);
SCC_ECL_INSTANTIATE(int)
SCC_ECL_INSTANTIATE(long long)
#endif
