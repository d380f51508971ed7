"""NetworkX backend: ``nx.global_efficiency(G, backend="warpgraph")`` and
``nx.local_efficiency`` against plain NetworkX (the oracle): the same float bit for bit and the
same type (``int`` 0 below two nodes), on random graphs with self-loops, isolated nodes and
int, string, tuple and mixed labels (the node order is NetworkX's, whatever the labels; each
neighbourhood's order is a Python set's); directed graphs are refused as NetworkX refuses
them."""

from __future__ import annotations

import random

import pytest

nx = pytest.importorskip("networkx")

from nx_labels import random_graph  # noqa: E402  (tests/nx_labels.py)
from warpgraph.nx.interface import backend_interface  # noqa: E402

BACKEND = "warpgraph"
if BACKEND not in nx.utils.backends.backends:
    pytest.skip("warpgraph is not registered as a NetworkX backend", allow_module_level=True)


def assert_same(G, func=nx.global_efficiency):
    theirs = func(G)
    ours = func(G, backend=BACKEND)
    assert ours == theirs and type(ours) is type(theirs), (ours, theirs)


@pytest.mark.parametrize("kind", ["int", "str", "tuple", "mixed"])
@pytest.mark.parametrize("seed", range(12))
def test_same_as_networkx(seed, kind):
    n = random.Random(seed).randint(1, 120)
    assert_same(random_graph(nx, seed, directed=False, kind=kind, n=n, edges_per_node=2))


def test_lattice_and_small_graphs():
    assert_same(nx.grid_2d_graph(30, 40))  # (levels past the first room of 64)
    for G in (nx.Graph(), nx.empty_graph(1), nx.empty_graph(2), nx.path_graph(2)):
        assert_same(G)
    assert type(nx.global_efficiency(nx.empty_graph(1), backend=BACKEND)) is int


@pytest.mark.parametrize("kind", ["int", "str", "tuple", "mixed"])
@pytest.mark.parametrize("seed", range(12))
def test_local_same_as_networkx(seed, kind):
    rng = random.Random(seed)
    G = random_graph(nx, seed, directed=False, kind=kind, n=rng.randint(1, 120),
                     edges_per_node=rng.choice([2, 6]))  # fmt: skip
    assert_same(G, nx.local_efficiency)


def test_local_dense_graphs_and_self_loops():
    """Neighbourhoods of half the nodes or more are listed in node order, fewer in a set's;
    a self-loop puts the node in its own neighbourhood."""
    G = nx.relabel_nodes(nx.gnp_random_graph(40, 0.6, seed=2), {i: f"v{i}" for i in range(40)})
    G.add_edges_from([("v3", "v3"), ("v7", "v7")])
    assert_same(G, nx.local_efficiency)
    assert_same(nx.complete_graph(5), nx.local_efficiency)
    assert_same(nx.empty_graph(3), nx.local_efficiency)


def test_local_follows_the_set_order():
    """On this graph ~80 of the 300 neighbourhood sums differ in their bits between NetworkX's
    set order and id order (how many depends on the process's string hashing, which the set
    order follows): the backend's equality above is the order, not luck."""
    from warpgraph.algorithms.bfs.efficiency import neighbourhood_efficiencies
    from warpgraph.nx.efficiency import _neighbour_orders

    G = nx.relabel_nodes(
        nx.gnp_random_graph(300, 0.05, seed=0), {i: f"node{i}" for i in range(300)}
    )
    W = backend_interface.convert_from_nx(G)
    in_set_order = neighbourhood_efficiencies(W.any_order, *_neighbour_orders(W))
    assert (in_set_order != neighbourhood_efficiencies(W.any_order)).sum() > 20
    assert_same(G, nx.local_efficiency)


def test_null_graph_and_directed_graphs():
    with pytest.raises(ZeroDivisionError):
        nx.local_efficiency(nx.Graph(), backend=BACKEND)
    D = nx.DiGraph([(0, 1)])
    for func in (nx.global_efficiency, nx.local_efficiency):
        with pytest.raises(nx.NetworkXNotImplemented):
            func(D, backend=BACKEND)
        assert isinstance(backend_interface.can_run(func.__name__, (D,), {}), str)
