"""Edge data dicts copied by parallel workers (:mod:`warpgraph.nx._parallel_copies`).

A copy made there must be what ``PyDict_Copy`` makes: equal to its source in order, a dict of
its own (changing it leaves the source alone), untracked by the collector like its source,
freed like any dict, and holding exactly one reference to each key and value while it lives.
Dicts that ``PyDict_Copy`` would not clone (tracked, with deleted entries, a table grown past
its clone size, a subclass) are left to CPython.
"""

from __future__ import annotations

import gc
import sys

import numpy as np
import pytest

nx = pytest.importorskip("networkx")

from warpgraph.nx import _capi, _capi_graph, _dict_layout, _parallel_copies  # noqa: E402

pytestmark = pytest.mark.skipif(
    _capi.api() is None or not _capi.DIRECT_REFCOUNTS or not _parallel_copies.allowed(),
    reason="dicts cannot be copied by workers here",
)
BACKEND = "warpgraph"


@pytest.fixture
def forge_spy(monkeypatch):
    """Copies made by workers whatever the thread count or size; yields how many each pass
    made."""
    monkeypatch.setattr(_parallel_copies, "MIN_PARALLEL", 0)
    monkeypatch.setattr(_parallel_copies, "PARALLEL_COPY_THREADS", 1)
    made: list[int] = []
    real = _parallel_copies._forge_all

    def spy(arcs, found, copy_at):
        made.append(real(arcs, found, copy_at))
        return made[-1]

    monkeypatch.setattr(_parallel_copies, "_forge_all", spy)
    return made


def _sources() -> tuple[list[dict], list[bool], list]:
    """Data dicts of each kind, whether workers copy each, and objects only they hold."""
    own = [float(i) + 0.5 for i in range(6)] + ["".join(("lab", str(i))) for i in range(3)]
    grown = {"weight": own[0], "label": own[6]}
    grown[7] = own[1]  # 3 entries in a 16-slot table: PyDict_Copy merges, it does not clone
    gone = {"weight": own[2], "x": 1}
    del gone["x"]  # a deleted entry
    emptied = {"weight": own[2]}
    del emptied["weight"]  # no entry left in a table of its own
    sources = [
        {"weight": own[3]},
        dict(weight=own[4], label=own[7], w=own[5]),  # str keys: 16-byte entries
        {1: own[0], (2, 3): None, own[8]: own[1]},  # other keys: 24-byte entries
        {"weight": [own[2]]},  # tracked (a list value)
        dict.fromkeys(range(40), own[3]),  # a larger table, more than a third full
        gone,
        grown,
        {},  # empty: PyDict_Copy makes a new empty dict, as the workers do
        emptied,  # likewise
    ]
    return sources, [True, True, True, False, True, False, False, True, True], own


def _empty_table_holders() -> int:
    """How many dicts hold CPython's shared empty key table (3.11 counts; 3.12+: immortal)."""
    import ctypes

    return ctypes.c_int64.from_address(_dict_layout.empty_keys_address()).value


def test_copies_equal_their_sources_and_are_their_own(forge_spy):
    sources, by_workers, own = _sources()
    sources = sources * 3  # the same source copied more than once
    before = [sys.getrefcount(x) for x in own]
    at = np.zeros(len(sources), dtype=np.int64)
    fns = _capi.api().fns
    found = np.array([id(d) for d in sources], dtype=np.int64)
    assert _parallel_copies.copy_data_dicts(fns, np.arange(len(sources)), found, at) == 0
    assert forge_spy == [3 * sum(by_workers)]
    copies = [_capi._adopt(int(a), fns) for a in at]
    for source, copy in zip(sources, copies, strict=True):
        assert copy == source and copy is not source and list(copy) == list(source)
        assert gc.is_tracked(copy) == gc.is_tracked(source)
        copy["added"] = 1
        assert "added" not in source
        del copy["added"]
    held = [sys.getrefcount(x) for x in own]
    assert all(h > b for h, b in zip(held, before, strict=True))
    del copies, copy
    assert [sys.getrefcount(x) for x in own] == before


def test_empty_copies_hold_the_shared_empty_table_as_cpythons_do(forge_spy):
    sources = [{} for _ in range(5)]
    at = np.zeros(5, dtype=np.int64)
    fns = _capi.api().fns
    found = np.array([id(d) for d in sources], dtype=np.int64)
    _parallel_copies._forge_all(found[:0], found[:0], at[:0])  # (loads the compiled code)
    holders = _empty_table_holders()
    assert _parallel_copies.copy_data_dicts(fns, np.arange(5), found, at) == 0
    assert forge_spy[-1] == 5
    counted = _empty_table_holders() - holders
    assert counted in (0, 5)  # 3.12+: immortal, left alone; 3.11: one per copy
    copies = [_capi._adopt(int(a), fns) for a in at]
    assert copies == sources and not any(gc.is_tracked(c) for c in copies)
    assert len({id(c) for c in copies} | {id(d) for d in sources}) == 10
    copies[0]["x"] = [1]  # its own table now, and tracked as a dict holding a list
    assert sources[0] == {} and gc.is_tracked(copies[0])
    del copies
    assert _empty_table_holders() - holders == 0


def test_copies_grow_and_shrink_as_dicts(forge_spy):
    sources = [{"weight": float(i)} for i in range(50)]
    at = np.zeros(len(sources), dtype=np.int64)
    fns = _capi.api().fns
    found = np.array([id(d) for d in sources], dtype=np.int64)
    assert _parallel_copies.copy_data_dicts(fns, np.arange(50)[::-1].copy(), found, at) == 0
    copies = [_capi._adopt(int(a), fns) for a in at]
    assert copies == sources[::-1]
    for i, copy in enumerate(copies):
        copy.update((k, k) for k in range(i))  # tables resized past the cloned one
        assert len(copy) == i + 1 and copy[i - 1 if i else "weight"] is not None
        copy.clear()
        assert copy == {}
    assert all(not gc.is_tracked(c) for c in copies)


def test_a_dict_subclass_is_refused(forge_spy):
    class Tagged(dict):
        pass

    sources = [{"weight": 1}, Tagged(weight=2), {"weight": 3}]
    at = np.zeros(3, dtype=np.int64)
    fns = _capi.api().fns
    found = np.array([id(d) for d in sources], dtype=np.int64)
    assert _parallel_copies.copy_data_dicts(fns, np.arange(3), found, at) == -2
    _capi._release_all(fns, at)  # (what build_graph does after a refusal)


def _check_k_core(G) -> None:
    H = nx.k_core(G, backend=BACKEND)
    expected = nx.k_core(G)
    assert nx.utils.graphs_equal(H, expected)
    assert [list(H[u].items()) for u in H] == [list(expected[u].items()) for u in expected]
    labels = {id(v) for v in G}  # (ints past 256: made anew, they would be other objects)
    assert all(id(v) in labels for v in H)  # G's own label objects, as NetworkX's copy
    u = next(u for u in H if H[u])
    v = next(iter(H[u]))  # (not through H.edges: that view and H would make a cycle)
    other = H._pred[v][u] if H.is_directed() else H[v][u]
    assert H[u][v] is other and H[u][v] is not G[u][v]  # one copy, shared by both rows


@pytest.mark.parametrize("directed", [False, True])
def test_unweighted_k_core_with_attributes_equals_networkx(forge_spy, directed):
    """Empty edge data and node attribute dicts (most of them empty, some not) copied by the
    workers: the result equals NetworkX's and its dicts are its own."""
    G = nx.gnm_random_graph(400, 3000, seed=6, directed=directed)
    kept = next(iter(nx.k_core(G)))
    for v in list(G)[::7]:
        G.nodes[v]["color"] = f"c{v}"
    G.nodes[kept]["color"] = "kept"
    _check_k_core(G)
    assert len(forge_spy) == 2 and forge_spy[0] > 0 and forge_spy[1] > 0  # nodes, then edges
    H = nx.k_core(G, backend=BACKEND)
    assert H.nodes[kept] == {"color": "kept"} and H.nodes[kept] is not G.nodes[kept]
    H.nodes[kept]["color"] = "changed"
    empty = next(v for v in H if not H.nodes[v])
    H.nodes[empty]["new"] = 1
    assert G.nodes[kept]["color"] == "kept" and G.nodes[empty] == {}
    del H
    G.__networkx_cache__.clear()
    gc.collect()
    holders = _empty_table_holders()  # (after the compiled code and caches were loaded)
    nx.k_core(G, backend=BACKEND)
    G.__networkx_cache__.clear()
    gc.collect()
    assert _empty_table_holders() == holders  # every empty copy freed (3.11 counts them)


def test_node_attribute_dict_subclass_or_failed_put_leaves_nothing_behind(forge_spy, monkeypatch):
    """A node attribute dict that is not a plain ``dict`` (the copies made are released, the
    result built another way), then a put into ``H._node`` that fails (``MemoryError``, the
    copies not put released): the attribute values keep their references either way."""

    class Attrs(dict):
        pass

    G = nx.gnm_random_graph(300, 2000, seed=8)
    values = [float(v) + 0.5 for v in G]
    for v, x in zip(G, values, strict=True):
        G.nodes[v]["x"] = x
    before = [sys.getrefcount(x) for x in values]
    odd = list(G)[150]
    G._node[odd] = Attrs(G._node[odd])
    H = nx.k_core(G, backend=BACKEND)  # (built the other way: equal, its own label objects)
    K = nx.k_core(G)
    assert nx.utils.graphs_equal(H, K) and dict(H.nodes(data=True)) == dict(K.nodes(data=True))
    del K
    del H
    gc.collect()
    assert [sys.getrefcount(x) for x in values] == before
    G._node[odd] = dict(G._node[odd])
    G.__networkx_cache__.clear()
    calls = []
    real = _capi_graph._put_nodes

    def failing(fns, node_out, visit, copies, info):  # puts half, then fails as CPython would
        calls.append(visit.size)
        half = visit.size // 2
        real(fns, node_out, visit[:half], copies[:half], info)
        return -1

    monkeypatch.setattr(_capi_graph, "_put_nodes", failing)
    with pytest.raises(MemoryError):
        nx.k_core(G, backend=BACKEND)
    assert calls and forge_spy[-1] > 0
    gc.collect()
    assert [sys.getrefcount(x) for x in values] == before


@pytest.mark.parametrize("directed", [False, True])
def test_k_core_with_worker_copies_equals_networkx(forge_spy, directed):
    """Undirected rows take the copies through the workers' rows, directed ones (successor
    and predecessor rows) through the one-at-a-time build."""
    G = nx.gnm_random_graph(400, 3000, seed=5, directed=directed)
    weights = {e: float(i) + 0.25 for i, e in enumerate(G.edges)}
    nx.set_edge_attributes(G, weights, "weight")
    held = list(weights.values())[:50]
    before = [sys.getrefcount(w) for w in held]
    _check_k_core(G)
    assert forge_spy and forge_spy[-1] > 0
    assert [sys.getrefcount(w) for w in held] == before  # every copy freed, its refs given back


def test_refused_with_debug_allocator_hooks(monkeypatch):
    monkeypatch.setattr(_parallel_copies, "_STATE", {})
    monkeypatch.setenv("PYTHONMALLOC", "debug")
    assert not _parallel_copies.allowed()
    monkeypatch.setattr(_parallel_copies, "_STATE", {})
    monkeypatch.setenv("PYTHONMALLOC", "malloc")
    assert _parallel_copies.allowed()


def test_refused_under_an_allocator_wrapper(monkeypatch):
    import tracemalloc

    assert _parallel_copies._object_allocator_unwrapped()
    tracemalloc.start()  # (its hooks wrap the object allocator, with a context)
    try:
        monkeypatch.setattr(_parallel_copies, "_STATE", {})
        assert not _parallel_copies.allowed()
    finally:
        tracemalloc.stop()
    monkeypatch.setattr(_parallel_copies, "_STATE", {})
    # (3.13.0's tracemalloc leaves its reference tracer set once started: still refused then)
    assert _parallel_copies.allowed() != _parallel_copies._ref_tracer_set()
