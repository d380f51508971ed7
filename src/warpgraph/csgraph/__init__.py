"""``scipy.sparse.csgraph`` on warpgraph: change one import, keep your code.

::

    from warpgraph import csgraph          # was: from scipy.sparse import csgraph
    dist = csgraph.dijkstra(A, indices=0)

Same names, arguments, return types and sentinels as SciPy: distances are float64 with ``inf``
for unreachable nodes, predecessors int32 with ``-9999``, labels int32, and a negative cycle
raises :class:`NegativeCycleError` where SciPy's method raises it (a subclass of SciPy's, so
``except`` clauses written for SciPy keep working, and of
:class:`warpgraph.errors.NegativeCycleError`): Bellman-Ford and Dijkstra where a source reaches
one, Johnson and Floyd-Warshall wherever it is, Floyd-Warshall ignoring self-loops as SciPy's
does, and ``method="auto"`` picking among them by SciPy's rule. The input is read
as SciPy reads it: a sparse matrix's stored entries are the edges, explicit zeros included
(weight 0) and duplicates of a CSR kept (a COO matrix's are summed by the CSR conversion); in a
dense array, ``0``, ``inf`` and ``NaN`` mean "no edge". ``directed=False`` follows
``A[i, j]`` and ``A[j, i]`` both ways (the lighter one counts). CuPy arrays and
``cupyx.scipy.sparse`` matrices are accepted too; results then come back as CuPy arrays.

Every function of :data:`OWN` also takes ``device=`` (``"auto"``, ``"cpu"``, ``"gpu"``): where
warpgraph computes. The rest of SciPy's csgraph names (:data:`FROM_SCIPY`: minimum spanning
tree, depth-first order, flows, matchings, the Laplacian, conversions) are SciPy's own
functions, reached through this module so that code switched by one import keeps working.

What equals SciPy exactly: ``breadth_first_order`` (node order and tree: the same queue-based
scan of each row in stored order, undirected rows followed by the transpose's, a CSC matrix's
columns first as in SciPy),
``connected_components`` labels (weak: numbered by smallest node; strong: in the order SciPy's
depth-first search completes them), all distances for integer weights. Float distances are
sums along a shortest path (equal to SciPy's up to rounding where several paths tie), and among
several shortest paths the predecessors may name another one (SciPy says its own choice "may
vary").
"""

from __future__ import annotations

import scipy.sparse.csgraph as _scipy_csgraph

from ._input import NULL as NULL  # SciPy's "no predecessor" (-9999)
from ._shortest import METHODS as METHODS  # the ``method=`` values shortest_path takes
from ._shortest import (
    NegativeCycleError,
    bellman_ford,
    dijkstra,
    floyd_warshall,
    johnson,
    shortest_path,
)
from ._traversal import breadth_first_order, breadth_first_tree, connected_components

#: What warpgraph computes (each takes ``device=``).
__all__ = [
    "NegativeCycleError",
    "bellman_ford",
    "breadth_first_order",
    "breadth_first_tree",
    "connected_components",
    "dijkstra",
    "floyd_warshall",
    "johnson",
    "shortest_path",
]
OWN = tuple(__all__)
#: The rest of ``scipy.sparse.csgraph`` (minimum spanning tree, depth-first order and tree,
#: flows, matchings, the Laplacian, conversions, ``reconstruct_path``...): SciPy's own
#: functions, reached through this module so that code switched by one import keeps working.
#: They take what SciPy takes (host arrays, no ``device=``).
FROM_SCIPY = tuple(sorted(set(_scipy_csgraph.__all__) - set(OWN)))
__all__ += FROM_SCIPY


def __getattr__(name: str):
    if name in FROM_SCIPY:
        return getattr(_scipy_csgraph, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def __dir__() -> list[str]:
    return sorted({*globals(), *FROM_SCIPY})


# Users meet these as warpgraph.csgraph.* (help(), tracebacks, pickles): say so, not the
# private module each is written in.
for _name in OWN:
    globals()[_name].__module__ = __name__
del _name
