"""One-node and some-node calls of the all-pairs measures through the NetworkX backend:
``closeness_centrality(G, u=s)`` (undirected and directed: NetworkX searches ``G.reverse()``,
a copy) and ``eccentricity(G, v=s)``, against NetworkX itself.

First calls, as ``nx_backend.py`` times them: the conversion cache cleared before each
warpgraph call (median of ``--repeat``, after one untimed call on the graph); NetworkX median
of 3; every result checked equal to NetworkX's. The source is ``nx_backend.build``'s (a random
node with an edge). ``--device`` sets ``nx.config.backends.warpgraph.device`` (default
``auto``: the GPU where CuPy sees one); the device the backend resolved is recorded per row.

With ``--ab`` each warpgraph call is also timed with the search on the NetworkX dicts in
place switched off (``distance_measures.ONE_SEARCH_IN_PLACE``: the graph converted first, the
way before session 64), the two kinds of call alternating, round by round.

Usage::

    cd benchmarks; python nx_one_node.py --graphs urand:17 grid:708 --out one_node.json
    python nx_one_node.py --graphs urand:17 grid:708 --ab --repeat 9
"""

from __future__ import annotations

import statistics
import time

import networkx as nx
from _common import configure_backend, dump_rows, first_call_parser, median_call
from nx_backend import build

from warpgraph.nx import distance_measures

CASES = {
    "closeness_centrality(u)": ("U", lambda G, s, **kw: nx.closeness_centrality(G, u=s, **kw)),
    "closeness_centrality(u), directed": (
        "D",
        lambda G, s, **kw: nx.closeness_centrality(G, u=s, **kw),
    ),
    "eccentricity(v)": ("U", lambda G, s, **kw: nx.eccentricity(G, v=s, **kw)),
}


def alternating(call, repeat: int, clear) -> dict[str, float]:
    """Median first-call seconds of ``call`` with the in-place search on and off, the two
    alternating (``clear()`` before each call, untimed)."""
    times: dict[str, list[float]] = {"in_place": [], "converted": []}
    try:
        for _ in range(repeat):
            for mode in times:
                distance_measures.ONE_SEARCH_IN_PLACE = mode == "in_place"
                clear()
                t0 = time.perf_counter()
                call()
                times[mode].append(time.perf_counter() - t0)
    finally:
        distance_measures.ONE_SEARCH_IN_PLACE = True
    return {mode: statistics.median(seconds) for mode, seconds in times.items()}


def main() -> None:
    parser = first_call_parser(__doc__)
    parser.add_argument("--ab", action="store_true", help="also time the graph converted first")
    args = parser.parse_args()
    device = configure_backend(args.device)
    rows = []
    for spec in args.graphs:
        info = build(spec)
        s = info["source"]
        for name, (which, call) in CASES.items():
            G = info["U"] if which == "U" else info["D"]
            call(G, s, backend="warpgraph")  # (compilation, untimed)
            theirs_s, theirs = median_call(lambda G=G, call=call, s=s: call(G, s), 3)
            ours_s, ours = median_call(
                lambda G=G, call=call, s=s: call(G, s, backend="warpgraph"),
                args.repeat,
                clear=G.__networkx_cache__.clear,
            )
            if ours != theirs or type(ours) is not type(theirs):
                raise AssertionError(f"{spec} {name}: {ours!r} != NetworkX's {theirs!r}")
            row = {"graph": spec, "case": name, "device": device, "networkx_s": theirs_s,
                   "warpgraph_cold_s": ours_s, "speedup": theirs_s / ours_s}  # fmt: skip
            print(f"{spec:10} {name:36} NX {theirs_s:8.3f} s  warpgraph {ours_s * 1e3:8.1f} ms"
                  f"  {theirs_s / ours_s:7.1f}x")  # fmt: skip
            if args.ab:
                row["ab_cold_s"] = alternating(
                    lambda G=G, call=call, s=s: call(G, s, backend="warpgraph"),
                    args.repeat,
                    G.__networkx_cache__.clear,
                )
                pairs = row["ab_cold_s"].items()
                print("  " + "  ".join(f"{k} {v * 1e3:.2f} ms" for k, v in pairs))
            rows.append(row)
    dump_rows(args.out, "nx_one_node", rows)


if __name__ == "__main__":
    main()
