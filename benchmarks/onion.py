"""Onion decomposition times (``warpgraph.algorithms.kcore.onion_layers``): the CPU's
sequential pass against the GPU's one-block kernel, on generated graphs.

Each graph is built undirected without self-loops or repeated edges, then timed 5 times after
one untimed call (median; the GPU synchronized), through ``layers_and_order`` (the function
the NetworkX backend calls: no check for parallel edges). The GPU's layers and order are
compared with the CPU's, and on graphs up to 600k vertices the CPU's are checked by
:func:`verify_onion_layers` (its time is recorded: it is O(n) NumPy work per layer).

Usage::

    python benchmarks/onion.py --graphs urand:17 grid:708 kron:20 urand:22 --out onion.json
"""

from __future__ import annotations

import argparse
import json
import statistics
import time

import numpy as np
from nx_backend import edges_for  # (the benchmark graphs' specs, shared)

import warpgraph as wg
from warpgraph.algorithms.kcore.onion import layers_and_order
from warpgraph.algorithms.kcore.verify import verify_onion_layers

VERIFY_MAX_VERTICES = 600_000


def build(spec: str) -> wg.Graph:
    """The simple undirected graph of a spec of ``nx_backend.py`` (``urand:S``, ``kron:S``,
    ``grid:R``, ...): its edges without self-loops, repeated edges merged."""
    n, s, d = edges_for(spec)
    return wg.Graph.from_edges(s, d, num_vertices=n, directed=False, merge="first")


def median_time(call, dev: str, repeat: int) -> tuple[float, object]:
    """Median seconds of ``repeat`` calls of ``call()`` after an untimed one (the GPU
    synchronized after each), and the last result."""
    sync = (lambda: None) if dev == "cpu" else wg.device.cupy().cuda.Device().synchronize
    result = call()
    sync()
    times = []
    for _ in range(repeat):
        t0 = time.perf_counter()
        result = call()
        sync()
        times.append(time.perf_counter() - t0)
    return statistics.median(times), result


def timed(G: wg.Graph, dev: str, repeat: int) -> tuple[float, tuple]:
    """:func:`median_time` of ``layers_and_order(G, dev)``."""
    return median_time(lambda: layers_and_order(G, dev), dev, repeat)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--graphs", nargs="+", default=["urand:17", "grid:708"])
    ap.add_argument("--devices", nargs="+", default=["cpu", "gpu"], choices=["cpu", "gpu"])
    ap.add_argument("--repeat", type=int, default=5)
    ap.add_argument("--out", help="JSON file for the results")
    args = ap.parse_args()
    out = {}
    for spec in args.graphs:
        G = build(spec)
        row = {"n": G.num_vertices, "arcs": int(G.num_arcs)}
        results = {}
        for dev in args.devices:
            seconds, results[dev] = timed(G if dev == "cpu" else G.to("gpu"), dev, args.repeat)
            row[f"{dev}_ms"] = 1e3 * seconds
            row[f"{dev}_layers"] = int(results[dev][0].max()) if G.num_vertices else 0
        if "cpu" in results and "gpu" in results:
            cpu, gpu = results["cpu"], results["gpu"]
            row["gpu_equal_cpu"] = all(
                np.array_equal(c, g.get()) for c, g in zip(cpu, gpu, strict=True)
            )
        if "cpu" in results and G.num_vertices <= VERIFY_MAX_VERTICES:
            t0 = time.perf_counter()
            verify_onion_layers(G, *results["cpu"])
            row["verify_s"] = time.perf_counter() - t0
        print(spec, row, flush=True)
        out[spec] = row
    if args.out:
        with open(args.out, "w") as f:
            json.dump(out, f, indent=1)


if __name__ == "__main__":
    main()
