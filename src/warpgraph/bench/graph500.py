"""The Graph500 benchmark (BFS kernel 2, SSSP kernel 3) and its GreenGraph500 energy figures.

The steps follow the specification (Graph500 3.0):

1. **Generation** (reported, not part of the result): ``edgefactor * 2**SCALE`` Kronecker edge
   tuples (A, B, C = 0.57, 0.19, 0.19, vertex labels permuted) with
   :func:`warpgraph.generators.kronecker_edges`, and for kernel 3 one weight per tuple, uniform in
   ``[0, 1)``. Self-loops and repeated tuples stay in the list.
2. **Kernel 1** (timed, ``construction_time``): the undirected CSR on the device, from the tuples
   where the generator left them. Self-loops are dropped and repeated edges merged keeping the
   lightest weight; the specification allows this since no search result changes.
3. **Search keys**: 64 distinct random vertices whose degree, not counting self-loops, is >= 1
   (fewer when fewer qualify).
4. **Kernel 2** (timed): one BFS per key after one untimed warm-up, each returning a parent
   array; **kernel 3** likewise with distances and parents. Every result is validated against
   the tuple list with the five rules (:mod:`warpgraph.bench.graph500_validate`), untimed; the
   first failure ends the run, prints no statistics, and makes the command exit non-zero.
5. **TEPS**: ``nedge / time`` per search, ``nedge`` being the input tuples inside the searched
   component (a self-loop once, every repeated tuple again), with the statistics of the reference
   code (:func:`warpgraph.bench.summary.teps_statistics`).
6. **Energy loop** (GreenGraph500): after the validated runs, the same searches run back to back
   for at least ``energy_seconds`` while the board energy is measured (NVML on the GPU, RAPL on
   the CPU when readable). Reported: average and peak power, joules per search and
   ``harmonic_mean_TEPS / average watts`` (TEPS per watt).

Times come from CUDA events on the GPU (from the first kernel of the search to the parent array
written in device memory) and from the wall clock on the CPU.

Examples
--------
>>> from warpgraph.bench.graph500 import run_graph500, scipy_bfs_kernel
>>> res = run_graph500(6, 8, device="cpu", num_keys=4, seed=1, bfs=scipy_bfs_kernel,
...                    energy_seconds=0)
>>> res.valid, res.nbfs, res.bfs_teps["harmonic_mean_TEPS"] > 0
(True, 4, True)
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from ..device import resolve_device, to_numpy
from ..errors import WarpgraphError
from .adapters import split_bfs_result, split_sssp_result, warpgraph_function
from .energy import EnergySampler
from .graph500_validate import Graph500ValidationError, validate_bfs_tree, validate_sssp_tree
from .summary import GRAPH500_FIELDS, graph500_statistics, teps_statistics
from .timing import synchronize, time_call

__all__ = [
    "Graph500Result",
    "KernelUnavailableError",
    "format_output",
    "run_graph500",
    "scipy_bfs_kernel",
    "scipy_sssp_kernel",
]

BfsKernel = Callable[[Any, int], Any]


class KernelUnavailableError(WarpgraphError, NotImplementedError):
    """A Graph500 kernel whose warpgraph algorithm does not exist yet."""


@dataclass
class Graph500Result:
    """Everything a Graph500 run measured (times in seconds)."""

    scale: int
    edgefactor: int
    device: str
    seed: int
    keys: list[int] = field(default_factory=list)
    generation_time: float | None = None
    construction_time: float | None = None
    num_tuples: int = 0
    bfs_times: list[float] = field(default_factory=list)
    bfs_nedges: list[int] = field(default_factory=list)
    bfs_validate_times: list[float] = field(default_factory=list)
    sssp_times: list[float] = field(default_factory=list)
    sssp_nedges: list[int] = field(default_factory=list)
    sssp_validate_times: list[float] = field(default_factory=list)
    bfs_energy: dict[str, Any] | None = None
    sssp_energy: dict[str, Any] | None = None
    valid: bool = True
    failure: str | None = None
    failure_detail: dict[str, Any] | None = None
    timer: str = "wall"

    @property
    def nbfs(self) -> int:
        return len(self.bfs_times)

    @property
    def bfs_teps(self) -> dict[str, float] | None:
        if not self.bfs_times:
            return None
        return teps_statistics(self.bfs_times, self.bfs_nedges)

    @property
    def sssp_teps(self) -> dict[str, float] | None:
        if not self.sssp_times:
            return None
        return teps_statistics(self.sssp_times, self.sssp_nedges)

    def to_dict(self) -> dict[str, Any]:
        """Plain dict (the fields, the statistics and the TEPS figures) for JSON."""
        d = {k: v for k, v in self.__dict__.items()}
        d["nbfs"] = self.nbfs
        for kernel in ("bfs", "sssp"):
            times = getattr(self, f"{kernel}_times")
            d[f"{kernel}_time_stats"] = graph500_statistics(times) if times else None
            d[f"{kernel}_nedge_stats"] = (
                graph500_statistics(getattr(self, f"{kernel}_nedges")) if times else None
            )
            d[f"{kernel}_teps"] = getattr(self, f"{kernel}_teps")
        return d


# ----------------------------------------------------------------------------- kernels
def default_bfs_kernel(device: str) -> BfsKernel:
    """``warpgraph.bfs(G, root, parents=True)``, or :class:`KernelUnavailableError`."""
    bfs = warpgraph_function("bfs")
    if bfs is None:
        raise KernelUnavailableError(
            "BFS (kernel 2) is not available yet: warpgraph.bfs arrives with issue 3"
        )
    return lambda G, root: bfs(G, root, parents=True, device=device)


def default_sssp_kernel(device: str) -> BfsKernel:
    """``warpgraph.sssp(G, root, predecessors=True)``, or :class:`KernelUnavailableError`."""
    sssp = warpgraph_function("sssp")
    if sssp is None:
        raise KernelUnavailableError(
            "SSSP not available yet (kernel 3 needs warpgraph.sssp, which arrives with issue 4); "
            "run without --sssp for the BFS benchmark"
        )

    def kernel(G: Any, root: int):
        dist, pred = sssp(G, root, predecessors=True, device=device)
        pred[root] = root  # Graph500's convention; warpgraph.sssp marks the source with -1
        return dist, pred

    return kernel


def scipy_bfs_kernel(G: Any, root: int) -> tuple[np.ndarray, np.ndarray]:
    """A BFS kernel built on SciPy (CPU): ``(levels, parents)``. For tests and comparisons."""
    from scipy.sparse import csgraph

    A = G.to("cpu").to_scipy(dtype=np.int8)
    _, pred = csgraph.breadth_first_order(A, root, directed=True, return_predecessors=True)
    parents = pred.astype(np.int64)
    parents[parents < 0] = -1
    parents[root] = root
    hops = csgraph.shortest_path(A, directed=True, unweighted=True, indices=root)
    levels = np.where(np.isfinite(hops), hops, -1).astype(np.int64)
    return levels, parents


def scipy_sssp_kernel(G: Any, root: int) -> tuple[np.ndarray, np.ndarray]:
    """An SSSP kernel built on SciPy's Dijkstra (CPU): ``(distances, parents)``."""
    from scipy.sparse import csgraph

    dist, pred = csgraph.dijkstra(
        G.to("cpu").to_scipy(), directed=True, indices=root, return_predecessors=True
    )
    parents = pred.astype(np.int64)
    parents[parents < 0] = -1
    parents[root] = root
    return dist, parents


# ----------------------------------------------------------------------------- the run
def _search_keys(G: Any, count: int, seed: int) -> list[int]:
    """``count`` distinct random vertices of degree >= 1 (self-loops were removed by kernel 1)."""
    deg = to_numpy(G.out_degree())
    candidates = np.flatnonzero(deg > 0)
    rng = np.random.default_rng(np.random.SeedSequence([int(seed), 0x67500]))
    if candidates.size <= count:
        keys = rng.permutation(candidates)
    else:
        keys = rng.choice(candidates, size=count, replace=False)
    return [int(k) for k in keys]


def _energy_loop(kernel, G, keys, nedges, device, sampler, seconds, teps) -> dict | None:
    if sampler is None or not sampler.available or seconds <= 0 or not keys:
        return None
    count, edges = 0, 0
    with sampler.measure() as m:
        t0 = time.perf_counter()
        while time.perf_counter() - t0 < seconds:
            for k, e in zip(keys, nedges, strict=True):
                kernel(G, k)
                synchronize(device)
                count += 1
                edges += e
                if time.perf_counter() - t0 >= seconds:
                    break
    e = m.reading.to_dict()
    joules, power = e.get("energy_j"), e.get("avg_power_w")
    e["searches"] = count
    e["energy_per_search_j"] = joules / count if joules and count else None
    e["edges_per_joule"] = edges / joules if joules else None
    e["teps_per_watt"] = teps["harmonic_mean_TEPS"] / power if power and teps else None
    return e


def run_graph500(
    scale: int,
    edgefactor: int = 16,
    *,
    device: str = "auto",
    sssp: bool = False,
    num_keys: int = 64,
    seed: int = 1,
    energy_seconds: float | None = None,
    bfs: BfsKernel | None = None,
    sssp_kernel: BfsKernel | None = None,
    log: Callable[[str], None] | None = None,
) -> Graph500Result:
    """Run the Graph500 benchmark (see the module docstring for the steps).

    Parameters
    ----------
    scale, edgefactor : int
        ``SCALE`` and ``edgefactor`` of the specification (16 for submissions).
    device : {"auto", "cpu", "gpu"}
    sssp : bool
        Also run kernel 3 (needs ``warpgraph.sssp``, or ``sssp_kernel``).
    num_keys : int
        Search keys (64 in the specification).
    seed : int
        Seed of the generator and of the key sampling.
    energy_seconds : float, optional
        Length of the energy loop per kernel; default 2 s when a sampler works on the device,
        0 disables.
    bfs, sssp_kernel : callable, optional
        ``kernel(G, root)`` returning ``(levels, parents)`` / ``(distances, parents)``; default
        ``warpgraph.bfs`` / ``warpgraph.sssp``.
    log : callable, optional
        Receives progress lines.

    Returns
    -------
    Graph500Result
        ``valid`` is False (and ``failure`` says why) when a result failed validation; no
        statistics should then be reported.

    Raises
    ------
    KernelUnavailableError
        When a requested kernel's algorithm does not exist yet (checked before generating).
    """
    from ..generators import kronecker_edges, random_weights
    from ..graph import Graph

    say = log or (lambda _msg: None)
    device = resolve_device(device)
    sssp_fn = None
    if sssp:
        sssp_fn = sssp_kernel or default_sssp_kernel(device)
    bfs_kernel = bfs or default_bfs_kernel(device)
    res = Graph500Result(scale=int(scale), edgefactor=int(edgefactor), device=device, seed=seed)
    n = 1 << int(scale)

    say(f"generating {edgefactor << scale:,} Kronecker edge tuples (SCALE {scale})")
    t0 = time.perf_counter()
    src, dst = kronecker_edges(scale, edgefactor, seed=seed, device=device)
    w = random_weights(len(src), "graph500", seed=seed, device=device) if sssp else None
    synchronize(device)
    res.generation_time = time.perf_counter() - t0
    res.num_tuples = len(src)

    say("kernel 1: building the graph")
    t0 = time.perf_counter()
    G = Graph.from_edges(
        src,
        dst,
        w,
        num_vertices=n,
        directed=False,
        merge="min",
        remove_self_loops=True,
        device=device,
    )
    synchronize(device)
    res.construction_time = time.perf_counter() - t0
    res.keys = _search_keys(G, num_keys, seed)
    if not res.keys:
        res.valid, res.failure = False, "no vertex has a neighbour: nothing to search"
        return res

    sampler = EnergySampler(device)
    if energy_seconds is None:
        energy_seconds = 2.0 if sampler.available else 0.0
    try:
        kernels = [("bfs", bfs_kernel, split_bfs_result)]
        if sssp_fn is not None:
            kernels.append(("sssp", sssp_fn, split_sssp_result))
        for name, kernel, split in kernels:
            kernel(G, res.keys[0])  # warm-up, as the reference code does
            synchronize(device)
            for i, key in enumerate(res.keys):
                t = time_call(lambda key=key, kernel=kernel: kernel(G, key), device)
                res.timer = t.timer
                first, parents = split(t.result)
                t.result = None
                if parents is None:
                    raise WarpgraphError(f"the {name} kernel returned no parent array")
                v0 = time.perf_counter()
                try:
                    if name == "bfs":
                        nedge = validate_bfs_tree(parents, src, dst, key, level=first)
                    else:
                        nedge = validate_sssp_tree(parents, first, src, dst, w, key)
                except Graph500ValidationError as exc:
                    res.valid = False
                    res.failure = f"{name.upper()} {i} (search key {key}): {exc}"
                    res.failure_detail = {
                        "kernel": name,
                        "index": i,
                        "key": key,
                        "rule": exc.rule,
                        "vertex": exc.vertex,
                        "edge": exc.edge,
                    }
                    return res
                getattr(res, f"{name}_times").append(t.seconds)
                getattr(res, f"{name}_nedges").append(nedge)
                getattr(res, f"{name}_validate_times").append(time.perf_counter() - v0)
                say(f"{name} {i}: key {key}, {t.seconds * 1e3:.3f} ms, {nedge:,} edges, valid")
                del first, parents
            teps = teps_statistics(getattr(res, f"{name}_times"), getattr(res, f"{name}_nedges"))
            if energy_seconds > 0:
                say(f"{name}: energy loop of {energy_seconds:g} s")
            setattr(
                res,
                f"{name}_energy",
                _energy_loop(
                    kernel,
                    G,
                    res.keys,
                    getattr(res, f"{name}_nedges"),
                    device,
                    sampler,
                    energy_seconds,
                    teps,
                ),
            )
    finally:
        sampler.close()
    return res


# ----------------------------------------------------------------------------- output
def _line(label: str, value: str) -> str:
    return f"{label + ':':<32}{value}"


def _stats_lines(prefix: str, what: str, values, fmt: str) -> list[str]:
    s = graph500_statistics(values)
    return [_line(f"{prefix}{f}_{what}", format(s[f], fmt)) for f in GRAPH500_FIELDS]


def format_output(res: Graph500Result, *, extra: dict[str, Any] | None = None) -> str:
    """The result block in the reference code's format, then warpgraph's additional fields.

    Invalid runs print the reference's ``No results printed for invalid run.`` and the failure.
    """
    if not res.valid:
        return "No results printed for invalid run.\n" + f"Validation error: {res.failure}\n"
    has_sssp = bool(res.sssp_times)
    out = [
        _line("SCALE", str(res.scale)),
        _line("edgefactor", str(res.edgefactor)),
        _line("NBFS", str(res.nbfs)),
        _line("graph_generation", format(res.generation_time, "g")),
        _line("num_mpi_processes", "1"),
        _line("construction_time", format(res.construction_time, "g")),
    ]
    out += _stats_lines("bfs  ", "time", res.bfs_times, "g")
    if has_sssp:
        out += _stats_lines("sssp ", "time", res.sssp_times, "g")
    out += _stats_lines("", "nedge", res.bfs_nedges, ".11g")
    for prefix, teps in (("bfs  ", res.bfs_teps), ("sssp ", res.sssp_teps if has_sssp else None)):
        if teps is None:
            continue
        for key in ("min", "firstquartile", "median", "thirdquartile", "max"):
            out.append(_line(f"{prefix}{key}_TEPS", format(teps[f"{key}_TEPS"], "g")))
        out.append(f"{prefix}harmonic_mean_TEPS:     !  {teps['harmonic_mean_TEPS']:g}")
        hstd = teps["harmonic_stddev_TEPS"]
        out.append(_line(f"{prefix}harmonic_stddev_TEPS", format(hstd, "g")))
    out += _stats_lines("bfs  ", "validate", res.bfs_validate_times, "g")
    if has_sssp:
        out += _stats_lines("sssp ", "validate", res.sssp_validate_times, "g")
    # Additional fields (permitted by the specification): device, timer, GreenGraph500 energy.
    out.append(_line("device", res.device))
    out.append(_line("timer", res.timer))
    for key, value in (extra or {}).items():
        out.append(_line(key, str(value)))
    for prefix, e in (("bfs  ", res.bfs_energy), ("sssp ", res.sssp_energy)):
        if not e:
            continue
        out.append(_line(f"{prefix}energy_method", str(e.get("method"))))
        for key, label, fmt in (
            ("seconds", "energy_loop_time", "g"),
            ("searches", "energy_loop_searches", "d"),
            ("energy_j", "energy_J", "g"),
            ("avg_power_w", "mean_power_W", "g"),
            ("peak_power_w", "peak_power_W", "g"),
            ("energy_per_search_j", "energy_per_search_J", "g"),
            ("teps_per_watt", "harmonic_mean_TEPS_per_W", "g"),
        ):
            value = e.get(key)
            out.append(_line(f"{prefix}{label}", "-" if value is None else format(value, fmt)))
        reasons = ",".join(e.get("throttle_reasons") or []) or "none"
        out.append(_line(f"{prefix}throttle_reasons", reasons))
    return "\n".join(out) + "\n"


def graph500_records(res: Graph500Result, env: dict[str, Any] | None = None) -> list[dict]:
    """Benchmark-schema records (one per kernel run) so ``warpgraph report`` can show the run.

    Algorithms are named ``graph500_bfs`` and ``graph500_sssp``; the graph is named
    ``graph500-sSCALE-eEDGEFACTOR`` and carries the scale for the GTEPS-vs-scale plot.
    """
    from .results import SCHEMA
    from .summary import summarize

    if not res.valid:
        return []
    n = 1 << res.scale
    graph = {
        "name": f"graph500-s{res.scale}-e{res.edgefactor}",
        "spec": f"kronecker:scale={res.scale},edgefactor={res.edgefactor},seed={res.seed}",
        "origin": "generator",
        "scale": res.scale,
        "edgefactor": res.edgefactor,
        "n": n,
        "tuples": res.num_tuples,
        "directed": False,
    }
    out = []
    stamp = time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())
    for kernel in ("bfs", "sssp"):
        times = getattr(res, f"{kernel}_times")
        if not times:
            continue
        nedges = getattr(res, f"{kernel}_nedges")
        teps = teps_statistics(times, nedges)
        teps["gteps"] = teps["harmonic_mean_TEPS"] / 1e9
        out.append(
            {
                "schema": SCHEMA,
                "run_id": None,
                "time": stamp,
                "status": "ok",
                "error": None,
                "system": "warpgraph",
                "system_version": (env or {}).get("versions", {}).get("warpgraph"),
                "algorithm": f"graph500_{kernel}",
                "work_kind": "traversal",
                "device": res.device,
                "config": {},
                "graph": graph,
                "timer": res.timer,
                "warmup": 1,
                "runs": [
                    {"source": k, "seconds": t, "wall_seconds": None, "edges": e, "arcs": None}
                    for k, t, e in zip(res.keys, times, nedges, strict=False)
                ],
                "times": summarize(times),
                "teps": teps,
                "energy": getattr(res, f"{kernel}_energy"),
                "verified": True,
                "verified_runs": len(times),
                "prepare_seconds": res.construction_time,
                "note": "Graph500: every search validated with the five rules",
                "env": env,
            }
        )
    return out
