"""eigenvector_centrality and katz_centrality against the SciPy reference (the same iteration),
NetworkX's own functions and the verifier, on both backends (the GPU runs skip without a GPU).

Tolerances. The library and the reference take the same steps with the same stopping rule;
runs that stop on the same step differ by rounding only (the sums are added in another order),
hence 1e-12. Where a step's L1 change lies within rounding of ``n * tol`` one run may take a
step more; the two then differ by less than that change: ``n * tol`` in L1.
"""

from __future__ import annotations

import math

import networkx as nx
import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

import warpgraph as wg
from warpgraph.algorithms.centrality import cpu, eigenvector_centrality, katz_centrality
from warpgraph.algorithms.centrality.reference import eigenvector_reference, katz_reference
from warpgraph.algorithms.centrality.verify import (
    step_matrix,
    verify_eigenvector_centrality,
    verify_katz_centrality,
)
from warpgraph.errors import ConvergenceError, InvalidArgumentError, VerificationError

DEVICES = ["cpu", pytest.param("gpu", marks=pytest.mark.gpu)]
WEIGHTS = [0.0, 0.25, 1.0, 2.0, 7.5]  # 0 on purpose: arcs that carry nothing


def host(x):
    return x.get() if hasattr(x, "get") else np.asarray(x)


@st.composite
def cases(draw, max_n: int = 12, max_m: int = 40):
    """(n, src, dst, weights or None, directed): self-loops, parallel edges, isolated vertices,
    sources and sinks included on purpose."""
    n = draw(st.integers(1, max_n))
    directed = draw(st.booleans())
    m = draw(st.integers(0, max_m))
    ids = st.lists(st.integers(0, n - 1), min_size=m, max_size=m)
    src = np.array(draw(ids), np.int64)
    dst = np.array(draw(ids), np.int64)
    w = None
    if draw(st.booleans()):
        w = np.array(draw(st.lists(st.sampled_from(WEIGHTS), min_size=m, max_size=m)), float)
    return n, src, dst, w, directed


def graph(n, src, dst, w, directed):
    return wg.Graph.from_edges(src, dst, weights=w, num_vertices=n, directed=directed)


def outcome(call):
    """``(vector, steps)`` or the ConvergenceError's class."""
    try:
        x, steps = call()
    except ConvergenceError:
        return ConvergenceError
    return host(x), steps


def assert_same_run(ours, theirs, n: int, tol: float):
    """The same outcome: both raise, or the same step (1e-12 apart), or one step apart (under
    ``n * tol`` in L1, see the module docstring)."""
    if ours is ConvergenceError or theirs is ConvergenceError:
        assert ours is theirs
        return
    (x, k), (y, j) = ours, theirs
    assert abs(k - j) <= 1
    bound = 1e-12 if k == j else n * tol + 1e-12
    assert np.abs(x - y).sum() <= bound, (k, j, np.abs(x - y).sum())


def nx_digraph(n, src, dst, w, directed):
    """The same graph in NetworkX (parallel edges merged, their weights added)."""
    H = nx.DiGraph() if directed else nx.Graph()
    H.add_nodes_from(range(n))
    ws = np.ones(len(src)) if w is None else w
    for u, v, x in zip(src.tolist(), dst.tolist(), ws.tolist(), strict=True):
        H.add_edge(u, v, weight=H.edges[u, v]["weight"] + x if H.has_edge(u, v) else x)
    return H


# ---------------------------------------------------------------- against the reference
@given(cases(), st.sampled_from([1e-6, 1e-10]))
def test_eigenvector_matches_reference(case, tol):
    n, src, dst, w, directed = case
    G = graph(*case)
    ours = outcome(
        lambda: eigenvector_centrality(
            G, tol=tol, max_iter=300, weights=True, device="cpu", return_iterations=True
        )
    )
    theirs = outcome(
        lambda: eigenvector_reference(n, src, dst, w, directed=directed, tol=tol, max_iter=300)
    )
    assert_same_run(ours, theirs, n, tol)
    if ours is not ConvergenceError:
        verify_eigenvector_centrality(G, ours[0], tol=tol, weights=True)


@given(cases(), st.sampled_from([0.05, 0.2, -0.1]), st.sampled_from([1.0, 0.5, "array"]),
       st.booleans())  # fmt: skip
def test_katz_matches_reference(case, alpha, beta, normalized):
    n, src, dst, w, directed = case
    G = graph(*case)
    if beta == "array":
        beta = np.linspace(0.5, 2.0, n)
    kwargs = {"alpha": alpha, "beta": beta, "tol": 1e-9, "max_iter": 300}
    ours = outcome(
        lambda: katz_centrality(
            G, weights=True, normalized=normalized, device="cpu", return_iterations=True, **kwargs
        )
    )
    theirs = outcome(
        lambda: katz_reference(n, src, dst, w, directed=directed, normalized=normalized, **kwargs)
    )
    assert_same_run(ours, theirs, n, 1e-9)
    if ours is not ConvergenceError:
        verify_katz_centrality(
            G, ours[0], alpha=alpha, beta=beta, tol=1e-9, normalized=normalized, weights=True
        )


@pytest.mark.filterwarnings("error")
def test_katz_reference_diverges_quietly():
    """A diverging alpha overflows the reference's vector to inf (inf - inf is NaN): it ends in
    ConvergenceError, as ours does, without NumPy's warnings."""
    src, dst = np.array([0, 1, 2, 0]), np.array([1, 2, 0, 2])
    with pytest.raises(ConvergenceError, match="Katz"):
        katz_reference(3, src, dst, np.full(4, 50.0), alpha=0.9, max_iter=1000)
    G = graph(3, src, dst, np.full(4, 50.0), True)
    with pytest.raises(ConvergenceError, match="Katz"):
        katz_centrality(G, alpha=0.9, max_iter=1000, weights=True, device="cpu")


@pytest.mark.parametrize("device", DEVICES)
@pytest.mark.parametrize("directed", [True, False])
def test_larger_graph_matches_reference(device, directed):
    """Past the parallel threshold, with hubs (a Kronecker graph) and weights."""
    s, d = wg.generators.kronecker_edges(11, 8, seed=5, device="cpu")
    s, d = np.asarray(s), np.asarray(d)
    rng = np.random.default_rng(1)
    w = rng.choice([0.5, 1.0, 3.0], s.size)
    n = int(max(s.max(), d.max())) + 1
    for weights in (None, w):
        G = graph(n, s, d, weights, directed)
        ours = outcome(
            lambda G=G: eigenvector_centrality(
                G, tol=1e-9, max_iter=500, weights=True, device=device, return_iterations=True
            )
        )
        theirs = outcome(
            lambda weights=weights: eigenvector_reference(
                n, s, d, weights, directed=directed, tol=1e-9, max_iter=500
            )
        )
        assert_same_run(ours, theirs, n, 1e-9)
        verify_eigenvector_centrality(G, ours[0], tol=1e-9, weights=True)
        alpha = 0.5 / float(step_matrix(G, True).sum(axis=0).max())  # (converges)
        ours = outcome(
            lambda G=G, alpha=alpha: katz_centrality(
                G, alpha=alpha, tol=1e-9, weights=True, device=device, return_iterations=True
            )
        )
        theirs = outcome(
            lambda weights=weights, alpha=alpha: katz_reference(
                n, s, d, weights, directed=directed, alpha=alpha, tol=1e-9
            )
        )
        assert_same_run(ours, theirs, n, 1e-9)
        verify_katz_centrality(G, ours[0], alpha=alpha, tol=1e-9, weights=True)


# ---------------------------------------------------------------- against NetworkX itself
@pytest.mark.parametrize("directed", [True, False])
def test_equals_networkx(directed):
    rng = np.random.default_rng(7)
    n = 40
    src, dst = rng.integers(0, n, 150), rng.integers(0, n, 150)
    w = rng.choice([0.5, 1.0, 2.0], 150)
    H = nx_digraph(n, src, dst, w, directed)
    u, v, x = zip(*H.edges(data="weight"), strict=True)  # (parallel edges merged: one arc each)
    G = graph(n, np.array(u), np.array(v), np.array(x), directed)
    for weight, weights in ((None, None), ("weight", True)):
        want = nx.eigenvector_centrality(H, weight=weight, tol=1e-10, max_iter=500,
                                         backend="networkx")  # fmt: skip
        got = eigenvector_centrality(G, weights=weights, tol=1e-10, max_iter=500, device="cpu")
        assert np.abs(got - np.array([want[v] for v in range(n)])).sum() <= n * 1e-10
        for normalized in (True, False):
            want = nx.katz_centrality(H, alpha=0.05, weight=weight, normalized=normalized,
                                      backend="networkx")  # fmt: skip
            got = katz_centrality(G, alpha=0.05, weights=weights, normalized=normalized,
                                  device="cpu")  # fmt: skip
            assert np.abs(got - np.array([want[v] for v in range(n)])).sum() <= n * 1e-6


def test_sinks_sources_isolated_and_loops():
    """A directed graph with a source (no in-arcs), a sink (no out-arcs), an isolated vertex
    and a self-loop: NetworkX's values (a source's eigenvector centrality decays to 0)."""
    edges = [(0, 1), (1, 2), (2, 1), (2, 3), (4, 4), (4, 1)]
    H = nx.DiGraph(edges)
    H.add_node(5)
    G = wg.Graph.from_edges(*zip(*edges, strict=True), num_vertices=6, directed=True)
    want = nx.eigenvector_centrality(H, max_iter=1000, backend="networkx")
    got = eigenvector_centrality(G, max_iter=1000, device="cpu")
    assert np.abs(got - np.array([want[v] for v in range(6)])).sum() <= 6e-6
    verify_eigenvector_centrality(G, got)
    want = nx.katz_centrality(H, backend="networkx")
    got = katz_centrality(G, device="cpu")
    assert np.abs(got - np.array([want[v] for v in range(6)])).sum() <= 6e-6
    assert got[5] == got[0] > 0  # (beta alone)


def test_norms_of_huge_and_tiny_values_are_networkx_hypot():
    """Sums of squares past float64's range: NetworkX's ``math.hypot`` does not overflow or
    underflow, and neither does the norm here."""
    for vec in ([1e300, 1e300], [1e-200, 3e-200], [0.0, 0.0], [3.0, 4.0], [5e-324, 0.0],
                [1.7e308, 1.0], [math.inf, 1.0], [math.inf, math.nan]):  # fmt: skip
        want = math.hypot(*vec) or 1.0
        assert cpu.norm_or_one(np.array(vec)) == pytest.approx(want, rel=1e-15, nan_ok=True)
    assert math.isnan(cpu.norm_or_one(np.array([math.nan, 1.0])))
    # a tiny beta: the first step already converges, at values whose squares underflow
    H = nx.path_graph(5, create_using=nx.DiGraph)
    G = wg.Graph.from_edges([0, 1, 2, 3], [1, 2, 3, 4], directed=True)
    want = nx.katz_centrality(H, beta=1e-200, backend="networkx")
    got = katz_centrality(G, beta=1e-200, device="cpu")
    assert got.tolist() == pytest.approx([want[v] for v in range(5)], rel=1e-14)
    # huge weights: the sum of squares of a step overflows
    H = nx.Graph()
    H.add_weighted_edges_from([(0, 1, 1e200), (1, 2, 2e200), (2, 0, 3e200), (2, 3, 1e200)])
    G = wg.Graph.from_edges([0, 1, 2, 2], [1, 2, 0, 3], weights=[1e200, 2e200, 3e200, 1e200],
                            directed=False)  # fmt: skip
    want = nx.eigenvector_centrality(H, weight="weight", backend="networkx")
    got = eigenvector_centrality(G, weights=True, device="cpu")
    assert got.tolist() == pytest.approx([want[v] for v in range(4)], rel=1e-14)


# ---------------------------------------------------------------- options
def test_weights_none_true_and_array():
    G = wg.Graph.from_edges([0, 1, 2, 0], [1, 2, 0, 2], weights=[2.0, 1.0, 3.0, 0.5],
                            directed=True)  # fmt: skip
    U = wg.Graph.from_edges([0, 1, 2, 0], [1, 2, 0, 2], directed=True)
    unit = eigenvector_centrality(G, device="cpu")
    assert np.array_equal(unit, eigenvector_centrality(U, device="cpu"))
    assert np.array_equal(unit, eigenvector_centrality(G, weights=False, device="cpu"))
    assert np.array_equal(unit, eigenvector_centrality(U, weights=True, device="cpu"))
    weighted = eigenvector_centrality(G, weights=True, device="cpu")
    assert not np.allclose(weighted, unit)
    assert np.array_equal(weighted, eigenvector_centrality(U, weights=G.weights, device="cpu"))
    assert np.array_equal(
        katz_centrality(G, weights=True, device="cpu"),
        katz_centrality(U, weights=G.weights, device="cpu"),
    )


def test_nstart_and_beta():
    G = wg.Graph.from_edges([0, 1, 2], [1, 2, 0], directed=True)  # a 3-cycle
    start = np.array([1.0, 2.0, 3.0])
    x, k = eigenvector_centrality(G, nstart=start, tol=1e-12, max_iter=1000, device="cpu",
                                  return_iterations=True)  # fmt: skip
    r, j = eigenvector_reference(3, [0, 1, 2], [1, 2, 0], nstart=start, tol=1e-12, max_iter=1000)
    assert (k, x.tolist()) == (j, pytest.approx(r.tolist(), abs=1e-15))
    assert start.tolist() == [1.0, 2.0, 3.0]  # (not modified)
    # the first step's change is measured from nstart / sum(nstart), as NetworkX's: a start on
    # a sink (already the normalized fixed point) stops after one step
    S = wg.Graph.from_edges([0, 1], [2, 2], directed=True)
    x, k = eigenvector_centrality(S, nstart=[0.0, 0.0, 5.0], device="cpu", return_iterations=True)
    assert (x.tolist(), k) == ([0.0, 0.0, 1.0], 1)
    x = katz_centrality(G, beta=[1.0, 0.0, 0.0], nstart=[5.0, -1.0, 0.5], normalized=False,
                        device="cpu")  # fmt: skip
    r, _ = katz_reference(3, [0, 1, 2], [1, 2, 0], beta=[1.0, 0.0, 0.0],
                          nstart=[5.0, -1.0, 0.5], normalized=False)  # fmt: skip
    assert x.tolist() == pytest.approx(r.tolist(), abs=1e-15)
    zero = katz_centrality(G, beta=0.0, device="cpu")  # (a zero norm is left as it is)
    assert zero.tolist() == [0.0, 0.0, 0.0]
    assert katz_centrality(wg.Graph.from_edges([], [], num_vertices=0), device="cpu").size == 0


def test_top_level_exports():
    assert wg.eigenvector_centrality is eigenvector_centrality
    assert wg.katz_centrality is katz_centrality


# ---------------------------------------------------------------- errors
def test_no_convergence_raises():
    G = wg.Graph.from_edges([0, 1, 2, 3], [1, 2, 3, 0], num_vertices=5, directed=True)
    for kwargs in ({"max_iter": 1, "tol": 1e-15}, {"max_iter": 0}, {"tol": 0.0, "max_iter": 30}):
        with pytest.raises(ConvergenceError, match="eigenvector") as info:
            eigenvector_centrality(G, device="cpu", **kwargs)
        assert info.value.iterations == kwargs["max_iter"]
    with pytest.raises(ConvergenceError, match=r"Katz.* in 50 iterations"):
        katz_centrality(G, alpha=1.5, max_iter=50, device="cpu")  # (diverges)
    with pytest.raises(ConvergenceError):
        katz_centrality(G, alpha=1.0, max_iter=500, device="cpu")  # (a cycle: never settles)


@pytest.mark.parametrize(
    ("kwargs", "match"),
    [
        ({"tol": -1e-6}, "tol"),
        ({"tol": math.nan}, "tol"),
        ({"tol": "1e-6"}, "tol"),
        ({"max_iter": -1}, "max_iter"),
        ({"max_iter": 10.0}, "max_iter"),
        ({"max_iter": True}, "max_iter"),
        ({"nstart": [1.0, 2.0]}, "shape"),
        ({"nstart": [1.0, -2.0, 3.0]}, "non-negative"),
        ({"nstart": [1.0, math.nan, 3.0]}, "finite"),
        ({"nstart": [0.0, 0.0, 0.0]}, "sums to 0"),
        ({"nstart": ["a", "b", "c"]}, "numbers"),
        ({"weights": [1.0, 2.0]}, "shape"),
        ({"weights": [1.0, -2.0, 1.0]}, "negative weight"),
        ({"weights": [1.0, math.nan, 1.0]}, "NaN weight"),
        ({"weights": [1.0, math.inf, 1.0]}, "infinite weight"),
        ({"device": "tpu"}, "device"),
    ],
)
def test_eigenvector_bad_arguments(kwargs, match):
    G = wg.Graph.from_edges([0, 1, 2], [1, 2, 0], directed=True)
    with pytest.raises(InvalidArgumentError, match=match):
        eigenvector_centrality(G, **{"device": "cpu", **kwargs})


@pytest.mark.parametrize(
    ("kwargs", "match"),
    [
        ({"alpha": math.nan}, "alpha"),
        ({"alpha": math.inf}, "alpha"),
        ({"alpha": "0.1"}, "alpha"),
        ({"beta": math.nan}, "beta"),
        ({"beta": [1.0, 2.0]}, "beta has shape"),
        ({"beta": [1.0, math.inf, 2.0]}, "beta must hold finite"),
        ({"nstart": [1.0, math.nan, 0.0]}, "nstart"),
        ({"tol": -1.0}, "tol"),
        ({"max_iter": 1.5}, "max_iter"),
        ({"weights": [1.0, math.inf, 1.0]}, "Katz centrality needs finite weights"),
    ],
)
def test_katz_bad_arguments(kwargs, match):
    G = wg.Graph.from_edges([0, 1, 2], [1, 2, 0], directed=True)
    with pytest.raises(InvalidArgumentError, match=match):
        katz_centrality(G, **{"device": "cpu", **kwargs})


def test_not_a_graph_and_no_vertices():
    with pytest.raises(InvalidArgumentError, match=r"warpgraph\.Graph"):
        eigenvector_centrality(nx.path_graph(3))
    with pytest.raises(InvalidArgumentError, match=r"warpgraph\.Graph"):
        katz_centrality([[0, 1]])
    with pytest.raises(InvalidArgumentError, match="without vertices"):
        eigenvector_centrality(wg.Graph.from_edges([], [], num_vertices=0), device="cpu")


def test_katz_accepts_negative_weights_and_alpha():
    G = wg.Graph.from_edges([0, 1, 2], [1, 2, 0], weights=[1.0, -2.0, 0.5], directed=True)
    x = katz_centrality(G, alpha=-0.2, weights=True, tol=1e-12, device="cpu")
    r, _ = katz_reference(3, [0, 1, 2], [1, 2, 0], [1.0, -2.0, 0.5], alpha=-0.2, tol=1e-12)
    assert x.tolist() == pytest.approx(r.tolist(), abs=1e-14)
    verify_katz_centrality(G, x, alpha=-0.2, tol=1e-12, weights=True)


# ---------------------------------------------------------------- the verifier
def test_verifier_rejects_wrong_vectors():
    s, d = wg.generators.kronecker_edges(8, 8, seed=2, device="cpu")
    G = wg.Graph.from_edges(s, d, directed=True)
    n = G.num_vertices
    x = eigenvector_centrality(G, tol=1e-12, max_iter=2000, device="cpu")
    verify_eigenvector_centrality(G, x, tol=1e-12)
    with pytest.raises(VerificationError, match="shape"):
        verify_eigenvector_centrality(G, x[:-1], tol=1e-12)
    with pytest.raises(VerificationError, match="rule 2"):
        verify_eigenvector_centrality(G, x * 1.001, tol=1e-12)
    bad = x.copy()
    i, j = int(np.argmax(x)), int(np.argmin(x))
    bad[i], bad[j] = bad[j], bad[i]
    with pytest.raises(VerificationError, match="rule 3"):
        verify_eigenvector_centrality(G, bad, tol=1e-12)
    with pytest.raises(VerificationError, match="rule 3"):
        verify_eigenvector_centrality(G, np.full(n, 1 / math.sqrt(n)), tol=1e-12)
    bad = x.copy()
    bad[j] = -1e-3
    with pytest.raises(VerificationError, match="negative"):
        verify_eigenvector_centrality(G, bad, tol=1e-12)
    bad[j] = math.nan
    with pytest.raises(VerificationError, match="not finite"):
        verify_eigenvector_centrality(G, bad, tol=1e-12)
    for normalized in (True, False):
        z = katz_centrality(G, alpha=0.01, tol=1e-12, normalized=normalized, device="cpu")
        verify_katz_centrality(G, z, alpha=0.01, tol=1e-12, normalized=normalized)
        with pytest.raises(VerificationError, match="rule 3"):
            verify_katz_centrality(G, z, alpha=0.02, tol=1e-12, normalized=normalized)
        bad = z.copy()
        bad[i], bad[j] = bad[j], bad[i]
        with pytest.raises(VerificationError, match="rule 3"):
            verify_katz_centrality(G, bad, alpha=0.01, tol=1e-12, normalized=normalized)
    with pytest.raises(VerificationError, match="rule 2"):
        verify_katz_centrality(G, z * 2, alpha=0.01, tol=1e-12, normalized=True)


# ---------------------------------------------------------------- GPU
@pytest.mark.gpu
def test_gpu_matches_cpu():
    s, d = wg.generators.kronecker_edges(12, 16, seed=3, device="cpu")
    rng = np.random.default_rng(4)
    w = rng.choice([0.25, 1.0, 4.0], np.asarray(s).size)
    for directed in (True, False):
        for weights in (None, w):
            G = wg.Graph.from_edges(s, d, weights=weights, directed=directed)
            n = G.num_vertices
            options = {"tol": 1e-9, "max_iter": 1000, "weights": True, "return_iterations": True}
            runs = [eigenvector_centrality(G, device=dev, **options) for dev in ("gpu", "cpu")]
            assert_same_run(*[(host(x), k) for x, k in runs], n, 1e-9)
            verify_eigenvector_centrality(G, runs[0][0], tol=1e-9, weights=True)
            alpha = 0.5 / float(step_matrix(G, True).sum(axis=0).max())
            beta = np.linspace(0.5, 1.5, n)
            for normalized in (True, False):
                options = {"alpha": alpha, "beta": beta, "tol": 1e-9, "weights": True,
                           "normalized": normalized, "return_iterations": True}  # fmt: skip
                runs = [katz_centrality(G, device=dev, **options) for dev in ("gpu", "cpu")]
                assert_same_run(*[(host(x), k) for x, k in runs], n, 1e-9)
    with pytest.raises(ConvergenceError):
        eigenvector_centrality(G, max_iter=2, tol=1e-15, device="gpu")
