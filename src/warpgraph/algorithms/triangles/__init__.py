"""Triangles: per-vertex counts, total, transitivity and local clustering (CPU and GPU)."""

from .api import clustering, transitivity, triangle_count, triangles

__all__ = ["clustering", "transitivity", "triangle_count", "triangles"]
