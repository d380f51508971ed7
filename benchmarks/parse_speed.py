"""Edge-list parsing speed: warpgraph against pyarrow.csv, pandas, igraph and NetworkX.

Writes a SNAP-style tab-separated edge list (0-based ids, default 10M edges over 2**22 vertex
ids, uniform random), then times every reader on that same file, warm page cache:

* ``warpgraph read_edges``: the Numba byte parser alone (EdgeData: NumPy src/dst arrays);
* ``warpgraph load``: parse + CSR build (a ready Graph);
* ``warpgraph load (.gz)``: the same file gzip-compressed (inflate + parse + CSR);
* ``pyarrow.csv`` (multithreaded) and ``pandas.read_csv`` (C engine): column readers, no graph;
* ``igraph Read_Edgelist``: parse + igraph graph;
* ``networkx read_edgelist + from_networkx``: parse into a DiGraph, then to a warpgraph CSR.
  NetworkX needs minutes and gigabytes for 10M edges, so by default it reads the first
  ``--networkx-edges`` lines (1M) of the same file; rates are per byte and per edge, so they
  compare directly (``--networkx-edges 0`` runs it on the whole file).

Also times reloading the graph from the native binary ``.wgb`` file (memory-mapped with and
without the structure check, and read into memory).

Every reader runs ``--repeat`` times (NetworkX once), after a warm-up run for the first
warpgraph call (Numba's compile cache) and the binary reloads; the median is kept.
Output: a table and ``benchmarks/results/parse_speed.json`` (machine, versions, sizes, seconds,
MB/s and edges/s per reader).

Usage: ``python benchmarks/parse_speed.py [--edges 10000000] [--repeat 3] [--skip networkx]``
"""

from __future__ import annotations

import argparse
import gzip
import json
import os
import platform
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from typing import Any

import numpy as np

RESULTS = os.path.join(os.path.dirname(os.path.abspath(__file__)), "results", "parse_speed.json")


def machine() -> dict[str, Any]:
    cpu = platform.processor()
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                if line.startswith("model name"):
                    cpu = line.split(":", 1)[1].strip()
                    break
    except OSError:
        pass
    import numba

    return {
        "platform": platform.platform(),
        "cpu": cpu,
        "cores": os.cpu_count(),
        "numba_threads": numba.get_num_threads(),
        "python": sys.version.split()[0],
        "load_average_1_5_15min": list(os.getloadavg()),
    }


def versions() -> dict[str, str]:
    out = {}
    for name in ("warpgraph", "numpy", "numba", "pyarrow", "pandas", "igraph", "networkx"):
        try:
            mod = __import__(name)
            out[name] = getattr(mod, "__version__", "?")
        except ImportError:
            out[name] = "not installed"
    return out


def make_file(path: str, m: int, id_bits: int, seed: int) -> None:
    from warpgraph.io._write import write_lines

    rng = np.random.default_rng(seed)
    src = rng.integers(0, 2**id_bits, m)
    dst = rng.integers(0, 2**id_bits, m)
    with open(path, "wb") as f:
        write_lines(f, [src, dst], sep="\t")


def prefix_file(path: str, out: str, lines: int) -> int:
    with open(path, "rb") as f, open(out, "wb") as g:
        for k, line in enumerate(f):
            if k >= lines:
                break
            g.write(line)
    return os.path.getsize(out)


def timed(fn: Callable[[], Any], repeat: int, warmup: bool) -> tuple[list[float], Any]:
    if warmup:
        fn()
    times, result = [], None
    for _ in range(repeat):
        t0 = time.perf_counter()
        result = fn()
        times.append(time.perf_counter() - t0)
    return times, result


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--edges", type=int, default=10_000_000)
    ap.add_argument("--id-bits", type=int, default=22, help="ids uniform in [0, 2**bits)")
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--networkx-edges", type=int, default=1_000_000, help="0: whole file")
    ap.add_argument("--skip", nargs="*", default=[], help="readers to skip (by short name)")
    ap.add_argument("--keep", help="folder to keep the generated files in")
    ap.add_argument("--output", default=RESULTS)
    args = ap.parse_args(argv)

    import warpgraph as wg
    from warpgraph.io import read_edges

    folder = args.keep or tempfile.mkdtemp(prefix="wg-parse-")
    os.makedirs(folder, exist_ok=True)
    path = os.path.join(folder, f"edges_{args.edges}.txt")
    if not os.path.exists(path):
        make_file(path, args.edges, args.id_bits, seed=1)
    size = os.path.getsize(path)
    gz = path + ".gz"
    if "gzip" not in args.skip and not os.path.exists(gz):
        with open(path, "rb") as f, gzip.open(gz, "wb", compresslevel=6) as g:
            while chunk := f.read(1 << 24):
                g.write(chunk)
    m = args.edges
    rows: list[dict[str, Any]] = []

    def record(name, short, times, edges, nbytes, note=""):
        med = statistics.median(times)
        rows.append(
            {
                "reader": name,
                "short": short,
                "seconds_median": med,
                "seconds_all": times,
                "edges": edges,
                "bytes": nbytes,
                "MB_per_s": nbytes / med / 1e6,
                "edges_per_s": edges / med,
                "note": note,
            }
        )
        print(f"  {name:<42} {med:8.3f} s  {nbytes / med / 1e6:8.1f} MB/s", flush=True)

    print(f"file: {path} ({size / 1e6:.1f} MB, {m:,} edges)", flush=True)

    def check(d):
        assert d.num_edges == m

    times, d = timed(lambda: read_edges(path), args.repeat, warmup=True)
    check(d)
    record("warpgraph read_edges (Numba parser)", "wg-parse", times, m, size)
    times, G = timed(lambda: wg.load(path), args.repeat, warmup=False)
    assert G.num_edges == m
    record("warpgraph load (parse + CSR build)", "wg-load", times, m, size)
    if "gzip" not in args.skip:
        times, G = timed(lambda: wg.load(gz), args.repeat, warmup=False)
        record(
            "warpgraph load of the .gz file",
            "wg-gzip",
            times,
            m,
            size,
            note=f"MB/s of uncompressed text; .gz is {os.path.getsize(gz) / 1e6:.1f} MB",
        )

    if "wgb" not in args.skip:
        wgb = os.path.join(folder, "graph.wgb")
        wg.save(G, wgb)
        nb = os.path.getsize(wgb)
        notes = {
            "wgb-mmap": "time to a usable Graph: header checks + mapping; pages load on touch",
            "wgb-mmap-check": "mapping + structure check, which reads every byte once",
            "wgb-read": "every array read into memory (readinto) + structure check",
        }
        for label, short, kw in (
            ("warpgraph .wgb reload, mmap, no check", "wgb-mmap", dict(mmap=True, check=False)),
            ("warpgraph .wgb reload, mmap + check", "wgb-mmap-check", dict(mmap=True)),
            ("warpgraph .wgb reload, read into memory", "wgb-read", dict(mmap=False)),
        ):

            def reload(kw=kw):
                H = wg.load(wgb, **kw)
                # touch every page so that the timing includes reading the data
                return int(H.indices[::1024].sum()) + int(H.indptr[-1])

            times, _ = timed(reload, args.repeat, warmup=True)
            record(label, short, times, m, nb, note=f"MB/s of the .wgb size; {notes[short]}")

    if "pyarrow" not in args.skip:
        import pyarrow as pa
        import pyarrow.csv as pacsv

        def arrow():
            return pacsv.read_csv(
                path,
                read_options=pacsv.ReadOptions(column_names=["src", "dst"], use_threads=True),
                parse_options=pacsv.ParseOptions(delimiter="\t"),
                convert_options=pacsv.ConvertOptions(
                    column_types={"src": pa.int64(), "dst": pa.int64()}
                ),
            )

        times, t = timed(arrow, args.repeat, warmup=True)
        assert t.num_rows == m
        record("pyarrow.csv.read_csv (threads, columns only)", "pyarrow", times, m, size)

    if "pandas" not in args.skip:
        import pandas as pd

        def pandas_c():
            return pd.read_csv(path, sep="\t", header=None, names=["s", "d"], engine="c")

        times, df = timed(pandas_c, args.repeat, warmup=False)
        assert len(df) == m
        record("pandas.read_csv C engine (columns only)", "pandas", times, m, size)

    if "igraph" not in args.skip:
        import igraph

        times, g = timed(
            lambda: igraph.Graph.Read_Edgelist(path, directed=True), args.repeat, warmup=False
        )
        assert g.ecount() == m
        record("igraph Graph.Read_Edgelist", "igraph", times, m, size)

    if "networkx" not in args.skip:
        import networkx as nx

        nx_path, nx_edges, nx_bytes = path, m, size
        if args.networkx_edges and args.networkx_edges < m:
            nx_path = os.path.join(folder, f"prefix_{args.networkx_edges}.txt")
            nx_bytes = prefix_file(path, nx_path, args.networkx_edges)
            nx_edges = args.networkx_edges

        def networkx():
            H = nx.read_edgelist(nx_path, nodetype=int, create_using=nx.DiGraph)
            return wg.Graph.from_networkx(H, weight=None)

        times, _ = timed(networkx, 1, warmup=False)
        note = "" if nx_path == path else f"first {nx_edges:,} lines of the same file"
        label = "networkx read_edgelist + from_networkx"
        record(label, "networkx", times, nx_edges, nx_bytes, note)
        # the same prefix through warpgraph, for a like-for-like check
        if nx_path != path:
            times, _ = timed(lambda: wg.load(nx_path), args.repeat, warmup=True)
            record("warpgraph load (NetworkX's prefix file)", "wg-load-prefix", times,
                   nx_edges, nx_bytes, note)  # fmt: skip

    by = {r["short"]: r for r in rows}
    base = by.get("wg-load")
    for r in rows:  # how many times faster warpgraph's load is (text readers only)
        text_reader = not r["short"].startswith("wgb") and r["short"] != "wg-load"
        r["wg_load_speedup_over_this"] = (
            base["MB_per_s"] / r["MB_per_s"] if base and text_reader else None
        )
    result = {
        "benchmark": "parse_speed",
        "date": time.strftime("%Y-%m-%d %H:%M:%S"),
        "machine": machine(),
        "versions": versions(),
        "file": {
            "kind": "tab-separated 0-based edge list, uniform random ids",
            "edges": m,
            "id_bits": args.id_bits,
            "bytes": size,
            "cache": "warm (the file was just written; every reader reads from the page cache)",
        },
        "repeat": args.repeat,
        "readers": rows,
    }
    os.makedirs(os.path.dirname(args.output), exist_ok=True)
    with open(args.output, "w") as f:
        json.dump(result, f, indent=2)

    from warpgraph.cli.ui import print_table

    print_table(
        f"edge-list parsing, {m:,} edges, {size / 1e6:.0f} MB, {machine()['numba_threads']} "
        "threads",
        ["reader", "seconds", "MB/s", "Medges/s", "wg load is x faster"],
        [
            (
                r["reader"],
                r["seconds_median"],
                r["MB_per_s"],
                r["edges_per_s"] / 1e6,
                None if r["wg_load_speedup_over_this"] is None
                else round(r["wg_load_speedup_over_this"], 1),
            )
            for r in rows
        ],
    )  # fmt: skip
    print(f"wrote {args.output}")
    if not args.keep:
        for name in os.listdir(folder):
            os.unlink(os.path.join(folder, name))
        os.rmdir(folder)
    return 0


if __name__ == "__main__":
    sys.exit(main())
