"""Lattices and road-like graphs: 2-D and 3-D grids, and connected grid subgraphs with lengths.

``road_like`` imitates the graphs of the DIMACS road networks (GAP's ``road`` input): planar,
connected, of high diameter (at least about ``2 * sqrt(n)``), with degrees between 1 and 4
(average about 2.4 in USA-road-d) and integer edge lengths. It keeps a random spanning tree of a
grid (Kruskal on random priorities, so the graph stays connected) plus each other grid edge with
the probability that gives the requested average degree; the vertices sit on the grid with a
random jitter, and an edge's weight is its Euclidean length in hundredths of a grid step.
"""

from __future__ import annotations

import math
from typing import Any

import numba as nb
import numpy as np

from ..errors import InvalidArgumentError
from . import _counter_rng as crng
from ._common import (
    STREAM_WEIGHTS,
    SeedLike,
    check_device,
    check_host_edges,
    check_int,
    check_real,
    check_weights_kind,
    id_dtype,
    numpy_rng,
    seed_sequence,
    stream_keys,
    to_graph,
)
from .weights import WEIGHT_KINDS, weights_from_key

__all__ = ["grid_2d", "grid_2d_edges", "grid_3d", "grid_3d_edges", "road_like", "road_like_edges"]

_MAX_VERTICES = 2**40


def _on_device(arrays: tuple, device: str) -> tuple:
    if device == "gpu":
        from ..device import cupy

        cp = cupy()
        return tuple(cp.asarray(a) for a in arrays)
    return arrays


def _lattice_edges(shape: tuple[int, ...]) -> tuple[np.ndarray, np.ndarray]:
    """Edges between neighbours along each axis of a row-major lattice of ``shape``."""
    n = math.prod(shape)
    m = sum(n // side * (side - 1) for side in shape if side)
    check_host_edges(m, n, f"a {' x '.join(map(str, shape))} lattice", gpu_builds_it=False)
    ids = np.arange(n, dtype=id_dtype(n)).reshape(shape)
    src, dst = [], []
    for axis in range(len(shape)):
        lo = [slice(None)] * len(shape)
        hi = [slice(None)] * len(shape)
        lo[axis] = slice(None, -1)
        hi[axis] = slice(1, None)
        src.append(ids[tuple(lo)].ravel())
        dst.append(ids[tuple(hi)].ravel())
    return np.concatenate(src), np.concatenate(dst)


def _grid_weights(m: int, seed: SeedLike, weights: Any, device: str):
    kind = check_weights_kind(weights, WEIGHT_KINDS)
    if kind is None:
        return None
    return weights_from_key(stream_keys(seed)[STREAM_WEIGHTS], m, kind, device)


def grid_2d_edges(rows: int, cols: int, *, device: str = "auto") -> tuple[Any, Any]:
    """Edges of the ``rows x cols`` grid; vertex ``r * cols + c`` is row ``r``, column ``c``.

    The ``(rows - 1) * cols`` vertical edges come first, then the ``rows * (cols - 1)``
    horizontal ones, each as ``(smaller id, larger id)``.

    Examples
    --------
    >>> from warpgraph.generators import grid_2d_edges
    >>> src, dst = grid_2d_edges(2, 3, device="cpu")
    >>> list(zip(src.tolist(), dst.tolist()))
    [(0, 3), (1, 4), (2, 5), (0, 1), (1, 2), (3, 4), (4, 5)]
    """
    rows = check_int("rows", rows, 0)
    cols = check_int("cols", cols, 0)
    _check_count(rows * cols)
    return _on_device(_lattice_edges((rows, cols)), check_device(device))


def grid_3d_edges(x: int, y: int, z: int, *, device: str = "auto") -> tuple[Any, Any]:
    """Edges of the ``x * y * z`` lattice; vertex ``(i * y + j) * z + k`` sits at ``(i, j, k)``.

    Examples
    --------
    >>> from warpgraph.generators import grid_3d_edges
    >>> src, dst = grid_3d_edges(2, 2, 2, device="cpu")
    >>> len(src)
    12
    """
    x = check_int("x", x, 0)
    y = check_int("y", y, 0)
    z = check_int("z", z, 0)
    _check_count(x * y * z)
    return _on_device(_lattice_edges((x, y, z)), check_device(device))


def _check_count(n: int) -> None:
    if n > _MAX_VERTICES:
        raise InvalidArgumentError(f"the lattice would have {n} vertices (limit 2**40)")


def grid_2d(
    rows: int,
    cols: int,
    seed: SeedLike = None,
    *,
    weights: str | None = None,
    device: str = "auto",
):
    """The ``rows x cols`` grid graph (undirected, 4-neighbour); NetworkX's ``grid_2d_graph``.

    It has ``rows * (cols - 1) + (rows - 1) * cols`` edges; interior vertices have degree 4,
    border ones 3 and corners 2.

    Parameters
    ----------
    rows, cols : int
        Grid size; vertex ``r * cols + c`` is row ``r``, column ``c``.
    seed : int, optional
        Seed of the weights (the grid itself is not random).
    weights : {None, "gap", "graph500"}
        Edge weights (see :func:`~warpgraph.generators.random_weights`).
    device : {"auto", "cpu", "gpu"}
        Where the graph is stored.

    Returns
    -------
    warpgraph.Graph

    Examples
    --------
    >>> from warpgraph.generators import grid_2d
    >>> G = grid_2d(3, 4, device="cpu")
    >>> G.num_vertices, G.num_edges, int(G.degree().max())
    (12, 17, 4)
    """
    dev = check_device(device)
    src, dst = grid_2d_edges(rows, cols, device="cpu")
    w = _grid_weights(len(src), seed, weights, "cpu")
    return to_graph(src, dst, w, rows * cols, directed=False, simple=False, device=dev)


def grid_3d(
    x: int,
    y: int,
    z: int,
    seed: SeedLike = None,
    *,
    weights: str | None = None,
    device: str = "auto",
):
    """The ``x * y * z`` lattice graph (undirected, 6-neighbour).

    It has ``(x-1)yz + x(y-1)z + xy(z-1)`` edges; interior vertices have degree 6.

    Parameters
    ----------
    x, y, z : int
        Lattice size; vertex ``(i * y + j) * z + k`` sits at ``(i, j, k)``.
    seed : int, optional
        Seed of the weights.
    weights : {None, "gap", "graph500"}
        Edge weights (see :func:`~warpgraph.generators.random_weights`).
    device : {"auto", "cpu", "gpu"}
        Where the graph is stored.

    Returns
    -------
    warpgraph.Graph

    Examples
    --------
    >>> from warpgraph.generators import grid_3d
    >>> G = grid_3d(3, 3, 3, device="cpu")
    >>> G.num_vertices, G.num_edges, int(G.degree().max())
    (27, 54, 6)
    """
    dev = check_device(device)
    src, dst = grid_3d_edges(x, y, z, device="cpu")
    w = _grid_weights(len(src), seed, weights, "cpu")
    return to_graph(src, dst, w, x * y * z, directed=False, simple=False, device=dev)


# ------------------------------------------------------------------------------ road-like


def _road_shape(n: Any, rows: Any, cols: Any) -> tuple[int, int, int]:
    """(n, rows, cols) of the grid that holds the road graph (last row possibly partial)."""
    if n is not None:
        if rows is not None or cols is not None:
            raise InvalidArgumentError("give either n or rows/cols, not both")
        n = check_int("n", n, 1, _MAX_VERTICES)
        cols = math.isqrt(n - 1) + 1
        return n, -(-n // cols), cols
    if rows is None:
        raise InvalidArgumentError("give n (number of vertices) or rows (and optionally cols)")
    rows = check_int("rows", rows, 1)
    cols = rows if cols is None else check_int("cols", cols, 1)
    _check_count(rows * cols)
    return rows * cols, rows, cols


@nb.njit(cache=True, nogil=True)
def _partial_grid_edges(n, cols):
    """Grid edges among vertices ``0..n-1`` placed row-major on ``cols`` columns.

    Horizontal edges ``(i, i + 1)`` first, then vertical ones ``(i, i + cols)``.
    """
    full_rows = n // cols
    last = n - full_rows * cols
    count = full_rows * (cols - 1) + max(last - 1, 0) + max(n - cols, 0)
    src = np.empty(count, dtype=np.int64)
    dst = np.empty(count, dtype=np.int64)
    k = 0
    for i in range(n - 1):
        if i % cols != cols - 1:
            src[k] = i
            dst[k] = i + 1
            k += 1
    for i in range(n - cols):
        src[k] = i
        dst[k] = i + cols
        k += 1
    return src, dst


@nb.njit(cache=True, nogil=True)
def _kruskal_forest(n, src, dst, order):
    """Mask of the edges Kruskal keeps when it scans them in ``order`` (union-find, halving)."""
    parent = np.arange(n)
    keep = np.zeros(src.shape[0], dtype=np.bool_)
    joined = 0
    for i in range(order.shape[0]):
        e = order[i]
        a = src[e]
        while parent[a] != a:
            parent[a] = parent[parent[a]]
            a = parent[a]
        b = dst[e]
        while parent[b] != b:
            parent[b] = parent[parent[b]]
            b = parent[b]
        if a != b:
            parent[a] = b
            keep[e] = True
            joined += 1
            if joined == n - 1:
                break
    return keep


def road_like_edges(
    n: int | None = None,
    seed: SeedLike = None,
    *,
    rows: int | None = None,
    cols: int | None = None,
    avg_degree: float | None = None,
    jitter: float = 0.3,
    device: str = "auto",
) -> tuple[Any, Any, Any]:
    """Edges and vertex positions of a connected, planar, road-like grid subgraph.

    Parameters
    ----------
    n : int, optional
        Number of vertices, placed row-major on a ``ceil(sqrt(n))``-column grid (the last row
        may be partial). Give ``n`` or ``rows`` (and ``cols``, default ``rows``).
    seed : int, optional
        Seed (NumPy's PCG64 stream); ``None`` draws fresh entropy.
    rows, cols : int, optional
        Grid size instead of ``n``.
    avg_degree : float, optional
        Target average degree, between ``2 (n - 1) / n`` (a spanning tree) and that of the full
        grid (about 4). Road networks have about 2.4 to 2.8. Default 2.5, or the nearest
        feasible value on grids too small for it.
    jitter : float
        Each vertex moves by up to ``jitter`` grid steps (uniform in each coordinate) from its
        grid point; in ``[0, 0.5)``.
    device : {"auto", "cpu", "gpu"}
        Generated on the CPU; CuPy arrays are returned for ``"gpu"``.

    Returns
    -------
    src, dst : numpy.ndarray or cupy.ndarray
        Edges ``(u, v)`` with ``u < v``, each a horizontal or vertical grid step.
    positions : numpy.ndarray or cupy.ndarray
        ``(n, 2)`` float64 array of ``(x, y)`` = (column, row) coordinates, in grid steps.

    Raises
    ------
    InvalidArgumentError
        For a bad size, ``avg_degree`` outside the feasible range, or a bad jitter.

    Examples
    --------
    >>> from warpgraph.generators import road_like_edges
    >>> src, dst, pos = road_like_edges(100, seed=1, device="cpu")
    >>> pos.shape, len(src) >= 99
    ((100, 2), True)
    """
    n, rows, cols = _road_shape(n, rows, cols)
    jitter = check_real("jitter", jitter, 0.0, 0.5, high_open=True)
    dev = check_device(device)
    gsrc, gdst = _partial_grid_edges(n, cols)
    tree_edges = n - 1
    grid_edges = len(gsrc)
    lo, hi = 2.0 * tree_edges / n, 2.0 * grid_edges / n
    if avg_degree is None:
        avg_degree = min(max(2.5, lo), hi)
    avg_degree = check_real("avg_degree", avg_degree)
    if not lo - 1e-12 <= avg_degree <= hi + 1e-12:
        raise InvalidArgumentError(
            f"avg_degree must be in [{lo:.4g}, {hi:.4g}] for this {rows}x{cols} grid "
            f"(spanning tree .. full grid), got {avg_degree:g}"
        )
    rng = numpy_rng(seed)
    order = crng.random_permutation(rng.integers(0, 2**63, dtype=np.uint64), grid_edges)
    keep = _kruskal_forest(n, gsrc, gdst, order)
    spare = grid_edges - tree_edges
    if spare > 0:
        q = min(max((avg_degree * n / 2.0 - tree_edges) / spare, 0.0), 1.0)
        keep |= rng.random(grid_edges) < q
    dtype = id_dtype(n)
    src = gsrc[keep].astype(dtype)
    dst = gdst[keep].astype(dtype)
    ids = np.arange(n)
    positions = np.column_stack([ids % cols, ids // cols]).astype(np.float64)
    positions += rng.uniform(-jitter, jitter, size=(n, 2))
    return _on_device((src, dst, positions), dev)


def distance_weights(src: Any, dst: Any, positions: Any, unit: float = 100.0) -> np.ndarray:
    """Integer edge lengths: ``max(1, round(unit * |pos[u] - pos[v]|))`` as int32.

    Examples
    --------
    >>> import numpy as np
    >>> from warpgraph.generators.lattice import distance_weights
    >>> pos = np.array([[0.0, 0.0], [3.0, 4.0]])
    >>> distance_weights(np.array([0]), np.array([1]), pos).tolist()
    [500]
    """
    d = np.linalg.norm(positions[src] - positions[dst], axis=1)
    return np.maximum(np.rint(unit * d), 1).astype(np.int32)


def road_like(
    n: int | None = None,
    seed: SeedLike = None,
    *,
    rows: int | None = None,
    cols: int | None = None,
    avg_degree: float | None = None,
    jitter: float = 0.3,
    weights: str | None = "distance",
    device: str = "auto",
):
    """Road-like graph: connected, planar, high diameter, degrees 1 to 4, integer lengths.

    See :func:`road_like_edges` for the structure parameters.

    Parameters
    ----------
    weights : {"distance", None, "gap", "graph500"}
        ``"distance"`` (default): integer Euclidean length of each edge in hundredths of a grid
        step (40 to 171 with the default jitter), like the DIMACS ``-d`` road graphs; or the
        generic kinds of
        :func:`~warpgraph.generators.random_weights`.

    Returns
    -------
    warpgraph.Graph
        Undirected.

    Examples
    --------
    >>> from warpgraph.generators import road_like
    >>> G = road_like(10_000, seed=1, device="cpu")
    >>> G.num_vertices, int(G.degree().max()) <= 4, G.weights.dtype.name
    (10000, True, 'int32')
    """
    dev = check_device(device)
    kind = check_weights_kind(weights, ("distance", *WEIGHT_KINDS))
    ss = seed_sequence(seed)
    src, dst, pos = road_like_edges(
        n, ss, rows=rows, cols=cols, avg_degree=avg_degree, jitter=jitter, device="cpu"
    )
    if kind == "distance":
        w = distance_weights(src, dst, pos)
    else:
        w = _grid_weights(len(src), ss, kind, "cpu")
    return to_graph(src, dst, w, len(pos), directed=False, simple=False, device=dev)
