"""NetworkX adjacency read at C speed: CPython's dict tables scanned by Numba, no Python object
touched per arc.

Iterating ``G._adj`` from Python costs ~150 ns per arc on a large graph, nearly all of it one
cache miss: every key (neighbour) object has its reference count bumped and its value read, and
those objects lie scattered over the heap. But a dict's entry table stores each key's *hash*
beside the key pointer, and for the nodes of a graph the hash identifies the node: equal keys
hash equally, so when the ``n`` node labels have ``n`` distinct hashes, an arc's neighbour id is
the position of the node with that hash (for the labels ``0..n-1`` the hash *is* the id). This
module walks the tables in a parallel Numba loop and returns, per arc in NetworkX's adjacency
order, the neighbour's hash and the address of the arc's data dict; a second pass reads one
attribute (the weight) from those data dicts, ``int`` and ``float`` values decoded in place.

This reads CPython's private layout (``Include/internal/pycore_dict.h``, ``longintrepr.h``), the
same from 3.11 to 3.13 except for the ``int`` header (3.12+ stores a tagged digit count). It is
used only on CPython 3.11-3.13 builds with the GIL, after a self-test on dicts made for the
purpose; any surprise on a real graph (a dict subclass or split table, a table whose live entries
do not match its size, a key hash that is no node's, an attribute value of another type) makes
the caller fall back to iterating in Python, which gives the same answer. The Numba functions
hold the GIL (no ``nogil``), so no Python thread can change the dicts while they are read. Set
``WARPGRAPH_NX_RAW=0`` to always iterate in Python.
"""

from __future__ import annotations

import ctypes
import logging
import os
import sys
import sysconfig
from itertools import pairwise
from typing import Any, NamedTuple

import numba as nb
import numpy as np
from numba import prange, types
from numba.extending import intrinsic

from ..cpu import prefix
from ..cpu.prefetch import prefetch_address as _prefetch

__all__ = [
    "Adjacency",
    "Arcs",
    "adjacency",
    "arc_hashes",
    "available",
    "graph_adjacency",
    "has_empty_value",
    "has_isolated_node",
    "ids_from_hashes",
    "int_range_keys",
    "read_attribute",
    "rows_adjacency",
]

# Codes of read_attribute, per arc.
INT, FLOAT, NONE, MISSING, OTHER = 0, 1, 2, 3, 4


def empty_keys_address() -> int:
    """The address of CPython's shared empty key table (``Py_EMPTY_KEYS``): the table of a
    new empty dict, as ``PyDict_New`` makes it (``ma_keys``, offset 32)."""
    fresh: dict = {}
    return ctypes.c_int64.from_address(id(fresh) + 32).value


def immortal_count(count: int) -> bool:
    """Whether a reference count read as an int64 is CPython 3.12+'s immortal mark (the low
    32 bits negative), which increments and decrements leave alone."""
    return (count & 0xFFFFFFFF) >= 1 << 31


def _loader(nbtype):
    @intrinsic
    def load(typingctx, addr):
        if not isinstance(addr, types.Integer):
            return None

        def codegen(context, builder, signature, args):
            ptr = builder.inttoptr(args[0], context.get_value_type(nbtype).as_pointer())
            return builder.load(ptr)

        return nbtype(addr), codegen

    return load


_i64 = _loader(types.int64)
_u8 = _loader(types.uint8)
_u32 = _loader(types.uint32)
_f64 = _loader(types.float64)

# PyObject: ob_refcnt 0, ob_type 8. PyDictObject: ma_used 16, ma_keys 32, ma_values 40.
# PyDictKeysObject: dk_log2_index_bytes 9, dk_kind 10, dk_nentries 24, dk_indices 32; entries
# follow the indices: (hash, key, value) for kind 0 (general), (key, value) for kind 1 (str
# keys: the hash is then read from the str object, offset 24).


@nb.njit(cache=True)
def _table(d):  # pragma: no cover - compiled
    """(entries address, entry size, kind, number of entries) of dict ``d``; size 0: unusable."""
    keys = _i64(d + 32)
    kind = _u8(keys + 10)
    entries = keys + 32 + (np.int64(1) << _u8(keys + 9))
    size = 24 if kind == 0 else (16 if kind == 1 else 0)
    return entries, size, kind, _i64(keys + 24)


@nb.njit(cache=True)
def _prefetch_rows_ahead(dicts, i, rows, dict_type=0):  # pragma: no cover - compiled
    """Rows lie scattered: fetch the dict of row ``i + 48``, the key table header of row
    ``i + 24`` and the entries of row ``i + 12`` (located from its header, fetched 12 rows
    before; at most 8 cache lines): without the last, each row's entries cost serialized
    misses. Table scan, best of 7, against the dict and header prefetches alone (16 / 8
    rows ahead): 2 threads, three processes each, urand:17 17-19 -> 8-10.5 ms, grid:708
    22 -> 13.4-17 ms; H200 host, 16 threads, urand:17 2.51 -> 2.04 ms, grid:708 5.37 ->
    5.06 ms. Shorter distances (entries 2-4 rows ahead) made the grid (4 entries a row)
    slower on 2 cores: the loads of that row's header had not arrived. ``dict_type``: the
    rows were not checked yet, so a row's table is located only once its object is of this
    type (reading past the header of another object could leave it); 0: they were."""
    if i + 48 < rows:
        _prefetch(dicts[i + 48])
    if i + 24 < rows and (dict_type == 0 or _i64(dicts[i + 24] + 8) == dict_type):
        _prefetch(_i64(dicts[i + 24] + 32))
    if i + 12 < rows and (dict_type == 0 or _i64(dicts[i + 12] + 8) == dict_type):
        _prefetch_entries(dicts[i + 12])


@nb.njit(cache=True, inline="always")
def _prefetch_entries(d):  # pragma: no cover - compiled
    """Fetch the first entries of dict ``d``'s table (located from its key table header,
    fetched before; at most 8 cache lines)."""
    keys = _i64(d + 32)
    entries = keys + 32 + (np.int64(1) << _u8(keys + 9))
    span = min(_i64(keys + 24) * 24, 512)  # dk_nentries entries of at most 24 bytes
    for line in range(0, span, 64):
        _prefetch(entries + line)


@nb.njit(cache=True)
def _prefetch_rows_start(dicts, rows, dict_type):  # pragma: no cover - compiled
    """Fetch what :func:`_prefetch_rows_ahead` leaves out at the start of a scan: the key
    table headers of the first 24 rows, then the entries of the first 12 (their dicts were
    read already, checked to be of type ``dict_type`` here). A scan of a few rows (a narrow
    layer shared among workers) is then not a chain of serialized misses, row after row."""
    for i in range(min(rows, 24)):
        if _i64(dicts[i] + 8) == dict_type:
            _prefetch(_i64(dicts[i] + 32))
    for i in range(min(rows, 12)):
        if _i64(dicts[i] + 8) == dict_type:
            _prefetch_entries(dicts[i])


@nb.njit(cache=True)
def _entry(at, kind):  # pragma: no cover - compiled
    """(value address, key hash) of the table entry at ``at``; value 0: a deleted entry. General
    tables store (hash, key, value); unicode-keyed ones (key, value), the hash in the str."""
    if kind == 0:
        return _i64(at + 16), _i64(at)
    v = _i64(at + 8)
    return v, (_i64(_i64(at) + 24) if v != 0 else 0)


@nb.njit(cache=True)
def _entry_key(at, kind):  # pragma: no cover - compiled
    """(value address, key address) of the table entry at ``at`` (layouts as in
    :func:`_entry`); value 0: a deleted entry, whose key is not to be read."""
    if kind == 0:
        return _i64(at + 16), _i64(at + 8)
    return _i64(at + 8), _i64(at)


@nb.njit(parallel=True, cache=True)
def _lengths(dicts, dict_type, out):  # pragma: no cover - compiled
    """``len`` of each dict into ``out``; returns how many are not plain combined dicts."""
    bad = 0
    for i in prange(dicts.shape[0]):
        d = dicts[i]
        ok = _i64(d + 8) == dict_type and _i64(d + 40) == 0  # read past the header if a dict
        out[i] = _i64(d + 16) if ok else 0
        bad += 0 if ok else 1
    return bad


@nb.njit(parallel=True, cache=True)
def _row_offsets(dicts, dict_type, indptr, totals, size):  # pragma: no cover - compiled
    """``indptr[i + 1]``: the summed lengths of ``dicts`` up to ``i`` within its chunk of
    ``size`` rows, ``totals[c + 1]``: chunk ``c``'s sum (:mod:`..cpu.prefix`: a serial
    ``np.cumsum`` of lengths written by many threads reads each line from another core's
    cache, 1.7 ms for 501k rows on a 16-core host, against the 0.5 ms parallel pass that read
    them). Returns how many rows are not plain combined dicts."""
    rows = dicts.shape[0]
    bad = 0
    for c in prange(totals.shape[0] - 1):
        run = 0
        odd = 0
        for i in range(c * size, min(rows, (c + 1) * size)):
            d = dicts[i]
            ok = _i64(d + 8) == dict_type and _i64(d + 40) == 0  # read past the header if a dict
            run += _i64(d + 16) if ok else 0
            odd += 0 if ok else 1
            indptr[i + 1] = run
        totals[c + 1] = run
        bad += odd
    return bad


@nb.njit(parallel=True, cache=True)
def _hash_mismatches(a, b, check_b):  # pragma: no cover - compiled
    """(positions where ``a`` is not its position, where ``b`` differs from ``a`` if
    ``check_b``): one parallel pass (serial NumPy comparisons read arrays written by many
    threads from other cores' caches: ~1 ms per 501k hashes)."""
    moved = 0
    differ = 0
    for i in prange(a.shape[0]):
        h = a[i]
        moved += 0 if h == i else 1
        if check_b:
            differ += 0 if b[i] == h else 1
    return moved, differ


@nb.njit(parallel=True, cache=True)
def _scan(dicts, indptr, hashes, values):  # pragma: no cover - compiled
    """Key hash and value address of every live entry, row by row in insertion order; returns
    how many rows did not match (unknown table kind, live entries != size, str hash unset)."""
    bad = 0
    n = dicts.shape[0]
    for i in prange(n):
        _prefetch_rows_ahead(dicts, i, n)
        entries, size, kind, count = _table(dicts[i])
        pos = indptr[i]
        end = indptr[i + 1]
        ok = size != 0
        for e in range(count if ok else 0):
            at = entries + size * e
            v, h = _entry(at, kind)
            if v == 0:  # deleted entry
                continue
            if pos == end or h == -1:
                ok = False
                break
            hashes[pos] = h
            values[pos] = v
            pos += 1
        bad += 0 if ok and pos == end else 1
    return bad


@nb.njit(parallel=True, cache=True)
def _scan_ids(
    dicts, indptr, direct, n, keys, ids, bits, nx_order, values, want_values, scratch
):  # pragma: no cover - compiled
    """:func:`_scan` fused with the hash -> node id look-up (``direct``: the hashes are the ids
    ``0..n-1``; otherwise the open-addressing table ``keys``/``ids``, probed once a row's
    hashes are in ``scratch``, so that the probes of a row overlap): the neighbour id of every
    live entry into ``nx_order`` (and the value address into ``values`` if ``want_values``),
    no pass over a hash array of every arc. Returns (rows that did not match or held a hash
    that is no node's, rows not sorted by id, self-loop arcs: row ``i``'s entries ``i``)."""
    bad = 0
    unsorted = 0
    loops = 0
    rows = dicts.shape[0]
    mask = (np.int64(1) << bits) - 1
    shift = np.uint64(64 - bits)
    for i in prange(rows):
        _prefetch_rows_ahead(dicts, i, rows)
        entries, size, kind, count = _table(dicts[i])
        start = indptr[i]
        pos = start
        end = indptr[i + 1]
        ok = size != 0
        for e in range(count if ok else 0):
            at = entries + size * e
            v, h = _entry(at, kind)
            if v == 0:  # deleted entry
                continue
            if pos == end or h == -1:
                ok = False
                break
            if direct:
                if not 0 <= h < n:
                    ok = False
                    break
                nx_order[pos] = h
            else:
                scratch[pos] = h
            if want_values:
                values[pos] = v
            pos += 1
        if ok and not direct:
            for p in range(start, pos):
                found = _position(scratch[p], keys, ids, mask, shift)
                if found < 0:
                    ok = False
                    break
                nx_order[p] = found
        order = 0
        own = 0
        if ok:
            for p in range(start + 1, pos):
                if nx_order[p] < nx_order[p - 1]:
                    order = 1
                    break
            for p in range(start, pos):
                own += 1 if nx_order[p] == i else 0
        bad += 0 if ok and pos == end else 1
        unsorted += order
        loops += own
    return bad, unsorted, loops


@nb.njit(cache=True)
def _long(v, tagged):  # pragma: no cover - compiled
    """(value, ok) of a Python int object of at most two 30-bit digits."""
    head = _i64(v + 16)
    if tagged:  # 3.12+: lv_tag = ndigits << 3 | sign (0 positive, 1 zero, 2 negative)
        ndig = head >> 3
        neg = (head & 3) == 2
    else:  # 3.11: ob_size = +-ndigits
        ndig = -head if head < 0 else head
        neg = head < 0
    if ndig > 2:
        return 0, False
    x = np.int64(0)
    if ndig >= 1:
        x = np.int64(_u32(v + 24))
    if ndig == 2:
        x += np.int64(_u32(v + 28)) << 30
    return (-x if neg else x), True


@nb.njit(cache=True)
def _value(d, dict_type, name, name_hash, int_type, float_type, none, tagged):  # pragma: no cover
    """(code, int value, float value) of attribute ``name`` (a str's address) in data dict
    ``d``."""
    if _i64(d + 8) != dict_type or _i64(d + 40) != 0:
        return OTHER, 0, 0.0
    entries, size, kind, count = _table(d)
    if size == 0:
        return OTHER, 0, 0.0
    for e in range(count):
        at = entries + size * e
        if kind == 0:
            k = _i64(at + 8)
            v = _i64(at + 16)
        else:
            k = _i64(at)
            v = _i64(at + 8)
        if v == 0:
            continue
        if k != name:
            h = _i64(at) if kind == 0 else _i64(k + 24)
            if h == name_hash:  # an equal-hashed key that is another object
                return OTHER, 0, 0.0
            continue
        t = _i64(v + 8)
        if t == int_type:
            x, ok = _long(v, tagged)
            return (INT if ok else OTHER), x, 0.0
        if t == float_type:
            return FLOAT, 0, _f64(v + 16)
        return (NONE if v == none else OTHER), 0, 0.0
    return MISSING, 0, 0.0


@nb.njit(cache=True)
def _ahead(d, dict_type, stage):  # pragma: no cover - compiled
    """Prefetch what reading data dict ``d`` will touch: stage 1 its table, stage 2 the value of
    its first entry (the dict and then its table were fetched before)."""
    if _i64(d + 8) != dict_type or _i64(d + 40) != 0:
        return
    keys = _i64(d + 32)
    if stage == 1:
        _prefetch(keys)
        _prefetch(keys + 56)
        return
    kind = _u8(keys + 10)
    entries = keys + 32 + (np.int64(1) << _u8(keys + 9))
    if kind == 0:
        _prefetch(_i64(entries + 16))
    elif kind == 1:
        _prefetch(_i64(entries + 8))


#: Prefetch distances (in arcs) of :func:`_decode`: a data dict is fetched ``_AHEAD_DICT`` arcs
#: before it is decoded, its table ``_AHEAD_TABLE`` and its first value ``_AHEAD_VALUE`` before.
_AHEAD_DICT, _AHEAD_TABLE, _AHEAD_VALUE = 64, 32, 8


@nb.njit(cache=True)
def _decode_chunk(datas, lo, hi, attr, default, codes, ivals, fvals):  # pragma: no cover
    """Arcs ``lo..hi-1`` of :func:`_decode`; returns how many got INT, FLOAT and NONE."""
    dict_type, name, name_hash, int_type, float_type, none, tagged = attr
    dcode, dint, dfloat = default
    c_int = 0
    c_float = 0
    c_none = 0
    for a in range(lo, hi):
        if a + _AHEAD_DICT < hi:
            _prefetch(datas[a + _AHEAD_DICT])
        if a + _AHEAD_TABLE < hi:
            _ahead(datas[a + _AHEAD_TABLE], dict_type, 1)
        if a + _AHEAD_VALUE < hi:
            _ahead(datas[a + _AHEAD_VALUE], dict_type, 2)
        code, x, f = _value(datas[a], dict_type, name, name_hash, int_type, float_type, none,
                            tagged)  # fmt: skip
        if code == MISSING:
            code, x, f = dcode, dint, dfloat
        codes[a] = code
        if code == FLOAT:
            fvals[a] = f
            c_float += 1
        else:
            ivals[a] = x
            c_int += 1 if code == INT else 0
            c_none += 1 if code == NONE else 0
    return c_int, c_float, c_none


@nb.njit(parallel=True, cache=True)
def _decode(datas, attr, default, codes, ivals, fvals):  # pragma: no cover - compiled
    """Attribute values read in place, the default applied and the codes counted in the same
    pass: attribute ``attr`` (``(dict type, name address, name hash, int type, float type,
    None, tagged)``) of each data dict at ``datas``: a code per arc into ``codes`` (a missing
    value gets ``default``'s: ``(code, int value, float value)``), the value into ``ivals``
    (ints and None: 0) or ``fvals`` (floats), which may be two views of one buffer. Returns how
    many arcs got INT, FLOAT, NONE and any other code. The dicts lie scattered over the heap:
    each is prefetched 64 reads ahead, its table 32 and its first value 8 ahead (1.6x faster
    than 24/12/6 on one thread for urand:17's 2.1M arcs: 40 vs 65 ms)."""
    m = datas.shape[0]
    chunk = 8192
    n_int = 0
    n_float = 0
    n_none = 0
    for c in prange((m + chunk - 1) // chunk):
        lo = c * chunk
        hi = min(lo + chunk, m)
        ci, cf, cn = _decode_chunk(datas, lo, hi, attr, default, codes, ivals, fvals)
        n_int += ci
        n_float += cf
        n_none += cn
    return n_int, n_float, n_none, m - n_int - n_float - n_none


_GOLDEN = np.uint64(0x9E3779B97F4A7C15)


@nb.njit(cache=True)
def _slot(h, shift):  # pragma: no cover - compiled
    return np.int64((np.uint64(h) * _GOLDEN) >> shift)


@nb.njit(cache=True)
def _hash_table(node_hashes, bits):  # pragma: no cover - compiled
    """Open-addressing table (2**bits slots) from hash to node position; ok False when two
    nodes share a hash."""
    size = np.int64(1) << bits
    shift = np.uint64(64 - bits)
    keys = np.zeros(size, dtype=np.int64)
    ids = np.full(size, -1, dtype=np.int32)
    for i in range(node_hashes.shape[0]):
        h = node_hashes[i]
        j = _slot(h, shift)
        while ids[j] != -1:
            if keys[j] == h:
                return keys, ids, False
            j = (j + 1) & (size - 1)
        keys[j] = h
        ids[j] = i
    return keys, ids, True


@nb.njit(cache=True, inline="always")
def _position(h, keys, ids, mask, shift):  # pragma: no cover - compiled
    """Node position of hash ``h`` in the table of :func:`_hash_table`, or -1 (no node's)."""
    j = _slot(h, shift)
    while ids[j] != -1:
        if keys[j] == h:
            return np.int64(ids[j])
        j = (j + 1) & mask
    return np.int64(-1)


def hash_lookup(node_hashes: np.ndarray, direct: bool) -> tuple[int, np.ndarray, np.ndarray] | None:
    """``(bits, keys, ids)``: the open-addressing table from node hash to position that the
    scans probe (a placeholder when ``direct``: the hashes are the positions ``0..n-1``); None
    when two nodes share a hash.

    Raises
    ------
    TypeError
        Unless ``node_hashes`` is a one-dimensional int64 array.
    """
    if (
        not isinstance(node_hashes, np.ndarray)
        or node_hashes.dtype != np.int64
        or node_hashes.ndim != 1
    ):
        raise TypeError(
            f"hash_lookup reads a 1-D int64 array of node hashes, got {node_hashes!r:.80}"
        )
    if direct:
        return 4, np.zeros(1, np.int64), np.full(1, -1, np.int32)
    bits = max(4, int(2 * node_hashes.size).bit_length())  # load factor <= 1/2
    keys, ids, distinct = _hash_table(node_hashes, bits)
    return (bits, keys, ids) if distinct else None


@nb.njit(cache=True)
def _position_table(d, dict_type):  # pragma: no cover - compiled
    """``(entries address, count)`` of the dict ``d``'s table when ``d`` is plain and
    combined, of general keys, every entry live, and its first, middle and last entries hold
    the key hashes of their positions; ``(0, 0)`` otherwise."""
    if _i64(d + 8) != dict_type or _i64(d + 40) != 0:
        return np.int64(0), np.int64(0)
    entries, _, kind, count = _table(d)
    if kind != 0 or count != _i64(d + 16) or count == 0:
        return np.int64(0), np.int64(0)
    mid = count // 2
    if (
        _i64(entries) != 0
        or _i64(entries + 24 * mid) != mid
        or _i64(entries + 24 * (count - 1)) != count - 1
    ):
        return np.int64(0), np.int64(0)
    return entries, count


@nb.njit(parallel=True, cache=True)
def _off_position(entries, count, chunk):  # pragma: no cover - compiled
    """How many of the ``count`` general entries at ``entries`` are deleted or hold a key hash
    other than their position; read in parallel chunks."""
    bad = 0
    for c in prange((count + chunk - 1) // chunk):
        for e in range(c * chunk, min(count, (c + 1) * chunk)):
            at = entries + 24 * e
            bad += 0 if _i64(at) == e and _i64(at + 16) != 0 else 1
    return bad


def _rows_by_position(outer: dict) -> np.ndarray | None:
    """The row dict addresses of ``outer`` when its key hashes are its positions ``0..n-1``
    (as for the labels ``0..n-1`` in order), else None: a read-only view of the value
    fields of its entry table (a stride of 24 bytes), valid while ``outer`` is unchanged.

    The general path (:func:`_dict_entries`, then :func:`identity_hashes`) writes every
    hash and row address to new arrays (page faults on each call), then reads the hashes
    again. Here the table is read once and nothing is written. Three entries are looked at
    first, so that other labels cost no pass. 2 cores, grid:708's ``_pred`` (501k rows),
    median of 21 after ``gc.collect()``: 1.3 -> 0.7 ms.
    """
    if type(outer) is not dict:
        return None
    entries, n = _position_table(id(outer), id(dict))
    if n == 0 or _off_position(entries, n, 8192):
        return None
    table = (ctypes.c_char * (24 * int(n))).from_address(int(entries))
    rows = np.ndarray((n,), dtype=np.int64, buffer=table, offset=16, strides=(24,))
    rows.flags.writeable = False
    return rows


class RowTables(NamedTuple):
    """What :func:`row_tables` read of an outer adjacency dict: its keys' hashes (None when
    they are the positions ``0..n-1``) and row dict addresses in its order, and the
    hash-to-position table (:func:`hash_lookup`)."""

    hashes: np.ndarray | None
    rows: np.ndarray
    direct: bool
    bits: int
    keys: np.ndarray
    ids: np.ndarray


def row_tables(outer: dict, min_rows: int = 4096) -> RowTables | None:
    """The rows of the outer adjacency dict ``outer`` (``G._adj``, ``_succ`` or ``_pred``)
    for the scans that read them in place (:mod:`._dict_components`, :mod:`._dict_reach`),
    each entry's key hash then giving its node's position: None where they cannot be read so
    (fewer than ``min_rows`` or 2**31 or more rows, the reader unavailable, not a plain dict,
    node hashes that are not distinct).

    Examples
    --------
    >>> import networkx as nx
    >>> found = row_tables(nx.path_graph(5000)._adj)
    >>> found is None or (found.direct, found.rows.size)
    (True, 5000)
    """
    n = len(outer)
    if not min_rows <= n < 2**31 - 1 or not available():
        return None  # (int32 labels; the conversion refuses 2**31 nodes with its own message)
    rows = _rows_by_position(outer)
    if rows is not None:
        return RowTables(None, rows, True, *hash_lookup(np.empty(0, np.int64), True))
    found = _dict_entries(outer)
    if found is None or found[0].size != n:
        return None
    hashes, rows = found
    direct = identity_hashes(hashes)
    lookup = hash_lookup(hashes, direct)
    return None if lookup is None else RowTables(hashes, rows, direct, *lookup)


@nb.njit(parallel=True, cache=True)
def _ids_by_hash(hashes, keys, ids, bits, out):  # pragma: no cover - compiled
    """``out[a]`` = the node position of hash ``hashes[a]``; returns how many are no node's."""
    bad = 0
    mask = (np.int64(1) << bits) - 1
    shift = np.uint64(64 - bits)
    for a in prange(hashes.shape[0]):
        found = _position(hashes[a], keys, ids, mask, shift)
        out[a] = found if found >= 0 else 0
        bad += 0 if found >= 0 else 1
    return bad


@nb.njit(cache=True)
def _ids_direct(hashes, n, out):  # pragma: no cover - compiled
    bad = 0  # serial: one streaming pass, cheaper than waking threads
    for a in range(hashes.shape[0]):
        h = hashes[a]
        ok = 0 <= h < n
        out[a] = h if ok else 0
        bad += 0 if ok else 1
    return bad


@nb.njit(parallel=True, cache=True)
def _live_entries(d, chunk, counts):  # pragma: no cover - compiled
    """Live entries of each ``chunk`` of dict ``d``'s entry table into ``counts``; False when
    ``d``'s table is of neither known kind (general keys, or str keys only)."""
    entries, size, kind, count = _table(d)
    if size == 0:
        return False
    for c in prange(counts.shape[0]):
        live = 0
        for e in range(c * chunk, min(count, (c + 1) * chunk)):
            live += 1 if _i64(entries + size * e + (16 if kind == 0 else 8)) != 0 else 0
        counts[c] = live
    return True


@nb.njit(parallel=True, cache=True)
def _entries(d, chunk, starts, hashes, values):  # pragma: no cover - compiled
    """Hash and value address of each live entry of ``d``, chunks written from ``starts`` (from
    :func:`_live_entries`); returns how many hashes were unset (-1: then unusable)."""
    entries, size, kind, count = _table(d)
    unset = 0
    for c in prange(starts.shape[0] - 1):
        pos = starts[c]
        for e in range(c * chunk, min(count, (c + 1) * chunk)):
            v, h = _entry(entries + size * e, kind)
            if v != 0:
                unset += 1 if h == -1 else 0
                hashes[pos] = h
                values[pos] = v
                pos += 1
    return unset


@nb.njit(cache=True)
def _first_empty(entries, size, kind, lo, hi, dict_type):  # pragma: no cover - compiled
    """Index of the first entry in ``lo..hi`` whose value is an empty plain dict; -1 if none,
    -2 at a value that is not a plain combined dict (then nothing can be said)."""
    at_value = 16 if kind == 0 else 8
    for e in range(lo, hi):
        if e + 16 < hi:  # the row dicts lie scattered: fetch ahead
            ahead = _i64(entries + size * (e + 16) + at_value)
            if ahead != 0:
                _prefetch(ahead)
        v = _i64(entries + size * e + at_value)
        if v == 0:  # deleted entry
            continue
        if _i64(v + 8) != dict_type or _i64(v + 40) != 0:
            return -2
        if _i64(v + 16) == 0:
            return e
    return -1


@nb.njit(cache=True, parallel=True)
def _first_empty_chunks(entries, size, kind, lo, hi, chunk, dict_type, out):  # pragma: no cover
    """:func:`_first_empty` of each ``chunk`` entries from ``lo``; once one is found, the chunks
    not begun are skipped (``out`` -1: a plain flag, read per chunk, so a late one is only
    extra work). Run with a chunk size of 1, threads take the chunks in order."""
    found = np.zeros(1, dtype=np.int64)
    for c in prange(out.shape[0]):
        if found[0] != 0:
            out[c] = -1
            continue
        a = lo + c * chunk
        out[c] = _first_empty(entries, size, kind, a, min(hi, a + chunk), dict_type)
        if out[c] >= 0:
            found[0] = 1


@nb.njit(cache=True)
def _first_isolated(succ, pred, size, lo, hi, dict_type):  # pragma: no cover - compiled
    """First entry in ``lo..hi`` of the entry tables ``succ`` and ``pred`` (same kind) whose two
    row dicts are both empty; -1 if none; -2 when the tables disagree there (another key, or
    an entry deleted in one only) or a value is not a plain combined dict."""
    at_key = 8 if size == 24 else 0
    at_value = at_key + 8
    for e in range(lo, hi):
        if e + 16 < hi:  # the row dicts lie scattered: fetch ahead
            for table in (succ, pred):
                ahead = _i64(table + size * (e + 16) + at_value)
                if ahead != 0:
                    _prefetch(ahead)
        s_at = succ + size * e
        p_at = pred + size * e
        if _i64(s_at + at_key) != _i64(p_at + at_key):  # the same key object, or both deleted
            return -2
        s = _i64(s_at + at_value)
        p = _i64(p_at + at_value)
        if s == 0 or p == 0:
            if s != p:
                return -2
            continue  # deleted in both
        for v in (s, p):
            if _i64(v + 8) != dict_type or _i64(v + 40) != 0:
                return -2
        if _i64(s + 16) == 0 and _i64(p + 16) == 0:
            return e
    return -1


@nb.njit(cache=True, parallel=True)
def _first_isolated_chunks(succ, pred, size, count, chunk, dict_type, out):  # pragma: no cover
    """:func:`_first_isolated` of each ``chunk`` entries, chunks not begun skipped once one is
    found or the tables disagree (as :func:`_first_empty_chunks`)."""
    stop = np.zeros(1, dtype=np.int64)
    for c in prange(out.shape[0]):
        if stop[0] != 0:
            out[c] = -1
            continue
        a = c * chunk
        out[c] = _first_isolated(succ, pred, size, a, min(count, a + chunk), dict_type)
        if out[c] != -1:
            stop[0] = 1


def has_isolated_node(succ: dict, pred: dict) -> bool | None:
    """Whether some node of a directed graph has neither a successor nor a predecessor, read in
    place from its ``_succ`` and ``_pred`` dicts in parallel chunks (stopping soon after one is
    found). The two tables are read in lockstep: entry ``e`` of both must hold the same key
    object (NetworkX adds and removes a node in both). None when they cannot be read so (not
    plain dicts with tables of one kind and length, a key or deletion that differs, a row that
    is not a plain dict, or the raw reader unavailable).

    Examples
    --------
    >>> succ = {0: {1: {}}, 1: {}, 2: {}}
    >>> pred = {0: {}, 1: {0: {}}, 2: {}}
    >>> has_isolated_node(succ, pred) in (True, None)  # node 2 (None: reader unavailable)
    True
    >>> has_isolated_node({0: {1: {}}, 1: {}}, {0: {}, 1: {0: {}}}) in (False, None)
    True
    """
    if type(succ) is not dict or type(pred) is not dict or not available():
        return None
    dicts = np.array([id(succ), id(pred)], dtype=np.int64)
    lengths = np.empty(2, dtype=np.int64)
    if _lengths(dicts, id(dict), lengths) or lengths[0] != lengths[1]:  # combined tables
        return None
    s_entries, s_size, _, s_count = _table(id(succ))
    p_entries, p_size, _, p_count = _table(id(pred))
    if s_size == 0 or s_size != p_size or s_count != p_count:
        return None
    chunk = 4096
    out = np.empty((s_count + chunk - 1) // chunk, dtype=np.int64)
    with nb.parallel_chunksize(1):
        _first_isolated_chunks(s_entries, p_entries, s_size, s_count, chunk, id(dict), out)
    if (out == -2).any():
        return None
    return bool((out >= 0).any())


# Entries read one by one before the parallel pass: where empty rows are common (a random
# directed graph's sinks), one is found within them and no thread is started. A first call
# reads rows not in cache, ~50 ns each, and the parallel pass costs ~45 us more on a 16-core
# H200 host: ~1k rows. (A 16,384-row head, chosen in session 12 from timings of repeated calls
# whose rows were cached, made grid:708's first call 0.1 -> 0.8 ms; see
# benchmarks/results/nx_isc_h200_20261122_s12.txt and docs/PERFORMANCE.md.)
EMPTY_PREFIX = 1024


def has_empty_value(
    d: dict, stop: int | None = None, start: int = 0, sequential: int = EMPTY_PREFIX
) -> bool | None:
    """Whether some value of the plain dict ``d`` (a graph's rows) is an empty plain dict, read
    in place: entries ``start`` to ``stop`` (default: the end), the first ``sequential`` of
    them in order, stopping at an empty one, then the rest in parallel chunks taken in order,
    stopping soon after one is found. None when it cannot be read so (not a plain dict, a value
    that is not a plain dict, or the raw reader unavailable).

    Examples
    --------
    >>> rows = {v: {} if v == 5000 else {v + 1: {}} for v in range(10000)}
    >>> has_empty_value(rows) in (True, None)  # None where the raw reader is unavailable
    True
    >>> has_empty_value(rows, stop=4096) in (False, None)
    True
    >>> has_empty_value(rows, start=5001, sequential=0) in (False, None)
    True
    """
    if type(d) is not dict or not available():
        return None
    dicts = np.array([id(d)], dtype=np.int64)
    length = np.empty(1, dtype=np.int64)
    if _lengths(dicts, id(dict), length):  # also checks a combined table
        return None
    entries, size, kind, count = _table(id(d))
    if size == 0:
        return None
    count = count if stop is None else min(count, stop)
    start = min(max(start, 0), count)
    head = min(count, start + max(sequential, 0))
    found = _first_empty(entries, size, kind, start, head, id(dict))
    if found != -1 or head == count:
        return None if found == -2 else found >= 0
    chunk = 1024
    out = np.empty((count - head + chunk - 1) // chunk, dtype=np.int64)
    with nb.parallel_chunksize(1):
        _first_empty_chunks(entries, size, kind, head, count, chunk, id(dict), out)
    if (out == -2).any():
        return None
    return bool((out >= 0).any())


@nb.njit(cache=True, parallel=True)
def _int_range_keys(d, dict_type, int_type, tagged):  # pragma: no cover - compiled
    """Whether the keys of dict ``d`` are the ``int`` objects ``0..len-1`` in order (no subclass,
    no deleted entry). In parallel: each key is a cache miss (4 ms for 500k keys serially)."""
    if _i64(d + 8) != dict_type or _i64(d + 40) != 0:
        return False
    if _i64(d + 16) == 0:
        return True
    entries, size, kind, count = _table(d)
    if kind != 0 or count != _i64(d + 16):
        return False
    bad = 0
    for e in nb.prange(count):
        k = _i64(entries + size * e + 8)
        if k == 0 or _i64(k + 8) != int_type:
            bad += 1
        else:
            x, ok = _long(k, tagged)
            if not ok or x != e:
                bad += 1
    return bad == 0


# ----------------------------------------------------------------------------------- Python side
class Arcs(NamedTuple):
    """What :func:`arc_hashes` read: row offsets, key hashes and the addresses of the values
    (data dicts), valid while the rows it read are alive and unchanged."""

    indptr: np.ndarray
    hashes: np.ndarray
    addresses: np.ndarray


_TAGGED = sys.version_info >= (3, 12)
_STATE: dict[str, Any] = {}


def _layout_supported() -> bool:
    return (
        sys.implementation.name == "cpython"
        and (3, 11) <= sys.version_info[:2] <= (3, 13)
        and not sysconfig.get_config_var("Py_GIL_DISABLED")
        and not hasattr(sys, "getobjects")  # Py_TRACE_REFS builds have a larger object header
        and np.dtype(np.intp).itemsize == 8
        and os.environ.get("WARPGRAPH_NX_RAW", "1") != "0"
    )


def available() -> bool:
    """Whether the raw reader may be used here (checked once: layout, then a self-test)."""
    ok = _STATE.get("ok")
    if ok is None:
        layout = _layout_supported()
        ok = _STATE["ok"] = layout and _self_test()
        if layout and not ok:
            report_failed_self_test("reading dict tables in place", "Python iterates them")
    return ok


_LOG = logging.getLogger("warpgraph.nx")


def report_failed_self_test(path: str, instead: str) -> None:
    """Log (warning, logger ``warpgraph.nx``) that a fast path's self-test failed where its
    other checks passed: a bug, not a property of the interpreter. The results stay right
    (the slower way makes them), so only the log tells. Session 29 found the workers' copies
    off in every fresh process since session 26 this way: nothing had said so."""
    _LOG.warning(
        "warpgraph.nx: the self-test of %s failed on this interpreter (%s %s); %s instead, "
        "which is slower. Please report it (warpgraph.nx.fast_paths() says what is on).",
        path, sys.implementation.name, sys.version.split()[0], instead,
    )  # fmt: skip


def _self_test() -> bool:
    """Read dicts of every shape the reader handles and compare with Python's own iteration."""
    try:
        big = {i: {"w": i * 7 - 50, "x": 1.5} for i in range(0, 3000, 3)}
        for i in range(0, 3000, 9):
            del big[i]
        shared = {"w": 3}
        text = {f"n{i}": {"w": 0.25 * i} for i in range(40)}
        del text["n3"]
        rows = [
            {},
            {1: {}},
            big,
            text,
            {(1, 2): {"w": None}, "a": {"w": 2**45}, 3.5: {"w": -(2**40)}, None: {"w": "s"}},
            {key: {"w": True, "x": 2} for key in range(5)},
            {0: shared, 1: shared, 2: {"w": 2**70}, 3: {"w": -7, "v": 1}},
        ]
        keys = [k for r in rows for k in r]
        datas = [x for r in rows for x in r.values()]
        found = arc_hashes(rows)
        if found is None:
            return False
        indptr, hashes, addresses = found
        if indptr.tolist() != np.cumsum([0, *map(len, rows)]).tolist():
            return False
        if hashes.tolist() != [hash(k) for k in keys]:
            return False
        if addresses.tolist() != [id(x) for x in datas]:
            return False
        if not _self_test_adjacency(rows, keys, addresses):
            return False
        codes, ivals, fvals = read_attribute(found, "w")
        for x, c, i, f in zip(datas, codes.tolist(), ivals.tolist(), fvals.tolist(), strict=True):
            w = x.get("w", _STATE)
            want = (
                MISSING
                if w is _STATE
                else NONE
                if w is None
                else INT
                if type(w) is int and abs(w) < 2**60  # at most two 30-bit digits
                else FLOAT
                if type(w) is float
                else OTHER
            )
            if c != want or (c == INT and i != w) or (c == FLOAT and f != w):
                return False
        return True
    except Exception:  # noqa: BLE001 - any surprise: iterate in Python instead
        return False


def _self_test_adjacency(rows: list, keys: list, addresses: np.ndarray) -> bool:
    """:func:`adjacency` (table look-up and direct ids) and :func:`int_range_keys` against
    Python, on the self-test's rows."""
    distinct = list(dict.fromkeys(keys))
    node_hashes = np.array([hash(k) for k in distinct], dtype=np.int64)
    if len(set(node_hashes.tolist())) == len(distinct):
        index = {k: i for i, k in enumerate(distinct)}
        found = rows_adjacency(node_hashes, rows, True)
        want = [index[k] for k in keys]
        if found is None or found.ids.tolist() != want or found.addresses is None:
            return False
        if found.addresses.tolist() != addresses.tolist():
            return False
        starts = np.cumsum([0, *map(len, rows)]).tolist()
        unsorted = sum(want[a:b] != sorted(want[a:b]) for a, b in pairwise(starts))
        if found.indptr.tolist() != starts or found.unsorted != unsorted:
            return False
        for default in (1, 0.5, None, "x"):  # the attribute decoded in the same scan
            found = rows_adjacency(node_hashes, rows, False, ("w", default))
            if found is None or found.ids.tolist() != want:
                return False
            if not _self_test_decoded(found.decoded, rows, default):
                return False
    table = {i * 5: i for i in range(6000)}  # big enough to be read in parallel chunks
    for i in range(0, 30000, 35):
        del table[i]
    found = _dict_entries(table)
    if found is None or found[0].tolist() != [hash(k) for k in table]:
        return False
    if found[1].tolist() != [id(v) for v in table.values()]:
        return False
    named = {f"v{i}": i for i in range(6000)}  # str keys only: the other table kind
    for i in range(0, 6000, 7):
        del named[f"v{i}"]
    found = _dict_entries(named)
    if found is None or found[0].tolist() != [hash(k) for k in named]:
        return False
    if found[1].tolist() != [id(v) for v in named.values()]:
        return False
    ints = [{2: 0, 0: 1}, {}, {1: 2, 2: 3, 0: 4}]
    found = rows_adjacency(np.arange(3, dtype=np.int64), ints)
    if found is None or found.ids.tolist() != [2, 0, 1, 2, 0] or found.unsorted != 2:
        return False
    if rows_adjacency(np.arange(2, dtype=np.int64), ints) is not None:  # 2 is no node's hash
        return False
    gone = dict.fromkeys(range(4))
    del gone[3]  # a deleted entry: refused (the caller then checks the labels in Python)
    cases = [({}, True), (dict.fromkeys(range(300)), True), (dict.fromkeys([1, 0]), False),
             ({0: 0, "1": 1}, False), (dict.fromkeys([0, 1, 2**70]), False), (gone, False),
             (dict.fromkeys([0, 2**61]), False), (dict.fromkeys([0, True]), False),
             (dict.fromkeys([0, 1.0]), False)]  # fmt: skip
    return all(int_range_keys(d) == want for d, want in cases)


def _self_test_decoded(decoded: Decoded | None, rows: list, default: Any) -> bool:
    """What :func:`adjacency` decoded of attribute ``"w"`` against Python."""
    if decoded is None:
        return False
    datas = [x for r in rows for x in r.values()]
    codes, bits = decoded.codes.tolist(), decoded.bits.tolist()
    floats = decoded.bits.view(np.float64).tolist()
    counts = [0] * 5
    for x, c, i, f in zip(datas, codes, bits, floats, strict=True):
        w = x.get("w", default)
        want = (
            NONE
            if w is None
            else INT
            if type(w) is int and abs(w) < 2**60  # at most two 30-bit digits (or the default)
            else FLOAT
            if type(w) is float
            else OTHER
        )
        if c != want or (c == INT and i != w) or (c == FLOAT and f != w) or (c == NONE and i):
            return False
        counts[c] += 1
    return tuple(counts) == decoded.counts


def arc_hashes(rows: list) -> Arcs | None:
    """Row offsets, key hashes and value (data dict) addresses of every entry of the dicts
    ``rows``, in iteration order, concatenated; None when a row is not a plain dict table.

    The caller keeps ``rows`` (and so every data dict) alive while it uses the addresses.
    """
    return _arcs_at(np.fromiter(map(id, rows), dtype=np.int64, count=len(rows)))


def _arcs_at(dicts: np.ndarray) -> Arcs | None:
    """:func:`arc_hashes` of the live objects at ``dicts``."""
    indptr = row_offsets(dicts)
    if indptr is None:
        return None
    arcs = int(indptr[-1])
    hashes = np.empty(arcs, dtype=np.int64)
    values = np.empty(arcs, dtype=np.int64)
    if _scan(dicts, indptr, hashes, values):
        return None
    return Arcs(indptr, hashes, values)


class Decoded(NamedTuple):
    """One edge attribute decoded during :func:`adjacency`'s scan, per arc in iteration order:
    ``codes`` (INT, FLOAT, NONE or OTHER; a missing value is the default's code), ``bits``
    (int64: the int value, or the float's bits where the code is FLOAT) and how many arcs got
    each code (``counts[INT]`` ...; ``counts[MISSING]`` is 0)."""

    name: str
    default: Any
    codes: np.ndarray
    bits: np.ndarray
    counts: tuple[int, int, int, int, int]


class Adjacency(NamedTuple):
    """What :func:`adjacency` read: row offsets, the neighbour id (int32) of every arc in
    iteration order, the addresses of the values (data dicts; None unless asked for, valid
    while the rows are alive and unchanged), how many rows are not sorted by id, the node
    hashes the ids index (distinct), the attribute decoded in the same pass (or None) and the
    number of self-loop arcs (row ``i`` holding ``i``; counted in the same pass, which spares
    the graph a pass over its arcs for ``num_self_loops``), and whether the node hashes are
    ``0..n-1`` in order (then the hash of an arc's head is its id)."""

    indptr: np.ndarray
    ids: np.ndarray
    addresses: np.ndarray | None
    unsorted: int
    node_hashes: np.ndarray
    decoded: Decoded | None = None
    self_loops: int = -1
    identity: bool = False


def _default_code(default: Any) -> tuple[int, int, float]:
    """``(code, int value, float value)`` standing for a missing attribute; OTHER when the
    default is not a plain int (within int64), float or None."""
    if type(default) is int and -(2**63) <= default < 2**63:
        return INT, default, 0.0
    if type(default) is float:
        return FLOAT, 0, default
    return (NONE if default is None else OTHER), 0, 0.0


def adjacency(
    node_hashes: np.ndarray,
    dicts: np.ndarray,
    want_addresses: bool = False,
    attribute: tuple[str, Any] | None = None,
    identity: bool | None = None,
) -> Adjacency | None:
    """Neighbour ids of every entry of the dicts at addresses ``dicts`` (the rows, kept alive
    by the caller), an entry's id being the position of its key's hash in ``node_hashes``;
    None when two nodes share a hash, a key's hash is no node's or a row is not a plain dict
    table. One parallel pass over the tables, no hash array in between; with ``attribute``
    (``(name, default)``) that edge attribute is decoded from the data dicts by a second
    parallel pass (:class:`Decoded`; fusing it into the first was slower: the data dicts'
    prefetches then compete with the rows' for the core's outstanding misses). ``identity``:
    whether the node hashes are ``0..n-1`` in order, if the caller knows."""
    n = node_hashes.size
    indptr = row_offsets(dicts)
    if indptr is None:
        return None
    arcs = int(indptr[-1])
    direct = identity_hashes(node_hashes) if identity is None else identity
    lookup = hash_lookup(node_hashes, direct)
    if lookup is None:
        return None
    bits, keys, ids = lookup
    out = np.empty(arcs, dtype=np.int32)
    want = want_addresses or attribute is not None
    values = np.empty(arcs if want else 0, dtype=np.int64)
    scratch = np.empty(0 if direct else arcs, dtype=np.int64)
    bad, unsorted, loops = _scan_ids(dicts, indptr, direct, n, keys, ids, bits, out, values,
                                     want, scratch)  # fmt: skip
    if bad:
        return None
    decoded = None
    if attribute is not None:
        decoded = decode_attribute(values, *attribute)
    found = values if want_addresses else None
    return Adjacency(indptr, out, found, int(unsorted), node_hashes, decoded, int(loops), direct)


def _dict_entries(d: dict) -> tuple[np.ndarray, np.ndarray] | None:
    """Hashes and value addresses of the entries of a big plain dict (general or str-only
    keys), read in parallel; None if it is not one (:func:`arc_hashes` reads any plain dict,
    one thread per dict)."""
    if type(d) is not dict or len(d) < 4096:
        return None
    dicts = np.array([id(d)], dtype=np.int64)
    length = np.empty(1, dtype=np.int64)
    if _lengths(dicts, id(dict), length):  # also checks a combined table
        return None
    entries = _i64_at(id(d) + 32, 24)  # dk_nentries
    chunk = 8192
    if entries == length[0]:  # no deleted entry: chunk c's entries go to c * chunk on
        if _u8_at(id(d) + 32, 10) > 1:  # (a table of neither known kind)
            return None
        starts = np.append(np.arange(0, entries, chunk, dtype=np.int64), entries)
    else:
        counts = np.empty((entries + chunk - 1) // chunk, dtype=np.int64)
        if not _live_entries(id(d), chunk, counts) or counts.sum() != length[0]:
            return None
        starts = np.zeros(counts.size + 1, dtype=np.int64)
        np.cumsum(counts, out=starts[1:])
    hashes = np.empty(length[0], dtype=np.int64)
    values = np.empty(length[0], dtype=np.int64)
    if _entries(id(d), chunk, starts, hashes, values):
        return None
    return hashes, values


def dict_entries(d: dict) -> tuple[np.ndarray, np.ndarray] | None:
    """Key hashes and value addresses of the entries of the plain dict ``d``, in order: a big
    dict read in parallel (:func:`_dict_entries`), a small one by the one-thread reader
    (:func:`arc_hashes`); None when ``d`` is not a table the reader knows.

    Examples
    --------
    >>> found = dict_entries({"a": 1, "b": 2})
    >>> found is None or found[0].tolist() == [hash("a"), hash("b")]
    True
    """
    found = _dict_entries(d)
    if found is None:
        arcs = arc_hashes([d])
        found = None if arcs is None else (arcs.hashes, arcs.addresses)
    return found


@nb.njit(cache=True)
def _i64_at_jit(addr, offset):  # pragma: no cover - compiled
    return _i64(_i64(addr) + offset)


@nb.njit(cache=True)
def _u8_at_jit(addr, offset):  # pragma: no cover - compiled
    return _u8(_i64(addr) + offset)


def _u8_at(pointer_at: int, offset: int) -> int:
    """The byte at ``offset`` in the struct whose address is stored at ``pointer_at``."""
    return int(_u8_at_jit(pointer_at, offset))


def _i64_at(pointer_at: int, offset: int) -> int:
    """The int64 at ``offset`` in the struct whose address is stored at ``pointer_at``."""
    return int(_i64_at_jit(pointer_at, offset))


def graph_adjacency(
    node: dict, adj: dict, want_addresses: bool = False, attribute: tuple[str, Any] | None = None
) -> tuple[np.ndarray, np.ndarray, Adjacency] | None:
    """For a NetworkX graph's ``_node`` and ``_adj`` dicts: the node hashes (in ``node``'s
    order), the addresses of the rows (``adj``'s values, alive while ``adj`` is unchanged) and
    their :func:`adjacency`, without a Python call per node; None unless ``adj``'s keys hash
    as ``node``'s, in the same order (then, when the node hashes are distinct, row ``i`` is
    node ``i``'s)."""
    n = len(node)
    if len(adj) != n:
        return None
    found_node, found_adj = _dict_entries(node), _dict_entries(adj)
    if found_node is not None and found_adj is not None:
        node_hashes, adj_hashes, rows = found_node[0], found_adj[0], found_adj[1]
    else:  # both small dicts in one pass of the one-thread reader (not two)
        both = arc_hashes([node, adj])
        if both is None:
            return None
        node_hashes, adj_hashes, rows = both.hashes[:n], both.hashes[n:], both.addresses[n:]
    if node_hashes.size != adj_hashes.size:
        return None
    moved, differ = _hash_mismatches(node_hashes, adj_hashes, True)
    if differ:
        return None
    found = adjacency(node_hashes, rows, want_addresses, attribute, identity=not moved)
    return None if found is None else (node_hashes, rows, found)


def rows_adjacency(
    node_hashes: np.ndarray,
    rows: list,
    want_addresses: bool = False,
    attribute: tuple[str, Any] | None = None,
) -> Adjacency | None:
    """:func:`adjacency` of the dicts ``rows`` (kept alive by the caller)."""
    dicts = np.fromiter(map(id, rows), dtype=np.int64, count=len(rows))
    return adjacency(node_hashes, dicts, want_addresses, attribute)


def int_range_keys(d: dict) -> bool:
    """Whether the keys of the plain dict ``d`` are the ints ``0..len(d)-1`` in order (read in
    place: one pass over the table, no Python object touched)."""
    if type(d) is not dict:
        return False
    return bool(_int_range_keys(id(d), id(dict), id(int), _TAGGED))


@nb.njit(cache=True, parallel=True)
def _key_addresses(d, out):  # pragma: no cover - compiled
    entries, size, _, count = _table(d)
    for e in nb.prange(count):
        out[e] = _i64(entries + size * e + 8)


def key_addresses(d: dict) -> np.ndarray | None:
    """The addresses of the keys of the plain dict ``d`` in order, read from its table in
    parallel without touching the key objects (borrowed: valid while ``d`` is alive and
    unchanged); None unless ``d`` is a combined general-keys table with no deleted entry
    (then entry ``i`` is the ``i``-th key)."""
    if type(d) is not dict or not d:
        return None
    dicts = np.array([id(d)], dtype=np.int64)
    length = np.empty(1, dtype=np.int64)
    if _lengths(dicts, id(dict), length):  # also checks a combined table
        return None
    kind = int(_u8_at(id(d) + 32, 10))
    if kind != 0 or _i64_at(id(d) + 32, 24) != length[0]:  # dk_nentries == ma_used
        return None
    out = np.empty(length[0], dtype=np.int64)
    _key_addresses(id(d), out)
    return out


def row_offsets(dicts: np.ndarray) -> np.ndarray | None:
    """Row offsets (int64, ``rows + 1``) of the dicts at the addresses ``dicts`` (alive), from
    their lengths, in parallel; None when one is not a plain combined dict.

    Examples
    --------
    >>> import numpy as np
    >>> rows = [{1: 0}, {}, {0: 0, 2: 0}]
    >>> row_offsets(np.array([id(r) for r in rows], dtype=np.int64)).tolist()
    [0, 1, 1, 3]

    Raises
    ------
    TypeError
        Unless ``dicts`` is a one-dimensional int64 array (of addresses).
    """
    if not isinstance(dicts, np.ndarray) or dicts.dtype != np.int64 or dicts.ndim != 1:
        raise TypeError(f"row_offsets reads a 1-D int64 array of dict addresses, got {dicts!r:.80}")
    indptr = np.empty(dicts.size + 1, dtype=np.int64)
    count, size = prefix.chunks(dicts.size)
    totals = np.empty(count + 1, dtype=np.int64)
    if _row_offsets(dicts, id(dict), indptr, totals, size):
        return None
    prefix.add_chunk_offsets(indptr, totals, size)
    return indptr


def identity_hashes(node_hashes: np.ndarray) -> bool:
    """Whether the node hashes are ``0..n-1`` in order (as for the labels ``0..n-1``), checked
    in parallel.

    Examples
    --------
    >>> import numpy as np
    >>> identity_hashes(np.arange(5)), identity_hashes(np.array([0, 2, 1]))
    (True, False)
    """
    hashes = np.ascontiguousarray(node_hashes, dtype=np.int64)
    return not _hash_mismatches(hashes, hashes, False)[0]


def ids_from_hashes(node_hashes: np.ndarray, hashes: np.ndarray) -> np.ndarray | None:
    """Position of the node with each hash (int32), or None when two nodes share a hash or a
    hash is no node's."""
    n = node_hashes.size
    out = np.empty(hashes.size, dtype=np.int32)
    if identity_hashes(node_hashes):
        return None if _ids_direct(hashes, n, out) else out
    lookup = hash_lookup(node_hashes, False)
    if lookup is None:
        return None
    bits, keys, ids = lookup
    return None if _ids_by_hash(hashes, keys, ids, bits, out) else out


def decode_attribute(addresses: np.ndarray, name: str, default: Any) -> Decoded:
    """Attribute ``name`` of the data dicts at ``addresses`` (alive and unchanged), decoded in
    place in one parallel pass, ``default`` where it is missing (:class:`Decoded`)."""
    if type(name) is str:
        name = sys.intern(name)  # attribute names are usually interned: match by identity
    m = addresses.size
    codes = np.empty(m, dtype=np.uint8)
    words = np.empty(m, dtype=np.int64)
    attr = (id(dict), id(name), hash(name), id(int), id(float), id(None), int(_TAGGED))
    counts = _decode(addresses, attr, _default_code(default), codes, words, words.view(np.float64))
    n_int, n_float, n_none, n_other = map(int, counts)
    return Decoded(name, default, codes, words, (n_int, n_float, n_none, 0, n_other))


def read_attribute(arcs: Arcs | Adjacency, name: str) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Attribute ``name`` of the data dicts of ``arcs`` (from :func:`arc_hashes`, rows still
    alive and unchanged): per arc a code (INT, FLOAT, NONE, MISSING or OTHER: a value of another
    type, or an unusual dict), the int values and the float values (each valid where its code
    says so)."""
    if not isinstance(arcs, Arcs | Adjacency) or arcs.addresses is None:
        raise TypeError("read_attribute reads the value addresses arc_hashes or adjacency found")
    addresses = arcs.addresses
    m = addresses.size
    if type(name) is str:
        name = sys.intern(name)  # attribute names are usually interned: match by identity
    codes = np.empty(m, dtype=np.uint8)
    ivals = np.zeros(m, dtype=np.int64)
    fvals = np.zeros(m, dtype=np.float64)
    attr = (id(dict), id(name), hash(name), id(int), id(float), id(None), int(_TAGGED))
    _decode(addresses, attr, (MISSING, 0, 0.0), codes, ivals, fvals)
    return codes, ivals, fvals
