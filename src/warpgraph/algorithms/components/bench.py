"""``warpgraph bench`` adapters for weak and strong components, and their peers.

Imported by the benchmark registry (see :mod:`warpgraph.bench.registry`). Each run computes the
component labels of the whole graph (``work="graph"``: every edge once); the result is checked
against SciPy's partition outside the timed region. GAPBS ``cc`` runs beside ``wcc`` when
``--gapbs`` is given.
"""

from __future__ import annotations

from typing import Any

from ...bench.adapters import _igraph_prepare, _missing, _networkit_prepare, _nx_prepare
from ...bench.env import package_version
from ...bench.registry import register_algorithm, register_peer
from ...graph import Graph

NETWORKX_MAX_ARCS = 4_000_000


def _run(connection: str):
    def run(G: Graph, source, device: str, config: dict) -> Any:
        from . import connected_components

        return connected_components(G, connection=connection, device=device, **config)

    return run


def _verify(connection: str):
    def verify(info, source, result) -> None:
        from . import verify_components

        verify_components(info.graph, result[1], connection)

    return verify


def _scipy(connection: str):
    def run(A, source):
        from scipy.sparse import csgraph

        return csgraph.connected_components(A, directed=True, connection=connection)

    return run


def _networkx(connection: str):
    def run(H, source):
        import networkx as nx

        if not H.is_directed():
            return list(nx.connected_components(H))
        if connection == "weak":
            return list(nx.weakly_connected_components(H))
        return list(nx.strongly_connected_components(H))

    return run


def _igraph(connection: str):
    def run(g, source):
        return g.connected_components(mode=connection)

    return run


def _networkit(connection: str):
    def run(g, source):
        import networkit as nk

        if connection == "strong" and g.isDirected():
            cc = nk.components.StronglyConnectedComponents(g)
        elif g.isDirected():
            cc = nk.components.WeaklyConnectedComponents(g)
        else:
            cc = nk.components.ConnectedComponents(g)
        cc.run()
        return cc.numberOfComponents()

    return run


for _name, _conn in (("wcc", "weak"), ("scc", "strong")):
    register_algorithm(
        _name,
        _run(_conn),
        work="graph",
        sources=False,
        verify=_verify(_conn),
        gapbs_kernel="cc" if _conn == "weak" else None,
        description=f"warpgraph.connected_components(connection={_conn!r}), whole graph",
    )
    register_peer(
        "scipy",
        _name,
        lambda G: G.to_scipy(),
        _scipy(_conn),
        version=lambda: package_version("scipy"),
        description=f"scipy.sparse.csgraph.connected_components(connection={_conn!r})",
    )
    register_peer(
        "networkx",
        _name,
        _nx_prepare,
        _networkx(_conn),
        available=_missing("networkx", "networkx"),
        version=lambda: package_version("networkx"),
        max_arcs=NETWORKX_MAX_ARCS,
        description=f"networkx {_conn}ly connected components (materialized)",
    )
    register_peer(
        "igraph",
        _name,
        _igraph_prepare,
        _igraph(_conn),
        available=_missing("igraph", "igraph"),
        version=lambda: package_version("igraph"),
        description=f"igraph.Graph.connected_components(mode={_conn!r})",
    )
    register_peer(
        "networkit",
        _name,
        _networkit_prepare,
        _networkit(_conn),
        available=_missing("networkit", "networkit"),
        version=lambda: package_version("networkit"),
        description="networkit.components (Strongly/Weakly)ConnectedComponents",
    )
