"""GPU truss decomposition: support by ``tc_count.cu``, level-synchronous peeling by
``ktruss_peel.cu``.

Level ``L`` (support threshold) removes, round after round, every alive edge of support <= L
and gives it trussness ``L + 2``; a round is one kernel over the frontier plus two CuPy scatters
(frontier -> removed, next -> frontier). When a level's queue runs dry ``L`` jumps to the least
support left. ``stop`` ends the peeling at ``L >= stop``: the alive edges then form the
``(stop + 2)``-truss.
"""

from __future__ import annotations

from typing import Any

from ...device import cupy
from ...gpu.launch import launch
from ...gpu.loader import declare, get_kernel
from ..triangles import gpu as tgpu

__all__ = ["GROUP", "full_adjacency", "trussness"]

SOURCE = "ktruss_peel.cu"
GROUP = 8
declare(SOURCE, f"ktruss_peel<int, {GROUP}>")


def full_adjacency(o: tgpu.OrientedGPU) -> tuple[Any, Any, Any]:
    """Both directions of every oriented arc, rows sorted, with the edge id of each entry."""
    cp = cupy()
    n, m = o.num_vertices, o.num_arcs
    eid = cp.arange(m, dtype=cp.int64)
    s = cp.concatenate((o.src, o.indices))
    d = cp.concatenate((o.indices, o.src))
    key = s.astype(cp.uint64) * cp.uint64(max(n, 1)) + d.astype(cp.uint64)
    perm = cp.argsort(key)
    fidx = d[perm]
    feid = cp.concatenate((eid, eid))[perm]
    fptr = cp.zeros(n + 1, dtype=cp.int64)
    if m:
        cp.cumsum(cp.bincount(s, minlength=n), out=fptr[1:])
    return fptr, fidx, feid


def trussness(o: tgpu.OrientedGPU, stop: int = -1) -> tuple[Any, Any]:
    """Trussness per oriented arc (0 for arcs left at ``stop``) and the mask of arcs left."""
    cp = cupy()
    m = o.num_arcs
    truss = cp.zeros(m, dtype=cp.int64)
    state = cp.zeros(m, dtype=cp.int8)
    if m == 0:
        return truss, state == 0
    c = cp.zeros(m, dtype=cp.uint64)
    tgpu.run_arcs(o, tgpu.SUPPORT, c=c)
    sup = c.astype(cp.int64)
    del c
    fptr, fidx, feid = full_adjacency(o)
    ctype = "int" if o.indices.dtype == cp.int32 else "long long"
    kernel = get_kernel(SOURCE, f"ktruss_peel<{ctype}, {GROUP}>")
    nxt = cp.empty(m, dtype=cp.int64)
    counter = cp.zeros(1, dtype=cp.uint64)
    big = cp.iinfo(cp.int64).max
    alive = m
    level = int(sup.min())
    while alive > 0 and (stop < 0 or level < stop):
        frontier = cp.flatnonzero((state == 0) & (sup <= level))
        while frontier.size > 0:
            size = int(frontier.size)
            alive -= size
            state[frontier] = 1
            counter.fill(0)
            launch(
                kernel,
                size * GROUP,
                (
                    o.src,
                    o.indices,
                    fptr,
                    fidx,
                    feid,
                    frontier,
                    size,
                    state,
                    sup,
                    level,
                    nxt,
                    counter,
                ),
            )
            state[frontier] = 2
            truss[frontier] = level + 2
            frontier = nxt[: int(counter.get()[0])].copy()
        if alive > 0:
            level = int(cp.where(state == 0, sup, big).min())
    return truss, state == 0
