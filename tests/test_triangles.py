"""Triangles, triangle_count, transitivity and clustering against NetworkX, a dense reference and
a SciPy recount, on both backends (the GPU runs skip without a GPU)."""

from __future__ import annotations

import networkx as nx
import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

import warpgraph as wg
from warpgraph.algorithms.triangles import clustering, transitivity, triangle_count, triangles
from warpgraph.algorithms.triangles.reference import (
    clustering_reference,
    directed_clustering_reference,
    directed_transitivity_reference,
    triangles_reference,
)
from warpgraph.algorithms.triangles.verify import verify_directed_clustering, verify_triangles
from warpgraph.errors import InvalidArgumentError, VerificationError

DEVICES = ["cpu", pytest.param("gpu", marks=pytest.mark.gpu)]


@st.composite
def edge_lists(draw, max_n: int = 14, max_m: int = 70):
    """(n, src, dst): self-loops and repeated edges included on purpose."""
    n = draw(st.integers(0, max_n))
    if n == 0:
        return 0, np.zeros(0, np.int64), np.zeros(0, np.int64)
    m = draw(st.integers(0, max_m))
    ids = st.lists(st.integers(0, n - 1), min_size=m, max_size=m)
    return n, np.array(draw(ids), dtype=np.int64), np.array(draw(ids), dtype=np.int64)


def build(n, src, dst, directed=False):
    return wg.Graph.from_edges(src, dst, num_vertices=n, directed=directed)


def nx_graph(n, src, dst):
    H = nx.Graph()
    H.add_nodes_from(range(n))
    H.add_edges_from(zip(src.tolist(), dst.tolist(), strict=True))
    return H


def host(x):
    return x.get() if hasattr(x, "get") else np.asarray(x)


@pytest.mark.parametrize("device", DEVICES)
@given(case=edge_lists())
def test_matches_networkx(device, case):
    n, src, dst = case
    G, H = build(n, src, dst), nx_graph(n, src, dst)
    ref = nx.triangles(H)
    assert host(triangles(G, device=device)).tolist() == [ref[v] for v in range(n)]
    assert triangle_count(G, device=device) == sum(ref.values()) // 3
    cl = nx.clustering(H)
    np.testing.assert_allclose(host(clustering(G, device=device)), [cl[v] for v in range(n)])
    assert transitivity(G, device=device) == pytest.approx(nx.transitivity(H))


@pytest.mark.parametrize("device", DEVICES)
@pytest.mark.parametrize("seed", [0, 1])
def test_dense_reference_and_recount(device, seed):
    rng = np.random.default_rng(seed)
    n = 150
    src, dst = rng.integers(0, n, 3000), rng.integers(0, n, 3000)
    G = build(n, src, dst)
    t = triangles(G, device=device)
    np.testing.assert_array_equal(host(t), triangles_reference(n, src, dst))
    verify_triangles(G, t)
    np.testing.assert_allclose(
        host(clustering(G, device=device)), clustering_reference(n, src, dst)
    )


@pytest.mark.parametrize("device", DEVICES)
def test_skewed_graph(device):
    """A Kronecker graph (hubs, many triangles) against the SciPy recount."""
    s, d = wg.generators.kronecker_edges(10, 16, seed=3, device="cpu")
    G = wg.Graph.from_edges(s, d, directed=False)
    t = triangles(G, device=device)
    verify_triangles(G, t)
    assert triangle_count(G, device=device) == int(host(t).sum()) // 3


def test_known_graphs():
    K5 = wg.Graph.from_networkx(nx.complete_graph(5))
    assert triangles(K5, device="cpu").tolist() == [6] * 5
    assert triangle_count(K5, device="cpu") == 10
    assert transitivity(K5, device="cpu") == 1.0
    star = wg.Graph.from_networkx(nx.star_graph(6))
    assert triangle_count(star, device="cpu") == 0
    assert transitivity(star, device="cpu") == 0.0
    assert clustering(star, device="cpu").tolist() == [0.0] * 7


def test_selection():
    G = wg.Graph.from_networkx(nx.complete_graph(4))
    assert triangles(G, 2, device="cpu") == 3
    assert triangles(G, [0, 3], device="cpu").tolist() == [3, 3]
    assert clustering(G, 1, device="cpu") == 1.0
    with pytest.raises(InvalidArgumentError, match="not in the graph"):
        triangles(G, 4, device="cpu")
    with pytest.raises(InvalidArgumentError, match="outside"):
        triangles(G, [0, 9], device="cpu")


def nx_digraph(n, src, dst):
    H = nx.DiGraph()
    H.add_nodes_from(range(n))
    H.add_edges_from(zip(src.tolist(), dst.tolist(), strict=True))
    return H


@pytest.mark.parametrize("device", DEVICES)
@given(case=edge_lists())
def test_directed_clustering_and_transitivity_match_networkx(device, case):
    """A directed graph's clustering (Fagiolo's) and transitivity (successor sets) equal
    NetworkX's exactly (the same integer quotients) and the dense matrix references."""
    n, src, dst = case
    D, H = build(n, src, dst, directed=True), nx_digraph(n, src, dst)
    got = host(clustering(D, device=device)).tolist()
    want = nx.clustering(H)
    assert got == [want[v] for v in range(n)]
    np.testing.assert_allclose(got, directed_clustering_reference(n, src, dst), rtol=1e-15)
    assert transitivity(D, device=device) == nx.transitivity(H)
    assert transitivity(D, device=device) == directed_transitivity_reference(n, src, dst)


@pytest.mark.parametrize("device", DEVICES)
@pytest.mark.parametrize("seed", [0, 1])
def test_directed_clustering_dense_reference(seed, device):
    """Larger random digraphs (mutual arcs, loops, repeats) against the dense references."""
    rng = np.random.default_rng(seed)
    n = 150
    src, dst = rng.integers(0, n, 3000), rng.integers(0, n, 3000)
    src, dst = np.r_[src, dst[:800]], np.r_[dst, src[:800]]  # (800 mutual pairs)
    D = build(n, src, dst, directed=True)
    c = host(clustering(D, device=device))
    np.testing.assert_allclose(c, directed_clustering_reference(n, src, dst), rtol=1e-15)
    verify_directed_clustering(D, c)
    wrong = c.copy()
    wrong[7] = wrong[7] / 2 if wrong[7] else 0.5
    with pytest.raises(VerificationError, match="vertex 7"):
        verify_directed_clustering(D, wrong)
    with pytest.raises(VerificationError, match="rule 1"):
        verify_directed_clustering(D, c[:-1])
    want = directed_transitivity_reference(n, src, dst)
    assert transitivity(D, device=device) == pytest.approx(want, rel=1e-15)


def test_directed_known_graphs():
    """A 3-cycle with one mutual dyad; a transitive triple; a mutual triangle (every dyad
    both ways: Fagiolo's clustering and the transitivity are 1)."""
    D = wg.Graph.from_edges([0, 1, 2, 1], [1, 2, 0, 0], directed=True)
    assert clustering(D, device="cpu").tolist() == [0.5, 0.5, 1.0]
    assert clustering(D, 2, device="cpu") == 1.0
    T = wg.Graph.from_edges([0, 0, 1], [1, 2, 2], directed=True)
    assert transitivity(T, device="cpu") == 0.5
    K = wg.Graph.from_networkx(nx.complete_graph(3, create_using=nx.DiGraph))
    assert clustering(K, device="cpu").tolist() == [1.0] * 3
    assert transitivity(K, device="cpu") == 1.0
    P = wg.Graph.from_edges([0, 1], [1, 2], directed=True)
    assert transitivity(P, device="cpu") == 0.0
    assert clustering(P, device="cpu").tolist() == [0.0] * 3


def test_bad_input():
    D = wg.Graph.from_edges([0, 1], [1, 2], directed=True)
    for f in (triangles, triangle_count):
        with pytest.raises(InvalidArgumentError, match="undirected"):
            f(D, device="cpu")
    with pytest.raises(InvalidArgumentError, match="weighted clustering"):
        clustering(D, weight="weight", device="cpu")
    with pytest.raises(InvalidArgumentError, match="not in the graph"):  # (directed too)
        clustering(D, 3, device="cpu")
    with pytest.raises(InvalidArgumentError, match="outside"):
        clustering(D, [0, 7], device="cpu")
    with pytest.raises(InvalidArgumentError, match="integer vertex ids"):
        clustering(D, [0.5], device="cpu")
    for f in (clustering, transitivity):
        with pytest.raises(InvalidArgumentError, match=r"warpgraph\.Graph"):
            f(nx.DiGraph([(0, 1)]), device="cpu")
    with pytest.raises(InvalidArgumentError, match=r"warpgraph\.Graph"):
        triangles(nx.Graph(), device="cpu")
    G = D.to_undirected()
    with pytest.raises(InvalidArgumentError, match="weighted clustering"):
        clustering(G, weight="weight", device="cpu")


def test_verifier_catches_errors():
    G = wg.Graph.from_networkx(nx.complete_graph(4))
    with pytest.raises(VerificationError, match="rule 3"):
        verify_triangles(G, np.array([3, 3, 3, 0]))
    with pytest.raises(VerificationError, match="rule 2"):
        verify_triangles(G, np.array([3, 3, 3, 4]))


@pytest.mark.gpu
@pytest.mark.parametrize("group", [1, 4, 8, 32])
def test_gpu_group_sizes(group):
    from warpgraph.algorithms.triangles import gpu

    s, d = wg.generators.kronecker_edges(9, 16, seed=5, device="cpu")
    G = wg.Graph.from_edges(s, d, directed=False)
    want = triangle_count(G, device="cpu")
    assert gpu.triangle_count(G.to("gpu"), group=group) == want


def _complete(n):
    s, d = np.nonzero(~np.eye(n, dtype=bool))
    return wg.Graph.from_edges(s, d, num_vertices=n, directed=False)


@pytest.mark.gpu
@pytest.mark.parametrize("case", ["random", "complete", "kronecker"])
def test_gpu_linear_orientation_matches_cpu(case):
    """The linear-pass orientation (tc_prep.cu) equals the CPU's and the key-sort one, array
    for array: rows of every sorting class (one warp up to 512 entries, a block beyond)."""
    from warpgraph.algorithms.triangles import gpu, prep

    if case == "random":  # loops, repeated edges, isolated vertices
        rng = np.random.default_rng(7)
        n = 3000
        s, d = rng.integers(0, n - 100, 40_000), rng.integers(0, n - 100, 40_000)
        s[:500] = d[:500]
        G = wg.Graph.from_edges(s, d, num_vertices=n, directed=False)
    elif case == "complete":  # oriented rows of 0 .. 699 entries
        G = _complete(700)
    else:
        s, d = wg.generators.kronecker_edges(12, 16, seed=2, device="cpu")
        G = wg.Graph.from_edges(s, d, directed=False)
    want = prep.orient(G.indptr, G.indices)
    Gg = G.to("gpu")
    fast = gpu.orient_fast(Gg)
    assert fast is not None
    slow = gpu.orient_sorted(Gg)
    for field in ("indptr", "indices", "src", "rank", "degree"):
        np.testing.assert_array_equal(host(getattr(fast, field)), getattr(want, field), field)
        np.testing.assert_array_equal(host(getattr(slow, field)), getattr(want, field), field)
    assert gpu.run_arcs(fast, gpu.COUNT) == triangle_count(G, device="cpu")


@pytest.mark.gpu
def test_gpu_orientation_fallback():
    """Rows longer than the cap send the graph to the key-sort orientation."""
    from warpgraph.algorithms.triangles import gpu

    G = _complete(300).to("gpu")
    assert gpu.orient_fast(G, cap=100) is None
    assert gpu.orient_fast(G, cap=299) is not None
    assert triangle_count(G, device="gpu") == 300 * 299 * 298 // 6
    empty = wg.Graph.from_edges([], [], num_vertices=5, directed=False).to("gpu")
    assert gpu.orient_fast(empty) is None
    assert triangle_count(empty, device="gpu") == 0


def _unsorted_rows(G):
    """``G`` with every row shuffled: the NetworkX layer's rows in dict order (where no row
    repeats a neighbour)."""
    rng = np.random.default_rng(5)
    indptr, indices = np.asarray(G.indptr), np.asarray(G.indices).copy()
    for u in range(G.num_vertices):
        rng.shuffle(indices[indptr[u] : indptr[u + 1]])
    return wg.Graph(indptr, indices, None, directed=G.directed, validate=False)


def _simple_with_loops():
    H = nx.gnm_random_graph(400, 5000, seed=4)
    H.add_edges_from((v, v) for v in range(0, 400, 7))  # self-loops: dropped either way
    s, d = (np.array(x) for x in zip(*H.edges(), strict=True))
    return wg.Graph.from_edges(s, d, num_vertices=400, directed=False)


@pytest.mark.parametrize("device", DEVICES)
def test_rows_in_any_order_without_repeats(device):
    """Unsorted rows that never repeat a neighbour (as the NetworkX layer hands over) give the
    sorted graph's orientation and results."""
    from warpgraph.algorithms.triangles import prep

    G = _simple_with_loops()
    U = _unsorted_rows(G)
    assert not np.array_equal(np.asarray(U.indices), np.asarray(G.indices))
    want, got = prep.orient(G.indptr, G.indices), prep.orient(U.indptr, U.indices)
    for field in ("indptr", "indices", "src", "rank", "degree"):
        np.testing.assert_array_equal(getattr(got, field), getattr(want, field), field)
    for f in (triangles, clustering):
        np.testing.assert_array_equal(host(f(U, device=device)), host(f(G, device="cpu")))
    assert transitivity(U, device=device) == transitivity(G, device="cpu")


@pytest.mark.gpu
def test_gpu_orientations_of_rows_in_any_order():
    from warpgraph.algorithms.triangles import gpu, prep

    G = _simple_with_loops()
    want = prep.orient(G.indptr, G.indices)
    Ug = _unsorted_rows(G).to("gpu")
    for o in (gpu.orient_fast(Ug), gpu.orient_sorted(Ug)):
        for field in ("indptr", "indices", "src", "rank", "degree"):
            np.testing.assert_array_equal(host(getattr(o, field)), getattr(want, field), field)


@pytest.mark.gpu
def test_gpu_directed_rows_in_any_order_and_selection():
    """The GPU's directed clustering and transitivity take rows in any order (repeats too:
    its key sort merges them) and equal the CPU's on the sorted graph, value for value;
    a selection of nodes comes back from the device."""
    rng = np.random.default_rng(11)
    n = 3000
    src, dst = rng.integers(0, n, 40000), rng.integers(0, n, 40000)
    src, dst = np.r_[src, dst[:9000], src[:500]], np.r_[dst, src[:9000], dst[:500]]
    D = build(n, src, dst, directed=True)  # (parallel arcs kept)
    U = _unsorted_rows(D)
    assert not np.array_equal(np.asarray(U.indices), np.asarray(D.indices))
    want = clustering(D, device="cpu")
    for G in (D, U):
        np.testing.assert_array_equal(host(clustering(G, device="gpu")), want)
        assert transitivity(G, device="gpu") == transitivity(D, device="cpu")
    got = clustering(U, [5, 7, 5], device="gpu")
    np.testing.assert_array_equal(host(got), want[[5, 7, 5]])
    assert clustering(U, 9, device="gpu") == want[9]
    empty = wg.Graph.from_edges([], [], num_vertices=4, directed=True)
    assert host(clustering(empty, device="gpu")).tolist() == [0.0] * 4
    assert transitivity(empty, device="gpu") == 0.0


@pytest.mark.gpu
def test_gpu_census_adjacency_too_large_for_the_device(monkeypatch):
    """A census adjacency that cannot fit raises OutOfDeviceMemory naming it (the directed
    clustering and the triad census build one), before any allocation."""
    from gpu_memory import no_free_device_memory  # (tests/gpu_memory.py)
    from warpgraph.errors import OutOfDeviceMemory

    D = wg.Graph.from_edges([0, 1, 2], [1, 2, 0], directed=True).to("gpu")
    no_free_device_memory(monkeypatch)
    with pytest.raises(OutOfDeviceMemory, match="census adjacency of 3 arcs"):
        clustering(D, device="gpu")


def test_directed_gpu_functions_reject_other_graphs():
    """The GPU module's functions take a directed graph on the GPU only (checked before any
    CuPy call, so this runs without a GPU)."""
    from warpgraph.algorithms.triangles.directed_gpu import (
        directed_clustering_gpu,
        directed_transitivity_gpu,
    )

    D = wg.Graph.from_edges([0, 1], [1, 2], directed=True)
    for f in (directed_clustering_gpu, directed_transitivity_gpu):
        with pytest.raises(InvalidArgumentError, match=r"directed graph on the GPU.*on the CPU"):
            f(D)
        with pytest.raises(InvalidArgumentError, match="got an undirected one"):
            f(D.to_undirected())
        with pytest.raises(InvalidArgumentError, match=r"warpgraph\.Graph"):
            f(nx.DiGraph([(0, 1)]))
