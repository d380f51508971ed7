"""Atomic read-modify-write on NumPy integer array elements inside Numba code (LLVM ``cmpxchg``
and ``atomicrmw``).

Numba has no CPU atomics; these intrinsics emit the LLVM instructions directly. Use them only
where threads of a ``prange`` loop really update the same element (a benign race is cheaper):
the parallel BFS claims vertices with :func:`cas` and reserves queue space with
:func:`fetch_add`; the triangle counters use :func:`atomic_add`. A thread waiting for another's
write reads with :func:`atomic_load`.

A thread spinning on such reads calls :func:`spin_pause` each turn: the CPU's spin-wait hint
(x86 ``pause``, AArch64 ``yield``; nothing elsewhere) slows the loop down so that its reads do
not crowd the cache line the other threads are writing.

``cas``, ``fetch_add``, ``fetch_or``, ``atomic_load`` and ``spin_pause`` are inlined ``njit``
functions (callable from Python as well); ``atomic_add``, ``atomic_sub`` and ``atomic_min``
(signed) are bare intrinsics, callable from Numba code only, and also require an integer value.

Examples
--------
>>> import numpy as np, numba as nb
>>> a = np.array([-1, 5], dtype=np.int32)
>>> int(cas(a, 0, -1, 7)), int(cas(a, 1, -1, 7)), a.tolist()
(-1, 5, [7, 5])
>>> c = np.zeros(1, dtype=np.int64)
>>> int(fetch_add(c, 0, 3)), int(fetch_add(c, 0, 4)), int(atomic_load(c, 0))
(0, 3, 7)
>>> @nb.njit
... def bump(a):
...     return atomic_add(a, 1, 5)
>>> a = np.zeros(3, dtype=np.int64)
>>> int(bump(a)), a.tolist()
(0, [0, 5, 0])
>>> @nb.njit
... def lower(a):
...     return atomic_min(a, 0, -2), atomic_min(a, 0, 4)
>>> a = np.array([3], dtype=np.int64)
>>> [int(x) for x in lower(a)], a.tolist()
([3, -2], [-2])
"""

from __future__ import annotations

import platform

import numba as nb
from llvmlite import ir
from numba import types
from numba.core import cgutils
from numba.extending import intrinsic

__all__ = [
    "atomic_add",
    "atomic_load",
    "atomic_min",
    "atomic_sub",
    "cas",
    "fetch_add",
    "fetch_or",
    "spin_pause",
]

#: The spin-wait hint of this machine's CPU (an empty string: none).
_SPIN_HINT = {"x86_64": "pause", "amd64": "pause", "aarch64": "yield", "arm64": "yield"}.get(
    platform.machine().lower(), ""
)


def _pointer(context, builder, aryty, ary_val, idxty, idx_val):
    ary = context.make_array(aryty)(context, builder, ary_val)
    idx = context.cast(builder, idx_val, idxty, types.intp)
    return cgutils.get_item_pointer(context, builder, aryty, ary, [idx], wraparound=False)


def _check(arr, idx):
    return (
        isinstance(arr, types.Array)
        and arr.ndim == 1
        and isinstance(arr.dtype, types.Integer)
        and isinstance(idx, types.Integer)
    )


@intrinsic
def _cas(typingctx, arr, idx, expected, desired):
    if not _check(arr, idx):
        return None
    sig = arr.dtype(arr, idx, expected, desired)

    def codegen(context, builder, sig, args):
        aryty, idxty, expty, desty = sig.args
        ptr = _pointer(context, builder, aryty, args[0], idxty, args[1])
        exp = context.cast(builder, args[2], expty, aryty.dtype)
        des = context.cast(builder, args[3], desty, aryty.dtype)
        pair = builder.cmpxchg(ptr, exp, des, "monotonic", "monotonic")
        return builder.extract_value(pair, 0)

    return sig, codegen


def _rmw(op: str, integer_value: bool = False):
    """An intrinsic ``(arr, idx, value) -> old`` doing ``atomicrmw op``; with ``integer_value``
    it also refuses a non-integer ``value`` (otherwise the value is cast to the array's dtype)."""

    @intrinsic
    def _impl(typingctx, arr, idx, value):
        if not _check(arr, idx) or (integer_value and not isinstance(value, types.Integer)):
            return None
        sig = arr.dtype(arr, idx, value)

        def codegen(context, builder, sig, args):
            aryty, idxty, valty = sig.args
            ptr = _pointer(context, builder, aryty, args[0], idxty, args[1])
            val = context.cast(builder, args[2], valty, aryty.dtype)
            return builder.atomic_rmw(op, ptr, val, "monotonic")

        return sig, codegen

    return _impl


_add = _rmw("add")
_or = _rmw("or")


@intrinsic
def _load(typingctx, arr, idx):
    if not _check(arr, idx):
        return None
    sig = arr.dtype(arr, idx)

    def codegen(context, builder, sig, args):
        aryty, idxty = sig.args
        ptr = _pointer(context, builder, aryty, args[0], idxty, args[1])
        return builder.load_atomic(ptr, "monotonic", aryty.dtype.bitwidth // 8)

    return sig, codegen


@intrinsic
def _pause(typingctx):
    def codegen(context, builder, sig, args):
        # (LLVM intrinsics: Numba's JIT has no assembler for inline ``asm``)
        module = builder.module
        if _SPIN_HINT == "pause":
            fn = cgutils.get_or_insert_function(
                module, ir.FunctionType(ir.VoidType(), []), "llvm.x86.sse2.pause"
            )
            builder.call(fn, [])
        elif _SPIN_HINT == "yield":  # (hint 1 is YIELD)
            fn = cgutils.get_or_insert_function(
                module, ir.FunctionType(ir.VoidType(), [ir.IntType(32)]), "llvm.aarch64.hint"
            )
            builder.call(fn, [ir.Constant(ir.IntType(32), 1)])
        return context.get_dummy_value()

    return types.none(), codegen


@nb.njit(inline="always", nogil=True)
def cas(arr, idx, expected, desired):
    """Atomically ``if arr[idx] == expected: arr[idx] = desired``; returns the old value."""
    return _cas(arr, idx, expected, desired)


@nb.njit(inline="always", nogil=True)
def fetch_add(arr, idx, value):
    """Atomically ``arr[idx] += value``; returns the old value."""
    return _add(arr, idx, value)


@nb.njit(inline="always", nogil=True)
def fetch_or(arr, idx, value):
    """Atomically ``arr[idx] |= value``; returns the old value."""
    return _or(arr, idx, value)


@nb.njit(inline="always", nogil=True)
def atomic_load(arr, idx):
    """``arr[idx]``, read from memory at each call even in a loop that writes nothing (a plain
    read there may be hoisted out of the loop, so a thread waiting for another's write would
    never see it)."""
    return _load(arr, idx)


@nb.njit(inline="always", nogil=True)
def spin_pause():
    """Tell the CPU this thread is spinning, waiting for another's write (x86 ``pause``,
    AArch64 ``yield``): fewer reads of the awaited cache line, and the core's other hardware
    thread runs meanwhile. Nothing on other CPUs."""
    _pause()


atomic_add = _rmw("add", integer_value=True)
atomic_add.__doc__ = "``a[i] += v`` atomically (1-D integer array); returns the old value."
atomic_sub = _rmw("sub", integer_value=True)
atomic_sub.__doc__ = "``a[i] -= v`` atomically (1-D integer array); returns the old value."
atomic_min = _rmw("min", integer_value=True)
atomic_min.__doc__ = (
    "``a[i] = min(a[i], v)`` atomically (1-D signed integer array); returns the old value."
)
