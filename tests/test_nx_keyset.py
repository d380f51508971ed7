"""Sets of a dict's keys built in parallel (:func:`warpgraph.nx._keyset.key_set`): NetworkX's
majority component made from ``G._node``.

Each set is compared with CPython's own: equal, every key found by ``in`` (CPython's probe must
reach where the workers put it), still a working set after additions, removals, ``pop`` and a
resize; the keys' reference counts are balanced once it is dropped; tables it cannot read are
refused (None) and a bad mask raises.
"""

from __future__ import annotations

import gc
import random
import sys

import numpy as np
import pytest

nx = pytest.importorskip("networkx")

from warpgraph.nx import _common, _keyset  # noqa: E402
from warpgraph.nx.interface import backend_interface  # noqa: E402

usable = pytest.mark.skipif(
    _keyset.key_set({0: None}) is None, reason="CPython's set and dict layouts are not usable here"
)


def _keys(kind: str, n: int, rng: random.Random) -> list:
    if kind == "int":
        return list(range(n))
    if kind == "negative":  # negative hashes (hash(-1) == -2) exercise the unsigned probe
        return [-(i + 1) * 7919 for i in range(n)]
    if kind == "str":
        return [f"v{rng.random()}" for _ in range(n)]
    if kind == "tuple":  # tuple hashes are spread over the whole int64 range, many negative
        return [(i, f"t{i}") for i in range(n)]
    if kind == "float":
        return [i + 0.5 for i in range(n)]
    return [x for i in range(n) for x in ([i, f"s{i}", (i,), i + 0.25][i % 4],)]  # mixed


KINDS = ["int", "negative", "str", "tuple", "float", "mixed"]


@usable
@pytest.mark.parametrize("kind", KINDS)
@pytest.mark.parametrize("n", [1, 5, 9, 300, 4097])
def test_equal_to_cpythons_set(kind, n):
    rng = random.Random(n)
    keys = _keys(kind, n, rng)
    source = dict.fromkeys(keys)
    for keep in (None, np.array([rng.random() < 0.7 for _ in range(n)])):
        flags = [True] * n if keep is None else keep.tolist()
        built = _keyset.key_set(source, keep)
        expected = {k for k, f in zip(keys, flags, strict=True) if f}
        assert type(built) is set and built == expected and len(built) == len(expected)
        assert all(k in built for k in expected)
        assert not any(k in built for k, f in zip(keys, flags, strict=True) if not f)


@usable
@pytest.mark.parametrize("kind", ["int", "str", "tuple"])
def test_a_working_set_afterwards(kind):
    """Additions up to several resizes, removals, discard of absent keys, pop until empty."""
    keys = _keys(kind, 2000, random.Random(3))
    built = _keyset.key_set(dict.fromkeys(keys))
    reference = set(keys)
    extra = [("extra", i) for i in range(5000)]  # past the next resize
    for x in extra:
        built.add(x)
        reference.add(x)
    for k in keys[::3]:
        built.remove(k)
        reference.remove(k)
    built.discard("absent")
    assert built == reference and all(k in built for k in reference)
    assert built | {1.5} == reference | {1.5} and built & reference == reference
    while built:
        reference.remove(built.pop())
    assert not reference and len(built) == 0


@usable
def test_references_are_balanced():
    keys = [f"key{i}" for i in range(600)] + [(i, i) for i in range(600)]
    before = [sys.getrefcount(k) for k in keys]
    source = dict.fromkeys(keys)
    with_dict = [sys.getrefcount(k) for k in keys]
    built = _keyset.key_set(source, np.arange(len(keys)) % 2 == 0)
    assert [sys.getrefcount(k) for k in keys] == [c + (1 - i % 2) for i, c in enumerate(with_dict)]
    del built
    gc.collect()
    assert [sys.getrefcount(k) for k in keys] == with_dict
    del source
    assert [sys.getrefcount(k) for k in keys] == before


@usable
def test_the_set_is_tracked_and_collected():
    class Node:  # instances: hashed by id, can hold references
        pass

    nodes = [Node() for _ in range(50)]
    built = _keyset.key_set(dict.fromkeys(nodes))
    assert gc.is_tracked(built) and built == set(nodes)
    nodes[0].back = built  # a cycle through the set: the collector must see its keys
    del built, nodes
    assert gc.collect() >= 1


def test_tables_it_cannot_read_are_refused():
    holes = dict.fromkeys(range(100))
    del holes[5]  # a deleted slot: the entries are no longer one per key
    assert _keyset.key_set(holes) is None
    assert _keyset.key_set({}) is None

    class Sub(dict):
        pass

    assert _keyset.key_set(Sub.fromkeys(range(10))) is None


@usable
@pytest.mark.parametrize("kind", KINDS)
def test_keys_at_positions(kind):
    """The keys at given positions (in any order, one given twice: inserted once) equal
    CPython's set of them; references balanced."""
    rng = random.Random(11)
    keys = _keys(kind, 3000, rng)
    source = dict.fromkeys(keys)
    at = np.array([*rng.sample(range(3000), 700), 5, 5])
    expected = {keys[j] for j in at}
    before = [sys.getrefcount(k) for k in keys[:50]]
    built = _keyset.key_set(source, at=at)
    assert type(built) is set and built == expected and len(built) == len(expected)
    assert all(k in built for k in expected)
    del built
    gc.collect()
    assert [sys.getrefcount(k) for k in keys[:50]] == before
    assert _keyset.key_set(source, at=np.array([], dtype=np.int64)) == set()


@usable
def test_bad_positions_raise():
    source = dict.fromkeys(range(10))
    with pytest.raises(IndexError, match=r"1 positions in at are outside 0\.\.9"):
        _keyset.key_set(source, at=np.array([3, 10]))
    with pytest.raises(IndexError, match="outside"):
        _keyset.key_set(source, at=np.array([-1]))
    with pytest.raises(TypeError, match="integer positions"):
        _keyset.key_set(source, at=np.array([1.0]))
    with pytest.raises(ValueError, match="not both"):
        _keyset.key_set(source, np.ones(10, dtype=bool), at=np.array([1]))


@usable
@pytest.mark.parametrize("kind", KINDS)
@pytest.mark.parametrize("n", [0, 1, 9, 300, 4097])
def test_sets_of_address_hash_pairs(kind, n):
    """:func:`_keyset.pair_set`: CPython's set of the objects, each found by ``in``, a working
    set afterwards; an address given twice taken once; references balanced once dropped."""
    keys = _keys(kind, n, random.Random(n + 1))
    own = [k for k in keys if not (type(k) is int and -5 <= k <= 256)]  # (not CPython's shared)
    before = [sys.getrefcount(k) for k in own]
    pairs = np.array([(id(k), hash(k)) for k in keys] * 2, dtype=np.int64).reshape(-1, 2)
    built = _keyset.pair_set(pairs)
    assert type(built) is set and built == set(keys) and len(built) == len(set(keys))
    assert all(k in built for k in keys) and "absent" not in built
    assert [sys.getrefcount(k) for k in own] == [c + 1 for c in before]
    built.add("extra")
    assert "extra" in built and len(built) == n + 1
    del built
    gc.collect()
    assert [sys.getrefcount(k) for k in own] == before


@usable
def test_bad_pairs_raise():
    for bad in (np.zeros((3, 3), dtype=np.int64), np.zeros(4, dtype=np.int64),
                np.zeros((2, 2), dtype=np.int32), [[id(1), hash(1)]]):  # fmt: skip
        with pytest.raises(TypeError, match=r"shape \(k, 2\)"):
            _keyset.pair_set(bad)


@usable
def test_a_bad_mask_raises():
    with pytest.raises(ValueError, match="one flag per key"):
        _keyset.key_set(dict.fromkeys(range(10)), np.ones(9, dtype=bool))


@usable
def test_table_sizes_are_cpythons():
    """The table ``set(d)`` gets from CPython for a dict of ``count`` keys (its mask read from
    the set), and the built set's own."""
    import ctypes

    def slots(s: set) -> int:
        return ctypes.c_ssize_t.from_address(id(s) + 32).value + 1  # PySetObject.mask

    for count in [*range(0, 40), 1000, 4097, 131072]:
        source = dict.fromkeys(range(count))
        assert _keyset._table_slots(count) == slots(set(source)), count
        if count:
            assert slots(_keyset.key_set(source)) == slots(set(source)), count


@usable
def test_majority_components_take_the_parallel_set(monkeypatch):
    """NetworkX's component of most nodes comes from :func:`key_set` (checked by a spy) and
    equals NetworkX's; with it refused, the fallback gives the same."""
    made = []
    real = _keyset.key_set
    monkeypatch.setattr(_common, "NATIVE_MIN", 0)
    monkeypatch.setattr(
        _keyset, "key_set", lambda d, keep=None: made.append(real(d, keep)) or made[-1]
    )
    G = nx.path_graph(400)
    G.add_nodes_from(range(400, 450))
    theirs = list(nx.connected_components(G))
    assert list(nx.connected_components(G, backend="warpgraph")) == theirs
    assert len(made) == 1 and made[0] == set(range(400))
    monkeypatch.setattr(_keyset, "key_set", lambda d, keep=None: None)
    backend_interface.convert_from_nx(G)  # (no cache involved: the result is rebuilt)
    assert list(nx.connected_components(G, backend="warpgraph")) == theirs


def test_the_self_test_passes_where_the_layouts_are_read():
    """On the interpreters whose tables :mod:`._cpython` reads (CPython 3.11-3.13 with the
    GIL, not a debug build) the parallel path must be taken, not silently skipped."""
    from warpgraph.nx import _capi, _cpython

    if _cpython.available() and _capi.DIRECT_REFCOUNTS:
        assert _keyset._self_tested()
        assert _keyset.key_set({0: None}) == {0}


@pytest.mark.parametrize("directed", [False, True])
def test_a_connected_graph_copies_no_labels(directed, monkeypatch):
    """One component: its set is every node, built without the per-node labels (a count
    alone), for the component generators and ``node_connected_component``; equal to
    NetworkX's, a new set each call."""
    from warpgraph.nx import components

    copied = []
    real_host = components.host
    monkeypatch.setattr(components, "host", lambda a: copied.append(1) or real_host(a))
    G = nx.cycle_graph([f"n{i}" for i in range(700)], create_using=nx.DiGraph if directed else None)
    if directed:
        theirs = list(nx.weakly_connected_components(G))
        ours = list(nx.weakly_connected_components(G, backend="warpgraph"))
    else:
        theirs = list(nx.connected_components(G))
        ours = list(nx.connected_components(G, backend="warpgraph"))
        one = nx.node_connected_component(G, "n5", backend="warpgraph")
        assert one == theirs[0] and one is not ours[0]
    assert ours == theirs and len(ours) == 1 and copied == []
    small = nx.path_graph(10)  # under NATIVE_MIN: the set is built by the other builders
    assert list(nx.connected_components(small, backend="warpgraph")) == [set(range(10))]
    assert copied == []
    G.add_node("alone")  # two components of str labels: NetworkX's search order, no labels
    U = G.to_undirected()
    ours = [list(c) for c in nx.connected_components(U, backend="warpgraph")]
    assert ours == [list(c) for c in nx.connected_components(U)]
