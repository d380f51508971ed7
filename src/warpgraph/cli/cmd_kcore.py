"""``warpgraph kcore FILE``: core decomposition from the command line."""

from __future__ import annotations

import argparse

from .cmd_triangles import add_common, load, report, save, timed


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "kcore",
        help="core numbers (degeneracy, main core)",
        description="Core number of every vertex (the largest k whose k-core holds it; loops "
        "ignored, parallel edges once, in + out degree for a directed graph). Prints the "
        "degeneracy, the size of the main core or of the k-core given with -k, and the time. "
        "--output saves the core numbers (.npy); --verify checks them by a local certificate "
        "and an h-index recount.",
    )
    add_common(p)
    p.add_argument("-k", type=int, help="report the size of this k-core")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from warpgraph._arrays import to_host
    from warpgraph.algorithms.kcore import core_number
    from warpgraph.algorithms.kcore.verify import verify_core_numbers

    G, dev = load(args, undirected=False)
    core, seconds = timed("peeling cores", lambda: core_number(G, device=dev), dev)
    c = to_host(core)
    if args.verify:
        verify_core_numbers(G, c)
    save(args.output, c)
    kmax = int(c.max()) if c.size else 0
    k = kmax if args.k is None else args.k
    summary = {
        "graph": args.file,
        "device": dev,
        "vertices": G.num_vertices,
        "edges": G.num_edges,
        "degeneracy (max core)": kmax,
        f"vertices in the {k}-core": int((c >= k).sum()),
        "seconds": seconds,
        "verified": bool(args.verify),
    }
    return report(args, f"k-core on {dev}: {args.file}", summary)
