"""Network Repository ``.edges`` files: ``u v [weight ...]`` lines, usually 1-based, undirected.

Reading
-------
Comments start with ``%`` or ``#``; columns are separated by blanks or commas. The id base is
detected: 0-based if some id is 0, else 1-based (``base=`` forces it). The graph is undirected
unless ``directed=True`` is passed to :func:`warpgraph.io.load`. A comment written by warpgraph
(``% warpgraph: vertices=N edges=M directed|undirected``) restores the vertex count (trailing
isolated vertices) and the directedness.

Writing
-------
1-based, blank separated, with the warpgraph comment line above.

Examples
--------
>>> import os, tempfile, warpgraph as wg
>>> path = os.path.join(tempfile.mkdtemp(), "g.edges")
>>> _ = open(path, "w").write("1,2\\n2,3\\n")
>>> G = wg.load(path)
>>> G.num_vertices, G.num_edges, G.is_directed()
(3, 2, False)
"""

from __future__ import annotations

import re

import numpy as np

from ..errors import GraphFormatError
from . import _text, edgelist
from ._edgedata import EdgeData
from ._source import atomic_output, read_buffer
from ._write import write_lines

NAME = "edges"
EXTENSIONS = (".edges",)

_MARK = re.compile(
    r"^[%#]\s*warpgraph:\s*vertices=([0-9]+)\s+edges=([0-9]+)\s+(directed|undirected)", re.ASCII
)


def parse(buf: np.ndarray, path: str | None = None, *, base: int | None = None) -> EdgeData:
    """Parse a ``.edges`` file held in ``buf``."""
    data = edgelist.parse(buf, path, base=0, counts_line=False, default_directed=False, fmt=NAME)
    mark = None
    for ln, text in _text.first_lines(buf, 50).lines:
        mt = _MARK.match(text.strip())
        if mt:
            mark = (int(mt.group(1)), int(mt.group(2)), mt.group(3) == "directed", ln)
            break
    if base is None:
        lo = min(int(data.src.min()), int(data.dst.min())) if data.num_edges else 1
        base = 0 if lo == 0 else 1
    if base == 1:
        if data.num_edges and min(int(data.src.min()), int(data.dst.min())) < 1:
            bad = int(np.argmax((data.src < 1) | (data.dst < 1)))
            raise _text.locate_row(
                buf, 0, buf.shape[0], path, bad, "vertex id 0 in a 1-based file",
                {"nvmax": 6, "comma": True},
            )  # fmt: skip
        data.src = data.src - 1
        data.dst = data.dst - 1
        data.num_vertices = max(0, data.num_vertices - 1)
    data.directed = False
    if mark is not None:
        n, m, directed, ln = mark
        if m != data.num_edges:
            raise GraphFormatError(
                f"header announces {m} edges but the file has {data.num_edges}", path, ln
            )
        if n < data.num_vertices:
            raise GraphFormatError(
                f"header announces {n} vertices but ids go up to {data.num_vertices}", path, ln
            )
        data.num_vertices = n
        data.directed = directed
    data.extra["base"] = base
    return data


def read(path: str, *, progress=None, base: int | None = None) -> EdgeData:
    """Read a Network Repository ``.edges`` file (see the module docstring)."""
    return parse(read_buffer(path, progress, text=True), str(path), base=base)


def write(G, path: str) -> None:
    """Write ``G`` as a 1-based ``.edges`` file."""
    src, dst, w = G.edges()
    kind = "directed" if G.is_directed() else "undirected"
    header = f"% warpgraph: vertices={G.num_vertices} edges={src.shape[0]} {kind}\n"
    cols = [src.astype(np.int64) + 1, dst.astype(np.int64) + 1] + ([] if w is None else [w])
    with atomic_output(path) as f:
        f.write(header.encode())
        write_lines(f, cols, sep=" ")


_ = EdgeData
