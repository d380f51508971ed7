"""GPU PageRank: how many power steps to queue between read-backs of their L1 changes.

``warpgraph.algorithms.pagerank.gpu.power_iteration`` queues ``batch`` steps, then reads their
L1 changes back at once. ``batch=1`` reads back after every step, as the code before batching
did (plus one 16-byte device copy per step). Every variant must take the same steps and return
the same ranks to rounding (within 1e-12; not bit for bit, since the blocks' atomic additions of
the change and the dangling rank land in any order): only the host's waits move. The script
exits 1 when one does not.

Method: the graph's :class:`PageRankInputs` are prepared once (untimed; its in-arc CSR built);
each variant runs once untimed, then ``--repeat`` interleaved rounds
(``_common.measure_interleaved``), the GPU synchronized after each call. Reported per variant:
median/min/max seconds of the power iteration alone, steps, and microseconds per step.

Usage::

    python benchmarks/pagerank_batch.py --graphs urand:17,grid:708,kron:20 --out batch.json
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _common import measure_interleaved, write_json  # noqa: E402
from pagerank import make_graph  # noqa: E402

BATCHES = [1, 2, 4, 8, 16]


def run_graph(spec: str, repeat: int, alpha: float, tol: float, max_iter: int) -> dict:
    """Every variant on one graph: timings, steps, and whether the answers are identical."""
    from warpgraph.algorithms.pagerank import gpu
    from warpgraph.algorithms.pagerank.api import prepare

    name, G = make_graph(spec, "gpu")
    inputs = prepare(G)
    calls = {
        f"batch={b}": lambda b=b: gpu.power_iteration(inputs, alpha, max_iter, tol, batch=b)
        for b in BATCHES
    }
    answers = {key: fn() for key, fn in calls.items()}  # (untimed first calls; also checked)
    ranks0, steps0 = answers["batch=1"]
    same = {
        key: bool(steps == steps0 and np.abs(ranks.get() - ranks0.get()).max() <= 1e-12)
        for key, (ranks, steps) in answers.items()
    }
    timings = measure_interleaved(calls, repeat=repeat, device="gpu")
    for key, t in timings.items():
        t["steps"] = answers[key][1]
        t["us_per_step"] = 1e6 * t["median_s"] / max(answers[key][1], 1)
        t["identical_to_batch1"] = same[key]
    return {
        "graph": name,
        "vertices": G.num_vertices,
        "arcs": G.num_arcs,
        "variants": timings,
        "all_identical": all(same.values()),
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--graphs", default="urand:17,grid:708,kron:20")
    parser.add_argument("--repeat", type=int, default=9)
    parser.add_argument("--alpha", type=float, default=0.85)
    parser.add_argument("--tol", type=float, default=1e-10)
    parser.add_argument("--max-iter", type=int, default=1000)
    parser.add_argument("--out", default=None)
    args = parser.parse_args(argv)
    rows = [
        run_graph(spec, args.repeat, args.alpha, args.tol, args.max_iter)
        for spec in args.graphs.split(",")
        if spec
    ]
    for row in rows:
        print(f"{row['graph']}: {row['arcs']} arcs, identical={row['all_identical']}")
        for key, t in row["variants"].items():
            print(
                f"  {key:10s} {1e3 * t['median_s']:8.3f} ms  {t['steps']:4d} steps  "
                f"{t['us_per_step']:7.1f} us/step"
            )
    params = {"alpha": args.alpha, "tol": args.tol, "max_iter": args.max_iter}
    path = write_json("pagerank_batch", {"params": params, "results": rows}, args.out)
    print(f"wrote {path}")
    return 0 if all(row["all_identical"] for row in rows) else 1


if __name__ == "__main__":
    sys.exit(main())
