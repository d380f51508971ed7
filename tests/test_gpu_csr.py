"""GPU CSR construction (warpgraph.gpu.csr.build_csr) against independent oracles.

Oracles: a NumPy reference built from a stable lexsort (below, obviously correct, slow), SciPy's
``coo -> csr`` with ``sum_duplicates`` for ``merge="sum"``, and the CPU builder (same semantics
required: the two backends must give identical arrays, NaN rules and float sums included).
Graphs are shaped to reach every sorting path of the counting-sort build: rows of 2-32 arcs
(registers), up to 8192 (shared memory) and beyond (batched radix sort, rows sorted alone).
"""

from __future__ import annotations

import numpy as np
import pytest
import scipy.sparse as sp
from hypothesis import given
from hypothesis import strategies as st

from warpgraph.cpu import csr as cpu_csr
from warpgraph.errors import InvalidArgumentError

pytestmark = pytest.mark.gpu

MERGES = [None, "min", "max", "sum", "first", "last"]


@pytest.fixture(scope="module")
def cp():
    from warpgraph.device import cupy

    return cupy()


def reference_csr(src, dst, w, n, directed, drop_loops, merge):
    """Arcs listed in input order, stably sorted by (row, col), then merged run by run."""
    src = np.asarray(src, dtype=np.int64)
    dst = np.asarray(dst, dtype=np.int64)
    edge = np.arange(src.size)
    if drop_loops:
        keep = src != dst
        src, dst, edge = src[keep], dst[keep], edge[keep]
    if directed:
        rows, cols, order_key = src, dst, edge
    else:
        nl = src != dst
        rows = np.concatenate([src, dst[nl]])
        cols = np.concatenate([dst, src[nl]])
        order_key = np.concatenate([edge, edge[nl]])
    arc_edge = order_key
    order = np.lexsort((order_key, cols, rows))
    rows, cols, arc_edge = rows[order], cols[order], arc_edge[order]
    ws = None if w is None else np.asarray(w)[arc_edge]
    if merge is not None and rows.size:
        head = np.ones(rows.size, dtype=bool)
        head[1:] = (rows[1:] != rows[:-1]) | (cols[1:] != cols[:-1])
        starts = np.flatnonzero(head)
        ends = np.append(starts[1:], rows.size)
        if ws is not None:
            ws = {
                "min": lambda: np.minimum.reduceat(ws, starts),
                "max": lambda: np.maximum.reduceat(ws, starts),
                "sum": lambda: np.add.reduceat(ws, starts, dtype=ws.dtype),
                "first": lambda: ws[starts],
                "last": lambda: ws[ends - 1],
            }[merge]()
        rows, cols = rows[starts], cols[starts]
    indptr = np.zeros(n + 1, dtype=np.int64)
    np.cumsum(np.bincount(rows, minlength=n), out=indptr[1:])
    return indptr, cols, ws


def build(cp, src, dst, w, n, directed, loops, merge, **kw):
    from warpgraph.gpu.csr import build_csr

    ip, ix, wo = build_csr(
        cp.asarray(src),
        cp.asarray(dst),
        None if w is None else cp.asarray(w),
        n,
        directed,
        loops,
        merge,
        **kw,
    )
    return ip.get(), ix.get(), None if wo is None else wo.get()


def assert_same(got, want, exact_weights=True):
    np.testing.assert_array_equal(got[0], want[0])
    np.testing.assert_array_equal(got[1], want[1])
    assert (got[2] is None) == (want[2] is None)
    if got[2] is not None:
        assert got[2].dtype == want[2].dtype
        if exact_weights:
            np.testing.assert_array_equal(got[2], want[2])
        else:
            np.testing.assert_allclose(got[2], want[2], rtol=1e-5)


@st.composite
def edge_lists(draw):
    n = draw(st.integers(1, 40))
    m = draw(st.integers(0, 150))
    ids = st.lists(st.integers(0, n - 1), min_size=m, max_size=m)
    src = np.array(draw(ids), dtype=np.int64)
    dst = np.array(draw(ids), dtype=np.int64)
    kind = draw(st.sampled_from([None, "int32", "int64", "float32", "float64"]))
    w = None
    if kind is not None:
        # small integers: every merge (sums included) is exact in every dtype
        w = np.array(draw(st.lists(st.integers(-20, 20), min_size=m, max_size=m)), dtype=kind)
    id_dtype = draw(st.sampled_from([np.int32, np.int64]))
    return src.astype(id_dtype), dst.astype(id_dtype), w, n


@given(
    edge_lists(),
    st.booleans(),
    st.booleans(),
    st.sampled_from(MERGES),
    st.booleans(),
)
def test_matches_reference(cp, case, directed, loops, merge, general):
    src, dst, w, n = case
    got = build(cp, src, dst, w, n, directed, loops, merge, _general=general)
    assert got[1].dtype == np.int32
    assert_same(got, reference_csr(src, dst, w, n, directed, loops, merge))


@given(edge_lists(), st.booleans(), st.booleans(), st.sampled_from(MERGES))
def test_matches_cpu_builder(cp, case, directed, loops, merge):
    src, dst, w, n = case
    got = build(cp, src, dst, w, n, directed, loops, merge)
    want = cpu_csr.build_csr(
        src.astype(np.int64),
        dst.astype(np.int64),
        w,
        n,
        undirected=not directed,
        drop_loops=loops,
        merge=merge,
        id_dtype=np.dtype(np.int32),
    )
    assert_same(got, want)


@pytest.mark.parametrize("directed", [True, False])
def test_sum_matches_scipy(cp, directed):
    rng = np.random.default_rng(3)
    n, m = 500, 20_000
    src, dst = rng.integers(0, n, m), rng.integers(0, n, m)
    w = rng.random(m)
    ip, ix, wo = build(cp, src, dst, w, n, directed, False, "sum")
    if directed:
        rows, cols, ws = src, dst, w
    else:
        nl = src != dst
        rows = np.concatenate([src, dst[nl]])
        cols = np.concatenate([dst, src[nl]])
        ws = np.concatenate([w, w[nl]])
    A = sp.coo_matrix((ws, (rows, cols)), shape=(n, n)).tocsr()
    A.sum_duplicates()
    A.sort_indices()
    np.testing.assert_array_equal(ip, A.indptr)
    np.testing.assert_array_equal(ix, A.indices)
    np.testing.assert_allclose(wo, A.data, rtol=1e-12)


@pytest.mark.parametrize("merge", MERGES)
@pytest.mark.parametrize("directed", [True, False])
def test_large_skewed_graph(cp, merge, directed):
    """Many blocks, hubs (warp-aggregated counting), long runs of parallel arcs, loops."""
    rng = np.random.default_rng(4)
    n, m = 30_000, 400_000
    src = rng.integers(0, n, m)
    dst = rng.integers(0, n, m)
    src[: m // 4] = 7  # a hub with ~100k arcs
    dst[m // 4 : m // 4 + 5000] = 11  # 5000 parallel copies of a few arcs
    src[m // 4 : m // 4 + 5000] = rng.integers(0, 3, 5000)
    src[-1000:] = dst[-1000:]  # loops
    w = rng.integers(-1000, 1000, m).astype(np.int64)
    got = build(cp, src, dst, w, n, directed, False, merge)
    assert_same(got, reference_csr(src, dst, w, n, directed, False, merge))
    got = build(cp, src, dst, None, n, directed, True, merge)
    assert_same(got, reference_csr(src, dst, None, n, directed, True, merge))


def test_float_weights_first_last_order(cp):
    # undirected: arc (2, 1) comes from edge 0 reversed and edge 1 forward; input order decides
    src, dst = np.array([1, 2, 1]), np.array([2, 1, 2])
    w = np.array([0.5, 1.5, 2.5], dtype=np.float32)
    for merge, expect in [("first", 0.5), ("last", 2.5), ("min", 0.5), ("max", 2.5), ("sum", 4.5)]:
        ip, ix, wo = build(cp, src, dst, w, 3, False, False, merge)
        assert ip.tolist() == [0, 0, 1, 2] and ix.tolist() == [2, 1]
        assert wo.tolist() == [expect, expect] and wo.dtype == np.float32
    ip, ix, wo = build(cp, src, dst, w, 3, False, False, None)
    assert ix.tolist() == [2, 2, 2, 1, 1, 1] and wo.tolist() == [0.5, 1.5, 2.5] * 2


def test_int64_indices_and_ids(cp):
    rng = np.random.default_rng(5)
    src = rng.integers(0, 100, 1000).astype(np.int64)
    dst = rng.integers(0, 100, 1000).astype(np.int64)
    for general in (False, True):
        got = build(cp, src, dst, None, 100, False, False, "first", index_dtype="int64",
                    _general=general)  # fmt: skip
        assert got[1].dtype == np.int64
        assert_same(got, reference_csr(src, dst, None, 100, False, False, "first"))
    with pytest.raises(InvalidArgumentError, match="int32 or int64"):
        build(cp, src, dst, None, 100, True, False, None, index_dtype="int16")


def test_empty_and_isolated(cp):
    e = np.array([], dtype=np.int64)
    ip, ix, wo = build(cp, e, e, None, 0, True, False, None)
    assert ip.tolist() == [0] and ix.size == 0 and wo is None
    ip, ix, wo = build(cp, e, e, np.array([], np.float32), 4, False, False, "sum")
    assert ip.tolist() == [0] * 5 and ix.size == 0 and wo.dtype == np.float32
    ip, ix, _ = build(cp, np.array([3]), np.array([3]), None, None, False, True, None)
    assert ip.tolist() == [0, 0, 0, 0, 0] and ix.size == 0  # only a loop, removed


def test_default_num_vertices(cp):
    ip, ix, _ = build(cp, np.array([0, 5]), np.array([2, 1]), None, None, True, False, None)
    assert ip.size == 7 and ix.tolist() == [2, 1]


@pytest.mark.parametrize("general", [False, True])
@pytest.mark.parametrize(
    ("src", "dst", "n", "match"),
    [
        ([0, 1, 2], [1, 2, 3], 3, r"edge 2 \(2, 3\) has an id outside \[0, 3\)"),
        ([0, -1], [1, 0], 3, r"edge 1 \(-1, 0\)"),
        ([0], [0], 0, "outside"),
    ],
)
def test_ids_out_of_range(cp, src, dst, n, match, general):
    with pytest.raises(InvalidArgumentError, match=match):
        build(cp, np.array(src), np.array(dst), None, n, True, False, None, _general=general)


def test_bad_arguments(cp):
    from warpgraph.gpu.csr import build_csr

    a = cp.arange(3)
    with pytest.raises(InvalidArgumentError, match="merge"):
        build_csr(a, a, merge="mean")
    with pytest.raises(InvalidArgumentError, match="differ in length"):
        build_csr(a, cp.arange(4))
    with pytest.raises(InvalidArgumentError, match="integers"):
        build_csr(a.astype(cp.float32), a)
    with pytest.raises(InvalidArgumentError, match="weights"):
        build_csr(a, a, weights=cp.ones(2))
    with pytest.raises(InvalidArgumentError, match="num_vertices"):
        build_csr(a, a, num_vertices=-1)


@pytest.mark.parametrize(("weighted", "merge"), [(False, None), (False, "min"), (True, "sum")])
def test_estimate_bytes_is_an_upper_bound(cp, weighted, merge):
    """The documented peak (estimate_bytes) bounds CuPy's pool high-water mark during a build."""
    from warpgraph.gpu.csr import build_csr, estimate_bytes

    rng = np.random.default_rng(6)
    n, m = 100_000, 2_000_000
    src = cp.asarray(rng.integers(0, n, m).astype(np.int32))
    dst = cp.asarray(rng.integers(0, n, m).astype(np.int32))
    w = cp.asarray(rng.random(m).astype(np.float32)) if weighted else None
    pool = cp.get_default_memory_pool()
    cp.cuda.Device().synchronize()
    pool.free_all_blocks()
    base = pool.used_bytes()
    peak = [0]

    def tracking(size):
        mem = pool.malloc(size)
        peak[0] = max(peak[0], pool.used_bytes() - base)
        return mem

    cp.cuda.set_allocator(tracking)
    try:
        out = build_csr(src, dst, w, n, False, False, merge)
    finally:
        cp.cuda.set_allocator(pool.malloc)
    bound = estimate_bytes(2 * m, n, 4 if weighted else 0, 4)
    result = sum(a.nbytes for a in out if a is not None)
    assert result <= peak[0] <= bound, (peak[0] / 2**20, bound / 2**20)


# rows for every sorting bin of the counting-sort build and both sides of each bin boundary
ROW_LENGTHS = [*range(1, 41), 100, 256, 257, 600, 2048, 2049, 4096, 4097, 8192, 8193, 20000]


def rows_of_lengths(rng, lengths, n, dup_fraction=0.1):
    """Edges whose sources have the given out-degrees (plus ~10% repeated edges), shuffled."""
    src = np.repeat(rng.permutation(n)[: len(lengths)], lengths)
    dst = rng.integers(0, n, src.size)
    pick = rng.integers(0, src.size, int(dup_fraction * src.size))
    src, dst = np.concatenate([src, src[pick]]), np.concatenate([dst, dst[pick]])
    perm = rng.permutation(src.size)
    return src[perm], dst[perm]


@pytest.mark.parametrize("merge", MERGES)
@pytest.mark.parametrize("directed", [True, False])
def test_rows_of_every_length(cp, directed, merge):
    rng = np.random.default_rng(8)
    n = 50_000
    src, dst = rows_of_lengths(rng, ROW_LENGTHS, n)
    w = rng.random(src.size).astype(np.float32)
    w[rng.integers(0, w.size, 200)] = np.nan  # NaN rules must match the CPU builder's
    got = build(cp, src, dst, w, n, directed, False, merge)
    want = cpu_csr.build_csr(
        src, dst, w, n, undirected=not directed, drop_loops=False, merge=merge,
        id_dtype=np.dtype(np.int32),
    )  # fmt: skip
    assert_same(got, want)  # float sums too: both add each run in input order
    got = build(cp, src, dst, None, n, directed, True, merge, index_dtype="int64")
    assert got[1].dtype == np.int64
    assert_same(got, reference_csr(src, dst, None, n, directed, True, merge))


@pytest.mark.parametrize("weighted", [False, True])
def test_long_rows_in_small_batches(cp, monkeypatch, weighted):
    """Tiny radix-sort batches: rows sorted alone, several rows per batch, the per-batch row
    limit, 32-bit (unweighted) and 64-bit (weighted) batch keys."""
    from warpgraph.gpu import _csr_steps  # the row sort reads its batch limits there

    monkeypatch.setattr(_csr_steps, "_BATCH_MIN", 1)
    monkeypatch.setattr(_csr_steps, "_BATCH_MAX_ROWS", 3)
    rng = np.random.default_rng(9)
    n = 60_000
    lengths = [9000, 8500, 30000, 10000, 12000, 9500, 100_000, 8300, 8200]
    src, dst = rows_of_lengths(rng, lengths, n)
    w = rng.integers(-1000, 1000, src.size) if weighted else None
    for directed, merge in ((True, None), (False, None), (False, "sum"), (True, "last")):
        got = build(cp, src, dst, w, n, directed, False, merge)
        assert_same(got, reference_csr(src, dst, w, n, directed, False, merge))


def _pool_peak(cp, fn):
    """(result, peak bytes in use above the starting level) with CuPy's default pool."""
    pool = cp.get_default_memory_pool()
    cp.cuda.Device().synchronize()
    pool.free_all_blocks()
    base = pool.used_bytes()
    peak = [0]

    def tracking(size):
        mem = pool.malloc(size)
        peak[0] = max(peak[0], pool.used_bytes() - base)
        return mem

    cp.cuda.set_allocator(tracking)
    try:
        out = fn()
    finally:
        cp.cuda.set_allocator(pool.malloc)
    return out, peak[0]


@pytest.mark.parametrize(("directed", "merge"), [(True, None), (False, "first"), (False, None)])
def test_peak_memory_below_three_times_the_csr(cp, directed, merge):
    """The issue's bound on a skewed Kronecker graph (hubs of several thousand arcs)."""
    from warpgraph.generators import kronecker_edges
    from warpgraph.gpu.csr import build_csr

    src, dst = kronecker_edges(17, 16, seed=3, device="gpu")
    out, peak = _pool_peak(cp, lambda: build_csr(src, dst, None, None, directed, False, merge))
    csr_bytes = sum(a.nbytes for a in out if a is not None)
    assert peak < 3 * csr_bytes, (peak / csr_bytes, peak, csr_bytes)
    w = cp.asarray(np.random.default_rng(1).random(src.size, dtype=np.float32))
    out, peak = _pool_peak(cp, lambda: build_csr(src, dst, w, None, directed, False, merge))
    csr_bytes = sum(a.nbytes for a in out if a is not None)
    assert peak < 3 * csr_bytes, ("weighted", peak / csr_bytes, peak, csr_bytes)
