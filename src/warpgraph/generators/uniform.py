"""Uniform random graphs: GAP's ``urand`` (independent uniform edges) and Erdős–Rényi G(n, p).

``uniform_edges`` draws each endpoint independently and uniformly, as GAPBS's ``-u`` generator
does; self-loops and repeated edges are possible and kept in the list. It uses the same
counter-based stream as the Kronecker generator, so CPU and GPU lists are identical.

``erdos_renyi_edges`` samples G(n, p) exactly, in time proportional to the number of edges: the
gaps between successive present pairs (in a fixed enumeration of all pairs) are geometric with
parameter ``p`` (Batagelj and Brandes, "Efficient generation of large random networks", 2005),
drawn in vectorized batches and turned into pairs with a cumulative sum. For ``p < 1e-9`` the
edge count is drawn from the binomial law and that many distinct pairs are sampled, which avoids
geometric gaps too large for 64-bit sums.
"""

from __future__ import annotations

import math
from typing import Any

import numba as nb
import numpy as np

from ..errors import InvalidArgumentError
from . import _counter_rng as crng
from ._common import (
    STREAM_EDGES,
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

__all__ = ["erdos_renyi", "erdos_renyi_edges", "uniform", "uniform_edges"]

MAX_VERTICES = 2**31 - 1  # keeps n * (n - 1) below 2**62
_TINY_P = 1e-9  # below this, G(n, p) samples distinct pair numbers instead of geometric gaps


def _edge_count(n: int, m: Any, edgefactor: Any) -> int:
    if m is not None and edgefactor is not None:
        raise InvalidArgumentError("give either m or edgefactor, not both")
    if m is None:
        edgefactor = 16 if edgefactor is None else check_int("edgefactor", edgefactor, 0)
        m = edgefactor * n
    m = check_int("m", m, 0, 2**62)
    if n == 0 and m > 0:
        raise InvalidArgumentError(f"cannot place m={m} edges on a graph with no vertices")
    return m


def uniform_edges(
    n: int,
    m: int | None = None,
    seed: SeedLike = None,
    *,
    edgefactor: int | None = None,
    device: str = "auto",
) -> tuple[Any, Any]:
    """``m`` edges with both endpoints independent and uniform on ``range(n)`` (GAP's urand).

    Parameters
    ----------
    n : int
        Number of vertices.
    m : int, optional
        Number of edges. Default ``edgefactor * n``.
    seed : int, optional
        Seed; ``None`` draws fresh entropy. Same seed, same list on every device.
    edgefactor : int, optional
        Edges per vertex when ``m`` is not given (default 16, GAP's ``-k``; the average degree
        of the undirected graph is then about ``2 * edgefactor``).
    device : {"auto", "cpu", "gpu"}
        NumPy arrays on the CPU, CuPy arrays on the GPU.

    Returns
    -------
    src, dst : numpy.ndarray or cupy.ndarray
        Endpoints (int32 while ``n <= 2**31``). Self-loops and repeated edges are kept.

    Raises
    ------
    InvalidArgumentError
        For negative ``n`` or ``m``, both ``m`` and ``edgefactor``, or edges with no vertices.

    Examples
    --------
    >>> from warpgraph.generators import uniform_edges
    >>> src, dst = uniform_edges(100, 1000, seed=2, device="cpu")
    >>> len(src), bool((src < 100).all() and (dst < 100).all())
    (1000, True)
    """
    n = check_int("n", n, 0, 2**62)
    m = _edge_count(n, m, edgefactor)
    dev = check_device(device)
    key = stream_keys(seed)[STREAM_EDGES]
    if dev == "gpu":
        from . import _gpu

        return _gpu.uniform_edges(key, n, m)
    check_host_edges(m, n, "a uniform random edge list", vertex_arrays=0)
    dtype = id_dtype(n)
    src = np.empty(m, dtype=dtype)
    dst = np.empty(m, dtype=dtype)
    if m:
        crng.uniform_pairs(key, n, m, src, dst)
    return src, dst


def uniform(
    n: int,
    m: int | None = None,
    seed: SeedLike = None,
    directed: bool = False,
    *,
    edgefactor: int | None = None,
    weights: str | None = None,
    simple: bool = True,
    device: str = "auto",
):
    """Uniform random graph (GAP's ``urand``; see :func:`uniform_edges`).

    Parameters
    ----------
    directed : bool
        Directed graph (each edge one arc) or undirected (default).
    weights : {None, "gap", "graph500"}
        Edge weights (see :func:`~warpgraph.generators.random_weights`).
    simple : bool
        Drop self-loops and merge repeated edges, as GAP's builder does; ``False`` keeps them.

    Returns
    -------
    warpgraph.Graph

    Examples
    --------
    >>> from warpgraph.generators import uniform
    >>> G = uniform(1000, edgefactor=8, seed=1, device="cpu")
    >>> G.num_vertices, 7900 < G.num_edges <= 8000
    (1000, True)
    """
    dev = check_device(device)
    kind = check_weights_kind(weights, WEIGHT_KINDS)
    ss = seed_sequence(seed)
    src, dst = uniform_edges(n, m, ss, edgefactor=edgefactor, device=dev)
    w = None
    if kind is not None:
        w = weights_from_key(stream_keys(ss)[STREAM_WEIGHTS], len(src), kind, dev)
    return to_graph(src, dst, w, int(n), directed=directed, simple=simple, device=dev)


# ----------------------------------------------------------------------------- G(n, p)


@nb.njit(parallel=True, cache=True, nogil=True)
def _pairs_of_indices(k, n, directed, src, dst):
    """Pair number ``k[i]`` of the enumeration of all pairs -> ``(src[i], dst[i])``.

    Directed: ``k = u * (n - 1) + r`` with ``v = r + (r >= u)`` (no self-loops). Undirected:
    ``k = v * (v - 1) / 2 + u`` with ``u < v``; ``v`` comes from a floating-point square root,
    then is corrected exactly with integer arithmetic.
    """
    for i in nb.prange(k.shape[0]):
        ki = k[i]
        if directed:
            u = ki // (n - 1)
            r = ki - u * (n - 1)
            src[i] = u
            dst[i] = r + (1 if r >= u else 0)
        else:
            v = np.int64((1.0 + math.sqrt(1.0 + 8.0 * float(ki))) * 0.5)
            while v * (v - 1) // 2 > ki:
                v -= 1
            while (v + 1) * v // 2 <= ki:
                v += 1
            src[i] = ki - v * (v - 1) // 2
            dst[i] = v


def _sorted_unique(x: np.ndarray) -> np.ndarray:
    """Sorted distinct values (a sort and a mask: faster than ``np.unique`` here)."""
    x = np.sort(x)
    if x.size < 2:
        return x
    keep = np.empty(x.size, dtype=bool)
    keep[0] = True
    np.not_equal(x[1:], x[:-1], out=keep[1:])
    return x[keep]


def _gnp_indices(rng: np.random.Generator, total: int, p: float) -> np.ndarray:
    """Sorted indices of the present pairs among ``total``, each present with probability p."""
    if total == 0 or p == 0.0:
        return np.empty(0, dtype=np.int64)
    if p == 1.0:
        return np.arange(total, dtype=np.int64)
    if p < _TINY_P:
        count = int(rng.binomial(total, p))
        chosen = _sorted_unique(rng.integers(0, total, size=count, dtype=np.int64))
        while chosen.size < count:  # rare repeats: top up (a few rounds at most)
            extra = rng.integers(0, total, size=count - chosen.size, dtype=np.int64)
            chosen = _sorted_unique(np.concatenate([chosen, extra]))
        return chosen
    # Each batch sums to about total + (6 sqrt(total p) + 16) / p < 2**63 for p >= 1e-9.
    expected = total * p
    parts = []
    last = -1  # index of the last present pair so far
    batch = int(expected + 6.0 * math.sqrt(expected) + 16)
    while True:
        pos = np.cumsum(rng.geometric(p, size=batch), dtype=np.int64)
        pos += last
        done = pos[-1] >= total
        if done:
            pos = pos[: np.searchsorted(pos, total)]
        parts.append(pos)
        if done:
            break
        last = int(pos[-1])
        batch = int((total - last) * p + 6.0 * math.sqrt((total - last) * p) + 16)
    return parts[0] if len(parts) == 1 else np.concatenate(parts)


def erdos_renyi_edges(
    n: int,
    p: float,
    seed: SeedLike = None,
    directed: bool = False,
    *,
    device: str = "auto",
) -> tuple[Any, Any]:
    """Edges of an Erdős–Rényi G(n, p) graph: every pair present independently with probability p.

    Parameters
    ----------
    n : int
        Number of vertices (at most ``2**31 - 1``).
    p : float
        Edge probability in ``[0, 1]``.
    seed : int, optional
        Seed (NumPy's PCG64 stream); ``None`` draws fresh entropy.
    directed : bool
        Consider the ``n (n - 1)`` ordered pairs instead of the ``n (n - 1) / 2`` unordered ones.
    device : {"auto", "cpu", "gpu"}
        Generated on the CPU; CuPy arrays are returned for ``"gpu"``.

    Returns
    -------
    src, dst : numpy.ndarray or cupy.ndarray
        Endpoints, no self-loops or repeats; undirected pairs have ``src < dst``. Sorted by
        ``dst`` then ``src`` (undirected) or by ``src`` then ``dst`` (directed).

    Raises
    ------
    InvalidArgumentError
        For ``n`` out of range or ``p`` outside ``[0, 1]``.

    Examples
    --------
    >>> from warpgraph.generators import erdos_renyi_edges
    >>> src, dst = erdos_renyi_edges(5, 1.0, seed=0, device="cpu")
    >>> len(src), bool((src < dst).all())
    (10, True)
    """
    n = check_int("n", n, 0, MAX_VERTICES)
    p = check_real("p", p, 0.0, 1.0)
    dev = check_device(device)
    total = n * (n - 1) if directed else n * (n - 1) // 2
    k = _gnp_indices(numpy_rng(seed), total, p)
    dtype = id_dtype(n)
    src = np.empty(k.shape[0], dtype=dtype)
    dst = np.empty(k.shape[0], dtype=dtype)
    if k.shape[0]:
        _pairs_of_indices(k, n, bool(directed), src, dst)
    if dev == "gpu":
        from ..device import cupy

        return cupy().asarray(src), cupy().asarray(dst)
    return src, dst


def erdos_renyi(
    n: int,
    p: float,
    seed: SeedLike = None,
    directed: bool = False,
    *,
    weights: str | None = None,
    device: str = "auto",
):
    """Erdős–Rényi G(n, p) graph (see :func:`erdos_renyi_edges`); NetworkX's ``gnp_random_graph``.

    Parameters
    ----------
    weights : {None, "gap", "graph500"}
        Edge weights (see :func:`~warpgraph.generators.random_weights`).

    Returns
    -------
    warpgraph.Graph

    Examples
    --------
    >>> from warpgraph.generators import erdos_renyi
    >>> G = erdos_renyi(100, 0.1, seed=4, device="cpu")
    >>> G.num_vertices, 350 < G.num_edges < 650
    (100, True)
    """
    dev = check_device(device)
    kind = check_weights_kind(weights, WEIGHT_KINDS)
    ss = seed_sequence(seed)
    src, dst = erdos_renyi_edges(n, p, ss, directed, device="cpu")
    w = None
    if kind is not None:
        w = weights_from_key(stream_keys(ss)[STREAM_WEIGHTS], len(src), kind, "cpu")
    return to_graph(src, dst, w, int(n), directed=directed, simple=False, device=dev)
