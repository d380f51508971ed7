"""Oracle for betweenness: Brandes' algorithm as published, in plain Python with
predecessor lists (small graphs only)."""

from __future__ import annotations

from collections import deque

import numpy as np

__all__ = ["reference_arc_betweenness", "reference_betweenness"]


def _rows(indptr: np.ndarray, indices: np.ndarray) -> list[list[int]]:
    """Each vertex's distinct out-neighbours (parallel arcs once)."""
    n = len(indptr) - 1
    return [sorted(set(int(u) for u in indices[indptr[v] : indptr[v + 1]])) for v in range(n)]


def _search(rows: list[list[int]], s: int) -> tuple[list[int], list[list[int]], list[float]]:
    """The breadth-first search from ``s``: the vertices in the order reached, each vertex's
    predecessors on shortest paths, and the shortest-path counts."""
    n = len(rows)
    dist, sigma, preds = {s: 0}, [0.0] * n, [[] for _ in range(n)]
    sigma[s] = 1.0
    stack, queue = [], deque([s])
    while queue:
        v = queue.popleft()
        stack.append(v)
        for w in rows[v]:
            if w not in dist:
                dist[w] = dist[v] + 1
                queue.append(w)
            if dist[w] == dist[v] + 1:
                sigma[w] += sigma[v]
                preds[w].append(v)
    return stack, preds, sigma


def reference_betweenness(
    indptr: np.ndarray, indices: np.ndarray, sources=None, endpoints: bool = False
) -> np.ndarray:
    """Raw betweenness (sums over ordered pairs) of a CSR graph on the host.

    Examples
    --------
    >>> import numpy as np
    >>> reference_betweenness(np.array([0, 1, 3, 4]), np.array([1, 0, 2, 1])).tolist()
    [0.0, 2.0, 0.0]
    """
    n = len(indptr) - 1
    rows = _rows(indptr, indices)
    bc = np.zeros(n)
    for s in range(n) if sources is None else (int(x) for x in sources):
        stack, preds, sigma = _search(rows, s)
        delta = [0.0] * n
        if endpoints:
            bc[s] += len(stack) - 1
        while stack:
            w = stack.pop()
            for v in preds[w]:
                delta[v] += sigma[v] / sigma[w] * (1.0 + delta[w])
            if w != s:
                bc[w] += delta[w] + (1.0 if endpoints else 0.0)
    return bc


def reference_arc_betweenness(indptr: np.ndarray, indices: np.ndarray, sources=None) -> dict:
    """``{(v, w): share}``: the shortest paths from ``sources`` along each arc, Brandes'
    accumulation with predecessor lists (sums over ordered pairs; small graphs only).

    Examples
    --------
    >>> import numpy as np
    >>> reference_arc_betweenness(np.array([0, 1, 2, 2]), np.array([1, 2]))
    {(0, 1): 2.0, (1, 2): 2.0}
    """
    n = len(indptr) - 1
    rows = _rows(indptr, indices)
    shares = {(v, w): 0.0 for v in range(n) for w in rows[v]}
    for s in range(n) if sources is None else (int(x) for x in sources):
        stack, preds, sigma = _search(rows, s)
        delta = [0.0] * n
        while stack:
            w = stack.pop()
            for v in preds[w]:
                share = sigma[v] / sigma[w] * (1.0 + delta[w])
                shares[v, w] += share
                delta[v] += share
    return shares
