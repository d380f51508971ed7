"""triadic_census against NetworkX and brute force, both methods, both backends (the GPU runs
skip without a GPU); exact integers beyond 64 bits."""

from __future__ import annotations

from math import comb

import networkx as nx
import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

import warpgraph as wg
from warpgraph.algorithms.triads import TRIAD_NAMES, triadic_census
from warpgraph.algorithms.triads.reference import triadic_census_reference
from warpgraph.algorithms.triads.table import TRIAD_TABLE
from warpgraph.algorithms.triads.verify import verify_census
from warpgraph.errors import InvalidArgumentError, VerificationError

DEVICES = ["cpu", pytest.param("gpu", marks=pytest.mark.gpu)]
METHODS = ["triangles", "dyads"]


@st.composite
def arc_lists(draw, max_n: int = 12, max_m: int = 60):
    """(n, src, dst): self-loops and repeated arcs included on purpose."""
    n = draw(st.integers(0, max_n))
    if n == 0:
        return 0, np.zeros(0, np.int64), np.zeros(0, np.int64)
    m = draw(st.integers(0, max_m))
    ids = st.lists(st.integers(0, n - 1), min_size=m, max_size=m)
    return n, np.array(draw(ids), np.int64), np.array(draw(ids), np.int64)


def dyad_counts(src, dst):
    arcs = {(int(u), int(v)) for u, v in zip(src, dst, strict=True) if u != v}
    connected = {(min(u, v), max(u, v)) for u, v in arcs}
    mutual = {(u, v) for u, v in arcs if u < v and (v, u) in arcs}
    return len(connected), len(mutual)


@pytest.mark.parametrize("device", DEVICES)
@pytest.mark.parametrize("method", METHODS)
@given(case=arc_lists())
def test_matches_networkx_and_brute_force(device, method, case):
    n, src, dst = case
    G = wg.Graph.from_edges(src, dst, num_vertices=n, directed=True)
    census = triadic_census(G, method=method, device=device)
    assert census == triadic_census_reference(n, src, dst)
    H = nx.DiGraph()
    H.add_nodes_from(range(n))
    H.add_edges_from((u, v) for u, v in zip(src.tolist(), dst.tolist(), strict=True) if u != v)
    assert census == nx.triadic_census(H)
    assert sum(census.values()) == comb(n, 3)
    verify_census(census, n, *dyad_counts(src, dst))


@pytest.mark.parametrize("device", DEVICES)
def test_methods_agree_on_skewed_graph(device):
    s, d = wg.generators.kronecker_edges(10, 8, seed=6, device="cpu")
    G = wg.Graph.from_edges(s, d, directed=True)
    a = triadic_census(G, method="triangles", device=device)
    b = triadic_census(G, method="dyads", device=device)
    assert a == b
    verify_census(a, G.num_vertices, *dyad_counts(s, d))
    H = nx.DiGraph()
    H.add_nodes_from(range(G.num_vertices))
    H.add_edges_from((u, v) for u, v in zip(s.tolist(), d.tolist(), strict=True) if u != v)
    assert a == nx.triadic_census(H)


@pytest.mark.parametrize("device", DEVICES)
def test_undirected_counts_as_mutual(device):
    rng = np.random.default_rng(1)
    s, d = rng.integers(0, 30, 120), rng.integers(0, 30, 120)
    U = wg.Graph.from_edges(s, d, num_vertices=30, directed=False)
    D = wg.Graph.from_edges(np.r_[s, d], np.r_[d, s], num_vertices=30, directed=True)
    got = triadic_census(U, device=device)
    assert got == triadic_census(D, device=device)
    assert got["012"] == got["021D"] == got["030T"] == 0


@pytest.mark.parametrize("method", METHODS)
def test_003_beyond_64_bits(method):
    n = 5_000_000  # C(n, 3) > 2**64
    G = wg.Graph.from_edges([0, 1], [1, 0], num_vertices=n, directed=True)
    census = triadic_census(G, method=method, device="cpu")
    assert census["102"] == n - 2
    assert census["003"] == comb(n, 3) - (n - 2)
    assert census["003"] > 2**64
    assert sum(census.values()) == comb(n, 3)


def test_table_matches_networkx():
    from networkx.algorithms.triads import TRICODES

    assert [int(t) + 1 for t in TRIAD_TABLE] == list(TRICODES)
    assert TRIAD_NAMES == tuple(nx.algorithms.triads.TRIAD_NAMES)


def test_bad_input():
    G = wg.Graph.from_edges([0], [1])
    with pytest.raises(InvalidArgumentError, match="method must be one of"):
        triadic_census(G, method="moody", device="cpu")
    with pytest.raises(InvalidArgumentError, match=r"warpgraph\.Graph"):
        triadic_census(nx.DiGraph(), device="cpu")


def test_verifier_catches_errors():
    G = wg.Graph.from_edges([0, 1], [1, 2], num_vertices=4)
    c = triadic_census(G, device="cpu")
    verify_census(c, 4, 2, 0)
    with pytest.raises(VerificationError, match="rule 2"):
        verify_census({**c, "003": c["003"] + 1}, 4, 2, 0)
    with pytest.raises(VerificationError, match="rule 3"):
        verify_census({**c, "012": c["012"] - 1, "102": c["102"] + 1}, 4, 2, 0)
    with pytest.raises(VerificationError, match="rule 1"):
        verify_census(dict(reversed(list(c.items()))), 4, 2, 0)
