"""``warpgraph sssp``: summary, JSON, outputs, verification and clear errors."""

from __future__ import annotations

import json

import numpy as np

import warpgraph as wg
from warpgraph.cli.main import main


def _graph_file(tmp_path):
    G = wg.Graph.from_edges([0, 0, 1, 2, 3], [1, 2, 3, 3, 4], weights=[1, 5, 1, 1, 2])
    path = tmp_path / "g.mtx"
    wg.save(G, path)
    return str(path)


def test_sssp_json_and_text_output(tmp_path, capsys):
    path = _graph_file(tmp_path)
    out = tmp_path / "d.txt"
    args = ["sssp", path, "--source", "0", "--source", "2", "--device", "cpu", "--json"]
    assert main([*args, "--verify", "--output", str(out)]) == 0
    summary = json.loads(capsys.readouterr().out)
    assert [r["reached"] for r in summary["results"]] == [5, 3]
    assert [r["max_distance"] for r in summary["results"]] == [5, 3]
    assert all(r["verified"] for r in summary["results"])
    assert out.read_text().split() == ["0", "1", "5", "2", "4"]


def test_sssp_npy_output_and_table(tmp_path, capsys):
    path = _graph_file(tmp_path)
    srcs = tmp_path / "s.txt"
    srcs.write_text("0\n1\n")
    out = tmp_path / "d.npy"
    assert main(["sssp", path, "--sources-file", str(srcs), "--method", "hbf",
                 "--device", "cpu", "--output", str(out)]) == 0  # fmt: skip
    assert "median" in capsys.readouterr().out
    d = np.load(out)
    assert d.shape == (2, 5) and d[0].tolist() == [0, 1, 5, 2, 4]
    assert d[1, 0] == np.iinfo(np.int64).max


def test_sssp_errors_are_one_line(tmp_path, capsys):
    path = _graph_file(tmp_path)
    assert main(["sssp", path, "--source", "9", "--device", "cpu"]) == 2
    err = capsys.readouterr().err
    assert "not a vertex" in err and "Traceback" not in err
    assert main(["sssp", path, "--method", "hbf", "--delta", "2", "--device", "cpu"]) == 2
    assert "delta applies" in capsys.readouterr().err
