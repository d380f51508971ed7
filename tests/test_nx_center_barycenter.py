"""NetworkX's ``center``, ``barycenter`` and ``wiener_index`` through the warpgraph backend
(``nx/distance_measures.py``), against NetworkX itself run without it (the oracle).

Each call is made with ``backend="warpgraph"`` and with NetworkX's own code, and the two must
agree in value and type (a list's items and their order, ``int`` against ``float``), or raise
the same exception class with the same message. The graphs: random directed and undirected
graphs, connected or not, with self-loops and non-integer labels out of order; random trees
whose node order is not their structure's (NetworkX answers undirected trees by its own tree
paths: ``tree.center`` from 3.5, ``tree.centroid``, in its own order, from 3.6); paths, stars,
forests, the null graph and graphs of one and two nodes. Also: the disconnected graph's message
naming the NetworkX graph (and its form when that graph is gone), trees never searched from
every node, and the arguments that run in NetworkX (``can_run`` declines them).
"""

from __future__ import annotations

import gc
import random

import numpy as np
import pytest

nx = pytest.importorskip("networkx")

from nx_compare import backend_device  # noqa: E402  (tests/nx_compare.py)
from nx_labels import random_graph, shuffled_labels  # noqa: E402  (tests/nx_labels.py)

BACKEND = "warpgraph"
needs_backend = pytest.mark.skipif(
    BACKEND not in nx.utils.backends.backends, reason="warpgraph is not a NetworkX backend here"
)
pytestmark = needs_backend
FUNCTIONS = ("center", "barycenter", "wiener_index")


def _outcome(func: str, G, **kwargs) -> tuple:
    try:
        value = getattr(nx, func)(G, **kwargs)
    except Exception as exc:  # (compared with NetworkX's: type and message)
        return "raised", type(exc), str(exc)
    if isinstance(value, list):
        return "list", value, [type(x) for x in value]
    return "value", value, type(value)


def _same(func: str, G) -> None:
    ours = _outcome(func, G, backend=BACKEND)
    assert ours == _outcome(func, G), (func, G)


def random_tree(seed: int, n: int | None = None):
    """A random tree on shuffled labels, its nodes inserted in an order unrelated to its
    structure (so the centroid nearer the first node may come later in node order)."""
    rng = random.Random(seed)
    n = rng.randint(1, 50) if n is None else n
    labels = shuffled_labels(("str", "tuple", "int", "mixed")[seed % 4], n, rng)
    T = nx.Graph()
    T.add_nodes_from(rng.sample(labels, n))
    T.add_edges_from((labels[i], labels[rng.randrange(i)]) for i in range(1, n))
    return T


@pytest.mark.parametrize("func", FUNCTIONS)
@pytest.mark.parametrize("seed", range(24))
def test_random_graphs(func, seed):
    kind = ("str", "tuple", "mixed", "int")[seed % 4]
    G = random_graph(nx, seed, directed=bool(seed % 2), kind=kind, edges_per_node=seed % 6)
    _same(func, G)


@pytest.mark.parametrize("func", FUNCTIONS)
@pytest.mark.parametrize("seed", range(40))
def test_random_trees(func, seed):
    T = random_tree(seed)
    _same(func, T)
    _same(func, nx.DiGraph(T))  # (both arcs of each edge: strongly connected, no tree path)


PATH_CENTROIDS = [("r", "a"), ("a", "b"), ("b", "x")]  # nodes listed r, b, a, x


def _two_centroids():
    G = nx.Graph()
    G.add_nodes_from(["r", "b", "a", "x"])
    G.add_edges_from(PATH_CENTROIDS)
    return G


SHAPES = {
    "null": lambda: nx.empty_graph(0),
    "dinull": lambda: nx.empty_graph(0, create_using=nx.DiGraph),
    "one": lambda: nx.empty_graph(["a"]),
    "dione": lambda: nx.empty_graph(["a"], create_using=nx.DiGraph),
    "one-loop": lambda: nx.Graph([("a", "a")]),
    "two": lambda: nx.path_graph(["b", "a"]),
    "two-isolated": lambda: nx.empty_graph(2),
    "two-centroids": _two_centroids,
    "path": lambda: nx.path_graph([5, 3, 9, 1, 0, 7]),
    "star": lambda: nx.star_graph(["h", "x", "y", "z"]),
    "forest": lambda: nx.Graph([(0, 1), (2, 3)]),
    "tree-and-loop": lambda: nx.Graph([(0, 1), (1, 2), (2, 2)]),
    "dipath": lambda: nx.path_graph(3, create_using=nx.DiGraph),
    "dicycle": lambda: nx.cycle_graph(70, create_using=nx.DiGraph),  # > 64 searches
    "complete": lambda: nx.complete_graph(6),
    "grid": lambda: nx.grid_2d_graph(7, 5),
    "barbell": lambda: nx.barbell_graph(20, 30),
}


@pytest.mark.parametrize("func", FUNCTIONS)
@pytest.mark.parametrize("shape", list(SHAPES))
def test_shapes(func, shape):
    _same(func, SHAPES[shape]())


def test_version_rules():
    """What the oracle says, spelled out: NetworkX 3.6 lists a tree's two centroids from the
    first node's side, earlier versions in node order; from 3.5 (``center``) and 3.6
    (``barycenter``) the undirected null graph raises ``is_tree``'s error."""
    version = tuple(int(x) for x in nx.__version__.split(".")[:2])
    G = _two_centroids()
    want = ["a", "b"] if version >= (3, 6) else ["b", "a"]
    assert nx.barycenter(G, backend=BACKEND) == want
    assert nx.center(G, backend=BACKEND) == ["b", "a"]
    null = nx.Graph()
    expected = nx.NetworkXPointlessConcept if version >= (3, 5) else ValueError
    with pytest.raises(expected):
        nx.center(null, backend=BACKEND)
    if version >= (3, 6):
        with pytest.raises(nx.NetworkXPointlessConcept, match="G has no nodes"):
            nx.barycenter(null, backend=BACKEND)
    else:
        assert nx.barycenter(null, backend=BACKEND) == []
    assert nx.barycenter(nx.DiGraph(), backend=BACKEND) == []
    assert nx.wiener_index(nx.DiGraph(nx.path_graph(3)), backend=BACKEND) == 8
    assert type(nx.wiener_index(nx.DiGraph(nx.path_graph(3)), backend=BACKEND)) is int
    assert nx.wiener_index(nx.path_graph(3), backend=BACKEND) == 4.0
    assert nx.wiener_index(nx.empty_graph(2), backend=BACKEND) == float("inf")


def test_disconnected_message_names_the_graph():
    G = nx.path_graph(4, create_using=nx.DiGraph)
    G.graph["name"] = "roads"
    with pytest.raises(nx.NetworkXNoPath, match="Input graph DiGraph named 'roads' with 4 "):
        nx.barycenter(G, backend=BACKEND)
    _same("barycenter", G)


def test_disconnected_message_when_the_graph_is_gone():
    """A conversion whose NetworkX graph is gone names it as NetworkX would, unnamed."""
    from warpgraph.nx.distance_measures import barycenter
    from warpgraph.nx.interface import backend_interface

    G = nx.Graph([(0, 1), (2, 3), (3, 3)])
    want = str(G)
    W = backend_interface.convert_from_nx(G)
    del G
    gc.collect()
    assert W.source is None
    with pytest.raises(nx.NetworkXNoPath, match=f"^Input graph {want} is disconnected"):
        barycenter(W)


def test_trees_take_linear_time(monkeypatch):
    """Undirected trees never search from every node; a long path gives the known values."""
    from warpgraph.nx import distance_measures

    def refused(*args, **kwargs):
        raise AssertionError("all-pairs searches on a tree")

    monkeypatch.setattr(distance_measures, "_stats", refused)
    n = 20001
    P = nx.path_graph(n)
    assert nx.center(P, backend=BACKEND) == [n // 2]
    assert nx.barycenter(P, backend=BACKEND) == [n // 2]
    assert nx.wiener_index(P, backend=BACKEND) == (n - 1) * n * (n + 1) // 6
    T = random_tree(3, 600)
    for func in FUNCTIONS:
        _same(func, T)


def test_tree_wiener_index_past_int64():
    """The tree's sum is exact where it no longer fits in 64 bits: a path of 4.2M nodes
    (searched from one end: subtree sizes n, n - 1, ..., 1) has Wiener index ~1.2e19."""
    from warpgraph.nx.distance_measures import _edge_path_sum

    n = 1 << 22
    want = (n - 1) * n * (n + 1) // 6
    assert want > np.iinfo(np.int64).max
    assert _edge_path_sum(np.arange(n, 0, -1, dtype=np.int64), n) == want


@pytest.mark.parametrize(
    ("func", "kwargs"),
    [
        ("center", {"e": {0: 1, 1: 1}}),
        ("center", {"weight": "weight"}),
        ("center", {"usebounds": True, "weight": "weight"}),
        ("barycenter", {"weight": "weight"}),
        ("barycenter", {"attr": "sum"}),
        ("barycenter", {"sp": {0: {0: 0}}}),
        ("wiener_index", {"weight": "weight"}),
    ],
)
def test_declined_arguments(func, kwargs):
    """These run in NetworkX: ``can_run`` declines them with a reason."""
    G = nx.path_graph(4)
    interface = nx.utils.backends.backends[BACKEND].load()
    reason = interface.can_run(func, (G,), kwargs)
    assert isinstance(reason, str) and "NetworkX" in reason


def test_usebounds_on_directed_graphs_runs_here():
    """NetworkX ignores ``usebounds`` on a directed graph; so does the backend."""
    D = nx.cycle_graph(9, create_using=nx.DiGraph)
    interface = nx.utils.backends.backends[BACKEND].load()
    assert interface.can_run("center", (D,), {"usebounds": True}) is True
    assert nx.center(D, usebounds=True, backend=BACKEND) == nx.center(D, usebounds=True)


@pytest.mark.gpu
def test_gpu_matches_networkx():
    graphs = [
        nx.connected_watts_strogatz_graph(3000, 6, 0.1, seed=7),
        nx.gnm_random_graph(300, 2000, seed=2, directed=True),
        random_tree(5, 5000),
        _two_centroids(),
        nx.empty_graph(2),
    ]
    with backend_device(nx, "gpu"):
        for G in graphs:
            for func in FUNCTIONS:
                _same(func, G)
