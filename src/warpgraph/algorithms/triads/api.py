"""Triad census of a directed graph (``networkx.triadic_census``), exact at any size.

Two methods, on the CPU (Numba, parallel) and on the GPU:

- ``"triangles"`` (default): wedge and dyad counts in ``O(m)`` plus one enumeration of the
  triangles on the degree-oriented graph, ``O(m^1.5)``;
- ``"dyads"``: Batagelj & Mrvar's subquadratic algorithm (seed 001), ``O(m Δ)``: canonical
  dyads balanced by ``|N(u)| + |N(v)|`` on the CPU, one thread per dyad and one census per
  thread block on the GPU.

Self-loops are ignored and parallel arcs count once. An undirected graph is read as a directed
one with both arcs of every edge (all dyads mutual; NetworkX refuses undirected graphs).
``003`` is ``C(n, 3)`` minus the rest, in Python integers: it may exceed 64 bits.
"""

from __future__ import annotations

from math import comb

from ...errors import InvalidArgumentError
from ...graph import Graph
from ..triangles.api import place
from .table import TRIAD_NAMES

__all__ = ["METHODS", "TRIAD_NAMES", "triadic_census"]

METHODS = ("triangles", "dyads")


def triadic_census(G: Graph, *, method: str = "triangles", device: str = "auto") -> dict[str, int]:
    """Count the 16 triad types of a directed graph.

    Parameters
    ----------
    G : Graph
        A directed graph (an undirected one counts as all-mutual). Self-loops are ignored and
        parallel arcs count once.
    method : {"triangles", "dyads"}
        Algorithm (see the module docstring); both give the same counts.
    device : {"auto", "cpu", "gpu"}
        Where to compute.

    Returns
    -------
    dict
        ``{"003": ..., "012": ..., ..., "300": ...}`` in NetworkX's order, Python ints summing
        to ``C(n, 3)``.

    Raises
    ------
    InvalidArgumentError
        Unknown ``method``, or ``G`` is not a Graph.

    Examples
    --------
    >>> import warpgraph as wg
    >>> from warpgraph.algorithms.triads import triadic_census
    >>> G = wg.Graph.from_edges([0, 1, 2, 2], [1, 2, 0, 3])  # a 3-cycle and a pendant arc
    >>> c = triadic_census(G, device="cpu")
    >>> c["030C"], c["021C"], c["012"], sum(c.values())
    (1, 1, 1, 4)
    """
    if not isinstance(G, Graph):
        kind = type(G).__name__
        raise InvalidArgumentError(f"triadic_census needs a warpgraph.Graph, got {kind}")
    if method not in METHODS:
        raise InvalidArgumentError(f"method must be one of {METHODS}, got {method!r}")
    G, dev = place(G, device)
    n = G.num_vertices
    if dev == "gpu":
        from . import gpu

        counts = gpu.census_triangles(G) if method == "triangles" else gpu.census_dyads(G)
    else:
        from . import cpu

        ptr, idx, code = cpu.graph_census_adjacency(G)
        if method == "triangles":
            counts = cpu.census_triangles(ptr, idx, code, n)
        else:
            counts = cpu.census_dyads(ptr, idx, code, n)
    counts[0] = comb(n, 3) - sum(counts[1:])
    return dict(zip(TRIAD_NAMES, counts, strict=True))
