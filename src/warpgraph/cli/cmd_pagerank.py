"""``warpgraph pagerank FILE``: PageRank of every vertex from the command line.

Loads a graph (its weights, or 1 per arc with ``--unweighted`` or when it has none), runs the
power iteration once untimed for one step (compilation, the in-arc CSR), then to convergence,
timed; prints the steps taken, the time, the highest-ranked vertex and, with ``--top K``, the K
highest ranks (with the vertex names of a Pajek file). The helpers it shares with the other
commands are in ``cli/_common.py``.
"""

from __future__ import annotations

import argparse
from typing import Any

from ._common import add_common, load, report, save, summarize, timed
from .ui import console, print_table


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "pagerank",
        help="PageRank of every vertex (power iteration, NetworkX's definition)",
        description="PageRank by power iteration, as NetworkX's pagerank defines it (damping "
        "--alpha, dangling vertices spread uniformly, stop when the L1 change of a step is below "
        "n * --tol; an undirected graph counts each edge both ways, parallel arcs add their "
        "weights). Prints the steps taken, the time of one run after a one-step warm-up, the "
        "highest-ranked vertex and, with --top K, the K highest ranks (vertex names of a Pajek "
        "file beside the ids). --output saves the ranks (.npy, in --dtype); --verify checks "
        "them by an independent fixed-point test. Exit status 2 when the iteration does not "
        "converge in --max-iter steps.",
    )
    add_common(p)
    p.add_argument("--alpha", type=float, default=0.85, help="damping factor in [0, 1]")
    p.add_argument(
        "--tol",
        type=float,
        default=1e-6,
        help="stop when the L1 change is below n * TOL (default 1e-6, NetworkX's: loose on "
        "large graphs, docs/PAGERANK.md)",
    )
    p.add_argument("--max-iter", type=int, default=100, help="most power steps (default 100)")
    p.add_argument(
        "--unweighted", action="store_true", help="count arcs, ignoring the graph's weights"
    )
    p.add_argument(
        "--dtype",
        choices=("float64", "float32"),
        default="float64",
        help="how ranks and contributions are stored (default float64; float32 halves the bytes "
        "a step gathers, at float32's precision; sums stay float64)",
    )
    add_top(p, "list the K highest-ranked vertices (default 10)")
    p.set_defaults(func=run)


def add_top(p: argparse.ArgumentParser, help: str) -> None:
    """``--top [K]`` of the per-vertex commands (K defaults to 10 when the flag is alone)."""
    p.add_argument("--top", type=int, nargs="?", const=10, metavar="K", help=help)


def check_top(args: argparse.Namespace) -> None:
    """Refuse a negative ``--top`` before the graph is read."""
    from warpgraph.errors import InvalidArgumentError

    if args.top is not None and args.top < 0:
        raise InvalidArgumentError(f"--top must be a non-negative integer, got {args.top}")


def _check(args: argparse.Namespace) -> None:
    """Refuse out-of-range options before the graph is read (the API checks them again)."""
    from warpgraph.errors import InvalidArgumentError

    if not 0.0 <= args.alpha <= 1.0:  # (False for NaN too)
        raise InvalidArgumentError(f"--alpha must lie in [0, 1], got {args.alpha}")
    if not args.tol >= 0.0:
        raise InvalidArgumentError(f"--tol must be a non-negative number, got {args.tol}")
    if args.max_iter < 0:
        raise InvalidArgumentError(
            f"--max-iter must be a non-negative integer, got {args.max_iter}"
        )
    check_top(args)


def top_vertices(ranks: Any, k: int) -> Any:
    """The ``k`` vertices of largest rank, largest first, ties by smallest id (NumPy array of
    int64; linear time, then a sort of the few candidates)."""
    import numpy as np

    n = ranks.size
    k = max(0, min(int(k), n))
    if k == 0:
        return np.zeros(0, dtype=np.int64)
    if k < n:
        kth = np.partition(ranks, n - k)[n - k]
        candidates = np.flatnonzero(ranks >= kth)
    else:
        candidates = np.arange(n, dtype=np.int64)
    order = np.lexsort((candidates, -ranks[candidates]))
    return candidates[order[:k]].astype(np.int64)


def report_ranked(
    args: argparse.Namespace,
    summary: dict,
    title: str,
    values: Any,
    shown: Any,
    labels: list | None,
    names: tuple[str, str, str],
    verified: str,
) -> int:
    """Print a per-vertex command's ``summary`` and its ``shown`` highest vertices (or, with
    ``--json``, emit the summary with ``top`` added when ``--top`` was given); ``names`` are the
    value's JSON key, its table column and the table's title after the count. Returns the
    exit status."""
    key, column, what = names
    if args.json:
        if args.top is not None:
            summary["top"] = [
                {"vertex": int(v), key: float(values[v])}
                | ({} if labels is None else {"label": str(labels[v])})
                for v in shown
            ]
        return report(args, "", summary)
    report(args, title, summary)
    if args.top:
        columns = ["#", "vertex", *(["name"] if labels is not None else []), column]
        rows = [
            (i + 1, int(v), *([str(labels[v])] if labels is not None else []), f"{values[v]:.6g}")
            for i, v in enumerate(shown)
        ]
        print_table(f"{len(rows)} {what}", columns, rows)
    if args.verify:
        console.print(verified)
    return 0


def _vertex(v: int, labels: list | None) -> str:
    return f"vertex {v}" if labels is None else f"vertex {v} ({labels[v]})"


def run(args: argparse.Namespace) -> int:
    import numpy as np

    from warpgraph._arrays import to_host
    from warpgraph.algorithms.pagerank import pagerank
    from warpgraph.errors import ConvergenceError

    from .ui import err_console

    _check(args)
    G, dev = load(args, undirected=False, names=True)
    weighted = not args.unweighted
    opts = {"weighted": weighted, "device": dev, "dtype": args.dtype}
    # warm-up, one step whatever the change: compilation, the in-arc CSR, the argument checks
    pagerank(G, args.alpha, max_iter=1, tol=np.inf, **opts)

    def compute():
        return pagerank(
            G, args.alpha, max_iter=args.max_iter, tol=args.tol, return_iterations=True, **opts
        )

    try:
        (ranks, steps), seconds = timed("PageRank power iteration", compute, dev)
    except ConvergenceError as exc:
        err_console.print("error:", style="bold red", end=" ")
        err_console.print(
            f"{exc} (tolerance n * {args.tol:g}); raise --max-iter or --tol", markup=False
        )
        return 2
    r = to_host(ranks)
    if args.verify:
        from warpgraph.algorithms.pagerank.verify import verify_pagerank

        verify_pagerank(G.to("cpu"), r, alpha=args.alpha, tol=args.tol, weighted=weighted)
    save(args.output, r)
    labels = G.vertex_labels
    top = top_vertices(r, max(1, args.top or 0))
    results = {
        "alpha": args.alpha,
        "tol": args.tol,
        "dtype": args.dtype,
        "weights": "graph's" if weighted and G.weights is not None else "none (arcs counted)",
        "iterations": int(steps),
        "ms per iteration": seconds * 1e3 / steps if steps else None,
        "highest rank": f"{_vertex(int(top[0]), labels)}: {r[top[0]]:.6g}" if top.size else "-",
    }
    summary = summarize(args, G, dev, results, seconds)
    return report_ranked(
        args,
        summary,
        f"PageRank on {dev}: {args.file}",
        r,
        top[: args.top or 0],
        labels,
        ("rank", "PageRank", "highest-ranked vertices"),
        "verified: verify_pagerank accepts the ranks",
    )
