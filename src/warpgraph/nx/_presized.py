"""Empty dicts with a table sized for ``n`` entries, made without CPython's one-thread clearing.

The result dicts of ``n`` entries (per-node dicts, a result graph's ``_node`` and ``_adj``) are
written in parallel into a table sized for them at once (:func:`._capi_nodes.empty_dict_for`).
CPython makes such a table (``dict.fromkeys`` of a dict) by clearing all of it on one thread:
the index table to -1 and the entry area to 0, ~21 MB for 501k entries. On an H200 host that
was 2.6 ms a table, two per grid:708 ``k_core`` result graph (session 31's profile); on 2
cores 3.6 ms, 11-17 ms where the pages are new.

Here the table is allocated with the allocator CPython frees it with (``PyObject_Malloc`` in
3.11-3.12, ``PyMem_Malloc`` in 3.13: a table from the other would be freed into the wrong
domain), its header written as CPython writes it, and only the index table cleared, by all
threads. The entry area is left as allocated: CPython reads no entry at or past
``dk_nentries`` (lookups go through the index table; iteration, copies, the collector and
deallocation stop at ``dk_nentries``), and the fillers write an entry before they count it.
The empty dict is a new ``{}`` whose (static, shared) empty table is replaced by this one.

The header is checked once against tables CPython made for several sizes (:func:`available`):
where it differs, or on other versions or builds, :func:`empty_table_dict` returns None and
the caller uses ``dict.fromkeys``.
"""

from __future__ import annotations

import ctypes
import operator
import sys
import sysconfig

import numba as nb
import numpy as np

from . import _dict_layout

__all__ = ["MIN_ENTRIES", "available", "empty_table_dict", "table_shape"]

#: Fewer entries than this are left to ``dict.fromkeys``: its clearing is then a few us.
MIN_ENTRIES = 1 << 12
#: The allocator of a dict's key table, by CPython version (checked with ``PYTHONMALLOC=debug``,
#: whose hooks record each block's allocator: ``o`` in 3.11.7 and 3.12.1, ``m`` in 3.13.0).
_ALLOCATOR = {(3, 11): "PyObject_Malloc", (3, 12): "PyObject_Malloc", (3, 13): "PyMem_Malloc"}
#: A key table's header: dk_refcnt, dk_log2_size, dk_log2_index_bytes, dk_kind, (padding),
#: dk_version, dk_usable, dk_nentries; the index table follows.
_HEADER = 32
_MA_KEYS, _MA_VALUES, _MA_USED = 32, 40, 16  # PyDictObject fields (3.11-3.13)
_STATE: dict[str, object] = {}


def table_shape(count: int) -> tuple[int, int, int]:
    """``(log2 of the slots, log2 of the index table's bytes, usable entries)`` of the table
    CPython gives ``dict.fromkeys`` of a dict of ``count`` entries (``estimate_log2_keysize``,
    then the index width by size and ``USABLE_FRACTION``).

    Examples
    --------
    >>> table_shape(501264)
    (20, 22, 699050)

    Raises
    ------
    TypeError
        When ``count`` is not an integer.
    ValueError
        When ``count`` is negative.
    """
    count = _count(count)
    minsize = (count * 3 + 1) >> 1
    log2_size = (((minsize | 8) - 1) | 7).bit_length()
    if log2_size < 8:
        log2_bytes = log2_size
    elif log2_size < 16:
        log2_bytes = log2_size + 1
    elif log2_size < 32:
        log2_bytes = log2_size + 2
    else:
        log2_bytes = log2_size + 3
    return log2_size, log2_bytes, ((1 << log2_size) << 1) // 3


def _count(count: int) -> int:
    count = operator.index(count)  # (TypeError for a float, a str...)
    if count < 0:
        raise ValueError(f"a dict table holds 0 or more entries, not {count}")
    return count


@nb.njit(parallel=True, cache=True)
def _clear_indices(indices):  # pragma: no cover - compiled
    """Every slot of a key table's index table empty (-1 bytes), written by all threads (the
    first touch of its pages too)."""
    for w in nb.prange(indices.shape[0]):
        indices[w] = -1


def _allocator() -> ctypes._CFuncPtr | None:
    name = _ALLOCATOR.get(sys.version_info[:2])
    if (
        name is None
        or sys.implementation.name != "cpython"
        or hasattr(sys, "gettotalrefcount")  # (a debug build: other checks on each table)
        or sysconfig.get_config_var("Py_GIL_DISABLED")  # (another header layout)
    ):
        return None
    fn = getattr(ctypes.pythonapi, name)
    fn.restype, fn.argtypes = ctypes.c_void_p, [ctypes.c_size_t]
    return fn


def _made(count: int, allocate: ctypes._CFuncPtr) -> dict:
    """The empty dict of :func:`empty_table_dict` (no checks)."""
    log2_size, log2_bytes, usable = table_shape(count)
    index_bytes = 1 << log2_bytes
    at = allocate(_HEADER + index_bytes + 24 * usable)
    if not at:
        raise MemoryError(f"could not allocate a dict table for {count} entries")
    header = np.ndarray((4,), dtype=np.int64, buffer=(ctypes.c_char * _HEADER).from_address(at))
    # refcount 1; log2 size, log2 index bytes, kind 0 (general keys), version 0; usable; entries
    header[:] = (1, log2_size | (log2_bytes << 8), usable, 0)
    indices = (ctypes.c_char * index_bytes).from_address(at + _HEADER)
    _clear_indices(np.ndarray((index_bytes // 8,), dtype=np.int64, buffer=indices))
    d: dict = {}
    empty = ctypes.c_int64.from_address(_word(id(d) + _MA_KEYS))  # (its dk_refcnt)
    ctypes.c_void_p.from_address(id(d) + _MA_KEYS).value = at
    if not _dict_layout.immortal_count(empty.value):  # (3.11: give back the reference {} took)
        empty.value -= 1
    return d


def _word(at: int) -> int:
    return ctypes.c_int64.from_address(at).value


def _self_test(allocate: ctypes._CFuncPtr) -> bool:
    """Whether tables made here have the header and index table of those CPython makes, and
    take entries as CPython's do (filled, copied, grown, emptied)."""
    from ._capi_nodes import fromkeys_sized  # (the reference; that module imports this one)

    for count in (MIN_ENTRIES, 5000, 43691, 131072, 501264):
        theirs, ours = fromkeys_sized(count), _made(count, allocate)
        if _word(id(ours) + _MA_VALUES) != 0 or _word(id(ours) + _MA_USED) != 0:
            return False
        size = _HEADER + (1 << table_shape(count)[1])
        a, b = (ctypes.string_at(_word(id(d) + _MA_KEYS), size) for d in (theirs, ours))
        if a[:11] + a[12:] != b[:11] + b[12:]:  # (byte 11 is padding, left as allocated)
            return False
    shared = ctypes.c_int64.from_address(_dict_layout.empty_keys_address())
    holders = shared.value  # (after the first calls above: loading compiled code makes dicts)
    ours = _made(MIN_ENTRIES, allocate)
    usable = table_shape(MIN_ENTRIES)[2]
    for key in range(usable + 10):  # (past the usable entries: the table grows)
        ours[key] = key
    copy = ours.copy()
    del ours[5]
    return (
        len(ours) == usable + 9
        and copy[usable + 9] == usable + 9
        and 5 not in ours
        and shared.value == holders  # (the shared empty table's count left as it was)
    )


def available() -> bool:
    """Whether :func:`empty_table_dict` makes tables here (checked once)."""
    ok = _STATE.get("ok")
    if ok is None:
        allocate = _allocator() if _dict_layout.available() else None
        ok = allocate is not None and _self_test(allocate)
        if allocate is not None and not ok:
            _dict_layout.report_failed_self_test("sizing empty dicts in parallel", "dict.fromkeys")
        _STATE["ok"], _STATE["allocate"] = ok, allocate
    return bool(ok)


def empty_table_dict(count: int) -> dict | None:
    """An empty dict whose table CPython would size for ``count`` entries (as
    ``dict.fromkeys`` of a dict of ``count`` entries), its index table cleared by all
    threads and its entry area not cleared (module docstring); None below
    :data:`MIN_ENTRIES` or where this is not available (:func:`available`).

    Examples
    --------
    >>> d = empty_table_dict(10000)
    >>> d is None or (d == {} and type(d) is dict)
    True

    Raises
    ------
    TypeError
        When ``count`` is not an integer.
    ValueError
        When ``count`` is negative.
    MemoryError
        When the table cannot be allocated.
    """
    count = _count(count)
    if count < MIN_ENTRIES or not available():
        return None
    return _made(count, _STATE["allocate"])
