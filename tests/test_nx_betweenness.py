"""NetworkX backend: ``nx.betweenness_centrality(G, backend="warpgraph")`` and
``nx.edge_betweenness_centrality`` against plain NetworkX (the oracle: same keys in the same
order, values equal to rounding, NaN where NetworkX's is NaN, the same exceptions), for every
combination of ``k``, ``normalized`` and ``endpoints`` on random directed and undirected graphs
with self-loops, isolated nodes and non-integer labels. A sample of ``k`` sources must be
NetworkX's very sample, and leave a shared random state where NetworkX leaves it; edge values
follow the installed version's rescaling (3.4 and 3.5 do not scale samples up); rows out of id
order go through the conversion's permutation; weighted calls go back to NetworkX."""

from __future__ import annotations

import math
import random

import pytest

nx = pytest.importorskip("networkx")

from nx_compare import backend_device  # noqa: E402  (tests/nx_compare.py)
from nx_labels import random_graph  # noqa: E402  (tests/nx_labels.py)
from warpgraph.nx.interface import backend_interface  # noqa: E402

BACKEND = "warpgraph"
if BACKEND not in nx.utils.backends.backends:
    pytest.skip("warpgraph is not registered as a NetworkX backend", allow_module_level=True)

OPTIONS = [
    {"normalized": normalized, "endpoints": endpoints}
    for normalized in (True, False)
    for endpoints in (False, True)
]


def _outcome(func, G, **kwargs):
    """The result, or the exception's type and message."""
    try:
        return func(G, **kwargs)
    except Exception as exc:  # noqa: BLE001  (compared below)
        return type(exc), str(exc)


def assert_same(G, func=nx.betweenness_centrality, **kwargs):
    theirs = _outcome(func, G, backend="networkx", **kwargs)
    ours = _outcome(func, G, backend=BACKEND, **kwargs)
    if isinstance(theirs, tuple):
        assert ours == theirs
        return
    assert isinstance(ours, dict) and list(ours) == list(theirs)
    for node, value in theirs.items():
        got = ours[node]
        assert type(got) is float
        if math.isnan(value):
            assert math.isnan(got), (node, got)
        else:
            assert got == pytest.approx(value, rel=1e-12, abs=1e-12), (node, got, value)


@pytest.mark.parametrize("directed", [False, True])
@pytest.mark.parametrize("seed", range(30))
def test_every_source(seed, directed):
    G = random_graph(nx, seed, directed=directed, kind="mixed" if seed % 2 else "int")
    for options in OPTIONS:
        assert_same(G, **options)


@pytest.mark.parametrize("directed", [False, True])
@pytest.mark.parametrize("seed", range(20))
def test_sampled_sources(seed, directed):
    G = random_graph(nx, seed, directed=directed, kind="str")
    n = len(G)
    for k in sorted({0, 1, 2, min(n, 5), n, n + 1}):
        for options in OPTIONS:
            assert_same(G, k=k, seed=seed, **options)


def test_shared_random_state_is_left_as_networkx_leaves_it():
    G = random_graph(nx, 7, directed=False, kind="int", n=40)
    for k in (3, len(G)):  # (NetworkX 3.5 on draws no sample for k == n)
        theirs, ours = random.Random(11), random.Random(11)
        a = nx.betweenness_centrality(G, k=k, seed=theirs, backend="networkx")
        b = nx.betweenness_centrality(G, k=k, seed=ours, backend=BACKEND)
        assert a == pytest.approx(b, rel=1e-12, abs=1e-12)
        assert theirs.random() == ours.random()


def test_named_graphs():
    for G in (nx.path_graph(9), nx.star_graph(6), nx.cycle_graph(10), nx.complete_graph(7),
              nx.grid_2d_graph(9, 9), nx.krackhardt_kite_graph(), nx.DiGraph(nx.path_graph(6)),
              nx.empty_graph(0), nx.empty_graph(1), nx.empty_graph(2)):  # fmt: skip
        for options in OPTIONS:
            assert_same(G, **options)


@pytest.mark.parametrize("directed", [False, True])
@pytest.mark.parametrize("seed", range(25))
def test_edge_betweenness(seed, directed):
    G = random_graph(nx, seed, directed=directed, kind="mixed" if seed % 2 else "int")
    n = len(G)
    for normalized in (True, False):
        assert_same(G, nx.edge_betweenness_centrality, normalized=normalized)
        for k in sorted({0, 1, min(n, 4), n, n + 1}):  # (3.4-3.5 do not scale samples up)
            options = {"k": k, "seed": seed, "normalized": normalized}
            assert_same(G, nx.edge_betweenness_centrality, **options)


def test_edge_betweenness_of_named_graphs_and_unsorted_rows():
    for G in (nx.path_graph(7), nx.grid_2d_graph(6, 7), nx.complete_graph(6),
              nx.DiGraph(nx.cycle_graph(8)), nx.empty_graph(0), nx.empty_graph(3)):  # fmt: skip
        assert_same(G, nx.edge_betweenness_centrality)
    rng = random.Random(4)  # rows out of id order, self-loops, weights read by a conversion
    for directed in (False, True):
        G = nx.DiGraph() if directed else nx.Graph()
        G.add_nodes_from(rng.sample(range(40), 40))
        for _ in range(120):
            G.add_edge(rng.randrange(40), rng.randrange(40), weight=rng.randint(1, 4))
        assert_same(G, nx.edge_betweenness_centrality)
        W = backend_interface.convert_from_nx(G, edge_attrs={"weight": 1})
        theirs = nx.edge_betweenness_centrality(G, backend="networkx")
        ours = nx.edge_betweenness_centrality(W)
        assert list(ours) == list(theirs) and ours == pytest.approx(theirs, rel=1e-12)


def test_weighted_runs_in_networkx():
    G = nx.path_graph(5)
    for name in ("betweenness_centrality", "edge_betweenness_centrality"):
        reason = backend_interface.can_run(name, (G,), {"weight": "weight"})
        assert isinstance(reason, str) and "weighted" in reason
        assert backend_interface.can_run(name, (G,), {"k": 2}) is True


@pytest.mark.gpu
def test_gpu_matches_networkx():
    with backend_device(nx, "gpu"):
        for seed in range(6):
            G = random_graph(nx, seed, directed=bool(seed % 2), kind="mixed")
            for options in OPTIONS:
                assert_same(G, **options)
                assert_same(G, k=min(len(G), 4), seed=seed, **options)
            assert_same(G, nx.edge_betweenness_centrality)
        G = nx.connected_watts_strogatz_graph(3000, 8, 0.2, seed=3)
        assert_same(G, k=600, seed=1)
        assert_same(G, nx.edge_betweenness_centrality, k=300, seed=2)
