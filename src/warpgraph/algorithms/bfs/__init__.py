"""Breadth-first search on the CPU (Numba) and the GPU (frontier engine): BFS-4K, Helix and
Enterprise strategies, direction-optimizing, with Graph500's verifier; many searches at once
(iBFS's bitwise joint traversal) for per-source distance sums, reach and eccentricity, and the
global efficiency.

Examples
--------
>>> import warpgraph as wg
>>> from warpgraph.algorithms.bfs import bfs, verify_bfs
>>> G = wg.Graph.from_edges([0, 1], [1, 2], directed=False)
>>> levels, tree = bfs(G, 0, parents=True, device="cpu")
>>> verify_bfs(G, 0, levels, tree)
"""

from .api import bfs, bfs_explain, clear_plans
from .config import BfsConfig, Explanation
from .efficiency import global_efficiency, harmonic_diameter
from .multi_source import DistanceStats, distance_stats
from .reference import bfs_reference
from .verify import verify_bfs

__all__ = [
    "BfsConfig",
    "DistanceStats",
    "Explanation",
    "bfs",
    "bfs_explain",
    "bfs_reference",
    "clear_plans",
    "distance_stats",
    "global_efficiency",
    "harmonic_diameter",
    "verify_bfs",
]
