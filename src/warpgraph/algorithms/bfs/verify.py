"""BFS verifier: Graph500's five checks on a parent tree, and the level checks they imply.

Graph500 (specification, section "Kernel 2 validation") accepts a BFS result when

1. the parent tree is a tree rooted at the source (no cycles);
2. each tree edge joins vertices whose levels differ by exactly one;
3. every edge of the graph joins vertices whose levels differ by at most one, or two vertices
   that are both outside the tree;
4. the tree spans the whole connected component of the source;
5. each vertex and its parent are joined by an edge of the graph.

Here the levels are given with the parents (Graph500 recomputes them from the tree), so rule 1
follows from rule 2 (levels strictly decrease along parent pointers) plus ``parents[s] = s``.
For a directed graph rule 3 reads "every arc ``u -> v`` leaving a reached ``u`` reaches ``v`` at
a level ``<= level(u) + 1``", which with rule 4 makes every level the exact hop distance. Checks
are vectorized (one pass over the arcs) and raise :class:`~warpgraph.errors.VerificationError`
naming the rule and a vertex that breaks it.

Examples
--------
>>> import numpy as np
>>> import warpgraph as wg
>>> G = wg.Graph.from_edges([0, 1], [1, 2], directed=False)
>>> verify_bfs(G, 0, np.array([0, 1, 2]), np.array([0, 0, 1]))
>>> verify_bfs(G, 0, np.array([0, 1, 1]))
Traceback (most recent call last):
...
warpgraph.errors.VerificationError: levels: vertex 2 at level 1 has no in-neighbour at level 0
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ...errors import VerificationError
from ...graph import Graph

__all__ = ["verify_bfs"]


def _fail(rule: str, msg: str) -> None:
    raise VerificationError(f"{rule}: {msg}")


def _first(mask: np.ndarray) -> int:
    return int(np.flatnonzero(mask)[0])


def verify_bfs(G: Graph, source: int, levels: Any, parents: Any = None) -> None:
    """Check a BFS result; raise :class:`~warpgraph.errors.VerificationError` if it is wrong.

    Parameters
    ----------
    G : Graph
        The traversed graph.
    source : int
        The BFS source.
    levels : array_like of int
        Hop distances, -1 for unreachable vertices (NumPy or CuPy).
    parents : array_like of int, optional
        BFS tree (``parents[source] == source``, -1 for unreachable vertices).

    Raises
    ------
    VerificationError
        Naming the broken rule and a vertex (or arc) that breaks it.
    """
    from ..._arrays import to_host

    G = G.to("cpu")
    n = G.num_vertices
    levels = np.asarray(to_host(levels)).astype(np.int64, copy=False)
    if levels.shape != (n,):
        _fail("shape", f"levels has shape {levels.shape}, expected ({n},)")
    if not 0 <= source < n:
        _fail("source", f"source {source} is not a vertex of a graph with {n} vertices")
    if levels[source] != 0:
        _fail("source", f"level of the source {source} is {levels[source]}, expected 0")
    if np.any(levels < -1):
        v = _first(levels < -1)
        _fail("levels", f"vertex {v} has level {levels[v]} (only -1 may be negative)")
    reached = levels >= 0
    indptr = np.asarray(G.indptr, dtype=np.int64)
    cols = np.asarray(G.indices, dtype=np.int64)
    rows = np.repeat(np.arange(n, dtype=np.int64), np.diff(indptr))

    # rule 3 (and 4): arcs out of reached vertices reach vertices at most one level deeper
    lu, lv = levels[rows], levels[cols]
    bad = reached[rows] & ((lv < 0) | (lv > lu + 1))
    if G.directed is False:
        bad |= reached[rows] & reached[cols] & (lu > lv + 1)
    if bad.any():
        a = _first(bad)
        u, v = int(rows[a]), int(cols[a])
        _fail(
            "rule 3 (edge levels)",
            f"arc {u} -> {v} leaves level {lu[a]} for level {lv[a]} "
            "(an arc may go at most one level deeper and never to an unreached vertex)",
        )
    # every reached vertex but the source has an in-neighbour one level up
    has_pred = np.zeros(n, dtype=bool)
    step = reached[rows] & (lv == lu + 1)
    has_pred[cols[step]] = True
    has_pred[source] = True
    orphan = reached & ~has_pred
    if orphan.any():
        v = _first(orphan)
        _fail(
            "levels",
            f"vertex {v} at level {levels[v]} has no in-neighbour at level {levels[v] - 1}",
        )

    if parents is None:
        return
    parents = np.asarray(to_host(parents)).astype(np.int64, copy=False)
    if parents.shape != (n,):
        _fail("shape", f"parents has shape {parents.shape}, expected ({n},)")
    if parents[source] != source:
        _fail("rule 1 (tree root)", f"parent of the source {source} is {parents[source]}")
    stray = ~reached & (parents != -1)
    if stray.any():
        v = _first(stray)
        _fail("rule 4 (spanning)", f"unreached vertex {v} has parent {parents[v]}")
    inner = reached.copy()
    inner[source] = False
    p = parents[inner]
    vs = np.flatnonzero(inner)
    out_of_range = (p < 0) | (p >= n)
    if out_of_range.any():
        v = int(vs[_first(out_of_range)])
        _fail("rule 4 (spanning)", f"reached vertex {v} has no valid parent ({parents[v]})")
    off = levels[p] != levels[vs] - 1
    if off.any():
        k = _first(off)
        u, v = int(p[k]), int(vs[k])
        _fail(
            "rule 2 (tree levels)", f"tree edge {u} -> {v} joins levels {levels[u]} and {levels[v]}"
        )
    # rule 5: (parent, v) must be an arc; rows are sorted, so arc keys are sorted
    keys = rows * n + cols
    want = p * n + vs
    pos = np.searchsorted(keys, want)
    missing = (pos >= keys.size) | (keys[np.minimum(pos, keys.size - 1)] != want)
    if missing.any():
        k = _first(missing)
        _fail("rule 5 (tree edges)", f"tree edge {int(p[k])} -> {int(vs[k])} is not an arc of G")
