"""k-truss and truss decomposition, with NetworkX's definition.

The k-truss is the largest subgraph in which every edge lies in at least ``k - 2`` triangles of
the subgraph (Cohen 2005; ``networkx.k_truss``); the trussness of an edge is the largest ``k``
whose k-truss holds it, 2 for an edge in no triangle. Undirected graphs only (as NetworkX);
self-loops belong to no truss (trussness 0) and parallel edges share their edge's trussness.

Method: support (triangles per edge) by the triangle enumeration of
:mod:`warpgraph.algorithms.triangles`, then peeling: bucket order on the CPU (Wang & Cheng),
level-synchronous rounds with triangle subtraction on the GPU (seed 000, ch. 19).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ...errors import InvalidArgumentError
from ...graph import Graph
from ..kcore.api import _arc_subgraph
from ..triangles.api import check_undirected, place

__all__ = ["k_truss", "k_truss_arcs", "truss_decomposition"]


def _orient(G: Graph, dev: str):
    if dev == "gpu":
        from ..triangles import gpu as tgpu

        return tgpu.orient(G)
    from ..triangles import prep

    return prep.orient(G.indptr, G.indices)


def _all_arc_edge_ids(G: Graph, o, rows):
    """Oriented edge id of every arc of ``G`` (-1 for self-loops)."""
    if G.device == "cpu":
        from .cpu import arc_edge_ids

        return arc_edge_ids(G.indptr, G.indices, o)
    return _arc_edge_ids(o, rows, G.indices, G._xp())


def _arc_edge_ids(o, rows, cols, xp):
    """Oriented edge id of every arc ``rows -> cols`` (-1 for self-loops), by a global
    binary search (used on the GPU)."""
    n = max(o.num_vertices, 1)
    ru, rv = o.rank[rows].astype(np.int64), o.rank[cols].astype(np.int64)
    key = xp.minimum(ru, rv) * n + xp.maximum(ru, rv)
    okey = o.src.astype(np.int64) * n + o.indices.astype(np.int64)
    eid = xp.searchsorted(okey, key)
    return xp.where(ru == rv, -1, eid)


def _trussness(G: Graph, dev: str, stop: int = -1):
    o = _orient(G, dev)
    if dev == "gpu":
        from . import gpu

        truss, left = gpu.trussness(o, stop)
    else:
        from . import cpu

        truss, left = cpu.trussness(o, stop)
    return o, truss, left


def truss_decomposition(G: Graph, *, device: str = "auto"):
    """Trussness of every edge, aligned with ``G.edges()``.

    Parameters
    ----------
    G : Graph
        An undirected graph.
    device : {"auto", "cpu", "gpu"}
        Where to compute; the result lives there.

    Returns
    -------
    int64 array, one entry per edge of ``G.edges()`` (each undirected edge once, ``u <= v``):
    the largest k whose k-truss contains the edge (>= 2), or 0 for a self-loop.

    Raises
    ------
    InvalidArgumentError
        If ``G`` is directed.

    See Also
    --------
    k_truss

    Examples
    --------
    >>> import warpgraph as wg
    >>> from warpgraph.algorithms.ktruss import truss_decomposition
    >>> G = wg.Graph.from_edges([0, 0, 0, 1, 1, 2, 3], [1, 2, 3, 2, 3, 3, 4], directed=False)
    >>> src, dst, _ = G.edges()
    >>> list(zip(src.tolist(), dst.tolist(), truss_decomposition(G, device="cpu").tolist()))
    [(0, 1, 4), (0, 2, 4), (0, 3, 4), (1, 2, 4), (1, 3, 4), (2, 3, 4), (3, 4, 2)]
    """
    check_undirected(G, "truss_decomposition")
    G, dev = place(G, device)
    xp = G._xp()
    o, truss, _ = _trussness(G, dev)
    rows = G._arc_sources()
    keep = rows <= G.indices  # the order of G.edges()
    eid = _all_arc_edge_ids(G, o, rows)[keep]
    out = xp.zeros(eid.shape[0], dtype=np.int64)
    ok = eid >= 0
    out[ok] = truss[eid[ok]]
    return out


def _check(G: Graph, k: Any) -> None:
    check_undirected(G, "k_truss")
    if isinstance(k, bool) or not isinstance(k, int | np.integer):
        raise InvalidArgumentError(f"k must be an integer, got {k!r}")


def k_truss(G: Graph, k: int, *, device: str = "auto") -> Graph:
    """The k-truss of ``G``: the largest subgraph whose every edge is in >= ``k - 2`` of its
    triangles.

    Parameters
    ----------
    G : Graph
        An undirected graph.
    k : int
        Order of the truss (``k <= 2`` keeps every edge but self-loops).
    device : {"auto", "cpu", "gpu"}
        Where to compute; the subgraph lives there.

    Returns
    -------
    Graph
        Same vertex ids and count as ``G``, holding the arcs of ``G`` whose edge is in the
        k-truss; other vertices are isolated (NetworkX drops them: ``H.subgraph(...)`` gives a
        compact copy).

    Raises
    ------
    InvalidArgumentError
        If ``G`` is directed or ``k`` is not an integer.

    Examples
    --------
    >>> import warpgraph as wg
    >>> from warpgraph.algorithms.ktruss import k_truss
    >>> G = wg.Graph.from_edges([0, 0, 0, 1, 1, 2, 3], [1, 2, 3, 2, 3, 3, 4], directed=False)
    >>> H = k_truss(G, 4, device="cpu")
    >>> H.num_edges, H.degree().tolist()
    (6, [3, 3, 3, 3, 0])
    """
    _check(G, k)
    G, dev = place(G, device)  # once: k_truss_arcs then finds G on its device
    mask = k_truss_arcs(G, k, device=dev)
    if dev == "gpu":
        return _arc_subgraph(G, mask, G._arc_sources(), G._xp())
    from .fixed_k import compact_indptr

    w = None if G.weights is None else G.weights[mask]
    H = Graph(compact_indptr(G.indptr, mask), G.indices[mask], w, directed=False, validate=False)
    H.vertex_labels = G.vertex_labels
    return H


def k_truss_arcs(G: Graph, k: int, *, device: str = "auto"):
    """Which arcs of ``G`` are in its k-truss: a boolean mask over ``G.indices`` (on the device
    that computed it), the arcs of :func:`k_truss` without building the subgraph.

    Parameters
    ----------
    G : Graph
        An undirected graph.
    k : int
        Order of the truss (``k <= 2``: every arc but self-loops).
    device : {"auto", "cpu", "gpu"}
        Where to compute.

    Returns
    -------
    ndarray or cupy.ndarray of bool
        One entry per arc of ``G``, in its CSR order.

    Raises
    ------
    InvalidArgumentError
        If ``G`` is directed or ``k`` is not an integer.

    Examples
    --------
    >>> import warpgraph as wg
    >>> from warpgraph.algorithms.ktruss import k_truss_arcs
    >>> G = wg.Graph.from_edges([0, 0, 1, 2], [1, 2, 2, 3], directed=False)
    >>> k_truss_arcs(G, 3, device="cpu").astype(int).tolist()
    [1, 1, 1, 1, 1, 1, 0, 0]
    """
    _check(G, k)
    G, dev = place(G, device)
    if dev == "cpu" and k >= 3:
        from ...cpu.threads import threads_for
        from .fixed_k import k_truss_mask

        with threads_for(G.num_vertices + G.num_arcs):  # (peeling rounds; cpu/threads.py)
            return k_truss_mask(G.indptr, G.indices, int(k))
    rows = G._arc_sources()
    if k <= 2:
        return rows != G.indices
    o, _, left = _trussness(G, dev, stop=int(k) - 2)
    xp = G._xp()
    eid = _all_arc_edge_ids(G, o, rows)
    ok = eid >= 0
    mask = xp.zeros(eid.shape[0], dtype=bool)
    mask[ok] = left[eid[ok]]
    return mask
