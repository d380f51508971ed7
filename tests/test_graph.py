"""Graph construction, conversion and transformation against SciPy and NetworkX oracles."""

from __future__ import annotations

import networkx as nx
import numpy as np
import pytest
import scipy.sparse as sp
from hypothesis import given
from hypothesis import strategies as st

from warpgraph import Graph
from warpgraph.errors import InvalidArgumentError


@st.composite
def edge_lists(draw, max_n=12, max_m=40, weighted=None):
    n = draw(st.integers(1, max_n))
    m = draw(st.integers(0, max_m))
    src = draw(st.lists(st.integers(0, n - 1), min_size=m, max_size=m))
    dst = draw(st.lists(st.integers(0, n - 1), min_size=m, max_size=m))
    if weighted is None:
        weighted = draw(st.booleans())
    w = draw(st.lists(st.integers(-5, 9), min_size=m, max_size=m)) if weighted else None
    return n, np.array(src, np.int64), np.array(dst, np.int64), None if w is None else np.array(w)


def _to_device(arrays, device):
    if device == "gpu":
        import cupy as cp

        return [None if a is None else cp.asarray(a) for a in arrays]
    return arrays


def _host(a):
    return a.get() if hasattr(a, "get") else np.asarray(a)


def _oracle_multiset(n, src, dst, w, directed, drop_loops=False):
    """Sorted list of (u, v, w) arcs the CSR must hold, built without warpgraph."""
    arcs = []
    for i in range(len(src)):
        u, v = int(src[i]), int(dst[i])
        x = None if w is None else int(w[i])
        if drop_loops and u == v:
            continue
        arcs.append((u, v, x))
        if not directed and u != v:
            arcs.append((v, u, x))
    return sorted(arcs, key=lambda t: (t[0], t[1]))


def _csr_arcs(G):
    indptr, indices = _host(G.indptr), _host(G.indices)
    w = None if G.weights is None else _host(G.weights)
    rows = np.repeat(np.arange(G.num_vertices), np.diff(indptr))
    return [
        (int(rows[p]), int(indices[p]), None if w is None else int(w[p]))
        for p in range(len(indices))
    ]


@given(edge_lists(), st.booleans(), st.booleans())
def test_from_edges_keeps_every_arc(data, directed, drop_loops):
    n, src, dst, w = data
    G = Graph.from_edges(
        src, dst, w, num_vertices=n, directed=directed, remove_self_loops=drop_loops
    )
    expect = _oracle_multiset(n, src, dst, w, directed, drop_loops)
    got = _csr_arcs(G)
    # rows sorted by neighbour; ties keep input order (stable), so compare per (u, v) multisets
    assert [(u, v) for u, v, _ in got] == [(u, v) for u, v, _ in expect]
    assert sorted(got, key=lambda t: (t[0], t[1], t[2] or 0)) == sorted(
        expect, key=lambda t: (t[0], t[1], t[2] or 0)
    )
    assert G.indptr.dtype == np.int64 and G.indices.dtype == np.int32
    loops = 0 if drop_loops else int((src == dst).sum())
    assert G.num_edges == (len(expect) if directed else (len(expect) + loops) // 2)


@pytest.mark.parametrize("how", ["first", "last", "min", "max", "sum"])
@given(data=edge_lists(weighted=True))
def test_merge_policies_match_oracle(how, data):
    n, src, dst, w = data
    G = Graph.from_edges(src, dst, w, num_vertices=n, merge=how)
    expect: dict = {}
    for u, v, x in zip(src.tolist(), dst.tolist(), w.tolist(), strict=True):
        if (u, v) not in expect:
            expect[(u, v)] = x
        elif how == "last":
            expect[(u, v)] = x
        elif how == "min":
            expect[(u, v)] = min(expect[(u, v)], x)
        elif how == "max":
            expect[(u, v)] = max(expect[(u, v)], x)
        elif how == "sum":
            expect[(u, v)] += x
    assert _csr_arcs(G) == sorted((u, v, x) for (u, v), x in expect.items())


@given(edge_lists(weighted=False))
def test_merge_matches_scipy_pattern(data):
    n, src, dst, _ = data
    G = Graph.from_edges(src, dst, num_vertices=n, directed=False, merge="first")
    A = sp.coo_array((np.ones(len(src)), (src, dst)), shape=(n, n)).tocsr()
    A = ((A + A.T) > 0).astype(np.float64)
    A.sort_indices()
    assert np.array_equal(G.indptr, A.indptr)
    assert np.array_equal(G.indices, A.indices)
    assert (
        G.num_edges
        == nx.Graph(list(zip(src.tolist(), dst.tolist(), strict=True))).number_of_edges()
    )


@given(edge_lists(), st.booleans())
def test_scipy_round_trip(data, directed):
    n, src, dst, w = data
    G = Graph.from_edges(src, dst, w, num_vertices=n, directed=directed, merge="sum")
    A = G.to_scipy()
    H = Graph.from_scipy(A, directed=directed)
    assert np.array_equal(H.indptr, G.indptr) and np.array_equal(H.indices, G.indices)
    if w is not None:
        assert np.array_equal(H.weights, G.weights)


@given(edge_lists(weighted=False), st.booleans())
def test_networkx_round_trip(data, directed):
    n, src, dst, _ = data
    G = Graph.from_edges(src, dst, num_vertices=n, directed=directed, merge="first")
    H = G.to_networkx()
    ref = (nx.DiGraph if directed else nx.Graph)()
    ref.add_nodes_from(range(n))
    ref.add_edges_from(zip(src.tolist(), dst.tolist(), strict=True))
    assert nx.utils.graphs_equal(H, ref)
    back = Graph.from_networkx(H)
    assert np.array_equal(back.indices, G.indices) and np.array_equal(back.indptr, G.indptr)


def test_networkx_labels_and_multigraph():
    M = nx.MultiGraph()
    M.add_edge("a", "b", weight=2.5)
    M.add_edge("a", "b", weight=1.5)
    M.add_node("z")
    G = Graph.from_networkx(M)
    assert G.vertex_labels == ["a", "b", "z"]
    assert G.num_edges == 2 and G.has_parallel_edges()
    back = G.to_networkx()
    assert isinstance(back, nx.MultiGraph) and back.number_of_edges("a", "b") == 2


@pytest.mark.parametrize("order", ["random", "degree", "bfs", "rcm"])
@given(data=edge_lists())
def test_relabel_is_isomorphism(order, data):
    n, src, dst, w = data
    G = Graph.from_edges(src, dst, w, num_vertices=n, directed=False)
    H, perm = G.relabel(order, seed=1)
    assert sorted(perm.tolist()) == list(range(n))
    expect = sorted((int(perm[u]), int(perm[v]), x) for u, v, x in _csr_arcs(G))
    assert sorted(_csr_arcs(H), key=lambda t: (t[0], t[1], t[2] or 0)) == sorted(
        expect, key=lambda t: (t[0], t[1], t[2] or 0)
    )
    if order == "degree":
        deg = H.degree()
        assert np.all(deg[:-1] >= deg[1:])


def test_relabel_bfs_is_bfs_order():
    G = Graph.from_edges([0, 3, 3, 5], [3, 1, 2, 4], num_vertices=6, directed=False)
    _, perm = G.relabel("bfs")
    # component {0,1,2,3}: 0, 3, then 1 and 2; component {4,5}: 4, then 5
    assert perm.tolist() == [0, 2, 3, 1, 4, 5]


@given(edge_lists(), st.booleans())
def test_degrees_and_reverse_match_scipy(data, directed):
    n, src, dst, w = data
    G = Graph.from_edges(src, dst, w, num_vertices=n, directed=directed)
    A = G.to_scipy()
    assert np.array_equal(G.out_degree(), np.diff(A.indptr))
    indptr, indices, _ = G.reverse_csr()
    AT = sp.csr_array(A.T)
    AT.sort_indices()
    assert np.array_equal(indptr, AT.indptr) and np.array_equal(indices, AT.indices)
    assert np.array_equal(G.in_degree(), np.diff(AT.indptr))


def test_edges_undirected_once_and_counts():
    G = Graph.from_edges([0, 1, 2, 2], [1, 2, 2, 0], directed=False)
    src, dst, _ = G.edges()
    assert list(zip(src.tolist(), dst.tolist(), strict=True)) == [(0, 1), (0, 2), (1, 2), (2, 2)]
    assert G.num_edges == 4 and G.num_arcs == 7 and G.num_self_loops == 1


def test_transformations():
    G = Graph.from_edges([0, 1, 1, 2], [1, 0, 1, 2], weights=[3, 4, 5, 6])
    U = G.to_undirected(merge="min")
    assert U.num_edges == 3 and _csr_arcs(U)[:2] == [(0, 1, 3), (1, 0, 3)]
    assert G.remove_self_loops().num_edges == 2
    S = G.subgraph([1, 0])
    assert S.num_vertices == 2 and _csr_arcs(S) == [(0, 0, 5), (0, 1, 4), (1, 0, 3)]


def test_empty_and_isolated():
    G = Graph.from_edges([], [], num_vertices=5)
    assert G.num_vertices == 5 and G.num_edges == 0 and G.indptr.tolist() == [0] * 6
    E = Graph.from_edges(np.array([], np.int64), np.array([], np.int64))
    assert E.num_vertices == 0


def test_csr_constructor_validates_and_sorts():
    G = Graph([0, 2, 2], [1, 0])
    assert G.indices.tolist() == [0, 1]
    with pytest.raises(InvalidArgumentError, match="end at len"):
        Graph([0, 3], [0])
    with pytest.raises(InvalidArgumentError, match="out of range"):
        Graph([0, 1], [4])
    with pytest.raises(InvalidArgumentError, match="symmetric"):
        Graph([0, 1, 1], [1], directed=False)


@pytest.mark.parametrize("validate", [True, False])
def test_offsets_are_int64_whatever_the_caller_gives(validate):
    """Every kernel takes int64 offsets: int32 ones (a SciPy CSR's) are widened, also for the
    internal callers that skip validation (session 37 found an unvalidated Graph from a small
    SciPy matrix keeping int32 offsets, which the GPU kernels refused)."""
    indptr = np.array([0, 2, 3, 3], dtype=np.int32)
    indices = np.array([1, 2, 2], dtype=np.int32)
    G = Graph(indptr, indices, validate=validate)
    assert G.indptr.dtype == np.int64 and G.indptr.tolist() == [0, 2, 3, 3]
    assert indptr.dtype == np.int32  # the caller's array is not changed
    wide = np.array([0, 2, 3, 3], dtype=np.int64)
    assert Graph(wide, indices, validate=validate).indptr is wide  # no copy when already int64


@pytest.mark.parametrize(
    ("src", "dst", "kw", "match"),
    [
        ([0, -1], [1, 0], {}, "negative vertex id -1 at edge 1"),
        ([0, 5], [1, 0], {"num_vertices": 3}, "vertex id 5 at edge 1 is out of range"),
        ([0.5], [1], {}, "integer vertex ids"),
        ([0, 1], [1], {}, "differ in length"),
        ([0], [1], {"merge": "avg"}, "merge must be one of"),
        ([0], [1], {"weights": ["a"]}, "weights must be integers or floats"),
        ([0], [1], {"weights": [1, 2]}, "weights has 2 entries"),
        ([[0]], [[1]], {}, "one-dimensional"),
    ],
)
def test_bad_edges_raise(src, dst, kw, match):
    with pytest.raises(InvalidArgumentError, match=match):
        Graph.from_edges(src, dst, **kw)


@pytest.mark.parametrize("dtype", [np.int32, np.int64, np.uint32])
def test_bad_ids_found_by_the_parallel_bounds_pass(dtype):
    """Edge lists and CSR arrays of 65,536 ids or more are bounded by one parallel pass
    (``cpu.csr.id_bounds``): a bad id anywhere, in either array, is named as before."""
    from warpgraph.cpu.csr import id_bounds

    m, n = 1 << 17, 1000
    rng = np.random.default_rng(7)
    src, dst = (rng.integers(0, n, m).astype(dtype) for _ in range(2))
    assert id_bounds(src) == (src.min(), src.max())
    assert Graph.from_edges(src, dst, num_vertices=n).num_vertices == n
    for array, at in [(src, 0), (dst, m - 1), (dst, m // 2 + 3)]:
        bad = array.copy()
        bad[at] = n + 5
        pair = (bad, dst) if array is src else (src, bad)
        with pytest.raises(InvalidArgumentError, match=f"vertex id {n + 5} at edge {at} is out"):
            Graph.from_edges(*pair, num_vertices=n)
    if np.dtype(dtype).kind == "i":
        bad = dst.copy()
        bad[-1] = -2
        with pytest.raises(InvalidArgumentError, match=f"negative vertex id -2 at edge {m - 1}"):
            Graph.from_edges(src, bad, num_vertices=n)
    indptr = np.arange(0, m + 1, m // n, dtype=np.int64)[: n + 1]
    indptr[-1] = m
    indices = np.sort(dst.reshape(n, -1) if m % n == 0 else dst, axis=-1).ravel()
    assert Graph(indptr, indices).num_arcs == m
    indices[m - 2] = n
    with pytest.raises(InvalidArgumentError, match=f"vertex id {n} at edge {m - 2} is out"):
        Graph(indptr, indices)


def test_input_containers():
    pd = pytest.importorskip("pandas")
    import pyarrow as pa

    df = pd.DataFrame({"a": [0, 1], "b": [1, 2], "w": [0.5, 1.5]})
    G = Graph.from_pandas(df, "a", "b", "w")
    assert G.weights.dtype == np.float64 and G.num_edges == 2
    T = pa.table({"source": [0, 1], "target": [2, 2]})
    H = Graph.from_pandas(T)
    assert H.indices.tolist() == [2, 2]
    assert G.to_pandas()["w" if False else "weight"].tolist() == [0.5, 1.5]
    assert H.to_arrow().num_rows == 2
    U = Graph.from_edges(np.array([0], np.uint16), np.array([3], np.uint8))
    assert U.num_vertices == 4


def test_ids_int64_when_needed():
    from warpgraph._arrays import id_dtype_for

    assert id_dtype_for(2**31 - 1) == np.int32 and id_dtype_for(2**31) == np.int64


def test_nbytes_and_repr():
    G = Graph.from_edges([0, 1], [1, 2], weights=np.array([1.0, 2.0], np.float32))
    assert G.nbytes == 4 * 8 + 2 * 4 + 2 * 4
    G.reverse_csr()
    assert G.nbytes == 2 * (4 * 8 + 2 * 4 + 2 * 4)
    assert "weights=float32" in repr(G)


@pytest.mark.gpu
@given(
    data=edge_lists(), directed=st.booleans(), merge=st.sampled_from([None, "min", "sum", "first"])
)
def test_gpu_build_matches_cpu(data, directed, merge):
    import cupy as cp

    n, src, dst, w = data
    C = Graph.from_edges(src, dst, w, num_vertices=n, directed=directed, merge=merge)
    G = Graph.from_edges(
        *_to_device([src, dst, w], "gpu"), num_vertices=n, directed=directed, merge=merge
    )
    assert G.device == "gpu" and isinstance(G.indptr, cp.ndarray)
    assert _csr_arcs(G) == _csr_arcs(C)
    assert G.num_edges == C.num_edges
    back = G.to("cpu")
    assert np.array_equal(back.indices, C.indices)
    assert C.to("gpu").device == "gpu"


@pytest.mark.gpu
@given(data=edge_lists(), directed=st.booleans(), per_pass=st.sampled_from([1, 3, 1 << 25]))
def test_gpu_self_loop_count_in_passes(data, directed, per_pass):
    n, src, dst, _ = data
    C = Graph.from_edges(src, dst, num_vertices=n, directed=directed)
    G = C.to("gpu")
    # Independent count: the diagonal arcs of the CPU CSR, row by row.
    rows = np.repeat(np.arange(C.num_vertices), np.diff(C.indptr))
    assert G._count_self_loops_gpu(arcs_per_pass=per_pass) == int(np.sum(rows == C.indices))
    assert G.num_self_loops == C.num_self_loops


def test_tuple_labels_survive_round_trip_and_relabel():
    H = nx.grid_2d_graph(2, 3)  # nodes are (row, col) tuples
    G = Graph.from_networkx(H)
    assert nx.utils.graphs_equal(G.to_networkx(), H)
    G2, perm = G.relabel("degree")
    assert sorted(G2.vertex_labels) == sorted(H.nodes)
    assert nx.is_isomorphic(G2.to_networkx(), H)
    assert G2.vertex_labels[int(perm[0])] == (0, 0)


def test_index_dtype_choice_and_errors():
    from warpgraph.gpu.csr import _index_dtype  # the GPU builder's choice, checked without a GPU

    assert _index_dtype(None, 2**31 - 1) == np.int32 and _index_dtype(None, 2**31) == np.int64
    assert _index_dtype(np.int64, 5) == np.int64
    with pytest.raises(InvalidArgumentError, match="int32 or int64"):
        _index_dtype(np.int16, 5)
    with pytest.raises(InvalidArgumentError, match="cannot address"):
        _index_dtype(np.int32, 2**31)


def test_id_bounds_refuses_an_empty_array():
    from warpgraph.cpu.csr import id_bounds

    with pytest.raises(ValueError, match="at least one id"):
        id_bounds(np.empty(0, dtype=np.int64))
