"""Where the outliers among cold first calls come from: many cold calls of two short functions,
each with what happened to the process and the machine meanwhile.

Per call (the conversion cache cleared first, a garbage collection untimed): milliseconds, minor
page faults, voluntary and involuntary context switches summed over all of the process's
threads, CPU ticks the hypervisor stole from the VM (``/proc/stat``), garbage collections
started. A call slower than 3x the median + 1 ms counts as an outlier; the summary gives how
many outliers came with stolen ticks and how many with 5+ involuntary switches (preemption).
``--heap`` keeps millions of objects for each untimed collection to walk (cold caches).

Usage::

    python benchmarks/nx_stall_probe.py --graph urand:17 --devices cpu gpu --calls 150 \\
        --out benchmarks/results/nx_stall_probe.json
"""

from __future__ import annotations

import argparse
import gc
import json
import os
import resource
import time
import warnings
from collections.abc import Callable
from typing import Any

import networkx as nx
import numpy as np
from nx_backend import build, set_device, steal_ticks

from warpgraph.cpu import threads

FIELDS = ["ms", "faults", "voluntary", "involuntary", "steal_ticks", "collections"]


def context_switches() -> tuple[int, int]:
    """(voluntary, involuntary) context switches of every thread of this process so far."""
    counts = [0, 0]
    for tid in os.listdir("/proc/self/task"):
        try:
            with open(f"/proc/self/task/{tid}/status") as f:
                for line in f:
                    if line.startswith("voluntary_ctxt_switches"):
                        counts[0] += int(line.split()[1])
                    elif line.startswith("nonvoluntary_ctxt_switches"):
                        counts[1] += int(line.split()[1])
        except FileNotFoundError:  # a thread that ended meanwhile
            pass
    return counts[0], counts[1]


def probe(G: Any, call: Callable[[Any], Any], calls: int, started: list) -> np.ndarray:
    """``calls`` cold calls of ``call(G)``, one row of :data:`FIELDS` each."""
    call(G)  # compiled and loaded outside the measurement
    rows = []
    for _ in range(calls):
        G.__networkx_cache__.clear()
        gc.collect()
        started.clear()
        r0, c0, s0 = resource.getrusage(resource.RUSAGE_SELF), context_switches(), steal_ticks()
        t0 = time.perf_counter()
        call(G)
        ms = 1e3 * (time.perf_counter() - t0)
        r1, c1, s1 = resource.getrusage(resource.RUSAGE_SELF), context_switches(), steal_ticks()
        stolen = -1 if s0 is None else s1 - s0
        rows.append(
            [ms, r1.ru_minflt - r0.ru_minflt, c1[0] - c0[0], c1[1] - c0[1], stolen, len(started)]
        )
    return np.array(rows, dtype=float)


def summary(rows: np.ndarray) -> dict[str, Any]:
    median = float(np.median(rows[:, 0]))
    slow = rows[:, 0] > 3 * median + 1.0
    stolen = np.maximum(rows[:, 4], 0)  # -1: no /proc/stat to read
    return {
        "calls": int(rows.shape[0]),
        "median_ms": round(median, 3),
        "outliers": int(slow.sum()),
        "outliers_with_steal": int((stolen[slow] > 0).sum()),
        "outliers_with_preemption": int((rows[slow, 3] >= 5).sum()),
        "steal_ticks_in_outliers": int(stolen[slow].sum()),
        "steal_ticks_elsewhere": int(stolen[~slow].sum()),
    }


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    ap.add_argument("--graph", default="urand:17")
    ap.add_argument("--devices", nargs="+", default=["cpu"], choices=["cpu", "gpu"])
    ap.add_argument("--calls", type=int, default=150)
    ap.add_argument(
        "--heap",
        type=float,
        default=0.0,
        help="millions of small dicts kept alive and not frozen, so that the gc.collect() "
        "before each call walks them, as it walks the NetworkX results that nx_backend.py "
        "keeps for checking",
    )
    ap.add_argument("--out", default=None, help="JSON path (default: print only)")
    args = ap.parse_args(argv)
    if args.calls < 1:
        ap.error("--calls must be at least 1")
    if args.heap < 0:
        ap.error("--heap must not be negative")
    warnings.filterwarnings("ignore", message="Note: conversions to backend graphs")
    threads.DYNAMIC_THREADS = False  # all threads, as nx_backend.py --fixed-threads
    started: list = []
    gc.callbacks.append(lambda phase, info: started.append(1) if phase == "start" else None)
    g = build(args.graph)
    gc.collect()
    gc.freeze()
    heap = [{"i": i} for i in range(int(args.heap * 1e6))]  # walked by every collection
    cases = [
        ("number_connected_components", "U", nx.number_connected_components),
        ("is_strongly_connected", "D", nx.is_strongly_connected),
    ]
    out: dict[str, Any] = {"graph": args.graph, "heap_objects": len(heap), "fields": FIELDS}
    out["runs"] = {}
    for dev in args.devices:
        set_device(dev)
        for name, kind, fn in cases:
            rows = probe(g[kind], lambda G, fn=fn: fn(G, backend="warpgraph"), args.calls, started)
            out["runs"][f"{dev} {name}"] = {"summary": summary(rows), "rows": rows.tolist()}
            print(dev, name, summary(rows), flush=True)
    if args.out:
        with open(args.out, "w") as f:
            json.dump(out, f)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
