"""``warpgraph report``: Markdown tables and PNG/SVG plots from benchmark result files."""

from __future__ import annotations

import argparse

from .ui import console, err_console


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "report",
        help="turn benchmark result files (JSON lines) into a Markdown report and plots",
        description="Reads the JSON-lines files written by `warpgraph bench` and `warpgraph "
        "graph500 --results` and writes OUT/report.md (machines, median time and GTEPS per graph "
        "x algorithm x system, speedup over each peer, energy and power, skipped and failed "
        "cells) and the plots time_per_graph, speedup and gteps_vs_scale (PNG and SVG; needs "
        "matplotlib). When a cell appears more than once, the newest record wins.",
    )
    p.add_argument("files", nargs="+", help="result files (JSON lines)")
    p.add_argument("-o", "--output", default="report", help="output directory (default report)")
    p.add_argument("--formats", default="png,svg", help="plot formats: png, svg, pdf")
    p.add_argument("--no-plots", action="store_true", help="write the Markdown only")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from ..bench.report import markdown_table, write_report
    from ..bench.results import read_results

    formats = [f.strip() for f in args.formats.split(",") if f.strip()]
    out = write_report(args.files, args.output, formats=formats, plots=not args.no_plots)
    console.print(markdown_table(read_results(args.files)), markup=False)
    console.print(f"report: {out['markdown']} ({out['records']} records)")
    for path in out["images"]:
        console.print(f"plot:   {path}")
    if out["plots_note"]:
        err_console.print(f"[yellow]note:[/] {out['plots_note']}")
    return 0
