"""Parallel BFS on the CPU with Numba: top-down, bottom-up and direction-optimizing.

Method (Beamer, Asanovic and Patterson, "Direction-optimizing breadth-first search", SC 2012,
as in GAPBS ``bfs.cc``):

* **top-down step**: the frontier queue is split into chunks holding about the same number of
  edges; each thread claims unvisited neighbours with an atomic compare-and-swap on their level
  (so each vertex enters the next queue exactly once and gets exactly one parent), keeps them in
  a thread-local buffer and appends a full buffer to the shared next queue with one atomic
  fetch-add (per-thread queues);
* **bottom-up step**: every unvisited vertex looks for a parent among its in-neighbours in the
  current frontier, kept as a bitmap, and stops at the first one found (early exit). Threads
  own whole 64-vertex words of the next bitmap, so no atomics are needed;
* **direction switching**: go bottom-up when the edges out of the frontier exceed the unexplored
  edges divided by ``alpha`` (Beamer's rule) or, with ``rule="enterprise"``, when more than
  ``gamma`` percent of the hub vertices are in the frontier (Liu and Huang, Enterprise, SC 2015);
  come back top-down when the frontier shrinks below ``n / beta``.

There is a Python loop per BFS level (a few dozen iterations), never per vertex or edge.

Examples
--------
>>> import numpy as np
>>> indptr = np.array([0, 1, 3, 4, 4]); indices = np.array([1, 0, 2, 1], dtype=np.int32)
>>> levels, parents = bfs_cpu(indptr, indices, indptr, indices, 0, want_parents=True)
>>> levels.tolist(), parents.tolist()
([0, 1, 2, -1], [0, 0, 1, -1])
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numba as nb
import numpy as np

from ...cpu.atomics import cas
from ...cpu.queues import LOCAL_QUEUE, flush

__all__ = ["BfsTrace", "bfs_cpu"]

_PARALLEL_MIN_WORK = 1 << 15
"""Steps with less work (edges or vertices to scan) run on one thread: waking the thread pool
costs more than they do, and far more when the cores are oversubscribed (OpenMP threads spin)."""


@nb.njit(cache=True, nogil=True)
def _edge_balanced_starts(indptr, frontier, nf, nchunks):
    """Chunk boundaries over ``frontier[:nf]`` with about equal out-edge counts per chunk."""
    cum = np.empty(nf + 1, dtype=np.int64)
    cum[0] = 0
    for i in range(nf):
        u = frontier[i]
        cum[i + 1] = cum[i] + (indptr[u + 1] - indptr[u])
    total = cum[nf]
    starts = np.empty(nchunks + 1, dtype=np.int64)
    starts[0] = 0
    starts[nchunks] = nf
    for c in range(1, nchunks):
        target = (total * c) // nchunks
        starts[c] = max(starts[c - 1], np.searchsorted(cum[1:], target, side="right"))
    return starts


@nb.njit(parallel=True, cache=True, nogil=True)
def _td_step(indptr, indices, levels, parents, frontier, nf, out, counter, next_level, nthreads):
    """Expand ``frontier[:nf]``; claimed vertices go to ``out`` (``counter[0]`` slots used).

    Returns the sum of out-degrees of the claimed vertices (Beamer's scout count).
    """
    nchunks = max(1, min(nf, 16 * nthreads))
    starts = _edge_balanced_starts(indptr, frontier, nf, nchunks)
    scout = np.zeros(nchunks, dtype=np.int64)
    has_parents = parents.shape[0] > 0
    for c in nb.prange(nchunks):
        buf = np.empty(LOCAL_QUEUE, dtype=out.dtype)
        k = 0
        sc = 0
        for i in range(starts[c], starts[c + 1]):
            u = frontier[i]
            for p in range(indptr[u], indptr[u + 1]):
                v = indices[p]
                if levels[v] < 0 and cas(levels, v, -1, next_level) == -1:
                    if has_parents:
                        parents[v] = u
                    sc += indptr[v + 1] - indptr[v]
                    buf[k] = v
                    k += 1
                    if k == LOCAL_QUEUE:
                        flush(buf, k, out, counter)
                        k = 0
        flush(buf, k, out, counter)
        scout[c] = sc
    return scout.sum()


@nb.njit(parallel=True, cache=True, nogil=True)
def _bu_step(rindptr, rindices, levels, parents, front, nxt, next_level):
    """Bottom-up step: unvisited vertices with an in-neighbour in bitmap ``front`` join ``nxt``.

    Returns the number of vertices visited (the size of the next frontier). Counts go to a
    per-word array rather than a prange reduction: some Numba versions reject a scalar
    reduction next to an early-exit inner loop ("unexpected cycle in lookup()").
    """
    n = levels.shape[0]
    nwords = nxt.shape[0]
    has_parents = parents.shape[0] > 0
    one = np.uint64(1)
    counts = np.zeros(nwords, dtype=np.int32)
    for w in nb.prange(nwords):
        bits = np.uint64(0)
        lo = w * 64
        hi = min(n, lo + 64)
        cnt = 0
        for v in range(lo, hi):
            if levels[v] < 0:
                for p in range(rindptr[v], rindptr[v + 1]):
                    u = rindices[p]
                    if (front[u >> 6] >> np.uint64(u & 63)) & one:
                        levels[v] = next_level
                        if has_parents:
                            parents[v] = u
                        bits |= one << np.uint64(v - lo)
                        cnt += 1
                        break
        nxt[w] = bits
        counts[w] = cnt
    return counts.sum()


@nb.njit(parallel=True, cache=True, nogil=True)
def _bitmap_of_level(levels, level, bits):
    """``bits`` = bitmap of the vertices at ``level``."""
    n = levels.shape[0]
    one = np.uint64(1)
    for w in nb.prange(bits.shape[0]):
        b = np.uint64(0)
        lo = w * 64
        for v in range(lo, min(n, lo + 64)):
            if levels[v] == level:
                b |= one << np.uint64(v - lo)
        bits[w] = b


@nb.njit(cache=True, nogil=True)
def _count_level(levels, level, lo, hi):
    k = 0
    for v in range(lo, hi):
        if levels[v] == level:
            k += 1
    return k


@nb.njit(cache=True, nogil=True)
def _write_level(indptr, levels, level, lo, hi, out, k):
    """Write the vertices of ``[lo, hi)`` at ``level`` to ``out[k:]``; return their degree sum."""
    s = 0
    for v in range(lo, hi):
        if levels[v] == level:
            out[k] = v
            k += 1
            s += indptr[v + 1] - indptr[v]
    return s


@nb.njit(parallel=True, cache=True, nogil=True)
def _queue_of_level(indptr, levels, level, out, nthreads):
    """Write the vertices at ``level`` to ``out`` in increasing order (two passes, no atomics).

    Returns ``(count, sum of their out-degrees)``. The loop bodies live in helpers: Numba's
    parfor pass rejects them inline under Python 3.12 ("unexpected cycle in lookup()").
    """
    n = levels.shape[0]
    nchunks = max(1, min(n // 4096 + 1, 64 * nthreads))
    size = (n + nchunks - 1) // nchunks
    counts = np.zeros(nchunks + 1, dtype=np.int64)
    degs = np.zeros(nchunks, dtype=np.int64)
    for c in nb.prange(nchunks):
        counts[c + 1] = _count_level(levels, level, c * size, min(n, (c + 1) * size))
    for c in range(nchunks):
        counts[c + 1] += counts[c]
    for c in nb.prange(nchunks):
        lo, hi = c * size, min(n, (c + 1) * size)
        degs[c] = _write_level(indptr, levels, level, lo, hi, out, counts[c])
    return counts[nchunks], degs.sum()


@nb.njit(cache=True, nogil=True)
def _hubs_in(indptr, frontier, nf, tau):
    """How many vertices of ``frontier[:nf]`` have out-degree above ``tau``."""
    h = 0
    for i in range(nf):
        u = frontier[i]
        if indptr[u + 1] - indptr[u] > tau:
            h += 1
    return h


@dataclass
class BfsTrace:
    """What a CPU BFS did: one ``"td"``/``"bu"`` entry per level and the frontier sizes."""

    steps: list[str] = field(default_factory=list)
    frontier_sizes: list[int] = field(default_factory=list)


def bfs_cpu(
    indptr: np.ndarray,
    indices: np.ndarray,
    rindptr: np.ndarray,
    rindices: np.ndarray,
    source: int,
    *,
    want_parents: bool = False,
    direction: str = "auto",
    rule: str = "beamer",
    alpha: float = 15.0,
    beta: float = 18.0,
    gamma: float = 30.0,
    hub_threshold: int = 0,
    trace: BfsTrace | None = None,
    levels: np.ndarray | None = None,
    parents: np.ndarray | None = None,
) -> tuple[np.ndarray, np.ndarray | None]:
    """BFS from ``source`` over a CSR (``rindptr``/``rindices``: in-arcs, for bottom-up steps).

    Parameters
    ----------
    indptr, indices : numpy.ndarray
        Out-arcs in CSR form (int64 offsets; int32 or int64 ids).
    rindptr, rindices : numpy.ndarray
        In-arcs (the same arrays for an undirected graph).
    source : int
        Start vertex (already checked by the caller).
    want_parents : bool
        Also return the BFS tree (``parents[source] = source``, -1 when unreachable).
    direction : {"auto", "top-down", "bottom-up"}
        Direction-optimizing, or one direction for every level.
    rule : {"beamer", "enterprise"}
        Top-down to bottom-up switch: edges rule with ``alpha``, or hub ratio ``gamma`` (%).
    alpha, beta, gamma, hub_threshold : float
        Switching parameters; hubs are vertices of out-degree above ``hub_threshold``.
    trace : BfsTrace, optional
        Filled with the direction and frontier size of every level.
    levels, parents : numpy.ndarray, optional
        Output buffers (int32 of length n; ids dtype of length n).

    Returns
    -------
    levels : numpy.ndarray of int32
        Hop distance from the source, -1 when unreachable.
    parents : numpy.ndarray or None
    """
    n = indptr.shape[0] - 1
    ids = indices.dtype
    if levels is None:
        levels = np.empty(n, dtype=np.int32)
    levels.fill(-1)
    if want_parents:
        if parents is None:
            parents = np.empty(n, dtype=ids)
        parents.fill(-1)
        par = parents
    else:
        par = np.empty(0, dtype=ids)
    levels[source] = 0
    if want_parents:
        par[source] = source
    frontier = np.empty(n, dtype=ids)
    nxt = np.empty(n, dtype=ids)
    counter = np.zeros(1, dtype=np.int64)
    frontier[0] = source
    nf = 1
    arcs = int(indptr[n])
    edges_to_check = arcs
    scout = int(indptr[source + 1] - indptr[source])
    total_hubs = 0
    if rule == "enterprise":
        total_hubs = int(np.count_nonzero(np.diff(indptr) > hub_threshold))
    nwords = (n + 63) // 64
    front_bits = np.empty(nwords, dtype=np.uint64)
    next_bits = np.empty(nwords, dtype=np.uint64)
    nthreads = nb.get_num_threads()
    try:
        _bfs_levels_loop(
            indptr, indices, rindptr, rindices, levels, par, frontier, nxt, counter,
            front_bits, next_bits, n, nf, scout, edges_to_check, total_hubs,
            direction, rule, alpha, beta, gamma, hub_threshold, trace, nthreads,
        )  # fmt: skip
    finally:
        nb.set_num_threads(nthreads)
    return levels, (parents if want_parents else None)


def _bfs_levels_loop(
    indptr, indices, rindptr, rindices, levels, par, frontier, nxt, counter, front_bits,
    next_bits, n, nf, scout, edges_to_check, total_hubs, direction, rule, alpha, beta, gamma,
    hub_threshold, trace, nthreads,
) -> None:  # fmt: skip
    """The level loop of :func:`bfs_cpu` (one Python iteration per level)."""

    def use(work: int) -> int:
        t = nthreads if work >= _PARALLEL_MIN_WORK else 1
        nb.set_num_threads(t)
        return t

    d = 0
    while nf > 0:
        if direction == "bottom-up":
            go_bottom_up = True
        elif direction == "top-down":
            go_bottom_up = False
        elif rule == "enterprise":
            hubs = _hubs_in(indptr, frontier, nf, hub_threshold)
            go_bottom_up = total_hubs > 0 and 100.0 * hubs > gamma * total_hubs
        else:
            go_bottom_up = scout > edges_to_check / alpha
        if go_bottom_up:
            use(n)
            _bitmap_of_level(levels, d, front_bits)
            awake = nf
            while True:
                old = awake
                awake = int(_bu_step(rindptr, rindices, levels, par, front_bits, next_bits, d + 1))
                d += 1
                if trace is not None:
                    trace.steps.append("bu")
                    trace.frontier_sizes.append(awake)
                front_bits, next_bits = next_bits, front_bits
                if awake == 0:
                    break
                if direction != "bottom-up" and not (awake >= old or awake > n / beta):
                    break
            if awake == 0:
                break
            t = use(n)
            nf = int(_queue_of_level(indptr, levels, d, frontier, t)[0])
            scout = 1  # as GAPBS: the next level goes top-down and measures its own scout count
        else:
            edges_to_check -= scout
            counter[0] = 0
            t = use(max(scout, 8 * nf))
            scout = int(
                _td_step(indptr, indices, levels, par, frontier, nf, nxt, counter, d + 1, t)
            )
            nf = int(counter[0])
            frontier, nxt = nxt, frontier
            d += 1
            if trace is not None:
                trace.steps.append("td")
                trace.frontier_sizes.append(nf)
