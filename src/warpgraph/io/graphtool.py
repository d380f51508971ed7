"""graph-tool's binary ``.gt`` format (read and write).

Layout (from graph-tool's format description; all integers in the file's byte order):

1. magic ``b"\\xe2\\x9b\\xbe gt"`` (6 bytes), version ``uint8`` (1), byte order ``uint8``
   (0 little, 1 big endian);
2. comment string (``uint64`` length + bytes);
3. adjacency: ``uint8`` directed flag, ``uint64`` vertex count ``N``, then for every vertex
   ``0..N-1`` a ``uint64`` count and that many neighbour ids. Ids take the smallest width of
   1, 2, 4 or 8 bytes whose maximum is at least ``N`` (uint8 when ``N <= 255``, uint16 when
   ``N <= 65535``, uint32 when ``N <= 2**32 - 1``). An undirected edge appears once;
4. property maps: ``uint64`` count, then per map a key type ``uint8`` (0 graph, 1 vertex,
   2 edge), a name string, a value type ``uint8`` and the values (one for a graph property,
   ``N`` for a vertex property, one per edge in adjacency order for an edge property). Value
   types: 0 bool, 1 int16, 2 int32, 3 int64, 4 double, 5 long double, 6 string, 7..13 vectors
   of those, 14 pickled Python object (read as bytes, never unpickled).

Reading returns the edges in adjacency order; the edge property named ``weight`` (option
``weight=``; None for none) becomes the weights. Every scalar numeric vertex and edge property
is returned in ``EdgeData.extra["vertex_properties"]`` / ``["edge_properties"]``; strings,
vectors and objects are skipped (their names are listed in ``extra["skipped_properties"]``).

Writing stores the graph, its directedness, and the weights as the edge property ``weight``
(double, int64 or int32 as the weight dtype).

Examples
--------
>>> import os, tempfile, warpgraph as wg
>>> G = wg.Graph.from_edges([0, 1], [1, 2], weights=[1.5, 2.5], directed=False)
>>> path = os.path.join(tempfile.mkdtemp(), "g.gt")
>>> wg.save(G, path)
>>> H = wg.load(path)
>>> H.num_edges, H.is_directed(), H.weights.tolist()
(2, False, [1.5, 1.5, 2.5, 2.5])
"""

from __future__ import annotations

import struct
from typing import Any

import numba as nb
import numpy as np

from ..errors import GraphFormatError
from ._edgedata import EdgeData
from ._source import atomic_output, read_buffer

NAME = "graphtool"
EXTENSIONS = (".gt",)

MAGIC = "⛾ gt".encode()
_SCALARS = {0: "u1", 1: "i2", 2: "i4", 3: "i8", 4: "f8", 5: "f16"}
_VECTOR_ELEM = {7: 1, 8: 2, 9: 4, 10: 8, 11: 8, 12: 16}


@nb.njit(cache=True, nogil=True, inline="always")
def _uint(buf, p, width, big):
    v = np.uint64(0)
    for k in range(width):
        b = np.uint64(buf[p + (k if big else width - 1 - k)])
        v = (v << np.uint64(8)) | b
    return v


@nb.njit(cache=True, nogil=True)
def _walk_adjacency(buf, pos, n, width, big):
    """Counts per vertex and the end offset; end = -1 if truncated, -2 if a count is absurd."""
    counts = np.empty(n, dtype=np.int64)
    end = buf.shape[0]
    p = pos
    for v in range(n):
        if p + 8 > end:
            return counts, -1
        k = _uint(buf, p, 8, big)
        if k > np.uint64((end - p) // width + 1):
            return counts, -2
        counts[v] = np.int64(k)
        p += 8 + np.int64(k) * width
        if p > end:
            return counts, -1
    return counts, p


@nb.njit(cache=True, nogil=True)
def _fill_adjacency(buf, pos, counts, width, big, dst):
    p = pos
    e = 0
    for v in range(counts.shape[0]):
        p += 8
        for _ in range(counts[v]):
            dst[e] = np.int64(_uint(buf, p, width, big))
            p += width
            e += 1


@nb.njit(cache=True, nogil=True)
def _skip_varlen(buf, pos, count, elem, big):
    """Skip ``count`` length-prefixed items of ``elem``-byte elements; -1 if truncated."""
    p = pos
    end = buf.shape[0]
    for _ in range(count):
        if p + 8 > end:
            return -1
        k = _uint(buf, p, 8, big)
        if k > np.uint64(end):
            return -1
        p += 8 + np.int64(k) * elem
        if p > end:
            return -1
    return p


@nb.njit(cache=True, nogil=True)
def _skip_vecstr(buf, pos, count, big):
    p = pos
    end = buf.shape[0]
    for _ in range(count):
        if p + 8 > end:
            return -1
        k = _uint(buf, p, 8, big)
        if k > np.uint64(end):
            return -1
        p = _skip_varlen(buf, p + 8, np.int64(k), 1, big)
        if p < 0:
            return -1
    return p


@nb.njit(cache=True, nogil=True)
def _pack_adjacency(counts, dst, width):
    """Adjacency bytes (little endian): per vertex a uint64 count and ``width``-byte ids."""
    n = counts.shape[0]
    out = np.empty(8 * n + width * dst.shape[0], dtype=np.uint8)
    p = 0
    e = 0
    for v in range(n):
        k = np.uint64(counts[v])
        for b in range(8):
            out[p + b] = np.uint8((k >> np.uint64(8 * b)) & np.uint64(255))
        p += 8
        for _ in range(counts[v]):
            x = np.uint64(dst[e])
            for b in range(width):
                out[p + b] = np.uint8((x >> np.uint64(8 * b)) & np.uint64(255))
            p += width
            e += 1
    return out


def id_width(n: int) -> int:
    """Bytes per neighbour id in a file of ``n`` vertices (graph-tool's rule)."""
    if n <= 0xFF:
        return 1
    if n <= 0xFFFF:
        return 2
    if n <= 0xFFFFFFFF:
        return 4
    return 8


class _Reader:
    def __init__(self, buf: np.ndarray, path: str | None, big: bool):
        self.buf, self.path, self.big = buf, path, big
        self.pos = 0

    def need(self, k: int, what: str) -> None:
        if self.pos + k > self.buf.shape[0]:
            raise GraphFormatError(f"truncated .gt file: cut short in {what}", self.path)

    def u8(self, what: str) -> int:
        self.need(1, what)
        v = int(self.buf[self.pos])
        self.pos += 1
        return v

    def u64(self, what: str) -> int:
        self.need(8, what)
        v = struct.unpack(">Q" if self.big else "<Q", bytes(self.buf[self.pos : self.pos + 8]))[0]
        self.pos += 8
        return v

    def string(self, what: str) -> bytes:
        k = self.u64(what)
        self.need(k, what)
        s = bytes(self.buf[self.pos : self.pos + k])
        self.pos += k
        return s


def parse(buf: np.ndarray, path: str | None = None, *, weight: str | None = "weight") -> EdgeData:
    """Parse a ``.gt`` file held in ``buf``."""
    if buf.shape[0] < 8 or bytes(buf[:6]) != MAGIC:
        raise GraphFormatError("not a graph-tool .gt file (bad magic bytes)", path)
    version, endian = int(buf[6]), int(buf[7])
    if version != 1:
        raise GraphFormatError(f"unsupported .gt version {version} (only 1 exists)", path)
    if endian not in (0, 1):
        raise GraphFormatError(f"bad byte-order flag {endian}", path)
    big = endian == 1
    r = _Reader(buf, path, big)
    r.pos = 8
    comment = r.string("the comment").decode("utf-8", errors="replace")
    directed = r.u8("the directed flag")
    if directed not in (0, 1):
        raise GraphFormatError(f"bad directed flag {directed}", path)
    n = r.u64("the vertex count")
    if n * 8 > buf.shape[0] - r.pos:
        raise GraphFormatError(
            f"truncated .gt file: {n} vertices need at least {8 * n} more bytes", path
        )
    width = id_width(n)
    counts, end = _walk_adjacency(buf, r.pos, n, width, big)
    if end < 0:
        raise GraphFormatError("truncated .gt file: cut short in the adjacency lists", path)
    m = int(counts.sum())
    dst = np.empty(m, dtype=np.int64)
    _fill_adjacency(buf, r.pos, counts, width, big, dst)
    if m and int(dst.max()) >= n:
        k = int(np.argmax(dst >= n))
        raise GraphFormatError(f"neighbour id {int(dst[k])} out of range (n={n})", path)
    r.pos = int(end)
    src = np.repeat(np.arange(n, dtype=np.int64), counts)
    vprops: dict[str, np.ndarray] = {}
    eprops: dict[str, np.ndarray] = {}
    gprops: dict[str, Any] = {}
    skipped: list[str] = []
    nprops = r.u64("the property count")
    for _ in range(nprops):
        key = r.u8("a property key type")
        if key not in (0, 1, 2):
            raise GraphFormatError(f"bad property key type {key}", path)
        name = r.string("a property name").decode("utf-8", errors="replace")
        vtype = r.u8(f"the value type of property {name!r}")
        count = (1, n, m)[key]
        if vtype in _SCALARS:
            code = _SCALARS[vtype]
            size = int(code[1:])
            r.need(size * count, f"the values of property {name!r}")
            raw = buf[r.pos : r.pos + size * count]
            r.pos += size * count
            if vtype == 5:
                skipped.append(name)  # long double: no portable NumPy type
                continue
            arr = raw.view((">" if big else "<") + code).astype(code)
            if vtype == 0:
                arr = arr.astype(bool)
            [gprops, vprops, eprops][key][name] = arr[0] if key == 0 else arr
        elif vtype in (6, 14) or vtype in _VECTOR_ELEM:
            elem = 1 if vtype in (6, 14) else _VECTOR_ELEM[vtype]
            p = _skip_varlen(buf, r.pos, count, elem, big)
            if p < 0:
                raise GraphFormatError(f"truncated .gt file: cut short in property {name!r}", path)
            if key == 0 and vtype == 6:
                gprops[name] = bytes(buf[r.pos + 8 : p]).decode("utf-8", errors="replace")
            else:
                skipped.append(name)
            r.pos = p
        elif vtype == 13:
            p = _skip_vecstr(buf, r.pos, count, big)
            if p < 0:
                raise GraphFormatError(f"truncated .gt file: cut short in property {name!r}", path)
            skipped.append(name)
            r.pos = p
        else:
            raise GraphFormatError(f"bad value type {vtype} for property {name!r}", path)
    if r.pos != buf.shape[0]:
        raise GraphFormatError(
            f"{buf.shape[0] - r.pos} unexpected bytes after the last property map", path
        )
    w = None
    if weight is not None and weight in eprops:
        w = eprops[weight]
        if w.dtype == bool or w.dtype.itemsize < 4:
            w = w.astype(np.int32)
    extra = {
        "comment": comment,
        "vertex_properties": vprops,
        "edge_properties": eprops,
        "graph_properties": gprops,
        "skipped_properties": skipped,
    }
    return EdgeData(src, dst, w, int(n), bool(directed), NAME, extra)


def read(path: str, *, progress=None, weight: str | None = "weight") -> EdgeData:
    """Read a graph-tool ``.gt`` file (see the module docstring)."""
    return parse(read_buffer(path, progress), str(path), weight=weight)


def write(G, path: str) -> None:
    """Write ``G`` as a graph-tool ``.gt`` file (weights as the edge property ``weight``)."""
    src, dst, w = G.edges()
    n = G.num_vertices
    counts = np.bincount(np.asarray(src, dtype=np.int64), minlength=n).astype(np.int64)
    width = id_width(n)
    adj = _pack_adjacency(counts, np.asarray(dst, dtype=np.int64), width)
    kind = "directed" if G.is_directed() else "undirected"
    comment = (
        f"graph-tool binary file written by warpgraph stats: {n} vertices, {src.shape[0]} "
        f"edges, {kind}, 0 graph props, 0 vertex props, {int(w is not None)} edge props"
    ).encode()
    head = MAGIC + bytes([1, 0]) + struct.pack("<Q", len(comment)) + comment
    head += bytes([int(G.is_directed())]) + struct.pack("<Q", n)
    with atomic_output(path) as f:
        f.write(head)
        f.write(adj)
        f.write(struct.pack("<Q", 0 if w is None else 1))
        if w is not None:
            if w.dtype.kind == "f":
                vt, arr = 4, w.astype("<f8")
            elif w.dtype.itemsize == 8:
                vt, arr = 3, w.astype("<i8")
            else:
                vt, arr = 2, w.astype("<i4")
            name = b"weight"
            f.write(bytes([2]) + struct.pack("<Q", len(name)) + name + bytes([vt]))
            f.write(memoryview(np.ascontiguousarray(arr).view(np.uint8)))
