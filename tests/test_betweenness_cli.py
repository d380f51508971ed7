"""``warpgraph betweenness``: the scales (raw, NetworkX's, normalized, sampled), top vertices
(with names), JSON, outputs, verification and clear errors."""

from __future__ import annotations

import itertools
import json

import numpy as np
import pytest

import warpgraph as wg
from warpgraph.algorithms.betweenness import betweenness_centrality
from warpgraph.cli.cmd_betweenness import sample_sources
from warpgraph.cli.cmd_pagerank import top_vertices
from warpgraph.cli.main import main
from warpgraph.io.datasets import example_path

LESMIS = str(example_path("lesmis"))  # Pajek, weighted, with names


def _file(tmp_path, name, src, dst, n, directed):
    G = wg.Graph.from_edges(src, dst, num_vertices=n, directed=directed)
    path = tmp_path / f"{name}.mtx"
    wg.save(G, path)
    assert wg.load(path).directed == directed
    return str(path)


def _path4(tmp_path, directed=False):
    """0 - 1 - 2 - 3 (directed: 0 -> 1 -> 2 -> 3)."""
    return _file(tmp_path, f"path{directed}", [0, 1, 2], [1, 2, 3], 4, directed)


def _star(tmp_path):
    """Centre 0, leaves 1..4, undirected."""
    return _file(tmp_path, "star", [0, 0, 0, 0], [1, 2, 3, 4], 5, False)


def _values(tmp_path, path, *extra):
    """The saved values of one run (its JSON summary is left in capsys)."""
    out = tmp_path / "b.npy"
    argv = ["betweenness", path, "--device", "cpu", "--json", "--output", str(out), *extra]
    assert main(argv) == 0
    return np.load(out)


@pytest.mark.parametrize(
    ("graph", "extra", "want"),
    [
        # path 0-1-2-3: ordered pairs (0,2), (0,3), (1,3) and reversed pass through 1
        ("path", ["--scale", "raw"], [0, 4, 4, 0]),
        ("path", [], [0, 2, 2, 0]),  # NetworkX: unordered pairs
        ("path", ["--normalized"], [0, 2 / 3, 2 / 3, 0]),  # 4 / (3 * 2)
        ("path", ["--scale", "raw", "--endpoints"], [6, 10, 10, 6]),
        ("path", ["--endpoints"], [3, 5, 5, 3]),
        ("path", ["--endpoints", "--normalized"], [0.5, 10 / 12, 10 / 12, 0.5]),  # / (4 * 3)
        ("dipath", ["--scale", "raw"], [0, 2, 2, 0]),  # directed: (0,2), (0,3) and (1,3)
        ("dipath", [], [0, 2, 2, 0]),  # not halved
        ("dipath", ["--normalized"], [0, 1 / 3, 1 / 3, 0]),
        # star: the 4 * 3 ordered pairs of leaves pass through the centre
        ("star", ["--scale", "raw"], [12, 0, 0, 0, 0]),
        ("star", [], [6, 0, 0, 0, 0]),
        ("star", ["--normalized"], [1, 0, 0, 0, 0]),
        ("star", ["--endpoints"], [10, 4, 4, 4, 4]),  # (12 + 4 + 4) / 2; a leaf: 4 + 4
    ],
)
def test_known_values_under_each_scale(tmp_path, capsys, graph, extra, want):
    path = {
        "path": lambda: _path4(tmp_path),
        "dipath": lambda: _path4(tmp_path, directed=True),
        "star": lambda: _star(tmp_path),
    }[graph]()
    values = _values(tmp_path, path, "--verify", *extra)
    summary = json.loads(capsys.readouterr().out)
    assert values.dtype == np.float64
    np.testing.assert_allclose(values, want, rtol=1e-15, atol=0)
    assert summary["sources"] == len(want) and summary["sample"] == "every vertex"
    assert summary["verified"] is True and summary["endpoints"] == ("--endpoints" in extra)


def test_matches_networkx_for_every_source(tmp_path, capsys):
    nx = pytest.importorskip("networkx")
    rng = np.random.default_rng(5)
    src, dst = rng.integers(0, 12, 30), rng.integers(0, 12, 30)
    for directed in (False, True):
        path = _file(tmp_path, f"r{directed}", src, dst, 12, directed)
        H = (nx.DiGraph if directed else nx.Graph)()
        H.add_nodes_from(range(12))
        H.add_edges_from((int(a), int(b)) for a, b in zip(src, dst, strict=True) if a != b)
        for endpoints, normalized in itertools.product((False, True), repeat=2):
            extra = ["--endpoints"] * endpoints + ["--normalized"] * normalized
            values = _values(tmp_path, path, *extra)
            want = nx.betweenness_centrality(H, normalized=normalized, endpoints=endpoints)
            np.testing.assert_allclose(values, [want[v] for v in range(12)], rtol=1e-12)
    capsys.readouterr()


def test_sample_is_seeded_and_scaled_by_n_over_k(tmp_path, capsys):
    path = _file(tmp_path, "r", *np.random.default_rng(2).integers(0, 20, (2, 50)), 20, False)
    G = wg.load(path)
    first = _values(tmp_path, path, "--sources", "5", "--seed", "7")
    summary = json.loads(capsys.readouterr().out)
    assert summary["sources"] == 5 and summary["sample"] == "uniform, seed 7"
    again = _values(tmp_path, path, "--sources", "5", "--seed", "7")
    np.testing.assert_array_equal(first, again)  # the same sample
    sources = sample_sources(20, 5, 7)
    assert sources.tolist() == sorted(
        np.random.default_rng(7).choice(20, size=5, replace=False).tolist()
    )
    raw = betweenness_centrality(G, sources, device="cpu")
    np.testing.assert_allclose(first, raw * (20 / 5) / 2, rtol=1e-15)
    raw_cli = _values(tmp_path, path, "--sources", "5", "--seed", "7", "--scale", "raw")
    np.testing.assert_allclose(raw_cli, raw, rtol=1e-15)
    norm = _values(tmp_path, path, "--sources", "5", "--seed", "7", "--normalized", "--verify")
    np.testing.assert_allclose(norm, raw * (20 / 5) / (19 * 18), rtol=1e-15)
    other = _values(tmp_path, path, "--sources", "5", "--seed", "8", "--scale", "raw")
    assert sample_sources(20, 5, 8).tolist() != sources.tolist()
    np.testing.assert_allclose(
        other, betweenness_centrality(G, sample_sources(20, 5, 8), device="cpu"), rtol=1e-15
    )
    whole = _values(tmp_path, path, "--sources", "20")  # every vertex, n / k = 1
    np.testing.assert_allclose(whole, betweenness_centrality(G, device="cpu") / 2, rtol=1e-12)
    capsys.readouterr()


def test_table_with_names_top_and_verify(tmp_path, capsys):
    out = tmp_path / "b.npy"
    argv = [
        "betweenness",
        LESMIS,
        "--device",
        "cpu",
        "--top",
        "3",
        "--verify",
        "--output",
        str(out),
    ]
    assert main(argv) == 0
    text = capsys.readouterr().out
    assert "Betweenness on cpu" in text and "sources" in text and "seconds" in text
    assert "searches per second" in text and "vertex 10 (Valjean)" in text  # the highest, named
    assert "3 vertices of highest betweenness" in text and "Myriel" in text
    assert "verified: verify_betweenness" in text
    G = wg.load(LESMIS)
    b = np.load(out)
    np.testing.assert_allclose(b, betweenness_centrality(G, device="cpu") / 2, rtol=1e-12)
    assert top_vertices(b, 3).tolist()[0] == 10


def test_json_fields_and_top_labels(capsys):
    assert main(["betweenness", LESMIS, "--device", "cpu", "--json", "--top"]) == 0
    summary = json.loads(capsys.readouterr().out)
    G = wg.load(LESMIS)
    b = betweenness_centrality(G, device="cpu") / 2
    assert summary["vertices"] == 77 and summary["device"] == "cpu"
    assert summary["sources"] == 77 and summary["verified"] is False
    assert summary["scale"] == "networkx" and summary["factor"] == 0.5
    assert summary["endpoints"] is False and summary["searches per second"] > 0
    assert summary["highest"].startswith("vertex 10 (Valjean): ")
    top = summary["top"]
    assert len(top) == 10  # --top alone: 10
    assert [t["vertex"] for t in top] == top_vertices(b, 10).tolist()
    assert top[0]["label"] == "Valjean"
    assert top[0]["betweenness"] == pytest.approx(b[10], rel=1e-12)
    assert all(a["betweenness"] >= c["betweenness"] for a, c in itertools.pairwise(top))
    assert main(["betweenness", LESMIS, "--device", "cpu", "--json", "--normalized"]) == 0
    summary = json.loads(capsys.readouterr().out)
    assert "top" not in summary and summary["scale"] == "networkx, normalized"
    assert summary["factor"] == pytest.approx(1 / (76 * 75), rel=1e-15)


def test_verify_rejects_wrong_values(tmp_path, capsys, monkeypatch):
    import warpgraph.algorithms.betweenness as package

    real = package.betweenness_centrality
    monkeypatch.setattr(package, "betweenness_centrality", lambda *a, **k: real(*a, **k) + 1)
    assert main(["betweenness", _star(tmp_path), "--device", "cpu", "--verify"]) == 2
    err = capsys.readouterr().err
    assert "error:" in err and "add up to" in err and "Traceback" not in err


@pytest.mark.parametrize(
    ("extra", "message"),
    [
        (["--sources", "5"], "--sources 5 is more than the graph's 4 vertices"),
        (["--sources", "-3"], "--sources must be a positive integer, got -3"),
        (["--sources", "0"], "--sources must be a positive integer, got 0"),
        (["--top", "-1"], "--top must be a non-negative integer"),
        (["--scale", "raw", "--normalized"], "--normalized applies to --scale networkx"),
    ],
)
def test_bad_values_exit_2(tmp_path, capsys, extra, message):
    assert main(["betweenness", _path4(tmp_path), "--device", "cpu", *extra]) == 2
    err = capsys.readouterr().err
    assert "error:" in err and message in err and "Traceback" not in err


def test_missing_file_is_one_line(tmp_path, capsys):
    assert main(["betweenness", str(tmp_path / "none.mtx"), "--device", "cpu"]) == 2
    err = capsys.readouterr().err
    assert "none.mtx" in err and "Traceback" not in err
