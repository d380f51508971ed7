"""Matrix Market coordinate files (``.mtx``): the SuiteSparse / DIMACS10 exchange format.

Reading
-------
* Banner ``%%MatrixMarket matrix coordinate <field> <symmetry>``; ``field`` is ``pattern``
  (no weights), ``integer`` (int64 weights) or ``real`` (float64 weights); ``symmetry`` is
  ``general`` (a directed graph), ``symmetric`` (undirected: each stored entry ``i j`` is the
  edge {i, j}; the lower triangle is the convention but either half is accepted) or
  ``skew-symmetric`` (directed: entry ``i j w`` also gives ``j i -w``). ``complex``,
  ``hermitian`` and dense ``array`` files raise GraphFormatError.
* ``%`` comment lines, then the size line ``rows cols nnz``, then ``nnz`` 1-based entries; the
  entry count must equal ``nnz`` and every index must lie within ``rows`` x ``cols``. The graph
  has ``max(rows, cols)`` vertices (a rectangular matrix is read as a square one).
* **Body-only files** (no banner, no size line: just ``i j`` 1-based lines, as in some
  DIMACS10 dumps) load too. A first line of three integers ``r c k`` followed by exactly ``k``
  entries within ``r x c`` is taken for a size line. Without a banner the symmetry is guessed:
  if every entry lies in one triangle (all ``i >= j`` or all ``i <= j``) the file is read as a
  symmetric (undirected) matrix, else as a general (directed) one; pass ``symmetric=True`` or
  ``False`` to decide yourself.

Writing
-------
``pattern``, ``integer`` or ``real`` by the weight dtype; ``symmetric`` (lower triangle) for
undirected graphs, ``general`` for directed ones. Indices are 1-based.

Examples
--------
>>> import os, tempfile, warpgraph as wg
>>> path = os.path.join(tempfile.mkdtemp(), "body.mtx")
>>> _ = open(path, "w").write("2 1\\n3 1\\n3 2\\n")
>>> G = wg.load(path)
>>> G.num_vertices, G.num_edges, G.is_directed()
(3, 3, False)
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ..errors import GraphFormatError
from . import _text
from ._edgedata import EdgeData
from ._source import atomic_output, read_buffer
from ._write import write_lines

NAME = "mtx"
EXTENSIONS = (".mtx", ".mm")

_FIELDS = ("pattern", "integer", "real", "double")
_SYMS = ("general", "symmetric", "skew-symmetric")


def _parse_banner(text: str, path: str, ln: int) -> tuple[str, str]:
    parts = text.strip().split()
    if len(parts) != 5 or parts[0].lower() != "%%matrixmarket" or parts[1].lower() != "matrix":
        raise GraphFormatError(f"malformed Matrix Market banner {text.strip()!r}", path, ln)
    layout, field, sym = (p.lower() for p in parts[2:])
    if layout != "coordinate":
        raise GraphFormatError(
            f"only 'coordinate' Matrix Market files hold graphs, this one is {layout!r}", path, ln
        )
    if field not in _FIELDS:
        raise GraphFormatError(f"unsupported Matrix Market field {field!r}", path, ln)
    if sym not in _SYMS:
        raise GraphFormatError(f"unsupported Matrix Market symmetry {sym!r}", path, ln)
    return field, sym


def parse(buf: np.ndarray, path: str | None = None, *, symmetric: bool | None = None) -> EdgeData:
    """Parse a Matrix Market file held in ``buf``."""
    n_bytes = buf.shape[0]
    head = _text.first_lines(buf, 1)
    banner = bool(head.lines) and head.lines[0][1].lstrip().lower().startswith("%%matrixmarket")
    if not banner:
        return _parse_body_only(buf, path, symmetric)
    field, sym = _parse_banner(head.lines[0][1], path, 1)
    # comments, then the size line
    pos, ln = head.body, head.next_line
    while True:
        h = _text.first_lines(buf, 1, pos, ln)
        if not h.lines:
            raise GraphFormatError("missing size line 'rows cols entries'", path, ln)
        ln_size, text = h.lines[0]
        pos, ln = h.body, h.next_line
        s = text.strip()
        if s and not s.startswith("%"):
            break
    parts = s.split()
    if len(parts) != 3:
        raise GraphFormatError(
            f"malformed size line {s!r}: expected 'rows cols entries'", path, ln_size
        )
    rows, cols, nnz = (
        _text.header_int(t, w, path, ln_size)
        for t, w in zip(parts, ("row count", "column count", "entry count"), strict=True)
    )
    n = max(rows, cols)
    nv = 0 if field == "pattern" else 1
    kw: dict[str, Any] = dict(nid=2, nvmin=nv, nvmax=nv, comments=b"%")
    table = _text.scan_table(
        buf, pos, n_bytes, path, id_range=(1, max(n, 1) if n else 0), max_rows=nnz,
        what="index", **kw,
    )  # fmt: skip
    if table.rows < nnz:
        raise GraphFormatError(
            f"size line announces {nnz} entries but the file has {table.rows}",
            path,
            _text.line_of(buf, n_bytes),
        )
    i, j = table.ids[0], table.ids[1]
    if rows != cols and table.rows:
        bad = np.flatnonzero((i > rows) | (j > cols))
        if bad.size:
            raise _text.locate_row(
                buf, pos, n_bytes, path, int(bad[0]),
                f"entry outside the {rows} x {cols} matrix", kw,
            )  # fmt: skip
    weights = None
    if nv:
        weights = table.value(0)
        if field in ("real", "double") and weights.dtype.kind != "f":
            weights = weights.astype(np.float64)
        elif field == "integer" and weights.dtype.kind == "f":
            bad = np.flatnonzero(weights != np.round(weights))
            first = int(bad[0]) if bad.size else int(np.argmax(~np.isfinite(weights)))
            raise _text.locate_row(
                buf, pos, n_bytes, path, first, "non-integer value in an 'integer' matrix", kw
            )
    src, dst = i - 1, j - 1
    extra: dict[str, Any] = {"field": field, "symmetry": sym, "shape": (rows, cols)}
    if sym == "skew-symmetric":
        off = src != dst
        src, dst = np.concatenate([src, dst[off]]), np.concatenate([dst, src[off]])
        if weights is not None:
            weights = np.concatenate([weights, -weights[off]])
        file_directed = True
    else:
        file_directed = sym == "general"
    return EdgeData(src, dst, weights, n, file_directed, NAME, extra)


def _parse_body_only(buf: np.ndarray, path: str | None, symmetric: bool | None) -> EdgeData:
    kw: dict[str, Any] = dict(nid=2, nvmin=0, nvmax=1, comments=b"%")
    first = _text.first_data_lines(buf, 2, "%")
    start_byte = 0
    n = None
    size_line = None
    if (
        len(first) == 2
        and len(first[0][2]) == 3
        and len(first[1][2]) == 2
        and all(_text.is_int(t) for t in first[0][2])
    ):  # "r c k" then two-column entries: a size line
        size_line = tuple(_text.header_int(t, "count", path, first[0][1]) for t in first[0][2])
        start_byte = first[1][0]
    table = _text.scan_table(buf, start_byte, buf.shape[0], path, id_range=(1, _text.I64_MAX), **kw)
    i, j = table.ids[0], table.ids[1]
    rows = table.rows
    start = 0
    if size_line is None and table.nvals == 1 and rows >= 1 and not (table.float_mask & 1):
        r, c, k = int(i[0]), int(j[0]), int(table.vi[0, 0])
        if k == rows - 1 and (rows == 1 or (int(i[1:].max()) <= r and int(j[1:].max()) <= c)):
            size_line = (r, c, k)
            start = 1
    if size_line is not None:
        r, c, k = size_line
        n = max(r, c)
        if rows - start != k:
            raise GraphFormatError(
                f"size line announces {k} entries but the file has {rows - start}",
                path,
                _text.line_of(buf, buf.shape[0]),
            )
        bad = np.flatnonzero((i[start:] > r) | (j[start:] > c))
        if bad.size:
            raise _text.locate_row(
                buf, start_byte, buf.shape[0], path, int(bad[0]) + start,
                f"entry outside the {r} x {c} matrix", kw,
            )  # fmt: skip
    i, j = i[start:], j[start:]
    weights = table.value(0)[start:] if table.nvals == 1 else None
    if n is None:
        n = max(int(i.max()), int(j.max())) if i.size else 0
    src, dst = i - 1, j - 1
    lower = bool(np.all(i >= j)) if i.size else True
    upper = bool(np.all(i <= j)) if i.size else True
    if symmetric is None:
        symmetric = (lower or upper) and i.size > 0
        how = "guessed"
    else:
        how = "given"
    extra = {
        "field": "unknown",
        "symmetry": ("symmetric" if symmetric else "general") + f" ({how})",
        "shape": (n, n),
    }
    return EdgeData(src, dst, weights, n, not symmetric, NAME, extra)


def read(path: str, *, progress=None, symmetric: bool | None = None) -> EdgeData:
    """Read a Matrix Market file (see the module docstring).

    ``symmetric`` applies to body-only files (no banner): True reads every entry as an
    undirected edge, False as an arc; None (default) guesses from the triangle test.
    """
    return parse(read_buffer(path, progress, text=True), str(path), symmetric=symmetric)


def write(G, path: str, *, comment: str | None = None) -> None:
    """Write ``G`` as a Matrix Market coordinate file."""
    src, dst, w = G.edges()
    if w is None:
        field = "pattern"
    elif w.dtype.kind == "f":
        field = "real"
    else:
        field = "integer"
    sym = "general" if G.is_directed() else "symmetric"
    if not G.is_directed():  # lower triangle: row >= column
        src, dst = dst, src
    n = G.num_vertices
    lines = [f"%%MatrixMarket matrix coordinate {field} {sym}", "% written by warpgraph"]
    if comment:
        lines += ["% " + c for c in comment.splitlines()]
    lines.append(f"{n} {n} {src.shape[0]}")
    cols = [src.astype(np.int64) + 1, dst.astype(np.int64) + 1] + ([] if w is None else [w])
    with atomic_output(path) as f:
        f.write(("\n".join(lines) + "\n").encode())
        write_lines(f, cols, sep=" ")
