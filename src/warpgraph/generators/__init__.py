"""Graph generators: Graph500 Kronecker, R-MAT, uniform, Erdős–Rényi, grids, road-like, geometric.

Each generator comes in two forms: ``name(...)`` returns a :class:`warpgraph.Graph`, and
``name_edges(...)`` returns the raw edge arrays (for example Graph500's kernel-1 input). All are
seeded and deterministic: the same seed gives the same result on every run. The Kronecker,
R-MAT and uniform generators (and the weights) use a counter-based random stream, so their
output is also the same on the CPU and the GPU and for any number of threads. See
``docs/GENERATORS.md`` for the conventions and the differences from the reference generators.

Examples
--------
>>> from warpgraph import generators
>>> G = generators.kronecker(8, seed=1, device="cpu")
>>> G.num_vertices
256
>>> src, dst = generators.kronecker_edges(8, seed=1, device="cpu")
>>> len(src)
4096
"""

from __future__ import annotations

from .chunked import RmatChunks, kronecker_chunked, rmat_chunked
from .geometric import dimacs_rgg_radius, random_geometric, random_geometric_edges
from .kronecker import GRAPH500_INITIATOR, kronecker, kronecker_edges, rmat, rmat_edges
from .lattice import grid_2d, grid_2d_edges, grid_3d, grid_3d_edges, road_like, road_like_edges
from .uniform import erdos_renyi, erdos_renyi_edges, uniform, uniform_edges
from .weights import WEIGHT_KINDS, random_weights

__all__ = [
    "GRAPH500_INITIATOR",
    "WEIGHT_KINDS",
    "RmatChunks",
    "dimacs_rgg_radius",
    "erdos_renyi",
    "erdos_renyi_edges",
    "grid_2d",
    "grid_2d_edges",
    "grid_3d",
    "grid_3d_edges",
    "kronecker",
    "kronecker_chunked",
    "kronecker_edges",
    "random_geometric",
    "random_geometric_edges",
    "random_weights",
    "rmat",
    "rmat_chunked",
    "rmat_edges",
    "road_like",
    "road_like_edges",
    "uniform",
    "uniform_edges",
]
