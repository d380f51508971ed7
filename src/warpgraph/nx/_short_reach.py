"""The short search ``descendants`` and ``ancestors`` try first, compiled through CPython's C API.

:func:`.reachability.reach_within` finds the nodes a source reaches while they are few (a DAG's
leaf, a small component), before anything reads the whole graph. In Python each node found
costs ~0.3-0.5 us (a row lookup, a ``set.update``, the layer's set algebra). Here one compiled
loop does the same through the C API: ``PyDict_GetItemWithError`` for each node's row, the row's
table read in place (:mod:`._cpython`), ``PySet_Add`` for each neighbour into the set returned,
a neighbour being new when the set's size grew. :func:`layer` stops the same search at a given
layer (``descendants_at_distance``). The queue holds the nodes in NetworkX's own search order
(FIFO, each row in its order, a node queued when first seen: ``bfs_edges``, ``bfs_layers``), so
the set returned is built from it by adding them one at a time in that order, as NetworkX
builds its own (a set comprehension over ``bfs_edges``; ``set(layer)``), and iterates alike
(:func:`_ordered_set`; since session 53: before, a set of another layout was checked and,
unless every key sat in its home slot, NetworkX's Python steps were run again: 2 cores,
urand:17 at distance 3, 2,744 nodes, 0.95 ms against NetworkX's 0.43).

A first call finds nothing of the graph cached, and each node's row is a chain of dependent
misses (the outer dict's index slot, its entry, the row dict, its key table, the keys). So the
queue is read in blocks of :data:`_BLOCK` nodes, each fetched a step at a time for the whole
block first (:func:`_prefetch_block`), with the hash of every node queued (read from the row
entry that found it). 2 cores, grid:708 ``_pred`` after a collection, a search given up past
512 nodes: 0.35 -> 0.17-0.18 ms median; past 2,048 nodes: 1.04 -> 0.46-0.49 ms.

No Python code runs while a row's table is read: only exact ``int`` and ``str`` keys are taken
(anything else ends the search here and the Python search runs instead), so hashing and
comparing a key, in the set or in the outer dict, is CPython's own C code. The set holds a
reference to every node found, which keeps alive the addresses the loop queues. Used only where
:mod:`._capi` is (CPython 3.11-3.13 with the GIL, the functions exported).
"""

from __future__ import annotations

import ctypes
import operator
from typing import Any

import numba as nb
import numpy as np
from llvmlite import ir

from ..cpu.prefetch import prefetch_address as _prefetch
from ._capi import CLEAR, SET_ADD, _call0, _call2, _caller, api
from ._capi_nodes import node_sets
from ._dict_layout import _entry, _entry_key, _i64, _prefetch_entries, _table, _u8, _u32

__all__ = [
    "GAVE_UP",
    "SHORT_SEARCH_NODES",
    "UNREADABLE",
    "layer",
    "reach",
    "within",
    "within_sources",
]

#: The bound of the short searches the backend makes before it converts a graph (nodes found,
#: the source not counted): ``descendants`` / ``ancestors``, ``node_connected_component``, and
#: the calls handed to NetworkX (:mod:`._networkx_own`). ~0.05-0.1 ms of search on 2 cores
#: when it gives up.
SHORT_SEARCH_NODES = 512
#: :func:`reach`'s answer when more than ``limit`` nodes were found.
GAVE_UP = None
#: :func:`reach`'s answer when the dicts cannot be searched so (the caller searches in Python).
UNREADABLE = NotImplemented

_call2_i64 = _caller(ir.IntType(64), 2)  # PyDict_GetItemWithError(d, key): a borrowed row
_SET_USED = 24  # PySetObject.used
_TOO_MANY, _CANNOT = -1, -2


def _get_item() -> int | None:
    try:
        return ctypes.cast(ctypes.pythonapi.PyDict_GetItemWithError, ctypes.c_void_p).value
    except AttributeError:
        return None


_GET_ITEM = _get_item()


#: Frontier nodes whose rows are located together (:func:`_prefetch_block`).
_BLOCK = 32


@nb.njit(cache=True)
def _index_at(at, width):  # pragma: no cover - compiled
    """The signed index of ``1 << width`` bytes at ``at`` in a dict's index table."""
    if width == 0:
        v = np.int64(_u8(at))
        return v - 256 if v >= 128 else v
    if width == 1:
        v = np.int64(_u8(at)) | (np.int64(_u8(at + 1)) << 8)
        return v - 65536 if v >= 32768 else v
    if width == 2:
        v = np.int64(_u32(at))
        return v - (np.int64(1) << 32) if v >= (np.int64(1) << 31) else v
    return _i64(at)


@nb.njit(cache=True)
def _prefetch_block(outer, queue, lo, hi, rows_at, dict_type):  # pragma: no cover
    """Fetch what the search then reads of the queued nodes ``queue[lo:hi]`` (address and
    hash of each; at most :data:`_BLOCK`), one step for the whole block at a time: the outer
    dict's index slot of each node's hash, the entry it names, that entry's key and row dict,
    the row's key table header, its entries and the key objects they hold. Otherwise a node's
    row is a chain of ~6 serialized cache misses, and a first call finds none of it cached.
    Only reads, each of memory the one before shows to be live: the probe looks at the first
    slot alone, an index is taken only within the table's entries, and a row only once it is
    a plain dict (of type ``dict_type``; the lookup itself is ``PyDict_GetItemWithError``'s).
    ``outer`` 0: nothing is fetched. The rows found are left in ``rows_at`` (0: none)."""
    if outer == 0:
        return
    keys = _i64(outer + 32)
    log2_size = _u8(keys + 8)
    mask = (np.int64(1) << log2_size) - 1
    width = _u8(keys + 9) - log2_size  # log2 of an index's bytes
    entries, size, kind, count = _table(outer)
    if size == 0:
        return
    value_at = 16 if kind == 0 else 8
    indices = keys + 32
    for i in range(lo, hi):
        _prefetch(indices + ((queue[i, 1] & mask) << width))
    for i in range(lo, hi):
        ix = _index_at(indices + ((queue[i, 1] & mask) << width), width)
        live = 0 <= ix < count  # (an entry of this table: its value is 0 or an object)
        rows_at[i - lo] = entries + size * ix if live else 0
        if live:
            _prefetch(entries + size * ix)
    for i in range(lo, hi):
        if rows_at[i - lo] != 0:
            _prefetch(_i64(rows_at[i - lo] + value_at - 8))  # the key (the lookup compares it)
            rows_at[i - lo] = _i64(rows_at[i - lo] + value_at)
            _prefetch(rows_at[i - lo])
    for i in range(lo, hi):
        row = rows_at[i - lo]
        if row != 0 and _i64(row + 8) == dict_type and _i64(row + 40) == 0:
            _prefetch(_i64(row + 32))
        else:
            rows_at[i - lo] = 0
    for i in range(lo, hi):
        if rows_at[i - lo] != 0:
            _prefetch_entries(rows_at[i - lo])
    for i in range(lo, hi):
        row = rows_at[i - lo]
        if row == 0:
            continue
        row_entries, row_size, row_kind, row_count = _table(row)
        if row_size == 0:
            continue
        for e in range(min(row_count, 21)):  # (the entries fetched: 8 cache lines)
            value, key = _entry_key(row_entries + row_size * e, row_kind)
            if value != 0:
                _prefetch(key)


@nb.njit(cache=True)
def _search(
    fns, get_item, rows, found, queue, start, limit, depth, dict_type, int_type, str_type
):  # pragma: no cover - compiled
    """Add to the set ``found`` (holding the ``start`` distinct sources, ``queue[:start]``:
    address and hash of each) the nodes reached through the rows of ``rows``, layer by layer,
    ``depth`` layers (-1: all), each queued in ``queue``. ``(added, last)``: how many nodes
    were added to ``found`` (so ``queue[:start + added]`` holds the sources and them) and
    where the last layer searched starts in ``queue``; ``added`` is :data:`_TOO_MANY` once
    more than ``limit`` were found, :data:`_CANNOT` when a row is not a plain combined dict,
    a key is not an exact int or str, or a C call failed (its error cleared). Each block of
    queued nodes is fetched first (:func:`_prefetch_block`)."""
    outer = rows if _i64(rows + 40) == 0 else np.int64(0)  # (a combined table: fetched)
    rows_at = np.empty(_BLOCK, dtype=np.int64)
    lo, hi, layers = 0, start, 0
    while lo < hi and layers != depth:
        end = hi
        for i in range(lo, end):
            if (i - lo) % _BLOCK == 0:
                _prefetch_block(outer, queue, i, min(end, i + _BLOCK), rows_at, dict_type)
            row = _call2_i64(get_item, rows, queue[i, 0])
            if row == 0:  # (not a node of rows, or an error)
                _call0(fns[CLEAR])
                return _CANNOT, 0
            if _i64(row + 8) != dict_type or _i64(row + 40) != 0:
                return _CANNOT, 0
            entries, size, kind, count = _table(row)
            if size == 0:
                return _CANNOT, 0
            for e in range(count):
                at = entries + size * e
                value, key = _entry_key(at, kind)
                if value == 0:  # deleted entry
                    continue
                key_type = _i64(key + 8)
                if key_type != int_type and key_type != str_type:
                    return _CANNOT, 0
                before = _i64(found + _SET_USED)
                if _call2(fns[SET_ADD], found, key) != 0:
                    _call0(fns[CLEAR])
                    return _CANNOT, 0
                if _i64(found + _SET_USED) != before:
                    if hi - start >= limit:
                        return _TOO_MANY, 0
                    queue[hi, 0] = key
                    queue[hi, 1] = _entry(at, kind)[1]
                    hi += 1
        lo = end
        layers += 1
    return hi - start, lo


def _run(
    rows: dict, source: Any, limit: int, depth: int, layer: bool, with_source: bool = False
) -> tuple[int, Any]:
    """:func:`_search` from ``source`` (checked to be readable by the callers): how many
    nodes it added and the set of them (the source left out unless ``with_source``: then
    first), or with ``layer`` the set of the last layer's nodes, each built in the search's
    order (UNREADABLE where it cannot be built so)."""
    added, last, queue, _held = _searched(rows, (source,), limit, depth)  # (_held: alive)
    if added < 0:
        return added, None
    first = last if layer else (0 if with_source else 1)  # (the last layer, or all found)
    made = _ordered_set(queue[first : added + 1, 0])  # (while ``_held`` holds them)
    return added, UNREADABLE if made is None else made


def _searched(rows: dict, sources: tuple, limit: int, depth: int) -> tuple[int, int, Any, set]:
    """``(added, last, queue, found)`` of :func:`_search` from the distinct ``sources``: the
    queue holds the (address, hash) of each source and node found in NetworkX's order, and
    ``found`` (the search's set) holds a reference to each, so their addresses stay valid
    while it lives."""
    start = len(sources)
    queue = np.empty((start + limit + 1, 2), dtype=np.int64)
    for i, source in enumerate(sources):
        queue[i] = id(source), hash(source)
    found = set(sources)
    added, last = _search(api().fns, _GET_ITEM, id(rows), id(found), queue, start, limit,
                          depth, id(dict), id(int), id(str))  # fmt: skip
    return added, last, queue, found


def _ordered_set(addresses: np.ndarray) -> set | None:
    """The set of the distinct exact ``int`` / ``str`` objects at ``addresses``, added one at
    a time in that order by one compiled loop (:func:`._capi_nodes.node_sets`); None where it
    cannot be built so."""
    k = addresses.size
    if k == 0:
        return set()
    made = node_sets(api().fns, np.arange(k), np.array([0, k]), np.ascontiguousarray(addresses))
    return None if made is None else made[0]


def _readable(rows: Any, sources: tuple, limit: int) -> bool:
    """Whether :func:`_search` can run: the C API usable, ``rows`` a dict, each source an
    exact ``int`` or ``str``, ``limit`` not negative."""
    return (
        _GET_ITEM is not None
        and type(rows) is dict
        and all(type(source) in (int, str) for source in sources)
        and limit >= 0
        and api() is not None
    )


def reach(rows: dict, source: Any, limit: int, with_source: bool = False) -> set | None:
    """The nodes reached from ``source`` through the adjacency dict ``rows`` (``G._adj``,
    ``_succ`` or ``_pred``), ``source`` excluded, a set iterating as NetworkX's
    ``descendants`` / ``ancestors`` (added in its search's order); ``with_source``: the
    source too, added first (NetworkX's ``_plain_bfs`` set: ``node_connected_component``);
    :data:`GAVE_UP` (None) once more than ``limit`` are found (the source not counted);
    :data:`UNREADABLE` where this search cannot run (the C API not usable, a label other than
    an exact ``int`` or ``str``, a row not a plain dict, a negative ``limit``).

    Examples
    --------
    >>> import networkx as nx
    >>> D = nx.DiGraph([(0, 1), (1, 2), (2, 0), (3, 0)])
    >>> found = reach(D._pred, 0, 10)
    >>> found is UNREADABLE or sorted(found) == [1, 2, 3]
    True
    >>> reach(nx.path_graph(100)._adj, 0, 10) in (GAVE_UP, UNREADABLE)
    True

    Raises
    ------
    TypeError
        When ``limit`` is not an integer.
    """
    limit = operator.index(limit)
    if not _readable(rows, (source,), limit):
        return UNREADABLE
    added, found = _run(rows, source, limit, -1, False, with_source)
    return _answer(added, found)


def layer(rows: dict, source: Any, depth: int, limit: int) -> set | None:
    """The nodes at exactly ``depth`` hops from ``source`` through the adjacency dict ``rows``
    (a ``set`` iterating as NetworkX's ``descendants_at_distance``: added in the layer's
    order), searched to that layer alone;
    :data:`GAVE_UP` (None) once more than ``limit`` nodes are found within it, the source
    not counted; :data:`UNREADABLE` as for :func:`reach`, or when ``depth`` is negative.
    ``source`` must be a node of ``rows`` when ``depth`` is 0 (its row is not read).

    Examples
    --------
    >>> import networkx as nx
    >>> G = nx.path_graph(6)
    >>> found = layer(G._adj, 2, 2, 10)
    >>> found is UNREADABLE or sorted(found) == [0, 4]
    True
    >>> layer(G._adj, 2, 9, 10) in (set(), UNREADABLE), layer(G._adj, 0, 5, 3) in (None, UNREADABLE)
    (True, True)

    Raises
    ------
    TypeError
        When ``depth`` or ``limit`` is not an integer.
    """
    limit, depth = operator.index(limit), operator.index(depth)
    if depth < 0 or not _readable(rows, (source,), limit):
        return UNREADABLE
    added, found = _run(rows, source, limit, depth, True)
    return _answer(added, found)


def within(rows: dict, source: Any, limit: int, depth: int = -1) -> int | None:
    """How many nodes ``source`` reaches through the adjacency dict ``rows`` within ``depth``
    hops (-1: any), the source not counted, found by the same search (no set is built for
    them); :data:`GAVE_UP` (None) once more than ``limit``; :data:`UNREADABLE` as for
    :func:`reach`. ``source`` must be a node of ``rows`` when ``depth`` is 0.

    Examples
    --------
    >>> import networkx as nx
    >>> G = nx.path_graph(6)
    >>> within(G._adj, 2, 10) in (5, UNREADABLE), within(G._adj, 2, 10, 1) in (2, UNREADABLE)
    (True, True)
    >>> within(G._adj, 0, 3) in (GAVE_UP, UNREADABLE)
    True

    Raises
    ------
    TypeError
        When ``depth`` or ``limit`` is not an integer.
    """
    return within_sources(rows, (source,), limit, depth)


def within_sources(rows: dict, sources: tuple, limit: int, depth: int = -1) -> int | None:
    """:func:`within` from several distinct ``sources`` at once (each a node of ``rows``, in
    a tuple): how many other nodes they reach within ``depth`` hops, searched as NetworkX's
    multi-source searches (``bfs_layers``, ``multi_source_dijkstra``) reach them.

    Examples
    --------
    >>> import networkx as nx
    >>> G = nx.path_graph(10)
    >>> within_sources(G._adj, (0, 9), 10, 1) in (2, UNREADABLE)  # (nodes 1 and 8)
    True
    >>> within_sources(G._adj, (0, 9), 3) in (GAVE_UP, UNREADABLE)
    True

    Raises
    ------
    TypeError
        When ``depth`` or ``limit`` is not an integer.
    """
    limit, depth = operator.index(limit), operator.index(depth)
    if not sources or not _readable(rows, sources, limit):
        return UNREADABLE
    added = _searched(rows, sources, limit, depth)[0]
    return _answer(added, added)


def _answer(added: int, found: Any) -> Any:
    if added == _CANNOT:
        return UNREADABLE
    if added == _TOO_MANY:
        return GAVE_UP
    return found
