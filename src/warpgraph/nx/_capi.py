"""NetworkX result graphs built by Numba through CPython's C API, no bytecode run per arc.

:mod:`._results` computes which nodes and arcs a result graph keeps and in which order; building
its dicts from Python then costs ~0.6 us per arc (a ``tolist``, a ``map``, a ``zip``, each
making or touching a Python object per arc). Here one compiled loop makes them: it calls
``PyDict_Copy`` for each data dict, ``_PyDict_NewPresized`` for each adjacency dict and
``_PyDict_SetItem_KnownHash`` for each entry, with the node hashes the conversion read (distinct:
no key's ``__eq__`` or ``__hash__`` runs, so no Python code at all), and prefetches the objects a
few arcs ahead. The functions are reached through their addresses (``ctypes.pythonapi``), passed
as arguments so that the compiled code can be cached.

The loops hold the GIL (plain ``njit``, no ``nogil``) and own every reference they make: a new
dict is handed to its container and released at once, so an error part-way (only
``MemoryError`` is possible: no user code runs) leaves a partial graph that frees itself; the
error is cleared there and reported by a return code. Used only where :mod:`._cpython` is
(CPython 3.11-3.13 with the GIL) and the private functions are exported.

Order rules (see :mod:`._results`): rows are made in visiting order; an undirected row lists
first the neighbours visited before it, in visiting order (handed over by those rows as they
are made), then the others in ``G[u]``'s order; a directed graph's successors keep ``G[u]``'s
order and its predecessors come in visiting order of the tails.
:func:`._capi_tree.tree_graph` builds ``bfs_tree``'s ``DiGraph`` the same way (new empty dicts:
``_PyDict_NewPresized(0)`` is ``PyDict_New()``).

This module holds what the builders share: the C functions' addresses (:func:`api`), the
intrinsics that call them, and the small compiled helpers for references and errors. The
builders are :mod:`._capi_graph` (:func:`build_graph`, a result graph), :mod:`._capi_nodes`
(per-node dicts and sets, dicts of given keys) and :mod:`._capi_tree` (:func:`tree_graph`).
"""

from __future__ import annotations

import ctypes
import sys
from typing import NamedTuple

import numba as nb
import numpy as np
from llvmlite import ir
from numba import types
from numba.extending import intrinsic

from . import _dict_layout
from ._dict_layout import _i64

__all__ = ["DIRECT_REFCOUNTS", "Api", "api", "gather", "zero_fill"]


def _caller(result: ir.Type | None, arity: int):
    """An intrinsic ``call(fn, a, ...)`` calling the C function at address ``fn`` with
    ``arity`` int64 (pointer or ``Py_ssize_t``) arguments; it returns int64 (``result`` i64),
    int32 or nothing (``result`` None)."""
    ret = types.none if result is None else (types.int64 if result.width == 64 else types.int32)

    def typing(args):
        if not all(isinstance(a, types.Integer) for a in args):
            return None
        sig = ret(*(types.int64,) * (arity + 1))

        def codegen(context, builder, signature, llargs):
            i64 = ir.IntType(64)
            fnty = ir.FunctionType(ir.VoidType() if result is None else result, [i64] * arity)
            ptr = builder.inttoptr(llargs[0], fnty.as_pointer())
            out = builder.call(ptr, list(llargs[1:]))
            return context.get_dummy_value() if result is None else out

        return sig, codegen

    if arity == 0:
        return intrinsic(lambda typingctx, fn: typing((fn,)))
    if arity == 1:
        return intrinsic(lambda typingctx, fn, a: typing((fn, a)))
    if arity == 2:
        return intrinsic(lambda typingctx, fn, a, b: typing((fn, a, b)))
    if arity == 3:
        return intrinsic(lambda typingctx, fn, a, b, c: typing((fn, a, b, c)))
    return intrinsic(lambda typingctx, fn, a, b, c, d: typing((fn, a, b, c, d)))


_call0 = _caller(None, 0)  # PyErr_Clear()
_call1 = _caller(ir.IntType(64), 1)  # PyDict_Copy(d), _PyDict_NewPresized(n), PyLong_From...
_decref = _caller(None, 1)  # Py_DecRef(o)
_incref = _caller(None, 1)  # Py_IncRef(o)
_call4 = _caller(ir.IntType(32), 4)  # _PyDict_SetItem_KnownHash(d, key, value, hash)
_call2 = _caller(ir.IntType(32), 2)  # PySet_Add(s, key)
_call3 = _caller(ir.IntType(32), 3)  # PyList_SetItem(list, i, item)


@intrinsic
def _store_i64(typingctx, addr, value):
    """``*(int64_t *)addr = value``."""
    if not (isinstance(addr, types.Integer) and isinstance(value, types.Integer)):
        return None

    def codegen(context, builder, signature, args):
        i64 = ir.IntType(64)
        builder.store(builder.sext(args[1], i64) if args[1].type.width < 64 else args[1],
                      builder.inttoptr(args[0], i64.as_pointer()))  # fmt: skip
        return context.get_dummy_value()

    return types.none(addr, value), codegen


@intrinsic
def _from_double(typingctx, fn, bits):
    """``fn(x)`` for the C function ``PyObject *fn(double x)`` at address ``fn``, ``x`` given by
    its bits (an int64)."""
    if not (isinstance(fn, types.Integer) and isinstance(bits, types.Integer)):
        return None

    def codegen(context, builder, signature, llargs):
        i64 = ir.IntType(64)
        fnty = ir.FunctionType(i64, [ir.DoubleType()])
        ptr = builder.inttoptr(llargs[0], fnty.as_pointer())
        return builder.call(ptr, [builder.bitcast(llargs[1], ir.DoubleType())])

    return types.int64(types.int64, types.int64), codegen


# Positions in the array of function addresses (and, last, the address of ``dict``).
(COPY, PRESIZED, SET, DECREF, CLEAR, LONG, FLOAT, SET_NEW, SET_ADD, LIST_NEW, LIST_SET, INCREF,
 DICT) = range(13)  # fmt: skip
_NAMES = (
    "PyDict_Copy",
    "_PyDict_NewPresized",
    "_PyDict_SetItem_KnownHash",
    "Py_DecRef",
    "PyErr_Clear",
    "PyLong_FromLongLong",
    "PyFloat_FromDouble",
    "PySet_New",
    "PySet_Add",
    "PyList_New",
    "PyList_SetItem",
    "Py_IncRef",
)


class Api(NamedTuple):
    """Addresses of the C functions the builders call (``fns[COPY]``...) and of ``dict``."""

    fns: np.ndarray


_API: dict[str, Api | None] = {}


def api() -> Api | None:
    """The C functions, or None when one is not exported by this interpreter, or the dict
    tables may not be read in place (:func:`._dict_layout.available`), or a list's item array is
    not where :func:`node_dict` reads it."""
    if not _dict_layout.available():  # (asked on every call: the tests switch it off)
        return None
    if "api" not in _API:
        try:
            addrs = [ctypes.cast(getattr(ctypes.pythonapi, n), ctypes.c_void_p).value
                     for n in _NAMES]  # fmt: skip
            found = Api(np.array([*addrs, id(dict)], dtype=np.int64))
            _API["api"] = found if _lists_readable() else None
        except AttributeError:
            _API["api"] = None
    return _API["api"]


@nb.njit(cache=True)
def _fail(fns, row):  # pragma: no cover - compiled
    """Release ``row`` (0: none) and clear the Python error; the builders then return -1."""
    if row != 0:
        _decref(fns[DECREF], row)
    _call0(fns[CLEAR])
    return -1


@nb.njit(cache=True)
def _put(fns, d, key, value, h):  # pragma: no cover - compiled
    """``d[key] = value`` (key hash ``h``), releasing ``value``: 0, or -1 on an error."""
    bad = _call4(fns[SET], d, key, value, h)
    _decref(fns[DECREF], value)
    return -1 if bad != 0 else 0


@nb.njit(cache=True, parallel=True)
def _release_all(fns, objs):  # pragma: no cover - compiled
    """Release the objects at the nonzero ``objs`` (one thread: deallocations are not
    thread-safe), after a parallel pass that finds whether any is left: after a build that
    went well none is, and a serial pass over a million slots other threads wrote cost ~2 ms
    on a 16-core host."""
    left = 0
    for j in nb.prange(objs.shape[0]):
        left += objs[j] != 0
    if left == 0:
        return
    for j in range(objs.shape[0]):
        if objs[j] != 0:
            _decref(fns[DECREF], objs[j])


@nb.njit(cache=True, parallel=True)
def gather(values, at):  # pragma: no cover - compiled
    """``values[at]``, gathered in parallel."""
    out = np.empty(at.shape[0], dtype=values.dtype)
    for i in nb.prange(at.shape[0]):
        out[i] = values[at[i]]
    return out


@nb.njit(cache=True, parallel=True)
def zero_fill(a):  # pragma: no cover - compiled
    """``a[:] = 0`` in parallel (slots that other threads wrote; a serial pass reads each line
    from another core's cache)."""
    for j in nb.prange(a.shape[0]):
        a[j] = 0


# PyListObject: ob_item (the array of item pointers) at offset 24 (3.11-3.13).
_LIST_ITEMS = 24


@nb.njit(cache=True)
def _label(fns, items, u):  # pragma: no cover - compiled
    """A new reference to node ``u``'s label: ``items[u]`` (``items`` the address of a list's
    item array; 0: the labels are ``0..n-1``, made here); 0 on an error."""
    if items == 0:
        return _call1(fns[LONG], u)
    return _i64(items + 8 * u)


# PyDictObject: ma_used 16, ma_keys 32, ma_values 40 (NULL: a combined table). PyDictKeysObject:
# dk_log2_index_bytes 9, dk_kind 10 (0 general, 1 str keys), dk_nentries 24, indices from 32,
# then the entries: (hash, key, value) or (key, value). As read by :mod:`._cpython`.
@nb.njit(inline="always")
def _add_refs(obj, k):  # pragma: no cover - compiled
    """``k`` more (or, negative, fewer) references to ``obj``, as ``k`` calls of ``Py_IncRef``
    (``Py_DecRef``, the count staying above 0) would make, without a call per reference: an
    immortal object (3.12+: the count's low 32 bits negative as an int32) is left alone."""
    count = _i64(obj)
    if k != 0 and ((count << 32) >> 32) >= 0:
        _store_i64(obj, count + k)


#: Whether reference counts may be added to without a call per reference (not in a debug
#: build, which also keeps a total of every reference).
DIRECT_REFCOUNTS = not hasattr(sys, "gettotalrefcount")


@nb.njit(cache=True)
def _list_items(lst):  # pragma: no cover - compiled
    return _i64(lst + _LIST_ITEMS)


_ADOPT = ctypes.PYFUNCTYPE(None, ctypes.c_void_p)


def _adopt(addr: int, fns: np.ndarray):
    """The object at ``addr``, whose reference the caller owned, as a Python object."""
    obj = ctypes.cast(addr, ctypes.py_object).value  # a second reference ...
    _ADOPT(int(fns[DECREF]))(addr)  # ... and the owned one released
    return obj


def _items(labels: list | np.ndarray) -> int:
    """Address of an array of the labels' addresses: the item array of the list ``labels``, or
    ``labels`` itself when it is an int64 array of addresses (the objects and the list alive
    and unchanged during the call)."""
    if isinstance(labels, np.ndarray):
        if labels.dtype != np.int64 or not labels.flags.c_contiguous:
            raise TypeError("label addresses must be a contiguous int64 array")
        return int(labels.ctypes.data)
    return int(_list_items(id(labels)))


def _lists_readable() -> bool:
    """Self-test: a list's item array holds its items' addresses where this module reads it."""
    from ._dict_layout import _i64_at_jit

    probe = [object() for _ in range(5)]
    return _items(probe) != 0 and all(
        int(_i64_at_jit(id(probe) + _LIST_ITEMS, 8 * i)) == id(x) for i, x in enumerate(probe)
    )


@nb.njit(cache=True)
def _presized(fns, k):  # pragma: no cover - compiled
    d = _call1(fns[PRESIZED], k)
    return d if d != 0 else _fail(fns, 0) * 0


def _new_dict(fns: np.ndarray, k: int) -> dict:
    """A new empty dict with room for ``k`` entries."""
    d = _presized(fns, k)
    if d == 0:
        raise MemoryError("could not allocate a dict")
    return _adopt(d, fns)
