"""Betweenness centrality times (``warpgraph.algorithms.betweenness``): Brandes' searches from
``--sources`` sampled vertices on the CPU (a search per Numba worker) and the GPU (a search
per thread block), on generated graphs.

Each graph is built undirected without self-loops or repeated edges; the same sample of
sources (seeded) is timed ``--repeat`` times after one untimed call (median; the GPU
synchronized) through ``dependency_sums`` (the function the NetworkX backend calls). Reported:
milliseconds, searches per second, and arcs per second (``sources * arcs / seconds``, each
search touching every arc about three times). The GPU's values are compared with the CPU's
(to rounding: the dependencies are added in another order) and the CPU's checked by
:func:`verify_betweenness` (the total, and 2 vertices recomputed from the definition, on graphs
up to ``--verify-max-vertices``).

Usage::

    python benchmarks/betweenness.py --graphs urand:17 grid:708 kron:18 --sources 1024 \\
        --out betweenness.json
"""

from __future__ import annotations

import argparse
import json
import time
from functools import partial

import numpy as np
from onion import build, median_time  # (the benchmark graphs; the timing loop)

from warpgraph.algorithms.betweenness import gpu as gpu_module
from warpgraph.algorithms.betweenness.api import dependency_sums
from warpgraph.algorithms.betweenness.verify import verify_betweenness


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--graphs", nargs="+", default=["urand:17", "grid:708"])
    ap.add_argument("--devices", nargs="+", default=["cpu", "gpu"], choices=["cpu", "gpu"])
    ap.add_argument("--sources", type=int, default=256)
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--verify-max-vertices", type=int, default=200_000)
    ap.add_argument("--blocks-per-sm", type=int, nargs="+", default=None, help="GPU: time each")
    ap.add_argument("--out", help="JSON file for the results")
    args = ap.parse_args()
    out = {}
    for spec in args.graphs:
        G = build(spec)
        n = G.num_vertices
        sources = np.random.default_rng(1).choice(n, min(n, args.sources), replace=False)
        row = {"n": n, "arcs": int(G.num_arcs), "sources": int(sources.size)}
        results = {}
        for dev in args.devices:
            for per_sm in (args.blocks_per_sm or [None]) if dev == "gpu" else [None]:
                key = dev if per_sm is None else f"{dev}_{per_sm}_per_sm"
                if per_sm is not None:
                    gpu_module.BLOCKS_PER_SM = per_sm
                seconds, results[dev] = median_time(
                    partial(dependency_sums, G.to(dev), sources, False, dev), dev, args.repeat
                )
                row[f"{key}_ms"] = 1e3 * seconds
                row[f"{key}_searches_per_s"] = sources.size / seconds
                row[f"{key}_arcs_per_s"] = sources.size * G.num_arcs / seconds
        if "cpu" in results and "gpu" in results:
            cpu, gpu = results["cpu"], results["gpu"].get()
            row["gpu_vs_cpu_max_rel"] = float(np.max(np.abs(gpu - cpu) / np.maximum(cpu, 1.0)))
        if "cpu" in results and n <= args.verify_max_vertices:
            t0 = time.perf_counter()
            verify_betweenness(G, results["cpu"], sources, samples=2)
            row["verify_s"] = time.perf_counter() - t0
        print(spec, row, flush=True)
        out[spec] = row
    if args.out:
        with open(args.out, "w") as f:
            json.dump(out, f, indent=1)


if __name__ == "__main__":
    main()
