"""CSR construction on the GPU by counting sort, with the same results as the CPU builder.

Pipeline (kernels in ``kernels/csr.cu``, sorting networks in ``kernels/csr_sort.cuh``):

1. ``count_arcs``: row lengths and id validation in one pass over the edges. An undirected edge
   gives both arcs, a self-loop one arc, a removed loop none. ``indptr`` is the exclusive scan.
2. ``scatter_arcs``: every arc claims a slot of its row (one ``atomicAdd`` per distinct row per
   warp) and writes its key there: the column, or ``(column << ob) | edge index`` when weights
   follow (``ob`` = bits of the largest edge index), because the atomics lose the input order
   that parallel arcs and ``merge="first"``/``"last"`` depend on. Nothing the size of a doubled
   edge list is ever built: unweighted keys are written straight into ``indices``.
3. Rows are binned by length (``bin_rows``) and sorted in place: up to 32 keys in registers
   (bitonic network over groups of 2-32 lanes), up to 8192 (4096 for 64-bit keys) in shared
   memory (one block per row), longer rows by CuPy's radix sort in batches of
   ``(rank << kb) | key`` (a row of more than a sixteenth of all arcs is sorted alone, in place).
4. Without merging the sorted keys are the result (weights gathered through the edge index).
   With merging, one bit per arc marks the first of each run of equal (row, column)
   (``mark_row_starts``, ``mark_heads``); a prefix sum over the 32-bit words gives every run its
   slot, ``compact_runs`` writes the column and the merged weight, walking the run in input
   order with the CPU builder's rules, and ``runs_before`` rewrites ``indptr`` in place.

Peak device memory, for ``M`` arcs (``M = m`` directed, up to ``2m`` undirected) and ``n``
vertices, besides the inputs, with ``kb`` bytes per key (the index size without weights, 8
with) and ``ib``/``wb`` bytes per index/weight: ``kb M + 8n`` (keys, ``indptr``) plus the
largest of ``16n`` while scattering (cursors, scan), ``4n`` + a batch of long rows while sorting
(at most ``M/8`` keys of 8 bytes and the radix sort's second buffer, or one long row's second
buffer), and ``(ib + wb) M' + 0.4 M`` while merging (the ``M'`` output arcs, run bits and word
offsets). Measured on Kronecker scale 22 and 23 (H100, CuPy pool growth over the CSR's bytes):
1.28x directed, 2.29x undirected with merging (the previous radix sort of packed 64-bit keys:
3.6x and 5.8x); weighted builds stay near 2x (8-byte keys plus the output).
:func:`estimate_bytes` bounds the peak and :func:`build_csr` checks the bound against free
memory first (:func:`warpgraph.device.check_device_memory`).

The counting path needs ``n <= 2**32 - 1`` and, with weights, ``bits(n - 1) + bits(m - 1) <=
63``; beyond that a general path sorts (row, col) pairs with two stable argsorts (more memory).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ..device import check_device_memory, cupy
from ..errors import InvalidArgumentError
from ._csr_chunked import build_csr_chunked, estimate_chunked_bytes
from ._csr_steps import (
    _BATCH_MIN,
    _PACK_LIMIT,
    MERGES,
    _build_counting,
    _build_general,
    _ids,
    _index_dtype,
    _weights,
)

__all__ = ["MERGES", "build_csr", "build_csr_chunked", "estimate_bytes", "estimate_chunked_bytes"]

DOCTEST_NEEDS_GPU = True  # tests/test_doctests.py runs the examples only where a GPU is


def estimate_bytes(
    num_arcs: int, num_vertices: int, weight_itemsize: int = 0, index_itemsize: int = 4
) -> int:
    """Peak device bytes :func:`build_csr` needs beyond its inputs (see the module docstring).

    An upper bound for any ``merge``: the keys and offsets, plus the largest of the scatter,
    sort and merge phases (the sort phase counted as if one row held every arc).

    Examples
    --------
    >>> estimate_bytes(1_000_000, 1000)  # unweighted, int32 indices: 21 bytes per arc
    21310712
    """
    m, n = int(num_arcs), int(num_vertices)
    wb, ib = int(weight_itemsize), int(index_itemsize)
    kb = 8 if wb or ib == 8 else 4
    words = (m + 31) // 32
    base = kb * m + 8 * (n + 1)
    scatter = 16 * (n + 1)
    sort = 4 * n + 128 + max(kb * m, 16 * max(m // 8, min(m, _BATCH_MIN))) + m // 4
    merge = 32 * words + 8 + (ib + wb) * m  # run bits, word counts and offsets (+ scan)
    return base + max(scatter, sort, merge) + (1 << 20)


def build_csr(
    src: Any,
    dst: Any,
    weights: Any = None,
    num_vertices: int | None = None,
    directed: bool = True,
    remove_self_loops: bool = False,
    merge: str | None = None,
    *,
    index_dtype: Any = None,
    _general: bool = False,
):
    """Build CSR arrays on the GPU from an edge list.

    Parameters
    ----------
    src, dst : array_like of int
        Edge endpoints (CuPy arrays; NumPy arrays and lists are copied to the device).
    weights : array_like, optional
        One weight per edge. bool and small ints become int32, uint32 int64, float16 float32.
    num_vertices : int, optional
        Number of vertices; default ``max id + 1`` (0 for no edges).
    directed : bool
        ``False``: each edge (u, v) becomes arcs u->v and v->u; a self-loop is stored once.
    remove_self_loops : bool
        Drop edges (u, u).
    merge : {None, "min", "max", "sum", "first", "last"}
        How to combine parallel arcs (same row and column). ``None`` keeps them all (in input
        order); ``"first"``/``"last"`` keep the weight of the first/last in input order.
    index_dtype : {None, "int32", "int64"}
        dtype of ``indices``: default int32 when ``n < 2**31``, else int64.

    Returns
    -------
    indptr : cupy.ndarray of int64, shape (n + 1,)
    indices : cupy.ndarray of int32 or int64
        Column ids; each row sorted by column.
    weights : cupy.ndarray or None
        Aligned with ``indices`` (``None`` when no weights were given).

    Raises
    ------
    InvalidArgumentError
        Ids negative or >= ``num_vertices``, non-integer ids, length mismatch, unknown merge.
    OutOfDeviceMemory
        The build would not fit in free GPU memory.

    Examples
    --------
    >>> import cupy as cp
    >>> indptr, indices, w = build_csr(cp.array([0, 1]), cp.array([1, 2]), directed=False)
    >>> indptr.tolist(), indices.tolist(), w is None
    ([0, 1, 3, 4], [1, 0, 2, 1], True)
    """
    cp = cupy()
    if merge not in MERGES:
        raise InvalidArgumentError(f"merge must be one of {MERGES}, got {merge!r}")
    src = _ids(cp, src, "src")
    dst = _ids(cp, dst, "dst")
    m = int(src.size)
    if dst.size != m:
        raise InvalidArgumentError(f"src and dst differ in length ({m} != {dst.size})")
    w = None if weights is None else _weights(cp, weights, m)

    if num_vertices is None:
        n = 0 if m == 0 else int(max(int(src.max()), int(dst.max()))) + 1
    else:
        if isinstance(num_vertices, bool) or not isinstance(num_vertices, int | np.integer):
            raise InvalidArgumentError(f"num_vertices must be an int, got {num_vertices!r}")
        n = int(num_vertices)
        if n < 0:
            raise InvalidArgumentError(f"num_vertices must be >= 0, got {n}")
    itype = _index_dtype(index_dtype, n)

    arcs = m if directed else 2 * m
    check_device_memory(
        estimate_bytes(arcs, n, 0 if w is None else w.dtype.itemsize, itype.itemsize),
        what=f"CSR construction ({n} vertices, {arcs} arcs)",
    )
    if m == 0:
        indptr = cp.zeros(n + 1, dtype=cp.int64)
        empty_w = None if w is None else cp.empty(0, dtype=w.dtype)
        return indptr, cp.empty(0, dtype=itype), empty_w
    order_bits = 0 if w is None else (m - 1).bit_length()
    if _general or n > _PACK_LIMIT or (n - 1).bit_length() + order_bits > 63:
        return _build_general(cp, src, dst, w, n, directed, remove_self_loops, merge, itype)
    return _build_counting(cp, src, dst, w, n, directed, remove_self_loops, merge, itype)
