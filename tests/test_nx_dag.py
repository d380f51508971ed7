"""``is_directed_acyclic_graph`` (``nx/dag.py``) against NetworkX itself and against SciPy's
strong components (an independent oracle: acyclic exactly when every node is its own strong
component and no arc is a self-loop), through each of its paths: the search of NetworkX's
dicts (answering alone, or giving up), the every-node-entered probe, and the converted graph."""

from __future__ import annotations

import random

import numpy as np
import pytest

nx = pytest.importorskip("networkx")
scipy_csgraph = pytest.importorskip("scipy.sparse.csgraph")
sparse = pytest.importorskip("scipy.sparse")

from nx_compare import backend_device  # noqa: E402  (tests/nx_compare.py)
from nx_labels import shuffled_labels  # noqa: E402  (tests/nx_labels.py)
from warpgraph.nx import dag  # noqa: E402
from warpgraph.nx.interface import backend_interface  # noqa: E402

BACKEND = "warpgraph"
if BACKEND not in nx.utils.backends.backends:
    pytest.skip("warpgraph is not registered as a NetworkX backend", allow_module_level=True)


def acyclic_by_scipy(D: nx.DiGraph) -> bool:
    """The oracle: no self-loop and as many strong components as nodes (SciPy's labels)."""
    n = len(D)
    if n == 0:
        return True
    index = {v: i for i, v in enumerate(D)}
    arcs = np.array([(index[u], index[v]) for u, v in D.edges()], dtype=np.int64).reshape(-1, 2)
    if (arcs[:, 0] == arcs[:, 1]).any():
        return False
    A = sparse.csr_matrix((np.ones(len(arcs)), (arcs[:, 0], arcs[:, 1])), shape=(n, n))
    count, _ = scipy_csgraph.connected_components(A, directed=True, connection="strong")
    return count == n


def random_digraph(seed: int, kind: str, acyclic: bool) -> nx.DiGraph:
    """Random arcs among shuffled labels; ``acyclic``: each arc from a lower to a higher rank
    of a random order (so a DAG whose topological order is not the node order), sometimes with
    one arc back or a self-loop added."""
    rng = random.Random(seed)
    n = rng.randint(1, 80)
    labels = shuffled_labels(kind, n, rng)
    rank = {v: i for i, v in enumerate(rng.sample(labels, n))}
    D = nx.DiGraph()
    D.add_nodes_from(labels)
    for _ in range(rng.randint(0, 3 * n)):
        u, v = rng.choice(labels), rng.choice(labels)
        if acyclic and rank[u] >= rank[v]:
            u, v = v, u
        if u != v or not acyclic:
            D.add_edge(u, v)
    if acyclic and n > 2 and seed % 4 == 1:
        u, v = max(labels, key=rank.get), min(labels, key=rank.get)
        D.add_edge(u, v)  # closes a cycle if v reaches u
    if acyclic and seed % 4 == 2:
        v = rng.choice(labels)
        D.add_edge(v, v)
    return D


def assert_as_networkx(D) -> None:
    theirs = nx.is_directed_acyclic_graph(D)
    ours = nx.is_directed_acyclic_graph(D, backend=BACKEND)
    assert type(ours) is bool
    assert ours == theirs == acyclic_by_scipy(D), (ours, theirs)


@pytest.mark.parametrize("seed", range(30))
@pytest.mark.parametrize("kind", ["str", "tuple", "int"])
@pytest.mark.parametrize("acyclic", [True, False])
def test_random_digraphs_as_networkx(seed, kind, acyclic):
    assert_as_networkx(random_digraph(seed, kind, acyclic))


@pytest.mark.parametrize("budget", [0, 1, 5, 50])
@pytest.mark.parametrize("seed", range(12))
def test_converted_path_as_networkx(monkeypatch, budget, seed):
    """The searches of the dicts given up early, or not run: the every-node-entered probe or
    the converted graph decides (its bounded search, the one-way arc pass, in-degree peeling;
    self-loops counted by the conversion)."""
    monkeypatch.setattr(dag, "CYCLE_PROBE_ARCS", budget)
    monkeypatch.setattr(dag, "CYCLE_PROBE_ROWS", budget)
    assert_as_networkx(random_digraph(seed, "mixed", acyclic=True))
    assert_as_networkx(random_digraph(seed, "str", acyclic=False))


def test_search_of_the_dicts_paths():
    """The three answers of the bounded search, on the dicts themselves."""
    assert dag.cycle_in_rows({}) is False
    assert dag.cycle_in_rows({0: {0: {}}}) is True  # a self-loop
    assert dag.cycle_in_rows({0: {1: {}}, 1: {2: {}}, 2: {}}) is False
    assert dag.cycle_in_rows({0: {1: {}}, 1: {2: {}}, 2: {1: {}}}) is True
    path = {v: {v + 1: {}} for v in range(999)} | {999: {}}
    assert dag.cycle_in_rows(path, budget=500) is None
    assert dag.cycle_in_rows(path, budget=2100) is False
    # a diamond reached twice is not a cycle: a node done is not on the path
    assert dag.cycle_in_rows({0: {1: {}, 2: {}}, 1: {3: {}}, 2: {3: {}}, 3: {}}) is False


def test_cycle_through_a_node():
    """Both sides grown a row at a time; an arc from what the node reaches to what reaches it
    is a cycle; a side that stops growing, or the row budget, ends the search with False."""
    ring = nx.cycle_graph(1000, create_using=nx.DiGraph)
    assert dag.cycle_through(ring._succ, ring._pred, 0, rows=2000) is True
    assert dag.cycle_through(ring._succ, ring._pred, 0, rows=900) is False  # (needs ~1000)
    loop = nx.DiGraph([(0, 0), (0, 1)])
    assert dag.cycle_through(loop._succ, loop._pred, 0) is True
    chain = nx.DiGraph([(0, 1), (1, 2), (3, 1)])
    for v in chain:
        assert dag.cycle_through(chain._succ, chain._pred, v) is False
    R = nx.gnp_random_graph(3000, 0.003, seed=2, directed=True)
    assert dag.cycle_through(R._succ, R._pred, 0) is True  # (a giant strong component)
    assert not nx.is_directed_acyclic_graph(R)


def test_answers_from_the_dicts_without_converting():
    """A cycle found through the first node, a cycle found by the search of every node, and
    a graph searched whole: no conversion."""
    for D, want in (
        (nx.cycle_graph(60, create_using=nx.DiGraph), False),
        (nx.DiGraph([(0, 1), (2, 3), (3, 2)]), False),
        (nx.DiGraph([(0, 1), (1, 2), (3, 1)]), True),
        (nx.DiGraph([("a", "b"), ("b", "b")]), False),
    ):
        W = backend_interface.convert_from_nx(D, name="is_directed_acyclic_graph")
        assert W.pending is not None
        assert backend_interface.is_directed_acyclic_graph(W) is want
        assert W.pending is not None  # (never converted)


def test_every_node_entered_answers_before_searching(monkeypatch):
    """A long cycle (every node has an arc in) is found cyclic by the probe of ``_pred``
    alone, with the searches given nothing and the graph never converted."""
    monkeypatch.setattr(dag, "CYCLE_PROBE_ARCS", 0)
    monkeypatch.setattr(dag, "CYCLE_PROBE_ROWS", 0)
    D = nx.cycle_graph(5000, create_using=nx.DiGraph)
    D.add_edges_from((v, (v * 7) % 5000) for v in range(0, 5000, 3))
    W = backend_interface.convert_from_nx(D, name="is_directed_acyclic_graph")
    assert backend_interface.is_directed_acyclic_graph(W) is False
    assert W.pending is not None


def test_large_graphs_through_each_path(monkeypatch):
    """Past the search's budget: a layered DAG in shuffled node order (peeling decides), the
    same with one arc back (a long cycle) and with one self-loop deep inside."""
    rng = np.random.default_rng(5)
    n = 20000
    order = rng.permutation(n)
    src = rng.integers(0, n - 1, 60000)
    dst = np.minimum(src + 1 + rng.integers(0, 50, src.size), n - 1)
    D = nx.DiGraph()
    D.add_nodes_from(order.tolist())  # node order unlike the topological order
    D.add_edges_from(zip(src.tolist(), dst.tolist(), strict=True))
    assert_as_networkx(D)
    back = D.copy()
    back.add_edge(n - 1, 0)
    assert_as_networkx(back)
    loop = D.copy()
    loop.add_edge(n // 2, n // 2)
    assert_as_networkx(loop)
    monkeypatch.setattr(dag, "CYCLE_PROBE_ARCS", 0)  # the self-loop found by the conversion
    assert_as_networkx(loop.copy())


def test_small_and_odd_graphs():
    assert nx.is_directed_acyclic_graph(nx.DiGraph(), backend=BACKEND) is True
    assert nx.is_directed_acyclic_graph(nx.DiGraph([(1, 2)]), backend=BACKEND) is True
    one = nx.DiGraph()
    one.add_node("x")
    assert nx.is_directed_acyclic_graph(one, backend=BACKEND) is True
    # undirected graphs are never DAGs, as in NetworkX (no error)
    assert nx.is_directed_acyclic_graph(nx.path_graph(4), backend=BACKEND) is False
    assert nx.is_directed_acyclic_graph(nx.Graph(), backend=BACKEND) is False
    # views are read through the conversion (not plain DiGraphs)
    D = nx.DiGraph([(0, 1), (1, 2), (2, 0), (3, 4)])
    assert_as_networkx(D.subgraph([0, 1, 3, 4]))
    assert_as_networkx(D.subgraph([0, 1, 2]))
    assert_as_networkx(D.reverse(copy=False))


def test_cached_conversion_is_used():
    """A graph converted by an earlier call answers from the conversion."""
    D = nx.gnp_random_graph(300, 0.02, seed=3, directed=True)
    nx.number_strongly_connected_components(D, backend=BACKEND)  # converts and caches
    assert_as_networkx(D)
    T = nx.DiGraph((u, v) for u, v in D.edges() if u < v)
    nx.number_strongly_connected_components(T, backend=BACKEND)
    assert_as_networkx(T)


def test_multigraphs_are_refused_clearly():
    M = nx.MultiDiGraph([(0, 1), (0, 1)])
    reason = backend_interface.can_run("is_directed_acyclic_graph", (M,), {})
    assert isinstance(reason, str) and "multigraph" in reason
    nx.config.backend_priority.algos = [BACKEND]
    try:
        assert nx.is_directed_acyclic_graph(M) is True  # NetworkX's own answer
    finally:
        nx.config.backend_priority.algos = []


@pytest.mark.gpu
def test_on_the_gpu():
    with backend_device(nx, "gpu"):
        for seed in range(6):
            assert_as_networkx(random_digraph(seed, "tuple", acyclic=seed % 2 == 0))
        D = nx.DiGraph((u, v) for u, v in nx.gnp_random_graph(3000, 0.002, seed=1).edges())
        assert_as_networkx(D)
