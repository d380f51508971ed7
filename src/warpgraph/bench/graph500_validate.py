"""Graph500 validation of BFS parent trees and SSSP trees, vectorized (NumPy or CuPy).

The specification (Graph500 3.0, "Validation") accepts a search result when

1. the tree is a tree: following parents from any reached vertex ends at the root, no cycle;
2. each tree edge joins vertices whose BFS levels differ by exactly one (SSSP: whose distances
   differ by exactly the weight of an edge between them);
3. every input edge joins vertices whose levels differ by at most one (SSSP: whose distances
   differ by at most the edge's weight), or two vertices both outside the tree;
4. the tree spans a whole connected component: no edge has exactly one endpoint in the tree;
5. a vertex and its parent are joined by an edge of the input.

and, as the reference code also checks, the root is its own parent (distance 0) and every parent
is -1 or a vertex id. Checks run against the *input edge list* (the tuples given to kernel 1,
self-loops and repeated edges included), not against the graph the search ran on, so a bug in
graph construction is caught too.

Nothing loops over vertices or edges in Python: tree depths come from pointer jumping
(``ceil(log2 n)`` gather rounds at most), edges are checked with whole-array comparisons. The
same code runs on CuPy arrays when the edge list lives on the GPU (validation runs where the edge
list is; the search result is copied there if needed).

Each failure raises :class:`Graph500ValidationError`, which names the rule, a vertex and (for edge
rules) an offending edge.

Examples
--------
>>> import numpy as np
>>> src, dst = np.array([0, 1, 1]), np.array([1, 2, 3])      # a small tree
>>> validate_bfs_tree(np.array([0, 0, 1, 1, -1]), src, dst, root=0)
3
>>> validate_bfs_tree(np.array([0, 0, 0, 1, -1]), src, dst, root=0)
Traceback (most recent call last):
...
warpgraph.bench.graph500_validate.Graph500ValidationError: BFS from root 0 fails rule 5 \
(parent is a neighbour): vertex 2 has parent 0 but no input edge joins them
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

from ..device import array_module, to_numpy
from ..errors import InvalidArgumentError, VerificationError

__all__ = [
    "RULES",
    "Graph500ValidationError",
    "count_component_edges",
    "tree_depths",
    "validate_bfs_tree",
    "validate_sssp_tree",
]

#: Short names of the rules, keyed as :attr:`Graph500ValidationError.rule` reports them.
RULES = {
    "range": "parents are -1 or vertex ids",
    "root": "the root is its own parent",
    "1": "the tree has no cycle",
    "2": "tree edges differ by one level",
    "3": "edges differ by at most one level",
    "4": "the tree spans a component",
    "5": "parent is a neighbour",
    "distance": "distances match the tree",
}


class Graph500ValidationError(VerificationError):
    """A search result broke a Graph500 rule.

    Attributes
    ----------
    rule : str
        Key of :data:`RULES` (``"1"`` to ``"5"``, ``"root"``, ``"range"``, ``"distance"``).
    vertex : int or None
        A vertex where the rule fails.
    edge : tuple of int or None
        An input edge that breaks the rule (edge rules only).
    root : int
        The search key.
    kind : str
        ``"BFS"`` or ``"SSSP"``.
    """

    def __init__(
        self,
        kind: str,
        root: int,
        rule: str,
        detail: str,
        vertex: int | None = None,
        edge: tuple[int, int] | None = None,
    ):
        self.kind, self.root, self.rule, self.detail = kind, int(root), rule, detail
        self.vertex = None if vertex is None else int(vertex)
        self.edge = edge
        super().__init__(f"{kind} from root {root} fails rule {rule} ({RULES[rule]}): {detail}")

    def __reduce__(self):
        return (
            Graph500ValidationError,
            (self.kind, self.root, self.rule, self.detail, self.vertex, self.edge),
        )


def _first(xp, mask) -> int:
    """Index of the first True in a boolean array (caller checked that one exists)."""
    return int(xp.argmax(mask))


def _on(xp, a: Any) -> Any:
    """``a`` as an array of module ``xp`` (copying between host and device when needed)."""
    if a is None:
        return None
    if xp is np:
        return to_numpy(a)
    return xp.asarray(a)


def _prepare(parent: Any, src: Any, dst: Any, root: int, num_vertices: int | None, kind: str):
    # Validation runs where the edge list lives; the search result is brought there.
    xp = array_module(src)
    parent = _on(xp, parent)
    if parent.ndim != 1 or parent.dtype.kind not in "iu":
        raise InvalidArgumentError("parent must be a one-dimensional integer array")
    src, dst = _on(xp, src), _on(xp, dst)
    if src.shape != dst.shape or src.ndim != 1:
        raise InvalidArgumentError("src and dst must be one-dimensional arrays of equal length")
    n = int(parent.shape[0]) if num_vertices is None else int(num_vertices)
    if parent.shape[0] != n:
        raise InvalidArgumentError(f"parent has {parent.shape[0]} entries, expected {n}")
    if not 0 <= int(root) < n:
        raise InvalidArgumentError(f"root {root} is not a vertex of a graph of {n} vertices")
    lo = min(int(src.min()), int(dst.min())) if src.size else 0
    hi = max(int(src.max()), int(dst.max())) if src.size else -1
    if lo < 0 or hi >= n:
        raise InvalidArgumentError(f"the edge list has ids outside [0, {n})")
    parent = parent.astype(np.int64, copy=False)
    bad = (parent < -1) | (parent >= n)
    if bool(bad.any()):
        v = _first(xp, bad)
        raise Graph500ValidationError(
            kind, root, "range", f"vertex {v} has parent {int(parent[v])}", vertex=v
        )
    if int(parent[root]) != int(root):
        raise Graph500ValidationError(
            kind, root, "root", f"the root's parent is {int(parent[root])}", vertex=root
        )
    return xp, parent, src, dst, n


def tree_depths(parent: Any, root: int, *, kind: str = "BFS") -> Any:
    """Depth of every vertex in the parent tree (-1 outside it), by pointer jumping.

    Parameters
    ----------
    parent : array of int
        ``parent[root] == root``; -1 for vertices outside the tree.
    root : int
    kind : str
        Used in error messages.

    Returns
    -------
    array of int64
        Hops from each vertex to the root along parents; -1 for vertices outside the tree.

    Raises
    ------
    Graph500ValidationError
        Rule 1 when a reached vertex's parent is outside the tree, or parents form a cycle.

    Examples
    --------
    >>> tree_depths(np.array([0, 0, 1, -1]), 0).tolist()
    [0, 1, 2, -1]
    """
    xp = array_module(parent)
    parent = xp.asarray(parent).astype(np.int64, copy=False)
    n = int(parent.shape[0])
    reached = parent >= 0
    anc = xp.where(reached, parent, root)
    dangling = reached & ~reached[anc]
    _vertex_rule(
        kind,
        root,
        "1",
        xp,
        dangling,
        lambda v: f"vertex {v} has parent {int(parent[v])}, which is not in the tree",
    )
    depth = (reached & (xp.arange(n) != root)).astype(np.int64)
    # Invariant: anc[v] lies depth[v] parent-steps above v. The root is a fixed point with depth 0,
    # so after k rounds every vertex within 2**k steps of the root has anc == root.
    for _ in range(max(1, n.bit_length()) + 1):
        pending = anc != root
        if not bool(pending.any()):
            break
        depth = depth + depth[anc]
        anc = anc[anc]
    pending = anc != root
    _vertex_rule(
        kind,
        root,
        "1",
        xp,
        pending,
        lambda v: f"following parents from vertex {v} never reaches the root (cycle)",
    )
    return xp.where(reached, depth, -1)


def count_component_edges(reached: Any, src: Any, dst: Any) -> int:
    """Input edges inside the searched component, counted as the Graph500 specification does.

    Each input tuple whose endpoints were reached counts once: a self-loop counts once, every
    repeated tuple counts again (the specification: self-loop tuples plus half the endpoint
    volume of the other tuples, ``sum(degree[reached]) / 2`` in the reference driver).

    Examples
    --------
    >>> count_component_edges(np.array([True, True, False]), np.array([0, 0, 2]),
    ...                       np.array([1, 0, 2]))
    2
    """
    return int((reached[src] | reached[dst]).sum())


def _vertex_rule(kind, root, rule, xp, mask, detail: Callable[[int], str]) -> None:
    """Fail ``rule`` at the first vertex ``v`` of ``mask``, if any, described by ``detail(v)``."""
    if bool(mask.any()):
        v = _first(xp, mask)
        raise Graph500ValidationError(kind, root, rule, detail(v), vertex=v)


def _edge_error(kind, root, rule, detail, xp, mask, src, dst):
    i = _first(xp, mask)
    u, v = int(src[i]), int(dst[i])
    raise Graph500ValidationError(kind, root, rule, detail.format(u=u, v=v), vertex=v, edge=(u, v))


#: Edges checked at a time: bounds the temporaries of validation to a few hundred MB.
CHUNK = 1 << 24


def _chunks(src, dst, *more, chunk: int = CHUNK):
    m = int(src.shape[0])
    for lo in range(0, m, chunk):
        hi = min(m, lo + chunk)
        yield (src[lo:hi], dst[lo:hi], *(x[lo:hi] for x in more))


def validate_bfs_tree(
    parent: Any,
    src: Any,
    dst: Any,
    root: int,
    *,
    level: Any = None,
    directed: bool = False,
    num_vertices: int | None = None,
) -> int:
    """Check a BFS parent tree against the input edge list with the Graph500 rules.

    Parameters
    ----------
    parent : array of int
        ``parent[v]`` is ``v``'s parent, ``parent[root] == root``, -1 when ``v`` was not reached.
    src, dst : array of int
        The input edge list (every tuple given to graph construction).
    root : int
        The search key.
    level : array of int, optional
        Levels returned by the search (negative when unreached); checked against the tree.
    directed : bool
        Treat tuples as arcs ``src -> dst`` (the rules then read: an arc leaving the tree is an
        error, and an arc may go down at most one level). Graph500 itself is undirected.
    num_vertices : int, optional
        Defaults to ``len(parent)``.

    Returns
    -------
    int
        The number of input edges in the searched component (:func:`count_component_edges`),
        the ``nedge`` of the TEPS computation.

    Raises
    ------
    Graph500ValidationError
        Naming the first rule that fails, a vertex and, for edge rules, an edge.
    InvalidArgumentError
        For arrays of the wrong shape or an edge list with ids out of range.

    Examples
    --------
    >>> src, dst = np.array([0, 1, 2]), np.array([1, 2, 0])          # a triangle
    >>> validate_bfs_tree(np.array([0, 0, 0]), src, dst, 0, level=np.array([0, 1, 1]))
    3
    """
    kind = "BFS"
    xp, parent, src, dst, n = _prepare(parent, src, dst, root, num_vertices, kind)
    depth = tree_depths(parent, root, kind=kind)
    reached = depth >= 0
    if level is not None:
        level = _on(xp, level).astype(np.int64, copy=False)
        if level.shape != depth.shape:
            raise InvalidArgumentError(f"level has {level.shape[0]} entries, expected {n}")
        p = xp.where(reached, parent, root)
        wrong = reached & (xp.arange(n) != root) & (level != level[p] + 1)
        _vertex_rule(
            kind,
            root,
            "2",
            xp,
            wrong,
            lambda v: (
                f"vertex {v} has level {int(level[v])} but its parent {int(parent[v])} has "
                f"level {int(level[int(parent[v])])}"
            ),
        )
        wrong = (reached & (level != depth)) | (~reached & (level >= 0))
        _vertex_rule(
            kind,
            root,
            "2",
            xp,
            wrong,
            lambda v: f"vertex {v} has level {int(level[v])} but depth {int(depth[v])} in the tree",
        )
    confirmed = xp.zeros(n, dtype=bool)
    confirmed[root] = True
    nedge = 0
    for s, d in _chunks(src, dst):
        loops = s == d
        rs, rd = reached[s], reached[d]
        ls, ld = depth[s], depth[d]
        both = rs & rd & ~loops
        bad = both & ((ld > ls + 1) if directed else (xp.abs(ls - ld) > 1))
        if bool(bad.any()):
            detail = "edge ({u}, {v}) joins levels that differ by more than one"
            _edge_error(kind, root, "3", detail, xp, bad, s, d)
        bad = (rs & ~rd) if directed else (rs != rd)
        if bool(bad.any()):
            detail = "edge ({u}, {v}) has exactly one endpoint in the tree"
            _edge_error(kind, root, "4", detail, xp, bad, s, d)
        hit = ~loops & (parent[d] == s)
        confirmed[d[hit]] = True
        if not directed:
            hit = ~loops & (parent[s] == d)
            confirmed[s[hit]] = True
        nedge += int(rs.sum()) if directed else int((rs | rd).sum())
    bad = reached & ~confirmed
    _vertex_rule(
        kind,
        root,
        "5",
        xp,
        bad,
        lambda v: f"vertex {v} has parent {int(parent[v])} but no input edge joins them",
    )
    return nedge


def _tolerance(dist, w) -> Any:
    """Allowed rounding error of ``dist[u] + w`` (exact for integer distances)."""
    if dist.dtype.kind in "iu" and w.dtype.kind in "iu":
        return 0.0
    eps = 1e-5 if np.float32 in (dist.dtype.type, w.dtype.type) else 1e-9
    return eps


def validate_sssp_tree(
    parent: Any,
    dist: Any,
    src: Any,
    dst: Any,
    weights: Any,
    root: int,
    *,
    directed: bool = False,
    num_vertices: int | None = None,
) -> int:
    """Check a shortest-path tree and its distances with the Graph500 kernel-3 rules.

    Parameters
    ----------
    parent : array of int
        As for :func:`validate_bfs_tree`.
    dist : array of float or int
        Distance of every vertex from ``root``; unreached vertices hold ``inf`` (integer
        distances: the dtype's maximum).
    src, dst, weights : arrays
        The input edge list with one weight per tuple (weights >= 0).
    root : int
    directed : bool
        Treat tuples as arcs.
    num_vertices : int, optional

    Returns
    -------
    int
        Input edges in the searched component (the ``nedge`` of TEPS).

    Raises
    ------
    Graph500ValidationError
        Rules 1-5 as for BFS, with distances in place of levels: a tree edge must carry exactly
        ``dist[v] == dist[parent] + w`` for some input edge (rule 2), every edge must satisfy
        ``|dist[u] - dist[v]| <= w`` (rule 3); rule ``"distance"`` when the root's distance is
        not 0, a reached vertex has no finite distance, or an unreached one has one.

    Examples
    --------
    >>> src, dst, w = np.array([0, 1, 0]), np.array([1, 2, 2]), np.array([1.0, 1.0, 5.0])
    >>> validate_sssp_tree(np.array([0, 0, 1]), np.array([0.0, 1.0, 2.0]), src, dst, w, 0)
    3
    """
    kind = "SSSP"
    xp, parent, src, dst, n = _prepare(parent, src, dst, root, num_vertices, kind)
    dist = _on(xp, dist)
    w = _on(xp, weights)
    if dist.shape != parent.shape:
        raise InvalidArgumentError(f"dist has {dist.shape[0]} entries, expected {n}")
    if w.shape != src.shape:
        raise InvalidArgumentError("weights must have one entry per input edge")
    tol = _tolerance(dist, w)
    depth = tree_depths(parent, root, kind=kind)
    reached = depth >= 0
    d = dist.astype(np.float64)
    if dist.dtype.kind in "iu":
        d[dist == np.iinfo(dist.dtype).max] = np.inf
    if float(d[root]) != 0.0:
        raise Graph500ValidationError(
            kind, root, "distance", f"the root's distance is {float(d[root])}", vertex=root
        )
    bad = reached & ~xp.isfinite(d)
    _vertex_rule(
        kind,
        root,
        "distance",
        xp,
        bad,
        lambda v: f"vertex {v} is in the tree but has distance {float(d[v])}",
    )
    bad = ~reached & xp.isfinite(d)
    _vertex_rule(
        kind,
        root,
        "distance",
        xp,
        bad,
        lambda v: f"vertex {v} is outside the tree but has finite distance {float(d[v])}",
    )
    # Rule 2 + 5: some input edge (parent[v], v) carries exactly dist[v] - dist[parent[v]].
    has_edge = xp.zeros(n, dtype=bool)
    confirmed = xp.zeros(n, dtype=bool)
    has_edge[root] = confirmed[root] = True
    nedge = 0
    for s, t, ws in _chunks(src, dst, w):
        loops = s == t
        rs, rt = reached[s], reached[t]
        wf = ws.astype(np.float64)
        bad = (rs & ~rt) if directed else (rs != rt)
        if bool(bad.any()):
            detail = "edge ({u}, {v}) has exactly one endpoint in the tree"
            _edge_error(kind, root, "4", detail, xp, bad, s, t)
        both = rs & rt & ~loops
        ds, dt = xp.where(rs, d[s], 0.0), xp.where(rt, d[t], 0.0)
        bound = wf + tol * (xp.abs(ds) + xp.abs(dt) + wf + 1.0)
        bad = both & ((dt - ds > bound) if directed else (xp.abs(dt - ds) > bound))
        if bool(bad.any()):
            detail = "edge ({u}, {v}) is shorter than the distances of its endpoints allow"
            _edge_error(kind, root, "3", detail, xp, bad, s, t)
        directions = [(s, t, ds, dt)] if directed else [(s, t, ds, dt), (t, s, dt, ds)]
        for a, b, da, db in directions:
            hit = both & (parent[b] == a)
            has_edge[b[hit]] = True
            exact = xp.abs(db - (da + wf)) <= tol * (xp.abs(db) + wf + 1.0)
            confirmed[b[hit & exact]] = True
        nedge += int(rs.sum()) if directed else int((rs | rt).sum())
    bad = reached & ~has_edge
    _vertex_rule(
        kind,
        root,
        "5",
        xp,
        bad,
        lambda v: f"vertex {v} has parent {int(parent[v])} but no input edge joins them",
    )
    bad = reached & ~confirmed
    if bool(bad.any()):
        v = _first(xp, bad)
        p = int(parent[v])
        raise Graph500ValidationError(
            kind,
            root,
            "2",
            f"vertex {v} has distance {float(d[v])!r} but its parent {p} has distance "
            f"{float(d[p])!r} and no edge between them has the difference as weight",
            vertex=v,
        )
    return nedge
