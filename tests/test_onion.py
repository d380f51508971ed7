"""The onion decomposition: ``warpgraph.algorithms.kcore.onion_layers`` and NetworkX's
``onion_layers`` through the backend (``nx/cores.py``).

Checked against NetworkX itself (``backend="warpgraph"``, so a wrong answer fails: key order,
values and their type), against an independent oracle written here (each round recomputes
every remaining degree from the edge list and sorts the round by Python's ``sorted``), and by
the library's verifier (:func:`verify_onion_layers`, itself checked on wrong answers). Graphs:
random ones with isolated nodes and non-integer labels out of order, paths, stars, lattices
(hundreds of rounds), cliques, the empty and one-node graphs, and large enough ones for the
compiled paths; self-loops, directed graphs and multigraphs get NetworkX's errors."""

from __future__ import annotations

import random

import numpy as np
import pytest

import warpgraph as wg
from warpgraph.algorithms.kcore import onion_layers
from warpgraph.algorithms.kcore.verify import verify_onion_layers
from warpgraph.errors import InvalidArgumentError, VerificationError

nx = pytest.importorskip("networkx")

from nx_compare import backend_device  # noqa: E402  (tests/nx_compare.py)
from nx_labels import random_graph  # noqa: E402  (tests/nx_labels.py)

BACKEND = "warpgraph"
needs_backend = pytest.mark.skipif(
    BACKEND not in nx.utils.backends.backends, reason="warpgraph is not a NetworkX backend here"
)


def oracle(nodes: list, edges: list) -> list[tuple]:
    """``[(node, layer)]`` in NetworkX's order, by the definition: every round recounts each
    remaining node's degree from the edge list (no degree kept between rounds)."""
    remaining = list(nodes)  # in node order
    out, layer, core = [], 1, 1
    isolated = {v for v in nodes if not any(v in e for e in edges if e[0] != e[1])}
    if isolated:
        out += [(v, 1) for v in nodes if v in isolated]
        remaining = [v for v in remaining if v not in isolated]
        layer = 2
    while remaining:
        alive = set(remaining)
        degree = dict.fromkeys(remaining, 0)
        for u, v in edges:
            if u != v and u in alive and v in alive:
                degree[u] += 1
                degree[v] += 1
        core = max(core, min(degree.values()))
        peeled = sorted((v for v in remaining if degree[v] <= core), key=degree.__getitem__)
        out += [(v, layer) for v in peeled]
        gone = set(peeled)
        remaining = [v for v in remaining if v not in gone]
        layer += 1
    return out


def _graph(H) -> tuple[wg.Graph, list]:
    """A warpgraph ``Graph`` of the NetworkX graph ``H`` (ids in node order), and the nodes."""
    nodes = list(H)
    index = {v: i for i, v in enumerate(nodes)}
    pairs = np.array([(index[u], index[v]) for u, v in H.edges()], dtype=np.int64).reshape(-1, 2)
    G = wg.Graph.from_edges(pairs[:, 0], pairs[:, 1], num_vertices=len(nodes), directed=False)
    return G, nodes


def _loopless(seed: int, kind: str, **kwargs):
    H = random_graph(nx, seed, directed=False, kind=kind, **kwargs)
    H.remove_edges_from(list(nx.selfloop_edges(H)))
    return H


SHAPES = {
    "empty": nx.empty_graph(0),
    "one node": nx.empty_graph(1),
    "isolated only": nx.empty_graph(5),
    "one edge": nx.path_graph(2),
    "path": nx.path_graph(9),
    "star": nx.star_graph(7),
    "clique": nx.complete_graph(6),
    "lattice": nx.convert_node_labels_to_integers(nx.grid_2d_graph(9, 13)),
    "barbell": nx.barbell_graph(5, 4),
    "karate": nx.karate_club_graph(),
}


# ------------------------------------------------------------------ the library
@pytest.mark.parametrize("name", SHAPES)
def test_library_against_oracle_and_verifier(name):
    H = SHAPES[name]
    G, nodes = _graph(H)
    layers, order = onion_layers(G, device="cpu")
    verify_onion_layers(G, layers, order)
    want = oracle(nodes, list(H.edges()))
    assert [(nodes[v], int(layers[v])) for v in order] == want


@pytest.mark.parametrize("seed", range(40))
def test_library_random_against_oracle(seed):
    H = _loopless(seed, "int", edges_per_node=seed % 5 + 1)
    G, nodes = _graph(H)
    layers, order = onion_layers(G, device="cpu")
    verify_onion_layers(G, layers, order)
    assert [(nodes[v], int(layers[v])) for v in order] == oracle(nodes, list(H.edges()))


def test_library_ignores_loops_and_repeated_edges():
    src = np.array([0, 0, 1, 1, 2, 2, 3, 3])  # 0-1 twice, a loop at 2, 2-3 twice
    dst = np.array([1, 1, 0, 2, 2, 3, 2, 3])
    G = wg.Graph.from_edges(src, dst, num_vertices=5, directed=False)
    layers, order = onion_layers(G, device="cpu")
    H = nx.Graph([(0, 1), (1, 2), (2, 3)])
    H.add_node(4)
    assert [(v, int(layers[v])) for v in order] == list(nx.onion_layers(H).items())


def test_library_refuses_what_it_cannot_peel():
    with pytest.raises(InvalidArgumentError, match="undirected"):
        onion_layers(wg.Graph.from_edges([0], [1], directed=True), device="cpu")
    with pytest.raises(InvalidArgumentError, match=r"warpgraph\.Graph"):
        onion_layers(nx.path_graph(3), device="cpu")


def test_verifier_catches_wrong_answers():
    G, _ = _graph(SHAPES["barbell"])
    layers, order = onion_layers(G, device="cpu")
    for bad_layers, bad_order in (
        (layers + (np.arange(layers.size) == order[-1]), order),  # last node one layer late
        (layers, order[::-1].copy()),  # the layers' order reversed
        (np.maximum(layers - 1, 1), order),  # every layer merged into the one before
        (layers, np.concatenate((order[1:], order[:1]))),  # rotated
    ):
        with pytest.raises(VerificationError):
            verify_onion_layers(G, bad_layers, bad_order)


# ------------------------------------------------------------------ through NetworkX
@needs_backend
@pytest.mark.parametrize("name", SHAPES)
def test_networkx_shapes(name):
    H = SHAPES[name]
    ours = nx.onion_layers(H, backend=BACKEND)
    assert list(ours.items()) == list(nx.onion_layers(H).items())
    assert all(type(x) is int for x in ours.values())


@needs_backend
@pytest.mark.parametrize("seed", range(60))
def test_networkx_random_labels(seed):
    kind = ("str", "tuple", "mixed", "int")[seed % 4]
    H = _loopless(seed, kind, edges_per_node=seed % 4 + 1)
    ours = nx.onion_layers(H, backend=BACKEND)
    assert list(ours.items()) == list(nx.onion_layers(H).items())
    assert list(ours.items()) == oracle(list(H), list(H.edges()))


@needs_backend
@pytest.mark.parametrize("seed", range(3))
def test_networkx_large(seed):
    """Large enough for the conversion's compiled paths (dict tables read in place)."""
    rng = random.Random(seed)
    H = nx.gnm_random_graph(6000, 6000 * (seed + 2), seed=seed)
    H.add_nodes_from(range(6000, 6000 + rng.randint(0, 50)))  # isolated at the end
    if seed == 2:
        H = nx.relabel_nodes(H, {v: f"n{v}" for v in H})
    assert list(nx.onion_layers(H, backend=BACKEND).items()) == list(nx.onion_layers(H).items())


@needs_backend
def test_networkx_graph_changed_between_calls():
    H = nx.path_graph(30)
    first = nx.onion_layers(H, backend=BACKEND)
    H.add_edges_from([(0, 29), (5, 20), (31, 32)])
    assert list(nx.onion_layers(H, backend=BACKEND).items()) == list(nx.onion_layers(H).items())
    assert first != nx.onion_layers(H, backend=BACKEND)


def _error(func, *args):
    try:
        func(*args)
    except Exception as exc:  # (compared with NetworkX's: type and message)
        return type(exc), str(exc)
    raise AssertionError("no error")


@needs_backend
@pytest.mark.parametrize(
    "make",
    [
        lambda: nx.Graph([(0, 1), (1, 1)]),  # a self-loop
        lambda: nx.DiGraph([(0, 1)]),
        lambda: nx.MultiGraph([(0, 1), (0, 1)]),
    ],
    ids=["self-loop", "directed", "multigraph"],
)
def test_networkx_errors(make):
    H = make()
    ours = _error(lambda: nx.onion_layers(H, backend=BACKEND))
    assert ours == _error(lambda: nx.onion_layers(H))
    assert ours[0] is nx.NetworkXNotImplemented


# ------------------------------------------------------------------ GPU
@pytest.mark.gpu
def test_gpu_matches_cpu_and_networkx():
    graphs = [*SHAPES.values(), *(_loopless(s, "int", edges_per_node=3) for s in range(8))]
    graphs.append(nx.gnm_random_graph(20000, 150000, seed=5))
    graphs.append(nx.convert_node_labels_to_integers(nx.grid_2d_graph(120, 90)))
    for H in graphs:
        G, _ = _graph(H)
        cpu = onion_layers(G, device="cpu")
        gpu = onion_layers(G, device="gpu")
        verify_onion_layers(G, *gpu)
        assert np.array_equal(cpu[0], gpu[0].get()) and np.array_equal(cpu[1], gpu[1].get())
    with backend_device(nx, "gpu"):
        for H in graphs[-3:]:
            ours = nx.onion_layers(H, backend=BACKEND)
            assert list(ours.items()) == list(nx.onion_layers(H).items())
