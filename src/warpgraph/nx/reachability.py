"""NetworkX's ``descendants`` and ``ancestors``: the nodes a source reaches, or that reach it.

NetworkX builds these sets from ``bfs_edges`` (a Python step per arc): a plain ``set``
without the source, its nodes added in the search's order, which its iteration follows where
two labels compete for a slot. The backend's sets iterate alike (since session 52): kept as
found where every key is an int in its home slot, else built in NetworkX's order
(:mod:`._component_order`). Here:

1. A graph not converted yet is first searched on its own dicts while the nodes found stay
   under :data:`LOCAL_REACH_NODES` (a DAG's leaf, a small component): converting a 1M-edge
   graph costs a few ms, more than such a search. Int and str labels are searched by compiled
   code through the C API (:mod:`._short_reach`: its queue is NetworkX's search order, and
   the set is built in it), others with set algebra (where that set's order may differ from
   NetworkX's, NetworkX's own Python steps build it again: a few hundred nodes).
2. A graph not converted yet whose keys hash as their positions (the ints ``0..n-1`` in
   order) is searched on ``G._succ`` (``ancestors``: ``G._pred``; an undirected graph's
   ``_adj``: the source's component, given up past ``1 / SMALL_COMPONENT_SHARE`` of the rows
   for the components read in place, as ``node_connected_component``) in place by compiled
   code (:mod:`._dict_reach`): no conversion, no transpose; where the nodes found would not
   all sit in their sets' home slots, their rows are read again by all threads and searched
   in NetworkX's order (:func:`._component_order.reached_order`; since session 65, before
   which the dicts were searched again one row at a time).
3. Otherwise (a cached conversion, other labels, a view or subclass, a search in place given
   up) the graph is converted and searched from the source (``ancestors``: in the reversed
   graph, cached on the conversion), by a parallel or a sequential BFS chosen by the average
   degree (:data:`SHALLOW_DEGREE`), and the set is built in NetworkX's order where that
   matters (:func:`._component_order.reached_set`).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from . import _short_reach
from ._common import backend_device, gc_paused, host, node_error
from ._component_order import (
    _hash_view,
    _nx_rows,
    ints_in_home_slots,
    nx_pred_rows,
    python_search,
    reached_in_place,
    reached_set,
    smallest_mask,
)
from .components import SHALLOW_DEGREE, _transpose
from .traversal import search_rows

__all__ = ["LOCAL_REACH_NODES", "ancestors", "descendants", "reach_within"]

#: A search on the NetworkX dicts gives up past this many nodes found. Python steps through
#: each node found (~1 us a node: 4,096 nodes of grid:708 took 4-7 ms on 2 cores), so the
#: search given up costs a tenth of converting a 1M-edge graph (~0.5 ms).
LOCAL_REACH_NODES = _short_reach.SHORT_SEARCH_NODES


def reach_within(rows: Any, source: Any, limit: int) -> set | None:
    """The nodes reached from ``source`` through the NetworkX adjacency ``rows`` (``G._adj``,
    ``G._succ`` or ``G._pred``), ``source`` excluded, or None once more than ``limit`` are
    found; a set iterating as NetworkX's. Compiled (:func:`._short_reach.reach`, its set built
    in NetworkX's search order) where it can be; otherwise each layer's rows are merged by
    ``set.update`` (C loops): Python steps through the layers' nodes, not their arcs (it may
    give up a little early, counting the source when a cycle meets it), and where that set's
    order may differ from NetworkX's, NetworkX's own steps build it again.

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
        return found  # (None, or built in NetworkX's order)
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
    return seen if ints_in_home_slots(seen) else python_search(rows, source, False)


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
    """The nodes ``source`` reaches through the dict ``rows_of`` (a ``DiGraph``'s ``_succ``
    or ``_pred``, a ``Graph``'s ``_adj``), searched in place (:mod:`._dict_reach`), as the set
    NetworkX builds: where the keys hash as their positions and every one reached sits in its
    home slot, made from the positions found (:func:`._keyset.key_set`); otherwise built in
    NetworkX's search order (:func:`._component_order.reached_in_place`). None where
    it cannot be (keys hashing otherwise: their sets' order needs the conversion)."""
    from . import _cpython as raw
    from ._dict_reach import MIN_NODES

    return _reach_set(rows_of, source, raw.row_tables(rows_of, MIN_NODES))


def _reach_set(
    rows_of: dict,
    source: Any,
    tables: Any,
    workers: int | None = None,
    row_limit: int | None = None,
) -> set | None:
    """:func:`_in_place` with ``tables`` (what :func:`._cpython.row_tables` read of
    ``rows_of``, or None) given, by ``workers`` threads (None: Numba's) each reading at most
    ``row_limit`` rows (None: no limit; past it, None)."""
    from ._dict_reach import _dense, reach
    from ._keyset import key_set

    if tables is None or not tables.direct:
        return None
    n = len(rows_of)
    at = reach(rows_of, hash(source), workers, row_limit, tables, want="positions")
    if at is None:
        return None
    if not at.size or int(at.max()) <= smallest_mask(at.size):
        if _dense(at.size, n):
            flags = np.zeros(n, dtype=np.bool_)
            flags[at] = True
            made = key_set(rows_of, flags)
        else:
            made = key_set(rows_of, at=at)
        if made is not None:
            return made
    return reached_in_place(rows_of, source, at.size, tables, found=at)


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
        found = _in_place(adj, source) if directed else _undirected_in_place(G, source)
        if found is not None:
            return found
    ids = np.array([G.find(source)])
    reverse = reverse and directed  # (an undirected graph's rows hold both directions)
    rows = _transpose(G) if reverse else G.any_order  # (any order of the arcs will do)
    if rows.num_arcs >= SHALLOW_DEGREE * len(G):
        from ..algorithms.bfs.api import bfs

        dev = backend_device()
        levels = host(bfs(G.on(dev, rows), int(ids[0]), device=dev))
        reached = np.flatnonzero(levels > 0)  # (the source is at level 0, even on a cycle)
    else:
        key = "reversed" if reverse else "any_order"
        reached = search_rows(G, host(rows.indptr), host(rows.indices), key, ids)[0][1:]
    nx_rows = nx_pred_rows if reverse else _nx_rows  # (NetworkX's order, for its set)
    return reached_set(G, int(ids[0]), reached, lambda: nx_rows(G))


def _undirected_in_place(G, source: Any) -> set | None:
    """An undirected graph's answer not converted yet (the source's component less the
    source), as ``node_connected_component`` finds the component: a search of ``_adj`` in
    place while the workers have read at most ``1 / SMALL_COMPONENT_SHARE`` of the rows
    (a small component of a large graph found at its own cost; 2 cores, first calls, a
    3k-node component of a 501k-node lattice: 2.8 ms against 20.5 ms through the components
    pass, NetworkX's 4.1 ms; a 27k-node component, past the share, 21.7 against 20.3 ms; a
    connected lattice ~10%, 15.4 against 14.0 ms), else the components read on the dicts in place
    (:func:`_component_less`); None where neither can be."""
    from .components import small_component_search

    tables, workers, limit = small_component_search(G)
    if tables is not None:
        found = _reach_set(G.pending._adj, source, tables, workers, limit)
        if found is not None:
            return found
    return _component_less(G, source, tables)


def _component_less(G, source: Any, tables: Any = None) -> set | None:
    """An undirected graph's answer not converted yet: the source's component less the
    source, from the components read on the dicts in place (:mod:`._dict_components`, as
    ``node_connected_component``; ``tables``: what :func:`._cpython.row_tables` read of
    ``_adj`` already, if anything), built in NetworkX's order where that matters; None where
    they cannot be read so."""
    from ._common import every_node_set
    from .components import _components

    count, labels = _components(G, "weak", convert=False, tables=tables)
    if count is None:
        return None
    n = len(G)
    if labels is None:  # (connected: every node but the source)
        if _hash_view(G)[0] and n - 1 <= smallest_mask(n - 1):
            made = every_node_set(G)  # (all in their home slots: the source's dummy moves none)
            made.discard(source)
            return made
        return None
    own = G.find(source)
    reached = np.flatnonzero(labels == labels[own])
    reached = reached[reached != own]
    return reached_set(G, own, reached, lambda: _nx_rows(G), rows_of=G.pending._adj)
