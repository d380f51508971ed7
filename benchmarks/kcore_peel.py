"""Core decomposition times on generated graphs and, where present, the real graphs of a
datasets folder: the GPU peel (default) or, with ``--cpu``, the CPU's parallel level peel
against its sequential bucket peel (on all Numba threads).

It runs 7 times after one untimed call (median and best, device synchronized), on the graph
already on the GPU; every result is checked against the CPU's (sequential) core numbers. At
commit 67cc71b this script also timed the former peel of one launch per round (``PEEL =
"rounds"``) for ``benchmarks/results/kcore_peel_h100_20261122.json``.

Usage::

    python benchmarks/kcore_peel.py --datasets ../shared/datasets --out kcore.json
    python benchmarks/kcore_peel.py --cpu --out kcore_cpu.json
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from functools import partial
from pathlib import Path

import numpy as np

import warpgraph as wg
from warpgraph.algorithms.kcore import gpu as kcore_gpu
from warpgraph.generators import grid_2d, rmat, uniform

GENERATED = {
    "grid:708": lambda: grid_2d(708, 708, seed=1, device="cpu"),
    "urand:17": lambda: uniform(2**17, edgefactor=8, seed=1, device="cpu"),
    "rmat:18": lambda: rmat(18, seed=1, device="cpu"),
}
REAL = [
    "road-NY.pace.gr.xz",
    "coAuthorsDBLP.mtx.gz",
    "soc-Slashdot0902.txt.gz",
    "web-NotreDame.txt.gz",
    "luxembourg_osm.body.mtx.gz",
    "delaunay_n16.body.mtx.gz",
]


def timed_ms(fn, repeat: int = 7, gpu: bool = True) -> tuple[float, float, object]:
    def sync() -> None:
        if gpu:
            import cupy as cp

            cp.cuda.Device().synchronize()

    fn()
    sync()
    times = []
    for _ in range(repeat):
        t0 = time.perf_counter()
        out = fn()
        sync()
        times.append(1e3 * (time.perf_counter() - t0))
    return statistics.median(times), min(times), out


def _cpu_row(G) -> dict:
    """Sequential and parallel CPU peels of ``G``, on the rows ``wg.core_number`` peels: the
    out- and in-arcs of a directed graph (degree in + out). Until session 12 a directed graph
    was peeled on its out-arcs alone, not the relation the library computes."""
    import numba

    from warpgraph.algorithms.kcore import cpu

    row = {"threads": numba.get_num_threads()}
    rows = (G.indptr, G.indices) + (G.reverse_csr()[:2] if G.directed else ())
    want, equal = None, True
    for mode in ("sequential", "parallel"):
        run = partial(cpu.core_numbers, *rows, parallel=mode == "parallel")
        median, best, core = timed_ms(run, gpu=False)
        want = core if want is None else want
        equal = equal and bool(np.array_equal(core, want))
        row |= {f"{mode}_median_ms": median, f"{mode}_best_ms": best}
    row |= {"equal": equal, "max_core": int(want.max(initial=0))}
    row["directed"] = G.directed
    return row


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--datasets", default=None, help="folder of the real graphs (optional)")
    ap.add_argument("--cpu", action="store_true", help="time the CPU peels instead")
    ap.add_argument("--out", default=None)
    args = ap.parse_args(argv)
    graphs = dict(GENERATED)
    if args.datasets:
        for name in REAL:
            path = Path(args.datasets) / name
            if path.exists():
                graphs[name.split(".")[0]] = lambda p=path: wg.load(str(p))
    rows = []
    for name, make in graphs.items():
        G = make()
        row = {"graph": name, "n": G.num_vertices, "arcs": G.num_arcs}
        if args.cpu:
            rows.append(row | _cpu_row(G))
            print(json.dumps(rows[-1]), flush=True)
            continue
        D = G.to("gpu")
        want = np.asarray(wg.core_number(G, device="cpu"))
        median, best, core = timed_ms(lambda D=D: kcore_gpu.core_numbers(D))
        row.update(
            median_ms=median,
            best_ms=best,
            equal=bool(np.array_equal(core.get(), want)),
            max_core=int(want.max()) if want.size else 0,
        )
        rows.append(row)
        print(json.dumps(row), flush=True)
    if args.out:
        with open(args.out, "w") as fh:
            json.dump({"method": __doc__.split("\n\n")[1], "rows": rows}, fh, indent=1)
    return 0


if __name__ == "__main__":
    sys.exit(main())
