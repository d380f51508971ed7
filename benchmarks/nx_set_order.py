"""First calls of the backend's set-returning functions on int (``0..n-1``) and ``str``
labels: the cost of building their sets in NetworkX's order (``nx/_component_order.py``).

Each case clears the conversion cache, then times ``list(f(G, ...))`` through
``backend="warpgraph"`` (median of ``--repeat``, after one untimed call); NetworkX's own time
once per graph for ``connected_components`` on the str labels. Every result is also compared
with NetworkX's element by element (set iteration order included).

Usage::

    cd benchmarks; python nx_set_order.py --graphs urand:17 grid:708 --device cpu
"""

from __future__ import annotations

import argparse
import json
import statistics
import time

import networkx as nx
from _common import environment
from nx_backend import build


def _cases(b: dict) -> list[tuple[str, object, object]]:
    U, D, s = b["U"], b["D"], b["source"]
    S = nx.relabel_nodes(U, {v: f"v{v}" for v in U})
    SD = nx.relabel_nodes(D, {v: f"v{v}" for v in D})
    return [
        ("connected_components int", U, lambda g, **k: list(nx.connected_components(g, **k))),
        ("weakly_connected_components int", D,
         lambda g, **k: list(nx.weakly_connected_components(g, **k))),
        ("descendants int", D, lambda g, **k: nx.descendants(g, s, **k)),
        ("ancestors int", D, lambda g, **k: nx.ancestors(g, s, **k)),
        ("descendants undirected int", U, lambda g, **k: nx.descendants(g, s, **k)),
        ("connected_components str", S, lambda g, **k: list(nx.connected_components(g, **k))),
        ("node_connected_component str", S,
         lambda g, **k: nx.node_connected_component(g, f"v{s}", **k)),
        ("descendants str", SD, lambda g, **k: nx.descendants(g, f"v{s}", **k)),
    ]  # fmt: skip


def _listed(x) -> list:
    return [list(c) for c in x] if isinstance(x, list) else list(x)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--graphs", nargs="+", default=["urand:17", "grid:708"])
    ap.add_argument("--device", default="cpu", choices=["auto", "cpu", "gpu"])
    ap.add_argument("--repeat", type=int, default=5)
    ap.add_argument("--out", default=None, help="JSON path")
    args = ap.parse_args()
    nx.config.backends.warpgraph.device = args.device
    nx.config.warnings_to_ignore.add("cache")
    rows = []
    for spec in args.graphs:
        for name, G, f in _cases(build(spec)):
            want = f(G)
            if name.startswith("connected_components str"):
                t0 = time.perf_counter()
                f(G)
                rows.append({"graph": spec, "case": name + " (NetworkX)",
                             "seconds": time.perf_counter() - t0})  # fmt: skip
            G.__networkx_cache__.clear()
            got = f(G, backend="warpgraph")
            assert _listed(got) == _listed(want), (spec, name)
            times = []
            for _ in range(args.repeat):
                G.__networkx_cache__.clear()
                t0 = time.perf_counter()
                f(G, backend="warpgraph")
                times.append(time.perf_counter() - t0)
            rows.append({"graph": spec, "case": name, "seconds": statistics.median(times)})
        for r in rows:
            if r["graph"] == spec:
                print(f"{spec:10} {r['case']:38} {r['seconds'] * 1e3:9.1f} ms")
    if args.out:
        with open(args.out, "w") as fh:
            json.dump({"benchmark": "nx_set_order", "environment": environment(),
                       "device": args.device, "repeat": args.repeat, "rows": rows}, fh,
                      indent=1)  # fmt: skip
        print(f"wrote {args.out}")


if __name__ == "__main__":
    main()
