"""NetworkX backend: ``nx.global_efficiency(G, backend="warpgraph")`` against plain NetworkX
(the oracle): the same float bit for bit and the same type (``int`` 0 below two nodes), on
random graphs with self-loops, isolated nodes and int, string, tuple and mixed labels (the
node order is NetworkX's, whatever the labels); directed graphs are refused as NetworkX
refuses them."""

from __future__ import annotations

import random

import pytest

nx = pytest.importorskip("networkx")

from nx_labels import random_graph  # noqa: E402  (tests/nx_labels.py)
from warpgraph.nx.interface import backend_interface  # noqa: E402

BACKEND = "warpgraph"
if BACKEND not in nx.utils.backends.backends:
    pytest.skip("warpgraph is not registered as a NetworkX backend", allow_module_level=True)


def assert_same(G):
    theirs = nx.global_efficiency(G)
    ours = nx.global_efficiency(G, backend=BACKEND)
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


def test_directed_graphs_are_refused():
    D = nx.DiGraph([(0, 1)])
    with pytest.raises(nx.NetworkXNotImplemented):
        nx.global_efficiency(D, backend=BACKEND)
    assert isinstance(backend_interface.can_run("global_efficiency", (D,), {}), str)
