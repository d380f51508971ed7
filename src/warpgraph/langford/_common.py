"""Shared facts about L(2,n): known counts, argument checks, limits.

Examples
--------
>>> from warpgraph.langford._common import check_n, solvable
>>> check_n(7), solvable(7), solvable(9)
(7, True, False)
"""

from __future__ import annotations

import numbers

from ..errors import InvalidArgumentError

__all__ = ["KNOWN_COUNTS", "MAX_N", "check_n", "solvable"]

KNOWN_COUNTS: dict[int, int] = {
    1: 0,
    2: 0,
    3: 1,
    4: 1,
    5: 0,
    6: 0,
    7: 26,
    8: 150,
    9: 0,
    10: 0,
    11: 17_792,
    12: 108_144,
    13: 0,
    14: 0,
    15: 39_809_640,
    16: 326_721_800,
    17: 0,
    18: 0,
    19: 256_814_891_280,
    20: 2_636_337_861_200,
    21: 0,
    22: 0,
    23: 3_799_455_942_515_488,
    24: 46_845_158_056_515_936,
    25: 0,
    26: 0,
    27: 111_683_611_098_764_903_232,
    28: 1_607_383_260_609_382_393_152,
}
"""L(2,n), solutions up to reversal (OEIS A014552; n = 27, 28 as in the seed's Table 1.1)."""

MAX_N = 24
"""Largest solvable n the counters accept.

Godfrey: the product of the n factors is below 2^121 for n <= 24, so it fits one signed 128-bit
word on the GPU and two int64 groups (< 2^62 each) on the CPU; n = 27, 28 would need 192-bit
products (and 2^52 Gray steps, days on one GPU). Miller: counts must fit int64 (L(2,24) < 2^56).
"""


def solvable(n: int) -> bool:
    """True when L(2,n) can be non-zero: n = 0 or 3 (mod 4) (Langford; the seed's eq. 1.1)."""
    return n % 4 in (0, 3)


def check_n(n: object) -> int:
    """Validate ``n`` and return it as an ``int``.

    Raises
    ------
    InvalidArgumentError
        ``n`` is not an integer, is below 1, or is a solvable n above :data:`MAX_N`.
    """
    if isinstance(n, bool) or not isinstance(n, numbers.Integral):
        raise InvalidArgumentError(f"n must be an integer, got {n!r}")
    n = int(n)
    if n < 1:
        raise InvalidArgumentError(f"n must be >= 1, got {n}")
    if solvable(n) and n > MAX_N:
        raise InvalidArgumentError(
            f"n = {n} is beyond what warpgraph counts (n <= {MAX_N}): its Godfrey products need "
            "more than 128 bits and its sum has 2^(2n-2) terms"
        )
    return n
