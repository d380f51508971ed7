"""Automatic choices of SSSP: the method for ``method="auto"`` and the bucket width ``delta``.

Delta-stepping trades work for parallelism through ``delta``: a bucket of width ``delta``
holds vertices whose order inside it does not matter, so a wider bucket gives larger frontiers
(fewer steps) but more vertices relaxed before their distance is final (wasted work). Meyer and
Sanders's analysis gives ``delta = Theta(1 / d)`` for random weights in ``[0, 1]`` and degree
``d``. Measured here (benchmarks/sssp.py sweeps, docs/SSSP.md), the best width falls faster than
``1 / d`` with the average degree: about ``mean / 30`` on Kronecker graphs (30 arcs per vertex;
GAPBS uses ``-d 2`` for weights in [1, 255]), but ``8`` to ``30`` times the mean weight on grids
and road-like graphs (2.5 to 4 arcs per vertex), whose few arcs per vertex waste little work in
wide buckets while their thousands of levels make every extra step cost. The rule fitted to
those measurements is

    delta = mean_weight * (DELTA_DEGREE / avg_degree) ** DELTA_POWER

at least 1 (and whole) for integer weights.

Examples
--------
>>> choose_delta(mean_weight=128.0, max_weight=255.0, avg_degree=30.0, integer=True)
4.0
>>> choose_delta(mean_weight=100.0, max_weight=171.0, avg_degree=2.5, integer=True)
2880.0
>>> choose_method(negative=True, device="cpu")
'hbf'
"""

from __future__ import annotations

import math

__all__ = ["DELTA_DEGREE", "DELTA_POWER", "choose_delta", "choose_method"]

DELTA_DEGREE = 8.6
"""Average degree at which the automatic ``delta`` equals the mean weight."""
DELTA_POWER = 2.72
"""How fast the automatic ``delta`` falls with the average degree."""


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
    delta = mean_weight * (DELTA_DEGREE / d) ** DELTA_POWER
    if not math.isfinite(delta) or delta <= 0:
        delta = max_weight if max_weight > 0 else 1.0
    if integer:
        return float(max(1, round(delta)))
    return float(delta)


GPU_HBF_MIN_DEGREE = 8.0
"""Arcs per vertex from which the GPU's automatic choice is H-BF rather than near-far."""


def choose_method(negative: bool, device: str, avg_degree: float | None = None) -> str:
    """The automatic method.

    ``"hbf"`` when some weight is negative (the only method that allows it). Otherwise
    delta-stepping on the CPU; on the GPU, measured on an H100 (docs/SSSP.md), H-BF on graphs of
    ``GPU_HBF_MIN_DEGREE`` or more arcs per vertex (Kronecker 20/22: 1.4/4.7 ms per source in a
    batch, against 2.3/7.7 near-far and 2.3/7.9 delta-stepping) and near-far on sparser, deep
    graphs (2048^2 grid: 31 ms against 36 delta-stepping and 121 H-BF, measured before the
    GPU features of 2026-11-21's session 3).

    Examples
    --------
    >>> choose_method(False, "gpu", 29.9), choose_method(False, "gpu", 4.0)
    ('hbf', 'near_far')
    """
    if negative:
        return "hbf"
    if device == "gpu" and avg_degree is not None:
        return "hbf" if avg_degree >= GPU_HBF_MIN_DEGREE else "near_far"
    return "delta"
