"""warpgraph: high-performance irregular graph processing on NVIDIA GPUs and multicore CPUs.

Examples
--------
>>> import numpy as np
>>> import warpgraph as wg
>>> G = wg.Graph.from_edges(np.array([0, 1, 2]), np.array([1, 2, 0]), directed=False)
>>> G.num_vertices, G.num_edges
(3, 3)
>>> wg.bfs(G, 0, device="cpu").tolist()
[0, 1, 1]
"""

from __future__ import annotations

import importlib

__version__ = "0.1.0"

from . import errors
from ._alloc import pad_heap_growth as _pad_heap_growth
from ._alloc import raise_mmap_threshold as _raise_mmap_threshold
from .device import info
from .graph import Graph
from .stats import stats  # binds the function over the submodule name on purpose

# Multi-MB arrays from the heap rather than fresh pages faulted in on every use, and heaps
# (worker threads' arenas too) opened 64 MiB at a time rather than a page at a time (see _alloc).
_raise_mmap_threshold()
_pad_heap_growth()

# Public algorithm names -> the module that defines them. Imported on first use, so
# `import warpgraph` stays fast and never compiles a Numba function or imports CuPy.
_LAZY = {
    "load": "warpgraph.io",
    "save": "warpgraph.io",
    "bfs": "warpgraph.algorithms.bfs",
    "bfs_explain": "warpgraph.algorithms.bfs",
    "distance_stats": "warpgraph.algorithms.bfs",
    "triangles": "warpgraph.algorithms.triangles",
    "triangle_count": "warpgraph.algorithms.triangles",
    "transitivity": "warpgraph.algorithms.triangles",
    "clustering": "warpgraph.algorithms.triangles",
    "core_number": "warpgraph.algorithms.kcore",
    "k_core": "warpgraph.algorithms.kcore",
    "onion_layers": "warpgraph.algorithms.kcore",
    "k_truss": "warpgraph.algorithms.ktruss",
    "truss_decomposition": "warpgraph.algorithms.ktruss",
    "triadic_census": "warpgraph.algorithms.triads",
    "sssp": "warpgraph.algorithms.sssp",
    "connected_components": "warpgraph.algorithms.components",
    "weakly_connected_components": "warpgraph.algorithms.components",
    "strongly_connected_components": "warpgraph.algorithms.components",
    "component_sizes": "warpgraph.algorithms.components",
    "largest_component": "warpgraph.algorithms.components",
    "pagerank": "warpgraph.algorithms.pagerank",
    "eigenvector_centrality": "warpgraph.algorithms.centrality",
    "katz_centrality": "warpgraph.algorithms.centrality",
    "harmonic_centrality": "warpgraph.algorithms.centrality",
    "global_efficiency": "warpgraph.algorithms.bfs",
    "harmonic_diameter": "warpgraph.algorithms.bfs",
    "betweenness_centrality": "warpgraph.algorithms.betweenness",
}
_SUBPACKAGES = ("generators", "io", "gpu", "langford", "cli", "bench", "algorithms", "csgraph")

__all__ = ["Graph", "__version__", "errors", "info", "stats", *_LAZY, *_SUBPACKAGES]


def __getattr__(name: str):
    if name in _LAZY:
        return getattr(importlib.import_module(_LAZY[name]), name)
    if name in _SUBPACKAGES:
        return importlib.import_module(f".{name}", __name__)
    raise AttributeError(f"module 'warpgraph' has no attribute {name!r}")


def __dir__():
    return sorted(set(globals()) | set(__all__))
