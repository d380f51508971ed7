"""``warpgraph sssp FILE --source ...``: single-source shortest paths from the command line.

Loads a graph (any supported format; its weights, or 1 per edge when it has none), runs SSSP
from the given sources (or random non-isolated ones), prints per source the time, the vertices
reached, the largest finite distance and GTEPS (edges of the reached part, undirected edges
once), optionally verifies each result and writes the distances.
"""

from __future__ import annotations

import argparse
import json
import statistics
import time

from ._common import add_compact_ids, file_vertex, graph_vertices
from .ui import console, load_with_progress, print_table


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "sssp",
        help="single-source shortest paths: time, reach, distances",
        description="Shortest-path distances from one or more sources (the graph's weights, or "
        "1 per edge when it has none). Prints, per source, the time (CUDA events on the GPU), "
        "the vertices reached, the largest distance and GTEPS. Methods: delta (delta-stepping), "
        "near_far, hbf (Bellman-Ford frontier, negative weights allowed), dijkstra (CPU "
        "reference); auto picks hbf for negative weights, else delta. --verify checks every "
        "result (triangle inequality on every arc, tight shortest-path tree).",
    )
    p.add_argument("file", help="graph file (format detected from name and header)")
    p.add_argument("--format", help="file format when detection is not enough")
    p.add_argument("--undirected", action="store_true", help="read the edges as undirected")
    add_compact_ids(p)
    p.add_argument(
        "--source",
        type=int,
        action="append",
        help="start vertex (repeat for several); default: --random random non-isolated sources",
    )
    p.add_argument("--sources-file", help="text file with one start vertex per line")
    p.add_argument("--random", type=int, default=8, help="random sources when none is given")
    p.add_argument("--seed", type=int, default=1)
    p.add_argument(
        "--method", default="auto", choices=["auto", "delta", "near_far", "hbf", "dijkstra"]
    )
    p.add_argument("--delta", type=float, help="bucket width of delta / near_far (default: auto)")
    p.add_argument("--device", default="auto", choices=["auto", "cpu", "gpu"])
    p.add_argument(
        "--no-filtering", action="store_true", help="turn frontier filtering off (to measure it)"
    )
    p.add_argument("--verify", action="store_true", help="check every result")
    p.add_argument(
        "--output",
        help="write the distances: .npy (all sources, one row each) or text (first source, "
        "one line per vertex, 'inf' when unreachable)",
    )
    p.add_argument("--json", action="store_true", help="print the results as JSON")
    p.set_defaults(func=run)


def _sources(args, G, deg):
    import numpy as np

    from warpgraph.errors import InvalidArgumentError

    chosen = list(args.source or [])
    if args.sources_file:
        try:
            text = open(args.sources_file).read().split()  # noqa: SIM115
            chosen += [int(x) for x in text]
        except (OSError, ValueError) as exc:
            raise InvalidArgumentError(f"--sources-file {args.sources_file}: {exc}") from exc
    if chosen:
        return graph_vertices(G, np.array(chosen, dtype=np.int64), args.file)
    candidates = np.flatnonzero(deg > 0)
    if candidates.size == 0:
        raise InvalidArgumentError(f"{args.file}: no vertex has an out-edge; give --source")
    rng = np.random.default_rng(args.seed)
    return rng.choice(candidates, size=min(args.random, candidates.size), replace=False)


def _write(path: str, rows) -> None:
    import os

    import numpy as np

    tmp = path + ".tmp"
    if path.endswith(".npy"):
        with open(tmp, "wb") as f:
            np.save(f, np.stack(rows))
    else:
        d = rows[0]
        with open(tmp, "w") as f:
            if d.dtype.kind == "f":
                np.savetxt(f, d, fmt="%.9g")
            else:
                big = d == np.iinfo(np.int64).max
                f.writelines("inf\n" if b else f"{int(x)}\n" for x, b in zip(d, big, strict=True))
    os.replace(tmp, path)


def run(args: argparse.Namespace) -> int:
    import numpy as np

    from warpgraph._arrays import to_host
    from warpgraph.algorithms.sssp import sssp, verify_sssp
    from warpgraph.device import resolve_device

    kwargs = {"format": args.format}
    if args.undirected:
        kwargs["directed"] = False
    if args.compact_ids:
        kwargs["compact_ids"] = True
    G = load_with_progress(args.file, **kwargs)
    dev = "cpu" if args.method == "dijkstra" else resolve_device(args.device)
    G = G.to(dev)
    deg = to_host(G.out_degree())
    sources = _sources(args, G, deg)
    opts = {"method": args.method, "delta": args.delta, "filtering": not args.no_filtering}
    # warm-up (compilation), and the input checks before any timing
    sssp(G, int(sources[0]), predecessors=args.verify, device=dev, **opts)
    rows, records, kept = [], [], []
    for s in sources:
        t0 = time.perf_counter()
        if args.verify:
            dist, pred = sssp(G, int(s), predecessors=True, device=dev, **opts)
        else:
            dist, pred = sssp(G, int(s), device=dev, **opts), None
        if dev == "gpu":
            import cupy

            cupy.cuda.Device().synchronize()
        seconds = time.perf_counter() - t0
        d = to_host(dist)
        reached = np.isfinite(d) if d.dtype.kind == "f" else d != np.iinfo(np.int64).max
        arcs = int(deg[reached].sum())
        edges = arcs if G.directed else arcs // 2
        if args.verify:
            verify_sssp(G, int(s), d, to_host(pred))
        if args.output and (args.output.endswith(".npy") or not kept):
            kept.append(d)
        far = d[reached].max() if reached.any() else 0
        rec = {
            "source": file_vertex(G, s),
            "ms": seconds * 1e3,
            "reached": int(reached.sum()),
            "max_distance": far.item(),
            "edges": edges,
            "gteps": edges / seconds / 1e9 if seconds > 0 else None,
            "verified": bool(args.verify),
        }
        records.append(rec)
        rows.append((rec["source"], rec["ms"], rec["reached"], rec["max_distance"], rec["gteps"]))
    if args.output:
        _write(args.output, kept)
    summary = {
        "graph": args.file,
        "device": dev,
        "method": args.method,
        "n": G.num_vertices,
        "edges": G.num_edges,
        "weights": None if G.weights is None else str(G.weights.dtype),
        "median_ms": statistics.median(r["ms"] for r in records),
        "results": records,
    }
    if args.json:
        console.print_json(json.dumps(summary))
        return 0
    title = (
        f"SSSP ({args.method}) on {dev}: {args.file} ({G.num_vertices:,} vertices, "
        f"{G.num_edges:,} edges, weights {summary['weights'] or 'none (1 per edge)'})"
    )
    print_table(title, ["source", "ms (wall)", "reached", "max distance", "GTEPS"], rows)
    console.print(
        f"median {summary['median_ms']:.3f} ms per source (wall clock, includes the host calls)"
        + ("; all results verified" if args.verify else "")
    )
    return 0
