"""``warpgraph harmonic FILE``: harmonic centrality of every vertex from the command line.

Loads a graph (unweighted: its weights are ignored), picks the sources (every vertex, or with
``--sources K`` a seeded uniform sample of K distinct vertices, as ``warpgraph betweenness``),
runs the searches once untimed on a one-vertex graph (compilation), then for every vertex,
timed, and prints the sources, the time, the highest vertex and, with ``--top K``, the K
highest values (with the vertex names of a Pajek file). On ``--device`` (the GPU's sums are the
CPU's bit for bit).
"""

from __future__ import annotations

import argparse

from ._common import add_common, load, save, summarize, timed
from .cmd_betweenness import add_sample, check_sample_and_top, sample_sources
from .cmd_pagerank import add_top, report_ranked, top_vertices


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "harmonic",
        help="harmonic centrality of every vertex (sum of 1/distance from the sources)",
        description="Harmonic centrality: for each vertex u the sum of 1/d(v, u) over the "
        "sources v that reach it (v != u; unweighted: the graph's weights are ignored; a "
        "directed graph's distances follow its arcs to u, --undirected reads the edges both "
        "ways). The sums are NetworkX's harmonic_centrality(G, sources=...) values, added "
        "in the sources' id order. --sources K takes a seeded sample of K distinct vertices "
        "(NumPy's default_rng(--seed)) and reports the sums over it; --normalized divides each "
        "vertex's sum by the number of sources other than itself (the mean inverse distance). "
        "Computed on --device (searches in groups of up to 64, iBFS's bit-parallel traversal; "
        "the GPU's sums are the CPU's bit for bit). Prints the number of sources, the time, "
        "the highest vertex and, with --top K, the K highest values (vertex names of a Pajek "
        "file beside the ids). "
        "--output saves the reported values (.npy, float64); --verify recomputes a sample of "
        "vertices from SciPy's distances, which must be equal bit for bit.",
    )
    add_common(p)
    add_sample(
        p,
        "sum over K distinct vertices drawn uniformly (NumPy's default_rng(--seed)); "
        "default: every vertex",
    )
    p.add_argument(
        "--normalized",
        action="store_true",
        help="divide each sum by the number of sources other than the vertex itself",
    )
    add_top(p, "list the K vertices of highest harmonic centrality (default 10)")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    import numpy as np

    import warpgraph as wg
    from warpgraph._arrays import to_host
    from warpgraph.algorithms.centrality import harmonic_centrality

    check_sample_and_top(args)
    G, dev = load(args, undirected=False, names=True)
    n = G.num_vertices
    sources = sample_sources(n, args.sources, args.seed)
    k = int(sources.size)
    one = wg.Graph.from_edges([], [], num_vertices=1)
    harmonic_centrality(one, device=dev)  # (compilation)
    h, seconds = timed("searches", lambda: harmonic_centrality(G, sources, device=dev), dev)
    h = to_host(h)
    if args.verify:
        from warpgraph.algorithms.centrality.verify_harmonic import verify_harmonic_centrality

        verify_harmonic_centrality(G, h, sources)
    if args.normalized:
        others = np.full(n, k, dtype=np.float64)
        others[sources] -= 1  # (a source's own term is not one)
        with np.errstate(invalid="ignore", divide="ignore"):
            h = np.where(others > 0, h / others, 0.0)
    save(args.output, h)
    labels = G.vertex_labels
    top = top_vertices(h, max(1, args.top or 0))
    highest = "-"
    if top.size:
        v = int(top[0])
        highest = f"vertex {v}" + ("" if labels is None else f" ({labels[v]})")
        highest += f": {h[v]:.6g}"
    results = {
        "sources": k,
        "sample": f"uniform, seed {args.seed}" if args.sources is not None else "every vertex",
        "normalized": bool(args.normalized),
        "searches per second": k / seconds if seconds > 0 else None,
        "highest": highest,
    }
    summary = summarize(args, G, dev, results, seconds)
    return report_ranked(
        args,
        summary,
        f"Harmonic centrality on {dev}: {args.file}",
        h,
        top[: args.top or 0],
        labels,
        ("harmonic", "harmonic", "vertices of highest harmonic centrality"),
        "verified: verify_harmonic_centrality accepts the sums",
    )
