"""Many searches at once (``warpgraph.algorithms.bfs.distance_stats``): a BFS from every vertex of
``urand:S`` graphs, GPU timed ``--repeat`` times in one process (the first call included, so its
one-time costs show), optionally the CPU on all threads, and the GPU's results compared with the
CPU's where both ran.

Usage::

    python benchmarks/distance_stats.py --scales 16 17 --cpu-max-scale 16
"""

from __future__ import annotations

import argparse
import json
import time

import numpy as np
from _common import urand_or_grid

import warpgraph as wg
from warpgraph.algorithms.bfs import distance_stats


def _equal(cpu, gpu) -> bool:
    return all(np.array_equal(c, g.get()) for c, g in zip(cpu, gpu, strict=True))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--scales", type=int, nargs="+", default=[16, 17])
    ap.add_argument("--cpu-max-scale", type=int, default=16, help="run the CPU up to this scale")
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--grids", type=int, nargs="*", default=[], help="lattice sides (64 sources)")
    ap.add_argument("--out", help="JSON file for the results")
    args = ap.parse_args()
    cp = wg.device.cupy()
    rows = []
    for scale in args.scales:
        G = urand_or_grid(f"urand:{scale}")
        on_gpu = G.to("gpu")
        distance_stats(on_gpu, np.arange(64), device="gpu")  # (kernels compiled: one group)
        cp.cuda.Device().synchronize()
        times = []
        for _ in range(args.repeat):
            t0 = time.perf_counter()
            gpu = distance_stats(on_gpu, device="gpu")
            cp.cuda.Device().synchronize()
            times.append(time.perf_counter() - t0)
        row = {"graph": f"urand:{scale}", "arcs": int(G.num_arcs), "gpu_s": times}
        if scale <= args.cpu_max_scale:
            t0 = time.perf_counter()
            cpu = distance_stats(G, device="cpu")
            row["cpu_s"] = time.perf_counter() - t0
            row["gpu_equal_cpu"] = _equal(cpu, gpu)
        print(row, flush=True)
        rows.append(row)
    for side in args.grids:
        G = urand_or_grid(f"grid:{side}")
        on_gpu = G.to("gpu")
        picked = np.sort(np.random.default_rng(1).choice(G.num_vertices, 64, replace=False))
        times = []
        for _ in range(args.repeat):
            t0 = time.perf_counter()
            gpu = distance_stats(on_gpu, picked, device="gpu")
            cp.cuda.Device().synchronize()
            times.append(time.perf_counter() - t0)
        t0 = time.perf_counter()
        cpu = distance_stats(G, picked, device="cpu")
        row = {"graph": f"grid:{side}", "sources": 64, "arcs": int(G.num_arcs), "gpu_s": times,
               "cpu_s": time.perf_counter() - t0}  # fmt: skip
        row["gpu_equal_cpu"] = _equal(cpu, gpu)
        print(row, flush=True)
        rows.append(row)
    if args.out:
        with open(args.out, "w") as f:
            json.dump(rows, f, indent=1)


if __name__ == "__main__":
    main()
