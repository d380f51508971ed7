"""SSSP: every CPU method and the public API against SciPy, the negative-cycle paths, the
input checks and the verifier."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

import warpgraph as wg
from warpgraph.algorithms.sssp import METHODS, choose_delta, sssp, sssp_reference, verify_sssp
from warpgraph.algorithms.sssp.cpu import sssp_cpu
from warpgraph.algorithms.sssp.reference import lightest_arcs
from warpgraph.errors import InvalidArgumentError, NegativeCycleError, VerificationError

INF = np.iinfo(np.int64).max
CPU_METHODS = [m for m in METHODS if m != "auto"]
DTYPES = [np.int32, np.int64, np.float32, np.float64]


def assert_matches(dist, ref) -> None:
    dist, ref = np.asarray(dist), np.asarray(ref)
    if dist.dtype.kind == "f":
        np.testing.assert_array_equal(np.isinf(dist), np.isinf(ref))
        fin = np.isfinite(ref)
        rtol = 1e-5 if dist.dtype == np.float32 else 1e-12
        np.testing.assert_allclose(dist[fin], ref[fin], rtol=rtol, atol=1e-6)
    else:
        assert dist.dtype == np.int64
        np.testing.assert_array_equal(dist, ref)


def random_graph(seed, n, m, directed, dtype=np.int64, low=0, high=20):
    rng = np.random.default_rng(seed)
    src, dst = rng.integers(0, n, m), rng.integers(0, n, m)
    if np.dtype(dtype).kind == "f":
        w = (rng.random(m) * (high - low) + low).astype(dtype)
    else:
        w = rng.integers(low, high, m).astype(dtype)
    return wg.Graph.from_edges(src, dst, weights=w, num_vertices=n, directed=directed)


def check_cycle(G, err: NegativeCycleError) -> None:
    """The reported cycle is a cycle of arcs of G with negative weight through err.vertex."""
    cyc = err.cycle
    assert cyc and err.vertex in cyc
    A = lightest_arcs(G)
    total = 0.0
    for a, b in zip(cyc, cyc[1:] + cyc[:1], strict=True):
        row = slice(A.indptr[a], A.indptr[a + 1])
        hit = np.flatnonzero(A.indices[row] == b)
        assert hit.size == 1, f"{a} -> {b} is not an arc"
        total += A.data[row][hit[0]]
    assert total < 0


# ---------------------------------------------------------------------------- against SciPy
@given(
    n=st.integers(1, 40),
    m=st.integers(0, 160),
    directed=st.booleans(),
    dtype=st.sampled_from(DTYPES),
    high=st.sampled_from([1, 3, 50, 1000]),
    method=st.sampled_from(CPU_METHODS),
    seed=st.integers(0, 2**31),
)
def test_methods_match_scipy(n, m, directed, dtype, high, method, seed):
    G = random_graph(seed, n, m, directed, dtype, 0, high)  # zero weights included
    source = seed % n
    dist, pred = sssp(G, source, method=method, predecessors=True, device="cpu")
    expected_dtype = np.int64 if np.dtype(dtype).kind == "i" else dtype
    assert dist.dtype == expected_dtype and pred.dtype == np.int64
    assert_matches(dist, sssp_reference(G, source))
    verify_sssp(G, source, dist, pred)


@pytest.mark.parametrize(
    "method,delta",
    [("hbf", None)] + [(m, d) for m in ("delta", "near_far") for d in (None, 1.0, 7.0, 1e4)],
)
@pytest.mark.parametrize("filtering", [True, False])
def test_parallel_steps_and_buckets(method, delta, filtering):
    """A graph large enough for parallel relax steps, sorted frontiers and, with delta=1 and
    weights up to 10**5, buckets far beyond the window (the overflow pile)."""
    G = random_graph(3, 3000, 60_000, False, np.int64, 0, 100_000)
    for source in (0, 2999):
        dist = sssp(G, source, method=method, delta=delta, filtering=filtering, device="cpu")
        assert_matches(dist, sssp_reference(G, source))


def test_kronecker_gap_and_graph500_weights():
    for kind in ("gap", "graph500"):
        G = wg.generators.kronecker(11, 16, seed=2, weights=kind, device="cpu")
        source = int(np.argmax(G.out_degree()))
        ref = sssp_reference(G, source)
        for method in CPU_METHODS:
            dist, pred = sssp(G, source, method=method, predecessors=True, device="cpu")
            assert_matches(dist, ref)
            verify_sssp(G, source, dist, pred)


def test_road_like_high_diameter():
    G = wg.generators.road_like(20_000, seed=4, device="cpu")
    ref = sssp_reference(G, 0)
    for method in ("delta", "near_far", "hbf"):
        assert_matches(sssp(G, 0, method=method, device="cpu"), ref)


@pytest.mark.parametrize("filtering", [True, False])
def test_vertex_chunked_steps_on_small_degree_graphs(filtering):
    """Roads and grids (out-degree <= _VMAX_DEGREE) take the vertex-chunked step, in parallel
    and serial, integer and float weights, in-window and overflow buckets."""
    from warpgraph.algorithms.sssp._cpu_relax import _VMAX_DEGREE, _max_degree

    graphs = [
        wg.generators.grid_2d(120, 120, seed=3, weights="gap", device="cpu"),
        wg.generators.grid_2d(90, 90, seed=5, weights="graph500", device="cpu"),
        wg.generators.road_like(30_000, seed=6, device="cpu"),
    ]
    for G in graphs:
        assert 0 < _max_degree(G.indptr) <= _VMAX_DEGREE
        assert _max_degree(G.indptr) == int(np.diff(G.indptr).max())
        for source in (0, G.num_vertices - 1):
            ref = sssp_reference(G, source)
            for method, delta in (("delta", None), ("delta", 1.0), ("near_far", None)):
                dist = sssp(G, source, method=method, delta=delta, filtering=filtering,
                            device="cpu")  # fmt: skip
                assert_matches(dist, ref)


@pytest.mark.parametrize("threads", [1, 2])
def test_bucket_fusion_worklists(threads):
    """Bucket fusion in the vertex-chunked step (each chunk relaxes the vertices it lowers into
    the current bucket itself, up to ``fuse`` of them per step, the rest going out to the next
    step): distances equal SciPy's for worklist bounds from none to larger than the graph,
    with integer (int32 and int64 distances) and float weights, delta-stepping and near-far,
    one bucket or many (delta 3: most pushes go to later buckets), 1 to 16 chunks per parallel
    step; fusing one bucket takes fewer steps than not."""
    import numba

    from warpgraph.algorithms.sssp._cpu_buckets import _WINDOW, _delta_run

    graphs = [
        wg.generators.grid_2d(70, 70, seed=7, weights="gap", device="cpu"),
        wg.generators.road_like(6_000, seed=8, device="cpu"),
        random_graph(13, 3000, 9000, True, np.float64, 0, 50),
    ]
    fused_parallel = 0  # parallel steps (chunks fusing side by side) with a bounded worklist
    old = numba.get_num_threads()
    numba.set_num_threads(min(threads, numba.config.NUMBA_NUM_THREADS))
    try:
        for G in graphs:
            source = int(np.argmax(G.out_degree()))
            ref = sssp_reference(G, source)
            kinds = ["int32", "int64"] if G.weights.dtype.kind in "iu" else ["float64"]
            for kind, window, delta in [(k, wd, d) for k in kinds for wd in (_WINDOW, 1)
                                        for d in (3, 10**9)]:  # fmt: skip
                steps = {}
                for fuse in (0, 1, 5, 64, 10**6):
                    w = G.weights.astype(kind)
                    big = np.iinfo(kind).max if kind != "float64" else np.inf
                    dist = np.full(G.num_vertices, big, dtype=kind)
                    d = np.float64(delta) if kind == "float64" else np.int64(delta)
                    r = _delta_run(G.indptr, G.indices, w, dist,
                                   dist if kind != "float64" else dist.view(np.int64),
                                   np.full_like(dist, big), source, d, window, True, True,
                                   np.int64(fuse))  # fmt: skip
                    if kind == "int32":
                        dist = np.where(dist == big, INF, dist.astype(np.int64))
                    assert_matches(dist, ref)
                    steps[fuse] = int(r[0])
                    if 0 < fuse < 10**6:
                        fused_parallel += int(r[3])
                assert steps[10**6] <= steps[64] <= steps[0]
                if delta > 3:  # one bucket: fusion must have happened
                    assert steps[64] < steps[0]
                for vchunks in (1, 3):  # chunks of a parallel step (sssp_cpu: 2 per thread)
                    dist = np.full(G.num_vertices, big, dtype=kind)
                    _delta_run(G.indptr, G.indices, w, dist,
                               dist if kind != "float64" else dist.view(np.int64),
                               np.full_like(dist, big), source, d, window, True, True,
                               np.int64(64), np.int64(-1), np.int64(vchunks))  # fmt: skip
                    if kind == "int32":
                        dist = np.where(dist == big, INF, dist.astype(np.int64))
                    assert_matches(dist, ref)
    finally:
        numba.set_num_threads(old)
    assert fused_parallel > 0


@pytest.mark.parametrize("threads", [1, 2])
def test_reused_work_arrays_do_not_leak(threads):
    """The public CPU call keeps the engine's working distances per graph and reuses them: a
    second search from a source that reaches fewer vertices (a stale distance would show) or
    more (a stale ``settled`` entry would skip an expansion) is still SciPy's, for int32 (int32
    working distances), int64 and float weights; earlier results stay as they were and never
    share memory with the reused arrays or with later results."""
    import numba

    from warpgraph.algorithms.sssp.api import _CACHE

    old = numba.get_num_threads()
    numba.set_num_threads(min(threads, numba.config.NUMBA_NUM_THREADS))
    try:
        # two directed grids joined one way (part A reaches part B, not back), plus a path
        A = wg.generators.grid_2d(40, 40, seed=3, weights="gap", device="cpu")
        n0 = A.num_vertices
        src = np.repeat(np.arange(n0), np.diff(A.indptr))
        dst = A.indices.astype(np.int64)
        src = np.concatenate([src, src + n0, [5, n0 + 7]])
        dst = np.concatenate([dst, dst + n0, [n0 + 9, 2 * n0 - 1]])
        for dtype in DTYPES:
            w = np.concatenate([A.weights, A.weights[::-1], [1, 3]]).astype(dtype)
            G = wg.Graph.from_edges(src, dst, weights=w, num_vertices=2 * n0 + 3, directed=True)
            results = []
            for s in (n0 + 3, 0, n0 + 3, 0, 2 * n0 + 1, n0 + 3):  # B only, A and B, ...
                dist = sssp(G, s, method="delta", device="cpu")
                assert_matches(dist, sssp_reference(G, s))
                results.append((s, dist, dist.copy()))
            near = sssp(G, [0, n0 + 3], method="near_far", device="cpu")
            for row, s in zip(near, (0, n0 + 3), strict=True):
                assert_matches(row, sssp_reference(G, s))
            work = _CACHE[G]["cpu_work"]
            kept = [a for v in work.values() if isinstance(v, tuple) for a in v]
            assert len(kept) == (2 if dtype == np.int32 else 1)  # int32 work, or ``settled``
            assert work["dmax"] == int(np.diff(G.indptr).max())
            for i, (_, dist, copy) in enumerate(results):
                np.testing.assert_array_equal(dist, copy)
                assert not any(np.shares_memory(dist, a) for a in kept)
                for _, later, _ in results[i + 1 :]:
                    assert not np.shares_memory(dist, later)
    finally:
        numba.set_num_threads(old)


def test_unweighted_graph_gives_hop_counts():
    G = wg.Graph.from_edges([0, 1, 2, 0], [1, 2, 3, 4], num_vertices=6, directed=False)
    dist = sssp(G, 0, device="cpu")
    assert dist.dtype == np.int64
    assert dist.tolist() == [0, 1, 2, 3, 1, INF]
    levels = wg.bfs(G, 0, device="cpu")
    np.testing.assert_array_equal(np.where(levels < 0, INF, levels.astype(np.int64)), dist)


def test_weights_argument_overrides_graph_weights():
    G = wg.Graph.from_edges([0, 1, 0], [1, 2, 2], weights=[1, 1, 5])
    assert sssp(G, 0, device="cpu").tolist() == [0, 1, 2]
    w = np.array([1.5, 4.0, 2.0])  # arc order of G.indices: 0->1, 0->2, 1->2
    assert G.indices.tolist() == [1, 2, 2]
    dist = sssp(G, 0, weights=w, device="cpu")
    assert dist.dtype == np.float64 and dist.tolist() == [0.0, 1.5, 3.5]
    verify_sssp(G, 0, dist, weights=w)


def test_self_loops_and_parallel_edges_lightest_wins():
    G = wg.Graph.from_edges([0, 0, 0, 1, 1], [1, 1, 0, 1, 2], weights=[9, 2, 0, 3, 4])
    for method in CPU_METHODS:
        dist, pred = sssp(G, 0, method=method, predecessors=True, device="cpu")
        assert dist.tolist() == [0, 2, 6]
        assert pred.tolist() == [-1, 0, 1]


def test_zero_weight_cycles_give_a_tree():
    # 1 <-> 2 <-> 3 with zero weights: tight arcs form cycles; the tree must not
    G = wg.Graph.from_edges([0, 1, 2, 2, 3, 1], [1, 2, 1, 3, 2, 3], weights=[5, 0, 0, 0, 0, 0])
    for method in CPU_METHODS:
        dist, pred = sssp(G, 0, method=method, predecessors=True, device="cpu")
        assert dist.tolist() == [0, 5, 5, 5]
        verify_sssp(G, 0, dist, pred)


def test_batch_sources_and_unreachable():
    G = random_graph(5, 50, 60, True, np.float32, 0, 10)
    sources = [0, 7, 7, 49]
    dist, pred = sssp(G, sources, predecessors=True, device="cpu")
    assert dist.shape == pred.shape == (4, 50) and dist.dtype == np.float32
    for row, s in enumerate(sources):
        assert_matches(dist[row], sssp_reference(G, s))
        verify_sssp(G, s, dist[row], pred[row])
    assert np.isinf(dist).any()  # a sparse directed graph leaves vertices unreachable
    assert sssp(G, np.array([3]), device="cpu").shape == (1, 50)


def test_auto_method_and_delta_rule():
    assert choose_delta(128.0, 255.0, 32.0, True) == 4.0  # Kronecker, GAP weights
    assert choose_delta(128.0, 255.0, 4.0, True) == 1027.0  # grid: wide buckets
    assert choose_delta(0.5, 1.0, 32.0, False) == pytest.approx(0.0140, rel=0.01)
    assert choose_delta(0.0, 0.0, 4.0, True) == 1.0  # all-zero weights
    G = wg.Graph.from_edges([0, 1], [1, 2], weights=[2, -1])
    assert sssp(G, 0, device="cpu").tolist() == [0, 2, 1]  # auto picks hbf


# ---------------------------------------------------------------------------- negative weights
@given(n=st.integers(2, 30), m=st.integers(1, 120), seed=st.integers(0, 2**31))
def test_negative_weights_on_dags_match_bellman_ford(n, m, seed):
    rng = np.random.default_rng(seed)
    a, b = rng.integers(0, n, m), rng.integers(0, n, m)
    keep = a != b
    src, dst = np.minimum(a, b)[keep], np.maximum(a, b)[keep]  # acyclic
    w = rng.integers(-20, 20, src.size)
    G = wg.Graph.from_edges(src, dst, weights=w, num_vertices=n)
    dist, pred = sssp(G, 0, method="hbf", predecessors=True, device="cpu")
    assert_matches(dist, sssp_reference(G, 0))
    verify_sssp(G, 0, dist, pred)


@given(n=st.integers(1, 25), m=st.integers(0, 80), seed=st.integers(0, 2**31))
def test_negative_weights_random_graphs(n, m, seed):
    """Either SciPy finds a negative cycle and so do we (with a valid cycle), or the
    distances agree."""
    G = random_graph(seed, n, m, True, np.int64, -3, 12)
    try:
        ref = sssp_reference(G, 0)
    except NegativeCycleError:
        with pytest.raises(NegativeCycleError) as info:
            sssp(G, 0, method="hbf", device="cpu")
        check_cycle(G, info.value)
        return
    assert_matches(sssp(G, 0, method="hbf", device="cpu"), ref)


def test_negative_cycle_is_reported():
    # 0 -> 1 -> 2 -> 3 -> 1 with weight -1 around 1, 2, 3
    G = wg.Graph.from_edges([0, 1, 2, 3], [1, 2, 3, 1], weights=[4, 1, 1, -3])
    with pytest.raises(NegativeCycleError, match="vertex") as info:
        sssp(G, 0, device="cpu")
    assert sorted(info.value.cycle) == [1, 2, 3]
    check_cycle(G, info.value)


def test_unreachable_negative_cycle_is_ignored():
    G = wg.Graph.from_edges([0, 2, 3], [1, 3, 2], weights=[1, -5, 1], num_vertices=4)
    assert sssp(G, 0, method="hbf", device="cpu").tolist() == [0, 1, INF, INF]
    with pytest.raises(NegativeCycleError):
        sssp(G, 2, method="hbf", device="cpu")


def test_negative_self_loop_and_undirected_negative_edge():
    G = wg.Graph.from_edges([0, 1], [1, 1], weights=[1, -1])
    with pytest.raises(NegativeCycleError) as info:
        sssp(G, 0, device="cpu")
    assert info.value.vertex == 1 and info.value.cycle == [1]
    U = wg.Graph.from_edges([0, 1], [1, 2], weights=[3, -1], directed=False)
    with pytest.raises(NegativeCycleError) as info:
        sssp(U, 0, device="cpu")
    assert sorted(info.value.cycle) == [1, 2]


def test_negative_cycle_on_a_large_graph_ends():
    """A long negative cycle far from the source, behind a parallel-size frontier."""
    G0 = random_graph(9, 4000, 80_000, True, np.int64, 1, 100)
    src, dst, w = G0.edges()
    ring = np.arange(3000, 3050)
    src = np.concatenate([src, ring])
    dst = np.concatenate([dst, np.roll(ring, -1)])
    w = np.concatenate([w, np.full(ring.size, -1)])
    G = wg.Graph.from_edges(src, dst, weights=w, num_vertices=4000)
    with pytest.raises(NegativeCycleError) as info:
        sssp(G, 0, device="cpu")
    check_cycle(G, info.value)


# ---------------------------------------------------------------------------- bad input
def test_bad_input():
    G = wg.Graph.from_edges([0, 1], [1, 2], weights=[1, 2])
    with pytest.raises(InvalidArgumentError, match="not a vertex"):
        sssp(G, 3, device="cpu")
    with pytest.raises(InvalidArgumentError, match="not a vertex"):
        sssp(G, [0, -1], device="cpu")
    with pytest.raises(InvalidArgumentError, match="method must be one of"):
        sssp(G, 0, method="astar", device="cpu")
    with pytest.raises(InvalidArgumentError, match="1 entries but G has 2 arcs"):
        sssp(G, 0, weights=[1], device="cpu")
    for bad in (np.array([True, False]), np.array([1 + 1j, 2]), np.array([1, "a"], object)):
        with pytest.raises(InvalidArgumentError, match="integers or floats"):
            sssp(G, 0, weights=bad, device="cpu")
    with pytest.raises(InvalidArgumentError, match="finite"):
        sssp(G, 0, weights=[1.0, np.nan], device="cpu")
    with pytest.raises(InvalidArgumentError, match="positive"):
        sssp(G, 0, method="delta", delta=0, device="cpu")
    with pytest.raises(InvalidArgumentError, match="applies to"):
        sssp(G, 0, method="hbf", delta=2, device="cpu")
    with pytest.raises(InvalidArgumentError, match="CPU only"):
        sssp(G, 0, method="dijkstra", device="gpu")
    with pytest.raises(InvalidArgumentError, match="True or False"):
        sssp(G, 0, predecessors="yes", device="cpu")
    with pytest.raises(InvalidArgumentError, match="overflow"):
        sssp(G, 0, weights=np.array([2**61, 1], dtype=np.int64), device="cpu")
    with pytest.raises(InvalidArgumentError, match=r"warpgraph\.Graph"):
        sssp("G", 0, device="cpu")


@pytest.mark.parametrize("method", ["delta", "near_far", "dijkstra"])
def test_negative_weights_refused_by_bucket_methods(method):
    G = wg.Graph.from_edges([0, 1], [1, 2], weights=[1, -2])
    with pytest.raises(InvalidArgumentError, match="method='hbf'"):
        sssp(G, 0, method=method, device="cpu")


def test_small_integer_weights_are_widened():
    G = wg.Graph.from_edges([0, 1], [1, 2])
    dist = sssp(G, 0, weights=np.array([200, 100], dtype=np.uint8), device="cpu")
    assert dist.tolist() == [0, 200, 300]


# ---------------------------------------------------------------------------- verifier
def test_verifier_catches_wrong_results():
    G = wg.Graph.from_edges([0, 0, 1, 2], [1, 2, 3, 3], weights=[1, 5, 1, 1])
    dist, pred = sssp(G, 0, predecessors=True, device="cpu")
    verify_sssp(G, 0, dist, pred)
    with pytest.raises(VerificationError, match="triangle"):
        verify_sssp(G, 0, np.array([0, 1, 5, 3]))  # too long
    with pytest.raises(VerificationError, match="tight tree"):
        verify_sssp(G, 0, np.array([0, 1, 4, 2]))  # too short: not a path length
    with pytest.raises(VerificationError, match="source"):
        verify_sssp(G, 0, np.array([1, 1, 5, 2]))
    with pytest.raises(VerificationError, match="triangle"):
        verify_sssp(G, 0, np.array([0, 1, 5, INF]))  # a reachable vertex called unreachable
    with pytest.raises(VerificationError, match="tight"):
        verify_sssp(G, 0, dist, np.array([-1, 0, 0, 2]))  # 2 -> 3 is not tight
    with pytest.raises(VerificationError, match="pred"):
        verify_sssp(G, 0, dist, np.array([0, 0, 0, 1]))  # the source has a predecessor
    with pytest.raises(VerificationError, match="shape"):
        verify_sssp(G, 0, dist[:3])


def test_verifier_catches_zero_weight_cycle_trick():
    # 1 <-> 2 with zero weights: labels 3, 3 are tight to each other but not path lengths
    G = wg.Graph.from_edges([0, 1, 2], [1, 2, 1], weights=[5, 0, 0])
    with pytest.raises(VerificationError, match="tight tree"):
        verify_sssp(G, 0, np.array([0, 3, 3]))
    with pytest.raises(VerificationError, match="never reaches"):
        verify_sssp(G, 0, np.array([0, 5, 5]), np.array([-1, 2, 1]))


def test_verifier_float_slack():
    G = wg.Graph.from_edges([0], [1], weights=np.array([0.1], dtype=np.float32))
    good = sssp(G, 0, device="cpu")
    verify_sssp(G, 0, good)
    off = good.copy()
    off[1] = np.float32(off[1]) * np.float32(1 + 1e-6)
    with pytest.raises(VerificationError):
        verify_sssp(G, 0, off)
    verify_sssp(G, 0, off, rtol=1e-5)


def test_engine_direct_call():
    indptr = np.array([0, 2, 3, 3])
    indices = np.array([1, 2, 2], dtype=np.int32)
    w = np.array([4, 1, 2], dtype=np.int32)
    for method in ("delta", "near_far", "hbf"):
        assert sssp_cpu(indptr, indices, w, 0, method=method).tolist() == [0, 4, 1]


# ---------------------------------------------------------------------------- GPU (API level)
@pytest.mark.gpu
@pytest.mark.parametrize("method", ["auto", "delta", "near_far", "hbf"])
@pytest.mark.parametrize("kind", ["gap", "graph500"])
def test_gpu_matches_cpu(method, kind):
    import cupy as cp

    G = wg.generators.kronecker(12, 16, seed=5, weights=kind, device="cpu")
    sources = [int(np.argmax(G.out_degree())), 0, 17]
    cpu_dist = sssp(G, sources, device="cpu")
    dist, pred = sssp(G.to("gpu"), sources, method=method, predecessors=True, device="gpu")
    assert isinstance(dist, cp.ndarray) and dist.dtype == cpu_dist.dtype
    assert_matches(dist.get(), cpu_dist)
    for row, s in enumerate(sources):
        verify_sssp(G, s, dist[row], pred[row])


@pytest.mark.gpu
def test_gpu_negative_cycle_and_unweighted():
    G = wg.Graph.from_edges([0, 1, 2, 3], [1, 2, 3, 1], weights=[4, 1, 1, -3])
    with pytest.raises(NegativeCycleError):
        sssp(G, 0, device="gpu")
    H = wg.Graph.from_edges([0, 1, 2], [1, 2, 3], num_vertices=5)
    assert sssp(H, 0, device="gpu").get().tolist() == [0, 1, 2, 3, INF]


def test_int32_weights_too_large_for_int32_distances():
    """int32 weights whose path sums need int64 (delta-stepping's int32 path is not taken)."""
    G = random_graph(11, 300, 2000, True, np.int32, 2**24, 2**27)
    for method in ("delta", "near_far"):
        dist = sssp(G, 0, method=method, device="cpu")
        assert_matches(dist, sssp_reference(G, 0))
        assert dist.max() > 2**31 or (dist[dist < INF].max() > 2**28)


@pytest.mark.parametrize("method", ["delta", "near_far"])
def test_huge_and_small_buckets(method):
    """One huge bucket (BFS-like parallel steps over large sorted frontiers), then many."""
    G = random_graph(12, 30_000, 300_000, True, np.int32, 1, 50)
    for delta in (1e9, 3.0):
        stats: dict = {}
        dist = sssp_cpu(G.indptr, G.indices, G.weights, 0, method=method, delta=delta,
                        stats=stats)  # fmt: skip
        assert_matches(dist, sssp_reference(G, 0))
        assert stats["arcs"] >= G.num_arcs * 0.9
