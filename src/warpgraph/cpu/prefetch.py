"""Software prefetch for Numba kernels that walk scattered memory.

``llvm.prefetch`` is a hint: it never faults, so an address or index past the data needs no
check. Used where a loop knows a few steps ahead which cache line it will read (the next rows of
a neighbour list, NetworkX's dict entries) and the hardware prefetcher cannot guess it.

Examples
--------
>>> import numba as nb
>>> import numpy as np
>>> @nb.njit
... def total(a):
...     s = 0
...     for i in range(a.shape[0]):
...         prefetch_item(a, i + 8)
...         s += a[i]
...     return s
>>> int(total(np.arange(10)))
45
"""

from __future__ import annotations

from llvmlite import binding as llvm
from llvmlite import ir
from numba import types
from numba.core import cgutils
from numba.extending import intrinsic

__all__ = ["prefetch_address", "prefetch_item"]

# The intrinsic's name carries its pointer type: "p0" with LLVM's opaque pointers (17+), "p0i8"
# with the typed pointers of older llvmlite releases.
_INTRINSIC = "llvm.prefetch.p0" if llvm.llvm_version_info >= (17,) else "llvm.prefetch.p0i8"


def _emit(builder, ptr) -> None:
    """Call ``llvm.prefetch(ptr, read, locality 3 = keep in every level, data cache)``."""
    i8p, i32 = ir.IntType(8).as_pointer(), ir.IntType(32)
    fnty = ir.FunctionType(ir.VoidType(), [i8p, i32, i32, i32])
    fn = cgutils.get_or_insert_function(builder.module, fnty, _INTRINSIC)
    builder.call(fn, [builder.bitcast(ptr, i8p), i32(0), i32(3), i32(1)])


@intrinsic
def prefetch_item(typingctx, arr, idx):
    """Prefetch ``arr[idx]`` (no bounds check: a prefetch never faults)."""
    if not (isinstance(arr, types.Array) and isinstance(idx, types.Integer)):
        return None
    sig = types.void(arr, idx)

    def codegen(context, builder, sig, args):
        aryty, idxty = sig.args
        ary = context.make_array(aryty)(context, builder, args[0])
        i = context.cast(builder, args[1], idxty, types.intp)
        ptr = cgutils.get_item_pointer(context, builder, aryty, ary, [i], wraparound=False)
        _emit(builder, ptr)
        return context.get_dummy_value()

    return sig, codegen


@intrinsic
def prefetch_address(typingctx, addr):
    """Prefetch the byte at the integer address ``addr`` (never faults, whatever the address)."""
    if not isinstance(addr, types.Integer):
        return None

    def codegen(context, builder, signature, args):
        _emit(builder, builder.inttoptr(args[0], ir.IntType(8).as_pointer()))
        return context.get_dummy_value()

    return types.none(addr), codegen
