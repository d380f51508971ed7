"""Functions of NetworkX defined by the strong components and the arcs between them:
``attracting_components``, ``number_attracting_components``, ``is_attracting_component``,
``is_semiconnected``, and ``is_aperiodic`` (defined on a strongly connected graph).

NetworkX computes each through ``condensation`` (a new ``DiGraph`` with a node per strong
component and an attribute per node), seconds on a graph of a million arcs. Here the strong
components are labels (warpgraph's parallel kernel on the GPU; on the CPU, or where NetworkX's
order is needed, the sequential pass of :mod:`.components`, which gives them in NetworkX's
order), and the condensation's arcs are never built: one pass over the arcs marks the
components that an arc leaves (the others attract), and Kahn's peeling over the components
checks that the condensation has one topological order (a path through every component), which
is what ``is_semiconnected`` asks.
"""

from __future__ import annotations

from collections.abc import Iterator

import numpy as np
from numba import njit, prange

from ._common import _small_sets, backend_device, host
from ._component_order import set_if_order_free
from .components import (
    _acyclic,
    _components,
    _is_weakly_connected,
    _pointless,
    _scc_order,
    is_strongly_connected,
    strong_levels,
)

__all__ = [
    "attracting_components",
    "is_aperiodic",
    "is_attracting_component",
    "is_semiconnected",
    "number_attracting_components",
]


@njit(cache=True, nogil=True, parallel=True)
def _left(indptr, heads, label, count):  # pragma: no cover - compiled
    """Per component, whether some arc leaves it (to a node of another component). Threads
    may store the same 1 into one entry: no other value is ever written."""
    left = np.zeros(count, dtype=np.uint8)
    for r in prange(indptr.shape[0] - 1):
        v = np.int64(r)
        c = label[v]
        if left[c]:
            continue
        for p in range(indptr[v], indptr[v + 1]):
            if label[heads[p]] != c:
                left[c] = 1
                break
    return left


@njit(cache=True, nogil=True)
def _one_topological_order(indptr, heads, label, count):  # pragma: no cover - compiled
    """Whether the condensation (a node per component ``label``, an arc where an arc of the
    graph joins two components) has exactly one topological order. Kahn's peeling: that is so
    when, from the start, exactly one component has no arc coming in from the others, and
    removing it leaves exactly one such component again, until none is left (the order is then a
    path through every component, each step an arc of the condensation). Arcs are counted with
    their multiplicity, which changes no zero."""
    n = indptr.shape[0] - 1
    first = np.zeros(count + 1, dtype=np.int64)  # the nodes grouped by component
    for v in range(n):
        first[label[v] + 1] += 1
    for c in range(count):
        first[c + 1] += first[c]
    members = np.empty(n, dtype=np.int64)
    fill = first[:-1].copy()
    indeg = np.zeros(count, dtype=np.int64)
    for v in range(n):
        c = label[v]
        members[fill[c]] = v
        fill[c] += 1
        for p in range(indptr[v], indptr[v + 1]):
            d = label[heads[p]]
            if d != c:
                indeg[d] += 1
    ready = -1
    waiting = 0
    for c in range(count):
        if indeg[c] == 0:
            ready = c
            waiting += 1
    if waiting != 1:
        return False
    for _ in range(count - 1):
        c = ready
        waiting = 0
        for k in range(first[c], first[c + 1]):
            v = members[k]
            for p in range(indptr[v], indptr[v + 1]):
                d = label[heads[p]]
                if d != c:
                    indeg[d] -= 1
                    if indeg[d] == 0:
                        ready = d
                        waiting += 1
        if waiting != 1:  # two unordered components (none cannot happen: no cycle)
            return False
    return True


def _strong_labels(G) -> tuple[int, np.ndarray, tuple | None]:
    """``(count, labels, order)``: the number of strong components, a label per dense id (on
    the host) and, where the labels came from the sequential pass, ``(members, starts)`` in
    NetworkX's order (else None). A graph without a cycle through two nodes has a component per
    node (:func:`.components._acyclic`); on the CPU the labels come from the sequential pass
    (faster there than the parallel kernel), on the GPU from the kernel."""
    n = len(G)
    if _acyclic(G):
        return n, np.arange(n, dtype=np.int64), None
    if backend_device() == "cpu":
        members, starts, label = _scc_order(G)
        return int(starts.size - 1), label, (members, starts)
    count, label = _components(G, "strong")
    return int(count), np.zeros(n, dtype=np.int64) if label is None else label, None


def _arcs(G) -> tuple[np.ndarray, np.ndarray]:
    g = G.any_order
    return host(g.indptr), host(g.indices)


def _sinks(indptr, heads, label, count) -> np.ndarray:
    """The components no arc leaves, ascending."""
    return np.flatnonzero(_left(indptr, heads, label, count) == 0)


def attracting_components(G) -> Iterator[set]:
    """Generator of node sets, one per attracting component (a strong component no arc
    leaves), in NetworkX's order (that of ``strongly_connected_components``). One such
    component needs no order; two or more are taken from the sequential pass that reproduces
    NetworkX's order (run once: on the CPU it gave the labels already). Sets from that pass are
    built with their members added in NetworkX's order, so they iterate as NetworkX's; one
    component labelled by the GPU kernel is built in id order where its set iterates alike
    whatever the order (:func:`._component_order.set_if_order_free`), else from that pass."""
    indptr, heads = _arcs(G)
    count, label, order = _strong_labels(G)
    sinks = _sinks(indptr, heads, label, count)
    one = None
    if sinks.size == 1 and order is None:  # (the GPU's labels: members in id order, kept
        one = set_if_order_free(G, np.flatnonzero(label == sinks[0]))  # where order is free)
    if one is not None:
        sets = [one]
    else:
        if order is None:
            members, starts, label = _scc_order(G)
            sinks = _sinks(indptr, heads, label, starts.size - 1)
        else:
            members, starts = order
        parts = [members[starts[c] : starts[c + 1]] for c in sinks.tolist()]
        bounds = np.zeros(len(parts) + 1, dtype=np.int64)
        np.cumsum([p.size for p in parts], out=bounds[1:])
        ids = np.concatenate(parts) if parts else members[:0]
        sets = _small_sets(G, ids, bounds)  # (added in NetworkX's order: it iterates so)
    yield from sets


def number_attracting_components(G) -> int:
    """Number of attracting components (strong components that no arc leaves)."""
    indptr, heads = _arcs(G)
    count, label, _ = _strong_labels(G)
    return count - int(np.count_nonzero(_left(indptr, heads, label, count)))


def is_attracting_component(G) -> bool:
    """Whether the whole graph is one attracting component: whether it is strongly connected
    (False for the null graph, which has no component, as NetworkX answers). The conversion is
    deferred, as for ``is_strongly_connected``."""
    return len(G) > 0 and is_strongly_connected(G)


def is_semiconnected(G) -> bool:
    """Whether of any two nodes one reaches the other: the graph is weakly connected and its
    condensation has one topological order (NetworkX's error for the null graph). Two nodes
    without an arc in from another node (or two without one out) are two components with
    none in (or out), unordered: False without the strong components."""
    if len(G) == 0:
        raise _pointless()
    if not _is_weakly_connected(G):
        return False
    indptr, heads = _arcs(G)
    no_in, no_out = _lonely_ends(indptr, heads)
    if no_in > 1 or no_out > 1:
        return False
    count, label, _ = _strong_labels(G)
    return count == 1 or bool(_one_topological_order(indptr, heads, label, count))


@njit(cache=True, nogil=True, parallel=True)
def _mark_ends(indptr, heads, reached, leaves):  # pragma: no cover - compiled
    """``reached[w] = 1`` for every node with an arc in from another node, ``leaves[v] = 1``
    for every node with an arc out to another node (only 1 is ever stored, by any thread).
    (Flags, not reductions: Numba 0.68.0 failed to compile a per-node flag summed in the
    loop.)"""
    for r in prange(indptr.shape[0] - 1):
        v = np.int64(r)
        for p in range(indptr[v], indptr[v + 1]):
            w = heads[p]
            if w != v:
                reached[w] = 1
                leaves[v] = 1


def _lonely_ends(indptr: np.ndarray, heads: np.ndarray) -> tuple[int, int]:
    """The numbers of nodes with no arc in from another node and with no arc out to another
    node (self-loops aside)."""
    n = indptr.size - 1
    reached, leaves = np.zeros(n, dtype=np.uint8), np.zeros(n, dtype=np.uint8)
    _mark_ends(indptr, heads, reached, leaves)
    return n - int(np.count_nonzero(reached)), n - int(np.count_nonzero(leaves))


@njit(cache=True, nogil=True)
def _gcd(a, b):  # pragma: no cover - compiled
    while b:
        a, b = b, a % b
    return a


@njit(cache=True, nogil=True, parallel=True)
def _period(indptr, heads, level, chunks):  # pragma: no cover - compiled
    """The greatest common divisor of ``level[u] + 1 - level[v]`` over the arcs ``u -> v``
    (0 with no arc or every term 0), each of ``chunks`` row ranges reduced by one thread."""
    n = indptr.shape[0] - 1
    found = np.zeros(chunks, dtype=np.int64)
    for c in prange(chunks):
        g = np.int64(0)
        for u in range(c * n // chunks, (c + 1) * n // chunks):
            for p in range(indptr[u], indptr[u + 1]):
                g = _gcd(g, abs(level[u] + 1 - level[heads[p]]))
        found[c] = g
    g = np.int64(0)
    for c in range(chunks):
        g = _gcd(g, found[c])
    return g


def is_aperiodic(G) -> bool:
    """Whether the strongly connected directed graph ``G`` is aperiodic, as NetworkX (3.6)
    decides it: with ``level`` the breadth-first distance from the first node, the greatest
    common divisor of ``level[u] + 1 - level[v]`` over every arc is 1 (the arcs of the search
    tree add 0; Jarvis and Shier's rule, which NetworkX follows). Here the distances are the
    forward BFS (on the device) that the strong check runs anyway, and the divisor one
    parallel pass over the arcs. NetworkX's errors for an undirected graph, the null graph
    and one not strongly connected (checked first, deferred as ``is_strongly_connected``: most
    such graphs fail on rows read in place, unconverted). NetworkX before 3.6 searches the
    rest of a graph that is not strongly connected in its own order: run there in NetworkX
    (``can_run``)."""
    import networkx as nx

    if not G.is_directed():
        raise nx.NetworkXError("is_aperiodic not defined for undirected graphs")
    if len(G) == 0:
        raise nx.NetworkXPointlessConcept("Graph has no nodes.")
    level = strong_levels(G)  # (the strong check's own forward search)
    if level is None:
        raise nx.NetworkXError("Graph is not strongly connected.")
    level = level.astype(np.int64, copy=False)
    indptr, heads = _arcs(G)
    chunks = max(1, min(64, indptr.size // 4096))
    return int(_period(indptr, heads, level, chunks)) == 1
