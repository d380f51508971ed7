"""Core decomposition: ``core_number`` and ``k_core`` with NetworkX's names and meaning.

The k-core is the largest subgraph in which every vertex has degree >= k; the core number of a
vertex is the largest k whose k-core contains it. Degrees count distinct neighbours: self-loops
are ignored (NetworkX raises on them) and parallel edges count once. For a directed graph the
degree is in-degree + out-degree, as in NetworkX, so a mutual pair counts twice.

CPU: Batagelj-Zaversnik bucket peeling, O(n + m). GPU: level-synchronous parallel peeling.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ...errors import InvalidArgumentError
from ...graph import Graph
from ..triangles.api import place

__all__ = ["core_number", "induced_subgraph", "k_core"]


def _check_graph(G: Any, name: str) -> None:
    if not isinstance(G, Graph):
        raise InvalidArgumentError(f"{name} needs a warpgraph.Graph, got {type(G).__name__}")


def core_number(G: Graph, *, device: str = "auto"):
    """Core number of every vertex.

    Parameters
    ----------
    G : Graph
        Directed or undirected. Self-loops are ignored, parallel edges count once; for a
        directed graph the degree is in + out.
    device : {"auto", "cpu", "gpu"}
        Where to compute; the result lives there.

    Returns
    -------
    int64 array of length ``G.num_vertices`` (NumPy or CuPy).

    See Also
    --------
    k_core

    Examples
    --------
    >>> import warpgraph as wg
    >>> from warpgraph.algorithms.kcore import core_number
    >>> G = wg.Graph.from_edges([0, 0, 1, 2], [1, 2, 2, 3], directed=False)
    >>> core_number(G, device="cpu").tolist()
    [2, 2, 2, 1]
    """
    _check_graph(G, "core_number")
    G, dev = place(G, device)
    return _core_numbers(G, dev)


def _core_numbers(G: Graph, dev: str):
    if dev == "gpu":
        from . import gpu

        return gpu.core_numbers(G)
    from ...cpu.threads import threads_for
    from . import cpu

    in_arcs = G.reverse_csr()[:2] if G.directed else ()  # (the transpose keeps every thread)
    # (peeling rounds of short regions: fewer threads on a busy machine; cpu/threads.py)
    with threads_for(G.num_vertices + G.num_arcs):
        return cpu.core_numbers(G.indptr, G.indices, *in_arcs)


def induced_subgraph(G: Graph, keep_vertex) -> Graph:
    """``G`` restricted to the arcs whose two ends are kept (vertex ids unchanged)."""
    xp = G._xp()
    rows = G._arc_sources()
    mask = keep_vertex[rows] & keep_vertex[G.indices]
    return _arc_subgraph(G, mask, rows, xp)


def _arc_subgraph(G: Graph, mask, rows, xp) -> Graph:
    n = G.num_vertices
    indptr = xp.zeros(n + 1, dtype=np.int64)
    if rows.size:
        xp.cumsum(xp.bincount(rows[mask], minlength=n), out=indptr[1:])
    w = None if G.weights is None else G.weights[mask]
    H = Graph(indptr, G.indices[mask], w, directed=G.directed, validate=False)
    H.vertex_labels = G.vertex_labels
    return H


def k_core(G: Graph, k: int | None = None, core_number=None, *, device: str = "auto") -> Graph:
    """The k-core of ``G``: the subgraph induced by the vertices of core number >= ``k``.

    Parameters
    ----------
    G : Graph
        Directed or undirected (degrees as in :func:`core_number`).
    k : int, optional
        Order of the core; default the largest core number (the main core).
    core_number : array_like, optional
        Precomputed core numbers of ``G``.
    device : {"auto", "cpu", "gpu"}
        Where to compute; the subgraph lives there.

    Returns
    -------
    Graph
        Same vertex ids and count as ``G``; arcs of ``G`` between two vertices of the core
        (their loops and parallel arcs kept). Vertices outside the core are isolated: use
        ``H.subgraph(np.flatnonzero(core_number(G) >= k))`` for a compact copy.

    Raises
    ------
    InvalidArgumentError
        If ``k`` is negative or ``core_number`` has the wrong length.

    Examples
    --------
    >>> import warpgraph as wg
    >>> from warpgraph.algorithms.kcore import k_core
    >>> G = wg.Graph.from_edges([0, 0, 1, 2], [1, 2, 2, 3], directed=False)
    >>> H = k_core(G, 2, device="cpu")
    >>> H.num_edges, H.degree().tolist()
    (3, [2, 2, 2, 0])
    """
    _check_graph(G, "k_core")
    G, dev = place(G, device)
    xp = G._xp()
    if core_number is None:
        core = _core_numbers(G, dev)
    else:
        core = xp.asarray(core_number)
        if core.shape != (G.num_vertices,):
            raise InvalidArgumentError(
                f"core_number has shape {core.shape}, expected ({G.num_vertices},)"
            )
    if k is None:
        k = int(core.max()) if core.size else 0
    if isinstance(k, bool) or not isinstance(k, int | np.integer) or k < 0:
        raise InvalidArgumentError(f"k must be a non-negative integer, got {k!r}")
    return induced_subgraph(G, core >= int(k))
