"""What NetworkX's automatic dispatch adds to a warpgraph call: the same call with
``backend="warpgraph"`` and with ``warpgraph`` first in ``nx.config.backend_priority.algos``
and ``.generators`` (NetworkX then asks the backend's ``can_run`` and ``should_run`` first),
conversion cached, and those two questions timed alone. Then the first calls of the
``--split`` functions (conversion cache cleared) are split: the whole call, the backend's
function inside it (timed by a wrapper put on the backend interface) and what is left,
NetworkX's dispatcher with the backend's ``convert_from_nx`` and ``can_run``; NetworkX's own
call beside them (``backend="networkx"``).

Session 12 found ``should_run`` calling ``G.number_of_edges()``, which sums every degree in
Python: 60-90 ms on each automatically dispatched call of a 1M-edge graph, on top of calls of
2-10 ms. Each time is the median of ``--repeat`` calls.

Usage::

    python benchmarks/nx_dispatch.py --graphs urand:17 grid:708 --out dispatch.json
    python benchmarks/nx_dispatch.py --repeat 51 --split descendants_at_distance
"""

from __future__ import annotations

import argparse
import functools
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


def first_call_split(name: str, call, G, s, repeat: int) -> dict[str, float]:
    """Median ms of first calls of ``name`` through the backend (``first_ms``), of the
    backend's function inside them (``inside_ms``), of the rest (``dispatcher_ms``: NetworkX's
    dispatch, the conversion and ``can_run``) and of NetworkX's own call (``networkx_ms``)."""
    real = getattr(backend_interface, name)
    spent: list[float] = []

    @functools.wraps(real)
    def timed(*args, **kwargs):
        t0 = time.perf_counter()
        try:
            return real(*args, **kwargs)
        finally:
            spent.append(time.perf_counter() - t0)

    cls = type(backend_interface)
    owner = backend_interface if name in vars(backend_interface) else cls
    saved = vars(owner)[name]
    setattr(owner, name, staticmethod(timed) if owner is cls else timed)
    first, inside, theirs = [], [], []
    try:
        for _ in range(repeat):
            G.__networkx_cache__.clear()
            spent.clear()
            t0 = time.perf_counter()
            call(G, s, {"backend": BACKEND})
            first.append(time.perf_counter() - t0)
            inside.append(sum(spent))
            t0 = time.perf_counter()
            call(G, s, {"backend": "networkx"})
            theirs.append(time.perf_counter() - t0)
    finally:
        setattr(owner, name, saved)
    rest = [a - b for a, b in zip(first, inside, strict=True)]
    med = statistics.median
    return {"first_ms": 1e3 * med(first), "inside_ms": 1e3 * med(inside),
            "dispatcher_ms": 1e3 * med(rest), "networkx_ms": 1e3 * med(theirs)}  # fmt: skip


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    ap.add_argument("--graphs", nargs="+", default=["urand:17", "grid:708"])
    ap.add_argument("--device", default="cpu", choices=["cpu", "gpu"])
    ap.add_argument("--repeat", type=int, default=7)
    ap.add_argument(
        "--split",
        nargs="*",
        default=["descendants_at_distance"],
        choices=CALLS,
        help="functions whose first calls are split (NetworkX's own call timed --repeat times)",
    )
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
            if name not in args.split:
                continue
            row |= first_call_split(name, call, G, s, args.repeat)
            print(f"{'':10} {'first calls':30} whole {row['first_ms']:8.3f}  backend's function "
                  f"{row['inside_ms']:8.3f}  the rest {row['dispatcher_ms']:7.3f}  NetworkX "
                  f"{row['networkx_ms']:8.3f} ms", flush=True)  # fmt: skip
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
