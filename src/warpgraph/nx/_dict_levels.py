"""Distances from one node of a NetworkX graph, searched layer by layer on its dicts in place.

``closeness_centrality(G, u)`` and ``eccentricity(G, v)`` of one node need three numbers of
one breadth-first search: the nodes reached, the sum of their distances and the largest.
Converting a graph of a million edges first costs more than the search itself (2 cores,
urand:17: conversion 9.5-10.3 ms, then the search 2-5 ms; a 16-thread host: ~2 ms of its
3.3-4.9 ms first calls). Here the search reads the row dicts (``_adj``, ``_succ`` or
``_pred``) where they lie, as :mod:`._dict_reach` does for ``descendants``, but one layer at a
time, since each node's distance counts: a layer of :data:`WIDE_LAYER` nodes or more is
expanded by all threads (each takes a chunk of it, claims the new nodes of their rows by
compare-and-swap and appends them to the next layer), a narrower one by the calling thread.
An undirected graph's last wide layers go bottom-up, as the direction-optimizing BFS does
(Beamer): once the nodes not reached are fewer than the frontier, each of them reads its
own row until it meets a frontier node, so a row is read for each node left rather than for
each frontier node (urand:17: its last full layer is 58% of the nodes; the rows read in place
dominate the search). Each node's flag holds its layer (plus one) for that test. First calls
of ``closeness_centrality(G, u)`` on urand:17, converted against in place: H100 host, 16
threads, 7.72 -> 3.07 ms; 2 cores 19.5 -> 6.7 ms (``benchmarks/nx_one_node.py --ab``).

A deep graph (a lattice: ~1,400 layers of a few hundred nodes in grid:708) gains nothing
from this, each layer being too short to share out, and its rows read in place cost ~250 ns
each against ~10 ns an arc of the conversion. So the compiled short search
(:func:`._short_reach.within`, ~0.05 ms on 2 cores) first counts the nodes within
:data:`PROBE_DEPTH` hops: :data:`PROBE_NODES` or fewer and the caller converts (grid:708: 544
within 16 hops; urand:17 passes 2,048 within 3). Reading the outer dict's rows first
(:func:`._cpython.row_tables`) would cost a deep graph 1-1.5 ms for nothing (2 cores,
grid:708, first calls of ``closeness_centrality(G, u)``: 23.5 -> 24.9 ms without the probe).
A search that passes it but goes on past :data:`MAX_DEPTH` layers gives up too. None also
where the dicts cannot be read so (:func:`._cpython.row_tables`: fewer than
:data:`._dict_reach.MIN_NODES` nodes, keys whose hashes are not distinct, dicts other than
plain ones).
"""

from __future__ import annotations

import operator
from typing import Any, NamedTuple

import numba as nb
import numpy as np
from numba import prange

from ..cpu.atomics import fetch_add
from . import _cpython as raw
from . import _short_reach
from ._dict_reach import (
    MIN_NODES,
    _cleared,
    _expand,
    _keep,
    _take_row,
    check_tables,
    keep_cleared,
    source_tables,
)

__all__ = ["MAX_DEPTH", "PROBE_DEPTH", "PROBE_NODES", "WIDE_LAYER", "LevelStats", "level_stats"]

#: At most this many nodes within :data:`PROBE_DEPTH` hops of the source: a deep graph (or a
#: small component), converted.
PROBE_NODES = 2048
PROBE_DEPTH = 16
#: Layers searched at most: a search deeper than this gives up (see the module docstring).
#: Small-world graphs of 1M+ edges are a dozen layers deep (urand:17: 7); a long tail of
#: narrow layers costs a few microseconds each.
MAX_DEPTH = 256
#: A layer of this many nodes or more is expanded by all threads; fewer, by the caller's
#: (waking the workers costs ~10-20 us, the rows of a 512-node chunk ~50-100 us).
WIDE_LAYER = 1024
#: Nodes of a layer a worker expands at once.
_CHUNK = 512
#: Nodes a worker tests at once in a bottom-up layer.
_UP_CHUNK = 4096
#: The flags hold layer numbers (plus one) in a byte: bottom-up only before this layer.
_LAST_CODE = 255

# Slots of the shared counters (a cache line apart): the queue's end, a failed row.
_TAIL, _STOP = 0, 8
# What _layers returns as ``reached`` when it gives up.
_FAILED_ROW, _TOO_DEEP = -1, -2


class LevelStats(NamedTuple):
    """What one search found: ``reached`` nodes (the source counted), the ``total`` of their
    distances and the ``eccentricity`` (the largest)."""

    reached: int
    total: int
    eccentricity: int


@nb.njit(cache=True)
def _append(queue, state, found, k, seen, code):  # pragma: no cover - compiled
    """Append ``found[:k]`` to the next layer (at ``state[_TAIL]``, reserved atomically: the
    workers of a layer append at once) and flag them ``code``."""
    if k:
        seen[found[:k]] = code
        at = fetch_add(state, _TAIL, k)
        queue[at : at + k] = found[:k]


@nb.njit(parallel=True, cache=True)
def _wide_layer(
    queue, lo, hi, state, chunk, rows, dict_type, direct, keys, ids, mask, shift, seen, code
):  # pragma: no cover - compiled
    """Expand the layer ``queue[lo:hi]`` by all threads, a chunk each, appending the new nodes
    at ``state[_TAIL]``, flagged ``code``; ``state[_STOP]`` is set where a row cannot be read
    so."""
    n = rows.shape[0]
    for c in prange((hi - lo + chunk - 1) // chunk):
        a = lo + c * chunk
        b = min(a + chunk, hi)
        found, k = _expand(rows[queue[a:b]], dict_type, direct, n, keys, ids, mask, shift, seen)
        if k < 0:
            fetch_add(state, _STOP, 1)
        else:
            _append(queue, state, found, k, seen, code)


@nb.njit(parallel=True, cache=True)
def _bottom_up_layer(
    queue, state, chunk, rows, dict_type, direct, keys, ids, mask, shift, seen, code
):  # pragma: no cover - compiled
    """The next layer bottom-up: every node not flagged yet whose row holds a node of the
    frontier (flagged ``code``) is appended at ``state[_TAIL]`` and flagged ``code + 1``
    (after its chunk is tested: a node found now is no frontier node of this layer);
    ``state[_STOP]`` is set where a row cannot be read so."""
    n = rows.shape[0]
    none = np.empty(0, dtype=np.int64)  # (a row's nodes are not taken, only met)
    for c in prange((n + chunk - 1) // chunk):
        a = c * chunk
        b = min(a + chunk, n)
        found = np.empty(b - a, dtype=np.int64)
        k = 0
        for v in range(a, b):
            if seen[v] != 0:
                continue
            met = _take_row(rows[v], dict_type, direct, n, keys, ids, mask, shift, seen, none,
                            0, code)  # fmt: skip
            if met < 0:
                fetch_add(state, _STOP, 1)
                break
            if met:
                found[k] = v
                k += 1
        _append(queue, state, found, k, seen, code + 1)


@nb.njit(cache=True)
def _layers(
    rows,
    source,
    dict_type,
    direct,
    keys,
    ids,
    bits,
    wide,
    chunk,
    max_depth,
    bottom_up,
    queue,
    seen,
):  # pragma: no cover - compiled
    """``(reached, total, eccentricity, used)`` of the search from position ``source``
    (``reached`` :data:`_FAILED_ROW`: a row could not be read so; :data:`_TOO_DEEP`: the
    search went past ``max_depth`` layers); ``queue[:used]`` holds the nodes claimed in
    ``seen``, layer by layer (all of them unless a row failed). ``seen`` is all 0 on entry;
    a node's flag becomes its layer plus one (at most :data:`_LAST_CODE`). ``bottom_up``:
    the rows are both directions' (an undirected graph), so a layer may go bottom-up."""
    n = rows.shape[0]
    mask = (np.int64(1) << bits) - 1
    shift = np.uint64(64 - bits)
    state = np.zeros(16, dtype=np.int64)
    seen[source] = 1
    queue[0] = source
    lo, hi = 0, 1
    depth, total = 0, 0
    while True:
        state[_TAIL] = hi
        code = min(depth + 1, _LAST_CODE)  # (the frontier's flag)
        next_code = min(code + 1, _LAST_CODE)
        if bottom_up and hi - lo > n - hi and next_code < _LAST_CODE:
            _bottom_up_layer(queue, state, _UP_CHUNK, rows, dict_type, direct, keys, ids,
                             mask, shift, seen, code)  # fmt: skip
        elif hi - lo >= wide:
            _wide_layer(queue, lo, hi, state, chunk, rows, dict_type, direct, keys, ids, mask,
                        shift, seen, next_code)  # fmt: skip
        else:
            found, k = _expand(rows[queue[lo:hi]], dict_type, direct, n, keys, ids, mask,
                               shift, seen)  # fmt: skip
            if k < 0:
                state[_STOP] = 1
            else:
                _append(queue, state, found, k, seen, next_code)
        tail = state[_TAIL]
        if state[_STOP]:
            return _FAILED_ROW, 0, 0, tail
        if tail == hi:
            return hi, total, depth, hi
        depth += 1
        if depth > max_depth:
            return _TOO_DEEP, 0, 0, tail
        total += depth * (tail - hi)
        lo, hi = hi, tail


def level_stats(
    rows_of: dict,
    source: Any,
    max_depth: int | None = None,
    tables: raw.RowTables | None = None,
    *,
    undirected: bool = False,
    probe: bool = True,
) -> LevelStats | None:
    """Reach, distance sum and eccentricity of the breadth-first search from the node
    ``source`` through the row dict ``rows_of`` (a ``Graph``'s ``_adj``, a ``DiGraph``'s
    ``_succ`` or, for distances *to* the node, ``_pred``), on its dicts in place; None where
    they cannot be read so, where the graph looks deep from the source (``probe``: at most
    :data:`PROBE_NODES` within :data:`PROBE_DEPTH` hops) or the search is deeper than
    ``max_depth`` (default :data:`MAX_DEPTH`) layers: the caller then converts the graph.

    Parameters
    ----------
    rows_of : dict
        The outer adjacency dict of a NetworkX graph of at least
        :data:`._dict_reach.MIN_NODES` nodes.
    source : hashable
        A node of the graph.
    max_depth : int, optional
        Layers searched at most.
    tables : RowTables, optional
        What :func:`._cpython.row_tables` read of ``rows_of``, if the caller has it.
    undirected : bool
        ``rows_of`` is an undirected graph's ``_adj`` (each row holds the node's in-arcs
        too), so the last wide layers may go bottom-up.
    probe : bool
        Count the nodes near the source first (module docstring).

    Returns
    -------
    LevelStats or None

    Raises
    ------
    TypeError
        When ``source`` is not hashable or ``max_depth`` is not an integer.
    ValueError
        When ``max_depth`` is negative or ``tables`` hold another number of rows.

    Examples
    --------
    >>> import networkx as nx
    >>> S = nx.star_graph(4999)  # (node 0 the hub: a leaf is 1 from it, 2 from the others)
    >>> found = level_stats(S._adj, 1, undirected=True)
    >>> found is None or tuple(found) == (5000, 1 + 2 * 4998, 2)
    True
    >>> print(level_stats(nx.path_graph(5000)._adj, 0))  # (deep: 16 nodes within 16 hops)
    None
    >>> C = nx.cycle_graph(5000)
    >>> found = level_stats(C._adj, 0, max_depth=5000, undirected=True, probe=False)
    >>> found is None or tuple(found) == (5000, 2 * sum(range(2500)) + 2500, 2500)
    True
    """
    source_hash = hash(source)
    max_depth = MAX_DEPTH if max_depth is None else operator.index(max_depth)
    if max_depth < 0:
        raise ValueError(f"max_depth must not be negative, got {max_depth}")
    check_tables(rows_of, tables)
    if probe and len(rows_of) >= MIN_NODES:
        near = _short_reach.within(rows_of, source, PROBE_NODES, PROBE_DEPTH)
        if near is not _short_reach.GAVE_UP and near is not _short_reach.UNREADABLE:
            return None
    found = source_tables(rows_of, source_hash, tables)
    if found is None:
        return None
    rows, direct, bits, keys, ids, source = found
    n = rows.shape[0]
    queue, seen = _cleared("log", n), _cleared("seen", n)
    reached, total, eccentricity, used = _layers(
        rows, source, id(dict), direct, keys, ids, bits, WIDE_LAYER, _CHUNK, max_depth,
        undirected, queue[:n], seen[:n],
    )  # fmt: skip
    _keep("log", queue)
    if reached == _FAILED_ROW:
        return None  # (nodes of the failed row may be left flagged: seen is not kept)
    keep_cleared(seen, n, queue[:used])
    return None if reached < 0 else LevelStats(int(reached), int(total), int(eccentricity))
