"""Pajek ``.net`` files: ``*Vertices``, then ``*Arcs`` / ``*Edges`` / ``*Arcslist`` /
``*Edgeslist`` sections, 1-based.

Reading
-------
* ``*Vertices n`` gives the vertex count (``*Vertices n n1`` for two-mode networks is accepted;
  the count is ``n``). Vertex lines ``id "label" [x y z] [attributes]`` are only checked
  (the id must lie in ``[1, n]``) unless ``names=True``, which returns the labels in
  ``EdgeData.extra["vertex_names"]`` (and :func:`warpgraph.io.load` puts them in
  ``Graph.vertex_labels``).
* ``*Arcs`` lines ``u v [w] [attributes]`` are directed, ``*Edges`` lines undirected; a missing
  weight is 1 (as Pajek reads it). ``*Arcslist`` / ``*Edgeslist`` lines are ``u v1 v2 ...``.
* A file with only edge sections is undirected; a file with arcs is directed, and its
  undirected edges become two arcs.
* ``%`` lines are comments; ``*Network`` lines are skipped; ``*Matrix`` raises
  GraphFormatError (not supported).

Writing
-------
``*Vertices n`` (with ``"labels"`` when the graph has ``vertex_labels``), then ``*Arcs`` or
``*Edges`` lines ``u v [w]``.

Examples
--------
>>> import os, tempfile, warpgraph as wg
>>> path = os.path.join(tempfile.mkdtemp(), "g.net")
>>> _ = open(path, "w").write('*Vertices 3\\n1 "a"\\n2 "b"\\n3 "c"\\n*Edges\\n1 2 2.5\\n2 3\\n')
>>> G = wg.load(path, names=True)
>>> G.num_edges, G.weights.tolist(), G.vertex_labels
(2, [2.5, 2.5, 1.0, 1.0], ['a', 'b', 'c'])
"""

from __future__ import annotations

import shlex
from typing import Any

import numpy as np

from ..errors import GraphFormatError
from . import _text
from ._edgedata import EdgeData
from ._source import atomic_output, read_buffer
from ._write import write_lines

NAME = "pajek"
EXTENSIONS = (".net", ".paj", ".pajek")


def _sections(buf: np.ndarray) -> list[tuple[int, int, int]]:
    """(start of the '*' line, start of its body, end of its body) for every section."""
    stars = np.flatnonzero(buf == ord("*"))
    if stars.size:
        stars = stars[(stars == 0) | (buf[np.maximum(stars - 1, 0)] == 10)]
    out = []
    n = buf.shape[0]
    for k, s in enumerate(stars.tolist()):
        nl = s
        while nl < n and buf[nl] != 10:
            nl += 1
        end = int(stars[k + 1]) if k + 1 < stars.size else n
        out.append((s, min(nl + 1, n), end))
    return out


def _vertex_names(buf, lo, hi, n, path) -> list[str]:
    names = [str(i + 1) for i in range(n)]
    pos, ln0 = lo, _text.line_of(buf, lo)
    text = bytes(buf[lo:hi]).decode("utf-8", errors="replace")
    for k, line in enumerate(text.splitlines()):
        s = line.strip()
        if not s or s.startswith("%"):
            continue
        try:
            parts = shlex.split(s, posix=True)
        except ValueError:
            raise GraphFormatError(f"malformed vertex line {s!r}", path, ln0 + k) from None
        if not parts or not _text.is_int(parts[0]):
            raise GraphFormatError(f"malformed vertex line {s!r}", path, ln0 + k)
        vid = int(parts[0])
        if not 1 <= vid <= n:
            raise GraphFormatError(f"vertex id {vid} out of range [1, {n}]", path, ln0 + k)
        if len(parts) > 1:
            names[vid - 1] = parts[1]
    _ = pos
    return names


def parse(buf: np.ndarray, path: str | None = None, *, names: bool = False) -> EdgeData:
    """Parse a Pajek network held in ``buf``."""
    n = None
    srcs, dsts, ws, kinds = [], [], [], []
    extra: dict[str, Any] = {}
    any_weight = False
    weight_float = False
    for start, lo, hi in _sections(buf):
        head = _text.line_text(buf, start, 200).strip()
        ln = _text.line_of(buf, start)
        parts = head.split()
        key = parts[0].lower()
        if key == "*vertices":
            if len(parts) < 2:
                raise GraphFormatError(f"malformed section line {head!r}", path, ln)
            n = _text.header_int(parts[1], "vertex count", path, ln)
            if len(parts) > 2:
                extra["two_mode_left"] = int(parts[2]) if _text.is_int(parts[2]) else None
            if names:
                extra["vertex_names"] = _vertex_names(buf, lo, hi, n, path)
            else:  # not parsed, but every vertex line must start with an id in [1, n]
                _text.scan_table(
                    buf, lo, hi, path, nid=1, nvmin=0, nvmax=0, comments=b"%", extra_ok=True,
                    ragged=True, id_range=(1, max(n, 1) if n else 0),
                )  # fmt: skip
            continue
        if key in ("*network", "*description"):
            continue
        if n is None:
            raise GraphFormatError(f"{parts[0]} before *Vertices", path, ln)
        rng = (1, max(n, 1) if n else 0)
        if key in ("*arcs", "*edges"):
            t = _text.scan_table(
                buf, lo, hi, path, nid=2, nvmin=0, nvmax=1, comments=b"%", extra_ok=True,
                ragged=True, id_range=rng,
            )  # fmt: skip
            srcs.append(t.ids[0] - 1)
            dsts.append(t.ids[1] - 1)
            if t.nvals:
                any_weight = True
                col = t.value(0)
                weight_float |= col.dtype.kind == "f"
                col = col.copy()
                col[t.nvrow == 0] = 1
                ws.append(col)
            else:
                ws.append(None)
            kinds.append(key == "*arcs")
        elif key in ("*arcslist", "*edgeslist"):
            a = _text.adjacency(
                buf, lo, hi, path, keep_blank=False, first_is_row=True, id_range=rng,
                comments=b"%",
            )  # fmt: skip
            srcs.append(a.src - 1)
            dsts.append(a.dst - 1)
            ws.append(None)
            kinds.append(key == "*arcslist")
        else:
            raise GraphFormatError(f"unsupported Pajek section {parts[0]!r}", path, ln)
    if n is None:
        raise GraphFormatError("missing *Vertices line", path, 1)
    directed = any(kinds)
    if not srcs:
        src = dst = np.zeros(0, dtype=np.int64)
        w = None
    else:
        if directed and not all(kinds):  # undirected edges of a directed file: both arcs
            for k in range(len(srcs)):
                if not kinds[k]:
                    off = srcs[k] != dsts[k]
                    s, d = srcs[k], dsts[k]
                    srcs[k] = np.concatenate([s, d[off]])
                    dsts[k] = np.concatenate([d, s[off]])
                    if ws[k] is not None:
                        ws[k] = np.concatenate([ws[k], ws[k][off]])
        src, dst = np.concatenate(srcs), np.concatenate(dsts)
        w = None
        if any_weight:
            dtype = np.float64 if weight_float else np.int64
            w = np.concatenate(
                [
                    np.ones(s.shape[0], dtype) if x is None else x.astype(dtype)
                    for s, x in zip(srcs, ws, strict=True)
                ]
            )
    return EdgeData(src, dst, w, n, directed, NAME, extra)


def read(path: str, *, progress=None, names: bool = False) -> EdgeData:
    """Read a Pajek ``.net`` file (see the module docstring)."""
    return parse(read_buffer(path, progress, text=True), str(path), names=names)


def _quote(label: Any) -> str:
    s = str(label).replace('"', "'")
    return f'"{s}"'


def write(G, path: str) -> None:
    """Write ``G`` as a Pajek ``.net`` file."""
    src, dst, w = G.edges()
    n = G.num_vertices
    with atomic_output(path) as f:
        f.write(f"% written by warpgraph\n*Vertices {n}\n".encode())
        labels = getattr(G, "vertex_labels", None)
        if labels is not None and len(labels) == n:
            text = "\n".join(f"{i + 1} {_quote(x)}" for i, x in enumerate(labels))
            f.write((text + "\n").encode())
        f.write(b"*Arcs\n" if G.is_directed() else b"*Edges\n")
        cols = [src.astype(np.int64) + 1, dst.astype(np.int64) + 1] + ([] if w is None else [w])
        write_lines(f, cols, sep=" ")
