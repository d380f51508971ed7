"""``warpgraph betweenness FILE``: betweenness centrality of every vertex from the command line.

Loads a graph (unweighted: its weights are ignored), picks the sources (every vertex, or with
``--sources K`` a seeded uniform sample of K distinct vertices), runs Brandes' searches once
untimed from one source (compilation), then from all the sources, timed; scales the raw sums
as asked (``--scale``, ``--normalized``) and prints the sources, the time, the searches per
second, the highest vertex and, with ``--top K``, the K highest values (with the vertex names
of a Pajek file). The helpers it shares with the other commands are in ``cli/_common.py``.
"""

from __future__ import annotations

import argparse
from typing import Any

from ._common import add_common, load, save, summarize, timed
from .cmd_pagerank import add_top, check_top, report_ranked, top_vertices


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "betweenness",
        help="betweenness centrality of every vertex (Brandes; all sources or a sample)",
        description="Betweenness centrality by Brandes' algorithm: one breadth-first search per "
        "source (unweighted: the graph's weights are ignored; a directed graph's paths follow "
        "its arcs, --undirected reads the edges both ways). The library computes raw sums over "
        "ordered pairs (s, t). --scale networkx (the default) reports what NetworkX's "
        "betweenness_centrality(G, normalized=--normalized, endpoints=--endpoints) gives: "
        "without --normalized an undirected graph's sums are halved (unordered pairs), a "
        "directed graph's kept; with --normalized they are divided by (n-1)(n-2), or by n(n-1) "
        "with --endpoints (unscaled when that is 0). With --sources K the sums are first "
        "multiplied by n/K (Brandes and Pich's estimate, NetworkX's rule before 3.5; 3.5 on "
        "scales the sampled sources' own values by N/(K-1) instead). --scale raw reports the "
        "raw sums (of the sample only, unscaled). Prints the number of sources, the time of "
        "one run after a one-source warm-up, the searches per second, the highest vertex and, "
        "with --top K, the K highest values (vertex names of a Pajek file beside the ids). "
        "--output saves the reported values (.npy, float64); --verify checks the raw sums by "
        "independent tests (a SciPy search per source: slow on large graphs).",
    )
    add_common(p)
    add_sample(
        p,
        "search from K distinct vertices drawn uniformly (NumPy's default_rng(--seed)), "
        "an estimate; default: every vertex, the exact values",
    )
    p.add_argument(
        "--endpoints",
        action="store_true",
        help="count the paths' ends too (NetworkX's endpoints=True)",
    )
    p.add_argument(
        "--scale",
        choices=("networkx", "raw"),
        default="networkx",
        help="networkx (default): NetworkX's values (undirected halved; a sample times n/K); "
        "raw: the library's sums over ordered pairs from the sources",
    )
    p.add_argument(
        "--normalized",
        action="store_true",
        help="with --scale networkx: divide by (n-1)(n-2), by n(n-1) with --endpoints "
        "(NetworkX's normalized=True; a sample is multiplied by n/K first)",
    )
    add_top(p, "list the K vertices of highest betweenness (default 10)")
    p.set_defaults(func=run)


def add_sample(p: argparse.ArgumentParser, help: str) -> None:
    """``--sources K`` (a seeded sample of distinct vertices) and its ``--seed``."""
    p.add_argument("--sources", type=int, metavar="K", help=help)
    p.add_argument("--seed", type=int, default=1, help="seed of the --sources sample (default 1)")


def check_sample_and_top(args: argparse.Namespace) -> None:
    """Refuse a sample size below 1 or a negative ``--top`` before the graph is read (the
    sample size is checked against the graph by :func:`sample_sources`)."""
    from warpgraph.errors import InvalidArgumentError

    if args.sources is not None and args.sources < 1:
        raise InvalidArgumentError(f"--sources must be a positive integer, got {args.sources}")
    check_top(args)


def _check(args: argparse.Namespace) -> None:
    """Refuse out-of-range options before the graph is read (the sample size again after)."""
    from warpgraph.errors import InvalidArgumentError

    check_sample_and_top(args)
    if args.normalized and args.scale == "raw":
        raise InvalidArgumentError("--normalized applies to --scale networkx, not to raw sums")


def sample_sources(n: int, k: int | None, seed: int) -> Any:
    """The sources: every vertex for ``k`` None, else ``k`` distinct vertices drawn uniformly by
    ``numpy.random.default_rng(seed)``, sorted (int64).

    Examples
    --------
    >>> sample_sources(4, None, 1).tolist()
    [0, 1, 2, 3]
    >>> s = sample_sources(10, 3, 1)
    >>> s.size, len(set(s.tolist())), s.tolist() == sample_sources(10, 3, 1).tolist()
    (3, 3, True)
    """
    import numpy as np

    from warpgraph.errors import InvalidArgumentError

    if k is None:
        return np.arange(n, dtype=np.int64)
    if k > n:
        raise InvalidArgumentError(
            f"--sources {k} is more than the graph's {n} vertices (a sample of distinct ones)"
        )
    rng = np.random.default_rng(seed)
    return np.sort(rng.choice(n, size=k, replace=False)).astype(np.int64)


def scale_factor(
    n: int, k: int, *, directed: bool, endpoints: bool, normalized: bool, scale: str
) -> float:
    """The factor turning raw sums from ``k`` of the ``n`` vertices into the reported values
    (see the command's description).

    Examples
    --------
    >>> kw = {"endpoints": False, "scale": "networkx"}
    >>> scale_factor(4, 4, directed=False, normalized=False, **kw)  # halved
    0.5
    >>> scale_factor(4, 2, directed=True, normalized=True, **kw)  # n/k, then 1/((n-1)(n-2))
    0.3333333333333333
    """
    if scale == "raw":
        return 1.0
    factor = n / k if k != n else 1.0
    if normalized:
        pairs = n * (n - 1) if endpoints else (n - 1) * (n - 2)
        if pairs > 0:  # (else no path has an inner vertex: the values are 0)
            factor /= pairs
    elif not directed:
        factor *= 0.5
    return factor


def _vertex(v: int, labels: list | None) -> str:
    return f"vertex {v}" if labels is None else f"vertex {v} ({labels[v]})"


def run(args: argparse.Namespace) -> int:
    import numpy as np

    from warpgraph._arrays import to_host
    from warpgraph.algorithms.betweenness import betweenness_centrality

    _check(args)
    G, dev = load(args, undirected=False, names=True)
    n = G.num_vertices
    sources = sample_sources(n, args.sources, args.seed)
    k = int(sources.size)
    if n:  # warm-up from one source: compilation, the argument checks
        betweenness_centrality(G, sources[:1], endpoints=args.endpoints, device=dev)

    def compute():
        return betweenness_centrality(G, sources, endpoints=args.endpoints, device=dev)

    raw, seconds = timed("Brandes' searches", compute, dev)
    raw = to_host(raw)
    if args.verify:
        from warpgraph.algorithms.betweenness.verify import verify_betweenness

        verify_betweenness(G.to("cpu"), raw, sources, endpoints=args.endpoints)
    factor = scale_factor(
        n,
        k,
        directed=G.directed,
        endpoints=args.endpoints,
        normalized=args.normalized,
        scale=args.scale,
    )
    b = raw * factor if factor != 1.0 else raw
    save(args.output, np.asarray(b, dtype=np.float64))
    labels = G.vertex_labels
    top = top_vertices(b, max(1, args.top or 0))
    results = {
        "sources": k,
        "sample": f"uniform, seed {args.seed}" if args.sources is not None else "every vertex",
        "endpoints": bool(args.endpoints),
        "scale": args.scale + (", normalized" if args.normalized else ""),
        "factor": factor,
        "searches per second": k / seconds if seconds > 0 else None,
        "highest": f"{_vertex(int(top[0]), labels)}: {b[top[0]]:.6g}" if top.size else "-",
    }
    summary = summarize(args, G, dev, results, seconds)
    return report_ranked(
        args,
        summary,
        f"Betweenness on {dev}: {args.file}",
        b,
        top[: args.top or 0],
        labels,
        ("betweenness", "betweenness", "vertices of highest betweenness"),
        "verified: verify_betweenness accepts the raw sums",
    )
