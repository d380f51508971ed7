"""Breadth-first search functions of NetworkX, in exactly NetworkX's order.

NetworkX visits a BFS layer in discovery order: the nodes of the previous layer in order, each
one's neighbours in adjacency (insertion) order, first discovery wins; a node's BFS parent is
the node that discovered it. warpgraph's BFS gives the levels; the order inside each layer and
the parents are rebuilt from the arcs between consecutive layers, sorted on (position of the
tail in its layer, position of the arc in NetworkX's adjacency). For a long thin BFS one
sequential Numba pass over the same NetworkX-ordered adjacency is faster and gives the same.
"""

from __future__ import annotations

from collections.abc import Iterator
from itertools import pairwise
from typing import Any

import numpy as np
from numba import njit

from ..algorithms.bfs.api import bfs
from ._common import backend_device, host, node_error
from ._results import bfs_tree_graph

__all__ = [
    "bfs_edges",
    "bfs_layers",
    "bfs_predecessors",
    "bfs_successors",
    "bfs_tree",
    "descendants_at_distance",
    "single_source_shortest_path_length",
]

#: Above this many layers of fewer than ``_THIN_LAYER`` nodes on average, the layers come from
#: one sequential pass instead of a few array operations per layer.
_DEEP_LAYERS = 256
_THIN_LAYER = 512


def levels_from(G, ids: np.ndarray) -> np.ndarray:
    """Hop distance from the nearest of ``ids`` (-1 unreachable), on the backend's device."""
    dev = backend_device()
    levels = host(bfs(G.on(dev), ids, device=dev))
    if levels.ndim == 2:  # one BFS per source: the multi-source level is the nearest source
        levels = np.where(levels < 0, np.iinfo(levels.dtype).max, levels).min(axis=0)
        levels[levels == np.iinfo(levels.dtype).max] = -1
    return levels


@njit(cache=True, nogil=True)
def _ordered_bfs(indptr, heads, first, n):  # pragma: no cover - compiled
    """Nodes in NetworkX's BFS order, their parents, and where each layer starts."""
    seen = np.zeros(n, dtype=np.bool_)
    queue = np.empty(n, dtype=np.int64)
    parent = np.empty(n, dtype=np.int64)
    starts = np.empty(n + 1, dtype=np.int64)
    tail = 0
    for v in first:
        seen[v] = True
        queue[tail] = v
        parent[tail] = -1
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
                    parent[tail] = u
                    tail += 1
    starts[layers] = tail
    return queue[:tail], parent[:tail], starts[: layers + 1]


def next_layers(G, ids: np.ndarray, levels: np.ndarray | None = None) -> Iterator[tuple]:
    """``(layer, parents)`` dense ids of each BFS layer after the first (``ids``), each in
    NetworkX's order; ``parents[i]`` discovered ``layer[i]``."""
    if levels is None:
        levels = levels_from(G, ids)
    indptr = host(G.graph.indptr)
    depth = int(levels.max(initial=0))
    reached = float(np.count_nonzero(levels >= 0)) / (depth + 1)
    if depth > _DEEP_LAYERS and reached < _THIN_LAYER:  # long and thin: one sequential pass
        order, parent, starts = _ordered_bfs(indptr, G.nx_order, ids, levels.size)
        for lo, hi in pairwise(starts[1:].tolist()):
            yield order[lo:hi], parent[lo:hi]
        return
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
        order = arcs[np.lexsort((rank[arcs], position[tails[arcs]]))]
        found = heads[order]
        _, first = np.unique(found, return_index=True)
        first.sort()
        layer = found[first]
        position[layer] = np.arange(layer.size)
        yield layer, tails[order[first]]


def _source_ids(G, sources: list) -> np.ndarray:
    index = G.index
    return np.fromiter((index[s] for s in sources), dtype=np.int64, count=len(sources))


# ---------------------------------------------------------------- layers and distances
def single_source_shortest_path_length(G, source: Any, cutoff: float | None = None) -> dict:
    """Hop distance from ``source`` to every reachable node (``{node: int}``).

    Keys come in NetworkX's order: layer by layer, each layer in discovery order.
    """
    if source not in G:
        raise node_error("source", source)
    layers = [np.array([G.index[source]], dtype=np.int64)]
    for level, (layer, _) in enumerate(next_layers(G, layers[0]), start=1):
        if cutoff is not None and not cutoff > level - 1:  # NetworkX's test, floats included
            break
        layers.append(layer)
    sizes = np.fromiter(map(len, layers), dtype=np.int64, count=len(layers))
    nodes = G.labels[np.concatenate(layers)].tolist()
    return dict(zip(nodes, np.repeat(np.arange(sizes.size), sizes).tolist(), strict=True))


def bfs_layers(G, sources: Any) -> Iterator[list]:
    """Generator of BFS layers (lists of nodes) in exactly NetworkX's order."""
    if sources in G:
        sources = [sources]
    # NetworkX starts from ``list(set(sources))``: the same set built the same way iterates in
    # the same order, so the first layer (and so all later ones) matches.
    return _bfs_layers(G, list(set(sources)))


def _bfs_layers(G, sources: list) -> Iterator[list]:
    for s in sources:
        if s not in G:
            raise node_error("graph", s)
    if not sources:
        return
    yield list(sources)
    labels = G.labels
    for layer, _ in next_layers(G, _source_ids(G, sources)):
        yield labels[layer].tolist()


def descendants_at_distance(G, source: Any, distance: Any) -> set:
    """The nodes at exactly ``distance`` hops from ``source`` (a ``set``)."""
    if source not in G:
        raise node_error("graph", source)
    levels = levels_from(G, np.array([G.index[source]], dtype=np.int64))
    for i in range(int(levels.max(initial=0)) + 1):
        if i == distance:  # NetworkX's test: enumerate(layers) compared with ``distance``
            return set(G.labels[levels == i].tolist())
    return set()


# ---------------------------------------------------------------- BFS trees
def _tree_arcs(G, source: Any, depth_limit: Any) -> Iterator[tuple[np.ndarray, np.ndarray]]:
    """``(parents, children)`` dense ids of each layer's tree arcs, within ``depth_limit``."""
    if source not in G:
        raise node_error("neighbors", source, G.is_directed())
    limit = len(G) if depth_limit is None else depth_limit
    ids = np.array([G.index[source]], dtype=np.int64)
    for depth, (layer, parents) in enumerate(next_layers(G, ids)):
        if not depth < limit:  # NetworkX's loop test, floats included
            return
        yield parents, layer


def bfs_edges(
    G, source: Any, reverse: bool = False, depth_limit: Any = None, sort_neighbors: Any = None
) -> Iterator[tuple]:
    """Generator of the BFS tree edges ``(parent, child)`` in NetworkX's discovery order."""
    labels = G.labels
    for parents, children in _tree_arcs(G, source, depth_limit):
        yield from zip(labels[parents].tolist(), labels[children].tolist(), strict=True)


def bfs_tree(
    G, source: Any, reverse: bool = False, depth_limit: Any = None, sort_neighbors: Any = None
):
    """The BFS tree as a ``networkx.DiGraph``, nodes and edges in NetworkX's order."""
    arcs = list(_tree_arcs(G, source, depth_limit))
    empty = np.zeros(0, dtype=np.int64)
    parents = np.concatenate([p for p, _ in arcs]) if arcs else empty
    children = np.concatenate([c for _, c in arcs]) if arcs else empty
    return bfs_tree_graph(G.labels, G.index[source], parents, children)


def bfs_predecessors(
    G, source: Any, depth_limit: Any = None, sort_neighbors: Any = None
) -> Iterator[tuple]:
    """Generator of ``(node, parent)`` in NetworkX's BFS order."""
    labels = G.labels
    for parents, children in _tree_arcs(G, source, depth_limit):
        yield from zip(labels[children].tolist(), labels[parents].tolist(), strict=True)


def bfs_successors(
    G, source: Any, depth_limit: Any = None, sort_neighbors: Any = None
) -> Iterator[tuple]:
    """Generator of ``(node, [children])`` in NetworkX's BFS order (``(source, [])`` for a
    source without children)."""
    labels = G.labels
    emitted = False
    for parents, children in _tree_arcs(G, source, depth_limit):
        cuts = np.flatnonzero(np.diff(parents)) + 1
        starts = np.concatenate(([0], cuts))
        kids = labels[children].tolist()
        heads = labels[parents[starts]].tolist()
        bounds = [*starts.tolist(), len(kids)]
        for head, (lo, hi) in zip(heads, pairwise(bounds), strict=True):
            emitted = True
            yield head, kids[lo:hi]
    if not emitted:
        yield source, []
