"""NetworkX backend: ``nx.harmonic_centrality(G, backend="warpgraph")`` against plain NetworkX
(the oracle): the same keys in the same order (its ``nbunch`` set's), equal values bit for bit
(each added in NetworkX's order: its sources set's, or, in NetworkX 3.6 with fewer reported
nodes than sources, nearest source first), NetworkX's ``int`` 0 for a node no source reaches,
the same exceptions; on random directed and undirected graphs with self-loops, isolated nodes
and int, string, tuple and mixed labels. Weighted calls and one-pass iterators run in NetworkX
(``can_run``); the swapped roles before NetworkX 3.6 raise ``NotImplementedError``."""

from __future__ import annotations

import random

import pytest

nx = pytest.importorskip("networkx")

from nx_compare import assert_dict_as_networkx  # noqa: E402  (tests/nx_compare.py)
from nx_labels import random_graph  # noqa: E402  (tests/nx_labels.py)
from warpgraph.nx._common import networkx_version  # noqa: E402
from warpgraph.nx.interface import backend_interface  # noqa: E402

BACKEND = "warpgraph"
if BACKEND not in nx.utils.backends.backends:
    pytest.skip("warpgraph is not registered as a NetworkX backend", allow_module_level=True)

KINDS = ["int", "str", "tuple", "mixed"]


def _subsets(G, seed: int) -> list[dict]:
    """Argument sets: every node; some sources; a bigger nbunch than sources (absent nodes
    among them, silently dropped); one node as nbunch (fewer reported than sources)."""
    rng = random.Random(seed)
    nodes = list(G)
    some = rng.sample(nodes, len(nodes) // 2)
    cases = [{}, {"sources": some}, {"nbunch": nodes, "sources": [*some[:3], "absent"]}]
    if networkx_version() >= (3, 6) and nodes:
        cases += [{"nbunch": nodes[0]}, {"nbunch": some[:2], "sources": nodes}]
    return cases


@pytest.mark.parametrize("directed", [False, True])
@pytest.mark.parametrize("kind", KINDS)
@pytest.mark.parametrize("seed", range(12))
def test_same_as_networkx(seed, kind, directed):
    G = random_graph(nx, seed, directed=directed, kind=kind, n=random.Random(seed).randint(1, 90))
    for kwargs in _subsets(G, seed):
        assert_dict_as_networkx(nx.harmonic_centrality, G, **kwargs)


def test_bits_follow_networkx_order():
    """A graph whose sums depend on the order of their terms: NetworkX's order is met bit for
    bit, where a sum in node order would differ (checked on the same terms)."""
    G = nx.convert_node_labels_to_integers(nx.gnp_random_graph(250, 0.02, seed=4))
    G = nx.relabel_nodes(G, {i: f"node{i}" for i in G})  # (str: the set order is not node order)
    theirs = nx.harmonic_centrality(G)
    ours = nx.harmonic_centrality(G, backend=BACKEND)
    assert list(ours.items()) == list(theirs.items())
    lengths = dict(nx.all_pairs_shortest_path_length(G))
    node_order = {}
    for u in G:
        acc = 0
        for v in G:  # (node order, not the set's)
            d = lengths[v].get(u, 0)
            if d:
                acc += 1 / d
        node_order[u] = acc
    assert any(node_order[u] != theirs[u] for u in G)


def test_unreached_nodes_keep_int_zero():
    G = nx.DiGraph([(0, 1), (1, 2)])
    G.add_node(3)
    ours = nx.harmonic_centrality(G, backend=BACKEND)
    assert ours == {0: 0, 1: 1.0, 2: 1.5, 3: 0}
    assert type(ours[0]) is int and type(ours[3]) is int


def _swapped(G, nbunch, sources) -> bool:
    """Whether NetworkX swaps the roles (fewer reported nodes than sources)."""

    def size(bunch):
        return len(G) if bunch is None else len(set(G.nbunch_iter(bunch)))

    try:
        return size(nbunch) < size(sources)
    except nx.NetworkXError:
        return False


@pytest.mark.parametrize("nbunch", [3.5, [[1]], 7, [1, "absent"], (), "01"])
def test_nbunch_errors_and_filtering(nbunch):
    G = nx.path_graph(5)
    for sources in (None, nbunch):
        if networkx_version() < (3, 6) and _swapped(G, nbunch, sources):
            with pytest.raises(NotImplementedError):
                nx.harmonic_centrality(G, nbunch=nbunch, sources=sources, backend=BACKEND)
            continue
        assert_dict_as_networkx(nx.harmonic_centrality, G, nbunch=nbunch, sources=sources)


def test_null_graph():
    assert nx.harmonic_centrality(nx.Graph(), backend=BACKEND) == {}


def test_declined_arguments_run_in_networkx():
    G = nx.path_graph(6)
    for kwargs in ({"distance": "weight"}, {"nbunch": iter([1, 2])}, {"sources": iter([0])}):
        reason = backend_interface.can_run("harmonic_centrality", (G,), kwargs)
        assert isinstance(reason, str) and reason, kwargs
    assert backend_interface.can_run("harmonic_centrality", (G,), {"sources": [0, 1]}) is True
    if networkx_version() < (3, 6):
        with pytest.raises(NotImplementedError):
            nx.harmonic_centrality(G, nbunch=[0], backend=BACKEND)


@pytest.mark.gpu
@pytest.mark.parametrize("directed", [False, True])
def test_gpu_same_as_networkx(directed):
    """With the backend on the GPU: the same keys, order and bits (the sums added on the GPU in
    NetworkX's order), every argument set of the CPU test, on graphs past one group of 64."""
    from nx_compare import backend_device

    with backend_device(nx, "gpu"):
        for seed, kind in enumerate(KINDS):
            n = random.Random(seed).randint(70, 200)
            G = random_graph(nx, seed, directed=directed, kind=kind, n=n)
            for kwargs in _subsets(G, seed):
                assert_dict_as_networkx(nx.harmonic_centrality, G, **kwargs)
