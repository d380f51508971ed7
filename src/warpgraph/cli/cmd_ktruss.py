"""``warpgraph ktruss FILE``: truss decomposition from the command line."""

from __future__ import annotations

import argparse

from .cmd_triangles import add_common, load, report, save, timed


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "ktruss",
        help="truss decomposition (trussness of every edge)",
        description="Trussness of every edge (the largest k whose k-truss, every edge in at "
        "least k - 2 triangles, holds it; a directed graph is symmetrized, loops get 0). Prints "
        "the largest truss and the edges of the k-truss given with -k. --output saves the "
        "trussness aligned with the graph's edge list (.npy); --verify checks it by a local "
        "certificate and a recount.",
    )
    add_common(p)
    p.add_argument("-k", type=int, help="report the size of this k-truss")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from warpgraph._arrays import to_host
    from warpgraph.algorithms.ktruss import truss_decomposition

    G, dev = load(args, undirected=True)
    truss, seconds = timed("peeling trusses", lambda: truss_decomposition(G, device=dev), dev)
    t = to_host(truss)
    if args.verify:
        _verify(G, t)
    save(args.output, t)
    kmax = int(t.max()) if t.size else 0
    k = kmax if args.k is None else args.k
    summary = {
        "graph": args.file,
        "device": dev,
        "vertices": G.num_vertices,
        "edges": G.num_edges,
        "largest truss k": kmax,
        f"edges in the {k}-truss": int((t >= k).sum()),
        "seconds": seconds,
        "verified": bool(args.verify),
    }
    return report(args, f"k-truss on {dev}: {args.file}", summary)


def _verify(G, t) -> None:
    from warpgraph.algorithms.ktruss.verify import verify_truss_decomposition

    verify_truss_decomposition(G, t)
