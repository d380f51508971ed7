"""The relax step shared by the CPU's delta-stepping, near-far and frontier Bellman-Ford
(:mod:`.cpu`), and the pieces its loops share.

One relax step is edge-balanced: the frontier's out-degrees are prefix-summed, the arcs cut
into chunks (64 to ``_CHUNK`` arcs), and each chunk writes the vertices whose distance it
lowered (an atomic compare-and-swap min on the distance's bit pattern,
:func:`warpgraph.cpu.atomics.cas`, inlined) into its own slice of a buffer, so no two threads
share a write position. Whether a step runs in parallel follows a threshold adapted to the
measured fork-join cost (:func:`_relax_step`); large frontiers are sorted first
(:func:`_sort_frontier`). With frontier filtering a vertex is expanded only if its distance
changed since it was last expanded (``settled[u] != dist[u]``). On graphs of small out-degree
the step is vertex-chunked and each chunk relaxes the vertices it lowers into the current
bucket itself, from a bounded worklist (bucket fusion, :func:`_relax_vchunk`).

The hot loops call no function with array arguments (a Numba call updates the arrays'
reference counts: about 100 ns a push, measured), hence the intrinsics and inlined atomics.

Examples
--------
>>> import numpy as np
>>> int(_bin(7, 2)), _infinity(np.int64) == np.iinfo(np.int64).max, _infinity(np.float32)
(3, True, inf)
"""

from __future__ import annotations

import numba as nb
import numpy as np
from llvmlite import ir
from numba import types
from numba.core import cgutils
from numba.cpython.unsafe.numbers import trailing_zeros
from numba.extending import intrinsic

from ...cpu.atomics import cas

_CHUNK = 4096  # arcs per chunk of a parallel relax step (one output slice each)
_PAR_MIN_ARCS = 1 << 9  # relax steps with fewer arcs always run on one thread; the
_PAR_START_ARCS = 1 << 9  # threshold starts here and adapts to the measured fork-join cost
_PAR_MAX_ARCS = 1 << 22  # (see _relax_step)
_PAR_PROBE = 32
_PAR_MIN_VERTICES = 1 << 16  # frontiers with fewer vertices are prefix-summed on one thread
# (each parallel region is a fork-join: on a busy machine it waits for a descheduled thread)
_SORT_RATIO = 64  # frontiers of at least n / _SORT_RATIO vertices are sorted first
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


@nb.njit(cache=True, nogil=True)
def _bin(d, delta):
    """Bucket number of distance ``d >= 0`` (monotone in ``d``)."""
    q = np.float64(d) / np.float64(delta)
    if q > _BIN_CAP:
        q = _BIN_CAP
    return np.int64(q)


def _infinity(dtype) -> int | float:
    """The distance of an unreachable vertex in ``dtype``: its largest integer, or ``inf``."""
    dtype = np.dtype(dtype)
    return np.iinfo(dtype).max if dtype.kind in "iu" else np.inf


@nb.njit(cache=True, nogil=True)
def _ensure(arr, need):
    """``arr``, or a copy grown to hold at least ``need`` items (doubling)."""
    if arr.shape[0] >= need:
        return arr
    out = np.empty(max(need, 2 * arr.shape[0]), dtype=arr.dtype)
    out[: arr.shape[0]] = arr
    return out


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


@nb.njit(cache=True, nogil=True, inline="always")
def _atomic_lower(bits, dist, v, nd):
    """Atomic min of ``dist[v]`` (through its bit pattern ``bits``) with ``nd``: compare-and-swap
    until this thread lowered it (True) or it is no longer lower (False)."""
    old_bits = bits[v]
    while nd < _from_bits(old_bits, dist):
        seen = cas(bits, v, old_bits, _to_bits(nd, bits))
        if seen == old_bits:
            return True
        old_bits = seen
    return False


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
            if _atomic_lower(bits, dist, v, nd):
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
def _step_state(n, indices, bucketed):
    """What a run of :func:`_relax_step` keeps between steps, at its starting sizes: the
    buffers ``(offsets, out_v, out_b, counts, bitmap)`` (``out_b``, the pushes' buckets, only
    ``bucketed``; the others grow as steps need), the flags and the parallel-threshold tuning
    (``tune[3]``: the number of parallel steps)."""
    buf = (
        np.empty(64, np.int64),
        np.empty(64, indices.dtype),
        np.empty(64 if bucketed else 1, np.int32),
        np.empty(8, np.int64),
        np.zeros((n + 63) // 64, np.uint64),
    )
    flags = np.zeros(1, dtype=np.int64)
    tune = np.array([_PAR_START_ARCS, 0.0, 0.0, 0.0])
    return buf, flags, tune


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
        tune[3] += 1
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


# ---------------------------------------------------------------------------- vertex chunks
_VMAX_DEGREE = 16  # graphs of at most this out-degree take the vertex-chunked step (roads and
# grids, 4; uniform 2^20 x 16, 62, measured mixed: its large frontiers make the prefix sum cheap)
_VCHUNK = 1024  # frontier vertices per chunk of a parallel vertex-chunked step (at most)
_VCHUNKS = 16  # chunks of a parallel vertex-chunked step (small frontiers), unless told: sssp_cpu
_VCHUNKS_PER_THREAD = 2  # asks for this many per thread (session 45, c879ff0)
_FUSE = 512  # bucket fusion: current-bucket vertices a chunk may queue and relax itself per step
_FUSE_PAR = 16  # a parallel step's chunks share _FUSE_PAR * fuse (16 chunks of 512 before c879ff0)
_FUSE_TOTAL = 64 * _FUSE  # ... over all chunks of a step (the worklists' space; large frontiers)


@nb.njit(parallel=True, cache=True, nogil=True)
def _max_degree(indptr):
    """The largest out-degree (one parallel pass over ``indptr``)."""
    n = indptr.shape[0] - 1
    m = 0
    for i in nb.prange(n):
        m = max(m, indptr[i + 1] - indptr[i])
    return m


@nb.njit(cache=True, nogil=True)
def _relax_vchunk(c, indptr, indices, w, dist, bits, settled, F, nf, vch, dmax, qcap, filt, delta,
                  cur, out_v, out_b, counts, arcs):  # fmt: skip
    """Relax the out-arcs of frontier vertices ``[c * vch, (c + 1) * vch)``: the frontier filter
    and the relaxation in one pass, no prefix sum; the arcs it relaxed go to ``arcs[c]``.

    **Bucket fusion** (GAPBS's, without barriers): a vertex this chunk lowers into the current
    bucket (``rel <= 0``) goes to the chunk's own worklist and is relaxed in this same step,
    after the frontier vertices, in the order found; once ``qcap`` vertices were queued (the
    bound on the fused work), further current-bucket pushes go out to the next step as before.
    Every lowered vertex is queued or pushed, and a queued one passes the same frontier filter
    (``settled``) when it is taken, so a vertex lowered again elsewhere is still expanded at
    its final distance. The chunk's slice of ``out_v`` (:func:`_vslice` entries) holds its
    pushes (at most ``dmax`` per relaxed vertex: ``(vch + qcap) * dmax``), then the worklist
    (its frontier vertices and the queued ones: ``vch + qcap``)."""
    i0 = c * vch
    i1 = min(nf, i0 + vch)
    a0 = c * _vslice(vch, dmax, qcap)
    # the worklist out_v[qh:qt], after the pushes: the chunk's frontier vertices, then the
    # current-bucket vertices it lowers (up to qcap of them, qend)
    one = _U(1)
    qh = _U(a0 + (vch + qcap) * dmax)
    qt = qh
    for i in range(_U(i0), _U(i1)):
        out_v[qt] = F[i]
        qt += one
    qend = qt + _U(qcap)
    cnt = 0
    na = 0
    while qh < qt:
        u = _U(out_v[qh])
        qh += one
        du = dist[u]
        if filt:
            if settled[u] == du:
                continue
            settled[u] = du
        e0 = indptr[u]
        e1 = indptr[u + _U(1)]
        na += e1 - e0
        for e in range(_U(e0), _U(e1)):
            v = _U(indices[e])
            nd = du + w[e]
            if not nd < dist[v]:
                continue
            if _atomic_lower(bits, dist, v, nd):
                rel = _bin(nd, delta) - cur
                if rel <= 0 and qt < qend:
                    out_v[qt] = indices[e]
                    qt += one
                else:
                    out_v[a0 + cnt] = indices[e]
                    out_b[a0 + cnt] = np.int32(min(rel, 2147483647))
                    cnt += 1
    counts[c] = cnt
    arcs[c] = na


@nb.njit(cache=True, nogil=True, inline="always")
def _vslice(vch, dmax, qcap):
    """Entries of ``out_v`` per chunk of :func:`_relax_vchunk`: pushes, then the worklist."""
    return (vch + qcap) * (dmax + 1)


@nb.njit(parallel=True, cache=True, nogil=True)
def _relax_vpar(indptr, indices, w, dist, bits, settled, F, nf, vch, dmax, qcap, filt, delta, cur,
                out_v, out_b, counts, arcs):  # fmt: skip
    nch = (nf + vch - 1) // vch
    for c in nb.prange(nch):
        _relax_vchunk(np.int64(c), indptr, indices, w, dist, bits, settled, F, nf, vch, dmax,
                      qcap, filt, delta, cur, out_v, out_b, counts, arcs)  # fmt: skip


@nb.njit(cache=True, nogil=True)
def _relax_vstep(indptr, indices, w, dist, bits, settled, F, f, filt, delta, cur, buf, dmax,
                 avg_degree, par, tune, fuse, vchunks):  # fmt: skip
    """:func:`_relax_step` for graphs of small maximum out-degree ``dmax`` (delta-stepping and
    near-far): the frontier is cut into chunks of vertices, not arcs, so no serial prefix sum
    of its degrees precedes the relaxation (each chunk filters its vertices and writes at most
    ``dmax`` pushes per vertex into its own slice), and each chunk relaxes the vertices it
    lowers into the current bucket itself (bucket fusion, :func:`_relax_vchunk`): up to
    ``fuse`` in a serial step, ``_FUSE_PAR * fuse`` shared by the ``vchunks`` chunks of a
    parallel one (more chunks for large frontiers), at most ``_FUSE_TOTAL`` over them. Returns
    ``(buffers, nchunks, f, chunk, arcs)``; ``buf[0]`` holds the chunks' arc counts. The
    parallel/serial choice is :func:`_relax_step`'s, on the estimate ``f * avg_degree`` arcs;
    ``tune[3]`` counts the parallel steps (fork-joins)."""
    bm = buf[4]
    if f * _SORT_RATIO >= bm.shape[0] * 64:
        f = _sort_frontier(F, f, bm)
    est = np.float64(f) * avg_degree
    parallel = par and est >= tune[0]
    if par and not parallel and est >= _PAR_MIN_ARCS:
        tune[2] += 1
        if tune[2] >= _PAR_PROBE:
            parallel = True
            tune[2] = 0
    # Parallel steps: ``vchunks`` chunks (sssp_cpu: 2 per thread; more for frontiers over
    # _VCHUNK vertices a chunk), sharing _FUSE_PAR * fuse fused vertices. Few, deep worklists
    # re-relax less than 16 of 512 each (c879ff0: a chunk that runs ahead relaxes vertices
    # that a chunk after it lowers again; on one thread the 16 chunks ran one after another).
    # (The thread count comes as an argument: numba.get_num_threads() in a jitted function
    # keeps it, and its callers, out of the on-disk cache.)
    nt = max(vchunks, 1) if parallel else 1
    vch = min(_VCHUNK, max(16, (f + nt - 1) // nt)) if parallel else max(f, 1)
    nch = (f + vch - 1) // vch
    qcap = min(fuse * _FUSE_PAR // nt if parallel else fuse, _FUSE_TOTAL // nch)
    arcs = buf[0]
    if arcs.shape[0] < nch:
        arcs = np.empty(max(nch, 2 * arcs.shape[0]), dtype=np.int64)
    counts = buf[3]
    if counts.shape[0] < nch:
        counts = np.empty(max(nch, 2 * counts.shape[0]), dtype=np.int64)
    out_v = buf[1]
    out_b = buf[2]
    need = nch * _vslice(vch, dmax, qcap)
    if out_v.shape[0] < need:
        out_v = np.empty(max(need, 2 * out_v.shape[0]), dtype=out_v.dtype)
        out_b = np.empty(out_v.shape[0], dtype=np.int32)
    t0 = _cycles()
    if parallel:
        tune[3] += 1
        _relax_vpar(indptr, indices, w, dist, bits, settled, F, f, vch, dmax, qcap, filt, delta,
                    cur, out_v, out_b, counts, arcs)  # fmt: skip
    else:
        for c in range(nch):
            _relax_vchunk(c, indptr, indices, w, dist, bits, settled, F, f, vch, dmax, qcap, filt,
                          delta, cur, out_v, out_b, counts, arcs)  # fmt: skip
    spent = np.float64(_cycles() - t0)
    total = 0
    for c in range(nch):
        total += arcs[c]
    if total >= 256:
        if not parallel:
            tune[1] = 0.8 * tune[1] + 0.2 * (spent / total) if tune[1] > 0 else spent / total
        elif tune[1] > 0:
            serial = tune[1] * total
            if spent > 2.0 * serial:
                tune[0] = min(2.0 * tune[0], _PAR_MAX_ARCS)
            elif spent < serial:
                tune[0] = max(min(0.5 * tune[0], float(total)), _PAR_MIN_ARCS)
    return (arcs, out_v, out_b, counts, bm), nch, f, _vslice(vch, dmax, qcap), total
