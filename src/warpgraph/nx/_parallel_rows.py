"""An undirected result graph's adjacency dicts written by parallel workers.

:func:`._capi_graph.build_graph` made each row of ``H._adj`` by ``_PyDict_NewPresized`` and one
``_PyDict_SetItem_KnownHash`` per entry, on one thread. Each call takes a reference to a key
(a node label, scattered over the heap) and a value (a data dict copy): on urand:17's main core
(114k rows, 1.78M entries, 2 cores) that was 265 of 514 ms. Here the work is split:

1. :func:`_place` lists each row's entries in the result's order (integers only): the
   neighbours visited before it in visiting order, then its own arcs in ``G[u]``'s order. From
   :data:`PARALLEL_PLACE_THREADS` threads each row is placed by its own worker, finding the
   copy an earlier neighbour made through the reverse arc; below, :func:`_place_serial` hands
   each copy on to the later row in one pass;
2. :func:`_allocate` (one thread, holding the GIL) makes each row as a copy of a *template*:
   a dict whose table CPython sized for the row (``PyDict_Copy`` clones it in one block) and
   that the collector tracks (its value is a dict), so each copy is tracked as CPython's own
   insertion of a dict value would have made it;
3. :func:`_fill` (parallel, no object allocated and no Python code run) writes each row's
   entries ``(hash, key, value)`` and its index table as CPython's insertion would: the slot
   from ``hash & mask``, then ``i = 5 i + perturb + 1`` with ``perturb >>= 5``. A worker owns
   its rows; the one reference a data dict copy gains for its second row is added by the
   worker of the row that made it; each label gains its references in a pass by node.
4. The references each copy took to its template's keys and values are given back in one
   step per template, and the rows are put into ``H._adj`` in visiting order.

Where :mod:`._parallel_copies` may allocate (session 26: 4+ threads, CPython's default
allocators), step 2 is done by the workers too (:func:`_forge_rows`): each row is a new empty
dict in memory from ``PyMem_RawMalloc``, and each task links its rows into one chain that is
put into the collector's list beside a fresh list object (:func:`_link`), so the rows are
tracked as CPython's insertion of a dict value would track them. Then rows of any length are
made here (grid:708's k-core, 4 entries a row, H200 host: 230 -> 131-140 ms with the data
dicts copied by workers too). No templates, so step 4 is only the put.

Used only for undirected graphs, where reference counts may be written directly
(:data:`._capi.DIRECT_REFCOUNTS`) and the dict layout is CPython 3.11-3.13's (GIL build, checked
by :func:`._dict_layout.available`). ``PyDictObject``: ``ma_used`` 16, ``ma_keys`` 32,
``ma_values`` 40. ``PyDictKeysObject``: ``dk_log2_size`` 8, ``dk_log2_index_bytes`` 9,
``dk_kind`` 10 (0: general), ``dk_usable`` 16, ``dk_nentries`` 24, indices from 32 (1, 2, 4 or
8 bytes each, -1 empty), then the entries (hash, key, value), 24 bytes each.
"""

from __future__ import annotations

import ctypes
import gc

import numba as nb
import numpy as np
from numba import types

from ..cpu.prefetch import prefetch_item as _prefetch_item
from ._capi import (
    COPY,
    DECREF,
    PRESIZED,
    _add_refs,
    _call1,
    _decref,
    _fail,
    _new_dict,
    _put,
    _release_all,
    _store_i64,
    api,
    zero_fill,
)
from ._capi_nodes import _fill_clone, _fits
from ._dict_layout import _i64, _loader, _u8
from ._keyset import _LOW_59, PERTURB_SHIFT  # (a dict's probe perturbs as a set's does)

__all__ = ["fill_rows"]

_i8 = _loader(types.int8)
_i16 = _loader(types.int16)
_i32 = _loader(types.int32)

#: Table sizes ``2**s`` whose template ``_PyDict_NewPresized`` makes (it stops at ``2**17``);
#: a larger row's template is a ``dict.fromkeys`` of as many keys as the row has.
PRESIZED_CLASSES = 17
ROW_TABLE_CLASSES = 48


def _usable(log2_size: int) -> int:
    """Entries a table of ``2**log2_size`` slots takes (CPython's ``USABLE_FRACTION``)."""
    return (2 << log2_size) // 3


@nb.njit(cache=True)
def _class_of(size):  # pragma: no cover - compiled
    """The least ``s >= 3`` whose ``2**s``-slot table takes ``size`` entries."""
    s = 3
    while (2 << s) // 3 < size:
        s += 1
    return s


@nb.njit(cache=True, parallel=True)
def _sizes_and_classes(off):  # pragma: no cover - compiled
    """Each row's size (``off`` its offsets) and table class (:func:`_class_of`), in one
    parallel pass (``off`` was written by many threads)."""
    rows = off.shape[0] - 1
    sizes = np.empty(rows, dtype=np.int64)
    classes = np.empty(rows, dtype=np.int64)
    for p in nb.prange(rows):
        sizes[p] = off[p + 1] - off[p]
        classes[p] = _class_of(sizes[p])
    return sizes, classes


#: Rows this long on average, or longer, are made here; shorter ones one at a time by
#: :func:`._capi_graph._rows`, which fills each row while it is in cache. H200 host, 16 threads,
#: ``k_core`` (session 20): urand:17's main core (15.6 entries a row) 539 -> 283 ms on the CPU
#: backend, 547 -> 336 on the GPU one; grid:708 (4 a row) 320 -> 363 and 245 -> 310 ms, so the
#: grid keeps the one-at-a-time rows. Not used where the rows are made by workers
#: (:func:`rows_forged`).
ENTRIES_PER_ROW = 8

# --------------------------------------------------------------------------- 1. placement
#: Threads from which the rows are placed in parallel. The parallel placement does about twice
#: the serial one's work (a reverse arc looked up per handed entry; urand:17's main core, 2
#: cores: 137 ms on one thread, 97 on two, against 64-76 ms serial; grid:708: 20 vs 25 ms).
PARALLEL_PLACE_THREADS = 4
#: Rows up to this many kept arcs are searched entry by entry for a reverse arc; longer ones
#: through a copy of their heads sorted (a hub's row would otherwise be scanned once per
#: neighbour).
SCAN_ROW = 32


@nb.njit(parallel=True, cache=True)
def _sorted_long_rows(arcs, deg, long_rows):  # pragma: no cover - compiled
    """For each row in ``long_rows``, its arcs (rows of ``arcs``: head, visiting position,
    copy) sorted by head, at the row's own positions ``deg[p]..deg[p + 1]`` (other rows'
    positions unset)."""
    by_head = np.empty_like(arcs)
    for i in nb.prange(long_rows.shape[0]):
        p = long_rows[i]
        lo, hi = deg[p], deg[p + 1]
        order = np.argsort(arcs[lo:hi, 0])
        for j in range(hi - lo):
            by_head[lo + j] = arcs[lo + order[j]]
    return by_head


@nb.njit(inline="always")
def _reverse_copy(arcs, deg, by_head, q, u):  # pragma: no cover - compiled
    """The copy on the arc from the row visited ``q``-th to ``u``; 0 if that row has none."""
    lo, hi = deg[q], deg[q + 1]
    if hi - lo <= SCAN_ROW:
        for j in range(lo, hi):
            if arcs[j, 0] == u:
                return arcs[j, 2]
        return np.int64(0)
    j = lo + np.searchsorted(by_head[lo:hi, 0], u)
    return by_head[j, 2] if j < hi and by_head[j, 0] == u else np.int64(0)


@nb.njit(parallel=True, cache=True)
def _place(visit, pos, heads, kept, deg, copy_at, start, indptr):  # pragma: no cover
    """:func:`_place_serial`'s result, each row placed by its own worker: the entry a row is
    handed by an earlier neighbour ``v`` is found from the row's own arc to ``v`` through the
    reverse arc (in ``v``'s row, which made the copy). The last value returned is whether
    every entry was placed that way: False when a reverse arc is missing or the kept arcs are
    not symmetric (then use :func:`_place_serial`)."""
    k = visit.shape[0]
    given = np.zeros(k, dtype=np.int64)
    own = np.zeros(k, dtype=np.int64)
    hands = np.zeros(k, dtype=np.int64)
    long = np.zeros(k, dtype=np.bool_)
    arcs = np.empty((kept.shape[0], 3), dtype=np.int64)  # per kept arc: head, position, copy
    for p in nb.prange(k):
        g = o = h = 0
        shift = start[p] - indptr[visit[p]]  # arc a of the row is visited arc a + shift
        for j in range(deg[p], deg[p + 1]):
            a = kept[j]
            q = pos[heads[a]]
            arcs[j, 0] = heads[a]
            arcs[j, 1] = q
            arcs[j, 2] = copy_at[a + shift] if q >= p else 0
            if q < p:
                g += 1
            else:
                o += 1
                if q > p:
                    h += 1
        given[p] = g
        own[p] = o
        hands[p] = h
        long[p] = deg[p + 1] - deg[p] > SCAN_ROW
    off = np.zeros(k + 1, dtype=np.int64)
    off[1:] = np.cumsum(given + own)
    node = np.empty(off[k], dtype=np.int64)
    value = np.empty(off[k], dtype=np.int64)
    if given.sum() != hands.sum():  # not symmetric: rows were handed what they do not keep
        return off, node, value, given, False
    by_head = _sorted_long_rows(arcs, deg, np.flatnonzero(long))
    found = np.ones(k, dtype=np.bool_)
    order = np.empty(off[k], dtype=np.int64)  # the handed entries' visiting positions
    flat = arcs.reshape(-1)
    for p in nb.prange(k):
        u = visit[p]
        lo = off[p]
        r_given = lo
        r_own = lo + given[p]
        end = deg[p + 1]
        for j in range(deg[p], end):
            if j + 6 < end and arcs[j + 6, 1] < p:  # two steps ahead: the row, its arcs
                _prefetch_item(deg, arcs[j + 6, 1])
            if j + 3 < end and arcs[j + 3, 1] < p:
                _prefetch_item(flat, 3 * deg[arcs[j + 3, 1]])
            h, q = arcs[j, 0], arcs[j, 1]
            if q >= p:
                node[r_own] = h
                value[r_own] = arcs[j, 2]
                r_own += 1
                continue
            c = _reverse_copy(arcs, deg, by_head, q, u)
            if c == 0:
                found[p] = False
                break
            # into the handed entries, kept in visiting order of their rows (few: insertion)
            i = r_given
            while i > lo and given[p] <= SCAN_ROW and order[i - 1] > q:
                node[i] = node[i - 1]
                value[i] = value[i - 1]
                order[i] = order[i - 1]
                i -= 1
            node[i] = h
            value[i] = c
            order[i] = q
            r_given += 1
        if given[p] > SCAN_ROW:  # many: sorted once
            by = np.argsort(order[lo:r_given], kind="mergesort")
            node[lo:r_given] = node[lo:r_given][by]
            value[lo:r_given] = value[lo:r_given][by]
    return off, node, value, given, found.all()


@nb.njit(cache=True)
def _place_serial(visit, pos, heads, kept, deg, copy_at, start, indptr):  # pragma: no cover
    """Each row's entries in the result's order: ``node[off[p]:off[p + 1]]`` the neighbours'
    dense ids, ``value`` their data dict copies, ``given[p]`` how many come first (the
    neighbours visited before, in visiting order, each handed over by that neighbour's row).
    ``pos``: each dense id's visiting position (-1: not kept); ``kept``/``deg``: each row's
    kept arcs (as :func:`._capi_graph._plan` gives them); ``copy_at``: the edges' data dict
    copies by visited arc number (see :func:`._capi_graph._plan`)."""
    k = visit.shape[0]
    given = np.zeros(k, dtype=np.int64)
    own = np.zeros(k, dtype=np.int64)
    for p in range(k):
        for j in range(deg[p], deg[p + 1]):
            q = pos[heads[kept[j]]]
            if q >= p:
                own[p] += 1
            if q > p:
                given[q] += 1
    off = np.zeros(k + 1, dtype=np.int64)
    for p in range(k):
        off[p + 1] = off[p] + given[p] + own[p]
    node = np.empty(off[k], dtype=np.int64)
    value = np.empty(off[k], dtype=np.int64)
    cursor = off[:k].copy()
    m = kept.shape[0]
    for p in range(k):
        u = visit[p]
        r = off[p] + given[p]
        shift = start[p] - indptr[u]  # arc a of row u is visited arc a + shift
        for j in range(deg[p], deg[p + 1]):
            if j + 8 < m:
                _prefetch_item(pos, heads[kept[j + 8]])
            a = kept[j]
            h = heads[a]
            q = pos[h]
            if q < p:
                continue  # its entry was handed over by row q
            copy = copy_at[a + shift]
            node[r] = h
            value[r] = copy
            r += 1
            if q > p:
                at = cursor[q]
                node[at] = u
                value[at] = copy
                cursor[q] = at + 1
    return off, node, value, given


# --------------------------------------------------------------------------- 2. allocation
@nb.njit(cache=True)
def _allocate(fns, templates, classes, sizes, rows):  # pragma: no cover - compiled
    """``rows[p]`` = a copy of ``templates[classes[p]]`` (an empty dict for a size of 0).
    Returns 0, or -1 after an allocation error (every row made released, the error cleared)."""
    for p in range(rows.shape[0]):
        if sizes[p] == 0:
            d = _call1(fns[PRESIZED], 0)  # PyDict_New(): no table, untracked, as CPython's
        else:
            d = _call1(fns[COPY], templates[classes[p]])
        if d == 0:
            for j in range(p):
                _decref(fns[DECREF], rows[j])
                rows[j] = 0
            return _fail(fns, 0)
        rows[p] = d
    return 0


#: Rows per task of :func:`_forge_rows` (each task links its rows into one chain).
ROW_CHUNK = 4096


@nb.njit(inline="always")
def _log2_index_bytes(log2):  # pragma: no cover - compiled
    """CPython's index width for a table of ``2**log2`` slots: 1, 2, 4 or 8 bytes a slot."""
    if log2 < 8:
        return log2
    if log2 < 16:
        return log2 + 1
    if log2 < 32:
        return log2 + 2
    return log2 + 3


@nb.njit(parallel=True, cache=True)
def _forge_rows(malloc, free, dict_type, classes, sizes, rows):  # pragma: no cover - compiled
    """``rows[p]`` = a new empty dict with a general table of ``2**classes[p]`` slots, for each
    row with ``sizes[p] > 0``, made by workers in memory from ``malloc`` (``PyMem_RawMalloc``;
    see :mod:`._parallel_copies`): the table as ``new_keys_object`` makes it (indices -1,
    entries zeroed), the object after its collector header. Each task links its rows through
    their headers into one chain (``_gc_prev`` set, ``_gc_next`` of the last 0). Returns the
    chains (first and last header) and how many rows got no memory (left 0)."""
    k = rows.shape[0]
    tasks = (k + ROW_CHUNK - 1) // ROW_CHUNK
    chains = np.zeros((tasks, 2), dtype=np.int64)
    refused = np.zeros(tasks, dtype=np.int64)
    for t in nb.prange(tasks):
        first = last = np.int64(0)
        for p in range(t * ROW_CHUNK, min(k, (t + 1) * ROW_CHUNK)):
            if sizes[p] == 0:
                continue
            log2 = classes[p]
            log2_bytes = _log2_index_bytes(log2)
            index_bytes = np.int64(1) << log2_bytes
            usable = (np.int64(2) << log2) // 3
            size = 32 + index_bytes + 24 * usable
            table = _call1(malloc, size)
            block = _call1(malloc, 64) if table != 0 else np.int64(0)
            if block == 0:
                if table != 0:
                    _call1(free, table)
                refused[t] += 1
                continue
            _store_i64(table, 1)  # dk_refcnt
            _store_i64(table + 8, log2 | (log2_bytes << 8))  # kind 0 (general), version 0
            _store_i64(table + 16, usable)  # dk_usable
            _store_i64(table + 24, 0)  # dk_nentries
            for w in range(index_bytes // 8):
                _store_i64(table + 32 + 8 * w, -1)
            for w in range(3 * usable):
                _store_i64(table + 32 + index_bytes + 8 * w, 0)
            obj = block + 16
            _store_i64(obj, 1)  # ob_refcnt
            _store_i64(obj + 8, dict_type)
            _store_i64(obj + 16, 0)  # ma_used
            _store_i64(obj + 24, 0)  # ma_version_tag
            _store_i64(obj + 32, table)
            _store_i64(obj + 40, 0)  # ma_values
            _store_i64(block, 0)  # _gc_next: set by the next row, or by _link
            _store_i64(block + 8, last)  # _gc_prev (no flag bits)
            if last == 0:
                first = block
            else:
                _store_i64(last, block)
            last = block
            rows[p] = obj
        chains[t, 0] = first
        chains[t, 1] = last
    return chains, refused.sum()


@nb.njit(cache=True)
def _link(after, chains):  # pragma: no cover - compiled
    """Put the chains of collector headers into the collector's list right after the tracked
    object ``after`` (its header's ``_gc_next`` and the next header's ``_gc_prev``; that one's
    flag bits kept)."""
    at = after - 16
    for t in range(chains.shape[0]):
        first, last = chains[t, 0], chains[t, 1]
        if first == 0:
            continue
        nxt = _i64(at)
        _store_i64(last, nxt)
        _store_i64(nxt + 8, (_i64(nxt + 8) & 3) | last)
        _store_i64(first + 8, at)
        _store_i64(at, first)
        at = last


@nb.njit(cache=True)
def _empty_rows(fns, sizes, rows):  # pragma: no cover - compiled
    """``rows[p]`` = ``PyDict_New()`` where ``sizes[p]`` is 0 (untracked, as CPython makes
    it); 0, or -1 after an allocation error (the error cleared)."""
    for p in range(rows.shape[0]):
        if sizes[p] == 0:
            d = _call1(fns[PRESIZED], 0)
            if d == 0:
                return _fail(fns, 0)
            rows[p] = d
    return 0


def _forged(fns: np.ndarray, classes: np.ndarray, sizes: np.ndarray, rows: np.ndarray) -> int:
    """:func:`_allocate`'s result by :func:`_forge_rows`, each row tracked by the collector as
    CPython's insertion of a dict value would make it; 0, or -1 (every row released)."""
    from ._parallel_copies import _raw_api

    malloc, free = _raw_api()
    chains, refused = _forge_rows(malloc, free, id(dict), classes, sizes, rows)
    after: list = []  # tracked at birth: the chains go into the collector's list beside it
    _link(id(after), chains)
    del after
    if refused or _empty_rows(fns, sizes, rows):
        _release_all(fns, rows)
        rows[:] = 0
        return -1
    return 0


# --------------------------------------------------------------------------- 3. the fill
@nb.njit(inline="always")
def _index_at(base, width, i):  # pragma: no cover - compiled
    if width == 1:
        return np.int64(_i8(base + i))
    if width == 2:
        return np.int64(_i16(base + 2 * i))
    if width == 4:
        return np.int64(_i32(base + 4 * i))
    return _i64(base + 8 * i)


@nb.njit(inline="always")
def _set_index(base, width, i, ix):  # pragma: no cover - compiled
    """Index slot ``i`` = ``ix``, written as the aligned int64 word holding it (the table is
    the worker's own, so read-modify-write is safe)."""
    at = base + width * i
    word = at & ~np.int64(7)
    shift = 8 * (at - word)
    mask = (np.int64(1) << (8 * width)) - 1 if width < 8 else np.int64(-1)
    old = _i64(word)
    _store_i64(word, (old & ~(mask << shift)) | ((ix & mask) << shift))


@nb.njit(parallel=True, cache=True)
def _fill(rows, off, node, value, given, visit, pos, key_of):  # pragma: no cover
    """Write each row's entries and index table (see the module's notes); then add to each
    node's label one reference per entry it keys (its row's size: the graph is undirected).
    ``key_of``: as :func:`fill_rows` takes it."""
    k = rows.shape[0]
    for p in nb.prange(k):
        n = off[p + 1] - off[p]
        if n == 0:
            continue
        d = rows[p]
        keys = _i64(d + 32)
        log2 = np.int64(_u8(keys + 8))
        index_bytes = np.int64(1) << _u8(keys + 9)
        width = index_bytes >> log2
        mask = (np.int64(1) << log2) - 1
        usable = _i64(keys + 16) + _i64(keys + 24)  # the template's entries are overwritten
        old = _i64(keys + 24)
        base = keys + 32
        for w in range(index_bytes // 8):
            _store_i64(base + 8 * w, -1)
        entries = base + index_bytes
        first = off[p]
        for j in range(n):
            v = node[first + j]
            h = key_of[v, 1]
            at = entries + 24 * j
            _store_i64(at, h)
            _store_i64(at + 8, key_of[v, 0])
            copy = value[first + j]
            _store_i64(at + 16, copy)
            if j >= given[p] and pos[v] != p:
                _add_refs(copy, 1)  # its second row's, handed over (this row made it)
            i = h & mask
            perturb = h
            while _index_at(base, width, i) != -1:
                perturb = (perturb >> PERTURB_SHIFT) & _LOW_59
                i = (i * 5 + perturb + 1) & mask
            _set_index(base, width, i, j)
        for j in range(n, old):  # a large template's surplus entries: not the row's
            for f in range(3):
                _store_i64(entries + 24 * j + 8 * f, 0)
        _store_i64(keys + 16, usable - n)  # dk_usable
        _store_i64(keys + 24, n)  # dk_nentries
        _store_i64(d + 16, n)  # ma_used
    for p in nb.prange(k):
        n = off[p + 1] - off[p]
        if n != 0:
            _add_refs(key_of[visit[p], 0], n)


@nb.njit(cache=True)
def _return_template_refs(template, copies):  # pragma: no cover - compiled
    """Give back the references ``copies`` copies of the dict ``template`` took to its keys
    and values (the copies' entries were overwritten without releasing them)."""
    keys = _i64(template + 32)
    entries = keys + 32 + (np.int64(1) << _u8(keys + 9))
    for j in range(_i64(keys + 24)):
        _add_refs(_i64(entries + 24 * j + 8), -copies)
        _add_refs(_i64(entries + 24 * j + 16), -copies)


# --------------------------------------------------------------------------- the driver
def _template(log2_size: int, largest: int, value: dict) -> dict | None:
    """A dict tracked by the collector (its values are ``value``) whose general table takes
    ``largest`` entries: a presized one with one entry, or ``dict.fromkeys`` of ``largest``
    keys beyond :data:`PRESIZED_CLASSES`. None when CPython made it otherwise."""
    if log2_size <= PRESIZED_CLASSES:
        d = _new_dict(api().fns, _usable(log2_size))
        d[0] = value
    else:
        d = dict.fromkeys(range(largest), value)
    keys = ctypes.c_int64.from_address(id(d) + 32).value
    kind = ctypes.c_uint8.from_address(keys + 10).value
    no_values = ctypes.c_int64.from_address(id(d) + 40).value == 0
    entries = ctypes.c_int64.from_address(keys + 24).value
    room = ctypes.c_int64.from_address(keys + 16).value + entries
    compact = entries == len(d)
    return d if kind == 0 and no_values and compact and room >= largest else None


def rows_forged() -> bool:
    """Whether :func:`fill_rows` makes the rows by :func:`_forge_rows` (as many threads as
    :mod:`._parallel_copies` wants, and its allocator checks passed), not from templates."""
    from . import _parallel_copies

    return nb.get_num_threads() >= _parallel_copies.PARALLEL_COPY_THREADS and (
        _parallel_copies.allowed()
    )


def fill_rows(fns: np.ndarray, adj_out: dict, node_out: dict, visit, pos, heads, kept, deg,
              copy_at, start, indptr, key_of: np.ndarray) -> int:  # fmt: skip
    """Make the rows of an undirected result graph and put them into ``adj_out`` (``H._adj``,
    empty) in visiting order. ``node_out`` is ``H._node``, already filled; the other
    arguments are :func:`._capi_graph.build_graph`'s, ``key_of`` each dense id's label address and
    hash side by side (one cache line). The copies in
    ``copy_at`` pass to the rows (``copy_at`` is zeroed). Returns 0; -1 after an allocation
    error (the error cleared, ``copy_at`` unchanged or zeroed with the copies owned by rows
    already freed); 1 when a template could not be made (nothing done: build the rows another
    way)."""
    placed = False
    if nb.get_num_threads() >= PARALLEL_PLACE_THREADS:
        off, node, value, given, placed = _place(visit, pos, heads, kept, deg, copy_at, start,
                                                 indptr)  # fmt: skip
    if not placed:
        off, node, value, given = _place_serial(visit, pos, heads, kept, deg, copy_at, start,
                                                indptr)  # fmt: skip
    sizes, classes = _sizes_and_classes(off)
    rows = np.zeros(visit.shape[0], dtype=np.int64)
    templates: dict[int, dict] = {}
    if rows_forged():
        failed = _forged(fns, classes, sizes, rows)
    else:
        made_templates = _templates(classes, sizes)
        if made_templates is None:
            return 1
        templates, table = made_templates
        failed = _allocate(fns, table, classes, sizes, rows)
    if failed:
        return -1
    _fill(rows, off, node, value, given, visit, pos, key_of)
    zero_fill(copy_at)  # (every copy is now held by its rows)
    if templates:
        made = np.bincount(classes[sizes > 0], minlength=ROW_TABLE_CLASSES)
        for c, t in templates.items():
            _return_template_refs(id(t), int(made[c]))
    return _put_all(fns, adj_out, node_out, rows, visit, key_of)


def _templates(classes: np.ndarray, sizes: np.ndarray) -> tuple[dict, np.ndarray] | None:
    """A template per table class in use (:func:`_template`, all sharing one value) and their
    addresses by class; None when one could not be made."""
    shared_value: dict = {}
    templates: dict[int, dict] = {}
    for c in np.unique(classes[sizes > 0]).tolist():
        t = _template(c, int(sizes[classes == c].max()), shared_value)
        if t is None:
            return None
        templates[c] = t
    table = np.zeros(ROW_TABLE_CLASSES, dtype=np.int64)
    for c, t in templates.items():
        table[c] = id(t)
    return templates, table


def _put_all(fns: np.ndarray, adj_out: dict, node_out: dict, rows, visit, key_of) -> int:
    """The rows into ``adj_out`` (empty) in visiting order, each row's reference passed; 0,
    or -1 after an error (the rows not put released). Where ``node_out`` holds the same labels
    in the same order in a table of the same size (``H._node``, made first), its entries and
    index table are cloned by workers (:func:`._capi_nodes._fill_clone`: grid:708's 501k rows, H200
    host, 12-15 ms one at a time); else :func:`_put_rows`."""
    n = rows.shape[0]
    if len(node_out) == n and _fits(id(node_out), id(adj_out), n):
        _fill_clone(id(node_out), id(adj_out), rows, id(int), id(str), id(float))
        if not gc.is_tracked(adj_out):  # (its values are dicts, as CPython's insertion tracks)
            ctypes.pythonapi.PyObject_GC_Track(ctypes.py_object(adj_out))
        return 0
    return _put_rows(fns, id(adj_out), rows, visit, key_of)


@nb.njit(cache=True)
def _put_rows(fns, adj_out, rows, visit, key_of):  # pragma: no cover - compiled
    """``adj_out[label] = rows[p]`` in visiting order, each row's reference passed; 0, or -1
    after an error (the rows not put released)."""
    for p in range(rows.shape[0]):
        u = visit[p]
        if _put(fns, adj_out, key_of[u, 0], rows[p], key_of[u, 1]):
            for j in range(p + 1, rows.shape[0]):
                _decref(fns[DECREF], rows[j])
            return _fail(fns, 0)
    return 0
