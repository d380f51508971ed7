"""``diameter``, ``radius``, ``center`` and ``periphery`` with ``usebounds=True`` (NetworkX's
extrema bounding) through the NetworkX backend (session 55), against NetworkX itself.

The largest connected component of ``nx_backend.build``'s undirected graph of each spec. First
calls (the conversion cache cleared), median of ``--repeat``; the single searches counted (at
most ``distance_measures.BOUND_SEARCHES``, then the joint search of the nodes left). NetworkX
runs once on the graphs of ``--nx-graphs`` only: where the bounds decide little (urand:17:
~20,000 searches) it would take hours. Every result NetworkX gave is compared with the
backend's.

Usage::

    cd benchmarks; python nx_usebounds.py --graphs grid:708 urand:17 --out bounds.json
"""

from __future__ import annotations

import statistics
import time

import networkx as nx
from _common import configure_backend, dump_rows, first_call_parser
from nx_backend import build

FUNCTIONS = (nx.diameter, nx.radius, nx.center, nx.periphery)


def _searches_counted():
    """A counter of the backend's single searches (``components.bfs_levels`` calls)."""
    from warpgraph.nx import components

    count = [0]
    original = components.bfs_levels

    def counting(*args, **kwargs):
        count[0] += 1
        return original(*args, **kwargs)

    components.bfs_levels = counting
    return count


def main() -> None:
    ap = first_call_parser(__doc__)
    ap.add_argument("--nx-graphs", nargs="*", default=["grid:708"], help="NetworkX timed on")
    args = ap.parse_args()
    device = configure_backend(args.device)
    count = _searches_counted()
    rows = []
    for spec in args.graphs:
        G = build(spec)["U"]
        if not nx.is_connected(G):
            G = G.subgraph(max(nx.connected_components(G), key=len)).copy()
        for func in FUNCTIONS:
            times = []
            for _ in range(args.repeat):
                G.__networkx_cache__.clear()
                count[0] = 0
                t0 = time.perf_counter()
                ours = func(G, usebounds=True, backend="warpgraph")
                times.append(time.perf_counter() - t0)
            row = {"graph": spec, "case": f"{func.__name__}(usebounds=True)", "device": device,
                   "nodes": len(G), "single_searches": count[0],
                   "warpgraph_cold_s": statistics.median(times)}  # fmt: skip
            if spec in args.nx_graphs:
                t0 = time.perf_counter()
                theirs = func(G, usebounds=True)
                row["networkx_s"] = time.perf_counter() - t0
                if theirs != ours:
                    raise AssertionError(f"{spec} {func.__name__}: not NetworkX's result")
                row["speedup"] = row["networkx_s"] / row["warpgraph_cold_s"]
            rows.append(row)
            theirs_text = f"NX {row['networkx_s']:8.2f} s" if "networkx_s" in row else "NX not run"
            took = row["warpgraph_cold_s"] * 1e3
            print(f"{spec:10} {row['case']:28} searches {count[0]:3}  warpgraph {took:9.1f} ms"
                  f"  {theirs_text}", flush=True)  # fmt: skip
    dump_rows(args.out, "nx_usebounds", rows)


if __name__ == "__main__":
    main()
