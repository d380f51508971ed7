"""Sources grouped by neighbourhood for the iBFS groups (iBFS's GroupBy, in a simple form).

A group's 64 searches share their words: one pass over a frontier vertex's row advances every
search of the group that reached it. A vertex is in the group's frontier at every level
between its distances to the group's nearest and farthest source, so the spread of the sources
sets how many words a level touches. Sources taken in id order are spread wherever ids are not
local: on a lattice numbered row by row, 64 consecutive ids lie on a line 64 steps long, and
each level touches a band of words up to 64 levels thick. Taking each group as a small ball
instead (the sources nearest to a seed) thins the band: on grid:128 the words touched over
all levels of a group fall 4.7x, on a road network and a Delaunay mesh 1.5x (counted offline
with SciPy on sampled groups, session 61).

:func:`neighbourhood_order` orders the sources so that each run of ``size`` is such a ball:
a seed (the lowest pending source vertex), then a BFS from it taking the pending sources it
meets, nearest first, until the group is full or the search has read :data:`ARCS_PER_SOURCE`
arcs per place in the group; a group still short is filled in id order. Every search keeps
its own result; only the order in which they are grouped changes (the caller puts the results
back in the sources' order).
"""

from __future__ import annotations

import numba as nb
import numpy as np

__all__ = ["ARCS_PER_SOURCE", "neighbourhood_order"]

#: Arcs a group's BFS may read per place in the group before the rest is filled in id order:
#: a lattice's ball of 64 sources needs ~250 vertices of 4 arcs around a seed whose earlier
#: neighbours are taken; a random graph, where the pending sources end up scattered, stops
#: soon (the whole grouping reads at most ~ARCS_PER_SOURCE arcs per source).
ARCS_PER_SOURCE = 16


def neighbourhood_order(indptr, indices, sources: np.ndarray, size: int) -> np.ndarray:
    """Positions in ``sources`` (int64 vertex ids, repeats allowed) ordered so that each run of
    ``size`` (the last may be short) is a group of nearby sources; a permutation of
    ``0..len(sources)-1``. The graph is ``indptr`` / ``indices`` (host CSR; arcs followed as
    stored). Repeats of one vertex stay together where a group has room, in their given order.
    Raises ``ValueError`` for sources that are not a 1-D integer array or lie outside
    ``[0, n)``, or ``size`` below 1.

    Examples
    --------
    >>> import numpy as np
    >>> # a path 0-1-2-...-7 numbered 0, 4, 1, 5, 2, 6, 3, 7 along it
    >>> along = np.array([0, 4, 1, 5, 2, 6, 3, 7])
    >>> src, dst = np.r_[along[:-1], along[1:]], np.r_[along[1:], along[:-1]]
    >>> indptr = np.r_[0, np.cumsum(np.bincount(src, minlength=8))]
    >>> indices = dst[np.argsort(src, kind="stable")]
    >>> neighbourhood_order(indptr, indices, np.arange(8), 4).tolist()
    [0, 4, 1, 5, 2, 6, 3, 7]
    """
    sources = np.asarray(sources)
    if sources.ndim != 1 or (sources.size and sources.dtype.kind not in "iu"):
        raise ValueError(f"sources must be a 1-D array of integer vertex ids, got dtype "
                         f"{sources.dtype} and shape {sources.shape}")  # fmt: skip
    sources = np.ascontiguousarray(sources, dtype=np.int64)
    n = len(indptr) - 1
    if sources.size and (sources.min() < 0 or sources.max() >= n):
        raise ValueError(f"sources must lie in [0, {n}): got {sources.min()}..{sources.max()}")
    if size < 1:
        raise ValueError(f"size must be at least 1, got {size}")
    return _order(np.asarray(indptr, dtype=np.int64), indices, sources, int(size),
                  ARCS_PER_SOURCE * int(size))  # fmt: skip


@nb.njit(cache=True)
def _order(indptr, indices, sources, size, arc_budget):  # pragma: no cover - compiled
    n = indptr.size - 1
    k = sources.size
    first = np.zeros(n + 1, dtype=np.int64)  # (occurrences of v: at[first[v] : first[v + 1]])
    for s in sources:
        first[s + 1] += 1
    for v in range(n):
        first[v + 1] += first[v]
    at = np.empty(k, dtype=np.int64)
    used = first[:-1].copy()  # (next occurrence of v to place; first[v + 1]: none left)
    for i in range(k):
        s = sources[i]
        at[used[s]] = i
        used[s] += 1
    used[:] = first[:-1]
    stamp = np.zeros(n, dtype=np.int64)  # (the group whose search queued v: no clearing)
    queue = np.empty(arc_budget + 1, dtype=np.int64)
    order = np.empty(k, dtype=np.int64)
    filled = 0
    scan = 0  # (every vertex below it has no occurrence left)
    group = 0
    while filled < k:
        room = min(size, k - filled)
        while used[scan] == first[scan + 1]:
            scan += 1
        group += 1
        queue[0] = scan
        stamp[scan] = group
        head, tail, arcs = 0, 1, 0
        while head < tail and room > 0:
            v = queue[head]
            head += 1
            filled, room = _place(v, first, used, at, order, filled, room)
            if room == 0 or arcs >= arc_budget:
                continue
            for j in range(indptr[v], indptr[v + 1]):
                arcs += 1
                u = indices[j]
                if stamp[u] != group:
                    stamp[u] = group
                    queue[tail] = u
                    tail += 1
                if arcs >= arc_budget:
                    break
        while room > 0:  # (the search ran out: the lowest ids left)
            while used[scan] == first[scan + 1]:
                scan += 1
            filled, room = _place(scan, first, used, at, order, filled, room)
    return order


@nb.njit(cache=True, inline="always")
def _place(v, first, used, at, order, filled, room):  # pragma: no cover - compiled
    """Place ``v``'s occurrences not placed yet (up to ``room``) at ``order[filled:]``;
    returns the new ``(filled, room)``."""
    while used[v] < first[v + 1] and room > 0:
        order[filled] = at[used[v]]
        used[v] += 1
        filled += 1
        room -= 1
    return filled, room
