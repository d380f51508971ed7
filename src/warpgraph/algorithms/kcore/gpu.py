"""GPU core decomposition: level-synchronous parallel peeling (``kcore_peel.cu``).

The neighbour lists are the simple graph's (no loops, no parallel arcs); for a directed graph
they are out- plus in-neighbours, so a mutual pair counts twice, as NetworkX's in + out degree
does. Each level ``k`` is one scan plus as many peel rounds as it takes the queue to empty;
``k`` then jumps to the smallest remaining degree. The rounds read their queue length on the
device and are queued in batches (1, 2, 4, ... up to :data:`MAX_BATCH`), one host read of the
last length per batch: a lattice peels its 2-core from the boundary inwards, one round per row
(708 rounds for a 708 x 708 grid), where a host read per round cost ~85 us each.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ...device import cupy
from ...gpu.launch import (
    convert_args,
    launch,
    launch_cooperative,
    max_cooperative_blocks,
    sm_count,
)
from ...gpu.loader import declare, get_kernel
from ...graph import Graph
from ..triangles.gpu import simple_arcs

__all__ = ["adjacency", "core_numbers"]

SOURCE = "kcore_peel.cu"
declare(
    SOURCE,
    "kcore_scan",
    "kcore_peel_rounds<int>",
    "kcore_peel_rounds<long long>",
)
declare(SOURCE, "kcore_decompose<int>", "kcore_decompose<long long>")

#: ``"persistent"`` (one cooperative launch) or ``"rounds"`` (a launch per peel round).
PEEL = "persistent"

#: Blocks of 256 threads per SM of the persistent peel.
BLOCKS_PER_SM = 4
#: Longest pause (ns) of a warp waiting for its queue slot (doubling from 32 ns).
MAX_SLEEP_NS = 2048

#: Most peel rounds queued between two host reads of the queue length.
MAX_BATCH = 32


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
    if PEEL == "persistent":
        return _core_numbers_persistent(G)
    return _core_numbers_by_rounds(G)


#: Words of ``kcore_decompose``'s counter array (each on its own 128-byte line).
_COUNTERS, _LOWEST, _LEVELS = 96, 48, 80


def _core_numbers_persistent(G: Graph):
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


def _core_numbers_by_rounds(G: Graph):
    cp = cupy()
    n = G.num_vertices
    indptr, indices = adjacency(G)
    deg = cp.diff(indptr)
    core = cp.full(n, -1, dtype=cp.int64)
    if n == 0:
        return core
    scan = get_kernel(SOURCE, "kcore_scan")
    ctype = "int" if indices.dtype == cp.int32 else "long long"
    peel = get_kernel(SOURCE, f"kcore_peel_rounds<{ctype}>")
    queue = cp.empty(n, dtype=cp.int64)
    nxt = cp.empty(n, dtype=cp.int64)
    lengths = cp.zeros(MAX_BATCH + 1, dtype=cp.uint64)  # round r reads r, writes r + 1
    length = [lengths[r : r + 1] for r in range(MAX_BATCH + 1)]
    grid = (min(-(-n * 32 // 256), 8 * sm_count()),)  # a warp per queued vertex, grid-stride
    big = cp.iinfo(cp.int64).max
    k = int(deg.min())
    while True:
        length[0].fill(0)
        launch(scan, n, (deg, core, n, k, queue, length[0]))
        batch, size = 1, int(length[0].get()[0])
        # checked once per level; a round swaps the queues and moves the length pointers only
        first = (indptr, indices, queue, length[0], deg, core, k, nxt, length[1])
        args = list(convert_args(first, peel.params))
        while size > 0:
            length[0].fill(size)
            lengths[1 : batch + 1].fill(0)
            for r in range(batch):
                args[2], args[3], args[7], args[8] = queue, length[r], nxt, length[r + 1]
                peel.raw(grid, (256,), tuple(args))
                queue, nxt = nxt, queue
            size = int(length[batch].get()[0])
            batch = min(2 * batch, MAX_BATCH)
        low = int(cp.where(core < 0, deg, big).min())
        if low == big:  # every vertex has its core number
            return core
        k = low
