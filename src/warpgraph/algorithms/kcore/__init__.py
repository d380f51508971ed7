"""Core decomposition: core numbers and k-cores (CPU bucket peeling, GPU parallel peeling)."""

from .api import core_number, k_core

__all__ = ["core_number", "k_core"]
