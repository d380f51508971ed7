"""``warpgraph bfs FILE --source ...``: breadth-first search from the command line.

Loads a graph (any supported format), runs BFS from the given sources (or random non-isolated
ones), prints time and GTEPS per search (edges of the traversed component, an undirected edge
counted once, as Graph500), and optionally verifies each result and writes the levels.
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
        "bfs",
        help="breadth-first search: time, GTEPS, levels",
        description="Breadth-first search from one or more sources. Prints, per source, the time "
        "(CUDA events on the GPU), the number of levels, the vertices reached and GTEPS (edges of "
        "the traversed component, undirected edges once). --explain shows the engine "
        "configuration chosen for the graph and why; --verify runs Graph500's checks.",
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
    p.add_argument("--random", type=int, default=8, help="random sources when --source is absent")
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--direction", default="auto", choices=["auto", "top-down", "bottom-up"])
    p.add_argument("--device", default="auto", choices=["auto", "cpu", "gpu"])
    p.add_argument(
        "--config",
        help='engine options as JSON, e.g. \'{"load_balance": "bins", "sync": "level"}\'',
    )
    p.add_argument("--explain", action="store_true", help="print the chosen configuration")
    p.add_argument("--verify", action="store_true", help="check every result (Graph500 rules)")
    p.add_argument("--output", help="write the levels (one line per vertex) of the first source")
    p.add_argument("--json", action="store_true", help="print the results as JSON")
    p.set_defaults(func=run)


def _sync(device: str) -> None:
    if device == "gpu":
        import cupy

        cupy.cuda.Device().synchronize()


def run(args: argparse.Namespace) -> int:
    import numpy as np

    from warpgraph._arrays import to_host
    from warpgraph.algorithms.bfs import bfs, bfs_explain, verify_bfs
    from warpgraph.device import resolve_device
    from warpgraph.errors import InvalidArgumentError

    config = json.loads(args.config) if args.config else None
    if config is not None and not isinstance(config, dict):
        raise InvalidArgumentError("--config must be a JSON object")
    kwargs = {"format": args.format}
    if args.undirected:
        kwargs["directed"] = False
    if args.compact_ids:
        kwargs["compact_ids"] = True
    G = load_with_progress(args.file, **kwargs)
    dev = resolve_device(args.device)
    G = G.to(dev)
    deg = to_host(G.out_degree())
    if args.source:
        sources = graph_vertices(G, np.array(args.source, dtype=np.int64), args.file)
    else:
        candidates = np.flatnonzero(deg > 0)
        if candidates.size == 0:
            raise InvalidArgumentError(f"{args.file}: no vertex has an out-edge; give --source")
        rng = np.random.default_rng(args.seed)
        sources = rng.choice(candidates, size=min(args.random, candidates.size), replace=False)
    if args.explain:
        console.print(str(bfs_explain(G, config, dev)))
    bfs(G, int(sources[0]), direction=args.direction, config=config, device=dev)  # warm-up
    _sync(dev)
    rows, records, first_levels = [], [], None
    for s in sources:
        t0 = time.perf_counter()
        levels, parents = bfs(
            G, int(s), parents=True, direction=args.direction, config=config, device=dev
        )
        _sync(dev)
        seconds = time.perf_counter() - t0
        lv = to_host(levels)
        reached = lv >= 0
        arcs = int(deg[reached].sum())
        edges = arcs if G.directed else arcs // 2
        if args.verify:
            verify_bfs(G, int(s), lv, to_host(parents))
        if first_levels is None:
            first_levels = lv
        rec = {
            "source": file_vertex(G, s),
            "ms": seconds * 1e3,
            "levels": int(lv.max()) + 1,
            "reached": int(reached.sum()),
            "edges": edges,
            "gteps": edges / seconds / 1e9 if seconds > 0 else None,
            "verified": bool(args.verify),
        }
        records.append(rec)
        rows.append((rec["source"], rec["ms"], rec["levels"], rec["reached"], rec["gteps"]))
    if args.output:
        np.savetxt(args.output, first_levels, fmt="%d")
    summary = {
        "graph": args.file,
        "device": dev,
        "n": G.num_vertices,
        "edges": G.num_edges,
        "median_ms": statistics.median(r["ms"] for r in records),
        "results": records,
    }
    if args.json:
        console.print_json(json.dumps(summary))
        return 0
    title = f"BFS on {dev}: {args.file} ({G.num_vertices:,} vertices, {G.num_edges:,} edges)"
    print_table(title, ["source", "ms (wall)", "levels", "reached", "GTEPS"], rows)
    console.print(
        f"median {summary['median_ms']:.3f} ms per search (wall clock, includes the host calls)"
        + ("; all results verified" if args.verify else "")
    )
    return 0
