"""Eigenvector and Katz centrality of NetworkX: ``eigenvector_centrality``, ``katz_centrality``.

NetworkX computes both in Python loops over the adjacency: ``eigenvector_centrality`` iterates
``y = x + A^T x``, ``x' = y / (hypot(y) or 1)`` from ``nstart / sum(nstart)`` (all ones by
default), ``katz_centrality`` iterates ``x' = alpha * A^T x + beta`` from ``nstart`` (zeros by
default) and then divides by ``hypot(x')`` when ``normalized``; both stop when the L1 change
falls below ``n * tol``. :mod:`warpgraph.algorithms.centrality` takes those steps and that rule
term for term, with one parallel pull over the in-arcs per step, so the values equal NetworkX's
to rounding (its sums are added in another order). Where a step's change lies within rounding
of ``n * tol`` the two may stop one step apart; they then differ by less than that step's
change: under ``n * tol`` in L1 (Katz's normalized values by that change over the vector's
norm).

The result is NetworkX's: ``{node: float}`` in the order of ``nstart``'s keys when it is given
(NetworkX's loop runs over them), else in node order; NetworkX's exceptions with its messages:
``NetworkXPointlessConcept`` for the null graph (eigenvector; Katz gives ``{}``),
``NetworkXError`` for an ``nstart`` of zeros (eigenvector) and for a ``beta`` dict without a
value for every node (Katz), ``PowerIterationFailedConvergence(max_iter)`` without convergence.

What NetworkX computes but warpgraph's core does not goes back to NetworkX: by ``can_run``
where the arguments decide (:func:`.algorithms._check_eigenvector`,
:func:`.algorithms._check_katz`: weight functions, dict values that are not finite ``int`` or
``float``, negative ``nstart`` entries for eigenvector, a non-number ``beta``, ...), by
``NotImplementedError`` where the graph does: an ``nstart`` whose keys are not the graph's nodes
(NetworkX then fails or leaves nodes out), weights that are not all ``int``/``float`` or are
``None``, NaN or infinite (and negative for eigenvector), an undirected view whose two arcs of
an edge weigh differently.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ..errors import ConvergenceError, InvalidArgumentError
from ._common import backend_device, gc_paused, host, node_dict, not_implemented
from .link_analysis import weighted_graph

__all__ = ["eigenvector_centrality", "katz_centrality"]


def _graph_and_weights(G, weight: Any, dev: str):
    """The graph to run on (on ``dev``) and whether it carries the weights of ``weight``;
    ``NotImplementedError`` for the weights the core does not take as NetworkX reads them."""
    if weight is None or G.constant_weight(weight) == 1.0:
        # (1 on every arc, or the attribute missing everywhere: NetworkX's products by 1 are
        # the values themselves; no row sort, no weights to copy)
        return G.on(dev, any_order=True), False
    return weighted_graph(G, weight, dev)


def _keyed_by_nodes(G, values: Any, name: str) -> tuple[np.ndarray, np.ndarray | None]:
    """``(values by dense id, the dense ids in the dict's key order)`` for a dict with a value
    for every node and no other key (ids None when its keys come in node order);
    ``NotImplementedError`` otherwise (NetworkX's loop runs over the dict's keys)."""
    n = len(G)
    if len(values) != n:
        raise not_implemented(f"{name} does not have one value for every node")
    nodes = G.nodes
    keys = list(values)
    if keys == nodes:  # (element-wise ==, at C speed)
        return np.fromiter(values.values(), dtype=np.float64, count=n), None
    index = G.index
    try:
        ids = np.fromiter(map(index.__getitem__, keys), dtype=np.int64, count=n)
    except KeyError:
        raise not_implemented(f"{name} has keys that are not nodes of the graph") from None
    if np.bincount(ids, minlength=n).max() > 1:  # (two keys equal to one node)
        raise not_implemented(f"{name} has two keys for one node")
    out = np.empty(n, dtype=np.float64)
    out[ids] = np.fromiter(values.values(), dtype=np.float64, count=n)
    return out, ids


def _result(G, x, ids: np.ndarray | None) -> dict:
    """``{node: float}`` in node order, or in the order of the dense ids ``ids``."""
    if ids is None:
        return node_dict(G, None, x)
    return node_dict(G, ids, host(x)[ids])


@gc_paused()
def eigenvector_centrality(
    G, max_iter: Any = 100, tol: Any = 1.0e-6, nstart: Any = None, weight: Any = None
) -> dict:
    """Eigenvector centrality of each node (``{node: float}``), as NetworkX computes it."""
    import networkx as nx

    from ..algorithms.centrality.api import eigenvector_centrality as _eigenvector

    if len(G) == 0:
        raise nx.NetworkXPointlessConcept("cannot compute centrality for the null graph")
    if nstart is not None and all(v == 0 for v in nstart.values()):
        raise nx.NetworkXError("initial vector cannot have all zero values")
    if max_iter == 0:  # (NetworkX reads neither the weights nor the keys of nstart then)
        raise nx.PowerIterationFailedConvergence(max_iter)
    start = ids = None
    if nstart is not None:
        start, ids = _keyed_by_nodes(G, nstart, "nstart")
    dev = backend_device()
    graph, weighted = _graph_and_weights(G, weight or None, dev)  # (NetworkX: `if weight`)
    try:
        x = _eigenvector(
            graph, max_iter=max_iter, tol=tol, nstart=start, weights=weighted, device=dev
        )
    except ConvergenceError:
        raise nx.PowerIterationFailedConvergence(max_iter) from None
    except InvalidArgumentError as exc:  # (what can_run and the checks above did not foresee)
        raise not_implemented(f"eigenvector_centrality: {exc}") from exc
    return _result(G, x, ids)


def _beta(G, beta: Any):
    """NetworkX's reading of ``beta``: ``float(beta)``, else a dict with a value for every
    node (``NetworkXError`` otherwise, NetworkX's message), read by node."""
    import networkx as nx

    try:
        return float(beta)
    except (TypeError, ValueError, AttributeError) as err:
        nodes = G.nodes
        if len(beta) != len(nodes) or not all(map(beta.__contains__, nodes)):
            raise nx.NetworkXError("beta dictionary must have a value for every node") from err
    return np.fromiter(map(beta.__getitem__, nodes), dtype=np.float64, count=len(nodes))


@gc_paused()
def katz_centrality(
    G,
    alpha: Any = 0.1,
    beta: Any = 1.0,
    max_iter: Any = 1000,
    tol: Any = 1.0e-6,
    nstart: Any = None,
    normalized: Any = True,
    weight: Any = None,
) -> dict:
    """Katz centrality of each node (``{node: float}``), as NetworkX computes it."""
    import networkx as nx

    from ..algorithms.centrality.api import katz_centrality as _katz

    if len(G) == 0:
        return {}
    b = _beta(G, beta)
    if max_iter == 0:  # (NetworkX reads neither the weights nor nstart then)
        raise nx.PowerIterationFailedConvergence(max_iter)
    start = ids = None
    if nstart is not None:
        start, ids = _keyed_by_nodes(G, nstart, "nstart")
    dev = backend_device()
    graph, weighted = _graph_and_weights(G, weight, dev)
    try:
        x = _katz(
            graph,
            alpha=alpha,
            beta=b,
            max_iter=max_iter,
            tol=tol,
            nstart=start,
            normalized=bool(normalized),
            weights=weighted,
            device=dev,
        )
    except ConvergenceError:
        raise nx.PowerIterationFailedConvergence(max_iter) from None
    except InvalidArgumentError as exc:
        raise not_implemented(f"katz_centrality: {exc}") from exc
    return _result(G, x, ids)
