"""Clustering and transitivity of directed graphs on the GPU, as NetworkX defines them.

The method is :mod:`.directed`'s (read its docstring for the formulas): the census adjacency
(:func:`.gpu.census_adjacency`, one key sort, rows in any order) is oriented by rank with its
dyad codes (:func:`.gpu.orient_arcs`), then one triangle pass of ``tc_count.cu``:

- clustering: ``TC_DYAD_ARCS`` mode weights each triangle by the product of its dyads' arc
  counts on the two arcs leaving its lowest corner, spread to the corners by ``tc_scatter``;
- transitivity: ``TC_CENSUS`` mode's 64-bin histogram of the triangles' codes, weighted by
  :data:`.directed.TRANSITIVE_TRIPLES`.

The per-vertex degrees are segment sums over the census rows. Every count is an exact integer
until the one division (float64, as NumPy's ``int / int`` and below ``2**53`` as Python's), so
the values equal the CPU path's and NetworkX's.
"""

from __future__ import annotations

from typing import Any

from ...device import cupy
from ...errors import InvalidArgumentError
from ...graph import Graph
from . import gpu
from .directed import TRANSITIVE_TRIPLES

__all__ = ["directed_clustering_gpu", "directed_transitivity_gpu"]


def _row_sums(ptr, values) -> Any:
    """Sum of ``values`` over each row of the CSR offsets ``ptr`` (int64)."""
    cp = cupy()
    csum = cp.zeros(values.size + 1, dtype=cp.int64)
    cp.cumsum(values, dtype=cp.int64, out=csum[1:])
    return csum[ptr[1:]] - csum[ptr[:-1]]


def _oriented(G: Graph, name: str) -> tuple[Any, Any, Any]:
    """Census adjacency ``(ptr, code)`` and its rank orientation with the dyad codes of the
    directed GPU graph ``G`` (``InvalidArgumentError`` naming ``name`` for anything else)."""
    if not isinstance(G, Graph):
        raise InvalidArgumentError(f"{name} needs a warpgraph.Graph, got {type(G).__name__}")
    if not G.directed or G.device != "gpu":
        raise InvalidArgumentError(
            f"{name} needs a directed graph on the GPU, got "
            f"{'a directed' if G.directed else 'an undirected'} one on the {G.device.upper()}"
        )
    cp = cupy()
    ptr, idx, code, rows = gpu.census_adjacency(G)
    o = gpu.orient_arcs(rows, idx, cp.diff(ptr), G.num_vertices, codes=code)
    return ptr, code, o


def directed_clustering_gpu(G: Graph) -> Any:
    """Fagiolo's clustering of every vertex of the directed GPU graph ``G`` (rows in any
    order), as ``networkx.clustering`` computes it for a ``DiGraph``; a float64 CuPy array.

    Raises
    ------
    InvalidArgumentError
        If ``G`` is not a directed :class:`~warpgraph.Graph` on the GPU.

    Examples
    --------
    >>> import warpgraph as wg
    >>> G = wg.Graph.from_edges([0, 1, 2, 1], [1, 2, 0, 0], directed=True)
    >>> directed_clustering_gpu(G.to("gpu")).tolist()  # doctest: +SKIP
    [0.5, 0.5, 1.0]
    """
    ptr, code, o = _oriented(G, "directed_clustering_gpu")
    cp = cupy()
    weights = cp.zeros(max(o.num_arcs, 1), dtype=cp.uint64)
    gpu.run_arcs(o, gpu.DYAD_ARCS, c=weights)
    t = 2 * gpu.per_vertex_from_arcs(o, weights)
    total = _row_sums(ptr, (code & 1) + (code >> 1))
    mutual = _row_sums(ptr, code == 3)
    pairs = 2 * (total * (total - 1) - 2 * mutual)
    return cp.where(t != 0, t / cp.where(t != 0, pairs, 1), 0.0)


def directed_transitivity_gpu(G: Graph) -> float:
    """NetworkX's transitivity of the directed GPU graph ``G`` (rows in any order): transitive
    triples over ``sum d_out (d_out - 1)``; 0.0 without any.

    Raises
    ------
    InvalidArgumentError
        If ``G`` is not a directed :class:`~warpgraph.Graph` on the GPU.

    Examples
    --------
    >>> import warpgraph as wg
    >>> G = wg.Graph.from_edges([0, 0, 1], [1, 2, 2], directed=True)  # (0 -> 1 -> 2, 0 -> 2)
    >>> directed_transitivity_gpu(G.to("gpu"))  # doctest: +SKIP
    0.5
    """
    ptr, code, o = _oriented(G, "directed_transitivity_gpu")
    cp = cupy()
    hist = cp.zeros(64, dtype=cp.uint64)
    gpu.run_arcs(o, gpu.CENSUS, hist=hist)
    triples = int(hist.get().astype("int64") @ TRANSITIVE_TRIPLES)
    if triples == 0:
        return 0.0
    out = _row_sums(ptr, code & 1)
    return triples / int((out * (out - 1)).sum())
