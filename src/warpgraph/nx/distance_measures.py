"""All-pairs measures of unweighted graphs: ``closeness_centrality``, ``eccentricity``,
``diameter``, ``radius``, ``periphery`` and ``average_shortest_path_length``.

NetworkX runs one breadth-first search per node in Python and keeps three numbers of each: how
many nodes it reached, the sum of their distances, the largest distance. Here those come from
:func:`warpgraph.algorithms.bfs.distance_stats`, 64 searches at a time (iBFS's bitwise joint
traversal) on the backend's device; the results are then NetworkX's exactly: integer sums, and
closeness built with NetworkX's float operations in its order (``(r - 1.0) / total``, times
``(r - 1.0) / (n - 1)``). Errors come where NetworkX raises them, checked before the searches
(a disconnected graph is found in linear time). What these functions do with a weight, a node
subset or given eccentricities runs in NetworkX (``can_run``), as do ``usebounds=True`` on
undirected graphs (NetworkX's extrema bounding: a few searches, not all of them).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ..algorithms.bfs.multi_source import distance_stats
from ._common import backend_device, gc_paused, host, node_dict

__all__ = [
    "average_shortest_path_length",
    "closeness_centrality",
    "diameter",
    "eccentricity",
    "periphery",
    "radius",
]


def _stats(G, reverse: bool = False):
    """Reach, distance sums and eccentricities of a search from every node (id order), on the
    host; ``reverse``: along the arcs backwards (distances *to* each node)."""
    from .components import _transpose

    rows = _transpose(G) if reverse else G.any_order
    dev = backend_device()
    stats = distance_stats(G.on(dev, rows), device=dev)
    return [host(a) for a in stats]


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
    """Closeness of every node (``{node: float}``, node order); incoming distances on a
    directed graph, as NetworkX (which searches ``G.reverse()``)."""
    n = len(G)
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


_ECC_DIRECTED = "Found infinite path length because the digraph is not strongly connected"
_ECC_UNDIRECTED = "Found infinite path length because the graph is not connected"


def _eccentricities(G) -> np.ndarray:
    if len(G) == 0:
        return np.zeros(0, dtype=np.int64)
    _connected_or_raise(G, _ECC_DIRECTED, _ECC_UNDIRECTED)
    return _stats(G)[2]


@gc_paused()
def eccentricity(G, v: Any = None, sp: Any = None, weight: Any = None) -> dict:
    """Eccentricity of every node (``{node: int}``, node order)."""
    return node_dict(G, None, _eccentricities(G))


def diameter(G, e: Any = None, usebounds: bool = False, weight: Any = None):
    """The largest eccentricity (NetworkX's ``ValueError`` for the null graph)."""
    ecc = _eccentricities(G)
    return int(ecc.max()) if ecc.size else max({}.values())


def radius(G, e: Any = None, usebounds: bool = False, weight: Any = None):
    """The smallest eccentricity (NetworkX's ``ValueError`` for the null graph)."""
    ecc = _eccentricities(G)
    return int(ecc.min()) if ecc.size else min({}.values())


def periphery(G, e: Any = None, usebounds: bool = False, weight: Any = None) -> list:
    """The nodes of largest eccentricity, in node order."""
    ecc = _eccentricities(G)
    if not ecc.size:
        return [max({}.values())]  # (NetworkX's ValueError: max() of no eccentricities)
    return G.label_list(np.flatnonzero(ecc == ecc.max()))


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
