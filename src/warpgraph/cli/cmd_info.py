"""``warpgraph info [FILE]``: versions and devices, or statistics of a graph file."""

from __future__ import annotations

import argparse
import time
from pathlib import Path

from .ui import console, load_with_progress, print_table


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "info",
        help="show versions and devices, or statistics of a graph file",
        description="Without FILE: versions, CPU threads and GPUs. With FILE: load the graph "
        "(any supported format, compressed or not) and print its statistics: vertices, edges, "
        "degree average/max/std, Gini coefficient of degrees, isolated vertices, self-loops, an "
        "approximate diameter (double-sweep BFS) and the number of weak components.",
    )
    p.add_argument("file", nargs="?", help="graph file (format detected from name and header)")
    p.add_argument("--format", help="file format when detection is not enough (e.g. mtx, edgelist)")
    p.add_argument("--undirected", action="store_true", help="read the edges as undirected")
    p.add_argument("--device", default="auto", choices=["auto", "cpu", "gpu"])
    p.add_argument("--no-diameter", action="store_true", help="skip the diameter estimate")
    p.add_argument("--json", action="store_true", help="print the statistics as JSON")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    import warpgraph as wg

    if args.file is None:
        wg.info()
        return 0
    kwargs = {"format": args.format}
    if args.undirected:
        kwargs["directed"] = False
    t0 = time.perf_counter()
    G = load_with_progress(args.file, **kwargs)
    t_load = time.perf_counter() - t0
    G = G.to(args.device)
    t0 = time.perf_counter()
    s = wg.stats(G, diameter=not args.no_diameter)
    t_stats = time.perf_counter() - t0
    s["load_seconds"], s["stats_seconds"], s["device"] = t_load, t_stats, G.device
    if args.json:
        import json

        console.print_json(json.dumps(s))
    else:
        print_table(Path(args.file).name, ["statistic", "value"], [(k, v) for k, v in s.items()])
    return 0
