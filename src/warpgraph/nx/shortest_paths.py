"""Weighted shortest-path lengths of NetworkX: ``single_source_dijkstra_path_length``,
``single_source_bellman_ford_path_length`` and ``negative_edge_cycle``, on warpgraph's SSSP.

Weights are the edge attribute named by ``weight`` (1 where it is missing, as NetworkX). The
distances are NetworkX's exactly, as Python ``int`` when every weight is an ``int`` and ``float``
when every weight is a ``float`` (the source's 0 stays an ``int``, as in NetworkX); graphs
mixing the two, or holding other number types, are left to NetworkX (``NotImplementedError``,
so automatic dispatch runs NetworkX). Keys: the source first, then by distance, ties in node
order. That is NetworkX's Dijkstra order except among equal distances (NetworkX breaks those
by its heap's push counter); Bellman-Ford's keys follow its queue in NetworkX.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from .._arrays import id_dtype_for
from ..errors import InvalidArgumentError, NegativeCycleError
from ..graph import Graph
from ._common import backend_device, host, not_implemented

__all__ = [
    "negative_edge_cycle",
    "single_source_bellman_ford_path_length",
    "single_source_dijkstra_path_length",
]


def _sssp():
    from ..algorithms.sssp import sssp

    return sssp


def _weights(G, weight: str, *, negative_ok: bool, hidden_ok: bool):
    """The weighted graph and the weights' kind, or ``NotImplementedError`` for the cases
    NetworkX computes differently."""
    w = G.weighted(weight)
    if w.kind not in ("int", "float"):
        raise not_implemented(
            f"edge attribute {weight!r} holds {w.kind} values "
            "(NetworkX's result types depend on the path); only all-int or all-float weights"
        )
    if w.hidden and not hidden_ok:
        raise not_implemented(f"edge attribute {weight!r} is None on some edges")
    if not negative_ok and w.graph.num_arcs and host(w.graph.weights).min() < 0:
        raise not_implemented("negative weights (NetworkX's Dijkstra is undefined there)")
    return w


def _distances(G, w, source: Any, method: str, cutoff: Any = None) -> dict:
    """``{node: distance}`` of the reached nodes (within ``cutoff``), NetworkX's types."""
    s = G.index[source]
    dev = backend_device()
    try:
        dist = host(_sssp()(G.on(dev, w.graph), s, method=method, device=dev))
    except InvalidArgumentError as exc:  # e.g. int weights that could overflow int64
        raise not_implemented(str(exc)) from None
    if w.kind == "int":
        reached = dist != np.iinfo(np.int64).max
    else:
        reached = np.isfinite(dist)
    if cutoff is not None:
        reached &= dist <= cutoff
        reached[s] = True  # NetworkX keeps the source whatever the cutoff
    ids = np.flatnonzero(reached)
    order = ids[np.lexsort((ids, dist[ids], ids != s))]  # the source, then by distance
    values = dist[order].tolist()
    values[0] = 0  # NetworkX keeps the source's distance an int
    return dict(zip(G.labels[order].tolist(), values, strict=True))


def single_source_dijkstra_path_length(
    G, source: Any, cutoff: Any = None, weight: str = "weight"
) -> dict:
    """Shortest weighted distance from ``source`` to each reachable node (within ``cutoff``)."""
    if source not in G:
        import networkx as nx

        raise nx.NodeNotFound(f"Node {source} not found in graph")
    w = _weights(G, weight, negative_ok=False, hidden_ok=True)
    return _distances(G, w, source, "auto", cutoff)


def single_source_bellman_ford_path_length(G, source: Any, weight: str = "weight") -> dict:
    """Shortest weighted distance from ``source``; negative weights allowed, a reachable
    negative cycle raises ``NetworkXUnbounded`` as in NetworkX."""
    import networkx as nx

    if source not in G:
        raise nx.NodeNotFound(f"Source {source} not in G")
    w = _weights(G, weight, negative_ok=True, hidden_ok=False)
    negative = w.graph.num_arcs and host(w.graph.weights).min() < 0
    try:
        return _distances(G, w, source, "hbf" if negative else "auto")
    except NegativeCycleError:
        raise nx.NetworkXUnbounded("Negative cycle detected.") from None


def negative_edge_cycle(G, weight: str = "weight", heuristic: bool = True) -> bool:
    """Whether any negative-weight cycle exists (anywhere in the graph)."""
    if G.graph.num_edges == 0:
        return False
    w = G.weighted(weight)
    if w.kind == "other" or w.hidden:
        raise not_implemented(f"edge attribute {weight!r} holds non-numbers or None")
    weights = host(w.graph.weights)
    if not weights.size or weights.min() >= 0:
        return False
    if not G.is_directed():
        return True  # a negative edge u - v is the negative cycle u -> v -> u
    g = w.graph
    n = g.num_vertices
    indptr = np.concatenate((host(g.indptr), [g.num_arcs + n]))  # a new vertex n -> every vertex
    indices = np.concatenate((host(g.indices), np.arange(n))).astype(id_dtype_for(n + 1))
    values = np.concatenate((weights, np.zeros(n, dtype=weights.dtype)))
    aug = Graph(indptr, indices, values, directed=True, validate=False)
    dev = backend_device()
    try:
        _sssp()(aug, n, method="hbf", device=dev)
    except NegativeCycleError:
        return True
    return False
