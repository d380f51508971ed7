"""``warpgraph bench``: time algorithms on graphs, devices and configurations, beside peers."""

from __future__ import annotations

import argparse
import shlex

from .ui import console, err_console, print_table

EPILOG = """\
examples:
  warpgraph bench -a bfs -g kronecker:scale=20 -g grid:1000x1000 --device gpu --device cpu
  warpgraph bench -a sssp -g road.gr --peers scipy,igraph --gapbs ~/gapbs -o sssp.jsonl
  warpgraph bench -a bfs -g kronecker:22 --config direction=push --config direction=auto
  warpgraph bench --list

Graphs are files (any format warpgraph reads) or generator specs NAME[:ARGS] calling
warpgraph.generators.NAME: kronecker:scale=20,edgefactor=16  urand:18  grid:1000x1000
road:n=1000000  (aliases: grid=grid_2d, urand=uniform, road=road_like, rgg=random_geometric).
Results are appended to a JSON-lines file (one line per cell); `warpgraph report FILE` makes
the tables and plots. Ctrl-C stops the run and keeps every finished line."""


def _kv(text: str) -> dict:
    from ..bench.graphs import _value
    from ..errors import InvalidArgumentError

    out = {}
    for item in filter(None, (p.strip() for p in text.split(","))):
        key, sep, val = item.partition("=")
        if not sep or not key.strip().isidentifier():
            raise InvalidArgumentError(f"expected KEY=VALUE[,KEY=VALUE...], got {text!r}")
        out[key.strip()] = _value(val.strip())
    return out


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "bench",
        help="benchmark algorithms x graphs x devices x configurations, beside peer libraries",
        description="Runs each algorithm on each graph, device and configuration: one untimed "
        "warm-up, then timed runs (CUDA events on the GPU, wall clock on the CPU) from 64 random "
        "non-isolated sources for traversals; verifies the first runs; runs the same sources "
        "through the installed peers (SciPy, NetworkX below a size guard, igraph, NetworKit, and "
        "GAPBS with --gapbs); measures energy and power where NVML or RAPL allow; writes one JSON "
        "line per cell and prints a summary table.",
        epilog=EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    p.add_argument(
        "-a",
        "--algorithm",
        action="append",
        default=[],
        metavar="NAME",
        help="algorithm to run (repeatable; see --list)",
    )
    p.add_argument(
        "-g",
        "--graph",
        action="append",
        default=[],
        metavar="SPEC",
        help="graph file or generator spec (repeatable)",
    )
    p.add_argument(
        "--device",
        action="append",
        choices=["auto", "cpu", "gpu"],
        default=None,
        help="device to run warpgraph on (repeatable; default auto)",
    )
    p.add_argument(
        "--config",
        action="append",
        default=None,
        metavar="K=V[,K=V]",
        help="keyword arguments for the algorithm; each --config is one configuration",
    )
    p.add_argument(
        "--peers",
        default="all",
        help="comma-separated peers (scipy,networkx,igraph,networkit), 'all' or 'none'",
    )
    p.add_argument("--gapbs", metavar="PATH", help="directory of GAPBS binaries (bfs, sssp, ...)")
    p.add_argument(
        "--gapbs-sources",
        choices=["own", "same"],
        default="own",
        help="GAPBS picks its own sources in one process (own) or runs ours, one "
        "process per source (same; reloads the graph each time)",
    )
    p.add_argument(
        "--gapbs-args",
        default="",
        metavar="ARGS",
        help="extra arguments for the GAPBS binaries, e.g. '-d 2' (SSSP delta)",
    )
    p.add_argument("--sources", type=int, default=64, help="sources per traversal (default 64)")
    p.add_argument("--repeat", type=int, default=1, help="timed runs per source (default 1)")
    p.add_argument("--warmup", type=int, default=1, help="untimed runs first (default 1)")
    p.add_argument(
        "--trials",
        type=int,
        default=8,
        help="timed runs of algorithms without a source (default 8)",
    )
    p.add_argument("--seed", type=int, default=0, help="seed of sources, generators and weights")
    p.add_argument(
        "--verify",
        choices=["auto", "all", "none"],
        default="auto",
        help="check results: first 4 runs per cell (auto), every run, or none",
    )
    p.add_argument(
        "--energy-seconds",
        type=float,
        default=0.5,
        help="length of the energy loop per cell where NVML/RAPL work (0: off)",
    )
    p.add_argument(
        "--peer-max-arcs",
        action="append",
        default=[],
        metavar="PEER=N",
        help="size guard for a peer, in arcs (default networkx=2000000)",
    )
    direction = p.add_mutually_exclusive_group()
    direction.add_argument(
        "--directed",
        dest="directed",
        action="store_true",
        default=None,
        help="read graph files as directed",
    )
    direction.add_argument(
        "--undirected", dest="directed", action="store_false", help="read graph files as undirected"
    )
    p.add_argument(
        "--no-graph-stats",
        action="store_true",
        help="skip the diameter estimate and component count in the records",
    )
    p.add_argument(
        "-o",
        "--output",
        help="JSON-lines file to append to (default warpgraph-bench-DATE-TIME.jsonl)",
    )
    p.add_argument("--list", action="store_true", help="list algorithms and peers, then exit")
    p.set_defaults(func=run)


def _list() -> int:
    from ..bench.registry import get_registry

    reg = get_registry()
    rows = []
    for name, alg in sorted(reg.algorithms.items()):
        reason = alg.available()
        peers = ", ".join(
            f"{s}" + ("" if p.available() is None else " (not installed)")
            for s, p in sorted(reg.peers_of(name).items())
        )
        rows.append((name, "yes" if reason is None else reason, peers or "-", alg.description))
    print_table("benchmarkable algorithms", ["name", "available", "peers", "what"], rows)
    return 0


def _summary(records: list[dict]) -> None:
    from ..bench.report import system_label

    rows = []
    for r in records:
        t = r.get("times") or {}
        teps = r.get("teps") or {}
        e = r.get("energy") or {}
        rows.append(
            (
                (r.get("graph") or {}).get("name"),
                r.get("algorithm"),
                system_label(r),
                None if t.get("median_s") is None else t["median_s"] * 1e3,
                None if t.get("min_s") is None else t["min_s"] * 1e3,
                teps.get("gteps"),
                e.get("avg_power_w"),
                {True: "yes", False: "NO", None: "-"}[r.get("verified")],
                status if (status := r.get("status")) == "ok" else f"{status}: {r.get('error')}",
            )
        )
    print_table(
        "benchmark results",
        [
            "graph",
            "algorithm",
            "system",
            "median ms",
            "min ms",
            "GTEPS",
            "avg W",
            "verified",
            "status",
        ],
        rows,
    )


def run(args: argparse.Namespace) -> int:
    from ..bench.harness import BenchPlan, cells_per_graph, default_output, run_plan
    from ..bench.registry import get_registry
    from ..errors import InvalidArgumentError
    from .ui import progress

    if args.list:
        return _list()
    if not args.algorithm or not args.graph:
        raise InvalidArgumentError(
            "give at least one --algorithm and one --graph (warpgraph bench --list shows the "
            "algorithms)"
        )
    get_registry()
    if args.peers == "all":
        peers = None
    elif args.peers == "none":
        peers = []
    else:
        peers = [p.strip() for p in args.peers.split(",") if p.strip()]
    guards = {"networkx": 2_000_000}
    for item in args.peer_max_arcs:
        guards.update({k: int(v) for k, v in _kv(item).items()})
    plan = BenchPlan(
        algorithms=args.algorithm,
        graphs=args.graph,
        devices=args.device or ["auto"],
        configs=[_kv(c) for c in args.config] if args.config else [{}],
        peers=peers,
        gapbs=args.gapbs,
        gapbs_sources=args.gapbs_sources,
        gapbs_args=shlex.split(args.gapbs_args),
        sources=args.sources,
        repeat=args.repeat,
        warmup=args.warmup,
        trials=args.trials,
        seed=args.seed,
        verify=args.verify,
        energy_seconds=args.energy_seconds,
        peer_max_arcs=guards,
        directed=args.directed,
        full_stats=not args.no_graph_stats,
        output=args.output or default_output(),
    )
    total = len(plan.graphs) * cells_per_graph(plan)
    records: list[dict] = []
    with progress("benchmarking", total) as advance:

        def on_record(rec: dict) -> None:
            records.append(rec)
            advance(1)

        try:
            run_plan(plan, on_record=on_record)
        except KeyboardInterrupt:
            err_console.print(
                f"[yellow]interrupted:[/] {len(records)} finished results kept in {plan.output}"
            )
            if records:
                _summary(records)
            return 130
    _summary(records)
    console.print(f"results: {plan.output} (warpgraph report {plan.output} makes tables and plots)")
    failed = [r for r in records if r.get("status") == "failed"]
    if failed:
        err_console.print(f"[bold red]{len(failed)} cell(s) failed[/]; see the status column")
        return 1
    return 0
