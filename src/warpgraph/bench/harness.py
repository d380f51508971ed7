"""The benchmark harness: algorithms x graphs x devices x configurations x peers.

For every graph (a file or a generator spec) the harness builds the graph once on the CPU, draws
the sources once (``sources`` distinct random vertices with a neighbour, seeded), and then for
every algorithm runs

* warpgraph on every device and configuration: ``prepare`` (untimed), ``warmup`` untimed runs,
  then ``repeat`` timed runs per source (CUDA events on the GPU, wall clock on the CPU), the
  first runs checked by the algorithm's verifier (outside the timing);
* every requested peer that is installed, on the same sources, after converting the graph to the
  peer's own structure (untimed; NetworkX only below a size guard);
* GAPBS when a path to its binaries is given;
* when an energy sampler works on that device (NVML on the GPU, RAPL on the CPU), a separate
  loop of back-to-back runs over the sources, at least ``energy_seconds`` long, measured for
  energy, power, clocks and throttling (the Graph500 reference's "energy loop": power needs a
  region longer than the sensors' update period, which one BFS is not).

Each finished cell is written at once as one JSON line (:mod:`warpgraph.bench.results`), so an
interrupted run keeps everything that finished. A cell that fails (an exception, a failed
verification) is recorded with ``status: "failed"`` and the run goes on.

Examples
--------
>>> import tempfile, os
>>> out = os.path.join(tempfile.mkdtemp(), "r.jsonl")
>>> plan = BenchPlan(algorithms=["csr_build"], graphs=[], devices=["cpu"], output=out)
>>> run_plan(plan)
[]
"""

from __future__ import annotations

import tempfile
import time
import traceback
import uuid
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..device import resolve_device
from ..errors import InvalidArgumentError, VerificationError
from ..graph import Graph
from .energy import EnergySampler
from .env import environment, package_version
from .graphs import GraphInfo, GraphSpec, add_weights, load_graph, parse_graph_spec, pick_sources
from .registry import Algorithm, Outcome, Peer, get_registry
from .results import SCHEMA, ResultWriter
from .summary import summarize, teps_statistics
from .timing import synchronize, time_call

__all__ = ["BenchPlan", "run_plan"]

VERIFY_MODES = ("auto", "all", "none")
AUTO_VERIFY_RUNS = 4


@dataclass
class BenchPlan:
    """What to run; every field has the command line's default.

    Attributes
    ----------
    algorithms : list of str
        Registry names (``warpgraph bench --list`` shows them).
    graphs : list of str, Graph or (str, Graph)
        File paths or generator specs (``kronecker:scale=20``, ``grid:1000x1000``), or graphs
        already in memory (optionally with a name).
    devices : list of str
        ``"auto"``, ``"cpu"``, ``"gpu"``.
    configs : list of dict
        Keyword arguments for the algorithm; one cell per configuration.
    peers : list of str or None
        Peer systems to run (``None``: every installed peer; ``[]``: none).
    gapbs : str or None
        Directory (or binary) of GAPBS.
    gapbs_sources : {"own", "same"}
        GAPBS picks its own sources in one process, or runs ours one process per source.
    gapbs_args : list of str
        Extra arguments for every GAPBS binary (for example ``["-d", "2"]`` for SSSP's delta).
    sources, repeat, warmup, seed : int
        Sources per traversal, timed runs per source, untimed runs first, source/weight seed.
    trials : int
        Timed runs of algorithms that take no source (CSR build, statistics, PageRank...).
    verify : {"auto", "all", "none"}
        ``"auto"`` checks the first four runs of each warpgraph cell.
    energy_seconds : float
        Minimum length of the energy loop (0 disables energy measurement).
    peer_max_arcs : dict
        Size guards per peer system (arcs), overriding the adapters' defaults.
    directed : bool or None
        How to read files (``None``: the format's convention).
    output : str or None
        JSON-lines file to append to (``None``: do not write).
    """

    algorithms: list[str]
    graphs: list[str | Graph | tuple[str, Graph]]
    devices: list[str] = field(default_factory=lambda: ["auto"])
    configs: list[dict] = field(default_factory=lambda: [{}])
    peers: list[str] | None = None
    gapbs: str | None = None
    gapbs_sources: str = "own"
    gapbs_args: list[str] = field(default_factory=list)
    sources: int = 64
    repeat: int = 1
    warmup: int = 1
    seed: int = 0
    trials: int = 8
    verify: str = "auto"
    energy_seconds: float = 0.5
    peer_max_arcs: dict[str, int] = field(default_factory=dict)
    directed: bool | None = None
    full_stats: bool = True
    output: str | None = None

    def check(self) -> None:
        """Raise :class:`InvalidArgumentError` for values that cannot work."""
        if self.verify not in VERIFY_MODES:
            raise InvalidArgumentError(f"verify must be one of {VERIFY_MODES}, got {self.verify!r}")
        if self.gapbs_sources not in ("own", "same"):
            raise InvalidArgumentError("gapbs_sources must be 'own' or 'same'")
        for name, value, low in (
            ("sources", self.sources, 1),
            ("repeat", self.repeat, 1),
            ("warmup", self.warmup, 0),
            ("trials", self.trials, 1),
        ):
            if int(value) < low:
                raise InvalidArgumentError(f"{name} must be >= {low}, got {value}")
        if self.energy_seconds < 0:
            raise InvalidArgumentError("energy_seconds must be >= 0")
        if not self.configs:
            self.configs = [{}]


class _Cell:
    """Measures one system on one graph: warm-up, timed runs, verification, energy loop."""

    def __init__(self, plan: BenchPlan, device: str, sampler: EnergySampler | None):
        self.plan, self.device, self.sampler = plan, device, sampler

    def measure(
        self,
        call: Callable[[int | None], Any],
        sources: list[int | None],
        work_of: Callable[[int | None, Any], dict[str, int]],
        verify: Callable[[int | None, Any], None] | None,
    ) -> dict[str, Any]:
        plan, device = self.plan, self.device
        for _ in range(plan.warmup):
            call(sources[0])
            synchronize(device)
        runs, timer, verified_runs = [], "wall", 0
        limit = {"auto": AUTO_VERIFY_RUNS, "all": None, "none": 0}[plan.verify]
        for s in sources:
            for r in range(plan.repeat):
                t = time_call(lambda s=s: call(s), device)
                timer = t.timer
                out = t.result
                result = out.result if isinstance(out, Outcome) else out
                work = out.work if isinstance(out, Outcome) and out.work else work_of(s, result)
                runs.append(
                    {"source": s, "seconds": t.seconds, "wall_seconds": t.wall_seconds, **work}
                )
                if verify is not None and r == 0 and (limit is None or verified_runs < limit):
                    verify(s, result)
                    verified_runs += 1
                del out, result, t
        fields = self._summary(runs, timer)
        fields["verified"] = (verified_runs > 0) if verify is not None and limit != 0 else None
        fields["verified_runs"] = verified_runs
        fields["energy"] = self._energy(call, sources, runs, fields["teps"])
        return fields

    @staticmethod
    def _summary(runs: list[dict], timer: str) -> dict[str, Any]:
        seconds = [r["seconds"] for r in runs]
        edges = [r.get("edges") for r in runs]
        teps = None
        if runs and all(e for e in edges) and all(t > 0 for t in seconds):
            teps = teps_statistics(seconds, edges)
            teps["gteps"] = teps["harmonic_mean_TEPS"] / 1e9
        return {"timer": timer, "runs": runs, "times": summarize(seconds), "teps": teps}

    def _energy(self, call, sources, runs, teps) -> dict[str, Any] | None:
        sampler, plan = self.sampler, self.plan
        if sampler is None or not sampler.available or plan.energy_seconds <= 0:
            return None
        work = {r["source"]: r.get("edges") or 0 for r in runs}
        count, edges = 0, 0
        with sampler.measure() as m:
            t0 = time.perf_counter()
            while time.perf_counter() - t0 < plan.energy_seconds:
                for s in sources:
                    call(s)
                    synchronize(self.device)
                    count += 1
                    edges += work.get(s, 0)
                    if time.perf_counter() - t0 >= plan.energy_seconds:
                        break
        e = m.reading.to_dict()
        e["runs"] = count
        joules = e.get("energy_j")
        e["energy_per_run_j"] = joules / count if joules and count else None
        e["edges_per_joule"] = edges / joules if joules and edges else None
        power = e.get("avg_power_w")
        e["teps_per_watt"] = teps["harmonic_mean_TEPS"] / power if teps and power else None
        return e


def _blank(base: dict[str, Any], **fields: Any) -> dict[str, Any]:
    rec = {
        "schema": SCHEMA,
        "run_id": None,
        "time": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
        "status": "ok",
        "error": None,
        "system": None,
        "system_version": None,
        "algorithm": None,
        "work_kind": None,
        "device": None,
        "config": {},
        "graph": None,
        "timer": None,
        "warmup": None,
        "runs": [],
        "times": summarize([]),
        "teps": None,
        "energy": None,
        "verified": None,
        "verified_runs": 0,
        "prepare_seconds": None,
        "note": None,
        "env": None,
    }
    rec.update(base)
    rec.update(fields)
    return rec


def _work_kind(alg: Algorithm) -> str:
    return alg.work if isinstance(alg.work, str) else "custom"


def _failure(exc: BaseException) -> str:
    if isinstance(exc, VerificationError):
        return f"verification failed: {exc}"
    frames = traceback.extract_tb(exc.__traceback__)
    where = f" (at {frames[-1].filename}:{frames[-1].lineno})" if frames else ""
    return f"{type(exc).__name__}: {exc}{where}"


class _Runner:
    def __init__(self, plan: BenchPlan, emit: Callable[[dict], None]):
        self.plan = plan
        self.emit = emit
        self.registry = get_registry()
        self.algorithms = [self.registry.algorithm(a) for a in plan.algorithms]
        self.devices = list(dict.fromkeys(resolve_device(d) for d in plan.devices))
        self.env = environment(gpu="gpu" in self.devices)
        self.base = {"run_id": uuid.uuid4().hex[:12], "env": self.env}
        self.samplers: dict[str, EnergySampler | None] = {}
        if plan.energy_seconds > 0:
            for d in {*self.devices, "cpu"}:
                self.samplers[d] = EnergySampler(d)
        self.gapbs_dir = None
        if plan.gapbs:
            from .gapbs import find_gapbs

            self.gapbs_dir = find_gapbs(plan.gapbs)
        self._tmp = tempfile.TemporaryDirectory(prefix="warpgraph-bench-")

    def close(self) -> None:
        for s in self.samplers.values():
            if s is not None:
                s.close()
        self._tmp.cleanup()

    # ------------------------------------------------------------------ one graph
    def run_graph(self, item: str | Graph | tuple[str, Graph]) -> None:
        plan = self.plan
        if isinstance(item, Graph):
            item = (f"graph(n={item.num_vertices},m={item.num_edges})", item)
        if isinstance(item, tuple):
            spec, G = GraphSpec(item[0], "memory"), item[1].to("cpu")
        else:
            spec = parse_graph_spec(item)
            G = load_graph(spec, directed=plan.directed, seed=plan.seed)
        info = GraphInfo(G, spec, full_stats=plan.full_stats)
        sources = [int(s) for s in pick_sources(G, plan.sources, plan.seed)] if G.num_arcs else []
        for alg in self.algorithms:
            reason = alg.available()
            if reason:
                self.emit(self._skip(alg.name, info, "warpgraph", None, reason))
                continue
            ainfo = info
            if alg.weights and not G.is_weighted:
                ainfo = GraphInfo(add_weights(G, alg.weights, plan.seed), spec, full_stats=False)
                ainfo._components, ainfo._work = info._components, info._work
                ainfo._stats = {**info.stats(), "weighted": True, "weights": alg.weights}
            srcs: list[int | None] = sources if alg.sources else [None] * plan.trials
            if alg.sources and not sources:
                reason = "no vertex has a neighbour"
                self.emit(self._skip(alg.name, ainfo, "warpgraph", None, reason))
                continue
            for device in self.devices:
                for config in plan.configs:
                    self.emit(self._warpgraph_cell(alg, ainfo, srcs, device, config))
            for peer in self._peers(alg.name):
                self.emit(self._peer_cell(peer, alg, ainfo, srcs))
            if self.gapbs_dir is not None:
                self.emit(self._gapbs_cell(alg, ainfo, srcs, spec))

    def _skip(self, algorithm, info, system, device, reason) -> dict:
        return _blank(
            self.base,
            status="skipped",
            error=reason,
            system=system,
            algorithm=algorithm,
            device=device,
            graph=info.stats(),
        )

    def _work_of(self, alg: Algorithm, info: GraphInfo):
        if alg.work == "traversal":
            return lambda s, result: info.traversal_work(s)
        if alg.work == "graph":
            return lambda s, result: info.graph_work()
        return lambda s, result: alg.work(info, s, result)

    # ------------------------------------------------------------------ warpgraph
    def _warpgraph_cell(self, alg, info, srcs, device, config) -> dict:
        rec = _blank(
            self.base,
            system="warpgraph",
            system_version=self.env["versions"]["warpgraph"],
            algorithm=alg.name,
            work_kind=_work_kind(alg),
            device=device,
            config=dict(config),
            graph=info.stats(),
            warmup=self.plan.warmup,
        )
        if device not in alg.devices:
            rec.update(status="skipped", error=f"{alg.name} does not run on the {device}")
            return rec
        try:
            t0 = time.perf_counter()
            Gd = info.graph.to(device)
            state = alg.prepare(Gd, device, dict(config)) if alg.prepare else Gd
            synchronize(device)
            rec["prepare_seconds"] = time.perf_counter() - t0
            verify = None
            if alg.verify is not None:
                verify = lambda s, result: alg.verify(info, s, result)  # noqa: E731
            cell = _Cell(self.plan, device, self.samplers.get(device))
            rec.update(
                cell.measure(
                    lambda s: alg.run(state, s, device, dict(config)),
                    srcs,
                    self._work_of(alg, info),
                    verify,
                )
            )
        except KeyboardInterrupt:
            raise
        except Exception as exc:
            rec.update(status="failed", error=_failure(exc))
            if isinstance(exc, VerificationError):
                rec["verified"] = False
        return rec

    # ------------------------------------------------------------------ peers
    def _peers(self, algorithm: str) -> list[Peer]:
        peers = self.registry.peers_of(algorithm)
        if self.plan.peers is None:
            return list(peers.values())
        return [peers[p] for p in self.plan.peers if p in peers]

    def _peer_cell(self, peer: Peer, alg: Algorithm, info: GraphInfo, srcs) -> dict:
        rec = _blank(
            self.base,
            system=peer.system,
            system_version=peer.version(),
            algorithm=alg.name,
            work_kind=_work_kind(alg),
            device="cpu",
            graph=info.stats(),
            warmup=self.plan.warmup,
            note=peer.description,
        )
        reason = peer.available()
        guard = self.plan.peer_max_arcs.get(peer.system, peer.max_arcs)
        if reason is None and guard is not None and info.graph.num_arcs > guard:
            reason = (
                f"graph has {info.graph.num_arcs:,} arcs, above the {peer.system} size guard "
                f"({guard:,}; raise it with --peer-max-arcs {peer.system}=N)"
            )
        if reason:
            rec.update(status="skipped", error=reason)
            return rec
        try:
            t0 = time.perf_counter()
            native = peer.prepare(info.graph)
            rec["prepare_seconds"] = time.perf_counter() - t0
            cell = _Cell(self.plan, "cpu", self.samplers.get("cpu"))
            rec.update(
                cell.measure(lambda s: peer.run(native, s), srcs, self._work_of(alg, info), None)
            )
        except KeyboardInterrupt:
            raise
        except Exception as exc:
            rec.update(status="failed", error=_failure(exc))
        return rec

    # ------------------------------------------------------------------ GAPBS
    def _gapbs_cell(self, alg: Algorithm, info: GraphInfo, srcs, spec: GraphSpec) -> dict:
        from .gapbs import gapbs_binary, run_gapbs, write_gapbs_graph

        plan = self.plan
        rec = _blank(
            self.base,
            system="gapbs",
            algorithm=alg.name,
            work_kind=_work_kind(alg),
            device="cpu",
            graph=info.stats(),
            timer="gapbs",
            warmup=0,
        )
        kernel = alg.gapbs_kernel
        exe = gapbs_binary(self.gapbs_dir, kernel) if kernel else None
        if exe is None:
            rec.update(
                status="skipped",
                error=f"no GAPBS binary for {alg.name} in {self.gapbs_dir}"
                if kernel
                else f"GAPBS has no kernel for {alg.name}",
            )
            return rec
        rec["system_version"] = package_version("gapbs") or str(exe)
        try:
            t0 = time.perf_counter()
            name = f"{spec.label}-{'w' if info.graph.is_weighted else 'u'}"
            path, sym = write_gapbs_graph(info.graph, self._tmp.name, name)
            rec["prepare_seconds"] = time.perf_counter() - t0
            runs = []
            if plan.gapbs_sources == "same" and srcs[0] is not None:
                for s in srcs:
                    out = run_gapbs(
                        exe,
                        path,
                        symmetrize=sym,
                        trials=plan.repeat,
                        source=s,
                        extra_args=tuple(plan.gapbs_args),
                    )
                    work = info.traversal_work(s) if alg.work == "traversal" else info.graph_work()
                    runs += [
                        {"source": s, "seconds": t, "wall_seconds": None, **work}
                        for t in out["trial_times"]
                    ]
                rec["note"] = "GAPBS run once per source (-r), same sources as warpgraph"
            else:
                trials = len(srcs) * plan.repeat
                out = run_gapbs(
                    exe, path, symmetrize=sym, trials=trials, extra_args=tuple(plan.gapbs_args)
                )
                work = info.graph_work() if alg.work == "graph" else {}
                runs = [
                    {"source": None, "seconds": t, "wall_seconds": None, **work}
                    for t in out["trial_times"]
                ]
                rec["note"] = (
                    "sources picked by GAPBS (random, non-zero out-degree, its own seed); "
                    "TEPS not computed"
                )
            rec.update(_Cell._summary(runs, "gapbs"))
            rec["timer"] = "gapbs"
        except KeyboardInterrupt:
            raise
        except Exception as exc:
            rec.update(status="failed", error=_failure(exc))
        return rec


def run_plan(
    plan: BenchPlan,
    *,
    on_record: Callable[[dict], None] | None = None,
) -> list[dict[str, Any]]:
    """Run every cell of ``plan``; returns the records (also appended to ``plan.output``).

    Parameters
    ----------
    plan : BenchPlan
    on_record : callable, optional
        Called with each record as soon as it is written (progress display).

    Returns
    -------
    list of dict
        The records, in the order they were measured.

    Raises
    ------
    KeyboardInterrupt
        Passed on after the records measured so far were written.
    InvalidArgumentError, DeviceUnavailableError
        For a bad plan (unknown algorithm, GPU requested but absent), before anything runs.
    """
    plan.check()
    records: list[dict[str, Any]] = []
    writer: ResultWriter | None = None

    def emit(rec: dict) -> None:
        records.append(rec)
        if writer is not None:
            writer.write(rec)
        if on_record is not None:
            on_record(rec)

    runner = _Runner(plan, emit)  # checks the plan (algorithms, devices) before any output
    writer = ResultWriter(plan.output) if plan.output else None
    try:
        for item in plan.graphs:
            runner.run_graph(item)
    finally:
        runner.close()
        if writer is not None:
            writer.close()
    return records


def cells_per_graph(plan: BenchPlan) -> int:
    """Number of records a plan writes per graph (for progress bars)."""
    reg = get_registry()
    devices = len(set(plan.devices)) * max(1, len(plan.configs))
    total = 0
    for name in plan.algorithms:
        peers = reg.peers_of(name)
        npeers = len(peers) if plan.peers is None else len([p for p in plan.peers if p in peers])
        total += devices + npeers + (1 if plan.gapbs else 0)
    return total


def default_output() -> str:
    """``warpgraph-bench-YYYYmmdd-HHMMSS.jsonl`` in the current directory."""
    return str(Path.cwd() / time.strftime("warpgraph-bench-%Y%m%d-%H%M%S.jsonl"))
