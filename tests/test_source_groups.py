"""Sources grouped by neighbourhood (``warpgraph.algorithms.bfs.source_groups``) for the iBFS
groups of ``distance_stats`` and of harmonic centrality's target searches: a permutation of the
sources, groups that are small balls on a lattice, and results that do not depend on the
grouping (the grouped and the given orders against each other, and against SciPy's distances:
the statistics summed, the harmonic sums added one source after another)."""

from __future__ import annotations

import numpy as np
import pytest
from scipy.sparse import csr_matrix
from scipy.sparse.csgraph import shortest_path

import warpgraph as wg
from warpgraph.algorithms.bfs import distance_stats, multi_source
from warpgraph.algorithms.bfs.efficiency import efficiency_sum
from warpgraph.algorithms.bfs.source_groups import neighbourhood_order
from warpgraph.algorithms.centrality import harmonic_centrality


def _lattice(side: int) -> wg.Graph:
    v = np.arange(side * side).reshape(side, side)
    src = np.r_[v[:, :-1].ravel(), v[:-1, :].ravel()]
    dst = np.r_[v[:, 1:].ravel(), v[1:, :].ravel()]
    return wg.Graph.from_edges(src, dst, num_vertices=side * side, directed=False)


def _order(G: wg.Graph, sources, size: int) -> np.ndarray:
    return neighbourhood_order(np.asarray(G.indptr), np.asarray(G.indices), sources, size)


@pytest.mark.parametrize("seed", range(8))
def test_a_permutation_with_repeats_together(seed):
    rng = np.random.default_rng(seed)
    n = int(rng.integers(1, 300))
    G = wg.Graph.from_edges(rng.integers(0, n, 2 * n), rng.integers(0, n, 2 * n), num_vertices=n,
                            directed=bool(seed % 2))  # fmt: skip
    sources = rng.integers(0, n, int(rng.integers(1, 700)))
    for size in (1, 7, 64):
        order = _order(G, sources, size)
        assert np.array_equal(np.sort(order), np.arange(sources.size))
        # (a vertex's repeats keep their given order: positions rise among equal sources)
        for v in np.unique(sources)[:20]:
            places = order[sources[order] == v]
            assert np.all(np.diff(places) > 0)


def test_lattice_groups_are_balls():
    """On a 48 x 48 lattice numbered row by row, 64 consecutive ids span 48 steps (a row and a
    third); the groups by neighbourhood span 16.6 on average (the last ones, filled from what
    is left, up to 50)."""
    side = 48
    G = _lattice(side)
    order = _order(G, np.arange(side * side), 64)
    rows, cols = np.divmod(order, side)

    def spread(chunk):  # (the largest lattice distance within a group)
        r, c = rows[chunk], cols[chunk]
        return (np.abs(r[:, None] - r) + np.abs(c[:, None] - c)).max()

    spreads = [spread(slice(i, i + 64)) for i in range(0, side * side, 64)]
    assert np.mean(spreads) <= 20
    assert spread(slice(0, 64)) < 20  # (the first group: a ball around vertex 0)


def test_small_cases_and_bad_size():
    G = wg.Graph.from_edges([0], [1], num_vertices=3, directed=True)
    assert _order(G, np.array([], dtype=np.int64), 4).tolist() == []
    assert _order(G, np.array([2, 2, 0]), 2).tolist() == [2, 0, 1]  # (0's ball: 0; then 2, 2)
    with pytest.raises(ValueError, match="size"):
        _order(G, np.array([0]), 0)
    for bad in (np.array([3]), np.array([-1, 0])):
        with pytest.raises(ValueError, match=r"lie in \[0, 3\)"):
            _order(G, bad, 2)
    for bad in (np.array([0.5]), np.array([[0, 1]])):
        with pytest.raises(ValueError, match="1-D array of integer"):
            _order(G, bad, 2)


@pytest.mark.parametrize("directed", [False, True])
def test_statistics_do_not_depend_on_the_grouping(monkeypatch, directed):
    rng = np.random.default_rng(4)
    n = 700
    src, dst = rng.integers(0, n, 1500), rng.integers(0, n, 1500)
    G = wg.Graph.from_edges(src, dst, num_vertices=n, directed=directed)
    for sources in (None, rng.integers(0, n, 500), np.r_[np.arange(n), np.arange(300)]):
        grouped = distance_stats(G, sources, device="cpu")
        monkeypatch.setattr(multi_source, "GROUP_BY_NEIGHBOURHOOD", False)
        given = distance_stats(G, sources, device="cpu")
        monkeypatch.setattr(multi_source, "GROUP_BY_NEIGHBOURHOOD", True)
        assert all(np.array_equal(a, b) for a, b in zip(grouped, given, strict=True))
    # and against SciPy, from every vertex
    A = csr_matrix((np.ones(src.size), (src, dst)), shape=(n, n))
    D = shortest_path(A, directed=directed, unweighted=True)
    reach = np.isfinite(D)
    stats = distance_stats(G, device="cpu")
    assert np.array_equal(stats.reached, reach.sum(1))
    assert np.array_equal(stats.total, np.where(reach, D, 0).sum(1).astype(np.int64))


def _harmonic_oracle(D: np.ndarray, sources, targets, by_distance: bool) -> np.ndarray:
    """Each target's ``1 / d(v, u)`` added one source after another (SciPy's distances ``D``),
    in the sources' order or nearest first: the sequential sums' bits."""
    d = D[np.asarray(sources)][:, np.asarray(targets)]
    d[np.asarray(sources)[:, None] == np.asarray(targets)[None, :]] = np.inf  # (u itself)
    if by_distance:
        d = np.sort(d, axis=0, kind="stable")
    out = np.zeros(d.shape[1])
    for row in d:  # (one addition per source, every target at once)
        out += np.where(np.isfinite(row), 1.0 / np.where(np.isfinite(row), row, 1), 0.0)
    return out


@pytest.mark.parametrize("directed", [False, True])
@pytest.mark.parametrize("order", ["given", "distance"])
def test_harmonic_sums_do_not_depend_on_the_grouping(monkeypatch, directed, order):
    """The targets' searches are grouped (more than two groups of targets); each sum keeps its
    sources' order, so the bits equal the ungrouped run's and the sequential sums'."""
    rng = np.random.default_rng(7)
    n = 600
    src, dst = rng.integers(0, n, 1300), rng.integers(0, n, 1300)
    G = wg.Graph.from_edges(src, dst, num_vertices=n, directed=directed)
    A = csr_matrix((np.ones(src.size), (src, dst)), shape=(n, n))
    D = shortest_path(A, directed=directed, unweighted=True)
    every = np.arange(n)
    for sources, targets in ((None, None), (rng.permutation(n), np.r_[every, every[:200]])):
        grouped = harmonic_centrality(G, sources, targets, order=order, device="cpu")
        monkeypatch.setattr(multi_source, "GROUP_BY_NEIGHBOURHOOD", False)
        given = harmonic_centrality(G, sources, targets, order=order, device="cpu")
        monkeypatch.setattr(multi_source, "GROUP_BY_NEIGHBOURHOOD", True)
        assert np.array_equal(grouped, given)
        ids = (every if sources is None else sources, every if targets is None else targets)
        assert np.array_equal(grouped, _harmonic_oracle(D, *ids, order == "distance"))


@pytest.mark.parametrize("directed", [False, True])
@pytest.mark.parametrize("wave_groups", [None, 20])
def test_efficiency_sum_does_not_depend_on_the_grouping(monkeypatch, directed, wave_groups):
    """Global efficiency's waves group their sources (the whole graph in one wave, or waves of
    20 groups of 64 and a short last one) and add the counts in id order: the bits of the
    ungrouped run and of the sequential sum over SciPy's distances (source after source,
    nearest target first)."""
    from warpgraph.algorithms.bfs import efficiency

    if wave_groups:  # (a wave's counts: 65 levels of 64 searches, 4 bytes each)
        monkeypatch.setattr(efficiency, "WAVE_BYTES", wave_groups * 65 * 64 * 4)
    rng = np.random.default_rng(11)
    n = 2600
    src, dst = rng.integers(0, n, 3000), rng.integers(0, n, 3000)
    G = wg.Graph.from_edges(src, dst, num_vertices=n, directed=directed)
    grouped = efficiency_sum(G, device="cpu")
    monkeypatch.setattr(multi_source, "GROUP_BY_NEIGHBOURHOOD", False)
    assert grouped == efficiency_sum(G, device="cpu")
    D = shortest_path(csr_matrix((np.ones(src.size), (src, dst)), shape=(n, n)),
                      directed=directed, unweighted=True)  # fmt: skip
    total = 0.0
    for row in D:
        for d in np.sort(row[np.isfinite(row) & (row > 0)]).tolist():
            total += 1 / d
    assert grouped == total


@pytest.mark.gpu
def test_gpu_statistics_in_the_sources_order(monkeypatch):
    """The GPU's statistics of grouped searches come back in the sources' order (a lattice
    and repeated sources), equal to the CPU's."""
    monkeypatch.setattr(multi_source, "GROUP_ON_GPU", True)
    monkeypatch.setattr(multi_source, "GROUP_DEPTH_ON_GPU", 0)  # (grouped however shallow)
    G = _lattice(40)
    rng = np.random.default_rng(2)
    for sources in (None, rng.integers(0, G.num_vertices, 900)):
        cpu = distance_stats(G, sources, device="cpu")
        gpu = distance_stats(G.to("gpu"), sources, device="gpu")
        assert all(np.array_equal(c, g.get()) for c, g in zip(cpu, gpu, strict=True))


@pytest.mark.gpu
@pytest.mark.parametrize("directed", [False, True])
def test_gpu_harmonic_sums_in_the_targets_order(monkeypatch, directed):
    """The GPU's harmonic sums with the targets' searches grouped: in the targets' order, bit
    for bit the CPU's (given order and by distance; repeated targets)."""
    monkeypatch.setattr(multi_source, "GROUP_ON_GPU", True)
    monkeypatch.setattr(multi_source, "GROUP_DEPTH_ON_GPU", 0)  # (grouped however shallow)
    rng = np.random.default_rng(5)
    n = 900
    G = wg.Graph.from_edges(rng.integers(0, n, 2000), rng.integers(0, n, 2000), num_vertices=n,
                            directed=directed)  # fmt: skip
    for targets in (None, rng.integers(0, n, 700)):
        for order in ("given", "distance"):
            cpu = harmonic_centrality(G, targets=targets, order=order, device="cpu")
            gpu = harmonic_centrality(G.to("gpu"), targets=targets, order=order, device="gpu")
            assert np.array_equal(cpu, gpu.get())


@pytest.mark.gpu
def test_gpu_harmonic_every_pair_from_the_targets(monkeypatch):
    """With ``SYMMETRIC_FROM_TARGETS`` an undirected graph's every pair (and as many sources as
    targets, repeated) is searched from the targets, grouped, and adds the CPU's bits; a
    directed graph's stays with its sources."""
    from warpgraph.algorithms.centrality import harmonic_gpu

    monkeypatch.setattr(multi_source, "GROUP_ON_GPU", True)
    monkeypatch.setattr(multi_source, "GROUP_DEPTH_ON_GPU", 0)  # (grouped however shallow)
    monkeypatch.setattr(harmonic_gpu, "SYMMETRIC_FROM_TARGETS", True)
    backward = []
    from_targets = harmonic_gpu._from_targets
    monkeypatch.setattr(harmonic_gpu, "_from_targets",
                        lambda *a: backward.append(1) or from_targets(*a))  # fmt: skip
    rng = np.random.default_rng(4)
    lattice = _lattice(40)
    picks = rng.integers(0, lattice.num_vertices, 900)
    for sources, targets in ((None, None), (picks, picks[::-1].copy())):
        cpu = harmonic_centrality(lattice, sources, targets, device="cpu")
        gpu = harmonic_centrality(lattice.to("gpu"), sources, targets, device="gpu")
        assert np.array_equal(cpu, gpu.get())
    assert len(backward) == 2
    n = 900
    G = wg.Graph.from_edges(*rng.integers(0, n, (2, 2000)), num_vertices=n)
    assert np.array_equal(harmonic_centrality(G, device="cpu"),
                          harmonic_centrality(G.to("gpu"), device="gpu").get())  # fmt: skip
    assert len(backward) == 2


@pytest.mark.gpu
def test_gpu_efficiency_sum_grouped(monkeypatch):
    """The GPU's batches grouped by neighbourhood add the CPU's bits (a lattice, a random
    directed graph)."""
    monkeypatch.setattr(multi_source, "GROUP_ON_GPU", True)
    monkeypatch.setattr(multi_source, "GROUP_DEPTH_ON_GPU", 0)  # (grouped however shallow)
    rng = np.random.default_rng(3)
    n = 3000
    arcs = rng.integers(0, n, (2, 5000))
    for G in (_lattice(60), wg.Graph.from_edges(*arcs, num_vertices=n)):
        assert efficiency_sum(G.to("gpu"), device="gpu") == efficiency_sum(G, device="cpu")


@pytest.mark.gpu
def test_gpu_groups_only_deep_graphs(monkeypatch):
    """The GPU groups a deep graph's searches (a 3,000-vertex path: depth 2,999 from vertex 0),
    not a shallow one's (a random graph), nor too few searches, nor with GROUP_ON_GPU off."""
    monkeypatch.setattr(multi_source, "GROUP_ON_GPU", True)
    n = 3000
    path = wg.Graph.from_edges(np.arange(n - 1), np.arange(1, n), num_vertices=n,
                               directed=False).to("gpu")  # fmt: skip
    rng = np.random.default_rng(0)
    shallow = wg.Graph.from_edges(*rng.integers(0, n, (2, 4 * n)), num_vertices=n).to("gpu")
    every = np.arange(n, dtype=np.int64)
    assert multi_source.gpu_groups_pay(path, n)
    assert not multi_source.gpu_groups_pay(shallow, n)
    assert multi_source.gpu_groups_pay(shallow, n, depth=multi_source.GROUP_DEPTH_ON_GPU)
    assert not multi_source.gpu_groups_pay(path, 2 * multi_source.WIDTH)
    order = multi_source.gpu_grouping(path, every[::-1].copy())
    assert order is not None and np.array_equal(np.sort(order), every)
    monkeypatch.setattr(multi_source, "GROUP_ON_GPU", False)
    assert multi_source.gpu_grouping(path, every) is None


def test_helpers_reject_bad_input():
    """The grouping's helpers: ``put_back`` needs a permutation's worth of integer positions,
    ``wave_order`` a non-negative first source and count and a group size, ``grouping_order``
    ids inside the graph (``neighbourhood_order``'s check)."""
    from warpgraph.algorithms.bfs.efficiency import wave_order

    values = np.array([5.0, 6.0, 7.0])
    assert multi_source.put_back(values, None) is values
    assert multi_source.put_back(values, np.array([1, 2, 0])).tolist() == [7.0, 5.0, 6.0]
    for bad in (np.array([0, 1]), np.array([0.0, 1.0, 2.0]), np.array([[0, 1, 2]])):
        with pytest.raises(ValueError, match="1-D integer array of 3 positions"):
            multi_source.put_back(values, bad)
    G = _lattice(8)
    indptr, indices = np.asarray(G.indptr), np.asarray(G.indices)
    for first, count, size in ((-1, 4, 2), (0, -1, 2), (0, 4, 0)):
        with pytest.raises(ValueError, match="wave_order needs"):
            wave_order(indptr, indices, first, count, 64, size)
    with pytest.raises(ValueError, match=r"lie in \[0, 64\)"):
        multi_source.grouping_order(indptr, indices, np.arange(60, 260), 64)
