"""``warpgraph triangles FILE``: triangle count, transitivity and clustering from the command line.

Also holds the helpers its siblings ``kcore``, ``ktruss`` and ``triads`` share: the common
options, loading (symmetrized where the algorithm needs an undirected graph) and timing with a
spinner on long runs.
"""

from __future__ import annotations

import argparse
import json
import time
from collections.abc import Callable
from typing import Any

from .ui import console, print_table, progress


def add_common(p: argparse.ArgumentParser) -> None:
    """Options every command of this family takes."""
    p.add_argument("file", help="graph file (format detected from name and header)")
    p.add_argument("--format", help="file format when detection is not enough")
    p.add_argument("--undirected", action="store_true", help="read the edges as undirected")
    p.add_argument("--device", default="auto", choices=["auto", "cpu", "gpu"])
    p.add_argument("--verify", action="store_true", help="check the result by another method")
    p.add_argument("--output", help="write the per-vertex (or per-edge) result as .npy")
    p.add_argument("--json", action="store_true", help="print the results as JSON")


def load(args: argparse.Namespace, undirected: bool):
    """The graph of ``args.file`` on the chosen device (symmetrized when ``undirected``)."""
    import warpgraph as wg
    from warpgraph.device import resolve_device

    kwargs = {"format": args.format}
    if args.undirected:
        kwargs["directed"] = False
    G = wg.load(args.file, **kwargs)
    if undirected and G.directed:
        console.print(f"[dim]{args.file} is directed: using its undirected version[/dim]")
        G = G.to_undirected()
    dev = resolve_device(args.device)
    return G.to(dev), dev


def timed(what: str, fn: Callable[[], Any], dev: str) -> tuple[Any, float]:
    """Run ``fn`` under a spinner; returns its result and wall seconds (GPU synchronized)."""
    with progress(what):
        t0 = time.perf_counter()
        out = fn()
        if dev == "gpu":
            import cupy

            cupy.cuda.Device().synchronize()
        return out, time.perf_counter() - t0


def save(path: str | None, values: Any) -> None:
    if path:
        import numpy as np

        from warpgraph._arrays import to_host

        np.save(path, to_host(values))


def report(args: argparse.Namespace, title: str, summary: dict[str, Any]) -> int:
    """Print ``summary`` as JSON or as a two-column table."""
    if args.json:
        console.print_json(json.dumps(summary, default=str))
    else:
        print_table(title, ["", "value"], list(summary.items()))
    return 0


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
    summary = {
        "graph": args.file,
        "device": dev,
        "vertices": G.num_vertices,
        "edges": G.num_edges,
        "triangles": total,
        "transitivity": 3 * total / triples if total else 0.0,
        "average clustering": float(clus.mean()) if clus.size else 0.0,
        "most triangles at": f"vertex {top} ({int(th[top]) if top >= 0 else 0})",
        "seconds": seconds,
        "verified": bool(args.verify),
    }
    return report(args, f"triangles on {dev}: {args.file}", summary)
