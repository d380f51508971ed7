"""The Gunrock peer adapter: the Matrix Market file it writes and how a run is parsed.

Gunrock itself is not installed in CI: a stand-in script plays the binary (it checks the command
line it gets and writes the metrics file the way Gunrock's ``--export_metrics`` does).
"""

from __future__ import annotations

import json
import stat
import textwrap

import numpy as np
import pytest
import scipy.io
import scipy.sparse as sp

import warpgraph as wg
from warpgraph.bench.gunrock import (
    GunrockError,
    parse_gunrock_metrics,
    run_gunrock,
    write_gunrock_mtx,
)
from warpgraph.errors import InvalidArgumentError


@pytest.mark.parametrize("directed", [False, True])
def test_mtx_reads_back_as_the_same_adjacency(tmp_path, directed):
    rng = np.random.default_rng(3)
    src, dst = rng.integers(0, 50, 400), rng.integers(0, 50, 400)
    G = wg.Graph.from_edges(src, dst, num_vertices=60, directed=directed)
    path = write_gunrock_mtx(G, tmp_path / "g.mtx")
    header = path.read_text().splitlines()[0]
    assert header.endswith("symmetric" if not directed else "general")
    # SciPy's reader mirrors a symmetric file itself: an independent check of the layout.
    got = sp.csr_matrix(scipy.io.mmread(str(path)))
    want = G.to_scipy().tocsr()
    want.setdiag(0)
    want.eliminate_zeros()
    assert got.shape == (60, 60)
    assert ((got != 0) != (want != 0)).nnz == 0


def _fake_gunrock(tmp_path, times, *, status=0, write=True):
    exe = tmp_path / "fake_bfs"
    body = textwrap.dedent(
        f"""\
        #!/usr/bin/env python3
        import json, sys
        a = sys.argv[1:]
        srcs = [int(s) for s in a[a.index("-s") + 1].split(",")]
        d, f = a[a.index("-d") + 1], a[a.index("-f") + 1]
        assert "--export_metrics" in a and a[a.index("-m") + 1].endswith(".mtx")
        times = {times!r}[: len(srcs)]
        if {write!r}:
            json.dump({{"srcs": srcs, "process_times": times}}, open(d + "/" + f, "w"))
        print("Number of errors : 0")
        sys.exit({status})
        """
    )
    exe.write_text(body)
    exe.chmod(exe.stat().st_mode | stat.S_IXUSR)
    return exe


def test_run_drops_the_warmup_and_reads_errors(tmp_path):
    exe = _fake_gunrock(tmp_path, [9.0, 0.2, 0.3, 0.4])
    mtx = tmp_path / "g.mtx"
    mtx.write_text("%%MatrixMarket matrix coordinate pattern symmetric\n2 2 1\n2 1\n")
    out = run_gunrock(exe, mtx, [1, 0, 1])
    assert out["times_ms"] == [0.2, 0.3, 0.4]
    assert out["sources"] == [1, 0, 1]
    assert out["errors"] == 0
    assert out["command"][out["command"].index("-s") + 1] == "1,1,0,1"


def test_run_failures_are_clear(tmp_path):
    mtx = tmp_path / "g.mtx"
    mtx.write_text("x")
    with pytest.raises(InvalidArgumentError, match="not an executable"):
        run_gunrock(tmp_path / "missing", mtx, [0])
    with pytest.raises(GunrockError, match="exited with 3"):
        run_gunrock(_fake_gunrock(tmp_path, [1.0, 1.0], status=3), mtx, [0])
    with pytest.raises(GunrockError, match="no metrics"):
        run_gunrock(_fake_gunrock(tmp_path, [1.0, 1.0], write=False), mtx, [0])


def test_parse_needs_times():
    with pytest.raises(GunrockError):
        parse_gunrock_metrics(json.loads('{"srcs": [1]}'))
