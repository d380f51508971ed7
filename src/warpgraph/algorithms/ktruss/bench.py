"""``warpgraph bench`` adapter for the truss decomposition (whole-graph work, checked by
:func:`.verify.verify_truss_decomposition` outside the timed region). NetworkX has no
decomposition; its ``k_truss`` for one ``k`` is what :mod:`benchmarks/triangles.py` compares."""

from __future__ import annotations

from ...bench.registry import register_algorithm


def _run(G, source, device: str, config: dict):
    from . import truss_decomposition

    return truss_decomposition(G, device=device, **config)


def _verify(info, source, result) -> None:
    from .verify import verify_truss_decomposition

    verify_truss_decomposition(info.graph, result)


register_algorithm(
    "ktruss",
    _run,
    work="graph",
    sources=False,
    verify=_verify,
    description="warpgraph.truss_decomposition: the trussness of every edge",
)
