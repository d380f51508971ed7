"""Harmonic centrality (``warpgraph.algorithms.centrality.harmonic_centrality``) against an
independent oracle: SciPy's breadth-first distances, summed by a plain Python loop in the same
order, so the values must be equal bit for bit; and the verifier, which must accept them and
reject a changed one."""

from __future__ import annotations

import numpy as np
import pytest
import scipy.sparse as sps
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy.sparse.csgraph import shortest_path

import warpgraph as wg
from warpgraph.algorithms.centrality import harmonic_centrality
from warpgraph.algorithms.centrality.verify_harmonic import verify_harmonic_centrality
from warpgraph.errors import InvalidArgumentError, VerificationError


def oracle(n, src, dst, directed, sources, targets, by_distance=False):
    """Sequential sums of 1/d(v, u) from SciPy's distances (v over ``sources`` in order)."""
    A = sps.coo_array((np.ones(len(src)), (src, dst)), shape=(n, n)).tocsr()
    D = shortest_path(A, directed=directed, unweighted=True) if n else np.zeros((0, 0))
    out = []
    for u in targets:
        terms = [int(D[v, u]) for v in sources if 0 < D[v, u] < np.inf]
        if by_distance:
            terms.sort()
        acc = 0.0
        for t in terms:
            acc += 1 / t
        out.append(acc)
    return out


@st.composite
def cases(draw, max_n: int = 40, max_m: int = 120):
    """A graph (self-loops, parallel arcs, isolated vertices), sources with repeats, targets."""
    n = draw(st.integers(1, max_n))
    m = draw(st.integers(0, max_m))
    src = draw(st.lists(st.integers(0, n - 1), min_size=m, max_size=m))
    dst = draw(st.lists(st.integers(0, n - 1), min_size=m, max_size=m))
    directed = draw(st.booleans())
    sources = draw(st.lists(st.integers(0, n - 1), min_size=1, max_size=2 * n))
    targets = draw(st.lists(st.integers(0, n - 1), min_size=1, max_size=2 * n))
    return n, src, dst, directed, sources, targets


@settings(max_examples=60, deadline=None)
@given(cases(), st.sampled_from(["given", "distance"]))
def test_equals_sequential_sums(case, order):
    n, src, dst, directed, sources, targets = case
    G = wg.Graph.from_edges(src, dst, num_vertices=n, directed=directed)
    got = harmonic_centrality(G, sources, targets, order=order)
    assert got.tolist() == oracle(n, src, dst, directed, sources, targets, order == "distance")
    verify_harmonic_centrality(G, got, sources, targets, order=order)


@pytest.mark.parametrize("directed", [False, True])
def test_more_targets_than_one_group(directed):
    """200 targets: four groups of 64, split among the threads; default sources and targets."""
    rng = np.random.default_rng(7)
    n, m = 200, 700
    src, dst = rng.integers(0, n, m), rng.integers(0, n, m)
    G = wg.Graph.from_edges(src, dst, num_vertices=n, directed=directed)
    got = harmonic_centrality(G)
    assert got.tolist() == oracle(n, src, dst, directed, range(n), range(n))
    verify_harmonic_centrality(G, got, samples=200)


def test_order_changes_the_bits():
    """The two orders add the same terms; on this graph their sums differ in the last bit, so
    each test above checks the order, not just the terms."""
    rng = np.random.default_rng(1)
    n, m = 300, 900
    src, dst = rng.integers(0, n, m), rng.integers(0, n, m)
    G = wg.Graph.from_edges(src, dst, num_vertices=n, directed=False)
    order = rng.permutation(n)
    given_order = harmonic_centrality(G, order)
    by_distance = harmonic_centrality(G, order, order="distance")
    assert np.allclose(given_order, by_distance, rtol=1e-14)
    assert (given_order != by_distance).any()


@pytest.mark.parametrize("directed", [False, True])
def test_searches_from_fewer_sources(directed):
    """Fewer sources than targets: searches from the sources, in waves of groups (one per
    thread), each target adding wave after wave; 300 sources (five groups, the last short)."""
    rng = np.random.default_rng(11)
    n, m = 400, 1500
    src, dst = rng.integers(0, n, m), rng.integers(0, n, m)
    G = wg.Graph.from_edges(src, dst, num_vertices=n, directed=directed)
    sources = rng.permutation(n)[:300]
    got = harmonic_centrality(G, sources)
    assert got.tolist() == oracle(n, src, dst, directed, sources, range(n))
    verify_harmonic_centrality(G, got, sources, samples=50)


def test_levels_past_16_bits():
    """A directed path of 70,000 vertices: levels past 65,535 take the 32-bit level table,
    searching from the targets (all sources) and from the sources (one source)."""
    n = 70_000
    P = wg.Graph.from_edges(np.arange(n - 1), np.arange(1, n), num_vertices=n)
    got = harmonic_centrality(P, targets=[n - 1, 3])
    expected = 0.0
    for v in range(n - 1):
        expected += 1 / (n - 1 - v)
    assert got.tolist() == [expected, 1 / 3 + 1 / 2 + 1]
    forward = harmonic_centrality(P, sources=[0])
    assert forward[[0, 1, 4, n - 1]].tolist() == [0.0, 1.0, 1 / 4, 1 / (n - 1)]


def test_verifier_rejects_a_changed_value():
    G = wg.Graph.from_edges([0, 1, 2, 3], [1, 2, 3, 0], num_vertices=5, directed=False)
    x = harmonic_centrality(G)
    verify_harmonic_centrality(G, x)
    bad = x.copy()
    bad[2] = np.nextafter(bad[2], 10.0)  # (one bit off)
    with pytest.raises(VerificationError, match="target 2"):
        verify_harmonic_centrality(G, bad, samples=5)
    with pytest.raises(VerificationError, match="outside"):
        verify_harmonic_centrality(G, -x)
    with pytest.raises(VerificationError, match="float64"):
        verify_harmonic_centrality(G, x[:3])
    with pytest.raises(InvalidArgumentError, match="order"):
        verify_harmonic_centrality(G, x, order="nearest")


def test_empty_and_bad_arguments():
    G = wg.Graph.from_edges([0], [1], num_vertices=3)
    assert harmonic_centrality(G, sources=[]).tolist() == [0.0, 0.0, 0.0]
    assert harmonic_centrality(G, targets=[]).tolist() == []
    with pytest.raises(InvalidArgumentError, match="outside"):
        harmonic_centrality(G, sources=[3])
    with pytest.raises(InvalidArgumentError, match=r"integer|1-D"):
        harmonic_centrality(G, targets=[0.5])
    with pytest.raises(InvalidArgumentError, match="order"):
        harmonic_centrality(G, order="nearest")
    with pytest.raises(InvalidArgumentError, match="Graph"):
        harmonic_centrality([[0, 1]])
