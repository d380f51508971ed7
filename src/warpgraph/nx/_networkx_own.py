"""Single- and few-source calls whose search reaches few nodes, answered by NetworkX's own code.

A search from a node of a small component, a DAG's leaf or within a small ``cutoff`` /
``depth_limit`` touches a few nodes in NetworkX (microseconds); converting a graph of a
million edges first costs milliseconds (2 cores, grid:708 with 3-node components added: a
BFS from such a node 13-16 ms, Dijkstra 42 ms, against NetworkX's 6-8 us). So before a
dispatched single-source function of :data:`SHORT_CALLS` converts a graph of at least
:data:`MIN_NODES` nodes, the compiled search of its dicts (:func:`._short_reach.within`)
counts the nodes within reach (within the depth limit where there is one) along the rows
the function searches; at most :data:`FEW_NODES` of them (:data:`FEW_NODES_WITHIN_LIMIT`
within a depth limit) and NetworkX's own function runs on the graph (``backend="networkx"``):
its result is NetworkX's by definition, and the graph stays unconverted. ``bfs_layers`` and
``multi_source_dijkstra*`` given a few sources (a list, tuple or set of at most
:data:`FEW_SOURCES`) are searched from all of them at once
(:func:`._short_reach.within_sources`). A Dijkstra call given a ``cutoff``
(:data:`DISTANCE_CUTOFF_CALLS`) is counted by a search of the weighted distances instead
(:func:`few_within_distance`, in Python: 2 cores, ~1 ms to give up in grid:708, ~9 ms in
urand:17, whose rows are four times longer). Past that, the search gives up (~0.05-0.3 ms on
2 cores) and the backend runs as before. Only graphs not converted yet, with int or str
labels in plain dicts (what the compiled search reads), and sources that are nodes.

The same for the functions of :data:`LOCAL_CALLS` (``triangles``, ``clustering``,
``average_clustering``) given a few ``nodes`` whose rows and neighbours' rows are short
(:func:`local_work_small`): NetworkX counts those nodes' triangles alone, the backend the
whole graph's.

Smaller graphs are left to the backend's own code whatever the reach (converting them costs
little), so the test suite's small graphs keep testing it.
"""

from __future__ import annotations

import functools
import inspect
import math
from collections.abc import Callable
from heapq import heappop, heappush
from numbers import Real
from typing import Any

from . import _short_reach

__all__ = [
    "DISTANCE_CUTOFF_CALLS",
    "FEW_NODES",
    "FEW_NODES_WITHIN_LIMIT",
    "LOCAL_CALLS",
    "MIN_NODES",
    "SHORT_CALLS",
    "WEIGHTED_CALLS",
    "answered_by_networkx_when_few",
    "few_within",
    "few_within_distance",
]

#: At most this many nodes within reach (the source not counted): NetworkX's own call.
FEW_NODES = _short_reach.SHORT_SEARCH_NODES
#: The same within a depth limit (a hop count). A call that names one mostly means a local
#: search, and the compiled count gives up cheaply (2 cores: ~0.15-0.5 ms at this bound), so
#: it runs on to where NetworkX's own search stops being the cheaper (2 cores, grid:708:
#: 1,861 nodes within 30 hops 1.1-4.1 ms in NetworkX, 14-19 ms through the backend, which
#: converts first).
FEW_NODES_WITHIN_LIMIT = 2048
#: Graphs of fewer nodes are left to the backend (its conversion costs little there).
MIN_NODES = 16384
#: At most this many sources given in a list, tuple or set: a multi-source call is searched.
FEW_SOURCES = 64


def _depth(limit: Any) -> int:
    """The hops a ``cutoff`` / ``depth_limit`` allows (-1: no limit; a limit the search
    cannot take as hops, a float past int64 or NaN, counts as none: the reach is then
    counted whole, an upper bound)."""
    if limit is None or isinstance(limit, bool) or not isinstance(limit, Real):
        return -1
    if not math.isfinite(limit) or limit < 0 or limit >= 2**62:
        return -1
    return int(limit)


#: A call's search as its reader finds it: ``(sources, hops, along incoming arcs)``.
Search = tuple[tuple, int, bool]


def _from(
    node: str, depth: str | None = None, reverse: str | None = None, incoming: bool = False
) -> Callable:
    """A reader of the call's bound arguments: the search from its one ``node``, along
    in-arcs where ``incoming`` (a search to a target) or the argument ``reverse`` is true."""

    def read(a: dict) -> Search | None:
        hops = _depth(a.get(depth)) if depth else -1
        return (a.get(node),), hops, incoming or bool(a.get(reverse, False))

    return read


def _sources(one_node: bool) -> Callable:
    """A reader of ``sources``, a list, tuple or set of at most :data:`FEW_SOURCES` nodes
    (``multi_source_dijkstra*``) or (``one_node``: ``bfs_layers``) also a node: the distinct
    sources; None for anything else (an iterator is not read: NetworkX's call reads it once)."""

    def read(a: dict) -> Search | None:
        sources = a.get("sources")
        if one_node and sources in a["G"].pending:  # (NetworkX's own test, unconverted)
            return (sources,), -1, False
        if type(sources) not in (list, tuple, set, frozenset):
            return None
        try:
            distinct = tuple(dict.fromkeys(sources))
        except TypeError:  # (an unhashable source: the backend raises NetworkX's error)
            return None
        return (distinct, -1, False) if 0 < len(distinct) <= FEW_SOURCES else None

    return read


def _path_source(a: dict) -> Search | None:
    """``shortest_path`` / ``shortest_path_length``: from ``source``, or from ``target`` along
    in-arcs when there is no source (weighted too: the nodes searched are those reached,
    whatever the method); pairs are NetworkX's."""
    if a.get("source") is not None:
        return ((a["source"],), -1, False) if a.get("target") is None else None
    return ((a.get("target"),), -1, True) if a.get("target") is not None else None


def _one_node(name: str, undirected: bool = False) -> Callable:
    """``closeness_centrality(u=...)``, ``eccentricity(v=...)``: a single node only
    (``undirected``: of an undirected graph only)."""

    def read(a: dict) -> Search | None:
        if a.get(name) is None or (undirected and a["G"].is_directed()):
            return None
        return (a[name],), -1, False

    return read


#: Function -> how to read its search (:data:`Search`) from its bound arguments.
SHORT_CALLS: dict[str, Callable[[dict], Search | None]] = {
    "bfs_edges": _from("source", "depth_limit", "reverse"),
    "bfs_tree": _from("source", "depth_limit", "reverse"),
    "bfs_predecessors": _from("source", "depth_limit"),
    "bfs_successors": _from("source", "depth_limit"),
    "bfs_layers": _sources(one_node=True),
    "single_source_shortest_path_length": _from("source", "cutoff"),
    "single_source_shortest_path": _from("source", "cutoff"),
    "single_target_shortest_path": _from("target", "cutoff", incoming=True),
    "single_target_shortest_path_length": _from("target", "cutoff", incoming=True),
    "shortest_path": _path_source,
    "shortest_path_length": _path_source,
    "dfs_edges": _from("source", "depth_limit"),
    "dfs_tree": _from("source", "depth_limit"),
    "dfs_predecessors": _from("source", "depth_limit"),
    "dfs_successors": _from("source", "depth_limit"),
    "dfs_preorder_nodes": _from("source", "depth_limit"),
    "dfs_postorder_nodes": _from("source", "depth_limit"),
    "dfs_labeled_edges": _from("source", "depth_limit"),
    "single_source_dijkstra_path_length": _from("source"),
    "single_source_dijkstra_path": _from("source"),
    "single_source_dijkstra": _from("source"),
    "multi_source_dijkstra_path_length": _sources(one_node=False),  # (cutoff: a distance)
    "multi_source_dijkstra_path": _sources(one_node=False),
    "multi_source_dijkstra": _sources(one_node=False),
    "dijkstra_predecessor_and_distance": _from("source"),
    "single_source_bellman_ford_path_length": _from("source"),
    "single_source_bellman_ford_path": _from("source"),
    "single_source_bellman_ford": _from("source"),
    "bellman_ford_predecessor_and_distance": _from("source"),
    "bellman_ford_path": _from("source"),
    "bellman_ford_path_length": _from("source"),
    "find_negative_cycle": _from("source"),
    "eccentricity": _one_node("v"),
    "closeness_centrality": _one_node("u", undirected=True),  # (NetworkX copies G.reverse())
}


#: Functions whose ``cutoff`` bounds a weighted distance (Dijkstra's): with one, the nodes
#: within it are counted by :func:`few_within_distance` instead of by hops.
DISTANCE_CUTOFF_CALLS = frozenset(
    {
        "single_source_dijkstra_path_length",
        "single_source_dijkstra_path",
        "single_source_dijkstra",
        "multi_source_dijkstra_path_length",
        "multi_source_dijkstra_path",
        "multi_source_dijkstra",
        "dijkstra_predecessor_and_distance",
    }
)


#: The functions of :data:`SHORT_CALLS` that read edge weights (``weight``, default 1 where
#: an edge lacks it): converted with them at once when the backend runs them.
WEIGHTED_CALLS = DISTANCE_CUTOFF_CALLS | frozenset(
    {
        "single_source_bellman_ford_path_length",
        "single_source_bellman_ford_path",
        "single_source_bellman_ford",
        "bellman_ford_predecessor_and_distance",
        "bellman_ford_path",
        "bellman_ford_path_length",
        "find_negative_cycle",
        "shortest_path",
        "shortest_path_length",
    }
)


#: Functions that may name a few nodes (``nodes``): NetworkX's work is then the named nodes'
#: rows and their neighbours' (set intersections), the backend's the whole graph (2 cores,
#: urand:17, ``triangles(G, v)``: 140 ms against NetworkX's 0.03 ms).
LOCAL_CALLS = {"triangles": "nodes", "clustering": "nodes", "average_clustering": "nodes"}
#: At most this many named nodes, whose rows and neighbours' rows hold at most
#: :data:`LOCAL_ENTRIES` entries in all: NetworkX's own call (~1 ms at the bound).
LOCAL_NODES = 64
LOCAL_ENTRIES = 1 << 14


def local_work_small(P: Any, nodes: Any) -> bool:
    """Whether ``nodes`` (one node of the NetworkX graph ``P``, or a list, tuple or set of
    at most :data:`LOCAL_NODES` of them; nothing else is read, so an iterator stays whole)
    reach at most :data:`LOCAL_ENTRIES` row entries within one hop: their own rows and
    their neighbours' (a directed graph's successor and predecessor rows, both of which its
    clustering reads). Stops counting once past it (so a hub costs no more).

    Examples
    --------
    >>> import networkx as nx
    >>> S = nx.star_graph(20000)  # (node 0: the hub)
    >>> local_work_small(S, 5), local_work_small(S, [5, 6]), local_work_small(S, 0)
    (False, False, False)
    >>> P = nx.path_graph(100)
    >>> local_work_small(P, 5), local_work_small(P, [5, 6]), local_work_small(P, iter([5]))
    (True, True, False)
    >>> D = nx.DiGraph((i, 0) for i in range(1, 20000))  # (node 0: 19,999 predecessors)
    >>> local_work_small(D, 0), local_work_small(D, 5)
    (False, False)
    """
    adj = P._adj
    tables = (adj, P._pred) if P.is_directed() else (adj,)
    try:
        single = nodes in adj
    except TypeError:  # (unhashable: a list or set of nodes)
        single = False
    if single:
        named: Any = (nodes,)
    elif type(nodes) in (list, tuple, set, frozenset) and len(nodes) <= LOCAL_NODES:
        named = nodes
    else:
        return False
    rows = []
    total = 0
    for v in named:
        try:
            found = adj.get(v)
        except TypeError:
            return False
        if found is None:  # (not a node: the backend's own errors and skips)
            return False
        for table in tables:
            row = table[v]
            total += len(row)
            if total > LOCAL_ENTRIES:
                return False
            rows.append(row)
    for row in rows:
        for w in row:
            for table in tables:
                total += len(table[w])
            if total > LOCAL_ENTRIES:
                return False
    return True


def _all_nodes(rows: dict | None, sources: tuple) -> bool:
    """Whether each of ``sources`` is a key of ``rows`` (None, as for a view without the
    dicts, and an unhashable source: False; the backend then raises NetworkX's errors)."""
    try:
        return rows is not None and all(source in rows for source in sources)
    except TypeError:
        return False


def few_within(P: Any, sources: tuple, hops: int, incoming: bool) -> bool:
    """Whether the ``sources`` (a tuple of distinct nodes) of the NetworkX graph ``P`` reach
    at most :data:`FEW_NODES` other nodes (:data:`FEW_NODES_WITHIN_LIMIT` when ``hops`` is
    a limit) within ``hops`` (-1: any) along their out-arcs
    (``incoming``: in-arcs), counted by the compiled search of its dicts; False where one is
    not a node (the backend raises NetworkX's error) or that search cannot run (unknown).

    Examples
    --------
    >>> import networkx as nx
    >>> from warpgraph.nx import _short_reach
    >>> D = nx.path_graph(2000, create_using=nx.DiGraph)
    >>> readable = _short_reach.within(D._adj, 0, 1) is not _short_reach.UNREADABLE
    >>> few_within(D, (1990,), -1, False) == readable  # (9 nodes on)
    True
    >>> few_within(D, (0,), -1, False), few_within(D, (0, 1000), 3, False) == readable
    (False, True)
    >>> few_within(D, (1990,), -1, True)  # (1,990 nodes reach it)
    False
    """
    rows = getattr(P, "_pred" if incoming and P.is_directed() else "_adj", None)
    if not _all_nodes(rows, sources):
        return False
    bound = FEW_NODES if hops < 0 else FEW_NODES_WITHIN_LIMIT
    found = _short_reach.within_sources(rows, sources, bound, hops)
    return found is not _short_reach.UNREADABLE and found is not _short_reach.GAVE_UP


def few_within_distance(P: Any, sources: tuple, cutoff: Any, weight: Any) -> bool:
    """Whether Dijkstra's search from the ``sources`` (a tuple of distinct nodes) of the
    NetworkX graph ``P`` settles at most :data:`FEW_NODES` other nodes within the distance
    ``cutoff``, reading at most :data:`LOCAL_ENTRIES` row entries (so a hub costs no more),
    each edge's ``weight`` as NetworkX's Dijkstra reads it (``data.get(weight, 1)``; None
    hides the edge). A search in Python (~1 us a node): the weights live in the edges' data
    dicts, which the compiled search does not read; it gives up, answering False, past those
    bounds, at a weight that is not an ``int`` or ``float`` at least 0 (NaN included), and
    for a ``cutoff`` that is not a finite number, a ``weight`` that is not a ``str``, a
    multigraph or a source that is not a node (the backend then runs as before).

    Examples
    --------
    >>> import networkx as nx
    >>> G = nx.path_graph(5000)
    >>> nx.set_edge_attributes(G, 2, "weight")
    >>> few_within_distance(G, (0,), 10, "weight")  # (5 nodes on)
    True
    >>> few_within_distance(G, (0, 4999), 2000, "weight")  # (2,000 nodes)
    False
    """
    if type(weight) is not str or P.is_multigraph():
        return False
    if isinstance(cutoff, bool) or not isinstance(cutoff, Real) or not math.isfinite(cutoff):
        return False
    adj = getattr(P, "_adj", None)
    if not _all_nodes(adj, sources):
        return False
    settled: dict = {}
    best = dict.fromkeys(sources, 0)
    heap = [(0, i, v) for i, v in enumerate(sources)]
    pushed, entries = len(heap), 0
    while heap:
        dist, _, v = heappop(heap)
        if v in settled:
            continue
        settled[v] = dist
        row = adj[v]
        entries += len(row)
        if len(settled) > FEW_NODES + len(sources) or entries > LOCAL_ENTRIES:
            return False
        for u, data in row.items():
            w = data.get(weight, 1)
            if w is None:
                continue
            if type(w) not in (int, float) or not w >= 0:
                return False
            reached = dist + w
            if reached <= cutoff and u not in settled and reached < best.get(u, math.inf):
                best[u] = reached
                heappush(heap, (reached, pushed, u))
                pushed += 1
    return True


def answered_by_networkx_when_few(name: str, ours: Callable) -> Callable:
    """``ours`` (the backend's ``name``), first handing a call whose search reaches few
    nodes of a large graph not converted yet (:data:`SHORT_CALLS`), or that names few nodes of
    little work (:data:`LOCAL_CALLS`), to NetworkX's own ``name`` (module docstring); ``ours``
    itself for the other functions.

    Examples
    --------
    >>> def pagerank(G): ...
    >>> answered_by_networkx_when_few("pagerank", pagerank) is pagerank  # (whole-graph work)
    True
    >>> def bfs_edges(G, source, reverse=False, depth_limit=None, sort_neighbors=None): ...
    >>> answered_by_networkx_when_few("bfs_edges", bfs_edges).__wrapped__ is bfs_edges
    True
    """
    read = SHORT_CALLS.get(name)
    local = LOCAL_CALLS.get(name)
    if read is None and local is None:
        return ours
    signature = inspect.signature(ours)

    def networkx_own(P: Any, bound: inspect.BoundArguments) -> bool:
        """Whether this call is NetworkX's own to make (module docstring)."""
        if len(P) < MIN_NODES:
            return False
        if local is not None:
            nodes = bound.arguments.get(local)
            return nodes is not None and local_work_small(P, nodes)
        found = read(bound.arguments)
        if found is None:
            return False
        cutoff = bound.arguments.get("cutoff")
        if name in DISTANCE_CUTOFF_CALLS and cutoff is not None:
            weight = bound.arguments.get("weight", "weight")
            return few_within_distance(P, found[0], cutoff, weight)
        return few_within(P, *found)

    @functools.wraps(ours)
    def call(*args: Any, **kwargs: Any) -> Any:
        G = args[0] if args else kwargs.get("G")
        P = getattr(G, "pending", None)
        if P is None:  # (converted already: cached, or a graph NetworkX does not defer)
            return ours(*args, **kwargs)
        try:
            bound = signature.bind(*args, **kwargs)
        except TypeError:
            return ours(*args, **kwargs)
        if networkx_own(P, bound):
            import networkx as nx

            bound.arguments[next(iter(signature.parameters))] = P
            return getattr(nx, name)(*bound.args, backend="networkx", **bound.kwargs)
        weight = bound.arguments.get("weight", "weight") if name in WEIGHTED_CALLS else None
        if type(weight) is str:  # (read in the conversion's scan, as an eager one reads it)
            G.convert_pending(edge_attrs={weight: 1})
        return ours(*args, **kwargs)

    return call
