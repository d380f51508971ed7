"""Small sequential traversals used by statistics (the BFS issue brings the parallel engines)."""

from __future__ import annotations

import numba as nb
import numpy as np


@nb.njit(cache=True, nogil=True)
def bfs_levels(indptr, indices, source):
    """Hop distance from ``source`` to every vertex along out-arcs (-1 when unreachable)."""
    n = indptr.shape[0] - 1
    level = np.full(n, -1, dtype=np.int32)
    queue = np.empty(n, dtype=np.int64)
    level[source] = 0
    queue[0] = source
    head, tail = 0, 1
    while head < tail:
        u = queue[head]
        head += 1
        nxt = level[u] + 1
        for p in range(indptr[u], indptr[u + 1]):
            v = indices[p]
            if level[v] < 0:
                level[v] = nxt
                queue[tail] = v
                tail += 1
    return level


@nb.njit(cache=True, nogil=True)
def bfs_reach_stats(indptr, indices, source):
    """``(reached, distance sum, eccentricity)`` of one search from ``source`` along out-arcs,
    counted as the queue passes each level (no levels array kept or read again afterwards:
    on 2 cores grid:708's search 6.2 -> 4.7 ms against :func:`bfs_levels` then three passes)."""
    n = indptr.shape[0] - 1
    seen = np.zeros(n, dtype=np.bool_)
    queue = np.empty(n, dtype=indices.dtype)
    seen[source] = True
    queue[0] = source
    head, tail, depth, total = 0, 1, 0, 0
    while head < tail:
        level_end = tail  # (the queue holds the current level up to here)
        while head < level_end:
            u = queue[head]
            head += 1
            for p in range(indptr[u], indptr[u + 1]):
                v = indices[p]
                if not seen[v]:
                    seen[v] = True
                    queue[tail] = v
                    tail += 1
        if tail > level_end:
            depth += 1
            total += depth * (tail - level_end)
    return tail, total, depth
