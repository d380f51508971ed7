"""CPU preparation shared by triangles, k-truss and the triad census: degree-ordered orientation.

Every triangle algorithm here works on the **rank-space oriented graph** (GAPBS ``tc``, Schank &
Wagner's "forward" algorithm): vertices are ranked by (simple degree, id), each undirected edge
is kept once, from its lower-ranked to its higher-ranked end, and ids are replaced by ranks, so
every oriented row is sorted by rank and holds only larger ranks. A triangle ``a < b < c`` (ranks)
is then found exactly once: at arc ``a -> b``, as ``c`` in both ``row(a)`` after ``b`` and
``row(b)``. Out-degrees are at most ``sqrt(2m)``, which bounds the work by ``O(m^1.5)``.

Input cleaning (documented in docs/TRIANGLES.md): self-loops are ignored and parallel edges are
merged, as NetworkX's ``triangles`` does (it works on neighbour sets).

For the triad census each oriented arc also carries a 2-bit dyad code from its lower end's view:
bit 0 = the arc ``low -> high`` exists in the input, bit 1 = the arc ``high -> low`` exists.

Examples
--------
>>> import numpy as np
>>> indptr = np.array([0, 2, 4, 6]); indices = np.array([1, 2, 0, 2, 0, 1], dtype=np.int32)
>>> o = orient(indptr, indices)
>>> o.indptr.tolist(), o.indices.tolist(), o.rank.tolist()
([0, 2, 3, 3], [1, 2, 2], [0, 1, 2])
"""

from __future__ import annotations

from dataclasses import dataclass

import numba as nb
import numpy as np

__all__ = [
    "Oriented",
    "balanced_chunks",
    "census_adjacency",
    "graph_census_adjacency",
    "orient",
    "simple_degrees",
]


@dataclass
class Oriented:
    """A rank-space oriented graph (see the module docstring).

    Attributes
    ----------
    indptr : int64 array (n + 1)
        Row offsets, indexed by rank.
    indices : int32/int64 array
        Higher-ranked neighbours, sorted.
    src : same dtype as indices
        Row (rank) of every arc.
    rank : array (n)
        ``rank[v]`` of original vertex ``v``; ``order`` is its inverse.
    order : array (n)
        ``order[r]`` is the vertex of rank ``r``.
    degree : int64 array (n)
        Simple degree (no loops, no parallel edges) of every original vertex.
    codes : uint8 array or None
        Dyad code of every arc (census only).
    """

    indptr: np.ndarray
    indices: np.ndarray
    src: np.ndarray
    rank: np.ndarray
    order: np.ndarray
    degree: np.ndarray
    codes: np.ndarray | None = None

    @property
    def num_vertices(self) -> int:
        return self.indptr.shape[0] - 1

    @property
    def num_arcs(self) -> int:
        return self.indices.shape[0]


# ---- simple degrees ---------------------------------------------------------------------------


@nb.njit(parallel=True, cache=True, nogil=True)
def _simple_degrees(indptr, indices, out):
    n = indptr.shape[0] - 1
    for u in nb.prange(n):
        c = 0
        prev = -1
        for p in range(indptr[u], indptr[u + 1]):
            v = indices[p]
            if v != prev and v != u:
                c += 1
            prev = v
        out[u] = c


def simple_degrees(indptr: np.ndarray, indices: np.ndarray) -> np.ndarray:
    """Distinct non-loop neighbours of every vertex of a CSR with sorted rows (int64)."""
    out = np.empty(indptr.shape[0] - 1, dtype=np.int64)
    _simple_degrees(indptr, indices, out)
    return out


# ---- ranking ----------------------------------------------------------------------------------


@nb.njit(cache=True, nogil=True)
def _degree_order(deg, order, rank):
    """Counting sort by degree (stable, so ties keep id order)."""
    n = deg.shape[0]
    maxd = 0
    for v in range(n):
        if deg[v] > maxd:
            maxd = deg[v]
    start = np.zeros(maxd + 2, dtype=np.int64)
    for v in range(n):
        start[deg[v] + 1] += 1
    for d in range(maxd + 1):
        start[d + 1] += start[d]
    for v in range(n):
        r = start[deg[v]]
        start[deg[v]] += 1
        order[r] = v
        rank[v] = r


# ---- orientation ------------------------------------------------------------------------------


@nb.njit(parallel=True, cache=True, nogil=True)
def _count_up(indptr, indices, rank, counts):
    n = indptr.shape[0] - 1
    for u in nb.prange(n):
        ru = rank[u]
        c = 0
        prev = -1
        for p in range(indptr[u], indptr[u + 1]):
            v = indices[p]
            if v != prev and rank[v] > ru:
                c += 1
            prev = v
        counts[ru + 1] = c


@nb.njit(inline="always")
def _sort_small(keys, lo, hi):
    for i in range(lo + 1, hi):
        x = keys[i]
        j = i - 1
        while j >= lo and keys[j] > x:
            keys[j + 1] = keys[j]
            j -= 1
        keys[j + 1] = x


@nb.njit(parallel=True, cache=True, nogil=True)
def _fill_up(indptr, indices, rank, oindptr, oindices, osrc):
    n = indptr.shape[0] - 1
    for u in nb.prange(n):
        ru = rank[u]
        q = oindptr[ru]
        prev = -1
        for p in range(indptr[u], indptr[u + 1]):
            v = indices[p]
            if v != prev and rank[v] > ru:
                oindices[q] = rank[v]
                osrc[q] = ru
                q += 1
            prev = v
        lo, hi = oindptr[ru], oindptr[ru + 1]
        if hi - lo <= 32:
            _sort_small(oindices, lo, hi)
        else:
            oindices[lo:hi] = np.sort(oindices[lo:hi])


def orient(indptr: np.ndarray, indices: np.ndarray, degree: np.ndarray | None = None) -> Oriented:
    """Rank-space oriented graph of an undirected CSR with sorted rows (both arcs stored).

    Self-loops and parallel edges of the input are dropped here (a parallel edge is found as
    a repeat of the entry before it). Rows in any order are fine where no row repeats a
    neighbour (the NetworkX layer's unsorted rows): the oriented rows are sorted here.
    """
    n = indptr.shape[0] - 1
    deg = simple_degrees(indptr, indices) if degree is None else degree
    idt = indices.dtype if indices.dtype in (np.int32, np.int64) else np.int64
    order = np.empty(n, dtype=idt)
    rank = np.empty(n, dtype=idt)
    _degree_order(deg, order, rank)
    oindptr = np.zeros(n + 1, dtype=np.int64)
    _count_up(indptr, indices, rank, oindptr)
    np.cumsum(oindptr, out=oindptr)
    m = int(oindptr[-1])
    oindices = np.empty(m, dtype=idt)
    osrc = np.empty(m, dtype=idt)
    _fill_up(indptr, indices, rank, oindptr, oindices, osrc)
    return Oriented(oindptr, oindices, osrc, rank, order, deg)


# ---- census adjacency: union of out- and in-rows with dyad codes ----------------------------


@nb.njit(parallel=True, cache=True, nogil=True)
def _union_rows(oip, oix, iip, iix, out_ptr, out_idx, out_code, fill):
    """Merge sorted out-row and in-row of every vertex; drop the vertex itself and duplicates.
    Count pass when ``fill`` is False (counts into out_ptr[u + 1])."""
    n = oip.shape[0] - 1
    for u in nb.prange(n):
        a, ae = oip[u], oip[u + 1]
        b, be = iip[u], iip[u + 1]
        q = out_ptr[u] if fill else 0
        last = -1
        while a < ae or b < be:
            if b >= be or (a < ae and oix[a] < iix[b]):
                v = oix[a]
                c = 1
                a += 1
            elif a >= ae or iix[b] < oix[a]:
                v = iix[b]
                c = 2
                b += 1
            else:
                v = oix[a]
                c = 3
                a += 1
                b += 1
            if v == u:
                continue
            if v == last:  # duplicate arc: merge its code into the entry just written
                if fill:
                    out_code[q - 1] |= c
                continue
            if fill:
                out_idx[q] = v
                out_code[q] = c
            q += 1
            last = v
        if not fill:
            out_ptr[u + 1] = q


def census_adjacency(
    indptr: np.ndarray,
    indices: np.ndarray,
    rindptr: np.ndarray,
    rindices: np.ndarray,
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Undirected neighbour CSR of a directed graph with a dyad code per entry.

    ``code & 1``: the arc ``u -> v`` exists; ``code & 2``: the arc ``v -> u`` exists. Rows of
    both inputs must be sorted; loops and parallel arcs are dropped.
    """
    n = indptr.shape[0] - 1
    ptr = np.zeros(n + 1, dtype=np.int64)
    dummy_i = np.empty(0, dtype=indices.dtype)
    dummy_c = np.empty(0, dtype=np.uint8)
    _union_rows(indptr, indices, rindptr, rindices, ptr, dummy_i, dummy_c, False)
    np.cumsum(ptr, out=ptr)
    idx = np.empty(int(ptr[-1]), dtype=indices.dtype)
    code = np.empty(int(ptr[-1]), dtype=np.uint8)
    _union_rows(indptr, indices, rindptr, rindices, ptr, idx, code, True)
    return ptr, idx, code


def graph_census_adjacency(G) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """:func:`census_adjacency` of a CPU graph with sorted rows (an undirected graph: every
    dyad mutual), the input of the triad census and of the directed clustering."""
    if G.directed:
        rip, rix, _ = G.reverse_csr()
        return census_adjacency(G.indptr, G.indices, rip, rix)
    return census_adjacency(G.indptr, G.indices, G.indptr, G.indices)


@nb.njit(parallel=True, cache=True, nogil=True)
def _fill_up_codes(indptr, indices, codes, rank, oindptr, oindices, ocodes, osrc):
    n = indptr.shape[0] - 1
    for u in nb.prange(n):
        ru = rank[u]
        lo, hi = oindptr[ru], oindptr[ru + 1]
        keys = np.empty(hi - lo, dtype=np.int64)
        k = 0
        for p in range(indptr[u], indptr[u + 1]):
            v = indices[p]
            if rank[v] > ru:
                keys[k] = (np.int64(rank[v]) << 2) | np.int64(codes[p])
                k += 1
        if k <= 32:
            _sort_small(keys, 0, k)
        else:
            keys = np.sort(keys)
        for i in range(k):
            oindices[lo + i] = keys[i] >> 2
            ocodes[lo + i] = keys[i] & 3
            osrc[lo + i] = ru


def orient_census(ptr: np.ndarray, idx: np.ndarray, code: np.ndarray) -> Oriented:
    """Rank-space oriented graph of a census adjacency (:func:`census_adjacency`), with codes
    re-expressed from each arc's lower-ranked end."""
    n = ptr.shape[0] - 1
    deg = np.diff(ptr)
    order = np.empty(n, dtype=idx.dtype)
    rank = np.empty(n, dtype=idx.dtype)
    _degree_order(deg, order, rank)
    oindptr = np.zeros(n + 1, dtype=np.int64)
    _count_up(ptr, idx, rank, oindptr)
    np.cumsum(oindptr, out=oindptr)
    m = int(oindptr[-1])
    oindices = np.empty(m, dtype=idx.dtype)
    ocodes = np.empty(m, dtype=np.uint8)
    osrc = np.empty(m, dtype=idx.dtype)
    _fill_up_codes(ptr, idx, code, rank, oindptr, oindices, ocodes, osrc)
    return Oriented(oindptr, oindices, osrc, rank, order, deg.astype(np.int64), ocodes)


# ---- work splitting ---------------------------------------------------------------------------


@nb.njit(parallel=True, cache=True, nogil=True)
def _row_work(oindptr, oindices, work):
    n = oindptr.shape[0] - 1
    for r in nb.prange(n):
        a, ae = oindptr[r], oindptr[r + 1]
        w = 2 * (ae - a)
        for p in range(a, ae - 1):
            v = oindices[p]
            w += oindptr[v + 1] - oindptr[v]
        work[r] = w


def balanced_chunks(o: Oriented, per_thread: int = 16) -> np.ndarray:
    """Row boundaries splitting the rank rows into chunks of about equal intersection work.

    The work of a row ``a`` is what :func:`..cpu.enumerate_triangles` does for it: marking and
    unmarking ``row(a)`` plus scanning ``row(b)`` for each ``b`` in it.
    """
    n = o.num_vertices
    if n == 0:
        return np.zeros(1, dtype=np.int64)
    work = np.empty(n, dtype=np.int64)
    _row_work(o.indptr, o.indices, work)
    cum = np.cumsum(work)
    total = int(cum[-1])
    k = max(1, min(n, per_thread * nb.get_num_threads()))
    if total == 0:
        return np.array([0, n], dtype=np.int64)
    targets = (np.arange(1, k, dtype=np.float64) * (total / k)).astype(np.int64)
    cuts = np.searchsorted(cum, targets, side="left") + 1
    bounds = np.unique(np.concatenate(([0], cuts, [n]))).astype(np.int64)
    return bounds
