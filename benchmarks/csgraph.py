"""``warpgraph.csgraph`` against ``scipy.sparse.csgraph``: the same call on the same matrix.

Each function of the front-end runs on one SciPy CSR matrix (the input a SciPy user already
has) with ``device=`` each ``--devices`` entry, and SciPy's function on the same matrix; both
are timed end to end (reading the matrix, the search, the result as NumPy arrays), median of
``--repeat`` runs after one warm-up run (Numba compilation and GPU module loading excluded;
a SciPy call slower than ``--slow`` seconds is timed once, its warm-up run). The runs are
interleaved: each round calls SciPy, then each device, so that a busy moment of a shared host
falls on every column of the row alike (on the H200 host the same sequential scan took 4 ms
in one round and 11 ms in the next); each row also records the median of the rounds' own
ratios (``paired_speedup``).
Every result is compared with SciPy's: orders, labels and trees exactly, distances exactly
(integer weights), predecessors not at all (another of several shortest paths may be named).

Graphs: ``urand:S`` (2**S nodes, 8 * 2**S uniform random arcs, integer weights 1..100 as
float64, duplicates summed) and ``grid:R`` (R x R lattice, both directions, the same weights).
Floyd-Warshall (O(N**3) in SciPy) runs on the smaller graph ``--fw-graph`` (default
``urand:11``), Bellman-Ford and Johnson (O(N * nnz) in SciPy: minutes at 1M arcs) on
``--bf-graph`` (default ``urand:14``).

Usage::

    python benchmarks/csgraph.py --graph urand:17 --devices cpu gpu
    python benchmarks/csgraph.py --graph grid:708 --devices cpu --out /tmp/grid.json
    python benchmarks/csgraph.py --graph urand:17 --devices gpu --functions breadth_first
    python benchmarks/csgraph.py --graph grid:708 --devices cpu gpu --fixed-threads  # all threads
"""

from __future__ import annotations

import argparse
import os
import sys
import time
import warnings
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np
import scipy.sparse as sp
from scipy.sparse import csgraph as scipy_cg

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _common import measure, measure_interleaved, write_json  # noqa: E402

from warpgraph import csgraph as wg_cg  # noqa: E402


def make_graph(spec: str, seed: int = 1) -> sp.csr_array:
    """The benchmark matrix of ``urand:S`` or ``grid:R`` (see the module docstring)."""
    kind, _, size = spec.partition(":")
    rng = np.random.default_rng(seed)
    if kind == "urand":
        n = 1 << int(size)
        rows, cols = rng.integers(0, n, 8 * n), rng.integers(0, n, 8 * n)
    elif kind == "grid":
        r = int(size)
        n = r * r
        ids = np.arange(n).reshape(r, r)
        right = np.stack([ids[:, :-1].ravel(), ids[:, 1:].ravel()])
        down = np.stack([ids[:-1, :].ravel(), ids[1:, :].ravel()])
        pairs = np.concatenate([right, down], axis=1)
        rows, cols = np.concatenate([pairs[0], pairs[1]]), np.concatenate([pairs[1], pairs[0]])
    else:
        raise SystemExit(f"unknown graph {spec!r}: urand:S or grid:R")
    weights = rng.integers(1, 101, rows.size).astype(np.float64)
    A = sp.csr_array((weights, (rows, cols)), shape=(n, n))
    A.sum_duplicates()
    return A


def equal(got: Any, want: Any, kind: str) -> bool:
    """``kind``: "exact" (arrays or tuples of them), "tree" (sparse), "dist" (first item)."""
    if kind == "tree":
        got, want = sp.csr_array(got), sp.csr_array(want)
        return got.nnz == want.nnz and (got != want).nnz == 0
    if kind == "dist":
        got = got[0] if isinstance(got, tuple) else got
        want = want[0] if isinstance(want, tuple) else want
        return bool(np.array_equal(got, want))
    if isinstance(want, tuple):
        return all(
            np.array_equal(np.asarray(g), np.asarray(w)) for g, w in zip(got, want, strict=True)
        )
    return bool(np.array_equal(got, want))


def cases(
    A: sp.csr_array, bf: sp.csr_array, fw: sp.csr_array
) -> list[tuple[str, Callable, Callable, Any, str]]:
    """(name, ours, SciPy's, the matrix, how to compare), each called as f(matrix, **kw)."""
    sources = np.arange(8)

    def call(name: str, **kw: Any) -> tuple[Callable, Callable]:
        ours, theirs = getattr(wg_cg, name), getattr(scipy_cg, name)
        return (lambda M, device: ours(M, **kw, device=device)), (lambda M: theirs(M, **kw))

    return [
        ("breadth_first_order", *call("breadth_first_order", i_start=0), A, "exact"),
        ("breadth_first_tree", *call("breadth_first_tree", i_start=0), A, "tree"),
        (
            "breadth_first_order undirected",
            *call("breadth_first_order", i_start=0, directed=False),
            A,
            "exact",
        ),
        (
            "breadth_first_tree undirected",
            *call("breadth_first_tree", i_start=0, directed=False),
            A,
            "tree",
        ),
        (
            "connected_components undirected",
            *call("connected_components", directed=False),
            A,
            "exact",
        ),
        ("connected_components weak", *call("connected_components"), A, "exact"),
        (
            "connected_components strong",
            *call("connected_components", connection="strong"),
            A,
            "exact",
        ),
        ("dijkstra 1 source", *call("dijkstra", indices=0), A, "dist"),
        ("dijkstra 8 sources", *call("dijkstra", indices=sources), A, "dist"),
        ("dijkstra 1 source undirected", *call("dijkstra", indices=0, directed=False), A, "dist"),
        (
            "dijkstra 1 source, predecessors",
            *call("dijkstra", indices=0, return_predecessors=True),
            A,
            "dist",
        ),
        ("bellman_ford 1 source", *call("bellman_ford", indices=0), bf, "dist"),
        ("johnson 1 source", *call("johnson", indices=0), bf, "dist"),
        ("shortest_path auto, 1 source", *call("shortest_path", indices=0), A, "dist"),
        ("floyd_warshall", *call("floyd_warshall"), fw, "dist"),
    ]


def run(
    graph: str,
    devices: list[str],
    repeat: int,
    fw_graph: str,
    bf_graph: str,
    slow: float,
    functions: list[str] | None = None,
) -> dict[str, Any]:
    A = make_graph(graph)
    fw, bf = make_graph(fw_graph), make_graph(bf_graph)
    print(f"{graph}: {A.shape[0]:,} nodes, {A.nnz:,} arcs; floyd_warshall on {fw_graph} "
          f"({fw.nnz:,} arcs), bellman_ford and johnson on {bf_graph} ({bf.nnz:,} arcs)",
          flush=True)  # fmt: skip
    rows = []
    for name, ours, theirs, M, kind in cases(A, bf, fw):
        if functions and not any(name.startswith(f) for f in functions):
            continue
        t0 = time.perf_counter()
        want = theirs(M)
        once = time.perf_counter() - t0
        got = {device: ours(M, device) for device in devices}  # (their warm-up runs)
        row: dict[str, Any] = {"function": name, **_threads_now()}
        if once > slow:  # (SciPy's Bellman-Ford is O(N * nnz): one run is its time)
            row["scipy"] = {"median_s": once, "min_s": once, "max_s": once, "repeat": 1}
            for device in devices:
                row[device] = measure(lambda: ours(M, device), repeat=repeat, warmup=0)  # noqa: B023
        else:
            calls = {"scipy": lambda: theirs(M)}  # noqa: B023 - called in this loop
            calls.update({d: (lambda d=d: ours(M, d)) for d in devices})  # noqa: B023
            row.update(measure_interleaved(calls, repeat=repeat))
        scipy_t = row["scipy"]
        for device in devices:
            t = row[device]
            t["equal"] = equal(got[device], want, kind)
            t["speedup"] = scipy_t["median_s"] / t["median_s"]
            if "times_s" in t:
                t["paired_speedup"] = float(np.median(
                    np.divide(scipy_t["times_s"], t["times_s"])))  # fmt: skip
        rows.append(row)
        cells = "  ".join(
            f"{d} {1e3 * row[d]['median_s']:9.2f} ms {row[d]['speedup']:6.1f}x"
            f"{'' if row[d]['equal'] else ' DIFFERENT'}"
            for d in devices
        )
        print(f"  {name:34s} SciPy {1e3 * scipy_t['median_s']:9.2f} ms  {cells}", flush=True)
    return {"graph": graph, "nodes": A.shape[0], "arcs": int(A.nnz), "fw_graph": fw_graph,
            "fw_arcs": int(fw.nnz), "bf_graph": bf_graph, "bf_arcs": int(bf.nnz),
            "rows": rows}  # fmt: skip


def _threads_now() -> dict[str, Any]:
    """The 1-minute load average and the Numba threads warpgraph's parallel passes take at it
    (``warpgraph.cpu.threads.DYNAMIC_THREADS``: fewer on a busy machine), for each row."""
    import numba

    from warpgraph.cpu.threads import dynamic_threads

    return {"load_1min": round(os.getloadavg()[0], 2),
            "threads": dynamic_threads(numba.get_num_threads())}  # fmt: skip


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--graph", default="urand:17", help="urand:S or grid:R")
    parser.add_argument("--devices", nargs="+", default=["cpu"], choices=("cpu", "gpu"))
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--fw-graph", default="urand:11")
    parser.add_argument("--bf-graph", default="urand:14")
    parser.add_argument("--slow", type=float, default=5.0,
                        help="a SciPy call slower than this (s) is timed once")  # fmt: skip
    parser.add_argument("--functions", nargs="+", metavar="NAME",
                        help="only the rows whose name starts with one of these "
                             "(e.g. breadth_first_order dijkstra)")  # fmt: skip
    parser.add_argument("--out", help="JSON path (default benchmarks/results/csgraph_<graph>)")
    parser.add_argument("--fixed-threads", action="store_true",
                        help="all Numba threads whatever the 1-minute load average "
                             "(warpgraph.cpu.threads.DYNAMIC_THREADS off)")  # fmt: skip
    args = parser.parse_args(argv)
    if args.repeat < 1:
        parser.error("--repeat must be at least 1")
    known = [case[0] for case in cases(*[sp.csr_array((1, 1))] * 3)]
    for f in args.functions or []:
        if not any(name.startswith(f) for name in known):
            parser.error(f"no benchmark row starts with {f!r}: {', '.join(known)}")
    for spec in (args.graph, args.fw_graph, args.bf_graph):
        kind, _, size = spec.partition(":")
        if kind not in ("urand", "grid") or not size.isdigit():
            parser.error(f"unknown graph {spec!r}: urand:S or grid:R")
    from warpgraph.cpu import threads

    dynamic = threads.DYNAMIC_THREADS
    threads.DYNAMIC_THREADS = dynamic and not args.fixed_threads
    warnings.simplefilter("ignore", sp.SparseEfficiencyWarning)
    try:
        result = run(args.graph, args.devices, args.repeat, args.fw_graph, args.bf_graph,
                     args.slow, args.functions)  # fmt: skip
    finally:
        threads.DYNAMIC_THREADS = dynamic
    result["fixed_threads"] = args.fixed_threads
    name = "csgraph_" + args.graph.replace(":", "")
    print("wrote", write_json(name, result, args.out))
    different = [r["function"] for r in result["rows"] for d in args.devices
                 if not r[d]["equal"]]  # fmt: skip
    return 1 if different else 0


if __name__ == "__main__":
    sys.exit(main())
