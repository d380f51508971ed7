"""NetworkX's ``is_directed_acyclic_graph``: whether a directed graph has no cycle.

NetworkX answers it with a topological sort (in-degree peeling in Python over every node and
arc, ~1 s on a graph of a million arcs) and gives up at the first cycle only once the peeling
stalls. Here three checks run on NetworkX's own dicts before anything is converted, each
cheaper than the next:

1. a node without an arc in, read in place (:func:`._dict_probes.has_empty_value`): a graph
   where every node has a predecessor has a cycle, found by walking those arcs backwards until
   a node repeats (the same check of the successors would find a sink, often the last node,
   only after reading every row: 2.5-5 ms for grid:708 on 2 cores);
2. a depth-first search of the successor dicts that gives up after :data:`CYCLE_PROBE_ARCS`
   arcs: a graph with a large strong component shows a cycle within a few hundred arcs, and a
   small graph is searched whole;
3. otherwise the graph is converted (cached, as for every function) and
   :func:`.components._acyclic` decides: its bounded search, one parallel pass for arcs that all
   go one way in node order, or in-degree peeling in one compiled pass; a self-loop (a cycle to
   NetworkX) is counted on the converted arcs.
"""

from __future__ import annotations

from typing import Any

from .components import _acyclic, _plain

__all__ = ["CYCLE_PROBE_ARCS", "is_directed_acyclic_graph"]

#: Arcs (and search roots) the depth-first search on NetworkX's dicts may take before the graph
#: is converted: ~1 ms of Python at most (4,096 took 2-4 ms on 2 cores). A random digraph of n
#: nodes closes a cycle after ~sqrt(2n) arcs (~510 for n = 131k); the search misses it within
#: k arcs with probability ~exp(-k^2 / 2n) (1e-7 at n = 131k, 0.13 at n = 1M).
CYCLE_PROBE_ARCS = 2048


def cycle_in_rows(succ: dict, budget: int = CYCLE_PROBE_ARCS) -> bool | None:
    """Whether the directed graph whose successor rows are ``succ`` (NetworkX's ``G._succ``)
    has a cycle, a self-loop included, by a depth-first search over the dicts in place that
    stops after ``budget`` arcs and roots. True: a cycle was found; False: every node was
    searched and none was; None: the budget ran out first.

    Examples
    --------
    >>> cycle_in_rows({0: {1: {}}, 1: {2: {}}, 2: {0: {}}})
    True
    >>> cycle_in_rows({0: {1: {}}, 1: {}, 2: {1: {}}})
    False
    >>> cycle_in_rows({v: {v + 1: {}} for v in range(100)} | {100: {}}, budget=10) is None
    True
    """
    state: dict[Any, bool] = {}  # node -> True while on the search path, False when done
    for root in succ:
        if root in state:
            continue
        budget -= 1
        if budget < 0:
            return None
        state[root] = True
        path = [iter(succ[root])]
        nodes = [root]
        while path:
            for w in path[-1]:
                budget -= 1
                if budget < 0:
                    return None
                on_path = state.get(w)
                if on_path:  # an arc back to the path (w == the node itself: a self-loop)
                    return True
                if on_path is None:
                    state[w] = True
                    path.append(iter(succ[w]))
                    nodes.append(w)
                    break
            else:
                state[nodes.pop()] = False
                path.pop()
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
        if _every_node_entered(D):
            return False
        found = cycle_in_rows(D._succ, CYCLE_PROBE_ARCS)
        if found is not None:
            return not found
    if G.any_order.num_self_loops:  # (converts a deferred graph; counted by its scan)
        return False
    return _acyclic(G)
