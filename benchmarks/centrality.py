"""Eigenvector and Katz centrality times (``warpgraph.algorithms.centrality``) on generated
graphs: the CPU's parallel pull, the GPU's pull kernel when one is usable, and optionally
NetworkX's own Python loops on the same graph.

Graphs are the specs of ``nx_backend.py`` (``urand:S``, ``kron:S``, ``grid:R``, ``tree:S``;
self-loops dropped, repeated edges merged): eigenvector centrality on the undirected graph,
Katz centrality on the directed one (arcs as generated). Each call runs once untimed (Numba
compilation, GPU module loading, the in-arc CSR built), then ``--repeat`` times (median, min,
max; the GPU synchronized), with NetworkX's defaults but ``--tol``, ``--max-iter`` and Katz's
``--alpha`` (0.01: NetworkX's 0.1 diverges past a largest eigenvalue of 10, common here). Steps
taken and seconds per step are recorded; a run that does not converge is recorded as such.

Checks, untimed: every answer by :func:`verify_eigenvector_centrality` /
:func:`verify_katz_centrality` on graphs of at most ``--verify-max-vertices``; the GPU's
against the CPU's (L1 distance under ``n * tol``, or 1e-12 on the same step); with
``--networkx`` (graphs of at most ``--networkx-max-arcs`` arcs), NetworkX's answer, timed once,
against the CPU's (the same rule).

Usage::

    python benchmarks/centrality.py --graphs urand:14 grid:200 --networkx
    python benchmarks/centrality.py --graphs urand:20 kron:20 grid:708 --out centrality.json
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path
from typing import Any

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _common import measure, write_json  # noqa: E402
from nx_backend import edges_for  # noqa: E402  (the benchmark graphs' specs, shared)

import warpgraph as wg  # noqa: E402
from warpgraph._arrays import to_host  # noqa: E402
from warpgraph.algorithms.centrality import eigenvector_centrality, katz_centrality  # noqa: E402
from warpgraph.algorithms.centrality.verify import (  # noqa: E402
    verify_eigenvector_centrality,
    verify_katz_centrality,
)
from warpgraph.errors import ConvergenceError  # noqa: E402


def graphs(spec: str) -> dict[str, wg.Graph]:
    """The undirected and directed graphs of a spec, simple (no loops, no repeated edges)."""
    n, s, d = edges_for(spec)
    return {
        "undirected": wg.Graph.from_edges(s, d, num_vertices=n, directed=False, merge="first"),
        "directed": wg.Graph.from_edges(s, d, num_vertices=n, directed=True, merge="first"),
    }


def close(x, k: int, y, j: int, n: int, tol: float) -> bool:
    """The same answer of the same iteration: 1e-12 apart on the same step, else one step
    apart and under ``n * tol`` in L1."""
    gap = float(np.abs(to_host(x) - to_host(y)).sum())
    return gap <= (1e-12 if k == j else n * tol + 1e-12) and abs(k - j) <= 1


def networkx_call(G: wg.Graph, name: str, kwargs: dict[str, Any]) -> tuple[float, np.ndarray]:
    """Seconds of NetworkX's own function on ``G`` (its graph built untimed) and its answer
    by vertex id."""
    import networkx as nx

    H = G.to_networkx()
    f = getattr(nx, name)
    t0 = time.perf_counter()
    want = f(H, backend="networkx", **kwargs)
    seconds = time.perf_counter() - t0
    return seconds, np.array([want[v] for v in range(G.num_vertices)])


def bench(spec: str, args, devices: list[str]) -> list[dict[str, Any]]:
    rows = []
    for name, kind in (("eigenvector_centrality", "undirected"), ("katz_centrality", "directed")):
        G = graphs(spec)[kind]
        n = G.num_vertices
        opts: dict[str, Any] = {"tol": args.tol, "max_iter": args.max_iter}
        if name == "katz_centrality":
            opts["alpha"] = args.alpha
        f = eigenvector_centrality if name == "eigenvector_centrality" else katz_centrality
        verify = (
            verify_eigenvector_centrality
            if name == "eigenvector_centrality"
            else verify_katz_centrality
        )
        row: dict[str, Any] = {"graph": spec, "algorithm": name, "directed": G.directed,
                               "n": n, "arcs": int(G.num_arcs), **opts}  # fmt: skip
        answers = {}
        for dev in devices:
            Gd = G.to(dev)
            try:
                x, steps = f(Gd, device=dev, return_iterations=True, **opts)
            except ConvergenceError:
                row[dev] = {"converged": False}
                continue
            answers[dev] = (x, steps)
            call = lambda Gd=Gd, dev=dev, f=f, opts=opts: f(Gd, device=dev, **opts)  # noqa: E731
            rec = measure(call, dev, args.repeat)
            rec["iterations"] = steps
            rec["s_per_iteration"] = rec["median_s"] / steps
            row[dev] = rec
            if n <= args.verify_max_vertices:
                t0 = time.perf_counter()
                verify(G, x, **{k: v for k, v in opts.items() if k != "max_iter"})
                rec["verified"] = True
                rec["verify_s"] = time.perf_counter() - t0
        if "cpu" in answers and "gpu" in answers:
            row["gpu_close_to_cpu"] = close(*answers["gpu"], *answers["cpu"], n, args.tol)
        if args.networkx and G.num_arcs <= args.networkx_max_arcs and "cpu" in answers:
            seconds, want = networkx_call(G, name, opts)
            x, steps = answers["cpu"]
            gap = float(np.abs(to_host(x) - want).sum())
            row["networkx"] = {"seconds": seconds, "l1_to_cpu": gap,
                               "close": gap <= n * args.tol + 1e-12,
                               "speedup_cpu": seconds / row["cpu"]["median_s"]}  # fmt: skip
        print({k: v for k, v in row.items() if k not in ("tol", "max_iter")}, flush=True)
        rows.append(row)
    return rows


def main() -> int:
    from warpgraph.device import gpu_available

    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--graphs", nargs="+", default=["urand:17", "grid:708"])
    ap.add_argument("--devices", nargs="+", choices=["cpu", "gpu"],
                    default=["cpu", "gpu"] if gpu_available() else ["cpu"])  # fmt: skip
    ap.add_argument("--repeat", type=int, default=5)
    ap.add_argument("--tol", type=float, default=1e-6)
    ap.add_argument("--max-iter", type=int, default=100)
    ap.add_argument("--alpha", type=float, default=0.01, help="Katz's attenuation factor")
    ap.add_argument("--networkx", action="store_true", help="also time NetworkX's own call")
    ap.add_argument("--networkx-max-arcs", type=int, default=4_000_000)
    ap.add_argument("--verify-max-vertices", type=int, default=2_000_000)
    ap.add_argument("--out", help="JSON output (default benchmarks/results/centrality.json)")
    args = ap.parse_args()
    rows: list[dict[str, Any]] = []
    for spec in args.graphs:
        rows += bench(spec, args, args.devices)
        write_json("centrality", {"args": vars(args), "results": rows}, args.out)  # after each
    path = write_json("centrality", {"args": vars(args), "results": rows}, args.out)
    print(f"wrote {path}")
    ok = all(r.get("gpu_close_to_cpu", True) and r.get("networkx", {}).get("close", True)
             for r in rows)  # fmt: skip
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
