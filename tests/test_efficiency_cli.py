"""``warpgraph efficiency``: known values, NetworkX's values (global efficiency and harmonic
diameter bit for bit, local efficiency per vertex), JSON, verification and clear errors."""

from __future__ import annotations

import json
import math

import numpy as np
import pytest

import warpgraph as wg
from warpgraph.cli.main import main


def _file(tmp_path, name, src, dst, n, directed):
    path = tmp_path / f"{name}.mtx"
    wg.save(wg.Graph.from_edges(src, dst, num_vertices=n, directed=directed), path)
    return str(path)


def _summary(capsys, argv) -> dict:
    assert main(["efficiency", *argv, "--device", "cpu", "--json"]) == 0
    return json.loads(capsys.readouterr().out)


def test_known_values(tmp_path, capsys):
    path = _file(tmp_path, "p", [0, 1], [1, 2], 3, False)  # path 0 - 1 - 2
    out = tmp_path / "local.npy"
    got = _summary(capsys, [path, "--local", "--verify", "--output", str(out)])
    assert got["global efficiency"] == (1 + 0.5 + 1 + 1 + 0.5 + 1) / 6
    assert got["harmonic diameter"] == 6 / 5
    assert got["verified"] is True and got["local efficiency"] == 0.0
    assert np.load(out).tolist() == [0.0, 0.0, 0.0]  # (each neighbourhood: no edge inside)
    path = _file(tmp_path, "d", [0, 1], [1, 2], 3, True)  # 0 -> 1 -> 2
    got = _summary(capsys, [path, "--verify"])
    assert got["global efficiency"] == (1 + 0.5 + 1) / 6 and got["harmonic diameter"] == 6 / 2.5


def test_equals_networkx(tmp_path, capsys):
    nx = pytest.importorskip("networkx")
    rng = np.random.default_rng(3)
    src, dst = rng.integers(0, 40, 120), rng.integers(0, 40, 120)
    path = _file(tmp_path, "r", src, dst, 40, False)
    out = tmp_path / "local.npy"
    got = _summary(capsys, [path, "--local", "--verify", "--output", str(out)])
    H = nx.Graph()
    H.add_nodes_from(range(40))
    H.add_edges_from(zip(src.tolist(), dst.tolist(), strict=True))
    assert got["global efficiency"] == nx.global_efficiency(H)  # (bit for bit)
    assert got["harmonic diameter"] == nx.harmonic_diameter(H)
    per_vertex = [nx.global_efficiency(H.subgraph(H[v])) for v in H]
    np.testing.assert_allclose(np.load(out), per_vertex, rtol=1e-12, atol=0)
    assert math.isclose(got["local efficiency"], nx.local_efficiency(H), rel_tol=1e-12)


@pytest.mark.gpu
def test_gpu_searches_give_the_cpus_bits(tmp_path, capsys):
    """``--device gpu``: the same global efficiency and harmonic diameter as the CPU's (the
    searches on the GPU, the sum on the host), verified, the summary naming the GPU; the local
    efficiencies still computed (on the CPU)."""
    rng = np.random.default_rng(5)
    path = _file(tmp_path, "r", *rng.integers(0, 200, (2, 600)), 200, False)
    cpu = _summary(capsys, [path, "--local"])
    assert main(["efficiency", path, "--local", "--verify", "--device", "gpu", "--json"]) == 0
    gpu = json.loads(capsys.readouterr().out)
    assert gpu["device"] == "gpu" and gpu["verified"] is True
    for key in ("global efficiency", "harmonic diameter", "local efficiency"):
        assert gpu[key] == cpu[key]


def test_disconnected_and_tiny_graphs(tmp_path, capsys):
    path = _file(tmp_path, "e", [], [], 3, False)  # no edges: no pair joined
    got = _summary(capsys, [path])
    assert got["global efficiency"] == 0.0 and got["harmonic diameter"] == math.inf
    path = _file(tmp_path, "one", [], [], 1, False)
    got = _summary(capsys, [path, "--local"])
    assert got["global efficiency"] == 0.0 and math.isnan(got["harmonic diameter"])


def test_bad_arguments_are_refused(tmp_path, capsys):
    from warpgraph.cli import cmd_efficiency

    def refused(argv, reason):
        assert main(["efficiency", *argv, "--device", "cpu"]) == 2
        assert reason in capsys.readouterr().err

    directed = _file(tmp_path, "d", [0, 1], [1, 2], 3, True)
    refused([directed, "--local"], "--undirected")
    undirected = _file(tmp_path, "u", [0, 1], [1, 2], 3, False)
    refused([undirected, "--output", str(tmp_path / "x.npy")], "add --local")
    cmd_efficiency.VERIFY_MAX_VERTICES, saved = 2, cmd_efficiency.VERIFY_MAX_VERTICES
    try:
        refused([undirected, "--verify"], "up to 2 vertices")
    finally:
        cmd_efficiency.VERIFY_MAX_VERTICES = saved


def test_verification_catches_a_wrong_sum(tmp_path, monkeypatch):
    from warpgraph.cli import cmd_efficiency
    from warpgraph.errors import VerificationError

    path = _file(tmp_path, "p", [0, 1], [1, 2], 3, False)
    G = wg.load(path).to("cpu")
    with pytest.raises(VerificationError, match="efficiency sum"):
        cmd_efficiency._verify(G, 4.0, None)  # (the right sum is 5)
    with pytest.raises(VerificationError, match="local efficiency of 1"):
        cmd_efficiency._verify(G, 5.0, np.array([0.0, 0.5, 0.0]))
