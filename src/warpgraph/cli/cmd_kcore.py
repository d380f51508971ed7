"""``warpgraph kcore FILE``: core decomposition from the command line."""

from __future__ import annotations

import argparse

from ._common import add_common, run_decomposition


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "kcore",
        help="core numbers (degeneracy, main core)",
        description="Core number of every vertex (the largest k whose k-core holds it; loops "
        "ignored, parallel edges once, in + out degree for a directed graph). Prints the "
        "degeneracy, the size of the main core or of the k-core given with -k, and the time. "
        "--output saves the core numbers (.npy); --verify checks them by a local certificate "
        "and an h-index recount.",
    )
    add_common(p)
    p.add_argument("-k", type=int, help="report the size of this k-core")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from warpgraph.algorithms.kcore import core_number
    from warpgraph.algorithms.kcore.verify import verify_core_numbers

    return run_decomposition(
        args,
        kind="core",
        unit="vertices",
        max_key="degeneracy (max core)",
        undirected=False,
        spinner="peeling cores",
        compute=lambda G, dev: core_number(G, device=dev),
        verify=verify_core_numbers,
    )
