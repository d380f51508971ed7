"""PageRank speed: warpgraph on the CPU and the GPU beside a SciPy power iteration and NetworkX.

Method: each graph is generated (or loaded) once and copied to every device before any timing.
Contenders: ``warpgraph.pagerank`` on each ``--device`` entry (the graph already there, its
in-arc CSR built by the first call), the SciPy peer ``warpgraph.demo.pagerank_scipy`` (CSR SpMV
power iteration, NetworkX's ``_pagerank_scipy`` step for step: the same formula, start and
stopping rule, timed from the SciPy CSR matrix, the row normalization included), and with
``--networkx`` ``nx.pagerank`` (its own backend, from a NetworkX graph built untimed) on graphs
of at most ``--networkx-max-arcs`` arcs. Every contender runs once untimed (Numba compilation,
GPU module loading; its answer is the one checked), then ``--repeat`` rounds, each calling
SciPy and every device once in turn (``_common.measure_interleaved``: a busy moment of a shared
host falls on all of them alike), wall clock, the GPU synchronized after each call; NetworkX
is timed after them, ``min(--repeat, 3)`` runs. Median, min and max seconds, the steps taken,
seconds per step and ``gteps``: arcs (an undirected edge twice, as the pull reads it) times
steps per second, / 1e9.

Tolerance: NetworkX's default ``tol=1e-6`` stops when the L1 change falls below ``n * 1e-6``,
which the default graphs (``urand:17``, ``kron:17``, ``grid:708``) reach in 1 to 3 steps from
the uniform start (the set-up, not the steps, is then timed); the default here is
``--tol 1e-10``, with ``--max-iter 1000`` (a step shrinks the change by at least ``alpha``, so
a graph of ``n`` vertices needs at most about ``log(n * tol / 2) / log(alpha)`` steps). Every
contender gets the same ``--alpha``, ``--tol`` and ``--max-iter``.

Verification, untimed: every warpgraph answer by ``verify_pagerank`` and against the SciPy
peer's (the same steps and ranks equal within 1e-12, or one step apart and less than
``n * tol`` apart in L1: ``warpgraph.demo.pagerank_agrees``); NetworkX's answer against SciPy's
(L1 below ``n * tol``). The script exits 1 when any check fails.

Graphs: ``kron:S`` directed Graph500 Kronecker of 2**S vertices, edge factor 16, not
symmetrized; ``ukron:S`` its undirected version; ``urand:S`` directed uniform random (GAP's
urand, edge factor 16); ``grid:R`` R x R undirected 4-neighbour grid; ``dgrid:R``, ``sgrid:R``,
``uniform4:S``, ``road:N`` and file paths as in ``benchmarks/components.py``, whose generator
this script reuses. Generated graphs are unweighted; a file's weights are used unless
``--unweighted``.

Usage::

    python benchmarks/pagerank.py --graphs urand:17,kron:17,grid:708
    python benchmarks/pagerank.py --graphs kron:20,urand:20 --device cpu,gpu --out pr.json
    python benchmarks/pagerank.py --graphs ukron:14,grid:100 --networkx --repeat 3
    python benchmarks/pagerank.py --graphs kron:20,urand:20 --device cpu,gpu --dtype float32

``--scipy-max-arcs`` (default 20M) leaves SciPy out of the timed rounds on larger graphs; it
still answers once, untimed, for the checks.

``--dtype float32`` stores warpgraph's ranks and contributions in float32 (sums stay float64);
its answers must then agree with SciPy's within float32 rounding (``pagerank_agrees``).
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from pathlib import Path
from typing import Any

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _common import measure, measure_interleaved, write_json  # noqa: E402
from components import make_graph as _components_graph  # noqa: E402


def make_graph(spec: str, device: str):
    """``(name, Graph)`` of a spec (module docstring), generated on ``device``."""
    kind, _, arg = spec.partition(":")
    if kind == "urand":  # components.py's "uniform:S"
        name, G = _components_graph(f"uniform:{arg}", device)
        return name.replace("uniform", "urand", 1), G
    return _components_graph(spec, device)


def devices_for(text: str) -> list[str]:
    """``auto``: the CPU, and the GPU when one is usable; else the comma-separated list."""
    from warpgraph.device import gpu_available

    if text == "auto":
        return ["cpu", "gpu"] if gpu_available() else ["cpu"]
    return [d for d in text.split(",") if d]


def scipy_matrix(G, weighted: bool):
    """The CPU graph as the SciPy CSR matrix a SciPy user would have (float64; ones when
    unweighted), arc ``u -> v`` at ``[u, v]``, parallel arcs kept (SpMV adds them)."""
    import scipy.sparse as sp

    n = G.num_vertices
    data = (
        np.asarray(G.weights, dtype=np.float64)
        if weighted and G.weights is not None
        else np.ones(G.num_arcs, dtype=np.float64)
    )
    return sp.csr_array((data, G.indices, G.indptr), shape=(n, n))


def _threads_now() -> dict[str, Any]:
    """The 1-minute load average and the Numba threads warpgraph's parallel passes take at it
    (fewer on a busy machine, ``docs/THREADS.md``)."""
    import numba

    from warpgraph.cpu.threads import dynamic_threads

    return {
        "load_1min": round(os.getloadavg()[0], 2),
        "threads": dynamic_threads(numba.get_num_threads()),
    }


def _rates(rec: dict[str, Any], steps: int, arcs: int) -> None:
    rec["iterations"] = int(steps)
    rec["s_per_iteration"] = rec["median_s"] / steps if steps else None
    rec["gteps"] = arcs * steps / rec["median_s"] / 1e9 if rec["median_s"] > 0 else None


def bench_graph(spec: str, args, devices: list[str]) -> dict[str, Any]:
    from warpgraph._arrays import to_host
    from warpgraph.algorithms.pagerank import pagerank
    from warpgraph.algorithms.pagerank.verify import verify_pagerank
    from warpgraph.demo import pagerank_agrees, pagerank_scipy

    t0 = time.perf_counter()
    name, G = make_graph(spec, "gpu" if "gpu" in devices else "cpu")
    Gc = G.to("cpu")
    build_s = time.perf_counter() - t0
    weighted = not args.unweighted and Gc.weights is not None
    arcs = Gc.num_arcs
    A = scipy_matrix(Gc, weighted)
    row: dict[str, Any] = {
        "graph": name,
        "spec": spec,
        "n": Gc.num_vertices,
        "edges": Gc.num_edges,
        "arcs": arcs,
        "directed": Gc.directed,
        "weighted": weighted,
        "dangling": int((A.sum(axis=1) == 0).sum()),  # no out-weight
        "build_s": build_s,
        **_threads_now(),
        "results": {},
    }
    print(f"== {name}: n={row['n']:,} arcs={arcs:,} dangling={row['dangling']:,} "
          f"({build_s:.1f} s)", flush=True)  # fmt: skip
    opts = {"alpha": args.alpha, "tol": args.tol, "max_iter": args.max_iter}
    calls: dict[str, Any] = {"scipy": lambda: pagerank_scipy(A, **opts)}
    for dev in devices:
        Gd = G.to(dev)
        calls[dev] = lambda Gd=Gd, dev=dev: pagerank(
            Gd, weighted=weighted, device=dev, dtype=args.dtype, return_iterations=True, **opts
        )
    answers = {who: fn() for who, fn in calls.items()}  # warm-up; the answers checked
    want, want_steps = answers["scipy"]
    row["scipy_steps"] = want_steps
    if arcs > args.scipy_max_arcs:  # (SciPy still answered once above, for the checks)
        del calls["scipy"]
    sync_device = "gpu" if "gpu" in devices else "cpu"
    timings = measure_interleaved(calls, repeat=args.repeat, device=sync_device)
    for who, rec in timings.items():
        ranks, steps = answers[who]
        _rates(rec, steps, arcs)
        if who != "scipy":
            r = to_host(ranks)
            try:
                verify_pagerank(Gc, r, alpha=args.alpha, tol=args.tol, weighted=weighted)
                rec["verified"] = True
            except Exception as exc:  # report the reason and go on
                rec["verified"], rec["verify_error"] = False, repr(exc)[:400]
            rec["max_abs_diff_scipy"] = float(np.abs(r - want).max(initial=0.0))
            rec["agrees_with_scipy"] = pagerank_agrees(r, steps, want, want_steps, args.tol)
            if "scipy" in timings:
                rec["speedup_vs_scipy"] = timings["scipy"]["median_s"] / rec["median_s"]
        row["results"][who] = rec
    if args.networkx and arcs <= args.networkx_max_arcs:
        row["results"]["networkx"] = time_networkx(Gc, weighted, opts, args.repeat, want)
    for who, rec in row["results"].items():
        ok = rec.get("verified", True) and rec.get("agrees_with_scipy", True)
        steps = rec.get("iterations", "-")
        gteps = "-" if rec["gteps"] is None else f"{rec['gteps']:.3f}"
        print(f"   {who:9s} {1e3 * rec['median_s']:10.3f} ms  {steps:>4} steps  "
              f"{gteps:>8s} GTEPS  {'ok' if ok else 'FAILED'}", flush=True)  # fmt: skip
    return row


def time_networkx(Gc, weighted: bool, opts: dict[str, Any], repeat: int, want) -> dict[str, Any]:
    """``nx.pagerank`` on NetworkX's own backend, from a NetworkX graph built untimed; checked
    against SciPy's ranks (L1 below ``n * tol``: NetworkX does not return its steps)."""
    import networkx as nx

    H = Gc.to_networkx()
    weight = "weight" if weighted else None

    def run():
        return nx.pagerank(H, weight=weight, backend="networkx", **opts)

    rec = measure(run, "cpu", repeat=min(repeat, 3), warmup=0)
    got = run()
    r = np.fromiter((got[v] for v in range(Gc.num_vertices)), dtype=np.float64)
    apart = float(np.abs(r - want).sum())
    rec["l1_diff_scipy"] = apart
    rec["agrees_with_scipy"] = apart < Gc.num_vertices * opts["tol"]
    rec["gteps"] = None  # (steps unknown)
    return rec


def print_table(rows: list[dict[str, Any]]) -> None:
    keys: list[str] = []
    for r in rows:
        keys += [k for k in r.get("results", {}) if k not in keys]
    print(f"{'graph':26s} {'arcs':>12s} {'steps':>5s} " + " ".join(f"{k:>10s}" for k in keys))
    for r in rows:
        res = r.get("results", {})
        steps = r.get("scipy_steps", "-")
        cells = [f"{1e3 * res[k]['median_s']:10.3f}" if k in res else f"{'-':>10s}" for k in keys]
        print(f"{r['graph']:26s} {r.get('arcs', 0):12,d} {steps:>5} " + " ".join(cells))
    print("(median ms per run; min/max, seconds per step, GTEPS and the checks in the JSON)")


def failures(rows: list[dict[str, Any]]) -> list[str]:
    """``graph/contender`` of every failed check (or failed graph)."""
    bad = []
    for r in rows:
        if "error" in r:
            bad.append(r["graph"])
        for who, rec in r.get("results", {}).items():
            if not (rec.get("verified", True) and rec.get("agrees_with_scipy", True)):
                bad.append(f"{r['graph']}/{who}")
    return bad


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    ap.add_argument("--graphs", default="urand:17,kron:17,grid:708", help="comma-separated")
    ap.add_argument("--device", default="auto", help="auto (cpu, and gpu when usable), or a list")
    ap.add_argument("--alpha", type=float, default=0.85)
    ap.add_argument(
        "--tol",
        type=float,
        default=1e-10,
        help="stop below an L1 change of n * TOL (default 1e-10, not NetworkX's 1e-6: see above)",
    )
    ap.add_argument("--max-iter", type=int, default=1000)
    ap.add_argument("--unweighted", action="store_true", help="ignore a file's weights")
    ap.add_argument(
        "--dtype",
        choices=("float64", "float32"),
        default="float64",
        help="warpgraph's rank storage (float32: agreement with SciPy within float32 rounding)",
    )
    ap.add_argument("--repeat", type=int, default=5, help="timed rounds (median reported)")
    ap.add_argument(
        "--scipy-max-arcs",
        type=int,
        default=20_000_000,
        help="time SciPy only on graphs of at most this many arcs (above, it runs once, untimed, "
        "for the checks: about 2 s a run at 16M arcs)",
    )
    ap.add_argument("--networkx", action="store_true", help="also time nx.pagerank")
    ap.add_argument("--networkx-max-arcs", type=int, default=300_000)
    ap.add_argument("--out", help="JSON output (default benchmarks/results/pagerank.json)")
    args = ap.parse_args(argv)
    if args.repeat < 1:
        ap.error("--repeat must be at least 1")
    if not 0.0 <= args.alpha <= 1.0 or not args.tol >= 0.0 or args.max_iter < 0:
        ap.error("need 0 <= --alpha <= 1, --tol >= 0 and --max-iter >= 0")
    devices = devices_for(args.device)
    if not devices or any(d not in ("cpu", "gpu") for d in devices):
        ap.error(f"--device must be auto or a list of cpu, gpu; got {args.device!r}")
    rows = []
    for spec in filter(None, args.graphs.split(",")):
        try:
            rows.append(bench_graph(spec, args, devices))
        except Exception as exc:  # e.g. out of device memory, no convergence: go on
            print(f"!! {spec}: {exc!r}", file=sys.stderr, flush=True)
            rows.append({"graph": spec, "error": repr(exc)[:500]})
        write_json("pagerank", {"args": vars(args), "results": rows}, args.out)  # after each
    path = write_json("pagerank", {"args": vars(args), "results": rows}, args.out)
    print_table([r for r in rows if "error" not in r])
    print(f"wrote {path}")
    bad = failures(rows)
    if bad:
        print(f"checks failed: {', '.join(bad)}", file=sys.stderr)
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
