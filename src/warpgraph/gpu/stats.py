"""GPU building blocks of :mod:`warpgraph.stats`: degrees, degree statistics, BFS levels, WCC.

All functions take CSR arrays already on the device (``indptr`` int64, ``indices`` int32 or
int64, CuPy) and return CuPy arrays or plain Python numbers.

- :func:`out_degrees`, :func:`in_degrees`: int64 degree arrays (``kernels/degree.cu``).
- :func:`degree_stats`: min, max, mean, population std, Gini coefficient and zero count of the
  out- (and in-) degrees. Gini uses the sorted degrees ``x_1 <= ... <= x_n``:
  ``G = 2 * sum(i * x_i) / (n * sum(x)) - (n + 1) / n`` (0 when every degree is 0).
- :func:`bfs_levels`: level-synchronous top-down BFS (``kernels/bfs.cu``), the stand-in used for
  the double-sweep diameter estimate until the BFS family's frontier engine lands.
- :func:`wcc_labels`: weakly connected components by lock-free union-find (a thin wrapper of
  :func:`warpgraph.algorithms.components.gpu.union_find_labels`, ``kernels/wcc.cu``); the label
  of a vertex is the smallest vertex id of its component.

Examples
--------
>>> import cupy as cp
>>> from warpgraph.gpu.csr import build_csr
>>> src, dst = cp.array([0, 1, 3]), cp.array([1, 2, 4])
>>> indptr, indices, _ = build_csr(src, dst, num_vertices=6, directed=False)
>>> bfs_levels(indptr, indices, 0).tolist()
[0, 1, 2, -1, -1, -1]
>>> wcc_labels(indptr, indices).tolist()
[0, 0, 0, 3, 3, 5]
>>> s = degree_stats(indptr, indices, 6, in_degree=False)["out"]
>>> s["max"], s["zeros"], round(s["mean"], 3)
(2, 1, 1.0)
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ..device import cupy
from ..errors import InvalidArgumentError
from .launch import launch
from .loader import declare, get_kernel

__all__ = [
    "bfs_levels",
    "degree_stats",
    "in_degrees",
    "num_components",
    "out_degrees",
    "summarize_degrees",
    "wcc_labels",
]

DOCTEST_NEEDS_GPU = True  # tests/test_doctests.py runs the examples only where a GPU is

_V_TYPES = {"int32": "int", "int64": "long long"}

declare("degree.cu", *(f"count_degrees<{t}>" for t in _V_TYPES.values()))
declare("bfs.cu", *(f"bfs_topdown_step<{t}>" for t in _V_TYPES.values()))


def _csr(cp, indptr: Any, indices: Any):
    if not (
        type(indptr).__module__.startswith("cupy") and type(indices).__module__.startswith("cupy")
    ):
        raise InvalidArgumentError(
            "indptr and indices must be CuPy arrays (move the graph to the GPU)"
        )
    if indptr.ndim != 1 or indptr.size < 1 or indptr.dtype != cp.int64:
        raise InvalidArgumentError(
            f"indptr must be a 1-D int64 array, got {indptr.dtype} {indptr.shape}"
        )
    if indices.ndim != 1 or indices.dtype.name not in _V_TYPES:
        raise InvalidArgumentError(
            f"indices must be a 1-D int32 or int64 array, got {indices.dtype}"
        )
    return cp.ascontiguousarray(indptr), cp.ascontiguousarray(indices)


def out_degrees(indptr: Any):
    """Out-degrees ``indptr[1:] - indptr[:-1]`` as int64."""
    cp = cupy()
    return cp.diff(indptr).astype(cp.int64, copy=False)


def in_degrees(indices: Any, num_vertices: int):
    """In-degrees (occurrences of each id in ``indices``) as int64, by a warp-aggregated
    atomic histogram."""
    cp = cupy()
    n = int(num_vertices)
    counts = cp.zeros(n, dtype=cp.uint64)
    m = int(indices.size)
    if m and n:
        k = get_kernel("degree.cu", f"count_degrees<{_V_TYPES[indices.dtype.name]}>")
        launch(k, m, (cp.ascontiguousarray(indices), m, counts))
    return counts.view(cp.int64)


def summarize_degrees(deg: Any) -> dict[str, float]:
    """min, max, mean, std (population), gini and count of zeros of a degree array (on GPU).

    An empty array gives zeros everywhere.
    """
    cp = cupy()
    n = int(deg.size)
    if n == 0:
        return {"min": 0, "max": 0, "mean": 0.0, "std": 0.0, "gini": 0.0, "zeros": 0}
    x = cp.sort(deg).astype(cp.float64)
    total = float(x.sum())
    mean = total / n
    std = float(cp.sqrt(cp.mean((x - mean) ** 2)))
    if total > 0:
        ranks = cp.arange(1, n + 1, dtype=cp.float64)
        gini = 2.0 * float((ranks * x).sum()) / (n * total) - (n + 1) / n  # no cuBLAS needed
    else:
        gini = 0.0
    return {
        "min": int(deg.min()),
        "max": int(deg.max()),
        "mean": mean,
        "std": std,
        "gini": gini,
        "zeros": int(n - cp.count_nonzero(deg)),
    }


def degree_stats(
    indptr: Any, indices: Any, num_vertices: int, *, in_degree: bool = True
) -> dict[str, dict[str, float]]:
    """Degree statistics of a CSR graph on the GPU.

    Parameters
    ----------
    indptr, indices : cupy.ndarray
        CSR arrays (int64 offsets; int32 or int64 ids).
    num_vertices : int
        ``n`` (``indptr.size - 1``).
    in_degree : bool
        Also summarize in-degrees (skip for undirected graphs, where they equal out-degrees).

    Returns
    -------
    dict
        ``{"out": summary, "in": summary}`` (``"in"`` only when asked), each summary as in
        :func:`summarize_degrees`.
    """
    cp = cupy()
    indptr, indices = _csr(cp, indptr, indices)
    n = int(num_vertices)
    if indptr.size != n + 1:
        raise InvalidArgumentError(f"indptr has {indptr.size} entries, expected n + 1 = {n + 1}")
    result = {"out": summarize_degrees(out_degrees(indptr))}
    if in_degree:
        result["in"] = summarize_degrees(in_degrees(indices, n))
    return result


def bfs_levels(indptr: Any, indices: Any, source: int):
    """BFS levels from ``source``: int32 array, ``levels[source] = 0``, ``-1`` if unreachable.

    Level-synchronous top-down: one kernel launch per level (``kernels/bfs.cu``); the host reads
    the next frontier's size after each level.
    """
    cp = cupy()
    indptr, indices = _csr(cp, indptr, indices)
    n = int(indptr.size) - 1
    if isinstance(source, bool) or not isinstance(source, int | np.integer):
        raise InvalidArgumentError(f"source must be an int, got {source!r}")
    source = int(source)
    if not 0 <= source < n:
        raise InvalidArgumentError(f"source {source} is not a vertex (n = {n})")
    vt = indices.dtype
    levels = cp.full(n, -1, dtype=cp.int32)
    levels[source] = 0
    frontier = cp.empty(n, dtype=vt)
    nxt = cp.empty(n, dtype=vt)
    frontier[0] = source
    size = 1
    counter = cp.zeros(1, dtype=cp.uint64)
    step = get_kernel("bfs.cu", f"bfs_topdown_step<{_V_TYPES[vt.name]}>")
    level = 0
    while size > 0:
        counter.fill(0)
        launch(step, size, (indptr, indices, frontier, size, levels, nxt, counter, level + 1))
        size = int(counter.get()[0])
        frontier, nxt = nxt, frontier
        level += 1
    return levels


def wcc_labels(
    indptr: Any, indices: Any, num_vertices: int | None = None, *, symmetric: bool = False
):
    """Weakly connected component labels: the smallest vertex id of each vertex's component.

    Parameters
    ----------
    indptr, indices : cupy.ndarray
        CSR arrays; arcs are followed in both directions (union-find is symmetric).
    num_vertices : int, optional
        ``n``; default ``indptr.size - 1``.
    symmetric : bool
        The CSR holds both arcs of every edge (an undirected graph): each edge is then hooked
        once instead of twice.

    Returns
    -------
    cupy.ndarray
        Labels, same dtype as ``indices``.
    """
    cp = cupy()
    indptr, indices = _csr(cp, indptr, indices)
    n = int(indptr.size) - 1 if num_vertices is None else int(num_vertices)
    if indptr.size != n + 1:
        raise InvalidArgumentError(f"indptr has {indptr.size} entries, expected n + 1 = {n + 1}")
    from ..algorithms.components.gpu import union_find_labels

    return union_find_labels(indptr, indices, n, symmetric=symmetric)


def num_components(labels: Any) -> int:
    """Number of components in a label array from :func:`wcc_labels` (roots label themselves)."""
    cp = cupy()
    return int(cp.count_nonzero(labels == cp.arange(labels.size, dtype=labels.dtype)))
