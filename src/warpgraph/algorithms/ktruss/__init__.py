"""k-truss and truss decomposition (CPU bucket peeling, GPU level-synchronous peeling)."""

from .api import k_truss, k_truss_arcs, truss_decomposition

__all__ = ["k_truss", "k_truss_arcs", "truss_decomposition"]
