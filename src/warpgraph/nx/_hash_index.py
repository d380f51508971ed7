"""Node hash -> node position, for the raw readers: a row entry's key hash names its node.

When the ``n`` node labels of a graph have ``n`` distinct hashes, an arc's neighbour id is the
position of the node with that hash. For the labels ``0..n-1`` in order the hash *is* the id
(:func:`identity_hashes`, checked in one parallel pass); otherwise an open-addressing table
(:func:`hash_lookup`, load factor at most 1/2, Fibonacci hashing) maps each hash to its position,
probed by the compiled scans (:func:`_position`) or for a whole array (:func:`ids_from_hashes`).
"""

from __future__ import annotations

import numba as nb
import numpy as np
from numba import prange

__all__ = ["hash_lookup", "identity_hashes", "ids_from_hashes"]


@nb.njit(parallel=True, cache=True)
def _hash_mismatches(a, b, check_b):  # pragma: no cover - compiled
    """(positions where ``a`` is not its position, where ``b`` differs from ``a`` if
    ``check_b``): one parallel pass (serial NumPy comparisons read arrays written by many
    threads from other cores' caches: ~1 ms per 501k hashes)."""
    moved = 0
    differ = 0
    for i in prange(a.shape[0]):
        h = a[i]
        moved += 0 if h == i else 1
        if check_b:
            differ += 0 if b[i] == h else 1
    return moved, differ


_GOLDEN = np.uint64(0x9E3779B97F4A7C15)


@nb.njit(cache=True)
def _slot(h, shift):  # pragma: no cover - compiled
    return np.int64((np.uint64(h) * _GOLDEN) >> shift)


@nb.njit(cache=True)
def _hash_table(node_hashes, bits):  # pragma: no cover - compiled
    """Open-addressing table (2**bits slots) from hash to node position; ok False when two
    nodes share a hash."""
    size = np.int64(1) << bits
    shift = np.uint64(64 - bits)
    keys = np.zeros(size, dtype=np.int64)
    ids = np.full(size, -1, dtype=np.int32)
    for i in range(node_hashes.shape[0]):
        h = node_hashes[i]
        j = _slot(h, shift)
        while ids[j] != -1:
            if keys[j] == h:
                return keys, ids, False
            j = (j + 1) & (size - 1)
        keys[j] = h
        ids[j] = i
    return keys, ids, True


@nb.njit(cache=True, inline="always")
def _position(h, keys, ids, mask, shift):  # pragma: no cover - compiled
    """Node position of hash ``h`` in the table of :func:`_hash_table`, or -1 (no node's)."""
    j = _slot(h, shift)
    while ids[j] != -1:
        if keys[j] == h:
            return np.int64(ids[j])
        j = (j + 1) & mask
    return np.int64(-1)


def hash_lookup(node_hashes: np.ndarray, direct: bool) -> tuple[int, np.ndarray, np.ndarray] | None:
    """``(bits, keys, ids)``: the open-addressing table from node hash to position that the
    scans probe (a placeholder when ``direct``: the hashes are the positions ``0..n-1``); None
    when two nodes share a hash.

    Raises
    ------
    TypeError
        Unless ``node_hashes`` is a one-dimensional int64 array.
    """
    if (
        not isinstance(node_hashes, np.ndarray)
        or node_hashes.dtype != np.int64
        or node_hashes.ndim != 1
    ):
        raise TypeError(
            f"hash_lookup reads a 1-D int64 array of node hashes, got {node_hashes!r:.80}"
        )
    if direct:
        return 4, np.zeros(1, np.int64), np.full(1, -1, np.int32)
    bits = max(4, int(2 * node_hashes.size).bit_length())  # load factor <= 1/2
    keys, ids, distinct = _hash_table(node_hashes, bits)
    return (bits, keys, ids) if distinct else None


@nb.njit(parallel=True, cache=True)
def _ids_by_hash(hashes, keys, ids, bits, out):  # pragma: no cover - compiled
    """``out[a]`` = the node position of hash ``hashes[a]``; returns how many are no node's."""
    bad = 0
    mask = (np.int64(1) << bits) - 1
    shift = np.uint64(64 - bits)
    for a in prange(hashes.shape[0]):
        found = _position(hashes[a], keys, ids, mask, shift)
        out[a] = found if found >= 0 else 0
        bad += 0 if found >= 0 else 1
    return bad


@nb.njit(cache=True)
def _ids_direct(hashes, n, out):  # pragma: no cover - compiled
    bad = 0  # serial: one streaming pass, cheaper than waking threads
    for a in range(hashes.shape[0]):
        h = hashes[a]
        ok = 0 <= h < n
        out[a] = h if ok else 0
        bad += 0 if ok else 1
    return bad


def identity_hashes(node_hashes: np.ndarray) -> bool:
    """Whether the node hashes are ``0..n-1`` in order (as for the labels ``0..n-1``), checked
    in parallel.

    Examples
    --------
    >>> import numpy as np
    >>> identity_hashes(np.arange(5)), identity_hashes(np.array([0, 2, 1]))
    (True, False)
    """
    hashes = np.ascontiguousarray(node_hashes, dtype=np.int64)
    return not _hash_mismatches(hashes, hashes, False)[0]


def ids_from_hashes(node_hashes: np.ndarray, hashes: np.ndarray) -> np.ndarray | None:
    """Position of the node with each hash (int32), or None when two nodes share a hash or a
    hash is no node's."""
    n = node_hashes.size
    out = np.empty(hashes.size, dtype=np.int32)
    if identity_hashes(node_hashes):
        return None if _ids_direct(hashes, n, out) else out
    lookup = hash_lookup(node_hashes, False)
    if lookup is None:
        return None
    bits, keys, ids = lookup
    return None if _ids_by_hash(hashes, keys, ids, bits, out) else out
