"""Checks for a truss decomposition: local certificate and a recount by another method.

With ``t`` the claimed trussness of the oriented edges and, for every triangle, ``t`` of its
other two edges:

1. *in the truss*: an edge with ``t(e) = k >= 3`` lies in at least ``k - 2`` triangles whose
   other two edges have trussness >= k;
2. *not in the next truss*: it lies in fewer than ``k - 1`` triangles whose other two edges
   have trussness >= k + 1 (otherwise the (k+1)-truss plus ``e`` would still be one);
3. *recount*: ``t - 2`` equals the fixed point of the local h-index iteration over triangles
   (Sariyuce, Seshadhri & Pinar's AND algorithm) started from the supports: independent of the
   peeling order, vectorized NumPy.
"""

from __future__ import annotations

import numba as nb
import numpy as np

from ...errors import VerificationError
from ..triangles.prep import Oriented

__all__ = [
    "hindex_trussness",
    "list_triangles",
    "verify_truss_decomposition",
    "verify_trussness",
]


@nb.njit(cache=True, nogil=True)
def _list(oindptr, oindices, out, count_only):
    n = oindptr.shape[0] - 1
    pos = np.zeros(n, dtype=np.int64)
    k = 0
    for a in range(n):
        a0, ae = oindptr[a], oindptr[a + 1]
        for p in range(a0, ae):
            pos[oindices[p]] = p + 1
        for p in range(a0, ae):
            b = oindices[p]
            for r in range(oindptr[b], oindptr[b + 1]):
                q = pos[oindices[r]]
                if q != 0:
                    if not count_only:
                        out[k, 0] = p
                        out[k, 1] = q - 1
                        out[k, 2] = r
                    k += 1
        for p in range(a0, ae):
            pos[oindices[p]] = 0
    return k


def list_triangles(o: Oriented) -> np.ndarray:
    """Every triangle as the three oriented edge ids ``(a->b, a->c, b->c)``, shape (T, 3)."""
    dummy = np.empty((0, 3), dtype=np.int64)
    t = _list(o.indptr, o.indices, dummy, True)
    out = np.empty((t, 3), dtype=np.int64)
    _list(o.indptr, o.indices, out, False)
    return out


def _incidences(tri: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(edge, other1, other2) for every (triangle, edge) pair."""
    e = tri.reshape(-1)
    o1 = tri[:, [1, 0, 0]].reshape(-1)
    o2 = tri[:, [2, 2, 1]].reshape(-1)
    return e, o1, o2


def hindex_trussness(o: Oriented, tri: np.ndarray | None = None) -> np.ndarray:
    """Trussness of every oriented edge by the AND iteration (for verification)."""
    m = o.num_arcs
    tri = list_triangles(o) if tri is None else tri
    e, o1, o2 = _incidences(tri)
    t = np.bincount(e, minlength=m).astype(np.int64)
    if e.size == 0:
        return t + 2
    order = np.argsort(e, kind="stable")
    e, o1, o2 = e[order], o1[order], o2[order]
    starts = np.searchsorted(e, np.arange(m))
    rank_in_row = np.arange(e.size) - starts[e]
    while True:
        vals = np.minimum(t[o1], t[o2])
        sv = vals[np.lexsort((-vals, e))]
        h = np.bincount(e[sv >= rank_in_row + 1], minlength=m).astype(np.int64)
        new = np.minimum(t, h)
        if np.array_equal(new, t):
            return t + 2
        t = new


def verify_trussness(o: Oriented, truss, *, recount: bool = True) -> None:
    """Raise :class:`VerificationError` naming an edge (original ids) and rule if ``truss``
    (per oriented edge of ``o``) is wrong.

    Rules 1 and 2 are local (one pass over the triangles): rule 1 proves every value is a lower
    bound. Rule 3 recounts by the h-index iteration, which proves equality but can take many
    passes on large graphs; ``recount=False`` skips it (then only the local rules are checked).
    """
    t = np.asarray(truss.get() if hasattr(truss, "get") else truss, dtype=np.int64)
    m = o.num_arcs
    if t.shape != (m,):
        raise VerificationError(f"trussness has shape {t.shape}, expected ({m},)")

    def name(x: int) -> str:
        return f"edge ({int(o.order[o.src[x]])}, {int(o.order[o.indices[x]])})"

    low = np.flatnonzero(t < 2)
    if low.size:
        raise VerificationError(f"{name(low[0])}: trussness {t[low[0]]} < 2")
    tri = list_triangles(o)
    e, o1, o2 = _incidences(tri)
    other = np.minimum(t[o1], t[o2])
    ge = np.bincount(e[other >= t[e]], minlength=m)
    bad = np.flatnonzero((t >= 3) & (ge < t - 2))
    if bad.size:
        x = int(bad[0])
        raise VerificationError(
            f"{name(x)}: trussness {t[x]} but only {ge[x]} triangles inside the {t[x]}-truss "
            "(rule 1)"
        )
    gt = np.bincount(e[other >= t[e] + 1], minlength=m)
    bad = np.flatnonzero(gt >= t - 1)
    if bad.size:
        x = int(bad[0])
        raise VerificationError(
            f"{name(x)}: trussness {t[x]} but {gt[x]} triangles inside the {t[x] + 1}-truss "
            "(rule 2)"
        )
    if not recount:
        return
    ref = hindex_trussness(o, tri)
    bad = np.flatnonzero(ref != t)
    if bad.size:
        x = int(bad[0])
        raise VerificationError(f"{name(x)}: trussness {t[x]}, recount gives {ref[x]} (rule 3)")


def verify_truss_decomposition(G, truss, *, recount: bool = True) -> None:
    """:func:`verify_trussness` for an answer aligned with ``G.edges()`` (as returned by
    :func:`~warpgraph.algorithms.ktruss.truss_decomposition`); self-loops must hold 0."""
    from ..triangles import prep

    g = G.to("cpu")
    t = np.asarray(truss.get() if hasattr(truss, "get") else truss, dtype=np.int64)
    src, dst, _ = g.edges()
    if t.shape != src.shape:
        raise VerificationError(f"trussness has shape {t.shape}, expected {src.shape}")
    loops = src == dst
    if t[loops].any():
        raise VerificationError("a self-loop has a non-zero trussness")
    o = prep.orient(g.indptr, g.indices)
    n = max(g.num_vertices, 1)
    ru = o.rank[src[~loops]].astype(np.int64)
    rv = o.rank[dst[~loops]].astype(np.int64)
    okey = o.src.astype(np.int64) * n + o.indices
    eid = np.searchsorted(okey, np.minimum(ru, rv) * n + np.maximum(ru, rv))
    per_edge = np.full(o.num_arcs, -1, dtype=np.int64)
    per_edge[eid] = t[~loops]
    if (per_edge < 0).any() or (per_edge[eid] != t[~loops]).any():
        raise VerificationError("edges missing, or parallel copies with different trussness")
    verify_trussness(o, per_edge, recount=recount)
