"""Per-node results made by compiled code through CPython's C API (:mod:`._capi`).

:func:`node_dict` (``core_number``, ``triangles``, ``clustering`` ...: a dict from each node to
an int or float), :func:`node_sets` (component sets), :func:`values_for_keys` (a dict of the
keys of a given dict, each with its value: copied from the key table in parallel where
reference counts may be written directly) and the empty dicts presized for them
(:func:`empty_dict_for`, :func:`fromkeys_sized`).
"""

from __future__ import annotations

import ctypes
import gc
from collections.abc import Iterator
from typing import Any

import numba as nb
import numpy as np

from .._arrays import to_host
from ..cpu.prefetch import prefetch_address as _prefetch
from ..cpu.prefetch import prefetch_item as _prefetch_item
from ..errors import InvalidArgumentError
from ._capi import (
    CLEAR,
    COPY,
    DECREF,
    DIRECT_REFCOUNTS,
    FLOAT,
    LIST_NEW,
    LIST_SET,
    LONG,
    PRESIZED,
    SET,
    SET_ADD,
    SET_NEW,
    _add_refs,
    _adopt,
    _call0,
    _call1,
    _call2,
    _call3,
    _call4,
    _decref,
    _fail,
    _from_double,
    _items,
    _label,
    _store_i64,
)
from ._dict_layout import _i64, _u8
from ._presized import empty_table_dict

__all__ = [
    "FLOATS",
    "INTS",
    "empty_dict_for",
    "fromkeys_sized",
    "node_dict",
    "node_sets",
    "values_for_keys",
]


# Value kinds of :func:`node_dict`: ``values`` holds int64 ints or float64 bits.
INTS, FLOATS = 0, 1


@nb.njit(cache=True)
def _value(fns, kind, bits, zero_int):  # pragma: no cover - compiled
    """A new ``int`` (``kind`` INTS) or ``float`` (bits ``bits``; with ``zero_int`` a zero is
    the ``int`` 0) object; 0 on an error."""
    if kind == INTS:
        return _call1(fns[LONG], bits)
    if zero_int and (bits << 1) == 0:  # 0.0 or -0.0: NetworkX's ``0 if x == 0``
        return _call1(fns[LONG], 0)
    return _from_double(fns[FLOAT], bits)


@nb.njit(cache=True)
def _node_dict(fns, ids, items, hashes, values, kind, zero_int, first_int):  # pragma: no cover
    """A new dict ``{label of ids[j]: values[j]}`` in the order of ``ids`` (its address, a new
    reference; 0 on an error, cleared): presized, keys inserted with their known (distinct)
    hashes ``hashes``; equal consecutive values share one object (``first_int``: the first
    value is the ``int`` 0). Ids in no particular order (a BFS order) make every insertion a
    cache miss in the dict's index: each key's slot (read from the table's header, as
    :mod:`._cpython` does) and label are prefetched 8 entries ahead, its hash 16 ahead."""
    k = ids.shape[0]
    d = _call1(fns[PRESIZED], k)
    if d == 0:
        return _fail(fns, 0) * 0
    last = 0  # the value object of the previous entry (owned), and its bits
    last_bits = np.int64(0)
    keys = _i64(d + 32)  # presized: this table takes every entry (only prefetched)
    mask = (np.int64(1) << _u8(keys + 8)) - 1  # dk_log2_size
    width = _u8(keys + 9) - _u8(keys + 8)  # log2 of an index's bytes
    for j in range(k):
        u = ids[j]
        if j + 16 < k:
            _prefetch_item(hashes, ids[j + 16])
        if j + 8 < k:
            _prefetch(keys + 32 + ((hashes[ids[j + 8]] & mask) << width))  # the key's slot
            if items != 0:
                _prefetch(_i64(items + 8 * ids[j + 8]))
        bits = values[j]
        if last == 0 or bits != last_bits or (first_int and j == 1):
            if last != 0:
                _decref(fns[DECREF], last)
            if first_int and j == 0:
                last = _call1(fns[LONG], 0)
            else:
                last = _value(fns, kind, bits, zero_int)
            last_bits = bits
            if last == 0:
                return _fail(fns, d) * 0
        key = _label(fns, items, u)
        if key == 0:
            _decref(fns[DECREF], last)
            return _fail(fns, d) * 0
        bad = _call4(fns[SET], d, key, last, hashes[u])
        if items == 0:
            _decref(fns[DECREF], key)
        if bad != 0:
            _decref(fns[DECREF], last)
            return _fail(fns, d) * 0
    if last != 0:
        _decref(fns[DECREF], last)
    return d


@nb.njit(inline="always")
def _value_slots(d, n):  # pragma: no cover - compiled
    """Address of the first entry's value in the dict ``d``'s table and the entries' size;
    size 0 unless ``d`` is one compact combined table of ``n`` entries of a known kind."""
    keys = _i64(d + 32)
    if _i64(d + 40) != 0 or _i64(d + 16) != n or _i64(keys + 24) != n or _u8(keys + 10) > 1:
        return np.int64(0), np.int64(0)
    general = _u8(keys + 10) == 0
    value_at = np.int64(16 if general else 8)
    return keys + 32 + (np.int64(1) << _u8(keys + 9)) + value_at, np.int64(24 if general else 16)


@nb.njit(cache=True)
def _value_objects(fns, values, kind, zero_int, objs):  # pragma: no cover - compiled
    """``objs[j]`` = a new object for ``values[j]`` (equal consecutive values share one, which
    is given one reference per entry). Returns 0; -2 on an allocation error (cleared, every
    reference made released)."""
    n = values.shape[0]
    last = 0
    last_bits = np.int64(0)
    uses = 0
    for j in range(n):
        bits = values[j]
        if last == 0 or bits != last_bits:
            if last != 0:
                _add_refs(last, uses - 1)
            last = _value(fns, kind, bits, zero_int)
            last_bits = bits
            uses = 0
            if last == 0:
                _call0(fns[CLEAR])
                for i in range(j):
                    _decref(fns[DECREF], objs[i])
                return -2
        objs[j] = last
        uses += 1
    if last != 0:
        _add_refs(last, uses - 1)
    return 0


@nb.njit(cache=True)
def _values_into(fns, d, values, kind, zero_int, blank):  # pragma: no cover - compiled
    """Replace the value of entry ``j`` of the fresh dict ``d`` by a new object for
    ``values[j]`` (:func:`_value_objects`). The old values are the dict's own references: to
    ``blank`` each (its references then released together) or, with ``blank`` 0, to any
    objects (released one by one). Returns 0; -1 when the table is not one compact combined
    table of ``values.shape[0]`` entries, -2 on an allocation error (cleared); nothing changed
    then."""
    n = values.shape[0]
    entry, size = _value_slots(d, n)
    if size == 0:
        return -1
    objs = np.empty(n, dtype=np.int64)
    if _value_objects(fns, values, kind, zero_int, objs):
        return -2
    for j in range(n):
        if blank == 0 and j + 8 < n:  # the old value's header, released below (scattered)
            _prefetch(_i64(entry + (j + 8) * size))
        at = entry + j * size
        old = _i64(at)
        _store_i64(at, objs[j])
        if blank == 0:
            _decref(fns[DECREF], old)
    if blank != 0:
        _add_refs(blank, -n)
    return 0


@nb.njit(parallel=True, cache=True)
def _blank_copy(fns, src, blank, saved):  # pragma: no cover - compiled
    """``PyDict_Copy(src)`` as if every value of ``src`` were the object ``blank`` (its address,
    a new reference; each of its values a reference to ``blank``): the values are set aside in
    ``saved`` and ``blank`` written in their place, the copy made, and the values put back
    before anything else runs (the GIL is held throughout, no Python code runs in the copy
    and the caller pauses the collector, which could otherwise walk ``src`` meanwhile). The
    copy clones the table in one block; this way it never touches the values' objects (two
    scattered cache misses per entry: a reference taken by the copy, released by the
    filler). Returns -1 when ``src`` is not one compact combined table of ``saved.shape[0]``
    entries (nothing done); 0 when the copy failed (error cleared; ``src`` restored)."""
    n = saved.shape[0]
    entry, size = _value_slots(src, n)
    if n == 0 or size == 0:
        return -1
    for j in nb.prange(n):  # (the workers touch no object; the copy runs on this thread)
        saved[j] = _i64(entry + j * size)
        _store_i64(entry + j * size, blank)
    d = _call1(fns[COPY], src)
    for j in nb.prange(n):
        _store_i64(entry + j * size, saved[j])
    if d == 0:
        return _fail(fns, 0) * 0
    return d


def _sized_like(keys_of: dict) -> dict | None:
    """An empty dict whose (general) table CPython sized for ``len(keys_of)`` entries, or None
    when its size is not ``keys_of``'s. Made by ``dict.fromkeys`` of a private empty dict
    whose entry count reads ``len(keys_of)`` while the call runs: ``fromkeys`` of a dict
    sizes the table for that count at once (``_PyDict_NewPresized`` stops at 2**17 slots)
    and then finds no entry to insert."""
    d = empty_dict_for(len(keys_of))
    return d if _fits(id(keys_of), id(d), len(keys_of)) else None


def empty_dict_for(count: int) -> dict:
    """An empty dict whose (general) table is sized for ``count`` entries at once, as CPython
    sizes it for ``dict.fromkeys`` of a dict of ``count`` entries, with no size cap
    (``_PyDict_NewPresized`` stops at 2**17 slots; see :func:`_sized_like`). Large tables
    are made by :mod:`._presized` (the index table cleared by all threads, the entries not
    cleared), others by :func:`fromkeys_sized`.

    Examples
    --------
    >>> d = empty_dict_for(1000)
    >>> d == {} and type(d) is dict
    True

    Raises
    ------
    InvalidArgumentError
        When ``count`` is not a non-negative int.
    MemoryError
        When the table cannot be allocated.
    """
    if isinstance(count, bool) or not isinstance(count, (int, np.integer)) or count < 0:
        raise InvalidArgumentError(f"count must be a non-negative int, not {count!r}")
    made = empty_table_dict(int(count))
    return fromkeys_sized(int(count)) if made is None else made


def fromkeys_sized(count: int) -> dict:
    """:func:`empty_dict_for` made by CPython alone: ``dict.fromkeys`` of a private empty dict
    whose entry count reads ``count`` while the call runs (CPython clears the whole table on
    this thread). ``count`` is not checked."""
    empty = {0: None}
    del empty[0]  # a general table (an int key was inserted) with no live entry
    used = ctypes.c_ssize_t.from_address(id(empty) + 16)  # ma_used
    used.value = count
    try:
        return dict.fromkeys(empty)
    finally:
        used.value = 0


@nb.njit(cache=True)
def _fits(src, d, n):  # pragma: no cover - compiled
    """Whether the empty dict ``d``'s table can take the ``n`` entries of ``src``'s compact
    combined table at the same positions, with its index table copied: same size, general."""
    sk, k = _i64(src + 32), _i64(d + 32)
    return (
        n > 0 and _i64(src + 40) == 0 and _i64(d + 40) == 0
        and _i64(src + 16) == n and _i64(sk + 24) == n and _u8(sk + 10) <= 1
        and _u8(k + 8) == _u8(sk + 8) and _u8(k + 9) == _u8(sk + 9) and _u8(k + 10) == 0
        and _i64(k) == 1 and _i64(k + 16) >= n and _i64(k + 24) == 0 and _i64(d + 16) == 0
    )  # fmt: skip


@nb.njit(parallel=True, cache=True)
def _fill_clone(src, d, objs, int_type, str_type, float_type):  # pragma: no cover - compiled
    """Entry ``j`` of the empty dict ``d`` (checked by :func:`_fits`) = (hash, key) of entry
    ``j`` of ``src`` with the value ``objs[j]`` (whose reference it takes), then ``src``'s index
    table copied: the dict ``{key: objs[j]}`` in ``src``'s order, made in parallel (a key's
    reference is added by the one worker that writes its entry: each key is its own object).
    Returns how many keys are not an exact ``int``, ``str`` or ``float`` (the dict must then be
    tracked by the collector, as CPython's insertion would have)."""
    n = objs.shape[0]
    sk, k = _i64(src + 32), _i64(d + 32)
    index_bytes = np.int64(1) << _u8(sk + 9)
    general = _u8(sk + 10) == 0
    size = 24 if general else 16
    key_at = 8 if general else 0
    sentry = sk + 32 + index_bytes
    entry = k + 32 + index_bytes
    others = 0
    for j in nb.prange(n):
        key = _i64(sentry + j * size + key_at)
        h = _i64(sentry + j * size) if general else _i64(key + 24)  # a str caches its hash
        t = _i64(key + 8)
        if t != int_type and t != str_type and t != float_type:
            others += 1
        _add_refs(key, 1)
        at = entry + j * 24
        _store_i64(at, h)
        _store_i64(at + 8, key)
        _store_i64(at + 16, objs[j])
    for w in nb.prange(index_bytes // 8):  # (at least 8 one-byte slots)
        _store_i64(k + 32 + 8 * w, _i64(sk + 32 + 8 * w))
    _store_i64(k + 16, _i64(k + 16) - n)  # dk_usable
    _store_i64(k + 24, n)  # dk_nentries
    _store_i64(d + 16, n)  # ma_used
    return others


def _parallel_clone(
    fns: np.ndarray,
    keys_of: dict,
    bits: np.ndarray,
    kind: int,
    zero_int: bool,
    table: dict | None = None,
) -> dict | None:
    """``{key: value}`` with the keys of ``keys_of`` in order (see :func:`values_for_keys`),
    written into ``table``, an empty table of the same size from :func:`_sized_like` (made
    here when not given): its entries and index table in parallel (:func:`_fill_clone`).
    None when the tables do not fit."""
    d = _sized_like(keys_of) if table is None else table
    if d is None:
        return None
    objs = np.empty(bits.shape[0], dtype=np.int64)
    if _value_objects(fns, bits, kind, zero_int, objs):
        raise MemoryError("could not allocate a result value")
    if _fill_clone(id(keys_of), id(d), objs, id(int), id(str), id(float)) and not gc.is_tracked(d):
        ctypes.pythonapi.PyObject_GC_Track(ctypes.py_object(d))
    return d


def _key_table_copies(fns: np.ndarray, keys_of: dict) -> Iterator[tuple[dict, bool]]:
    """Fresh dicts with the keys of ``keys_of`` in order, for :func:`values_for_keys` to fill,
    best first, each with whether its values are all ``None``: a copy with ``None`` values
    (:func:`_blank_copy`), a copy, ``dict.fromkeys``."""
    collecting = gc.isenabled()
    gc.disable()  # (see _blank_copy)
    try:
        made = _blank_copy(fns, id(keys_of), id(None), np.empty(len(keys_of), np.int64))
    finally:
        if collecting:
            gc.enable()
    if made == 0:
        raise MemoryError("could not copy the key table")
    if made > 0:
        yield _adopt(made, fns), True
    yield keys_of.copy(), False
    yield dict.fromkeys(keys_of), True


def values_for_keys(fns: np.ndarray, keys_of: dict, values: Any, *, zero_int: bool = False):
    """``{key: values[j]}`` for the ``j``-th key of the dict ``keys_of``, in its order.
    ``values``: a NumPy array, or a CuPy one, copied to the host only once the empty table is
    allocated (grid:708's 501k keys: ~2 ms, overlapping with the device's work).

    First choice, where the table sizes allow (:func:`_parallel_clone`): an empty table that
    CPython sized like ``keys_of``'s, whose entries and index table are then written in
    parallel (2 cores, 501k int keys: 12.6 -> 4.2 ms). Otherwise: a copy
    of ``keys_of`` with its values then replaced in place. The copy clones the table in one
    block (no key is hashed, compared or probed for), so it beats ``dict.fromkeys``, which
    inserts each key: 501k keys with ``{}`` values, 2 cores, best of 7: int keys 16.8 vs 29.0
    ms, str keys 10.7 vs 99.9 ms (int values). It is made with ``None`` values
    (:func:`_blank_copy`): a plain copy takes a reference to each old value and the filler
    releases it, two scattered cache misses per node (H200 host, grid:708's 501k nodes: 14.0
    ms per result dict that way). A copy that keeps a dict's deleted slots (``ma_used`` below
    its entry count) cannot be filled in place; ``dict.fromkeys`` (a compact table) is used
    then. No key's ``__hash__`` or ``__eq__`` runs. None when no table is as expected (the
    caller then builds the dict).

    Examples
    --------
    >>> import numpy as np
    >>> from warpgraph.nx._capi import api
    >>> a = api()
    >>> if a is not None:
    ...     d = values_for_keys(a.fns, {"x": {}, "y": {}}, np.array([1.5, 0.0]), zero_int=True)
    ...     assert d == {"x": 1.5, "y": 0}

    Raises
    ------
    MemoryError
        When CPython could not allocate a value.
    """
    if type(keys_of) is not dict or not DIRECT_REFCOUNTS:
        return None
    table = _sized_like(keys_of)  # (first: a device still computing ``values`` runs meanwhile)
    values = to_host(values)
    kind = FLOATS if values.dtype.kind == "f" else INTS
    bits = values.astype(np.float64 if kind == FLOATS else np.int64, copy=False)
    bits = np.ascontiguousarray(bits).view(np.int64)
    if table is not None:
        return _parallel_clone(fns, keys_of, bits, kind, zero_int, table)
    for d, blank in _key_table_copies(fns, keys_of):
        done = _values_into(fns, id(d), bits, kind, zero_int, id(None) if blank else 0)
        if done == -2:
            raise MemoryError("could not allocate a result value")
        if done == 0:
            return d
        del d  # not filled: its values are still those of ``keys_of`` (or None)
    return None


@nb.njit(cache=True)
def _node_sets(fns, members, bounds, items, int_type, str_type):  # pragma: no cover - compiled
    """A new list of new sets, set ``c`` of the labels of ``members[bounds[c]:bounds[c + 1]]``
    (its address, a new reference); 0 on an error (cleared), -1 when a label is not an exact
    ``int`` or ``str`` (``PySet_Add`` hashes it: Python code for other classes)."""
    groups = bounds.shape[0] - 1
    out = _call1(fns[LIST_NEW], groups)
    if out == 0:
        return _fail(fns, 0) * 0
    m = members.shape[0]
    for c in range(groups):
        s = _call1(fns[SET_NEW], 0)
        if s == 0 or _call3(fns[LIST_SET], out, c, s) != 0:  # the list owns s (even on error)
            return _fail(fns, out) * 0
        for j in range(bounds[c], bounds[c + 1]):
            if items != 0 and j + 8 < m:
                _prefetch(_i64(items + 8 * members[j + 8]))
            key = _label(fns, items, members[j])
            if key == 0:
                return _fail(fns, out) * 0
            if items != 0:
                t = _i64(key + 8)
                if t != int_type and t != str_type:
                    _decref(fns[DECREF], out)
                    return -1
            bad = _call2(fns[SET_ADD], s, key)
            if items == 0:
                _decref(fns[DECREF], key)
            if bad != 0:
                return _fail(fns, out) * 0
    return out


def node_dict(
    fns: np.ndarray,
    ids: np.ndarray,
    labels: list | np.ndarray | None,
    hashes: np.ndarray,
    values: np.ndarray,
    *,
    zero_int: bool = False,
    first_int: bool = False,
) -> dict:
    """``{labels[ids[j]]: values[j]}`` in the order of ``ids``, built by one compiled loop.

    ``labels``: the node labels (a plain list, or an int64 array of their addresses, kept
    alive and unchanged by the caller; None: the labels are ``0..n-1``, made here as new
    ``int`` objects); ``hashes``: the labels'
    hashes, distinct (so no key's ``__eq__`` or ``__hash__`` runs); ``values``: an integer
    array (values as ``int``) or a float array (as ``float``; ``zero_int``: a zero is the
    ``int`` 0, NetworkX's clustering); ``first_int``: the first value is the ``int`` 0 (the
    source's distance in NetworkX's Dijkstra).

    Examples
    --------
    >>> import numpy as np
    >>> from warpgraph.nx._capi import api
    >>> a = api()
    >>> if a is not None:
    ...     d = node_dict(a.fns, np.array([2, 0]), ["a", "b", "c"],
    ...                   np.array([hash(x) for x in "abc"]), np.array([1.5, 0.0]))
    ...     assert d == {"c": 1.5, "a": 0.0}

    Raises
    ------
    MemoryError
        When CPython could not allocate an object.
    """
    ids = np.ascontiguousarray(ids, dtype=np.int64)
    kind = FLOATS if values.dtype.kind == "f" else INTS
    bits = values.astype(np.float64 if kind == FLOATS else np.int64, copy=False)
    bits = np.ascontiguousarray(bits).view(np.int64)
    hashes = np.ascontiguousarray(hashes, dtype=np.int64)
    items = 0 if labels is None else _items(labels)
    d = _node_dict(fns, ids, items, hashes, bits, kind, zero_int, first_int)
    if d == 0:
        raise MemoryError("could not allocate a result dict")
    return _adopt(d, fns)


def node_sets(
    fns: np.ndarray, members: np.ndarray, bounds: np.ndarray, labels: list | np.ndarray | None
) -> list | None:
    """``[set(labels[members[bounds[c]:bounds[c + 1]]]) for c ...]``, built by one compiled
    loop; None when a label is not an exact ``int`` or ``str`` (the caller then builds them in
    Python: adding another label to a set may run its class's ``__hash__``). ``labels``: as for
    :func:`node_dict`.

    Examples
    --------
    >>> import numpy as np
    >>> from warpgraph.nx._capi import api
    >>> a = api()
    >>> if a is not None:
    ...     assert node_sets(a.fns, np.array([0, 2, 1]), np.array([0, 2, 3]), None) == [
    ...         {0, 2}, {1}]

    Raises
    ------
    MemoryError
        When CPython could not allocate an object.
    """
    members = np.ascontiguousarray(members, dtype=np.int64)
    bounds = np.ascontiguousarray(bounds, dtype=np.int64)
    items = 0 if labels is None else _items(labels)
    out = _node_sets(fns, members, bounds, items, id(int), id(str))
    if out == -1:
        return None
    if out == 0:
        raise MemoryError("could not allocate the result sets")
    return _adopt(out, fns)
