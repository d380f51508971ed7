"""Delta-stepping and near-far on the CPU: the bucket engine behind
``sssp_cpu(method="delta" | "near_far")`` (:mod:`.cpu`).

* **delta-stepping** (Meyer and Sanders, J. Algorithms 49(1), 2003; the GAPBS ``sssp.cc``
  organisation): vertices wait in buckets of width ``delta`` by tentative distance; the lowest
  non-empty bucket is the frontier and is relaxed in parallel until it stays empty, then the next
  bucket is taken. Buckets live in a window of ``_WINDOW`` consecutive bucket slots (a pool of
  fixed-size chunks, so a bucket grows without copying); pushes beyond the window go to one
  overflow pile that is re-sorted into the window when the window runs dry.
* **near-far** (Davidson, Baxter, Garland and Owens, IPDPS 2014): the same engine with a
  window of one bucket: the near pile is the current bucket, everything else waits in the far
  pile, which is split again by the next threshold when the near pile empties.

Each step is :func:`._cpu_relax._relax_step`, or on graphs of out-degree at most
``_cpu_relax._VMAX_DEGREE`` (roads, grids) :func:`._cpu_relax._relax_vstep`, whose chunks of
frontier vertices filter and relax in one parallel pass, with no serial prefix sum of the
frontier's degrees before each step (2026-12-03, session 44: that serial pass was a fifth of a
2-thread search on the road-like and grid graphs, docs/SSSP.md), and which relax the vertices
they lower into the current bucket themselves, up to ``fuse`` per chunk and step (bucket
fusion, session 45: 5-9x fewer steps and fork-joins on those graphs). Python loops run per
call, never per bucket, vertex or arc.

Examples
--------
>>> import numpy as np
>>> indptr = np.array([0, 2, 3, 3]); indices = np.array([1, 2, 2], dtype=np.int32)
>>> w = np.array([4, 1, 2], dtype=np.int64); dist = np.full(3, np.iinfo(np.int64).max)
>>> steps, arcs, pushes, par_steps = _delta_run(indptr, indices, w, dist, dist, dist.copy(),
...                                             0, np.int64(2), _WINDOW, True, False)
>>> dist.tolist()
[0, 4, 1]
"""

from __future__ import annotations

import numba as nb
import numpy as np

from ._cpu_relax import (
    _FUSE,
    _VCHUNKS,
    _VMAX_DEGREE,
    _bin,
    _ensure,
    _max_degree,
    _relax_step,
    _relax_vstep,
    _step_state,
)

_PCH = 256  # vertices per chunk of the bucket pool
_WINDOW = 1024  # bucket slots of delta-stepping (beyond: the overflow pile)


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


# ---------------------------------------------------------------------------- delta-stepping
@nb.njit(cache=True, nogil=True)
def _delta_run(indptr, indices, w, dist, bits, settled, source, delta, window, filt, par,
               fuse=_FUSE, dmax=-1, vchunks=_VCHUNKS):  # fmt: skip
    """Delta-stepping (``window`` bucket slots; 1 = near-far) from ``source`` into ``dist``;
    ``fuse``: the bucket-fusion bound of the vertex-chunked steps (0: none); ``dmax``: the
    graph's largest out-degree if known (else found here, one parallel pass over ``indptr``);
    ``vchunks``: chunks of a parallel vertex-chunked step (``sssp_cpu``: 2 per thread).

    Returns the numbers of relax steps, arcs relaxed, pushes and parallel steps."""
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
    buf, flags, tune = _step_state(n, indices, True)
    no_pred = np.empty(0, dtype=np.int64)
    # small out-degrees (roads, grids): vertex-chunked steps, no serial prefix sum per step
    if not par:
        dmax = _VMAX_DEGREE + 1
    elif dmax < 0:
        dmax = _max_degree(indptr)
    vmode = dmax <= _VMAX_DEGREE
    avg_degree = indices.shape[0] / max(n, 1)
    steps = 0
    work = 0
    total_pushes = 0
    while True:
        while f > 0:
            if vmode:
                buf, nch, f, ch, arcs = _relax_vstep(indptr, indices, w, dist, bits, settled, F,
                                                     f, filt, delta, cur, buf, dmax, avg_degree,
                                                     par, tune, fuse, vchunks)  # fmt: skip
            else:
                buf, nch, f, ch = _relax_step(indptr, indices, w, dist, bits, settled, F, f,
                                              filt, delta, cur, buf, no_pred, flags, -np.inf,
                                              par, tune)  # fmt: skip
                arcs = buf[0][f]
            steps += 1
            work += arcs
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
    return steps, work, total_pushes, np.int64(tune[3])
