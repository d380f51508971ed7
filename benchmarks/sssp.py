"""SSSP speed: warpgraph's methods on the GPU and the CPU against SciPy, igraph, NetworkX and GAPBS.

Method (GAP): graphs generated or loaded once; 64 random non-isolated sources (seeded); one
warm-up search per method; each search timed alone through the public ``sssp`` call (CUDA
events around it on the GPU, wall clock on the CPU); median/min/max reported. TEPS count the
edges of the reached part (an undirected edge once). Before any time is accepted, the results
of the first ``--verify`` sources of every method pass :func:`verify_sssp` (triangle
inequality on every arc, tight shortest-path tree), and every method must give the distances of
the first one on those sources. Peers run in the same process on the same graph: SciPy
``csgraph.dijkstra``, igraph ``Graph.distances`` and NetworkX (small graphs) from the first
``--peer-sources`` sources; GAPBS ``sssp`` on the same graph (written as a ``.wsg`` file, its
serialized weighted format) when ``--gapbs PATH`` is given, with its own ``-d`` values (the
best one is reported) and as many OpenMP threads as Numba uses.

Graph specs: ``kron:S[:W]`` (Graph500 Kronecker, 2**S vertices, edge factor 16),
``uniform:S[:W]`` (G(n, m), edge factor 16), ``grid:R[:W]`` (R x R 2-D grid), ``road:N[:W]``
(road-like planar graph, N vertices, default weights its integer lengths) or a file path. ``W``
is ``gap`` (integers in [1, 255], the default) or ``graph500`` (floats in [0, 1)).

Usage
-----
python benchmarks/sssp.py --graphs kron:20,kron:20:graph500,road:1000000 --device cpu \\
    --cpu-threads 2 --gapbs /tmp/gapbs/sssp --out benchmarks/results/sssp_cpu.json
python benchmarks/sssp.py --graphs kron:22,kron:22:graph500,uniform:22,road:4000000 \\
    --device gpu,cpu --filtering both
python benchmarks/sssp.py --graphs kron:20 --device cpu --delta-sweep 1,2,4,8,16
python benchmarks/sssp.py --compare-gpu --graphs kron:20,kron:22 --sources 16

``--compare-gpu`` times the GPU engine's configurations side by side in one process (the layout
and features of ``algorithms/sssp/gpu.py``, the state before 2026-11-21's session 3 included):
single-source calls of the backend ``sssp_gpu`` (CUDA events around each call, and wall time),
one batch call with every source, the public ``sssp`` call, and the first source's operation
counts. Every configuration's distances from the first ``--verify`` sources must equal the old
configuration's, and on graphs up to ``--peer-max-n`` vertices the first source's must equal
SciPy's dijkstra.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import numpy as np
from _common import write_json

ROOT = Path(__file__).resolve().parent.parent


# ---------------------------------------------------------------------------- graphs
def make_graph(spec: str, device: str):
    import warpgraph as wg
    from warpgraph import generators as gen

    parts = spec.split(":")
    kind = parts[0]
    if kind in ("kron", "uniform", "grid", "road") and len(parts) >= 2:
        arg = int(parts[1])
        w = parts[2] if len(parts) > 2 else ("distance" if kind == "road" else "gap")
        if kind == "kron":
            G = gen.kronecker(arg, 16, seed=1, weights=w, device=device)
            return f"kron-{arg}-{w}", G
        if kind == "uniform":
            n = 2**arg
            return f"uniform-{arg}-{w}", gen.uniform(n, 16 * n, seed=1, weights=w, device=device)
        if kind == "grid":
            return f"grid-{arg}x{arg}-{w}", gen.grid_2d(arg, arg, seed=1, weights=w, device=device)
        return f"road-{arg}-{w}", gen.road_like(arg, seed=1, weights=w, device=device)
    path = Path(spec)
    return path.name.split(".")[0], wg.load(str(path)).to(device)


def pick_sources(G, count: int, seed: int = 1) -> np.ndarray:
    from warpgraph._arrays import to_host

    deg = to_host(G.out_degree())
    candidates = np.flatnonzero(deg > 0)
    rng = np.random.default_rng(seed)
    return rng.choice(candidates, size=count, replace=len(candidates) < count)


def reached_edges(G, dist, deg_host: np.ndarray) -> int:
    from warpgraph._arrays import to_host

    d = to_host(dist)
    reached = np.isfinite(d) if d.dtype.kind == "f" else d != np.iinfo(np.int64).max
    arcs = int(deg_host[reached].sum())
    return arcs if G.directed else arcs // 2


def summarize(times_ms: list[float], edges: list[int]) -> dict[str, Any]:
    teps = [e / (t * 1e6) for e, t in zip(edges, times_ms, strict=True) if t > 0]
    return {
        "median_ms": statistics.median(times_ms),
        "min_ms": min(times_ms),
        "max_ms": max(times_ms),
        "runs": len(times_ms),
        "gteps_median": statistics.median(teps) if teps else None,
        "edges_median": statistics.median(edges),
    }


# ---------------------------------------------------------------------------- warpgraph
def run_once(G, s: int, method: str, device: str, delta, filtering: bool):
    from warpgraph.algorithms.sssp import sssp

    return sssp(G, int(s), method=method, device=device, delta=delta, filtering=filtering)


def check_results(G, sources, method, device, delta, filtering, reference: dict) -> int:
    """Verify the first sources' results and compare them with the first method's."""
    from warpgraph._arrays import to_host
    from warpgraph.algorithms.sssp import verify_sssp

    for s in sources:
        dist = to_host(run_once(G, s, method, device, delta, filtering))
        verify_sssp(G.to("cpu"), int(s), dist)
        ref = reference.setdefault(int(s), dist)
        if ref.dtype.kind == "f":
            same = np.allclose(ref, dist, rtol=1e-5) and np.array_equal(
                np.isinf(ref), np.isinf(dist)
            )
        else:
            same = np.array_equal(ref, dist)
        if not same:
            raise AssertionError(f"{method} on {device}: distances from {s} differ")
    return len(sources)


def time_method(G, sources, deg_host, method, device, delta, filtering) -> dict[str, Any]:
    run_once(G, sources[0], method, device, delta, filtering)  # warm-up (JIT, kernels)
    times, edges = [], []
    if device == "gpu":
        import cupy as cp

        start, end = cp.cuda.Event(), cp.cuda.Event()
        cp.cuda.Device().synchronize()
    for s in sources:
        if device == "gpu":
            start.record()
            dist = run_once(G, s, method, device, delta, filtering)
            end.record()
            end.synchronize()
            times.append(cp.cuda.get_elapsed_time(start, end))
        else:
            t0 = time.perf_counter()
            dist = run_once(G, s, method, device, delta, filtering)
            times.append((time.perf_counter() - t0) * 1e3)
        edges.append(reached_edges(G, dist, deg_host))
    return {**summarize(times, edges), "times_ms": times, "edges": edges}


def cpu_work(G, s, method, delta, filtering) -> dict[str, Any]:
    """Steps (rounds) and arcs relaxed by one CPU search (work efficiency)."""
    from warpgraph.algorithms.sssp.api import _check_weights
    from warpgraph.algorithms.sssp.cpu import default_delta_from, sssp_cpu

    w = _check_weights(G, None, "cpu")
    stats: dict[str, Any] = {}
    d = delta
    if method != "hbf" and d is None:
        d = default_delta_from(w, G.indptr)
    sssp_cpu(G.indptr, G.indices, w, int(s), method=method, delta=d, filtering=filtering,
             stats=stats)  # fmt: skip
    stats["delta"] = d
    stats["arcs_per_arc"] = stats.get("arcs", 0) / max(G.num_arcs, 1)
    return stats


# ---------------------------------------------------------------------------- GPU engine
S3 = ["qbuf", "skip1", "stream", "ilp"]  # the default features after session 3
GPU_VARIANTS: list[tuple[str, str, dict[str, Any]]] = [
    # (name, method, sssp_gpu keywords); "wr" is replaced by the graph's weight statistics.
    # "old": the kernel and per-call work as before 2026-11-21's session 3 (packed layout, no
    # features, a weight-statistics pass and fresh buffers each call); "s3": the default after
    # session 3; "all": every feature (the default now, features=None)
    ("hbf/old", "hbf", {"layout": "packed", "features": 0, "reuse": False}),
    ("hbf/s3", "hbf", {"layout": "packed", "features": S3, "weight_range": "wr"}),
    ("hbf/s3+defer", "hbf", {"layout": "packed", "features": [*S3, "defer"], "weight_range": "wr"}),
    ("hbf/s3+spec", "hbf", {"layout": "packed", "features": [*S3, "spec"], "weight_range": "wr"}),
    ("hbf/s3+spec+defer", "hbf",
     {"layout": "packed", "features": [*S3, "spec", "defer"], "weight_range": "wr"}),
    ("hbf/s3+spec+defer+pref", "hbf",
     {"layout": "packed", "features": [*S3, "spec", "defer", "pref"], "weight_range": "wr"}),
    ("hbf/s3+spec+defer+ilp2", "hbf",
     {"layout": "packed", "features": [*S3, "spec", "defer", "ilp2"], "weight_range": "wr"}),
    ("hbf/all", "hbf", {"layout": "packed", "weight_range": "wr"}),
    ("near_far/s3", "near_far", {"layout": "packed", "features": S3, "weight_range": "wr"}),
    ("near_far/all", "near_far", {"layout": "packed", "weight_range": "wr"}),
    # session 4c: "s4" = the previous synchronisation (grid barrier + counter read, no chained
    # expansion, pre-read before every atomicMin, degree read on every near push)
    ("near_far/s4", "near_far", {"weight_range": "wr", "fused_sync": False, "chain": 0,
                                 "claim_limit": 0, "small_degree": False}),
    ("near_far/fused", "near_far", {"weight_range": "wr", "chain": 0, "claim_limit": 0,
                                    "small_degree": False}),
    ("near_far/fused+claim+deg", "near_far", {"weight_range": "wr", "chain": 0}),
    ("near_far/chain4", "near_far", {"weight_range": "wr", "chain": 4}),
    ("near_far/chain8", "near_far", {"weight_range": "wr", "chain": 8}),
    ("near_far/chain16", "near_far", {"weight_range": "wr", "chain": 16}),
    ("near_far/chain32", "near_far", {"weight_range": "wr", "chain": 32}),
    ("delta/s4", "delta", {"weight_range": "wr", "fused_sync": False, "claim_limit": 0,
                           "small_degree": False}),
    ("delta/fused", "delta", {"weight_range": "wr"}),
    ("hbf/s4", "hbf", {"layout": "packed", "weight_range": "wr", "fused_sync": False}),
    ("delta/s3", "delta", {"layout": "packed", "features": S3, "weight_range": "wr"}),
    ("delta/all", "delta", {"layout": "packed", "weight_range": "wr"}),
]  # fmt: skip


def _gpu_call(G, srcs, method: str, kw: dict[str, Any], wr, stats=None):
    from warpgraph.algorithms.sssp.gpu import sssp_gpu

    kw = {k: (wr if v == "wr" else v) for k, v in kw.items()}
    return sssp_gpu(G.indptr, G.indices, G.weights, np.asarray(srcs, np.int64), method=method,
                    directed=G.directed, stats=stats, **kw)[0]  # fmt: skip


def compare_prepare(spec: str, args) -> tuple[dict[str, Any], Any, list[int], tuple]:
    """Build one graph and check every configuration of ``GPU_VARIANTS`` on it."""
    import cupy as cp

    from warpgraph._arrays import to_host
    from warpgraph.algorithms.sssp.api import _graph_weight_stats

    t0 = time.perf_counter()
    try:
        name, G = make_graph(spec, "gpu")
    except Exception as exc:  # the GPU generator failed: build on the CPU, then copy
        print(f"   GPU generator failed ({exc!r}); building on the CPU", flush=True)
        name, G = make_graph(spec, "cpu")
        G = G.to("gpu")
    build_s = time.perf_counter() - t0
    sources = [int(s) for s in pick_sources(G, args.sources)]
    lo, hi, mean, _ = _graph_weight_stats(G, G.weights)
    wr = (lo, hi, mean)
    row: dict[str, Any] = {"graph": name, "n": G.num_vertices, "edges": G.num_edges,
                           "arcs": G.num_arcs, "build_s": build_s, "sources": sources,
                           "results": {}}  # fmt: skip
    print(f"== {name}: n={G.num_vertices:,} arcs={G.num_arcs:,} ({build_s:.1f} s)", flush=True)
    reference = {}
    for vname, method, kw in GPU_VARIANTS:  # compile and check first
        try:
            for s in sources[: args.verify]:
                d = _gpu_call(G, [s], method, kw, wr)[0]
                if s not in reference:
                    reference[s] = d
                elif not bool(cp.array_equal(d, reference[s])):
                    raise AssertionError(f"distances from {s} differ from the first variant's")
            row["results"][vname] = {"verified_sources": min(args.verify, len(sources))}
        except Exception as exc:
            row["results"][vname] = {"error": repr(exc)[:400]}
            print(f"   {vname:24s} {exc!r}", flush=True)
    if G.num_vertices <= args.peer_max_n and sources and sources[0] in reference:
        from scipy.sparse.csgraph import dijkstra

        ref = dijkstra(G.to("cpu").to_scipy(), indices=sources[0])
        got = to_host(reference[sources[0]]).astype(np.float64)
        got[got == np.iinfo(np.int64).max] = np.inf
        row["scipy_equal"] = bool(np.array_equal(ref, got))
        print(f"   first source equal to SciPy's dijkstra: {row['scipy_equal']}", flush=True)
    return row, G, sources, wr


def compare_time(row: dict[str, Any], G, sources: list[int], wr: tuple) -> dict[str, Any]:
    """Time every configuration of ``GPU_VARIANTS`` on a prepared graph (see the module doc)."""
    import cupy as cp

    from warpgraph._arrays import to_host
    from warpgraph.algorithms.sssp import sssp

    print(f"== timing {row['graph']}", flush=True)
    start, end = cp.cuda.Event(), cp.cuda.Event()
    deg_host = to_host(G.out_degree()).astype(np.int64)
    for vname, method, kw in GPU_VARIANTS:
        r = row["results"][vname]
        if "error" in r:
            continue
        stats: list = []
        _gpu_call(G, sources[:1], method, kw, wr, stats)  # warm-up + operation counts
        r["stats_first"] = stats[0]
        times, walls = [], []
        for s in sources:
            cp.cuda.Device().synchronize()
            w0 = time.perf_counter()
            start.record()
            _gpu_call(G, [s], method, kw, wr)
            end.record()
            end.synchronize()
            walls.append((time.perf_counter() - w0) * 1e3)
            times.append(cp.cuda.get_elapsed_time(start, end))
        start.record()
        _gpu_call(G, sources, method, kw, wr)
        end.record()
        end.synchronize()
        r.update({"median_ms": statistics.median(times), "min_ms": min(times),
                  "max_ms": max(times), "wall_median_ms": statistics.median(walls),
                  "batch_per_source_ms": cp.cuda.get_elapsed_time(start, end) / len(sources),
                  "times_ms": times})  # fmt: skip
        print(f"   {vname:24s} {r['median_ms']:7.3f} ms single (wall {r['wall_median_ms']:.3f}),"
              f" {r['batch_per_source_ms']:7.3f} ms/source in a batch, "
              f"{r['stats_first']['iterations']} expand ops", flush=True)  # fmt: skip
    if not any(v[1] == "hbf" for v in GPU_VARIANTS):
        return row
    for method in ("hbf", "auto"):
        sssp(G, sources[0], method=method, device="gpu")
        r = time_method(G, sources, deg_host, method, "gpu", None, True)
        r.pop("edges", None)
        row["results"][f"public sssp {method}"] = r
        print(f"   {'public sssp ' + method:24s} {r['median_ms']:7.3f} ms single", flush=True)
    row["public_probe"] = probe_public(G, sources, wr, deg_host)
    return row


def probe_public(G, sources: list[int], wr: tuple, deg_host: np.ndarray) -> dict[str, Any]:
    """Where the public call's extra time comes from: per source, interleaved, CUDA events
    around the backend call and the public call (default configuration), each once right
    after a device synchronization ("sync") and once after the host work that ``time_method``
    does between two timed calls ("gap": copying the previous distances to the host and
    counting the reached edges); plus the host wall time of both calls."""
    import cupy as cp

    from warpgraph.algorithms.sssp import sssp
    from warpgraph.algorithms.sssp.gpu import sssp_gpu

    start, end = cp.cuda.Event(), cp.cuda.Event()
    srcs = np.asarray(sources, np.int64)

    def backend(s):
        return sssp_gpu(G.indptr, G.indices, G.weights, srcs[s : s + 1], method="hbf",
                        directed=G.directed, weight_range=wr)[0][0]  # fmt: skip

    def public(s):
        return sssp(G, int(srcs[s]), method="hbf", device="gpu")

    calls = {"backend": backend, "public": public}
    out: dict[str, list[float]] = {}
    prev = backend(0)
    for i in range(len(sources)):
        for gap in (False, True):
            for name, fn in calls.items():
                if gap:
                    reached_edges(G, prev, deg_host)
                else:
                    cp.cuda.Device().synchronize()
                w0 = time.perf_counter()
                start.record()
                prev = fn(i)
                end.record()
                end.synchronize()
                key = f"{name} {'gap' if gap else 'sync'}"
                out.setdefault(key, []).append(cp.cuda.get_elapsed_time(start, end))
                out.setdefault(key + " wall", []).append((time.perf_counter() - w0) * 1e3)
    res = {k: {"median_ms": statistics.median(v), "min_ms": min(v), "times_ms": v}
           for k, v in out.items()}  # fmt: skip
    print("   public-call probe: " + ", ".join(f"{k} {v['median_ms']:.3f}"
                                               for k, v in res.items()), flush=True)  # fmt: skip
    return res


# ---------------------------------------------------------------------------- peers
def time_scipy(G, sources, deg_host) -> dict[str, Any]:
    from scipy.sparse import csgraph

    from warpgraph.algorithms.sssp.reference import lightest_arcs

    A = lightest_arcs(G)
    times, edges = [], []
    for s in sources:
        t0 = time.perf_counter()
        d = csgraph.dijkstra(A, directed=True, indices=int(s))
        times.append((time.perf_counter() - t0) * 1e3)
        edges.append(reached_edges(G, d, deg_host))
    return summarize(times, edges)


def time_igraph(G, sources, deg_host) -> dict[str, Any] | None:
    try:
        import igraph
    except ImportError:
        return None
    src, dst, w = G.edges()
    g = igraph.Graph(n=G.num_vertices, directed=G.directed)
    g.add_edges(np.column_stack([src, dst]))
    weights = None if w is None else np.asarray(w, dtype=np.float64).tolist()
    times, edges = [], []
    for s in sources:
        t0 = time.perf_counter()
        d = np.asarray(g.distances(source=int(s), weights=weights)[0], dtype=np.float64)
        times.append((time.perf_counter() - t0) * 1e3)
        edges.append(reached_edges(G, d, deg_host))
    return summarize(times, edges)


def time_networkx(G, sources, deg_host, max_n: int) -> dict[str, Any] | None:
    if G.num_vertices > max_n:
        return None
    import networkx as nx

    H = G.to_networkx()
    times, edges = [], []
    for s in sources:
        t0 = time.perf_counter()
        dist = nx.single_source_dijkstra_path_length(H, int(s))
        times.append((time.perf_counter() - t0) * 1e3)
        d = np.full(G.num_vertices, np.inf)
        d[np.fromiter(dist.keys(), dtype=np.int64)] = 0
        edges.append(reached_edges(G, d, deg_host))
    return summarize(times, edges)


def write_gapbs_wsg(G, path: Path) -> None:
    """GAPBS's serialized weighted graph (.wsg): directed flag, arc count, vertex count, int64
    offsets, (int32 neighbour, int32 weight) pairs; then the in-arcs of a directed graph."""
    from warpgraph._arrays import to_host

    with open(path, "wb") as f:
        f.write(np.bool_(G.directed).tobytes())
        f.write(np.int64(G.num_arcs).tobytes())
        f.write(np.int64(G.num_vertices).tobytes())
        parts = [(G.indptr, G.indices, G.weights)]
        if G.directed:
            parts.append(G.reverse_csr())
        for indptr, indices, w in parts:
            to_host(indptr).astype(np.int64).tofile(f)
            pairs = np.empty((indices.shape[0], 2), dtype=np.int32)
            pairs[:, 0] = to_host(indices)
            pairs[:, 1] = 1 if w is None else to_host(w)
            pairs.tofile(f)


def time_gapbs(G, binary: str, trials: int, threads: int, deltas: list[int]) -> dict[str, Any]:
    """GAPBS ``sssp`` with each ``-d`` of ``deltas``; the best median is the headline."""
    from warpgraph.bench.gapbs import GapbsError, run_gapbs

    if G.weights is not None and G.weights.dtype.kind not in "iu":
        return {"error": "GAPBS reads int32 weights only; this graph has float weights"}
    exe = Path(binary)
    if exe.is_dir():
        exe = exe / "sssp"
    runs = {}
    os.environ["OMP_NUM_THREADS"] = str(threads)
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "graph.wsg"
        write_gapbs_wsg(G, path)
        for d in deltas:
            try:
                out = run_gapbs(exe, path, symmetrize=False, trials=trials,
                                extra_args=("-d", str(d)))  # fmt: skip
            except GapbsError as exc:
                runs[d] = {"error": str(exc)[:300]}
                continue
            t = [x * 1e3 for x in out["trial_times"]]
            runs[d] = {"median_ms": statistics.median(t), "min_ms": min(t), "max_ms": max(t),
                       "runs": len(t), "times_ms": t}  # fmt: skip
    good = {d: r for d, r in runs.items() if "median_ms" in r}
    if not good:
        return {"error": "no GAPBS run succeeded", "by_delta": runs}
    best = min(good, key=lambda d: good[d]["median_ms"])
    return {**good[best], "delta": best, "threads": threads, "by_delta": runs}


def gapbs_deltas(G, spec: str) -> list[int]:
    """GAPBS ``-d`` values: the listed ones, and with ``auto`` also half, once and twice the
    width warpgraph's rule picks for this graph (so GAPBS gets a fair width on road graphs)."""
    out = set()
    for item in spec.split(","):
        if item == "auto":
            from warpgraph.algorithms.sssp.api import _check_weights
            from warpgraph.algorithms.sssp.cpu import default_delta_from

            d = default_delta_from(_check_weights(G, None, "cpu"), G.indptr)
            out |= {max(1, int(d // 2)), max(1, int(d)), max(1, int(2 * d))}
        elif item:
            out.add(int(item))
    return sorted(out)


# ---------------------------------------------------------------------------- main
def bench_graph(spec: str, args) -> dict[str, Any]:
    from warpgraph._arrays import to_host

    devices = args.device.split(",")
    gen_dev = "gpu" if "gpu" in devices else "cpu"
    t0 = time.perf_counter()
    name, G = make_graph(spec, gen_dev)
    build_s = time.perf_counter() - t0
    deg_host = to_host(G.out_degree()).astype(np.int64)
    sources = pick_sources(G, args.sources)
    row: dict[str, Any] = {
        "graph": name,
        "n": G.num_vertices,
        "edges": G.num_edges,
        "arcs": G.num_arcs,
        "directed": G.directed,
        "weights": None if G.weights is None else str(G.weights.dtype),
        "build_s": build_s,
        "sources": [int(s) for s in sources],
        "results": {},
    }
    row["loadavg_start"] = os.getloadavg()  # the CPU timings depend on what else runs
    print(f"== {name}: n={G.num_vertices:,} edges={G.num_edges:,} ({build_s:.1f} s)", flush=True)
    filters = {"on": [True], "off": [False], "both": [True, False]}[args.filtering]
    reference: dict[int, np.ndarray] = {}
    timed: list[tuple] = []
    Gc = G.to("cpu")
    for dev in devices:
        Gd = G.to(dev)
        methods = (args.gpu_methods if dev == "gpu" else args.cpu_methods).split(",")
        count = args.sources if dev == "gpu" else args.cpu_sources
        runs = [(m, None, f) for m in methods for f in filters]
        if args.delta_sweep:
            runs += [("delta", float(d), True) for d in args.delta_sweep.split(",")]
        for method, delta, filt in runs:
            key = f"{dev}/{method}" + ("" if filt else "/nofilter")
            key += "" if delta is None else f"/delta={delta:g}"
            try:
                verified = check_results(Gd, sources[: args.verify], method, dev, delta, filt,
                                         reference)  # fmt: skip
                r = time_method(Gd, sources[:count], deg_host, method, dev, delta, filt)
                r["verified_sources"] = verified
                if dev == "cpu" and method in ("delta", "near_far", "hbf"):
                    r["work"] = cpu_work(Gc, sources[0], method, delta, filt)
            except Exception as exc:  # report and go on with the other methods
                r = {"error": repr(exc)[:400]}
            row["results"][key] = r
            if "median_ms" in r:
                timed.append((key, Gd, method, dev, delta, filt))
            shown = f"{r['median_ms']:.3f} ms" if "median_ms" in r else r["error"]
            print(f"   {key:28s} {shown}", flush=True)
    peer_sources = sources[: args.peer_sources]
    peers = args.peers.split(",") if G.num_vertices <= args.peer_max_n else []
    for peer in filter(None, peers):
        if peer == "scipy":
            r = time_scipy(Gc, peer_sources, deg_host)
        elif peer == "igraph":
            r = time_igraph(Gc, peer_sources, deg_host)
        else:
            r = time_networkx(Gc, peer_sources, deg_host, args.networkx_max_n)
        if r is not None:
            row["results"][peer] = r
            print(f"   {peer:28s} {r['median_ms']:.3f} ms", flush=True)
    if args.gapbs:
        import numba

        deltas = gapbs_deltas(Gc, args.gapbs_delta)
        r = time_gapbs(Gc, args.gapbs, args.cpu_sources, numba.get_num_threads(), deltas)
        row["results"]["gapbs"] = r
        shown = f"{r['median_ms']:.3f} ms (-d {r['delta']})" if "median_ms" in r else r["error"]
        print(f"   {'gapbs':28s} {shown}", flush=True)
    if args.rounds > 1:
        more_rounds(row, args, timed, sources, deg_host, Gc)
    row["loadavg_end"] = os.getloadavg()
    return row


def merge(r: dict[str, Any], extra: dict[str, Any]) -> None:
    """Add the runs of ``extra`` (same method, later round) to ``r``'s raw times and summary."""
    times = r["times_ms"] + extra["times_ms"]
    edges = r.get("edges", []) + extra.get("edges", [])
    r.update(summarize(times, edges) if edges else {
        "median_ms": statistics.median(times), "min_ms": min(times), "max_ms": max(times),
        "runs": len(times)})  # fmt: skip
    r["times_ms"], r["rounds"] = times, r.get("rounds", 1) + 1
    if edges:
        r["edges"] = edges


def more_rounds(row, args, timed, sources, deg_host, Gc) -> None:
    """Rounds 2.. of ``--rounds``: every timed warpgraph method and GAPBS (at its best delta)
    again, in turn, so that a change in the machine's load hits all of them alike."""
    import numba

    gapbs = row["results"].get("gapbs", {})
    for _ in range(args.rounds - 1):
        for key, Gd, method, dev, delta, filt in timed:
            count = args.sources if dev == "gpu" else args.cpu_sources
            merge(row["results"][key],
                  time_method(Gd, sources[:count], deg_host, method, dev, delta, filt))  # fmt: skip
        if "median_ms" in gapbs:
            d = gapbs["delta"]
            r = time_gapbs(Gc, args.gapbs, args.cpu_sources, numba.get_num_threads(), [d])
            if "median_ms" in r:
                merge(gapbs, r["by_delta"][d])
    for key, *_ in timed:
        print(f"   {key:28s} {row['results'][key]['median_ms']:.3f} ms ({args.rounds} rounds)")
    if "median_ms" in gapbs:
        print(f"   {'gapbs':28s} {gapbs['median_ms']:.3f} ms ({args.rounds} rounds)", flush=True)


def print_table(rows: list[dict[str, Any]]) -> None:
    keys: list[str] = []
    for r in rows:
        for k in r.get("results", {}):
            if k not in keys:
                keys.append(k)
    header = f"{'graph':26s} {'edges':>12s} " + " ".join(f"{k[:16]:>16s}" for k in keys)
    print(header)
    for r in rows:
        cells = []
        for k in keys:
            v = r.get("results", {}).get(k)
            ok = isinstance(v, dict) and "median_ms" in v
            cells.append(f"{v['median_ms']:16.3f}" if ok else f"{'-':>16s}")
        print(f"{r['graph']:26s} {r.get('edges', 0):12,d} " + " ".join(cells))
    print("(median ms per source; min/max, GTEPS, work and GAPBS's -d in the JSON)")


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    ap.add_argument("--graphs", default="kron:18,kron:18:graph500,road:250000")
    ap.add_argument("--device", default="gpu", help="gpu, cpu or gpu,cpu")
    ap.add_argument("--gpu-methods", default="delta,near_far,hbf")
    ap.add_argument("--cpu-methods", default="delta,near_far,hbf")
    ap.add_argument("--filtering", default="on", choices=["on", "off", "both"])
    ap.add_argument("--delta-sweep", help="also time method 'delta' with these widths")
    ap.add_argument("--sources", type=int, default=64)
    ap.add_argument("--cpu-sources", type=int, default=16)
    ap.add_argument("--verify", type=int, default=2, help="sources verified per method")
    ap.add_argument("--peer-sources", type=int, default=4)
    ap.add_argument("--peers", default="scipy,igraph,networkx")
    ap.add_argument("--peer-max-n", type=int, default=5_000_000)
    ap.add_argument("--networkx-max-n", type=int, default=70_000)
    ap.add_argument("--gapbs", help="GAPBS's sssp binary (or its directory)")
    ap.add_argument(
        "--gapbs-delta",
        default="1,2,4,8,auto",
        help="GAPBS -d values to try ('auto': half, once and twice warpgraph's automatic delta)",
    )
    ap.add_argument("--cpu-threads", type=int, help="Numba threads (and GAPBS OMP threads)")
    ap.add_argument(
        "--rounds",
        type=int,
        default=1,
        help="time every method and GAPBS this many times in turn (fair on a shared machine)",
    )
    ap.add_argument("--out", help="JSON output (default benchmarks/results/sssp.json)")
    ap.add_argument(
        "--compare-gpu",
        action="store_true",
        help="time the GPU engine's configurations side by side (see the module doc)",
    )
    ap.add_argument("--start-after", help="--compare-gpu: wait for this file before timing")
    ap.add_argument(
        "--variants",
        help="--compare-gpu: only the configurations whose names start with one of these "
        "comma-separated prefixes (e.g. 'near_far,delta')",
    )
    args = ap.parse_args(argv)
    if args.cpu_threads:
        import numba

        numba.set_num_threads(args.cpu_threads)
    rows = []
    if args.compare_gpu:  # build and check every graph first, then time them on an idle GPU
        if args.variants:
            keep = tuple(filter(None, args.variants.split(",")))
            GPU_VARIANTS[:] = [v for v in GPU_VARIANTS if v[0].startswith(keep)]
        prepared = [compare_prepare(spec, args) for spec in filter(None, args.graphs.split(","))]
        if args.start_after:  # a device job runs tests beside us
            waited = time.perf_counter()
            while not os.path.exists(args.start_after) and time.perf_counter() - waited < 300:
                time.sleep(0.5)
        for row, G, sources, wr in prepared:
            row["gpu_shared_while_timing"] = bool(
                args.start_after and not os.path.exists(args.start_after)
            )
            rows.append(compare_time(row, G, sources, wr))
            write_json("sssp", {"args": vars(args), "results": rows}, args.out)
        path = write_json("sssp", {"args": vars(args), "results": rows}, args.out)
        print(f"wrote {path}")
        return 0
    for spec in filter(None, args.graphs.split(",")):
        try:
            rows.append(bench_graph(spec, args))
        except Exception as exc:  # e.g. out of device memory at the largest scales
            print(f"!! {spec}: {exc!r}", file=sys.stderr, flush=True)
            rows.append({"graph": spec, "edges": 0, "error": repr(exc)[:500]})
        write_json("sssp", {"args": vars(args), "results": rows}, args.out)  # after each graph
    path = write_json("sssp", {"args": vars(args), "results": rows}, args.out)
    print_table([r for r in rows if "error" not in r])
    print(f"wrote {path}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
