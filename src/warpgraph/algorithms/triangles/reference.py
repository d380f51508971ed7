"""Obviously-correct triangle counts for small graphs: the diagonal of A^3 (dense NumPy).

``A`` is the 0/1 adjacency of the simple graph (no loops, parallel edges merged); the number of
triangles at ``v`` is ``(A^3)[v, v] / 2``. For a directed graph, with ``A`` its 0/1 arcs and
``B = A + A^T``, Fagiolo's clustering is ``(B^3)[v, v] / (2 (d (d - 1) - 2 r))`` (``d`` the
arcs in and out, ``r`` the mutual neighbours) and NetworkX's transitivity ``sum (A A .* A) /
sum d_out (d_out - 1)``: ``(A A)[v, k]`` counts the ``w`` with ``v -> w -> k``.
"""

from __future__ import annotations

import numpy as np

__all__ = [
    "clustering_reference",
    "directed_clustering_reference",
    "directed_transitivity_reference",
    "triangles_reference",
]


def _dense(n: int, src, dst) -> np.ndarray:
    A = np.zeros((n, n), dtype=np.int64)
    s, d = np.asarray(src, dtype=np.int64), np.asarray(dst, dtype=np.int64)
    A[s, d] = 1
    A[d, s] = 1
    np.fill_diagonal(A, 0)
    return A


def triangles_reference(n: int, src, dst) -> np.ndarray:
    """Triangles at every vertex of the undirected graph with edges ``(src[i], dst[i])``."""
    A = _dense(n, src, dst)
    return np.diagonal(A @ A @ A) // 2


def clustering_reference(n: int, src, dst) -> np.ndarray:
    """Local clustering ``2 T / (d (d - 1))`` (0 below degree 2)."""
    A = _dense(n, src, dst)
    t = np.diagonal(A @ A @ A) / 2
    d = A.sum(axis=1)
    pairs = d * (d - 1)
    return np.where(pairs > 0, 2 * t / np.maximum(pairs, 1), 0.0)


def _dense_arcs(n: int, src, dst) -> np.ndarray:
    A = np.zeros((n, n), dtype=np.int64)
    A[np.asarray(src, dtype=np.int64), np.asarray(dst, dtype=np.int64)] = 1
    np.fill_diagonal(A, 0)
    return A


def directed_clustering_reference(n: int, src, dst) -> np.ndarray:
    """Fagiolo's clustering of every vertex of the directed graph with arcs ``src -> dst``."""
    A = _dense_arcs(n, src, dst)
    B = A + A.T
    t = np.diagonal(B @ B @ B)
    d = A.sum(axis=0) + A.sum(axis=1)
    pairs = 2 * (d * (d - 1) - 2 * np.diagonal(A @ A))  # ((A A)[v, v]: v's mutual dyads)
    return np.where(t > 0, t / np.maximum(pairs, 1), 0.0)


def directed_transitivity_reference(n: int, src, dst) -> float:
    """NetworkX's transitivity of the directed graph with arcs ``src -> dst``."""
    A = _dense_arcs(n, src, dst)
    triples = int(((A @ A) * A).sum())
    d = A.sum(axis=1)
    return 0.0 if triples == 0 else triples / int((d * (d - 1)).sum())
