"""Global efficiency (Latora and Marchiori): the mean of ``1 / d(s, t)`` over ordered pairs of
distinct vertices (0 for a pair that is not connected), with NetworkX's float sum, bit for bit.

NetworkX's ``global_efficiency`` adds ``1 / d`` into one float, source after source in node
order, each source's targets in breadth-first discovery order, so nearest first; the terms of
one distance are equal, so only how many there are at each distance matters. Here:

* the searches run as :func:`~warpgraph.algorithms.bfs.distance_stats`' (iBFS's bitwise joint
  traversal, :func:`.multi_source.seed_group` and :func:`.multi_source.expand_level`), a wave of
  groups at a time (one group per thread, up to 64 sources each), each counting how many
  vertices every one of its searches reaches at each level; on the GPU (``device``), batches
  of groups of 64 as ``distance_stats``' GPU searches (:mod:`.efficiency_gpu`), the same counts;
* a wave's sources (as many groups as :data:`WAVE_BYTES` of counts hold: a 65,536-vertex
  mesh in one wave) are grouped by neighbourhood among themselves (:func:`wave_order`; a
  lattice's groups become small balls, so their searches share more words), and their counts
  are kept until added;
* the sum is then added in NetworkX's order, wave after wave, one source after another (in id
  order, wherever the grouping put them), level after level: ``count`` additions of
  ``1 / level`` at a time by :func:`add_repeated`, which gives the bits of that many
  sequential additions in a few steps (within one binade of the running sum every addition
  adds the same amount, so the additions up to the binade's top are one multiplication).

Cost: the searches as ``distance_stats`` (``n`` searches, in parallel), then a sequential pass
over each source's levels (``n`` times the mean eccentricity), on the host whatever the device.
NetworkX runs ``n`` Python searches (~25 hours on a million-edge random graph).
"""

from __future__ import annotations

import math

import numba as nb
import numpy as np
from numba.cpython.unsafe.numbers import trailing_zeros

from ...errors import InvalidArgumentError
from ...graph import Graph
from ..triangles.api import place
from .multi_source import (
    WIDTH,
    distance_stats,
    expand_level,
    group_span,
    grouping_order,
    host_rows,
    search_words,
    seed_group,
    settle,
)

__all__ = [
    "add_repeated",
    "add_repeated_in_binade",
    "binade_top",
    "efficiency_sum",
    "global_efficiency",
    "harmonic_diameter",
    "neighbourhood_efficiencies",
    "wave_order",
]

#: Levels counted per search before a wave is run again with room for twice as many.
FIRST_LEVELS = 64
#: Bytes of level counts a CPU wave holds (4 a search and level): its groups are as many as
#: fit (at least one per thread; the whole graph where it fits). A wave's sources are grouped
#: by neighbourhood among themselves and their counts held until added in id order.
WAVE_BYTES = 256 << 20


def global_efficiency(G: Graph, *, device: str = "auto") -> float:
    """Mean inverse distance over ordered pairs of distinct vertices (NetworkX's arithmetic).

    Parameters
    ----------
    G : Graph
        Undirected (a directed graph's distances follow its arcs); weights are ignored.
    device : {"auto", "cpu", "gpu"}
        Where the searches run (the sum is added on the host either way: the same bits).

    Returns
    -------
    float
        :func:`efficiency_sum` divided by ``n (n - 1)``; 0.0 for fewer than two vertices.

    Examples
    --------
    >>> import warpgraph as wg
    >>> P = wg.Graph.from_edges([0, 1], [1, 2], num_vertices=3, directed=False)
    >>> global_efficiency(P, device="cpu")  # (1 + 1/2 + 1 + 1 + 1/2 + 1) / 6
    0.8333333333333334
    """
    n = _checked(G).num_vertices
    return efficiency_sum(G, device=device) / (n * (n - 1)) if n > 1 else 0.0


def harmonic_diameter(G: Graph, *, device: str = "auto") -> float:
    """Harmonic mean of the distances between ordered pairs of distinct vertices (Marchiori and
    Latora's "connectivity length"; NetworkX's ``harmonic_diameter`` bit for bit): ``n (n -
    1)`` over :func:`efficiency_sum`. A pair with no path counts as an infinite distance.

    Parameters
    ----------
    G : Graph
        Directed graphs' distances follow their arcs; weights are ignored.
    device : {"auto", "cpu", "gpu"}
        Where the searches run (the sum is added on the host either way: the same bits).

    Returns
    -------
    float
        ``inf`` when no pair is joined by a path, ``nan`` below two vertices (as NetworkX).

    Examples
    --------
    >>> import warpgraph as wg
    >>> P = wg.Graph.from_edges([0, 1], [1, 2], num_vertices=3, directed=False)
    >>> harmonic_diameter(P, device="cpu")  # 6 / (1 + 1/2 + 1 + 1 + 1/2 + 1)
    1.2
    """
    n = _checked(G).num_vertices
    total = efficiency_sum(G, device=device) if n > 1 else 0.0
    if total != 0:
        return n * (n - 1) / total
    return math.inf if n > 1 else math.nan


def _checked(G: Graph) -> Graph:
    if not isinstance(G, Graph):
        raise InvalidArgumentError(f"efficiency needs a warpgraph.Graph, got {type(G).__name__}")
    return G


def efficiency_sum(G: Graph, *, device: str = "auto") -> float:
    """``1 / d(s, t)`` summed over the pairs a search reaches (``s != t``), added one term at a
    time in NetworkX's order: sources in id order, each one's targets nearest first.

    ``device`` says where the searches run (:mod:`.efficiency_gpu` on the GPU); the additions
    are one sequential chain on the host either way, so both give the same bits.

    Examples
    --------
    >>> import warpgraph as wg
    >>> efficiency_sum(wg.Graph.from_edges([0], [1], num_vertices=3), device="cpu")  # 0 -> 1
    1.0
    """
    from ...cpu.threads import threads_for

    G, dev = place(_checked(G), device)
    if dev == "gpu":
        from .efficiency_gpu import efficiency_sum_gpu

        return efficiency_sum_gpu(G, FIRST_LEVELS)
    n = G.num_vertices
    indptr, indices = host_rows(G)
    total = 0.0
    levels = FIRST_LEVELS
    sized = n > 0 and not G.directed  # (whether the table's room is known before a wave)
    if sized:
        # (as on the GPU: no eccentricity passes twice vertex 0's within its component, so a
        # whole-graph wave of a lattice is not searched again at 64, 128, ... levels)
        levels = max(levels, 2 * int(distance_stats(G, [0], device="cpu").eccentricity[0]))
    with threads_for(n * max(1, n // WIDTH)):
        threads = nb.get_num_threads()
        span = group_span(n, threads)
        groups = -(-n // span)
        first = 0
        while first < groups:
            # (as many groups as WAVE_BYTES of counts hold, at least one per thread: the more,
            # the better their sources group by neighbourhood; a directed graph's first wave
            # is one group per thread, its depth found at little cost where it goes deeper)
            fit = WAVE_BYTES // ((levels + 1) * span * 4) if sized else 0
            count = min(groups - first, max(threads, fit))
            sources, places = wave_order(indptr, indices, first * span, count * span, n, span)
            counts = np.zeros((count, levels + 1, span), dtype=np.int32)
            depth = np.zeros(count, dtype=np.int64)
            if not _wave_counts(indptr, indices, sources, 0, span, counts, depth):
                levels *= 2  # (a search went deeper: the wave again, with room for it)
                continue
            total = _add_wave(counts, depth, span, places, total)
            first += count
            sized = True
    return total


def wave_order(indptr, indices, first: int, count: int, n: int, size: int):
    """The sources ``first, first + 1, ...`` (``count`` of them, at most ``n - first``)
    grouped by neighbourhood, ``size`` a group (:func:`.multi_source.grouping_order`; kept in
    id order where ``indptr`` is None), and each one's place in that order (``places[i]``:
    where source ``first + i`` is), so the sums can still be added in id order.

    Examples
    --------
    >>> import numpy as np
    >>> indptr, indices = np.array([0, 0, 0, 0]), np.array([], dtype=np.int64)
    >>> [a.tolist() for a in wave_order(indptr, indices, 1, 5, 3, 64)]  # (one group: kept)
    [[1, 2], [0, 1]]
    """
    if first < 0 or count < 0 or size < 1:
        raise ValueError(f"wave_order needs first >= 0, count >= 0 and size >= 1, got first="
                         f"{first}, count={count}, size={size}")  # fmt: skip
    ids = np.arange(first, min(first + count, n), dtype=np.int64)
    order = None if indptr is None else grouping_order(indptr, indices, ids, size)
    if order is None:
        return ids, np.arange(ids.size, dtype=np.int64)
    places = np.empty_like(order)
    places[order] = np.arange(order.size, dtype=np.int64)
    return ids[order], places


@nb.njit(cache=True, nogil=True, parallel=True)
def _wave_counts(indptr, indices, sources, first, span, counts, depth):  # pragma: no cover
    """Groups ``first, first + 1, ...`` of ``span`` sources, one per slot of ``counts``:
    ``counts[slot, level, b]`` the vertices search ``b`` reaches at ``level``, ``depth[slot]``
    the group's deepest level. False when a level passes ``counts``' room."""
    n = indptr.shape[0] - 1
    k = sources.shape[0]
    room = counts.shape[1] - 1
    one = np.uint64(1)
    fits = np.ones(counts.shape[0], dtype=np.bool_)
    for slot in nb.prange(counts.shape[0]):
        seen, front, found, current, following = search_words(n)
        start = (first + slot) * span
        nf = seed_group(sources, start, min(span, k - start), seen, front, current)
        level = 0
        while nf:
            level += 1
            if level > room:
                fits[slot] = False
                break
            nn = expand_level(indptr, indices, current, nf, front, seen, found, following)
            for a in range(nn):
                t = settle(following[a], seen, front, found)
                while t:
                    counts[slot, level, trailing_zeros(t)] += 1
                    t &= t - one
            current, following = following, current
            nf = nn
            if nn:
                depth[slot] = level
    return fits.all()


@nb.njit(cache=True, nogil=True)
def _add_wave(counts, depth, span, places, total):  # pragma: no cover - compiled
    """``total`` plus the wave's terms in NetworkX's order: source after source in id order,
    ``places[i]`` the slot and lane (``slot * span + lane``) of the wave's ``i``-th source's
    counts."""
    recip = np.empty(counts.shape[1], dtype=np.float64)
    for level in range(1, recip.size):
        recip[level] = 1.0 / level  # (the term NetworkX adds: one division, looked up after)
    top = binade_top(total)
    for i in range(places.shape[0]):
        slot, b = divmod(places[i], span)
        for level in range(1, depth[slot] + 1):
            times = counts[slot, level, b]
            if times:
                total, top = add_repeated_in_binade(total, recip[level], times, top)
    return total


@nb.njit(cache=True, nogil=True)
def binade_top(x: float) -> float:  # pragma: no cover - compiled
    """The power of two just above ``x``'s binade (``2**e`` with ``2**(e-1) <= x < 2**e``);
    0.0 for ``x <= 0``.

    Examples
    --------
    >>> binade_top(3.0), binade_top(4.0), binade_top(0.75), binade_top(0.0)
    (4.0, 8.0, 1.0, 0.0)
    """
    return math.ldexp(1.0, math.frexp(x)[1]) if x > 0.0 else 0.0


@nb.njit(cache=True, nogil=True, inline="always")
def add_repeated_in_binade(x, c, k, top):  # pragma: no cover - compiled
    """:func:`add_repeated` ``(x, c, k)`` given ``top = binade_top(x)``; returns the sum and
    its ``binade_top``, so a caller adding many runs keeps the binade from one to the next.

    Most runs end in ``x``'s binade: there ``fl(x + c) - x`` is the amount ``r`` every
    addition adds (``c`` rounded to the binade's ulp ``u``; the difference is exact), unless
    ``c`` is a tie (``r - c == +-u/2``), and ``k`` additions give ``x + k r`` exactly while
    that stays below ``top`` (a multiple of ``u``, so at most ``top - u``: every true sum
    ``x + i r + c`` is then under ``top - u/2`` and rounds to ``x + (i + 1) r``): one
    addition, one multiplication. Other runs (a tie, a crossing, ``x`` zero, a ``top`` that
    is not ``x``'s) take :func:`add_repeated`'s steps, which also refuse bad input.

    Examples
    --------
    >>> add_repeated_in_binade(8.0, 0.25, 10, binade_top(8.0))
    (10.5, 16.0)
    """
    y = x + c
    # (the path below assumes growth and x in [top / 2, top); anything else, including bad
    # input, takes add_repeated, which raises ValueError for x < 0, c <= 0, k < 0 or NaN)
    if c > 0.0 and k >= 0 and x >= 0.5 * top and y < top:
        r = y - x
        if r == 0.0:
            return x, top  # (c is at most half an ulp: no addition changes x)
        half = top * 5.551115123125783e-17  # (2**-54 * top: half the ulp of x's binade)
        d = r - c
        if d != half and d != -half:
            end = x + float(k) * r
            if end < top:
                return end, top
    x = add_repeated(x, c, k)
    return x, binade_top(x)


@nb.njit(cache=True, nogil=True)
def add_repeated(x: float, c: float, k: int) -> float:  # pragma: no cover - compiled
    """``x + c + c + ... + c`` (``k`` additions, each rounded, left to right) for ``x >= 0``
    and ``c > 0``: the bits of the sequential loop, in about one step per binade crossed.

    Within a binade of width ``2**e`` (``ulp = u``) every sum is a multiple of ``u``, and
    ``fl(x + c)`` is ``x`` plus ``c`` rounded to a multiple of ``u``: the same amount for every
    ``x`` of the binade, except in a tie (``c`` an odd multiple of ``u / 2``), where rounding to
    even makes every sum after the first in the binade even, so from the second on the amount is
    again the same. So after three sums in one binade the next ones, up to two ulps below its
    top, are added by one multiplication (exact: an integer times ``u``).

    Examples
    --------
    >>> s = 0.0
    >>> for _ in range(1000):
    ...     s += 0.1
    >>> add_repeated(0.0, 0.1, 1000) == s
    True
    """
    if not (x >= 0.0 and c > 0.0 and k >= 0):  # (also NaN; the steps assume growth)
        raise ValueError("add_repeated needs x >= 0, c > 0 and k >= 0")
    run = 0  # (consecutive sums in the binade of the last one)
    e = 0
    while k > 0:
        y = x + c
        k -= 1
        if y == x:
            return x  # (c is below half an ulp of x: no later addition changes it)
        ey = math.frexp(y)[1]
        run = run + 1 if ey == e else 1
        e = ey
        step = y - x
        x = y
        if run >= 3 and k > 0:
            u = math.ldexp(1.0, e - 53)
            room = int((math.ldexp(1.0, e) - x) / u) - 2  # (ulps below the top, a margin of 2)
            j = min(k, room // int(step / u)) if room > 0 else 0
            x += j * step
            k -= j
    return x


def neighbourhood_efficiencies(G: Graph, order_ptr=None, order=None) -> np.ndarray:
    """The global efficiency of each vertex's neighbourhood: the subgraph induced on its
    neighbours (itself included when it has a self-loop), NetworkX's ``local_efficiency``
    terms, each one's sum added as :func:`efficiency_sum` adds it.

    Parameters
    ----------
    G : Graph
        Undirected.
    order_ptr, order : array_like of int, optional
        The order each neighbourhood's sources are added in: ``order[order_ptr[v] :
        order_ptr[v + 1]]`` lists ``v``'s distinct neighbours in that order (NetworkX walks
        them in the order of a Python set). Default: id order.

    Returns
    -------
    numpy.ndarray
        float64 per vertex: the sum over ordered pairs of distinct neighbours of ``1 / d``
        (distances within the neighbourhood), divided by ``k (k - 1)`` for ``k`` neighbours;
        0.0 for ``k < 2``.

    Examples
    --------
    >>> import warpgraph as wg
    >>> K = wg.Graph.from_edges([0, 0, 0, 1], [1, 2, 3, 2], num_vertices=4, directed=False)
    >>> neighbourhood_efficiencies(K).tolist()  # 0's neighbours 1 - 2 and 3: 2 pairs of 6
    [0.3333333333333333, 1.0, 1.0, 0.0]
    """
    if _checked(G).directed:
        raise InvalidArgumentError("local efficiency is defined for undirected graphs")
    indptr, indices = host_rows(G)
    indices = indices.astype(np.int64, copy=False)
    if order is None:
        order_ptr, order = _neighbour_sets(indptr, indices)
    order_ptr = np.asarray(order_ptr, dtype=np.int64)
    order = np.asarray(order, dtype=np.int64)
    n = G.num_vertices
    if order_ptr.shape != (n + 1,) or order.shape != (int(order_ptr[-1]),):
        raise InvalidArgumentError("order_ptr and order must list every vertex's neighbours")
    out = np.zeros(n, dtype=np.float64)
    from ...cpu.threads import threads_for

    with threads_for(int(indptr[-1]) * 8):
        _neighbourhoods(indptr, indices, order_ptr, order, nb.get_num_threads(), out)
    return out


def _neighbour_sets(indptr: np.ndarray, indices: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """``(order_ptr, order)``: each row's distinct ids in ascending order (parallel arcs
    count once)."""
    n = indptr.size - 1
    rows = np.repeat(np.arange(n), np.diff(indptr))
    by = np.lexsort((indices, rows))
    rows, ids = rows[by], indices[by]
    keep = np.ones(ids.size, dtype=bool)
    keep[1:] = (rows[1:] != rows[:-1]) | (ids[1:] != ids[:-1])
    ptr = np.zeros(n + 1, dtype=np.int64)
    np.cumsum(np.bincount(rows[keep], minlength=n), out=ptr[1:])
    return ptr, ids[keep]


@nb.njit(cache=True, nogil=True, parallel=True)
def _neighbourhoods(indptr, indices, order_ptr, order, workers, out):  # pragma: no cover
    """Worker ``w`` takes vertices ``w, w + workers, ...``: numbers the neighbours in their
    order, builds the induced rows, runs a search from each neighbour in that order and adds
    its level counts (nearest first) into the sum."""
    n = indptr.shape[0] - 1
    for w in nb.prange(workers):
        local = np.full(n, -1, dtype=np.int64)
        for v in range(w, n, workers):
            lo, hi = order_ptr[v], order_ptr[v + 1]
            k = hi - lo
            if k < 2:
                continue
            for i in range(k):
                local[order[lo + i]] = i
            lptr = np.zeros(k + 1, dtype=np.int64)
            for i in range(k):
                u = order[lo + i]
                for j in range(indptr[u], indptr[u + 1]):
                    if local[indices[j]] >= 0:
                        lptr[i + 1] += 1
            for i in range(k):
                lptr[i + 1] += lptr[i]
            lidx = np.empty(lptr[k], dtype=np.int64)
            fill = lptr[:k].copy()
            for i in range(k):
                u = order[lo + i]
                for j in range(indptr[u], indptr[u + 1]):
                    t = local[indices[j]]
                    if t >= 0:
                        lidx[fill[i]] = t
                        fill[i] += 1
            for i in range(k):
                local[order[lo + i]] = -1
            out[v] = _ordered_sum(lptr, lidx, k) / (k * (k - 1))


@nb.njit(cache=True, nogil=True)
def _ordered_sum(lptr, lidx, k):  # pragma: no cover - compiled
    """:func:`efficiency_sum` of a small graph (rows ``lptr``/``lidx`` over ``0..k-1``):
    one plain search per source in index order, its level counts added nearest first."""
    dist = np.empty(k, dtype=np.int64)
    queue = np.empty(k, dtype=np.int64)
    total, top = 0.0, 0.0
    for s in range(k):
        dist[:] = -1
        dist[s] = 0
        queue[0] = s
        head, tail = 0, 1
        level, count = 0, 0
        while head < tail:
            x = queue[head]
            head += 1
            if dist[x] != level:  # (a new level: the last one's terms first)
                if count:
                    total, top = add_repeated_in_binade(total, 1.0 / level, count, top)
                level, count = dist[x], 0
            if level:
                count += 1
            for j in range(lptr[x], lptr[x + 1]):
                y = lidx[j]
                if dist[y] < 0:
                    dist[y] = dist[x] + 1
                    queue[tail] = y
                    tail += 1
        if count:
            total, top = add_repeated_in_binade(total, 1.0 / level, count, top)
    return total
