"""Random geometric graphs (the DIMACS ``rgg_n_2_k`` family) by cell binning.

``n`` points uniform in the unit square (or cube); two points are joined when their Euclidean
distance is at most ``radius``. The points are binned into cells of side at least ``radius``,
so each point is compared only with the points of its own and the adjacent cells: expected
work ``O(n + m)`` instead of ``O(n^2)``. Vertices are numbered in cell order (row-major over
cells), which keeps neighbours close in memory, as in the DIMACS rgg files.

The DIMACS 10th challenge graphs use ``radius = 0.55 * sqrt(ln n / n)``, the default here in 2-D.
"""

from __future__ import annotations

import math
from typing import Any

import numba as nb
import numpy as np

from ..errors import InvalidArgumentError
from ._common import (
    STREAM_WEIGHTS,
    SeedLike,
    check_device,
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

__all__ = ["dimacs_rgg_radius", "random_geometric", "random_geometric_edges"]

_MAX_DIM = 3


def dimacs_rgg_radius(n: int) -> float:
    """The radius of the DIMACS 10th challenge ``rgg_n_2_*`` graphs: ``0.55 sqrt(ln n / n)``.

    Examples
    --------
    >>> from warpgraph.generators import dimacs_rgg_radius
    >>> round(dimacs_rgg_radius(2**15), 4)
    0.0098
    """
    n = check_int("n", n, 2)
    return 0.55 * math.sqrt(math.log(n) / n)


def _unit_ball_volume(dim: int) -> float:
    return math.pi ** (dim / 2) / math.gamma(dim / 2 + 1)


def _radius(n: int, radius: Any, avg_degree: Any, dim: int) -> float:
    if radius is not None and avg_degree is not None:
        raise InvalidArgumentError("give either radius or avg_degree, not both")
    if radius is not None:
        return check_real("radius", radius, 0.0, low_open=True)
    if avg_degree is not None:
        avg_degree = check_real("avg_degree", avg_degree, 0.0, low_open=True)
        if n < 2:
            return 0.0
        return (avg_degree / ((n - 1) * _unit_ball_volume(dim))) ** (1.0 / dim)
    if dim != 2:
        raise InvalidArgumentError("give radius or avg_degree (the DIMACS default is 2-D only)")
    return dimacs_rgg_radius(max(n, 2))


@nb.njit(cache=True, nogil=True)
def _stencil(dim):
    """The 3**dim offsets in {-1, 0, 1}**dim, one per row."""
    k = 3**dim
    out = np.empty((k, dim), dtype=np.int64)
    for s in range(k):
        t = s
        for d in range(dim):
            out[s, d] = t % 3 - 1
            t //= 3
    return out


@nb.njit(parallel=True, cache=True, nogil=True)
def _scan_pairs(pos, cell, start, g, r2, counts, offsets, src, dst, fill):
    """For each point ``i``, the points ``j > i`` within the radius, among adjacent cells.

    ``pos`` is sorted by cell, ``start[c]`` is the first point of cell ``c`` (row-major cells,
    ``g`` per dimension). With ``fill=False`` only ``counts[i]`` is written; with ``fill=True``
    the pairs go to ``src/dst`` from ``offsets[i]`` on.
    """
    n, dim = pos.shape
    stencil = _stencil(dim)
    for i in nb.prange(n):
        c = cell[i]
        coord = np.empty(dim, dtype=np.int64)
        t = c
        for d in range(dim - 1, -1, -1):
            coord[d] = t % g
            t //= g
        found = 0
        for s in range(stencil.shape[0]):
            nc = 0
            inside = True
            for d in range(dim):
                x = coord[d] + stencil[s, d]
                if x < 0 or x >= g:
                    inside = False
                    break
                nc = nc * g + x
            if not inside:
                continue
            # Points are sorted by cell, so j > i skips earlier cells and pairs are seen once.
            for j in range(max(start[nc], i + 1), start[nc + 1]):
                d2 = 0.0
                for d in range(dim):
                    diff = pos[i, d] - pos[j, d]
                    d2 += diff * diff
                if d2 <= r2:
                    if fill:
                        src[offsets[i] + found] = i
                        dst[offsets[i] + found] = j
                    found += 1
        if not fill:
            counts[i] = found


def random_geometric_edges(
    n: int,
    radius: float | None = None,
    seed: SeedLike = None,
    *,
    avg_degree: float | None = None,
    dim: int = 2,
    device: str = "auto",
) -> tuple[Any, Any, Any]:
    """Edges and points of a random geometric graph in the unit square (or cube).

    Parameters
    ----------
    n : int
        Number of points.
    radius : float, optional
        Connection radius (pairs at distance ``<= radius`` are joined). Default in 2-D: the
        DIMACS value ``0.55 * sqrt(ln n / n)``.
    seed : int, optional
        Seed (NumPy's PCG64 stream); ``None`` draws fresh entropy.
    avg_degree : float, optional
        Instead of ``radius``: the radius that gives this expected degree away from the border,
        ``(avg_degree / ((n - 1) V_dim)) ** (1 / dim)`` with ``V_dim`` the unit-ball volume (the
        measured average is a little lower because of the border).
    dim : {1, 2, 3}
        Dimension.
    device : {"auto", "cpu", "gpu"}
        Generated on the CPU; CuPy arrays are returned for ``"gpu"``.

    Returns
    -------
    src, dst : numpy.ndarray or cupy.ndarray
        Edges with ``src < dst``, no repeats.
    positions : numpy.ndarray or cupy.ndarray
        ``(n, dim)`` float64 coordinates in ``[0, 1)``; row ``i`` is vertex ``i``.

    Raises
    ------
    InvalidArgumentError
        For ``n < 0``, a radius or degree <= 0, both given, or ``dim`` outside 1..3.

    Examples
    --------
    >>> import numpy as np
    >>> from warpgraph.generators import random_geometric_edges
    >>> src, dst, pos = random_geometric_edges(500, 0.1, seed=3, device="cpu")
    >>> d = np.linalg.norm(pos[src] - pos[dst], axis=1)
    >>> bool((d <= 0.1).all()), pos.shape
    (True, (500, 2))
    """
    n = check_int("n", n, 0, 2**40)
    dim = check_int("dim", dim, 1, _MAX_DIM)
    r = _radius(n, radius, avg_degree, dim)
    dev = check_device(device)
    rng = numpy_rng(seed)
    pts = rng.random((n, dim))
    # Cells of side 1/g >= r; no more cells than about 2n, so sparse cases stay cheap.
    g = max(1, int(1.0 / r)) if r > 0 else 1
    g = max(1, min(g, int((2 * max(n, 1)) ** (1.0 / dim))))
    coords = np.minimum((pts * g).astype(np.int64), g - 1)
    cell = np.zeros(n, dtype=np.int64)
    for d in range(dim):
        cell = cell * g + coords[:, d]
    order = np.argsort(cell, kind="stable")
    pts = np.ascontiguousarray(pts[order])
    cell = cell[order]
    start = np.zeros(g**dim + 1, dtype=np.int64)
    np.cumsum(np.bincount(cell, minlength=g**dim), out=start[1:])
    counts = np.zeros(n, dtype=np.int64)
    dtype = id_dtype(n)
    empty = np.empty(0, dtype=dtype)
    r2 = r * r
    _scan_pairs(pts, cell, start, g, r2, counts, counts, empty, empty, False)
    offsets = np.zeros(n + 1, dtype=np.int64)
    np.cumsum(counts, out=offsets[1:])
    src = np.empty(offsets[-1], dtype=dtype)
    dst = np.empty(offsets[-1], dtype=dtype)
    _scan_pairs(pts, cell, start, g, r2, counts, offsets, src, dst, True)
    if dev == "gpu":
        from ..device import cupy

        cp = cupy()
        return cp.asarray(src), cp.asarray(dst), cp.asarray(pts)
    return src, dst, pts


def random_geometric(
    n: int,
    radius: float | None = None,
    seed: SeedLike = None,
    *,
    avg_degree: float | None = None,
    dim: int = 2,
    weights: str | None = None,
    device: str = "auto",
):
    """Random geometric graph (see :func:`random_geometric_edges`); undirected.

    Parameters
    ----------
    weights : {None, "distance", "gap", "graph500"}
        ``"distance"``: the Euclidean length of each edge (float64); or the kinds of
        :func:`~warpgraph.generators.random_weights`.

    Returns
    -------
    warpgraph.Graph

    Examples
    --------
    >>> from warpgraph.generators import random_geometric
    >>> G = random_geometric(2**12, seed=1, device="cpu")
    >>> G.num_vertices, G.is_directed()
    (4096, False)
    """
    dev = check_device(device)
    kind = check_weights_kind(weights, ("distance", *WEIGHT_KINDS))
    ss = seed_sequence(seed)
    src, dst, pos = random_geometric_edges(
        n, radius, ss, avg_degree=avg_degree, dim=dim, device="cpu"
    )
    w = None
    if kind == "distance":
        w = np.linalg.norm(pos[src] - pos[dst], axis=1)
    elif kind is not None:
        w = weights_from_key(stream_keys(ss)[STREAM_WEIGHTS], len(src), kind, "cpu")
    return to_graph(src, dst, w, int(n), directed=False, simple=False, device=dev)
