"""CSR construction speed and peak memory, warpgraph vs SciPy, on Graph500 Kronecker edges.

Measures ``Graph.from_edges`` (directed, and undirected with duplicate merging) on the CPU or the
GPU, and SciPy's ``coo -> csr`` on the same edges. Peak memory is measured in a child process
and reported as a multiple of the final CSR's size (the issue's target: below 3x):

- CPU: the RSS high-water mark above the level before the build;
- GPU: ``peak_bytes`` = growth of CuPy's pool (device memory the pool took, fragmentation
  included: what the build costs the device), and ``peak_in_use_bytes`` = the most bytes held
  by live arrays at once (a tracking allocator over the pool).

``--stats`` also times ``warpgraph.stats`` (degrees, Gini, double-sweep diameter, weak
components) on the undirected merged graph, with the peak memory of its temporaries.

Usage: python benchmarks/build_csr.py --scale 22 [--edgefactor 16] [--device gpu] [--stats]
       [--no-scipy] [--out FILE]
"""

from __future__ import annotations

import argparse
import multiprocessing as mp
import sys

import numpy as np
from _common import gpu_peak, measure, write_json


def _edges(scale: int, edgefactor: int, device: str):
    from warpgraph import generators

    return generators.kronecker_edges(scale, edgefactor, seed=7, device=device)


def _status_kib(key: str) -> int:
    with open("/proc/self/status") as f:
        for line in f:
            if line.startswith(key + ":"):
                return int(line.split()[1])
    raise RuntimeError(f"{key} not in /proc/self/status")


def _peak_child(scale: int, edgefactor: int, device: str, directed: bool, merge, queue) -> None:
    """Build once in a fresh process; report (peak bytes, peak in use or None, CSR bytes)."""
    from warpgraph import Graph

    src, dst = _edges(scale, edgefactor, device)
    if device == "gpu":
        G, peak, in_use = gpu_peak(
            lambda: Graph.from_edges(src, dst, directed=directed, merge=merge)
        )
    else:
        before = _status_kib("VmRSS")
        with open("/proc/self/clear_refs", "w") as f:
            f.write("5")  # reset the high-water mark: edge generation may have peaked higher
        G = Graph.from_edges(src, dst, directed=directed, merge=merge)
        peak, in_use = (_status_kib("VmHWM") - before) * 1024, None
    queue.put((int(peak), in_use, int(G.nbytes)))


def peak_ratio(scale: int, edgefactor: int, device: str, directed: bool, merge) -> dict:
    ctx = mp.get_context("spawn")
    q = ctx.Queue()
    p = ctx.Process(target=_peak_child, args=(scale, edgefactor, device, directed, merge, q))
    p.start()
    peak, in_use, csr = q.get()
    p.join()
    out = {"peak_bytes": peak, "csr_bytes": csr, "peak_over_csr": peak / csr}
    if in_use is not None:
        out |= {"peak_in_use_bytes": in_use, "peak_in_use_over_csr": in_use / csr}
    return out


def stats_row(src, dst, device: str, repeat: int) -> dict:
    """Time ``warpgraph.stats`` on the undirected merged graph; peak of its temporaries."""
    import warpgraph
    from warpgraph import Graph

    G = Graph.from_edges(src, dst, directed=False, merge="first")
    if device == "gpu":
        result, peak, in_use = gpu_peak(lambda: warpgraph.stats(G))  # also the warm-up
        mem = {"peak_bytes": peak, "peak_in_use_bytes": in_use, "graph_bytes": int(G.nbytes)}
    else:
        result, mem = warpgraph.stats(G), {"graph_bytes": int(G.nbytes)}
    t = measure(lambda: warpgraph.stats(G), device, repeat, warmup=0)
    return {
        "system": "warpgraph.stats",
        "device": device,
        "directed": False,
        "merge": "first",
        **t,
        "edges_per_s": G.num_edges / t["median_s"],
        **mem,
        "stats": {k: (float(v) if isinstance(v, np.floating) else v) for k, v in result.items()},
    }


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    ap.add_argument("--scale", type=int, default=20)
    ap.add_argument("--edgefactor", type=int, default=16)
    ap.add_argument("--device", default="cpu", choices=["cpu", "gpu"])
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--stats", action="store_true", help="also time warpgraph.stats")
    ap.add_argument("--no-scipy", action="store_true", help="skip SciPy's coo -> csr (CPU)")
    ap.add_argument("--out")
    args = ap.parse_args(argv)

    import scipy.sparse as sp

    from warpgraph import Graph

    src, dst = _edges(args.scale, args.edgefactor, args.device)
    m = int(src.shape[0])
    rows = []
    for directed, merge in ((True, None), (False, "first")):
        t = measure(
            lambda d=directed, g=merge: Graph.from_edges(src, dst, directed=d, merge=g),
            args.device,
            args.repeat,
        )
        mem = peak_ratio(args.scale, args.edgefactor, args.device, directed, merge)
        rows.append(
            {
                "system": "warpgraph",
                "device": args.device,
                "directed": directed,
                "merge": merge,
                **t,
                "edges_per_s": m / t["median_s"],
                **mem,
            }
        )
    if args.stats:
        rows.append(stats_row(src, dst, args.device, args.repeat))
    if not args.no_scipy:
        s, d = (src.get(), dst.get()) if args.device == "gpu" else (src, dst)
        n = int(max(s.max(), d.max())) + 1
        ones = np.ones(m, np.int8)
        t = measure(lambda: sp.coo_array((ones, (s, d)), shape=(n, n)).tocsr(), "cpu", args.repeat)
        rows.append(
            {
                "system": "scipy coo->csr",
                "device": "cpu",
                "directed": True,
                "merge": "sum",
                **t,
                "edges_per_s": m / t["median_s"],
            }
        )
    ef = "" if args.edgefactor == 16 else f"_ef{args.edgefactor}"
    path = write_json(
        f"build_csr_{args.device}_s{args.scale}{ef}",
        {"graph": f"kronecker scale {args.scale} ef {args.edgefactor}", "edges": m, "rows": rows},
        args.out,
    )
    print(
        f"{'system':<16}{'directed':>9}{'merge':>7}{'median s':>10}{'Medges/s':>10}"
        f"{'peak/CSR':>9}{'in use':>8}"
    )
    for r in rows:
        ratio, used = r.get("peak_over_csr"), r.get("peak_in_use_over_csr")
        print(
            f"{r['system']:<16}{r['directed']!s:>9}{r['merge']!s:>7}{r['median_s']:>10.4f}"
            f"{r['edges_per_s'] / 1e6:>10.1f}{'' if ratio is None else f'{ratio:.2f}':>9}"
            f"{'' if used is None else f'{used:.2f}':>8}"
        )
    print(f"wrote {path}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
