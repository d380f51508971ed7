"""Weak components counted while a NetworkX graph's dicts are read (``nx/_dict_components``):
the union-find over the tables read in place against NetworkX and SciPy, the dispatched
functions that use it on a graph not converted yet, and every case that falls back to the
conversion."""

from __future__ import annotations

import numba
import numpy as np
import pytest

nx = pytest.importorskip("networkx")

from warpgraph.nx import _cpython as raw  # noqa: E402
from warpgraph.nx import _dict_probes  # noqa: E402
from warpgraph.nx._dict_components import MIN_NODES, weak_components  # noqa: E402

BACKEND = "warpgraph"
if BACKEND not in nx.utils.backends.backends:
    pytest.skip("warpgraph is not registered as a NetworkX backend", allow_module_level=True)
needs_reader = pytest.mark.skipif(
    not raw.available(), reason="the dict tables cannot be read in place on this Python"
)


def _cached(G):
    (W,) = G.__networkx_cache__["backends"][BACKEND].values()
    return W


def _expected_labels(G) -> tuple[int, np.ndarray]:
    """NetworkX's components, numbered in the order it yields them, per node position."""
    weak = nx.weakly_connected_components if G.is_directed() else nx.connected_components
    comps = list(weak(G))
    where = {v: i for i, v in enumerate(G)}
    labels = np.empty(len(G), dtype=np.int64)
    for c, members in enumerate(comps):
        labels[[where[v] for v in members]] = c
    return len(comps), labels


def _pieces(n: int, seed: int, directed: bool = False):
    """Random forest-ish graph of ``n`` int nodes with many components, isolated nodes and
    self-loops, nodes inserted in shuffled order (so the labels are not 0..n-1 in order)."""
    rng = np.random.default_rng(seed)
    G = nx.DiGraph() if directed else nx.Graph()
    G.add_nodes_from(rng.permutation(n).tolist())
    m = n  # about one edge per node: many components of many sizes
    s, d = rng.integers(0, n, m), rng.integers(0, n, m)
    keep = np.abs(s - d) < n // 50 + 2  # local edges: components stay apart
    G.add_edges_from(zip(s[keep].tolist(), d[keep].tolist(), strict=True))
    G.add_edges_from((v, v) for v in range(0, n, 97))
    return G


def _relabelled(G, how: str):
    if how == "int":
        return G
    if how == "str":
        return nx.relabel_nodes(G, {v: f"v{v}" for v in G})
    return nx.relabel_nodes(G, {v: (v % 7, str(v)) for v in G})  # tuple labels


@needs_reader
@pytest.mark.parametrize("directed", [False, True])
@pytest.mark.parametrize("labels", ["int", "str", "tuple"])
@pytest.mark.parametrize("ordered", [True, False])
def test_labels_are_networkx_components_in_networkx_order(directed, labels, ordered):
    G = _pieces(20000, seed=len(labels) + directed, directed=directed)
    if ordered:  # nodes 0..n-1 in order: the node hashes are the ids
        H = G.__class__()
        H.add_nodes_from(range(len(G)))
        H.add_edges_from(G.edges)
        G = H
    G = _relabelled(G, labels)
    found = weak_components(G)
    assert found is not None
    count, expected = _expected_labels(G)
    assert found.count == count > 1
    np.testing.assert_array_equal(found.labels, expected)
    assert found.identity == (ordered and labels == "int")
    assert weak_components(G, labels=False).count == count


@needs_reader
def _blobs(seed: int, labels: str):
    """Dense random parts (mean degree ~12: the Afforest passes) in shuffled node order: a
    part of 1,000 nodes (ids 0..999) joined to the largest (5,000 nodes, ids 1,000 and up)
    only by edges added last, so each row's first entries never hold them, and their lower
    end in the smaller part; a separate part of 800, isolated nodes, self-loops, deleted
    entries."""
    rng = np.random.default_rng(seed)
    G = nx.Graph()
    G.add_nodes_from(rng.permutation(7000).tolist())
    for lo, size in ((0, 1000), (1000, 5000), (6000, 800)):
        s, d = rng.integers(lo, lo + size, 6 * size), rng.integers(lo, lo + size, 6 * size)
        G.add_edges_from(zip(s.tolist(), d.tolist(), strict=True))
    G.add_edges_from((v, v) for v in range(0, 7000, 101))
    G.remove_edges_from(list(G.edges(range(6000, 6800)))[::9])
    G.add_edges_from([(17, 4321), (900, 1234)])  # (last in their rows: the bridges)
    return _relabelled(G, labels)


@needs_reader
@pytest.mark.parametrize("labels", ["int", "str"])
def test_afforest_passes_equal_networkx(labels, monkeypatch):
    """The first entries of each row, then only the rows outside the largest part found: the
    parts joined by edges no first entry holds are still one component, in NetworkX's
    order and count."""
    from warpgraph.nx import _dict_components

    skipped = []
    real = _dict_components.largest_sampled_label

    def spy(comp, samples):
        skipped.append(real(comp, samples))
        return skipped[-1]

    monkeypatch.setattr(_dict_components, "largest_sampled_label", spy)
    for seed in range(3):
        G = _blobs(seed, labels)
        count, expected = _expected_labels(G)
        found = weak_components(G)
        assert found is not None and found.count == count
        assert np.array_equal(found.labels, expected)
    assert len(skipped) == 3  # (the Afforest passes ran, each with a part to skip)
    bridged = nx.node_connected_component(G, 17 if labels == "int" else "v17")
    assert len(bridged) > 5900  # (both parts, less a few nodes no edge met)


def test_count_against_scipy_on_a_large_random_graph():
    """An independent oracle (SciPy's csgraph) on 200k nodes, the union-find under contention
    from every thread."""
    sp = pytest.importorskip("scipy.sparse")
    csgraph = pytest.importorskip("scipy.sparse.csgraph")
    n, m = 200000, 190000
    rng = np.random.default_rng(11)
    s, d = rng.integers(0, n, m), rng.integers(0, n, m)
    G = nx.Graph()
    G.add_nodes_from(range(n))
    G.add_edges_from(zip(s.tolist(), d.tolist(), strict=True))
    A = sp.coo_matrix((np.ones(m), (s, d)), shape=(n, n)).tocsr()
    count, labels = csgraph.connected_components(A, directed=False)
    found = weak_components(G)
    assert found.count == count
    _, first = np.unique(labels, return_index=True)  # NetworkX's order: by first node
    rank = np.empty(count, dtype=np.int64)
    rank[np.argsort(first, kind="stable")] = np.arange(count)
    np.testing.assert_array_equal(found.labels, rank[labels])


@needs_reader
@pytest.mark.parametrize("shape", ["path", "grid", "star", "cycle"])
def test_one_component_shapes(shape):
    """Long chains (a path, a lattice) and one hub: one component, no labels returned."""
    G = {
        "path": lambda: nx.path_graph(60000),
        "grid": lambda: nx.convert_node_labels_to_integers(nx.grid_2d_graph(150, 150)),
        "star": lambda: nx.star_graph(30000),
        "cycle": lambda: nx.cycle_graph(50000, create_using=nx.DiGraph),
    }[shape]()
    found = weak_components(G)
    assert found.count == 1 and found.labels is None


@needs_reader
def test_deleted_entries_and_removed_nodes():
    """Rows and node tables with deleted entries (removed edges and nodes) are read right."""
    G = nx.path_graph(30000)
    G.remove_edges_from([(v, v + 1) for v in range(0, 30000, 1000)])
    G.remove_nodes_from(range(5, 30000, 4999))
    count, expected = _expected_labels(G)
    found = weak_components(G)
    assert found.count == count
    np.testing.assert_array_equal(found.labels, expected)


@needs_reader
def test_cases_read_elsewhere_return_none():
    small = nx.path_graph(MIN_NODES - 1)
    assert weak_components(small) is None

    class MyGraph(nx.Graph):
        pass

    assert weak_components(MyGraph(nx.path_graph(MIN_NODES))) is None
    shared = nx.path_graph(MIN_NODES)
    shared.add_edge(-1, -2)  # hash(-1) == hash(-2): the hashes do not name the nodes
    assert weak_components(shared) is None
    odd_row = nx.path_graph(MIN_NODES)

    class Row(dict):
        pass

    odd_row._adj[7] = Row(odd_row._adj[7])  # a row that is not a plain dict
    assert weak_components(odd_row) is None
    assert weak_components(odd_row, labels=False) is None


@needs_reader
def test_node_dict_in_another_order_than_the_rows():
    """The sets are made of ``_node``'s labels: rows listed in another order are refused for
    labels (the count alone is still read). A connected graph needs no labels (all 0)."""
    G = nx.path_graph(MIN_NODES * 2)
    G.add_edge("x", "y")  # two components
    G._adj = dict(reversed(list(G._adj.items())))  # same rows, other order
    assert weak_components(G) is None
    assert weak_components(G, labels=False).count == 2
    G.add_edge("x", 0)
    assert weak_components(G)[:4] == (1, None, None, None)


@needs_reader
def test_rows_read_by_position_and_a_node_dict_read_by_hash():
    """Rows of the labels ``0..n-1`` in order are read by position, without their hashes;
    a ``_node`` that is not the int range (here: a deleted entry) is then checked against
    those positions, and one in another order refused."""
    n = MIN_NODES * 2
    G = nx.path_graph(n)
    G.add_edge(n, n + 1)  # two components, the rows still 0..n+1 in order
    assert raw.row_tables(G._adj).hashes is None
    G._node = dict(G._node)
    G._node["gone"] = {}
    del G._node["gone"]  # (same keys and order, a deleted entry: not read as the range)
    assert not _dict_probes.int_range_keys(G._node)
    found = weak_components(G)
    assert found.count == 2 and not found.identity
    assert found.node_hashes.tolist() == list(range(n + 2))
    assert found.labels[n - 1] == 0 and found.labels[n] == found.labels[n + 1] == 1
    G._node = dict(reversed(list(G._node.items())))
    assert weak_components(G) is None


@needs_reader
def test_connected_graph_is_answered_without_reading_the_labels(monkeypatch):
    """One component: every node's set comes from ``_node``'s keys, whatever their order;
    the node labels are neither checked nor adopted (the deferred graph keeps none)."""
    G = nx.cycle_graph(MIN_NODES * 2)
    G._node = dict(reversed(list(G._node.items())))  # not the rows' order: no labels could be
    calls = []
    monkeypatch.setattr(_dict_probes, "int_range_keys", lambda d: calls.append(d) or True)
    (only,) = nx.connected_components(G, backend=BACKEND)
    assert only == set(G) and len(only) == len(G)
    assert nx.node_connected_component(G, 5, backend=BACKEND) == set(G)
    assert not calls
    W = _cached(G)
    assert W.pending is G and "_n" not in W.__dict__


@pytest.mark.parametrize("directed", [False, True])
@pytest.mark.parametrize("labels", ["int", "str"])
def test_dispatched_functions_equal_networkx_and_do_not_convert(directed, labels, device):
    """On either backend: the dicts are read on the host, whatever the device."""
    before = nx.config.backends.warpgraph.device
    nx.config.backends.warpgraph.device = device
    try:
        _dispatched_equal(directed, labels)
    finally:
        nx.config.backends.warpgraph.device = before


def _dispatched_equal(directed: bool, labels: str) -> None:
    G = _relabelled(_pieces(12000, seed=5, directed=directed), labels)
    some = next(iter(G))
    if directed:
        calls = {
            "weakly_connected_components": lambda g, **k: list(
                nx.weakly_connected_components(g, **k)
            ),
            "number_weakly_connected_components": nx.number_weakly_connected_components,
            "is_weakly_connected": nx.is_weakly_connected,
        }
    else:
        calls = {
            "connected_components": lambda g, **k: list(nx.connected_components(g, **k)),
            "number_connected_components": nx.number_connected_components,
            "is_connected": nx.is_connected,
            "node_connected_component": lambda g, **k: nx.node_connected_component(g, some, **k),
        }
    sets = {"weakly_connected_components", "connected_components", "node_connected_component"}
    for name, call in calls.items():
        G.__networkx_cache__.clear()
        got, want = call(G, backend=BACKEND), call(G)
        assert got == want, name
        if name in sets:  # (each set iterating as NetworkX's: its search order where needed,
            # on the converted graph for these shuffled labels; nx/_component_order.py)
            listed = [list(c) for c in (got if name != "node_connected_component" else [got])]
            expected = [list(c) for c in (want if name != "node_connected_component" else [want])]
            assert listed == expected, name
        elif raw.available():
            assert _cached(G).pending is G, name  # counted in place: never converted


def test_node_connected_component_missing_node_and_later_conversion():
    G = nx.disjoint_union(nx.path_graph(6000), nx.cycle_graph(3000))
    with pytest.raises(KeyError):
        nx.node_connected_component(G, "absent", backend=BACKEND)
    assert nx.node_connected_component(G, 6001, backend=BACKEND) == set(range(6000, 9000))
    # the same cached (deferred) graph then converts for a function that needs the structure
    assert nx.core_number(G, backend=BACKEND) == nx.core_number(G)
    assert nx.node_connected_component(G, 3, backend=BACKEND) == set(range(6000))
    assert list(nx.connected_components(G, backend=BACKEND)) == list(nx.connected_components(G))


def test_connected_graph_gives_every_node():
    G = nx.relabel_nodes(nx.grid_2d_graph(80, 80), lambda v: f"{v[0]}-{v[1]}")
    (only,) = nx.connected_components(G, backend=BACKEND)
    assert only == set(G)
    assert nx.is_connected(G, backend=BACKEND) is True
    assert nx.number_connected_components(G, backend=BACKEND) == 1


def test_second_call_reuses_the_components_until_the_graph_changes(monkeypatch):
    from warpgraph.nx import _dict_components

    calls = []
    real = _dict_components.weak_components
    monkeypatch.setattr(
        _dict_components,
        "weak_components",
        lambda G, labels=True, tables=None: calls.append(labels) or real(G, labels, tables),
    )
    G = nx.disjoint_union(nx.path_graph(6000), nx.path_graph(3000))
    assert nx.number_connected_components(G, backend=BACKEND) == 2
    assert nx.number_connected_components(G, backend=BACKEND) == 2  # kept: the count alone
    first = list(nx.connected_components(G, backend=BACKEND))  # labels now needed: read again
    assert (
        first
        == list(nx.connected_components(G, backend=BACKEND))
        == list(nx.connected_components(G))
    )
    assert nx.is_connected(G, backend=BACKEND) is False
    expected = [False, True] if raw.available() else []
    assert calls == expected
    G.add_edge(5999, 6000)  # NetworkX clears the cached conversion, and the components with it
    assert nx.is_connected(G, backend=BACKEND) is True
    assert list(nx.connected_components(G, backend=BACKEND)) == [set(G)]


from warpgraph.nx.reachability import LOCAL_REACH_NODES  # noqa: E402


def _fragments(labels: str) -> nx.Graph:
    """One random component of 8,000 nodes and 60 small ones (paths, cycles, stars, random;
    12-200 nodes), in shuffled insertion order, relabelled by ``labels``."""
    rng = np.random.default_rng(11)
    G = nx.gnm_random_graph(8000, 24000, seed=3)
    big = nx.convert_node_labels_to_integers(G.subgraph(max(nx.connected_components(G), key=len)))
    makers = (nx.path_graph, nx.cycle_graph, nx.star_graph, lambda k: nx.gnm_random_graph(k, 2 * k))
    edges = list(big.edges())
    n = len(big)
    # the pieces numbered on, as nx.disjoint_union numbers them (60 of its copies took ~27 s)
    for i in range(60):
        piece = makers[i % 4](int(rng.integers(12, 200)))
        edges += [(u + n, v + n) for u, v in piece.edges()]
        n += len(piece)
    H = nx.Graph()
    H.add_nodes_from(rng.permutation(n).tolist())
    H.add_edges_from(edges)
    return _relabelled(H, labels)


@pytest.mark.parametrize("labels", ["int", "str"])
@pytest.mark.parametrize("share", [None, 4])
def test_small_component_is_searched_alone(monkeypatch, labels, share, device):
    """A small component is found by a search in place from the node (the graph's components
    not computed, the graph not converted); a large one by the components pass. Both equal
    NetworkX's, for ``node_connected_component`` and the undirected ``descendants``; the small
    one's set iterates as NetworkX's without its Python steps run again."""
    from warpgraph.nx import _component_order, _dict_components, _short_reach, components

    if share is not None:  # (a larger share: larger components searched alone)
        monkeypatch.setattr(components, "SMALL_COMPONENT_SHARE", share)
    monkeypatch.setattr(nx.config.backends.warpgraph, "device", device)
    if _short_reach.reach(nx.path_graph(3)._adj, 0, 9) is not _short_reach.UNREADABLE:
        # (int and str labels: a small component's set in NetworkX's order comes from the
        # compiled search, not NetworkX's Python steps run again)
        def refused(*args, **kwargs):
            raise AssertionError("NetworkX's steps were run again")

        monkeypatch.setattr(_component_order, "python_search", refused)
    calls = []
    real = _dict_components.weak_components
    monkeypatch.setattr(
        _dict_components,
        "weak_components",
        lambda G, labels=True, tables=None: calls.append(1) or real(G, labels, tables),
    )
    G = _fragments(labels)
    threads = numba.get_num_threads()
    comps = sorted(nx.connected_components(G), key=len)
    for members in (comps[0], comps[30], comps[-2], comps[-1]):
        node = next(iter(members))
        for f, want in (
            (nx.node_connected_component, members),
            (nx.descendants, members - {node}),
        ):
            calls.clear()
            G.__networkx_cache__.clear()
            got = f(G, node, backend=BACKEND)
            assert got == want, (f.__name__, len(members))
            if f is nx.node_connected_component:  # (iterating as NetworkX's search from node)
                assert list(got) == list(nx.node_connected_component(G, node))
            alone = len(members) <= len(G) // (components.SMALL_COMPONENT_SHARE * threads)
            short = alone if f is nx.node_connected_component else len(members) <= LOCAL_REACH_NODES
            if raw.available() and not calls and short:
                # never converted where the search alone answered (a large component may be
                # searched again on the conversion, for its set's order, these labels being
                # shuffled: nx/_component_order.py)
                assert _cached(G).pending is G
                # (found alone for sure when one worker may read all its rows)
                if len(members) <= len(G) // (components.SMALL_COMPONENT_SHARE * threads):
                    assert calls == [], len(members)  # (the search alone answered)
                if len(members) > len(G) // 2:
                    assert calls == [1]  # (the search gave up: the whole pass)


def test_search_gives_up_when_its_short_queue_fills():
    """A search given a small row limit gets a short queue; a row that would overflow it
    (a hub) makes it give up rather than write past it."""
    from warpgraph.nx import _dict_reach

    star = nx.star_graph(9000)
    full = _dict_reach.reach_flags(star._adj, hash(0), 2)
    assert full is not None and full.sum() == 9000
    if raw.available():
        assert _dict_reach.reach_flags(star._adj, hash(0), 2, 1) is None  # 9,000 > the room
        assert _dict_reach.reach_flags(star._adj, hash(5), 2, 1) is None  # (row limit: 2 rows)


def test_wrong_input_is_refused_with_the_reason():
    from warpgraph.nx._hash_index import hash_lookup
    from warpgraph.nx.interface import WarpgraphGraph

    with pytest.raises(TypeError, match="NetworkX Graph or DiGraph"):
        weak_components({0: {1: {}}, 1: {0: {}}})
    with pytest.raises(TypeError, match="1-D int64"):
        hash_lookup(np.arange(5, dtype=np.int32), False)
    with pytest.raises(TypeError, match="1-D int64"):
        hash_lookup([0, 1, 2], False)
    W = WarpgraphGraph.deferred(nx.path_graph(10))
    with pytest.raises(ValueError, match="one node hash per node"):
        W.adopt_labels(False, np.arange(3, dtype=np.int64))
    assert W.pending is not None and "_n" not in W.__dict__  # nothing adopted
    W.adopt_labels(False, np.arange(10, dtype=np.int64))  # (the hashes of 0..9)
    assert W.find(3) == 3 and W.find(99) == -1


@pytest.mark.parametrize("labels", ["int", "spread", "str"])
def test_tiny_component_is_found_without_a_pass(monkeypatch, labels):
    """A component of a few nodes in a large graph not converted yet: the compiled search of
    the dicts from the node answers (no pass over every node), its set iterating as
    NetworkX's; a component past :data:`components.SHORT_COMPONENT_NODES` is left to the
    search in place, and the giant one to the components pass."""
    from warpgraph.nx import _short_reach, components

    G = nx.grid_2d_graph(80, 80)  # 6,400 nodes, connected
    G = nx.convert_node_labels_to_integers(G)
    n = len(G)
    for i in range(20):  # 3-node paths, then one of 600 nodes
        G.add_edges_from([(n + 3 * i, n + 3 * i + 1), (n + 3 * i + 1, n + 3 * i + 2)])
    nx.add_path(G, range(n + 60, n + 660))
    mapping = {"int": None, "spread": {v: 7919 * v + 10**6 for v in G},
               "str": {v: f"v{v}" for v in G}}[labels]  # fmt: skip
    if mapping is not None:
        G = nx.relabel_nodes(G, mapping)
    name = (lambda v: v) if mapping is None else mapping.__getitem__
    if _short_reach.reach(G._adj, name(0), 1) is _short_reach.UNREADABLE:
        pytest.skip("the C API search is not available on this interpreter")
    passes = []
    real = components._small_component
    monkeypatch.setattr(components, "_small_component",
                        lambda G, n: passes.append(n) or real(G, n))  # fmt: skip
    for v, alone in ((n + 31, True), (n + 100, False), (0, False)):
        node = name(v)
        passes.clear()
        G.__networkx_cache__.clear()
        got = nx.node_connected_component(G, node, backend=BACKEND)
        assert list(got) == list(nx.node_connected_component(G, node)), v
        assert (passes == []) == alone, v
        if alone:
            assert _cached(G).pending is G  # (never converted)
