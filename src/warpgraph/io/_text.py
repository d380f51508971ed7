"""Drivers around the Numba scanners: chunking, compaction, float fallback, error messages.

Everything here works on one uint8 buffer holding the whole (decompressed) file, so that byte
offsets map to 1-based line numbers by counting newlines from the start of the buffer.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

import numba
import numpy as np

from ..errors import GraphFormatError
from . import _scan as S

__all__ = [
    "Header",
    "Table",
    "adjacency",
    "fail_at",
    "first_lines",
    "line_of",
    "line_text",
    "locate_row",
    "scan_table",
]

MIN_CHUNK = 1 << 20
I64_MIN = -(2**63)
I64_MAX = 2**63 - 1


def _nchunks(nbytes: int) -> int:
    threads = numba.get_num_threads()
    return int(max(1, min(4 * threads, nbytes // MIN_CHUNK)))


_INT_RE = re.compile(r"[+-]?[0-9]+", re.ASCII)
COUNT_MAX = 2**62


def is_int(tok: str) -> bool:
    """True for an ASCII decimal integer token (no underscores, no other digits)."""
    return _INT_RE.fullmatch(tok) is not None


def header_int(tok: str, what: str, path: str | None, line: int, lo: int = 0) -> int:
    """A count or id from a header line, checked to be an integer in ``[lo, 2**62]``."""
    if not is_int(tok):
        raise GraphFormatError(f"malformed {what} {tok!r}", path, line)
    v = int(tok)
    if v < lo:
        raise GraphFormatError(
            f"negative {what} {v}" if v < 0 else f"{what} {v} < {lo}", path, line
        )
    if v > COUNT_MAX:
        raise GraphFormatError(f"{what} {v} is too large", path, line)
    return v


def line_of(buf: np.ndarray, pos: int) -> int:
    """1-based number of the line holding byte ``pos``."""
    pos = min(max(int(pos), 0), buf.shape[0])
    return 1 + int(S.count_newlines_upto(buf, 0, pos))


def line_text(buf: np.ndarray, pos: int, limit: int = 80) -> str:
    """The text of the line holding byte ``pos`` (shortened), for error messages."""
    n = buf.shape[0]
    pos = min(max(int(pos), 0), n)
    lo = int(S.prev_newline(buf, pos, max(0, pos - 4096)))
    hi = int(S.next_newline(buf, pos, min(n, pos + 4096)))
    text = bytes(buf[lo:hi]).decode("utf-8", errors="replace").rstrip("\r")
    return text if len(text) <= limit else text[: limit - 3] + "..."


def token_at(buf: np.ndarray, pos: int, limit: int = 40) -> str:
    n = buf.shape[0]
    hi = pos
    while hi < n and buf[hi] not in b" \t\r\n," and hi - pos < limit:
        hi += 1
    return bytes(buf[pos:hi]).decode("utf-8", errors="replace")


def fail_at(buf: np.ndarray, pos: int, path: str | None, reason: str) -> GraphFormatError:
    return GraphFormatError(reason, path, line_of(buf, pos))


def find_line_start(buf: np.ndarray, lo: int, hi: int, ch: str) -> int:
    """Offset of the first line in ``buf[lo:hi]`` that starts with ``ch`` (``hi`` if none)."""
    seg = buf[lo:hi]
    hit = seg == ord(ch)
    if hit.size:
        hit[1:] &= seg[:-1] == 10
        if lo > 0 and buf[lo - 1] != 10:
            hit[0] = False
    idx = np.flatnonzero(hit)
    return lo + int(idx[0]) if idx.size else hi


@dataclass
class Header:
    """Leading lines of a text file: their texts and where the body starts."""

    lines: list[tuple[int, str]]  # (line number, text without the newline)
    body: int  # byte offset where the next line starts
    next_line: int  # 1-based number of that line


def first_lines(buf: np.ndarray, count: int, start: int = 0, line0: int = 1) -> Header:
    """Split off the first ``count`` lines after ``start`` (fewer if the buffer ends)."""
    lines = []
    p = start
    n = buf.shape[0]
    ln = line0
    for _ in range(count):
        if p >= n:
            break
        end = min(n, p + (1 << 20))
        q = int(S.next_newline(buf, p, end))
        if q == end and q < n:
            raise GraphFormatError("header line longer than 1 MiB", None, ln)
        lines.append((ln, bytes(buf[p:q]).decode("latin-1").rstrip("\r")))
        p = q + 1
        ln += 1
    return Header(lines, min(p, n), ln)


def first_data_lines(
    buf: np.ndarray, count: int, comments: str, limit: int = 10_000
) -> list[tuple[int, int, list[str]]]:
    """(byte offset, line number, tokens) of the first ``count`` lines that are neither blank
    nor comments (within the first ``limit`` lines); tokens split at blanks and commas."""
    out: list[tuple[int, int, list[str]]] = []
    pos, ln = 0, 1
    for _ in range(limit):
        if len(out) >= count or pos >= buf.shape[0]:
            break
        h = first_lines(buf, 1, pos, ln)
        if not h.lines:
            break
        text = h.lines[0][1].strip()
        if text and text[0] not in comments:
            out.append((pos, ln, text.replace(",", " ").split()))
        pos, ln = h.body, h.next_line
    return out


@dataclass
class Table:
    """Columns parsed by :func:`scan_table`."""

    ids: np.ndarray  # int64 (nid, rows)
    vi: np.ndarray  # int64 (nvmax, rows): integer value columns
    vf: np.ndarray  # float64 (nvmax, rows): the same values as floats
    ncols: int  # columns per line (ids + values); for ragged tables the largest count
    float_mask: int  # bit j: value column j holds a non-integer token
    nvrow: np.ndarray | None  # ragged tables: value columns present on each row
    first_pos: int  # byte offset of the first data line (-1 if none)

    @property
    def rows(self) -> int:
        return int(self.ids.shape[1])

    @property
    def nvals(self) -> int:
        return self.ncols - self.ids.shape[0]

    def value(self, j: int) -> np.ndarray:
        """Value column ``j``: int64 if every token was an integer, else float64."""
        if self.float_mask >> j & 1:
            return self.vf[j]
        return self.vi[j]


_TABLE_REASONS = {
    S.E_TOKEN: "malformed number {tok!r}",
    S.E_OVERFLOW: "integer {tok} does not fit in 64 bits",
    S.E_PREFIX: "expected a line starting with {prefix!r}, got {text!r}",
}


def _table_error(buf, code, pos, path, *, nid, nvmin, nvmax, prefix, id_range, ncols, what):
    tok = token_at(buf, pos)
    text = line_text(buf, pos)
    if code in _TABLE_REASONS:
        pfx = chr(prefix) if prefix >= 0 else ""
        reason = _TABLE_REASONS[code].format(tok=tok, text=text, prefix=pfx)
    elif code == S.E_RANGE:
        lo, hi = id_range
        if hi == I64_MAX:
            reason = f"{what} {tok} out of range: must be >= {lo}"
        else:
            reason = f"{what} {tok} out of range: must be in [{lo}, {hi}]"
    elif code == S.E_FEW or code == S.E_MANY:
        want = f"{nid + nvmin}" if nvmin == nvmax else f"{nid + nvmin} to {nid + nvmax}"
        reason = f"expected {want} numbers per line, got {text!r}"
    elif code == S.E_NCOLS:
        reason = f"expected {ncols} numbers per line like the lines before, got {text!r}"
    elif code == S.E_LONG:
        reason = f"number token too long: {tok!r}"
    else:  # pragma: no cover
        reason = f"parse error {code} in {text!r}"
    return fail_at(buf, pos, path, reason)


def scan_table(
    buf: np.ndarray,
    lo: int,
    hi: int,
    path: str | None,
    *,
    nid: int = 2,
    nvmin: int = 0,
    nvmax: int = 1,
    comments: bytes = b"#%",
    comma: bool = False,
    prefix: str | None = None,
    ncols: int | None = None,
    extra_ok: bool = False,
    ragged: bool = False,
    id_range: tuple[int, int] = (I64_MIN, I64_MAX),
    max_rows: int | None = None,
    what: str = "vertex id",
) -> Table:
    """Parse the numeric lines of ``buf[lo:hi]`` (see :mod:`warpgraph.io._scan`).

    Raises
    ------
    GraphFormatError
        At the first malformed line (with its line number); more data lines than
        ``max_rows``; ids outside ``id_range`` (inclusive bounds on the raw values).
    """
    cls = S.char_classes(comments, comma)
    pfx = -1 if prefix is None else ord(prefix)
    nchunks = _nchunks(hi - lo)
    bounds = S.chunk_bounds(buf, lo, hi, nchunks)
    counts = S.count_data_lines(buf, bounds, cls, pfx)
    caps = np.zeros(nchunks + 1, dtype=np.int64)
    np.cumsum(counts, out=caps[1:])
    cap = int(caps[-1])
    ids = np.empty((nid, cap), dtype=np.int64)
    vi = np.empty((max(nvmax, 1), cap), dtype=np.int64)
    vf = np.empty((max(nvmax, 1), cap), dtype=np.float64)
    nvrow = np.zeros(cap if ragged else 1, dtype=np.uint8)
    results = np.zeros((nchunks, S.R_NSLOTS), dtype=np.int64)
    lo_id, hi_id = (int(id_range[0]), int(id_range[1]))
    S.scan_table(
        buf, bounds, caps, cls, pfx, nid, nvmin, nvmax, -1 if ncols is None else ncols,
        extra_ok, ragged, lo_id, hi_id, ids, vi, vf, nvrow, 2**62, results,
    )  # fmt: skip
    kw = dict(
        nid=nid, nvmin=nvmin, nvmax=nvmax, prefix=pfx, id_range=id_range, what=what
    )  # fmt: skip
    # the first chunk (in file order) that failed decides; column counts must agree across chunks
    want = ncols
    first_pos = -1
    for c in range(nchunks):
        res = results[c]
        if res[S.R_ERR] != S.E_NONE:
            nc = want if want is not None else int(res[S.R_NCOLS])
            raise _table_error(buf, int(res[S.R_ERR]), int(res[S.R_ERRPOS]), path, ncols=nc, **kw)
        if res[S.R_NCOLS] >= 0:
            if first_pos < 0:
                first_pos = int(res[S.R_FIRSTPOS])
            if not ragged:
                if want is None:
                    want = int(res[S.R_NCOLS])
                elif int(res[S.R_NCOLS]) != want:
                    pos = int(res[S.R_FIRSTPOS])
                    raise _table_error(buf, S.E_NCOLS, pos, path, ncols=want, **kw)
    rows = results[:, S.R_ROWS]
    total = int(rows.sum())
    if max_rows is not None and total > max_rows:
        raise locate_row(buf, lo, hi, path, max_rows, "more data lines than the header says", kw)
    # compaction: move every chunk's rows down to the end of the previous chunk's
    if ragged:
        nv = max((int(nvrow[caps[c] : caps[c] + rows[c]].max()) for c in range(nchunks)
                  if rows[c]), default=0)  # fmt: skip
    else:
        nv = (want or nid) - nid
    dst = 0
    for c in range(nchunks):
        r = int(rows[c])
        s = int(caps[c])
        if r and s != dst:
            ids[:, dst : dst + r] = ids[:, s : s + r]
            if nv:
                vi[:nv, dst : dst + r] = vi[:nv, s : s + r]
                vf[:nv, dst : dst + r] = vf[:nv, s : s + r]
            if ragged:
                nvrow[dst : dst + r] = nvrow[s : s + r]
        dst += r
    float_mask = int(np.bitwise_or.reduce(results[:, S.R_FLOATMASK]))
    table = Table(
        ids=ids[:, :total],
        vi=vi[:nv, :total],
        vf=vf[:nv, :total],
        ncols=nid + nv,
        float_mask=float_mask,
        nvrow=nvrow[:total] if ragged else None,
        first_pos=first_pos,
    )
    if int(results[:, S.R_FALLBACK].sum()):
        _convert_fallback(buf, table, path, cls)
    return table


def _convert_fallback(buf, table: Table, path, cls) -> None:
    """Convert the float tokens the fast path left (NaN in vf, byte offset in vi) with Arrow."""
    import pyarrow as pa
    import pyarrow.compute as pc

    for j in range(table.vf.shape[0]):
        if not table.float_mask >> j & 1:
            continue
        col = table.vf[j]
        where = np.flatnonzero(np.isnan(col))
        if where.size == 0:
            continue
        positions = table.vi[j][where]
        data, offsets, bad = S.gather_tokens(buf, positions, cls)
        if bad >= 0:
            pos = int(positions[bad])
            raise fail_at(buf, pos, path, f"malformed number {token_at(buf, pos)!r}")
        arr = pa.LargeStringArray.from_buffers(
            where.size, pa.py_buffer(offsets), pa.py_buffer(data)
        )
        col[where] = pc.cast(arr, pa.float64()).to_numpy(zero_copy_only=False)


def locate_row(buf, lo, hi, path, row: int, reason: str, kw: dict | None = None):
    """GraphFormatError naming the line of data row ``row`` (0-based) in ``buf[lo:hi]``.

    Re-scans the text sequentially (error path only) with a row limit that trips at ``row``.
    """
    kw = dict(kw or {})
    cls = S.char_classes(kw.pop("comments", b"#%"), kw.pop("comma", False))
    nid, nvmin, nvmax = kw.get("nid", 2), kw.get("nvmin", 0), kw.get("nvmax", 1)
    pfx = kw.get("prefix", -1)
    res = np.zeros((1, S.R_NSLOTS), dtype=np.int64)
    bounds = np.array([lo, hi], dtype=np.int64)
    caps = np.zeros(2, dtype=np.int64)
    cap = row + 1
    S.scan_table(
        buf, bounds, caps, cls, pfx, nid, nvmin, nvmax, -1, True, True, I64_MIN, I64_MAX,
        np.empty((nid, cap), np.int64), np.empty((max(nvmax, 1), cap), np.int64),
        np.empty((max(nvmax, 1), cap), np.float64), np.zeros(cap, np.uint8), row, res,
    )  # fmt: skip
    pos = int(res[0, S.R_ERRPOS]) if res[0, S.R_ERR] == S.E_MAXROWS else hi
    return fail_at(buf, pos, path, reason)


@dataclass
class Adjacency:
    src: np.ndarray  # int64 row of every entry
    dst: np.ndarray  # int64 neighbour
    w: np.ndarray | None  # int64 entry values (stride 2)
    vdata: np.ndarray  # int64 (nskip, records) leading numbers of every record
    records: int


def adjacency(
    buf: np.ndarray,
    lo: int,
    hi: int,
    path: str | None,
    *,
    keep_blank: bool,
    first_is_row: bool,
    nskip: int = 0,
    stride: int = 1,
    max_records: int = 2**62,
    id_range: tuple[int, int] = (I64_MIN, I64_MAX),
    comments: bytes = b"%",
    what: str = "vertex id",
) -> Adjacency:
    """Parse adjacency lines of ``buf[lo:hi]``: one record per line, integer tokens.

    ``keep_blank``: a blank line is a record (METIS: a vertex with no neighbour).
    ``first_is_row``: the first number of a line is its row id (Pajek ``*Arcslist``); else the
    row is the record index. Each line starts with ``nskip`` numbers kept in ``vdata`` (METIS
    vertex sizes and weights), then entries of ``stride`` numbers (neighbour[, weight]).
    """
    cls = S.char_classes(comments, False)
    nchunks = _nchunks(hi - lo)
    bounds = S.chunk_bounds(buf, lo, hi, nchunks)
    counts = S.adj_count(buf, bounds, cls, keep_blank)
    rec0 = np.zeros(nchunks + 1, dtype=np.int64)
    ent0 = np.zeros(nchunks + 1, dtype=np.int64)
    np.cumsum(counts[:, 0], out=rec0[1:])
    np.cumsum(counts[:, 1], out=ent0[1:])
    nrec = min(int(rec0[-1]), max_records)
    cap = int(ent0[-1])
    src = np.empty(cap, dtype=np.int64)
    dst = np.empty(cap, dtype=np.int64)
    w = np.empty(cap if stride > 1 else 1, dtype=np.int64)
    vdata = np.zeros((max(nskip, 1), max(nrec, 1)), dtype=np.int64)
    results = np.zeros((nchunks, S.R_NSLOTS), dtype=np.int64)
    lo_id, hi_id = int(id_range[0]), int(id_range[1])
    S.adj_fill(
        buf, bounds, cls, keep_blank, int(first_is_row), nskip, stride, rec0, ent0,
        max_records, lo_id, hi_id, src, dst, w, vdata, results,
    )  # fmt: skip
    for c in range(nchunks):
        code = int(results[c, S.R_ERR])
        if code == S.E_NONE:
            continue
        pos = int(results[c, S.R_ERRPOS])
        tok, text = token_at(buf, pos), line_text(buf, pos)
        if code == S.E_TOKEN:
            reason = f"malformed integer {tok!r}"
        elif code == S.E_OVERFLOW:
            reason = f"integer {tok} does not fit in 64 bits"
        elif code == S.E_RANGE:
            reason = f"{what} {tok} out of range: must be in [{id_range[0]}, {id_range[1]}]"
        elif code == S.E_MAXROWS:
            reason = f"more lines than the {max_records} the header announces: {text!r}"
        elif code == S.E_ODD:
            reason = f"entries must come in groups of {stride} (neighbour, weight): {text!r}"
        else:
            reason = f"expected at least {nskip + int(first_is_row)} numbers, got {text!r}"
        raise fail_at(buf, pos, path, reason)
    ents = results[:, S.R_ROWS]
    total = int(ents.sum())
    d = 0
    for c in range(nchunks):
        r = int(ents[c])
        s = int(ent0[c])
        if r and s != d:
            src[d : d + r] = src[s : s + r]
            dst[d : d + r] = dst[s : s + r]
            if stride > 1:
                w[d : d + r] = w[s : s + r]
        d += r
    records = int(min(rec0[-1], max_records)) if keep_blank else int(rec0[-1])
    return Adjacency(
        src[:total],
        dst[:total],
        w[:total] if stride > 1 else None,
        vdata[:nskip, :records] if nskip else vdata[:0, :records],
        records,
    )
