"""NetworkX functions computed by warpgraph, with NetworkX's signatures and result types.

Each function takes the converted graph (:class:`warpgraph.nx.interface.WarpgraphGraph`) and
returns what the NetworkX function returns, keyed by the original node labels. The checks in
:data:`ARGUMENT_CHECKS` (used by ``can_run``) decline the cases where NetworkX means something
warpgraph does not compute; NetworkX then runs them itself (or says the backend cannot).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from itertools import pairwise
from typing import Any

import numpy as np
from numba import njit

from ..algorithms.bfs.api import bfs
from ..algorithms.components.cpu import weak_component_labels
from ..algorithms.kcore.api import core_number as _core_number
from ..algorithms.triads.api import triadic_census as _triadic_census
from ..algorithms.triangles.api import clustering as _clustering
from ..algorithms.triangles.api import transitivity as _transitivity
from ..algorithms.triangles.api import triangles as _triangles

__all__ = [
    "ARGUMENT_CHECKS",
    "bfs_layers",
    "clustering",
    "connected_components",
    "core_number",
    "number_connected_components",
    "single_source_shortest_path_length",
    "transitivity",
    "triadic_census",
    "triangles",
    "weakly_connected_components",
]


def _host(a: Any) -> np.ndarray:
    return a.get() if hasattr(a, "get") else np.asarray(a)


def _keyed(G, values: list) -> dict:
    """``{node: value}`` for every node, in NetworkX's node order."""
    return dict(zip(G.nodes, values, strict=True))


def _node_selection(G, nodes: Any) -> tuple[bool, list]:
    """NetworkX's ``nodes=`` rule: one node, or the members of a container (in its order)."""
    if nodes in G:
        return True, [nodes]
    return False, [v for v in nodes if v in G]


# ---------------------------------------------------------------- traversal
def single_source_shortest_path_length(G, source: Any, cutoff: float | None = None) -> dict:
    """Hop distance from ``source`` to every reachable node (``{node: int}``).

    Keys come in NetworkX's order: layer by layer, each layer in discovery order.
    """
    if source not in G:
        import networkx as nx

        raise nx.NodeNotFound(f"Source {source} is not in G")
    layers = [np.array([G.index[source]], dtype=np.int64)]
    for level, layer in enumerate(_next_layers(G, layers[0]), start=1):
        if cutoff is not None and not cutoff > level - 1:  # NetworkX's test, floats included
            break
        layers.append(layer)
    sizes = np.fromiter(map(len, layers), dtype=np.int64, count=len(layers))
    nodes = G.labels[np.concatenate(layers)].tolist()
    return dict(zip(nodes, np.repeat(np.arange(sizes.size), sizes).tolist(), strict=True))


def bfs_layers(G, sources: Any) -> Iterator[list]:
    """Generator of BFS layers (lists of nodes) in exactly NetworkX's order.

    NetworkX lists a layer in discovery order: the nodes of the previous layer in order, each
    one's neighbours in adjacency order, first discovery wins. warpgraph's BFS gives the levels;
    the order inside each layer is rebuilt from the arcs between consecutive layers by sorting them
    on (position of the tail in its layer, position of the arc in NetworkX's adjacency).
    """
    if sources in G:
        sources = [sources]
    # NetworkX starts from ``list(set(sources))``: the same set built the same way iterates in
    # the same order, so the first layer (and so all later ones) matches.
    return _bfs_layers(G, list(set(sources)))


#: Above this many layers of fewer than ``_THIN_LAYER`` nodes on average, ``bfs_layers`` uses one
#: sequential pass instead of a few array operations per layer.
_DEEP_LAYERS = 256
_THIN_LAYER = 512


def reached_per_layer(levels: np.ndarray, layers: int) -> float:
    return float(np.count_nonzero(levels >= 0)) / max(layers, 1)


@njit(cache=True, nogil=True)
def _ordered_bfs(indptr, heads, first, n):  # pragma: no cover - compiled
    """Nodes in NetworkX's BFS order and where each layer starts (sequential queue)."""
    seen = np.zeros(n, dtype=np.bool_)
    queue = np.empty(n, dtype=np.int64)
    starts = np.empty(n + 1, dtype=np.int64)
    tail = 0
    for v in first:
        seen[v] = True
        queue[tail] = v
        tail += 1
    layers = 0
    head = 0
    while head < tail:
        starts[layers] = head
        layers += 1
        end = tail
        while head < end:
            u = queue[head]
            head += 1
            for k in range(indptr[u], indptr[u + 1]):
                w = heads[k]
                if not seen[w]:
                    seen[w] = True
                    queue[tail] = w
                    tail += 1
    starts[layers] = tail
    return queue[:tail], starts[: layers + 1]


def _sequential_layers(indptr, heads, ids: np.ndarray, n: int) -> Iterator[np.ndarray]:
    """All layers but the first, from one sequential BFS."""
    order, starts = _ordered_bfs(indptr, heads, ids, n)
    for lo, hi in pairwise(starts[1:].tolist()):
        yield order[lo:hi]


def _bfs_layers(G, sources: list) -> Iterator[list]:
    for s in sources:
        if s not in G:
            import networkx as nx

            raise nx.NetworkXError(f"The node {s} is not in the graph.")
    if not sources:
        return
    yield list(sources)
    ids = np.fromiter((G.index[s] for s in sources), dtype=np.int64, count=len(sources))
    labels = G.labels
    for layer in _next_layers(G, ids):
        yield labels[layer].tolist()


def _next_layers(G, ids: np.ndarray) -> Iterator[np.ndarray]:
    """Dense ids of each BFS layer after the first (``ids``), each in NetworkX's order."""
    levels = _host(bfs(G.graph, ids))
    if levels.ndim == 2:  # one BFS per source: the multi-source level is the nearest source
        levels = np.where(levels < 0, np.iinfo(levels.dtype).max, levels).min(axis=0)
        levels[levels == np.iinfo(levels.dtype).max] = -1
    indptr = _host(G.graph.indptr)
    depth = int(levels.max(initial=0))
    if depth > _DEEP_LAYERS and reached_per_layer(levels, depth + 1) < _THIN_LAYER:
        yield from _sequential_layers(indptr, G.nx_order, ids, levels.size)
        return  # a long thin BFS: one sequential pass beats a few array operations per layer
    degree = np.diff(indptr)
    tails = np.repeat(np.arange(degree.size), degree)
    heads = G.nx_order
    rank = np.arange(heads.size) - indptr[tails]  # position in NetworkX's adjacency
    step = levels[tails]
    keep = (step >= 0) & (levels[heads] == step + 1)
    tails, heads, rank, step = tails[keep], heads[keep], rank[keep], step[keep]
    by_step = np.argsort(step, kind="stable")
    bounds = np.searchsorted(step[by_step], np.arange(depth + 1))
    position = np.zeros(levels.size, dtype=np.int64)
    position[ids] = np.arange(ids.size)
    for lo, hi in pairwise(bounds):
        arcs = by_step[lo:hi]
        order = np.lexsort((rank[arcs], position[tails[arcs]]))
        found = heads[arcs][order]
        _, first = np.unique(found, return_index=True)
        layer = found[np.sort(first)]
        position[layer] = np.arange(layer.size)
        yield layer


# ---------------------------------------------------------------- components
def _component_groups(G) -> list[np.ndarray]:
    """Dense ids of each weak component, components ordered by their smallest id."""
    comp = weak_component_labels(G.graph)
    order = np.argsort(comp, kind="stable")
    cuts = np.flatnonzero(np.diff(comp[order])) + 1
    return np.split(order, cuts) if order.size else []


def _component_sets(G) -> Iterator[set]:
    labels = G.labels
    for ids in _component_groups(G):
        yield set(labels[ids].tolist())


def connected_components(G) -> Iterator[set]:
    """Generator of node sets, one per component, in NetworkX's order (by first node)."""
    return _component_sets(G)


def weakly_connected_components(G) -> Iterator[set]:
    """Generator of node sets, one per weak component, in NetworkX's order (by first node)."""
    return _component_sets(G)


def number_connected_components(G) -> int:
    """Number of connected components."""
    comp = weak_component_labels(G.graph)
    return int(np.count_nonzero(comp == np.arange(comp.size)))


# ---------------------------------------------------------------- triangles family
def triangles(G, nodes: Any = None):
    """Triangles at each node: ``{node: int}``, or an ``int`` when ``nodes`` is one node."""
    t = _host(_triangles(G.graph)).tolist()
    if nodes is None:
        return _keyed(G, t)
    single, chosen = _node_selection(G, nodes)
    index = G.index
    if single:
        return t[index[nodes]]
    return {v: t[index[v]] for v in chosen}


def transitivity(G) -> float | int:
    """Global clustering coefficient; ``0`` (an int, as NetworkX) without triangles."""
    value = _transitivity(G.graph)
    return 0 if value == 0 else value


def clustering(G, nodes: Any = None, weight: str | None = None):
    """Local clustering of each node (unweighted, undirected); ``0`` (int) without triangles."""
    c = [0 if x == 0 else x for x in _host(_clustering(G.graph)).tolist()]
    if nodes is None:
        return _keyed(G, c)
    single, chosen = _node_selection(G, nodes)
    index = G.index
    if single:
        return c[index[nodes]]
    return {v: c[index[v]] for v in chosen}


# ---------------------------------------------------------------- cores and triads
def core_number(G) -> dict:
    """Core number of each node (``{node: int}``); self-loops are refused as in NetworkX."""
    if G.graph.num_self_loops:
        import networkx as nx

        raise nx.NetworkXNotImplemented(
            "Input graph has self loops which is not permitted; "
            "Consider using G.remove_edges_from(nx.selfloop_edges(G))."
        )
    return _keyed(G, _host(_core_number(G.graph)).tolist())


def triadic_census(G, nodelist: Any = None) -> dict:
    """Counts of the 16 triad types, in NetworkX's key order."""
    return {k: int(v) for k, v in _triadic_census(G.graph).items()}


# ---------------------------------------------------------------- can_run checks
def _is_directed(G: Any) -> bool:
    return bool(G.is_directed())


def _check_clustering(G, nodes=None, weight=None) -> bool | str:
    if weight is not None:
        return "weighted clustering is not implemented"
    if _is_directed(G):
        return "directed clustering is not implemented"
    return True


def _check_triadic_census(G, nodelist=None) -> bool | str:
    return True if nodelist is None else "nodelist= is not implemented"


def _check_undirected(G, **_: Any) -> bool | str:
    return "directed graphs run in NetworkX" if _is_directed(G) else True


def _check_directed(G, **_: Any) -> bool | str:
    return True if _is_directed(G) else "undirected graphs run in NetworkX"


#: ``can_run`` checks per function name (bound arguments as keywords).
ARGUMENT_CHECKS: dict[str, Callable[..., bool | str]] = {
    "clustering": _check_clustering,
    "triadic_census": _check_triadic_census,
    "connected_components": _check_undirected,
    "number_connected_components": _check_undirected,
    "triangles": _check_undirected,
    "transitivity": _check_undirected,
    "weakly_connected_components": _check_directed,
}
