"""What of CPython's dict layout the raw readers read, and whether they may read it here.

The compiled loads (:func:`_i64` and its siblings read a value at an address), a dict's entry
table located and its entries decoded (:func:`_table`, :func:`_entry`), the prefetches of rows
that lie scattered over the heap, and the gate: :func:`available` says, once per process,
whether this interpreter's layout is the one read here (CPython 3.11-3.13 with the GIL, 64-bit)
and the readers pass their self-test (:func:`._cpython._self_test`). Every module that reads
dicts in place (:mod:`._cpython`, :mod:`._dict_probes`, :mod:`._dict_attrs`, :mod:`._capi` ...)
builds on these; ``WARPGRAPH_NX_RAW=0`` turns them all off.
"""

from __future__ import annotations

import ctypes
import logging
import os
import sys
import sysconfig
from typing import Any

import numba as nb
import numpy as np
from numba import prange, types
from numba.extending import intrinsic

from ..cpu.prefetch import prefetch_address as _prefetch

__all__ = ["available", "empty_keys_address", "immortal_count", "report_failed_self_test"]


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
        ok = _layout_supported()
        if ok:
            # The self-test reads with the modules built on this one: imported when first needed,
            # and looked up at call time (tests replace it).
            from . import _cpython

            ok = _cpython._self_test()
            if not ok:
                report_failed_self_test("reading dict tables in place", "Python iterates them")
        _STATE["ok"] = ok
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
