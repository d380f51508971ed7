"""How many Numba threads a parallel kernel should use now.

On a busy machine (more runnable processes than cores) every short parallel region waits for a
descheduled worker to be woken: a scheduler time slice, milliseconds. Kernels made of many short
regions (the multi-step SCC, Afforest's rounds) then run several times slower on all threads than
on one. :func:`dynamic_threads` picks fewer threads as the load rises, as ``OMP_DYNAMIC`` does in
libgomp; :func:`threads_for` applies it around a call.

The load average does not see every competitor: another container or guest on the same cores,
or one started seconds ago. For work where many short regions run (below
:data:`PROBE_MAX_WORK`), :func:`threads_for` also times one empty parallel region
(:func:`threads_not_stalling`): a fork-join of ``t`` threads that takes longer than
:data:`STALL_SECONDS` means one of them waited for a core, and every region of the call would
wait as long, so it tries half as many threads (``docs/THREADS.md``).

Examples
--------
>>> with threads_for(work=10):  # tiny work: one thread
...     import numba
...     numba.get_num_threads()
1
"""

from __future__ import annotations

import os
import time
from collections.abc import Iterator
from contextlib import contextmanager

import numba as nb
import numpy as np

from ..errors import InvalidArgumentError

__all__ = [
    "DYNAMIC_THREADS",
    "PARALLEL_MIN_WORK",
    "PROBE_MAX_WORK",
    "STALL_SECONDS",
    "dynamic_threads",
    "threads_for",
    "threads_not_stalling",
]

PARALLEL_MIN_WORK = 1 << 16
"""Work (vertices + arcs) below which one thread runs: a parallel region's wake-up would cost
more than the step."""

DYNAMIC_THREADS = os.environ.get("WARPGRAPH_DYNAMIC_THREADS", "1").strip() != "0"
"""Use fewer threads when the machine is busy, as ``OMP_DYNAMIC`` does in libgomp: at most
``cores - (load - own) + 1`` threads (1-minute load average; ``own`` is this process's share
of it, :class:`_OwnLoad`),
and fewer still while the fork-join probe stalls (:func:`threads_not_stalling`). Off (every
Numba thread, always) when set to ``False`` or when ``WARPGRAPH_DYNAMIC_THREADS=0`` is in the
environment at import.
The multi-step scheme runs dozens to hundreds of short parallel regions; on an oversubscribed
machine each one waits for a descheduled worker to be woken (a scheduler time slice, ms), which
cost 25x on a 2-core machine at load 4.6 (directed Kronecker 16: 250 ms on 2 threads, 9.7 ms on
one)."""


PROBE_MAX_WORK = 1 << 24
"""Work at or above which :func:`threads_for` does not probe for stalls: each region of such a
call is long enough that one late thread costs little of it. ``0`` turns the probe off and
keeps the load-average rule."""

STALL_SECONDS = 2e-3
"""An empty fork-join slower than this waited for a core (a scheduler time slice is milliseconds;
an idle 16-core H200 host woke its 16 sleeping threads in 0.28 ms, median, session 41)."""

_PROBE_TTL_SECONDS = 0.5
"""How long a probe's verdict holds: calls in a burst share one probe."""

_verdicts: dict[int, tuple[float, int]] = {}
"""threads asked -> (when probed, threads that did not stall)."""


@nb.njit(parallel=True, cache=True, nogil=True)
def _empty_region(out):
    for i in nb.prange(out.shape[0]):  # one iteration per thread: each must run
        out[i] = i


def _fork_join_seconds(threads: int) -> float:
    """Seconds one parallel region of ``threads`` threads takes, each writing one integer."""
    before = nb.get_num_threads()
    nb.set_num_threads(threads)
    out = np.empty(threads, dtype=np.int64)
    try:
        start = time.perf_counter()
        _empty_region(out)
        return time.perf_counter() - start
    finally:
        nb.set_num_threads(before)


def threads_not_stalling(threads: int) -> int:
    """The most threads, ``threads`` then halving down to 1, whose empty fork-join ran within
    :data:`STALL_SECONDS` (a verdict is reused for :data:`_PROBE_TTL_SECONDS`).

    A competitor the load average does not see (another container or guest on the same cores)
    shows here: a thread that waits for a core delays the region's end, and a call of
    many short regions then pays that wait at each of them (25x and more, measured on 2 cores).

    Counts of one or less answer 1 without a probe.

    Raises
    ------
    InvalidArgumentError
        ``threads`` is not an integer, or more than Numba's thread pool holds.

    Examples
    --------
    >>> 1 <= threads_not_stalling(2) <= 2
    True
    """
    if isinstance(threads, bool) or not isinstance(threads, int | np.integer):
        raise InvalidArgumentError(f"threads must be an integer, got {threads!r}")
    if threads > nb.config.NUMBA_NUM_THREADS:
        raise InvalidArgumentError(
            f"threads must be at most {nb.config.NUMBA_NUM_THREADS} (Numba's thread pool), "
            f"got {threads}"
        )
    threads = int(threads)
    if threads <= 1:
        return 1
    now = time.monotonic()
    seen = _verdicts.get(threads)
    if seen is not None and now - seen[0] < _PROBE_TTL_SECONDS:
        return seen[1]
    if not _verdicts:  # the process's first region starts the thread pool: not a stall
        _fork_join_seconds(nb.config.NUMBA_NUM_THREADS)
    # (no warm-up region before the probe: after one, a thread that waited for a core is
    # running and the next region is fast, though the call's regions would wait again)
    fit = threads
    while fit > 1 and _fork_join_seconds(fit) > STALL_SECONDS:
        fit //= 2
    when = time.monotonic()
    _verdicts[threads] = _verdicts[fit] = (when, fit)  # (a nested call asks for ``fit``)
    return fit


_LOAD_WINDOW_SECONDS = 60.0
"""Time constant of the kernel's 1-minute load average (an exponential moving average)."""


class _OwnLoad:
    """This process's share of the 1-minute load average, estimated from its CPU time.

    The kernel's average counts this process's threads like anyone's: after a few seconds of
    back-to-back parallel calls they alone push it past ``cores - 1`` and the load-average rule
    would halve the threads of the next call on an otherwise idle machine (session 44: kron:18
    PageRank 141 ms on 1 thread against 75 on 2, in 48 of 50 halved calls). The busy threads of
    this process (CPU seconds per second, all threads) are averaged the same way, so the rule
    can count only the others.
    """

    def __init__(self) -> None:
        self.when = time.monotonic()
        self.cpu = time.process_time()
        self.average = 0.0

    def update(self) -> float:
        """The average, brought up to now (each call adds the CPU time since the last)."""
        now, cpu = time.monotonic(), time.process_time()
        elapsed = now - self.when
        if elapsed > 0:
            keep = float(np.exp(-elapsed / _LOAD_WINDOW_SECONDS))
            busy = max(0.0, cpu - self.cpu) / elapsed
            self.average = self.average * keep + busy * (1.0 - keep)
            self.when, self.cpu = now, cpu
        return self.average


_own_load = _OwnLoad()


def dynamic_threads(threads: int) -> int:
    """Threads worth using now (:data:`DYNAMIC_THREADS`): ``threads`` on an idle machine, fewer
    down to 1 as the 1-minute load average of *other* processes rises above the free cores:
    at most ``cores - (load - own) + 1`` threads, ``own`` this process's share of the average
    (its CPU use averaged over the same minute, :class:`_OwnLoad`); the ``+ 1`` is the rule's
    tolerance from before ``own`` was counted (a fresh process, ``own`` 0, gets what it did).

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
    others = max(0.0, load - _own_load.update())
    spare = (os.cpu_count() or threads) - others + 1
    return int(max(1, min(threads, np.floor(spare))))


@contextmanager
def threads_for(work: int, min_work: int = PARALLEL_MIN_WORK) -> Iterator[int]:
    """Set this thread's Numba thread count for ``work`` (one thread below ``min_work``, else
    :func:`dynamic_threads`, and below :data:`PROBE_MAX_WORK` no more than
    :func:`threads_not_stalling`), and restore it on exit. Yields the count set.

    Examples
    --------
    >>> with threads_for(work=1 << 30) as t:
    ...     t >= 1
    True
    """
    before = nb.get_num_threads()
    now = 1 if work < min_work else dynamic_threads(before)
    if DYNAMIC_THREADS and now > 1 and work < PROBE_MAX_WORK:
        now = threads_not_stalling(now)
    nb.set_num_threads(now)
    try:
        yield now
    finally:
        nb.set_num_threads(before)
