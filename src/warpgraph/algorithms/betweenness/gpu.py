"""Brandes' searches on the GPU: one search per thread block (``kernels/brandes.cu``), a batch
of blocks at once, each adding into its own partial sum."""

from __future__ import annotations

from typing import Any

import numpy as np

from ...errors import OutOfDeviceMemory
from ...gpu.loader import declare
from ...graph import Graph
from .api import empty_result, partial_sums

__all__ = ["betweenness_gpu"]

SOURCE = "brandes.cu"
declare(SOURCE, "brandes<int>", "brandes<long long>")

#: Threads per block (a search's level is spread over them).
BLOCK = 256
#: Blocks per SM: several searches share an SM, so one's barriers and loads overlap the
#: others' (benchmarks/betweenness.py --blocks-per-sm compares). The H200 sweep of session 51
#: (1,024 sources) favours 8 over 2: kron:18 1,187 -> 918 ms, urand:17 302 -> 295, grid:708
#: 281 -> 288.
BLOCKS_PER_SM = 8
#: The blocks' scratch stays within this, and within a SCRATCH_SHARE of the device's memory
#: (its total, not its free bytes, so the block count, and with it the order the partial
#: sums add in, is the same on every call on one device) ...
SCRATCH_BYTES = 6 << 30
SCRATCH_SHARE = 8
#: ... at this many bytes per vertex and block (dist 4, sigma 8, delta 8, order 4 or 8,
#: levels 8, partial sum 8).
ROW_BYTES = 44


def scratch_blocks(k: int, most: int, row_bytes: int, total: int, free: int) -> int:
    """How many searches run at once (each with ``row_bytes`` of scratch): as
    :func:`.api.partial_sums` within ``min(SCRATCH_BYTES, total // SCRATCH_SHARE)``, and
    fewer when the device's ``free`` bytes hold fewer (other arrays already there: the sums
    then add in another order, the result stays the same to rounding).

    Raises
    ------
    OutOfDeviceMemory
        When not even one search's scratch fits.

    Examples
    --------
    >>> GiB = 1 << 30
    >>> scratch_blocks(1024, 1056, 11 << 20, 141 * GiB, 140 * GiB)  # the 6 GiB bound
    558
    >>> scratch_blocks(1024, 1056, 11 << 20, 16 * GiB, 15 * GiB)  # an eighth of 16 GiB
    186
    >>> scratch_blocks(1024, 1056, 11 << 20, 141 * GiB, GiB // 4)  # what is free
    22
    """
    blocks = partial_sums(k, most, min(SCRATCH_BYTES, total // SCRATCH_SHARE) // row_bytes)
    # (5% headroom for the pool's rounding and the result, as check_device_memory)
    fits = int(free / 1.05) // row_bytes
    if fits < 1:
        raise OutOfDeviceMemory(row_bytes, free, "one betweenness search's scratch")
    return min(blocks, fits)


def betweenness_gpu(G: Graph, sources: np.ndarray, endpoints: bool, arcs: bool = False) -> Any:
    """Raw betweenness (see :func:`.api.betweenness_centrality`) on the GPU; with ``arcs``,
    each arc's share instead (:func:`.api.arc_dependency_sums`)."""
    from ...device import cupy
    from ...gpu.launch import launch, sm_count
    from ...gpu.loader import get_kernel

    cp = cupy()
    n, m, k = G.num_vertices, int(G.num_arcs), sources.size
    if n == 0 or k == 0:
        return empty_result(m if arcs else n, cp)
    id_dtype = G.indices.dtype
    rindptr, rindices, _ = G.reverse_csr()
    rindices = rindices.astype(id_dtype, copy=False)
    row_bytes = ROW_BYTES * n + (8 * m if arcs else 0)
    free, total = cp.cuda.runtime.memGetInfo()
    free += cp.get_default_memory_pool().free_bytes()
    blocks = scratch_blocks(k, BLOCKS_PER_SM * sm_count(), row_bytes, total, free)
    ctype = "int" if id_dtype == cp.int32 else "long long"
    kernel = get_kernel(SOURCE, f"brandes<{ctype}>")
    args = (
        G.indptr.astype(cp.int64, copy=False),
        G.indices,
        rindptr.astype(cp.int64, copy=False),
        rindices,
        n,
        cp.asarray(sources, dtype=cp.int64),
        k,
        int(endpoints),
        cp.full(blocks * n, -1, dtype=cp.int32),  # dist
        cp.zeros(blocks * n, dtype=cp.float64),  # sigma
        cp.zeros(blocks * n, dtype=cp.float64),  # delta
        cp.empty(blocks * n, dtype=id_dtype),  # order
        cp.empty(blocks * (n + 1), dtype=cp.int64),  # levels
        partials := cp.zeros((blocks, n), dtype=cp.float64),
        arc_partials := cp.zeros((blocks, m) if arcs else 1, dtype=cp.float64),
        m if arcs else 0,  # (the arc partial sums' stride; 0: none)
    )
    launch(kernel, blocks * BLOCK, args, block=BLOCK, grid=blocks)
    return (arc_partials if arcs else partials).sum(axis=0)
