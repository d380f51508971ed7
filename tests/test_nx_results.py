"""NetworkX graphs built as results (:mod:`warpgraph.nx._results`, :mod:`warpgraph.nx._capi`).

Each result is compared with NetworkX's own construction (``G.subgraph(nodes).copy()``, or
``G.copy()`` minus edges and nodes): same class, graph/node/edge attributes, node order, every
adjacency dict's order, one data dict per edge shared by its two entries, new dicts throughout,
and no reference left behind or taken from the source graph.
"""

from __future__ import annotations

import gc
import random
import sys
from functools import partial

import numpy as np
import pytest

nx = pytest.importorskip("networkx")

from warpgraph.nx import _capi, _capi_graph, _capi_tree, _cpython, _dict_layout, _results  # noqa: E402
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


@pytest.mark.parametrize("directed", [False, True])
def test_small_results_made_by_networkx(directed, monkeypatch):
    """A result with under one kept arc per ``NODES_PER_KEPT_ARC`` source nodes is made by
    NetworkX's own ``subgraph(nodes).copy()`` (the compiled build would read every table);
    a larger one by the compiled build. Both equal NetworkX's result exactly."""
    G = nx.path_graph(10_000)  # under 50 kept arcs is small
    G.add_edges_from(nx.complete_graph(5).edges)  # nodes 0-4 a clique: the 4-core
    G = nx.DiGraph(G) if directed else G
    G.graph["name"] = "path and clique"
    made = []
    native = _results._native_copy
    monkeypatch.setattr(_results, "_native_copy", lambda *a: made.append(native(*a)) or made[-1])
    k = 8 if directed else 4  # a directed graph's core numbers count in- and out-arcs
    for func, args in (("k_core", (k,)), ("k_shell", (k,)), ("k_corona", (k,))):
        ours = getattr(nx, func)(G, *args, backend=BACKEND)
        assert_equal_exactly(ours, getattr(nx, func)(G, *args))
        assert set(ours) <= {0, 1, 2, 3, 4} and not made  # (a directed corona: empty)
    ours = nx.k_core(G, 1, backend=BACKEND)  # the whole graph
    assert_equal_exactly(ours, nx.k_core(G, 1))
    assert made and made[-1] is not None


class _Tagged(nx.Graph):
    """A subclass: an empty result keeps the source's class."""


@pytest.mark.parametrize("cls", [nx.Graph, nx.DiGraph, _Tagged])
def test_empty_results_read_no_table(cls, monkeypatch):
    """Nothing kept: the empty graph of the source's class with its graph attributes, built
    without reading the source's tables (as ``copy()`` of an empty subgraph)."""
    G = cls(nx.path_graph(50))  # no triangle, every core number 1
    G.graph.update(name="path", meta=[1])
    monkeypatch.setattr(_results, "_native_copy", lambda *a: pytest.fail("tables read"))
    calls = [("k_core", (5,)), ("k_shell", (3,)), ("k_crust", (0,))]
    if not G.is_directed():
        calls.append(("k_truss", (3,)))
    for func, args in calls:
        ours = getattr(nx, func)(G, *args, backend=BACKEND)
        assert_equal_exactly(ours, getattr(nx, func)(G, *args))
        assert len(ours) == 0 and type(ours) is cls and ours.graph == G.graph


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
    monkeypatch.setitem(_dict_layout._STATE, "ok", False)
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


def test_undirected_view_of_a_digraph_merges_each_edges_two_dicts():
    """``D.to_undirected(as_view=True)`` holds two data dicts for a pair of opposite arcs;
    NetworkX's ``copy()`` merges them (the later node's row updates the earlier's). Found by
    ``tools/nx_fuzz.py``: the results took the first dict only."""
    D = nx.DiGraph()
    D.add_edge(0, 1, weight=1, a="from 0")
    D.add_edge(1, 0, weight=2, b="from 1")
    D.add_edges_from([(1, 2), (2, 0), (2, 3)], weight=3)
    U = D.to_undirected(as_view=True)
    for k in (None, 1, 2):
        assert_equal_exactly(nx.k_core(U, k, backend=BACKEND), nx.k_core(U, k))
    assert_equal_exactly(nx.k_truss(U, 3, backend=BACKEND), nx.k_truss(U, 3))
    assert nx.k_core(U, 2, backend=BACKEND).edges[0, 1] == {"weight": 2, "a": "from 0",
                                                             "b": "from 1"}  # fmt: skip


# ====================================================================== nx.bfs_tree's DiGraph
# ``_results.bfs_tree_graph`` builds it by ``_capi_tree.tree_graph`` (from NATIVE_MIN nodes, where
# the C API is usable) or in Python; both must equal ``nx.bfs_tree`` exactly.


@pytest.fixture
def tree_spy(monkeypatch):
    """Record whether each ``bfs_tree`` result was built by the compiled builder."""
    made = []
    real = _capi_tree.tree_graph

    def spy(*args, **kwargs):
        made.append(True)
        return real(*args, **kwargs)

    monkeypatch.setattr(_capi_tree, "tree_graph", spy)
    return made


def assert_tree_equal(T, K) -> None:
    """``T`` equals NetworkX's BFS tree ``K``: every order, one shared dict per edge, new dicts
    per edge and per node."""
    assert type(T) is nx.DiGraph and T.graph == K.graph == {}
    assert list(T) == list(K)
    assert list(T._pred) == list(K) and list(T._succ) == list(K)
    assert T._adj is T._succ
    for v in K:
        assert list(T._succ[v]) == list(K._succ[v]), v
        assert list(T._pred[v]) == list(K._pred[v]), v
        assert T._node[v] == {}
    datas = [T._succ[u][v] for u, v in K.edges]
    assert all(T._succ[u][v] is T._pred[v][u] for u, v in K.edges)
    assert all(d == {} and type(d) is dict for d in datas)
    assert len({id(d) for d in datas}) == len(datas)  # one dict per edge
    assert len({id(T._node[v]) for v in T}) == len(T)  # one dict per node
    assert not {id(d) for d in datas} & {id(T._node[v]) for v in T}
    assert nx.utils.graphs_equal(T, K)


def _tree_graph_input(kind: str, directed: bool, seed: int, n: int = 120):
    G = _graph(seed, kind, directed, n=n)
    G.graph.clear()
    return G


@pytest.mark.parametrize("seed", range(4))
@pytest.mark.parametrize("kind", ["int", "shuffled", "str", "mixed"])
@pytest.mark.parametrize("directed", [False, True])
@pytest.mark.parametrize("native", [True, False])
def test_bfs_tree_equals_networkx(seed, kind, directed, native, tree_spy, monkeypatch):
    from warpgraph.nx import _common

    monkeypatch.setattr(_common, "NATIVE_MIN", 0 if native else 10**9)
    G = _tree_graph_input(kind, directed, seed)
    nodes = list(G)
    rng = random.Random(seed)
    for source in (nodes[0], rng.choice(nodes), nodes[-1]):
        for depth in (None, 0, 1, 2):
            for reverse in (False, True) if not directed else (False,):
                kw = {"depth_limit": depth, "reverse": reverse}
                T = nx.bfs_tree(G, source, backend=BACKEND, **kw)
                assert_tree_equal(T, nx.bfs_tree(G, source, **kw))
    usable = _capi.api() is not None
    assert bool(tree_spy) is (native and usable)


def test_bfs_tree_big_identity_and_scattered(tree_spy):
    """Above NATIVE_MIN with default settings: the labels 0..n-1 (existing ints, and new ones
    for a scattered discovery order) and str labels."""
    from warpgraph.nx import _common

    assert _common.NATIVE_MIN < 5000
    G = nx.grid_2d_graph(40, 40)
    G = nx.convert_node_labels_to_integers(G)
    assert_tree_equal(nx.bfs_tree(G, 0, backend=BACKEND), nx.bfs_tree(G, 0))
    R = nx.gnm_random_graph(6000, 30000, seed=3)  # random ids: a scattered order
    W = _converted(R)
    order = np.array(list(nx.bfs_tree(R, 0)))
    assert W.identity and _common._scattered(order, len(W))
    assert_tree_equal(nx.bfs_tree(R, 0, backend=BACKEND), nx.bfs_tree(R, 0))
    S = nx.relabel_nodes(R, {v: f"n{v}" for v in R})
    assert_tree_equal(nx.bfs_tree(S, "n5", backend=BACKEND), nx.bfs_tree(S, "n5"))
    assert len(tree_spy) == 3 or _capi.api() is None


@pytest.mark.skipif(_capi.api() is None, reason="CPython's C API is not usable here")
@pytest.mark.parametrize("kind", ["int", "str"])
def test_bfs_tree_references_are_balanced(kind, monkeypatch):
    """Building and dropping trees leaves the labels with the references they had; each edge's
    data dict is held by its two entries, each node dict by the node table only."""
    from warpgraph.nx import _common

    monkeypatch.setattr(_common, "NATIVE_MIN", 0)
    from warpgraph.nx import traversal

    G = _tree_graph_input(kind, False, 2, n=300)
    W = _converted(G)
    source = next(iter(G))
    parents, children = traversal._tree_arcs(W, source, None)
    build = partial(_results.bfs_tree_graph, W, W.find(source), parents, children)
    assert_tree_equal(build(), nx.bfs_tree(G, source))  # (W's label list made once)
    big = [v for v in G if not isinstance(v, int) or v > 256]  # not the cached small ints
    gc.collect()  # (the trees above, held in reference cycles by their cached views)
    before = [sys.getrefcount(x) for x in big]
    for _ in range(3):
        T = build()
        assert len(T) > 1
        # getrefcount's argument is one more (counted outside assert)
        edges = [(u, v) for u in T._succ for v in T._succ[u]]  # (T.edges: a cycle via T)
        wrong = [(u, v) for u, v in edges if sys.getrefcount(T._succ[u][v]) != 3]
        wrong += [u for u in T if sys.getrefcount(T._node[u]) != 2]
        wrong += [u for u in T if sys.getrefcount(T._succ[u]) != 2]
        wrong += [u for u in T if sys.getrefcount(T._pred[u]) != 2]
        assert not wrong
        del T, edges
    assert [sys.getrefcount(x) for x in big] == before


def test_bfs_tree_new_labels_are_released():
    """Labels 0..n-1 made by the builder (``labels=None``) are owned by the tree only."""
    fns = _capi.api().fns if _capi.api() is not None else None
    if fns is None:
        pytest.skip("CPython's C API is not usable here")
    n = 1000
    order = np.arange(n)[::-1].copy()
    parent_pos = np.arange(n - 1) // 2  # a binary heap in reverse label order
    T = nx.DiGraph()
    _capi_tree.tree_graph(fns, T, order, parent_pos, None, np.arange(n))
    K = nx.DiGraph()
    K.add_node(n - 1)
    K.add_edges_from((n - 1 - p, n - 1 - (i + 1)) for i, p in enumerate(parent_pos.tolist()))
    assert_tree_equal(T, K)
    big = next(v for v in T if 300 < v < n - 1)  # a new int: held by T._node, T._succ, T._pred and
    # the entries naming it (its parent's successor row and its children's predecessor rows)
    kids = len(T._succ[big])
    assert sys.getrefcount(big) == 2 + 3 + 1 + kids  # + getrefcount's argument and ``big``
    with pytest.raises(_capi_tree.InvalidArgumentError):
        _capi_tree.tree_graph(fns, nx.DiGraph(), order[:3], np.array([0, 2]), None, np.arange(n))


@pytest.mark.parametrize("directed", [False, True])
def test_bfs_tree_falls_back_where_the_builder_cannot_be_used(directed, tree_spy, monkeypatch):
    from warpgraph.nx import _common

    monkeypatch.setattr(_common, "NATIVE_MIN", 0)
    # Equal hashes (hash(-1) == hash(-2)): the conversion keeps no node hashes.
    G = _tree_graph_input("int", directed, 5, n=60)
    G = nx.relabel_nodes(G, {v: -v - 1 for v in G})
    assert_tree_equal(nx.bfs_tree(G, -1, backend=BACKEND), nx.bfs_tree(G, -1))
    assert not tree_spy
    # The dict tables may not be read in place: no C API.
    monkeypatch.setitem(_dict_layout._STATE, "ok", False)
    assert _capi.api() is None
    G = _tree_graph_input("str", directed, 6, n=60)
    assert_tree_equal(nx.bfs_tree(G, next(iter(G)), backend=BACKEND), nx.bfs_tree(G, next(iter(G))))
    assert not tree_spy


@pytest.mark.skipif(not _cpython.available(), reason="the raw dict reader is unavailable here")
def test_dict_entries_of_small_and_big_dicts_and_refusals():
    """``dict_entries`` reads a small dict with the one-thread reader and a big one in parallel,
    both in order with deleted entries skipped; what is not a plain dict gives None."""
    from collections import OrderedDict

    for d in ({"a": 1, "b": 2.5}, {i: {} for i in range(5000)}):
        for k in list(d)[::7]:
            del d[k]
        hashes, addresses = _cpython.dict_entries(d)
        assert hashes.tolist() == [hash(k) for k in d]
        assert addresses.tolist() == [id(v) for v in d.values()]
    for not_plain in ([1, 2], OrderedDict(a=1), None):
        assert _cpython.dict_entries(not_plain) is None


@pytest.mark.parametrize("given", [True, False])
@pytest.mark.parametrize("kept", [0, 1, 37, 1000])
def test_node_table_matches_numpy(given, kept):
    """``_capi_graph._node_info`` (parallel) writes what NumPy's column writes did: position or -1,
    label address (0 where the builder makes the labels), hash, a 0 cursor; ``_columns``
    copies two of its columns."""
    rng = np.random.default_rng(kept)
    n = 1000
    hashes = rng.integers(-(2**62), 2**62, n)
    labels = rng.integers(1, 2**40, n) if given else np.zeros(0, np.int64)
    visit = rng.permutation(n)[:kept].astype(np.int64)
    info = _capi_graph._node_info(visit, hashes, labels)
    want = np.zeros((n, 4), dtype=np.int64)
    want[:, _capi_graph.POS] = -1
    want[visit, _capi_graph.POS] = np.arange(kept)
    want[:, _capi_graph.HASH] = hashes
    if given:
        want[:, _capi_graph.LABEL] = labels
    np.testing.assert_array_equal(info, want)
    pair = _capi_graph._columns(info, _capi_graph.LABEL, _capi_graph.HASH)
    np.testing.assert_array_equal(pair, want[:, [_capi_graph.LABEL, _capi_graph.HASH]])
    assert pair.flags.c_contiguous


def test_parallel_helpers_match_numpy():
    """The parallel passes that replaced NumPy's serial ones: ``gather`` (``values[at]``),
    ``_column``, ``zero_fill``, and the checks of ``_native_copy``."""
    rng = np.random.default_rng(5)
    values = rng.integers(-(2**40), 2**40, 3000)
    at = rng.integers(0, values.size, 700)
    np.testing.assert_array_equal(_capi.gather(values, at), values[at])
    info = rng.integers(0, 99, (500, 4))
    col = _capi_graph._column(info, _capi_graph.HASH)
    np.testing.assert_array_equal(col, info[:, _capi_graph.HASH])
    assert col.flags.c_contiguous
    _capi.zero_fill(values)
    assert not values.any()
    hashes = rng.integers(0, 2**50, 400)
    other = hashes.copy()
    assert _results._same_hashes(hashes, hashes, hashes)
    other[399] += 1
    assert not _results._same_hashes(other, hashes, hashes)
    assert not _results._same_hashes(hashes, other, hashes)
    indptr = np.array([0, 2, 2, 5, 9])
    visit = np.array([3, 0])
    assert _results._same_lengths(np.array([0, 4, 6]), indptr, visit)
    assert not _results._same_lengths(np.array([0, 4, 5]), indptr, visit)


def test_a_graph_changed_after_its_conversion_is_not_built_in_place():
    """Row lengths that no longer match the conversion's send ``_native_copy`` back (None),
    and the result still equals NetworkX's."""
    if _capi.api() is None:
        pytest.skip("no C API here")
    G = nx.grid_2d_graph(80, 80)
    G = nx.convert_node_labels_to_integers(G)
    W = _converted(G)
    G._adj[5][6000] = G._adj[6000][5] = {}  # (behind NetworkX's back: the cache stays)
    visit = np.arange(len(W), dtype=np.int64)
    assert _results._native_copy(W, G, visit, None) is None


def test_build_graph_refuses_labels_that_do_not_match_the_hashes():
    if _capi.api() is None:
        pytest.skip("no C API here")
    H = nx.Graph()
    empty = np.zeros(0, np.int64)
    with pytest.raises(ValueError, match="2 labels for 3 node hashes"):
        _capi_graph.build_graph(H, _capi.api().fns, empty, np.zeros(4, np.int64), empty, None,
                                empty, np.zeros(1, np.int64), np.zeros(3, np.int64),
                                np.arange(2), np.arange(3))  # fmt: skip
    assert len(H) == 0
