"""``descendants`` and ``ancestors`` through the warpgraph backend (:mod:`.nx.reachability`).

The oracle is NetworkX's own function (``bfs_edges`` in Python) on the same graph. Every path
is forced in turn: the search on the unconverted dicts (:func:`reach_within`), the component
of an undirected graph, and on a directed graph the parallel BFS and the sequential one (the
GPU's hybrid on the GPU backend), on a first call and on a cached conversion.
"""

from __future__ import annotations

import random

import pytest

nx = pytest.importorskip("networkx")

from warpgraph.nx import _dict_reach, _short_reach, reachability, traversal  # noqa: E402
from warpgraph.nx.reachability import reach_within  # noqa: E402

BACKEND = "warpgraph"
if BACKEND not in nx.utils.backends.backends:
    pytest.skip("warpgraph is not registered as a NetworkX backend", allow_module_level=True)

FUNCTIONS = (nx.descendants, nx.ancestors)


@pytest.fixture
def on_device(device):
    cfg = nx.config.backends.warpgraph
    saved = cfg.device
    cfg.device = device
    yield device
    cfg.device = saved


def _graph(seed: int, directed: bool, labels: str) -> nx.Graph:
    """A random graph of 4,200 nodes (enough for the search in place) with self-loops,
    2-cycles, isolated nodes and a small separate part (a path of 20), relabelled by
    ``labels``."""
    rng = random.Random(seed)
    n = 4200
    G = nx.gnm_random_graph(n, 4 * n, seed=seed, directed=directed)
    G.add_edges_from((v, v) for v in rng.sample(range(n), 30))
    G.add_edges_from((v, u) for u, v in list(G.edges())[:200])
    G.add_nodes_from(range(n, n + 15))  # isolated
    nx.add_path(G, range(n + 15, n + 35))
    if labels == "str":
        G = nx.relabel_nodes(G, {v: f"v{v}" for v in G})
    elif labels == "mixed":
        G = nx.relabel_nodes(G, {v: (v % 5, str(v)) if v % 3 else -v for v in G})
    return G


def _sources(G: nx.Graph, seed: int) -> list:
    nodes = list(G)
    return [*random.Random(seed).sample(nodes[:4200], 4), *nodes[4200:4203], nodes[4220]]


def _cached(G) -> list:
    return list(G.__networkx_cache__.get("backends", {}).get(BACKEND, {}).values())


@pytest.mark.parametrize("directed", [True, False])
@pytest.mark.parametrize("labels", ["int", "str", "mixed"])
@pytest.mark.parametrize("path", ["local", "in_place", "parallel", "sequential"])
def test_equals_networkx(on_device, monkeypatch, directed, labels, path):
    """Equal sets to NetworkX's for sources in the large part, in the small one and isolated,
    on a first call and on the cached conversion."""
    limit = reachability.LOCAL_REACH_NODES if path == "local" else 0
    monkeypatch.setattr(reachability, "LOCAL_REACH_NODES", limit)
    if path != "in_place":  # (in place, the graph stays unconverted: checked below)
        monkeypatch.setattr(reachability, "_in_place", lambda rows_of, source: None)
    monkeypatch.setattr(reachability, "SHALLOW_DEGREE", 0 if path == "parallel" else 10**6)
    monkeypatch.setattr(traversal, "GPU_MIN_ARCS", 0)  # (the GPU's hybrid on small graphs)
    G = _graph(7, directed, labels)
    for source in _sources(G, 7):
        for f in FUNCTIONS:
            want = f(G, source)
            G.__networkx_cache__.clear()
            first = f(G, source, backend=BACKEND)
            assert first == want, (f.__name__, source)
            assert list(first) == list(want), (f.__name__, source)  # (iterating alike)
            again = f(G, source, backend=BACKEND)
            assert again == want and list(again) == list(want), (f.__name__, source, "cached")
            assert source not in want
            if path == "in_place" and directed and labels == "int":
                # never converted (other labels' sets, whose order matters, are searched
                # again in NetworkX's order on the conversion: nx/_component_order.py)
                assert [W.pending is G for W in _cached(G)] == [True]


def test_source_on_a_cycle_is_left_out():
    D = nx.DiGraph([(0, 1), (1, 2), (2, 0), (2, 3), (4, 0)])
    D.add_nodes_from(range(5, 300))
    nx.add_cycle(D, range(5, 300))  # (so the conversion path runs when the limit is 0)
    for limit in (reachability.LOCAL_REACH_NODES, 0):
        reachability.LOCAL_REACH_NODES, saved = limit, reachability.LOCAL_REACH_NODES
        try:
            D.__networkx_cache__.clear()
            assert nx.descendants(D, 0, backend=BACKEND) == {1, 2, 3}
            assert nx.ancestors(D, 0, backend=BACKEND) == {1, 2, 4}
            assert nx.ancestors(D, 4, backend=BACKEND) == set()
            assert nx.descendants(D, 5, backend=BACKEND) == set(range(6, 300))
        finally:
            reachability.LOCAL_REACH_NODES = saved


@pytest.mark.parametrize("directed", [True, False])
def test_missing_node_raises_networkx_error(directed):
    G = _graph(3, directed, "str")
    for f in FUNCTIONS:
        G.__networkx_cache__.clear()
        for _ in range(2):  # unconverted, then converted
            with pytest.raises(nx.NetworkXError) as ours:
                f(G, "absent", backend=BACKEND)
            with pytest.raises(nx.NetworkXError) as theirs:
                f(G, "absent")
            assert str(ours.value) == str(theirs.value)
            nx.descendants(G, "v1", backend=BACKEND)  # converts (a large reach)


def test_unhashable_source_raises_type_error():
    G = _graph(3, True, "int")
    with pytest.raises(TypeError):
        nx.descendants(G, [1], backend=BACKEND)


def test_reach_within_limit():
    P = nx.path_graph(50, create_using=nx.DiGraph)
    assert reach_within(P._succ, 10, 39) == set(range(11, 50))
    assert reach_within(P._succ, 10, 38) is None
    assert reach_within(P._pred, 10, 10) == set(range(10))
    assert reach_within(P._pred, 10, 9) is None
    assert reach_within(P._succ, 49, 0) == set()
    star = nx.star_graph(100)  # one row past the limit gives up before the next layer
    assert reach_within(star._adj, 0, 50) is None
    assert reach_within(star._adj, 1, 100) == set(range(101)) - {1}


def _python_reach_within(monkeypatch, rows, source, limit):
    """:func:`reach_within` with the compiled search switched off (the Python search)."""
    with monkeypatch.context() as m:
        m.setattr(_short_reach, "reach", lambda *args: _short_reach.UNREADABLE)
        return reach_within(rows, source, limit)


def test_short_reach_equals_the_python_search(monkeypatch):
    """The compiled short search gives NetworkX's set, iterating in its order, or None past
    the limit (as the Python search does), on int, str and big-int labels, directed both ways
    and undirected, with deleted row entries, self-loops and cycles; at limits around each
    set's size."""
    D = nx.gnm_random_graph(300, 420, seed=3, directed=True)
    D.add_edges_from([(5, 5), (6, 7), (7, 6)])
    D.remove_edges_from(list(D.edges())[::5])  # (rows with deleted entries)
    graphs = [D, D.to_undirected(), nx.relabel_nodes(D, {v: f"s{v}" for v in D}),
              nx.relabel_nodes(D, {v: 2**70 + v for v in D})]  # fmt: skip
    if _short_reach.reach(D._succ, 0, 10) is _short_reach.UNREADABLE:
        pytest.skip("the C API search is not available on this interpreter")
    for G in graphs:
        adjs = [(G._adj, nx.descendants)]
        if G.is_directed():
            adjs = [(G._succ, nx.descendants), (G._pred, nx.ancestors)]
        for rows, oracle in adjs:
            for source in list(G)[:40]:
                full = _python_reach_within(monkeypatch, rows, source, 10**6)
                want = oracle(G, source)
                assert full == want
                for limit in {0, 1, len(full) - 1, len(full), len(full) + 1, 10**6} - {-1}:
                    ours = _short_reach.reach(rows, source, limit)
                    assert ours == (full if len(full) <= limit else None), (source, limit)
                    if ours is not None:  # (iterating as NetworkX's: built in its order)
                        assert list(ours) == list(want), (source, limit)
                    # (the Python search may give up a little early: it counts the source
                    # when a self-loop or cycle meets it)
                    assert _python_reach_within(monkeypatch, rows, source, limit) in (ours, None)


def test_short_reach_leaves_what_it_cannot_read_to_python(monkeypatch):
    """Labels other than exact ints and strs (a tuple met part-way, a bool source), a row that
    is a dict subclass, a source that is no node, a negative limit and an interpreter without
    the C API: the compiled search declines, and :func:`reach_within` still answers."""
    unreadable = _short_reach.UNREADABLE
    D = nx.DiGraph([(0, 1), (1, 2), (2, (3, 3)), ((3, 3), 4)])
    assert _short_reach.reach(D._succ, 0, 10) is unreadable
    assert reach_within(D._succ, 0, 10) == {1, 2, (3, 3), 4}
    assert _short_reach.reach(D._succ, (3, 3), 10) is unreadable
    B = nx.DiGraph([(True, 2), (2, 3)])
    assert _short_reach.reach(B._succ, True, 10) is unreadable
    assert reach_within(B._succ, True, 10) == {2, 3}
    R = nx.DiGraph([(0, 1), (1, 2), (2, 3)])
    R._succ[2] = type("Row", (dict,), {})(R._succ[2])
    assert _short_reach.reach(R._succ, 0, 10) is unreadable
    assert reach_within(R._succ, 0, 10) == {1, 2, 3}
    assert _short_reach.reach(R._succ, 9, 10) is unreadable  # (no such node)
    assert _short_reach.reach(R._succ, 0, -1) is unreadable
    with pytest.raises(TypeError):
        _short_reach.reach(R._succ, 0, 2.5)
    monkeypatch.setattr(_short_reach, "api", lambda: None)
    assert _short_reach.reach(nx.path_graph(5)._adj, 0, 10) is unreadable
    assert reach_within(nx.path_graph(5)._adj, 0, 10) == {1, 2, 3, 4}


def test_short_layer_equals_networkx():
    """:func:`_short_reach.layer` gives NetworkX's ``descendants_at_distance`` set, iterating
    in its order, or None once more nodes than the limit lie within that distance, on int, str
    and big-int labels, directed and undirected, with deleted row entries, self-loops and
    cycles."""
    D = nx.gnm_random_graph(300, 420, seed=4, directed=True)
    D.add_edges_from([(5, 5), (6, 7), (7, 6)])
    D.remove_edges_from(list(D.edges())[::5])
    graphs = [D, D.to_undirected(), nx.relabel_nodes(D, {v: f"s{v}" for v in D}),
              nx.relabel_nodes(D, {v: 2**70 + v for v in D})]  # fmt: skip
    if _short_reach.layer(D._succ, 0, 1, 10) is _short_reach.UNREADABLE:
        pytest.skip("the C API search is not available on this interpreter")
    for G in graphs:
        for source in list(G)[:25]:
            within = 0  # nodes within the distance, the source left out
            for depth in range(7):
                want = nx.descendants_at_distance(G, source, depth)
                within += len(want) if depth else 0
                for limit in {within - 1, within, 10**6} - {-1}:
                    ours = _short_reach.layer(G._adj, source, depth, limit)
                    assert ours == (want if within <= limit else None), (source, depth, limit)
                    if ours is not None:  # (iterating as NetworkX's: set(layer) in its order)
                        assert list(ours) == list(want), (source, depth, limit)
    assert _short_reach.layer(D._succ, 0, -1, 10) is _short_reach.UNREADABLE
    assert _short_reach.layer(nx.DiGraph([(0, (1, 1))])._succ, 0, 1, 10) is _short_reach.UNREADABLE
    with pytest.raises(TypeError):
        _short_reach.layer(D._succ, 0, 1.5, 10)


@pytest.mark.parametrize("nodes", [60, 3000, 40000])
def test_block_fetch_finds_the_rows(nodes):
    """The rows the block fetch locates (from the outer dict's index of 1, 2 or 4 bytes a
    slot, by table size) are the nodes' own rows: a wrong index width or entry offset would
    fetch nothing useful (or read elsewhere) while every answer stayed right."""
    import ctypes

    import numpy as np

    from warpgraph.nx import _capi

    if _capi.api() is None:
        pytest.skip("the dict tables cannot be read in place on this interpreter")
    G = nx.path_graph(nodes)
    G = nx.relabel_nodes(G, {v: (v * 7919) % nodes for v in G})  # (not in insertion order)
    labels = [*list(G)[:16], *list(G)[-16:]]  # (entries early and late in the table)
    queue = np.array([(id(v), hash(v)) for v in labels], dtype=np.int64)
    rows_at = np.zeros(_short_reach._BLOCK, dtype=np.int64)
    _short_reach._prefetch_block(id(G._adj), queue, 0, len(labels), rows_at, id(dict))
    found = [int(a) == id(G._adj[v]) for a, v in zip(rows_at, labels, strict=True)]
    assert sum(found) >= len(found) - 2  # (a node whose first probe collided: not fetched)
    assert all(a in (0, id(G._adj[v])) for a, v in zip(rows_at, labels, strict=True))
    width = {60: 0, 3000: 1, 40000: 2}[nodes]
    keys = ctypes.c_int64.from_address(id(G._adj) + 32).value  # (dk_log2_size 8, index bytes 9)
    log2 = [ctypes.c_uint8.from_address(keys + k).value for k in (8, 9)]
    assert log2[1] - log2[0] == width


def test_index_at_reads_signed_indices():
    import numpy as np

    for width, dtype in enumerate((np.int8, np.int16, np.int32, np.int64)):
        values = np.array([0, 5, -1, -2, np.iinfo(dtype).max, 77], dtype=dtype)
        got = [_short_reach._index_at(values.ctypes.data + i * values.itemsize, width)
               for i in range(values.size)]  # fmt: skip
        assert got == values.tolist()


def test_descendants_at_distance_searches_the_dicts(monkeypatch):
    """On a graph not converted, a short distance is answered from the dicts (compiled for
    int labels, by set algebra for tuples) with the graph left unconverted; a search past
    1/16 of the nodes gives up and the graph is converted."""
    G = nx.grid_2d_graph(60, 60)
    for H in (nx.convert_node_labels_to_integers(G), G):
        source = next(iter(H))
        for d in (0, 1, 2, 3):  # (a search estimated to reach under 1/16 of the nodes)
            assert nx.descendants_at_distance(H, source, d, backend=BACKEND) == (
                nx.descendants_at_distance(H, source, d)
            )
        assert [W.pending is H for W in _cached(H)] == [True]
    H = nx.convert_node_labels_to_integers(G)
    monkeypatch.setattr(traversal, "local_search", lambda G, d: True)  # (the estimate passed)
    assert nx.descendants_at_distance(H, 0, 50, backend=BACKEND) == (
        nx.descendants_at_distance(H, 0, 50)
    )
    assert [W.pending for W in _cached(H)] == [None]


def test_short_searches_are_not_redone_in_python(monkeypatch):
    """Int and str labels whose sets' order matters (scattered ints, strs): the compiled short
    search's sets are built in NetworkX's order, so NetworkX's Python steps are not run again
    for ``descendants_at_distance``, ``descendants`` or ``ancestors``; the answers iterate as
    NetworkX's."""
    if _short_reach.reach(nx.path_graph(3)._adj, 0, 10) is _short_reach.UNREADABLE:
        pytest.skip("the C API search is not available on this interpreter")
    G = nx.gnm_random_graph(3000, 9000, seed=5)
    D = nx.gnm_random_graph(3000, 4500, seed=6, directed=True)
    spread = {v: 7919 * v + 10**6 for v in G}  # (ints far outside any home slot)
    named = {v: f"n{v}" for v in G}

    def refused(*args, **kwargs):
        raise AssertionError("NetworkX's steps were run again")

    monkeypatch.setattr(traversal, "python_layer", refused)
    monkeypatch.setattr(reachability, "python_search", refused)
    for mapping in (spread, named):
        H, E = nx.relabel_nodes(G, mapping), nx.relabel_nodes(D, mapping)
        for v in list(G)[:10]:
            s = mapping[v]
            for d in (1, 2):
                want = nx.descendants_at_distance(H, s, d)
                assert list(nx.descendants_at_distance(H, s, d, backend=BACKEND)) == list(want)
            for f in (nx.descendants, nx.ancestors):
                want = f(E, s)
                if len(want) <= reachability.LOCAL_REACH_NODES:  # (the short search's)
                    assert list(f(E, s, backend=BACKEND)) == list(want), (f, s)


def test_small_reach_is_not_converted(monkeypatch):
    """A source that reaches few nodes is answered from the dicts, a large reach of a
    ``DiGraph`` by the search in place: the cached conversion is still the deferred one, the
    graph unread. A search in place given up (deep) converts it."""
    D = nx.gn_graph(5000, seed=2)  # a tree directed to the root: short descendant chains
    leaf = next(v for v in D if D.in_degree(v) == 0)
    assert nx.descendants(D, leaf, backend=BACKEND) == nx.descendants(D, leaf)
    assert nx.ancestors(D, 0, backend=BACKEND) == nx.ancestors(D, 0)  # every node
    assert [W.pending is D for W in _cached(D)] == [True]
    monkeypatch.setattr(_dict_reach, "ROW_LIMIT", 0)
    assert nx.ancestors(D, 0, backend=BACKEND) == nx.ancestors(D, 0)
    assert [W.pending for W in _cached(D)] == [None]


def test_dispatched_and_documented():
    from warpgraph.nx import FUNCTIONS as NAMES
    from warpgraph.nx.interface import DEFERRED, backend_interface

    for name in ("descendants", "ancestors"):
        assert name in NAMES and name in DEFERRED
        assert backend_interface.can_run(name, (nx.DiGraph([(0, 1)]), 0), {}) is True
        refused = backend_interface.can_run(name, (nx.MultiDiGraph([(0, 1)]), 0), {})
        assert isinstance(refused, str) and "multigraph" in refused


def _digraph(n: int, labels: str, seed: int = 5) -> nx.DiGraph:
    D = nx.gnm_random_graph(n, 3 * n, seed=seed, directed=True)
    D.add_edges_from([(0, 0), (1, 0), (0, 1)])
    if labels == "str":
        D = nx.relabel_nodes(D, {v: f"n{v}" for v in D})
    return D


@pytest.mark.parametrize("labels", ["int", "str"])
@pytest.mark.parametrize("workers", [1, 3, 8])
def test_reach_flags_equal_networkx(labels, workers):
    """Flags in the dict's order equal to NetworkX's sets, both ways, the source left out; the
    labels ``0..n-1`` read directly, others through the hash table; one worker or several
    (more than the threads here, too)."""
    D = _digraph(6000, labels)
    D.remove_edges_from(list(D.edges())[::7])  # (rows with deleted entries)
    nodes = list(D)
    for source in (nodes[0], nodes[7], nodes[5999]):
        for rows_of, f in ((D._succ, nx.descendants), (D._pred, nx.ancestors)):
            flags = _dict_reach.reach_flags(rows_of, hash(source), workers, 10**9)
            assert flags is not None and flags.dtype == bool
            assert {nodes[i] for i in flags.nonzero()[0]} == f(D, source)


@pytest.mark.parametrize("workers", [1, 2, 7])
def test_reach_flags_shapes(workers):
    """Deep, wide and cyclic shapes, where the workers often find the queue empty while another
    expands a node (a path), or all take from one row (a star), repeated to meet the races."""
    cycles = nx.DiGraph([(i, (i + 1) % 3000) for i in range(3000)])
    cycles.add_edges_from((3000 + i, 3000 + (i * 7 + 1) % 3000) for i in range(3000))
    cycles.add_edges_from([(5, 3000), (4000, 6)])  # (two cycles joined both ways)
    shapes = {
        "path": nx.path_graph(6000, create_using=nx.DiGraph),
        "star": nx.star_graph(5000).to_directed(),
        "tree": nx.balanced_tree(2, 12, create_using=nx.DiGraph),
        "cycles": cycles,
        "grid": nx.DiGraph(
            nx.grid_2d_graph(80, 80).edges()  # (oriented by label order: a DAG)
        ),
    }
    for name, D in shapes.items():
        nodes = list(D)
        for source in (nodes[0], nodes[len(nodes) // 2], nodes[-1]):
            for rows_of, f in ((D._succ, nx.descendants), (D._pred, nx.ancestors)):
                want = f(D, source)
                for _ in range(3):
                    flags = _dict_reach.reach_flags(rows_of, hash(source), workers, 10**9)
                    assert flags is not None, name
                    assert {nodes[i] for i in flags.nonzero()[0]} == want, (name, source)


def test_kept_buffers_are_cleared_after_each_search():
    """The queue kept between searches is all -1 again after a search that ends, one that gives
    up part-way, and a search of another graph, and the flags of nodes seen all 0 (kept only
    after a search that ends); each result is NetworkX's (a slot left written would be read as
    a queued node by the next search, a flag left set as a node found already)."""
    D = _digraph(6000, "int")
    P = nx.path_graph(5000, create_using=nx.DiGraph)
    runs = [
        (D._succ, 0, None, nx.descendants(D, 0)),
        (P._succ, 3000, 1000, None),  # (gives up after 1,000 rows a worker)
        (P._succ, 4000, None, set(range(4001, 5000))),
        (D._pred, 7, None, nx.ancestors(D, 7)),
    ]
    for rows_of, source, limit, want in runs:
        flags = _dict_reach.reach_flags(rows_of, hash(source), 3, limit)
        assert (flags is None) == (want is None)
        if want is not None:
            assert set(flags.nonzero()[0].tolist()) == want
        kept = _dict_reach._KEPT
        assert kept["queue"].size >= len(rows_of) and (kept["queue"] == -1).all()
        assert ("seen" in kept) == (want is not None)
        if want is not None:
            assert kept["seen"].size >= len(rows_of) and not kept["seen"].any()
            assert kept["log"].size >= len(rows_of)


def test_reach_flags_refuses_what_it_cannot_read():
    D = _digraph(6000, "int")
    assert _dict_reach.reach_flags(_digraph(100, "int")._succ, hash(0)) is None  # small
    assert _dict_reach.reach_flags(D._succ, hash(0), row_limit=10) is None  # deep
    odd = _digraph(6000, "int")
    odd._succ[3] = type("Row", (dict,), {})(odd._succ[3])  # not a plain dict
    reached = nx.descendants(odd, 0)
    assert 3 in reached and _dict_reach.reach_flags(odd._succ, hash(0)) is None
    assert nx.descendants(odd, 0, backend=BACKEND) == reached  # (converted instead)
    P = nx.path_graph(5000, create_using=nx.DiGraph)
    flags = _dict_reach.reach_flags(P._succ, hash(4000), 1, 1000)
    assert flags is not None and flags.nonzero()[0].tolist() == list(range(4001, 5000))
    assert _dict_reach.reach_flags(P._succ, hash(3000), 1, 1000) is None  # 1,999 rows


def test_views_reversed_graphs_and_subclasses():
    """Graphs whose dicts are not read in place (subgraph views, reversed views, subclasses)
    give NetworkX's sets too."""

    class Sub(nx.DiGraph):
        pass

    D = nx.gnm_random_graph(8000, 30000, seed=4, directed=True)
    U = nx.gnm_random_graph(8000, 30000, seed=4)
    graphs = (D.subgraph(range(6000)), D.reverse(copy=False), Sub(D), U.subgraph(range(7000)))
    for G in graphs:
        for f in FUNCTIONS:
            assert f(G, 3, backend=BACKEND) == f(G, 3), (type(G).__name__, f.__name__)


def test_reach_flags_refuses_bad_arguments():
    D = _digraph(6000, "int")
    with pytest.raises(TypeError):
        _dict_reach.reach_flags(D._succ, "0")
    with pytest.raises(TypeError):
        _dict_reach.reach_flags(D._succ, 0, workers=2.5)
    with pytest.raises(ValueError, match="workers must be at least 1, got 0"):
        _dict_reach.reach_flags(D._succ, 0, workers=0)
    with pytest.raises(ValueError, match="row_limit must not be negative, got -1"):
        _dict_reach.reach_flags(D._succ, 0, row_limit=-1)
    assert _dict_reach.reach_flags(D._succ, 10**6) is None  # no node's hash
    from warpgraph.nx import _cpython

    other = _cpython.row_tables(_digraph(7000, "int")._succ)
    if other is not None:
        with pytest.raises(ValueError, match="tables hold 7000 rows, rows_of has 6000"):
            _dict_reach.reach_flags(D._succ, 0, tables=other)
    S = nx.relabel_nodes(D, {v: f"n{v}" for v in D})
    assert _dict_reach.reach_flags(S._succ, hash("absent")) is None


def test_row_tables_reads_plain_outer_dicts_only():
    from warpgraph.nx import _cpython

    D = _digraph(6000, "str")
    found = _cpython.row_tables(D._succ)
    if not _cpython.available():
        assert found is None
        return
    assert found is not None and not found.direct and found.rows.size == 6000
    assert found.hashes.tolist() == [hash(v) for v in D._succ]
    assert found.rows.tolist() == [id(r) for r in D._succ.values()]
    assert _cpython.row_tables(_digraph(6000, "int")._succ).direct
    assert _cpython.row_tables(D._succ, min_rows=10**4) is None  # too few rows
    assert _cpython.row_tables(type("Sub", (dict,), {})(D._succ)) is None  # not a plain dict
    clash = {-1: {}, -2: {}} | {f"k{i}": {} for i in range(5000)}  # hash(-1) == hash(-2)
    assert _cpython.row_tables(clash) is None


def _labels_in_order_but(n: int, swap: int | None) -> nx.DiGraph:
    """A random digraph of the labels ``0..n-1`` added in order, but for ``swap`` and
    ``swap + 1`` (middle entries: first, middle and last still hold their own hashes)."""
    order = list(range(n))
    if swap is not None:
        order[swap], order[swap + 1] = order[swap + 1], order[swap]
    D = nx.DiGraph()
    D.add_nodes_from(order)
    D.add_edges_from(_digraph(n, "int").edges())
    return D


def test_row_tables_reads_labels_in_order_by_position():
    """The labels ``0..n-1`` in order are read by position (no hashes kept), any other
    order or a deleted entry through the general read: positions stay the dict's."""
    from warpgraph.nx import _cpython

    if not _cpython.available():
        pytest.skip("the raw reader is not available here")
    D = _labels_in_order_but(6000, None)
    found = _cpython.row_tables(D._pred)
    assert found.direct and found.hashes is None
    assert found.rows.tolist() == [id(r) for r in D._pred.values()]
    swapped = _labels_in_order_but(6000, 3001)  # (the three entries looked at first agree)
    assert _cpython._position_table(id(swapped._pred), id(dict))[1] == 6000
    found = _cpython.row_tables(swapped._pred)
    assert not found.direct and found.hashes.tolist() == list(swapped._pred)
    assert found.rows.tolist() == [id(r) for r in swapped._pred.values()]
    for source in (0, 3001, 3002, 5999):  # the swapped nodes' positions are not their labels
        flags = _dict_reach.reach_flags(swapped._pred, source, 3)
        assert {v for v, f in zip(swapped._pred, flags, strict=True) if f} == nx.ancestors(
            swapped, source
        )
    gap = _labels_in_order_but(6000, None)
    row = gap._pred.pop(4000)  # a deleted entry, the node added again at the end
    gap._pred[4000] = row
    assert _cpython._position_table(id(gap._pred), id(dict)) == (0, 0)
    assert _cpython._rows_by_position(gap._pred) is None
    assert not _cpython.row_tables(gap._pred).direct
    for other in (_digraph(6000, "str")._pred, {i + 1: {} for i in range(6000)}):
        assert _cpython._rows_by_position(other) is None  # (str labels; 1..n)
    assert _cpython._rows_by_position(type("Sub", (dict,), {})(D._pred)) is None


@pytest.mark.parametrize("labels", ["int", "str"])
def test_reach_gives_positions_flags_and_sets_alike(labels):
    """Positions, flags and the set describe the same nodes: a reach of most nodes (the set
    made from flags) and one of a few (from positions), both equal to NetworkX's."""
    D = _digraph(6000, labels)
    P = nx.path_graph(6000, create_using=nx.DiGraph)
    if labels == "str":
        P = nx.relabel_nodes(P, {v: f"n{v}" for v in P})
    for G, source in ((D, next(iter(D))), (P, list(P)[5990])):
        nodes = list(G)
        at = _dict_reach.reach(G._succ, hash(source), 3)
        if at is None:
            continue
        flags = _dict_reach.reach(G._succ, hash(source), 3, want="flags")
        assert sorted(at.tolist()) == flags.nonzero()[0].tolist()
        want = nx.descendants(G, source)
        assert {nodes[i] for i in at} == want
        built = _dict_reach.reach(G._succ, hash(source), 3, want="set")
        assert built is None or built == want
    with pytest.raises(ValueError, match="want must be one of"):
        _dict_reach.reach(D._succ, hash(next(iter(D))), want="list")
