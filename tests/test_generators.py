"""Tests of warpgraph.generators against independent oracles.

Oracles: exact formulas (edge counts, R-MAT's per-vertex probabilities), chi-square tests of the
raw quadrant choices, SciPy's cKDTree (random geometric graphs), NetworkX (grids, planarity),
SciPy connected components (road-like), brute-force enumeration (G(n, p) pair numbering).
Seeds are fixed, so the statistical tests are deterministic; their thresholds are loose enough
for a correct generator and far too tight for a wrong quadrant order or a biased sampler.
"""

from __future__ import annotations

import itertools
import math
import shutil
import subprocess
from pathlib import Path

import networkx as nx
import numba
import numpy as np
import pytest
import scipy.sparse as sp
from scipy.sparse.csgraph import connected_components
from scipy.spatial import cKDTree
from scipy.stats import binom, chisquare

from warpgraph import generators as gen
from warpgraph.errors import InvalidArgumentError
from warpgraph.generators import _counter_rng as crng
from warpgraph.generators.uniform import _pairs_of_indices

CPU = {"device": "cpu"}


def gini(x: np.ndarray) -> float:
    """Gini coefficient (independent of warpgraph.stats)."""
    x = np.sort(np.asarray(x, dtype=np.float64))
    n = x.size
    if n == 0 or x.sum() == 0:
        return 0.0
    cum = np.cumsum(x)
    return float((n + 1 - 2 * (cum.sum() / cum[-1])) / n)


def edge_set(src, dst, undirected=True) -> set[tuple[int, int]]:
    s, d = np.asarray(src).tolist(), np.asarray(dst).tolist()
    if undirected:
        return {(min(a, b), max(a, b)) for a, b in zip(s, d, strict=True)}
    return set(zip(s, d, strict=True))


# ------------------------------------------------------------------ counter-based primitives


def test_mulhi64_matches_python_big_ints():
    rng = np.random.default_rng(0)
    a = rng.integers(0, 2**64, size=2000, dtype=np.uint64)
    b = rng.integers(0, 2**64, size=2000, dtype=np.uint64)
    b[:5] = [0, 1, 255, 2**32, 2**64 - 1]
    for x, y in zip(a.tolist(), b.tolist(), strict=True):
        assert int(crng.mulhi64(np.uint64(x), np.uint64(y))) == (x * y) >> 64


def test_words_are_splitmix64():
    mask = 2**64 - 1

    def mix(z):
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & mask
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & mask
        return z ^ (z >> 31)

    key = 0xDEADBEEF12345678
    got = crng.random_keys(np.uint64(key), 100).tolist()
    assert got == [mix((key + (i + 1) * 0x9E3779B97F4A7C15) & mask) for i in range(100)]
    for i, z in enumerate(got):
        assert int(crng.unmix64(np.uint64(z))) == (key + (i + 1) * 0x9E3779B97F4A7C15) & mask
    z = np.uint64(0x0123456789ABCDEF)
    assert crng.unmix64(crng.mix64(z)) == z


@pytest.mark.parametrize("n", [0, 1, 2, 7, 1000, 65536 + 3])
def test_random_permutation_is_the_argsort_of_the_keys(n):
    key = np.uint64(99)
    perm = crng.random_permutation(key, n)
    assert np.array_equal(perm, np.argsort(crng.random_keys(key, n), kind="stable"))
    assert np.array_equal(np.sort(perm), np.arange(n))


def test_random_permutation_is_uniform_on_small_sets():
    # All 24 permutations of 4 items should be equally likely over many keys.
    perms = list(itertools.permutations(range(4)))
    index = {p: i for i, p in enumerate(perms)}
    counts = np.zeros(24)
    for k in range(4800):
        counts[index[tuple(crng.random_permutation(np.uint64(k * 7919 + 1), 4).tolist())]] += 1
    assert chisquare(counts).pvalue > 1e-3


# ---------------------------------------------------------------------------------- R-MAT


@pytest.mark.parametrize(("scale", "edgefactor"), [(0, 3), (1, 16), (5, 1), (10, 16), (9, 0)])
def test_kronecker_edge_count_and_ids(scale, edgefactor):
    src, dst = gen.kronecker_edges(scale, edgefactor, seed=1, **CPU)
    assert len(src) == len(dst) == edgefactor * 2**scale
    assert src.dtype == np.int32 and dst.dtype == np.int32
    if len(src):
        assert 0 <= min(src.min(), dst.min()) and max(src.max(), dst.max()) < 2**scale


def test_kronecker_is_deterministic_per_seed():
    a = gen.kronecker_edges(12, seed=5, **CPU)
    b = gen.kronecker_edges(12, seed=5, **CPU)
    c = gen.kronecker_edges(12, seed=6, **CPU)
    assert np.array_equal(a[0], b[0]) and np.array_equal(a[1], b[1])
    assert not np.array_equal(a[0], c[0])


def test_results_do_not_depend_on_the_thread_count():
    threads = numba.get_num_threads()
    try:
        numba.set_num_threads(1)
        one = gen.kronecker_edges(12, seed=3, shuffle=True, **CPU)
        one_u = gen.uniform_edges(5000, seed=3, **CPU)
        one_w = gen.random_weights(10000, "gap", seed=3, **CPU)
    finally:
        numba.set_num_threads(threads)
    many = gen.kronecker_edges(12, seed=3, shuffle=True, **CPU)
    assert np.array_equal(one[0], many[0]) and np.array_equal(one[1], many[1])
    assert np.array_equal(one_u[0], gen.uniform_edges(5000, seed=3, **CPU)[0])
    assert np.array_equal(one_w, gen.random_weights(10000, "gap", seed=3, **CPU))


def _quadrants(src, dst, level):
    return 2 * ((src >> level) & 1) + ((dst >> level) & 1)


@pytest.mark.parametrize("probs", [(0.57, 0.19, 0.19, 0.05), (0.5, 0.25, 0.15, 0.10)])
def test_quadrant_choices_follow_the_initiator(probs):
    """Chi-square per level on raw (unpermuted) bits; the asymmetric case catches a B/C swap."""
    scale, m = 6, 2**16
    src, dst = gen.rmat_edges(scale, m // 2**scale, *probs, seed=11, **CPU)
    expected = np.array(probs) * m
    for level in range(scale):
        counts = np.bincount(_quadrants(src, dst, level), minlength=4)
        assert chisquare(counts, expected).pvalue > 1e-4, (level, counts, expected)
    # Independence of two levels: the 16 joint cells have product probabilities.
    joint = np.bincount(4 * _quadrants(src, dst, 0) + _quadrants(src, dst, 5), minlength=16)
    assert chisquare(joint, np.outer(probs, probs).ravel() * m).pvalue > 1e-4


def test_rmat_source_popcount_distribution():
    """P(src = u) = (a+b)^(scale-k) (c+d)^k for u with k one-bits (exact R-MAT law)."""
    scale, m = 10, 2**18
    a, b, c, d = 0.57, 0.19, 0.19, 0.05
    src, _ = gen.rmat_edges(scale, m // 2**scale, a, b, c, d, seed=2, **CPU)
    pop = np.array([bin(u).count("1") for u in range(2**scale)])
    got = np.bincount(pop[src], minlength=scale + 1)
    expected = binom.pmf(np.arange(scale + 1), scale, c + d) * m
    keep = expected > 5  # pool the sparse tail
    got = np.append(got[keep], got[~keep].sum())
    expected = np.append(expected[keep], expected[~keep].sum())
    assert chisquare(got, expected * got.sum() / expected.sum()).pvalue > 1e-4


def test_permutation_relabels_consistently():
    """permute=True is permute=False followed by one bijection of vertex labels."""
    raw = gen.rmat_edges(9, 8, seed=4, **CPU)
    perm = gen.kronecker_edges(9, 8, seed=4, **CPU)
    label = np.full(2**9, -1)
    for r, p in ((raw[0], perm[0]), (raw[1], perm[1])):
        label[r] = p
    for r, p in ((raw[0], perm[0]), (raw[1], perm[1])):
        assert np.array_equal(label[r], p)  # a function
    seen = label[label >= 0]
    assert len(np.unique(seen)) == len(seen)  # injective
    assert not np.array_equal(raw[0], perm[0])


def test_shuffle_permutes_the_edge_list():
    plain = gen.kronecker_edges(8, seed=9, **CPU)
    shuffled = gen.kronecker_edges(8, seed=9, shuffle=True, **CPU)
    key = lambda s, d: np.sort(s.astype(np.int64) * 2**8 + d)  # noqa: E731
    assert np.array_equal(key(*plain), key(*shuffled))
    assert not np.array_equal(plain[0], shuffled[0])


def test_kronecker_degrees_are_skewed_and_uniform_ones_are_not():
    scale = 14
    ks, kd = gen.kronecker_edges(scale, seed=1, **CPU)
    us, ud = gen.uniform_edges(2**scale, seed=1, **CPU)
    kdeg = np.bincount(np.concatenate([ks, kd]), minlength=2**scale)
    udeg = np.bincount(np.concatenate([us, ud]), minlength=2**scale)
    assert kdeg.sum() == udeg.sum() == 2 * 16 * 2**scale
    assert gini(kdeg) > 0.6
    assert gini(udeg) < 0.15
    assert kdeg.max() > 20 * udeg.max()


def test_kronecker_graph_is_the_simple_graph_of_the_edge_list():
    src, dst = gen.kronecker_edges(10, seed=8, **CPU)
    G = gen.kronecker(10, seed=8, **CPU)
    assert G.num_vertices == 2**10 and not G.is_directed()
    expected = {e for e in edge_set(src, dst) if e[0] != e[1]}
    gs, gd, _ = G.edges()
    assert edge_set(gs, gd) == expected and G.num_edges == len(expected)
    M = gen.kronecker(10, seed=8, simple=False, directed=True, **CPU)
    assert M.num_edges == len(src)


def test_generator_weights_are_random_weights_of_the_same_seed():
    G = gen.kronecker(8, seed=21, weights="gap", simple=False, directed=True, **CPU)
    src, dst = gen.kronecker_edges(8, seed=21, **CPU)
    w = gen.random_weights(len(src), "gap", seed=21, **CPU)
    expected = sorted(zip(src.tolist(), dst.tolist(), w.tolist(), strict=True))
    gs, gd, gw = G.edges()
    assert sorted(zip(gs.tolist(), gd.tolist(), gw.tolist(), strict=True)) == expected
    # Asking for weights does not change the edges.
    H = gen.kronecker(8, seed=21, simple=False, directed=True, **CPU)
    assert np.array_equal(H.indices, G.indices)


def test_rmat_num_edges_and_int64_ids():
    src, dst = gen.rmat_edges(33, num_edges=1000, seed=1, **CPU)
    assert len(src) == 1000 and src.dtype == np.int64
    assert dst.max() < 2**33 and src.max() > 2**31  # high bits are used


def test_rmat_graph_options():
    G = gen.rmat(8, 4, 0.45, 0.15, 0.15, 0.25, seed=3, directed=True, weights="graph500", **CPU)
    assert G.is_directed() and G.weights.dtype == np.float32 and G.num_vertices == 256
    loops = G.edges()
    assert not np.any(loops[0] == loops[1])


# ---------------------------------------------------------------------------------- weights


def test_gap_weights():
    w = gen.random_weights(200_000, "gap", seed=1, **CPU)
    assert w.dtype == np.int32 and w.min() == 1 and w.max() == 255
    counts = np.bincount(w, minlength=256)[1:]
    assert chisquare(counts).pvalue > 1e-4
    assert np.array_equal(w, gen.random_weights(200_000, "gap", seed=1, **CPU))
    assert not np.array_equal(w, gen.random_weights(200_000, "gap", seed=2, **CPU))


def test_graph500_weights():
    w = gen.random_weights(200_000, "graph500", seed=1, **CPU)
    assert w.dtype == np.float32 and w.min() >= 0.0 and w.max() < 1.0
    assert abs(w.mean() - 0.5) < 0.005
    assert chisquare(np.histogram(w, bins=50, range=(0, 1))[0]).pvalue > 1e-4


# ---------------------------------------------------------------------------------- uniform


def test_uniform_edges_count_and_bias():
    n, m = 1000, 400_000
    src, dst = gen.uniform_edges(n, m, seed=7, **CPU)
    assert len(src) == m and src.dtype == np.int32
    deg = np.bincount(np.concatenate([src, dst]), minlength=n)
    assert deg.mean() == 2 * m / n
    for ends in (src, dst):
        assert chisquare(np.bincount(ends, minlength=n)).pvalue > 1e-4
        assert abs(ends.mean() - (n - 1) / 2) < 5 * math.sqrt((n * n - 1) / 12 / m)
    # endpoints independent: (src mod 10, dst mod 10) cells equally likely
    assert chisquare(np.bincount(10 * (src % 10) + dst % 10, minlength=100)).pvalue > 1e-4


def test_uniform_edgefactor_and_graph():
    src, _ = gen.uniform_edges(100, seed=1, **CPU)
    assert len(src) == 1600  # GAP's default -k 16
    assert len(gen.uniform_edges(100, edgefactor=3, seed=1, **CPU)[0]) == 300
    G = gen.uniform(1000, edgefactor=8, seed=1, weights="gap", **CPU)
    assert G.num_vertices == 1000 and 7800 < G.num_edges <= 8000
    assert G.num_self_loops == 0


# ------------------------------------------------------------------------------- G(n, p)


@pytest.mark.parametrize("directed", [False, True])
def test_gnp_pair_numbering_is_a_bijection(directed):
    n = 37
    total = n * (n - 1) if directed else n * (n - 1) // 2
    src = np.empty(total, np.int64)
    dst = np.empty(total, np.int64)
    _pairs_of_indices(np.arange(total, dtype=np.int64), n, directed, src, dst)
    pairs = set(zip(src.tolist(), dst.tolist(), strict=True))
    if directed:
        assert pairs == {(u, v) for u in range(n) for v in range(n) if u != v}
    else:
        assert pairs == {(u, v) for u in range(n) for v in range(u + 1, n)}


def test_gnp_pair_numbering_is_exact_for_huge_n():
    n = 2**31 - 1
    total = n * (n - 1) // 2
    k = np.array([0, 1, 2, total // 3, total - n, total - 2, total - 1], dtype=np.int64)
    src = np.empty(k.size, np.int64)
    dst = np.empty(k.size, np.int64)
    _pairs_of_indices(k, n, False, src, dst)
    assert np.all((0 <= src) & (src < dst) & (dst < n))
    assert [v * (v - 1) // 2 + u for u, v in zip(src.tolist(), dst.tolist(), strict=True)] == (
        k.tolist()
    )


@pytest.mark.parametrize(
    ("n", "p", "directed"),
    [
        (2000, 0.003, False),
        (1500, 0.95, False),
        (400, 0.6, True),
        (10**6, 1e-8, False),
        (3 * 10**5, 5e-10, False),
        (2**31 - 1, 1e-15, True),
    ],
)
def test_gnp_counts_and_simplicity(n, p, directed):
    src, dst = gen.erdos_renyi_edges(n, p, seed=5, directed=directed, **CPU)
    total = n * (n - 1) if directed else n * (n - 1) // 2
    mean, sd = total * p, math.sqrt(total * p * (1 - p))
    assert abs(len(src) - mean) < 5 * sd + 1
    assert not np.any(src == dst)
    if not directed:
        assert np.all(src < dst)
    key = src.astype(np.int64) * n + dst
    assert len(np.unique(key)) == len(key)


def test_gnp_edges_are_uniform_over_pairs():
    n, p = 60, 0.3
    hits = np.zeros((n, n))
    for seed in range(60):
        s, d = gen.erdos_renyi_edges(n, p, seed=seed, **CPU)
        hits[s, d] += 1
    upper = hits[np.triu_indices(n, 1)]
    # each pair is present in Binomial(60, 0.3) of the samples
    observed = np.bincount(upper.astype(int), minlength=61)
    expected = binom.pmf(np.arange(61), 60, p) * upper.size
    keep = expected > 5
    obs = np.append(observed[keep], observed[~keep].sum())
    exp = np.append(expected[keep], expected[~keep].sum())
    assert chisquare(obs, exp * obs.sum() / exp.sum()).pvalue > 1e-4


def test_gnp_extremes():
    assert len(gen.erdos_renyi_edges(50, 0.0, seed=1, **CPU)[0]) == 0
    s, d = gen.erdos_renyi_edges(50, 1.0, seed=1, **CPU)
    assert edge_set(s, d) == set(nx.complete_graph(50).edges())
    s, d = gen.erdos_renyi_edges(20, 1.0, seed=1, directed=True, **CPU)
    assert len(s) == 380
    assert len(gen.erdos_renyi_edges(1, 0.5, **CPU)[0]) == 0
    G = gen.erdos_renyi(300, 0.05, seed=2, weights="gap", **CPU)
    assert G.num_vertices == 300 and G.is_weighted


# ---------------------------------------------------------------------------------- lattices


@pytest.mark.parametrize(("rows", "cols"), [(1, 1), (1, 7), (5, 1), (4, 6), (13, 9)])
def test_grid_2d_matches_networkx(rows, cols):
    G = gen.grid_2d(rows, cols, **CPU)
    assert G.num_vertices == rows * cols
    assert G.num_edges == rows * (cols - 1) + (rows - 1) * cols
    oracle = {
        tuple(sorted((r1 * cols + c1, r2 * cols + c2)))
        for (r1, c1), (r2, c2) in nx.grid_2d_graph(rows, cols).edges()
    }
    s, d, _ = G.edges()
    assert edge_set(s, d) == oracle
    if rows >= 3 and cols >= 3:
        deg = np.bincount(G.degree(), minlength=5)
        assert deg[2] == 4 and deg[3] == 2 * (rows - 2 + cols - 2)
        assert deg[4] == (rows - 2) * (cols - 2)


@pytest.mark.parametrize("shape", [(1, 1, 1), (2, 3, 4), (4, 4, 4), (1, 5, 2)])
def test_grid_3d_matches_brute_force(shape):
    x, y, z = shape
    G = gen.grid_3d(x, y, z, weights="gap", seed=1, **CPU)
    vid = lambda i, j, k: (i * y + j) * z + k  # noqa: E731
    oracle = set()
    for i, j, k in itertools.product(range(x), range(y), range(z)):
        for di, dj, dk in ((1, 0, 0), (0, 1, 0), (0, 0, 1)):
            if i + di < x and j + dj < y and k + dk < z:
                oracle.add((vid(i, j, k), vid(i + di, j + dj, k + dk)))
    s, d, w = G.edges()
    assert edge_set(s, d) == oracle
    assert G.num_edges == (x - 1) * y * z + x * (y - 1) * z + x * y * (z - 1)
    assert w.dtype == np.int32 and (w >= 1).all()


def _check_road(src, dst, n, cols):
    src, dst = np.asarray(src, np.int64), np.asarray(dst, np.int64)
    assert np.all(src < dst)
    step = dst - src
    same_row = src // cols == dst // cols
    assert np.all(((step == 1) & same_row) | (step == cols))  # grid steps only: planar
    A = sp.coo_matrix((np.ones(len(src)), (src, dst)), shape=(n, n))
    assert connected_components(A, directed=False)[0] == 1
    deg = np.bincount(np.concatenate([src, dst]), minlength=n)
    assert deg.max() <= 4 and deg.min() >= 1
    return deg


@pytest.mark.parametrize("n", [1, 2, 3, 10, 1000, 40_000])
def test_road_like_is_connected_planar_and_sparse(n):
    src, dst, pos = gen.road_like_edges(n, seed=3, **CPU)
    cols = math.isqrt(n - 1) + 1
    assert pos.shape == (n, 2)
    if n > 1:
        deg = _check_road(src, dst, n, cols)
        if n >= 1000:
            assert abs(deg.mean() - 2.5) < 0.06
    assert np.all(np.abs(pos - np.column_stack([np.arange(n) % cols, np.arange(n) // cols])) < 0.3)


def test_road_like_graph_rows_cols_and_weights():
    G = gen.road_like(rows=30, cols=50, seed=2, avg_degree=3.0, **CPU)
    s, d, w = G.edges()
    deg = _check_road(s, d, 1500, 50)
    assert abs(deg.mean() - 3.0) < 0.1
    assert w.dtype == np.int32 and 40 <= w.min() and w.max() <= 171
    H = gen.road_like(rows=30, cols=50, seed=2, avg_degree=3.0, **CPU)
    assert np.array_equal(H.indices, G.indices) and np.array_equal(H.weights, G.weights)
    T = gen.road_like(rows=20, seed=1, avg_degree=2 * 399 / 400, weights=None, **CPU)
    assert T.num_edges == 399  # a spanning tree
    assert nx.check_planarity(T.to_networkx())[0]


# ---------------------------------------------------------------------------------- geometric


@pytest.mark.parametrize(("n", "radius", "dim"), [(3000, 0.03, 2), (2000, 0.12, 3), (500, 0.01, 1)])
def test_rgg_edges_equal_kdtree_pairs(n, radius, dim):
    src, dst, pos = gen.random_geometric_edges(n, radius, seed=4, dim=dim, **CPU)
    assert pos.shape == (n, dim) and pos.min() >= 0 and pos.max() < 1
    pairs = cKDTree(pos).query_pairs(radius, output_type="ndarray")
    assert len(pairs) > n // 4  # the case is not trivial
    assert edge_set(src, dst) == {tuple(p) for p in pairs.tolist()}
    assert np.all(src < dst)


def test_rgg_radius_choices():
    n = 2**14
    src, _, _ = gen.random_geometric_edges(n, seed=1, **CPU)
    # DIMACS radius 0.55 sqrt(ln n / n): expected degree ~ pi 0.3025 ln n (minus border)
    assert 0.8 < 2 * len(src) / n / (math.pi * 0.3025 * math.log(n)) < 1.01
    src, _, _ = gen.random_geometric_edges(n, avg_degree=12, seed=1, **CPU)
    assert 11.0 < 2 * len(src) / n < 12.2
    G = gen.random_geometric(2000, 0.05, seed=1, weights="distance", **CPU)
    s, d, w = G.edges()
    _, _, pos = gen.random_geometric_edges(2000, 0.05, seed=1, **CPU)
    assert np.allclose(w, np.linalg.norm(pos[s] - pos[d], axis=1)) and w.max() <= 0.05


# ---------------------------------------------------------------------------------- errors


@pytest.mark.parametrize(
    ("call", "match"),
    [
        (lambda: gen.kronecker_edges(-1, **CPU), "scale must be >= 0"),
        (lambda: gen.kronecker_edges(41, **CPU), "scale must be <= 40"),
        (lambda: gen.kronecker_edges(2.5, **CPU), "scale must be an integer"),
        (lambda: gen.kronecker_edges(4, -2, **CPU), "edgefactor must be >= 0"),
        (lambda: gen.kronecker_edges(4, seed=-1, **CPU), "seed must be a non-negative"),
        (lambda: gen.kronecker_edges(4, seed="x", **CPU), "seed must be None or"),
        (lambda: gen.kronecker(4, weights="heavy", **CPU), "weights must be None or one of"),
        (lambda: gen.rmat_edges(4, 2, 0.5, 0.5, 0.5, **CPU), "sum to 1"),
        (lambda: gen.rmat_edges(4, 2, 0.5, 0.2, 0.2, 0.2, **CPU), "sum to 1"),
        (lambda: gen.rmat_edges(4, 2, -0.1, 0.5, 0.5, **CPU), r"a must be in \[0, 1\]"),
        (lambda: gen.uniform_edges(-5, **CPU), "n must be >= 0"),
        (lambda: gen.uniform_edges(10, 5, edgefactor=2, **CPU), "not both"),
        (lambda: gen.uniform_edges(0, 5, **CPU), "no vertices"),
        (lambda: gen.erdos_renyi_edges(10, 1.5, **CPU), r"p must be in \[0, 1\]"),
        (lambda: gen.erdos_renyi_edges(10, -0.1, **CPU), r"p must be in \[0, 1\]"),
        (lambda: gen.erdos_renyi_edges(10, float("nan"), **CPU), r"p must be in \[0, 1\]"),
        (lambda: gen.grid_2d(-1, 3, **CPU), "rows must be >= 0"),
        (lambda: gen.grid_3d(2, 2, -2, **CPU), "z must be >= 0"),
        (lambda: gen.road_like(**CPU), "give n"),
        (lambda: gen.road_like(10, rows=3, **CPU), "not both"),
        (lambda: gen.road_like(100, avg_degree=3.9, **CPU), "avg_degree must be in"),
        (lambda: gen.road_like(100, jitter=0.5, **CPU), "jitter must be in"),
        (lambda: gen.random_geometric(100, 0.0, **CPU), "radius must be a finite number >"),
        (lambda: gen.random_geometric(100, 0.1, avg_degree=3, **CPU), "not both"),
        (lambda: gen.random_geometric(100, dim=3, **CPU), "give radius or avg_degree"),
        (lambda: gen.random_geometric(100, 0.1, dim=4, **CPU), "dim must be <= 3"),
        (lambda: gen.random_weights(-1, "gap", **CPU), "m must be >= 0"),
        (lambda: gen.random_weights(5, "normal", **CPU), "must be None or one of"),
        (lambda: gen.kronecker_edges(4, device="tpu"), "device must be one of"),
    ],
)
def test_bad_arguments_raise_clear_errors(call, match):
    with pytest.raises(InvalidArgumentError, match=match):
        call()


# ------------------------------------------------------------- CUDA source, run on the host

_HOST_SHIM = r"""
// Runs generators.cu on the host: one "thread" takes every grid-stride iteration.
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <vector>
#define __global__
#define __device__
#define __forceinline__ inline
#define __restrict__
struct D3 { unsigned x; };
static D3 blockIdx{0}, threadIdx{0}, gridDim{1}, blockDim{1};
static inline unsigned long long __umul64hi(unsigned long long a, unsigned long long b) {
  return (unsigned long long)(((unsigned __int128)a * b) >> 64);
}
template <typename T> static inline T __ldg(const T* p) { return *p; }
#include "generators.cu"
template <typename T> static void dump(const char* name, const std::vector<T>& v) {
  FILE* f = fopen(name, "wb"); fwrite(v.data(), sizeof(T), v.size(), f); fclose(f);
}
int main(int argc, char** argv) {
  u64 ke = strtoull(argv[1], 0, 10), kp = strtoull(argv[2], 0, 10), kw = strtoull(argv[3], 0, 10);
  int scale = atoi(argv[4]);
  i64 m = atoll(argv[5]), n = 1LL << scale;
  u64 ta = strtoull(argv[6], 0, 10), tab = strtoull(argv[7], 0, 10);
  u64 tabc = strtoull(argv[8], 0, 10);
  std::vector<u64> keys(n);
  wg_random_keys(kp, n, keys.data());
  std::sort(keys.begin(), keys.end());
  std::vector<int> perm(n), src(m), dst(m), gap(m);
  wg_counters_of<int>(keys.data(), kp, n, perm.data());
  wg_rmat_edges<int>(ke, scale, m, ta, tab, tabc, 1, perm.data(), src.data(), dst.data());
  std::vector<i64> us(m), ud(m);
  wg_uniform_edges<i64>(ke, (u64)n * 3 + 1, m, us.data(), ud.data());
  std::vector<float> unit(m);
  wg_gap_weights(kw, m, gap.data());
  wg_unit_weights(kw, m, unit.data());
  dump("src", src); dump("dst", dst); dump("usrc", us); dump("udst", ud);
  dump("gap", gap); dump("unit", unit);
  return 0;
}
"""


@pytest.mark.skipif(shutil.which("g++") is None, reason="needs g++")
def test_cuda_source_computes_what_the_cpu_computes(tmp_path):
    """Compile kernels/generators.cu as host C++ (GPU built-ins shimmed) and compare outputs.

    Catches any drift between the CUDA kernels and the Numba kernels without a GPU; the GPU
    tests below check the same on a device.
    """
    from warpgraph.generators._common import stream_keys
    from warpgraph.generators.kronecker import _thresholds

    kernels = Path(gen.__file__).parent / "kernels"
    (tmp_path / "shim.cpp").write_text(_HOST_SHIM)
    exe = tmp_path / "shim"
    subprocess.run(
        ["g++", "-O1", "-std=c++17", f"-I{kernels}", str(tmp_path / "shim.cpp"), "-o", str(exe)],
        check=True,
        capture_output=True,
    )
    seed, scale, ef = 12345, 11, 8
    m = ef << scale
    keys = stream_keys(seed)
    thresholds = _thresholds(0.57, 0.19, 0.19)
    args = [*keys[:3], scale, m, *thresholds]
    subprocess.run([str(exe), *map(str, args)], cwd=tmp_path, check=True)
    out = {name: tmp_path / name for name in ("src", "dst", "usrc", "udst", "gap", "unit")}
    src, dst = gen.kronecker_edges(scale, ef, seed=seed, **CPU)
    assert np.array_equal(src, np.fromfile(out["src"], np.int32))
    assert np.array_equal(dst, np.fromfile(out["dst"], np.int32))
    us, ud = gen.uniform_edges(3 * 2**scale + 1, m, seed=seed, **CPU)
    assert np.array_equal(us, np.fromfile(out["usrc"], np.int64))
    assert np.array_equal(ud, np.fromfile(out["udst"], np.int64))
    gap = gen.random_weights(m, "gap", seed=seed, **CPU)
    assert np.array_equal(gap, np.fromfile(out["gap"], np.int32))
    unit = gen.random_weights(m, "graph500", seed=seed, **CPU)
    assert np.array_equal(unit, np.fromfile(out["unit"], np.float32))


# ---------------------------------------------------------------------------------- GPU


@pytest.mark.gpu
@pytest.mark.parametrize("shuffle", [False, True])
def test_gpu_kronecker_equals_cpu(shuffle):
    cs, cd = gen.kronecker_edges(14, seed=12, shuffle=shuffle, device="cpu")
    gs, gd = gen.kronecker_edges(14, seed=12, shuffle=shuffle, device="gpu")
    assert type(gs).__module__.startswith("cupy")
    assert np.array_equal(cs, gs.get()) and np.array_equal(cd, gd.get())


@pytest.mark.gpu
def test_gpu_rmat_uniform_weights_permutation_equal_cpu():
    from warpgraph.generators import _gpu

    cases = [
        ((13, 4, 0.5, 0.25, 0.15, 0.1), {"permute": True}),
        ((31,), {"num_edges": 100_000}),  # int64 ids
    ]
    for args, kw in cases:
        c = gen.rmat_edges(*args, seed=3, device="cpu", **kw)
        g = gen.rmat_edges(*args, seed=3, device="gpu", **kw)
        assert c[0].dtype == g[0].dtype
        assert np.array_equal(c[0], g[0].get()) and np.array_equal(c[1], g[1].get())
    for n in (1000, 2**33):
        c = gen.uniform_edges(n, 50_000, seed=4, device="cpu")
        g = gen.uniform_edges(n, 50_000, seed=4, device="gpu")
        assert np.array_equal(c[0], g[0].get()) and np.array_equal(c[1], g[1].get())
    for kind in ("gap", "graph500"):
        assert np.array_equal(
            gen.random_weights(100_000, kind, seed=5, device="cpu"),
            gen.random_weights(100_000, kind, seed=5, device="gpu").get(),
        )
    key = np.uint64(77)
    assert np.array_equal(
        crng.random_permutation(key, 100_003), _gpu.random_permutation(key, 100_003).get()
    )


@pytest.mark.gpu
def test_gpu_graphs():
    G = gen.kronecker(12, seed=2, weights="gap", device="gpu")
    H = gen.kronecker(12, seed=2, weights="gap", device="cpu")
    assert G.device == "gpu" and G.num_edges == H.num_edges
    assert np.array_equal(G.indptr.get(), H.indptr) and np.array_equal(G.weights.get(), H.weights)
    for make in (
        lambda d: gen.uniform(5000, seed=1, device=d),
        lambda d: gen.grid_2d(30, 40, device=d),
        lambda d: gen.road_like(5000, seed=1, device=d),
        lambda d: gen.random_geometric(5000, seed=1, device=d),
        lambda d: gen.erdos_renyi(3000, 0.01, seed=1, device=d),
    ):
        g, h = make("gpu"), make("cpu")
        assert g.device == "gpu" and np.array_equal(g.indices.get(), h.indices)


# ---------------------------------------------------------------------------------- CLI


def test_cli_generate_writes_the_generated_graph(tmp_path):
    import warpgraph as wg
    from warpgraph.cli.main import main

    out = tmp_path / "k.mtx"
    argv = ["generate", "kronecker", "--scale", "8", "-o", str(out), "--seed", "3"]
    assert main([*argv, "--weights", "gap", "--device", "cpu"]) == 0
    G = wg.load(out)
    H = gen.kronecker(8, seed=3, weights="gap", **CPU)
    assert G.num_vertices == H.num_vertices and G.num_edges == H.num_edges
    assert np.array_equal(G.indices, H.indices) and np.array_equal(G.weights, H.weights)

    raw = tmp_path / "k.g500"
    argv = ["generate", "kron", "--scale", "6", "--multigraph", "-o", str(raw), "--seed", "3"]
    assert main([*argv, "--device", "cpu"]) == 0
    assert raw.stat().st_size == 16 * 16 * 2**6  # every generated edge, 16 bytes each

    road = tmp_path / "road.gr"
    assert main(["generate", "road", "--rows", "20", "-o", str(road), "--device", "cpu"]) == 0
    R = wg.load(road)
    assert R.num_vertices == 400 and R.is_weighted


@pytest.mark.parametrize(
    "argv",
    [
        ["generate", "grid2d", "--rows", "3", "--scale", "4"],  # parameter of another kind
        ["generate", "rgg"],  # missing -n
        ["generate", "nosuchkind"],
        ["generate", "kronecker", "--scale", "-1"],
        ["generate", "erdos-renyi", "-n", "10", "-p", "2"],
    ],
)
def test_cli_generate_rejects_bad_arguments(tmp_path, argv, capsys):
    from warpgraph.cli.main import main

    out = tmp_path / "x.mtx"
    assert main([*argv, "-o", str(out), "--device", "cpu"]) == 2
    assert not out.exists()


def test_generated_graphs_too_large_for_the_host_are_refused(monkeypatch):
    """The host's edge arrays are checked against its memory before they are allocated: an
    OutOfHostMemory naming the graph (the lattice's hint has no GPU way out: it is built on
    the host either way)."""
    from warpgraph import device as wdev
    from warpgraph.errors import OutOfHostMemory

    monkeypatch.setattr(wdev, "host_memory_available", lambda: 2**20)  # 1 MiB
    with pytest.raises(
        OutOfHostMemory,
        match=r"uniform random edge list \(16384 vertices, 262144 edges\).*device='gpu'",
    ):
        gen.uniform_edges(16384, edgefactor=16, device="cpu")
    with pytest.raises(OutOfHostMemory, match=r"scale-16 R-MAT edge list"):
        gen.kronecker(16, device="cpu")
    with pytest.raises(
        OutOfHostMemory, match=r"a 400 x 400 lattice \(160000 vertices, 319200 edges\)"
    ) as refused:
        gen.grid_2d(400, 400, device="cpu")
    assert "gpu" not in str(refused.value)
    assert gen.grid_2d(20, 30, device="cpu").num_vertices == 600  # (fits)
