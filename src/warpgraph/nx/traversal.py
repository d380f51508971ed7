"""Breadth-first search functions of NetworkX, in exactly NetworkX's order.

NetworkX visits a BFS layer in discovery order: the nodes of the previous layer in order, each
one's neighbours in adjacency (insertion) order, first discovery wins; a node's BFS parent is
the node that discovered it. On the CPU these functions run one queue-based
BFS in Numba over the neighbour ids kept in NetworkX's adjacency order
(``WarpgraphGraph.nx_order``): O(n + m). On the GPU (graphs of ``GPU_MIN_ARCS`` arcs or more)
the wide layers are expanded there, in exactly the same order, by the rule of
:mod:`warpgraph.algorithms.bfs.discovery_order` (first discovering arc by atomic minimum over
the layer's arcs in NetworkX's scan order, then a stable compaction); the narrow ones stay in
the sequential pass.
Like NetworkX, a search with a depth limit (``cutoff``, ``depth_limit``, the ``distance`` of
``descendants_at_distance``) stops at that layer.
"""

from __future__ import annotations

import math
import warnings
from collections.abc import Iterator
from itertools import pairwise, repeat
from typing import Any

import numpy as np
from numba import njit

from ..algorithms.bfs.discovery_order import _expand
from . import _short_reach
from ._common import (
    backend_device,
    gc_paused,
    host,
    layer_by_sets,
    local_search,
    networkx_version,
    node_error,
    path_dict,
    split_list,
    try_node_dict,
)
from ._component_order import ints_in_home_slots, layer_set, nx_pred_rows, python_layer
from ._results import bfs_tree_graph

__all__ = [
    "bfs_edges",
    "bfs_layers",
    "bfs_predecessors",
    "bfs_successors",
    "bfs_tree",
    "descendants_at_distance",
    "shortest_path",
    "single_source_shortest_path",
    "single_source_shortest_path_length",
    "single_target_shortest_path",
    "single_target_shortest_path_length",
]

#: Above this many layers of fewer than ``_THIN_LAYER`` nodes on average, the layers come from
#: one sequential pass instead of a few array operations per layer.
_DEEP_LAYERS = 256
_THIN_LAYER = 512


@njit(cache=True, nogil=True)
def _ordered_bfs(indptr, heads, first, n, max_depth):  # pragma: no cover - compiled
    """Nodes in queue (discovery) order, their parents (-1 for ``first``), and where each
    layer starts in that order (``starts[-1]`` is the number reached); layers beyond
    ``max_depth`` are not searched (``max_depth < 0``: no limit). The layers are expanded by
    :func:`warpgraph.algorithms.bfs.discovery_order._expand`, the sequential pass the GPU
    search also uses."""
    seen = np.zeros(n, dtype=np.bool_)
    queue = np.empty(n, dtype=np.int64)
    parent = np.empty(n, dtype=np.int64)
    starts = np.empty(n + 2, dtype=np.int64)
    tail = 0
    for v in first:
        if not seen[v]:
            seen[v] = True
            queue[tail] = v
            parent[tail] = -1
            tail += 1
    starts[0] = 0
    found = _expand(indptr, heads, queue, parent, seen, 0, tail, 0, max_depth, 0, starts, 1)
    tail, count = found[1], found[3]
    if starts[count - 1] != tail:  # the last layer searched was not expanded (depth limit)
        starts[count] = tail
        count += 1
    return queue[:tail], parent[:tail], starts[:count]


def bfs_order(indptr: np.ndarray, heads: np.ndarray, ids: np.ndarray, max_depth: int = -1) -> tuple:
    """``(order, parents, starts)`` of a queue-based BFS from ``ids`` that scans each row of
    ``(indptr, heads)`` in stored order: the nodes in discovery order, who discovered each
    (-1 for the sources) and the offset of each layer in ``order`` (plus the end). Layers
    deeper than ``max_depth`` (when >= 0) are not searched."""
    n = int(indptr.shape[0]) - 1
    return _ordered_bfs(indptr, heads, np.asarray(ids, dtype=np.int64), n, max_depth)


#: On the GPU, graphs of at least this many arcs have their wide BFS layers expanded there.
GPU_MIN_ARCS = 1 << 18


def _bfs(G, ids: np.ndarray, max_depth: int = -1, incoming: bool = False) -> tuple:
    """:func:`search_rows` over ``G``'s rows in NetworkX's order: its adjacency (``_adj`` /
    ``_succ``), or with ``incoming`` a directed graph's ``_pred`` rows (NetworkX's searches
    to a target and ``bfs_edges(reverse=True)`` read those, in their own order: read from the
    source graph once, :func:`._component_order.nx_pred_rows`)."""
    if incoming and G.is_directed():
        indptr, heads = nx_pred_rows(G)
        return search_rows(G, indptr, heads, "nx_pred", ids, max_depth)
    return search_rows(G, host(G.any_order.indptr), G.nx_order, "nx_order", ids, max_depth)


def search_rows(
    G, indptr: np.ndarray, heads: np.ndarray, key: str, ids: np.ndarray, max_depth: int = -1
) -> tuple:
    """:func:`bfs_order` over the rows ``(indptr, heads)`` of the converted graph ``G`` (its
    adjacency in some order, named ``key``): on the GPU backend, for :data:`GPU_MIN_ARCS`
    arcs or more, by :func:`_ordered_bfs_gpu`."""
    if heads.shape[0] >= GPU_MIN_ARCS and backend_device() == "gpu":
        return _ordered_bfs_gpu(G, ids, max_depth, rows=(indptr, heads, key))
    return bfs_order(indptr, heads, ids, max_depth)


def _ordered_bfs_gpu(
    G, ids: np.ndarray, max_depth: int = -1, switch_arcs: int = 1 << 16, rows: tuple | None = None
):
    """:func:`bfs_order` with the layers of ``switch_arcs`` arcs or more expanded on the GPU,
    over ``rows`` (``indptr, heads, key``; default: the adjacency in NetworkX's order), copied
    there once per conversion."""
    from ..algorithms.bfs.discovery_order import ordered_bfs
    from ..device import cupy
    from ..gpu.transfer import to_device

    indptr, heads, key = rows or (host(G.any_order.indptr), G.nx_order, "nx_order")
    placed = G._placed.get((key, "gpu"))
    if placed is None:
        placed = G._placed[key, "gpu"] = (to_device(indptr), to_device(heads))
    return ordered_bfs(indptr, heads, ids, max_depth, xp=cupy(), device_arrays=placed,
                       switch_arcs=switch_arcs)  # fmt: skip


def _depth_for(limit: Any, n: int) -> int:
    """The deepest layer NetworkX keeps under ``cutoff``/``depth_limit`` (layer k while
    k - 1 < limit), -1 for no limit."""
    if limit is None or not limit < n:
        return -1
    return max(0, math.ceil(limit))


def _layers_within(starts: np.ndarray, limit: Any) -> int:
    """How many layers NetworkX keeps: layer ``k`` while ``k - 1 < limit`` (floats too)."""
    count = 1
    while count < starts.size - 1 and count - 1 < limit:
        count += 1
    return count


def _source_ids(G, sources: list) -> np.ndarray:
    return np.fromiter(map(G.find, sources), dtype=np.int64, count=len(sources))


# ---------------------------------------------------------------- layers and distances
@gc_paused()
def single_source_shortest_path_length(G, source: Any, cutoff: float | None = None) -> dict:
    """Hop distance from ``source`` to every reachable node (``{node: int}``).

    Keys come in NetworkX's order: layer by layer, each layer in discovery order.
    """
    return hop_lengths(G, source, cutoff)


def hop_lengths(G, source: Any, cutoff: Any = None, incoming: bool = False) -> dict:
    """:func:`single_source_shortest_path_length`; with ``incoming`` the search runs along a
    directed graph's in-arcs, in NetworkX's ``_pred`` order (the lengths *to* ``source``)."""
    if source not in G:
        raise node_error("source", source)
    order, _, starts = _within_cutoff(G, source, cutoff, incoming)
    levels = np.repeat(np.arange(starts.size - 1), np.diff(starts))
    found = try_node_dict(G, order[: starts[-1]], levels)  # compiled (equal levels share an int)
    if found is not None:
        return found
    nodes = G.label_list(order[: starts[-1]])
    # One int object per layer, shared by its nodes (a list of levels would make one per node
    # beyond 256: 2x slower on a 501k-node grid with ~1000 layers).
    found = {}
    for level, (lo, hi) in enumerate(pairwise(starts.tolist())):
        found.update(zip(nodes[lo:hi], repeat(level, hi - lo), strict=True))
    return found


def _within_cutoff(G, source: Any, cutoff: Any, incoming: bool = False) -> tuple:
    """``(order, parents, starts)`` of the BFS from ``source`` (in ``G``; ``incoming``: along
    in-arcs), ``starts`` cut to the layers NetworkX keeps under ``cutoff`` (layer k while
    ``cutoff > k - 1``)."""
    depth = _depth_for(cutoff, len(G))
    order, parent, starts = _bfs(G, np.array([G.find(source)]), depth, incoming)
    if cutoff is not None:
        starts = starts[: _layers_within(starts, cutoff) + 1]
    return order, parent, starts


def _path_dict(G, source: Any, cutoff: Any, *, to_source: bool = False) -> dict:
    """NetworkX's dict of BFS paths from ``source`` (each through the node's BFS parent), keys
    in its order; ``to_source``: the paths to ``source``, each reversed
    (:func:`._common.path_dict`), searched along a directed graph's in-arcs."""
    order, parent, starts = _within_cutoff(G, source, cutoff, incoming=to_source)
    end = int(starts[-1])
    return path_dict(G, order[:end], parent[:end], 1, to_source=to_source)


@gc_paused()
def single_source_shortest_path(G, source: Any, cutoff: float | None = None) -> dict:
    """NetworkX's shortest paths from ``source`` (``{node: [source, ..., node]}``), keys in its
    (BFS discovery) order, each path through the node's BFS parent.

    Examples
    --------
    >>> import networkx as nx
    >>> nx.single_source_shortest_path(nx.path_graph(3), 0, backend="warpgraph")
    {0: [0], 1: [0, 1], 2: [0, 1, 2]}
    """
    import networkx as nx

    if source not in G:
        raise nx.NodeNotFound(f"Source {source} not in G")
    return _path_dict(G, source, cutoff)


@gc_paused()
def single_target_shortest_path(G, target: Any, cutoff: float | None = None) -> dict:
    """NetworkX's shortest paths to ``target`` (``{node: [node, ..., target]}``): the search
    from the target (along a directed graph's in-arcs, in NetworkX's ``_pred`` order), each
    path reversed, in NetworkX's order.

    Examples
    --------
    >>> import networkx as nx
    >>> nx.single_target_shortest_path(nx.path_graph(3), 0, backend="warpgraph")
    {0: [0], 1: [1, 0], 2: [2, 1, 0]}
    """
    import networkx as nx

    if target not in G:
        raise nx.NodeNotFound(f"Target {target} not in G")
    return _path_dict(G, target, cutoff, to_source=True)


def shortest_path(
    G, source: Any = None, target: Any = None, weight: Any = None, method: str = "dijkstra"
) -> dict:
    """NetworkX's ``shortest_path`` where it returns one dict of paths: from ``source`` (no
    ``target``), or to ``target`` (no ``source``; NetworkX's paths from it, along a directed
    graph's in-arcs, each reversed), keys in NetworkX's order; unweighted when ``weight`` is
    None (:func:`single_source_shortest_path`), else Dijkstra's or Bellman-Ford's by
    ``method`` (:mod:`.shortest_paths`); ``ValueError`` for a method NetworkX does not know.
    All pairs and a source-target pair (NetworkX's bidirectional searches stop early) run in
    NetworkX (``can_run``).

    Examples
    --------
    >>> import networkx as nx
    >>> nx.shortest_path(nx.path_graph(3), target=2, backend="warpgraph")
    {2: [2], 1: [1, 2], 0: [0, 1, 2]}
    """
    import networkx as nx

    from . import shortest_paths

    if method not in shortest_paths.METHODS:
        raise ValueError(f"method not supported: {method}")
    if weight is not None:
        node = target if source is None else source
        if source is None:  # (a digraph: along its in-arcs)
            to_target = (
                shortest_paths.dijkstra_to_target
                if method == "dijkstra"
                else shortest_paths.bellman_ford_to_target
            )
            with gc_paused():
                paths = to_target(G, target, weight, paths=True)
        elif method == "dijkstra":
            paths = shortest_paths.single_source_dijkstra_path(G, node, None, weight)
        else:
            paths = shortest_paths.single_source_bellman_ford_path(G, node, weight)
        if source is None:  # NetworkX reverses each path from the target
            with gc_paused():
                paths = dict(zip(paths, map(list, map(reversed, paths.values())), strict=True))
        return paths
    if source is not None:
        return single_source_shortest_path(G, source)
    if target not in G:  # (NetworkX searches from the target as a source)
        raise nx.NodeNotFound(f"Source {target} not in G")
    with gc_paused():
        return _path_dict(G, target, None, to_source=True)


def single_target_shortest_path_length(G, target: Any, cutoff: float | None = None):
    """Hop distance to ``target`` from each node that reaches it: the search from the target,
    as NetworkX runs it (over ``G._adj``, or a directed graph's ``G._pred`` in its order),
    keys in its order. As the installed NetworkX: from 3.5 a dict; in 3.4 an iterator of
    ``(node, length)`` pairs, with NetworkX's ``FutureWarning``."""
    import networkx as nx

    if target not in G:
        raise nx.NodeNotFound(f"Target {target} is not in G")
    with gc_paused():
        found = hop_lengths(G, target, cutoff, incoming=True)
    if networkx_version() >= (3, 5):
        return found
    warnings.warn(
        "\n\nsingle_target_shortest_path_length will return a dict instead of"
        "\nan iterator in version 3.5",
        FutureWarning,
        stacklevel=3,
    )
    return (pair for pair in found.items())


def bfs_layers(G, sources: Any) -> Iterator[list]:
    """Generator of BFS layers (lists of nodes) in exactly NetworkX's order."""
    if sources in G:
        sources = [sources]
    if networkx_version() < (3, 5):
        # NetworkX 3.4 starts from ``list(sources)`` as given, repeats included; a repeat
        # finds nothing new, so the search runs from each source's first place
        first = list(sources)
        return _bfs_layers(G, list(dict.fromkeys(first)), first)
    # NetworkX 3.5 on starts from ``list(set(sources))``: the same set built the same way
    # iterates in the same order, so the first layer (and so all later ones) matches.
    first = list(set(sources))
    return _bfs_layers(G, first, first)


def _bfs_layers(G, sources: list, first: list) -> Iterator[list]:
    """The layers of a search from ``sources`` (distinct), of which ``first`` is the first."""
    for s in first:
        if s not in G:
            raise node_error("graph", s)
    if not sources:
        return
    order, _, starts = _bfs(G, _source_ids(G, sources))
    with gc_paused():
        nodes = G.label_list(order)
        layers = [nodes[lo:hi] for lo, hi in pairwise(starts[1:].tolist())]
    yield list(first)
    yield from layers


@gc_paused()
def descendants_at_distance(G, source: Any, distance: Any) -> set:
    """The nodes at exactly ``distance`` hops from ``source`` (a ``set``); like NetworkX, the
    search stops at that layer. The conversion is deferred for this function: a search that
    likely reaches few nodes (:func:`._common.local_search`) of a graph not converted yet runs
    on its own dicts, never converting it: compiled for int and str labels
    (:func:`._short_reach.layer`; past 1/16 of the nodes it gives up and the graph is
    converted), by set algebra for others (:func:`._common.layer_by_sets`). Any other search
    (deep, from a node of a small component) runs compiled while it finds at most
    :data:`._short_reach.SHORT_SEARCH_NODES` nodes before the graph is converted."""
    pending = G.pending
    if not (source in G if pending is None else pending.has_node(source)):
        raise node_error("graph", source)
    try:
        depth = int(distance)
    except (TypeError, ValueError, OverflowError):
        return set()
    if depth != distance or depth < 0 or depth >= len(G):
        return set()  # NetworkX compares every layer index with ``distance``: none is equal
    if pending is not None:
        # (a search estimated to stay local may find up to 1/16 of the nodes; any other, a
        # deep one from a node of a small component, the short searches' bound)
        local = local_search(pending, depth)
        limit = max(len(G) // 16, 1) if local else _short_reach.SHORT_SEARCH_NODES
        near = _short_reach.layer(pending._adj, source, depth, limit)
        if near is _short_reach.UNREADABLE:  # (labels other than ints and strs)
            near = layer_by_sets(pending._adj, source, depth) if local else None
            if near is not None and not ints_in_home_slots(near):  # (NetworkX's order)
                near = python_layer(pending._adj, source, depth)
        if near is not _short_reach.GAVE_UP:  # (the compiled search's: in NetworkX's order)
            return near
    order, _, starts = _bfs(G, np.array([G.find(source)]), depth)
    if starts.size - 1 <= depth:
        return set()
    return layer_set(G, order[starts[depth] : starts[depth + 1]])  # (in NetworkX's order)


def _tree_arcs(
    G, source: Any, depth_limit: Any, incoming: bool = False
) -> tuple[np.ndarray, np.ndarray]:
    """``(parents, children)`` dense ids of the tree arcs within ``depth_limit``, in NetworkX's
    discovery order (``incoming``: along a directed graph's in-arcs, ``reverse=True``)."""
    if source not in G:
        raise node_error("neighbors", source, G.is_directed())
    limit = len(G) if depth_limit is None else depth_limit
    depth = _depth_for(limit, len(G))
    order, parent, starts = _bfs(G, np.array([G.find(source)]), depth, incoming)
    end = starts[_layers_within(starts, limit)] if starts.size > 1 else 1
    if not 0 < limit:
        end = 1
    return parent[1:end], order[1:end]


def bfs_edges(
    G, source: Any, reverse: bool = False, depth_limit: Any = None, sort_neighbors: Any = None
) -> Iterator[tuple]:
    """Generator of the BFS tree edges ``(parent, child)`` in NetworkX's discovery order
    (``reverse``: along a directed graph's in-arcs, in NetworkX's ``_pred`` order)."""
    parents, children = _tree_arcs(G, source, depth_limit, bool(reverse))
    with gc_paused():
        edges = list(zip(G.label_list(parents), G.label_list(children), strict=True))
    yield from edges


def bfs_tree(
    G, source: Any, reverse: bool = False, depth_limit: Any = None, sort_neighbors: Any = None
):
    """The BFS tree as a ``networkx.DiGraph``, nodes and edges in NetworkX's order
    (``reverse``: the search along a directed graph's in-arcs; its arcs still point from
    parent to child, as NetworkX's)."""
    parents, children = _tree_arcs(G, source, depth_limit, bool(reverse))
    return bfs_tree_graph(G, G.find(source), parents, children)


def bfs_predecessors(
    G, source: Any, depth_limit: Any = None, sort_neighbors: Any = None
) -> Iterator[tuple]:
    """Generator of ``(node, parent)`` in NetworkX's BFS order."""
    parents, children = _tree_arcs(G, source, depth_limit)
    with gc_paused():
        pairs = list(zip(G.label_list(children), G.label_list(parents), strict=True))
    yield from pairs


def bfs_successors(
    G, source: Any, depth_limit: Any = None, sort_neighbors: Any = None
) -> Iterator[tuple]:
    """Generator of ``(node, [children])`` in NetworkX's BFS order (``(source, [])`` for a
    source without children). A node's children are consecutive in discovery order."""
    parents, children = _tree_arcs(G, source, depth_limit)
    if not parents.size:
        yield source, []
        return
    starts = np.concatenate(([0], np.flatnonzero(np.diff(parents)) + 1))
    with gc_paused():
        lists = split_list(G.label_list(children), np.append(starts, children.size))
        items = list(zip(G.label_list(parents[starts]), lists, strict=True))
    yield from items
