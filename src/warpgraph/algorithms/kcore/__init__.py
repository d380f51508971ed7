"""Core decomposition: core numbers and k-cores (CPU bucket peeling, GPU parallel peeling),
and the onion decomposition's layers."""

from .api import core_number, k_core
from .onion import onion_layers

__all__ = ["core_number", "k_core", "onion_layers"]
