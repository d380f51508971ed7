"""Automatic choices of SSSP: the method for ``method="auto"`` and the bucket width ``delta``.

Delta-stepping trades work for parallelism through ``delta``: a bucket of width ``delta``
holds vertices whose order inside it does not matter, so a wider bucket gives larger frontiers
(more parallelism, fewer steps) but more vertices relaxed before their distance is final
(wasted work). Meyer and Sanders's analysis gives ``delta = Theta(1 / d)`` for random weights
in ``[0, 1]`` and average degree ``d``: about one light arc per vertex. The rule here is that
one, scaled to the measured mean weight: ``delta = c * mean_weight / avg_degree`` with ``c``
set from measurements (benchmarks/sssp.py, docs/SSSP.md), at least 1 for integer weights.

Examples
--------
>>> choose_delta(mean_weight=128.0, max_weight=255.0, avg_degree=32.0, integer=True)
4.0
>>> choose_method(negative=True, device="cpu")
'hbf'
"""

from __future__ import annotations

import math

__all__ = ["DELTA_SCALE", "choose_delta", "choose_method"]

DELTA_SCALE = 1.0
"""``c`` of ``delta = c * mean_weight / avg_degree``."""


def choose_delta(mean_weight: float, max_weight: float, avg_degree: float, integer: bool) -> float:
    """Bucket width for delta-stepping and near-far from weight and degree statistics.

    Parameters
    ----------
    mean_weight, max_weight : float
        Of the arcs' weights (non-negative).
    avg_degree : float
        Arcs per vertex.
    integer : bool
        Integer weights: the width is rounded to a whole number, at least 1.

    Returns
    -------
    float
    """
    d = max(avg_degree, 1.0)
    delta = DELTA_SCALE * mean_weight / d
    if not math.isfinite(delta) or delta <= 0:
        delta = max_weight if max_weight > 0 else 1.0
    if integer:
        return float(max(1, round(delta)))
    return float(delta)


def choose_method(negative: bool, device: str) -> str:
    """``"hbf"`` when some weight is negative (the only method that allows it), else
    delta-stepping (CPU and GPU)."""
    if negative:
        return "hbf"
    return "delta"
