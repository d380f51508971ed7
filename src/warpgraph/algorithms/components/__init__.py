"""Connected components (issue 5). For now: the CPU weak-components kernel that statistics use."""

from .cpu import weak_component_labels

__all__ = ["weak_component_labels"]
