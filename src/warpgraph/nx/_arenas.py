"""Freed object arenas kept mapped for reuse: NetworkX results built without page faults.

A NetworkX result is made of many small Python objects (``k_core`` of a 1M-edge graph: 2M
dicts, about 400 MB). CPython's small-object allocator takes them from *arenas* of 1 MiB,
each a fresh ``mmap``, and returns an arena with ``munmap`` as soon as its last object is
freed. Every result therefore touches hundreds of MB of new pages, each faulted in and zeroed
by the kernel: on 2 cores, grid:708's ``k_core`` took about 500 ms, of which about 250 ms of
system time for ~115k page faults.

:func:`keep_object_arenas` installs an arena allocator (CPython's public
``PyObject_SetArenaAllocator``) over the one in place. Freed arenas, up to a limit, are kept
mapped and handed out again. Each kept arena is marked ``MADV_FREE``, so the kernel may still
reclaim its pages under memory pressure (a reclaimed page reads as zeros, which a new arena
does not mind), while a reused arena whose pages were not reclaimed takes no fault. Fresh
arenas and arenas beyond the limit go to the previous allocator, which made them.

The two callbacks are Numba ``cfunc``\\s (no Python code runs inside the allocator) sharing a
small state array under a spin lock (interpreters with their own GIL may call them at once).
The previous allocator is put back at interpreter exit.
"""

from __future__ import annotations

import atexit
import ctypes
import mmap
import os
import sys

import numba as nb
import numpy as np
from llvmlite import ir
from numba import types
from numba.extending import intrinsic

from ._capi import _store_i64
from ._dict_layout import _i64

__all__ = ["arena_stats", "keep_object_arenas", "release_object_arenas"]

#: Environment variable: how many MiB of freed arenas to keep (0: do not install).
LIMIT_ENV = "WARPGRAPH_KEEP_ARENAS_MB"
#: Default limit in MiB: a 1M-edge graph result needs about 400.
DEFAULT_LIMIT_MB = 512

# State words (int64): the lock, the arena size (set by the first call), the bytes that may be
# kept, how many arenas are kept, madvise's address (0: not used), arenas reused and kept so
# far, the previous allocator (ctx, alloc, free), the slots for addresses, then those slots.
_LOCK, _SIZE, _CAPACITY, _KEPT, _MADVISE, _REUSED, _KEPT_TOTAL = range(7)
_PREV_CTX, _PREV_ALLOC, _PREV_FREE, _SLOTS, _FIRST = 7, 8, 9, 10, 11
_MADV_FREE = getattr(mmap, "MADV_FREE", 8)


@intrinsic
def _lock(typingctx, addr):
    """Spin until ``*(int64_t *)addr`` goes from 0 to 1 (acquire)."""
    if not isinstance(addr, types.Integer):
        return None

    def codegen(context, builder, signature, args):
        i64 = ir.IntType(64)
        ptr = builder.inttoptr(args[0], i64.as_pointer())
        spin = builder.append_basic_block("spin")
        done = builder.append_basic_block("locked")
        builder.branch(spin)
        builder.position_at_end(spin)
        zero, one = ir.Constant(i64, 0), ir.Constant(i64, 1)
        pair = builder.cmpxchg(ptr, zero, one, "acquire", "monotonic")
        builder.cbranch(builder.extract_value(pair, 1), done, spin)
        builder.position_at_end(done)
        return context.get_dummy_value()

    return types.none(addr), codegen


@intrinsic
def _unlock(typingctx, addr):
    """``*(int64_t *)addr = 0`` (release)."""
    if not isinstance(addr, types.Integer):
        return None

    def codegen(context, builder, signature, args):
        i64 = ir.IntType(64)
        ptr = builder.inttoptr(args[0], i64.as_pointer())
        builder.store_atomic(ir.Constant(i64, 0), ptr, "release", 8)
        return context.get_dummy_value()

    return types.none(addr), codegen


def _indirect(result: int | None, *params: int):
    """An intrinsic ``call(fn, *args)`` calling the C function at address ``fn``, whose
    parameters are integers of the bit widths ``params`` and whose result is one of ``result``
    bits (None: void); the arguments are int64, the result comes back as an int64."""

    def codegen(context, builder, signature, values):
        out = ir.VoidType() if result is None else ir.IntType(result)
        fnty = ir.FunctionType(out, [ir.IntType(p) for p in params])
        target = builder.inttoptr(values[0], fnty.as_pointer())
        cast = [
            builder.trunc(v, ir.IntType(p)) if p < 64 else v
            for v, p in zip(values[1:], params, strict=True)
        ]
        made = builder.call(target, cast)
        if result is None:
            return context.get_dummy_value()
        return builder.sext(made, ir.IntType(64)) if result < 64 else made

    made_type = types.none if result is None else types.int64
    if len(params) == 3:

        @intrinsic
        def call3(typingctx, fn, a, b, c):
            return made_type(fn, a, b, c), codegen

        return call3

    @intrinsic
    def call2(typingctx, fn, a, b):
        return made_type(fn, a, b), codegen

    return call2


_call_alloc = _indirect(64, 64, 64)  # void *alloc(void *ctx, size_t size)
_call_free = _indirect(None, 64, 64, 64)  # void free(void *ctx, void *ptr, size_t size)
_call_madvise = _indirect(32, 64, 64, 32)  # int madvise(void *addr, size_t len, int advice)


@nb.cfunc(types.int64(types.int64, types.int64), cache=True)
def _arena_alloc(state, size):  # pragma: no cover - compiled
    ptr = np.int64(0)
    _lock(state)
    if _i64(state + 8 * _SIZE) == 0:
        _store_i64(state + 8 * _SIZE, size)
    kept = _i64(state + 8 * _KEPT)
    if size == _i64(state + 8 * _SIZE) and kept > 0:
        ptr = _i64(state + 8 * (_FIRST + kept - 1))
        _store_i64(state + 8 * _KEPT, kept - 1)
        _store_i64(state + 8 * _REUSED, _i64(state + 8 * _REUSED) + 1)
    _unlock(state)
    if ptr != 0:
        return ptr
    return _call_alloc(_i64(state + 8 * _PREV_ALLOC), _i64(state + 8 * _PREV_CTX), size)


@nb.cfunc(types.void(types.int64, types.int64, types.int64), cache=True)
def _arena_free(state, ptr, size):  # pragma: no cover - compiled
    kept = False
    if ptr != 0 and size == _i64(state + 8 * _SIZE):
        advise = _i64(state + 8 * _MADVISE)
        if advise != 0 and _call_madvise(advise, ptr, size, _MADV_FREE) != 0:
            _store_i64(state + 8 * _MADVISE, 0)  # (not supported: kept resident)
        _lock(state)  # (advised before it is listed: once listed, another thread may reuse it)
        count = _i64(state + 8 * _KEPT)
        if (count + 1) * size <= _i64(state + 8 * _CAPACITY) and count < _i64(state + 8 * _SLOTS):
            _store_i64(state + 8 * (_FIRST + count), ptr)
            _store_i64(state + 8 * _KEPT, count + 1)
            _store_i64(state + 8 * _KEPT_TOTAL, _i64(state + 8 * _KEPT_TOTAL) + 1)
            kept = True
        _unlock(state)
    if not kept:
        _call_free(_i64(state + 8 * _PREV_FREE), _i64(state + 8 * _PREV_CTX), ptr, size)


def _drain(state: np.ndarray) -> int:
    """Give every kept arena back to the previous allocator; returns how many. Each is taken
    as an allocation would take it (under the lock), then freed by the previous allocator."""
    address, size = state.ctypes.data, int(state[_SIZE])
    release = ctypes.CFUNCTYPE(None, ctypes.c_void_p, ctypes.c_void_p, ctypes.c_size_t)(
        int(state[_PREV_FREE])
    )
    count = 0
    while state[_KEPT] > 0:
        ptr = _arena_alloc.ctypes(address, size)  # (the last kept one, or a fresh one)
        release(int(state[_PREV_CTX]) or None, ptr, size)
        count += 1
    state[_REUSED] -= count  # (taken back, not reused)
    return count


class _ArenaAllocator(ctypes.Structure):
    _fields_ = [("ctx", ctypes.c_void_p), ("alloc", ctypes.c_void_p), ("free", ctypes.c_void_p)]


_INSTALLED: dict = {}


def _supported() -> bool:
    gil = getattr(sys, "_is_gil_enabled", lambda: True)()
    return sys.platform.startswith("linux") and sys.implementation.name == "cpython" and gil


def keep_object_arenas(limit_mb: int | None = None) -> bool:
    """Keep up to ``limit_mb`` MiB of freed object arenas mapped for reuse (module
    docstring), once per process. The limit defaults to ``$WARPGRAPH_KEEP_ARENAS_MB``, else
    :data:`DEFAULT_LIMIT_MB`; 0 installs nothing. Returns whether it was installed now (False:
    installed before, a limit of 0, or not Linux with a GIL-enabled CPython).

    Examples
    --------
    >>> keep_object_arenas() in (True, False)
    True
    >>> keep_object_arenas()  # once only
    False

    Raises
    ------
    ValueError
        When the limit (argument or environment variable) is not a non-negative integer.
    """
    if _INSTALLED or not _supported():
        return False
    if limit_mb is None:
        text = os.environ.get(LIMIT_ENV, str(DEFAULT_LIMIT_MB)).strip()
        try:
            limit_mb = int(text)
        except ValueError:
            raise ValueError(f"{LIMIT_ENV} must be a whole number of MiB, got {text!r}") from None
    if isinstance(limit_mb, bool) or not isinstance(limit_mb, int) or limit_mb < 0:
        raise ValueError(f"the arena limit must be a non-negative int of MiB, got {limit_mb!r}")
    if limit_mb == 0:
        return False
    api = ctypes.pythonapi
    previous = _ArenaAllocator()
    api.PyObject_GetArenaAllocator(ctypes.byref(previous))
    slots = 4 * limit_mb  # (arenas of 1 MiB on 64-bit CPython 3.10+, 256 KiB before)
    state = np.zeros(_FIRST + slots, dtype=np.int64)
    state[_CAPACITY] = limit_mb * 2**20
    state[_SLOTS] = slots
    state[_PREV_CTX] = previous.ctx or 0
    state[_PREV_ALLOC] = previous.alloc or 0
    state[_PREV_FREE] = previous.free or 0
    libc = ctypes.CDLL(None)
    state[_MADVISE] = ctypes.cast(libc.madvise, ctypes.c_void_p).value or 0
    mine = _ArenaAllocator(state.ctypes.data, _arena_alloc.address, _arena_free.address)
    _INSTALLED.update(state=state, previous=previous, mine=mine)
    api.PyObject_SetArenaAllocator(ctypes.byref(mine))
    atexit.register(_restore)
    return True


def _restore() -> None:
    """The previous allocator back (at exit: before the modules holding the callbacks go);
    the kept arenas are given back to it first."""
    if _INSTALLED.get("mine") is not None:
        ctypes.pythonapi.PyObject_SetArenaAllocator(ctypes.byref(_INSTALLED["previous"]))
        _INSTALLED["mine"] = None
        _drain(_INSTALLED["state"])


def release_object_arenas() -> int:
    """Give the freed arenas kept so far back to the system now; returns how many.

    Examples
    --------
    >>> release_object_arenas() >= 0
    True
    """
    state = _INSTALLED.get("state")
    return 0 if state is None else _drain(state)


def arena_stats() -> dict[str, int]:
    """Counts of the arena keeper: ``installed`` (0/1), ``kept`` now, ``limit`` (bytes),
    ``reused`` and ``kept_total`` since it was installed, ``arena_size`` in bytes (0 until
    the first arena was made), ``advised`` (1 while kept arenas are marked ``MADV_FREE``).

    Examples
    --------
    >>> sorted(arena_stats())
    ['advised', 'arena_size', 'installed', 'kept', 'kept_total', 'limit', 'reused']
    """
    state = _INSTALLED.get("state")
    if state is None:
        return dict.fromkeys(
            ("installed", "kept", "limit", "reused", "kept_total", "arena_size", "advised"), 0
        )
    return {
        "installed": int(_INSTALLED.get("mine") is not None),
        "kept": int(state[_KEPT]),
        "limit": int(state[_CAPACITY]),
        "reused": int(state[_REUSED]),
        "kept_total": int(state[_KEPT_TOTAL]),
        "arena_size": int(state[_SIZE]),
        "advised": int(state[_MADVISE] != 0),
    }
