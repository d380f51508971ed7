// warpgraph: the steps of a level of iBFS's joint traversal (64 searches a word), shared by
// ibfs.cu (distance statistics, level counts) and harmonic.cu.
//
// A search runs either one launch per step of each level (ibfs.cu's ibfs_expand, then the
// caller's `*_step` kernel; the host reads *last_level after each level), or all its levels in
// one cooperative launch of a persistent kernel (ibfs_levels below, grid barriers between the
// steps): a level launched from the host costs two launches and a read back (~25-75 us on an
// H100), which a lattice's thousand levels make the whole time, while a batch of many groups
// ran 8-30 % faster as launches (warpgraph.algorithms.bfs.multi_source.PERSISTENT_WORDS).
//
// Sparse levels (persistent kernels only). A step that visits every word of the batch costs
// the batch's size at every level, though one search's frontier on a lattice or a road network
// is a thin ring; a group's is the union of its 64 rings, a band as wide as its sources are
// spread (64 consecutive ids of grid:128: 22 % of the words a level; sources grouped by
// neighbourhood, algorithms/bfs/source_groups.py, keep it thinner). So the persistent kernel
// keeps each group's frontier as a list of its words (IbfsLists) while the lists stay short:
// a level whose longest list holds at most `limit` words expands only the listed words, which
// append the words they reach first in this level (atomicOr's old word 0: once a word a
// level) to the other list, and its settling visits only those. A dense level
// (a longer list somewhere) visits every word, and its settling lists the new words again,
// one atomic a warp, until some group's list passes `limit` (the next level is dense anyway).
//
// Group g's words for vertex v sit at g * stride + v. The arrays a persistent kernel writes
// between its grid barriers (front, seen, found, the lists) are plain pointers here: a
// const __restrict__ one may be read through the non-coherent cache, which a barrier does not
// refresh.
#pragma once

#include "common.cuh"

namespace wg {

// Word i: the searches that reached its vertex in the last level (front) mark every neighbour
// they have not seen in its next word (atomicOr).
template <typename V>
__device__ __forceinline__ void ibfs_expand_word(long long i, const long long* __restrict__ indptr,
                                                 const V* __restrict__ indices, long long stride,
                                                 const unsigned long long* front,
                                                 const unsigned long long* seen,
                                                 unsigned long long* found) {
    const unsigned long long f = front[i];
    if (f == 0) return;
    const long long g = i / stride, v = i - g * stride;
    const long long base = g * stride;
    for (long long j = indptr[v]; j < indptr[v + 1]; ++j) {
        const long long u = base + (long long)indices[j];
        // (a plain read first: where other frontier vertices already set these bits, no
        // atomic; a stale read only costs an atomic that changes nothing)
        const unsigned long long add = f & ~seen[u] & ~found[u];
        if (add) atomicOr(found + u, add);
    }
}

// The settling of word i: the new word becomes the frontier and joins the seen word; returns it.
__device__ __forceinline__ unsigned long long ibfs_settle_word(long long i, unsigned long long* seen,
                                                               unsigned long long* front,
                                                               unsigned long long* found) {
    const unsigned long long w = found[i];
    front[i] = w;
    if (w) {
        found[i] = 0;
        seen[i] |= w;
    }
    return w;
}

// A persistent search's two frontier lists: list k holds, per group g, counts[k * width + g]
// word offsets (vertices) at entries[(k * width + g) * stride ...] in any order. limit 0: no
// lists (every level dense).
struct IbfsLists {
    unsigned int* entries;
    unsigned int* counts;
    long long stride, width;
    unsigned int limit;
};

// How a step visits its words: every word of the batch (dense), or the words of list `list`
// (sparse: `chunks` = the longest list's 32-word chunks). A dense settling appends its new
// words to list `list` (while `lists.limit` allows).
struct IbfsPass {
    IbfsLists lists;
    int list;
    bool sparse;
    long long chunks;
};

// The pass of a launched step: dense, no lists.
__device__ __forceinline__ IbfsPass dense_pass(long long stride, long long width) {
    return IbfsPass{IbfsLists{nullptr, nullptr, stride, width, 0u}, 0, false, 0};
}

// The longest of list k's counts, in every thread of the block (all its threads must call).
__device__ __forceinline__ unsigned int longest_list(const IbfsLists& lists, int k) {
    __shared__ unsigned int longest;
    if (threadIdx.x == 0) longest = 0;
    __syncthreads();
    const volatile unsigned int* counts = lists.counts + k * lists.width;
    unsigned int m = 0;
    for (long long g = threadIdx.x; g < lists.width; g += blockDim.x) {
        const unsigned int c = counts[g];
        m = c > m ? c : m;
    }
    m = warp_max(m);
    if (lane_id() == 0 && m) atomicMax(&longest, m);
    __syncthreads();
    const unsigned int r = longest;
    __syncthreads();  // (longest is written again by the next call)
    return r;
}

// A level's pass over list k: sparse when every group's list holds at most lists.limit words
// (or `sparse` is given: a settling follows its expansion's choice). All threads must call.
__device__ __forceinline__ IbfsPass list_pass(const IbfsLists& lists, int k, int sparse) {
    IbfsPass p{lists, k, false, 0};
    if (lists.limit == 0 || sparse == 0) return p;
    const unsigned int m = longest_list(lists, k);
    p.sparse = sparse == 1 || m <= lists.limit;
    p.chunks = ((long long)m + WARP_SIZE - 1) / WARP_SIZE;
    return p;
}

// body(i, valid, group) for a step's words, a warp at a time: the 32 lanes of a warp call it
// together, with words of one group (a lane without a word: valid false, i its group's first).
// Dense: every word of the batch; sparse: the words of list p.list.
template <typename Body>
__device__ __forceinline__ void ibfs_for_words(const IbfsPass& p, Body body) {
    const long long stride = p.lists.stride, width = p.lists.width;
    const int lane = lane_id();
    if (!p.sparse) {
        const long long total = width * stride;  // (a multiple of 32: a warp's words, one group)
        for (long long base = warp_base(); base < total; base += warp_stride()) {
            body(base + lane, true, base / stride);
        }
        return;
    }
    const volatile unsigned int* counts = p.lists.counts + p.list * width;
    const unsigned int* entries = p.lists.entries + p.list * width * stride;
    const long long slots = width * p.chunks;
    for (long long s = warp_base() / WARP_SIZE; s < slots; s += warp_stride() / WARP_SIZE) {
        const long long g = s / p.chunks;
        const long long j = (s - g * p.chunks) * WARP_SIZE + lane;
        const long long count = counts[g];
        if (j - lane >= count) continue;  // (the whole warp: past this group's list)
        const bool valid = j < count;
        body(g * stride + (valid ? (long long)entries[g * stride + j] : 0), valid, g);
    }
}

// A dense settling's new words (w != 0) appended to list p.list, one atomic a warp, until the
// group's list passes the limit (then the next level is dense: the list is not read). Every
// lane of the warp calls it, with words of group g.
__device__ __forceinline__ void list_new_words(const IbfsPass& p, long long i, unsigned long long w,
                                               long long g) {
    if (p.sparse || p.lists.limit == 0) return;  // (a sparse level's list holds them already)
    const unsigned mask = __ballot_sync(FULL_MASK, w != 0);
    if (mask == 0) return;
    unsigned int* count = p.lists.counts + p.list * p.lists.width + g;
    unsigned int at = 0xffffffffu;
    if (lane_id() == 0 && *(volatile unsigned int*)count <= p.lists.limit) {
        at = atomicAdd(count, (unsigned)__popc(mask));
    }
    at = __shfl_sync(FULL_MASK, at, 0);
    if (at == 0xffffffffu || w == 0) return;
    const long long stride = p.lists.stride;
    const unsigned rank = __popc(mask & ((1u << lane_id()) - 1u));
    p.lists.entries[(p.list * p.lists.width + g) * stride + at + rank] = (unsigned)(i - g * stride);
}

// The expansion of a level: a dense pass, every word (a thread a word); a sparse one, the
// words of its list, each cleared from front as it is read (so front holds only the frontier
// at every expansion) and each word reached first appended to the other list. A warp's lanes
// (words of one group) take their rows' arcs in step, so that the words the warp reaches first
// at each step are appended with one atomic (a group's list count is one address: an atomic a
// word queued the whole batch on a few counters).
template <typename V>
__device__ __forceinline__ void ibfs_expand_pass(const IbfsPass& p,
                                                 const long long* __restrict__ indptr,
                                                 const V* __restrict__ indices,
                                                 unsigned long long* front,
                                                 const unsigned long long* seen,
                                                 unsigned long long* found) {
    const long long stride = p.lists.stride, width = p.lists.width;
    if (!p.sparse) {
        const long long total = width * stride;
        for (long long i = global_thread_id(); i < total; i += grid_threads()) {
            ibfs_expand_word(i, indptr, indices, stride, front, seen, found);
        }
        return;
    }
    const int next = p.list ^ 1;
    const int lane = lane_id();
    ibfs_for_words(p, [&](long long i, bool valid, long long g) {
        const long long base = g * stride;
        unsigned long long f = 0;
        long long j = 0, end = 0;
        if (valid) {
            f = front[i];
            front[i] = 0;
            j = indptr[i - base];
            end = indptr[i - base + 1];
        }
        const long long steps = warp_max(end - j);
        unsigned int* count = p.lists.counts + next * width + g;
        unsigned int* entries = p.lists.entries + (next * width + g) * stride;
        for (long long k = 0; k < steps; ++k, ++j) {
            long long u = -1;
            if (j < end) {
                const long long w = (long long)indices[j];
                const unsigned long long add = f & ~seen[base + w] & ~found[base + w];
                if (add && atomicOr(found + base + w, add) == 0) u = w;
            }
            const unsigned mask = __ballot_sync(FULL_MASK, u >= 0);
            if (mask == 0) continue;
            unsigned int at = 0;
            if (lane == __ffs(mask) - 1) at = atomicAdd(count, (unsigned)__popc(mask));
            at = __shfl_sync(FULL_MASK, at, __ffs(mask) - 1);
            if (u >= 0) entries[at + __popc(mask & ((1u << lane) - 1u))] = (unsigned)u;
        }
    });
}

// The settling's visit of its words: body(i, valid, group) for the words of the pass (a warp
// at a time, as ibfs_for_words), each valid word settled first (ibfs_settle_word) and given to
// the body as w (0 for a lane without a word); a dense pass lists the new words.
template <typename Body>
__device__ __forceinline__ void ibfs_settle_pass(const IbfsPass& p, unsigned long long* seen,
                                                 unsigned long long* front,
                                                 unsigned long long* found, Body body) {
    ibfs_for_words(p, [&](long long i, bool valid, long long g) {
        const unsigned long long w = valid ? ibfs_settle_word(i, seen, front, found) : 0ull;
        list_new_words(p, i, w, g);
        body(i, w, g);
    });
}

// Every level of the batch in one launch (all blocks resident: a cooperative launch): the
// expansion (dense, or of list `cur`'s words), a barrier, `step(level, pass)` (which settles
// the words of `pass`, through ibfs_settle_pass, and writes *last_level = level when any was
// new), a barrier; ends after a level that found nothing, or after `top`. List cur is cleared
// during the step (the expansion, its only reader, is done), so the next level's expansion
// appends to an empty list. Every block reads the same *last_level and counts: the next writes
// come after the next barrier.
template <typename V, typename Step>
__device__ __forceinline__ void ibfs_levels(const long long* __restrict__ indptr,
                                            const V* __restrict__ indices, long long stride,
                                            long long width, unsigned long long* seen,
                                            unsigned long long* front, unsigned long long* found,
                                            long long top, long long* last_level,
                                            unsigned long long* barrier, const IbfsLists& lists,
                                            Step step) {
    unsigned long long phase = 0;
    int cur = 0;  // (the host lists the sources' words in list 0)
    for (long long level = 1; level <= top; ++level) {
        const IbfsPass expand = list_pass(lists, cur, -1);
        ibfs_expand_pass(expand, indptr, indices, front, seen, found);
        grid_sync(barrier, phase);
        step(level, list_pass(lists, cur ^ 1, expand.sparse ? 1 : 0));
        if (lists.limit) {
            for (long long g = global_thread_id(); g < width; g += grid_threads()) {
                lists.counts[cur * width + g] = 0;
            }
        }
        grid_sync(barrier, phase);
        if (*(volatile long long*)last_level != level) return;
        cur ^= 1;
    }
}

}  // namespace wg
