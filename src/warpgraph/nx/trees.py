"""NetworkX's tree recognition: ``is_tree``, ``is_forest``, ``is_branching`` and
``is_arborescence`` (``networkx.algorithms.tree.recognition``).

Each comes down to counts. With ``S`` the summed lengths of a graph's adjacency rows (a
directed graph's arcs; an undirected graph's edges twice, a self-loop once), ``n`` its nodes
and ``k`` its weak components, the underlying multigraph (NetworkX's ``number_of_edges``, a
self-loop one edge) has at least ``n - k`` edges, exactly that many when it is a forest.
Hence, self-loops needing no count of their own:

- undirected: a forest exactly when ``S == 2 * (n - k)`` (a self-loop adds one entry to ``S``
  and two to twice the edge count, so ``S`` cannot reach ``2 * (n - k)`` with one), a tree
  exactly when ``S == 2 * (n - 1)`` and the graph is connected;
- directed: a forest exactly when ``S == n - k``, a tree when ``S == n - 1`` and the graph is
  weakly connected; a branching or an arborescence when also no node has two arcs in.

NetworkX decides ``is_tree`` after ``G.number_of_edges()``, a Python pass over every node's
degree (urand:17 on 2 cores: 43 ms undirected, 12 ms directed), and ``is_forest`` after a
subgraph per component (seconds). The conversion is deferred for all four
(:data:`.interface.DEFERRED`), and most graphs that are not trees or forests answer from
NetworkX's dicts: ``is_tree`` and ``is_forest`` first look for a cycle near the first node
(:func:`cycle_near`, a few rows: a lattice shows one after three); then ``S`` and the largest
in-degree come from the row lengths read in place (:func:`row_lengths`: the outer dict's entry
table and each row's header, the first rows in order, the rest in parallel, stopping once
``S`` is past what a forest allows or a node has two arcs in). Only then do ``k`` and
connectivity come from the weak components, read in place too where :mod:`._dict_components`
can, else from the conversion.
"""

from __future__ import annotations

import numba as nb
import numpy as np
from numba import prange

from ..cpu.atomics import atomic_add
from ._common import host
from ._dict_components import MIN_NODES
from ._dict_layout import _i64
from ._dict_probes import EMPTY_PREFIX, _plain_table, _row_value
from .components import _count, _is_weakly_connected

__all__ = [
    "cycle_near",
    "is_arborescence",
    "is_branching",
    "is_forest",
    "is_tree",
    "row_lengths",
]

#: Rows per chunk of :func:`row_lengths`' parallel pass (a pass that stops early skips the
#: chunks not begun).
CHUNK_ROWS = 1024
#: No bound (:func:`row_lengths`' defaults).
UNBOUNDED = 2**62


@nb.njit(cache=True)
def _chunk_lengths(entries, size, kind, lo, hi, dict_type):  # pragma: no cover - compiled
    """``(sum, max)`` of the lengths of the dicts held by entries ``lo..hi`` of an entry
    table (deleted entries skipped); ``(-1, -1)`` at a value that is not a plain combined
    dict (then nothing can be said)."""
    at_value = 16 if kind == 0 else 8
    total = 0
    longest = 0
    for e in range(lo, hi):
        v = _row_value(entries, size, at_value, e, hi)
        if v == 0:  # deleted entry
            continue
        if _i64(v + 8) != dict_type or _i64(v + 40) != 0:
            return -1, -1
        length = _i64(v + 16)
        total += length
        longest = max(longest, length)
    return total, longest


@nb.njit(cache=True, parallel=True)
def _lengths_by_chunk(
    entries, size, kind, lo, count, chunk, dict_type, enough, widest, out
):  # pragma: no cover - compiled
    """:func:`_chunk_lengths` of each ``chunk`` entries from ``lo`` into ``out[c]``; once the
    sums so far pass ``enough``, a row is longer than ``widest`` or a value is not a plain
    dict, the chunks not begun are skipped (``out[c]`` ``(0, 0)``; the flag is read per chunk,
    so a late one is only extra work)."""
    total = np.zeros(1, dtype=np.int64)
    stop = np.zeros(1, dtype=np.int64)
    for c in prange(out.shape[0]):
        out[c, 0] = 0
        out[c, 1] = 0
        if stop[0] != 0:
            continue
        a = lo + c * chunk
        s, w = _chunk_lengths(entries, size, kind, a, min(count, a + chunk), dict_type)
        out[c, 0] = s
        out[c, 1] = w
        if s < 0 or w > widest or atomic_add(total, 0, s) + s > enough:
            stop[0] = 1


def row_lengths(
    d: dict, enough: int = UNBOUNDED, widest: int = UNBOUNDED
) -> tuple[int, int] | None:
    """``(sum, max)`` of the lengths of the values of the plain dict ``d`` (a graph's rows:
    ``G._adj``, ``_succ`` or ``_pred``), read in place: the first
    :data:`._dict_probes.EMPTY_PREFIX` entries in order, then the rest in parallel chunks. The
    read stops soon after the sum passes ``enough`` or a row is longer than ``widest`` (often
    within the first entries, before any thread is woken): then the figures are of the rows
    read (not always a prefix), and past that bound (so is the whole). None when ``d``
    cannot be read so (not a plain dict, a value that is not a plain dict, or the raw reader
    unavailable).

    Examples
    --------
    >>> rows = {v: {w: {} for w in range(v % 4)} for v in range(10000)}
    >>> row_lengths(rows) in ((15000, 3), None)  # None where the raw reader is unavailable
    True
    >>> found = row_lengths(rows, enough=100)
    >>> found is None or found[0] > 100
    True
    """
    found = _plain_table(d)
    if found is None:
        return None
    entries, size, kind, count = found
    head = min(count, EMPTY_PREFIX)
    total, longest = _chunk_lengths(entries, size, kind, 0, head, id(dict))
    if total < 0:
        return None
    if total > enough or longest > widest or head == count:
        return int(total), int(longest)
    out = np.empty(((count - head + CHUNK_ROWS - 1) // CHUNK_ROWS, 2), dtype=np.int64)
    with nb.parallel_chunksize(1):
        _lengths_by_chunk(
            entries, size, kind, head, count, CHUNK_ROWS, id(dict), enough - total, widest, out
        )
    if (out[:, 0] < 0).any():
        return None
    return int(total + out[:, 0].sum()), int(max(longest, out[:, 1].max()))


def _row_figures(G, outer: str, enough: int, widest: int = UNBOUNDED) -> tuple[int, int]:
    """``(S, max)``: the summed lengths and the longest of the rows ``outer`` (``"_adj"``,
    or ``"_pred"``: in-degrees) of ``G`` (a conversion, deferred or not). A graph not
    converted yet is read in place (:func:`row_lengths`, which may stop past ``enough`` or
    ``widest``: then the figures are past them too), or, where it cannot be and its rows are a
    plain dict, by Python's ``len`` in C loops; otherwise they come from the conversion."""
    P = G.pending
    rows = None if P is None else getattr(P, outer)
    if type(rows) is dict:
        found = row_lengths(rows, enough, widest) if len(rows) >= MIN_NODES else None
        if found is not None:
            return found
        lengths = list(map(len, rows.values()))  # (a small graph, or no raw reader)
        return sum(lengths), max(lengths, default=0)
    g = G.any_order  # (converts a deferred graph)
    if outer == "_adj":
        return int(g.num_arcs), 0  # (the rows' lengths: an undirected self-loop is one arc)
    indeg = np.bincount(host(g.indices), minlength=len(G))
    return int(g.num_arcs), int(indeg.max(initial=0))


#: Rows :func:`cycle_near` reads before it gives up: a lattice shows a cycle after 3 rows, a
#: graph with triangles after one or two. A row costs 2-10 us on a first call (its objects
#: not in cache; a 1M-node tree on 2 cores: 16 rows 0.07-0.15 ms, against 6-7 ms for its row
#: lengths), so the search is kept short for the graphs where it finds nothing.
CYCLE_PROBE_ROWS = 16
#: Entries :func:`cycle_near` reads per row it may read, at most (all rows together): a hub
#: among the first rows (a star's centre) ends the search before its row is made a set.
CYCLE_PROBE_ENTRIES_PER_ROW = 64


def cycle_near(G, rows: int = CYCLE_PROBE_ROWS) -> bool:
    """Whether a breadth-first search of the underlying undirected multigraph of the plain
    NetworkX graph ``G`` (a directed graph's arcs both ways), from its first node, meets a
    cycle within ``rows`` rows read: an edge to a node found already, other than the one that
    found the node read (a self-loop, or two arcs between two nodes, is a cycle). Each row is
    taken in C (``keys() - found``: its new nodes; the rest is its count of edges back), at most
    :data:`CYCLE_PROBE_ENTRIES_PER_ROW` entries a row on the whole. False says nothing: given
    up, or the first node's component is a tree.

    Examples
    --------
    >>> import networkx as nx
    >>> cycle_near(nx.grid_2d_graph(50, 50)), cycle_near(nx.path_graph(50))
    (True, False)
    >>> cycle_near(nx.DiGraph([(0, 1), (1, 2), (2, 1)]))  # two opposite arcs
    True
    """
    directed = G.is_directed()
    first = next(iter(G._adj), None)
    found, order = {first}, [first]
    entries = CYCLE_PROBE_ENTRIES_PER_ROW * rows
    for step in range(min(rows, len(G))):
        if step == len(order):
            return False  # the component is searched: a tree
        v = order[step]
        tree_edges = 1 if step else 0  # (the edge that found v)
        if directed:
            ahead, behind = G._succ[v], G._pred[v]
            entries -= len(ahead) + len(behind)
            if entries < 0:
                return False
            new, back = ahead.keys() - found, behind.keys() - found
            if not new.isdisjoint(back):  # a new node both ways: two arcs
                return True
            seen = len(ahead) - len(new) + len(behind) - len(back)
            new |= back
        else:
            row = G._adj[v]
            entries -= len(row)
            if entries < 0:
                return False
            new = row.keys() - found
            seen = len(row) - len(new)
        if seen > tree_edges:
            return True
        found |= new
        order.extend(new)
    return False


def _entries_of_forest(G, components: int) -> int:
    """The row entries ``S`` a forest of ``G``'s nodes in ``components`` weak components has:
    its edges twice for an undirected graph, once (its arcs) for a directed one."""
    edges = len(G) - components
    return edges if G.is_directed() else 2 * edges


def _pointless():
    import networkx as nx

    return nx.NetworkXPointlessConcept("G has no nodes.")


def _figures(G, in_degree: bool, most: int) -> tuple[int, int] | None:
    """``(S, largest in-degree or 0)`` of the non-empty graph ``G``, or None when the rows
    read show it is no forest: a cycle near its first node (:func:`cycle_near`, on a graph not
    converted yet, unless ``in_degree``), more than ``most`` entries, or (``in_degree``: read
    from the predecessor rows) a node with two arcs in. NetworkX's errors for the null graph
    and, with ``in_degree``, an undirected graph (NetworkX's decorator refuses it before
    dispatching)."""
    if len(G) == 0:
        raise _pointless()
    if in_degree and not G.is_directed():
        import networkx as nx

        raise nx.NetworkXNotImplemented("not implemented for undirected type")
    P = G.pending  # (with ``in_degree`` the predecessor rows' first lengths mostly answer)
    if not in_degree and P is not None and type(P._adj) is dict and cycle_near(P):
        return None
    widest = 1 if in_degree else UNBOUNDED
    total, longest = _row_figures(G, "_pred" if in_degree else "_adj", most, widest)
    return None if total > most or longest > widest else (total, longest)


def _tree(G, in_degree: bool = False) -> bool:
    """``is_tree``, or, with ``in_degree``, ``is_arborescence``: the row entries of a tree
    (:func:`_entries_of_forest` of one component), then connectivity."""
    want = _entries_of_forest(G, 1)
    found = _figures(G, in_degree, want)
    return found is not None and found[0] == want and _is_weakly_connected(G)


def _forest(G, in_degree: bool = False) -> bool:
    """``is_forest``, or, with ``in_degree``, ``is_branching``: no more row entries than a
    tree has (:func:`_entries_of_forest` of one component; a quick answer for most graphs),
    then the entries of a forest of as many trees as there are weak components."""
    found = _figures(G, in_degree, _entries_of_forest(G, 1))
    return found is not None and found[0] == _entries_of_forest(G, _count(G, "weak"))


def is_tree(G) -> bool:
    """Whether ``G`` is a tree: connected (weakly, for a directed graph) with one edge fewer
    than it has nodes, a self-loop counted once (NetworkX's ``NetworkXPointlessConcept`` for
    the null graph). The conversion is deferred: a graph with other than ``n - 1`` edges
    answers from its row lengths read in place (module docstring).

    Examples
    --------
    >>> import networkx as nx
    >>> nx.is_tree(nx.path_graph(5), backend="warpgraph")
    True
    >>> nx.is_tree(nx.DiGraph([(0, 1), (2, 1)]), backend="warpgraph")
    True
    >>> nx.is_tree(nx.Graph([(0, 1), (2, 2)]), backend="warpgraph")  # n - 1 edges, two parts
    False
    """
    return _tree(G)


def is_forest(G) -> bool:
    """Whether ``G`` has no undirected cycle (a self-loop and two opposite arcs are cycles):
    every weak component has one edge fewer than it has nodes (NetworkX's
    ``NetworkXPointlessConcept`` for the null graph). A graph with ``n`` edges or more
    answers from its row lengths read in place; otherwise the weak components are counted
    (read in place where they can be, else on the conversion).

    Examples
    --------
    >>> import networkx as nx
    >>> G = nx.Graph([(0, 1), (2, 3)])
    >>> G.add_node(4)
    >>> nx.is_forest(G, backend="warpgraph")
    True
    >>> nx.is_forest(nx.DiGraph([(0, 1), (1, 0)]), backend="warpgraph")  # a 2-cycle
    False
    """
    return _forest(G)


def is_branching(G) -> bool:
    """Whether the directed graph ``G`` is a forest (:func:`is_forest`) in which no node has
    two arcs in (a self-loop is an arc in). Both come from the predecessor rows' lengths,
    read in place. NetworkX refuses an undirected graph before dispatching.

    Examples
    --------
    >>> import networkx as nx
    >>> nx.is_branching(nx.DiGraph([(0, 1), (0, 2), (3, 4)]), backend="warpgraph")
    True
    >>> nx.is_branching(nx.DiGraph([(0, 1), (2, 1)]), backend="warpgraph")
    False
    """
    return _forest(G, in_degree=True)


def is_arborescence(G) -> bool:
    """Whether the directed graph ``G`` is a tree (:func:`is_tree`) in which no node has two
    arcs in: a root reaching every node by one path (NetworkX's
    ``NetworkXPointlessConcept`` for the null graph; an undirected graph is refused by
    NetworkX before dispatching).

    Examples
    --------
    >>> import networkx as nx
    >>> nx.is_arborescence(nx.DiGraph([(0, 1), (0, 2), (2, 3)]), backend="warpgraph")
    True
    >>> nx.is_arborescence(nx.DiGraph([(0, 1), (2, 1)]), backend="warpgraph")
    False
    """
    return _tree(G, in_degree=True)
