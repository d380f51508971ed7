"""Speed of the graph generators: million edges per second, at a few sizes, CPU or GPU.

Times each raw edge generator (``*_edges``: what Graph500's kernel-1 timing starts from), the
weights, and one full Graph construction (generation + CSR build) for reference. Median of
``--repeat`` runs after one warm-up run (Numba/NVRTC compilation, memory pools). GPU times
include a device synchronization.

Usage:
    python benchmarks/generators.py                       # CPU, default sizes
    python benchmarks/generators.py --device gpu          # GPU: Kronecker up to scale 26
    python benchmarks/generators.py --device gpu --only kronecker_edges --max-scale 24

Writes ``benchmarks/results/generators_{cpu,gpu}.json`` (or ``--out``) and prints a table.
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Callable
from typing import Any

from _common import measure, write_json

# (name, size label, function of (gen, device) returning the output, edge count of the output)
Case = tuple[str, str, Callable[[Any, str], Any], int]


def _cases(device: str, max_scale: int, quick: bool) -> list[Case]:
    if quick:
        kron_scales = [12, 14]
    elif device == "gpu":
        kron_scales = [20, 22, 24, 26]
    else:
        kron_scales = [16, 20, 22, 24]
    kron_scales = [s for s in kron_scales if s <= max_scale]
    big = kron_scales[-1] if kron_scales else 16
    graph_scale = min(big, 20 if device == "cpu" else 24)
    n_uni = 2 ** (big - 2)
    cases: list[Case] = []
    for s in kron_scales:
        cases.append(
            (
                "kronecker_edges",
                f"scale {s}",
                lambda g, d, s=s: g.kronecker_edges(s, 16, seed=1, device=d),
                16 * 2**s,
            )
        )
    cases.append(
        (
            "rmat_edges (no permutation)",
            f"scale {big}",
            lambda g, d: g.rmat_edges(big, 16, seed=1, device=d),
            16 * 2**big,
        )
    )
    cases.append(
        (
            "kronecker_edges shuffle=True",
            f"scale {big - 2}",
            lambda g, d: g.kronecker_edges(big - 2, 16, seed=1, shuffle=True, device=d),
            16 * 2 ** (big - 2),
        )
    )
    cases.append(
        (
            "uniform_edges",
            f"n 2^{big - 2}, ef 16",
            lambda g, d: g.uniform_edges(n_uni, seed=1, device=d),
            16 * n_uni,
        )
    )
    cases.append(
        (
            "random_weights gap",
            f"m 2^{big}",
            lambda g, d: g.random_weights(2**big, "gap", seed=1, device=d),
            2**big,
        )
    )
    cases.append(
        (
            "kronecker (Graph: generate + CSR)",
            f"scale {graph_scale}",
            lambda g, d: g.kronecker(graph_scale, 16, seed=1, device=d),
            16 * 2**graph_scale,
        )
    )
    if device == "cpu":  # the others generate on the CPU in any case
        n_gnp = 2**12 if quick else 2**16
        p = 32 / n_gnp
        m_gnp = round(p * n_gnp * (n_gnp - 1) / 2)
        side = 256 if quick else 2048
        n_rgg = 2**14 if quick else 2**20
        cases += [
            (
                "erdos_renyi_edges",
                f"n 2^{n_gnp.bit_length() - 1}, p {p:.2g}",
                lambda g, d: g.erdos_renyi_edges(n_gnp, p, seed=1, device=d),
                m_gnp,
            ),
            (
                "grid_2d_edges",
                f"{side} x {side}",
                lambda g, d: g.grid_2d_edges(side, side, device=d),
                2 * side * (side - 1),
            ),
            (
                "road_like_edges",
                f"{side} x {side}",
                lambda g, d: g.road_like_edges(rows=side, seed=1, device=d),
                round(1.25 * side * side),
            ),
            (
                "random_geometric_edges",
                f"n 2^{n_rgg.bit_length() - 1}, DIMACS r",
                lambda g, d: g.random_geometric_edges(n_rgg, seed=1, device=d),
                -1,  # counted from the output
            ),
        ]
    return cases


def _count(out: Any) -> int:
    if hasattr(out, "num_edges"):
        return int(out.num_edges)
    if isinstance(out, tuple):
        return int(out[0].shape[0])
    return int(out.shape[0])


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    ap.add_argument("--device", default="cpu", choices=["cpu", "gpu"])
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--max-scale", type=int, default=26, help="largest Kronecker scale to run")
    ap.add_argument("--only", help="run only the cases whose name contains this text")
    ap.add_argument("--quick", action="store_true", help="tiny sizes (a smoke test)")
    ap.add_argument("--out", help="JSON path (default benchmarks/results/generators_DEVICE.json)")
    args = ap.parse_args(argv)

    from warpgraph import generators as gen

    rows = []
    for name, size, fn, edges in _cases(args.device, args.max_scale, args.quick):
        if args.only and args.only not in name:
            continue
        out = fn(gen, args.device)
        edges = _count(out) if edges < 0 else edges
        del out
        t = measure(lambda fn=fn: fn(gen, args.device), args.device, args.repeat, warmup=0)
        rows.append(
            {
                "generator": name,
                "size": size,
                "edges": edges,
                **t,
                "medges_per_s": edges / t["median_s"] / 1e6,
            }
        )
        r = rows[-1]
        print(
            f"{name:<36}{size:>22}{edges:>14,}{r['median_s']:>10.3f}{r['medges_per_s']:>10.1f}",
            flush=True,
        )
    load = os.getloadavg()  # other work on the machine slows the parallel CPU kernels
    path = write_json(
        f"generators_{args.device}",
        {"device": args.device, "repeat": args.repeat, "load_average_1_5_15": load, "rows": rows},
        args.out,
    )
    try:
        from warpgraph.cli.ui import print_table

        print_table(
            f"generators on {args.device} (median of {args.repeat})",
            ["generator", "size", "edges", "median s", "M edges/s"],
            [
                (r["generator"], r["size"], r["edges"], r["median_s"], r["medges_per_s"])
                for r in rows
            ],
        )
    except ImportError:
        pass
    print(f"load average {load[0]:.2f} {load[1]:.2f} {load[2]:.2f}; wrote {path}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
