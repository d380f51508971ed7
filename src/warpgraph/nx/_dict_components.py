"""Weak components straight from a NetworkX graph's dict tables: one parallel pass that joins
each row's node with its neighbours in a shared union-find while the row is read.

A first call of a component function used to convert the graph (row lengths, neighbour ids of
every arc, a CSR, a copy to the device) and then count. For these functions the count is cheap
beside reading the dicts: the conversion's passes and the copy were most of the call (grid:708
on an H100 host: 4.3 ms of conversion for a 0.5-1 ms count). Here the rows are read once, as
:func:`._cpython.adjacency` reads them, and each arc is a ``union`` instead of a store: no row
offsets, no arc array, nothing copied anywhere. The union-find is the lock-free one of
:mod:`warpgraph.algorithms.components.cpu` (hook the larger root under the smaller by
compare-and-swap), so every component's root is its smallest id: the labels numbered by root
are NetworkX's component order (by first node).

A dense undirected graph (:data:`AFFOREST_DEGREE` arcs a node or more) is read in two passes,
as Afforest reads a CSR (:func:`~warpgraph.algorithms.components.cpu.afforest_labels`): each
row's first two entries, then, the largest part found by a sample, only the rows of the nodes
outside it. Every edge is in both its nodes' rows, so an edge out of that part is met in the
other row. H200 host, urand:17 (16 arcs a node), first calls, same-process A/B, median of 9:
``connected_components`` 5.18 -> 4.25 ms, ``number_connected_components`` 4.78 -> 3.37 ms.

It runs on the host on both backends: there is no device work worth starting for a pass that
ends when the reading ends. It applies only to a graph not converted yet (a cached conversion
is counted on its device) of plain ``Graph``/``DiGraph`` dicts that :mod:`._cpython` can read;
anything else returns None and the caller converts as before.
"""

from __future__ import annotations

from functools import partial
from typing import NamedTuple

import numba as nb
import numpy as np
from numba import prange

from ..algorithms.components.cpu import (
    NEIGHBOR_ROUNDS,
    SAMPLES,
    _compress,
    _union,
    canonical_labels,
    largest_sampled_label,
)
from . import _cpython as raw
from . import _dict_probes, _hash_index
from ._dict_layout import _entry, _i64, _prefetch_rows_ahead, _table
from ._hash_index import _position

__all__ = ["DictComponents", "weak_components"]

#: Fewer nodes than this are converted as before (the tables are then read by one thread).
MIN_NODES = 4096


@nb.njit(parallel=True, cache=True)
def _union_rows(
    dicts, dict_type, direct, n, keys, ids, bits, lower_only, comp, first, skip
):  # pragma: no cover - compiled
    """Join row ``i``'s node with the node of each key of the dict at ``dicts[i]`` in ``comp``
    (a key's node: its hash for ``direct``, else its hash's position through the table
    ``keys``/``ids``); with ``lower_only`` only neighbours of smaller id (an undirected graph
    holds each edge in both rows). ``first`` > 0: only each row's first ``first`` live
    entries (the row not checked whole); ``skip`` >= 0: the rows of nodes labelled ``skip``
    are not read. Returns how many rows could not be read so: not a plain combined dict, live
    entries other than its length, or a key hash that is no node's."""
    bad = 0
    rows = dicts.shape[0]
    mask = (np.int64(1) << bits) - 1
    shift = np.uint64(64 - bits)
    for r in prange(rows):
        i = np.int64(r)  # (prange indices may be unsigned: keep the arithmetic signed)
        if skip >= 0 and comp[i] == skip:
            continue
        _prefetch_rows_ahead(dicts, i, rows, dict_type)
        d = dicts[i]
        if _i64(d + 8) != dict_type or _i64(d + 40) != 0:
            bad += 1
            continue
        entries, size, kind, count = _table(d)
        ok = size != 0
        live = 0
        for e in range(count if ok else 0):
            v, h = _entry(entries + size * e, kind)
            if v == 0:  # deleted entry
                continue
            live += 1
            if live == first + 1:
                live = _i64(d + 16)  # (not read whole: taken as its length)
                break
            if h == -1:
                ok = False
                break
            if direct:
                if not 0 <= h < n:
                    ok = False
                    break
                j = h
            else:
                j = _position(h, keys, ids, mask, shift)
                if j < 0:
                    ok = False
                    break
            if j == i or (lower_only and j > i) or comp[j] == comp[i]:
                continue  # (the last: two loads spare a union of one tree, most arcs late on)
            _union(comp, i, j)
        bad += 0 if ok and live == _i64(d + 16) else 1
    return bad


@nb.njit(parallel=True, cache=True)
def _own_ids(n):  # pragma: no cover - compiled
    """``np.arange(n, dtype=np.int32)``, written (and its fresh pages faulted in) by all the
    threads: one thread took 0.24 ms of grid:708's 2.2 ms of joins on a 16-core host."""
    comp = np.empty(n, dtype=np.int32)
    for v in prange(n):
        comp[v] = v
    return comp


@nb.njit(parallel=True, cache=True)
def _count_roots(comp):  # pragma: no cover - compiled
    roots = 0
    for v in prange(comp.shape[0]):
        roots += 1 if comp[v] == v else 0
    return roots


#: Undirected graphs of this many arcs a node or more take the Afforest passes: each row's
#: first :data:`~warpgraph.algorithms.components.cpu.NEIGHBOR_ROUNDS` entries, then the
#: whole rows of the nodes outside the largest component found so far. A row of a sparser
#: graph is one or two cache lines past its header, read as cheaply once as in part.
AFFOREST_DEGREE = 8


def _union_all(G, rows, direct, n, keys, ids, bits, comp) -> bool:
    """Join every arc of ``G``'s rows ``rows`` in ``comp``; False where a row could not be
    read so. An undirected graph holds each edge in both rows, so once each node is joined
    to its first neighbours, the rows of the nodes in the largest component may be skipped
    (Afforest, as :func:`~warpgraph.algorithms.components.cpu.afforest_labels`): an edge out
    of it is met again in the other node's row, which is read whole."""
    undirected = not G.is_directed()
    # (bad rows counted) = join(lower_only, comp, first entries or -1, label skipped or -1)
    join = partial(_union_rows, rows, id(dict), direct, n, keys, ids, bits)
    if undirected and _mean_degree(rows, id(dict)) >= AFFOREST_DEGREE:
        if join(False, comp, NEIGHBOR_ROUNDS, -1):
            return False
        _compress(comp)
        return not join(False, comp, -1, largest_sampled_label(comp, SAMPLES))
    return not join(undirected, comp, -1, -1)


@nb.njit(cache=True)
def _mean_degree(dicts, dict_type):  # pragma: no cover - compiled
    """The mean length of 256 rows spread over ``dicts`` (0 where one is not a dict)."""
    rows = dicts.shape[0]
    step = max(1, rows // 256)
    total = 0
    taken = 0
    for i in range(0, rows, step):
        if _i64(dicts[i] + 8) != dict_type:
            return 0.0
        total += _i64(dicts[i] + 16)
        taken += 1
    return total / max(taken, 1)


class DictComponents(NamedTuple):
    """What :func:`weak_components` found: the number of weak components, their labels by
    dense id (components numbered in NetworkX's order; None unless asked for and there are
    two or more), whether the node labels are the ints ``0..n-1`` in order (``identity``; None
    unless the labels are given), the distinct node hashes by dense id (None for
    ``identity``, or when the labels are not given) and whether the node hashes are
    ``0..n-1`` in ``_adj``'s order (``positions``: then any set of the nodes is laid out
    by those numbers alone, see :mod:`._component_order`)."""

    count: int
    labels: np.ndarray | None
    identity: bool | None
    node_hashes: np.ndarray | None
    positions: bool = False


def weak_components(
    G, labels: bool = True, tables: raw.RowTables | None = None
) -> DictComponents | None:
    """Weak components of the NetworkX ``Graph``/``DiGraph`` ``G``, read from its dicts in
    place (module docstring). Dense id ``i`` is ``G``'s ``i``-th node. None where the tables
    cannot be read so (fewer than :data:`MIN_NODES` nodes or 2**31 or more, not a plain
    graph, the reader unavailable, node hashes not distinct, ``_node`` and ``_adj`` not in
    the same order when ``labels`` are asked for and there are two or more components):
    the caller then converts ``G``. A connected graph's labels are not given: all 0.
    ``tables``: what :func:`._cpython.row_tables` read of ``G._adj``, if the caller has it.

    Examples
    --------
    >>> import networkx as nx
    >>> G = nx.disjoint_union(nx.path_graph(5000), nx.path_graph(3000))
    >>> found = weak_components(G)
    >>> found is None or (found.count, found.labels[4999], found.labels[5000]) == (2, 0, 1)
    True

    Raises
    ------
    TypeError
        When ``G`` is not a NetworkX graph (subclasses are read elsewhere: None).
    """
    import networkx as nx

    if not isinstance(G, nx.Graph):
        raise TypeError(
            f"weak_components reads a NetworkX Graph or DiGraph, got {type(G).__name__}"
        )
    n = len(G)
    if type(G) not in (nx.Graph, nx.DiGraph):
        return None
    found = raw.row_tables(G._adj, MIN_NODES) if tables is None else tables
    if found is None or found.rows.size != n:  # (a row per node of ``_node``)
        return None
    adj_hashes, rows, direct, bits, keys, ids = found
    comp = _own_ids(n)
    if not _union_all(G, rows, direct, n, keys, ids, bits, comp):
        return None
    count = int(_count_roots(comp))
    if not labels or count == 1:  # (one component: every node's label is 0, in any order)
        return DictComponents(count, None, None, None, bool(direct))
    # dense ids must be _node's order: the order of the labels the sets are made of
    identity = direct and _dict_probes.int_range_keys(G._node)
    node_hashes = None
    if not identity:
        if adj_hashes is None:  # (not read: they are the positions)
            adj_hashes = np.arange(n, dtype=np.int64)
        found_node = raw._dict_entries(G._node)
        if found_node is None or _hash_index._hash_mismatches(found_node[0], adj_hashes, True)[1]:
            return None
        node_hashes = adj_hashes
    count, canonical = canonical_labels(comp)
    return DictComponents(count, canonical, bool(identity), node_hashes, bool(direct))
