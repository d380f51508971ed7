"""``warpgraph ktruss FILE``: truss decomposition from the command line."""

from __future__ import annotations

import argparse

from ._common import add_common, run_decomposition


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "ktruss",
        help="truss decomposition (trussness of every edge)",
        description="Trussness of every edge (the largest k whose k-truss, every edge in at "
        "least k - 2 triangles, holds it; a directed graph is symmetrized, loops get 0). Prints "
        "the largest truss and the edges of the k-truss given with -k. --output saves the "
        "trussness aligned with the graph's edge list (.npy); --verify checks it by a local "
        "certificate and a recount.",
    )
    add_common(p)
    p.add_argument("-k", type=int, help="report the size of this k-truss")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from warpgraph.algorithms.ktruss import truss_decomposition

    return run_decomposition(
        args,
        kind="truss",
        unit="edges",
        max_key="largest truss k",
        undirected=True,
        spinner="peeling trusses",
        compute=lambda G, dev: truss_decomposition(G, device=dev),
        verify=_verify,
    )


def _verify(G, t) -> None:
    from warpgraph.algorithms.ktruss.verify import verify_truss_decomposition

    verify_truss_decomposition(G, t)
