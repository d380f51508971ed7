"""Obviously-correct triad census for small graphs: classify all C(n, 3) triples (O(n^3)).

Self-loops are ignored and parallel arcs count once; an undirected graph counts as a directed
one with both arcs of every edge.
"""

from __future__ import annotations

from itertools import combinations

from .table import TRIAD_NAMES, TRIAD_TABLE

__all__ = ["triadic_census_reference"]


def triadic_census_reference(n: int, src, dst, directed: bool = True) -> dict[str, int]:
    """Census by brute force from an arc list."""
    arcs = {(int(u), int(v)) for u, v in zip(src, dst, strict=True) if u != v}
    if not directed:
        arcs |= {(v, u) for u, v in arcs}
    counts = [0] * 16
    for u, v, w in combinations(range(n), 3):
        code = (
            ((u, v) in arcs)
            + 2 * ((v, u) in arcs)
            + 4 * ((u, w) in arcs)
            + 8 * ((w, u) in arcs)
            + 16 * ((v, w) in arcs)
            + 32 * ((w, v) in arcs)
        )
        counts[TRIAD_TABLE[code]] += 1
    return dict(zip(TRIAD_NAMES, counts, strict=True))
