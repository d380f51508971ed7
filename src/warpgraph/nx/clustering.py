"""Triangle functions of NetworkX (``triangles``, ``transitivity``, ``clustering``,
``average_clustering``) and ``triadic_census``, with NetworkX's result types.

The triangle functions take the converted rows in NetworkX's order (``any_order``), unsorted:
the orientation (:func:`warpgraph.algorithms.triangles.prep.orient` and the GPU's
``orient_fast``) sorts the rows it keeps and drops a repeated neighbour only where it follows
itself, and a NetworkX row never repeats one (its keys are a dict's). This saves sorting every
row on the host (grid:708: 1.5 ms of a 15 ms first call on the GPU). The triad census merges
sorted out- and in-rows and takes the sorted CSR.
"""

from __future__ import annotations

import sys
from typing import Any

import numpy as np
from numba import njit

from ..algorithms.triads.api import triadic_census as _triadic_census
from ..algorithms.triangles.api import clustering as _clustering
from ..algorithms.triangles.api import transitivity as _transitivity
from ..algorithms.triangles.api import triangles as _triangles
from ._common import backend_device, gc_paused, host, node_dict

__all__ = ["average_clustering", "clustering", "transitivity", "triadic_census", "triangles"]


def _node_selection(G, nodes: Any) -> tuple[bool, list]:
    """NetworkX's ``nodes=`` rule: one node, or the members of a container (in its order)."""
    if nodes in G:
        return True, [nodes]
    return False, [v for v in nodes if v in G]


def _per_node(G, found: np.ndarray, nodes: Any, zero_int: bool = False):
    """NetworkX's per-node result of the values ``found`` (one per dense id): ``{node:
    value}`` for every node in NetworkX's node order, or for the nodes ``nodes``, or one
    value; ``zero_int``: a zero is the ``int`` 0 (NetworkX's clustering)."""
    if nodes is None:
        return node_dict(G, None, found, zero_int=zero_int)
    values = host(found).tolist()
    if zero_int:
        values = [0 if x == 0 else x for x in values]
    single, chosen = _node_selection(G, nodes)
    index = G.index
    if single:
        return values[index[nodes]]
    return {v: values[index[v]] for v in chosen}


@gc_paused()
def triangles(G, nodes: Any = None):
    """Triangles at each node: ``{node: int}``, or an ``int`` when ``nodes`` is one node."""
    dev = backend_device()
    return _per_node(G, _triangles(G.on(dev, any_order=True), device=dev), nodes)


def _placed(G) -> tuple[Any, str]:
    """The converted graph where its triangles are counted, and that device: in any row
    order, except a directed one on the CPU, whose rows are sorted
    (:mod:`warpgraph.algorithms.triangles.directed` merges them; the GPU's key sort does not
    need it)."""
    dev = backend_device()
    if G.is_directed() and dev == "cpu":
        return G.on("cpu"), "cpu"
    return G.on(dev, any_order=True), dev


def transitivity(G) -> float | int:
    """Global clustering coefficient (a directed graph's by NetworkX's rule for it); ``0``
    (an int, as NetworkX) without triangles."""
    graph, dev = _placed(G)
    value = _transitivity(graph, device=dev)
    return 0 if value == 0 else value


@gc_paused()
def clustering(G, nodes: Any = None, weight: str | None = None):
    """Local clustering of each node (unweighted; Fagiolo's for a directed graph); ``0``
    (int) without triangles."""
    graph, dev = _placed(G)
    return _per_node(G, _clustering(graph, device=dev), nodes, zero_int=True)


#: CPython's ``sum`` of floats compensates its rounding (Neumaier) from Python 3.12 on.
COMPENSATED_SUM = sys.version_info >= (3, 12)


@njit(cache=True)
def python_sum(values: np.ndarray, compensated: bool) -> float:  # pragma: no cover - JIT
    """``sum(values)`` exactly as CPython adds floats in this order (values >= 0 or finite):
    one float accumulator, plus Neumaier's compensation term where ``compensated``.

    Examples
    --------
    >>> python_sum(np.array([0.1, 0.2, 0.3]), False) == 0.1 + 0.2 + 0.3
    True
    """
    total = 0.0
    c = 0.0
    for x in values:
        t = total + x
        if compensated:
            if abs(total) >= abs(x):
                c += (total - t) + x
            else:
                c += (x - t) + total
        total = t
    if compensated and c != 0.0 and np.isfinite(c):
        total += c
    return total


def average_clustering(
    G, nodes: Any = None, weight: str | None = None, count_zeros: bool = True
) -> float:
    """Mean local clustering, summed in NetworkX's node order by CPython's rule (so the float
    is NetworkX's); without ``nodes`` no per-node dict is built."""
    if nodes is not None:
        with gc_paused():
            c = clustering(G, nodes).values()
            if not count_zeros:
                c = [v for v in c if abs(v) > 0]
            return sum(c) / len(c)
    graph, dev = _placed(G)
    c = host(_clustering(graph, device=dev)).astype(np.float64, copy=False)
    if not count_zeros:
        c = c[c != 0]
    if c.size == 0:
        raise ZeroDivisionError("division by zero")  # NetworkX's sum([]) / len([])
    return python_sum(np.ascontiguousarray(c), COMPENSATED_SUM) / c.size


def triadic_census(G, nodelist: Any = None) -> dict:
    """Counts of the 16 triad types, in NetworkX's key order."""
    dev = backend_device()
    return {k: int(v) for k, v in _triadic_census(G.on(dev), device=dev).items()}
