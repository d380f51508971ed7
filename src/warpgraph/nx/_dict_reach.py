"""The nodes a source reaches in a NetworkX ``DiGraph``, searched on its dicts in place.

``descendants`` and ``ancestors`` need only the set of nodes reached: no order, no distances.
Converting the graph first (row lengths, the neighbour ids of every arc, a CSR, for
``ancestors`` its transpose) costs more than the search itself. Here the search reads the row
dicts (``G._succ`` or ``G._pred``) where they lie, as :mod:`._dict_components` does for the
weak components: each entry's stored key hash is a node's position, directly for the labels
``0..n-1`` and through a hash table otherwise (:func:`._hash_index.hash_lookup`).

No order being owed, the workers never wait for one another at the end of a layer: a deep
graph such as a lattice has ~1,000 layers of a few hundred nodes, each too short to share out
by a parallel step (~10-20 us to start). Each worker takes a share of the queued nodes, claims
the new nodes of their rows by compare-and-swap, keeps a share of them for its next step
(their rows were likely allocated near those just read) and queues the rest for the others;
the search ends when no node is queued or held. (A worker may be given a limit of rows,
:data:`ROW_LIMIT`, past which the search gives up; none by default.) Waiting workers spin
with the CPU's spin-wait hint. Every node claimed is also logged. The queue, the flags of
nodes seen and the log are kept for the next search, which clears again only the slots it
used: nothing but the read of the outer dict is O(n) (the labels ``0..n-1`` in order: one
read-only pass, :func:`._cpython.row_tables`). The set is made from the keys of the same dict
(:func:`._keyset.key_set`), its table written in parallel, from the positions logged when
the nodes found are few, else from the flags (:func:`reach`).

:func:`rows_of_nodes` reads the rows of given nodes into a small CSR by all threads (the
nodes found, whose set must be built in NetworkX's search order:
:func:`._component_order.reached_order` searches that CSR).

The same search finds a small component in a ``Graph``'s ``_adj``
(``components._small_component``), with a row limit. Only plain dicts that :mod:`._cpython`
reads, of :data:`MIN_NODES` or more, with distinct node hashes; anything else returns None and
the caller converts the graph.
"""

from __future__ import annotations

import operator
from collections.abc import Callable
from typing import Any

import numba as nb
import numpy as np
from numba import prange

from ..cpu.atomics import atomic_load, cas, fetch_add, spin_pause
from ..cpu.prefetch import prefetch_address as _prefetch
from . import _cpython as raw
from ._dict_layout import (
    _entry,
    _i64,
    _lengths,
    _prefetch_rows_ahead,
    _prefetch_rows_start,
    _table,
)
from ._hash_index import _position

__all__ = [
    "MIN_NODES",
    "ROW_LIMIT",
    "check_tables",
    "checked_positions",
    "keep_cleared",
    "reach",
    "reach_flags",
    "rows_of_nodes",
    "source_tables",
]

#: Fewer nodes than this are converted as before.
MIN_NODES = 4096
#: Rows a worker may read before the search gives up and the caller converts the graph;
#: None: no limit. A row costs a worker ~250 ns (its dict, key table and entries lie scattered),
#: an arc of the converted graph ~10 ns, but the conversion reads every row first. First calls
#: of grid:708 oriented ``descendants`` (295k of 501k nodes reached), in place against
#: converted: H200 host, 16 workers, 6.8 against 11.6 ms; 2 cores 27 against 26 ms; one thread
#: 49 against 37 ms (urand:17, every node reached: 23 against 37). A limit would save at most
#: the last case's 1.3x, and a search given up late would cost about twice the best.
ROW_LIMIT: int | None = None
#: A worker that has waited this many turns in a row for another (each turn a spin-wait hint:
#: ~3-40 ns by CPU, so ~0.2-3 s; a worker expands a chunk in microseconds, a row of 10M arcs
#: in ~50 ms) stops the search, which then gives up (the caller converts the graph) rather
#: than hang if a worker is stuck.
_SPIN_LIMIT = 1 << 26
#: Queued nodes a worker takes at once, at most (fewer while few wait: a share of them).
#: H200 host, 16 workers: 32-512 within 10% on grid:708 and urand:17, 512 the best by a little.
_CHUNK = 512


@nb.njit(cache=True, inline="always")
def _node_of(h, direct, n, keys, ids, mask, shift):  # pragma: no cover - compiled
    """The position of the node whose key hash is ``h`` (directly, or through the hash
    table), or -1 when no node has it (or ``h`` is -1, a hash CPython never stores)."""
    if h == -1:
        return -1
    if direct:
        return h if 0 <= h < n else -1
    return _position(h, keys, ids, mask, shift)


@nb.njit(cache=True)
def _take_row(
    d, dict_type, direct, n, keys, ids, mask, shift, seen, out, k, meet=0
):  # pragma: no cover - compiled
    """Append to ``out`` from ``k`` the nodes of the row dict ``d`` not seen yet, claiming
    each; the new ``k``, or -1 when the row cannot be read so (not a plain combined dict,
    live entries other than its length, a key hash that is no node's, ``out`` full).
    ``meet`` (not 0): claim nothing, but answer 1 at the first node whose flag in ``seen`` is
    ``meet``, else 0 (or -1), as a bottom-up search step asks (:mod:`._dict_levels`)."""
    if _i64(d + 8) != dict_type or _i64(d + 40) != 0:
        return -1
    entries, size, kind, count = _table(d)
    if size == 0:
        return -1
    live = 0
    for e in range(count):
        v, h = _entry(entries + size * e, kind)
        if v == 0:  # deleted entry
            continue
        live += 1
        j = _node_of(h, direct, n, keys, ids, mask, shift)
        if j < 0:
            return -1
        if meet:
            if seen[j] == meet:
                return 1
        elif seen[j] == 0 and cas(seen, j, 0, 1) == 0:
            if k >= out.shape[0]:
                return -1
            out[k] = j
            k += 1
    return k if live == _i64(d + 16) else -1


@nb.njit(cache=True)
def _row_into(d, dict_type, direct, n, keys, ids, mask, shift, out, k):  # pragma: no cover
    """Write the positions of every node of the row dict ``d``, in its order, to ``out`` from
    ``k``; the new ``k``, or -1 when the row cannot be read so (as :func:`_take_row`)."""
    if _i64(d + 8) != dict_type or _i64(d + 40) != 0:
        return -1
    entries, size, kind, count = _table(d)
    if size == 0:
        return -1
    start = k
    for e in range(count):
        v, h = _entry(entries + size * e, kind)
        if v == 0:  # deleted entry
            continue
        j = _node_of(h, direct, n, keys, ids, mask, shift)
        if j < 0 or k >= out.shape[0]:
            return -1
        out[k] = j
        k += 1
    return k if k - start == _i64(d + 16) else -1


#: Rows a worker of :func:`_rows_of_nodes` reads in one run, prefetching ahead within it.
_ROWS_CHUNK = 256


@nb.njit(parallel=True, cache=True)
def _rows_of_nodes(dicts, dict_type, direct, n, keys, ids, bits, indptr, heads):  # pragma: no cover
    """Each row dict of ``dicts`` read into ``heads[indptr[i]:indptr[i + 1]]`` (sized from
    the rows' lengths) by all threads, each a run of rows at a time, fetching ahead as the
    conversion's scan does (a row is a chain of three misses: without, 2 cores read grid:708's
    27k rows in ~5 ms); how many could not be read so (lengths changed, not plain dicts)."""
    mask = (np.int64(1) << bits) - 1
    shift = np.uint64(64 - bits)
    m = dicts.shape[0]
    bad = 0
    for c in prange((m + _ROWS_CHUNK - 1) // _ROWS_CHUNK):
        lo = c * _ROWS_CHUNK
        run = dicts[lo : min(m, lo + _ROWS_CHUNK)]
        _prefetch_rows_start(run, run.shape[0], dict_type)
        for i in range(run.shape[0]):
            _prefetch_rows_ahead(run, i, run.shape[0], dict_type)
            end = _row_into(run[i], dict_type, direct, n, keys, ids, mask, shift,
                            heads[: indptr[lo + i + 1]], indptr[lo + i])  # fmt: skip
            bad += 0 if end == indptr[lo + i + 1] else 1
    return bad


def rows_of_nodes(tables: raw.RowTables, nodes: np.ndarray) -> tuple[np.ndarray, np.ndarray] | None:
    """The rows of the positions ``nodes`` read from the dicts in place (``tables``: what
    :func:`._cpython.row_tables` read of the outer dict), as a CSR ``(indptr, heads)`` of
    positions, each row in its dict's order; None where a row cannot be read so. The rows
    lie scattered: all threads read them, once for their lengths, once for their entries.

    Examples
    --------
    >>> import networkx as nx
    >>> from warpgraph.nx import _cpython as raw
    >>> D = nx.DiGraph(); D.add_edges_from((i, i + 1) for i in range(5000))
    >>> tables = raw.row_tables(D._pred)
    >>> found = None if tables is None else rows_of_nodes(tables, np.array([7, 0, 3]))
    >>> found is None or [a.tolist() for a in found]
    [[0, 1, 1, 2], [6, 2]]

    Raises
    ------
    ValueError
        When ``nodes`` is not a 1-D array of integers, or holds a position outside the
        tables' rows.
    """
    _, rows, direct, bits, keys, ids = tables
    dicts = rows[checked_positions(nodes, rows.size, "nodes")]
    lengths = np.empty(dicts.size, dtype=np.int64)
    if _lengths(dicts, id(dict), lengths):
        return None
    indptr = np.zeros(dicts.size + 1, dtype=np.int64)
    np.cumsum(lengths, out=indptr[1:])
    heads = np.empty(int(indptr[-1]), dtype=np.int64)
    if _rows_of_nodes(dicts, id(dict), direct, rows.size, keys, ids, bits, indptr, heads):
        return None
    return indptr, heads


@nb.njit(cache=True)
def _expand(dicts, dict_type, direct, n, keys, ids, mask, shift, seen):  # pragma: no cover
    """``(found, k)``: the nodes of the row dicts ``dicts`` not seen yet, claimed, in
    ``found[:k]``; ``k`` is -1 when a row cannot be read so. ``found`` is sized from the row
    lengths (a first pass that also brings the dict objects in); the rows' tables are
    prefetched in order as the conversion's scan prefetches them."""
    m = dicts.shape[0]
    room = 0
    for i in range(m):
        if i + 16 < m:
            _prefetch(dicts[i + 16])
        room += _i64(dicts[i] + 16) if _i64(dicts[i] + 8) == dict_type else 0
    found = np.empty(room, dtype=np.int64)
    _prefetch_rows_start(dicts, m, dict_type)
    k = 0
    for i in range(m):
        _prefetch_rows_ahead(dicts, i, m, dict_type)
        k = _take_row(dicts[i], dict_type, direct, n, keys, ids, mask, shift, seen, found, k)
        if k < 0:
            break
    return found, k


# Slots of the search's shared counters, a cache line apart (threads update them at once).
_HEAD, _TAIL, _PENDING, _STOP, _LOGGED = 0, 8, 16, 24, 32


@nb.njit(parallel=True, cache=True)
def _drain(
    queue, state, workers, chunk, limit, rows, dict_type, direct, keys, ids, mask, shift, seen, log
):  # pragma: no cover - compiled
    """Search from the nodes in ``queue[state[_HEAD]:state[_TAIL]]`` (claimed in ``seen``)
    with ``workers`` threads, none waiting for the others between layers: each takes up to
    ``chunk`` queued nodes (a share of those waiting), claims the new nodes of their rows and
    queues them, until no node is queued or being expanded (``state[_PENDING]``: nodes queued
    or taken, not yet expanded). Every node claimed is also written to ``log`` (from
    ``state[_LOGGED]``). A worker that met a row it cannot read, or read more than ``limit``
    rows, or would queue past the end of ``queue`` (cleared to -1: a slot reserved but not
    written yet), sets ``state[_STOP]`` and all stop."""
    n = rows.shape[0]
    for _ in prange(workers):
        read = 0
        nodes = np.empty(0, dtype=np.int64)
        held = 0  # nodes[:held]: found by this worker and kept for itself
        idle = 0
        while atomic_load(state, _STOP) == 0:
            if held == 0:
                head = atomic_load(state, _HEAD)
                waiting = atomic_load(state, _TAIL) - head
                if waiting <= 0:
                    pending = atomic_load(state, _PENDING)
                    if pending == 0:
                        break  # (the queue is empty and no worker holds a node: done)
                    idle += 1
                    if pending < 0 or idle > _SPIN_LIMIT:
                        fetch_add(state, _STOP, 1)
                        break
                    spin_pause()
                    continue  # another worker is expanding nodes: wait for them
                idle = 0
                # (a share of those waiting; no more than the rows this worker has left)
                held = min(chunk, (waiting + workers - 1) // workers, max(1, limit - read))
                if cas(state, _HEAD, head, head + held) != head:
                    held = 0
                    spin_pause()
                    continue  # (another worker took these first)
                nodes = np.empty(held, dtype=np.int64)
                for i in range(held):
                    v = atomic_load(queue, head + i)
                    # -1: reserved, not written yet. (The copy that writes it may store wider
                    # than 8 bytes, so a half-written id, outside 0..n-1, is waited out too.)
                    while not 0 <= v < n and idle <= _SPIN_LIMIT:
                        spin_pause()
                        v = atomic_load(queue, head + i)
                        idle += 1
                    nodes[i] = v
                if idle > _SPIN_LIMIT:
                    fetch_add(state, _STOP, 1)
                    break
            found, k = _expand(rows[nodes[:held]], dict_type, direct, n, keys, ids, mask, shift,
                               seen)  # fmt: skip
            read += held
            if k < 0 or read > limit:
                fetch_add(state, _STOP, 1)
                break
            if k:  # (each node is claimed once: the log holds n at most)
                at = fetch_add(state, _LOGGED, k)
                log[at : at + k] = found[:k]
            # (counted before they are queued: the count cannot reach 0 while nodes remain)
            fetch_add(state, _PENDING, k - held)
            # Keep a share of the nodes found (their rows are likely near those just read),
            # queue the rest for the others.
            waiting = atomic_load(state, _TAIL) - atomic_load(state, _HEAD)
            keep = min(k, chunk, (max(waiting, 0) + k + workers - 1) // workers)
            keep = min(keep, max(1, limit - read))
            if k > keep:
                at = fetch_add(state, _TAIL, k - keep)
                if at + k - keep > queue.shape[0]:  # (a short queue: see _search)
                    fetch_add(state, _STOP, 1)
                    break
                queue[at : at + k - keep] = found[keep:k]
            nodes, held = found, keep


@nb.njit(cache=True)
def _search(
    rows, source, dict_type, direct, keys, ids, bits, workers, chunk, row_limit, queue, seen, log
):  # pragma: no cover - compiled
    """``(found, used)``: how many nodes were reached from position ``source`` (``log[:found]``,
    the source not among them; ``seen`` flags them and the source), -1 when a row cannot be
    read so, a worker read more than ``row_limit`` rows or ``queue`` (cleared to -1) filled;
    ``queue[:used]`` may have been written. ``seen`` is all 0 on entry."""
    mask = (np.int64(1) << bits) - 1
    shift = np.uint64(64 - bits)
    state = np.zeros(40, dtype=np.int64)
    seen[source] = 1
    queue[0] = source
    state[_TAIL] = 1
    state[_PENDING] = 1
    _drain(queue, state, workers, chunk, row_limit, rows, dict_type, direct, keys, ids,
           mask, shift, seen, log)  # fmt: skip
    used = min(state[_TAIL], queue.shape[0])
    return (-1 if state[_STOP] else state[_LOGGED]), used


@nb.njit(parallel=True, cache=True)
def _fill(array, value):  # pragma: no cover - compiled
    """``array[:] = value`` by all threads (the first touch of its pages too)."""
    for i in prange(array.shape[0]):
        array[i] = value


@nb.njit(parallel=True, cache=True)
def _unflag(seen, at):  # pragma: no cover - compiled
    for i in prange(at.shape[0]):
        seen[at[i]] = 0


#: Buffers kept for the next search, by name (at most one of each, of up to
#: :data:`_KEEP_SLOTS` slots): the queue (all -1), the flags of nodes seen (all 0) and the log
#: of nodes found. A search then neither allocates nor clears ``n`` slots of each, only clears
#: again those it used. (grid:708 ``ancestors``: 27k of 501k nodes found.)
_KEPT: dict[str, np.ndarray] = {}
_KEEP_SLOTS = 1 << 23  # 64 MiB of queue
_FILL = {"queue": (np.int64, -1), "seen": (np.uint8, 0), "log": (np.int64, None)}


def _cleared(name: str, room: int) -> np.ndarray:
    """A buffer ``name`` of at least ``room`` slots, cleared: the one kept if large enough."""
    kept = _KEPT.pop(name, None)  # (pop: another thread may take it between our steps)
    if kept is not None and kept.size >= room:
        return kept
    dtype, value = _FILL[name]
    made = np.empty(room, dtype=dtype)
    if value is not None:
        _fill(made, value)
    return made


def _keep(name: str, buffer: np.ndarray) -> None:
    if buffer.size <= _KEEP_SLOTS:
        _KEPT[name] = buffer


def _keep_queue(queue: np.ndarray, used: int) -> None:
    """Clear the ``used`` slots of ``queue`` again and keep it for the next search."""
    if used > 1 << 16:
        _fill(queue[:used], -1)
    else:  # (a few slots: one memset-like fill, no threads woken)
        queue[:used] = -1
    _keep("queue", queue)


def reach(
    rows_of: dict,
    source_hash: int,
    workers: int | None = None,
    row_limit: int | None = None,
    tables: raw.RowTables | None = None,
    *,
    want: str = "positions",
) -> np.ndarray | set | None:
    """The nodes reached in ``rows_of`` (a ``DiGraph``'s ``_succ`` or ``_pred``, or a
    ``Graph``'s ``_adj``: the source's component) from the node whose hash is
    ``source_hash``, that node left out (as NetworkX leaves it out, even on a cycle), or None
    where the dicts cannot be read so or the search went past its limit (see the module
    docstring). ``want``: ``"positions"`` (int64 positions in ``rows_of``, in no order),
    ``"flags"`` (``bool``, one per entry in its order) or ``"set"`` (the set of their keys,
    :func:`._keyset.key_set`: from their positions when they are few, else from flags; None
    also where that set cannot be built so). ``workers`` defaults to Numba's thread count,
    ``row_limit`` (the most rows a worker reads) to :data:`ROW_LIMIT` (None: no limit).
    ``tables``: what :func:`._cpython.row_tables` read of ``rows_of``, if the caller has it
    already. Nothing here is O(n) but the read of ``rows_of`` itself: the buffers are kept
    and cleared again where used.

    Examples
    --------
    >>> import networkx as nx
    >>> D = nx.DiGraph(); D.add_edges_from((i, i + 1) for i in range(5000))
    >>> at = reach(D._succ, hash(4990))
    >>> at is None or sorted(at.tolist()) == list(range(4991, 5001))
    True
    >>> found = reach(D._succ, hash(4990), want="set")
    >>> found is None or found == set(range(4991, 5001))
    True

    Raises
    ------
    TypeError
        When ``source_hash``, ``workers`` or ``row_limit`` is not an integer.
    ValueError
        When ``workers`` is below 1, ``row_limit`` below 0, ``tables`` hold another number
        of rows than ``rows_of``, or ``want`` is none of the three.
    """
    if want not in _MAKERS:
        raise ValueError(f"want must be one of {sorted(_MAKERS)}, got {want!r}")
    workers = nb.get_num_threads() if workers is None else operator.index(workers)
    row_limit = ROW_LIMIT if row_limit is None else row_limit
    row_limit = 2**62 if row_limit is None else operator.index(row_limit)
    source_hash = operator.index(source_hash)
    if workers < 1:
        raise ValueError(f"workers must be at least 1, got {workers}")
    if row_limit < 0:
        raise ValueError(f"row_limit must not be negative, got {row_limit}")
    found = source_tables(rows_of, source_hash, tables)
    if found is None:
        return None
    rows, direct, bits, keys, ids, source = found
    n = rows.shape[0]
    # A node is queued once, so n slots always do; a search that may read only a few rows
    # gets fewer (clearing n slots would cost more than it) and gives up if they fill.
    room = n if row_limit >= n else min(n, 2 * row_limit * workers + 4096)
    queue, seen, log = _cleared("queue", room), _cleared("seen", n), _cleared("log", n)
    count, used = _search(rows, source, id(dict), direct, keys, ids, bits, workers, _CHUNK,
                          row_limit, queue[:room], seen[:n], log[:n])  # fmt: skip
    _keep_queue(queue, used)
    if count < 0:  # (claimed nodes may be left flagged and unlogged: seen is not kept)
        return None
    seen[source] = 0
    try:
        return _MAKERS[want](rows_of, seen[:n], log[:count])
    finally:
        keep_cleared(seen, n, log[:count])
        _keep("log", log)


def source_tables(rows_of: dict, source_hash: int, tables: raw.RowTables | None) -> tuple | None:
    """``(rows, direct, bits, keys, ids, source)`` for a search of ``rows_of`` in place: what
    :func:`._cpython.row_tables` reads of it (or ``tables``, checked to be its) and the
    position of the node whose hash is ``source_hash``; None where the dicts cannot be read so
    or no node has that hash.

    Raises
    ------
    ValueError
        When ``tables`` hold another number of rows than ``rows_of``.
    """
    check_tables(rows_of, tables)
    found = raw.row_tables(rows_of, MIN_NODES) if tables is None else tables
    if found is None:
        return None
    _, rows, direct, bits, keys, ids = found
    mask, shift = (1 << bits) - 1, np.uint64(64 - bits)
    source = source_hash if direct else int(_position(source_hash, keys, ids, mask, shift))
    return (rows, direct, bits, keys, ids, source) if 0 <= source < rows.shape[0] else None


def checked_positions(positions: Any, n: int, name: str) -> np.ndarray:
    """``positions`` as an int64 array, or ``ValueError`` unless it is a 1-D array of
    integers in ``0..n-1`` (compiled code indexes with them unchecked)."""
    at = np.asarray(positions)
    if at.ndim != 1 or not (at.size == 0 or np.issubdtype(at.dtype, np.integer)):
        raise ValueError(
            f"{name} must be a 1-D array of integer positions, got {at.dtype} of shape {at.shape}"
        )
    if at.size and not (0 <= int(at.min()) and int(at.max()) < n):
        raise ValueError(f"{name} must lie in 0..{n - 1}, got {int(at.min())}..{int(at.max())}")
    return at.astype(np.int64, copy=False)


def check_tables(rows_of: dict, tables: raw.RowTables | None) -> None:
    """Raise ``ValueError`` when ``tables`` (None: none given) hold another number of rows
    than ``rows_of``: not what :func:`._cpython.row_tables` read of it."""
    if tables is not None and tables.rows.size != len(rows_of):
        raise ValueError(
            f"tables hold {tables.rows.size} rows, rows_of has {len(rows_of)}: not its tables"
        )


def keep_cleared(seen: np.ndarray, n: int, at: np.ndarray) -> None:
    """Clear the flags ``seen[at]`` (all of ``seen[:n]`` where they are many) and keep the
    buffer for the next search."""
    if _dense(at.size, n):
        _fill(seen[:n], 0)
    elif at.size > 1 << 12:
        _unflag(seen, at)
    else:  # (a few: no threads woken)
        seen[at] = 0
    _keep("seen", seen)


def _dense(count: int, n: int) -> bool:
    """Whether ``count`` nodes found of ``n`` are better passed on as flags than positions.
    A set built from positions in the order found touches its table and the key objects out
    of order; from flags, in order. 2 cores, grid:708, first calls, flags / positions: 10k
    nodes 0.67 / 0.51 ms, 27k 0.93 / 0.89 ms, 91k 1.6 / 2.5 ms, 295k 3.6 / 8.0 ms."""
    return count * 16 > n


def _as_set(rows_of: dict, seen: np.ndarray, at: np.ndarray) -> set | None:
    from ._keyset import key_set

    if _dense(at.size, seen.size):
        return key_set(rows_of, seen.view(np.bool_))
    return key_set(rows_of, at=at)


#: What :func:`reach` makes of the search's flags and positions, by ``want``, before those
#: buffers are cleared and kept.
_MAKERS: dict[str, Callable[[dict, np.ndarray, np.ndarray], Any]] = {
    "positions": lambda _, __, at: at.copy(),
    "flags": lambda _, seen, __: seen.view(np.bool_).copy(),
    "set": _as_set,
}


def reach_flags(rows_of: dict, source_hash: int, *options: Any, **named: Any) -> np.ndarray | None:
    """``reach(rows_of, source_hash, *options, **named, want="flags")`` (:func:`reach`).

    Examples
    --------
    >>> import networkx as nx
    >>> D = nx.DiGraph(); D.add_edges_from((i, i + 1) for i in range(5000))
    >>> flags = reach_flags(D._succ, hash(4990))
    >>> flags is None or flags.nonzero()[0].tolist() == list(range(4991, 5001))
    True
    """
    return reach(rows_of, source_hash, *options, **named, want="flags")
