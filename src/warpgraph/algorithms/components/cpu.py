"""Weakly connected components on the CPU: Shiloach-Vishkin hooking + pointer jumping (Numba).

Every arc ``u -> v`` links the larger of the two current labels under the smaller one (the arc is
read as undirected, so out-arcs alone give *weak* components), then every label jumps to its
root. Rounds repeat until no hook happens. Races between threads are benign: a lost hook is
retried in the next round, and labels only ever decrease, so the result is exact — each vertex
ends with the smallest vertex id of its component (the GAP benchmark's ``cc_sv`` scheme).

Examples
--------
>>> import numpy as np
>>> from warpgraph import Graph
>>> G = Graph.from_edges([3, 1], [4, 2], num_vertices=6)
>>> weak_component_labels(G).tolist()
[0, 1, 1, 3, 3, 5]
"""

from __future__ import annotations

import numba as nb
import numpy as np

from ...graph import Graph

PARALLEL_MIN_ARCS = 1 << 16  # below this a parallel region costs more than it saves


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


def weak_component_labels(G: Graph) -> np.ndarray:
    """Label of every vertex: the smallest vertex id in its weak component (int32 or int64).

    Parameters
    ----------
    G : Graph
        On the CPU (a GPU graph is copied to the host).
    """
    g = G.to("cpu")
    comp = np.arange(g.num_vertices, dtype=g.indices.dtype)
    step = _round_parallel if g.num_arcs >= PARALLEL_MIN_ARCS else _round_serial
    while step(g.indptr, g.indices, comp):
        pass
    return comp
