"""``is_tree``, ``is_forest``, ``is_branching`` and ``is_arborescence`` (``nx/trees.py``)
against NetworkX itself (through ``backend="warpgraph"``: under automatic dispatch small graphs
run in NetworkX) and an independent oracle: a union-find that meets each edge once and finds a
cycle where an edge joins two nodes already joined (a self-loop, two opposite arcs), with the
in-degrees counted from the edge list. Trees, forests, graphs of ``n - 1`` edges that are not
trees, self-loops, isolated nodes, the null graph, non-integer labels out of order, graphs large
enough to be read in place (and the same through the Python and converted paths), and graphs
changed after a first call."""

from __future__ import annotations

import random

import numba
import numpy as np
import pytest

nx = pytest.importorskip("networkx")
scipy_csgraph = pytest.importorskip("scipy.sparse.csgraph")
sparse = pytest.importorskip("scipy.sparse")

from nx_compare import backend_device  # noqa: E402  (tests/nx_compare.py)
from nx_labels import shuffled_labels  # noqa: E402  (tests/nx_labels.py)
from warpgraph.nx import _dict_layout, trees  # noqa: E402
from warpgraph.nx._dict_components import MIN_NODES  # noqa: E402
from warpgraph.nx.interface import backend_interface  # noqa: E402

BACKEND = "warpgraph"
if BACKEND not in nx.utils.backends.backends:
    pytest.skip("warpgraph is not registered as a NetworkX backend", allow_module_level=True)

UNDIRECTED = ("is_tree", "is_forest")
DIRECTED = ("is_tree", "is_forest", "is_branching", "is_arborescence")
LARGE = MIN_NODES + 1500  # read in place (the rows and the weak components)
in_place = pytest.mark.skipif(
    not _dict_layout.available(), reason="the dict tables cannot be read in place on this Python"
)


def _said(func: str, G, **kwargs):
    """``(value, None)`` or ``(None, (exception type, message))`` of ``nx.<func>(G)``."""
    try:
        return getattr(nx, func)(G, **kwargs), None
    except Exception as exc:  # (compared with NetworkX's: type and message)
        return None, (type(exc), str(exc))


def oracle(G) -> dict[str, bool]:
    """The four answers by a union-find over ``G``'s edges (each met once: a cycle where it
    joins two nodes already joined) and the in-degrees of its edge list."""
    index = {v: i for i, v in enumerate(G)}
    parent = list(range(len(G)))

    def find(x: int) -> int:
        while parent[x] != x:
            parent[x] = parent[parent[x]]
            x = parent[x]
        return x

    acyclic, parts = True, len(G)
    heads = []
    for u, v in G.edges():
        a, b = find(index[u]), find(index[v])
        heads.append(index[v])
        if a == b:
            acyclic = False
        else:
            parent[a] = b
            parts -= 1
    indeg = np.bincount(np.array(heads, dtype=np.int64), minlength=len(G))
    one_parent = bool(indeg.max(initial=0) <= 1)
    return {
        "is_forest": acyclic,
        "is_tree": acyclic and parts == 1,
        "is_branching": acyclic and one_parent,
        "is_arborescence": acyclic and parts == 1 and one_parent,
    }


def assert_as_networkx(G) -> None:
    """Each function through the backend says what NetworkX says, a ``bool``, and the oracle's
    answer: as the first call on ``G`` (its own path; the cached conversion cleared) and again
    (the conversion the first call cached, converted by it or not)."""
    funcs = DIRECTED if G.is_directed() else UNDIRECTED
    want = oracle(G) if len(G) else None
    for func in funcs:
        G.__networkx_cache__.clear()
        theirs = _said(func, G)
        for _ in range(2):
            ours = _said(func, G, backend=BACKEND)
            assert ours == theirs, func
            if want is not None:
                assert type(ours[0]) is bool and ours[0] is want[func], func


def random_tree(n: int, rng: random.Random, labels: list | None = None, directed=False):
    """A random recursive tree on ``labels`` (default ``0..n-1``), each node's parent among
    the nodes before it, oriented parent -> child; node order shuffled."""
    labels = list(range(n)) if labels is None else labels
    G = nx.DiGraph() if directed else nx.Graph()
    G.add_nodes_from(rng.sample(labels, n))
    G.add_edges_from((labels[rng.randrange(i)], labels[i]) for i in range(1, n))
    return G


def shapes(n: int, rng: random.Random, labels: list, directed: bool):
    """Graphs of ``n`` nodes near the line between trees and not: ``(name, graph)``."""
    T = random_tree(n, rng, labels, directed)
    yield "tree", T
    nodes = list(T)
    F = T.copy()
    F.remove_edges_from(rng.sample(list(F.edges()), min(3, F.number_of_edges())))
    yield "forest", F
    if n > 2:
        extra = T.copy()
        u, v = rng.sample(nodes, 2)
        extra.add_edge(u, v)  # a cycle (or two opposite arcs), unless the edge was there
        yield "tree plus an edge", extra
    loop = F.copy()
    loop.add_edge(nodes[0], nodes[0])  # a self-loop: never a forest
    yield "forest plus a self-loop", loop
    if n > 3:  # n - 1 edges, a cycle and an isolated node
        C = T.__class__()
        C.add_nodes_from(nodes)
        nx.add_cycle(C, nodes[:-1])
        yield "cycle and an isolated node", C
    if directed:  # the underlying graph a tree, a node with two parents
        P = T.copy()
        if n > 1:
            u, v = rng.choice(list(T.edges()))
            P.remove_edge(u, v)
            P.add_edge(v, u)  # v -> u: u has two parents unless it was the root
        yield "polytree", P
        S = T.copy()
        S.add_node("star")
        S.add_edges_from((v, "star") for v in nodes[:2])  # two parents, still acyclic
        yield "two parents", S


@pytest.mark.parametrize("seed", range(12))
@pytest.mark.parametrize("kind", ["str", "tuple", "int", "mixed"])
@pytest.mark.parametrize("directed", [False, True])
def test_small_shapes_as_networkx(seed, kind, directed):
    rng = random.Random(seed)
    n = rng.randint(1, 40)
    labels = shuffled_labels(kind, n, rng)
    for _, G in shapes(n, rng, labels, directed):
        assert_as_networkx(G)


@pytest.mark.parametrize("seed", range(20))
@pytest.mark.parametrize("directed", [False, True])
def test_random_graphs_as_networkx(seed, directed):
    """Sparse random graphs around ``n - 1`` edges, with self-loops and isolated nodes."""
    rng = random.Random(seed)
    n = rng.randint(1, 50)
    labels = shuffled_labels("mixed", n, rng)
    G = nx.DiGraph() if directed else nx.Graph()
    G.add_nodes_from(labels)
    for _ in range(rng.randint(0, n + 2)):
        G.add_edge(rng.choice(labels), rng.choice(labels))
    assert_as_networkx(G)


@pytest.mark.parametrize(
    "G",
    [
        nx.Graph(),
        nx.DiGraph(),
        nx.empty_graph(1),
        nx.empty_graph(1, create_using=nx.DiGraph),
        nx.Graph([(0, 0)]),
        nx.DiGraph([(0, 0)]),
        nx.empty_graph(2),
        nx.Graph([(0, 1), (1, 1)]),  # n edges: a self-loop on a tree
        nx.Graph([(0, 1), (2, 2)]),  # n - 1 edges, a self-loop, two parts
        nx.DiGraph([(0, 1), (1, 0)]),  # two opposite arcs: a cycle of the underlying graph
        nx.DiGraph([(0, 1), (1, 0), (2, 2)]),
        nx.DiGraph([(0, 1), (2, 1)]),  # a tree, node 1 with two parents
        nx.DiGraph([(0, 1), (0, 2), (2, 3)]),  # an arborescence
        nx.DiGraph([(1, 0), (2, 0), (3, 4)]),
        nx.path_graph(6),
        nx.star_graph(5),
        nx.cycle_graph(5),
    ],
    ids=lambda G: f"{'di' if G.is_directed() else 'un'}-n{len(G)}m{G.number_of_edges()}",
)
def test_small_cases_as_networkx(G):
    assert_as_networkx(G)


def test_null_graph_errors_are_networkx_own():
    for func in DIRECTED:
        said = _said(func, nx.DiGraph(), backend=BACKEND)
        assert said == (None, (nx.NetworkXPointlessConcept, "G has no nodes."))
    for func in UNDIRECTED:
        assert _said(func, nx.Graph(), backend=BACKEND) == _said(func, nx.Graph())


@pytest.mark.parametrize("directed", [False, True])
@pytest.mark.parametrize("kind", ["int", "str", "tuple"])
@pytest.mark.parametrize("seed", range(2))
def test_large_shapes_as_networkx(directed, kind, seed):
    """Past the sizes read in place: the row lengths (the head read alone and the parallel
    chunks), the weak components from the dicts."""
    rng = random.Random(seed)
    labels = shuffled_labels(kind, LARGE, rng)
    for _, G in shapes(LARGE, rng, labels, directed):
        assert_as_networkx(G)


@in_place
@pytest.mark.parametrize("directed", [False, True])
def test_answers_without_converting(directed):
    """A graph with too many edges answers from the row lengths; a large tree, forest or
    graph of ``n - 1`` edges from the weak components read in place: none is converted."""
    rng = random.Random(3)
    cases = dict(shapes(LARGE, rng, list(range(LARGE)), directed))
    cases["dense"] = nx.gnm_random_graph(LARGE, 4 * LARGE, seed=1, directed=directed)
    if directed:  # n - 1 arcs, weakly connected, the last node in order with two parents
        late = nx.DiGraph([(v // 2, v) for v in range(1, LARGE)])
        late.remove_edge(1, 3)
        late.add_edge(3, LARGE - 1)  # (node 3's subtree joined again, through the last node)
        cases["late second parent"] = late
    for name, G in cases.items():
        want = oracle(G)
        for func in DIRECTED if directed else UNDIRECTED:
            W = backend_interface.convert_from_nx(G, name=func)
            assert W.pending is G
            assert getattr(backend_interface, func)(W) is want[func], (name, func)
            assert W.pending is G, (name, func)  # (never converted)


@pytest.mark.parametrize("path", ["python", "view"])
@pytest.mark.parametrize("directed", [False, True])
def test_other_paths_as_networkx(monkeypatch, path, directed):
    """The same answers where the rows are not read in place: every raw reader off (Python's
    ``len`` over the rows, the components on the conversion), and a subgraph view (converted:
    its rows are not dicts)."""
    rng = random.Random(5)
    cases = list(shapes(LARGE, rng, shuffled_labels("str", LARGE, rng), directed))
    if path == "python":
        monkeypatch.setitem(_dict_layout._STATE, "ok", False)
    for _, G in cases:
        assert_as_networkx(G.subgraph(list(G)[: LARGE - 2]) if path == "view" else G)


@pytest.mark.parametrize("directed", [False, True])
def test_converted_graph_as_oracle(directed):
    """A graph converted before (as by another function, eagerly): the arc count and the
    in-degrees of the conversion, its components."""
    rng = random.Random(6)
    for name, G in shapes(LARGE, rng, shuffled_labels("tuple", LARGE, rng), directed):
        want = oracle(G)
        W = backend_interface.convert_from_nx(G)
        assert W.pending is None
        for func in DIRECTED if directed else UNDIRECTED:
            assert getattr(backend_interface, func)(W) is want[func], (name, func)


@pytest.mark.parametrize("size", [30, LARGE])
@pytest.mark.parametrize("directed", [False, True])
def test_changed_graph_answers_anew(size, directed):
    """NetworkX's methods clear the cached conversion: after an edge that closes a cycle, one
    that splits a node's parents, and their removal, each answer follows the graph."""
    G = random_tree(size, random.Random(1), directed=directed)
    assert_as_networkx(G)
    u = next(iter(G))
    v = next(v for v in G if v != u and not G.has_edge(u, v) and not G.has_edge(v, u))
    G.add_edge(u, v)
    assert nx.is_tree(G, backend=BACKEND) is oracle(G)["is_tree"]
    assert_as_networkx(G)
    G.remove_edge(u, v)
    G.add_node("alone")
    assert_as_networkx(G)
    G.add_edge("alone", "alone")
    assert_as_networkx(G)
    G.remove_node("alone")
    assert_as_networkx(G)
    assert nx.is_tree(G, backend=BACKEND) is True


@in_place
@pytest.mark.parametrize("keys", ["int", "str"])
def test_row_lengths_in_place(keys):
    """Sum and longest of a dict's values read in place: deleted entries skipped, str keys
    (tables of the other kind), the read stopped past a bound (figures past it, of the rows
    read), and None for what it cannot read."""
    label = str if keys == "str" else int
    rng = np.random.default_rng(4)
    sizes = rng.integers(0, 5, 20000)
    rows = {label(v): dict.fromkeys(range(int(k))) for v, k in enumerate(sizes)}
    for v in range(0, 20000, 7):
        del rows[label(v)]
    lengths = [len(r) for r in rows.values()]
    assert trees.row_lengths(rows) == (sum(lengths), max(lengths))
    total, longest = trees.row_lengths(rows, enough=2000)
    assert 2000 < total < sum(lengths)  # (a few chunks read)
    assert trees.row_lengths(rows, widest=3)[1] == 4
    many = 50_000
    ones = {label(v): {v: None} for v in range(many)}
    ones[label(many - 1)] = dict.fromkeys(range(3))  # the longest row in the last chunk
    assert trees.row_lengths(ones, widest=1)[1] == 3  # (what else was read: any part)
    assert trees.row_lengths(ones) == (many + 2, 3)
    ones[label(5000)] = dict.fromkeys(range(2))  # past the head
    threads = numba.get_num_threads()
    numba.set_num_threads(1)  # (one thread reads the chunks in order: the rest not read)
    try:
        total, longest = trees.row_lengths(ones, widest=1)
    finally:
        numba.set_num_threads(threads)
    assert longest == 2 and 5000 < total < 10000
    assert trees.row_lengths({label(0): {}}) == (0, 0)
    assert trees.row_lengths({}) == (0, 0)
    bad = dict(rows)
    bad[label(19999)] = [1, 2]  # a value that is not a dict: nothing to say
    assert trees.row_lengths(bad) is None
    assert trees.row_lengths(list(rows)) is None


def test_cycle_near_the_first_node():
    """The search finds cycles of the underlying multigraph near the first node (self-loops,
    two opposite arcs, a triangle, a lattice's squares), none in a tree or a forest, and gives
    up on a cycle beyond its rows."""
    near = trees.cycle_near
    assert near(nx.grid_2d_graph(40, 40)) and near(nx.complete_graph(4))
    assert near(nx.Graph([("a", "a")])) and near(nx.DiGraph([(0, 0)]))
    assert near(nx.DiGraph([(0, 1), (1, 0)]), rows=1)  # (both ways from the first row)
    assert near(nx.DiGraph([(0, 1), (2, 1), (2, 0)]))
    assert near(nx.DiGraph([(5, 1), (1, 2), (2, 1)]))  # opposite arcs one step away
    rng = random.Random(4)
    for directed in (False, True):
        for n in (1, 2, 30, 500):
            T = random_tree(n, rng, directed=directed)
            assert not near(T) and not near(T, rows=10**6)
        ring = nx.cycle_graph(500, create_using=nx.DiGraph if directed else nx.Graph)
        assert not near(ring) and near(ring, rows=500)  # (found where the two ends meet)
    hub = nx.star_graph(5000)  # a hub first: given up before its row is read
    hub.add_edge(1, 2)
    assert not near(hub) and near(hub, rows=3) is False and near(nx.star_graph(10)) is False
    hub = nx.star_graph(20)
    hub.add_edge(1, 2)
    assert near(hub)
    far = nx.path_graph(100)
    nx.add_cycle(far, [99, 100, 101])
    assert not near(far) and not near(far, rows=99) and near(far, rows=101)


@pytest.mark.parametrize("directed", [False, True])
def test_lattice_answers_from_the_search(monkeypatch, directed):
    """A graph with a cycle near its first node needs no row lengths (``is_tree`` and
    ``is_forest``; the other two read the in-degrees first)."""

    def unread(*args):
        raise AssertionError("the rows were read")

    monkeypatch.setattr(trees, "_row_figures", unread)
    G = nx.grid_2d_graph(80, 80, create_using=nx.DiGraph if directed else nx.Graph)
    for func in UNDIRECTED:
        assert getattr(nx, func)(G, backend=BACKEND) is False


def test_scipy_components_agree_on_large_forests():
    """A second oracle on large graphs: SciPy's weak components and the edge count (a forest
    has ``n - components`` edges)."""
    for directed in (False, True):
        G = random_tree(LARGE, random.Random(8), directed=directed)
        G.remove_edges_from(list(G.edges())[::500])
        n = len(G)
        index = {v: i for i, v in enumerate(G)}
        ends = np.array([(index[u], index[v]) for u, v in G.edges()], dtype=np.int64)
        A = sparse.csr_matrix((np.ones(len(ends)), (ends[:, 0], ends[:, 1])), shape=(n, n))
        parts, _ = scipy_csgraph.connected_components(A, directed=True, connection="weak")
        assert parts > 1
        assert G.number_of_edges() == n - parts  # (so a forest)
        assert nx.is_forest(G, backend=BACKEND) is True
        assert nx.is_tree(G, backend=BACKEND) is False


def test_wrong_graphs_are_refused_clearly():
    """Undirected graphs to the directed-only two: NetworkX's own ``NetworkXNotImplemented``
    (its decorator runs before dispatch; the backend's functions raise it too). Multigraphs:
    ``can_run`` declines with the reason."""
    P = nx.path_graph(4)
    W = backend_interface.convert_from_nx(P, name="is_branching")
    for func in ("is_branching", "is_arborescence"):
        assert _said(func, P, backend=BACKEND) == _said(func, P)
        assert _said(func, P)[1][0] is nx.NetworkXNotImplemented
        with pytest.raises(nx.NetworkXNotImplemented, match="undirected"):
            getattr(backend_interface, func)(W)
        reason = backend_interface.can_run(func, (P,), {})
        assert isinstance(reason, str) and "undirected" in reason
    M = nx.MultiDiGraph([(0, 1), (0, 1)])
    for func in DIRECTED:
        reason = backend_interface.can_run(func, (M,), {})
        assert isinstance(reason, str) and "multigraph" in reason


@pytest.mark.gpu
def test_on_the_gpu():
    with backend_device(nx, "gpu"):
        rng = random.Random(2)
        for directed in (False, True):
            for _, G in shapes(LARGE, rng, shuffled_labels("tuple", LARGE, rng), directed):
                assert_as_networkx(G)
                assert_as_networkx(G.subgraph(list(G)[1:]))  # (converted: the GPU's count)
