"""Triad census (16 Holland-Leinhardt types) on the CPU and GPU, exact integers."""

from .api import TRIAD_NAMES, triadic_census

__all__ = ["TRIAD_NAMES", "triadic_census"]
