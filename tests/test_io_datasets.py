"""The small real graphs shipped in warpgraph/data load with the right content (NetworkX oracle)."""

from __future__ import annotations

import networkx as nx
import numpy as np
import pytest

from warpgraph.errors import InvalidArgumentError
from warpgraph.io import datasets


def edge_multiset(G):
    src, dst, w = G.edges()
    w = np.ones(src.shape[0], dtype=np.int64) if w is None else w
    return sorted(zip(src.tolist(), dst.tolist(), w.tolist(), strict=True))


def nx_edge_multiset(H, nodes):
    index = {v: i for i, v in enumerate(nodes)}
    out = []
    for u, v, w in H.edges(data="weight", default=1):
        a, b = sorted((index[u], index[v]))
        out.append((a, b, w))
    return sorted(out)


@pytest.mark.parametrize(
    ("name", "make"),
    [
        ("karate", nx.karate_club_graph),
        ("lesmis", nx.les_miserables_graph),
        ("florentine", nx.florentine_families_graph),
        ("davis", nx.davis_southern_women_graph),
    ],
)
def test_example_matches_networkx(name, make):
    G = datasets.load_example(name)
    H = make()
    assert not G.is_directed()
    assert G.num_vertices == H.number_of_nodes() == datasets.EXAMPLES[name]["vertices"]
    assert G.num_edges == H.number_of_edges() == datasets.EXAMPLES[name]["edges"]
    if name == "davis":
        nodes = H.graph["top"] + H.graph["bottom"]
    else:
        nodes = list(H.nodes)
    assert edge_multiset(G) == nx_edge_multiset(H, nodes)
    if name in ("lesmis", "florentine"):
        assert G.vertex_labels == nodes


def test_list_and_errors():
    assert datasets.list_examples() == ["davis", "florentine", "karate", "lesmis"]
    for name in datasets.list_examples():
        assert datasets.example_path(name).is_file()
    with pytest.raises(InvalidArgumentError, match="unknown example graph 'nope'; known: davis"):
        datasets.load_example("nope")


def test_load_example_passes_options():
    G = datasets.load_example("karate", weighted=False, directed=True)
    assert G.weights is None and G.is_directed() and G.num_edges == 156
