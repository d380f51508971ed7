"""GPU triangle enumeration: rank-space orientation, intersections in ``tc_count.cu``.

Preparation, all on the device: drop self-loops and parallel arcs, rank the vertices by (simple
degree, id), keep each edge as the arc ``low -> high`` in rank space, rows sorted. Two ways:

- :func:`orient` (int32 ids, oriented rows of at most ``SORT_CAP`` entries, which holds for
  every graph with fewer than ``SORT_CAP**2 / 2`` edges): linear passes of ``tc_prep.cu``, one
  thread per arc for the degrees and the kept arcs, then one warp (or block) per row sorting
  that row; the only sort over all vertices is the argsort of the degrees.
- :func:`orient_sorted` (any input, and the fallback): CuPy, one 64-bit key sort of all
  kept arcs by (source, target).

Both give the same oriented CSR. The kernel ``tc_arcs<Id, GROUP, MODE>`` then runs one group of
``GROUP`` lanes per arc (see the kernel's header). The default group size comes from the
measurements in docs/TRIANGLES.md.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from ...device import check_device_memory, cupy
from ...gpu.launch import launch
from ...gpu.loader import declare, get_kernel
from ...gpu.transpose import arc_sources
from ...graph import Graph

__all__ = [
    "GROUP",
    "OrientedGPU",
    "arc_kernel",
    "census_adjacency",
    "count_and_degree",
    "orient",
    "orient_arcs",
    "orient_fast",
    "orient_sorted",
    "per_vertex",
    "per_vertex_from_arcs",
    "run_arcs",
    "triangle_count",
]

SOURCE = "tc_count.cu"
PREP = "tc_prep.cu"
COUNT, ARCS, SUPPORT, CENSUS, DYAD_ARCS = 0, 1, 2, 3, 4
GROUP = 8
"""Lanes per oriented arc (template parameter of ``tc_arcs``)."""
BLOCK = 256
WARP_ROW_MAX = 512
"""Longest oriented row sorted by one warp (``tc_prep_sort_warp``)."""
SORT_CAP = 8192
"""Longest oriented row :func:`orient` sorts on the device (``tc_prep_sort_block``'s shared
memory); a longer row sends the graph to :func:`orient_sorted`."""
SORT_BLOCK = 512
CENSUS_BYTES_PER_ARC = 48
"""Peak device bytes per arc of :func:`census_adjacency` (estimate): the two 8-byte keys of
every arc (16), and the sort's copy of them with its scratch (32)."""

declare(
    SOURCE,
    *(f"tc_arcs<int, {GROUP}, {mode}>" for mode in (COUNT, ARCS, SUPPORT, CENSUS, DYAD_ARCS)),
    "tc_scatter<int>",
)
declare(
    PREP,
    "tc_prep_degree<int>",
    "tc_prep_keep<int>",
    "tc_prep_sort_warp<int>",
    f"tc_prep_sort_block<int, {SORT_CAP}>",
)


@dataclass
class OrientedGPU:
    """Rank-space oriented graph on the device (same fields as :class:`.prep.Oriented`)."""

    indptr: Any
    indices: Any
    src: Any
    rank: Any
    degree: Any
    codes: Any = None

    @property
    def num_vertices(self) -> int:
        return int(self.indptr.shape[0]) - 1

    @property
    def num_arcs(self) -> int:
        return int(self.indices.shape[0])


def _ctype(dtype) -> str:
    return "int" if np.dtype(dtype) == np.int32 else "long long"


def arc_kernel(dtype, mode: int, group: int = GROUP):
    """The compiled ``tc_arcs`` instance for an id dtype, mode and group size."""
    return get_kernel(SOURCE, f"tc_arcs<{_ctype(dtype)}, {int(group)}, {int(mode)}>")


def arc_rows(indptr, m: int, dtype):
    """Row (source) of every arc of a CSR on the device (in bounded passes)."""
    return arc_sources(indptr, m, dtype, xp=cupy())


def simple_arcs(G: Graph):
    """``(src, dst)`` of the arcs of ``G`` without self-loops and parallel arcs."""
    m = G.num_arcs
    dst = G.indices
    src = arc_rows(G.indptr, m, dst.dtype)
    keep = src != dst
    if m > 1:  # rows are sorted: a parallel arc repeats its predecessor
        keep[1:] &= (dst[1:] != dst[:-1]) | (src[1:] != src[:-1])
    return src[keep], dst[keep]


def orient_arcs(s, d, deg, n: int, codes=None) -> OrientedGPU:
    """Oriented CSR from both arcs ``(s, d)`` of every simple undirected edge (with an optional
    dyad code per arc, from ``s``'s view), ``deg`` the simple degrees."""
    cp = cupy()
    idt = s.dtype
    order = cp.argsort(deg.astype(cp.int64) * n + cp.arange(n, dtype=cp.int64))
    rank = cp.empty(n, dtype=idt)
    rank[order] = cp.arange(n, dtype=idt)
    rs, rd = rank[s], rank[d]
    up = rs < rd
    key = rs[up].astype(cp.uint64) * cp.uint64(n) + rd[up].astype(cp.uint64)
    if codes is not None:
        key = (key << cp.uint64(2)) | codes[up].astype(cp.uint64)
    key = cp.sort(key)
    ocodes = None
    if codes is not None:
        ocodes = (key & cp.uint64(3)).astype(cp.uint8)
        key = key >> cp.uint64(2)
    osrc = (key // cp.uint64(n)).astype(idt) if n else key.astype(idt)
    oidx = (key % cp.uint64(n)).astype(idt) if n else key.astype(idt)
    oindptr = cp.zeros(n + 1, dtype=cp.int64)
    if osrc.size:
        cp.cumsum(cp.bincount(osrc, minlength=n), out=oindptr[1:])
    return OrientedGPU(oindptr, oidx, osrc, rank, deg.astype(cp.int64), ocodes)


def census_adjacency(G: Graph) -> tuple[Any, Any, Any, Any]:
    """``(ptr, idx, code, rows)`` of the census adjacency of ``G`` on the device: every
    vertex's distinct neighbours (no loops; rows in any order) with their 2-bit dyad code
    (bit 0: the arc from the row's vertex, bit 1: the arc to it), and each entry's row.

    Every arc ``u -> v`` gives the keys ``(u, v, 1)`` and ``(v, u, 2)``; after one 64-bit
    sort the codes of equal pairs are OR-ed (first | last of each run, since a run's codes are
    sorted). Used by the triad census and the directed clustering.

    Raises
    ------
    OutOfDeviceMemory
        Where the keys and their sorted copy (:data:`CENSUS_BYTES_PER_ARC`) do not fit.
    """
    cp = cupy()
    n, m = G.num_vertices, G.num_arcs
    check_device_memory(CENSUS_BYTES_PER_ARC * m, what=f"the census adjacency of {m} arcs")
    idt = G.indices.dtype
    src = arc_rows(G.indptr, m, idt)
    keep = src != G.indices
    s = src[keep].astype(cp.uint64)
    d = G.indices[keep].astype(cp.uint64)
    nn = cp.uint64(max(n, 1))
    two = cp.uint64(2)
    key = cp.concatenate((((s * nn + d) << two) | cp.uint64(1), ((d * nn + s) << two) | two))
    del s, d
    key = cp.sort(key)
    ptr = cp.zeros(n + 1, dtype=cp.int64)
    if key.size == 0:
        empty = cp.zeros(0, dtype=idt)
        return ptr, empty, cp.zeros(0, dtype=cp.uint8), empty
    base = key >> two
    low = (key & cp.uint64(3)).astype(cp.uint8)
    first = cp.ones(key.size, dtype=cp.bool_)
    first[1:] = base[1:] != base[:-1]
    starts = cp.flatnonzero(first)
    ends = cp.concatenate((starts[1:], cp.asarray([key.size], dtype=starts.dtype))) - 1
    code = low[starts] | low[ends]
    pair = base[starts]
    rows = (pair // nn).astype(idt)
    idx = (pair % nn).astype(idt)
    cp.cumsum(cp.bincount(rows, minlength=n), out=ptr[1:])
    return ptr, idx, code, rows


def orient_fast(G: Graph, cap: int = SORT_CAP) -> OrientedGPU | None:
    """Rank-space oriented graph by the linear passes of ``tc_prep.cu``, or ``None`` where they
    do not apply (int64 ids, no arcs, an oriented row longer than ``cap``). As
    :func:`..prep.orient`, rows need not be sorted where none repeats a neighbour."""
    cp = cupy()
    n, m = G.num_vertices, G.num_arcs
    indptr, indices = G.indptr, G.indices
    if n == 0 or m == 0 or indices.dtype != cp.int32:
        return None
    # 1. row of every arc, simple degrees
    src = cp.empty(m, dtype=cp.int32)
    deg = cp.zeros(n, dtype=cp.int32)
    k = get_kernel(PREP, "tc_prep_degree<int>")
    launch(k, m, (indptr, indices, n, m, src, deg), block=BLOCK)
    # 2. ranks by (degree, id): a stable sort of the degrees
    order = cp.argsort(deg).astype(cp.int32)  # CuPy sorts stably
    rank = cp.empty(n, dtype=cp.int32)
    rank[order] = cp.arange(n, dtype=cp.int32)
    # 3. kept arcs into a scratch copy of each row, unsorted
    cnt = cp.zeros(n, dtype=cp.int32)
    scratch = cp.empty(m, dtype=cp.int32)
    k = get_kernel(PREP, "tc_prep_keep<int>")
    launch(k, m, (indptr, indices, src, rank, m, cnt, scratch), block=BLOCK)
    del src
    # 4. oriented offsets in rank order
    lens = cnt[order]
    longest = int(lens.max())
    if longest > min(int(cap), SORT_CAP):
        return None
    oindptr = cp.zeros(n + 1, dtype=cp.int64)
    cp.cumsum(lens, dtype=cp.int64, out=oindptr[1:])
    mo = int(oindptr[-1])
    oidx = cp.empty(mo, dtype=cp.int32)
    osrc = cp.empty(mo, dtype=cp.int32)
    # 5. sort every row: a warp per row up to WARP_ROW_MAX entries, a block per longer row
    k = get_kernel(PREP, "tc_prep_sort_warp<int>")
    launch(k, n * 32, (order, cnt, indptr, scratch, oindptr, n, oidx, osrc), block=BLOCK)
    if longest > WARP_ROW_MAX:
        big = cp.flatnonzero(lens > WARP_ROW_MAX).astype(cp.int32)
        nbig = int(big.size)
        k = get_kernel(PREP, f"tc_prep_sort_block<int, {SORT_CAP}>")
        args = (big, nbig, order, cnt, indptr, scratch, oindptr, oidx, osrc)
        launch(k, nbig * SORT_BLOCK, args, block=SORT_BLOCK)
    return OrientedGPU(oindptr, oidx, osrc, rank, deg.astype(cp.int64))


def orient_sorted(G: Graph) -> OrientedGPU:
    """Rank-space oriented graph by one global key sort (any id width; the fallback)."""
    cp = cupy()
    n = G.num_vertices
    s, d = simple_arcs(G)
    deg = cp.bincount(s, minlength=n) if s.size else cp.zeros(n, dtype=cp.int64)
    return orient_arcs(s, d, deg, n)


def orient(G: Graph) -> OrientedGPU:
    """Rank-space oriented graph of an undirected graph on the device (:func:`orient_fast`
    where it applies, else :func:`orient_sorted`)."""
    o = orient_fast(G)
    return orient_sorted(G) if o is None else o


def run_arcs(o: OrientedGPU, mode: int, c=None, hist=None, group: int = GROUP) -> int:
    """Launch ``tc_arcs`` in ``mode`` over all oriented arcs; returns the triangle total."""
    cp = cupy()
    total = cp.zeros(1, dtype=cp.uint64)
    m = o.num_arcs
    if m == 0:
        return 0
    if c is None:
        c = cp.zeros(1, dtype=cp.uint64)
    codes = o.codes if o.codes is not None else cp.zeros(1, dtype=cp.uint8)
    if hist is None:
        hist = cp.zeros(64, dtype=cp.uint64)
    k = arc_kernel(o.indices.dtype, mode, group)
    launch(k, m * group, (o.indptr, o.indices, o.src, m, total, c, codes, hist), block=BLOCK)
    return int(total.get()[0])


def triangle_count(G: Graph, group: int = GROUP) -> int:
    """Number of triangles of an undirected graph on the device."""
    return run_arcs(orient(G), COUNT, group=group)


def count_and_degree(G: Graph) -> tuple[int, Any]:
    """Triangle total and simple degrees (for transitivity)."""
    o = orient(G)
    return run_arcs(o, COUNT), o.degree


def per_vertex_from_arcs(o: OrientedGPU, c) -> Any:
    """Per-vertex sums (int64, original ids) of the arc counts ``c`` of :data:`ARCS` or
    :data:`DYAD_ARCS` mode: a triangle ``a < b < c`` adds its weight to arcs ``a -> b`` and
    ``a -> c``, so half the row sums count ``a`` as the lowest corner and the sums over
    entering arcs count each vertex as middle or top corner (``tc_scatter``)."""
    cp = cupy()
    n, m = o.num_vertices, o.num_arcs
    low = cp.zeros(n, dtype=cp.uint64)
    high = cp.zeros(n, dtype=cp.uint64)
    if m:
        k = get_kernel(SOURCE, f"tc_scatter<{_ctype(o.indices.dtype)}>")
        launch(k, m, (o.indices, o.src, c, m, low, high), block=BLOCK)
    return (high + low // cp.uint64(2)).astype(cp.int64)[o.rank]


def per_vertex(G: Graph) -> tuple[Any, Any]:
    """Triangles at every vertex and simple degrees (int64 CuPy arrays, original ids)."""
    cp = cupy()
    o = orient(G)
    c = cp.zeros(max(o.num_arcs, 1), dtype=cp.uint64)
    run_arcs(o, ARCS, c=c)
    return per_vertex_from_arcs(o, c), o.degree
