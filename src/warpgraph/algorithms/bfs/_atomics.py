"""Atomic read-modify-write on NumPy array elements inside Numba code (LLVM ``cmpxchg`` and
``atomicrmw``), for the few races of the parallel BFS that are not benign.

Examples
--------
>>> import numpy as np
>>> a = np.array([-1, 5], dtype=np.int32)
>>> int(cas(a, 0, -1, 7)), int(cas(a, 1, -1, 7)), a.tolist()
(-1, 5, [7, 5])
>>> c = np.zeros(1, dtype=np.int64)
>>> int(fetch_add(c, 0, 3)), int(fetch_add(c, 0, 4)), int(c[0])
(0, 3, 7)
"""

from __future__ import annotations

import numba as nb
from llvmlite import ir
from numba import types
from numba.core import cgutils
from numba.extending import intrinsic

__all__ = ["cas", "fetch_add", "fetch_or"]


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


def _rmw(op):
    @intrinsic
    def _impl(typingctx, arr, idx, value):
        if not _check(arr, idx):
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
del ir  # imported for the type of builder values only


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
