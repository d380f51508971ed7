"""k_truss and truss_decomposition against NetworkX, a by-definition reference and the verifier,
on both backends (the GPU runs skip without a GPU)."""

from __future__ import annotations

import networkx as nx
import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

import warpgraph as wg
from warpgraph.algorithms.ktruss import k_truss, k_truss_arcs, truss_decomposition
from warpgraph.algorithms.ktruss.reference import trussness_reference
from warpgraph.algorithms.ktruss.verify import verify_truss_decomposition, verify_trussness
from warpgraph.algorithms.triangles import prep
from warpgraph.errors import InvalidArgumentError, VerificationError

DEVICES = ["cpu", pytest.param("gpu", marks=pytest.mark.gpu)]


@st.composite
def edge_lists(draw, max_n: int = 12, max_m: int = 60):
    n = draw(st.integers(0, max_n))
    if n == 0:
        return 0, np.zeros(0, np.int64), np.zeros(0, np.int64)
    m = draw(st.integers(0, max_m))
    ids = st.lists(st.integers(0, n - 1), min_size=m, max_size=m)
    return n, np.array(draw(ids), np.int64), np.array(draw(ids), np.int64)


def host(x):
    return x.get() if hasattr(x, "get") else np.asarray(x)


def edge_set(G):
    s, d, _ = G.edges()
    return {(int(u), int(v)) for u, v in zip(host(s), host(d), strict=True) if u != v}


@pytest.mark.parametrize("device", DEVICES)
@given(case=edge_lists())
def test_matches_reference_and_networkx(device, case):
    n, src, dst = case
    G = wg.Graph.from_edges(src, dst, num_vertices=n, directed=False)
    t = host(truss_decomposition(G, device=device))
    s, d, _ = G.edges()
    ref = trussness_reference(src, dst)
    assert t.shape == (G.num_edges,)
    for u, v, x in zip(host(s).tolist(), host(d).tolist(), t.tolist(), strict=True):
        assert x == (0 if u == v else ref[(u, v)])
    H = nx.Graph()
    H.add_edges_from((u, v) for u, v in zip(src.tolist(), dst.tolist(), strict=True) if u != v)
    for k in range(2, max(ref.values(), default=2) + 2):
        want = {(min(u, v), max(u, v)) for u, v in nx.k_truss(H, k).edges()}
        assert edge_set(k_truss(G, k, device=device)) == want


@pytest.mark.parametrize("device", DEVICES)
def test_skewed_graph_verified(device):
    s, d = wg.generators.kronecker_edges(10, 16, seed=4, device="cpu")
    G = wg.Graph.from_edges(s, d, directed=False)
    t = host(truss_decomposition(G, device=device))
    verify_truss_decomposition(G, t)
    src, dst, _ = G.edges()
    for k in (3, 5, int(t.max())):
        got = edge_set(k_truss(G, k, device=device))
        want = {(int(u), int(v)) for u, v, x in zip(src, dst, t, strict=True) if x >= k}
        assert got == want


def test_known_graphs():
    K5 = wg.Graph.from_networkx(nx.complete_graph(5))
    assert truss_decomposition(K5, device="cpu").tolist() == [5] * 10
    C = wg.Graph.from_networkx(nx.cycle_graph(5))
    assert truss_decomposition(C, device="cpu").tolist() == [2] * 5
    assert k_truss(C, 3, device="cpu").num_edges == 0


def test_loops_and_parallel_edges():
    # a triangle with a doubled edge and a loop
    G = wg.Graph.from_edges([0, 0, 1, 2, 1], [1, 1, 2, 0, 1], directed=False)
    s, d, _ = G.edges()
    t = truss_decomposition(G, device="cpu")
    by = {}
    for u, v, x in zip(s.tolist(), d.tolist(), t.tolist(), strict=True):
        by.setdefault((u, v), []).append(x)
    assert by == {(0, 1): [3, 3], (0, 2): [3], (1, 1): [0], (1, 2): [3]}
    H = k_truss(G, 3, device="cpu")
    assert H.num_edges == 4  # the doubled edge stays doubled, the loop goes


def test_bad_input():
    D = wg.Graph.from_edges([0, 1], [1, 2], directed=True)
    with pytest.raises(InvalidArgumentError, match="undirected"):
        truss_decomposition(D, device="cpu")
    with pytest.raises(InvalidArgumentError, match="undirected"):
        k_truss(D, 3, device="cpu")
    with pytest.raises(InvalidArgumentError, match="integer"):
        k_truss(D.to_undirected(), 2.5, device="cpu")
    with pytest.raises(InvalidArgumentError, match="undirected"):
        k_truss_arcs(D, 3, device="cpu")
    for bad in (2.5, True, "3"):
        with pytest.raises(InvalidArgumentError, match="integer"):
            k_truss_arcs(D.to_undirected(), bad, device="cpu")


@pytest.mark.parametrize("device", DEVICES)
def test_arc_mask_is_the_truss(device):
    """``k_truss_arcs`` marks exactly the arcs whose edge has trussness >= k (self-loops
    never), in the CSR order of ``G``."""
    s, d = wg.generators.kronecker_edges(9, 16, seed=2, device="cpu")
    G = wg.Graph.from_edges(np.append(s, [3, 3]), np.append(d, [3, 3]), directed=False)
    t = host(truss_decomposition(G, device=device))
    src, dst, _ = G.edges()
    rows = np.repeat(np.arange(G.num_vertices), np.diff(G.indptr))
    for k in (1, 2, 3, 4, int(t.max()), int(t.max()) + 1):
        mask = host(k_truss_arcs(G, k, device=device))
        assert mask.dtype == bool and mask.shape == (G.num_arcs,)
        in_truss = {(int(u), int(v)) for u, v, x in zip(src, dst, t, strict=True)
                    if u != v and x >= max(k, 2)}  # fmt: skip
        pairs = zip(rows.tolist(), host(G.indices).tolist(), strict=True)
        want = [(min(u, v), max(u, v)) in in_truss for u, v in pairs]
        assert mask.tolist() == want


def test_verifier_catches_errors():
    G = wg.Graph.from_networkx(nx.complete_graph(4))
    o = prep.orient(G.indptr, G.indices)
    with pytest.raises(VerificationError, match="rule 1"):
        verify_trussness(o, np.array([5, 4, 4, 4, 4, 4]))
    with pytest.raises(VerificationError, match="rule 3"):
        verify_trussness(o, np.full(6, 2))
    with pytest.raises(VerificationError, match="< 2"):
        verify_trussness(o, np.array([1, 4, 4, 4, 4, 4]))
    with pytest.raises(VerificationError, match="rule 3"):
        verify_truss_decomposition(G, np.full(6, 2))
    L = wg.Graph.from_edges([0, 0], [0, 1], directed=False)
    with pytest.raises(VerificationError, match="self-loop"):
        verify_truss_decomposition(L, np.array([2, 2]))


@pytest.mark.parametrize("k", [3, 4, 5])
def test_cpu_prefilter_with_parallel_edges(k):
    """k_truss on the CPU (support pre-filter, parallel over rows) keeps every copy of a
    doubled edge of the truss, on a graph large enough to be split among threads."""
    s, d = wg.generators.kronecker_edges(11, 16, seed=6, device="cpu")
    s, d = np.concatenate([s, s[:3000]]), np.concatenate([d, d[:3000]])  # doubled edges
    G = wg.Graph.from_edges(s, d, directed=False)
    t = host(truss_decomposition(G, device="cpu"))
    src, dst, _ = G.edges()
    want = sorted((int(u), int(v)) for u, v, x in zip(src, dst, t, strict=True) if x >= k)
    H = k_truss(G, k, device="cpu")
    hs, hd, _ = H.edges()
    assert sorted(zip(hs.tolist(), hd.tolist(), strict=True)) == want


def _nx_truss_arcs(src, dst, k):
    """Arcs (u, v), both directions, each copy of a parallel edge, of NetworkX's k-truss."""
    H = nx.Graph()
    H.add_edges_from((u, v) for u, v in zip(src.tolist(), dst.tolist(), strict=True) if u != v)
    keep = {(min(u, v), max(u, v)) for u, v in nx.k_truss(H, k).edges()}
    arcs = [(u, v) for u, v in zip(src.tolist(), dst.tolist(), strict=True) if u != v]
    out = [(u, v) for u, v in arcs if (min(u, v), max(u, v)) in keep]
    return sorted(out + [(v, u) for u, v in out])


def _arcs(G):
    rows = np.repeat(np.arange(G.num_vertices), np.diff(G.indptr))
    return sorted(zip(rows.tolist(), G.indices.tolist(), strict=True))


def test_cpu_k_truss_against_networkx_with_loops_and_copies():
    """Every k from 2 to past the largest truss, on a graph split among threads, with doubled
    edges (each copy kept or dropped with its edge) and self-loops (always dropped)."""
    s, d = wg.generators.kronecker_edges(9, 12, seed=3, device="cpu")
    rng = np.random.default_rng(5)
    dup = rng.choice(s.shape[0], 400, replace=False)
    loops = rng.choice(2**9, 30, replace=False)
    s = np.concatenate([s, s[dup], loops])
    d = np.concatenate([d, d[dup], loops])
    G = wg.Graph.from_edges(s, d, num_vertices=2**9, directed=False)
    assert G.num_self_loops > 0
    s0, d0, _ = G.edges()
    kmax = int(host(truss_decomposition(G, device="cpu")).max())
    for k in [2, 3, 4, 5, 7, kmax, kmax + 1, kmax + 5]:
        H = k_truss(G, k, device="cpu")
        assert H.num_vertices == G.num_vertices
        assert _arcs(H) == _nx_truss_arcs(s0, d0, k), k
    assert k_truss(G, kmax + 1, device="cpu").num_edges == 0


def test_cpu_k_truss_keeps_weights():
    G = wg.Graph.from_edges(
        [0, 0, 1, 2, 3, 3], [1, 2, 2, 3, 0, 1], [5, 6, 7, 8, 9, 10], directed=False
    )
    H = k_truss(G, 4, device="cpu")  # the six edges of K4
    src, dst, w = H.edges()
    want = {(int(u), int(v), float(x)) for u, v, x in zip(*G.edges(), strict=True)}
    assert {(int(u), int(v), float(x)) for u, v, x in zip(src, dst, w, strict=True)} <= want
    assert H.num_edges == G.num_edges  # K4: every edge in its 4-truss


def test_support_kernel_shared_counters_agree():
    """The support kernel gives the same counts with per-worker counter rows and with one
    shared row updated atomically (the path for graphs too large for private rows)."""
    from warpgraph.algorithms.ktruss import fixed_k as cpu

    s, d = wg.generators.kronecker_edges(10, 16, seed=8, device="cpu")
    G = wg.Graph.from_edges(s, d, directed=False).remove_self_loops()
    ptr, idx = G.indptr, G.indices
    n, m = ptr.shape[0] - 1, idx.shape[0]
    order, rank = np.empty(n, idx.dtype), np.empty(n, idx.dtype)
    cpu._degree_order(np.diff(ptr), order, rank)
    optr, no = np.zeros(n + 1, np.int64), np.empty(0, np.int64)
    cpu._up_rows(ptr, idx, rank, False, optr, idx[:0], no, no)
    np.cumsum(optr, out=optr)
    mo = int(optr[-1])
    oidx, opos, eid = np.empty(mo, idx.dtype), np.empty(mo, np.int64), np.empty(m, np.int64)
    cpu._up_rows(ptr, idx, rank, True, optr, oidx, opos, eid)
    bounds = np.linspace(0, n, 9).astype(np.int64)
    sups = []
    for rows in (2, 1):
        c, c2 = np.zeros(mo, np.int32), np.zeros((rows, mo), np.int32)
        cpu._support(optr, oidx, bounds, np.zeros((2, n), np.int32), c, c2)
        sup = np.zeros(m, np.int32)
        cpu._scatter_support(c, c2, opos, sup)
        sups.append(sup[eid])
    assert (sups[0] == sups[1]).all()
    # against a recount: common neighbours of the two ends of every arc
    nbrs = [set(idx[ptr[u] : ptr[u + 1]].tolist()) for u in range(n)]
    rows_ = np.repeat(np.arange(n), np.diff(ptr))
    want = [len(nbrs[u] & nbrs[v]) for u, v in zip(rows_.tolist(), idx.tolist(), strict=True)]
    assert sups[0].tolist() == want
