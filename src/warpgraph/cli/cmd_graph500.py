"""``warpgraph graph500``: the Graph500 BFS (and SSSP) benchmark with GreenGraph500 energy."""

from __future__ import annotations

import argparse
import json
import os
import sys

from .ui import err_console


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "graph500",
        help="run the Graph500 benchmark (BFS, optionally SSSP) with full validation and energy",
        description="Generates the Graph500 Kronecker edge list (SCALE, edgefactor), times "
        "kernel 1 (graph construction), picks 64 search keys of degree >= 1, times a BFS "
        "(kernel 2) and with --sssp an SSSP (kernel 3) from each key, validates every result "
        "against the edge list with the specification's rules, and prints the statistics in the "
        "reference code's format (TEPS quartiles, harmonic mean and its standard deviation), "
        "followed by the GreenGraph500 figures (average power, joules per search, TEPS per "
        "watt) where the board energy can be read. A failed validation prints no statistics and "
        "exits with status 1.",
    )
    p.add_argument("--scale", type=int, required=True, help="SCALE: log2 of the vertex count")
    p.add_argument("--edgefactor", type=int, default=16, help="edges per vertex (default 16)")
    p.add_argument("--device", default="auto", choices=["auto", "cpu", "gpu"])
    p.add_argument("--sssp", action="store_true", help="also run kernel 3 (SSSP)")
    p.add_argument("--keys", type=int, default=64, help="number of search keys (default 64)")
    p.add_argument("--seed", type=int, default=1, help="generator and key seed (default 1)")
    p.add_argument(
        "--energy-seconds",
        type=float,
        default=None,
        help="length of each energy loop (default 2 s where energy can be read; 0 off)",
    )
    p.add_argument("--json", metavar="PATH", help="also write every measured value as JSON")
    p.add_argument(
        "--results",
        metavar="PATH",
        help="append benchmark records (JSON lines) for `warpgraph report`",
    )
    p.add_argument("-q", "--quiet", action="store_true", help="no progress lines on stderr")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from ..bench.env import environment
    from ..bench.graph500 import format_output, graph500_records, run_graph500
    from ..bench.results import ResultWriter
    from ..errors import InvalidArgumentError

    if not 1 <= args.scale <= 40:
        raise InvalidArgumentError(f"--scale must be in [1, 40], got {args.scale}")
    if args.edgefactor < 1 or args.keys < 1:
        raise InvalidArgumentError("--edgefactor and --keys must be >= 1")
    log = None if args.quiet else (lambda msg: err_console.print(f"[dim]{msg}[/]"))
    res = run_graph500(
        args.scale,
        args.edgefactor,
        device=args.device,
        sssp=args.sssp,
        num_keys=args.keys,
        seed=args.seed,
        energy_seconds=args.energy_seconds,
        log=log,
    )
    env = environment(gpu=res.device == "gpu")
    gpu = env.get("gpu") or {}
    extra = {"gpu": gpu.get("name")} if gpu else {"cpu": env.get("cpu")}
    sys.stdout.write(format_output(res, extra=extra))
    sys.stdout.flush()
    if args.json:
        tmp = args.json + ".tmp"
        with open(tmp, "w", encoding="utf-8") as f:
            json.dump({**res.to_dict(), "env": env}, f, indent=1, default=str)
        os.replace(tmp, args.json)
    if not res.valid:
        err_console.rule("[bold red]GRAPH500 VALIDATION FAILED[/]", style="red")
        err_console.print(res.failure, style="bold red", markup=False)
        err_console.rule(style="red")
        return 1
    if args.results:
        with ResultWriter(args.results) as w:
            for rec in graph500_records(res, env):
                w.write(rec)
    return 0
