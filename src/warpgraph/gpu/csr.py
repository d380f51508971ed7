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
from .launch import launch
from .loader import declare, get_kernel

__all__ = ["MERGES", "build_csr", "build_csr_chunked", "estimate_bytes", "estimate_chunked_bytes"]

DOCTEST_NEEDS_GPU = True  # tests/test_doctests.py runs the examples only where a GPU is

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


def estimate_chunked_bytes(
    num_arcs: int, num_vertices: int, chunk_edges: int, index_itemsize: int = 4
) -> int:
    """Peak device bytes of :func:`build_csr_chunked` for ``num_arcs`` arcs (an upper bound:
    ``2m`` for ``m`` undirected edges), besides the chunk source's own state.

    The keys (``indices`` at the end, compacted in place), ``indptr``, and the largest of: the
    per-row cursors and two chunks of ids while scattering, a batch of long rows (``M/32`` keys
    of 8 bytes, twice for the radix sort) while sorting, and the run bits, word offsets and one
    compaction chunk while merging.

    Examples
    --------
    >>> round(estimate_chunked_bytes(2**32, 2**27, 2**27) / 2**30, 1)  # Kronecker scale 27
    21.0
    """
    m, n, c = int(num_arcs), int(num_vertices), int(chunk_edges)
    ib = int(index_itemsize)
    kb = 8 if ib == 8 else 4
    words = (m + 31) // 32
    base = kb * m + 8 * (n + 1)
    scatter = 8 * n + 4 * c * ib + 8 * n  # cursors, two chunks, the scan's temporary
    sort = 4 * n + 16 * max(m // _CHUNKED_BATCH_DIV, min(m, _BATCH_MIN)) + 128
    merge = 4 * words + 4 * words + 8 * (words + 1) + ib * min(m, _COMPACT_STEP) + 2 * words
    return base + max(scatter, sort, merge) + (1 << 20)


_CHUNKED_BATCH_DIV = 32  # a batch of long rows holds at most M / 32 keys in the chunked build
_COMPACT_STEP = 1 << 28  # arcs compacted per step (a multiple of 32)


_FINGERPRINT: dict[str, Any] = {}


def _fingerprint(cp, src, dst) -> int:
    """Order-independent 64-bit sum of a mixed word per edge: the second pass of the chunked
    build checks each chunk against the first pass before scattering it."""
    k = _FINGERPRINT.get("k")
    if k is None:
        k = cp.ReductionKernel(
            "T s, T d",
            "uint64 y",
            "((unsigned long long)s * 0x9E3779B97F4A7C15ull)"
            " ^ ((unsigned long long)d + 0x632BE59BD9B4E019ull)",
            "a + b",
            "y = a",
            "0",
            "wg_edge_fingerprint",
        )
        _FINGERPRINT["k"] = k
    return int(k(src, dst))


def _chunk_pair(cp, pair: Any, index: int, first: int):
    """One ``(src, dst)`` chunk on the device, checked, with one id dtype (int32 or int64)."""
    try:
        src, dst = pair
    except (TypeError, ValueError):
        raise InvalidArgumentError(
            f"chunk {index} must be a pair (src, dst) of id arrays, got {type(pair).__name__}"
        ) from None
    src = _ids(cp, src, f"src of chunk {index} (edges from {first})")
    dst = _ids(cp, dst, f"dst of chunk {index} (edges from {first})")
    if src.size != dst.size:
        raise InvalidArgumentError(
            f"chunk {index}: src and dst differ in length ({src.size} != {dst.size})"
        )
    return _common_id_dtype(cp, src, dst)


def build_csr_chunked(
    chunks: Any,
    num_vertices: int,
    directed: bool = True,
    remove_self_loops: bool = False,
    merge: str | None = None,
    *,
    index_dtype: Any = None,
    sort_budget: int | None = None,
    compact_step: int = _COMPACT_STEP,
    profile: dict | None = None,
):
    """Build an unweighted CSR on the GPU from an edge list given in chunks.

    The list is read twice: the first pass counts the row lengths (and checks the ids), the
    second scatters every chunk's arcs into their rows; rows are then sorted and, with
    ``merge``, parallel arcs are compacted in place, step by step. Nothing of the size of the
    whole edge list is ever allocated, so the peak is about the CSR plus ``16 n`` bytes
    (:func:`estimate_chunked_bytes`): Graph500 Kronecker scale 27 (``2**31`` edges, 4.2 G arcs
    after merging) peaked at 22.5 GiB on an H100, where the one-shot build would need about 53 GiB.

    The result equals :func:`build_csr` on the concatenated chunks (rows sorted by column).

    Parameters
    ----------
    chunks : iterable of (src, dst)
        An iterable that gives the same chunks each time it is iterated (a list, or a
        re-iterable source such as :class:`warpgraph.generators.chunked.RmatChunks`), not a
        one-shot iterator. Chunks may be NumPy (copied to the device one at a time) or CuPy.
    num_vertices : int
        Number of vertices (ids must lie in ``[0, num_vertices)``), at most ``2**32 - 1``.
    directed, remove_self_loops : bool
        As for :func:`build_csr`.
    merge : {None, "min", "max", "sum", "first", "last"}
        ``None`` keeps parallel arcs; any other value keeps one arc per (row, column) (without
        weights every policy gives the same columns).
    index_dtype : {None, "int32", "int64"}
        dtype of ``indices``: default int32 when ``n < 2**31``.
    sort_budget : int, optional
        Keys per batch of long rows (default ``arcs / 32``; tests make it small).
    compact_step : int
        Arcs compacted per step when merging (rounded down to a multiple of 32).
    profile : dict, optional
        Filled with the seconds of each phase (``count``, ``scatter``, ``sort``, ``merge``;
        the device is synchronized between phases) and ``arcs``, ``runs``.

    Returns
    -------
    indptr : cupy.ndarray of int64
    indices : cupy.ndarray of int32 or int64
        With merging, a view of the first ``indptr[-1]`` items of the scattered keys' buffer:
        the space of the removed duplicates (about 2 % on Kronecker graphs) is not given back.
    weights : None

    Raises
    ------
    InvalidArgumentError
        Bad ids (naming the chunk and edge), a one-shot iterator, a source that gives other
        edges on its second pass, ``num_vertices`` beyond ``2**32 - 1``.
    OutOfDeviceMemory
        The CSR and the build's buffers would not fit in free GPU memory.

    Examples
    --------
    >>> import cupy as cp
    >>> parts = [(cp.array([0, 1]), cp.array([1, 2])), (cp.array([2]), cp.array([1]))]
    >>> indptr, indices, _ = build_csr_chunked(parts, 3, directed=False, merge="min")
    >>> indptr.tolist(), indices.tolist()
    ([0, 1, 3, 4], [1, 0, 2, 1])
    """
    if merge not in MERGES:
        raise InvalidArgumentError(f"merge must be one of {MERGES}, got {merge!r}")
    if iter(chunks) is chunks:
        raise InvalidArgumentError(
            "chunks must be re-iterable (a list or a chunk source), not a one-shot iterator: "
            "the build reads the edges twice"
        )
    if isinstance(num_vertices, bool) or not isinstance(num_vertices, int | np.integer):
        raise InvalidArgumentError(f"num_vertices must be an int, got {num_vertices!r}")
    n = int(num_vertices)
    if not 0 <= n <= _PACK_LIMIT:
        raise InvalidArgumentError(f"num_vertices must be in [0, {_PACK_LIMIT}], got {n}")
    itype = _index_dtype(index_dtype, n)
    kdt = np.dtype(np.uint64) if itype == np.int64 else np.dtype(np.uint32)
    kt = _K_TYPES[kdt.name]
    undirected, loops = int(not directed), int(remove_self_loops)
    cp = cupy()
    check_device_memory(16 * (n + 1), what=f"CSR row counts ({n} vertices)")
    clock = _PhaseClock(cp, profile)

    # 1. row lengths, id checks
    deg = cp.zeros(n, dtype=cp.uint64)
    bad = cp.zeros(1, dtype=cp.uint64)
    edges, biggest = 0, 0
    prints: list[tuple[int, int]] = []  # (edges, fingerprint) of every non-empty chunk
    for i, pair in enumerate(chunks):
        src, dst = _chunk_pair(cp, pair, i, edges)
        m = int(src.size)
        if m == 0:
            continue
        vt = _V_TYPES[src.dtype.name]
        args = (src, dst, m, n, undirected, loops, deg, bad)
        launch(get_kernel("csr.cu", f"count_arcs<{vt}>"), m, args)
        if int(cp.asnumpy(bad)[0]):
            raise InvalidArgumentError(
                f"chunk {i} (edges from {edges}): {_first_bad(cp, src, dst, n)}"
            )
        prints.append((m, _fingerprint(cp, src, dst)))
        edges += m
        biggest = max(biggest, m)
        del src, dst, pair
    indptr = cp.empty(n + 1, dtype=cp.int64)
    indptr[0] = 0
    indptr[1:] = cp.cumsum(deg.view(cp.int64))
    total = int(cp.asnumpy(indptr[n:])[0])
    clock.lap("count", arcs=total)
    if total == 0:
        return indptr, cp.empty(0, dtype=itype), None
    check_device_memory(
        estimate_chunked_bytes(total, n, biggest, itype.itemsize) - 16 * (n + 1),
        what=f"chunked CSR construction ({n} vertices, {total} arcs)",
    )

    # 2. the same chunks again: scatter the arcs into their rows (deg becomes the cursors)
    deg[...] = indptr[:-1].view(cp.uint64)
    keys = cp.empty(total, dtype=itype)
    kv = keys.view(kdt)
    seen, k = 0, 0
    drift = InvalidArgumentError(
        "the chunks gave other edges on their second pass than on the first; pass a "
        "source that yields the same chunks every time it is iterated"
    )
    for i, pair in enumerate(chunks):
        src, dst = _chunk_pair(cp, pair, i, seen)
        m = int(src.size)
        if m == 0:
            continue
        if k >= len(prints) or prints[k] != (m, _fingerprint(cp, src, dst)):
            raise drift
        k += 1
        vt = _V_TYPES[src.dtype.name]
        args = (src, dst, m, undirected, loops, 0, 0, deg, kv)
        launch(get_kernel("csr.cu", f"scatter_arcs<{vt}, {kt}>"), m, args)
        seen += m
        del src, dst, pair
    if seen != edges or not bool((deg == indptr[1:].view(cp.uint64)).all()):
        raise drift
    del deg
    clock.lap("scatter")

    # 3. sort every row
    budget = max(total // _CHUNKED_BATCH_DIV, _BATCH_MIN) if sort_budget is None else sort_budget
    _sort_rows(cp, kv, indptr, n, total, kb=max(1, (n - 1).bit_length()), budget=budget)
    clock.lap("sort", runs=total)
    if merge is None:
        return indptr, keys, None

    # 4. one arc per run of equal columns, compacted in place step by step
    words = (total + 31) // 32
    bits = cp.zeros(words, dtype=cp.uint32)
    launch(get_kernel("csr.cu", "mark_row_starts<long long>"), n, (indptr, n, bits))
    counts = cp.empty(words, dtype=cp.uint32)
    launch(get_kernel("csr.cu", f"mark_heads<{kt}>"), words * 32, (kv, total, 0, bits, counts))
    word_start = cp.empty(words + 1, dtype=cp.int64)
    word_start[0] = 0
    word_start[1:] = cp.cumsum(counts, dtype=cp.int64)
    del counts
    runs = int(cp.asnumpy(word_start[words:])[0])
    _compact_in_place(cp, kv, keys, bits, word_start, total, runs, itype, compact_step)
    args = (indptr, n, total, bits, word_start)
    launch(get_kernel("csr.cu", "runs_before<long long>"), n + 1, args)
    clock.lap("merge", runs=runs)
    return indptr, keys[:runs], None


class _PhaseClock:
    """Seconds per phase into ``profile`` (nothing, and no synchronization, without one)."""

    def __init__(self, cp, profile: dict | None):
        import time

        self.cp, self.profile, self.time = cp, profile, time.perf_counter
        self.t = self.time()

    def lap(self, name: str, **values: Any) -> None:
        if self.profile is None:
            return
        self.cp.cuda.Device().synchronize()
        now = self.time()
        self.profile[name] = now - self.t
        self.profile.update(values)
        self.t = now


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
