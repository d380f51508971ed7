"""Harmonic centrality on the GPU: iBFS groups (``kernels/ibfs.cu``) and ``kernels/harmonic.cu``.

The sums are the CPU's bit for bit (:mod:`.harmonic`): each target's terms are added one after
another in the same order by one thread. The searches run in batches of groups of 64, every
group's words at ``g * stride + v`` as in :func:`warpgraph.algorithms.bfs.distance_stats`; one
cooperative launch of a persistent kernel runs every level of a small batch (the expansion of
every word, a grid barrier, the settling of the new bits, a barrier), a larger one launches
each level's two steps (:class:`~warpgraph.algorithms.bfs.multi_source.GpuGroups`).

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
  and the next level's step first adds that many ``1 / level`` to the search's sum (a thread
  per search; the counts of two levels in two halves, so no barrier between the two).

From the targets, in a graph at least ``GROUP_DEPTH_ON_GPU`` deep, the targets' searches are
grouped by neighbourhood (:func:`~warpgraph.algorithms.bfs.multi_source.gpu_grouping`) and
the sums put back in the targets' order (not measured on its own: every-vertex runs search
from the sources; tested bit for bit against the CPU).

Levels are 16-bit while every search stays within 65,535 levels; a deeper one starts the whole
computation again with 32-bit levels (the reciprocal table then covers every distance below n).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ...device import check_device_memory, cupy
from ...gpu.launch import launch
from ...gpu.loader import declare, get_kernel
from ...graph import Graph
from ..bfs.multi_source import SLOT_BYTES, WIDTH, GpuGroups, gpu_grouping, put_back

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
    "harmonic_levels_step<unsigned short>",
    "harmonic_levels_step<unsigned int>",
    *(f"harmonic_by_distance<{v}>" for v in _ID_TYPES),
    "harmonic_by_distance_step",
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
#: An undirected graph's searches from as many sources as targets (every pair) run from the
#: targets, grouped by neighbourhood, where :func:`gpu_groups_pay` (a deep graph): the terms
#: of each target are its own search's, added in the sources' order as from the sources.
#: H100 host, session 64 (``benchmarks/ibfs_sparse.py --what harmonic --modes grouped
#: symmetric``): grid:256 1.00 -> 0.80 s, luxembourg_osm 6.27 -> 4.99 s; shallow graphs,
#: which stay with their sources, unchanged (urand:16 0.171 / 0.173 s, delaunay_n16 0.346 /
#: 0.347 s).
SYMMETRIC_FROM_TARGETS = True
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
    forward = order == "given" and src.size <= dst.size
    rows = G if forward or not G.directed else G.transpose()
    grouping = None if forward else gpu_grouping(rows, dst)  # (each target's sum is its own)
    if forward and SYMMETRIC_FROM_TARGETS and not G.directed and src.size == dst.size:
        grouping = gpu_grouping(G, dst)  # (undirected: d(s, t) = d(t, s))
        forward = grouping is None
    dst = dst if grouping is None else dst[grouping]
    return put_back(_sums(rows, src, dst, order, forward), grouping)


def _sums(rows: Graph, src: np.ndarray, dst: np.ndarray, order: str, forward: bool) -> Any:
    """The sums of ``dst``'s targets in its order, searched in ``rows`` (reversed arcs from
    the targets) from whichever side ``forward`` says."""
    cp = cupy()
    n = rows.num_vertices
    if order == "distance":
        times = np.bincount(src, minlength=n)
        return _by_distance(rows, dst, times)
    from .harmonic import _reciprocals

    for level_type in (np.uint16, np.uint32):
        top = int(np.iinfo(np.uint16).max) if level_type is np.uint16 else n
        table = cp.asarray(_reciprocals(top))
        run = _from_sources if forward else _from_targets
        try:
            return run(rows, src, dst, np.dtype(level_type), table)
        except _TooDeep:
            continue  # (a search passed 65,535 levels: 32-bit levels)
    raise AssertionError("unreachable: 32-bit levels hold any distance below n")


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


class _TooDeep(Exception):
    """A search may go past the level type's top: the caller runs again with 32-bit levels."""


def _level_batches(rows: Graph, starts, level_type: np.dtype, table, budget: int):
    """Search from ``starts`` in batches of groups, writing every vertex's level in each
    search; yields ``(first, count, width, stride, levels)`` per batch (its first search, how
    many searches, groups, words per group and the level table, valid until the next batch).
    Raises :class:`_TooDeep` where a search may pass the table's last level."""
    cp = cupy()
    stride = GpuGroups.stride_of(rows.num_vertices)
    groups = -(-starts.size // WIDTH)
    per_slot = SLOT_BYTES + WIDTH * level_type.itemsize
    batch = _batch(groups, stride, per_slot, budget, "harmonic centrality's levels")
    searches = GpuGroups(rows, batch, SOURCE)
    levels = cp.empty(batch * stride * WIDTH, dtype=level_type)
    ctype = _CTYPE[level_type]
    top = table.size - 1
    for first_group in range(0, groups, batch):
        width = min(batch, groups - first_group)
        first = first_group * WIDTH
        count = min(starts.size - first, width * WIDTH)
        searches.start(starts[first : first + count], width)
        levels[: width * stride * WIDTH] = 0
        if searches.run("harmonic_levels", width, levels, level_type=ctype, top=top) >= top:
            raise _TooDeep
        yield first, count, width, stride, levels


def _from_sources(rows: Graph, src, dst, level_type: np.dtype, table) -> Any:
    cp = cupy()
    add = get_kernel(SOURCE, f"harmonic_add_wave<{_CTYPE[level_type]}>")
    targets = cp.asarray(dst)
    out = cp.zeros(dst.size, dtype=cp.float64)
    for first, _, width, stride, levels in _level_batches(
        rows, src, level_type, table, GPU_LEVEL_BYTES
    ):
        left = src.size - first  # (sources from the batch's first on: its last group may be short)
        launch(add, dst.size, (dst.size, targets, stride, levels, width, left, table, out))
    return out


def _from_targets(rows: Graph, src, dst, level_type: np.dtype, table) -> Any:
    cp = cupy()
    ctype = _CTYPE[level_type]
    per_thread = get_kernel(SOURCE, f"harmonic_sum_sources<{ctype}>")
    per_warp = get_kernel(SOURCE, f"harmonic_sum_sources_warp<{ctype}>")
    sources = cp.asarray(src)
    out = cp.zeros(dst.size, dtype=cp.float64)
    for first, count, _, stride, levels in _level_batches(
        rows, dst, level_type, table, _backward_budget()
    ):
        args = (count, stride, levels, sources, src.size, table, out[first:])
        if count < WARP_SUMS_BELOW:
            launch(per_warp, count * 32, args, block=SUM_WARP_BLOCK)
        else:
            launch(per_thread, count, args)
    return out


def _by_distance(rows: Graph, dst, times: np.ndarray) -> Any:
    cp = cupy()
    stride = GpuGroups.stride_of(rows.num_vertices)
    groups = -(-dst.size // WIDTH)
    batch = _batch(groups, stride, SLOT_BYTES, GPU_LEVEL_BYTES, "harmonic centrality's searches")
    searches = GpuGroups(rows, batch, SOURCE)
    unit = int((times == 1).all())  # (every vertex a source once: a reached bit counts 1)
    weights = cp.asarray(times[:1] if unit else times, dtype=cp.int64)
    counts = cp.zeros(2 * batch * WIDTH, dtype=cp.uint64)  # (two levels' counts: one being added)
    out = cp.zeros(dst.size, dtype=cp.float64)
    for first_group in range(0, groups, batch):
        width = min(batch, groups - first_group)
        first = first_group * WIDTH
        count = min(dst.size - first, width * WIDTH)
        searches.start(dst[first : first + count], width)
        sums = out[first : first + count]
        searches.run("harmonic_by_distance", width, weights, unit, count, counts, sums)
    return out
