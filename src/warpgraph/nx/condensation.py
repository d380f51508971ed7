"""NetworkX's ``condensation``: each strong component contracted to one node.

NetworkX numbers the components ``0..k-1`` in the order ``strongly_connected_components``
yields them, maps every node to its component (``C.graph["mapping"]``, component by component,
each in its set's iteration order), gives each node of ``C`` the attribute ``members`` (the
component's set) and adds the arcs ``(mapping[u], mapping[v])`` of ``G.edges()`` between two
components, in that order (a repeated one once). Here:

1. the components come from the sequential replay of NetworkX's Tarjan/Nuutila loop
   (:func:`.components._scc_order`: members in the order NetworkX adds them to its set);
2. each set is built as NetworkX builds it: empty, then its members added one at a time in
   that order (:func:`._common._small_sets`: compiled through the C API, or ``set(list)``), so
   that it iterates as NetworkX's does. (``strongly_connected_components`` makes a component of
   more than half the nodes from the graph's node set instead: equal, but a set of another
   table size iterates in another order, which would reorder ``mapping``'s keys);
3. one compiled pass (:func:`_condensed_arcs`) finds the arcs between components, each at its
   first occurrence in ``G.edges()`` order, grouped by tail (``C._succ``'s rows) and, for
   ``C._pred``'s rows, by head in order of first occurrence;
4. ``C``'s dicts are made by C-level iterators (``map``/``zip``/``chain``, no bytecode per
   node or arc): one new data dict per arc, shared by its successor and predecessor entries.

A given ``scc`` runs in NetworkX (``can_run``): NetworkX keeps the user's component objects and
takes any iterable, partition or not, and its errors come from the edges that meet a node it
does not map.
"""

from __future__ import annotations

from itertools import chain, repeat
from typing import Any

import numpy as np
from numba import njit

from ._common import _small_sets, gc_paused, host, split_list
from ._results import _row_order
from .components import _scc_order

__all__ = ["condensation"]


@njit(cache=True, nogil=True)
def _condensed_arcs(indptr, heads, label, by_comp, k):  # pragma: no cover - compiled
    """The arcs of NetworkX's condensation over dense ids (``heads`` in NetworkX's adjacency
    order, ``label`` each node's component of ``k``, ``by_comp`` the nodes grouped by
    component, each group in node order): each arc between two components at its first
    occurrence in ``G.edges()`` order (tails in node order, each row in order).

    Returns ``(tails, heads, by_first)``: the arcs grouped by tail component in increasing
    order, within a tail in order of first occurrence (``C._succ``'s rows), and their
    positions in order of first occurrence (``C._pred``'s order within a head)."""
    m = indptr[label.shape[0]]
    # per tail component, the head components in order of first occurrence: a head is new
    # while its mark is not this tail (each arc is read once)
    mark = np.full(k, -1, dtype=np.int64)
    tails = np.empty(m, dtype=np.int64)
    to = np.empty(m, dtype=np.int64)
    at = np.empty(m, dtype=np.int64)  # the arc's position in G.edges()
    found = 0
    for u in by_comp:
        cu = label[u]
        for a in range(indptr[u], indptr[u + 1]):
            cv = label[heads[a]]
            if cv != cu and mark[cv] != cu:
                mark[cv] = cu
                tails[found] = cu
                to[found] = cv
                at[found] = a
                found += 1
    which = np.full(m, -1, dtype=np.int64)  # (a scan of the positions sorts them)
    for e in range(found):
        which[at[e]] = e
    by_first = np.empty(found, dtype=np.int64)
    j = 0
    for a in range(m):
        if which[a] >= 0:
            by_first[j] = which[a]
            j += 1
    return tails[:found], to[:found], by_first


def _rows(keys: list, values: list, cuts: np.ndarray) -> map:
    """``dict(zip(keys[lo:hi], values[lo:hi]))`` for each ``lo, hi`` of ``cuts``, lazily, by
    C-level iterators."""
    return map(dict, map(zip, split_list(keys, cuts), split_list(values, cuts)))


def condensation(G, scc: Any = None):
    """NetworkX's ``condensation``: a new ``DiGraph`` of the strong components of ``G``,
    exactly as NetworkX builds it (module docstring): nodes ``0..k-1`` in
    ``strongly_connected_components``' order with the attribute ``members``,
    ``C.graph["mapping"]`` with keys in NetworkX's order, the arcs between components in
    ``G.edges()`` order, each once. ``scc`` must be None (a given one runs in NetworkX:
    ``can_run``).

    Examples
    --------
    >>> import networkx as nx
    >>> G = nx.DiGraph([(0, 1), (1, 0), (1, 2), (2, 3), (3, 2)])
    >>> C = nx.condensation(G, backend="warpgraph")
    >>> C.graph["mapping"], list(C.edges), C.nodes[0]["members"]
    ({2: 0, 3: 0, 0: 1, 1: 1}, [(1, 0)], {2, 3})
    """
    import networkx as nx

    if scc is not None:  # (can_run declines it; a direct call gets the same answer)
        from ._common import not_implemented

        raise not_implemented("a given scc runs in NetworkX")
    C = nx.DiGraph()
    mapping: dict = {}
    C.graph["mapping"] = mapping
    n = len(G)
    if n == 0:
        return C
    members, starts, label = _scc_order(G)
    k = starts.size - 1
    indptr = host(G.any_order.indptr)
    by_comp = _row_order(label, label, k, False)  # (a stable counting sort by component)
    tails, heads, by_first = _condensed_arcs(indptr, G.nx_order.astype(np.int64), label,
                                             by_comp, k)  # fmt: skip
    by_head = by_first[_row_order(heads[by_first], heads, k, False)]  # (stably by head)
    with gc_paused():
        sets = _small_sets(G, members, starts)  # (made as NetworkX makes them: same order)
        comp_of = chain.from_iterable(map(repeat, range(k), np.diff(starts).tolist()))
        mapping.update(zip(chain.from_iterable(sets), comp_of, strict=True))
        comps = list(range(k))
        attrs = map(dict, zip(zip(repeat("members"), sets, strict=False)))  # {"members": set}
        C._node.update(zip(comps, attrs, strict=True))
        data = list(map(dict, repeat((), tails.size)))  # one per arc, shared by both rows
        cuts = np.searchsorted(tails, np.arange(k + 1))
        C._succ.update(zip(comps, _rows(heads.tolist(), data, cuts), strict=True))
        into = heads[by_head]
        cuts = np.searchsorted(into, np.arange(k + 1))
        pred = _rows(tails[by_head].tolist(), list(map(data.__getitem__, by_head.tolist())), cuts)
        C._pred.update(zip(comps, pred, strict=True))
    return C
