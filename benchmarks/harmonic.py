"""Harmonic centrality (``warpgraph.algorithms.centrality.harmonic_centrality``): GPU against
the CPU on all threads, the same call on the same graph, results compared bit for bit.

Four cases per graph, each a different way through the code:

- ``all``: every source, every target (on the GPU searches from the sources, a thread per
  target adding each batch's terms); ``urand`` graphs only: each GPU level step reads every
  word of the batch, so a lattice's thousand levels times its thousands of groups is long;
- ``sample``: 64 sampled sources, every target (NetworkX backend's benchmark case);
- ``targets``: every source, 64 sampled targets (searches from the targets, a thread per
  target walking every source);
- ``targets_thread``: ``targets`` with the sums a thread per search (the kernel before
  ``WARP_SUMS_BELOW``'s warp per search), for the comparison;
- ``distance``: as ``targets`` with ``order="distance"`` (per-level counts, no level table).

The GPU is timed ``--repeat`` times in one process after one untimed call on a small graph
(kernel compilation), first call included; the CPU ``--cpu-repeat`` times per case (median:
single CPU calls varied up to 10x between runs on the same 16-thread host in session 59) up to
``--cpu-max-scale`` (``all`` is quadratic: the CPU's ``all`` only up to
``--cpu-all-max-scale``).

Usage::

    python benchmarks/harmonic.py --graphs urand:16 urand:17 grid:512 --out h.json
"""

from __future__ import annotations

import argparse
import json
import statistics
import time

import numpy as np
from _common import urand_or_grid

import warpgraph as wg
from warpgraph.algorithms.centrality import harmonic_centrality, harmonic_gpu

SAMPLE = 64


def cases(n: int) -> dict[str, dict]:
    rng = np.random.default_rng(1)
    picked = np.sort(rng.choice(n, min(SAMPLE, n), replace=False))
    return {
        "all": {},
        "sample": {"sources": picked},
        "targets": {"targets": picked},
        "targets_thread": {"targets": picked},
        "distance": {"targets": picked, "order": "distance"},
    }


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--graphs", nargs="+", default=["urand:16", "urand:17", "grid:512"])
    ap.add_argument("--cases", nargs="+", default=[*cases(1)])
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--cpu-repeat", type=int, default=3, help="CPU calls per case (median)")
    ap.add_argument("--cpu-max-scale", type=int, default=17, help="urand scales the CPU runs")
    ap.add_argument("--cpu-all-max-scale", type=int, default=16, help="the CPU's 'all' case")
    ap.add_argument("--no-cpu", action="store_true")
    ap.add_argument("--out", help="JSON file for the results")
    args = ap.parse_args()
    cp = wg.device.cupy()
    import numba

    tiny = wg.Graph.from_edges([0, 1], [1, 2], num_vertices=3, directed=False)
    for order in ("given", "distance"):  # (compilation, both devices)
        for dev in ("gpu", "cpu"):
            harmonic_centrality(tiny, targets=[0], order=order, device=dev)
            harmonic_centrality(tiny, sources=[0], device=dev)
    warp_default = harmonic_gpu.WARP_SUMS_BELOW
    rows = []
    for spec in args.graphs:
        G = urand_or_grid(spec)
        on_gpu = G.to("gpu")
        n = G.num_vertices
        scale = int(np.log2(n)) if spec.startswith("urand") else 0
        for name, kwargs in cases(n).items():
            if name not in args.cases or (name == "all" and not spec.startswith("urand")):
                continue
            harmonic_gpu.WARP_SUMS_BELOW = 0 if name == "targets_thread" else warp_default
            times = []
            for _ in range(args.repeat):
                t0 = time.perf_counter()
                gpu = harmonic_centrality(on_gpu, device="gpu", **kwargs)
                cp.cuda.Device().synchronize()
                times.append(time.perf_counter() - t0)
            row = {"graph": spec, "case": name, "vertices": n, "arcs": int(G.num_arcs),
                   "gpu_s": times}  # fmt: skip
            cpu_ok = not args.no_cpu and scale <= args.cpu_max_scale
            if name == "all" and scale > args.cpu_all_max_scale:
                cpu_ok = False
            if cpu_ok:
                cpu_times = []
                for _ in range(args.cpu_repeat):
                    t0 = time.perf_counter()
                    cpu = harmonic_centrality(G, device="cpu", **kwargs)
                    cpu_times.append(time.perf_counter() - t0)
                row["cpu_s"] = statistics.median(cpu_times)
                row["cpu_all_s"] = cpu_times
                row["cpu_threads"] = numba.get_num_threads()
                row["gpu_equal_cpu_bits"] = bool(np.array_equal(cpu, gpu.get()))
                row["speedup"] = row["cpu_s"] / min(times)
            print(json.dumps(row), flush=True)
            rows.append(row)
    if args.out:
        meta = {"device": cp.cuda.runtime.getDeviceProperties(0)["name"].decode(),
                "date": time.strftime("%Y-%m-%d"), "rows": rows}  # fmt: skip
        with open(args.out, "w") as f:
            json.dump(meta, f, indent=1)


if __name__ == "__main__":
    main()
