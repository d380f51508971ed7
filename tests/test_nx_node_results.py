"""Per-node result dicts and node sets built in compiled code
(:func:`warpgraph.nx._capi_nodes.node_dict`, :func:`~warpgraph.nx._capi_nodes.node_sets`, used
through :mod:`warpgraph.nx._common`).

Every result is compared with NetworkX's own: equal items in the same key order with the same
value types (``int`` vs ``float``, NetworkX's ``int`` 0 in clustering and as a source's
distance); the label objects keep their reference counts after results are built and dropped;
the Python path gives the same results where the builders cannot be used.
"""

from __future__ import annotations

import itertools
import random
import sys

import numpy as np
import pytest

nx = pytest.importorskip("networkx")

from warpgraph.nx import _capi, _capi_nodes, _common, _dict_layout, _dict_probes  # noqa: E402
from warpgraph.nx.interface import backend_interface  # noqa: E402

BACKEND = "warpgraph"
if BACKEND not in nx.utils.backends.backends:
    pytest.skip("warpgraph is not registered as a NetworkX backend", allow_module_level=True)
needs_api = pytest.mark.skipif(_capi.api() is None, reason="CPython's C API is not usable here")

KINDS = ["int", "shuffled", "str", "tuple", "mixed"]


@pytest.fixture
def native_always(monkeypatch):
    """The builders on small results too, and a record of every dict and list of sets they
    made."""
    monkeypatch.setattr(_common, "NATIVE_MIN", 0)
    made = []
    for name in ("node_dict", "node_sets", "values_for_keys"):
        real = getattr(_capi_nodes, name)

        def spy(*args, _real=real, _name=name, **kwargs):
            out = _real(*args, **kwargs)
            made.append((_name, out is not None))
            return out

        monkeypatch.setattr(_capi_nodes, name, spy)
    return made


def _labels(kind: str, n: int, rng: random.Random) -> list:
    ids = list(range(n))
    if kind == "int":
        return ids
    rng.shuffle(ids)
    if kind == "shuffled":
        return ids
    if kind == "str":
        return [f"v{i}" for i in ids]
    if kind == "tuple":
        return [(i % 7, f"t{i}") for i in ids]
    return [(i, "t") if i % 3 == 0 else (f"s{i}" if i % 3 == 1 else i + 1000) for i in ids]


def _graph(seed: int, kind: str, n: int = 60, directed: bool = False):
    rng = random.Random(seed)
    G = nx.gnm_random_graph(n, 2 * n, seed=seed, directed=directed)
    G.add_nodes_from(range(n))
    labels = _labels(kind, n, rng)
    H = nx.DiGraph() if directed else nx.Graph()
    H.add_nodes_from(labels[i] for i in range(n))
    for u, v in G.edges:
        H.add_edge(
            labels[u], labels[v], weight=rng.choice([1.5, 2.0, 0.25, 3.0]), w=rng.randint(0, 9)
        )
    return H


def typed(d):
    """Items of a dict with each value's type: ``1 == 1.0`` but NetworkX's types must be kept."""
    return [(k, type(v), v) for k, v in d.items()]


def same(name: str, ours: dict, theirs: dict) -> bool:
    """Equal items and value types, in the same key order."""
    return typed(ours) == typed(theirs)


def _calls(G, source):
    return [
        ("core_number", (), {}),
        ("triangles", (), {}),
        ("clustering", (), {}),
        ("single_source_shortest_path_length", (source,), {}),
        ("single_source_shortest_path_length", (source,), {"cutoff": 2}),
        ("single_source_dijkstra_path_length", (source,), {}),
        ("single_source_dijkstra_path_length", (source,), {"weight": "w"}),
        ("single_source_bellman_ford_path_length", (source,), {}),
        ("single_source_bellman_ford_path_length", (source,), {"weight": "w"}),
    ]


@pytest.mark.parametrize("kind", KINDS)
def test_dicts_equal_networkx(kind, native_always):
    for seed in range(3):
        G = _graph(seed, kind)
        source = next(iter(G))
        for name, args, kwargs in _calls(G, source):
            ours = getattr(nx, name)(G, *args, backend=BACKEND, **kwargs)
            assert same(name, ours, getattr(nx, name)(G, *args, **kwargs)), (name, kwargs)
    if _capi.api() is not None:  # every dict above was built by the compiled loops
        dicts = [ok for name, ok in native_always if name == "node_dict"]
        assert dicts and all(dicts)
        copies = [ok for name, ok in native_always if name == "values_for_keys"]
        assert len(copies) == 3 * 3 and all(copies)  # every node in order: _node's copy


@pytest.mark.parametrize("kind", KINDS)
def test_sets_equal_networkx(kind, native_always):
    G = _graph(1, kind, n=80)
    G.add_nodes_from(_labels(kind, 95, random.Random(5))[80:] if kind != "int" else range(80, 95))
    source = next(iter(G))
    assert list(nx.connected_components(G, backend=BACKEND)) == list(nx.connected_components(G))
    for v in list(G)[::7]:
        assert nx.node_connected_component(G, v, backend=BACKEND) == nx.node_connected_component(
            G, v
        )
    for d in range(4):
        ours = nx.descendants_at_distance(G, source, d, backend=BACKEND)
        assert ours == nx.descendants_at_distance(G, source, d)
    D = _graph(2, kind, n=80, directed=True)
    assert list(nx.strongly_connected_components(D, backend=BACKEND)) == list(
        nx.strongly_connected_components(D)
    )
    assert list(nx.weakly_connected_components(D, backend=BACKEND)) == list(
        nx.weakly_connected_components(D)
    )
    if _capi.api() is not None:  # int and str labels by the compiled loop, others in Python
        compiled = {ok for name, ok in native_always if name == "node_sets"}
        if kind in ("int", "shuffled", "str"):
            assert compiled == {True}
        else:  # refused where it met another label (an empty list or one of ints: made)
            assert False in compiled


def test_empty_graphs(native_always):
    for G in (nx.Graph(), nx.DiGraph()):
        for name in ("core_number", "connected_components" if not G.is_directed() else None):
            if name:
                ours = getattr(nx, name)(G, backend=BACKEND)
                assert typed(dict(enumerate(ours))) == typed(dict(enumerate(getattr(nx, name)(G))))
    G = nx.Graph()
    assert nx.triangles(G, backend=BACKEND) == {} == nx.clustering(G, backend=BACKEND)
    G.add_node("a")  # one node, no edge: clustering's int 0
    assert typed(nx.clustering(G, backend=BACKEND)) == typed(nx.clustering(G))
    assert typed(nx.single_source_shortest_path_length(G, "a", backend=BACKEND)) == [("a", int, 0)]


@needs_api
def test_builders_directly():
    fns = _capi.api().fns
    labels = ["a", ("b", 1), 7, "d"]
    hashes = np.array([hash(x) for x in labels])
    ids = np.array([3, 0, 2])
    got = _capi_nodes.node_dict(fns, ids, labels, hashes, np.array([0.0, -0.0, 2.5]), zero_int=True)
    assert typed(got) == [("d", int, 0), ("a", int, 0), (7, float, 2.5)]
    got = _capi_nodes.node_dict(fns, ids, labels, hashes, np.array([0.0, 0.0, 0.5]), first_int=True)
    assert typed(got) == [("d", int, 0), ("a", float, 0.0), (7, float, 0.5)]
    big = np.array([2**62, -(2**40), 5], dtype=np.int64)
    got = _capi_nodes.node_dict(fns, ids, None, np.arange(4), big)
    assert typed(got) == [(3, int, 2**62), (0, int, -(2**40)), (2, int, 5)]
    assert _capi_nodes.node_dict(fns, ids[:0], labels, hashes, big[:0]) == {}
    got = _capi_nodes.node_dict(fns, ids, labels, hashes, np.array([1, 1, 2], dtype=np.int32))
    assert typed(got) == [("d", int, 1), ("a", int, 1), (7, int, 2)]
    assert _capi_nodes.node_sets(fns, np.array([3, 2, 0]), np.array([0, 0, 2, 3]), None) == [
        set(),
        {3, 2},
        {0},
    ]
    assert _capi_nodes.node_sets(fns, np.array([0, 3]), np.array([0, 2]), labels) == [{"a", "d"}]
    assert _capi_nodes.node_sets(fns, np.array([0, 1]), np.array([0, 2]), labels) is None  # a tuple


@needs_api
def test_references_are_balanced():
    """Labels keep their reference counts; a result is referenced once and owns its values."""
    labels = [f"v{i}" for i in range(50)] + [(i, "t") for i in range(50)] + [10**30]
    hashes = np.array([hash(x) for x in labels])
    fns = _capi.api().fns
    ids = np.random.default_rng(0).permutation(len(labels))
    sentinel = 2**70 + 1  # no other reference: only the lists hold the labels
    ints = [sentinel + i for i in range(40)]
    before = [sys.getrefcount(x) for x in labels + ints]
    for _ in range(3):
        d = _capi_nodes.node_dict(fns, ids, labels, hashes, np.linspace(0.0, 1.0, ids.size))
        groups = np.arange(ids.size) // 3 + 1000  # equal consecutive values share an int
        e = _capi_nodes.node_dict(fns, ids, labels, hashes, groups, first_int=True)
        s = _capi_nodes.node_sets(fns, np.arange(40), np.array([0, 10, 40]), ints)
        n = _capi_nodes.node_dict(fns, ids, None, np.arange(ids.size), np.zeros(ids.size))
        counts = [sys.getrefcount(x) for x in (d, e, s, n, s[0], s[1])]
        assert counts == [4] * 6  # one owner each, the tuple, x and getrefcount's argument
        keys = list(d)
        x = d[keys[5]]
        assert sys.getrefcount(x) == 3  # d and x: one float per value
        x = e[keys[0]]
        assert x == 0 and type(x) is int
        x = e[keys[3]]  # entries 3, 4, 5 share it
        assert sys.getrefcount(x) == 3 + 2 and e[keys[4]] is x is e[keys[5]]
        assert e[keys[1]] is e[keys[2]] is not x
        x = n[int(ids[0])]  # every entry shares one 0.0
        assert type(x) is float and sys.getrefcount(x) == ids.size + 2
        del x
        del d, e, s, n, keys
    assert [sys.getrefcount(x) for x in labels + ints] == before


@needs_api
def test_values_for_the_keys_of_the_node_table():
    """Every node in order: a copy of ``_node`` with its values replaced in place. The
    keys are the table's own objects, the attribute dicts and the keys keep their reference
    counts, and equal consecutive values share one object."""
    fns = _capi.api().fns
    for keys in (
        [f"v{i}" for i in range(300)],  # str keys: the (key, value) entry layout
        [(i, "t") for i in range(300)],  # other keys: (hash, key, value)
        [2**70 + i for i in range(300)],
    ):
        table = {k: {"attr": i} for i, k in enumerate(keys)}
        attrs = list(table.values())
        before = [sys.getrefcount(x) for x in keys + attrs]
        values = np.repeat(np.array([0.0, 0.5, 0.0, 2.0]), 75)
        for _ in range(3):
            d = _capi_nodes.values_for_keys(fns, table, values, zero_int=True)
            assert list(d) == keys and all(a is b for a, b in zip(d, table, strict=True))
            assert [(type(v), v) for v in d.values()] == [
                (int, 0) if x == 0 else (float, x) for x in values.tolist()
            ]
            assert sys.getrefcount(d) == 2
            half = d[keys[80]]
            assert sys.getrefcount(half) == 75 + 2  # one object per run of equal values
            del half
            e = _capi_nodes.values_for_keys(fns, table, np.arange(300, dtype=np.int64) * 2**40)
            assert list(e.values()) == [i * 2**40 for i in range(300)]
            big = itertools.islice(e.values(), 1, None)  # (0 is a cached small int)
            assert {sys.getrefcount(v) for v in big} == {3}  # e's, v's, the argument's
            del d, e
        assert [sys.getrefcount(x) for x in keys + attrs] == before
    assert _capi_nodes.values_for_keys(fns, {}, np.zeros(0)) == {}


@needs_api
def test_the_key_table_is_copied_without_touching_the_values():
    """The copy to be filled is made with ``None`` values: the source's values are set aside
    and put back around ``PyDict_Copy``. The source ends as it was (same value objects, same
    reference counts; none of ``None``'s kept), the collector is left as found, and a table with
    deleted entries is refused untouched."""
    import gc

    fns = _capi.api().fns
    next(_capi_nodes._key_table_copies(fns, {i: i for i in range(9)}))  # (compiled before counting)
    for keys in ([f"s{i}" for i in range(5000)], list(range(5000)), [(i, 1) for i in range(5000)]):
        table = {k: {"attr": i} for i, k in enumerate(keys)}
        attrs = list(table.values())
        before = [sys.getrefcount(a) for a in attrs]
        nones = sys.getrefcount(None)
        saved = np.empty(len(table), np.int64)
        for collecting in (True, False):
            (gc.enable if collecting else gc.disable)()
            try:
                copies = _capi_nodes._key_table_copies(fns, table)
                blank, all_none = next(copies)
                assert gc.isenabled() == collecting
            finally:
                gc.enable()
            assert list(blank) == keys and all(a is b for a, b in zip(blank, table, strict=True))
            assert all_none and all(v is None for v in blank.values())
            assert sys.getrefcount(blank) == 2
            assert all(a is b for a, b in zip(table.values(), attrs, strict=True))
            blank[keys[0]] = 1  # a working table: items set, removed, found
            del blank[keys[-1]]
            assert blank[keys[0]] == 1 and keys[-1] not in blank and len(blank) == len(keys) - 1
            del blank, copies
        assert [sys.getrefcount(a) for a in attrs] == before
        assert abs(sys.getrefcount(None) - nones) < len(keys) // 4  # (not one per entry)
        del table[keys[3]]
        assert _capi_nodes._blank_copy(fns, id(table), id(None), saved[:-1]) == -1
        assert all(table[k] is a for k, a in zip(keys, attrs, strict=True) if k != keys[3])


@needs_api
@pytest.mark.parametrize("kind", ["int", "str", "tuple"])
def test_parallel_clone_of_the_key_table(kind):
    """The result dict made from an empty table CPython sized like the source's: its entries
    and index table written in parallel. Same keys (the same objects) in the same order, the
    values asked for, a dict that works (items set, removed, found after a resize), tracked by
    the collector only for keys that may hold references (tuples), every reference released
    with it; a source whose table size the sizing does not give is refused (None)."""
    import gc

    fns = _capi.api().fns
    label = {"int": lambda i: 1000 + i, "str": lambda i: f"k{i}", "tuple": lambda i: (i, "t")}[kind]
    for n in (6, 22, 100, 5462, 20000):
        table = {}
        for i in range(n):  # (grown one insertion at a time, as NetworkX's node dict)
            table[label(i)] = {"attr": i}
        keys = list(table)
        before = [sys.getrefcount(k) for k in keys]
        values = (np.arange(n) % 5).astype(np.int64)
        d = _capi_nodes._parallel_clone(fns, table, values, _capi_nodes.INTS, False)
        assert list(d) == keys and all(a is b for a, b in zip(d, keys, strict=True))
        assert list(d.values()) == values.tolist() and all(
            d[k] == v for k, v in zip(keys, values.tolist(), strict=True)
        )
        assert gc.is_tracked(d) == (kind == "tuple")
        floats = np.linspace(0.0, 1.0, n)
        e = _capi_nodes._parallel_clone(fns, table, floats.view(np.int64), _capi_nodes.FLOATS, True)
        assert [(type(v), v) for v in e.values()] == [
            (int, 0) if x == 0 else (float, x) for x in floats.tolist()
        ]
        for i in range(3 * n):  # grows the table
            d[("new", i)] = i
        for k in keys[::3]:
            del d[k]
        assert len(d) == 4 * n - len(keys[::3]) and all(
            d[k] == v for k, v in zip(keys[1::3], values[1::3].tolist(), strict=True)
        )
        del d, e, k
        assert [sys.getrefcount(k) for k in keys] == before
    grown = {}
    for i in range(21):  # a full table of 32 slots: sizing for 21 entries gives 64
        grown[label(i)] = i
    assert (
        _capi_nodes._parallel_clone(fns, grown, np.zeros(21, np.int64), _capi_nodes.INTS, False)
        is None
    )
    assert _capi_nodes.values_for_keys(fns, grown, np.ones(21)) == dict.fromkeys(grown, 1.0)


@needs_api
def test_values_for_the_keys_of_a_table_with_holes():
    """Deleted entries of the source table are skipped: a copy that keeps them (few deleted)
    is not filled, ``dict.fromkeys`` is; a copy that drops them (many deleted) is filled. The
    source's values keep their reference counts either way. A value count that is not the
    key count is refused (None), nothing misread."""
    fns = _capi.api().fns
    for step in (100, 2):  # 1% of the entries deleted, then half
        table = {i: {} for i in range(1000)}
        for i in range(0, 1000, step):
            del table[i]
        attrs = list(table.values())
        before = [sys.getrefcount(a) for a in attrs]
        values = np.arange(len(table), dtype=np.float64)
        assert list(_capi_nodes.values_for_keys(fns, table, values).items()) == list(
            zip(table, values.tolist(), strict=True)
        )
        assert _capi_nodes.values_for_keys(fns, table, np.ones(len(table) + 1)) is None
        assert [sys.getrefcount(a) for a in attrs] == before


def test_per_node_results_after_nodes_were_removed(native_always):
    for kind in ("int", "str"):
        G = _graph(7, kind, n=400)
        G.remove_nodes_from(list(G)[::9])
        for name in ("core_number", "triangles", "clustering"):
            ours = getattr(nx, name)(G, backend=BACKEND)
            assert same(name, ours, getattr(nx, name)(G)), (kind, name)


def test_falls_back_when_the_api_is_unusable(monkeypatch):
    monkeypatch.setattr(_common, "NATIVE_MIN", 0)
    monkeypatch.setitem(_dict_layout._STATE, "ok", False)
    assert _capi.api() is None
    G = _graph(4, "str")
    source = next(iter(G))
    for name, args, kwargs in _calls(G, source):
        ours = getattr(nx, name)(G, *args, backend=BACKEND, **kwargs)
        assert same(name, ours, getattr(nx, name)(G, *args, **kwargs)), name
    assert list(nx.connected_components(G, backend=BACKEND)) == list(nx.connected_components(G))


def test_falls_back_when_hashes_collide(native_always):
    """hash(-1) == hash(-2): the conversion keeps no node hashes and Python builds the dicts."""
    G = nx.relabel_nodes(_graph(6, "int"), {v: -v - 1 for v in range(60)})
    W = backend_interface.convert_from_nx(G)
    assert W._node_hashes is None and _common._native_labels(W) is None
    for name, args, kwargs in _calls(G, -1):
        ours = getattr(nx, name)(G, *args, backend=BACKEND, **kwargs)
        assert same(name, ours, getattr(nx, name)(G, *args, **kwargs)), name
    assert list(nx.connected_components(G, backend=BACKEND)) == list(nx.connected_components(G))
    # no builder that keys by hash was called (a copy of the node table needs no hashes)
    assert {name for name, _ in native_always} <= {"values_for_keys"}


@pytest.mark.parametrize("kind", ["int", "str"])
def test_big_results(kind):
    """Above the size threshold with the default settings (no monkeypatching); BFS and
    Dijkstra orders of a random graph's ids are scattered (new ``int`` keys)."""
    n = 5000
    G = _graph(9, kind, n=n)
    source = next(iter(G))
    for name, args, kwargs in _calls(G, source)[:6]:
        ours = getattr(nx, name)(G, *args, backend=BACKEND, **kwargs)
        assert same(name, ours, getattr(nx, name)(G, *args, **kwargs)), name
    assert list(nx.connected_components(G, backend=BACKEND)) == list(nx.connected_components(G))


def test_scattered_ids():
    rng = np.random.default_rng(3)
    assert _common._scattered(rng.permutation(5000), 5000)
    assert not _common._scattered(np.arange(5000), 5000)
    assert not _common._scattered(np.arange(5000)[::-1].copy(), 5000)
    assert not _common._scattered(rng.permutation(1000), 1000)  # small: not sampled
    lattice = np.argsort(np.add(*np.divmod(np.arange(300 * 300), 300)), kind="stable")
    assert not _common._scattered(lattice, lattice.size)  # a lattice's BFS order: diagonals


@needs_api
def test_labels_0_to_n_minus_1_are_read_from_the_node_table(monkeypatch):
    """On a first call the labels ``0..n-1`` are not listed: their addresses come from the
    source's ``_node`` table, and the results hold those very key objects with balanced
    reference counts; a table with a deleted entry is not read that way."""
    read = []
    real = _dict_probes.key_addresses
    monkeypatch.setattr(_dict_probes, "key_addresses", lambda d: read.append(1) or real(d))
    G = nx.gnm_random_graph(3000, 1200, seed=4)  # no component of most nodes: see below
    keys = list(G._node)
    before = [sys.getrefcount(k) for k in keys[257:300]]
    for name in ("core_number", "triangles", "clustering"):
        G.__networkx_cache__.clear()
        ours, theirs = getattr(nx, name)(G, backend=BACKEND), getattr(nx, name)(G)
        assert typed(ours) == typed(theirs), name
        assert all(a is b for a, b in zip(ours, keys, strict=True))
        del ours, theirs
    G.__networkx_cache__.clear()
    sets = list(nx.connected_components(G, backend=BACKEND))
    assert sets == list(nx.connected_components(G))
    assert {id(v) for v in sets[0]} <= {id(k) for k in keys}
    del sets
    assert read
    assert [sys.getrefcount(k) for k in keys[257:300]] == before
    assert _dict_probes.key_addresses({0: 1, 1: 2} | {i: i for i in range(2, 10)}) is not None
    holed = dict.fromkeys(range(10))
    del holed[4]
    assert _dict_probes.key_addresses(holed) is None  # entry 4 is a hole: entry i is not key i


@needs_api
def test_label_addresses_must_be_a_contiguous_int64_array():
    fns = _capi.api().fns
    ids, hashes, values = np.arange(2), np.arange(2), np.arange(2)
    for bad in (np.arange(2, dtype=np.int32), np.arange(4, dtype=np.int64)[::2]):
        with pytest.raises(TypeError, match="contiguous int64"):
            _capi_nodes.node_dict(fns, ids, bad, hashes, values)


@pytest.mark.parametrize("kind", KINDS)
def test_majority_component_from_the_node_table(kind, monkeypatch):
    """A component of more than half the nodes is a set of ``G._node``'s keys,
    whatever its place among the components (isolated nodes first put it in the middle);
    smaller ones come from the other builders. Equal to NetworkX's, and a new set each time."""
    used = []
    real = _common._most_nodes
    monkeypatch.setattr(_common, "NATIVE_MIN", 0)
    monkeypatch.setattr(
        _common,
        "_most_nodes",
        lambda W, inside: used.append(int(inside.sum())) or real(W, inside),
    )
    rng = random.Random(11)
    labels = _labels(kind, 120, rng)
    G = nx.Graph()
    G.add_nodes_from(labels[:5])  # isolated: components 0..4
    path = labels[5:100]
    nx.add_path(G, path)  # the majority: 95 of 120
    G.add_nodes_from(labels[100:])  # isolated again, after it
    G.add_edge(labels[110], labels[111])
    theirs = list(nx.connected_components(G))
    ours = list(nx.connected_components(G, backend=BACKEND))
    assert ours == theirs and [len(c) for c in ours] == [len(c) for c in theirs]
    assert [list(c) for c in ours] == [list(c) for c in theirs]  # (iterating alike)
    # (from the node table where every key sits in its home slot, as for the labels 0..n-1
    # here; shuffled ints where their hashes are known; other labels' sets are built in
    # NetworkX's search order, nx/_component_order.py)
    majority = {"int": [95], "shuffled": used[:]}.get(kind, [])
    assert used == majority
    assert {id(v) for v in ours[5]} <= {id(k) for k in G._node}  # the table's own keys
    ours[5].add("new")  # not G's node set, nor a later result
    assert "new" not in G and "new" not in next(
        c for c in nx.connected_components(G, backend=BACKEND) if len(c) == 95
    )
    used.clear()
    v = path[40]
    ours_v = nx.node_connected_component(G, v, backend=BACKEND)
    assert list(ours_v) == list(nx.node_connected_component(G, v))
    assert used == majority or kind == "shuffled"
    used.clear()
    assert nx.node_connected_component(G, labels[0], backend=BACKEND) == {labels[0]}
    assert used == []  # a minority: not this path
    D = nx.DiGraph(G)
    D.add_node(labels[2])
    assert list(nx.weakly_connected_components(D, backend=BACKEND)) == list(
        nx.weakly_connected_components(D)
    )


def test_majority_component_of_a_subclass_node_table():
    """A node table that is not a plain dict (a subclass's factory) is not copied as a set:
    the other builders make the component, still equal to NetworkX's."""

    class NodeDict(dict):
        pass

    class MyGraph(nx.Graph):
        node_dict_factory = NodeDict

    G = MyGraph()
    nx.add_path(G, range(300))
    G.add_nodes_from(range(300, 320))
    W = backend_interface.convert_from_nx(G)
    assert _common._most_nodes(W, np.arange(320) < 300) is None
    assert list(nx.connected_components(G, backend=BACKEND)) == list(nx.connected_components(G))


@pytest.mark.parametrize("native_min", [0, 256])
def test_label_sets(native_min, monkeypatch):
    """Sets by label, in label order: none, one label for all, a majority at either end or in
    the middle, no majority; equal to grouping the labels in Python."""
    monkeypatch.setattr(_common, "NATIVE_MIN", native_min)
    G = nx.empty_graph([f"v{i}" for i in range(600)])
    W = backend_interface.convert_from_nx(G)
    nodes = list(G)
    rng = np.random.default_rng(3)
    cases = [np.zeros(600, dtype=np.int64), rng.integers(0, 5, 600)]
    for where in (0, 3, 6):
        labels = rng.integers(0, 6, 600)
        labels[rng.random(600) < 0.7] = where  # a majority label
        cases.append(np.unique(labels, return_inverse=True)[1])
    for labels in cases:
        count = int(labels.max()) + 1
        expected = [{nodes[i] for i in np.flatnonzero(labels == c)} for c in range(count)]
        assert _common.label_sets(W, labels, count) == expected
    E = backend_interface.convert_from_nx(nx.Graph())
    assert _common.label_sets(E, np.zeros(0, dtype=np.int64), 0) == []


def test_label_sets_refuses_bad_labels():
    W = backend_interface.convert_from_nx(nx.path_graph(4))
    with pytest.raises(ValueError, match="below count=2"):
        _common.label_sets(W, np.array([0, 1, 2, 1]), 2)
    with pytest.raises(ValueError, match="one label >= 0 per node"):
        _common.label_sets(W, np.array([0, 1, 1]), 2)
    with pytest.raises(ValueError, match="one label >= 0 per node"):
        _common.label_sets(W, np.array([0, -1, 1, 1]), 2)


@pytest.mark.gpu
@pytest.mark.parametrize("n", [5, 300, 5000])
def test_values_may_still_be_on_the_device(n):
    """A CuPy array of values (read once the dict's table is allocated) gives the dict a NumPy
    one gives: every node in order, and a selection of ids."""
    import cupy as cp

    G = nx.path_graph([f"v{i}" for i in range(n)]) if n < 300 else nx.path_graph(n)
    W = backend_interface.convert_from_nx(G)
    for host_values in (np.arange(n) % 7, np.linspace(0.0, 1.0, n)):
        on_device = cp.asarray(host_values)
        assert _common.node_dict(W, None, on_device) == _common.node_dict(W, None, host_values)
        ids = np.arange(n)[::-2]
        got = _common.node_dict(W, ids, on_device[ids])
        assert got == _common.node_dict(W, ids, host_values[ids])
        assert list(got) == [W.nodes[i] for i in ids]
