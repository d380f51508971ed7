"""NetworkX backend: ``all_pairs_shortest_path_length`` and ``all_pairs_shortest_path``, and
the Dijkstra and Bellman-Ford ones, against plain NetworkX (the oracle): the same
``(node, dict)`` pairs in node order, each dict with NetworkX's keys in its BFS (heap, queue)
order and its paths, with and without ``cutoff``, on directed and undirected graphs with int,
str, tuple and mixed labels, negative weights and cycles (NetworkX's ``NetworkXUnbounded`` at
the same node); a graph changed while the generator runs: an added arc gives NetworkX's later
dicts, an added node its ``RuntimeError``; weights NetworkX types otherwise refused when called;
a source the backend declines mid-way answered by NetworkX's own call."""

from __future__ import annotations

import random

import pytest

nx = pytest.importorskip("networkx")

from nx_labels import random_graph, weighted_graph  # noqa: E402  (tests/nx_labels.py)

BACKEND = "warpgraph"
if BACKEND not in nx.utils.backends.backends:
    pytest.skip("warpgraph is not registered as a NetworkX backend", allow_module_level=True)

FUNCTIONS = [nx.all_pairs_shortest_path_length, nx.all_pairs_shortest_path]


def listed(func, G, **kwargs):
    return [(node, list(found.items())) for node, found in func(G, **kwargs)]


@pytest.mark.parametrize("directed", [False, True])
@pytest.mark.parametrize("kind", ["int", "str", "tuple", "mixed"])
@pytest.mark.parametrize("seed", range(6))
def test_same_as_networkx(seed, kind, directed):
    G = random_graph(nx, seed, directed=directed, kind=kind)
    for func in FUNCTIONS:
        for cutoff in (None, 0, 1, 2.5):
            theirs = listed(func, G, cutoff=cutoff)
            assert listed(func, G, cutoff=cutoff, backend=BACKEND) == theirs


def test_lazy_and_a_subgraph_view():
    G = nx.convert_node_labels_to_integers(nx.grid_2d_graph(20, 20))
    first = next(nx.all_pairs_shortest_path_length(G, backend=BACKEND))
    assert first[0] == 0 and list(first[1].items()) == list(
        nx.single_source_shortest_path_length(G, 0).items()
    )
    view = G.subgraph(random.Random(1).sample(list(G), 150))
    for func in FUNCTIONS:
        assert listed(func, view, backend=BACKEND) == listed(func, view)


@pytest.mark.parametrize("change", ["edge", "node"])
def test_graph_changed_while_running(change):
    results = []
    for backend in ("networkx", BACKEND):
        G = nx.path_graph(8)
        seen = []
        try:
            for i, (node, found) in enumerate(nx.all_pairs_shortest_path(G, backend=backend)):
                seen.append((node, list(found.items())))
                if i == 2:
                    G.add_edge(0, 7) if change == "edge" else G.add_node(99)
        except RuntimeError as exc:
            seen.append(("RuntimeError", str(exc)))
        results.append(seen)
    assert results[0] == results[1]
    assert (results[0][-1][0] == "RuntimeError") == (change == "node")


DIJKSTRA = [nx.all_pairs_dijkstra_path_length, nx.all_pairs_dijkstra_path]


def listed_pairs(G, **kwargs):
    return [(node, list(d.items()), list(p.items())) for node, (d, p) in
            nx.all_pairs_dijkstra(G, **kwargs)]  # fmt: skip


@pytest.mark.parametrize("kind", ["int", "float"])
@pytest.mark.parametrize("directed", [False, True])
@pytest.mark.parametrize("seed", range(8))
def test_dijkstra_same_as_networkx(seed, directed, kind):
    """Weighted graphs (costs on most edges, NetworkX's default 1 on the rest, isolated
    nodes, str and mixed labels): the same keys in NetworkX's heap order, distances and
    paths, with and without ``cutoff``."""
    G = weighted_graph(nx, seed, directed, kind)
    for cutoff in (None, 3, 2.5):
        options = {"cutoff": cutoff, "weight": "cost"}
        for func in DIJKSTRA:
            assert listed(func, G, backend=BACKEND, **options) == listed(func, G, **options)
        assert listed_pairs(G, backend=BACKEND, **options) == listed_pairs(G, **options)


def test_dijkstra_weights_refused_when_called():
    """Weights NetworkX's Dijkstra types differently (an int and a float here) are refused by
    the call itself, before any search: a generator could not hand them to NetworkX later."""
    G = nx.Graph([(0, 1, {"cost": 1}), (1, 2, {"cost": 2.5})])
    for func in [*DIJKSTRA, nx.all_pairs_dijkstra]:
        with pytest.raises(NotImplementedError):
            func(G, weight="cost", backend=BACKEND)


BELLMAN_FORD = [nx.all_pairs_bellman_ford_path_length, nx.all_pairs_bellman_ford_path]


def listed_until_error(func, G, **kwargs):
    """The pairs as :func:`listed`, then the exception that ended the generator, if one did."""
    out = []
    try:
        for node, found in func(G, **kwargs):
            out.append((node, list(found.items())))
    except nx.NetworkXException as exc:
        out.append((type(exc).__name__, str(exc)))
    return out


@pytest.mark.parametrize("negative", [False, True])
@pytest.mark.parametrize("kind", ["int", "float"])
@pytest.mark.parametrize("directed", [False, True])
@pytest.mark.parametrize("seed", range(8))
def test_bellman_ford_same_as_networkx(seed, directed, kind, negative):
    """The same pairs in node order, keys in NetworkX's queue order; with negative costs a
    negative cycle's ``NetworkXUnbounded`` after the same pairs (an undirected negative edge is
    a negative cycle from both its ends)."""
    G = weighted_graph(nx, seed, directed, kind, negative=negative)
    for func in BELLMAN_FORD:
        theirs = listed_until_error(func, G, weight="cost")
        assert listed_until_error(func, G, weight="cost", backend=BACKEND) == theirs


def test_bellman_ford_weights_refused_when_called():
    G = nx.DiGraph([(0, 1, {"cost": 1}), (1, 2, {"cost": 2.5})])
    for func in BELLMAN_FORD:
        with pytest.raises(NotImplementedError):
            func(G, weight="cost", backend=BACKEND)
    huge = nx.DiGraph([(0, 1, {"cost": 2**62}), (1, 2, {"cost": 1})])  # (sums past int64)
    with pytest.raises(NotImplementedError):
        nx.all_pairs_bellman_ford_path_length(huge, weight="cost", backend=BACKEND)


def test_declined_source_answered_by_networkx(monkeypatch):
    """A search that declines one source mid-way (here made to) yields NetworkX's own dict for
    it, and the generator goes on."""
    from warpgraph.nx import all_pairs

    G = weighted_graph(nx, 3, True, "int", negative=False)
    declined = list(G)[len(G) // 2]
    ours = all_pairs.single_source_bellman_ford_path_length

    def declining(W, source, **kwargs):
        if source == declined:
            raise NotImplementedError("declined for the test")
        return ours(W, source, **kwargs)

    monkeypatch.setattr(all_pairs, "single_source_bellman_ford_path_length", declining)
    func = nx.all_pairs_bellman_ford_path_length
    assert listed(func, G, weight="cost", backend=BACKEND) == listed(func, G, weight="cost")
