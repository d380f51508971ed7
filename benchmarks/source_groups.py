"""``distance_stats`` (``--what stats``), harmonic centrality (``harmonic``: every target's
searches) and global efficiency's sum (``efficiency``: each wave's sources grouped among
themselves) on the CPU from every vertex, the searches grouped by neighbourhood
(``warpgraph.algorithms.bfs.source_groups``, the default) against the id order.

Both orders run in turn in each round (median of ``--repeat`` rounds, after one untimed call of
each on the graph); the results must be equal (the sums bit for bit). Graphs:
``urand:S``, ``grid:R``, or ``file:PATH.npz`` (arrays ``src``, ``dst``, ``n``: an undirected
graph).

Usage::

    cd benchmarks; python source_groups.py --graphs grid:128 urand:14 --what stats harmonic
"""

from __future__ import annotations

import argparse
import statistics
import time

import numpy as np
from _common import dump_rows
from ibfs_sparse import load

from warpgraph.algorithms.bfs import distance_stats, multi_source
from warpgraph.algorithms.bfs.efficiency import efficiency_sum
from warpgraph.algorithms.centrality import harmonic_centrality

CALLS = {
    "stats": lambda G: distance_stats(G, device="cpu"),
    "harmonic": lambda G: (harmonic_centrality(G, device="cpu"),),
    "efficiency": lambda G: (np.float64(efficiency_sum(G, device="cpu")),),
}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--graphs", nargs="+", default=["grid:128", "urand:14"])
    ap.add_argument("--what", nargs="+", default=["stats"], choices=sorted(CALLS))
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--out", help="JSON file for the results")
    args = ap.parse_args()
    rows = []
    for spec in args.graphs:
        G = load(spec)
        for what in args.what:
            rows.append(compare(G, spec, what, args.repeat))
    dump_rows(args.out, "source_groups", rows)


def compare(G, spec: str, what: str, repeat: int) -> dict:
    """One graph and call: both orders, round by round; the row of the results file."""
    import numba

    results, times = {}, {"grouped": [], "ids": []}
    for rnd in range(repeat + 1):  # (round 0 untimed: compilation, first touches)
        for mode in times:
            multi_source.GROUP_BY_NEIGHBOURHOOD = mode == "grouped"
            t0 = time.perf_counter()
            results[mode] = CALLS[what](G)
            if rnd:
                times[mode].append(time.perf_counter() - t0)
    multi_source.GROUP_BY_NEIGHBOURHOOD = True
    equal = all(np.array_equal(a, b) for a, b in zip(*results.values(), strict=True))
    seconds = {m: statistics.median(t) for m, t in times.items()}
    row = {"graph": spec, "what": what, "vertices": G.num_vertices, "arcs": int(G.num_arcs),
           "threads": numba.get_num_threads(), "seconds": seconds, "times_s": times,
           "speedup": seconds["ids"] / seconds["grouped"], "equal": equal}  # fmt: skip
    print({k: row[k] for k in ("graph", "what", "seconds", "speedup", "equal")}, flush=True)
    return row


if __name__ == "__main__":
    main()
