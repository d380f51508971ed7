"""NetworkX's ``is_directed_acyclic_graph``: whether a directed graph has no cycle.

NetworkX answers it with a topological sort (in-degree peeling in Python over every node and
arc: ~0.7-1 s on a DAG of a million arcs; 25-45 ms on a cyclic random graph, where it stops once
the few nodes without arcs in are peeled). Here the checks on NetworkX's own dicts come before
anything is converted, cheapest first:

1. a search for a cycle through the first node (:func:`cycle_through`): what it reaches and what
   reaches it, grown a row at a time from both sides until an arc joins them (a random digraph
   of n nodes and out-degree d shows one after ~sqrt(n) / d rows read; urand:17: 24-145 rows,
   0.14-0.8 ms on 2 cores), given up after :data:`CYCLE_PROBE_ROWS` rows or when a side stops
   growing (a source or a sink answers at once);
2. on a graph of at most :data:`CYCLE_PROBE_ARCS` nodes, a depth-first search of every node
   (:func:`cycle_in_rows`), which answers either way;
3. a node without an arc in, read in place (:func:`._dict_probes.has_empty_value`): a graph
   where every node has a predecessor has a cycle, found by walking those arcs backwards until
   a node repeats (one long cycle, which the searches above give up on; the same check of the
   successors would find a sink, often the last node, only after reading every row: 2.5-5 ms
   for grid:708 on 2 cores);
4. otherwise the graph is converted (cached, as for every function) and
   :func:`.components._acyclic` decides: its bounded search, one parallel pass for arcs that all
   go one way in node order, or in-degree peeling in one compiled pass; a self-loop (a cycle to
   NetworkX) is counted on the converted arcs.
"""

from __future__ import annotations

from collections.abc import Iterator
from itertools import chain, repeat
from typing import Any

import numpy as np
from numba import njit

from ._common import change_watch, gc_paused, host, not_implemented
from .components import _acyclic, _one_way, _plain, _sources_into
from .shortest_paths import largest_magnitude

__all__ = [
    "ARCS_PER_STEP",
    "CYCLE_PROBE_ARCS",
    "CYCLE_PROBE_ROWS",
    "cycle_in_rows",
    "cycle_through",
    "dag_longest_path",
    "dag_longest_path_length",
    "is_directed_acyclic_graph",
    "topological_generations",
    "topological_sort",
]

#: Rows :func:`cycle_through` reads before it gives up (~2 ms on 2 cores at most; 4-8 us a row
#: there, each a chain of cache misses through NetworkX's objects).
CYCLE_PROBE_ROWS = 256

#: Steps of :func:`cycle_in_rows` (nodes reached and arcs taken) before it gives up: ~1-2 ms of
#: Python at most; it runs on graphs of at most this many nodes, which it then searches whole.
CYCLE_PROBE_ARCS = 2048
#: Arcs checked in C (a row against the search path) that cost as much as one step of the
#: search in Python.
ARCS_PER_STEP = 16


def cycle_in_rows(succ: dict, budget: int = CYCLE_PROBE_ARCS) -> bool | None:
    """Whether the directed graph whose successor rows are ``succ`` (NetworkX's ``G._succ``)
    has a cycle, a self-loop included, by a depth-first search over the dicts in place that
    stops after ``budget`` steps (nodes reached and arcs taken; the arcs checked in C count
    1/:data:`ARCS_PER_STEP` each). True: a cycle was found; False: every node was searched and
    none was; None: the budget ran out first.

    A node's whole row is checked against the search path when the node joins it, in C
    (``set.isdisjoint``): its ancestors on the path stay the same while it is there, so every
    arc back to the path is seen then, and a random graph of out-degree d shows one after
    ~sqrt(n / 2d) nodes on the path instead of ~sqrt(2n) arcs taken one at a time (urand:17
    from its first node: 369 nodes, where the search an arc at a time took 600-1,000 arcs).
    Since :func:`cycle_through` it runs only on small graphs, which it searches whole.

    Examples
    --------
    >>> cycle_in_rows({0: {1: {}}, 1: {2: {}}, 2: {0: {}}})
    True
    >>> cycle_in_rows({0: {1: {}}, 1: {}, 2: {1: {}}})
    False
    >>> cycle_in_rows({v: {v + 1: {}} for v in range(100)} | {100: {}}, budget=10) is None
    True
    """
    on_path: set = set()
    done: set = set()
    budget *= ARCS_PER_STEP  # (counted in arcs checked: a Python step counts as many)
    for root in succ:
        if root in done:
            continue
        stack: list = []
        node = root  # the node joining the path next (_NOTHING: none, go back up)
        while True:
            if node is not _NOTHING:
                row = succ[node]
                budget -= ARCS_PER_STEP + len(row)
                if budget < 0:
                    return None
                on_path.add(node)
                if not on_path.isdisjoint(row):  # (the node itself: a self-loop)
                    return True
                stack.append((node, iter(row)))
            if not stack:
                break
            v, rest = stack[-1]
            node = _NOTHING
            for w in rest:  # the next successor not searched yet (none is on the path)
                budget -= ARCS_PER_STEP
                if w not in done:
                    node = w
                    break
            if node is _NOTHING:
                on_path.discard(v)
                done.add(v)
                stack.pop()
    return False


#: :func:`cycle_in_rows`'s marker for "no node": node labels may be any hashable.
_NOTHING = object()


def cycle_through(succ: dict, pred: dict, source: Any, rows: int = CYCLE_PROBE_ROWS) -> bool:
    """Whether a cycle through ``source`` was found in the directed graph of NetworkX's rows
    ``succ`` and ``pred`` within ``rows`` rows read: nodes ``source`` reaches (each successor
    row read in turn) and nodes that reach it (each predecessor row), until an arc goes from the
    first kind to the second (a closed walk through ``source``, so a cycle; a self-loop at
    ``source`` too). False says nothing of other cycles: given up, or a side stopped growing.

    Examples
    --------
    >>> import networkx as nx
    >>> D = nx.DiGraph([(0, 1), (1, 2), (2, 0), (3, 0)])
    >>> cycle_through(D._succ, D._pred, 0), cycle_through(D._succ, D._pred, 3)
    (True, False)
    """
    reached, reaching = {source}, {source}
    ahead, behind = [source], [source]  # in the order found
    for step in range(rows // 2):
        if step == len(ahead) or step == len(behind):
            return False  # one side is whole: no cycle through source
        row = succ[ahead[step]]
        if not reaching.isdisjoint(row):
            return True
        reached.update(row)
        ahead.extend(row)  # (a node found twice is read twice: rare while the sides are small)
        row = pred[behind[step]]
        if not reached.isdisjoint(row):
            return True
        reaching.update(row)
        behind.extend(row)
    return False


def _every_node_entered(D) -> bool:
    """Whether every node of the plain ``DiGraph`` ``D`` has an arc in, read in place (False
    when the rows cannot be read so)."""
    from . import _dict_probes as probes

    return probes.has_empty_value(D._pred) is False


def _peel_adds_numbers(D, weight: Any, default: Any) -> bool:
    """Whether every weight NetworkX's ``dag_longest_path`` adds before its topological sort
    finds a cycle is a plain ``int``, ``float`` or ``bool`` (so it raises
    ``NetworkXUnfeasible``, not a ``TypeError`` from ``dist + None``): Kahn's peel from the nodes
    without arcs in, as NetworkX's, reading the arcs into each node it peels. False also where
    that cannot be told cheaply (the rows not readable in place, or many nodes without arcs
    in): the caller then converts the graph, whose checks decide."""
    from . import _dict_probes as probes

    frontier = probes.empty_value_keys(D._pred)
    if frontier is None:
        return False
    succ, pred, left = D._succ, D._pred, {}
    while frontier:
        peeled = []
        for u in frontier:
            for w in succ[u]:
                r = left.get(w)
                r = (len(pred[w]) if r is None else r) - 1
                left[w] = r
                if r == 0:
                    peeled.append(w)
        for w in peeled:
            for data in pred[w].values():
                if type(data.get(weight, default)) not in (int, float, bool):
                    return False
        frontier = peeled
    return True


def _raise_if_cycle_first(D, weight: Any, default: Any) -> None:
    """NetworkX's ``NetworkXUnfeasible`` for a cycle through the first node, found on its dicts
    before anything is converted, where NetworkX raises it too: when its peel adds only
    numbers (:func:`_peel_adds_numbers`; no node without an arc in: no peel at all)."""
    if cycle_through(D._succ, D._pred, next(iter(D._succ))) and _peel_adds_numbers(
        D, weight, default
    ):
        raise _unfeasible()


def is_directed_acyclic_graph(G) -> bool:
    """Whether ``G`` is a directed graph without a cycle (a self-loop is one), as NetworkX's
    ``is_directed_acyclic_graph``: False for an undirected graph, True for the null graph. The
    conversion is deferred: the checks on NetworkX's dicts come first (module docstring)."""
    if not G.is_directed():
        return False
    if len(G) == 0:
        return True
    D = G.pending
    if D is not None and _plain(D):
        if cycle_through(D._succ, D._pred, next(iter(D._succ)), CYCLE_PROBE_ROWS):
            return False
        if len(D) <= CYCLE_PROBE_ARCS:
            found = cycle_in_rows(D._succ, CYCLE_PROBE_ARCS)
            if found is not None:
                return not found
        if _every_node_entered(D):
            return False
    if G.any_order.num_self_loops:  # (converts a deferred graph; counted by its scan)
        return False
    return _acyclic(G)


@njit(cache=True, nogil=True)
def _arcs_in(indptr, heads, n):  # pragma: no cover - compiled
    """Each node's arcs in, self-loops included (NetworkX's in-degree)."""
    indeg = np.zeros(n, dtype=np.int64)
    for a in range(indptr[n]):
        indeg[heads[a]] += 1
    return indeg


@njit(cache=True, nogil=True)
def _kahn_generations(indptr, heads, n):  # pragma: no cover - compiled
    """NetworkX's ``topological_generations`` over dense ids (arcs in its adjacency order):
    the nodes without arcs in, in node order, then generation after generation each node's
    children in row order as their last arc in is removed (a self-loop never is). Returns the
    nodes reached in that order and where each generation starts (its last entry: the count
    reached; fewer than ``n``: a cycle)."""
    indeg = _arcs_in(indptr, heads, n)
    order = np.empty(n, dtype=np.int64)
    starts = np.empty(n + 1, dtype=np.int64)
    found = _sources_into(indeg, order)
    gens = 0
    lo = 0
    while lo < found:
        starts[gens] = lo
        gens += 1
        hi = found
        for i in range(lo, hi):
            u = order[i]
            for a in range(indptr[u], indptr[u + 1]):
                w = heads[a]
                indeg[w] -= 1
                if indeg[w] == 0:
                    order[found] = w
                    found += 1
        lo = hi
    starts[gens] = found
    return order[:found], starts[: gens + 1]


def _unfeasible() -> Exception:
    import networkx as nx

    return nx.NetworkXUnfeasible("Graph contains a cycle or graph changed during iteration")


def _generations(G) -> tuple[list, np.ndarray, np.ndarray]:
    """``(labels in NetworkX's topological order, generation starts, the dense ids in that
    order)``; NetworkX's error for an undirected graph."""
    if not G.is_directed():
        import networkx as nx

        raise nx.NetworkXError("Topological sort not defined on undirected graphs.")
    order, starts = _kahn_generations(host(G.any_order.indptr), G.nx_order, len(G))
    with gc_paused():
        labels = G.label_list(order)
    return labels, starts, order


@njit(cache=True, nogil=True)
def _arcs_left_in(indptr, heads, n, done):  # pragma: no cover - compiled
    """Per node, its arcs in from nodes other than the ``done`` ones (dense ids)."""
    left = _arcs_in(indptr, heads, n)
    for u in done:
        for a in range(indptr[u], indptr[u + 1]):
            left[heads[a]] -= 1
    return left


def _peel_live(D, pending: list, in_arcs_left: dict) -> Iterator[list]:
    """Kahn's peeling continued on the live NetworkX graph ``D`` as NetworkX's own generator
    would continue it after the graph changed: ``pending`` is the next generation, found
    before the change; ``in_arcs_left`` the count of unpeeled arcs into each node not peeled
    yet (positive counts only). A node gone from ``D``, or an arc to a node not counted, is
    NetworkX's ``RuntimeError``; nodes never peeled, its ``NetworkXUnfeasible``."""
    while pending:
        generation, pending = pending, []
        for u in generation:
            if u not in D:
                raise RuntimeError("Graph changed during iteration")
            for w in D.neighbors(u):
                if w not in in_arcs_left:
                    raise RuntimeError("Graph changed during iteration")
                in_arcs_left[w] -= 1
                if not in_arcs_left[w]:
                    del in_arcs_left[w]
                    pending.append(w)
        yield generation
    if in_arcs_left:
        raise _unfeasible()


def topological_generations(G) -> Iterator[list]:
    """NetworkX's ``topological_generations``: lists of nodes, each in NetworkX's order (one
    sequential pass over the arcs in its adjacency order, :func:`_kahn_generations`), then
    NetworkX's ``NetworkXUnfeasible`` if a cycle is left. Like NetworkX's generator it
    notices a graph changed by NetworkX's methods while it runs (they clear the graph's
    cache): from the next generation on it peels the live graph as NetworkX would have
    (:func:`_peel_live`), so the same generations and errors follow (views, whose base graph
    is where changes happen, run in NetworkX: ``can_run``)."""
    labels, starts, order = _generations(G)
    changed, stop = change_watch(G)
    try:
        for k in range(starts.size - 1):  # (a loop over generations; their lists are slices)
            yield labels[starts[k] : starts[k + 1]]
            if changed():
                left = _arcs_left_in(host(G.any_order.indptr), G.nx_order, len(G),
                                     order[: starts[k + 1]])  # fmt: skip
                waiting = np.flatnonzero(left > 0)
                in_arcs_left = dict(zip(G.label_list(waiting), left[waiting].tolist(), strict=True))
                nxt = labels[starts[k + 1] : starts[k + 2]] if k + 2 < starts.size else []
                yield from _peel_live(G.source, nxt, in_arcs_left)
                return
    finally:
        stop()
    if order.size < len(G):
        raise _unfeasible()


def topological_sort(G) -> Iterator:
    """NetworkX's ``topological_sort``: its generations' nodes one after another (the same
    order and errors, :func:`topological_generations`)."""
    for generation in topological_generations(G):
        yield from generation


@njit(cache=True, nogil=True, inline="always")
def _relax_from(u, indptr, heads, weights, dist):  # pragma: no cover - compiled
    """Each arc out of ``u`` offers its head ``u``'s distance plus the arc's weight; the
    largest offer stays. Returns ``u``'s distance."""
    d = dist[u]
    for a in range(indptr[u], indptr[u + 1]):
        candidate = d + weights[a]
        if candidate > dist[heads[a]]:
            dist[heads[a]] = candidate
    return d


@njit(cache=True, nogil=True)
def _longest_path_length(indptr, heads, weights, n):  # pragma: no cover - compiled
    """The largest of NetworkX's ``dag_longest_path`` distances over dense ids, in any
    topological order (Kahn's): a node's distance is its best predecessor's plus the arc's
    weight where it has one and that is >= 0, else 0 (a path may start anywhere), i.e. the
    largest of 0 and those sums. Each candidate is the one sum NetworkX makes for it, so the
    maximum is its value exactly (a -0.0 NetworkX keeps as a distance is 0 here: the same in
    every later sum but one of -0.0 + -0.0, and never a positive result).
    Returns ``(length, nodes ordered)``; fewer than ``n`` ordered: a cycle."""
    indeg = _arcs_in(indptr, heads, n)
    dist = np.zeros(n, dtype=weights.dtype)
    queue = np.empty(n, dtype=np.int64)
    tail = _sources_into(indeg, queue)
    longest = dist[0] if n else weights.dtype.type(0)
    for i in range(n):
        if i == tail:
            return longest, i
        u = queue[i]
        longest = max(longest, _relax_from(u, indptr, heads, weights, dist))
        for a in range(indptr[u], indptr[u + 1]):
            w = heads[a]
            indeg[w] -= 1
            if indeg[w] == 0:
                queue[tail] = w
                tail += 1
    return longest, n


@njit(cache=True, nogil=True)
def _longest_in_order(indptr, heads, weights, n, step):  # pragma: no cover - compiled
    """:func:`_longest_path_length` where the node order (``step`` 1) or its reverse (-1) is
    a topological order: one pass in that order, no in-degrees or queue."""
    dist = np.zeros(n, dtype=weights.dtype)
    longest = dist[0]
    first = 0 if step == 1 else n - 1
    for i in range(n):
        longest = max(longest, _relax_from(first + step * i, indptr, heads, weights, dist))
    return longest


def _check_path_weights(values: np.ndarray, kind: str, hidden: Any, weight: Any, n: int) -> None:
    """Raise ``NotImplementedError`` (NetworkX runs the call) unless the weights are all-int
    or all-float, none ``None``, NaN or infinite, and int sums along a path stay in int64:
    then the compiled sums and comparisons are NetworkX's exactly."""
    if kind not in ("int", "float") or hidden is not None:
        raise not_implemented(f"edge attribute {weight!r} holds values other than all-int or "
                              "all-float numbers")  # fmt: skip
    if kind == "float" and not np.isfinite(values).all():
        raise not_implemented(f"edge attribute {weight!r} is NaN or infinite on some edges")
    if kind == "int" and largest_magnitude(values) * n >= 2**62:
        # (a path has fewer than n arcs; NetworkX's ints do not overflow, ours must not)
        raise not_implemented(f"int weights {weight!r} whose sums could leave int64")


def dag_longest_path_length(G, weight: Any = "weight", default_weight: Any = 1) -> Any:
    """NetworkX's ``dag_longest_path_length``: the weight of a longest path (edges without
    ``weight`` weigh ``default_weight``), ``0`` for the empty graph. Its value is the largest
    of NetworkX's distances, so no path is built; its type is NetworkX's: an ``int`` for int
    weights, a ``float`` for float ones except the ``int`` 0 when no path of positive weight
    exists (NetworkX's path is then the first node of its order, with no edge). Weights that
    are not all-int or all-float, ``None``, NaN or infinite, or ints whose sums could leave
    int64, run in NetworkX; so does ``weight=None`` (``can_run``). The conversion is deferred:
    a cycle through the first node, found on NetworkX's dicts (:func:`cycle_through`), raises
    NetworkX's ``NetworkXUnfeasible`` before anything is converted where NetworkX's peel adds
    only numbers before finding it (:func:`_raise_if_cycle_first`)."""
    n = len(G)
    if n == 0:
        return 0
    D = G.pending  # (a deferred conversion: a cycle through the first node ends it unconverted)
    if D is not None and _plain(D):
        _raise_if_cycle_first(D, weight, default_weight)
    G.convert_pending({weight: default_weight})  # (weights read in the conversion's scan)
    values, kind, hidden = G.nx_weights(weight, default_weight)
    _check_path_weights(values, kind, hidden, weight, n)
    indptr = host(G.any_order.indptr)
    step = _one_way(indptr, G.nx_order, True)  # (a self-loop, a cycle, goes both ways: 0)
    if step:
        longest = _longest_in_order(indptr, G.nx_order, values, n, step)
    else:
        longest, ordered = _longest_path_length(indptr, G.nx_order, values, n)
        if ordered < n:
            raise _unfeasible()
    if kind == "int":
        return int(longest)
    return float(longest) if longest > 0 else 0


def _pred_rows(G, weight: Any, default: Any) -> tuple[np.ndarray, np.ndarray, tuple]:
    """``(indptr, tails, (values, kind, hidden))``: each node's predecessors (dense ids) in
    the order of NetworkX's ``G._pred[v]``, which ``dag_longest_path`` reads (the order arcs
    into ``v`` were added: not that of the successor rows), with edge attribute ``weight`` of
    each arc (the data dict ``_pred[v][u]`` is ``_succ[u][v]``'s). Read in place where the dict
    tables can be (:func:`._cpython.rows_adjacency`, the attribute decoded in the same scan),
    else by C-level iterators; cached on the converted graph.

    Raises
    ------
    NotImplementedError
        When the NetworkX graph is gone or no longer matches the conversion.
    """
    key = ("nx_pred", weight, default)
    found = G._placed.get(key)
    if found is not None:
        return found
    src = G.source
    if src is None:
        raise not_implemented("the NetworkX graph is gone: its predecessor order is unknown")
    from . import _cpython as raw
    from ._common import label_hashes
    from ._from_networkx import _read_weights

    nodes, n, arcs = G.nodes, len(G), G.any_order.num_arcs
    try:
        rows = list(map(src._pred.__getitem__, nodes))
    except (AttributeError, KeyError) as exc:
        raise not_implemented("the NetworkX graph changed after it was converted") from exc
    table = None
    if raw.available():
        hashes = label_hashes(G)
        if hashes is None:
            hashes = np.fromiter(map(hash, nodes), dtype=np.int64, count=n)
        table = raw.rows_adjacency(hashes, rows, False, (weight, default))
    if table is not None:
        indptr, tails = table.indptr, table.ids.astype(np.int64)
    else:
        indptr = np.zeros(n + 1, dtype=np.int64)
        np.cumsum(np.fromiter(map(len, rows), dtype=np.int64, count=n), out=indptr[1:])
        heads = chain.from_iterable(rows)
        count = int(indptr[-1])
        ids = heads if G.identity else map(G.index.__getitem__, heads)
        tails = np.fromiter(ids, dtype=np.int64, count=count)
    if int(indptr[-1]) != arcs:
        raise not_implemented("the NetworkX graph changed after it was converted")
    with gc_paused():
        weights = _read_weights(rows, weight, default, arcs, table)
    found = G._placed[key] = (indptr, tails, weights)
    return found


@njit(cache=True, nogil=True)
def _longest_path(indptr, tails, weights, order):  # pragma: no cover - compiled
    """NetworkX's ``dag_longest_path`` loop over dense ids: for each node ``v`` of ``order``
    the first predecessor (in ``tails``' row order, NetworkX's ``G.pred[v]``) of the largest
    ``dist[u] + weight``, kept when that is >= 0, else ``v`` starts a path with distance 0;
    then the first node of ``order`` with the largest distance, and the path to it. Returns
    the path's ids, or an empty array where NetworkX would meet a node twice or a predecessor
    not done yet (a ``topo_order`` given that is not one; NetworkX then runs it)."""
    n = indptr.shape[0] - 1
    dist = np.zeros(n, dtype=weights.dtype)
    parent = np.empty(n, dtype=np.int64)
    done = np.zeros(n, dtype=np.bool_)
    end = -1
    for i in range(order.shape[0]):
        v = order[i]
        if done[v]:
            return np.empty(0, dtype=np.int64)
        lo, hi = indptr[v], indptr[v + 1]
        best = dist[v]  # (0; set below where a predecessor exists)
        by = v
        for a in range(lo, hi):
            u = tails[a]
            if not done[u]:
                return np.empty(0, dtype=np.int64)
            candidate = dist[u] + weights[a]
            if a == lo or candidate > best:  # (Python's max: the first of the largest)
                best = candidate
                by = u
        if best >= 0:
            dist[v] = best
            parent[v] = by
        else:
            parent[v] = v  # (dist[v] stays 0)
        done[v] = True
        if end < 0 or dist[v] > dist[end]:
            end = v
    if end < 0:
        return np.empty(0, dtype=np.int64)
    steps = 1
    x = end
    while parent[x] != x:
        x = parent[x]
        steps += 1
    path = np.empty(steps, dtype=np.int64)
    x = end
    for j in range(steps - 1, -1, -1):
        path[j] = x
        x = parent[x]
    return path


def _given_order(G, topo_order: Any) -> np.ndarray:
    """The dense ids of a ``topo_order`` given (a list or tuple: ``can_run``); a label that
    is not a node, or is unhashable, leaves the call to NetworkX (its error, where it meets
    it)."""
    index = G.index
    try:
        ids = np.fromiter(map(index.get, topo_order, repeat(-1)), dtype=np.int64,
                          count=len(topo_order))  # fmt: skip
    except TypeError as exc:
        raise not_implemented("topo_order holds an unhashable node") from exc
    if ids.size and ids.min() < 0:
        raise not_implemented("topo_order holds a node not in G")
    if list(map(type, topo_order)) != list(map(type, G.label_list(ids))):
        # (NetworkX's path holds topo_order's own objects where it starts and ends)
        raise not_implemented("topo_order holds nodes of another type than G's (equal to them)")
    return ids


def dag_longest_path(
    G, weight: Any = "weight", default_weight: Any = 1, topo_order: Any = None
) -> list:
    """NetworkX's ``dag_longest_path``: the nodes of a longest path, exactly the one NetworkX
    finds. Each node in NetworkX's topological order (:func:`_kahn_generations`; or
    ``topo_order``, a list or tuple, as given) takes the first of its predecessors in
    ``G.pred[v]`` order (read from NetworkX's ``_pred``, :func:`_pred_rows`) with the largest
    distance plus arc weight, unless that is negative; the path ends at the first node of
    that order with the largest distance (:func:`_longest_path`). ``[]`` for the null graph.

    Weights as :func:`dag_longest_path_length` (all-int or all-float; others, ``weight=None``
    and iterators as ``topo_order`` run in NetworkX), which gives this path's weight. Without a
    ``topo_order``, a cycle is NetworkX's ``NetworkXUnfeasible``: found on NetworkX's dicts
    before anything is converted when it passes through the first node and NetworkX's peel
    adds only numbers before finding it (:func:`_raise_if_cycle_first`), else by the peeling.
    A ``topo_order`` that is not a topological order of the nodes it lists (a node twice, one
    not in ``G``, a predecessor missing or later) runs in NetworkX, which raises its error or,
    for a duplicate, follows its dicts.

    Examples
    --------
    >>> import networkx as nx
    >>> DG = nx.DiGraph([(0, 1, {"cost": 1}), (1, 2, {"cost": 1}), (0, 2, {"cost": 42})])
    >>> nx.dag_longest_path(DG, backend="warpgraph")
    [0, 1, 2]
    >>> nx.dag_longest_path(DG, weight="cost", backend="warpgraph")
    [0, 2]
    """
    n = len(G)
    if n == 0:
        return []
    D = G.pending  # (a deferred conversion: a cycle through the first node ends it unconverted)
    if topo_order is None and D is not None and _plain(D):
        _raise_if_cycle_first(D, weight, default_weight)
    G.convert_pending()  # (the structure only: the weights are read with the predecessors)
    if topo_order is None:
        order, _ = _kahn_generations(host(G.any_order.indptr), G.nx_order, n)
    else:
        order = _given_order(G, topo_order)
    indptr, tails, (values, kind, hidden) = _pred_rows(G, weight, default_weight)
    _check_path_weights(values, kind, hidden, weight, n)
    if topo_order is None and order.size < n:
        raise _unfeasible()  # (after the weights: NetworkX reads those before the cycle)
    path = _longest_path(indptr, tails, values, order)
    if not path.size:
        raise not_implemented("topo_order is not a topological order of the nodes it lists")
    with gc_paused():
        return G.label_list(path)
