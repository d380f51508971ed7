#!/usr/bin/env python3
"""Fuzz the warpgraph NetworkX backend against NetworkX itself (the oracle).

Every dispatched function, called with ``backend="warpgraph"`` and with NetworkX's own code, on
random graphs: ``Graph`` and ``DiGraph``; labels that are ``0..n-1`` in order, shuffled, sparse
or negative ints, strings, tuples, mixed, or left with gaps by removed nodes; self-loops and
isolated nodes; weights that are ints, floats, negative, partly missing, beyond int64, bools,
NaN, infinite or ``None``; graph views (subgraphs, reversed, undirected views), frozen graphs
and user subclasses; and the same graph again after NetworkX's own methods changed it (a stale
cached conversion would show).
Arguments cover sources that are missing, cutoffs and depth limits of several kinds, ``k``
values, node lists, core-number dicts, PageRank's dicts (personalization, start, dangling) and
those of eigenvector and Katz centrality (``nstart``, ``beta``).

A call agrees when both raise exceptions of the same class, or both answer equal results of
the same types, in the same order: dict keys, list and generator items, graph nodes, edges,
adjacency order and attributes. Sets compare as sets; PageRank's dicts (and eigenvector and
Katz centrality's) compare by key order and within ``n * tol`` in L1 (:data:`APPROXIMATE`).
Calls the backend declines (``can_run``, or ``NotImplementedError`` from its function, both of
which send automatic dispatch to NetworkX) are counted apart, by reason. One known difference
is counted apart too: NetworkX's ``negative_edge_cycle`` adds a node to the graph, so it refuses
frozen graphs and views, which warpgraph answers (compared with NetworkX on an unfrozen copy).

Usage: ``python tools/nx_fuzz.py [--seed S] [--rounds R] [--device cpu|gpu] [--seconds T]
[--auto]`` (``--seconds``: stop after the round that passes it; ``--auto``: warpgraph first in
NetworkX's backend priority and no ``backend=`` given, so ``should_run`` and the fallbacks to
NetworkX are exercised too). Exit status 1 when a call disagrees; the
first 40 are printed. 20 rounds take about 5 minutes on 2 cores; ``tests/test_nx_fuzz.py``
runs a short version.
"""

from __future__ import annotations

import argparse
import math
import sys
import time
import types
import warnings
from collections import Counter
from collections.abc import Iterator
from typing import Any

import networkx as nx
import numpy as np

LABELS = ("identity", "shuffled", "sparse", "strings", "tuples", "mixed", "gaps", "numpy", "floats")
WEIGHTS = ("none", "int", "float", "negative", "missing", "huge", "bool", "nan", "inf", "None")
VIEWS = ("plain", "subgraph", "reverse", "undirected_view", "frozen", "subclass")


class UserGraph(nx.Graph):
    """A user's subclass (NetworkX's results keep the class)."""


class UserDiGraph(nx.DiGraph):
    """A user's directed subclass."""


def labels(kind: str, n: int, rng: np.random.Generator) -> list:
    """``n`` distinct node labels of one kind, in insertion order."""
    if kind in ("identity", "gaps"):
        return list(range(n))
    if kind == "shuffled":
        return [int(i) for i in rng.permutation(n)]
    if kind == "sparse":
        return [int(i) for i in rng.choice(np.arange(-10 * n - 5, 10**12, 7919), n, replace=False)]
    if kind == "strings":
        return [f"v{int(i)}" for i in rng.permutation(n)]
    if kind == "numpy":  # what G.add_edges_from(an integer array) makes
        return list(rng.permutation(n).astype(np.int64))
    if kind == "floats":
        return [float(i) / 2 for i in rng.permutation(n)]
    if kind == "tuples":
        return [(int(i) % 7, int(i) // 7) for i in rng.permutation(n)]
    return [int(i) if i % 2 else f"s{int(i)}" for i in rng.permutation(n)]  # mixed


def weight_value(kind: str, rng: np.random.Generator) -> Any:
    """One edge's weight of a kind (``None``: the attribute is left off)."""
    r = int(rng.integers(1, 10))
    if kind == "float":
        return r + 0.25 * int(rng.integers(0, 4))
    if kind == "negative":
        return -r if rng.random() < 0.15 else r
    if kind == "missing":
        return None if rng.random() < 0.3 else r
    if kind == "huge":
        return 2**70 if rng.random() < 0.1 else r
    if kind == "bool":
        return bool(rng.random() < 0.7)
    if kind in ("nan", "inf"):
        return float(kind) if rng.random() < 0.1 else float(r)
    if kind == "None":
        return "NONE" if rng.random() < 0.1 else r
    return r  # int


def random_graph(rng: np.random.Generator, n: int, directed: bool, label_kind: str,
                 weight_kind: str) -> nx.Graph:  # fmt: skip
    """A random graph with ``n`` nodes, self-loops, isolated nodes and weighted edges."""
    G = nx.DiGraph() if directed else nx.Graph()
    G.graph["name"] = f"{label_kind}/{weight_kind}"
    nodes = labels(label_kind, n, rng)
    G.add_nodes_from((v, {"tag": i}) for i, v in enumerate(nodes))
    if n:
        p = float(rng.choice([0.05, 0.15, 0.4]))
        m = int(rng.binomial(n * n, p)) if n < 200 else int(n * rng.choice([0.5, 2, 4]))
        for a, b in rng.integers(0, n, size=(m, 2)):
            if a == b and rng.random() < 0.8:
                continue  # a few self-loops only
            u, v = nodes[a], nodes[b]
            w = weight_value(weight_kind, rng) if weight_kind != "none" else None
            if w == "NONE":
                w = None
                attrs = {"weight": None, "w": None}
            elif w is None:
                attrs = {}
            else:  # "w": the same weights, ints negated (negative cycles, many)
                negated = isinstance(w, int) and not isinstance(w, bool)
                attrs = {"weight": w, "w": -w if negated else w}
            G.add_edge(u, v, **attrs)
    if label_kind == "gaps" and n > 3:
        removed = [int(i) for i in rng.choice(n, n // 4, replace=False)]
        G.remove_nodes_from(removed)
        G.add_nodes_from(removed[: len(removed) // 2])  # back, at the end of the order
    return G


def view(G: nx.Graph, kind: str, rng: np.random.Generator) -> nx.Graph:
    """``G`` itself or one of NetworkX's views of it."""
    if kind == "subgraph" and len(G):
        keep = [v for v in G if rng.random() < 0.7]
        return G.subgraph(keep)
    if kind == "reverse" and G.is_directed():
        return G.reverse(copy=False)
    if kind == "undirected_view" and G.is_directed():
        return G.to_undirected(as_view=True)
    if kind == "frozen":
        return nx.freeze(G.copy())
    if kind == "subclass":
        return (UserDiGraph if G.is_directed() else UserGraph)(G)
    return G


#: NetworkX's depth-first functions (their arguments are the same).
DFS_FUNCTIONS = ("dfs_edges", "dfs_tree", "dfs_predecessors", "dfs_successors",
                 "dfs_preorder_nodes", "dfs_postorder_nodes", "dfs_labeled_edges")  # fmt: skip


#: The all-pairs measures run one NetworkX search per node: on the fuzz's large graphs (5,000
#: and 20,000 nodes) a single call would take minutes, so they are fuzzed on small graphs.
ALL_PAIRS = ("closeness_centrality", "eccentricity", "diameter", "radius", "periphery",
             "average_shortest_path_length", "center", "barycenter", "wiener_index",
             "global_efficiency", "local_efficiency", "harmonic_diameter")  # fmt: skip
ALL_PAIRS_MAX_NODES = 100
#: NetworkX's eigenvector and Katz centrality are Python loops over every arc per step (and
#: Katz may run 1,000 steps): fuzzed on graphs of at most this many nodes.
POWER_MAX_NODES = 300


def calls(G: nx.Graph, rng: np.random.Generator) -> Iterator[tuple[str, tuple, dict]]:
    """``(function name, args, kwargs)`` for every dispatched function on ``G``."""
    nodes = list(G)
    some = (lambda: nodes[int(rng.integers(len(nodes)))]) if nodes else (lambda: "absent")
    sources = [some(), some(), "absent"]
    for s in sources[:2]:
        for limit in (None, -1, 0, 1, 2, 2.5):
            for name in ("bfs_edges", "bfs_tree", "bfs_predecessors", "bfs_successors"):
                yield name, (G, s), {"depth_limit": limit}
        for limit in (None, -1, 0, 1, 2, 2.5):
            for name in DFS_FUNCTIONS:
                yield name, (G, s), {"depth_limit": limit}
        yield "bfs_edges", (G, s), {"reverse": True}
        yield "bfs_tree", (G, s), {"reverse": True}
        yield "bfs_layers", (G, s), {}
        yield "bfs_layers", (G, [s, some()]), {}
        yield "bfs_layers", (G, Fresh([some(), s, some()])), {}  # an iterator of sources
        yield "bfs_layers", (G, (s, s)), {}
        for cutoff in (None, -1, 0, 1, 3, 1.5):
            yield "single_source_shortest_path_length", (G, s), {"cutoff": cutoff}
        for weight in ("weight", "w", "absent"):
            for cutoff in (None, -1, 0, 4, 6.5):
                yield "single_source_dijkstra_path_length", (G, s), {"cutoff": cutoff,
                                                                     "weight": weight}  # fmt: skip
            yield "single_source_bellman_ford_path_length", (G, s), {"weight": weight}
            for t in (some(), s, "absent"):
                yield "bellman_ford_path_length", (G, s, t), {"weight": weight}
                yield "bellman_ford_path", (G, s, t), {"weight": weight}
            for flag in (False, True):
                kw = {"weight": weight, "heuristic": flag}
                yield "bellman_ford_predecessor_and_distance", (G, s), kw
            yield "find_negative_cycle", (G, s), {"weight": weight}
            for name in ("single_source_bellman_ford_path", "single_source_bellman_ford"):
                yield name, (G, s), {"weight": weight}
            for end in ("source", "target"):
                yield "shortest_path", (G,), {end: s, "weight": weight, "method": "bellman-ford"}
            for starts in ([s, some()], {s, some(), some()}, (s, s), Fresh([some(), s])):
                yield "multi_source_dijkstra_path_length", (G, starts), {"weight": weight,
                                                                          "cutoff": 5}  # fmt: skip
                for name in ("multi_source_dijkstra_path", "multi_source_dijkstra"):
                    yield name, (G, starts), {"weight": weight, "cutoff": 5}
            for cutoff in (None, 0, 4, 6.5):
                for name in ("single_source_dijkstra_path", "single_source_dijkstra",
                             "dijkstra_predecessor_and_distance"):  # fmt: skip
                    yield name, (G, s), {"cutoff": cutoff, "weight": weight}
            yield "shortest_path", (G,), {"source": s, "weight": weight}
            yield "shortest_path", (G,), {"target": s, "weight": weight}
            for method in ("dijkstra", "bellman-ford"):
                yield "shortest_path_length", (G,), {"source": s, "weight": weight,
                                                     "method": method}  # fmt: skip
        yield "shortest_path_length", (G,), {"source": s}
        yield "shortest_path_length", (G,), {"target": s}
        for cutoff in (None, 0, 2):
            yield "single_target_shortest_path_length", (G, s), {"cutoff": cutoff}
            yield "single_target_shortest_path", (G, s), {"cutoff": cutoff}
        for cutoff in (None, -1, 0, 1, 3, 1.5):
            yield "single_source_shortest_path", (G, s), {"cutoff": cutoff}
        yield "shortest_path", (G,), {"source": s}
        yield "shortest_path", (G,), {"target": s}
        for d in (-1, 0, 1, 2, 3):
            yield "descendants_at_distance", (G, s, d), {}
        for name in ("descendants", "ancestors", "node_connected_component"):
            yield name, (G, s), {}
    s = sources[2]  # absent
    for name in ("bfs_edges", "bfs_layers", "single_source_shortest_path_length",
                 "single_source_shortest_path", "single_target_shortest_path",
                 "single_source_dijkstra_path", "single_source_dijkstra",
                 "single_source_bellman_ford_path", "single_source_bellman_ford",
                 "dijkstra_predecessor_and_distance",
                 "single_source_dijkstra_path_length", "descendants", "node_connected_component",
                 "single_source_bellman_ford_path_length",
                 "bellman_ford_predecessor_and_distance", "find_negative_cycle"):  # fmt: skip
        yield name, (G, s), {}
    for name in DFS_FUNCTIONS:
        yield name, (G, s), {}
        yield name, (G,), {}
        yield name, (G,), {"depth_limit": 2}
    for weight in ("weight", "w", "absent"):
        yield "negative_edge_cycle", (G,), {"weight": weight}
    if len(G) <= ALL_PAIRS_MAX_NODES:  # (one NetworkX search per node: small graphs only)
        for name in ALL_PAIRS:
            yield name, (G,), {}
        yield "closeness_centrality", (G,), {"wf_improved": False}
        for s in sources:  # (one node: one search; "absent" raises as NetworkX)
            yield "closeness_centrality", (G,), {"u": s}
            yield "eccentricity", (G,), {"v": s}
        yield "eccentricity", (G,), {"v": sources}
        for cutoff in (None, 1, 2.5):  # (generators: listed by the comparison)
            yield "all_pairs_shortest_path_length", (G,), {"cutoff": cutoff}
            yield "all_pairs_shortest_path", (G,), {"cutoff": cutoff}
            for name in ("all_pairs_dijkstra_path_length", "all_pairs_dijkstra_path",
                         "all_pairs_dijkstra"):  # fmt: skip
                yield name, (G,), {"cutoff": cutoff, "weight": "weight"}
        for name in ("all_pairs_bellman_ford_path_length", "all_pairs_bellman_ford_path"):
            yield name, (G,), {"weight": "weight"}
        half = nodes[: len(nodes) // 2]
        for options in ({}, {"sources": half}, {"nbunch": half[:3]}, {"nbunch": sources}):
            yield "harmonic_centrality", (G,), options
        for normalized, endpoints in ((True, False), (False, True)):
            options = {"normalized": normalized, "endpoints": endpoints}
            yield "betweenness_centrality", (G,), options
            yield "betweenness_centrality", (G,), {"k": min(len(G), 5), "seed": 7, **options}
        for options in ({}, {"normalized": False, "k": min(len(G), 5), "seed": 3}):
            yield "edge_betweenness_centrality", (G,), options
        for name in ("diameter", "radius", "periphery", "center"):  # (the extrema bounding)
            yield name, (G,), {"usebounds": True}
    for name in ("connected_components", "number_connected_components", "is_connected",
                 "strongly_connected_components", "number_strongly_connected_components",
                 "is_strongly_connected", "weakly_connected_components",
                 "number_weakly_connected_components", "is_weakly_connected", "core_number",
                 "onion_layers",
                 "transitivity", "triadic_census", "attracting_components",
                 "number_attracting_components", "is_attracting_component",
                 "is_semiconnected", "is_directed_acyclic_graph", "condensation"):  # fmt: skip
        yield name, (G,), {}
    for H in (G, *forests(G)):  # (the directed-only two refused by NetworkX when undirected)
        for name in ("is_tree", "is_forest", "is_branching", "is_arborescence"):
            yield name, (H,), {}
        if H is not G and len(H) <= ALL_PAIRS_MAX_NODES:  # (trees: these three's own paths)
            for name in ("center", "barycenter", "wiener_index"):
                yield name, (H,), {}
    if G.is_directed():  # a DAG of G's arcs (each from a later to an earlier node), ± one arc
        rank = {v: i for i, v in enumerate(G)}
        dag = nx.DiGraph()
        dag.add_nodes_from(G)
        dag.add_edges_from((u, v, d) for u, v, d in G.edges(data=True) if rank[u] > rank[v])
        graphs = [dag]
        if len(dag) > 1:
            order = list(dag)
            cyclic = dag.copy()
            cyclic.add_edge(order[0], order[-1])  # a cycle where the last node reaches the first
            graphs.append(cyclic)
        if len(dag) > 1:  # a ring through every node, with G's arcs as chords
            ring = nx.DiGraph(G)
            nx.add_cycle(ring, list(G))
            yield "is_aperiodic", (ring,), {}
        yield "is_aperiodic", (G,), {}
        for D in graphs:
            yield "is_directed_acyclic_graph", (D,), {}
            yield "topological_sort", (D,), {}
            yield "topological_generations", (D,), {}
            for weight in ("weight", "w", "absent"):
                yield "dag_longest_path_length", (D,), {"weight": weight}
            yield "dag_longest_path_length", (D,), {"weight": "absent", "default_weight": 0.5}
            for weight in ("weight", "w", "absent"):
                yield "dag_longest_path", (D,), {"weight": weight}
            yield "dag_longest_path", (D,), {"weight": "absent", "default_weight": 0.5}
            order = list(D)[::-1]  # (a topological order of the DAG; not of the cyclic one)
            yield "dag_longest_path", (D,), {"weight": "w", "topo_order": order}
            yield "dag_longest_path", (D,), {"topo_order": tuple(order[: len(order) // 2])}
            yield "condensation", (D,), {}
    picked = [some() for _ in range(3)]
    for nodes_arg in (None, picked[0], picked, [*picked, "absent"], Fresh(picked)):
        yield "triangles", (G,), {"nodes": nodes_arg}
        yield "clustering", (G,), {"nodes": nodes_arg}
    for count_zeros in (True, False):
        yield "average_clustering", (G,), {"count_zeros": count_zeros}
        yield "average_clustering", (G,), {"nodes": picked, "count_zeros": count_zeros}
    try:
        cores = nx.core_number(G, backend="networkx")
    except nx.NetworkXException:  # self-loops
        cores = None
    for k in (None, -1, 0, 1, 2, 3, 2.5):
        for name in ("k_core", "k_shell", "k_crust"):
            yield name, (G,), {"k": k}
            if cores is not None and k in (None, 2):  # the caller's core numbers
                yield name, (G,), {"k": k, "core_number": cores}
    for k in (0, 1, 2):
        yield "k_corona", (G, k), {}
        if cores is not None:
            yield "k_corona", (G, k), {"core_number": cores}
    for k in (0, 1, 2, 3, 4, 3.5):
        yield "k_truss", (G, k), {}
    for weight in ("weight", "w", "absent", None):
        yield "pagerank", (G,), {"weight": weight}
    yield "pagerank", (G,), {"alpha": 0.5, "tol": 1e-10, "max_iter": 1000}
    yield "pagerank", (G,), {"max_iter": 1}
    for name in ("personalization", "nstart", "dangling"):
        yield "pagerank", (G,), {name: {picked[0]: 2, picked[1]: 1}}
        yield "pagerank", (G,), {name: {"absent": 1}}
    if len(G) <= POWER_MAX_NODES:
        yield from power_calls(G, nodes, picked)


def power_calls(G: nx.Graph, nodes: list, picked: list) -> Iterator[tuple[str, tuple, dict]]:
    """``eigenvector_centrality`` and ``katz_centrality``: weights, ``nstart`` keyed in another
    order or missing nodes, ``beta`` dicts full or partial, diverging Katz, no convergence."""
    for weight in ("weight", "w", "absent", None):
        yield "eigenvector_centrality", (G,), {"weight": weight}
        # (100 steps: at most NetworkX's per call on a diverging graph, not its default 1,000)
        yield "katz_centrality", (G,), {"weight": weight, "alpha": 0.02, "max_iter": 100}
    yield "eigenvector_centrality", (G,), {"tol": 1e-10, "max_iter": 500}
    yield "eigenvector_centrality", (G,), {"max_iter": 1}
    reordered = {v: 1 + i % 3 for i, v in enumerate(reversed(nodes))}
    yield "eigenvector_centrality", (G,), {"nstart": reordered, "weight": "w"}
    yield "eigenvector_centrality", (G,), {"nstart": {picked[0]: 2, picked[1]: 1}}
    yield "eigenvector_centrality", (G,), {"nstart": dict.fromkeys(nodes, 0)}
    unnormalized = {"alpha": 0.05, "normalized": False, "tol": 1e-10, "max_iter": 100}
    yield "katz_centrality", (G,), unnormalized
    yield "katz_centrality", (G,), {"alpha": 0.5, "max_iter": 50}  # (diverges on most)
    yield "katz_centrality", (G,), {"max_iter": 1, "weight": "w"}
    beta = {"beta": reordered, "nstart": reordered, "alpha": 0.02, "max_iter": 100}
    yield "katz_centrality", (G,), beta
    yield "katz_centrality", (G,), {"beta": {picked[0]: 1}, "alpha": 0.02}  # (raises at once)
    yield "katz_centrality", (G,), {"beta": -0.5, "alpha": -0.01, "weight": "w", "max_iter": 100}


def forests(G: nx.Graph) -> list[nx.Graph]:
    """A forest of ``G``'s edges on its nodes (in its order): each edge that joins two trees
    (for a directed graph only an arc into a tree's root, so a branching); then the same with
    one more of ``G``'s edges (a cycle, or an arc into a node with a parent) and with a
    self-loop."""
    root: dict = {v: v for v in G}

    def find(v):
        while root[v] != v:
            root[v] = root[root[v]]
            v = root[v]
        return v

    F = nx.DiGraph() if G.is_directed() else nx.Graph()
    F.add_nodes_from(G)
    rest = []
    for u, v in G.edges():
        a, b = find(u), find(v)
        if a != b and (not G.is_directed() or F.in_degree(v) == 0):
            root[a] = b
            F.add_edge(u, v)
        else:
            rest.append((u, v))
    more, loop = F.copy(), F.copy()
    if rest:
        more.add_edge(*rest[len(rest) // 2])
    if len(F):
        loop.add_edge(next(iter(F)), next(iter(F)))
    return [F, more, loop] if len(F) else [F]


class Fresh:
    """An argument passed as a new iterator over ``items`` to each call (one is used up)."""

    def __init__(self, items: list) -> None:
        self.items = items

    def __repr__(self) -> str:
        return f"iter({self.items!r})"


def _fresh(x: Any) -> Any:
    return iter(x.items) if isinstance(x, Fresh) else x


def outcome(name: str, args: tuple, kwargs: dict, backend: str | None) -> tuple[str, Any]:
    """``("ok", result)`` with generators listed, or ``("raised", exception)``; ``backend``
    None: NetworkX's automatic dispatch picks."""
    try:
        chosen = {} if backend is None else {"backend": backend}
        args, kwargs = tuple(map(_fresh, args)), {k: _fresh(v) for k, v in kwargs.items()}
        result = getattr(nx, name)(*args, **kwargs, **chosen)
        if isinstance(result, (types.GeneratorType, map, filter)):
            return "ok", ("<generator>", [_snapshot(r) for r in result])
        return "ok", _snapshot(result)
    except Exception as exc:  # noqa: BLE001 - an exception is an answer to compare
        return "raised", exc


def _snapshot(x: Any) -> Any:
    """A comparable picture of a result: graphs as their nodes, edges and adjacency order."""
    if isinstance(x, nx.Graph):
        adj = [(u, list(x._adj[u])) for u in x]
        pred = [(u, list(x._pred[u])) for u in x] if x.is_directed() else None
        return ("<graph>", type(x), list(x.nodes(data=True)), list(x.edges(data=True)), adj,
                pred, dict(x.graph))  # fmt: skip
    return x


#: Functions whose sets iterate as NetworkX's (their members added in NetworkX's order:
#: ``docs/NETWORKX.md``): their sets are compared as listed, not only as sets.
SET_ORDER = {
    "connected_components",
    "weakly_connected_components",
    "node_connected_component",
    "strongly_connected_components",
    "descendants",
    "ancestors",
    "descendants_at_distance",
    "attracting_components",
}


def same(a: Any, b: Any, listed: bool = False) -> bool:
    """Equal values of the same types, in the same order (sets as sets, or with ``listed``
    as listed: in the same iteration order; NaN equal to NaN)."""
    if type(a) is not type(b):
        return False
    if isinstance(a, dict):
        pairs = zip(a.items(), b.items(), strict=False)  # (lengths compared first)
        return len(a) == len(b) and all(
            same(ka, kb, listed) and same(va, vb, listed) for (ka, va), (kb, vb) in pairs
        )
    if isinstance(a, (list, tuple)):
        return len(a) == len(b) and all(same(x, y, listed) for x, y in zip(a, b, strict=True))
    if isinstance(a, float):
        return a == b or (math.isnan(a) and math.isnan(b))
    if isinstance(a, (set, frozenset)):  # members' types too (np.int64 equals int)
        if listed:
            return [(type(x), x) for x in a] == [(type(x), x) for x in b]
        return {(type(x), x) for x in a} == {(type(x), x) for x in b}
    return bool(a == b)


def _ranks_close(want: Any, got: Any, args: tuple, kwargs: dict) -> bool:
    """PageRank's dicts: the same keys in the same order, float values, and an L1 distance
    under ``n * tol`` (the two runs may stop a step apart when a step's change lies within
    rounding of ``n * tol``; ``docs/NETWORKX.md``)."""
    if type(want) is not dict or type(got) is not dict or list(want) != list(got):
        return False
    if not all(type(x) is float for x in got.values()):
        return False
    bound = len(want) * kwargs.get("tol", 1e-6) + 1e-12
    return sum(abs(a - b) for a, b in zip(want.values(), got.values(), strict=True)) <= bound


def _values_close(want: Any, got: Any, args: tuple, kwargs: dict) -> bool:
    """Per-node float dicts added up in another order: the same keys in the same order, float
    values equal to rounding (NaN where NetworkX has NaN)."""
    if type(want) is not dict or type(got) is not dict or list(want) != list(got):
        return False
    return all(
        type(b) is float
        and (math.isclose(a, b, rel_tol=1e-12, abs_tol=1e-12) or (math.isnan(a) and math.isnan(b)))
        for a, b in zip(want.values(), got.values(), strict=True)
    )


#: Functions whose float results may differ by rounding: name -> the comparison.
APPROXIMATE = {
    "pagerank": _ranks_close,
    "betweenness_centrality": _values_close,
    "edge_betweenness_centrality": _values_close,
}
#: Eigenvector and Katz centrality stop by PageRank's rule: their dicts are compared the same way.
APPROXIMATE |= dict.fromkeys(("eigenvector_centrality", "katz_centrality"), _ranks_close)


class Tally:
    """The calls made, the refusals of the backend by reason, and every disagreement."""

    def __init__(self, backend: str | None = "warpgraph") -> None:
        self.backend = backend
        self.calls = self.rounds = 0
        self.declined: Counter = Counter()
        self.example: dict[str, str] = {}
        self.known: Counter = Counter()
        self.disagree: list[str] = []

    def check(self, key: str, name: str, args: tuple, kwargs: dict) -> None:
        self.calls += 1
        want = outcome(name, args, kwargs, "networkx")
        got = outcome(name, args, kwargs, self.backend)
        if got[0] == "raised" and _declined(got[1]):
            reason = f"{name}: {_reason(got[1], name, args, kwargs)}"
            self.declined[reason] += 1
            self.example.setdefault(reason, f"{_args(args)} {kwargs} [{key}]")
            return
        if want[0] == got[0] == "raised" and type(got[1]) is type(want[1]):
            return  # (with --auto, NetworkX may have run both)
        if want[0] == "raised" and _nx_mutates(name, want[1]):
            # NetworkX adds a node to G for this search, which a frozen graph or view refuses;
            # warpgraph reads G only: compared with NetworkX on an unfrozen copy instead
            self.known[name] += 1
            want = outcome(name, (nx.DiGraph(args[0]), *args[1:]), kwargs, "networkx")
        if want[0] == got[0] == "ok" and same(want[1], got[1], name in SET_ORDER):
            return
        if (
            want[0] == got[0] == "ok"
            and name in APPROXIMATE
            and APPROXIMATE[name](want[1], got[1], args, kwargs)
        ):
            return
        if want[0] == got[0] == "raised" and type(got[1]) is type(want[1]):
            return
        self.disagree.append(
            f"{name}{_args(args)} {kwargs} [{key}]:\n      NetworkX {_said(want)}\n"
            f"      warpgraph {_said(got)}{_first_difference(want, got)}"
        )


def _nx_mutates(name: str, exc: BaseException) -> bool:
    return name == "negative_edge_cycle" and "Frozen graph can't be modified" in str(exc)


def _declined(exc: BaseException) -> bool:
    return isinstance(exc, NotImplementedError) and "warpgraph" in str(exc)


def _reason(exc: BaseException, name: str, args: tuple, kwargs: dict) -> str:
    """Why the backend declined: ``can_run``'s reason, or the error its function raised."""
    if "not implemented by 'warpgraph' backend for the given arguments" in str(exc):
        from warpgraph.nx.interface import BackendInterface

        fresh = {k: _fresh(v) for k, v in kwargs.items()}
        return str(BackendInterface.can_run(name, tuple(map(_fresh, args)), fresh))
    cause = exc.__cause__ or exc.__context__
    return f"{type(cause).__name__}: {cause}" if cause else str(exc)


def _args(args: tuple) -> str:
    return "(G" + "".join(f", {a!r}" for a in args[1:]) + ")"


def _first_difference(want: tuple, got: tuple) -> str:
    """Where two graph results part: the first of nodes, edges, adjacency order... that does."""
    a, b = want[1], got[1]
    if not (want[0] == got[0] == "ok" and isinstance(a, tuple) and a[:1] == ("<graph>",) == b[:1]):
        return ""
    parts = ("type", "nodes", "edges", "adjacency", "predecessors", "graph attributes")
    for part, x, y in zip(parts, a[1:], b[1:], strict=True):
        if not same(x, y):
            if isinstance(x, list) and isinstance(y, list):
                pairs = enumerate(zip(x, y, strict=False))  # (lengths may differ)
                i = next((i for i, (p, q) in pairs if not same(p, q)), min(len(x), len(y)))
                part = f"{part}, item {i} of {len(x)}/{len(y)}"
                x, y = x[i : i + 1], y[i : i + 1]
            return f"\n      first difference in {part}: NetworkX {x!r:.200}, warpgraph {y!r:.200}"
    return ""


def _said(outcome: tuple) -> str:
    if outcome[0] == "raised":
        return f"raised {type(outcome[1]).__name__}: {str(outcome[1])[:120]}"
    return f"answered {outcome[1]!r}"[:400]


def mutate(G: nx.Graph, rng: np.random.Generator) -> None:
    """Change ``G`` with NetworkX's own methods (which clear its cached conversions)."""
    nodes = list(G)
    if not nodes:
        G.add_edge(0, 1, weight=2)
        return
    u, v = nodes[int(rng.integers(len(nodes)))], nodes[int(rng.integers(len(nodes)))]
    G.add_edge(u, v, weight=7, w=3)
    G.add_edge(u, "new", weight=1)
    if len(nodes) > 2:
        G.remove_node(nodes[int(rng.integers(len(nodes)))])


def run(
    seed: int,
    rounds: int,
    seconds: float = math.inf,
    auto: bool = False,
    large: bool = True,
    progress: bool = False,
) -> Tally:
    """Every call of :func:`calls` on random graphs of every label, weight and view kind, for
    ``rounds`` rounds or until ``seconds`` have passed (checked between rounds). ``auto``:
    warpgraph first in NetworkX's backend priority and no ``backend=`` given, so ``should_run``
    decides and declined calls fall back to NetworkX. ``large=False``: no graph of thousands
    of nodes (quick). ``progress``: a line on stderr after each round (a run stopped by a
    time limit still shows how far it got)."""
    rng = np.random.default_rng(seed)
    tally = Tally(None if auto else "warpgraph")
    end = time.monotonic() + seconds
    for r in range(rounds):
        if time.monotonic() > end:
            break
        tally.rounds = r + 1
        for directed in (False, True):
            for label_kind in LABELS:
                n = int(rng.choice([0, 1, 2, 5, 12, 30, 60] if r else [0, 1, 3, 8]))
                # past the sizes where the parallel paths start (and, with auto, where
                # should_run lets warpgraph run at all: 1,000 edges)
                if large and r and rng.random() < (0.3 if auto else 0.06):
                    n = int(rng.choice([5000, 20000]))
                weight_kind = WEIGHTS[int(rng.integers(len(WEIGHTS)))]
                G = random_graph(rng, n, directed, label_kind, weight_kind)
                kind = VIEWS[int(rng.integers(len(VIEWS)))]
                H = view(G, kind, rng)
                key = f"n={n} {'di' if directed else 'un'} {label_kind} {weight_kind} {kind}"
                for name, args, kwargs in calls(H, rng):
                    tally.check(key, name, args, kwargs)
                if kind == "plain":
                    mutate(G, rng)
                    for name, args, kwargs in calls(G, rng):
                        tally.check(key + " mutated", name, args, kwargs)
        if progress:
            print(f"round {r + 1}: {tally.calls} calls, {len(tally.disagree)} disagree",
                  file=sys.stderr, flush=True)  # fmt: skip
    return tally


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--rounds", type=int, default=6)
    parser.add_argument("--device", choices=("cpu", "gpu"), default="cpu")
    parser.add_argument("--seconds", type=float, default=math.inf, help="stop after a round")
    parser.add_argument("--auto", action="store_true", help="automatic dispatch, no backend=")
    args = parser.parse_args()
    warnings.simplefilter("ignore")  # NetworkX's note on each cached conversion used
    nx.config.warnings_to_ignore.add("cache")
    nx.config.backends.warpgraph.device = args.device
    if args.auto:
        nx.config.backend_priority.algos = ["warpgraph"]
        nx.config.backend_priority.generators = ["warpgraph"]
    tally = run(args.seed, args.rounds, args.seconds, args.auto, progress=True)
    print(f"{tally.rounds} rounds, {tally.calls} calls: {len(tally.disagree)} disagree, "
          f"{sum(tally.declined.values())} declined by the backend")  # fmt: skip
    for reason, count in sorted(tally.declined.items()):
        print(f"  declined {count:5d}  {reason}\n      e.g. {tally.example[reason]}")
    for name, count in tally.known.items():
        print(f"  {count} calls of {name} on a frozen graph, which NetworkX's own code refuses")
    for line in tally.disagree[:40]:
        print("  " + line)
    return 1 if tally.disagree else 0


if __name__ == "__main__":
    sys.exit(main())
