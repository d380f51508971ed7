"""``warpgraph harmonic``: known values, NetworkX's values bit for bit, the seeded sample,
``--normalized``, top vertices with names, JSON, verification and clear errors."""

from __future__ import annotations

import json

import numpy as np
import pytest

import warpgraph as wg
from warpgraph.algorithms.centrality import harmonic_centrality
from warpgraph.cli.cmd_betweenness import sample_sources
from warpgraph.cli.main import main
from warpgraph.io.datasets import example_path

LESMIS = str(example_path("lesmis"))  # Pajek, weighted, with names


def _file(tmp_path, name, src, dst, n, directed):
    path = tmp_path / f"{name}.mtx"
    wg.save(wg.Graph.from_edges(src, dst, num_vertices=n, directed=directed), path)
    return str(path)


def _values(tmp_path, path, *extra):
    """The saved values of one run (its JSON summary is left in capsys)."""
    out = tmp_path / "h.npy"
    argv = ["harmonic", path, "--device", "cpu", "--json", "--output", str(out), *extra]
    assert main(argv) == 0
    return np.load(out)


@pytest.mark.parametrize(
    ("directed", "extra", "want"),
    [
        (False, [], [1 + 1 / 2 + 1 / 3, 2.5, 2.5, 1 + 1 / 2 + 1 / 3]),  # path 0 - 1 - 2 - 3
        (False, ["--normalized"], [(1 + 1 / 2 + 1 / 3) / 3, 2.5 / 3, 2.5 / 3, 11 / 18]),
        (True, [], [0.0, 1.0, 1.5, 1 + 1 / 2 + 1 / 3]),  # 0 -> 1 -> 2 -> 3: distances in
    ],
)
def test_known_values(tmp_path, capsys, directed, extra, want):
    path = _file(tmp_path, f"p{directed}", [0, 1, 2], [1, 2, 3], 4, directed)
    values = _values(tmp_path, path, "--verify", *extra)
    summary = json.loads(capsys.readouterr().out)
    np.testing.assert_allclose(values, want, rtol=1e-15, atol=0)
    assert summary["sources"] == 4 and summary["verified"] is True
    assert summary["normalized"] == ("--normalized" in extra) and summary["device"] == "cpu"


def test_equals_networkx_bit_for_bit(tmp_path, capsys):
    nx = pytest.importorskip("networkx")
    rng = np.random.default_rng(5)
    src, dst = rng.integers(0, 30, 70), rng.integers(0, 30, 70)
    for directed in (False, True):
        path = _file(tmp_path, f"r{directed}", src, dst, 30, directed)
        H = (nx.DiGraph if directed else nx.Graph)()
        H.add_nodes_from(range(30))  # (int labels 0..29: NetworkX's sources set is in id order)
        H.add_edges_from(zip(src.tolist(), dst.tolist(), strict=True))
        want = nx.harmonic_centrality(H)
        assert _values(tmp_path, path).tolist() == [float(want[v]) for v in range(30)]
    capsys.readouterr()


def test_sample_is_seeded(tmp_path, capsys):
    path = _file(tmp_path, "r", *np.random.default_rng(2).integers(0, 20, (2, 50)), 20, False)
    G = wg.load(path)
    first = _values(tmp_path, path, "--sources", "5", "--seed", "7", "--verify")
    summary = json.loads(capsys.readouterr().out)
    assert summary["sources"] == 5 and summary["sample"] == "uniform, seed 7"
    sources = sample_sources(20, 5, 7)
    assert first.tolist() == harmonic_centrality(G, sources).tolist()
    norm = _values(tmp_path, path, "--sources", "5", "--seed", "7", "--normalized")
    others = np.where(np.isin(np.arange(20), sources), 4, 5)
    np.testing.assert_allclose(norm, first / others, rtol=1e-15)
    capsys.readouterr()


@pytest.mark.gpu
def test_gpu_values_are_the_cpus(tmp_path, capsys):
    """``--device gpu``: the saved values equal the CPU's bit for bit (every source, and a
    sample), the summary names the GPU."""
    rng = np.random.default_rng(9)
    path = _file(tmp_path, "g", *rng.integers(0, 300, (2, 1200)), 300, True)
    for extra in ([], ["--sources", "40", "--seed", "3"]):
        cpu = _values(tmp_path, path, *extra)
        capsys.readouterr()
        out = tmp_path / "g.npy"
        argv = ["harmonic", path, "--device", "gpu", "--json", "--output", str(out), "--verify"]
        assert main([*argv, *extra]) == 0
        summary = json.loads(capsys.readouterr().out)
        assert summary["device"] == "gpu" and summary["verified"] is True
        assert np.load(out).tolist() == cpu.tolist()


def test_table_with_names_and_top(tmp_path, capsys):
    assert main(["harmonic", LESMIS, "--device", "cpu", "--top", "3", "--verify"]) == 0
    text = capsys.readouterr().out
    assert "Harmonic centrality on cpu" in text and "vertex 10 (Valjean)" in text
    assert "3 vertices of highest" in text and "Gavroche" in text
    assert "verified: verify_harmonic_centrality" in text
    assert main(["harmonic", LESMIS, "--device", "cpu", "--json", "--top"]) == 0
    summary = json.loads(capsys.readouterr().out)
    h = harmonic_centrality(wg.load(LESMIS))
    assert len(summary["top"]) == 10 and summary["top"][0]["label"] == "Valjean"
    assert summary["top"][0]["harmonic"] == h[10]


def test_verify_rejects_wrong_values(tmp_path, capsys, monkeypatch):
    import warpgraph.algorithms.centrality as package

    real = package.harmonic_centrality
    monkeypatch.setattr(package, "harmonic_centrality", lambda *a, **k: real(*a, **k) * 1.5)
    path = _file(tmp_path, "p", [0, 1, 2], [1, 2, 3], 4, False)
    assert main(["harmonic", path, "--device", "cpu", "--verify"]) == 2
    err = capsys.readouterr().err
    assert "error:" in err and "expected" in err and "Traceback" not in err


@pytest.mark.parametrize(
    ("extra", "message"),
    [
        (["--sources", "5"], "--sources 5 is more than the graph's 4 vertices"),
        (["--sources", "0"], "--sources must be a positive integer, got 0"),
        (["--top", "-1"], "--top must be a non-negative integer"),
    ],
)
def test_bad_values_exit_2(tmp_path, capsys, extra, message):
    path = _file(tmp_path, "p", [0, 1, 2], [1, 2, 3], 4, False)
    assert main(["harmonic", path, "--device", "cpu", *extra]) == 2
    err = capsys.readouterr().err
    assert "error:" in err and message in err and "Traceback" not in err
