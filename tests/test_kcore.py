"""core_number and k_core against NetworkX, a by-definition reference and the verifier, on both
backends (the GPU runs skip without a GPU)."""

from __future__ import annotations

import networkx as nx
import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

import warpgraph as wg
from warpgraph.algorithms.kcore import core_number, k_core
from warpgraph.algorithms.kcore.reference import core_numbers_reference
from warpgraph.algorithms.kcore.verify import hindex_core_numbers, verify_core_numbers
from warpgraph.errors import InvalidArgumentError, VerificationError

DEVICES = ["cpu", pytest.param("gpu", marks=pytest.mark.gpu)]


@st.composite
def edge_lists(draw, max_n: int = 14, max_m: int = 60):
    """(n, src, dst, directed): self-loops and repeated edges included on purpose."""
    n = draw(st.integers(0, max_n))
    directed = draw(st.booleans())
    if n == 0:
        return 0, np.zeros(0, np.int64), np.zeros(0, np.int64), directed
    m = draw(st.integers(0, max_m))
    ids = st.lists(st.integers(0, n - 1), min_size=m, max_size=m)
    return n, np.array(draw(ids), np.int64), np.array(draw(ids), np.int64), directed


def nx_graph(n, src, dst, directed):
    H = nx.DiGraph() if directed else nx.Graph()
    H.add_nodes_from(range(n))
    H.add_edges_from((u, v) for u, v in zip(src.tolist(), dst.tolist(), strict=True) if u != v)
    return H


def host(x):
    return x.get() if hasattr(x, "get") else np.asarray(x)


@pytest.mark.parametrize("device", DEVICES)
@given(case=edge_lists())
def test_matches_networkx(device, case):
    n, src, dst, directed = case
    G = wg.Graph.from_edges(src, dst, num_vertices=n, directed=directed)
    H = nx_graph(n, src, dst, directed)
    ref = nx.core_number(H)
    core = host(core_number(G, device=device))
    assert core.tolist() == [ref[v] for v in range(n)]
    assert core.tolist() == core_numbers_reference(n, src, dst, directed).tolist()
    k = int(core.max()) if n else 0
    C = k_core(G, k, device=device)
    got = {(int(u), int(v)) for u, v in zip(*map(host, C.edges()[:2]), strict=True) if u != v}
    want = set(nx.k_core(H, k).edges())
    if not directed:
        want = {(min(u, v), max(u, v)) for u, v in want}
    assert got == want


@pytest.mark.parametrize("device", DEVICES)
def test_skewed_graph_verified(device):
    s, d = wg.generators.kronecker_edges(11, 8, seed=2, device="cpu")
    for directed in (False, True):
        G = wg.Graph.from_edges(s, d, directed=directed)
        core = core_number(G, device=device)
        verify_core_numbers(G, core)
        np.testing.assert_array_equal(host(core), hindex_core_numbers(G))


@pytest.mark.parametrize("device", DEVICES)
@pytest.mark.parametrize("shape", ["path", "grid", "grid+tail"])
def test_levels_peeled_over_many_rounds(device, shape):
    """Peeled from the ends inwards: hundreds of dependent removals in one level (on the GPU, a
    chain of kept continuations and queue hand-offs within one launch)."""
    if shape == "path":
        H = nx.path_graph(1500)  # core 1, 750 rounds
    else:
        H = nx.convert_node_labels_to_integers(nx.grid_2d_graph(70, 90))  # core 2, ~45 rounds
        if shape == "grid+tail":  # a level of a few rounds before the long one
            H.add_edges_from(
                nx.path_graph(range(H.number_of_nodes() - 1, H.number_of_nodes() + 40)).edges()
            )
    src, dst = map(np.asarray, zip(*H.edges(), strict=True))
    G = wg.Graph.from_edges(src, dst, num_vertices=H.number_of_nodes(), directed=False)
    core = host(core_number(G, device=device))
    ref = nx.core_number(H)
    assert core.tolist() == [ref[v] for v in range(H.number_of_nodes())]
    verify_core_numbers(G, core)


@pytest.mark.gpu
def test_gpu_peel_levels_chains_and_hubs():
    """The persistent GPU peel on graphs with many levels, long chains of dependent removals,
    hubs with rows longer than a warp, and isolated vertices, in int32 and int64 ids."""
    H = nx.convert_node_labels_to_integers(nx.grid_2d_graph(120, 150))
    H = nx.disjoint_union(H, nx.complete_graph(70))  # 70 levels apart from the grid's
    H = nx.disjoint_union(H, nx.star_graph(500))  # a row of 500
    H = nx.disjoint_union(H, nx.path_graph(900))
    H.add_nodes_from(range(H.number_of_nodes(), H.number_of_nodes() + 5))
    src, dst = map(np.asarray, zip(*H.edges(), strict=True))
    ref = nx.core_number(H)
    want = [ref[v] for v in range(H.number_of_nodes())]
    for dtype in (np.int32, np.int64):
        G = wg.Graph.from_edges(
            src.astype(dtype), dst.astype(dtype), num_vertices=H.number_of_nodes(), directed=False
        )
        assert host(core_number(G, device="gpu")).tolist() == want
    s, d = wg.generators.kronecker_edges(13, 16, seed=4, device="cpu")
    for directed in (False, True):
        G = wg.Graph.from_edges(s, d, directed=directed)
        np.testing.assert_array_equal(
            host(core_number(G, device="gpu")), core_number(G, device="cpu")
        )


def test_known_graphs():
    G = wg.Graph.from_networkx(nx.complete_graph(5))
    assert core_number(G, device="cpu").tolist() == [4] * 5
    P = wg.Graph.from_networkx(nx.path_graph(4))
    assert core_number(P, device="cpu").tolist() == [1, 1, 1, 1]
    iso = wg.Graph.from_edges([0], [0], num_vertices=3, directed=False)  # a loop, 2 isolated
    assert core_number(iso, device="cpu").tolist() == [0, 0, 0]


def test_k_core_keeps_ids_and_arcs():
    G = wg.Graph.from_edges([0, 0, 1, 2, 2], [1, 2, 2, 3, 2], directed=False)  # loop at 2
    H = k_core(G, 2, device="cpu")
    assert H.num_vertices == 4
    assert H.degree().tolist() == [2, 2, 3, 0]  # the loop stays, vertex 3 is isolated
    assert k_core(G, device="cpu").num_edges == H.num_edges  # default k: the main core
    assert k_core(G, 0, device="cpu").num_edges == G.num_edges


def test_bad_input():
    G = wg.Graph.from_networkx(nx.path_graph(3))
    with pytest.raises(InvalidArgumentError, match="non-negative integer"):
        k_core(G, -1, device="cpu")
    with pytest.raises(InvalidArgumentError, match="shape"):
        k_core(G, 1, core_number=[1, 1], device="cpu")
    with pytest.raises(InvalidArgumentError, match=r"warpgraph\.Graph"):
        core_number(nx.path_graph(3), device="cpu")


def test_verifier_catches_errors():
    G = wg.Graph.from_networkx(nx.complete_graph(3))
    with pytest.raises(VerificationError, match="rule 1"):
        verify_core_numbers(G, np.array([3, 2, 2]))
    T = wg.Graph.from_edges([0, 0, 1, 0], [1, 2, 2, 3], directed=False)  # pendant vertex 3
    with pytest.raises(VerificationError, match="rule 2"):
        verify_core_numbers(T, np.array([2, 2, 2, 0]))
    with pytest.raises(VerificationError, match="rule 3"):
        verify_core_numbers(G, np.zeros(3, dtype=np.int64))


def _cpu_cores(G, parallel: bool):
    from warpgraph.algorithms.kcore import cpu

    if G.directed:
        rip, rix, _ = G.reverse_csr()
        return cpu.core_numbers(G.indptr, G.indices, rip, rix, parallel=parallel)
    return cpu.core_numbers(G.indptr, G.indices, parallel=parallel)


@pytest.mark.parametrize("budget", [1, 3, 4096])
@given(case=edge_lists(max_n=40, max_m=160))
def test_parallel_cpu_peel_matches_networkx(budget, case):
    """The parallel peel forced on small graphs (self-loops, repeated and one-way arcs), with
    a budget of 1 or 3 vertices per thread and round so that queues are handed on."""
    from warpgraph.algorithms.kcore import cpu

    n, src, dst, directed = case
    G = wg.Graph.from_edges(src, dst, num_vertices=n, directed=directed)
    ref = nx.core_number(nx_graph(n, src, dst, directed))
    saved = cpu.PEEL_BUDGET
    cpu.PEEL_BUDGET = budget
    try:
        assert _cpu_cores(G, True).tolist() == [ref[v] for v in range(n)]
    finally:
        cpu.PEEL_BUDGET = saved


@pytest.mark.parametrize("budget", [1, 50, 4096])
def test_parallel_cpu_peel_on_chains_hubs_and_levels(budget, monkeypatch):
    """A lattice (one level peeled as a wave from its corners), 70 levels of a clique, a star,
    a long path and isolated vertices: equal to NetworkX and to the sequential peel."""
    from warpgraph.algorithms.kcore import cpu

    monkeypatch.setattr(cpu, "PEEL_BUDGET", budget)
    H = nx.convert_node_labels_to_integers(nx.grid_2d_graph(60, 80))
    H = nx.disjoint_union(H, nx.complete_graph(70))
    H = nx.disjoint_union(H, nx.star_graph(500))
    H = nx.disjoint_union(H, nx.path_graph(900))
    H.add_nodes_from(range(H.number_of_nodes(), H.number_of_nodes() + 5))
    src, dst = map(np.asarray, zip(*H.edges(), strict=True))
    ref = nx.core_number(H)
    for directed in (False, True):
        G = wg.Graph.from_edges(src, dst, num_vertices=H.number_of_nodes(), directed=directed)
        got = _cpu_cores(G, True)
        np.testing.assert_array_equal(got, _cpu_cores(G, False))
        if not directed:
            assert got.tolist() == [ref[v] for v in range(H.number_of_nodes())]
        verify_core_numbers(G, got)


@pytest.mark.parametrize("min_threads", [1, 10**6])
def test_parallel_cpu_peel_is_the_default_for_big_graphs(min_threads, monkeypatch):
    """Chosen by vertex count and thread count (the threshold moved to both sides of this
    machine's count); both paths give the verified core numbers."""
    from warpgraph.algorithms.kcore import cpu

    calls = []
    real = cpu._peel_parallel
    monkeypatch.setattr(cpu, "_peel_parallel", lambda *a: calls.append(1) or real(*a))
    monkeypatch.setattr(cpu, "PARALLEL_MIN_THREADS", min_threads)
    s, d = wg.generators.kronecker_edges(15, 4, seed=3, device="cpu")
    G = wg.Graph.from_edges(s, d, directed=False)
    core = core_number(G, device="cpu")
    assert calls == ([1] if min_threads == 1 else [])
    verify_core_numbers(G, core)
    np.testing.assert_array_equal(core, _cpu_cores(G, False))
    small = wg.Graph.from_edges([0, 1], [1, 2], directed=False)
    assert core_number(small, device="cpu").tolist() == [1, 1, 1]
    assert len(calls) == (1 if min_threads == 1 else 0)  # small graphs: the bucket peel
