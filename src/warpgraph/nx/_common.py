"""Helpers shared by the NetworkX backend modules: device choice, host copies, NetworkX errors.

The device the backend computes on comes from ``nx.config.backends.warpgraph.device``
(``"auto"``, ``"cpu"`` or ``"gpu"``; default ``"auto"``, which follows ``WARPGRAPH_DEVICE`` and
then picks the GPU when one is usable).
"""

from __future__ import annotations

import gc
from contextlib import ContextDecorator
from typing import Any

import numpy as np

from .._arrays import to_host
from ..device import resolve_device

__all__ = ["backend_device", "gc_paused", "host", "node_error", "not_implemented"]


class gc_paused(ContextDecorator):
    """Pause Python's cyclic garbage collector while results are built (context manager or
    decorator). Building a million sets, tuples or dicts would otherwise start hundreds of
    collections, and each full one walks every object of the user's NetworkX graph; these
    results hold no reference cycles. Nested uses leave it to the outermost one."""

    def __enter__(self):
        self._was_enabled = gc.isenabled()
        gc.disable()
        return self

    def __exit__(self, *exc):
        if self._was_enabled:
            gc.enable()
        return False


def host(a: Any) -> np.ndarray:
    """NumPy view or copy of a NumPy/CuPy array."""
    return to_host(a)


def backend_device() -> str:
    """``"cpu"`` or ``"gpu"``: ``nx.config.backends.warpgraph.device`` resolved."""
    import networkx as nx

    cfg = getattr(nx.config.backends, "warpgraph", None)
    device = getattr(cfg, "device", "auto") if cfg is not None else "auto"
    return resolve_device(device)


def node_error(kind: str, node: Any, directed: bool = False) -> Exception:
    """NetworkX's exception, with NetworkX's message, for a node that is not in the graph."""
    import networkx as nx

    if kind == "source":
        return nx.NodeNotFound(f"Source {node} is not in G")
    if kind == "neighbors":  # G.neighbors / G.successors
        where = "digraph" if directed else "graph"
        return nx.NetworkXError(f"The node {node} is not in the {where}.")
    return nx.NetworkXError(f"The node {node} is not in the graph.")


def not_implemented(message: str) -> NotImplementedError:
    """The backend cannot compute this call exactly: NetworkX then runs it (automatic dispatch)
    or reports this message (``backend="warpgraph"``)."""
    return NotImplementedError(f"warpgraph: {message}")
