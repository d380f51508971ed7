"""Langford pairings L(2,n): Miller's backtracking and Godfrey's algebraic method (seed 004).

L(2,n) counts the sequences of 2n numbers in which each k in 1..n appears twice with exactly k
numbers between its two copies, a sequence and its reversal counted once (OEIS A014552).

Examples
--------
>>> from warpgraph.langford import count, KNOWN_COUNTS
>>> count(7, device="cpu") == KNOWN_COUNTS[7] == 26
True
"""

from ._common import KNOWN_COUNTS, MAX_N, solvable
from .api import LangfordResult, count, solve

__all__ = ["KNOWN_COUNTS", "MAX_N", "LangfordResult", "count", "solvable", "solve"]
