"""k-truss and truss decomposition (CPU bucket peeling, GPU level-synchronous peeling)."""

from .api import k_truss, truss_decomposition

__all__ = ["k_truss", "truss_decomposition"]
