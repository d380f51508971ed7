"""warpgraph.stats against NetworkX / SciPy oracles."""

from __future__ import annotations

import networkx as nx
import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

import warpgraph as wg
from warpgraph.stats import approximate_diameter, degree_gini


def _gini_bruteforce(d):
    d = np.asarray(d, dtype=float)
    if d.sum() == 0:
        return 0.0
    return np.abs(d[:, None] - d[None, :]).sum() / (2 * len(d) ** 2 * d.mean())


@given(st.lists(st.integers(0, 50), min_size=1, max_size=40))
def test_gini_matches_mean_difference_definition(deg):
    assert degree_gini(np.array(deg)) == pytest.approx(_gini_bruteforce(deg), abs=1e-12)


@given(st.integers(2, 30), st.integers(0, 60), st.integers(0, 2**32 - 1), st.booleans())
def test_stats_match_networkx(n, m, seed, directed):
    rng = np.random.default_rng(seed)
    src, dst = rng.integers(0, n, m), rng.integers(0, n, m)
    G = wg.Graph.from_edges(src, dst, num_vertices=n, directed=directed, merge="first")
    H = G.to_networkx()
    s = wg.stats(G)
    out = np.array([d for _, d in (H.out_degree() if directed else H.degree())])
    if not directed:  # NetworkX counts a self-loop twice in degree; CSR stores it once
        out = out - np.array([1 if H.has_edge(v, v) else 0 for v in H])
    assert s["n"] == n and s["m"] == H.number_of_edges()
    assert s["max_degree"] == out.max() and s["avg_degree"] == pytest.approx(out.mean())
    assert s["gini"] == pytest.approx(_gini_bruteforce(out), abs=1e-12)
    assert s["self_loops"] == nx.number_of_selfloops(H)
    assert s["isolated"] == sum(1 for v in H if H.degree(v) == 0)
    wcc = list(nx.weakly_connected_components(H) if directed else nx.connected_components(H))
    assert s["weak_components"] == len(wcc)
    assert s["largest_component"] == max(len(c) for c in wcc)
    # the estimate is a real eccentricity, so it never exceeds the longest shortest path
    longest = max(
        (max(lengths.values()) for _, lengths in nx.all_pairs_shortest_path_length(H)), default=0
    )
    assert 0 <= s["diameter_estimate"] <= longest


def test_diameter_exact_on_path_and_grid():
    P = wg.Graph.from_networkx(nx.path_graph(50))
    assert approximate_diameter(P, start=17) == 49
    grid = wg.Graph.from_networkx(nx.grid_2d_graph(8, 5))
    assert wg.stats(grid)["diameter_estimate"] == 11


def test_empty_graph_stats():
    s = wg.stats(wg.Graph.from_edges([], [], num_vertices=0))
    assert s["n"] == 0 and s["weak_components"] == 0 and s["diameter_estimate"] == 0


@pytest.mark.gpu
def test_gpu_stats_equal_cpu():
    rng = np.random.default_rng(3)
    src, dst = rng.integers(0, 2000, 8000), rng.integers(0, 2000, 8000)
    for directed in (False, True):
        G = wg.Graph.from_edges(src, dst, num_vertices=2100, directed=directed)
        c, g = wg.stats(G), wg.stats(G.to("gpu"))
        for key in c:
            assert g[key] == pytest.approx(c[key]), key


def test_zero_weight_edges_still_connect():
    # SciPy's csgraph drops explicit zeros of a weighted matrix; stats must look at structure.
    G = wg.Graph.from_edges([0, 1], [1, 2], weights=[0.0, 0.0], directed=False)
    s = wg.stats(G)
    assert s["weak_components"] == 1 and s["diameter_estimate"] == 2
