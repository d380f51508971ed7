"""Global efficiency and the harmonic diameter (``warpgraph.algorithms.bfs.efficiency``) against
an independent oracle:
SciPy's breadth-first distances summed by a plain Python loop in NetworkX's order (sources in
id order, targets nearest first), so equal bit for bit; ``add_repeated`` against the loop it
replaces, on sums where ties and binade crossings happen."""

from __future__ import annotations

import numpy as np
import pytest
import scipy.sparse as sps
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy.sparse.csgraph import shortest_path

import warpgraph as wg
from warpgraph.algorithms.bfs.efficiency import (
    add_repeated,
    add_repeated_in_binade,
    binade_top,
    efficiency_sum,
    global_efficiency,
    harmonic_diameter,
    neighbourhood_efficiencies,
)
from warpgraph.errors import InvalidArgumentError


def oracle_sum(n, src, dst, directed):
    A = sps.coo_array((np.ones(len(src)), (src, dst)), shape=(n, n)).tocsr()
    D = shortest_path(A, directed=directed, unweighted=True)
    total = 0.0
    for s in range(n):
        for d in sorted(int(x) for x in D[s] if 0 < x < np.inf):
            total += 1 / d
    return total


def sequential(x, c, k):
    for _ in range(k):
        x += c
    return x


@settings(max_examples=300, deadline=None)
@given(
    st.sampled_from([0.0, 0.3, 7.0, 1023.9, 2.0**20 - 0.5, 2.0**33 - 1 / 64, 1e12 + 0.1]),
    st.integers(1, 5000),
    st.integers(1, 3000),
)
def test_add_repeated_is_the_sequential_loop(x, level, times):
    assert add_repeated(x, 1 / level, times) == sequential(x, 1 / level, times)


def test_add_repeated_across_many_binades():
    """From 0 to ~2**17 with a term whose ulp ties happen (1/3 and powers of two)."""
    for c, k in ((1 / 3, 400_000), (1 / 64, 300_000), (1.0, 200_000), (1 / 1414, 500_000)):
        assert add_repeated(0.0, c, k) == sequential(0.0, c, k)


def chained(runs):
    """The runs ``(c, k)`` added one after another from 0 by ``add_repeated_in_binade``, the
    binade carried from run to run, as ``_add_wave`` adds them."""
    x, top = 0.0, 0.0
    for c, k in runs:
        x, top = add_repeated_in_binade(x, c, k, top)
        assert top == binade_top(x)
    return x


@settings(max_examples=300, deadline=None)
@given(
    st.lists(
        st.tuples(
            st.one_of(
                st.integers(1, 3000).map(lambda level: 1 / level),
                st.integers(0, 40).map(lambda i: 2.0**-i),  # (powers of two: exact ties)
                st.integers(1, 2**20).map(lambda m: m * 2.0**-30),  # (short mantissas)
            ),
            st.integers(0, 5000),
        ),
        max_size=40,
    ),
    st.sampled_from([0.0, 1.0, 3.0, 2.0**20 - 1, 2.0**30 + 0.5, 1e12 + 0.1]),
)
def test_runs_within_a_binade_are_the_sequential_loop(runs, start):
    """The one-multiplication path of ``add_repeated_in_binade`` (and its fall back to
    ``add_repeated`` at ties, crossings and zero) gives the loop's bits, run after run."""
    want = start
    for c, k in runs:
        want = sequential(want, c, k)
    got, top = start, binade_top(start)
    for c, k in runs:
        got, top = add_repeated_in_binade(got, c, k, top)
    assert got == want
    assert chained(runs) == sequential_runs(runs)


def sequential_runs(runs):
    x = 0.0
    for c, k in runs:
        x = sequential(x, c, k)
    return x


def test_runs_refuse_bad_input_and_mend_a_wrong_top():
    """Bad terms are refused as add_repeated refuses them (ValueError), never added on the
    one-multiplication path; a ``top`` that is not the sum's binade still gives the loop's
    bits and the right binade back."""
    for x, c, k in ((-1.0, 0.5, 3), (4.0, -0.5, 3), (4.0, 0.0, 3), (float("nan"), 1.0, 2),
                    (4.0, 0.5, -1), (-0.5, 0.25, 2)):  # fmt: skip
        with pytest.raises(ValueError, match="add_repeated needs"):
            add_repeated_in_binade(x, c, k, binade_top(abs(x)) if x == x else 0.0)
    for top in (0.0, 4.0, 64.0, 1024.0):  # (8.0's binade top is 16.0)
        assert add_repeated_in_binade(8.0, 0.1, 500, top) == (sequential(8.0, 0.1, 500), 64.0)


def test_ties_in_the_binade_fall_back():
    """A term of exactly half the binade's ulp plus a multiple of it (a tie) at an odd and an
    even multiple of the ulp: rounding to even makes the first addition differ from the next
    ones; the result is still the loop's."""
    u = 2.0**-32  # (the ulp of [2**20, 2**21))
    for x in (2.0**20 + u, 2.0**20 + 2 * u):
        for c in (u / 2, 3 * u / 2, 5 * u / 2, 1 + u / 2):
            got, _ = add_repeated_in_binade(x, c, 1000, binade_top(x))
            assert got == sequential(x, c, 1000)


@st.composite
def graphs(draw, max_n: int = 45, max_m: int = 120):
    n = draw(st.integers(1, max_n))
    m = draw(st.integers(0, max_m))
    src = draw(st.lists(st.integers(0, n - 1), min_size=m, max_size=m))
    dst = draw(st.lists(st.integers(0, n - 1), min_size=m, max_size=m))
    return n, src, dst, draw(st.booleans())


def _check_ordered_sum(case, device):
    n, src, dst, directed = case
    G = wg.Graph.from_edges(src, dst, num_vertices=n, directed=directed)
    want = oracle_sum(n, src, dst, directed)
    got = efficiency_sum(G, device=device)
    assert got == want and type(got) is float
    assert global_efficiency(G, device=device) == (want / (n * (n - 1)) if n > 1 else 0.0)
    diameter = harmonic_diameter(G, device=device)
    if n < 2:
        assert np.isnan(diameter)
    else:
        assert diameter == (n * (n - 1) / want if want else np.inf)


@settings(max_examples=60, deadline=None)
@given(graphs())
def test_equals_the_ordered_sum(case):
    _check_ordered_sum(case, "cpu")


@pytest.mark.gpu
@settings(max_examples=60, deadline=None)
@given(graphs())
def test_gpu_equals_the_ordered_sum(case):
    """The searches on the GPU (their per-level counts), the sum on the host: the same bits."""
    _check_ordered_sum(case, "gpu")


@pytest.mark.parametrize("shape", [(1, 300), (40, 70)])
def test_lattices_deeper_than_the_first_room(shape, device):
    """A path of 300 and a 40 x 70 lattice: searches deeper than 64 levels rerun their wave
    (their batch on the GPU)."""
    G = wg.generators.grid_2d(*shape, device="cpu")
    src = np.repeat(np.arange(G.num_vertices), np.diff(G.indptr))
    want = oracle_sum(G.num_vertices, src, G.indices, False)
    assert efficiency_sum(G, device=device) == want


@pytest.mark.gpu
@pytest.mark.parametrize("persistent_words", [0, 1 << 22])
def test_gpu_batches_of_one_group(monkeypatch, persistent_words):
    """Memory for one group of 64 searches at a time and room for 2 levels at first: many
    batches, each added after the one before while the next searches, the room doubled and
    the batch run again several times; the searches launched level by level or persistent.
    The same bits as the CPU's, directed and undirected, and on a graph already on the GPU."""
    from warpgraph.algorithms.bfs import efficiency, efficiency_gpu, multi_source

    monkeypatch.setattr(multi_source, "PERSISTENT_WORDS", persistent_words)
    monkeypatch.setattr(efficiency_gpu, "GPU_BATCH_BYTES", 1)
    monkeypatch.setattr(efficiency, "FIRST_LEVELS", 2)
    rng = np.random.default_rng(7)
    n, m = 300, 700
    src, dst = rng.integers(0, n, m), rng.integers(0, n, m)
    graphs = [wg.Graph.from_edges(src, dst, num_vertices=n, directed=d) for d in (False, True)]
    graphs.append(wg.generators.grid_2d(9, 30, device="cpu"))
    for G in graphs:
        want = efficiency_sum(G, device="cpu")
        assert efficiency_sum(G, device="gpu") == want
        assert efficiency_sum(G.to("gpu"), device="gpu") == want


@pytest.mark.gpu
def test_gpu_out_of_memory_is_clear(monkeypatch):
    """One group that does not fit the free device memory: OutOfDeviceMemory naming it."""
    from gpu_memory import no_free_device_memory  # (tests/gpu_memory.py)
    from warpgraph.errors import OutOfDeviceMemory

    G = wg.Graph.from_edges([0, 1], [1, 2], num_vertices=3).to("gpu")
    no_free_device_memory(monkeypatch)
    with pytest.raises(OutOfDeviceMemory, match="global efficiency's searches"):
        global_efficiency(G, device="gpu")


def test_matches_networkx(device):
    nx = pytest.importorskip("networkx")
    H = nx.convert_node_labels_to_integers(nx.gnp_random_graph(200, 0.03, seed=3))
    G = wg.Graph.from_networkx(H)
    assert global_efficiency(G, device=device) == nx.global_efficiency(H)


def test_harmonic_diameter_matches_networkx(device):
    nx = pytest.importorskip("networkx")
    for directed in (False, True):
        H = nx.gnp_random_graph(150, 0.02, seed=5, directed=directed)
        G = wg.Graph.from_networkx(H)
        assert harmonic_diameter(G, device=device) == nx.harmonic_diameter(H)
    empty = wg.Graph.from_edges([], [], num_vertices=3)
    assert harmonic_diameter(empty, device=device) == np.inf


def test_bad_input():
    with pytest.raises(InvalidArgumentError, match="Graph"):
        harmonic_diameter([[0, 1]])
    with pytest.raises(InvalidArgumentError, match="Graph"):
        global_efficiency([[0, 1]])
    with pytest.raises(InvalidArgumentError, match="Graph"):
        efficiency_sum(np.zeros((2, 2)))
    with pytest.raises(InvalidArgumentError, match="device"):
        efficiency_sum(wg.Graph.from_edges([0], [1], num_vertices=2), device="tpu")
    for x, c, k in ((-1.0, 0.5, 3), (0.0, -0.5, 3), (0.0, 0.0, 3), (float("nan"), 1.0, 2),
                    (0.0, 1.0, -1)):  # fmt: skip
        with pytest.raises(ValueError, match="add_repeated needs"):
            add_repeated(x, c, k)


def oracle_neighbourhoods(n, src, dst, orders):
    """Each vertex's neighbourhood efficiency from SciPy's distances on the induced submatrix,
    sources in ``orders[v]``, each source's targets nearest first."""
    A = sps.coo_array((np.ones(len(src)), (src, dst)), shape=(n, n)).tocsr()
    A = ((A + A.T) > 0).astype(np.float64).tocsr()
    out = []
    for v in range(n):
        S = orders[v]
        k = len(S)
        if k < 2:
            out.append(0.0)
            continue
        D = shortest_path(A[S][:, S], directed=False, unweighted=True)
        total = 0.0
        for i in range(k):
            for d in sorted(int(x) for x in D[i] if 0 < x < np.inf):
                total += 1 / d
        out.append(total / (k * (k - 1)))
    return out


@settings(max_examples=40, deadline=None)
@given(graphs(max_n=30, max_m=90), st.integers(0, 2**32 - 1))
def test_neighbourhoods_equal_the_ordered_sums(case, seed):
    """Default id order, and a shuffled order per vertex (the sums follow it)."""
    n, src, dst, _ = case
    G = wg.Graph.from_edges(src, dst, num_vertices=n, directed=False)
    indptr = np.asarray(G.indptr)
    rows = [
        sorted(set(np.asarray(G.indices)[indptr[v] : indptr[v + 1]].tolist())) for v in range(n)
    ]
    assert neighbourhood_efficiencies(G).tolist() == oracle_neighbourhoods(n, src, dst, rows)
    rng = np.random.default_rng(seed)
    shuffled = [rng.permutation(r).tolist() for r in rows]
    flat = np.array([x for r in shuffled for x in r], dtype=np.int64)
    ptr = np.concatenate(([0], np.cumsum([len(r) for r in shuffled])))
    got = neighbourhood_efficiencies(G, ptr, flat)
    assert got.tolist() == oracle_neighbourhoods(n, src, dst, shuffled)


def test_neighbourhoods_refuse_directed_graphs_and_bad_orders():
    D = wg.Graph.from_edges([0], [1], num_vertices=2)
    with pytest.raises(InvalidArgumentError, match="undirected"):
        neighbourhood_efficiencies(D)
    U = wg.Graph.from_edges([0], [1], num_vertices=2, directed=False)
    with pytest.raises(InvalidArgumentError, match="every vertex"):
        neighbourhood_efficiencies(U, [0, 1], [1])
    P = wg.Graph.from_edges([0, 0, 1], [1, 1, 2], num_vertices=3, directed=False)  # (0 - 1 twice)
    assert neighbourhood_efficiencies(P).tolist() == [0.0, 0.0, 0.0]  # (1: {0, 2}, no path)
