"""Copies of a result graph's edge data dicts (and, since session 28, its node attribute
dicts), made by parallel workers.

:func:`._capi_graph.build_graph` copied each kept edge's data dict by ``PyDict_Copy``, one at a time
under the GIL. That was the largest single part of a large subgraph result (session 26, H200
host, GPU backend, ``k_core``: urand:17's main core 127 of 292 ms, grid:708 66 of 298 ms).
Here worker threads make the copies that ``PyDict_Copy``'s fast path makes, and CPython copies
only the rest.

- **Which dicts.** An exact ``dict`` with a combined table (``ma_values`` NULL), no deleted
  entries (``ma_used == dk_nentries``), at least one entry, a key table owned by it alone
  (``dk_refcnt`` 1) and sized as CPython clones it (the smallest size, or more than a third
  full), and **not tracked by the collector**. A copy of an untracked dict is untracked too,
  so it needs no place on the collector's lists (those are not for threads to write). Edge
  data such as ``{"weight": 3}`` or ``{"weight": 0.5, "label": "a"}`` qualifies. So does an
  empty exact ``dict`` (an unweighted graph's edge data, most node attribute dicts), whatever
  its table: ``PyDict_Copy`` makes a new empty dict for it, untracked, on CPython's shared
  empty key table, whose count of holders 3.11 keeps (one atomic add per task; 3.12+ makes
  that table immortal, and the add leaves it alone). Any other dict is copied by
  ``PyDict_Copy`` afterwards, as before.
- **Memory.** Each copy is two blocks of ``PyMem_RawMalloc``, which needs no GIL. One block is
  the object, after its 16-byte collector header (zeroed: untracked). The other is the key
  table, a byte copy of the source's, as CPython's clone is. ``PyObject_Free`` hands every
  block outside its own arenas to the raw allocator, the path CPython's own blocks over 512
  bytes take, so the copies are freed like any dict. That holds with the default allocators
  only: debug hooks (``PYTHONMALLOC=debug``, ``-X dev``, a debug build) tag each block with
  its domain, and ``PYTHONMALLOC=mimalloc`` frees through mimalloc (:func:`allowed` refuses
  them). One visible difference: ``sys.getallocatedblocks()`` falls by one for each such
  block freed (it counts raw frees, not raw allocations).
- **References.** A copy holds one more reference to each key and value. Each worker counts
  them in a 64-slot cache by address (an attribute's name and small ints come again and
  again) and adds the counts by atomic adds. Immortal objects (3.12+) are left alone, as
  ``Py_INCREF`` leaves them.

The layout is CPython 3.11-3.13's (GIL build), as :mod:`._cpython` reads it. ``PyDictObject``:
``ob_refcnt`` 0, ``ob_type`` 8, ``ma_used`` 16, ``ma_version_tag`` 24 (0 here: no watcher,
not yet modified), ``ma_keys`` 32, ``ma_values`` 40; 48 bytes. ``PyDictKeysObject``:
``dk_refcnt`` 0, ``dk_log2_size`` 8, ``dk_log2_index_bytes`` 9, ``dk_kind`` 10 (0 general:
24-byte entries ``hash, key, value``; 1 str keys: 16-byte entries ``key, value``),
``dk_nentries`` 24, indices from 32, then ``(2 << log2_size) // 3`` entries.
"""

from __future__ import annotations

import ctypes
import os
import sys

import numba as nb
import numpy as np
from llvmlite import ir
from numba import types
from numba.extending import intrinsic

from ..cpu.prefetch import prefetch_address as _prefetch
from . import _capi, _capi_graph, _dict_layout
from ._capi import _call1, _store_i64
from ._dict_layout import _i64, _u8, report_failed_self_test

__all__ = ["allowed", "by_workers", "copy_data_dicts"]

#: Fewer data dicts than this are copied by CPython alone (a parallel region costs ~20 us).
MIN_PARALLEL = 4096
#: Threads from which the copies are made here. A copy costs a worker more than CPython's
#: (two ``malloc`` calls against two from pymalloc's pools: on 2 cores, grid:300's k-core,
#: 179k copies, took 26-29 ms on two threads against 15-18 ms by ``PyDict_Copy``); on an
#: H200 host's 16 threads urand:17's main core took 33-43 ms against 188-198 ms.
PARALLEL_COPY_THREADS = 4
#: Dicts per task of the parallel loop (a worker flushes its reference counts after each).
CHUNK = 2048
_CACHE_SLOTS = 64
_LOG_MINSIZE = 3  # PyDict_LOG_MINSIZE
_GC_HEADER = 16  # PyGC_Head: _gc_next, _gc_prev
_DICT_BYTES = 48

_STATE: dict[str, object] = {}


@intrinsic
def _atomic_add_i64(typingctx, addr, value):
    """``*(int64_t *)addr += value`` atomically."""
    if not (isinstance(addr, types.Integer) and isinstance(value, types.Integer)):
        return None

    def codegen(context, builder, signature, args):
        i64 = ir.IntType(64)
        ptr = builder.inttoptr(args[0], i64.as_pointer())
        val = builder.sext(args[1], i64) if args[1].type.width < 64 else args[1]
        builder.atomic_rmw("add", ptr, val, "monotonic")
        return context.get_dummy_value()

    return types.none(addr, value), codegen


@nb.njit(inline="always")
def _add_refs_atomic(obj, k):  # pragma: no cover - compiled
    """``k`` more references to ``obj``, unless it is immortal (3.12+: the count's low 32
    bits negative as an int32; such a count never becomes mortal again)."""
    count = _i64(obj)
    if ((count << 32) >> 32) >= 0:
        _atomic_add_i64(obj, k)


@nb.njit(inline="always")
def _count(cache, obj):  # pragma: no cover - compiled
    """One more reference to ``obj``, kept in the worker's ``cache`` (rows: address, count)."""
    s = (obj >> 4) & (_CACHE_SLOTS - 1)
    if cache[s, 0] == obj:
        cache[s, 1] += 1
        return
    if cache[s, 0] != 0:
        _add_refs_atomic(cache[s, 0], cache[s, 1])
    cache[s, 0] = obj
    cache[s, 1] = 1


@nb.njit(inline="always")
def _table_bytes(keys):  # pragma: no cover - compiled
    """``_PyDict_KeysSize``: header, indices, entries (a multiple of 8)."""
    entry = 24 if _u8(keys + 10) == 0 else 16
    usable = (np.int64(2) << _u8(keys + 8)) // 3
    return 32 + (np.int64(1) << _u8(keys + 9)) + entry * usable


@nb.njit(inline="always")
def _cloneable(d, dict_type):  # pragma: no cover - compiled
    """Whether ``PyDict_Copy`` would clone ``d``'s table and the copy would be untracked."""
    if _i64(d + 8) != dict_type or _i64(d + 40) != 0 or _i64(d - _GC_HEADER) != 0:
        return False
    keys = _i64(d + 32)
    used = _i64(d + 16)
    log2 = np.int64(_u8(keys + 8))
    small_or_full = log2 == _LOG_MINSIZE or ((np.int64(1) << log2) // 3) < used
    return (
        used > 0 and _i64(keys + 24) == used and _i64(keys) == 1 and _u8(keys + 10) <= 1
        and small_or_full
    )  # fmt: skip


@nb.njit(inline="always")
def _new_dict(block, dict_type, used, table):  # pragma: no cover - compiled
    """A dict object after its zeroed collector header (untracked) at ``block``: one
    reference, ``used`` entries in ``table``, no version tag, a combined table."""
    obj = block + _GC_HEADER
    _store_i64(block, 0)  # _gc_next, _gc_prev: untracked
    _store_i64(block + 8, 0)
    _store_i64(obj, 1)  # ob_refcnt
    _store_i64(obj + 8, dict_type)
    _store_i64(obj + 16, used)  # ma_used
    _store_i64(obj + 24, 0)  # ma_version_tag
    _store_i64(obj + 32, table)  # ma_keys
    _store_i64(obj + 40, 0)  # ma_values
    return obj


@nb.njit(parallel=True, cache=True)
def _forge(malloc, free, dict_type, empty_keys, arcs, found, copy_at):  # pragma: no cover
    """``copy_at[arcs[j]]`` = a copy of the dict at ``found[j]`` for each one that is
    :func:`_cloneable` or empty (an exact ``dict`` with no entry: ``PyDict_Copy`` makes a new
    empty dict on ``empty_keys``, the shared empty table), made in memory from ``malloc``
    (``PyMem_RawMalloc``); the others (and any whose memory was refused) are left 0. Returns
    how many were made."""
    m = found.shape[0]
    tasks = (m + CHUNK - 1) // CHUNK
    made = np.zeros(tasks, dtype=np.int64)
    for t in nb.prange(tasks):
        cache = np.zeros((_CACHE_SLOTS, 2), dtype=np.int64)
        empties = 0
        lo = t * CHUNK
        hi = min(m, lo + CHUNK)
        for j in range(lo, hi):
            if j + 8 < hi:
                _prefetch(found[j + 8] - _GC_HEADER)
                _prefetch(found[j + 8] + 16)
            if j + 4 < hi:
                _prefetch(_i64(found[j + 4] + 32))  # the key table
            d = found[j]
            if _i64(d + 8) == dict_type and _i64(d + 16) == 0:  # empty: whatever its table
                block = _call1(malloc, _GC_HEADER + _DICT_BYTES)
                if block != 0:
                    copy_at[arcs[j]] = _new_dict(block, dict_type, 0, empty_keys)
                    empties += 1
                continue
            if not _cloneable(d, dict_type):
                continue
            keys = _i64(d + 32)
            size = _table_bytes(keys)
            table = _call1(malloc, size)
            if table == 0:
                continue
            block = _call1(malloc, _GC_HEADER + _DICT_BYTES)
            if block == 0:
                _call1(free, table)
                continue
            for w in range(0, size, 8):
                _store_i64(table + w, _i64(keys + w))
            obj = _new_dict(block, dict_type, _i64(d + 16), table)
            general = _u8(table + 10) == 0
            size_of = 24 if general else 16
            key_at = 8 if general else 0
            entries = table + 32 + (np.int64(1) << _u8(table + 9))
            for e in range(_i64(table + 24)):
                at = entries + e * size_of + key_at
                value = _i64(at + 8)
                if value != 0:
                    _count(cache, _i64(at))
                    _count(cache, value)
            copy_at[arcs[j]] = obj
            made[t] += 1
        for s in range(_CACHE_SLOTS):
            if cache[s, 0] != 0:
                _add_refs_atomic(cache[s, 0], cache[s, 1])
        if empties:  # each empty dict holds the shared table (3.11 counts it; 3.12+: immortal)
            _add_refs_atomic(empty_keys, empties)
            made[t] += empties
    return made.sum()


def allowed() -> bool:
    """Whether copies may be made here (checked once): the dict tables are readable in place
    (:func:`._dict_layout.available`), reference counts may be written directly, the object
    allocator is CPython's default (pymalloc or ``malloc``, without debug hooks or
    tracemalloc's wrapper), no reference tracer is set (3.13), and a self-test of copies
    passes. ``WARPGRAPH_NX_RAW=0`` turns it off with the rest of the raw reader (for a program
    that installs an allocator of its own, which this cannot see)."""
    ok = _STATE.get("ok")
    if ok is None:
        checks = _allocator_is_default() and _raw_api() is not None
        ok = _STATE["ok"] = checks and _self_test()
        if checks and not ok:
            report_failed_self_test("the workers' dict copies", "PyDict_Copy copies each dict")
    return bool(ok)


def _allocator_is_default() -> bool:
    return (
        _capi.DIRECT_REFCOUNTS
        and _capi.api() is not None
        and os.environ.get("PYTHONMALLOC", "") in ("", "pymalloc", "malloc")
        and not sys.flags.dev_mode
        and not _ref_tracer_set()
        and _object_allocator_unwrapped()
    )


class _AllocatorEx(ctypes.Structure):
    _fields_ = [(name, ctypes.c_void_p) for name in ("ctx", "malloc", "calloc", "realloc", "free")]


_PYMEM_DOMAIN_OBJ = 2


def _object_allocator_unwrapped() -> bool:
    """Whether the object allocator has no context: CPython's own (pymalloc or ``malloc``) has
    none, where debug hooks and tracemalloc's (each wrapping another allocator) have one. A
    wrapper may keep a header before each block, which a raw block has not."""
    get = getattr(ctypes.pythonapi, "PyMem_GetAllocator", None)
    if get is None:
        return False
    get.restype = None
    get.argtypes = [ctypes.c_int, ctypes.POINTER(_AllocatorEx)]
    found = _AllocatorEx()
    get(_PYMEM_DOMAIN_OBJ, ctypes.byref(found))
    return found.ctx is None and found.free is not None


def _ref_tracer_set() -> bool:
    """Whether a 3.13 reference tracer is set (it would see the copies die, never made)."""
    get = getattr(ctypes.pythonapi, "PyRefTracer_GetTracer", None)
    if get is None:
        return False
    get.restype = ctypes.c_void_p
    get.argtypes = [ctypes.POINTER(ctypes.c_void_p)]
    return bool(get(ctypes.byref(ctypes.c_void_p())))


def _raw_api() -> tuple[int, int] | None:
    """The addresses of ``PyMem_RawMalloc`` and ``PyMem_RawFree``."""
    try:
        return tuple(
            ctypes.cast(getattr(ctypes.pythonapi, name), ctypes.c_void_p).value
            for name in ("PyMem_RawMalloc", "PyMem_RawFree")
        )
    except AttributeError:
        return None


def _forge_all(arcs: np.ndarray, found: np.ndarray, copy_at: np.ndarray) -> int:
    malloc, free = _raw_api()
    empty_keys = _dict_layout.empty_keys_address()
    return int(_forge(malloc, free, id(dict), empty_keys, arcs, found, copy_at))


def _self_test() -> bool:
    """Copy dicts of each kind here and check the copies: equal, independent of their source,
    tracked as CPython's copies are, and every reference given back when they are freed."""
    try:
        name, big, text = "weight", 2**70, "".join(("te", "xt"))  # (objects of this test's own)
        grown = {name: big, "label": text}
        grown[7] = 0.5  # a table grown to 16 slots for 3 entries: left to PyDict_Copy
        gone = {name: 1, "x": 2}
        del gone["x"]  # a deleted entry: left to PyDict_Copy
        emptied = {name: 1}
        del emptied[name]  # no entry left, its own table: copied as an empty dict
        sources = [
            {name: 3},
            dict(weight=big, label=text, w=0.5),  # str keys: 16-byte entries
            # other keys: 24-byte entries. None of them a container: a tuple constant stays
            # GC-tracked until a collection sees it, and a dict holding a tracked key is
            # tracked (left to PyDict_Copy), so a tuple key made this test fail in a process
            # whose collector had not run since this module loaded (a user's first call: the
            # workers were then off for good; session 29).
            {1: big, 2.5: None},
            {name: [1]},  # tracked: left to PyDict_Copy
            dict.fromkeys(range(40), big),  # a larger table, more than a third full
            gone,
            grown,
            {},
            emptied,
        ]
        before = [sys.getrefcount(x) for x in (big, text)]
        addresses = np.array([id(d) for d in sources], dtype=np.int64)
        copy_at = np.zeros(addresses.size, dtype=np.int64)
        nothing = np.zeros(0, dtype=np.int64)
        _forge_all(nothing, nothing, nothing)  # (loading the compiled code makes empty dicts)
        empty_keys = ctypes.c_int64.from_address(_dict_layout.empty_keys_address())
        holders = empty_keys.value
        made = _forge_all(np.arange(addresses.size), addresses, copy_at)
        immortal = _dict_layout.immortal_count(holders)
        if empty_keys.value - holders != (0 if immortal else 2):  # (the two empty copies)
            return False
        fns = _capi.api().fns
        copies = [_capi._adopt(int(a), fns) if a else None for a in copy_at]
        expected = [True, True, True, False, True, False, False, True, True]
        if made != sum(expected) or [c is not None for c in copies] != expected:
            return False
        for src, copy in zip(sources, copies, strict=True):
            if copy is None:
                continue
            if copy != src or copy is src or list(copy) != list(src):
                return False
            copy["new"] = 1
            if "new" in src or copy.pop("new") != 1:
                return False
        import gc

        if any(gc.is_tracked(c) for c in copies if c is not None):
            return False
        during = sys.getrefcount(big)
        del copies
        after = [sys.getrefcount(x) for x in (big, text)]
        return after == before and during > after[0]
    except Exception:  # noqa: BLE001 - any surprise: CPython copies every dict
        return False


def by_workers(count: int) -> bool:
    """Whether :func:`copy_data_dicts` gives ``count`` dicts to the workers: enough of them
    (:data:`MIN_PARALLEL`), enough threads (:data:`PARALLEL_COPY_THREADS`), and
    :func:`allowed`."""
    return count >= MIN_PARALLEL and nb.get_num_threads() >= PARALLEL_COPY_THREADS and allowed()


def copy_data_dicts(fns: np.ndarray, arcs: np.ndarray, found: np.ndarray, copy_at) -> int:
    """``copy_at[arcs[j]]`` = a copy of the data dict at ``found[j]``, as
    :func:`._capi_graph._copies` (same return codes): those :func:`_cloneable` by parallel workers
    when :func:`allowed` and there are :data:`MIN_PARALLEL` or more, the rest by
    ``PyDict_Copy``.

    Examples
    --------
    >>> import numpy as np
    >>> from warpgraph.nx import _capi
    >>> data = [{"weight": w} for w in range(3)]
    >>> at = np.zeros(3, dtype=np.int64)
    >>> fns = _capi.api().fns
    >>> copy_data_dicts(fns, np.arange(3), np.array([id(d) for d in data]), at)  # by CPython
    0
    >>> [_capi._adopt(int(a), fns) for a in at]
    [{'weight': 0}, {'weight': 1}, {'weight': 2}]
    """
    if by_workers(found.shape[0]):
        made = _forge_all(arcs, found, copy_at)
        if made == found.shape[0]:
            return 0
        rest = copy_at[arcs] == 0
        arcs, found = arcs[rest], found[rest]
    return _capi_graph._copies(fns, *_capi_graph._by_address(arcs, found), copy_at)
