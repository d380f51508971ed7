"""Weighted paths through the backend (``single_source_dijkstra_path``,
``multi_source_dijkstra_path``, ``single_source_dijkstra``, ``multi_source_dijkstra``,
``single_source_bellman_ford_path``, ``single_source_bellman_ford`` and ``shortest_path`` with
a weight), against NetworkX itself and SciPy's Dijkstra and Bellman-Ford.

Through ``backend="warpgraph"`` each result must be NetworkX's: the same keys in the same
order (from NetworkX 3.6 the sources, then the order its heap finalizes nodes; before 3.6 the
order nodes were first reached: CI runs this file under NetworkX 3.4 too), the same path for
every node (through the node whose arc last lowered its distance), the lengths of NetworkX's
types, and its errors. The oracle: each path is a walk along the graph's arcs from a source
whose weight is SciPy's distance, over exactly the nodes SciPy reaches within the cutoff.
"""

from __future__ import annotations

import random
from itertools import pairwise

import numpy as np
import pytest

nx = pytest.importorskip("networkx")

from nx_compare import outcome  # noqa: E402  (tests/nx_compare.py)
from nx_labels import weighted_graph  # noqa: E402  (tests/nx_labels.py)
from test_nx_multi_source_dijkstra import scipy_distances  # noqa: E402
from warpgraph.nx import FUNCTIONS  # noqa: E402

BACKEND = "warpgraph"
if BACKEND not in nx.utils.backends.backends or "single_source_dijkstra_path" not in FUNCTIONS:
    pytest.skip("warpgraph's Dijkstra paths are not registered", allow_module_level=True)


def seen(result) -> object:
    """What a caller sees of a result: dict items in order and the value types."""
    if isinstance(result, tuple):
        return tuple(seen(r) for r in result)
    if isinstance(result, dict):
        return list(result.items()), [type(v) for v in result.values()]
    return result


def assert_as_networkx(func: str, *args, **kwargs):
    theirs = outcome(getattr(nx, func), *args, **kwargs)
    ours = outcome(getattr(nx, func), *args, backend=BACKEND, **kwargs)
    assert ours[1] is theirs[1], (func, args[1:], kwargs, ours, theirs)
    assert seen(ours[0]) == seen(theirs[0]), (func, args[1:], kwargs)
    return ours[0]


def assert_paths_are_shortest(G, sources, paths: dict, weight: str, cutoff=None) -> None:
    want = scipy_distances(G, sources, weight, cutoff)
    assert paths.keys() == want.keys()
    for v, path in paths.items():
        assert path[0] in sources and path[-1] == v
        steps = [G[a][b].get(weight, 1) for a, b in pairwise(path)]
        assert np.isclose(sum(steps), want[v])


@pytest.mark.parametrize("seed", range(24))
@pytest.mark.parametrize("directed", [False, True])
@pytest.mark.parametrize("kind", ["int", "float"])
def test_random_graphs(seed, directed, kind):
    G = weighted_graph(nx, seed, directed, kind, zeros=True)
    rng = random.Random(seed + 7)
    nodes = list(G)
    source = rng.choice(nodes)
    sources = [rng.choice(nodes) for _ in range(3)]
    for cutoff in (None, -1, 0, 2, 3.5):
        kw = {"cutoff": cutoff, "weight": "cost"}
        paths = assert_as_networkx("single_source_dijkstra_path", G, source, **kw)
        assert_paths_are_shortest(G, [source], paths, "cost", cutoff)
        assert_as_networkx("single_source_dijkstra", G, source, **kw)
        paths = assert_as_networkx("multi_source_dijkstra_path", G, sources, **kw)
        assert_paths_are_shortest(G, sources, paths, "cost", cutoff)
        assert_as_networkx("multi_source_dijkstra", G, set(sources), **kw)
    assert_as_networkx("shortest_path", G, source, weight="cost")
    assert_as_networkx("shortest_path", G, source, weight="absent")
    to = assert_as_networkx("shortest_path", G, target=source, weight="cost")
    from_target = {v: path[::-1] for v, path in to.items()}  # (a digraph: along in-arcs)
    assert_paths_are_shortest(G.reverse() if directed else G, [source], from_target, "cost")


def test_ties_and_later_improvements_follow_networkx():
    """A node first reached by a long arc, then lowered through a node reached later (its
    path, and before NetworkX 3.6 its key position, come from that)."""
    G = nx.DiGraph()
    G.add_weighted_edges_from([(0, 9, 10), (0, 1, 1), (1, 2, 1), (2, 9, 1), (0, 3, 3), (3, 9, 2)])
    G.add_weighted_edges_from([(1, 4, 2), (2, 4, 1)])  # 4: reached at 3 twice (tie: first stays)
    paths = assert_as_networkx("single_source_dijkstra_path", G, 0)
    assert paths[9] == [0, 1, 2, 9] and paths[4] == [0, 1, 4]
    assert_as_networkx("single_source_dijkstra", G, 0)


def test_errors_and_declined_calls():
    G = nx.path_graph(4)
    for func in ("single_source_dijkstra_path", "single_source_dijkstra"):
        assert_as_networkx(func, G, "absent")
        assert_as_networkx(func, G, ["unhashable"])  # NetworkX makes {source}: TypeError
    for func in ("multi_source_dijkstra_path", "multi_source_dijkstra"):
        assert_as_networkx(func, G, [])
        assert_as_networkx(func, G, [0, "absent"])
    assert_as_networkx("shortest_path", G, "absent", weight="weight")
    assert_as_networkx("shortest_path", G, 0, weight="weight", method="nope")
    backend = nx.utils.backends.backends[BACKEND].load()
    declined = [
        ("single_source_dijkstra", (G, 0, 3), {}),  # a target: NetworkX stops there
        ("multi_source_dijkstra", (G, [0], 3), {}),
        ("multi_source_dijkstra_path", (G, iter([0])), {}),
        ("single_source_dijkstra_path", (G, 0), {"weight": lambda u, v, d: 1}),
        ("shortest_path", (G, 0), {"weight": lambda u, v, d: 1, "method": "bellman-ford"}),
    ]
    for func, args, kwargs in declined:
        assert isinstance(backend.can_run(func, args, kwargs), str), func


def test_large_graph_and_float_weights():
    G = nx.gnm_random_graph(5000, 20000, seed=3)
    rng = random.Random(3)
    for u, v in G.edges():
        G[u][v]["weight"] = rng.choice([0.5, 1.0, 1.5, 2.0])
    paths = assert_as_networkx("single_source_dijkstra_path", G, 0)
    assert_paths_are_shortest(G, [0], paths, "weight")
    assert_as_networkx("multi_source_dijkstra", G, [0, 17, 4999], cutoff=3.0)
    assert_as_networkx("shortest_path", G, target=5, weight="weight")


def bellman_ford_by_scipy(G, source, weight: str) -> dict:
    """The oracle for negative weights: SciPy's Bellman-Ford distances from ``source``."""
    from scipy.sparse import csr_matrix
    from scipy.sparse.csgraph import bellman_ford

    nodes = list(G)
    index = {v: i for i, v in enumerate(nodes)}
    rows, cols, vals = [], [], []
    for u, v, d in G.edges(data=True):
        for a, b in [(u, v)] if G.is_directed() else [(u, v), (v, u)]:
            rows.append(index[a])
            cols.append(index[b])
            vals.append(float(d.get(weight, 1)))
    A = csr_matrix((vals, (rows, cols)), shape=(len(nodes),) * 2)
    dist = bellman_ford(A, directed=True, indices=index[source])
    return {v: dist[i] for i, v in enumerate(nodes) if np.isfinite(dist[i])}


@pytest.mark.parametrize("seed", range(30))
@pytest.mark.parametrize("directed", [False, True])
def test_bellman_ford_paths(seed, directed):
    """Negative int weights on digraphs (NetworkX's ``NetworkXUnbounded`` where a negative
    cycle is reached), zero float weights for ties; paths against NetworkX and SciPy."""
    kind = "int" if seed % 2 else "float"
    G = weighted_graph(nx, seed, directed, kind, negative=directed and kind == "int", zeros=True)
    source = random.Random(seed).choice(list(G))
    paths = assert_as_networkx("single_source_bellman_ford_path", G, source, weight="cost")
    assert_as_networkx("single_source_bellman_ford", G, source, weight="cost")
    assert_as_networkx("shortest_path", G, source, weight="cost", method="bellman-ford")
    # to a target (a digraph: NetworkX's search of its reverse view, along the in-arcs here)
    to = assert_as_networkx("shortest_path", G, target=source, weight="cost", method="bellman-ford")
    if isinstance(paths, dict):  # (no negative cycle reached)
        assert_bellman_ford_paths(G, source, paths)
    if isinstance(to, dict):
        R = G.reverse() if directed else G
        assert_bellman_ford_paths(R, source, {v: path[::-1] for v, path in to.items()})


def assert_bellman_ford_paths(G, source, paths: dict) -> None:
    """Every path starts at ``source``, follows arcs of ``G`` and weighs SciPy's distance."""
    want = bellman_ford_by_scipy(G, source, "cost")
    assert paths.keys() == want.keys()
    for v, path in paths.items():
        assert path[0] == source and path[-1] == v
        assert np.isclose(sum(G[a][b].get("cost", 1) for a, b in pairwise(path)), want[v])


def test_bellman_ford_first_predecessor_order():
    """A node lowered through a negative arc after its first distance: its path follows the
    last strict improvement, its key stays where it was first reached."""
    G = nx.DiGraph()
    G.add_weighted_edges_from([(0, 1, 4), (0, 2, 1), (2, 1, -2), (1, 3, 1), (2, 3, 2)])
    paths = assert_as_networkx("single_source_bellman_ford_path", G, 0)
    assert list(paths) == [0, 1, 2, 3] and paths[1] == [0, 2, 1] and paths[3] == [0, 2, 1, 3]
    backend = nx.utils.backends.backends[BACKEND].load()
    assert isinstance(backend.can_run("single_source_bellman_ford", (G, 0, 3), {}), str)


@pytest.mark.parametrize("seed", range(24))
@pytest.mark.parametrize("directed", [False, True])
@pytest.mark.parametrize("kind", ["int", "float"])
def test_dijkstra_predecessor_and_distance(seed, directed, kind):
    """NetworkX's ``(pred, dist)`` (ties, zero weights, self-loops, cutoffs); the oracle: a
    node's predecessors are exactly the tails of its arcs on a shortest path (SciPy's
    distances), each once."""
    G = weighted_graph(nx, seed, directed, kind, zeros=True)
    rng = random.Random(seed + 3)
    source = rng.choice(list(G))
    if seed % 3 == 0:
        G.add_edge(source, source, cost=0 if kind == "int" else 0.0)  # (its own predecessor)
    for cutoff in (None, 2, 3.5):
        found = assert_as_networkx(
            "dijkstra_predecessor_and_distance", G, source, cutoff=cutoff, weight="cost"
        )
        pred, dist = found
        want = scipy_distances(G, [source], "cost", cutoff)
        assert dist.keys() == want.keys() == pred.keys()
        for v, tails in pred.items():
            arcs_in = G.pred[v] if directed else G.adj[v]
            tight = {
                u
                for u in arcs_in
                if u in want and np.isclose(want[u] + arcs_in[u].get("cost", 1), want[v])
            }
            if cutoff is None and v != source:
                assert set(tails) == tight and len(tails) == len(set(tails))
            assert set(tails) <= tight
    assert_as_networkx("dijkstra_predecessor_and_distance", G, "absent")
    assert_as_networkx("dijkstra_predecessor_and_distance", G, ["unhashable"])


def test_bellman_ford_paths_bad_input():
    """A missing or unhashable source, a reachable negative cycle, weights of other kinds:
    NetworkX's errors, or (weights the backend leaves to NetworkX) a clear decline."""
    G = nx.path_graph(4)
    D = nx.DiGraph([(0, 1, {"weight": 1}), (1, 2, {"weight": -3}), (2, 1, {"weight": 1})])
    for func in ("single_source_bellman_ford_path", "single_source_bellman_ford"):
        assert_as_networkx(func, G, "absent")
        assert_as_networkx(func, G, ["unhashable"])
        with pytest.raises(nx.NetworkXUnbounded):
            getattr(nx, func)(D, 0, backend=BACKEND)
        H = nx.path_graph(4)
        H[1][2]["weight"] = "heavy"
        with pytest.raises(NotImplementedError):
            getattr(nx, func)(H, 0, backend=BACKEND)
