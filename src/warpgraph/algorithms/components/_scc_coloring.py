"""Coloring rounds for the CPU multi-step SCC (:mod:`.scc_cpu`).

``color[v] = v``, max propagation to a fixed point along arcs inside each subgraph (by sweeps,
or a queue of vertices whose colour rose), then the backward closure of each root
(``color[r] == r``) inside its colour is an SCC (:func:`._scc_reach._reach`); the other vertices
take their colour as new subgraph id.

Examples
--------
>>> import numpy as np
>>> from warpgraph.algorithms.components.scc_config import SCCConfig
>>> from warpgraph.algorithms.components.scc_cpu import transpose_csr
>>> ptr = np.array([0, 1, 3, 3]); idx = np.array([1, 0, 2], dtype=np.int32)  # 0 <-> 1 -> 2
>>> b = np.array([0, 3])
>>> G = (ptr, idx, *transpose_csr(ptr, idx, 3), b, b)
>>> part, label = np.zeros(3, np.int32), np.full(3, -1, np.int32)
>>> _coloring(G, part, label, np.zeros(3, np.uint8), SCCConfig())
>>> label.tolist()
[1, 1, 2]
"""

from __future__ import annotations

import numba as nb
import numpy as np

from ...cpu.atomics import cas
from ...cpu.queues import LOCAL_QUEUE, flush
from ._scc_reach import _reach, _threads
from .scc_config import SCCConfig


@nb.njit(inline="always", nogil=True)
def _raise_to(a, i, val):
    """Atomic ``a[i] = max(a[i], val)``; True when this call raised it."""
    old = a[i]
    while old < val:
        prev = cas(a, i, old, val)
        if prev == old:
            return True
        old = prev
    return False


@nb.njit(parallel=True, cache=True, nogil=True)
def _color_init(part, color, stamp, bounds):
    nch = bounds.shape[0] - 1
    for c in nb.prange(nch):
        for v in range(bounds[c], bounds[c + 1]):
            if part[v] >= 0:
                color[v] = v
                stamp[v] = 0
            else:
                color[v] = -1
                stamp[v] = -1


@nb.njit(parallel=True, cache=True, nogil=True)
def _color_sweep(indptr, indices, part, color, stamp, step, bounds):
    """Quadratic max propagation step ``step``: vertices changed at ``step - 1`` or later push
    their colour; returns the number of raises."""
    nch = bounds.shape[0] - 1
    cnt = np.zeros(nch, dtype=np.int64)
    for c in nb.prange(nch):
        k = 0
        for v in range(bounds[c], bounds[c + 1]):
            if stamp[v] < step - 1:
                continue
            r = part[v]
            cv = color[v]
            for p in range(indptr[v], indptr[v + 1]):
                w = indices[p]
                if part[w] == r and color[w] < cv and _raise_to(color, w, cv):
                    stamp[w] = step
                    k += 1
        cnt[c] = k
    return cnt.sum()


@nb.njit(parallel=True, cache=True, nogil=True)
def _color_expand(indptr, indices, part, color, inq, front, nf, out, counter, nthreads):
    """Linear max propagation step: vertices of ``front`` push their colour; raised neighbours
    not yet queued go to ``out``."""
    nch = max(1, min(nf // 64 + 1, 8 * nthreads))
    for c in nb.prange(nch):
        buf = np.empty(LOCAL_QUEUE, dtype=out.dtype)
        k = 0
        for i in range((nf * c) // nch, (nf * (c + 1)) // nch):
            v = front[i]
            # cleared before the colour is read, by a locked instruction (a plain store could
            # pass the load on x86): a raise this step does not see re-queues v
            cas(inq, v, 1, 0)
            r = part[v]
            cv = color[v]
            for p in range(indptr[v], indptr[v + 1]):
                w = indices[p]
                if part[w] == r and color[w] < cv and _raise_to(color, w, cv):
                    if inq[w] == 0 and cas(inq, w, 0, 1) == 0:
                        buf[k] = w
                        k += 1
                        if k == LOCAL_QUEUE:
                            flush(buf, k, out, counter)
                            k = 0
        flush(buf, k, out, counter)


@nb.njit(parallel=True, cache=True, nogil=True)
def _color_update(part, label, color, bmark, bounds):
    """Backward-closed vertices get their colour as SCC id; the others their colour as new
    subgraph. Returns the number of active vertices left."""
    nch = bounds.shape[0] - 1
    cnt = np.zeros(nch, dtype=np.int64)
    for c in nb.prange(nch):
        k = 0
        for v in range(bounds[c], bounds[c + 1]):
            if part[v] < 0:
                continue
            if bmark[v] != 0:
                label[v] = color[v]
                part[v] = -1
            else:
                part[v] = color[v]
                k += 1
        cnt[c] = k
    return cnt.sum()


def _coloring(G, part, label, bmark, cfg: SCCConfig) -> None:
    indptr, indices, rindptr, rindices, bounds, bal = G
    n = part.shape[0]
    color = np.empty(n, dtype=part.dtype)
    stamp = np.empty(n, dtype=np.int32)
    linear = cfg.coloring_traversal in ("linear", "hybrid")
    sweep_bounds = bal if cfg.coloring_traversal == "virtual_warp" else bounds
    t = _threads()
    front = out = inq = None
    if linear:
        front = np.empty(n, dtype=part.dtype)
        out = np.empty_like(front)
        inq = np.zeros(n, dtype=np.uint8)
    while True:
        _color_init(part, color, stamp, bounds)
        active = np.flatnonzero(part >= 0).astype(part.dtype)
        if active.size == 0:
            return
        if linear:
            front[: active.size] = active
            inq[active] = 1
            nf = active.size
            counter = np.zeros(1, dtype=np.int64)
            while nf > 0:
                counter[0] = 0
                _color_expand(indptr, indices, part, color, inq, front, nf, out, counter, t)
                front, out = out, front
                nf = int(counter[0])
        else:
            step = 1
            while _color_sweep(indptr, indices, part, color, stamp, step, sweep_bounds) > 0:
                step += 1
        roots = active[color[active] == active]
        trav = cfg.coloring_traversal
        _reach(rindptr, rindices, indptr, indices, color, bmark, roots, trav, bounds, bal)
        if _color_update(part, label, color, bmark, bounds) == 0:
            return
