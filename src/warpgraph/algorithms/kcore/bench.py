"""``warpgraph bench`` adapter for core numbers, and its peers (whole-graph work, checked by
:func:`.verify.verify_core_numbers` outside the timed region)."""

from __future__ import annotations

from ...bench.adapters import _igraph_prepare, _missing, _networkit_prepare, _nx_prepare
from ...bench.env import package_version
from ...bench.registry import register_algorithm, register_peer

NETWORKX_MAX_ARCS = 4_000_000


def _run(G, source, device: str, config: dict):
    from . import core_number

    return core_number(G, device=device, **config)


def _verify(info, source, result) -> None:
    from .verify import verify_core_numbers

    verify_core_numbers(info.graph, result)


def _nx_cores(H, source):
    import networkx as nx

    H = H.copy()
    H.remove_edges_from(nx.selfloop_edges(H))  # NetworkX refuses graphs with self-loops
    return nx.core_number(H)


def _igraph_cores(g, source):
    return g.coreness()


def _networkit_cores(g, source):
    import networkit as nk

    g.removeSelfLoops()
    return nk.centrality.CoreDecomposition(g).run().scores()


register_algorithm(
    "kcore",
    _run,
    work="graph",
    sources=False,
    verify=_verify,
    description="warpgraph.core_number: the core number of every vertex",
)
register_peer(
    "networkx",
    "kcore",
    _nx_prepare,
    _nx_cores,
    available=_missing("networkx", "networkx"),
    version=lambda: package_version("networkx"),
    max_arcs=NETWORKX_MAX_ARCS,
    description="networkx.core_number (self-loops removed first, inside the timing)",
)
register_peer(
    "igraph",
    "kcore",
    _igraph_prepare,
    _igraph_cores,
    available=_missing("igraph", "igraph"),
    version=lambda: package_version("igraph"),
    description="igraph.Graph.coreness",
)
register_peer(
    "networkit",
    "kcore",
    _networkit_prepare,
    _networkit_cores,
    available=_missing("networkit", "networkit"),
    version=lambda: package_version("networkit"),
    description="networkit.centrality.CoreDecomposition",
)
