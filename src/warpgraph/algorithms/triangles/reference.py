"""Obviously-correct triangle counts for small graphs: the diagonal of A^3 (dense NumPy).

``A`` is the 0/1 adjacency of the simple graph (no loops, parallel edges merged); the number of
triangles at ``v`` is ``(A^3)[v, v] / 2``.
"""

from __future__ import annotations

import numpy as np

__all__ = ["clustering_reference", "triangles_reference"]


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
