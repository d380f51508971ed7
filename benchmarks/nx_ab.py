"""warpgraph's side of NetworkX-backend calls, for before/after comparisons of the backend.

Times chosen calls of ``benchmarks/nx_backend.py``'s cases cold (conversion cache cleared) and
cached, median of ``--repeat`` each, on the CPU and GPU backends, without running NetworkX.
Run it once per source tree, alternating, and compare the lines::

    for r in 1 2; do for t in old new; do
        PYTHONPATH=$PWD/trees/$t/src python benchmarks/nx_ab.py --graph grid:708 --label $t
    done; done

Each line: label, graph, device, function, cold ms, cached ms; ``--out`` also writes JSON.

With ``--tables-ab`` each cold call is paired, in the same process and in alternating order,
with one that has the result tables sized by CPython (``dict.fromkeys``, one thread) in place
of :mod:`warpgraph.nx._presized`'s (cleared by all threads): the line adds that call's median
(``tables_off``). Session 32 measured that change so (``docs/PERFORMANCE.md``)::

    python benchmarks/nx_ab.py --graph grid:708 --repeat 9 --tables-ab --fixed-threads
"""

from __future__ import annotations

import argparse
import gc
import json
import statistics
import sys
import warnings

from nx_backend import BACKEND, CASES, build, set_device, timed, warm_up

import warpgraph
from warpgraph.nx import _presized

DEFAULT = [
    "connected_components",
    "node_connected_component",
    "weakly_connected_components",
    "k_core",
    "k_shell",
    "k_truss",
    "k_crust",
    "k_corona",
]


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    ap.add_argument("--graph", default="grid:708")
    ap.add_argument("--label", default="this", help="names the source tree in the output")
    ap.add_argument("--algorithms", nargs="+", default=DEFAULT, choices=list(CASES))
    ap.add_argument("--devices", nargs="+", default=["cpu", "gpu"], choices=["cpu", "gpu"])
    ap.add_argument("--repeat", type=int, default=5, help="cold and cached runs (median)")
    ap.add_argument("--out", default=None, help="JSON path")
    ap.add_argument(
        "--fixed-threads",
        action="store_true",
        help="all Numba threads whatever the load average (warpgraph.cpu.threads): the "
        "load-based thread count otherwise follows what ran in the last minute, which differs "
        "between the runs being compared",
    )
    ap.add_argument(
        "--tables-ab",
        action="store_true",
        help="pair each cold call with one whose result tables CPython sizes (one thread)",
    )
    args = ap.parse_args(argv)
    if args.tables_ab and not _presized.available():
        ap.error("--tables-ab: result tables are not sized in parallel on this Python")
    if args.fixed_threads:
        from warpgraph.cpu import threads

        threads.DYNAMIC_THREADS = False
    if args.repeat < 1:
        ap.error("--repeat must be at least 1")
    warnings.filterwarnings("ignore", message="Note: conversions to backend graphs")
    warm_up(args.algorithms, args.devices)
    g = build(args.graph)
    gc.freeze()  # the source graphs: not walked by the collection before each timed call
    out = {"graph": args.graph, "label": args.label, "src": warpgraph.__file__, "results": []}
    for dev in args.devices:
        set_device(dev)
        for name in args.algorithms:
            kind, call = CASES[name]
            G = g[kind]

            def run(G=G, call=call):
                return call(G, g["source"], {"backend": BACKEND})

            run()  # the size-chosen variants compiled, as nx_backend.py's warm call
            cold, cached, tables_off = [], [], []
            for r in range(args.repeat):  # timed as nx_backend.py: a collection before each
                if args.tables_ab and r % 2:  # call, the result freed after its clock stops
                    tables_off.append(_cold_with_cpython_tables(G, run))
                G.__networkx_cache__.clear()
                cold.append(timed(run)[0])
                cached.append(timed(run)[0])
                if args.tables_ab and not r % 2:
                    tables_off.append(_cold_with_cpython_tables(G, run))
            row = {
                "device": dev,
                "algorithm": name,
                "cold_ms": 1e3 * statistics.median(cold),
                "cached_ms": 1e3 * statistics.median(cached),
            }
            line = f"cold {row['cold_ms']:7.1f} cached {row['cached_ms']:7.1f}"
            if args.tables_ab:
                row["tables_off_cold_ms"] = 1e3 * statistics.median(tables_off)
                row["cold_all_ms"] = [1e3 * t for t in cold]
                row["tables_off_cold_all_ms"] = [1e3 * t for t in tables_off]
                line += f" tables_off {row['tables_off_cold_ms']:7.1f}"
            out["results"].append(row)
            print(f"{args.label} {args.graph} {dev} {name:30s} {line}", flush=True)
    if args.out:
        with open(args.out, "w") as fh:
            json.dump(out, fh, indent=1)
    return 0


def _cold_with_cpython_tables(G, run) -> float:
    """Seconds of a cold call of ``run`` with the result tables sized by ``dict.fromkeys``
    (:mod:`warpgraph.nx._presized` switched off for the call)."""
    G.__networkx_cache__.clear()
    _presized._STATE["ok"] = False
    try:
        return timed(run)[0]
    finally:
        _presized._STATE["ok"] = True


if __name__ == "__main__":
    sys.exit(main())
