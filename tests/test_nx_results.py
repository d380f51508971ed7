"""NetworkX graphs built as results (:mod:`warpgraph.nx._results`, :mod:`warpgraph.nx._capi`).

Each result is compared with NetworkX's own construction (``G.subgraph(nodes).copy()``, or
``G.copy()`` minus edges and nodes): same class, graph/node/edge attributes, node order, every
adjacency dict's order, one data dict per edge shared by its two entries, new dicts throughout,
and no reference left behind or taken from the source graph.
"""

from __future__ import annotations

import random
import sys

import numpy as np
import pytest

nx = pytest.importorskip("networkx")

from warpgraph.nx import _capi, _cpython, _results  # noqa: E402
from warpgraph.nx.interface import backend_interface  # noqa: E402

BACKEND = "warpgraph"
if BACKEND not in nx.utils.backends.backends:
    pytest.skip("warpgraph is not registered as a NetworkX backend", allow_module_level=True)


def _labels(kind: str, n: int, rng: random.Random) -> list:
    if kind == "int":  # 0..n-1 in order: the identity labels, made by the builder
        return list(range(n))
    ids = list(range(n))
    rng.shuffle(ids)
    if kind == "str":
        return [f"v{i}" for i in ids]
    if kind == "shuffled":
        return ids
    return [(i % 5, f"t{i}") if i % 3 else f"s{i}" for i in ids]  # tuples and str


def _graph(seed: int, kind: str, directed: bool, n: int | None = None, selfloops: bool = True):
    """A random attributed graph (graph, node and edge attributes; some nodes and edges
    without) whose node order differs from its label order unless ``kind`` is ``"int"``."""
    rng = random.Random(seed)
    n = rng.randint(1, 90) if n is None else n
    labels = _labels(kind, n, rng)
    G = nx.DiGraph() if directed else nx.Graph()
    G.graph.update(name=f"g{seed}", tag=[seed])
    for v in labels:
        G.add_node(v, **({"color": rng.choice("rgb")} if rng.random() < 0.7 else {}))
    for _ in range(rng.randint(0, 4 * n)):
        u, v = rng.choice(labels), rng.choice(labels)
        if u != v or (selfloops and rng.random() < 0.2):
            G.add_edge(u, v, **({"w": rng.random(), "k": 1} if rng.random() < 0.8 else {}))
    if directed:
        for u, v in list(G.edges)[: G.number_of_edges() // 3]:
            G.add_edge(v, u, w=2)
    return G


def assert_equal_exactly(H, K) -> None:
    """``H`` equals NetworkX's ``K`` with every order, and shares nothing it should not."""
    assert type(H) is type(K)
    assert H.graph == K.graph
    assert list(H) == list(K)
    assert list(H.nodes(data=True)) == list(K.nodes(data=True))
    assert list(H._adj) == list(K._adj)
    for v in K:
        assert list(H._adj[v].items()) == list(K._adj[v].items()), v
        if K.is_directed():
            assert list(H._pred) == list(K._pred)
            assert list(H._pred[v].items()) == list(K._pred[v].items()), v
    for u, v in K.edges:  # one data dict per edge, in both of its entries
        if K.is_directed():
            assert H._succ[u][v] is H._pred[v][u]
        else:
            assert H[u][v] is H[v][u]
    assert nx.utils.graphs_equal(H, K)


def assert_new_dicts(H, G) -> None:
    """Nothing of ``G`` but its labels (and attribute values) is in ``H``."""
    assert H.graph is not G.graph
    for v in H:
        assert H._node[v] is not G._node[v]
        for w, d in H._adj[v].items():
            assert d is not G._adj[v][w]


def _converted(G):
    return backend_interface.convert_from_nx(G)


def _check_subgraph(G, nodes: list, native: bool | None = True) -> None:
    """``subgraph_copy`` of ``nodes`` against ``G.subgraph(nodes).copy()``; ``native``: whether
    the C-API builder must have been used (None: either)."""
    W = _converted(G)
    ids = np.array([W.index[v] for v in nodes], dtype=np.int64)
    mask = np.zeros(len(W), dtype=bool)
    mask[ids] = True
    visit = _results._processing_order(W, mask, ids)
    if native is not None:
        assert (_results._native_copy(W, G, visit, None) is not None) is native
    H = _results.subgraph_copy(W, mask, induced=ids)
    K = G.subgraph(nodes).copy()
    assert_equal_exactly(H, K)
    assert_new_dicts(H, G)


@pytest.mark.parametrize("seed", range(8))
@pytest.mark.parametrize("kind", ["int", "str", "shuffled", "mixed"])
@pytest.mark.parametrize("directed", [False, True])
def test_subgraph_copy_equals_networkx(seed, kind, directed):
    G = _graph(seed, kind, directed)
    rng = random.Random(seed)
    nodes = list(G)
    for size in (len(nodes), len(nodes) * 3 // 4, len(nodes) // 3, min(3, len(nodes))):
        chosen = rng.sample(nodes, size)  # any order: a small set is visited in set order
        _check_subgraph(G, chosen)
        _check_subgraph(G, sorted(chosen, key=nodes.index))


@pytest.mark.parametrize("seed", range(6))
@pytest.mark.parametrize("directed", [False, True])
def test_arc_subset_equals_copy_minus_edges(seed, directed):
    """``induced=None``: ``G.copy()`` minus edges and nodes (``k_truss``'s construction)."""
    G = _graph(seed, "mixed", directed)
    W = _converted(G)
    rng = np.random.default_rng(seed)
    indptr = np.asarray(W.graph.indptr)
    tails = np.repeat(np.arange(len(W)), np.diff(indptr))
    heads = np.asarray(W.nx_order, dtype=np.int64)
    edge_keep = {e: rng.random() < 0.6 for e in G.edges}
    label = W.nodes
    arc_keep = np.array(
        [
            edge_keep.get((label[t], label[h]), edge_keep.get((label[h], label[t])))
            for t, h in zip(tails.tolist(), heads.tolist(), strict=True)
        ],
        dtype=bool,
    )
    node_keep = rng.random(len(W)) < 0.8
    H = _results.subgraph_copy(W, node_keep, arc_keep)
    K = G.copy()
    K.remove_edges_from([e for e, keep in edge_keep.items() if not keep])
    K.remove_nodes_from([label[i] for i in np.flatnonzero(~node_keep).tolist()])
    assert_equal_exactly(H, K)
    assert_new_dicts(H, G)


@pytest.mark.parametrize("kind", ["int", "str"])
@pytest.mark.parametrize("directed", [False, True])
def test_big_graph_tables_read_in_parallel(kind, directed):
    """From 4096 nodes the node and adjacency tables are read by the parallel scan."""
    G = _graph(7, kind, directed, n=5000, selfloops=False)
    nodes = list(G)
    _check_subgraph(G, nodes)  # everything kept: the copy of the whole graph
    _check_subgraph(G, nodes[::3])
    _check_subgraph(G, random.Random(1).sample(nodes, 40))


@pytest.mark.parametrize("directed", [False, True])
def test_core_functions_use_the_builder(directed, monkeypatch):
    G = _graph(3, "str", directed, n=300, selfloops=False)
    made = []
    native = _results._native_copy
    monkeypatch.setattr(_results, "_native_copy", lambda *a: made.append(native(*a)) or made[-1])
    for func, args in (("k_core", ()), ("k_shell", (1,)), ("k_crust", ()), ("k_corona", (2,))):
        ours = getattr(nx, func)(G, *args, backend=BACKEND)
        assert_equal_exactly(ours, getattr(nx, func)(G, *args))
    if not directed:
        assert_equal_exactly(nx.k_truss(G, 3, backend=BACKEND), nx.k_truss(G, 3))
    assert made and all(H is not None for H in made)


def test_references_are_balanced():
    """Building and dropping results leaves every object of the source graph with the
    references it had; an edge's data dict is held by its two entries only."""
    for directed in (False, True):
        G = _graph(11, "str", directed, n=60)
        G.add_edge("v1", "v1", w=1)
        objects = [*G.nodes, *(G._node[v] for v in G), *(d for _, _, d in G.edges(data=True))]
        before = [sys.getrefcount(x) for x in objects]
        for _ in range(3):
            H = _results.subgraph_copy(_converted(G), np.ones(len(G), dtype=bool), induced=None)
            # getrefcount's argument is one more (counted outside assert: pytest's rewriting
            # holds the operands)
            wrong = [
                (u, v)
                for u in H._adj
                for v in H._adj[u]
                if sys.getrefcount(H._adj[u][v]) != (2 if u == v and not directed else 3)
            ]
            wrong += [u for u in H if sys.getrefcount(H._node[u]) != 2]
            assert not wrong
            del H
        assert [sys.getrefcount(x) for x in objects] == before


@pytest.mark.parametrize("directed", [False, True])
def test_falls_back_where_the_builder_cannot_be_used(directed, monkeypatch):
    # Equal hashes (hash(-1) == hash(-2)): the conversion keeps no node hashes.
    G = _graph(5, "int", directed, n=40)
    G = nx.relabel_nodes(G, {v: -v - 1 for v in G})
    _check_subgraph(G, list(G)[::2], native=False)
    # A data dict and a node attribute dict that are not plain dicts.
    G = _graph(6, "str", directed, n=40)
    u, v = next(iter(G.edges))
    special = type("Data", (dict,), {})(w=5)
    G._adj[u][v] = special
    if directed:
        G._pred[v][u] = special
    else:
        G._adj[v][u] = special
    _check_subgraph(G, list(G), native=False)
    G = _graph(6, "str", directed, n=40)
    G._node[next(iter(G))] = type("Attrs", (dict,), {})(color="x")
    _check_subgraph(G, list(G), native=False)
    # The dict tables may not be read in place.
    monkeypatch.setitem(_cpython._STATE, "ok", False)
    assert _capi.api() is None
    _check_subgraph(_graph(7, "str", directed, n=40), list(range(0)), native=False)


@pytest.mark.parametrize("directed", [False, True])
def test_views_and_subclasses_equal_networkx(directed):
    """A filtered view orders by the graph under it, a subclass may make its own dicts: both
    are built by NetworkX's calls, to the same result."""
    G = _graph(8, "str", directed, n=200, selfloops=False)
    view = G.subgraph(list(G)[:90])  # k_core keeps over half of the view, under half of G
    for k in (1, 2):
        assert_equal_exactly(nx.k_core(view, k, backend=BACKEND), nx.k_core(view, k))

    class MyGraph(nx.DiGraph if directed else nx.Graph):
        pass

    S = MyGraph(G)
    for k in (1, 2):
        ours = nx.k_core(S, k, backend=BACKEND)
        assert type(ours) is MyGraph
        assert_equal_exactly(ours, nx.k_core(S, k))
    if not directed:
        for H in (view, S):
            assert_equal_exactly(nx.k_truss(H, 3, backend=BACKEND), nx.k_truss(H, 3))
