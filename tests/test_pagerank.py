"""pagerank against NetworkX, a dense by-definition reference, an exact linear solve and the
verifier, on both backends (the GPU runs skip without a GPU).

Tolerances. The power step ``F`` is an ``alpha``-contraction in L1, so a run that stops at
``|x_k - x_{k-1}|_1 < n * tol`` is within ``alpha / (1 - alpha) * n * tol`` of the fixed point
(``|x_k - x*| <= |x_k - F(x_k)| + |F(x_k) - F(x*)| <= alpha n tol + alpha |x_k - x*|``); two such
runs are within twice that of each other. Runs of the same iteration that stop on the same step
differ only by rounding (each step is non-expansive, so ~1e-16 per step), hence 1e-12.
"""

from __future__ import annotations

import itertools
import subprocess
import sys

import networkx as nx
import numpy as np
import pytest
import scipy.sparse as sps
from hypothesis import given
from hypothesis import strategies as st
from scipy.sparse.linalg import spsolve

import warpgraph as wg
from warpgraph.algorithms.pagerank import pagerank
from warpgraph.algorithms.pagerank.api import PageRankInputs, prepare
from warpgraph.algorithms.pagerank.reference import pagerank_reference
from warpgraph.algorithms.pagerank.verify import power_step, verify_pagerank
from warpgraph.errors import ConvergenceError, InvalidArgumentError, VerificationError

DEVICES = ["cpu", pytest.param("gpu", marks=pytest.mark.gpu)]
WEIGHTS = [0.0, 0.25, 1.0, 2.0, 7.5]  # 0 on purpose: a vertex whose arcs all weigh 0 dangles


def host(x):
    return x.get() if hasattr(x, "get") else np.asarray(x)


@st.composite
def cases(draw, max_n: int = 12, max_m: int = 40):
    """(n, src, dst, weights or None, directed): self-loops, parallel edges, isolated and
    dangling vertices included on purpose."""
    n = draw(st.integers(1, max_n))
    directed = draw(st.booleans())
    m = draw(st.integers(0, max_m))
    ids = st.lists(st.integers(0, n - 1), min_size=m, max_size=m)
    src = np.array(draw(ids), np.int64)
    dst = np.array(draw(ids), np.int64)
    w = None
    if draw(st.booleans()):
        w = np.array(draw(st.lists(st.sampled_from(WEIGHTS), min_size=m, max_size=m)), float)
    return n, src, dst, w, directed


def vectors(n: int):
    """None or a non-negative vector of length n with a positive sum (not normalized)."""
    entries = st.lists(st.sampled_from([0.0, 0.5, 1.0, 3.0]), min_size=n, max_size=n)
    return st.none() | entries.filter(lambda v: sum(v) > 0).map(np.array)


def graph(n, src, dst, w, directed):
    return wg.Graph.from_edges(src, dst, weights=w, num_vertices=n, directed=directed)


def nx_graph(n, src, dst, w, directed):
    H = nx.MultiDiGraph() if directed else nx.MultiGraph()
    H.add_nodes_from(range(n))
    ws = np.ones(len(src)) if w is None else w
    for u, v, x in zip(src.tolist(), dst.tolist(), ws.tolist(), strict=True):
        H.add_edge(u, v, weight=x)
    return H


def as_dict(v):
    return None if v is None else dict(enumerate(np.asarray(v, float).tolist()))


def nx_run(H, max_iter, **kw):
    """(ranks, True) from NetworkX's own pagerank, or (None, False) if it fails to converge."""
    n = H.number_of_nodes()
    for key in ("personalization", "nstart", "dangling"):
        kw[key] = as_dict(kw.get(key))
    try:
        r = nx.pagerank(H, max_iter=max_iter, backend="networkx", **kw)
    except nx.PowerIterationFailedConvergence:
        return None, False
    return np.array([r[v] for v in range(n)]), True


def nx_run_near(H, steps, **kw):
    """NetworkX's ranks and step count, which must lie within one of ``steps``: the least
    ``max_iter`` in ``steps - 1 .. steps + 1`` it converges within, and not within one fewer."""
    for k in (steps - 1, steps, steps + 1):
        ranks, ok = nx_run(H, k, **kw)
        if ok:
            assert k == 0 or not nx_run(H, k - 1, **kw)[1], f"NetworkX took < {k} steps"
            return ranks, k
    raise AssertionError(f"NetworkX needs more than {steps + 1} steps, warpgraph {steps}")


def exact_pagerank(n, src, dst, w, directed, alpha, personalization=None, dangling=None):
    """The fixed point by a sparse linear solve (alpha < 1):
    ``(I - alpha * (P^T + d 1_dangling^T)) x = (1 - alpha) p``."""
    w = np.ones(len(src)) if w is None else np.asarray(w, float)
    if not directed:
        off = src != dst
        src, dst, w = np.r_[src, dst[off]], np.r_[dst, src[off]], np.r_[w, w[off]]
    A = sps.csr_array(sps.coo_array((w, (src, dst)), shape=(n, n)))
    s = A.sum(axis=1)
    dang = s == 0
    inv = np.where(dang, 0.0, 1.0 / np.where(dang, 1.0, s))
    Pt = (sps.diags_array(inv) @ A).T
    p = np.full(n, 1 / n) if personalization is None else personalization / personalization.sum()
    d = p if dangling is None else dangling / dangling.sum()
    M = sps.identity(n, format="csc") - alpha * sps.csc_array(Pt + np.outer(d, dang))
    return np.atleast_1d(spsolve(M, (1 - alpha) * p))


def assert_same_iteration(x, steps, y, y_steps, n, alpha, tol):
    """Two runs of NetworkX's iteration from the same start: the same step count within one;
    the same values within rounding if the counts agree, within the stopping bound if not."""
    x, y = host(x), host(y)
    assert abs(steps - y_steps) <= 1, (steps, y_steps)
    if steps == y_steps:
        np.testing.assert_allclose(x, y, rtol=0, atol=1e-12)
    assert np.abs(x - y).sum() <= 2 * alpha / (1 - alpha) * n * tol + 1e-12


# -- oracles -----------------------------------------------------------------------------------


@pytest.mark.parametrize("device", DEVICES)
@given(case=cases(), data=st.data())
def test_matches_networkx_and_reference(device, case, data):
    n, src, dst, w, directed = case
    alpha = data.draw(st.sampled_from([0.5, 0.85, 0.95]))
    p = data.draw(vectors(n))
    d = data.draw(vectors(n))
    x0 = data.draw(vectors(n))
    tol = 1e-10
    kw = dict(alpha=alpha, personalization=p, nstart=x0, dangling=d, tol=tol)
    G = graph(n, src, dst, w, directed)
    ranks, steps = pagerank(G, device=device, max_iter=1000, return_iterations=True, **kw)
    verify_pagerank(G, ranks, alpha=alpha, personalization=p, dangling=d, tol=tol)
    x = host(ranks)
    assert x.dtype == np.float64 and x.shape == (n,)
    assert abs(x.sum() - 1) < 1e-12
    ref, ref_steps = pagerank_reference(n, src, dst, w, directed=directed, max_iter=1000, **kw)
    assert_same_iteration(x, steps, ref, ref_steps, n, alpha, tol)
    want, nx_steps = nx_run_near(nx_graph(n, src, dst, w, directed), steps, **kw)
    assert_same_iteration(x, steps, want, nx_steps, n, alpha, tol)


@pytest.mark.parametrize("device", DEVICES)
@given(case=cases(max_n=10, max_m=30), weighted=st.booleans())
def test_weighted_false_matches_networkx_weight_none(device, case, weighted):
    n, src, dst, w, directed = case
    G = graph(n, src, dst, w, directed)
    got = host(pagerank(G, device=device, weighted=weighted, tol=1e-11, max_iter=1000))
    H = nx_graph(n, src, dst, w, directed)
    want, ok = nx_run(H, 1000, tol=1e-11, weight="weight" if weighted else None)
    assert ok
    np.testing.assert_allclose(got, want, rtol=0, atol=2 * 0.85 / 0.15 * n * 1e-11)
    verify_pagerank(G, got, tol=1e-11, weighted=weighted)


@pytest.mark.parametrize("device", DEVICES)
@pytest.mark.parametrize("seed", range(6))
def test_exact_linear_solve(device, seed):
    """A tiny tolerance against the fixed point solved directly, with personalization and
    dangling vectors that have zeros, weights, dangling and isolated vertices."""
    rng = np.random.default_rng(seed)
    n = int(rng.integers(2, 40))
    m = int(rng.integers(0, 3 * n))
    src, dst = rng.integers(0, n, m), rng.integers(0, n, m)
    w = rng.choice([0.0, 0.5, 1.0, 4.0], m) if seed % 2 else None
    directed = seed % 3 != 0
    alpha = [0.5, 0.85, 0.99][seed % 3]
    p = rng.choice([0.0, 1.0, 2.0], n) if seed >= 2 else None
    d = rng.choice([0.0, 1.0, 5.0], n) if seed >= 4 else None
    if p is not None:
        p[0] = 1.0
    if d is not None:
        d[-1] = 1.0
    tol = 1e-12
    G = graph(n, src, dst, w, directed)
    got = host(
        pagerank(G, alpha, personalization=p, dangling=d, tol=tol, max_iter=10_000, device=device)
    )
    want = exact_pagerank(n, src, dst, w, directed, alpha, p, d)
    assert np.abs(got - want).sum() <= alpha / (1 - alpha) * n * tol + 1e-12
    verify_pagerank(G, got, alpha=alpha, personalization=p, dangling=d, tol=tol)


@pytest.mark.parametrize("device", DEVICES)
def test_skewed_graph_matches_networkx(device):
    """A Kronecker multigraph (hubs, self-loops, repeated arcs, isolated vertices)."""
    s, d = wg.generators.kronecker_edges(10, 8, seed=5, device="cpu")
    s, d = np.asarray(s, np.int64), np.asarray(d, np.int64)
    w = np.random.default_rng(1).random(s.size) + 0.01
    n = int(max(s.max(), d.max())) + 1
    for directed in (True, False):
        G = graph(n, s, d, w, directed)
        ranks = pagerank(G, device=device, tol=1e-10, max_iter=500)
        verify_pagerank(G, ranks, tol=1e-10)
        want, ok = nx_run(nx_graph(n, s, d, w, directed), 500, tol=1e-10)
        assert ok
        assert np.abs(host(ranks) - want).sum() <= 2 * 0.85 / 0.15 * n * 1e-10


def test_cpu_uniform_teleport_is_the_array_path_bit_for_bit():
    """The CPU kernel reads a uniform teleport / dangling distribution as one float: the same
    arithmetic as the arrays of ``1 / n``, so the same ranks and steps, bit for bit (at a fixed
    thread count: the sums over vertices are split by thread)."""
    import numba

    from warpgraph.algorithms.pagerank import cpu

    s, d = wg.generators.kronecker_edges(10, 8, seed=5, device="cpu")
    w = np.random.default_rng(2).random(s.size) + 0.01
    threads = numba.get_num_threads()
    for directed, weighted, t in itertools.product((True, False), (True, False), {1, threads}):
        G = wg.Graph.from_edges(s, d, weights=w, directed=directed)
        n = G.num_vertices

        def run(inputs):
            return cpu.power_iteration(inputs, 0.85, 500, 1e-12)

        numba.set_num_threads(t)
        try:
            inputs = prepare(G, weighted=weighted)
            assert inputs.uniform_teleport and inputs.uniform_dangling
            want = run(inputs)
            inputs.uniform_teleport = inputs.uniform_dangling = False  # the array path
            assert_identical(want, run(inputs))
            for explicit in ({"personalization": np.ones(n)}, {"dangling": np.full(n, 3.0)}):
                assert_identical(want, run(prepare(G, weighted=weighted, **explicit)))
        finally:
            numba.set_num_threads(threads)


def test_cpu_unit_weights_read_degrees_bit_for_bit():
    """With unit weights the CPU step divides by the out-degree (from ``G.indptr``) instead of
    reading ``inv_out`` and ``dangling``, and the set-up computes those in one compiled pass:
    the same bits as NumPy's ``1 / s`` and the array path, on graphs with dangling vertices,
    both dtypes, directed or not, at 1 thread and all."""
    import numba

    from warpgraph.algorithms.pagerank import cpu

    s, d = wg.generators.kronecker_edges(10, 8, seed=7, device="cpu")
    threads = numba.get_num_threads()
    for directed, dtype, t in itertools.product(
        (True, False), (np.float64, np.float32), {1, threads}
    ):
        G = wg.Graph.from_edges(s, d, num_vertices=1100, directed=directed)  # 76+ isolated
        out = np.diff(G.indptr).astype(np.float64)
        numba.set_num_threads(t)
        try:
            inputs = prepare(G, dtype=dtype)
            assert inputs.out_indptr is G.indptr and inputs.dangling.any()
            assert np.array_equal(inputs.dangling, out == 0)
            with np.errstate(divide="ignore"):
                want_inv = np.where(out == 0, 0.0, 1.0 / out)
            assert inputs.inv_out.tobytes() == want_inv.tobytes()
            assert inputs.start is inputs.teleport  # uniform: one read-only array
            want = cpu.power_iteration(inputs, 0.85, 500, 1e-12)
            inputs.out_indptr = None  # the inv_out / dangling arrays' path
            assert_identical(want, cpu.power_iteration(inputs, 0.85, 500, 1e-12))
        finally:
            numba.set_num_threads(threads)
    G = wg.Graph.from_edges(s, d, weights=np.ones(s.size), directed=True)
    assert prepare(G).out_indptr is None and prepare(G, weighted=False).out_indptr is G.indptr
    x0 = np.arange(1.0, G.num_vertices + 1)
    given = prepare(G, nstart=x0)
    assert given.start is not given.teleport
    np.testing.assert_array_equal(given.start, x0 / x0.sum())


def assert_identical(a, b):
    """Two (ranks, steps) runs equal bit for bit."""
    assert a[1] == b[1]
    assert host(a[0]).tobytes() == host(b[0]).tobytes()


@pytest.mark.parametrize("device", DEVICES)
def test_hub_and_every_tail_length(device):
    """One vertex pulls from all others (a long in-arc list) and the rest have in-degrees 0-9
    (each remainder of the 4-way unrolled sum), weighted and not, against the dense reference."""
    n = 600
    rng = np.random.default_rng(4)
    src = [np.arange(1, n)]
    dst = [np.zeros(n - 1, np.int64)]
    for v in range(1, n):
        k = v % 10
        src.append(rng.integers(0, n, k))
        dst.append(np.full(k, v))
    src, dst = np.concatenate(src), np.concatenate(dst)
    w = rng.random(src.size) + 0.5
    for weights in (None, w):
        G = wg.Graph.from_edges(src, dst, weights=weights, num_vertices=n, directed=True)
        x, steps = pagerank(G, device=device, tol=1e-12, max_iter=500, return_iterations=True)
        r, r_steps = pagerank_reference(n, src, dst, weights, tol=1e-12, max_iter=500)
        assert_same_iteration(x, steps, r, r_steps, n, 0.85, 1e-12)


@pytest.mark.gpu
def test_gpu_matches_cpu():
    s, d = wg.generators.kronecker_edges(12, 16, seed=3, device="cpu")
    for directed in (True, False):
        G = wg.Graph.from_edges(s, d, directed=directed)
        n = G.num_vertices
        x, k = pagerank(G, device="gpu", tol=1e-9, return_iterations=True)
        y, j = pagerank(G, device="cpu", tol=1e-9, return_iterations=True)
        assert_same_iteration(x, k, y, j, n, 0.85, 1e-9)


@pytest.mark.gpu
@pytest.mark.parametrize("batch", [2, 3, 8])
def test_gpu_batched_steps_match_one_read_back_per_step(batch):
    """Queuing several steps between read-backs gives the step count and ranks of reading the
    change after every step, whether the run stops inside a batch, on its last step, or at
    ``max_iter``; a hub (in-degree above HEAVY_DEGREE) and dangling vertices exercise both
    kernels and the carried dangling rank. Ranks agree to rounding, not bit for bit: the
    blocks' atomic additions of the change and the dangling rank land in any order."""
    from warpgraph.algorithms.pagerank import gpu

    hub = gpu.HEAVY_DEGREE + 50
    s, d = wg.generators.kronecker_edges(11, 8, seed=5, device="cpu")
    s = np.concatenate([s, np.arange(1, hub + 1)])
    d = np.concatenate([d, np.zeros(hub, dtype=d.dtype)])
    G = wg.Graph.from_edges(s, d, num_vertices=2**11 + 10, directed=True).to("gpu")
    inputs = prepare(G)
    want, steps = gpu.power_iteration(inputs, 0.85, 1000, 1e-13, batch=1)
    assert steps > 2 * batch  # (the run spans several batches)
    for max_iter in (steps, steps + 1, steps + batch):
        x, k = gpu.power_iteration(inputs, 0.85, max_iter, 1e-13, batch=batch)
        assert k == steps
        np.testing.assert_allclose(host(x), host(want), rtol=0, atol=1e-15)
    with pytest.raises(ConvergenceError):
        gpu.power_iteration(inputs, 0.85, steps - 1, 1e-13, batch=batch)
    # tol 0: never below, every step runs; max_iter 0: none does
    for max_iter in (0, 5):
        with pytest.raises(ConvergenceError):
            gpu.power_iteration(inputs, 0.85, max_iter, 0.0, batch=batch)


# -- structure: directions, weights, loops, parallel arcs ---------------------------------------


def test_undirected_is_both_directions_and_a_loop_counts_once(device):
    """Edges (0,1), (1,2), (1,1): vertex 1 splits its rank 1/3 each to 0, 2 and itself; a loop
    counted twice would give it 2/4 to itself."""
    U = wg.Graph.from_edges([0, 1, 1], [1, 2, 1], directed=False)
    D = wg.Graph.from_edges([0, 1, 1, 2, 1], [1, 0, 2, 1, 1], directed=True)
    D2 = wg.Graph.from_edges([0, 1, 1, 2, 1, 1], [1, 0, 2, 1, 1, 1], directed=True)
    kw = dict(tol=1e-12, max_iter=1000, device=device)
    u, d = host(pagerank(U, **kw)), host(pagerank(D, **kw))
    np.testing.assert_allclose(u, d, rtol=0, atol=1e-13)
    assert np.abs(u - host(pagerank(D2, **kw))).max() > 1e-3
    np.testing.assert_allclose(
        u, exact_pagerank(3, *map(np.array, ([0, 1, 1], [1, 2, 1])), None, False, 0.85), atol=1e-10
    )


def test_parallel_arcs_add(device):
    """Two arcs 0->1 and one 0->2 equal weights 2 and 1, not a simple graph."""
    multi = wg.Graph.from_edges([0, 0, 0, 1, 2], [1, 1, 2, 0, 0], directed=True)
    weighted = wg.Graph.from_edges([0, 0, 1, 2], [1, 2, 0, 0], weights=[2.0, 1, 1, 1])
    simple = wg.Graph.from_edges([0, 0, 1, 2], [1, 2, 0, 0])
    kw = dict(tol=1e-12, max_iter=1000, device=device)
    m = host(pagerank(multi, **kw))
    np.testing.assert_allclose(m, host(pagerank(weighted, **kw)), rtol=0, atol=1e-13)
    assert np.abs(m - host(pagerank(simple, **kw))).max() > 1e-2
    assert m[1] > m[2]


def test_weighted_false_ignores_weights(device):
    src, dst = [0, 0, 1, 2, 3], [1, 2, 2, 0, 0]
    W = wg.Graph.from_edges(src, dst, weights=[9.0, 1.0, 1.0, 1.0, 0.0])
    U = wg.Graph.from_edges(src, dst)
    kw = dict(tol=1e-12, max_iter=1000, device=device)
    np.testing.assert_array_equal(host(pagerank(W, weighted=False, **kw)), host(pagerank(U, **kw)))
    weighted = host(pagerank(W, **kw))
    assert np.abs(weighted - host(pagerank(U, **kw))).max() > 1e-2
    # vertex 3's only arc weighs 0: it dangles (its rank goes to the personalization)
    np.testing.assert_allclose(
        weighted,
        exact_pagerank(4, np.array(src[:4]), np.array(dst[:4]), [9.0, 1, 1, 1], True, 0.85),
        atol=1e-10,
    )


def test_integer_weights(device):
    src, dst = [0, 0, 1, 2], [1, 2, 2, 0]
    G = wg.Graph.from_edges(src, dst, weights=np.array([3, 1, 2, 5], np.int64))
    F = wg.Graph.from_edges(src, dst, weights=np.array([3.0, 1, 2, 5]))
    np.testing.assert_allclose(
        host(pagerank(G, device=device)), host(pagerank(F, device=device)), atol=1e-15
    )


def test_out_weights_exact_per_row(device):
    """A light row after a heavy one keeps its own out-weight (differences of one prefix sum
    over all arcs would give 1e17 + 4 - 1e17 = 0 and make vertex 1 dangle)."""
    src, dst = np.array([0, 1, 1, 2]), np.array([1, 0, 2, 0])
    w = np.array([1e17, 1.0, 3.0, 1.0])
    G = wg.Graph.from_edges(src, dst, weights=w).to(device)
    inputs = prepare(G)
    assert host(inputs.dangling).tolist() == [False, False, False]
    np.testing.assert_allclose(host(inputs.inv_out), [1e-17, 0.25, 1.0], rtol=1e-15)
    got = host(pagerank(G, tol=1e-12, max_iter=1000, device=device))
    np.testing.assert_allclose(got, exact_pagerank(3, src, dst, w, True, 0.85), atol=1e-10)


def test_isolated_and_all_dangling(device):
    # no arcs: every vertex dangles, so x' = alpha * d + (1 - alpha) * p whatever x is
    G = wg.Graph.from_edges([], [], num_vertices=4)
    p = np.array([1.0, 0.0, 1.0, 2.0])
    d = np.array([0.0, 1.0, 0.0, 0.0])
    ranks, steps = pagerank(G, personalization=p, device=device, return_iterations=True)
    np.testing.assert_allclose(host(ranks), p / 4, rtol=1e-15)
    assert steps == 2  # uniform start -> p -> p
    got = host(pagerank(G, personalization=p, dangling=d, device=device))
    np.testing.assert_allclose(got, 0.85 * d + 0.15 * p / 4, rtol=1e-15)
    # loops-only undirected graph with isolated vertices: loops keep rank, isolated ones dangle
    L = wg.Graph.from_edges([0, 2], [0, 2], num_vertices=5, directed=False)
    want = exact_pagerank(5, np.array([0, 2]), np.array([0, 2]), None, False, 0.85)
    got = host(pagerank(L, device=device, tol=1e-12, max_iter=1000))
    np.testing.assert_allclose(got, want, atol=1e-10)
    assert got[0] > got[1]


def test_single_vertex_and_empty_graph(device):
    for G in (
        wg.Graph.from_edges([], [], num_vertices=1),
        wg.Graph.from_edges([0, 0], [0, 0], num_vertices=1, directed=False),
    ):
        ranks, steps = pagerank(G, device=device, return_iterations=True)
        assert host(ranks).tolist() == [1.0] and steps == 1
    E = wg.Graph.from_edges([], [], num_vertices=0)
    ranks, steps = pagerank(E, device=device, return_iterations=True)
    assert host(ranks).shape == (0,) and host(ranks).dtype == np.float64 and steps == 0
    assert host(pagerank(E, device=device)).shape == (0,)
    verify_pagerank(E, ranks)
    assert pagerank_reference(0, [], [])[1] == 0


def test_result_lives_on_device(device):
    G = wg.Graph.from_edges([0, 1, 2], [1, 2, 0])
    ranks = pagerank(G, device=device)
    if device == "gpu":
        import cupy

        assert isinstance(ranks, cupy.ndarray)
    else:
        assert isinstance(ranks, np.ndarray)
    assert ranks.dtype == np.float64
    np.testing.assert_allclose(host(ranks), [1 / 3] * 3, rtol=1e-15)


def test_docstring_example_values():
    G = wg.Graph.from_edges([0, 1], [2, 2], num_vertices=3, directed=True)
    ranks, steps = pagerank(G, device="cpu", return_iterations=True)
    ref, ref_steps = pagerank_reference(3, [0, 1], [2, 2])
    assert steps == ref_steps == 23
    np.testing.assert_allclose(ranks, ref, atol=1e-15)


# -- vectors and parameters --------------------------------------------------------------------


def small_graph():
    """Directed: a 4-cycle with a chord, a dangling vertex 4 and an isolated vertex 5."""
    return wg.Graph.from_edges([0, 1, 2, 3, 0, 2], [1, 2, 3, 0, 2, 4], num_vertices=6)


SMALL = (6, np.array([0, 1, 2, 3, 0, 2]), np.array([1, 2, 3, 0, 2, 4]))


def test_personalization_is_normalized(device):
    G = small_graph()
    p = np.array([1.0, 0, 0, 2, 0, 1])
    kw = dict(tol=1e-12, max_iter=1000, device=device)
    a = host(pagerank(G, personalization=p, **kw))
    b = host(pagerank(G, personalization=(7 * p).tolist(), **kw))
    np.testing.assert_allclose(a, b, rtol=1e-13)
    np.testing.assert_allclose(a, exact_pagerank(*SMALL, None, True, 0.85, p), atol=1e-10)
    assert np.abs(a - host(pagerank(G, **kw))).max() > 1e-2
    assert a[5] > 0 and a[1] > 0


def test_dangling_vector(device):
    G = small_graph()
    d = np.array([0.0, 0, 0, 0, 0, 3])
    kw = dict(tol=1e-12, max_iter=1000, device=device)
    a = host(pagerank(G, dangling=d, **kw))
    np.testing.assert_allclose(a, host(pagerank(G, dangling=d / 3, **kw)), rtol=1e-13)
    np.testing.assert_allclose(a, exact_pagerank(*SMALL, None, True, 0.85, None, d), atol=1e-10)
    assert np.abs(a - host(pagerank(G, **kw))).max() > 1e-3
    # a dangling vector replaces the personalization only for dangling rank
    p = np.array([0.0, 1, 0, 0, 0, 0])
    b = host(pagerank(G, personalization=p, dangling=d, **kw))
    np.testing.assert_allclose(b, exact_pagerank(*SMALL, None, True, 0.85, p, d), atol=1e-10)


def test_nstart(device):
    G = small_graph()
    kw = dict(tol=1e-12, max_iter=1000, device=device, return_iterations=True)
    x, steps = pagerank(G, **kw)
    x = host(x)
    # started at the fixed point (scaled: nstart is normalized), one step suffices
    y, one = pagerank(G, nstart=5 * x, **kw)
    assert one == 1
    np.testing.assert_allclose(host(y), x, atol=1e-12)
    # a far start takes more steps to the same point
    z, more = pagerank(G, nstart=[0, 0, 0, 0, 0, 1.0], **kw)
    assert more != steps
    np.testing.assert_allclose(host(z), x, atol=2 * 0.85 / 0.15 * 6 * 1e-12)
    r, r_steps = pagerank_reference(*SMALL, nstart=[0, 0, 0, 0, 0, 1.0], tol=1e-12, max_iter=1000)
    assert_same_iteration(z, more, r, r_steps, 6, 0.85, 1e-12)


def test_alpha_zero_is_the_personalization(device):
    G = small_graph()
    p = np.array([3.0, 0, 1, 0, 0, 1])
    ranks, steps = pagerank(G, 0.0, personalization=p, device=device, return_iterations=True)
    np.testing.assert_allclose(host(ranks), p / p.sum(), rtol=1e-15, atol=0)
    assert steps == 2
    assert host(pagerank(G, 0, device=device)).tolist() == [1 / 6] * 6


def test_alpha_one_stationary_distribution(device):
    """alpha = 1 on a strongly connected aperiodic graph: the random walk's stationary
    distribution, the null vector of ``I - P^T`` normalized."""
    src, dst = np.array([0, 1, 2, 3, 0, 2, 3]), np.array([1, 2, 3, 0, 2, 0, 3])
    w = np.array([1.0, 2, 1, 1, 3, 1, 0.5])
    G = wg.Graph.from_edges(src, dst, weights=w, num_vertices=4)
    A = np.zeros((4, 4))
    np.add.at(A, (src, dst), w)
    M = np.eye(4) - (A / A.sum(1, keepdims=True)).T
    M[-1] = 1.0
    want = np.linalg.solve(M, [0, 0, 0, 1.0])
    got, steps = pagerank(G, 1.0, tol=1e-14, max_iter=5000, device=device, return_iterations=True)
    np.testing.assert_allclose(host(got), want, atol=1e-11)
    assert steps > 10
    verify_pagerank(G, got, alpha=1.0, tol=1e-14)


def test_alpha_one_periodic_does_not_converge(device):
    G = wg.Graph.from_edges([0, 1], [1, 0])
    with pytest.raises(ConvergenceError) as info:
        pagerank(G, 1, nstart=[1.0, 0.0], device=device)
    assert info.value.iterations == 100
    # the uniform start is already stationary
    assert host(pagerank(G, 1, device=device)).tolist() == [0.5, 0.5]


def test_return_iterations(device):
    G = small_graph()
    ranks, steps = pagerank(G, device=device, return_iterations=True)
    assert type(steps) is int and steps > 1
    np.testing.assert_array_equal(host(ranks), host(pagerank(G, device=device)))
    _, tighter = pagerank(G, device=device, tol=1e-10, return_iterations=True)
    assert tighter > steps


def test_convergence_error_and_exact_max_iter(device):
    G = small_graph()
    _, steps = pagerank(G, device=device, return_iterations=True)
    # exactly `steps` steps suffice; one fewer does not
    assert pagerank(G, device=device, max_iter=steps, return_iterations=True)[1] == steps
    with pytest.raises(ConvergenceError, match=f"{steps - 1} iterations") as info:
        pagerank(G, device=device, max_iter=steps - 1)
    assert info.value.iterations == steps - 1
    with pytest.raises(ConvergenceError) as info:
        pagerank(G, device=device, max_iter=0)
    assert info.value.iterations == 0
    with pytest.raises(RuntimeError):  # ConvergenceError is a RuntimeError too
        pagerank(G, device=device, max_iter=2)
    with pytest.raises(ConvergenceError):  # a change of 0 is not below 0
        pagerank(wg.Graph.from_edges([0, 1, 2], [1, 2, 0]), device=device, tol=0.0)
    with pytest.raises(ConvergenceError) as info:
        pagerank_reference(*SMALL, max_iter=steps - 1)
    assert info.value.iterations == steps - 1


# -- the verifier ------------------------------------------------------------------------------


def test_verifier_accepts_and_catches_each_rule(device):
    G = small_graph()
    x = pagerank(G, device=device)
    verify_pagerank(G, x)  # CuPy arrays are accepted
    x = host(x).copy()
    with pytest.raises(VerificationError, match=r"shape.*rule 1"):
        verify_pagerank(G, x[:-1])
    for bad, what in ((np.nan, "not finite"), (np.inf, "not finite"), (-1e-3, "negative")):
        y = x.copy()
        y[3] = bad
        with pytest.raises(VerificationError, match=rf"vertex 3: .*{what} \(rule 1\)"):
            verify_pagerank(G, y)
    with pytest.raises(VerificationError, match="rule 2"):
        verify_pagerank(G, x * (1 + 1e-6))
    y = x.copy()
    y[0] += 1e-3
    y[1] -= 1e-3  # still a distribution, no longer a fixed point
    with pytest.raises(VerificationError, match=r"vertex [01] moves most.*rule 3"):
        verify_pagerank(G, y)
    with pytest.raises(VerificationError, match="rule 3"):
        verify_pagerank(G, np.full(6, 1 / 6))
    # rule 3 with the run's options: another alpha, weighting or vector is caught
    with pytest.raises(VerificationError, match="rule 3"):
        verify_pagerank(G, x, alpha=0.5)
    with pytest.raises(VerificationError, match="rule 3"):
        verify_pagerank(G, x, personalization=[1, 0, 0, 0, 0, 0])
    with pytest.raises(VerificationError, match="rule 3"):
        verify_pagerank(G, x, dangling=[1, 0, 0, 0, 0, 0])
    W = wg.Graph.from_edges(*SMALL[1:], weights=[5.0, 1, 1, 1, 1, 1], num_vertices=6)
    verify_pagerank(W, x, weighted=False)
    with pytest.raises(VerificationError, match="rule 3"):
        verify_pagerank(W, x)
    # the bound scales with tol: a coarse run passes at its tol, not at a finer one
    coarse = host(pagerank(G, device=device, tol=1e-3))
    verify_pagerank(G, coarse, tol=1e-3)
    with pytest.raises(VerificationError, match="rule 3"):
        verify_pagerank(G, coarse, tol=1e-9)


def test_verifier_rule3_bound_is_alpha_n_tol():
    """Rule 3 accepts a residual below ``alpha * n * tol`` and refuses one above it."""
    G = small_graph()
    alpha, tol, n = 0.5, 1e-6, 6
    star = exact_pagerank(*SMALL, None, True, alpha)
    step = power_step(G, alpha=alpha)
    delta = np.array([1.0, -1.0, 0, 0, 0, 0])  # keeps the sum
    unit = np.abs(step(star + delta * 1e-3) - (star + delta * 1e-3)).sum() / 1e-3
    for fraction, ok in ((0.8, True), (1.2, False)):
        y = star + delta * fraction * alpha * n * tol / unit
        if ok:
            verify_pagerank(G, y, alpha=alpha, tol=tol)
        else:
            with pytest.raises(VerificationError, match="rule 3"):
                verify_pagerank(G, y, alpha=alpha, tol=tol)


def test_verifier_step_counts_undirected_edges_both_ways_and_loops_once():
    U = wg.Graph.from_edges([0, 1, 1], [1, 2, 1], weights=[1.0, 2.0, 4.0], directed=False)
    step = power_step(U, alpha=1.0)
    # out-weights: 0 -> 1; 1 -> 1 + 2 + 4 (loop once) = 7; 2 -> 2
    x = np.array([1.0, 0.0, 0.0])
    np.testing.assert_allclose(step(x), [0, 1, 0])
    np.testing.assert_allclose(step(np.array([0, 1.0, 0])), [1 / 7, 4 / 7, 2 / 7])


# -- property tests ----------------------------------------------------------------------------


@pytest.mark.parametrize("device", DEVICES)
@given(case=cases(max_n=16, max_m=60), alpha=st.floats(0.0, 0.99))
def test_properties(device, case, alpha):
    """A distribution that passes the verifier and matches the dense reference step for step,
    for any damping in [0, 0.99]."""
    n, src, dst, w, directed = case
    G = graph(n, src, dst, w, directed)
    x, steps = pagerank(G, alpha, device=device, max_iter=10_000, return_iterations=True)
    verify_pagerank(G, x, alpha=alpha)
    x = host(x)
    assert (x >= 0).all() and abs(x.sum() - 1) < 1e-12
    ref, ref_steps = pagerank_reference(
        n, src, dst, w, directed=directed, alpha=alpha, max_iter=10_000
    )
    assert_same_iteration(x, steps, ref, ref_steps, n, alpha, 1e-6)


@given(case=cases(max_n=8, max_m=20))
def test_reference_matches_exact_solve(case):
    n, src, dst, w, directed = case
    ref, _ = pagerank_reference(n, src, dst, w, directed=directed, tol=1e-13, max_iter=1000)
    want = exact_pagerank(n, src, dst, w, directed, 0.85)
    assert np.abs(ref - want).sum() <= 0.85 / 0.15 * n * 1e-13 + 1e-12


# -- bad input ---------------------------------------------------------------------------------


def test_bad_input():
    G = small_graph()
    with pytest.raises(InvalidArgumentError, match=r"warpgraph\.Graph"):
        pagerank(nx.path_graph(3), device="cpu")
    for alpha in (-0.1, 1.1, True, "0.85", None, float("nan"), [0.5]):
        with pytest.raises(InvalidArgumentError, match="alpha"):
            pagerank(G, alpha, device="cpu")
    for tol in (-1e-6, False, "1e-6", float("nan")):
        with pytest.raises(InvalidArgumentError, match="tol"):
            pagerank(G, tol=tol, device="cpu")
    for max_iter in (-1, True, 2.0, "10", None):
        with pytest.raises(InvalidArgumentError, match="max_iter"):
            pagerank(G, max_iter=max_iter, device="cpu")
    pagerank(G, max_iter=np.int64(100), alpha=np.float32(0.5), tol=1, device="cpu")
    # the parameters are checked even on an empty graph
    with pytest.raises(InvalidArgumentError, match="alpha"):
        pagerank(wg.Graph.from_edges([], [], num_vertices=0), 2.0, device="cpu")


@pytest.mark.parametrize("name", ["personalization", "nstart", "dangling"])
def test_bad_vectors(device, name):
    G = small_graph()
    for bad, msg in (
        ([1.0] * 5, "shape"),
        ([1.0] * 7, "shape"),
        (np.ones((6, 1)), "shape"),
        (2.0, "shape"),
        ([1, 1, 1, 1, 1, -1.0], "non-negative"),
        ([1, 1, 1, 1, 1, np.nan], "finite"),
        ([1, 1, 1, 1, 1, np.inf], "finite"),
        ([0.0] * 6, "positive entry"),
        (["a"] * 6, "numbers"),
        ({0: 1.0}, "numbers"),
    ):
        with pytest.raises(InvalidArgumentError, match=msg):
            pagerank(G, device=device, **{name: bad})
    # a valid vector of ints or bools is taken as weights
    pagerank(G, device=device, **{name: [1, 0, 0, 0, 0, 1]})
    pagerank(G, device=device, **{name: np.array([True] * 6)})


def test_bad_weights(device):
    src, dst = [0, 1, 2], [1, 2, 0]
    for w in ([1.0, -0.5, 1.0], [1.0, np.nan, 1.0], np.array([1, -2, 3])):
        G = wg.Graph.from_edges(src, dst, weights=w)
        with pytest.raises(InvalidArgumentError, match="non-negative weights"):
            pagerank(G, device=device)
        # ignored weights are not checked
        got = host(pagerank(G, weighted=False, device=device))
        np.testing.assert_allclose(got, [1 / 3] * 3, rtol=1e-15)


def test_weights_beyond_float64(device):
    """Infinite weights, out-weights that overflow and ones too small to invert are refused,
    where they would otherwise move rank silently (an inverse of 0 or of inf)."""
    src, dst = [0, 0, 1, 2], [1, 2, 2, 0]
    for w, msg in (
        ([1.0, np.inf, 1.0, 1.0], "finite, non-negative weights"),
        ([1e308, 1e308, 1.0, 1.0], "out-weight"),  # vertex 0's sum overflows
        ([1.0, 1.0, 5e-324, 1.0], "out-weight"),  # vertex 1's inverse overflows
    ):
        G = wg.Graph.from_edges(src, dst, weights=w, directed=True)
        with pytest.raises(InvalidArgumentError, match=msg):
            pagerank(G, device=device)
    # large but representable weights are fine, and scale away
    big = wg.Graph.from_edges(src, dst, weights=[1e300, 2e300, 3e300, 1e300], directed=True)
    small = wg.Graph.from_edges(src, dst, weights=[1.0, 2.0, 3.0, 1.0], directed=True)
    np.testing.assert_allclose(
        host(pagerank(big, device=device)), host(pagerank(small, device=device)), rtol=1e-12
    )


@pytest.mark.parametrize("name", ["personalization", "nstart", "dangling"])
def test_vector_sum_overflow(device, name):
    with pytest.raises(InvalidArgumentError, match="finite float64 sum"):
        pagerank(small_graph(), device=device, **{name: [1e308] * 6})


def test_prepare_inputs():
    W = wg.Graph.from_edges([0, 0, 1, 2], [1, 2, 0, 0], weights=[1.0, 3.0, 0.0, 2.0])
    inputs = prepare(W, personalization=[2.0, 1.0, 1.0])
    assert isinstance(inputs, PageRankInputs)
    assert inputs.dangling.tolist() == [False, True, False]  # 1's only arc weighs 0
    np.testing.assert_allclose(inputs.inv_out, [0.25, 0.0, 0.5])
    np.testing.assert_allclose(inputs.teleport, [0.5, 0.25, 0.25])
    assert inputs.dangling_to is inputs.teleport
    assert not inputs.uniform_teleport and not inputs.uniform_dangling
    np.testing.assert_allclose(inputs.start, [1 / 3] * 3)
    unweighted = prepare(W, weighted=False, dangling=[0, 0, 1])
    assert unweighted.in_weights is None
    assert unweighted.uniform_teleport and not unweighted.uniform_dangling
    np.testing.assert_array_equal(unweighted.teleport, np.full(3, 1 / 3))
    np.testing.assert_allclose(unweighted.inv_out, [0.5, 1.0, 1.0])
    np.testing.assert_allclose(unweighted.dangling_to, [0, 0, 1.0])


def test_top_level_export_is_lazy():
    assert wg.pagerank is pagerank
    assert "pagerank" in wg.__all__
    code = (
        "import sys, warpgraph as wg\n"
        "assert 'warpgraph.algorithms.pagerank' not in sys.modules\n"
        "f = wg.pagerank\n"
        "assert 'warpgraph.algorithms.pagerank' in sys.modules\n"
        "assert f.__module__ == 'warpgraph.algorithms.pagerank.api'\n"
    )
    subprocess.run([sys.executable, "-c", code], check=True)


# -- float32 ranks ------------------------------------------------------------------------------


@pytest.mark.parametrize("weighted", [False, True])
@pytest.mark.parametrize("directed", [True, False])
def test_float32_ranks_are_float64_ranks_rounded(device, weighted, directed):
    """Stored in float32 (sums in float64), the ranks are float32, pass the verifier, and lie
    within float32's rounding of the float64 run's (same steps: the change is far above
    float32's noise at this tol); a skewed graph with dangling vertices and hubs."""
    s, d = wg.generators.kronecker_edges(11, 8, seed=4, device="cpu")
    w = np.random.default_rng(2).random(s.size) + 0.1 if weighted else None
    G = wg.Graph.from_edges(s, d, weights=w, num_vertices=2**11, directed=directed)
    x64, k64 = pagerank(G, device=device, tol=1e-8, return_iterations=True)
    x32, k32 = pagerank(G, device=device, tol=1e-8, dtype=np.float32, return_iterations=True)
    assert x32.dtype == np.float32 and x32.shape == x64.shape
    assert k32 == k64
    a, b = host(x32).astype(np.float64), host(x64)
    assert np.abs(a - b).sum() <= 1e-5
    np.testing.assert_allclose(a, b, rtol=2e-5, atol=1e-9)
    verify_pagerank(G, x32, tol=1e-8, weighted=weighted)
    assert abs(a.sum() - 1.0) < 1e-5


@pytest.mark.gpu
def test_float32_gpu_matches_cpu():
    s, d = wg.generators.kronecker_edges(12, 16, seed=3, device="cpu")
    G = wg.Graph.from_edges(s, d, directed=True)
    x, k = pagerank(G, device="gpu", tol=1e-8, dtype="float32", return_iterations=True)
    y, j = pagerank(G, device="cpu", tol=1e-8, dtype="float32", return_iterations=True)
    assert k == j and x.dtype == y.dtype == np.float32
    np.testing.assert_allclose(host(x), y, rtol=1e-5, atol=1e-9)


def test_float32_dtype_spellings_and_refusals(device):
    G = wg.Graph.from_edges([0, 1, 2], [1, 2, 0], directed=True)
    for spelling in (np.float32, "float32", np.dtype("float32")):
        assert pagerank(G, device=device, dtype=spelling).dtype == np.float32
    assert pagerank(G, device=device).dtype == np.float64
    for bad in ("int32", np.int64, "float16", "nonsense", 3.5):
        with pytest.raises(InvalidArgumentError, match="dtype must be float64 or float32"):
            pagerank(G, device=device, dtype=bad)
    empty = wg.Graph.from_edges([], [], num_vertices=0, directed=True)
    assert pagerank(empty, device=device, dtype=np.float32).dtype == np.float32


def test_float32_below_its_precision_stops_or_says_so(device):
    """A tol far below float32's rounding: the run either stops on an exact float32 fixed point
    (change 0), with ranks as close to float64's as float32 allows, or raises
    ConvergenceError; never a silent stop elsewhere."""
    s, d = wg.generators.kronecker_edges(10, 8, seed=6, device="cpu")
    G = wg.Graph.from_edges(s, d, num_vertices=2**10, directed=True)
    want = host(pagerank(G, device=device, tol=1e-16, max_iter=400))
    try:
        got = host(pagerank(G, device=device, tol=1e-16, max_iter=400, dtype=np.float32))
    except ConvergenceError:
        return
    np.testing.assert_allclose(got.astype(np.float64), want, rtol=2e-5, atol=1e-9)


def test_verifier_float32_slack_is_float32_rounding():
    """float32 ranks get float32's storage rounding as slack and no more: the exact fixed point
    rounded to float32 passes at tol 0, and the same ranks with 1e-5 moved between two vertices
    (the sum kept) fail rule 3."""
    G = wg.Graph.from_edges([0, 1, 1, 2, 3], [1, 2, 3, 0, 0], directed=True)
    x = pagerank(G, device="cpu", tol=1e-15, max_iter=1000).astype(np.float32)
    verify_pagerank(G, x, tol=0.0)
    moved = x.copy()
    moved[0] += np.float32(1e-5)
    moved[1] -= np.float32(1e-5)
    with pytest.raises(VerificationError, match="rule 3"):
        verify_pagerank(G, moved, tol=0.0)
