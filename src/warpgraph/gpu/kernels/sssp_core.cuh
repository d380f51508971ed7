// warpgraph SSSP on the GPU: H-BF (frontier Bellman-Ford, Busato's thesis ch. 8), near-far piles
// (Davidson et al. IPDPS 2014, as in Segura's thesis) and delta-stepping (Meyer and Sanders; the
// SIMD-X choice), all as one persistent cooperative kernel (sssp.cu) whose operations are
// separated by grid-wide barriers. The host side is warpgraph/algorithms/sssp/gpu.py.
//
// Distances are kept as order-preserving unsigned keys, so one unsigned atomicMin orders them:
//   integers  key = d - low (low = -2B with negative weights, else 0; B = max|w| * n)
//   floats    the sign-magnitude bits mapped to an unsigned order (f2key / d2key)
// Four state layouts ("modes"), chosen by the host per call:
//   PACK       u64 word = key32 << 32 | stamp32: H-BF's duplicate removal, one 64-bit atomicMin
//              both relaxes and says whether v was already queued in this operation
//   PACK_PRED  u64 word = key32 << 32 | pred32, CAS loop with strict decrease (the predecessor
//              is always consistent with the distance), stamps in a separate array
//   WIDE       u64 key per vertex (atomicMin) + stamp array (64-bit distances)
//   WIDE_PRED  16-byte {key64, pred64} with a 128-bit CAS loop (sm_90) + stamp array
//   SPLIT      u32 key per vertex (32-bit atomicMin) + stamp array: the per-arc distance check
//              reads a 4-byte array (16 MB at 4M vertices) instead of 8-byte words, so more of it
//              stays in L2; non-negative weights without predecessors only. SPLIT also has the
//              run-time features of Feature (below) and cuts rows into chunks of CHUNK..2*CHUNK-1
//              arcs (floor(deg / CHUNK) chunks), so chunk starts are CHUNK apart and `start /
//              CHUNK` names a chunk uniquely (the chunk-done filter is indexed by it). PACK has
//              the features too, except F_DONE.
// Stamps: operation k (epoch e = k + 1) writes 2e + 1 for a vertex it queued in the near
// frontier and 2e for a far improvement (PACK), so "already queued" is one equality test and the
// near frontier can be regenerated from the stamps after a queue overflow.
//
// Frontier: a queue of vertices of out-degree < BIG_DEG (expanded warp-wide: 32 vertices per
// warp, prefix sum of degrees, every lane finds the owner of its arc by a 5-step shuffle search)
// plus a queue of (vertex, chunk) entries for the others (one warp per chunk of CHUNK arcs): the
// degree bins replace H-BF's dynamic parallelism. Edge classes live in the two top bits of the
// destination id when the host marks them (sssp_classify): skip (self-loop of weight >= 0),
// direct (in-degree-1 target: plain store, no atomic), sink (relaxed but never queued).
#pragma once

#include "frontier_core.cuh"
#include "frontier_sync.cuh"

namespace wg {
namespace sssp {

using fr::BLOCK;
using fr::WARPS;

constexpr long long BIG_DEG = 256;  // out-degree from which a vertex is expanded by chunks
constexpr long long CHUNK = 256;    // arcs per chunk entry (one warp, 8 rounds)
constexpr int CHUNK_SHIFT = 24;     // chunk entry = vertex << 24 | chunk index

enum Mode : int { PACK = 0, PACK_PRED = 1, WIDE = 2, WIDE_PRED = 3, SPLIT = 4 };
// Run-time features of PACK and SPLIT (cfg[C_FEATURES] bits; gpu.py FEATURES)
enum Feature : int {
    F_QBUF = 1,    // near-queue appends staged in a per-warp shared-memory buffer: one counter
                  // atomic per QBUF entries instead of one per warp round that queues anything
    F_STREAM = 2,  // arc ids and weights loaded with evict-first hints (__ldcs)
    F_DONE = 4,    // expanded-distance filter: a vertex (small) or chunk (large) whose distance
                   // equals the one it was last expanded with is not expanded again
    F_SKIP1 = 8,   // undirected, non-negative: degree-1 vertices are never queued (their one
                   // arc leads back to the neighbour that set their distance)
    F_ILP = 16,    // chunks: load the ids and weights of ILP_ROUNDS rounds before relaxing them
                   // (more loads in flight per warp)
    F_DEFER = 32,  // PACK with filtering: a frontier vertex whose word already carries this
                   // operation's near stamp (improved, and queued for the next operation, before
                   // its own expansion) is not expanded now: the next operation expands it once,
                   // with the lower distance (H-BF's double expansions; simulated on Kronecker
                   // graphs: 20-30% fewer arcs relaxed)
    F_SPEC = 64,   // PACK H-BF: the H-BF-only kernel (OPT = 1: no far pile, no delta-stepping,
                   // no negative-weight checks compiled in); F_PREF and F_ILP2 need it
    F_PREF = 128,  // OPT = 1: the targets' keys of all ILP_ROUNDS rounds of a chunk (and of both
                   // rounds with F_ILP2) are read before the first of them is relaxed
    F_ILP2 = 256,  // OPT = 1: small vertices' arcs two warp rounds at a time (ids and weights of
                   // both loaded before relaxing)
};
// Features each kernel knows (the others are ignored there)
constexpr int FEATS_SPLIT = F_QBUF | F_STREAM | F_DONE | F_SKIP1 | F_ILP;
constexpr int FEATS_PACK = F_QBUF | F_STREAM | F_SKIP1 | F_ILP | F_DEFER;
constexpr int FEATS_PACK_SPEC = FEATS_PACK | F_PREF | F_ILP2;
constexpr int ILP_ROUNDS = 4;
constexpr int QBUF = 256;  // entries per warp buffer (F_QBUF)
enum Method : int { HBF = 0, NEAR_FAR = 1, DELTA = 2 };
enum EdgeClass : int { CLS_NORMAL = 0, CLS_SKIP = 1, CLS_DIRECT = 2, CLS_SINK = 3 };
enum Arcs : int { ARCS_ALL = 0, ARCS_LIGHT = 1, ARCS_HEAVY = 2 };
enum Status : int { ST_RUNNING = 0, ST_DONE = 1, ST_NEGCYCLE = 2, ST_LIMIT = 3, ST_OVERFLOW = 4 };
enum Relax : int { R_NONE = 0, R_FAR = 1, R_NEAR = 2 };

// configuration words (written by the host, gpu.py _CFG)
enum Cfg : int {
    C_N = 0,
    C_QCAP = 1,      // small-queue capacity
    C_CCAP = 2,      // chunk-queue capacity
    C_FCAP = 3,      // far-pile capacity
    C_METHOD = 4,
    C_FILTER = 5,    // frontier filtering: duplicate and already-settled removal
    C_CLASSIFY = 6,  // the indices carry edge classes
    C_DELTA = 7,     // bucket width / threshold step: int64 value, or double bits
    C_LOW = 8,       // integer key offset
    C_NEGB = 9,      // -B: a distance below it proves a negative cycle (int64 or double bits)
    C_HASNEG = 10,
    C_MAXOPS = 11,   // safety bound on operations
    C_FORCE = 12,    // tests: rebuild every expanded frontier from the stamps (the overflow path)
    C_FEATURES = 13, // SPLIT: Feature bits
    C_CDONE = 14,    // SPLIT with F_DONE: entries of the chunk-done array (m / CHUNK + 1)
    C_FUSED = 16,    // 1: counter-fused operation barrier (sssp.cu; frontier_sync.cuh
                     // fused_arrive_wait); 0: grid_barrier + a read of the slot's counters
    C_CHAIN = 17,    // near-far on PACK with F_QBUF and filtering: rounds of chained expansion
                     // per warp and operation (Run::chain; 0: off)
    C_CLAIM = 18,    // operations whose frontier has at most this many small vertices (and at
                     // most CLAIM_CHUNKS chunks) relax by atomicMin without reading the target
                     // first (PACK; 0: never)
    C_SMALLDEG = 19, // 1: every out-degree is below BIG_DEG (host-checked): near pushes read no
                     // degree (F_SKIP1 then skips degree-1 vertices when expanding them)
    C_WORDS = 24,
};
constexpr long long CLAIM_CHUNKS = 64;

// control block (u64 words; zeroed by the host before each launch)
constexpr int Q_SLOTS = 0;   // 3 rotating slots of 4: small count, chunk count, flags (bit 0:
                             // negative cycle, bit 1: key out of range), vertex+1. With
                             // C_FUSED the first three also carry the barrier's arrivals
                             // (fr::ARRIVE and up): readers mask them (fr::COUNT_MASK)
constexpr int F_SLOTS = 12;  // 3 rotating slots of 4: far count, ~(min key)
constexpr int R_SMALL = 24;  // delta-stepping: vertices expanded in the current bucket
constexpr int R_CHUNK = 25;
constexpr int G_BASE = 32;
enum Global : int {
    G_STATUS = 0,
    G_NEGV = 1,    // vertex + 1 on (or leading to) a negative cycle
    G_OPS = 2,
    G_ITERS = 3,   // expand operations
    G_SPLITS = 4,
    G_HEAVY = 5,
    G_REGEN = 6,
    G_FARSCAN = 7,
};
constexpr int CTL_WORDS = 48;

// ---- keys ------------------------------------------------------------------------------------
__device__ __forceinline__ unsigned f2key(float f) {
    const unsigned b = __float_as_uint(f);
    return (b & 0x80000000u) ? ~b : (b | 0x80000000u);
}
__device__ __forceinline__ float key2f(unsigned k) {
    return __uint_as_float((k & 0x80000000u) ? (k & 0x7fffffffu) : ~k);
}
__device__ __forceinline__ u64 d2key(double f) {
    const u64 b = (u64)__double_as_longlong(f);
    return (b >> 63) ? ~b : (b | 0x8000000000000000ull);
}
__device__ __forceinline__ double key2d(u64 k) {
    return __longlong_as_double((long long)((k >> 63) ? (k & 0x7fffffffffffffffull) : ~k));
}

// Value arithmetic per weight type: exact 64-bit integers, or the weight's own float type.
template <typename W> struct Val { using T = long long; static constexpr bool integer = true; };
template <> struct Val<float> { using T = float; static constexpr bool integer = false; };
template <> struct Val<double> { using T = double; static constexpr bool integer = false; };

template <int MODE> struct Layout {
    static constexpr bool narrow = MODE == PACK || MODE == PACK_PRED || MODE == SPLIT;
    static constexpr bool pred = MODE == PACK_PRED || MODE == WIDE_PRED;
    static constexpr bool stamps = MODE != PACK;  // near stamps in the separate array
    static constexpr u64 INF = narrow ? 0xffffffffull : ~0ull;
};

// Chunks of a row of `deg` >= BIG_DEG arcs: ceil(deg / CHUNK) of at most CHUNK arcs, or (SPLIT)
// floor(deg / CHUNK), the last one taking the remainder too.
template <int MODE>
__device__ __forceinline__ long long num_chunks(long long deg) {
    return MODE == SPLIT ? deg / CHUNK : (deg + CHUNK - 1) / CHUNK;
}

template <int MODE>
__device__ __forceinline__ void chunk_range(long long rb, long long re, long long j, long long& b,
                                            long long& e) {
    b = rb + j * CHUNK;
    if constexpr (MODE == SPLIT) {
        e = j == (re - rb) / CHUNK - 1 ? re : b + CHUNK;
    } else {
        e = b + CHUNK < re ? b + CHUNK : re;
    }
}

struct alignas(16) KeyPred {
    u64 key;
    u64 pred;
};

template <typename W>
__device__ __forceinline__ u64 key_of(typename Val<W>::T d, long long low) {
    if constexpr (Val<W>::integer) {
        return (u64)(d - low);
    } else if constexpr (sizeof(W) == 4) {
        return (u64)f2key(d);
    } else {
        return d2key(d);
    }
}

template <typename W>
__device__ __forceinline__ typename Val<W>::T val_of(u64 key, long long low) {
    if constexpr (Val<W>::integer) {
        return (long long)key + low;
    } else if constexpr (sizeof(W) == 4) {
        return key2f((unsigned)key);
    } else {
        return key2d(key);
    }
}

template <typename W>
__device__ __forceinline__ typename Val<W>::T cfg_val(const long long* cfg, int i) {
    if constexpr (Val<W>::integer) {
        return cfg[i];
    } else {
        return (typename Val<W>::T)__longlong_as_double(cfg[i]);
    }
}

// loads that bypass L1 (data written by other blocks in an earlier operation)
__device__ __forceinline__ u64 ldcg(const u64* p) { return __ldcg(p); }
__device__ __forceinline__ unsigned ldcg(const unsigned* p) { return __ldcg(p); }
__device__ __forceinline__ int ldcg(const int* p) { return __ldcg(p); }
__device__ __forceinline__ long long ldcg(const long long* p) { return __ldcg(p); }

// ---- per-vertex state --------------------------------------------------------------------------
template <int MODE>
struct State {
    using L = Layout<MODE>;
    u64* word;        // PACK*: n words; WIDE: n keys; WIDE_PRED: n KeyPred (2n words); SPLIT:
                      // n u32 keys
    unsigned* stamp;  // near stamps (all modes but PACK), far-pile dedup (near-far, delta)

    __device__ __forceinline__ u64 key(long long v) const {
        if constexpr (MODE == SPLIT) {
            return (u64)ldcg(reinterpret_cast<const unsigned*>(word) + v);
        } else if constexpr (L::narrow) {
            return ldcg(word + v) >> 32;
        } else if constexpr (MODE == WIDE) {
            return ldcg(word + v);
        } else {
            return ldcg(word + 2 * v);
        }
    }

    __device__ __forceinline__ void init(long long v, u64 key) const {
        if constexpr (MODE == PACK) {
            word[v] = key << 32;
        } else if constexpr (MODE == PACK_PRED) {
            word[v] = (key << 32) | 0xffffffffull;
        } else if constexpr (MODE == WIDE) {
            word[v] = key;
        } else if constexpr (MODE == SPLIT) {
            reinterpret_cast<unsigned*>(word)[v] = (unsigned)key;
        } else {
            word[2 * v] = key;
            word[2 * v + 1] = ~0ull;
        }
    }

    // PACK: the whole (key << 32 | stamp) word of v
    __device__ __forceinline__ u64 packed(long long v) const { return ldcg(word + v); }

    // PACK: the key of v alone (the high half of its word: a 4-byte read)
    __device__ __forceinline__ unsigned packed_key(long long v) const {
        return ldcg(reinterpret_cast<const unsigned*>(word + v) + 1);
    }

    // predecessor id, or -1
    __device__ __forceinline__ long long pred(long long v) const {
        if constexpr (MODE == PACK_PRED) {
            const unsigned p = (unsigned)ldcg(word + v);
            return p == 0xffffffffu ? -1 : (long long)p;
        } else if constexpr (MODE == WIDE_PRED) {
            const u64 p = ldcg(word + 2 * v + 1);
            return p == ~0ull ? -1 : (long long)p;
        } else {
            return -1;
        }
    }

    // the near stamp of v (regeneration of an overflowed frontier)
    __device__ __forceinline__ unsigned near_stamp(long long v) const {
        if constexpr (MODE == PACK) {
            return (unsigned)ldcg(word + v);
        } else {
            return ldcg(stamp + v);
        }
    }

    // Lower the distance of v to `key` (from u). direct: u is v's only in-neighbour and is
    // expanded once per operation, so a plain store is enough. Returns R_NONE (no improvement,
    // or already queued near in this operation when filtering), R_FAR or R_NEAR. PACK with
    // `pre`: `pkey` is v's key read earlier in this operation (keys only fall, so a stale key
    // only lets a useless atomicMin through; the atomic decides; a direct target has no other
    // writer, so its key cannot be stale).
    // PACK with `claim` (thin operations, C_CLAIM): no read of the target before the atomicMin
    // (one dependent round trip less per improving arc, an atomic for every arc). A word with
    // the same key keeps its stamp: the same key is near or far alike, and older stamps are
    // smaller.
    __device__ __forceinline__ int relax(long long v, u64 key, long long u, bool near, bool direct,
                                         bool filter, unsigned epoch, bool pre = false,
                                         unsigned pkey = 0u, bool claim = false) const {
        const unsigned near_st = 2u * epoch + 1u;
        if constexpr (MODE == PACK) {
            const u64 nw = (key << 32) | (u64)(near ? near_st : 2u * epoch);
            u64 old = 0;
            if (direct || !claim) {
                const u64 cur = pre ? ((u64)pkey << 32) : ldcg(word + v);
                if ((cur >> 32) <= key) return R_NONE;
                old = cur;
            }
            if (direct) {
                word[v] = nw;
            } else {
                old = atomicMin(word + v, nw);
                if ((old >> 32) <= key) return R_NONE;
            }
            if (!near) return R_FAR;
            return (filter && !direct && (unsigned)old == near_st) ? R_NONE : R_NEAR;
        } else {
            bool improved = false;
            if constexpr (MODE == PACK_PRED) {
                u64 cur = ldcg(word + v);
                const u64 nw = (key << 32) | (u64)(unsigned)u;
                if (direct) {
                    if ((cur >> 32) > key) {
                        word[v] = nw;
                        improved = true;
                    }
                } else {
                    while ((cur >> 32) > key) {
                        const u64 prev = atomicCAS(word + v, cur, nw);
                        if (prev == cur) {
                            improved = true;
                            break;
                        }
                        cur = prev;
                    }
                }
            } else if constexpr (MODE == WIDE) {
                const u64 cur = ldcg(word + v);
                if (cur > key) {
                    if (direct) {
                        word[v] = key;
                        improved = true;
                    } else {
                        improved = atomicMin(word + v, key) > key;
                    }
                }
            } else if constexpr (MODE == SPLIT) {
                unsigned* kw = reinterpret_cast<unsigned*>(word);
                const unsigned k32 = (unsigned)key;
                if (ldcg(kw + v) > k32) {
                    if (direct) {
                        kw[v] = k32;
                        improved = true;
                    } else {
                        improved = atomicMin(kw + v, k32) > k32;
                    }
                }
            } else {
                KeyPred* kp = reinterpret_cast<KeyPred*>(word) + v;
                KeyPred cur;
                cur.key = ldcg(word + 2 * v);
                cur.pred = ldcg(word + 2 * v + 1);
                KeyPred nw;
                nw.key = key;
                nw.pred = (u64)u;
                if (direct) {
                    if (cur.key > key) {
                        word[2 * v + 1] = nw.pred;
                        word[2 * v] = key;
                        improved = true;
                    }
                } else {
                    while (cur.key > key) {
                        const KeyPred prev = atomicCAS(kp, cur, nw);
                        if (prev.key == cur.key && prev.pred == cur.pred) {
                            improved = true;
                            break;
                        }
                        cur = prev;
                    }
                }
            }
            if (!improved) return R_NONE;
            if (!near) return R_FAR;
            if (filter && !direct) return atomicMax(stamp + v, near_st) < near_st ? R_NEAR : R_NONE;
            stamp[v] = near_st;
            return R_NEAR;
        }
    }
};

// ---- one run -----------------------------------------------------------------------------------
// OPT >= 1: the H-BF-only kernels of PACK (F_SPEC): method, far pile, delta-stepping and the
// negative-weight checks are compile-time constants (PACK never has negative weights). OPT 1:
// F_ILP2 relaxes small vertices' arcs 2 rounds at a time, F_ILP chunks 4 rounds at a time;
// OPT 2 (and 3, the same at 3 blocks per SM: more registers): 4 and 8 rounds.
template <typename V, typename W, int MODE, int OPT = 0>
struct Run {
    using T = typename Val<W>::T;
    using L = Layout<MODE>;
    static constexpr bool HBF_ONLY = OPT >= 1;
    static constexpr int SMALL_ROUNDS = OPT >= 2 ? 4 : 2;          // F_ILP2
    static constexpr int CHUNK_ROUNDS = OPT >= 2 ? 8 : ILP_ROUNDS;  // F_ILP
    static constexpr int CLS_SHIFT = (int)sizeof(V) * 8 - 2;
    static constexpr V ID_MASK = (V)(((unsigned long long)1 << CLS_SHIFT) - 1);

    const eid_t* indptr;
    const V* indices;
    const W* weights;
    State<MODE> st;
    unsigned* rstamp;
    V* q0;
    V* q1;
    u64* c0;
    u64* c1;
    V* far0;
    V* far1;
    V* rq;
    u64* rc;
    u64* ctl;
    const long long* cfg;
    unsigned* done;   // SPLIT + F_DONE: key each vertex was last expanded with (~0u: never)
    unsigned* cdone;  // the same per chunk, indexed by chunk start / CHUNK
    long long n, qcap, ccap, fcap;
    int method;
    int features;     // SPLIT: Feature bits (0 in the other modes)
    int qb_n;         // F_QBUF: entries in this warp's buffer (warp-uniform)
    bool filter, classify, hasneg;
    bool smalldeg;    // C_SMALLDEG
    bool claim;       // this operation relaxes without pre-reads (C_CLAIM)
    bool chaining;    // C_CHAIN on: a vertex may be expanded twice in one operation, so the
                      // direct class (plain store, one writer per operation) is relaxed by atomics
    long long low;
    T delta, negb;

    // where the current operation writes
    V* q_out;
    u64* c_out;
    u64* qslot_out;
    V* far_out;
    u64* fslot_out;
    unsigned epoch;

    __device__ __forceinline__ long long degree(V v) const {
        return ldg(indptr + v + 1) - ldg(indptr + v);
    }

    __device__ __forceinline__ bool feat(int f) const {
        if constexpr (MODE == SPLIT) {
            return (features & f & FEATS_SPLIT) != 0;
        } else if constexpr (MODE == PACK) {  // not F_DONE (its chunk names need SPLIT's cut)
            return (features & f & (OPT >= 1 ? FEATS_PACK_SPEC : FEATS_PACK)) != 0;
        } else {
            return false;
        }
    }

    __device__ __forceinline__ bool neg() const {
        if constexpr (HBF_ONLY) {
            return false;
        } else {
            return hasneg;
        }
    }

    // arc arrays: read once per relaxation; F_STREAM marks them evict-first so that they do not
    // push the distance array out of L2
    template <typename X>
    __device__ __forceinline__ X arc_load(const X* p) const {
        return feat(F_STREAM) ? __ldcs(p) : ldg(p);
    }

    // This warp's F_QBUF buffer (shared memory, QBUF entries per warp).
    __device__ __forceinline__ V* qbuf() const {
        __shared__ V sq[WARPS * QBUF];
        return sq + (threadIdx.x / WARP_SIZE) * QBUF;
    }

    // Warp-collective: write this warp's buffered near entries to the queue (one atomic).
    __device__ __forceinline__ void flush_q() {
        if constexpr (MODE == SPLIT || MODE == PACK) {
            if (qb_n == 0) return;
            __syncwarp();
            u64 base = 0;
            if (lane_id() == 0) base = atomicAdd(qslot_out + 0, (u64)qb_n) & fr::COUNT_MASK;
            base = __shfl_sync(FULL_MASK, base, 0);
            const V* buf = qbuf();
            for (int i = lane_id(); i < qb_n; i += WARP_SIZE) {
                if (base + (u64)i < (u64)qcap) q_out[base + i] = buf[i];
            }
            __syncwarp();
            qb_n = 0;
        }
    }

    // Warp-collective: lanes with `p` append v to the next near frontier (by degree class).
    __device__ __forceinline__ void push_near(bool p, V v) {
        const long long deg = (p && !(!HBF_ONLY && smalldeg)) ? degree(v) : 0;  // C_SMALLDEG: all small
        const bool big = p && deg >= BIG_DEG;
        const bool small = p && !big && !(deg == 1 && feat(F_SKIP1));
        if (feat(F_QBUF)) {
            const unsigned sm = __ballot_sync(FULL_MASK, small);
            if (sm) {
                if (qb_n + WARP_SIZE > QBUF) flush_q();
                const int r = __popc(sm & ((1u << lane_id()) - 1u));
                if (small) qbuf()[qb_n + r] = v;
                qb_n += __popc(sm);
            }
        } else if (__any_sync(FULL_MASK, small)) {
            const u64 s = warp_reserve(qslot_out + 0, (u64)small) & fr::COUNT_MASK;
            if (small && s < (u64)qcap) q_out[s] = v;
        }
        const unsigned bigs = __ballot_sync(FULL_MASK, big);
        if (bigs) append_chunks(bigs, v, deg, c_out, qslot_out + 1, ccap);
    }

    // Warp-collective: the lanes in `mask` each append the chunk entries of their vertex; the
    // whole warp writes them.
    __device__ __forceinline__ void append_chunks(unsigned mask, V v, long long deg, u64* out,
                                                  u64* counter, long long cap) {
        const u64 nch = ((mask >> lane_id()) & 1u) ? (u64)num_chunks<MODE>(deg) : 0ull;
        const u64 base = warp_reserve(counter, nch) & fr::COUNT_MASK;
        while (mask) {
            const int l = __ffs(mask) - 1;
            mask &= mask - 1;
            const V bv = __shfl_sync(FULL_MASK, v, l);
            const u64 bb = __shfl_sync(FULL_MASK, base, l);
            const u64 bn = __shfl_sync(FULL_MASK, nch, l);
            for (u64 j = (u64)lane_id(); j < bn; j += WARP_SIZE) {
                if (bb + j < (u64)cap) out[bb + j] = ((u64)bv << CHUNK_SHIFT) | j;
            }
        }
    }

    // Warp-collective: lanes with `p` append v (distance key `key`) to the far pile.
    __device__ __forceinline__ void push_far(bool p, V v, u64 key) {
        if (!__any_sync(FULL_MASK, p)) return;
        const u64 s = warp_reserve(fslot_out + 0, (u64)p);
        if (p && s < (u64)fcap) far_out[s] = v;
        const u64 nk = warp_max(p ? ~key : 0ull);  // ~min key
        if (lane_id() == 0 && nk) atomicMax(fslot_out + 1, nk);
    }

    __device__ __forceinline__ void flag_negative(V x) {
        atomicOr(qslot_out + 2, 1ull);
        atomicExch(qslot_out + 3, (u64)x + 1ull);
    }

    // Warp-collective: relax arc `pos` of u (distance du) when `valid`, then queue the target.
    __device__ __forceinline__ void edge(bool valid, V u, T du, eid_t pos, int arcs, u64 tk) {
        V raw = 0;
        W w = (W)0;
        if (valid) {
            raw = arc_load(indices + pos);
            w = arc_load(weights + pos);
        }
        edge_loaded(valid, u, du, raw, w, arcs, tk);
    }

    // F_PREF: the key of the arc's target, read before its round is relaxed (~0u: no arc).
    __device__ __forceinline__ unsigned pref_key(bool valid, V raw) const {
        if constexpr (MODE == PACK) {
            if (!valid) return 0xffffffffu;
            const V v = classify ? (V)(raw & ID_MASK) : raw;
            return st.packed_key((long long)v);
        } else {
            return 0xffffffffu;
        }
    }

    // The same with the arc's (raw) target id and weight already loaded (and with `pre`, the
    // target's key from pref_key).
    __device__ __forceinline__ void edge_loaded(bool valid, V u, T du, V raw, W w, int arcs,
                                                u64 tk, bool pre = false, unsigned pkey = 0u) {
        int res = R_NONE;
        V v = 0;
        u64 key = 0;
        if (valid) {
            const int cls = classify ? (int)((raw >> CLS_SHIFT) & 3) : CLS_NORMAL;
            v = classify ? (V)(raw & ID_MASK) : raw;
            bool go = cls != CLS_SKIP;
            if (arcs == ARCS_LIGHT) go = go && (T)w < delta;
            if (arcs == ARCS_HEAVY) go = go && !((T)w < delta);
            if (go) {
                const T nd = du + (T)w;
                bool ok = true;
                if (neg() && nd < negb) {  // the walk behind nd is shorter than any simple path
                    if constexpr (Val<W>::integer) {
                        if (nd < 2 * negb) {  // below the key range: u itself is below -B
                            ok = false;
                            flag_negative(u);
                        } else {
                            flag_negative(v);
                        }
                    } else {
                        flag_negative(v);
                    }
                }
                if (ok) {
                    key = key_of<W>(nd, low);
                    if constexpr (Val<W>::integer && L::narrow) {
                        if (key >= L::INF) {  // cannot happen when the host's range check holds
                            atomicOr(qslot_out + 2, 2ull);
                            key = L::INF - 1;
                        }
                    }
                    res = st.relax((long long)v, key, (long long)u, key < tk,
                                   cls == CLS_DIRECT && filter && !chaining, filter, epoch, pre,
                                   pkey, claim);
                    if (cls == CLS_SINK) res = R_NONE;
                }
            }
        }
        if (__any_sync(FULL_MASK, res == R_NEAR)) push_near(res == R_NEAR, v);
        if (!HBF_ONLY && method != HBF) push_far(res == R_FAR, v, key);
    }

    __device__ __forceinline__ T dist(V u) const { return val_of<W>(st.key((long long)u), low); }

    // Delta-stepping: remember u as expanded in this bucket (once), for the heavy-arc pass.
    __device__ __forceinline__ void record_small(bool p, V u, unsigned bucket) {
        bool first = false;
        if (p) first = atomicExch(rstamp + u, bucket) != bucket;
        if (__any_sync(FULL_MASK, first)) {
            const u64 s = warp_reserve(ctl + R_SMALL, (u64)first);
            if (first && s < (u64)n) rq[s] = u;
        }
    }

    // Expand a small-vertex list and a chunk list (warp-collective loops, every warp calls).
    __device__ void expand(const V* small, long long ns, const u64* chunks, long long nc, int arcs,
                           u64 tk, bool record, unsigned bucket) {
        const int lane = lane_id();
        const long long gw = (long long)blockIdx.x * WARPS + threadIdx.x / WARP_SIZE;
        const long long nw = (long long)gridDim.x * WARPS;
        // dynamic warp workload: spread a small frontier over more warps
        long long vpw = (ns + nw - 1) / nw;
        vpw = vpw >= 32 ? 32 : vpw;
        int p2 = 1;
        while (p2 < vpw) p2 <<= 1;
        const long long step = nw * p2;
        const bool done_on = feat(F_DONE) && arcs == ARCS_ALL;
        const bool defer = feat(F_DEFER) && filter;
        const unsigned queued_st = 2u * epoch + 1u;  // near stamp this operation writes
        const bool ilp2 = feat(F_ILP2), pref = feat(F_PREF);
        for (long long base = gw * p2; base < ns; base += step) {
            const long long i = base + lane;
            const bool has = lane < p2 && i < ns;
            V u = 0;
            eid_t b = 0, e = 0;
            T du = (T)0;
            if (has) {
                u = ldcg(small + i);
                b = ldg(indptr + u);
                e = ldg(indptr + u + 1);
                u64 ku;
                if constexpr (MODE == PACK) {
                    const u64 word_u = st.packed((long long)u);
                    ku = word_u >> 32;
                    if (defer && (unsigned)word_u == queued_st) e = b;  // F_DEFER
                } else {
                    ku = st.key((long long)u);
                }
                du = val_of<W>(ku, low);
                // C_SMALLDEG: degree-1 vertices were queued (push_near read no degree); F_SKIP1
                // skips them here instead, except the source (operation 0: epoch 1)
                if (!HBF_ONLY && smalldeg && epoch > 1u && e - b == 1 && feat(F_SKIP1)) e = b;
                if (done_on) {  // expanded with this distance already: nothing to do
                    if (ldcg(done + u) == (unsigned)ku) {
                        e = b;
                    } else {
                        done[u] = (unsigned)ku;
                    }
                }
            }
            if (record) record_small(has, u, bucket);
            const eid_t deg = e - b;
            const eid_t incl = warp_inclusive_sum(deg);
            const eid_t total = __shfl_sync(FULL_MASK, incl, WARP_SIZE - 1);
            const eid_t start = b - (incl - deg);
            eid_t r = 0;
            if (ilp2) {  // F_ILP2: SMALL_ROUNDS rounds' loads before any of them is relaxed
                constexpr int R = SMALL_ROUNDS;
                for (; r + WARP_SIZE < total; r += R * WARP_SIZE) {  // 2 rounds or more left
                    int ro[R];
                    V rv[R];
                    W rw[R];
                    unsigned rk[R];
#pragma unroll
                    for (int t = 0; t < R; ++t) {
                        const eid_t x = r + t * WARP_SIZE + lane;
                        const int o = fr::warp_owner(incl, x);
                        ro[t] = o < WARP_SIZE - 1 ? o : WARP_SIZE - 1;
                        const eid_t a = __shfl_sync(FULL_MASK, start, ro[t]) + x;
                        rv[t] = (V)0;
                        rw[t] = (W)0;
                        if (x < total) {
                            rv[t] = arc_load(indices + a);
                            rw[t] = arc_load(weights + a);
                        }
                    }
#pragma unroll
                    for (int t = 0; t < R; ++t) {  // F_PREF: the targets' keys
                        rk[t] = pref ? pref_key(r + t * WARP_SIZE + lane < total, rv[t]) : 0u;
                    }
#pragma unroll
                    for (int t = 0; t < R; ++t) {
                        const eid_t x0 = r + t * WARP_SIZE;  // warp-uniform test
                        if (x0 < total) {
                            edge_loaded(x0 + lane < total, __shfl_sync(FULL_MASK, u, ro[t]),
                                        __shfl_sync(FULL_MASK, du, ro[t]), rv[t], rw[t], arcs,
                                        tk, pref, rk[t]);
                        }
                    }
                }
            }
            for (; r < total; r += WARP_SIZE) {
                const eid_t x = r + lane;
                int owner = fr::warp_owner(incl, x);
                owner = owner < WARP_SIZE - 1 ? owner : WARP_SIZE - 1;
                const V ou = __shfl_sync(FULL_MASK, u, owner);
                const eid_t os = __shfl_sync(FULL_MASK, start, owner);
                const T odu = __shfl_sync(FULL_MASK, du, owner);
                edge(x < total, ou, odu, os + x, arcs, tk);
            }
        }
        for (long long ci = gw; ci < nc; ci += nw) {
            const u64 ent = ldcg(chunks + ci);
            const V u = (V)(ent >> CHUNK_SHIFT);
            const long long j = (long long)(ent & ((1ull << CHUNK_SHIFT) - 1));
            const eid_t rb = ldg(indptr + u), re = ldg(indptr + u + 1);
            eid_t b, e;
            chunk_range<MODE>(rb, re, j, b, e);
            u64 ku;
            if constexpr (MODE == PACK) {
                const u64 word_u = st.packed((long long)u);
                ku = word_u >> 32;
                if (defer && (unsigned)word_u == queued_st) e = b;  // F_DEFER
            } else {
                ku = st.key((long long)u);
            }
            const T du = val_of<W>(ku, low);
            if (done_on) {  // lane 0 decides for the warp
                int skip = 0;
                if (lane == 0) {
                    unsigned* cd = cdone + b / CHUNK;
                    skip = ldcg(cd) == (unsigned)ku;
                    if (!skip) *cd = (unsigned)ku;
                }
                if (__shfl_sync(FULL_MASK, skip, 0)) e = b;
            }
            if (record && j == 0) {
                bool first = false;
                if (lane == 0) first = atomicExch(rstamp + u, bucket) != bucket;
                first = __shfl_sync(FULL_MASK, first, 0);
                if (first) append_chunks(1u, u, re - rb, rc, ctl + R_CHUNK, ccap);
            }
            if (feat(F_ILP)) {
                constexpr int R = CHUNK_ROUNDS;
                for (eid_t p = b; p < e; p += R * WARP_SIZE) {
                    V rv[R];
                    W rw[R];
#pragma unroll
                    for (int t = 0; t < R; ++t) {
                        const eid_t q = p + t * WARP_SIZE + lane;
                        rv[t] = (V)0;
                        rw[t] = (W)0;
                        if (q < e) {
                            rv[t] = arc_load(indices + q);
                            rw[t] = arc_load(weights + q);
                        }
                    }
                    unsigned rk[R];
#pragma unroll
                    for (int t = 0; t < R; ++t) {  // F_PREF: the targets' keys
                        rk[t] = pref ? pref_key(p + t * WARP_SIZE + lane < e, rv[t]) : 0u;
                    }
#pragma unroll
                    for (int t = 0; t < R; ++t) {
                        const eid_t q = p + t * WARP_SIZE;  // warp-uniform test
                        if (q < e) {
                            edge_loaded(q + lane < e, u, du, rv[t], rw[t], arcs, tk, pref,
                                        rk[t]);
                        }
                    }
                }
            } else {
                for (eid_t p = b; p < e; p += WARP_SIZE) {
                    edge(p + lane < e, u, du, p + lane, arcs, tk);
                }
            }
        }
    }

    // Chained expansion (C_CHAIN, near-far on PACK with F_QBUF and filtering; warp-collective,
    // after this warp's share of the operation): up to `rounds` times, the warp takes up to 32
    // of the near vertices it has just queued in its buffer and expands them itself, in this
    // operation, instead of leaving them to the next one (what is left is flushed as usual).
    // Each taken vertex's near stamp is turned into the far stamp of this operation by one
    // atomicAnd, which also returns the distance it is expanded with: a later improvement in
    // this operation sees no near stamp and queues it again (relax returns R_NEAR), so no
    // improvement is lost; an improvement before the atomicAnd is included in the distance
    // read. A frontier vertex deferred (F_DEFER) because it carried the near stamp is expanded
    // here instead (or again, if its own expansion comes later and finds the stamp gone). Fewer
    // operations (grid barriers) on thin frontiers; the work is within the near threshold, as
    // the next operations' would be.
    __device__ void chain(int rounds, u64 tk) {
        if constexpr (MODE == PACK && !HBF_ONLY) {
            const int lane = lane_id();
            const bool skip1 = feat(F_SKIP1);
            for (int round = 0; round < rounds && qb_n > 0; ++round) {
                const int take = qb_n < WARP_SIZE ? qb_n : WARP_SIZE;
                const bool has = lane < take;
                V u = 0;
                if (has) u = qbuf()[qb_n - take + lane];
                __syncwarp();
                qb_n -= take;
                eid_t b = 0, e = 0;
                T du = (T)0;
                if (has) {
                    b = ldg(indptr + u);
                    e = ldg(indptr + u + 1);
                    const u64 old = atomicAnd(st.word + u, ~1ull);  // near stamp 2e+1 -> 2e
                    du = val_of<W>(old >> 32, low);
                    if (skip1 && e - b == 1) e = b;  // never the source (not improvable)
                }
                const eid_t deg = e - b;
                const eid_t incl = warp_inclusive_sum(deg);
                const eid_t total = __shfl_sync(FULL_MASK, incl, WARP_SIZE - 1);
                const eid_t start = b - (incl - deg);
                for (eid_t r = 0; r < total; r += WARP_SIZE) {
                    const eid_t x = r + lane;
                    int owner = fr::warp_owner(incl, x);
                    owner = owner < WARP_SIZE - 1 ? owner : WARP_SIZE - 1;
                    const V ou = __shfl_sync(FULL_MASK, u, owner);
                    const eid_t os = __shfl_sync(FULL_MASK, start, owner);
                    const T odu = __shfl_sync(FULL_MASK, du, owner);
                    edge(x < total, ou, odu, os + x, ARCS_ALL, tk);
                }
            }
        }
    }

    // Rebuild the near frontier from the stamps (after a queue overflow): v is in it iff its
    // near stamp is `want`.
    __device__ void regen(unsigned want) {
        for (long long base = warp_base(); base < n; base += warp_stride()) {
            const long long v = base + lane_id();
            const bool in = v < n && st.near_stamp(v) == want;
            if (__any_sync(FULL_MASK, in)) push_near(in, (V)(in ? v : 0));
        }
    }

    // Near-far split: far entries (or every vertex, `scan`) whose distance is below tk_new join
    // the near frontier, those at or above it stay far; entries below tk_old were expanded
    // already (settled) and are dropped when filtering. Each vertex is queued once.
    __device__ void split(const V* fin, long long count, bool scan, u64 tk_old, u64 tk_new) {
        const long long total = scan ? n : count;
        const unsigned near_st = 2u * epoch + 1u, keep_st = 2u * epoch;
        for (long long base = warp_base(); base < total; base += warp_stride()) {
            const long long i = base + lane_id();
            int res = R_NONE;
            V v = 0;
            u64 key = L::INF;
            if (i < total) {
                v = scan ? (V)i : (V)ldcg(fin + i);
                key = st.key((long long)v);
                if (key != L::INF && !((scan || filter) && key < tk_old)) {
                    if (key < tk_new) {
                        res = atomicMax(st.stamp + v, near_st) < near_st ? R_NEAR : R_NONE;
                    } else if (filter || scan) {
                        res = atomicMax(st.stamp + v, keep_st) < keep_st ? R_FAR : R_NONE;
                    } else {
                        res = R_FAR;
                    }
                }
            }
            if (__any_sync(FULL_MASK, res == R_NEAR)) push_near(res == R_NEAR, v);
            push_far(res == R_FAR, v, key);
        }
    }
};

template <typename T>
__device__ __forceinline__ T vmax(T a, T b) {
    return a > b ? a : b;
}

}  // namespace sssp
}  // namespace wg
