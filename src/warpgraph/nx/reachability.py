"""NetworkX's ``descendants`` and ``ancestors``: the nodes a source reaches, or that reach it.

NetworkX builds these sets from ``bfs_edges`` (a Python step per arc) and returns a plain
``set`` without the source, whatever the order of discovery: no order rule binds the backend.
Here:

1. A graph not converted yet is first searched on its own dicts while the nodes found stay
   under :data:`LOCAL_REACH_NODES` (a DAG's leaf, a small component): converting a 1M-edge
   graph costs a few ms, more than such a search. Int and str labels are searched by compiled
   code through the C API (:mod:`._short_reach`), others with set algebra.
2. An undirected graph's answer is the source's connected component less the source. The
   components are read from the dicts in place (:mod:`._dict_components`), as
   ``node_connected_component`` reads them.
3. A directed graph not converted yet is searched on ``G._succ`` (``ancestors``: ``G._pred``)
   in place by compiled code (:mod:`._dict_reach`): no conversion, no transpose.
4. Otherwise (a cached conversion, a view or subclass, a search in place given up) the
   graph is converted and searched from the source (``ancestors``: in the reversed graph,
   cached on the conversion), by a parallel or a sequential BFS chosen by the average degree
   (:data:`SHALLOW_DEGREE`).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from . import _short_reach
from ._common import backend_device, gc_paused, host, node_error, node_sets
from .components import SHALLOW_DEGREE, _transpose, node_connected_component
from .traversal import search_rows

__all__ = ["LOCAL_REACH_NODES", "ancestors", "descendants", "reach_within"]

#: A search on the NetworkX dicts gives up past this many nodes found. Python steps through
#: each node found (~1 us a node: 4,096 nodes of grid:708 took 4-7 ms on 2 cores), so the
#: search given up costs a tenth of converting a 1M-edge graph (~0.5 ms).
LOCAL_REACH_NODES = 512


def reach_within(rows: Any, source: Any, limit: int) -> set | None:
    """The nodes reached from ``source`` through the NetworkX adjacency ``rows`` (``G._adj``,
    ``G._succ`` or ``G._pred``), ``source`` excluded, or None once more than ``limit`` are
    found. Compiled (:func:`._short_reach.reach`) where it can be; otherwise each layer's rows
    are merged by ``set.update`` (C loops): Python steps through the layers' nodes, not their
    arcs (it may give up a little early, counting the source when a cycle meets it).

    Examples
    --------
    >>> import networkx as nx
    >>> D = nx.DiGraph([(0, 1), (1, 2), (2, 0), (3, 0)])
    >>> sorted(reach_within(D._succ, 0, 10)), sorted(reach_within(D._pred, 0, 10))
    ([1, 2], [1, 2, 3])
    >>> reach_within(nx.path_graph(100)._adj, 0, 10) is None
    True
    """
    found = _short_reach.reach(rows, source, limit)  # (compiled, for int and str labels)
    if found is not _short_reach.UNREADABLE:
        return found
    seen = {source}
    layer = [source]
    while layer:
        reached: set = set()
        for u in layer:
            reached.update(rows[u])
            if len(reached) > limit:
                return None
        layer = reached - seen
        seen |= layer
        if len(seen) > limit + 1:
            return None
    seen.discard(source)
    return seen


@gc_paused()
def descendants(G, source: Any) -> set:
    """The nodes reachable from ``source``, ``source`` excluded (NetworkX's error for a node
    not in the graph). See the module docstring for how they are found.

    Examples
    --------
    >>> import networkx as nx
    >>> sorted(nx.descendants(nx.path_graph(5, create_using=nx.DiGraph), 2, backend="warpgraph"))
    [3, 4]
    """
    return _reached(G, source, reverse=False)


@gc_paused()
def ancestors(G, source: Any) -> set:
    """The nodes from which ``source`` is reachable, ``source`` excluded (NetworkX's error for
    a node not in the graph).

    Examples
    --------
    >>> import networkx as nx
    >>> sorted(nx.ancestors(nx.path_graph(5, create_using=nx.DiGraph), 2, backend="warpgraph"))
    [0, 1]
    """
    return _reached(G, source, reverse=True)


def _in_place(rows_of: dict, source: Any) -> set | None:
    """The nodes ``source`` reaches through the ``DiGraph`` dict ``rows_of`` (``_succ`` or
    ``_pred``), searched in place (:mod:`._dict_reach`), or None where it cannot be."""
    from ._dict_reach import reach

    return reach(rows_of, hash(source), want="set")


def _reached(G, source: Any, reverse: bool) -> set:
    pending = G.pending  # (a membership test of the conversion would convert now)
    directed = G.is_directed()
    hash(source)  # (an unhashable source: NetworkX's TypeError)
    if not (source in G if pending is None else pending.has_node(source)):
        raise node_error("neighbors", source, directed)
    if pending is not None:
        adj = (pending._pred if reverse else pending._succ) if directed else pending._adj
        near = reach_within(adj, source, LOCAL_REACH_NODES)
        if near is not None:
            return near
        if directed:
            found = _in_place(adj, source)
            if found is not None:
                return found
    if not directed:  # the component less the source (ancestors are the same nodes)
        found = node_connected_component(G, source)
        found.discard(source)
        return found
    ids = np.array([G.find(source)])
    rows = _transpose(G) if reverse else G.any_order  # (any order of the arcs will do)
    if rows.num_arcs >= SHALLOW_DEGREE * len(G):
        from ..algorithms.bfs.api import bfs

        dev = backend_device()
        levels = host(bfs(G.on(dev, rows), int(ids[0]), device=dev))
        reached = np.flatnonzero(levels > 0)  # (the source is at level 0, even on a cycle)
    else:
        key = "reversed" if reverse else "any_order"
        reached = search_rows(G, host(rows.indptr), host(rows.indices), key, ids)[0][1:]
    return node_sets(G, reached, np.array([0, reached.size]))[0]
