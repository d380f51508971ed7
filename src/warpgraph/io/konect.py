"""KONECT ``out.*`` files (the Koblenz Network Collection).

Reading
-------
* Line 1: ``% <structure> <weights>``: ``structure`` is ``sym`` (undirected), ``asym``
  (directed) or ``bip`` (bipartite, undirected); ``weights`` names the edge weight type
  (``unweighted``, ``positive``, ``posweighted``, ``signed``, ``weighted``, ...).
* Line 2 (optional): ``% m n1 [n2]``: edge count and vertex counts. For ``sym``/``asym`` the
  vertex count is ``max(n1, n2)``; for ``bip`` the left side has ``n1`` vertices (ids
  ``1..n1``) and the right side ``n2``: right vertex ``j`` becomes ``n1 + j - 1`` (0-based).
* Then ``u v [weight [timestamp]]`` lines, 1-based, blank or tab separated, ``%`` comments.
  The weight column becomes the edge weights; the timestamp column goes to
  ``EdgeData.extra["timestamps"]``. The edge count must match ``m`` when line 2 is present.

Writing
-------
``% sym|asym unweighted|weighted`` then ``% m n n`` then 1-based lines (each undirected edge
once).

Examples
--------
>>> import os, tempfile, warpgraph as wg
>>> path = os.path.join(tempfile.mkdtemp(), "out.tiny")
>>> _ = open(path, "w").write("% sym unweighted\\n% 2 3 3\\n1 2\\n2 3\\n")
>>> G = wg.load(path)
>>> G.num_vertices, G.num_edges, G.is_directed()
(3, 2, False)
"""

from __future__ import annotations

import re
from typing import Any

import numpy as np

from ..errors import GraphFormatError
from . import _text
from ._edgedata import EdgeData
from ._source import atomic_output, read_buffer
from ._write import write_lines

NAME = "konect"
EXTENSIONS = (".konect",)

_STRUCT = re.compile(r"^%\s*(sym|asym|bip)\b\s*(\S*)", re.I)
_COUNTS = re.compile(r"^%\s*([0-9]+)\s+([0-9]+)(?:\s+([0-9]+))?\s*$", re.ASCII)


def parse(buf: np.ndarray, path: str | None = None) -> EdgeData:
    """Parse a KONECT ``out.*`` file held in ``buf``."""
    head = _text.first_lines(buf, 2)
    structure, weight_type = None, ""
    counts = None
    for ln, text in head.lines:
        mt = _STRUCT.match(text.strip())
        mc = _COUNTS.match(text.strip())
        if mt and structure is None:
            structure, weight_type = mt.group(1).lower(), mt.group(2).lower()
        elif mc and structure is not None and counts is None:
            counts = tuple(int(g) for g in mc.groups() if g is not None), ln
    if structure is None:
        raise GraphFormatError("missing KONECT header line '% sym|asym|bip <weights>'", path, 1)
    n1 = n2 = None
    m = None
    if counts is not None:
        vals, ln_c = counts
        m, n1 = vals[0], vals[1]
        n2 = vals[2] if len(vals) > 2 else n1
    kw: dict[str, Any] = dict(nid=2, nvmin=0, nvmax=2, comments=b"%")
    table = _text.scan_table(buf, 0, buf.shape[0], path, id_range=(1, _text.I64_MAX), **kw)
    i, j = table.ids[0], table.ids[1]
    if m is not None and table.rows != m:
        raise GraphFormatError(
            f"header announces {m} edges but the file has {table.rows} edge lines", path, ln_c
        )
    imax = int(i.max()) if table.rows else 0
    jmax = int(j.max()) if table.rows else 0
    if structure == "bip":
        left = n1 if n1 is not None else imax
        right = n2 if n2 is not None else jmax
        n = left + right
        src, dst = i - 1, j - 1 + left
    else:
        n = max(imax, jmax)
        if n1 is not None:
            n = max(n, n1, n2 or 0)
        left, right = n, n
        src, dst = i - 1, j - 1
    if n1 is not None and (imax > left or jmax > right):
        side = "left" if imax > left else "right"
        bad = np.flatnonzero((i > left) | (j > right))
        raise _text.locate_row(
            buf, 0, buf.shape[0], path, int(bad[0]),
            f"vertex id beyond the {side} vertex count of the header", kw,
        )  # fmt: skip
    weights = table.value(0) if table.nvals >= 1 else None
    extra: dict[str, Any] = {"structure": structure, "weight_type": weight_type}
    if structure == "bip":
        extra["bipartite_left"] = left
    if table.nvals >= 2:
        extra["timestamps"] = table.value(1)
    return EdgeData(src, dst, weights, n, structure == "asym", NAME, extra)


def read(path: str, *, progress=None) -> EdgeData:
    """Read a KONECT ``out.*`` file (see the module docstring)."""
    return parse(read_buffer(path, progress, text=True), str(path))


def write(G, path: str) -> None:
    """Write ``G`` as a KONECT ``out.*`` file."""
    src, dst, w = G.edges()
    structure = "asym" if G.is_directed() else "sym"
    wt = "unweighted" if w is None else "weighted"
    n = G.num_vertices
    header = f"% {structure} {wt}\n% {src.shape[0]} {n} {n}\n"
    cols = [src.astype(np.int64) + 1, dst.astype(np.int64) + 1] + ([] if w is None else [w])
    with atomic_output(path) as f:
        f.write(header.encode())
        write_lines(f, cols, sep=" ")
