"""Searches along a directed graph's in-arcs through the NetworkX backend (session 55), against
NetworkX itself: ``single_target_shortest_path_length``, ``single_target_shortest_path``,
``shortest_path_length(G, target=t)`` (also Dijkstra's, ``weight="w"``: ints 1-100 set on
the arcs here, and from session 56 Bellman-Ford's) and ``bfs_edges(G, t, reverse=True)`` of
``nx_backend.build``'s directed graph ``D`` (urand:17: the benchmark's source, which 131k nodes
reach; grid:708: the last node, which every node reaches), beside the forward
``single_source_shortest_path_length`` for scale. Before session 55 NetworkX ran these (the
backend declined them: NetworkX reads ``_pred`` in its own order).

First calls (the conversion cache cleared, median of ``--repeat``) and cached calls; NetworkX
once; every result compared with NetworkX's (dicts in order, lists of edges) by a digest
of its items, so that no large result is alive while another call is timed (before session
56 NetworkX's was: with its 500k paths to a target of grid:708 alive, the backend's call
took 4-5 s instead of 0.8 s on 2 cores, and with the collector off too). The graph is
frozen (``gc.freeze``) for the timed calls, as in ``nx_backend.py``.

Usage::

    cd benchmarks; python nx_in_arcs.py --out results/nx_in_arcs.json
"""

from __future__ import annotations

import gc
import hashlib
import pickle

import networkx as nx
import numpy as np
from _common import configure_backend, dump_rows, first_call_parser, median_call
from nx_backend import build


def _cases(D, t, s) -> dict:
    return {
        "single_target_shortest_path_length": lambda **kw: nx.single_target_shortest_path_length(
            D, t, **kw
        ),
        "single_target_shortest_path": lambda **kw: nx.single_target_shortest_path(D, t, **kw),
        "shortest_path_length(G, target=t)": lambda **kw: nx.shortest_path_length(
            D, target=t, **kw
        ),
        "bfs_edges(G, t, reverse=True)": lambda **kw: list(nx.bfs_edges(D, t, reverse=True, **kw)),
        "shortest_path_length(G, target=t, weight=w)": lambda **kw: nx.shortest_path_length(
            D, target=t, weight="w", **kw
        ),
        "shortest_path_length(G, target=t, weight=w, method=bellman-ford)": (
            lambda **kw: nx.shortest_path_length(
                D, target=t, weight="w", method="bellman-ford", **kw
            )
        ),
        "single_source_shortest_path_length (forward)": (
            lambda **kw: nx.single_source_shortest_path_length(D, s, **kw)
        ),
    }


def _digest(result) -> str:
    """A digest of ``result``'s items in order (a dict's pairs, a list's entries), to compare
    results without keeping one alive while the other is timed."""
    h = hashlib.sha256()
    for item in result.items() if isinstance(result, dict) else result:
        h.update(pickle.dumps(item, 5))
    return h.hexdigest()


def main() -> None:
    args = first_call_parser(__doc__).parse_args()
    device = configure_backend(args.device)
    rows = []
    for spec in args.graphs:
        info = build(spec)
        D = info["D"]
        w = np.random.default_rng(11).integers(1, 101, D.number_of_edges()).tolist()
        nx.set_edge_attributes(D, dict(zip(D.edges(), w, strict=True)), "w")
        t = info["source"] if spec.startswith("urand") else len(D) - 1
        for name, call in _cases(D, t, info["source"]).items():
            call(backend="warpgraph")  # (compilation, untimed)
            gc.collect()
            gc.freeze()  # (as nx_backend.py: the collector does not walk the graph)
            theirs_s, theirs = median_call(call, 1)
            theirs = _digest(theirs)  # (dropped: timed calls run with no large result alive)
            ours_s, ours = median_call(lambda call=call: call(backend="warpgraph"), args.repeat,
                                  D.__networkx_cache__.clear)  # fmt: skip
            if _digest(ours) != theirs:
                raise AssertionError(f"{spec} {name}: the backend's result is not NetworkX's")
            del ours
            cached_s, _ = median_call(lambda call=call: call(backend="warpgraph"), args.repeat)
            del _
            gc.unfreeze()
            rows.append({"graph": spec, "case": name, "device": device, "networkx_s": theirs_s,
                         "warpgraph_cold_s": ours_s, "warpgraph_cached_s": cached_s,
                         "speedup": theirs_s / ours_s})  # fmt: skip
            print(
                f"{spec:10} {name:50} NX {theirs_s:8.3f} s  first {ours_s * 1e3:8.1f} ms"
                f"  cached {cached_s * 1e3:8.1f} ms  {theirs_s / ours_s:6.1f}x",
                flush=True,
            )
    dump_rows(args.out, "nx_in_arcs", rows)


if __name__ == "__main__":
    main()
