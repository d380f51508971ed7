"""SSSP verifier: the optimality conditions of a shortest-path labelling, checked on every arc.

A labelling ``dist`` is the true distance from ``s`` exactly when

1. ``dist[s] == 0``;
2. **triangle inequality**: ``dist[v] <= dist[u] + w(u, v)`` for every arc out of a reached
   ``u`` (so every vertex with a finite label has one no larger than its distance, and every
   arc out of a reached vertex reaches a reached vertex);
3. **tight tree**: every reached vertex is reached from ``s`` through *tight* arcs
   (``dist[u] + w == dist[v]``), so each label is the length of a real path (no smaller than
   the distance). Tightness alone is not enough: a zero-weight cycle can hold two wrong labels
   tight to each other, so the tight arcs are searched from ``s`` (breadth-first, SciPy).

With ``pred`` it also checks the tree itself: ``pred[s] == -1``, unreached vertices have -1,
every other reached ``v`` has a tight arc ``pred[v] -> v``, and following ``pred`` from any
reached vertex ends at ``s`` (pointer doubling; a cycle never gets there).

Sums are computed in the distances' dtype, as the engines compute them, so float results are
checked exactly by default; ``rtol`` allows a relative slack (for results from elsewhere).
Everything is vectorized over the arcs (NumPy), and a failure raises
:class:`~warpgraph.errors.VerificationError` naming the rule, an arc or a vertex.

Examples
--------
>>> import numpy as np
>>> import warpgraph as wg
>>> G = wg.Graph.from_edges([0, 1], [1, 2], weights=[2, 3])
>>> verify_sssp(G, 0, np.array([0, 2, 5]), np.array([-1, 0, 1]))
>>> verify_sssp(G, 0, np.array([0, 2, 6]))
Traceback (most recent call last):
...
warpgraph.errors.VerificationError: triangle inequality: arc 1 -> 2 (weight 3): dist[2] = 6 > dist[1] + 3 = 5
"""  # noqa: E501

from __future__ import annotations

from typing import Any

import numpy as np

from ...errors import VerificationError
from ...graph import Graph

__all__ = ["verify_sssp"]


def _fail(rule: str, msg: str) -> None:
    raise VerificationError(f"{rule}: {msg}")


def _first(mask: np.ndarray) -> int:
    return int(np.flatnonzero(mask)[0])


def verify_sssp(
    G: Graph,
    source: int,
    dist: Any,
    pred: Any = None,
    weights: Any = None,
    *,
    rtol: float = 0.0,
) -> None:
    """Check one SSSP result; raise :class:`~warpgraph.errors.VerificationError` if it is wrong.

    Parameters
    ----------
    G : Graph
    source : int
    dist : array_like
        Distances from ``source`` (NumPy or CuPy): int64 with ``np.iinfo(np.int64).max`` or a
        float dtype with ``inf`` for unreachable vertices.
    pred : array_like of int, optional
        Shortest-path tree (-1 for the source and unreachable vertices).
    weights : array_like, optional
        The weights the result was computed with (one per arc); default ``G.weights`` or 1.
    rtol : float
        Relative slack for float distances (0: exact).

    Raises
    ------
    VerificationError
        Naming the broken rule and an arc or vertex that breaks it.
    """
    from scipy.sparse import csgraph, csr_array

    from ..._arrays import to_host

    G = G.to("cpu")
    n = G.num_vertices
    dist = np.asarray(to_host(dist))
    if dist.shape != (n,):
        _fail("shape", f"dist has shape {dist.shape}, expected ({n},)")
    if not 0 <= int(source) < n:
        _fail("source", f"source {source} is not a vertex of a graph with {n} vertices")
    source = int(source)
    if weights is None:
        weights = G.weights
    w = np.ones(G.num_arcs, dtype=np.int64) if weights is None else np.asarray(to_host(weights))
    if w.shape != (G.num_arcs,):
        _fail("weights", f"{w.shape[0]} weights for {G.num_arcs} arcs")
    if dist.dtype.kind in "iu":
        dist = dist.astype(np.int64, copy=False)
        inf = np.iinfo(np.int64).max
        reached = dist != inf
        w = w.astype(np.int64, copy=False)
    else:
        inf = np.inf
        reached = np.isfinite(dist)
        if np.isnan(dist).any():
            _fail("dist", f"vertex {_first(np.isnan(dist))} has distance NaN")
        w = w.astype(dist.dtype, copy=False)
    if dist[source] != 0:
        _fail("source", f"dist[{source}] = {dist[source]}, expected 0")

    indptr = np.asarray(G.indptr, dtype=np.int64)
    cols = np.asarray(G.indices, dtype=np.int64)
    rows = np.repeat(np.arange(n, dtype=np.int64), np.diff(indptr))
    live = reached[rows]
    u, v, wl = rows[live], cols[live], w[live]
    du, dv = dist[u], dist[v]
    through = du + wl  # in the distances' dtype, as the engines add
    slack = rtol * np.abs(through) if rtol else 0
    bad = ~reached[v] | (dv > through + slack)
    if bad.any():
        a = _first(bad)
        _fail(
            "triangle inequality",
            f"arc {u[a]} -> {v[a]} (weight {wl[a]}): dist[{v[a]}] = "
            f"{'unreachable' if not reached[v[a]] else dv[a]} > dist[{u[a]}] + {wl[a]} = "
            f"{through[a]}",
        )
    tight = np.abs(through - dv) <= slack if rtol else through == dv

    if pred is None:
        T = csr_array((np.ones(int(tight.sum()), dtype=np.int8), (u[tight], v[tight])),
                      shape=(n, n))  # fmt: skip
        order = csgraph.breadth_first_order(T, source, directed=True, return_predecessors=False)
        seen = np.zeros(n, dtype=bool)
        seen[order] = True
        lost = reached & ~seen
        if lost.any():
            x = _first(lost)
            _fail(
                "tight tree",
                f"vertex {x} (dist {dist[x]}) is not reached from {source} by tight arcs "
                "(its distance is not the length of a path)",
            )
        return

    pred = np.asarray(to_host(pred)).astype(np.int64, copy=False)
    if pred.shape != (n,):
        _fail("shape", f"pred has shape {pred.shape}, expected ({n},)")
    if pred[source] != -1:
        _fail("pred", f"pred[{source}] = {pred[source]} for the source, expected -1")
    stray = ~reached & (pred != -1)
    if stray.any():
        x = _first(stray)
        _fail("pred", f"unreachable vertex {x} has pred {pred[x]}")
    inner = reached.copy()
    inner[source] = False
    vs = np.flatnonzero(inner)
    ps = pred[vs]
    out = (ps < 0) | (ps >= n)
    if out.any():
        x = int(vs[_first(out)])
        _fail("pred", f"reachable vertex {x} has no predecessor ({pred[x]})")
    # a tight arc pred[v] -> v must exist: tight arcs keyed u * n + v, sorted
    keys = np.unique(u[tight] * n + v[tight])
    want = ps * n + vs
    pos = np.searchsorted(keys, want)
    missing = (pos >= keys.size) | (keys[np.minimum(pos, max(keys.size - 1, 0))] != want)
    if keys.size == 0:
        missing = np.ones(vs.size, dtype=bool)
    if missing.any():
        k = _first(missing)
        _fail(
            "pred",
            f"{ps[k]} -> {vs[k]} is not a tight arc (dist {dist[ps[k]]} -> {dist[vs[k]]})",
        )
    # pointer doubling: every reached vertex must lead back to the source
    anc = np.where(reached, pred, source)
    anc[source] = source
    for _ in range(max(1, int(n).bit_length() + 1)):
        anc = anc[anc]
    cyc = reached & (anc != source)
    if cyc.any():
        _fail("pred", f"following pred from vertex {_first(cyc)} never reaches the source")
