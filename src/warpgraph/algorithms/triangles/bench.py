"""``warpgraph bench`` adapter for per-vertex triangle counts, and its peers.

Whole-graph work (every undirected edge once); checked by :func:`.verify.verify_triangles`
outside the timed region. GAPBS ``tc`` (total only) runs beside it when ``--gapbs`` is given.
"""

from __future__ import annotations

from ...bench.adapters import _igraph_prepare, _missing, _nx_prepare
from ...bench.env import package_version
from ...bench.registry import register_algorithm, register_peer

NETWORKX_MAX_ARCS = 4_000_000


def _run(G, source, device: str, config: dict):
    from . import triangles

    return triangles(G, device=device, **config)


def _verify(info, source, result) -> None:
    from .verify import verify_triangles

    verify_triangles(info.graph, result)


def _nx_triangles(H, source):
    import networkx as nx

    return nx.triangles(H)


def _igraph_triangles(g, source):
    return len(g.list_triangles())


register_algorithm(
    "triangles",
    _run,
    work="graph",
    sources=False,
    verify=_verify,
    gapbs_kernel="tc",
    description="warpgraph.triangles: triangles at every vertex (undirected graphs)",
)
register_peer(
    "networkx",
    "triangles",
    _nx_prepare,
    _nx_triangles,
    available=_missing("networkx", "networkx"),
    version=lambda: package_version("networkx"),
    max_arcs=NETWORKX_MAX_ARCS,
    description="networkx.triangles",
)
register_peer(
    "igraph",
    "triangles",
    _igraph_prepare,
    _igraph_triangles,
    available=_missing("igraph", "igraph"),
    version=lambda: package_version("igraph"),
    description="igraph.Graph.list_triangles (every triangle listed)",
)
