"""Python side of the GPU frontier operators (advance, filter/compaction, frontier generation).

The CUDA side lives in ``gpu/kernels/frontier_*.cuh``; :mod:`.options` holds the strategy
choices (load balancing, frontier type, update, duplicate removal, status lookup,
synchronization) shared by every traversal built on the operators.
"""

from .options import CHOICES, DEFAULTS, TraversalOptions

__all__ = ["CHOICES", "DEFAULTS", "TraversalOptions"]
