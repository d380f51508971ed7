"""The shortest-path functions of :mod:`warpgraph.csgraph` (``shortest_path``, ``dijkstra``,
``bellman_ford``, ``johnson``), with SciPy's methods, sentinels and negative-cycle rules."""

from __future__ import annotations

import warnings
from typing import Any

import numpy as np
import scipy.sparse as sp
from scipy.sparse.csgraph import NegativeCycleError as _ScipyNegativeCycleError

from .. import errors
from .._arrays import id_dtype_for, is_cupy, to_host
from ..cpu.threads import threads_for
from ..device import resolve_device
from ..errors import InvalidArgumentError
from ..graph import Graph
from ._input import NULL, _arcs, _check_bool, _graph, _out, _read

METHODS = ("auto", "FW", "D", "BF", "J")


class NegativeCycleError(_ScipyNegativeCycleError, errors.NegativeCycleError):
    """A negative cycle was found: SciPy's exception type and message, warpgraph's fields
    (``vertex``: a node on the cycle; ``cycle``: its nodes when known)."""

    def __init__(self, message: str, vertex: int = -1, cycle: list[int] | None = None):
        Exception.__init__(self, message)
        self.vertex = int(vertex)
        self.cycle = cycle

    def __reduce__(self):
        return (NegativeCycleError, (str(self), self.vertex, self.cycle))


# ---------------------------------------------------------------- shortest paths
def _sources(indices: Any, n: int) -> tuple[np.ndarray, tuple]:
    """Source nodes (flat, negatives wrapped as SciPy does) and the output's leading shape."""
    if indices is None:
        return np.arange(n, dtype=np.int64), (n,)
    idx = np.array(indices, dtype=np.int64, copy=True)
    if idx.size and (bool((idx < -n).any()) or bool((idx >= n).any())):
        raise InvalidArgumentError("indices out of range 0...N")
    idx[idx < 0] += n
    return idx.reshape(-1), idx.shape


def _auto_method(csgraph: Any, indices: Any, n: int) -> str:
    """The method SciPy's ``shortest_path(method="auto")`` picks for this input: ``"J"`` or
    ``"D"`` (negative weights or not) when ``indices`` is given or the graph has fewer than
    ``N**2 / 4`` edges, ``"FW"`` otherwise. Edges counted as SciPy counts them: a sparse
    matrix's stored entries, a masked array's unmasked ones, a dense array's finite nonzero
    ones. It matters where the methods differ: FW ignores self-loops, Johnson refuses a
    negative cycle anywhere in the graph."""
    if sp.issparse(csgraph) or type(csgraph).__module__.startswith("cupyx"):
        count = int(csgraph.nnz)
        edges = csgraph.data if csgraph.format in ("csr", "csc", "coo") else csgraph.tocoo().data
        if type(csgraph).__module__.startswith("cupyx"):
            edges = to_host(edges)
    elif np.ma.isMaskedArray(csgraph):
        count = int(csgraph.count())
        edges = csgraph.compressed()
    else:
        dense = to_host(csgraph) if is_cupy(csgraph) else np.asarray(csgraph, dtype=np.float64)
        edges = dense[np.isfinite(dense) & (dense != 0)]
        count = int(edges.size)
    if indices is not None or count < n * n / 4:
        return "J" if count and bool((edges < 0).any()) else "D"
    return "FW"


def _without_self_loops(indptr, heads, data):
    """The arcs less those from a node to itself: SciPy's Floyd-Warshall sets each node's
    distance to itself to 0 before it starts, so a self-loop (even a negative one) is ignored
    there, where every other method follows it."""
    rows = np.repeat(np.arange(indptr.shape[0] - 1), np.diff(indptr))
    keep = heads != rows
    return (indptr, heads, data) if bool(keep.all()) else _drop(indptr, heads, data, keep)


def _run(
    graph: Graph, sources: np.ndarray, method: str, dev: str, cycle_message, want_pred: bool
) -> tuple:
    from ..algorithms.sssp import sssp

    try:
        out = sssp(graph, sources, method=method, predecessors=want_pred, device=dev)
    except errors.NegativeCycleError as exc:
        raise NegativeCycleError(cycle_message(exc), exc.vertex, exc.cycle) from None
    dist, pred = out if want_pred else (out, np.zeros(np.shape(out), dtype=np.int64))
    dist, pred = to_host(dist), to_host(pred)
    if dist.dtype.kind in "iu":  # integer weights or hop counts: exact, then SciPy's float64
        far = dist == np.iinfo(dist.dtype).max
        dist = dist.astype(np.float64)
        dist[far] = np.inf
    return dist.astype(np.float64, copy=False), pred


def _shortest(
    csgraph: Any,
    *,
    method: str,
    directed: bool,
    indices: Any,
    return_predecessors: bool,
    unweighted: bool,
    device: str,
    limit: float = np.inf,
    min_only: bool = False,
):
    directed = _check_bool("directed", directed)
    A = _read(csgraph, directed)
    n = A.n
    sources, shape = _sources(indices, n)
    if method == "auto":
        method = _auto_method(csgraph, indices, n)
    indptr, heads, data = (to_host(a) for a in _arcs(A, directed))
    if np.isnan(data).any():
        raise InvalidArgumentError("the graph has NaN weights")
    keep = np.isfinite(data)  # an infinite weight never shortens a path: no edge
    if not keep.all():
        indptr, heads, data = _drop(indptr, heads, data, keep)
    if method == "FW":
        indptr, heads, data = _without_self_loops(indptr, heads, data)
    weights = None if unweighted else data
    negative = weights is not None and weights.size and weights.min() < 0
    if method == "D" and negative:
        warnings.warn(
            "Graph has negative weights: dijkstra will give inaccurate results if the graph "
            "contains negative cycles. Consider johnson or bellman_ford.",
            UserWarning,
            stacklevel=3,
        )
    sssp_method = "hbf" if negative else "auto"
    dev = resolve_device(device)

    def message(exc):
        if method == "FW":
            return f"Negative cycle in nodes {np.array(exc.cycle or [exc.vertex])}"
        return f"Negative cycle detected on node {exc.vertex}"

    if method == "BF":  # SciPy names the source it was searching from

        def message(exc):  # noqa: F811
            return f"Negative cycle detected on node {_first_reaching(graph, sources, exc)}"

    # (one thread count for the whole search: fewer on a busy machine; cpu/threads.py)
    with threads_for(work=n + int(heads.shape[0])):
        graph = _graph(indptr, heads, weights)
        if method == "J" and negative:  # SciPy's Johnson refuses a negative cycle anywhere
            _run(_joined(graph, np.arange(n)), np.array([n]), sssp_method, dev, message, False)
        if min_only:
            dist, pred, origin = _min_only(graph, sources, sssp_method, dev, message)
        elif sources.size:
            dist, pred = _run(graph, sources, sssp_method, dev, message, return_predecessors)
        else:
            dist = np.zeros((0, n), dtype=np.float64)
            pred = np.zeros((0, n), dtype=np.int64)
    if limit != np.inf:
        beyond = dist > limit
        dist[beyond] = np.inf
        pred[beyond] = -1
        if min_only:
            origin[beyond] = -1
    pred = np.where(pred < 0, NULL, pred).astype(np.int32)
    if min_only:
        if return_predecessors:
            origin = np.where(origin < 0, NULL, origin).astype(np.int32)
            return _out(dist, A), _out(pred, A), _out(origin, A)
        return _out(dist, A)
    dist = dist.reshape((*shape, n))  # indices' shape + (N,); (N, N) for all nodes
    pred = pred.reshape(dist.shape)
    if return_predecessors:
        return _out(dist, A), _out(pred, A)
    return _out(dist, A)


def _drop(indptr, heads, data, keep):
    rows = np.repeat(np.arange(indptr.size - 1), np.diff(indptr))
    new = np.zeros_like(indptr)
    np.cumsum(np.bincount(rows[keep], minlength=indptr.size - 1), out=new[1:])
    return new, heads[keep], data[keep]


def _first_reaching(graph: Graph, sources: np.ndarray, exc) -> int:
    """The first source (in order) from which the negative cycle through ``exc.vertex`` is
    reachable: the node SciPy's Bellman-Ford names."""
    from ..algorithms.bfs.api import bfs

    for s in sources.tolist():
        if to_host(bfs(graph, s, device="cpu"))[exc.vertex] >= 0:
            return s
    return exc.vertex


def _joined(graph: Graph, starts: np.ndarray) -> Graph:
    """``graph`` with a new node ``n`` joined by a 0-weight arc to each of ``starts``
    (distinct): one search from ``n`` is a search from all of them at once."""
    n = graph.num_vertices
    w = graph.weights
    indptr = np.concatenate((to_host(graph.indptr), [graph.num_arcs + starts.size]))
    indices = np.concatenate((to_host(graph.indices), starts)).astype(id_dtype_for(n + 1))
    weights = None
    if w is not None:
        weights = np.concatenate((to_host(w), np.zeros(starts.size, dtype=w.dtype)))
    return Graph(indptr, indices, weights, directed=True, validate=False)


def _min_only(graph: Graph, sources: np.ndarray, method: str, dev: str, message) -> tuple:
    """Distances from the nearest source: one search from a new node ``n`` with 0-weight arcs
    to every source; ``origin[v]`` is the source at the root of ``v``'s tree."""
    n = graph.num_vertices
    if not sources.size:
        empty = np.full(n, -1, dtype=np.int64)
        return np.full(n, np.inf), empty, empty.copy()
    aug = _joined(graph, np.unique(sources))
    dist, pred = _run(aug, np.array([n]), method, dev, message, True)
    dist, pred = dist[0, :n], pred[0, :n].copy()
    is_root = pred == n
    pred[is_root] = -1
    origin = np.where(is_root, np.arange(n), pred)  # pointer jumping to each tree's root
    origin[~np.isfinite(dist)] = -1
    while True:
        hop = np.where(origin >= 0, origin, 0)
        nxt = np.where((origin >= 0) & ~is_root[hop], origin[hop], origin)
        nxt = np.where(origin >= 0, nxt, -1)
        if np.array_equal(nxt, origin):
            break
        origin = nxt
    return dist, pred, origin


def shortest_path(
    csgraph: Any,
    method: str = "auto",
    directed: bool = True,
    return_predecessors: bool = False,
    unweighted: bool = False,
    overwrite: bool = False,
    indices: Any = None,
    *,
    device: str = "auto",
):
    """Shortest-path distances, as ``scipy.sparse.csgraph.shortest_path``.

    Every ``method`` (``"auto"``, ``"FW"``, ``"D"``, ``"BF"``, ``"J"``) computes its distances
    with warpgraph's SSSP (Bellman-Ford frontier search when a weight is negative,
    delta-stepping otherwise), one search per source of ``indices``. Where SciPy's methods
    differ, each behaves as SciPy's: ``"FW"`` ignores self-loops (it starts from a zero
    diagonal), ``"J"`` refuses a negative cycle anywhere in the graph (``"BF"`` and ``"D"``
    only one a source reaches), and ``"auto"`` picks as SciPy does (``"J"`` or ``"D"`` when
    ``indices`` is given or the graph has fewer than ``N**2 / 4`` edges, else ``"FW"``).
    ``overwrite`` is accepted and ignored.

    Parameters
    ----------
    csgraph : array_like or sparse matrix
        The N x N graph of edge weights.
    method : {"auto", "FW", "D", "BF", "J"}
        SciPy's method names; ``"D"`` warns about negative weights as SciPy does.
    directed : bool
        False: follow each edge both ways (the lighter of ``A[i, j]``, ``A[j, i]``).
    return_predecessors : bool
        Also return the predecessor matrix (-9999: none).
    unweighted : bool
        Count hops instead of weights.
    overwrite : bool
        Ignored.
    indices : int or array_like of int, optional
        Sources (default every node); an int gives 1-D results.
    device : {"auto", "cpu", "gpu"}
        Where to compute.

    Returns
    -------
    dist_matrix : ndarray of float64
        ``inf`` where unreachable; shape ``indices.shape + (N,)`` (``(N, N)`` by default).
    predecessors : ndarray of int32
        Only with ``return_predecessors``.

    Raises
    ------
    NegativeCycleError
        A negative cycle is reachable from a source (``"BF"``, ``"D"``), or is anywhere in the
        graph (``"J"``, ``"FW"``).

    Examples
    --------
    >>> import scipy.sparse as sp
    >>> from warpgraph import csgraph
    >>> A = sp.csr_array([[0, 0, 7, 0], [0, 0, 8, 5], [7, 8, 0, 0], [0, 5, 0, 0]])
    >>> csgraph.shortest_path(A, directed=False, indices=[0, 2], device="cpu").tolist()
    [[0.0, 15.0, 7.0, 20.0], [7.0, 8.0, 0.0, 13.0]]
    """
    if method not in METHODS:
        raise InvalidArgumentError(f"unrecognized method '{method}'")
    if method == "FW" and indices is not None:
        raise InvalidArgumentError("Cannot specify indices with method == 'FW'.")
    return _shortest(
        csgraph,
        method=method,
        directed=directed,
        indices=indices,
        return_predecessors=return_predecessors,
        unweighted=unweighted,
        device=device,
    )


def floyd_warshall(
    csgraph: Any,
    directed: bool = True,
    return_predecessors: bool = False,
    unweighted: bool = False,
    overwrite: bool = False,
    *,
    device: str = "auto",
):
    """All-pairs shortest paths, as ``scipy.sparse.csgraph.floyd_warshall``.

    The same as :func:`shortest_path` with ``method="FW"``, as in SciPy: self-loops are
    ignored, a negative cycle anywhere in the graph raises, and the distances come from one
    warpgraph SSSP per node rather than SciPy's O(N**3) dense loop.

    Parameters
    ----------
    csgraph : array_like or sparse matrix
        The N x N graph of edge weights.
    directed : bool
        False: follow each edge both ways (the lighter of ``A[i, j]``, ``A[j, i]``).
    return_predecessors : bool
        Also return the predecessor matrix (-9999: none).
    unweighted : bool
        Count hops instead of weights.
    overwrite : bool
        Ignored (SciPy may overwrite a dense input; warpgraph never does).
    device : {"auto", "cpu", "gpu"}
        Where to compute.

    Returns
    -------
    dist_matrix : ndarray of float64, shape (N, N)
        ``inf`` where unreachable.
    predecessors : ndarray of int32, shape (N, N)
        Only with ``return_predecessors``.

    Raises
    ------
    NegativeCycleError
        The graph holds a negative cycle.

    Examples
    --------
    >>> import scipy.sparse as sp
    >>> from warpgraph import csgraph
    >>> A = sp.csr_array([[0, 1, 2, 0], [0, 0, 0, 1], [2, 0, 0, 3], [0, 0, 0, 0]])
    >>> csgraph.floyd_warshall(A, directed=False, device="cpu").tolist()
    [[0.0, 1.0, 2.0, 2.0], [1.0, 0.0, 3.0, 1.0], [2.0, 3.0, 0.0, 3.0], [2.0, 1.0, 3.0, 0.0]]
    """
    return shortest_path(
        csgraph,
        method="FW",
        directed=directed,
        return_predecessors=return_predecessors,
        unweighted=unweighted,
        overwrite=overwrite,
        device=device,
    )


def dijkstra(
    csgraph: Any,
    directed: bool = True,
    indices: Any = None,
    return_predecessors: bool = False,
    unweighted: bool = False,
    limit: float = np.inf,
    min_only: bool = False,
    *,
    device: str = "auto",
):
    """Shortest paths from ``indices``, as ``scipy.sparse.csgraph.dijkstra``.

    Parameters as :func:`shortest_path`, plus:

    limit : float
        Distances above ``limit`` are reported as ``inf`` (predecessor -9999).
    min_only : bool
        One 1-D result: the distance from the nearest source; with ``return_predecessors``
        also the source each node is reached from (``sources``, -9999 if none).

    Returns
    -------
    dist_matrix, [predecessors, [sources]] : ndarrays, as SciPy.

    Examples
    --------
    >>> import scipy.sparse as sp
    >>> from warpgraph import csgraph
    >>> A = sp.csr_array([[0, 1, 2, 0], [0, 0, 0, 1], [0, 0, 0, 3], [0, 0, 0, 0]])
    >>> dist, pred = csgraph.dijkstra(A, directed=False, indices=0, return_predecessors=True,
    ...                               device="cpu")
    >>> dist.tolist(), pred.tolist()
    ([0.0, 1.0, 2.0, 2.0], [-9999, 0, 0, 1])
    """
    try:
        limit = float(limit)
    except (TypeError, ValueError):
        raise InvalidArgumentError(f"limit must be a number, got {limit!r}") from None
    if limit < 0:
        raise InvalidArgumentError("limit must be >= 0")
    return _shortest(
        csgraph,
        method="D",
        directed=directed,
        indices=indices,
        return_predecessors=return_predecessors,
        unweighted=unweighted,
        device=device,
        limit=limit,
        min_only=_check_bool("min_only", min_only),
    )


def bellman_ford(
    csgraph: Any,
    directed: bool = True,
    indices: Any = None,
    return_predecessors: bool = False,
    unweighted: bool = False,
    *,
    device: str = "auto",
):
    """Shortest paths with negative weights allowed, as ``scipy.sparse.csgraph.bellman_ford``.

    Raises :class:`NegativeCycleError` ("Negative cycle detected on node i", ``i`` the first
    source reaching the cycle) as SciPy does. Parameters and returns as :func:`shortest_path`.

    Examples
    --------
    >>> import numpy as np
    >>> from warpgraph import csgraph
    >>> A = np.array([[0, 1, 0], [0, 0, -2], [1, 0, 0]])
    >>> csgraph.bellman_ford(A, indices=0, device="cpu").tolist()
    [0.0, 1.0, -1.0]
    """
    return _shortest(
        csgraph,
        method="BF",
        directed=directed,
        indices=indices,
        return_predecessors=return_predecessors,
        unweighted=unweighted,
        device=device,
    )


def johnson(
    csgraph: Any,
    directed: bool = True,
    indices: Any = None,
    return_predecessors: bool = False,
    unweighted: bool = False,
    *,
    device: str = "auto",
):
    """Shortest paths with negative weights allowed, as ``scipy.sparse.csgraph.johnson``
    (computed as :func:`bellman_ford`; parameters and returns as :func:`shortest_path`). As
    SciPy's, it raises :class:`NegativeCycleError` for a negative cycle anywhere in the graph,
    reachable from ``indices`` or not (one search from a node joined to every node checks).

    Examples
    --------
    >>> import numpy as np
    >>> from warpgraph import csgraph
    >>> csgraph.johnson(np.array([[0, 4], [-1, 0]]), device="cpu").tolist()
    [[0.0, 4.0], [-1.0, 0.0]]
    """
    return _shortest(
        csgraph,
        method="J",
        directed=directed,
        indices=indices,
        return_predecessors=return_predecessors,
        unweighted=unweighted,
        device=device,
    )
