"""Link analysis of NetworkX: ``pagerank``.

NetworkX's ``pagerank`` is its ``_pagerank_scipy``: power iteration ``x' = alpha * (x @ P +
sum(x[dangling]) * d) + (1 - alpha) * p`` from ``nstart``, stopped when the L1 change falls below
``n * tol``. :func:`warpgraph.algorithms.pagerank.pagerank` follows that step and stopping rule
term for term, so the ranks agree with NetworkX's to rounding (the two may stop one step apart
when a step's change lies within rounding of ``n * tol``: then they differ by less than that
step's change, under ``n * tol`` in L1).

The result is NetworkX's: ``{node: float}`` in the graph's node order, ``{}`` for the empty
graph, ``PowerIterationFailedConvergence(max_iter)`` without convergence and
``ZeroDivisionError`` for a personalization summing to 0. The dict arguments are read in node
order with ``.get(node, 0)``, as NetworkX reads them. What NetworkX computes but warpgraph's
core refuses goes back to NetworkX: by ``can_run`` where the arguments decide
(:func:`.algorithms._check_pagerank`), by ``NotImplementedError`` where the data does (negative,
NaN or infinite weights, weights that are not plain numbers or are ``None``, an ``nstart`` or
``dangling`` summing to 0 over the graph's nodes).
"""

from __future__ import annotations

from itertools import repeat
from typing import Any

import numpy as np

from ..errors import ConvergenceError, InvalidArgumentError
from ._common import backend_device, gc_paused, host, node_dict, not_implemented

__all__ = ["pagerank"]

#: Dicts of at most this many entries are placed by looking their keys up in the graph; larger
#: ones are read as NetworkX reads them, ``d.get(node, 0)`` for every node in order.
FEW_KEYS = 8


def _by_node(G, values: Any) -> np.ndarray:
    """``[values.get(node, 0) for node in G]`` as float64: NetworkX's reading of its dict
    arguments. A small plain ``dict`` is placed key by key instead (the same array: each key
    lands on the node it equals, as ``.get`` would find it)."""
    n = len(G)
    if type(values) is dict and len(values) <= FEW_KEYS:
        out = np.zeros(n, dtype=np.float64)
        for key, value in values.items():
            i = G.find(key)
            if i >= 0:
                out[i] = value
        return out
    return np.fromiter(map(values.get, G.nodes, repeat(0)), dtype=np.float64, count=n)


def _graph_and_weights(G, weight: Any, dev: str):
    """The graph to run on (on ``dev``) and whether it carries the weights of ``weight``;
    ``NotImplementedError`` for the weights NetworkX reads otherwise or the core refuses."""
    if weight is None:
        return G.on(dev, any_order=True), False
    if (G.constant_weight(weight) or 0) > 0:
        # (one positive weight on every arc, or the attribute missing everywhere: each row
        # divided by its sum, the same P as counting arcs; no row sort, no weights to copy)
        return G.on(dev, any_order=True), False
    # (negative, NaN and infinite weights, and out-weights past float64, are refused by the
    # core, on the device, as InvalidArgumentError: see pagerank below)
    return weighted_graph(G, weight, dev)


def weighted_graph(G, weight: str, dev: str):
    """``(G's graph with the weights of edge attribute ``weight``, on ``dev``, True)``;
    ``NotImplementedError`` for weights that are not all ``int``/``float``, ``None`` on some
    edge, or differ between the two arcs of an undirected view's edge (NetworkX reads each
    arc's own dict)."""
    w = G.weighted(weight)
    if w.kind not in ("int", "float", "mixed"):
        raise not_implemented(f"edge attribute {weight!r} holds values other than int or float")
    if w.hidden:
        raise not_implemented(f"edge attribute {weight!r} is None on some edges")
    graph = w.graph  # (its weights follow its own rows: the sorted ones)
    if graph.num_arcs and not G.is_directed() and not _symmetric(G, graph):
        raise not_implemented(
            f"edge attribute {weight!r} differs between the two arcs of an edge "
            "(an undirected view of a DiGraph)"
        )
    return G.on(dev, graph), True


def _symmetric(G, graph) -> bool:
    """Whether each arc ``u -> v`` of the undirected ``graph`` (rows sorted) weighs as much as
    ``v -> u``. True of a plain ``Graph`` (both arcs read the edge's one data dict), so
    checked only for views, whose two arcs may read two dicts (``D.to_undirected(as_view=True)``):
    NetworkX takes one of them for the edge, warpgraph's pull reads the other arc's."""
    source = G.source
    if source is not None and type(source._adj) is dict:
        return True
    return _transpose_equal(graph, host(graph.weights))


def _transpose_equal(graph, values: np.ndarray) -> bool:
    from ..graph import Graph

    g = Graph(host(graph.indptr), host(graph.indices), values, directed=True, validate=False)
    _, indices, reversed_values = g.reverse_csr()  # rows sorted by source: the same arcs
    return bool(np.array_equal(host(indices), host(graph.indices))) and bool(
        np.array_equal(host(reversed_values), values)
    )


@gc_paused()
def pagerank(
    G,
    alpha: Any = 0.85,
    personalization: Any = None,
    max_iter: Any = 100,
    tol: Any = 1.0e-6,
    nstart: Any = None,
    weight: Any = "weight",
    dangling: Any = None,
) -> dict:
    """PageRank of each node (``{node: float}``, NetworkX's order), as NetworkX computes it."""
    import networkx as nx

    from ..algorithms.pagerank.api import pagerank as _pagerank

    n = len(G)
    if n == 0:
        return {}
    dev = backend_device()
    # the weights first: NetworkX reads the graph before its arguments, so a weight it cannot
    # read (None) is its error even where the personalization sums to 0
    graph, weighted = _graph_and_weights(G, weight, dev)
    start = None
    if nstart is not None:
        start = _by_node(G, nstart)
        if not start.sum() > 0:
            raise not_implemented("nstart sums to 0 over the graph's nodes (NetworkX: NaN)")
    teleport = None
    if personalization is not None:
        teleport = _by_node(G, personalization)
        if teleport.sum() == 0:
            raise ZeroDivisionError  # as NetworkX
    spread = None
    if dangling is not None:
        spread = _by_node(G, dangling)
        if not spread.sum() > 0:
            raise not_implemented("dangling sums to 0 over the graph's nodes (NetworkX: NaN)")
    try:
        ranks = _pagerank(
            graph,
            alpha,
            personalization=teleport,
            max_iter=max_iter,
            tol=tol,
            nstart=start,
            dangling=spread,
            weighted=weighted,
            device=dev,
        )
    except ConvergenceError:
        raise nx.PowerIterationFailedConvergence(max_iter) from None
    except InvalidArgumentError as exc:  # (what can_run and the checks above did not foresee)
        raise not_implemented(f"pagerank: {exc}") from exc
    return node_dict(G, None, ranks)
