"""BFS side by side with Gunrock on the same GPU, graph and sources.

Each graph is generated once (``benchmarks/bfs.py``'s specs: ``kron:S``, ``uniform:S``,
``grid:R``), written as a Matrix Market file for Gunrock (``warpgraph.bench.gunrock``), and
searched from the same 64 random non-isolated sources by warpgraph's GPU BFS (CUDA events around
each search, after one warm-up) and by each Gunrock binary given (one process per binary, the
first source run once more as a warm-up and dropped). Gunrock's own timer leaves out its
distance reset and first-frontier setup; ours includes everything, so the comparison slightly
favours Gunrock. Gunrock checks its last search against its CPU BFS (``--validate``): the error
count is recorded and a non-zero count marks the row.

Gunrock 2.1 ("Essentials") ``examples/algorithms/bfs`` is built outside the project (its default
algorithm is the "DAWN" BFS; a second build with the classic advance/filter BFS can be given too).

Usage
-----
python benchmarks/gunrock_bfs.py --graphs kron:18,kron:20,kron:22 \
    --gunrock dawn=.peers/gunrock/bfs_dawn,classic=.peers/gunrock/bfs_classic
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import numpy as np
from _common import write_json

sys.path.insert(0, str(Path(__file__).resolve().parent))
from bfs import make_graph, pick_sources, time_gpu  # noqa: E402


def parse_binaries(text: str) -> dict[str, str]:
    """``name=path,name=path`` (or one bare path, named ``gunrock``)."""
    out = {}
    for item in filter(None, text.split(",")):
        name, sep, path = item.partition("=")
        out[name if sep else "gunrock"] = path if sep else name
    return out


def bench_graph(spec: str, binaries: dict[str, str], count: int, timeout: float) -> dict[str, Any]:
    from warpgraph._arrays import to_host
    from warpgraph.bench.gunrock import GunrockError, run_gunrock, write_gunrock_mtx

    name, G = make_graph(spec, "gpu")
    deg_host = to_host(G.out_degree()).astype(np.int64)
    sources = pick_sources(G, count)
    row: dict[str, Any] = {"graph": name, "n": G.num_vertices, "edges": G.num_edges}
    row["warpgraph"] = time_gpu(G, sources, deg_host)
    print(f"== {name}: warpgraph {row['warpgraph']['median_ms']:.3f} ms", flush=True)
    with tempfile.TemporaryDirectory() as tmp:
        t0 = time.perf_counter()
        mtx = write_gunrock_mtx(G, Path(tmp) / f"{name}.mtx")
        row["mtx_write_s"] = time.perf_counter() - t0
        for label, exe in binaries.items():
            t0 = time.perf_counter()
            try:
                r = run_gunrock(exe, mtx, sources, timeout=timeout)
            except GunrockError as exc:
                row[label] = {"error": str(exc)[-600:]}
                print(f"   {label}: {exc}", flush=True)
                continue
            times = r["times_ms"]
            row[label] = {
                "median_ms": statistics.median(times),
                "min_ms": min(times),
                "max_ms": max(times),
                "runs": len(times),
                "errors_last_source": r["errors"],
                "process_s": time.perf_counter() - t0,
                "same_sources": r["sources"] == [int(s) for s in sources],
            }
            ratio = row[label]["median_ms"] / row["warpgraph"]["median_ms"]
            row[label]["warpgraph_speedup"] = ratio
            print(
                f"   {label}: {row[label]['median_ms']:.3f} ms (errors {r['errors']}); "
                f"warpgraph {ratio:.2f}x faster",
                flush=True,
            )
    return row


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    ap.add_argument("--gunrock", required=True, help="name=path[,name=path]: Gunrock binaries")
    ap.add_argument("--graphs", default="kron:18,kron:20")
    ap.add_argument("--sources", type=int, default=64)
    ap.add_argument("--timeout", type=float, default=300.0, help="seconds per Gunrock process")
    ap.add_argument("--out", default=None)
    args = ap.parse_args(argv)
    binaries = parse_binaries(args.gunrock)
    rows = [bench_graph(s, binaries, args.sources, args.timeout) for s in args.graphs.split(",")]
    path = write_json("gunrock_bfs", {"args": vars(args), "results": rows}, args.out)
    print(f"{'graph':16s} {'warpgraph ms':>13s} " + " ".join(f"{b + ' ms':>14s}" for b in binaries))
    for r in rows:
        cells = [
            f"{r[b]['median_ms']:14.3f}" if "median_ms" in r.get(b, {}) else f"{'error':>14s}"
            for b in binaries
        ]
        print(f"{r['graph']:16s} {r['warpgraph']['median_ms']:13.3f} " + " ".join(cells))
    print(f"wrote {path}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
