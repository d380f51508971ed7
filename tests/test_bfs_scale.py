"""The scale path: chunked generation, the chunked GPU CSR build and the GPU level verifier.

Oracles: the one-shot generators (``kronecker_edges``/``rmat_edges``, whose concatenated chunks
must be equal item for item), the one-shot GPU and CPU CSR builders (the chunked build must
give identical arrays), SciPy's BFS (levels the GPU verifier must accept) and levels broken on
purpose (which it must reject, naming the rule). The CPU tests run everywhere; the ``gpu`` ones
run the same checks on a device, with chunk sizes, sort batches and compaction steps small
enough to reach every path of the chunked build at small scale.
"""

from __future__ import annotations

import itertools

import numpy as np
import pytest
from scipy.sparse import csgraph

import warpgraph as wg
from warpgraph import generators as gen
from warpgraph.errors import InvalidArgumentError, VerificationError
from warpgraph.generators.chunked import RmatChunks

CPU = {"device": "cpu"}


def _concat(chunks):
    parts = list(chunks)
    xp = np
    if parts and type(parts[0][0]).__module__.startswith("cupy"):
        import cupy as xp
    return xp.concatenate([p[0] for p in parts]), xp.concatenate([p[1] for p in parts])


# ------------------------------------------------------------------------ CPU: chunk sources
@pytest.mark.parametrize("chunk", [1, 7, 1000, 4096, 10**6])
def test_kronecker_chunks_concatenate_to_the_edge_list(chunk):
    src, dst = gen.kronecker_edges(8, 16, seed=3, **CPU)
    chunks = RmatChunks.kronecker(8, 16, seed=3, chunk_edges=chunk, **CPU)
    assert len(chunks) == -(-len(src) // chunk)
    s, d = _concat(chunks)
    assert s.dtype == src.dtype and np.array_equal(s, src) and np.array_equal(d, dst)
    s2, _ = _concat(chunks)  # a second pass gives the same list
    assert np.array_equal(s2, src)


@pytest.mark.parametrize("permute", [False, True])
@pytest.mark.parametrize("scale", [1, 5, 9])
def test_rmat_chunks_any_scale_and_initiator(scale, permute):
    kw = {"seed": 11, "permute": permute, "num_edges": 3001, **CPU}
    src, dst = gen.rmat_edges(scale, 4, 0.45, 0.2, 0.2, **kw)
    s, d = _concat(RmatChunks(scale, 4, 0.45, 0.2, 0.2, chunk_edges=256, **kw))
    assert np.array_equal(s, src) and np.array_equal(d, dst)


def test_chunked_graph_on_the_cpu_equals_the_one_shot_graph():
    for directed, simple in [(False, True), (True, True), (False, False)]:
        G = gen.kronecker_chunked(9, 8, seed=2, directed=directed, simple=simple, chunk_edges=999,
                                  **CPU)  # fmt: skip
        H = gen.kronecker(9, 8, seed=2, directed=directed, simple=simple, **CPU)
        assert np.array_equal(G.indptr, H.indptr) and np.array_equal(G.indices, H.indices)
        assert G.directed == H.directed
    G = gen.rmat_chunked(7, 4, seed=4, permute=True, chunk_edges=100, **CPU)
    H = gen.rmat(7, 4, seed=4, permute=True, **CPU)
    assert np.array_equal(G.indices, H.indices)


def test_chunk_source_arguments_are_checked():
    with pytest.raises(InvalidArgumentError, match="chunk_edges must be >= 1"):
        RmatChunks(4, chunk_edges=0, **CPU)
    with pytest.raises(InvalidArgumentError, match="scale must be"):
        RmatChunks(-1, **CPU)


def test_chunked_build_refuses_a_one_shot_iterator_before_touching_a_device():
    from warpgraph.gpu.csr import build_csr_chunked

    with pytest.raises(InvalidArgumentError, match="re-iterable"):
        build_csr_chunked(iter([([0], [1])]), 2)
    with pytest.raises(InvalidArgumentError, match="merge must be"):
        build_csr_chunked([], 2, merge="mean")


def test_one_shot_results_unchanged_on_the_cpu():
    """The chunk offset added to the Numba kernel leaves the whole list as it was."""
    from warpgraph.generators import _counter_rng as crng
    from warpgraph.generators._common import STREAM_EDGES, stream_keys
    from warpgraph.generators.kronecker import _thresholds

    key = stream_keys(5)[STREAM_EDGES]
    t = _thresholds(0.57, 0.19, 0.19)
    a, b = np.empty(5000, np.int32), np.empty(5000, np.int32)
    crng.rmat_pairs(key, 12, *t, a, b)
    c, d = np.empty(1000, np.int32), np.empty(1000, np.int32)
    crng.rmat_pairs(key, 12, *t, c, d, 4000)
    assert np.array_equal(a[4000:], c) and np.array_equal(b[4000:], d)


# ------------------------------------------------------------------------------------ GPU
@pytest.fixture(scope="module")
def cp():
    from warpgraph.device import cupy

    return cupy()


def _edge_lists():
    rng = np.random.default_rng(7)
    out = {}
    n = 300
    out["random"] = (rng.integers(0, n, 5000), rng.integers(0, n, 5000), n)
    # loops, repeated edges, isolated vertices
    s = np.r_[rng.integers(0, 50, 2000), 60, 60, 61, 61, 61]
    d = np.r_[rng.integers(0, 50, 2000), 60, 61, 61, 61, 62]
    out["multi"] = (s, d, 70)
    # a hub of 20,000 arcs (the long-row radix batches) and rows of every length class
    hub = np.zeros(20_000, np.int64)
    leaves = rng.integers(1, 3000, 20_000)
    mid_s = rng.integers(1, 40, 30_000)
    mid_d = rng.integers(0, 3000, 30_000)
    out["hub"] = (np.r_[hub, mid_s], np.r_[leaves, mid_d], 3000)
    return out


def _split(src, dst, sizes, device, cp):
    xp = cp if device == "gpu" else np
    bounds = np.cumsum([0, *sizes])
    out = [(xp.asarray(src[a:b]), xp.asarray(dst[a:b])) for a, b in itertools.pairwise(bounds)]
    return [*out, (xp.asarray(src[bounds[-1] :]), xp.asarray(dst[bounds[-1] :]))]


@pytest.mark.gpu
@pytest.mark.parametrize("name", ["random", "multi", "hub"])
@pytest.mark.parametrize("directed", [False, True])
@pytest.mark.parametrize("loops,merge", [(False, None), (True, "min"), (False, "first")])
def test_chunked_build_equals_the_one_shot_build(cp, name, directed, loops, merge):
    from warpgraph.gpu.csr import build_csr, build_csr_chunked

    src, dst, n = _edge_lists()[name]
    src, dst = src.astype(np.int32), dst.astype(np.int32)
    want = build_csr(cp.asarray(src), cp.asarray(dst), None, n, directed, loops, merge)
    sizes = [0, 1, 999, 0, 1500, 3000]
    for device, budget, step in [("gpu", None, 1 << 28), ("cpu", 4096, 64), ("gpu", 2, 32)]:
        chunks = _split(src, dst, sizes, device, cp)
        got = build_csr_chunked(chunks, n, directed, loops, merge, sort_budget=budget,
                                compact_step=step)  # fmt: skip
        assert got[2] is None
        assert cp.array_equal(got[0], want[0]), (device, budget, step)
        assert got[1].dtype == want[1].dtype and cp.array_equal(got[1], want[1])


@pytest.mark.gpu
def test_chunked_build_int64_ids_and_indices(cp):
    from warpgraph.gpu.csr import build_csr, build_csr_chunked

    src, dst, n = _edge_lists()["random"]
    want = build_csr(cp.asarray(src), cp.asarray(dst), None, n, False, True, "min",
                     index_dtype="int64")  # fmt: skip
    chunks = [(cp.asarray(src[:100]), cp.asarray(dst[:100])), (src[100:], dst[100:])]
    got = build_csr_chunked(chunks, n, False, True, "min", index_dtype="int64")
    assert got[1].dtype == np.int64
    assert cp.array_equal(got[0], want[0]) and cp.array_equal(got[1], want[1])
    profile: dict = {}
    build_csr_chunked(chunks, n, False, True, "min", profile=profile)
    assert set(profile) >= {"count", "scatter", "sort", "merge", "arcs", "runs"}
    assert profile["runs"] == int(want[0][-1])


@pytest.mark.gpu
def test_chunked_build_errors(cp):
    from warpgraph.gpu.csr import build_csr_chunked

    with pytest.raises(InvalidArgumentError, match=r"chunk 1 \(edges from 2\).*outside \[0, 5\)"):
        build_csr_chunked([([0, 1], [1, 2]), ([3, 9], [4, 4])], 5)

    class Drifting:  # gives other edges on its second pass
        def __init__(self):
            self.calls = 0

        def __iter__(self):
            self.calls += 1
            yield cp.asarray([0, 1]), cp.asarray([1, self.calls])

    with pytest.raises(InvalidArgumentError, match="second pass"):
        build_csr_chunked(Drifting(), 4)
    indptr, indices, _ = build_csr_chunked([], 3)
    assert indptr.tolist() == [0, 0, 0, 0] and indices.size == 0


@pytest.mark.gpu
@pytest.mark.parametrize("directed", [False, True])
def test_chunked_kronecker_on_the_gpu(cp, directed):
    chunks = RmatChunks.kronecker(11, 16, seed=9, chunk_edges=5000, device="gpu")
    s, d = _concat(chunks)
    src, dst = gen.kronecker_edges(11, 16, seed=9, **CPU)
    assert np.array_equal(cp.asnumpy(s), src) and np.array_equal(cp.asnumpy(d), dst)
    G = gen.kronecker_chunked(11, 16, seed=9, directed=directed, chunk_edges=5000, device="gpu")
    H = gen.kronecker(11, 16, seed=9, directed=directed, device="gpu")
    C = gen.kronecker(11, 16, seed=9, directed=directed, **CPU)
    assert cp.array_equal(G.indptr, H.indptr) and cp.array_equal(G.indices, H.indices)
    assert np.array_equal(cp.asnumpy(G.indices), C.indices)
    levels = wg.bfs(G, int(cp.argmax(cp.diff(G.indptr))))
    assert cp.array_equal(levels, wg.bfs(H, int(cp.argmax(cp.diff(H.indptr)))))


@pytest.mark.gpu
def test_kronecker_switches_to_chunks_when_the_one_shot_build_does_not_fit(cp, monkeypatch):
    import warpgraph.generators.chunked as chunked

    H = gen.kronecker(10, 8, seed=1, device="gpu")
    monkeypatch.setattr(chunked, "one_shot_fits", lambda n, m, directed: False)
    G = gen.kronecker(10, 8, seed=1, device="gpu")
    assert cp.array_equal(G.indptr, H.indptr) and cp.array_equal(G.indices, H.indices)
    W = gen.kronecker(10, 8, seed=1, weights="gap", device="gpu")  # weights: one-shot still
    assert W.weights is not None


# ------------------------------------------------------------------- GPU level verifier
def _oracle(G, s):
    d = csgraph.shortest_path(G.to("cpu").to_scipy(dtype=np.int8), directed=G.directed,
                              unweighted=True, indices=s)  # fmt: skip
    return np.where(np.isinf(d), -1, d).astype(np.int32)


@pytest.mark.gpu
@pytest.mark.parametrize("tile", [32, 1 << 16])
def test_verify_levels_gpu_accepts_bfs_levels(cp, tile):
    from warpgraph.algorithms.bfs.verify import verify_levels_gpu

    rng = np.random.default_rng(3)
    graphs = [
        gen.kronecker(10, 16, seed=5, device="gpu"),
        wg.Graph.from_edges(
            rng.integers(0, 500, 2500),
            rng.integers(0, 500, 2500),
            num_vertices=520,
            directed=True,
            device="gpu",
        ),
    ]
    for G in graphs:
        for s in (0, 7, 511):
            want = _oracle(G, s)
            reached = verify_levels_gpu(G, s, cp.asarray(want), tile=tile)
            assert reached == int((want >= 0).sum())


@pytest.mark.gpu
@pytest.mark.parametrize("tile", [32, 1 << 16])
def test_verify_levels_gpu_rejects_broken_levels(cp, tile):
    from warpgraph.algorithms.bfs.verify import verify_levels_gpu

    G = gen.kronecker(10, 16, seed=5, device="gpu")
    deg = cp.asnumpy(cp.diff(G.indptr))
    s = int(deg.argmax())
    good = _oracle(G, s)
    far = int(np.flatnonzero(good == good.max())[0])
    isolated = int(np.flatnonzero(deg == 0)[0])

    def broken(change):
        lv = good.copy()
        change(lv)
        return cp.asarray(lv)

    cases = [
        (lambda lv: lv.__setitem__(s, 1), "levels"),  # source not at 0
        (lambda lv: lv.__setitem__(far, good.max() + 1), "levels"),  # no parent one level up
        (lambda lv: lv.__setitem__(far, -1), "rule 3"),  # reached neighbour of an unreached
        (lambda lv: lv.__setitem__(isolated, 0), "levels"),  # a second level 0
        (lambda lv: lv.__setitem__(isolated, -5), "levels"),  # below -1
        (lambda lv: lv.__setitem__(s, 0) or lv.__setitem__(far, 0), "levels"),
    ]
    for change, rule in cases:
        with pytest.raises(VerificationError, match=rule):
            verify_levels_gpu(G, s, broken(change), tile=tile)
    with pytest.raises(InvalidArgumentError, match="int32"):
        verify_levels_gpu(G, s, cp.asarray(good, dtype=cp.int64))
    with pytest.raises(InvalidArgumentError, match="on the GPU"):
        verify_levels_gpu(G.to("cpu"), s, good)
