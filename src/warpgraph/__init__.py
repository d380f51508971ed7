"""warpgraph: high-performance irregular graph processing on NVIDIA GPUs and multicore CPUs.

Examples
--------
>>> import numpy as np
>>> import warpgraph as wg
>>> G = wg.Graph.from_edges(np.array([0, 1, 2]), np.array([1, 2, 0]), directed=False)
>>> G.num_vertices, G.num_edges
(3, 3)
"""

from __future__ import annotations

__version__ = "0.1.0"

from . import errors
from .device import info
from .graph import Graph
from .stats import stats  # binds the function over the submodule name on purpose

__all__ = [
    "Graph",
    "__version__",
    "errors",
    "generators",
    "info",
    "load",
    "save",
    "stats",
]


def __getattr__(name: str):
    # Heavy subpackages load on first use so `import warpgraph` stays fast.
    if name in ("load", "save"):
        from . import io

        return getattr(io, name)
    if name == "stats":
        from .stats import stats

        return stats
    if name in ("generators", "io", "gpu", "langford", "cli"):
        import importlib

        return importlib.import_module(f".{name}", __name__)
    raise AttributeError(f"module 'warpgraph' has no attribute {name!r}")
