"""NetworkX backend: ``nx.eigenvector_centrality`` and ``nx.katz_centrality`` with
``backend="warpgraph"`` against plain NetworkX.

warpgraph takes NetworkX's steps and stopping rule (L1 change below ``n * tol``) term for term,
so the two runs agree to rounding; where a step's change lies within rounding of ``n * tol`` one
run may take one step more, and the results then differ by less than that step's change, so by
less than ``n * tol`` in L1. :func:`assert_close` allows exactly that (plus 1e-12 for rounding);
the differences seen are ~1e-16.
"""

from __future__ import annotations

import math
import random

import numpy as np
import pytest

nx = pytest.importorskip("networkx")

from nx_labels import shuffled_labels  # noqa: E402  (tests/nx_labels.py)
from warpgraph.nx.interface import SMALL_GRAPH_EDGES, backend_interface  # noqa: E402

BACKEND = "warpgraph"
EIGEN, KATZ = "eigenvector_centrality", "katz_centrality"

if BACKEND not in nx.utils.backends.backends:  # entry points not registered (not installed)
    pytest.skip("warpgraph is not registered as a NetworkX backend", allow_module_level=True)


def random_graph(seed: int, kind: str = "str", directed: bool = False, weights: str = "none"):
    """Several components, isolated nodes, self-loops, mutual arcs; ``weights``: ``"none"``,
    ``"float"`` / ``"int"`` on 70% of the edges (the rest miss the attribute: NetworkX's 1),
    ``"zero"`` (some 0 weights), ``"negative"`` (some negative: Katz only)."""
    rng = random.Random(seed)
    n = rng.randint(1, 60)
    labels = shuffled_labels(kind, n, rng)
    G = nx.DiGraph() if directed else nx.Graph()
    G.add_nodes_from(labels)
    for _ in range(rng.randint(0, 3 * n)):
        G.add_edge(rng.choice(labels), rng.choice(labels))
    if directed:
        for u, v in list(G.edges)[::3]:
            G.add_edge(v, u)
    for u, v in G.edges:
        if weights == "none" or rng.random() >= 0.7:
            continue
        G.edges[u, v]["w"] = {
            "float": lambda: rng.choice([0.1, 0.25, 1.5, 3.0]),
            "int": lambda: rng.randint(1, 5),
            "zero": lambda: rng.choice([0, 0.0, 2]),
            "negative": lambda: rng.choice([-1.5, 0.5, 2]),
        }[weights]()
    return G


def outcome(call):
    """``("ok", result)`` or ``("raised", exception type, message)``."""
    try:
        return "ok", call()
    except Exception as exc:  # noqa: BLE001 - compared
        return "raised", type(exc), str(exc)


def assert_close(ours, theirs, n: int, tol: float = 1.0e-6):
    """Same keys in the same order, ``float`` values within ``n * tol`` in L1."""
    assert type(ours) is dict
    assert list(ours) == list(theirs)
    assert all(type(v) is float for v in ours.values())
    gap = sum(abs(ours[k] - theirs[k]) for k in theirs)
    assert gap <= n * tol + 1e-12, gap


def agree(name: str, G, **kwargs):
    """The backend and NetworkX give close values, or raise the same error with the same
    message."""
    f = getattr(nx, name)
    ours = outcome(lambda: f(G, backend=BACKEND, **kwargs))
    theirs = outcome(lambda: f(G, backend="networkx", **kwargs))
    if theirs[0] == "ok" and ours[0] == "ok":
        assert_close(ours[1], theirs[1], len(G), kwargs.get("tol", 1e-6))
    else:
        assert ours == theirs
    return ours


@pytest.fixture
def automatic():
    """warpgraph first in NetworkX's priority, no ``backend=``: what ``can_run`` declines or
    the backend leaves with ``NotImplementedError`` runs in NetworkX."""
    priority = nx.config.backend_priority
    saved = list(priority.algos)
    priority.algos = [BACKEND]
    try:
        yield
    finally:
        priority.algos = saved


@pytest.fixture
def backend_calls(monkeypatch):
    """The backend's calls of the two functions (by name) while the test runs."""
    calls = []
    for name in (EIGEN, KATZ):
        real = getattr(backend_interface, name)

        def counted(G, *args, _real=real, _name=name, **kwargs):
            calls.append(_name)
            return _real(G, *args, **kwargs)

        monkeypatch.setattr(type(backend_interface), name, staticmethod(counted))
    return calls


def big_graph(directed: bool = False, seed: int = 4):
    """Past ``SMALL_GRAPH_EDGES``: automatic dispatch tries the backend."""
    G = nx.gnm_random_graph(600, SMALL_GRAPH_EDGES + 500, seed=seed, directed=directed)
    assert backend_interface.should_run(KATZ, (G,), {}) is True
    return G


# ---------------------------------------------------------------- equal to NetworkX
@pytest.mark.parametrize("seed", range(5))
@pytest.mark.parametrize("kind", ["str", "tuple", "int"])
@pytest.mark.parametrize("directed", [False, True])
def test_unweighted_equals_networkx(seed, kind, directed):
    G = random_graph(seed, kind, directed)
    agree(EIGEN, G)
    agree(EIGEN, G, tol=1e-9, max_iter=1000)
    agree(KATZ, G)
    agree(KATZ, G, alpha=0.02, normalized=False, tol=1e-10)


@pytest.mark.parametrize("seed", range(4))
@pytest.mark.parametrize("weights", ["float", "int", "zero"])
@pytest.mark.parametrize("directed", [False, True])
def test_weighted_equals_networkx(seed, weights, directed):
    G = random_graph(seed, "tuple", directed, weights)
    for weight in ("w", "absent", None):
        agree(EIGEN, G, weight=weight, max_iter=500)
        agree(KATZ, G, weight=weight, alpha=0.05)
    agree(KATZ, G, weight="w", alpha=0.05, normalized=False, tol=1e-9)


def test_katz_negative_weights_and_alpha_equal_networkx():
    for seed in range(4):
        G = random_graph(seed, "str", seed % 2 == 0, "negative")
        agree(KATZ, G, weight="w", alpha=0.05)
        agree(KATZ, G, weight="w", alpha=-0.05, beta=-2, normalized=False)


def test_results_keyed_in_nstart_order_and_beta_dicts():
    """``nstart`` in another order: NetworkX's loop runs over its keys, so the result is keyed
    in that order; ``beta`` dicts are read by node whatever their order."""
    G = random_graph(11, "str", True, "float")
    nodes = list(G)
    rng = random.Random(3)
    reordered = {v: rng.choice([1, 2.5, 0.5]) for v in reversed(nodes)}
    ours = agree(EIGEN, G, nstart=reordered, max_iter=500)
    assert ours[0] == "raised" or list(ours[1]) == list(reordered)
    ours = agree(KATZ, G, nstart={v: rng.choice([-1, 0.5]) for v in reversed(nodes)})
    assert list(ours[1]) == nodes[::-1]
    beta = {v: rng.choice([0, 1, 2.5]) for v in reversed(nodes)}
    assert list(agree(KATZ, G, beta=beta, weight="w")[1]) == nodes
    agree(KATZ, G, beta=beta, nstart=reordered, normalized=False)
    agree(KATZ, G, beta=np.float64(0.5), alpha=np.float64(0.05))
    agree(KATZ, G, beta=3, alpha=0)


@pytest.mark.parametrize("directed", [False, True])
def test_larger_graph_with_int_labels_in_order(directed):
    """0..n-1 in order (labels read as ids), a result past the compiled builder's size, and an
    ``nstart`` in shuffled order (the result built in that order)."""
    G = nx.gnm_random_graph(3000, 12000, seed=5, directed=directed)
    agree(EIGEN, G, max_iter=300)
    agree(KATZ, G, alpha=0.05)
    nodes = list(G)
    random.Random(2).shuffle(nodes)
    start = {v: 1.0 + v % 3 for v in nodes}
    ours = agree(EIGEN, G, nstart=start, max_iter=300)
    assert ours[0] == "raised" or list(ours[1]) == nodes
    assert list(agree(KATZ, G, nstart=start, alpha=0.05)[1]) == nodes


def test_self_loops_sinks_and_isolated_nodes():
    for G in (nx.Graph([(0, 0), (0, 1), (1, 2)]), nx.DiGraph([(0, 0), (0, 1), (1, 2)])):
        G.add_node("isolated")
        agree(EIGEN, G, max_iter=1000)
        agree(KATZ, G)
        G.add_edge(2, 2, weight=0.0)
        agree(EIGEN, G, weight="weight", max_iter=1000)


def test_one_node_and_falsy_weight_name():
    G = nx.Graph()
    G.add_node("a")
    assert nx.eigenvector_centrality(G, backend=BACKEND) == {"a": 1.0}
    assert nx.katz_centrality(G, backend=BACKEND) == {"a": 1.0}
    H = random_graph(2, "str", False, "float")
    agree(EIGEN, H, weight="", max_iter=500)  # (NetworkX: `if weight`, unweighted)


# ---------------------------------------------------------------- NetworkX's errors
def test_null_graph():
    for G in (nx.Graph(), nx.DiGraph()):
        with pytest.raises(nx.NetworkXPointlessConcept, match="null graph"):
            nx.eigenvector_centrality(G, backend=BACKEND)
        assert nx.katz_centrality(G, backend=BACKEND) == {}
        assert nx.katz_centrality(G, beta={"x": 1}, backend=BACKEND) == {}  # (as NetworkX)
    assert agree(EIGEN, nx.Graph())[1] is nx.NetworkXPointlessConcept


def test_nstart_of_zeros():
    G = nx.path_graph(4)
    for nstart in ({0: 0, 1: 0, 2: 0, 3: 0}, {0: 0.0}, {"elsewhere": 0}):
        ours = agree(EIGEN, G, nstart=nstart)
        assert ours[1:] == (nx.NetworkXError, "initial vector cannot have all zero values")


def test_beta_dict_without_every_node():
    G = nx.path_graph(["a", "b", "c"])
    for beta in ({"a": 1, "b": 1}, {"a": 1, "b": 1, "c": 1, "d": 1}, {}):
        ours = agree(KATZ, G, beta=beta)
        assert ours[1:] == (nx.NetworkXError, "beta dictionary must have a value for every node")


@pytest.mark.parametrize("max_iter", [0, 1, 3])
def test_no_convergence(max_iter):
    G = random_graph(2, "str", True)
    for name in (EIGEN, KATZ):
        ours = agree(name, G, max_iter=max_iter, tol=1e-15)
        assert ours[1] is nx.PowerIterationFailedConvergence
        assert f"within {max_iter} iterations" in ours[2]
    C = nx.cycle_graph(5, create_using=nx.DiGraph)
    assert agree(KATZ, C, alpha=2.0)[1] is nx.PowerIterationFailedConvergence  # (diverges)
    assert agree(EIGEN, C, tol=0, max_iter=20)[1] is nx.PowerIterationFailedConvergence


def test_max_iter_zero_reads_nothing_else():
    """NetworkX raises before it reads the weights or ``nstart``'s keys; so does the backend."""
    G = nx.path_graph(3)
    G.edges[0, 1]["weight"] = "text"
    for name, kw in ((EIGEN, {"weight": "weight"}), (KATZ, {"nstart": {"x": 1}})):
        ours = agree(name, G, max_iter=0, **kw)
        assert ours[1] is nx.PowerIterationFailedConvergence


# ---------------------------------------------------------------- declined: NetworkX runs them
DECLINED = [
    (EIGEN, {"nstart": {"a": -1, "b": 2}}, "negative"),
    (EIGEN, {"nstart": {"a": math.nan}}, "NaN"),
    (EIGEN, {"nstart": {"a": np.float32(1)}}, "other than int or float"),
    (EIGEN, {"nstart": {"a": 10**400}}, "too large"),
    (EIGEN, {"nstart": [1, 2, 3]}, "not a mapping"),
    (EIGEN, {"weight": lambda u, v, d: 1}, "weight functions"),
    (EIGEN, {"weight": 3}, "weight is not None or a str"),
    (EIGEN, {"tol": -1e-6}, "tol"),
    (EIGEN, {"tol": math.nan}, "tol"),
    (EIGEN, {"max_iter": -1}, "max_iter"),
    (EIGEN, {"max_iter": 10.0}, "max_iter"),
    (KATZ, {"alpha": math.nan}, "alpha"),
    (KATZ, {"alpha": True}, "alpha"),
    (KATZ, {"alpha": np.float32(0.1)}, "alpha"),
    (KATZ, {"alpha": "0.1"}, "alpha"),
    (KATZ, {"alpha": 10**400}, "alpha"),
    (KATZ, {"beta": 10**400}, "beta NaN, infinite or too large"),
    (KATZ, {"beta": "1"}, "beta not a number or a dict"),
    (KATZ, {"beta": [1, 1, 1]}, "beta not a number or a dict"),
    (KATZ, {"beta": math.inf}, "beta NaN, infinite"),
    (KATZ, {"beta": {"a": 1, "b": None, "c": 1}}, "beta holds values other than"),
    (KATZ, {"beta": {"a": 1, "b": 2, "c": 3}, "alpha": 0, "normalized": False}, "int alpha"),
    (KATZ, {"nstart": {"a": math.inf}}, "nstart"),
    (KATZ, {"normalized": "yes"}, "normalized"),
    (KATZ, {"weight": lambda u, v, d: 1}, "weight functions"),
    (KATZ, {"max_iter": True}, "max_iter"),
]


@pytest.mark.parametrize(("name", "kwargs", "reason"), DECLINED)
def test_can_run_declines_what_the_core_does_not_compute(name, kwargs, reason):
    G = nx.complete_graph(["a", "b", "c"], create_using=nx.DiGraph)
    found = backend_interface.can_run(name, (G,), kwargs)
    assert isinstance(found, str) and reason in found
    with pytest.raises(NotImplementedError):
        getattr(nx, name)(G, backend=BACKEND, **kwargs)


def test_can_run_takes_the_usual_arguments():
    G = nx.complete_graph(["a", "b", "c"], create_using=nx.DiGraph)
    can = backend_interface.can_run
    assert can(EIGEN, (G,), {}) is True
    assert can(EIGEN, (G, 50, 1e-8, {"a": 1, "b": 0.5}, "cost"), {}) is True
    assert can(EIGEN, (G,), {"max_iter": np.int64(5), "tol": np.float32(1e-3)}) is True
    assert can(KATZ, (G,), {}) is True
    assert can(KATZ, (G, 0.2, {"a": 1, "b": -2.5, "c": True}, 10, 0, {"a": -1}, 0, "w"), {})
    assert can(KATZ, (G,), {"alpha": np.float64(0.1), "beta": np.int32(2)}) is True
    assert can(KATZ, (G,), {"alpha": 1, "beta": {"a": 1.0}, "normalized": False}) is True


def test_declined_arguments_run_in_networkx_automatically(automatic, backend_calls):
    G = big_graph(directed=True)
    nodes = list(G)
    for name, kwargs in (
        (EIGEN, {"nstart": {v: -1 if v == nodes[0] else 1 for v in nodes}}),
        (KATZ, {"alpha": np.float32(0.01)}),
        (KATZ, {"beta": dict.fromkeys(nodes, 1), "alpha": 0, "normalized": False}),
    ):
        f = getattr(nx, name)
        want = outcome(lambda f=f, k=kwargs: f(G, backend="networkx", **k))
        got = outcome(lambda f=f, k=kwargs: f(G, **k))
        assert got[0] == want[0] and got[1] == want[1]
    assert backend_calls == []  # can_run declined each: never reached the backend
    nx.katz_centrality(G)
    nx.eigenvector_centrality(G, max_iter=1000)
    assert backend_calls == [KATZ, EIGEN]


def _set_first(value):
    def change(G):
        G.edges[next(iter(G.edges))]["weight"] = value

    return change


@pytest.mark.parametrize(
    ("change", "reason", "katz_too"),
    [
        (_set_first(-0.5), "negative", False),
        (_set_first(math.nan), "NaN", True),
        (_set_first(math.inf), "infinite", True),
        (_set_first(None), "None", True),
        (_set_first("2"), "other than int or float", True),
        (lambda G: nx.set_edge_attributes(G, np.float64(2.0), "weight"), "other than int", True),
    ],
)
@pytest.mark.parametrize("directed", [False, True])
def test_weights_the_core_refuses_run_in_networkx(change, reason, katz_too, directed, automatic):
    G = big_graph(directed)
    change(G)
    names = (EIGEN, KATZ) if katz_too else (EIGEN,)
    for name in names:
        f = getattr(nx, name)
        with pytest.raises(NotImplementedError) as info:
            f(G, weight="weight", backend=BACKEND)
        assert reason in str(info.value.__cause__)  # our reason, chained by NetworkX
        # (NaN and inf never converge in NetworkX: few iterations keep the test short)
        want = outcome(lambda f=f: f(G, weight="weight", max_iter=30, backend="networkx"))
        got = outcome(lambda f=f: f(G, weight="weight", max_iter=30))
        assert got[0] == want[0] and got[1] == want[1]  # automatic: NetworkX's
    assert nx.katz_centrality(G, weight=None, backend=BACKEND)  # (the weights unread)


def test_nstart_not_keyed_by_the_nodes_runs_in_networkx(automatic):
    """NetworkX's loops run over ``nstart``'s keys: a missing node is a ``KeyError`` (or left
    out of the result), a key that is not a node a ``KeyError``."""
    G = big_graph(directed=True)
    nodes = list(G)
    partial = {v: 1 for v in nodes[:-1]}
    extra = {**dict.fromkeys(nodes, 1), "not a node": 1}
    for name in (EIGEN, KATZ):
        f = getattr(nx, name)
        for nstart in (partial, extra):
            with pytest.raises(NotImplementedError) as info:
                f(G, nstart=nstart, backend=BACKEND)
            assert "nstart" in str(info.value.__cause__)
            want = outcome(lambda f=f, s=nstart: f(G, nstart=s, backend="networkx"))
            assert outcome(lambda f=f, s=nstart: f(G, nstart=s))[:2] == want[:2]


def test_undirected_view_with_two_weights_per_edge_runs_in_networkx(automatic):
    D = nx.gnm_random_graph(400, 2 * SMALL_GRAPH_EDGES, seed=6, directed=True)
    for u, v in D.edges:
        D.edges[u, v]["weight"] = 1.0 + (u + v) % 5  # symmetric
    V = D.to_undirected(as_view=True)
    agree(KATZ, V, weight="weight", alpha=0.01)
    u, v = next((u, v) for u, v in D.edges if D.has_edge(v, u))
    D.edges[u, v]["weight"] = 9.0
    V = D.to_undirected(as_view=True)
    with pytest.raises(NotImplementedError) as info:
        nx.katz_centrality(V, weight="weight", alpha=0.01, backend=BACKEND)
    assert "differs between the two arcs" in str(info.value.__cause__)
    want = outcome(lambda: nx.katz_centrality(V, weight="weight", alpha=0.01, backend="networkx"))
    assert outcome(lambda: nx.katz_centrality(V, weight="weight", alpha=0.01)) == want


def test_multigraphs_are_refused_by_networkx_first():
    M = nx.MultiGraph([("a", "b"), ("a", "b")])
    for name in (EIGEN, KATZ):
        with pytest.raises(nx.NetworkXNotImplemented):
            getattr(nx, name)(M, backend=BACKEND)
        found = backend_interface.can_run(name, (M,), {})
        assert isinstance(found, str) and "multigraphs" in found


# ---------------------------------------------------------------- weights, views, device
def test_one_weight_everywhere():
    """Weight 1 on every arc (or the attribute missing) runs unweighted, without the sorted
    weighted view; another constant is read as weights."""
    from warpgraph.nx.eigenvector import _graph_and_weights

    G = random_graph(3, "str", True)
    for value in (None, 1, 1.0, 2.5):
        if value is not None:
            nx.set_edge_attributes(G, value, "c")
        W = backend_interface.convert_from_nx(G, edge_attrs={"c": 1})
        _, weighted = _graph_and_weights(W, "c", "cpu")
        assert weighted is (value == 2.5)
        assert (W._weighted == {}) is (value != 2.5)
        G.__networkx_cache__.clear()
        agree(EIGEN, G, weight="c", max_iter=1000)
        agree(KATZ, G, weight="c", alpha=0.05)


def test_subgraph_view_and_direct_call():
    G = random_graph(5, "str", False, "float")
    S = G.subgraph(list(G)[::2])
    agree(EIGEN, S, weight="w", max_iter=1000)
    agree(KATZ, S, weight="w")
    W = backend_interface.convert_from_nx(G)  # (read without weights: taken from the source)
    ours = backend_interface.katz_centrality(W, weight="w")
    assert_close(ours, nx.katz_centrality(G, weight="w", backend="networkx"), len(G))


def test_runs_on_the_configured_device(device):
    cfg = nx.config.backends.warpgraph
    saved = cfg.device
    cfg.device = device
    try:
        G = random_graph(9, "tuple", True, "float")
        agree(EIGEN, G, weight="w", max_iter=1000)
        agree(KATZ, G, weight="w", beta={v: 1 + i % 3 for i, v in enumerate(G)})
        B = big_graph(directed=False)
        agree(EIGEN, B, nstart={v: 1 + v % 2 for v in reversed(list(B))})
        agree(KATZ, B, alpha=0.01, normalized=False)
    finally:
        cfg.device = saved
