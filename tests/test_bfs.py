"""BFS: the CPU engine, the public API and the verifier, against SciPy and a NumPy oracle."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from scipy.sparse import csgraph

import warpgraph as wg
from warpgraph.algorithms.bfs import BfsConfig, bfs, bfs_explain, bfs_reference, verify_bfs
from warpgraph.algorithms.bfs.cpu import BfsTrace, bfs_cpu
from warpgraph.errors import InvalidArgumentError, VerificationError

CPU_MODES = [
    ("auto", "beamer"),
    ("auto", "enterprise"),
    ("top-down", "beamer"),
    ("bottom-up", "beamer"),
]


def scipy_levels(G: wg.Graph, source: int) -> np.ndarray:
    """Oracle: hop distances by SciPy's unweighted shortest paths (-1 unreachable)."""
    A = G.to_scipy(dtype=np.int8)
    d = csgraph.shortest_path(A, directed=G.directed, unweighted=True, indices=source)
    return np.where(np.isinf(d), -1, d).astype(np.int32)


def random_graph(seed: int, n: int, m: int, directed: bool) -> wg.Graph:
    rng = np.random.default_rng(seed)
    src, dst = rng.integers(0, n, m), rng.integers(0, n, m)
    return wg.Graph.from_edges(src, dst, num_vertices=n, directed=directed)


def check_bfs(G: wg.Graph, source: int, levels, parents=None) -> None:
    np.testing.assert_array_equal(np.asarray(levels), scipy_levels(G, source))
    verify_bfs(G, source, levels, parents)


@pytest.fixture(scope="module")
def kron() -> wg.Graph:
    return wg.generators.kronecker(11, 16, seed=3, device="cpu")


# ---------------------------------------------------------------------------- the CPU engine
@pytest.mark.parametrize("direction,rule", CPU_MODES)
@pytest.mark.parametrize("directed", [False, True])
def test_cpu_modes_match_scipy(direction, rule, directed):
    G = random_graph(7, 600, 2400, directed)
    for source in (0, 17, 599):
        levels, parents = bfs(
            G, source, parents=True, direction=direction, config={"rule": rule}, device="cpu"
        )
        check_bfs(G, source, levels, parents)


def test_cpu_switches_direction_on_kronecker(kron):
    source = int(np.argmax(kron.out_degree()))
    trace = BfsTrace()
    levels, parents = bfs_cpu(
        kron.indptr, kron.indices, kron.indptr, kron.indices, source, want_parents=True, trace=trace
    )
    assert "bu" in trace.steps and trace.steps[0] == "td"
    check_bfs(kron, source, levels, parents)


def test_cpu_enterprise_rule(kron):
    source = int(np.argmax(kron.out_degree()))
    deg = kron.out_degree()
    tau = int(np.sort(deg)[-64])
    trace = BfsTrace()
    levels, _ = bfs_cpu(
        kron.indptr, kron.indices, kron.indptr, kron.indices, source,
        rule="enterprise", gamma=30.0, hub_threshold=tau, trace=trace,
    )  # fmt: skip
    assert "bu" in trace.steps
    np.testing.assert_array_equal(levels, scipy_levels(kron, source))


@given(
    n=st.integers(1, 60),
    density=st.floats(0.0, 4.0),
    directed=st.booleans(),
    seed=st.integers(0, 2**31),
    mode=st.sampled_from(CPU_MODES),
)
def test_cpu_random_graphs(n, density, directed, seed, mode):
    # self-loops and multi-edges included: random endpoints, merge=None keeps repeats
    G = random_graph(seed, n, int(density * n), directed)
    source = seed % n
    levels, parents = bfs(
        G, source, parents=True, direction=mode[0], config={"rule": mode[1]}, device="cpu"
    )
    check_bfs(G, source, levels, parents)
    ref_levels, ref_parents = bfs_reference(G, source)
    np.testing.assert_array_equal(levels, ref_levels)
    verify_bfs(G, source, ref_levels, ref_parents)


def test_isolated_source_and_disconnected_parts():
    G = wg.Graph.from_edges([0, 1, 3, 4], [1, 2, 4, 5], num_vertices=8, directed=False)
    levels, parents = bfs(G, 6, parents=True, device="cpu")
    assert levels.tolist() == [-1] * 6 + [0, -1]
    assert parents.tolist() == [-1] * 6 + [6, -1]
    levels = bfs(G, 4, device="cpu")
    assert levels.tolist() == [-1, -1, -1, 1, 0, 1, -1, -1]


def test_self_loops_and_multi_edges():
    G = wg.Graph.from_edges([0, 0, 0, 1, 1, 2], [0, 1, 1, 1, 2, 2], directed=True)
    for mode in CPU_MODES:
        levels, parents = bfs(G, 0, parents=True, direction=mode[0], device="cpu")
        assert levels.tolist() == [0, 1, 2]
        assert parents.tolist() == [0, 0, 1]


def test_directed_uses_out_arcs_both_directions():
    # 0 -> 1 -> 2, and 3 -> 1: from 0 vertex 3 is unreachable; bottom-up must use in-arcs
    G = wg.Graph.from_edges([0, 1, 3], [1, 2, 1], directed=True)
    for direction in ("top-down", "bottom-up", "auto"):
        assert bfs(G, 0, direction=direction, device="cpu").tolist() == [0, 1, 2, -1]
        assert bfs(G, 3, direction=direction, device="cpu").tolist() == [-1, 1, 2, 0]


def test_single_vertex_graph():
    G = wg.Graph(np.array([0, 0]), np.array([], dtype=np.int32))
    levels, parents = bfs(G, 0, parents=True, device="cpu")
    assert levels.tolist() == [0] and parents.tolist() == [0]


def test_batch_of_sources(kron):
    sources = [0, 5, 5, 100]
    levels, parents = bfs(kron, np.array(sources), parents=True, device="cpu")
    assert levels.shape == (4, kron.num_vertices) and levels.dtype == np.int32
    assert parents.dtype == kron.indices.dtype
    for i, s in enumerate(sources):
        check_bfs(kron, s, levels[i], parents[i])


def test_levels_dtype_and_id_dtype():
    G = random_graph(1, 50, 200, False)
    levels, parents = bfs(G, 3, parents=True, device="cpu")
    assert levels.dtype == np.int32 and parents.dtype == np.int32


# ---------------------------------------------------------------------------- argument checks
def test_bad_arguments():
    G = random_graph(2, 10, 20, True)
    with pytest.raises(InvalidArgumentError, match="not a vertex"):
        bfs(G, 10, device="cpu")
    with pytest.raises(InvalidArgumentError, match="not a vertex"):
        bfs(G, [1, -1], device="cpu")
    with pytest.raises(InvalidArgumentError, match="vertex id"):
        bfs(G, True, device="cpu")
    with pytest.raises(InvalidArgumentError, match="integer vertex ids"):
        bfs(G, "3", device="cpu")
    with pytest.raises(InvalidArgumentError, match="direction must be one of"):
        bfs(G, 0, direction="sideways", device="cpu")
    with pytest.raises(InvalidArgumentError, match=r"warpgraph\.Graph"):
        bfs(np.zeros(3), 0, device="cpu")
    with pytest.raises(InvalidArgumentError, match="unknown BFS config key"):
        bfs(G, 0, config={"speed": "max"}, device="cpu")
    with pytest.raises(InvalidArgumentError, match="load_balance must be one of"):
        bfs(G, 0, config={"load_balance": "magic"}, device="cpu")
    with pytest.raises(InvalidArgumentError, match="needs sync='level'"):
        bfs(G, 0, config={"load_balance": "merge-path", "sync": "persistent"}, device="cpu")
    with pytest.raises(InvalidArgumentError, match="alpha must be a positive number"):
        BfsConfig(alpha=0)
    with pytest.raises(InvalidArgumentError, match="extreme_degree must be an int >= 256"):
        BfsConfig(extreme_degree=100)
    with pytest.raises(InvalidArgumentError, match="extreme_degree must be an int >= 256"):
        BfsConfig(extreme_degree=True)
    with pytest.raises(InvalidArgumentError, match="no vertex"):
        bfs(wg.Graph(np.array([0]), np.array([], dtype=np.int32)), 0, device="cpu")


def test_new_gpu_fields_are_accepted_on_the_cpu(kron):
    # GPU-only knobs are part of the configuration; the CPU engine ignores them
    cfg = {"extreme_degree": 4096}
    np.testing.assert_array_equal(bfs(kron, 3, config=cfg, device="cpu"), scipy_levels(kron, 3))
    assert BfsConfig.from_any(cfg).as_dict()["extreme_degree"] == 4096


def test_extreme_threshold_from_degrees():
    from warpgraph.algorithms.bfs.gpu import extreme_threshold

    deg = np.r_[np.full(3000, 5000), np.full(5000, 2000), np.full(10_000, 3)]
    assert extreme_threshold(deg) == 5001  # 3000 hubs of one degree exceed the cap: none
    deg = np.r_[np.full(100, 70_000), np.full(5000, 2000), np.full(10_000, 3)]
    assert extreme_threshold(deg) == 2001  # 100 + 5000 >= 2048 above 2000
    assert extreme_threshold(np.r_[np.full(10, 10**6), np.full(10_000, 3)]) == 1024  # floor
    assert extreme_threshold(np.r_[np.full(5000, 10**6)]) == 65536  # ceiling
    assert extreme_threshold(np.full(10, 7)) == 1024  # small graph


def test_gpu_configuration_words_match_the_kernels():
    """gpu.py's configuration-word indices and counter layout equal the CUDA enums (no GPU)."""
    import re
    from pathlib import Path

    from warpgraph.algorithms.bfs import gpu

    kernels = Path(gpu.__file__).resolve().parents[2] / "gpu" / "kernels"
    text = (kernels / "frontier_bfs.cuh").read_text()
    body = text[text.index("enum Config") : text.index("C_WORDS")]
    words = dict((k, int(v)) for k, v in re.findall(r"(C_[A-Z_]+) = (\d+)", body))
    assert len(words) == 30
    for name, value in words.items():
        assert getattr(gpu, name) == value, name
    core = (kernels / "frontier_core.cuh").read_text()
    assert f"ARRIVE_SHIFT = {gpu.ARRIVE_SHIFT};" in core
    prof = dict(re.findall(r"(PROF_[A-Z0-9_]+) = (\d+)", text))
    for name in ("PROF_T0", "PROF_T_INIT", "PROF_T_LOOP", "PROF_T_END", "PROF_LEVEL",
                 "PROF_LEVELS", "PROF_OFFSET"):  # fmt: skip
        assert getattr(gpu, name) == int(prof[name]), name
    advance = (kernels / "frontier_advance.cuh").read_text()
    for macro, value, src in (("WG_BFS_BU_BATCH", gpu.BU_BATCH, text),
                              ("WG_BFS_STREAM_BATCH", gpu.STREAM_BATCH, text),
                              ("WG_BFS_TD_BATCH", gpu.TD_BATCH, advance),
                              ("WG_BFS_SMALL_SEARCH", gpu.SMALL_SEARCH, advance)):  # fmt: skip
        assert f"#define {macro} {value}\n" in src, macro


def test_explain_cpu(kron):
    e = bfs_explain(kron, device="cpu")
    assert e.device == "cpu" and e.features["max_degree"] == int(kron.out_degree().max())
    assert "BFS on cpu" in str(e) and e.as_dict()["config"]["rule"] == "beamer"


# ---------------------------------------------------------------------------- the verifier
def test_verifier_rejects_broken_results():
    G = wg.Graph.from_edges([0, 0, 1, 2, 3], [1, 2, 3, 3, 4], num_vertices=6, directed=False)
    levels, parents = bfs(G, 0, parents=True, device="cpu")
    verify_bfs(G, 0, levels, parents)

    def broken(**changes):
        lv, pa = levels.copy(), parents.copy()
        for key, (v, value) in changes.items():
            (lv if key == "level" else pa)[v] = value
        return lv, pa

    cases = [
        (broken(level=(4, 4)), "rule 3|levels"),  # too deep for its edge to 3
        (broken(level=(3, 1)), "rule 3|levels"),  # too shallow: no parent one level up
        (broken(level=(5, 2)), "rule 3|levels"),  # an unreachable vertex given a level
        (broken(parent=(4, 1)), "rule 2"),  # parent one level off
        (broken(parent=(0, 1)), "rule 1"),  # the root has a parent
        (broken(parent=(5, 4)), "rule 4"),  # an unreached vertex in the tree
        (broken(parent=(3, 7)), "rule 4"),  # parent out of range
    ]
    for (lv, pa), match in cases:
        with pytest.raises(VerificationError, match=match):
            verify_bfs(G, 0, lv, pa)
    # rule 5: levels consistent, but the tree edge 2 -> 4 is not an edge of G
    G2 = wg.Graph.from_edges([0, 0, 1, 2], [1, 2, 3, 4], directed=False)
    lv = np.array([0, 1, 1, 2, 2])
    with pytest.raises(VerificationError, match="rule 5"):
        verify_bfs(G2, 0, lv, np.array([0, 0, 0, 2, 1]))
    with pytest.raises(VerificationError, match="shape"):
        verify_bfs(G, 0, levels[:3])
    with pytest.raises(VerificationError, match="source"):
        verify_bfs(G, 1, levels)


def test_reference_matches_scipy(kron):
    for source in (0, 33):
        levels, parents = bfs_reference(kron, source)
        check_bfs(kron, source, levels, parents)
