"""``is_aperiodic`` first calls through the NetworkX backend on strongly connected digraphs.

The directed graphs of ``nx_backend.py`` are not strongly connected (``is_aperiodic`` raises
there after its strong check), so this takes both arcs of every edge of its undirected graphs
(empty data dicts): urand:17 (aperiodic) and grid:708 (bipartite: period 2). NetworkX runs
once (seconds), the backend five times with the conversion cache cleared; every answer is
checked equal to NetworkX's. The device is the backend's configured one.

    python benchmarks/nx_aperiodic.py --out benchmarks/results/nx_aperiodic.json
"""

from __future__ import annotations

import argparse
import json
import statistics
import time

import networkx as nx
import nx_backend as bench

import warpgraph.nx  # noqa: F401  (registers nothing itself: the entry point does)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--graphs", nargs="+", default=["urand:17:unweighted", "grid:708:unweighted"])
    ap.add_argument("--repeat", type=int, default=5)
    ap.add_argument("--out", default=None)
    args = ap.parse_args()
    nx.config.warnings_to_ignore.add("cache")
    nx.is_aperiodic(nx.DiGraph([(0, 1), (1, 0), (1, 1)]), backend="warpgraph")  # compile
    rows = {}
    for spec in args.graphs:
        D = nx.DiGraph(bench.build(spec)["U"])
        t = time.perf_counter()
        want = nx.is_aperiodic(D)
        networkx_s = time.perf_counter() - t
        runs = []
        for _ in range(args.repeat):
            D.__networkx_cache__.clear()
            t = time.perf_counter()
            got = nx.is_aperiodic(D, backend="warpgraph")
            runs.append(time.perf_counter() - t)
            assert got == want, (spec, got, want)
        median = statistics.median(runs)
        rows[spec] = {"answer": want, "networkx_s": networkx_s, "backend_cold_s": runs,
                      "speedup_cold": networkx_s / median}  # fmt: skip
        print(f"{spec}: {want}; NetworkX {networkx_s:.3f} s, backend {median * 1e3:.1f} ms "
              f"({networkx_s / median:.1f}x)", flush=True)  # fmt: skip
    if args.out:
        with open(args.out, "w") as f:
            json.dump({"benchmark": "nx_aperiodic", "results": rows}, f, indent=1)


if __name__ == "__main__":
    main()
