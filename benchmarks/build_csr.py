"""CSR construction speed and peak memory, warpgraph vs SciPy, on Graph500 Kronecker edges.

Measures ``Graph.from_edges`` (directed, and undirected with duplicate merging) on the CPU or the
GPU, and SciPy's ``coo -> csr`` on the same edges. Peak memory is measured in a child process
(RSS high-water mark on the CPU; CuPy pool high-water on the GPU) and reported as a multiple of
the final CSR's size; the target is below 3x on the CPU.

Usage: python benchmarks/build_csr.py --scale 22 [--device gpu] [--out FILE]
"""

from __future__ import annotations

import argparse
import multiprocessing as mp
import sys

import numpy as np
from _common import measure, write_json


def _edges(scale: int, device: str):
    from warpgraph import generators

    return generators.kronecker_edges(scale, 16, seed=7, device=device)


def _status_kib(key: str) -> int:
    with open("/proc/self/status") as f:
        for line in f:
            if line.startswith(key + ":"):
                return int(line.split()[1])
    raise RuntimeError(f"{key} not in /proc/self/status")


def _peak_child(scale: int, device: str, directed: bool, merge, queue) -> None:
    """Build once in a fresh process; report (peak bytes above the pre-build level, CSR bytes)."""
    from warpgraph import Graph

    src, dst = _edges(scale, device)
    if device == "gpu":
        import cupy as cp

        pool = cp.get_default_memory_pool()
        pool.free_all_blocks()
        before = pool.total_bytes()
        G = Graph.from_edges(src, dst, directed=directed, merge=merge)
        cp.cuda.Device().synchronize()
        peak = pool.total_bytes() - before  # the pool keeps freed blocks: its size is the peak
    else:
        before = _status_kib("VmRSS")
        with open("/proc/self/clear_refs", "w") as f:
            f.write("5")  # reset the high-water mark: edge generation may have peaked higher
        G = Graph.from_edges(src, dst, directed=directed, merge=merge)
        peak = (_status_kib("VmHWM") - before) * 1024
    queue.put((int(peak), int(G.nbytes)))


def peak_ratio(scale: int, device: str, directed: bool, merge) -> dict:
    ctx = mp.get_context("spawn")
    q = ctx.Queue()
    p = ctx.Process(target=_peak_child, args=(scale, device, directed, merge, q))
    p.start()
    peak, csr = q.get()
    p.join()
    return {"peak_bytes": peak, "csr_bytes": csr, "peak_over_csr": peak / csr}


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    ap.add_argument("--scale", type=int, default=20)
    ap.add_argument("--device", default="cpu", choices=["cpu", "gpu"])
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--out")
    args = ap.parse_args(argv)

    import scipy.sparse as sp

    from warpgraph import Graph

    src, dst = _edges(args.scale, args.device)
    m = int(src.shape[0])
    rows = []
    for directed, merge in ((True, None), (False, "first")):
        t = measure(
            lambda d=directed, g=merge: Graph.from_edges(src, dst, directed=d, merge=g),
            args.device,
            args.repeat,
        )
        mem = peak_ratio(args.scale, args.device, directed, merge)
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
    path = write_json(
        f"build_csr_{args.device}_s{args.scale}",
        {"graph": f"kronecker scale {args.scale} ef 16", "edges": m, "rows": rows},
        args.out,
    )
    print(
        f"{'system':<16}{'directed':>9}{'merge':>7}{'median s':>10}{'Medges/s':>10}{'peak/CSR':>9}"
    )
    for r in rows:
        ratio = r.get("peak_over_csr")
        print(
            f"{r['system']:<16}{r['directed']!s:>9}{r['merge']!s:>7}{r['median_s']:>10.3f}"
            f"{r['edges_per_s'] / 1e6:>10.1f}{'' if ratio is None else f'{ratio:.2f}':>9}"
        )
    print(f"wrote {path}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
