"""Brandes' searches on the GPU: one search per thread block (``kernels/brandes.cu``), a batch
of blocks at once, each adding into its own partial sum."""

from __future__ import annotations

from typing import Any

import numpy as np

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
#: (1,024 sources) favours 8: kron:18 1,187 -> 918 ms, urand:17 302 -> 295, grid:708 281 ->
#: 288; not adopted yet: more blocks take more scratch (up to SCRATCH_BYTES where 2 per SM
#: took a quarter of it), which wants a bound by the free device memory, and neither change
#: could be tested on a GPU that session.
BLOCKS_PER_SM = 2
#: The blocks' scratch stays within this ...
SCRATCH_BYTES = 6 << 30
#: ... at this many bytes per vertex and block (dist 4, sigma 8, delta 8, order 4 or 8,
#: levels 8, partial sum 8).
ROW_BYTES = 44


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
    blocks = partial_sums(k, BLOCKS_PER_SM * sm_count(), SCRATCH_BYTES // row_bytes)
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
