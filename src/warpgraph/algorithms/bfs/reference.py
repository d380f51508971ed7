"""Obviously-correct BFS oracle: a level-synchronous NumPy BFS (vectorized per level).

It is the oracle of the tests and of ``bfs(..., check=...)``-style verification in scripts; it
is deliberately simple: each level gathers all out-arcs of the frontier, keeps the unvisited
targets and gives each the smallest frontier vertex that reaches it as parent.

Examples
--------
>>> import warpgraph as wg
>>> G = wg.Graph.from_edges([0, 1, 1], [1, 2, 3], directed=True)
>>> levels, parents = bfs_reference(G, 0)
>>> levels.tolist(), parents.tolist()
([0, 1, 2, 2], [0, 0, 1, 1])
"""

from __future__ import annotations

import numpy as np

from ...graph import Graph

__all__ = ["bfs_reference"]


def bfs_reference(G: Graph, source: int) -> tuple[np.ndarray, np.ndarray]:
    """Levels (int32, -1 unreachable) and parents (int64, -1 unreachable, ``parents[s] = s``).

    Parameters
    ----------
    G : Graph
        Any graph (moved to the CPU if needed).
    source : int
        Start vertex.
    """
    G = G.to("cpu")
    n = G.num_vertices
    indptr = np.asarray(G.indptr, dtype=np.int64)
    indices = np.asarray(G.indices, dtype=np.int64)
    levels = np.full(n, -1, dtype=np.int32)
    parents = np.full(n, -1, dtype=np.int64)
    levels[source] = 0
    parents[source] = source
    frontier = np.array([source], dtype=np.int64)
    level = 0
    while frontier.size:
        starts, ends = indptr[frontier], indptr[frontier + 1]
        counts = ends - starts
        owners = np.repeat(frontier, counts)
        offsets = np.arange(counts.sum()) - np.repeat(np.cumsum(counts) - counts, counts)
        targets = indices[np.repeat(starts, counts) + offsets]
        fresh = levels[targets] < 0
        owners, targets = owners[fresh], targets[fresh]
        order = np.lexsort((owners, targets))  # by target, then smallest owner first
        targets, owners = targets[order], owners[order]
        first = np.ones(targets.size, dtype=bool)
        first[1:] = targets[1:] != targets[:-1]
        frontier, owners = targets[first], owners[first]
        level += 1
        levels[frontier] = level
        parents[frontier] = owners
    return levels, parents
