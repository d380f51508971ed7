"""The component sets of the backend iterate as NetworkX's (``nx/_component_order.py``).

NetworkX adds each component's nodes to its set in the order of its breadth-first search, so
``list(component)`` and ``next(iter(component))`` depend on that order wherever labels
compete for a hash slot: ``str`` and tuple labels, scattered or negative ints, components of
a large graph whose ids span more than their table. Compared here element by element (not as
sets) against NetworkX itself: ``connected_components``, ``weakly_connected_components``
(``_succ`` rows then ``_pred`` rows), ``node_connected_component``, on first calls (the
conversion deferred, components read in place) and cached ones, small and large graphs
(the largest component from the node dict, the in-place search of a small component), and
the compiled pieces against plain Python.
"""

from __future__ import annotations

import random

import numpy as np
import pytest

nx = pytest.importorskip("networkx")

from warpgraph.nx._component_order import (  # noqa: E402
    grown_mask,
    order_free,
    search_orders,
    spans,
)

needs_backend = pytest.mark.skipif(
    "warpgraph" not in nx.utils.backends.backends,
    reason="warpgraph is not a NetworkX backend here",
)
KINDS = ["ids", "shuffled", "scattered", "negative", "str", "tuple"]


def _labels(kind: str, n: int, rng: random.Random) -> list:
    ids = list(range(n))
    if kind == "ids":
        return ids
    rng.shuffle(ids)
    return {
        "shuffled": ids,
        "scattered": [97 * i + 5 for i in ids],
        "negative": [-i for i in ids],  # (-1 and -2 hash alike)
        "str": [f"v{i}" for i in ids],
        "tuple": [(i % 5, f"t{i}") for i in ids],
    }[kind]


def _graph(kind: str, n: int, m: int, seed: int, directed: bool, giant: bool):
    rng = random.Random(seed)
    labels = _labels(kind, n, rng)
    G = nx.DiGraph() if directed else nx.Graph()
    G.add_nodes_from(labels)
    core = n // 2 if giant else n
    for _ in range(m):  # (a giant among the first half of the labels, small ones elsewhere)
        if giant and rng.random() < 0.7:
            u, v = labels[rng.randrange(core)], labels[rng.randrange(core)]
        else:
            u = rng.randrange(core if giant else 0, n)
            u, v = labels[u], labels[min(n - 1, u + rng.randrange(1, 4))]
        G.add_edge(u, v)
    if giant:  # (a small component of far-apart ids: more than its table spans)
        G.add_edge(labels[-1], labels[core])
    spacing = 1024 if n > 5000 else 64  # (ids that share a slot in any table of this size)
    for j in range(1, 5):
        G.add_edge(labels[n - 1], labels[n - 1 - spacing * j])
    return G


def _listed(sets) -> list[list]:
    return [list(s) for s in sets]


def _unconverted(G) -> bool:
    (W,) = G.__networkx_cache__["backends"]["warpgraph"].values()
    return W.pending is G


#: The functions that return one set (the others a generator of sets).
ONE_SET = {"node_connected_component", "descendants", "ancestors", "descendants_at_distance"}


def _both(func, G, *args, in_place: bool = False):
    want = _listed(func(G, *args)) if func.__name__ not in ONE_SET else None
    if want is None:
        want = [list(func(G, *args))]
        G.__networkx_cache__.clear()
        first = [list(func(G, *args, backend="warpgraph"))]
        again = [list(func(G, *args, backend="warpgraph"))]
    else:
        G.__networkx_cache__.clear()
        first = _listed(func(G, *args, backend="warpgraph"))
        again = _listed(func(G, *args, backend="warpgraph"))
    assert first == want, f"first call: {func.__name__}"
    if in_place:  # (the order searched on the dicts: the graph still not converted)
        assert _unconverted(G), func.__name__
    assert again == want, f"cached call: {func.__name__}"


@needs_backend
@pytest.mark.parametrize("kind", KINDS)
@pytest.mark.parametrize("seed", range(4))
def test_small_graphs_iterate_as_networkx(kind, seed):
    for directed in (False, True):
        G = _graph(kind, 300, 280, seed, directed, giant=bool(seed % 2))
        func = nx.weakly_connected_components if directed else nx.connected_components
        _both(func, G)
    U = _graph(kind, 300, 280, seed, False, giant=bool(seed % 2))
    for node in random.Random(seed).sample(list(U), 5):
        _both(nx.node_connected_component, U, node)


@needs_backend
@pytest.mark.parametrize("kind", KINDS)
def test_large_graphs_iterate_as_networkx(kind):
    """Past the in-place readers' sizes: a giant of half the nodes plus small components,
    and a connected graph; the largest set from the node dict where the labels allow it.
    With the labels ``0..n-1`` the orders are searched on the dicts in place (the graphs are
    not converted); other labels are converted and searched in one pass."""
    from warpgraph.nx import _cpython

    in_place = _cpython.available() and kind == "ids"
    for directed in (False, True):
        for giant, m in ((True, 14000), (False, 26000)):
            G = _graph(kind, 12000, m, 7, directed, giant)
            func = nx.weakly_connected_components if directed else nx.connected_components
            _both(func, G, in_place=in_place)
    U = _graph(kind, 12000, 14000, 7, False, giant=True)
    rng = random.Random(3)
    for node in [*rng.sample(list(U), 4), next(iter(U))]:
        _both(nx.node_connected_component, U, node)
    C = nx.cycle_graph(_labels(kind, 9000, random.Random(1)))
    _both(nx.connected_components, C, in_place=in_place)
    _both(nx.node_connected_component, C, next(iter(C)))


@needs_backend
def test_pred_rows_in_networkx_order():
    """A directed graph whose ``_pred`` rows are not in id order: the weak components'
    search reads them in NetworkX's order (tails added newest first here)."""
    rng = random.Random(2)
    labels = [f"w{i}" for i in range(5000)]
    D = nx.DiGraph()
    D.add_nodes_from(labels)
    for _ in range(4000):
        u, v = rng.sample(range(5000), 2)
        D.add_edge(labels[max(u, v)], labels[min(u, v)])
    _both(nx.weakly_connected_components, D)


def test_grown_mask_is_pythons():
    """The table sizes against CPython's own sets: a set of ``k`` keys ``0..k-1`` added
    one at a time lists them in rising order exactly while they fit below its mask."""
    for k in [1, 4, 5, 6, 18, 19, 20, 76, 77, 300, 1229, 1230, 5000]:
        mask = int(grown_mask([k])[0])
        keys = list(range(mask + 1 - k, mask + 1))  # (the top k slots: rising order)
        assert list(set(keys)) == keys
        over = list(range(mask + 2 - k, mask + 2))  # (one past: the last wraps to slot 0)
        assert next(iter(set(over))) == mask + 1


def test_order_free_against_python_sets():
    """Where ``order_free`` says yes, sets of those ids built in random orders (one at a time,
    and from a dict at once) list them alike; its no covers the cases that differ."""
    rng = random.Random(4)
    differ = 0
    for _ in range(400):
        k = rng.randint(1, 60)
        span = rng.choice([k, 2 * k, 8 * k, 200])
        lo = rng.choice([0, rng.randrange(0, 500)])
        ids = rng.sample(range(lo, lo + max(span, k)), k)
        orders = []
        for _ in range(4):
            rng.shuffle(ids)
            orders.append(list(set(iter(ids))))
            orders.append(list(set(dict.fromkeys(ids))))
        same = all(o == orders[0] for o in orders)
        if order_free([min(ids)], [max(ids)], [k], presized=True)[0]:
            assert same and orders[0] == sorted(ids)
        if order_free([min(ids)], [max(ids)], [k])[0]:
            grown = [list(set(iter(rng.sample(ids, k)))) for _ in range(4)]
            assert all(g == grown[0] for g in grown)
        differ += not same
    assert differ  # (the random cases include ones where the order matters)


def test_search_orders_against_python():
    """NetworkX's ``_plain_bfs`` order from given starts (succ then pred rows), and the
    refusal of a wrong component size (nothing written past the result)."""
    rng = np.random.default_rng(5)
    n, m = 60, 70
    src, dst = rng.integers(0, n, m), rng.integers(0, n, m)
    succ = [[] for _ in range(n)]
    pred = [[] for _ in range(n)]
    for u, v in zip(src.tolist(), dst.tolist(), strict=True):
        if v not in succ[u]:
            succ[u].append(v)
            pred[v].append(u)

    def csr(rows):
        indptr = np.cumsum([0] + [len(r) for r in rows])
        return indptr, np.array([x for r in rows for x in r], dtype=np.int64)

    seen, starts, sizes, want = set(), [], [], []
    for s in range(n):
        if s in seen:
            continue
        order, level = [s], [s]
        found = {s}
        while level:
            following = []
            for v in level:
                for w in succ[v] + pred[v]:
                    if w not in found:
                        found.add(w)
                        following.append(w)
                        order.append(w)
            level = following
        seen |= found
        starts.append(s)
        sizes.append(len(order))
        want += order
    got = search_orders(csr(succ), csr(pred), starts, sizes)
    assert got.tolist() == want
    by_id = np.repeat(np.arange(len(sizes)), sizes)[np.argsort(got)]
    first, lo, hi, size = spans(by_id, len(sizes), np.zeros(0, dtype=np.int64))
    assert size.tolist() == sizes and lo.tolist() == first.tolist() == starts
    _, lo2, hi2, _ = spans(by_id, len(sizes), 3 * np.arange(n) - 7)  # (hashes given)
    assert lo2.tolist() == (3 * lo - 7).tolist() and hi2.tolist() == (3 * hi - 7).tolist()
    assert hi.tolist() == [max(p) for p in np.split(got, np.cumsum(sizes)[:-1])]
    with pytest.raises(ValueError, match="does not reach"):
        search_orders(csr(succ), csr(pred), starts[:1], [sizes[0] + 1])
    if sizes[0] > 1:
        with pytest.raises(ValueError, match="does not reach"):
            search_orders(csr(succ), csr(pred), starts[:1], [sizes[0] - 1])
    with pytest.raises(ValueError, match="starts"):
        search_orders(csr(succ), None, [n], [1])


@needs_backend
@pytest.mark.parametrize("kind", KINDS)
@pytest.mark.parametrize("n", [300, 6000])
def test_reached_sets_iterate_as_networkx(kind, n):
    """``descendants`` and ``ancestors`` (NetworkX: a set comprehension over ``bfs_edges``)
    and ``descendants_at_distance`` (``set`` of a ``bfs_layers`` layer), directed and
    undirected, short searches on the dicts and whole ones on the conversion: element by
    element, first and cached calls."""
    rng = random.Random(n + len(kind))
    D = nx.gnm_random_graph(n, int(1.3 * n), seed=n, directed=True)
    D = nx.relabel_nodes(D, dict(zip(range(n), _labels(kind, n, rng), strict=True)))
    U = D.to_undirected()
    sources = rng.sample(list(D), 4)
    for G in (D, U):
        for s in sources:
            _both(nx.descendants, G, s)
            _both(nx.ancestors, G, s)
            for depth in (1, 3, 6):
                _both(nx.descendants_at_distance, G, s, depth)


def test_malformed_rows_and_positions_are_refused():
    """Rows the compiled searches would read out of bounds, and key positions past a dict,
    raise ``ValueError`` with the reason instead."""
    from warpgraph.nx import _dict_probes
    from warpgraph.nx._component_order import every_component_order

    good = (np.array([0, 1, 2]), np.array([1, 0]))
    assert every_component_order(good, good)[0].tolist() == [0, 1]
    for bad in [
        (np.array([0, 1, 3]), np.array([1, 0])),  # (offsets past the heads)
        (np.array([1, 1, 2]), np.array([1, 0])),  # (not from 0)
        (np.array([0, 1, 2]), np.array([1, 2])),  # (a head that is no node)
        (np.array([0, 2, 1]), np.array([1, 0])),  # (offsets falling)
    ]:
        with pytest.raises(ValueError, match="CSR offsets"):
            every_component_order(bad, None)
        with pytest.raises(ValueError, match="CSR offsets"):
            search_orders(good, bad, [0], [2])
    with pytest.raises(ValueError, match="CSR offsets"):  # (_pred rows of another node count)
        search_orders(good, (np.array([0, 0]), np.array([], dtype=np.int64)), [0], [2])
    table = {i: None for i in range(10)}
    if _dict_probes.key_addresses(table) is not None:  # (the reader available here)
        assert _dict_probes.key_addresses(table, at=np.array([3, 0])).size == 2
        with pytest.raises(ValueError, match="positions outside"):
            _dict_probes.key_addresses(table, at=np.array([10]))
