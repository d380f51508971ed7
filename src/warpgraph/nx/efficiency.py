"""NetworkX's ``global_efficiency``, its value bit for bit.

NetworkX adds ``1 / d`` over every ordered pair of distinct connected nodes into one Python
float, source after source in node order, each source's targets in breadth-first discovery
order (nearest first), then divides by ``n (n - 1)``; ``0`` (an ``int``) for fewer than two
nodes. :func:`warpgraph.algorithms.bfs.efficiency.efficiency_sum` adds the same terms in the
same order (the backend's ids are NetworkX's node order), so the float is NetworkX's.
Undirected graphs only, as NetworkX (whose decorator refuses directed ones before dispatch).
"""

from __future__ import annotations

from ..algorithms.bfs.efficiency import efficiency_sum

__all__ = ["global_efficiency"]


def global_efficiency(G) -> float | int:
    """NetworkX's ``global_efficiency(G)`` (module docstring)."""
    n = len(G)
    denom = n * (n - 1)
    if denom == 0:
        return 0
    return efficiency_sum(G.any_order) / denom
