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
    """Map the per-edge answer onto the oriented edges and run the verifier."""
    import numpy as np

    from warpgraph.algorithms.ktruss.verify import verify_trussness
    from warpgraph.algorithms.triangles import prep

    g = G.to("cpu")
    o = prep.orient(g.indptr, g.indices)
    src, dst, _ = g.edges()
    keep = src != dst
    n = max(g.num_vertices, 1)
    ru, rv = o.rank[src[keep]].astype(np.int64), o.rank[dst[keep]].astype(np.int64)
    okey = o.src.astype(np.int64) * n + o.indices
    eid = np.searchsorted(okey, np.minimum(ru, rv) * n + np.maximum(ru, rv))
    per_edge = np.zeros(o.num_arcs, dtype=np.int64)
    per_edge[eid] = t[keep]
    verify_trussness(o, per_edge)
