"""``attracting_components``, ``number_attracting_components``, ``is_attracting_component`` and
``is_semiconnected`` (``nx/attracting.py``) against NetworkX itself: random digraphs with
several strong components, DAGs, self-loops, non-integer labels, the null graph, and the GPU's
label path (the parallel kernel's labels, in any order) run on the CPU kernel."""

from __future__ import annotations

import random

import numpy as np
import pytest

nx = pytest.importorskip("networkx")

from nx_compare import backend_device  # noqa: E402  (tests/nx_compare.py)
from nx_labels import shuffled_labels  # noqa: E402  (tests/nx_labels.py)
from warpgraph.nx import attracting  # noqa: E402
from warpgraph.nx._common import networkx_version  # noqa: E402
from warpgraph.nx.interface import backend_interface  # noqa: E402

BACKEND = "warpgraph"
if BACKEND not in nx.utils.backends.backends:
    pytest.skip("warpgraph is not registered as a NetworkX backend", allow_module_level=True)

FUNCS = (
    "attracting_components",
    "number_attracting_components",
    "is_attracting_component",
    "is_semiconnected",
)


def _outcome(func: str, G, **kwargs):
    """What ``nx.<func>(G)`` gives: (value, None) or (None, exception type); components
    listed."""
    try:
        value = getattr(nx, func)(G, **kwargs)
    except Exception as exc:  # (the type is compared: NetworkX's errors are ours too)
        return None, type(exc)
    return (list(value) if func == "attracting_components" else value), None


def assert_as_networkx(G) -> None:
    for func in FUNCS:
        theirs = _outcome(func, G)
        ours = _outcome(func, G, backend=BACKEND)
        assert ours == theirs, (func, ours, theirs)
        if theirs[1] is None:
            assert type(ours[0]) is type(theirs[0]), func


def random_digraph(seed: int, kind: str = "str") -> nx.DiGraph:
    """Sparse enough for several strong components, sinks and sources."""
    rng = random.Random(seed)
    n = rng.randint(1, 60)
    labels = shuffled_labels(kind, n, rng)
    D = nx.DiGraph()
    D.add_nodes_from(labels)
    for _ in range(rng.randint(0, 2 * n)):
        D.add_edge(rng.choice(labels), rng.choice(labels))
    return D


def chain_of_cycles(k: int, size: int, extra: list[tuple[int, int]] = ()) -> nx.DiGraph:
    """``k`` cycles of ``size`` nodes, cycle ``i`` joined to cycle ``i + 1`` by one arc:
    semiconnected, one attracting component (the last cycle)."""
    D = nx.DiGraph()
    for i in range(k):
        nx.add_cycle(D, range(i * size, (i + 1) * size)) if size > 1 else D.add_node(i)
        if i:
            D.add_edge(i * size - 1, i * size)
    D.add_edges_from(extra)
    return D


@pytest.mark.parametrize("seed", range(40))
@pytest.mark.parametrize("kind", ["str", "tuple", "mixed"])
def test_random_digraphs_as_networkx(seed, kind):
    assert_as_networkx(random_digraph(seed, kind))


@pytest.mark.parametrize("seed", range(10))
def test_dags_and_self_loops_as_networkx(seed):
    rng = np.random.default_rng(seed)
    n = int(rng.integers(2, 50))
    rank = rng.permutation(n)
    D = nx.DiGraph()
    D.add_nodes_from(rng.permutation(n).tolist())
    for a, b in rng.integers(0, n, (2 * n, 2)).tolist():
        if a != b:
            D.add_edge(*((a, b) if rank[a] < rank[b] else (b, a)))
    assert_as_networkx(D)
    D.add_edges_from((v, v) for v in rng.choice(n, 3).tolist())  # (still no cycle of two nodes)
    assert_as_networkx(D)


@pytest.mark.parametrize(
    "D",
    [
        nx.DiGraph(),
        nx.empty_graph(1, create_using=nx.DiGraph),
        nx.empty_graph(3, create_using=nx.DiGraph),
        nx.DiGraph([(0, 0)]),
        nx.path_graph(6, create_using=nx.DiGraph),
        nx.cycle_graph(6, create_using=nx.DiGraph),
        nx.DiGraph([(1, 2), (3, 2)]),  # two sources: not semiconnected
        nx.DiGraph([(1, 2), (1, 3)]),  # two sinks
        chain_of_cycles(5, 3),
        chain_of_cycles(5, 3, [(0, 14)]),  # a shortcut keeps the one order
        chain_of_cycles(4, 3, [(3, 0)]),  # two cycles merged
        chain_of_cycles(6, 1, [(0, 2), (0, 5)]),  # a path with shortcuts
    ],
    ids=lambda D: f"n{len(D)}m{D.number_of_edges()}",
)
def test_small_cases_as_networkx(D):
    assert_as_networkx(D)


def test_branching_condensation_is_not_semiconnected():
    D = chain_of_cycles(5, 3)
    D.remove_edge(8, 9)  # cycle 3 now hangs off nothing: two sources in the condensation
    D.add_edge(5, 9)  # ... joined again, from cycle 1: cycles 2 and 3 unordered
    assert nx.is_semiconnected(D) is False
    assert nx.is_semiconnected(D, backend=BACKEND) is False
    assert_as_networkx(D)


def test_many_sinks_in_networkx_order():
    """Sinks reached in an order other than node order: NetworkX's order is its DFS's."""
    rng = np.random.default_rng(7)
    D = nx.gnp_random_graph(400, 0.006, seed=3, directed=True)
    D = nx.relabel_nodes(D, dict(enumerate(rng.permutation(400).tolist())))
    theirs = list(nx.attracting_components(D))
    assert len(theirs) > 3
    assert list(nx.attracting_components(D, backend=BACKEND)) == theirs
    assert nx.number_attracting_components(D, backend=BACKEND) == len(theirs)


def test_is_attracting_component_answers_before_converting():
    """A node without an out-arc answers False from the rows read in place."""
    D = nx.cycle_graph(50, create_using=nx.DiGraph)
    D.add_edge(0, "sink")
    W = backend_interface.convert_from_nx(D, name="is_attracting_component")
    assert W.pending is not None
    assert backend_interface.is_attracting_component(W) is False
    assert W.pending is not None  # (never converted)


def test_gpu_label_path_on_the_cpu_kernel(monkeypatch):
    """The labels of the parallel kernel (the GPU's path: any numbering of the components),
    computed by its CPU version."""
    monkeypatch.setattr(attracting, "backend_device", lambda: "gpu")
    for seed in range(12):
        assert_as_networkx(random_digraph(seed, "mixed"))
    assert_as_networkx(chain_of_cycles(5, 3, [(0, 14)]))
    assert_as_networkx(nx.gnp_random_graph(300, 0.01, seed=1, directed=True))
    for kind in ("str", "int", "mixed"):  # one attracting component: iterating as NetworkX's
        rng = random.Random(len(kind))
        labels = shuffled_labels(kind, 400, rng)
        D = nx.DiGraph()
        D.add_nodes_from(labels)
        nx.add_cycle(D, labels[100:])  # (the sink: 300 nodes)
        D.add_edges_from((labels[i], labels[rng.randrange(100, 400)]) for i in range(100))
        want = [list(c) for c in nx.attracting_components(D)]
        got = [list(c) for c in nx.attracting_components(D, backend="warpgraph")]
        assert got == want, kind


def primitive_by_powers(D) -> bool:
    """The oracle for ``is_aperiodic`` on a strongly connected graph: aperiodic exactly when
    the adjacency matrix is primitive, some power all positive, within Wielandt's bound
    ``(n - 1)^2 + 1`` (boolean matrix powers)."""
    n = len(D)
    index = {v: i for i, v in enumerate(D)}
    A = np.zeros((n, n), dtype=bool)
    for u, v in D.edges():
        A[index[u], index[v]] = True
    P = A.copy()
    for _ in range((n - 1) ** 2 + 1):
        if P.all():
            return True
        P = (P.astype(np.int64) @ A.astype(np.int64)) > 0
    return bool(P.all())


def strongly_connected_digraph(seed: int) -> nx.DiGraph:
    """A cycle through every node (shuffled labels), with a few chords: periodic or not."""
    rng = random.Random(seed)
    n = rng.randint(1, 12)
    labels = shuffled_labels("mixed", n, rng)
    D = nx.DiGraph()
    D.add_nodes_from(labels)
    if n > 1:
        nx.add_cycle(D, labels)
    for _ in range(rng.randint(0, 3)):
        u, v = rng.choice(labels), rng.choice(labels)
        if u != v or seed % 5 == 0:
            D.add_edge(u, v)
    return D


def _aperiodic(D, **kwargs):
    try:
        return nx.is_aperiodic(D, **kwargs), None
    except Exception as exc:  # (compared with NetworkX's: type and message)
        return None, (type(exc), str(exc))


needs_36 = pytest.mark.skipif(
    networkx_version() < (3, 6), reason="dispatched from NetworkX 3.6 (can_run declines before)"
)


@needs_36
@pytest.mark.parametrize("seed", range(60))
def test_is_aperiodic_as_networkx_and_matrix_powers(seed):
    D = strongly_connected_digraph(seed)
    ours = _aperiodic(D, backend=BACKEND)
    assert ours == _aperiodic(D)
    assert ours[0] is primitive_by_powers(D)


@needs_36
def test_is_aperiodic_errors_and_large_graphs():
    """NetworkX's errors (undirected, null, not strongly connected: answered unconverted), and
    two 20k-node rings: of period 4, and with one chord making a cycle one shorter."""
    for G in (nx.path_graph(3), nx.DiGraph(), nx.DiGraph([(0, 1)]), random_digraph(3, "str")):
        assert _aperiodic(G, backend=BACKEND) == _aperiodic(G)
    W = backend_interface.convert_from_nx(nx.DiGraph([(0, 1), (1, 2)]), name="is_aperiodic")
    with pytest.raises(nx.NetworkXError, match="not strongly connected"):
        backend_interface.is_aperiodic(W)
    assert W.pending is not None  # (never converted)
    ring = nx.DiGraph()
    nx.add_cycle(ring, range(20000))
    ring.add_edges_from((v, v + 4) for v in range(0, 19996, 4))  # cycles of 20000 - 3k: not 4
    ring.add_edge(19999, 0)
    assert _aperiodic(ring, backend=BACKEND) == _aperiodic(ring)
    four = nx.DiGraph()
    for v in range(20000):  # 4 layers of 5000, each node to two of the next layer
        four.add_edge(v, (v + 5000) % 20000)
        four.add_edge(v, (v + 5001) % 20000 if v % 5000 != 4999 else (v + 1) % 20000)
    assert nx.is_strongly_connected(four)
    assert _aperiodic(four, backend=BACKEND) == _aperiodic(four) == (False, None)


def test_is_aperiodic_declined_before_networkx_36(monkeypatch):
    from warpgraph.nx import algorithms

    monkeypatch.setattr(algorithms, "networkx_version", lambda: (3, 5))
    reason = backend_interface.can_run("is_aperiodic", (nx.DiGraph([(0, 0)]),), {})
    assert isinstance(reason, str) and "3.6" in reason


@pytest.mark.gpu
def test_on_the_gpu():
    with backend_device(nx, "gpu"):
        for seed in range(6):
            assert_as_networkx(random_digraph(seed, "tuple"))
        assert_as_networkx(chain_of_cycles(5, 3, [(0, 14)]))
        assert_as_networkx(nx.gnp_random_graph(2000, 0.002, seed=1, directed=True))


def test_wrong_graphs_are_refused_clearly():
    """Undirected graphs: NetworkX's own ``NetworkXNotImplemented`` (its decorator runs before
    dispatch). Multigraphs: ``can_run`` declines with the reason, so ``backend="warpgraph"``
    gets NetworkX's ``NotImplementedError`` and automatic dispatch runs NetworkX itself."""
    M = nx.MultiDiGraph([(0, 1), (0, 1), (1, 0), (2, 2)])
    for func in FUNCS:
        with pytest.raises(nx.NetworkXNotImplemented, match="undirected"):
            getattr(nx, func)(nx.path_graph(4), backend=BACKEND)
        reason = backend_interface.can_run(func, (M,), {})
        assert isinstance(reason, str) and "multigraph" in reason
        with pytest.raises(NotImplementedError, match=func):
            getattr(nx, func)(M, backend=BACKEND)
        nx.config.backend_priority.algos = [BACKEND]
        try:
            assert _outcome(func, M) == _outcome(func, M, backend="networkx")
        finally:
            nx.config.backend_priority.algos = []
