"""Checks for betweenness values, independent of Brandes' accumulation.

1. *shape*: one finite, non-negative value per vertex.
2. *total*: a shortest ``s``-``t`` path of length ``d`` has ``d - 1`` inner vertices, and the
   dependencies of a search share each pair's paths out among them, so the values add up to
   ``sum over sources of (distance sum - (reached - 1))`` (with endpoints, ``distance sum +
   reached - 1``): checked against :func:`warpgraph.algorithms.bfs.distance_stats`.
3. *ends only*: a vertex with no other in-neighbour or no other out-neighbour (undirected: at
   most one neighbour) is inside no shortest path: 0 without endpoints.
4. *pairs*: for a few vertices ``v`` the value is recomputed from its definition,
   ``sum over s, t of sigma_st(v) / sigma_st`` with ``sigma_st(v) = sigma_sv * sigma_vt`` where
   ``d(s, v) + d(v, t) = d(s, t)``, from path counts of level-synchronous searches (SciPy
   sparse products, one per level) from each source and from ``v``.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ...errors import VerificationError
from ...graph import Graph

__all__ = ["verify_betweenness"]


def _counts(A, source: int) -> tuple[np.ndarray, np.ndarray]:
    """Distances (-1: unreached) and shortest-path counts from ``source``; ``A`` is the 0/1
    adjacency (row: tail), parallel arcs merged."""
    n = A.shape[0]
    dist = np.full(n, -1, dtype=np.int64)
    sigma = np.zeros(n)
    dist[source], sigma[source] = 0, 1.0
    frontier = np.zeros(n)
    frontier[source] = 1.0
    level = 0
    while True:
        level += 1
        reach = A.T @ frontier  # paths into each vertex from the last level
        new = (reach > 0) & (dist < 0)
        if not new.any():
            return dist, sigma
        dist[new] = level
        sigma[new] = reach[new]
        frontier = np.where(new, sigma, 0.0)


def verify_betweenness(
    G: Graph,
    values: Any,
    sources: Any = None,
    *,
    endpoints: bool = False,
    samples: int = 4,
    rtol: float = 1e-9,
) -> None:
    """Raise :class:`VerificationError` unless ``values`` are the raw betweenness of ``G``
    (:func:`.api.betweenness_centrality` with these ``sources`` and ``endpoints``).

    ``samples`` vertices (the largest values, then the smallest) are recomputed from the
    definition: one search per source plus one per sampled vertex.

    Examples
    --------
    >>> import warpgraph as wg
    >>> G = wg.Graph.from_edges([0, 1], [1, 2], num_vertices=3, directed=False)
    >>> verify_betweenness(G, [0.0, 2.0, 0.0])
    >>> verify_betweenness(G, [0.0, 1.0, 1.0])
    Traceback (most recent call last):
    ...
    warpgraph.errors.VerificationError: vertex 2 is inner to no shortest path: betweenness 1.0
    """
    import scipy.sparse as sp

    from ..bfs.multi_source import distance_stats, source_ids

    G = G.to("cpu")
    n = G.num_vertices
    b = np.asarray(values.get() if hasattr(values, "get") else values, dtype=np.float64)
    if b.shape != (n,):
        raise VerificationError(f"values have shape {b.shape}, expected ({n},)")
    if not np.isfinite(b).all() or (b < 0).any():
        raise VerificationError("values must be finite and non-negative")
    src = source_ids(sources, n)
    stats = distance_stats(G, src, device="cpu")
    extra = stats.reached - 1
    expected = float(np.sum(stats.total + (extra if endpoints else -extra)))
    if not np.isclose(b.sum(), expected, rtol=rtol, atol=1e-9):
        raise VerificationError(
            f"the values add up to {b.sum()!r}; the inner vertices of all shortest paths "
            f"from the sources number {expected!r}"
        )
    if samples <= 0 or n == 0:
        return
    rows = np.repeat(np.arange(n), np.diff(np.asarray(G.indptr)))
    A = sp.csr_matrix((np.ones(rows.size), (rows, np.asarray(G.indices))), shape=(n, n))
    A.data[:] = 1.0  # (parallel arcs merged)
    A.setdiag(0)  # (self-loops lie on no shortest path)
    A.eliminate_zeros()
    if not endpoints:
        outer = (np.diff(A.indptr) == 0) | (np.diff(A.tocsc().indptr) == 0)
        if not G.directed:
            outer |= np.diff(A.indptr) <= 1
        if (b[outer] != 0).any():
            v = int(np.flatnonzero(outer & (b != 0))[0])
            raise VerificationError(
                f"vertex {v} is inner to no shortest path: betweenness {float(b[v])!r}"
            )
    ranked = np.argsort(-b, kind="stable")
    picked = np.unique(np.r_[ranked[: (samples + 1) // 2], ranked[::-1][: samples // 2]])
    ahead = {int(v): _counts(A, int(v)) for v in picked}
    found = dict.fromkeys(ahead, 0.0)
    for s in src.tolist():
        ds, ss = _counts(A, s)
        for v, (dv, sv) in ahead.items():
            if v == s:
                if endpoints:
                    found[v] += int((ds >= 0).sum()) - 1
                continue
            if ds[v] < 0:
                continue
            on_path = (dv > 0) & (ds == ds[v] + dv)  # (excludes t = v; t = s has ds 0)
            found[v] += float(np.sum(ss[v] * sv[on_path] / ss[on_path]))
            if endpoints:
                found[v] += 1.0
    for v, value in found.items():
        if not np.isclose(b[v], value, rtol=rtol, atol=1e-9):
            raise VerificationError(
                f"vertex {v}: betweenness {float(b[v])!r}, its definition gives {value!r}"
            )
