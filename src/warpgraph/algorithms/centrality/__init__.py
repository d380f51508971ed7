"""Eigenvector and Katz centrality by power iteration (NetworkX's steps and stopping rules; CPU
pull in Numba, GPU pull kernel in CuPy)."""

from .api import eigenvector_centrality, katz_centrality

__all__ = ["eigenvector_centrality", "katz_centrality"]
