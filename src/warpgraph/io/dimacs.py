"""DIMACS ``.gr`` files: the 9th Challenge shortest-path format and its PACE-2016 variant.

Reading
-------
``c`` lines are comments (anywhere). The problem line decides the layout:

* ``p sp n m`` (DIMACS 9, road networks): ``m`` arc lines ``a u v w``, 1-based, directed,
  integer (or real) weights. Road graphs list both directions of every road as two arcs.
* ``p tw n m`` (PACE 2016 treewidth, e.g. the road graphs of road-graphs-pace16): ``m`` edge
  lines ``u v``, 1-based, undirected, no weights.
* ``p edge n m`` / ``p col n m`` (DIMACS coloring and clique): ``m`` lines ``e u v``,
  undirected.

The number of edge lines must equal ``m``, and ids must lie in ``[1, n]``.

Writing
-------
A directed or weighted graph is written as ``p sp`` with ``a u v w`` lines; an undirected,
unweighted one as PACE ``p tw``. DIMACS ``sp`` has no way to say "undirected" or
"unweighted", so warpgraph adds a comment line (``c warpgraph: undirected, each edge listed
once`` / ``c warpgraph: unweighted``) that its reader honours; other readers see a directed
graph with one arc per undirected edge and weights 1.

Examples
--------
>>> import os, tempfile, warpgraph as wg
>>> path = os.path.join(tempfile.mkdtemp(), "g.gr")
>>> _ = open(path, "w").write("c tiny\\np sp 3 2\\na 1 2 7\\na 2 3 1\\n")
>>> G = wg.load(path)
>>> G.num_edges, G.weights.tolist()
(2, [7, 1])
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ..errors import GraphFormatError
from . import _text
from ._edgedata import EdgeData
from ._source import atomic_output, read_buffer
from ._write import write_lines

NAME = "dimacs"
EXTENSIONS = (".gr", ".dimacs", ".col")

MARK_UNDIRECTED = "c warpgraph: undirected, each edge listed once"
MARK_UNWEIGHTED = "c warpgraph: unweighted"


def parse(buf: np.ndarray, path: str | None = None) -> EdgeData:
    """Parse a DIMACS / PACE graph held in ``buf``."""
    pos, ln = 0, 1
    comments: list[str] = []
    while True:
        h = _text.first_lines(buf, 1, pos, ln)
        if not h.lines:
            raise GraphFormatError("missing problem line 'p sp n m' (or 'p tw n m')", path, ln)
        ln_p, text = h.lines[0]
        pos, ln = h.body, h.next_line
        s = text.strip()
        if not s:
            continue
        if s == "c" or s.startswith(("c ", "c\t")):
            comments.append(s)
            continue
        break
    parts = s.split()
    if parts[0] != "p" or len(parts) != 4:
        raise GraphFormatError(f"expected the problem line 'p sp n m', got {s!r}", path, ln_p)
    kind = parts[1].lower()
    n = _text.header_int(parts[2], "vertex count", path, ln_p)
    m = _text.header_int(parts[3], "edge count", path, ln_p)
    if kind == "sp":
        kw: dict[str, Any] = dict(nid=2, nvmin=1, nvmax=1, prefix="a")
        directed = MARK_UNDIRECTED not in comments
    elif kind == "tw":
        kw = dict(nid=2, nvmin=0, nvmax=0)
        directed = False
    elif kind in ("edge", "col"):
        kw = dict(nid=2, nvmin=0, nvmax=0, prefix="e")
        directed = False
    else:
        raise GraphFormatError(
            f"unsupported DIMACS problem {kind!r} (supported: sp, tw, edge, col)", path, ln_p
        )
    kw["comments"] = b"c"
    end = buf.shape[0]
    table = _text.scan_table(
        buf, pos, end, path, id_range=(1, max(n, 1) if n else 0), max_rows=m, **kw
    )
    if table.rows < m:
        raise GraphFormatError(
            f"problem line announces {m} edges but the file has {table.rows}",
            path,
            _text.line_of(buf, end),
        )
    src, dst = table.ids[0] - 1, table.ids[1] - 1
    weights = table.value(0) if kw["nvmax"] and MARK_UNWEIGHTED not in comments else None
    extra = {"problem": kind, "comments": comments}
    return EdgeData(src, dst, weights, n, directed, NAME, extra)


def read(path: str, *, progress=None) -> EdgeData:
    """Read a DIMACS ``.gr`` file (``p sp``, PACE ``p tw``, or ``p edge``)."""
    return parse(read_buffer(path, progress, text=True), str(path))


def write(G, path: str, *, variant: str | None = None, comment: str | None = None) -> None:
    """Write ``G`` as DIMACS ``p sp`` or PACE ``p tw`` (``variant="sp"``/``"tw"``; default:
    ``tw`` for undirected unweighted graphs, else ``sp``)."""
    src, dst, w = G.edges()
    if variant is None:
        variant = "tw" if (not G.is_directed() and w is None) else "sp"
    if variant not in ("sp", "tw"):
        raise ValueError(f"variant must be 'sp' or 'tw', got {variant!r}")
    from ..errors import InvalidArgumentError

    if variant == "tw" and G.is_directed():
        raise InvalidArgumentError("PACE 'p tw' files hold undirected graphs")
    if variant == "tw" and w is not None:
        raise InvalidArgumentError("PACE 'p tw' files have no weights; use variant='sp'")
    lines = ["c written by warpgraph"]
    if comment:
        lines += ["c " + c for c in comment.splitlines()]
    cols: list[np.ndarray] = [src.astype(np.int64) + 1, dst.astype(np.int64) + 1]
    if variant == "sp":
        if not G.is_directed():
            lines.append(MARK_UNDIRECTED)
        if w is None:
            lines.append(MARK_UNWEIGHTED)
            w = np.ones(src.shape[0], dtype=np.int64)
        cols.append(w)
    lines.append(f"p {variant} {G.num_vertices} {src.shape[0]}")
    with atomic_output(path) as f:
        f.write(("\n".join(lines) + "\n").encode())
        write_lines(f, cols, sep=" ", prefix="a" if variant == "sp" else "")
