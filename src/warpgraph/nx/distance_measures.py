"""All-pairs measures of unweighted graphs: ``closeness_centrality``, ``eccentricity``,
``diameter``, ``radius``, ``periphery``, ``center``, ``barycenter``, ``wiener_index`` and
``average_shortest_path_length``.

NetworkX runs one breadth-first search per node in Python and keeps three numbers of each: how
many nodes it reached, the sum of their distances, the largest distance. Here those come from
:func:`warpgraph.algorithms.bfs.distance_stats`, 64 searches at a time (iBFS's bitwise joint
traversal) on the backend's device; the results are then NetworkX's exactly: integer sums, and
closeness built with NetworkX's float operations in its order (``(r - 1.0) / total``, times
``(r - 1.0) / (n - 1)``). Errors come where NetworkX raises them, checked before the searches
(a disconnected graph is found in linear time). One node's search (``closeness_centrality``'s
``u``, ``eccentricity``'s ``v`` naming one node) of a graph not converted yet runs on
NetworkX's dicts in place where they can be read so (:mod:`._dict_levels`, since session 64).
What these functions do with a weight, a node subset, given eccentricities or distances, or
``attr`` runs in NetworkX (``can_run``).

``usebounds=True`` on an undirected graph (``diameter``, ``radius``, ``periphery``,
``center``) is NetworkX's extrema bounding (Takes & Kosters): a few searches, each bounding
every node's eccentricity from below and above, until the bounds settle the answer. Here
(:func:`_extrema_by_bounds`, since session 55) each search is the backend's and the bounds
are arrays; the answer is NetworkX's whatever the order of the searches (the bounds are
valid and the loop ends only once they decide it), so the next node is picked as NetworkX
picks it (smallest lower / largest upper bound, then the larger degree) with ties in node
order where NetworkX takes its set's order. After :data:`BOUND_SEARCHES` single searches
the nodes still undecided get their exact eccentricities from the joint search, which
decides them as NetworkX's remaining searches would.

Undirected trees take linear time, as NetworkX's own tree paths do (``center`` from NetworkX
3.5, ``barycenter`` from 3.6): eccentricities from three searches (a tree's eccentricity of
``v`` is ``max(d(a, v), d(b, v))`` for the ends ``a``, ``b`` of a longest path), and the
barycenter (the tree's centroid) and the Wiener index from the subtree sizes of one search.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from numba import njit

from ..algorithms.bfs.multi_source import FEW_SOURCES, distance_stats
from ._common import (
    backend_device,
    gc_paused,
    host,
    nbunch_iter,
    networkx_version,
    node_dict,
)

__all__ = [
    "average_shortest_path_length",
    "barycenter",
    "center",
    "closeness_centrality",
    "diameter",
    "eccentricity",
    "periphery",
    "radius",
    "wiener_index",
]


def _stats(G, reverse: bool = False, sources: Any = None):
    """Reach, distance sums and eccentricities of a search from every node (id order; or from
    the ids ``sources``), on the host; ``reverse``: along the arcs backwards (distances *to*
    each node)."""
    from .components import _transpose

    rows = _transpose(G) if reverse else G.any_order
    dev = backend_device()
    if sources is not None and len(sources) <= FEW_SOURCES:
        # (one or two searches run on the CPU whatever the device: the GPU's joint search
        # takes a launch per level, 64-94 ms for grid:708's 1,400 levels on the H200 host,
        # where one thread's queue takes ~5 ms and the graph need not be copied over)
        dev = "cpu"
    stats = distance_stats(G.on(dev, rows), sources, device=dev)
    return [host(a) for a in stats]


#: Whether one search of a graph not converted yet runs on its dicts in place
#: (:func:`_one_search`); off, the graph is converted first, as before session 64
#: (``benchmarks/nx_one_node.py --ab`` times both).
ONE_SEARCH_IN_PLACE = True


def _one_search(G, node: Any, reverse: bool) -> tuple[int, int, int]:
    """``(reached, total, eccentricity)`` of one search from ``node`` (a node of ``G``;
    ``reverse``: along the arcs backwards): on the NetworkX dicts in place where the graph is
    not converted yet and they can be read so (:func:`._dict_levels.level_stats`: no
    conversion, all threads on the wide layers; shallow graphs only), else converted."""
    P = G.pending
    if P is not None and ONE_SEARCH_IN_PLACE:
        from ._dict_levels import level_stats

        rows_of = (P._pred if reverse else P._succ) if P.is_directed() else P._adj
        found = level_stats(rows_of, node, undirected=not P.is_directed())
        if found is not None:
            return tuple(found)
    reached, total, ecc = _stats(G, reverse=reverse, sources=[G.find(node)])
    return int(reached[0]), int(total[0]), int(ecc[0])


def _connected_or_raise(G, directed_message: str, message: str) -> None:
    """NetworkX's error for a graph not (strongly) connected, found by the backend's linear-time
    checks before any all-pairs work."""
    import networkx as nx

    from .components import is_connected, is_strongly_connected

    if G.is_directed():
        if not is_strongly_connected(G):
            raise nx.NetworkXError(directed_message)
    elif not is_connected(G):
        raise nx.NetworkXError(message)


@gc_paused()
def closeness_centrality(G, u: Any = None, distance: Any = None, wf_improved: bool = True):
    """Closeness of every node (``{node: float}``, node order), or of the node ``u`` (a
    float: one search); incoming distances on a directed graph, as NetworkX (which searches
    ``G.reverse()``)."""
    n = len(G)
    if u is not None:
        return _closeness_of(G, u, wf_improved)
    if n == 0:
        return {}
    reached, total, _ = _stats(G, reverse=G.is_directed())
    r = reached.astype(np.float64) - 1.0
    with np.errstate(divide="ignore", invalid="ignore"):
        value = r / total  # (NetworkX: (len(sp) - 1.0) / totsp)
        if wf_improved:
            value *= r / (n - 1)  # (NetworkX: s = (len(sp) - 1.0) / (len_G - 1); c *= s)
    value[(total <= 0) | (n <= 1)] = 0.0
    return node_dict(G, None, value)


def _closeness_of(G, u: Any, wf_improved: bool) -> float:
    """NetworkX's closeness of one node, from one search (NetworkX's ``NodeNotFound`` for a
    node not in the graph), with its Python float operations."""
    import networkx as nx

    if u not in _membership(G):
        raise nx.NodeNotFound(f"Source {u} is not in G")
    r, totsp, _ = _one_search(G, u, reverse=G.is_directed())
    n = len(G)
    value = 0.0
    if totsp > 0.0 and n > 1:
        value = (r - 1.0) / totsp
        if wf_improved:
            value *= (r - 1.0) / (n - 1)
    return value


_ECC_DIRECTED = "Found infinite path length because the digraph is not strongly connected"
_ECC_UNDIRECTED = "Found infinite path length because the graph is not connected"


def _eccentricities(G) -> np.ndarray:
    if len(G) == 0:
        return np.zeros(0, dtype=np.int64)
    _connected_or_raise(G, _ECC_DIRECTED, _ECC_UNDIRECTED)
    return _stats(G)[2]


@gc_paused()
def eccentricity(G, v: Any = None, sp: Any = None, weight: Any = None) -> dict | int:
    """Eccentricity of every node (``{node: int}``, node order), or of the nodes ``v`` names
    (NetworkX's ``nbunch_iter(v)``: a dict in that order, an int for one node), searched from
    those nodes only; NetworkX's error at the first that does not reach every node."""
    if v is None:
        return node_dict(G, None, _eccentricities(G))
    import networkx as nx

    nodes = list(nbunch_iter(G, v))
    if len(nodes) == 1:  # (one search: maybe on the dicts, the graph not converted)
        reached, _, ecc = (np.array([x]) for x in _one_search(G, nodes[0], reverse=False))
    else:
        ids = np.fromiter(map(G.find, nodes), dtype=np.int64, count=len(nodes))
        reached, _, ecc = _stats(G, sources=ids) if ids.size else (ids, ids, ids)
    short = np.flatnonzero(reached != len(G))
    if short.size:  # (NetworkX raises at the first node in its order that misses one)
        raise nx.NetworkXError(_ECC_DIRECTED if G.is_directed() else _ECC_UNDIRECTED)
    found = dict(zip(nodes, ecc.tolist(), strict=True))
    return found[v] if v in _membership(G) else found


def _membership(G):
    """What answers ``node in G`` without converting ``G``: the NetworkX graph it still
    holds, else ``G``."""
    return G if G.pending is None else G.pending


#: NetworkX's error where the extrema bounding's first search misses a node.
_BOUNDS_DISCONNECTED = "Cannot compute metric because graph is not connected."
#: An upper bound not set yet (NetworkX's ``math.inf``), far from int64's end.
_NO_BOUND = np.iinfo(np.int64).max // 4
#: Single searches of the extrema bounding before the eccentricities of the nodes still
#: undecided come from the joint search (64 sources a pass): where the bounds decide little
#: (random graphs, whose eccentricities differ by one or two: urand:17 takes ~20,000 single
#: searches) the bounding alone would cost more than every search.
BOUND_SEARCHES = 64


def _ruled_out(compute: str, lower, upper, minlower, maxlower, minupper, maxupper):
    """NetworkX's rule for the candidates whose bounds settle them for ``compute``."""
    if compute == "diameter":
        return (upper <= maxlower) & (2 * lower >= maxupper)
    if compute == "radius":
        return (lower >= minupper) & (upper + 1 <= 2 * minlower)
    if compute == "periphery":
        return (upper < maxlower) & ((maxlower == maxupper) | (lower > maxupper))
    return (lower > minupper) & ((minlower == minupper) | (upper + 1 < 2 * minlower))


def _pick(ids: np.ndarray, bound: np.ndarray, degree: np.ndarray, smallest: bool) -> int:
    """The id among ``ids`` of the smallest (or largest) ``bound``, then the largest degree,
    then the first."""
    values = bound[ids]
    tied = ids[values == (values.min() if smallest else values.max())]
    return int(tied[np.argmax(degree[tied])])


def _extrema_by_bounds(G, compute: str):
    """NetworkX's ``_extrema_bounding(G, compute)`` of the undirected graph ``G`` (module
    docstring): ``diameter`` / ``radius`` an int, ``periphery`` / ``center`` the nodes in node
    order; NetworkX's ``ValueError`` for the null graph and its ``NetworkXError`` for a
    disconnected one."""
    import networkx as nx

    from .components import bfs_levels, is_connected

    n = len(G)
    if n == 0:
        max({}.values())  # (NetworkX's ValueError: the largest degree of no nodes)
    if not is_connected(G):
        raise nx.NetworkXError(_BOUNDS_DISCONNECTED)
    rows = G.any_order
    degree = np.diff(host(rows.indptr))
    lower = np.zeros(n, dtype=np.int64)
    upper = np.full(n, _NO_BOUND, dtype=np.int64)
    candidates = np.ones(n, dtype=bool)
    minlower, maxlower, minupper, maxupper = _NO_BOUND, 0, _NO_BOUND, 0
    low_node, high_node, high = int(np.argmax(degree)), -1, False
    for _ in range(BOUND_SEARCHES):
        if not candidates.any():
            break
        current = high_node if high else low_node
        high = not high
        dist = bfs_levels(G, rows, "any_order", current).astype(np.int64)
        ecc = int(dist.max())
        ids = np.flatnonzero(candidates)
        d = dist[ids]
        lower[ids] = low = np.maximum(lower[ids], np.maximum(d, ecc - d))
        upper[ids] = upp = np.minimum(upper[ids], ecc + d)
        minlower, maxlower = min(minlower, int(low.min())), max(maxlower, int(low.max()))
        minupper, maxupper = min(minupper, int(upp.min())), max(maxupper, int(upp.max()))
        out = _ruled_out(compute, low, upp, minlower, maxlower, minupper, maxupper)
        candidates[ids[out | (low == upp)]] = False
        ids = np.flatnonzero(candidates)
        if ids.size:
            low_node = _pick(ids, lower, degree, smallest=True)
            high_node = _pick(ids, upper, degree, smallest=False)
    ids = np.flatnonzero(candidates)
    if ids.size:  # (their exact eccentricities settle them, as NetworkX's last searches do)
        lower[ids] = upper[ids] = ecc = _stats(G, sources=ids)[2].astype(np.int64)
        minlower, maxlower = min(minlower, int(ecc.min())), max(maxlower, int(ecc.max()))
        minupper, maxupper = min(minupper, int(ecc.min())), max(maxupper, int(ecc.max()))
    if compute == "diameter":
        return maxlower
    if compute == "radius":
        return minupper
    if compute == "periphery":
        return G.label_list(np.flatnonzero(lower == maxlower))
    return G.label_list(np.flatnonzero(upper == minupper))


def _by_bounds(G, e: Any, usebounds: Any) -> bool:
    """Whether NetworkX answers this call by its extrema bounding."""
    return usebounds is True and e is None and not G.is_directed()


def diameter(G, e: Any = None, usebounds: bool = False, weight: Any = None):
    """The largest eccentricity (NetworkX's ``ValueError`` for the null graph); by the extrema
    bounding with ``usebounds=True`` on an undirected graph."""
    if _by_bounds(G, e, usebounds):
        return _extrema_by_bounds(G, "diameter")
    ecc = _eccentricities(G)
    return int(ecc.max()) if ecc.size else max({}.values())


def radius(G, e: Any = None, usebounds: bool = False, weight: Any = None):
    """The smallest eccentricity (NetworkX's ``ValueError`` for the null graph); by the
    extrema bounding with ``usebounds=True`` on an undirected graph."""
    if _by_bounds(G, e, usebounds):
        return _extrema_by_bounds(G, "radius")
    ecc = _eccentricities(G)
    return int(ecc.min()) if ecc.size else min({}.values())


def periphery(G, e: Any = None, usebounds: bool = False, weight: Any = None) -> list:
    """The nodes of largest eccentricity, in node order (by the extrema bounding with
    ``usebounds=True`` on an undirected graph)."""
    if _by_bounds(G, e, usebounds):
        return _extrema_by_bounds(G, "periphery")
    ecc = _eccentricities(G)
    if not ecc.size:
        return [max({}.values())]  # (NetworkX's ValueError: max() of no eccentricities)
    return G.label_list(np.flatnonzero(ecc == ecc.max()))


def _is_tree(G) -> bool:
    """NetworkX's ``is_tree`` (its ``NetworkXPointlessConcept`` for the null graph)."""
    from .trees import is_tree

    return is_tree(G)


def _tree_levels(G, source: int) -> np.ndarray:
    """Hop distances from dense id ``source`` (on the host): on a tree (fewer arcs than
    :data:`.components.SHALLOW_DEGREE` a node) the sequential compiled pass, linear however
    deep the tree."""
    from .components import bfs_levels

    return bfs_levels(G, G.any_order, "any_order", source)


def _tree_eccentricities(G) -> np.ndarray:
    """Every node's eccentricity in the non-empty undirected tree ``G``, from three searches:
    ``a`` farthest from node 0 ends a longest path, ``b`` farthest from ``a`` is its other
    end, and a node's farthest node is one of the two (so ``ecc = max(d(a, .), d(b, .))``)."""
    a = int(np.argmax(_tree_levels(G, 0)))
    from_a = _tree_levels(G, a)
    b = int(np.argmax(from_a))
    return np.maximum(from_a, _tree_levels(G, b))


@njit(cache=True)
def _subtree_sizes(order, parents, n):  # pragma: no cover - compiled
    """Nodes under each node (itself included) of the search tree of ``order`` (discovery
    order, ``parents[j]`` the dense id of ``order[j]``'s parent, -1 for the root)."""
    sizes = np.ones(n, dtype=np.int64)
    for j in range(order.shape[0] - 1, 0, -1):  # children before their parents
        sizes[parents[j]] += sizes[order[j]]
    return sizes


def _tree_search(G) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """``(order, parents, sizes)`` of a search of the non-empty tree ``G`` from node 0: the
    nodes in discovery order, each one's parent (aligned with ``order``) and the subtree
    sizes by dense id."""
    from .traversal import search_rows

    rows = G.any_order
    root = np.zeros(1, dtype=np.int64)
    order, parents, _ = search_rows(G, host(rows.indptr), host(rows.indices), "any_order", root)
    return order, parents, _subtree_sizes(order, parents, len(G))


def _tree_barycenter(G) -> list:
    """The centroid of the non-empty undirected tree ``G``: the nodes whose removal leaves no
    part of more than ``n / 2`` nodes, which are the nodes of least distance sum (one, or
    two joined by an edge). NetworkX 3.6 answers trees with ``tree.centroid``, which walks
    from the first node towards the heavier side: of two, the one nearer the first node (the
    other's parent in the search from node 0: the larger subtree) comes first; earlier
    versions list them in node order, as their general rule does."""
    n = len(G)
    order, parents, sizes = _tree_search(G)
    largest = n - sizes  # the part on the parent's side (none for the root)
    np.maximum.at(largest, parents[1:], sizes[order[1:]])  # and each child's part
    ids = np.flatnonzero(2 * largest <= n)
    if ids.size == 2 and networkx_version() >= (3, 6):
        ids = ids[np.argsort(-sizes[ids], kind="stable")]
    return G.label_list(ids)


def _edge_path_sum(sizes: np.ndarray, n: int) -> int:
    """``sum(s * (n - s))`` over the subtree sizes ``s`` of a tree of ``n`` nodes: the edge
    above a subtree of ``s`` nodes lies on ``s * (n - s)`` of the paths (the root's term is
    0), so this is the tree's Wiener index. Summed exactly in two 31-bit halves: each term
    fits in int64, their sum may not (a path of 4.2M nodes: ~1.2e19).

    Examples
    --------
    >>> _edge_path_sum(np.array([3, 2, 1]), 3)  # the path 0 - 1 - 2: 1 + 1 + 2
    4
    """
    terms = sizes * (n - sizes)
    low = int((terms & ((1 << 31) - 1)).sum())
    return (int((terms >> 31).sum()) << 31) + low


def _tree_wiener(G) -> int:
    """Twice the Wiener index of the non-empty undirected tree ``G``: NetworkX's sum over
    ordered pairs (:func:`_edge_path_sum` of the subtree sizes of one search)."""
    return 2 * _edge_path_sum(_tree_search(G)[2], len(G))


def _graph_str(G) -> str:
    """``str()`` of the NetworkX graph ``G`` was converted from (NetworkX's messages name it),
    or, where that graph is gone, NetworkX's form of it without a name."""
    source = G.source
    if source is not None:
        return str(source)
    kind = "DiGraph" if G.is_directed() else "Graph"
    return f"{kind} with {len(G)} nodes and {G.any_order.num_edges} edges"


def center(G, e: Any = None, usebounds: bool = False, weight: Any = None) -> list:
    """The nodes of smallest eccentricity, in node order. An undirected tree takes three
    searches (:func:`_tree_eccentricities`; NetworkX from 3.5 answers it with ``tree.center``,
    the same nodes in node order, so from 3.5 the null graph raises ``is_tree``'s error);
    NetworkX's ``ValueError`` for the null graph otherwise. With ``usebounds=True`` on an
    undirected graph, the extrema bounding (NetworkX tries it first)."""
    if _by_bounds(G, e, usebounds):
        return _extrema_by_bounds(G, "center")
    if not G.is_directed() and (len(G) or networkx_version() >= (3, 5)) and _is_tree(G):
        ecc = _tree_eccentricities(G)
    else:
        ecc = _eccentricities(G)
    if not ecc.size:
        return [min({}.values())]  # (NetworkX's ValueError: min() of no eccentricities)
    return G.label_list(np.flatnonzero(ecc == ecc.min()))


def barycenter(G, weight: Any = None, attr: Any = None, sp: Any = None) -> list:
    """The nodes of smallest distance sum (outgoing distances on a digraph), in node order;
    ``[]`` for the null graph. An undirected tree takes one search
    (:func:`_tree_barycenter`; from NetworkX 3.6 in ``tree.centroid``'s order, and the null
    graph raises ``is_tree``'s error). A graph not (strongly) connected raises NetworkX's
    ``NetworkXNoPath``, which names the NetworkX graph."""
    import networkx as nx

    from .components import is_connected, is_strongly_connected

    n = len(G)
    directed = G.is_directed()
    if not directed and (n or networkx_version() >= (3, 6)) and _is_tree(G):
        return _tree_barycenter(G)
    if n == 0:
        return []
    if not (is_strongly_connected(G) if directed else is_connected(G)):
        raise nx.NetworkXNoPath(
            f"Input graph {_graph_str(G)} is disconnected, so every induced subgraph "
            "has infinite barycentricity."
        )
    total = _stats(G)[1]
    return G.label_list(np.flatnonzero(total == total.min()))


def wiener_index(G, weight: Any = None):
    """The sum of the distances over ordered pairs: an ``int`` on a digraph, half of it (a
    ``float``) on an undirected graph, as NetworkX; ``float("inf")`` for a graph not
    (strongly) connected, NetworkX's ``NetworkXPointlessConcept`` for the null graph. An
    undirected tree takes one search (:func:`_tree_wiener`)."""
    from .components import is_connected, is_strongly_connected

    directed = G.is_directed()
    if not (is_strongly_connected(G) if directed else is_connected(G)):
        return float("inf")
    if not directed and _is_tree(G):
        total = _tree_wiener(G)
    else:
        total = int(_stats(G)[1].sum())
    return total if directed else total / 2


def average_shortest_path_length(G, weight: Any = None, method: Any = None):
    """Mean distance over ordered pairs (``s / (n * (n - 1))`` of NetworkX's integer sum)."""
    import networkx as nx

    n = len(G)
    if n == 0:
        raise nx.NetworkXPointlessConcept(
            "the null graph has no paths, thus there is no average shortest path length"
        )
    if n == 1:
        return 0
    _connected_or_raise(G, "Graph is not strongly connected.", "Graph is not connected.")
    return int(_stats(G)[1].sum()) / (n * (n - 1))
