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
