"""``warpgraph bench`` adapter for the triad census, and its peers (whole-graph work; the
census is checked by :func:`.verify.verify_census` outside the timed region)."""

from __future__ import annotations

import numpy as np

from ...bench.adapters import _igraph_prepare, _missing, _nx_prepare
from ...bench.env import package_version
from ...bench.registry import register_algorithm, register_peer

NETWORKX_MAX_ARCS = 400_000


def _run(G, source, device: str, config: dict):
    from . import triadic_census

    return triadic_census(G, device=device, **config)


def _dyads(G) -> tuple[int, int]:
    """Pairs joined by an arc either way, and by arcs both ways (loops, parallel arcs ignored)."""
    A = G.to("cpu").to_scipy().astype(bool)
    A.setdiag(False)
    A.eliminate_zeros()
    connected = int((A + A.T).nnz) // 2
    mutual = int(A.multiply(A.T).nnz) // 2
    return connected, mutual


def _verify(info, source, result) -> None:
    from .verify import verify_census

    connected, mutual = _dyads(info.graph)
    verify_census(result, info.graph.num_vertices, connected, mutual)


def _nx_census(H, source):
    import networkx as nx

    return nx.triadic_census(H if H.is_directed() else H.to_directed())


def _igraph_census(g, source):
    return np.asarray(list(g.triad_census()))


register_algorithm(
    "triads",
    _run,
    work="graph",
    sources=False,
    verify=_verify,
    description="warpgraph.triadic_census: the 16 triad counts (undirected = all dyads mutual)",
)
register_peer(
    "networkx",
    "triads",
    _nx_prepare,
    _nx_census,
    available=_missing("networkx", "networkx"),
    version=lambda: package_version("networkx"),
    max_arcs=NETWORKX_MAX_ARCS,
    description="networkx.triadic_census",
)
register_peer(
    "igraph",
    "triads",
    _igraph_prepare,
    _igraph_census,
    available=_missing("igraph", "igraph"),
    version=lambda: package_version("igraph"),
    description="igraph.Graph.triad_census",
)
