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


def first_call_parser(doc: str) -> Any:
    """The options of the scripts that time the backend's first calls against NetworkX:
    ``--graphs``, ``--repeat`` (first calls, median), ``--device`` (the backend's configured
    device) and ``--out`` (a JSON path); the description is ``doc``'s first paragraph."""
    import argparse

    ap = argparse.ArgumentParser(description=doc.split("\n\n")[0])
    ap.add_argument("--graphs", nargs="+", default=["urand:17", "grid:708"])
    ap.add_argument("--repeat", type=int, default=5, help="warpgraph first calls (median)")
    ap.add_argument("--device", default="auto", choices=["auto", "cpu", "gpu"],
                    help="the backend's configured device")  # fmt: skip
    ap.add_argument("--out", default=None, help="JSON path")
    return ap


def configure_backend(device: str) -> str:
    """Set the warpgraph backend's device (NetworkX's cache warnings off) and return the
    device it resolves to, printed."""
    import networkx as nx

    from warpgraph.nx._common import backend_device

    nx.config.backends.warpgraph.device = device
    nx.config.warnings_to_ignore.add("cache")
    resolved = backend_device()
    print(f"backend device: {device} -> {resolved}")
    return resolved


def dump_rows(out: str | None, benchmark: str, rows: list[dict[str, Any]]) -> None:
    """Write ``rows`` with the environment to ``out`` (nothing when it is None)."""
    if out:
        with open(out, "w") as fh:
            json.dump({"benchmark": benchmark, "environment": environment(), "rows": rows},
                      fh, indent=1)  # fmt: skip
        print("wrote", out)


def median_call(call: Callable, repeat: int, clear: Callable | None = None) -> tuple[float, Any]:
    """The median time of ``repeat`` calls of ``call`` (``clear()`` before each, untimed), and
    the last call's result. The previous call's result is dropped before the next is timed:
    freeing a large one (grid:708's 500k paths: seconds) is not the call's cost."""
    times, result = [], None
    for _ in range(repeat):
        result = None
        if clear is not None:
            clear()
        t0 = time.perf_counter()
        result = call()
        times.append(time.perf_counter() - t0)
    return statistics.median(times), result


def urand_or_grid(spec: str):
    """The undirected graph of ``urand:S`` (2**S vertices, 8 * 2**S uniform random edges, seed
    1) or ``grid:R`` (an R x R lattice), built on the CPU."""
    import numpy as np

    import warpgraph as wg

    kind, _, size = spec.partition(":")
    if kind not in ("urand", "grid") or not size.isdigit():
        raise SystemExit(f"unknown graph {spec!r}: urand:S or grid:R")
    size = int(size)
    gen = wg.generators
    if kind == "urand":
        n = 2**size
        s, d = gen.uniform_edges(n, 8 * n, seed=1, device="cpu")
    else:
        n = size * size
        s, d = gen.grid_2d_edges(size, size, device="cpu")
    return wg.Graph.from_edges(np.asarray(s), np.asarray(d), num_vertices=n, directed=False)
