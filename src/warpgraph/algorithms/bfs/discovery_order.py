"""BFS discovery order (NetworkX's ``bfs_edges``, SciPy's ``breadth_first_order``), with the
wide layers computed in parallel (GPU).

Both libraries use one rule, a FIFO queue scanning each row in stored order. NetworkX lists a
BFS layer in discovery order: the previous layer's nodes in order, each one's
neighbours in adjacency (insertion) order, first discovery wins. Layer by layer this is a
parallel rule: lay the arcs of layer ``L`` out one after another in that order (node rank, then
position in its row); arc ``j`` of that list reaching an unseen node ``v`` is a candidate, and
``v``'s discoverer is its candidate arc of smallest ``j`` (a segmented minimum, by atomic min).
The winning arcs, kept in ``j`` order (a stable compaction), are layer ``L + 1`` in NetworkX's
order, and each winner's parent is the node that owns the arc. No sort is needed: ``j`` already
orders the arcs as NetworkX scans them.

Each layer costs a few array operations (about ten launches on a GPU), so narrow layers (the
first few of any search, the long thin ones of a road network or a grid) are cheaper in the
sequential pass: :func:`ordered_bfs` expands layers with the sequential Numba pass while a
layer has fewer than ``switch_arcs`` arcs, hands wide layers to the array pass (CuPy on a GPU;
NumPy runs the same code in tests), and takes back the search once a layer is narrow again.
The result is exactly the sequential pass's.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from numba import njit, prange

from ...cpu.atomics import atomic_min

__all__ = ["NONE", "NO_ARC", "expand_layers_parallel", "layers_xp", "ordered_bfs"]

#: ``best``'s value for "no candidate arc" (:func:`layers_xp`'s scratch array is filled with it).
NONE = np.iinfo(np.int32).max


@njit(cache=True, nogil=True)
def _expand(
    indptr, heads, queue, parent, seen, lo, tail, layer, max_depth, switch_arcs, starts, count
):  # pragma: no cover - compiled
    """Expand the layer ``queue[lo:tail]`` (number ``layer``) and the ones after it in NetworkX's
    order, appending to ``queue``/``parent`` and the start of each new layer to ``starts``
    (from ``count``). Stops at an empty layer, at layer ``max_depth`` (>= 0) or, when
    ``switch_arcs > 0``, before expanding a layer of at least that many arcs. Returns
    ``(lo, tail, layer, count, wide)`` (``wide``: stopped before a wide layer)."""
    while lo < tail:
        if max_depth >= 0 and layer >= max_depth:
            break
        if switch_arcs > 0:
            arcs = 0
            for p in range(lo, tail):
                u = queue[p]
                arcs += indptr[u + 1] - indptr[u]
            if arcs >= switch_arcs:
                return lo, tail, layer, count, True
        end = tail
        for p in range(lo, end):
            u = queue[p]
            for k in range(indptr[u], indptr[u + 1]):
                w = heads[k]
                if not seen[w]:
                    seen[w] = True
                    queue[tail] = w
                    parent[tail] = u
                    tail += 1
        starts[count] = end
        count += 1
        lo = end
        layer += 1
    return lo, tail, layer, count, False


#: ``first_arc``'s value for "no candidate arc" in :func:`expand_layers_parallel`.
NO_ARC = np.iinfo(np.int64).max


@njit(parallel=True, cache=True, nogil=True)
def expand_layers_parallel(
    indptr, heads, order, parent, seen, first_arc, lo, tail, min_arcs, tasks
):  # pragma: no cover - compiled
    """The array pass of :func:`layers_xp` on the CPU's threads, in place: expand the layer
    ``order[lo:tail]`` and the ones after it while a layer has ``min_arcs`` arcs or more,
    appending each new node to ``order`` in discovery order and its discoverer to
    ``parent[node]`` (``parent`` indexed by node, as SciPy's predecessors are). ``first_arc``
    (int64, all :data:`NO_ARC`) is scratch and left so. Returns ``(lo, tail)``: the last layer,
    narrow or empty, not expanded.

    Each layer's arcs are numbered in scan order (layer position, then row position) and cut
    into ``tasks`` runs of whole rows. Each unseen head keeps the smallest number that reaches
    it (an atomic minimum, behind a plain read that spares most of them); then each run picks
    its winners (the arcs whose number their head kept) into its own stretch of a buffer, in
    number order, and the stretches are copied out one after another. 2 cores, the three wide
    layers of ``urand:17``: 21.8 ms on one thread and 12.9 ms on two, against 7.4 ms for the
    sequential scan; it pays on many threads only. (Giving each thread a range of head ids
    instead of atomics made every thread read every row: slower.)"""
    won = np.empty(heads.shape[0], dtype=order.dtype)  # (a layer has at most every arc)
    while True:
        size = tail - lo
        ends = np.empty(size + 1, dtype=np.int64)
        ends[0] = 0
        for i in range(size):
            v = order[lo + i]
            ends[i + 1] = ends[i] + indptr[v + 1] - indptr[v]
        arcs = ends[size]
        if size == 0 or arcs < min_arcs:
            return lo, tail
        cuts = np.searchsorted(ends, np.arange(tasks + 1) * (arcs / tasks))
        cuts[0], cuts[tasks] = 0, size
        for t in prange(tasks):  # each unseen head: the smallest number that reaches it
            for i in range(cuts[t], cuts[t + 1]):
                v = order[lo + i]
                first = indptr[v]
                for k in range(first, indptr[v + 1]):
                    w = heads[k]
                    j = ends[i] + k - first
                    if first_arc[w] > j and not seen[w]:  # (a plain read spares most atomics)
                        atomic_min(first_arc, w, j)
        found = np.zeros(tasks + 1, dtype=np.int64)
        for t in prange(tasks):  # each run's winners, in number order, into its stretch
            at = ends[cuts[t]]
            for i in range(cuts[t], cuts[t + 1]):
                v = order[lo + i]
                first = indptr[v]
                for k in range(first, indptr[v + 1]):
                    w = heads[k]
                    if first_arc[w] == ends[i] + k - first:  # (a seen node keeps NO_ARC)
                        won[at] = w
                        parent[w] = v
                        at += 1
            found[t + 1] = at - ends[cuts[t]]
        for t in range(tasks):
            found[t + 1] += found[t]
        for t in prange(tasks):  # the stretches, one after another
            start = ends[cuts[t]]
            for j in range(found[t + 1] - found[t]):
                w = won[start + j]
                order[tail + found[t] + j] = w
                seen[w] = True
                first_arc[w] = NO_ARC
        lo, tail = tail, tail + found[tasks]


def _min_at(xp: Any, best: Any, index: Any, values: Any) -> None:
    # NumPy and CuPy >= 14 both have ``minimum.at``; older CuPy only ``cupyx.scatter_min``
    # (deprecated in CuPy 14).
    at = getattr(xp.minimum, "at", None)
    if at is not None:
        at(best, index, values)
    else:
        import cupyx

        cupyx.scatter_min(best, index, values)


def layers_xp(
    xp: Any,
    indptr: Any,
    heads: Any,
    seen: Any,
    frontier: Any,
    layer: int,
    max_depth: int,
    min_arcs: int,
    best: Any,
) -> tuple[list, list, int]:
    """Expand layers from ``frontier`` (ids in NetworkX's order, an ``xp`` array) with array
    operations of ``xp`` (NumPy or CuPy): ``seen`` (bool) is updated, ``best`` (int32, all
    ``NONE``, left so) is scratch. Stops at an empty layer, at layer ``max_depth`` (>= 0) or
    when, after at least one layer, a layer has fewer than ``min_arcs`` arcs. Returns the new
    layers (ids in order), their parents, and the number of the last layer reached (whose ids
    are the last list, or ``frontier`` when none was added)."""
    nodes: list = []
    parents: list = []
    while frontier.size:
        if max_depth >= 0 and layer >= max_depth:
            break
        first = indptr[frontier]
        deg = indptr[frontier + 1] - first
        ends = xp.cumsum(deg)
        arcs = int(ends[-1])
        if arcs == 0 or (nodes and arcs < min_arcs):
            break
        j = xp.arange(arcs, dtype=xp.int64)
        owner = xp.searchsorted(ends, j, side="right")  # frontier position of arc j
        v = heads[first[owner] + (j - (ends - deg)[owner])]
        cand = ~seen[v]
        jc = j[cand].astype(xp.int32)
        vc = v[cand]
        _min_at(xp, best, vc, jc)  # each candidate node's first arc in NetworkX's scan order
        win = best[vc] == jc
        best[vc] = NONE
        new = vc[win]
        if not new.size:
            break
        seen[new] = True
        nodes.append(new)
        parents.append(frontier[owner[cand][win]])
        frontier = new
        layer += 1
    return nodes, parents, layer


def ordered_bfs(
    indptr: np.ndarray,
    heads: np.ndarray,
    ids: np.ndarray,
    max_depth: int = -1,
    *,
    xp: Any = None,
    device_arrays: tuple[Any, Any] | None = None,
    switch_arcs: int = 1 << 16,
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """``(order, parents, starts)`` exactly as :func:`warpgraph.nx.traversal.bfs_order`: the
    nodes in NetworkX's BFS discovery order from ``ids``, who discovered each (-1 for the
    sources) and where each layer starts (plus the end). Layers of ``switch_arcs`` arcs or more
    are expanded by :func:`layers_xp` with ``xp`` (CuPy: ``device_arrays`` are ``indptr`` and
    ``heads`` on the device), the others by the sequential pass; ``xp=None``: all sequential.

    Examples
    --------
    >>> import numpy as np
    >>> indptr = np.array([0, 2, 3, 4, 4]); heads = np.array([2, 1, 3, 0], dtype=np.int32)
    >>> order, parents, starts = ordered_bfs(indptr, heads, np.array([0]), xp=np, switch_arcs=1)
    >>> order.tolist(), parents.tolist(), starts.tolist()
    ([0, 2, 1, 3], [-1, 0, 0, 1], [0, 1, 3, 4])
    """
    n = int(indptr.shape[0]) - 1
    seen = np.zeros(n, dtype=np.bool_)
    queue = np.empty(n, dtype=np.int64)
    parent = np.empty(n, dtype=np.int64)
    tail = 0
    for v in np.asarray(ids, dtype=np.int64).tolist():
        if not seen[v]:
            seen[v] = True
            queue[tail] = v
            parent[tail] = -1
            tail += 1
    starts = np.empty(n + 2, dtype=np.int64)
    starts[0] = 0
    count = 1
    lo, layer = 0, 0
    switch = switch_arcs if xp is not None else 0
    d_indptr, d_heads = device_arrays if device_arrays is not None else (indptr, heads)
    best = None
    while True:
        lo, tail, layer, count, wide = _expand(
            indptr, heads, queue, parent, seen, lo, tail, layer, max_depth, switch, starts, count
        )
        if not wide:
            break
        if best is None:
            best = xp.full(n, NONE, dtype=xp.int32)
        d_seen = xp.asarray(seen)
        frontier = xp.asarray(queue[lo:tail])
        nodes, parents, layer = layers_xp(
            xp, d_indptr, d_heads, d_seen, frontier, layer, max_depth, switch_arcs // 4, best
        )
        if not nodes:  # nothing new (cannot be wide then): finish sequentially
            switch = 0
            continue
        sizes = [int(a.size) for a in nodes]
        new_nodes = _host(xp.concatenate(nodes))
        new_parents = _host(xp.concatenate(parents))
        queue[tail : tail + new_nodes.size] = new_nodes
        parent[tail : tail + new_nodes.size] = new_parents
        seen[new_nodes] = True
        for size in sizes:  # each new layer starts where the previous one ended
            starts[count] = tail
            count += 1
            lo, tail = tail, tail + size
    if starts[count - 1] != tail:
        starts[count] = tail
        count += 1
    return queue[:tail], parent[:tail], starts[:count].copy()


def _host(a: Any) -> np.ndarray:
    return a if isinstance(a, np.ndarray) else a.get()
