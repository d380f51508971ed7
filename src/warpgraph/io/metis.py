"""METIS / Chaco ``.graph`` files: undirected graphs as 1-based adjacency lines.

Reading
-------
The first non-comment line is ``n m [fmt [ncon]]``: ``n`` vertices, ``m`` undirected edges,
and ``fmt``, up to three binary digits ``abc``: ``a`` vertex sizes present, ``b`` vertex
weights present (``ncon`` of them, default 1), ``c`` edge weights present. Then line ``i``
(``%`` comment lines do not count; a blank line is a vertex without neighbours) lists, after the
optional size and weights, the neighbours of vertex ``i``, each followed by the edge weight when
``c`` is set. All numbers are integers; ids are 1-based.

Checks: exactly ``n`` vertex lines (trailing blank lines are tolerated), ids in ``[1, n]``,
``2m`` neighbour entries in total, no self-loop, and the adjacency must be symmetric with equal
weights both ways (``check=False`` skips this sort-based test). Every edge ``{u, v}`` appears in
both lines; the EdgeData keeps it once (``u < v``). Vertex weights and sizes are returned in
``EdgeData.extra``.

Writing
-------
Undirected graphs only, without self-loops; integer weights only (``fmt`` ``001``). Vertex
weights can be passed as ``vertex_weights=`` (integer array of shape (n,) or (n, ncon)).

Examples
--------
>>> import os, tempfile, warpgraph as wg
>>> path = os.path.join(tempfile.mkdtemp(), "g.graph")
>>> _ = open(path, "w").write("% a path\\n3 2\\n2\\n1 3\\n2\\n")
>>> G = wg.load(path)
>>> G.num_edges, G.is_directed()
(2, False)
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ..errors import GraphFormatError, InvalidArgumentError
from . import _text
from ._edgedata import EdgeData
from ._source import atomic_output, read_buffer
from ._write import write_ragged_lines

NAME = "metis"
EXTENSIONS = (".graph", ".metis")


def parse(buf: np.ndarray, path: str | None = None, *, check: bool = True) -> EdgeData:
    """Parse a METIS graph held in ``buf``."""
    pos, ln = 0, 1
    while True:
        h = _text.first_lines(buf, 1, pos, ln)
        if not h.lines:
            raise GraphFormatError("missing header line 'n m [fmt [ncon]]'", path, ln)
        ln_h, text = h.lines[0]
        pos, ln = h.body, h.next_line
        s = text.strip()
        if s and not s.startswith("%"):
            break
    parts = s.split()
    if not 2 <= len(parts) <= 4 or not all(_text.is_int(p) for p in parts):
        raise GraphFormatError(f"malformed header {s!r}: expected 'n m [fmt [ncon]]'", path, ln_h)
    n = _text.header_int(parts[0], "vertex count", path, ln_h)
    m = _text.header_int(parts[1], "edge count", path, ln_h)
    fmt = parts[2] if len(parts) > 2 else "0"
    if len(fmt) > 3 or any(c not in "01" for c in fmt):
        raise GraphFormatError(f"malformed fmt field {fmt!r} in header {s!r}", path, ln_h)
    fmt = fmt.rjust(3, "0")
    has_size, has_vw, has_ew = (c == "1" for c in fmt)
    ncon = _text.header_int(parts[3], "ncon", path, ln_h) if len(parts) > 3 else int(has_vw)
    if len(parts) > 3 and not has_vw:
        raise GraphFormatError(f"ncon given but fmt {fmt!r} has no vertex weights", path, ln_h)
    if ncon > 1000:
        raise GraphFormatError(f"ncon {ncon} is implausibly large", path, ln_h)
    nskip = int(has_size) + ncon
    adj = _text.adjacency(
        buf,
        pos,
        buf.shape[0],
        path,
        keep_blank=True,
        first_is_row=False,
        nskip=nskip,
        stride=2 if has_ew else 1,
        max_records=n,
        id_range=(1, max(n, 1) if n else 0),
        comments=b"%",
        what="neighbour id",
    )
    end_line = _text.line_of(buf, buf.shape[0])
    if adj.records < n:
        raise GraphFormatError(
            f"header announces {n} vertices but the file has {adj.records} vertex lines",
            path,
            end_line,
        )
    src, dst = adj.src, adj.dst - 1
    if src.shape[0] != 2 * m:
        raise GraphFormatError(
            f"header announces {m} edges, so {2 * m} neighbour entries, but the file has "
            f"{src.shape[0]}",
            path,
            ln_h,
        )
    loops = np.flatnonzero(src == dst)
    if loops.size:
        v = int(src[loops[0]])
        raise GraphFormatError(f"self-loop on vertex {v + 1} (METIS forbids them)", path)
    w = adj.w
    if check:
        _check_symmetric(src, dst, w, n, path)
    keep = src < dst
    extra: dict[str, Any] = {"fmt": fmt, "ncon": ncon}
    if has_size:
        extra["vertex_sizes"] = adj.vdata[0].copy()
    if ncon:
        extra["vertex_weights"] = np.ascontiguousarray(adj.vdata[int(has_size) :].T)
    return EdgeData(src[keep], dst[keep], None if w is None else w[keep], n, False, NAME, extra)


def _check_symmetric(src, dst, w, n, path) -> None:
    """Every entry (u, v[, w]) must be matched by an entry (v, u[, w])."""
    fwd = src < dst
    a_u, a_v = src[fwd], dst[fwd]
    b_u, b_v = dst[~fwd], src[~fwd]
    if a_u.shape[0] != b_u.shape[0]:
        raise GraphFormatError(
            "adjacency is not symmetric: some edge is listed by one endpoint only", path
        )
    if n < 2**31:  # one int64 key per entry sorts faster than two
        keys_a, keys_b = (a_u * n + a_v,), (b_u * n + b_v,)
    else:
        keys_a, keys_b = (a_v, a_u), (b_v, b_u)
    if w is not None:
        keys_a, keys_b = (w[fwd], *keys_a), (w[~fwd], *keys_b)
    oa, ob = np.lexsort(keys_a), np.lexsort(keys_b)
    mismatch = (a_u[oa] != b_u[ob]) | (a_v[oa] != b_v[ob])
    same = not mismatch.any()
    if same and w is not None:
        same = np.array_equal(w[fwd][oa], w[~fwd][ob])
    if not same:
        bad = np.flatnonzero(mismatch)
        i = int(bad[0]) if bad.size else 0
        u, v = int(a_u[oa][i]) + 1, int(a_v[oa][i]) + 1
        what = "with equal weights " if w is not None and not bad.size else ""
        raise GraphFormatError(
            f"adjacency is not symmetric {what}near edge ({u}, {v}): each edge must appear in "
            "the lines of both endpoints (check=False skips this test)",
            path,
        )


def read(path: str, *, progress=None, check: bool = True) -> EdgeData:
    """Read a METIS ``.graph`` file (see the module docstring)."""
    return parse(read_buffer(path, progress, text=True), str(path), check=check)


def write(G, path: str, *, vertex_weights: Any = None) -> None:
    """Write an undirected graph as a METIS ``.graph`` file."""
    if G.is_directed():
        raise InvalidArgumentError("METIS files hold undirected graphs; use G.to_undirected()")
    if G.num_self_loops:
        raise InvalidArgumentError("METIS files cannot hold self-loops; use G.remove_self_loops()")
    w = G.weights
    if w is not None and w.dtype.kind != "i":
        raise InvalidArgumentError("METIS edge weights must be integers")
    n = G.num_vertices
    fmt = ""
    vw = None
    if vertex_weights is not None:
        vw = np.asarray(vertex_weights)
        if vw.ndim == 1:
            vw = vw[:, None]
        if vw.shape[0] != n or vw.dtype.kind not in "iu":
            raise InvalidArgumentError("vertex_weights must be integers of shape (n,) or (n, ncon)")
    if vw is not None or w is not None:
        fmt = f" {int(vw is not None)}{int(w is not None)}"
        if vw is not None and vw.shape[1] != 1:
            fmt += f" {vw.shape[1]}"
    header = f"% written by warpgraph\n{n} {G.num_edges}{fmt}\n"
    tokens: list[np.ndarray] = [G.indices.astype(np.int64) + 1]
    if w is not None:
        tokens.append(w)
    indptr = np.asarray(G.indptr)
    if vw is not None:  # vertex weights lead each line: interleave them as extra entries
        k = vw.shape[1]
        deg = np.diff(indptr)
        new_ptr = np.zeros(n + 1, dtype=np.int64)
        stride = len(tokens)
        per_row = k + deg * stride
        np.cumsum(per_row, out=new_ptr[1:])
        flat = np.empty(int(new_ptr[-1]), dtype=np.int64)
        row = np.repeat(np.arange(n), per_row)
        pos_in_row = np.arange(flat.shape[0]) - new_ptr[row]
        is_vw = pos_in_row < k
        flat[is_vw] = vw.reshape(-1).astype(np.int64)
        ent = np.column_stack(tokens).reshape(-1) if stride > 1 else tokens[0]
        flat[~is_vw] = ent
        tokens, indptr = [flat], new_ptr
    with atomic_output(path) as f:
        f.write(header.encode())
        write_ragged_lines(f, indptr, tokens, sep=" ")
