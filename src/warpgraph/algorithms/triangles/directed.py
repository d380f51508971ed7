"""Clustering and transitivity of directed graphs, as NetworkX defines them (CPU, Numba).

**Clustering** (Fagiolo 2007; ``networkx.clustering`` of a ``DiGraph``). With ``A`` the 0/1
adjacency (no loops) and ``B = A + A^T`` (1 for a one-way dyad, 2 for a mutual one), the
directed triangles at ``v`` are ``t(v) = (B^3)[v, v]``, and

    c(v) = t(v) / (2 (d(v) (d(v) - 1) - 2 r(v)))

with ``d(v)`` the total degree (in + out, distinct neighbours, no loop) and ``r(v)`` the
number of mutual neighbours; ``c(v) = 0`` where ``t(v) = 0``. Every triangle ``{a, b, c}`` of
the undirected simple graph adds ``2 B_ab B_bc B_ca`` to ``t`` at each of its three corners,
so one pass of the triangle enumeration over the census adjacency (a 2-bit dyad code per
neighbour, :func:`.prep.census_adjacency`) adds each triangle's product of the codes' arc
counts to the two arcs leaving its lowest corner (:data:`.cpu.DYAD_ARCS`), and
:func:`.cpu.per_vertex_from_arcs` spreads it to the corners, as for the undirected counts.

**Transitivity** (``networkx.transitivity`` of a ``DiGraph``: it reads successor sets). The
numerator counts the ordered triples ``(v, w, k)`` of distinct nodes with arcs ``v -> w``,
``v -> k`` and ``w -> k``; the denominator sums ``d_out(v) (d_out(v) - 1)``. All three nodes
of such a triple are a triangle of the undirected graph, whose 6-bit census code (three dyad
codes) fixes how many triples it holds (:data:`TRANSITIVE_TRIPLES`): the census histogram of
the triangles (:func:`.cpu.census_histogram`) weighted by that table is the numerator.

Both are exact integers until the one division, as in NetworkX, so the floats are NetworkX's.
Self-loops are ignored; parallel arcs count once (NetworkX refuses multigraphs).
"""

from __future__ import annotations

from itertools import permutations

import numba as nb
import numpy as np

from . import cpu
from .prep import graph_census_adjacency, orient_census

__all__ = ["TRANSITIVE_TRIPLES", "directed_clustering", "directed_transitivity"]


def _transitive_triples(code: int) -> int:
    """Ordered triples ``(v, w, k)`` with ``v -> w``, ``v -> k``, ``w -> k`` in a triangle of
    census code ``code`` (``code & 3``: the dyad ``(a, b)`` seen from ``a``; ``code >> 2 & 3``:
    ``(a, c)``; ``code >> 4``: ``(b, c)``; bit 0 of a dyad code: the arc from its lower end)."""
    dyads = {(0, 1): code & 3, (0, 2): (code >> 2) & 3, (1, 2): (code >> 4) & 3}

    def arc(x: int, y: int) -> int:
        return dyads[(x, y)] & 1 if x < y else (dyads[(y, x)] >> 1) & 1

    return sum(arc(v, w) * arc(v, k) * arc(w, k) for v, w, k in permutations(range(3)))


#: ``TRANSITIVE_TRIPLES[code]``: the transitive triples of a triangle of census code ``code``.
TRANSITIVE_TRIPLES = np.array([_transitive_triples(c) for c in range(64)], dtype=np.int64)


@nb.njit(parallel=True, cache=True, nogil=True)
def _dyad_degrees(ptr, code, total, mutual, out):  # pragma: no cover - JIT
    """Per vertex of the census adjacency: arcs in and out (``total``), mutual neighbours
    (``mutual``) and out-arcs (``out``)."""
    n = ptr.shape[0] - 1
    for u in nb.prange(n):
        t = m = o = 0
        for p in range(ptr[u], ptr[u + 1]):
            c = code[p]
            t += (c & 1) + (c >> 1)
            m += c == 3
            o += c & 1
        total[u] = t
        mutual[u] = m
        out[u] = o


def _degrees(ptr: np.ndarray, code: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    n = ptr.shape[0] - 1
    total, mutual, out = (np.empty(n, dtype=np.int64) for _ in range(3))
    _dyad_degrees(ptr, code, total, mutual, out)
    return total, mutual, out


def directed_clustering(G) -> np.ndarray:
    """Fagiolo's clustering of every vertex of the directed CPU graph ``G`` (rows sorted), as
    ``networkx.clustering`` computes it for a ``DiGraph`` (module docstring).

    Examples
    --------
    >>> import warpgraph as wg
    >>> G = wg.Graph.from_edges([0, 1, 2, 1], [1, 2, 0, 0], directed=True)
    >>> directed_clustering(G).tolist()  # (a 3-cycle, 0 <-> 1 mutual)
    [0.5, 0.5, 1.0]
    """
    ptr, idx, code = graph_census_adjacency(G)
    o = orient_census(ptr, idx, code)
    weights = np.zeros(o.num_arcs, dtype=np.int64)
    cpu.dyad_arc_counts(o, weights)
    t = 2 * cpu.per_vertex_from_arcs(o, weights)
    total, mutual, _ = _degrees(ptr, code)
    pairs = 2 * (total * (total - 1) - 2 * mutual)
    # (exact int64 values below 2**53, so each quotient is Python's int / int)
    return np.where(t != 0, t / np.where(t != 0, pairs, 1), 0.0)


def directed_transitivity(G) -> float:
    """NetworkX's transitivity of the directed CPU graph ``G`` (rows sorted): transitive
    triples over ``sum d_out (d_out - 1)`` (module docstring); 0.0 without any.

    Examples
    --------
    >>> import warpgraph as wg
    >>> G = wg.Graph.from_edges([0, 0, 1], [1, 2, 2], directed=True)  # (0 -> 1 -> 2, 0 -> 2)
    >>> directed_transitivity(G)
    0.5
    """
    ptr, idx, code = graph_census_adjacency(G)
    hist = cpu.census_histogram(orient_census(ptr, idx, code))
    triples = int(np.dot(hist, TRANSITIVE_TRIPLES))
    if triples == 0:
        return 0.0
    _, _, out = _degrees(ptr, code)
    return triples / int(np.dot(out, out - 1))
