"""Checks for triangle counts (GAPBS ``tc`` style: recount by another method).

1. *shape*: one non-negative count per vertex;
2. *total*: the per-vertex counts sum to a multiple of 3;
3. *recount*: every count equals the row sum of ``(A @ A) * A`` halved, computed with SciPy's
   sparse product on the simple graph (an independent method).

A directed graph's clustering (:func:`verify_directed_clustering`): one value in ``[0, 1]``
per vertex, equal to Fagiolo's formula with ``(B^3)[v, v]`` recounted as the row sums of
``(B @ B) * B`` (``B = A + A^T``, SciPy) and the degrees recounted from ``A``.
"""

from __future__ import annotations

import numpy as np

from ...errors import VerificationError

__all__ = ["recount", "verify_directed_clustering", "verify_triangles"]


def recount(G) -> np.ndarray:
    """Triangles per vertex by sparse matrix products (SciPy; memory grows with wedges)."""
    import scipy.sparse as sp

    g = G.to("cpu")
    n = g.num_vertices
    src, dst, _ = g.edges()
    keep = src != dst
    s, d = np.asarray(src[keep], dtype=np.int64), np.asarray(dst[keep], dtype=np.int64)
    ones = np.ones(2 * s.size, dtype=np.int64)
    A = sp.csr_array((ones, (np.r_[s, d], np.r_[d, s])), shape=(n, n))
    A.data[:] = 1  # merge parallel edges
    return np.asarray((A @ A).multiply(A).sum(axis=1)).ravel().astype(np.int64) // 2


def verify_triangles(G, t) -> None:
    """Raise :class:`VerificationError` naming a vertex and rule if ``t`` is wrong."""
    t = np.asarray(t.get() if hasattr(t, "get") else t)
    n = G.num_vertices
    if t.shape != (n,) or (t.size and t.min() < 0):
        raise VerificationError(f"expected {n} non-negative counts, got shape {t.shape} (rule 1)")
    if int(t.sum()) % 3:
        raise VerificationError(f"counts sum to {int(t.sum())}, not a multiple of 3 (rule 2)")
    ref = recount(G)
    bad = np.flatnonzero(ref != t)
    if bad.size:
        v = int(bad[0])
        raise VerificationError(
            f"vertex {v}: {int(t[v])} triangles, recount gives {ref[v]} (rule 3)"
        )


def _arcs(G):
    """The 0/1 sparse adjacency of a CPU graph's arcs, loops dropped, parallel arcs merged."""
    import scipy.sparse as sp

    g = G.to("cpu")
    n = g.num_vertices
    src, dst, _ = g.edges()
    keep = src != dst
    s, d = np.asarray(src[keep], dtype=np.int64), np.asarray(dst[keep], dtype=np.int64)
    A = sp.csr_array((np.ones(s.size, dtype=np.int64), (s, d)), shape=(n, n))
    A.data[:] = 1
    return A


def verify_directed_clustering(G, c) -> None:
    """Raise :class:`VerificationError` naming a vertex and rule if ``c`` is not Fagiolo's
    clustering of the directed graph ``G`` (module docstring)."""
    c = np.asarray(c.get() if hasattr(c, "get") else c)
    n = G.num_vertices
    if c.shape != (n,) or (c.size and not (c.min() >= 0 and c.max() <= 1)):
        raise VerificationError(f"expected {n} values in [0, 1], got shape {c.shape} (rule 1)")
    A = _arcs(G)
    B = A + A.T
    t = np.asarray((B @ B).multiply(B).sum(axis=1)).ravel().astype(np.int64)
    d = np.asarray(A.sum(axis=0)).ravel() + np.asarray(A.sum(axis=1)).ravel()
    mutual = np.asarray(A.multiply(A.T).sum(axis=1)).ravel()
    pairs = 2 * (d * (d - 1) - 2 * mutual)
    want = np.where(t > 0, t / np.maximum(pairs, 1), 0.0)
    bad = np.flatnonzero(want != c)
    if bad.size:
        v = int(bad[0])
        raise VerificationError(f"vertex {v}: clustering {c[v]}, recount gives {want[v]} (rule 2)")
