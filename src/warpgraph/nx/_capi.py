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
order and its predecessors come in visiting order of the tails. :func:`tree_graph` builds
``bfs_tree``'s ``DiGraph`` the same way (new empty dicts: ``_PyDict_NewPresized(0)`` is
``PyDict_New()``).
"""

from __future__ import annotations

import ctypes
import gc
import sys
from collections.abc import Iterator
from typing import Any, NamedTuple

import numba as nb
import numpy as np
from llvmlite import ir
from numba import types
from numba.extending import intrinsic

from .._arrays import to_host
from ..cpu import prefix
from ..cpu.prefetch import prefetch_address as _prefetch
from ..cpu.prefetch import prefetch_item as _prefetch_item
from ..errors import InvalidArgumentError
from . import _cpython
from ._cpython import _i64, _u8
from ._presized import empty_table_dict

__all__ = ["Api", "api", "build_graph", "node_dict", "node_sets", "tree_graph", "values_for_keys"]


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
    tables may not be read in place (:func:`._cpython.available`), or a list's item array is
    not where :func:`node_dict` reads it."""
    if not _cpython.available():  # (asked on every call: the tests switch it off)
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


# Columns of the node table: one cache line holds what an arc needs of its head.
POS, LABEL, HASH, FILL = range(4)


@nb.njit(cache=True)
def _new_ints(fns, visit, info):  # pragma: no cover - compiled
    """New ``int`` objects for the nodes ``visit`` (labels ``0..n-1``) as their labels; the
    caller releases them with :func:`_release_labels`. Returns -1 on an error (all released)."""
    for j in range(visit.shape[0]):
        obj = _call1(fns[LONG], visit[j])
        if obj == 0:
            _release_labels(fns, visit[:j], info)
            return _fail(fns, 0)
        info[visit[j], LABEL] = obj
    return 0


@nb.njit(cache=True, parallel=True)
def _node_info(visit, hashes, labels):  # pragma: no cover - compiled
    """The ``(n, 4)`` table :func:`build_graph` works from: per dense id its visiting
    position (-1: not kept), label address (``labels``; 0 where ``labels`` is empty: made
    later), hash, and a 0 cursor. Written in parallel in one pass: NumPy's zeros and four
    column writes took 12.8 ms for grid:708 (501k nodes) on one core of 2."""
    n = hashes.shape[0]
    info = np.empty((n, 4), dtype=np.int64)
    given = labels.shape[0] == n
    for u in nb.prange(n):
        info[u, POS] = -1
        info[u, LABEL] = labels[u] if given else 0
        info[u, HASH] = hashes[u]
        info[u, FILL] = 0
    for p in nb.prange(visit.shape[0]):
        info[visit[p], POS] = p
    return info


@nb.njit(cache=True, parallel=True)
def _columns(info, first, second):  # pragma: no cover - compiled
    """``info[:, [first, second]]`` (contiguous), copied in parallel."""
    out = np.empty((info.shape[0], 2), dtype=np.int64)
    for u in nb.prange(info.shape[0]):
        out[u, 0] = info[u, first]
        out[u, 1] = info[u, second]
    return out


@nb.njit(cache=True, parallel=True)
def _column(info, which):  # pragma: no cover - compiled
    """``info[:, which]`` (contiguous), copied in parallel."""
    out = np.empty(info.shape[0], dtype=np.int64)
    for u in nb.prange(info.shape[0]):
        out[u] = info[u, which]
    return out


@nb.njit(cache=True)
def _release_labels(fns, visit, info):  # pragma: no cover - compiled
    for j in range(visit.shape[0]):
        _decref(fns[DECREF], info[visit[j], LABEL])


@nb.njit(cache=True)
def _put(fns, d, key, value, h):  # pragma: no cover - compiled
    """``d[key] = value`` (key hash ``h``), releasing ``value``: 0, or -1 on an error."""
    bad = _call4(fns[SET], d, key, value, h)
    _decref(fns[DECREF], value)
    return -1 if bad != 0 else 0


@nb.njit(cache=True)
def _nodes(fns, node_out, visit, node_data, info):  # pragma: no cover - compiled
    """``H._node[label] = G._node[label].copy()`` for the nodes in visiting order, one at a
    time; 0, -1 on an error, -2 when an attribute dict is not a plain ``dict``."""
    k = visit.shape[0]
    for p in range(k):
        if p + 8 < k:
            _prefetch(node_data[visit[p + 8]])
        u = visit[p]
        if _i64(node_data[u] + 8) != fns[DICT]:
            return -2
        nd = _call1(fns[COPY], node_data[u])
        if nd == 0 or _put(fns, node_out, info[u, LABEL], nd, info[u, HASH]):
            return _fail(fns, 0)
    return 0


@nb.njit(cache=True)
def _put_nodes(fns, node_out, visit, copies, info):  # pragma: no cover - compiled
    """``H._node[label] = copies[p]`` for the nodes in visiting order, each copy's reference
    passed (its slot zeroed); 0, or -1 on an error (the copies not put left to the caller)."""
    k = visit.shape[0]
    for p in range(k):
        if p + 16 < k:
            _prefetch_row(info, visit[p + 16])
        if p + 8 < k:
            _prefetch(info[visit[p + 8], LABEL])  # (its reference count is written)
        u = visit[p]
        copy = copies[p]
        copies[p] = 0
        if _put(fns, node_out, info[u, LABEL], copy, info[u, HASH]):
            return _fail(fns, 0)
    return 0


def _put_node_copies(fns, H, source_nodes, visit, copies, info) -> int:
    """``H._node[label] = copies[p]`` in visiting order, each copy's reference passed (its slot
    zeroed): 0, or -1 on an error. Where every node of ``source_nodes`` is kept in its order
    (``visit`` is ``0..n-1``) and its table has the size of ``H._node``'s (empty, sized for
    ``n``), ``H._node`` is written as a clone of that table by workers (:func:`_fill_clone`);
    else :func:`_put_nodes` puts them one at a time (H200 host, grid:708's 501k nodes: 10-12
    ms)."""
    n = visit.shape[0]
    table = H._node
    if (
        source_nodes is not None
        and len(source_nodes) == n
        and _fits(id(source_nodes), id(table), n)
        and _is_identity(visit)
    ):
        _fill_clone(id(source_nodes), id(table), copies, id(int), id(str), id(float))
        zero_fill(copies)  # (their references passed to the table)
        if not gc.is_tracked(table):  # (its values are dicts, as CPython's insertion tracks)
            ctypes.pythonapi.PyObject_GC_Track(ctypes.py_object(table))
        return 0
    return _put_nodes(fns, id(table), visit, copies, info)


@nb.njit(cache=True, parallel=True)
def _is_identity(visit):  # pragma: no cover - compiled
    """Whether ``visit[p] == p`` for every ``p``."""
    off = 0
    for p in nb.prange(visit.shape[0]):
        off += visit[p] != p
    return off == 0


@nb.njit(cache=True)
def _kept(info, heads, arc_keep, a):  # pragma: no cover - compiled
    """Visiting position of arc ``a``'s head if the arc is kept, else -1."""
    q = info[heads[a], POS]
    return q if arc_keep.shape[0] == 0 or arc_keep[a] else -1


def _plan(visit, info, indptr, heads, arc_keep, addr, start, directed):
    """Kept arcs per row (visiting position) and the kept arcs that make their edge's data
    dict copy (undirected: from the endpoint visited first), with their dicts' addresses, in
    visiting order: ``(deg, kept, arcs, found)``, the kept arcs of the row visited ``p``-th
    at ``kept[deg[p]:deg[p + 1]]``; ``found[j]`` the data dict of arc ``arcs[j]``, arcs being
    numbered ``start[p] + i`` for the ``i``-th arc of the row visited ``p``-th (``addr`` is
    indexed so), so that the work and memory stay in proportion to the rows visited, not to
    the whole graph.

    Two parallel passes over the rows (no Python object is touched): one counts, with running
    sums by chunks (:mod:`..cpu.prefix`), one writes at the offsets the counts give. Serial
    NumPy sums, a ``bincount`` and fancy indexing here cost 12-18 ms of grid:708's ``k_core``
    on a 16-core host. What a row hands to later rows is counted only where the rows are made
    one at a time (:func:`_cursors`)."""
    k = visit.shape[0]
    count, size = prefix.chunks(k)
    deg = np.empty(k + 1, dtype=np.int64)
    own = np.empty(k + 1, dtype=np.int64)
    totals = np.empty((2, count + 1), dtype=np.int64)
    _plan_counts(visit, info, indptr, heads, arc_keep, directed, deg, own, totals, size)
    prefix.add_chunk_offsets(deg, totals[0], size)
    prefix.add_chunk_offsets(own, totals[1], size)
    kept = np.empty(deg[k], dtype=np.int64)
    arcs = np.empty(own[k], dtype=np.int64)
    found = np.empty(own[k], dtype=np.int64)
    _plan_fill(visit, info, indptr, heads, arc_keep, addr, start, directed, deg, own, kept,
               arcs, found)  # fmt: skip
    return deg, kept, arcs, found


@nb.njit(cache=True, parallel=True)
def _plan_counts(
    visit, info, indptr, heads, arc_keep, directed, deg, own, totals, size
):  # pragma: no cover - compiled
    """Per visited row ``p``: its kept arcs and those whose data dict it copies, as running
    sums within chunks of ``size`` rows (``deg[p + 1]``, ``own[p + 1]``) and the chunks'
    totals (``totals[:, c + 1]``)."""
    k = visit.shape[0]
    for c in nb.prange(totals.shape[1] - 1):
        run_kept = run_copies = 0
        for p in range(c * size, min(k, (c + 1) * size)):
            u = visit[p]
            for a in range(indptr[u], indptr[u + 1]):
                if a + 8 < indptr[u + 1]:
                    _prefetch_row(info, heads[a + 8])
                q = _kept(info, heads, arc_keep, a)
                if q < 0:
                    continue
                run_kept += 1
                if directed or q >= p:
                    run_copies += 1
            deg[p + 1] = run_kept
            own[p + 1] = run_copies
        totals[0, c + 1] = run_kept
        totals[1, c + 1] = run_copies


@nb.njit(cache=True, parallel=True)
def _plan_fill(
    visit, info, indptr, heads, arc_keep, addr, start, directed, deg, own, kept, arcs, found
):  # pragma: no cover - compiled
    """The arcs counted by :func:`_plan_counts`, each row's from its offsets ``deg[p]`` (its
    kept arcs) and ``own[p]`` (the copying arcs and their data dicts)."""
    for p in nb.prange(visit.shape[0]):
        u = visit[p]
        r = deg[p]
        c = own[p]
        for a in range(indptr[u], indptr[u + 1]):
            q = _kept(info, heads, arc_keep, a)
            if q < 0:
                continue
            kept[r] = a
            r += 1
            if directed or q >= p:
                arcs[c] = start[p] + a - indptr[u]
                found[c] = addr[arcs[c]]
                c += 1


def _cursors(visit, info, heads, kept, deg, directed) -> np.ndarray:
    """Where the entries each node is handed by the rows made before its own go (undirected:
    from its neighbours visited before; directed: its predecessors): those of the node at
    visiting position ``p`` to ``first[p]..first[p + 1]`` of one buffer (returned);
    ``info[:, FILL]`` is set to the cursors ``first[:-1]``. Only :func:`_rows` needs them."""
    k = visit.shape[0]
    first = np.zeros(k + 1, dtype=np.int64)
    _handed_counts(info, heads, kept, deg, directed, first[1:])
    np.cumsum(first, out=first)
    info[visit, FILL] = first[:-1]
    return first


@nb.njit(cache=True)
def _handed_counts(info, heads, kept, deg, directed, counts):  # pragma: no cover - compiled
    """``counts[q]``: the entries the rows visited before ``q`` hand to the node visited
    ``q``-th (directed: every kept arc into it)."""
    for p in range(deg.shape[0] - 1):
        for j in range(deg[p], deg[p + 1]):
            q = info[heads[kept[j]], POS]
            if directed or q > p:
                counts[q] += 1


@nb.njit(cache=True)
def _prefetch_row(info, v):  # pragma: no cover - compiled
    _prefetch_item(info[v], 0)


@nb.njit(cache=True)
def _by_address(arcs, found):  # pragma: no cover - compiled
    """``arcs`` and their data dicts' addresses ``found``, sorted by address in blocks of
    4 KiB or more (a counting sort): the dicts are then read nearly in memory order."""
    m = arcs.shape[0]
    if m == 0:
        return arcs, found
    lo = found.min()
    hi = found.max()
    shift = 12
    while ((hi - lo) >> shift) > 4 * m + 4096:
        shift += 1
    start = np.zeros(((hi - lo) >> shift) + 2, dtype=np.int64)
    for j in range(m):
        start[((found[j] - lo) >> shift) + 1] += 1
    for b in range(start.shape[0] - 1):
        start[b + 1] += start[b]
    out = np.empty(m, dtype=np.int64)
    out_found = np.empty(m, dtype=np.int64)
    for j in range(m):
        b = (found[j] - lo) >> shift
        out[start[b]] = arcs[j]
        out_found[start[b]] = found[j]
        start[b] += 1
    return out, out_found


@nb.njit(cache=True)
def _copies(fns, arcs, found, copy_at):  # pragma: no cover - compiled
    """``copy_at[arcs[j]]`` (visited arc numbers, see :func:`_plan`) = a copy of the data dict
    at ``found[j]``; 0, -1 on an error, -2 when a data dict is not a plain ``dict``. The caller
    releases ``copy_at``."""
    m = arcs.shape[0]
    for j in range(m):
        if j + 16 < m:
            _prefetch(found[j + 16])
        if j + 8 < m:
            _prefetch(_i64(found[j + 8] + 32))  # the key table
        d = found[j]
        if _i64(d + 8) != fns[DICT]:  # ob_type
            return -2
        copy = _call1(fns[COPY], d)
        if copy == 0:
            return _fail(fns, 0)
        copy_at[arcs[j]] = copy
    return 0


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


@nb.njit(cache=True)
def _entries(fns, row, lo, hi, given, giver, info):  # pragma: no cover - compiled
    """``row[label of giver[j]] = given[j]`` for ``j`` in ``lo..hi``; 0, or -1 on an error."""
    for j in range(lo, hi):
        if j + 8 < hi:
            _prefetch(given[j + 8])
            _prefetch_row(info, giver[j + 8])
        v = giver[j]
        if _call4(fns[SET], row, info[v, LABEL], given[j], info[v, HASH]):
            return -1
    return 0


@nb.njit(cache=True)
def _rows(
    fns, adj_out, pred_out, visit, info, indptr, heads, copy_at, start, deg, kept, first, directed
):  # pragma: no cover - compiled
    """The adjacency dicts (and a directed graph's predecessor dicts) from the data dict copies
    ``copy_at`` (by visited arc number, see :func:`_plan`); 0, or -1 on an error."""
    k = visit.shape[0]
    m = kept.shape[0]
    given = np.empty(first[k], dtype=np.int64)  # the data dict copy handed over ...
    giver = np.empty(first[k], dtype=np.int64)  # ... and the node that made it
    for p in range(k):
        u = visit[p]
        row = _call1(fns[PRESIZED], deg[p + 1] - deg[p])
        if row == 0:
            return _fail(fns, 0)
        if not directed:  # the neighbours visited before, in visiting order
            if _entries(fns, row, first[p], first[p + 1], given, giver, info):
                return _fail(fns, row)
        shift = start[p] - indptr[u]  # arc a of row u is visited arc a + shift
        end = deg[p + 1]
        for j in range(deg[p], end):  # the row's kept arcs only
            if j + 8 < end:
                _prefetch(copy_at[kept[j + 8] + shift])
            if j + 8 < m:
                _prefetch_row(info, heads[kept[j + 8]])
            a = kept[j]
            copy = copy_at[a + shift]
            if copy == 0:  # the edge's copy comes from an earlier row
                continue
            h = heads[a]
            bad = _call4(fns[SET], row, info[h, LABEL], copy, info[h, HASH])
            _decref(fns[DECREF], copy)  # the row's now (or freed if bad)
            copy_at[a + shift] = 0
            if bad:
                return _fail(fns, row)
            if directed or info[h, POS] > p:
                at = info[h, FILL]
                given[at] = copy
                giver[at] = u
                info[h, FILL] = at + 1
        if _put(fns, adj_out, info[u, LABEL], row, info[u, HASH]):
            return _fail(fns, 0)
    if directed:  # predecessors, in visiting order of the tails
        for q in range(k):
            row = _call1(fns[PRESIZED], first[q + 1] - first[q])
            if row == 0:
                return _fail(fns, 0)
            if _entries(fns, row, first[q], first[q + 1], given, giver, info):
                return _fail(fns, row)
            v = visit[q]
            if _put(fns, pred_out, info[v, LABEL], row, info[v, HASH]):
                return _fail(fns, 0)
    return 0


def _rows_worth_workers(deg: np.ndarray) -> bool:
    """Whether :mod:`._parallel_rows` should make the rows (kept arcs per row: ``deg``,
    cumulative): always where it makes them by workers (``rows_forged``), else when they are
    long enough on average (see its ``ENTRIES_PER_ROW``)."""
    from . import _parallel_rows

    rows = deg.size - 1
    long_rows = deg[-1] >= _parallel_rows.ENTRIES_PER_ROW * rows
    return rows > 0 and (long_rows or _parallel_rows.rows_forged())


def build_graph(
    H,
    fns: np.ndarray,
    visit: np.ndarray,
    indptr: np.ndarray,
    heads: np.ndarray,
    arc_keep: np.ndarray | None,
    addresses: np.ndarray,
    start: np.ndarray,
    node_data: np.ndarray,
    labels: np.ndarray | None,
    hashes: np.ndarray,
    source_nodes: dict | None = None,
) -> bool:
    """Fill the empty NetworkX graph ``H`` (``Graph`` or ``DiGraph``) with the nodes ``visit``
    (dense ids, in order) and the kept arcs between them.

    ``indptr``/``heads``: the source's rows in NetworkX's adjacency order (dense ids);
    ``arc_keep``: a mask over those arcs (None: all); ``addresses``: the data dicts of the arcs
    of the rows ``visit``, row after row, that of row ``visit[p]`` from ``start[p]``;
    ``node_data``: each node's attribute dict; ``labels``: each node's label object (None: the
    labels are ``0..n-1``, made here); ``hashes``: the labels' hashes, distinct;
    ``source_nodes``: the source's node dict (``G._node``, its entries the dense ids in order),
    whose table ``H._node`` is cloned from where every node is kept in that order (see
    :func:`_put_node_copies`). Every object at those addresses must stay alive during the call
    (the caller holds the source graph).
    ``H``'s node and adjacency dicts are replaced by ones sized for ``visit``. An undirected
    graph's rows averaging ``_parallel_rows.ENTRIES_PER_ROW`` entries or more are written by
    parallel workers (:func:`._parallel_rows.fill_rows`); the others one at a time. The caller
    pauses the collector (:class:`._common.gc_paused`).

    Returns
    -------
    bool
        False when an attribute or data dict is not a plain ``dict`` (``H`` is then
        incomplete: build it another way).

    Raises
    ------
    MemoryError
        When CPython could not allocate a dict (``H`` is then incomplete).
    """
    visit = np.ascontiguousarray(visit, dtype=np.int64)
    made = labels is None
    given = np.zeros(0, np.int64) if made else np.ascontiguousarray(labels, dtype=np.int64)
    if not made and given.shape != hashes.shape:
        raise ValueError(f"{given.size} labels for {hashes.size} node hashes")
    info = _node_info(visit, np.ascontiguousarray(hashes, dtype=np.int64), given)
    keep = np.zeros(0, np.bool_) if arc_keep is None else np.ascontiguousarray(arc_keep, np.bool_)
    if made and _new_ints(fns, visit, info):
        raise MemoryError("could not allocate the node labels")
    try:
        directed = H.is_directed()
        # H's (empty) tables replaced by ones sized for the kept nodes: no resize while they fill
        H._node, H._adj = empty_dict_for(visit.size), empty_dict_for(visit.size)
        if directed:
            H._pred = empty_dict_for(visit.size)
            H._succ = H._adj  # (NetworkX's descriptors also keep them one object)
        from ._parallel_copies import by_workers, copy_data_dicts  # (they import this module)

        if by_workers(visit.size):  # the attribute dicts copied by workers first, then put
            node_copies = np.zeros(visit.size, dtype=np.int64)
            try:
                done = copy_data_dicts(fns, np.arange(visit.size), gather(node_data, visit),
                                       node_copies)  # fmt: skip
                if done == 0:
                    done = _put_node_copies(fns, H, source_nodes, visit, node_copies, info)
            finally:
                _release_all(fns, node_copies)  # the copies not put (after an error)
        else:  # one pass (2 cores, grid:708: 43-65 ms; in two, the puts alone took 21-34 ms)
            done = _nodes(fns, id(H._node), visit, node_data, info)
        if done == 0:
            copy_at = np.zeros(start[-1], dtype=np.int64)
            try:
                deg, kept, arcs, found = _plan(visit, info, indptr, heads, keep, addresses,
                                               start, directed)  # fmt: skip
                done = copy_data_dicts(fns, arcs, found, copy_at)
                one_at_a_time = done == 0
                if one_at_a_time and not directed and DIRECT_REFCOUNTS and _rows_worth_workers(deg):
                    from ._parallel_rows import fill_rows

                    done = fill_rows(fns, H._adj, H._node, visit, _column(info, POS), heads,
                                     kept, deg, copy_at, start, indptr,
                                     _columns(info, LABEL, HASH))  # fmt: skip
                    one_at_a_time = done == 1  # no table template: one row at a time
                if one_at_a_time:
                    first = _cursors(visit, info, heads, kept, deg, directed)
                    pred = id(H._pred) if directed else 0
                    done = _rows(fns, id(H._adj), pred, visit, info, indptr, heads, copy_at,
                                 start, deg, kept, first, directed)  # fmt: skip
            finally:
                _release_all(fns, copy_at)  # the copies no row took (after an error)
        if done == -1:
            raise MemoryError("could not allocate the result graph's dicts")
        return done == 0
    finally:
        if made:
            _release_labels(fns, visit, info)


# ------------------------------------------------------------------ per-node dicts and sets
# Value kinds of :func:`node_dict`: ``values`` holds int64 ints or float64 bits.
INTS, FLOATS = 0, 1
# PyListObject: ob_item (the array of item pointers) at offset 24 (3.11-3.13).
_LIST_ITEMS = 24


@nb.njit(cache=True)
def _label(fns, items, u):  # pragma: no cover - compiled
    """A new reference to node ``u``'s label: ``items[u]`` (``items`` the address of a list's
    item array; 0: the labels are ``0..n-1``, made here); 0 on an error."""
    if items == 0:
        return _call1(fns[LONG], u)
    return _i64(items + 8 * u)


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


#: Whether reference counts may be added to without a call per reference (not in a debug
#: build, which also keeps a total of every reference).
DIRECT_REFCOUNTS = not hasattr(sys, "gettotalrefcount")


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
    from ._cpython import _i64_at_jit

    probe = [object() for _ in range(5)]
    return _items(probe) != 0 and all(
        int(_i64_at_jit(id(probe) + _LIST_ITEMS, 8 * i)) == id(x) for i, x in enumerate(probe)
    )


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


# ------------------------------------------------------------------ BFS tree (nx.bfs_tree)
@nb.njit(cache=True)
def _tree_labels(fns, order, items, hashes, lab, hp):  # pragma: no cover - compiled
    """Each tree node's label (``lab[p]``, a new reference when ``items`` is 0) and hash
    (``hp[p]``) by discovery position ``p``; 0, or -1 on an error (the new ones released)."""
    for p in range(order.shape[0]):
        hp[p] = hashes[order[p]]
        obj = _label(fns, items, order[p])
        if obj == 0:
            if items == 0:
                for j in range(p):
                    _decref(fns[DECREF], lab[j])
            return _fail(fns, 0)
        lab[p] = obj
    return 0


@nb.njit(cache=True)
def _tree(fns, node_out, succ_out, pred_out, parent_pos, lab, hp):  # pragma: no cover
    """Fill an empty ``DiGraph``'s node, successor and predecessor dicts with the tree whose
    node ``p + 1`` (discovery position) has the parent at position ``parent_pos[p]`` (< p + 1):
    nodes in discovery order, each one's children in discovery order, one new empty data dict
    per edge held by its successor and predecessor entries. 0, or -1 on an error."""
    k = lab.shape[0]
    first = np.zeros(k + 1, dtype=np.int64)  # children by parent position (counting sort)
    for i in range(k - 1):
        first[parent_pos[i] + 1] += 1
    for p in range(k):
        first[p + 1] += first[p]
    fill = first[:k].copy()
    kids = np.empty(max(k - 1, 0), dtype=np.int64)
    for i in range(k - 1):
        q = parent_pos[i]
        kids[fill[q]] = i + 1
        fill[q] += 1
    for p in range(k):  # the node attribute dicts
        if p + 8 < k:
            _prefetch(lab[p + 8])
        nd = _call1(fns[PRESIZED], 0)  # PyDict_New()
        if nd == 0 or _put(fns, node_out, lab[p], nd, hp[p]):
            return _fail(fns, 0)
    data = np.zeros(k, dtype=np.int64)  # the data dict of the edge into p (borrowed)
    for p in range(k):  # the successor rows, a new data dict per edge
        if p + 8 < k:
            _prefetch(lab[p + 8])
        row = _call1(fns[PRESIZED], first[p + 1] - first[p])
        if row == 0:
            return _fail(fns, 0)
        for j in range(first[p], first[p + 1]):
            c = kids[j]
            d = _call1(fns[PRESIZED], 0)
            if d == 0:
                return _fail(fns, row)
            data[c] = d  # the row's once put (alive as long as the graph)
            if _put(fns, row, lab[c], d, hp[c]):
                return _fail(fns, row)
        if _put(fns, succ_out, lab[p], row, hp[p]):
            return _fail(fns, 0)
    for p in range(k):  # the predecessor rows: the parent, with the edge's data dict
        if p + 8 < k:
            _prefetch(lab[p + 8])
        pred = _call1(fns[PRESIZED], 0)
        if pred == 0:
            return _fail(fns, 0)
        if p > 0:
            q = parent_pos[p - 1]
            if _call4(fns[SET], pred, lab[q], data[p], hp[q]):
                return _fail(fns, pred)
        if _put(fns, pred_out, lab[p], pred, hp[p]):
            return _fail(fns, 0)
    return 0


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


def tree_graph(
    fns: np.ndarray,
    T,
    order: np.ndarray,
    parent_pos: np.ndarray,
    labels: list | np.ndarray | None,
    hashes: np.ndarray,
) -> None:
    """Fill the empty ``networkx.DiGraph`` ``T`` with a tree as NetworkX's ``bfs_tree`` builds
    it, by one compiled loop.

    ``order``: the tree's nodes (dense ids) in discovery order, the root first;
    ``parent_pos``: the discovery position of node ``order[p + 1]``'s parent (below ``p + 1``);
    ``labels``: the node labels by dense id (a plain list, kept alive and unchanged by the
    caller; None: the labels are ``0..n-1``, made here); ``hashes``: the labels' hashes by dense
    id, distinct. ``T`` gets the nodes in discovery order (each a new empty attribute dict),
    each node's children in discovery order as its successors, its parent as its predecessor,
    and one new empty data dict per edge, held by both entries.

    Examples
    --------
    >>> import networkx as nx
    >>> import numpy as np
    >>> a = api()
    >>> if a is not None:
    ...     T = nx.DiGraph()
    ...     tree_graph(a.fns, T, np.array([2, 0, 1]), np.array([0, 0]), ["a", "b", "c"],
    ...                np.array([hash(x) for x in "abc"]))
    ...     assert list(T.edges) == [("c", "a"), ("c", "b")]

    Raises
    ------
    MemoryError
        When CPython could not allocate a dict (``T`` is then incomplete).
    """
    order = np.ascontiguousarray(order, dtype=np.int64)
    parent_pos = np.ascontiguousarray(parent_pos, dtype=np.int64)
    hashes = np.ascontiguousarray(hashes, dtype=np.int64)
    k = order.size
    bad = (parent_pos < 0) | (parent_pos >= np.arange(1, k)) if parent_pos.size == k - 1 else None
    if bad is None or bad.any():
        raise InvalidArgumentError("each tree node's parent must be discovered before it")
    items = 0 if labels is None else _items(labels)
    lab = np.zeros(k, dtype=np.int64)
    hp = np.empty(k, dtype=np.int64)
    if _tree_labels(fns, order, items, hashes, lab, hp):
        raise MemoryError("could not allocate the node labels")
    try:
        # T's (empty) tables replaced by presized ones: no resize while they fill
        T._node, T._adj, T._pred = (_new_dict(fns, k) for _ in range(3))
        T._succ = T._adj  # (NetworkX's descriptors also keep them one object)
        done = _tree(fns, id(T._node), id(T._succ), id(T._pred), parent_pos, lab, hp)
    finally:
        if items == 0:
            _release_all(fns, lab)
    if done:
        raise MemoryError("could not allocate the tree's dicts")
