"""The onion decomposition: ``onion_layers``, NetworkX's layers and their order.

The onion decomposition (Hebert-Dufresne, Grochow & Allard, *Sci. Rep.* 6, 31708, 2016)
refines the core decomposition: peeling proceeds in rounds, each removing every remaining
vertex whose degree is at most the current core, and the round's number is the vertex's layer.
The core starts at 1 and rises to the smallest remaining degree when no vertex is that low;
vertices of degree 0 make up layer 1. Within a round NetworkX lists the vertices by their
degree when the round began, then in vertex order: :func:`onion_layers` gives that order too.

CPU: one compiled pass, O(n + m) (a round's candidates are the neighbours whose degree just
fell to the core, so only a rise of the core scans the vertices left, and those form a core:
O(m) scans in all), then two counting sorts for the order. GPU: the same rounds in one thread block
(``kernels/onion_peel.cu``), then one sort by (layer, degree, vertex).
"""

from __future__ import annotations

from typing import Any

import numba as nb
import numpy as np

from ...errors import InvalidArgumentError
from ...gpu.loader import declare
from ...graph import Graph
from ..triangles.api import place

__all__ = ["onion_layers"]

SOURCE = "onion_peel.cu"
declare(SOURCE, "onion_peel<int>", "onion_peel<long long>")


def onion_layers(G: Graph, *, device: str = "auto") -> tuple[Any, Any]:
    """Onion layer of every vertex, and the vertices in NetworkX's order of them.

    Parameters
    ----------
    G : Graph
        Undirected. Self-loops are ignored and parallel edges count once (NetworkX refuses
        both; its backend checks before calling).
    device : {"auto", "cpu", "gpu"}
        Where to compute; the arrays live there.

    Returns
    -------
    layers : int64 array of length ``G.num_vertices``
        1-based layer of each vertex.
    order : int64 array of length ``G.num_vertices``
        The vertices by layer, within a layer by their degree when its round began, then by
        id: the key order of NetworkX's ``onion_layers`` dict.

    Raises
    ------
    InvalidArgumentError
        For a directed graph.

    Examples
    --------
    >>> import warpgraph as wg
    >>> from warpgraph.algorithms.kcore import onion_layers
    >>> G = wg.Graph.from_edges([0, 0, 1, 2], [1, 2, 2, 3], num_vertices=5, directed=False)
    >>> layers, order = onion_layers(G, device="cpu")
    >>> layers.tolist(), order.tolist()
    ([3, 3, 3, 2, 1], [4, 3, 0, 1, 2])
    """
    if not isinstance(G, Graph):
        raise InvalidArgumentError(f"onion_layers needs a warpgraph.Graph, got {type(G).__name__}")
    if G.directed:
        raise InvalidArgumentError("onion_layers needs an undirected graph (NetworkX's too)")
    G, dev = place(G, device)
    if G.num_arcs and G.has_parallel_edges():
        G = G.merge_duplicates()
    return layers_and_order(G, dev)


def layers_and_order(G: Graph, dev: str) -> tuple[Any, Any]:
    """:func:`onion_layers` of an undirected ``G`` on ``dev`` known to have no parallel edges
    (the NetworkX backend's conversions of ``nx.Graph``: checking costs ~12 ms at 1M edges)."""
    if dev == "gpu":
        return _onion_gpu(G)
    layers = np.empty(G.num_vertices, dtype=np.int64)
    order = np.empty(G.num_vertices, dtype=np.int64)
    _onion_cpu(G.indptr, G.indices, layers, order)
    return layers, order


@nb.njit(cache=True, nogil=True)
def _onion_cpu(indptr, indices, layer, order):  # pragma: no cover - compiled
    """The rounds on one thread, then ``order`` by two stable counting sorts of the vertices
    (by their degree at their round's start, then by layer): no sort per round."""
    n = indptr.shape[0] - 1
    deg = np.empty(n, dtype=np.int64)
    for v in range(n):
        d = 0
        for j in range(indptr[v], indptr[v + 1]):
            if indices[j] != v:
                d += 1
        deg[v] = d
    start_degree = np.zeros(n, dtype=np.int64)
    removed = np.zeros(n, dtype=np.bool_)
    placed = 0
    for v in range(n):
        if deg[v] == 0:
            layer[v] = 1
            removed[v] = True
            placed += 1
    current = 2 if placed > 0 else 1
    alive = np.empty(n - placed, dtype=np.int64)
    na = 0
    for v in range(n):
        if not removed[v]:
            alive[na] = v
            na += 1
    frontier = np.empty(n, dtype=np.int64)
    following = np.empty(n, dtype=np.int64)
    nf = 0
    core = 1
    while placed < n:
        if nf == 0:  # every remaining degree exceeds the core: compact, raise it, rescan
            kept = 0
            low = n
            for i in range(na):
                v = alive[i]
                if not removed[v]:
                    alive[kept] = v
                    kept += 1
                    low = min(low, deg[v])
            na = kept
            core = max(core, low)
            for i in range(na):
                v = alive[i]
                if deg[v] <= core:
                    frontier[nf] = v
                    nf += 1
        for i in range(nf):
            v = frontier[i]
            layer[v] = current
            start_degree[v] = deg[v]
            removed[v] = True
        placed += nf
        nn = 0
        for i in range(nf):
            v = frontier[i]
            for j in range(indptr[v], indptr[v + 1]):
                u = indices[j]
                if not removed[u]:
                    deg[u] -= 1
                    if deg[u] == core:  # (fell to the core now: next round's)
                        following[nn] = u
                        nn += 1
        frontier, following = following, frontier
        nf = nn
        current += 1
    by_degree = _counting_sort(np.arange(n), start_degree)
    order[:] = _counting_sort(by_degree, layer)


@nb.njit(cache=True, nogil=True)
def _counting_sort(items, key):  # pragma: no cover - compiled
    """``items`` stably sorted by ``key[item]`` (small non-negative ints)."""
    top = 0
    for v in items:
        top = max(top, key[v])
    start = np.zeros(top + 2, dtype=np.int64)
    for v in items:
        start[key[v] + 1] += 1
    for k in range(top + 1):
        start[k + 1] += start[k]
    out = np.empty_like(items)
    for v in items:
        out[start[key[v]]] = v
        start[key[v]] += 1
    return out


def _onion_gpu(G: Graph) -> tuple[Any, Any]:
    from ...device import cupy
    from ...gpu.launch import launch
    from ...gpu.loader import get_kernel

    cp = cupy()
    n = G.num_vertices
    rows = G._arc_sources()
    loops = rows[rows == G.indices]
    deg = cp.diff(G.indptr).astype(cp.int64)
    if loops.size:
        deg -= cp.bincount(loops, minlength=n)
    layers = cp.empty(n, dtype=cp.int64)
    start_degree = cp.empty(n, dtype=cp.int64)
    if n == 0:
        return layers, cp.empty(0, dtype=cp.int64)
    scratch = cp.empty((4, n), dtype=cp.int64)
    ctype = "int" if G.indices.dtype == cp.int32 else "long long"
    kernel = get_kernel(SOURCE, f"onion_peel<{ctype}>")
    indptr = G.indptr.astype(cp.int64, copy=False)
    args = (indptr, G.indices, n, deg, layers, start_degree, *scratch)
    launch(kernel, 1024, args, block=1024, grid=1)
    # (layer, degree, vertex) packed into one int64 where it fits, else a three-key sort
    top_degree = int(cp.diff(G.indptr).max())
    if (n + 1) * (top_degree + 1) * n < 2**63:
        key = (layers * (top_degree + 1) + start_degree) * n + cp.arange(n, dtype=cp.int64)
        order = cp.argsort(key)
    else:
        order = cp.lexsort(cp.stack((cp.arange(n, dtype=cp.int64), start_degree, layers)))
    return layers, order.astype(cp.int64, copy=False)
