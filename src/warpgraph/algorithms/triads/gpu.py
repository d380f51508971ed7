"""GPU triad census: the triangle method (``tc_count.cu`` in census mode) and Batagelj-Mrvar's
dyad method (``triad_bm.cu``), both on the census adjacency of
:func:`warpgraph.algorithms.triangles.gpu.census_adjacency` (one key sort). The wedge and dyad
sums are CuPy reductions; see :mod:`.cpu` for the method.
"""

from __future__ import annotations

from ...device import cupy
from ...gpu.launch import launch
from ...gpu.loader import declare, get_kernel
from ...graph import Graph
from ..triangles import gpu as tgpu
from ..triangles.gpu import census_adjacency
from .cpu import combine

__all__ = ["census_adjacency", "census_dyads", "census_triangles"]

SOURCE = "triad_bm.cu"
declare(SOURCE, "triad_bm<int>")


def census_triangles(G: Graph) -> list[int]:
    """Census counts (types 1..15, type 0 left at 0) by the triangle method."""
    cp = cupy()
    n = G.num_vertices
    ptr, idx, code, rows = census_adjacency(G)
    if idx.size == 0:
        return [0] * 16
    deg = cp.diff(ptr)
    cnt = [cp.bincount(rows[code == c], minlength=n).astype(cp.int64) for c in (1, 2, 3)]
    w = cp.zeros(9, dtype=cp.int64)
    for x in range(3):
        w[3 * x + x] = (cnt[x] * (cnt[x] - 1) // 2).sum()
        for y in range(x + 1, 3):
            w[3 * x + y] = (cnt[x] * cnt[y]).sum()
    canon = idx > rows
    val = n - deg[rows] - deg[idx]
    d = cp.zeros(4, dtype=cp.int64)
    for c in (1, 2, 3):
        d[c] = val[canon & (code == c)].sum()
    o = tgpu.orient_arcs(rows, idx, deg, n, codes=code)
    hist = cp.zeros(64, dtype=cp.uint64)
    tgpu.run_arcs(o, tgpu.CENSUS, hist=hist)
    return combine(w.get(), d.get(), hist.get())


def census_dyads(G: Graph) -> list[int]:
    """Census counts (types 1..15, type 0 left at 0) by the dyad method, one census per block."""
    cp = cupy()
    n = G.num_vertices
    ptr, idx, code, rows = census_adjacency(G)
    canon = idx > rows
    dyad_u = rows[canon]
    dyad_p = cp.flatnonzero(canon).astype(cp.int64)
    census = cp.zeros(16, dtype=cp.uint64)
    nd = int(dyad_u.size)
    if nd:
        ctype = "int" if idx.dtype == cp.int32 else "long long"
        k = get_kernel(SOURCE, f"triad_bm<{ctype}>")
        launch(k, nd, (ptr, idx, code, dyad_u, dyad_p, nd, n, census))
    return [0] + [int(x) for x in census.get()[1:]]
