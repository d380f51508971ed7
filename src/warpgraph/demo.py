"""The main job, ``warpgraph demo``: every algorithm on the best device, checked and timed.

Each :class:`DemoTask` runs a warpgraph function and, when there is one, the SciPy equivalent on
the same input, checks that the answers agree, and reports both times. Algorithm issues add their
tasks to :data:`TASKS`, so the demo grows with the library.
"""

from __future__ import annotations

import statistics
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from . import _arrays
from .graph import Graph


@dataclass
class DemoContext:
    """What the tasks share: the generated edges, the graph on the chosen device, a CPU copy."""

    device: str
    scale: int
    seed: int
    src: Any = None
    dst: Any = None
    graph: Graph | None = None
    cpu_graph: Graph | None = None
    source: int = 0
    extra: dict = field(default_factory=dict)


@dataclass
class DemoTask:
    """One line of the demo table.

    ``run(ctx)`` returns warpgraph's answer, ``reference(ctx)`` SciPy's (or None when SciPy has
    no such algorithm), and ``check(ours, theirs, ctx)`` returns True when they agree (or, with no
    reference, when warpgraph's own verifier accepts the answer).
    """

    name: str
    run: Callable[[DemoContext], Any]
    check: Callable[[Any, Any, DemoContext], bool]
    reference: Callable[[DemoContext], Any] | None = None
    reference_name: str = "SciPy"
    reference_max_arcs: int | None = None  # skip the reference (too slow) on larger graphs


@dataclass
class DemoResult:
    name: str
    seconds: float
    reference_seconds: float | None
    ok: bool
    note: str = ""


def _sync(device: str) -> None:
    if device == "gpu":
        from .device import cupy

        cupy().cuda.Device().synchronize()


def timed(
    fn: Callable[[], Any], device: str, repeat: int = 3, warmup: bool = True
) -> tuple[Any, float]:
    """Median wall time of ``repeat`` runs, after one warm-up run (compilation, caches)."""
    if warmup:
        fn()
        _sync(device)
    times = []
    for _ in range(repeat):
        t0 = time.perf_counter()
        out = fn()
        _sync(device)
        times.append(time.perf_counter() - t0)
    return out, statistics.median(times)


# ---------------------------------------------------------------------------- built-in tasks
def _build(ctx: DemoContext) -> Graph:
    return Graph.from_edges(ctx.src, ctx.dst, directed=False, merge="first", device=ctx.device)


def _build_scipy(ctx: DemoContext):
    import scipy.sparse as sp

    s, d = _arrays.to_host(ctx.src), _arrays.to_host(ctx.dst)
    n = ctx.cpu_graph.num_vertices
    A = sp.coo_array(
        (np.ones(2 * s.shape[0], np.float32), (np.r_[s, d], np.r_[d, s])), shape=(n, n)
    )
    return A.tocsr()  # sums duplicates


def _check_build(G: Graph, A, ctx: DemoContext) -> bool:
    A.sort_indices()
    return bool(
        np.array_equal(_arrays.to_host(G.indptr), A.indptr)
        and np.array_equal(_arrays.to_host(G.indices), A.indices)
    )


def _bfs(ctx: DemoContext):
    from .algorithms.bfs import bfs  # noqa: PLC0415

    return bfs(ctx.graph, ctx.source, parents=True, device=ctx.device)


def _check_bfs(ours, theirs, ctx: DemoContext) -> bool:
    from .algorithms.bfs import verify_bfs  # noqa: PLC0415

    levels, parents = (_arrays.to_host(a) for a in ours)
    verify_bfs(ctx.cpu_graph, ctx.source, levels, parents)  # Graph500 checks; raises if wrong
    return bool(np.array_equal(levels, theirs))


def _levels_scipy(ctx: DemoContext):
    from scipy.sparse import csgraph

    d = csgraph.shortest_path(ctx.extra["A"], unweighted=True, indices=ctx.source)
    return np.where(np.isinf(d), -1, d).astype(np.int32)


def _wcc(ctx: DemoContext):
    from .algorithms.components import connected_components  # noqa: PLC0415

    count, labels = connected_components(ctx.graph, connection="weak", device=ctx.device)
    return count, int(np.bincount(_arrays.to_host(labels)).max())


def _wcc_scipy(ctx: DemoContext):
    from scipy.sparse import csgraph

    count, labels = csgraph.connected_components(ctx.extra["A"], directed=False)
    return count, int(np.bincount(labels).max())


def _directed(ctx: DemoContext) -> Graph:
    """The generated edges as a directed graph (built once, on the first, untimed call)."""
    if "D" not in ctx.extra:
        ctx.extra["D"] = Graph.from_edges(ctx.src, ctx.dst, merge="first", device=ctx.device)
        ctx.extra["AD"] = ctx.extra["D"].to("cpu").to_scipy()
    return ctx.extra["D"]


def _scc(ctx: DemoContext):
    from .algorithms.components import connected_components  # noqa: PLC0415

    return connected_components(_directed(ctx), connection="strong", device=ctx.device)


def _scc_scipy(ctx: DemoContext):
    from scipy.sparse import csgraph

    return csgraph.connected_components(ctx.extra["AD"], directed=True, connection="strong")


def _same_partition(ours, theirs, ctx: DemoContext) -> bool:
    # renumbered by smallest vertex, equal partitions give equal label arrays
    from .algorithms.components.reference import canonical_numbering  # noqa: PLC0415

    k1, a = canonical_numbering(_arrays.to_host(ours[1]))
    k2, b = canonical_numbering(np.asarray(theirs[1]))
    return int(ours[0]) == int(theirs[0]) == k1 == k2 and bool(np.array_equal(a, b))


def pagerank_scipy(A, alpha: float = 0.85, max_iter: int = 100, tol: float = 1e-6):
    """PageRank of the SciPy matrix ``A`` (``A[u, v]``: the weight of arc ``u -> v``) by NumPy and
    SciPy alone, NetworkX's ``_pagerank_scipy`` step for step: ``P = diag(1 / s) @ A`` for the
    row sums ``s``, uniform start and teleport, dangling rank spread uniformly, ``x' = alpha *
    (x @ P + sum(x[dangling]) / n) + (1 - alpha) / n`` until ``|x' - x|_1 < n * tol``.

    Returns ``(ranks, iterations)``; :class:`~warpgraph.errors.ConvergenceError` after
    ``max_iter`` steps. The independent check of ``warpgraph.pagerank`` (``warpgraph demo``)
    and its SciPy peer in ``benchmarks/pagerank.py``.
    """
    import scipy.sparse as sp

    from .errors import ConvergenceError  # noqa: PLC0415

    n = A.shape[0]
    s = np.asarray(A.sum(axis=1), dtype=np.float64).ravel()
    dangling = s == 0
    inv = np.divide(1.0, s, out=np.zeros(n), where=~dangling)
    P = sp.csr_array(sp.diags_array(inv) @ A)
    x = np.full(n, 1.0 / n)
    for step in range(1, max_iter + 1):
        last = x
        x = alpha * (x @ P + x[dangling].sum() / n) + (1.0 - alpha) / n
        if np.abs(x - last).sum() < n * tol:
            return x, step
    raise ConvergenceError(max_iter, "SciPy power iteration")


def _pagerank(ctx: DemoContext):
    from .algorithms.pagerank import pagerank  # noqa: PLC0415

    return pagerank(_directed(ctx), device=ctx.device, return_iterations=True)


def _pagerank_reference(ctx: DemoContext):
    return pagerank_scipy(ctx.extra["AD"])


def _check_pagerank(ours, theirs, ctx: DemoContext) -> bool:
    from .algorithms.pagerank.verify import verify_pagerank  # noqa: PLC0415

    ranks, steps = _arrays.to_host(ours[0]), int(ours[1])
    D = ctx.extra["D"].to("cpu")
    verify_pagerank(D, ranks, alpha=0.85, tol=1e-6)  # raises if wrong
    return pagerank_agrees(ranks, steps, *theirs, tol=1e-6)


def pagerank_agrees(ranks, steps: int, want, want_steps: int, tol: float) -> bool:
    """Whether two runs of the same power iteration agree: the same steps and ranks equal but
    for rounding (1e-12; for float32 ``ranks``, 2e-5 of each rank plus 1e-9), or, when a last
    change within rounding of ``n * tol`` stopped one of them a step later, one step apart and
    less than ``n * tol`` (L1) between them."""
    ranks = np.asarray(ranks)
    apart = np.abs(ranks.astype(np.float64) - want)
    if apart.size == 0:
        return steps == want_steps
    if steps == want_steps:  # the same steps in another summation order
        if ranks.dtype == np.float32:  # (stored in float32: ~6e-8 a rank, carried over steps)
            return bool((apart <= 2e-5 * np.abs(want) + 1e-9).all())
        return bool(apart.max() <= 1e-12)
    return abs(steps - want_steps) == 1 and float(apart.sum()) < apart.size * tol


def _weighted(ctx: DemoContext) -> Graph:
    """The graph with GAP's integer weights in [1, 255] (symmetric), made once, untimed."""
    if "W" not in ctx.extra:
        from .bench.graphs import add_weights  # noqa: PLC0415

        W = add_weights(ctx.cpu_graph, "gap", seed=ctx.seed)
        ctx.extra["AW"] = W.to_scipy()
        ctx.extra["W"] = W.to(ctx.device)
    return ctx.extra["W"]


def _sssp(ctx: DemoContext):
    from .algorithms.sssp import sssp  # noqa: PLC0415

    return sssp(_weighted(ctx), ctx.source, predecessors=True, device=ctx.device)


def _sssp_scipy(ctx: DemoContext):
    from scipy.sparse import csgraph

    return csgraph.dijkstra(ctx.extra["AW"], directed=True, indices=ctx.source)


def _check_sssp(ours, theirs, ctx: DemoContext) -> bool:
    from .algorithms.sssp import verify_sssp  # noqa: PLC0415

    dist, pred = (_arrays.to_host(a) for a in ours)
    verify_sssp(ctx.extra["W"].to("cpu"), ctx.source, dist, pred)  # raises if wrong
    reached = dist != np.iinfo(dist.dtype).max
    return bool(
        np.array_equal(reached, np.isfinite(theirs))
        and np.array_equal(dist[reached], theirs[reached].astype(np.int64))
    )


def _langford(ctx: DemoContext) -> int:
    from .langford import count  # noqa: PLC0415

    return count(ctx.extra.get("langford_n", 12), method="godfrey", device=ctx.device)


def _check_langford(ours: int, theirs, ctx: DemoContext) -> bool:
    from .langford import KNOWN_COUNTS  # noqa: PLC0415

    return ours == KNOWN_COUNTS[ctx.extra.get("langford_n", 12)]  # OEIS A014552


def _triangles(ctx: DemoContext):
    from .algorithms.triangles import triangles  # noqa: PLC0415

    return triangles(ctx.graph, device=ctx.device)


def _triangles_scipy(ctx):
    A = ctx.extra["A"].copy()
    A.setdiag(0)
    A.eliminate_zeros()
    A.data[:] = 1
    return np.asarray((A @ A).multiply(A).sum(axis=1)).ravel().astype(np.int64) // 2


def _check_triangles(ours, theirs, ctx: DemoContext) -> bool:
    from .algorithms.triangles.verify import verify_triangles  # noqa: PLC0415

    t = _arrays.to_host(ours)
    if theirs is None:  # no SciPy run on a large graph: the recount by another method decides
        verify_triangles(ctx.cpu_graph, t)
        return True
    return bool(np.array_equal(t, theirs))


def _core_numbers(ctx: DemoContext):
    from .algorithms.kcore import core_number

    return core_number(ctx.graph, device=ctx.device)


def _check_core(core, _, ctx: DemoContext):
    from .algorithms.kcore.verify import verify_core_numbers

    verify_core_numbers(ctx.cpu_graph, _arrays.to_host(core))  # raises on a wrong answer
    return True


def _truss(ctx: DemoContext):
    from .algorithms.ktruss import truss_decomposition

    return truss_decomposition(ctx.graph, device=ctx.device)


def _check_truss(truss, _, ctx: DemoContext):
    from .algorithms.ktruss.verify import verify_truss_decomposition

    # The full recount (h-index iteration) takes minutes past a few 100k arcs: local rules there.
    full = ctx.cpu_graph.num_arcs <= TRUSS_RECOUNT_MAX_ARCS
    verify_truss_decomposition(ctx.cpu_graph, _arrays.to_host(truss), recount=full)
    ctx.extra["truss_note"] = "verifier" if full else "verifier, local rules only"
    return True


def _census(ctx: DemoContext):
    from .algorithms.triads import triadic_census

    return triadic_census(ctx.graph, device=ctx.device)  # undirected: all dyads mutual


def _check_census(census, _, ctx: DemoContext):
    from .algorithms.triads.verify import verify_census

    g = ctx.cpu_graph
    s, d, _w = g.edges()
    dyads = int(np.unique(s[s != d].astype(np.int64) * g.num_vertices + d[s != d]).size)
    verify_census(census, g.num_vertices, dyads, dyads)
    return True


TRUSS_RECOUNT_MAX_ARCS = 400_000

TASKS: list[DemoTask] = [
    DemoTask("BFS (direction-optimizing, parent tree)", _bfs, _check_bfs, _levels_scipy),
    DemoTask(
        "SSSP (GAP weights 1..255, predecessors)",
        _sssp,
        _check_sssp,
        _sssp_scipy,
        "SciPy dijkstra",
    ),
    DemoTask("weak components", _wcc, lambda a, b, c: tuple(a) == tuple(b), _wcc_scipy),
    DemoTask("strong components (directed)", _scc, _same_partition, _scc_scipy),
    DemoTask(
        "PageRank (directed, alpha 0.85)",
        _pagerank,
        _check_pagerank,
        _pagerank_reference,
        "SciPy power iteration",
    ),
    DemoTask(
        "triangles per vertex",
        _triangles,
        _check_triangles,
        _triangles_scipy,
        "SciPy (A@A)*A",
        reference_max_arcs=2_500_000,  # the sparse product takes minutes beyond
    ),
    DemoTask("core numbers (verified)", _core_numbers, _check_core),
    DemoTask("truss decomposition (verified)", _truss, _check_truss),
    DemoTask("triad census (verified)", _census, _check_census),
    DemoTask("Langford L(2,12), Godfrey (vs OEIS)", _langford, _check_langford),
]


def run_demo(
    scale: int = 16,
    device: str = "auto",
    seed: int = 1,
    repeat: int = 3,
    log: Callable[[str], None] = print,
) -> tuple[DemoContext, list[DemoResult]]:
    """Generate a Graph500 Kronecker graph and run every demo task on it.

    Returns the context and one :class:`DemoResult` per task (including the CSR build).
    """
    from . import generators
    from .device import resolve_device

    dev = resolve_device(device)
    ctx = DemoContext(device=dev, scale=scale, seed=seed)
    t0 = time.perf_counter()
    ctx.src, ctx.dst = generators.kronecker_edges(scale, 16, seed=seed, device=dev)
    _sync(dev)
    t_gen = time.perf_counter() - t0
    log(
        f"generated Kronecker scale {scale}: {int(ctx.src.shape[0]):,} edges on {dev} "
        f"in {t_gen:.2f} s"
    )
    ctx.graph, t_build = timed(lambda: _build(ctx), dev, repeat)
    ctx.cpu_graph = ctx.graph.to("cpu")
    A, t_ref = timed(lambda: _build_scipy(ctx), "cpu", repeat)
    ctx.extra["A"] = A
    results = [
        DemoResult(
            "build CSR (symmetrize, dedupe)",
            t_build,
            t_ref,
            _check_build(ctx.graph, A, ctx),
            "vs SciPy coo->csr",
        )
    ]
    deg = ctx.cpu_graph.out_degree()
    ctx.source = int(np.random.default_rng(seed).choice(np.flatnonzero(deg)))
    for task in TASKS:
        ours, t = timed(lambda task=task: task.run(ctx), dev, repeat)
        theirs, t_ref = (None, None)
        limit = task.reference_max_arcs
        if task.reference is not None and (limit is None or ctx.cpu_graph.num_arcs <= limit):
            # SciPy needs no warm-up (no JIT) and some references are slow: time one run.
            theirs, t_ref = timed(lambda task=task: task.reference(ctx), "cpu", 1, warmup=False)
        try:
            ok = bool(task.check(ours, theirs, ctx))
        except Exception as exc:  # a checker crash is a failed check, reported as such
            ok, note = False, f"check raised {exc!r}"
        else:
            note = "" if task.reference is None else f"vs {task.reference_name}"
            note = ctx.extra.pop("truss_note", note)
        results.append(DemoResult(task.name, t, t_ref, ok, note))
        log(f"  {task.name}: {t * 1e3:.3g} ms, check {'ok' if ok else 'FAILED'}")
    return ctx, results
