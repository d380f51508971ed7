"""Unweighted shortest paths (``single_source_shortest_path``, ``single_target_shortest_path``,
``shortest_path``) through the backend, against NetworkX itself and an independent oracle.

Through ``backend="warpgraph"`` (small graphs cannot fall back to NetworkX) every result must
be NetworkX's dict: the same keys in the same order, the same paths (NetworkX's path runs
through a node's BFS parent, its first discoverer), each a new list, and NetworkX's errors.
The oracle is SciPy's unweighted distances: each path is a walk along edges of exactly that
many hops, and the keys are exactly the nodes within the cutoff.
"""

from __future__ import annotations

import math
import random
from itertools import pairwise

import numpy as np
import pytest

nx = pytest.importorskip("networkx")
scipy_csgraph = pytest.importorskip("scipy.sparse.csgraph")
sparse = pytest.importorskip("scipy.sparse")

from nx_compare import backend_device, outcome  # noqa: E402  (tests/nx_compare.py)
from nx_labels import random_graph as labelled_graph  # noqa: E402  (tests/nx_labels.py)

BACKEND = "warpgraph"
if BACKEND not in nx.utils.backends.backends:
    pytest.skip("warpgraph is not registered as a NetworkX backend", allow_module_level=True)

CUTOFFS = (None, 0, 1, 2, 3.5, -1, math.nan, math.inf)


def random_graph(seed: int, *, directed: bool, kind: str) -> nx.Graph:
    return labelled_graph(nx, seed, directed=directed, kind=kind, edges_per_node=2)


def assert_as_networkx(func: str, *args, **kwargs) -> dict | None:
    theirs = outcome(getattr(nx, func), *args, **kwargs)
    ours = outcome(getattr(nx, func), *args, backend=BACKEND, **kwargs)
    assert ours[1] is theirs[1], (func, args[1:], kwargs, ours, theirs)
    if theirs[1] is None:
        assert list(ours[0].items()) == list(theirs[0].items())
        lists = [id(p) for p in ours[0].values()]
        assert len(set(lists)) == len(lists)  # each path its own list, as NetworkX's
    return ours[0]


def hops_by_scipy(G, source) -> dict:
    """The oracle: ``{node: hops}`` from ``source`` over ``G``'s arcs (SciPy's BFS)."""
    index = {v: i for i, v in enumerate(G)}
    n = len(index)
    arcs = np.array([(index[u], index[v]) for u, v in G.edges()], dtype=np.int64).reshape(-1, 2)
    A = sparse.csr_matrix((np.ones(len(arcs)), (arcs[:, 0], arcs[:, 1])), shape=(n, n))
    dist = scipy_csgraph.shortest_path(
        A, directed=G.is_directed(), unweighted=True, indices=index[source]
    )
    return {v: int(d) for v, d in zip(G, dist, strict=True) if np.isfinite(d)}


@pytest.mark.parametrize("seed", range(40))
@pytest.mark.parametrize("directed", [False, True])
def test_as_networkx(seed, directed):
    kinds = ("int", "str", "tuple", "mixed")
    G = random_graph(seed, directed=directed, kind=kinds[seed % 4])
    rng = random.Random(seed)
    nodes = list(G)
    for node in (nodes[0], rng.choice(nodes), "absent"):
        for cutoff in CUTOFFS:
            assert_as_networkx("single_source_shortest_path", G, node, cutoff)
            assert_as_networkx("single_target_shortest_path", G, node, cutoff)
        assert_as_networkx("shortest_path", G, node)
        assert_as_networkx("shortest_path", G, source=node, method="bellman-ford")
        assert_as_networkx("shortest_path", G, node, method="no such method")
        assert_as_networkx("shortest_path", G, target=node)  # (directed: along in-arcs)


@pytest.mark.parametrize("seed", range(25))
@pytest.mark.parametrize("directed", [False, True])
def test_against_scipy_distances(seed, directed):
    G = random_graph(seed + 500, directed=directed, kind="mixed")
    source = random.Random(seed).choice(list(G))
    hops = hops_by_scipy(G, source)
    for cutoff in (None, 1, 3):
        paths = nx.single_source_shortest_path(G, source, cutoff, backend=BACKEND)
        within = {v for v, d in hops.items() if cutoff is None or d <= cutoff}
        assert set(paths) == within
        for v, path in paths.items():
            assert path[0] == source and path[-1] == v and len(path) == hops[v] + 1
            assert all(G.has_edge(a, b) for a, b in pairwise(path))
    if not directed:
        to = nx.single_target_shortest_path(G, source, backend=BACKEND)
        paths = nx.single_source_shortest_path(G, source, backend=BACKEND)
        assert set(to) == set(hops)
        assert all(p[::-1] == q for p, q in zip(to.values(), paths.values(), strict=True))


@pytest.mark.parametrize("kind", ["int", "str"])
def test_large_graphs(kind):
    """Past the compiled result builders' sizes, and a deep lattice (paths of ~400 nodes)."""
    G = nx.gnm_random_graph(20_000, 60_000, seed=5)
    if kind == "str":
        G = nx.relabel_nodes(G, {v: f"v{v}" for v in G})
    source = next(iter(G))
    assert_as_networkx("single_source_shortest_path", G, source)
    assert_as_networkx("single_source_shortest_path", G, source, 4)
    assert_as_networkx("single_target_shortest_path", G, source)
    assert_as_networkx("shortest_path", G, target=source)
    grid = nx.convert_node_labels_to_integers(nx.grid_2d_graph(200, 200))
    paths = assert_as_networkx("single_source_shortest_path", grid, 0)
    assert len(paths[len(grid) - 1]) == 399


def test_missing_nodes_give_networkx_messages():
    G = nx.path_graph(3)
    cases = [
        ("single_source_shortest_path", (G, "x"), {}, "Source x not in G"),
        ("single_target_shortest_path", (G, "x"), {}, "Target x not in G"),
        ("shortest_path", (G, "x"), {}, "Source x not in G"),
        ("shortest_path", (G,), {"target": "x"}, "Source x not in G"),  # (searched as one)
    ]
    for func, args, kwargs, message in cases:
        for backend in (None, BACKEND):
            with pytest.raises(nx.NodeNotFound) as info:
                getattr(nx, func)(*args, backend=backend, **kwargs)
            assert str(info.value) == message


def test_declined_cases_run_in_networkx():
    G = nx.path_graph(4)
    D = nx.DiGraph([(0, 1), (1, 2)])
    backend = nx.utils.backends.backends[BACKEND].load()
    assert backend.can_run("shortest_path", (G,), {}) is not True  # all pairs
    assert backend.can_run("shortest_path", (G, 0, 3), {}) is not True  # source-target
    assert backend.can_run("shortest_path", (G, 0), {"weight": lambda u, v, d: 1}) is not True
    bellman_ford = {"target": 2, "weight": "w", "method": "bellman-ford"}
    assert backend.can_run("shortest_path", (D,), bellman_ford) is True  # (since session 56)
    assert backend.can_run("shortest_path", (D,), {"target": 2, "weight": "w"}) is True
    assert backend.can_run("shortest_path", (D,), {"target": 2}) is True  # (since session 55)
    assert backend.can_run("single_target_shortest_path", (D, 2), {}) is True
    assert backend.can_run("shortest_path", (D, 0), {}) is True
    assert backend.can_run("single_source_shortest_path", (D, 0), {}) is True
    # under automatic dispatch (the default) they are NetworkX's own answers
    assert nx.shortest_path(D, target=2) == {2: [2], 1: [1, 2], 0: [0, 1, 2]}


def test_the_converted_graph_follows_a_change():
    G = nx.path_graph(3000)
    assert len(nx.single_source_shortest_path(G, 0, backend=BACKEND)[2999]) == 3000
    G.add_edge(0, 2999)
    assert nx.single_source_shortest_path(G, 0, backend=BACKEND)[2999] == [0, 2999]
    assert_as_networkx("single_source_shortest_path", G, 0)


@pytest.mark.gpu
def test_on_the_gpu():
    """Wide BFS layers expanded on the GPU, in NetworkX's order."""
    G = nx.gnm_random_graph(100_000, 500_000, seed=2)
    with backend_device(nx, "gpu"):
        assert_as_networkx("single_source_shortest_path", G, 0)
        assert_as_networkx("single_target_shortest_path", G, 7, 3)
        assert_as_networkx("shortest_path", G, 11)
        D = nx.gnm_random_graph(100_000, 500_000, seed=3, directed=True)
        assert_as_networkx("single_target_shortest_path", D, 7)  # (along _pred rows)
        assert_as_networkx("shortest_path", D, target=11)
