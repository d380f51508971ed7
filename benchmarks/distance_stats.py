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

import warpgraph as wg
from warpgraph.algorithms.bfs import distance_stats


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--scales", type=int, nargs="+", default=[16, 17])
    ap.add_argument("--cpu-max-scale", type=int, default=16, help="run the CPU up to this scale")
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--out", help="JSON file for the results")
    args = ap.parse_args()
    cp = wg.device.cupy()
    rows = []
    for scale in args.scales:
        n = 2**scale
        s, d = wg.generators.uniform_edges(n, 8 * n, seed=1, device="cpu")
        G = wg.Graph.from_edges(np.asarray(s), np.asarray(d), num_vertices=n, directed=False)
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
            row["gpu_equal_cpu"] = all(
                np.array_equal(c, g.get()) for c, g in zip(cpu, gpu, strict=True)
            )
        print(row, flush=True)
        rows.append(row)
    if args.out:
        with open(args.out, "w") as f:
            json.dump(rows, f, indent=1)


if __name__ == "__main__":
    main()
