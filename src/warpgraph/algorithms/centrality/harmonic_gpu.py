"""Harmonic centrality on the GPU: iBFS groups (``kernels/ibfs.cu``) and ``kernels/harmonic.cu``.

The sums are the CPU's bit for bit (:mod:`.harmonic`): each target's terms are added one after
another in the same order by one thread. The searches run in batches of groups of 64, every
group's words at ``g * stride + v`` as in :func:`warpgraph.algorithms.bfs.distance_stats`; one
cooperative launch of a persistent kernel runs every level of a batch (the expansion of every
word, a grid barrier, the settling of the new bits, a barrier): a level launched from the host
cost two launches and a read back, and a lattice's thousand levels were launch-bound.

- **from the sources** (``order="given"``, no more sources than targets): each vertex's level in
  each of the batch's searches is written (``64`` small integers per vertex and group), then a
  thread per target adds the batch's ``1 / level`` terms group after group, bit after bit: the
  sources' order, batch after batch. A thread per target keeps the GPU busy.
- **from the targets** (``order="given"``, more sources than targets; along reversed arcs): the
  levels are written the same way, then each search (a target) adds the terms of every source
  in the given order: a thread per search, or, for a batch of fewer than
  :data:`WARP_SUMS_BELOW` searches, a warp per search whose lanes gather the terms in chunks
  and whose first lane adds them. The batch is as large as memory allows.
- **by distance** (``order="distance"``, from the targets): no levels are kept; each level's
  settling counts, per search, the sources it reached (a source given twice counts twice),
  and a thread per search adds that many ``1 / level`` at the level's end.

Levels are 16-bit while every search stays within 65,535 levels; a deeper one starts the whole
computation again with 32-bit levels (the reciprocal table then covers every distance below n).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ...device import check_device_memory, cupy
from ...gpu.launch import launch, launch_cooperative, max_cooperative_blocks, sm_count
from ...gpu.loader import declare, get_kernel
from ...graph import Graph
from ..bfs.multi_source import WIDTH, _source_words

__all__ = ["BACKWARD_LEVEL_BYTES", "GPU_LEVEL_BYTES", "WARP_SUMS_BELOW", "harmonic_gpu"]

#: The examples below run on a GPU (``tests/test_doctests.py`` skips them elsewhere).
DOCTEST_NEEDS_GPU = True

SOURCE = "harmonic.cu"
_ID_TYPES = ("int", "long long")
declare(
    SOURCE,
    *(
        f"harmonic_levels<{v}, {lv}>"
        for v in _ID_TYPES
        for lv in ("unsigned short", "unsigned int")
    ),
    *(f"harmonic_by_distance<{v}>" for v in _ID_TYPES),
    "harmonic_sum_sources<unsigned short>",
    "harmonic_sum_sources<unsigned int>",
    "harmonic_sum_sources_warp<unsigned short>",
    "harmonic_sum_sources_warp<unsigned int>",
    "harmonic_add_wave<unsigned short>",
    "harmonic_add_wave<unsigned int>",
)

#: GPU memory for a batch's words and level tables, in bytes.
GPU_LEVEL_BYTES = 1 << 30
#: From the targets each group gives only 64 threads to the sums, so a batch of searches from
#: the targets with levels takes up to this many bytes, or half the free memory when less.
BACKWARD_LEVEL_BYTES = 8 << 30
#: A batch of fewer searches from the targets than this adds each sum with a warp (the lanes
#: gather the terms, one adds them) instead of a thread: 64 threads, each waiting on its loads,
#: took 20 ms for 131,072 sources on an H100 where the CPU's 16 threads took 75 ms.
WARP_SUMS_BELOW = 32768
#: Blocks per SM of the persistent searches (None: as many as can be resident, 8 on an H100).
#: Measured on an H100 (session 59, seconds): grid:512 from 64 sources 0.0198 with 8 or
#: all, 0.0182 with 4, 0.0214 with 2; by distance 0.0318 / 0.0273 / 0.0305; urand:17's every
#: pair 0.656 / 0.662 / 0.740 (1 a SM: 0.99).
SEARCH_BLOCKS_PER_SM: int | None = 4
#: Threads per block of the warp kernel (``SUM_WARP_BLOCK`` in ``harmonic.cu``).
SUM_WARP_BLOCK = 128

_CTYPE = {np.dtype(np.uint16): "unsigned short", np.dtype(np.uint32): "unsigned int"}


def harmonic_gpu(G: Graph, src: np.ndarray, dst: np.ndarray, order: str) -> Any:
    """:func:`~warpgraph.algorithms.centrality.harmonic_centrality` of ``G`` (on the GPU) from
    checked int64 host ``src`` and ``dst`` (both non-empty); a CuPy float64 array, one sum per
    target in ``dst``'s order.

    Examples
    --------
    >>> import numpy as np
    >>> import warpgraph as wg
    >>> P = wg.Graph.from_edges([0, 1, 2], [1, 2, 3], num_vertices=4, directed=False).to("gpu")
    >>> harmonic_gpu(P, np.arange(4), np.arange(4), "given").tolist()
    [1.8333333333333333, 2.5, 2.5, 1.8333333333333333]
    """
    cp = cupy()
    n = G.num_vertices
    forward = order == "given" and src.size <= dst.size
    rows = G if forward or not G.directed else G.transpose()
    if order == "distance":
        times = np.bincount(src, minlength=n)
        return _by_distance(rows, dst, times)
    from .harmonic import _reciprocals

    for level_type in (np.uint16, np.uint32):
        top = int(np.iinfo(np.uint16).max) if level_type is np.uint16 else n
        table = cp.asarray(_reciprocals(top))
        run = _from_sources if forward else _from_targets
        found = run(rows, src, dst, np.dtype(level_type), table)
        if found is not None:
            return found
    raise AssertionError("unreachable: 32-bit levels hold any distance below n")


def _stride(n: int) -> int:
    return -(-n // 32) * 32  # (a warp's 32 words belong to one group)


def _batch(groups: int, stride: int, per_slot: int, budget: int, what: str) -> int:
    """Groups per batch: as many as ``budget`` bytes hold (``per_slot`` bytes per vertex
    slot of a group), at least one, checked against the device's free memory."""
    batch = max(1, min(groups, budget // (per_slot * stride)))
    check_device_memory(batch * stride * per_slot, what)
    return batch


def _backward_budget() -> int:
    cp = cupy()
    free = cp.cuda.runtime.memGetInfo()[0] + cp.get_default_memory_pool().free_bytes()
    return max(GPU_LEVEL_BYTES, min(BACKWARD_LEVEL_BYTES, free // 2))


class _Searches:
    """A batch of groups of 64 searches on ``rows``: the words, and one cooperative launch of a
    persistent kernel (``harmonic.cu``) that runs every level of the batch."""

    def __init__(self, rows: Graph, batch: int):
        cp = cupy()
        self.rows, self.n = rows, rows.num_vertices
        self.stride = _stride(self.n)
        self.id_type = "int" if rows.indices.dtype == cp.int32 else "long long"
        self.indptr = rows.indptr.astype(cp.int64, copy=False)
        self.words = cp.empty((3, batch * self.stride), dtype=cp.uint64)
        self.last_level = cp.zeros(1, dtype=cp.int64)
        self.barrier = cp.zeros(1, dtype=cp.uint64)

    def start(self, starts: np.ndarray, width: int) -> None:
        """Clear the first ``width`` groups' words and seed them from ``starts`` (64 a group)."""
        cp = cupy()
        total = width * self.stride
        self.words[:, :total] = 0
        seen, front = self.words[0, :total], self.words[1, :total]
        where, bits = _source_words(starts, self.stride)
        front[cp.asarray(where)] = cp.asarray(bits)
        seen[:] = front

    def run(self, kernel: str, width: int, *args, level_type: str = "") -> int:
        """Every level of the first ``width`` groups by the persistent ``kernel`` of
        ``harmonic.cu`` (instantiated for the graph's id type and ``level_type``), given
        ``args`` after the words; the last level that found a vertex."""
        total = width * self.stride
        seen, front, found = (self.words[i, :total] for i in range(3))
        self.last_level[:] = 0
        self.barrier[:] = 0  # (wg::grid_sync counts arrivals from 0 in each launch)
        types = self.id_type + (f", {level_type}" if level_type else "")
        k = get_kernel(SOURCE, f"{kernel}<{types}>", cooperative=True)
        rows = (self.indptr, self.rows.indices, self.stride, width, seen, front, found)
        most = max_cooperative_blocks(k)
        blocks = (
            most if SEARCH_BLOCKS_PER_SM is None else min(most, SEARCH_BLOCKS_PER_SM * sm_count())
        )
        launch_cooperative(k, (*rows, *args, self.last_level, self.barrier), blocks=blocks)
        return int(self.last_level.get()[0])


def _from_sources(rows: Graph, src, dst, level_type: np.dtype, table) -> Any:
    cp = cupy()
    stride = _stride(rows.num_vertices)
    groups = -(-src.size // WIDTH)
    per_slot = 24 + WIDTH * level_type.itemsize
    batch = _batch(groups, stride, per_slot, GPU_LEVEL_BYTES, "harmonic centrality's levels")
    searches = _Searches(rows, batch)
    levels = cp.empty(batch * stride * WIDTH, dtype=level_type)
    ctype = _CTYPE[level_type]
    add = get_kernel(SOURCE, f"harmonic_add_wave<{ctype}>")
    targets = cp.asarray(dst)
    out = cp.zeros(dst.size, dtype=cp.float64)
    top = table.size - 1
    for first_group in range(0, groups, batch):
        width = min(batch, groups - first_group)
        first = first_group * WIDTH
        searches.start(src[first : first + width * WIDTH], width)
        levels[: width * stride * WIDTH] = 0
        if searches.run("harmonic_levels", width, levels, top, level_type=ctype) >= top:
            return None  # (a search may go past `top` levels: 32-bit levels)
        left = src.size - first  # (sources from the batch's first on: its last group may be short)
        launch(add, dst.size, (dst.size, targets, stride, levels, width, left, table, out))
    return out


def _from_targets(rows: Graph, src, dst, level_type: np.dtype, table) -> Any:
    cp = cupy()
    stride = _stride(rows.num_vertices)
    groups = -(-dst.size // WIDTH)
    per_slot = 24 + WIDTH * level_type.itemsize
    batch = _batch(groups, stride, per_slot, _backward_budget(), "harmonic centrality's levels")
    searches = _Searches(rows, batch)
    levels = cp.empty(batch * stride * WIDTH, dtype=level_type)
    ctype = _CTYPE[level_type]
    per_thread = get_kernel(SOURCE, f"harmonic_sum_sources<{ctype}>")
    per_warp = get_kernel(SOURCE, f"harmonic_sum_sources_warp<{ctype}>")
    sources = cp.asarray(src)
    out = cp.zeros(dst.size, dtype=cp.float64)
    top = table.size - 1
    for first_group in range(0, groups, batch):
        width = min(batch, groups - first_group)
        first = first_group * WIDTH
        count = min(dst.size - first, width * WIDTH)
        searches.start(dst[first : first + count], width)
        levels[: width * stride * WIDTH] = 0
        if searches.run("harmonic_levels", width, levels, top, level_type=ctype) >= top:
            return None  # (a search may go past `top` levels: 32-bit levels)
        args = (count, stride, levels, sources, src.size, table, out[first:])
        if count < WARP_SUMS_BELOW:
            launch(per_warp, count * 32, args, block=SUM_WARP_BLOCK)
        else:
            launch(per_thread, count, args)
    return out


def _by_distance(rows: Graph, dst, times: np.ndarray) -> Any:
    cp = cupy()
    stride = _stride(rows.num_vertices)
    groups = -(-dst.size // WIDTH)
    batch = _batch(groups, stride, 24, GPU_LEVEL_BYTES, "harmonic centrality's searches")
    searches = _Searches(rows, batch)
    unit = int((times == 1).all())  # (every vertex a source once: a reached bit counts 1)
    weights = cp.asarray(times[:1] if unit else times, dtype=cp.int64)
    counts = cp.zeros(batch * WIDTH, dtype=cp.uint64)
    out = cp.zeros(dst.size, dtype=cp.float64)
    for first_group in range(0, groups, batch):
        width = min(batch, groups - first_group)
        first = first_group * WIDTH
        count = min(dst.size - first, width * WIDTH)
        searches.start(dst[first : first + count], width)
        sums = out[first : first + count]
        searches.run("harmonic_by_distance", width, weights, unit, count, counts, sums)
    return out
