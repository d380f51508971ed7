"""Timing of one call on the CPU (wall clock) or the GPU (CUDA events).

On the GPU a call is bracketed by two CUDA events recorded on the current stream; the reported
time is the GPU time between them (``cudaEventElapsedTime``), which leaves out the host's
launch latency before the first kernel and the synchronisation after the last. The wall time of
the same call (launch to synchronised end) is recorded too. After the end event the whole device
is synchronised, so work a call left on other streams cannot leak into the next measurement.

On the CPU the time is :func:`time.perf_counter` around the call.

Examples
--------
>>> t = time_call(lambda: sum(range(1000)), "cpu")
>>> t.seconds > 0 and t.timer == "wall" and t.result == 499500
True
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from ..device import cupy

__all__ = ["Timing", "synchronize", "time_call"]


@dataclass
class Timing:
    """One timed call: its result, the measured seconds, the wall seconds, and the timer used."""

    result: Any
    seconds: float
    wall_seconds: float
    timer: str  # "cuda_event" or "wall"


def synchronize(device: str) -> None:
    """Wait for all work queued on the GPU (no-op on the CPU)."""
    if device == "gpu":
        cupy().cuda.Device().synchronize()


def time_call(fn: Callable[[], Any], device: str) -> Timing:
    """Run ``fn()`` once and time it on ``device`` (``"cpu"`` or ``"gpu"``).

    Parameters
    ----------
    fn : callable
        Takes no argument.
    device : {"cpu", "gpu"}
        ``"gpu"`` uses CUDA events on CuPy's current stream.

    Returns
    -------
    Timing

    Examples
    --------
    >>> time_call(lambda: 7, "cpu").result
    7
    """
    if device != "gpu":
        t0 = time.perf_counter()
        out = fn()
        wall = time.perf_counter() - t0
        return Timing(out, wall, wall, "wall")
    cp = cupy()
    stream = cp.cuda.get_current_stream()
    start, end = cp.cuda.Event(), cp.cuda.Event()
    cp.cuda.Device().synchronize()
    t0 = time.perf_counter()
    start.record(stream)
    out = fn()
    end.record(stream)
    end.synchronize()
    cp.cuda.Device().synchronize()
    wall = time.perf_counter() - t0
    seconds = cp.cuda.get_elapsed_time(start, end) / 1000.0
    return Timing(out, seconds, wall, "cuda_event")
