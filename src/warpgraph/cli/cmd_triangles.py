"""``warpgraph triangles FILE``: triangle count, transitivity and clustering from the command line.

The helpers it shares with ``kcore``, ``ktruss`` and ``triads`` are in ``cli/_common.py``.
"""

from __future__ import annotations

import argparse

from ._common import add_common, load, report, save, summarize, timed


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "triangles",
        help="triangle count, transitivity, clustering",
        description="Counts the triangles of a graph (a directed graph is symmetrized; loops "
        "are ignored and parallel edges count once) and prints the total, the transitivity, the "
        "average local clustering and the vertex with most triangles. --output saves the "
        "triangles of every vertex (.npy); --verify recounts them with SciPy.",
    )
    add_common(p)
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    import numpy as np

    from warpgraph._arrays import to_host
    from warpgraph.algorithms.triangles import prep, triangles
    from warpgraph.algorithms.triangles.verify import verify_triangles

    G, dev = load(args, undirected=True)
    t, seconds = timed("counting triangles", lambda: triangles(G, device=dev), dev)
    th = to_host(t)
    g = G.to("cpu")
    sdeg = prep.simple_degrees(g.indptr, g.indices)
    pairs = sdeg * (sdeg - 1)
    total = int(th.sum()) // 3
    triples = int(pairs.sum()) // 2
    clus = np.where(pairs > 0, 2.0 * th / np.maximum(pairs, 1), 0.0)
    if args.verify:
        verify_triangles(G, t)
    save(args.output, t)
    top = int(th.argmax()) if th.size else -1
    results = {
        "triangles": total,
        "transitivity": 3 * total / triples if total else 0.0,
        "average clustering": float(clus.mean()) if clus.size else 0.0,
        "most triangles at": f"vertex {top} ({int(th[top]) if top >= 0 else 0})",
    }
    summary = summarize(args, G, dev, results, seconds)
    return report(args, f"triangles on {dev}: {args.file}", summary)
