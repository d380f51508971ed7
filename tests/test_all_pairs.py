"""Many searches at once: ``warpgraph.algorithms.bfs.distance_stats`` (iBFS, 64 per word) and
the NetworkX functions built on it (``nx/distance_measures.py``): ``closeness_centrality``,
``eccentricity``, ``diameter``, ``radius``, ``periphery``, ``average_shortest_path_length``.

The library is checked against SciPy's unweighted all-pairs distances (an independent oracle)
on directed and undirected graphs with loops, repeated arcs, isolated vertices, sources given
(repeated, more than 64, fewer) or all; the NetworkX functions against NetworkX itself
(``backend="warpgraph"``, so a wrong answer fails: values, types, key order, error type and
message), with non-integer labels out of order, disconnected and not strongly connected graphs,
the null and one-node graphs, and the arguments that run in NetworkX (``can_run``)."""

from __future__ import annotations

import random

import numpy as np
import pytest

import warpgraph as wg
from warpgraph.algorithms.bfs import distance_stats
from warpgraph.errors import InvalidArgumentError

nx = pytest.importorskip("networkx")
csgraph = pytest.importorskip("scipy.sparse.csgraph")
sparse = pytest.importorskip("scipy.sparse")

from nx_compare import backend_device, outcome  # noqa: E402  (tests/nx_compare.py)
from nx_labels import random_graph  # noqa: E402  (tests/nx_labels.py)

BACKEND = "warpgraph"
needs_backend = pytest.mark.skipif(
    BACKEND not in nx.utils.backends.backends, reason="warpgraph is not a NetworkX backend here"
)
FUNCTIONS = (
    "closeness_centrality",
    "eccentricity",
    "diameter",
    "radius",
    "periphery",
    "average_shortest_path_length",
)


def scipy_stats(n: int, src, dst, directed: bool, sources) -> tuple:
    """Reach, distance sums and eccentricities from SciPy's unweighted all-pairs distances."""
    A = sparse.csr_matrix((np.ones(len(src)), (src, dst)), shape=(n, n))
    D = csgraph.shortest_path(A, directed=directed, unweighted=True, indices=sources)
    D = np.atleast_2d(D)
    finite = np.isfinite(D)
    reached = finite.sum(axis=1)
    total = np.where(finite, D, 0).sum(axis=1).astype(np.int64)
    ecc = np.where(finite, D, 0).max(axis=1, initial=0).astype(np.int64)
    return reached, total, ecc


def _random_arcs(seed: int):
    rng = np.random.default_rng(seed)
    n = int(rng.integers(1, 300))
    m = int(rng.integers(0, 4 * n))
    return n, rng.integers(0, n, m), rng.integers(0, n, m), rng


# ------------------------------------------------------------------ the library
@pytest.mark.parametrize("seed", range(30))
def test_library_against_scipy(seed):
    n, src, dst, rng = _random_arcs(seed)
    directed = bool(seed % 2)
    G = wg.Graph.from_edges(src, dst, num_vertices=n, directed=directed)
    kind = seed % 3
    sources = (
        None if kind == 0 else rng.integers(0, n, int(rng.integers(1, 200)))  # repeats, > 64
    )
    got = distance_stats(G, sources, device="cpu")
    want = scipy_stats(n, src, dst, directed, np.arange(n) if sources is None else sources)
    for g, w in zip(got, want, strict=True):
        assert np.array_equal(g, w)


def test_library_corner_cases():
    G = wg.Graph.from_edges([0, 1, 1, 2], [1, 1, 2, 0], num_vertices=4, directed=True)
    s = distance_stats(G, [3, 0, 0, 2], device="cpu")  # an isolated source, repeats
    assert s.reached.tolist() == [1, 3, 3, 3]
    assert s.total.tolist() == [0, 3, 3, 3]
    assert s.eccentricity.tolist() == [0, 2, 2, 2]
    empty = distance_stats(G, np.array([], dtype=np.int64), device="cpu")
    assert all(a.size == 0 for a in empty)
    none = wg.Graph.from_edges([], [], num_vertices=0, directed=False)
    assert all(a.size == 0 for a in distance_stats(none, device="cpu"))


def test_library_bad_input():
    G = wg.Graph.from_edges([0], [1], num_vertices=2, directed=False)
    with pytest.raises(InvalidArgumentError, match="outside"):
        distance_stats(G, [0, 2], device="cpu")
    with pytest.raises(InvalidArgumentError, match="vertex ids"):
        distance_stats(G, [0.5], device="cpu")
    with pytest.raises(InvalidArgumentError, match="Graph"):
        distance_stats(nx.path_graph(2), device="cpu")


# ------------------------------------------------------------------ through NetworkX
def _outcome(func: str, G, **kwargs):
    try:
        value = getattr(nx, func)(G, **kwargs)
    except Exception as exc:  # (compared with NetworkX's: type and message)
        return "raised", type(exc), str(exc)
    if isinstance(value, dict):
        return "dict", list(value.items()), [type(x) for x in value.values()]
    return "value", value, type(value)


def _same(func: str, G, **kwargs) -> None:
    ours = _outcome(func, G, backend=BACKEND, **kwargs)
    assert ours == _outcome(func, G, **kwargs)


@needs_backend
@pytest.mark.parametrize("func", FUNCTIONS)
@pytest.mark.parametrize("seed", range(16))
def test_networkx_random(func, seed):
    directed = bool(seed % 2)
    kind = ("str", "tuple", "mixed", "int")[seed % 4]
    G = random_graph(nx, seed, directed=directed, kind=kind, edges_per_node=seed % 5 + 1)
    _same(func, G)


@needs_backend
@pytest.mark.parametrize("func", FUNCTIONS)
@pytest.mark.parametrize(
    "make",
    [
        lambda: nx.empty_graph(0),
        lambda: nx.empty_graph(1),
        lambda: nx.empty_graph(2),  # disconnected
        lambda: nx.path_graph(["c", "a", "b"]),
        lambda: nx.cycle_graph(70, create_using=nx.DiGraph),  # strongly connected, > 64
        lambda: nx.DiGraph([(0, 1), (1, 2)]),  # not strongly connected
        lambda: nx.Graph([(0, 0), (0, 1), (1, 2)]),  # a self-loop
        lambda: nx.grid_2d_graph(9, 8),  # tuple labels
        lambda: nx.barbell_graph(20, 30),
    ],
    ids=["null", "one", "two-isolated", "path", "dicycle", "dipath", "loop", "grid", "barbell"],
)
def test_networkx_shapes(func, make):
    _same(func, make())


@needs_backend
def test_networkx_closeness_options():
    G = nx.gnm_random_graph(200, 300, seed=4)  # disconnected: wf_improved matters
    _same("closeness_centrality", G, wf_improved=False)
    D = nx.gnm_random_graph(200, 500, seed=5, directed=True)
    _same("closeness_centrality", D, wf_improved=False)
    _same("closeness_centrality", D)


@needs_backend
def test_networkx_large_connected():
    """Several groups of 64 searches, through the compiled conversion."""
    G = nx.connected_watts_strogatz_graph(3000, 6, 0.1, seed=7)
    for func in FUNCTIONS:
        _same(func, G)


@pytest.mark.parametrize("directed", [False, True])
def test_few_sources_by_bfs_equal_the_groups(directed):
    """Up to ``FEW_SOURCES`` sources run a search each (a plain queue on sparse graphs, the
    direction-optimizing BFS on dense ones); more run the groups (of ``group_span`` sources):
    the same numbers (unreached vertices included)."""
    from warpgraph.algorithms.bfs import multi_source

    for m in (900, 5000):  # (average degree 3.6 and 20)
        _few_against_groups(directed, m, multi_source.FEW_SOURCES)


@pytest.mark.parametrize("seed", range(6))
def test_one_search_stats_against_scipy(seed):
    """The fused queue (``bfs_reach_stats``: reach, distance sum, eccentricity as the levels
    pass) against SciPy's unweighted distances, sources isolated, in small and large parts."""
    from warpgraph.cpu.traverse import bfs_reach_stats

    rng = np.random.default_rng(seed)
    n = int(rng.integers(1, 300))
    m = int(rng.integers(0, 3 * n))
    G = wg.Graph.from_edges(rng.integers(0, n, m), rng.integers(0, n, m), num_vertices=n,
                            directed=bool(seed % 2))  # fmt: skip
    A = sparse.csr_matrix((np.ones(G.num_arcs), G.indices, G.indptr), shape=(n, n))
    for s in rng.integers(0, n, 8).tolist():
        d = csgraph.shortest_path(A, unweighted=True, indices=s)
        found = d[np.isfinite(d)].astype(np.int64)
        got = bfs_reach_stats(G.indptr, G.indices, s)
        assert tuple(int(x) for x in got) == (found.size, int(found.sum()), int(found.max()))


def _few_against_groups(directed: bool, m: int, few_sources: int) -> None:
    rng = np.random.default_rng(4)
    n = 500
    G = wg.Graph.from_edges(rng.integers(0, n, m), rng.integers(0, n, m), num_vertices=n,
                            directed=directed)  # fmt: skip
    few = rng.integers(0, n, few_sources)
    padded = np.concatenate([few, rng.integers(0, n, 5)])  # (past FEW_SOURCES: the groups)
    by_bfs = distance_stats(G, few, device="cpu")
    by_groups = distance_stats(G, padded, device="cpu")
    for a, b in zip(by_bfs, by_groups, strict=True):
        assert a.tolist() == b[: few.size].tolist()


@needs_backend
@pytest.mark.parametrize("directed", [False, True])
@pytest.mark.parametrize("kind", ["int", "str"])
@pytest.mark.parametrize("seed", range(10))
def test_networkx_one_node_and_some_nodes(seed, kind, directed):
    """``closeness_centrality(G, u)`` (a float from one search) and ``eccentricity(G, v)`` for
    a node (an int), a list with an absent node (a dict in ``nbunch_iter``'s order), an empty
    list and a non-node, on connected and disconnected graphs: NetworkX's values, types,
    order and errors."""
    rng = random.Random(seed)
    G = nx.gnp_random_graph(rng.randint(1, 60), rng.choice([0.03, 0.1, 0.4]), seed=seed,
                            directed=directed)  # fmt: skip
    if kind == "str":
        G = nx.relabel_nodes(G, {i: f"s{i}" for i in G})
    nodes = list(G)
    cases = [
        ("closeness_centrality", {"u": nodes[0]}),
        ("closeness_centrality", {"u": nodes[-1], "wf_improved": False}),
        ("closeness_centrality", {"u": "absent"}),
        ("eccentricity", {"v": nodes[0]}),
        ("eccentricity", {"v": [*nodes[:3], "absent", nodes[0]]}),
        ("eccentricity", {"v": []}),
        ("eccentricity", {"v": 3.5}),
    ]
    for func, kwargs in cases:
        theirs = outcome(getattr(nx, func), G, **kwargs)
        ours = outcome(getattr(nx, func), G, backend=BACKEND, **kwargs)
        assert ours[1] is theirs[1], (func, kwargs, ours, theirs)
        assert type(ours[0]) is type(theirs[0]) and ours[0] == theirs[0], (func, kwargs)
        if isinstance(theirs[0], dict):
            assert list(ours[0].items()) == list(theirs[0].items())


@needs_backend
@pytest.mark.parametrize(
    ("func", "kwargs"),
    [
        ("closeness_centrality", {"distance": "weight"}),
        ("eccentricity", {"v": iter([0, 1])}),
        ("eccentricity", {"weight": "weight"}),
        ("radius", {"e": {0: 1, 1: 1}}),
        ("diameter", {"usebounds": True, "weight": "weight"}),
        ("average_shortest_path_length", {"weight": "weight"}),
        ("average_shortest_path_length", {"method": "dijkstra"}),
    ],
)
def test_networkx_declined_arguments(func, kwargs):
    """These run in NetworkX: ``can_run`` declines them with a reason."""
    G = nx.path_graph(4)
    nx.set_edge_attributes(G, 2, "weight")
    interface = nx.utils.backends.backends[BACKEND].load()
    reason = interface.can_run(func, (G,), kwargs)
    assert isinstance(reason, str) and "NetworkX" in reason


def _bounds_graphs() -> list:
    """Connected graphs where the extrema bounding takes few or many searches (a cycle and a
    complete graph bound nothing), with loops and str labels, plus the null, one-node and
    disconnected graphs (NetworkX's errors)."""
    graphs = [nx.empty_graph(0), nx.empty_graph(1), nx.empty_graph(3), nx.cycle_graph(17),
              nx.complete_graph(6), nx.path_graph(9), nx.star_graph(5), nx.petersen_graph(),
              nx.grid_2d_graph(7, 9), nx.barbell_graph(5, 4)]  # fmt: skip
    for seed in range(40):
        rng = random.Random(seed)
        n = rng.randint(5, 80)
        G = nx.connected_watts_strogatz_graph(n, rng.choice([2, 4]), rng.random(), seed=seed)
        if seed % 3 == 0:
            G.add_edge(0, 0)
        if seed % 4 == 1:
            G = nx.relabel_nodes(G, {v: f"n{v}" for v in G})
        graphs.append(G)
    return graphs


@needs_backend
@pytest.mark.parametrize("func", ["diameter", "radius", "periphery", "center"])
@pytest.mark.parametrize("searches", [0, 1, 2, 64])
def test_usebounds_as_networkx(func, searches, monkeypatch):
    """``usebounds=True`` on an undirected graph: NetworkX's extrema bounding, answered by the
    backend's searches (after ``searches`` single ones, the undecided nodes' eccentricities
    from the joint search): NetworkX's value (its type) or node list in its order, and its
    errors; the oracle is the plain definition over every eccentricity (``usebounds=False``)."""
    from warpgraph.nx import distance_measures

    monkeypatch.setattr(distance_measures, "BOUND_SEARCHES", searches)
    for G in _bounds_graphs():
        theirs = outcome(getattr(nx, func), G, usebounds=True)
        ours = outcome(getattr(nx, func), G, usebounds=True, backend=BACKEND)
        assert ours[1] is theirs[1], (func, G, ours, theirs)
        assert type(ours[0]) is type(theirs[0]) and ours[0] == theirs[0], (func, G)
        if theirs[1] is None and len(G) > 1:
            assert ours[0] == getattr(nx, func)(G, backend=BACKEND)  # (all eccentricities)
    interface = nx.utils.backends.backends[BACKEND].load()
    assert interface.can_run(func, (nx.path_graph(3),), {"usebounds": True}) is True


@needs_backend
def test_networkx_usebounds_on_directed_graphs_runs_here():
    """NetworkX ignores ``usebounds`` on a directed graph; so does the backend."""
    D = nx.cycle_graph(10, create_using=nx.DiGraph)
    interface = nx.utils.backends.backends[BACKEND].load()
    assert interface.can_run("diameter", (D,), {"usebounds": True}) is True
    _same("diameter", D, usebounds=True)


# ------------------------------------------------------------------ GPU
@pytest.mark.gpu
def test_gpu_matches_cpu_and_networkx():
    for seed in range(6):
        n, src, dst, rng = _random_arcs(seed)
        G = wg.Graph.from_edges(src, dst, num_vertices=n, directed=bool(seed % 2))
        sources = None if seed % 3 == 0 else rng.integers(0, n, 150)
        cpu = distance_stats(G, sources, device="cpu")
        gpu = distance_stats(G, sources, device="gpu")
        assert all(np.array_equal(c, g.get()) for c, g in zip(cpu, gpu, strict=True))
    n = 5000  # several batches' worth of groups on the device, one connected graph
    big = nx.connected_watts_strogatz_graph(n, 8, 0.2, seed=3)
    with backend_device(nx, "gpu"):
        for func in FUNCTIONS:
            _same(func, big)


@pytest.mark.gpu
@pytest.mark.parametrize("persistent_words", [0, 1 << 22])
def test_gpu_batches_of_one_group_and_long_searches(monkeypatch, persistent_words):
    """Memory for one group at a time (each batch one launch of the persistent searches, or
    two launches a level), then a path of 3,000 levels and isolated vertices: the CPU's
    statistics exactly."""
    from warpgraph.algorithms.bfs import multi_source

    monkeypatch.setattr(multi_source, "PERSISTENT_WORDS", persistent_words)
    monkeypatch.setattr(multi_source, "GPU_BATCH_BYTES", 1)
    n, src, dst, rng = _random_arcs(4)
    for directed in (False, True):
        G = wg.Graph.from_edges(src, dst, num_vertices=n, directed=directed)
        for sources in (None, rng.integers(0, n, 150)):
            cpu = distance_stats(G, sources, device="cpu")
            gpu = distance_stats(G, sources, device="gpu")
            assert all(np.array_equal(c, g.get()) for c, g in zip(cpu, gpu, strict=True))
    m = 3000
    path = wg.Graph.from_edges(np.arange(m - 1), np.arange(1, m), num_vertices=m + 5)
    picks = np.array([0, 1, m // 2, m - 1, m + 2])
    cpu = distance_stats(path, picks, device="cpu")
    gpu = distance_stats(path, picks, device="gpu")
    assert all(np.array_equal(c, g.get()) for c, g in zip(cpu, gpu, strict=True))
    assert cpu.eccentricity.tolist() == [m - 1, m - 2, m - 1 - m // 2, 0, 0]
