"""PageRank by power iteration (CPU pull in Numba, GPU pull kernels by degree class)."""

from .api import pagerank

__all__ = ["pagerank"]
