"""A ``set`` of a dict's keys built in parallel: NetworkX's largest component, from ``G._node``.

``set(G._node)`` inserts one key at a time on one thread (H200 host: 1.9 ms for urand:17's
131k nodes, 6.0 ms for grid:708's 501k), and a component of most nodes is then that set less
the others. Here the set's table is allocated with ``PyMem_Malloc`` (which ``set``'s dealloc
frees), cleared and filled by parallel workers, each key put where CPython's own insertion
probe (``set_add_entry``: ``LINEAR_PROBES`` slots from ``hash & mask``, then a perturbed
jump) would reach a free slot, claimed by an atomic compare-and-swap on the slot's key. A
lookup follows the same probe and passes only occupied slots, so it finds every key whatever
order the workers claimed them in. The table is then attached to a new empty set. The keys
come from the dict's table with their stored hashes (a str-keyed table: the str's cached
hash): no key's ``__hash__`` or ``__eq__`` runs, and they are distinct.

The layouts read and written are CPython 3.11-3.13's (with the GIL; checked at import by
:mod:`._cpython` and by a self-test here). ``PySetObject``: ``fill`` 16, ``used`` 24, ``mask``
32, ``table`` 40; a ``setentry`` is (key, hash), 16 bytes.
"""

from __future__ import annotations

import ctypes

import numba as nb
import numpy as np
from llvmlite import ir
from numba import types
from numba.extending import intrinsic

from ._capi import DIRECT_REFCOUNTS, _add_refs, _store_i64
from ._capi_nodes import _value_slots
from ._dict_layout import _i64, _u8, report_failed_self_test

__all__ = ["key_set", "pair_set"]

#: CPython's set probing (``Objects/setobject.c``, 3.11-3.13).
LINEAR_PROBES = 9
PERTURB_SHIFT = 5
_LOW_59 = (1 << 59) - 1  # an unsigned shift right by 5 of an int64, as a mask after >>

_SET_FILL, _SET_USED, _SET_MASK, _SET_TABLE = 16, 24, 32, 40


@intrinsic
def _claim(typingctx, addr, value):
    """Atomically ``*(int64_t *)addr = value`` if it is 0; whether it was."""
    if not (isinstance(addr, types.Integer) and isinstance(value, types.Integer)):
        return None

    def codegen(context, builder, signature, args):
        i64 = ir.IntType(64)
        ptr = builder.inttoptr(args[0], i64.as_pointer())
        pair = builder.cmpxchg(ptr, ir.Constant(i64, 0), args[1], "monotonic", "monotonic")
        return builder.extract_value(pair, 1)

    return types.boolean(addr, value), codegen


@nb.njit(cache=True, inline="always")
def _insert_key(table, mask, key, h):  # pragma: no cover - compiled
    """Insert ``key`` (an object's address) of hash ``h`` into the set table at ``table``, with
    a reference to it; 1, or 0 when the probe met the same key (inserted already: of two
    threads inserting one key, the second to claim a slot on its path meets it)."""
    i = h & mask
    perturb = h
    while True:
        probes = LINEAR_PROBES if i + LINEAR_PROBES <= mask else 0
        for e in range(i, i + probes + 1):
            if _claim(table + 16 * e, key):
                _store_i64(table + 16 * e + 8, h)
                _add_refs(key, 1)
                return 1
            if _i64(table + 16 * e) == key:
                return 0
        perturb = (perturb >> PERTURB_SHIFT) & _LOW_59
        i = (i * 5 + 1 + perturb) & mask


@nb.njit(cache=True, inline="always")
def _insert(table, mask, src_entries, general, j):  # pragma: no cover - compiled
    """:func:`_insert_key` of the key of entry ``j`` of a dict table (entries at
    ``src_entries``; ``general``: (hash, key, value) entries, else str-keyed (key, value))."""
    at = src_entries + j * (24 if general else 16)
    key = _i64(at + (8 if general else 0))
    h = _i64(at) if general else _i64(key + 24)  # (a str caches its hash)
    return _insert_key(table, mask, key, h)


@nb.njit(cache=True)
def _source_entries(src):  # pragma: no cover - compiled
    """(entries address, general) of the dict ``src``'s table."""
    sk = _i64(src + 32)
    return sk + 32 + (np.int64(1) << _u8(sk + 9)), _u8(sk + 10) == 0


@nb.njit(parallel=True, cache=True)
def _clear_set_table(table, mask):  # pragma: no cover - compiled
    """Zero the ``mask + 1`` entries at ``table`` by all threads (the first touch of fresh
    pages too)."""
    for w in nb.prange(2 * (mask + 1)):
        _store_i64(table + 8 * w, 0)


@nb.njit(parallel=True, cache=True)
def _fill_set_table(src, n, table, mask, keep, keep_all):  # pragma: no cover - compiled
    """Clear the set table at ``table`` (``mask + 1`` entries) and insert the key of entry
    ``j`` of the dict ``src`` (one compact combined table of ``n`` entries: checked by the
    caller) for each ``j`` with ``keep[j]`` (every ``j`` with ``keep_all``), a reference
    added to each. Returns how many were inserted."""
    _clear_set_table(table, mask)
    entries, general = _source_entries(src)
    count = 0
    for j in nb.prange(n):
        if keep_all or keep[j]:
            count += _insert(table, mask, entries, general, j)
    return count


@nb.njit(parallel=True, cache=True)
def _fill_set_table_at(src, n, table, mask, at):  # pragma: no cover - compiled
    """:func:`_fill_set_table` of the entries at the positions ``at``: (keys inserted,
    positions outside ``0..n-1``, skipped). A position given twice is inserted once."""
    _clear_set_table(table, mask)
    entries, general = _source_entries(src)
    count = 0
    outside = 0
    for i in nb.prange(at.shape[0]):
        j = at[i]
        if 0 <= j < n:
            count += _insert(table, mask, entries, general, j)
        else:
            outside += 1
    return count, outside


@nb.njit(cache=True)
def _fill_set_table_pairs(pairs, table, mask):  # pragma: no cover - compiled
    """Clear the set table at ``table`` (``mask + 1`` entries) and insert each key
    ``pairs[i, 0]`` of hash ``pairs[i, 1]``, on one thread (a few thousand keys: waking the
    workers would cost more). Returns how many were inserted."""
    for w in range(2 * (mask + 1)):
        _store_i64(table + 8 * w, 0)
    count = 0
    for i in range(pairs.shape[0]):
        count += _insert_key(table, mask, pairs[i, 0], pairs[i, 1])
    return count


_MALLOC = ctypes.pythonapi.PyMem_Malloc
_MALLOC.restype = ctypes.c_void_p
_MALLOC.argtypes = [ctypes.c_size_t]


def _table_slots(count: int) -> int:
    """Slots of the table CPython gives ``set(d)`` for a dict of ``count`` keys: the 8 slots
    of the set's own small table while ``count * 5 < 7 * 3``, else the least power of two
    above ``2 * count`` (``set_update_internal``'s resize; under 3/5 full either way, so the
    next insertion does not resize)."""
    return 8 if count * 5 < 21 else 1 << (2 * count).bit_length()


def key_set(
    keys_of: dict, keep: np.ndarray | None = None, *, at: np.ndarray | None = None
) -> set | None:
    """``{key for j, key in enumerate(keys_of) if keep[j]}`` (every key when ``keep`` is None),
    or the keys at the positions ``at`` (a position given twice is taken once; no flag of
    ``len(keys_of)`` is read), its table written in parallel. None where the dict's
    table is not one compact combined table of ``len(keys_of)`` entries, or the C API is not
    usable (the caller then builds the set itself).

    Examples
    --------
    >>> import numpy as np
    >>> s = key_set({"a": 1, "b": 2, "c": 3}, np.array([True, False, True]))
    >>> s is None or s == {"a", "c"}
    True

    Raises
    ------
    MemoryError
        When the table could not be allocated.
    """
    from . import _cpython as raw

    n = len(keys_of) if type(keys_of) is dict else -1
    if n <= 0 or not DIRECT_REFCOUNTS or not raw.available() or not _self_tested():
        return None
    if keep is not None and at is not None:
        raise ValueError("key_set takes flags (keep) or positions (at), not both")
    if keep is not None:
        keep = np.ascontiguousarray(keep, dtype=np.bool_)
        if keep.shape != (n,):
            raise ValueError(f"keep must hold one flag per key ({n}), got shape {keep.shape}")
    if at is not None:
        at = np.asarray(at)
        if at.ndim != 1 or at.dtype.kind not in "iu":
            raise TypeError(
                f"at must be a 1-D array of integer positions, got {at.dtype} {at.shape}"
            )
        at = np.ascontiguousarray(at, dtype=np.int64)
    if _value_slots_size(id(keys_of), n) == 0:
        return None
    return _build(keys_of, n, keep, at)


def pair_set(pairs: np.ndarray) -> set | None:
    """The set of the objects whose addresses are ``pairs[:, 0]``, of hashes ``pairs[:, 1]``
    (an int64 array of shape ``(k, 2)``), its table written directly: no ``__hash__`` or
    ``__eq__`` runs. The objects must be alive, of distinct values (no two equal), and
    their hashes right, as a search that found them through a set gives them
    (:mod:`._short_reach`); an address given twice is taken once. None where the C API is
    not usable (the caller then builds the set itself).

    Examples
    --------
    >>> import numpy as np
    >>> keys = ["a", 7, (1, 2)]
    >>> s = pair_set(np.array([(id(k), hash(k)) for k in keys]))
    >>> s is None or s == {"a", 7, (1, 2)}
    True

    Raises
    ------
    TypeError
        Unless ``pairs`` is an int64 array of shape ``(k, 2)``.
    MemoryError
        When the table could not be allocated.
    """
    from . import _cpython as raw

    if (
        not isinstance(pairs, np.ndarray)
        or pairs.dtype != np.int64
        or pairs.ndim != 2
        or (pairs.shape[1] != 2)
    ):
        raise TypeError(f"pair_set reads an int64 array of shape (k, 2), got {pairs!r:.80}")
    if not DIRECT_REFCOUNTS or not raw.available() or not _self_tested():
        return None
    return _build_pairs(np.ascontiguousarray(pairs))


def _build_pairs(pairs: np.ndarray) -> set:
    slots = _table_slots(pairs.shape[0])
    table = _new_table(slots)
    return _attach(table, slots, _fill_set_table_pairs(pairs, table, slots - 1))


def _new_table(slots: int) -> int:
    table = _MALLOC(16 * slots)
    if not table:
        raise MemoryError(f"could not allocate a set table of {slots} slots")
    return table


def _attach(table: int, slots: int, made: int) -> set:
    """A new empty set given the filled table at ``table`` (``slots`` entries, ``made`` keys);
    its small table is left unused, and its dealloc frees ``table``."""
    out: set = set()
    header = id(out)
    for offset, value in ((_SET_FILL, made), (_SET_USED, made), (_SET_MASK, slots - 1)):
        ctypes.c_ssize_t.from_address(header + offset).value = value
    ctypes.c_void_p.from_address(header + _SET_TABLE).value = table
    return out


def _build(keys_of: dict, n: int, keep: np.ndarray | None, at: np.ndarray | None) -> set:
    """:func:`key_set` once its checks passed."""
    if at is not None:
        count = at.size
    else:
        count = n if keep is None else int(np.count_nonzero(keep))
    slots = _table_slots(count)
    table = _new_table(slots)
    outside = 0
    if at is not None:
        made, outside = _fill_set_table_at(id(keys_of), n, table, slots - 1, at)
    else:
        flags = np.zeros(1, dtype=np.bool_) if keep is None else keep
        made = _fill_set_table(id(keys_of), n, table, slots - 1, flags, keep is None)
    out = _attach(table, slots, made)
    if outside:  # (the set is whole, of the others; dropped with the error)
        raise IndexError(f"{outside} positions in at are outside 0..{n - 1}")
    return out


@nb.njit(cache=True)
def _value_slots_size(d, n):  # pragma: no cover - compiled
    return _value_slots(d, n)[1]


_TESTED: dict[str, bool] = {}


def _self_tested() -> bool:
    """Self-test, once: sets built here of int, str and tuple keys (negative hashes), from
    flags, from positions (each given twice) and from (address, hash) pairs (each given
    twice), equal CPython's, find each key, and take
    further additions and removals."""
    if "ok" not in _TESTED:
        _TESTED["ok"] = False  # (a failure part-way leaves it off)
        ok = True
        for keys in (
            list(range(-40, 60)),
            [f"k{i}" for i in range(70)],
            [(i, -i) for i in range(50)],
        ):
            source = dict.fromkeys(keys)
            keep = np.arange(len(keys)) % 3 != 1
            fits = _value_slots_size(id(source), len(keys)) != 0
            expected = {k for k, kept in zip(keys, keep, strict=True) if kept}
            at = np.repeat(np.flatnonzero(keep), 2)  # (each position twice: inserted once)
            pairs = np.array([(id(k), hash(k)) for k in expected] * 2, dtype=np.int64)
            for flags, positions in ((keep, None), (None, at), (None, None)):
                if flags is None and positions is None:  # (each pair twice: inserted once)
                    built = _build_pairs(pairs)
                else:
                    built = _build(source, len(keys), flags, positions) if fits else None
                ok = ok and built == expected and all(k in built for k in expected)
                if ok:
                    built.add("extra")
                    built.discard(keys[0])
                    ok = "extra" in built and keys[0] not in built
                    ok = ok and len(built) == len(expected)
        _TESTED["ok"] = ok
        if not ok:  # (called only where the reader and direct reference counts are usable)
            report_failed_self_test("sets written directly", "Python builds each set")
    return _TESTED["ok"]
