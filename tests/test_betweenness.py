"""Betweenness centrality: ``warpgraph.algorithms.betweenness`` against two oracles (the
published algorithm with predecessor lists in ``reference.py``, and NetworkX's own
``betweenness_centrality`` with its rescaling undone), and the verifier, itself checked on
wrong answers. Graphs: random directed and undirected ones with self-loops, parallel arcs and
isolated vertices, paths, stars, cycles, lattices (many shortest paths per pair), cliques,
the empty graph; sampled sources with repeats; endpoints on and off."""

from __future__ import annotations

import numpy as np
import pytest

import warpgraph as wg
from warpgraph.algorithms.betweenness import betweenness_centrality
from warpgraph.algorithms.betweenness.api import arc_dependency_sums, partial_sums
from warpgraph.algorithms.betweenness.reference import (
    reference_arc_betweenness,
    reference_betweenness,
)
from warpgraph.algorithms.betweenness.verify import verify_betweenness
from warpgraph.errors import InvalidArgumentError, VerificationError


def _random_graph(seed: int, directed: bool) -> wg.Graph:
    rng = np.random.default_rng(seed)
    n = int(rng.integers(1, 50))
    m = int(rng.integers(0, 4 * n))
    src, dst = rng.integers(0, n, m), rng.integers(0, n, m)
    return wg.Graph.from_edges(src, dst, num_vertices=n, directed=directed)


def _oracle(G: wg.Graph, sources=None, endpoints: bool = False) -> np.ndarray:
    H = G.merge_duplicates() if G.num_arcs else G
    return reference_betweenness(np.asarray(H.indptr), np.asarray(H.indices), sources, endpoints)


def _undirected(src, dst, n: int) -> wg.Graph:
    return wg.Graph.from_edges(src, dst, num_vertices=n, directed=False)


def _named(name: str) -> wg.Graph:
    if name == "path":
        return _undirected(np.arange(9), np.arange(1, 10), 10)
    if name == "star":
        return _undirected(np.zeros(7, int), np.arange(1, 8), 8)
    if name == "cycle":
        return _undirected(np.arange(11), (np.arange(11) + 1) % 11, 11)
    if name == "lattice":  # 12 x 12: up to C(22, 11) shortest paths per pair
        v = np.arange(144).reshape(12, 12)
        src = np.r_[v[:, :-1].ravel(), v[:-1, :].ravel()]
        dst = np.r_[v[:, 1:].ravel(), v[1:, :].ravel()]
        return wg.Graph.from_edges(src, dst, num_vertices=144, directed=False)
    if name == "clique":
        u, w = np.triu_indices(9, 1)
        return wg.Graph.from_edges(u, w, num_vertices=9, directed=False)
    raise ValueError(name)


@pytest.mark.parametrize("directed", [False, True])
@pytest.mark.parametrize("seed", range(40))
def test_random_graphs_match_the_oracle(seed, directed):
    G = _random_graph(seed, directed)
    rng = np.random.default_rng(seed + 1000)
    for sources in (None, rng.integers(0, G.num_vertices, 7)):
        for endpoints in (False, True):
            got = betweenness_centrality(G, sources, endpoints=endpoints, device="cpu")
            assert np.allclose(got, _oracle(G, sources, endpoints), rtol=1e-12, atol=1e-12)
            verify_betweenness(G, got, sources, endpoints=endpoints, samples=6)


def _arc_oracle(G: wg.Graph, sources) -> np.ndarray:
    """The reference's arc shares in ``G``'s CSR order (``G`` without parallel arcs)."""
    indptr, indices = np.asarray(G.indptr), np.asarray(G.indices)
    shares = reference_arc_betweenness(indptr, indices, sources)
    tails = np.repeat(np.arange(G.num_vertices), np.diff(indptr))
    return np.array([shares[int(v), int(w)] for v, w in zip(tails, indices, strict=True)])


@pytest.mark.parametrize("directed", [False, True])
@pytest.mark.parametrize("seed", range(20))
def test_arc_shares_match_the_oracle(seed, directed):
    G = _random_graph(seed, directed)
    G = G.merge_duplicates() if G.num_arcs else G
    for sources in (np.arange(G.num_vertices), np.array([0, 0, G.num_vertices - 1])):
        got = arc_dependency_sums(G, sources, "cpu")
        assert np.allclose(got, _arc_oracle(G, sources), rtol=1e-12, atol=1e-12)
        # a vertex's out-arcs carry its dependencies, its own search's included
        node = betweenness_centrality(G, sources, device="cpu")
        tails = np.repeat(np.arange(G.num_vertices), np.diff(np.asarray(G.indptr)))
        out = np.bincount(tails, weights=got, minlength=G.num_vertices)
        others = np.setdiff1d(np.arange(G.num_vertices), sources)
        assert np.allclose(out[others], node[others], rtol=1e-12, atol=1e-12)
        assert (out >= node - 1e-9).all()


@pytest.mark.parametrize("name", ["path", "star", "cycle", "lattice", "clique"])
def test_named_graphs(name):
    G = _named(name)
    got = betweenness_centrality(G, device="cpu")
    assert np.allclose(got, _oracle(G), rtol=1e-12)
    verify_betweenness(G, got)
    if name == "path":  # inner vertex i of a 10-path: 2 * i * (9 - i) ordered pairs
        i = np.arange(10)
        assert got.tolist() == (2.0 * i * (9 - i)).tolist()
    if name == "star":  # the hub: every ordered pair of leaves
        assert got[0] == 7 * 6 and not got[1:].any()


@pytest.mark.parametrize("directed", [False, True])
def test_networkx_is_an_independent_oracle(directed):
    nx = pytest.importorskip("networkx")
    for seed in range(12):
        H = nx.gnp_random_graph(40, 0.08, seed=seed, directed=directed)
        arcs = np.array(list(H.edges()), dtype=np.int64).reshape(-1, 2)
        src, dst = arcs[:, 0], arcs[:, 1]
        G = wg.Graph.from_edges(src, dst, num_vertices=40, directed=directed)
        raw = betweenness_centrality(G, device="cpu")
        theirs = nx.betweenness_centrality(H, normalized=False, backend="networkx")
        half = 1.0 if directed else 0.5  # (NetworkX counts an undirected pair once)
        assert np.allclose(raw * half, [theirs[v] for v in range(40)], rtol=1e-12, atol=1e-12)


def test_larger_graph_uses_several_partial_sums():
    rng = np.random.default_rng(5)
    n = 3000
    G = wg.Graph.from_edges(rng.integers(0, n, 12000), rng.integers(0, n, 12000), num_vertices=n)
    sources = rng.integers(0, n, 200)
    assert partial_sums(sources.size, 32, 10**9) == 32
    got = betweenness_centrality(G, sources, device="cpu")
    verify_betweenness(G, got, sources, samples=4)
    again = betweenness_centrality(G, sources, device="cpu")
    assert np.array_equal(got, again)  # (the partial sums' order is fixed)


def test_gpu_scratch_blocks_follow_the_device_memory():
    from warpgraph.algorithms.betweenness.gpu import SCRATCH_BYTES, scratch_blocks
    from warpgraph.errors import OutOfDeviceMemory

    gib, row = 1 << 30, 11 << 20
    big = scratch_blocks(1024, 1056, row, 141 * gib, 140 * gib)
    assert big == SCRATCH_BYTES // row  # (the fixed bound, not what happens to be free)
    assert scratch_blocks(1024, 1056, row, 141 * gib, 100 * gib) == big
    assert scratch_blocks(1024, 1056, row, 16 * gib, 15 * gib) == 2 * gib // row
    assert scratch_blocks(1024, 1056, row, 141 * gib, gib) == int(gib / 1.05) // row
    assert scratch_blocks(5, 1056, 100, 141 * gib, gib) == 5  # (one per source at most)
    with pytest.raises(OutOfDeviceMemory, match="scratch"):
        scratch_blocks(1024, 1056, row, 141 * gib, row)


def test_empty_and_no_sources():
    G = wg.Graph.from_edges([], [], num_vertices=0, directed=False)
    assert betweenness_centrality(G, device="cpu").shape == (0,)
    G = _named("path")
    assert not betweenness_centrality(G, np.array([], dtype=np.int64), device="cpu").any()


def test_bad_input_is_refused():
    G = _named("path")
    with pytest.raises(InvalidArgumentError, match="outside"):
        betweenness_centrality(G, [0, 10], device="cpu")
    with pytest.raises(InvalidArgumentError, match="vertex ids"):
        betweenness_centrality(G, [0.5], device="cpu")
    with pytest.raises(InvalidArgumentError, match=r"the scalar 3; pass \[3\] .* k sampled"):
        betweenness_centrality(G, 3, device="cpu")  # (NetworkX's k= is a count)
    with pytest.raises(InvalidArgumentError, match=r"warpgraph\.Graph"):
        betweenness_centrality([[0, 1]], device="cpu")


def test_verifier_catches_wrong_values():
    G = _named("lattice")
    right = betweenness_centrality(G, device="cpu")
    verify_betweenness(G, right)
    top, second = np.argsort(-right, kind="stable")[:2]
    wrong = right.copy()
    wrong[top] += 1.0  # the total is off
    with pytest.raises(VerificationError, match="add up"):
        verify_betweenness(G, wrong)
    wrong = right.copy()
    wrong[top] -= 2.0  # the total kept, a sampled vertex off
    wrong[second] += 2.0
    with pytest.raises(VerificationError, match="definition"):
        verify_betweenness(G, wrong, samples=4)
    star = _named("star")
    wrong = betweenness_centrality(star, device="cpu")
    wrong[0] -= 1.0  # a leaf given a share: inner to no path
    wrong[3] += 1.0
    with pytest.raises(VerificationError, match="inner to no"):
        verify_betweenness(star, wrong)
    with pytest.raises(VerificationError, match="shape"):
        verify_betweenness(G, right[:-1])
    with pytest.raises(VerificationError, match="non-negative"):
        verify_betweenness(G, -right)


@pytest.mark.gpu
def test_gpu_matches_cpu():
    for seed in range(8):
        G = _random_graph(seed, bool(seed % 2))
        sources = None if seed % 3 else np.random.default_rng(seed).integers(0, G.num_vertices, 9)
        for endpoints in (False, True):
            cpu = betweenness_centrality(G, sources, endpoints=endpoints, device="cpu")
            gpu = betweenness_centrality(G, sources, endpoints=endpoints, device="gpu").get()
            assert np.allclose(cpu, gpu, rtol=1e-12, atol=1e-12)
    for name in ("lattice", "clique", "star"):
        G = _named(name)
        assert np.allclose(betweenness_centrality(G, device="gpu").get(), _oracle(G))
    rng = np.random.default_rng(4)  # hubs of 40-300 arcs (rows walked by a warp), both ways
    n = 400
    hubs = np.repeat(np.array([0, 1, 2, 3]), [300, 120, 40, 33])
    src = np.r_[hubs, rng.integers(0, n, 600)]
    dst = np.r_[rng.integers(4, n, hubs.size), rng.integers(0, n, 600)]
    for directed in (False, True):
        G = wg.Graph.from_edges(src, dst, num_vertices=n, directed=directed).merge_duplicates()
        for endpoints in (False, True):
            got = betweenness_centrality(G, endpoints=endpoints, device="gpu").get()
            assert np.allclose(got, _oracle(G, None, endpoints), rtol=1e-12, atol=1e-12)
        got = arc_dependency_sums(G.to("gpu"), np.arange(n), "gpu").get()
        assert np.allclose(got, _arc_oracle(G, np.arange(n)), rtol=1e-12, atol=1e-12)
        rev = wg.Graph.from_edges(dst, src, num_vertices=n, directed=directed).merge_duplicates()
        got = betweenness_centrality(rev, device="gpu").get()  # (long in-rows: sigma by warps)
        assert np.allclose(got, _oracle(rev), rtol=1e-12, atol=1e-12)
    rng = np.random.default_rng(9)  # more sources than blocks: each block runs several
    n = 20000
    G = wg.Graph.from_edges(rng.integers(0, n, 80000), rng.integers(0, n, 80000), num_vertices=n)
    sources = rng.integers(0, n, 700)
    gpu = betweenness_centrality(G, sources, device="gpu")
    verify_betweenness(G, gpu, sources, samples=3)
    assert np.allclose(gpu.get(), betweenness_centrality(G, sources, device="cpu"), rtol=1e-10)
    assert np.array_equal(gpu.get(), betweenness_centrality(G, sources, device="gpu").get())
    H = G.merge_duplicates()
    arcs_gpu = arc_dependency_sums(H.to("gpu"), sources, "gpu").get()
    assert np.allclose(arcs_gpu, arc_dependency_sums(H, sources, "cpu"), rtol=1e-10)
    for seed in range(4):
        G = _random_graph(seed, bool(seed % 2))
        G = G.merge_duplicates() if G.num_arcs else G
        src = np.arange(G.num_vertices)
        got = arc_dependency_sums(G.to("gpu"), src, "gpu").get()
        assert np.allclose(got, _arc_oracle(G, src), rtol=1e-12, atol=1e-12)
