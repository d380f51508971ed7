"""The GPU's sparse iBFS levels (``kernels/ibfs_steps.cuh``'s frontier lists) against the CPU.

A persistent search keeps each group's frontier as a list while every list is short; a level
then expands and settles only the listed words, a dense level every word (and lists the new
words again). These tests turn the lists on for small graphs (``SPARSE_MIN_STRIDE``) and move
the switch between sparse and dense levels (``SPARSE_SHARE``: 1 lists every level, 64 only thin
frontiers, 0 none) on graphs whose frontiers are thin (a lattice, a path), bulge (a random
graph) or both (a random graph with a long path attached), undirected and directed, from every
vertex and from repeated sources, in one batch or many. Every function of the iBFS groups is
checked: ``distance_stats``, global efficiency's level counts and harmonic centrality's level
tables and by-distance counts; each must equal the CPU's exactly (the bits, for the sums).
"""

from __future__ import annotations

import numpy as np
import pytest

import warpgraph as wg
from warpgraph.algorithms.bfs import distance_stats
from warpgraph.algorithms.bfs.efficiency import efficiency_sum
from warpgraph.algorithms.centrality.harmonic import harmonic_centrality

pytestmark = pytest.mark.gpu


def _lattice(side: int) -> wg.Graph:
    v = np.arange(side * side).reshape(side, side)
    src = np.r_[v[:, :-1].ravel(), v[:-1, :].ravel()]
    dst = np.r_[v[:, 1:].ravel(), v[1:, :].ravel()]
    return wg.Graph.from_edges(src, dst, num_vertices=side * side, directed=False)


def _random_with_tail(n: int, tail: int, directed: bool, seed: int) -> wg.Graph:
    """A random graph of ``n`` vertices (average degree 6) with a path of ``tail`` vertices
    hanging from its last vertex and 3 isolated vertices: wide levels, then hundreds of thin
    ones."""
    rng = np.random.default_rng(seed)
    src, dst = rng.integers(0, n, 3 * n), rng.integers(0, n, 3 * n)
    path = np.arange(n - 1, n + tail)  # (vertex n - 1, then the tail's vertices)
    src, dst = np.r_[src, path[:-1]], np.r_[dst, path[1:]]
    return wg.Graph.from_edges(src, dst, num_vertices=n + tail + 3, directed=directed)


GRAPHS = {
    "lattice": lambda: _lattice(40),
    "path": lambda: wg.Graph.from_edges(np.arange(1499), np.arange(1, 1500), num_vertices=1500),
    "random": lambda: _random_with_tail(1200, 0, False, 1),
    "random+tail": lambda: _random_with_tail(900, 400, False, 2),
    "directed+tail": lambda: _random_with_tail(900, 400, True, 3),
}


@pytest.fixture(params=[1, 64, 0], ids=["every-level-listed", "thin-levels-listed", "no-lists"])
def sparse_share(request, monkeypatch):
    from warpgraph.algorithms.bfs import multi_source

    monkeypatch.setattr(multi_source, "SPARSE_MIN_STRIDE", 32)
    monkeypatch.setattr(multi_source, "SPARSE_SHARE", request.param)
    return request.param


def _batches(monkeypatch, many: bool) -> None:
    """One group a batch (many batches, launched level by level until one went deep, then
    persistent) or the default batches (one persistent kernel here: small)."""
    from warpgraph.algorithms.bfs import multi_source
    from warpgraph.algorithms.centrality import harmonic_gpu

    if many:
        monkeypatch.setattr(multi_source, "GPU_BATCH_BYTES", 1)
        monkeypatch.setattr(multi_source, "PERSISTENT_WORDS", 0)
        monkeypatch.setattr(multi_source, "DEEP_LEVELS", 100)
        monkeypatch.setattr(harmonic_gpu, "GPU_LEVEL_BYTES", 1)


@pytest.mark.parametrize("many", [False, True], ids=["one-batch", "one-group-batches"])
@pytest.mark.parametrize("name", sorted(GRAPHS))
def test_distance_stats_equal_the_cpu(sparse_share, monkeypatch, name, many):
    _batches(monkeypatch, many)
    G = GRAPHS[name]()
    rng = np.random.default_rng(5)
    for sources in (None, rng.integers(0, G.num_vertices, 200), np.zeros(70, dtype=np.int64)):
        cpu = distance_stats(G, sources, device="cpu")
        gpu = distance_stats(G.to("gpu"), sources, device="gpu")
        for field, c, g in zip(cpu._fields, cpu, gpu, strict=True):
            assert np.array_equal(c, g.get()), (name, field)


@pytest.mark.parametrize("many", [False, True], ids=["one-batch", "one-group-batches"])
@pytest.mark.parametrize("name", sorted(GRAPHS))
def test_efficiency_equals_the_cpu(sparse_share, monkeypatch, name, many):
    _batches(monkeypatch, many)
    G = GRAPHS[name]()
    assert efficiency_sum(G.to("gpu"), device="gpu") == efficiency_sum(G, device="cpu")


@pytest.mark.parametrize("many", [False, True], ids=["one-batch", "one-group-batches"])
@pytest.mark.parametrize("order", ["given", "distance"])
@pytest.mark.parametrize("name", ["lattice", "random+tail", "directed+tail"])
def test_harmonic_equals_the_cpu(sparse_share, monkeypatch, name, order, many):
    _batches(monkeypatch, many)
    G = GRAPHS[name]()
    rng = np.random.default_rng(7)
    n = G.num_vertices
    for sources, targets in ((None, None), (rng.integers(0, n, 150), None), (None, [0, 5, n - 1])):
        want = harmonic_centrality(G, sources, targets, order=order, device="cpu")
        got = harmonic_centrality(G.to("gpu"), sources, targets, order=order, device="gpu")
        assert got.get().tolist() == want.tolist(), (name, order)


def test_lists_follow_the_batch(monkeypatch):
    """The lists' limit: a share of the group's words, none for small groups or many groups;
    a batch runs persistent when small, first, or after a deep batch."""
    from warpgraph.algorithms.bfs import multi_source
    from warpgraph.algorithms.bfs.multi_source import GpuGroups

    G = _lattice(64).to("gpu")  # (4,096 words a group)
    searches = GpuGroups(G, 4, multi_source.SOURCE)
    assert searches.list_limit(4) == 4096 // multi_source.SPARSE_SHARE
    assert searches.list_limit(multi_source.SPARSE_MAX_GROUPS + 1) == 0
    monkeypatch.setattr(multi_source, "SPARSE_MIN_STRIDE", 8192)
    assert searches.list_limit(4) == 0
    big = multi_source.PERSISTENT_WORDS + 1
    assert not searches.persistent(big)  # (the first batch: depth 0)
    searches.depth = multi_source.DEEP_LEVELS - 1
    assert not searches.persistent(big) and searches.persistent(multi_source.PERSISTENT_WORDS)
    searches.depth = multi_source.DEEP_LEVELS
    assert searches.persistent(big)
