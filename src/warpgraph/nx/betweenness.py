"""Betweenness centrality of NetworkX: ``betweenness_centrality`` and
``edge_betweenness_centrality``.

NetworkX runs Brandes' algorithm in Python, one search per node (or per node of a sample of
``k``, drawn by ``seed.sample(list(G.nodes()), k)``), adds up the dependencies and rescales.
Here the searches are :func:`warpgraph.algorithms.betweenness.dependency_sums` on the backend's
device, from the same sources: the sample is drawn with the same call on the same random state,
so it is the same sample and the state is left as NetworkX leaves it. The rescaling is
NetworkX's, by the installed version's rule (3.5 changed it for samples), with its Python float
operations: the values equal NetworkX's to rounding (the dependencies are added in another
order), and NaN, ``ZeroDivisionError`` and ``ValueError`` come where NetworkX's come.

Edge betweenness takes each arc's share of the same searches
(:func:`warpgraph.algorithms.betweenness.arc_dependency_sums`); an undirected edge adds its two
arcs', and the dict lists the edges as ``G.edges()`` does (NetworkX's keys).

Weighted betweenness (Dijkstra's searches) runs in NetworkX (``can_run``).
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from ..algorithms.betweenness.api import arc_dependency_sums, dependency_sums
from ._common import backend_device, gc_paused, host, networkx_version, node_dict
from ._csr import put

__all__ = ["betweenness_centrality", "edge_betweenness_centrality"]


def _scales(n: int, normalized: bool, directed: bool, k: Any, endpoints: bool):
    """NetworkX's factors: ``(for sampled sources, for the other nodes)``, or None for no
    rescaling; the same Python float operations as its ``_rescale``."""
    if networkx_version() < (3, 5):
        if normalized:
            if endpoints:
                scale = None if n < 2 else 1 / (n * (n - 1))
            else:
                scale = None if n <= 2 else 1 / ((n - 1) * (n - 2))
        else:
            scale = 0.5 if not directed else None
        if scale is not None and k is not None:
            scale = scale * n / k
        return None if scale is None else (scale, scale)
    N = n if endpoints else n - 1
    if N < 2:
        return None
    K = N if k is None else k
    if k is None or endpoints:
        if normalized:
            scale = 1 / (K * (N - 1))
        else:
            scale = N / (K * (1 if directed else 2))
        return scale, scale
    correction = 1 if directed else 2
    if normalized:
        source = 1 / ((K - 1) * (N - 1)) if K > 1 else math.nan
        other = 1 / (K * (N - 1))
    else:
        source = N / ((K - 1) * correction) if K > 1 else math.nan
        other = N / (K * correction)
    return source, other


def _sampled(G, k: Any, seed: Any) -> np.ndarray:
    """The sources' ids: every node for ``k`` None, else NetworkX's sample of ``k`` nodes
    (``seed.sample(list(G.nodes()), k)``, the same call on the same random state)."""
    if k is None:
        return np.arange(len(G), dtype=np.int64)
    if seed is None:  # (NetworkX's decorator makes one; a direct call may not)
        import random

        seed = random._inst
    sample = seed.sample(list(G.nodes), k)
    index = G.index
    return np.fromiter((index[x] for x in sample), dtype=np.int64, count=len(sample))


@gc_paused()
def betweenness_centrality(
    G,
    k: Any = None,
    normalized: bool = True,
    weight: Any = None,
    endpoints: bool = False,
    seed: Any = None,
) -> dict:
    """Betweenness of every node (``{node: float}``, node order), as NetworkX computes it;
    ``seed`` is the random state NetworkX's decorator made (or None)."""
    n = len(G)
    if k == n and networkx_version() >= (3, 5):
        k = None  # (NetworkX 3.5 on: every node, no sample drawn)
    sources = _sampled(G, k, seed)
    dev = backend_device()
    raw = dependency_sums(G.on(dev, any_order=True), sources, bool(endpoints), dev)
    scales = _scales(n, bool(normalized), G.is_directed(), k, bool(endpoints))
    if scales is not None:
        source, other = scales
        if source == other:
            raw = raw * source
        else:
            factor = np.full(n, other)
            factor[sources] = source
            raw = host(raw) * factor
    return node_dict(G, None, raw)


def _edge_scale(n: int, normalized: bool, directed: bool, k: Any) -> float | None:
    """NetworkX's factor for edge betweenness: before 3.6 its ``_rescale_e`` (which 3.4 and 3.5
    call without ``k``: samples are not scaled up), from 3.6 its ``_rescale`` with endpoints."""
    if networkx_version() < (3, 6):
        if normalized:
            return None if n <= 1 else 1 / (n * (n - 1))
        return None if directed else 0.5
    if n < 2:
        return None
    K = n if k is None else k
    return 1 / (K * (n - 1)) if normalized else n / (K * (1 if directed else 2))


@gc_paused()
def edge_betweenness_centrality(
    G, k: Any = None, normalized: bool = True, weight: Any = None, seed: Any = None
) -> dict:
    """Betweenness of every edge (``{(u, v): float}`` in ``G.edges()`` order), as NetworkX
    computes it; an undirected edge's value adds the shares of its two arcs."""
    n = len(G)
    sources = _sampled(G, k, seed)
    dev = backend_device()
    g = G.on(dev)  # (rows sorted: an arc's reverse found by a binary search)
    arcs = host(arc_dependency_sums(g, sources, dev))
    indptr, heads = host(g.indptr), host(g.indices).astype(np.int64)
    tails = np.repeat(np.arange(n, dtype=np.int64), np.diff(indptr))
    if not G.is_directed() and arcs.size:
        keys = tails * n + heads  # (ascending: rows sorted, no parallel arcs)
        arcs = arcs + arcs[np.searchsorted(keys, heads * n + tails)]
        arcs[tails == heads] *= 0.5  # (a self-loop is its own reverse; its share is 0 anyway)
    if G._perm is not None:
        arcs = put(arcs, G._perm)  # into NetworkX's adjacency order
    heads = G.nx_order.astype(np.int64)
    keep = slice(None) if G.is_directed() else heads >= tails  # (G.edges(): once, from u first)
    scale = _edge_scale(n, bool(normalized), G.is_directed(), k)
    values = arcs[keep] if scale is None else arcs[keep] * scale
    ends = zip(G.label_list(tails[keep]), G.label_list(heads[keep]), strict=True)
    return dict(zip(ends, values.tolist(), strict=True))
