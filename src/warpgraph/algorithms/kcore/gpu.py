"""GPU core decomposition: level-synchronous parallel peeling (``kcore_peel.cu``).

The neighbour lists are the simple graph's (no loops, no parallel arcs); for a directed graph
they are out- plus in-neighbours, so a mutual pair counts twice, as NetworkX's in + out degree
does. Each level ``k`` is one scan plus as many peel launches as it takes the queue to empty
(one small host read of the queue length per launch); ``k`` then jumps to the smallest
remaining degree.
"""

from __future__ import annotations

from typing import Any

from ...device import cupy
from ...gpu.launch import launch
from ...gpu.loader import declare, get_kernel
from ...graph import Graph
from ..triangles.gpu import simple_arcs

__all__ = ["adjacency", "core_numbers"]

SOURCE = "kcore_peel.cu"
declare(SOURCE, "kcore_scan", "kcore_peel<int>")


def adjacency(G: Graph) -> tuple[Any, Any]:
    """``(indptr, indices)`` of the peeling neighbour lists of ``G`` on the device."""
    cp = cupy()
    n = G.num_vertices
    s, d = simple_arcs(G)
    if G.directed and s.size:
        key = cp.concatenate((s, d)).astype(cp.uint64) * cp.uint64(n) + cp.concatenate(
            (d, s)
        ).astype(cp.uint64)
        key = cp.sort(key)
        s = (key // cp.uint64(n)).astype(G.indices.dtype)
        d = (key % cp.uint64(n)).astype(G.indices.dtype)
    indptr = cp.zeros(n + 1, dtype=cp.int64)
    if s.size:
        cp.cumsum(cp.bincount(s, minlength=n), out=indptr[1:])
    return indptr, d


def core_numbers(G: Graph):
    """Core number of every vertex (int64 CuPy array)."""
    cp = cupy()
    n = G.num_vertices
    indptr, indices = adjacency(G)
    deg = cp.diff(indptr)
    core = cp.full(n, -1, dtype=cp.int64)
    if n == 0:
        return core
    scan = get_kernel(SOURCE, "kcore_scan")
    ctype = "int" if indices.dtype == cp.int32 else "long long"
    peel = get_kernel(SOURCE, f"kcore_peel<{ctype}>")
    queue = cp.empty(n, dtype=cp.int64)
    nxt = cp.empty(n, dtype=cp.int64)
    counter = cp.zeros(1, dtype=cp.uint64)
    big = cp.iinfo(cp.int64).max
    remaining = n
    k = int(deg.min())
    while remaining > 0:
        counter.fill(0)
        launch(scan, n, (deg, core, n, k, queue, counter))
        size = int(counter.get()[0])
        while size > 0:
            remaining -= size
            counter.fill(0)
            launch(peel, size * 32, (indptr, indices, queue, size, deg, core, k, nxt, counter))
            queue, nxt = nxt, queue
            size = int(counter.get()[0])
        if remaining > 0:
            k = int(cp.where(core < 0, deg, big).min())
    return core
