# ruff: noqa: E402  (networkx is imported before the rest, see below)
"""Triangles, k-core, k-truss and triad census: warpgraph (CPU, GPU) beside its peers.

Peers run in the same process on the same graph: igraph (``transitivity_local_undirected``,
``coreness``, ``triad_census``), NetworkX on small graphs, and GAPBS ``tc`` when ``--gapbs`` names
its directory. Times are end to end from a Graph already on the device (the orientation and
other preparation included), median of ``--repeat`` runs after one warm-up; GPU runs are
synchronized. Every warpgraph answer is checked against the other backend's or a peer's.

Graphs: ``kronecker:S`` (Graph500, edgefactor 16), ``urand:S`` (GAP uniform, edgefactor 16),
or a file (``--datasets`` folder or a path). Undirected algorithms use the symmetrized graph;
the census uses the arcs as generated (or read).

Usage::

    python benchmarks/triangles.py --graphs kronecker:16 urand:16 --device cpu gpu
    python benchmarks/triangles.py --graphs kronecker:20 --algorithms tc --gapbs ~/gapbs
    python benchmarks/triangles.py --graphs kronecker:20 kronecker:22 --algorithms tc \
        --device gpu --gen-device gpu --tc-breakdown --no-peers   # where the GPU time goes
"""

from __future__ import annotations

import argparse
import sys
import time
import traceback
from pathlib import Path

import numpy as np
from _common import measure, sync, write_json

import warpgraph as wg
from warpgraph.algorithms.kcore import core_number
from warpgraph.algorithms.ktruss import truss_decomposition
from warpgraph.algorithms.triads import triadic_census
from warpgraph.algorithms.triangles import clustering, triangle_count, triangles

ALGORITHMS = ("tc", "triangles", "clustering", "kcore", "ktruss", "census", "census-dyads")
NX_MAX_EDGES = 300_000
NX_MAX_CENSUS_ARCS = 20_000  # NetworkX's census took 105 s on 53k arcs


def load(spec: str, datasets: Path, device: str) -> tuple[wg.Graph, wg.Graph]:
    """(directed, undirected) graphs for a spec, generated on ``device`` (files: the CPU)."""
    if ":" in spec and not Path(spec).exists():
        kind, scale = spec.split(":")
        scale = int(scale)
        if kind == "kronecker":
            s, d = wg.generators.kronecker_edges(scale, 16, seed=1, device=device)
        elif kind == "urand":
            s, d = wg.generators.uniform_edges(2**scale, edgefactor=16, seed=1, device=device)
        else:
            raise SystemExit(f"unknown generator {kind!r}")
        D = wg.Graph.from_edges(s, d, num_vertices=2**scale, merge="first")
    else:
        path = Path(spec) if Path(spec).exists() else datasets / spec
        D = wg.load(path)
        if not D.directed:
            return D, D
    return D, D.to_undirected()


def _nx(G: wg.Graph):
    import networkx as nx

    H = G.to_networkx()
    H.remove_edges_from(list(nx.selfloop_edges(H)))
    return H


def _igraph(G: wg.Graph):
    import igraph as ig

    s, d, _ = G.edges()
    keep = s != d  # peers count loops in degrees; warpgraph ignores them
    s, d = s[keep], d[keep]
    return ig.Graph(n=G.num_vertices, edges=np.column_stack([s, d]), directed=G.directed)


def summary(alg: str, out) -> object:
    """A small comparable digest of an answer."""
    if alg == "tc":
        return int(out)
    if alg == "census" or alg == "census-dyads":
        return {k: int(v) for k, v in out.items()}
    a = np.asarray(out.get() if hasattr(out, "get") else out)
    if alg == "clustering":
        return round(float(a.sum()), 6)
    return int(a.sum()) if alg == "triangles" else [int(a.max(initial=0)), int(a.sum())]


def ours(alg: str, G: wg.Graph, D: wg.Graph, device: str):
    if alg == "tc":
        return lambda: triangle_count(G, device=device)
    if alg == "triangles":
        return lambda: triangles(G, device=device)
    if alg == "clustering":
        return lambda: clustering(G, device=device)
    if alg == "kcore":
        return lambda: core_number(G, device=device)
    if alg == "ktruss":
        return lambda: truss_decomposition(G, device=device)
    method = "dyads" if alg == "census-dyads" else "triangles"
    return lambda: triadic_census(D, method=method, device=device)


def peers(alg: str, G: wg.Graph, D: wg.Graph, use_nx: bool):
    """(name, prepared callable, digest function) of each available peer."""
    out = []
    try:
        ig_u = _igraph(G)
        if alg in ("tc", "triangles", "clustering"):
            out.append(
                (
                    "igraph transitivity_local_undirected",
                    lambda: ig_u.transitivity_local_undirected(mode="zero"),
                    None,
                )
            )
        elif alg == "kcore":
            out.append(("igraph coreness", ig_u.coreness, lambda r: summary("kcore", r)))
        elif alg.startswith("census"):
            ig_d = _igraph(D)

            def census():
                return ig_d.triad_census()

            def digest(r):
                from warpgraph.algorithms.triads import TRIAD_NAMES  # igraph uses the same order

                return dict(zip(TRIAD_NAMES, (int(x) for x in r), strict=True))

            out.append(("igraph triad_census", census, digest))
    except ImportError:
        pass
    if use_nx:
        import networkx as nx

        H = _nx(G)
        if alg == "tc":
            out.append(
                ("networkx triangles", lambda: sum(nx.triangles(H).values()) // 3, lambda r: int(r))
            )
        elif alg == "triangles":
            out.append(
                ("networkx triangles", lambda: nx.triangles(H), lambda r: int(sum(r.values())))
            )
        elif alg == "clustering":
            out.append(("networkx clustering", lambda: nx.clustering(H), None))
        elif alg == "kcore":
            out.append(
                (
                    "networkx core_number",
                    lambda: nx.core_number(H),
                    lambda r: [max(r.values(), default=0), sum(r.values())],
                )
            )
        elif alg == "ktruss":
            out.append(("networkx k_truss (k=3 only)", lambda: nx.k_truss(H, 3), None))
        elif alg.startswith("census") and D.num_arcs <= NX_MAX_CENSUS_ARCS:
            HD = _nx(D)
            out.append(("networkx triadic_census", lambda: nx.triadic_census(HD), dict))
    return out


def gapbs_tc(G: wg.Graph, gapbs: str, repeat: int) -> dict:
    from tempfile import TemporaryDirectory

    from warpgraph.bench.gapbs import find_gapbs, gapbs_binary, run_gapbs, write_gapbs_graph

    binary = gapbs_binary(find_gapbs(gapbs), "tc")
    with TemporaryDirectory() as tmp:
        path, sym = write_gapbs_graph(G, tmp, "g")
        res = run_gapbs(binary, path, symmetrize=sym, trials=repeat)
    t = res["trial_times"]
    return {"median_s": float(np.median(t)), "min_s": min(t), "max_s": max(t), "repeat": len(t)}


def tc_breakdown(G: wg.Graph, repeat: int, groups: list[int]) -> list[dict]:
    """Where GPU triangle counting spends its time: orientation by the global key sort (the
    session-1 path) and by the linear passes, interleaved, then the counting kernel alone on
    the oriented graph for each group size. Checks that both orientations are identical."""
    from warpgraph.algorithms.triangles import gpu as tgpu

    def e2e_sorted():
        return tgpu.run_arcs(tgpu.orient_sorted(G), tgpu.COUNT)

    cases = {
        "e2e sorted orientation": e2e_sorted,
        "e2e linear orientation": lambda: triangle_count(G, device="gpu"),
        "orientation: sorted": lambda: tgpu.orient_sorted(G),
        "orientation: linear": lambda: tgpu.orient_fast(G),
    }
    o_new, o_old = tgpu.orient_fast(G), tgpu.orient_sorted(G)
    same = o_new is not None and all(
        bool((getattr(o_new, f) == getattr(o_old, f)).all())
        for f in ("indptr", "indices", "src", "rank")
    )
    for g in groups:
        cases[f"kernel only, group={g}"] = lambda g=g: tgpu.run_arcs(o_new, tgpu.COUNT, group=g)
    for fn in cases.values():  # warm-up (compilation)
        fn()
    times: dict[str, list[float]] = {k: [] for k in cases}
    for _ in range(repeat):  # interleaved
        for name, fn in cases.items():
            t0 = time.perf_counter()
            fn()
            sync("gpu")
            times[name].append(time.perf_counter() - t0)
    out = []
    for name, t in times.items():
        out.append(
            {
                "case": name,
                "median_s": float(np.median(t)),
                "min_s": min(t),
                "max_s": max(t),
                "repeat": repeat,
            }
        )
    counts = {"sorted": e2e_sorted(), "linear": int(triangle_count(G, device="gpu"))}
    return [{"breakdown": out, "counts": counts, "identical_orientation": same}]


def nx_compare(G: wg.Graph, ks: list[int], repeat: int, spec: str) -> list[dict]:
    """k-core and k-truss on the CPU beside NetworkX, interleaved: warpgraph (min of
    ``repeat`` after a warm-up), NetworkX once, warpgraph again; the load average is recorded
    around each case, and both answers are compared (edge counts, core numbers)."""
    import os

    import networkx as nx

    from warpgraph.algorithms.kcore import k_core
    from warpgraph.algorithms.ktruss import k_truss

    H = _nx(G)
    G = G.remove_self_loops()
    cases = [
        (
            "core_number",
            lambda: core_number(G, device="cpu"),
            lambda: nx.core_number(H),
            lambda r: [int(r.max(initial=0)), int(r.sum())],
            lambda r: [max(r.values(), default=0), sum(r.values())],
        ),
        (
            "k_core (main core)",
            lambda: k_core(G, device="cpu"),
            lambda: nx.k_core(H),
            lambda r: r.num_edges,
            lambda r: r.number_of_edges(),
        ),
    ]
    for k in ks:
        cases.append(
            (
                f"k_truss k={k}",
                lambda k=k: k_truss(G, k, device="cpu"),
                lambda k=k: nx.k_truss(H, k),
                lambda r: r.num_edges,
                lambda r: r.number_of_edges(),
            )
        )
    out = []
    for name, ours_fn, peer_fn, dig, peer_dig in cases:
        ours_fn()
        t_ours = []
        load = [os.getloadavg()[0]]
        for _ in range(repeat):
            t0 = time.perf_counter()
            r = ours_fn()
            t_ours.append(time.perf_counter() - t0)
        t0 = time.perf_counter()
        pr = peer_fn()
        t_peer = time.perf_counter() - t0
        load.append(os.getloadavg()[0])
        for _ in range(repeat):
            t0 = time.perf_counter()
            r = ours_fn()
            t_ours.append(time.perf_counter() - t0)
        load.append(os.getloadavg()[0])
        rec = {
            "graph": spec,
            "n": G.num_vertices,
            "edges": G.num_edges,
            "algorithm": name,
            "impl": "warpgraph-cpu vs networkx",
            "device": "cpu",
            "warpgraph_min_s": min(t_ours),
            "warpgraph_median_s": float(np.median(t_ours)),
            "warpgraph_times_s": t_ours,
            "networkx_s": t_peer,
            "speedup_min": t_peer / min(t_ours),
            "speedup_median": t_peer / float(np.median(t_ours)),
            "loadavg_1min": load,
            "result": dig(r),
            "agrees": dig(r) == peer_dig(pr),
        }
        print(
            f"  {name:<20} warpgraph {min(t_ours):.3f} s (median {np.median(t_ours):.3f})"
            f"  networkx {t_peer:.1f} s  {rec['speedup_min']:.0f}x / {rec['speedup_median']:.0f}x"
            f"  agrees={rec['agrees']}  load {load}",
            flush=True,
        )
        out.append(rec)
    return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--graphs", nargs="+", default=["kronecker:16", "urand:16"])
    ap.add_argument("--algorithms", nargs="+", default=list(ALGORITHMS), choices=ALGORITHMS)
    ap.add_argument("--device", nargs="+", default=["cpu"], choices=["cpu", "gpu"])
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--no-peers", action="store_true")
    ap.add_argument("--no-peers-for", nargs="*", default=[], choices=ALGORITHMS)
    ap.add_argument("--gapbs", help="GAPBS directory (runs its tc beside ours)")
    ap.add_argument(
        "--datasets", default=str(Path(__file__).resolve().parents[2] / "shared" / "datasets")
    )
    ap.add_argument("--out", help="JSON path (default benchmarks/results/triangles.json)")
    ap.add_argument("--cpu-skip", nargs="*", default=[], choices=ALGORITHMS, help="not on the CPU")
    ap.add_argument(
        "--tc-groups",
        nargs="*",
        type=int,
        default=[],
        help="also time GPU triangle counting with these lanes-per-arc group sizes",
    )
    ap.add_argument("--gen-device", default="cpu", choices=["cpu", "gpu"])
    ap.add_argument(
        "--tc-breakdown", action="store_true", help="time GPU orientation and kernel apart"
    )
    ap.add_argument(
        "--nx-compare",
        nargs="*",
        type=int,
        metavar="K",
        help="only k-core, core numbers and k-truss for these k on the CPU beside NetworkX "
        "(any graph size), interleaved",
    )
    args = ap.parse_args(argv)
    if args.nx_compare is not None:
        records = []
        for spec in args.graphs:
            _, U = load(spec, Path(args.datasets), "cpu")
            print(f"{spec}: n={U.num_vertices:,} undirected edges={U.num_edges:,}", flush=True)
            records += nx_compare(U, args.nx_compare, args.repeat, spec)
        print(f"wrote {write_json('triangles', {'records': records}, args.out)}")
        return 0

    rows, records = [], []
    for spec in args.graphs:
        D, U = load(spec, Path(args.datasets), args.gen_device)
        info = {"graph": spec, "n": U.num_vertices, "edges": U.num_edges, "arcs": D.num_arcs}
        print(
            f"{spec}: n={U.num_vertices:,} undirected edges={U.num_edges:,} arcs={D.num_arcs:,}",
            flush=True,
        )
        on = {dev: (U.to(dev), D.to(dev)) for dev in args.device}
        for alg in args.algorithms:
            answers = {}
            for dev in args.device:
                if dev == "cpu" and alg in args.cpu_skip:
                    continue
                G, Dd = on[dev]
                rec = {**info, "algorithm": alg, "impl": f"warpgraph-{dev}", "device": dev}
                try:
                    fn = ours(alg, G, Dd, dev)
                    answers[dev] = summary(alg, fn())
                    rec.update(measure(fn, dev, repeat=args.repeat), result=answers[dev])
                except Exception as exc:  # record and go on with the other cases
                    rec["error"] = f"{type(exc).__name__}: {exc}"
                    traceback.print_exc()
                records.append(rec)
            if len(set(map(repr, answers.values()))) > 1:
                print(f"  MISMATCH {alg}: {answers}", file=sys.stderr)
                for r in records[-len(args.device) :]:
                    r["mismatch"] = True
            if not args.no_peers and alg != "census-dyads" and alg not in args.no_peers_for:
                for name, fn, digest in peers(alg, U, D, U.num_edges <= NX_MAX_EDGES):
                    rec = {**info, "algorithm": alg, "impl": name, "device": "cpu"}
                    try:
                        t0 = time.perf_counter()
                        r = fn()
                        rec["first_s"] = time.perf_counter() - t0
                        rec.update(
                            measure(
                                fn, "cpu", repeat=1 if "networkx" in name else args.repeat, warmup=0
                            )
                        )
                        if digest is not None:
                            rec["result"] = digest(r)
                            mine = next(iter(answers.values()), None)
                            rec["agrees"] = mine == rec["result"] if mine is not None else None
                    except Exception as exc:
                        rec["error"] = f"{type(exc).__name__}: {exc}"
                    records.append(rec)
            if alg == "tc" and "gpu" in on:
                from warpgraph.algorithms.triangles import gpu as tgpu

                for g in args.tc_groups:
                    rec = {**info, "algorithm": alg, "impl": f"warpgraph-gpu group={g}"}
                    try:
                        G = on["gpu"][0]
                        fn = lambda G=G, g=g: tgpu.triangle_count(G, group=g)  # noqa: E731
                        rec.update(
                            measure(fn, "gpu", repeat=args.repeat), result=fn(), device="gpu"
                        )
                    except Exception as exc:
                        rec["error"] = f"{type(exc).__name__}: {exc}"
                    records.append(rec)
            if alg == "tc" and "gpu" in on and args.tc_breakdown:
                rec = {**info, "algorithm": alg, "impl": "warpgraph-gpu breakdown", "device": "gpu"}
                try:
                    rec.update(tc_breakdown(on["gpu"][0], max(args.repeat, 5), args.tc_groups)[0])
                    for b in rec["breakdown"]:
                        print(f"    {b['case']:<32} {1e3 * b['median_s']:8.2f} ms", flush=True)
                    print(f"    counts {rec['counts']} identical {rec['identical_orientation']}")
                except Exception as exc:
                    rec["error"] = f"{type(exc).__name__}: {exc}"
                    traceback.print_exc()
                records.append(rec)
            if alg == "tc" and args.gapbs:
                rec = {**info, "algorithm": alg, "impl": "gapbs tc", "device": "cpu"}
                try:
                    rec.update(gapbs_tc(U, args.gapbs, args.repeat))
                except Exception as exc:
                    rec["error"] = f"{type(exc).__name__}: {exc}"
                records.append(rec)
        for r in records:
            if r["graph"] == spec and "row" not in r:
                r["row"] = True
                rows.append(r)
                t = r.get("median_s")
                if t is None and "error" not in r:
                    continue  # the breakdown, printed above
                print(
                    f"  {r['algorithm']:<13} {r['impl']:<40} "
                    f"{'error: ' + r['error'][:60] if 'error' in r else f'{t:.4f} s'}",
                    flush=True,
                )
    for r in records:
        r.pop("row", None)
    path = write_json("triangles", {"records": records}, args.out)
    print(f"wrote {path}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
