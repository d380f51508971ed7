"""Checks for triangle counts (GAPBS ``tc`` style: recount by another method).

1. *shape*: one non-negative count per vertex;
2. *total*: the per-vertex counts sum to a multiple of 3;
3. *recount*: every count equals the row sum of ``(A @ A) * A`` halved, computed with SciPy's
   sparse product on the simple graph (an independent method).
"""

from __future__ import annotations

import numpy as np

from ...errors import VerificationError

__all__ = ["recount", "verify_triangles"]


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
