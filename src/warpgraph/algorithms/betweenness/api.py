"""Betweenness centrality: how many shortest paths run through each vertex.

For a source ``s``, Brandes' algorithm (*J. Math. Sociol.* 25(2), 2001) runs one breadth-first
search that counts the shortest paths ``sigma[v]`` from ``s`` to every vertex, then walks the
vertices back from the farthest level, accumulating each one's *dependency*

    delta[v] = sum over arcs (v, w) with dist[w] == dist[v] + 1 of
               sigma[v] * (1 + delta[w]) / sigma[w],

the share of the shortest paths from ``s`` to all other vertices that pass through ``v``. The
betweenness of ``v`` is the sum of ``delta[v]`` over the sources (``v`` itself excluded). With
every vertex a source that is the exact measure; a sample of sources gives Brandes and Pich's
estimate (scale it by ``n / k``).

Both devices pull the dependencies over each vertex's out-arcs (no atomics, no predecessor
lists) and count ``sigma`` forward along the arcs. The CPU runs one search per Numba worker at a
time; the GPU one search per thread block, each with its own level queue (a level is
``__syncthreads`` apart), so a batch of blocks runs as many searches at once. Both add the
sources' dependencies into a fixed number of partial sums, then add those up in order: a result
does not depend on thread timing.

The values are the raw sums over ordered pairs ``(s, t)``: NetworkX's unnormalized values of an
undirected graph are half of them, its normalized ones divide by the number of pairs (see
:mod:`warpgraph.nx.betweenness`).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ...errors import InvalidArgumentError
from ...graph import Graph
from ..bfs.multi_source import source_ids
from ..triangles.api import place

__all__ = ["arc_dependency_sums", "betweenness_centrality", "dependency_sums"]


def betweenness_centrality(
    G: Graph, sources: Any = None, *, endpoints: bool = False, device: str = "auto"
) -> Any:
    """Betweenness of every vertex: the dependencies on it of the searches from ``sources``.

    Parameters
    ----------
    G : Graph
        Directed (paths follow the arcs) or undirected; unweighted (weights are ignored),
        self-loops ignored, parallel arcs counted once.
    sources : array_like of int, optional
        The searches' sources (every vertex by default; a sample gives an estimate).
    endpoints : bool
        Count the paths' ends too: each source gains the number of vertices it reaches, each
        reached vertex one more per search (NetworkX's ``endpoints=True``).
    device : {"auto", "cpu", "gpu"}
        Where to compute; the array lives there.

    Returns
    -------
    float64 array of length ``G.num_vertices``
        The raw sums over ordered pairs ``(s, t)``: halve them for an undirected graph's
        pairs, divide by ``(n - 1) * (n - 2)`` to normalize (every source, no endpoints).

    Raises
    ------
    InvalidArgumentError
        For a source outside ``[0, n)`` or of a non-integer dtype.

    Examples
    --------
    >>> import warpgraph as wg
    >>> from warpgraph.algorithms.betweenness import betweenness_centrality
    >>> G = wg.Graph.from_edges([0, 1, 2], [1, 2, 3], num_vertices=4, directed=False)
    >>> betweenness_centrality(G, device="cpu").tolist()  # a path: 0 - 1 - 2 - 3
    [0.0, 4.0, 4.0, 0.0]
    """
    if not isinstance(G, Graph):
        raise InvalidArgumentError(
            f"betweenness_centrality needs a warpgraph.Graph, got {type(G).__name__}"
        )
    G, dev = place(G, device)
    n = G.num_vertices
    src = source_ids(sources, n)
    if G.num_arcs and G.has_parallel_edges():
        G = G.merge_duplicates()  # (a parallel arc would count its paths twice)
    return dependency_sums(G, src, bool(endpoints), dev)


def dependency_sums(G: Graph, sources: np.ndarray, endpoints: bool, dev: str) -> Any:
    """:func:`betweenness_centrality` of ``G`` on ``dev`` from checked int64 host ``sources``,
    ``G`` known to have no parallel arcs (the NetworkX backend's conversions of simple graphs:
    the check costs ~12 ms at 1M arcs)."""
    if dev == "gpu":
        from .gpu import betweenness_gpu

        return betweenness_gpu(G, sources, endpoints)
    from .cpu import betweenness_cpu

    return betweenness_cpu(G, sources, endpoints)


def arc_dependency_sums(G: Graph, sources: np.ndarray, dev: str) -> Any:
    """Edge betweenness per arc: the shares of the shortest paths from ``sources`` that run
    along each arc (CSR order of ``G``), raw sums over ordered pairs; an undirected edge's
    value is the sum of its two arcs'. ``G`` and ``sources`` as :func:`dependency_sums`'s.

    Examples
    --------
    >>> import warpgraph as wg
    >>> G = wg.Graph.from_edges([0, 1], [1, 2], num_vertices=3, directed=True)
    >>> arc_dependency_sums(G, np.arange(3), "cpu").tolist()  # paths 0-1, 0-1-2, 1-2
    [2.0, 2.0]
    """
    if dev == "gpu":
        from .gpu import betweenness_gpu

        return betweenness_gpu(G, sources, False, arcs=True)
    from .cpu import betweenness_cpu

    return betweenness_cpu(G, sources, False, arcs=True)


def partial_sums(k: int, most: int, fit: int) -> int:
    """How many partial sums the dependencies of ``k`` sources go into: at most ``most``, one
    per source, and no more than ``fit`` (what memory holds). The result depends only on its
    arguments, so the order of the sums does too.

    Examples
    --------
    >>> partial_sums(1000, 32, 10**6), partial_sums(5, 32, 10**6), partial_sums(1000, 32, 0)
    (32, 5, 1)
    """
    return int(max(1, min(most, k, fit)))


def empty_result(n: int, xp: Any = np) -> Any:
    """All zeros (no source, or no vertex)."""
    return xp.zeros(n, dtype=np.float64)
