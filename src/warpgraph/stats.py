"""Graph statistics: degrees, Gini coefficient, approximate diameter, weak components.

These numbers feed the automatic configuration of the traversal engines (Helix chooses its
load-balancing policy from average degree, degree skew and diameter), so they are computed with
vectorized array code on the graph's own device.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from .device import cupy
from .graph import Graph

__all__ = ["degree_gini", "stats"]


def degree_gini(deg: Any) -> float:
    """Gini coefficient of a degree array: 0 when all degrees are equal, near 1 for a star.

    Examples
    --------
    >>> degree_gini(np.array([2, 2, 2]))
    0.0
    >>> round(degree_gini(np.array([0, 0, 0, 9])), 2)
    0.75
    """
    xp = cupy() if type(deg).__module__.startswith("cupy") else np
    n = deg.shape[0]
    total = float(deg.sum())
    if n == 0 or total == 0:
        return 0.0
    d = xp.sort(deg).astype(np.float64)
    ranks = xp.arange(1, n + 1, dtype=np.float64)
    return float(2.0 * float((ranks * d).sum()) / (n * total) - (n + 1) / n)


def _bfs_levels(G: Graph, source: int):
    if G.device == "gpu":
        from .gpu.stats import bfs_levels

        return bfs_levels(G.indptr, G.indices, source)
    from .cpu.traverse import bfs_levels

    return bfs_levels(G.indptr, G.indices, source)


def _weak_components(G: Graph) -> tuple[int, int]:
    """(number of weak components, size of the largest)."""
    if G.num_vertices == 0:
        return 0, 0
    if G.device == "gpu":
        from .gpu.stats import wcc_labels

        cp = cupy()
        labels = wcc_labels(G.indptr, G.indices, G.num_vertices, symmetric=not G.directed)
        sizes = cp.bincount(labels)
        sizes = sizes[sizes > 0]
        return int(sizes.shape[0]), int(sizes.max())
    from .algorithms.components.cpu import weak_component_labels

    sizes = np.bincount(weak_component_labels(G))
    sizes = sizes[sizes > 0]
    return int(sizes.shape[0]), int(sizes.max())


def approximate_diameter(G: Graph, start: int | None = None) -> int:
    """Lower bound on the diameter by a double sweep: BFS from ``start``, then from the farthest.

    ``start`` defaults to a vertex of maximum out-degree (almost surely in the giant component).
    Arcs are followed forward, as a traversal engine would. Exact on trees, usually within a few
    levels on real graphs.
    """
    n = G.num_vertices
    if n == 0:
        return 0
    xp = G._xp()
    if start is None:
        start = int(xp.argmax(G.out_degree()))
    best = 0
    for _sweep in range(2):
        levels = _bfs_levels(G, start)
        far = int(levels.max())
        if far <= best and _sweep:
            break
        best = max(best, far)
        start = int(xp.argmax(levels))
    return best


def stats(G: Graph, *, diameter: bool = True, components: bool = True) -> dict[str, Any]:
    """Summary statistics of a graph, computed on the graph's device.

    Parameters
    ----------
    G : Graph
    diameter : bool
        Compute the double-sweep diameter estimate (two BFS).
    components : bool
        Count weak components.

    Returns
    -------
    dict
        Keys: ``n``, ``m``, ``arcs``, ``directed``, ``weighted``, ``avg_degree``,
        ``max_degree``, ``min_degree``, ``std_degree``, ``gini``, ``isolated``,
        ``self_loops``, ``max_in_degree`` (directed), ``diameter_estimate``,
        ``weak_components``, ``largest_component``. Degrees are out-degrees (arcs per vertex).

    Examples
    --------
    >>> import warpgraph as wg
    >>> G = wg.Graph.from_edges([0, 1, 2], [1, 2, 3], directed=False)
    >>> s = wg.stats(G)
    >>> s["max_degree"], s["diameter_estimate"], s["weak_components"], round(s["gini"], 3)
    (2, 3, 1, 0.167)
    """
    n = G.num_vertices
    out = G.out_degree()
    isolated = (out == 0) if not G.directed else ((out == 0) & (G.in_degree() == 0))
    result: dict[str, Any] = {
        "n": n,
        "m": G.num_edges,
        "arcs": G.num_arcs,
        "directed": G.directed,
        "weighted": G.is_weighted,
        "avg_degree": G.num_arcs / n if n else 0.0,
        "max_degree": int(out.max()) if n else 0,
        "min_degree": int(out.min()) if n else 0,
        "std_degree": float(out.astype(np.float64).std()) if n else 0.0,
        "gini": degree_gini(out),
        "isolated": int(isolated.sum()),
        "self_loops": G.num_self_loops,
    }
    if G.directed:
        result["max_in_degree"] = int(G.in_degree().max()) if n else 0
    if diameter:
        result["diameter_estimate"] = approximate_diameter(G)
    if components:
        result["weak_components"], result["largest_component"] = _weak_components(G)
    return result
