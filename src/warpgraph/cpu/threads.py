"""How many Numba threads a parallel kernel should use now.

On a busy machine (more runnable processes than cores) every short parallel region waits for a
descheduled worker to be woken: a scheduler time slice, milliseconds. Kernels made of many short
regions (the multi-step SCC, Afforest's rounds) then run several times slower on all threads than
on one. :func:`dynamic_threads` picks fewer threads as the load rises, as ``OMP_DYNAMIC`` does in
libgomp; :func:`threads_for` applies it around a call.

Examples
--------
>>> with threads_for(work=10):  # tiny work: one thread
...     import numba
...     numba.get_num_threads()
1
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from contextlib import contextmanager

import numba as nb
import numpy as np

__all__ = ["DYNAMIC_THREADS", "PARALLEL_MIN_WORK", "dynamic_threads", "threads_for"]

PARALLEL_MIN_WORK = 1 << 16
"""Work (vertices + arcs) below which one thread runs: a parallel region's wake-up would cost
more than the step."""

DYNAMIC_THREADS = True
"""Use fewer threads when the machine is busy, as ``OMP_DYNAMIC`` does in libgomp: at most
``cores - load + 1`` threads (1-minute load average; the ``+ 1`` is this process's own load).
The multi-step scheme runs dozens to hundreds of short parallel regions; on an oversubscribed
machine each one waits for a descheduled worker to be woken (a scheduler time slice, ms), which
cost 25x on a 2-core machine at load 4.6 (directed Kronecker 16: 250 ms on 2 threads, 9.7 ms on
one)."""


def dynamic_threads(threads: int) -> int:
    """Threads worth using now (:data:`DYNAMIC_THREADS`): ``threads`` on an idle machine, fewer
    down to 1 as the 1-minute load average rises above the free cores.

    Examples
    --------
    >>> 1 <= dynamic_threads(2) <= 2
    True
    """
    if not DYNAMIC_THREADS or threads <= 1:
        return max(1, threads)
    try:
        load = os.getloadavg()[0]
    except OSError:  # pragma: no cover - platforms without a load average
        return threads
    spare = (os.cpu_count() or threads) - load + 1
    return int(max(1, min(threads, np.floor(spare))))


@contextmanager
def threads_for(work: int, min_work: int = PARALLEL_MIN_WORK) -> Iterator[int]:
    """Set this thread's Numba thread count for ``work`` (one thread below ``min_work``, else
    :func:`dynamic_threads`), and restore it on exit. Yields the count set.

    Examples
    --------
    >>> with threads_for(work=1 << 30) as t:
    ...     t >= 1
    True
    """
    before = nb.get_num_threads()
    now = 1 if work < min_work else dynamic_threads(before)
    nb.set_num_threads(now)
    try:
        yield now
    finally:
        nb.set_num_threads(before)
