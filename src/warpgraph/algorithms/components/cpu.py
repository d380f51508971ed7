"""Weakly connected components on the CPU (Numba): Shiloach-Vishkin and Afforest.

Both methods read every arc ``u -> v`` as undirected, so out-arcs alone give *weak* components,
and both keep the invariant ``comp[x] <= x``: a tree's root is its smallest vertex, and after the
final pointer jumping every vertex holds the smallest vertex id of its component.

- ``sv`` (Shiloach-Vishkin hooking + pointer jumping, the GAP benchmark's ``cc_sv`` scheme): every
  arc links the larger of its two current labels under the smaller one, then every label jumps to
  its root; rounds repeat until no hook happens. Races are benign: a lost hook is retried in the
  next round, and labels only decrease.
- ``afforest`` (Sutton, Ben-Nun and Barak, IPDPS 2018): a lock-free union-find (compare-and-swap
  hooks of a root under a smaller root) first joins each vertex to its first ``neighbor_rounds``
  neighbours, then estimates the largest component from a seeded vertex sample and skips the
  vertices already in it while it joins the remaining arcs. Skipping is only sound when every
  vertex also sees its in-arcs: undirected graphs, or directed graphs whose reverse CSR is given;
  otherwise (directed, no reverse CSR) every vertex's remaining out-arcs are joined. One pass, no
  rounds.

Examples
--------
>>> import numpy as np
>>> from warpgraph import Graph
>>> G = Graph.from_edges([3, 1], [4, 2], num_vertices=6)
>>> weak_component_labels(G).tolist()
[0, 1, 1, 3, 3, 5]
>>> afforest_labels(G.indptr, G.indices, G.num_vertices).tolist()
[0, 1, 1, 3, 3, 5]
>>> count, labels = canonical_labels(np.array([0, 1, 1, 3, 3, 5]))
>>> count, labels.tolist()
(4, [0, 1, 1, 2, 2, 3])
"""

from __future__ import annotations

import numba as nb
import numpy as np

from ...cpu.atomics import cas
from ...graph import Graph

__all__ = [
    "afforest_labels",
    "canonical_labels",
    "sv_labels",
    "weak_component_labels",
]

PARALLEL_MIN_ARCS = 1 << 16  # below this a parallel region costs more than it saves
NEIGHBOR_ROUNDS = 2  # Afforest: neighbours joined before the largest component is estimated
SAMPLES = 1024  # Afforest: vertices sampled to find the largest component


# ---------------------------------------------------------------- Shiloach-Vishkin
def _hook_body(indptr, indices, comp, u):
    changed = False
    for p in range(indptr[u], indptr[u + 1]):
        cu = comp[u]
        cv = comp[indices[p]]
        if cu == cv:
            continue
        high, low = (cu, cv) if cu > cv else (cv, cu)
        if comp[high] == high:  # only roots are re-hooked
            comp[high] = low
            changed = True
    return changed


_hook_one = nb.njit(cache=True, nogil=True, inline="always")(_hook_body)


@nb.njit(cache=True, nogil=True, parallel=True)
def _round_parallel(indptr, indices, comp):
    n = comp.shape[0]
    hooked = np.zeros(1, dtype=np.int8)  # a flag, not a prange reduction (benign write race)
    for u in nb.prange(n):
        if _hook_one(indptr, indices, comp, u):
            hooked[0] = 1
    for u in nb.prange(n):
        while comp[u] != comp[comp[u]]:
            comp[u] = comp[comp[u]]
    return hooked[0] != 0


@nb.njit(cache=True, nogil=True)
def _round_serial(indptr, indices, comp):
    n = comp.shape[0]
    hooks = False
    for u in range(n):
        if _hook_one(indptr, indices, comp, u):
            hooks = True
    for u in range(n):
        while comp[u] != comp[comp[u]]:
            comp[u] = comp[comp[u]]
    return hooks


def sv_labels(indptr: np.ndarray, indices: np.ndarray, n: int) -> np.ndarray:
    """Shiloach-Vishkin labels: the smallest vertex id of each vertex's weak component.

    Parameters
    ----------
    indptr, indices : numpy.ndarray
        CSR arrays (int64 offsets, int32 or int64 ids).
    n : int
        Number of vertices.

    Returns
    -------
    numpy.ndarray
        Same dtype as ``indices``.
    """
    comp = np.arange(n, dtype=indices.dtype)
    step = _round_parallel if indices.shape[0] >= PARALLEL_MIN_ARCS else _round_serial
    while step(indptr, indices, comp):
        pass
    return comp


def weak_component_labels(G: Graph) -> np.ndarray:
    """Label of every vertex: the smallest vertex id in its weak component (int32 or int64).

    Afforest (:func:`afforest_labels`; it skips the giant component on undirected graphs and on
    directed ones whose reverse CSR is cached); used by :mod:`warpgraph.stats`.

    Parameters
    ----------
    G : Graph
        On the CPU (a GPU graph is copied to the host).
    """
    g = G.to("cpu")
    rindptr = rindices = None
    if g.directed and g._reverse is not None:
        rindptr, rindices, _ = g.reverse_csr()
    return afforest_labels(
        g.indptr, g.indices, g.num_vertices, rindptr, rindices, symmetric=not g.directed
    )


# ---------------------------------------------------------------- Afforest
@nb.njit(cache=True, nogil=True, inline="always")
def _find(comp, x):
    """Root of ``x`` with path halving (a non-root only ever gets one of its ancestors)."""
    while True:
        p = np.int64(comp[x])
        g = np.int64(comp[p])
        if p == g:
            return p
        comp[x] = g
        x = g


@nb.njit(cache=True, nogil=True, inline="always")
def _union(comp, a, b):
    ra = _find(comp, a)
    rb = _find(comp, b)
    while ra != rb:
        if ra > rb:
            ra, rb = rb, ra
        # hook the larger root rb under ra, only while rb is still a root
        old = np.int64(cas(comp, rb, rb, ra))
        if old == rb:
            return
        ra = _find(comp, ra)
        rb = _find(comp, old)


@nb.njit(cache=True, nogil=True, parallel=True)
def _link_first(indptr, indices, comp, r):
    """Join every vertex to its first ``r`` neighbours (one pass: measured faster on the CPU
    than one pass per neighbour with pointer jumping between them)."""
    for u in nb.prange(comp.shape[0]):
        w = np.int64(u)  # prange indices may be unsigned: keep the arithmetic signed
        for p in range(indptr[u], min(indptr[u] + r, indptr[u + 1])):
            _union(comp, w, np.int64(indices[p]))


@nb.njit(cache=True, nogil=True, parallel=True)
def _compress(comp):
    for u in nb.prange(comp.shape[0]):
        while comp[u] != comp[comp[u]]:
            comp[u] = comp[comp[u]]


@nb.njit(cache=True, nogil=True, parallel=True)
def _link_rest(indptr, indices, rindptr, rindices, comp, r, skip, use_reverse):
    """Join the out-arcs past the first ``r`` of every vertex not labelled ``skip`` (-1: none),
    and all its in-arcs when ``use_reverse``."""
    for u in nb.prange(comp.shape[0]):
        if comp[u] == skip:
            continue
        w = np.int64(u)
        for p in range(indptr[u] + r, indptr[u + 1]):
            _union(comp, w, np.int64(indices[p]))
        if use_reverse:
            for p in range(rindptr[u], rindptr[u + 1]):
                _union(comp, w, np.int64(rindices[p]))


def largest_sampled_label(comp, samples: int, seed: int = 0) -> int:
    """The most frequent label among ``samples`` seeded random vertices (ties: smallest)."""
    n = comp.shape[0]
    rng = np.random.default_rng(seed)
    values, counts = np.unique(comp[rng.integers(0, n, size=samples)], return_counts=True)
    return int(values[np.argmax(counts)])


def afforest_labels(
    indptr: np.ndarray,
    indices: np.ndarray,
    n: int,
    rindptr: np.ndarray | None = None,
    rindices: np.ndarray | None = None,
    *,
    symmetric: bool = False,
    neighbor_rounds: int = NEIGHBOR_ROUNDS,
    samples: int = SAMPLES,
) -> np.ndarray:
    """Afforest labels: the smallest vertex id of each vertex's weak component.

    Parameters
    ----------
    indptr, indices : numpy.ndarray
        CSR arrays (int64 offsets, int32 or int64 ids).
    n : int
        Number of vertices.
    rindptr, rindices : numpy.ndarray, optional
        The reverse CSR (in-arcs) of a directed graph: enables skipping the largest component.
    symmetric : bool
        The CSR holds both arcs of every edge (an undirected graph): skipping is then sound
        without a reverse CSR.
    neighbor_rounds : int
        Neighbours of each vertex joined before the largest component is estimated.
    samples : int
        Vertices sampled to estimate the largest component (0: no skipping).

    Returns
    -------
    numpy.ndarray
        Same dtype as ``indices``.
    """
    comp = np.arange(n, dtype=indices.dtype)
    if n == 0 or indices.shape[0] == 0:
        return comp
    if neighbor_rounds > 0:
        _link_first(indptr, indices, comp, neighbor_rounds)
        _compress(comp)
    use_reverse = rindptr is not None and not symmetric
    skip = -1
    if samples > 0 and (symmetric or use_reverse):
        skip = largest_sampled_label(comp, samples)
    if not use_reverse:
        rindptr, rindices = indptr, indices  # typed placeholders, not read
    _link_rest(indptr, indices, rindptr, rindices, comp, neighbor_rounds, skip, use_reverse)
    _compress(comp)
    return comp


# ---------------------------------------------------------------- numbering
@nb.njit(cache=True, nogil=True)
def _rank_roots(comp, out):
    k = 0
    for v in range(comp.shape[0]):
        c = comp[v]
        if c == v:
            out[v] = k
            k += 1
        else:
            out[v] = out[c]  # c < v was numbered already
    return k


@nb.njit(cache=True, nogil=True, parallel=True)
def _rank_roots_parallel(comp, out):
    """:func:`_rank_roots` in three parallel passes: roots counted per chunk, numbered from
    their chunk's offset, then every other vertex takes its root's number (its label chased to
    the root: the labels need not be fully compressed)."""
    n = comp.shape[0]
    chunks = min(n, 256)
    size = (n + chunks - 1) // max(chunks, 1)
    first = np.zeros(chunks + 1, dtype=np.int64)
    for c in nb.prange(chunks):
        k = 0
        for v in range(c * size, min(n, (c + 1) * size)):
            k += 1 if comp[v] == v else 0
        first[c + 1] = k
    for c in range(chunks):
        first[c + 1] += first[c]
    for c in nb.prange(chunks):
        k = first[c]
        for v in range(c * size, min(n, (c + 1) * size)):
            if comp[v] == v:
                out[v] = k
                k += 1
    for v in nb.prange(n):
        r = comp[v]
        if r != v:
            while comp[r] != r:
                r = comp[r]
            out[v] = out[r]
    return first[chunks]


#: Below this many vertices the labels are numbered in one serial pass.
PARALLEL_RANK_MIN = 1 << 16


def canonical_labels(min_labels: np.ndarray) -> tuple[int, np.ndarray]:
    """``(count, labels)`` from labels that name each component by its smallest vertex: the
    components numbered ``0..count-1`` in order of their smallest vertex (int32 while
    ``n < 2**31``). In parallel from :data:`PARALLEL_RANK_MIN` vertices: the serial pass reads
    labels that many threads wrote from other cores' caches (~1 ms per 500k on 16 cores)."""
    n = min_labels.shape[0]
    out = np.empty(n, dtype=np.int32 if n < 2**31 else np.int64)
    rank = _rank_roots_parallel if n >= PARALLEL_RANK_MIN else _rank_roots
    k = rank(min_labels, out)
    return int(k), out


@nb.njit(cache=True, nogil=True)
def _first_seen(labels, first, out):
    k = 0
    for v in range(labels.shape[0]):
        c = labels[v]
        if first[c] < 0:
            first[c] = k
            k += 1
        out[v] = first[c]
    return k


def renumber_by_first_vertex(labels: np.ndarray) -> tuple[int, np.ndarray]:
    """``(count, labels)`` for arbitrary integer labels: components numbered in order of their
    smallest vertex (one pass when the labels lie in ``[0, n)``, else a sort)."""
    n = labels.shape[0]
    dt = np.int32 if n < 2**31 else np.int64
    if n == 0:
        return 0, np.zeros(0, dtype=dt)
    lo, hi = int(labels.min()), int(labels.max())
    if lo < 0 or hi >= 2 * n + 16:
        _, labels = np.unique(labels, return_inverse=True)
        hi = int(labels.max())
    out = np.empty(n, dtype=dt)
    first = np.full(hi + 1, -1, dtype=np.int64)
    k = _first_seen(labels.reshape(-1), first, out)
    return int(k), out
