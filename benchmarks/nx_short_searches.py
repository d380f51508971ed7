"""First calls of the backend's short searches: a few layers, or a small component, of a large
graph not converted yet, where NetworkX's own search touches few nodes.

Cases: ``descendants_at_distance`` at distances 2 and 3 on urand:17; ``node_connected_component``
of a 3-node component and of the giant one in grid:708 with 50 such components added (labels
``0..n-1`` and ``str``), and of a 2,000-node component among 100 (200k nodes, shuffled int and
``str`` labels); single-source BFS, DFS, Dijkstra and one-node closeness from a node of a
3-node component of that grid, ``bfs_layers`` and multi-source Dijkstra from three such
nodes, a BFS with ``cutoff=2`` and ``30`` (1,861 nodes; since session 55), ``bfs_tree`` with
``depth_limit=30`` and Dijkstra with ``cutoff=200`` (weights 1-100) in its giant component
(answered by NetworkX's own code: ``nx/_networkx_own.py``); ``triangles`` and ``clustering``
of one or two nodes of urand:17 (the same). Each warpgraph call clears the conversion cache
first (median of ``--repeat``); NetworkX's median of 3. Every result is compared with
NetworkX's element by element (set iteration order included; a graph's nodes and edges with
their data, in order).

Usage::

    cd benchmarks; python nx_short_searches.py --out results/nx_short_searches.json
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from collections.abc import Callable, Iterator
from functools import partial

import networkx as nx
from _common import dump_rows
from nx_backend import build


def _median(call: Callable, G, repeat: int, clear: bool) -> float:
    times = []
    for _ in range(repeat):
        if clear:
            G.__networkx_cache__.clear()
        t0 = time.perf_counter()
        call()
        times.append(time.perf_counter() - t0)
    return statistics.median(times)


def _with_tiny_components(G: nx.Graph, count: int) -> nx.Graph:
    """``G`` (labels ``0..n-1``) with ``count`` 3-node paths added, labelled on from ``n``."""
    H = G.copy()
    n = len(H)
    for i in range(count):
        nx.add_path(H, [n + 3 * i, n + 3 * i + 1, n + 3 * i + 2])
    return H


def _component_of(node) -> Callable:
    return lambda G, **kw: nx.node_connected_component(G, node, **kw)


def _listed(x):
    """A result as its iteration lists it (a dict's items, a set's members, a graph's nodes
    and edges with their data)."""
    if isinstance(x, nx.Graph):
        return list(x.nodes(data=True)), list(x.edges(data=True)), x.graph
    return list(x.items()) if isinstance(x, dict) else list(x) if isinstance(x, set) else x


def _from_node(call: Callable, node, G, **kw):
    return call(G, node, **kw)


def _cases() -> Iterator[tuple[str, str, nx.Graph, Callable]]:
    """(graph, case, graph, call(G, **kw)) of each timed call."""
    b = build("urand:17")
    U, s = b["U"], b["source"]
    for d in (2, 3):
        yield ("urand:17", f"descendants_at_distance d={d}", U,
               lambda G, d=d, **kw: nx.descendants_at_distance(G, s, d, **kw))  # fmt: skip
    yield "urand:17", "triangles(G, v)", U, partial(_from_node, nx.triangles, s)
    yield "urand:17", "clustering(G, [v, w])", U, partial(_from_node, nx.clustering, [s, s + 1])
    g = build("grid:708")
    G = _with_tiny_components(g["U"], 50)
    n = len(g["U"])
    for kind, H, name in (("int", G, int), ("str", None, lambda v: f"v{v}")):
        H = H if H is not None else nx.relabel_nodes(G, {v: f"v{v}" for v in G})
        for which, v in (("3-node", n + 30), ("giant", g["source"])):
            yield ("grid:708+50x3", f"node_connected_component {which}, {kind}", H,
                   _component_of(name(v)))  # fmt: skip
    tiny = n + 30
    for case, call in (
        ("single_source_shortest_path_length", nx.single_source_shortest_path_length),
        ("bfs_edges", lambda G, s, **kw: list(nx.bfs_edges(G, s, **kw))),
        ("dfs_edges", lambda G, s, **kw: list(nx.dfs_edges(G, s, **kw))),
        ("single_source_dijkstra_path_length", nx.single_source_dijkstra_path_length),
        ("closeness_centrality(u)", lambda G, s, **kw: nx.closeness_centrality(G, u=s, **kw)),
    ):
        yield "grid:708+50x3", f"{case}, 3-node", G, partial(_from_node, call, tiny)
    three = [tiny, n + 4, n + 58]  # (nodes of three 3-node components)
    for case, call in (
        ("bfs_layers", lambda G, s, **kw: list(nx.bfs_layers(G, s, **kw))),
        ("multi_source_dijkstra_path_length", nx.multi_source_dijkstra_path_length),
    ):
        yield "grid:708+50x3", f"{case}, 3 x 3-node", G, partial(_from_node, call, three)
    for cutoff in (2, 30):  # (13 and 1,861 nodes)
        near = partial(
            _from_node, nx.single_source_shortest_path_length, g["source"], cutoff=cutoff
        )
        yield "grid:708+50x3", f"single_source_shortest_path_length cutoff={cutoff}, giant", G, near
    near = partial(_from_node, nx.bfs_tree, g["source"], depth_limit=30)
    yield "grid:708+50x3", "bfs_tree depth_limit=30, giant", G, near
    near = partial(_from_node, nx.single_source_dijkstra_path_length, g["source"], cutoff=200)
    yield "grid:708+50x3", "single_source_dijkstra_path_length cutoff=200, giant", G, near
    F = nx.disjoint_union_all([nx.gnm_random_graph(2000, 6000, seed=i) for i in range(100)])
    order = list(F)
    random.Random(1).shuffle(order)
    shuffled = dict(zip(F, order, strict=True))
    for kind, mapping in (("shuffled int", shuffled), ("str", {v: f"n{v}" for v in F})):
        H = nx.relabel_nodes(F, mapping)
        yield ("100x2000", f"node_connected_component 2,000-node, {kind}", H,
               _component_of(next(iter(H))))  # fmt: skip


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--repeat", type=int, default=9)
    ap.add_argument("--out", default=None, help="JSON path")
    ap.add_argument("--match", default="", help="only the cases whose name holds this text")
    args = ap.parse_args(argv)
    if args.repeat < 1:
        ap.error("--repeat must be at least 1")
    nx.config.warnings_to_ignore.add("cache")
    rows = []
    for graph, case, G, call in _cases():
        if args.match not in case:
            continue
        want = call(G)
        G.__networkx_cache__.clear()
        got = call(G, backend="warpgraph")
        assert _listed(got) == _listed(want), (graph, case)
        ours = _median(partial(call, G, backend="warpgraph"), G, args.repeat, clear=True)
        theirs = _median(partial(call, G), G, 3, clear=False)
        rows.append({"graph": graph, "case": case, "warpgraph_cold_s": ours,
                     "networkx_s": theirs, "speedup": theirs / ours})  # fmt: skip
        print(f"{graph:14} {case:46} {ours * 1e3:8.3f} ms  NetworkX {theirs * 1e3:8.3f} ms"
              f"  {theirs / ours:6.2f}x")  # fmt: skip
    dump_rows(args.out, "nx_short_searches", rows)


if __name__ == "__main__":
    main()
