"""CPU truss decomposition: per-edge support, then bucket peeling of edges (Numba).

1. Support: triangles on every edge, from the parallel enumeration of
   :mod:`..triangles.cpu` on the rank-space oriented graph (an edge is an oriented arc).
2. Full rank-space adjacency with the edge id of every entry (:func:`full_adjacency`).
3. Peeling (Wang & Cheng's bottom-up algorithm, the edge analogue of Batagelj-Zaversnik):
   edges sit in an array sorted by current support with bucket starts; the edge ``e = (u, v)`` of
   least support ``s`` is removed with trussness ``s + 2``, and every triangle ``(u, v, w)`` still
   present (found by intersecting the rows of ``u`` and ``v``) lowers the support of its two
   other edges by one when it exceeds ``s``.

``stop`` ends the peeling once the least support reaches ``stop``: the edges left form the
``(stop + 2)``-truss (used by :func:`~warpgraph.algorithms.ktruss.k_truss`).

The k-truss for one k without the full decomposition (the 3-truss mask, the pre-filter and
queue peeling for k > 3) is :mod:`.fixed_k`.
"""

from __future__ import annotations

import numba as nb
import numpy as np

from ..triangles import cpu as tcpu
from ..triangles.prep import Oriented

__all__ = ["arc_edge_ids", "full_adjacency", "peel", "trussness"]


@nb.njit(cache=True, nogil=True)
def _full(oindptr, oindices, osrc, fptr, fidx, feid):
    n = oindptr.shape[0] - 1
    m = oindices.shape[0]
    cnt = np.zeros(n + 1, dtype=np.int64)
    for p in range(m):
        cnt[oindices[p] + 1] += 1  # in-arcs
    for r in range(n):
        cnt[r + 1] += oindptr[r + 1] - oindptr[r]
    for r in range(n):
        fptr[r + 1] = fptr[r] + cnt[r + 1]
    fill = fptr[:-1].copy()
    # in-neighbours (ranks below r) first, in increasing source order because arcs are sorted
    for p in range(m):
        r = oindices[p]
        fidx[fill[r]] = osrc[p]
        feid[fill[r]] = p
        fill[r] += 1
    for r in range(n):
        for p in range(oindptr[r], oindptr[r + 1]):
            fidx[fill[r]] = oindices[p]
            feid[fill[r]] = p
            fill[r] += 1


def full_adjacency(o: Oriented) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Both directions of every oriented arc as a sorted CSR, with the arc (edge) id of each."""
    n, m = o.num_vertices, o.num_arcs
    fptr = np.zeros(n + 1, dtype=np.int64)
    fidx = np.empty(2 * m, dtype=o.indices.dtype)
    feid = np.empty(2 * m, dtype=np.int64)
    _full(o.indptr, o.indices, o.src, fptr, fidx, feid)
    return fptr, fidx, feid


@nb.njit(inline="always")
def _lower_bound(a, lo, hi, x):
    while lo < hi:
        mid = (lo + hi) >> 1
        if a[mid] < x:
            lo = mid + 1
        else:
            hi = mid
    return lo


@nb.njit(inline="always")
def gallop(a, lo, hi, x):
    """First position in ``a[lo:hi]`` (sorted) not below ``x``, by galloping from ``lo``: rows
    are searched in increasing ``x``, so each search starts where the last one ended."""
    step = 1
    end = lo
    while end < hi and a[end] < x:
        lo = end + 1
        end += step
        step <<= 1
    return _lower_bound(a, lo, min(end, hi), x)


@nb.njit(inline="always")
def _drop(f, s_e, sup, pos, vert, bins):
    """Lower the support of edge f by one bucket (if above the current level)."""
    sf = sup[f]
    if sf > s_e:
        pf = pos[f]
        pw = bins[sf]
        g = vert[pw]
        if g != f:
            pos[f] = pw
            vert[pf] = g
            pos[g] = pf
            vert[pw] = f
        bins[sf] += 1
        sup[f] = sf - 1


@nb.njit(cache=True, nogil=True)
def peel(osrc, oindices, fptr, fidx, feid, sup, stop):
    """Bucket peeling; returns (trussness per edge, 0 for edges left when ``stop`` hit, and the
    boolean mask of edges left). ``fidx``/``feid`` are compacted in place as edges go: a row
    is filtered (order kept) once more than half of it is removed edges, so hubs, which lose
    most of their edges early, stop costing their full degree in every intersection."""
    m = sup.shape[0]
    truss = np.zeros(m, dtype=np.int64)
    removed = np.zeros(m, dtype=np.bool_)
    if m == 0:
        return truss, ~removed
    ms = 0
    for e in range(m):
        if sup[e] > ms:
            ms = sup[e]
    bins = np.zeros(ms + 2, dtype=np.int64)
    for e in range(m):
        bins[sup[e] + 1] += 1
    for s in range(ms + 1):
        bins[s + 1] += bins[s]
    pos = np.empty(m, dtype=np.int64)
    vert = np.empty(m, dtype=np.int64)
    fill = bins.copy()
    for e in range(m):
        pos[e] = fill[sup[e]]
        vert[pos[e]] = e
        fill[sup[e]] += 1
    n = fptr.shape[0] - 1
    flen = np.empty(n, dtype=np.int64)
    for x in range(n):
        flen[x] = fptr[x + 1] - fptr[x]
    dead = np.zeros(n, dtype=np.int64)
    for i in range(m):
        e = vert[i]
        s_e = sup[e]
        if stop >= 0 and s_e >= stop:
            break
        truss[e] = s_e + 2
        u, v = osrc[e], oindices[e]
        if s_e == 0:  # supports only overcount (clamped decrements): e is in no live triangle
            i0, ie, j0, je = 0, 0, 0, 0
        else:
            i0, ie = fptr[u], fptr[u] + flen[u]
            j0, je = fptr[v], fptr[v] + flen[v]
        if ie - i0 > je - j0:  # search the shorter row's entries in the longer
            i0, ie, j0, je = j0, je, i0, ie
        lo = j0
        for a in range(i0, ie):
            w = fidx[a]
            lo = gallop(fidx, lo, je, w)  # rows are sorted, so lo only grows
            if lo >= je:
                break
            if fidx[lo] == w:
                e1, e2 = feid[a], feid[lo]
                if not removed[e1] and not removed[e2]:
                    _drop(e1, s_e, sup, pos, vert, bins)
                    _drop(e2, s_e, sup, pos, vert, bins)
        removed[e] = True
        for x in (u, v):  # compact a row once half of it is removed edges (amortized O(1))
            dead[x] += 1
            if 2 * dead[x] > flen[x]:
                q = fptr[x]
                for a in range(fptr[x], fptr[x] + flen[x]):
                    if not removed[feid[a]]:
                        fidx[q] = fidx[a]
                        feid[q] = feid[a]
                        q += 1
                flen[x] = q - fptr[x]
                dead[x] = 0
    return truss, ~removed


def trussness(o: Oriented, stop: int = -1) -> tuple[np.ndarray, np.ndarray]:
    """Trussness of every oriented arc, and the mask of arcs left when ``stop >= 0``."""
    sup = tcpu.edge_support(o)
    if stop == 1:
        # The 3-truss needs no peeling: the edges of a triangle all have support >= 1, so the
        # edges with support >= 1 already form a subgraph where each is in a triangle, and an
        # edge of support 0 is in no triangle, so removing it lowers no other support.
        left = sup > 0
        return np.where(left, 0, 2).astype(np.int64), left
    fptr, fidx, feid = full_adjacency(o)
    return peel(o.src, o.indices, fptr, fidx, feid, sup, stop)


@nb.njit(parallel=True, cache=True, nogil=True)
def _arc_edge_ids(indptr, indices, rank, oindptr, oindices, out):
    n = indptr.shape[0] - 1
    for u in nb.prange(n):
        ru = rank[u]
        for p in range(indptr[u], indptr[u + 1]):
            rv = rank[indices[p]]
            if ru == rv:
                out[p] = -1
                continue
            a, b = (ru, rv) if ru < rv else (rv, ru)
            out[p] = _lower_bound(oindices, oindptr[a], oindptr[a + 1], b)


def arc_edge_ids(indptr: np.ndarray, indices: np.ndarray, o: Oriented) -> np.ndarray:
    """Oriented edge id of every arc of a CSR (-1 for self-loops): a binary search in the short
    oriented row of the lower-ranked end."""
    out = np.empty(indices.shape[0], dtype=np.int64)
    _arc_edge_ids(indptr, indices, o.rank, o.indptr, o.indices, out)
    return out
