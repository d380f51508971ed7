"""Graph500: the validator (each rule broken on purpose), the statistics, the runner and its CLI."""

from __future__ import annotations

import math

import networkx as nx
import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from scipy.sparse import coo_matrix, csgraph

import warpgraph
from warpgraph.bench.adapters import warpgraph_function
from warpgraph.bench.graph500 import (
    format_output,
    graph500_records,
    run_graph500,
    scipy_bfs_kernel,
    scipy_sssp_kernel,
)
from warpgraph.bench.graph500_validate import (
    Graph500ValidationError,
    tree_depths,
    validate_bfs_tree,
    validate_sssp_tree,
)
from warpgraph.bench.summary import graph500_statistics, teps_statistics
from warpgraph.cli.main import main
from warpgraph.errors import InvalidArgumentError, VerificationError


# ----------------------------------------------------------------------------- oracles
def oracle_bfs(src, dst, n, root):
    """Levels and a BFS parent tree by NetworkX (undirected multigraph)."""
    H = nx.MultiGraph()
    H.add_nodes_from(range(n))
    H.add_edges_from(zip(src.tolist(), dst.tolist(), strict=True))
    level = np.full(n, -1, dtype=np.int64)
    parent = np.full(n, -1, dtype=np.int64)
    parent[root] = root
    for v, d in nx.single_source_shortest_path_length(H, root).items():
        level[v] = d
    for u, v in nx.bfs_edges(H, root):
        parent[v] = u
    return level, parent


def oracle_nedge(src, dst, n, root):
    """Tuples inside the root's component, by SciPy's connected components."""
    A = coo_matrix((np.ones(len(src)), (src, dst)), shape=(n, n)).tocsr()
    _, labels = csgraph.connected_components(A, directed=False)
    return int((labels[src] == labels[root]).sum())


def path_with_chord():
    """0-1-2-3 path, a chord 0-2, a pendant 4 on 3, an isolated 5 with a self-loop."""
    src = np.array([0, 1, 2, 0, 3, 5])
    dst = np.array([1, 2, 3, 2, 4, 5])
    # BFS from 0: levels 0:0, 1:1, 2:1, 3:2, 4:3
    parent = np.array([0, 0, 0, 2, 3, -1])
    level = np.array([0, 1, 1, 2, 3, -1])
    return src, dst, parent, level


# ----------------------------------------------------------------------------- BFS validator
def test_valid_tree_passes_and_counts_component_tuples():
    src, dst, parent, level = path_with_chord()
    assert validate_bfs_tree(parent, src, dst, 0, level=level) == 5  # 5's self-loop is outside


def test_self_loops_and_repeats_count_as_the_specification_says():
    src = np.array([0, 0, 1, 1, 2])
    dst = np.array([1, 1, 1, 2, 3])  # a repeated edge, a self-loop on 1, 3 is outside
    parent = np.array([0, 0, -1, -1])
    with pytest.raises(Graph500ValidationError) as e:
        validate_bfs_tree(parent, src, dst, 0)  # 2 is adjacent to 1 but not reached
    assert e.value.rule == "4"
    parent = np.array([0, 0, 1, 2])
    assert validate_bfs_tree(parent, src, dst, 0) == 5


@pytest.mark.parametrize(
    ("mutate", "rule", "vertex"),
    [
        (lambda p, lv: p.__setitem__(3, 7), "range", 3),
        (lambda p, lv: p.__setitem__(3, -2), "range", 3),
        (lambda p, lv: p.__setitem__(0, 1), "root", 0),
        # a cycle 3 -> 4 -> 3 cut off from the root
        (lambda p, lv: (p.__setitem__(3, 4), p.__setitem__(4, 3)), "1", 3),
        # 3's parent is outside the tree
        (lambda p, lv: p.__setitem__(3, 5), "1", 3),
        # 3 is its own parent (a one-vertex cycle)
        (lambda p, lv: p.__setitem__(3, 3), "1", 3),
        # returned levels disagree with the tree (tree edge 2->3 spans two levels)
        (lambda p, lv: lv.__setitem__(3, 3), "2", 3),
        # vertex 2 hangs below 1: tree levels 0,1,2,3,4 but edge (0, 2) spans 2 levels
        (lambda p, lv: p.__setitem__(2, 1), "3", 2),
        # 4 reported unreached although its neighbour 3 is reached
        (lambda p, lv: (p.__setitem__(4, -1), lv.__setitem__(4, -1)), "4", 4),
        # 3's parent becomes 1 (same level as 2, but no edge 1-3)
        (lambda p, lv: p.__setitem__(3, 1), "5", 3),
    ],
)
def test_each_rule_broken_on_purpose(mutate, rule, vertex):
    src, dst, parent, level = path_with_chord()
    parent, level = parent.copy(), level.copy()
    mutate(parent, level)
    with pytest.raises(Graph500ValidationError) as e:
        validate_bfs_tree(parent, src, dst, 0, level=level if rule == "2" else None)
    assert e.value.rule == rule
    assert e.value.vertex == vertex
    assert isinstance(e.value, VerificationError)
    assert f"rule {rule}" in str(e.value)


def test_rule_3_names_the_offending_edge():
    src, dst, parent, _ = path_with_chord()
    parent = parent.copy()
    parent[2] = 1
    with pytest.raises(Graph500ValidationError, match=r"edge \(0, 2\)") as e:
        validate_bfs_tree(parent, src, dst, 0)
    assert e.value.edge == (0, 2)


def test_directed_rules():
    src, dst = np.array([0, 1, 2]), np.array([1, 2, 0])  # directed 3-cycle
    assert validate_bfs_tree(np.array([0, 0, 1]), src, dst, 0, directed=True) == 3
    # an arc going up several levels is fine in a directed graph, a missing reach is not
    with pytest.raises(Graph500ValidationError) as e:
        validate_bfs_tree(np.array([0, 0, -1]), src, dst, 0, directed=True)
    assert e.value.rule == "4"
    # parent 0 -> 2 is not an arc (only 2 -> 0 is)
    with pytest.raises(Graph500ValidationError) as e:
        validate_bfs_tree(np.array([0, 0, 0]), src, dst, 0, directed=True)
    assert e.value.rule == "5"


def test_bad_arguments():
    src, dst, parent, _ = path_with_chord()
    with pytest.raises(InvalidArgumentError, match="root 9"):
        validate_bfs_tree(parent, src, dst, 9)
    with pytest.raises(InvalidArgumentError, match="outside"):
        validate_bfs_tree(parent, src, dst + 10, 0)
    with pytest.raises(InvalidArgumentError, match="integer"):
        validate_bfs_tree(parent.astype(float), src, dst, 0)
    with pytest.raises(InvalidArgumentError, match="equal length"):
        validate_bfs_tree(parent, src, dst[:-1], 0)


def test_tree_depths_of_a_long_path_use_few_rounds():
    n = 100_000
    parent = np.arange(-1, n - 1)
    parent[0] = 0
    assert tree_depths(parent, 0)[-1] == n - 1


@given(
    n=st.integers(2, 30),
    edges=st.lists(st.tuples(st.integers(0, 29), st.integers(0, 29)), min_size=1, max_size=80),
    data=st.data(),
)
def test_oracle_trees_validate_on_random_multigraphs(n, edges, data):
    edges = [(u % n, v % n) for u, v in edges]
    src = np.array([u for u, _ in edges])
    dst = np.array([v for _, v in edges])
    root = data.draw(st.integers(0, n - 1))
    level, parent = oracle_bfs(src, dst, n, root)
    assert validate_bfs_tree(parent, src, dst, root, level=level) == oracle_nedge(src, dst, n, root)
    # any reached vertex re-parented to a non-neighbour must fail (rule 1, 3 or 5)
    reached = np.flatnonzero((parent >= 0) & (np.arange(n) != root))
    if reached.size:
        v = int(data.draw(st.sampled_from(reached.tolist())))
        nbrs = set(dst[src == v].tolist()) | set(src[dst == v].tolist())
        others = [u for u in np.flatnonzero(parent >= 0).tolist() if u not in nbrs]
        if others:
            bad = parent.copy()
            bad[v] = data.draw(st.sampled_from(others))
            with pytest.raises(Graph500ValidationError):
                validate_bfs_tree(bad, src, dst, root)


# ----------------------------------------------------------------------------- SSSP validator
def sssp_case():
    src = np.array([0, 1, 0, 2, 3])
    dst = np.array([1, 2, 2, 3, 3])
    w = np.array([1.0, 1.0, 5.0, 0.5, 0.25])
    dist = np.array([0.0, 1.0, 2.0, 2.5, np.inf])
    parent = np.array([0, 0, 1, 2, -1])
    return src, dst, w, dist, parent


def test_valid_sssp_tree():
    src, dst, w, dist, parent = sssp_case()
    assert validate_sssp_tree(parent, dist, src, dst, w, 0, num_vertices=5) == 5


@pytest.mark.parametrize(
    ("mutate", "rule"),
    [
        (lambda p, d: d.__setitem__(0, 1.0), "distance"),
        (lambda p, d: d.__setitem__(3, np.inf), "distance"),
        (lambda p, d: d.__setitem__(4, 7.0), "distance"),
        # tree edge 1->2 carries 1.0 but the distances differ by 0.9 (every edge still within)
        (lambda p, d: (d.__setitem__(2, 1.9), d.__setitem__(3, 2.4)), "2"),
        (lambda p, d: (p.__setitem__(2, 0), d.__setitem__(2, 5.0), d.__setitem__(3, 5.5)), "3"),
        (lambda p, d: p.__setitem__(3, 1), "5"),
        (lambda p, d: (p.__setitem__(3, -1), d.__setitem__(3, np.inf)), "4"),
        (lambda p, d: (p.__setitem__(1, 2), p.__setitem__(2, 1)), "1"),
    ],
)
def test_sssp_rules_broken_on_purpose(mutate, rule):
    src, dst, w, dist, parent = sssp_case()
    parent, dist = parent.copy(), dist.copy()
    mutate(parent, dist)
    with pytest.raises(Graph500ValidationError) as e:
        validate_sssp_tree(parent, dist, src, dst, w, 0)
    assert e.value.rule == rule


def test_sssp_integer_distances_are_exact():
    src, dst, w = np.array([0, 1]), np.array([1, 2]), np.array([3, 4], dtype=np.int32)
    big = np.iinfo(np.int64).max
    ok = np.array([0, 3, 7, big])
    assert validate_sssp_tree(np.array([0, 0, 1, -1]), ok, src, dst, w, 0, num_vertices=4) == 2
    with pytest.raises(Graph500ValidationError):
        validate_sssp_tree(np.array([0, 0, 1, -1]), ok + np.array([0, 0, 1, 0]), src, dst, w, 0)


def test_sssp_oracle_on_kronecker():
    from warpgraph import Graph
    from warpgraph.generators import kronecker_edges, random_weights

    src, dst = kronecker_edges(8, 8, seed=3, device="cpu")
    w = random_weights(len(src), "graph500", seed=3, device="cpu")
    G = Graph.from_edges(
        src, dst, w, num_vertices=256, directed=False, merge="min", remove_self_loops=True
    )
    root = int(np.argmax(np.diff(G.indptr)))
    dist, parent = scipy_sssp_kernel(G, root)
    assert validate_sssp_tree(parent, dist, src, dst, w, root) == oracle_nedge(src, dst, 256, root)


# ----------------------------------------------------------------------------- statistics
def reference_statistics(x):
    """Direct transcription of the reference's order statistics (independent of NumPy sort)."""
    xx = sorted(x)
    n = len(xx)
    mean = sum(xx) / n
    var = sum((v - mean) ** 2 for v in xx) / (n - 1)
    return [
        xx[0],
        (xx[(n - 1) // 4] + xx[n // 4]) / 2,
        (xx[(n - 1) // 2] + xx[n // 2]) / 2,
        (xx[n - 1 - (n - 1) // 4] + xx[n - 1 - n // 4]) / 2,
        xx[-1],
        mean,
        math.sqrt(var),
    ]


@given(st.lists(st.floats(1e-6, 1e3), min_size=2, max_size=70))
def test_graph500_statistics_match_the_reference_formulas(x):
    got = graph500_statistics(x)
    exp = reference_statistics(x)
    for key, value in zip(
        ("min", "firstquartile", "median", "thirdquartile", "max", "mean", "stddev"),
        exp,
        strict=True,
    ):
        assert got[key] == pytest.approx(value, rel=1e-9, abs=1e-9)


@given(st.lists(st.tuples(st.floats(1e-6, 10.0), st.integers(1, 10**9)), min_size=2, max_size=64))
def test_teps_statistics_match_the_octave_formulation(pairs):
    t = np.array([p[0] for p in pairs])
    m = np.array([p[1] for p in pairs], dtype=float)
    got = teps_statistics(t, m)
    rates = m / t
    k = len(rates)
    hmean = k / np.sum(1.0 / rates)  # octave: mean(K2TEPS, 'h')
    hstd = np.sqrt(np.sum((1.0 / rates - 1.0 / hmean) ** 2)) / (k - 1) * hmean**2
    assert got["harmonic_mean_TEPS"] == pytest.approx(hmean, rel=1e-9)
    assert got["harmonic_stddev_TEPS"] == pytest.approx(hstd, rel=1e-6, abs=1e-9 * hmean)
    assert got["min_TEPS"] == pytest.approx(rates.min(), rel=1e-12)
    assert got["max_TEPS"] == pytest.approx(rates.max(), rel=1e-12)


def test_statistics_errors():
    with pytest.raises(InvalidArgumentError):
        graph500_statistics([])
    with pytest.raises(InvalidArgumentError):
        teps_statistics([1.0], [0])
    assert math.isnan(teps_statistics([1.0], [5])["harmonic_stddev_TEPS"])


# ----------------------------------------------------------------------------- runner
REFERENCE_LABELS = [
    "SCALE",
    "edgefactor",
    "NBFS",
    "graph_generation",
    "num_mpi_processes",
    "construction_time",
    *(
        f"bfs  {s}_time"
        for s in ("min", "firstquartile", "median", "thirdquartile", "max", "mean", "stddev")
    ),
    *(
        f"{s}_nedge"
        for s in ("min", "firstquartile", "median", "thirdquartile", "max", "mean", "stddev")
    ),
    *(f"bfs  {s}_TEPS" for s in ("min", "firstquartile", "median", "thirdquartile", "max")),
    "bfs  harmonic_mean_TEPS",
    "bfs  harmonic_stddev_TEPS",
]


def test_runner_with_scipy_bfs_matches_oracles():
    res = run_graph500(
        9, 8, device="cpu", num_keys=64, seed=4, bfs=scipy_bfs_kernel, energy_seconds=0
    )
    assert res.valid and res.nbfs == 64 and len(set(res.keys)) == 64
    from warpgraph.generators import kronecker_edges

    src, dst = kronecker_edges(9, 8, seed=4, device="cpu")
    deg = np.bincount(src[src != dst], minlength=512) + np.bincount(dst[src != dst], minlength=512)
    assert all(deg[k] > 0 for k in res.keys)
    assert res.bfs_nedges == [oracle_nedge(src, dst, 512, k) for k in res.keys]
    text = format_output(res)
    labels = [line[:32].rstrip().rstrip(":").replace(":     !", "") for line in text.splitlines()]
    assert labels[: len(REFERENCE_LABELS)] == REFERENCE_LABELS
    assert "bfs  harmonic_mean_TEPS:     !  " in text
    recs = graph500_records(res)
    assert recs[0]["algorithm"] == "graph500_bfs" and recs[0]["graph"]["scale"] == 9


def test_runner_reports_an_invalid_tree_loudly():
    def broken(G, root):
        levels, parents = scipy_bfs_kernel(G, root)
        far = int(np.argmax(levels))
        parents[far] = far  # a self-parented vertex: rule 1
        return levels, parents

    res = run_graph500(7, 8, device="cpu", num_keys=8, seed=1, bfs=broken, energy_seconds=0)
    assert not res.valid and res.failure_detail["rule"] == "1"
    assert format_output(res).startswith("No results printed for invalid run.")
    assert graph500_records(res) == []


def test_runner_with_sssp():
    res = run_graph500(
        7,
        8,
        device="cpu",
        num_keys=6,
        seed=2,
        bfs=scipy_bfs_kernel,
        sssp=True,
        sssp_kernel=scipy_sssp_kernel,
        energy_seconds=0,
    )
    assert res.valid and len(res.sssp_times) == 6
    assert res.sssp_nedges == res.bfs_nedges
    assert "sssp harmonic_mean_TEPS:     !  " in format_output(res)


@pytest.mark.parametrize("device", ["cpu", pytest.param("gpu", marks=pytest.mark.gpu)])
def test_cli_graph500_with_warpgraph_sssp(device, capsys):
    # kernels 2 and 3 are warpgraph's own: every tree passes the Graph500 checks
    assert main(["graph500", "--scale", "8", "--device", device, "--sssp", "-q"]) == 0
    out = capsys.readouterr().out
    assert "sssp harmonic_mean_TEPS:" in out and "VALIDATION FAILED" not in out


def test_cli_graph500_runs_and_fails_loudly(monkeypatch, capsys, tmp_path):
    def good(G, source, parents=False, device="auto"):
        return scipy_bfs_kernel(G, source)

    monkeypatch.setattr(warpgraph, "bfs", good, raising=False)
    out = tmp_path / "g500.jsonl"
    js = tmp_path / "g500.json"
    rc = main(
        [
            "graph500",
            "--scale",
            "7",
            "--edgefactor",
            "8",
            "--device",
            "cpu",
            "--keys",
            "8",
            "-q",
            "--energy-seconds",
            "0",
            "--results",
            str(out),
            "--json",
            str(js),
        ]
    )
    captured = capsys.readouterr()
    assert rc == 0, captured.err
    assert "NBFS:                           8" in captured.out
    assert out.read_text().count("\n") == 1 and js.stat().st_size > 0

    def bad(G, source, parents=False, device="auto"):
        levels, par = scipy_bfs_kernel(G, source)
        par[par == source] = -1  # children of the root lose their parent: rule 4 or 1
        par[source] = source
        return levels, par

    monkeypatch.setattr(warpgraph, "bfs", bad, raising=False)
    rc = main(
        [
            "graph500",
            "--scale",
            "7",
            "--edgefactor",
            "8",
            "--device",
            "cpu",
            "--keys",
            "4",
            "-q",
            "--energy-seconds",
            "0",
        ]
    )
    captured = capsys.readouterr()
    assert rc == 1
    assert "No results printed for invalid run." in captured.out
    assert "GRAPH500 VALIDATION FAILED" in captured.err


# ----------------------------------------------------------------------------- GPU
@pytest.mark.gpu
def test_validator_on_gpu_arrays_matches_cpu():
    import cupy as cp

    src, dst, parent, level = path_with_chord()
    assert (
        validate_bfs_tree(
            cp.asarray(parent), cp.asarray(src), cp.asarray(dst), 0, level=cp.asarray(level)
        )
        == 5
    )
    bad = parent.copy()
    bad[3] = 1
    with pytest.raises(Graph500ValidationError) as e:
        validate_bfs_tree(bad, cp.asarray(src), cp.asarray(dst), 0)
    assert e.value.rule == "5" and e.value.vertex == 3


@pytest.mark.gpu
def test_runner_on_gpu_with_scipy_kernel():
    res = run_graph500(
        10, 16, device="gpu", num_keys=16, seed=5, bfs=scipy_bfs_kernel, energy_seconds=0.2
    )
    assert res.valid and res.timer == "cuda_event" and res.nbfs == 16


@pytest.mark.gpu
def test_runner_on_gpu_with_warpgraph_bfs():
    if warpgraph_function("bfs") is None:
        pytest.skip("warpgraph.bfs not available yet")
    res = run_graph500(14, 16, device="gpu", num_keys=64, seed=1, energy_seconds=0.5)
    assert res.valid, res.failure
    assert res.bfs_teps["harmonic_mean_TEPS"] > 0


def test_runner_with_the_real_bfs_on_the_cpu():
    if warpgraph_function("bfs") is None:
        pytest.skip("warpgraph.bfs not available yet")
    res = run_graph500(8, 16, device="cpu", num_keys=4, seed=3, energy_seconds=0)
    assert res.valid, res.failure
    assert res.nbfs == 4
