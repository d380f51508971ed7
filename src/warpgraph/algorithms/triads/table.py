"""The 16 triad types (Holland & Leinhardt's MAN names) and the 64-code lookup table.

A labelled triad ``(u, v, w)`` has the 6-bit code (Batagelj & Mrvar; NetworkX's ``_tricode``)::

    bit 0: u -> v   bit 1: v -> u   bit 2: u -> w   bit 3: w -> u   bit 4: v -> w   bit 5: w -> v

and :data:`TRIAD_TABLE` maps each code to its isomorphism class, an index into
:data:`TRIAD_NAMES`. A *dyad code* is the 2-bit code of one pair seen from its first vertex
(bit 0: first -> second, bit 1: second -> first), so ``code = c_uv + 4 c_uw + 16 c_vw``.

From these, :func:`combination_matrices` derives the integer tables that turn the quantities
the census algorithms measure (wedge counts per vertex, dyad sums, the histogram of triangle
codes) into the census (see :mod:`.cpu`).

Examples
--------
>>> TRIAD_NAMES[TRIAD_TABLE[0b000001]], TRIAD_NAMES[TRIAD_TABLE[0b111111]]
('012', '300')
"""

from __future__ import annotations

import numpy as np

__all__ = ["TRIAD_NAMES", "TRIAD_TABLE", "combination_matrices", "swap_dyad"]

TRIAD_NAMES: tuple[str, ...] = (
    "003",
    "012",
    "102",
    "021D",
    "021U",
    "021C",
    "111D",
    "111U",
    "030T",
    "030C",
    "201",
    "120D",
    "120U",
    "120C",
    "210",
    "300",
)

# fmt: off
TRIAD_TABLE = np.array([
    0, 1, 1, 2, 1, 3, 5, 7, 1, 5, 4, 6, 2, 7, 6, 10,
    1, 5, 3, 7, 4, 8, 8, 12, 5, 9, 8, 13, 6, 13, 11, 14,
    1, 4, 5, 6, 5, 8, 9, 13, 3, 8, 8, 11, 7, 12, 13, 14,
    2, 6, 7, 10, 6, 11, 13, 14, 7, 13, 12, 14, 10, 14, 14, 15,
], dtype=np.int64)
# fmt: on


def swap_dyad(c: int) -> int:
    """The dyad code of the same pair seen from its other end."""
    return ((c & 1) << 1) | ((c >> 1) & 1)


def combination_matrices() -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Tables turning measured counts into the census.

    Returns
    -------
    wedge : (3, 3) int array
        ``wedge[x - 1, y - 1]``: triad type of a vertex whose two neighbours have dyad codes
        ``x`` and ``y`` (from the centre) and are not adjacent.
    dyad : (4,) int array
        ``dyad[x]``: type of a triad with one connected dyad of code ``x`` (012 or 102).
    triangle : (64, 16) int array
        Row ``K``: what one triangle of code ``K`` adds to the census once the wedge and dyad
        sums have counted it as three wedges and three dyads: +1 for its own type, -1 for each
        corner's wedge type, +1 for each edge's dyadic type (the edge's dyadic count subtracted
        its third vertex).
    """
    wedge = np.zeros((3, 3), dtype=np.int64)
    for x in range(1, 4):
        for y in range(1, 4):
            wedge[x - 1, y - 1] = TRIAD_TABLE[x + 4 * y]
    dyad = np.array([TRIAD_TABLE[x] for x in range(4)], dtype=np.int64)
    tri = np.zeros((64, 16), dtype=np.int64)
    for k in range(64):
        ab, ac, bc = k & 3, (k >> 2) & 3, (k >> 4) & 3
        if not (ab and ac and bc):
            continue
        tri[k, TRIAD_TABLE[k]] += 1
        for x, y in ((ab, ac), (swap_dyad(ab), bc), (swap_dyad(ac), swap_dyad(bc))):
            tri[k, wedge[x - 1, y - 1]] -= 1
        for x in (ab, ac, bc):
            tri[k, dyad[x]] += 1
    return wedge, dyad, tri
