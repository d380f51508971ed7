"""The fast CPU paths of strong components: the radix-sort transpose (``Graph.reverse_csr``),
Tarjan in Pearce's form, and the automatic choice (Tarjan, Afforest on symmetric graphs,
multi-step), each against SciPy."""

from __future__ import annotations

import numpy as np
import pytest
import scipy.sparse as sp
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy.sparse.csgraph import connected_components as scipy_cc

from warpgraph import Graph
from warpgraph.algorithms.components import connected_components
from warpgraph.algorithms.components import scc_cpu as scc_cpu_module
from warpgraph.algorithms.components.scc_config import _local, auto_scc_method
from warpgraph.algorithms.components.scc_cpu import (
    dynamic_threads,
    is_symmetric,
    tarjan_scc,
    tarjan_scc_in_closing_order,
)
from warpgraph.cpu import threads as threads_module
from warpgraph.cpu import transpose as transpose_module
from warpgraph.cpu.transpose import _shift_for, transpose_csr


def scipy_transpose(n, indptr, indices, weights):
    """Transpose by SciPy: CSC of the same matrix; rows sorted stably (parallel arcs keep
    their order because SciPy's conversion is a stable counting sort)."""
    data = np.arange(indices.size) if weights is None else weights
    A = sp.csr_array((data, indices, indptr), shape=(n, n))
    T = sp.csr_array(A.T.tocsr(), copy=True)
    return T.indptr, T.indices, T.data


def reference_transpose(n, indptr, indices, weights):
    """Obvious transpose: stable sort of the arcs by (target, source)."""
    src = np.repeat(np.arange(n, dtype=np.int64), np.diff(indptr))
    order = np.lexsort((src, indices))
    rindptr = np.zeros(n + 1, np.int64)
    np.cumsum(np.bincount(indices, minlength=n), out=rindptr[1:])
    return rindptr, src[order], None if weights is None else weights[order]


def random_csr(n, m, seed, dtype=np.int32, local=False):
    rng = np.random.default_rng(seed)
    src = np.sort(rng.integers(0, n, m))
    dst = rng.integers(0, n, m) if not local else np.clip(src + rng.integers(-3, 4, m), 0, n - 1)
    indptr = np.zeros(n + 1, np.int64)
    np.cumsum(np.bincount(src, minlength=n), out=indptr[1:])
    return indptr, dst.astype(dtype)


@pytest.mark.parametrize("threads", [1, 2, 3])
@pytest.mark.parametrize(
    "n,m,idt", [(7, 40, np.int32), (5000, 200_000, np.int32), (1 << 20, 70_000, np.int64)]
)
def test_transpose_matches_reference(n, m, idt, threads):
    indptr, indices = random_csr(n, m, seed=n + threads, dtype=idt)
    w = np.random.default_rng(1).random(m)
    rp, ri, rw = transpose_csr(indptr, indices, n, w, threads=threads)
    want_p, want_i, want_w = reference_transpose(n, indptr, indices, w)
    np.testing.assert_array_equal(rp, want_p)
    np.testing.assert_array_equal(ri, want_i)
    np.testing.assert_array_equal(rw, want_w)
    assert ri.dtype == idt and rw.dtype == w.dtype and rp.dtype == np.int64


def test_transpose_packing_paths():
    # uint32 words (20 + 12 bits) and int64 words (20 + 17 bits) both exercised above
    assert 20 + _shift_for(1 << 20, 16 << 20) <= 32
    assert 20 + _shift_for(1 << 20, 70_000) > 32


def test_transpose_parallel_arcs_keep_order_with_weights():
    # 0 -> 1 three times with weights 3, 1, 2; 2 -> 1 once: row 1 of the transpose is
    # 0, 0, 0, 2 with the weights in input order
    n = 3
    indptr = np.array([0, 3, 3, 4], np.int64)
    indices = np.array([1, 1, 1, 1], np.int32)
    w = np.array([3, 1, 2, 9], np.int64)
    for threads in (1, 2):
        rp, ri, rw = transpose_csr(indptr, indices, n, w, threads=threads)
        assert rp.tolist() == [0, 0, 4, 4]
        assert ri.tolist() == [0, 0, 0, 2] and rw.tolist() == [3, 1, 2, 9]


def test_transpose_parallel_path_small_threshold(monkeypatch):
    monkeypatch.setattr(transpose_module, "PARALLEL_MIN_ARCS", 1)
    indptr, indices = random_csr(300, 5000, seed=4)
    w = np.arange(5000, dtype=np.float32)
    got = transpose_csr(indptr, indices, 300, w)
    want = scipy_transpose(300, indptr, indices, w)
    for a, b in zip(got, want, strict=True):
        np.testing.assert_array_equal(a, b)


@st.composite
def edge_lists(draw):
    n = draw(st.integers(1, 30))
    k = draw(st.integers(0, 80))
    ids = st.lists(st.integers(0, n - 1), min_size=k, max_size=k)
    return n, np.array(draw(ids), np.int64), np.array(draw(ids), np.int64)


WEIGHT_DTYPES = [None, np.int32, np.int64, np.float32, np.float64]


@settings(max_examples=40, deadline=None)
@given(edge_lists(), st.sampled_from(WEIGHT_DTYPES), st.booleans())
def test_reverse_csr_equals_the_from_edges_build(data, wdt, wide_ids):
    """``Graph.reverse_csr`` gives exactly what building the reversed edge list gives (the
    former implementation): same offsets, ids, dtypes, and weights in the same order."""
    n, src, dst = data
    w = None if wdt is None else (np.arange(src.size) % 7 - 2).astype(wdt)
    G = Graph.from_edges(src, dst, w, num_vertices=n)
    if wide_ids:
        G = Graph(G.indptr, G.indices.astype(np.int64), G.weights, directed=True)
    rp, ri, rw = G.reverse_csr()
    rows = np.repeat(np.arange(n, dtype=np.int64), np.diff(G.indptr))
    R = Graph.from_edges(G.indices, rows, G.weights, num_vertices=n)
    np.testing.assert_array_equal(rp, R.indptr)
    np.testing.assert_array_equal(ri, R.indices)
    assert ri.dtype == R.indices.dtype == np.int32
    if wdt is None:
        assert rw is None
    else:
        assert rw.dtype == R.weights.dtype
        np.testing.assert_array_equal(rw, R.weights)
    assert G.reverse_csr()[0] is rp  # cached


def canon(labels):
    _, first, inv = np.unique(labels, return_index=True, return_inverse=True)
    return first[inv]


def scipy_scc(n, indptr, indices):
    A = sp.csr_array((np.ones(indices.size), indices.copy(), indptr.copy()), shape=(n, n))
    A.sum_duplicates()  # SciPy 1.17 finds wrong strong components with repeated entries
    return scipy_cc(A, directed=True, connection="strong")


@settings(max_examples=60, deadline=None)
@given(edge_lists())
def test_pearce_random_graphs(data):
    n, src, dst = data
    G = Graph.from_edges(src, dst, num_vertices=n)
    k, ref = scipy_scc(n, G.indptr, G.indices)
    lab = tarjan_scc(G.indptr, G.indices, n)
    np.testing.assert_array_equal(canon(lab), canon(ref))
    assert np.unique(lab).size == k and lab.min() >= 0 and lab.max() < n


def completion_order_labels(n, indptr, indices, backward=False):
    """Oracle: recursive textbook Tarjan (small graphs), components numbered as they close,
    the first ``n - 1`` and down (``tarjan_scc``'s numbering), rows scanned in stored order or
    backward."""
    import sys

    sys.setrecursionlimit(max(1000, 4 * n + 100))
    index, low, on_stack, stack, label = {}, {}, set(), [], np.full(n, -1)
    closed = [n - 1]

    def visit(v):
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        row = indices[indptr[v] : indptr[v + 1]]
        for w in row[::-1] if backward else row:
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            while True:
                w = stack.pop()
                on_stack.discard(w)
                label[w] = closed[0]
                if w == v:
                    break
            closed[0] -= 1

    for v in range(n):
        if v not in index:
            visit(v)
    return label


EARLY_EXIT_CASES = {  # (n, arcs): where Pearce's search may stop before unwinding its path
    "ring": (5, [(0, 1), (1, 2), (2, 3), (3, 4), (4, 0)]),
    "exit on a back arc after a sink closed": (3, [(0, 1), (0, 2), (2, 0)]),
    "exit when a child's low reaches its parent": (4, [(0, 1), (1, 2), (2, 0), (2, 3), (3, 3)]),
    "a second tree, exit inside it": (5, [(0, 0), (1, 2), (2, 3), (3, 1), (3, 4), (4, 2)]),
    "all reached, the root never reached back": (4, [(0, 1), (1, 2), (2, 1), (2, 3), (3, 2)]),
}


@pytest.mark.parametrize("backward", [False, True])
@pytest.mark.parametrize("case", sorted(EARLY_EXIT_CASES))
def test_pearce_early_exit_keeps_tarjans_numbering(case, backward):
    """The early exit (every vertex reached, a vertex's index down to its tree root's) gives
    the ids the full search gives: the partition and the order the SCCs close in."""
    n, arcs = EARLY_EXIT_CASES[case]
    src, dst = (np.array(x) for x in zip(*arcs, strict=True))
    G = Graph.from_edges(src, dst, num_vertices=n)
    want = completion_order_labels(n, G.indptr, G.indices, backward)
    got = tarjan_scc(G.indptr, G.indices, n, backward=backward)
    np.testing.assert_array_equal(got, want)
    from warpgraph.algorithms.components._scc_tarjan import _pearce

    work = [np.zeros(n, np.int32), *(np.empty(n, t) for t in (np.int32, np.uint64, np.int64))]
    count = _pearce(G.indptr, G.indices, *work, np.empty(n, np.bool_), backward, False)
    assert count == np.unique(want).size  # (the kernel's own count, early exit or not)
    np.testing.assert_array_equal(work[0], want)


@settings(max_examples=200, deadline=None)
@given(edge_lists(), st.booleans())
def test_pearce_numbering_equals_textbook_tarjan(data, backward):
    """Random graphs (dense small ones reach every vertex early, so the early exit is often
    taken): the exact ids, not only the partition."""
    n, src, dst = data
    G = Graph.from_edges(src, dst, num_vertices=n)
    want = completion_order_labels(n, G.indptr, G.indices, backward)
    np.testing.assert_array_equal(tarjan_scc(G.indptr, G.indices, n, backward=backward), want)
    count, closing = tarjan_scc_in_closing_order(G.indptr, G.indices, n, backward=backward)
    assert count == np.unique(want).size
    np.testing.assert_array_equal(closing, n - 1 - want)  # (0 for the first SCC closed)


@pytest.mark.parametrize("case", ["deep_chain", "deep_cycle", "dag_fan", "sinks"])
def test_pearce_shapes(case):
    n = 200_000
    rng = np.random.default_rng(5)
    perm = rng.permutation(n)
    if case == "deep_chain":  # a path 200k deep in DFS order (no recursion limit)
        src, dst = perm[:-1], perm[1:]
    elif case == "deep_cycle":
        src, dst = perm, np.roll(perm, -1)
    elif case == "dag_fan":
        src = rng.integers(0, n - 1, 4 * n)
        dst = src + rng.integers(1, 50, 4 * n)
        keep = dst < n
        src, dst = src[keep], dst[keep]
    else:  # every other vertex a sink, the rest 2-cycles
        src = np.r_[np.arange(0, n, 4), np.arange(2, n, 4), np.arange(0, n, 4)]
        dst = np.r_[np.arange(2, n, 4), np.arange(0, n, 4), np.arange(1, n, 4)]
    G = Graph.from_edges(src, dst, num_vertices=n)
    _, ref = scipy_scc(n, G.indptr, G.indices)
    lab = tarjan_scc(G.indptr, G.indices, n)
    np.testing.assert_array_equal(canon(lab), canon(ref))


def grid_directed(r, both, seed=0):
    rng = np.random.default_rng(seed)
    v = np.arange(r * r).reshape(r, r)
    s = np.r_[v[:, :-1].ravel(), v[:-1, :].ravel()]
    d = np.r_[v[:, 1:].ravel(), v[1:, :].ravel()]
    if both:
        return Graph.from_edges(np.r_[s, d], np.r_[d, s], num_vertices=r * r)
    flip = rng.random(s.size) < 0.5
    return Graph.from_edges(np.where(flip, d, s), np.where(flip, s, d), num_vertices=r * r)


def test_auto_method_rules():
    grid = grid_directed(200, both=False)
    assert auto_scc_method(grid.indptr, grid.num_vertices, "cpu", grid.indices) == "tarjan"
    assert auto_scc_method(np.array([0, 2, 4]), 2, "cpu") == "tarjan"  # small
    n = 1 << 15
    indptr, indices = random_csr(n, 3 * n, seed=2)  # low degree, not local
    assert not _local(indptr, indices, n)
    assert auto_scc_method(indptr, n, "cpu") == "tarjan"  # degrees alone say road-like
    assert auto_scc_method(indptr, n, "cpu", indices) == "multistep"
    indptr, indices = random_csr(n, 3 * n, seed=2, local=True)
    assert _local(indptr, indices, n)
    assert auto_scc_method(indptr, n, "gpu", indices) == "ecl"  # deep, low degree: ECL-SCC
    indptr, indices = random_csr(n, 20 * n, seed=3, local=True)  # dense but local: DFS in cache
    assert auto_scc_method(indptr, n, "cpu", indices) == "tarjan"
    assert auto_scc_method(indptr, n, "cpu") == "multistep"  # degrees alone: not road-like


def test_is_symmetric():
    G = grid_directed(20, both=True)
    rp, ri, _ = G.reverse_csr()
    assert is_symmetric(G.indptr, G.indices, rp, ri)
    H = grid_directed(20, both=False)
    assert not is_symmetric(H.indptr, H.indices, *H.reverse_csr()[:2])
    # the same in-/out-degrees, different arcs: 0->1->2->0 against its reverse
    C = Graph.from_edges([0, 1, 2], [1, 2, 0])
    assert not is_symmetric(C.indptr, C.indices, *C.reverse_csr()[:2])
    # repeated arcs count: 0->1 twice, 1->0 once
    D = Graph.from_edges([0, 0, 1], [1, 1, 0])
    assert not is_symmetric(D.indptr, D.indices, *D.reverse_csr()[:2])


def spy(monkeypatch):
    calls = []
    for name in ("scc_cpu_labels", "is_symmetric"):
        orig = getattr(scc_cpu_module, name)

        def wrapped(*a, _orig=orig, _name=name, **k):
            out = _orig(*a, **k)
            calls.append((_name, k.get("method"), out if _name == "is_symmetric" else None))
            return out

        monkeypatch.setattr(scc_cpu_module, name, wrapped)
    return calls


@pytest.mark.parametrize(
    "graph,path",
    [
        ("small", "tarjan"),
        ("grid_both", "tarjan"),
        ("grid_oriented", "tarjan"),
        ("kron_symmetric", "afforest"),
        ("kron", "multistep"),
        ("uniform_deg3", "multistep"),
    ],
)
def test_auto_paths_match_scipy(monkeypatch, graph, path):
    from warpgraph.generators import kronecker

    if graph == "small":
        G = kronecker(10, seed=2, directed=True, device="cpu")
    elif graph == "grid_both":
        G = grid_directed(70, both=True)
    elif graph == "grid_oriented":
        G = grid_directed(70, both=False, seed=3)
    elif graph == "kron_symmetric":
        U = kronecker(12, seed=2, device="cpu")  # undirected: both arcs of every edge
        G = Graph(U.indptr, U.indices, directed=True)
    elif graph == "kron":
        G = kronecker(13, seed=2, directed=True, device="cpu")
    else:
        n = 30_000
        ip, ix = random_csr(n, 3 * n, seed=9)
        G = Graph(ip, ix, directed=True)
    monkeypatch.setattr(scc_cpu_module, "dynamic_threads", lambda t: 2)  # an idle machine
    calls = spy(monkeypatch)
    count, labels = connected_components(G, connection="strong", device="cpu")
    k, ref = scipy_scc(G.num_vertices, G.indptr, G.indices)
    assert count == k
    np.testing.assert_array_equal(canon(labels), canon(ref))
    methods = [c[1] for c in calls if c[0] == "scc_cpu_labels"]
    sym = [c[2] for c in calls if c[0] == "is_symmetric"]
    if path == "tarjan":
        assert methods == ["tarjan"] and sym == []
    elif path == "afforest":
        assert methods == [] and sym == [True]
    else:
        assert methods == ["multistep"] and sym == [False]


def test_explicit_methods_skip_the_symmetry_shortcut(monkeypatch):
    G = grid_directed(30, both=True)
    calls = spy(monkeypatch)
    for method in ("multistep", "fb", "coloring", "tarjan"):
        count, labels = connected_components(G, connection="strong", method=method, device="cpu")
        assert count == 1 and not labels.any()
    assert [c[1] for c in calls if c[0] == "scc_cpu_labels"] == [
        "multistep",
        "fb",
        "coloring",
        "tarjan",
    ]


def test_dynamic_threads(monkeypatch):
    monkeypatch.setattr(threads_module.os, "cpu_count", lambda: 8)
    monkeypatch.setattr(threads_module._own_load, "update", lambda: 0.0)  # (none of it ours)
    for load, want in ((0.2, 4), (1.0, 4), (5.5, 3), (7.9, 1), (30.0, 1)):
        monkeypatch.setattr(threads_module.os, "getloadavg", lambda load=load: (load, 0.0, 0.0))
        assert dynamic_threads(4) == want
    monkeypatch.setattr(threads_module, "DYNAMIC_THREADS", False)
    assert dynamic_threads(4) == 4


def test_auto_busy_machine_prefers_tarjan(monkeypatch):
    from warpgraph.generators import kronecker

    G = kronecker(13, seed=2, directed=True, device="cpu")
    k, ref = scipy_scc(G.num_vertices, G.indptr, G.indices)
    for threads, want in ((1, "tarjan"), (2, "multistep")):
        G._reverse = None
        monkeypatch.setattr(scc_cpu_module, "dynamic_threads", lambda t, threads=threads: threads)
        calls = spy(monkeypatch)
        count, labels = connected_components(G, connection="strong", device="cpu")
        assert count == k and np.array_equal(canon(labels), canon(ref))
        assert [c[1] for c in calls if c[0] == "scc_cpu_labels"][-1] == want
    # with the reverse CSR cached the multi-step scheme runs even on one thread
    monkeypatch.setattr(scc_cpu_module, "dynamic_threads", lambda t: 1)
    calls = spy(monkeypatch)
    connected_components(G, connection="strong", device="cpu")
    assert [c[1] for c in calls if c[0] == "scc_cpu_labels"][-1] == "multistep"


def test_threads_for_sets_and_restores(monkeypatch):
    import numba

    before = numba.get_num_threads()
    with threads_module.threads_for(work=5) as t:
        assert t == 1 and numba.get_num_threads() == 1
    assert numba.get_num_threads() == before
    monkeypatch.setattr(threads_module, "dynamic_threads", lambda t: 1)  # a busy machine
    with threads_module.threads_for(work=1 << 30) as t:
        assert t == 1
    assert numba.get_num_threads() == before


@pytest.mark.parametrize(
    ("indptr", "indices", "n"),
    [([0, 1], [0], 3), ([0, 5, 5, 5], [1], 3), ([0, 1, 1], [1], -1)],
)
def test_tarjan_refuses_offsets_that_do_not_fit(indptr, indices, n):
    """Both numberings check the offsets' length and end before the compiled search reads
    them (the ids' range is checked by their callers)."""
    from warpgraph.errors import InvalidArgumentError

    for f in (tarjan_scc, tarjan_scc_in_closing_order):
        with pytest.raises(InvalidArgumentError, match="offsets"):
            f(np.array(indptr), np.array(indices), n)
