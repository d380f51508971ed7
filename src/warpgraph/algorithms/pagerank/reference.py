"""Obviously-correct PageRank for small graphs: NetworkX's power iteration on a dense matrix.

Build the ``n x n`` weight matrix ``A`` from the edge list (``np.add.at``, so parallel edges
add; an undirected edge ``(u, v)`` adds to ``A[u, v]`` and ``A[v, u]``, a self-loop once), divide
each row by its sum ``s`` (rows with ``s == 0`` are the dangling vertices and stay zero), then
step ::

    x' = alpha * (x @ P + sum(x[dangling]) * d) + (1 - alpha) * p

until ``|x' - x|_1 < n * tol`` and return ``x'`` with the number of steps taken. ``O(n^2)``
memory and time per step: for tests only.
"""

from __future__ import annotations

import numpy as np

from ...errors import ConvergenceError

__all__ = ["pagerank_reference"]


def _normalized(values, n: int) -> np.ndarray:
    """``values`` divided by its sum, uniform when None."""
    if values is None:
        return np.full(n, 1.0 / n)
    a = np.asarray(values, dtype=np.float64).reshape(n)
    return a / a.sum()


def pagerank_reference(
    n: int,
    src,
    dst,
    weights=None,
    *,
    directed: bool = True,
    alpha: float = 0.85,
    personalization=None,
    nstart=None,
    dangling=None,
    max_iter: int = 100,
    tol: float = 1e-6,
) -> tuple[np.ndarray, int]:
    """(ranks, steps) from an edge list; ``weights`` None counts each edge as weight 1.

    Raises
    ------
    ConvergenceError
        When ``max_iter`` steps pass without the L1 change falling below ``n * tol``.
    """
    if n == 0:
        return np.zeros(0, dtype=np.float64), 0
    src = np.asarray(src, dtype=np.int64).reshape(-1)
    dst = np.asarray(dst, dtype=np.int64).reshape(-1)
    if weights is None:
        w = np.ones(src.size, dtype=np.float64)
    else:
        w = np.asarray(weights, dtype=np.float64).reshape(-1)
    A = np.zeros((n, n), dtype=np.float64)
    np.add.at(A, (src, dst), w)
    if not directed:
        off = src != dst
        np.add.at(A, (dst[off], src[off]), w[off])
    s = A.sum(axis=1)
    is_dangling = s == 0
    P = np.zeros_like(A)
    P[~is_dangling] = A[~is_dangling] / s[~is_dangling, None]
    p = _normalized(personalization, n)
    d = p if dangling is None else _normalized(dangling, n)
    x = _normalized(nstart, n)
    for step in range(1, max_iter + 1):
        x_last = x
        x = alpha * (x @ P + x[is_dangling].sum() * d) + (1 - alpha) * p
        if np.abs(x - x_last).sum() < n * tol:
            return x, step
    raise ConvergenceError(max_iter, "PageRank's power iteration (reference)")
