"""benchmarks/pagerank.py: a tiny CPU run times warpgraph beside SciPy and NetworkX, checks every
answer and writes its record; bad arguments are refused before any work."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import numpy as np
import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "benchmarks"))

import pagerank as pagerank_benchmark  # noqa: E402  (benchmarks/pagerank.py)

import warpgraph as wg  # noqa: E402


def test_a_tiny_run_checks_every_answer_and_writes_its_record(tmp_path, capsys):
    G = wg.Graph.from_edges(
        [0, 0, 1, 2, 3], [1, 2, 2, 0, 4], weights=[1.0, 3.0, 1.0, 2.0, 5.0], directed=True
    )
    path = tmp_path / "small.mtx"
    wg.save(G, path)
    out = tmp_path / "pagerank.json"
    argv = ["--graphs", f"kron:6,urand:6,grid:5,{path}", "--device", "cpu", "--repeat", "2"]
    assert pagerank_benchmark.main([*argv, "--networkx", "--out", str(out)]) == 0
    record = json.loads(out.read_text())
    assert record["benchmark"] == "pagerank"
    assert {"warpgraph", "scipy", "numba", "gpu"} <= set(record["environment"])
    rows = record["results"]
    assert [r["graph"] for r in rows] == [
        "kron-6-directed",
        "urand-6-directed",
        "grid-5x5",
        "small",
    ]
    assert rows[3]["weighted"] and rows[3]["dangling"] == 1 and rows[3]["arcs"] == 5
    for row in rows:
        res = row["results"]
        assert set(res) == {"scipy", "cpu", "networkx"}
        cpu, scipy = res["cpu"], res["scipy"]
        assert cpu["verified"] and cpu["agrees_with_scipy"] and res["networkx"]["agrees_with_scipy"]
        assert cpu["iterations"] == scipy["iterations"] > 0
        assert len(cpu["times_s"]) == 2 and cpu["min_s"] <= cpu["median_s"] <= cpu["max_s"]
        want = row["arcs"] * cpu["iterations"] / cpu["median_s"] / 1e9
        assert cpu["gteps"] == pytest.approx(want)
        assert cpu["s_per_iteration"] == pytest.approx(cpu["median_s"] / cpu["iterations"])
    assert "wrote" in capsys.readouterr().out


def test_scipy_untimed_above_its_arc_limit_still_checks(tmp_path, capsys):
    out = tmp_path / "pagerank.json"
    argv = ["--graphs", "kron:6", "--device", "cpu", "--repeat", "2", "--scipy-max-arcs", "10"]
    assert pagerank_benchmark.main([*argv, "--out", str(out)]) == 0
    (row,) = json.loads(out.read_text())["results"]
    assert set(row["results"]) == {"cpu"}
    cpu = row["results"]["cpu"]
    assert cpu["verified"] and cpu["agrees_with_scipy"] and "speedup_vs_scipy" not in cpu
    assert cpu["iterations"] == row["scipy_steps"] > 0
    assert "kron-6-directed" in capsys.readouterr().out


def test_the_scipy_peer_is_networkx_formula():
    import networkx as nx

    from warpgraph.demo import pagerank_scipy

    G = wg.generators.kronecker(7, 8, seed=3, directed=True, device="cpu")
    A = pagerank_benchmark.scipy_matrix(G, weighted=False)
    ranks, steps = pagerank_scipy(A, alpha=0.9, tol=1e-8)
    H = G.to_networkx()
    want = nx.pagerank(H, alpha=0.9, tol=1e-8, backend="networkx")
    np.testing.assert_allclose(ranks, [want[v] for v in range(G.num_vertices)], atol=1e-14)
    assert steps > 1


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["--repeat", "0"], "--repeat must be at least 1"),
        (["--device", "tpu"], "--device must be auto or a list of cpu, gpu"),
        (["--alpha", "2"], "need 0 <= --alpha <= 1"),
    ],
)
def test_bad_arguments_refused(argv, message, capsys):
    with pytest.raises(SystemExit) as exc:
        pagerank_benchmark.main(argv)
    assert exc.value.code == 2
    assert message in capsys.readouterr().err


# ---------------------------------------------------------------- the `warpgraph bench` adapter
def test_bench_adapter_counts_work_per_step_and_verifies():
    from warpgraph.bench.harness import BenchPlan, run_plan

    pytest.importorskip("networkx")
    grid_edges = 20 * 29 + 19 * 30
    recs = run_plan(
        BenchPlan(
            algorithms=["pagerank"],
            graphs=["grid:20x30"],
            devices=["cpu"],
            peers=["scipy", "networkx"],
            configs=[{"tol": 1e-10, "alpha": 0.9}],
            trials=2,
            energy_seconds=0,
        )
    )
    by_system = {r["system"]: r for r in recs}
    ours, scipy_rec, nx_rec = by_system["warpgraph"], by_system["scipy"], by_system["networkx"]
    assert ours["status"] == "ok" and ours["verified"] is True
    steps = ours["runs"][0]["edges"] // grid_edges
    assert ours["runs"][0]["edges"] == steps * grid_edges and steps > 20  # alpha 0.9, tol 1e-10
    assert ours["teps"] is not None
    assert scipy_rec["status"] == "ok" and scipy_rec["runs"][0]["edges"] % grid_edges == 0
    assert scipy_rec["runs"][0]["edges"] < ours["runs"][0]["edges"]  # NetworkX's tol: fewer
    assert nx_rec["status"] == "ok" and nx_rec["teps"] is None  # its steps are not known


def test_bench_adapter_verifier_refuses_wrong_ranks():
    from warpgraph.algorithms.pagerank.bench import PageRankRun, _verify
    from warpgraph.bench.graphs import GraphInfo
    from warpgraph.errors import VerificationError

    G = wg.Graph.from_edges([0, 1, 2, 2], [1, 2, 0, 3], directed=True)
    ranks, steps = wg.pagerank(G, device="cpu", tol=1e-10, return_iterations=True)
    info = GraphInfo(G, full_stats=False)
    _verify(info, None, PageRankRun(ranks, steps, 0.85, 1e-10, True))
    wrong = ranks.copy()
    wrong[[1, 2]] = wrong[[2, 1]]
    with pytest.raises(VerificationError):
        _verify(info, None, PageRankRun(wrong, steps, 0.85, 1e-10, True))
    with pytest.raises(VerificationError):  # right ranks, checked at another alpha
        _verify(info, None, PageRankRun(ranks, steps, 0.5, 1e-10, True))
