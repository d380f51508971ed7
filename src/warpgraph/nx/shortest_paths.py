"""Weighted shortest-path lengths of NetworkX: ``single_source_dijkstra_path_length``,
``multi_source_dijkstra_path_length``, ``single_source_bellman_ford_path_length``,
``negative_edge_cycle``, and ``shortest_path_length`` from a source (or, undirected, to a
target), which NetworkX answers with those or with ``single_source_shortest_path_length``.

Weights are the edge attribute named by ``weight`` (1 where it is missing, as NetworkX). The
distances are NetworkX's exactly, as Python ``int`` when every weight is an ``int`` and ``float``
when every weight is a ``float`` (the source's 0 stays an ``int``, as in NetworkX); graphs
mixing the two, or holding other number types, are left to NetworkX (``NotImplementedError``,
so automatic dispatch runs NetworkX).

Dijkstra's keys come in NetworkX's exact order, which is its heap's: by distance, ties by the
order of the pushes. One sequential Numba Dijkstra with the same (distance, push counter) heap
over the adjacency in NetworkX's order reproduces it (O(m log m), on the CPU whatever the
device). Bellman-Ford's keys follow NetworkX's queue (its SPFA with predecessor lists and the
negative-cycle heuristic, whose order depends on every step of the run): one sequential Numba
pass of the same algorithm reproduces keys, values and the ``NetworkXUnbounded`` outcome exactly
(on the CPU whatever the device; warpgraph's parallel SSSP gives the same distances in another
order). ``negative_edge_cycle`` (a bool, no order) checks the signs first, then runs the
frontier Bellman-Ford from a new node joined to every node on the configured device.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np
from numba import njit

from .._arrays import id_dtype_for
from ..errors import NegativeCycleError
from ..graph import Graph
from ._common import (
    backend_device,
    gc_paused,
    host,
    networkx_version,
    node_dict,
    not_implemented,
    path_dict,
    split_list,
)

__all__ = [
    "dijkstra_predecessor_and_distance",
    "largest_magnitude",
    "multi_source_dijkstra",
    "multi_source_dijkstra_path",
    "multi_source_dijkstra_path_length",
    "negative_edge_cycle",
    "shortest_path_length",
    "single_source_bellman_ford",
    "single_source_bellman_ford_path",
    "single_source_bellman_ford_path_length",
    "single_source_dijkstra",
    "single_source_dijkstra_path",
    "single_source_dijkstra_path_length",
]


def _sssp():
    from ..algorithms.sssp import sssp

    return sssp


def _weights(G, weight: str, *, negative_ok: bool, hidden_ok: bool):
    """The weighted graph and the weights' kind, or ``NotImplementedError`` for the cases
    NetworkX computes differently."""
    w = G.weighted(weight)
    if w.kind not in ("int", "float"):
        raise not_implemented(
            f"edge attribute {weight!r} holds {w.kind} values "
            "(NetworkX's result types depend on the path); only all-int or all-float weights"
        )
    if w.hidden and not hidden_ok:
        raise not_implemented(f"edge attribute {weight!r} is None on some edges")
    least = _least_weight(host(w.graph.weights), weight)  # (NaN refused)
    if not negative_ok and least < 0:
        raise not_implemented("negative weights (NetworkX's Dijkstra is undefined there)")
    return w


def _least_weight(weights: np.ndarray, weight: str) -> Any:
    """The least weight (0 for none), or ``NotImplementedError`` for a NaN weight (the minimum
    is NaN then): every comparison with NaN is false, so what NetworkX answers follows the
    order of its heap or queue, not a definition."""
    least = weights.min() if weights.size else 0
    if least != least:
        raise not_implemented(f"edge attribute {weight!r} is NaN on some edges")
    return least


def largest_magnitude(values: np.ndarray) -> int:
    """The largest ``abs`` of an int array as a Python ``int`` (0 for none), for bounds on
    path sums: ``np.abs`` keeps ``-2**63`` negative (int64 has no ``2**63``).

    Examples
    --------
    >>> largest_magnitude(np.array([3, -(2**63)], dtype=np.int64)) == 2**63
    True
    """
    if not values.size:
        return 0
    return max(int(values.max()), -int(values.min()))


def _one_dict_per_edge(G) -> bool:
    """Whether both arcs of each undirected edge read one data dict, so one weight: true of a
    plain ``Graph``, not of ``D.to_undirected(as_view=True)``, whose arcs ``u -> v`` and
    ``v -> u`` read ``D``'s two dicts (NetworkX's search then goes by each arc's own)."""
    source = G.source
    return source is not None and type(source._adj) is dict


BF_DONE, BF_CYCLE, BF_FULL = 0, 1, 2


@njit(cache=True, nogil=True)
def _nx_bellman_ford(
    indptr, heads, weights, source, pred_start, heuristic=True
):  # pragma: no cover - compiled
    """NetworkX's ``_inner_bellman_ford`` (SPFA with its negative-cycle heuristic when
    ``heuristic``) from one source over dense ids: the same queue, the same predecessor lists
    and tests, so the same relaxations in the same order (NetworkX's key order and float sums).
    ``pred_start``: where each node's predecessor list starts in one buffer (its in-degree
    bounds the list: an arc adds its tail at most once per distance of its head).

    Returns ``(order, dist, status, pred, pred_len, cycle, extra)``: the reached nodes in the
    order they first got a distance (NetworkX's dict order), their distances, BF_DONE,
    BF_CYCLE (a negative cycle: NetworkX's ``NetworkXUnbounded``) or BF_FULL (a predecessor
    list outgrew its bound), and the predecessor lists (node ``v``'s: ``pred_len[v]`` entries
    of ``pred`` from ``pred_start[v]``, in NetworkX's order); on BF_CYCLE the node NetworkX
    returns (``cycle``) and the tail its heuristic appends to that node's list first
    (``extra``; -1 when the count test found the cycle), else -1 and -1."""
    n = indptr.shape[0] - 1
    dist = np.zeros(n, dtype=weights.dtype)
    seen = np.zeros(n, dtype=np.bool_)
    order = np.empty(n, dtype=np.int64)
    pred = np.empty(max(pred_start[n], 1), dtype=np.int64)
    pred_len = np.zeros(n, dtype=np.int64)
    pred_edge = np.full(n, -1, dtype=np.int64)  # -1: no entry, -2: None (a source)
    recent_a = np.full(n, -1, dtype=np.int64)  # recent_update[v] = (a, b); -1 for None
    recent_b = np.full(n, -1, dtype=np.int64)
    in_q = np.zeros(n, dtype=np.bool_)
    count = np.zeros(n, dtype=np.int64)
    queue = np.empty(n + 1, dtype=np.int64)  # a ring: at most n nodes are queued at once
    head = 0
    size = 1
    queue[0] = source
    in_q[source] = True
    seen[source] = True
    order[0] = source
    found = 1
    pred_edge[source] = -2
    while size:
        u = queue[head]
        head = head + 1 if head < n else 0
        size -= 1
        in_q[u] = False
        ready = True
        for j in range(pred_start[u], pred_start[u] + pred_len[u]):
            if in_q[pred[j]]:
                ready = False
                break
        if not ready:
            continue
        dist_u = dist[u]
        for a in range(indptr[u], indptr[u + 1]):
            v = heads[a]
            dist_v = dist_u + weights[a]
            if dist_v < dist[v] if seen[v] else dist_v < np.inf:  # dist.get(v, inf)
                if heuristic:
                    if recent_a[u] == v or recent_b[u] == v:  # (pred[v].append(u) first)
                        return order[:found], dist, BF_CYCLE, pred, pred_len, v, u
                    if pred_edge[v] == u:
                        recent_a[v] = recent_a[u]
                        recent_b[v] = recent_b[u]
                    else:
                        recent_a[v] = u
                        recent_b[v] = v
                if not in_q[v]:
                    tail = head + size
                    queue[tail if tail <= n else tail - n - 1] = v
                    size += 1
                    in_q[v] = True
                    count[v] += 1
                    if count[v] == n:
                        return order[:found], dist, BF_CYCLE, pred, pred_len, v, -1
                if not seen[v]:
                    seen[v] = True
                    order[found] = v
                    found += 1
                dist[v] = dist_v
                pred[pred_start[v]] = u
                pred_len[v] = 1
                pred_edge[v] = u
            elif seen[v] and dist_v == dist[v]:
                if pred_start[v] + pred_len[v] == pred_start[v + 1]:
                    # (ints: never; floats: a tail processed at two distances whose sums
                    # round alike adds itself twice)
                    return order[:found], dist, BF_FULL, pred, pred_len, -1, -1
                pred[pred_start[v] + pred_len[v]] = u
                pred_len[v] += 1
    return order[:found], dist, BF_DONE, pred, pred_len, -1, -1


@njit(cache=True, nogil=True)
def _first_pred_order(order, pred, pred_start):  # pragma: no cover - compiled
    """The reached nodes ``order`` (the source first) reordered so that each comes after its
    first predecessor (``pred[pred_start[v]]``), and whether those first predecessors lead
    every node back to the source without a cycle (only zero-weight cycles make one). Then
    NetworkX's path to each node (``_build_paths_from_predecessors``, a depth-first search
    through the predecessor lists, first entries first) is its first predecessor's plus
    itself."""
    n = pred_start.shape[0] - 1
    state = np.zeros(n, dtype=np.int8)  # 0: not placed, 1: on the walk now, 2: placed
    out = np.empty(order.shape[0], dtype=np.int64)
    walk = np.empty(order.shape[0], dtype=np.int64)
    out[0] = order[0]
    state[order[0]] = 2
    k = 1
    for i in range(1, order.shape[0]):
        u = order[i]
        w = 0
        while state[u] == 0:
            state[u] = 1
            walk[w] = u
            w += 1
            u = pred[pred_start[u]]
        if state[u] == 1:
            return out, False
        for j in range(w - 1, -1, -1):
            out[k] = walk[j]
            state[walk[j]] = 2
            k += 1
    return out, True


@njit(cache=True, nogil=True)
def _sift_down(hd, hc, hv, size):  # pragma: no cover - compiled
    i = 0
    while True:
        left = 2 * i + 1
        if left >= size:
            return
        best = left
        right = left + 1
        if right < size and (
            hd[right] < hd[left] or (hd[right] == hd[left] and hc[right] < hc[left])
        ):
            best = right
        if hd[best] < hd[i] or (hd[best] == hd[i] and hc[best] < hc[i]):
            hd[i], hd[best] = hd[best], hd[i]
            hc[i], hc[best] = hc[best], hc[i]
            hv[i], hv[best] = hv[best], hv[i]
            i = best
        else:
            return


@njit(cache=True, nogil=True)
def _nx_dijkstra(
    indptr, heads, weights, hidden, sources, cutoff, has_cutoff, pred_start
):  # pragma: no cover - compiled
    """NetworkX's ``_dijkstra_multisource`` over dense ids, from the ``sources`` in the order
    NetworkX pushes them (repeats allowed): the nodes in the order NetworkX finalizes them
    (its dict's key order), their distances, each node's parent on its path (the node whose
    arc last lowered its distance, as NetworkX's paths and ``pred[u][0]`` record it; -1 for
    the sources), the nodes in the order first reached (sources first), and NetworkX's
    predecessor lists (``pred``: node ``v``'s ``pred_len[v]`` entries from ``pred_start[v]``,
    ties included, as its ``pred`` argument gets them) when ``pred_start`` has ``n + 1``
    entries (an arc adds its tail to its head's list at most once: in-degrees bound them);
    else none are kept."""
    n = indptr.shape[0] - 1
    m = heads.shape[0]
    k = sources.shape[0]
    done = np.zeros(n, dtype=np.bool_)
    has_seen = np.zeros(n, dtype=np.bool_)
    seen = np.zeros(n, dtype=weights.dtype)
    hd = np.empty(m + k, dtype=weights.dtype)  # heap: (distance, push counter, node)
    hc = np.empty(m + k, dtype=np.int64)
    hv = np.empty(m + k, dtype=np.int64)
    order = np.empty(n, dtype=np.int64)
    dist = np.empty(n, dtype=weights.dtype)
    parent = np.full(n, -1, dtype=np.int64)
    reached = np.empty(n, dtype=np.int64)
    n_reached = 0
    lists = pred_start.shape[0] == n + 1
    pred = np.empty(pred_start[n] if lists else 0, dtype=np.int64)
    pred_len = np.zeros(n if lists else 0, dtype=np.int64)
    for i in range(k):  # (0, i, source i) in push order: already a heap
        hd[i] = 0
        hc[i] = i
        hv[i] = sources[i]
        if not has_seen[sources[i]]:
            reached[n_reached] = sources[i]
            n_reached += 1
        has_seen[sources[i]] = True
    size = k
    count = k
    found = 0
    while size > 0:
        d = hd[0]
        v = hv[0]
        size -= 1
        if size > 0:
            hd[0] = hd[size]
            hc[0] = hc[size]
            hv[0] = hv[size]
            _sift_down(hd, hc, hv, size)
        if done[v]:
            continue
        done[v] = True
        order[found] = v
        dist[found] = d
        found += 1
        for k in range(indptr[v], indptr[v + 1]):
            if hidden[k]:
                continue
            u = heads[k]
            vu = d + weights[k]
            if has_cutoff and vu > cutoff:
                continue
            if done[u]:
                if lists and vu == seen[u]:  # another shortest path to a finalized node
                    pred[pred_start[u] + pred_len[u]] = v
                    pred_len[u] += 1
                continue
            if not has_seen[u] or vu < seen[u]:
                if not has_seen[u]:
                    reached[n_reached] = u
                    n_reached += 1
                has_seen[u] = True
                seen[u] = vu
                parent[u] = v
                if lists:
                    pred[pred_start[u]] = v
                    pred_len[u] = 1
                i = size  # push, sift up
                size += 1
                while i > 0:
                    p = (i - 1) // 2
                    if hd[p] < vu or (hd[p] == vu and hc[p] < count):
                        break
                    hd[i] = hd[p]
                    hc[i] = hc[p]
                    hv[i] = hv[p]
                    i = p
                hd[i] = vu
                hc[i] = count
                hv[i] = u
                count += 1
            elif lists and vu == seen[u]:  # a tie with the distance pushed
                pred[pred_start[u] + pred_len[u]] = v
                pred_len[u] += 1
    return order[:found], dist[:found], parent, reached[:n_reached], pred, pred_len


@gc_paused()
def single_source_dijkstra_path_length(
    G, source: Any, cutoff: Any = None, weight: str = "weight"
) -> dict:
    """Shortest weighted distance from ``source`` to each reachable node (within ``cutoff``),
    keys in exactly NetworkX's order."""
    return _dijkstra_lengths(G, _checked_sources(G, _one_source(source)), cutoff, weight)


@gc_paused()
def multi_source_dijkstra_path_length(
    G, sources: Any, cutoff: Any = None, weight: str = "weight"
) -> dict:
    """Shortest weighted distance from the nearest of ``sources`` to each reachable node
    (within ``cutoff``), keys in exactly NetworkX's order: the sources first, in the order
    ``sources`` iterates, then the rest as its heap pops them. NetworkX's ``ValueError`` for no
    sources and ``NodeNotFound`` for the first one not in the graph. An iterator of sources
    runs in NetworkX (``can_run``: NetworkX checks it, then searches from what is left)."""
    return _dijkstra_lengths(G, _checked_sources(G, sources), cutoff, weight)


def _dijkstra_lengths(G, sources: list, cutoff: Any, weight: str) -> dict:
    """NetworkX's Dijkstra lengths from ``sources`` (labels in the graph, in push order)."""
    return _lengths(G, sources, *_dijkstra(G, sources, cutoff, weight)[:2])


def _lengths(G, sources: list, order: np.ndarray, dist: np.ndarray) -> dict:
    """NetworkX's dict of Dijkstra lengths from :func:`_nx_dijkstra`'s finalized ``order`` and
    ``dist``: the sources' distances the ``int`` 0, as NetworkX's (float weights too)."""
    found = node_dict(G, order, dist, first_int=True)
    if dist.dtype.kind == "f" and len(sources) > 1:  # the other sources' int 0 too (a few
        for s in sources[1:]:  # keys: sources come first, each once, set again in place)
            found[s] = 0
    return found


def _dijkstra(
    G, sources: list, cutoff: Any, weight: str, with_pred: bool = False, incoming: bool = False
) -> tuple:
    """:func:`_nx_dijkstra` from ``sources`` (labels in the graph, in push order) over the
    weights of edge attribute ``weight``, ``cutoff`` as NetworkX compares it (``with_pred``:
    with NetworkX's predecessor lists), and ``pred_start``. ``incoming`` (a directed graph,
    without ``with_pred``): along its in-arcs in NetworkX's ``_pred`` order, as NetworkX
    searches its reverse view."""
    w = _weights(G, weight, negative_ok=False, hidden_ok=True)
    indptr, heads = host(G.any_order.indptr), G.nx_order
    values, nx_hidden = w.nx_values, w.nx_hidden
    if incoming and G.is_directed():
        from ._component_order import nx_pred_rows

        indptr, heads = nx_pred_rows(G)
        values, _, nx_hidden = G.nx_pred_weights(weight)
    hidden = np.zeros(values.size, dtype=bool) if nx_hidden is None else nx_hidden
    limited = cutoff is not None and not (cutoff == math.inf)
    limit = 0
    if limited and w.kind == "int":
        # d > cutoff <=> d > floor(cutoff) on ints; below every distance: only the sources
        limit = -1 if cutoff < -(2**62) else min(math.floor(cutoff), 2**62)
    elif limited:
        limit = cutoff
    ids = np.array([G.find(s) for s in sources], dtype=np.int64)
    pred_start = np.zeros(1, dtype=np.int64)  # (no predecessor lists)
    if with_pred:
        n = len(G)
        pred_start = np.zeros(n + 1, dtype=np.int64)
        indegree = np.bincount(G.nx_order, minlength=n) if G.is_directed() else np.diff(indptr)
        np.cumsum(indegree, out=pred_start[1:])
    found = _nx_dijkstra(
        indptr, heads, values, hidden, ids, values.dtype.type(limit), limited, pred_start
    )
    return (*found, pred_start)


def bellman_ford_to_target(G, target: Any, weight: str, paths: bool) -> dict:
    """NetworkX's Bellman-Ford lengths (or, ``paths``, paths, each still from ``target``) of
    ``shortest_path_length`` / ``shortest_path`` to ``target``, as :func:`dijkstra_to_target`
    (NetworkX's ``single_source_bellman_ford_path(_length)`` of the reverse view)."""
    order, dist, pred, _, pred_start = _bellman_ford(G, target, weight, incoming=True)
    if paths:
        return _bellman_ford_paths(G, order, pred, pred_start)
    return node_dict(G, order, dist[order], first_int=True)


def dijkstra_to_target(G, target: Any, weight: str, paths: bool) -> dict:
    """NetworkX's Dijkstra lengths (or, ``paths``, paths, each still from ``target``) of
    ``shortest_path_length`` / ``shortest_path`` to ``target``: from it, along a directed
    graph's in-arcs (NetworkX searches its reverse view), else as from a source."""
    sources = _checked_sources(G, _one_source(target))
    order, dist, parent, reached, *_ = _dijkstra(G, sources, None, weight, incoming=True)
    if paths:
        return _dijkstra_paths(G, order, parent, reached)
    return _lengths(G, sources, order, dist)


def _dijkstra_paths(G, order: np.ndarray, parent: np.ndarray, reached: np.ndarray) -> dict:
    """NetworkX's dict of Dijkstra paths from :func:`_nx_dijkstra`'s results: each node's
    path is its parent's plus itself. Keys in NetworkX's order: from 3.6 the sources, then the
    others as finalized (NetworkX builds the paths at the end, in its distances' order); before,
    in the order first reached (it built each path when it lowered a distance)."""
    roots = int(np.count_nonzero(parent[order] < 0))
    paths = path_dict(G, order, parent[order], roots)
    if networkx_version() >= (3, 6):
        return paths
    keys = G.label_list(reached)
    return dict(zip(keys, map(paths.__getitem__, keys), strict=True))


@gc_paused()
def dijkstra_predecessor_and_distance(
    G, source: Any, cutoff: Any = None, weight: str = "weight"
) -> tuple[dict, dict]:
    """NetworkX's ``(pred, dist)``: each reached node's predecessors on its shortest paths
    (ties included, in the order NetworkX's heap finds them; keys in the order first reached,
    the source first with ``[]`` unless a zero-weight arc leads back) and the lengths, as
    :func:`single_source_dijkstra_path_length`.

    Examples
    --------
    >>> import networkx as nx
    >>> G = nx.cycle_graph(4)
    >>> pred, dist = nx.dijkstra_predecessor_and_distance(G, 0, backend="warpgraph")
    >>> pred
    {0: [], 1: [0], 3: [0], 2: [1, 3]}
    """
    import networkx as nx

    if source not in G:
        raise nx.NodeNotFound(f"Node {source} is not found in the graph")
    order, dist, _, reached, pred, pred_len, pred_start = _dijkstra(
        G, [source], cutoff, weight, with_pred=True
    )
    return _pred_lists(G, reached, pred, pred_len, pred_start), _lengths(G, [source], order, dist)


def _pred_lists(G, keys: np.ndarray, pred, pred_len, pred_start) -> dict:
    """``{label of v: [labels of v's predecessors]}`` for the dense ids ``keys`` in order, the
    lists sliced from one list of labels by C-level iterators (no bytecode per node)."""
    lengths = pred_len[keys]
    ends = np.cumsum(lengths)
    begins = ends - lengths
    # every key's entries, gathered in key order
    total = int(ends[-1]) if ends.size else 0
    flat = pred[np.repeat(pred_start[keys] - begins, lengths) + np.arange(total)]
    lists = split_list(G.label_list(flat), np.append(begins, total))
    return dict(zip(G.label_list(keys), lists, strict=True))


def _checked_sources(G, sources: Any) -> list:
    """``sources`` as a list, after NetworkX's checks in ``multi_source_dijkstra`` (and its
    ``_length`` twin): ``ValueError`` for none, ``NodeNotFound`` for the first not in ``G``."""
    import networkx as nx

    if not sources:
        raise ValueError("sources must not be empty")
    for s in sources:
        if s not in G:
            raise nx.NodeNotFound(f"Node {s} not found in graph")
    return list(sources)


def _one_source(source: Any) -> list:
    """``[source]``: NetworkX's single-source Dijkstra functions pass ``{source}`` on, so an
    unhashable source is its ``TypeError`` first."""
    hash(source)
    return [source]


@gc_paused()
def single_source_dijkstra_path(G, source: Any, cutoff: Any = None, weight: str = "weight"):
    """NetworkX's Dijkstra paths from ``source`` (``{node: [source, ..., node]}``), keys and
    paths as NetworkX's (:func:`_dijkstra_paths`).

    Examples
    --------
    >>> import networkx as nx
    >>> G = nx.Graph([(0, 1, {"weight": 5}), (0, 2, {"weight": 1}), (2, 1, {"weight": 1})])
    >>> nx.single_source_dijkstra_path(G, 0, backend="warpgraph")
    {0: [0], 2: [0, 2], 1: [0, 2, 1]}
    """
    return multi_source_dijkstra_path(G, _one_source(source), cutoff, weight)


@gc_paused()
def multi_source_dijkstra_path(G, sources: Any, cutoff: Any = None, weight: str = "weight"):
    """NetworkX's Dijkstra paths from the nearest of ``sources``, keys and paths as
    NetworkX's (:func:`_dijkstra_paths`). An iterator of sources runs in NetworkX
    (``can_run``, as for the lengths)."""
    sources = _checked_sources(G, sources)
    order, _, parent, reached, *_ = _dijkstra(G, sources, cutoff, weight)
    return _dijkstra_paths(G, order, parent, reached)


@gc_paused()
def single_source_dijkstra(
    G, source: Any, target: Any = None, cutoff: Any = None, weight: str = "weight"
) -> tuple[dict, dict]:
    """NetworkX's ``(lengths, paths)`` from ``source``, each dict as NetworkX's. With a target
    NetworkX stops there: such calls run in NetworkX (``can_run``).

    Examples
    --------
    >>> import networkx as nx
    >>> nx.single_source_dijkstra(nx.path_graph(3), 0, backend="warpgraph")
    ({0: 0, 1: 1, 2: 2}, {0: [0], 1: [0, 1], 2: [0, 1, 2]})
    """
    return multi_source_dijkstra(G, _one_source(source), target, cutoff, weight)


@gc_paused()
def multi_source_dijkstra(
    G, sources: Any, target: Any = None, cutoff: Any = None, weight: str = "weight"
) -> tuple[dict, dict]:
    """NetworkX's ``(lengths, paths)`` from the nearest of ``sources``, each dict as
    NetworkX's; a target or an iterator of sources runs in NetworkX (``can_run``)."""
    sources = _checked_sources(G, sources)
    order, dist, parent, reached, *_ = _dijkstra(G, sources, cutoff, weight)
    return _lengths(G, sources, order, dist), _dijkstra_paths(G, order, parent, reached)


@gc_paused()
def single_source_bellman_ford_path_length(G, source: Any, weight: str = "weight") -> dict:
    """Shortest weighted distance from ``source``; negative weights allowed, a reachable
    negative cycle raises ``NetworkXUnbounded`` as in NetworkX."""
    order, dist, _, _, _ = _bellman_ford(G, source, weight)
    return node_dict(G, order, dist[order], first_int=True)  # NetworkX's source distance: int 0


def bellman_ford_weights(G, weight: str):
    """The weights :func:`_bellman_ford` runs on (``_weights``' answer, checked by
    :func:`_int_sums_fit`), or ``NotImplementedError`` where they are not all-int or
    all-float, are ``None`` or NaN on some edge, or are ints whose path sums could leave
    int64."""
    w = _weights(G, weight, negative_ok=True, hidden_ok=False)
    _int_sums_fit(G, w)
    return w


def _int_sums_fit(G, w: Any) -> None:
    """``NotImplementedError`` for int weights whose Bellman-Ford sums could leave int64."""
    values = w.nx_values
    if w.kind == "int" and values.size:
        # NetworkX's ints do not overflow, ours must not: a distance is the length of a simple
        # path (under n arcs) when no weight is negative, else of a walk of under n * n arcs
        # (a node is queued fewer than n times)
        n = len(G)
        arcs = n if values.min() >= 0 else n * n
        if largest_magnitude(values) * arcs >= 2**62:
            raise not_implemented("int weights whose path sums could leave int64")


def _bellman_ford(
    G,
    source: Any,
    weight: str,
    heuristic: bool = True,
    *,
    w: Any = None,
    cycles: bool = False,
    incoming: bool = False,
) -> tuple:
    """:func:`_nx_bellman_ford` from ``source`` over the weights of edge attribute ``weight``
    (``w``: ``_weights``' answer when already made): ``(order, dist, pred, pred_len,
    pred_start)``, after NetworkX's errors; with ``cycles``, a negative cycle is not raised
    and ``(cycle, extra)`` (as :func:`_nx_bellman_ford`'s) follow. ``incoming`` (a directed
    graph): along its in-arcs in NetworkX's ``_pred`` order with their weights in that order,
    as NetworkX searches its reverse view."""
    import networkx as nx

    hash(source)  # (NetworkX makes {source: []} first: an unhashable one's TypeError)
    if source not in G:
        raise nx.NodeNotFound(f"Source {source} not in G")
    if w is None:
        w = _weights(G, weight, negative_ok=True, hidden_ok=False)
    _int_sums_fit(G, w)  # (the reverse view's weights are the same ones)
    values, heads = w.nx_values, G.nx_order
    n = len(G)
    indptr = host(G.any_order.indptr)
    # a node's predecessor list is bounded by its in-degree in the graph searched
    if incoming and G.is_directed():
        from ._component_order import nx_pred_rows

        indegree = np.diff(indptr)  # (the reverse view's in-degrees: the out-degrees)
        indptr, heads = nx_pred_rows(G)
        values = G.nx_pred_weights(weight)[0]
    else:
        indegree = np.bincount(heads, minlength=n) if G.is_directed() else np.diff(indptr)
    pred_start = np.zeros(n + 1, dtype=np.int64)
    np.cumsum(indegree, out=pred_start[1:])
    order, dist, status, pred, pred_len, cycle, extra = _nx_bellman_ford(
        indptr, heads, values, G.find(source), pred_start, heuristic
    )
    if status == BF_FULL:
        raise not_implemented("a predecessor list outgrew its bound (left to NetworkX)")
    if cycles:
        return order, dist, pred, pred_len, pred_start, cycle, extra
    if status == BF_CYCLE:
        raise nx.NetworkXUnbounded("Negative cycle detected.")
    return order, dist, pred, pred_len, pred_start


def _bellman_ford_paths(G, order: np.ndarray, pred: np.ndarray, pred_start: np.ndarray) -> dict:
    """NetworkX's dict of Bellman-Ford paths: keys in its predecessor dict's order (``order``),
    each node's path its first predecessor's plus itself (:func:`_first_pred_order`). The
    first predecessors are the last strict improvements, which form a tree when no negative
    cycle is reached (NetworkX raised before this); were they to close a cycle, NetworkX's
    search would backtrack through later entries, so that case is left to it (a guard)."""
    placed, simple = _first_pred_order(order, pred, pred_start)
    if not simple:
        raise not_implemented("zero-weight cycles among the first predecessors (left to NetworkX)")
    parents = np.full(placed.size, -1, dtype=np.int64)  # (the source's list may be empty)
    parents[1:] = pred[pred_start[placed[1:]]]
    paths = path_dict(G, placed, parents, 1)
    keys = G.label_list(order)
    return dict(zip(keys, map(paths.__getitem__, keys), strict=True))


@gc_paused()
def single_source_bellman_ford_path(G, source: Any, weight: str = "weight") -> dict:
    """NetworkX's Bellman-Ford paths from ``source`` (``{node: [source, ..., node]}``), keys
    in its order (as its predecessor dict's), each path through the first of the node's
    predecessors (:func:`_bellman_ford_paths`).

    Examples
    --------
    >>> import networkx as nx
    >>> G = nx.DiGraph([(0, 1, {"weight": 4}), (0, 2, {"weight": 1}), (2, 1, {"weight": -2})])
    >>> nx.single_source_bellman_ford_path(G, 0, backend="warpgraph")
    {0: [0], 1: [0, 2, 1], 2: [0, 2]}
    """
    order, _, pred, _, pred_start = _bellman_ford(G, source, weight)
    return _bellman_ford_paths(G, order, pred, pred_start)


@gc_paused()
def single_source_bellman_ford(
    G, source: Any, target: Any = None, weight: str = "weight"
) -> tuple[dict, dict]:
    """NetworkX's ``(lengths, paths)`` from ``source`` by Bellman-Ford, each dict as
    NetworkX's; a target runs in NetworkX (``can_run``).

    Examples
    --------
    >>> import networkx as nx
    >>> nx.single_source_bellman_ford(nx.path_graph(3), 0, backend="warpgraph")
    ({0: 0, 1: 1, 2: 2}, {0: [0], 1: [0, 1], 2: [0, 1, 2]})
    """
    order, dist, pred, _, pred_start = _bellman_ford(G, source, weight)
    lengths = node_dict(G, order, dist[order], first_int=True)
    return lengths, _bellman_ford_paths(G, order, pred, pred_start)


def negative_edge_cycle(G, weight: str = "weight", heuristic: bool = True) -> bool:
    """Whether any negative-weight cycle exists (anywhere in the graph)."""
    if G.any_order.num_edges == 0:
        return False
    w = G.weighted(weight)
    if w.kind == "other" or w.hidden:
        raise not_implemented(f"edge attribute {weight!r} holds non-numbers or None")
    weights = host(w.graph.weights)
    if _least_weight(weights, weight) >= 0:
        return False
    if not G.is_directed() and _one_dict_per_edge(G):
        return True  # a negative edge u - v is the negative cycle u -> v -> u
    g = w.graph
    n = g.num_vertices
    indptr = np.concatenate((host(g.indptr), [g.num_arcs + n]))  # a new vertex n -> every vertex
    indices = np.concatenate((host(g.indices), np.arange(n))).astype(id_dtype_for(n + 1))
    values = np.concatenate((weights, np.zeros(n, dtype=weights.dtype)))
    aug = Graph(indptr, indices, values, directed=True, validate=False)
    dev = backend_device()
    try:
        _sssp()(aug, n, method="hbf", device=dev)
    except NegativeCycleError:
        return True
    return False


#: ``shortest_path_length``'s methods, as NetworkX names them.
METHODS = ("dijkstra", "bellman-ford")


def shortest_path_length(
    G, source: Any = None, target: Any = None, weight: Any = None, method: str = "dijkstra"
) -> dict:
    """NetworkX's ``shortest_path_length`` where it returns one dict: from ``source`` (no
    ``target``), or to ``target`` (no ``source``; the lengths from it, along a directed
    graph's in-arcs in NetworkX's ``_pred`` order, as NetworkX searches its reverse view). As
    NetworkX: unweighted when ``weight`` is None, else Dijkstra or Bellman-Ford by ``method``,
    each computed by the function of that name here (so keys in NetworkX's order);
    ``ValueError`` for another method. All pairs and a source-target pair (NetworkX's
    bidirectional searches stop early) run in NetworkX (``can_run``)."""
    from .traversal import hop_lengths

    if method not in METHODS:
        raise ValueError(f"method not supported: {method}")
    node = source if source is not None else target
    if weight is None:
        with gc_paused():
            return hop_lengths(G, node, None, incoming=source is None)
    if source is None:  # (along a directed graph's in-arcs)
        to_target = dijkstra_to_target if method == "dijkstra" else bellman_ford_to_target
        with gc_paused():
            return to_target(G, target, weight, paths=False)
    if method == "dijkstra":
        return single_source_dijkstra_path_length(G, node, weight=weight)
    return single_source_bellman_ford_path_length(G, node, weight=weight)
