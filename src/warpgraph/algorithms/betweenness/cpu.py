"""Brandes' searches on the CPU: each Numba worker runs whole searches with its own arrays
and adds their dependencies into the partial sum of the sources it was given."""

from __future__ import annotations

import numba as nb
import numpy as np

from ...graph import Graph
from .api import empty_result, partial_sums

__all__ = ["betweenness_cpu"]

#: At most this many partial sums (one per worker at a time), and at most this much memory.
MOST_PARTIALS = 32
PARTIAL_BYTES = 1 << 30


def betweenness_cpu(
    G: Graph, sources: np.ndarray, endpoints: bool, arcs: bool = False
) -> np.ndarray:
    """Raw betweenness (see :func:`.api.betweenness_centrality`) on the CPU; with ``arcs``,
    each arc's share instead (:func:`.api.arc_dependency_sums`)."""
    from ...cpu.threads import threads_for

    n, m, k = G.num_vertices, int(G.num_arcs), sources.size
    if n == 0 or k == 0:
        return empty_result(m if arcs else n)
    row = n + (m if arcs else 0)
    count = partial_sums(k, MOST_PARTIALS, PARTIAL_BYTES // (8 * row))
    partials = np.zeros((count, n), dtype=np.float64)
    arc_partials = np.zeros((count, m if arcs else 0), dtype=np.float64)
    with threads_for(k * max(1, m)):
        _searches(G.indptr, G.indices, sources, endpoints, partials, arc_partials)
    return (arc_partials if arcs else partials).sum(axis=0)


@nb.njit(cache=True, nogil=True, parallel=True)
def _searches(indptr, indices, sources, endpoints, partials, arc_partials):  # pragma: no cover
    """Partial sum ``p`` gathers sources ``p, p + P, ...``; one worker runs a partial's
    searches in turn (the sums' order is fixed by ``P`` alone). ``arc_partials`` of width 0:
    no arc shares."""
    n = indptr.shape[0] - 1
    k = sources.shape[0]
    count = partials.shape[0]
    for p in nb.prange(count):
        dist = np.full(n, -1, dtype=np.int64)
        sigma = np.zeros(n, dtype=np.float64)
        delta = np.zeros(n, dtype=np.float64)
        order = np.empty(n, dtype=np.int64)
        acc = partials[p]
        arc_acc = arc_partials[p]
        per_arc = arc_acc.shape[0] > 0
        for i in range(p, k, count):
            s = sources[i]
            dist[s] = 0
            sigma[s] = 1.0
            order[0] = s
            head, tail = 0, 1
            while head < tail:  # the search, counting shortest paths forward
                v = order[head]
                head += 1
                d = dist[v] + 1
                sv = sigma[v]
                for j in range(indptr[v], indptr[v + 1]):
                    u = indices[j]
                    if dist[u] < 0:
                        dist[u] = d
                        order[tail] = u
                        tail += 1
                    if dist[u] == d:
                        sigma[u] += sv
            for a in range(tail - 1, -1, -1):  # dependencies, farthest first, pulled
                v = order[a]
                d = dist[v] + 1
                sv = sigma[v]
                total = 0.0
                for j in range(indptr[v], indptr[v + 1]):
                    u = indices[j]
                    if dist[u] == d:
                        share = sv * ((1.0 + delta[u]) / sigma[u])
                        total += share
                        if per_arc:
                            arc_acc[j] += share
                delta[v] = total
                if v != s:
                    acc[v] += total + 1.0 if endpoints else total
            if endpoints:
                acc[s] += tail - 1
            for a in range(tail):  # clear what this search touched
                v = order[a]
                dist[v] = -1
                sigma[v] = 0.0
                delta[v] = 0.0
