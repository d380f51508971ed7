"""Vertex-labelled graphs of the subgraph-matching literature (``.graph`` with ``t``/``v``/``e``).

Two dialects share the layout, both 0-based and undirected:

* ``t N M`` header, ``v id label degree`` lines, ``e u v`` lines (the format of the in-memory
  subgraph matching study by Sun and Luo, used by RapidMatch and its benchmarks);
* ``t <graph id> N`` (or ``t # <id>``) header, ``v id label`` lines, ``e u v [edge label]``
  lines (gSpan-style, as in the human PPI data of the matching benchmarks).

The header is matched against the body: ``t a b`` is read as ``N M`` when ``a`` equals the
number of ``v`` lines and ``b`` the number of ``e`` lines, else as ``<id> N`` when ``b`` equals
the number of ``v`` lines; otherwise GraphFormatError. ``v`` lines must list the ids
``0..N-1`` in order (all ``v`` lines before the ``e`` lines), and a given degree must equal the
degree counted from the ``e`` lines. Labels go to ``EdgeData.extra["vertex_labels"]`` (int64)
and ``extra["edge_labels"]``. Files with several graphs (several ``t`` lines) are refused.

Writing: the ``t N M`` / ``v id label degree`` / ``e u v`` dialect; pass
``vertex_labels=`` (default all 0).

Examples
--------
>>> import os, tempfile, warpgraph as wg
>>> path = os.path.join(tempfile.mkdtemp(), "q.graph")
>>> _ = open(path, "w").write("t 3 2\\nv 0 5 1\\nv 1 7 2\\nv 2 5 1\\ne 0 1\\ne 1 2\\n")
>>> d = wg.io.read_edges(path)
>>> d.num_vertices, d.num_edges, d.extra["vertex_labels"].tolist()
(3, 2, [5, 7, 5])
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ..errors import GraphFormatError, InvalidArgumentError
from . import _text
from ._edgedata import EdgeData
from ._source import atomic_output, read_buffer
from ._write import write_lines

NAME = "lgraph"
EXTENSIONS = (".lg", ".lgraph")


def parse(buf: np.ndarray, path: str | None = None) -> EdgeData:
    """Parse a labelled graph held in ``buf``."""
    pos, ln = 0, 1
    while True:
        h = _text.first_lines(buf, 1, pos, ln)
        if not h.lines:
            raise GraphFormatError("missing header line 't ...'", path, ln)
        ln_t, text = h.lines[0]
        pos, ln = h.body, h.next_line
        s = text.strip()
        if s and not s.startswith(("#", "%")):
            break
    parts = s.split()
    if parts[0] != "t" or len(parts) != 3:
        raise GraphFormatError(f"expected a header line 't a b', got {s!r}", path, ln_t)
    end = buf.shape[0]
    tpos = _text.find_line_start(buf, pos, end, "t")
    if tpos < end:
        raise GraphFormatError(
            "several graphs in one file ('t' lines); split the file first",
            path,
            _text.line_of(buf, tpos),
        )
    e_start = _text.find_line_start(buf, pos, end, "e")
    vt = _text.scan_table(
        buf, pos, e_start, path, nid=2, nvmin=0, nvmax=1, prefix="v", comments=b"#%",
        what="vertex id or label",
    )  # fmt: skip
    et = _text.scan_table(
        buf, e_start, end, path, nid=2, nvmin=0, nvmax=1, prefix="e", comments=b"#%",
    )  # fmt: skip
    nv, ne = vt.rows, et.rows
    a, b = parts[1], parts[2]
    if _text.is_int(a) and int(a) == nv and _text.is_int(b) and int(b) == ne:
        dialect = "t N M"
    elif _text.is_int(b) and int(b) == nv:
        dialect = "t id N"
    else:
        raise GraphFormatError(
            f"header {s!r} disagrees with the body ({nv} vertex lines, {ne} edge lines)",
            path,
            ln_t,
        )
    vid = vt.ids[0]
    if nv and not np.array_equal(vid, np.arange(nv)):
        bad = int(np.argmax(vid != np.arange(nv)))
        raise _text.locate_row(
            buf, pos, e_start, path, bad, f"vertex lines must list ids 0..{nv - 1} in order",
            {"prefix": ord("v"), "nvmax": 1},
        )  # fmt: skip
    src, dst = et.ids[0], et.ids[1]
    if ne and (int(min(src.min(), dst.min())) < 0 or int(max(src.max(), dst.max())) >= nv):
        bad = int(np.argmax((src < 0) | (dst < 0) | (src >= nv) | (dst >= nv)))
        raise _text.locate_row(
            buf, e_start, end, path, bad, f"edge endpoint out of range [0, {nv - 1}]",
            {"prefix": ord("e"), "nvmax": 1},
        )  # fmt: skip
    extra: dict[str, Any] = {"vertex_labels": vt.ids[1].copy(), "dialect": dialect}
    if vt.nvals:
        deg = np.bincount(src, minlength=nv) + np.bincount(dst, minlength=nv)
        given = vt.value(0)
        if given.dtype.kind != "i" or not np.array_equal(given, deg):
            bad = int(np.argmax(given != deg))
            raise _text.locate_row(
                buf, pos, e_start, path, bad,
                f"vertex {bad} has degree {int(deg[bad])} in the edge lines, not the "
                f"{given[bad]} its line says",
                {"prefix": ord("v"), "nvmax": 1},
            )  # fmt: skip
    if et.nvals:
        extra["edge_labels"] = et.value(0)
    return EdgeData(src, dst, None, nv, False, NAME, extra)


def read(path: str, *, progress=None) -> EdgeData:
    """Read a labelled ``.graph`` file (see the module docstring)."""
    return parse(read_buffer(path, progress, text=True), str(path))


def write(G, path: str, *, vertex_labels: Any = None) -> None:
    """Write an undirected graph as ``t N M`` / ``v id label degree`` / ``e u v`` lines."""
    if G.is_directed():
        raise InvalidArgumentError("labelled .graph files hold undirected graphs")
    n = G.num_vertices
    labels = np.zeros(n, np.int64) if vertex_labels is None else np.asarray(vertex_labels)
    if labels.shape != (n,) or labels.dtype.kind not in "iu":
        raise InvalidArgumentError("vertex_labels must be n integers")
    src, dst, _ = G.edges()
    deg = np.bincount(src, minlength=n) + np.bincount(dst, minlength=n)
    with atomic_output(path) as f:
        f.write(f"t {n} {src.shape[0]}\n".encode())
        write_lines(f, [np.arange(n), labels.astype(np.int64), deg], sep=" ", prefix="v")
        write_lines(f, [src.astype(np.int64), dst.astype(np.int64)], sep=" ", prefix="e")
