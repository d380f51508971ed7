"""Transpose of a CSR graph (the in-arc CSR) on the CPU: a parallel two-pass radix sort.

The arcs of a CSR are already in source order; the transpose sorts them by target, keeping the
source order inside each target row (a stable sort, so rows of the result are sorted by source
and parallel arcs keep their relative order, weights with them). Two passes, each streaming:

1. **distribute**: targets are grouped in blocks of ``2**shift`` vertices ("buckets", a few
   hundred). Every thread counts the arcs of its source range per bucket (a small table), then
   appends each arc to its bucket as one packed word ``source << shift | target_low`` (uint32
   when it fits, else int64), with its weight in a parallel array. Threads write disjoint slices
   of every bucket in source order, so the buckets stay stable.
2. **place**: per bucket (in parallel), the in-degrees of its block, their prefix sum (the
   block's part of ``rindptr``) and the scatter into the block's rows: a window of the output
   that stays in cache.

Every large array is allocated by NumPy, not inside Numba: NumPy advises the kernel to back big
allocations with huge pages, Numba's allocator does not, and on a VM the 4 KB page faults of a
fresh 100 MB array cost more than the pass that fills it (measured: 56 ms against 12 ms for a
128 MB sequential write). Graphs under :data:`PARALLEL_MIN_ARCS` arcs take a serial counting
sort (no parallel region).

Examples
--------
>>> import numpy as np
>>> rp, ri, rw = transpose_csr(np.array([0, 2, 3, 3]), np.array([1, 2, 2]), 3,
...                            weights=np.array([5.0, 6.0, 7.0]))
>>> rp.tolist(), ri.tolist(), rw.tolist()
([0, 0, 1, 3], [0, 0, 1], [5.0, 6.0, 7.0])
"""

from __future__ import annotations

from typing import Any

import numba as nb
import numpy as np

__all__ = ["PARALLEL_MIN_ARCS", "transpose_csr"]

PARALLEL_MIN_ARCS = 1 << 16
"""Below this many arcs the transpose is one serial counting sort."""

_WINDOW_ARCS = 1 << 17  # arcs per bucket aimed at (a 512 KB window of int32 ids)
_MAX_BUCKETS = 1 << 10


@nb.njit(cache=True, nogil=True)
def _serial(indptr, indices, weights, has_w, n, rindptr, rindices, rweights):
    """Counting sort by target, sources in increasing order within each row."""
    m = indptr[n]
    for v in range(n + 1):
        rindptr[v] = 0
    for p in range(m):
        rindptr[indices[p] + 1] += 1
    for v in range(n):
        rindptr[v + 1] += rindptr[v]
    cursor = rindptr[:n].copy()
    for u in range(n):
        for p in range(indptr[u], indptr[u + 1]):
            v = indices[p]
            q = cursor[v]
            rindices[q] = u
            if has_w:
                rweights[q] = weights[p]
            cursor[v] = q + 1


@nb.njit(parallel=True, cache=True, nogil=True)
def _count(indptr, indices, cuts, shift, bcount):
    """``bcount[t, b]``: arcs of thread ``t``'s source range whose target is in bucket ``b``."""
    for t in nb.prange(cuts.shape[0] - 1):
        row = bcount[t]
        for p in range(indptr[cuts[t]], indptr[cuts[t + 1]]):
            row[indices[p] >> shift] += 1


@nb.njit(parallel=True, cache=True, nogil=True)
def _distribute(indptr, indices, weights, has_w, cuts, shift, cursor, tmp, tmp_w):
    """Append every arc to its bucket as ``source << shift | target_low`` (pass 1)."""
    mask = (np.int64(1) << shift) - 1
    for t in nb.prange(cuts.shape[0] - 1):
        cur = cursor[t]
        for u in range(cuts[t], cuts[t + 1]):
            hi = np.int64(u) << shift
            for p in range(indptr[u], indptr[u + 1]):
                v = indices[p]
                b = v >> shift
                q = cur[b]
                tmp[q] = hi | (v & mask)  # < 2**32 when tmp is uint32
                if has_w:
                    tmp_w[q] = weights[p]
                cur[b] = q + 1


@nb.njit(parallel=True, cache=True, nogil=True)
def _place(n, shift, bstart, tmp, tmp_w, has_w, rindptr, rindices, rweights):
    """Per bucket: in-degrees, their prefix sum and the stable scatter into the rows (pass 2)."""
    nbk = bstart.shape[0] - 1
    mask = (np.int64(1) << shift) - 1
    rindptr[0] = 0
    for b in nb.prange(nbk):
        lo = b << shift
        hi = min(n, (b + 1) << shift)
        if lo >= hi:
            continue
        fill = np.zeros(hi - lo + 1, dtype=np.int64)
        for q in range(bstart[b], bstart[b + 1]):
            fill[(np.int64(tmp[q]) & mask) + 1] += 1
        fill[0] = bstart[b]
        for i in range(hi - lo):
            fill[i + 1] += fill[i]
            rindptr[lo + i + 1] = fill[i + 1]
        for q in range(bstart[b], bstart[b + 1]):
            x = np.int64(tmp[q])
            i = x & mask
            r = fill[i]
            rindices[r] = x >> shift
            if has_w:
                rweights[r] = tmp_w[q]
            fill[i] = r + 1


def _shift_for(n: int, m: int) -> int:
    """Bucket width ``2**shift``: windows of about ``_WINDOW_ARCS`` arcs, narrowed (up to 4x)
    when that lets the packed words be uint32; at most ``_MAX_BUCKETS`` buckets, at least 16
    vertices per bucket."""
    per_vertex = max(1.0, m / max(1, n))
    shift = int(np.log2(_WINDOW_ARCS / per_vertex))
    least = (n - 1).bit_length() - _MAX_BUCKETS.bit_length() + 1  # at most _MAX_BUCKETS
    packed32 = 32 - (n - 1).bit_length()  # widest shift whose packed words fit in uint32
    if shift > packed32 >= max(shift - 2, least):  # 4x more buckets still beat 8-byte words
        shift = packed32
    return int(min(30, max(4, least, shift)))


def transpose_csr(
    indptr: np.ndarray,
    indices: np.ndarray,
    n: int,
    weights: np.ndarray | None = None,
    *,
    index_dtype: Any = None,
    threads: int | None = None,
) -> tuple[np.ndarray, np.ndarray, np.ndarray | None]:
    """``(rindptr, rindices, rweights)``: the CSR of the reversed arcs.

    Row ``v`` of the result lists the sources of the arcs into ``v`` in increasing order; the
    parallel arcs ``u -> v`` keep their order in the input, and ``rweights`` follows the arcs.

    Parameters
    ----------
    indptr : numpy.ndarray
        int64 row offsets, ``n + 1`` entries.
    indices : numpy.ndarray
        int32 or int64 targets, ``indptr[n]`` entries, each in ``[0, n)`` (not checked).
    n : int
        Number of vertices.
    weights : numpy.ndarray, optional
        One weight per arc; the result then has them in the transposed order (same dtype).
    index_dtype : numpy dtype, optional
        dtype of ``rindices`` (default ``indices.dtype``).
    threads : int, optional
        Source ranges processed in parallel (default Numba's thread count).

    Returns
    -------
    tuple
        ``rindptr`` (int64), ``rindices``, ``rweights`` (``None`` without weights).

    Examples
    --------
    >>> rp, ri, _ = transpose_csr(np.array([0, 2, 3, 3]), np.array([1, 2, 2]), 3)
    >>> rp.tolist(), ri.tolist()
    ([0, 0, 1, 3], [0, 0, 1])
    """
    n = int(n)
    m = int(indptr[n]) if n > 0 else 0
    idt = np.dtype(indices.dtype if index_dtype is None else index_dtype)
    has_w = weights is not None
    rindptr = np.empty(n + 1, dtype=np.int64)
    rindices = np.empty(m, dtype=idt)
    rweights = np.empty(m, dtype=weights.dtype) if has_w else np.empty(0, dtype=np.float64)
    w_in = weights if has_w else np.empty(0, dtype=np.float64)
    if m < PARALLEL_MIN_ARCS:
        _serial(indptr, indices, w_in, has_w, n, rindptr, rindices, rweights)
        return rindptr, rindices, (rweights if has_w else None)
    t = max(1, nb.get_num_threads() if threads is None else int(threads))
    cuts = np.searchsorted(indptr, (m * np.arange(t + 1, dtype=np.int64)) // t).astype(np.int64)
    cuts[0], cuts[t] = 0, n
    shift = _shift_for(n, m)
    nbk = ((n - 1) >> shift) + 1
    bcount = np.zeros((t, nbk), dtype=np.int64)
    _count(indptr, indices, cuts, shift, bcount)
    starts = np.zeros(t * nbk + 1, dtype=np.int64)
    np.cumsum(bcount.T.ravel(), out=starts[1:])
    cursor = starts[:-1].reshape(nbk, t).T.copy()  # a copy: the pass advances it
    bstart = starts[::t].copy()
    packed = np.uint32 if (n - 1).bit_length() + shift <= 32 else np.int64
    tmp = np.empty(m, dtype=packed)
    tmp_w = np.empty(m, dtype=weights.dtype) if has_w else np.empty(0, dtype=np.float64)
    _distribute(indptr, indices, w_in, has_w, cuts, shift, cursor, tmp, tmp_w)
    _place(n, shift, bstart, tmp, tmp_w, has_w, rindptr, rindices, rweights)
    return rindptr, rindices, (rweights if has_w else None)
