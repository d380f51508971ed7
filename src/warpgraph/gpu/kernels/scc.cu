// warpgraph: strongly connected components, the multi-step scheme of Busato's thesis (ch. 9).
//
// State per vertex (V = int or long long): part[v] is the id of the subgraph ("range") of an
// active vertex and -1 once its SCC is known; label[v] is then the SCC id. Arcs between
// different subgraphs are ignored (every subgraph is a union of SCCs). Marks are unsigned ints
// (compare-and-swap needs 32 bits): 0 unseen; quadratic steps use 1 and 2 for the frontier of
// this and the next step and 3 once expanded; queue-based steps use 1.
//
//   scc_trim1            one trim-1 pass, thread per vertex, in place (any order is correct)
//   scc_trim2_decide/apply  a trim-2 pass: decisions into label first, removals second
//   scc_pivot_best/pick  per subgraph: largest score, then smallest id with that score
//   scc_mark_pivots/roots  sources of a closure: marked and queued
//   scc_reach_q          quadratic step (Q): thread per vertex, expand those marked `cur`
//   scc_reach_vw<VW>     quadratic step with virtual warps (Q_VW): VW lanes per vertex
//   scc_reach_push       linear step (L): expand a queue whose length is read on the device, so
//                        that several steps are launched without a host round trip; warp-wide
//                        expansion of lists of 32+ arcs; claims by atomicCAS
//   scc_reach_pull       bottom-up sweep of the hybrid traversal: an unseen vertex looks for a
//                        marked predecessor, stops at the first one
//   scc_fb_newid/update  FB: F and B give 4 classes; F∩B is the pivot's SCC, the other three
//                        become subgraphs named after their largest member
//   scc_color_*          coloring: max-id propagation (quadratic with step stamps, or queue with
//                        an in-queue flag), roots, update
//   scc_transpose        in-arc CSR scatter (row cursors by atomicAdd)
#include "common.cuh"
#include "scc_common.cuh"

namespace wgscc {

using wgscc_common::has_nbr;

constexpr unsigned DONE = 3u;

template <typename V>
__device__ __forceinline__ V load_fresh(const V* p) {  // past L1: other SMs update these words
    return *(const volatile V*)p;
}

__device__ __forceinline__ int atomic_max(int* p, int v) { return atomicMax(p, v); }
__device__ __forceinline__ long long atomic_max(long long* p, long long v) {
    return atomicMax(p, v);
}
__device__ __forceinline__ int atomic_min(int* p, int v) { return atomicMin(p, v); }
__device__ __forceinline__ long long atomic_min(long long* p, long long v) {
    return atomicMin(p, v);
}

// The single active neighbour != v of v in subgraph r; -1 when there are none or several.
template <typename V>
__device__ __forceinline__ long long only_nbr(const long long* ptr, const V* idx, const V* part,
                                              long long v, V r) {
    long long only = -1;
    const long long e = ptr[v + 1];
    for (long long p = ptr[v]; p < e; ++p) {
        const long long w = (long long)wg::ldg(idx + p);
        if (w != v && part[w] == r && w != only) {
            if (only >= 0) return -1;
            only = w;
        }
    }
    return only;
}

__device__ __forceinline__ unsigned long long score(const long long* indptr,
                                                    const long long* rindptr, long long v,
                                                    int rule) {
    if (rule == 2) return 0ull;  // min_id
    long long dout = indptr[v + 1] - indptr[v];
    if (rule == 1) return (unsigned long long)dout;  // max_out_degree
    long long din = rindptr[v + 1] - rindptr[v];
    const long long cap = 0x7fffffffLL;
    dout = dout < cap ? dout : cap;
    din = din < cap ? din : cap;
    return (unsigned long long)dout * (unsigned long long)din;  // max_degree_product
}

// Hub deferral: a frontier vertex with at least `hub` arcs is not expanded by its own thread,
// group or warp (one hub of 10^5 arcs would keep a whole step waiting) but listed, and
// scc_reach_hubs expands it right after the step: one block per listed vertex, or the whole
// grid for "giants" (at least 64 * hub arcs). hubs[0, cnt[0]) holds hubs, hubs[n - 1 - i] for
// i < cnt[1] giants. hub == 0 turns deferral off.
template <typename V>
__device__ __forceinline__ bool defer_hub(long long deg, long long hub, V v, long long n, V* hubs,
                                          unsigned long long* cnt) {
    if (hub <= 0 || deg < hub) return false;
    if (deg >= 64 * hub) {
        hubs[n - 1 - (long long)atomicAdd(cnt + 1, 1ull)] = v;
    } else {
        hubs[atomicAdd(cnt, 1ull)] = v;
    }
    return true;
}

}  // namespace wgscc

// ---- trimming ---------------------------------------------------------------------------------

template <typename V>
__global__ void scc_trim1(const long long* __restrict__ indptr, const V* __restrict__ indices,
                          const long long* __restrict__ rindptr, const V* __restrict__ rindices,
                          long long n, V* part, V* label, unsigned int* flag) {
    bool any = false;
    for (long long v = wg::global_thread_id(); v < n; v += wg::grid_threads()) {
        const V r = part[v];
        if (r < 0) continue;
        if (!wgscc::has_nbr(indptr, indices, part, v, r) ||
            !wgscc::has_nbr(rindptr, rindices, part, v, r)) {
            label[v] = (V)v;
            part[v] = (V)-1;
            any = true;
        }
    }
    if (any) *flag = 1u;
}

template <typename V>
__global__ void scc_trim2_decide(const long long* __restrict__ indptr,
                                 const V* __restrict__ indices,
                                 const long long* __restrict__ rindptr,
                                 const V* __restrict__ rindices, long long n,
                                 const V* __restrict__ part, V* label) {
    for (long long v = wg::global_thread_id(); v < n; v += wg::grid_threads()) {
        const V r = part[v];
        if (r < 0) continue;
        long long w = wgscc::only_nbr(indptr, indices, part, v, r);
        if (w < 0 || wgscc::only_nbr(indptr, indices, part, w, r) != v) {
            w = wgscc::only_nbr(rindptr, rindices, part, v, r);
            if (w >= 0 && wgscc::only_nbr(rindptr, rindices, part, w, r) != v) w = -1;
        }
        if (w >= 0) label[v] = (V)(w < v ? w : v);
    }
}

template <typename V>
__global__ void scc_trim2_apply(long long n, V* part, const V* __restrict__ label) {
    for (long long v = wg::global_thread_id(); v < n; v += wg::grid_threads()) {
        if (part[v] >= 0 && label[v] >= 0) part[v] = (V)-1;
    }
}

// ---- sources ----------------------------------------------------------------------------------

template <typename V>
__global__ void scc_pivot_best(const long long* __restrict__ indptr,
                               const long long* __restrict__ rindptr, long long n,
                               const V* __restrict__ part, int rule,
                               unsigned long long* best) {
    for (long long v = wg::global_thread_id(); v < n; v += wg::grid_threads()) {
        const V r = part[v];
        if (r < 0) continue;
        const unsigned long long s = wgscc::score(indptr, rindptr, v, rule);
        if (s > best[r]) atomicMax(best + r, s);
    }
}

template <typename V>
__global__ void scc_pivot_pick(const long long* __restrict__ indptr,
                               const long long* __restrict__ rindptr, long long n,
                               const V* __restrict__ part, int rule,
                               const unsigned long long* __restrict__ best, V* pivot) {
    for (long long v = wg::global_thread_id(); v < n; v += wg::grid_threads()) {
        const V r = part[v];
        if (r < 0) continue;
        if (wgscc::score(indptr, rindptr, v, rule) == best[r]) wgscc::atomic_min(pivot + r, (V)v);
    }
}

// Pivots of the subgraphs: marked 1 in mark_a and mark_b, and queued.
template <typename V>
__global__ void scc_mark_pivots(long long n, const V* __restrict__ part,
                                const V* __restrict__ pivot, unsigned int* mark_a,
                                unsigned int* mark_b, V* queue, unsigned long long* qlen) {
    for (long long base = wg::warp_base(); base < n; base += wg::warp_stride()) {
        const long long v = base + wg::lane_id();
        bool take = false;
        if (v < n) {
            const V r = part[v];
            take = r >= 0 && (long long)pivot[r] == v;
        }
        if (take) {
            mark_a[v] = 1u;
            mark_b[v] = 1u;
        }
        const unsigned long long slot = wg::warp_reserve(qlen, take ? 1ull : 0ull);
        if (take) queue[slot] = (V)v;
    }
}

// Roots of the colours (color[v] == v; removed vertices have colour -1): marked 1 and queued.
template <typename V>
__global__ void scc_mark_roots(long long n, const V* __restrict__ color, unsigned int* mark,
                               V* queue, unsigned long long* qlen) {
    for (long long base = wg::warp_base(); base < n; base += wg::warp_stride()) {
        const long long v = base + wg::lane_id();
        const bool take = v < n && (long long)color[v] == v;
        if (take) mark[v] = 1u;
        const unsigned long long slot = wg::warp_reserve(qlen, take ? 1ull : 0ull);
        if (take) queue[slot] = (V)v;
    }
}

// ---- reachability inside groups ---------------------------------------------------------------

template <typename V>
__global__ void scc_reach_q(const long long* __restrict__ ptr, const V* __restrict__ idx,
                            long long n, const V* __restrict__ group, unsigned int* mark,
                            unsigned int cur, unsigned int nxt, unsigned int* flag, long long hub,
                            V* hubs, unsigned long long* hub_cnt) {
    bool any = false;
    for (long long v = wg::global_thread_id(); v < n; v += wg::grid_threads()) {
        if (mark[v] != cur) continue;
        mark[v] = wgscc::DONE;
        const V g = group[v];
        const long long e = ptr[v + 1];
        if (wgscc::defer_hub(e - ptr[v], hub, (V)v, n, hubs, hub_cnt)) continue;
        for (long long p = ptr[v]; p < e; ++p) {
            const V w = wg::ldg(idx + p);
            if (mark[w] == 0u && group[w] == g) {
                mark[w] = nxt;
                any = true;
            }
        }
    }
    if (any) *flag = 1u;
}

template <typename V, int VW>
__global__ void scc_reach_vw(const long long* __restrict__ ptr, const V* __restrict__ idx,
                             long long n, const V* __restrict__ group, unsigned int* mark,
                             unsigned int cur, unsigned int nxt, unsigned int* flag, long long hub,
                             V* hubs, unsigned long long* hub_cnt) {
    static_assert(VW >= 1 && VW <= 32 && (VW & (VW - 1)) == 0, "VW: a power of two <= 32");
    const int sub = wg::lane_id() & (VW - 1);
    const long long total = n * VW;
    bool any = false;
    for (long long base = wg::warp_base(); base < total; base += wg::warp_stride()) {
        const long long t = base + wg::lane_id();
        const long long v = t / VW;
        const bool act = t < total && mark[v] == cur;
        __syncwarp();  // every lane of the group has read mark[v] before it becomes DONE
        if (act) {
            const V g = group[v];
            const long long e = ptr[v + 1];
            const long long deg = e - ptr[v];
            if (sub == 0) {
                mark[v] = wgscc::DONE;
                wgscc::defer_hub(deg, hub, (V)v, n, hubs, hub_cnt);
            }
            const long long stop = hub > 0 && deg >= hub ? ptr[v] : e;  // deferred: no arcs here
            for (long long p = ptr[v] + sub; p < stop; p += VW) {
                const V w = wg::ldg(idx + p);
                if (mark[w] == 0u && group[w] == g) {
                    mark[w] = nxt;
                    any = true;
                }
            }
        }
    }
    if (any) *flag = 1u;
}

// Claim w (unseen, same group) for the next queue; warp-collective (all lanes call it).
template <typename V>
__device__ __forceinline__ void push_claim(bool valid, V w, V g, const long long* ptr,
                                           const V* group, unsigned int* mark, V* out,
                                           unsigned long long* out_len,
                                           unsigned long long& sc) {
    bool push = false;
    if (valid && mark[w] == 0u && group[w] == g) push = atomicCAS(mark + w, 0u, 1u) == 0u;
    const unsigned long long slot = wg::warp_reserve(out_len, push ? 1ull : 0ull);
    if (push) {
        out[slot] = w;
        sc += (unsigned long long)(ptr[(long long)w + 1] - ptr[w]);
    }
}

template <typename V>
__global__ void scc_reach_push(const long long* __restrict__ ptr, const V* __restrict__ idx,
                               long long n, const V* __restrict__ group, unsigned int* mark,
                               const V* __restrict__ in, const unsigned long long* in_len, V* out,
                               unsigned long long* out_len, unsigned long long* scout,
                               long long hub, V* hubs, unsigned long long* hub_cnt) {
    const long long len = (long long)*in_len;
    const int lane = wg::lane_id();
    unsigned long long sc = 0;
    for (long long base = wg::warp_base(); base < len; base += wg::warp_stride()) {
        const long long i = base + lane;
        long long b = 0, e = 0;
        V g = 0;
        if (i < len) {
            const V v = in[i];
            b = ptr[v];
            e = ptr[(long long)v + 1];
            g = group[v];
            if (wgscc::defer_hub(e - b, hub, v, n, hubs, hub_cnt)) e = b;
        }
        // lists of 32+ arcs: the whole warp, one list at a time
        unsigned big = __ballot_sync(wg::FULL_MASK, e - b >= wg::WARP_SIZE);
        while (big) {
            const int owner = __ffs(big) - 1;
            big &= big - 1;
            const long long bb = __shfl_sync(wg::FULL_MASK, b, owner);
            const long long ee = __shfl_sync(wg::FULL_MASK, e, owner);
            const V gg = __shfl_sync(wg::FULL_MASK, g, owner);
            for (long long q = bb; q < ee; q += wg::WARP_SIZE) {
                const long long p = q + lane;
                const V w = p < ee ? wg::ldg(idx + p) : (V)0;
                push_claim(p < ee, w, gg, ptr, group, mark, out, out_len, sc);
            }
        }
        // short lists: every lane its own, in lock step
        const long long mine = e - b < wg::WARP_SIZE ? e - b : 0;
        const long long most = wg::warp_max(mine);
        for (long long k = 0; k < most; ++k) {
            const V w = k < mine ? wg::ldg(idx + b + k) : (V)0;
            push_claim(k < mine, w, g, ptr, group, mark, out, out_len, sc);
        }
    }
    sc = wg::warp_sum(sc);
    if (lane == 0 && sc != 0) atomicAdd(scout, sc);
}

// Expand the vertices deferred by the last step: hubs one block each, giants the whole grid.
// MODE 0: quadratic marking (unseen -> nxt, `flag`); MODE 1: queue (claim by CAS, append to
// out, arcs of the claimed to `scout`); MODE 2: the transpose scatter of deferred rows
// (`out` = rindices, `out_len` = row cursors; group, mark, flag, scout unused).
template <typename V, int MODE>
__global__ void scc_reach_hubs(const long long* __restrict__ ptr, const V* __restrict__ idx,
                               long long n, const V* __restrict__ group, unsigned int* mark,
                               const V* __restrict__ hubs, const unsigned long long* hub_cnt,
                               unsigned int nxt, unsigned int* flag, V* out,
                               unsigned long long* out_len, unsigned long long* scout) {
    const long long nh = (long long)hub_cnt[0];
    const long long ng = (long long)hub_cnt[1];
    const int lane = wg::lane_id();
    const long long warp_in_block = threadIdx.x / wg::WARP_SIZE;
    bool any = false;
    unsigned long long sc = 0;
    for (long long k = 0; k < ng + (nh + gridDim.x - 1) / gridDim.x; ++k) {  // grid-uniform
        long long v, first, step;
        if (k < ng) {  // giant k: every warp of the grid
            v = (long long)hubs[n - 1 - k];
            first = (long long)blockIdx.x * blockDim.x + warp_in_block * wg::WARP_SIZE;
            step = wg::grid_threads();
        } else {  // hub: one per block
            const long long h = (k - ng) * gridDim.x + blockIdx.x;
            if (h >= nh) continue;  // block-uniform
            v = (long long)hubs[h];
            first = warp_in_block * wg::WARP_SIZE;
            step = blockDim.x;
        }
        const V g = MODE == 2 ? (V)0 : group[v];
        const long long b = ptr[v], e = ptr[v + 1];
        for (long long base = b + first; base < e; base += step) {  // warp-uniform
            const long long p = base + lane;
            const bool valid = p < e;
            const V w = valid ? wg::ldg(idx + p) : (V)0;
            if (MODE == 2) {  // transpose scatter: out = rindices, out_len = row cursors
                if (valid) out[(long long)atomicAdd(out_len + w, 1ull)] = (V)v;
            } else if (MODE == 0) {
                if (valid && mark[w] == 0u && group[w] == g) {
                    mark[w] = nxt;
                    any = true;
                }
            } else {
                push_claim(valid, w, g, ptr, group, mark, out, out_len, sc);
            }
        }
    }
    if (MODE == 0) {
        if (any) *flag = 1u;
    } else if (MODE == 1) {
        sc = wg::warp_sum(sc);
        if (lane == 0 && sc != 0) atomicAdd(scout, sc);
    }
}

template <typename V>
__global__ void scc_reach_pull(const long long* __restrict__ rptr, const V* __restrict__ ridx,
                               long long n, const V* __restrict__ group, unsigned int* mark,
                               V* out, unsigned long long* out_len) {
    for (long long base = wg::warp_base(); base < n; base += wg::warp_stride()) {
        const long long v = base + wg::lane_id();
        bool push = false;
        if (v < n && mark[v] == 0u) {
            const V g = group[v];
            if (g >= 0) {
                const long long e = rptr[v + 1];
                for (long long p = rptr[v]; p < e; ++p) {
                    const V u = wg::ldg(ridx + p);
                    if (mark[u] != 0u && group[u] == g) {
                        mark[v] = 1u;
                        push = true;
                        break;
                    }
                }
            }
        }
        const unsigned long long slot = wg::warp_reserve(out_len, push ? 1ull : 0ull);
        if (push) out[slot] = (V)v;
    }
}

// ---- forward-backward update ------------------------------------------------------------------

template <typename V>
__global__ void scc_fb_newid(long long n, const V* __restrict__ part,
                             const unsigned int* __restrict__ fmark,
                             const unsigned int* __restrict__ bmark, V* newid) {
    for (long long v = wg::global_thread_id(); v < n; v += wg::grid_threads()) {
        const V r = part[v];
        if (r < 0) continue;
        const int code = (fmark[v] != 0u) + 2 * (bmark[v] != 0u);
        if (code == 3) continue;
        V* slot = newid + (long long)code * n + r;
        if ((V)v > *slot) wgscc::atomic_max(slot, (V)v);  // read first: most threads skip the atomic
    }
}

template <typename V>
__global__ void scc_fb_update(long long n, V* part, V* label, unsigned int* fmark,
                              unsigned int* bmark, const V* __restrict__ pivot,
                              const V* __restrict__ newid, unsigned long long* left) {
    unsigned long long k = 0;
    for (long long v = wg::global_thread_id(); v < n; v += wg::grid_threads()) {
        const V r = part[v];
        if (r < 0) continue;
        const int code = (fmark[v] != 0u) + 2 * (bmark[v] != 0u);
        fmark[v] = 0u;
        bmark[v] = 0u;
        if (code == 3) {
            label[v] = pivot[r];
            part[v] = (V)-1;
        } else {
            part[v] = newid[(long long)code * n + r];
            ++k;
        }
    }
    if (k) atomicAdd(left, k);
}

// ---- coloring ---------------------------------------------------------------------------------

// color = own id (active) or -1; stamp 0 / -1; with a queue: every active vertex queued (inq 1).
template <typename V>
__global__ void scc_color_init(long long n, const V* __restrict__ part, V* color, int* stamp,
                               unsigned int* inq, V* queue, unsigned long long* qlen) {
    for (long long base = wg::warp_base(); base < n; base += wg::warp_stride()) {
        const long long v = base + wg::lane_id();
        const bool act = v < n && part[v] >= 0;
        if (v < n) {
            color[v] = act ? (V)v : (V)-1;
            stamp[v] = act ? 0 : -1;
            if (queue != nullptr) inq[v] = act ? 1u : 0u;
        }
        if (queue != nullptr) {
            const unsigned long long slot = wg::warp_reserve(qlen, act ? 1ull : 0ull);
            if (act) queue[slot] = (V)v;
        }
    }
}

// Quadratic max propagation, step `step`: vertices raised at step-1 or later push their colour.
template <typename V>
__global__ void scc_color_q(const long long* __restrict__ ptr, const V* __restrict__ idx,
                            long long n, const V* __restrict__ part, V* color, int* stamp,
                            int step, unsigned int* flag) {
    bool any = false;
    for (long long v = wg::global_thread_id(); v < n; v += wg::grid_threads()) {
        if (stamp[v] < step - 1) continue;
        const V r = part[v];
        const V cv = wgscc::load_fresh(color + v);
        const long long e = ptr[v + 1];
        for (long long p = ptr[v]; p < e; ++p) {
            const V w = wg::ldg(idx + p);
            if (part[w] == r && color[w] < cv && wgscc::atomic_max(color + w, cv) < cv) {
                stamp[w] = step;
                any = true;
            }
        }
    }
    if (any) *flag = 1u;
}

// Queue-based max propagation step. A vertex clears its in-queue flag before it reads its colour
// (with fences on both sides), so a raise it does not see queues it again.
template <typename V>
__device__ __forceinline__ void color_claim(bool valid, V w, V r, V cv, const V* part, V* color,
                                            unsigned int* inq, V* out,
                                            unsigned long long* out_len) {
    bool push = false;
    if (valid && part[w] == r && color[w] < cv && wgscc::atomic_max(color + w, cv) < cv) {
        __threadfence();
        push = atomicCAS(inq + w, 0u, 1u) == 0u;
    }
    const unsigned long long slot = wg::warp_reserve(out_len, push ? 1ull : 0ull);
    if (push) out[slot] = w;
}

template <typename V>
__global__ void scc_color_push(const long long* __restrict__ ptr, const V* __restrict__ idx,
                               const V* __restrict__ part, V* color, unsigned int* inq,
                               const V* __restrict__ in, const unsigned long long* in_len, V* out,
                               unsigned long long* out_len) {
    const long long len = (long long)*in_len;
    const int lane = wg::lane_id();
    for (long long base = wg::warp_base(); base < len; base += wg::warp_stride()) {
        const long long i = base + lane;
        long long b = 0, e = 0;
        V r = 0, cv = 0;
        if (i < len) {
            const V v = in[i];
            atomicExch(inq + v, 0u);
            __threadfence();
            b = ptr[v];
            e = ptr[(long long)v + 1];
            r = part[v];
            cv = wgscc::load_fresh(color + v);
        }
        unsigned big = __ballot_sync(wg::FULL_MASK, e - b >= wg::WARP_SIZE);
        while (big) {
            const int owner = __ffs(big) - 1;
            big &= big - 1;
            const long long bb = __shfl_sync(wg::FULL_MASK, b, owner);
            const long long ee = __shfl_sync(wg::FULL_MASK, e, owner);
            const V rr = __shfl_sync(wg::FULL_MASK, r, owner);
            const V cc = __shfl_sync(wg::FULL_MASK, cv, owner);
            for (long long q = bb; q < ee; q += wg::WARP_SIZE) {
                const long long p = q + lane;
                const V w = p < ee ? wg::ldg(idx + p) : (V)0;
                color_claim(p < ee, w, rr, cc, part, color, inq, out, out_len);
            }
        }
        const long long mine = e - b < wg::WARP_SIZE ? e - b : 0;
        const long long most = wg::warp_max(mine);
        for (long long k = 0; k < most; ++k) {
            const V w = k < mine ? wg::ldg(idx + b + k) : (V)0;
            color_claim(k < mine, w, r, cv, part, color, inq, out, out_len);
        }
    }
}

// Backward-closed vertices get their colour as SCC id, the others their colour as subgraph.
template <typename V>
__global__ void scc_color_update(long long n, V* part, V* label, V* color,
                                 const unsigned int* __restrict__ bmark,
                                 unsigned long long* left) {
    unsigned long long k = 0;
    for (long long v = wg::global_thread_id(); v < n; v += wg::grid_threads()) {
        if (part[v] < 0) continue;
        const V c = color[v];
        if (bmark[v] != 0u) {
            label[v] = c;
            part[v] = (V)-1;
            color[v] = (V)-1;
        } else {
            part[v] = c;
            ++k;
        }
    }
    if (k) atomicAdd(left, k);
}

// ---- transpose --------------------------------------------------------------------------------

// rindices[cursor[v]++] = u for every arc u -> v; cursor starts as the in-CSR row offsets.
template <typename V>
__global__ void scc_transpose(const long long* __restrict__ indptr, const V* __restrict__ indices,
                              long long n, long long* cursor, V* rindices, long long hub, V* hubs,
                              unsigned long long* hub_cnt) {
    const int lane = wg::lane_id();
    for (long long base = wg::warp_base(); base < n; base += wg::warp_stride()) {
        const long long u = base + lane;
        long long b = 0, e = 0;
        if (u < n) {
            b = indptr[u];
            e = indptr[u + 1];
            if (wgscc::defer_hub(e - b, hub, (V)u, n, hubs, hub_cnt)) e = b;  // scc_reach_hubs<2>
        }
        unsigned big = __ballot_sync(wg::FULL_MASK, e - b >= wg::WARP_SIZE);
        while (big) {
            const int owner = __ffs(big) - 1;
            big &= big - 1;
            const long long bb = __shfl_sync(wg::FULL_MASK, b, owner);
            const long long ee = __shfl_sync(wg::FULL_MASK, e, owner);
            for (long long p = bb + lane; p < ee; p += wg::WARP_SIZE) {
                const V v = wg::ldg(indices + p);
                const long long q = (long long)atomicAdd((unsigned long long*)(cursor + v), 1ull);
                rindices[q] = (V)(base + owner);
            }
        }
        if (e - b < wg::WARP_SIZE) {
            for (long long p = b; p < e; ++p) {
                const V v = wg::ldg(indices + p);
                const long long q = (long long)atomicAdd((unsigned long long*)(cursor + v), 1ull);
                rindices[q] = (V)u;
            }
        }
    }
}

#ifdef WARPGRAPH_NVCC_CHECK
#define SCC_INSTANTIATE(V)                                                                        \
    template __global__ void scc_trim1<V>(const long long*, const V*, const long long*, const V*, \
                                          long long, V*, V*, unsigned int*);                      \
    template __global__ void scc_trim2_decide<V>(const long long*, const V*, const long long*,    \
                                                 const V*, long long, const V*, V*);              \
    template __global__ void scc_trim2_apply<V>(long long, V*, const V*);                         \
    template __global__ void scc_pivot_best<V>(const long long*, const long long*, long long,     \
                                               const V*, int, unsigned long long*);               \
    template __global__ void scc_pivot_pick<V>(const long long*, const long long*, long long,     \
                                               const V*, int, const unsigned long long*, V*);     \
    template __global__ void scc_mark_pivots<V>(long long, const V*, const V*, unsigned int*,     \
                                                unsigned int*, V*, unsigned long long*);          \
    template __global__ void scc_mark_roots<V>(long long, const V*, unsigned int*, V*,            \
                                               unsigned long long*);                              \
    template __global__ void scc_reach_q<V>(const long long*, const V*, long long, const V*,      \
                                            unsigned int*, unsigned int, unsigned int,            \
                                            unsigned int*, long long, V*, unsigned long long*);   \
    template __global__ void scc_reach_hubs<V, 0>(                                                \
        const long long*, const V*, long long, const V*, unsigned int*, const V*,                 \
        const unsigned long long*, unsigned int, unsigned int*, V*, unsigned long long*,          \
        unsigned long long*);                                                                     \
    template __global__ void scc_reach_hubs<V, 1>(                                                \
        const long long*, const V*, long long, const V*, unsigned int*, const V*,                 \
        const unsigned long long*, unsigned int, unsigned int*, V*, unsigned long long*,          \
        unsigned long long*);                                                                     \
    template __global__ void scc_reach_vw<V, 1>(const long long*, const V*, long long, const V*,  \
                                                unsigned int*, unsigned int, unsigned int,        \
                                                unsigned int*, long long, V*,                     \
                                                unsigned long long*);                             \
    template __global__ void scc_reach_vw<V, 8>(const long long*, const V*, long long, const V*,  \
                                                unsigned int*, unsigned int, unsigned int,        \
                                                unsigned int*, long long, V*,                     \
                                                unsigned long long*);                             \
    template __global__ void scc_reach_vw<V, 32>(const long long*, const V*, long long, const V*, \
                                                 unsigned int*, unsigned int, unsigned int,       \
                                                 unsigned int*, long long, V*,                    \
                                                 unsigned long long*);                            \
    template __global__ void scc_reach_push<V>(const long long*, const V*, long long, const V*,   \
                                               unsigned int*, const V*,                           \
                                               const unsigned long long*, V*,                     \
                                               unsigned long long*, unsigned long long*,          \
                                               long long, V*, unsigned long long*);               \
    template __global__ void scc_reach_pull<V>(const long long*, const V*, long long, const V*,   \
                                               unsigned int*, V*, unsigned long long*);           \
    template __global__ void scc_fb_newid<V>(long long, const V*, const unsigned int*,            \
                                             const unsigned int*, V*);                            \
    template __global__ void scc_fb_update<V>(long long, V*, V*, unsigned int*, unsigned int*,    \
                                              const V*, const V*, unsigned long long*);           \
    template __global__ void scc_color_init<V>(long long, const V*, V*, int*, unsigned int*, V*,  \
                                               unsigned long long*);                              \
    template __global__ void scc_color_q<V>(const long long*, const V*, long long, const V*, V*,  \
                                            int*, int, unsigned int*);                            \
    template __global__ void scc_color_push<V>(const long long*, const V*, const V*, V*,          \
                                               unsigned int*, const V*,                           \
                                               const unsigned long long*, V*,                     \
                                               unsigned long long*);                              \
    template __global__ void scc_color_update<V>(long long, V*, V*, V*, const unsigned int*,      \
                                                 unsigned long long*);                            \
    template __global__ void scc_transpose<V>(const long long*, const V*, long long, long long*,  \
                                              V*, long long, V*, unsigned long long*);            \
    template __global__ void scc_reach_hubs<V, 2>(                                                \
        const long long*, const V*, long long, const V*, unsigned int*, const V*,                 \
        const unsigned long long*, unsigned int, unsigned int*, V*, unsigned long long*,          \
        unsigned long long*);
SCC_INSTANTIATE(int)
SCC_INSTANTIATE(long long)
#endif
