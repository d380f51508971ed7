"""``multi_source_dijkstra_path_length`` (``nx/shortest_paths.py``) through the backend: keys in
NetworkX's order (the sources in the order they iterate, then its heap's), values of its types
(each source's ``int`` 0 among float distances), every ``cutoff`` kind, repeated sources, edges
hidden by a ``None`` weight; distances also checked against SciPy's Dijkstra (an independent
oracle); NetworkX's errors; iterators declined by ``can_run``."""

from __future__ import annotations

import random

import numpy as np
import pytest

nx = pytest.importorskip("networkx")
csgraph = pytest.importorskip("scipy.sparse.csgraph")
sparse = pytest.importorskip("scipy.sparse")

from nx_compare import assert_dict_as_networkx  # noqa: E402  (tests/nx_compare.py)
from nx_labels import weighted_graph  # noqa: E402  (tests/nx_labels.py)
from warpgraph.nx import FUNCTIONS  # noqa: E402
from warpgraph.nx.interface import backend_interface  # noqa: E402

BACKEND = "warpgraph"
NAME = "multi_source_dijkstra_path_length"
if BACKEND not in nx.utils.backends.backends or NAME not in FUNCTIONS:
    pytest.skip(f"warpgraph's {NAME} is not registered", allow_module_level=True)


def weighted(seed: int, directed: bool, kind: str) -> nx.Graph:
    """Random ``cost`` weights (zeros among the floats, for ties; some edges without one),
    isolated nodes, shuffled non-integer labels."""
    return weighted_graph(nx, seed, directed, kind, zeros=True)


def scipy_distances(G, sources, weight: str, cutoff=None) -> dict:
    """The oracle: SciPy's Dijkstra from the sources (nearest of them), cut at ``cutoff``."""
    nodes = list(G)
    index = {v: i for i, v in enumerate(nodes)}
    rows, cols, vals = [], [], []
    for u, v, d in G.edges(data=True):
        pairs = [(u, v)] if G.is_directed() else [(u, v), (v, u)]
        for a, b in pairs:
            if a != b:
                rows.append(index[a])
                cols.append(index[b])
                vals.append(float(d.get(weight, 1)))
    # zero weights are kept as explicit entries (SciPy reads a stored 0 as an arc)
    A = sparse.csr_matrix((vals, (rows, cols)), shape=(len(nodes),) * 2)
    dist = csgraph.dijkstra(A, directed=True, indices=[index[s] for s in sources], min_only=True)
    limit = np.inf if cutoff is None else cutoff
    near = (dist <= limit) & np.isfinite(dist)
    return {v: dist[i] for i, v in enumerate(nodes) if near[i] or v in sources}


def assert_as_networkx(G, sources, **kwargs) -> None:
    assert_dict_as_networkx(nx.multi_source_dijkstra_path_length, G, sources, **kwargs)


@pytest.mark.parametrize("seed", range(24))
@pytest.mark.parametrize("directed", [False, True])
@pytest.mark.parametrize("kind", ["int", "float"])
def test_random_graphs_as_networkx_and_scipy(seed, directed, kind):
    G = weighted(seed, directed, kind)
    rng = random.Random(seed + 1000)
    nodes = list(G)
    for k in (1, 2, 5):
        sources = [rng.choice(nodes) for _ in range(k)]
        for cutoff in (None, -1, 0, 2, 3.5):
            assert_as_networkx(G, sources, cutoff=cutoff, weight="cost")
            ours = nx.multi_source_dijkstra_path_length(
                G, sources, cutoff=cutoff, weight="cost", backend=BACKEND
            )
            want = scipy_distances(G, sources, "cost", cutoff)
            assert ours.keys() == want.keys()
            assert np.allclose([ours[v] for v in want], list(want.values()))
        assert_as_networkx(G, set(sources), weight="cost")  # a set: its own iteration order
        assert_as_networkx(G, sources, weight="absent")  # every weight NetworkX's default 1


def test_sources_come_first_with_int_zero():
    """Float weights: every source is the ``int`` 0, in the order the sources iterate, even
    where a zero-weight edge reaches a node at distance 0.0 (pushed after them)."""
    G = nx.Graph()
    G.add_weighted_edges_from([("a", "b", 0.0), ("c", "d", 1.5), ("b", "d", 0.5)])
    got = nx.multi_source_dijkstra_path_length(G, ["c", "a", "c"], backend=BACKEND)
    assert list(got.items()) == [("c", 0), ("a", 0), ("b", 0.0), ("d", 0.5)]
    assert [type(x) for x in got.values()] == [int, int, float, float]
    assert_as_networkx(G, ["c", "a", "c"])


def test_hidden_edges_and_errors():
    G = nx.DiGraph()
    G.add_edge(0, 1, weight=None)  # hidden from Dijkstra, as in NetworkX
    G.add_edge(0, 2, weight=2)
    G.add_edge(2, 1, weight=3)
    assert_as_networkx(G, [0])
    assert nx.multi_source_dijkstra_path_length(G, [0], backend=BACKEND) == {0: 0, 2: 2, 1: 5}
    with pytest.raises(ValueError, match="sources must not be empty"):
        nx.multi_source_dijkstra_path_length(G, [], backend=BACKEND)
    with pytest.raises(nx.NodeNotFound, match="Node 9 not found in graph"):
        nx.multi_source_dijkstra_path_length(G, [0, 9], backend=BACKEND)
    assert_as_networkx(G, [[0]])  # an unhashable source: NodeNotFound, as NetworkX


def test_declined_cases_run_in_networkx():
    """An iterator of sources (NetworkX checks it, then searches from what is left: ``{}``),
    weight functions and negative weights go to NetworkX under automatic dispatch."""
    G = nx.path_graph(5)
    nx.set_edge_attributes(G, 1, "weight")
    reason = backend_interface.can_run(NAME, (G, iter([0, 1])), {})
    assert isinstance(reason, str) and "iterator" in reason
    reason = backend_interface.can_run(NAME, (G, [0]), {"weight": lambda u, v, d: 1})
    assert isinstance(reason, str) and "weight function" in reason
    G[1][2]["weight"] = -1
    with pytest.raises(NotImplementedError):  # (the backend's own answer: declined)
        nx.multi_source_dijkstra_path_length(G, [0], backend=BACKEND)
    nx.config.backend_priority.algos = [BACKEND]
    try:
        assert nx.multi_source_dijkstra_path_length(G, iter([0, 4])) == {}
        with pytest.raises(ValueError, match="Contradictory paths"):
            nx.multi_source_dijkstra_path_length(G, [0])
    finally:
        nx.config.backend_priority.algos = []
