"""The GPU CSR build from an edge list given in chunks (:func:`build_csr_chunked`): two passes
over the chunks, then the shared row sort and an in-place merge, so nothing the size of the
whole edge list is allocated. Imported by :mod:`warpgraph.gpu.csr`, where users find it.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ..device import check_device_memory, cupy
from ..errors import InvalidArgumentError
from ._csr_steps import (
    _BATCH_MIN,
    _K_TYPES,
    _PACK_LIMIT,
    _V_TYPES,
    MERGES,
    _common_id_dtype,
    _compact_in_place,
    _first_bad,
    _ids,
    _index_dtype,
    _sort_rows,
)
from .launch import launch
from .loader import get_kernel

DOCTEST_NEEDS_GPU = True  # tests/test_doctests.py runs the examples only where a GPU is

_CHUNKED_BATCH_DIV = 32  # a batch of long rows holds at most M / 32 keys in the chunked build
_COMPACT_STEP = 1 << 28  # arcs compacted per step (a multiple of 32)


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
