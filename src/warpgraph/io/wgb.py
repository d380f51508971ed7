"""warpgraph's native binary format ``.wgb``: the CSR arrays behind a small header.

Layout (all little endian; every array starts at a multiple of 64 bytes):

=======  ======  ============================================================
offset   bytes   field
=======  ======  ============================================================
0        8       magic ``b"WARPGRPH"``
8        4       version (uint32, 1)
12       4       flags (uint32): bit 0 directed, bit 1 weighted, bit 2 rows sorted
16       8       n, vertices (uint64)
24       8       a, arcs = len(indices) (uint64)
32       8       m, edges as ``Graph.num_edges`` counts them (uint64; informational)
40       8       dtype of indptr, NumPy string, NUL padded (``b"<i8"``)
48       8       dtype of indices (``b"<i4"`` or ``b"<i8"``)
56       8       dtype of weights (``b"<i4" "<i8" "<f4" "<f8"``; zeros when unweighted)
64       8       byte offset of indptr (uint64)
72       8       byte offset of indices (uint64)
80       8       byte offset of weights (uint64; 0 when unweighted)
88       8       total file size (uint64)
96       4       CRC-32 of bytes 0..95 (uint32)
100      28      reserved, zero
128      ...     indptr (n + 1 values), indices (a), weights (a), each 64-byte aligned
=======  ======  ============================================================

Loading checks the magic, version, header CRC, that every array lies inside the file and that
the file has exactly the announced size (so a truncated file is caught before any array is
touched). With ``mmap=True`` the arrays are memory-mapped read-only (no parsing, no copy);
otherwise they are read with one ``readinto`` each. ``check=True`` (default) also verifies the
CSR structure (offsets non-decreasing from 0 to ``a``, ids in ``[0, n)``), which reads every
byte once; ``check=False`` trusts the file. A compressed ``.wgb.gz`` works but is inflated.

Examples
--------
>>> import os, tempfile, warpgraph as wg
>>> G = wg.Graph.from_edges([0, 0, 1], [1, 2, 2], directed=False)
>>> path = os.path.join(tempfile.mkdtemp(), "g.wgb")
>>> wg.save(G, path)
>>> H = wg.load(path, mmap=True)
>>> H.indptr.tolist(), H.indices.tolist(), H.is_directed()
([0, 2, 4, 6], [1, 2, 0, 2, 0, 1], False)
"""

from __future__ import annotations

import os
import struct
import zlib

import numpy as np

from ..errors import GraphFormatError, InvalidArgumentError
from ._source import atomic_output, compression_from_magic, read_buffer

NAME = "wgb"
EXTENSIONS = (".wgb",)

MAGIC = b"WARPGRPH"
VERSION = 1
HEADER = 128
ALIGN = 64
F_DIRECTED, F_WEIGHTED, F_SORTED = 1, 2, 4
_HEAD = struct.Struct("<8sIIQQQ8s8s8sQQQQ")  # 96 bytes, then the CRC
_ID_DTYPES = ("<i4", "<i8")
_W_DTYPES = ("<i4", "<i8", "<f4", "<f8")


def _align(x: int) -> int:
    return (x + ALIGN - 1) // ALIGN * ALIGN


def _dt(raw: bytes) -> str:
    return raw.rstrip(b"\x00").decode("ascii", errors="replace")


def read_header(head: bytes, path: str | None, file_size: int) -> dict:
    """Decode and check the 128-byte header."""
    if len(head) < HEADER:
        raise GraphFormatError(f"truncated .wgb file: {len(head)} bytes, header needs 128", path)
    if head[:8] != MAGIC:
        raise GraphFormatError("not a .wgb file (bad magic bytes)", path)
    fields = _HEAD.unpack(head[:96])
    (crc,) = struct.unpack("<I", head[96:100])
    if zlib.crc32(head[:96]) != crc:
        raise GraphFormatError("corrupt .wgb header (checksum mismatch)", path)
    _, version, flags, n, a, m, dt_p, dt_i, dt_w, off_p, off_i, off_w, size = fields
    if version != VERSION:
        raise GraphFormatError(f"unsupported .wgb version {version} (this reader: 1)", path)
    dt_p, dt_i, dt_w = _dt(dt_p), _dt(dt_i), _dt(dt_w)
    weighted = bool(flags & F_WEIGHTED)
    if dt_p != "<i8" or dt_i not in _ID_DTYPES or (weighted and dt_w not in _W_DTYPES):
        raise GraphFormatError(f"unsupported .wgb dtypes {dt_p!r}, {dt_i!r}, {dt_w!r}", path)
    if size != file_size:
        raise GraphFormatError(
            f"truncated or padded .wgb file: header says {size} bytes, file has {file_size}",
            path,
        )
    spans = [(off_p, 8 * (n + 1)), (off_i, np.dtype(dt_i).itemsize * a)]
    if weighted:
        spans.append((off_w, np.dtype(dt_w).itemsize * a))
    for off, nbytes in spans:
        if off % ALIGN or off < HEADER or off + nbytes > size:
            raise GraphFormatError("corrupt .wgb header: an array lies outside the file", path)
    return dict(
        directed=bool(flags & F_DIRECTED),
        weighted=weighted,
        n=n,
        a=a,
        m=m,
        dt_i=dt_i,
        dt_w=dt_w,
        off_p=off_p,
        off_i=off_i,
        off_w=off_w,
    )


def _check_csr(indptr, indices, n, a, path) -> None:
    if int(indptr[0]) != 0 or int(indptr[-1]) != a:
        raise GraphFormatError("corrupt .wgb data: offsets must run from 0 to the arc count", path)
    if n and bool((indptr[1:] < indptr[:-1]).any()):
        raise GraphFormatError("corrupt .wgb data: offsets decrease", path)
    if a and (int(indices.min()) < 0 or int(indices.max()) >= n):
        raise GraphFormatError("corrupt .wgb data: neighbour id out of range", path)


def read(path: str, *, progress=None, mmap: bool = False, check: bool = True):
    """Read a ``.wgb`` file into a Graph (see the module docstring)."""
    from ..graph import Graph

    path = os.fspath(path)
    with open(path, "rb") as f:
        head = f.read(HEADER)
    if compression_from_magic(head) is not None:
        if mmap:
            raise InvalidArgumentError("cannot memory-map a compressed .wgb file")
        buf = read_buffer(path, progress)
        h = read_header(bytes(buf[:HEADER]), path, buf.shape[0])

        def arr(off, dtype, count):
            return np.frombuffer(buf, dtype=dtype, count=count, offset=off)

    else:
        size = os.path.getsize(path)
        h = read_header(head, path, size)
        if mmap:

            def arr(off, dtype, count):
                if count == 0:
                    return np.zeros(0, dtype=dtype)
                return np.asarray(np.memmap(path, dtype=dtype, mode="r", offset=off, shape=count))

        else:
            f = open(path, "rb")

            def arr(off, dtype, count):
                out = np.empty(count, dtype=dtype)
                f.seek(off)
                view = memoryview(out.view(np.uint8))
                got = f.readinto(view)
                if got != out.nbytes:
                    raise GraphFormatError("truncated .wgb file", path)
                return out

    try:
        n, a = h["n"], h["a"]
        indptr = arr(h["off_p"], np.dtype("<i8"), n + 1)
        indices = arr(h["off_i"], np.dtype(h["dt_i"]), a)
        weights = arr(h["off_w"], np.dtype(h["dt_w"]), a) if h["weighted"] else None
    finally:
        if not mmap and compression_from_magic(head) is None:
            f.close()
    if progress is not None:
        progress(1, 1)
    if check:
        _check_csr(indptr, indices, n, a, path)
    return Graph(indptr, indices, weights, directed=h["directed"], validate=False)


def write(G, path: str) -> None:
    """Write ``G`` (on the CPU) as a ``.wgb`` file, atomically."""
    indptr = np.ascontiguousarray(G.indptr, dtype="<i8")
    indices = np.ascontiguousarray(G.indices)
    indices = indices.astype("<i8" if indices.dtype.itemsize == 8 else "<i4", copy=False)
    w = G.weights
    if w is not None:
        w = np.ascontiguousarray(w)
        w = w.astype(w.dtype.newbyteorder("<"), copy=False)
    n, a = G.num_vertices, G.num_arcs
    off_p = HEADER
    off_i = _align(off_p + indptr.nbytes)
    off_w = _align(off_i + indices.nbytes) if w is not None else 0
    size = (off_w + w.nbytes) if w is not None else (off_i + indices.nbytes)
    flags = F_SORTED | (F_DIRECTED if G.is_directed() else 0) | (F_WEIGHTED if w is not None else 0)
    dt_w = w.dtype.str.encode() if w is not None else b""
    fields = _HEAD.pack(
        MAGIC, VERSION, flags, n, a, G.num_edges, b"<i8", indices.dtype.str.encode(), dt_w,
        off_p, off_i, off_w, size,
    )  # fmt: skip
    head = fields + struct.pack("<I", zlib.crc32(fields))
    head += b"\x00" * (HEADER - len(head))
    with atomic_output(path, compression="auto") as f:
        pos = 0
        for off, arr in ((off_p, indptr), (off_i, indices), (off_w, w)):
            if arr is None:
                continue
            if pos == 0:
                f.write(head)
                pos = HEADER
            f.write(b"\x00" * (off - pos))
            f.write(memoryview(arr.view(np.uint8)))
            pos = off + arr.nbytes
