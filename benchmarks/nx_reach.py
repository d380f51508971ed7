"""``descendants`` and ``ancestors`` first calls: searched on the dicts in place against the
graph converted first.

A diagnostic beside ``benchmarks/nx_backend.py`` (same graphs and source, the directed graph
``D``): for each graph, device and function, first calls (conversion cache cleared) alternate
between the backend as it is (``in_place``: :mod:`warpgraph.nx._dict_reach` where it applies)
and the same backend with the search in place switched off (``converted``: the graph converted,
then a BFS); one untimed round first, then the median and min of ``--repeat`` calls each.
With ``--steps`` the in-place calls are also timed step by step (the short search first tried,
the outer dict read, the search, the set; where the set's order matters, the search again in
NetworkX's order and the set built in it). With ``--workers`` the in-place search is also run
with each of those thread counts (``in_place_w<k>``): how it scales on the host's cores.
With ``--undirected-ab B ...`` the undirected graph ``U`` is measured instead, as it is
against its components read first (``components_pass``, as before session 65), and, for each
``grid:R``, on copies with the edges around a ``B`` x ``B`` corner block cut, from a node inside
the block (a small component) and from one outside it (the rest of the lattice); NetworkX's own
time beside them.

Usage::

    python benchmarks/nx_reach.py urand:17 grid:708 --devices cpu gpu --out reach.json
    python benchmarks/nx_reach.py grid:708 --workers 1 2 4 8 16 --out scaling.json
    python benchmarks/nx_reach.py grid:708 --undirected-ab 55 165 --out small.json
"""

from __future__ import annotations

import argparse
import gc
import json
import statistics
import time
import warnings
from collections.abc import Callable
from functools import partial

import networkx as nx
import numba
from nx_backend import BACKEND, build, edges_for, parse_spec, set_device

from warpgraph.nx import _component_order, _cpython, _dict_reach, _keyset, reachability

STEPS = (
    (reachability, "reach_within"),
    (_cpython, "row_tables"),
    (_dict_reach, "_search"),
    (_keyset, "key_set"),
    # (where the nodes found need NetworkX's order: searched again so, then their set)
    (_component_order, "reached_order"),  # (the rows read by all threads, then searched)
    (_component_order, "search_orders_in_place"),  # (on the dicts, one row at a time)
    (_component_order, "keys_set"),
)


def _timed_steps(spent: dict[str, float]) -> Callable[[], None]:
    """Wrap the :data:`STEPS` so each adds its seconds to ``spent``; returns the undo."""
    saved = [(mod, name, getattr(mod, name)) for mod, name in STEPS]
    for mod, name, real in saved:

        def timed(*args, _real=real, _name=name, **kwargs):
            t0 = time.perf_counter()
            try:
                return _real(*args, **kwargs)
            finally:
                spent[_name] = spent.get(_name, 0.0) + time.perf_counter() - t0

        setattr(mod, name, timed)

    def undo() -> None:
        for mod, name, real in saved:
            setattr(mod, name, real)

    return undo


def _in_place_with(workers: int, rows_of: dict, source) -> set | None:
    """:func:`reachability._in_place` with the search on ``workers`` threads."""
    return _dict_reach.reach(rows_of, hash(source), workers, want="set")


def _order_on_dicts(rows_of: dict, source) -> set | None:
    """:func:`reachability._in_place` with a set whose order matters searched again on the
    dicts one row at a time (``ORDER_FROM_ROWS_READ`` off), as before session 65."""
    _component_order.ORDER_FROM_ROWS_READ = False
    try:
        return real_in_place(rows_of, source)
    finally:
        _component_order.ORDER_FROM_ROWS_READ = True


real_in_place = reachability._in_place
real_undirected = reachability._undirected_in_place


def _components_pass(G, source) -> set | None:
    """:func:`reachability._undirected_in_place` without the source's component searched
    alone first: every component read in place (as before session 65)."""
    return reachability._component_less(G, source)


def cut_lattice(spec: str, block: int) -> nx.Graph:
    """The lattice of ``spec`` (``grid:R``) without the edges joining its ``block`` x
    ``block`` corner (ids ``i * R + j``, ``i, j < block``) to the rest: two components."""
    kind, side, _ = parse_spec(spec)
    if kind != "grid" or not 0 < block < side:
        raise SystemExit(f"--undirected-ab needs grid:R specs and 0 < B < R ({spec}, {block})")
    n, s, d = edges_for(spec)
    inside_s = (s // side < block) & (s % side < block)
    inside_d = (d // side < block) & (d % side < block)
    keep = inside_s == inside_d
    U = nx.Graph()
    U.add_nodes_from(range(n))
    U.add_edges_from(zip(s[keep].tolist(), d[keep].tolist(), strict=True))
    return U


def _first_calls(f, G, source, variants: dict, repeat: int, swap) -> dict[str, list[float]]:
    """Seconds of first calls ``f(G, source)`` (conversion cache cleared) for each variant
    (installed by ``swap(variant)``, which returns the undo), alternating; round 0 untimed."""
    times: dict[str, list[float]] = {v: [] for v in variants}
    for r in range(repeat + 1):
        for name, variant in variants.items():
            undo = swap(variant)
            G.__networkx_cache__.clear()
            gc.collect()
            t0 = time.perf_counter()
            try:
                f(G, source, backend=BACKEND)
            finally:
                elapsed = time.perf_counter() - t0
                undo()
            if r:
                times[name].append(elapsed)
    return times


def _summary(times: dict[str, list[float]]) -> dict[str, float]:
    row = {v: round(statistics.median(t) * 1e3, 3) for v, t in times.items()}
    return row | {v + "_min": round(min(t) * 1e3, 3) for v, t in times.items()}


def _swap_undirected(variant):
    reachability._undirected_in_place = variant

    def undo() -> None:
        reachability._undirected_in_place = real_undirected

    return undo


def undirected_ab(specs: list[str], blocks: list[int], devices: list[str], repeat: int) -> dict:
    """The ``--undirected-ab`` report: ``descendants`` of the undirected graphs, the source's
    component searched alone first (``in_place``) against the components pass."""
    variants = {"in_place": real_undirected, "components_pass": _components_pass}
    cases = []
    for spec in specs:
        g = build(spec)
        cases.append((f"{spec} connected", g["U"], g["source"]))
        for b in blocks if parse_spec(spec)[0] == "grid" else []:
            U = cut_lattice(spec, b)
            side = parse_spec(spec)[1]
            cases.append((f"{spec} cut {b}x{b}, inside", U, 0))
            cases.append((f"{spec} cut {b}x{b}, outside", U, side * side - 1))
    report: dict[str, dict] = {}
    for label, U, source in cases:
        gc.freeze()
        t0 = time.perf_counter()
        expected = nx.descendants(U, source, backend="networkx")
        networkx_ms = (time.perf_counter() - t0) * 1e3
        for dev in devices:
            set_device(dev)
            times = _first_calls(nx.descendants, U, source, variants, repeat, _swap_undirected)
            U.__networkx_cache__.clear()
            got = nx.descendants(U, source, backend=BACKEND)
            row = _summary(times) | {
                "networkx_ms": round(networkx_ms, 3),
                "reached": len(expected),
                "equal": got == expected and list(got) == list(expected),
            }
            report[f"{label} {dev} descendants"] = row
            print(f"{label} {dev} descendants", row, flush=True)
        gc.unfreeze()
    return report


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    ap.add_argument("graphs", nargs="+", help="graph specs of nx_backend.py (urand:17, grid:708)")
    ap.add_argument("--devices", nargs="+", default=["cpu"], choices=["cpu", "gpu"])
    ap.add_argument("--repeat", type=int, default=7)
    ap.add_argument("--steps", action="store_true", help="also time the in-place steps")
    ap.add_argument(
        "--workers", nargs="+", type=int, default=[], help="also search in place with these threads"
    )
    ap.add_argument(
        "--order-ab",
        action="store_true",
        help="also search in place with the order searched on the dicts (in_place_order_on_dicts)",
    )
    ap.add_argument(
        "--undirected-ab",
        nargs="+",
        type=int,
        default=None,
        metavar="B",
        help="measure the undirected graphs' small-component search instead (see above)",
    )
    ap.add_argument("--out", default=None, help="JSON path")
    args = ap.parse_args(argv)
    if args.repeat < 1:
        ap.error("--repeat must be at least 1")
    if any(w < 1 for w in args.workers):
        ap.error("--workers must be at least 1")
    if any(w > numba.config.NUMBA_NUM_THREADS for w in args.workers):
        ap.error(f"--workers above Numba's {numba.config.NUMBA_NUM_THREADS} threads")
    warnings.filterwarnings("ignore", message="Note: conversions to backend graphs")
    if args.undirected_ab is not None:
        report = undirected_ab(args.graphs, args.undirected_ab, args.devices, args.repeat)
        if args.out:
            with open(args.out, "w") as fh:
                json.dump(report, fh, indent=1)
        return 0
    real = reachability._in_place
    variants = {"in_place": real, "converted": lambda rows_of, source: None}
    for w in args.workers:
        variants[f"in_place_w{w}"] = partial(_in_place_with, w)
    if args.order_ab:
        variants["in_place_order_on_dicts"] = _order_on_dicts
    report: dict[str, dict] = {}
    for spec in args.graphs:
        g = build(spec)
        D, source = g["D"], g["source"]
        gc.freeze()
        for dev in args.devices:
            set_device(dev)
            for f in (nx.descendants, nx.ancestors):
                spent: dict[str, float] = {}
                steps: list[dict[str, float]] = []  # (one per in_place call, round 0's first)

                def swap(search, _spent=spent, _steps=steps):
                    reachability._in_place = search
                    timed = args.steps and search is real
                    undo_steps = _timed_steps(_spent) if timed else None
                    _spent.clear()

                    def undo() -> None:
                        reachability._in_place = real
                        if undo_steps is not None:
                            undo_steps()
                            _steps.append(dict(_spent))

                    return undo

                times = _first_calls(f, D, source, variants, args.repeat, swap)
                row = _summary(times)
                if steps[1:]:  # (round 0 warms up)
                    row["steps_ms"] = {
                        k: round(statistics.median(s.get(k, 0.0) for s in steps[1:]) * 1e3, 3)
                        for k in steps[1]
                    }
                key = f"{spec} {dev} {f.__name__}"
                report[key] = row
                print(key, row, flush=True)
        gc.unfreeze()
    if args.out:
        with open(args.out, "w") as fh:
            json.dump(report, fh, indent=1)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
