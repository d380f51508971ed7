"""``nx/dag.py`` against NetworkX itself and independent oracles. ``is_directed_acyclic_graph``:
SciPy's strong components (acyclic exactly when every node is its own strong component and no
arc is a self-loop), through each of its paths (the searches of NetworkX's dicts answering
alone or giving up, the every-node-entered probe, the converted graph).
``topological_sort`` and ``topological_generations``: NetworkX's exact order and error, and a
verifier (every arc goes forward; each node one generation past its latest predecessor).
``dag_longest_path_length``: the heaviest path found by trying every path of small DAGs, and
NetworkX's value types."""

from __future__ import annotations

import random

import numpy as np
import pytest

nx = pytest.importorskip("networkx")
scipy_csgraph = pytest.importorskip("scipy.sparse.csgraph")
sparse = pytest.importorskip("scipy.sparse")

from nx_compare import backend_device, outcome  # noqa: E402  (tests/nx_compare.py)
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


@pytest.mark.parametrize(
    "func, args",
    [
        ("is_directed_acyclic_graph", ()),
        ("topological_sort", ()),
        ("topological_generations", ()),
        ("dag_longest_path_length", ()),
        ("is_aperiodic", ()),
        ("multi_source_dijkstra_path_length", ([0],)),
    ],
)
def test_session_46_functions_refuse_multigraphs_with_the_reason(func, args):
    """Every function added with this file: a multigraph is declined by ``can_run`` with the
    reason, ``backend=`` gets NetworkX's ``NotImplementedError`` naming the function."""
    M = nx.MultiDiGraph([(0, 1), (0, 1), (1, 2)])
    reason = backend_interface.can_run(func, (M, *args), {})
    assert isinstance(reason, str) and "multigraph" in reason
    with pytest.raises(NotImplementedError, match=func):
        result = getattr(nx, func)(M, *args, backend=BACKEND)
        list(result) if func.startswith("topological") else result


def test_multigraphs_are_refused_clearly():
    M = nx.MultiDiGraph([(0, 1), (0, 1)])
    reason = backend_interface.can_run("is_directed_acyclic_graph", (M,), {})
    assert isinstance(reason, str) and "multigraph" in reason
    nx.config.backend_priority.algos = [BACKEND]
    try:
        assert nx.is_directed_acyclic_graph(M) is True  # NetworkX's own answer
    finally:
        nx.config.backend_priority.algos = []


def _listed(func, G, **kwargs):
    """``func(G)`` consumed: (items, None), or (items before the error, (type, message))."""
    items: list = []
    try:
        items.extend(func(G, **kwargs))
    except Exception as exc:  # (compared with NetworkX's: type and message)
        return items, (type(exc), str(exc))
    return items, None


def assert_topological_order_valid(D, generations: list) -> None:
    """The verifier: each node once, every arc forward, each node one generation past its
    latest predecessor (sources in generation 0)."""
    gen = {v: k for k, nodes in enumerate(generations) for v in nodes}
    assert len(gen) == len(D) == sum(map(len, generations))
    for v in D:
        preds = list(D.pred[v])
        assert gen[v] == (1 + max(gen[u] for u in preds) if preds else 0)


@pytest.mark.parametrize("seed", range(25))
@pytest.mark.parametrize("kind", ["str", "tuple", "int"])
@pytest.mark.parametrize("acyclic", [True, False])
def test_topological_order_as_networkx(seed, kind, acyclic):
    D = random_digraph(seed, kind, acyclic)
    for func in (nx.topological_generations, nx.topological_sort):
        theirs = _listed(func, D)
        ours = _listed(func, D, backend=BACKEND)
        assert ours == theirs, func.__name__
    generations, error = _listed(nx.topological_generations, D, backend=BACKEND)
    if error is None:
        assert_topological_order_valid(D, generations)
    else:
        assert error[0] is nx.NetworkXUnfeasible and not acyclic_by_scipy(D)


def test_topological_order_of_a_large_dag():
    """A 20k-node DAG in shuffled node order, many generations."""
    rng = np.random.default_rng(9)
    n = 20000
    src = rng.integers(0, n - 1, 60000)
    dst = np.minimum(src + 1 + rng.integers(0, 40, src.size), n - 1)
    D = nx.DiGraph()
    D.add_nodes_from(rng.permutation(n).tolist())
    D.add_edges_from(zip(src.tolist(), dst.tolist(), strict=True))
    ours = list(nx.topological_generations(D, backend=BACKEND))
    assert ours == list(nx.topological_generations(D))
    assert_topological_order_valid(D, ours)
    assert list(nx.topological_sort(D, backend=BACKEND)) == list(nx.topological_sort(D))


def test_topological_order_errors_come_when_iterated():
    """As NetworkX's generators: nothing raised by the call; an undirected graph's error at
    the first item; a cycle's after the nodes before it."""
    U = nx.path_graph(3)
    gen = nx.topological_sort(U, backend=BACKEND)
    with pytest.raises(nx.NetworkXError, match="not defined on undirected graphs"):
        next(gen)
    D = nx.DiGraph([(0, 1), (1, 2), (2, 1), (3, 4)])
    items, error = _listed(nx.topological_sort, D, backend=BACKEND)
    assert items == [0, 3, 4] and error[0] is nx.NetworkXUnfeasible
    assert _listed(nx.topological_generations, D, backend=BACKEND) == _listed(
        nx.topological_generations, D
    )
    assert list(nx.topological_sort(nx.DiGraph(), backend=BACKEND)) == []


MUTATIONS = {
    "add an edge to a new node": lambda D, x: D.add_edge(x, "new"),
    "remove the last node": lambda D, x: D.remove_node(list(D)[-1]),
    "remove a node of the next generation": lambda D, x: D.remove_node(next(iter(D.succ[x]))),
    "add a node": lambda D, x: D.add_node("alone"),
    "close a cycle": lambda D, x: D.add_edge(list(D)[-1], x),
    "add an edge within": lambda D, x: D.add_edge(list(D)[1], list(D)[-1]),
}


@pytest.mark.parametrize("mutation", list(MUTATIONS))
@pytest.mark.parametrize("func", ["topological_sort", "topological_generations"])
@pytest.mark.parametrize("after", [1, 2, 4])
def test_a_graph_changed_while_iterating_as_networkx(mutation, func, after):
    """The graph changed by NetworkX's methods after ``after`` items: the same items, then the
    same ``RuntimeError`` or ``NetworkXUnfeasible`` (or none), as NetworkX's generator."""

    def run(**kwargs):
        D = nx.DiGraph([(0, 1), (0, 2), (1, 3), (2, 3), (3, 4), (4, 5), (2, 5), (5, 6)])
        items: list = []
        try:
            for item in getattr(nx, func)(D, **kwargs):
                items.append(item)
                if len(items) == after:
                    last = item[0] if isinstance(item, list) else item
                    MUTATIONS[mutation](D, last)
        except Exception as exc:  # (compared: type and message)
            return items, (type(exc), str(exc))
        return items, None

    assert run(backend=BACKEND) == run()


def test_views_run_in_networkx():
    D = nx.DiGraph([(0, 1), (1, 2)])
    for func in ("topological_sort", "topological_generations"):
        reason = backend_interface.can_run(func, (D.subgraph([0, 1]),), {})
        assert isinstance(reason, str) and "view" in reason
        assert backend_interface.can_run(func, (D,), {}) is True


def heaviest_path_by_search(D, weight: str, default) -> float:
    """The oracle: every path tried from every node (small DAGs), the empty path weighing 0."""
    best = 0

    def walk(v, total):
        nonlocal best
        best = max(best, total)
        for w, data in D.succ[v].items():
            walk(w, total + data.get(weight, default))

    for v in D:
        walk(v, 0)
    return best


def weighted_dag(seed: int, kind: str) -> nx.DiGraph:
    """A small DAG (ranked shuffled labels, arcs from lower to higher rank) with ``cost`` on
    most arcs: ints or floats, negative ones on every third seed, zeros."""
    rng = random.Random(seed)
    n = rng.randint(1, 14)
    labels = shuffled_labels("mixed", n, rng)
    D = nx.DiGraph()
    D.add_nodes_from(labels)
    low = -3 if seed % 3 == 0 else 0
    for _ in range(rng.randint(0, 2 * n)):
        a, b = sorted(rng.sample(range(n), 2)) if n > 1 else (0, 0)
        if a == b:
            continue
        if rng.random() < 0.85:
            cost = rng.randint(low, 7) if kind == "int" else rng.choice([0.0, 0.25, 2.5]) + low
            D.add_edge(labels[a], labels[b], cost=cost)
        else:
            D.add_edge(labels[a], labels[b])
    return D


@pytest.mark.parametrize("seed", range(30))
@pytest.mark.parametrize("kind", ["int", "float"])
def test_longest_path_length_as_networkx_and_search(seed, kind):
    D = weighted_dag(seed, kind)
    default = 1 if kind == "int" else 0.5
    theirs = nx.dag_longest_path_length(D, weight="cost", default_weight=default)
    ours = nx.dag_longest_path_length(D, weight="cost", default_weight=default, backend=BACKEND)
    assert ours == theirs == heaviest_path_by_search(D, "cost", default)
    assert type(ours) is type(theirs)


@pytest.mark.parametrize("seed", range(12))
@pytest.mark.parametrize("direction", ["up", "down"])
def test_longest_path_length_in_node_order(seed, direction):
    """Every arc to a higher (or every arc to a lower) node id: the pass in node order (or its
    reverse); a self-loop or one arc the other way sends it to Kahn's pass."""
    D = weighted_dag(seed, "int" if seed % 2 else "float")
    D = nx.convert_node_labels_to_integers(D)  # (ids in node order)
    flip = direction == "down"
    arcs = [((u, v) if (u < v) != flip else (v, u), d) for u, v, d in D.edges(data=True)]
    H = nx.DiGraph()
    H.add_nodes_from(D)
    H.add_edges_from((u, v, d) for (u, v), d in arcs)
    default = 1 if seed % 2 else 0.5
    want = heaviest_path_by_search(H, "cost", default)
    for G in (H, H.copy()):
        ours = nx.dag_longest_path_length(G, weight="cost", default_weight=default, backend=BACKEND)
        assert ours == nx.dag_longest_path_length(G, weight="cost", default_weight=default) == want
        assert type(ours) is type(
            nx.dag_longest_path_length(G, weight="cost", default_weight=default)
        )
    if len(H) > 1:
        H.add_edge(len(H) - 1, len(H) - 1)
        assert outcome(nx.dag_longest_path_length, H, backend=BACKEND)[1] is nx.NetworkXUnfeasible


def test_longest_path_length_types_and_errors(monkeypatch):
    """Float weights with no path of positive weight: NetworkX's ``int`` 0; a cycle:
    ``NetworkXUnfeasible``, found on the dicts unconverted or by the converted graph."""
    D = nx.DiGraph()
    D.add_edge("a", "b", weight=-1.0)
    D.add_edge("b", "c", weight=0.0)
    assert outcome(nx.dag_longest_path_length, D, backend=BACKEND) == (0, None)
    assert type(nx.dag_longest_path_length(D, backend=BACKEND)) is int
    D.add_edge("c", "d", weight=0.5)
    assert nx.dag_longest_path_length(D, backend=BACKEND) == 0.5
    assert nx.dag_longest_path_length(nx.DiGraph(), backend=BACKEND) == 0
    ring = nx.cycle_graph(40, create_using=nx.DiGraph)
    ring.add_edge(0, 100)
    W = backend_interface.convert_from_nx(
        ring, edge_attrs={"weight": 1}, name="dag_longest_path_length"
    )
    with pytest.raises(nx.NetworkXUnfeasible, match="contains a cycle"):
        backend_interface.dag_longest_path_length(W)
    assert W.pending is not None  # (never converted)
    monkeypatch.setattr(dag, "CYCLE_PROBE_ROWS", 0)
    ring.add_edge(100, 101)  # (a new graph for the cache)
    theirs = outcome(nx.dag_longest_path_length, ring)
    assert theirs[1] is nx.NetworkXUnfeasible
    assert outcome(nx.dag_longest_path_length, ring, backend=BACKEND) == theirs


def test_a_deferred_conversion_cached_with_weights_serves_later_calls():
    """``dag_longest_path_length`` caches its conversion under its edge attribute, deferred
    when it raised before converting: a later weighted call that finds it in NetworkX's cache
    converts it then, and answers as NetworkX."""
    for D in (nx.cycle_graph(30, create_using=nx.DiGraph), nx.path_graph(30, nx.DiGraph)):
        nx.set_edge_attributes(D, {e: i % 4 + 1 for i, e in enumerate(D.edges())}, "weight")
        assert outcome(nx.dag_longest_path_length, D, backend=BACKEND) == outcome(
            nx.dag_longest_path_length, D
        )
        for source in (0, 7):
            ours = nx.single_source_dijkstra_path_length(D, source, backend=BACKEND)
            assert list(ours.items()) == list(
                nx.single_source_dijkstra_path_length(D, source).items()
            )
        assert nx.pagerank(D, backend=BACKEND) == pytest.approx(nx.pagerank(D), abs=1e-6)


def test_longest_path_length_declined_weights():
    """``weight=None`` is declined by ``can_run``; ``None``, mixed and NaN weights and int
    weights whose sums could leave int64 by the function (NetworkX then runs under automatic
    dispatch: its own answer or error)."""
    D = nx.DiGraph([(0, 1), (1, 2)])
    reason = backend_interface.can_run("dag_longest_path_length", (D,), {"weight": None})
    assert isinstance(reason, str) and "weight=None" in reason
    cases = [
        [(0, 1, {"weight": 1}), (1, 2, {"weight": 2.5})],
        [(0, 1, {"weight": float("nan")}), (1, 2, {"weight": 1.0})],
        [(0, 1, {"weight": None}), (1, 2, {"weight": 1})],
        [(v, v + 1, {"weight": 2**61}) for v in range(3)],  # (a sum past int64: 3 * 2**61)
    ]
    nx.config.backend_priority.algos = [BACKEND]
    try:
        for edges in cases:
            G = nx.DiGraph(edges)
            with pytest.raises(NotImplementedError):  # (the backend's own answer: declined)
                nx.dag_longest_path_length(G, backend=BACKEND)
            assert repr(outcome(nx.dag_longest_path_length, G)) == repr(
                outcome(nx.dag_longest_path_length, G, backend="networkx")
            )
    finally:
        nx.config.backend_priority.algos = []


@pytest.mark.gpu
def test_on_the_gpu():
    with backend_device(nx, "gpu"):
        for seed in range(6):
            assert_as_networkx(random_digraph(seed, "tuple", acyclic=seed % 2 == 0))
        D = nx.DiGraph((u, v) for u, v in nx.gnp_random_graph(3000, 0.002, seed=1).edges())
        assert_as_networkx(D)
        assert list(nx.topological_sort(D, backend=BACKEND)) == list(nx.topological_sort(D))
        assert nx.dag_longest_path_length(D, backend=BACKEND) == nx.dag_longest_path_length(D)
