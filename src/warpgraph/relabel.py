"""Vertex renumbering: random, degree-sorted, BFS and reverse Cuthill-McKee orders.

A good order improves locality: degree-sorted ids put hubs together (what GPU hub caches
want), BFS and RCM orders shrink the bandwidth of the adjacency matrix (fewer cache misses on
road networks and meshes). Every order returns ``perm`` with ``perm[old] = new``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import numpy as np

from . import _arrays
from .errors import InvalidArgumentError

if TYPE_CHECKING:
    from .graph import Graph

ORDERS = ("random", "degree", "bfs", "rcm")


def _order_to_perm(order: np.ndarray) -> np.ndarray:
    """``order[new] = old``  ->  ``perm[old] = new``."""
    perm = np.empty(order.shape[0], dtype=np.int64)
    perm[order] = np.arange(order.shape[0], dtype=np.int64)
    return perm


def _symmetric_pattern(G: Graph):
    from .convert import pattern_matrix  # noqa: PLC0415

    A = pattern_matrix(G)
    return A if not G.directed else (A + A.T).tocsr()


def _bfs_order(G: Graph) -> np.ndarray:
    """BFS order of every weak component, components taken by their lowest vertex id.

    One BFS covers all components: a virtual root ``n`` is joined to the lowest vertex of each
    component, so there is no Python loop over components.
    """
    import scipy.sparse as sp
    from scipy.sparse import csgraph

    n = G.num_vertices
    if n == 0:
        return np.empty(0, dtype=np.int64)
    A = _symmetric_pattern(G)
    _, labels = csgraph.connected_components(A, directed=False)
    roots = np.unique(labels, return_index=True)[1]  # first (lowest) vertex of each component
    links = sp.csr_array(
        (np.ones(roots.shape[0], np.bool_), (np.full(roots.shape[0], n), roots)),
        shape=(n + 1, n + 1),
    )
    B = sp.block_diag((A, sp.csr_array((1, 1), dtype=np.bool_))).tocsr() + links
    order = csgraph.breadth_first_order(B, n, directed=True, return_predecessors=False)[1:]
    # The shared root interleaves components level by level; a stable sort by component label
    # (labels number components by their lowest vertex) makes each component contiguous.
    return order[np.argsort(labels[order], kind="stable")].astype(np.int64)


def permutation_for(G: Graph, order: str | Any, seed: int | None = None) -> np.ndarray:
    """The permutation ``perm[old] = new`` that ``order`` describes (NumPy int64)."""
    n = G.num_vertices
    if not isinstance(order, str):
        perm = _arrays.to_host(_arrays.as_id_array(order, "order")).astype(np.int64)
        if perm.shape[0] != n or not np.array_equal(np.sort(perm), np.arange(n)):
            raise InvalidArgumentError(f"order must be a permutation of 0..{n - 1}")
        return perm
    if order == "random":
        return np.random.default_rng(seed).permutation(n).astype(np.int64)
    if order == "degree":
        deg = _arrays.to_host(G.degree())
        return _order_to_perm(np.argsort(-deg, kind="stable"))
    if order == "bfs":
        return _order_to_perm(_bfs_order(G))
    if order == "rcm":
        from scipy.sparse import csgraph

        if n == 0:
            return np.empty(0, dtype=np.int64)
        rcm = csgraph.reverse_cuthill_mckee(_symmetric_pattern(G), symmetric_mode=True)
        return _order_to_perm(rcm.astype(np.int64))
    raise InvalidArgumentError(f"order must be one of {ORDERS} or a permutation, got {order!r}")


def relabel(G: Graph, order: str | Any, seed: int | None = None) -> tuple[Graph, Any]:
    """See :meth:`Graph.relabel`."""
    from .graph import Graph

    perm = permutation_for(G, order, seed)
    xp = G._xp()
    p = xp.asarray(perm).astype(G.indices.dtype)
    rows = G._arc_sources()
    # All stored arcs are relabelled and rebuilt as arcs, so undirected graphs stay symmetric.
    H = Graph.from_edges(
        p[rows], p[G.indices], G.weights, num_vertices=G.num_vertices, directed=True
    )
    H.directed = G.directed
    if G.vertex_labels is not None:
        labels = np.empty(G.num_vertices, dtype=object)
        labels[perm] = _arrays.object_array(G.vertex_labels)
        H.vertex_labels = labels.tolist()
    return H, (p if G.device == "gpu" else perm)
