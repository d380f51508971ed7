"""Forward-backward rounds for the CPU multi-step SCC (:mod:`.scc_cpu`).

One pivot per subgraph; forward and backward closures (marks ``fmark``/``bmark``,
:func:`._scc_reach._reach`); F ∩ B gets the pivot's id; F \\ B, B \\ F and the rest get, as new
subgraph id, their largest member.

Examples
--------
>>> import numpy as np
>>> from warpgraph.algorithms.components.scc_cpu import transpose_csr
>>> ptr = np.array([0, 1, 3, 3]); idx = np.array([1, 0, 2], dtype=np.int32)  # 0 <-> 1 -> 2
>>> _pivot_score(ptr, transpose_csr(ptr, idx, 3)[0], "max_out_degree").tolist()
[1, 2, 0]
"""

from __future__ import annotations

import numba as nb
import numpy as np

from ._scc_reach import _reach
from .scc_config import SCCConfig


@nb.njit(cache=True, nogil=True)
def _pick_pivots(part, score, best, pivot):
    """Per subgraph ``r``: ``pivot[r]`` = active member of largest score (smallest id on ties).
    Returns the pivots."""
    n = part.shape[0]
    k = 0
    for v in range(n):
        r = part[v]
        if r < 0:
            continue
        s = score[v]
        if pivot[r] < 0:
            k += 1
            best[r] = s
            pivot[r] = v
        elif s > best[r]:
            best[r] = s
            pivot[r] = v
    out = np.empty(k, dtype=part.dtype)
    j = 0
    for v in range(n):
        r = part[v]
        if r >= 0 and pivot[r] == v:
            out[j] = v
            j += 1
    return out


@nb.njit(cache=True, nogil=True)
def _fb_new_ids(part, fmark, bmark, newid):
    """``newid[code, r]``: largest active member of subgraph ``r`` with code f + 2b (not F∩B)."""
    for v in range(part.shape[0]):
        r = part[v]
        if r < 0:
            continue
        code = (fmark[v] != 0) + 2 * (bmark[v] != 0)
        if code < 3 and v > newid[code, r]:
            newid[code, r] = v


@nb.njit(parallel=True, cache=True, nogil=True)
def _fb_update(part, label, fmark, bmark, pivot, newid, bounds):
    """Assign F ∩ B to its pivot, move the rest to their new subgraphs, clear the marks.
    Returns the number of active vertices left."""
    nch = bounds.shape[0] - 1
    cnt = np.zeros(nch, dtype=np.int64)
    for c in nb.prange(nch):
        k = 0
        for v in range(bounds[c], bounds[c + 1]):
            r = part[v]
            if r < 0:
                continue
            code = (fmark[v] != 0) + 2 * (bmark[v] != 0)
            fmark[v] = 0
            bmark[v] = 0
            if code == 3:
                label[v] = pivot[r]
                part[v] = -1
            else:
                part[v] = newid[code, r]
                k += 1
        cnt[c] = k
    return cnt.sum()


def _fb_round(G, part, label, fmark, bmark, score, cfg: SCCConfig) -> int:
    indptr, indices, rindptr, rindices, bounds, bal = G
    n = part.shape[0]
    best = np.empty(n, dtype=np.int64)
    pivot = np.full(n, -1, dtype=part.dtype)
    pivots = _pick_pivots(part, score, best, pivot)
    _reach(indptr, indices, rindptr, rindices, part, fmark, pivots, cfg.fb_traversal, bounds, bal)
    _reach(rindptr, rindices, indptr, indices, part, bmark, pivots, cfg.fb_traversal, bounds, bal)
    newid = np.full((3, n), -1, dtype=part.dtype)
    _fb_new_ids(part, fmark, bmark, newid)
    return _fb_update(part, label, fmark, bmark, pivot, newid, bounds)


def _pivot_score(indptr, rindptr, pivot: str) -> np.ndarray:
    n = indptr.shape[0] - 1
    if pivot == "min_id":
        return np.zeros(n, dtype=np.int64)
    out_deg = np.diff(indptr).astype(np.int64)
    if pivot == "max_out_degree":
        return out_deg
    cap = np.int64(1 << 31)
    return np.minimum(out_deg, cap) * np.minimum(np.diff(rindptr).astype(np.int64), cap)
