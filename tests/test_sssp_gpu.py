"""GPU SSSP backend (``algorithms/sssp/gpu.py``, ``sssp.cu``) against SciPy and a Bellman-Ford
oracle: every method, filtering on and off, every weight dtype (each state layout: split
32-bit keys with each of its features, packed 32-bit words with each of theirs and the
H-BF-only kernel, 64-bit keys, with and without predecessors), edge classes, the overflow paths
(frontier regeneration, far-pile rescans), negative weights and negative cycles, zero weights,
self-loops, parallel arcs, unreachable vertices, rows cut into chunks at every boundary, reused
scratch buffers, batches of sources and predecessor trees.
"""

from __future__ import annotations

import numpy as np
import pytest
import scipy.sparse as sp
from hypothesis import given
from hypothesis import strategies as st
from scipy.sparse.csgraph import dijkstra

import warpgraph as wg
from warpgraph.errors import InvalidArgumentError, NegativeCycleError

pytestmark = pytest.mark.gpu

METHODS = ("hbf", "near_far", "delta")
LAYOUTS = ("auto", "split", "packed")
FEATURE_SETS = (0, ["qbuf"], ["stream"], ["done"], ["skip1"], ["ilp"], ["qbuf", "done"], None)
PACKED_SETS = (
    0,  # the kernel before session 3
    ["qbuf"],
    ["ilp", "stream"],
    ["defer"],
    ["spec"],  # the H-BF-only kernel (hbf); ignored by near_far and delta
    ["spec", "defer", "ilp", "pref"],
    ["spec", "ilp2", "pref"],
    ["spec", "ilp2", "qbuf", "skip1"],
    None,  # the default: every feature
)
DTYPES = (np.int32, np.int64, np.float32, np.float64)
IMAX = np.iinfo(np.int64).max


def _run(G: wg.Graph, sources, **kw):
    from warpgraph.algorithms.sssp.gpu import sssp_gpu

    Gg = G.to("gpu")
    dist, pred = sssp_gpu(Gg.indptr, Gg.indices, Gg.weights, np.asarray(sources, np.int64),
                          directed=G.directed, **kw)  # fmt: skip
    return dist.get(), (None if pred is None else pred.get())


def _arcs(G: wg.Graph):
    indptr, indices, w = G.indptr, G.indices, G.weights
    src = np.repeat(np.arange(G.num_vertices), np.diff(indptr))
    return src, np.asarray(indices, np.int64), np.asarray(w)


def _oracle(G: wg.Graph, sources) -> np.ndarray:
    """SciPy dijkstra on the arcs merged by minimum (explicit zeros are edges)."""
    n = G.num_vertices
    src, dst, w = _arcs(G)
    order = np.lexsort((w, dst, src))
    src, dst, w = src[order], dst[order], w[order]
    first = np.r_[True, (src[1:] != src[:-1]) | (dst[1:] != dst[:-1])] if src.size else src
    src, dst, w = src[first], dst[first], w[first].astype(np.float64)
    indptr = np.zeros(n + 1, np.int64)
    np.cumsum(np.bincount(src, minlength=n), out=indptr[1:])
    M = sp.csr_matrix((w, dst, indptr), shape=(n, n))
    return dijkstra(M, directed=True, indices=np.asarray(sources))


def _bellman_ford(G: wg.Graph, s: int) -> np.ndarray | None:
    """Plain Bellman-Ford (float64); None when a negative cycle is reachable from s."""
    n = G.num_vertices
    src, dst, w = _arcs(G)
    d = np.full(n, np.inf)
    d[s] = 0.0
    for _ in range(n):
        cand = d[src] + w
        new = d.copy()
        np.minimum.at(new, dst, cand)
        if np.array_equal(new, d):
            return d
        d = new
    return None


def _check(G, sources, dist, pred, ref, dtype, msg=""):
    integer = np.dtype(dtype).kind in "iu"
    assert dist.dtype == (np.int64 if integer else dtype), msg
    assert dist.shape == (len(sources), G.num_vertices), msg
    if integer:
        exp = np.full(ref.shape, IMAX, np.int64)
        exp[~np.isinf(ref)] = ref[~np.isinf(ref)].astype(np.int64)
        np.testing.assert_array_equal(dist, exp, err_msg=msg)
    else:
        assert (np.isinf(dist) == np.isinf(ref)).all(), msg
        fin = ~np.isinf(ref)
        tol = 1e-4 if dtype == np.float32 else 1e-9
        np.testing.assert_allclose(dist[fin], ref[fin], rtol=tol, atol=tol, err_msg=msg)
    if pred is not None:
        for i, s in enumerate(sources):
            _check_tree(G, int(s), dist[i], pred[i], msg)


def _check_tree(G, s, dist, pred, msg=""):
    """pred is a shortest-path tree: tight arcs, -1 exactly at s and unreachable, acyclic."""
    n = G.num_vertices
    unreached = np.isinf(dist) if dist.dtype.kind == "f" else dist == IMAX
    assert pred[s] == -1 and (pred[unreached] == -1).all(), msg
    src, dst, w = _arcs(G)
    keys = src * n + dst
    order = np.argsort(keys, kind="stable")
    uniq, first = np.unique(keys[order], return_index=True)
    wmin = np.minimum.reduceat(w[order], first) if keys.size else w
    v = np.flatnonzero(~unreached)
    v = v[v != s]
    u = pred[v]
    assert (u >= 0).all(), f"{msg}: reached vertex without predecessor"
    q = u * n + v
    pos = np.minimum(np.searchsorted(uniq, q), max(uniq.size - 1, 0))
    assert v.size == 0 or (uniq[pos] == q).all(), f"{msg}: a predecessor arc does not exist"
    if v.size:
        if dist.dtype.kind == "f":
            got = dist[u].astype(np.float64) + wmin[pos]
            tol = 1e-3 if dist.dtype == np.float32 else 1e-9
            np.testing.assert_allclose(got, dist[v], rtol=tol, atol=tol, err_msg=msg)
        else:
            np.testing.assert_array_equal(dist[u] + wmin[pos].astype(np.int64), dist[v], msg)
    # acyclic: pointer jumping reaches the source from every reached vertex
    p = np.where(pred < 0, np.arange(n), pred)
    for _ in range(int(np.ceil(np.log2(max(n, 2)))) + 1):
        p = p[p]
    assert (p[~unreached] == s).all(), f"{msg}: predecessors contain a cycle"


def _weighted(G: wg.Graph, dtype, rng, low=1, high=100) -> wg.Graph:
    src, dst = np.repeat(np.arange(G.num_vertices), np.diff(G.indptr)), G.indices
    if not G.directed:
        keep = src <= dst
        src, dst = src[keep], dst[keep]
    if np.dtype(dtype).kind in "iu":
        w = rng.integers(low, high, src.size).astype(dtype)
    else:
        w = (rng.random(src.size) * (high - low) + low).astype(dtype)
    return wg.Graph.from_edges(src, dst, weights=w, num_vertices=G.num_vertices,
                               directed=G.directed)  # fmt: skip


@pytest.fixture(scope="module")
def graphs():
    rng = np.random.default_rng(7)
    out = {}
    out["kron"] = wg.generators.kronecker(10, 16, seed=3, weights="gap", device="cpu")
    out["grid"] = _weighted(wg.generators.grid_2d(40, 40, device="cpu"), np.int64, rng)
    n = 700  # directed, many sinks (edge classes), parallel arcs and self-loops, zero weights
    src = np.r_[rng.integers(0, 300, 2500), np.arange(20), 5, 5]
    dst = np.r_[rng.integers(0, n, 2500), np.arange(20), 9, 9]
    w = np.r_[rng.integers(0, 40, 2500), rng.integers(0, 5, 20), 30, 2]
    out["directed"] = wg.Graph.from_edges(src, dst, weights=w, num_vertices=n, directed=True)
    # a hub of degree 70,000 (chunked expansion) with a tail, and an isolated part
    leaves = 70_000
    hs = np.r_[np.zeros(leaves, np.int64), 5, np.arange(leaves + 1, leaves + 50)]
    hd = np.r_[np.arange(1, leaves + 1), leaves + 1, np.arange(leaves + 2, leaves + 51)]
    hw = rng.integers(1, 1000, hs.size)
    out["star"] = wg.Graph.from_edges(hs, hd, weights=hw, num_vertices=leaves + 60, directed=False)
    # a long path with shortcuts: thousands of levels, many near-far splits
    k = 3000
    ps = np.r_[np.arange(k - 1), rng.integers(0, k, 300)]
    pd = np.r_[np.arange(1, k), rng.integers(0, k, 300)]
    pw = np.r_[rng.integers(1, 10, k - 1), rng.integers(50, 500, 300)]
    out["path"] = wg.Graph.from_edges(ps, pd, weights=pw, num_vertices=k, directed=True)
    return out


def _sources(G):
    deg = G.out_degree()
    hub = int(np.argmax(deg))
    low = int(np.flatnonzero(deg > 0)[np.argmin(deg[deg > 0])])
    return np.array([hub, low, hub, 0])


def _as(G: wg.Graph, dtype) -> wg.Graph:
    return wg.Graph.from_edges(*_arcs(G)[:2], weights=G.weights.astype(dtype),
                               num_vertices=G.num_vertices, directed=True)  # fmt: skip


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("method", METHODS)
def test_graphs_every_method(graphs, method, dtype):
    for name, G in graphs.items():
        Gt = _as(G, dtype)
        sources = _sources(G)
        ref = _oracle(Gt, sources)
        for filtering in (True, False):
            preds = filtering == (dtype in (np.int32, np.float64))
            dist, pred = _run(Gt, sources, method=method, filtering=filtering,
                              predecessors=preds)  # fmt: skip
            _check(Gt, sources, dist, pred, ref, dtype, f"{name} {method} {dtype} {filtering}")


@pytest.mark.parametrize("method", METHODS)
def test_overflow_paths_and_classes(graphs, method):
    for name in ("directed", "kron", "path"):
        G = graphs[name]
        sources = _sources(G)
        ref = _oracle(G, sources)
        for classify in (True, False):
            stats: list = []
            dist, pred = _run(G, sources, method=method, classify=classify, predecessors=True,
                              stats=stats, _force_regen=True, _far_capacity=7)  # fmt: skip
            _check(G, sources, dist, pred, ref, np.int64, f"{name} {method} {classify}")
            assert all(s["regenerations"] > 0 for s in stats if s["iterations"] > 1)
            if method != "hbf" and name == "kron":
                assert any(s["farscans"] > 0 for s in stats)


def test_delta_values_and_blocks(graphs):
    G = graphs["grid"]
    sources = _sources(G)
    ref = _oracle(G, sources)
    for method in ("near_far", "delta"):
        for delta in (1, 7.5, 10**6):
            dist, _ = _run(G, sources, method=method, delta=delta, blocks_per_sm=1)
            _check(G, sources, dist, None, ref, np.int64, f"{method} delta={delta}")


@st.composite
def _random_graph(draw, negative=False):
    n = draw(st.integers(1, 30))
    m = draw(st.integers(0, 4 * n))
    seed = draw(st.integers(0, 2**32 - 1))
    rng = np.random.default_rng(seed)
    dtype = draw(st.sampled_from(DTYPES))
    directed = draw(st.booleans()) if not negative else True
    src, dst = rng.integers(0, n, m), rng.integers(0, n, m)
    if negative:  # potentials keep every cycle non-negative: w' = w + p(u) - p(v)
        p = rng.integers(-20, 20, n)
        w = rng.integers(0, 10, m) + p[src] - p[dst]
        if np.dtype(dtype).kind == "f":
            w = w + 0.0
    elif np.dtype(dtype).kind in "iu":
        w = rng.integers(0, 12, m)
    else:
        w = rng.random(m) * 5 * (rng.random(m) > 0.1)
    G = wg.Graph.from_edges(src, dst, weights=w.astype(dtype), num_vertices=n, directed=directed)
    s = draw(st.integers(0, n - 1))
    return G, np.array([s, draw(st.integers(0, n - 1))]), dtype


@given(
    case=_random_graph(),
    method=st.sampled_from(METHODS),
    filtering=st.booleans(),
    preds=st.booleans(),
    classify=st.booleans(),
    force=st.booleans(),
    layout=st.sampled_from(LAYOUTS),
    features=st.integers(0, 511),
)
def test_random_graphs(case, method, filtering, preds, classify, force, layout, features):
    G, sources, dtype = case
    ref = _oracle(G, sources)
    dist, pred = _run(G, sources, method=method, filtering=filtering, predecessors=preds,
                      classify=classify, _force_regen=force, _far_capacity=3, layout=layout,
                      features=features)  # fmt: skip
    _check(G, sources, dist, pred, ref, dtype,
           f"{method} {filtering} {preds} {classify} {layout} {features}")  # fmt: skip


def _undirected(G: wg.Graph, dtype) -> wg.Graph:
    """G's edges, undirected (skip1 applies), weights of ``dtype``."""
    src, dst, w = _arcs(G)
    if not G.directed:  # each edge once (from_edges stores both arcs)
        keep = src <= dst
        src, dst, w = src[keep], dst[keep], w[keep]
    return wg.Graph.from_edges(src, dst, weights=w.astype(dtype), num_vertices=G.num_vertices,
                               directed=False)  # fmt: skip


@pytest.mark.parametrize("method", METHODS)
def test_split_layout_features(graphs, method):
    """The split layout with each feature alone and together, both weight types it serves,
    directed and undirected, filtering on and off, against SciPy."""
    for name, G0 in graphs.items():
        for dtype in (np.int32, np.float32):
            for Gt in (_as(G0, dtype), _undirected(G0, dtype)):
                sources = _sources(Gt)
                ref = _oracle(Gt, sources)
                for feats in FEATURE_SETS:
                    for filtering in (True, False):
                        msg = f"{name} {method} {dtype} {Gt.directed} {feats} {filtering}"
                        dist, _ = _run(Gt, sources, method=method, filtering=filtering,
                                       layout="split", features=feats)  # fmt: skip
                        _check(Gt, sources, dist, None, ref, dtype, msg)


@pytest.mark.parametrize("method", METHODS)
def test_packed_layout(graphs, method):
    """The packed (distance, stamp) word with and without its features."""
    for name, G in graphs.items():
        for dtype in (np.int32, np.float32):
            sources = _sources(G)
            for Gu in (_as(G, dtype), _undirected(G, dtype)):
                ref = _oracle(Gu, sources)
                for feats in PACKED_SETS:
                    for filtering in (True, False):
                        dist, _ = _run(Gu, sources, method=method, filtering=filtering,
                                       layout="packed", features=feats)  # fmt: skip
                        msg = f"{name} {method} {dtype} {Gu.directed} {feats} {filtering}"
                        _check(Gu, sources, dist, None, ref, dtype, msg)


def test_split_overflow_paths(graphs):
    """Split layout: frontiers rebuilt from the stamps, far-pile rescans, edge classes."""
    for name in ("directed", "kron", "path", "star"):
        G = graphs[name]
        sources = _sources(G)
        ref = _oracle(G, sources)
        for method in METHODS:
            for classify in (True, False):
                stats: list = []
                dist, _ = _run(G, sources, method=method, classify=classify, layout="split",
                               stats=stats, _force_regen=True, _far_capacity=7)  # fmt: skip
                _check(G, sources, dist, None, ref, np.int64, f"{name} {method} {classify}")
                assert all(s["regenerations"] > 0 for s in stats if s["iterations"] > 1)


def test_chunk_boundaries():
    """Large rows of 256..1100 arcs next to each other in the CSR (the split layout cuts them
    into floor(deg / 256) chunks, the last one longer, and names each chunk by its first arc
    / 256), reached again and again along ever cheaper paths (the chunk-done filter)."""
    rng = np.random.default_rng(11)
    degs = [256, 257, 300, 511, 512, 513, 767, 768, 1100]
    hubs = np.arange(len(degs))
    n = 4000
    src, dst, w = [], [], []
    for h, d in zip(hubs, degs, strict=True):
        src.append(np.full(d, h))
        dst.append(rng.integers(len(degs), n, d))
        w.append(rng.integers(1, 100, d))
    # source n - 1 reaches each hub directly (dear) and through 1..4 ever cheaper hops
    s = n - 1
    for h in hubs:
        prev = s
        for hop in range(4):
            mid = int(rng.integers(len(degs), n - 1))
            src.append(np.array([prev, prev]))
            dst.append(np.array([h, mid]))
            w.append(np.array([400 - 90 * hop, 1]))
            prev = mid
    G = wg.Graph.from_edges(np.concatenate(src), np.concatenate(dst), weights=np.concatenate(w),
                            num_vertices=n, directed=True)  # fmt: skip
    sources = [s, 0, 4]
    ref = _oracle(G, sources)
    runs = [("split", f) for f in (None, ["done"], 0)]
    runs += [("packed", f) for f in (None, ["spec", "defer", "ilp", "pref"], ["spec", "ilp2"])]
    runs += [("packed", ["defer", "ilp"])]
    for method in METHODS:
        for layout, feats in runs:
            for filtering in (True, False):
                dist, _ = _run(G, sources, method=method, layout=layout, features=feats,
                               filtering=filtering)  # fmt: skip
                msg = f"{method} {layout} {feats} {filtering}"
                _check(G, sources, dist, None, ref, np.int64, msg)


def test_packed_overflow_paths(graphs):
    """Packed layout, every feature (the H-BF-only kernel for hbf): frontiers rebuilt from the
    stamps after each expansion (deferred vertices included), edge classes, far rescans."""
    for name in ("directed", "kron", "path", "star"):
        G = graphs[name]
        sources = _sources(G)
        ref = _oracle(G, sources)
        for method in METHODS:
            for classify in (True, False):
                for feats in (None, ["spec", "defer", "pref", "ilp2"], ["spec", "ilp2"]):
                    stats: list = []
                    dist, _ = _run(G, sources, method=method, classify=classify,
                                   layout="packed", features=feats, stats=stats,
                                   _force_regen=True, _far_capacity=7)  # fmt: skip
                    _check(G, sources, dist, None, ref, np.int64, f"{name} {method} {classify}")
                    assert all(s["regenerations"] > 0 for s in stats if s["iterations"] > 1)


def test_workspace_reuse_and_weight_range(graphs):
    """Kept scratch buffers give the same answers call after call, for other sources and
    methods in between; caller-given weight statistics stand for the weights."""
    from warpgraph.algorithms.sssp.gpu import release_workspace

    G = graphs["kron"]
    Gg = G.to("gpu")
    sources = _sources(G)
    ref = _oracle(G, sources)
    wr = (float(G.weights.min()), float(G.weights.max()), float(G.weights.mean()))
    for method in ("hbf", "hbf", "near_far", "hbf", "delta", "delta", "hbf"):
        for i, s in enumerate(sources):
            for kw in ({}, {"weight_range": wr}, {"reuse": False}):
                from warpgraph.algorithms.sssp.gpu import sssp_gpu

                dist, _ = sssp_gpu(Gg.indptr, Gg.indices, Gg.weights, np.array([s]),
                                   method=method, directed=False, **kw)  # fmt: skip
                _check(G, [s], dist.get(), None, ref[i : i + 1], np.int64, f"{method} {s} {kw}")
    release_workspace()
    dist, _ = _run(G, sources)
    _check(G, sources, dist, None, ref, np.int64, "after release")


def test_public_call_split_path(graphs):
    """The public call (cached weight statistics, split layout) on both weight types."""
    from warpgraph.algorithms.sssp import sssp

    for name in ("kron", "star", "directed"):
        for dtype in (np.int32, np.float32):
            for Gt in (_as(graphs[name], dtype), _undirected(graphs[name], dtype)):
                sources = _sources(Gt)
                ref = _oracle(Gt, sources)
                for method in ("auto", *METHODS):
                    dist = sssp(Gt.to("gpu"), sources, method=method, device="gpu").get()
                    _check(Gt, sources, dist, None, ref, dtype, f"{name} {dtype} {method}")


@given(case=_random_graph(negative=True), filtering=st.booleans(), preds=st.booleans())
def test_negative_weights_without_cycles(case, filtering, preds):
    G, sources, dtype = case
    ref = np.stack([_bellman_ford(G, int(s)) for s in sources])
    dist, pred = _run(G, sources, method="hbf", filtering=filtering, predecessors=preds)
    _check(G, sources, dist, pred, ref, dtype, f"negative {filtering} {preds}")


def _check_cycle(G: wg.Graph, err: NegativeCycleError):
    src, dst, w = _arcs(G)
    cyc = err.cycle
    assert cyc and err.vertex == cyc[0]
    total = 0.0
    for a, b in zip(cyc, cyc[1:] + cyc[:1], strict=True):
        ws = w[(src == a) & (dst == b)]
        assert ws.size, f"cycle arc {a} -> {b} missing"
        total += float(ws.min())
    assert total < 0


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("seed", range(4))
def test_negative_cycles(dtype, seed):
    rng = np.random.default_rng(seed)
    n = 200
    src, dst = rng.integers(0, n, 800), rng.integers(0, n, 800)
    w = rng.integers(0, 30, 800)
    cyc = rng.choice(n, size=int(rng.integers(1, 6)), replace=False)  # 1: a negative self-loop
    src = np.r_[src, np.arange(n - 1), cyc]
    dst = np.r_[dst, np.arange(1, n), np.roll(cyc, -1)]
    w = np.r_[w, np.full(n - 1, 5), np.full(cyc.size, -40)]
    G = wg.Graph.from_edges(src, dst, weights=w.astype(dtype), num_vertices=n, directed=True)
    for filtering in (True, False):
        with pytest.raises(NegativeCycleError) as info:
            _run(G, [0], method="hbf", filtering=filtering)
        _check_cycle(G, info.value)


def test_negative_cycle_unreachable_and_undirected():
    # a negative cycle that the source cannot reach does not matter
    src, dst, w = [0, 1, 3, 4], [1, 2, 4, 3], [2, -1, -5, 1]
    G = wg.Graph.from_edges(src, dst, weights=w, num_vertices=5, directed=True)
    dist, pred = _run(G, [0], predecessors=True)
    assert dist.tolist() == [[0, 2, 1, IMAX, IMAX]] and pred.tolist() == [[-1, 0, 1, -1, -1]]
    with pytest.raises(NegativeCycleError):
        _run(G, [3])
    # an undirected negative edge is a negative 2-cycle
    U = wg.Graph.from_edges([0, 1], [1, 2], weights=[3.0, -1.0], num_vertices=3, directed=False)
    with pytest.raises(NegativeCycleError) as info:
        _run(U, [0])
    _check_cycle(U, info.value)


def test_wide_keys_and_zero_weights():
    # integer distances beyond 32 bits use the 64-bit layouts (the second graph is a DAG with
    # negative weights: 64-bit keys with predecessors)
    rng = np.random.default_rng(1)
    n = 500
    a, b = rng.integers(0, n, 3000), rng.integers(0, n, 3000)
    lo, hi = np.minimum(a, b), np.maximum(a, b)
    cases = [(a, b, rng.integers(0, 2**40, 3000)), (lo, hi, rng.integers(-(2**20), 2**30, 3000))]
    for src, dst, w in cases:
        G = wg.Graph.from_edges(src, dst, weights=w, num_vertices=n, directed=True)
        ref = np.stack([_bellman_ford(G, s) for s in (0, 1)])
        dist, pred = _run(G, [0, 1], predecessors=True)
        reach = ~np.isinf(ref)
        assert (dist[~reach] == IMAX).all()
        np.testing.assert_array_equal(dist[reach], ref[reach].astype(np.int64))  # < 2**53
        for i, s in enumerate((0, 1)):
            _check_tree(G, s, dist[i], pred[i])
    # zero weights with zero-weight cycles: a tree, not a cycle
    Z = wg.Graph.from_edges([0, 1, 2, 2, 3], [1, 2, 0, 3, 2], weights=[0, 0, 0, 0, 0],
                            num_vertices=5, directed=True)  # fmt: skip
    for method in METHODS:
        dist, pred = _run(Z, [0], method=method, predecessors=True)
        assert dist.tolist() == [[0, 0, 0, 0, IMAX]]
        _check_tree(Z, 0, dist[0], pred[0])


def test_errors_and_empty():
    G = wg.Graph.from_edges([0, 1], [1, 2], weights=[1.0, -2.0], num_vertices=3)
    with pytest.raises(InvalidArgumentError, match="method='hbf'"):
        _run(G, [0], method="delta")
    with pytest.raises(InvalidArgumentError, match="method must be"):
        _run(G, [0], method="dijkstra")
    P = wg.Graph.from_edges([0, 1], [1, 2], weights=[1.0, 2.0], num_vertices=3)
    with pytest.raises(InvalidArgumentError, match="delta"):
        _run(P, [0], method="near_far", delta=0)
    import cupy as cp

    from warpgraph.algorithms.sssp.gpu import sssp_gpu

    ip, ix = cp.array([0, 1, 1], cp.int64), cp.array([1], cp.int32)
    with pytest.raises(InvalidArgumentError, match="NaN"):
        sssp_gpu(ip, ix, cp.array([np.nan]), np.array([0]))
    dist, pred = _run(P, [], predecessors=True)
    assert dist.shape == (0, 3) and pred.shape == (0, 3)
    none = np.zeros(0, np.int64)
    E = wg.Graph.from_edges(none, none, weights=np.zeros(0, np.float32), num_vertices=4)
    dist, _ = _run(E, [2, 0])
    assert dist.dtype == np.float32 and np.isinf(dist).sum() == 6 and dist[0, 2] == 0


@pytest.mark.parametrize("method", METHODS)
def test_fused_barrier_chain_and_claims(graphs, method):
    """Session 4c: the counter-fused barrier against the previous one, chained expansion (any
    number of rounds), claims without pre-reads and the small-degree hint, on every graph,
    directed and undirected, with the overflow paths."""
    for name, G in graphs.items():
        sources = _sources(G)
        for Gu in (_as(G, np.int32), _undirected(G, np.int32)):
            ref = _oracle(Gu, sources)
            for fused, chain, claim, small in (
                (False, 0, 0, False),
                (True, 0, 0, False),
                (True, 1, 0, None),
                (True, 8, 16384, None),
                (True, 64, 10**9, None),
                (False, 3, 10**9, None),
            ):
                for force in (False, True):
                    dist, _ = _run(Gu, sources, method=method, layout="packed",
                                   fused_sync=fused, chain=chain, claim_limit=claim,
                                   small_degree=small, _force_regen=force,
                                   _far_capacity=7 if force else None)  # fmt: skip
                    msg = f"{name} {method} {Gu.directed} {fused} {chain} {claim} {force}"
                    _check(Gu, sources, dist, None, ref, np.int32, msg)
