"""NetworkX backend: ``nx.pagerank(G, backend="warpgraph")`` against plain NetworkX.

warpgraph takes NetworkX's power step and stopping rule (L1 change below ``n * tol``) term for
term, so the two runs agree to rounding; where a step's change lies within rounding of
``n * tol`` one run may take one step more, and the results then differ by less than that step's
L1 change, so by less than ``n * tol`` per node. :func:`assert_close` allows exactly that (plus
1e-12 for rounding); the differences seen are ~1e-17.
"""

from __future__ import annotations

import math
import random
from fractions import Fraction

import numpy as np
import pytest

nx = pytest.importorskip("networkx")

from nx_labels import shuffled_labels  # noqa: E402  (tests/nx_labels.py)
from warpgraph.nx.interface import SMALL_GRAPH_EDGES, backend_interface  # noqa: E402

BACKEND = "warpgraph"

if BACKEND not in nx.utils.backends.backends:  # entry points not registered (not installed)
    pytest.skip("warpgraph is not registered as a NetworkX backend", allow_module_level=True)


def random_graph(seed: int, kind: str = "str", directed: bool = False, weights: str = "none"):
    """Several components, isolated (dangling) nodes, self-loops, mutual arcs; ``weights``:
    ``"none"`` (no data), ``"float"`` / ``"int"`` on 70% of the edges (the rest miss the
    attribute: NetworkX's 1), ``"zero"`` (some 0 weights: rows of out-weight 0 dangle)."""
    rng = random.Random(seed)
    n = rng.randint(1, 70)
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
        if weights == "float":
            G.edges[u, v]["w"] = rng.choice([0.1, 0.25, 1.5, 3.0, 1e-3, 7.0])
        elif weights == "int":
            G.edges[u, v]["w"] = rng.randint(1, 9)
        else:
            G.edges[u, v]["w"] = rng.choice([0, 0.0, 2])
    return G


def both(G, **kwargs):
    ours = nx.pagerank(G, backend=BACKEND, **kwargs)
    theirs = nx.pagerank(G, backend="networkx", **kwargs)
    return ours, theirs


def assert_close(ours, theirs, n: int, tol: float = 1.0e-6):
    """Same keys in the same order, ``float`` values within ``n * tol`` (see the docstring)."""
    assert type(ours) is dict
    assert list(ours) == list(theirs)
    assert all(type(v) is float for v in ours.values())
    bound = n * tol + 1e-12
    worst = max((abs(ours[k] - theirs[k]) for k in theirs), default=0.0)
    assert worst <= bound, (worst, bound)


def outcome(call):
    """``("ok", result)`` or ``("raised", exception type, message)``."""
    try:
        return "ok", call()
    except Exception as exc:  # noqa: BLE001 - compared
        return "raised", type(exc), str(exc)


def same_outcome(a, b) -> bool:
    if a[0] != b[0]:
        return False
    if a[0] == "raised":
        return a[1:] == b[1:]
    x, y = a[1], b[1]
    return list(x) == list(y) and all(
        (math.isnan(x[k]) and math.isnan(y[k])) or abs(x[k] - y[k]) <= 1e-9 for k in y
    )


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
    """The backend's pagerank calls (the converted graph of each) while the test runs."""
    calls = []
    real = backend_interface.pagerank

    def counted(G, *args, **kwargs):
        calls.append(G)
        return real(G, *args, **kwargs)

    monkeypatch.setattr(type(backend_interface), "pagerank", staticmethod(counted))
    return calls


def big_graph(directed: bool = False, seed: int = 4) -> nx.Graph:
    """Past ``SMALL_GRAPH_EDGES``: automatic dispatch tries the backend."""
    G = nx.gnm_random_graph(600, SMALL_GRAPH_EDGES + 500, seed=seed, directed=directed)
    assert backend_interface.should_run("pagerank", (G,), {}) is True
    return G


# ---------------------------------------------------------------- equal to NetworkX
@pytest.mark.parametrize("seed", range(6))
@pytest.mark.parametrize("kind", ["str", "tuple", "int"])
@pytest.mark.parametrize("directed", [False, True])
def test_unweighted_equals_networkx(seed, kind, directed):
    G = random_graph(seed, kind, directed)
    assert_close(*both(G), len(G))
    assert_close(*both(G, weight=None), len(G))
    assert_close(*both(G, alpha=0.5, tol=1e-10), len(G), 1e-10)


@pytest.mark.parametrize("seed", range(4))
@pytest.mark.parametrize("weights", ["float", "int", "zero"])
@pytest.mark.parametrize("directed", [False, True])
def test_weighted_equals_networkx(seed, weights, directed):
    G = random_graph(seed, "tuple", directed, weights)
    assert_close(*both(G, weight="w"), len(G))  # missing on some edges: 1
    assert_close(*both(G, weight="absent"), len(G))  # missing everywhere: unweighted
    assert_close(*both(G, weight=None), len(G))
    assert_close(*both(G, weight="w", alpha=0.95, tol=1e-9, max_iter=2000), len(G), 1e-9)


def test_mixed_int_and_float_weights():
    G = nx.gnm_random_graph(80, 300, seed=2, directed=True)
    for i, (u, v) in enumerate(G.edges):
        G.edges[u, v]["weight"] = [1, 2.5, True, 3][i % 4]
    assert_close(*both(G), len(G))


@pytest.mark.parametrize("directed", [False, True])
def test_larger_graph_with_int_labels_in_order(directed):
    """0..n-1 in order (labels read as ids), and a result past the compiled builder's size."""
    G = nx.gnm_random_graph(3000, 12000, seed=5, directed=directed)
    assert_close(*both(G), len(G))
    rng = random.Random(1)
    some = {v: rng.random() for v in rng.sample(list(G), 100)}  # key by key (> FEW_KEYS)
    assert_close(*both(G, personalization=some, nstart=some, dangling=some), len(G))


@pytest.mark.parametrize("seed", range(4))
@pytest.mark.parametrize("directed", [False, True])
def test_dict_arguments_read_in_node_order(seed, directed):
    """Partial dicts (missing nodes: 0), keys not in the graph ignored, ints, floats,
    Fractions, NumPy numbers; small dicts (placed key by key) and full ones."""
    G = random_graph(seed + 10, "str", directed, "float")
    nodes = list(G)
    rng = random.Random(seed)
    few = {v: rng.choice([1, 2.5, Fraction(1, 3)]) for v in rng.sample(nodes, min(3, len(G)))}
    few["not a node"] = 5.0
    full = {v: np.float64(rng.random() + 0.01) for v in reversed(nodes)}  # another order
    ints = {v: rng.randint(0, 3) for v in nodes} | {nodes[0]: 1}
    n = len(G)
    for kwargs in (
        {"personalization": few},
        {"personalization": full, "weight": "w"},
        {"nstart": few},
        {"nstart": ints, "weight": "w"},
        {"dangling": few},
        {"dangling": full, "personalization": ints},
        {"personalization": few, "nstart": full, "dangling": ints, "alpha": 0.7},
    ):
        assert_close(*both(G, **kwargs), n)


def test_dict_keys_equal_to_nodes_of_other_types():
    """``d.get(node, 0)`` finds a key equal to the node (``1.0`` for ``1``, ``True`` for 1):
    so does the key-by-key placement."""
    G = nx.path_graph(5, create_using=nx.DiGraph)
    for d in ({1.0: 3, 4: 1}, {True: 2, 0: 1}, {np.int64(2): 1}):
        assert_close(*both(G, personalization=d), len(G))


def test_alpha_bounds_and_numpy_arguments():
    G = random_graph(3, "str", True)
    for alpha in (0, 0.0, 1, 1.0, np.float32(0.85), np.float64(0.3)):
        theirs = outcome(lambda a=alpha: nx.pagerank(G, alpha=a, backend="networkx"))
        ours = outcome(lambda a=alpha: nx.pagerank(G, alpha=a, backend=BACKEND))
        if theirs[0] == "ok":
            assert_close(ours[1], theirs[1], len(G))
        else:
            assert ours == theirs
    assert_close(*both(G, max_iter=np.int64(200), tol=np.float64(1e-8)), len(G), 1e-8)


def test_self_loops_and_dangling_nodes():
    for G in (nx.Graph([(0, 0), (0, 1), (1, 2)]), nx.DiGraph([(0, 0), (0, 1), (1, 2)])):
        G.add_node("isolated")
        assert_close(*both(G), len(G))
        G.add_edge(2, 2, weight=0.0)  # a loop of weight 0: still dangling
        assert_close(*both(G), len(G))


def test_empty_graph():
    for G in (nx.Graph(), nx.DiGraph()):
        assert nx.pagerank(G, backend=BACKEND) == {}
        assert nx.pagerank(G, personalization={1: 0}, backend=BACKEND) == {}  # as NetworkX
        assert nx.pagerank(G, personalization={1: 0}) == {}


def test_one_node():
    G = nx.Graph()
    G.add_node("a")
    assert_close(*both(G), 1)
    assert nx.pagerank(G, backend=BACKEND) == {"a": 1.0}


# ---------------------------------------------------------------- NetworkX's errors
@pytest.mark.parametrize("max_iter", [0, 1, 3])
def test_no_convergence_raises_networkx_error(max_iter):
    G = random_graph(2, "str", True)
    with pytest.raises(nx.PowerIterationFailedConvergence) as ours:
        nx.pagerank(G, max_iter=max_iter, tol=1e-15, backend=BACKEND)
    with pytest.raises(nx.PowerIterationFailedConvergence) as theirs:
        nx.pagerank(G, max_iter=max_iter, tol=1e-15, backend="networkx")
    assert str(ours.value) == str(theirs.value)
    assert f"within {max_iter} iterations" in str(ours.value)


def test_tol_zero_never_converges():
    G = nx.cycle_graph(5, create_using=nx.DiGraph)
    for backend in (BACKEND, "networkx"):
        with pytest.raises(nx.PowerIterationFailedConvergence):
            nx.pagerank(G, tol=0, max_iter=20, backend=backend)


def test_personalization_summing_to_zero_raises_zero_division():
    G = nx.complete_graph(["a", "b", "c"])
    for d in ({"a": 0, "b": 0, "c": 0}, {"elsewhere": 1}, {}):
        for backend in (BACKEND, "networkx"):
            with pytest.raises(ZeroDivisionError):
                nx.pagerank(G, personalization=d, backend=backend)


# ---------------------------------------------------------------- declined: NetworkX runs them
@pytest.mark.parametrize(
    ("kwargs", "reason"),
    [
        ({"alpha": 1.5}, "alpha"),
        ({"alpha": -0.1}, "alpha"),
        ({"alpha": math.nan}, "alpha"),
        ({"alpha": True}, "alpha"),
        ({"alpha": Fraction(1, 2)}, "alpha"),
        ({"tol": -1e-6}, "tol"),
        ({"tol": math.nan}, "tol"),
        ({"max_iter": -1}, "max_iter"),
        ({"max_iter": 10.0}, "max_iter"),
        ({"max_iter": True}, "max_iter"),
        ({"personalization": {"a": -1}}, "personalization"),
        ({"personalization": {"a": math.inf}}, "personalization"),
        ({"personalization": {"a": "1"}}, "personalization"),
        ({"personalization": {"a": 10**400}}, "personalization"),
        ({"personalization": [1, 2, 3]}, "personalization"),
        ({"nstart": {"a": -0.5, "b": 1}}, "nstart"),
        ({"nstart": {"a": math.nan}}, "nstart"),
        ({"dangling": {"b": -2}}, "dangling"),
        ({"dangling": {"b": None}}, "dangling"),
        ({"weight": lambda u, v, d: 1}, "weight functions"),
    ],
)
def test_can_run_declines_what_the_core_refuses(kwargs, reason):
    G = nx.complete_graph(["a", "b", "c"], create_using=nx.DiGraph)
    found = backend_interface.can_run("pagerank", (G,), kwargs)
    assert isinstance(found, str) and reason in found
    with pytest.raises(NotImplementedError):
        nx.pagerank(G, backend=BACKEND, **kwargs)


def test_can_run_takes_the_usual_arguments():
    G = nx.complete_graph(["a", "b", "c"], create_using=nx.DiGraph)
    can = backend_interface.can_run
    assert can("pagerank", (G,), {}) is True
    assert can("pagerank", (G, 0.9), {"personalization": {"a": 1}, "weight": None}) is True
    kwargs = {"nstart": {"a": np.float32(2)}, "dangling": {"b": Fraction(1, 2)}, "tol": 0}
    assert can("pagerank", (G,), kwargs) is True
    assert can("pagerank", (G, 1, {"a": 0}, np.int32(5), 1e-3, None, "cost", None), {}) is True


def test_declined_arguments_run_in_networkx_automatically(automatic, backend_calls):
    G = big_graph(directed=True)
    nodes = list(G)
    for kwargs in (
        {"alpha": 1.2},
        {"personalization": {nodes[0]: -1, nodes[1]: 3}},
        {"nstart": {nodes[0]: -1, nodes[1]: 3}},
    ):
        want = outcome(lambda k=kwargs: nx.pagerank(G, backend="networkx", **k))
        assert same_outcome(outcome(lambda k=kwargs: nx.pagerank(G, **k)), want)
    assert backend_calls == []  # can_run declined each: never reached the backend
    nx.pagerank(G)
    assert len(backend_calls) == 1


def _negative(G):
    G.edges[next(iter(G.edges))]["weight"] = -0.5


def _nan(G):
    G.edges[next(iter(G.edges))]["weight"] = math.nan


def _inf(G):
    G.edges[next(iter(G.edges))]["weight"] = math.inf


def _none(G):
    G.edges[next(iter(G.edges))]["weight"] = None


def _text(G):
    G.edges[next(iter(G.edges))]["weight"] = "2"


def _numpy(G):
    nx.set_edge_attributes(G, np.float64(2.0), "weight")


@pytest.mark.parametrize(
    ("change", "reason"),
    [
        (_negative, "negative"),
        (_nan, "NaN"),
        (_inf, "infinite"),
        (_none, "None"),
        (_text, "other than int or float"),
        (_numpy, "other than int or float"),
    ],
)
@pytest.mark.parametrize("directed", [False, True])
def test_weights_the_core_refuses_run_in_networkx(change, reason, directed, automatic):
    G = big_graph(directed)
    change(G)
    with pytest.raises(NotImplementedError) as info:
        nx.pagerank(G, backend=BACKEND)
    assert reason in str(info.value.__cause__)  # our reason, chained by NetworkX
    assert nx.pagerank(G, weight=None, backend=BACKEND)  # (the weights unread: computed)
    want = outcome(lambda: nx.pagerank(G, backend="networkx"))
    assert same_outcome(outcome(lambda: nx.pagerank(G)), want)  # automatic: NetworkX's


@pytest.mark.parametrize("change", [_none, _text])
@pytest.mark.parametrize("directed", [False, True])
def test_weights_are_checked_before_the_dict_arguments(change, directed, automatic):
    """NetworkX reads the graph (its weights) before the dicts: a weight it cannot read with a
    personalization summing to 0 is left to NetworkX, not answered ``ZeroDivisionError``
    (fuzz seed 62 found it on an undirected view with ``None`` weights)."""
    G = big_graph(directed)
    change(G)
    with pytest.raises(NotImplementedError):
        nx.pagerank(G, personalization={"absent": 1}, backend=BACKEND)
    want = outcome(lambda: nx.pagerank(G, personalization={"absent": 1}, backend="networkx"))
    assert same_outcome(outcome(lambda: nx.pagerank(G, personalization={"absent": 1})), want)


@pytest.mark.parametrize("name", ["nstart", "dangling"])
@pytest.mark.filterwarnings("ignore:invalid value encountered in divide:RuntimeWarning")
def test_dicts_summing_to_zero_over_the_nodes_run_in_networkx(name, automatic):
    """NetworkX divides by the sum (0: NaN ranks, no convergence); the core refuses."""
    G = big_graph(directed=True)
    for d in ({"not a node": 1}, {0: 0, 1: 0}):
        with pytest.raises(NotImplementedError) as info:
            nx.pagerank(G, backend=BACKEND, **{name: d})
        assert "sums to 0" in str(info.value.__cause__)
        want = outcome(lambda d=d: nx.pagerank(G, backend="networkx", **{name: d}))
        assert same_outcome(outcome(lambda d=d: nx.pagerank(G, **{name: d})), want)


def test_undirected_view_with_two_weights_per_edge_runs_in_networkx(automatic):
    """``D.to_undirected(as_view=True)`` reads ``u -> v`` and ``v -> u`` from D's two dicts:
    NetworkX takes one weight per edge; declined where they differ, computed where equal."""
    D = nx.gnm_random_graph(400, 2 * SMALL_GRAPH_EDGES, seed=6, directed=True)
    for u, v in D.edges:
        D.edges[u, v]["weight"] = 1.0 + (u + v) % 5  # symmetric
    V = D.to_undirected(as_view=True)
    assert_close(*both(V), len(V))
    u, v = next((u, v) for u, v in D.edges if D.has_edge(v, u))
    D.edges[u, v]["weight"] = 9.0
    V = D.to_undirected(as_view=True)
    with pytest.raises(NotImplementedError) as info:
        nx.pagerank(V, backend=BACKEND)
    assert "differs between the two arcs" in str(info.value.__cause__)
    want = outcome(lambda: nx.pagerank(V, backend="networkx"))
    assert same_outcome(outcome(lambda: nx.pagerank(V)), want)
    assert_close(*both(V, weight=None), len(V))


def test_subgraph_view_is_computed():
    G = random_graph(5, "str", False, "float")
    S = G.subgraph(list(G)[::2])
    assert_close(*both(S, weight="w"), len(S))


@pytest.mark.parametrize("cls", [nx.MultiGraph, nx.MultiDiGraph])
def test_multigraph_is_refused_clearly(cls, automatic):
    M = cls([("a", "b"), ("a", "b"), ("b", "c")])
    found = backend_interface.can_run("pagerank", (M,), {})
    assert isinstance(found, str) and "multigraphs are not supported" in found
    with pytest.raises(NotImplementedError, match="not implemented by 'warpgraph'"):
        nx.pagerank(M, backend=BACKEND)
    with pytest.raises(nx.NetworkXNotImplemented, match="does not support multigraphs"):
        backend_interface.convert_from_nx(M, edge_attrs={"weight": 1}, name="pagerank")
    assert nx.pagerank(M) == nx.pagerank(M, backend="networkx")  # automatic: NetworkX's


# ---------------------------------------------------------------- conversion and device
def test_conversion_reads_the_weight_attribute(monkeypatch):
    """NetworkX passes ``edge_attrs={weight: 1}`` (None for ``weight=None``); the conversion
    reads that attribute, 1 where it is missing."""
    seen = []
    real = backend_interface.convert_from_nx

    def recording(G, edge_attrs=None, *args, **kwargs):
        seen.append(edge_attrs)
        return real(G, edge_attrs, *args, **kwargs)

    monkeypatch.setattr(backend_interface, "convert_from_nx", recording)
    G = nx.DiGraph()
    G.add_edge("a", "b", cost=3.0)
    G.add_edge("a", "c")
    G.add_edge("c", "a", cost=0.5)
    for weight in ("cost", None):
        G.__networkx_cache__.clear()
        assert_close(*both(G, weight=weight), len(G))
    assert seen == [{"cost": 1}, None]
    W = real(G, edge_attrs={"cost": 1})
    assert W.weighted("cost").graph.weights.tolist() == [3.0, 1.0, 0.5]  # a->b, a->c, c->a


@pytest.mark.parametrize("directed", [False, True])
def test_one_weight_everywhere_runs_unweighted(directed):
    """A positive weight on every arc (or none at all) divides out of each row: the run takes
    the unsorted rows without weights; the ranks are NetworkX's."""
    from warpgraph.nx.link_analysis import _graph_and_weights

    G = random_graph(3, "str", directed)
    cases = [("absent", None), ("w", 5), ("w", 0.25)]
    for name, value in cases:
        if value is not None:
            nx.set_edge_attributes(G, value, name)
        W = backend_interface.convert_from_nx(G, edge_attrs={name: 1})
        assert W.constant_weight(name) == (1.0 if value is None else value)
        graph, weighted = _graph_and_weights(W, name, "cpu")
        assert (graph is W.any_order, weighted) == (True, False)
        assert W._weighted == {}  # no sorted weighted view was made
        G.__networkx_cache__.clear()
        assert_close(*both(G, weight=name), len(G))


def test_weights_that_are_not_one_constant_are_read():
    G = random_graph(4, "int", True)
    W0 = backend_interface.convert_from_nx(G)
    edges = list(G.edges)
    for values, want in (
        ([0] * len(edges), 0.0),  # every row sums to 0: all dangling, weighted
        ([2] * (len(edges) - 1) + [3], None),
        ([2] * (len(edges) - 1) + [2.0], None),  # int and float: "mixed"
        ([2.0] * (len(edges) - 1) + [None], None),
        ([float("nan")] * len(edges), None),
        ([float("inf")] * len(edges), None),
    ):
        for (u, v), x in zip(edges, values, strict=True):
            G.edges[u, v]["c"] = x
        W = backend_interface.convert_from_nx(G, edge_attrs={"c": 1})
        assert W.constant_weight("c") == want
        assert W0.constant_weight("c") == want  # read from the source on first use
        W0._nx_weights.clear()
        if want is not None:
            G.__networkx_cache__.clear()
            assert_close(*both(G, weight="c"), len(G))


def test_direct_call_reads_other_weights_from_the_source():
    """The converted graph read without weights takes them from the NetworkX graph."""
    G = random_graph(7, "str", True, "int")
    W = backend_interface.convert_from_nx(G)
    ours = backend_interface.pagerank(W, weight="w")
    assert_close(ours, nx.pagerank(G, weight="w"), len(G))


def test_runs_on_the_configured_device(device):
    cfg = nx.config.backends.warpgraph
    saved = cfg.device
    cfg.device = device
    try:
        G = random_graph(9, "tuple", True, "float")
        assert_close(*both(G, weight="w", personalization={next(iter(G)): 1}), len(G))
        B = big_graph(directed=False)
        assert_close(*both(B), len(B))
    finally:
        cfg.device = saved
