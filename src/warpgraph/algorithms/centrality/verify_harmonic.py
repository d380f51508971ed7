"""Checks for harmonic centrality: the shape and range every correct result has, and sampled
targets recomputed from SciPy's breadth-first distances, added in the same order (so equal).

1. one finite value per target, each in ``[0, k]`` for ``k`` sources (every term is at most 1);
2. for ``samples`` targets (seeded), the value equals, bit for bit, the sequential sum of
   ``1 / d(v, u)`` in the requested order, with ``d`` from
   :func:`scipy.sparse.csgraph.shortest_path` (unweighted) on a matrix built from the arcs.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import scipy.sparse as sps
from scipy.sparse.csgraph import shortest_path

from ..._arrays import to_host
from ...errors import InvalidArgumentError, VerificationError
from ..bfs.multi_source import source_ids

__all__ = ["verify_harmonic_centrality"]


def _reversed_matrix(G) -> sps.csr_array:
    """``R[u, v] = 1`` for each arc ``v -> u`` (both ways for an undirected graph): searches
    from a target over ``R`` give the distances *to* it."""
    g = G.to("cpu")
    n = g.num_vertices
    tails = np.repeat(np.arange(n, dtype=np.int64), np.diff(np.asarray(g.indptr)))
    heads = np.asarray(g.indices, dtype=np.int64)
    ones = np.ones(tails.size)
    return sps.coo_array((ones, (heads, tails)), shape=(n, n)).tocsr()


def verify_harmonic_centrality(
    G,
    values: Any,
    sources: Any = None,
    targets: Any = None,
    *,
    order: str = "given",
    samples: int = 16,
    seed: int = 0,
) -> None:
    """Raise :class:`~warpgraph.errors.VerificationError` unless ``values`` is what
    :func:`~warpgraph.algorithms.centrality.harmonic_centrality` must return for these
    arguments (module docstring).

    Examples
    --------
    >>> import warpgraph as wg
    >>> from warpgraph.algorithms.centrality import harmonic_centrality
    >>> P = wg.Graph.from_edges([0, 1, 2], [1, 2, 3], num_vertices=4, directed=False)
    >>> verify_harmonic_centrality(P, harmonic_centrality(P))
    """
    n = G.num_vertices
    src = source_ids(sources, n)
    dst = source_ids(targets, n)
    x = np.asarray(to_host(values))
    if x.shape != (dst.size,) or x.dtype != np.float64:
        raise VerificationError(f"expected {dst.size} float64 values, got {x.dtype} {x.shape}")
    if not np.isfinite(x).all() or (x < 0).any() or (x > src.size).any():
        raise VerificationError(f"values outside [0, {src.size}] (one per source at most)")
    if order not in ("given", "distance"):
        raise InvalidArgumentError(f"order must be 'given' or 'distance', got {order!r}")
    if dst.size == 0:
        return
    rng = np.random.default_rng(seed)
    picked = rng.choice(dst.size, size=min(samples, dst.size), replace=False)
    dist = shortest_path(_reversed_matrix(G), unweighted=True, indices=dst[picked])
    for row, j in zip(dist, picked, strict=True):
        d = row[src]
        terms = d[(d > 0) & np.isfinite(d)].astype(np.int64)
        if order == "distance":
            terms = np.sort(terms)
        expected = 0.0
        for t in terms.tolist():  # (a sequential sum: the order is the point)
            expected += 1 / t
        if x[j] != expected:
            raise VerificationError(
                f"target {int(dst[j])}: {x[j]!r}, expected {expected!r} "
                f"({terms.size} sources reach it)"
            )
