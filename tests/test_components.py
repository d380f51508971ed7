"""connected_components (weak and strong), its helpers, the verifier and the CLI, against SciPy
(the oracle) on both backends; GPU cases skip without a GPU."""

from __future__ import annotations

import json

import networkx as nx
import numpy as np
import pytest
import scipy.sparse as sp
from hypothesis import given
from hypothesis import strategies as st
from scipy.sparse import csgraph

import warpgraph as wg
from warpgraph._arrays import to_host
from warpgraph.algorithms.components import (
    component_sizes,
    connected_components,
    largest_component,
    strongly_connected_components,
    verify_components,
    weakly_connected_components,
)
from warpgraph.algorithms.components.api import WEAK_METHODS
from warpgraph.algorithms.components.reference import canonical_numbering, components_reference
from warpgraph.errors import InvalidArgumentError, VerificationError

DEVICES = ["cpu", pytest.param("gpu", marks=pytest.mark.gpu)]
WEAK_CASES = [
    pytest.param(dev, m, marks=pytest.mark.gpu) if dev == "gpu" else (dev, m)
    for dev, methods in WEAK_METHODS.items()
    for m in ("auto", *methods)
]
AFFOREST_CONFIGS = [
    None,
    {"samples": 0},
    {"neighbor_rounds": 0},
    {"neighbor_rounds": 5, "reverse": True},
    {"reverse": False},
]


def scipy_partition(n, src, dst, directed, connection):
    """Oracle from the raw edge list (not through warpgraph's CSR)."""
    if n == 0:
        return 0, np.zeros(0, np.int32)
    A = sp.coo_array((np.ones(len(src), np.int8), (src, dst)), shape=(n, n)).tocsr()
    if not directed:
        A = A + A.T
    _, lab = csgraph.connected_components(A, directed=directed, connection=connection)
    return canonical_numbering(lab)


@st.composite
def edge_lists(draw, max_n: int = 30, max_m: int = 70):
    """(n, src, dst, directed): self-loops, repeated edges and isolated vertices on purpose."""
    n = draw(st.integers(0, max_n))
    directed = draw(st.booleans())
    if n == 0:
        return 0, np.zeros(0, np.int64), np.zeros(0, np.int64), directed
    m = draw(st.integers(0, max_m))
    ids = st.lists(st.integers(0, n - 1), min_size=m, max_size=m)
    return n, np.array(draw(ids), np.int64), np.array(draw(ids), np.int64), directed


def has_scc(device) -> bool:
    import importlib.util

    return importlib.util.find_spec(f"warpgraph.algorithms.components.scc_{device}") is not None


def needs_scc(device):
    """Skip strong-component cases whose SCC backend is not in the tree yet."""
    if not has_scc(device):
        pytest.skip(f"scc_{device} is not in the tree yet")


def check(G, n, src, dst, connection, **kwargs):
    count, labels = connected_components(G, connection=connection, **kwargs)
    want_count, want = scipy_partition(n, src, dst, G.directed, connection)
    host = to_host(labels)
    assert host.dtype == np.int32
    assert count == want_count
    np.testing.assert_array_equal(host, want)
    return count, labels


# ---------------------------------------------------------------- against SciPy
@pytest.mark.parametrize(("device", "method"), WEAK_CASES)
@given(case=edge_lists())
def test_weak_random_graphs(device, method, case):
    n, src, dst, directed = case
    G = wg.Graph.from_edges(src, dst, num_vertices=n, directed=directed)
    check(G, n, src, dst, "weak", method=method, device=device)


@pytest.mark.parametrize("device", DEVICES)
@given(case=edge_lists())
def test_strong_random_graphs(device, case):
    needs_scc(device)
    n, src, dst, directed = case
    G = wg.Graph.from_edges(src, dst, num_vertices=n, directed=directed)
    _, labels = check(G, n, src, dst, "strong", device=device)
    verify_components(G, labels, "strong")


@pytest.mark.parametrize("device", DEVICES)
@pytest.mark.parametrize("config", AFFOREST_CONFIGS)
@given(case=edge_lists(max_n=60, max_m=120))
def test_afforest_options(device, config, case):
    n, src, dst, directed = case
    G = wg.Graph.from_edges(src, dst, num_vertices=n, directed=directed)
    check(G, n, src, dst, "weak", method="afforest", device=device, config=config)


def _named_graphs():
    rng = np.random.default_rng(3)
    n = 3000
    chain = np.arange(n)[::-1]  # a path numbered against the hooking direction
    perm = rng.permutation(n)
    star = (np.zeros(5000, np.int64), np.arange(1, 5001))  # one row of 5000 arcs: split rows
    big_cycle = (perm, np.roll(perm, 1))  # one big SCC, ids shuffled
    grid = wg.generators.grid_2d(40, 50, device="cpu")
    return {
        "reversed-chain": (n, chain[:-1], chain[1:], True),
        "undirected-chain": (n, chain[:-1], chain[1:], False),
        "big-cycle": (n, *big_cycle, True),
        "two-cycles-bridged": (8, [0, 1, 2, 3, 4, 5, 6, 7, 2], [1, 2, 0, 4, 5, 3, 7, 6, 4], True),
        "all-singletons": (50, np.zeros(0, np.int64), np.zeros(0, np.int64), True),
        "self-loops-only": (20, np.arange(20), np.arange(20), True),
        "isolated-and-loops": (10, [0, 0, 3, 3, 9], [0, 1, 3, 4, 2], True),
        "one-vertex": (1, [0], [0], True),
        "star-out": (5001, *star, True),
        "star-in": (5001, star[1], star[0], True),
        "star-undirected": (5001, *star, False),
        "grid": (grid.num_vertices, *grid.edges()[:2], False),
        "kron": (
            1 << 11,
            *wg.generators.kronecker_edges(11, 8, seed=4, device="cpu"),
            True,
        ),
    }


NAMED = _named_graphs()


@pytest.mark.parametrize(("device", "method"), WEAK_CASES)
@pytest.mark.parametrize("name", list(NAMED))
def test_weak_named_graphs(device, method, name):
    n, src, dst, directed = NAMED[name]
    G = wg.Graph.from_edges(src, dst, num_vertices=n, directed=directed)
    _, labels = check(G, n, src, dst, "weak", method=method, device=device)
    verify_components(G, labels, "weak")


@pytest.mark.parametrize("device", DEVICES)
@pytest.mark.parametrize("name", list(NAMED))
def test_strong_named_graphs(device, name):
    needs_scc(device)
    n, src, dst, directed = NAMED[name]
    G = wg.Graph.from_edges(src, dst, num_vertices=n, directed=directed)
    check(G, n, src, dst, "strong", device=device)


def test_strong_every_cpu_method():
    needs_scc("cpu")
    from warpgraph.algorithms.components.scc_config import SCC_METHODS

    n, src, dst, _ = NAMED["kron"]
    G = wg.Graph.from_edges(src, dst, num_vertices=n)
    for method in SCC_METHODS:
        check(G, n, src, dst, "strong", method=method, device="cpu")


def test_empty_graph(device):
    G = wg.Graph.from_edges([], [], num_vertices=0)
    for connection in ("weak", "strong") if has_scc(device) else ("weak",):
        count, labels = connected_components(G, connection=connection, device=device)
        assert count == 0 and labels.shape == (0,) and labels.dtype == np.int32
    H, vertices = largest_component(G, device=device)
    assert H.num_vertices == 0 and vertices.shape == (0,)


def test_undirected_strong_is_weak(device):
    G = wg.Graph.from_edges([0, 2], [1, 3], num_vertices=5, directed=False)
    weak = connected_components(G, device=device)
    strong = connected_components(G, connection="strong", device=device)
    assert weak[0] == strong[0] == 3
    np.testing.assert_array_equal(to_host(weak[1]), to_host(strong[1]))
    # a strong method name is accepted (and checked) on an undirected graph
    connected_components(G, connection="strong", method="coloring", device=device)


def test_numbering_matches_scipy_weak():
    rng = np.random.default_rng(9)
    src, dst = rng.integers(0, 200, 150), rng.integers(0, 200, 150)
    G = wg.Graph.from_edges(src, dst, num_vertices=200)
    A = sp.coo_array((np.ones(150), (src, dst)), shape=(200, 200))
    k, lab = csgraph.connected_components(A, directed=True, connection="weak")
    count, labels = connected_components(G, device="cpu")
    assert count == k
    np.testing.assert_array_equal(labels, lab)  # SciPy's exact numbering, not only its partition


def test_cpu_large_parallel_paths():
    """Kronecker scale 14: the parallel Numba kernels (above PARALLEL_MIN_ARCS)."""
    src, dst = wg.generators.kronecker_edges(14, 8, seed=6, device="cpu")
    n = 1 << 14
    G = wg.Graph.from_edges(src, dst, num_vertices=n)
    G.reverse_csr()  # "auto" Afforest then skips the giant component using in-arcs
    for method in ("afforest", "sv"):
        check(G, n, src, dst, "weak", method=method, device="cpu")


@pytest.mark.gpu
@pytest.mark.parametrize("index_dtype", [np.int32, np.int64])
def test_gpu_large_and_int64(index_dtype):
    """Scale-16 Kronecker graph with hubs (rows split into chunks), both id widths."""
    src, dst = wg.generators.kronecker_edges(16, 16, seed=7, device="cpu")
    n = 1 << 16
    G = wg.Graph.from_edges(src, dst, num_vertices=n)
    G = wg.Graph(G.indptr, G.indices.astype(index_dtype), directed=True, validate=False)
    want = scipy_partition(n, src, dst, True, "weak")
    for method in WEAK_METHODS["gpu"]:
        for cfg in (None, {"reverse": True}) if method == "afforest" else (None,):
            count, labels = connected_components(G, method=method, device="gpu", config=cfg)
            assert count == want[0], method
            np.testing.assert_array_equal(labels.get(), want[1])
    Gu = wg.Graph.from_edges(src, dst, num_vertices=n, directed=False)
    count, labels = connected_components(Gu, method="union_find", device="gpu")
    np.testing.assert_array_equal(labels.get(), want[1])


def test_int64_ids_with_reverse(device):
    """int64 forward ids with the (int32) reverse CSR that Afforest reads in-arcs from."""
    n = 1 << 10
    src, dst = wg.generators.kronecker_edges(10, 4, seed=8, device="cpu")
    G = wg.Graph.from_edges(src, dst, num_vertices=n)
    G = wg.Graph(G.indptr, G.indices.astype(np.int64), directed=True, validate=False)
    methods = WEAK_METHODS[device] if device == "gpu" else ("afforest",)  # CPU: JIT time
    for method in methods:
        for cfg in (None, {"reverse": True}) if method == "afforest" else (None,):
            check(G, n, src, dst, "weak", method=method, device=device, config=cfg)


@pytest.mark.gpu
def test_gpu_renumber_arbitrary_labels():
    import cupy as cp

    from warpgraph.algorithms.components import gpu

    raw = np.array([7, 7, 10**12, -3, 7, -3], dtype=np.int64)
    count, labels = gpu.renumber_by_first_vertex(cp.asarray(raw))
    assert count == 3 and labels.get().tolist() == [0, 0, 1, 2, 0, 2]
    count, labels = gpu.renumber_by_first_vertex(cp.asarray([4, 1, 4, 0, 1], dtype=cp.int32))
    assert count == 3 and labels.get().tolist() == [0, 1, 0, 2, 1]


def test_cpu_renumber_arbitrary_labels():
    from warpgraph.algorithms.components import cpu

    raw = np.array([7, 7, 10**12, -3, 7, -3], dtype=np.int64)
    count, labels = cpu.renumber_by_first_vertex(raw)
    assert count == 3 and labels.tolist() == [0, 0, 1, 2, 0, 2]


# ---------------------------------------------------------------- helpers
def test_helpers_and_sizes(device):
    needs_scc(device)
    G = wg.Graph.from_edges([0, 1, 3, 5], [1, 0, 4, 5], num_vertices=7)
    cw, lw = weakly_connected_components(G, device=device)
    cs, ls = strongly_connected_components(G, device=device)
    assert (cw, to_host(lw).tolist()) == (5, [0, 0, 1, 2, 2, 3, 4])
    assert (cs, to_host(ls).tolist()) == (6, [0, 0, 1, 2, 3, 4, 5])
    assert to_host(component_sizes(lw)).tolist() == [2, 1, 2, 1, 1]


def test_component_sizes_errors():
    with pytest.raises(InvalidArgumentError, match="1-D integer"):
        component_sizes(np.zeros((2, 2), np.int32))
    with pytest.raises(InvalidArgumentError, match="non-negative"):
        component_sizes(np.array([0, -1]))


@pytest.mark.parametrize("device", DEVICES)
@pytest.mark.parametrize("directed", [True, False])
def test_largest_component(device, directed):
    needs_scc(device)
    rng = np.random.default_rng(11 + directed)
    n = 300
    src, dst = rng.integers(0, n, 260), rng.integers(0, n, 260)
    w = rng.random(260)
    G = wg.Graph.from_edges(src, dst, w, num_vertices=n, directed=directed)
    H, vertices = largest_component(G, device=device)
    nxg = G.to_networkx()
    comps = nx.weakly_connected_components(nxg) if directed else nx.connected_components(nxg)
    best = sorted(max(comps, key=lambda c: (len(c), -min(c))))
    assert to_host(vertices).tolist() == best
    want = nx.convert_node_labels_to_integers(nxg.subgraph(best), ordering="sorted")
    got = H.to("cpu").to_networkx()
    assert H.directed == directed and H.num_vertices == len(best)
    assert sorted(got.edges(data="weight")) == sorted(want.edges(data="weight"))
    if directed:
        Hs, vs = largest_component(G, "strong", device=device)
        big = max(nx.strongly_connected_components(nxg), key=lambda c: (len(c), -min(c)))
        assert to_host(vs).tolist() == sorted(big) and Hs.num_vertices == len(big)


def test_largest_component_keeps_node_labels():
    H0 = nx.Graph([("a", "b"), ("c", "d"), ("d", "e")])
    G = wg.Graph.from_networkx(H0)
    H, _ = largest_component(G, device="cpu")
    assert sorted(H.vertex_labels) == ["c", "d", "e"]


# ---------------------------------------------------------------- errors
def test_argument_errors():
    G = wg.Graph.from_edges([0], [1])
    with pytest.raises(InvalidArgumentError, match=r"warpgraph\.Graph"):
        connected_components(nx.path_graph(3))
    with pytest.raises(InvalidArgumentError, match="connection must be one of"):
        connected_components(G, connection="weakly")
    with pytest.raises(InvalidArgumentError, match="unknown weak-components method 'bfs'"):
        connected_components(G, method="bfs", device="cpu")
    with pytest.raises(InvalidArgumentError, match="use device='gpu'"):
        connected_components(G, method="union_find", device="cpu")
    with pytest.raises(InvalidArgumentError, match="unknown strong-components method"):
        connected_components(G, connection="strong", method="afforest", device="cpu")
    with pytest.raises(
        InvalidArgumentError, match=r"'ecl' on the cpu \(a gpu method: use device='gpu'\)"
    ):
        connected_components(G, connection="strong", method="ecl", device="cpu")
    with pytest.raises(InvalidArgumentError, match="device must be one of"):
        connected_components(G, device="tpu")
    with pytest.raises(InvalidArgumentError, match="method must be a string"):
        connected_components(G, method=3, device="cpu")
    with pytest.raises(InvalidArgumentError, match="unknown weak-components option"):
        connected_components(G, device="cpu", config={"rounds": 2})
    with pytest.raises(InvalidArgumentError, match="samples must be a non-negative int"):
        connected_components(G, device="cpu", config={"samples": -1})
    with pytest.raises(InvalidArgumentError, match="reverse must be"):
        connected_components(G, device="cpu", config={"reverse": "yes"})
    with pytest.raises(InvalidArgumentError, match="must be a dict"):
        connected_components(G, device="cpu", config=[1])


@pytest.mark.gpu
def test_gpu_only_method_errors():
    G = wg.Graph.from_edges([0], [1])
    with pytest.raises(InvalidArgumentError, match="use device='cpu'"):
        connected_components(G, method="sv", device="gpu")
    with pytest.raises(InvalidArgumentError, match="tarjan runs on the CPU"):
        connected_components(G, connection="strong", method="tarjan", device="gpu")


# ---------------------------------------------------------------- verifier
def test_verifier_catches_wrong_labels():
    G = wg.Graph.from_edges([0, 1, 2, 3], [1, 0, 3, 2], num_vertices=5)
    verify_components(G, np.array([0, 0, 1, 1, 2]), "weak")
    verify_components(G, np.array([5, 5, 9, 9, -1]), "strong")  # any label values
    with pytest.raises(VerificationError, match="weak rule 1"):
        verify_components(G, np.array([0, 1, 2, 2, 3]), "weak")
    with pytest.raises(VerificationError, match="weak rule 2"):
        verify_components(G, np.array([0, 0, 0, 0, 1]), "weak")
    with pytest.raises(VerificationError, match="shape"):
        verify_components(G, np.zeros(4, np.int32), "weak")
    D = wg.Graph.from_edges([0, 1, 1, 2], [1, 0, 2, 3], num_vertices=4)
    with pytest.raises(VerificationError, match="strong rule 1"):
        verify_components(D, np.array([0, 1, 2, 3]), "strong")  # SCC {0, 1} split
    with pytest.raises(VerificationError, match="strong rule 2"):
        verify_components(D, np.array([0, 0, 0, 1]), "strong")  # 2 is not in the SCC
    with pytest.raises(InvalidArgumentError, match="connection"):
        verify_components(D, np.zeros(4, np.int32), "both")


def test_verifier_rule3_small_graphs():
    from warpgraph.algorithms.components import verify

    A = sp.csr_array(np.array([[0, 1, 0], [1, 0, 0], [0, 0, 0]], dtype=np.int8))
    verify._check_classes_strongly_connected(A, np.array([0, 0, 1]), 2)
    with pytest.raises(VerificationError, match="strong rule 3"):
        verify._check_classes_strongly_connected(A, np.array([0, 0, 0]), 1)


def test_reference_numbering():
    G = wg.Graph.from_edges([4, 2], [3, 1], num_vertices=5)
    assert components_reference(G, "weak")[1].tolist() == [0, 1, 1, 2, 2]


# ---------------------------------------------------------------- CLI
def test_cli(tmp_path, capsys):
    from warpgraph.cli.main import main

    path = tmp_path / "g.mtx"
    src, dst = [0, 1, 2, 3, 5], [1, 0, 1, 4, 5]
    wg.save(wg.Graph.from_edges(src, dst, num_vertices=7), str(path))
    out = tmp_path / "labels.npy"
    args = ["components", str(path), "--device", "cpu", "--json", "--verify"]
    assert main([*args, "--output", str(out)]) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["components"] == 4 and report["largest"] == 3 and report["verified"]
    assert np.load(out).tolist() == [0, 0, 0, 1, 1, 2, 3]
    assert main([*args, "--strong"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["components"] == 6 and report["connection"] == "strong"
    assert main(["components", str(path), "--device", "cpu", "--sizes", "2"]) == 0
    text = capsys.readouterr().out
    assert "2 largest components" in text and "components" in text
    cfg = ["--method", "afforest", "--config", '{"samples": 0}']
    assert main(["components", str(path), "--device", "cpu", *cfg]) == 0
    capsys.readouterr()
    assert main(["components", str(path), "--device", "cpu", "--method", "nope"]) == 2
    assert "unknown weak-components method" in capsys.readouterr().err
    assert main(["components", str(path), "--device", "cpu", "--config", "[1]"]) == 2
