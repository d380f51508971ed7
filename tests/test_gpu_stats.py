"""GPU degrees, degree statistics, BFS levels and WCC labels against NumPy / SciPy oracles.

Graphs are built on the host with SciPy (independent of the GPU CSR builder) and copied over.
"""

from __future__ import annotations

import numpy as np
import pytest
import scipy.sparse as sp
from scipy.sparse import csgraph

from warpgraph.errors import InvalidArgumentError

pytestmark = pytest.mark.gpu


@pytest.fixture(scope="module")
def cp():
    from warpgraph.device import cupy

    return cupy()


def scipy_csr(src, dst, n, directed=True):
    src, dst = np.asarray(src), np.asarray(dst)
    if not directed:
        src, dst = np.concatenate([src, dst]), np.concatenate([dst, src])
    A = sp.csr_matrix((np.ones(src.size, np.int32), (src, dst)), shape=(n, n))
    A.sum_duplicates()
    A.sort_indices()
    return A


def on_gpu(cp, A, index_dtype=np.int32):
    return cp.asarray(A.indptr.astype(np.int64)), cp.asarray(A.indices.astype(index_dtype))


def random_graph(seed, n, m, hub_arcs=0):
    rng = np.random.default_rng(seed)
    src, dst = rng.integers(0, n, m), rng.integers(0, n, m)
    if hub_arcs:
        src[:hub_arcs] = 0  # vertex 0 gets a huge adjacency list (warp-cooperative paths)
    return src, dst


GRAPHS = {
    "sparse-directed": (lambda: random_graph(0, 3000, 4000), 3000, True),
    "sparse-undirected": (lambda: random_graph(1, 3000, 2500), 3000, False),
    "hub": (lambda: random_graph(2, 20_000, 60_000, hub_arcs=5000), 20_000, True),
    "path": (lambda: (np.arange(4999, 0, -1), np.arange(4998, -1, -1)), 5000, False),
    "star+isolated": (lambda: (np.zeros(100, int), np.arange(1, 101)), 300, True),
    "loops-and-multi": (
        lambda: (np.array([0, 0, 1, 1, 2, 2]), np.array([0, 1, 2, 2, 2, 0])),
        4,
        True,
    ),
}


def gini_oracle(x):
    x = np.asarray(x, dtype=np.float64)
    if x.sum() == 0:
        return 0.0
    return np.abs(x[:, None] - x[None, :]).sum() / (2 * x.size**2 * x.mean())


# ---- degrees ---------------------------------------------------------------------------------


@pytest.mark.parametrize("index_dtype", [np.int32, np.int64])
@pytest.mark.parametrize("name", ["sparse-directed", "hub", "star+isolated", "loops-and-multi"])
def test_degree_stats(cp, name, index_dtype):
    from warpgraph.gpu.stats import degree_stats, in_degrees, out_degrees

    make, n, directed = GRAPHS[name]
    src, dst = make()
    A = scipy_csr(src, dst, n, directed)
    indptr, indices = on_gpu(cp, A, index_dtype)
    outd = np.diff(A.indptr)
    ind = np.bincount(A.indices, minlength=n)
    np.testing.assert_array_equal(out_degrees(indptr).get(), outd)
    got_in = in_degrees(indices, n)
    assert got_in.dtype == np.int64
    np.testing.assert_array_equal(got_in.get(), ind)
    s = degree_stats(indptr, indices, n)
    for key, d in (("out", outd), ("in", ind)):
        assert s[key]["min"] == d.min() and s[key]["max"] == d.max()
        assert s[key]["zeros"] == int((d == 0).sum())
        assert s[key]["mean"] == pytest.approx(d.mean(), rel=1e-12)
        assert s[key]["std"] == pytest.approx(d.std(), rel=1e-9)
        if n <= 5000:
            assert s[key]["gini"] == pytest.approx(gini_oracle(d), rel=1e-9, abs=1e-12)
    assert set(degree_stats(indptr, indices, n, in_degree=False)) == {"out"}


def test_degree_stats_edge_cases(cp):
    from warpgraph.gpu.stats import degree_stats, summarize_degrees

    empty = summarize_degrees(cp.zeros(0, dtype=cp.int64))
    assert empty == {"min": 0, "max": 0, "mean": 0.0, "std": 0.0, "gini": 0.0, "zeros": 0}
    ip = cp.zeros(4, dtype=cp.int64)
    s = degree_stats(ip, cp.zeros(0, dtype=cp.int32), 3)
    assert s["out"]["gini"] == 0.0 and s["in"]["zeros"] == 3
    equal = summarize_degrees(cp.full(10, 4, dtype=cp.int64))
    assert equal["gini"] == pytest.approx(0.0, abs=1e-12) and equal["std"] == 0.0
    one_hub = summarize_degrees(cp.asarray(np.r_[np.zeros(9), 5]).astype(cp.int64))
    assert one_hub["gini"] == pytest.approx(0.9)  # (n - 1) / n
    with pytest.raises(InvalidArgumentError, match="n \\+ 1"):
        degree_stats(ip, cp.zeros(0, dtype=cp.int32), 5)
    with pytest.raises(InvalidArgumentError, match="CuPy"):
        degree_stats(np.zeros(4, np.int64), np.zeros(0, np.int32), 3)
    with pytest.raises(InvalidArgumentError, match="int64"):
        degree_stats(ip.astype(cp.int32), cp.zeros(0, dtype=cp.int32), 3)


# ---- BFS -------------------------------------------------------------------------------------


def levels_oracle(A, source):
    d = csgraph.shortest_path(A, method="D", directed=True, unweighted=True, indices=source)
    return np.where(np.isinf(d), -1, d).astype(np.int32)


@pytest.mark.parametrize("index_dtype", [np.int32, np.int64])
@pytest.mark.parametrize("name", list(GRAPHS))
def test_bfs_levels(cp, name, index_dtype):
    from warpgraph.gpu.stats import bfs_levels

    make, n, directed = GRAPHS[name]
    src, dst = make()
    A = scipy_csr(src, dst, n, directed)
    indptr, indices = on_gpu(cp, A, index_dtype)
    rng = np.random.default_rng(7)
    sources = {0, n - 1, *rng.integers(0, n, 3).tolist()}
    for s in sorted(sources):
        got = bfs_levels(indptr, indices, s)
        assert got.dtype == np.int32
        np.testing.assert_array_equal(got.get(), levels_oracle(A, s), err_msg=f"source {s}")


def test_bfs_large_random(cp):
    from warpgraph.gpu.stats import bfs_levels

    src, dst = random_graph(8, 200_000, 1_000_000, hub_arcs=50_000)
    A = scipy_csr(src, dst, 200_000, directed=False)
    indptr, indices = on_gpu(cp, A)
    np.testing.assert_array_equal(bfs_levels(indptr, indices, 5).get(), levels_oracle(A, 5))


def test_bfs_errors(cp):
    from warpgraph.gpu.stats import bfs_levels

    A = scipy_csr([0], [1], 2)
    indptr, indices = on_gpu(cp, A)
    for bad in (-1, 2):
        with pytest.raises(InvalidArgumentError, match="not a vertex"):
            bfs_levels(indptr, indices, bad)
    with pytest.raises(InvalidArgumentError, match="int"):
        bfs_levels(indptr, indices, 0.0)
    with pytest.raises(InvalidArgumentError, match="int32 or int64"):
        bfs_levels(indptr, indices.astype(cp.int16), 0)


# ---- WCC -------------------------------------------------------------------------------------


def wcc_oracle(A):
    """Label of each vertex = smallest vertex id in its weak component."""
    _, comp = csgraph.connected_components(A, directed=True, connection="weak")
    first = np.full(comp.max() + 1, A.shape[0])
    np.minimum.at(first, comp, np.arange(A.shape[0]))
    return first[comp]


@pytest.mark.parametrize("index_dtype", [np.int32, np.int64])
@pytest.mark.parametrize("name", list(GRAPHS))
def test_wcc_labels(cp, name, index_dtype):
    from warpgraph.gpu.stats import num_components, wcc_labels

    make, n, directed = GRAPHS[name]
    src, dst = make()
    A = scipy_csr(src, dst, n, directed)
    indptr, indices = on_gpu(cp, A, index_dtype)
    want = wcc_oracle(A)
    got = wcc_labels(indptr, indices, n)
    assert got.dtype == index_dtype
    np.testing.assert_array_equal(got.get(), want)
    assert num_components(got) == len(np.unique(want))
    if not directed:
        np.testing.assert_array_equal(wcc_labels(indptr, indices, symmetric=True).get(), want)


@pytest.mark.parametrize("seed", range(3))
def test_wcc_large_concurrent(cp, seed):
    """Many concurrent hooks on few big components (stress for the lock-free union-find)."""
    from warpgraph.gpu.stats import wcc_labels

    n = 300_000
    rng = np.random.default_rng(seed)
    # ~n/2 random arcs leave many components; reversed chains make long parent paths
    src = np.concatenate([rng.integers(0, n, n // 2), np.arange(n - 1, 200_000, -1)])
    dst = np.concatenate([rng.integers(0, n, n // 2), np.arange(n - 2, 199_999, -1)])
    A = scipy_csr(src, dst, n, directed=True)
    indptr, indices = on_gpu(cp, A)
    np.testing.assert_array_equal(wcc_labels(indptr, indices).get(), wcc_oracle(A))


def test_wcc_empty(cp):
    from warpgraph.gpu.stats import wcc_labels

    got = wcc_labels(cp.zeros(1, dtype=cp.int64), cp.zeros(0, dtype=cp.int32))
    assert got.size == 0
    got = wcc_labels(cp.zeros(4, dtype=cp.int64), cp.zeros(0, dtype=cp.int32))
    assert got.get().tolist() == [0, 1, 2]
