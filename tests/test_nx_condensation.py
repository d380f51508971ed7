"""``condensation`` through the backend against NetworkX itself (the whole ``DiGraph``: node
and adjacency order, ``mapping``'s key order, each ``members`` set's iteration order, one data
dict per arc shared by both rows) and against an independent oracle: SciPy's strong
components (the same partition), the arcs between them as a set, and Tarjan's order (every
arc of the condensation goes from a later component to an earlier one)."""

from __future__ import annotations

import random

import numpy as np
import pytest

nx = pytest.importorskip("networkx")
scipy_csgraph = pytest.importorskip("scipy.sparse.csgraph")
sparse = pytest.importorskip("scipy.sparse")

from nx_compare import backend_device, outcome  # noqa: E402  (tests/nx_compare.py)
from nx_labels import shuffled_labels  # noqa: E402  (tests/nx_labels.py)
from warpgraph.nx import _dict_layout  # noqa: E402
from warpgraph.nx.interface import backend_interface  # noqa: E402

BACKEND = "warpgraph"
if BACKEND not in nx.utils.backends.backends:
    pytest.skip("warpgraph is not registered as a NetworkX backend", allow_module_level=True)


def random_digraph(seed: int, kind: str, n: int | None = None, loops: bool = True):
    """Random arcs among shuffled labels, repeated arcs between two components likely (a few
    rings glued by random arcs), self-loops sometimes; ``_pred`` order unlike node order."""
    rng = random.Random(seed)
    n = rng.randint(1, 70) if n is None else n
    labels = shuffled_labels(kind, n, rng)
    D = nx.DiGraph()
    D.add_nodes_from(labels)
    for _ in range(rng.randint(0, 3)):  # rings: strong components of several nodes
        ring = rng.sample(labels, rng.randint(1, max(1, n // 3)))
        nx.add_cycle(D, ring)
    for _ in range(rng.randint(0, 2 * n)):
        u, v = rng.choice(labels), rng.choice(labels)
        if u != v or loops:
            D.add_edge(u, v)
    return D


def rows(adj: dict) -> list:
    return [(u, list(row)) for u, row in adj.items()]


def assert_same_condensation(ours, theirs, G) -> None:
    """Everything a user can read of the two graphs, in order."""
    assert type(ours) is type(theirs) is nx.DiGraph
    assert list(ours.graph) == list(theirs.graph) == ["mapping"]
    assert list(ours.graph["mapping"].items()) == list(theirs.graph["mapping"].items())
    assert list(ours.nodes) == list(theirs.nodes)
    for c in theirs:
        mine, want = ours.nodes[c], theirs.nodes[c]
        assert list(mine) == list(want) == ["members"]
        assert type(mine["members"]) is set
        assert list(mine["members"]) == list(want["members"])  # (iteration order too)
    assert rows(ours._succ) == rows(theirs._succ)
    assert rows(ours._pred) == rows(theirs._pred)
    assert ours._adj is ours._succ
    datas = [d for _, _, d in ours.edges(data=True)]
    assert all(d == {} for d in datas)
    assert len(set(map(id, datas))) == len(datas)  # (one new dict per arc)
    for u, v, d in ours.edges(data=True):
        assert ours._pred[v][u] is d
    assert not set(map(id, datas)) & {id(d) for _, _, d in G.edges(data=True)}


def assert_as_oracle(C, G) -> None:
    """SciPy's strong components and the arcs between them; Tarjan's completion order."""
    n = len(G)
    mapping = C.graph["mapping"]
    if n == 0:
        assert mapping == {} and len(C) == 0
        return
    index = {v: i for i, v in enumerate(G)}
    arcs = np.array([(index[u], index[v]) for u, v in G.edges()], dtype=np.int64).reshape(-1, 2)
    A = sparse.csr_matrix((np.ones(len(arcs)), (arcs[:, 0], arcs[:, 1])), shape=(n, n))
    k, labels = scipy_csgraph.connected_components(A, directed=True, connection="strong")
    nodes = list(G)
    want = {frozenset(v for v, c in zip(nodes, labels, strict=True) if c == j) for j in range(k)}
    assert {frozenset(C.nodes[c]["members"]) for c in C} == want
    assert list(C) == list(range(k))
    assert set(mapping) == set(G) and all(v in C.nodes[mapping[v]]["members"] for v in G)
    between = {(mapping[u], mapping[v]) for u, v in G.edges() if mapping[u] != mapping[v]}
    assert set(C.edges()) == between and C.number_of_edges() == len(between)
    assert all(a > b for a, b in C.edges())  # (a component completes after those it reaches)


def check(G) -> None:
    theirs = nx.condensation(G)
    ours = nx.condensation(G, backend=BACKEND)
    assert_same_condensation(ours, theirs, G)
    assert_as_oracle(ours, G)


@pytest.mark.parametrize("seed", range(25))
@pytest.mark.parametrize("kind", ["int", "str", "tuple", "mixed"])
def test_random_digraphs(seed, kind):
    check(random_digraph(seed, kind))


@pytest.mark.parametrize("seed", range(4))
@pytest.mark.parametrize("kind", ["int", "str", "big-int"])
def test_large_components_iterate_as_networkx(seed, kind):
    """A component of most of the nodes (NetworkX's set made one node at a time: the table a
    set of the graph's node dict gets is another size) and many small ones, past the sizes
    where the sets are built by compiled code; labels whose hashes collide in small tables."""
    rng = random.Random(seed)
    n = 1500
    if kind == "big-int":
        labels = rng.sample(range(10**12), n)
    else:
        labels = shuffled_labels(kind, n, rng)
    D = nx.DiGraph()
    D.add_nodes_from(labels)
    for _ in range(3 * n):
        D.add_edge(rng.choice(labels), rng.choice(labels))
    check(D)


@pytest.mark.parametrize("kind", ["str", "tuple", "big-int"])
def test_networkx_condensation_over_dispatched_components(kind):
    """NetworkX's own ``condensation`` (not dispatched automatically: it returns a graph) over
    ``strongly_connected_components`` dispatched to warpgraph: ``mapping`` lists its keys in
    the order the component sets iterate, so those sets, the giant one included, must iterate
    as NetworkX's (fuzz, session 49: a 20,000-node graph with tuple labels), as must
    ``attracting_components``' sets."""
    rng = random.Random(3)
    n = 1500
    labels = rng.sample(range(10**12), n) if kind == "big-int" else shuffled_labels(kind, n, rng)
    D = nx.DiGraph()
    D.add_nodes_from(labels)
    for _ in range(3 * n):
        D.add_edge(rng.choice(labels), rng.choice(labels))
    for func in (nx.strongly_connected_components, nx.attracting_components):
        theirs = [list(c) for c in func(D)]
        assert [list(c) for c in func(D, backend=BACKEND)] == theirs
    theirs = nx.condensation(D).graph["mapping"]
    saved = list(nx.config.backend_priority.algos)
    nx.config.backend_priority.algos = [BACKEND]
    try:
        ours = nx.condensation(D).graph["mapping"]
    finally:
        nx.config.backend_priority.algos = saved
    assert list(ours.items()) == list(theirs.items())


@pytest.mark.parametrize("path", ["python", "view", "reverse"])
def test_other_paths(monkeypatch, path):
    """The dicts not read in place (every raw reader off), and views (converted by Python)."""
    if path == "python":
        monkeypatch.setitem(_dict_layout._STATE, "ok", False)
    for seed in range(6):
        G = random_digraph(seed, "mixed", n=400)
        if path == "view":
            G = G.subgraph(list(G)[:300])
        elif path == "reverse":
            G = G.reverse(copy=False)
        check(G)


def test_small_cases():
    check(nx.DiGraph())
    one = nx.DiGraph()
    one.add_node("a")
    check(one)
    check(nx.DiGraph([(0, 0)]))  # a self-loop is no arc of the condensation
    check(nx.DiGraph([(0, 1), (1, 0), (0, 1)]))
    check(nx.complete_graph(7, create_using=nx.DiGraph))
    G = nx.DiGraph(nx.barbell_graph(4, 0))
    G.remove_edge(3, 4)
    check(G)
    C = nx.condensation(nx.DiGraph(), backend=BACKEND)
    assert C.graph == {"mapping": {}} and len(C) == 0


def test_repeated_arcs_between_components_once():
    """Arcs from several members of one component into another: the first in ``G.edges()``
    order places it in both rows; later ones are the same arc."""
    G = nx.DiGraph()
    G.add_nodes_from(["x", "a", "b", "c", "y"])
    nx.add_cycle(G, ["a", "b", "c"])
    G.add_edges_from([("c", "y"), ("a", "y"), ("x", "b"), ("b", "y"), ("x", "c"), ("y", "y")])
    check(G)
    C = nx.condensation(G, backend=BACKEND)
    assert C.number_of_edges() == 2


def test_cached_conversion_and_device():
    G = random_digraph(3, "str", n=300)
    with backend_device(nx, "cpu"):
        for _ in range(2):  # (the second call on the cached conversion)
            check(G)


@pytest.mark.gpu
def test_on_the_gpu():
    with backend_device(nx, "gpu"):
        for seed in range(3):
            check(random_digraph(seed, "mixed", n=2000))


def test_undirected_graphs_raise_as_networkx():
    for G in (nx.Graph([(0, 1)]), nx.path_graph(3)):
        theirs = outcome(nx.condensation, G)
        assert theirs[1] is nx.NetworkXNotImplemented
        assert outcome(nx.condensation, G, backend=BACKEND)[1] is theirs[1]
        reason = backend_interface.can_run("condensation", (G,), {})
        assert isinstance(reason, str) and "undirected" in reason


def test_given_scc_and_multigraphs_run_in_networkx():
    """NetworkX keeps the objects given as ``scc`` and maps nodes through them (a partial
    partition is its ``KeyError`` at the first arc that meets an unmapped node); multigraphs
    are declined with the reason."""
    G = nx.DiGraph([(0, 1), (1, 0), (1, 2)])
    scc = [[2], (0, 1)]
    reason = backend_interface.can_run("condensation", (G, scc), {})
    assert isinstance(reason, str) and "scc" in reason
    with pytest.raises(NotImplementedError):
        backend_interface.condensation(backend_interface.convert_from_nx(G), scc)
    M = nx.MultiDiGraph([(0, 1), (0, 1), (1, 0)])
    reason = backend_interface.can_run("condensation", (M,), {})
    assert isinstance(reason, str) and "multigraph" in reason
    with pytest.raises(NotImplementedError, match="condensation"):
        nx.condensation(M, backend=BACKEND)
    nx.config.backend_priority.generators = [BACKEND]
    try:
        C = nx.condensation(G, scc=scc)  # NetworkX's own: the given objects kept
        assert C.nodes[1]["members"] is scc[1]
        assert outcome(nx.condensation, G, scc=[[2], [0]])[1] is KeyError
        M.add_edge(1, 2)
        assert list(nx.condensation(M).edges) == [(1, 0)]  # (NetworkX's own)
        big = random_digraph(1, "str", n=800)  # (past should_run's size)
        assert_same_condensation(nx.condensation(big), nx.condensation(big, backend="networkx"),
                                 big)  # fmt: skip
    finally:
        nx.config.backend_priority.generators = []
