"""CPython's set iteration order computed from the keys' hashes (``warpgraph.nx._set_order``)
against the sets CPython builds (the oracle): rows of every size up to past a resize at 50,000
keys, int, str, tuple and float keys, clustered and negative hashes; and ``local_efficiency``'s
neighbour orders from it against the orders of the sets themselves, with a fallback where two
labels hash equally."""

from __future__ import annotations

import random

import numpy as np
import pytest

nx = pytest.importorskip("networkx")

from nx_labels import random_graph  # noqa: E402  (tests/nx_labels.py)
from warpgraph.nx import _set_order  # noqa: E402
from warpgraph.nx import efficiency as nx_efficiency  # noqa: E402
from warpgraph.nx.interface import backend_interface  # noqa: E402


def python_orders(rows: list[list]) -> list[int]:
    """Each row's positions in the order ``set(iter(row))`` lists its keys."""
    out, lo = [], 0
    for row in rows:
        position = {k: lo + i for i, k in enumerate(row)}
        out.extend(position[k] for k in set(iter(row)))
        lo += len(row)
    return out


def computed_orders(rows: list[list], sort_from: int = 1 << 62) -> list[int]:
    flat = [k for row in rows for k in row]
    indptr = np.cumsum([0] + [len(row) for row in rows])
    hashes = np.fromiter(map(hash, flat), dtype=np.int64, count=len(flat))
    return _set_order.set_orders(indptr, np.arange(len(flat)), hashes, sort_from).tolist()


def distinct_hashes(keys: list) -> list:
    seen, out = set(), []
    for k in keys:
        if hash(k) not in seen:
            seen.add(hash(k))
            out.append(k)
    return out


def test_layout_known_on_this_python():
    assert _set_order.available()


@pytest.mark.parametrize("seed", range(6))
def test_same_order_as_cpython_sets(seed):
    rng = random.Random(seed)
    rows = []
    for size in [0, 1, 4, 5, 6, 19, 20, 21, *rng.sample(range(22, 700), 25)]:
        spread = rng.choice([8, 40, 1 << 16, 1 << 40, 1 << 63])
        ints = [rng.randrange(-spread, spread) for _ in range(size)]
        kind = rng.choice(["int", "str", "tuple", "float", "mixed"])
        keys = {
            "int": ints,
            "str": [f"v{x}" for x in ints],
            "tuple": [(x % 7, x) for x in ints],
            "float": [x / 4 for x in ints],
            "mixed": [rng.choice([x, f"{x}", (x,)]) for x in ints],
        }[kind]
        rows.append(distinct_hashes(list(dict.fromkeys(keys))))
    assert computed_orders(rows) == python_orders(rows)


def test_past_the_large_set_rule():
    """A resize that finds more than 50,000 keys grows the table to 2x, not 4x, its keys: first
    at 157,287 keys (``LARGE_SET``), so this set of 170,000 takes that rule once."""
    rng = np.random.default_rng(3)
    rows = [distinct_hashes(rng.integers(-(1 << 40), 1 << 40, 170000).tolist())]
    assert len(rows[0]) > _set_order.LARGE_SET
    assert computed_orders(rows) == python_orders(rows)
    assert _set_order.available(len(rows[0]))


def test_long_rows_in_id_order():
    """Rows of ``sort_from`` keys or more come in id order (NetworkX's node order)."""
    indptr, ids = np.array([0, 3, 5]), np.array([5, 3, 9, 40, 8])
    order = _set_order.set_orders(indptr, ids, ids, sort_from=3)
    assert order.tolist() == [3, 5, 9, *list(set(iter([40, 8])))]


@pytest.mark.parametrize("kind", ["int", "str", "tuple", "mixed"])
@pytest.mark.parametrize("seed", range(4))
def test_neighbour_orders_as_the_sets(seed, kind):
    rng = random.Random(seed)
    G = random_graph(nx, seed, directed=False, kind=kind, n=rng.randint(1, 300),
                     edges_per_node=rng.choice([2, 6, 40]))  # fmt: skip
    W = backend_interface.convert_from_nx(G)
    indptr, order = nx_efficiency._neighbour_orders(W)
    rows = W.any_order
    ids = np.asarray(rows.indices, dtype=np.int64)
    assert np.array_equal(order, nx_efficiency._sets_built(W, indptr, ids))
    assert nx.local_efficiency(G, backend="warpgraph") == nx.local_efficiency(G)


def test_equal_hashes_build_the_sets():
    """-1 and -2 hash equally: CPython compares them, so the sets are built by CPython."""
    G = nx.Graph([(-1, 0), (-2, 0), (-1, 3), (-2, 3), (3, 4), (4, 5), (5, 6), (6, 7)])
    W = backend_interface.convert_from_nx(G)
    assert nx_efficiency._distinct_node_hashes(W, 3) is None
    assert nx.local_efficiency(G, backend="warpgraph") == nx.local_efficiency(G)


def test_bad_rows_refused():
    """Rows the compiled loop would read out of bounds are refused with the reason."""
    ids = np.arange(4)
    with pytest.raises(ValueError, match="one length"):
        _set_order.set_orders(np.array([0, 4]), ids, ids[:3], 10)
    with pytest.raises(ValueError, match="rise from 0"):
        _set_order.set_orders(np.array([0, 5]), ids, ids, 10)
    with pytest.raises(ValueError, match="rise from 0"):
        _set_order.set_orders(np.array([0, 3, 2, 4]), ids, ids, 10)
    with pytest.raises(ValueError, match="1-D"):
        _set_order.set_orders(np.array([]), ids, ids, 10)
    with pytest.raises(ValueError, match="sort_from"):
        _set_order.set_orders(np.array([0, 4]), ids, ids, -1)
