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

from typing import Any

from .components import _acyclic, _plain

__all__ = [
    "ARCS_PER_STEP",
    "CYCLE_PROBE_ARCS",
    "CYCLE_PROBE_ROWS",
    "cycle_in_rows",
    "cycle_through",
    "is_directed_acyclic_graph",
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
    ~sqrt(n / d) nodes instead of ~sqrt(2n) arcs taken one at a time (urand:17: ~180 nodes
    against ~600-1,000 arcs, 1.2-2 ms on 2 cores before).

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
        row = succ[root]
        budget -= ARCS_PER_STEP + len(row)
        if budget < 0:
            return None
        on_path.add(root)
        if not on_path.isdisjoint(row):  # (the root itself: a self-loop)
            return True
        stack = [(root, iter(row))]
        while stack:
            v, rest = stack[-1]
            for w in rest:  # the next successor not searched yet (none is on the path)
                budget -= ARCS_PER_STEP
                if w not in done:
                    break
            else:
                on_path.discard(v)
                done.add(v)
                stack.pop()
                continue
            row = succ[w]
            budget -= ARCS_PER_STEP + len(row)
            if budget < 0:
                return None
            on_path.add(w)
            if not on_path.isdisjoint(row):
                return True
            stack.append((w, iter(row)))
    return False


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
