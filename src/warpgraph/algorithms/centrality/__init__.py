"""Eigenvector and Katz centrality by power iteration (NetworkX's steps and stopping rules; CPU
pull in Numba, GPU pull kernel in CuPy), and harmonic centrality on the iBFS searches."""

from .api import eigenvector_centrality, katz_centrality
from .harmonic import harmonic_centrality

__all__ = ["eigenvector_centrality", "harmonic_centrality", "katz_centrality"]
