// warpgraph: core decomposition by parallel peeling, the whole run in one cooperative launch.
//
// Level k gives core number k to every remaining vertex of degree <= k, and to every vertex whose
// degree drops to k while the level is peeled, as k-core in SIMD-X; k then jumps to the smallest
// remaining degree. A launch per peel round (the level-synchronous form) paid a launch per round
// and a host read per level: a lattice's 2-core peels in ~700 dependent rounds, and a skewed
// graph has hundreds of levels. Here grid barriers separate the phases of a level and the peel
// itself is an asynchronous worklist (see kcore_decompose). Degrees of removed vertices are never
// read again, so decrementing them is harmless; skipping neighbours whose core is already set
// only saves atomics.
#include "common.cuh"

namespace {
// Entries each lane takes per step of a row walk. A walk is a chain of dependent loads (entry ->
// the neighbour's core -> its degree's atomic); a lattice's 2-core peels as a wave ~700 steps
// deep, so an entry at a time paid that chain 4 times per vertex. A batch issues the loads and
// atomics of BATCH entries back to back and waits once per batch.
constexpr int BATCH = 4;

// Take each valid neighbour u[b] (position p[b] of the row, p[b] < end) down one degree, as far
// as it is still remaining; taken[b]: the one decrement that reached k (core[u] = k is set).
// Degrees of removed vertices are never read again, so skipping them only saves atomics.
template <typename Id>
__device__ __forceinline__ void take_batch(const Id* __restrict__ indices, const long long* p,
                                           long long end, long long* deg, long long* core,
                                           long long k, long long* u, bool* taken) {
    bool live[BATCH];
#pragma unroll
    for (int b = 0; b < BATCH; ++b) {
        live[b] = p[b] < end;
        u[b] = live[b] ? (long long)wg::ldg(indices + p[b]) : 0;
    }
#pragma unroll
    for (int b = 0; b < BATCH; ++b)
        live[b] = live[b] && *(volatile long long*)(core + u[b]) < 0;
    long long old[BATCH];
#pragma unroll
    for (int b = 0; b < BATCH; ++b)
        old[b] = live[b] ? (long long)atomicAdd((unsigned long long*)(deg + u[b]), ~0ULL) : 0;
#pragma unroll
    for (int b = 0; b < BATCH; ++b) {
        taken[b] = live[b] && old[b] == k + 1;
        if (taken[b]) core[u[b]] = k;
    }
}

// Append the taken u[b] to the queue (one atomic per warp on `tail`); adds their count to
// `pushed` and `queued`. Every lane of the warp calls it.
__device__ __forceinline__ void queue_taken(unsigned long long* tail, volatile long long* queue,
                                            const long long* u, const bool* taken,
                                            unsigned long long& pushed,
                                            unsigned long long& queued) {
    unsigned long long want = 0;
#pragma unroll
    for (int b = 0; b < BATCH; ++b) want += taken[b] ? 1 : 0;
    unsigned long long at = wg::warp_reserve(tail, want);
#pragma unroll
    for (int b = 0; b < BATCH; ++b)
        if (taken[b]) queue[at++] = u[b];
    pushed += want;
    queued += want;
}

// Rows up to this length are walked by their own lane, longer ones by the whole warp.
constexpr long long LANE_ROW = 32;
}  // namespace

// ---- the whole decomposition in one cooperative launch -------------------------------------
// Per level, separated by grid barriers: (1) the smallest remaining degree k (atomicMin);
// (2) the scan queues the remaining vertices of degree <= k; (3) a worklist peels the level.
// Within a level the order of removals does not matter (a vertex whose degree drops to k has
// core number k however it got there), so (3) needs no rounds: each warp claims 32 consecutive
// queue slots with one atomic (lane i owns slot base + i) and peels its lanes' vertices as the
// slots are filled. A lane keeps the first neighbour it takes to k as its next vertex instead of
// queueing it: a lattice peels as a wave of ~700 dependent steps, and a step through the queue
// (write, another warp's poll) costs several times a step within the lane. `pending` counts
// queued and kept vertices not yet peeled; a warp adds its new ones and subtracts its peeled ones
// in one atomic (none when they cancel) after its queue entries are written, so pending == 0
// ends the level. The queue holds n slots for the whole run (every vertex is queued or kept
// exactly once), -1 until filled.
// The counters sit on separate 128-byte lines (polled words apart from the atomics' targets).
namespace {
constexpr int C_HEAD = 0, C_TAIL = 16, C_PENDING = 32, C_LOWEST = 48, C_BARRIER = 64;

template <typename Id>
__device__ void peel_level(const long long* __restrict__ indptr, const Id* __restrict__ indices,
                           long long n, long long* queue, unsigned long long* counters,
                           long long* __restrict__ deg, long long* __restrict__ core,
                           long long k, unsigned max_sleep_ns) {
    const int lane = wg::lane_id();
    volatile long long* vqueue = queue;
    volatile unsigned long long* vpending = counters + C_PENDING;
    unsigned sleep_ns = 32;
    while (true) {
        unsigned long long base = 0;
        if (lane == 0) base = atomicAdd(counters + C_HEAD, (unsigned long long)wg::WARP_SIZE);
        base = __shfl_sync(wg::FULL_MASK, base, 0);
        if (base >= (unsigned long long)n) return;  // beyond every vertex: never filled
        const unsigned long long slot = base + lane;
        bool open = slot < (unsigned long long)n;  // this lane's slot not read yet
        long long cur = -1;                        // this lane's vertex to peel
        while (true) {
            if (open) {
                const long long x = vqueue[slot];
                if (x >= 0) {
                    cur = x;
                    open = false;
                }
            }
            const bool ready = cur >= 0;
            const unsigned ready_lanes = __ballot_sync(wg::FULL_MASK, ready);
            if (!ready_lanes) {
                if (!__any_sync(wg::FULL_MASK, open)) break;  // all 32 slots peeled: claim more
                unsigned long long left = 1;
                if (lane == 0) left = *vpending;
                if (__shfl_sync(wg::FULL_MASK, left, 0) == 0) return;  // the level is done
                __nanosleep(sleep_ns);
                sleep_ns = min(2 * sleep_ns, max_sleep_ns);
                continue;
            }
            sleep_ns = 32;
            long long start = 0, end = 0;
            if (ready) {
                start = wg::ldg(indptr + cur);
                end = wg::ldg(indptr + cur + 1);
            }
            long long next = -1;
            unsigned long long pushed = 0, queued_here = 0;
            // short rows: one lane each; the first vertex taken is kept, the others queued
            const long long own_end = ready && end - start <= LANE_ROW ? end : start;
            const long long steps = wg::warp_max(own_end - start);
            for (long long j = 0; j < steps; j += BATCH) {
                long long p[BATCH], u[BATCH];
                bool taken[BATCH];
#pragma unroll
                for (int b = 0; b < BATCH; ++b) p[b] = start + j + b;
                take_batch(indices, p, own_end, deg, core, k, u, taken);
#pragma unroll
                for (int b = 0; b < BATCH; ++b) {
                    if (taken[b] && next < 0) {
                        next = u[b];
                        taken[b] = false;  // kept, not queued
                        ++pushed;
                    }
                }
                queue_taken(counters + C_TAIL, vqueue, u, taken, pushed, queued_here);
            }
            // long rows: the whole warp over each in turn, every vertex taken queued
            unsigned long_rows = __ballot_sync(wg::FULL_MASK, ready && end - start > LANE_ROW);
            while (long_rows) {
                const int src = __ffs(long_rows) - 1;
                long_rows &= long_rows - 1;
                const long long s = __shfl_sync(wg::FULL_MASK, start, src);
                const long long e = __shfl_sync(wg::FULL_MASK, end, src);
                for (long long p0 = s; p0 < e; p0 += BATCH * wg::WARP_SIZE) {
                    long long p[BATCH], u[BATCH];
                    bool taken[BATCH];
#pragma unroll
                    for (int b = 0; b < BATCH; ++b) p[b] = p0 + b * wg::WARP_SIZE + lane;
                    take_batch(indices, p, e, deg, core, k, u, taken);
                    queue_taken(counters + C_TAIL, vqueue, u, taken, pushed, queued_here);
                }
            }
            cur = next;
            // A step that keeps as many vertices as it peels (a lattice's wave, mostly) leaves
            // `pending` as it is: no atomic on that contended word, no fence.
            const unsigned long long net =
                wg::warp_sum(pushed) - (unsigned long long)__popc(ready_lanes);
            if (__any_sync(wg::FULL_MASK, queued_here != 0))
                __threadfence();  // queued entries are visible before the peeled stop pending
            if (lane == 0 && net != 0) atomicAdd(counters + C_PENDING, net);
        }
    }
}
}  // namespace

// Core numbers of all vertices (core[] all -1, queue[] all -1, counters zero but the lowest
// degree's word, which starts at ~0): one cooperative launch (launch_cooperative).
template <typename Id>
__global__ void kcore_decompose(const long long* __restrict__ indptr,
                                const Id* __restrict__ indices, long long n, long long* queue,
                                unsigned long long* counters, long long* __restrict__ deg,
                                long long* __restrict__ core, unsigned max_sleep_ns) {
    volatile unsigned long long* vc = counters;
    unsigned long long phase = 0;
    const bool first_thread = wg::global_thread_id() == 0;
    while (true) {
        // (1) the smallest remaining degree; the queue is quiet, so the claims restart here
        unsigned long long low = ~0ULL;
        for (long long base = wg::warp_base(); base < n; base += wg::warp_stride()) {
            const long long v = base + wg::lane_id();
            if (v < n && core[v] < 0) low = min(low, (unsigned long long)deg[v]);
        }
        low = wg::warp_min(low);
        if (wg::lane_id() == 0 && low != ~0ULL) atomicMin(counters + C_LOWEST, low);
        if (first_thread) counters[C_HEAD] = vc[C_TAIL];
        wg::grid_sync(counters + C_BARRIER, phase);
        const unsigned long long lowest = vc[C_LOWEST];
        if (lowest == ~0ULL) return;  // every vertex has its core number
        const long long k = (long long)lowest;
        // (2) the level's first entries
        unsigned long long taken_here = 0;
        for (long long base = wg::warp_base(); base < n; base += wg::warp_stride()) {
            const long long v = base + wg::lane_id();
            const bool take = v < n && core[v] < 0 && deg[v] <= k;
            if (take) core[v] = k;
            const unsigned long long at = wg::warp_reserve(counters + C_TAIL, take ? 1ULL : 0ULL);
            if (take) queue[at] = v;
            taken_here += take ? 1 : 0;
        }
        taken_here = wg::warp_sum(taken_here);
        if (wg::lane_id() == 0 && taken_here) atomicAdd(counters + C_PENDING, taken_here);
        wg::grid_sync(counters + C_BARRIER, phase);
        if (first_thread) counters[C_LOWEST] = ~0ULL;  // every thread has read it by now
        // (3) the level
        peel_level(indptr, indices, n, queue, counters, deg, core, k, max_sleep_ns);
        wg::grid_sync(counters + C_BARRIER, phase);
    }
}

#ifdef WARPGRAPH_NVCC_CHECK
template __global__ void kcore_decompose<int>(const long long*, const int*, long long, long long*,
                                              unsigned long long*, long long*, long long*,
                                              unsigned);
template __global__ void kcore_decompose<long long>(const long long*, const long long*, long long,
                                                    long long*, unsigned long long*, long long*,
                                                    long long*, unsigned);
#endif
