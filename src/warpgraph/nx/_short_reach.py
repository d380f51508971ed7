"""The short search ``descendants`` and ``ancestors`` try first, compiled through CPython's C API.

:func:`.reachability.reach_within` finds the nodes a source reaches while they are few (a DAG's
leaf, a small component), before anything reads the whole graph. In Python each node found
costs ~0.3-0.5 us (a row lookup, a ``set.update``, the layer's set algebra). Here one compiled
loop does the same through the C API: ``PyDict_GetItemWithError`` for each node's row, the row's
table read in place (:mod:`._cpython`), ``PySet_Add`` for each neighbour into the set returned,
a neighbour being new when the set's size grew.

No Python code runs while a row's table is read: only exact ``int`` and ``str`` keys are taken
(anything else ends the search here and the Python search runs instead), so hashing and
comparing a key, in the set or in the outer dict, is CPython's own C code. The set holds a
reference to every node found, which keeps alive the addresses the loop queues. Used only where
:mod:`._capi` is (CPython 3.11-3.13 with the GIL, the functions exported).
"""

from __future__ import annotations

import ctypes
import operator
from typing import Any

import numba as nb
import numpy as np
from llvmlite import ir

from ._capi import CLEAR, SET_ADD, _call0, _call2, _caller, api
from ._cpython import _entry_key, _i64, _table

__all__ = ["GAVE_UP", "UNREADABLE", "reach"]

#: :func:`reach`'s answer when more than ``limit`` nodes were found.
GAVE_UP = None
#: :func:`reach`'s answer when the dicts cannot be searched so (the caller searches in Python).
UNREADABLE = NotImplemented

_call2_i64 = _caller(ir.IntType(64), 2)  # PyDict_GetItemWithError(d, key): a borrowed row
_SET_USED = 24  # PySetObject.used
_TOO_MANY, _CANNOT = -1, -2


def _get_item() -> int | None:
    try:
        return ctypes.cast(ctypes.pythonapi.PyDict_GetItemWithError, ctypes.c_void_p).value
    except AttributeError:
        return None


_GET_ITEM = _get_item()


@nb.njit(cache=True)
def _search(
    fns, get_item, rows, found, frontier, limit, dict_type, int_type, str_type
):  # pragma: no cover - compiled
    """Add to the set ``found`` (holding the source, ``frontier[0]``) the nodes reached through
    the rows of ``rows``, layer by layer; how many were added, :data:`_TOO_MANY` once more than
    ``limit`` were, :data:`_CANNOT` when a row is not a plain combined dict, a key is not an
    exact int or str, or a C call failed (its error cleared)."""
    lo, hi = 0, 1
    while lo < hi:
        end = hi
        for i in range(lo, end):
            row = _call2_i64(get_item, rows, frontier[i])
            if row == 0:  # (not a node of rows, or an error)
                _call0(fns[CLEAR])
                return _CANNOT
            if _i64(row + 8) != dict_type or _i64(row + 40) != 0:
                return _CANNOT
            entries, size, kind, count = _table(row)
            if size == 0:
                return _CANNOT
            for e in range(count):
                value, key = _entry_key(entries + size * e, kind)
                if value == 0:  # deleted entry
                    continue
                key_type = _i64(key + 8)
                if key_type != int_type and key_type != str_type:
                    return _CANNOT
                before = _i64(found + _SET_USED)
                if _call2(fns[SET_ADD], found, key) != 0:
                    _call0(fns[CLEAR])
                    return _CANNOT
                if _i64(found + _SET_USED) != before:
                    if hi > limit:
                        return _TOO_MANY
                    frontier[hi] = key
                    hi += 1
        lo = end
    return hi - 1


def reach(rows: dict, source: Any, limit: int) -> set | None:
    """The nodes reached from ``source`` through the adjacency dict ``rows`` (``G._adj``,
    ``_succ`` or ``_pred``), ``source`` excluded; :data:`GAVE_UP` (None) once more than
    ``limit`` are found; :data:`UNREADABLE` where this search cannot run (the C API not
    usable, a label other than an exact ``int`` or ``str``, a row not a plain dict, a negative
    ``limit``).

    Examples
    --------
    >>> import networkx as nx
    >>> D = nx.DiGraph([(0, 1), (1, 2), (2, 0), (3, 0)])
    >>> found = reach(D._pred, 0, 10)
    >>> found is UNREADABLE or sorted(found) == [1, 2, 3]
    True
    >>> reach(nx.path_graph(100)._adj, 0, 10) in (GAVE_UP, UNREADABLE)
    True

    Raises
    ------
    TypeError
        When ``limit`` is not an integer.
    """
    limit = operator.index(limit)
    fns = api()
    if (
        fns is None
        or _GET_ITEM is None
        or type(rows) is not dict
        or type(source) not in (int, str)
        or limit < 0
    ):
        return UNREADABLE
    found = {source}
    frontier = np.empty(limit + 2, dtype=np.int64)
    frontier[0] = id(source)
    added = _search(fns.fns, _GET_ITEM, id(rows), id(found), frontier, limit, id(dict), id(int),
                    id(str))  # fmt: skip
    if added == _CANNOT:
        return UNREADABLE
    if added == _TOO_MANY:
        return GAVE_UP
    found.discard(source)
    return found
