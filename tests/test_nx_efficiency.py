"""NetworkX backend: ``nx.global_efficiency(G, backend="warpgraph")``,
``nx.local_efficiency`` and ``nx.harmonic_diameter`` against plain NetworkX (the oracle): the
same float bit for bit and the same type (``int`` 0 below two nodes; ``inf`` and ``nan``), on
random graphs with self-loops, isolated nodes and int, string, tuple and mixed labels (the node
order is NetworkX's, whatever the labels; each neighbourhood's order is a Python set's);
directed graphs are refused by the efficiencies as NetworkX refuses them, and followed along
their arcs by the harmonic diameter."""

from __future__ import annotations

import math
import random

import pytest

nx = pytest.importorskip("networkx")

from nx_labels import random_graph  # noqa: E402  (tests/nx_labels.py)
from warpgraph.nx._common import networkx_version  # noqa: E402
from warpgraph.nx.interface import backend_interface  # noqa: E402

BACKEND = "warpgraph"
if BACKEND not in nx.utils.backends.backends:
    pytest.skip("warpgraph is not registered as a NetworkX backend", allow_module_level=True)


def assert_same(G, func=nx.global_efficiency, **kwargs):
    theirs = func(G, **kwargs)
    ours = func(G, backend=BACKEND, **kwargs)
    same = ours == theirs or (math.isnan(theirs) and math.isnan(ours))
    assert same and type(ours) is type(theirs), (ours, theirs)


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


@pytest.mark.gpu
def test_gpu_same_as_networkx():
    """With the backend on the GPU (the searches there, the sum on the host): NetworkX's bits
    for global efficiency and the harmonic diameter, labels of every kind, a lattice past the
    first room of 64 levels, directed graphs for the harmonic diameter."""
    from nx_compare import backend_device

    with backend_device(nx, "gpu"):
        for seed, kind in enumerate(["int", "str", "tuple", "mixed"]):
            n = random.Random(seed).randint(70, 200)
            assert_same(random_graph(nx, seed, directed=False, kind=kind, n=n, edges_per_node=2))
            for directed in (False, True):
                G = random_graph(nx, seed, directed=directed, kind=kind, n=n, edges_per_node=2)
                assert_same(G, nx.harmonic_diameter)
        assert_same(nx.grid_2d_graph(30, 40))
        assert_same(nx.grid_2d_graph(30, 40), nx.harmonic_diameter)


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


@pytest.mark.parametrize("directed", [False, True])
@pytest.mark.parametrize("kind", ["int", "str", "tuple", "mixed"])
@pytest.mark.parametrize("seed", range(8))
def test_harmonic_diameter_same_as_networkx(seed, kind, directed):
    rng = random.Random(seed)
    G = random_graph(nx, seed, directed=directed, kind=kind, n=rng.randint(1, 120),
                     edges_per_node=rng.choice([1, 2, 6]))  # fmt: skip
    assert_same(G, nx.harmonic_diameter)


def test_harmonic_diameter_small_graphs_and_lattice():
    """``nan`` below two nodes, ``inf`` when no pair is joined; a lattice past the first room of
    64 levels; a directed path (each pair joined one way only)."""
    for G in (nx.Graph(), nx.empty_graph(1), nx.empty_graph(3), nx.path_graph(2),
              nx.DiGraph([(0, 1), (1, 2), (2, 3)]), nx.grid_2d_graph(30, 40)):  # fmt: skip
        assert_same(G, nx.harmonic_diameter)
    G = nx.Graph([(5, 5)])  # (a self-loop: its zero distance is skipped, as NetworkX's `d != 0`)
    assert_same(G, nx.harmonic_diameter)


@pytest.mark.skipif(networkx_version() < (3, 5), reason="weight= is NetworkX 3.5's")
def test_harmonic_diameter_weights():
    """Weights of 1 (or missing) give hop distances and are computed; any other weight is
    Dijkstra's sums, left to NetworkX (NotImplementedError, so automatic dispatch falls back);
    weight functions and ``sp`` are declined by ``can_run``."""
    G = nx.relabel_nodes(nx.gnp_random_graph(60, 0.08, seed=4), str)
    nx.set_edge_attributes(G, 1, "one")
    assert_same(G, nx.harmonic_diameter, weight="one")
    assert_same(G, nx.harmonic_diameter, weight="missing")
    nx.set_edge_attributes(G, 2.0, "two")
    with pytest.raises(NotImplementedError):
        backend_interface.harmonic_diameter(backend_interface.convert_from_nx(
            G, edge_attrs={"two": 1}), weight="two")  # fmt: skip
    args = (G,)
    assert isinstance(backend_interface.can_run("harmonic_diameter", args, {"sp": {}}), str)
    weight = {"weight": lambda u, v, d: 1}
    assert isinstance(backend_interface.can_run("harmonic_diameter", args, weight), str)
    assert backend_interface.can_run("harmonic_diameter", args, {"weight": "two"}) is True
