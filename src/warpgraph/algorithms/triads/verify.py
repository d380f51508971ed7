"""Checks for a triad census.

1. *shape*: the 16 NetworkX names, each a non-negative ``int``;
2. *total*: the counts sum to ``C(n, 3)`` exactly;
3. *dyads*: every connected (mutual) dyad lies in ``n - 2`` triads, so the counts weighted by
   the connected (mutual) dyads of each type (``M + A`` and ``M`` of the MAN name) sum to
   ``(n - 2)`` times the number of connected (mutual) dyads of the graph.

The tests add a recount by the other method (triangles vs dyads) and by brute force.
"""

from __future__ import annotations

from math import comb

from ...errors import VerificationError
from .table import TRIAD_NAMES

__all__ = ["CONNECTED_DYADS", "MUTUAL_DYADS", "verify_census"]

# number of connected (resp. mutual) dyads in each triad type, from the MAN names
CONNECTED_DYADS = {name: int(name[0]) + int(name[1]) for name in TRIAD_NAMES}
MUTUAL_DYADS = {name: int(name[0]) for name in TRIAD_NAMES}


def verify_census(census: dict[str, int], n: int, connected_dyads: int, mutual_dyads: int) -> None:
    """Raise :class:`VerificationError` naming the rule a census breaks.

    ``connected_dyads`` / ``mutual_dyads`` are the numbers of vertex pairs joined by at least
    one arc / by arcs both ways (loops and parallel arcs ignored).
    """
    if tuple(census) != TRIAD_NAMES:
        raise VerificationError(f"census keys {tuple(census)} are not {TRIAD_NAMES} (rule 1)")
    for name, c in census.items():
        if not isinstance(c, int) or c < 0:
            raise VerificationError(f"census[{name!r}] = {c!r} is not a non-negative int (rule 1)")
    total = sum(census.values())
    if total != comb(n, 3):
        raise VerificationError(f"census sums to {total}, C({n}, 3) = {comb(n, 3)} (rule 2)")
    for what, per, count in (
        ("connected", CONNECTED_DYADS, connected_dyads),
        ("mutual", MUTUAL_DYADS, mutual_dyads),
    ):
        got = sum(per[name] * c for name, c in census.items())
        want = max(n - 2, 0) * count
        if got != want:
            raise VerificationError(
                f"{what} dyads over all triads: {got}, expected (n - 2) * {count} = {want} (rule 3)"
            )
