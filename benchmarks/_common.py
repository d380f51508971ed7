"""Shared helpers of the benchmark scripts: environment record, JSON output, timing."""

from __future__ import annotations

import json
import os
import platform
import statistics
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

RESULTS = Path(__file__).resolve().parent / "results"


def environment() -> dict[str, Any]:
    """Machine, versions and device, recorded with every result file."""
    import numba
    import numpy as np
    import scipy

    import warpgraph
    from warpgraph.device import _gpu_summary

    return {
        "date": time.strftime("%Y-%m-%d %H:%M:%S %Z"),
        "host": platform.node(),
        "cpu": platform.processor() or platform.machine(),
        "cpu_threads": os.cpu_count(),
        "numba_threads": numba.config.NUMBA_NUM_THREADS,
        "python": platform.python_version(),
        "warpgraph": warpgraph.__version__,
        "numpy": np.__version__,
        "scipy": scipy.__version__,
        "numba": numba.__version__,
        "gpu": dict(_gpu_summary()),
    }


def sync(device: str) -> None:
    if device == "gpu":
        import cupy

        cupy.cuda.Device().synchronize()


def measure(
    fn: Callable[[], Any], device: str = "cpu", repeat: int = 5, warmup: int = 1
) -> dict[str, float]:
    """Median/min/max seconds of ``repeat`` runs after ``warmup`` runs."""
    for _ in range(warmup):
        fn()
        sync(device)
    times = []
    for _ in range(repeat):
        t0 = time.perf_counter()
        fn()
        sync(device)
        times.append(time.perf_counter() - t0)
    return {
        "median_s": statistics.median(times),
        "min_s": min(times),
        "max_s": max(times),
        "repeat": repeat,
    }


def measure_interleaved(
    fns: dict[str, Callable[[], Any]], repeat: int = 5, device: str = "cpu"
) -> dict[str, dict[str, Any]]:
    """:func:`measure` for several calls at once, in rounds: each round runs every call once,
    in turn, so a busy moment of a shared host slows all of them alike rather than whichever
    happened to be running. No warm-up (the caller's first calls are one). Each entry also
    keeps its ``times_s`` (round order), for ratios taken round by round."""
    times: dict[str, list[float]] = {name: [] for name in fns}
    for _ in range(repeat):
        for name, fn in fns.items():
            t0 = time.perf_counter()
            fn()
            sync(device)
            times[name].append(time.perf_counter() - t0)
    return {
        name: {
            "median_s": statistics.median(t),
            "min_s": min(t),
            "max_s": max(t),
            "repeat": repeat,
            "times_s": t,
        }
        for name, t in times.items()
    }


def gpu_peak(fn: Callable[[], Any]) -> tuple[Any, int, int]:
    """(result, pool growth, peak bytes in use) of ``fn()`` on CuPy's default pool."""
    import cupy as cp

    pool = cp.get_default_memory_pool()
    cp.cuda.Device().synchronize()
    pool.free_all_blocks()
    total0, used0 = pool.total_bytes(), pool.used_bytes()
    peak = [0]

    def tracking(size):
        mem = pool.malloc(size)
        peak[0] = max(peak[0], pool.used_bytes() - used0)
        return mem

    cp.cuda.set_allocator(tracking)
    try:
        out = fn()
        cp.cuda.Device().synchronize()
    finally:
        cp.cuda.set_allocator(pool.malloc)
    return out, pool.total_bytes() - total0, peak[0]


def write_json(name: str, payload: dict[str, Any], out: str | None = None) -> Path:
    """Write ``payload`` (plus the environment) to ``benchmarks/results/NAME.json`` or ``out``."""
    path = Path(out) if out else RESULTS / f"{name}.json"
    path.parent.mkdir(parents=True, exist_ok=True)
    payload = {"benchmark": name, "environment": environment(), **payload}
    tmp = path.with_suffix(".tmp")
    tmp.write_text(json.dumps(payload, indent=2, default=str) + "\n")
    os.replace(tmp, path)
    return path
