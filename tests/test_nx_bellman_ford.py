"""``bellman_ford_path_length``, ``bellman_ford_path``, ``bellman_ford_predecessor_and_distance``
and ``find_negative_cycle`` through the backend, against NetworkX itself and SciPy's
Bellman-Ford.

Through ``backend="warpgraph"`` each result must be NetworkX's: the number and its type (int
weights by the parallel SSSP, float weights by the replay of NetworkX's SPFA), the path, the
predecessor lists and distances in NetworkX's order, the cycle its search finds, and its errors
(``NodeNotFound``, ``NetworkXNoPath``, ``NetworkXUnbounded``, ``NetworkXError``, ``TypeError``).
The oracle: SciPy's distances (each length equal, each path a walk of that weight, each
predecessor list exactly the tails of tight arcs) and, for cycles, their weight summed here.
CI runs this file under NetworkX 3.4 too.
"""

from __future__ import annotations

import random
from itertools import pairwise

import numpy as np
import pytest

nx = pytest.importorskip("networkx")

from nx_compare import backend_device, outcome  # noqa: E402  (tests/nx_compare.py)
from nx_labels import weighted_graph  # noqa: E402  (tests/nx_labels.py)
from test_nx_dijkstra_paths import bellman_ford_by_scipy  # noqa: E402
from test_nx_dijkstra_paths import seen as dict_seen  # noqa: E402
from warpgraph.nx import FUNCTIONS  # noqa: E402

BACKEND = "warpgraph"
if BACKEND not in nx.utils.backends.backends or "bellman_ford_path_length" not in FUNCTIONS:
    pytest.skip("warpgraph's Bellman-Ford functions are not registered", allow_module_level=True)


def seen(result) -> object:
    """What a caller sees of a result: dict items in order and value types (``seen`` of the
    Dijkstra paths' tests), and the result's own type (an ``int`` length is not a ``float``)."""
    return dict_seen(result), type(result)


def assert_as_networkx(func: str, *args, **kwargs):
    """NetworkX's own outcome (result, or exception type and message) through the backend."""
    theirs = outcome_and_message(getattr(nx, func), *args, **kwargs)
    ours = outcome_and_message(getattr(nx, func), *args, backend=BACKEND, **kwargs)
    assert ours[1:] == theirs[1:], (func, args[1:], kwargs, ours, theirs)
    assert seen(ours[0]) == seen(theirs[0]), (func, args[1:], kwargs)
    return ours[0]


def outcome_and_message(func, *args, **kwargs) -> tuple:
    result, kind = outcome(func, *args, **kwargs)
    message = None
    if kind is not None:
        try:
            func(*args, **kwargs)
        except Exception as exc:
            message = str(exc)
    return result, kind, message


def walk_weight(G, nodes, weight: str):
    return sum(G[a][b].get(weight, 1) for a, b in pairwise(nodes))


@pytest.mark.parametrize("seed", range(30))
@pytest.mark.parametrize("directed", [False, True])
@pytest.mark.parametrize("kind", ["int", "float"])
def test_random_graphs(seed, directed, kind):
    """Negative weights (digraphs with int costs, some float digraphs: reachable negative
    cycles included), zero weights for ties, random source-target pairs."""
    negative = directed and (kind == "int" or seed % 5 == 0)
    G = weighted_graph(nx, seed, directed, kind, negative=negative, zeros=True)
    rng = random.Random(seed + 11)
    nodes = list(G)
    source = rng.choice(nodes)
    if seed % 4 == 0:
        G.add_edge(source, source, cost=0 if kind == "int" else 0.0)  # (its own predecessor)
    pairs = [(source, rng.choice(nodes)) for _ in range(4)] + [(source, source)]
    lengths = paths = None
    for s, t in pairs:
        length = assert_as_networkx("bellman_ford_path_length", G, s, t, weight="cost")
        path = assert_as_networkx("bellman_ford_path", G, s, t, weight="cost")
        if path is not None and s != t:  # (s == t: [s], no search: a negative cycle may be)
            lengths = bellman_ford_by_scipy(G, s, "cost") if lengths is None else lengths
            assert path[0] == s and path[-1] == t
            assert np.isclose(walk_weight(G, path, "cost"), lengths[t])
            assert np.isclose(length, lengths[t])
            paths = True
    for heuristic in (False, True):
        found = assert_as_networkx(
            "bellman_ford_predecessor_and_distance", G, source, weight="cost", heuristic=heuristic
        )
        if found is not None:
            pred, dist = found
            want = bellman_ford_by_scipy(G, source, "cost")
            assert pred.keys() == dist.keys() == want.keys()
            for v, tails in pred.items():
                arcs_in = G.pred[v] if directed else G.adj[v]
                tight = {
                    u
                    for u in arcs_in
                    if u in want and np.isclose(want[u] + arcs_in[u].get("cost", 1), want[v])
                }
                assert set(tails) <= tight and len(tails) == len(set(tails))
                if v != source and kind == "int":
                    assert set(tails) == tight
    cycle = assert_as_networkx("find_negative_cycle", G, source, weight="cost")
    if cycle is not None:
        assert cycle[0] == cycle[-1] and walk_weight(G, cycle, "cost") < 0
    assert paths is None or lengths is not None


def test_int_lengths_come_from_the_parallel_sssp(monkeypatch):
    """Int weights never run the replay (NetworkX's value by the parallel SSSP); float weights
    do."""
    from warpgraph.nx import bellman_ford

    def no_replay(*args, **kwargs):
        raise AssertionError("the replay ran")

    G = nx.gnm_random_graph(300, 900, seed=5, directed=True)
    rng = random.Random(5)
    for u, v in G.edges():
        G[u][v]["weight"] = rng.randint(-1, 20)
    want = {t: outcome(nx.bellman_ford_path_length, G, 0, t) for t in range(0, 300, 7)}
    monkeypatch.setattr(bellman_ford, "_bellman_ford", no_replay)
    for t, (value, error) in want.items():
        ours = outcome(nx.bellman_ford_path_length, G, 0, t, backend=BACKEND)
        assert ours == (value, error) and type(ours[0]) is type(value)
    H = nx.path_graph(3)
    nx.set_edge_attributes(H, 1.5, "weight")
    with pytest.raises(AssertionError, match="the replay ran"):
        nx.bellman_ford_path_length(H, 0, 2, backend=BACKEND)


def test_float_sums_that_round_alike_follow_networkx():
    """NetworkX skips ``u`` (its predecessor ``p`` is queued), then ``p``'s lower distance
    plus 1e16 rounds to ``u``'s own: ``u``'s arcs are never relaxed and ``t`` stays
    unreached, where the exact fixpoint (and Dijkstra) reach it. Float weights run the
    replay, so the backend says so too; with int weights ``t`` is reached."""
    G = nx.DiGraph()
    G.add_weighted_edges_from([("s", "p", 1.0), ("s", "a", 0.25), ("p", "u", 1e16)])
    G.add_weighted_edges_from([("a", "p", 0.25), ("u", "t", 1.0), ("z", "u", 1.0)])
    assert "t" in nx.single_source_dijkstra_path_length(G, "s")
    with pytest.raises(nx.NetworkXNoPath):
        nx.bellman_ford_path_length(G, "s", "t", backend=BACKEND)
    pred, _ = assert_as_networkx("bellman_ford_predecessor_and_distance", G, "s")
    assert pred["u"] == ["p", "p"]  # (the tie added p twice)
    H = nx.DiGraph((u, v, {"weight": int(w)}) for u, v, w in G.edges(data="weight"))
    assert assert_as_networkx("bellman_ford_path_length", H, "s", "t") == 10**16 + 1
    G.remove_edge("z", "u")  # (u's one arc in cannot hold p twice: left to NetworkX)
    with pytest.raises(NotImplementedError):
        nx.bellman_ford_path_length(G, "s", "t", backend=BACKEND)


def test_negative_cycles_and_self_loops():
    D = nx.DiGraph([(0, 1, {"weight": 1}), (1, 2, {"weight": -3}), (2, 1, {"weight": 1})])
    D.add_edge(7, 7, weight=-1)  # a negative self-loop nobody reaches
    for func in ("bellman_ford_path_length", "bellman_ford_path"):
        assert_as_networkx(func, D, 0, 2)  # the cycle 1 -> 2 -> 1: Unbounded
        assert_as_networkx(func, D, 7, 7)  # source == target: no search
        assert_as_networkx(func, D, 3 if func == "x" else 7, 0)
    assert assert_as_networkx("find_negative_cycle", D, 0) == [1, 2, 1]
    assert assert_as_networkx("find_negative_cycle", D, 7) == [7, 7]
    E = nx.DiGraph([(0, 1, {"weight": 1}), (1, 2, {"weight": 2})])
    E.add_edge(5, 5, weight=-1)
    assert assert_as_networkx("bellman_ford_path_length", E, 0, 2) == 3
    for heuristic in (False, True):  # the unreached self-loop raises here (checked first)
        assert_as_networkx("bellman_ford_predecessor_and_distance", E, 0, heuristic=heuristic)
    U = nx.Graph([(0, 1, {"weight": 2}), (1, 2, {"weight": -1}), (3, 4, {"weight": -5})])
    for t in (1, 2, 3):  # a negative edge reached is a cycle there and back
        assert_as_networkx("bellman_ford_path_length", U, 0, t)
        assert_as_networkx("bellman_ford_path", U, 0, t)
    assert_as_networkx("find_negative_cycle", U, 0)
    D = nx.DiGraph([(0, 1, {"weight": -1}), (1, 0, {"weight": 5}), (1, 2, {"weight": 1})])
    V = D.to_undirected(as_view=True)  # arcs 0 -> 1 and 1 -> 0 weigh -1 and 5: no cycle
    for t in (1, 2):
        assert_as_networkx("bellman_ford_path_length", V, 0, t)
        assert_as_networkx("bellman_ford_path_length", V, t, 0)
    assert_as_networkx("find_negative_cycle", U, 3)
    one = nx.DiGraph([(0, 0, {"weight": 0})])  # one node: NetworkX returns before searching
    assert assert_as_networkx("bellman_ford_predecessor_and_distance", one, 0) == ({0: []}, {0: 0})
    zero = nx.DiGraph([(0, 0, {"weight": 0}), (0, 1, {"weight": 1})])
    assert assert_as_networkx("bellman_ford_predecessor_and_distance", zero, 0)[0][0] == [0]
    G = nx.DiGraph()
    G.add_weighted_edges_from([(0, 1, 2), (1, 2, 2), (2, 0, 1), (1, 4, 2), (4, 0, -5)])
    assert assert_as_networkx("find_negative_cycle", G, 0) == [4, 0, 1, 4]
    assert_as_networkx("find_negative_cycle", nx.path_graph(3), 0)  # NetworkXError: none
    lone = nx.DiGraph([(0, 0, {"weight": -1})])  # NetworkX's search fails (AttributeError)
    with pytest.raises(NotImplementedError):
        nx.find_negative_cycle(lone, 0, backend=BACKEND)


@pytest.mark.parametrize("seed", range(40))
def test_negative_cycles_found_as_networkx(seed):
    """Digraphs with many negative arcs: the cycle NetworkX's search finds, both ways its SPFA
    stops (heuristic, queue count)."""
    rng = random.Random(seed)
    n = rng.randint(2, 25)
    G = nx.gnp_random_graph(n, rng.uniform(0.1, 0.5), seed=seed, directed=True)
    for u, v in G.edges():
        G[u][v]["weight"] = rng.randint(-4, 6) if seed % 2 else rng.choice([-1.5, 0.5, 2.25])
    for source in list(G)[:5]:
        cycle = assert_as_networkx("find_negative_cycle", G, source)
        if cycle is not None:
            assert cycle[0] == cycle[-1] and walk_weight(G, cycle, "weight") < 0
        assert_as_networkx("bellman_ford_predecessor_and_distance", G, source)
        assert_as_networkx("bellman_ford_predecessor_and_distance", G, source, heuristic=True)


def test_bad_input_and_declined_calls():
    G = nx.path_graph(4)
    for func in ("bellman_ford_path_length", "bellman_ford_path"):
        assert_as_networkx(func, G, "absent", 1)  # NodeNotFound("Source ... not in G")
        assert_as_networkx(func, G, "absent", "absent")  # NodeNotFound("Node ...")
        assert_as_networkx(func, G, ["unhashable"], 1)  # TypeError
        assert_as_networkx(func, G, ["unhashable"], ["unhashable"])  # NodeNotFound
        assert_as_networkx(func, G, 0, ["unhashable"])  # TypeError after the search
        assert_as_networkx(func, G, 0, "absent")  # NetworkXNoPath
        assert_as_networkx(func, G, 0, 3.0)  # a target equal to a node
        assert_as_networkx(func, G, 0.0, 3)
    assert type(nx.bellman_ford_path(G, 2, 2.0, backend=BACKEND)[0]) is int  # [source] itself
    G.add_node(9)
    assert_as_networkx("bellman_ford_path_length", G, 0, 9)
    assert_as_networkx("bellman_ford_path", G, 0, 9)
    assert_as_networkx("bellman_ford_path", G, 0, None)  # every path, as a dict
    for source in ("absent", ["unhashable"]):
        assert_as_networkx("bellman_ford_predecessor_and_distance", G, source)
        assert_as_networkx("find_negative_cycle", G, source)
    assert_as_networkx("bellman_ford_predecessor_and_distance", G, 0, target="absent")
    backend = nx.utils.backends.backends[BACKEND].load()
    for func, value in [(f, v) for f in FOUR for v in ("heavy", None, np.int64(2))]:
        H = nx.path_graph(4)
        H[1][2]["weight"] = value
        with pytest.raises(NotImplementedError):
            getattr(nx, func)(H, 0, *([3] if "path" in func and "pred" not in func else []),
                              backend=BACKEND)  # fmt: skip
    mixed = nx.path_graph(3)
    mixed[0][1]["weight"] = 1.5
    with pytest.raises(NotImplementedError):  # an int and a float: NetworkX's type per path
        nx.bellman_ford_path_length(mixed, 0, 2, backend=BACKEND)
    M = nx.MultiDiGraph([(0, 1), (1, 2)])
    declined = [
        ("bellman_ford_path_length", (M, 0, 2), {}),
        ("bellman_ford_path", (G, 0, 2), {"weight": lambda u, v, d: 1}),
        ("bellman_ford_predecessor_and_distance", (G, 0), {"heuristic": "yes"}),
        ("find_negative_cycle", (G, 0), {"weight": lambda u, v, d: -1}),
    ]
    for func, args, kwargs in declined:
        assert isinstance(backend.can_run(func, args, kwargs), str), func


FOUR = (
    "bellman_ford_path_length",
    "bellman_ford_path",
    "bellman_ford_predecessor_and_distance",
    "find_negative_cycle",
)


def test_large_graphs():
    """Thousands of nodes: int weights (parallel SSSP), float weights (the replay)."""
    G = nx.gnm_random_graph(4000, 16000, seed=3)
    rng = random.Random(3)
    for u, v in G.edges():
        G[u][v]["weight"] = rng.randint(0, 50)
    F = G.copy()
    for u, v in F.edges():
        F[u][v]["weight"] = rng.choice([0.5, 1.0, 1.5, 0.1])
    for H in (G, F):
        for t in (1, 17, 3999):
            assert_as_networkx("bellman_ford_path_length", H, 0, t)
            assert_as_networkx("bellman_ford_path", H, 0, t)
        assert_as_networkx("bellman_ford_predecessor_and_distance", H, 5)


@pytest.mark.gpu
def test_lengths_on_the_gpu():
    pytest.importorskip("cupy")
    G = nx.gnm_random_graph(20000, 80000, seed=4, directed=True)
    rng = random.Random(4)
    for u, v in G.edges():
        G[u][v]["weight"] = rng.randint(-1, 30)
    U = nx.gnm_random_graph(20000, 80000, seed=5)
    for u, v in U.edges():
        U[u][v]["weight"] = rng.randint(0, 30)
    with backend_device(nx, "gpu"):
        for H in (G, U):
            for t in (1, 77, 19999):
                assert_as_networkx("bellman_ford_path_length", H, 0, t)
        C = nx.DiGraph([(0, 1, {"weight": 1}), (1, 2, {"weight": -3}), (2, 1, {"weight": 1})])
        assert_as_networkx("bellman_ford_path_length", C, 0, 2)
