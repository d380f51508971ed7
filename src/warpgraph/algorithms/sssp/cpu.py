"""Single-source shortest paths on the CPU with Numba: delta-stepping, near-far, frontier
Bellman-Ford (H-BF) and Dijkstra.

Methods
-------
* **delta-stepping** (Meyer and Sanders, J. Algorithms 49(1), 2003; the GAPBS ``sssp.cc``
  organisation): vertices wait in buckets of width ``delta`` by tentative distance; the lowest
  non-empty bucket is the frontier and is relaxed in parallel until it stays empty, then the next
  bucket is taken. Buckets live in a window of ``_WINDOW`` consecutive bucket slots (a pool of
  fixed-size chunks, so a bucket grows without copying); pushes beyond the window go to one
  overflow pile that is re-sorted into the window when the window runs dry.
* **near-far** (Davidson, Baxter, Garland and Owens, IPDPS 2014): the same engine with a
  window of one bucket: the near pile is the current bucket, everything else waits in the far
  pile, which is split again by the next threshold when the near pile empties.
* **frontier Bellman-Ford** (H-BF, Busato and Bombieri, IEEE TPDS 2016, thesis ch. 8): every
  round relaxes the out-arcs of the vertices whose distance changed in the previous round.
  Negative weights are allowed; a negative cycle is found by a round bound (no shortest path
  has ``n`` arcs), a distance bound (no simple path is shorter than ``-(n - 1) max|w|``) and
  periodic searches for a cycle in the predecessor graph (Cherkassky and Goldberg's
  "walk to root"); a cycle found there is checked to have negative weight before it is reported.
* **Dijkstra**: sequential, an indexed binary heap with decrease-key; many sources run in
  parallel, one per thread.

One relax step (delta-stepping and Bellman-Ford) is edge-balanced: the frontier's out-degrees
are prefix-summed, the arcs cut into chunks (64 to ``_CHUNK`` arcs), and each chunk writes the
vertices whose distance it lowered (an atomic compare-and-swap min, :func:`_cas`) into its own
slice of a buffer, so no two threads share a write position. Whether a step runs in parallel
follows a threshold adapted to the measured fork-join cost (:func:`_relax_step`); large
frontiers are sorted first (:func:`_sort_frontier`). **Frontier filtering**
(``filtering=True``): a vertex is expanded only if its distance changed since it was last
expanded (``settled[u] != dist[u]``), which removes both duplicate
frontier entries and stale bucket entries (seed 003's duplicate and settled filters).

Distances: int64 for integer weights (unreachable = ``np.iinfo(np.int64).max``), the weights'
float dtype for float weights (unreachable = ``inf``). Python loops run per bucket or round,
never per vertex or arc; the hot loops call no function with array arguments (a Numba call
updates the arrays' reference counts: about 100 ns a push, measured).

Examples
--------
>>> import numpy as np
>>> indptr = np.array([0, 2, 3, 3]); indices = np.array([1, 2, 2], dtype=np.int32)
>>> w = np.array([4, 1, 2], dtype=np.int32)
>>> sssp_cpu(indptr, indices, w, 0, method="delta", delta=2).tolist()
[0, 4, 1]
>>> sssp_cpu(indptr, indices, w, 0, method="hbf").tolist()
[0, 4, 1]
"""

from __future__ import annotations

import numba as nb
import numpy as np
from llvmlite import ir
from numba import types
from numba.core import cgutils
from numba.cpython.unsafe.numbers import trailing_zeros
from numba.extending import intrinsic

from ...errors import NegativeCycleError

__all__ = ["dijkstra_cpu", "predecessors_cpu", "sssp_cpu", "weight_stats"]

_CHUNK = 4096  # arcs per chunk of a parallel relax step (one output slice each)
_PAR_MIN_ARCS = 1 << 9  # relax steps with fewer arcs always run on one thread; the
_PAR_START_ARCS = 1 << 9  # threshold starts here and adapts to the measured fork-join cost
_PAR_MAX_ARCS = 1 << 22  # (see _relax_step)
_PAR_PROBE = 32
_PAR_MIN_VERTICES = 1 << 16  # frontiers with fewer vertices are prefix-summed on one thread
# (each parallel region is a fork-join: on a busy machine it waits for a descheduled thread)
_PCH = 256  # vertices per chunk of the bucket pool
_WINDOW = 1024  # bucket slots of delta-stepping (beyond: the overflow pile)
_SORT_RATIO = 64  # frontiers of at least n / _SORT_RATIO vertices are sorted first
_INT32_SAFE = 2**30  # max weight x n below this: delta-stepping keeps int32 distances
_U = np.uint64  # hot loops index with unsigned integers: no negative-index wraparound code
_BIN_CAP = 4.0e18  # bucket numbers are clipped here (float distances / tiny delta)


# ---------------------------------------------------------------------------- intrinsics
@intrinsic
def _cycles(typingctx):
    """The CPU's cycle counter (``llvm.readcyclecounter``): times relax steps for the
    parallel/serial choice (see :func:`_relax_step`)."""
    sig = types.uint64()

    def codegen(context, builder, sig, args):
        fnty = ir.FunctionType(ir.IntType(64), [])
        fn = cgutils.get_or_insert_function(builder.module, fnty, "llvm.readcyclecounter")
        return builder.call(fn, [])

    return sig, codegen


@intrinsic
def _from_bits(typingctx, bits, like):
    """The value of ``like``'s dtype whose bit pattern is ``bits`` (ints: the value itself)."""
    if not isinstance(like, types.Array) or not isinstance(bits, types.Integer):
        return None
    dt = like.dtype
    sig = dt(bits, like)

    def codegen(context, builder, sig, args):
        if isinstance(dt, types.Float):
            return builder.bitcast(args[0], context.get_value_type(dt))
        return context.cast(builder, args[0], sig.args[0], dt)

    return sig, codegen


@intrinsic
def _to_bits(typingctx, value, bits_arr):
    """The bit pattern of ``value`` as ``bits_arr``'s integer dtype (ints: the value itself)."""
    if not isinstance(bits_arr, types.Array):
        return None
    dt = bits_arr.dtype
    sig = dt(value, bits_arr)

    def codegen(context, builder, sig, args):
        if isinstance(sig.args[0], types.Float):
            return builder.bitcast(args[0], context.get_value_type(dt))
        return context.cast(builder, args[0], sig.args[0], dt)

    return sig, codegen


@intrinsic
def _cas(typingctx, arr, idx, expected, desired):
    """Atomic compare-and-swap on ``arr[idx]`` (1-D integer array, unsigned index); returns the
    old value. An intrinsic, so it compiles in place: the hot loops call no function with array
    arguments (each such call costs reference-count updates, about 100 ns a push measured)."""
    if not isinstance(arr, types.Array) or not isinstance(arr.dtype, types.Integer):
        return None
    sig = arr.dtype(arr, idx, expected, desired)

    def codegen(context, builder, sig, args):
        aryty, idxty, expty, desty = sig.args
        ary = context.make_array(aryty)(context, builder, args[0])
        i = context.cast(builder, args[1], idxty, types.intp)
        ptr = cgutils.get_item_pointer(context, builder, aryty, ary, [i], wraparound=False)
        exp = context.cast(builder, args[2], expty, aryty.dtype)
        des = context.cast(builder, args[3], desty, aryty.dtype)
        pair = builder.cmpxchg(ptr, exp, des, "monotonic", "monotonic")
        return builder.extract_value(pair, 0)

    return sig, codegen


@nb.njit(cache=True, nogil=True)
def _bin(d, delta):
    """Bucket number of distance ``d >= 0`` (monotone in ``d``)."""
    q = np.float64(d) / np.float64(delta)
    if q > _BIN_CAP:
        q = _BIN_CAP
    return np.int64(q)


# ---------------------------------------------------------------------------- weight scan
def weight_stats(w: np.ndarray) -> tuple[float, float, float, int]:
    """``(min, max, mean, non_finite_count)`` of a weight array (NumPy reductions).

    Examples
    --------
    >>> weight_stats(np.array([3, -1, 4], dtype=np.int32))
    (-1.0, 4.0, 2.0, 0)
    """
    if w.shape[0] == 0:
        return 0.0, 0.0, 0.0, 0
    lo, hi = float(w.min()), float(w.max())
    if not (np.isfinite(lo) and np.isfinite(hi)):
        return lo, hi, float("nan"), int(w.shape[0] - np.count_nonzero(np.isfinite(w)))
    return lo, hi, float(w.mean(dtype=np.float64)), 0


# ---------------------------------------------------------------------------- relax steps
@nb.njit(parallel=True, cache=True, nogil=True)
def _frontier_offsets_par(indptr, dist, settled, F, f, filt, offs):
    """:func:`_frontier_offsets` with the degrees gathered in parallel (large frontiers)."""
    for i in nb.prange(f):
        u = _U(F[i])
        d = indptr[u + _U(1)] - indptr[u]
        if filt:
            du = dist[u]
            if settled[u] == du:
                d = 0
            else:
                settled[u] = du
        offs[i + 1] = d
    offs[0] = 0
    for i in range(f):
        offs[i + 1] += offs[i]
    return offs[f]


@nb.njit(cache=True, nogil=True)
def _frontier_offsets(indptr, dist, settled, F, f, filt, offs):
    """Exclusive prefix sum of the out-degrees of ``F[:f]`` into ``offs``; a vertex already
    expanded at its current distance counts 0 arcs when filtering (and is marked otherwise)."""
    offs[0] = 0
    for i in range(f):
        u = _U(F[i])
        d = indptr[u + _U(1)] - indptr[u]
        if filt:
            du = dist[u]
            if settled[u] == du:
                d = 0
            else:
                settled[u] = du
        offs[i + 1] = offs[i] + d
    return offs[f]


@nb.njit(cache=True, nogil=True)
def _relax_chunk(c, indptr, indices, w, dist, bits, F, nf, offs, total, ch, delta, cur, out_v,
                 out_b, counts, pred, flags, lower_bound):  # fmt: skip
    """Relax arcs ``[c * ch, (c + 1) * ch)`` of the frontier; pushes go to the chunk's
    own slice of ``out_v`` (and their bucket, relative to ``cur``, to ``out_b``)."""
    a0 = c * ch
    a1 = min(total, a0 + ch)
    i = np.searchsorted(offs[: nf + 1], a0, side="right") - 1
    want_pred = pred.shape[0] > 0
    bins = cur >= 0
    cnt = 0
    a = a0
    while a < a1:
        while offs[i + 1] <= a:
            i += 1
        u = _U(F[i])
        stop = min(a1, offs[i + 1])
        e0 = indptr[u] + (a - offs[i])
        e1 = e0 + (stop - a)
        du = dist[u]
        for e in range(_U(e0), _U(e1)):
            v = _U(indices[e])
            nd = du + w[e]
            if not nd < dist[v]:
                continue
            # atomic min: compare-and-swap on the bit pattern until lowered or not lower
            lowered = False
            old_bits = bits[v]
            while nd < _from_bits(old_bits, dist):
                seen = _cas(bits, v, old_bits, _to_bits(nd, bits))
                if seen == old_bits:
                    lowered = True
                    break
                old_bits = seen
            if lowered:
                out_v[a0 + cnt] = indices[e]
                if bins:
                    rel = _bin(nd, delta) - cur
                    out_b[a0 + cnt] = np.int32(min(rel, 2147483647))
                if want_pred:
                    pred[v] = u
                if nd < lower_bound:
                    flags[0] = 1
                cnt += 1
        a = stop
    counts[c] = cnt


@nb.njit(parallel=True, cache=True, nogil=True)
def _relax_par(indptr, indices, w, dist, bits, F, nf, offs, total, ch, delta, cur, out_v, out_b,
               counts, pred, flags, lower_bound):  # fmt: skip
    nch = (total + ch - 1) // ch
    for c in nb.prange(nch):
        _relax_chunk(np.int64(c), indptr, indices, w, dist, bits, F, nf, offs, total, ch, delta,
                     cur, out_v, out_b, counts, pred, flags, lower_bound)  # fmt: skip


@nb.njit(cache=True, nogil=True)
def _relax_seq(indptr, indices, w, dist, bits, F, nf, offs, total, ch, delta, cur, out_v, out_b,
               counts, pred, flags, lower_bound):  # fmt: skip
    nch = (total + ch - 1) // ch
    for c in range(nch):
        _relax_chunk(c, indptr, indices, w, dist, bits, F, nf, offs, total, ch, delta, cur, out_v,
                     out_b, counts, pred, flags, lower_bound)  # fmt: skip


@nb.njit(cache=True, nogil=True)
def _sort_frontier(F, f, bm):
    """Sort ``F[:f]`` by vertex id and drop duplicates through the bitmap ``bm`` (left zero);
    returns the new length. O(f + n / 64): worth it for large frontiers, whose adjacency rows
    are then read in memory order."""
    one = np.uint64(1)
    for i in range(f):
        u = np.uint64(F[i])
        bm[u >> np.uint64(6)] |= one << (u & np.uint64(63))
    k = 0
    for wi in range(bm.shape[0]):
        x = bm[wi]
        if x == 0:
            continue
        bm[wi] = 0
        base = wi * 64
        while x != 0:
            F[k] = base + np.int64(trailing_zeros(x))
            k += 1
            x &= x - one
    return k


@nb.njit(cache=True, nogil=True)
def _relax_step(indptr, indices, w, dist, bits, settled, F, f, filt, delta, cur, buf, pred,
                flags, lower_bound, par, tune):  # fmt: skip
    """One relax step over ``F[:f]``; returns ``(buffers, nchunks, f, chunk)``: the buffers
    ``(offsets, out_v, out_b, counts, bitmap)`` are reused from ``buf`` or grown here, and a
    large frontier is first sorted and deduplicated in place (``f`` its new length)."""
    bm = buf[4]
    if f * _SORT_RATIO >= bm.shape[0] * 64:
        f = _sort_frontier(F, f, bm)
    offs = buf[0]
    if offs.shape[0] < f + 1:
        offs = np.empty(max(f + 1, 2 * offs.shape[0]), dtype=np.int64)
    if par and f >= _PAR_MIN_VERTICES:
        total = _frontier_offsets_par(indptr, dist, settled, F, f, filt, offs)
    else:
        total = _frontier_offsets(indptr, dist, settled, F, f, filt, offs)
    out_v = buf[1]
    out_b = buf[2]
    if out_v.shape[0] < total:
        out_v = np.empty(max(total, 2 * out_v.shape[0]), dtype=out_v.dtype)
        if cur >= 0:
            out_b = np.empty(out_v.shape[0], dtype=np.int32)
    # Adaptive parallel threshold (tune[0], in arcs): a parallel step is a fork-join, about a
    # microsecond on an idle machine but up to a scheduler time slice when the cores are shared
    # (the other thread is descheduled). Each step is timed; tune[1] is the serial cost per arc
    # (cycles, running mean). A parallel step over twice the serial estimate doubles the
    # threshold, one under it lowers the threshold (within _PAR_MIN_ARCS.._PAR_MAX_ARCS); every
    # _PAR_PROBE-th serial step that could run in parallel does, to find out (tune[2] counts).
    parallel = par and total >= tune[0]
    if par and not parallel and total >= _PAR_MIN_ARCS:
        tune[2] += 1
        if tune[2] >= _PAR_PROBE:  # now and then, try a parallel step below the threshold
            parallel = True
            tune[2] = 0
    # parallel steps get at least 16 chunks (of 64 to _CHUNK arcs) for the threads to share
    ch = min(_CHUNK, max(64, (total + 15) // 16)) if parallel else _CHUNK
    nch = (total + ch - 1) // ch
    counts = buf[3]
    if counts.shape[0] < nch:
        counts = np.empty(max(nch, 2 * counts.shape[0]), dtype=np.int64)
    t0 = _cycles()
    if parallel:
        _relax_par(indptr, indices, w, dist, bits, F, f, offs, total, ch, delta, cur, out_v,
                   out_b, counts, pred, flags, lower_bound)  # fmt: skip
    else:
        _relax_seq(indptr, indices, w, dist, bits, F, f, offs, total, ch, delta, cur, out_v,
                   out_b, counts, pred, flags, lower_bound)  # fmt: skip
    spent = np.float64(_cycles() - t0)
    if total >= 256:
        if not parallel:
            tune[1] = 0.8 * tune[1] + 0.2 * (spent / total) if tune[1] > 0 else spent / total
        elif tune[1] > 0:
            serial = tune[1] * total
            if spent > 2.0 * serial:
                tune[0] = min(2.0 * tune[0], _PAR_MAX_ARCS)
            elif spent < serial:
                tune[0] = max(min(0.5 * tune[0], float(total)), _PAR_MIN_ARCS)
    return (offs, out_v, out_b, counts, bm), nch, f, ch


# ---------------------------------------------------------------------------- bucket pool
@nb.njit(cache=True, nogil=True)
def _slot_drain(s, out, pool, cnext, free, st, head, tail, fill, size):
    """Move bucket slot ``s`` into ``out[:size[s]]`` and free its chunks; returns the count."""
    k = 0
    c = head[s]
    while c >= 0:
        cnt = fill[s] if c == tail[s] else _PCH
        base = c * _PCH
        for j in range(cnt):
            out[k + j] = pool[base + j]
        k += cnt
        nxt = cnext[c]
        free[st[0]] = c
        st[0] += 1
        c = nxt
    head[s] = -1
    tail[s] = -1
    fill[s] = 0
    size[s] = 0
    return k


@nb.njit(cache=True, nogil=True)
def _grow_pool(pool, cnext, free, st, need):
    """Pool arrays with at least ``need`` free chunks (the same arrays if they suffice)."""
    if st[0] >= need:
        return pool, cnext, free
    old = cnext.shape[0]
    new = max(2 * old, old + need)
    pool2 = np.empty(new * _PCH, dtype=pool.dtype)
    pool2[: old * _PCH] = pool
    cnext2 = np.empty(new, dtype=np.int64)
    cnext2[:old] = cnext
    free2 = np.empty(new, dtype=np.int64)
    free2[: st[0]] = free[: st[0]]
    for c in range(old, new):
        free2[st[0]] = c
        st[0] += 1
    return pool2, cnext2, free2


@nb.njit(cache=True, nogil=True)
def _ensure(arr, need):
    if arr.shape[0] >= need:
        return arr
    out = np.empty(max(need, 2 * arr.shape[0]), dtype=arr.dtype)
    out[: arr.shape[0]] = arr
    return out


# ---------------------------------------------------------------------------- delta-stepping
@nb.njit(cache=True, nogil=True)
def _delta_run(indptr, indices, w, dist, bits, settled, source, delta, window, filt, par):
    """Delta-stepping (``window`` bucket slots; 1 = near-far) from ``source`` into ``dist``.

    Returns the number of relax steps and of arcs relaxed."""
    n = indptr.shape[0] - 1
    vt = indices.dtype
    F = np.empty(64, dtype=vt)
    nxt = np.empty(64, dtype=vt)
    F[0] = source
    f = np.int64(1)
    dist[source] = 0
    cur = np.int64(0)
    nch0 = 64
    pool = np.empty(nch0 * _PCH, dtype=vt)
    cnext = np.empty(nch0, dtype=np.int64)
    free = np.arange(nch0 - 1, -1, -1).astype(np.int64)
    st = np.array([nch0], dtype=np.int64)
    head = np.full(window, -1, dtype=np.int64)
    tail = np.full(window, -1, dtype=np.int64)
    fill = np.zeros(window, dtype=np.int64)
    size = np.zeros(window, dtype=np.int64)
    in_window = 0
    ovf = np.empty(64, dtype=vt)
    novf = 0
    ovf_min = np.int64(1) << 62
    buf = (
        np.empty(64, np.int64),
        np.empty(64, vt),
        np.empty(64, np.int32),
        np.empty(8, np.int64),
        np.zeros((n + 63) // 64, np.uint64),
    )
    no_pred = np.empty(0, dtype=np.int64)
    flags = np.zeros(1, dtype=np.int64)
    tune = np.array([_PAR_START_ARCS, 0.0, 0.0])
    steps = 0
    work = 0
    total_pushes = 0
    while True:
        while f > 0:
            buf, nch, f, ch = _relax_step(indptr, indices, w, dist, bits, settled, F, f, filt,
                                          delta, cur, buf, no_pred, flags, -np.inf,
                                          par, tune)  # fmt: skip
            steps += 1
            work += buf[0][f]
            out_v, out_b, counts = buf[1], buf[2], buf[3]
            pushes = 0
            for c in range(nch):
                pushes += counts[c]
            total_pushes += pushes
            nxt = _ensure(nxt, pushes)
            ovf = _ensure(ovf, novf + pushes)
            pool, cnext, free = _grow_pool(pool, cnext, free, st, window + pushes // _PCH + 2)
            nn = 0
            for c in range(nch):
                base = c * ch
                for j in range(counts[c]):
                    v = out_v[base + j]
                    rel = out_b[base + j]
                    if rel <= 0:
                        nxt[nn] = v
                        nn += 1
                    elif rel < window:
                        # bucket append written out: no call with array arguments per push
                        sl = (cur + rel) % window
                        t = tail[sl]
                        if t < 0 or fill[sl] == _PCH:
                            st[0] -= 1
                            t = free[st[0]]
                            cnext[t] = -1
                            if tail[sl] < 0:
                                head[sl] = t
                            else:
                                cnext[tail[sl]] = t
                            tail[sl] = t
                            fill[sl] = 0
                        pool[t * _PCH + fill[sl]] = v
                        fill[sl] += 1
                        size[sl] += 1
                        in_window += 1
                    else:
                        ovf[novf] = v
                        novf += 1
                        ovf_min = min(ovf_min, cur + rel)
            F, nxt = nxt, F
            f = nn
        # the bucket is empty: the next one is the lowest non-empty slot or overflow bucket
        nb_ = np.int64(-1)
        if in_window > 0:
            for r in range(1, window):
                if size[(cur + r) % window] > 0:
                    nb_ = cur + r
                    break
        if novf > 0 and (nb_ < 0 or ovf_min <= nb_):
            # re-sort the overflow pile: drop entries settled at a bucket <= cur
            lowest = np.int64(1) << 62
            k = 0
            for j in range(novf):
                v = ovf[j]
                b = _bin(dist[v], delta)
                if b > cur:
                    ovf[k] = v
                    k += 1
                    lowest = min(lowest, b)
            novf = k
            target = lowest if nb_ < 0 else min(lowest, nb_)
            pool, cnext, free = _grow_pool(pool, cnext, free, st, window + novf // _PCH + 2)
            k = 0
            ovf_min = np.int64(1) << 62
            for j in range(novf):
                v = ovf[j]
                b = _bin(dist[v], delta)
                if b < target + window:
                    sl = b % window  # bucket append written out, as in the push loop
                    t = tail[sl]
                    if t < 0 or fill[sl] == _PCH:
                        st[0] -= 1
                        t = free[st[0]]
                        cnext[t] = -1
                        if tail[sl] < 0:
                            head[sl] = t
                        else:
                            cnext[tail[sl]] = t
                        tail[sl] = t
                        fill[sl] = 0
                    pool[t * _PCH + fill[sl]] = v
                    fill[sl] += 1
                    size[sl] += 1
                    in_window += 1
                else:
                    ovf[k] = v
                    k += 1
                    ovf_min = min(ovf_min, b)
            novf = k
            nb_ = target
        if nb_ < 0:
            break
        cur = nb_
        s = cur % window
        F = _ensure(F, size[s])
        in_window -= size[s]
        f = _slot_drain(s, F, pool, cnext, free, st, head, tail, fill, size)
    return steps, work, total_pushes


# ---------------------------------------------------------------------------- Bellman-Ford
@nb.njit(cache=True, nogil=True)
def _pred_cycle(pred, mark):
    """A vertex on a cycle of the predecessor graph, or -1 (``mark`` is scratch, size n)."""
    n = pred.shape[0]
    mark[:] = 0
    for v in range(n):
        if mark[v] != 0:
            continue
        tag = v + 1
        x = v
        while x >= 0 and mark[x] == 0:
            mark[x] = tag
            x = pred[x]
        if x >= 0 and mark[x] == tag:
            return x
    return -1


@nb.njit(cache=True, nogil=True)
def _cycle_of(x, pred, indptr, indices, w):
    """The cycle through ``x`` of the predecessor graph in arc order, and its weight (the
    lightest arc between consecutive vertices), as float64."""
    back = [x]
    y = pred[x]
    while y != x:
        back.append(y)
        y = pred[y]
    k = len(back)
    cyc = np.empty(k, dtype=np.int64)
    cyc[0] = x
    for i in range(1, k):
        cyc[i] = back[k - i]
    total = 0.0
    for i in range(k):
        u, v = cyc[i], cyc[(i + 1) % k]
        best = np.inf
        for e in range(indptr[u], indptr[u + 1]):
            if indices[e] == v:
                best = min(best, np.float64(w[e]))
        total += best
    return cyc, total


@nb.njit(cache=True, nogil=True)
def _bf_run(indptr, indices, w, dist, bits, settled, pred, mark, source, filt, negative, max_abs,
            par, max_rounds):  # fmt: skip
    """Frontier Bellman-Ford from ``source``. Returns ``(status, vertex, cycle)``: status 0 done,
    1 negative cycle (``cycle`` in arc order, ``vertex`` on it), 2 a negative cycle is certain
    (round or distance bound) but none was seen in the predecessor graph yet, 3 ``max_rounds``
    reached; then the rounds and arcs relaxed. ``par=False`` runs on one thread, so the
    predecessors stay consistent and every cycle among them is negative."""
    n = indptr.shape[0] - 1
    vt = indices.dtype
    F = np.empty(64, dtype=vt)
    nxt = np.empty(64, dtype=vt)
    F[0] = source
    f = np.int64(1)
    dist[source] = 0
    buf = (
        np.empty(64, np.int64),
        np.empty(64, vt),
        np.empty(1, np.int32),
        np.empty(8, np.int64),
        np.zeros((n + 63) // 64, np.uint64),
    )
    flags = np.zeros(1, dtype=np.int64)
    tune = np.array([_PAR_START_ARCS, 0.0, 0.0])
    lower_bound = -np.float64(max_abs) * np.float64(max(n - 1, 1)) if negative else -np.inf
    no_cycle = np.empty(0, dtype=np.int64)
    use_pred = pred if negative else np.empty(0, dtype=np.int64)
    rounds = 0
    work = 0
    last_check_work = 0
    next_check_round = 8
    while f > 0:
        if rounds >= max_rounds:
            return 3, np.int64(F[0]), no_cycle, rounds, work
        rounds += 1
        buf, nch, f, ch = _relax_step(indptr, indices, w, dist, bits, settled, F, f, filt,
                                      np.int64(1), np.int64(-1), buf, use_pred, flags,
                                      lower_bound, par, tune)  # fmt: skip
        out_v, counts = buf[1], buf[3]
        nn = 0
        for c in range(nch):
            nn += counts[c]
        nxt = _ensure(nxt, nn)
        nn = 0
        for c in range(nch):
            base = c * ch
            for j in range(counts[c]):
                nxt[nn] = out_v[base + j]
                nn += 1
        work += buf[0][f] + f
        F, nxt = nxt, F
        f = nn
        if not negative or f == 0:
            continue
        certain = rounds >= n or flags[0] != 0
        if certain or rounds >= next_check_round or work - last_check_work > n + indptr[n]:
            next_check_round = 2 * rounds
            last_check_work = work
            x = _pred_cycle(pred, mark)
            if x >= 0:
                cyc, weight = _cycle_of(x, pred, indptr, indices, w)
                if weight < 0:
                    return 1, x, cyc, rounds, work
            if certain and par:
                return 2, np.int64(F[0]), no_cycle, rounds, work
    return 0, np.int64(-1), no_cycle, rounds, work


# ---------------------------------------------------------------------------- Dijkstra
@nb.njit(cache=True, nogil=True)
def _dijkstra_one(indptr, indices, w, dist, source, heap, pos):
    """Dijkstra with an indexed binary heap (``pos[v]``: slot of ``v``, -1 absent, -2 done).
    The sift loops are written out (no call with array arguments per heap operation)."""
    dist[source] = 0
    heap[0] = source
    pos[source] = 0
    size = 1
    while size > 0:
        u = heap[0]
        pos[u] = -2
        size -= 1
        if size > 0:  # sift the last entry down from the root
            x = heap[size]
            dx = dist[x]
            i = 0
            while True:
                child = 2 * i + 1
                if child >= size:
                    break
                cv = heap[child]
                if child + 1 < size and dist[heap[child + 1]] < dist[cv]:
                    child += 1
                    cv = heap[child]
                if dist[cv] >= dx:
                    break
                heap[i] = cv
                pos[cv] = i
                i = child
            heap[i] = x
            pos[x] = i
        du = dist[u]
        for e in range(_U(indptr[u]), _U(indptr[u + 1])):
            v = _U(indices[e])
            p = pos[v]
            if p == -2:
                continue
            nd = du + w[e]
            if nd < dist[v]:
                dist[v] = nd
                if p == -1:
                    p = size
                    size += 1
                while p > 0:  # sift v up
                    parent = (p - 1) >> 1
                    pv = heap[parent]
                    if dist[pv] <= nd:
                        break
                    heap[p] = pv
                    pos[pv] = p
                    p = parent
                heap[p] = v
                pos[v] = p


@nb.njit(parallel=True, cache=True, nogil=True)
def _dijkstra_many(indptr, indices, w, dist, sources):
    n = indptr.shape[0] - 1
    for i in nb.prange(sources.shape[0]):
        heap = np.empty(max(n, 1), dtype=np.int64)
        pos = np.full(n, -1, dtype=np.int64)
        _dijkstra_one(indptr, indices, w, dist[i], sources[i], heap, pos)


def dijkstra_cpu(indptr, indices, weights, sources, dist_dtype) -> np.ndarray:
    """Dijkstra from each of ``sources`` (non-negative weights), one source per thread.

    Examples
    --------
    >>> indptr = np.array([0, 2, 3, 3]); indices = np.array([1, 2, 2], dtype=np.int32)
    >>> dijkstra_cpu(indptr, indices, np.array([4, 1, 2]), np.array([0]), np.int64).tolist()
    [[0, 4, 1]]
    """
    n = indptr.shape[0] - 1
    dist = np.full((len(sources), n), _infinity(dist_dtype), dtype=dist_dtype)
    _dijkstra_many(indptr, indices, weights, dist, np.asarray(sources, dtype=np.int64))
    return dist


# ---------------------------------------------------------------------------- predecessors
@nb.njit(parallel=True, cache=True, nogil=True)
def _pred_strict(indptr, indices, w, dist, inf, pred):
    """``pred[v] = u`` for a tight arc ``u -> v`` with ``dist[u] < dist[v]`` (acyclic by
    construction); returns how many reachable vertices found none."""
    n = indptr.shape[0] - 1
    for u in nb.prange(n):
        du = dist[u]
        if du == inf:
            continue
        for e in range(_U(indptr[u]), _U(indptr[u + 1])):
            v = _U(indices[e])
            dv = dist[v]
            if du < dv and du + w[e] == dv:
                pred[v] = u
    missing = 0
    for v in nb.prange(n):
        if dist[v] != inf and pred[v] < 0:
            missing += 1
    return missing


@nb.njit(cache=True, nogil=True)
def _pred_bfs(indptr, indices, w, dist, source, pred):
    """A breadth-first tree over the tight arcs from ``source`` (handles zero-weight and
    negative arcs, where tight arcs can form cycles)."""
    n = indptr.shape[0] - 1
    pred[:] = -1
    seen = np.zeros(n, dtype=np.bool_)
    queue = np.empty(n, dtype=np.int64)
    queue[0] = source
    seen[source] = True
    head, tail = 0, 1
    while head < tail:
        u = queue[head]
        head += 1
        du = dist[u]
        for e in range(_U(indptr[u]), _U(indptr[u + 1])):
            v = _U(indices[e])
            if not seen[v] and du + w[e] == dist[v]:
                seen[v] = True
                pred[v] = u
                queue[tail] = v
                tail += 1


def predecessors_cpu(indptr, indices, weights, dist, source: int) -> np.ndarray:
    """A shortest-path tree of final distances ``dist``: ``pred[v]`` is the vertex before ``v``
    on a shortest path from ``source``; -1 for the source and unreachable vertices.

    Examples
    --------
    >>> indptr = np.array([0, 2, 3, 3]); indices = np.array([1, 2, 2], dtype=np.int32)
    >>> w = np.array([4, 1, 2]); d = np.array([0, 4, 1])
    >>> predecessors_cpu(indptr, indices, w, d, 0).tolist()
    [-1, 0, 0]
    """
    n = indptr.shape[0] - 1
    pred = np.full(n, -1, dtype=np.int64)
    inf = _infinity(dist.dtype)
    missing = _pred_strict(indptr, indices, weights, dist, inf, pred)
    if missing > 1 or (missing == 1 and pred[source] != -1):
        _pred_bfs(indptr, indices, weights, dist, source, pred)
    pred[source] = -1
    return pred


@nb.njit(parallel=True, cache=True, nogil=True)
def _widen(d32, out):
    """int32 distances into int64 ``out``, the int32 sentinel becoming the int64 one."""
    big = np.iinfo(np.int32).max
    for i in nb.prange(d32.shape[0]):
        x = d32[i]
        out[i] = np.iinfo(np.int64).max if x == big else x


# ---------------------------------------------------------------------------- driver
def _infinity(dtype) -> int | float:
    dtype = np.dtype(dtype)
    return np.iinfo(dtype).max if dtype.kind in "iu" else np.inf


def _bits_view(dist: np.ndarray) -> np.ndarray:
    if dist.dtype.kind == "f":
        return dist.view(np.int32 if dist.dtype.itemsize == 4 else np.int64)
    return dist


def sssp_cpu(
    indptr: np.ndarray,
    indices: np.ndarray,
    weights: np.ndarray,
    source: int,
    *,
    method: str = "delta",
    delta: float | None = None,
    filtering: bool = True,
    negative: bool | None = None,
    max_abs: float | None = None,
    dist: np.ndarray | None = None,
    stats: dict | None = None,
) -> np.ndarray:
    """Distances from one ``source`` with ``method`` ``"delta"``, ``"near_far"`` or ``"hbf"``.

    Trusts its input (``api.sssp`` checks it): non-negative weights for delta/near-far, float
    weights of the distance dtype. ``negative`` and ``max_abs`` describe the weights (computed
    here when not given).

    Raises
    ------
    NegativeCycleError
        ``method="hbf"`` and a negative cycle is reachable from ``source``.
    """
    n = indptr.shape[0] - 1
    dtype = np.dtype(np.int64) if weights.dtype.kind in "iu" else weights.dtype
    inf = _infinity(dtype)
    if dist is None:
        dist = np.full(n, inf, dtype=dtype)
    else:
        dist[:] = inf
    settled = np.full(n, inf, dtype=dtype) if method == "hbf" else None
    bits = _bits_view(dist)
    if method in ("delta", "near_far"):
        if delta is None:
            delta = default_delta_from(weights, indptr)
        d = np.int64(max(1, int(delta))) if dtype.kind in "iu" else dtype.type(delta)
        window = 1 if method == "near_far" else _WINDOW
        if max_abs is None and weights.dtype == np.int32:
            max_abs = weight_stats(weights)[1]
        narrow = weights.dtype == np.int32 and max_abs * max(n, 1) < _INT32_SAFE
        if narrow:
            # Every label is the length of a simple path (non-negative weights), so int32
            # distances cannot overflow; half the memory traffic of int64 (GAPBS's choice).
            run_dist = np.full(n, np.iinfo(np.int32).max, dtype=np.int32)
            run_settled, run_bits = run_dist.copy(), run_dist
        else:
            run_dist, run_settled, run_bits = dist, np.full(n, inf, dtype=dtype), bits
        steps, work, pushes = _delta_run(indptr, indices, weights, run_dist, run_bits,
                                         run_settled, source, d, window, filtering,
                                         True)  # fmt: skip
        if narrow:
            _widen(run_dist, dist)
        if stats is not None:
            stats.update(steps=int(steps), arcs=int(work), pushes=int(pushes), int32=narrow)
        return dist
    if method != "hbf":
        raise ValueError(f"unknown CPU method {method!r}")
    if negative is None or max_abs is None:
        lo, hi, _, _ = weight_stats(weights)
        negative, max_abs = lo < 0, max(abs(lo), abs(hi))
    pred = np.full(n, -1, dtype=np.int64) if negative else np.empty(0, dtype=np.int64)
    mark = np.empty(n if negative else 0, dtype=np.int64)
    args = (indptr, indices, weights, dist, bits, settled, pred, mark, source, filtering,
            bool(negative), float(max_abs))  # fmt: skip
    status, vertex, cycle, rounds, work = _bf_run(*args, True, n + 1)
    if status == 2:
        # A negative cycle is certain: start again on one thread, where the predecessor
        # graph stays consistent and shows the cycle (every cycle in it is negative).
        dist[:] = inf
        settled[:] = inf
        pred[:] = -1
        status, vertex, cycle, rounds, work = _bf_run(*args, False, 4 * n + 64)
    if status == 1:
        raise NegativeCycleError(int(vertex), [int(x) for x in cycle])
    if status in (2, 3):
        raise NegativeCycleError(int(vertex), None)
    if stats is not None:
        stats.update(steps=int(rounds), arcs=int(work))
    return dist


def default_delta_from(weights: np.ndarray, indptr: np.ndarray) -> float:
    """The automatic bucket width (see :func:`warpgraph.algorithms.sssp.config.choose_delta`)."""
    from .config import choose_delta

    n = indptr.shape[0] - 1
    _, hi, mean, _ = weight_stats(weights)
    return choose_delta(mean, hi, weights.shape[0] / max(n, 1), weights.dtype.kind in "iu")
