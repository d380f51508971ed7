"""NetworkX's ``all_pairs_shortest_path_length`` and ``all_pairs_shortest_path``, the
Dijkstra ones (``all_pairs_dijkstra_path_length``, ``all_pairs_dijkstra_path``,
``all_pairs_dijkstra``) and the Bellman-Ford ones (``all_pairs_bellman_ford_path_length``,
``all_pairs_bellman_ford_path``): generators of ``(node, result)``, one search per node in node
order, each result NetworkX's own single-source one (:mod:`.traversal`'s BFS dicts, keys in its
BFS order; :mod:`.shortest_paths`' Dijkstra and SPFA replays, keys in its heap or queue order).
The weighted ones check the weights when called, before the generator runs: a
``NotImplementedError`` from the first search would come mid-iteration, where automatic dispatch
can no longer fall back. A search that still declines its source mid-way (Bellman-Ford's
predecessor lists past their bound, a path through zero-weight cycles) is NetworkX's own
single-source call for that node, so the generator goes on with NetworkX's result.

NetworkX's loop is ``for n in G: yield n, single_source_...(G, n, cutoff)`` over the live
graph. Here the nodes come from the same live node dict (so a node added or removed while the
generator runs is NetworkX's ``RuntimeError``), and once the graph has been changed by its
own methods (they clear its ``__networkx_cache__``: :func:`._common.change_watch`) each later
dict is NetworkX's own call on the live graph, as NetworkX would compute it.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

from ._common import change_watch
from .shortest_paths import (
    bellman_ford_weights,
    single_source_bellman_ford_path,
    single_source_bellman_ford_path_length,
    single_source_dijkstra,
    single_source_dijkstra_path,
    single_source_dijkstra_path_length,
)
from .traversal import single_source_shortest_path, single_source_shortest_path_length

__all__ = [
    "all_pairs_bellman_ford_path",
    "all_pairs_bellman_ford_path_length",
    "all_pairs_dijkstra",
    "all_pairs_dijkstra_path",
    "all_pairs_dijkstra_path_length",
    "all_pairs_shortest_path",
    "all_pairs_shortest_path_length",
]


def _each_source(G, ours: Callable, name: str, **options: Any) -> Iterator[tuple]:
    source = G.source
    live = getattr(source, "_node", None)
    nodes = iter(live) if type(live) is dict else iter(G.nodes)  # (views: their own order)
    changed, stop = change_watch(G)

    def networkx_call(n: Any) -> Any:
        import networkx as nx

        return getattr(nx, name)(source, n, backend="networkx", **options)

    try:
        for n in nodes:
            if changed():
                yield n, networkx_call(n)
                continue
            try:
                result = ours(G, n, **options)
            except NotImplementedError:  # (this source declined: NetworkX's own answer)
                if source is None:
                    raise
                result = networkx_call(n)
            yield n, result
    finally:
        stop()


def all_pairs_shortest_path_length(G, cutoff: Any = None) -> Iterator[tuple]:
    """``(node, {node: hops})`` for every node in node order (module docstring)."""
    return _each_source(G, single_source_shortest_path_length,
                        "single_source_shortest_path_length", cutoff=cutoff)  # fmt: skip


def all_pairs_shortest_path(G, cutoff: Any = None) -> Iterator[tuple]:
    """``(node, {node: path})`` for every node in node order (module docstring)."""
    return _each_source(G, single_source_shortest_path, "single_source_shortest_path",
                        cutoff=cutoff)  # fmt: skip


def _weights_checked(G, weight: Any) -> None:
    """The weights' checks of the single-source Dijkstra functions, now: their
    ``NotImplementedError`` must come from the call, where automatic dispatch can still hand it
    to NetworkX, not from the generator mid-way."""
    from .shortest_paths import _weights

    _weights(G, weight, negative_ok=False, hidden_ok=True)


def all_pairs_dijkstra_path_length(G, cutoff: Any = None, weight: Any = "weight"):
    """``(node, {node: distance})`` for every node in node order, each dict
    ``single_source_dijkstra_path_length``'s (NetworkX's heap order)."""
    _weights_checked(G, weight)
    name = "single_source_dijkstra_path_length"
    return _each_source(G, single_source_dijkstra_path_length, name, cutoff=cutoff,
                        weight=weight)  # fmt: skip


def all_pairs_dijkstra_path(G, cutoff: Any = None, weight: Any = "weight"):
    """``(node, {node: path})`` for every node in node order, each dict
    ``single_source_dijkstra_path``'s."""
    _weights_checked(G, weight)
    return _each_source(G, single_source_dijkstra_path, "single_source_dijkstra_path",
                        cutoff=cutoff, weight=weight)  # fmt: skip


def all_pairs_dijkstra(G, cutoff: Any = None, weight: Any = "weight"):
    """``(node, (distances, paths))`` for every node in node order, each pair
    ``single_source_dijkstra``'s."""
    _weights_checked(G, weight)
    return _each_source(G, single_source_dijkstra, "single_source_dijkstra", cutoff=cutoff,
                        weight=weight)  # fmt: skip


def all_pairs_bellman_ford_path_length(G, weight: Any = "weight"):
    """``(node, {node: distance})`` for every node in node order, each dict
    ``single_source_bellman_ford_path_length``'s (NetworkX's queue order); a negative cycle
    reachable from a node raises ``NetworkXUnbounded`` when that node's turn comes, as in
    NetworkX."""
    bellman_ford_weights(G, weight)
    name = "single_source_bellman_ford_path_length"
    return _each_source(G, single_source_bellman_ford_path_length, name, weight=weight)


def all_pairs_bellman_ford_path(G, weight: Any = "weight"):
    """``(node, {node: path})`` for every node in node order, each dict
    ``single_source_bellman_ford_path``'s."""
    bellman_ford_weights(G, weight)
    name = "single_source_bellman_ford_path"
    return _each_source(G, single_source_bellman_ford_path, name, weight=weight)
