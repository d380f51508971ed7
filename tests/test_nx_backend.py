"""NetworkX backend (warpgraph.nx): dispatched results equal NetworkX's, exactly."""

from __future__ import annotations

import math
import random
import subprocess
import sys
import warnings
from itertools import pairwise

import numpy as np
import pytest

nx = pytest.importorskip("networkx")

from nx_labels import shuffled_labels  # noqa: E402  (tests/nx_labels.py)
from warpgraph.nx import FUNCTIONS, get_info  # noqa: E402
from warpgraph.nx.interface import (  # noqa: E402
    SMALL_GRAPH_EDGES,
    WarpgraphGraph,
    backend_interface,
)

BACKEND = "warpgraph"
SEEDS = range(6)

if BACKEND not in nx.utils.backends.backends:  # entry points not registered (not installed)
    pytest.skip("warpgraph is not registered as a NetworkX backend", allow_module_level=True)


def random_graph(seed: int, kind: str = "str", directed: bool = False, selfloops: bool = True):
    """A random graph with several components, isolated nodes and non-integer labels."""
    rng = random.Random(seed)
    n = rng.randint(1, 70)
    labels = shuffled_labels(kind, n, rng)
    G = nx.DiGraph() if directed else nx.Graph()
    G.add_nodes_from(labels)
    m = rng.randint(0, 3 * n)
    for _ in range(m):
        u, v = rng.choice(labels), rng.choice(labels)
        if u != v or selfloops:
            G.add_edge(u, v)
    if directed and n > 2:  # many mutual pairs
        for u, v in list(G.edges)[: m // 3]:
            G.add_edge(v, u)
    return G


def both(func: str, G, *args, **kwargs):
    ours = getattr(nx, func)(G, *args, backend=BACKEND, **kwargs)
    theirs = getattr(nx, func)(G, *args, **kwargs)
    return ours, theirs


def assert_same_dict(ours, theirs):
    assert type(ours) is dict
    assert ours == theirs
    for k, v in theirs.items():
        assert type(ours[k]) is type(v), (k, ours[k], v)


CASES = [(seed, kind) for seed in SEEDS for kind in ("str", "tuple", "mixed")]
FEW = CASES[::4]  # for the functions built on machinery the full CASES already exercise


# ---------------------------------------------------------------- registration
def test_backend_info_lists_the_functions():
    info = get_info()
    assert info["backend_name"] == BACKEND
    assert set(info["functions"]) == set(FUNCTIONS)
    for name in FUNCTIONS:
        assert hasattr(backend_interface, name)
        assert BACKEND in getattr(nx, name).backends


def test_backend_info_does_not_import_the_backend():
    code = (
        "import sys; from warpgraph.nx import get_info; get_info(); "
        "print('warpgraph.nx.interface' in sys.modules, 'cupy' in sys.modules)"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.split() == ["False", "False"]


# ---------------------------------------------------------------- conversion
@pytest.mark.parametrize("directed", [False, True])
def test_conversion_round_trip(directed):
    G = random_graph(3, "tuple", directed=directed)
    W = backend_interface.convert_from_nx(G)
    assert isinstance(W, WarpgraphGraph)
    assert W.__networkx_backend__ == BACKEND
    assert W.is_directed() == directed and not W.is_multigraph()
    assert list(W.nodes) == list(G) and all(W.node_id(v) == i for i, v in enumerate(G))
    H = backend_interface.convert_to_nx(W)
    assert type(H) is type(G)
    assert set(H.nodes) == set(G.nodes)
    assert {frozenset((u, v)) if not directed else (u, v) for u, v in H.edges} == {
        frozenset((u, v)) if not directed else (u, v) for u, v in G.edges
    }


def test_conversion_reads_the_named_weight():
    G = nx.Graph()
    G.add_edge("a", "b", cost=2.5)
    G.add_edge("b", "c", cost=4.0)
    G.add_edge("c", "d")  # missing: NetworkX's default of 1
    W = backend_interface.convert_from_nx(G, edge_attrs={"cost": 1})
    assert W.weight == "cost"
    assert W.graph.weights is None  # the structure; weights per attribute beside it
    w = W.weighted("cost")
    assert w.kind == "mixed" and not w.hidden
    assert sorted(w.graph.weights.tolist()) == [1, 1, 2.5, 2.5, 4.0, 4.0]
    assert W.weighted("cost") is w  # cached
    plain = backend_interface.convert_from_nx(G)
    assert plain.weight is None and plain.graph.weights is None
    other = plain.weighted("other")  # read later from the source graph, default 1
    assert other.kind == "int" and other.graph.weights.tolist() == [1] * 6
    G.add_edge("d", "e", cost=None)
    hidden = backend_interface.convert_from_nx(G).weighted("cost")
    assert hidden.hidden and hidden.graph.num_edges == 3  # None hides the edge


# ---------------------------------------------------------------- raw dict reading (_cpython)
def _conversions(G, edge_attrs=None, monkeypatch=None):
    """The conversion with the dict tables read in place (when available) and by Python."""
    from warpgraph.nx import _dict_layout

    raw = backend_interface.convert_from_nx(G, edge_attrs)
    monkeypatch.setitem(_dict_layout._STATE, "ok", False)
    py = backend_interface.convert_from_nx(G, edge_attrs)
    monkeypatch.undo()
    return raw, py


@pytest.mark.parametrize("labels", ["int", "str", "shuffled"])
@pytest.mark.parametrize("directed", [False, True])
def test_self_loops_counted_by_the_scan(labels, directed, monkeypatch):
    """The scan's self-loop count is the graph's, whether or not the tables are read in place
    (then it is counted in the scan, else recounted from the arcs)."""
    rng = random.Random(7)
    G = nx.gnm_random_graph(300, 1200, seed=7, directed=directed)
    G.add_edges_from((v, v) for v in rng.sample(range(300), 17))
    if labels != "int":
        order = list(G)
        rng.shuffle(order)
        names = {v: (f"v{v}" if labels == "str" else 1000 - v) for v in order}
        G = nx.relabel_nodes(G, names)
    raw, py = _conversions(G, monkeypatch=monkeypatch)
    for W in (raw, py):
        g = W.any_order
        rows = np.repeat(np.arange(len(W)), np.diff(g.indptr))
        assert g.num_self_loops == 17 == int((rows == g.indices).sum())
        assert W.graph.num_self_loops == 17
    assert nx.number_of_selfloops(G) == 17


def _assert_same_conversion(a, b, attr=None):
    ga, gb = a.graph, b.graph
    assert ga.indptr.tolist() == gb.indptr.tolist()
    assert ga.indices.tolist() == gb.indices.tolist() and ga.indices.dtype == gb.indices.dtype
    assert a.nx_order.tolist() == b.nx_order.tolist() and a.nx_order.dtype == b.nx_order.dtype
    assert (a._perm is None) == (b._perm is None)
    assert a._perm is None or a._perm.tolist() == b._perm.tolist()
    assert ga.vertex_labels == gb.vertex_labels
    if attr is not None:
        wa, wb = a.weighted(attr), b.weighted(attr)
        assert (wa.kind, wa.hidden) == (wb.kind, wb.hidden)
        assert wa.nx_values.dtype == wb.nx_values.dtype
        assert wa.nx_values.tolist() == wb.nx_values.tolist()
        assert (wa.nx_hidden is None) == (wb.nx_hidden is None)
        assert wa.nx_hidden is None or wa.nx_hidden.tolist() == wb.nx_hidden.tolist()


def _weight_value(kind: str, rng: random.Random):
    import numpy as np

    choices = {
        "int": lambda: rng.randint(-(2**40), 2**40),
        "float": lambda: rng.uniform(-5, 5),
        "mixed": lambda: rng.choice([rng.randint(0, 9), rng.random(), None]),
        "odd": lambda: rng.choice([True, np.float64(1.5), 2**70, "x", 3]),
    }
    return choices[kind]()


@pytest.mark.parametrize("seed", range(4))
@pytest.mark.parametrize("labels", ["str", "tuple", "mixed", "int", "ordered", "clash"])
@pytest.mark.parametrize("weights", ["int", "float", "mixed", "odd"])
def test_raw_conversion_equals_python(seed, labels, weights, monkeypatch):
    rng = random.Random(seed)
    if labels in ("int", "ordered", "clash"):
        n = rng.randint(1, 60)
        nodes = list(range(n)) if labels != "clash" else [-1 - i for i in range(n)]  # -1, -2 clash
        if labels != "ordered":
            rng.shuffle(nodes)
        G = nx.DiGraph() if seed % 2 else nx.Graph()
        G.add_nodes_from(nodes)
        for _ in range(rng.randint(0, 4 * n)):
            G.add_edge(rng.choice(nodes), rng.choice(nodes))
    else:
        G = random_graph(seed, labels, directed=bool(seed % 2))
    edges = list(G.edges)
    rng.shuffle(edges)
    name = "".join(["wei", "ght"])  # an attribute name that is not the interned literal
    for u, v in edges[: len(edges) // 2]:
        G[u][v]["weight" if seed % 3 else name] = _weight_value(weights, rng)
        if rng.random() < 0.2:
            G[u][v]["other"] = 1
    G.remove_edges_from(edges[-3:])  # deleted entries in the tables
    raw, py = _conversions(G, {"weight": 1}, monkeypatch)
    _assert_same_conversion(raw, py, "weight")
    for attr in ("other", "missing"):
        _assert_same_conversion(raw, py, attr)


@pytest.mark.parametrize("default", [1, 0.5, None, "x", 2**70])
def test_raw_conversion_default_weights_equal_python(default, monkeypatch):
    # the default stands for a missing attribute in the decoding pass (or sends it to Python)
    rng = random.Random(5)
    G = nx.Graph()
    G.add_nodes_from(range(5000))
    for _ in range(12000):
        u, v = rng.randrange(5000), rng.randrange(5000)
        G.add_edge(u, v, **({"weight": rng.choice([3, 2.5, None])} if rng.random() < 0.5 else {}))
    raw, py = _conversions(G, {"weight": default}, monkeypatch)
    _assert_same_conversion(raw, py)
    wa, wb = raw.weighted("weight", default), py.weighted("weight", default)
    assert (wa.kind, wa.hidden) == (wb.kind, wb.hidden)
    assert wa.nx_values.dtype == wb.nx_values.dtype
    assert wa.nx_values.tolist() == wb.nx_values.tolist()
    assert wa.graph.weights.tolist() == wb.graph.weights.tolist()
    assert wa.graph.indices.tolist() == wb.graph.indices.tolist()


def test_raw_conversion_is_used_and_falls_back(monkeypatch):
    from warpgraph.nx import _cpython
    from warpgraph.nx._from_networkx import _structure

    if not _cpython.available():
        pytest.skip("the dict tables cannot be read in place on this Python")
    G = random_graph(2, "str")
    assert _structure(G, list(G))[4] is not None  # read in place
    clash = nx.path_graph([-1, -2, 5])  # hash(-1) == hash(-2): ids from hashes are ambiguous
    assert _structure(clash, list(clash))[4] is None
    _assert_same_conversion(*_conversions(clash, None, monkeypatch))

    class Inner(dict):
        pass

    class Custom(nx.Graph):
        adjlist_inner_dict_factory = Inner

    C = Custom(nx.cycle_graph(5))  # rows are a dict subclass: iterated in Python
    assert _structure(C, list(C))[4] is None
    _assert_same_conversion(*_conversions(C, None, monkeypatch))
    R = random_graph(5, "tuple")
    R._adj = dict(reversed(R._adj.items()))  # rows not in node order: found by label instead
    raw, py = _conversions(R, None, monkeypatch)
    _assert_same_conversion(raw, py)
    assert _structure(R, list(R))[4] is not None


@pytest.mark.parametrize("labels", ["ordered", "shuffled", "removed"])
def test_raw_conversion_of_a_big_graph_equals_python(labels, monkeypatch):
    # >= 4096 nodes: the node and adjacency dicts are read in parallel chunks
    rng = random.Random(11)
    nodes = list(range(9000))
    if labels == "shuffled":
        rng.shuffle(nodes)
    G = nx.Graph()
    G.add_nodes_from(nodes)
    G.add_edges_from((rng.choice(nodes), rng.choice(nodes), {"w": rng.randint(1, 9)})
                     for _ in range(20000))  # fmt: skip
    if labels == "removed":  # deleted entries in both tables
        G.remove_nodes_from(nodes[::13])
    raw, py = _conversions(G, {"w": 1}, monkeypatch)
    _assert_same_conversion(raw, py, "w")
    assert raw.identity == (labels == "ordered") and py.identity == raw.identity
    assert raw._node_hashes is not None


@pytest.mark.parametrize("rows", [0, 1, 255, 256, 257, 5003])
def test_row_offsets_are_the_prefix_sums_of_the_row_lengths(rows):
    from warpgraph.nx import _cpython

    if not _cpython.available():
        pytest.skip("the dict tables cannot be read in place on this Python")
    rng = random.Random(rows)
    dicts = [dict.fromkeys(range(rng.choice([0, 1, 3, 40]))) for _ in range(rows)]
    at = np.array([id(d) for d in dicts], dtype=np.int64)
    want = np.concatenate(([0], np.cumsum([len(d) for d in dicts]))).astype(np.int64)
    assert _cpython.row_offsets(at).tolist() == want.tolist()  # chunk seams included

    class Row(dict):
        pass

    for bad in (at.astype(np.int32), at.reshape(-1, 1) if rows else at[None], list(at)):
        with pytest.raises(TypeError, match="1-D int64 array of dict addresses"):
            _cpython.row_offsets(bad)
    for where in {0, rows // 2, rows - 1} if rows else ():  # a row not a plain dict, anywhere
        odd = list(dicts)
        odd[where] = Row(odd[where])
        assert _cpython.row_offsets(np.array([id(d) for d in odd], dtype=np.int64)) is None


@pytest.mark.parametrize("n", [1, 7, 100_000])
def test_identity_hashes_sees_one_moved_hash_anywhere(n):
    from warpgraph.nx import _hash_index

    hashes = np.arange(n, dtype=np.int64)
    assert _hash_index.identity_hashes(hashes)
    for where in {0, n // 2, n - 1}:
        moved = hashes.copy()
        moved[where] = n + 5
        assert not _hash_index.identity_hashes(moved)
    assert _hash_index.identity_hashes(np.zeros(0, dtype=np.int64))


@pytest.mark.parametrize("seed", range(5))
def test_sort_rows_matches_lexsort(seed):
    import numpy as np

    from warpgraph.nx._csr import sort_rows

    rng = np.random.default_rng(seed)
    lengths = rng.choice([0, 1, 2, 5, 30, 49, 200], size=40)  # insertion and NumPy sorts
    indptr = np.concatenate(([0], np.cumsum(lengths))).astype(np.int64)
    ids = np.concatenate([rng.permutation(1000)[:k] for k in lengths]).astype(np.int32)
    if seed == 0:  # every row sorted: the ids come back as they are, no permutation
        ids = np.concatenate([np.sort(ids[a:b]) for a, b in pairwise(indptr)]).astype(np.int32)
    rows = np.repeat(np.arange(lengths.size), lengths)
    want = np.lexsort((ids, rows))  # by row, then id
    got, perm = sort_rows(indptr, ids)
    assert got.dtype == ids.dtype
    assert got.tolist() == ids[want].tolist()
    if seed == 0:
        assert perm is None and got is ids
    else:
        assert perm.tolist() == want.tolist()


@pytest.mark.parametrize("directed", [False, True])
def test_rows_are_sorted_only_when_a_function_needs_it(directed):
    """Components, cores and BFS read the rows in NetworkX's order; the sorted CSR (and its
    permutation) is made on first use, equal to the one sorted at once."""
    import numpy as np

    from warpgraph.nx._csr import sort_rows

    G = (nx.DiGraph if directed else nx.Graph)()
    G.add_nodes_from(range(60))
    rng = random.Random(5)
    G.add_edges_from((u, v) for u in range(59, -1, -1) for v in rng.sample(range(60), 4) if u != v)
    W = backend_interface.convert_from_nx(G)
    assert W._nodes == range(60) and W.identity  # listed on first use, from G's own objects
    assert W.nodes == list(G) and all(a is b for a, b in zip(W.nodes, G, strict=True))
    assert W._graph is None and W._unsorted_rows > 0  # not sorted yet
    assert W.any_order.indices.tolist() == W.nx_order.tolist()
    G.__networkx_cache__.clear()
    if directed:
        want = nx.number_strongly_connected_components(G)
        assert nx.number_strongly_connected_components(G, backend=BACKEND) == want
        assert nx.number_weakly_connected_components(G, backend=BACKEND) == 1
    else:
        assert nx.number_connected_components(G, backend=BACKEND) == 1
        assert nx.core_number(G, backend=BACKEND) == nx.core_number(G)
        assert nx.triangles(G, backend=BACKEND) == nx.triangles(G)  # (rows in any order)
        assert nx.clustering(G, backend=BACKEND) == nx.clustering(G)
        assert nx.transitivity(G, backend=BACKEND) == nx.transitivity(G)
    assert list(nx.bfs_layers(G, [7], backend=BACKEND)) == list(nx.bfs_layers(G, [7]))
    cached = next(iter(G.__networkx_cache__["backends"][BACKEND].values()))
    assert cached._graph is None  # none of those sorted the rows
    ids, perm = sort_rows(np.asarray(W.any_order.indptr), W.nx_order)
    assert W.graph.indices.tolist() == ids.tolist()  # sorted now, on first use
    assert W._perm.tolist() == perm.tolist()
    if not directed:
        assert nx.triangles(G, backend=BACKEND) == nx.triangles(G)


@pytest.mark.parametrize("kind", ["int", "shuffled", "str", "tuple"])
def test_node_lookup_and_labels_equal_a_dict(kind, monkeypatch):
    import numpy as np

    rng = random.Random(4)
    if kind in ("int", "shuffled"):
        nodes = list(range(300))
        if kind == "shuffled":
            rng.shuffle(nodes)
        G = nx.Graph()
        G.add_nodes_from(nodes)
        G.add_edges_from((rng.choice(nodes), rng.choice(nodes)) for _ in range(600))
    else:
        G = random_graph(7, kind)
    W = backend_interface.convert_from_nx(G)
    assert W.identity == (kind == "int")
    index = {v: i for i, v in enumerate(G)}
    probes = [*list(G)[:5], *list(G)[-3:], -1, 300, 2.0, True, False, 1.5, "v1", "zz", (0, "t0")]
    probes += [2**61 + 1, (1, "t99999")]  # 2**61 + 1 hashes as 2 (modulo 2**61 - 1)
    for v in probes[:4]:  # the first look-ups do not build the dict of every label
        assert W.find(v) == index.get(v, -1), v
        assert (v in W) == (v in G), v
    assert W._index is None
    for v in probes:
        assert W.find(v) == index.get(v, -1), v
        assert (v in W) == (v in G), v
    assert [] not in W and {} not in W  # unhashable: never a node
    for v in probes * 2:  # after a few look-ups: the dict
        assert W.find(v) == index.get(v, -1), v
    ids = np.array([3, 0, len(G) - 1, 3])
    assert W.label_list(ids) == [list(G)[i] for i in ids]
    mask = np.zeros(len(G), dtype=bool)
    mask[[1, 4]] = True
    assert W.label_list(mask) == [list(G)[1], list(G)[4]]
    monkeypatch.setitem(sys.modules["warpgraph.nx._dict_layout"]._STATE, "ok", False)
    P = backend_interface.convert_from_nx(G)  # iterated in Python: no node hashes
    assert P._node_hashes is None and P.identity == W.identity
    if P.identity:  # (an int of the labels 0..n-1 is its own id: no dict of every label)
        assert [P.find(v) for v in (0, 7, -1, 300, len(G) - 1)] == [0, 7, -1, -1, len(G) - 1]
        assert P._index is None
    assert [P.find(v) for v in probes] == [index.get(v, -1) for v in probes]


def test_conversion_is_cached_on_the_graph(monkeypatch):
    G = random_graph(1)
    calls = []
    original = backend_interface.convert_from_nx

    def counting(*args, **kwargs):
        W = original(*args, **kwargs)
        if W.pending is None:  # (the structure read: not a conversion deferred to first use)
            calls.append(1)
        return W

    monkeypatch.setattr(backend_interface, "convert_from_nx", counting)
    first = nx.triangles(G, backend=BACKEND)
    assert nx.triangles(G, backend=BACKEND) == first
    assert nx.number_connected_components(G, backend=BACKEND) == nx.number_connected_components(G)
    assert len(calls) == 1
    assert G.__networkx_cache__["backends"][BACKEND]
    G.add_edge("new1", "new2")  # mutation clears the cache: converted again
    nx.triangles(G, backend=BACKEND)
    assert len(calls) == 2


@pytest.mark.parametrize("cls", [nx.MultiGraph, nx.MultiDiGraph])
def test_multigraph_is_refused_clearly(cls):
    M = cls([("a", "b"), ("a", "b")])
    with pytest.raises(nx.NetworkXNotImplemented, match="does not support multigraphs"):
        backend_interface.convert_from_nx(M)
    func = nx.connected_components if not M.is_directed() else nx.weakly_connected_components
    name = func.__name__
    assert "multigraphs are not supported" in backend_interface.can_run(name, (M,), {})
    with pytest.raises(NotImplementedError, match="not implemented by 'warpgraph'"):
        list(func(M, backend=BACKEND))  # can_run declines: NetworkX says so (and logs why)
    assert backend_interface.should_run(name, (M,), {}) is not True


# ---------------------------------------------------------------- can_run / should_run
def test_can_run_refuses_unsupported_arguments():
    G = random_graph(2)
    D = random_graph(2, directed=True)
    can = backend_interface.can_run
    assert can("clustering", (G,), {}) is True
    assert can("clustering", (G,), {"weight": "w"}) is not True
    assert can("clustering", (D,), {}) is True  # (Fagiolo's, since session 55)
    assert can("clustering", (D,), {"weight": "w"}) is not True
    assert can("triangles", (D,), {}) is not True  # (NetworkX refuses it)
    assert can("triadic_census", (D,), {}) is True
    assert can("triadic_census", (D,), {"nodelist": list(D)[:3]}) is not True
    assert can("connected_components", (D,), {}) is not True
    assert can("weakly_connected_components", (G,), {}) is not True
    assert can("hits", (G,), {}) is not True  # not dispatched to warpgraph
    with pytest.raises(NotImplementedError):
        nx.clustering(G, weight="w", backend=BACKEND)


def test_should_run_declines_small_graphs():
    small = nx.path_graph(10)
    big = nx.path_graph(SMALL_GRAPH_EDGES + 5)
    assert backend_interface.should_run("triangles", (small,), {}) is not True
    assert backend_interface.should_run("triangles", (big,), {}) is True
    W = backend_interface.convert_from_nx(small)
    assert backend_interface.should_run("triangles", (W,), {}) is True


def test_automatic_dispatch_follows_should_run(monkeypatch):
    calls = []
    original = backend_interface.convert_from_nx

    def counting(*args, **kwargs):
        calls.append(1)
        return original(*args, **kwargs)

    monkeypatch.setattr(backend_interface, "convert_from_nx", counting)
    priority = nx.config.backend_priority
    saved = list(priority.algos)
    priority.algos = [BACKEND]
    try:
        small = nx.cycle_graph([f"s{i}" for i in range(20)])
        assert nx.number_connected_components(small) == 1
        assert calls == []  # small graph: NetworkX ran it
        big = nx.cycle_graph([(i, "b") for i in range(SMALL_GRAPH_EDGES + 10)])
        assert nx.transitivity(big) == 0
        assert nx.number_connected_components(big) == 1
        assert calls == [1]  # converted once, cached for the second call
    finally:
        priority.algos = saved


def test_graph_results_follow_the_generators_priority(monkeypatch):
    """NetworkX dispatches the functions that return a graph by
    ``backend_priority.generators``, the others by ``.algos`` (docs/NETWORKX.md says to set
    both): with ``algos`` alone ``k_truss`` stays in NetworkX."""
    calls = []
    original = backend_interface.convert_from_nx
    monkeypatch.setattr(
        backend_interface, "convert_from_nx", lambda *a, **k: calls.append(1) or original(*a, **k)
    )
    priority = nx.config.backend_priority
    saved = list(priority.algos), list(priority.generators)
    G = nx.cycle_graph([(i, "t") for i in range(SMALL_GRAPH_EDGES + 10)])
    G.add_edges_from(((i, "t"), (i + 2, "t")) for i in range(0, 60, 2))
    want = nx.k_truss(G, 3)
    try:
        priority.algos = [BACKEND]
        assert nx.utils.graphs_equal(nx.k_truss(G, 3), want) and calls == []
        priority.generators = [BACKEND]
        assert nx.utils.graphs_equal(nx.k_truss(G, 3), want) and calls == [1]
    finally:
        priority.algos, priority.generators = saved


# ---------------------------------------------------------------- the dispatched functions
@pytest.mark.parametrize(("seed", "kind"), CASES)
@pytest.mark.parametrize("directed", [False, True])
def test_single_source_shortest_path_length(seed, kind, directed):
    G = random_graph(seed, kind, directed=directed)
    rng = random.Random(seed)
    for source in rng.sample(list(G), min(3, len(G))):
        for cutoff in (None, 0, 1, 1.5, 3):
            ours, theirs = both("single_source_shortest_path_length", G, source, cutoff=cutoff)
            assert_same_dict(ours, theirs)
            assert list(ours.items()) == list(theirs.items())  # NetworkX's order too
    with pytest.raises(nx.NodeNotFound):
        nx.single_source_shortest_path_length(G, "no such node", backend=BACKEND)


@pytest.mark.parametrize(("seed", "kind"), CASES)
@pytest.mark.parametrize("directed", [False, True])
def test_bfs_layers_in_networkx_order(seed, kind, directed):
    G = random_graph(seed, kind, directed=directed)
    rng = random.Random(seed)
    nodes = list(G)
    for source in rng.sample(nodes, min(3, len(nodes))):
        ours, theirs = both("bfs_layers", G, source)
        assert type(ours) is type(theirs)  # generators
        assert list(ours) == list(theirs)  # same layers, same order inside each
    several = rng.sample(nodes, min(4, len(nodes)))
    ours, theirs = both("bfs_layers", G, several)
    assert list(ours) == list(theirs)
    with pytest.raises(nx.NetworkXError, match="not in the graph"):
        list(nx.bfs_layers(G, ["no such node"], backend=BACKEND))


@pytest.mark.parametrize("version", [(3, 4), (3, 5), None])
def test_bfs_layers_first_layer_follows_the_installed_networkx(version, monkeypatch):
    """NetworkX 3.4 starts from the sources as given, repeats included; 3.5 on from
    ``list(set(sources))``. Found by tools/nx_fuzz.py under NetworkX 3.4.2. ``None``: the
    installed version, compared with its own result."""
    from warpgraph.nx import traversal

    G = nx.Graph([("a", "x"), ("b", "y"), ("c", "x"), ("x", "z"), ("y", "z")])
    sources = ["c", "b", "a", "b"]
    if version is None:
        ours, theirs = both("bfs_layers", G, sources)
        assert list(ours) == list(theirs)
        return
    monkeypatch.setattr(traversal, "networkx_version", lambda: version)
    layers = list(nx.bfs_layers(G, sources, backend=BACKEND))
    first = sources if version < (3, 5) else list(set(sources))
    assert layers[0] == first
    visited, current, want = set(first), list(first), [first]  # NetworkX's loop, by hand
    while current:
        current = [v for u in current for v in G[u] if v not in visited and not visited.add(v)]
        if current:
            want.append(current)
    assert layers == want


@pytest.mark.parametrize("version", [(3, 4), (3, 6)])
def test_bfs_layers_declines_an_iterator_under_networkx_3_4(version, monkeypatch):
    """NetworkX 3.4 lists an iterator of sources, then builds its visited set from the spent
    iterator (empty), so the sources come round again in later layers: left to it."""
    from warpgraph.nx import algorithms

    monkeypatch.setattr(algorithms, "networkx_version", lambda: version)
    G = nx.path_graph(4)
    reason = backend_interface.can_run("bfs_layers", (G, iter([0, 1])), {})
    assert (reason is True) == (version >= (3, 5))
    for sources in ([0, 1], (0, 1), 0):  # not one-pass: run
        assert backend_interface.can_run("bfs_layers", (G, sources), {}) is True


def test_bfs_layers_order_follows_insertion_not_labels():
    G = nx.Graph()
    G.add_edges_from([("r", "z"), ("r", "b"), ("z", "y"), ("b", "a"), ("z", "a"), ("b", "c")])
    ours, theirs = both("bfs_layers", G, "r")
    assert list(ours) == list(theirs) == [["r"], ["z", "b"], ["y", "a", "c"]]


@pytest.mark.parametrize("seed", range(4))
def test_bfs_layers_of_a_long_thin_graph(seed):
    """More than 256 thin layers: the sequential pass gives the same layers."""
    rng = random.Random(seed)
    spine = [f"p{i}" for i in range(700)]
    edges = list(pairwise(spine))
    edges += [(rng.choice(spine), f"leaf{i}") for i in range(300)]
    edges += [(spine[i], spine[i + 2]) for i in rng.sample(range(len(spine) - 2), 40)]
    rng.shuffle(edges)
    G = nx.Graph(edges)
    for source in (spine[0], rng.choice(spine)):
        ours, theirs = both("bfs_layers", G, source)
        assert list(ours) == list(theirs)
    D = nx.DiGraph(edges)
    ours, theirs = both("bfs_layers", D, [spine[0], spine[5]])
    assert list(ours) == list(theirs)
    ours, theirs = both("single_source_shortest_path_length", G, spine[0], cutoff=500)
    assert list(ours.items()) == list(theirs.items())


def _component_set(components) -> set[frozenset]:
    return {frozenset(c) for c in components}


@pytest.mark.parametrize(("seed", "kind"), CASES)
def test_connected_components(seed, kind):
    G = random_graph(seed, kind)
    ours, theirs = both("connected_components", G)
    assert type(ours) is type(theirs)  # both generators
    ours, theirs = list(ours), list(theirs)
    assert all(type(c) is set for c in ours)
    assert _component_set(ours) == _component_set(theirs)
    assert ours == theirs  # same order too: components by their first node
    assert both("number_connected_components", G) == (len(theirs),) * 2


@pytest.mark.parametrize(("seed", "kind"), CASES)
def test_weakly_connected_components(seed, kind):
    G = random_graph(seed, kind, directed=True)
    ours, theirs = both("weakly_connected_components", G)
    ours, theirs = list(ours), list(theirs)
    assert _component_set(ours) == _component_set(theirs)
    assert ours == theirs


@pytest.mark.parametrize(("seed", "kind"), CASES)
def test_triangles(seed, kind):
    G = random_graph(seed, kind)
    assert_same_dict(*both("triangles", G))
    nodes = list(G)
    v = nodes[seed % len(nodes)]
    ours, theirs = both("triangles", G, v)
    assert ours == theirs and type(ours) is int
    some = [*nodes[::2], "not a node"]
    assert_same_dict(*both("triangles", G, some))
    assert list(nx.triangles(G, some, backend=BACKEND)) == list(nx.triangles(G, some))


@pytest.mark.parametrize(("seed", "kind"), CASES)
@pytest.mark.parametrize("directed", [False, True])
def test_transitivity(seed, kind, directed):
    G = random_graph(seed, kind, directed=directed)
    ours, theirs = both("transitivity", G)
    assert ours == theirs and type(ours) is type(theirs)


def test_transitivity_without_triangles_is_int_zero():
    ours, theirs = both("transitivity", nx.path_graph(["a", "b", "c"]))
    assert ours == theirs == 0 and type(ours) is type(theirs)


@pytest.mark.parametrize(("seed", "kind"), CASES)
@pytest.mark.parametrize("directed", [False, True])
def test_clustering(seed, kind, directed):
    G = random_graph(seed, kind, directed=directed)
    assert_same_dict(*both("clustering", G))
    nodes = list(G)
    v = nodes[-1]
    ours, theirs = both("clustering", G, v)
    assert ours == theirs and type(ours) is type(theirs)
    assert_same_dict(*both("clustering", G, nodes[1::3]))


@pytest.mark.parametrize(("seed", "kind"), CASES)
@pytest.mark.parametrize("directed", [False, True])
def test_core_number(seed, kind, directed):
    G = random_graph(seed, kind, directed=directed, selfloops=False)
    assert_same_dict(*both("core_number", G))


def test_core_number_refuses_self_loops_as_networkx():
    G = nx.Graph([("a", "a"), ("a", "b")])
    with pytest.raises(nx.NetworkXNotImplemented, match="self loops"):
        nx.core_number(G, backend=BACKEND)


@pytest.mark.parametrize(("seed", "kind"), CASES)
def test_triadic_census(seed, kind):
    G = random_graph(seed, kind, directed=True)
    ours, theirs = both("triadic_census", G)
    assert_same_dict(ours, theirs)
    assert list(ours) == list(theirs)


def test_empty_graph():
    G = nx.Graph()
    assert list(nx.connected_components(G, backend=BACKEND)) == []
    assert nx.number_connected_components(G, backend=BACKEND) == 0
    assert nx.triangles(G, backend=BACKEND) == {}
    assert nx.transitivity(G, backend=BACKEND) == 0


# ---------------------------------------------------------------- BFS trees
def _graphs_equal_exactly(H, K):
    """Same class, graph/node/edge attributes, and the same order of every dict."""
    assert type(H) is type(K)
    assert H.graph == K.graph
    assert list(H.nodes(data=True)) == list(K.nodes(data=True))
    for v in K:
        assert list(H.adj[v].items()) == list(K.adj[v].items()), v
        if K.is_directed():
            assert list(H.pred[v].items()) == list(K.pred[v].items()), v
    if not K.is_directed():  # one data dict per edge, shared by both arcs, as NetworkX
        for u, v in K.edges:
            assert (H[u][v] is H[v][u]) and (K[u][v] is K[v][u])


@pytest.mark.parametrize(("seed", "kind"), FEW)
@pytest.mark.parametrize("directed", [False, True])
def test_bfs_edges_and_trees_in_networkx_order(seed, kind, directed):
    G = random_graph(seed, kind, directed=directed)
    rng = random.Random(seed)
    for source in rng.sample(list(G), min(3, len(G))):
        for limit in (None, 0, 1, 2.5):
            _assert_bfs_calls_equal(G, source, limit)
        for distance in (0, 1, 2, 3.0, 40, -1):
            ours, theirs = both("descendants_at_distance", G, source, distance)
            assert ours == theirs and type(ours) is set
    for limit in (None, 1, 2.5):  # (directed: along in-arcs, in NetworkX's _pred order)
        kw = {"reverse": True, "depth_limit": limit}
        assert list(nx.bfs_edges(G, source, backend=BACKEND, **kw)) == list(
            nx.bfs_edges(G, source, **kw)
        )
        _graphs_equal_exactly(*both("bfs_tree", G, source, **kw))
    with pytest.raises(nx.NetworkXError, match="not in the"):
        list(nx.bfs_edges(G, "no such node", backend=BACKEND))


def test_bfs_edges_of_a_long_thin_graph():
    spine = [f"p{i}" for i in range(600)]
    G = nx.Graph(pairwise(spine))
    G.add_edges_from((spine[i], f"leaf{i}") for i in range(0, 600, 7))
    for source in (spine[0], spine[300]):
        ours, theirs = both("bfs_edges", G, source)
        assert list(ours) == list(theirs)
        _graphs_equal_exactly(*both("bfs_tree", G, source, depth_limit=400))


def test_bfs_tree_refuses_what_it_cannot_order():
    D = random_graph(1, directed=True)
    can = backend_interface.can_run
    assert can("bfs_edges", (D, next(iter(D))), {}) is True
    assert can("bfs_edges", (D, next(iter(D))), {"reverse": True}) is True  # (since session 55)
    assert can("bfs_tree", (D, next(iter(D))), {"sort_neighbors": sorted}) is not True
    assert can("bfs_successors", (D, next(iter(D))), {"depth_limit": "x"}) is not True


# ---------------------------------------------------------------- cores and trusses
def attributed_graph(seed: int, directed: bool = False):
    """A random graph with node, edge and graph attributes (no self-loops)."""
    G = random_graph(seed, "mixed", directed=directed, selfloops=False)
    rng = random.Random(seed)
    G.graph["name"] = f"g{seed}"
    for v in G:
        G.nodes[v]["color"] = rng.choice("rgb")
    for u, v in G.edges:
        G.edges[u, v]["w"] = rng.random()
    return G


@pytest.mark.parametrize("seed", SEEDS)
@pytest.mark.parametrize("directed", [False, True])
def test_core_subgraphs_equal_networkx(seed, directed):
    G = attributed_graph(seed, directed)
    cores = nx.core_number(G)
    top = max(cores.values(), default=0)
    for func in ("k_core", "k_shell", "k_crust"):
        for k in (None, 0, 1, 2, top, top + 1):
            _graphs_equal_exactly(*both(func, G, k))
        _graphs_equal_exactly(*both(func, G, 1, core_number=cores))
    for k in (0, 1, 2, top):
        _graphs_equal_exactly(*both("k_corona", G, k))
        _graphs_equal_exactly(*both("k_corona", G, k, core_number=cores))


@pytest.mark.parametrize("seed", SEEDS)
def test_k_truss_equals_networkx(seed):
    G = attributed_graph(seed)
    for k in (1, 2, 3, 3.5, 4, 5, 7):
        _graphs_equal_exactly(*both("k_truss", G, k))
    G.add_edge("loop", "loop")
    with pytest.raises(nx.NetworkXNotImplemented, match="self loops"):
        nx.k_truss(G, 3, backend=BACKEND)


@pytest.mark.parametrize("directed", [False, True])
def test_graph_results_when_rows_are_iterated_in_python(directed, monkeypatch):
    from warpgraph.nx import _dict_layout

    monkeypatch.setitem(_dict_layout._STATE, "ok", False)  # no reading of the dict tables in place
    G = attributed_graph(4, directed)
    for func, k in (("k_core", None), ("k_shell", 1), ("k_crust", None), ("k_corona", 1)):
        _graphs_equal_exactly(*both(func, G, k))
    if not directed:
        _graphs_equal_exactly(*both("k_truss", G, 3))


def test_k_core_result_is_a_copy():
    G = attributed_graph(2)
    H = nx.k_core(G, 1, backend=BACKEND)
    u, v = next(iter(H.edges))
    H[u][v]["w"] = "changed"
    H.nodes[u]["color"] = "changed"
    H.graph["name"] = "changed"
    assert G[u][v]["w"] != "changed" and G.nodes[u]["color"] != "changed"
    assert G.graph["name"] != "changed"


# ---------------------------------------------------------------- more components
@pytest.mark.parametrize(("seed", "kind"), FEW)
def test_more_connectivity_functions(seed, kind):
    G = random_graph(seed, kind)
    assert both("is_connected", G)[0] is both("is_connected", G)[1]
    for v in list(G)[:5]:
        ours, theirs = both("node_connected_component", G, v)
        assert ours == theirs and type(ours) is set
    D = random_graph(seed, kind, directed=True)
    for func in (
        "number_weakly_connected_components",
        "is_weakly_connected",
        "number_strongly_connected_components",
        "is_strongly_connected",
    ):
        ours, theirs = both(func, D)
        assert ours == theirs and type(ours) is type(theirs), func


@pytest.mark.parametrize(("seed", "kind"), FEW)
def test_strongly_connected_components_in_networkx_order(seed, kind):
    D = random_graph(seed, kind, directed=True)
    ours, theirs = both("strongly_connected_components", D)
    assert type(ours) is type(theirs)
    assert list(ours) == list(theirs)


def test_null_graph_connectivity_errors():
    for func, G in (
        ("is_connected", nx.Graph()),
        ("is_weakly_connected", nx.DiGraph()),
        ("is_strongly_connected", nx.DiGraph()),
    ):
        with pytest.raises(nx.NetworkXPointlessConcept, match="null graph"):
            getattr(nx, func)(G, backend=BACKEND)


@pytest.mark.parametrize(("seed", "kind"), FEW)
@pytest.mark.parametrize("directed", [False, True])
def test_average_clustering_is_networkx_float(seed, kind, directed):
    G = random_graph(seed, kind, directed=directed)
    for count_zeros in (True, False):
        try:
            theirs = nx.average_clustering(G, count_zeros=count_zeros)
        except ZeroDivisionError:
            with pytest.raises(ZeroDivisionError):
                nx.average_clustering(G, count_zeros=count_zeros, backend=BACKEND)
            continue
        ours = nx.average_clustering(G, count_zeros=count_zeros, backend=BACKEND)
        assert ours == theirs and type(ours) is type(theirs)


def test_python_sum_is_builtin_sum():
    """The JIT replica of CPython's float ``sum`` (plain before 3.12, compensated since) gives
    the same double as ``sum`` on this interpreter, zeros (ints in NetworkX) included."""
    from warpgraph.nx.clustering import COMPENSATED_SUM, python_sum

    rng = np.random.default_rng(7)
    for size in (0, 1, 2, 17, 1000, 20000):
        x = rng.random(size) * rng.choice([1.0, 1e-9, 1e9], size)
        x[rng.random(size) < 0.3] = 0.0
        values = [0 if v == 0 else float(v) for v in x]
        assert python_sum(x, COMPENSATED_SUM) == float(sum(values))
    x = rng.random(5000)
    assert python_sum(x, True) != python_sum(x, False)  # the two rules differ on such data


@pytest.mark.parametrize("directed", [False, True])
def test_average_clustering_exact_on_many_distinct_values(directed):
    G = nx.powerlaw_cluster_graph(3000, 4, 0.6, seed=3)
    if directed:  # (each edge one way or both, at random)
        rng = random.Random(5)
        G = nx.DiGraph([(u, v) if rng.random() < 0.5 else (v, u) for u, v in G.edges()])
        G.add_edges_from((v, u) for u, v in list(G.edges())[::3])
    for count_zeros in (True, False):
        theirs = nx.average_clustering(G, count_zeros=count_zeros)
        assert nx.average_clustering(G, count_zeros=count_zeros, backend=BACKEND) == theirs
    some = list(G)[::7]
    theirs = nx.average_clustering(G, nodes=some)
    assert nx.average_clustering(G, nodes=some, backend=BACKEND) == theirs
    assert_same_dict(*both("clustering", G))
    assert both("transitivity", G)[0] == nx.transitivity(G)


# ---------------------------------------------------------------- device configuration
def test_device_follows_networkx_config():
    from warpgraph.nx._common import backend_device

    cfg = nx.config.backends.warpgraph
    saved = cfg.device
    try:
        cfg.device = "cpu"
        assert backend_device() == "cpu"
        assert nx.number_connected_components(nx.path_graph(5), backend=BACKEND) == 1
    finally:
        cfg.device = saved
    assert get_info()["default_config"] == {"device": "auto"}


# ---------------------------------------------------------------- weighted shortest paths
needs_sssp = pytest.mark.skipif(
    "single_source_dijkstra_path_length" not in FUNCTIONS, reason="warpgraph has no SSSP yet"
)


def weighted_graph(seed: int, directed: bool, kind: str, negative: bool = False):
    G = random_graph(seed, "str", directed=directed)
    rng = random.Random(seed)
    for u, v in G.edges:
        if kind == "int":
            value = rng.randint(-3 if negative else 0, 9)
        else:
            value = rng.choice([0.1, 0.25, 1.5, 3.0, 1e-3]) * (-1 if negative else 1)
        if rng.random() < 0.8:  # the rest keep NetworkX's default of 1 (int) ...
            G.edges[u, v]["cost"] = value
        elif kind == "float":  # ... except for float graphs, which must not mix types
            G.edges[u, v]["cost"] = float(rng.randint(1, 4))
    return G


@needs_sssp
@pytest.mark.parametrize("seed", range(4))
@pytest.mark.parametrize("directed", [False, True])
@pytest.mark.parametrize("kind", ["int", "float"])
def test_dijkstra_path_length_equals_networkx(seed, directed, kind):
    G = weighted_graph(seed, directed, kind)
    for source in random.Random(seed).sample(list(G), min(3, len(G))):
        for cutoff in (None, 0, 2, 5.5, -1, float("inf")):
            ours, theirs = both(
                "single_source_dijkstra_path_length", G, source, cutoff=cutoff, weight="cost"
            )
            assert_same_dict(ours, theirs)
            assert list(ours) == list(theirs)  # NetworkX's heap order, ties included
        ours, theirs = both("single_source_bellman_ford_path_length", G, source, weight="cost")
        assert_same_dict(ours, theirs)
        assert list(ours) == list(theirs)  # NetworkX's queue order
    with pytest.raises(nx.NodeNotFound):
        nx.single_source_dijkstra_path_length(G, "no such node", backend=BACKEND)


@needs_sssp
def test_unweighted_graph_uses_networkx_default_weight():
    G = nx.gnm_random_graph(40, 90, seed=3)
    assert_same_dict(*both("single_source_dijkstra_path_length", G, 0))
    assert_same_dict(*both("single_source_bellman_ford_path_length", G, 0, weight="nothing"))


@needs_sssp
def test_weights_networkx_types_cannot_match_run_in_networkx():
    G = nx.path_graph(4)
    G.edges[0, 1]["weight"] = 2.5  # the other edges default to the int 1: mixed types
    with pytest.raises(NotImplementedError) as info:
        nx.single_source_dijkstra_path_length(G, 0, backend=BACKEND)
    assert "mixed" in str(info.value.__cause__)  # our reason, chained by NetworkX
    priority = nx.config.backend_priority
    saved = list(priority.algos)
    priority.algos = [BACKEND]
    try:  # automatic dispatch: NetworkX computes it
        assert nx.single_source_dijkstra_path_length(G, 0) == {0: 0, 1: 2.5, 2: 3.5, 3: 4.5}
    finally:
        priority.algos = saved
    assert (
        backend_interface.can_run(
            "single_source_dijkstra_path_length", (G, 0), {"weight": lambda u, v, d: 1}
        )
        is not True
    )


@needs_sssp
@pytest.mark.parametrize("seed", range(40))
def test_bellman_ford_follows_networkx_queue(seed):
    """Key order, value types and negative-cycle outcomes equal NetworkX's on small graphs
    with ties, zero and negative weights, self-loops and unreachable parts."""
    rng = random.Random(seed)
    n = rng.randint(1, 30)
    G = nx.gnp_random_graph(n, rng.random() * 0.3, seed=seed, directed=seed % 2 == 1)
    if n > 2 and seed % 5 == 0:
        G.add_edge(1, 1)
    kind = ("int", "float")[seed % 3 == 0]
    negative = seed % 4 in (0, 1)  # undirected: always a negative cycle; directed: some
    for u, v in G.edges:
        low = -2 if negative and rng.random() < 0.2 else 0
        value = rng.randint(low, 3)
        G.edges[u, v]["cost"] = float(value) / 4 if kind == "float" else value
    source = rng.randrange(n)
    try:
        theirs = nx.single_source_bellman_ford_path_length(G, source, weight="cost")
    except nx.NetworkXUnbounded:
        with pytest.raises(nx.NetworkXUnbounded, match="Negative cycle"):
            nx.single_source_bellman_ford_path_length(G, source, weight="cost", backend=BACKEND)
        return
    ours = nx.single_source_bellman_ford_path_length(G, source, weight="cost", backend=BACKEND)
    assert [(k, type(v), v) for k, v in ours.items()] == [
        (k, type(v), v) for k, v in theirs.items()
    ]


@needs_sssp
def test_bellman_ford_int_weights_that_could_overflow_run_in_networkx():
    G = nx.path_graph(5)
    nx.set_edge_attributes(G, 2**61, "cost")  # 4 arcs of 2**61: past int64's range
    with pytest.raises(NotImplementedError) as info:
        nx.single_source_bellman_ford_path_length(G, 0, weight="cost", backend=BACKEND)
    assert "int64" in str(info.value.__cause__)
    nx.set_edge_attributes(G, 2**40, "cost")  # 5 * 2**40: computed here, exactly
    ours, theirs = both("single_source_bellman_ford_path_length", G, 0, weight="cost")
    assert list(ours.items()) == list(theirs.items())


@needs_sssp
@pytest.mark.parametrize(
    "name", ["single_source_dijkstra_path_length", "single_source_bellman_ford_path_length",
             "negative_edge_cycle"],
)  # fmt: skip
@pytest.mark.parametrize("directed", [False, True])
def test_nan_weights_run_in_networkx(name, directed):
    """A NaN weight makes every comparison false: NetworkX's answer then follows its heap or
    queue, which warpgraph does not copy. Declined with the reason (found by
    ``tools/nx_fuzz.py``: Dijkstra's keys came in another order, negative_edge_cycle said True
    where NetworkX says False), so automatic dispatch runs NetworkX."""
    G = nx.path_graph(4, create_using=nx.DiGraph if directed else nx.Graph)
    nx.set_edge_attributes(G, 1.0, "weight")
    G.edges[1, 2]["weight"] = math.nan
    args = (G,) if name == "negative_edge_cycle" else (G, 0)
    with pytest.raises(NotImplementedError) as info:
        getattr(nx, name)(*args, backend=BACKEND)
    assert "NaN" in str(info.value.__cause__)
    priority = nx.config.backend_priority
    saved = list(priority.algos)
    priority.algos = [BACKEND]
    try:  # automatic dispatch: NetworkX computes it
        assert same_answer(getattr(nx, name)(*args), getattr(nx, name)(*args, backend="networkx"))
    finally:
        priority.algos = saved


@needs_sssp
def test_negative_edge_cycle_of_an_undirected_view_reads_each_arcs_weight():
    """``D.to_undirected(as_view=True)`` gives ``0 -> 1`` and ``1 -> 0`` D's two weights: a
    negative one need not close a negative cycle, as it does in a plain Graph. Found by
    tools/nx_fuzz.py (NetworkX itself refuses the frozen view; compared on a copy)."""
    D = nx.DiGraph([(0, 0, {"w": 2}), (0, 1, {"w": 5}), (1, 0, {"w": -1})])
    U = D.to_undirected(as_view=True)
    assert nx.negative_edge_cycle(U, weight="w", backend=BACKEND) is False
    assert nx.negative_edge_cycle(nx.DiGraph(U), weight="w") is False
    D.add_edge(1, 0, w=-6)  # 5 - 6 < 0
    U = D.to_undirected(as_view=True)
    assert nx.negative_edge_cycle(U, weight="w", backend=BACKEND) is True
    G = nx.Graph([(0, 1, {"w": -1})])  # a plain Graph: the edge's one weight, both ways
    assert nx.negative_edge_cycle(G, weight="w", backend=BACKEND) is True


def same_answer(a, b) -> bool:
    """Equal, NaN equal to NaN, dict keys in the same order."""
    if isinstance(a, dict):
        return list(a) == list(b) and all(map(same_answer, a.values(), b.values()))
    return a == b or (a != a and b != b)


@needs_sssp
def test_dijkstra_skips_edges_whose_weight_is_none():
    G = nx.Graph()
    G.add_edge("a", "b", weight=1)
    G.add_edge("b", "c", weight=None)
    G.add_edge("a", "c", weight=5)
    assert_same_dict(*both("single_source_dijkstra_path_length", G, "a"))


@needs_sssp
@pytest.mark.parametrize("seed", range(6))
@pytest.mark.parametrize("directed", [False, True])
def test_negative_weights_and_cycles_as_networkx(seed, directed):
    G = weighted_graph(seed, directed, "int", negative=True)
    assert both("negative_edge_cycle", G, weight="cost") == (nx.negative_edge_cycle(G, "cost"),) * 2
    source = next(iter(G))
    try:
        theirs = nx.single_source_bellman_ford_path_length(G, source, weight="cost")
    except nx.NetworkXUnbounded:
        with pytest.raises(nx.NetworkXUnbounded, match="Negative cycle"):
            nx.single_source_bellman_ford_path_length(G, source, weight="cost", backend=BACKEND)
    else:
        ours = nx.single_source_bellman_ford_path_length(G, source, weight="cost", backend=BACKEND)
        assert_same_dict(ours, theirs)
        assert list(ours) == list(theirs)
    assert nx.negative_edge_cycle(nx.DiGraph(), backend=BACKEND) is False


# ---------------------------------------------------------------- the GPU device
@pytest.mark.gpu
@pytest.mark.parametrize("seed", range(3))
def test_gpu_device_equals_networkx(seed):
    cfg = nx.config.backends.warpgraph
    saved = cfg.device
    cfg.device = "gpu"
    try:
        G = random_graph(seed, "str", selfloops=False)
        D = random_graph(seed, "tuple", directed=True, selfloops=False)
        for func in ("connected_components", "weakly_connected_components"):
            ours, theirs = both(func, D if func.startswith("weakly") else G)
            assert list(ours) == list(theirs)
        for func, H in (
            ("number_connected_components", G),
            ("is_connected", G),
            ("transitivity", G),
            ("transitivity", D),
            ("average_clustering", D),
            ("number_strongly_connected_components", D),
            ("is_strongly_connected", D),
        ):
            ours, theirs = both(func, H)
            assert ours == theirs and type(ours) is type(theirs), func
        for func, H in (
            ("triangles", G),
            ("clustering", G),
            ("clustering", D),
            ("core_number", G),
            ("core_number", D),
            ("triadic_census", D),
        ):
            assert_same_dict(*both(func, H))
        _graphs_equal_exactly(*both("k_core", G))
        _graphs_equal_exactly(*both("k_truss", G, 3))
        if "single_source_bellman_ford_path_length" in FUNCTIONS:
            W = weighted_graph(seed, True, "int", negative=True)
            assert both("negative_edge_cycle", W, weight="cost")[0] == nx.negative_edge_cycle(
                W, weight="cost"
            )
            P = weighted_graph(seed, False, "float")
            source = next(iter(P))
            assert_same_dict(
                *both("single_source_bellman_ford_path_length", P, source, weight="cost")
            )
    finally:
        cfg.device = saved


# ---------------------------------------------------------------- BFS order, wide layers as arrays
def _order_graph(seed: int, directed: bool, labels: str):
    """A random graph with 40-300 nodes whose insertion order differs from the id order."""
    rng = random.Random(seed)
    n = rng.randint(40, 300)
    nodes = list(range(n)) if labels == "int" else shuffled_labels(labels, n, rng)
    rng.shuffle(nodes)
    G = nx.DiGraph() if directed else nx.Graph()
    G.add_nodes_from(nodes)
    for _ in range(rng.randint(n, 6 * n)):
        G.add_edge(rng.choice(nodes), rng.choice(nodes))
    return G


@pytest.mark.parametrize("seed", range(40))
def test_ordered_bfs_array_layers_equal_the_sequential_pass(seed):
    import numpy as np

    from warpgraph.algorithms.bfs.discovery_order import ordered_bfs
    from warpgraph.nx.traversal import bfs_order

    rng = np.random.default_rng(seed)
    n = int(rng.integers(1, 400))
    deg = np.minimum(rng.integers(0, 14, n), n)
    indptr = np.concatenate(([0], np.cumsum(deg))).astype(np.int64)
    rows = [rng.permutation(n)[:d] for d in deg]  # distinct neighbours in any order
    heads = (np.concatenate(rows) if rows else np.zeros(0)).astype(np.int32)
    ids = rng.integers(0, n, int(rng.integers(1, 5)))
    for depth in (-1, 0, 1, 3):
        want = bfs_order(indptr, heads, ids, depth)
        for switch in (1, 2, 16, 200):  # every layer, or only the wide ones, as arrays
            got = ordered_bfs(indptr, heads, ids, depth, xp=np, switch_arcs=switch)
            for a, b in zip(got, want, strict=True):
                assert a.tolist() == b.tolist(), (depth, switch)


def _array_layers(monkeypatch, switch: int = 1):
    """Route the backend's BFS through the array layers (NumPy), every layer of ``switch``
    arcs or more."""
    import numpy as np

    from warpgraph.algorithms.bfs import discovery_order
    from warpgraph.nx import traversal

    def bfs(G, ids, max_depth=-1, incoming=False):
        if incoming and G.is_directed():
            indptr, heads = traversal.nx_pred_rows(G)
        else:
            indptr, heads = traversal.host(G.graph.indptr), G.nx_order
        return discovery_order.ordered_bfs(indptr, heads, ids, max_depth, xp=np,
                                        switch_arcs=switch)  # fmt: skip

    monkeypatch.setattr(traversal, "_bfs", bfs)


def _assert_bfs_calls_equal(G, source, limit):
    """bfs_edges (type too; also reversed), bfs_tree (also reversed), bfs_predecessors and
    bfs_successors equal NetworkX's."""
    for reverse in (False, True):
        ours, theirs = both("bfs_edges", G, source, reverse=reverse, depth_limit=limit)
        assert type(ours) is type(theirs)
        assert list(ours) == list(theirs)
        _graphs_equal_exactly(*both("bfs_tree", G, source, reverse=reverse, depth_limit=limit))
    ours, theirs = both("bfs_predecessors", G, source, depth_limit=limit)
    assert list(ours) == list(theirs)
    ours, theirs = both("bfs_successors", G, source, depth_limit=limit)
    assert list(ours) == list(theirs)


def _assert_bfs_family_equal(G):
    source = list(G)[len(G) // 2]
    for depth in (None, 2):
        _assert_bfs_calls_equal(G, source, depth)
    ours, theirs = both("single_source_shortest_path_length", G, source)
    assert list(ours.items()) == list(theirs.items())
    ours, theirs = both("bfs_layers", G, [source, next(iter(G))])
    assert list(ours) == list(theirs)
    assert both("descendants_at_distance", G, source, 2)[0] == nx.descendants_at_distance(
        G, source, 2
    )


@pytest.mark.parametrize("seed", range(6))
@pytest.mark.parametrize("directed", [False, True])
@pytest.mark.parametrize("labels", ["int", "str"])
def test_bfs_family_with_array_layers_equals_networkx(seed, directed, labels, monkeypatch):
    _array_layers(monkeypatch, switch=1 + seed % 3 * 8)
    _assert_bfs_family_equal(_order_graph(seed, directed, labels))


@pytest.mark.gpu
@pytest.mark.parametrize("seed", range(4))
def test_gpu_bfs_family_equals_networkx(seed, monkeypatch):
    import numpy as np

    from warpgraph.nx import traversal

    cfg = nx.config.backends.warpgraph
    saved = cfg.device
    cfg.device = "gpu"
    monkeypatch.setattr(traversal, "GPU_MIN_ARCS", 0)
    try:
        for directed, labels in ((False, "str"), (True, "int")):
            G = _order_graph(seed, directed, labels)
            W = backend_interface.convert_from_nx(G)
            source = W.find(next(iter(G)))

            for switch in (1, 8):
                got = traversal._ordered_bfs_gpu(W, np.array([source]), -1, switch)
                want = traversal.bfs_order(traversal.host(W.graph.indptr), W.nx_order,
                                           np.array([source]))  # fmt: skip
                for a, b in zip(got, want, strict=True):
                    assert a.tolist() == b.tolist()
            _assert_bfs_family_equal(G)
    finally:
        cfg.device = saved


def record_conversions(monkeypatch) -> list:
    """The list to which every ``convert_from_nx`` from now on appends its graph (a deferred
    one keeps ``pending``, the NetworkX graph, until its rows are read)."""
    made: list = []
    real = backend_interface.convert_from_nx

    def recording(*args, **kwargs):
        made.append(real(*args, **kwargs))
        return made[-1]

    monkeypatch.setattr(backend_interface, "convert_from_nx", recording)
    return made


def test_automatic_dispatch_runs_short_searches_unconverted(monkeypatch):
    """Under automatic dispatch a short ``descendants_at_distance`` of a graph not converted
    yet runs in the backend, on the dicts, and leaves the graph unconverted (until session 57
    should_run declined it, and NetworkX's own code then called the dispatched
    ``bfs_layers``, which converted the graph); a long one converts, as before."""
    G = nx.grid_2d_graph(60, 60)  # 3,600 nodes, degree <= 4
    say = backend_interface.should_run
    assert say("descendants_at_distance", (G, (0, 0), 2), {}) is True
    assert say("descendants_at_distance", (G, (0, 0)), {"distance": 40}) is True
    calls = record_conversions(monkeypatch)
    priority = nx.config.backend_priority
    saved = list(priority.algos)
    want = {d: nx.descendants_at_distance(G, (0, 0), d, backend="networkx") for d in (2, 40)}
    try:
        priority.algos = [BACKEND]
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            for _ in range(2):
                assert nx.descendants_at_distance(G, (0, 0), 2) == want[2]
            assert calls and all(W.pending is G for W in calls)  # (none read: unconverted)
            assert nx.descendants_at_distance(G, (0, 0), 40) == want[40]
            assert calls[-1].pending is None  # (a long search converts)
    finally:
        priority.algos = saved


class _NoEdgeCount(nx.Graph):
    def number_of_edges(self, u=None, v=None):
        raise AssertionError("should_run must not count every edge")


@pytest.mark.parametrize("directed", [False, True])
def test_should_run_reads_a_few_rows_not_every_degree(directed):
    """``G.number_of_edges()`` sums every degree in Python (63 ms on a 501k-node lattice, on
    each automatically dispatched call): should_run reads row lengths until it is sure."""
    kind = nx.DiGraph if directed else nx.Graph
    G = type("G", (_NoEdgeCount, kind), {})()
    nx.add_path(G, range(SMALL_GRAPH_EDGES))  # one edge short
    say = backend_interface.should_run
    assert isinstance(say("number_connected_components", (G,), {}), str)
    G.add_edge(SMALL_GRAPH_EDGES - 1, SMALL_GRAPH_EDGES)
    assert say("number_connected_components", (G,), {}) is True
    assert say("descendants_at_distance", (G, 0, 2), {}) is True


def test_should_run_facts_kept_until_networkx_changes_the_graph():
    """should_run's row reads are kept in ``__networkx_cache__`` (cleared by NetworkX's own
    methods on a change), not for a view (whose cache outlives changes under it) nor where
    the cache is off."""
    from warpgraph.nx._common import has_edges

    say = backend_interface.should_run
    G = nx.path_graph(SMALL_GRAPH_EDGES)  # one edge short
    view = G.copy(as_view=True)
    assert isinstance(say("number_connected_components", (G,), {}), str)
    assert G.__networkx_cache__ == {f"warpgraph: has {SMALL_GRAPH_EDGES} edges": False}
    assert isinstance(say("number_connected_components", (view,), {}), str)
    assert view.__networkx_cache__ == {}
    G.add_edge(SMALL_GRAPH_EDGES - 1, SMALL_GRAPH_EDGES)  # (NetworkX clears the cache)
    assert say("number_connected_components", (G,), {}) is True
    assert say("number_connected_components", (view,), {}) is True  # (read again: it grew)
    G.remove_edge(0, 1)
    assert isinstance(say("number_connected_components", (G,), {}), str)
    G.__networkx_cache__ = None
    assert has_edges(G, SMALL_GRAPH_EDGES - 1) and not has_edges(G, SMALL_GRAPH_EDGES)


@pytest.mark.parametrize("directed", [False, True])
def test_short_search_of_an_unconverted_graph_reads_its_dicts(directed, monkeypatch):
    """A forced short ``descendants_at_distance`` runs on the NetworkX dicts by set algebra
    and leaves the graph unconverted; a long one converts. Both equal NetworkX (self-loops,
    cycles back to the source, string labels, float and out-of-range distances)."""
    G = nx.gnm_random_graph(3000, 4500, seed=5, directed=directed)
    G = nx.relabel_nodes(G, {v: f"n{v}" for v in G})
    G.add_edges_from([("n0", "n0"), ("n1", "n0"), ("n0", "n1")])
    converted = record_conversions(monkeypatch)
    for source in ("n0", "n1", "n17"):
        for distance in (0, 1, 2, 2.0, 3, 10**9):
            G.__networkx_cache__.clear()
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                ours = nx.descendants_at_distance(G, source, distance, backend=BACKEND)
            assert ours == nx.descendants_at_distance(G, source, distance), (source, distance)
            assert type(ours) is set
    assert len(converted) == 18 and all(W.pending is G for W in converted)  # none read
    G.__networkx_cache__.clear()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        far = nx.descendants_at_distance(G, "n0", 12, backend=BACKEND)  # not local: converts
    assert far == nx.descendants_at_distance(G, "n0", 12)
    with pytest.raises(nx.NetworkXError, match="not in the graph"):
        nx.descendants_at_distance(G, "absent", 2, backend=BACKEND)


def test_identity_node_list_without_the_source_graph():
    """Labels 0..n-1 are listed on first use: from G's own objects while G is alive, as new
    ints once it is gone or no longer has those labels."""
    import gc

    G = nx.path_graph(300)
    W = backend_interface.convert_from_nx(G)
    H = nx.path_graph(300)
    V = backend_interface.convert_from_nx(H)
    del G
    gc.collect()
    assert W.source is None and W.nodes == list(range(300))
    H.remove_node(299)
    H.add_node("x")  # same count, other labels: not taken from H
    assert V.nodes == list(range(300))


@pytest.mark.parametrize("size", [4096, 8192, 8193, 20000])
@pytest.mark.parametrize("keys", ["int", "str"])
@pytest.mark.parametrize("deleted", [False, True])
def test_dict_entries_read_in_place_equal_python(size, keys, deleted):
    """Whole chunks, a partial last one; general and str-keyed tables; with deleted entries the
    live ones are counted per chunk first, without them the chunks are cut by position."""
    import numpy as np

    from warpgraph.nx import _cpython as raw

    if not raw.available():
        pytest.skip("the raw dict reader is not available on this Python")
    label = str if keys == "str" else int
    total = size + (size // 4 if deleted else 0)  # still >= 4096 entries after deletions
    d = {label(i): [i] for i in range(total)}
    if deleted:
        for i in range(0, total, 8):
            del d[label(i)]
    found = raw._dict_entries(d)
    assert found is not None
    hashes, values = found
    assert hashes.tolist() == [hash(k) for k in d]
    assert values.tolist() == [id(v) for v in d.values()]
    assert raw._dict_entries({i: 0 for i in range(100)}) is None  # small: not read so
    assert np.array_equal(raw._dict_entries(dict(d))[0], hashes)  # compacted copy, same order
