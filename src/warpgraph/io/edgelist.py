"""Plain and SNAP edge lists: one edge ``u v [weight [more columns]]`` per line.

Reading
-------
* Comment lines start with ``#`` or ``%`` (after optional blanks); blank lines are skipped.
* Columns are separated by spaces, tabs or commas (any mix, any number).
* Ids are 0-based by default (``base=1`` for 1-based files); a third column is the weight
  (int64 when every weight is an integer, else float64); further columns are kept in
  ``EdgeData.extra["columns"]``.
* SNAP headers are understood: ``# Directed graph`` / ``# Undirected graph`` set the default
  directedness, and ``# Nodes: N Edges: M`` is checked against the body (``M`` must equal the
  number of edge lines) and gives the vertex count ``N`` when every id is below ``N`` (SNAP ids
  may be sparse labels; then the count is the largest id + 1).
* A first line of exactly two integers ``n m`` followed by exactly ``m`` edge lines whose ids
  are all below ``n`` is a counts line (as in web-NotreDame), not an edge; ``counts_line=True``
  or ``False`` forces the decision.
* Without a header, the graph is directed (as SNAP and igraph read it).

Writing
-------
A SNAP-style header (``# Directed graph`` or ``# Undirected graph``, ``# Nodes: N Edges: M``,
column names) and tab-separated 0-based lines; an undirected graph lists each edge once.

Examples
--------
>>> import os, tempfile, numpy as np, warpgraph as wg
>>> path = os.path.join(tempfile.mkdtemp(), "g.txt")
>>> _ = open(path, "w").write("# Nodes: 4 Edges: 2\\n0\\t1\\n1\\t2\\n")
>>> G = wg.load(path)
>>> G.num_vertices, G.num_edges, G.is_directed()
(4, 2, True)
"""

from __future__ import annotations

import re
from typing import Any

import numpy as np

from ..errors import GraphFormatError
from . import _text
from ._edgedata import EdgeData
from ._source import atomic_output, read_buffer

NAME = "edgelist"
EXTENSIONS = (".txt", ".el", ".wel", ".edgelist", ".tsv", ".csv", ".snap", ".edge")

_NODES = re.compile(r"nodes\s*[:=]\s*([0-9]+)", re.I | re.ASCII)
_EDGES = re.compile(r"edges\s*[:=]\s*([0-9]+)", re.I | re.ASCII)
_INT = re.compile(r"^[+-]?[0-9]+$", re.ASCII)
_MAX_HEADER_LINES = 200


def _snap_header(buf: np.ndarray) -> dict[str, Any]:
    """Directedness and counts from the leading comment lines."""
    info: dict[str, Any] = {"comments": []}
    head = _text.first_lines(buf, _MAX_HEADER_LINES)
    for ln, text in head.lines:
        s = text.strip()
        if not s:
            continue
        if s[0] not in "#%":
            break
        info["comments"].append(text)
        low = s.lower()
        if "undirected graph" in low:
            info["directed"] = False
        elif "directed graph" in low:
            info["directed"] = True
        mn, me = _NODES.search(s), _EDGES.search(s)
        if mn:
            info["nodes"] = (int(mn.group(1)), ln)
        if me:
            info["edges"] = (int(me.group(1)), ln)
    return info


def parse(
    buf: np.ndarray,
    path: str | None = None,
    *,
    base: int = 0,
    directed: bool | None = None,
    counts_line: bool | None = None,
    comments: str = "#%",
    max_columns: int = 8,
    check_header: bool = True,
    fmt: str = NAME,
    default_directed: bool = True,
) -> EdgeData:
    """Parse an edge list held in ``buf`` (see the module docstring)."""
    if base not in (0, 1):
        raise ValueError(f"base must be 0 or 1, got {base}")
    info = _snap_header(buf)
    kw: dict[str, Any] = dict(
        nid=2, nvmin=0, nvmax=max_columns - 2, comments=comments.encode(), comma=True
    )
    # a leading "n m" counts line (web-NotreDame): decided before the scan when the lines
    # after it have another column count, else after the scan from the counts themselves
    start = 0
    counts: tuple[int, int, int] | None = None  # (n, m, line)
    guessed = False
    if counts_line is not False:
        first = _text.first_data_lines(buf, 2, comments)
        if first and len(first[0][2]) == 2 and all(_INT.match(t) for t in first[0][2]):
            if (len(first) == 2 and len(first[1][2]) != 2) or (len(first) == 1 and counts_line):
                n0, m0 = (int(t) for t in first[0][2])
                counts = (n0, m0, first[0][1])
                start = first[1][0] if len(first) == 2 else buf.shape[0]
                guessed = counts_line is None
        elif counts_line and first:
            raise GraphFormatError("expected a counts line 'n m'", path, first[0][1])
    table = _text.scan_table(buf, start, buf.shape[0], path, id_range=(0, _text.I64_MAX), **kw)
    src, dst = table.ids[0], table.ids[1]
    rows = table.rows
    values = [table.value(j) for j in range(table.nvals)]
    skip = 0  # data rows of the scan that are not edges (a counts line found after the scan)
    if counts is None and counts_line is not False and rows >= (1 if counts_line else 2):
        first_row = _text.line_text(buf, table.first_pos, 200).replace(",", " ").split()
        if len(first_row) == 2 and all(_INT.match(t) for t in first_row):
            n0, m0 = (int(t) for t in first_row)
            rest_max = max(int(src[1:].max()), int(dst[1:].max())) - base if rows > 1 else -1
            rest_min = min(int(src[1:].min()), int(dst[1:].min())) - base if rows > 1 else 0
            if counts_line or (m0 == rows - 1 and rest_max < n0 and rest_min >= 0):
                counts = (n0, m0, _text.line_of(buf, table.first_pos))
                skip = 1
        elif counts_line:
            raise GraphFormatError(
                "expected a counts line 'n m'", path, _text.line_of(buf, table.first_pos)
            )
    if skip:
        src, dst = src[skip:], dst[skip:]
        values = [v[skip:] for v in values]
        rows -= skip
    n_header = None
    if counts is not None:
        n0, m0, ln0 = counts
        top = max(int(src.max()), int(dst.max())) - base if rows else -1
        low = min(int(src.min()), int(dst.min())) - base if rows else 0
        if m0 != rows or top >= n0 or low < 0:
            if guessed:  # not a counts line after all: report the column count change
                _text.scan_table(buf, 0, buf.shape[0], path, **kw)
            raise GraphFormatError(
                f"counts line says {n0} vertices and {m0} edges, but the file has {rows} "
                f"edge lines with ids up to {top}",
                path,
                ln0,
            )
        n_header = n0
    if base:
        src = src - base
        dst = dst - base
    if rows and min(int(src.min()), int(dst.min())) < 0:
        bad = int(np.argmax((src < 0) | (dst < 0)))
        raise _text.locate_row(
            buf, start, buf.shape[0], path, bad + skip, f"vertex id below the base {base}", kw
        )
    hi = max(int(src.max()), int(dst.max())) if rows else -1
    n = hi + 1
    if n_header is not None:
        n = n_header
    if "edges" in info and check_header:
        m_h, ln = info["edges"]
        if m_h != rows:
            raise GraphFormatError(
                f"header says {m_h} edges but the file has {rows} edge lines", path, ln
            )
    if "nodes" in info:
        n_h, ln = info["nodes"]
        if n_h > hi:
            n = max(n, n_h)
    extra: dict[str, Any] = {"comments": info["comments"]}
    weights = values[0] if values else None
    if len(values) > 1:
        extra["columns"] = values[1:]
    if directed is None:
        directed = info.get("directed", default_directed)
    return EdgeData(src, dst, weights, n, bool(directed), fmt, extra)


def read(
    path: str,
    *,
    progress=None,
    base: int = 0,
    counts_line: bool | None = None,
    comments: str = "#%",
    max_columns: int = 8,
    check_header: bool = True,
) -> EdgeData:
    """Read an edge list file (see the module docstring for the options)."""
    return parse(
        read_buffer(path, progress, text=True),
        str(path),
        base=base,
        counts_line=counts_line,
        comments=comments,
        max_columns=max_columns,
        check_header=check_header,
    )


def write(G, path: str, *, weights: bool = True, comment: str | None = None) -> None:
    """Write ``G`` as a SNAP-style edge list (tab separated, 0-based)."""
    src, dst, w = G.to("cpu").edges()
    cols = [src, dst] + ([w] if (weights and w is not None) else [])
    kind = "Directed" if G.is_directed() else "Undirected"
    lines = [f"# {kind} graph" + (" (each edge listed once)" if not G.is_directed() else "")]
    if comment:
        lines += ["# " + c for c in comment.splitlines()]
    lines.append(f"# Nodes: {G.num_vertices} Edges: {src.shape[0]}")
    lines.append("# FromNodeId\tToNodeId" + ("\tWeight" if len(cols) == 3 else ""))
    with atomic_output(path) as f:
        f.write(("\n".join(lines) + "\n").encode())
        from ._write import write_lines

        write_lines(f, cols, sep="\t")
