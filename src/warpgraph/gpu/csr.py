"""CSR construction on the GPU: sort-based, with the same semantics as the CPU builder.

Pipeline (kernels in ``kernels/csr.cu`` and ``kernels/degree.cu``):

1. ``pack_arc_keys`` writes one 64-bit key ``row << 32 | col`` per arc and validates ids in the
   same pass. An undirected edge ``i`` puts its forward arc at ``2i`` and its reverse at
   ``2i + 1``; a self-loop's reverse (and every loop when ``remove_self_loops``) gets the
   sentinel key ``2**64 - 1``, which sorts last and is cut off.
2. Stable radix sort of the keys (CuPy's ``sort``/``argsort``: CUB/Thrust, stable), so arcs with
   equal (row, col) keep input order — that is what ``merge="first"``/``"last"`` mean.
3. Merging runs of equal keys: ``first``/``last`` pick the weight at the run's first/last
   position, ``min``/``max``/``sum`` use ``merge_runs`` (one thread per run, input order, so
   floating-point sums are deterministic).
4. ``unpack_count`` extracts the column ids and histograms the rows (warp-aggregated atomics);
   ``indptr`` is the cumulative sum.

Peak device memory, for ``M`` arcs (``M = m`` directed, up to ``2m`` undirected), ``n``
vertices, ``wb`` bytes per weight and ``ib`` bytes per index, besides the inputs:

- unweighted: ``~ M (32 + ib) + 24 n`` bytes: the keys (8 M), the radix sort's alternate buffer
  (8 M), run heads and starts when merging (9 M), the output;
- weighted: ``~ M (56 + 2 wb + ib) + 24 n``: ``argsort`` holds the keys, a sorted copy, the
  64-bit permutation and the radix sort's alternate key and value buffers at once (48 M),
  then the gathered weights and the output.

:func:`estimate_bytes` computes this bound (``tests/test_gpu_csr.py`` checks it against CuPy's
pool high-water mark) and :func:`build_csr` checks it against free memory first
(:func:`warpgraph.device.check_device_memory`).

Ids must fit 32 bits for the packed keys (``n <= 2**32 - 1``); beyond that a general path sorts
(row, col) pairs with two stable argsorts.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ..device import check_device_memory, cupy
from ..errors import InvalidArgumentError
from .launch import launch
from .loader import declare, get_kernel

__all__ = ["MERGES", "build_csr", "estimate_bytes"]

DOCTEST_NEEDS_GPU = True  # tests/test_doctests.py runs the examples only where a GPU is

MERGES = (None, "min", "max", "sum", "first", "last")
_MERGE_OP = {"min": 0, "max": 1, "sum": 2}
_SENTINEL = np.uint64(2**64 - 1)
_PACK_LIMIT = 2**32 - 1  # n <= this: every id fits 32 bits and no real key equals the sentinel
_W_TYPES = {"int32": "int", "int64": "long long", "float32": "float", "float64": "double"}
_V_TYPES = {"int32": "int", "int64": "long long"}

declare("csr.cu", *(f"pack_arc_keys<{t}>" for t in _V_TYPES.values()))
declare("csr.cu", *(f"unpack_count<{t}>" for t in _V_TYPES.values()))
declare(
    "csr.cu", *(f"merge_runs<{w}, {op}>" for w in _W_TYPES.values() for op in _MERGE_OP.values())
)
declare("degree.cu", *(f"count_degrees<{t}>" for t in _V_TYPES.values()))


def estimate_bytes(
    num_arcs: int, num_vertices: int, weight_itemsize: int = 0, index_itemsize: int = 4
) -> int:
    """Peak device bytes :func:`build_csr` needs beyond its inputs (see the module docstring).

    Examples
    --------
    >>> estimate_bytes(1_000_000, 1000)  # unweighted, int32 indices: 36 bytes per arc
    36024000
    """
    m, n = int(num_arcs), int(num_vertices)
    per_arc = (
        24 + index_itemsize if not weight_itemsize else 40 + 2 * weight_itemsize + index_itemsize
    )
    return m * per_arc + 24 * (n + 1)


def _ids(cp, a: Any, what: str):
    a = cp.asarray(a)
    if a.ndim != 1:
        raise InvalidArgumentError(f"{what} must be one-dimensional, got shape {a.shape}")
    if a.dtype.kind not in "iu":
        if a.size == 0:
            return a.astype(cp.int64)
        raise InvalidArgumentError(f"{what} must hold integers, got dtype {a.dtype}")
    if a.dtype == cp.uint64 and a.size and int(a.max()) > np.iinfo(np.int64).max:
        raise InvalidArgumentError(f"{what} has ids beyond the int64 range")
    return a


def _weights(cp, w: Any, m: int):
    w = cp.asarray(w)
    if w.ndim != 1 or w.size != m:
        raise InvalidArgumentError(f"weights must be one-dimensional with {m} items, got {w.shape}")
    k = w.dtype.kind
    if k == "b" or (k in "iu" and w.dtype.itemsize <= 2) or w.dtype == cp.int32:
        return w.astype(cp.int32, copy=False)
    if w.dtype == cp.int64 or w.dtype == cp.uint32:
        return w.astype(cp.int64, copy=False)
    if w.dtype == cp.uint64:
        if m and int(w.max()) > np.iinfo(np.int64).max:
            raise InvalidArgumentError("weights exceed the int64 range")
        return w.astype(cp.int64)
    if k == "f":
        return w.astype(cp.float64 if w.dtype.itemsize > 4 else cp.float32, copy=False)
    raise InvalidArgumentError(f"weights must be integers or floats, got dtype {w.dtype}")


def _first_bad(cp, src, dst, n: int) -> str:
    bad = (src < 0) | (src >= n) | (dst < 0) | (dst >= n)
    i = int(cp.flatnonzero(bad)[0])
    return f"edge {i} ({int(src[i])}, {int(dst[i])}) has an id outside [0, {n})"


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
    if index_dtype is None:
        itype = np.dtype(np.int32) if n < 2**31 else np.dtype(np.int64)
    else:
        itype = np.dtype(index_dtype)
        if itype not in (np.int32, np.int64):
            raise InvalidArgumentError(f"index_dtype must be int32 or int64, got {itype}")
        if itype == np.int32 and n >= 2**31:
            raise InvalidArgumentError(f"int32 indices cannot address {n} vertices")

    arcs = m if directed else 2 * m
    check_device_memory(
        estimate_bytes(arcs, n, 0 if w is None else w.dtype.itemsize, itype.itemsize),
        what=f"CSR construction ({n} vertices, {arcs} arcs)",
    )
    if m == 0:
        indptr = cp.zeros(n + 1, dtype=cp.int64)
        empty_w = None if w is None else cp.empty(0, dtype=w.dtype)
        return indptr, cp.empty(0, dtype=itype), empty_w
    if _general or n > _PACK_LIMIT:
        return _build_general(cp, src, dst, w, n, directed, remove_self_loops, merge, itype)
    return _build_packed(cp, src, dst, w, n, directed, remove_self_loops, merge, itype)


def _common_id_dtype(cp, src, dst):
    if src.dtype == dst.dtype and src.dtype in (cp.int32, cp.int64):
        return src, dst
    return src.astype(cp.int64), dst.astype(cp.int64)


def _build_packed(cp, src, dst, w, n, directed, remove_self_loops, merge, itype):
    src, dst = _common_id_dtype(cp, src, dst)
    m = int(src.size)
    total = m if directed else 2 * m
    vt = _V_TYPES[src.dtype.name]
    keys = cp.empty(total, dtype=cp.uint64)
    counters = cp.zeros(2, dtype=cp.uint64)
    pack = get_kernel("csr.cu", f"pack_arc_keys<{vt}>")
    launch(pack, m, (src, dst, m, n, int(not directed), int(remove_self_loops), keys, counters))
    n_sentinel, n_bad = (int(x) for x in counters.get())
    if n_bad:
        raise InvalidArgumentError(_first_bad(cp, src, dst, n))
    num_arcs = total - n_sentinel

    # 2. stable sort (radix for unsigned 64-bit keys); the permutation carries the weights
    perm = None
    if w is None:
        keys.sort()
    else:
        perm = cp.argsort(keys)
        keys = keys[perm]
    keys = keys[:num_arcs]

    # 3. merge runs of equal keys
    w_sorted = None
    if w is not None:
        edge = perm[:num_arcs]
        del perm
        if not directed:
            edge >>= 1  # arc 2i and 2i + 1 both come from edge i
        w_sorted = w[edge]
        del edge
    if merge is not None and num_arcs > 0:
        head = cp.empty(num_arcs, dtype=cp.bool_)
        head[0] = True
        cp.not_equal(keys[1:], keys[:-1], out=head[1:])
        starts = cp.flatnonzero(head)
        del head
        keys = keys[starts]
        if w_sorted is not None:
            w_sorted = _merge_weights(cp, w_sorted, starts, merge)
        num_arcs = int(starts.size)

    # 4. columns and row offsets
    indices = cp.empty(num_arcs, dtype=itype)
    counts = cp.zeros(n, dtype=cp.uint64)
    unpack = get_kernel("csr.cu", f"unpack_count<{_V_TYPES[itype.name]}>")
    launch(unpack, num_arcs, (keys, num_arcs, indices, counts))
    indptr = cp.zeros(n + 1, dtype=cp.int64)
    indptr[1:] = cp.cumsum(counts.view(cp.int64))
    return indptr, indices, w_sorted


def _merge_weights(cp, w_sorted, starts, merge: str):
    total = int(w_sorted.size)
    if merge == "first":
        return w_sorted[starts]
    if merge == "last":
        ends = cp.empty_like(starts)
        ends[:-1] = starts[1:]
        ends[-1] = total
        return w_sorted[ends - 1]
    runs = int(starts.size)
    out = cp.empty(runs, dtype=w_sorted.dtype)
    k = get_kernel("csr.cu", f"merge_runs<{_W_TYPES[w_sorted.dtype.name]}, {_MERGE_OP[merge]}>")
    launch(k, runs, (starts, runs, total, w_sorted, out))
    return out


def _build_general(cp, src, dst, w, n, directed, remove_self_loops, merge, itype):
    """Any ``n``: (row, col) pairs sorted by two stable argsorts (col, then row). Slower and
    heavier than the packed path; used when ids do not fit 32 bits."""
    src = src.astype(cp.int64, copy=False)
    dst = dst.astype(cp.int64, copy=False)
    bad = (src < 0) | (src >= n) | (dst < 0) | (dst >= n)
    if bool(bad.any()):
        raise InvalidArgumentError(_first_bad(cp, src, dst, n))
    del bad
    m = int(src.size)
    if directed:
        rows, cols = src, dst
        keep = (src != dst) if remove_self_loops else None
        edge = cp.arange(m, dtype=cp.int64)
    else:
        rows = cp.stack([src, dst], axis=1).ravel()
        cols = cp.stack([dst, src], axis=1).ravel()
        keep = cp.ones(2 * m, dtype=cp.bool_)
        loops = src == dst
        keep[1::2] = ~loops
        if remove_self_loops:
            keep[0::2] = ~loops
        edge = cp.arange(2 * m, dtype=cp.int64) >> 1
    if keep is not None:
        rows, cols, edge = rows[keep], cols[keep], edge[keep]
    order = cp.argsort(cols)  # stable
    order = order[cp.argsort(rows[order])]  # stable: ties keep column (and input) order
    rows, cols, edge = rows[order], cols[order], edge[order]
    del order
    w_sorted = None if w is None else w[edge]
    num_arcs = int(rows.size)
    if merge is not None and num_arcs > 0:
        head = cp.empty(num_arcs, dtype=cp.bool_)
        head[0] = True
        head[1:] = (rows[1:] != rows[:-1]) | (cols[1:] != cols[:-1])
        starts = cp.flatnonzero(head)
        rows, cols = rows[starts], cols[starts]
        if w_sorted is not None:
            w_sorted = _merge_weights(cp, w_sorted, starts, merge)
    counts = cp.zeros(n, dtype=cp.uint64)
    count = get_kernel("degree.cu", "count_degrees<long long>")
    launch(count, rows.size, (rows, rows.size, counts))
    indptr = cp.zeros(n + 1, dtype=cp.int64)
    indptr[1:] = cp.cumsum(counts.view(cp.int64))
    return indptr, cols.astype(itype), w_sorted
