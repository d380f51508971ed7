"""GPU core decomposition: parallel peeling in one cooperative launch (``kcore_peel.cu``).

The neighbour lists are the simple graph's (no loops, no parallel arcs); for a directed graph
they are out- plus in-neighbours, so a mutual pair counts twice, as NetworkX's in + out degree
does. Each level ``k`` (the smallest remaining degree) is a scan and an asynchronous worklist,
separated by grid barriers, all in one launch: a launch per peel round cost 1.3-2.3x more on
an H100 (a lattice peels its 2-core in ~700 dependent rounds; a skewed graph has hundreds of
levels), see ``benchmarks/results/kcore_peel_h100_20261122.json``.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ...device import cupy
from ...gpu.launch import (
    launch_cooperative,
    max_cooperative_blocks,
    sm_count,
)
from ...gpu.loader import declare, get_kernel
from ...graph import Graph
from ..triangles.gpu import simple_arcs

__all__ = ["adjacency", "core_numbers"]

SOURCE = "kcore_peel.cu"
declare(SOURCE, "kcore_decompose<int>", "kcore_decompose<long long>")

#: Blocks of 256 threads per SM of the persistent peel.
BLOCKS_PER_SM = 4
#: Longest pause (ns) of a warp waiting for its queue slot (doubling from 32 ns).
MAX_SLEEP_NS = 2048


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


#: Words of ``kcore_decompose``'s counter array (each used one on its own 128-byte line).
_COUNTERS, _LOWEST = 80, 48


def core_numbers(G: Graph):
    """Core number of every vertex (int64 CuPy array)."""
    cp = cupy()
    n = G.num_vertices
    indptr, indices = adjacency(G)
    deg = cp.diff(indptr)
    core = cp.full(n, -1, dtype=cp.int64)
    if n == 0:
        return core
    ctype = "int" if indices.dtype == cp.int32 else "long long"
    kernel = get_kernel(SOURCE, f"kcore_decompose<{ctype}>", cooperative=True)
    queue = cp.full(n, -1, dtype=cp.int64)
    counters = cp.zeros(_COUNTERS, dtype=cp.uint64)
    counters[_LOWEST] = ~np.uint64(0)
    blocks = max(1, min(max_cooperative_blocks(kernel, 256), BLOCKS_PER_SM * sm_count()))
    args = (indptr, indices, n, queue, counters, deg, core, MAX_SLEEP_NS)
    launch_cooperative(kernel, args, blocks=blocks)
    return core
