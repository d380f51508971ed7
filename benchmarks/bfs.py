"""BFS speed: warpgraph's GPU and CPU engines against SciPy, igraph, NetworkX and GAPBS.

Method (GAP / Graph500): graphs generated or loaded once; 64 random non-isolated sources (seeded);
one warm-up BFS; each BFS timed alone (CUDA events around the launch(es) on the GPU, wall clock
on the CPU); median/min/max reported. TEPS count the edges of the traversed component, an
undirected edge once (Graph500); the directed arc count is recorded too. Peers run in the same
process on the same graph (SciPy ``breadth_first_order``, igraph ``Graph.bfs``, NetworkX on
small graphs) from the first ``--peer-sources`` sources; GAPBS ``bfs`` runs on the same edge list
when ``--gapbs PATH`` is given.

Also measured: top-down-only time against the random-access bound (one 4-byte random read per
arc at the gather rate measured in the same run), microseconds per level on high-diameter
graphs (the persistent kernel's per-level overhead), device memory, and with ``--sweep`` every
engine strategy (the measurements behind the automatic configuration rules, docs/BFS.md).

Usage
-----
python benchmarks/bfs.py --graphs kron:20,kron:22,uniform:22,grid:2500 --device gpu
python benchmarks/bfs.py --graphs kron:20 --device cpu --cpu-threads 2 --gapbs ./gapbs/bfs
python benchmarks/bfs.py --graphs kron:18,grid:1000 --sweep --sources 16
python benchmarks/bfs.py --graphs datasets --datasets ../shared/datasets
python benchmarks/bfs.py --large 27 --large-sources 8 --out results/bfs_large.json

``--large S`` is the scale test: a Graph500 Kronecker graph of scale S (edge factor 16) built
on the GPU chunk by chunk (``warpgraph.generators.kronecker_chunked``), with the build's phases
and peak device memory (CuPy pool: the most bytes in use at any allocation, and the bytes the
pool holds), then BFS from a few sources, each checked on the GPU (``verify_levels_gpu``). If
the scale succeeds the next one up is tried (up to ``--large-max``), if it fails the next one
down (down to ``--large-min``), so the run reports the largest scale that fits; no attempt
starts after ``--large-deadline`` seconds. ``--large-compare S`` also builds scale S both ways
(one-shot and chunked), compares the arrays and reports both peaks.
"""

from __future__ import annotations

import argparse
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
SWEEP_LB = [
    "node1",
    "node4",
    "node16",
    "node32",
    "warp-scan",
    "warp-search",
    "block-search",
    "bins",
]


# ---------------------------------------------------------------------------- graphs
def make_graph(spec: str, device: str):
    """``kron:S``, ``uniform:S`` (2**S vertices, edge factor 16), ``grid:R`` (R x R),
    ``road:N`` (road-like, N vertices) or a file path."""
    import warpgraph as wg
    from warpgraph import generators as gen

    kind, _, arg = spec.partition(":")
    if kind == "kron":
        return f"kron-{arg}", gen.kronecker(int(arg), 16, seed=1, device=device)
    if kind == "uniform":
        n = 2 ** int(arg)
        return f"uniform-{arg}", gen.uniform(n, 16 * n, seed=1, device=device)
    if kind == "grid":
        r = int(arg)
        return f"grid-{r}x{r}", gen.grid_2d(r, r, device=device)
    if kind == "road":
        return f"road-{arg}", gen.road_like(int(arg), seed=1, weights=None, device=device)
    path = Path(spec)
    return path.name.split(".")[0], wg.load(str(path)).to(device)


def graph_specs(text: str, datasets: Path) -> list[str]:
    out = []
    for item in text.split(","):
        if item == "datasets":
            files = sorted(p for p in datasets.glob("*") if p.is_file() and p.suffix != ".md")
            out += [str(p) for p in files]
        elif item:
            out.append(item)
    return out


def pick_sources(G, count: int, seed: int = 1) -> np.ndarray:
    from warpgraph._arrays import to_host

    deg = to_host(G.out_degree())
    candidates = np.flatnonzero(deg > 0)
    rng = np.random.default_rng(seed)
    return rng.choice(candidates, size=count, replace=len(candidates) < count)


def traversed_edges(G, levels, deg_host: np.ndarray) -> int:
    """Edges of the traversed component: undirected edges once (Graph500), arcs if directed."""
    from warpgraph._arrays import to_host

    reached = to_host(levels) >= 0
    arcs = int(deg_host[reached].sum())
    return arcs if G.directed else arcs // 2


def summarize(times_ms: list[float], edges: list[int]) -> dict[str, Any]:
    gteps = [e / (t * 1e6) for e, t in zip(edges, times_ms, strict=True) if t > 0]
    return {
        "median_ms": statistics.median(times_ms),
        "min_ms": min(times_ms),
        "max_ms": max(times_ms),
        "runs": len(times_ms),
        "gteps_median": statistics.median(gteps) if gteps else None,
        "edges_median": statistics.median(edges),
    }


# ---------------------------------------------------------------------------- warpgraph GPU
def gpu_plan(G, config: dict | None, direction: str = "auto", plan_kwargs: dict | None = None):
    """The plan the API would use, or (``plan_kwargs``: engine-internal knobs of GpuBfsPlan) a
    fresh one built from the same configuration."""
    from warpgraph.algorithms.bfs.api import _gpu_plan
    from warpgraph.algorithms.bfs.config import choose_config

    cfg, feats, _ = choose_config(G, config, "gpu")
    if not plan_kwargs:
        return _gpu_plan(G, cfg, direction), cfg, feats
    from warpgraph.algorithms.bfs.gpu import GpuBfsPlan

    kwargs = dict(
        direction=direction, rule=cfg.rule, alpha=cfg.alpha, beta=cfg.beta, gamma=cfg.gamma,
        hub_threshold_=cfg.hub_threshold, hub_cache=bool(cfg.hub_cache),
        switch_back=bool(cfg.switch_back), extreme_degree=cfg.extreme_degree,
    )  # fmt: skip
    kwargs.update(plan_kwargs)
    return GpuBfsPlan(G, cfg.engine, **kwargs), cfg, feats


def timed_runs(plan, sources, levels):
    """Yield ``(source, ms)`` for each BFS of ``plan`` into ``levels`` (CUDA events around the
    run, after one warm-up run for compilation and caches); ``levels`` holds that search."""
    import cupy as cp

    plan.run(int(sources[0]), levels)
    cp.cuda.Device().synchronize()
    start, end = cp.cuda.Event(), cp.cuda.Event()
    for s in sources:
        start.record()
        plan.run(int(s), levels)
        end.record()
        end.synchronize()
        yield int(s), cp.cuda.get_elapsed_time(start, end)


def time_gpu(
    G, sources, deg_host, config=None, direction="auto", plan_kwargs=None
) -> dict[str, Any]:
    import cupy as cp

    plan, cfg, _ = gpu_plan(G, config, direction, plan_kwargs)
    levels = cp.empty(G.num_vertices, np.int32)
    times, edges, depth, bu = [], [], [], []
    for _, ms in timed_runs(plan, sources, levels):
        times.append(ms)
        edges.append(traversed_edges(G, levels, deg_host))
        info = plan.info()
        depth.append(info.levels)
        bu.append(info.bottom_up_steps)
    out = summarize(times, edges)
    out.update(
        config=cfg.as_dict(),
        levels_median=statistics.median(depth),
        bottom_up_steps_median=statistics.median(bu),
        us_per_level=1e3 * out["median_ms"] / max(statistics.median(depth), 1),
        plan_bytes=plan.nbytes(),
        barrier=plan.barrier,
        blocks=plan.gen_grid,
        extreme_degree=getattr(plan, "extreme_degree", None),
        plan_kwargs=plan_kwargs or {},
    )
    return out


def gather_bound_ms(G, repeat: int = 5) -> dict[str, float]:
    """Time of ``arcs`` random 4-byte reads from an n-element array (cupy.take), median."""
    import cupy as cp

    n, arcs = G.num_vertices, G.num_arcs
    table = cp.arange(n, dtype=cp.int32)
    idx = cp.random.default_rng(3).integers(0, n, size=arcs, dtype=cp.int64).astype(cp.int32)
    out = cp.empty(arcs, cp.int32)
    cp.take(table, idx, out=out)
    start, end = cp.cuda.Event(), cp.cuda.Event()
    times = []
    for _ in range(repeat):
        start.record()
        cp.take(table, idx, out=out)
        end.record()
        end.synchronize()
        times.append(cp.cuda.get_elapsed_time(start, end))
    t = statistics.median(times)
    return {"gather_ms": t, "random_reads_per_s": arcs / (t * 1e-3)}


# ---------------------------------------------------------------------------- CPU engines
def time_cpu(G, sources, deg_host, direction="auto") -> dict[str, Any]:
    from warpgraph.algorithms.bfs.cpu import bfs_cpu

    rindptr, rindices, _ = G.reverse_csr()
    args = (G.indptr, G.indices, rindptr, rindices)
    bfs_cpu(*args, int(sources[0]), direction=direction)  # warm-up (JIT)
    times, edges = [], []
    for s in sources:
        t0 = time.perf_counter()
        levels, _ = bfs_cpu(*args, int(s), direction=direction)
        times.append((time.perf_counter() - t0) * 1e3)
        edges.append(traversed_edges(G, levels, deg_host))
    return summarize(times, edges)


def time_scipy(G, sources, deg_host) -> dict[str, Any]:
    from scipy.sparse import csgraph

    A = G.to_scipy(dtype=np.int8)
    times, edges = [], []
    for s in sources:
        t0 = time.perf_counter()
        order = csgraph.breadth_first_order(
            A, int(s), directed=G.directed, return_predecessors=False
        )
        times.append((time.perf_counter() - t0) * 1e3)
        levels = np.full(G.num_vertices, -1)
        levels[order] = 0
        edges.append(traversed_edges(G, levels, deg_host))
    return summarize(times, edges)


def time_igraph(G, sources, deg_host) -> dict[str, Any] | None:
    try:
        import igraph
    except ImportError:
        return None
    src, dst, _ = G.edges()
    g = igraph.Graph(n=G.num_vertices, directed=G.directed)
    g.add_edges(np.column_stack([src, dst]))
    times, edges = [], []
    for s in sources:
        t0 = time.perf_counter()
        vids, _, _ = g.bfs(int(s))
        times.append((time.perf_counter() - t0) * 1e3)
        levels = np.full(G.num_vertices, -1)
        levels[np.asarray(vids)] = 0
        edges.append(traversed_edges(G, levels, deg_host))
    return summarize(times, edges)


def time_networkx(G, sources, deg_host) -> dict[str, Any] | None:
    if G.num_vertices > 70_000:
        return None
    import networkx as nx

    H = G.to_networkx()
    times, edges = [], []
    for s in sources:
        t0 = time.perf_counter()
        dist = nx.single_source_shortest_path_length(H, int(s))
        times.append((time.perf_counter() - t0) * 1e3)
        levels = np.full(G.num_vertices, -1)
        levels[np.fromiter(dist.keys(), dtype=np.int64)] = 0
        edges.append(traversed_edges(G, levels, deg_host))
    return summarize(times, edges)


def write_gapbs_sg(G, path: Path) -> None:
    """GAPBS's serialized graph (.sg): directed flag, arc count, vertex count, int64 offsets,
    int32 neighbours, then the in-arcs for a directed graph (GAPBS reader.h)."""
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


def time_gapbs(G, binary: str, count: int, threads: int) -> dict[str, Any] | None:
    """GAPBS ``bfs`` on the same graph (written as a .sg file), ``count`` trials."""
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "graph.sg"
        write_gapbs_sg(G, path)
        cmd = [binary, "-f", str(path), "-n", str(count)]
        env = dict(os.environ, OMP_NUM_THREADS=str(threads))
        proc = subprocess.run(cmd, capture_output=True, text=True, env=env, check=False)
    trials = [
        float(line.split()[-1]) * 1e3
        for line in proc.stdout.splitlines()
        if line.strip().startswith("Trial Time:")
    ]
    if not trials:
        return {"error": proc.stdout[-400:] + proc.stderr[-400:]}
    return {
        "median_ms": statistics.median(trials),
        "min_ms": min(trials),
        "max_ms": max(trials),
        "runs": len(trials),
        "threads": threads,
    }


# ---------------------------------------------------------------------------- sweep
def sweep_configs() -> list[tuple[str, dict, str]]:
    out = []
    for lb in SWEEP_LB:
        out.append((f"{lb}/persistent", {"load_balance": lb, "sync": "persistent"}, "auto"))
    for lb in ("warp-search", "merge-path", "bins"):
        out.append((f"{lb}/level", {"load_balance": lb, "sync": "level"}, "auto"))
    out.append(("warp-search/td-only", {"load_balance": "warp-search"}, "top-down"))
    out.append(("bins/td-only", {"load_balance": "bins"}, "top-down"))
    for g in ("none", "warp"):
        out.append((f"gather={g}", {"gather": g}, "auto"))
    for u in ("local", "status"):
        out.append((f"update={u}", {"update": u}, "auto"))
    for d in ("none", "warp-hash", "block-hash"):
        out.append((f"dedup={d}", {"dedup": d}, "auto"))
    out.append(("status=bitmask", {"status": "bitmask"}, "auto"))
    out.append(("hub_cache=off", {"hub_cache": False}, "auto"))
    out.append(("hub_cache=on", {"hub_cache": True}, "auto"))
    out.append(("rule=enterprise", {"rule": "enterprise"}, "auto"))
    for b in (1, 2, 4):
        out.append((f"blocks_per_sm={b}", {"blocks_per_sm": b}, "auto"))
    out.append(("frontier=edge", {"frontier": "edge"}, "auto"))
    return out


def variant_configs() -> list[tuple[str, dict, str, dict]]:
    """The changes of the second BFS speed round (docs/BFS.md), each alone against the defaults:
    (name, config, direction, GpuBfsPlan keywords). The variants of the bottom-up scan and of
    the persistent kernel's occupancy that the round measured (and dropped) are in
    results/bfs_h100_20261121_variants.json."""
    out = [("default", {}, "auto", {})]
    out.append(("degree_status=off", {}, "auto", {"degree_status": False}))
    old_bins = {"extreme_degree": 65536, "deal_extreme": False}
    out.append(("extreme=65536 undealt (old)", {}, "auto", old_bins))
    out.append(("extreme=65536 dealt", {}, "auto", {"extreme_degree": 65536}))
    for x in (1024, 8192):
        out.append((f"extreme={x}", {}, "auto", {"extreme_degree": x}))
    out.append(("load_balance=bins", {"load_balance": "bins"}, "auto", {}))
    out.append(("load_balance=warp-search", {"load_balance": "warp-search"}, "auto", {}))
    out.append(("top-down", {}, "top-down", {}))
    out.append(("top-down bins", {"load_balance": "bins"}, "top-down", {}))
    old_td = {**old_bins, "degree_status": False}
    out.append(("top-down bins old extreme", {"load_balance": "bins"}, "top-down", old_td))
    # session 4: counter-fused level barrier and direct (atomicMin) claims on small levels
    old_sync = {"fused_sync": False, "claim_limit": 0}
    out.append(("fused_sync=off", {}, "auto", {"fused_sync": False}))
    out.append(("claim_limit=0", {}, "auto", {"claim_limit": 0}))
    out.append(("claim_limit=2^20", {}, "auto", {"claim_limit": 1 << 20}))
    out.append(("fused_sync=off claim_limit=0", {}, "auto", old_sync))
    out.append(("top-down fused_sync=off claim_limit=0", {}, "top-down", old_sync))
    bpsm4 = {"blocks_per_sm": 4}
    out.append(("fused blocks_per_sm=4", bpsm4, "auto", {}))
    out.append(("fused_sync=off blocks_per_sm=4", bpsm4, "auto", {"fused_sync": False}))
    out += s5_variants()
    return out


def s5_variants() -> list[tuple[str, dict, str, dict]]:
    """Session 5 (docs/BFS.md, speed round 3): each change alone, then together."""
    fast = {"fast_launch": True}
    out = [("s5 fast_launch", {}, "auto", fast)]
    for k in (2, 4):
        out.append((f"s5 bu_batch={k}", {}, "auto", {"bu_batch": k}))
    out.append(("s5 bu_batch=2 no skip", {}, "auto", {"bu_batch": 2, "symmetric_skip": False}))
    out.append(("s5 stream_batch=4", {}, "auto", {"stream_batch": 4}))
    for k in (2, 4):
        out.append((f"s5 td_batch={k}", {}, "auto", {"td_batch": k}))
    for a, b in ((30, 18), (60, 18), (15, 40)):
        out.append((f"s5 alpha={a} beta={b}", {"alpha": a, "beta": b}, "auto", {}))
    for k in (2, 4):
        allk = {**fast, "bu_batch": k, "stream_batch": 4, "td_batch": 2}
        out.append((f"s5 all bu={k} td=2", {}, "auto", allk))
    out.append(("s5 top-down (default)", {}, "top-down", {}))
    out.append(("s5 top-down fast_launch", {}, "top-down", fast))
    for k in (2, 4):
        out.append((f"s5 top-down td_batch={k}", {}, "top-down", {**fast, "td_batch": k}))
    # second call: against the new defaults (prebuilt launch, whole-array passes by 4)
    old = {"fast_launch": False, "stream_batch": 1}
    cnt = {"count_bu": True}
    out.append(("s5b before (old launch, passes by 1)", {}, "auto", old))
    out.append(("s5b count_bu", {}, "auto", cnt))
    for a in (1 << 18, 1 << 20):
        out.append((f"s5b count_bu count_arcs={a}", {}, "auto", {**cnt, "count_arcs": a}))
    out.append(("s5b small_search", {}, "auto", {"small_search": True}))
    out.append(("s5b td_batch=2", {}, "auto", {"td_batch": 2}))
    both = {**cnt, "count_arcs": 1 << 18, "small_search": True}
    out.append(("s5b count_bu count_arcs=2^18 small_search", {}, "auto", both))
    out.append(("s5b update=status", {"update": "status"}, "auto", {}))
    out.append(("s5b top-down (default)", {}, "top-down", {}))
    out.append(("s5b top-down before", {}, "top-down", old))
    out.append(("s5b top-down small_search", {}, "top-down", {"small_search": True}))
    out.append(("s5b top-down count_arcs=2^18", {}, "top-down", {"count_arcs": 1 << 18}))
    tdb = {"count_arcs": 1 << 18, "small_search": True}
    out.append(("s5b top-down count_arcs=2^18 small_search", {}, "top-down", tdb))
    out.append(("s5b top-down small_search td_batch=2", {}, "top-down",
                {"small_search": True, "td_batch": 2}))  # fmt: skip
    # third call: against the final defaults (also: count_bu by the unreached-vertex rule,
    # count_arcs from n, small class by warp-search, the large class dealt on thin levels)
    before = {**old, "small_search": False, "count_bu": False, "count_arcs": 0,
              "deal_large": False}  # fmt: skip
    out.append(("s5c before (session 4 code paths)", {}, "auto", before))
    out.append(("s5c count_bu always", {}, "auto", {"count_bu": True}))
    out.append(("s5c count_bu off", {}, "auto", {"count_bu": False}))
    out.append(("s5c count_arcs off", {}, "auto", {"count_arcs": 0}))
    out.append(("s5c small_search off", {}, "auto", {"small_search": False}))
    out.append(("s5c deal_large off", {}, "auto", {"deal_large": False}))
    out.append(("s5c top-down (default)", {}, "top-down", {}))
    out.append(("s5c top-down before", {}, "top-down", before))
    out.append(("s5c top-down count_arcs off", {}, "top-down", {"count_arcs": 0}))
    out.append(("s5c top-down small_search off", {}, "top-down", {"small_search": False}))
    out.append(("s5d count_bu=2^18 (n/16 at scale 22)", {}, "auto", {"count_bu": 1 << 18}))
    # fourth call: the bottom-up rule at n / 16 (the default since) against n / 4
    quarter = {"count_bu": lambda G: G.num_vertices // 4}
    out.append(("s5e count_bu=n/4 (before)", {}, "auto", quarter))
    return out


def profile_variants(G, sources, only: str | None) -> list[dict[str, Any]]:
    """Per-level device profile (plans built with ``profile=True``) of the default plan and of
    the session-5 variants named in ``only`` (comma list of name parts), plus the host time of
    the launch call and the CUDA-event time (launch overhead = event time - kernel time)."""
    import cupy as cp

    wanted = [("default", {}, "auto", {}), ("top-down", {}, "top-down", {})]
    if only:
        wanted += [v for v in s5_variants() if any(k in v[0] for k in only.split(","))]
    rows = []
    for name, cfg, direction, kw in wanted:
        plan, _, _ = gpu_plan(G, cfg, direction, {**kw, "profile": True})
        levels = cp.empty(G.num_vertices, np.int32)
        plan.run(int(sources[0]), levels)
        cp.cuda.Device().synchronize()
        start, end = cp.cuda.Event(), cp.cuda.Event()
        for s in sources:
            start.record()
            t0 = time.perf_counter()
            plan.run(int(s), levels)
            host_us = (time.perf_counter() - t0) * 1e6
            end.record()
            end.synchronize()
            prof = plan.profile()
            prof.update(name=name, source=int(s), host_launch_us=host_us,
                        event_us=1e3 * cp.cuda.get_elapsed_time(start, end))  # fmt: skip
            rows.append(prof)
            lv = " ".join(f"{r['dir']}:{r['us']:.1f}us/f{r['frontier']}/a{r['arcs']}"
                          for r in prof["levels"])  # fmt: skip
            print(f"    profile {name:28s} src {s}: event {prof['event_us']:.1f} kernel "
                  f"{prof['kernel_us']:.1f} launch(host) {host_us:.1f} init {prof['init_us']:.1f} "
                  f"final {prof['final_us']:.1f} | {lv}", flush=True)  # fmt: skip
    return rows


def run_variants(G, sources, deg_host, only: str | None) -> list[dict[str, Any]]:
    rows = []
    for name, cfg, direction, kw in variant_configs():
        if only and not any(k in name for k in only.split(",")):
            continue
        kw = {k: v(G) if callable(v) else v for k, v in kw.items()}  # per-graph values
        try:
            r = time_gpu(G, sources, deg_host, cfg, direction, kw)
            rows.append({"name": name, "median_ms": r["median_ms"], "gteps": r["gteps_median"],
                         "us_per_level": r["us_per_level"], "levels": r["levels_median"],
                         "config": r["config"],
                         "plan_kwargs": kw, "extreme_degree": r["extreme_degree"],
                         "blocks": r["blocks"]})  # fmt: skip
        except Exception as exc:  # report and go on
            rows.append({"name": name, "error": repr(exc)[:300]})
        r = rows[-1]
        extra = f" ({r['us_per_level']:.3f} us/level)" if "us_per_level" in r else ""
        print(f"    variant {name:42s} {r.get('median_ms', r.get('error'))}{extra}", flush=True)
    return rows


def run_sweep(G, sources, deg_host) -> list[dict[str, Any]]:
    rows = []
    for name, cfg, direction in sweep_configs():
        try:
            r = time_gpu(G, sources, deg_host, cfg, direction)
            rows.append({"name": name, "median_ms": r["median_ms"], "gteps": r["gteps_median"]})
        except Exception as exc:  # report and go on: one strategy failing must not stop the sweep
            rows.append({"name": name, "error": repr(exc)[:300]})
        print(
            f"    sweep {name:24s} {rows[-1].get('median_ms', rows[-1].get('error'))}", flush=True
        )
    return rows


# ---------------------------------------------------------------------------- scale test
class PeakMemory:
    """CuPy memory hook: the largest ``used_bytes`` of the default pool seen at any allocation
    (the peak of live arrays) and the largest ``total_bytes`` (what the pool held)."""

    def __init__(self):
        import cupy as cp

        class _Hook(cp.cuda.MemoryHook):
            name = "warpgraph-peak"

            def __init__(hook):
                hook.pool = cp.get_default_memory_pool()
                hook.base_used = hook.pool.used_bytes()  # live before the measured work
                hook.peak_used = hook.base_used
                hook.peak_held = hook.pool.total_bytes()

            def malloc_postprocess(hook, **kwargs):
                hook.peak_used = max(hook.peak_used, hook.pool.used_bytes())
                hook.peak_held = max(hook.peak_held, hook.pool.total_bytes())

        self.hook = _Hook()

    def __enter__(self):
        self.hook.__enter__()
        return self

    def __exit__(self, *exc):
        self.hook.__exit__(*exc)

    def reset(self) -> None:
        self.hook.peak_used = self.hook.pool.used_bytes()
        self.hook.peak_held = self.hook.pool.total_bytes()

    def snapshot(self) -> dict[str, float]:
        import cupy as cp

        free, total = cp.cuda.runtime.memGetInfo()
        return {
            "peak_used_gib": self.hook.peak_used / 2**30,
            "peak_over_start_gib": (self.hook.peak_used - self.hook.base_used) / 2**30,
            "peak_pool_gib": self.hook.peak_held / 2**30,
            "used_now_gib": self.hook.pool.used_bytes() / 2**30,
            "device_used_now_gib": (total - free) / 2**30,
            "device_total_gib": total / 2**30,
        }


def _free_device() -> None:
    import cupy as cp

    from warpgraph.algorithms.bfs import clear_plans

    clear_plans()
    cp.cuda.Device().synchronize()
    cp.get_default_memory_pool().free_all_blocks()


def large_attempt(scale: int, args) -> dict[str, Any]:
    """Build Kronecker ``scale`` chunk by chunk, then BFS + GPU check from a few sources."""
    import cupy as cp

    from warpgraph.algorithms.bfs.config import _FEATURES
    from warpgraph.algorithms.bfs.verify import verify_levels_gpu
    from warpgraph.generators.chunked import RmatChunks
    from warpgraph.gpu.csr import build_csr_chunked
    from warpgraph.graph import Graph

    _free_device()
    row: dict[str, Any] = {"scale": scale, "edgefactor": 16, "chunk_edges": args.large_chunk}
    with PeakMemory() as peak:
        t0 = time.perf_counter()
        chunks = RmatChunks.kronecker(scale, 16, seed=1, chunk_edges=args.large_chunk,
                                      device="gpu")  # fmt: skip
        phases: dict[str, Any] = {}
        indptr, indices, _ = build_csr_chunked(
            chunks, chunks.num_vertices, directed=False, remove_self_loops=True, merge="min",
            profile=phases,
        )  # fmt: skip
        chunks.release()
        del chunks
        G = Graph(indptr, indices, None, directed=False, validate=False)
        G._num_self_loops = 0  # removed by the build (counting them costs 16 bytes per arc)
        del indptr, indices
        cp.cuda.Device().synchronize()
        row["build_s"] = time.perf_counter() - t0
        row["memory_build"] = peak.snapshot()
        row["build_phases_s"] = phases
        # no self-loops (removed by the build): edges = arcs / 2 (G.num_edges would count
        # loops through a 16-byte-per-arc temporary: 34 GB at scale 27)
        row["n"], row["arcs"], row["edges"] = G.num_vertices, G.num_arcs, G.num_arcs // 2
        row["csr_gib"] = (8 * (G.num_vertices + 1) + G.indices.itemsize * G.num_arcs) / 2**30
        print(f"== kron-{scale} chunked: n={G.num_vertices:,} edges={row['edges']:,} "
              f"build {row['build_s']:.1f} s, peak {row['memory_build']['peak_used_gib']:.1f} "
              f"GiB", flush=True)  # fmt: skip
        deg = cp.diff(G.indptr)
        cand = cp.asnumpy(cp.flatnonzero(deg > 0))
        sources = np.random.default_rng(1).choice(cand, size=args.large_sources, replace=False)
        del cand
        row["sources"] = [int(s) for s in sources]
        t1 = time.perf_counter()
        plan, cfg, feats = gpu_plan(G, None)
        row["plan_s"] = time.perf_counter() - t1
        row["config"], row["features"] = cfg.as_dict(), feats
        levels = cp.empty(G.num_vertices, np.int32)
        times, edges, depth, checks = [], [], [], []
        for s, ms in timed_runs(plan, sources, levels):
            times.append(ms)
            depth.append(plan.info().levels)
            t2 = time.perf_counter()
            reached = verify_levels_gpu(G, s, levels)
            checks.append(time.perf_counter() - t2)
            edges.append(int(deg[levels >= 0].sum()) // 2)
            print(f"   source {s}: {times[-1]:.2f} ms, {depth[-1]} levels, {reached:,} "
                  f"reached, verified on the GPU in {checks[-1]:.2f} s", flush=True)  # fmt: skip
        row["bfs"] = summarize(times, edges)
        row["bfs"]["levels"] = depth
        row["bfs"]["times_ms"] = times
        row["verify_s"] = checks
        row["verified"] = len(checks)
        row["memory_total"] = peak.snapshot()
        row["plan_bytes"] = plan.nbytes()
    _FEATURES.pop(G, None)
    del G, plan, levels, deg
    _free_device()
    return row


def large_compare(scale: int) -> dict[str, Any]:
    """Scale ``scale`` built one-shot (``kronecker``) and chunked: equal arrays, both peaks."""
    import cupy as cp

    from warpgraph import generators as gen

    out: dict[str, Any] = {"scale": scale}
    for name, build in (("one_shot", gen.kronecker), ("chunked", gen.kronecker_chunked)):
        _free_device()
        with PeakMemory() as peak:
            t0 = time.perf_counter()
            G = build(scale, 16, seed=1, device="gpu")
            cp.cuda.Device().synchronize()
            out[name] = {"build_s": time.perf_counter() - t0, **peak.snapshot()}
        out[name]["arrays"] = (G.indptr, G.indices)
        del G
    a, b = out["one_shot"].pop("arrays"), out["chunked"].pop("arrays")
    out["equal"] = bool(cp.array_equal(a[0], b[0]) and cp.array_equal(a[1], b[1]))
    out["csr_gib"] = (a[0].nbytes + a[1].nbytes) / 2**30
    del a, b
    _free_device()
    print(f"== kron-{scale} one-shot vs chunked: equal={out['equal']}, peak "
          f"{out['one_shot']['peak_used_gib']:.2f} vs {out['chunked']['peak_used_gib']:.2f} GiB, "
          f"build {out['one_shot']['build_s']:.2f} vs {out['chunked']['build_s']:.2f} s",
          flush=True)  # fmt: skip
    return out


def run_large(args) -> dict[str, Any]:
    """The scale test: up from ``--large`` while it fits, down while it does not."""
    import cupy as cp

    t_start = time.perf_counter()
    name = cp.cuda.runtime.getDeviceProperties(cp.cuda.Device().id)["name"]
    name = name.decode() if isinstance(name, bytes) else str(name)
    report: dict[str, Any] = {"device": name, "attempts": []}
    if args.large_compare:
        try:
            report["compare"] = large_compare(args.large_compare)
        except Exception as exc:
            report["compare"] = {"error": repr(exc)[:500]}
        write_json("bfs_large", report, args.out)
    scale, step = args.large, 0
    lo, hi = args.large_min or args.large - 2, args.large_max or args.large + 1
    while lo <= scale <= hi:
        if time.perf_counter() - t_start > args.large_deadline:
            report["stopped"] = f"deadline {args.large_deadline} s reached before scale {scale}"
            break
        try:
            row = large_attempt(scale, args)
            ok = True
        except Exception as exc:  # out of memory above all: record, free, go on
            row = {"scale": scale, "error": repr(exc)[:800]}
            print(f"!! kron-{scale}: {exc!r}"[:800], flush=True)
            ok = False
        if not ok:  # the traceback (and the arrays its frames hold) is gone here
            import gc

            gc.collect()
            _free_device()
        report["attempts"].append(row)
        write_json("bfs_large", report, args.out)
        if ok:
            report["largest_ok"] = max(report.get("largest_ok", 0), scale)
        if step == 0:
            step = 1 if ok else -1
        elif (step == 1) != ok:
            break  # the first failure going up, or the first success going down
        scale += step
    return report


# ---------------------------------------------------------------------------- main
def device_memory() -> dict[str, int]:
    import cupy as cp

    pool = cp.get_default_memory_pool()
    free, total = cp.cuda.runtime.memGetInfo()
    return {"pool_bytes": int(pool.total_bytes()), "device_used_bytes": int(total - free)}


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
        "build_s": build_s,
        "sources": [int(s) for s in sources],
    }
    print(f"== {name}: n={G.num_vertices:,} edges={G.num_edges:,} ({build_s:.1f} s)", flush=True)
    if "gpu" in devices:
        row["gpu"] = time_gpu(G, sources, deg_host)
        print(f"   gpu auto      {row['gpu']['median_ms']:.3f} ms", flush=True)
        if not args.quick:
            row["gpu_top_down"] = time_gpu(G, sources, deg_host, None, "top-down")
            row["gather_bound"] = gather_bound_ms(G)
            row["gpu_top_down"]["over_bound"] = (
                row["gpu_top_down"]["median_ms"] / row["gather_bound"]["gather_ms"]
            )
            row["gpu_level_sync"] = time_gpu(G, sources[: max(4, len(sources) // 4)], deg_host,
                                             {"sync": "level"})  # fmt: skip
        row["gpu_memory"] = device_memory()
        if args.sweep:
            row["sweep"] = run_sweep(G, sources[: args.sweep_sources], deg_host)
        if args.variants is not None:
            row["variants"] = run_variants(
                G, sources[: args.sweep_sources], deg_host, args.variants or None
            )
        if args.profile is not None:
            row["profile"] = profile_variants(
                G, sources[: args.profile_sources], args.profile or None
            )
    Gc = G.to("cpu") if ("cpu" in devices or args.peers) else None
    if "cpu" in devices:
        row["cpu"] = time_cpu(Gc, sources[: args.cpu_sources], deg_host)
        print(f"   cpu auto      {row['cpu']['median_ms']:.3f} ms", flush=True)
        import numba

        row["cpu"]["threads"] = numba.get_num_threads()
    peer_sources = sources[: args.peer_sources]
    peers = args.peers.split(",") if G.num_vertices <= args.peer_max_n else []
    for peer in filter(None, peers):
        fn = {"scipy": time_scipy, "igraph": time_igraph, "networkx": time_networkx}[peer]
        r = fn(Gc, peer_sources, deg_host)
        if r is not None:
            row[peer] = r
            print(f"   {peer:13s} {r['median_ms']:.3f} ms", flush=True)
    if args.gapbs:
        row["gapbs"] = time_gapbs(
            Gc, args.gapbs, args.cpu_sources, args.cpu_threads or os.cpu_count()
        )
    return row


def print_table(rows: list[dict[str, Any]]) -> None:
    cols = ["gpu", "gpu_top_down", "gpu_level_sync", "cpu", "scipy", "igraph", "networkx", "gapbs"]
    header = f"{'graph':24s} {'edges':>12s} " + " ".join(f"{c:>14s}" for c in cols)
    print(header)
    for r in rows:
        cells = []
        for c in cols:
            v = r.get(c)
            cells.append(
                f"{v['median_ms']:14.3f}"
                if isinstance(v, dict) and "median_ms" in v
                else f"{'-':>14s}"
            )
        print(f"{r['graph']:24s} {r['edges']:12,d} " + " ".join(cells))
    print("(median ms per BFS; GTEPS and details in the JSON)")
    for r in rows:
        if "gpu" in r:
            g = r["gpu"]
            extra = ""
            if "gpu_top_down" in r:
                extra = f", top-down {r['gpu_top_down']['over_bound']:.2f}x the gather bound"
            print(
                f"{r['graph']}: GPU {g['gteps_median']:.1f} GTEPS, {g['levels_median']} levels, "
                f"{g['us_per_level']:.2f} us/level{extra}"
            )


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    ap.add_argument("--graphs", default="kron:18,kron:20,grid:1000")
    ap.add_argument("--device", default="gpu", help="gpu, cpu or gpu,cpu")
    ap.add_argument("--sources", type=int, default=64)
    ap.add_argument("--cpu-sources", type=int, default=16)
    ap.add_argument("--peer-sources", type=int, default=4)
    ap.add_argument("--peers", default="scipy,igraph,networkx")
    ap.add_argument("--peer-max-n", type=int, default=2_000_000, help="skip peers above this n")
    ap.add_argument("--gapbs", help="path to GAPBS's bfs binary")
    ap.add_argument("--cpu-threads", type=int, help="Numba threads (and GAPBS OMP threads)")
    ap.add_argument("--datasets", default=str(DATASETS))
    ap.add_argument("--sweep", action="store_true", help="time every engine strategy")
    ap.add_argument("--sweep-sources", type=int, default=16)
    ap.add_argument(
        "--variants",
        nargs="?",
        const="",
        help="time the speed-round variants (docs/BFS.md); optional comma list of name parts",
    )
    ap.add_argument(
        "--profile",
        nargs="?",
        const="",
        help="per-level device profile of the default plan (and the s5 variants named)",
    )
    ap.add_argument("--profile-sources", type=int, default=4)
    ap.add_argument("--quick", action="store_true", help="auto configuration only")
    ap.add_argument("--large", type=int, help="scale test from this Kronecker scale (see above)")
    ap.add_argument("--large-min", type=int, help="lowest scale tried (default --large - 2)")
    ap.add_argument("--large-max", type=int, help="highest scale tried (default --large + 1)")
    ap.add_argument("--large-sources", type=int, default=8)
    ap.add_argument("--large-chunk", type=int, default=1 << 27, help="edges per chunk")
    ap.add_argument("--large-deadline", type=float, default=1e9, help="seconds")
    ap.add_argument("--large-compare", type=int, help="one-shot vs chunked at this scale")
    ap.add_argument("--out", help="JSON output (default benchmarks/results/bfs.json)")
    args = ap.parse_args(argv)
    if args.cpu_threads:
        import numba

        numba.set_num_threads(args.cpu_threads)
    if args.large:
        report = run_large(args)
        path = write_json("bfs_large", report, args.out)
        for r in report["attempts"]:
            if "error" in r:
                print(f"kron-{r['scale']}: failed: {r['error'][:200]}")
                continue
            mem, b = r["memory_total"], r["bfs"]
            print(f"kron-{r['scale']}: {r['edges']:,} edges, build {r['build_s']:.1f} s, peak "
                  f"{mem['peak_used_gib']:.1f} GiB (CSR {r['csr_gib']:.1f} GiB), BFS median "
                  f"{b['median_ms']:.2f} ms ({b['gteps_median']:.1f} GTEPS), "
                  f"{r['verified']} verified on the GPU")  # fmt: skip
        print(f"largest scale that fits: {report.get('largest_ok')}; wrote {path}")
        return 0
    rows = []
    for spec in graph_specs(args.graphs, Path(args.datasets)):
        try:
            rows.append(bench_graph(spec, args))
        except Exception as exc:  # e.g. out of device memory at the largest scales
            print(f"!! {spec}: {exc!r}", file=sys.stderr, flush=True)
            rows.append({"graph": spec, "edges": 0, "error": repr(exc)[:500]})
        write_json("bfs", {"args": vars(args), "results": rows}, args.out)  # after each graph
    path = write_json("bfs", {"args": vars(args), "results": rows}, args.out)
    print_table([r for r in rows if "error" not in r])
    print(f"wrote {path}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
