"""Global efficiency (``warpgraph.algorithms.bfs.efficiency_sum``, the sum behind
``global_efficiency`` and ``harmonic_diameter``): the searches on the GPU against the CPU on all
threads, the same call on the same graph, the two sums compared bit for bit.

Every source is searched (the sum is over all ordered pairs). Each device's time is the median
of ``--repeat`` calls after one untimed call on a small graph (compilation). For the split of
the GPU's time, ``searches_gpu_s`` is ``distance_stats`` from every source on the GPU (the same
searches, three numbers kept per search instead of a count per level, no host additions).

Usage::

    cd benchmarks; python efficiency.py --graphs urand:14 urand:16 grid:128 --out e.json
"""

from __future__ import annotations

import argparse
import statistics
import time

import numpy as np
from _common import dump_rows, sync, urand_or_grid

import warpgraph as wg
from warpgraph.algorithms.bfs import distance_stats
from warpgraph.algorithms.bfs.efficiency import efficiency_sum


def timed(fn, G, repeat: int, device: str) -> tuple[float, float]:
    """The median seconds of ``repeat`` calls ``fn(G, device=device)``, and the last result."""
    times, result = [], None
    for _ in range(repeat):
        t0 = time.perf_counter()
        result = fn(G, device=device)
        sync(device)
        times.append(time.perf_counter() - t0)
    return statistics.median(times), result


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--graphs", nargs="+", default=["urand:14", "urand:16", "grid:128"])
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--cpu-repeat", type=int, default=1)
    ap.add_argument("--no-cpu", action="store_true")
    ap.add_argument("--out", help="JSON file for the results")
    args = ap.parse_args()
    import numba

    tiny = wg.Graph.from_edges([0, 1], [1, 2], num_vertices=3, directed=False)
    devices = ["gpu"] + ([] if args.no_cpu else ["cpu"])
    for dev in devices:
        efficiency_sum(tiny, device=dev)  # (compilation)
    distance_stats(tiny, device="gpu")
    rows = []
    for spec in args.graphs:
        G = urand_or_grid(spec)
        on_gpu = G.to("gpu")
        row = {"graph": spec, "vertices": G.num_vertices, "arcs": int(G.num_arcs)}
        gpu_s, gpu = timed(efficiency_sum, on_gpu, args.repeat, "gpu")
        searches_s, _ = timed(distance_stats, on_gpu, args.repeat, "gpu")
        row.update(gpu_s=gpu_s, searches_gpu_s=searches_s, sum=gpu)
        if not args.no_cpu:
            cpu_s, cpu = timed(efficiency_sum, G, args.cpu_repeat, "cpu")
            row.update(cpu_s=cpu_s, cpu_threads=numba.get_num_threads(), speedup=cpu_s / gpu_s,
                       gpu_equal_cpu_bits=bool(np.float64(cpu) == np.float64(gpu)))  # fmt: skip
        print(row, flush=True)
        rows.append(row)
    dump_rows(args.out, "efficiency", rows)


if __name__ == "__main__":
    main()
