"""Where a NetworkX-backend call spends its time: conversion phases, then a cProfile per call.

A diagnostic beside ``benchmarks/nx_backend.py`` (same graphs, same calls): for each graph it
times the conversion's phases (the parallel dict-table scan, the row sort, the copy to the
device), then profiles each ``--algorithms`` call cold (conversion cache cleared) and cached and
prints the functions with the most own time. Compilation is excluded by the same warm-up.

Usage::

    python benchmarks/nx_profile.py --graphs urand:17 grid:708 --device gpu \\
        --algorithms connected_components core_number --out prof.txt
"""

from __future__ import annotations

import argparse
import cProfile
import io
import pstats
import resource
import sys
import time
import warnings
from functools import partial

import numpy as np
from nx_backend import BACKEND, CASES, build, set_device, warm_up

from warpgraph.nx import _cpython as raw
from warpgraph.nx._csr import sort_rows
from warpgraph.nx.interface import backend_interface


def best_ms(fn, repeat: int = 5) -> float:
    times = []
    for _ in range(repeat):
        t0 = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t0)
    return 1e3 * min(times)


def conversion_phases(G, device: str) -> str:
    """Best-of-5 milliseconds of each conversion phase of ``G`` (unweighted)."""
    out = {}
    out["total"] = best_ms(lambda: backend_interface.convert_from_nx(G))
    out["list(G)"] = best_ms(lambda: list(G))
    if raw.available():
        out["table scan"] = best_ms(lambda: raw.graph_adjacency(G._node, G._adj, False, None))
        _, _, table = raw.graph_adjacency(G._node, G._adj, False, None)
        out["row sort"] = best_ms(lambda: sort_rows(table.indptr, table.ids, table.unsorted))
    W = backend_interface.convert_from_nx(G)
    if device == "gpu":
        out["copy to gpu"] = best_ms(lambda: W.graph.to("gpu"))
    n, n_ids = len(W), np.arange(len(W))
    ints = n_ids.tolist()
    out["dict(zip(nodes, ints)) per node"] = best_ms(lambda: dict(zip(W.nodes, ints, strict=True)))
    return "  ".join(f"{k} {v:.2f} ms" for k, v in out.items()) + f"  (n={n})"


def minor_faults() -> int:
    """Page faults served without I/O so far (first touches of fresh memory)."""
    return resource.getrusage(resource.RUSAGE_SELF).ru_minflt


def profiled(fn, top: int) -> tuple[float, int, str]:
    prof = cProfile.Profile()
    faults = minor_faults()
    t0 = time.perf_counter()
    prof.enable()
    fn()
    prof.disable()
    seconds = time.perf_counter() - t0
    faults = minor_faults() - faults
    buf = io.StringIO()
    pstats.Stats(prof, stream=buf).sort_stats("tottime").print_stats(top)
    lines = [ln for ln in buf.getvalue().splitlines() if ln.strip()]
    start = next(i for i, ln in enumerate(lines) if ln.lstrip().startswith("ncalls"))
    return seconds, faults, "\n".join(lines[start : start + top + 1])


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    ap.add_argument("--graphs", nargs="+", default=["urand:17", "grid:708"])
    ap.add_argument("--device", default="cpu", choices=["cpu", "gpu"])
    ap.add_argument("--algorithms", nargs="+", default=list(CASES))
    ap.add_argument("--top", type=int, default=12, help="functions listed per profile")
    ap.add_argument("--out", default=None, help="also write the full report here")
    args = ap.parse_args(argv)
    warnings.filterwarnings("ignore", message="Note: conversions to backend graphs")
    report = []

    def say(text: str) -> None:
        print(text, flush=True)
        report.append(text)

    warm_up(args.algorithms, [args.device])
    set_device(args.device)
    for spec in args.graphs:
        g = build(spec)
        for kind in ("U", "D"):
            say(f"# {spec} {kind} conversion: {conversion_phases(g[kind], args.device)}")
        for name in args.algorithms:
            kind, call = CASES[name]
            G = g[kind]
            G.__networkx_cache__.clear()
            run = partial(call, G, g["source"], {"backend": BACKEND})
            for label in ("cold", "cached"):
                t0 = time.perf_counter()
                faults = minor_faults()
                run()  # unprofiled first: cProfile's own overhead is per Python call
                plain, faults = time.perf_counter() - t0, minor_faults() - faults
                if label == "cold":
                    G.__networkx_cache__.clear()
                seconds, _, table = profiled(run, args.top)
                say(
                    f"## {spec} {name} {label}: {1e3 * plain:.1f} ms, {faults} minor page faults"
                    f" ({1e3 * seconds:.1f} ms under cProfile)\n{table}"
                )
            G.__networkx_cache__.clear()
        del g
    if args.out:
        with open(args.out, "w") as fh:
            fh.write("\n".join(report) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
