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
