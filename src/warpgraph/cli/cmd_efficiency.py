"""``warpgraph efficiency FILE``: global efficiency, harmonic diameter and, with ``--local``,
local efficiency from the command line.

Loads a graph (unweighted: its weights are ignored), runs the all-pairs searches once
(:func:`warpgraph.algorithms.bfs.efficiency_sum`: ``n`` breadth-first searches in groups of 64,
their ``1 / d`` terms added in NetworkX's order), and prints the global efficiency (that sum
over ``n (n - 1)``) and the harmonic diameter (its inverse); with ``--local`` each vertex's
neighbourhood efficiency too (:func:`~warpgraph.algorithms.bfs.neighbourhood_efficiencies`, an
undirected graph's) and their mean. ``--verify`` recomputes the sums from SciPy's distances
(graphs of up to :data:`VERIFY_MAX_VERTICES` vertices). The searches run on ``--device`` (the
sum is added on the host either way: the same bits); the local efficiencies on the CPU.
"""

from __future__ import annotations

import argparse

from ._common import add_common, load, report, save, summarize, timed

#: ``--verify`` builds SciPy's dense distance matrix (n^2 floats): up to this many vertices.
VERIFY_MAX_VERTICES = 5000


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "efficiency",
        help="global efficiency and harmonic diameter (and --local: local efficiency)",
        description="Global efficiency (Latora and Marchiori): the mean of 1/d(s, t) over "
        "ordered pairs of distinct vertices, 0 for a pair with no path; the harmonic diameter "
        "is n (n - 1) over the same sum (inf when no two vertices are joined). A directed "
        "graph's distances follow its arcs; --undirected reads the edges both ways; weights "
        "are ignored. The sums are NetworkX's global_efficiency / harmonic_diameter bit for "
        "bit (vertices in id order). --local also computes each vertex's local efficiency "
        "(the global efficiency of the subgraph induced on its neighbours; undirected graphs "
        "only) and their mean, NetworkX's local_efficiency; --output saves those per-vertex "
        "values (.npy, float64). --verify recomputes the sums from SciPy's distances (up to "
        f"{VERIFY_MAX_VERTICES:,} vertices). The searches run on --device (the same bits on "
        "either); the local efficiencies on the CPU.",
    )
    add_common(p)
    p.add_argument(
        "--local",
        action="store_true",
        help="also each vertex's local efficiency and their mean (undirected graphs)",
    )
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    import math

    import warpgraph as wg
    from warpgraph.algorithms.bfs.efficiency import efficiency_sum, neighbourhood_efficiencies
    from warpgraph.errors import InvalidArgumentError

    G, dev = load(args, undirected=False)
    n = G.num_vertices
    if args.local and G.directed:
        raise InvalidArgumentError(
            "--local needs an undirected graph (local efficiency is defined on neighbourhoods "
            "of undirected graphs): pass --undirected to read the edges both ways"
        )
    if args.verify and n > VERIFY_MAX_VERTICES:
        raise InvalidArgumentError(
            f"--verify builds a dense {n:,} x {n:,} distance matrix: up to "
            f"{VERIFY_MAX_VERTICES:,} vertices"
        )
    if args.output and not args.local:
        raise InvalidArgumentError("--output saves the per-vertex local efficiencies: add --local")
    efficiency_sum(wg.Graph.from_edges([0], [1], num_vertices=2), device=dev)  # (compilation)
    total, seconds = timed("searches", lambda: efficiency_sum(G, device=dev), dev)
    pairs = n * (n - 1)
    results = {
        "global efficiency": total / pairs if pairs else 0.0,
        "harmonic diameter": pairs / total if total else (math.inf if pairs else math.nan),
        "searches per second": n / seconds if seconds > 0 else None,
    }
    local = None
    if args.local:
        on_host = G.to("cpu")
        local, local_seconds = timed(
            "neighbourhoods", lambda: neighbourhood_efficiencies(on_host), "cpu"
        )
        results["local efficiency"] = math.fsum(local.tolist()) / n if n else 0.0
        results["local seconds"] = local_seconds
        save(args.output, local)
    if args.verify:
        _verify(G.to("cpu"), total, local)
    summary = summarize(args, G, dev, results, seconds)
    return report(args, f"Efficiency on {dev}: {args.file}", summary)


def _verify(G, total: float, local) -> None:
    """Recompute the sum of ``1 / d`` (and each neighbourhood's) from SciPy's unweighted
    distances; :class:`~warpgraph.errors.VerificationError` beyond rounding (the orders of
    addition differ)."""
    import numpy as np
    from scipy.sparse import csr_matrix
    from scipy.sparse.csgraph import shortest_path

    from warpgraph.errors import VerificationError

    def inverse_sum(indptr, indices, n) -> float:
        A = csr_matrix((np.ones(indices.size), indices, indptr), shape=(n, n))
        d = shortest_path(A, unweighted=True, directed=True)
        off = np.isfinite(d) & (d > 0)
        return float(np.sum(1.0 / d[off]))

    n = G.num_vertices
    indptr, indices = np.asarray(G.indptr), np.asarray(G.indices)
    want = inverse_sum(indptr, indices, n) if n else 0.0
    if not np.isclose(total, want, rtol=1e-10, atol=0):
        raise VerificationError(f"efficiency sum {total!r} != SciPy's {want!r}")
    if local is None:
        return
    for v in range(n):
        nbrs = np.unique(indices[indptr[v] : indptr[v + 1]])
        k = nbrs.size
        if k < 2:
            want_v = 0.0
        else:
            pos = np.full(n, -1)
            pos[nbrs] = np.arange(k)
            rows = [pos[indices[indptr[u] : indptr[u + 1]]] for u in nbrs]
            rows = [r[r >= 0] for r in rows]
            sub_ptr = np.concatenate([[0], np.cumsum([r.size for r in rows])])
            sub_idx = np.concatenate(rows) if rows else np.zeros(0, dtype=np.int64)
            want_v = inverse_sum(sub_ptr, sub_idx, k) / (k * (k - 1))
        if not np.isclose(local[v], want_v, rtol=1e-10, atol=1e-15):
            raise VerificationError(f"local efficiency of {v}: {local[v]!r} != SciPy's {want_v!r}")
