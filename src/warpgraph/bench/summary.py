"""Summary statistics of repeated measurements, including Graph500's TEPS statistics.

Two families live here:

* :func:`summarize` - the median/min/max/mean/stddev of a list of run times, as every benchmark
  record stores them;
* :func:`graph500_statistics` and :func:`teps_statistics` - the order statistics and the
  harmonic-mean TEPS of the Graph500 reference code (``src/main.c`` of graph500/graph500 3.0),
  reproduced to the formula so that our output can be compared field by field with the
  reference's.

The Graph500 quartiles are *not* NumPy's percentiles: for ``n`` sorted values ``x``,
``Q1 = (x[(n-1)//4] + x[n//4]) / 2``, ``median = (x[(n-1)//2] + x[n//2]) / 2`` and
``Q3 = (x[n-1-(n-1)//4] + x[n-1-n//4]) / 2``; the standard deviation divides by ``n - 1``.
TEPS statistics are computed on the *seconds per edge* ``t_i / m_i`` and inverted, so the
reported ``min_TEPS`` is ``1 / max(t_i / m_i)``, the mean is the harmonic mean
``1 / mean(t_i / m_i)``, and its standard deviation is Norris's (1940) standard error of the
harmonic mean, ``std(t/m) / (mean(t/m)**2 * sqrt(n - 1))``.

Examples
--------
>>> s = graph500_statistics([4.0, 1.0, 3.0, 2.0])
>>> s["min"], s["firstquartile"], s["median"], s["thirdquartile"], s["max"]
(1.0, 1.5, 2.5, 3.5, 4.0)
>>> t = teps_statistics([1.0, 2.0], [10, 10])
>>> round(t["harmonic_mean_TEPS"], 6)  # two runs of 10 edges in 3 s in all
6.666667
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

import numpy as np

from ..errors import InvalidArgumentError

__all__ = ["GRAPH500_FIELDS", "graph500_statistics", "summarize", "teps_statistics"]

#: Order of the seven statistics in the reference output.
GRAPH500_FIELDS = ("min", "firstquartile", "median", "thirdquartile", "max", "mean", "stddev")


def summarize(seconds: Sequence[float]) -> dict[str, Any]:
    """Median, min, max, mean and sample standard deviation of run times (seconds).

    Parameters
    ----------
    seconds : sequence of float
        One entry per measured run.

    Returns
    -------
    dict
        ``median_s``, ``min_s``, ``max_s``, ``mean_s``, ``stddev_s`` (``None`` for one run) and
        ``runs``. Every value is ``None`` when ``seconds`` is empty.

    Examples
    --------
    >>> summarize([0.3, 0.1, 0.2])["median_s"]
    0.2
    """
    x = np.asarray(list(seconds), dtype=np.float64)
    if x.size == 0:
        return dict.fromkeys(("median_s", "min_s", "max_s", "mean_s", "stddev_s"), None) | {
            "runs": 0
        }
    return {
        "median_s": float(np.median(x)),
        "min_s": float(x.min()),
        "max_s": float(x.max()),
        "mean_s": float(x.mean()),
        "stddev_s": float(x.std(ddof=1)) if x.size > 1 else None,
        "runs": int(x.size),
    }


def graph500_statistics(values: Sequence[float]) -> dict[str, float]:
    """The seven statistics of the Graph500 reference (``get_statistics`` in ``main.c``).

    Parameters
    ----------
    values : sequence of float
        At least one value.

    Returns
    -------
    dict
        Keys of :data:`GRAPH500_FIELDS`. ``stddev`` divides by ``n - 1`` (NaN for one value).

    Raises
    ------
    InvalidArgumentError
        For an empty sequence.

    Examples
    --------
    >>> graph500_statistics([1.0, 2.0, 3.0])["median"]
    2.0
    """
    x = np.sort(np.asarray(list(values), dtype=np.float64))
    n = int(x.size)
    if n == 0:
        raise InvalidArgumentError("graph500_statistics needs at least one value")
    mean = float(x.mean())
    std = math.sqrt(float(((x - mean) ** 2).sum()) / (n - 1)) if n > 1 else math.nan
    return {
        "min": float(x[0]),
        "firstquartile": float((x[(n - 1) // 4] + x[n // 4]) * 0.5),
        "median": float((x[(n - 1) // 2] + x[n // 2]) * 0.5),
        "thirdquartile": float((x[n - 1 - (n - 1) // 4] + x[n - 1 - n // 4]) * 0.5),
        "max": float(x[n - 1]),
        "mean": mean,
        "stddev": std,
    }


def teps_statistics(seconds: Sequence[float], nedges: Sequence[float]) -> dict[str, float]:
    """TEPS statistics exactly as the Graph500 reference computes them.

    Parameters
    ----------
    seconds : sequence of float
        Time of each search (all > 0).
    nedges : sequence of float
        Edges counted for each search (Graph500 counting, all > 0).

    Returns
    -------
    dict
        ``min_TEPS``, ``firstquartile_TEPS``, ``median_TEPS``, ``thirdquartile_TEPS``,
        ``max_TEPS``, ``harmonic_mean_TEPS``, ``harmonic_stddev_TEPS`` (NaN for one search).

    Raises
    ------
    InvalidArgumentError
        For lengths that differ, no search, or a time or edge count that is not positive.

    Examples
    --------
    >>> t = teps_statistics([1.0, 1.0, 4.0], [8, 8, 8])
    >>> t["min_TEPS"], t["max_TEPS"], t["harmonic_mean_TEPS"]
    (2.0, 8.0, 4.0)
    """
    t = np.asarray(list(seconds), dtype=np.float64)
    m = np.asarray(list(nedges), dtype=np.float64)
    if t.shape != m.shape or t.size == 0:
        raise InvalidArgumentError(
            f"need as many times as edge counts, and at least one (got {t.size} and {m.size})"
        )
    if not (np.all(t > 0) and np.all(m > 0)):
        raise InvalidArgumentError("TEPS statistics need positive times and edge counts")
    s = graph500_statistics(t / m)
    n = int(t.size)
    hstd = s["stddev"] / (s["mean"] * s["mean"] * math.sqrt(n - 1)) if n > 1 else math.nan
    return {
        "min_TEPS": 1.0 / s["max"],
        "firstquartile_TEPS": 1.0 / s["thirdquartile"],
        "median_TEPS": 1.0 / s["median"],
        "thirdquartile_TEPS": 1.0 / s["firstquartile"],
        "max_TEPS": 1.0 / s["min"],
        "harmonic_mean_TEPS": 1.0 / s["mean"],
        "harmonic_stddev_TEPS": hstd,
    }
