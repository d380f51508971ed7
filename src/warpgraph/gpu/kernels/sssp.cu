// warpgraph SSSP kernels (see sssp_core.cuh for the state layouts, stamps and frontiers).
//
// sssp_persistent runs one single-source search in one cooperative launch. Every operation ends
// with a grid barrier; every thread then reads the same counters and takes the same decision:
//
//   REGEN   a near queue overflowed (duplicates without filtering): rebuild it from the stamps
//   EXPAND  relax the arcs of the near frontier (delta-stepping: light arcs only, and remember
//           the expanded vertices); improved targets below the threshold join the next near
//           frontier, the others the far pile
//   HEAVY   delta-stepping, bucket done: relax the heavy arcs of its vertices once
//   SPLIT   near frontier empty: raise the threshold (to the bucket of the far pile's minimum,
//           at least by delta) and move the far entries below it to the near frontier
//   DONE    nothing left
//
// H-BF is the same loop with an infinite threshold. Inputs written in one operation are read
// only after the barrier that ends it, from slots that rotate (3 near slots, 3 far slots), so
// no block can see a decision input change under it.
//
// The barrier (C_FUSED): threads 0-2 of each block add the block's arrival to the three words
// of the near slot that the operation wrote (small count, chunk count, flags) and each waits
// for the whole grid on its word (fr::fused_arrive_wait, acquire-release): the barrier and the
// read of the next decision's counters are one round trip, kept in shared memory. The slot of
// operation k + 1 is cleared in operation k and its previous barrier (operation k - 2) was left
// by every block before operation k began, so its arrival bits start at zero. Without C_FUSED:
// fr::grid_barrier, then every thread reads the slot. The far slot and the delta-stepping
// counters are read after the barrier (only when the near frontier is empty). Negative cycles: a relaxation below -B
// (B = max|w| n bounds every simple path) flags its vertex; with negative weights a frontier
// still non-empty after n expand operations flags its first vertex. Both vertices lie on, or
// lead through predecessors to, a negative cycle (the host walks it).
#include "common.cuh"
#include "sssp_core.cuh"

#ifndef WG_SSSP_MIN_BLOCKS
#define WG_SSSP_MIN_BLOCKS 4  // 64 registers: 1024 resident threads per SM
#endif

using namespace wg::sssp;
using wg::u64;

// OPT >= 1: the H-BF-only builds of the PACK layout (gpu.py uses them with the F_SPEC feature;
// sssp_core.cuh Run); OPT 3 asks for 3 resident blocks per SM (85 registers), the others 4 (64).
// OPT = 0 serves every method and layout.
template <typename V, typename W, int MODE, int OPT>
__global__ void __launch_bounds__(BLOCK, OPT == 3 ? 3 : WG_SSSP_MIN_BLOCKS) sssp_persistent(
    const long long* indptr, const V* indices, const W* weights, unsigned long long* word,
    unsigned int* stamp, unsigned int* rstamp, V* q0, V* q1, unsigned long long* c0,
    unsigned long long* c1, V* far0, V* far1, V* rq, unsigned long long* rc,
    unsigned long long* ctl, unsigned long long* bar, const long long* cfg, unsigned int* done,
    unsigned int* cdone, long long source) {
    using T = typename Val<W>::T;
    using L = Layout<MODE>;
    static_assert(OPT == 0 || MODE == PACK, "the H-BF-only kernel is a PACK kernel");
    Run<V, W, MODE, OPT> r;
    r.indptr = indptr;
    r.indices = indices;
    r.weights = weights;
    r.st.word = word;
    r.st.stamp = stamp;
    r.rstamp = rstamp;
    r.q0 = q0;
    r.q1 = q1;
    r.c0 = c0;
    r.c1 = c1;
    r.far0 = far0;
    r.far1 = far1;
    r.rq = rq;
    r.rc = rc;
    r.ctl = ctl;
    r.cfg = cfg;
    r.done = done;
    r.cdone = cdone;
    r.features = (MODE == SPLIT || MODE == PACK) ? (int)cfg[C_FEATURES] : 0;
    r.qb_n = 0;
    r.n = cfg[C_N];
    r.qcap = cfg[C_QCAP];
    r.ccap = cfg[C_CCAP];
    r.fcap = cfg[C_FCAP];
    r.method = (int)cfg[C_METHOD];
    r.filter = cfg[C_FILTER] != 0;
    r.classify = cfg[C_CLASSIFY] != 0;
    r.hasneg = cfg[C_HASNEG] != 0;
    r.low = cfg[C_LOW];
    r.smalldeg = cfg[C_SMALLDEG] != 0;
    r.claim = false;
    const bool fused = cfg[C_FUSED] != 0;
    const long long claim_limit = cfg[C_CLAIM];
    // chained expansion: near-far, packed words, buffered near pushes, filtering (Run::chain)
    const int chain_rounds = (OPT == 0 && MODE == PACK && r.method == NEAR_FAR && r.filter &&
                              r.feat(F_QBUF)) ? (int)cfg[C_CHAIN] : 0;
    r.chaining = chain_rounds > 0;
    __shared__ u64 s_q[4];  // the current operation's near slot (counts, flags)
    r.delta = cfg_val<W>(cfg, C_DELTA);
    r.negb = cfg_val<W>(cfg, C_NEGB);
    const long long n = r.n;
    const long long maxops = cfg[C_MAXOPS];
    const u64 src_key = key_of<W>((T)0, r.low);

    // 1. init: distances, stamps, frontier 0 = {source}
    for (long long i = wg::global_thread_id(); i < n; i += wg::grid_threads()) {
        r.st.init(i, i == source ? src_key : L::INF);
        if (stamp != nullptr) stamp[i] = 0u;
        if (rstamp != nullptr) rstamp[i] = 0u;
        if (done != nullptr) done[i] = ~0u;
    }
    if (cdone != nullptr) {
        const long long nd = cfg[C_CDONE];
        for (long long i = wg::global_thread_id(); i < nd; i += wg::grid_threads()) cdone[i] = ~0u;
    }
    if (wg::global_thread_id() == 0) {
        const long long deg = r.degree((V)source);
        if (deg >= BIG_DEG) {
            const long long nch = num_chunks<MODE>(deg);
            for (long long j = 0; j < nch; ++j) c0[j] = ((u64)source << CHUNK_SHIFT) | (u64)j;
            ctl[Q_SLOTS + 1] = (u64)nch;
        } else {
            q0[0] = (V)source;
            ctl[Q_SLOTS + 0] = 1ull;
        }
    }
    wg::fr::grid_barrier(bar);
    if (threadIdx.x < 3) s_q[threadIdx.x] = *(volatile u64*)(ctl + Q_SLOTS + threadIdx.x);
    __syncthreads();

    // 2. operations
    const bool hbf = OPT >= 1 || r.method == HBF;
    const bool delta_stepping = OPT == 0 && r.method == DELTA;
    T thr = (T)0;
    u64 tk = L::INF;  // threshold key: near iff key < tk
    if (!hbf) {
        thr = r.delta;
        tk = key_of<W>(thr, r.low);
    }
    long long k = 0, g = 0, iters = 0, splits = 0, heavies = 0, regens = 0, farscans = 0;
    const bool force_regen = cfg[C_FORCE] != 0;
    bool heavy_done = false, last_expand = false;
    unsigned regen_want = 0u;  // near stamp of the last operation that was not a regeneration
    unsigned bucket = 1u;
    int status = ST_DONE;
    u64 negv = 0;
    for (;; ++k) {
        const volatile u64* qs = ctl + Q_SLOTS + (k % 3) * 4;
        u64 q0w, q1w, q2w;
        if (fused) {  // read by the barrier
            q0w = s_q[0];
            q1w = s_q[1];
            q2w = s_q[2];
        } else {
            q0w = qs[0];
            q1w = qs[1];
            q2w = qs[2];
        }
        const long long ns = (long long)(q0w & wg::fr::COUNT_MASK);
        const long long nc = (long long)(q1w & wg::fr::COUNT_MASK);
        const u64 flags = q2w & wg::fr::COUNT_MASK;
        if (flags) {  // the operation that built this frontier met a negative cycle (bit 0) or
            status = (flags & 1ull) ? ST_NEGCYCLE : ST_OVERFLOW;  // a key out of range (bit 1)
            negv = qs[3];
            break;
        }
        if (k >= maxops) {
            status = ST_LIMIT;
            break;
        }
        r.epoch = (unsigned)(k + 1);
        r.q_out = (k & 1) ? q0 : q1;
        r.c_out = (k & 1) ? c0 : c1;
        r.qslot_out = ctl + Q_SLOTS + ((k + 1) % 3) * 4;
        r.far_out = (g & 1) ? far1 : far0;
        r.fslot_out = ctl + F_SLOTS + (g % 3) * 4;
        if (wg::global_thread_id() == 0) {  // the slot written by operation k + 1
            u64* z = ctl + Q_SLOTS + ((k + 2) % 3) * 4;
            z[0] = z[1] = z[2] = z[3] = 0ull;
        }
        const bool regen = ns > r.qcap || nc > r.ccap || (force_regen && last_expand);
        last_expand = false;
        if (regen) {  // REGEN
            r.regen(regen_want);
            ++regens;
        } else if (ns + nc > 0) {  // EXPAND
            regen_want = 2u * r.epoch + 1u;
            if (r.neg() && iters >= n) {  // Bellman-Ford bound: a negative cycle
                status = ST_NEGCYCLE;
                negv = 1ull + (ns > 0 ? (u64)ldcg((k & 1) ? q1 : q0)
                                      : (ldcg((k & 1) ? c1 : c0) >> CHUNK_SHIFT));
                break;
            }
            // not in the H-BF-only kernel (its registers are full: the option costs spills)
            r.claim = OPT == 0 && claim_limit > 0 && ns <= claim_limit && nc <= CLAIM_CHUNKS;
            r.expand((k & 1) ? q1 : q0, ns, (k & 1) ? c1 : c0, nc,
                     delta_stepping ? ARCS_LIGHT : ARCS_ALL, tk, delta_stepping, bucket);
            if (chain_rounds > 0) r.chain(chain_rounds, tk);
            r.claim = false;
            ++iters;
            heavy_done = false;
            last_expand = true;
        } else {
            regen_want = 2u * r.epoch + 1u;
            const bool heavy_next = delta_stepping && !heavy_done;
            const long long rs = heavy_next ? (long long)*(volatile u64*)(ctl + R_SMALL) : 0;
            const long long rcn = heavy_next ? (long long)*(volatile u64*)(ctl + R_CHUNK) : 0;
            const volatile u64* fs = ctl + F_SLOTS + (g % 3) * 4;
            if (rs + rcn > 0) {  // HEAVY
                r.expand(rq, rs < n ? rs : n, rc, rcn < r.ccap ? rcn : r.ccap, ARCS_HEAVY, tk,
                         false, bucket);
                heavy_done = true;
                ++heavies;
            } else if (!hbf && fs[0] > 0) {  // SPLIT
                const long long fc = (long long)fs[0];
                const u64 fmin_key = ~fs[1];
                const bool scan = fc > r.fcap;
                // next threshold: the bucket above the far minimum, at least one delta higher
                T next = thr + r.delta;
                if (fmin_key != L::INF) {
                    const T fmin = val_of<W>(fmin_key, r.low);
                    T b;
                    if constexpr (Val<W>::integer) {
                        b = (fmin / r.delta + 1) * r.delta;
                    } else {
                        b = (T)((floor((double)fmin / (double)r.delta) + 1.0) * (double)r.delta);
                    }
                    next = vmax(next, b);
                }
                u64 tk_new = key_of<W>(next, r.low);
                if constexpr (Val<W>::integer && L::narrow) {  // beyond the narrow key range
                    if (next - r.low >= (T)L::INF) tk_new = L::INF;
                }
                if (fmin_key != L::INF && tk_new <= fmin_key) tk_new = fmin_key + 1;  // progress
                r.far_out = (g & 1) ? far0 : far1;
                r.fslot_out = ctl + F_SLOTS + ((g + 1) % 3) * 4;
                if (wg::global_thread_id() == 0) {
                    u64* z = ctl + F_SLOTS + ((g + 2) % 3) * 4;
                    z[0] = z[1] = 0ull;
                    ctl[R_SMALL] = 0ull;
                    ctl[R_CHUNK] = 0ull;
                }
                r.split((g & 1) ? far1 : far0, fc, scan, tk, tk_new);
                thr = next;
                tk = tk_new;
                ++g;
                ++splits;
                farscans += scan;
                heavy_done = false;
                ++bucket;
            } else {  // DONE
                break;
            }
        }
        r.flush_q();  // F_QBUF: this operation's buffered near entries, before the barrier
        if (fused) {
            __syncthreads();  // the block's writes, then its arrival (release)
            if (threadIdx.x < 3) s_q[threadIdx.x] = wg::fr::fused_arrive_wait(r.qslot_out + threadIdx.x);
            __syncthreads();
        } else {
            wg::fr::grid_barrier(bar);
        }
    }
    if (wg::global_thread_id() == 0) {
        u64* gl = ctl + G_BASE;
        gl[G_STATUS] = (u64)status;
        gl[G_NEGV] = negv;
        gl[G_OPS] = (u64)k;
        gl[G_ITERS] = (u64)iters;
        gl[G_SPLITS] = (u64)splits;
        gl[G_HEAVY] = (u64)heavies;
        gl[G_REGEN] = (u64)regens;
        gl[G_FARSCAN] = (u64)farscans;
    }
}

// Distances (and predecessors) of one search into row `row` of the outputs; the run's
// statistics into status[row * 8 ...]. O is int64 for integer weights, else the weight type.
template <typename W, int MODE, typename O>
__global__ void sssp_output(const unsigned long long* word, long long n, const long long* cfg,
                            O* dist, long long* pred, const unsigned long long* ctl,
                            unsigned long long* status, long long row) {
    State<MODE> st;
    st.word = const_cast<unsigned long long*>(word);
    st.stamp = nullptr;
    const long long low = cfg[C_LOW];
    O* drow = dist + row * n;
    long long* prow = pred != nullptr ? pred + row * n : nullptr;
    for (long long v = wg::global_thread_id(); v < n; v += wg::grid_threads()) {
        const u64 key = st.key(v);
        O d;
        if constexpr (Val<W>::integer) {
            d = key == Layout<MODE>::INF ? (O)0x7fffffffffffffffll : (O)val_of<W>(key, low);
        } else {
            d = key == Layout<MODE>::INF ? (O)__longlong_as_double(0x7ff0000000000000ll)
                                         : (O)val_of<W>(key, low);
        }
        drow[v] = d;
        if (prow != nullptr) prow[v] = key == Layout<MODE>::INF ? -1 : st.pred(v);
    }
    if (wg::global_thread_id() < 8) {
        status[row * 8 + wg::global_thread_id()] = ctl[G_BASE + wg::global_thread_id()];
    }
}

// Weight statistics in one pass: out[0] = min, out[1] = max (order-preserving keys: signed
// integers with the sign bit flipped, floats through d2key), out[2] = sum (double bits).
// out must hold {~0, 0, 0} before the launch.
template <typename W>
__global__ void sssp_weight_stats(const W* __restrict__ w, long long m,
                                  unsigned long long* out) {
    u64 lo = ~0ull, hi = 0ull;
    double sum = 0.0;
    for (long long j = wg::global_thread_id(); j < m; j += wg::grid_threads()) {
        const W x = wg::ldg(w + j);
        u64 key;
        if constexpr (Val<W>::integer) {
            key = (u64)(long long)x ^ 0x8000000000000000ull;
        } else {
            key = d2key((double)x);
        }
        lo = key < lo ? key : lo;
        hi = key > hi ? key : hi;
        sum += (double)x;
    }
    lo = wg::warp_min(lo);
    hi = wg::warp_max(hi);
    sum = wg::warp_sum(sum);
    if (wg::lane_id() == 0) {
        atomicMin(out, lo);
        atomicMax(out + 1, hi);
        atomicAdd(reinterpret_cast<double*>(out + 2), sum);
    }
}

// In-degrees (arcs into each vertex), for the in-degree-1 class.
template <typename V>
__global__ void sssp_indegree(const V* indices, long long m, int* indeg) {
    for (long long j = wg::global_thread_id(); j < m; j += wg::grid_threads()) {
        atomicAdd(indeg + indices[j], 1);
    }
}

// Edge classes into the two top bits of each destination id (H-BF's marking phase):
//   skip    self-loop of weight >= 0
//   sink    target never expanded: out-degree 0 (directed), or degree 1 and no negative weight
//           (undirected: its only arc leads back)
//   direct  in-degree-1 target of a directed graph (indeg != nullptr)
// Each thread takes ITEMS consecutive arcs: one binary search for the first row, then walks.
template <typename V, typename W>
__global__ void sssp_classify(const long long* indptr, const V* indices, const W* weights,
                              const int* indeg, long long n, int directed, int hasneg, V* out) {
    constexpr int ITEMS = 8;
    constexpr int SHIFT = (int)sizeof(V) * 8 - 2;
    const long long m = indptr[n];
    for (long long j0 = wg::global_thread_id() * ITEMS; j0 < m; j0 += wg::grid_threads() * ITEMS) {
        long long u = wg::fr::upper_bound(indptr, n + 1, j0) - 1;
        const long long j1 = j0 + ITEMS < m ? j0 + ITEMS : m;
        for (long long j = j0; j < j1; ++j) {
            while (indptr[u + 1] <= j) ++u;
            const V v = indices[j];
            const W w = weights[j];
            const long long dv = indptr[v + 1] - indptr[v];
            int cls = CLS_NORMAL;
            if ((long long)v == u && !(w < (W)0)) {
                cls = CLS_SKIP;
            } else if (directed ? dv == 0 : (dv == 1 && !hasneg)) {
                cls = CLS_SINK;
            } else if (indeg != nullptr && indeg[v] == 1) {
                cls = CLS_DIRECT;
            }
            out[j] = (V)(((unsigned long long)cls << SHIFT) | (unsigned long long)v);
        }
    }
}

#ifdef WARPGRAPH_NVCC_CHECK
#define WG_SSSP_RUN(V, W, MODE, OPT)                                                             \
    template __global__ void sssp_persistent<V, W, MODE, OPT>(                                        \
        const long long*, const V*, const W*, unsigned long long*, unsigned int*, unsigned int*, \
        V*, V*, unsigned long long*, unsigned long long*, V*, V*, V*, unsigned long long*,        \
        unsigned long long*, unsigned long long*, const long long*, unsigned int*,           \
        unsigned int*, long long);
#define WG_SSSP_OUT(W, MODE, O)                                                               \
    template __global__ void sssp_output<W, MODE, O>(const unsigned long long*, long long,    \
                                                     const long long*, O*, long long*,        \
                                                     const unsigned long long*,               \
                                                     unsigned long long*, long long);
WG_SSSP_RUN(int, int, 0, 0)
WG_SSSP_RUN(int, int, 1, 0)
WG_SSSP_RUN(int, float, 0, 0)
WG_SSSP_RUN(int, float, 1, 0)
WG_SSSP_RUN(int, long long, 2, 0)
WG_SSSP_RUN(int, long long, 3, 0)
WG_SSSP_RUN(int, double, 2, 0)
WG_SSSP_RUN(int, double, 3, 0)
WG_SSSP_RUN(int, int, 4, 0)
WG_SSSP_RUN(int, float, 4, 0)
WG_SSSP_RUN(int, int, 0, 1)
WG_SSSP_RUN(int, float, 0, 1)
WG_SSSP_RUN(int, int, 0, 2)
WG_SSSP_RUN(int, float, 0, 2)
WG_SSSP_RUN(int, int, 0, 3)
WG_SSSP_RUN(int, float, 0, 3)
WG_SSSP_RUN(long long, int, 1, 0)
WG_SSSP_RUN(long long, double, 3, 0)
WG_SSSP_OUT(int, 0, long long)
WG_SSSP_OUT(int, 1, long long)
WG_SSSP_OUT(float, 0, float)
WG_SSSP_OUT(float, 1, float)
WG_SSSP_OUT(long long, 2, long long)
WG_SSSP_OUT(long long, 3, long long)
WG_SSSP_OUT(double, 2, double)
WG_SSSP_OUT(double, 3, double)
WG_SSSP_OUT(int, 4, long long)
WG_SSSP_OUT(float, 4, float)
template __global__ void sssp_indegree<int>(const int*, long long, int*);
template __global__ void sssp_weight_stats<int>(const int*, long long, unsigned long long*);
template __global__ void sssp_weight_stats<long long>(const long long*, long long,
                                                      unsigned long long*);
template __global__ void sssp_weight_stats<float>(const float*, long long, unsigned long long*);
template __global__ void sssp_weight_stats<double>(const double*, long long, unsigned long long*);
template __global__ void sssp_indegree<long long>(const long long*, long long, int*);
template __global__ void sssp_classify<int, int>(const long long*, const int*, const int*,
                                                 const int*, long long, int, int, int*);
template __global__ void sssp_classify<int, double>(const long long*, const int*, const double*,
                                                    const int*, long long, int, int, int*);
#endif
