"""Cores and trusses of NetworkX: ``core_number``, ``k_core``, ``k_shell``, ``k_crust``,
``k_corona``, ``k_truss`` and ``onion_layers``, with NetworkX's result types.

The subgraph functions return NetworkX graphs equal to NetworkX's, attributes and adjacency
order included (:func:`warpgraph.nx._results.subgraph_copy`): the core numbers and the truss
come from warpgraph, the graph is then built from the source graph's dicts.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any

import numba as nb
import numpy as np

from ..algorithms.kcore.api import core_number as _core_number
from ..algorithms.kcore.onion import layers_and_order
from ..algorithms.ktruss.api import k_truss_arcs
from ._common import backend_device, gc_paused, host, node_dict
from ._csr import put
from ._results import subgraph_copy

__all__ = [
    "core_number",
    "k_core",
    "k_corona",
    "k_crust",
    "k_shell",
    "k_truss",
    "onion_layers",
]

_SELF_LOOPS = (
    "Input graph {} self loops which is not permitted; "
    "Consider using G.remove_edges_from(nx.selfloop_edges(G))."
)


def _refuse_self_loops(G, verb: str = "has") -> None:
    """NetworkX's error for a graph with self-loops (``onion_layers`` says "contains")."""
    if G.any_order.num_self_loops:
        import networkx as nx

        raise nx.NetworkXNotImplemented(_SELF_LOOPS.format(verb))


def _cores_where_computed(G) -> Any:
    """Core numbers by dense id, a NumPy or (GPU) CuPy array, maybe still being computed."""
    _refuse_self_loops(G)
    dev = backend_device()
    return _core_number(G.on(dev, any_order=True), device=dev)


def _cores(G) -> np.ndarray:
    return host(_cores_where_computed(G))


@gc_paused()
def core_number(G) -> dict:
    """Core number of each node (``{node: int}``); self-loops are refused as in NetworkX."""
    return node_dict(G, None, _cores_where_computed(G))


def onion_layers(G) -> dict:
    """Onion layer of each node (``{node: int}``), keys in NetworkX's order: layer by layer,
    within one by the degree the node had when its round began, then in node order."""
    _refuse_self_loops(G, "contains")
    dev = backend_device()
    layers, order = layers_and_order(G.on(dev, any_order=True), dev)  # (nx.Graph: simple)
    order = host(order)
    return node_dict(G, order, host(layers)[order])


def _core_subgraph(G, keep: Callable, k: Any, core: Any, default_k: Callable):
    """NetworkX's ``_core_subgraph``: ``G.subgraph(nodes).copy()`` for the nodes whose core
    number passes ``keep(c, k)``, in the core dict's order."""
    if core is None:
        c = _cores(G)
        if k is None:
            k = default_k(int(c.max()) if c.size else _max_of_nothing())
        chosen = np.flatnonzero(np.asarray(keep(c, k), dtype=bool))
    else:
        if k is None:
            k = default_k(max(core.values()))
        index = G.index
        ids = [index[v] for v, cv in core.items() if v in index and keep(cv, k)]
        chosen = np.array(ids, dtype=np.int64)
    mask = np.zeros(len(G), dtype=bool)
    mask[chosen] = True
    return subgraph_copy(G, mask, induced=chosen)


def _max_of_nothing():
    return max([])  # NetworkX's ValueError on an empty graph (max of no core numbers)


def k_core(G, k: Any = None, core_number: Any = None):
    """The k-core as a NetworkX graph (the main core by default)."""
    return _core_subgraph(G, lambda c, k: c >= k, k, core_number, lambda m: m)


def k_shell(G, k: Any = None, core_number: Any = None):
    """The k-shell (core number exactly ``k``; the outer shell by default)."""
    return _core_subgraph(G, lambda c, k: c == k, k, core_number, lambda m: m)


def k_crust(G, k: Any = None, core_number: Any = None):
    """The k-crust (core number at most ``k``; default one less than the largest)."""
    return _core_subgraph(G, lambda c, k: c <= k, k, core_number, lambda m: m - 1)


def k_corona(G, k: Any, core_number: Any = None):
    """The k-corona: nodes of the k-core with exactly ``k`` neighbours in the k-core."""
    if core_number is None:
        c = _cores(G)
    else:
        c = np.array([core_number[v] for v in G.nodes])
    # Only the nodes of core number k can be in the corona: count their neighbours in the
    # k-core (NetworkX's ``G[v]``: successors when directed) instead of every arc's.
    candidates = np.flatnonzero(np.asarray(c == k, dtype=bool))
    inside = np.asarray(c >= k, dtype=bool)
    counts = _count_marked(host(G.any_order.indptr), G.nx_order, candidates, inside)
    mask = np.zeros(len(G), dtype=bool)
    mask[candidates[counts == k]] = True
    induced = np.flatnonzero(mask)  # NetworkX offers the nodes in the core dict's order
    if core_number is not None:
        index = G.index
        induced = np.array([index[v] for v in core_number if v in index], dtype=np.int64)
        induced = induced[mask[induced]]
    return subgraph_copy(G, mask, induced=induced)


@nb.njit(parallel=True, cache=True)
def _count_marked(indptr, heads, rows, marked):  # pragma: no cover - compiled
    """For each row in ``rows``, how many of its heads are ``marked``."""
    out = np.zeros(rows.size, dtype=np.int64)
    for j in nb.prange(rows.size):
        u = rows[j]
        count = 0
        for a in range(indptr[u], indptr[u + 1]):
            count += marked[heads[a]]
        out[j] = count
    return out


def k_truss(G, k: Any):
    """The k-truss (every edge in at least ``k - 2`` triangles of it), without isolated nodes."""
    _refuse_self_loops(G)
    dev = backend_device()
    need = math.ceil(k)  # NetworkX keeps an edge when its support is not below k - 2
    g = G.on(dev)
    in_truss = host(k_truss_arcs(g, int(max(need, 2)), device=dev))  # over the sorted rows
    node_keep = _rows_with_any(host(g.indptr), in_truss)
    arc_keep = in_truss if G._perm is None else put(in_truss, G._perm)
    return subgraph_copy(G, node_keep, arc_keep)


@nb.njit(parallel=True, cache=True)
def _rows_with_any(indptr, marked):  # pragma: no cover - compiled
    """Whether each row of the CSR ``indptr`` has a ``marked`` arc."""
    out = np.zeros(indptr.size - 1, dtype=np.bool_)
    for u in nb.prange(indptr.size - 1):
        for a in range(indptr[u], indptr[u + 1]):
            if marked[a]:
                out[u] = True
                break
    return out
