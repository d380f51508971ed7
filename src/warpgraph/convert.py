"""Conversions between :class:`warpgraph.Graph` and SciPy / CuPy sparse matrices and NetworkX."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import numpy as np

from . import _arrays
from .errors import InvalidArgumentError

if TYPE_CHECKING:
    from .graph import Graph


def _is_cupy_sparse(A: Any) -> bool:
    return type(A).__module__.startswith("cupyx")


def from_scipy(cls, A: Any, *, directed: bool, weighted: bool) -> Graph:
    """See :meth:`Graph.from_scipy`."""
    if not hasattr(A, "tocoo") or len(getattr(A, "shape", ())) != 2:
        raise InvalidArgumentError(
            f"expected a SciPy or CuPy sparse matrix, got {type(A).__name__}"
        )
    if A.shape[0] != A.shape[1]:
        raise InvalidArgumentError(f"adjacency matrix must be square, got shape {A.shape}")
    n = int(A.shape[0])
    coo = A.tocoo()
    row, col = coo.row, coo.col
    data = coo.data if weighted and coo.data.dtype != np.bool_ else None
    if not directed:
        if not csr_is_symmetric_matrix(A):
            raise InvalidArgumentError(
                "directed=False needs a symmetric matrix; symmetrize it first (e.g. A.maximum(A.T))"
                " or load it directed and call .to_undirected()"
            )
        keep = row <= col
        row, col = row[keep], col[keep]
        data = None if data is None else data[keep]
    return cls.from_edges(row, col, data, num_vertices=n, directed=directed)


def csr_is_symmetric_matrix(A: Any) -> bool:
    """True when ``A`` equals its transpose (pattern and values)."""
    A = A.tocsr()
    diff = A - A.T
    if _is_cupy_sparse(A):
        return int(abs(diff).sum()) == 0 and _same_pattern(A)
    return diff.count_nonzero() == 0 and _same_pattern(A)


def _same_pattern(A: Any) -> bool:
    P = A.copy()
    P.data = P.data * 0 + 1  # explicit zeros count as entries
    return (
        (P - P.T).count_nonzero() == 0 if not _is_cupy_sparse(A) else int(abs(P - P.T).sum()) == 0
    )


def csr_is_symmetric(indptr, indices, weights) -> bool:
    """True when the CSR arrays hold both arcs of every edge, with equal weights."""
    import scipy.sparse as sp

    if _arrays.is_cupy(indptr):
        indptr, indices = indptr.get(), indices.get()
        weights = None if weights is None else weights.get()
    n = indptr.shape[0] - 1
    data = np.ones(indices.shape[0], np.int64) if weights is None else weights
    A = sp.csr_array((data, indices, indptr), shape=(n, n))
    return csr_is_symmetric_matrix(A)


def to_scipy(G: Graph, dtype: Any = None):
    """See :meth:`Graph.to_scipy`."""
    n = G.num_vertices
    if G.weights is not None:
        data = G.weights if dtype is None else G.weights.astype(dtype)
    else:
        xp = G._xp()
        data = xp.ones(G.num_arcs, dtype=np.float64 if dtype is None else dtype)
    if G.device == "gpu":
        import cupyx.scipy.sparse as csp

        return csp.csr_matrix((data, G.indices, G.indptr), shape=(n, n))
    import scipy.sparse as sp

    return sp.csr_array((data, G.indices, G.indptr), shape=(n, n))


def pattern_matrix(G: Graph):
    """SciPy ``csr_array`` of the structure alone (bool ones), whatever the weights.

    Use it for structural SciPy calls (components, BFS orders): SciPy's csgraph drops entries
    whose value is 0, so a zero-weight edge would vanish from a weighted matrix.
    """
    import scipy.sparse as sp  # noqa: PLC0415

    g = G.to("cpu")
    n = g.num_vertices
    return sp.csr_array((np.ones(g.num_arcs, dtype=np.bool_), g.indices, g.indptr), shape=(n, n))


def from_networkx(cls, nxG: Any, *, weight: str | None, nodelist: Any) -> Graph:
    """See :meth:`Graph.from_networkx`."""
    nodes = list(nxG) if nodelist is None else list(nodelist)
    index = {v: i for i, v in enumerate(nodes)}
    if len(index) != len(nodes):
        raise InvalidArgumentError("nodelist contains duplicate nodes")
    n = len(nodes)
    m = nxG.number_of_edges()
    src = np.empty(m, dtype=np.int64)
    dst = np.empty(m, dtype=np.int64)
    has_weight = weight is not None and any(weight in d for *_e, d in nxG.edges(data=True))
    w = np.empty(m, dtype=np.float64) if has_weight else None
    k = 0
    try:
        for u, v, d in nxG.edges(data=True):
            src[k] = index[u]
            dst[k] = index[v]
            if has_weight:
                w[k] = d.get(weight, 1)
            k += 1
    except KeyError as exc:
        raise InvalidArgumentError(f"edge endpoint {exc.args[0]!r} is not in nodelist") from None
    except (TypeError, ValueError) as exc:
        raise InvalidArgumentError(f"edge attribute {weight!r} is not numeric: {exc}") from None
    if has_weight and np.all(w == np.round(w)) and np.all(np.abs(w) < 2**53):
        w = w.astype(np.int64)  # integer weights stay integers (exact SSSP on ints)
    G = cls.from_edges(
        src[:k], dst[:k], None if w is None else w[:k], num_vertices=n, directed=nxG.is_directed()
    )
    if nodes != list(range(n)):
        G.vertex_labels = nodes
    return G


def to_networkx(G: Graph, weight: str):
    """See :meth:`Graph.to_networkx`."""
    import networkx as nx

    multi = G.has_parallel_edges()
    if G.directed:
        H = nx.MultiDiGraph() if multi else nx.DiGraph()
    else:
        H = nx.MultiGraph() if multi else nx.Graph()
    labels = G.vertex_labels
    H.add_nodes_from(range(G.num_vertices) if labels is None else labels)
    src, dst, w = (None if a is None else _arrays.to_host(a) for a in G.edges())
    if labels is not None:
        lab = _arrays.object_array(labels)
        src, dst = lab[src], lab[dst]
    else:
        src, dst = src.tolist(), dst.tolist()
    if w is None:
        H.add_edges_from(zip(src, dst, strict=True))
    else:
        H.add_weighted_edges_from(zip(src, dst, w.tolist(), strict=True), weight=weight)
    return H
