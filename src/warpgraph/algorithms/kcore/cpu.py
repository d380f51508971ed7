"""CPU core decomposition: Batagelj & Zaversnik's O(m) bucket peeling (Numba).

Vertices sit in an array sorted by current degree, with the start of each degree's bucket kept
in ``bin``; removing a vertex moves each higher-degree neighbour one bucket down by swapping it
with the first vertex of its bucket. The adjacency is read from up to two CSRs (out- and
in-arcs for a directed graph, so that a vertex's degree is in + out as in NetworkX); inside
each row, self-loops and repeated neighbours are skipped.
"""

from __future__ import annotations

import numba as nb
import numpy as np

from ..triangles.prep import simple_degrees

__all__ = ["core_numbers"]


@nb.njit(cache=True, nogil=True)
def _peel(ip1, ix1, ip2, ix2, deg):
    n = deg.shape[0]
    md = 0
    for v in range(n):
        if deg[v] > md:
            md = deg[v]
    bins = np.zeros(md + 2, dtype=np.int64)
    for v in range(n):
        bins[deg[v] + 1] += 1
    for d in range(md + 1):
        bins[d + 1] += bins[d]
    pos = np.empty(n, dtype=np.int64)
    vert = np.empty(n, dtype=np.int64)
    fill = bins.copy()
    for v in range(n):
        pos[v] = fill[deg[v]]
        vert[pos[v]] = v
        fill[deg[v]] += 1
    for i in range(n):
        v = vert[i]
        dv = deg[v]
        for side in range(2):
            ip = ip1 if side == 0 else ip2
            ix = ix1 if side == 0 else ix2
            prev = -1
            for p in range(ip[v], ip[v + 1]):
                u = ix[p]
                if u == prev or u == v:
                    continue
                prev = u
                du = deg[u]
                if du > dv:
                    pu = pos[u]
                    pw = bins[du]
                    w = vert[pw]
                    if u != w:
                        pos[u] = pw
                        vert[pu] = w
                        pos[w] = pu
                        vert[pw] = u
                    bins[du] += 1
                    deg[u] = du - 1
    return deg


def core_numbers(
    indptr: np.ndarray,
    indices: np.ndarray,
    rindptr: np.ndarray | None = None,
    rindices: np.ndarray | None = None,
) -> np.ndarray:
    """Core number of every vertex (int64) of the graph whose neighbours are ``indices`` rows
    plus, when given, ``rindices`` rows (rows sorted)."""
    deg = simple_degrees(indptr, indices)
    if rindptr is None:
        rindptr = np.zeros_like(indptr)
        rindices = indices[:0]
    else:
        deg += simple_degrees(rindptr, rindices)
    return _peel(indptr, indices, rindptr, rindices, deg)
