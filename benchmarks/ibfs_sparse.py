"""The GPU's iBFS searches with and without sparse levels (frontier lists), side by side.

The searches behind ``distance_stats`` (closeness, eccentricity, diameter), global efficiency
and harmonic centrality keep 64 searches a word. Without lists every level of a batch reads
every word of it, and a batch larger than ``PERSISTENT_WORDS`` launches two kernels a level;
with lists (``kernels/ibfs_steps.cuh``) a persistent level whose frontiers are thin reads only
their words. Modes, run in turn in each round on the same graph (median of ``--repeat``
rounds, after one untimed call of each):

- ``dense``: no lists, and a large batch launched level by level (the code before the lists:
  ``SPARSE_SHARE = 0`` and the old choice of the persistent kernel);
- ``persistent``: no lists, the persistent kernel chosen as now (``DEEP_LEVELS``);
- ``lists``: the lists as now (``SPARSE_SHARE``), and ``lists/S`` for each ``--shares`` S;
- ``grouped``: ``lists`` with the sources grouped by neighbourhood as by default since session
  62 (``GROUP_ON_GPU``, in graphs at least ``GROUP_DEPTH_ON_GPU`` deep; the other modes turn
  it off and keep the given order), every pair searched from the sources (the default before
  session 64);
- ``symmetric``: ``grouped``, and harmonic centrality's every pair of an undirected graph
  searched from the targets, grouped (``harmonic_gpu.SYMMETRIC_FROM_TARGETS``, the default
  since session 64; every mode but this one turns it off).

Graphs: ``urand:S``, ``grid:R`` and ``file:PATH.npz`` (arrays ``src``, ``dst``, ``n``: an
undirected graph, e.g. a road network converted beforehand). Every mode's results are
compared with the first mode's (equal, or the row says so).

Usage::

    cd benchmarks; python ibfs_sparse.py --graphs urand:16 grid:256 --what stats efficiency
"""

from __future__ import annotations

import argparse
import contextlib
import random
import statistics
import time
from typing import Any

import numpy as np
from _common import dump_rows, urand_or_grid

import warpgraph as wg
from warpgraph.algorithms.bfs import distance_stats, multi_source
from warpgraph.algorithms.bfs.efficiency import efficiency_sum
from warpgraph.algorithms.centrality import harmonic_gpu
from warpgraph.algorithms.centrality.harmonic import harmonic_centrality


def load(spec: str) -> wg.Graph:
    """A graph spec's undirected graph (see the module docstring)."""
    if spec.startswith("file:"):
        data = np.load(spec[5:])
        return wg.Graph.from_edges(data["src"], data["dst"], num_vertices=int(data["n"]),
                                   directed=False)  # fmt: skip
    return urand_or_grid(spec)


@contextlib.contextmanager
def mode(name: str):
    """The module settings of a mode (see the module docstring), restored after."""
    saved = (multi_source.SPARSE_SHARE, multi_source.GpuGroups.persistent,
             multi_source.GROUP_ON_GPU, harmonic_gpu.SYMMETRIC_FROM_TARGETS)  # fmt: skip
    try:
        multi_source.GROUP_ON_GPU = name in ("grouped", "symmetric")
        harmonic_gpu.SYMMETRIC_FROM_TARGETS = name == "symmetric"
        if name == "dense":
            multi_source.SPARSE_SHARE = 0
            multi_source.GpuGroups.persistent = lambda self, total: (
                total <= multi_source.PERSISTENT_WORDS
            )
        elif name == "persistent":
            multi_source.SPARSE_SHARE = 0
        elif name.startswith("lists/"):
            multi_source.SPARSE_SHARE = int(name.split("/")[1])
        yield
    finally:
        (multi_source.SPARSE_SHARE, multi_source.GpuGroups.persistent,
         multi_source.GROUP_ON_GPU, harmonic_gpu.SYMMETRIC_FROM_TARGETS) = saved  # fmt: skip


def calls(G: wg.Graph, what: str, sources: np.ndarray | None):
    """The call timed for ``what`` and how to bring its result to the host."""
    if what == "stats":
        return lambda: tuple(a.get() for a in distance_stats(G, sources, device="gpu"))
    if what == "efficiency":
        return lambda: efficiency_sum(G, device="gpu")
    if what == "harmonic":
        return lambda: harmonic_centrality(G, sources, device="gpu").get().tolist()
    raise SystemExit(f"unknown --what {what!r}")


def same(a: Any, b: Any) -> bool:
    if isinstance(a, tuple):
        return all(np.array_equal(x, y) for x, y in zip(a, b, strict=True))
    return a == b


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--graphs", nargs="+", default=["urand:16", "grid:128", "grid:256"])
    ap.add_argument("--what", nargs="+", default=["stats", "efficiency"],
                    help="stats, efficiency, harmonic")  # fmt: skip
    ap.add_argument("--sources", type=int, default=0,
                    help="searches from the first S vertices only (0: every vertex)")  # fmt: skip
    ap.add_argument("--sample", type=int, default=0,
                    help="searches from S vertices drawn as nx_backend.py's harmonic case "
                         "draws them (random.Random(1).sample); overrides --sources")  # fmt: skip
    ap.add_argument("--modes", nargs="+", default=["dense", "persistent", "lists"])
    ap.add_argument("--shares", type=int, nargs="*", default=[])
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--out", help="JSON file for the results")
    args = ap.parse_args()
    cp = wg.device.cupy()
    modes = [*args.modes, *(f"lists/{s}" for s in args.shares)]
    rows = []
    for spec in args.graphs:
        G = load(spec).to("gpu")
        n = G.num_vertices
        sources = np.arange(min(args.sources, n)) if args.sources else None
        if args.sample:
            sources = np.array(random.Random(1).sample(range(n), min(args.sample, n)))
        for what in args.what:
            call = calls(G, what, sources)
            results, times = {}, {m: [] for m in modes}
            for m in modes:  # (untimed: compilation, allocations)
                with mode(m):
                    results[m] = call()
            for _ in range(args.repeat):
                for m in modes:
                    with mode(m):
                        cp.cuda.Device().synchronize()
                        t0 = time.perf_counter()
                        call()
                        cp.cuda.Device().synchronize()
                        times[m].append(time.perf_counter() - t0)
            row = {
                "graph": spec, "what": what, "vertices": n, "arcs": int(G.num_arcs),
                "searches": int(sources.size if sources is not None else n),
                "seconds": {m: statistics.median(t) for m, t in times.items()},
                "times_s": times,
                "equal": {m: same(results[m], results[modes[0]]) for m in modes},
            }  # fmt: skip
            base = row["seconds"][modes[0]]
            row["speedup_vs_first"] = {m: base / s for m, s in row["seconds"].items()}
            print({k: row[k] for k in ("graph", "what", "seconds", "equal")}, flush=True)
            rows.append(row)
    dump_rows(args.out, "ibfs_sparse", rows)


if __name__ == "__main__":
    main()
