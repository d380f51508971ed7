"""First calls of the NetworkX backend in a fresh process, as a user's script makes them.

``nx_backend.py`` times many calls in one long process, after a warm-up; this script does
nothing before building the graph, so whatever state a fresh interpreter starts in (glibc's
mmap threshold, for one: ``warpgraph/_alloc.py``) shows. It builds one benchmark graph (as
``nx_backend.build`` does), then for each function makes one untimed call (Numba's cache load)
and ``--cold-repeat`` timed first calls, each with the conversion cache cleared, then times the
conversion alone, and prints one JSON line of the medians in ms. The order matters: what a
process freed before changes the allocator's state after. Run it several times,
alternating the trees compared (``PYTHONPATH=old/src``), for an A/B.

Usage::

    python benchmarks/nx_fresh_process.py --graph grid:708 --label after
    PYTHONPATH=/path/to/old/src python benchmarks/nx_fresh_process.py --label before
"""

from __future__ import annotations

import argparse
import gc
import json
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

FUNCTIONS = ("number_connected_components", "connected_components", "core_number", "triangles")


def _first_call(f, G, consume: bool) -> float:
    G.__networkx_cache__.clear()
    gc.collect()
    t = time.perf_counter()
    r = f(G, backend="warpgraph")
    if consume:
        r = list(r)
    elapsed = time.perf_counter() - t
    del r
    return elapsed


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--graph", default="grid:708")
    p.add_argument("--device", choices=["cpu", "gpu"], default="cpu")
    p.add_argument("--functions", nargs="+", default=list(FUNCTIONS))
    p.add_argument("--cold-repeat", type=int, default=5)
    p.add_argument("--label", default="")
    args = p.parse_args(argv)
    if args.cold_repeat < 1:
        p.error("--cold-repeat must be at least 1")

    import networkx as nx
    import nx_backend

    unknown = [f for f in args.functions if not callable(getattr(nx, f, None))]
    if unknown:
        p.error(f"--functions: not NetworkX functions: {', '.join(unknown)}")
    G = nx_backend.build(args.graph)["U"]
    config = nx.config.backends.warpgraph
    earlier, config.device = config.device, args.device
    try:
        out = _measure(nx, G, args)
    finally:
        config.device = earlier
    print(json.dumps(out))
    return 0


def _measure(nx, G, args) -> dict:
    from warpgraph.nx.interface import backend_interface

    out: dict = {"label": args.label, "graph": args.graph, "device": args.device}
    for name in args.functions:  # first: what a process did before changes what comes after
        f = getattr(nx, name)
        consume = name.endswith("components") and not name.startswith("number")
        _first_call(f, G, consume)  # (untimed: Numba's cache load)
        times = [_first_call(f, G, consume) for _ in range(args.cold_repeat)]
        out[f"{name}_ms"] = round(statistics.median(times) * 1e3, 2)
    times = []
    for _ in range(args.cold_repeat):
        gc.collect()
        t = time.perf_counter()
        backend_interface.convert_from_nx(G)
        times.append(time.perf_counter() - t)
    out["convert_from_nx_ms"] = round(statistics.median(times) * 1e3, 2)
    return out


if __name__ == "__main__":
    sys.exit(main())
