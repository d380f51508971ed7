"""Dijkstra on the CPU: sequential, an indexed binary heap with decrease-key; many sources
run in parallel, one per thread (``dijkstra_cpu``, re-exported by :mod:`.cpu`)."""

from __future__ import annotations

import numba as nb
import numpy as np

from ._cpu_relax import _U, _infinity


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
