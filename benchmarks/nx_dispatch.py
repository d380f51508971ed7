"""What NetworkX's automatic dispatch adds to a warpgraph call: the same call with
``backend="warpgraph"`` and with ``warpgraph`` first in ``nx.config.backend_priority.algos``
and ``.generators`` (NetworkX then asks the backend's ``can_run`` and ``should_run`` first),
conversion cached, and those two questions timed alone.

Session 12 found ``should_run`` calling ``G.number_of_edges()``, which sums every degree in
Python: 60-90 ms on each automatically dispatched call of a 1M-edge graph, on top of calls of
2-10 ms. Each time is the median of ``--repeat`` calls.

Usage::

    python benchmarks/nx_dispatch.py --graphs urand:17 grid:708 --out dispatch.json
"""

from __future__ import annotations

import argparse
import gc
import json
import statistics
import sys
import time
import warnings

import networkx as nx
from nx_backend import BACKEND, CASES, build, set_device

from warpgraph.nx.interface import backend_interface

CALLS = ["number_connected_components", "is_connected", "transitivity", "core_number",
         "descendants_at_distance", "k_truss"]  # fmt: skip


def median_ms(fn, repeat: int) -> float:
    times = []
    for _ in range(repeat):
        t0 = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t0)
    return 1e3 * statistics.median(times)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    ap.add_argument("--graphs", nargs="+", default=["urand:17", "grid:708"])
    ap.add_argument("--device", default="cpu", choices=["cpu", "gpu"])
    ap.add_argument("--repeat", type=int, default=7)
    ap.add_argument("--out", default=None)
    args = ap.parse_args(argv)
    warnings.filterwarnings("ignore", message="Note: conversions to backend graphs")
    set_device(args.device)
    priority = nx.config.backend_priority
    rows = []
    for spec in args.graphs:
        g = build(spec)
        gc.collect()
        gc.freeze()
        for name in CALLS:
            kind, call = CASES[name]
            G, s = g[kind], g["source"]
            call(G, s, {"backend": BACKEND})  # converted (and compiled) once
            forced = median_ms(lambda: call(G, s, {"backend": BACKEND}), args.repeat)  # noqa: B023
            saved = list(priority.algos), list(priority.generators)
            priority.algos = priority.generators = [BACKEND]  # (k_truss: a "generator")
            try:
                auto = median_ms(lambda: call(G, s, {}), args.repeat)  # noqa: B023
            finally:
                priority.algos, priority.generators = saved
            argv_ = (G, s, 3) if name == "descendants_at_distance" else (G,)
            should = median_ms(lambda: backend_interface.should_run(name, argv_, {}), args.repeat)  # noqa: B023
            can = median_ms(lambda: backend_interface.can_run(name, argv_, {}), args.repeat)  # noqa: B023
            row = {"graph": spec, "function": name, "forced_ms": forced, "auto_ms": auto,
                   "should_run_ms": should, "can_run_ms": can}  # fmt: skip
            rows.append(row)
            print(f"{spec:10} {name:30} forced {forced:8.3f}  auto {auto:8.3f}  should_run "
                  f"{should:7.3f}  can_run {can:6.3f} ms", flush=True)  # fmt: skip
        G = None
        del g
        gc.unfreeze()
        gc.collect()
    if args.out:
        with open(args.out, "w") as fh:
            json.dump({"method": __doc__.split("\n\n")[0], "device": args.device, "rows": rows},
                      fh, indent=1)  # fmt: skip
    return 0


if __name__ == "__main__":
    sys.exit(main())
