"""``warpgraph pagerank``: summary, top vertices (with names), JSON, outputs, verification and
clear errors."""

from __future__ import annotations

import itertools
import json

import numpy as np
import pytest

import warpgraph as wg
from warpgraph.algorithms.pagerank import pagerank
from warpgraph.cli.cmd_pagerank import top_vertices
from warpgraph.cli.main import main
from warpgraph.io.datasets import example_path

LESMIS = str(example_path("lesmis"))  # Pajek, weighted, with names


def _directed_file(tmp_path):
    """A weighted directed graph with a dangling vertex (4) and an isolated one (5)."""
    G = wg.Graph.from_edges(
        [0, 0, 1, 2, 3, 3], [1, 2, 2, 0, 2, 4], weights=[1.0, 3.0, 1.0, 2.0, 1.0, 5.0],
        num_vertices=6, directed=True,
    )  # fmt: skip
    path = tmp_path / "g.mtx"
    wg.save(G, path)
    return str(path), G


def test_table_with_names_verify_and_output(tmp_path, capsys):
    out = tmp_path / "ranks.npy"
    argv = ["pagerank", LESMIS, "--device", "cpu", "--top", "3", "--verify", "--output", str(out)]
    assert main(argv) == 0
    text = capsys.readouterr().out
    assert "PageRank on cpu" in text and "iterations" in text and "seconds" in text
    assert "vertex 10 (Valjean)" in text  # the highest rank, named
    assert "3 highest-ranked vertices" in text and "Marius" in text and "Myriel" in text
    assert "verified" in text
    ranks = np.load(out)
    G = wg.load(LESMIS)
    assert ranks.dtype == np.float64 and ranks.shape == (G.num_vertices,)
    np.testing.assert_allclose(ranks, pagerank(G, device="cpu"), rtol=0, atol=1e-15)


def test_json_top_labels_and_iterations(capsys):
    assert main(["pagerank", LESMIS, "--device", "cpu", "--json", "--top"]) == 0
    summary = json.loads(capsys.readouterr().out)
    G = wg.load(LESMIS, names=True)
    ranks, steps = pagerank(G, device="cpu", return_iterations=True)
    assert summary["iterations"] == steps and summary["verified"] is False
    assert summary["vertices"] == 77 and summary["device"] == "cpu"
    top = summary["top"]
    assert len(top) == 10  # --top alone: 10
    assert [t["vertex"] for t in top] == top_vertices(ranks, 10).tolist()
    assert top[0]["label"] == "Valjean" and top[0]["rank"] == pytest.approx(ranks[10], abs=1e-15)
    assert all(a["rank"] >= b["rank"] for a, b in itertools.pairwise(top))


def test_options_reach_the_computation(tmp_path, capsys):
    path, G = _directed_file(tmp_path)
    for extra, kwargs in (
        ([], {}),
        (["--unweighted"], {"weighted": False}),
        (["--alpha", "0.5", "--tol", "1e-10"], {"alpha": 0.5, "tol": 1e-10}),
        (["--dtype", "float32"], {"dtype": np.float32}),
    ):
        out = tmp_path / "r.npy"
        argv = ["pagerank", path, "--device", "cpu", "--json", "--verify", "--output", str(out)]
        assert main([*argv, *extra]) == 0
        summary = json.loads(capsys.readouterr().out)
        want, steps = pagerank(G, device="cpu", return_iterations=True, **kwargs)
        saved = np.load(out)
        assert saved.dtype == want.dtype
        np.testing.assert_allclose(saved, want, rtol=0, atol=1e-15)
        assert summary["iterations"] == steps and summary["verified"] is True
        assert summary["dtype"] == want.dtype.name
        assert "top" not in summary and "(" not in summary["highest rank"]  # no names
        unweighted = kwargs.get("weighted") is False
        assert summary["weights"] == ("none (arcs counted)" if unweighted else "graph's")


def test_no_convergence_is_one_clear_line(tmp_path, capsys):
    path, _ = _directed_file(tmp_path)
    assert main(["pagerank", path, "--device", "cpu", "--max-iter", "2", "--tol", "0"]) == 2
    err = capsys.readouterr().err
    assert "did not converge in 2 iterations" in err and "--max-iter" in err
    assert "Traceback" not in err


@pytest.mark.parametrize(
    ("option", "value", "message"),
    [
        ("--alpha", "1.5", "--alpha must lie in [0, 1]"),
        ("--alpha", "nan", "--alpha must lie in [0, 1]"),
        ("--tol", "-1", "--tol must be a non-negative number"),
        ("--max-iter", "-3", "--max-iter must be a non-negative integer"),
        ("--top", "-1", "--top must be a non-negative integer"),
    ],
)
def test_bad_values_exit_2(option, value, message, capsys):
    assert main(["pagerank", LESMIS, "--device", "cpu", option, value]) == 2
    err = capsys.readouterr().err
    assert "error:" in err and message in err and "Traceback" not in err


def test_missing_file_and_negative_weights_are_one_line(tmp_path, capsys):
    assert main(["pagerank", str(tmp_path / "none.mtx"), "--device", "cpu"]) == 2
    assert "none.mtx" in capsys.readouterr().err
    G = wg.Graph.from_edges([0, 1], [1, 0], weights=[1.0, -2.0], directed=True)
    path = tmp_path / "neg.mtx"
    wg.save(G, path)
    assert main(["pagerank", str(path), "--device", "cpu"]) == 2
    err = capsys.readouterr().err
    assert "non-negative weights" in err and "Traceback" not in err
    assert main(["pagerank", str(path), "--device", "cpu", "--unweighted"]) == 0


def test_top_vertices_order_and_ties():
    r = np.array([0.1, 0.3, 0.1, 0.3, 0.2])
    assert top_vertices(r, 2).tolist() == [1, 3]
    assert top_vertices(r, 4).tolist() == [1, 3, 4, 0]  # ties by smallest id
    assert top_vertices(r, 9).tolist() == [1, 3, 4, 0, 2]
    assert top_vertices(r, 0).size == 0 and top_vertices(np.zeros(0), 3).size == 0
