"""Connected components: weak (union-find, Afforest, label propagation, Shiloach-Vishkin) and
strong (the multi-step SCC decomposition), on the GPU and the CPU.

See :mod:`.api` for the public functions and docs/COMPONENTS.md for the methods and numbers.
"""

from .api import (
    component_sizes,
    connected_components,
    largest_component,
    strongly_connected_components,
    weakly_connected_components,
)
from .cpu import weak_component_labels
from .verify import verify_components

__all__ = [
    "component_sizes",
    "connected_components",
    "largest_component",
    "strongly_connected_components",
    "verify_components",
    "weak_component_labels",
    "weakly_connected_components",
]
