"""Atomic read-modify-write on NumPy integer arrays inside Numba code.

Numba has no CPU atomics; this ``intrinsic`` emits LLVM's ``atomicrmw`` directly. Use it only
where threads of a ``prange`` loop really update the same element (a benign race is cheaper).

Examples
--------
>>> import numpy as np, numba as nb
>>> @nb.njit
... def bump(a):
...     return atomic_add(a, 1, 5)
>>> a = np.zeros(3, dtype=np.int64)
>>> int(bump(a)), a.tolist()
(0, [0, 5, 0])
"""

from __future__ import annotations

from numba import types
from numba.core import cgutils
from numba.extending import intrinsic

__all__ = ["atomic_add", "atomic_sub"]


def _rmw(op: str):
    def typer(typingctx, ary, idx, val):
        if not (
            isinstance(ary, types.Array)
            and ary.ndim == 1
            and isinstance(ary.dtype, types.Integer)
            and isinstance(idx, types.Integer)
            and isinstance(val, types.Integer)
        ):
            return None
        sig = ary.dtype(ary, idx, val)

        def codegen(context, builder, signature, args):
            aryty, idxty, valty = signature.args
            arr, i, v = args
            a = context.make_array(aryty)(context, builder, arr)
            i = context.cast(builder, i, idxty, types.intp)
            v = context.cast(builder, v, valty, aryty.dtype)
            ptr = cgutils.get_item_pointer(context, builder, aryty, a, [i], wraparound=False)
            return builder.atomic_rmw(op, ptr, v, "monotonic")

        return sig, codegen

    return typer


atomic_add = intrinsic(_rmw("add"))
atomic_add.__doc__ = "``a[i] += v`` atomically (1-D integer array); returns the old value."
atomic_sub = intrinsic(_rmw("sub"))
atomic_sub.__doc__ = "``a[i] -= v`` atomically (1-D integer array); returns the old value."
