"""benchmarks/busy_machine.py: a tiny run beside one spinning process records every call's
times and thread counts, leaves the load average as it found it, and refuses bad arguments."""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "benchmarks"))

import busy_machine  # noqa: E402  (benchmarks/busy_machine.py)


def test_a_tiny_run_records_each_call(tmp_path, capsys):
    out = tmp_path / "busy.json"
    load_average = os.getloadavg
    argv = ["--graphs", "urand:6", "urand:7", "--spinners", "0", "1", "--rounds", "2"]
    dynamic = busy_machine.threads.DYNAMIC_THREADS
    assert busy_machine.main([*argv, "--out", str(out)]) == 0
    assert os.getloadavg is load_average
    assert busy_machine.threads.DYNAMIC_THREADS is dynamic  # (the warm-up turns it off)
    record = json.loads(out.read_text())
    assert set(record["results"]) == {"0", "1"}
    rows = record["results"]["1"]
    assert len(rows) == 10 and "bellman_ford urand:6" in rows
    for row in rows.values():
        assert len(row["seconds"]) == 2 and min(row["seconds"]) > 0
        assert len(row["threads"]) == 2
    assert "spinners  1" in capsys.readouterr().out


def test_probe_mode_times_the_empty_region(tmp_path):
    out = tmp_path / "probe.json"
    assert (
        busy_machine.main(["--probe", "--spinners", "0", "--rounds", "3", "--out", str(out)]) == 0
    )
    record = json.loads(out.read_text())
    assert record["mode"] == "probe"
    for seconds in record["results"]["0"].values():
        assert len(seconds) == 3 and min(seconds) > 0


@pytest.mark.parametrize("argv", [["--rounds", "0"], ["--spinners", "-1"]])
def test_bad_arguments_refused(argv, capsys):
    with pytest.raises(SystemExit):
        busy_machine.main(argv)
    assert "--rounds must be at least 1" in capsys.readouterr().err
