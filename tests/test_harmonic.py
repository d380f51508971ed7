"""Harmonic centrality (``warpgraph.algorithms.centrality.harmonic_centrality``) against an
independent oracle: SciPy's breadth-first distances, summed by a plain Python loop in the same
order, so the values must be equal bit for bit, on the CPU and on the GPU (the ``device``
fixture; GPU cases marked ``gpu``); and the verifier, which must accept them and reject a
changed one."""

from __future__ import annotations

import numpy as np
import pytest
import scipy.sparse as sps
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy.sparse.csgraph import shortest_path

import warpgraph as wg
from warpgraph._arrays import to_host
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


def _check_sequential_sums(case, order, device):
    n, src, dst, directed, sources, targets = case
    G = wg.Graph.from_edges(src, dst, num_vertices=n, directed=directed)
    got = to_host(harmonic_centrality(G, sources, targets, order=order, device=device))
    assert got.tolist() == oracle(n, src, dst, directed, sources, targets, order == "distance")
    verify_harmonic_centrality(G, got, sources, targets, order=order)


@settings(max_examples=60, deadline=None)
@given(cases(), st.sampled_from(["given", "distance"]))
def test_equals_sequential_sums(case, order):
    _check_sequential_sums(case, order, "cpu")


@pytest.mark.gpu
@settings(max_examples=60, deadline=None)
@given(cases(), st.sampled_from(["given", "distance"]))
def test_gpu_equals_sequential_sums(case, order):
    """The GPU's three ways (from the sources, from the targets, by distance) on the same
    cases: sources repeated, more or fewer than the targets."""
    _check_sequential_sums(case, order, "gpu")


@pytest.mark.parametrize("directed", [False, True])
def test_more_targets_than_one_group(directed, device):
    """200 targets: four groups of 64, split among the threads; default sources and targets."""
    rng = np.random.default_rng(7)
    n, m = 200, 700
    src, dst = rng.integers(0, n, m), rng.integers(0, n, m)
    G = wg.Graph.from_edges(src, dst, num_vertices=n, directed=directed)
    got = to_host(harmonic_centrality(G, device=device))
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
    given_order = harmonic_centrality(G, order, device="cpu")
    by_distance = harmonic_centrality(G, order, order="distance", device="cpu")
    assert np.allclose(given_order, by_distance, rtol=1e-14)
    assert (given_order != by_distance).any()


@pytest.mark.parametrize("directed", [False, True])
def test_searches_from_fewer_sources(directed, device):
    """Fewer sources than targets: searches from the sources, in waves of groups (one per
    thread), each target adding wave after wave; 300 sources (five groups, the last short)."""
    rng = np.random.default_rng(11)
    n, m = 400, 1500
    src, dst = rng.integers(0, n, m), rng.integers(0, n, m)
    G = wg.Graph.from_edges(src, dst, num_vertices=n, directed=directed)
    sources = rng.permutation(n)[:300]
    got = to_host(harmonic_centrality(G, sources, device=device))
    assert got.tolist() == oracle(n, src, dst, directed, sources, range(n))
    verify_harmonic_centrality(G, got, sources, samples=50)


def test_levels_past_16_bits(device):
    """A directed path of 70,000 vertices: levels past 65,535 take the 32-bit level table,
    searching from the targets (all sources) and from the sources (one source)."""
    n = 70_000
    P = wg.Graph.from_edges(np.arange(n - 1), np.arange(1, n), num_vertices=n)
    got = to_host(harmonic_centrality(P, targets=[n - 1, 3], device=device))
    expected = 0.0
    for v in range(n - 1):
        expected += 1 / (n - 1 - v)
    assert got.tolist() == [expected, 1 / 3 + 1 / 2 + 1]
    forward = to_host(harmonic_centrality(P, sources=[0], device=device))
    assert forward[[0, 1, 4, n - 1]].tolist() == [0.0, 1.0, 1 / 4, 1 / (n - 1)]


def test_verifier_rejects_a_changed_value():
    G = wg.Graph.from_edges([0, 1, 2, 3], [1, 2, 3, 0], num_vertices=5, directed=False)
    x = harmonic_centrality(G, device="cpu")
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


def test_empty_and_bad_arguments(device):
    G = wg.Graph.from_edges([0], [1], num_vertices=3)
    assert harmonic_centrality(G, sources=[], device=device).tolist() == [0.0, 0.0, 0.0]
    assert harmonic_centrality(G, targets=[], device=device).tolist() == []
    with pytest.raises(InvalidArgumentError, match="outside"):
        harmonic_centrality(G, sources=[3])
    with pytest.raises(InvalidArgumentError, match=r"integer|1-D"):
        harmonic_centrality(G, targets=[0.5])
    with pytest.raises(InvalidArgumentError, match="order"):
        harmonic_centrality(G, order="nearest")
    with pytest.raises(InvalidArgumentError, match="Graph"):
        harmonic_centrality([[0, 1]])
    with pytest.raises(InvalidArgumentError, match="device"):
        harmonic_centrality(G, device="tpu")


@pytest.mark.gpu
@pytest.mark.parametrize("persistent_words", [0, 1 << 22])
@pytest.mark.parametrize(
    ("order", "warp_sums_below"), [("given", 0), ("given", 1 << 15), ("distance", 0)]
)
def test_gpu_batches_of_one_group(monkeypatch, order, warp_sums_below, persistent_words):
    """Memory for one group at a time: many batches in every direction (the sums carried from
    batch to batch from the sources, each batch's targets written at their place otherwise),
    the same bits as the CPU, with the sums from the targets a thread or a warp per search (1,100
    sources: two of the warp's chunks); the searches launched level by level or persistent;
    the result stays on the GPU."""
    from warpgraph.algorithms.bfs import multi_source
    from warpgraph.algorithms.centrality import harmonic_gpu

    monkeypatch.setattr(multi_source, "PERSISTENT_WORDS", persistent_words)
    monkeypatch.setattr(harmonic_gpu, "WARP_SUMS_BELOW", warp_sums_below)
    monkeypatch.setattr(harmonic_gpu, "GPU_LEVEL_BYTES", 1)
    monkeypatch.setattr(harmonic_gpu, "BACKWARD_LEVEL_BYTES", 1)
    monkeypatch.setattr(harmonic_gpu, "_backward_budget", lambda: 1)
    rng = np.random.default_rng(3)
    n, m = 500, 2000
    src, dst = rng.integers(0, n, m), rng.integers(0, n, m)
    for directed in (False, True):
        G = wg.Graph.from_edges(src, dst, num_vertices=n, directed=directed)
        twice = np.r_[np.arange(n), np.arange(n), np.arange(100)]  # (repeated sources)
        calls = [(rng.permutation(n)[:300], None), (None, rng.integers(0, n, 200)), (twice, [7])]
        for sources, targets in calls:
            got = harmonic_centrality(G, sources, targets, order=order, device="gpu")
            assert type(got).__module__.startswith("cupy")
            want = harmonic_centrality(G, sources, targets, order=order, device="cpu")
            assert got.get().tolist() == want.tolist()


@pytest.mark.gpu
def test_gpu_out_of_memory_is_clear(monkeypatch):
    """One group that does not fit the free device memory: OutOfDeviceMemory naming it, in
    each direction."""
    from gpu_memory import no_free_device_memory  # (tests/gpu_memory.py)
    from warpgraph.errors import OutOfDeviceMemory

    G = wg.Graph.from_edges([0, 1], [1, 2], num_vertices=3).to("gpu")
    no_free_device_memory(monkeypatch)
    cases = [([0], None, "given"), (None, [1], "given"), (None, [1], "distance")]
    for sources, targets, order in cases:  # (from the sources, from the targets, by distance)
        with pytest.raises(OutOfDeviceMemory, match="harmonic centrality's"):
            harmonic_centrality(G, sources, targets, order=order, device="gpu")
