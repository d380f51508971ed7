"""The steps of the GPU CSR build that :mod:`warpgraph.gpu.csr` (the one-shot build) and
:mod:`warpgraph.gpu._csr_chunked` (the build from chunks) share: the kernels they declare, the
input checks, the row sort (registers, shared memory, radix-sorted batches of long rows), the
merge of parallel arcs, and the general path for ids too wide to pack.

The pipeline and its memory bounds are described in :mod:`warpgraph.gpu.csr`.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ..errors import InvalidArgumentError
from .launch import launch
from .loader import declare, get_kernel

MERGES = (None, "min", "max", "sum", "first", "last")
_MERGE_OP = {"min": 0, "max": 1, "sum": 2}
_MODE = {"min": 0, "max": 1, "sum": 2, "first": 3, "last": 4}
_COLUMNS_ONLY, _ONE_TO_ONE = 5, 6
_PACK_LIMIT = 2**32 - 1  # n <= this: rows fit unsigned int and columns 32 bits
_W_TYPES = {"int32": "int", "int64": "long long", "float32": "float", "float64": "double"}
_V_TYPES = {"int32": "int", "int64": "long long"}
_K_TYPES = {"uint32": "unsigned int", "uint64": "unsigned long long"}
_WARP_GROUPS = (2, 4, 8, 16, 32)  # rows of up to g keys: g lanes each
_BLOCK_BINS = {  # rows of up to P keys in shared memory: (P, threads per block)
    "uint32": ((256, 128), (2048, 256), (8192, 512)),
    "uint64": ((256, 128), (2048, 256), (4096, 512)),
}
_BATCH_MIN = 1 << 20  # a batch of long rows may hold max(arcs / 8, this) keys
_BATCH_MAX_ROWS = 1 << 31

declare("csr.cu", *(f"count_arcs<{v}>" for v in _V_TYPES.values()))
declare(
    "csr.cu", *(f"scatter_arcs<{v}, {k}>" for v in _V_TYPES.values() for k in _K_TYPES.values())
)
declare("csr.cu", "bin_rows<unsigned int>", "mark_row_starts<long long>", "runs_before<long long>")
for _k, _bins in _BLOCK_BINS.items():
    _kt = _K_TYPES[_k]
    declare("csr.cu", f"sort_rows_warp<{_kt}>", f"mark_heads<{_kt}>")
    declare("csr.cu", *(f"sort_rows_block<{_kt}, {p}>" for p, _ in _bins))
    for _b in _K_TYPES.values():
        declare("csr.cu", f"pack_batch<{_kt}, {_b}>", f"unpack_batch<{_kt}, {_b}>")
declare(
    "csr.cu",
    "compact_runs<unsigned int, int, int>",
    "compact_runs<unsigned long long, long long, int>",
    *(
        f"compact_runs<unsigned long long, {i}, {w}>"
        for i in _V_TYPES.values()
        for w in _W_TYPES.values()
    ),
)
declare(
    "csr.cu", *(f"merge_runs<{w}, {op}>" for w in _W_TYPES.values() for op in _MERGE_OP.values())
)
declare("degree.cu", *(f"count_degrees<{t}>" for t in _V_TYPES.values()))


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


def _index_dtype(index_dtype: Any, n: int) -> np.dtype:
    """dtype of ``indices``: int32 while ids fit, else int64, or the one asked for (checked)."""
    if index_dtype is None:
        return np.dtype(np.int32) if n < 2**31 else np.dtype(np.int64)
    itype = np.dtype(index_dtype)
    if itype not in (np.int32, np.int64):
        raise InvalidArgumentError(f"index_dtype must be int32 or int64, got {itype}")
    if itype == np.int32 and n >= 2**31:
        raise InvalidArgumentError(f"int32 indices cannot address {n} vertices")
    return itype


def _common_id_dtype(cp, src, dst):
    if src.dtype == dst.dtype and src.dtype in (cp.int32, cp.int64):
        return src, dst
    return src.astype(cp.int64), dst.astype(cp.int64)


def _build_counting(cp, src, dst, w, n, directed, remove_self_loops, merge, itype):
    src, dst = _common_id_dtype(cp, src, dst)
    m = int(src.size)
    vt = _V_TYPES[src.dtype.name]
    weighted = w is not None
    ob = (m - 1).bit_length() if weighted else 0  # bits of the edge index under the column
    kdt = np.dtype(np.uint64) if weighted or itype == np.int64 else np.dtype(np.uint32)
    kt = _K_TYPES[kdt.name]
    undirected, loops = int(not directed), int(remove_self_loops)

    # 1. row lengths (and id validation), offsets
    deg = cp.zeros(n, dtype=cp.uint64)
    bad = cp.zeros(1, dtype=cp.uint64)
    launch(
        get_kernel("csr.cu", f"count_arcs<{vt}>"), m, (src, dst, m, n, undirected, loops, deg, bad)
    )
    if int(cp.asnumpy(bad)[0]):
        raise InvalidArgumentError(_first_bad(cp, src, dst, n))
    indptr = cp.empty(n + 1, dtype=cp.int64)
    indptr[0] = 0
    indptr[1:] = cp.cumsum(deg.view(cp.int64))
    total = int(cp.asnumpy(indptr[n:])[0])
    w_empty = None if w is None else cp.empty(0, dtype=w.dtype)
    if total == 0:
        return indptr, cp.empty(0, dtype=itype), w_empty

    # 2. scatter the arcs into their rows (deg becomes the cursors)
    deg[...] = indptr[:-1].view(cp.uint64)
    keys = cp.empty(total, dtype=kdt if weighted else itype)
    kv = keys.view(kdt)
    args = (src, dst, m, undirected, loops, ob, int(weighted), deg, kv)
    launch(get_kernel("csr.cu", f"scatter_arcs<{vt}, {kt}>"), m, args)
    del deg

    # 3. sort every row
    _sort_rows(cp, kv, indptr, n, total, kb=max(1, (n - 1).bit_length()) + ob)

    # 4. columns, weights, merging
    if merge is None and not weighted:
        return indptr, keys, None
    it, wt = _V_TYPES[itype.name], _W_TYPES[w.dtype.name] if weighted else "int"
    compact = get_kernel("csr.cu", f"compact_runs<{kt}, {it}, {wt}>")
    if merge is None:
        cols = cp.empty(total, dtype=itype)
        w_out = cp.empty(total, dtype=w.dtype)
        launch(compact, total, (kv, total, ob, _ONE_TO_ONE, None, None, w, cols, w_out))
        return indptr, cols, w_out
    words = (total + 31) // 32
    bits = cp.zeros(words, dtype=cp.uint32)
    launch(get_kernel("csr.cu", "mark_row_starts<long long>"), n, (indptr, n, bits))
    counts = cp.empty(words, dtype=cp.uint32)
    launch(get_kernel("csr.cu", f"mark_heads<{kt}>"), words * 32, (kv, total, ob, bits, counts))
    word_start = cp.empty(words + 1, dtype=cp.int64)
    word_start[0] = 0
    word_start[1:] = cp.cumsum(counts, dtype=cp.int64)
    del counts
    runs = int(cp.asnumpy(word_start[words:])[0])
    cols = cp.empty(runs, dtype=itype)
    w_out = None if w is None else cp.empty(runs, dtype=w.dtype)
    mode = _MODE[merge] if weighted else _COLUMNS_ONLY
    launch(compact, total, (kv, total, ob, mode, bits, word_start, w, cols, w_out))
    del keys, kv
    args = (indptr, n, total, bits, word_start)
    launch(get_kernel("csr.cu", "runs_before<long long>"), n + 1, args)
    return indptr, cols, w_out


def _sort_rows(cp, keys, indptr, n: int, total: int, kb: int, budget: int | None = None) -> None:
    """Sort every row of ``keys`` in place; ``kb`` = bits a key uses (for batching long rows);
    ``budget``: keys per batch of long rows (default ``max(total // 8, 2**20)``)."""
    blocks = _BLOCK_BINS[keys.dtype.name]
    kt = _K_TYPES[keys.dtype.name]
    bounds = [*_WARP_GROUPS, *(p for p, _ in blocks), 2**62]
    nb = len(bounds)
    ub = cp.asarray(np.array(bounds, dtype=np.int64))
    cursor = cp.zeros(nb, dtype=cp.uint64)
    binner = get_kernel("csr.cu", "bin_rows<unsigned int>")
    grid = min(-(-n // 256), 1024)
    launch(binner, n, (indptr, n, 2, ub, nb, 0, cursor, None), grid=grid)
    sizes = cp.asnumpy(cursor).astype(np.int64)
    starts = np.concatenate([[0], np.cumsum(sizes)])
    cursor = cp.asarray(starts[:-1].astype(np.uint64))
    rows = cp.empty(int(starts[-1]), dtype=cp.uint32)
    launch(binner, n, (indptr, n, 2, ub, nb, 1, cursor, rows), grid=grid)
    del cursor, ub

    def segment(b):
        return rows[int(starts[b]) : int(starts[b + 1])], int(sizes[b])

    warp = get_kernel("csr.cu", f"sort_rows_warp<{kt}>")
    for b, g in enumerate(_WARP_GROUPS):
        seg, count = segment(b)
        per_warp = 32 // g
        launch(warp, -(-count // per_warp) * 32, (keys, indptr, seg, count, g))
    for b, (p, threads) in enumerate(blocks, start=len(_WARP_GROUPS)):
        seg, count = segment(b)
        k = get_kernel("csr.cu", f"sort_rows_block<{kt}, {p}>")
        launch(k, count * threads, (keys, indptr, seg, count), block=threads)
    seg, count = segment(nb - 1)
    if count:
        _sort_long_rows(cp, keys, indptr, seg.copy(), total, kb, budget)


def _plan_batches(lens: np.ndarray, budget: int, max_rows: int) -> list[tuple[int, int]]:
    """Split long rows (in order) into batches [start, stop) of at most ``budget`` keys and
    ``max_rows`` rows; every row must hold at most ``budget // 2`` keys.

    Examples
    --------
    >>> _plan_batches(np.array([3, 3, 3, 3, 3]), budget=8, max_rows=4)
    [(0, 2), (2, 3), (3, 4), (4, 5)]
    >>> _plan_batches(np.array([3, 3, 3, 3, 3]), budget=100, max_rows=2)
    [(0, 2), (2, 4), (4, 5)]
    """
    if lens.size == 0:
        return []
    half = max(1, budget // 2)
    excl = np.cumsum(lens) - lens
    chunk = excl // half  # rows starting in the same half-budget window: at most `budget` keys
    firsts = np.flatnonzero(np.r_[True, chunk[1:] != chunk[:-1]])
    lasts = np.r_[firsts[1:], lens.size]
    return [
        (int(a), int(min(a + max_rows, z)))
        for f, z in zip(firsts, lasts, strict=True)
        for a in range(int(f), int(z), max_rows)
    ]


def _sort_long_rows(cp, keys, indptr, rows, total: int, kb: int, budget: int | None) -> None:
    """Rows too long for shared memory: CuPy's radix sort on batches of ``(rank << kb) | key``;
    a row of more than half a batch is sorted alone, in place."""
    at = rows.astype(cp.int64)
    begins = cp.asnumpy(indptr[at])
    lens = cp.asnumpy(indptr[at + 1]) - begins
    budget = max(total // 8, _BATCH_MIN) if budget is None else max(int(budget), 2)
    alone = lens > budget // 2
    for b, ln in zip(begins[alone], lens[alone], strict=True):  # at most 16 such rows
        keys[int(b) : int(b + ln)].sort()
    rest = np.flatnonzero(~alone)
    if rest.size == 0:
        return
    bdt = np.dtype(np.uint32) if kb <= 24 else np.dtype(np.uint64)
    max_rows = min(_BATCH_MAX_ROWS, 1 << (8 * bdt.itemsize - kb))
    kt, bt = _K_TYPES[keys.dtype.name], _K_TYPES[bdt.name]
    pack = get_kernel("csr.cu", f"pack_batch<{kt}, {bt}>")
    unpack = get_kernel("csr.cu", f"unpack_batch<{kt}, {bt}>")
    host_rows = cp.asnumpy(rows)[rest]
    lens = lens[rest]
    mask = (1 << kb) - 1
    for a, z in _plan_batches(lens, budget, max_rows):
        ls = lens[a:z]
        offs = np.cumsum(ls) - ls
        size = int(ls.sum())
        brows = cp.asarray(host_rows[a:z])
        boffs = cp.asarray(offs)
        nr = z - a
        batch = cp.empty(size, dtype=bdt)
        launch(pack, nr * 256, (keys, indptr, brows, boffs, nr, kb, batch))
        batch.sort()
        launch(unpack, nr * 256, (keys, indptr, brows, boffs, nr, mask, batch))
        del batch


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


def _compact_in_place(cp, kv, out, bits, word_start, total, runs, itype, step) -> None:
    """``out[q] = column of the q-th run head`` for every run, where ``out`` shares ``kv``'s
    memory: steps of ``step`` arcs go through a buffer, in order. A step's heads land in
    ``[q0, q1)`` with ``q1 <= p1`` (the step's end), so no later step's keys are overwritten,
    and its own keys were read into the buffer before the copy."""
    step = max(32, (int(step) // 32) * 32)
    it, kt = _V_TYPES[itype.name], _K_TYPES[kv.dtype.name]
    compact = get_kernel("csr.cu", f"compact_runs<{kt}, {it}, int>")
    buf = cp.empty(min(step, total), dtype=itype)
    for p0 in range(0, total, step):
        p1 = min(total, p0 + step)
        w0, w1 = p0 // 32, (p1 + 31) // 32
        q0 = int(cp.asnumpy(word_start[w0 : w0 + 1])[0])
        q1 = runs if p1 == total else int(cp.asnumpy(word_start[w1 : w1 + 1])[0])
        ws = word_start[w0:w1] - q0  # the step's word offsets, relative to its first run
        args = (kv[p0:p1], p1 - p0, 0, _COLUMNS_ONLY, bits[w0:w1], ws, None, buf, None)
        launch(compact, p1 - p0, args)
        out[q0:q1] = buf[: q1 - q0]
        del ws
