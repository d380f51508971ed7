"""Helpers the graph-algorithm commands (``triangles``, ``kcore``, ``ktruss``, ``triads``,
``pagerank``) share: the common options, loading (symmetrized where the algorithm needs an
undirected graph), timing with a spinner on long runs, saving and printing the results."""

from __future__ import annotations

import argparse
import json
import time
from collections.abc import Callable
from typing import Any

from .ui import console, load_with_progress, print_table, progress


def add_graph_args(p: argparse.ArgumentParser) -> None:
    """The input options: the graph file, how to read it, and the device."""
    p.add_argument("file", help="graph file (format detected from name and header)")
    p.add_argument("--format", help="file format when detection is not enough")
    p.add_argument("--undirected", action="store_true", help="read the edges as undirected")
    add_compact_ids(p)
    p.add_argument("--device", default="auto", choices=["auto", "cpu", "gpu"])


def add_compact_ids(p: argparse.ArgumentParser) -> None:
    """``--compact-ids``: :func:`warpgraph.load`'s ``compact_ids`` (files with sparse ids)."""
    p.add_argument(
        "--compact-ids",
        action="store_true",
        help="number the vertices found in edges 0..k-1 (sparse ids: hashes, labels); "
        "vertices given and shown are the file's ids, per-vertex outputs in increasing id order",
    )


def graph_vertices(G: Any, ids: Any, file: str) -> Any:
    """The graph's vertices of the file's vertex ids ``ids`` (an int64 array): with
    ``--compact-ids`` their positions among ``G.vertex_labels`` (the kept ids, sorted), else
    ``ids`` themselves. Raises ``InvalidArgumentError`` for an id without an edge there."""
    import numpy as np

    from warpgraph.errors import InvalidArgumentError

    if G.vertex_labels is None:
        return ids
    kept = np.asarray(G.vertex_labels)
    at = np.minimum(np.searchsorted(kept, ids), max(kept.size - 1, 0))
    missing = ids if kept.size == 0 else ids[kept[at] != ids]
    if missing.size:
        raise InvalidArgumentError(
            f"{file}: vertex {int(missing[0])} is in no edge (--compact-ids keeps only those)"
        )
    return at


def file_vertex(G: Any, v: int) -> int:
    """Vertex ``v``'s id in the file (``G.vertex_labels[v]`` with ``--compact-ids``)."""
    return int(v) if G.vertex_labels is None else int(G.vertex_labels[v])


def add_common(p: argparse.ArgumentParser) -> None:
    """Options every command of this family takes."""
    add_graph_args(p)
    p.add_argument("--verify", action="store_true", help="check the result by another method")
    p.add_argument("--output", help="write the per-vertex (or per-edge) result as .npy")
    p.add_argument("--json", action="store_true", help="print the results as JSON")


def load(args: argparse.Namespace, undirected: bool, names: bool = False):
    """The graph of ``args.file`` on the chosen device (symmetrized when ``undirected``); with
    ``names``, the vertex names of a Pajek file in ``G.vertex_labels``; with
    ``--compact-ids``, the file's ids there (:func:`warpgraph.load`'s ``compact_ids``)."""
    from warpgraph.device import resolve_device

    kwargs = {"format": args.format}
    if args.undirected:
        kwargs["directed"] = False
    if getattr(args, "compact_ids", False):
        kwargs["compact_ids"] = True
    if names and _is_pajek(args):
        kwargs["names"] = True
    G = load_with_progress(args.file, **kwargs)
    if undirected and G.directed:
        console.print(f"[dim]{args.file} is directed: using its undirected version[/dim]")
        G = G.to_undirected()
    dev = resolve_device(args.device)
    return G.to(dev), dev


def _is_pajek(args: argparse.Namespace) -> bool:
    """Whether ``args.file`` is read as Pajek (the one format with vertex names to ask for);
    False when the format cannot be told (loading then says why)."""
    from warpgraph.errors import WarpgraphError
    from warpgraph.io import detect_format

    try:
        fmt = args.format or detect_format(args.file)
    except (WarpgraphError, OSError):
        return False
    return str(fmt).lower().lstrip(".") in ("pajek", "net")


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


def summarize(
    args: argparse.Namespace, G, dev: str, results: dict[str, Any], seconds: float
) -> dict[str, Any]:
    """The summary rows: the graph, the device and its size, then ``results``, the time and
    whether the result was verified."""
    return {
        "graph": args.file,
        "device": dev,
        "vertices": G.num_vertices,
        "edges": G.num_edges,
        **results,
        "seconds": seconds,
        "verified": bool(args.verify),
    }


def report(args: argparse.Namespace, title: str, summary: dict[str, Any]) -> int:
    """Print ``summary`` as JSON or as a two-column table."""
    if args.json:
        console.print_json(json.dumps(summary, default=str))
    else:
        print_table(title, ["", "value"], list(summary.items()))
    return 0


def run_decomposition(
    args: argparse.Namespace,
    *,
    kind: str,
    unit: str,
    max_key: str,
    undirected: bool,
    spinner: str,
    compute: Callable[[Any, str], Any],
    verify: Callable[[Any, Any], None],
) -> int:
    """The ``kcore`` and ``ktruss`` commands: compute the ``k-{kind}`` number of every vertex or
    edge (the ``unit``), verify and save it as asked, and report the largest ``k`` (as
    ``max_key``) and how many ``unit`` lie in the ``k``-``kind`` of ``args.k`` (default: the
    largest)."""
    from warpgraph._arrays import to_host

    G, dev = load(args, undirected=undirected)
    values, seconds = timed(spinner, lambda: compute(G, dev), dev)
    v = to_host(values)
    if args.verify:
        verify(G, v)
    save(args.output, v)
    kmax = int(v.max()) if v.size else 0
    k = kmax if args.k is None else args.k
    results = {max_key: kmax, f"{unit} in the {k}-{kind}": int((v >= k).sum())}
    return report(
        args, f"k-{kind} on {dev}: {args.file}", summarize(args, G, dev, results, seconds)
    )
