"""Oracle for connected components: SciPy's ``csgraph.connected_components``.

SciPy is independent of warpgraph's code (weak: a traversal of the symmetrized graph; strong:
Pearce's variant of Tarjan). Labels are renumbered to warpgraph's canonical order (components by
their smallest vertex), so arrays compare with ``==``.

Examples
--------
>>> from warpgraph import Graph
>>> G = Graph.from_edges([0, 1, 3], [1, 0, 2], num_vertices=5)
>>> count, labels = components_reference(G, "strong")
>>> count, labels.tolist()
(4, [0, 0, 1, 2, 3])
"""

from __future__ import annotations

import numpy as np
from scipy.sparse import csgraph

from ...graph import Graph

__all__ = ["canonical_numbering", "components_reference"]


def canonical_numbering(labels: np.ndarray) -> tuple[int, np.ndarray]:
    """Renumber any labelling so that components come in order of their smallest vertex
    (NumPy only: ``np.unique`` finds each label's first vertex)."""
    labels = np.asarray(labels).reshape(-1)
    if labels.size == 0:
        return 0, np.zeros(0, dtype=np.int32)
    values, first, inverse = np.unique(labels, return_index=True, return_inverse=True)
    rank = np.empty(values.size, dtype=np.int64)
    rank[np.argsort(first, kind="stable")] = np.arange(values.size)
    return int(values.size), rank[inverse].astype(np.int32)


def components_reference(G: Graph, connection: str = "weak") -> tuple[int, np.ndarray]:
    """``(count, labels)`` by SciPy, canonically numbered (int32)."""
    g = G.to("cpu")
    if g.num_vertices == 0:
        return 0, np.zeros(0, dtype=np.int32)
    A = g.to_scipy(dtype=np.int8)
    A.sum_duplicates()  # SciPy 1.17/1.18 finds wrong strong components with repeated entries
    _, labels = csgraph.connected_components(A, directed=g.directed, connection=connection)
    return canonical_numbering(labels)
