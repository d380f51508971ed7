"""Connected components of NetworkX, with NetworkX's result types and order.

NetworkX yields connected (and weakly connected) components by their first node in node order;
here the labels come from warpgraph's components kernel, or, on a graph not converted yet, from
a union-find run while its dicts are read (:mod:`._dict_components`), and the sets are yielded
in the same order. Strongly connected components come in the order of NetworkX's own DFS
(Tarjan with Nuutila's changes; the order a component completes), which one sequential Numba
pass over the NetworkX-ordered adjacency reproduces exactly; their number alone comes from the
parallel kernel.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import numpy as np
from numba import njit, prange

from ..cpu.atomics import atomic_add
from . import _short_reach
from ._common import (
    _small_sets,
    backend_device,
    gc_paused,
    host,
)
from ._component_order import (
    component_of,
    component_sets,
    every_component_set,
    labels_surely_not_ids,
    set_in_search_order,
)

__all__ = [
    "connected_components",
    "is_connected",
    "is_strongly_connected",
    "is_weakly_connected",
    "node_connected_component",
    "number_connected_components",
    "number_strongly_connected_components",
    "number_weakly_connected_components",
    "strongly_connected_components",
    "weakly_connected_components",
]


#: ``node_connected_component`` of a graph not converted yet first searches the node's
#: component on the dicts in place, and gives up for the components pass over the whole graph
#: once the workers have read about 1/64 of the rows. A component of a few percent of a large
#: graph is then found at its own cost, as NetworkX's search finds it (2 cores, 5k nodes of a
#: 500k-node, 2M-edge graph: NetworkX 10 ms, the whole pass 88 ms), and a connected graph pays
#: 1/64 of a search of every row on top of the pass.
SMALL_COMPONENT_SHARE = 64
#: Before that, the compiled search of the dicts from the node (:mod:`._short_reach`) looks
#: for a component of at most this many other nodes; past it, it gives up for the search in
#: place (the short searches' one bound).
SHORT_COMPONENT_NODES = _short_reach.SHORT_SEARCH_NODES


def _read_in_place(G, labels: bool, tables=None):
    """Weak components of a graph not converted yet, read from its NetworkX dicts
    (:func:`._dict_components.weak_components`, given the ``tables`` of its ``_adj`` if read
    already; the labels adopted where there are two or more components), or None when it was
    converted or its dicts cannot be read so."""
    P = G.pending
    if P is None:
        return None
    from ._dict_components import weak_components

    found = weak_components(P, labels, tables)
    if found is not None and found.labels is not None:
        G.adopt_labels(found.identity, found.node_hashes)
    elif found is not None:  # (for the order of the one component's set: _component_order)
        G.__dict__["_hashes_are_positions"] = found.positions
    return found


def _components(
    G,
    connection: str = "weak",
    *,
    labels: bool = True,
    in_place: bool = True,
    convert: bool = True,
    tables=None,
) -> tuple[int | None, Any]:
    """Number of components and a label per dense id (on the host). The labels are None
    without ``labels`` and when there is one component (every node's label is then 0):
    nothing is copied back from the GPU. Weak components of a graph not converted yet are
    read from its dicts in place (``in_place``; :func:`_read_in_place`), otherwise they come
    from warpgraph's kernels on the backend's device. Weak components are kept on ``G`` (the
    conversion NetworkX caches, and clears when the graph changes): the next call on the
    unchanged graph only builds its result. Without ``convert``, ``(None, None)`` where the
    graph would have to be converted. ``tables``: :func:`._cpython.row_tables` of the pending
    graph's ``_adj``, if read already."""
    weak = connection == "weak"
    known = G.__dict__.get("_weak_components") if weak else None
    if known is not None and (known[2] or not labels):
        return known[0], known[1] if labels else None
    found = _read_in_place(G, labels, tables) if weak and in_place else None
    if found is not None:
        count, ids = found.count, found.labels
    elif not convert and G.pending is not None:
        return None, None
    else:
        from ..algorithms.components import connected_components as _cc

        dev = backend_device()
        count, ids = _cc(G.on(dev, any_order=True), connection=connection, device=dev)
        count = int(count)
        ids = host(ids) if labels and count > 1 else None
    if weak:
        G.__dict__["_weak_components"] = (count, ids, labels)
    return count, ids


def _count(G, connection: str) -> int:
    return _components(G, connection, labels=False)[0]


def _is_weakly_connected(G) -> bool:
    """One weak component (NetworkX's error for the null graph). A graph not converted yet
    is read in place; where it cannot be, a node without neighbours among two or more answers
    False before the conversion."""
    if len(G) == 0:
        raise _pointless()
    count = _components(G, "weak", labels=False, convert=False)[0]
    if count is None:
        if len(G) > 1 and _isolated_node(G.pending):
            return False
        count = _components(G, "weak", labels=False, in_place=False)[0]
    return count == 1


def _component_sets(G) -> Iterator[set]:
    """NetworkX's components, each set iterating as NetworkX's (:mod:`._component_order`)."""
    if labels_surely_not_ids(G):  # (every set in NetworkX's order: one sequential pass)
        yield from every_component_set(G)
        return
    count, labels = _components(G, "weak")  # (canonical labels: NetworkX's component order)
    yield from component_sets(G, labels, count)


def _pointless() -> Exception:
    import networkx as nx

    return nx.NetworkXPointlessConcept("Connectivity is undefined for the null graph.")


# ---------------------------------------------------------------- undirected
def connected_components(G) -> Iterator[set]:
    """Generator of node sets, one per component, in NetworkX's order (by first node)."""
    return _component_sets(G)


def number_connected_components(G) -> int:
    """Number of connected components."""
    return _count(G, "weak")


def is_connected(G) -> bool:
    """Whether the graph is connected (NetworkX's error for the null graph)."""
    return _is_weakly_connected(G)


@gc_paused()
def node_connected_component(G, n: Any) -> set:
    """The set of nodes in ``n``'s component (``KeyError`` for a missing node, as NetworkX),
    iterating as NetworkX's. On a graph not converted yet, a component of a few hundred nodes
    is found by the compiled search of its dicts (:func:`._short_reach.reach`, in NetworkX's
    order: no pass over the whole graph), a larger one by a search in place, else by the
    components pass."""
    P = G.pending  # (a membership test of the conversion would convert now)
    if not (n in G if P is None else n in P):
        raise KeyError(n)
    if P is not None and "_weak_components" not in G.__dict__:
        # (a few hundred nodes found at ~0.1-0.2 us each, where any pass over the whole
        # graph reads every node: 0.43 ms for a 3-node component of grid:708's 501k, 8.7 ms
        # with str labels, against NetworkX's 6 us; 2 cores)
        near = _short_reach.reach(P._adj, n, SHORT_COMPONENT_NODES, with_source=True)
        if near is not _short_reach.UNREADABLE and near is not _short_reach.GAVE_UP:
            return near
    small, tables = _small_component(G, n)
    if small is not None:
        return set_in_search_order(small, G.pending._adj, n)
    # (labels that are surely not ids need the conversion for NetworkX's order of the set:
    # the components come from it, not from a pass over the dicts first)
    in_place = not labels_surely_not_ids(G)
    labels = _components(G, "weak", tables=tables, in_place=in_place)[1]
    ids = None if labels is None else np.flatnonzero(labels == labels[G.find(n)])
    return component_of(G, n, ids)  # (None: connected)


def _small_component(G, n: Any) -> tuple[set | None, Any]:
    """``(component, tables)``: ``n``'s component searched in place on the ``_adj`` of a
    ``Graph`` not converted yet, whose components are not known (:mod:`._dict_reach`), or None
    once a worker has read its share of :data:`SMALL_COMPONENT_SHARE` of the rows; ``tables``:
    what :func:`._cpython.row_tables` read of ``_adj`` (None if nothing), for the components
    pass that follows."""
    from ._dict_reach import reach

    tables, workers, limit = small_component_search(G)
    if tables is None:
        return None, None
    found = reach(G.pending._adj, hash(n), workers, limit, tables, want="set")
    if found is not None:
        found.add(n)  # (the search leaves the source out)
    return found, tables


def small_component_search(G) -> tuple[Any, int, int]:
    """``(tables, workers, row_limit)`` of a search of one component of ``G`` in place before
    the components pass (:func:`_small_component`, an undirected ``descendants``): the
    ``_adj`` of a ``Graph`` not converted yet whose components are not known, what
    :func:`._cpython.row_tables` read of it, and each of Numba's workers reading at most its
    share of :data:`SMALL_COMPONENT_SHARE` of the rows; ``(None, 0, 0)`` where there is none
    to make."""
    import networkx as nx
    from numba import get_num_threads

    from . import _cpython as raw
    from ._dict_reach import MIN_NODES

    P = G.pending
    if P is None or type(P) is not nx.Graph or "_weak_components" in G.__dict__:
        return None, 0, 0
    tables = raw.row_tables(P._adj, MIN_NODES)
    if tables is None:
        return None, 0, 0
    workers = get_num_threads()
    return tables, workers, max(1, len(P) // (SMALL_COMPONENT_SHARE * workers))


# ---------------------------------------------------------------- directed
def weakly_connected_components(G) -> Iterator[set]:
    """Generator of node sets, one per weak component, in NetworkX's order (by first node)."""
    return _component_sets(G)


def number_weakly_connected_components(G) -> int:
    """Number of weakly connected components."""
    return _count(G, "weak")


def is_weakly_connected(G) -> bool:
    """Whether the directed graph is weakly connected (NetworkX's error for the null graph)."""
    return _is_weakly_connected(G)


@njit(cache=True, nogil=True)
def _nx_scc(indptr, heads, n):  # pragma: no cover - compiled
    """NetworkX's ``strongly_connected_components`` loop over dense ids: the members of each
    component in the order NetworkX adds them, where each component starts, a label per id."""
    preorder = np.zeros(n, dtype=np.int64)
    lowlink = np.zeros(n, dtype=np.int64)
    found = np.zeros(n, dtype=np.bool_)
    cursor = indptr[:-1].copy()  # NetworkX's per-node neighbour iterator
    stack = np.empty(n, dtype=np.int64)  # NetworkX's ``queue`` (the DFS path)
    waiting = np.empty(n, dtype=np.int64)  # NetworkX's ``scc_queue``
    members = np.empty(n, dtype=np.int64)
    starts = np.empty(n + 1, dtype=np.int64)
    label = np.empty(n, dtype=np.int64)
    counter = 0
    nw = 0
    nm = 0
    ncomp = 0
    for source in range(n):
        if found[source]:
            continue
        top = 0
        stack[0] = source
        top = 1
        while top > 0:
            v = stack[top - 1]
            if preorder[v] == 0:
                counter += 1
                preorder[v] = counter
            done = True
            while cursor[v] < indptr[v + 1]:
                w = heads[cursor[v]]
                cursor[v] += 1
                if preorder[w] == 0:
                    stack[top] = w
                    top += 1
                    done = False
                    break
            if not done:
                continue
            low = preorder[v]
            for k in range(indptr[v], indptr[v + 1]):
                w = heads[k]
                if not found[w]:
                    if preorder[w] > preorder[v]:
                        low = min(low, lowlink[w])
                    else:
                        low = min(low, preorder[w])
            lowlink[v] = low
            top -= 1
            if low == preorder[v]:
                starts[ncomp] = nm
                members[nm] = v
                nm += 1
                found[v] = True
                label[v] = ncomp
                while nw > 0 and preorder[waiting[nw - 1]] > preorder[v]:
                    nw -= 1
                    x = waiting[nw]
                    members[nm] = x
                    nm += 1
                    found[x] = True
                    label[x] = ncomp
                ncomp += 1
            else:
                waiting[nw] = v
                nw += 1
    starts[ncomp] = nm
    return members, starts[: ncomp + 1], label


def _scc_order(G):
    return _nx_scc(host(G.any_order.indptr), G.nx_order.astype(np.int64), len(G))


def strongly_connected_components(G) -> Iterator[set]:
    """Generator of node sets, one per strong component, in exactly NetworkX's order. Each set
    is built as NetworkX builds it, its members added one at a time in NetworkX's order
    (:func:`._common._small_sets`, no shortcut for a giant component), so it also iterates as
    NetworkX's does: NetworkX's own ``condensation``, which is not dispatched automatically
    (it returns a graph), lists ``mapping``'s keys in that order when it calls this one."""
    members, starts, _ = _scc_order(G)
    sets = _small_sets(G, members, starts)
    yield from sets


#: Arcs a depth-first search may follow looking for a cycle before in-degree peeling decides
#: (:func:`_acyclic`): a graph with a large strong component shows a cycle within a few
#: hundred arcs.
CYCLE_SEARCH_ARCS = 1 << 14


@njit(cache=True, nogil=True)
def _cycle_found(indptr, heads, n, budget):  # pragma: no cover - compiled
    """Whether a depth-first search from node 0 on, following at most ``budget`` arcs, meets an
    arc back to a node on its path (self-loops aside): then the graph has a cycle."""
    state = np.zeros(n, dtype=np.uint8)  # 0 unseen, 1 on the path, 2 done
    stack = np.empty(n, dtype=np.int64)
    cursor = np.empty(n, dtype=np.int64)
    for s in range(n):
        if state[s]:
            continue
        top = 0
        stack[0] = s
        cursor[0] = indptr[s]
        state[s] = 1
        while top >= 0:
            v = stack[top]
            p = cursor[top]
            if p == indptr[v + 1]:
                state[v] = 2
                top -= 1
                continue
            budget -= 1
            if budget < 0:
                return False
            cursor[top] = p + 1
            w = heads[p]
            if w == v:
                continue
            if state[w] == 1:
                return True
            if state[w] == 0:
                top += 1
                stack[top] = w
                cursor[top] = indptr[w]
                state[w] = 1
    return False


@njit(cache=True, nogil=True, parallel=True)
def _one_way(indptr, heads, loops_block):  # pragma: no cover - compiled
    """1 when every arc goes to a higher id, -1 when every arc goes to a lower one, 0
    otherwise: then the node order, or its reverse, is a topological order (self-loops aside;
    with ``loops_block`` a self-loop goes both ways, so 0). One parallel pass."""
    up = 0
    down = 0
    for r in prange(indptr.shape[0] - 1):
        v = np.int64(r)
        for p in range(indptr[v], indptr[v + 1]):
            w = np.int64(heads[p])
            up += 1 if w > v or (loops_block and w == v) else 0
            down += 1 if w < v or (loops_block and w == v) else 0
    return 1 if down == 0 else -1 if up == 0 else 0


@njit(cache=True, nogil=True, parallel=True)
def _in_degrees(indptr, heads, indeg):  # pragma: no cover - compiled
    for r in prange(indptr.shape[0] - 1):
        v = np.int64(r)
        for p in range(indptr[v], indptr[v + 1]):
            w = heads[p]
            if w != v:
                atomic_add(indeg, w, 1)


@njit(cache=True, nogil=True)
def _sources_into(indeg, out):  # pragma: no cover - compiled
    """The nodes without arcs in (``indeg`` 0), in id order, written to the front of ``out``;
    returns how many: where Kahn's peeling starts."""
    found = 0
    for v in range(indeg.shape[0]):
        if indeg[v] == 0:
            out[found] = v
            found += 1
    return found


@njit(cache=True, nogil=True)
def _peel(indptr, heads, indeg):  # pragma: no cover - compiled
    """How many nodes go when nodes without in-arcs (``indeg``, self-loops aside) are removed
    again and again (Kahn's order); ``indeg`` is used up."""
    n = indeg.shape[0]
    stack = np.empty(n, dtype=heads.dtype)
    top = _sources_into(indeg, stack)
    removed = 0
    while top:
        top -= 1
        v = stack[top]
        removed += 1
        for p in range(indptr[v], indptr[v + 1]):
            w = heads[p]
            if w != v:
                indeg[w] -= 1
                if indeg[w] == 0:
                    stack[top] = w
                    top += 1
    return removed


def _peels_away(indptr: np.ndarray, heads: np.ndarray, n: int) -> bool:
    """Whether in-degree peeling removes every node: then no cycle joins two nodes."""
    indeg = np.zeros(n, dtype=heads.dtype)
    _in_degrees(indptr, heads, indeg)
    return int(_peel(indptr, heads, indeg)) == n


def _acyclic(G) -> bool:
    """Whether no cycle joins two nodes of the converted directed graph ``G`` (self-loops
    allowed): then every node is its own strong component. A bounded depth-first search
    rejects most cyclic graphs after a few arcs; a graph whose arcs all go one way in node
    order (nodes numbered in a topological order, as a growing network or a DAG built in
    order is) is acyclic after one parallel pass; in-degree peeling decides the rest in
    one sequential pass (grid:708 oriented low to high, 501k nodes: 4.9 ms on 2 cores,
    against ~50 ms for the strong components themselves)."""
    g = G.any_order
    indptr, heads, n = host(g.indptr), host(g.indices), len(G)
    if n == 0 or _cycle_found(indptr, heads, n, CYCLE_SEARCH_ARCS):
        return n == 0
    return _one_way(indptr, heads, False) != 0 or _peels_away(indptr, heads, n)


def number_strongly_connected_components(G) -> int:
    """Number of strongly connected components: ``len(G)`` for a graph with no cycle
    (:func:`_acyclic`, on the host: the GPU's parallel rounds take as many steps as the graph
    is deep), else the Numba pass on the CPU and the parallel SCC kernel on the GPU."""
    if _acyclic(G):
        return len(G)
    if backend_device() == "cpu":  # one sequential pass beats the parallel kernel on a CPU
        return int(_scc_order(G)[1].size - 1)
    return _count(G, "strong")


def is_strongly_connected(G) -> bool:
    """Whether the directed graph is strongly connected: no node without in- or out-arcs, and
    every node reached from node 0 both ways. The conversion is deferred for this function:
    the first check reads the source's rows in place, and a graph failing it is never
    converted."""
    if len(G) == 0:
        raise _pointless()
    return strong_levels(G) is not None


def strong_levels(G) -> np.ndarray | None:
    """The breadth-first distances from node 0 (on the host) when the non-empty directed
    graph ``G`` is strongly connected, else None (:func:`is_strongly_connected`'s checks; the
    distances are its forward search's, for ``is_aperiodic``)."""
    n = len(G)
    if n == 1:
        return np.zeros(1, dtype=np.int64)
    empty = None if G.pending is None else _empty_row(G.pending)
    if empty:
        return None
    g = G.any_order
    if empty is None:  # (the rows were not read in place: the same check on the conversion)
        indptr = host(g.indptr)
        heads = host(g.indices)
        if not np.diff(indptr).all() or np.bincount(heads, minlength=n).min() == 0:
            return None
    forward = bfs_levels(G, g, "any_order", 0)
    if (forward < 0).any():
        return None
    backward = bfs_levels(G, _transpose(G), "reversed", 0)
    return None if (backward < 0).any() else forward


#: Graphs of this many arcs a node or more are searched by warpgraph's parallel
#: direction-optimizing BFS; sparser ones, often deep (lattices, roads, meshes: one parallel
#: step per layer would cost more than the layer), by one sequential compiled pass whose wide
#: layers go to the GPU on the GPU backend. 2 cores: urand:17 (8 arcs a node) 2.3 ms parallel
#: against 10 ms sequential; grid:708 oriented (2 arcs a node, ~1,400 layers) 16 against 5 ms.
SHALLOW_DEGREE = 4


def bfs_levels(G, rows: Any, key: str, source: int) -> np.ndarray:
    """Hop distances from dense id ``source`` over ``rows`` (the converted graph ``G``'s arcs
    in some order, a :class:`warpgraph.Graph`, cached on the device under ``key``) on the host,
    -1 where unreached: warpgraph's parallel BFS on the backend's device from
    :data:`SHALLOW_DEGREE` arcs a node, else the sequential pass (its wide layers on the GPU
    on the GPU backend; no order is owed here)."""
    n = len(G)
    if rows.num_arcs >= SHALLOW_DEGREE * n:
        from ..algorithms.bfs.api import bfs

        dev = backend_device()
        return host(bfs(G.on(dev, rows), source, device=dev))
    from .traversal import search_rows

    ids = np.array([source], dtype=np.int64)
    order, _, starts = search_rows(G, host(rows.indptr), host(rows.indices), key, ids)
    levels = np.full(n, -1, dtype=np.int32)
    levels[order] = np.repeat(np.arange(starts.size - 1, dtype=np.int32), np.diff(starts))
    return levels


def _plain(G) -> bool:
    import networkx as nx

    return type(G) in (nx.Graph, nx.DiGraph)


def _empty_row(D) -> bool | None:
    """Whether some node of the plain ``DiGraph`` ``D`` has no successor or no predecessor,
    from its rows read in place; None when they cannot be read so (the full check runs)."""
    from . import _dict_probes as probes

    if not _plain(D) or not D.is_directed():
        return None
    rows = (D._succ, D._pred)  # the heads of both first: a sink or a source may come early
    head = probes.EMPTY_PREFIX  # then the rest of each, in parallel, the heads not re-read
    found = [probes.has_empty_value(r, stop=head) for r in rows]
    if any(found):
        return True
    found += [probes.has_empty_value(r, start=head, sequential=0) for r in rows]
    return True if any(found) else (None if None in found else False)


def _isolated_node(G) -> bool:
    """Whether some node of the plain graph ``G`` has no arc at all (neither way), from its
    rows read in place; False when they cannot be read so (the full check runs)."""
    if not _plain(G):
        return False
    from . import _dict_probes as probes

    if not G.is_directed():
        return bool(probes.has_empty_value(G._adj))
    return bool(probes.has_isolated_node(G._succ, G._pred))  # (None: the full check runs)


def _transpose(G):
    """The reversed graph, cached on the converted graph."""
    rev = G._placed.get("transpose")
    if rev is None:
        rev = G._placed["transpose"] = G.any_order.transpose()
    return rev
