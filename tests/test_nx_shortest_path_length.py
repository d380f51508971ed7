"""``shortest_path_length`` (``nx/shortest_paths.py``) and ``single_target_shortest_path_length``
(``nx/traversal.py``) through the backend: the one-dict cases of ``shortest_path_length`` (from a
source; to a target) and
``single_target_shortest_path_length`` equal NetworkX's, keys in NetworkX's order (a directed
graph's searches to a target along its in-arcs in ``_pred`` order) and values of its types,
for every method; the other cases are declined by ``can_run`` and run in NetworkX under
automatic dispatch."""

from __future__ import annotations

import math
import random
import warnings

import pytest

nx = pytest.importorskip("networkx")

import nx_compare  # noqa: E402  (tests/nx_compare.py)
from nx_labels import weighted_graph  # noqa: E402  (tests/nx_labels.py)
from warpgraph.nx import FUNCTIONS  # noqa: E402
from warpgraph.nx.interface import backend_interface  # noqa: E402

BACKEND = "warpgraph"
if BACKEND not in nx.utils.backends.backends or "shortest_path_length" not in FUNCTIONS:
    pytest.skip("warpgraph's shortest_path_length is not registered", allow_module_level=True)


def weighted(seed: int, directed: bool, kind: str, negative: bool = False):
    return weighted_graph(nx, seed, directed, kind, negative=negative)


def outcome(G, **kwargs):
    """``(dict, None)`` or ``(None, exception type)``."""
    return nx_compare.outcome(nx.shortest_path_length, G, **kwargs)


def assert_as_networkx(G, **kwargs) -> None:
    nx_compare.assert_dict_as_networkx(nx.shortest_path_length, G, **kwargs)


@pytest.mark.parametrize("seed", range(8))
@pytest.mark.parametrize("directed", [False, True])
@pytest.mark.parametrize("kind", ["int", "float"])
def test_from_a_source_as_networkx(seed, directed, kind):
    G = weighted(seed, directed, kind)
    for source in random.Random(seed).sample(list(G), 3):
        assert_as_networkx(G, source=source)
        for method in ("dijkstra", "bellman-ford"):
            for weight in ("cost", "absent"):
                assert_as_networkx(G, source=source, weight=weight, method=method)


@pytest.mark.parametrize("seed", range(6))
@pytest.mark.parametrize("directed", [False, True])
def test_to_a_target_as_networkx(seed, directed):
    G = weighted(seed, directed, "int")
    for target in random.Random(seed).sample(list(G), 3):
        assert_as_networkx(G, target=target)
        for weight in ("cost", "absent"):  # (directed: along the in-arcs)
            assert_as_networkx(G, target=target, weight=weight)
            assert_as_networkx(G, target=target, weight=weight, method="bellman-ford")


@pytest.mark.parametrize("seed", range(12))
@pytest.mark.parametrize("kind", ["int", "float"])
def test_bellman_ford_to_a_target_as_networkx(seed, kind):
    """A directed graph's Bellman-Ford lengths to a target: NetworkX's search of its reverse
    view (negative weights, and ``NetworkXUnbounded`` for a negative cycle that reaches the
    target), replayed along the in-arcs; it runs here (``can_run``), not in NetworkX."""
    G = weighted(seed, True, kind, negative=seed % 2 == 1)
    kwargs = {"weight": "cost", "method": "bellman-ford"}
    for target in random.Random(seed).sample(list(G), 2):
        assert backend_interface.can_run("shortest_path_length", (G,), {"target": target, **kwargs})
        assert_as_networkx(G, target=target, **kwargs)


@pytest.mark.parametrize("seed", range(6))
def test_negative_weights_as_networkx(seed):
    """Bellman-Ford: lengths, or ``NetworkXUnbounded`` for a reachable negative cycle (undirected
    negative edges are one); Dijkstra with negative weights runs in NetworkX."""
    G = weighted(seed, True, "int", negative=True)
    source = next(iter(G))
    assert_as_networkx(G, source=source, weight="cost", method="bellman-ford")
    theirs = outcome(G, source=source, weight="cost")
    nx.config.backend_priority.algos = [BACKEND]
    try:
        assert outcome(G, source=source, weight="cost") == theirs  # (falls back to NetworkX)
    finally:
        nx.config.backend_priority.algos = []


def test_errors_as_networkx():
    G = nx.path_graph(5)
    assert_as_networkx(G, source=0, weight="weight", method="other")  # ValueError
    assert_as_networkx(G, source=0, method="other")  # (checked before weight is)
    assert_as_networkx(G, source="absent")  # NodeNotFound
    assert_as_networkx(G, target="absent", weight="weight")


def test_declined_cases_run_in_networkx():
    """All pairs and source-target pairs: ``can_run`` says why, and automatic dispatch runs
    NetworkX (same answers)."""
    D = nx.gnp_random_graph(40, 0.1, seed=2, directed=True)
    assert backend_interface.can_run("shortest_path_length", (D,), {"target": 5}) is True
    assert backend_interface.can_run("shortest_path_length", (D,), {"target": 5, "weight": "w"})
    bellman_ford = {"target": 5, "weight": "w", "method": "bellman-ford"}
    assert backend_interface.can_run("shortest_path_length", (D,), bellman_ford) is True
    for kwargs in ({}, {"source": 0, "target": 5}):
        reason = backend_interface.can_run("shortest_path_length", (D,), kwargs)
        assert isinstance(reason, str) and reason, kwargs
    nx.config.backend_priority.algos = [BACKEND]
    try:
        assert nx.shortest_path_length(D, target=5) == nx.shortest_path_length(
            D, target=5, backend="networkx"
        )
        assert nx.shortest_path_length(D, 0, 5) == nx.shortest_path_length(
            D, 0, 5, backend="networkx"
        )
    finally:
        nx.config.backend_priority.algos = []
    assert backend_interface.can_run("shortest_path_length", (D,), {"source": 0}) is True


def _listed(result):
    """A dict as it is; NetworkX 3.4's iterator of pairs as a list."""
    return result if isinstance(result, dict) else list(result)


@pytest.mark.parametrize("seed", range(8))
@pytest.mark.parametrize("directed", [False, True])
def test_single_target_as_networkx(seed, directed):
    """The result type of the installed NetworkX (3.4: an iterator of pairs, with its
    FutureWarning; 3.5 on: a dict), the same pairs in the same order (a directed graph's
    search along its in-arcs, in ``_pred`` order), every cutoff."""
    G = weighted(seed, directed, "int")
    for target in random.Random(seed).sample(list(G), 2):
        for cutoff in (None, 0, 1, 2.5, -1):
            with warnings.catch_warnings(record=True) as theirs_warned:
                warnings.simplefilter("always")
                theirs = nx.single_target_shortest_path_length(G, target, cutoff=cutoff)
            with warnings.catch_warnings(record=True) as ours_warned:
                warnings.simplefilter("always")
                ours = nx.single_target_shortest_path_length(
                    G, target, cutoff=cutoff, backend=BACKEND
                )
            assert isinstance(ours, dict) == isinstance(theirs, dict)
            want = _listed(theirs)
            got = _listed(ours)
            assert got == want and (isinstance(want, list) or list(got) == list(want))
            kinds = {w.category for w in theirs_warned}
            assert kinds <= {w.category for w in ours_warned}
    with pytest.raises(nx.NodeNotFound, match="Target absent is not in G"):
        nx.single_target_shortest_path_length(G, "absent", backend=BACKEND)


def test_bellman_ford_int_sums_past_int64_run_in_networkx():
    """A weight of ``-2**63`` (whose ``np.abs`` stays negative) makes sums that leave int64:
    the backend declines with the reason (``backend=``), so NetworkX's exact Python ints are
    what a user gets under automatic dispatch."""
    G = nx.DiGraph()
    G.add_edge(0, 1, weight=-(2**63))
    G.add_edge(1, 2, weight=-5)
    want = nx.single_source_bellman_ford_path_length(G, 0, backend="networkx")
    assert want[2] == -(2**63) - 5
    with pytest.raises(NotImplementedError) as raised:
        nx.single_source_bellman_ford_path_length(G, 0, backend=BACKEND)
    assert "int64" in str(raised.value.__cause__)


def test_bellman_ford_to_a_target_bad_input_as_networkx():
    """A missing or unhashable target gives NetworkX's error; weights the replay does not take
    (NaN, non-numbers, None on an edge) raise ``NotImplementedError`` from the backend, and
    automatic dispatch then answers as NetworkX does."""
    D = nx.DiGraph([(0, 1, {"cost": 2}), (1, 2, {"cost": -1}), (2, 0, {"cost": 4})])
    kwargs = {"weight": "cost", "method": "bellman-ford"}
    assert_as_networkx(D, target="absent", **kwargs)  # NodeNotFound
    assert_as_networkx(D, target=["unhashable"], **kwargs)  # TypeError (NetworkX hashes it)
    nx_compare.assert_dict_as_networkx(  # (was NodeNotFound here before session 56)
        nx.single_source_bellman_ford_path_length, D, ["unhashable"], weight="cost"
    )
    for bad in (math.nan, "x", None):
        B = D.copy()
        B[1][2]["cost"] = bad
        with pytest.raises(NotImplementedError, match="warpgraph"):
            nx.shortest_path_length(B, target=2, backend=BACKEND, **kwargs)
        with pytest.raises(NotImplementedError, match="warpgraph"):
            nx.shortest_path(B, target=2, backend=BACKEND, **kwargs)
        nx.config.backend_priority.algos = [BACKEND]
        try:
            assert outcome(B, target=2, **kwargs) == nx_compare.outcome(
                nx.shortest_path_length, B, backend="networkx", target=2, **kwargs
            )
        finally:
            nx.config.backend_priority.algos = []
