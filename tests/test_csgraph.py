"""warpgraph.csgraph against scipy.sparse.csgraph on random matrices (the oracle is SciPy)."""

from __future__ import annotations

import pickle
import re

import numpy as np
import pytest
import scipy.sparse as sp
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from scipy.sparse import csgraph as scipy_cg

from warpgraph import csgraph as wg_cg
from warpgraph import errors
from warpgraph.errors import InvalidArgumentError

CPU = {"device": "cpu"}
SETTINGS = settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
FORMS = ("csr", "csr_unsorted", "csr_duplicates", "csc", "csc_unsorted", "coo", "dense", "list")


@st.composite
def matrices(draw, negative: bool = False, integer: bool = True):
    """A random graph matrix in one of SciPy's input forms: explicit zeros, unsorted rows,
    duplicate entries, self-loops, isolated nodes."""
    n = draw(st.integers(1, 24))
    m = draw(st.integers(0, 3 * n))
    rows = draw(st.lists(st.integers(0, n - 1), min_size=m, max_size=m))
    cols = draw(st.lists(st.integers(0, n - 1), min_size=m, max_size=m))
    low = -3 if negative else 0
    if integer:
        values = draw(st.lists(st.integers(low, 9), min_size=m, max_size=m))
    else:
        values = draw(
            st.lists(st.sampled_from([0.0, 0.5, 1.25, 2.0, 3.75]), min_size=m, max_size=m)
        )
    form = draw(st.sampled_from(FORMS))
    rows, cols = np.array(rows, dtype=np.int64), np.array(cols, dtype=np.int64)
    vals = np.array(values, dtype=np.float64)
    seed = draw(st.integers(0, 2**16))
    if form in ("dense", "list"):
        A = np.zeros((n, n))
        A[rows, cols] = vals
        return A if form == "dense" else A.tolist()
    if form == "coo":
        return sp.coo_array((vals, (rows, cols)), shape=(n, n))  # duplicates are summed
    if form == "csr_duplicates":  # a CSR holding duplicates: each is an edge
        order = np.lexsort((cols, rows))
        indptr = np.zeros(n + 1, dtype=np.int64)
        np.cumsum(np.bincount(rows, minlength=n), out=indptr[1:])
        return sp.csr_array((vals[order], cols[order], indptr), shape=(n, n))
    A = sp.csr_array((vals, (rows, cols)), shape=(n, n))
    A.sum_duplicates()
    if form.startswith("csc"):  # (an undirected search reads a CSC's columns first)
        A = A.tocsc()
    if form.endswith("unsorted"):
        rng = np.random.default_rng(seed)
        for r in range(n):
            lo, hi = A.indptr[r], A.indptr[r + 1]
            p = rng.permutation(hi - lo) + lo
            A.indices[lo:hi], A.data[lo:hi] = A.indices[p], A.data[p]
        A.has_sorted_indices = False
    return A


def as_scipy(A, method: str = "auto"):
    """The same input as SciPy's functions take it (some take no lists; FW takes no COO)."""
    if isinstance(A, list):
        return np.asarray(A)
    return A.tocsr() if isinstance(A, sp.coo_array) and method == "FW" else A


def min_weights(A, directed: bool) -> np.ndarray:
    """The lightest arc i -> j as SciPy reads the input (inf: none)."""
    if sp.issparse(A):
        B = sp.csr_array(A, dtype=np.float64)
        rows = np.repeat(np.arange(B.shape[0]), np.diff(B.indptr))
        cols, vals = B.indices, B.data
    else:
        D = np.asarray(A, dtype=np.float64)
        rows, cols = np.nonzero((D != 0) & np.isfinite(D))
        vals = D[rows, cols]
    n = np.shape(A)[0]
    W = np.full((n, n), np.inf)
    np.minimum.at(W, (rows, cols), vals)
    if not directed:
        W = np.minimum(W, W.T)
    return W


def check_predecessors(A, directed, sources, dist, pred):
    """Every tree arc is an arc of the graph on a shortest path; sources and unreached -9999."""
    W = min_weights(A, directed)
    rows = zip(np.atleast_1d(sources), np.atleast_2d(dist), np.atleast_2d(pred), strict=True)
    for s, d, p in rows:
        assert p.dtype == np.int32
        assert p[s] == -9999
        for v in range(len(d)):
            if v == s or not np.isfinite(d[v]):
                assert p[v] == -9999 or (v == s)
                continue
            u = p[v]
            assert u != -9999
            assert np.isclose(d[u] + W[u, v], d[v]), (s, u, v)


# ---------------------------------------------------------------- traversal
@SETTINGS
@given(A=matrices(), directed=st.booleans(), data=st.data())
def test_breadth_first_order_equals_scipy(A, directed, data):
    start = data.draw(st.integers(0, np.shape(A)[0] - 1))
    order, pred = wg_cg.breadth_first_order(A, start, directed=directed, **CPU)
    s_order, s_pred = scipy_cg.breadth_first_order(as_scipy(A), start, directed=directed)
    assert order.dtype == s_order.dtype == np.int32 and pred.dtype == np.int32
    np.testing.assert_array_equal(order, s_order)
    np.testing.assert_array_equal(pred, s_pred)
    only = wg_cg.breadth_first_order(A, start, directed, return_predecessors=False, **CPU)
    np.testing.assert_array_equal(only, s_order)


def assert_same_sparse(got, want):
    """Same matrix type, dtype, shape, stored entries (explicit zeros too) and values."""
    assert type(got) is type(want) and got.dtype == want.dtype and got.shape == want.shape
    got, want = sp.csr_array(got), sp.csr_array(want)
    got.sort_indices()
    want.sort_indices()
    np.testing.assert_array_equal(got.indptr, want.indptr)
    np.testing.assert_array_equal(got.indices, want.indices)
    np.testing.assert_array_equal(got.data, want.data)


@SETTINGS
@given(A=matrices(negative=True), directed=st.booleans(), data=st.data())
def test_breadth_first_tree_equals_scipy(A, directed, data):
    start = data.draw(st.integers(0, np.shape(A)[0] - 1))
    got = wg_cg.breadth_first_tree(A, start, directed=directed, **CPU)
    assert_same_sparse(got, scipy_cg.breadth_first_tree(as_scipy(A), start, directed=directed))


TREE_KINDS = ("csr_array", "csr_matrix", "csc_matrix", "coo_matrix", "lil_array", "dense")


@pytest.mark.parametrize("kind", TREE_KINDS)
def test_breadth_first_tree_equals_scipy_with_nan_inf_and_hubs(kind):
    """The tree's weights as SciPy's ``reconstruct_path`` reads them: duplicates summed, NaN
    kept, undirected the smaller direction with 0 read as infinite; the class SciPy gives
    each kind of input (a sparse matrix gives a ``csr_matrix``); rows up to 60 long."""
    rng = np.random.default_rng(len(kind))
    for _ in range(60):
        n = int(rng.choice([1, 3, 40, 200]))
        m = int(rng.integers(0, 6 * n + 1))
        rows, cols = rng.integers(0, n, m), rng.integers(0, n, m)
        rows[: m // 4] = 0  # (a hub)
        values = [0.0, -0.0, 1.0, 2.5, -3.0, np.inf, np.nan]
        vals = rng.choice(values, m, p=[0.2, 0.05, 0.3, 0.2, 0.1, 0.1, 0.05])
        if kind == "dense":
            M = np.zeros((n, n))
            M[rows, cols] = vals
        else:
            M = getattr(sp, kind)(sp.coo_array((vals, (rows, cols)), shape=(n, n)))
        start, directed = int(rng.integers(0, n)), bool(rng.integers(0, 2))
        got = wg_cg.breadth_first_tree(M, start, directed=directed, **CPU)
        want = scipy_cg.breadth_first_tree(M, start, directed=directed)
        assert type(got) is type(want) and got.dtype == want.dtype and got.nnz == want.nnz
        got, want = sp.csr_array(got), sp.csr_array(want)
        want.sort_indices()
        np.testing.assert_array_equal(got.indptr, want.indptr)
        np.testing.assert_array_equal(got.indices, want.indices)  # (ours: rows sorted)
        np.testing.assert_array_equal(got.data, want.data)  # (NaN equal to NaN)


def test_undirected_breadth_first_order_reads_a_csc_matrix_as_scipy_does():
    """SciPy's undirected search scans a CSC matrix's columns first (it takes the transpose, a
    CSR at no cost), so the same graph gives another order as CSC than as CSR."""
    rows = [0, 1, 2, 2, 3, 3, 3, 4, 4, 4, 4, 5, 5, 5]
    cols = [5, 5, 0, 3, 2, 4, 5, 1, 2, 3, 4, 1, 4, 5]
    A = sp.csr_array((np.arange(1.0, 15.0), (rows, cols)), shape=(6, 6))
    orders = []
    for M in (A, A.tocsc()):
        want = scipy_cg.breadth_first_order(M, 0, directed=False)
        got = wg_cg.breadth_first_order(M, 0, directed=False, **CPU)
        np.testing.assert_array_equal(got[0], want[0])
        np.testing.assert_array_equal(got[1], want[1])
        orders.append(got[0].tolist())
    assert orders[0] != orders[1]  # (the case is one where the formats differ)


@pytest.mark.parametrize("expand", ["arrays", "threads 1", "threads 3", "threads 16"])
@pytest.mark.parametrize("wide_arcs", [1, 2, 3, 8, 60])
@pytest.mark.parametrize("directed", [True, False])
def test_breadth_first_order_with_wide_layers_in_parallel_equals_scipy(expand, wide_arcs, directed):
    """The parallel paths of ``breadth_first_order``: layers of ``wide_arcs`` arcs or more
    expanded by the array pass (NumPy here, CuPy on a GPU) or by the CPU's threads in that
    many runs, the rest by the sequential scan, switching back and forth; unsorted rows,
    repeated arcs, self-loops and unreached nodes included."""
    from warpgraph.csgraph import _input, _traversal

    xp, tasks = (np, 0) if expand == "arrays" else (None, int(expand.split()[1]))
    rng = np.random.default_rng(wide_arcs)
    for _ in range(40):
        n = int(rng.integers(1, 80))
        m = int(rng.integers(0, 5 * n))
        A = sp.csr_array((np.ones(m), (rng.integers(0, n, m), rng.integers(0, n, m))), (n, n))
        A.indices = A.indices.copy()
        for r in range(n):  # (rows in no particular order: the scan follows the stored order)
            rng.shuffle(A.indices[A.indptr[r] : A.indptr[r + 1]])
        start = int(rng.integers(0, n))
        indptr, heads, _ = _input._arcs(_input._read(A, directed), directed, weights=False)
        got = _traversal._order(
            indptr, heads, start, n, expand=xp, tasks=tasks, wide_arcs=wide_arcs
        )
        want = scipy_cg.breadth_first_order(A, start, directed=directed)
        np.testing.assert_array_equal(got[0], want[0])
        np.testing.assert_array_equal(got[1], want[1])


@pytest.mark.parametrize("threads", [1, 16])
def test_breadth_first_order_takes_the_parallel_layers_on_enough_threads(monkeypatch, threads):
    """``device="cpu"`` hands wide layers to the CPU's threads only when there are
    :data:`PARALLEL_LAYER_THREADS` of them (here the thresholds are lowered, so that a small
    graph has wide layers and 2 cores count as enough, or not)."""
    from warpgraph.algorithms.bfs import discovery_order
    from warpgraph.csgraph import _traversal

    calls = []
    real = discovery_order.expand_layers_parallel

    def counted(*args):
        calls.append(args[9])  # (the tasks)
        return real(*args)

    monkeypatch.setattr(discovery_order, "expand_layers_parallel", counted)
    monkeypatch.setattr(_traversal, "PARALLEL_LAYER_THREADS", threads)
    monkeypatch.setattr(_traversal, "WIDE_LAYER_ARCS", 64)
    rng = np.random.default_rng(11)
    n, m = 3000, 24000
    A = sp.csr_array((np.ones(m), (rng.integers(0, n, m), rng.integers(0, n, m))), (n, n))
    for directed in (True, False):
        got = wg_cg.breadth_first_order(A, 0, directed=directed, **CPU)
        want = scipy_cg.breadth_first_order(A, 0, directed=directed)
        np.testing.assert_array_equal(got[0], want[0])
        np.testing.assert_array_equal(got[1], want[1])
    if threads == 1:
        assert calls and all(tasks >= 4 for tasks in calls)  # (the parallel layers ran)
    else:
        assert not calls


def test_breadth_first_order_of_a_long_path():
    n = 1200  # more than 256 thin layers: the sequential pass
    A = sp.csr_array((np.ones(n - 1), (np.arange(n - 1), np.arange(1, n))), shape=(n, n))
    for directed in (True, False):
        got = wg_cg.breadth_first_order(A, 5, directed=directed, **CPU)
        want = scipy_cg.breadth_first_order(A, 5, directed=directed)
        for x, y in zip(got, want, strict=True):
            np.testing.assert_array_equal(x, y)


# ---------------------------------------------------------------- components
@SETTINGS
@given(A=matrices(), directed=st.booleans(), connection=st.sampled_from(["weak", "strong"]))
def test_connected_components_equal_scipy(A, directed, connection):
    count, labels = wg_cg.connected_components(A, directed, connection, **CPU)
    S = as_scipy(A)
    if connection == "strong" and sp.issparse(S):  # SciPy's strong search hangs on duplicates
        C = sp.csr_array(S, copy=True)
        C.sum_duplicates()
        S = C if C.nnz < S.nnz else S
    s_count, s_labels = scipy_cg.connected_components(S, directed, connection)
    assert count == s_count and type(count) is int
    assert labels.dtype == np.int32
    np.testing.assert_array_equal(labels, s_labels)
    assert wg_cg.connected_components(A, directed, connection, False, **CPU) == s_count


@pytest.mark.parametrize("index_dtype", [np.int32, np.int64])
@pytest.mark.parametrize("rows_sorted", [True, False])
def test_weak_labels_and_paths_read_the_csr_in_place_and_leave_it_as_it_was(
    index_dtype, rows_sorted
):
    """On the CPU weak labels take a SciPy CSR's index arrays as stored (no int64 copies), and
    the shortest paths int64 ones: the caller's arrays keep their values and dtypes, also when
    the rows need sorting, and the answers equal SciPy's. Large enough (65,536+ arcs) for the
    parallel bounds pass."""
    rng = np.random.default_rng(11)
    n, m = 3000, 70_000
    A = sp.csr_array((np.ones(m), (rng.integers(0, n, m), rng.integers(0, n, m))), shape=(n, n))
    A.indices, A.indptr = A.indices.astype(index_dtype), A.indptr.astype(index_dtype)
    if not rows_sorted:
        A.indices[A.indptr[:-1][np.diff(A.indptr) > 1]] = n - 1  # (first entries: unsorted)
    before = [a.copy() for a in (A.indptr, A.indices, A.data)]
    for directed in (True, False):
        got = wg_cg.connected_components(A, directed, "weak", **CPU)
        want = scipy_cg.connected_components(A, directed, "weak")
        assert got[0] == want[0]
        np.testing.assert_array_equal(got[1], want[1])
        got = wg_cg.dijkstra(A, directed, 5, **CPU)
        np.testing.assert_array_equal(got, scipy_cg.dijkstra(A, directed, 5))
    for now, then in zip((A.indptr, A.indices, A.data), before, strict=True):
        assert now.dtype == then.dtype
        np.testing.assert_array_equal(now, then)


@pytest.mark.parametrize("forward, want", [(False, [2, 1, 0]), (True, [2, 0, 1])])
def test_strong_labels_follow_the_installed_scipys_row_scan(forward, want, monkeypatch):
    """SciPy numbers strong components as its search completes them. Up to 1.17 the search
    scans a row from its last entry, from 1.18 from its first: node 0's row [1, 2] then
    finishes {2} or {1} first. Found by tools/csgraph_fuzz.py on a host with SciPy 1.18.1."""
    A = sp.csr_array((np.ones(2), ([0, 0], [1, 2])), shape=(3, 3))
    from warpgraph.csgraph import _traversal  # where connected_components asks which rule holds

    monkeypatch.setattr(_traversal, "_scipy_scans_rows_forward", lambda: forward)
    assert wg_cg.connected_components(A, connection="strong", **CPU)[1].tolist() == want
    monkeypatch.undo()
    got = wg_cg.connected_components(A, connection="strong", **CPU)[1]
    np.testing.assert_array_equal(got, scipy_cg.connected_components(A, connection="strong")[1])


@pytest.mark.parametrize("seed", range(5))
def test_strong_labels_equal_scipy_on_graphs_of_many_components(seed):
    """Random graphs where about half number their components differently under the two scan
    rules (hypothesis' small graphs rarely tell them apart)."""
    A = sp.random(40, 40, density=0.06, format="csr", random_state=seed)
    A.data[:] = 1
    for M in (A, A.tocoo(), A.tolil(), A.toarray()):
        got = wg_cg.connected_components(M, connection="strong", **CPU)
        want = scipy_cg.connected_components(M, connection="strong")
        assert got[0] == want[0]
        np.testing.assert_array_equal(got[1], want[1])


@pytest.mark.parametrize("degree", [3, 32, 33, 50])  # unsorted rows: pairwise, and sorted
@pytest.mark.parametrize("rows_sorted", [False, True])
def test_the_duplicate_check_finds_one_repeated_column_in_any_row(degree, rows_sorted):
    """The parallel check that decides whether strong labels read the canonical matrix: rows
    at and past the pairwise length, sorted or not, the repeat anywhere in the row; NumPy's
    count of unique entries is the oracle."""
    from warpgraph.csgraph._traversal import _rows_with_duplicates

    rng = np.random.default_rng(degree)
    n = 50
    indices = np.concatenate([rng.permutation(n)[:degree] for _ in range(n)])
    indptr = np.arange(n + 1) * degree
    rows = np.repeat(np.arange(n), degree)
    assert _rows_with_duplicates(indptr, indices, n) == 0
    for row, (a, b) in [(0, (0, 1)), (17, (-1, 0)), (n - 1, (1, -1))]:
        repeated = indices.copy()
        own = repeated[indptr[row] : indptr[row + 1]]  # (a view: writes reach `repeated`)
        own[b] = own[a]
        if rows_sorted:
            repeated = np.sort(repeated.reshape(n, degree), axis=1).ravel()
        assert np.unique(rows * n + repeated).size < repeated.size  # NumPy sees the repeat
        assert _rows_with_duplicates(indptr, repeated, n) == 1


def test_strong_labels_skip_the_duplicate_check_only_where_scipy_flagged_the_csr(monkeypatch):
    """A CSR that SciPy has found canonical (its cached flag) is not checked for duplicates;
    one without the flag, with the flag cleared by unsorted rows, or converted on reading, is.
    Each answer equals SciPy's (for the matrix with duplicates: the canonical one's)."""
    from warpgraph.csgraph import _traversal

    checked = []
    check = _traversal._rows_with_duplicates
    monkeypatch.setattr(
        _traversal, "_rows_with_duplicates", lambda *a: checked.append(1) or check(*a)
    )
    A = sp.random(60, 60, density=0.08, format="csr", random_state=3)
    A.sum_duplicates()  # (sets SciPy's flag)
    raw = sp.csr_array((A.data, A.indices, A.indptr), shape=A.shape)  # (no flag yet)
    unsorted = A.copy()
    unsorted.has_sorted_indices = False  # (SciPy then reads the matrix as not canonical)
    doubled = sp.csr_array(  # row 0 stores its first column twice
        (np.r_[A.data[:1], A.data], np.r_[A.indices[:1], A.indices], np.r_[0, A.indptr[1:] + 1]),
        shape=A.shape,
    )
    single = A.astype(np.float32)  # (astype drops the flag ...)
    flagged_single = single.copy()
    flagged_single.sum_duplicates()  # (... which SciPy's check sets again; data read as float64)
    for M, skipped in [(A, True), (raw, False), (unsorted, False), (A.tocsc(), False),
                       (single, False), (flagged_single, True), (doubled, False)]:  # fmt: skip
        checked.clear()
        got = wg_cg.connected_components(M, connection="strong", **CPU)
        C = sp.csr_array(M)
        C.sum_duplicates()
        want = scipy_cg.connected_components(C, connection="strong")
        assert got[0] == want[0]
        np.testing.assert_array_equal(got[1], want[1])
        assert checked == ([] if skipped else [1]), (M.format, skipped)


@pytest.mark.parametrize("n", [1, 2, 300])
def test_strong_labels_of_a_cycle_and_a_chain(n):
    """Two hand-checked shapes at the ends of the search: one cycle through every node (one
    component; the search path n deep) and a chain 0 -> 1 -> ... (n components, completed last
    node first, so labelled n - 1 - i)."""
    ring = sp.csr_array((np.ones(n), (np.arange(n), (np.arange(n) + 1) % n)), shape=(n, n))
    chain = sp.csr_array((np.ones(n - 1), (np.arange(n - 1), np.arange(1, n))), shape=(n, n))
    count, labels = wg_cg.connected_components(ring, connection="strong", **CPU)
    assert count == 1 and not labels.any()
    count, labels = wg_cg.connected_components(chain, connection="strong", **CPU)
    assert count == n and labels.tolist() == list(range(n - 1, -1, -1))


@pytest.mark.parametrize("parts", [1, 2, 3, 7, 80])
@pytest.mark.parametrize("weights", [True, False])
def test_the_undirected_arcs_equal_a_stable_sort_at_any_split_of_the_columns(parts, weights):
    """The undirected arcs (each row as stored, then the transpose's row) made with the columns
    cut into ``parts`` ranges, one task each, equal the oracle built by NumPy's stable argsort,
    on rows unsorted, with repeats, an empty column and more parts than columns."""
    from warpgraph.csgraph import _input

    rng = np.random.default_rng(parts)
    n, m = 60, 400
    indices = rng.integers(1, n, m)  # (column 0 receives nothing)
    indptr = np.concatenate(([0], np.sort(rng.integers(0, m, n - 1)), [m]))
    data = rng.random(m)
    rows = np.repeat(np.arange(n), np.diff(indptr))
    by_col = np.argsort(indices, kind="stable")
    want = [[] for _ in range(n)]
    for r in range(n):
        own = slice(indptr[r], indptr[r + 1])
        want[r] = list(zip(indices[own].tolist(), data[own].tolist(), strict=True))
    for k in by_col:
        want[indices[k]].append((int(rows[k]), float(data[k])))

    in_degree = np.bincount(indices, minlength=n)
    out_indptr = np.zeros(n + 1, dtype=np.int64)
    np.cumsum(np.diff(indptr) + in_degree, out=out_indptr[1:])
    heads = np.full(2 * m, -1, dtype=np.int64)
    out_data = np.full(2 * m if weights else 0, np.nan)
    given = data if weights else out_data
    _input._copy_own_rows(indptr, indices, given, out_indptr, heads, out_data, n)
    bounds = _input._column_ranges(in_degree, parts)
    assert bounds[0] == 0 and bounds[-1] == n and (np.diff(bounds) >= 0).all()
    _input._scatter_transpose(indptr, indices, given, out_indptr, heads, out_data, n, bounds)
    for r in range(n):
        got = slice(out_indptr[r], out_indptr[r + 1])
        assert heads[got].tolist() == [c for c, _ in want[r]]
        if weights:
            assert out_data[got].tolist() == [d for _, d in want[r]]


# ---------------------------------------------------------------- shortest paths
@SETTINGS
@given(
    A=matrices(integer=False),
    directed=st.booleans(),
    unweighted=st.booleans(),
    method=st.sampled_from(["auto", "D", "BF", "J", "FW"]),
)
def test_shortest_path_equals_scipy(A, directed, unweighted, method):
    n = np.shape(A)[0]
    S = as_scipy(A, method)
    for indices in (None,) if method == "FW" else (0, [n - 1, 0], [[0], [-1]]):
        kw = {"directed": directed, "unweighted": unweighted, "indices": indices}
        want = scipy_cg.shortest_path(S, method=method, **kw)
        dist, pred = wg_cg.shortest_path(A, method=method, return_predecessors=True, **kw, **CPU)
        assert dist.dtype == np.float64 and dist.shape == want.shape
        np.testing.assert_allclose(dist, want)
        sources = np.arange(n) if indices is None else np.array(indices).reshape(-1) % n
        W = A if not unweighted else _unit(A)
        check_predecessors(W, directed, sources, dist.reshape(-1, n), pred.reshape(-1, n))


def _unit(A):
    """The same edges with weight 1 (for checking unweighted predecessors)."""
    if sp.issparse(A):
        B = sp.csr_array(A, dtype=np.float64)
        B.data[:] = 1
        return B
    D = np.asarray(A, dtype=np.float64)
    return ((D != 0) & np.isfinite(D)).astype(np.float64)


@SETTINGS
@given(A=matrices(), directed=st.booleans(), data=st.data())
def test_dijkstra_limit_and_min_only_equal_scipy(A, directed, data):
    n = np.shape(A)[0]
    indices = data.draw(st.lists(st.integers(0, n - 1), min_size=0, max_size=3))
    limit = data.draw(st.sampled_from([np.inf, 0, 2, 5.5]))
    want = scipy_cg.dijkstra(as_scipy(A), directed, indices, limit=limit)
    dist, pred = wg_cg.dijkstra(A, directed, indices, True, limit=limit, **CPU)
    np.testing.assert_array_equal(dist, want)  # integer weights: exact
    check_predecessors(A, directed, indices, dist, pred)
    if indices:
        kw = {"min_only": True, "limit": limit}
        want, _, s_origin = scipy_cg.dijkstra(as_scipy(A), directed, indices, True, **kw)
        dist, pred, origin = wg_cg.dijkstra(
            A, directed, indices, True, min_only=True, limit=limit, **CPU
        )
        np.testing.assert_array_equal(dist, want)
        assert origin.dtype == np.int32
        np.testing.assert_array_equal(origin == -9999, s_origin == -9999)
        full = scipy_cg.dijkstra(as_scipy(A), directed, limit=limit)
        r = np.flatnonzero(origin >= 0)  # each origin is a source at the minimum distance
        assert set(origin[r].tolist()) <= set(indices)
        np.testing.assert_array_equal(full[origin[r], r], dist[r])


@SETTINGS
@given(A=matrices(negative=True), directed=st.booleans(), data=st.data())
def test_bellman_ford_and_negative_cycles_as_scipy(A, directed, data):
    n = np.shape(A)[0]
    indices = data.draw(st.lists(st.integers(0, n - 1), min_size=1, max_size=3))
    try:
        want = scipy_cg.bellman_ford(as_scipy(A), directed, indices)
    except scipy_cg.NegativeCycleError as exc:
        with pytest.raises(scipy_cg.NegativeCycleError) as info:
            wg_cg.bellman_ford(A, directed, indices, **CPU)
        assert str(info.value) == str(exc)  # the same first source named
        with pytest.raises(errors.NegativeCycleError, match="Negative cycle"):
            wg_cg.johnson(A, directed, indices, **CPU)
        return
    dist, pred = wg_cg.bellman_ford(A, directed, indices, True, **CPU)
    np.testing.assert_array_equal(dist, want)
    check_predecessors(A, directed, indices, dist, pred)
    try:  # Johnson refuses a negative cycle anywhere, reachable from the sources or not
        want = scipy_cg.johnson(as_scipy(A), directed, indices)
    except scipy_cg.NegativeCycleError:
        with pytest.raises(scipy_cg.NegativeCycleError, match="Negative cycle detected on node"):
            wg_cg.johnson(A, directed, indices, **CPU)
        return
    np.testing.assert_array_equal(wg_cg.johnson(A, directed, indices, **CPU), want)


@SETTINGS
@given(
    A=matrices(negative=True),
    directed=st.booleans(),
    method=st.sampled_from(["auto", "BF", "J", "FW"]),
    data=st.data(),
)
def test_shortest_path_with_negative_weights_as_scipy(A, directed, method, data):
    """Each method refuses the graphs SciPy's refuses and answers the others as SciPy does:
    Floyd-Warshall ignores self-loops (a negative one too), Johnson refuses a negative cycle
    that no source reaches, ``"auto"`` picks between them as SciPy does."""
    n = np.shape(A)[0]
    indices = None
    if method != "FW":
        indices = data.draw(st.one_of(st.none(), st.lists(st.integers(0, n - 1), max_size=3)))
    kw = {"method": method, "directed": directed, "indices": indices}
    A = as_scipy(A, "FW" if method == "auto" else method)  # (auto may pick FW: no COO there)
    try:
        want = scipy_cg.shortest_path(A, **kw)
    except scipy_cg.NegativeCycleError:
        with pytest.raises(scipy_cg.NegativeCycleError):
            wg_cg.shortest_path(A, **kw, **CPU)
        return
    np.testing.assert_array_equal(wg_cg.shortest_path(A, **kw, **CPU), want)


@SETTINGS
@given(
    A=matrices(negative=True),
    directed=st.booleans(),
    unweighted=st.booleans(),
    predecessors=st.booleans(),
)
def test_floyd_warshall_equals_scipy(A, directed, unweighted, predecessors):
    """``floyd_warshall`` is ``shortest_path(method="FW")`` in both: self-loops ignored, a
    negative cycle anywhere refused."""
    A = as_scipy(A, "FW")
    kw = {"directed": directed, "unweighted": unweighted}
    try:
        want = scipy_cg.floyd_warshall(A, **kw)
    except scipy_cg.NegativeCycleError:
        with pytest.raises(scipy_cg.NegativeCycleError):
            wg_cg.floyd_warshall(A, **kw, **CPU)
        return
    if not predecessors:
        np.testing.assert_array_equal(wg_cg.floyd_warshall(A, **kw, **CPU), want)
        return
    dist, pred = wg_cg.floyd_warshall(A, return_predecessors=True, overwrite=True, **kw, **CPU)
    np.testing.assert_array_equal(dist, want)
    if not unweighted:
        check_predecessors(A, directed, np.arange(np.shape(A)[0]), dist, pred)


def test_every_scipy_csgraph_name_is_there():
    """A user switches by one import: every name SciPy's csgraph exports is here, each either
    warpgraph's (taking ``device=``) or SciPy's own function, unchanged."""
    for name in scipy_cg.__all__:
        ours = getattr(wg_cg, name)
        if name in wg_cg.OWN:
            assert ours.__module__ == "warpgraph.csgraph"
        else:
            assert ours is getattr(scipy_cg, name)
    assert set(wg_cg.__all__) >= set(scipy_cg.__all__) and "minimum_spanning_tree" in dir(wg_cg)
    A = sp.csr_array(np.array([[0, 2, 0], [2, 0, 1], [0, 1, 0]]))
    assert wg_cg.minimum_spanning_tree(A).sum() == 3
    with pytest.raises(AttributeError, match="no attribute 'no_such_function'"):
        _ = wg_cg.no_such_function


@pytest.mark.parametrize("device", ["cpu", pytest.param("gpu", marks=pytest.mark.gpu)])
def test_floyd_warshall_ignores_self_loops_and_johnson_sees_every_cycle(device):
    """SciPy's rules, on graphs where the methods differ (SciPy 1.17 gives the same)."""
    on = {"device": device}
    loop = sp.csr_array(np.array([[0, 1, 0], [0, 0, 1], [0, 0, -1.0]]))  # a negative self-loop
    want = [[0, 1, 2], [np.inf, 0, 1], [np.inf, np.inf, 0]]
    for method in ("FW", "auto"):  # (auto picks FW here: 3 edges >= 3 * 3 / 4)
        np.testing.assert_array_equal(wg_cg.shortest_path(loop, method=method, **on), want)
    np.testing.assert_array_equal(wg_cg.floyd_warshall(loop, **on), want)
    for method in ("BF", "J"):
        with pytest.raises(scipy_cg.NegativeCycleError):
            wg_cg.shortest_path(loop, method=method, **on)
    apart = sp.csr_array(np.array([[0, 1, 0, 0], [0] * 4, [0, 0, 0, -1.0], [0, 0, -1.0, 0]]))
    np.testing.assert_array_equal(
        wg_cg.bellman_ford(apart, indices=0, **on), [0, 1, np.inf, np.inf]
    )
    for method in ("J", "auto"):  # (auto with indices and a negative weight: Johnson)
        with pytest.raises(scipy_cg.NegativeCycleError, match=r"detected on node [23]"):  # (on it)
            wg_cg.shortest_path(apart, method=method, indices=0, **on)
    np.testing.assert_array_equal(  # unweighted: no negative weight, no cycle
        wg_cg.johnson(apart, indices=0, unweighted=True, **on), [0, 1, np.inf, np.inf]
    )


def test_negative_cycle_error_is_scipy_s_and_warpgraph_s():
    A = np.array([[0, 1, 0], [0, 0, -3], [1, 0, 0]])
    with pytest.raises(wg_cg.NegativeCycleError) as info:
        wg_cg.shortest_path(A, method="FW", **CPU)
    exc = info.value
    assert isinstance(exc, scipy_cg.NegativeCycleError)
    assert isinstance(exc, errors.NegativeCycleError) and exc.vertex in (0, 1, 2)
    assert str(exc).startswith("Negative cycle in nodes")
    again = pickle.loads(pickle.dumps(exc))
    assert type(again) is wg_cg.NegativeCycleError and str(again) == str(exc)


def test_dijkstra_warns_about_negative_weights_as_scipy():
    A = np.array([[0, 2, 0], [0, 0, -1], [0, 0, 0]])
    with pytest.warns(UserWarning, match="negative weights"):
        dist = wg_cg.dijkstra(A, indices=0, **CPU)
    assert dist.tolist() == [0.0, 2.0, 1.0]


def test_explicit_zeros_are_edges_in_sparse_input_only():
    A = sp.csr_array((np.array([0.0, 2.0]), np.array([1, 2]), np.array([0, 1, 2, 2])), shape=(3, 3))
    assert wg_cg.dijkstra(A, indices=0, **CPU).tolist() == [0.0, 0.0, 2.0]
    assert wg_cg.dijkstra(A.toarray(), indices=0, **CPU).tolist() == [0.0, np.inf, np.inf]
    dense = np.array([[0, np.inf, 3], [1, 0, np.nan], [0, 0, 0]])  # inf, NaN: no edge
    assert wg_cg.shortest_path(dense, indices=0, **CPU).tolist() == [0.0, np.inf, 3.0]


def test_bad_arguments_raise_scipy_s_messages():
    A = sp.csr_array(np.eye(3))
    with pytest.raises(InvalidArgumentError, match=r"must be shape \(N, N\)"):
        wg_cg.dijkstra(np.ones((2, 3)), **CPU)
    with pytest.raises(InvalidArgumentError, match="Cannot specify indices with method == 'FW'"):
        wg_cg.shortest_path(A, method="FW", indices=0, **CPU)
    with pytest.raises(InvalidArgumentError, match="unrecognized method 'X'"):
        wg_cg.shortest_path(A, method="X", **CPU)
    with pytest.raises(InvalidArgumentError, match="connection must be 'weak' or 'strong'"):
        wg_cg.connected_components(A, connection="both", **CPU)
    with pytest.raises(InvalidArgumentError, match="limit must be >= 0"):
        wg_cg.dijkstra(A, limit=-1, **CPU)
    with pytest.raises(InvalidArgumentError, match="indices out of range"):
        wg_cg.dijkstra(A, indices=5, **CPU)
    with pytest.raises(InvalidArgumentError, match="out of range"):
        wg_cg.breadth_first_order(A, 3, **CPU)
    assert isinstance(InvalidArgumentError("x"), ValueError)  # SciPy raises ValueError


def _corrupted(fmt: str, n: int, fault: str):
    """A CSR or CSC matrix whose stored arrays SciPy's constructor accepts but that point
    outside the matrix: an index ``>= N`` or negative, or an offset past the stored entries."""
    rng = np.random.default_rng(n)
    m = 4 * n
    A = sp.csr_array((np.ones(m), (rng.integers(0, n, m), rng.integers(0, n, m))), (n, n))
    A.sum_duplicates()
    A = A.asformat(fmt) if fmt != "bsr" else sp.bsr_array(A, blocksize=(2, 2))
    at = A.indices.shape[0] // 2 + 1
    if fault == "big":
        A.indices[at] = n + 5
    elif fault == "negative":
        A.indices[at] = -3
    else:  # an offset past the stored entries (then decreasing again)
        A.indptr[A.indptr.shape[0] // 2] = A.indices.shape[0] + 7
    return A, at


BAD_INPUT_CALLS = {
    "breadth_first_order": lambda A, **kw: wg_cg.breadth_first_order(A, 0, **kw),
    "breadth_first_order undirected": lambda A, **kw: wg_cg.breadth_first_order(
        A, 0, directed=False, **kw
    ),
    "breadth_first_tree": lambda A, **kw: wg_cg.breadth_first_tree(A, 0, **kw),
    "weak": lambda A, **kw: wg_cg.connected_components(A, **kw),
    "strong": lambda A, **kw: wg_cg.connected_components(A, connection="strong", **kw),
    "dijkstra": lambda A, **kw: wg_cg.dijkstra(A, indices=0, **kw),
    "bellman_ford": lambda A, **kw: wg_cg.bellman_ford(A, indices=0, **kw),
    "shortest_path": lambda A, **kw: wg_cg.shortest_path(A, indices=0, **kw),
}


@pytest.mark.parametrize("n", [40, 40_000])  # (the second: the parallel bounds pass)
@pytest.mark.parametrize("fmt", ["csr", "csc", "bsr"])
@pytest.mark.parametrize("fault", ["big", "negative", "offset"])
def test_a_matrix_pointing_outside_itself_is_refused_with_the_reason(n, fmt, fault):
    """SciPy's own csgraph functions read past such arrays (a crash or a wrong answer: session
    40 found both in ours too); every warpgraph function names the bad value and its place."""
    A, at = _corrupted(fmt, n, fault)
    m = A.indices.shape[0]  # (stored entries; a BSR's are its blocks)
    kind = {"csr": "column", "csc": "row", "bsr": "block column"}[fmt]
    span = "[0, N) for N = " if fmt != "bsr" else "[0, N / 2) = [0, "
    want = {
        "big": rf"stores {kind} index {n + 5} \(stored entry {at}\), outside {re.escape(span)}",
        "negative": rf"stores {kind} index -3 \(stored entry {at}\)",
        "offset": rf"index pointer holds {m + 7}, outside \[0, {m}\]",
    }[fault]
    for call in BAD_INPUT_CALLS.values():
        with pytest.raises(InvalidArgumentError, match=want):
            call(A, **CPU)


def test_the_added_functions_refuse_bad_input():
    """``floyd_warshall`` and ``breadth_first_tree`` (session 37) check their input as the
    functions they are built on do, before any work."""
    A = sp.csr_array(np.eye(3))
    with pytest.raises(InvalidArgumentError, match=r"must be shape \(N, N\)"):
        wg_cg.floyd_warshall(np.ones((2, 3)), **CPU)
    with pytest.raises(InvalidArgumentError, match="NaN"):
        wg_cg.floyd_warshall(sp.csr_array(np.array([[0, np.nan], [1.0, 0]])), **CPU)
    with pytest.raises(InvalidArgumentError, match="directed"):
        wg_cg.floyd_warshall(A, directed="yes", **CPU)
    with pytest.raises(InvalidArgumentError, match=r"must be shape \(N, N\)"):
        wg_cg.breadth_first_tree(sp.csr_array(np.ones((2, 3))), 0, **CPU)
    with pytest.raises(InvalidArgumentError, match="out of range"):
        wg_cg.breadth_first_tree(A, 3, **CPU)
    with pytest.raises(InvalidArgumentError, match="must be a node index"):
        wg_cg.breadth_first_tree(A, 1.5, **CPU)
    with pytest.raises(InvalidArgumentError, match="device"):
        wg_cg.breadth_first_tree(A, 0, device="tpu")


@pytest.mark.parametrize("arcs", [300, 80_000])  # (below and above the parallel-sort size)
def test_the_input_matrix_is_never_changed(arcs):
    """Every function reads the user's matrix in place where it can (no copy): none may write
    to it, on the paths that sort rows, transpose, drop arcs or canonicalize duplicates."""
    rng = np.random.default_rng(arcs)
    n = 600  # (80,000 draws leave about 71,000 distinct arcs)
    rows, cols = rng.integers(0, n, arcs), rng.integers(0, n, arcs)
    A = sp.csr_array((rng.random(arcs) + 0.1, (rows, cols)), shape=(n, n))
    A.sum_duplicates()
    for r in range(0, n, 3):  # unsorted rows (a loop over a few hundred rows)
        lo, hi = A.indptr[r], A.indptr[r + 1]
        A.indices[lo:hi], A.data[lo:hi] = A.indices[lo:hi][::-1], A.data[lo:hi][::-1]
    A.has_sorted_indices = False
    A.data[:5] = np.inf  # arcs dropped before the search
    kept = [x.copy() for x in (A.indptr, A.indices, A.data)]
    calls = [
        (wg_cg.dijkstra, {"indices": 0}),
        (wg_cg.dijkstra, {"indices": 0, "directed": False}),
        (wg_cg.dijkstra, {"indices": [0, 1], "min_only": True}),
        (wg_cg.shortest_path, {"method": "FW"}),
        (wg_cg.johnson, {"indices": 0}),
        (wg_cg.bellman_ford, {"indices": 0, "unweighted": True}),
        (wg_cg.connected_components, {"connection": "strong"}),
        (wg_cg.connected_components, {"directed": False}),
        (wg_cg.breadth_first_order, {"i_start": 0, "directed": False}),
        (wg_cg.breadth_first_tree, {"i_start": 0}),
    ]
    for f, kw in calls:
        f(A, **kw, **CPU)
        for got, want in zip((A.indptr, A.indices, A.data), kept, strict=True):
            np.testing.assert_array_equal(got, want, err_msg=f"{f.__name__} {kw}")


def test_empty_graph():
    A = sp.csr_array((0, 0))
    assert wg_cg.connected_components(A, **CPU)[0] == 0
    assert wg_cg.dijkstra(A, **CPU).shape == (0, 0)


# ---------------------------------------------------------------- the GPU
GPU = {"device": "gpu"}


@pytest.mark.gpu
@settings(max_examples=20, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(A=matrices(), directed=st.booleans())
def test_gpu_device_equals_scipy(A, directed):
    S = as_scipy(A)
    count, labels = wg_cg.connected_components(A, directed, "weak", **GPU)
    s_count, s_labels = scipy_cg.connected_components(S, directed, "weak")
    assert count == s_count
    np.testing.assert_array_equal(labels, s_labels)
    want = scipy_cg.dijkstra(S, directed, [0])
    dist, pred = wg_cg.dijkstra(A, directed, [0], True, **GPU)
    np.testing.assert_array_equal(dist, want)
    check_predecessors(A, directed, [0], dist, pred)


@pytest.mark.gpu
@pytest.mark.parametrize("fault", ["big", "negative", "offset"])
def test_gpu_a_cupy_matrix_pointing_outside_itself_is_refused(fault):
    """The same check on a CuPy CSR (CuPy's reductions), and on a SciPy one with the GPU."""
    cupy = pytest.importorskip("cupy")
    from cupyx.scipy import sparse as csp

    A, _ = _corrupted("csr", 500, fault)
    arrays = (cupy.asarray(A.data), cupy.asarray(A.indices), cupy.asarray(A.indptr))
    try:
        matrices = [A, csp.csr_matrix(arrays, shape=A.shape)]
    except ValueError:  # (a CuPy whose constructor checks the values itself: SciPy input only)
        matrices = [A]
    for M in matrices:
        with pytest.raises(InvalidArgumentError, match="outside"):
            wg_cg.dijkstra(M, indices=0, **GPU)
        with pytest.raises(InvalidArgumentError, match="outside"):
            wg_cg.connected_components(M, **GPU)


@pytest.mark.gpu
@pytest.mark.parametrize("directed", [True, False])
def test_gpu_breadth_first_order_with_wide_layers_equals_scipy(directed):
    """A graph whose middle layers exceed ``WIDE_LAYER_ARCS``: expanded on the GPU, in SciPy's
    order, from SciPy and from CuPy input."""
    cupy = pytest.importorskip("cupy")
    from cupyx.scipy import sparse as csp

    from warpgraph.csgraph._traversal import WIDE_LAYER_ARCS

    rng = np.random.default_rng(7)
    n = 1 << 15
    m = 8 * n
    A = sp.csr_array((np.ones(m), (rng.integers(0, n, m), rng.integers(0, n, m))), (n, n))
    assert A.nnz > 2 * WIDE_LAYER_ARCS
    want = scipy_cg.breadth_first_order(A, 3, directed=directed)
    for M in (A, csp.csr_matrix(A)):
        order, pred = wg_cg.breadth_first_order(M, 3, directed=directed, **GPU)
        np.testing.assert_array_equal(cupy.asnumpy(order), want[0])
        np.testing.assert_array_equal(cupy.asnumpy(pred), want[1])


@pytest.mark.gpu
def test_cupy_input_gives_cupy_output():
    cupy = pytest.importorskip("cupy")
    from cupyx.scipy import sparse as csp

    dense = np.array([[0, 1, 4, 0], [0, 0, 2, 0], [0, 0, 0, 1], [3, 0, 0, 0]], dtype=np.float64)
    for A in (csp.csr_matrix(cupy.asarray(dense)), cupy.asarray(dense)):
        dist = wg_cg.dijkstra(A, indices=0, **GPU)
        assert isinstance(dist, cupy.ndarray)
        np.testing.assert_array_equal(dist.get(), scipy_cg.dijkstra(dense, indices=0))
        order, pred = wg_cg.breadth_first_order(A, 0, **GPU)
        s_order, s_pred = scipy_cg.breadth_first_order(dense, 0)
        np.testing.assert_array_equal(order.get(), s_order)
        np.testing.assert_array_equal(pred.get(), s_pred)
        count, labels = wg_cg.connected_components(A, connection="strong", **GPU)
        s_count, s_labels = scipy_cg.connected_components(dense, connection="strong")
        assert count == s_count
        np.testing.assert_array_equal(labels.get(), s_labels)
        tree = wg_cg.breadth_first_tree(A, 0, directed=False, **GPU)
        assert csp.isspmatrix_csr(tree)
        np.testing.assert_array_equal(
            tree.toarray().get(), scipy_cg.breadth_first_tree(dense, 0, directed=False).toarray()
        )
        dist = wg_cg.floyd_warshall(A, **GPU)
        assert isinstance(dist, cupy.ndarray)
        np.testing.assert_array_equal(dist.get(), scipy_cg.floyd_warshall(dense))
