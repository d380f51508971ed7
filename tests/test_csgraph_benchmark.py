"""benchmarks/csgraph.py: a tiny run compares every front-end function with SciPy's and writes
its record; bad arguments are refused before any work."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "benchmarks"))

import csgraph as csgraph_benchmark  # noqa: E402  (benchmarks/csgraph.py)


def test_a_tiny_run_agrees_with_scipy_and_writes_its_record(tmp_path, capsys):
    out = tmp_path / "csgraph.json"
    argv = ["--graph", "grid:12", "--fw-graph", "urand:5", "--bf-graph", "urand:6"]
    assert csgraph_benchmark.main([*argv, "--repeat", "1", "--out", str(out)]) == 0
    record = json.loads(out.read_text())
    assert record["nodes"] == 144 and record["fw_graph"] == "urand:5"
    names = [row["function"] for row in record["rows"]]
    assert "floyd_warshall" in names and "breadth_first_tree undirected" in names
    for row in record["rows"]:
        assert row["cpu"]["equal"], row["function"]
        assert row["cpu"]["median_s"] > 0 and row["scipy"]["median_s"] > 0
    assert "floyd_warshall" in capsys.readouterr().out


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["--repeat", "0"], "--repeat must be at least 1"),
        (["--graph", "kron:10"], "unknown graph 'kron:10'"),
        (["--fw-graph", "urand:x"], "unknown graph 'urand:x'"),
        (["--functions", "pagerank"], "no benchmark row starts with 'pagerank'"),
    ],
)
def test_bad_arguments_refused(argv, message, capsys):
    with pytest.raises(SystemExit) as exc:
        csgraph_benchmark.main(argv)
    assert exc.value.code == 2
    assert message in capsys.readouterr().err


def test_functions_picks_the_rows(tmp_path):
    out = tmp_path / "some.json"
    argv = ["--graph", "grid:6", "--repeat", "1", "--out", str(out)]
    assert csgraph_benchmark.main([*argv, "--functions", "dijkstra 1", "connected"]) == 0
    record = json.loads(out.read_text())
    names = [row["function"] for row in record["rows"]]
    assert record["fixed_threads"] is False
    assert all(row["threads"] >= 1 and row["load_1min"] >= 0 for row in record["rows"])
    assert names == [
        "connected_components undirected", "connected_components weak",
        "connected_components strong", "dijkstra 1 source", "dijkstra 1 source undirected",
        "dijkstra 1 source, predecessors",
    ]  # fmt: skip


def test_the_benchmark_graphs():
    grid = csgraph_benchmark.make_graph("grid:3")
    assert grid.shape == (9, 9) and grid.nnz == 24  # 12 lattice edges, both directions
    pattern = grid.astype(bool)
    assert (pattern != pattern.T).nnz == 0  # (the weights are drawn per arc)
    urand = csgraph_benchmark.make_graph("urand:6")
    assert urand.shape == (64, 64) and 0 < urand.nnz <= 8 * 64
    assert urand.has_canonical_format  # duplicate draws summed: integer weights from 1 up
    assert urand.data.min() >= 1 and (urand.data == urand.data.round()).all()


def test_fixed_threads_is_recorded_and_undone(tmp_path):
    """``--fixed-threads`` takes every Numba thread whatever the load (each row records the
    threads and the load) and leaves ``DYNAMIC_THREADS`` as it found it."""
    import numba

    from warpgraph.cpu import threads

    out = tmp_path / "fixed.json"
    argv = ["--graph", "grid:5", "--repeat", "1", "--out", str(out), "--fixed-threads"]
    assert csgraph_benchmark.main([*argv, "--functions", "dijkstra 1 source"]) == 0
    record = json.loads(out.read_text())
    assert record["fixed_threads"] is True
    assert {row["threads"] for row in record["rows"]} == {numba.get_num_threads()}
    assert threads.DYNAMIC_THREADS is True


def test_runs_are_interleaved_round_by_round(tmp_path):
    """SciPy and each device are called in turn, one call each per round, and each row keeps
    the rounds' times and the median of their ratios."""
    from _common import measure_interleaved

    calls = []
    timings = measure_interleaved({k: (lambda k=k: calls.append(k)) for k in "abc"}, repeat=3)
    assert calls == list("abcabcabc")
    assert all(len(t["times_s"]) == 3 and t["repeat"] == 3 for t in timings.values())

    out = tmp_path / "rounds.json"
    argv = ["--graph", "grid:5", "--repeat", "4", "--out", str(out)]
    assert csgraph_benchmark.main([*argv, "--functions", "breadth_first_order"]) == 0
    for row in json.loads(out.read_text())["rows"]:
        scipy_t, cpu = row["scipy"]["times_s"], row["cpu"]["times_s"]
        assert len(scipy_t) == len(cpu) == 4
        ratios = sorted(s / c for s, c in zip(scipy_t, cpu, strict=True))
        assert row["cpu"]["paired_speedup"] == pytest.approx((ratios[1] + ratios[2]) / 2)
