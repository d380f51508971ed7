"""Whole-dict questions answered by reading a dict's table in place, in parallel.

Whether some row of a graph is empty (:func:`has_empty_value`), whether a directed graph has a
node with neither successors nor predecessors (:func:`has_isolated_node`), whether a dict's keys
are the ints ``0..n-1`` in order (:func:`int_range_keys`), and the addresses of its keys
(:func:`key_addresses`): each a pass over the entry table with no Python object touched, where
iterating from Python would cost a cache miss per key. Each answers None (or False) where the
table is not one it knows, and the caller then asks Python.
"""

from __future__ import annotations

import numba as nb
import numpy as np
from numba import prange

from ..cpu.prefetch import prefetch_address as _prefetch
from ._dict_layout import _TAGGED, _i64, _i64_at, _lengths, _long, _table, _u8_at, available

__all__ = [
    "EMPTY_PREFIX",
    "empty_value_keys",
    "has_empty_value",
    "has_isolated_node",
    "int_range_keys",
    "key_addresses",
]


@nb.njit(cache=True, inline="always")
def _row_value(entries, size, at_value, e, hi):  # pragma: no cover - compiled
    """The value (a row dict's address; 0: a deleted entry) of entry ``e`` of an entry table
    of ``size``-byte entries whose values lie ``at_value`` bytes in, the value 16 entries
    ahead fetched while that is before ``hi`` (the row dicts lie scattered)."""
    if e + 16 < hi:
        ahead = _i64(entries + size * (e + 16) + at_value)
        if ahead != 0:
            _prefetch(ahead)
    return _i64(entries + size * e + at_value)


@nb.njit(cache=True)
def _first_empty(entries, size, kind, lo, hi, dict_type):  # pragma: no cover - compiled
    """Index of the first entry in ``lo..hi`` whose value is an empty plain dict; -1 if none,
    -2 at a value that is not a plain combined dict (then nothing can be said)."""
    at_value = 16 if kind == 0 else 8
    for e in range(lo, hi):
        v = _row_value(entries, size, at_value, e, hi)
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
    extra work). Run with a chunk size of 1: a threading layer that honours it hands the
    chunks out one at a time; OpenMP (Numba's default where it loads) still gives each thread
    a contiguous block (measured: 2 threads start at chunks 0 and n/2), so "not begun" is per
    block there. The answer does not depend on the order."""
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


@nb.njit(cache=True)
def _combined_table(d, dict_type):  # pragma: no cover - compiled
    """:func:`._dict_layout._table` of dict ``d``, or zeros where ``d`` is not a plain dict
    with a combined table (read past the header only for a dict). One thread: a parallel
    region here would wake the workers for one dict (on a busy machine, a wait of a time slice
    before a head read that needs none)."""
    if _i64(d + 8) != dict_type or _i64(d + 40) != 0:
        return np.int64(0), np.int64(0), np.int64(0), np.int64(0)
    entries, size, kind, count = _table(d)
    return np.int64(entries), np.int64(size), np.int64(kind), np.int64(count)


def _plain_table(d: dict) -> tuple[int, int, int, int] | None:
    """``(entries address, entry size, kind, entries)`` of the table of ``d`` when it is a
    plain dict with a combined table of a kind the readers know (general or str keys), else
    None (also where the raw reader is unavailable)."""
    if type(d) is not dict or not available():
        return None
    entries, size, kind, count = _combined_table(id(d), id(dict))
    return None if size == 0 else (int(entries), int(size), int(kind), int(count))


def has_empty_value(
    d: dict, stop: int | None = None, start: int = 0, sequential: int = EMPTY_PREFIX
) -> bool | None:
    """Whether some value of the plain dict ``d`` (a graph's rows) is an empty plain dict, read
    in place: entries ``start`` to ``stop`` (default: the end), the first ``sequential`` of
    them in order, stopping at an empty one, then the rest in parallel chunks (in order where
    the threading layer hands them out one at a time; see :func:`_first_empty_chunks`),
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
    found = _plain_table(d)
    if found is None:
        return None
    entries, size, kind, count = found
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
def _empty_keys_chunks(entries, size, kind, count, chunk, dict_type, out):  # pragma: no cover
    """The key addresses of the entries whose value is an empty plain dict, per ``chunk``
    entries: row ``c`` of ``out`` gets chunk ``c``'s, then -1; -2 in its first slot where a
    value is not a plain combined dict, -3 where the chunk has more than the row holds."""
    at_key = 8 if size == 24 else 0
    for c in prange(out.shape[0]):
        e, hi, k = c * chunk, min(count, (c + 1) * chunk), 0
        while e < hi:
            r = _first_empty(entries, size, kind, e, hi, dict_type)
            if r < 0:
                if r == -2:
                    out[c, 0] = -2
                break
            if k == out.shape[1]:
                out[c, 0] = -3
                break
            out[c, k] = _i64(entries + size * r + at_key)
            k += 1
            e = r + 1


def empty_value_keys(d: dict, most: int = 64) -> list | None:
    """The keys of the plain dict ``d`` (a graph's rows) whose value is an empty plain dict, in
    ``d``'s order, read in place in parallel; None when it cannot be read so (as
    :func:`has_empty_value`) or more than ``most`` per 1,024 entries are empty.

    Examples
    --------
    >>> rows = {v: {} if v % 2500 == 7 else {v + 1: {}} for v in range(10000)}
    >>> empty_value_keys(rows) in ([7, 2507, 5007, 7507], None)  # None: no raw reader here
    True
    """
    found = _plain_table(d)
    if found is None:
        return None
    entries, size, kind, count = found
    chunk = 1024
    out = np.full(((count + chunk - 1) // chunk, most), -1, dtype=np.int64)
    with nb.parallel_chunksize(1):
        _empty_keys_chunks(entries, size, kind, count, chunk, id(dict), out)
    if (out[:, 0] < -1).any():
        return None
    from ._results import _objects_at

    return list(_objects_at(out[out >= 0]))


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


@nb.njit(cache=True)
def _key_addresses_at(d, at, out):  # pragma: no cover - compiled
    entries, size, _, _ = _table(d)
    for j in range(at.size):
        out[j] = _i64(entries + size * at[j] + 8)


def key_addresses(d: dict, at: np.ndarray | None = None) -> np.ndarray | None:
    """The addresses of the keys of the plain dict ``d`` in order, read from its table in
    parallel without touching the key objects (borrowed: valid while ``d`` is alive and
    unchanged), or of its ``at``-th keys only (one thread: few of many); None unless ``d`` is
    a combined general-keys table with no deleted entry (then entry ``i`` is the ``i``-th
    key).

    Raises
    ------
    ValueError
        When a position in ``at`` is not one of ``d``'s.
    """
    if type(d) is not dict or not d:
        return None
    dicts = np.array([id(d)], dtype=np.int64)
    length = np.empty(1, dtype=np.int64)
    if _lengths(dicts, id(dict), length):  # also checks a combined table
        return None
    kind = int(_u8_at(id(d) + 32, 10))
    if kind != 0 or _i64_at(id(d) + 32, 24) != length[0]:  # dk_nentries == ma_used
        return None
    if at is not None:
        at = np.ascontiguousarray(at, dtype=np.int64)
        if at.size and (int(at.min()) < 0 or int(at.max()) >= length[0]):
            raise ValueError(f"key_addresses: positions outside [0, {int(length[0])})")
        out = np.empty(at.size, dtype=np.int64)
        _key_addresses_at(id(d), at, out)
        return out
    out = np.empty(length[0], dtype=np.int64)
    _key_addresses(id(d), out)
    return out
