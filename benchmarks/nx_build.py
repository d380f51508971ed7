"""The NetworkX backend's result-graph builder alone (``_results.subgraph_copy``), timed on
fixed node sets: the max-core, the crust below it and every node of each graph. No NetworkX
call, no conversion in the clock; for before/after comparisons of the builder, run once per
source tree, alternating::

    PYTHONPATH=$PWD/trees/old/src python benchmarks/nx_build.py --label old urand:17 grid:708

Each line: label, graph, node set, its size, min and median ms of ``--repeat`` builds (a
collection before each, the result freed after its clock stops).
"""

from __future__ import annotations

import argparse
import gc
import statistics
import sys
import warnings
from functools import partial

import networkx as nx
import numpy as np
from nx_backend import build, set_device, timed

from warpgraph.nx import _results
from warpgraph.nx.interface import backend_interface


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    ap.add_argument("graphs", nargs="+", help="graph specs of nx_backend.py (urand:17, grid:708)")
    ap.add_argument("--label", default="this", help="names the source tree in the output")
    ap.add_argument("--repeat", type=int, default=11)
    args = ap.parse_args(argv)
    if args.repeat < 1:
        ap.error("--repeat must be at least 1")
    warnings.filterwarnings("ignore", message="Note: conversions to backend graphs")
    set_device("cpu")
    for spec in args.graphs:
        g = build(spec)
        W = backend_interface.convert_from_nx(g["U"])
        core = np.fromiter(nx.core_number(g["U"], backend="warpgraph").values(), np.int64)
        top = int(core.max())
        sets = {
            "max-core": core == top,
            "crust (core < max)": core < top,
            "all nodes": np.ones(core.size, dtype=bool),
        }
        gc.freeze()  # the source graph: not walked by the collection before each build
        for name, mask in sets.items():
            induced = np.flatnonzero(mask)
            build_once = partial(_results.subgraph_copy, W, mask, induced=induced)
            times = [timed(build_once)[0] for _ in range(args.repeat)]
            print(
                f"{args.label} {spec} {name:20s} nodes {induced.size:7d}  min "
                f"{1e3 * min(times):7.1f}  median {1e3 * statistics.median(times):7.1f} ms",
                flush=True,
            )
        gc.unfreeze()
    return 0


if __name__ == "__main__":
    sys.exit(main())
