"""NetworkX's remaining Bellman-Ford functions: ``bellman_ford_path_length``,
``bellman_ford_path``, ``bellman_ford_predecessor_and_distance`` and ``find_negative_cycle``.

``bellman_ford_path_length`` returns one number, so no order is owed. For all-int weights it
runs warpgraph's parallel SSSP on the configured device, which gives NetworkX's number
exactly; the proof (for exact arithmetic, no reachable negative cycle) is:

* NetworkX's SPFA skips a node ``u`` whose predecessor ``p`` is queued. ``p`` was lowered after
  it set ``u``'s distance, so ``dist[p] + w(p, u) < dist[u]``: ``u`` is never skipped at its
  final distance. Hence, by the FIFO rounds argument, a node at the end of a shortest path of
  ``k`` arcs is relaxed at its final distance by round ``k <= n - 1``, is queued at most once a
  round, never after: fewer than ``n`` times, so the count test never fires.
* If the run ends, each node's last distance was relaxed or skipped for a predecessor that
  then lowers it: a violated arc ``(u, v)`` leads back through violated arcs into a cycle, of
  negative weight. So a run that ends holds the exact distances, and a reachable negative
  cycle makes it run until the count test fires: ``NetworkXUnbounded`` exactly then.
* The heuristic fires only when ``v`` lies on the chain of relaxations that set ``u``: that
  chain plus ``(u, v)`` is a closed walk of negative weight.

Float sums break the first step: ``dist[p] + w(p, u)`` can round to ``dist[u]`` itself, and then
``u``'s arcs are never relaxed at that distance (NetworkX then reports a node unreachable that
the parallel fixpoint reaches: ``tests/test_nx_bellman_ford.py``). Float weights, negative
weights on undirected graphs, and sums past the parallel SSSP's int64 bound therefore run the
sequential replay of NetworkX's SPFA (:func:`.shortest_paths._nx_bellman_ford`).

The other three follow NetworkX's order (predecessor lists, the first path of its search,
the cycle its search finds) and run that replay on the CPU whatever the device.
``goldberg_radzik`` is not dispatched: it scans the nodes of a Python ``set`` in the set's
iteration order (hash-table layout), which decides its ``pred`` dict's keys, order and ties.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from numba import njit

from ._common import backend_device, gc_paused, host, node_dict, not_implemented
from .shortest_paths import (
    _bellman_ford,
    _bellman_ford_paths,
    _pred_lists,
    _sssp,
    _weights,
)

#: The parallel SSSP's distance of an unreached node (int weights).
INT64_MAX = int(np.iinfo(np.int64).max)

__all__ = [
    "bellman_ford_path",
    "bellman_ford_path_length",
    "bellman_ford_predecessor_and_distance",
    "find_negative_cycle",
]


@njit(cache=True, nogil=True)
def _first_pred_path(pred, pred_start, source, target):  # pragma: no cover - compiled
    """The ids of NetworkX's Bellman-Ford path from ``source`` to ``target``: the first
    predecessors followed back from ``target`` (the first path of NetworkX's
    ``_build_paths_from_predecessors``), source first; empty if they revisit a node (NetworkX
    would backtrack: only zero-weight cycles make one, the caller leaves that to NetworkX)."""
    n = pred_start.shape[0] - 1
    seen = np.zeros(n, dtype=np.bool_)
    back = np.empty(n, dtype=np.int64)
    k = 0
    v = target
    while True:
        if seen[v]:
            return back[:0]
        seen[v] = True
        back[k] = v
        k += 1
        if v == source:
            return back[:k][::-1].copy()
        v = pred[pred_start[v]]


@njit(cache=True, nogil=True)
def _negative_self_loop(indptr, heads, weights):  # pragma: no cover - compiled
    """Whether some arc ``u -> u`` weighs less than 0 (NetworkX's first test in
    ``bellman_ford_predecessor_and_distance``, anywhere in the graph)."""
    for u in range(indptr.shape[0] - 1):
        for a in range(indptr[u], indptr[u + 1]):
            if heads[a] == u and weights[a] < 0:
                return True
    return False


@njit(cache=True, nogil=True)
def _cycle_search(pred, pred_start, pred_len, v, extra):  # pragma: no cover - compiled
    """NetworkX's search for the cycle in ``find_negative_cycle``: a depth-first search from
    ``v`` through the predecessor lists, each list copied when its node is pushed and taken
    from its end (``preds.pop()``), until the top node's remaining list holds ``v``.
    ``extra`` (>= 0) is the tail NetworkX's heuristic appended to ``v``'s list.

    Returns the cycle's ids as NetworkX lists them (``v`` first and last), or an empty array
    when the search ends without one (NetworkX's unreachable fallback, left to it)."""
    n = pred_start.shape[0] - 1
    seen = np.zeros(n, dtype=np.bool_)
    nodes = np.empty(n, dtype=np.int64)  # the stack: node, entries left, where v is in them
    left = np.empty(n, dtype=np.int64)
    at_v = np.empty(n, dtype=np.int64)
    seen[v] = True
    nodes[0] = v
    left[0] = pred_len[v] + (1 if extra >= 0 else 0)
    at_v[0] = n  # (v's own list: found below)
    for j in range(pred_len[v]):
        if pred[pred_start[v] + j] == v:
            at_v[0] = j
            break
    if at_v[0] == n and extra == v:
        at_v[0] = pred_len[v]
    top = 0
    while top >= 0:
        node = nodes[top]
        if at_v[top] < left[top]:  # v in preds
            out = np.empty(top + 2, dtype=np.int64)
            out[0] = v
            for i in range(top + 1):
                out[i + 1] = nodes[top - i]
            return out
        if left[top] > 0:
            left[top] -= 1
            j = left[top]
            nbr = extra if node == v and j == pred_len[v] else pred[pred_start[node] + j]
            if not seen[nbr]:
                seen[nbr] = True
                top += 1
                nodes[top] = nbr
                left[top] = pred_len[nbr]  # (nbr is not v: v is seen)
                at_v[top] = n
                for i in range(pred_len[nbr]):
                    if pred[pred_start[nbr] + i] == v:
                        at_v[top] = i
                        break
        else:
            top -= 1
    return nodes[:0]


def _path_length_parallel(G, source_id: int, w: Any) -> Any:
    """The distance array from ``source_id`` by warpgraph's parallel SSSP on the backend's
    device (int weights: exact), ``None`` where the replay must answer, or ``NetworkXUnbounded``
    for a reachable negative cycle."""
    import networkx as nx

    from ..errors import InvalidArgumentError, NegativeCycleError

    if w.kind != "int":
        return None  # float sums: NetworkX's skipped relaxations can differ (module docstring)
    if not G.is_directed() and host(w.graph.weights).min(initial=0) < 0:
        return None  # NetworkX's walks u -> v -> u (and views: two weights per edge)
    dev = backend_device()
    try:
        return _sssp()(G.on(dev, w.graph), source_id, device=dev)
    except NegativeCycleError:
        raise nx.NetworkXUnbounded("Negative cycle detected.") from None
    except InvalidArgumentError:  # int64 sums could overflow there: the replay's own bound
        return None


@gc_paused()
def bellman_ford_path_length(G, source: Any, target: Any, weight: str = "weight") -> Any:
    """NetworkX's Bellman-Ford distance from ``source`` to ``target``: an ``int`` for int
    weights (by the parallel SSSP on the backend's device), a ``float`` for float weights (by
    the replay of NetworkX's SPFA), ``0`` when ``source == target``; NetworkX's
    ``NodeNotFound``, ``NetworkXUnbounded`` and ``NetworkXNoPath``.

    Examples
    --------
    >>> import networkx as nx
    >>> G = nx.DiGraph([(0, 1, {"weight": 4}), (0, 2, {"weight": 1}), (2, 1, {"weight": -2})])
    >>> nx.bellman_ford_path_length(G, 0, 1, backend="warpgraph")
    -1
    """
    import networkx as nx

    if source == target:
        if source not in G:
            raise nx.NodeNotFound(f"Node {source} not found in graph")
        return 0
    hash(source)  # (NetworkX makes {source: []} first: an unhashable one's TypeError)
    if source not in G:
        raise nx.NodeNotFound(f"Source {source} not in G")
    w = _weights(G, weight, negative_ok=True, hidden_ok=False)
    sid = G.find(source)
    dist = _path_length_parallel(G, sid, w)
    pred_len = None
    if dist is None:
        _, dist, _, pred_len, _ = _bellman_ford(G, source, weight, w=w)
    hash(target)  # (NetworkX's length[target]: an unhashable one's TypeError)
    tid = G.find(target)
    if tid == sid:
        return 0  # (a target equal to the source only as a dict key: the source's int 0)
    found = None if tid < 0 else dist[tid].item()  # (one element: a GPU array stays there)
    # reached: in the replay, a predecessor (every node but the source); else a distance
    if found is None or (found == INT64_MAX if pred_len is None else pred_len[tid] == 0):
        raise nx.NetworkXNoPath(f"node {target} not reachable from {source}")
    return found


@gc_paused()
def bellman_ford_path(G, source: Any, target: Any, weight: str = "weight") -> Any:
    """NetworkX's Bellman-Ford path from ``source`` to ``target``: the first predecessors
    followed back from ``target`` (NetworkX's first path through its predecessor lists);
    ``[source]`` when ``source == target``; with ``target=None`` every path, as
    ``single_source_bellman_ford_path`` (NetworkX's ``single_source_bellman_ford`` then
    returns them all).

    Examples
    --------
    >>> import networkx as nx
    >>> G = nx.DiGraph([(0, 1, {"weight": 4}), (0, 2, {"weight": 1}), (2, 1, {"weight": -2})])
    >>> nx.bellman_ford_path(G, 0, 1, backend="warpgraph")
    [0, 2, 1]
    """
    import networkx as nx

    if source == target:
        if source not in G:
            raise nx.NodeNotFound(f"Node {source} is not found in the graph")
        return [source]
    order, _, pred, pred_len, pred_start = _bellman_ford(G, source, weight)
    if target is None:
        return _bellman_ford_paths(G, order, pred, pred_start)
    hash(target)  # (NetworkX's ``target not in pred``: an unhashable one's TypeError)
    tid = G.find(target)
    sid = G.find(source)
    if tid < 0 or (tid != sid and pred_len[tid] == 0):  # (reached: a predecessor, or the source)
        raise nx.NetworkXNoPath(f"Target {target} cannot be reached from given sources")
    ids = _first_pred_path(pred, pred_start, sid, tid)
    if ids.size == 0:
        raise not_implemented("zero-weight cycles among the first predecessors (left to NetworkX)")
    return G.label_list(ids)


@gc_paused()
def bellman_ford_predecessor_and_distance(
    G, source: Any, target: Any = None, weight: str = "weight", heuristic: bool = False
) -> tuple[dict, dict]:
    """NetworkX's ``(pred, dist)`` by its SPFA (replayed, ``heuristic`` as NetworkX's): each
    reached node's predecessors on its shortest paths (ties included, in NetworkX's order) and
    its distance, keys in the order first reached (the source first). NetworkX's errors in its
    order: ``NodeNotFound``, then ``NetworkXUnbounded`` for a negative self-loop anywhere, then
    ``({source: []}, {source: 0})`` for a one-node graph. ``target`` changes nothing (NetworkX
    builds no path here).

    Examples
    --------
    >>> import networkx as nx
    >>> G = nx.cycle_graph(4, create_using=nx.DiGraph)
    >>> G.add_edge(0, 2)
    >>> nx.bellman_ford_predecessor_and_distance(G, 0, backend="warpgraph")
    ({0: [], 1: [0], 2: [0], 3: [2]}, {0: 0, 1: 1, 2: 1, 3: 2})
    """
    import networkx as nx

    if source not in G:
        raise nx.NodeNotFound(f"Node {source} is not found in the graph")
    w = _weights(G, weight, negative_ok=True, hidden_ok=False)
    indptr = host(G.any_order.indptr)
    if _negative_self_loop(indptr, G.nx_order, w.nx_values):
        raise nx.NetworkXUnbounded("Negative cycle detected.")
    if len(G) == 1:
        return {source: []}, {source: 0}
    order, dist, pred, pred_len, pred_start = _bellman_ford(G, source, weight, bool(heuristic), w=w)
    pred_dict = _pred_lists(G, order, pred, pred_len, pred_start)
    return pred_dict, node_dict(G, order, dist[order], first_int=True)


@gc_paused()
def find_negative_cycle(G, source: Any, weight: str = "weight") -> list:
    """NetworkX's negative cycle from ``source``: its SPFA (replayed) stops at a node on a
    negative cycle, then its depth-first search through the predecessor lists
    (:func:`_cycle_search`) gives the cycle, first node repeated last.
    ``NetworkXError("No negative cycles detected.")`` when none is reachable.

    Examples
    --------
    >>> import networkx as nx
    >>> G = nx.DiGraph()
    >>> G.add_weighted_edges_from([(0, 1, 2), (1, 2, 2), (2, 0, 1), (1, 4, 2), (4, 0, -5)])
    >>> nx.find_negative_cycle(G, 0, backend="warpgraph")
    [4, 0, 1, 4]
    """
    import networkx as nx

    *_, pred, pred_len, pred_start, cycle, extra = _bellman_ford(G, source, weight, cycles=True)
    if cycle < 0:
        raise nx.NetworkXError("No negative cycles detected.")
    ids = _cycle_search(pred, pred_start, pred_len, cycle, extra)
    if ids.size == 0:  # NetworkX's fallback (a self-loop test that reads the node as a dict)
        raise not_implemented("the negative cycle's search found no cycle (left to NetworkX)")
    return G.label_list(ids)
