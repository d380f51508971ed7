"""NetworkX backend speed: ``nx.f(G, backend="warpgraph")`` against plain NetworkX, end to end.

Every dispatched function runs on the same NetworkX graph (1M+ edges by default) three ways:
plain NetworkX (one run, or the median of ``--nx-repeat`` runs for calls that took under
``--nx-repeat-below`` seconds), warpgraph **cold** (the graph's conversion cache cleared
first, so the time includes converting the NetworkX graph; median of ``--cold-repeat`` such
first calls) and warpgraph **cached** (the
converted graph reused from ``G.__networkx_cache__``, as every call after the first on an
unchanged graph; median of ``--repeat`` runs), on each ``--devices`` entry (set through
``nx.config.backends.warpgraph.device``). Times include turning the result into NetworkX's
Python objects (dicts, sets, graphs) and consuming generators. Each warpgraph result is compared
with NetworkX's (equal values; dicts and graphs compared as NetworkX's types compare; the
floats of ``pagerank``, ``eigenvector_centrality`` and ``katz_centrality`` within ``n * tol``,
``betweenness_centrality``'s to rounding, see
:data:`APPROXIMATE`). Numba
compilation and GPU module loading are excluded by one warm-up pass on a smaller graph and one
untimed call per function on each measured graph (its conversion cleared again before the cold
call; ``--no-warm-each`` skips it).

A NetworkX call slower than ``--nx-timeout`` seconds is stopped (SIGALRM): its time is then a
lower bound and so are the speedups (marked ``>`` in the table).

Graphs: ``urand:S`` (2**S nodes, 8 * 2**S uniform random edges), ``kron:S`` (Graph500
Kronecker, edge factor 16, duplicates merged), ``grid:R`` (R x R lattice), ``tree:S`` (a random
recursive tree of 2**S nodes: the directed graph an arborescence) and ``forest:S`` (the same
tree without the edges into every 64th node: 2**S / 64 trees). The conversions
alone (``convert_from_nx``, best of ``--convert-repeat``; with ``--str-labels`` also the graph
relabelled ``"v0"``, ``"v1"``...) are timed first and recorded per graph, with two floors:
every adjacency entry read once in parallel compiled code (``input_floor_s``) and the
dispatcher's own cost (``dispatch_floor_s``). Each row also records the floor of returning its
result (``result_floor_s``: CPython's own copy of every container of it) and NetworkX's time
over that floor plus the dispatcher's (``ceiling_x``): no backend whose first call builds the
result on one thread, as CPython's copy does, does better (parallel builders can).
Undirected functions use the graph with an int ``weight`` (1..100) on every edge, self-loops
removed (``urand:17:unweighted``: no edge data, so every edge's dict is empty, as in most
users' graphs; weighted functions then take 1 per edge); directed ones the same edges as arcs,
oriented as generated.

Usage::

    python benchmarks/nx_backend.py --graphs urand:17 grid:708 --devices cpu
    python benchmarks/nx_backend.py --graphs urand:17 --conversion-only --str-labels
    python benchmarks/nx_backend.py --graphs urand:17 grid:708 --devices cpu gpu \\
        --out benchmarks/results/networkx_h100.json
"""

from __future__ import annotations

import argparse
import contextlib
import gc
import multiprocessing
import os
import random
import signal
import statistics
import sys
import time
import traceback
import warnings
from collections.abc import Callable
from functools import partial
from itertools import islice
from typing import Any

import networkx as nx
import numba as nb
import numpy as np
from _common import write_json
from _phases import PhaseRecorder

import warpgraph as wg
from warpgraph.nx import FUNCTIONS, _cpython, _dict_layout
from warpgraph.nx.interface import backend_interface

BACKEND = "warpgraph"


# ---------------------------------------------------------------------------- graphs
def parse_spec(spec: str) -> tuple[str, int, bool]:
    """``(kind, size, weighted)`` of a graph spec (``urand:S``, ``kron:S``, ``grid:R``, each
    optionally ending ``:unweighted``), checked without building anything (``SystemExit`` for
    a spec not known)."""
    kind, _, rest = spec.partition(":")
    arg, colon, tail = rest.partition(":")
    if (
        kind not in ("urand", "kron", "grid", "tree", "forest")
        or not arg.isdigit()
        or colon + tail not in ("", ":unweighted")
    ):
        known = "urand:S, kron:S, grid:R, tree:S, forest:S; :unweighted after"
        raise SystemExit(f"unknown graph {spec!r} ({known})")
    return kind, int(arg), tail != "unweighted"


def edges_for(spec: str) -> tuple[int, np.ndarray, np.ndarray]:
    kind, size, _ = parse_spec(spec)
    gen = wg.generators
    if kind == "urand":
        n = 2**size
        s, d = gen.uniform_edges(n, 8 * n, seed=1, device="cpu")
    elif kind == "kron":
        n = 2**size
        s, d = gen.kronecker_edges(size, 16, seed=1, device="cpu")
    elif kind == "grid":
        n = size * size
        s, d = gen.grid_2d_edges(size, size, device="cpu")
    else:  # a random recursive tree (node i's parent uniform among 0..i-1), arcs parent -> child
        n = 2**size
        d = np.arange(1, n, dtype=np.int64)
        s = (np.random.default_rng(1).random(n - 1) * d).astype(np.int64)
        if kind == "forest":  # every 64th node a root: n / 64 trees
            s, d = s[d % 64 != 0], d[d % 64 != 0]
    s, d = wg._arrays.to_host(s).astype(np.int64), wg._arrays.to_host(d).astype(np.int64)
    keep = s != d
    return n, s[keep], d[keep]


def build(spec: str) -> dict[str, Any]:
    """The undirected (weighted unless the spec ends ``:unweighted``) and directed NetworkX
    graphs of a spec, built once."""
    t0 = time.perf_counter()
    weighted = parse_spec(spec)[2]
    n, s, d = edges_for(spec)
    U = nx.Graph()
    U.add_nodes_from(range(n))
    if weighted:
        w = np.random.default_rng(7).integers(1, 101, s.size)
        U.add_weighted_edges_from(zip(s.tolist(), d.tolist(), w.tolist(), strict=True))
    else:  # every edge's data dict empty, as most users' graphs have
        U.add_edges_from(zip(s.tolist(), d.tolist(), strict=True))
    D = nx.DiGraph()
    D.add_nodes_from(range(n))
    D.add_edges_from(zip(s.tolist(), d.tolist(), strict=True))
    rng = random.Random(3)
    nodes = list(U)
    source = next(v for v in iter(lambda: rng.choice(nodes), None) if U.degree(v) > 0)
    info = {
        "spec": spec,
        "nodes": U.number_of_nodes(),
        "edges": U.number_of_edges(),
        "arcs_directed": D.number_of_edges(),
        "weighted": weighted,
        "build_s": time.perf_counter() - t0,
        "source": source,
    }
    return {"U": U, "D": D, "source": source, "info": info}


# ---------------------------------------------------------------------------- the calls
Call = Callable[[Any, Any, dict], Any]


def _list(f):
    return lambda G, s, kw: list(f(G, s, **kw))


def _from_source(f) -> Call:
    """``f(G, source, **kw)``: a case of a function called from the benchmark's source."""
    return lambda G, s, kw: f(G, s, **kw)


def _whole(f) -> Call:
    """``f(G, **kw)``: a case of a function of the whole graph."""
    return lambda G, s, kw: f(G, **kw)


def _listed(result: Any) -> Any:
    """A dict as it is; NetworkX 3.4's iterator of pairs as a list (so both are consumed)."""
    return result if isinstance(result, dict) else list(result)


def _to_cycle(call: Callable[..., Any]) -> Call:
    """``call(G)`` as a list and whether NetworkX's ``NetworkXUnfeasible`` (a cycle) ended it:
    a cyclic graph's topological order is the part before the cycle, then the error."""

    def run(G, s, kw):
        found: list = []
        try:
            found.extend(call(G, **kw))
        except nx.NetworkXUnfeasible:
            return found, "cycle"
        return found, None

    return run


def _or_cycle(call: Callable[..., Any]) -> Call:
    """``call(G)``, or ``"cycle"`` where NetworkX raises ``NetworkXUnfeasible``."""

    def run(G, s, kw):
        try:
            return call(G, **kw)
        except nx.NetworkXUnfeasible:
            return "cycle"

    return run


def _or_not_strongly_connected(call: Callable[..., Any]) -> Call:
    """``call(G)``, or NetworkX's ``NetworkXError`` message (``is_aperiodic`` on a graph that
    is not strongly connected, as the benchmark's directed graphs are)."""

    def run(G, s, kw):
        try:
            return call(G, **kw)
        except nx.NetworkXError as exc:
            return str(exc)

    return run


def _or_no_convergence(f) -> Call:
    """``f(G)``, or ``"no convergence"`` where NetworkX raises
    ``PowerIterationFailedConvergence`` (the same call raises it under both backends)."""

    def run(G, s, kw):
        try:
            return f(G, **kw)
        except nx.PowerIterationFailedConvergence:
            return "no convergence"

    return run


#: Sources of the ``betweenness_centrality`` case (NetworkX: ~1 s per search at 1M edges).
BETWEENNESS_SAMPLE = 32
#: Sources of the ``harmonic_centrality`` case, a seeded sample (NetworkX runs one search per
#: source: every node would be ~25 hours on urand:17).
HARMONIC_SAMPLE = 64
#: Sources of the ``all_pairs_shortest_path_length`` case: the generator's first ones.
ALL_PAIRS_FIRST = 8


def _harmonic_from_sample(G, s, kw):
    sample = random.Random(1).sample(list(G), HARMONIC_SAMPLE)
    return nx.harmonic_centrality(G, sources=sample, **kw)


CASES: dict[str, tuple[str, Call]] = {
    "bfs_layers": ("U", _list(nx.bfs_layers)),
    "bfs_edges": ("U", _list(nx.bfs_edges)),
    "bfs_tree": ("U", _from_source(nx.bfs_tree)),
    "bfs_predecessors": ("U", _list(nx.bfs_predecessors)),
    "bfs_successors": ("U", _list(nx.bfs_successors)),
    "dfs_edges": ("U", _list(nx.dfs_edges)),
    "dfs_tree": ("U", _from_source(nx.dfs_tree)),
    "dfs_predecessors": ("U", _from_source(nx.dfs_predecessors)),
    "dfs_successors": ("U", _from_source(nx.dfs_successors)),
    "dfs_preorder_nodes": ("U", _list(nx.dfs_preorder_nodes)),
    "dfs_postorder_nodes": ("U", _list(nx.dfs_postorder_nodes)),
    "dfs_labeled_edges": ("U", _list(nx.dfs_labeled_edges)),
    "descendants_at_distance": ("U", lambda G, s, kw: nx.descendants_at_distance(G, s, 3, **kw)),
    "single_source_shortest_path_length": (
        "U",
        _from_source(nx.single_source_shortest_path_length),
    ),
    "descendants": ("D", _from_source(nx.descendants)),
    "ancestors": ("D", _from_source(nx.ancestors)),
    "connected_components": ("U", lambda G, s, kw: list(nx.connected_components(G, **kw))),
    "number_connected_components": ("U", _whole(nx.number_connected_components)),
    "is_connected": ("U", _whole(nx.is_connected)),
    "node_connected_component": ("U", _from_source(nx.node_connected_component)),
    "weakly_connected_components": (
        "D",
        lambda G, s, kw: list(nx.weakly_connected_components(G, **kw)),
    ),
    "number_weakly_connected_components": ("D", _whole(nx.number_weakly_connected_components)),
    "is_weakly_connected": ("D", _whole(nx.is_weakly_connected)),
    "strongly_connected_components": (
        "D",
        lambda G, s, kw: list(nx.strongly_connected_components(G, **kw)),
    ),
    "number_strongly_connected_components": ("D", _whole(nx.number_strongly_connected_components)),
    "is_strongly_connected": ("D", _whole(nx.is_strongly_connected)),
    "attracting_components": ("D", lambda G, s, kw: list(nx.attracting_components(G, **kw))),
    "number_attracting_components": ("D", _whole(nx.number_attracting_components)),
    "is_attracting_component": ("D", _whole(nx.is_attracting_component)),
    "is_semiconnected": ("D", _whole(nx.is_semiconnected)),
    "is_aperiodic": ("D", _or_not_strongly_connected(nx.is_aperiodic)),
    "is_directed_acyclic_graph": ("D", _whole(nx.is_directed_acyclic_graph)),
    "topological_sort": ("D", _to_cycle(nx.topological_sort)),
    "topological_generations": ("D", _to_cycle(nx.topological_generations)),
    "dag_longest_path_length": ("D", _or_cycle(nx.dag_longest_path_length)),
    "dag_longest_path": ("D", _or_cycle(nx.dag_longest_path)),
    "condensation": ("D", _whole(nx.condensation)),
    "triangles": ("U", _whole(nx.triangles)),
    "transitivity": ("U", _whole(nx.transitivity)),
    "clustering": ("U", _whole(nx.clustering)),
    "average_clustering": ("U", _whole(nx.average_clustering)),
    "core_number": ("U", _whole(nx.core_number)),
    "onion_layers": ("U", _whole(nx.onion_layers)),
    "closeness_centrality": ("U", _whole(nx.closeness_centrality)),
    "eccentricity": ("U", _whole(nx.eccentricity)),
    "diameter": ("U", _whole(nx.diameter)),
    "average_shortest_path_length": ("U", _whole(nx.average_shortest_path_length)),
    "center": ("U", _whole(nx.center)),  # (undirected trees: linear, tree:S)
    "barycenter": ("U", _whole(nx.barycenter)),
    "wiener_index": ("U", _whole(nx.wiener_index)),
    "k_core": ("U", _whole(nx.k_core)),
    "k_shell": ("U", lambda G, s, kw: nx.k_shell(G, 2, **kw)),
    "k_crust": ("U", _whole(nx.k_crust)),
    "k_corona": ("U", lambda G, s, kw: nx.k_corona(G, 2, **kw)),
    "k_truss": ("U", lambda G, s, kw: nx.k_truss(G, 4, **kw)),
    "triadic_census": ("D", _whole(nx.triadic_census)),
    "single_source_dijkstra_path_length": (
        "U",
        _from_source(nx.single_source_dijkstra_path_length),
    ),
    "multi_source_dijkstra_path_length": (  # the source and the first node
        "U",
        lambda G, s, kw: nx.multi_source_dijkstra_path_length(G, [s, next(iter(G))], **kw),
    ),
    "single_source_dijkstra_path": ("U", _from_source(nx.single_source_dijkstra_path)),
    "single_source_dijkstra": ("U", _from_source(nx.single_source_dijkstra)),
    "dijkstra_predecessor_and_distance": ("U", _from_source(nx.dijkstra_predecessor_and_distance)),
    "single_source_bellman_ford_path": ("U", _from_source(nx.single_source_bellman_ford_path)),
    "single_source_bellman_ford_path_length": (
        "U",
        _from_source(nx.single_source_bellman_ford_path_length),
    ),
    "negative_edge_cycle": ("U", _whole(nx.negative_edge_cycle)),
    "bellman_ford_path_length": (  # to the last node
        "U",
        lambda G, s, kw: nx.bellman_ford_path_length(G, s, len(G) - 1, **kw),
    ),
    "bellman_ford_path": ("U", lambda G, s, kw: nx.bellman_ford_path(G, s, len(G) - 1, **kw)),
    "bellman_ford_predecessor_and_distance": (
        "U",
        _from_source(nx.bellman_ford_predecessor_and_distance),
    ),
    "find_negative_cycle": (  # none here: NetworkX's NetworkXError after the whole search
        "U",
        lambda G, s, kw: _or_not_strongly_connected(
            lambda H, **k: nx.find_negative_cycle(H, s, **k)
        )(G, s, kw),
    ),
    "shortest_path_length": (
        "U",
        lambda G, s, kw: nx.shortest_path_length(G, s, weight="weight", **kw),
    ),
    "single_source_shortest_path": ("U", _from_source(nx.single_source_shortest_path)),
    "single_target_shortest_path": ("U", _from_source(nx.single_target_shortest_path)),
    "single_target_shortest_path_length": (
        "U",
        lambda G, s, kw: _listed(nx.single_target_shortest_path_length(G, s, **kw)),
    ),
    "pagerank": ("D", _whole(nx.pagerank)),
    # (NetworkX's power iterations in Python; on a lattice eigenvector centrality does not
    # converge in 100 steps: both raise, and the raise is the result compared. Katz at alpha
    # 0.01: NetworkX's 0.1 diverges past a largest eigenvalue of 10, common at 1M+ edges)
    "eigenvector_centrality": ("U", _or_no_convergence(nx.eigenvector_centrality)),
    "katz_centrality": (
        "D",
        _or_no_convergence(lambda G, **kw: nx.katz_centrality(G, alpha=0.01, **kw)),
    ),
    "betweenness_centrality": (  # (a seeded sample: NetworkX's one search per node is hours)
        "U",
        lambda G, s, kw: nx.betweenness_centrality(G, k=BETWEENNESS_SAMPLE, seed=1, **kw),
    ),
    "edge_betweenness_centrality": (
        "U",
        lambda G, s, kw: nx.edge_betweenness_centrality(G, k=BETWEENNESS_SAMPLE, seed=1, **kw),
    ),
    "harmonic_centrality": ("U", _harmonic_from_sample),
    "all_pairs_shortest_path_length": (  # (the first sources: the generator is lazy)
        "U",
        lambda G, s, kw: list(islice(nx.all_pairs_shortest_path_length(G, **kw), ALL_PAIRS_FIRST)),
    ),
    "all_pairs_dijkstra_path_length": (
        "U",
        lambda G, s, kw: list(islice(nx.all_pairs_dijkstra_path_length(G, **kw), ALL_PAIRS_FIRST)),
    ),
    "all_pairs_bellman_ford_path_length": (
        "U",
        lambda G, s, kw: list(
            islice(nx.all_pairs_bellman_ford_path_length(G, **kw), ALL_PAIRS_FIRST)
        ),
    ),
    "global_efficiency": ("U", _whole(nx.global_efficiency)),  # (all pairs: NetworkX ~hours)
    "local_efficiency": ("U", _whole(nx.local_efficiency)),
    "harmonic_diameter": ("U", _whole(nx.harmonic_diameter)),  # (all pairs, as global_efficiency)
    "is_tree": ("U", _whole(nx.is_tree)),
    "is_forest": ("U", _whole(nx.is_forest)),
    "is_branching": ("D", _whole(nx.is_branching)),
    "is_arborescence": ("D", _whole(nx.is_arborescence)),
}
#: Functions NetworkX orders strictly: BFS discovery order (on the GPU the wide layers are
#: expanded there, the narrow ones by the sequential pass; the BFS paths too), depth-first
#: order (its stack of row iterators: a sequential pass whatever the device), Tarjan's
#: completion order, Dijkstra's heap order and Bellman-Ford's queue order (sequential passes
#: whatever the device); ``attracting_components`` follows Tarjan's order (the sequential pass
#: where there are two or more); ``condensation`` numbers its nodes in Tarjan's order;
#: ``dag_longest_path``'s ties (common: equal weights) go to the first in ``G.pred`` order, then
#: in Kahn's topological order.
ORDERED = {
    "bfs_layers",
    "bfs_edges",
    "bfs_tree",
    "bfs_predecessors",
    "bfs_successors",
    "dfs_edges",
    "dfs_tree",
    "dfs_predecessors",
    "dfs_successors",
    "dfs_preorder_nodes",
    "dfs_postorder_nodes",
    "dfs_labeled_edges",
    "single_source_shortest_path_length",
    "strongly_connected_components",
    "attracting_components",
    "single_source_dijkstra_path_length",
    "multi_source_dijkstra_path_length",
    "single_source_bellman_ford_path_length",
    "shortest_path_length",
    "single_target_shortest_path_length",
    "single_source_shortest_path",
    "single_target_shortest_path",
    "single_source_dijkstra_path",
    "single_source_dijkstra",
    "single_source_bellman_ford_path",
    "dijkstra_predecessor_and_distance",
    "bellman_ford_path",
    "bellman_ford_predecessor_and_distance",
    "find_negative_cycle",
    "topological_sort",
    "topological_generations",
    "dag_longest_path",
    "condensation",
    "all_pairs_shortest_path_length",
    "all_pairs_dijkstra_path_length",
    "all_pairs_bellman_ford_path_length",
}


#: Functions whose values are floats of an iteration stopped by a tolerance: ``tol`` of the
#: call (NetworkX's default). warpgraph follows the same steps and stopping rule, so the values
#: agree to rounding, or within the L1 change of one step (``< n * tol``) where a change within
#: rounding of ``n * tol`` makes one of the two stop a step later.
APPROXIMATE = {
    "pagerank": 1.0e-6,
    "betweenness_centrality": 1.0e-15,
    "edge_betweenness_centrality": 1.0e-15,
    "eigenvector_centrality": 1.0e-6,
    "katz_centrality": 1.0e-6,
}


def same(ours: Any, theirs: Any, name: str | None = None) -> bool:
    """Equal results; dicts also in the same key order (NetworkX's). For the functions of
    :data:`APPROXIMATE`: the same keys in the same order, ``float`` values within ``n * tol``."""
    if name in APPROXIMATE and isinstance(theirs, dict):  # (else: "no convergence", compared)
        if not (isinstance(ours, dict) and list(ours) == list(theirs)):
            return False
        bound = len(theirs) * APPROXIMATE[name] + 1e-12
        a = np.fromiter(ours.values(), dtype=np.float64, count=len(ours))
        b = np.fromiter(theirs.values(), dtype=np.float64, count=len(theirs))
        types_ok = all(type(v) is float for v in ours.values())
        # (NaN where NetworkX's is NaN: betweenness on a lattice, whose path counts overflow)
        return types_ok and bool(np.all((np.abs(a - b) <= bound) | (np.isnan(a) & np.isnan(b))))
    if isinstance(theirs, nx.Graph):
        return nx.utils.graphs_equal(ours, theirs)
    if isinstance(theirs, dict):
        return ours == theirs and list(ours) == list(theirs)
    return ours == theirs


class Timeout(Exception):
    pass


def _alarm(signum, frame):
    raise Timeout


def timed(fn: Callable[[], Any], timeout: float | None = None) -> tuple[float, Any]:
    """Seconds and result of ``fn()``. A garbage collection runs first, untimed, for NetworkX's
    calls and warpgraph's alike (the collector stays on during the call; the graphs are frozen
    by :func:`run_graph`): a 1M-edge NetworkX graph is millions of tracked objects, and a full
    collection set off by earlier calls' garbage costs ~1 s wherever it falls (likely the
    outliers of 0.8-1.7 s among cold calls of 40-300 ms in the session-6 and 7 runs)."""
    gc.collect()
    if timeout:
        signal.signal(signal.SIGALRM, _alarm)
        signal.setitimer(signal.ITIMER_REAL, timeout)
    t0 = time.perf_counter()
    try:
        out = fn()
    finally:
        if timeout:
            signal.setitimer(signal.ITIMER_REAL, 0)
    return time.perf_counter() - t0, out


def profile_cold(ours_call: Callable[[], Any], G: Any, args, title: str, top: int = 16) -> None:
    """Profile ``args.cold_repeat`` first calls (conversion cache cleared, a collection before
    each, as the timed ones) and append the ``top`` functions by own time to ``args.profile``:
    where a first call's time goes, under the same conditions as the timed calls (a separate
    script that builds its own graphs measured some conversions 3-4x slower than this run)."""
    import cProfile
    import pstats

    prof = cProfile.Profile()
    for _ in range(args.cold_repeat):
        G.__networkx_cache__.clear()
        gc.collect()
        prof.enable()
        ours_call()
        prof.disable()
    stats = pstats.Stats(prof).stats  # (file, line, name): (calls, ncalls, own s, cum s, ..)
    k = args.cold_repeat
    rows = sorted(stats.items(), key=lambda kv: -kv[1][2])[:top]
    lines = [f"== {title}: ms per first call (own, cumulative), calls, function; {k} calls"]
    for (path, line, func), (_, calls, own, cum, _) in rows:
        where = f"{os.path.basename(path)}:{line}({func})" if line else func
        lines.append(f"{1e3 * own / k:9.3f} {1e3 * cum / k:9.3f} {calls // k:6d}  {where}")
    with open(args.profile, "a") as f:
        f.write("\n".join(lines) + "\n")
    G.__networkx_cache__.clear()


def steal_ticks() -> int | None:
    """CPU time the hypervisor gave other guests while this VM's CPUs wanted to run (the
    ``steal`` column of ``/proc/stat``, all CPUs, in clock ticks of usually 10 ms); None where
    there is no such file. Recorded around each cold call: on the lent hosts most 30-100 ms
    outliers among calls of 1-10 ms came with stolen ticks (docs/PERFORMANCE.md, session 14)."""
    try:
        with open("/proc/stat") as f:
            fields = f.readline().split()
    except OSError:
        return None
    return int(fields[8]) if fields[0] == "cpu" and len(fields) > 8 else None


def set_device(dev: str) -> None:
    nx.config.backends.warpgraph.device = dev


# ---------------------------------------------------------------------------- run
def warm_up(names: list[str], devices: list[str], spec: str = "urand:16") -> None:
    """Compile (Numba, CUDA) on a smaller graph so timings exclude it. The graph must be large
    enough to take the same code paths as the measured ones (GPU kernels chosen by size, the
    wide-layer BFS from 2**18 arcs): a 2**9-node warm-up left the GPU SCC kernels to be
    compiled by the first measured call (3.0 s)."""
    small = build(spec)
    for dev in devices:
        set_device(dev)
        for name in names:
            kind, call = CASES[name]
            try:
                call(small[kind], small["source"], {"backend": BACKEND})
            except Exception:  # noqa: BLE001 - reported when it happens on the real graph
                pass
        if dev == "gpu":  # the wide-layer BFS kernels (used from 2**18 arcs): compiled here too
            from warpgraph.nx import traversal

            W = backend_interface.convert_from_nx(small["U"])
            ids = np.array([W.find(small["source"])])
            try:
                traversal._ordered_bfs_gpu(W, ids, -1, 1)
            except Exception:  # noqa: BLE001 - reported when it happens on the real graph
                pass


_WORKER: dict[str, Any] = {}


def _worker_graph(spec: str) -> dict[str, Any]:
    """The graphs of ``spec`` in a NetworkX worker, built there once and frozen for the
    collector as in the measuring process (:func:`run_graph`)."""
    g = _WORKER.get(spec)
    if g is None:
        _WORKER.clear()
        g = _WORKER[spec] = build(spec)
        gc.collect()
        gc.freeze()
    return g


def networkx_timed(
    fn: Callable[[], Any], timeout: float | None, repeat: int, below: float
) -> tuple[float, list[float], Any]:
    """Median seconds, every run's seconds and the result of a plain NetworkX call: run once,
    and ``repeat - 1`` more times when that took under ``below`` seconds (a single run of
    the same call varied by up to 1.8x between the session-8 and 9 runs). Raises Timeout."""
    t, out = timed(fn, timeout)
    times = [t]
    if t < below:
        times += [timed(fn, timeout)[0] for _ in range(repeat - 1)]
    return statistics.median(times), times, out


def _networkx_task(
    spec: str, name: str, timeout: float | None, repeat: int = 1, below: float = 0.0
) -> tuple[float | None, list[float], Any]:
    """One plain NetworkX call in a worker process (see :func:`networkx_timed`): (median
    seconds, all seconds, result), (None, [], None) if stopped."""
    g = _worker_graph(spec)
    kind, call = CASES[name]
    try:
        return networkx_timed(partial(call, g[kind], g["source"], {}), timeout, repeat, below)
    except Timeout:
        return None, [], None


def networkx_runs(g: dict, names: list[str], args) -> dict[str, tuple[float | None, Any]]:
    """Every plain NetworkX call of ``names``, ``--nx-jobs`` at a time, in worker processes
    that each build the graphs themselves (the builder is seeded: the same graphs) and keep
    them for their later calls; the results come back pickled for verification. NetworkX is
    single-threaded: on a many-core host a few run side by side at nearly their own speed,
    and warpgraph is timed afterwards on a quiet machine.

    Not forked from this process (the method until session 7): a forked child copies each
    page of the inherited graph on which it writes a reference count, and the collector's
    walks over the graph wrote on all of them; that made NetworkX a median 1.5x (the BFS
    family 3.4-5x) slower than in a process of its own on the H200 host and inflated the
    speedups of the earlier runs (docs/PERFORMANCE.md, session 7)."""
    ctx = multiprocessing.get_context("spawn")
    spec = g["info"]["spec"]
    pool = ctx.Pool(args.nx_jobs)
    try:
        task_args = (args.nx_timeout, args.nx_repeat, args.nx_repeat_below)
        jobs = {n: pool.apply_async(_networkx_task, (spec, n, *task_args)) for n in names}
        results = {n: job.get() for n, job in jobs.items()}
        pool.close()
    finally:
        pool.terminate()
        pool.join()  # the workers gone, their graphs' memory given back, before any timing
    time.sleep(1.0)
    return results


def run_graph(g: dict, names: list[str], devices: list[str], args) -> list[dict]:
    # The graphs' objects go to the collector's permanent generation while they are measured
    # (NetworkX's workers freeze theirs too): the collection before each timed call is cheap,
    # and no full collection inside a call walks the millions of objects of the graphs.
    gc.collect()
    gc.freeze()
    try:
        return _run_graph(g, names, devices, args)
    finally:
        gc.unfreeze()


def _run_graph(g: dict, names: list[str], devices: list[str], args) -> list[dict]:
    rows = []
    reference = networkx_runs(g, names, args) if args.nx_jobs > 1 else {}
    if args.freeze_reference:
        # NetworkX's results, unpickled here for checking, can be millions of objects (each
        # k_core result a 1M-edge graph). Left to the collector, the collection before each
        # timed call walks all of them and writes to each one's header just before the clock
        # starts: warpgraph's first call then finds its data evicted (session 15, same lease:
        # urand:17 number_connected_components 5.5 ms in a full run, 3.5 ms in nx_ab.py).
        gc.freeze()
    for name in names:
        kind, call = CASES[name]
        G, s = g[kind], g["source"]
        row: dict[str, Any] = {"graph": g["info"]["spec"], "algorithm": name, "input": kind}
        row["networkx_ordered"] = name in ORDERED
        plain = partial(call, G, s, {})
        ours_call = partial(call, G, s, {"backend": BACKEND})
        try:
            if name in reference:
                t, nx_times, theirs = reference.pop(name)
                if t is None:
                    raise Timeout
            else:
                t, nx_times, theirs = networkx_timed(
                    plain, args.nx_timeout, args.nx_repeat, args.nx_repeat_below
                )
            row["networkx_s"] = t
            row["networkx_all_s"] = nx_times
        except Timeout:
            theirs = None
            row["networkx_s"] = None
            row["networkx_timeout_s"] = args.nx_timeout
        ours = None
        row["load_1min"] = os.getloadavg()[0]  # (the threads follow it unless --fixed-threads)
        for dev in devices:
            set_device(dev)
            res: dict[str, Any] = {}
            try:
                if args.warm_each:  # kernels chosen by this graph's size or shape compile here
                    ours_call()
                colds, stolen, records = [], [], []
                recorder = getattr(args, "recorder", None)
                cold_call = ours_call
                if recorder is not None:
                    cold_call = partial(_recorded, recorder, ours_call, records)
                for _ in range(args.cold_repeat):  # each a first call: conversion cleared
                    G.__networkx_cache__.clear()
                    before = steal_ticks()
                    t_cold, ours = timed(cold_call)
                    stolen.append(None if before is None else steal_ticks() - before)
                    colds.append(t_cold)
                res.update(cold_s=statistics.median(colds), cold_all_s=colds)
                if recorder is not None:
                    res["cold_phases"] = records
                if args.profile:  # after the timed calls: the profiler's cost is not timed
                    profile_cold(ours_call, G, args, f"{row['graph']} {name} {dev}")
                res["cold_steal_ticks"] = stolen
                times = [timed(ours_call)[0] for _ in range(args.repeat)]
                res.update(
                    cached_median_s=statistics.median(times),
                    cached_min_s=min(times),
                    repeat=args.repeat,
                    verified=None if theirs is None else bool(same(ours, theirs, name)),
                )
                base = row["networkx_s"] or row.get("networkx_timeout_s")
                res["speedup_cold"] = base / res["cold_s"]
                res["speedup_cached"] = base / res["cached_median_s"]
                res["speedup_is_lower_bound"] = row["networkx_s"] is None
            except Exception as exc:  # noqa: BLE001 - recorded, the run goes on
                res["error"] = f"{type(exc).__name__}: {exc}"
                traceback.print_exc()
            row[dev] = res
        G.__networkx_cache__.clear()
        made = theirs if theirs is not None else ours
        row["result_floor_s"] = result_floor_s(made)
        floor = row["result_floor_s"] + g["info"]["dispatch_floor_s"]
        if row["networkx_s"] is not None:
            row["ceiling_x"] = row["networkx_s"] / floor  # (for a one-thread result build)
        del made
        rows.append(row)
        print_row(row, devices)
    return rows


def _ms(x: float | None) -> str:
    return "-" if x is None else f"{1e3 * x:.2f} ms"


def _fmt_s(x: float | None) -> str:
    return "-" if x is None else (f"{x:.3f}" if x < 100 else f"{x:.0f}")


def print_row(row: dict, devices: list[str]) -> None:
    nx_s = row["networkx_s"]
    cells = [f"{row['graph']:<10} {row['algorithm']:<38}"]
    cells.append(
        f"{_fmt_s(nx_s) if nx_s is not None else '>' + _fmt_s(row['networkx_timeout_s']):>8}"
    )
    for dev in devices:
        res = row.get(dev, {})
        if "error" in res:
            cells.append(f"{dev}: {res['error'][:40]}")
            continue
        mark = ">" if res.get("speedup_is_lower_bound") else ""
        ok = {True: "", False: " WRONG", None: " ?"}[res.get("verified")]
        cells.append(
            f"{dev} {_fmt_s(res['cold_s']):>7} {_fmt_s(res['cached_median_s']):>7} "
            f"{mark}{res['speedup_cold']:>6.1f}x {mark}{res['speedup_cached']:>7.1f}x{ok}"
        )
    if "ceiling_x" in row:
        cells.append(f"floor {_fmt_s(row['result_floor_s'])} ceiling {row['ceiling_x']:.0f}x")
    print("  ".join(cells), flush=True)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    ap.add_argument("--graphs", nargs="+", default=["urand:17", "grid:708"])
    ap.add_argument("--devices", nargs="+", default=["cpu"], choices=["cpu", "gpu"])
    ap.add_argument("--algorithms", nargs="+", default=None, help="default: every dispatched one")
    ap.add_argument("--repeat", type=int, default=3, help="cached warpgraph runs (median)")
    ap.add_argument(
        "--cold-repeat",
        type=int,
        default=3,
        help="cold warpgraph runs, each after clearing the conversion cache (median; one run "
        "until session 8, when single cold calls on the H200 host varied by up to 1.5x)",
    )
    ap.add_argument("--nx-timeout", type=float, default=120.0, help="seconds per NetworkX call")
    ap.add_argument(
        "--nx-repeat",
        type=int,
        default=3,
        help="NetworkX runs (median) of each call whose first run took under --nx-repeat-below "
        "(3 from session 31: a single run includes NetworkX's first-call costs, e.g. grid:708's "
        "descendants_at_distance 0.84 ms first, 0.05 ms after)",
    )
    ap.add_argument("--nx-repeat-below", type=float, default=5.0, help="seconds (see --nx-repeat)")
    ap.add_argument(
        "--nx-jobs",
        type=int,
        default=1,
        help="NetworkX calls run side by side in worker processes before warpgraph is timed "
        "(default 1: one after the other, in this process)",
    )
    ap.add_argument("--warm-up", default="urand:16", help="graph of the compilation pass")
    ap.add_argument(
        "--no-warm-each",
        dest="warm_each",
        action="store_false",
        help="skip the untimed call on each measured graph before its cold call (that call "
        "compiles the kernel variants chosen by the graph's size or shape; the cache is "
        "cleared after it)",
    )
    ap.add_argument(
        "--no-freeze-reference",
        dest="freeze_reference",
        action="store_false",
        help="leave NetworkX's results (kept for checking) to the collector, whose collection "
        "before each timed call then walks them all (the behaviour until session 15)",
    )
    ap.add_argument(
        "--profile",
        default=None,
        metavar="TXT",
        help="also profile --cold-repeat more first calls of each function and device "
        "(cProfile, untimed) and append their costliest functions to this text file",
    )
    ap.add_argument("--out", default=None, help="JSON path (default benchmarks/results/)")
    ap.add_argument(
        "--phases",
        action="store_true",
        help="record each first call's page faults, collections and result-building phases "
        "(_phases.PhaseRecorder) in the JSON as cold_phases; adds a few us per call",
    )
    ap.add_argument("--convert-repeat", type=int, default=3, help="conversions timed (best)")
    ap.add_argument("--str-labels", action="store_true", help="also convert with str labels")
    ap.add_argument("--conversion-only", action="store_true", help="time the conversions only")
    ap.add_argument(
        "--fixed-threads",
        action="store_true",
        help="all Numba threads whatever the 1-minute load average (warpgraph.cpu.threads): "
        "the --nx-jobs workers leave a load of about --nx-jobs behind them, which would cut "
        "warpgraph's threads for the next minute on a machine that is by then quiet",
    )
    args = ap.parse_args(argv)
    if args.fixed_threads:
        from warpgraph.cpu import threads

        threads.DYNAMIC_THREADS = False
    warnings.filterwarnings("ignore", message="Note: conversions to backend graphs")
    for flag in ("repeat", "cold_repeat", "nx_repeat", "convert_repeat"):
        if getattr(args, flag) < 1:
            ap.error(f"--{flag.replace('_', '-')} must be at least 1")
    if args.profile:  # a path that cannot be written fails now, not after the first timings
        try:
            open(args.profile, "a").close()
        except OSError as exc:
            ap.error(f"--profile {args.profile}: {exc.strerror}")
    names = args.algorithms or [n for n in CASES if n in FUNCTIONS]
    unknown = sorted(set(names) - set(CASES))
    if unknown:
        raise SystemExit(f"unknown algorithms {unknown}; known: {sorted(CASES)}")
    print(f"warm-up on {args.devices} ({args.warm_up}) ...", flush=True)
    warm_up(names, args.devices, args.warm_up)
    with PhaseRecorder() if args.phases else contextlib.nullcontext() as recorder:
        args.recorder = recorder
        return _run_graphs(args, names)


def _recorded(recorder: PhaseRecorder, call: Callable[[], Any], records: list) -> Any:
    """``call()`` inside one record of ``recorder``, appended to ``records`` with its ms."""
    recorder.start()
    t0 = time.perf_counter()
    try:
        return call()
    finally:
        ms = (time.perf_counter() - t0) * 1e3
        records.append({"ms": round(ms, 3), **recorder.stop()})


def _run_graphs(args, names: list[str]) -> int:
    """Build each graph of ``args.graphs``, time its conversions and run ``names`` on it;
    the JSON is written after each graph."""
    graphs, rows = [], []
    print(
        f"{'graph':<10} {'algorithm':<38} {'NX s':>8}  "
        + "  ".join(f"{d} cold_s cached_s x_cold x_cached" for d in args.devices)
    )
    for spec in args.graphs:
        g = build(spec)
        info = g["info"]

        def best(*call_args):  # conversion time: best of --convert-repeat
            call = partial(backend_interface.convert_from_nx, *call_args)
            return min(timed(call)[0] for _ in range(args.convert_repeat))

        # Floors no backend goes below: a Python dict / set over every node (results such as
        # core_number and connected_components are made of these), built from ready lists.
        info.update(node_floors(list(g["U"])))
        info["dispatch_floor_s"] = dispatch_floor_s()
        info["input_floor_s"] = input_floor_s(g["U"])
        info["convert_s"] = best(g["U"])
        info["convert_weighted_s"] = best(g["U"], {"weight": 1})
        info["convert_directed_s"] = best(g["D"])
        extra = ""
        if args.str_labels:  # the same graph with str labels ("v17"), weights kept
            S = nx.relabel_nodes(g["U"], {v: f"v{v}" for v in g["U"]})
            info["convert_str_labels_s"] = best(S)
            info["convert_str_labels_weighted_s"] = best(S, {"weight": 1})
            extra = (
                f"; str labels {info['convert_str_labels_s']:.3f} s (weighted "
                f"{info['convert_str_labels_weighted_s']:.3f} s)"
            )
            del S
        print(
            f"# {spec}: {info['nodes']} nodes, {info['edges']} edges; NetworkX graph built in "
            f"{info['build_s']:.1f} s; dict over the nodes {info['node_dict_s']:.3f} s, set "
            f"{info['node_set_s']:.3f} s; every entry read in {_ms(info['input_floor_s'])}; "
            f"conversion {info['convert_s']:.3f} s (weighted "
            f"{info['convert_weighted_s']:.3f} s, directed {info['convert_directed_s']:.3f} s)"
            + extra,
            flush=True,
        )
        graphs.append(info)
        if not args.conversion_only:
            rows.extend(run_graph(g, names, args.devices, args))
        del g
        path = save(args, graphs, rows)  # after each graph: a run cut short keeps what it did
    print(f"wrote {path}")
    return 0


def _at_least_once(repeat: int) -> None:
    if repeat < 1:
        raise ValueError(f"repeat must be at least 1, got {repeat}")


def _copy_plan(result: Any) -> list[tuple[Callable, list]]:
    """The containers a result is made of, grouped by the CPython routine that copies one:
    (``dict.copy``, every dict), (``set.copy``, every set), (``list.copy``, every list). A
    graph is its node-attribute dicts, adjacency rows (successor and predecessor rows of a
    ``DiGraph``), edge-data dicts (each once: an undirected edge's two entries share one) and
    its outer dicts. Scalars make no container."""
    groups: dict[type, dict[int, Any]] = {dict: {}, set: {}, list: {}}

    def add(x: Any) -> None:
        if isinstance(x, nx.Graph):
            outer = [x._node, x._adj] + ([x._pred] if x.is_directed() else [])
            for d in outer:
                groups[dict][id(d)] = d
            for d in x._node.values():
                groups[dict][id(d)] = d
            for rows in outer[1:]:
                for row in rows.values():
                    groups[dict][id(row)] = row
                    for data in row.values():
                        groups[dict][id(data)] = data
            return
        kind = next((t for t in (dict, set, list) if type(x) is t), None)
        if kind is None:
            return
        groups[kind][id(x)] = x
        inner = x.values() if kind is dict else x
        for y in inner:
            if isinstance(y, (dict, set, list, nx.Graph)):
                add(y)

    add(result)
    copy = {dict: dict.copy, set: set.copy, list: list.copy}
    return [(copy[t], list(objs.values())) for t, objs in groups.items() if objs]


def result_floor_s(result: Any, repeat: int = 3) -> float:
    """Best of ``repeat`` seconds to copy every container of ``result`` with CPython's own copy
    routines (``list(map(dict.copy, dicts))``: C loops, no bytecode per object; the collector
    off), 0.0 for a scalar. A copy allocates each container, writes its entries with their
    stored hashes and takes a reference to each item, which building the same result from
    arrays must do as well, and hashes nothing: no backend returns NetworkX's Python objects
    faster. NetworkX's time over this floor bounds the first-call speedup any backend can
    reach."""
    _at_least_once(repeat)
    plan = _copy_plan(result)
    if not plan:
        return 0.0

    def copy_all() -> list:  # the collector off, as warpgraph's builders run (nx._common)
        gc.disable()
        try:
            return [list(map(fn, objs)) for fn, objs in plan]
        finally:
            gc.enable()

    return min(timed(copy_all)[0] for _ in range(repeat))


@nb.njit(parallel=True, cache=True)
def _read_rows(dicts: np.ndarray) -> int:  # pragma: no cover - compiled
    """Every live entry of every row dict read once (its key hash and value address), rows
    prefetched as the conversion's scan does; nothing written but a checksum."""
    total = 0
    rows = dicts.shape[0]
    for i in nb.prange(rows):
        _dict_layout._prefetch_rows_ahead(dicts, i, rows)
        entries, size, kind, count = _dict_layout._table(dicts[i])
        for e in range(count if size else 0):
            v, h = _dict_layout._entry(entries + size * e, kind)
            total += h ^ v
    return total


def input_floor_s(G: nx.Graph, repeat: int = 5) -> float | None:
    """Best of ``repeat`` seconds to read every adjacency entry of ``G`` once, in parallel
    compiled code on all cores (the outer dict's entries, then each row's): what a function
    that looks at every edge reads before any work, however it is done (None where the raw
    dict reader is unavailable)."""
    _at_least_once(repeat)
    if not _cpython.available():
        return None

    def read() -> int:
        found = _cpython.dict_entries(G._adj)
        if found is None:
            raise ValueError("the adjacency is not a plain dict the reader knows")
        return _read_rows(found[1])

    read()  # compiled outside the timing
    return min(timed(read)[0] for _ in range(repeat))


def dispatch_floor_s(repeat: int = 200) -> float:
    """Least seconds NetworkX's dispatcher adds to a call that no backend takes (a dispatched
    function on an empty graph, less the same function called undispatched): a backend call
    passes through the same steps and more (argument conversion, the cache look-up)."""
    _at_least_once(repeat)
    G = nx.Graph()
    f = nx.number_of_isolates

    def best(fn: Callable[[], Any]) -> float:
        times = []
        for _ in range(repeat):
            t0 = time.perf_counter()
            fn()
            times.append(time.perf_counter() - t0)
        return min(times)

    return max(0.0, best(partial(f, G)) - best(partial(f.orig_func, G)))


def node_floors(labels: list) -> dict[str, float]:
    """Best of 3 seconds to build a dict and a set over ``labels`` from ready lists."""
    values = list(range(len(labels)))

    def as_dict():
        return dict(zip(labels, values, strict=True))

    return {
        "node_dict_s": min(timed(as_dict)[0] for _ in range(3)),
        "node_set_s": min(timed(partial(set, labels))[0] for _ in range(3)),
    }


def save(args, graphs: list[dict], rows: list[dict]) -> str:
    # (read here, after the runs: the fast paths' modules loaded earlier would start in a state
    # no user's process has, which hid session 29's self-test failure from the spy scripts)
    from warpgraph.nx import fast_paths

    name = "networkx_" + "_".join(args.devices)
    return write_json(
        name,
        {
            "method": (
                "end to end from a NetworkX graph; NetworkX: median of "
                f"{args.nx_repeat} runs for calls under {args.nx_repeat_below} s, else 1 run; "
                "warpgraph cold = median of "
                f"{args.cold_repeat} runs, each with the conversion cache cleared (after one "
                "untimed call on the graph if warm_each), cached = "
                "median of --repeat runs reusing the conversion; the graphs frozen (gc.freeze) "
                "and gc.collect() before every timed call (untimed; the collector stays on)"
                + (
                    "; NetworkX's results kept for checking frozen too"
                    if args.freeze_reference
                    else ""
                )
                + (
                    f"; NetworkX calls run {args.nx_jobs} at a time in spawned worker processes "
                    "that build the graphs themselves, before warpgraph"
                    if args.nx_jobs > 1
                    else ""
                )
            ),
            "networkx": nx.__version__,
            "networkx_jobs": args.nx_jobs,
            "warm_each": args.warm_each,
            "reference_frozen": args.freeze_reference,  # NetworkX's results out of the walks
            "fixed_threads": args.fixed_threads,  # else fewer threads while the load is high
            "dict_tables_read_in_place": _cpython.available(),  # else Python iterates them
            # which compiled paths ran (a self-test that failed in the first call left the
            # workers' copies off for whole runs before session 29)
            "fast_paths": fast_paths(),
            "graphs": graphs,
            "results": rows,
        },
        args.out,
    )


if __name__ == "__main__":
    sys.exit(main())
