"""``warpgraph demo``: the main job — run everything on the best device, verify, compare."""

from __future__ import annotations

import argparse

from .ui import console, print_table


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "demo",
        help="generate a graph, run every algorithm on the best device, verify, compare to SciPy",
        description="Generates a Graph500 Kronecker graph (edge factor 16), builds it on the best "
        "device (the GPU when CuPy sees one, else the CPU), runs every algorithm warpgraph has, "
        "checks each answer against SciPy or the algorithm's verifier, and prints a table of "
        "median times beside SciPy's. Exits 1 if any check fails.",
    )
    p.add_argument(
        "--scale",
        type=int,
        default=None,
        help="log2 of the vertex count (default 16; larger graphs show more speed-up, "
        "but the CPU-side verifiers then take minutes)",
    )
    p.add_argument("--device", default="auto", choices=["auto", "cpu", "gpu"])
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--repeat", type=int, default=3, help="timed runs per task (median reported)")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from ..demo import run_demo
    from ..device import resolve_device

    dev = resolve_device(args.device)
    scale = args.scale if args.scale is not None else 16
    ctx, results = run_demo(scale, dev, args.seed, args.repeat, log=console.print)
    G = ctx.graph
    console.print(f"graph: {G!r}")
    rows = []
    for r in results:
        speedup = (r.reference_seconds / r.seconds) if r.reference_seconds and r.seconds else None
        rows.append(
            (
                r.name,
                r.seconds * 1e3,
                None if r.reference_seconds is None else r.reference_seconds * 1e3,
                speedup,
                "ok" if r.ok else "FAILED",
                r.note,
            )
        )
    print_table(
        f"warpgraph demo on {dev} (median of {args.repeat} runs)",
        ["task", "warpgraph ms", "reference ms", "speedup", "check", "reference"],
        rows,
    )
    failed = [r.name for r in results if not r.ok]
    if failed:
        console.print(f"[bold red]checks failed:[/] {', '.join(failed)}")
        return 1
    console.print("[green]all checks passed[/]")
    return 0
