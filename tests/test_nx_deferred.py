"""Deferred conversion (:meth:`warpgraph.nx.interface.WarpgraphGraph.deferred`): for
``is_strongly_connected``, ``is_connected`` and ``is_weakly_connected`` the NetworkX graph is
read on first use, and a graph with a node without successors or predecessors (a node without
any arc) is answered from the row lengths alone (the weak checks: where the dicts cannot be
counted in place, ``tests/test_nx_dict_components.py``). Every answer is
compared with NetworkX's; a deferred conversion must behave as the eager one once used."""

from __future__ import annotations

import numpy as np
import pytest

nx = pytest.importorskip("networkx")

from warpgraph.nx import components  # noqa: E402
from warpgraph.nx.interface import WarpgraphGraph, backend_interface  # noqa: E402

BACKEND = "warpgraph"
if BACKEND not in nx.utils.backends.backends:
    pytest.skip("warpgraph is not registered as a NetworkX backend", allow_module_level=True)


def _cached(G) -> WarpgraphGraph:
    (W,) = G.__networkx_cache__["backends"][BACKEND].values()
    return W


def _big_cycle(n: int = 5000):
    return nx.DiGraph(zip(range(n), [*range(1, n), 0], strict=True))


def _graphs():
    sink = _big_cycle()
    sink.add_edge(17, "sink")  # no successor
    source = _big_cycle()
    source.add_edge("source", 17)  # no predecessor
    one_way = nx.DiGraph(nx.path_graph(5000))
    one_way.remove_edge(40, 39)  # every node keeps an arc each way but 39 -> 40 is one way
    small = nx.gnm_random_graph(300, 900, seed=1, directed=True)
    return {
        "sink": sink,
        "source": source,
        "cycle": _big_cycle(),
        "one way": one_way,
        "random": nx.gnm_random_graph(6000, 30000, seed=2, directed=True),
        "small": small,
        "small cycle": _big_cycle(300),
    }


@pytest.mark.parametrize("side", ["succ", "pred"])
@pytest.mark.parametrize("where", [5, 16383, 16384, 39000])
def test_empty_row_in_the_head_or_the_parallel_rest_of_either_dict(side, where):
    """A 40,000-node cycle whose one sink (``succ``) or source (``pred``) is node ``where``:
    in the heads read one by one, or in the parallel rest of the first or the second dict."""
    G = _big_cycle(40000)
    G.add_edge(where - 1, where + 1)  # a chord around ``where``: its loss leaves no other gap
    G.remove_edge(*((where, where + 1) if side == "succ" else (where - 1, where)))
    rows = G._succ if side == "succ" else G._pred
    assert [v for v, r in rows.items() if not r] == [where]  # the only empty row of either
    assert all(r for r in (G._pred if side == "succ" else G._succ).values())
    assert components._empty_row(G) is True
    assert nx.is_strongly_connected(G, backend=BACKEND) is False
    assert components._empty_row(_big_cycle(40000)) is False


@pytest.mark.parametrize("name", list(_graphs()))
def test_equal_to_networkx(name):
    G = _graphs()[name]
    assert nx.is_strongly_connected(G, backend=BACKEND) == nx.is_strongly_connected(G)


def test_answered_without_conversion(monkeypatch):
    """A node without a successor (or predecessor): False from the row lengths, and the graph
    is never converted; later functions on the same graph convert it then, equal to
    NetworkX's results."""
    calls = []
    real = components._empty_row
    monkeypatch.setattr(components, "_empty_row", lambda D: calls.append(1) or real(D))
    graphs = _graphs()
    for name in ("sink", "source", "random"):
        G = graphs[name]
        assert nx.is_strongly_connected(G, backend=BACKEND) is False
        W = _cached(G)
        assert W.pending is G, name  # not converted
        assert nx.number_strongly_connected_components(
            G, backend=BACKEND
        ) == nx.number_strongly_connected_components(G)
        assert W.pending is None and len(W) == len(G)
        assert list(nx.weakly_connected_components(G, backend=BACKEND)) == list(
            nx.weakly_connected_components(G)
        )
    assert len(calls) == 3
    G = graphs["cycle"]  # passes the check: converted, then searched both ways
    assert nx.is_strongly_connected(G, backend=BACKEND) is True
    assert _cached(G).pending is None


def test_deferred_is_the_eager_conversion_once_used():
    G = nx.gnm_random_graph(5000, 20000, seed=3, directed=True)
    nx.relabel_nodes(G, {v: f"v{v}" for v in G}, copy=False)
    eager = backend_interface.convert_from_nx(G)
    W = backend_interface.convert_from_nx(G, name="is_strongly_connected")
    assert W.pending is G and len(W) == len(G) and W.is_directed()
    assert W.source is G
    assert W.pending is G  # len, is_directed and source read G itself
    assert W.nodes == eager.nodes and W.pending is None
    assert np.array_equal(W.graph.indptr, eager.graph.indptr)
    assert np.array_equal(W.graph.indices, eager.graph.indices)
    assert np.array_equal(W.nx_order, eager.nx_order)
    assert W.find("v7") == eager.find("v7") == list(G).index("v7")
    with pytest.raises(AttributeError):
        _ = W.no_such_attribute
    with pytest.raises(AttributeError):
        _ = WarpgraphGraph.deferred(G).__no_such_dunder__


def test_only_is_strongly_connected_and_unweighted_is_deferred():
    G = nx.gnm_random_graph(100, 300, seed=4, directed=True)
    assert (
        backend_interface.convert_from_nx(G, name="number_strongly_connected_components").pending
        is None
    )
    assert (
        backend_interface.convert_from_nx(
            G, edge_attrs="weight", name="is_strongly_connected"
        ).pending
        is None
    )


def test_null_and_single_node_graphs():
    with pytest.raises(nx.NetworkXPointlessConcept):
        nx.is_strongly_connected(nx.DiGraph(), backend=BACKEND)
    G = nx.DiGraph()
    G.add_node("a")
    assert nx.is_strongly_connected(G, backend=BACKEND) is True


def test_a_subclass_is_checked_the_full_way(monkeypatch):
    class MyDiGraph(nx.DiGraph):
        pass

    G = MyDiGraph(_big_cycle())
    G.add_edge(3, "sink")
    assert components._empty_row(G) is None  # not read in place ...
    assert nx.is_strongly_connected(G, backend=BACKEND) is False  # ... still answered


def test_rows_read_in_place_spare_the_conversion_its_degree_check(monkeypatch):
    """A plain DiGraph whose rows were all read in place (none empty) skips the same check on
    the conversion; one that cannot be read so (a subclass) still has it."""
    calls = []
    real = np.bincount
    monkeypatch.setattr(np, "bincount", lambda *a, **k: calls.append(1) or real(*a, **k))
    assert nx.is_strongly_connected(_big_cycle(40000), backend=BACKEND) is True
    assert not calls

    class MyDiGraph(nx.DiGraph):
        pass

    assert nx.is_strongly_connected(MyDiGraph(_big_cycle(40000)), backend=BACKEND) is True
    assert calls


def _with_isolated(G, where: str):
    G = G.copy()
    G.add_node("alone")
    if where == "first":  # the isolated node first in node order
        H = G.__class__()
        H.add_node("alone")
        H.add_edges_from(G.edges)
        return H
    return G


@pytest.mark.parametrize("directed", [False, True])
@pytest.mark.parametrize("where", ["last", "first", "none"])
@pytest.mark.parametrize("size", [5000, 300])
def test_connected_checks_equal_to_networkx(directed, where, size, monkeypatch):
    """5000 nodes: counted from the dicts read in place, never converted, no separate
    isolated-node check. 300 nodes (too few to be read in place): an isolated node answers
    False without conversion; without one, the full count (and the graph converted). A
    one-way arc is no isolated node for the weak check."""
    from warpgraph.nx import _cpython as raw
    from warpgraph.nx._dict_components import MIN_NODES

    calls = []
    real = components._isolated_node
    monkeypatch.setattr(components, "_isolated_node", lambda G: calls.append(1) or real(G))
    base = nx.path_graph(size, create_using=nx.DiGraph if directed else nx.Graph)
    G = base if where == "none" else _with_isolated(base, where)
    is_connected = nx.is_weakly_connected if directed else nx.is_connected
    assert is_connected(G, backend=BACKEND) == is_connected(G) == (where == "none")
    in_place = raw.available() and size >= MIN_NODES
    assert calls == ([] if in_place else [1])
    assert (_cached(G).pending is G) == (in_place or where != "none")
    if directed:  # every node has an arc, some only one way: weakly connected still
        assert nx.is_weakly_connected(base, backend=BACKEND) is True


@pytest.mark.parametrize("directed", [False, True])
def test_connected_checks_small_and_odd_graphs(directed):
    kind = nx.DiGraph if directed else nx.Graph
    is_connected = nx.is_weakly_connected if directed else nx.is_connected
    for G in (
        kind([(0, 1), (2, 3)]),  # small: not read in place
        _with_isolated(nx.path_graph(300, create_using=kind), "last"),
        nx.gnm_random_graph(8000, 3000, seed=5, directed=directed),  # many isolated nodes
        nx.gnm_random_graph(6000, 60000, seed=6, directed=directed),
    ):
        assert is_connected(G, backend=BACKEND) == is_connected(G)
    G = kind()
    G.add_node(1)
    assert is_connected(G, backend=BACKEND) is True
    with pytest.raises(nx.NetworkXPointlessConcept):
        is_connected(kind(), backend=BACKEND)


@pytest.mark.parametrize("where", [None, 0, 4095, 4096, 9999])
@pytest.mark.parametrize("keys", ["int", "str"])
def test_has_isolated_node_reads_both_tables_in_lockstep(where, keys):
    from warpgraph.nx import _cpython as raw
    from warpgraph.nx import _dict_probes as probes

    if not raw.available():
        pytest.skip("the dict tables cannot be read in place on this Python")
    label = str if keys == "str" else int  # str keys: the tables of the other kind
    D = nx.DiGraph()
    D.add_nodes_from(label(v) for v in range(10000))
    D.add_edges_from((label(v), label((v + 1) % 10000)) for v in range(0, 10000, 2))  # sinks
    D.add_edges_from((label(v), label(v)) for v in range(1, 10000, 2))  # self-loops only
    if where is not None:
        D.remove_edges_from(list(D.in_edges(label(where))) + list(D.out_edges(label(where))))
    assert probes.has_isolated_node(D._succ, D._pred) == (where is not None)
    assert nx.is_weakly_connected(D, backend=BACKEND) == nx.is_weakly_connected(D)


def test_has_isolated_node_with_deletions_and_disagreeing_tables():
    from warpgraph.nx import _cpython as raw
    from warpgraph.nx import _dict_probes as probes

    if not raw.available():
        pytest.skip("the dict tables cannot be read in place on this Python")
    D = nx.DiGraph(nx.path_graph(9000, create_using=nx.DiGraph))
    D.remove_nodes_from(range(100, 9000, 7))  # deleted entries, in both tables alike
    assert probes.has_isolated_node(D._succ, D._pred) is False
    D.remove_edges_from([(5000, 5001), (5001, 5002)])  # (5000 and 5002 are still there)
    assert D.degree(5001) == 0 and probes.has_isolated_node(D._succ, D._pred) is True
    assert nx.is_weakly_connected(D, backend=BACKEND) is False
    D.remove_node(5001)
    assert probes.has_isolated_node(D._succ, D._pred) is False
    D._pred = dict(reversed(D._pred.items()))  # the same rows in another order: unreadable
    assert probes.has_isolated_node(D._succ, D._pred) is None
    E = nx.DiGraph(nx.path_graph(5000, create_using=nx.DiGraph))  # (tables of one length)
    E._pred = dict(reversed(E._pred.items()))
    assert probes.has_isolated_node(E._succ, E._pred) is None
    assert probes.has_isolated_node(E._succ, list(E._pred)) is None  # not dicts: unreadable
    assert nx.is_weakly_connected(E, backend=BACKEND) is True


def test_deferred_refuses_what_is_not_a_graph():
    with pytest.raises(TypeError, match="a NetworkX graph is deferred, not list"):
        WarpgraphGraph.deferred([1, 2])


def test_a_failed_conversion_leaves_it_deferred(monkeypatch):
    """An error while converting on first use (here: injected) leaves the graph deferred, so
    a later use converts it then."""
    G = _big_cycle()
    W = backend_interface.convert_from_nx(G, name="is_strongly_connected")
    real = backend_interface.convert_from_nx

    def failing(*args, **kwargs):
        raise MemoryError("injected")

    monkeypatch.setattr(backend_interface, "convert_from_nx", failing)
    with pytest.raises(MemoryError):
        _ = W.nodes
    assert W.pending is G
    monkeypatch.setattr(backend_interface, "convert_from_nx", real)
    assert W.nodes == list(G) and W.pending is None


def test_subgraph_views_are_checked_the_full_way():
    """A filtered view's rows are not plain dicts: the full check answers."""
    G = _big_cycle()
    G.add_edge(5, "sink")
    for view in (G.subgraph(range(4000)), G.subgraph([*range(5000), "sink"])):
        assert nx.is_strongly_connected(view, backend=BACKEND) == nx.is_strongly_connected(view)
        assert nx.is_weakly_connected(view, backend=BACKEND) == nx.is_weakly_connected(view)


@pytest.mark.parametrize("where", [None, 0, 1024, 16383, 16384, 20000, 39999])
@pytest.mark.parametrize("keys", ["int", "str"])
def test_has_empty_value_finds_an_empty_row_anywhere(where, keys):
    """In the read-one-by-one prefix, at its edge, in the parallel rest, or nowhere; int keys
    (general table) and str keys (unicode table); deleted entries are skipped."""
    from warpgraph.nx import _cpython as raw
    from warpgraph.nx import _dict_probes as probes

    if not raw.available():
        pytest.skip("the raw dict reader is not available on this Python")
    label = str if keys == "str" else int
    rows = {label(v): {label(v + 1): {}} for v in range(40000)}
    for v in range(100, 40000, 997):  # deleted entries (an empty row among them must not count)
        rows[label(v)] = {}
        del rows[label(v)]
    if where is not None:
        rows[label(where)] = {}
    assert probes.has_empty_value(rows) is (where is not None)
    assert probes.has_empty_value(rows) is any(len(r) == 0 for r in rows.values())


def test_has_empty_value_refuses_what_it_cannot_read():
    from warpgraph.nx import _cpython as raw
    from warpgraph.nx import _dict_probes as probes

    if not raw.available():
        pytest.skip("the raw dict reader is not available on this Python")

    class Row(dict):
        pass

    rows = {v: {v + 1: {}} for v in range(10000)}
    rows[9000] = Row()  # an empty row that is not a plain dict: no answer, not "empty"
    assert probes.has_empty_value(rows) is None
    rows[10] = {}  # an empty plain row before it answers
    assert probes.has_empty_value(rows) is True
    assert probes.has_empty_value(Row(rows)) is None
    assert probes.has_empty_value({}) is False
    assert probes.has_empty_value({1: {}}) is True


@pytest.mark.parametrize("where", [0, 4095, 4096, 16383, 16384, 30000])
def test_has_empty_value_reads_only_from_start_to_stop(where):
    """``stop`` ends the read, ``start`` begins it (the deferred check reads the heads of both
    row dicts, then the rest from there without re-reading them), with any one-by-one part."""
    from warpgraph.nx import _cpython as raw
    from warpgraph.nx import _dict_probes as probes

    if not raw.available():
        pytest.skip("the raw dict reader is not available on this Python")
    rows = {v: {v + 1: {}} for v in range(40000)}
    rows[where] = {}
    assert probes.has_empty_value(rows, stop=4096) is (where < 4096)
    assert probes.has_empty_value(rows, stop=30001) is True
    assert probes.has_empty_value(rows, stop=where) is False
    for sequential in (0, 1, 1024, 16384, 10**6):
        assert probes.has_empty_value(rows, start=where, sequential=sequential) is True
        assert probes.has_empty_value(rows, start=where + 1, sequential=sequential) is False
        assert probes.has_empty_value(rows, start=max(where - 5, 0), stop=where + 1,
                                   sequential=sequential) is True  # fmt: skip


@pytest.mark.parametrize("shallow", [0, 10**6])
def test_bfs_levels_by_either_search_equal_scipy(monkeypatch, shallow):
    """``components.bfs_levels`` (the strong check's searches): the parallel BFS (every graph
    past ``SHALLOW_DEGREE`` 0) and the sequential pass (none past 10**6) give SciPy's hop
    distances, forward and on the transpose."""
    from scipy.sparse import csr_matrix
    from scipy.sparse.csgraph import shortest_path

    from warpgraph.nx.interface import backend_interface

    monkeypatch.setattr(components, "SHALLOW_DEGREE", shallow)
    D = nx.gnm_random_graph(3000, 7000, seed=4, directed=True)
    W = backend_interface.convert_from_nx(D)
    A = csr_matrix(nx.to_scipy_sparse_array(D, nodelist=list(D)))
    for rows, key, M in (
        (W.any_order, "any_order", A),
        (components._transpose(W), "reversed", A.T),
    ):
        want = shortest_path(M, unweighted=True, indices=0)
        got = components.bfs_levels(W, rows, key, 0)
        assert np.array_equal(np.where(got < 0, np.inf, got), want)


@pytest.mark.gpu
@pytest.mark.parametrize("shallow", [0, 10**6])
def test_bfs_levels_on_the_gpu(monkeypatch, shallow):
    """Both searches on the GPU backend (the parallel BFS there; the sequential pass with its
    wide layers there: past ``GPU_MIN_ARCS`` arcs), SciPy's distances; and ``is_aperiodic``,
    which reads the forward one, against NetworkX on a strongly connected graph."""
    from scipy.sparse import csr_matrix
    from scipy.sparse.csgraph import shortest_path

    from nx_compare import backend_device
    from warpgraph.nx.interface import backend_interface

    monkeypatch.setattr(components, "SHALLOW_DEGREE", shallow)
    D = nx.DiGraph(nx.gnm_random_graph(60_000, 200_000, seed=5))  # both arcs: 400k arcs
    D.add_edges_from(nx.utils.pairwise(range(60_000), cyclic=True))  # strongly connected
    with backend_device(nx, "gpu"):
        W = backend_interface.convert_from_nx(D)
        A = csr_matrix(nx.to_scipy_sparse_array(D, nodelist=list(D)))
        want = shortest_path(A, unweighted=True, indices=0)
        got = components.bfs_levels(W, W.any_order, "any_order", 0)
        assert np.array_equal(np.where(got < 0, np.inf, got), want)
        assert nx.is_aperiodic(D, backend=BACKEND) == nx.is_aperiodic(D)
