"""R-MAT and the Graph500 Kronecker generator.

Method (Graph500 specification, "Generating the Edge List"; Chakrabarti, Zhan and Faloutsos,
R-MAT, SDM 2004): each of the ``M = edgefactor * 2**scale`` edges descends ``scale`` levels of
the adjacency matrix, at each level entering quadrant A, B, C or D with probabilities
``a, b, c, d``; the quadrant bits of the levels are the bits of the endpoints. Graph500 fixes
``a, b, c, d = 0.57, 0.19, 0.19, 0.05``, keeps self-loops and parallel edges in the list,
relabels the vertices by a random permutation and presents the edges in random order.

Implementation: a counter-based random stream (see ``_counter_rng``) makes edge ``e`` a pure
function of ``(seed, e)``, so the CPU (Numba, parallel over edges) and the GPU (CUDA, one thread
per edge) produce the same list, whatever the thread count.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ..errors import InvalidArgumentError
from . import _counter_rng as crng
from ._common import (
    STREAM_EDGES,
    STREAM_PERMUTATION,
    STREAM_SHUFFLE,
    STREAM_WEIGHTS,
    SeedLike,
    check_device,
    check_host_edges,
    check_int,
    check_real,
    check_weights_kind,
    id_dtype,
    seed_sequence,
    stream_keys,
    to_graph,
)
from .weights import WEIGHT_KINDS, weights_from_key

__all__ = ["GRAPH500_INITIATOR", "kronecker", "kronecker_edges", "rmat", "rmat_edges"]

#: Graph500's initiator probabilities (A, B, C, D).
GRAPH500_INITIATOR = (0.57, 0.19, 0.19, 0.05)
MAX_SCALE = 40  # 2**40 vertices, 16 * 2**40 edges: far beyond any single machine's memory


def _initiator(a: Any, b: Any, c: Any, d: Any) -> tuple[float, float, float, float]:
    """The four quadrant probabilities, checked (``d=None`` means ``1 - a - b - c``)."""
    a = check_real("a", a, 0.0, 1.0)
    b = check_real("b", b, 0.0, 1.0)
    c = check_real("c", c, 0.0, 1.0)
    d = max(1.0 - (a + b + c), 0.0) if d is None else check_real("d", d, 0.0, 1.0)
    if abs(a + b + c + d - 1.0) > 1e-9:
        raise InvalidArgumentError(
            f"the R-MAT probabilities must be >= 0 and sum to 1, got a={a:g}, b={b:g}, "
            f"c={c:g}, d={d:g} (sum {a + b + c + d:g})"
        )
    return a, b, c, d


def _thresholds(a: float, b: float, c: float) -> tuple[np.uint64, np.uint64, np.uint64]:
    """Cumulative quadrant probabilities as 32-bit thresholds (``r < t`` with ``r`` uniform)."""

    def t(p: float) -> np.uint64:
        return np.uint64(min(round(p * 2**32), 2**32))

    return t(a), t(a + b), t(a + b + c)


def _check_size(scale: Any, edgefactor: Any, num_edges: Any = None) -> tuple[int, int, int]:
    scale = check_int("scale", scale, 0, MAX_SCALE)
    edgefactor = check_int("edgefactor", edgefactor, 0)
    n = 1 << scale
    m = edgefactor * n if num_edges is None else check_int("num_edges", num_edges, 0)
    if m >= 2**62:
        raise InvalidArgumentError(f"edgefactor * 2**scale = {m} edges is too many (limit 2**62)")
    return scale, n, m


def rmat_edges(
    scale: int,
    edgefactor: int = 16,
    a: float = 0.57,
    b: float = 0.19,
    c: float = 0.19,
    d: float | None = None,
    *,
    seed: SeedLike = None,
    permute: bool = False,
    shuffle: bool = False,
    num_edges: int | None = None,
    device: str = "auto",
) -> tuple[Any, Any]:
    """Edge list of an R-MAT graph: ``edgefactor * 2**scale`` edges on ``2**scale`` vertices.

    Parameters
    ----------
    scale : int
        Base-2 logarithm of the number of vertices (0 to 40).
    edgefactor : int
        Edges per vertex: the list has ``M = edgefactor * 2**scale`` entries.
    a, b, c, d : float
        Probabilities of the four quadrants (top-left, top-right, bottom-left, bottom-right);
        ``d`` defaults to ``1 - a - b - c``. They must be >= 0 and sum to 1.
    seed : int, optional
        Seed; ``None`` draws fresh entropy. The same seed gives the same list on every run,
        thread count and device.
    permute : bool
        Relabel the vertices by a random permutation (removes the locality of R-MAT labels, in
        which vertex 0 is the largest hub).
    shuffle : bool
        Put the edges in a random order. The edges are independent draws, so their order is
        already random in distribution; this step only exists for literal compliance with a
        specification and costs a sort of ``M`` keys.
    num_edges : int, optional
        Number of edges, instead of ``edgefactor * 2**scale``.
    device : {"auto", "cpu", "gpu"}
        Where the list is made: NumPy arrays on the CPU, CuPy arrays on the GPU.

    Returns
    -------
    src, dst : numpy.ndarray or cupy.ndarray
        Endpoints, int32 while ``scale < 31`` and int64 beyond. Self-loops and repeated edges
        are kept.

    Raises
    ------
    InvalidArgumentError
        For a scale outside ``[0, 40]``, a negative edgefactor, bad probabilities or a bad seed.

    See Also
    --------
    kronecker_edges : R-MAT with Graph500's parameters, permuted.

    Examples
    --------
    >>> from warpgraph.generators import rmat_edges
    >>> src, dst = rmat_edges(4, 8, seed=7, device="cpu")
    >>> len(src), int(max(src.max(), dst.max())) < 16
    (128, True)
    """
    scale, n, m = _check_size(scale, edgefactor, num_edges)
    a, b, c, _ = _initiator(a, b, c, d)
    dev = check_device(device)
    keys = stream_keys(seed)
    t_a, t_ab, t_abc = _thresholds(a, b, c)
    if dev == "gpu":
        from . import _gpu

        return _gpu.rmat_edges(keys, scale, m, (t_a, t_ab, t_abc), permute=permute, shuffle=shuffle)
    check_host_edges(m, n, f"a scale-{scale} R-MAT edge list", vertex_arrays=int(permute))
    dtype = id_dtype(n)
    src = np.empty(m, dtype=dtype)
    dst = np.empty(m, dtype=dtype)
    crng.rmat_pairs(keys[STREAM_EDGES], scale, t_a, t_ab, t_abc, src, dst)
    if permute:
        perm = crng.random_permutation(keys[STREAM_PERMUTATION], n, dtype)
        crng.relabel_pairs(src, dst, perm)
        del perm
    if shuffle:
        order = crng.random_permutation(keys[STREAM_SHUFFLE], m, np.int64)
        src, dst = crng.take_pairs(src, dst, order)
    return src, dst


def kronecker_edges(
    scale: int,
    edgefactor: int = 16,
    seed: SeedLike = None,
    *,
    shuffle: bool = False,
    device: str = "auto",
) -> tuple[Any, Any]:
    """Graph500 Kronecker edge list: the input of Graph500's kernel 1.

    ``M = edgefactor * 2**scale`` edges on ``N = 2**scale`` vertices, drawn by R-MAT with
    A, B, C, D = 0.57, 0.19, 0.19, 0.05, vertex labels randomly permuted, self-loops and
    repeated edges kept (the Graph500 specification requires them in kernel 1's input).

    Parameters
    ----------
    scale : int
        ``SCALE``: base-2 logarithm of the number of vertices.
    edgefactor : int
        Edges per vertex (Graph500 requires 16 for submitted results).
    seed : int, optional
        Seed; ``None`` draws fresh entropy.
    shuffle : bool
        Also shuffle the edge order explicitly (see :func:`rmat_edges`; the order is already
        random in distribution because the edges are independent).
    device : {"auto", "cpu", "gpu"}
        NumPy arrays on the CPU, CuPy arrays on the GPU; the same seed gives the same list.

    Returns
    -------
    src, dst : numpy.ndarray or cupy.ndarray
        Endpoints (int32 while ``scale < 31``).

    Examples
    --------
    >>> from warpgraph.generators import kronecker_edges
    >>> src, dst = kronecker_edges(10, seed=1, device="cpu")
    >>> len(src) == 16 * 2**10
    True
    """
    a, b, c, d = GRAPH500_INITIATOR
    return rmat_edges(
        scale, edgefactor, a, b, c, d, seed=seed, permute=True, shuffle=shuffle, device=device
    )


def _fits(scale: Any, edgefactor: Any, directed: bool) -> bool:
    """Whether the one-shot GPU build fits (bad arguments: True, so that the usual checks
    raise the usual errors)."""
    try:
        scale, n, m = _check_size(scale, edgefactor)
    except InvalidArgumentError:
        return True
    from .chunked import one_shot_fits

    return one_shot_fits(n, m, directed)


def _graph(src, dst, n, ss, weights, directed, simple, device):
    """Graph of a generated edge list, with the weights of seed sequence ``ss``."""
    kind = check_weights_kind(weights, WEIGHT_KINDS)
    w = None
    if kind is not None:
        w = weights_from_key(stream_keys(ss)[STREAM_WEIGHTS], len(src), kind, device)
    return to_graph(src, dst, w, n, directed=directed, simple=simple, device=device)


def rmat(
    scale: int,
    edgefactor: int = 16,
    a: float = 0.57,
    b: float = 0.19,
    c: float = 0.19,
    d: float | None = None,
    seed: SeedLike = None,
    directed: bool = False,
    *,
    weights: str | None = None,
    permute: bool = False,
    simple: bool = True,
    device: str = "auto",
):
    """R-MAT graph (see :func:`rmat_edges` for the parameters).

    Parameters
    ----------
    directed : bool
        Build a directed graph (each edge one arc) or an undirected one.
    weights : {None, "gap", "graph500"}
        Edge weights (see :func:`~warpgraph.generators.random_weights`).
    simple : bool
        Drop self-loops and merge repeated edges (keeping the smallest weight), as GAP's
        builder does. ``False`` keeps the multigraph exactly as generated.
    device : {"auto", "cpu", "gpu"}
        Where the graph is generated and stored.

    Returns
    -------
    warpgraph.Graph

    Examples
    --------
    >>> from warpgraph.generators import rmat
    >>> G = rmat(8, 4, 0.45, 0.15, 0.15, 0.25, seed=3, device="cpu")
    >>> G.num_vertices, G.num_edges <= 4 * 2**8
    (256, True)
    """
    dev = check_device(device)
    check_weights_kind(weights, WEIGHT_KINDS)
    ss = seed_sequence(seed)  # drawn once, so seed=None gives matching edges and weights
    if dev == "gpu" and weights is None and not _fits(scale, edgefactor, directed):
        from .chunked import rmat_chunked

        return rmat_chunked(
            scale, edgefactor, a, b, c, d, ss, directed, permute=permute, simple=simple,
            device=dev,
        )  # fmt: skip
    src, dst = rmat_edges(scale, edgefactor, a, b, c, d, seed=ss, permute=permute, device=dev)
    return _graph(src, dst, 1 << scale, ss, weights, directed, simple, dev)


def kronecker(
    scale: int,
    edgefactor: int = 16,
    seed: SeedLike = None,
    directed: bool = False,
    *,
    weights: str | None = None,
    simple: bool = True,
    device: str = "auto",
):
    """Graph500 Kronecker graph (GAP's ``kron`` with ``-g scale -k edgefactor``).

    Parameters
    ----------
    scale : int
        Base-2 logarithm of the number of vertices.
    edgefactor : int
        Edges per vertex before duplicates and self-loops are removed.
    seed : int, optional
        Seed; ``None`` draws fresh entropy. The graph's edges are those of
        ``kronecker_edges(scale, edgefactor, seed)``.
    directed : bool
        Graph500 and GAP use undirected Kronecker graphs (the default).
    weights : {None, "gap", "graph500"}
        GAP's integers in ``[1, 255]`` or Graph500's floats in ``[0, 1)``; edge ``e`` gets
        ``random_weights(M, weights, seed)[e]``.
    simple : bool
        Drop self-loops and merge repeated edges (smallest weight kept); ``False`` keeps them.
    device : {"auto", "cpu", "gpu"}
        Where the graph is generated and stored. On the GPU an unweighted graph whose edge
        list and one-shot build would not fit in free memory is built chunk by chunk instead
        (the same graph; :func:`~warpgraph.generators.chunked.kronecker_chunked`): scale 27
        then peaks at 22.5 GiB (measured on an H100).

    Returns
    -------
    warpgraph.Graph

    Examples
    --------
    >>> from warpgraph.generators import kronecker
    >>> G = kronecker(10, seed=1, weights="gap", device="cpu")
    >>> G.num_vertices, G.is_directed(), G.weights.dtype.name
    (1024, False, 'int32')
    """
    dev = check_device(device)
    check_weights_kind(weights, WEIGHT_KINDS)
    ss = seed_sequence(seed)
    if dev == "gpu" and weights is None and not _fits(scale, edgefactor, directed):
        from .chunked import kronecker_chunked

        return kronecker_chunked(scale, edgefactor, ss, directed, simple=simple, device=dev)
    src, dst = kronecker_edges(scale, edgefactor, ss, device=dev)
    return _graph(src, dst, 1 << scale, ss, weights, directed, simple, dev)
