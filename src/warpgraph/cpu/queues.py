"""Per-thread queue buffers for the parallel frontier expansions (BFS top-down steps, the SCC
closures and colour propagation).

A thread of a ``prange`` loop collects the vertices it claims in a buffer of its own
(:data:`LOCAL_QUEUE` slots) and appends the buffer to the shared next frontier with one atomic
fetch-add (:func:`flush`) when it is full and at the end of its chunk: one atomic per
:data:`LOCAL_QUEUE` vertices instead of one per vertex, and each thread writes a contiguous run.

Examples
--------
>>> import numpy as np
>>> out = np.full(6, -1); counter = np.zeros(1, dtype=np.int64)
>>> flush(np.array([4, 7, 9]), 2, out, counter); flush(np.array([5]), 1, out, counter)
>>> out.tolist(), int(counter[0])
([4, 7, 5, -1, -1, -1], 3)
"""

from __future__ import annotations

import numba as nb

from .atomics import fetch_add

__all__ = ["LOCAL_QUEUE", "flush"]

#: Slots of a thread's buffer: vertices collected before one fetch-add reserves their place.
LOCAL_QUEUE = 1024


@nb.njit(cache=True, nogil=True)
def flush(buf, k, out, counter):
    """Append ``buf[:k]`` to ``out`` at slots reserved with one atomic fetch-add on
    ``counter[0]`` (the shared queue's length)."""
    if k > 0:
        base = fetch_add(counter, 0, k)
        for i in range(k):
            out[base + i] = buf[i]
