"""SSSP oracle: SciPy's ``csgraph.dijkstra`` (non-negative weights) or ``bellman_ford``.

Independent of warpgraph's engines: the arcs are handed to SciPy as a CSR matrix after keeping
the lightest of parallel arcs (SciPy would add them up), with explicit zeros kept (SciPy reads
them as zero-weight edges). Distances come back in warpgraph's conventions: int64 with
``np.iinfo(np.int64).max`` for unreachable vertices when the weights are integers (SciPy works
in float64, exact for integers below 2**53), float64 with ``inf`` otherwise.

Examples
--------
>>> import warpgraph as wg
>>> G = wg.Graph.from_edges([0, 0, 0], [1, 1, 2], weights=[5, 2, 9])
>>> sssp_reference(G, 0).tolist()
[0, 2, 9]
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ...errors import NegativeCycleError
from ...graph import Graph

__all__ = ["lightest_arcs", "sssp_reference"]


def lightest_arcs(G: Graph, weights: Any = None):
    """A SciPy CSR matrix (float64) of ``G``'s arcs, the lightest of each parallel group.

    Examples
    --------
    >>> import warpgraph as wg
    >>> lightest_arcs(wg.Graph.from_edges([0, 0], [1, 1], weights=[3, 1])).toarray().tolist()
    [[0.0, 1.0], [0.0, 0.0]]
    """
    import scipy.sparse as sp

    from ..._arrays import to_host

    G = G.to("cpu")
    n = G.num_vertices
    indptr = np.asarray(G.indptr, dtype=np.int64)
    cols = np.asarray(G.indices, dtype=np.int64)
    if weights is None:
        weights = G.weights
    w = np.ones(cols.size) if weights is None else np.asarray(to_host(weights), np.float64)
    rows = np.repeat(np.arange(n, dtype=np.int64), np.diff(indptr))
    order = np.lexsort((w, cols, rows))  # by row, column, then lightest first
    rows, cols, w = rows[order], cols[order], w[order]
    first = np.ones(rows.size, dtype=bool)
    first[1:] = (rows[1:] != rows[:-1]) | (cols[1:] != cols[:-1])
    rows, cols, w = rows[first], cols[first], w[first]
    new_ptr = np.zeros(n + 1, dtype=np.int64)
    np.add.at(new_ptr, rows + 1, 1)
    return sp.csr_array((w, cols, np.cumsum(new_ptr)), shape=(n, n))


def sssp_reference(
    G: Graph, source: int, weights: Any = None, predecessors: bool = False
) -> np.ndarray | tuple[np.ndarray, np.ndarray]:
    """Distances from ``source`` computed by SciPy (see the module docstring).

    Parameters
    ----------
    G : Graph
    source : int
    weights : array_like, optional
        One per arc; default ``G.weights`` or 1.
    predecessors : bool
        Also return SciPy's predecessor array (-1 for the source and unreachable vertices).

    Raises
    ------
    NegativeCycleError
        If SciPy finds a negative cycle reachable from ``source`` (``vertex`` is the one SciPy
        names, which need not lie on the cycle).
    """
    from scipy.sparse import csgraph

    from ..._arrays import to_host

    if weights is None:
        weights = G.weights
    A = lightest_arcs(G, weights)
    integer = weights is None or np.asarray(to_host(weights)).dtype.kind in "iu"
    negative = A.nnz > 0 and A.data.min() < 0
    fn = csgraph.bellman_ford if negative else csgraph.dijkstra
    try:
        dist, pred = fn(A, directed=True, indices=int(source), return_predecessors=True)
    except csgraph.NegativeCycleError as exc:
        digits = "".join(ch if ch.isdigit() else " " for ch in str(exc)).split()
        raise NegativeCycleError(int(digits[-1]) if digits else int(source)) from exc
    pred = np.where(pred < 0, -1, pred).astype(np.int64)
    if integer:
        out = np.full(dist.shape, np.iinfo(np.int64).max, dtype=np.int64)
        finite = np.isfinite(dist)
        out[finite] = dist[finite].astype(np.int64)
        dist = out
    return (dist, pred) if predecessors else dist
