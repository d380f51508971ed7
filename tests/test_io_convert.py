"""``warpgraph convert``: format conversion from the command line."""

from __future__ import annotations

import os

import numpy as np

import warpgraph as wg
from warpgraph.cli.main import main


def test_convert_chain(tmp_path):
    G = wg.Graph.from_edges([0, 1, 2, 2], [1, 2, 0, 3], [1.5, 2.5, 3.5, 4.5], num_vertices=6)
    a = os.path.join(tmp_path, "g.txt.gz")
    wg.save(G, a)
    chain = ["g.mtx", "g.wgb", "g.gt.xz", "out.g", "g.net", "g.edges", "g.gr", "back.txt"]
    prev = a
    for name in chain:
        out = os.path.join(tmp_path, name)
        assert main(["convert", prev, out, "-q"]) == 0
        prev = out
    H = wg.load(prev)
    assert H.num_vertices == 6 and H.is_directed()
    assert H.indptr.tolist() == G.indptr.tolist() and H.indices.tolist() == G.indices.tolist()
    assert np.array_equal(H.weights, G.weights)


def test_convert_compact_ids(tmp_path, capsys):
    """--compact-ids: sparse ids numbered 0..k-1 in increasing order (the isolated id in the
    middle dropped), --ids-out keeps the file's ids in vertex order; a Pajek output names them;
    --ids-out alone is refused with the reason."""
    big = 2**40
    src = tmp_path / "sparse.el"
    src.write_text(f"5 {big}\n{big} 77\n77 5\n")
    out, ids = tmp_path / "g.wgb", tmp_path / "ids.npy"
    assert main(["convert", str(src), str(out), "--compact-ids", "--ids-out", str(ids)]) == 0
    assert "ids saved to" in capsys.readouterr().out
    H = wg.load(out)
    assert H.num_vertices == 3 and np.load(ids).tolist() == [5, 77, big]
    s, d, _ = H.edges()
    assert sorted(zip(s.tolist(), d.tolist(), strict=True)) == [(0, 2), (1, 0), (2, 1)]
    net = tmp_path / "g.net"
    assert main(["convert", str(src), str(net), "--compact-ids", "-q"]) == 0
    assert wg.load(net, names=True).vertex_labels == ["5", "77", str(big)]
    assert main(["convert", str(src), str(out), "--ids-out", str(ids)]) == 2
    assert "--compact-ids" in capsys.readouterr().err


def test_convert_options(tmp_path, capsys):
    src = os.path.join(tmp_path, "g.el")
    with open(src, "w") as f:
        f.write("1 2\n2 1\n2 3\n")
    out = os.path.join(tmp_path, "g.graph")
    rc = main(["convert", src, out, "--undirected", "--merge", "first", "-r", "base=1", "-q"])
    assert rc == 0
    H = wg.load(out)
    assert H.num_vertices == 3 and H.num_edges == 2 and not H.is_directed()
    g500 = os.path.join(tmp_path, "g.g500")
    assert main(["convert", out, g500, "-w", "packed=true"]) == 0
    assert os.path.getsize(g500) == 2 * 12
    assert "vertices" in capsys.readouterr().out


def test_convert_errors(tmp_path, capsys):
    src = os.path.join(tmp_path, "g.el")
    with open(src, "w") as f:
        f.write("0 1\n1 x\n")
    assert main(["convert", src, os.path.join(tmp_path, "g.mtx"), "-q"]) == 2
    err = capsys.readouterr().err
    assert "g.el:2: malformed number 'x'" in err.replace("\n", "")
    assert not os.path.exists(os.path.join(tmp_path, "g.mtx"))
    with open(src, "w") as f:
        f.write("0 1\n")
    assert main(["convert", src, os.path.join(tmp_path, "g.mtx"), "-r", "nope=1", "-q"]) == 2
    assert "not understood" in capsys.readouterr().err
