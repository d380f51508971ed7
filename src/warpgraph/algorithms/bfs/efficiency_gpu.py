"""Global efficiency's searches on the GPU: iBFS groups counting each search's vertices per level.

:func:`~warpgraph.algorithms.bfs.efficiency.efficiency_sum` needs, for every source in id
order, how many vertices its search reaches at each distance; the sum itself is then added on
the host in NetworkX's order (:func:`.efficiency._add_wave`, whose additions are one sequential
chain). Here the searches run as :func:`~warpgraph.algorithms.bfs.distance_stats`' do on the GPU
(:class:`.multi_source.GpuGroups`: a batch of groups of 64, all its levels in one persistent
kernel when small, else two launches a level), and ``kernels/ibfs.cu``'s ``ibfs_level_counts``
settles each level's words and adds each search's count into a table of ``room + 1`` levels per
search: twice the eccentricity of vertex 0 in an undirected graph (a bound on every
eccentricity of its component), at least ``first_levels``. A search that goes deeper than the
table's room (a directed graph, another component) runs again, with the room doubled.

The host's additions for one batch run on a worker thread while the GPU searches the next
(``_add_wave`` releases the GIL), so a batch costs the longer of the two.

In a deep graph (:func:`.multi_source.gpu_groups_pay`) each batch's sources are grouped by
neighbourhood among themselves (:func:`.efficiency.wave_order`); the additions still take them
in id order. grid:256 on an H100: 0.91 -> 0.72 s (session 62).
"""

from __future__ import annotations

from concurrent.futures import Future, ThreadPoolExecutor

import numpy as np

from ...device import check_device_memory, cupy
from ...graph import Graph
from .multi_source import (
    GPU_BATCH_BYTES,
    SLOT_BYTES,
    SOURCE,
    WIDTH,
    GpuGroups,
    distance_stats,
    gpu_groups_pay,
    host_rows,
)

__all__ = ["efficiency_sum_gpu"]

#: The examples below run on a GPU (``tests/test_doctests.py`` skips them elsewhere).
DOCTEST_NEEDS_GPU = True

#: Bytes of a count (``unsigned int`` in the kernel: a level holds fewer than 2**32 vertices).
COUNT_BYTES = 4


def efficiency_sum_gpu(G: Graph, first_levels: int) -> float:
    """:func:`~warpgraph.algorithms.bfs.efficiency.efficiency_sum` of ``G`` (on the GPU) with
    the searches there, room for ``first_levels`` levels per search at first.

    Examples
    --------
    >>> import warpgraph as wg
    >>> P = wg.Graph.from_edges([0, 1], [1, 2], num_vertices=3, directed=False).to("gpu")
    >>> efficiency_sum_gpu(P, 64)  # 1 + 1/2 + 1 + 1 + 1/2 + 1
    5.0
    """
    from .efficiency import _add_wave, wave_order

    cp = cupy()
    n = G.num_vertices
    if n == 0:
        return 0.0
    stride = GpuGroups.stride_of(n)
    groups = -(-n // WIDTH)
    room = max(1, first_levels)
    # (one search from vertex 0: its depth says whether grouping the sources pays, and, in an
    # undirected graph, where no eccentricity passes twice that of any vertex of its
    # component, it sizes the table, so that a lattice's first batch is not searched again at
    # 64, 128, ... levels; other components may still be deeper)
    eccentricity = int(distance_stats(G, [0], device="gpu").eccentricity[0])
    if not G.directed:
        room = max(room, 2 * eccentricity)
    batch = _batch_for(groups, stride, room)
    searches = GpuGroups(G, batch, SOURCE)
    counts = cp.zeros((batch, room + 1, WIDTH), dtype=cp.uint32)
    rows = host_rows(G) if gpu_groups_pay(G, n, eccentricity) else (None, None)  # (batches grouped)
    pending: Future | None = None
    total = 0.0
    with ThreadPoolExecutor(max_workers=1) as adder:
        first_group = 0
        while first_group < groups:
            width = min(batch, groups - first_group)
            first = first_group * WIDTH
            sources, places = wave_order(*rows, first, width * WIDTH, n, WIDTH)
            searches.start(sources, width)
            counts[:width] = 0
            last = searches.run("ibfs_level_counts", width, counts, room, top=room + 1)
            if last > room:  # (a search went deeper than the table: again, with room for it)
                room *= 2
                batch = min(batch, _batch_for(groups, stride, room))
                counts = cp.zeros((batch, room + 1, WIDTH), dtype=cp.uint32)
                continue
            found = counts[:width, : last + 1].get().astype(np.int64)
            depth = np.full(width, last, dtype=np.int64)
            if pending is not None:
                total = pending.result()  # (the additions are one chain: batch after batch)
            pending = adder.submit(_add_wave, found, depth, WIDTH, places, total)
            first_group += width
        return pending.result() if pending is not None else total


def _batch_for(groups: int, stride: int, room: int) -> int:
    """Groups per batch: the searches' three words per vertex and their count tables within
    :data:`~.multi_source.GPU_BATCH_BYTES`, at least one group, checked against free memory."""
    per_group = SLOT_BYTES * stride + (room + 1) * WIDTH * COUNT_BYTES
    batch = max(1, min(groups, GPU_BATCH_BYTES // per_group))
    check_device_memory(batch * per_group, "global efficiency's searches")
    return batch
