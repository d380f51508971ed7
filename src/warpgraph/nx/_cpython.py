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
purpose (:func:`_self_test`, run once by :func:`._dict_layout.available`); any surprise on a real
graph (a dict subclass or split table, a table whose live entries do not match its size, a key
hash that is no node's, an attribute value of another type) makes the caller fall back to
iterating in Python, which gives the same answer. The Numba functions hold the GIL (no
``nogil``), so no Python thread can change the dicts while they are read. Set
``WARPGRAPH_NX_RAW=0`` to always iterate in Python.

The parts it builds on: :mod:`._dict_layout` (the compiled loads, a table located, the gate),
:mod:`._hash_index` (node hash -> position), :mod:`._dict_attrs` (the attribute decoded) and
:mod:`._dict_probes` (whole-dict checks, in the self-test).
"""

from __future__ import annotations

import ctypes
from itertools import pairwise
from typing import Any, NamedTuple

import numba as nb
import numpy as np
from numba import prange

from ..cpu import prefix
from ._dict_attrs import (
    FLOAT,
    INT,
    MISSING,
    NONE,
    OTHER,
    Decoded,
    _decode,
    attribute_key,
    decode_attribute,
)
from ._dict_layout import (
    _entry,
    _i64,
    _i64_at,
    _lengths,
    _prefetch_rows_ahead,
    _table,
    _u8_at,
    available,
)
from ._dict_probes import int_range_keys
from ._hash_index import _hash_mismatches, _position, hash_lookup, identity_hashes

__all__ = [
    "Adjacency",
    "Arcs",
    "RowTables",
    "adjacency",
    "arc_hashes",
    "available",
    "dict_entries",
    "graph_adjacency",
    "read_attribute",
    "row_offsets",
    "row_tables",
    "rows_adjacency",
]


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


# ----------------------------------------------------------------------------------- Python side
class Arcs(NamedTuple):
    """What :func:`arc_hashes` read: row offsets, key hashes and the addresses of the values
    (data dicts), valid while the rows it read are alive and unchanged."""

    indptr: np.ndarray
    hashes: np.ndarray
    addresses: np.ndarray


def _self_test() -> bool:
    """Read dicts of every shape the reader handles and compare with Python's own iteration."""
    absent = object()
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
            w = x.get("w", absent)
            want = (
                MISSING
                if w is absent
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


def read_attribute(arcs: Arcs | Adjacency, name: str) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Attribute ``name`` of the data dicts of ``arcs`` (from :func:`arc_hashes`, rows still
    alive and unchanged): per arc a code (INT, FLOAT, NONE, MISSING or OTHER: a value of another
    type, or an unusual dict), the int values and the float values (each valid where its code
    says so)."""
    if not isinstance(arcs, Arcs | Adjacency) or arcs.addresses is None:
        raise TypeError("read_attribute reads the value addresses arc_hashes or adjacency found")
    addresses = arcs.addresses
    m = addresses.size
    name, attr = attribute_key(name)
    codes = np.empty(m, dtype=np.uint8)
    ivals = np.zeros(m, dtype=np.int64)
    fvals = np.zeros(m, dtype=np.float64)
    _decode(addresses, attr, (MISSING, 0, 0.0), codes, ivals, fvals)
    return codes, ivals, fvals
