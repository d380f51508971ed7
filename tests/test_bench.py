"""Benchmark harness: specs, sources, work counts, records, peers, GAPBS, Ctrl-C, report, CLI."""

from __future__ import annotations

import json
import os
import stat
import sys
import textwrap

import networkx as nx
import numpy as np
import pytest
from scipy.sparse import csgraph

from warpgraph import Graph
from warpgraph.bench.gapbs import GapbsError, parse_gapbs_output
from warpgraph.bench.graphs import (
    GraphInfo,
    add_weights,
    load_graph,
    parse_graph_spec,
    pick_sources,
)
from warpgraph.bench.harness import BenchPlan, run_plan
from warpgraph.bench.registry import Outcome, get_registry, register_algorithm, register_peer
from warpgraph.bench.report import markdown_table, speedups, system_label, write_report
from warpgraph.bench.results import SCHEMA, ResultWriter, read_results
from warpgraph.bench.timing import time_call
from warpgraph.cli.main import main
from warpgraph.errors import InvalidArgumentError, VerificationError

RECORD_KEYS = {
    "schema",
    "run_id",
    "time",
    "status",
    "error",
    "system",
    "system_version",
    "algorithm",
    "work_kind",
    "device",
    "config",
    "graph",
    "timer",
    "warmup",
    "runs",
    "times",
    "teps",
    "energy",
    "verified",
    "verified_runs",
    "prepare_seconds",
    "note",
    "env",
}


def random_graph(n=300, m=1200, seed=0, directed=False, isolated=0):
    rng = np.random.default_rng(seed)
    src = rng.integers(0, n - isolated, m)
    dst = rng.integers(0, n - isolated, m)
    return Graph.from_edges(src, dst, num_vertices=n, directed=directed)


def two_parts():
    """A triangle with a self-loop and a repeated edge, a separate path, an isolated vertex."""
    src = [0, 1, 2, 0, 1, 3, 4]
    dst = [1, 2, 0, 0, 2, 4, 5]
    return Graph.from_edges(src, dst, num_vertices=7, directed=False)


def scipy_levels(G, s, device, config):
    hops = csgraph.shortest_path(G.to("cpu").to_scipy(), unweighted=True, indices=s)
    return np.where(np.isfinite(hops), hops, -1).astype(np.int64)


@pytest.fixture
def registry():
    """The global registry, restored after the test (tests register throw-away adapters)."""
    r = get_registry()
    algos, peers = dict(r.algorithms), {k: dict(v) for k, v in r.peers.items()}
    yield r
    r.algorithms.clear()
    r.algorithms.update(algos)
    r.peers.clear()
    r.peers.update(peers)


# ----------------------------------------------------------------------------- specs and inputs
def test_parse_graph_spec():
    assert parse_graph_spec("kronecker:scale=20,edgefactor=8").kwargs == {
        "scale": 20,
        "edgefactor": 8,
    }
    s = parse_graph_spec("grid:1000x1000")
    assert (s.kind, s.args) == ("grid", (1000, 1000))
    assert parse_graph_spec("urand:18,seed=2").kwargs == {"scale": 18, "seed": 2}
    assert parse_graph_spec("road:n=100,jitter=0.5,weights=none").kwargs == {
        "n": 100,
        "jitter": 0.5,
        "weights": None,
    }
    with pytest.raises(InvalidArgumentError, match="neither an existing file"):
        parse_graph_spec("no/such/file.mtx")
    with pytest.raises(InvalidArgumentError, match="bad generator argument"):
        parse_graph_spec("kronecker:1=2")


def test_load_graph_from_generators_and_files(tmp_path):
    G = load_graph("grid:4x5")
    assert G.num_vertices == 20 and G.num_edges == 4 * 4 + 3 * 5
    assert load_graph("urand:scale=6,edgefactor=2").num_vertices == 64
    k1, k2 = load_graph("kronecker:6"), load_graph("kronecker:6")  # seeded by default
    assert np.array_equal(k1.indices, k2.indices)
    with pytest.raises(InvalidArgumentError, match="unknown generator 'nosuch'"):
        load_graph("nosuch:3")
    path = tmp_path / "g.el"
    path.write_text("0 1\n1 2\n")
    assert load_graph(str(path)).num_edges == 2


def test_pick_sources_rules():
    G = two_parts()  # vertex 6 isolated
    s = pick_sources(G, 64, seed=3)
    assert sorted(s.tolist()) == [0, 1, 2, 3, 4, 5]
    H = random_graph(500, 400, isolated=100)
    a, b = pick_sources(H, 64, seed=1), pick_sources(H, 64, seed=1)
    assert np.array_equal(a, b) and len(set(a.tolist())) == 64
    assert (np.diff(H.indptr)[a] > 0).all()
    loop_only = Graph.from_edges([0, 1], [0, 2], num_vertices=3, directed=False)
    assert sorted(pick_sources(loop_only, 5).tolist()) == [1, 2]
    with pytest.raises(InvalidArgumentError):
        pick_sources(G, 0)


def test_add_weights_symmetric_and_in_range():
    G = random_graph()
    for kind, lo, hi, dtype in (("gap", 1, 255, np.int32), ("graph500", 0.0, 1.0, np.float32)):
        W = add_weights(G, kind, seed=2)
        A = W.to_scipy()
        assert W.weights.dtype == dtype and (A != A.T).nnz == 0
        assert W.weights.min() >= lo and W.weights.max() <= hi
        assert np.array_equal(W.indices, G.indices)
    with pytest.raises(InvalidArgumentError):
        add_weights(G, "nope")


def test_traversal_work_matches_networkx_components():
    G = two_parts()
    info = GraphInfo(G)
    # triangle part: edges (0,1) (1,2) (2,0) (0,0) (1,2 again) = 5 edges, 9 arcs
    assert info.traversal_work(0) == {"edges": 5, "arcs": 9}
    assert info.traversal_work(4) == {"edges": 2, "arcs": 4}
    G = random_graph(400, 500, seed=4)
    info = GraphInfo(G)
    H = nx.MultiGraph()
    H.add_nodes_from(range(G.num_vertices))
    src, dst, _ = G.edges()
    H.add_edges_from(zip(src.tolist(), dst.tolist(), strict=True))
    for s in pick_sources(G, 10, seed=0):
        comp = nx.node_connected_component(H, int(s))
        expected = H.subgraph(comp).number_of_edges()
        assert info.traversal_work(int(s))["edges"] == expected


def test_traversal_work_directed_follows_out_arcs():
    G = Graph.from_edges([0, 1, 2, 3], [1, 2, 0, 0], num_vertices=5, directed=True)
    info = GraphInfo(G)
    assert info.traversal_work(0) == {"edges": 3, "arcs": 3}  # 3 -> 0 is not reached
    assert info.traversal_work(3) == {"edges": 4, "arcs": 4}


def test_time_call_cpu():
    t = time_call(lambda: 41 + 1, "cpu")
    assert t.result == 42 and t.timer == "wall" and t.seconds >= 0


# ----------------------------------------------------------------------------- the harness
def test_records_of_a_traversal_with_peers(registry, tmp_path):
    calls = []

    def verify(info, s, result):
        calls.append(s)
        expected = scipy_levels(info.graph, s, "cpu", {})
        if not np.array_equal(result, expected):
            raise VerificationError("levels differ")

    register_algorithm("t_levels", scipy_levels, verify=verify, devices=("cpu",))
    register_peer(
        "scipy",
        "t_levels",
        lambda G: G.to_scipy(),
        lambda A, s: csgraph.breadth_first_order(A, s, directed=True),
    )
    register_peer("slowlib", "t_levels", lambda G: G, lambda G, s: None, max_arcs=10)
    register_peer(
        "absent",
        "t_levels",
        lambda G: G,
        lambda G, s: None,
        available=lambda: "absent is not installed",
    )
    out = tmp_path / "r.jsonl"
    G = random_graph(200, 600)
    plan = BenchPlan(
        algorithms=["t_levels"],
        graphs=[("rg", G)],
        devices=["cpu"],
        sources=6,
        repeat=2,
        output=str(out),
        energy_seconds=0,
    )
    recs = run_plan(plan)
    assert [r["system"] for r in recs] == ["warpgraph", "scipy", "slowlib", "absent"]
    ours, scipy_rec, slow, absent = recs
    assert set(ours) == RECORD_KEYS and ours["schema"] == SCHEMA
    assert ours["status"] == "ok" and ours["verified"] is True and ours["verified_runs"] == 4
    assert len(calls) == 4
    assert len(ours["runs"]) == 12 and ours["timer"] == "wall"
    info = GraphInfo(G)
    for run in ours["runs"]:
        assert run["edges"] == info.traversal_work(run["source"])["edges"]
    teps = [run["edges"] / run["seconds"] for run in ours["runs"]]
    assert ours["teps"]["max_TEPS"] == pytest.approx(max(teps))
    assert ours["teps"]["harmonic_mean_TEPS"] == pytest.approx(len(teps) / sum(1 / x for x in teps))
    assert ours["graph"]["name"] == "rg" and ours["graph"]["n"] == 200
    assert [r["source"] for r in scipy_rec["runs"]] == [r["source"] for r in ours["runs"]]
    assert scipy_rec["status"] == "ok" and scipy_rec["verified"] is None
    assert slow["status"] == "skipped" and "size guard" in slow["error"]
    assert absent["status"] == "skipped" and absent["error"] == "absent is not installed"
    on_disk = read_results([out])
    assert [r["system"] for r in on_disk] == [r["system"] for r in recs]
    assert all(r["run_id"] == ours["run_id"] for r in on_disk)


def test_failures_are_recorded_and_the_run_goes_on(registry, tmp_path):
    register_algorithm(
        "t_wrong",
        lambda G, s, d, c: np.zeros(G.num_vertices),
        verify=lambda info, s, r: (_ for _ in ()).throw(VerificationError("bad")),
    )
    register_algorithm("t_crash", lambda G, s, d, c: 1 / 0, work="graph", sources=False)
    register_algorithm(
        "t_outcome",
        lambda G, s, d, c: Outcome(None, {"edges": 10, "arcs": 20}),
        work="graph",
        sources=False,
    )
    plan = BenchPlan(
        algorithms=["t_wrong", "t_crash", "t_outcome"],
        graphs=[two_parts()],
        devices=["cpu"],
        peers=[],
        trials=3,
        output=str(tmp_path / "r.jsonl"),
        energy_seconds=0,
    )
    wrong, crash, outcome = run_plan(plan)
    assert wrong["status"] == "failed" and wrong["verified"] is False
    assert "verification failed: bad" in wrong["error"]
    assert crash["status"] == "failed" and crash["error"].startswith("ZeroDivisionError")
    assert outcome["status"] == "ok" and len(outcome["runs"]) == 3
    assert all(r["edges"] == 10 and r["arcs"] == 20 for r in outcome["runs"])


def test_ctrl_c_keeps_finished_records(registry, tmp_path):
    state = {"calls": 0}

    def interrupt_later(G, s, d, c):
        state["calls"] += 1
        raise KeyboardInterrupt

    register_algorithm("t_fine", lambda G, s, d, c: None, work="graph", sources=False)
    register_algorithm("t_ctrl_c", interrupt_later, work="graph", sources=False)
    out = tmp_path / "r.jsonl"
    plan = BenchPlan(
        algorithms=["t_fine", "t_ctrl_c"],
        graphs=[two_parts()],
        devices=["cpu"],
        peers=[],
        output=str(out),
        energy_seconds=0,
    )
    with pytest.raises(KeyboardInterrupt):
        run_plan(plan)
    kept = read_results([out])
    assert [r["algorithm"] for r in kept] == ["t_fine"] and state["calls"] == 1


def test_unavailable_algorithm_and_bad_plan(registry, tmp_path):
    register_algorithm("t_future", lambda *a: None, available=lambda: "arrives with issue 99")
    (rec,) = run_plan(
        BenchPlan(algorithms=["t_future"], graphs=[two_parts()], devices=["cpu"], energy_seconds=0)
    )
    assert rec["status"] == "skipped" and "issue 99" in rec["error"]
    with pytest.raises(InvalidArgumentError, match="unknown algorithm"):
        run_plan(BenchPlan(algorithms=["nope"], graphs=[], devices=["cpu"]))
    with pytest.raises(InvalidArgumentError, match="verify"):
        run_plan(BenchPlan(algorithms=["csr_build"], graphs=[], verify="sometimes"))


def test_builtin_csr_build_with_scipy_peer_and_weights(registry):
    recs = run_plan(
        BenchPlan(
            algorithms=["csr_build"],
            graphs=["grid:20x30"],
            devices=["cpu"],
            trials=3,
            energy_seconds=0,
        )
    )
    ours = recs[0]
    assert ours["status"] == "ok" and ours["verified"] is True and ours["work_kind"] == "graph"
    assert ours["runs"][0]["edges"] == 20 * 29 + 19 * 30
    assert {r["system"] for r in recs} >= {"warpgraph", "scipy"}
    seen = {}

    def capture(G, s, d, c):
        seen["w"] = G.weights
        return None

    register_algorithm("t_weighted", capture, weights="gap", devices=("cpu",))
    (rec,) = run_plan(
        BenchPlan(
            algorithms=["t_weighted"],
            graphs=[two_parts()],
            devices=["cpu"],
            peers=[],
            sources=2,
            energy_seconds=0,
        )
    )
    assert rec["graph"]["weighted"] is True and seen["w"] is not None


# ----------------------------------------------------------------------------- GAPBS
FAKE_GAPBS = """\
#!{python}
import sys
args = sys.argv[1:]
n = int(args[args.index("-n") + 1])
open({log!r}, "a").write(" ".join(args) + "\\n")
print("Read Time:           0.00100")
print("Graph has 7 nodes and 5 undirected edges for degree: 0")
for i in range(n):
    print("Trial Time:          %.5f" % ((i + 1) * 1e-4))
print("Average Time:        0.00010")
"""


def test_gapbs_peer_with_a_fake_binary(registry, tmp_path):
    log = tmp_path / "calls.txt"
    exe = tmp_path / "bfs"
    exe.write_text(FAKE_GAPBS.format(python=sys.executable, log=str(log)))
    exe.chmod(exe.stat().st_mode | stat.S_IEXEC)
    register_algorithm("t_gap", scipy_levels, gapbs_kernel="bfs", devices=("cpu",))
    plan = BenchPlan(
        algorithms=["t_gap"],
        graphs=[("two", two_parts())],
        devices=["cpu"],
        peers=[],
        gapbs=str(tmp_path),
        sources=3,
        energy_seconds=0,
    )
    recs = run_plan(plan)
    gap = recs[-1]
    assert gap["system"] == "gapbs" and gap["status"] == "ok", gap["error"]
    assert [r["seconds"] for r in gap["runs"]] == [0.0001, 0.0002, 0.0003]
    assert gap["teps"] is None and "-s" in log.read_text().split()
    plan.gapbs_sources = "same"
    gap = run_plan(plan)[-1]
    assert gap["status"] == "ok" and gap["teps"] is not None
    assert log.read_text().split().count("-r") == 3  # tokens: temp dir names may hold "-r"
    register_algorithm("t_nogap", scipy_levels, devices=("cpu",))
    plan.algorithms = ["t_nogap"]
    assert run_plan(plan)[-1]["status"] == "skipped"


def test_parse_gapbs_output():
    text = textwrap.dedent(
        """\
        Read Time:           0.50000
        Build Time:          0.25000
        Graph has 1048576 nodes and 15699691 undirected edges for degree: 14
        Trial Time:          0.00274
        Verification:           PASS
        Verification Time:   0.10000
        Trial Time:          0.00300
        Average Time:        0.00287
        """
    )
    p = parse_gapbs_output(text)
    assert p["trial_times"] == [0.00274, 0.003] and p["verification"] == ["PASS"]
    assert (p["read_time"], p["build_time"], p["average_time"]) == (0.5, 0.25, 0.00287)
    assert (p["num_nodes"], p["num_edges"], p["directed"]) == (1048576, 15699691, False)
    with pytest.raises(GapbsError):
        parse_gapbs_output("Segmentation fault\n")


# ----------------------------------------------------------------------------- results, report
def test_writer_reader_edge_cases(tmp_path):
    path = tmp_path / "r.jsonl"
    with ResultWriter(path) as w:
        w.write({"schema": SCHEMA, "x": float("nan"), "y": np.float32(1.5), "z": np.int64(3)})
    with open(path, "a") as f:
        f.write('{"schema": "warpgraph.bench/2"}\n{"truncated": \n\n')
    with pytest.warns(UserWarning):
        recs = read_results([path])
    assert recs == [{"schema": SCHEMA, "x": None, "y": 1.5, "z": 3, "_file": str(path)}]
    with pytest.raises(InvalidArgumentError, match="no such result file"):
        read_results([tmp_path / "missing.jsonl"])


def fake_record(
    graph,
    system,
    seconds,
    device="cpu",
    gteps=None,
    scale=10,
    algorithm="bfs",
    time="2026-01-01T00:00:00Z",
    status="ok",
):
    return {
        "schema": SCHEMA,
        "status": status,
        "system": system,
        "device": device,
        "config": {},
        "algorithm": algorithm,
        "work_kind": "traversal",
        "graph": {"name": graph, "scale": scale},
        "times": {"median_s": seconds},
        "teps": None if gteps is None else {"gteps": gteps},
        "time": time,
        "run_id": "r1",
        "env": {"cpu": "test cpu", "versions": {}},
        "error": None if status == "ok" else "why",
        "energy": {
            "energy_j": 2.0,
            "avg_power_w": 100.0,
            "peak_power_w": 150.0,
            "energy_per_run_j": 0.01,
            "teps_per_watt": 1e8,
            "method": "nvml_energy_counter",
            "throttle_reasons": ["sw_power_cap"],
        }
        if device == "gpu"
        else None,
    }


def test_report_tables_and_plots(tmp_path):
    recs = [
        fake_record("k10", "warpgraph", 0.001, "gpu", gteps=2.0, scale=10),
        fake_record("k10", "warpgraph", 0.004, "cpu", gteps=0.5, scale=10),
        fake_record("k10", "scipy", 0.010, scale=10),
        fake_record("k12", "warpgraph", 0.002, "gpu", gteps=4.0, scale=12),
        fake_record("k12", "warpgraph", 0.009, "gpu", gteps=1.0, scale=12, time="2025-01-01"),
        fake_record("k12", "networkx", 0.5, scale=12),
        fake_record("k12", "igraph", None, scale=12, status="skipped"),
    ]
    table = markdown_table(recs)
    assert "| k10 | bfs | 1.00 ms (2 GTEPS) | 4.00 ms (0.5 GTEPS) | - | 10.00 ms |" in table
    assert "2.00 ms (4 GTEPS)" in table  # the newest k12 record wins
    sp = {(g, s, p): x for g, _a, s, p, x in speedups(recs)}
    assert sp[("k10", "warpgraph/gpu", "scipy")] == pytest.approx(10.0)
    assert sp[("k12", "warpgraph/gpu", "networkx")] == pytest.approx(250.0)
    path = tmp_path / "r.jsonl"
    with ResultWriter(path) as w:
        for r in recs:
            w.write(r)
    out = write_report([path], tmp_path / "rep")
    md = open(out["markdown"]).read()
    assert "## Speedup over peers" in md and "10x" in md and "sw_power_cap" in md
    assert "igraph: **skipped** - why" in md
    pytest.importorskip("matplotlib")
    names = sorted(os.path.basename(p) for p in out["images"])
    assert names == sorted(
        f"{s}.{e}" for s in ("gteps_vs_scale", "speedup", "time_per_graph") for e in ("png", "svg")
    )
    assert all(os.path.getsize(p) > 1000 for p in out["images"])
    assert system_label({"system": "warpgraph", "device": "cpu", "config": {"a": 1}}) == (
        "warpgraph/cpu [a=1]"
    )


# ----------------------------------------------------------------------------- CLI
def test_cli_bench_report_and_list(tmp_path, capsys):
    out = tmp_path / "b.jsonl"
    rc = main(
        [
            "bench",
            "-a",
            "csr_build",
            "-a",
            "stats",
            "-g",
            "grid:8x8",
            "-g",
            "kronecker:7",
            "--device",
            "cpu",
            "--peers",
            "scipy",
            "--trials",
            "2",
            "--energy-seconds",
            "0",
            "-o",
            str(out),
        ]
    )
    assert rc == 0, capsys.readouterr().err
    recs = [json.loads(line) for line in out.read_text().splitlines()]
    assert {(r["algorithm"], r["system"]) for r in recs} == {
        ("csr_build", "warpgraph"),
        ("csr_build", "scipy"),
        ("stats", "warpgraph"),
    }
    assert len(recs) == 6 and all(r["status"] == "ok" for r in recs)
    assert main(["report", str(out), "-o", str(tmp_path / "rep"), "--no-plots"]) == 0
    assert (tmp_path / "rep" / "report.md").exists()
    assert main(["bench", "--list"]) == 0
    assert "csr_build" in capsys.readouterr().out
    assert main(["bench", "-a", "csr_build"]) == 2
    assert main(["bench", "-a", "csr_build", "-g", "grid:2x2", "--config", "oops"]) == 2


# ----------------------------------------------------------------------------- GPU
@pytest.mark.gpu
def test_time_call_gpu_uses_cuda_events():
    import cupy as cp

    x = cp.arange(1 << 22, dtype=cp.float32)
    t = time_call(lambda: (x * 2).sum(), "gpu")
    assert t.timer == "cuda_event" and 0 < t.seconds <= t.wall_seconds + 1e-3


@pytest.mark.gpu
def test_harness_on_gpu_csr_build(tmp_path):
    recs = run_plan(
        BenchPlan(
            algorithms=["csr_build"],
            graphs=["kronecker:14"],
            devices=["gpu", "cpu"],
            peers=["scipy"],
            trials=4,
            energy_seconds=0.3,
            output=str(tmp_path / "g.jsonl"),
        )
    )
    gpu = next(r for r in recs if r["device"] == "gpu" and r["system"] == "warpgraph")
    assert gpu["status"] == "ok", gpu["error"]
    assert gpu["timer"] == "cuda_event" and gpu["verified"] is True
    assert gpu["env"]["gpu"]["name"]
    pytest.importorskip("pynvml")
    assert gpu["energy"] is not None and gpu["energy"]["energy_j"] is not None
    assert gpu["energy"]["avg_power_w"] > 0


@pytest.mark.gpu
def test_harness_on_gpu_bfs_when_available(tmp_path):
    from warpgraph.bench.adapters import warpgraph_function

    if warpgraph_function("bfs") is None:
        pytest.skip("warpgraph.bfs not available yet")
    recs = run_plan(
        BenchPlan(
            algorithms=["bfs"],
            graphs=["kronecker:16"],
            devices=["gpu"],
            peers=["scipy"],
            sources=16,
            energy_seconds=0.3,
            output=str(tmp_path / "b.jsonl"),
        )
    )
    ours = recs[0]
    assert ours["status"] == "ok" and ours["verified"] is True, ours["error"]
    assert ours["teps"]["gteps"] > 0


def test_harness_runs_the_real_bfs_on_the_cpu(tmp_path):
    from warpgraph.bench.adapters import warpgraph_function

    if warpgraph_function("bfs") is None:
        pytest.skip("warpgraph.bfs not available yet")
    recs = run_plan(
        BenchPlan(
            algorithms=["bfs"],
            graphs=["kronecker:8", "grid:10x12"],
            devices=["cpu"],
            peers=["scipy"],
            sources=4,
            configs=[{}, {"parents": True}],
            energy_seconds=0,
        )
    )
    ours = [r for r in recs if r["system"] == "warpgraph"]
    assert len(ours) == 4
    for r in ours:
        assert r["status"] == "ok" and r["verified"] is True, r["error"]
        assert r["teps"]["gteps"] > 0


FAMILY_ALGORITHMS = ["sssp", "wcc", "scc", "triangles", "kcore", "ktruss", "triads"]


@pytest.mark.parametrize("device", ["cpu", pytest.param("gpu", marks=pytest.mark.gpu)])
def test_every_algorithm_family_runs_verified_beside_its_peers(device):
    # each family's bench.py adapter: timed, verified, and at least one peer agrees to run
    recs = run_plan(
        BenchPlan(
            algorithms=FAMILY_ALGORITHMS,
            graphs=["kronecker:7"],
            devices=[device],
            peers=["scipy", "networkx"],
            sources=2,
            repeat=1,
            energy_seconds=0,
        )
    )
    ours = {r["algorithm"]: r for r in recs if r["system"] == "warpgraph"}
    assert sorted(ours) == sorted(FAMILY_ALGORITHMS)
    for name, rec in ours.items():
        assert rec["status"] == "ok" and rec["verified"] is True, (name, rec.get("error"))
    peers = {r["algorithm"] for r in recs if r["system"] != "warpgraph" and r["status"] == "ok"}
    assert peers >= {"sssp", "wcc", "scc", "triangles", "kcore", "triads"}
