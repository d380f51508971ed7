"""benchmarks/nx_standing.py: the targets table read from result files (latest session per
function, graph and device; stale, unknown, wrong and missed figures told apart)."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

pytest.importorskip("networkx")
sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "benchmarks"))

import nx_standing  # noqa: E402


def _backend_file(path: Path, threads: int, date: str, rows: list[dict]) -> None:
    env = {"date": date, "cpu_threads": threads, "gpu": {}}
    path.write_text(json.dumps({"benchmark": "networkx_cpu_gpu", "environment": env,
                                "results": rows}))  # fmt: skip


def _row(name: str, graph: str, cpu: float | None, gpu: float | None, **extra) -> dict:
    row = {"graph": graph, "algorithm": name, "networkx_s": 1.0}
    for device, x in (("cpu", cpu), ("gpu", gpu)):
        if x is not None:
            row[device] = {"cold_s": 1.0 / x, "speedup_cold": x, "verified": True} | extra
    return row


@pytest.fixture
def results(tmp_path: Path) -> Path:
    _backend_file(tmp_path / "networkx_h200_20261203_s44_grid.json", 16, "2026-12-03 10:00:00 UTC",
                  [_row("triangles", "grid:708", 30.0, 90.0),
                   _row("pagerank", "grid:708", 25.0, 95.0),
                   _row("k_truss", "grid:708", 50.0, 150.0)])  # fmt: skip
    # a later session's targeted run replaces pagerank only
    _backend_file(tmp_path / "nx_pagerank_h200_20261205_s52.json", 16, "2026-12-05 05:00:00 UTC",
                  [_row("pagerank", "grid:708", None, 110.0)])  # fmt: skip
    # a 2-core file: not read at 16 threads
    _backend_file(tmp_path / "networkx_cpu2_20261205_s53.json", 2, "2026-12-05 09:00:00 UTC",
                  [_row("k_truss", "grid:708", 1.0, None)])  # fmt: skip
    # a 16-thread host with Numba capped at 2 threads: not read at 16 either
    (tmp_path / "networkx_numba2_h100_20261206_s57.json").write_text(json.dumps({
        "benchmark": "networkx_cpu",
        "environment": {"date": "2026-12-06 05:00:00 UTC", "cpu_threads": 16,
                        "numba_threads": 2, "gpu": {}},
        "results": [_row("k_truss", "grid:708", 2.0, None)]}))  # fmt: skip
    # NetworkX stopped at its limit (unchecked lower bounds) and a result found unequal
    _backend_file(tmp_path / "networkx_h200_20261204_s48_more.json", 16, "2026-12-04 10:00:00 UTC",
                  [_row("diameter", "grid:708", 11.0, 300.0, verified=None,
                        speedup_is_lower_bound=True),
                   _row("core_number", "grid:708", 40.0, None, verified=False)])  # fmt: skip
    # one-node rows from before the script recorded the device: the GPU's where one was seen
    (tmp_path / "nx_one_node_gpu_path_h200_20261205_s51.json").write_text(json.dumps({
        "benchmark": "nx_one_node",
        "environment": {"date": "2026-12-05 01:00:00 UTC", "cpu_threads": 16,
                        "gpu": {"gpu 0": "NVIDIA H200"}},
        "rows": [{"graph": "grid:708", "case": "eccentricity(v)", "networkx_s": 0.3,
                  "warpgraph_cold_s": 0.01, "speedup": 30.0}]}))  # fmt: skip
    (tmp_path / "not_a_result_s50.json").write_text("[1, 2]")
    return tmp_path


def test_latest_session_wins_and_other_hosts_are_left_out(results):
    figures = nx_standing.latest(sorted(results.glob("*.json")), threads=16)
    assert figures[("grid:708", "pagerank", "gpu")].session == 52
    assert figures[("grid:708", "pagerank", "cpu")].session == 44  # (s52 timed the GPU only)
    assert figures[("grid:708", "k_truss", "cpu")].speedup == 50.0  # (not 2 cores, 2 threads)
    assert figures[("grid:708", "eccentricity(v)", "gpu")].speedup == 30.0
    assert ("grid:708", "k_truss", "cpu") not in nx_standing.latest(
        sorted(results.glob("*.json")), threads=8
    )


def test_table_marks_misses_bounds_wrong_and_stale(results, monkeypatch):
    figures = nx_standing.latest(sorted(results.glob("*.json")), threads=16)
    changed = {("triangles", "gpu"): "2026-12-04 00:00:00"}  # (the table's own: not the files')
    monkeypatch.setattr(nx_standing, "CHANGED_AT", changed)
    names = ["triangles", "pagerank", "k_truss", "diameter", "core_number", "eccentricity(v)",
             "wiener_index"]  # fmt: skip
    table, missing = nx_standing.standing_table(figures, names, ["grid:708"])
    rows = {
        line.split("|")[1].strip(): line for line in table.splitlines() if line.startswith("| `")
    }
    assert "| 30.0x (s44) | 90.0x (s44) **miss** (stale) |" in rows["`triangles`"]
    assert "| 25.0x (s44) | 110.0x (s52) |" in rows["`pagerank`"]
    assert ">11.0x (s48, NetworkX stopped)" in rows["`diameter`"]  # (a bound under 20x)
    assert ">300.0x (s48) |" in rows["`diameter`"]  # (a bound over 100x: met)
    assert "**WRONG** (s48)" in rows["`core_number`"]
    assert "| | 30.0x (s51) **miss** |" in rows["`eccentricity(v)`"].replace("|  |", "| |")
    assert missing == ["wiener_index"]
    # CPU: triangles, pagerank, k_truss met; core_number wrong; diameter's bound not counted
    assert "| **met** | 3 of 4 >= 20x | 3 of 5 >= 100x |" in table


def test_main_prints_the_table(results, capsys):
    nx_standing.main(["--results", str(results), "--graphs", "grid:708"])
    out = capsys.readouterr().out
    assert out.startswith("| function | grid:708 CPU | grid:708 GPU |")
    assert "No 16-thread figure on these graphs:" in out


def test_session_of_takes_the_last_number():
    assert nx_standing.session_of("nx_s49s50_functions_grid_h200_20261205_s51.json") == 51
    assert nx_standing.session_of("networkx_cpu2.json") is None


def test_stale_cells_give_the_commands_that_time_them_again(results, monkeypatch, capsys):
    figures = nx_standing.latest(sorted(results.glob("*.json")), threads=16)
    day4, day6 = "2026-12-04 00:00:00", "2026-12-06 00:00:00"
    changed = {("triangles", "gpu"): day4, "k_truss": day4, "pagerank": day4,
               "eccentricity(v)": day6}  # fmt: skip
    monkeypatch.setattr(nx_standing, "CHANGED_AT", changed)
    names = ["triangles", "pagerank", "k_truss", "eccentricity(v)"]
    stale = nx_standing.stale_cells(figures, names, ["grid:708"])
    # (pagerank's GPU figure came after the change: only its CPU one is stale)
    assert stale == {"triangles": {"gpu"}, "pagerank": {"cpu"}, "k_truss": {"cpu", "gpu"},
                     "eccentricity(v)": {"gpu"}}  # fmt: skip
    commands = nx_standing.remeasure_commands(stale, ["grid:708"], session=56)
    assert commands == [
        "python3 nx_backend.py --graphs grid:708 --devices cpu --algorithms pagerank "
        "--nx-jobs 3 --fixed-threads --out $OUT/networkx_stale_cpu_s56.json",
        "python3 nx_backend.py --graphs grid:708 --devices cpu gpu --algorithms k_truss "
        "--nx-jobs 3 --fixed-threads --out $OUT/networkx_stale_cpu_gpu_s56.json",
        "python3 nx_backend.py --graphs grid:708 --devices gpu --algorithms triangles "
        "--nx-jobs 3 --fixed-threads --out $OUT/networkx_stale_gpu_s56.json",
        "python3 nx_one_node.py --graphs grid:708 --repeat 3 --device gpu "
        "--out $OUT/nx_one_node_stale_gpu_s56.json",
    ]
    assert all(nx_standing.session_of(c.rsplit("/", 1)[1]) == 56 for c in commands)
    nx_standing.main(["--results", str(results), "--graphs", "grid:708", "--stale-commands"])
    assert "nx_one_node_stale_gpu_sNN.json" in capsys.readouterr().out
