"""Trimming for the CPU multi-step SCC (:mod:`.scc_cpu`): vertices that are an SCC alone.

* trim-1 pass: an active vertex with no active out- or in-neighbour of its subgraph is removed
  (in place: whatever order threads run in, each removed vertex is a trivial SCC);
* trim-2 pass: decisions first (``label``), removals second, so both ends of a pair agree.

Examples
--------
>>> import numpy as np
>>> from warpgraph.algorithms.components.scc_cpu import transpose_csr
>>> ptr = np.array([0, 1, 2, 3, 3]); idx = np.array([1, 0, 3], dtype=np.int32)  # 0 <-> 1, 2 -> 3
>>> part, label = np.zeros(4, np.int32), np.full(4, -1, np.int32)
>>> int(_trim1(ptr, idx, *transpose_csr(ptr, idx, 4), part, label, np.array([0, 4])))
2
>>> part.tolist(), label.tolist()
([0, 0, -1, -1], [-1, -1, 2, 3])
"""

from __future__ import annotations

import numba as nb
import numpy as np

from .scc_config import SCCConfig


@nb.njit(inline="always", nogil=True)
def _has_nbr(ptr, idx, part, v, r):
    for p in range(ptr[v], ptr[v + 1]):
        w = idx[p]
        if w != v and part[w] == r:
            return True
    return False


@nb.njit(parallel=True, cache=True, nogil=True)
def _trim1(indptr, indices, rindptr, rindices, part, label, bounds):
    """One trim-1 pass; returns the number of vertices removed."""
    nch = bounds.shape[0] - 1
    cnt = np.zeros(nch, dtype=np.int64)
    for c in nb.prange(nch):
        k = 0
        for v in range(bounds[c], bounds[c + 1]):
            r = part[v]
            if r < 0:
                continue
            keep = _has_nbr(indptr, indices, part, v, r)
            if keep:
                keep = _has_nbr(rindptr, rindices, part, v, r)
            if not keep:
                label[v] = v
                part[v] = -1
                k += 1
        cnt[c] = k
    return cnt.sum()


@nb.njit(inline="always", nogil=True)
def _only_nbr(ptr, idx, part, v, r):
    """The single active neighbour ``!= v`` of ``v`` in subgraph ``r``; -1 if none or several."""
    only = -1
    for p in range(ptr[v], ptr[v + 1]):
        w = idx[p]
        if w != v and part[w] == r and w != only:
            if only >= 0:
                return -1
            only = w
    return only


@nb.njit(parallel=True, cache=True, nogil=True)
def _trim2(indptr, indices, rindptr, rindices, part, label, bounds):
    """One trim-2 pass (decide into ``label``, then remove); returns the vertices removed."""
    nch = bounds.shape[0] - 1
    for c in nb.prange(nch):
        for v in range(bounds[c], bounds[c + 1]):
            r = part[v]
            if r < 0:
                continue
            w = _only_nbr(indptr, indices, part, v, r)
            if w < 0 or _only_nbr(indptr, indices, part, w, r) != v:
                w = _only_nbr(rindptr, rindices, part, v, r)
                if w >= 0 and _only_nbr(rindptr, rindices, part, w, r) != v:
                    w = -1
            if w >= 0:
                label[v] = min(v, w)
    cnt = np.zeros(nch, dtype=np.int64)
    for c in nb.prange(nch):
        k = 0
        for v in range(bounds[c], bounds[c + 1]):
            if part[v] >= 0 and label[v] >= 0:
                part[v] = -1
                k += 1
        cnt[c] = k
    return cnt.sum()


def _trim(indptr, indices, rindptr, rindices, part, label, bounds, cfg: SCCConfig) -> int:
    removed = 0
    i = 0
    while cfg.trim_iterations < 0 or i < cfg.trim_iterations:
        k = _trim1(indptr, indices, rindptr, rindices, part, label, bounds)
        removed += k
        i += 1
        if k == 0:
            break
    if cfg.trim2 and cfg.trim_iterations != 0:
        removed += _trim2(indptr, indices, rindptr, rindices, part, label, bounds)
    return removed
