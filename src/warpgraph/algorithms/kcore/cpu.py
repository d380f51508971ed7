"""CPU core decomposition (Numba): level-synchronous parallel peeling, and Batagelj &
Zaversnik's O(m) bucket peeling on one thread.

Parallel (Kabir & Madduri's PKC scheme): at level ``k`` every thread scans its share of the
vertices still alive for degree ``k`` and peels them from a buffer of its own; decrementing a
neighbour's degree from ``k + 1`` to ``k`` puts it in that thread's buffer, so a cascade within
the level needs no barrier. A vertex is queued once, by whoever claims it first (compare and
swap on a flag), and a degree decremented below ``k`` by a lost race is restored. Then ``k``
jumps to the smallest degree left, and the alive list is compacted once half of it is peeled.

Sequential: vertices sit in an array sorted by current degree, with the start of each degree's
bucket kept in ``bin``; removing a vertex moves each higher-degree neighbour one bucket down by
swapping it with the first vertex of its bucket. It is used on one thread and for small graphs.

The adjacency is read from up to two CSRs (out- and in-arcs for a directed graph, so that a
vertex's degree is in + out as in NetworkX); inside each row, self-loops and repeated
neighbours are skipped.
"""

from __future__ import annotations

import numba as nb
import numpy as np

from ...cpu.atomics import atomic_add, atomic_sub, cas, fetch_add
from ..triangles.prep import simple_degrees

__all__ = ["core_numbers"]

#: Vertices below which the sequential peel is used (a parallel level costs ~10-20 us).
PARALLEL_MIN_VERTICES = 1 << 15
#: Threads below which it is used too: on 2 threads the parallel peel was 1.3-1.6x faster on
#: urand:17, coAuthorsDBLP and road-NY but as much slower on web-NotreDame and soc-Slashdot
#: (hub rows peeled by one thread with atomics); on 16 threads faster on all nine graphs timed.
PARALLEL_MIN_THREADS = 4
#: Vertices one thread peels in a round before handing the rest of its queue on.
PEEL_BUDGET = 4096
#: The last 1/SEQUENTIAL_REST of the vertices is peeled by the sequential bucket peel: a
#: skewed graph's dense core has hundreds of levels, each a few parallel launches.
SEQUENTIAL_REST = 16


@nb.njit(cache=True, nogil=True)
def _peel(ip1, ix1, ip2, ix2, deg, verts):  # pragma: no cover - compiled
    """Bucket peel of the vertices ``verts`` (their ``deg`` counting only each other; any
    other vertex already peeled at a lower degree, so never moved)."""
    n = verts.shape[0]
    md = 0
    for i in range(n):
        md = max(md, deg[verts[i]])
    bins = np.zeros(md + 2, dtype=np.int64)
    for i in range(n):
        bins[deg[verts[i]] + 1] += 1
    for d in range(md + 1):
        bins[d + 1] += bins[d]
    pos = np.empty(deg.shape[0], dtype=np.int64)
    vert = np.empty(n, dtype=np.int64)
    fill = bins.copy()
    for i in range(n):
        v = verts[i]
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


@nb.njit(cache=True, nogil=True)
def _grown(buf, top):  # pragma: no cover - compiled
    """``buf`` doubled, its first ``top`` entries kept (a call of its own: rare, and a slice
    copy inside the parallel loop's body defeats Numba's array analysis)."""
    grown = np.empty(2 * top + 16, dtype=np.int64)
    grown[:top] = buf[:top]
    return grown


@nb.njit(cache=True, nogil=True, parallel=True)
def _peel_level(
    ip1, ix1, ip2, ix2, deg, claimed, k, work, scan, chunks, budget, carry, carried
):  # pragma: no cover - compiled
    """One round of level ``k`` over ``work``: with ``scan``, ``work`` is the alive list and
    each chunk of it is scanned for degree ``k``; otherwise it lists claimed vertices not yet
    peeled. Each chunk's vertices, and those their peeling brings to ``k``, are peeled by the
    same thread, at most ``budget`` of them; the rest go to ``carry`` (from the atomic cursor
    ``carried[0]``) for the next round, spread over all threads. Returns how many were peeled.
    (A lattice peels as a wave from its corners: without the budget, the few threads that own
    a corner would peel the whole level alone.)"""
    m = work.shape[0]
    peeled = np.zeros(chunks, dtype=np.int64)
    for c in nb.prange(chunks):
        lo = c * m // chunks
        hi = (c + 1) * m // chunks
        buf = np.empty(64 if scan else hi - lo + 64, dtype=np.int64)
        top = 0
        for i in range(lo, hi):
            v = work[i]
            if not scan or (deg[v] == k and cas(claimed, v, 0, 1) == 0):
                if top == buf.shape[0]:
                    buf = _grown(buf, top)
                buf[top] = v
                top += 1
        done = 0
        while done < top and done < budget:
            v = buf[done]
            done += 1
            for side in range(2):
                ip = ip1 if side == 0 else ip2
                ix = ix1 if side == 0 else ix2
                prev = -1
                for p in range(ip[v], ip[v + 1]):
                    u = ix[p]
                    if u == prev or u == v:
                        continue
                    prev = u
                    if deg[u] <= k:  # peeled already, or claimed at this level
                        continue
                    old = atomic_sub(deg, u, 1)
                    if old == k + 1:
                        if cas(claimed, u, 0, 1) == 0:
                            if top == buf.shape[0]:
                                buf = _grown(buf, top)
                            buf[top] = u
                            top += 1
                    elif old <= k:  # another thread took it to k first: undo
                        atomic_add(deg, u, 1)
        at = fetch_add(carried, 0, top - done)
        for j in range(done, top):
            carry[at + j - done] = buf[j]
        peeled[c] = done
    return peeled.sum()


@nb.njit(cache=True, nogil=True, parallel=True)
def _lowest_unclaimed(deg, claimed, alive):  # pragma: no cover - compiled
    """Smallest degree of a vertex of ``alive`` not peeled yet."""
    none = np.iinfo(np.int64).max
    low = none
    for i in nb.prange(alive.shape[0]):
        v = alive[i]
        low = min(low, deg[v] if claimed[v] == 0 else none)  # (a reduction Numba knows)
    return low


def _peel_parallel(ip1, ix1, ip2, ix2, deg: np.ndarray) -> np.ndarray:
    n = deg.shape[0]
    claimed = np.zeros(n, dtype=np.int8)
    alive = np.arange(n, dtype=np.int64)
    chunks = 4 * nb.get_num_threads()  # some slack for uneven cascades
    carry, spare = np.empty(n, dtype=np.int64), np.empty(n, dtype=np.int64)
    carried = np.zeros(1, dtype=np.int64)
    left = n
    since_compaction = 0
    while left:
        k = int(_lowest_unclaimed(deg, claimed, alive))
        work, scan = alive, True
        while True:
            carried[0] = 0
            with nb.parallel_chunksize(1):  # chunks taken as threads free up
                peeled = int(_peel_level(ip1, ix1, ip2, ix2, deg, claimed, k, work, scan,
                                         chunks, PEEL_BUDGET, carry, carried))  # fmt: skip
            if peeled == 0:  # cannot happen: a vertex of degree k is left; never loop on
                raise RuntimeError(f"parallel peel made no progress at level {k}")
            left -= peeled
            since_compaction += peeled
            if carried[0] == 0:
                break
            work, scan = carry[: carried[0]], False
            carry, spare = spare, carry  # (work now reads the other buffer)
        if left and (2 * since_compaction >= alive.size or left * SEQUENTIAL_REST < n):
            alive = alive[claimed[alive] == 0]
            since_compaction = 0
            if left * SEQUENTIAL_REST < n:  # the dense rest: many levels of few vertices
                _peel(ip1, ix1, ip2, ix2, deg, alive)
                break
    return deg


def core_numbers(
    indptr: np.ndarray,
    indices: np.ndarray,
    rindptr: np.ndarray | None = None,
    rindices: np.ndarray | None = None,
    *,
    parallel: bool | None = None,
) -> np.ndarray:
    """Core number of every vertex (int64) of the graph whose neighbours are ``indices`` rows
    plus, when given, ``rindices`` rows (rows sorted).

    ``parallel``: peel level by level on all Numba threads (default: with at least
    :data:`PARALLEL_MIN_THREADS` threads and :data:`PARALLEL_MIN_VERTICES` vertices), else the
    sequential bucket peel.

    Examples
    --------
    >>> import numpy as np
    >>> indptr = np.array([0, 2, 4, 7, 8]); indices = np.array([1, 2, 0, 2, 0, 1, 3, 2])
    >>> core_numbers(indptr, indices, parallel=True).tolist()
    [2, 2, 2, 1]
    """
    deg = simple_degrees(indptr, indices)
    if rindptr is None:
        rindptr = np.zeros_like(indptr)
        rindices = indices[:0]
    else:
        deg += simple_degrees(rindptr, rindices)
    if parallel is None:
        parallel = (
            nb.get_num_threads() >= PARALLEL_MIN_THREADS and deg.shape[0] >= PARALLEL_MIN_VERTICES
        )
    if parallel:
        return _peel_parallel(indptr, indices, rindptr, rindices, deg)
    return _peel(indptr, indices, rindptr, rindices, deg, np.arange(deg.shape[0]))
