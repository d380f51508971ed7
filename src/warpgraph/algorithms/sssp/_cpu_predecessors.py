"""Shortest-path trees from final distances on the CPU (``predecessors_cpu``, re-exported by
:mod:`.cpu`): every method's distances give their tree here."""

from __future__ import annotations

import numba as nb
import numpy as np

from ._cpu_relax import _U, _infinity


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
