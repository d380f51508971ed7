"""``dag_longest_path`` through the backend against NetworkX itself (the very path: ties broken by
the first maximum in ``G.pred[v]`` order, then the first node of largest distance in the
topological order) and against independent oracles: every path of small DAGs tried (the
path returned is one of the heaviest, empty paths weighing 0), and a reference of the tie
rules written here. ``dag_longest_path_length`` stays the weight of this path."""

from __future__ import annotations

import random
from itertools import pairwise

import numpy as np
import pytest

nx = pytest.importorskip("networkx")

from nx_compare import backend_device, outcome  # noqa: E402  (tests/nx_compare.py)
from nx_labels import shuffled_labels  # noqa: E402  (tests/nx_labels.py)
from warpgraph.nx import _dict_layout, dag  # noqa: E402
from warpgraph.nx.interface import backend_interface  # noqa: E402

BACKEND = "warpgraph"
if BACKEND not in nx.utils.backends.backends:
    pytest.skip("warpgraph is not registered as a NetworkX backend", allow_module_level=True)


def random_dag(seed: int, kind: str, weights: str = "int", n: int | None = None):
    """Arcs from a lower to a higher rank of a random order, added in random order (so
    ``G.pred[v]`` is not in node order), ``cost`` on most of them (the rest take the default);
    small weight ranges and zeros make ties common; ``negative`` lets paths go below 0."""
    rng = random.Random(seed)
    n = rng.randint(1, 40) if n is None else n
    labels = shuffled_labels(kind, n, rng)
    rank = {v: i for i, v in enumerate(rng.sample(labels, n))}
    G = nx.DiGraph()
    G.add_nodes_from(labels)
    for _ in range(rng.randint(0, 3 * n)):
        u, v = rng.sample(labels, 2) if n > 1 else (labels[0], labels[0])
        if u == v:
            continue
        if rank[u] > rank[v]:
            u, v = v, u
        if weights == "none" or rng.random() < 0.2:
            G.add_edge(u, v)
        elif weights == "int":
            G.add_edge(u, v, cost=rng.randint(0, 3))
        elif weights == "negative":
            G.add_edge(u, v, cost=rng.randint(-3, 2))
        else:
            G.add_edge(u, v, cost=rng.choice([0.0, 0.5, 1.0, -0.25, 1.5]))
    return G


def weight_of(G, path, weight="cost", default=1):
    total = 0
    for u, v in pairwise(path):
        total += G[u][v].get(weight, default)
    return total


def heaviest_by_search(G, weight="cost", default=1):
    """The largest weight of any path (a single node: 0), every path tried."""
    best = 0
    for source in G:
        stack = [(source, 0)]
        while stack:
            u, w = stack.pop()
            best = max(best, w)
            for v, d in G._succ[u].items():
                stack.append((v, w + d.get(weight, default)))
    return best


def reference_path(G, order, weight="cost", default=1):
    """The tie rules written out: each node takes the first predecessor in ``G.pred`` order
    whose distance plus arc weight is largest, unless that is negative; the path ends at the
    first node of ``order`` of largest distance."""
    dist, via = {}, {}
    for v in order:
        best = None
        for u, d in G.pred[v].items():
            c = dist[u] + d.get(weight, default)
            if best is None or c > best:
                best, via[v] = c, u
        if best is None or best < 0:
            dist[v], via[v] = 0, v
        else:
            dist[v] = best
    end = order[0]
    for v in order:
        if dist[v] > dist[end]:
            end = v
    path = [end]
    while via[path[-1]] != path[-1]:
        path.append(via[path[-1]])
    return path[::-1]


def check(G, weight="cost", default=1, **kwargs):
    theirs = outcome(nx.dag_longest_path, G, weight=weight, default_weight=default, **kwargs)
    ours = outcome(nx.dag_longest_path, G, weight=weight, default_weight=default,
                   backend=BACKEND, **kwargs)  # fmt: skip
    assert ours == theirs
    path = ours[0]
    if ours[1] is not None or not len(G):
        return path
    assert type(path) is list
    assert all(v in G._succ[u] for u, v in pairwise(path))
    order = kwargs.get("topo_order")
    part = G if order is None else G.subgraph(order)  # (a given order may list some nodes)
    assert weight_of(G, path, weight, default) == heaviest_by_search(part, weight, default)
    assert path == reference_path(G, order or list(nx.topological_sort(G)), weight, default)
    if order is not None:
        return path
    length = nx.dag_longest_path_length(G, weight=weight, default_weight=default, backend=BACKEND)
    assert length == weight_of(G, path, weight, default)
    assert type(length) is type(weight_of(G, path, weight, default))
    return path


@pytest.mark.parametrize("seed", range(20))
@pytest.mark.parametrize("weights", ["int", "negative", "float", "none"])
@pytest.mark.parametrize("kind", ["int", "str", "mixed"])
def test_random_dags(seed, weights, kind):
    G = random_dag(seed, kind, weights)
    check(G, default=1 if weights != "float" else 0.5)


def test_ties_follow_networkx_pred_order():
    """Equal candidates everywhere (no weights): a lattice with its arcs into each node added
    in both orders, and predecessors added before their successors' rows are."""
    for flip in (False, True):
        G = nx.DiGraph()
        G.add_nodes_from((i, j) for i in range(6) for j in range(6))
        for i in range(6):
            for j in range(6):
                arcs = [((i - 1, j), (i, j)), ((i, j - 1), (i, j))]
                for u, v in arcs[::-1] if flip else arcs:
                    if u in G:
                        G.add_edge(u, v)
        path = check(G)
        assert len(path) == 11
    G = nx.DiGraph()
    G.add_nodes_from("abcd")
    G.add_edges_from([("c", "d"), ("b", "d"), ("a", "b"), ("a", "c")])
    assert check(G) == ["a", "c", "d"]  # (G.pred["d"] lists "c" first)


def test_zero_and_negative_paths():
    """The reset where the best is negative; -0.0 and 0 distances tie; all weights negative:
    the first node of the order alone."""
    G = nx.DiGraph()
    G.add_edge("a", "b", cost=-1.0)
    G.add_edge("b", "c", cost=-0.0)
    G.add_edge("c", "d", cost=0.0)
    assert check(G) == ["a"]
    G.add_edge("d", "e", cost=0.5)
    check(G)
    check(nx.DiGraph([(0, 1, {"cost": -2}), (2, 1, {"cost": -1})]))


@pytest.mark.parametrize("seed", range(8))
def test_given_topological_orders(seed):
    """A list or tuple given is used as NetworkX uses it: another valid order, a prefix-closed
    part of one; orders NetworkX cannot use (a predecessor later, a node twice, a node not in
    G, an empty order) run in NetworkX, which raises or answers."""
    G = random_dag(seed, "str", "int", n=25)
    order = list(reversed(list(nx.topological_sort(G.reverse(copy=False)))))
    check(G, topo_order=order)
    check(G, topo_order=tuple(order))
    check(G, topo_order=order[:10] if all(
        u in order[:10] for v in order[:10] for u in G.pred[v]) else order)  # fmt: skip
    W = backend_interface.convert_from_nx(G, edge_attrs={"cost": 1})
    for bad in (order[::-1], order + order[:1], [*order, "nowhere"], [], [["unhashable"]]):
        if bad == order[::-1] and not G.number_of_edges():
            continue
        with pytest.raises(NotImplementedError):
            backend_interface.dag_longest_path(W, "cost", 1, bad)
        outcome(nx.dag_longest_path, G, "cost", 1, bad)  # (NetworkX's own, whatever it is)
    reason = backend_interface.can_run("dag_longest_path", (G,), {"topo_order": iter(order)})
    assert isinstance(reason, str) and "topo_order" in reason


def test_given_order_of_other_label_types_runs_in_networkx():
    """NetworkX's path starts and ends with ``topo_order``'s own objects: NumPy ints for int
    labels would come back as such, so such an order is left to NetworkX."""
    G = nx.DiGraph([(0, 1), (1, 2)])
    W = backend_interface.convert_from_nx(G, edge_attrs={"weight": 1})
    with pytest.raises(NotImplementedError):
        backend_interface.dag_longest_path(W, "weight", 1, list(np.arange(3)))
    assert backend_interface.dag_longest_path(W, "weight", 1, [0, 1, 2]) == [0, 1, 2]


def test_cycles(monkeypatch):
    """``NetworkXUnfeasible``: found on the dicts, unconverted, or by the peeling of the
    converted graph; a given order leaving the cycle out is NetworkX's path, no error."""
    ring = nx.cycle_graph(30, create_using=nx.DiGraph)
    ring.add_edge(100, 0)
    W = backend_interface.convert_from_nx(ring, edge_attrs={"weight": 1}, name="dag_longest_path")
    with pytest.raises(nx.NetworkXUnfeasible, match="contains a cycle"):
        backend_interface.dag_longest_path(W)
    assert W.pending is not None  # (never converted)
    assert check(ring, topo_order=[100]) == [100]
    monkeypatch.setattr(dag, "CYCLE_PROBE_ROWS", 0)
    for seed in range(6):
        G = random_dag(seed, "mixed", "int", n=30)
        G.add_edge(*list(G)[:2])
        G.add_edge(*list(G)[1::-1])
        assert outcome(nx.dag_longest_path, G, backend=BACKEND) == outcome(nx.dag_longest_path, G)
    loop = nx.DiGraph([(0, 1), (1, 1)])
    assert outcome(nx.dag_longest_path, loop, backend=BACKEND)[1] is nx.NetworkXUnfeasible


@pytest.mark.parametrize("func", [nx.dag_longest_path, nx.dag_longest_path_length])
def test_cycle_after_weights_networkx_adds(func):
    """A cycle through the first node: NetworkX peels the nodes without arcs in first and adds
    the weights of the arcs into what it peels, so a ``None`` there is its ``TypeError``, not
    ``NetworkXUnfeasible``; the backend then leaves the call to NetworkX (declines), and
    raises ``NetworkXUnfeasible`` itself only where NetworkX does (fuzz, session 49)."""
    for tail_weight, nx_error in ((None, TypeError), (5, nx.NetworkXUnfeasible)):
        G = nx.DiGraph([(0, 1), (1, 0)])  # the cycle through the first node
        G.add_edge(2, 3, w=tail_weight)  # 2 has no arc in: NetworkX peels it, then 3
        G.add_edge(3, 0, w=1)
        assert outcome(func, G, "w")[1] is nx_error
        W = backend_interface.convert_from_nx(G, edge_attrs={"w": 1}, name=func.__name__)
        expected = NotImplementedError if nx_error is TypeError else nx_error
        with pytest.raises(expected):
            getattr(backend_interface, func.__name__)(W, "w", 1)
    entered = nx.DiGraph([(0, 1), (1, 0), (2, 0), (0, 2)])  # no node without an arc in
    entered.add_edge(1, 2, w=None)
    assert outcome(func, entered, "w")[1] is nx.NetworkXUnfeasible
    assert outcome(func, entered, "w", backend=BACKEND)[1] is nx.NetworkXUnfeasible


def test_small_and_bad_input():
    assert nx.dag_longest_path(nx.DiGraph(), backend=BACKEND) == []
    one = nx.DiGraph()
    one.add_node("a")
    assert check(one) == ["a"]
    for U in (nx.Graph([(0, 1)]), nx.path_graph(3)):
        assert outcome(nx.dag_longest_path, U, backend=BACKEND)[1] is nx.NetworkXNotImplemented
    M = nx.MultiDiGraph([(0, 1), (0, 1), (1, 2)])
    reason = backend_interface.can_run("dag_longest_path", (M,), {})
    assert isinstance(reason, str) and "multigraph" in reason
    with pytest.raises(NotImplementedError, match="dag_longest_path"):
        nx.dag_longest_path(M, backend=BACKEND)
    for weight in (None, len):
        reason = backend_interface.can_run("dag_longest_path", (M.copy(),), {"weight": weight})
        assert isinstance(reason, str)


@pytest.mark.parametrize("value", [None, "x", 2.5, 2**62, float("nan"), float("inf")])
def test_weights_left_to_networkx(value):
    """``None``, strings, int and float mixed, ints whose sums could leave int64, NaN and
    infinities: the backend declines (``NotImplementedError``), NetworkX answers or raises."""
    G = nx.DiGraph([(0, 1, {"w": 1}), (1, 2, {"w": value}), (2, 3, {"w": 4})])
    W = backend_interface.convert_from_nx(G, edge_attrs={"w": 1})
    with pytest.raises(NotImplementedError):
        backend_interface.dag_longest_path(W, "w", 1)
    outcome(nx.dag_longest_path, G, "w")


def test_defaults_and_attribute_names():
    G = random_dag(4, "int", "float", n=30)
    check(G, default=0.5)
    check(G, weight="nothing", default=2)
    H = random_dag(5, "str", "int", n=30)
    check(H, default=3)
    check(H, weight="cost", default=-1)


@pytest.mark.parametrize("path", ["python", "view", "large"])
def test_other_paths(monkeypatch, path):
    """Every raw reader off (the predecessors read by Python), views, a DAG past the sizes
    where the dicts are read in parallel (and a second call on its cached conversion)."""
    if path == "python":
        monkeypatch.setitem(_dict_layout._STATE, "ok", False)
    if path == "large":
        G = random_dag(1, "str", "int", n=6000)
        for _ in range(2):
            assert nx.dag_longest_path(G, "cost", backend=BACKEND) == nx.dag_longest_path(G, "cost")
        assert len(reference_path(G, list(nx.topological_sort(G)))) > 1
        return
    for seed in range(5):
        G = random_dag(seed, "mixed", "negative", n=35)
        check(G.subgraph(list(G)[:30]) if path == "view" else G)
        check(G.reverse(copy=False) if path == "view" else G, default=2)


def test_consistent_with_the_length_under_automatic_dispatch():
    """NetworkX's ``dag_longest_path_length`` with ``weight=None`` runs in NetworkX, which calls
    ``dag_longest_path`` (declined too: ``weight=None``); with a weight both run here and agree."""
    G = random_dag(7, "int", "int", n=1200)
    nx.config.backend_priority.algos = [BACKEND]
    try:
        want = nx.dag_longest_path(G, "cost", backend="networkx")
        assert nx.dag_longest_path(G, "cost") == want
        assert nx.dag_longest_path_length(G, "cost") == weight_of(G, want)
        assert nx.dag_longest_path_length(G, None) == nx.dag_longest_path_length(
            G, None, backend="networkx"
        )
    finally:
        nx.config.backend_priority.algos = []


@pytest.mark.gpu
def test_on_the_gpu():
    with backend_device(nx, "gpu"):
        for seed in range(3):
            check(random_dag(seed, "mixed", "int", n=300))
