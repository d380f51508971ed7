"""Graph500 binary edge lists, as the reference code's generator writes them.

Two layouts of the reference ``packed_edge`` (``generator/graph_generator.h``), little-endian,
no header:

* **plain** (the default build): 16 bytes per edge, ``int64 v0, int64 v1``;
* **packed** (built with ``-DGENERATOR_USE_PACKED_EDGE_TYPE``): 12 bytes per edge, three
  ``uint32``: ``v0_low``, ``v1_low``, ``high``, where the low 16 bits of ``high`` are bits
  32..47 of ``v0`` and its high 16 bits are bits 32..47 of ``v1``, each read as a signed 16-bit
  number (so ids up to 2**47 - 1, i.e. SCALE <= 47).

The graph is undirected (Graph500 kernels symmetrize; ``directed=True`` reads every pair as
one arc instead) and may hold self-loops and duplicate edges, which are kept. There is no
vertex count in the file: it is ``2**scale`` when ``scale=`` is given, ``num_vertices=`` when
given, else the largest id + 1. Negative ids are
an error unless ``skip_negative=True`` drops those edges (some generators mark removed edges
with -1). ``packed=None`` picks the layout from the file size (a multiple of 16 but not of 12:
plain; of 12 but not 16: packed; both: plain unless some plain id is negative or >= 2**47).

Examples
--------
>>> import os, tempfile, numpy as np, warpgraph as wg
>>> path = os.path.join(tempfile.mkdtemp(), "edges.g500")
>>> np.array([[0, 1], [1, 2], [2, 2]], dtype="<i8").tofile(path)
>>> G = wg.load(path, scale=2)
>>> G.num_vertices, G.num_edges, G.is_directed()
(4, 3, False)
"""

from __future__ import annotations

import os

import numpy as np

from ..errors import GraphFormatError, InvalidArgumentError
from ._edgedata import EdgeData
from ._source import atomic_output, compression_from_magic, read_buffer

NAME = "graph500"
EXTENSIONS = (".g500", ".graph500")

_LIMIT = 2**47


def _unpack(raw: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    words = raw.view("<u4").reshape(-1, 3)
    high = words[:, 2]
    v0_hi = (high & 0xFFFF).astype(np.uint16).view(np.int16).astype(np.int64)
    v1_hi = (high >> 16).astype(np.uint16).view(np.int16).astype(np.int64)
    v0 = words[:, 0].astype(np.int64) | (v0_hi << 32)
    v1 = words[:, 1].astype(np.int64) | (v1_hi << 32)
    return v0, v1


def read(
    path: str,
    *,
    progress=None,
    packed: bool | None = None,
    scale: int | None = None,
    num_vertices: int | None = None,
    skip_negative: bool = False,
    directed: bool = False,
) -> EdgeData:
    """Read a Graph500 binary edge list (see the module docstring)."""
    path = os.fspath(path)
    with open(path, "rb") as f:
        comp = compression_from_magic(f.read(8))
    if comp is None:
        raw = np.fromfile(path, dtype=np.uint8)
        if progress is not None:
            progress(raw.shape[0], raw.shape[0])
    else:
        raw = read_buffer(path, progress)
    size = raw.shape[0]
    if packed is None:
        if size % 16 == 0:
            plain = raw[: size - size % 16].view("<i8")
            bad = plain.size and (int(plain.min()) < -1 or int(plain.max()) >= _LIMIT)
            packed = bool(bad) and size % 12 == 0
        elif size % 12 == 0:
            packed = True
        else:
            raise GraphFormatError(
                f"file size {size} is a multiple of neither 16 (int64 pairs) nor 12 (packed "
                "48-bit edges): truncated or not a Graph500 edge list",
                path,
            )
    width = 12 if packed else 16
    if size % width:
        raise GraphFormatError(
            f"truncated Graph500 file: {size} bytes is not a multiple of the {width}-byte edge "
            f"({size // width} whole edges, {size % width} bytes left over)",
            path,
        )
    if packed:
        v0, v1 = _unpack(raw)
    else:
        pairs = raw.view("<i8").reshape(-1, 2)
        v0, v1 = pairs[:, 0].astype(np.int64), pairs[:, 1].astype(np.int64)
    m = v0.shape[0]
    dropped = 0
    if m:
        neg = (v0 < 0) | (v1 < 0)
        if neg.any():
            if not skip_negative:
                k = int(np.argmax(neg))
                raise GraphFormatError(
                    f"negative vertex id at edge {k} (byte offset {k * width}); pass "
                    "skip_negative=True to drop such edges",
                    path,
                )
            dropped = int(neg.sum())
            v0, v1 = v0[~neg], v1[~neg]
    hi = max(int(v0.max()), int(v1.max())) if v0.size else -1
    if scale is not None:
        if not 0 <= scale <= 47:
            raise InvalidArgumentError(f"scale must be in [0, 47], got {scale}")
        n = 1 << scale
    elif num_vertices is not None:
        n = int(num_vertices)
    else:
        n = hi + 1
    if hi >= n:
        k = int(np.argmax((v0 >= n) | (v1 >= n)))
        raise GraphFormatError(
            f"vertex id {max(int(v0[k]), int(v1[k]))} at edge {k} is out of range for {n} vertices",
            path,
        )
    extra = {"packed": packed, "dropped_negative": dropped}
    return EdgeData(v0, v1, None, n, bool(directed), NAME, extra)


def write(G, path: str, *, packed: bool = False) -> None:
    """Write the edges of ``G`` as a Graph500 binary edge list (weights are not stored)."""
    src, dst, _ = G.edges()
    src = np.asarray(src, dtype=np.int64)
    dst = np.asarray(dst, dtype=np.int64)
    if packed:
        if G.num_vertices > _LIMIT:
            raise InvalidArgumentError("the packed layout holds ids below 2**47 only")
        out = np.empty((src.shape[0], 3), dtype="<u4")
        out[:, 0] = (src & 0xFFFFFFFF).astype(np.uint32)
        out[:, 1] = (dst & 0xFFFFFFFF).astype(np.uint32)
        out[:, 2] = ((src >> 32) & 0xFFFF).astype(np.uint32) | (
            ((dst >> 32) & 0xFFFF).astype(np.uint32) << 16
        )
    else:
        out = np.empty((src.shape[0], 2), dtype="<i8")
        out[:, 0] = src
        out[:, 1] = dst
    with atomic_output(path) as f:
        f.write(memoryview(np.ascontiguousarray(out).reshape(-1).view(np.uint8)))
