"""CPU calls on a busy machine: ``warpgraph.csgraph`` functions beside processes that spin on
the cores, with the load average hidden from warpgraph (as a neighbour in another container or
guest, or a CPU quota, would be).

Each ``--spinners`` count starts that many busy processes, then times ``--rounds`` rounds of
the calls below, each call after a 20 ms pause (the threads go to sleep between a user's calls,
and waking them is what a busy machine delays). Each row records the times and the thread count
``threads_for`` settled on (``warpgraph.cpu.threads.threads_not_stalling``).
``--probe`` instead records the empty fork-join the probe times, per thread count.

Calls: Bellman-Ford, Dijkstra (one source), weak and strong labels, BFS tree on ``urand:14``;
Bellman-Ford, weak labels and undirected BFS order on ``urand:17`` (graphs as
``benchmarks/csgraph.py``); and on ``urand:17`` two calls of the library's own API:
``warpgraph.algorithms.bfs.bfs`` (levels) and ``core_number`` (its undirected graph).

Usage::

    python benchmarks/busy_machine.py --spinners 0 4 15 --out /tmp/busy.json
    python benchmarks/busy_machine.py --probe --spinners 0 4 15 --rounds 120
"""

from __future__ import annotations

import argparse
import multiprocessing as mp
import os
import sys
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import numba as nb
import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _common import write_json  # noqa: E402
from csgraph import make_graph  # noqa: E402

from warpgraph import Graph  # noqa: E402
from warpgraph import csgraph as wg_cg  # noqa: E402
from warpgraph.algorithms.bfs import bfs  # noqa: E402
from warpgraph.algorithms.kcore import core_number  # noqa: E402
from warpgraph.cpu import threads  # noqa: E402

PAUSE_S = 0.02


def _spin(stop: Any) -> None:
    while not stop.is_set():
        for _ in range(100_000):
            pass


@contextmanager
def spinners(count: int) -> Iterator[None]:
    """``count`` processes busy on the cores while the block runs."""
    stop = mp.Event()
    procs = [mp.Process(target=_spin, args=(stop,), daemon=True) for _ in range(count)]
    for p in procs:
        p.start()
    time.sleep(0.5)  # (all running)
    try:
        yield
    finally:
        stop.set()
        for p in procs:
            p.join()


def calls(small_spec: str, large_spec: str) -> dict[str, Callable[[], Any]]:
    """The timed calls by name, on the two graphs."""
    small, large = make_graph(small_spec), make_graph(large_spec)
    directed = Graph(large.indptr, large.indices, directed=True)
    undirected = directed.to_undirected()
    cc = wg_cg.connected_components
    return {
        f"bellman_ford {small_spec}": lambda: wg_cg.bellman_ford(small, indices=0, device="cpu"),
        f"dijkstra {small_spec}": lambda: wg_cg.dijkstra(small, indices=0, device="cpu"),
        f"weak labels {small_spec}": lambda: cc(small, connection="weak", device="cpu"),
        f"strong labels {small_spec}": lambda: cc(small, connection="strong", device="cpu"),
        f"breadth_first_tree {small_spec}": lambda: wg_cg.breadth_first_tree(
            small, 0, device="cpu"
        ),
        f"bellman_ford {large_spec}": lambda: wg_cg.bellman_ford(large, indices=0, device="cpu"),
        f"weak labels {large_spec}": lambda: cc(large, connection="weak", device="cpu"),
        f"breadth_first_order undirected {large_spec}": lambda: wg_cg.breadth_first_order(
            large, 0, directed=False, device="cpu"
        ),
        f"bfs levels {large_spec}": lambda: bfs(directed, 0, device="cpu"),
        f"core_number {large_spec}": lambda: core_number(undirected, device="cpu"),
    }


def time_calls(table: dict[str, Callable[[], Any]], rounds: int) -> dict[str, dict]:
    """Interleaved rounds of every call, each after a pause; times (s) and thread counts."""
    rows: dict[str, dict] = {name: {"seconds": [], "threads": []} for name in table}
    for _ in range(rounds):
        for name, call in table.items():
            time.sleep(PAUSE_S)
            start = time.perf_counter()
            call()
            rows[name]["seconds"].append(time.perf_counter() - start)
            verdict = getattr(threads, "_verdicts", {}).get(nb.get_num_threads())  # (older trees)
            rows[name]["threads"].append(None if verdict is None else verdict[1])
    return rows


def probe_times(rounds: int) -> dict[str, list[float]]:
    """Empty fork-join seconds after a pause, for all, half and a quarter of the threads."""
    most = nb.config.NUMBA_NUM_THREADS
    out = {}
    for count in sorted({most, max(1, most // 2), max(1, most // 4)}, reverse=True):
        seconds = []
        for _ in range(rounds):
            time.sleep(PAUSE_S)
            seconds.append(threads._fork_join_seconds(count))
        out[str(count)] = seconds
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--spinners", type=int, nargs="+", default=[0, 4, 15])
    parser.add_argument("--rounds", type=int, default=12)
    parser.add_argument("--graphs", nargs=2, default=["urand:14", "urand:17"],
                        metavar=("SMALL", "LARGE"))  # fmt: skip
    parser.add_argument("--probe", action="store_true", help="time the probe's region only")
    parser.add_argument("--out", default=None)
    args = parser.parse_args(argv)
    if args.rounds < 1 or min(args.spinners) < 0:
        parser.error("--rounds must be at least 1 and --spinners at least 0")
    table = {} if args.probe else calls(*args.graphs)
    # Compiled and warm: serial and parallel variants alike (some kernels pick one by the
    # thread count, and a variant first met in a timed round compiles there, seconds), with
    # the counts asked for taken as they are
    most, dynamic = nb.get_num_threads(), getattr(threads, "DYNAMIC_THREADS", True)
    threads.DYNAMIC_THREADS = False
    try:
        for count in (1, most):
            nb.set_num_threads(count)
            for call in table.values():
                call()
    finally:
        nb.set_num_threads(most)
        threads.DYNAMIC_THREADS = dynamic
    if args.probe:
        threads.threads_not_stalling(2)  # (compiled, the pool started)
    load_average, os.getloadavg = os.getloadavg, lambda: (0.0, 0.0, 0.0)  # hidden neighbours
    results = {}
    try:
        for count in args.spinners:
            with spinners(count):
                if args.probe:
                    results[str(count)] = probe_times(args.rounds)
                else:
                    results[str(count)] = time_calls(table, args.rounds)
            report(count, results[str(count)], args.probe)
    finally:
        os.getloadavg = load_average
    payload = {
        "mode": "probe" if args.probe else "calls",
        "graphs": args.graphs,
        "pause_s": PAUSE_S,
        "stall_seconds": getattr(threads, "STALL_SECONDS", None),
        "results": results,
    }
    path = write_json("busy_machine_probe" if args.probe else "busy_machine", payload, args.out)
    print(f"wrote {path}")
    return 0


def report(count: int, rows: dict, probe: bool) -> None:
    for name, row in rows.items():
        ms = np.array(row if probe else row["seconds"]) * 1e3
        seen = "" if probe else f"  threads {sorted(set(map(str, row['threads'])))}"
        print(f"spinners {count:2d}  {name:>40}: median {np.median(ms):8.2f} ms  "
              f"p90 {np.percentile(ms, 90):8.2f}  max {ms.max():8.2f}{seen}")  # fmt: skip


if __name__ == "__main__":
    sys.exit(main())
