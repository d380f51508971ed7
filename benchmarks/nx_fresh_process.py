"""First calls of the NetworkX backend in a fresh process, as a user's script makes them.

``nx_backend.py`` times many calls in one long process, after a warm-up; this script does
nothing before building the graph, so whatever state a fresh interpreter starts in (glibc's
mmap threshold, for one: ``warpgraph/_alloc.py``) shows. It builds one benchmark graph (as
``nx_backend.build`` does), then for each function makes one untimed call (Numba's cache load)
and ``--cold-repeat`` timed first calls, each with the conversion cache cleared, then times the
conversion alone, and prints one JSON line of the medians in ms. The order matters: what a
process freed before changes the allocator's state after. Run it several times,
alternating the trees compared (``PYTHONPATH=old/src``), for an A/B.

A user's loop (``for ...: R = nx.k_core(G)``) holds the previous result while the next one is
built, so the heaps grow by a result's size in the second call: ``--keep-previous`` does the
same. ``--warm-up GRAPH`` makes one untimed call of each function on a smaller graph first, as
earlier work in a user's process would (Numba's caches and worker threads, the workers'
malloc arenas), in place of the untimed call on the measured graph: the first timed call is
then the first on that graph; ``--freeze`` moves the built graph out of the collector's walks, as
``nx_backend.py`` does. ``--phases`` adds each timed call's record: its time, page faults,
collections and the result-building phases of ``_phases.PhaseRecorder``. Sessions 27-28
measured glibc's heap top pad this way (``MALLOC_TOP_PAD_=131072`` turns warpgraph's pad off).

Usage::

    python benchmarks/nx_fresh_process.py --graph grid:708 --label after
    PYTHONPATH=/path/to/old/src python benchmarks/nx_fresh_process.py --label before
    python benchmarks/nx_fresh_process.py --graph urand:17 --device gpu --functions k_core \
        --warm-up urand:14 --keep-previous --freeze --phases --cold-repeat 4
"""

from __future__ import annotations

import argparse
import contextlib
import gc
import json
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

FUNCTIONS = ("number_connected_components", "connected_components", "core_number", "triangles")


def _first_call(f, G, consume: bool, phases=None) -> tuple[float, object, dict | None]:
    """One call with the conversion cache cleared: seconds, result, phase record (or None)."""
    G.__networkx_cache__.clear()
    gc.collect()
    if phases is not None:
        phases.start()
    t = time.perf_counter()
    r = f(G, backend="warpgraph")
    if consume:
        r = list(r)
    elapsed = time.perf_counter() - t
    record = None if phases is None else {"ms": round(elapsed * 1e3, 3), **phases.stop()}
    return elapsed, r, record


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--graph", default="grid:708")
    p.add_argument("--device", choices=["cpu", "gpu"], default="cpu")
    p.add_argument("--functions", nargs="+", default=list(FUNCTIONS))
    p.add_argument("--cold-repeat", type=int, default=5)
    p.add_argument("--label", default="")
    p.add_argument("--warm-up", default=None, metavar="GRAPH",
                   help="one untimed call of each function on this graph first")  # fmt: skip
    p.add_argument("--keep-previous", action="store_true",
                   help="hold each result while the next call builds its own")  # fmt: skip
    p.add_argument("--freeze", action="store_true", help="gc.freeze() the built graph")
    p.add_argument("--phases", action="store_true", help="each timed call's record too")
    args = p.parse_args(argv)
    if args.cold_repeat < 1:
        p.error("--cold-repeat must be at least 1")

    import networkx as nx
    import nx_backend

    unknown = [f for f in args.functions if not callable(getattr(nx, f, None))]
    if unknown:
        p.error(f"--functions: not NetworkX functions: {', '.join(unknown)}")
    for spec in filter(None, (args.warm_up, args.graph)):
        nx_backend.parse_spec(spec)  # (an unknown graph refused before any work)
    config = nx.config.backends.warpgraph
    earlier, config.device = config.device, args.device
    try:
        if args.warm_up:
            small = nx_backend.build(args.warm_up)["U"]
            for name in args.functions:
                _first_call(getattr(nx, name), small, _consumed(name))
            del small
        G = nx_backend.build(args.graph)["U"]
        if args.freeze:
            gc.collect()
            gc.freeze()
        out = _measure(nx, G, args)
        from warpgraph.nx import fast_paths  # (after the calls, as in nx_backend.save)

        out["fast_paths"] = fast_paths()
    finally:
        config.device = earlier
        if args.freeze:
            gc.unfreeze()
    print(json.dumps(out))
    return 0


def _consumed(name: str) -> bool:
    """Whether the function returns a generator of sets (timed until it is drained)."""
    return name.endswith("components") and not name.startswith("number")


def _measure(nx, G, args) -> dict:
    from _phases import PhaseRecorder

    from warpgraph.nx.interface import backend_interface

    out: dict = {"label": args.label, "graph": args.graph, "device": args.device}
    if args.warm_up:
        out["warm_up"] = args.warm_up
    with PhaseRecorder() if args.phases else contextlib.nullcontext() as phases:
        for name in args.functions:  # first: what a process did before changes what comes after
            f = getattr(nx, name)
            consume = _consumed(name)
            if not args.warm_up:  # (else the warm-up graph loaded Numba's caches)
                _first_call(f, G, consume)  # (untimed: Numba's cache load)
            times, records, held = [], [], None
            for _ in range(args.cold_repeat):
                elapsed, result, record = _first_call(f, G, consume, phases)
                held = result if args.keep_previous else None  # (the one before: freed now)
                del result
                times.append(elapsed)
                records.append(record)
            del held
            out[f"{name}_ms"] = round(statistics.median(times) * 1e3, 2)
            out[f"{name}_all_ms"] = [round(t * 1e3, 2) for t in times]
            if args.phases:
                out[f"{name}_calls"] = records
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
