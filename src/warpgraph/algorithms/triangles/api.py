"""Triangles per vertex, total triangle count, transitivity and local clustering.

Method: degree-ordered orientation (each edge kept from its lower- to its higher-(degree, id)
end, ids replaced by ranks) and one intersection per oriented arc, so each triangle is found
exactly once in ``O(m^1.5)`` work (Schank & Wagner's "forward" algorithm, as GAPBS ``tc``).
CPU: Numba, parallel over balanced row chunks, hash (position-array) intersections. GPU: a
group of lanes per oriented arc, binary-searching the shorter list in the longer one.

Input: undirected graphs for the counts (directed ones raise, as in NetworkX).
:func:`clustering` and :func:`transitivity` also take directed graphs, with NetworkX's
definitions for a ``DiGraph`` (:mod:`.directed`, :mod:`.directed_gpu`).
Self-loops are ignored and parallel edges count once, as NetworkX does (it works on neighbour
sets).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ...device import resolve_device
from ...errors import InvalidArgumentError
from ...graph import Graph

__all__ = ["clustering", "transitivity", "triangle_count", "triangles"]


def check_undirected(G: Any, name: str) -> None:
    """Raise unless ``G`` is an undirected :class:`~warpgraph.Graph`."""
    if not isinstance(G, Graph):
        raise InvalidArgumentError(f"{name} needs a warpgraph.Graph, got {type(G).__name__}")
    if G.directed:
        raise InvalidArgumentError(
            f"{name} is defined for undirected graphs (as in NetworkX); "
            "call G.to_undirected() first"
        )


def place(G: Graph, device: str) -> tuple[Graph, str]:
    """``G`` on the resolved device, and that device."""
    dev = resolve_device(device)
    return G.to(dev), dev


def _select(values: Any, nodes: Any, dev: str):
    if nodes is None:
        return values
    if isinstance(nodes, int | np.integer):
        n = values.shape[0]
        if not 0 <= int(nodes) < n:
            raise InvalidArgumentError(f"node {int(nodes)} is not in the graph (n = {n})")
        return values[int(nodes)].item()
    if dev == "gpu":
        from ...device import cupy

        idx = cupy().asarray(nodes)
    else:
        idx = np.asarray(nodes)
    if idx.dtype.kind not in "iu":
        raise InvalidArgumentError(f"nodes must be integer vertex ids, got dtype {idx.dtype}")
    n = values.shape[0]
    if idx.size and (int(idx.min()) < 0 or int(idx.max()) >= n):
        raise InvalidArgumentError(f"nodes hold ids outside [0, {n})")
    return values[idx]


def _per_vertex(G: Graph, dev: str):
    if dev == "gpu":
        from . import gpu

        return gpu.per_vertex(G)
    from . import cpu, prep

    o = prep.orient(G.indptr, G.indices)
    return cpu.per_vertex_from_arcs(o, cpu.arc_counts(o)), o.degree


def triangles(G: Graph, nodes: Any = None, *, device: str = "auto"):
    """Number of triangles at every vertex.

    Parameters
    ----------
    G : Graph
        An undirected graph. Self-loops are ignored, parallel edges count once.
    nodes : int or array_like of int, optional
        Return only these vertices (an ``int`` gives a Python ``int``).
    device : {"auto", "cpu", "gpu"}
        Where to compute; the result lives there (NumPy or CuPy).

    Returns
    -------
    int64 array of length ``G.num_vertices`` (or the selection).

    Raises
    ------
    InvalidArgumentError
        If ``G`` is directed or ``nodes`` holds ids outside the graph.

    See Also
    --------
    triangle_count, clustering, transitivity

    Examples
    --------
    >>> import warpgraph as wg
    >>> from warpgraph.algorithms.triangles import triangles
    >>> G = wg.Graph.from_edges([0, 0, 1, 2], [1, 2, 2, 3], directed=False)
    >>> triangles(G, device="cpu").tolist()
    [1, 1, 1, 0]
    >>> triangles(G, 3, device="cpu")
    0
    """
    check_undirected(G, "triangles")
    G, dev = place(G, device)
    t, _ = _per_vertex(G, dev)
    return _select(t, nodes, dev)


def triangle_count(G: Graph, *, device: str = "auto") -> int:
    """Total number of triangles of an undirected graph (each counted once).

    Parameters
    ----------
    G : Graph
        An undirected graph; self-loops are ignored, parallel edges count once.
    device : {"auto", "cpu", "gpu"}
        Where to compute.

    Returns
    -------
    int

    Raises
    ------
    InvalidArgumentError
        If ``G`` is directed.

    Examples
    --------
    >>> import warpgraph as wg
    >>> from warpgraph.algorithms.triangles import triangle_count
    >>> K4 = wg.Graph.from_edges([0, 0, 0, 1, 1, 2], [1, 2, 3, 2, 3, 3], directed=False)
    >>> triangle_count(K4, device="cpu")
    4
    """
    check_undirected(G, "triangle_count")
    G, dev = place(G, device)
    if dev == "gpu":
        from . import gpu

        return gpu.triangle_count(G)
    from . import cpu, prep

    return cpu.triangle_total(prep.orient(G.indptr, G.indices))


def transitivity(G: Graph, *, device: str = "auto") -> float:
    """Global clustering: ``3 * triangles / connected triples``, as ``networkx.transitivity``.

    Parameters
    ----------
    G : Graph
        Self-loops are ignored, parallel edges count once. A directed graph gets NetworkX's
        rule for a ``DiGraph`` (transitive triples ``v -> w -> k``, ``v -> k`` over
        ``sum d_out (d_out - 1)``).
    device : {"auto", "cpu", "gpu"}
        Where to compute.

    Returns
    -------
    float
        0.0 when the graph has no triangle.

    Examples
    --------
    >>> import warpgraph as wg
    >>> from warpgraph.algorithms.triangles import transitivity
    >>> G = wg.Graph.from_edges([0, 0, 1, 2], [1, 2, 2, 3], directed=False)
    >>> round(transitivity(G, device="cpu"), 4)
    0.6
    """
    if isinstance(G, Graph) and G.directed:
        G, dev = place(G, device)
        if dev == "gpu":
            from .directed_gpu import directed_transitivity_gpu

            return directed_transitivity_gpu(G)
        from .directed import directed_transitivity

        return directed_transitivity(G)
    check_undirected(G, "transitivity")
    G, dev = place(G, device)
    if dev == "gpu":
        from . import gpu

        tri, deg = gpu.count_and_degree(G)
        deg = deg.get()
    else:
        from . import cpu, prep

        o = prep.orient(G.indptr, G.indices)
        tri, deg = cpu.triangle_total(o), o.degree
    triples = int((deg * (deg - 1)).sum()) // 2
    return 0.0 if tri == 0 else 3 * tri / triples


def clustering(G: Graph, nodes: Any = None, weight: str | None = None, *, device: str = "auto"):
    """Local clustering coefficient ``2 T(v) / (d(v) (d(v) - 1))`` of every vertex.

    ``d(v)`` counts distinct neighbours other than ``v``; vertices of degree < 2 get 0, as in
    ``networkx.clustering``. A directed graph gets Fagiolo's directed clustering, as
    ``networkx.clustering`` of a ``DiGraph`` (:mod:`.directed`, :mod:`.directed_gpu`).

    Parameters
    ----------
    G : Graph
        Self-loops are ignored, parallel edges count once.
    nodes : int or array_like of int, optional
        Return only these vertices (an ``int`` gives a Python ``float``).
    weight : None
        Weighted clustering is not implemented; pass ``None``.
    device : {"auto", "cpu", "gpu"}
        Where to compute; the result lives there.

    Returns
    -------
    float64 array of length ``G.num_vertices`` (or the selection).

    Raises
    ------
    InvalidArgumentError
        If ``weight`` is given or ``nodes`` is out of range.

    Examples
    --------
    >>> import warpgraph as wg
    >>> from warpgraph.algorithms.triangles import clustering
    >>> G = wg.Graph.from_edges([0, 0, 1, 2], [1, 2, 2, 3], directed=False)
    >>> clustering(G, device="cpu").round(4).tolist()
    [1.0, 1.0, 0.3333, 0.0]
    >>> D = wg.Graph.from_edges([0, 1, 2, 1], [1, 2, 0, 0], directed=True)
    >>> clustering(D, device="cpu").tolist()
    [0.5, 0.5, 1.0]
    """
    if weight is not None:
        raise InvalidArgumentError("weighted clustering is not implemented; pass weight=None")
    if isinstance(G, Graph) and G.directed:
        G, dev = place(G, device)
        if dev == "gpu":
            from .directed_gpu import directed_clustering_gpu

            return _select(directed_clustering_gpu(G), nodes, dev)
        from .directed import directed_clustering

        return _select(directed_clustering(G), nodes, dev)
    check_undirected(G, "clustering")
    G, dev = place(G, device)
    t, deg = _per_vertex(G, dev)
    xp = np
    if dev == "gpu":
        from ...device import cupy

        xp = cupy()
    pairs = (deg * (deg - 1)).astype(np.float64)
    c = xp.where(pairs > 0, 2.0 * t / xp.where(pairs > 0, pairs, 1.0), 0.0)
    return _select(c, nodes, dev)
