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
from numba import njit

__all__ = ["NONE", "layers_xp", "ordered_bfs"]

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
