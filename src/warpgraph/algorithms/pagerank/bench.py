"""``warpgraph bench`` adapter for PageRank, and its peers.

Whole-graph work, counted per power step: a run of ``k`` steps reads every arc ``k`` times, so
its work is ``k`` times the graph's edges and arcs (TEPS are then per step, comparable across
tolerances). ``--config`` passes ``alpha``, ``tol``, ``max_iter`` and ``weighted`` to
:func:`warpgraph.pagerank` (NetworkX's defaults otherwise: ``tol=1e-6`` stops a graph of a million
vertices after 1-3 steps); each result is checked by :func:`.verify.verify_pagerank` with the
same ``alpha`` and ``tol``, outside the timed region. The peers run NetworkX's defaults:
SciPy (:func:`warpgraph.demo.pagerank_scipy`, NetworkX's power iteration on a SciPy matrix) and
NetworkX. GAPBS ``pr`` runs beside it with ``--gapbs``: a Gauss-Seidel pull in float32 without
the dangling term, stopped when the L1 change falls below its ``-t`` (default 1e-4, not scaled by
``n``) or after ``-i`` steps (default 20); ``--gapbs-args -i 10 -t 0`` makes it take exactly 10.
"""

from __future__ import annotations

from typing import Any, NamedTuple

from ...bench.adapters import _missing, _nx_prepare
from ...bench.env import package_version
from ...bench.registry import Outcome, register_algorithm, register_peer

NETWORKX_MAX_ARCS = 4_000_000


class PageRankRun(NamedTuple):
    """What one timed run returns: the ranks, the steps taken and the arguments used."""

    ranks: Any
    steps: int
    alpha: float
    tol: float
    weighted: bool


def _run(G, source, device: str, config: dict) -> Outcome:
    from .api import pagerank

    kwargs = {"alpha": 0.85, "tol": 1e-6, "weighted": True, **config}
    ranks, steps = pagerank(G, device=device, return_iterations=True, **kwargs)
    run = PageRankRun(ranks, steps, kwargs["alpha"], kwargs["tol"], kwargs["weighted"])
    return Outcome(run, _per_step(G.num_edges, G.num_arcs, steps))


def _per_step(edges: int, arcs: int, steps: int) -> dict[str, int]:
    return {"edges": edges * steps, "arcs": arcs * steps}


def _work(info, source, result: Any) -> dict[str, int]:
    """Per-step work of a peer's run: SciPy's ``(ranks, steps)``; NetworkX does not say how
    many steps it took (no work, so no TEPS)."""
    if not isinstance(result, tuple):
        return {}
    G = info.graph
    return _per_step(G.num_edges, G.num_arcs, int(result[1]))


def _verify(info, source, result: PageRankRun) -> None:
    from .verify import verify_pagerank

    verify_pagerank(
        info.graph, result.ranks, alpha=result.alpha, tol=result.tol, weighted=result.weighted
    )


def _scipy_pagerank(A, source):
    from ...demo import pagerank_scipy

    return pagerank_scipy(A)


def _nx_pagerank(H, source):
    import networkx as nx

    return nx.pagerank(H, backend="networkx")


register_algorithm(
    "pagerank",
    _run,
    work=_work,
    sources=False,
    verify=_verify,
    gapbs_kernel="pr",
    description="warpgraph.pagerank: power iteration to NetworkX's stopping rule (work per step)",
)
register_peer(
    "scipy",
    "pagerank",
    lambda G: G.to_scipy(),
    _scipy_pagerank,
    version=lambda: package_version("scipy"),
    description="NetworkX's _pagerank_scipy step on a SciPy CSR matrix (warpgraph.demo)",
)
register_peer(
    "networkx",
    "pagerank",
    _nx_prepare,
    _nx_pagerank,
    available=_missing("networkx", "networkx"),
    version=lambda: package_version("networkx"),
    max_arcs=NETWORKX_MAX_ARCS,
    description="networkx.pagerank (its own SciPy backend)",
)
