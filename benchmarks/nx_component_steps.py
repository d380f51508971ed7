"""The steps of a first ``connected_components`` call on a graph read in place, timed apart.

A diagnostic beside ``benchmarks/nx_backend.py`` (same graphs): the union pass over the
NetworkX dicts (``nx/_dict_components.weak_components``) with and without labels, the
``_node``-order check, the set of every node built in parallel (``nx/_keyset.key_set``) and by
CPython, then whole first calls (conversion cache cleared) of ``connected_components`` and
``number_connected_components`` on each backend, and ``number_connected_components`` on the
cached graph (the dispatcher's cost and the call's). Each line: name, min and median ms of
``--repeat`` runs (a collection before each, the result freed after its clock stops), and the
median of the minor page faults during a run.

Usage::

    python benchmarks/nx_component_steps.py --graph grid:708 --devices cpu gpu
"""

from __future__ import annotations

import argparse
import gc
import json
import resource
import statistics
import time
import warnings
from collections.abc import Callable

import networkx as nx
from nx_backend import BACKEND, build, set_device

from warpgraph.cpu import threads
from warpgraph.nx import _dict_probes
from warpgraph.nx._dict_components import weak_components
from warpgraph.nx._keyset import key_set


def _faults() -> int:
    return resource.getrusage(resource.RUSAGE_SELF).ru_minflt


def timed(f: Callable[[], object], repeat: int) -> tuple[float, float, int]:
    """(min ms, median ms, median minor faults) of ``repeat`` runs after one untimed run."""
    f()
    times, faults = [], []
    for _ in range(repeat):
        gc.collect()
        before = _faults()
        t = time.perf_counter()
        result = f()
        times.append(time.perf_counter() - t)
        faults.append(_faults() - before)
        del result
    return (
        round(1e3 * min(times), 3),
        round(1e3 * statistics.median(times), 3),
        int(statistics.median(faults)),
    )


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--graph", default="grid:708")
    ap.add_argument("--devices", nargs="+", default=["cpu"], choices=["cpu", "gpu"])
    ap.add_argument("--repeat", type=int, default=9)
    ap.add_argument("--out", default=None, help="JSON path")
    args = ap.parse_args(argv)
    if args.repeat < 1:
        ap.error("--repeat must be at least 1")
    threads.DYNAMIC_THREADS = False  # all Numba threads, whatever the load average
    warnings.filterwarnings("ignore", message="Note: conversions to backend graphs")
    U = build(args.graph)["U"]
    gc.freeze()  # the graph: not walked by the collection before each run
    steps: dict[str, Callable[[], object]] = {
        "union_pass_no_labels": lambda: weak_components(U, False),
        "union_pass_labels": lambda: weak_components(U, True),
        "node_order_check": lambda: _dict_probes.int_range_keys(U._node),
        "node_set_parallel": lambda: key_set(U._node),
        "node_set_cpython": lambda: set(U._node),
    }
    out: dict[str, object] = {"graph": args.graph}
    for name, f in steps.items():
        out[name] = timed(f, args.repeat)
        print(name, out[name], flush=True)

    def first(call: Callable[[], object]) -> Callable[[], object]:
        def run() -> object:
            U.__networkx_cache__.clear()
            return call()

        return run

    for dev in args.devices:
        set_device(dev)
        calls = {
            "connected_components": lambda: list(nx.connected_components(U, backend=BACKEND)),
            "number_connected_components": lambda: nx.number_connected_components(
                U, backend=BACKEND
            ),
        }
        for name, call in calls.items():
            out[f"{dev}_{name}_first"] = timed(first(call), args.repeat)
            print(f"{dev}_{name}_first", out[f"{dev}_{name}_first"], flush=True)
        U.__networkx_cache__.clear()
        nx.core_number(U, backend=BACKEND)  # the structure converted and cached
        out[f"{dev}_number_connected_components_cached"] = timed(
            calls["number_connected_components"], args.repeat
        )
        print(
            f"{dev}_number_connected_components_cached",
            out[f"{dev}_number_connected_components_cached"],
        )
    if args.out:
        with open(args.out, "w") as fh:
            json.dump(out, fh, indent=1)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
