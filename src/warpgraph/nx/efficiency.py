"""NetworkX's ``global_efficiency``, ``local_efficiency`` and ``harmonic_diameter``, their values
bit for bit.

NetworkX adds ``1 / d`` over every ordered pair of distinct connected nodes into one Python
float, source after source in node order, each source's targets in breadth-first discovery
order (nearest first), then divides by ``n (n - 1)``; ``0`` (an ``int``) for fewer than two
nodes. :func:`warpgraph.algorithms.bfs.efficiency.efficiency_sum` adds the same terms in the
same order (the backend's ids are NetworkX's node order), so the float is NetworkX's; the
searches run on the backend's device (the additions on the host either way).
Undirected graphs only, as NetworkX (whose decorator refuses directed ones before dispatch).

``local_efficiency`` is NetworkX's mean of ``global_efficiency(G.subgraph(G[v]))`` over the
nodes. The subgraph view lists its nodes in the order of a Python ``set`` of ``v``'s neighbours
(when they are fewer than half the nodes), and that order is the order each neighbourhood's
sum is added in: the backend computes those sets' order from the labels' hashes (CPython's set
layout replayed in parallel, :mod:`._set_order`), or where two labels hash equally builds the
sets with CPython (one per node, from the same label objects in the same order), and hands
that order to
:func:`warpgraph.algorithms.bfs.efficiency.neighbourhood_efficiencies`; the mean is Python's
``sum`` over the nodes (Neumaier-compensated from Python 3.12, as NetworkX's), then divided.

``harmonic_diameter`` adds the same terms in the same order (one search per node in node order,
NetworkX 3.4's BFS or 3.5's unit-weight Dijkstra, both nearest first), directed graphs along
their arcs, and returns ``n (n - 1)`` over that sum.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ..algorithms.bfs.efficiency import efficiency_sum, neighbourhood_efficiencies
from ..algorithms.bfs.efficiency import harmonic_diameter as library_harmonic_diameter
from ._common import backend_device, gc_paused, host, not_implemented
from ._set_order import available as set_layout_known
from ._set_order import set_orders

__all__ = ["global_efficiency", "harmonic_diameter", "local_efficiency"]


def global_efficiency(G) -> float | int:
    """NetworkX's ``global_efficiency(G)`` (module docstring)."""
    n = len(G)
    denom = n * (n - 1)
    if denom == 0:
        return 0
    dev = backend_device()
    return efficiency_sum(G.on(dev, G.any_order), device=dev) / denom


def harmonic_diameter(G, sp: Any = None, *, weight: Any = None) -> float:
    """NetworkX's ``harmonic_diameter(G)``: ``n (n - 1)`` over the sum of ``1 / d`` over the
    ordered pairs of distinct nodes joined by a path, that sum added as NetworkX adds it
    (:func:`~warpgraph.algorithms.bfs.efficiency.efficiency_sum`); ``inf`` when no pair is
    joined, ``nan`` below two nodes. ``sp`` is declined by ``can_run``; a ``weight`` (NetworkX
    3.5+) is taken only where every edge weighs 1, so that its distances are hop counts.

    Examples
    --------
    >>> import networkx as nx
    >>> nx.harmonic_diameter(nx.path_graph(3), backend="warpgraph")  # 6 / (4 * 1 + 2 * 1/2)
    1.2
    """
    if weight is not None and G.graph.num_arcs and G.constant_weight(weight) != 1.0:
        raise not_implemented("harmonic_diameter: edges weighing other than 1 (Dijkstra's sums)")
    dev = backend_device()
    return library_harmonic_diameter(G.on(dev, G.any_order), device=dev)


def _neighbour_orders(G) -> tuple[np.ndarray, np.ndarray]:
    """``(order_ptr, order)``: each node's neighbours in the order NetworkX's subgraph view
    ``G.subgraph(G[v])`` iterates them: its ``show_nodes`` set (``set`` of the neighbours, added
    in adjacency order) when it holds fewer than half the nodes, else node order. The set order
    is computed from the labels' hashes (:func:`._set_order.set_orders`, in parallel) when no
    two labels hash equally, else taken from sets CPython builds (:func:`_sets_built`)."""
    rows = G.any_order  # (rows in NetworkX's adjacency order)
    indptr = host(rows.indptr).astype(np.int64)
    ids = host(rows.indices).astype(np.int64)
    n = len(G)
    degree = np.diff(indptr)
    short = degree[2 * degree < n]
    hashes = _distinct_node_hashes(G, int(short.max()) if short.size else 0)
    if hashes is None:
        return indptr, _sets_built(G, indptr, ids)
    arc_hashes = ids if hashes is True else hashes[ids]
    return indptr, set_orders(indptr, ids, arc_hashes, sort_from=(n + 1) // 2)


def _distinct_node_hashes(G, longest: int) -> np.ndarray | bool | None:
    """``hash()`` of every node by id when no two are equal, ``True`` for the labels
    ``0..n-1`` (each its own hash), None where two nodes hash equally (CPython would compare
    them: its sets are then built) or the set layout of rows up to ``longest`` keys is not this
    Python's (:func:`._set_order.available`)."""
    if not set_layout_known(longest):
        return None
    if G.identity:
        return True
    found = G._node_hashes  # (read by the conversion, distinct)
    if found is not None:
        return found
    hashes = np.fromiter(map(hash, G.nodes), dtype=np.int64, count=len(G))
    return hashes if np.unique(hashes).size == hashes.size else None


def _sets_built(G, indptr: np.ndarray, ids: np.ndarray) -> np.ndarray:
    """The order of :func:`_neighbour_orders` from the sets themselves: one C-level ``set`` per
    node from the same label objects in the same order (~2 us a node, serially)."""
    n = len(G)
    flat = ids.tolist() if G.identity else G.labels[ids].tolist()
    index = None if G.identity else G.index
    bounds = indptr.tolist()
    order = np.empty(ids.size, dtype=np.int64)
    for v in range(n):
        lo, hi = bounds[v], bounds[v + 1]
        if 2 * (hi - lo) < n:
            members = set(iter(flat[lo:hi]))
            got = members if index is None else map(index.__getitem__, members)
            order[lo:hi] = np.fromiter(got, dtype=np.int64, count=hi - lo)
        else:
            order[lo:hi] = np.sort(ids[lo:hi])
    return order


@gc_paused()
def local_efficiency(G) -> float:
    """NetworkX's ``local_efficiency(G)``: the mean over nodes (Python's ``sum`` in node order,
    then ``/ len(G)``) of each neighbourhood's global efficiency, each added in the order
    NetworkX's subgraph view lists its nodes (:func:`_neighbour_orders`)."""
    indptr, order = _neighbour_orders(G)
    values = neighbourhood_efficiencies(G.any_order, indptr, order).tolist()
    sizes = np.diff(indptr).tolist()
    terms = [x if k >= 2 else 0 for x, k in zip(values, sizes, strict=True)]
    return sum(terms) / len(G)
