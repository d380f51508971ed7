"""CPU triangle enumeration (Numba, parallel) on the rank-space oriented graph of :mod:`.prep`.

One kernel, :func:`enumerate_triangles`, visits every triangle ``a < b < c`` (ranks) once, at arc
``p = a -> b``, by intersecting ``row(a)`` with ``row(b)``; for each common ``c`` it knows the
arc positions ``q = a -> c`` and ``r = b -> c``. Rows are processed in chunks of balanced work
(:func:`.prep.balanced_chunks`), claimed dynamically by the threads; ``mode`` chooses what a
triangle updates:

- ``COUNT``: a per-chunk total;
- ``ARCS``: ``c[p] += 1; c[q] += 1`` (both arcs in row ``a``, so no race): per-vertex counts
  follow from ``c`` (:func:`per_vertex_from_arcs`);
- ``SUPPORT``: triangles per edge (k-truss): ``p`` and ``q`` as above, ``r`` (row ``b``, shared)
  atomically into a second array;
- ``CENSUS``: a per-chunk histogram of the 6-bit triad code ``code[p] + 4 code[q] + 16 code[r]``;
- ``DYAD_ARCS``: as ``ARCS``, adding the product of the three dyads' arc counts (1 one-way,
  2 mutual: ``codes``) instead of 1 (directed clustering, :mod:`.directed`).

Every mode also returns per-chunk totals.
"""

from __future__ import annotations

import numba as nb
import numpy as np

from ...cpu.atomics import atomic_add
from .prep import Oriented, balanced_chunks

__all__ = [
    "ARCS",
    "CENSUS",
    "COUNT",
    "DYAD_ARCS",
    "SUPPORT",
    "arc_counts",
    "dyad_arc_counts",
    "edge_support",
    "enumerate_triangles",
    "per_vertex_from_arcs",
    "triangle_total",
]

COUNT, ARCS, SUPPORT, CENSUS, DYAD_ARCS = 0, 1, 2, 3, 4


@nb.njit(inline="always")
def _arcs_of(code):
    """Arcs of a dyad of code ``code`` (bit 0: one way, bit 1: the other)."""
    return np.int64((code & 1) + (code >> 1))


@nb.njit(inline="always")
def _hit(mode, chunk, p, q, r, c, c2, codes, hist):
    if mode == ARCS:
        c[p] += 1
        c[q] += 1
    elif mode == SUPPORT:
        c[p] += 1
        c[q] += 1
        atomic_add(c2, r, 1)
    elif mode == CENSUS:
        hist[chunk, codes[p] + 4 * codes[q] + 16 * codes[r]] += 1
    elif mode == DYAD_ARCS:
        w = _arcs_of(codes[p]) * _arcs_of(codes[q]) * _arcs_of(codes[r])
        c[p] += w
        c[q] += w


@nb.njit(parallel=True, cache=True, nogil=True)
def enumerate_triangles(oindptr, oindices, bounds, nworkers, mode, totals, c, c2, codes, hist):
    """Visit every triangle of the oriented graph (see the module docstring).

    Each thread keeps a position array over all ranks (``pos[w] = q - start + 1`` while row ``a`` is
    being processed, else 0): marking ``row(a)`` once and scanning each ``row(b)`` against it is
    a branch-light hash intersection, about 3x faster than merging sorted lists here.
    """
    n = oindptr.shape[0] - 1
    nchunks = bounds.shape[0] - 1
    nworkers = max(1, min(nworkers, nchunks))
    scratch = np.zeros((nworkers, n), dtype=np.int32)
    next_chunk = np.zeros(1, dtype=np.int64)
    for worker in nb.prange(nworkers):
        pos = scratch[worker]
        while True:  # dynamic schedule: claim the next chunk
            chunk = atomic_add(next_chunk, 0, 1)
            if chunk >= nchunks:
                break
            t = 0
            for a in range(bounds[chunk], bounds[chunk + 1]):
                a0, ae = oindptr[a], oindptr[a + 1]
                if ae - a0 < 2:
                    continue
                for p in range(a0, ae):
                    pos[oindices[p]] = p - a0 + 1
                for p in range(a0, ae - 1):
                    b = oindices[p]
                    for r in range(oindptr[b], oindptr[b + 1]):
                        q = pos[oindices[r]]
                        if q != 0:
                            t += 1
                            if mode != COUNT:
                                _hit(mode, chunk, p, a0 + q - 1, r, c, c2, codes, hist)
                for p in range(a0, ae):
                    pos[oindices[p]] = 0
            totals[chunk] = t


_NO_I64 = np.zeros(0, dtype=np.int64)
_NO_U8 = np.zeros(0, dtype=np.uint8)
_NO_HIST = np.zeros((0, 64), dtype=np.int64)


def _run(o: Oriented, mode: int, c=_NO_I64, c2=_NO_I64, codes=_NO_U8, hist=None) -> int:
    bounds = balanced_chunks(o)
    totals = np.zeros(bounds.shape[0] - 1, dtype=np.int64)
    if hist is None:
        hist = _NO_HIST
    workers = nb.get_num_threads()
    enumerate_triangles(o.indptr, o.indices, bounds, workers, mode, totals, c, c2, codes, hist)
    return int(totals.sum())


def triangle_total(o: Oriented) -> int:
    """Number of triangles."""
    return _run(o, COUNT)


def arc_counts(o: Oriented) -> np.ndarray:
    """``c[p]``: triangles in which arc ``p`` is one of the two arcs leaving the lowest vertex."""
    c = np.zeros(o.num_arcs, dtype=np.int64)
    _run(o, ARCS, c=c)
    return c


@nb.njit(cache=True, nogil=True)
def _scatter_heads(oindptr, oindices, c, t):
    n = oindptr.shape[0] - 1
    for a in range(n):
        s = 0
        for p in range(oindptr[a], oindptr[a + 1]):
            s += c[p]
            t[oindices[p]] += c[p]
        t[a] += s // 2


def per_vertex_from_arcs(o: Oriented, c: np.ndarray) -> np.ndarray:
    """Triangles at every original vertex from :func:`arc_counts`.

    A triangle ``a < b < c`` adds 1 to arcs ``a -> b`` and ``a -> c``: half the sum over ``a``'s
    row counts ``a``'s triangles as lowest vertex; the sum over arcs entering ``x`` counts ``x``
    as middle or top vertex.
    """
    t = np.zeros(o.num_vertices, dtype=np.int64)
    _scatter_heads(o.indptr, o.indices, c, t)
    return t[o.rank]


def dyad_arc_counts(o: Oriented, c: np.ndarray) -> None:
    """``c[p] +=`` the product of the three dyads' arc counts of every triangle in which arc
    ``p`` leaves the lowest vertex (needs ``o.codes``); :func:`per_vertex_from_arcs` of ``c``
    is each vertex's half of ``(B^3)[v, v]``, ``B = A + A^T``."""
    _run(o, DYAD_ARCS, c=c, codes=o.codes)


def edge_support(o: Oriented) -> np.ndarray:
    """Triangles on every edge (= oriented arc), int64."""
    c = np.zeros(o.num_arcs, dtype=np.int64)
    c2 = np.zeros(o.num_arcs, dtype=np.int64)
    _run(o, SUPPORT, c=c, c2=c2)
    c += c2
    return c


def census_histogram(o: Oriented) -> np.ndarray:
    """Histogram (64 bins, int64) of the triad codes of all triangles (needs ``o.codes``)."""
    nchunks = balanced_chunks(o).shape[0] - 1
    hist = np.zeros((nchunks, 64), dtype=np.int64)
    _run(o, CENSUS, codes=o.codes, hist=hist)
    return hist.sum(axis=0)
