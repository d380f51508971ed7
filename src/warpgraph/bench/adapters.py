"""Built-in benchmark adapters: CSR construction, statistics, BFS and SSSP, and their peers.

BFS and SSSP register only their adapters here; each becomes available the moment
``warpgraph.bfs`` / ``warpgraph.sssp`` exist. Peers (SciPy csgraph, NetworkX, igraph, NetworKit)
are imported lazily and report themselves unavailable when not installed. Each peer is given the
graph in its own native form, converted outside the timed region, and is called the way its users
would call it (SciPy on the symmetric CSR with ``directed=True``, so it does not re-symmetrize on
every call).
"""

from __future__ import annotations

import importlib
from typing import Any

import numpy as np

from ..device import to_numpy
from ..errors import VerificationError
from ..graph import Graph
from .env import package_version
from .registry import register_algorithm, register_peer

__all__ = ["split_bfs_result", "split_sssp_result", "warpgraph_function"]

NETWORKX_MAX_ARCS = 2_000_000
#: igraph is built from a Python list of pairs: minutes and tens of GB beyond this.
IGRAPH_MAX_ARCS = 64_000_000


def _missing(module: str, pip: str):
    def check() -> str | None:
        try:
            importlib.import_module(module)
        except ImportError:
            return f"{pip} is not installed (pip install {pip})"
        return None

    return check


def warpgraph_function(name: str):
    """``warpgraph.NAME``, else ``warpgraph.algorithms.NAME.NAME``, else None.

    Examples
    --------
    >>> warpgraph_function("surely_not_an_algorithm") is None
    True
    """
    import warpgraph

    fn = getattr(warpgraph, name, None)
    if callable(fn):
        return fn
    try:
        mod = importlib.import_module(f"warpgraph.algorithms.{name}")
    except ImportError:
        return None
    fn = getattr(mod, name, None)
    return fn if callable(fn) else None


def _has_warpgraph(name: str, issue: str):
    def check() -> str | None:
        if warpgraph_function(name) is None:
            return f"warpgraph.{name} is not available yet ({issue})"
        return None

    return check


# ----------------------------------------------------------------------------- result helpers
def split_bfs_result(out: Any) -> tuple[Any, Any]:
    """``(levels, parents_or_None)`` from whatever ``warpgraph.bfs`` returned.

    Accepts a levels array, a ``(levels, parents)`` pair, or an object / dict with ``levels``
    (or ``distances``) and ``parents`` (or ``predecessors``).

    Examples
    --------
    >>> split_bfs_result((np.array([0, 1]), np.array([0, 0])))[1].tolist()
    [0, 0]
    """
    if isinstance(out, tuple | list) and len(out) == 2:
        return out[0], out[1]
    for lev, par in (("levels", "parents"), ("distances", "predecessors")):
        if isinstance(out, dict) and lev in out:
            return out[lev], out.get(par)
        if hasattr(out, lev):
            return getattr(out, lev), getattr(out, par, None)
    return out, None


def split_sssp_result(out: Any) -> tuple[Any, Any]:
    """``(distances, predecessors_or_None)`` from whatever ``warpgraph.sssp`` returned."""
    if isinstance(out, tuple | list) and len(out) == 2:
        return out[0], out[1]
    for dist, pred in (("distances", "predecessors"), ("dist", "parents")):
        if isinstance(out, dict) and dist in out:
            return out[dist], out.get(pred)
        if hasattr(out, dist):
            return getattr(out, dist), getattr(out, pred, None)
    return out, None


def _arcs(G: Graph) -> tuple[np.ndarray, np.ndarray]:
    rows = np.repeat(np.arange(G.num_vertices, dtype=np.int64), np.diff(G.indptr))
    return rows, G.indices.astype(np.int64)


# ----------------------------------------------------------------------------- CSR construction
def _csr_prepare(G: Graph, device: str, config: dict) -> dict:
    src, dst, w = G.to(device).edges()
    return {"src": src, "dst": dst, "w": w, "n": G.num_vertices, "directed": G.directed}


def _csr_run(state: dict, source, device: str, config: dict) -> Graph:
    return Graph.from_edges(
        state["src"],
        state["dst"],
        state["w"],
        num_vertices=state["n"],
        directed=state["directed"],
        device=device,
        **config,
    )


def _csr_verify(info, source, result: Graph) -> None:
    G = info.graph
    R = result.to("cpu")
    if R.num_arcs != G.num_arcs or not np.array_equal(R.indptr, G.indptr):
        raise VerificationError("rebuilt CSR differs from the benchmark graph (row offsets)")
    if not np.array_equal(R.indices, G.indices):
        raise VerificationError("rebuilt CSR differs from the benchmark graph (neighbours)")


register_algorithm(
    "csr_build",
    _csr_run,
    prepare=_csr_prepare,
    work="graph",
    sources=False,
    verify=_csr_verify,
    description="Graph.from_edges on the graph's own edge list (edges per second)",
)


def _scipy_csr_prepare(G: Graph) -> dict:
    src, dst, _w = G.edges()
    return {"src": src, "dst": dst, "n": G.num_vertices, "directed": G.directed}


def _scipy_csr_run(state: dict, source) -> Any:
    import scipy.sparse as sp

    src, dst = state["src"], state["dst"]
    if not state["directed"]:
        src, dst = np.concatenate([src, dst]), np.concatenate([dst, src])
    n = state["n"]
    return sp.csr_array((np.ones(src.shape[0], dtype=np.int8), (src, dst)), shape=(n, n))


register_peer(
    "scipy",
    "csr_build",
    _scipy_csr_prepare,
    _scipy_csr_run,
    version=lambda: package_version("scipy"),
    description="scipy.sparse.csr_array from COO (sums duplicates)",
)


# ----------------------------------------------------------------------------- statistics
def _stats_run(G: Graph, source, device: str, config: dict) -> dict:
    from ..stats import stats

    return stats(G, **config)


register_algorithm(
    "stats",
    _stats_run,
    work="graph",
    sources=False,
    description="warpgraph.stats: degrees, Gini, double-sweep diameter, weak components",
)


# ----------------------------------------------------------------------------- BFS
def _bfs_run(G: Graph, source: int, device: str, config: dict) -> Any:
    return warpgraph_function("bfs")(G, source, device=device, **config)


def _bfs_verify(info, source: int, result: Any) -> None:
    from ..cpu.traverse import bfs_levels
    from .graph500_validate import validate_bfs_tree

    G = info.graph
    levels, parents = split_bfs_result(result)
    levels = to_numpy(levels).astype(np.int64)
    expected = bfs_levels(G.indptr, G.indices, int(source)).astype(np.int64)
    if levels.shape != expected.shape:
        n, m = levels.shape[0], expected.shape[0]
        raise VerificationError(f"BFS returned {n} levels for a graph of {m} vertices")
    wrong = np.maximum(levels, -1) != expected
    if wrong.any():
        v = int(np.argmax(wrong))
        raise VerificationError(
            f"BFS from {source}: vertex {v} has level {int(levels[v])}, expected {int(expected[v])}"
        )
    if parents is not None:
        src, dst = _arcs(G)
        validate_bfs_tree(
            to_numpy(parents), src, dst, int(source), level=levels, directed=G.directed
        )


register_algorithm(
    "bfs",
    _bfs_run,
    work="traversal",
    verify=_bfs_verify,
    available=_has_warpgraph("bfs", "issue 3"),
    gapbs_kernel="bfs",
    description="warpgraph.bfs from 64 random non-isolated sources (Graph500/GAP TEPS)",
)


def _scipy_matrix(G: Graph):
    return G.to_scipy()


def _scipy_bfs(A, source: int):
    from scipy.sparse import csgraph

    return csgraph.breadth_first_order(A, source, directed=True, return_predecessors=True)


register_peer(
    "scipy",
    "bfs",
    _scipy_matrix,
    _scipy_bfs,
    version=lambda: package_version("scipy"),
    description="scipy.sparse.csgraph.breadth_first_order (with predecessors)",
)


def _nx_prepare(G: Graph):
    return G.to_networkx()


def _nx_bfs(H, source: int):
    import networkx as nx

    return nx.single_source_shortest_path_length(H, source)


register_peer(
    "networkx",
    "bfs",
    _nx_prepare,
    _nx_bfs,
    available=_missing("networkx", "networkx"),
    version=lambda: package_version("networkx"),
    max_arcs=NETWORKX_MAX_ARCS,
    description="networkx.single_source_shortest_path_length",
)


def _igraph_prepare(G: Graph, weighted: bool = False):
    import igraph

    src, dst, w = G.edges()
    edges = np.column_stack([src, dst]).tolist()
    g = igraph.Graph(n=G.num_vertices, edges=edges, directed=G.directed)
    if weighted:
        g.es["weight"] = to_numpy(w).tolist()
    return g


def _igraph_bfs(g, source: int):
    return g.bfs(source, mode="out")


register_peer(
    "igraph",
    "bfs",
    _igraph_prepare,
    _igraph_bfs,
    available=_missing("igraph", "igraph"),
    version=lambda: package_version("igraph"),
    max_arcs=IGRAPH_MAX_ARCS,
    description="igraph.Graph.bfs",
)


def _networkit_prepare(G: Graph, weighted: bool = False):
    import networkit as nk

    src, dst, w = G.edges()
    g = nk.Graph(G.num_vertices, weighted=weighted, directed=G.directed)
    ends = (src.astype(np.uint64), dst.astype(np.uint64))
    g.addEdges((np.asarray(w, dtype=np.float64), ends) if weighted else ends)
    return g


def _networkit_bfs(g, source: int):
    import networkit as nk

    return nk.distance.BFS(g, source, storePaths=False).run()


register_peer(
    "networkit",
    "bfs",
    _networkit_prepare,
    _networkit_bfs,
    available=_missing("networkit", "networkit"),
    version=lambda: package_version("networkit"),
    description="networkit.distance.BFS (storePaths=False)",
)


# ----------------------------------------------------------------------------- SSSP
def _sssp_run(G: Graph, source: int, device: str, config: dict) -> Any:
    return warpgraph_function("sssp")(G, source, device=device, **config)


def _sssp_verify(info, source: int, result: Any) -> None:
    from scipy.sparse import csgraph

    dist, _pred = split_sssp_result(result)
    dist = to_numpy(dist)
    expected = csgraph.dijkstra(info.graph.to_scipy(), directed=True, indices=int(source))
    got = dist.astype(np.float64)
    if dist.dtype.kind in "iu":
        got = np.where(dist == np.iinfo(dist.dtype).max, np.inf, got)
    finite = np.isfinite(expected)
    ok = np.array_equal(np.isfinite(got), finite) and np.allclose(
        got[finite], expected[finite], rtol=1e-5, atol=0
    )
    if not ok:
        raise VerificationError(f"SSSP distances from {source} differ from SciPy's dijkstra")


register_algorithm(
    "sssp",
    _sssp_run,
    work="traversal",
    weights="gap",
    verify=_sssp_verify,
    available=_has_warpgraph("sssp", "issue 4"),
    gapbs_kernel="sssp",
    description="warpgraph.sssp from 64 random non-isolated sources (GAP weights 1..255)",
)


def _scipy_dijkstra(A, source: int):
    from scipy.sparse import csgraph

    return csgraph.dijkstra(A, directed=True, indices=source)


register_peer(
    "scipy",
    "sssp",
    _scipy_matrix,
    _scipy_dijkstra,
    version=lambda: package_version("scipy"),
    description="scipy.sparse.csgraph.dijkstra",
)


def _nx_sssp(H, source: int):
    import networkx as nx

    return nx.single_source_dijkstra_path_length(H, source, weight="weight")


register_peer(
    "networkx",
    "sssp",
    _nx_prepare,
    _nx_sssp,
    available=_missing("networkx", "networkx"),
    version=lambda: package_version("networkx"),
    max_arcs=NETWORKX_MAX_ARCS,
    description="networkx.single_source_dijkstra_path_length",
)


def _igraph_sssp(g, source: int):
    return g.distances(source=source, weights="weight")


register_peer(
    "igraph",
    "sssp",
    lambda G: _igraph_prepare(G, weighted=True),
    _igraph_sssp,
    available=_missing("igraph", "igraph"),
    version=lambda: package_version("igraph"),
    max_arcs=IGRAPH_MAX_ARCS,
    description="igraph.Graph.distances (Dijkstra)",
)


def _networkit_sssp(g, source: int):
    import networkit as nk

    return nk.distance.Dijkstra(g, source, storePaths=False).run()


register_peer(
    "networkit",
    "sssp",
    lambda G: _networkit_prepare(G, weighted=True),
    _networkit_sssp,
    available=_missing("networkit", "networkit"),
    version=lambda: package_version("networkit"),
    description="networkit.distance.Dijkstra (storePaths=False)",
)
