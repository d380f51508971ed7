"""Harmonic centrality: for each target ``u``, the sum over the sources ``v`` of ``1 / d(v, u)``.

Each sum is added **in the order the sources are given**, one term after another from 0, as a
sequential loop over the sources would add it (NetworkX's ``harmonic_centrality`` loops over its
sources that way), or, with ``order="distance"``, nearest source first, as a loop over one
search's discovery order adds it (NetworkX 3.6's when it reports fewer nodes than it has
sources): the values are those bits exactly, on any number of threads. Unreached sources and
the target itself add nothing. Searches from the targets are grouped by neighbourhood
(:func:`~warpgraph.algorithms.bfs.multi_source.grouping_order`; on the GPU in deep graphs
only): each target's sum is its own, so the grouping changes no bit (grid:128 on 2 cores,
every vertex: 1.88 -> 0.58 s, session 62).

The distances come from breadth-first searches in groups of up to 64, as in
:func:`warpgraph.algorithms.bfs.distance_stats` (iBFS's bitwise joint traversal, the same level
step), from whichever side needs fewer: from the targets along the arcs backwards (``d(v, u)``
is the distance from ``u`` to ``v`` in the reversed graph; an undirected graph is its own), or,
with fewer sources than targets, from the sources. A group records the level at which each of
its searches first reaches each vertex (vertex-major small integers), and the sums read their
terms from a table of ``1 / level`` (``1 / 0`` read as 0: the target itself and unreached
vertices): from the targets, each group walks the sources in their order once; from the
sources, a wave of groups (one per thread) is recorded, then every target adds the wave's terms
group after group, wave after wave. By distance, no table: each level counts the sources each
search reached and adds that many ``1 / level`` at its end. Groups hold fewer than 64 searches
when there are too few to give every thread a group (a lattice's searches share little).

On the GPU (:mod:`.harmonic_gpu`, ``kernels/harmonic.cu``) the same sums, bit for bit: the
searches in batches of groups of 64 (``ibfs.cu``'s expansion, a level-recording update), each
sum added by one thread in the same order.
"""

from __future__ import annotations

from typing import Any

import numba as nb
import numpy as np
from numba.cpython.unsafe.numbers import trailing_zeros

from ...device import cupy
from ...errors import InvalidArgumentError
from ...graph import Graph
from ..bfs.multi_source import (
    WIDTH,
    expand_level,
    group_span,
    grouping_order,
    host_rows,
    put_back,
    search_words,
    seed_group,
    settle,
    source_ids,
)
from ..triangles.api import place

__all__ = ["harmonic_centrality"]


def harmonic_centrality(
    G: Graph,
    sources: Any = None,
    targets: Any = None,
    *,
    order: str = "given",
    device: str = "auto",
) -> Any:
    """Sum of ``1 / d(v, u)`` over the sources ``v`` that reach each target ``u`` (``v != u``).

    Parameters
    ----------
    G : Graph
        Directed (distances along the arcs, *from* the sources *to* the targets) or undirected;
        weights are ignored (every arc has length 1).
    sources : array_like of int, optional
        Source vertex ids, default every vertex in id order. Each target's sum adds their terms
        in this order (a source given twice adds twice).
    targets : array_like of int, optional
        Target vertex ids, default every vertex in id order.
    order : {"given", "distance"}
        The order each sum adds its terms in: the sources' (``"given"``), or nearest source
        first (``"distance"``: a breadth-first search's discovery order; the terms of one
        distance are equal, so their order among themselves does not matter).
    device : {"auto", "cpu", "gpu"}
        Where to compute; the array lives there. Both give the same bits.

    Returns
    -------
    numpy.ndarray or cupy.ndarray
        float64, one sum per target, in ``targets``' order; bit for bit the sequential sum
        ``0.0 + 1/d(sources[0], u) + 1/d(sources[1], u) + ...`` over the reaching sources
        (with ``order="distance"``, over them sorted by distance).

    Raises
    ------
    InvalidArgumentError
        For ids outside ``[0, n)`` or of a non-integer dtype, an unknown ``order`` or
        ``device``, or ``G`` not a Graph.
    OutOfDeviceMemory
        On the GPU, when one group of 64 searches does not fit the free device memory.

    Examples
    --------
    >>> import warpgraph as wg
    >>> from warpgraph.algorithms.centrality import harmonic_centrality
    >>> P = wg.Graph.from_edges([0, 1, 2], [1, 2, 3], num_vertices=4, directed=False)
    >>> harmonic_centrality(P, device="cpu").tolist()  # 1 + 1/2 + 1/3 at the ends, 1 + 1 + 1/2
    [1.8333333333333333, 2.5, 2.5, 1.8333333333333333]
    >>> D = wg.Graph.from_edges([0, 1], [1, 2], num_vertices=3)  # 0 -> 1 -> 2
    >>> harmonic_centrality(D, sources=[0], device="cpu").tolist()
    [0.0, 1.0, 0.5]
    >>> harmonic_centrality(P, targets=[0], order="distance", device="cpu").tolist()
    [1.8333333333333333]
    """
    if not isinstance(G, Graph):
        raise InvalidArgumentError(
            f"harmonic_centrality needs a warpgraph.Graph, got {type(G).__name__}"
        )
    if order not in ("given", "distance"):
        raise InvalidArgumentError(f"order must be 'given' or 'distance', got {order!r}")
    G, dev = place(G, device)
    n = G.num_vertices
    src = source_ids(sources, n)
    dst = source_ids(targets, n)
    if dst.size == 0 or src.size == 0:
        return (cupy().zeros if dev == "gpu" else np.zeros)(dst.size, dtype=np.float64)
    if dev == "gpu":
        from .harmonic_gpu import harmonic_gpu

        return harmonic_gpu(G, src, dst, order)
    out = np.zeros(dst.size, dtype=np.float64)
    from ...cpu.threads import threads_for

    forward = order == "given" and src.size < dst.size  # (fewer searches from the sources)
    searches = src.size if forward else dst.size
    with threads_for(n * -(-searches // WIDTH) + src.size * dst.size // WIDTH):
        threads = nb.get_num_threads()
        span = group_span(searches, threads)
        if forward:
            indptr, indices = host_rows(G)
            return _by_level_table(n, lambda kind, table: _from_sources(
                indptr, indices, src, dst, span, threads, table, kind))  # fmt: skip
        indptr, indices = host_rows(G.transpose() if G.directed else G)  # (from the targets)
        # Each target's sum is its own: the targets' searches group by neighbourhood freely.
        grouping = grouping_order(indptr, indices, dst, span)
        dst = dst if grouping is None else dst[grouping]
        if order == "distance":  # (each vertex's count as a source; no level table)
            times = np.bincount(src, minlength=n)
            _from_targets_by_distance(indptr, indices, dst, times, span, threads, out)
            return put_back(out, grouping)

        def backward(kind: np.ndarray, table: np.ndarray):
            fits = np.ones(threads, dtype=np.bool_)
            _from_targets(indptr, indices, dst, src, span, table, threads, out, fits, kind)
            return put_back(out, grouping) if fits.all() else None

        return _by_level_table(n, backward)


def _by_level_table(n: int, run) -> np.ndarray:
    """``run(kind, table)`` with 16-bit levels, or again with 32-bit ones where a search went
    past 65,535 levels (``run`` returns None): ``kind`` an array of the level dtype, ``table``
    the reciprocals of every level it holds (32 bits: of every distance below ``n``)."""
    for level_type in (np.uint16, np.uint32):
        top = np.iinfo(np.uint16).max if level_type is np.uint16 else n
        found = run(np.zeros(1, dtype=level_type), _reciprocals(top))
        if found is not None:
            return found
    raise AssertionError("unreachable: 32-bit levels hold any distance below n")


def _from_sources(indptr, indices, src, dst, span, threads, table, kind) -> np.ndarray | None:
    """Searches from the sources, a wave of groups of ``span`` at a time (one group per
    thread), each recording every vertex's levels; then each target adds the wave's terms,
    group after group, in the sources' order (waves in order: each sum stays sequential).
    None when a level does not fit ``kind``'s dtype."""
    n = indptr.shape[0] - 1
    groups = -(-src.size // span)
    out = np.zeros(dst.size, dtype=np.float64)
    wave = min(groups, threads)
    levels = np.empty((wave, n * span), dtype=kind.dtype)
    top = table.shape[0] - 1
    for first in range(0, groups, wave):
        count = min(wave, groups - first)
        if not _wave_levels(indptr, indices, src, first, count, span, levels, top):
            return None
        _add_wave(levels, count, span, src.size - first * span, dst, table, out)
    return out


def _reciprocals(top: int) -> np.ndarray:
    """``1 / d`` for ``d`` in ``0..top`` (IEEE division, as Python's ``1 / d``), with 0 at 0:
    the target itself and the vertices a search does not reach add nothing."""
    table = np.zeros(top + 1, dtype=np.float64)
    table[1:] = 1.0 / np.arange(1, top + 1, dtype=np.float64)
    return table


@nb.njit(cache=True, nogil=True, inline="always")
def _group_levels(
    indptr, indices, sources, start, width, span, words, level_of, top
):  # pragma: no cover
    """The group of ``width`` searches from ``sources[start:]``: ``level_of[span * v + b]``
    the level at which search ``b`` first reaches ``v`` (0: its source, or not reached).
    False, with the words left clear, when a level passes ``top``."""
    seen, front, found, current, following = words
    seen[:] = 0
    level_of[:] = 0
    one = np.uint64(1)
    nf = seed_group(sources, start, width, seen, front, current)
    level = 0
    while nf:
        level += 1
        if level > top:
            front[:] = 0
            return False
        nn = expand_level(indptr, indices, current, nf, front, seen, found, following)
        for a in range(nn):
            u = following[a]
            t = settle(u, seen, front, found)
            base = u * span
            while t:
                level_of[base + trailing_zeros(t)] = level
                t &= t - one
        current, following = following, current
        nf = nn
    return True


@nb.njit(cache=True, nogil=True, parallel=True)
def _from_targets(
    indptr, indices, targets, sources, span, table, workers, out, fits, kind
):  # pragma: no cover
    """Each worker runs groups ``w, w + workers, ...`` of ``span`` targets (searches along
    reversed arcs), then adds each group's terms source by source in ``sources``' order.
    ``kind``'s dtype is the levels' (``table`` covers its range); ``fits[w]`` False when one
    did not fit."""
    n = indptr.shape[0] - 1
    k = targets.shape[0]
    groups = (k + span - 1) // span
    top = table.shape[0] - 1
    for w in nb.prange(workers):
        words = search_words(n)
        level_of = np.empty(n * span, dtype=kind.dtype)  # (vertex-major: a vertex's levels)
        sums = np.empty(span, dtype=np.float64)
        for g in range(w, groups, workers):
            first = g * span
            width = min(span, k - first)
            if not _group_levels(
                indptr, indices, targets, first, width, span, words, level_of, top
            ):
                fits[w] = False
                break
            sums[:] = 0.0
            for i in range(sources.shape[0]):  # (the sources' order: each sum's order)
                base = sources[i] * span
                for b in range(width):
                    sums[b] += table[level_of[base + b]]
            out[first : first + width] = sums[:width]


@nb.njit(cache=True, nogil=True, parallel=True)
def _from_targets_by_distance(
    indptr, indices, targets, times, span, workers, out
):  # pragma: no cover
    """Groups of ``span`` targets as in :func:`_from_targets`; each level counts the sources
    (``times[v]``: how often ``v`` is one) each search reached and adds that many
    ``1 / level`` at its end: nearest first."""
    n = indptr.shape[0] - 1
    k = targets.shape[0]
    groups = (k + span - 1) // span
    one = np.uint64(1)
    for w in nb.prange(workers):
        seen, front, found, current, following = search_words(n)
        sums = np.empty(span, dtype=np.float64)
        counts = np.zeros(span, dtype=np.int64)
        for g in range(w, groups, workers):
            first = g * span
            width = min(span, k - first)
            seen[:] = 0
            sums[:] = 0.0
            nf = seed_group(targets, first, width, seen, front, current)
            level = 0
            while nf:
                level += 1
                nn = expand_level(indptr, indices, current, nf, front, seen, found, following)
                for a in range(nn):
                    u = following[a]
                    t = settle(u, seen, front, found)
                    c = times[u]
                    while c and t:
                        counts[trailing_zeros(t)] += c
                        t &= t - one
                step = 1.0 / level
                for b in range(width):
                    for _ in range(counts[b]):
                        sums[b] += step
                    counts[b] = 0
                current, following = following, current
                nf = nn
            out[first : first + width] = sums[:width]


@nb.njit(cache=True, nogil=True, parallel=True)
def _wave_levels(indptr, indices, sources, first, count, span, levels, top):  # pragma: no cover
    """Groups ``first .. first + count - 1`` of ``span`` sources, one per slot of ``levels``
    (:func:`_group_levels`). False when a level passes ``top``."""
    n = indptr.shape[0] - 1
    k = sources.shape[0]
    fits = np.ones(count, dtype=np.bool_)
    for slot in nb.prange(count):
        start = (first + slot) * span
        fits[slot] = _group_levels(indptr, indices, sources, start, min(span, k - start), span,
                                   search_words(n), levels[slot], top)  # fmt: skip
    return fits.all()


@nb.njit(cache=True, nogil=True, parallel=True)
def _add_wave(levels, count, span, left, targets, table, out):  # pragma: no cover - compiled
    """Each target adds its terms from the wave's ``count`` groups in the sources' order
    (``left``: the sources from the wave's first on, so the last group may be short)."""
    for i in nb.prange(targets.shape[0]):
        base = targets[i] * span
        acc = out[i]
        for slot in range(count):
            level_of = levels[slot]
            for b in range(min(span, left - slot * span)):
                acc += table[level_of[base + b]]
        out[i] = acc
