"""CPython's ``set`` iteration order, computed in parallel instead of built one set at a time.

NetworkX's subgraph view ``G.subgraph(G[v])`` lists its nodes in the order of a Python ``set``
made from ``v``'s neighbours (``set(iterator)``: one key added at a time, in adjacency order),
and ``local_efficiency`` adds each neighbourhood's terms in that order. Building those sets in
Python costs ~2 us per node, serially (0.26 s on a 131,072-node graph with 16 neighbours each,
0.5 s on a 501,264-node lattice, 2 cores); the order itself follows from the keys' hashes alone
when no two keys hash equally (no key is then ever compared with another), so it is computed
here for every row in a parallel Numba loop.

The rules replayed are those of ``Objects/setobject.c`` (CPython 3.7 to 3.13): a table of 8
slots to start with; a key goes to slot ``hash & mask``, else the first free one of the next
``LINEAR_PROBES`` (9) slots when they lie inside the table, else the walk jumps to
``(i * 5 + 1 + perturb) & mask`` with ``perturb`` the hash shifted right by 5 more bits each jump
(the hash read as an unsigned ``size_t``); once ``fill * 5 >= mask * 3`` the table grows to the
smallest power of two above ``used * 4`` (``used * 2`` past 50,000 keys) and the old table's
keys are re-inserted by the same walk in slot order. Iteration lists the slots in order.

:func:`available` checks the replay against CPython's own sets once per process (sizes up to
2,000, clustered and negative hashes; 160,000 only when a row needs it) and turns it off on any
difference, so a Python whose sets are laid out otherwise gets the sets built by CPython again
(:mod:`.efficiency`).
"""

from __future__ import annotations

import functools
import random

import numba as nb
import numpy as np
from numba import prange

__all__ = ["available", "set_orders"]

LINEAR_PROBES = 9
PERTURB_SHIFT = 5
MINSIZE = 8
#: Rows per chunk of the parallel loop (each chunk allocates its scratch table once).
CHUNK = 256


@nb.njit(cache=True, inline="always")
def _insert(slots, slot_hash, mask, key, h):  # pragma: no cover - compiled
    """``set_insert_clean`` (and ``set_add_entry``'s walk to a free slot, the same when keys
    never hash equally and nothing was deleted); ``h`` and ``mask`` are ``uint64`` (C's
    ``size_t``), slot numbers stay below ``mask`` and so fit an ``int64``."""
    perturb = h
    i = np.int64(h & mask)
    while True:
        if slots[i] < 0:
            slots[i], slot_hash[i] = key, h
            return
        if i + LINEAR_PROBES <= np.int64(mask):
            for j in range(i + 1, i + LINEAR_PROBES + 1):
                if slots[j] < 0:
                    slots[j], slot_hash[j] = key, h
                    return
        perturb >>= np.uint64(PERTURB_SHIFT)
        i = np.int64((np.uint64(i) * np.uint64(5) + np.uint64(1) + perturb) & mask)


@nb.njit(cache=True)
def _one_set(hashes, lo, hi, slots, slot_hash, spare, spare_hash, out):  # pragma: no cover
    """The positions ``lo..hi-1`` (keys with hashes ``hashes[lo:hi]``) in the order
    ``set(iterator)`` lists them, written to ``out[lo:hi]``."""
    mask = np.uint64(MINSIZE - 1)
    slots[:MINSIZE] = -1
    fill = 0
    for key in range(lo, hi):
        _insert(slots, slot_hash, mask, np.int64(key), hashes[key])
        fill += 1
        if fill * 5 >= int(mask) * 3:  # (set_table_resize: re-insert in slot order)
            minused = fill * 2 if fill > 50000 else fill * 4
            size = MINSIZE
            while size <= minused:
                size <<= 1
            old = int(mask) + 1
            spare[:old] = slots[:old]
            spare_hash[:old] = slot_hash[:old]
            mask = np.uint64(size - 1)
            slots[:size] = -1
            for s in range(old):
                if spare[s] >= 0:
                    _insert(slots, slot_hash, mask, spare[s], spare_hash[s])
    k = lo
    for s in range(int(mask) + 1):
        if slots[s] >= 0:
            out[k] = slots[s]
            k += 1


def _table_size(keys: int) -> int:
    """Slots a ``set`` of ``keys`` keys may reach while they are added (a bound: a table grows
    to the power of two above ``4 * used`` at most, so below ``8 * keys``)."""
    return max(MINSIZE, 1 << (8 * keys).bit_length())


@nb.njit(cache=True, parallel=True)
def _orders(indptr, hashes, chunk_table, sort_from, ids, out):  # pragma: no cover - compiled
    rows = indptr.size - 1
    for c in prange((rows + CHUNK - 1) // CHUNK):
        size = chunk_table[c]
        slots = np.empty(size, dtype=np.int64)
        slot_hash = np.empty(size, dtype=np.uint64)
        spare = np.empty(size, dtype=np.int64)
        spare_hash = np.empty(size, dtype=np.uint64)
        for r in range(c * CHUNK, min(rows, (c + 1) * CHUNK)):
            lo, hi = indptr[r], indptr[r + 1]
            if hi - lo >= sort_from:  # (node order: ids ascending)
                out[lo:hi] = np.sort(ids[lo:hi])
                continue
            _one_set(hashes, lo, hi, slots, slot_hash, spare, spare_hash, out)
            for j in range(lo, hi):  # (positions -> the ids at them)
                out[j] = ids[out[j]]


def set_orders(indptr: np.ndarray, ids: np.ndarray, hashes: np.ndarray,
               sort_from: int) -> np.ndarray:  # fmt: skip
    """Each row's ids in the order CPython's ``set`` of its keys lists them.

    Parameters
    ----------
    indptr, ids : numpy.ndarray
        Rows (int64): row ``r`` is ``ids[indptr[r]:indptr[r + 1]]``, in the order the keys are
        added.
    hashes : numpy.ndarray
        ``hash()`` of the key at each position of ``ids`` (int64); no two keys of a row may
        hash equally (CPython would then compare them).
    sort_from : int
        Rows of at least this many keys are listed in id order instead (NetworkX's subgraph
        view iterates the node dict when the set holds half the nodes or more).

    Returns
    -------
    numpy.ndarray
        The ids, row by row, in set order (int64).

    Examples
    --------
    >>> import numpy as np
    >>> keys = [9, 1, 17, 4]
    >>> order = set_orders(np.array([0, 4]), np.array(keys), np.array(keys), 10)
    >>> order.tolist() == list(set(iter(keys)))
    True
    """
    indptr = np.ascontiguousarray(indptr, dtype=np.int64)
    ids = np.ascontiguousarray(ids, dtype=np.int64)
    hashes = np.ascontiguousarray(hashes, dtype=np.int64)
    _check_rows(indptr, ids, hashes, sort_from)
    rows = indptr.size - 1
    degree = np.diff(indptr)
    chunks = (rows + CHUNK - 1) // CHUNK
    longest = np.zeros(chunks, dtype=np.int64)
    if rows:
        built = np.where(degree < sort_from, degree, 0)  # (longer rows are sorted instead)
        np.maximum.at(longest, np.arange(rows) // CHUNK, built)
    chunk_table = np.array([_table_size(int(k)) for k in longest.tolist()], dtype=np.int64)
    out = np.empty(ids.size, dtype=np.int64)
    _orders(indptr, hashes.view(np.uint64), chunk_table, sort_from, ids, out)
    return out


def _check_rows(indptr: np.ndarray, ids: np.ndarray, hashes: np.ndarray, sort_from: int) -> None:
    """``ValueError`` for rows the compiled loop would read out of bounds (it does not check)."""
    if indptr.ndim != 1 or indptr.size == 0 or ids.ndim != 1 or hashes.shape != ids.shape:
        raise ValueError(
            f"set_orders needs a 1-D indptr and 1-D ids and hashes of one length, got shapes "
            f"{indptr.shape}, {ids.shape}, {hashes.shape}"
        )
    if indptr[0] != 0 or indptr[-1] != ids.size or (np.diff(indptr) < 0).any():
        raise ValueError("set_orders: indptr must rise from 0 to len(ids)")
    if sort_from < 0:
        raise ValueError(f"set_orders: sort_from must be >= 0, got {sort_from}")


def available(longest: int = 0) -> bool:
    """Whether :func:`set_orders` gives this Python's own set order for rows of up to
    ``longest`` keys (checked once per process against CPython's sets: rows of 0 to 300 keys
    and one of 2,000 with spread, clustered and negative hashes; and, only where a row is
    longer than :data:`LARGE_SET`, one of 160,000 keys, whose table grows by the other rule)."""
    return _small_sets_match() and (longest <= LARGE_SET or _large_set_matches())


#: Sets grow to 4x their keys until a resize finds more than 50,000 keys, which first happens
#: at 157,287 keys (a table of 262,144 slots filled to 3/5): longer rows take the other rule.
LARGE_SET = 157286


@functools.cache
def _small_sets_match() -> bool:
    rng = random.Random(5)
    rows = []
    for size in [*range(0, 301, 7), 2000]:
        spread = rng.choice([8, 64, 1 << 20, 1 << 62])
        rows.append([rng.randrange(-spread, spread) for _ in range(size)])
    return _matches(rows)


@functools.cache
def _large_set_matches() -> bool:
    keys = np.random.default_rng(5).integers(-(1 << 40), 1 << 40, LARGE_SET + 3000)
    return _matches([keys.tolist()])


def _matches(rows: list[list[int]]) -> bool:
    """Whether the replay lists each row's distinct keys (those of a repeated hash left out)
    as ``set(iter(row))`` does."""
    rows = [list({hash(k): k for k in dict.fromkeys(row)}.values()) for row in rows]
    flat = [k for row in rows for k in row]
    indptr = np.cumsum([0] + [len(row) for row in rows])
    hashes = np.fromiter(map(hash, flat), dtype=np.int64, count=len(flat))
    got = set_orders(indptr, np.arange(len(flat)), hashes, 1 << 62).tolist()
    want = []
    for lo, row in zip(indptr[:-1].tolist(), rows, strict=True):
        position = {k: lo + i for i, k in enumerate(row)}
        want.extend(position[k] for k in set(iter(row)))
    return got == want
