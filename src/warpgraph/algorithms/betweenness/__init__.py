"""Betweenness centrality by Brandes' accumulation (CPU: one search per Numba worker at a
time; GPU: one search per thread block), with an oracle and a verifier."""

from .api import betweenness_centrality

__all__ = ["betweenness_centrality"]
