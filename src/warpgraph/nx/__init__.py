"""NetworkX backend for warpgraph: ``nx.triangles(G, backend="warpgraph")``.

NetworkX finds the backend through two entry points (see ``pyproject.toml``):
``networkx.backends`` -> :data:`warpgraph.nx.interface.backend_interface` and
``networkx.backend_info`` -> :func:`get_info`. This module is what NetworkX imports when it
starts, so it imports nothing heavy (no NumPy, Numba or CuPy); the backend itself lives in
:mod:`warpgraph.nx.interface` and :mod:`warpgraph.nx.algorithms`. See ``docs/NETWORKX.md``.
"""

from __future__ import annotations

__all__ = ["FUNCTIONS", "get_info"]

#: Functions the backend implements, with the notes NetworkX adds to their docstrings.
FUNCTIONS: dict[str, str] = {
    "bfs_layers": "Layers in exactly NetworkX's order (rebuilt from warpgraph's BFS levels).",
    "single_source_shortest_path_length": "Keys in exactly NetworkX's (BFS discovery) order.",
    "connected_components": "Components come in NetworkX's order (by their first node).",
    "number_connected_components": "",
    "weakly_connected_components": "Components come in NetworkX's order (by their first node).",
    "triangles": "",
    "transitivity": "",
    "clustering": "Unweighted, undirected graphs only (others run in NetworkX).",
    "core_number": "Directed graphs use in + out degree, as NetworkX does.",
    "triadic_census": "Without ``nodelist`` only.",
}


def get_info() -> dict:
    """Backend description read by NetworkX at import time (``networkx.backend_info``)."""
    return {
        "backend_name": "warpgraph",
        "project": "warpgraph",
        "package": "warpgraph",
        "url": "https://github.com/warpgraph/warpgraph",
        "short_summary": "GPU and multicore CPU graph algorithms (Numba / CuPy).",
        "default_config": {},
        "functions": {
            name: ({"additional_docs": note} if note else {}) for name, note in FUNCTIONS.items()
        },
    }
