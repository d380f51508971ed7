"""Rows in NetworkX's adjacency order -> rows sorted by id, with the permutation between them.

NetworkX keeps each node's neighbours in insertion order; warpgraph's kernels read rows sorted
by neighbour id. A row's neighbours are distinct (dict keys), so sorting a row is sorting
distinct ids: each arc is packed into one int64 key (id in the high half, position in the row in
the low half), the keys are sorted in place in the permutation array itself (insertion sort for
short rows), then unpacked into the sorted ids and the permutation. One parallel pass over the
rows, no allocation per row; rows already sorted are copied.
"""

from __future__ import annotations

import numba as nb
import numpy as np

__all__ = ["count_other_than", "put", "sort_rows", "take", "unsorted_rows"]

#: Rows longer than this are sorted by NumPy's sort rather than by insertion.
_INSERTION_MAX = 48


@nb.njit(parallel=True, cache=True, nogil=True)
def count_other_than(values, value):  # pragma: no cover - compiled
    """How many entries of ``values`` differ from ``value`` (one parallel pass)."""
    count = 0
    for i in nb.prange(values.shape[0]):
        if values[i] != value:
            count += 1
    return count


@nb.njit(parallel=True, cache=True, nogil=True)
def unsorted_rows(indptr, ids):  # pragma: no cover - compiled
    """How many rows of ``(indptr, ids)`` are not in increasing id order."""
    bad = 0
    for u in nb.prange(indptr.shape[0] - 1):
        for p in range(indptr[u] + 1, indptr[u + 1]):
            if ids[p] < ids[p - 1]:
                bad += 1
                break
    return bad


@nb.njit(parallel=True, cache=True, nogil=True)
def _sort_rows(indptr, ids, sorted_ids, perm):  # pragma: no cover - compiled
    low = np.int64(0xFFFFFFFF)
    for u in nb.prange(indptr.shape[0] - 1):
        lo = indptr[u]
        hi = indptr[u + 1]
        ordered = True
        for p in range(lo + 1, hi):
            if ids[p] < ids[p - 1]:
                ordered = False
                break
        if ordered:
            for p in range(lo, hi):
                sorted_ids[p] = ids[p]
                perm[p] = p
            continue
        for p in range(lo, hi):  # key: id, then position (ties cannot occur in a dict row)
            perm[p] = (np.int64(ids[p]) << 32) | (p - lo)
        if hi - lo <= _INSERTION_MAX:
            for p in range(lo + 1, hi):
                key = perm[p]
                q = p - 1
                while q >= lo and perm[q] > key:
                    perm[q + 1] = perm[q]
                    q -= 1
                perm[q + 1] = key
        else:
            perm[lo:hi].sort()
        for p in range(lo, hi):
            key = perm[p]
            sorted_ids[p] = key >> 32
            perm[p] = lo + (key & low)


def sort_rows(
    indptr: np.ndarray, ids: np.ndarray, unsorted: int | None = None
) -> tuple[np.ndarray, np.ndarray | None]:
    """``(sorted_ids, perm)``: each row of ``(indptr, ids)`` sorted by id (stably), and ``perm``
    with ``sorted_ids == ids[perm]`` (int64); ``(ids, None)`` when every row is sorted already.
    ``unsorted`` (how many rows are not sorted, if known) saves a pass.

    Examples
    --------
    >>> import numpy as np
    >>> ids, perm = sort_rows(np.array([0, 3, 4]), np.array([2, 0, 1, 0], dtype=np.int32))
    >>> ids.tolist(), perm.tolist()
    ([0, 1, 2, 0], [1, 2, 0, 3])
    """
    if unsorted is None:
        unsorted = unsorted_rows(indptr, ids) if ids.size else 0
    if not unsorted:
        return ids, None
    sorted_ids = np.empty_like(ids)
    perm = np.empty(ids.size, dtype=np.int64)
    _sort_rows(indptr, ids, sorted_ids, perm)
    return sorted_ids, perm


@nb.njit(parallel=True, cache=True, nogil=True)
def _take(values, perm, out):  # pragma: no cover - compiled
    for p in nb.prange(perm.shape[0]):
        out[p] = values[perm[p]]


def take(values: np.ndarray, perm: np.ndarray) -> np.ndarray:
    """``values[perm]`` gathered in parallel (``perm`` from :func:`sort_rows` stays inside each
    row, so the reads are nearly sequential).

    Examples
    --------
    >>> import numpy as np
    >>> take(np.array([5.0, 6.0, 7.0]), np.array([2, 0, 1])).tolist()
    [7.0, 5.0, 6.0]
    """
    out = np.empty(perm.shape[0], dtype=values.dtype)
    if values.dtype.itemsize == 8:  # one compiled loop for int64 and float64
        _take(values.view(np.int64), perm, out.view(np.int64))
    else:
        _take(values, perm, out)
    return out


@nb.njit(parallel=True, cache=True, nogil=True)
def _put(values, perm, out):  # pragma: no cover - compiled
    for p in nb.prange(perm.shape[0]):
        out[perm[p]] = values[p]


def put(values: np.ndarray, perm: np.ndarray) -> np.ndarray:
    """``out`` with ``out[perm] = values``, scattered in parallel: the inverse of :func:`take`
    (a value per sorted arc back in NetworkX's order).

    Examples
    --------
    >>> import numpy as np
    >>> put(np.array([7.0, 5.0, 6.0]), np.array([2, 0, 1])).tolist()
    [5.0, 6.0, 7.0]
    """
    out = np.empty(perm.shape[0], dtype=values.dtype)
    _put(values, perm, out)
    return out
