"""Clustering and transitivity of directed graphs through the NetworkX backend (session 55),
against NetworkX itself: ``clustering`` (Fagiolo's, a dict), ``average_clustering`` and
``transitivity`` (successor sets) of ``nx_backend.build``'s directed graph ``D``.

First calls, as ``nx_backend.py`` times them: the conversion cache cleared before each
warpgraph call (median of ``--repeat``, after one untimed call); NetworkX timed once (a
whole-graph call takes tens of seconds); every result checked equal to NetworkX's (the dict
in order, the floats exactly). The backend counts directed graphs on its device
(``nx.config.backends.warpgraph.device``, recorded per row; on the CPU whatever the device
until session 57).

Usage::

    cd benchmarks; python nx_directed_triangles.py --graphs urand:17 grid:708 --out d.json
"""

from __future__ import annotations

import statistics
import time

import networkx as nx
from _common import configure_backend, dump_rows, first_call_parser
from nx_backend import build

CASES = {
    "clustering, directed": nx.clustering,
    "average_clustering, directed": nx.average_clustering,
    "transitivity, directed": nx.transitivity,
}


def _timed(call) -> tuple[float, object]:
    t0 = time.perf_counter()
    result = call()
    return time.perf_counter() - t0, result


def _same(ours, theirs) -> bool:
    if isinstance(theirs, dict):
        return list(ours.items()) == list(theirs.items()) and all(
            type(ours[k]) is type(v) for k, v in theirs.items()
        )
    return ours == theirs and type(ours) is type(theirs)


def main() -> None:
    args = first_call_parser(__doc__).parse_args()
    device = configure_backend(args.device)
    rows = []
    for spec in args.graphs:
        D = build(spec)["D"]
        for name, func in CASES.items():
            func(D, backend="warpgraph")  # (compilation, untimed)
            theirs_s, theirs = _timed(lambda func=func, D=D: func(D))
            times = []
            for _ in range(args.repeat):
                D.__networkx_cache__.clear()
                took, ours = _timed(lambda func=func, D=D: func(D, backend="warpgraph"))
                times.append(took)
                if not _same(ours, theirs):
                    raise AssertionError(f"{spec} {name}: the backend's result is not NetworkX's")
            ours_s = statistics.median(times)
            rows.append({"graph": spec, "case": name, "device": device, "networkx_s": theirs_s,
                         "warpgraph_cold_s": ours_s, "speedup": theirs_s / ours_s})  # fmt: skip
            print(f"{spec:10} {name:30} NX {theirs_s:8.3f} s  warpgraph {ours_s * 1e3:8.1f} ms"
                  f"  {theirs_s / ours_s:7.1f}x", flush=True)  # fmt: skip
    dump_rows(args.out, "nx_directed_triangles", rows)


if __name__ == "__main__":
    main()
