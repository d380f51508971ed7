"""NetworkX's ``all_pairs_shortest_path_length`` and ``all_pairs_shortest_path``: generators
of ``(node, dict)``, one BFS per node in node order, each dict NetworkX's own single-source
result (:func:`.traversal.single_source_shortest_path_length`, ``single_source_shortest_path``:
keys in NetworkX's BFS order).

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
from .traversal import single_source_shortest_path, single_source_shortest_path_length

__all__ = ["all_pairs_shortest_path", "all_pairs_shortest_path_length"]


def _each_source(G, cutoff: Any, ours: Callable, name: str) -> Iterator[tuple]:
    source = G.source
    live = getattr(source, "_node", None)
    nodes = iter(live) if type(live) is dict else iter(G.nodes)  # (views: their own order)
    changed, stop = change_watch(G)
    try:
        for n in nodes:
            if changed():
                import networkx as nx

                yield n, getattr(nx, name)(source, n, cutoff=cutoff, backend="networkx")
            else:
                yield n, ours(G, n, cutoff)
    finally:
        stop()


def all_pairs_shortest_path_length(G, cutoff: Any = None) -> Iterator[tuple]:
    """``(node, {node: hops})`` for every node in node order (module docstring)."""
    yield from _each_source(G, cutoff, single_source_shortest_path_length,
                            "single_source_shortest_path_length")  # fmt: skip


def all_pairs_shortest_path(G, cutoff: Any = None) -> Iterator[tuple]:
    """``(node, {node: path})`` for every node in node order (module docstring)."""
    yield from _each_source(G, cutoff, single_source_shortest_path,
                            "single_source_shortest_path")  # fmt: skip
