"""Arc source ids and the in-arc CSR (transpose) on the device, in bounded passes over the arcs.

Expanding the row id of every arc at once costs 16 bytes per arc in temporaries (an int64
``arange`` and an int64 ``searchsorted`` result): 34 GB on a Kronecker 27 graph. Here the arcs
are taken :data:`ARCS_PER_PASS` at a time, so the temporaries stay bounded (about 1 GB in the
transpose) whatever the graph's size, and a pass costs the same kernels as before.

The transpose is a stable counting sort done chunk by chunk: arcs come in CSR (source) order,
each chunk is sorted stably by target, and each arc lands at its target row's cursor plus its
rank among the chunk's arcs of that target; the cursors then move past the chunk. Chunks are
taken in source order, so every row of the result is sorted by source and parallel arcs keep
their CSR order (weights move with them): the same arrays as the CPU's
:func:`warpgraph.cpu.transpose.transpose_csr`.

Every function takes the array module ``xp`` (CuPy on the device; NumPy runs the same code,
which is how the logic is tested without a GPU).

Examples
--------
>>> import numpy as np
>>> rp, ri, rw = transpose_csr_chunked(np.array([0, 2, 3, 3]), np.array([1, 2, 2]), 3,
...                                    weights=np.array([5.0, 6.0, 7.0]), xp=np)
>>> rp.tolist(), ri.tolist(), rw.tolist()
([0, 0, 1, 3], [0, 0, 1], [5.0, 6.0, 7.0])
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import numpy as np

from ..errors import InvalidArgumentError

__all__ = ["ARCS_PER_PASS", "arc_source_chunks", "arc_sources", "transpose_csr_chunked"]

ARCS_PER_PASS = 1 << 24
"""Arcs per pass (16M). Measured on an H200 (``benchmarks/transpose.py``, directed Kronecker,
GAP weights, peak bytes of live arrays including the result): scale 22 16.7 ms / 1.52 GiB
(2**25 arcs a pass: 15.0 ms / 2.42 GiB; 2**23: 20.2 ms / 1.04 GiB; the former full-sort build:
14.7 ms / 1.76 GiB), scale 23 34.5 ms / 2.09 GiB (former: 32.1 ms / 3.55 GiB)."""


def arc_source_chunks(
    indptr: Any, num_arcs: int, *, arcs_per_pass: int = ARCS_PER_PASS, xp: Any = np
) -> Iterator[tuple[int, int, Any]]:
    """Yield ``(start, stop, rows)``: the int64 source vertex of arcs ``start:stop``.

    Examples
    --------
    >>> import numpy as np
    >>> [(a, b, r.tolist()) for a, b, r in arc_source_chunks(np.array([0, 2, 3, 3]), 3,
    ...                                                      arcs_per_pass=2)]
    [(0, 2, [0, 0]), (2, 3, [1])]
    """
    if arcs_per_pass < 1:
        raise InvalidArgumentError(f"arcs_per_pass must be >= 1, got {arcs_per_pass}")
    for start in range(0, num_arcs, arcs_per_pass):
        stop = min(start + arcs_per_pass, num_arcs)
        arcs = xp.arange(start, stop, dtype=xp.int64)
        yield start, stop, xp.searchsorted(indptr, arcs, side="right") - 1


def arc_sources(
    indptr: Any, num_arcs: int, dtype: Any, *, arcs_per_pass: int = ARCS_PER_PASS, xp: Any = np
) -> Any:
    """Source vertex of every arc (COO row ids) as ``dtype``, filled pass by pass.

    Examples
    --------
    >>> import numpy as np
    >>> arc_sources(np.array([0, 2, 3, 3]), 3, np.int32).tolist()
    [0, 0, 1]
    """
    out = xp.empty(num_arcs, dtype=dtype)
    for start, stop, rows in arc_source_chunks(
        indptr, num_arcs, arcs_per_pass=arcs_per_pass, xp=xp
    ):
        out[start:stop] = rows
    return out


def transpose_csr_chunked(
    indptr: Any,
    indices: Any,
    n: int,
    weights: Any = None,
    *,
    index_dtype: Any = None,
    arcs_per_pass: int = ARCS_PER_PASS,
    xp: Any = np,
) -> tuple[Any, Any, Any]:
    """``(rindptr, rindices, rweights)``: the in-arc CSR, rows sorted by source (stable).

    Parameters
    ----------
    indptr, indices : array
        Out-arc CSR (``indptr`` int64, ``n + 1`` entries).
    n : int
        Number of vertices.
    weights : array, optional
        Arc weights, moved with their arcs.
    index_dtype : dtype, optional
        dtype of ``rindices`` (default: that of ``indices``).
    arcs_per_pass : int
        Arcs sorted per pass; bounds the temporaries (about 32 bytes per arc of one pass).
    xp : module
        ``cupy`` or ``numpy``.

    Returns
    -------
    tuple
        ``rindptr`` (int64), ``rindices``, ``rweights`` (``None`` when unweighted).

    Examples
    --------
    >>> import numpy as np
    >>> rp, ri, _ = transpose_csr_chunked(np.array([0, 1, 3, 4]), np.array([2, 0, 2, 0]), 3,
    ...                                   arcs_per_pass=1)
    >>> rp.tolist(), ri.tolist()
    ([0, 2, 2, 4], [1, 2, 0, 1])
    """
    m = int(indices.shape[0])
    index_dtype = indices.dtype if index_dtype is None else index_dtype
    rindptr = xp.zeros(n + 1, dtype=xp.int64)
    if m:
        xp.cumsum(xp.bincount(indices, minlength=n), out=rindptr[1:])
    if m <= arcs_per_pass:  # one pass: the stable order by target is the result's arc order
        return (rindptr, *_transpose_one_pass(indptr, indices, m, weights, index_dtype, xp))
    cursor = rindptr[:-1].copy()  # next free slot of every in-arc row
    rindices = xp.empty(m, dtype=index_dtype)
    rweights = None if weights is None else xp.empty(m, dtype=weights.dtype)
    for start, stop, rows in arc_source_chunks(indptr, m, arcs_per_pass=arcs_per_pass, xp=xp):
        targets = indices[start:stop]
        order = xp.argsort(targets, kind="stable")
        by_target = targets[order]
        # rank among this chunk's arcs of the same target = position - first position of the run
        first = xp.searchsorted(by_target, by_target, side="left")
        slots = cursor[by_target] + (xp.arange(stop - start, dtype=xp.int64) - first)
        del first
        rindices[slots] = rows[order]
        if rweights is not None:
            rweights[slots] = weights[start:stop][order]
        del slots, order, rows
        # the run ends give each target's count in the chunk
        ends = xp.flatnonzero(by_target[1:] != by_target[:-1])
        run_targets = xp.concatenate([by_target[ends], by_target[-1:]])
        run_stop = xp.concatenate([ends + 1, xp.asarray([stop - start], dtype=ends.dtype)])
        run_start = xp.concatenate([xp.zeros(1, dtype=ends.dtype), ends + 1])
        cursor[run_targets] += run_stop - run_start
    return rindptr, rindices, rweights


def _transpose_one_pass(indptr: Any, indices: Any, m: int, weights: Any, index_dtype: Any, xp: Any):
    """``(rindices, rweights)`` of all ``m`` arcs at once: sorted stably by target, arcs that
    come in source order land in each target's row in source order, at the positions the rows
    have in the result (each chunk's slot ``cursor[t] + rank`` is then just the arc's place in
    that order). Saves the general pass's rank search, scatter and cursor update: ~9 array
    operations and a wait for the device (``flatnonzero``)."""
    if not m:
        return xp.empty(0, dtype=index_dtype), None if weights is None else weights[:0].copy()
    order = xp.argsort(indices, kind="stable")
    _, _, rows = next(arc_source_chunks(indptr, m, arcs_per_pass=m, xp=xp))
    rindices = rows[order].astype(index_dtype, copy=False)
    return rindices, None if weights is None else weights[order]
