"""``warpgraph triads FILE``: triad census from the command line."""

from __future__ import annotations

import argparse

from ._common import add_graph_args, load, timed
from .ui import console, print_table


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "triads",
        help="triad census (16 Holland-Leinhardt types)",
        description="Counts the 16 triad types of a directed graph (an undirected one counts "
        "as all-mutual; loops ignored, parallel arcs once), exactly (003 may exceed 64 bits). "
        "--method dyads runs Batagelj and Mrvar's algorithm instead of the triangle method; "
        "--verify checks the sums and recounts with the other method.",
    )
    add_graph_args(p)
    p.add_argument("--method", default="triangles", choices=["triangles", "dyads"])
    p.add_argument("--verify", action="store_true", help="check the census (see above)")
    p.add_argument("--json", action="store_true", help="print the census as JSON")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    import json

    from warpgraph.algorithms.triads import triadic_census
    from warpgraph.errors import VerificationError

    G, dev = load(args, undirected=False)
    census, seconds = timed(
        "triad census", lambda: triadic_census(G, method=args.method, device=dev), dev
    )
    if args.verify:
        other = "dyads" if args.method == "triangles" else "triangles"
        again = triadic_census(G, method=other, device=dev)
        if again != census:
            raise VerificationError(f"the {other} method gives {again}, not {census}")
        total = sum(census.values())
        n = G.num_vertices
        if total != n * (n - 1) * (n - 2) // 6:
            raise VerificationError(f"census sums to {total}, not C({n}, 3)")
    if args.json:
        console.print_json(
            json.dumps({"graph": args.file, "device": dev, "seconds": seconds, "census": census})
        )
        return 0
    title = f"triad census on {dev} ({args.method}): {args.file}, {seconds:.3f} s"
    print_table(title, ["type", "count"], list(census.items()))
    if args.verify:
        console.print(f"verified: the {other} method agrees and the counts sum to C(n, 3)")
    return 0
