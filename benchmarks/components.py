"""Connected components speed: every warpgraph method against SciPy, igraph, NetworkX, NetworKit
and GAPBS ``cc``.

Method: each graph is generated (or loaded) once; SciPy's labels are the reference, and every
method's labels must equal them (the canonical numbering makes arrays comparable; strong labels
are compared after renumbering SciPy's) before its time is accepted. One warm-up run, then
``--repeat`` runs; median/min/max reported. GPU: CUDA events around the call (the host work
between launches included), CPU: wall clock. Two times per warpgraph method: ``labels`` (the
method alone: smallest-vertex labels, what GAPBS ``cc`` computes) and ``total``
(``connected_components``: plus the renumbering to 0..count-1). Peers run in the same process on
the same graph; GAPBS ``cc`` (Afforest) on the same CSR written as a ``.sg`` file, its own
``Trial Time`` lines, when ``--gapbs PATH`` is given. Edges: an undirected edge once; ``arcs``
is the stored (directed) count.

Graphs: ``kron:S`` directed Graph500 Kronecker of 2**S vertices, edge factor 16, *not*
symmetrized; ``ukron:S`` its undirected version; ``uniform:S`` directed uniform random (edge
factor 16); ``uniform4:S`` the same with out-degree 4; ``grid:R`` R x R undirected 4-neighbour
grid; ``dgrid:R`` the grid directed, every edge one arc of random orientation; ``sgrid:R`` the
grid directed with both arcs of every edge (a symmetric digraph); ``road:N`` road-like; or a
file path (``datasets`` for every file of ``--datasets``).

Strong components on the CPU with ``--rounds R``: interleaved instead (SciPy, igraph and every
warpgraph variant run once each per round, R rounds, min and median kept), with the reverse CSR
built inside every warpgraph call (``Graph.reverse_csr`` reset first) unless the variant says
"reverse cached"; SciPy gets a float64 CSR without repeated entries (no conversion inside).

Usage
-----
python benchmarks/components.py --graphs kron:20,kron:22,grid:4096 --device gpu
python benchmarks/components.py --graphs kron:20 --device cpu --gapbs /tmp/gapbs/cc
python benchmarks/components.py --graphs kron:18,grid:1000 --connection weak,strong
python benchmarks/components.py --graphs kron:18,kron:20,uniform4:20,sgrid:1024,dgrid:1024 \
    --device cpu --connection strong --rounds 7
"""

from __future__ import annotations

import argparse
import itertools
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import numpy as np
from _common import write_json

ROOT = Path(__file__).resolve().parent.parent
DATASETS = ROOT.parent / "shared" / "datasets"


# ---------------------------------------------------------------------------- graphs
def make_graph(spec: str, device: str):
    import warpgraph as wg
    from warpgraph import generators as gen

    kind, _, arg = spec.partition(":")
    if kind == "kron":
        return f"kron-{arg}-directed", gen.kronecker(int(arg), 16, seed=1, directed=True,
                                                     device=device)  # fmt: skip
    if kind == "ukron":
        return f"kron-{arg}", gen.kronecker(int(arg), 16, seed=1, device=device)
    if kind == "uniform":
        n = 2 ** int(arg)
        return f"uniform-{arg}-directed", gen.uniform(n, 16 * n, seed=1, directed=True,
                                                      device=device)  # fmt: skip
    if kind == "uniform4":  # the SCC table's sparse random graph: out-degree 4
        n = 2 ** int(arg)
        return f"uniform-{arg}-deg4-directed", gen.uniform(n, 4 * n, seed=1, directed=True,
                                                           device=device)  # fmt: skip
    if kind == "grid":
        r = int(arg)
        return f"grid-{r}x{r}", gen.grid_2d(r, r, device=device)
    if kind in ("dgrid", "sgrid"):  # directed grids: random orientation, or both arcs
        r = int(arg)
        src, dst = gen.grid_2d_edges(r, r, device="cpu")
        if kind == "sgrid":
            src, dst = np.r_[src, dst], np.r_[dst, src]
        else:
            flip = np.random.default_rng(1).random(src.size) < 0.5
            src, dst = np.where(flip, dst, src), np.where(flip, src, dst)
        G = wg.Graph.from_edges(src, dst, num_vertices=r * r, directed=True)
        label = "oriented" if kind == "dgrid" else "both-arcs"
        return f"grid-{r}x{r}-directed-{label}", G.to(device)
    if kind == "road":
        return f"road-{arg}", gen.road_like(int(arg), seed=1, weights=None, device=device)
    path = Path(spec)
    return path.name.split(".")[0], wg.load(str(path)).to(device)


def graph_specs(text: str, datasets: Path) -> list[str]:
    out = []
    for item in text.split(","):
        if item == "datasets":
            out += [str(p) for p in sorted(datasets.glob("*")) if p.is_file() and p.suffix != ".md"]
        elif item:
            out.append(item)
    return out


def stats(times_ms: list[float]) -> dict[str, Any]:
    return {
        "median_ms": statistics.median(times_ms),
        "min_ms": min(times_ms),
        "max_ms": max(times_ms),
        "runs": len(times_ms),
    }


def time_fn(fn, device: str, repeat: int) -> tuple[dict[str, Any], Any]:
    """Warm-up, then ``repeat`` timed runs; returns the statistics and the last result."""
    out = fn()
    if device == "gpu":
        import cupy as cp

        cp.cuda.Device().synchronize()
        start, end = cp.cuda.Event(), cp.cuda.Event()
        times = []
        for _ in range(repeat):
            start.record()
            out = fn()
            end.record()
            end.synchronize()
            times.append(cp.cuda.get_elapsed_time(start, end))
        return stats(times), out
    times = []
    for _ in range(repeat):
        t0 = time.perf_counter()
        out = fn()
        times.append((time.perf_counter() - t0) * 1e3)
    return stats(times), out


# ---------------------------------------------------------------------------- warpgraph
def warpgraph_runs(G, device: str, connection: str, methods: list[str], repeat: int):
    """``(name, config, labels-only fn or None, total fn)`` for every method to time."""
    from warpgraph.algorithms.components import api

    runs = []
    if connection == "weak":
        for m in methods:
            configs = [("", None)]
            if m == "afforest" and G.directed:
                configs = [("", {"reverse": False}), ("+reverse", {"reverse": True})]
            for suffix, cfg in configs:
                opts = api._weak_options(cfg)

                def labels(m=m, opts=opts):
                    return api.weak_min_labels(G, m, device, opts)

                def total(m=m, cfg=cfg):
                    return api.connected_components(G, method=m, device=device, config=cfg)

                runs.append((m + suffix, cfg, labels, total))
        return runs
    for m in methods:

        def total(m=m):
            return api.connected_components(G, connection="strong", method=m, device=device)

        runs.append((m, None, None, total))
    return runs


def bench_warpgraph(G, device, connection, methods, repeat, want) -> dict[str, Any]:
    from warpgraph._arrays import to_host

    out = {}
    for name, cfg, labels_fn, total_fn in warpgraph_runs(G, device, connection, methods, repeat):
        try:
            if G.directed and cfg and cfg.get("reverse") is True:
                G.reverse_csr()  # built once, outside the timing (GAPBS builds it at load)
            rec: dict[str, Any] = {"config": cfg}
            rec["total"], (count, labels) = time_fn(total_fn, device, repeat)
            ok = want is None or (count == want[0] and np.array_equal(to_host(labels), want[1]))
            rec["verified"] = want is not None and ok
            if not ok:
                rec = {"error": "labels differ from SciPy's", "config": cfg}
            elif labels_fn is not None:
                rec["labels"], _ = time_fn(labels_fn, device, repeat)
            rec["components"] = int(count)
        except Exception as exc:  # report and go on with the next method
            rec = {"error": repr(exc)[:400], "config": cfg}
        out[name] = rec
        shown = rec.get("total", {}).get("median_ms", rec.get("error"))
        print(f"   {device} {connection:6s} {name:22s} {shown}", flush=True)
    return out


def gpu_phases(G, repeat: int = 5) -> dict[str, dict[str, float]]:
    """Median ms of every step of the GPU weak methods (CUDA events between the steps)."""
    import cupy as cp

    from warpgraph.algorithms.components import gpu

    n, ip, ix = G.num_vertices, G.indptr, G.indices
    sym = not G.directed
    rip, rix = (None, None) if sym else G.reverse_csr()[:2]

    def union_find(mark):
        label = cp.empty(n, dtype=ix.dtype)
        gpu.launch(gpu._kernel("wcc_init", ix.dtype), n, (ip, ix, n, label, 1))
        mark("init")
        gpu.visit_arcs(ip, ix, n, label, lower_only=sym)
        mark("visit")
        gpu.compress(label)
        mark("compress")
        gpu.canonical_labels(label)
        mark("renumber")

    def afforest(mark):
        label = cp.arange(n, dtype=ix.dtype)
        mark("arange")
        for r in range(2):
            gpu.launch(gpu._kernel("wcc_link_nth", ix.dtype), n, (ip, ix, n, label, r))
            mark(f"link{r}")
            gpu.compress(label)
            mark(f"compress{r}")
        skip = gpu.most_frequent_label(label, 1024)
        mark("sample")
        gpu.visit_arcs(ip, ix, n, label, start=2, skip=skip)
        mark("visit")
        if rip is not None:
            gpu.visit_arcs(rip, rix, n, label, skip=skip)
            mark("visit_reverse")
        gpu.compress(label)
        mark("compress")

    out = {}
    for name, body in (("union_find", union_find), ("afforest+reverse", afforest)):
        runs: dict[str, list[float]] = {}
        for _ in range(repeat + 1):
            events = [("start", cp.cuda.Event())]
            events[0][1].record()

            def mark(label, events=events):
                e = cp.cuda.Event()
                e.record()
                events.append((label, e))

            body(mark)
            events[-1][1].synchronize()
            for (_, a), (label, b) in itertools.pairwise(events):
                runs.setdefault(label, []).append(cp.cuda.get_elapsed_time(a, b))
        out[name] = {k: statistics.median(v[1:]) for k, v in runs.items()}  # drop the warm-up
    return out


def strong_cpu_interleaved(G, rounds: int, want, methods: list[str]) -> dict[str, Any]:
    """Strong components on the CPU, every contender once per round (see the module doc)."""
    import scipy.sparse as sp
    from scipy.sparse import csgraph

    from warpgraph.algorithms.components import connected_components

    n = G.num_vertices
    A = sp.csr_matrix((np.ones(G.num_arcs), G.indices.copy(), G.indptr.copy()), shape=(n, n))
    A.sum_duplicates()  # SciPy's strong components go wrong on repeated entries
    contenders: dict[str, Any] = {
        "scipy": lambda: csgraph.connected_components(A, directed=True, connection="strong")
    }
    try:
        import igraph

        src, dst, _ = G.edges()
        g = igraph.Graph(n=n, directed=True)
        g.add_edges(np.column_stack([src, dst]))
        contenders["igraph"] = lambda: g.connected_components(mode="strong")
    except ImportError:
        pass

    def fresh(method):
        def run():
            G._reverse = None  # the reverse CSR is built inside the call
            return connected_components(G, connection="strong", method=method, device="cpu")

        return run

    def cached(method):
        return lambda: connected_components(G, connection="strong", method=method, device="cpu")

    def transpose():
        G._reverse = None
        return G.reverse_csr()

    for m in methods:
        contenders[f"warpgraph {m}"] = fresh(m)
    contenders["warpgraph auto, reverse cached"] = cached("auto")
    contenders["warpgraph reverse_csr alone"] = transpose

    checks = {}
    for who, fn in contenders.items():  # warm-up (compilation) and verification
        out = fn()
        if who == "igraph":
            checks[who] = len(out) == want[0]
        elif who.startswith("warpgraph") and "alone" not in who:
            checks[who] = out[0] == want[0] and np.array_equal(out[1], want[1])
    times: dict[str, list[float]] = {k: [] for k in contenders}
    loads = [os.getloadavg()[0]]
    for _ in range(rounds):
        for who, fn in contenders.items():
            t0 = time.perf_counter()
            fn()
            times[who].append((time.perf_counter() - t0) * 1e3)
        loads.append(os.getloadavg()[0])
    out: dict[str, Any] = {"load_avg_1min": loads}
    for who, ts in times.items():
        rec = {**stats(ts), "raw_ms": ts}
        if who in checks:
            rec["verified"] = bool(checks[who])
        out[who] = rec
        print(f"   cpu strong {who:34s} min {min(ts):9.2f}  median {statistics.median(ts):9.2f}"
              f"  {'' if checks.get(who, True) else 'WRONG'}", flush=True)  # fmt: skip
    return out


# ---------------------------------------------------------------------------- peers
def scipy_reference(G, connection: str, repeat: int):
    from scipy.sparse import csgraph

    from warpgraph.algorithms.components.reference import canonical_numbering

    A = G.to_scipy(dtype=np.int8)

    def run():
        return csgraph.connected_components(A, directed=G.directed, connection=connection)

    rec, (_, labels) = time_fn(run, "cpu", repeat)
    return rec, canonical_numbering(labels)


def time_igraph(G, connection: str, repeat: int, want) -> dict[str, Any] | None:
    try:
        import igraph
    except ImportError:
        return None
    src, dst, _ = G.edges()
    g = igraph.Graph(n=G.num_vertices, directed=G.directed)
    g.add_edges(np.column_stack([src, dst]))
    mode = "weak" if connection == "weak" else "strong"
    rec, cl = time_fn(lambda: g.connected_components(mode=mode), "cpu", repeat)
    rec["verified"] = len(cl) == want[0]
    return rec


def time_networkit(G, connection: str, repeat: int, want) -> dict[str, Any] | None:
    try:
        import networkit as nk
    except ImportError:
        return None
    src, dst, _ = G.edges()
    g = nk.Graph(G.num_vertices, directed=G.directed)
    # uint64 ids: NetworKit 11 reads int32 arrays as garbage (a crash, measured)
    g.addEdges((np.asarray(src, dtype=np.uint64), np.asarray(dst, dtype=np.uint64)))
    if connection == "weak":
        algo = nk.components.WeaklyConnectedComponents if G.directed else None
        algo = algo or nk.components.ConnectedComponents
    else:
        algo = nk.components.StronglyConnectedComponents
        if not G.directed:
            algo = nk.components.ConnectedComponents

    def run():
        a = algo(g)
        a.run()
        return a.numberOfComponents()

    rec, count = time_fn(run, "cpu", repeat)
    rec["verified"] = count == want[0]
    return rec


def time_networkx(G, connection: str, repeat: int, want, max_n: int) -> dict[str, Any] | None:
    if G.num_vertices > max_n:
        return None
    import networkx as nx

    H = G.to_networkx()
    if not G.directed:
        fn = nx.connected_components
    else:
        fn = nx.weakly_connected_components if connection == "weak" else (
            nx.strongly_connected_components)  # fmt: skip
    rec, count = time_fn(lambda: sum(1 for _ in fn(H)), "cpu", min(repeat, 3))
    rec["verified"] = count == want[0]
    return rec


def write_gapbs_sg(G, path: Path) -> None:
    """GAPBS's serialized graph (.sg): directed flag, arc count, vertex count, int64 offsets,
    int32 neighbours, then the in-arcs of a directed graph (GAPBS reader.h)."""
    from warpgraph._arrays import to_host

    with open(path, "wb") as f:
        f.write(np.bool_(G.directed).tobytes())
        f.write(np.int64(G.num_arcs).tobytes())
        f.write(np.int64(G.num_vertices).tobytes())
        parts = [(G.indptr, G.indices)]
        if G.directed:
            rindptr, rindices, _ = G.reverse_csr()
            parts.append((rindptr, rindices))
        for indptr, indices in parts:
            to_host(indptr).astype(np.int64).tofile(f)
            to_host(indices).astype(np.int32).tofile(f)


def time_gapbs(G, binary: str, repeat: int, threads: int) -> dict[str, Any]:
    """GAPBS ``cc`` (Afforest) on the same CSR, ``repeat`` trials in one process."""
    from warpgraph.bench.gapbs import parse_gapbs_output

    exe = Path(binary)
    if exe.is_dir():
        exe = exe / "cc"
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "graph.sg"
        write_gapbs_sg(G, path)
        cmd = [str(exe), "-f", str(path), "-n", str(repeat)]
        env = dict(os.environ, OMP_NUM_THREADS=str(threads))
        proc = subprocess.run(cmd, capture_output=True, text=True, env=env, check=False)
    try:
        trials = [t * 1e3 for t in parse_gapbs_output(proc.stdout)["trial_times"]]
    except Exception:
        return {"error": proc.stdout[-400:] + proc.stderr[-400:]}
    return {**stats(trials), "threads": threads, "command": " ".join(cmd[:1] + cmd[2:])}


# ---------------------------------------------------------------------------- main
def methods_for(device: str, connection: str, wanted: str | None) -> list[str]:
    from warpgraph.algorithms.components.api import WEAK_METHODS

    if connection == "weak":
        known = list(WEAK_METHODS[device])
    else:
        from warpgraph.algorithms.components.scc_config import GPU_SCC_METHODS, SCC_METHODS

        known = list(GPU_SCC_METHODS if device == "gpu" else SCC_METHODS)
    if wanted:
        return [m for m in wanted.split(",") if m in known or m == "auto"]
    return known


def bench_graph(spec: str, args) -> dict[str, Any]:
    devices = args.device.split(",")
    t0 = time.perf_counter()
    name, G = make_graph(spec, "gpu" if "gpu" in devices else "cpu")
    row: dict[str, Any] = {
        "load_avg_1min": os.getloadavg()[0],  # other processes on the machine skew CPU times
        "graph": name,
        "n": G.num_vertices,
        "edges": G.num_edges,
        "arcs": G.num_arcs,
        "directed": G.directed,
        "build_s": time.perf_counter() - t0,
    }
    print(f"== {name}: n={G.num_vertices:,} arcs={G.num_arcs:,} ({row['build_s']:.1f} s)",
          flush=True)  # fmt: skip
    Gc = G.to("cpu")
    for connection in args.connection.split(","):
        if connection == "strong" and not G.directed:
            continue
        res: dict[str, Any] = {}
        rec, want = scipy_reference(Gc, connection, args.peer_repeat)
        res["scipy"] = rec
        res["count"] = want[0]
        print(f"   scipy  {connection:6s} {rec['median_ms']:.3f} ms, {want[0]:,} components",
              flush=True)  # fmt: skip
        if connection == "strong" and args.rounds and devices == ["cpu"]:
            methods = args.methods.split(",") if args.methods else ["auto"]
            res["interleaved"] = strong_cpu_interleaved(Gc, args.rounds, want, methods)
            row[connection] = res
            continue
        for dev in devices:
            Gd = G.to(dev)
            if dev == "cpu":
                Gd = Gc
            methods = methods_for(dev, connection, args.methods)
            res[dev] = bench_warpgraph(Gd, dev, connection, methods, args.repeat, want)
            if dev == "gpu" and connection == "weak" and args.phases:
                res["gpu_phases"] = gpu_phases(Gd)
                print(f"   gpu phases {res['gpu_phases']}", flush=True)
        peers = args.peers.split(",") if args.peers else []
        for peer in peers:
            if peer == "igraph":
                r = time_igraph(Gc, connection, args.peer_repeat, want)
            elif peer == "networkit":
                r = time_networkit(Gc, connection, args.peer_repeat, want)
            elif peer == "networkx":
                r = time_networkx(Gc, connection, args.peer_repeat, want, args.networkx_max_n)
            else:
                continue
            if r is not None:
                res[peer] = r
                print(f"   {peer:6s} {connection:6s} {r['median_ms']:.3f} ms", flush=True)
        if args.gapbs and connection == "weak":
            res["gapbs_cc"] = time_gapbs(Gc, args.gapbs, args.repeat,
                                         args.cpu_threads or os.cpu_count())  # fmt: skip
            print(f"   gapbs cc      {res['gapbs_cc'].get('median_ms')}", flush=True)
        row[connection] = res
    return row


def print_table(rows: list[dict[str, Any]]) -> None:
    print(f"{'graph':26s} {'conn':6s} {'who':28s} {'median ms':>10s} {'labels ms':>10s}")
    for r in rows:
        for connection in ("weak", "strong"):
            res = r.get(connection)
            if not res:
                continue
            for who, rec in res.items():
                if who in ("gpu", "cpu"):
                    for m, mr in rec.items():
                        t = mr.get("total", {}).get("median_ms")
                        lt = mr.get("labels", {}).get("median_ms")
                        cells = f"{t:10.3f}" if t is not None else f"{'error':>10s}"
                        cells += f" {lt:10.3f}" if lt is not None else f" {'-':>10s}"
                        print(f"{r['graph']:26s} {connection:6s} {who + ' ' + m:28s} {cells}")
                elif isinstance(rec, dict) and "median_ms" in rec:
                    print(f"{r['graph']:26s} {connection:6s} {who:28s} {rec['median_ms']:10.3f}")
    print("(median ms; 'labels' = the method alone, without renumbering; details in the JSON)")


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    ap.add_argument("--graphs", default="kron:18,kron:20,grid:1000")
    ap.add_argument("--device", default="gpu", help="gpu, cpu or gpu,cpu")
    ap.add_argument("--connection", default="weak", help="weak, strong or weak,strong")
    ap.add_argument("--methods", help="comma-separated methods (default: every one)")
    ap.add_argument("--repeat", type=int, default=10)
    ap.add_argument("--peer-repeat", type=int, default=3)
    ap.add_argument("--rounds", type=int, default=0, help="strong, CPU: interleaved rounds")
    ap.add_argument("--peers", default="igraph,networkit,networkx")
    ap.add_argument("--networkx-max-n", type=int, default=100_000)
    ap.add_argument("--gapbs", help="GAPBS's cc binary (or its directory)")
    ap.add_argument("--cpu-threads", type=int, help="Numba threads (and GAPBS OMP threads)")
    ap.add_argument("--phases", action="store_true", help="GPU: time every step of the methods")
    ap.add_argument("--datasets", default=str(DATASETS))
    ap.add_argument("--out", help="JSON output (default benchmarks/results/components.json)")
    args = ap.parse_args(argv)
    if args.cpu_threads:
        import numba

        numba.set_num_threads(args.cpu_threads)
    rows = []
    for spec in graph_specs(args.graphs, Path(args.datasets)):
        try:
            rows.append(bench_graph(spec, args))
        except Exception as exc:  # e.g. out of device memory at the largest scales
            print(f"!! {spec}: {exc!r}", file=sys.stderr, flush=True)
            rows.append({"graph": spec, "error": repr(exc)[:500]})
        write_json("components", {"args": vars(args), "results": rows}, args.out)
    path = write_json("components", {"args": vars(args), "results": rows}, args.out)
    print_table([r for r in rows if "error" not in r])
    print(f"wrote {path}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
