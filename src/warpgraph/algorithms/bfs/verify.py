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
from ...gpu.loader import declare
from ...graph import Graph

__all__ = ["verify_bfs", "verify_levels_gpu"]

_BIG_ROW = 1 << 16  # rows at least this long are checked in tiles of this many arcs
declare(
    "bfs_verify.cu",
    *(f"bfs_check_{k}<{t}>" for k in ("vertices", "tiles") for t in ("int", "long long")),
)


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


def verify_levels_gpu(G: Graph, source: int, levels: Any, *, tile: int = _BIG_ROW) -> int:
    """Check BFS levels on the GPU, where the graph is: :func:`verify_bfs`'s level rules
    without copying anything to the host (for graphs too large to verify there).

    Every arc out of a reached vertex must reach a reached vertex at most one level deeper, the
    source alone is at level 0, no level is below -1, and every other reached vertex has an
    in-neighbour one level up: together, the levels are exactly the hop distances and the
    reached set is everything the source reaches. One warp per vertex; rows of ``tile`` arcs or
    more are checked in tiles of ``tile`` arcs, one block each, so that hubs do not serialize.

    Parameters
    ----------
    G : Graph
        On the GPU.
    source : int
        The BFS source.
    levels : cupy.ndarray of int32
        Hop distances, -1 for unreachable vertices.
    tile : int
        Row length from which rows are split into tiles (and the tile length).

    Returns
    -------
    int
        Number of reached vertices.

    Raises
    ------
    VerificationError
        Naming the broken rule, how many arcs or vertices break it and the smallest vertex.
    InvalidArgumentError
        ``G`` is not on the GPU, or ``levels`` is not an int32 array of length n.

    Examples
    --------
    >>> import warpgraph as wg
    >>> G = wg.Graph.from_edges([0, 1], [1, 2], directed=False, device="gpu")  # doctest: +SKIP
    >>> verify_levels_gpu(G, 0, wg.bfs(G, 0))  # doctest: +SKIP
    3
    """
    from ...device import cupy
    from ...errors import InvalidArgumentError
    from ...gpu.launch import launch
    from ...gpu.loader import get_kernel

    if G.device != "gpu":
        raise InvalidArgumentError("verify_levels_gpu needs a graph on the GPU (G.to('gpu'))")
    cp = cupy()
    n = G.num_vertices
    levels = cp.asarray(levels)
    if levels.shape != (n,) or levels.dtype != cp.int32:
        raise InvalidArgumentError(
            f"levels must be an int32 array of shape ({n},), got {levels.dtype} {levels.shape}"
        )
    if not 0 <= int(source) < n:
        _fail("source", f"source {source} is not a vertex of a graph with {n} vertices")
    tile = max(32, int(tile))
    t = "int" if G.indices.dtype == cp.int32 else "long long"
    rindptr, rindices, _ = G.reverse_csr()
    rindices = rindices.astype(G.indices.dtype, copy=False)
    counts = cp.zeros(3, dtype=cp.uint64)
    first = cp.full(2, np.iinfo(np.uint64).max, dtype=cp.uint64)
    k = get_kernel("bfs_verify.cu", f"bfs_check_vertices<{t}>")
    args = (G.indptr, G.indices, rindptr, rindices, levels, n, int(source), tile, counts, first)
    launch(k, 32 * n, args)
    deg = cp.diff(G.indptr)
    big = cp.flatnonzero(deg >= tile)
    if big.size:
        lens = cp.asnumpy(deg[big])
        starts = cp.asnumpy(G.indptr[big])
        per = -(-lens // tile)
        row = np.repeat(cp.asnumpy(big), per)
        k_in_row = np.arange(int(per.sum())) - np.repeat(np.cumsum(per) - per, per)
        begin = np.repeat(starts, per) + k_in_row * tile
        end = np.minimum(begin + tile, np.repeat(starts + lens, per))
        nt = int(row.size)
        k = get_kernel("bfs_verify.cu", f"bfs_check_tiles<{t}>")
        args = (G.indices, levels, cp.asarray(row), cp.asarray(begin), cp.asarray(end), nt,
                counts, first)  # fmt: skip
        launch(k, nt * 256, args, grid=min(nt, 65535))
    del deg, big
    c = cp.asnumpy(counts)
    f = cp.asnumpy(first)
    if c[1]:
        v = int(f[1])
        lv = int(levels[v])
        if v == int(source) or lv == 0 or lv < -1:
            _fail("levels", f"vertex {v} has level {lv} (source {source}; {int(c[1])} bad)")
        _fail(
            "levels",
            f"vertex {v} at level {lv} has no in-neighbour at level {lv - 1} "
            f"({int(c[1])} such vertices)",
        )
    if c[0]:
        _fail(
            "rule 3 (edge levels)",
            f"{int(c[0])} arcs leave a reached vertex for an unreached one or skip a level, "
            f"the first out of vertex {int(f[0])} (level {int(levels[int(f[0])])})",
        )
    return int(c[2])
