"""CPU eigenvector and Katz centrality: the whole iteration in compiled code, one parallel pull
over the in-arcs per step.

Each step gathers ``sum(w(u, v) * x[u])`` over the in-arcs of every vertex ``v`` in parallel
(PageRank's gather, :func:`warpgraph.algorithms.pagerank.cpu._in_sum`: four interleaved sums
with prefetching), and in the same loop writes the next value and adds up what the step needs
(Numba reductions): for eigenvector centrality the sum of squares of ``y = x + A^T x``, then a
second pass over the vertices divides by the norm and adds up the L1 change; for Katz the L1
change of ``x' = alpha * A^T x + beta`` directly.

The norm is NetworkX's ``math.hypot`` of every value: ``sqrt(sum(y^2))`` where that sum is well
inside float64's range, else (huge weights, tiny ``beta``) from one more pass that scales by a
power of two (:func:`_norm`).
"""

from __future__ import annotations

import math

import numba as nb
import numpy as np

from ...cpu.csr import unsigned_ids
from ..pagerank.cpu import _at, _in_sum

__all__ = ["eigenvector_iteration", "katz_iteration", "norm_or_one"]

#: A sum of squares between these is taken as is: each square was then neither subnormal nor
#: past float64's range, so its square root is the norm to rounding.
_SQUARES_LOW = 1.0e-250
_SQUARES_HIGH = 1.0e250


@nb.njit(parallel=True, cache=True, nogil=True)
def _squares(x):  # pragma: no cover - compiled
    """Sum of ``x[v]^2``."""
    squares = 0.0
    for v in nb.prange(x.size):
        squares += x[v] * x[v]
    return squares


@nb.njit(cache=True, nogil=True)
def _norm(x, squares):  # pragma: no cover - compiled
    """``|x|_2`` as NetworkX's ``math.hypot(*x)`` gives it, from the sum of squares; where that
    sum may have overflowed or lost its small terms (or is NaN), one more pass: ``inf`` for an
    infinite entry, NaN for a NaN, else the sum of ``(x / 2^e)^2`` for a power of two ``2^e``
    near the largest magnitude (exact divisions), which neither overflows nor underflows."""
    if _SQUARES_LOW < squares < _SQUARES_HIGH:
        return math.sqrt(squares)
    largest = 0.0
    nan = False
    for v in range(x.size):
        a = abs(x[v])
        if math.isinf(a):
            return math.inf
        if math.isnan(a):
            nan = True
        elif a > largest:
            largest = a
    if nan:
        return math.nan
    if largest == 0.0:
        return 0.0
    scale = math.ldexp(1.0, math.frexp(largest)[1] - 1)  # (largest / scale in [1, 2))
    acc = 0.0
    for v in range(x.size):
        t = x[v] / scale
        acc += t * t
    return scale * math.sqrt(acc)


@nb.njit(parallel=True, cache=True, nogil=True)
def _eigen_pull(indptr, indices, weights, x, y):  # pragma: no cover - compiled
    """``y = x + A^T x`` (a pull over the in-arcs); returns the sum of ``y[v]^2``."""
    squares = 0.0
    for v in nb.prange(x.size):
        yv = x[v] + _in_sum(indptr[v], indptr[v + 1], indices, weights, x)
        y[v] = yv
        squares += yv * yv
    return squares


@nb.njit(parallel=True, cache=True, nogil=True)
def _divide(y, norm, x):  # pragma: no cover - compiled
    """``y /= norm`` in place; returns ``|y - x|_1`` (after the division)."""
    change = 0.0
    for v in nb.prange(y.size):
        z = y[v] / norm
        y[v] = z
        change += abs(z - x[v])
    return change


@nb.njit(cache=True, nogil=True)
def _eigen_iterate(indptr, indices, weights, x, max_iter, threshold):  # pragma: no cover
    """Steps from ``x`` (overwritten) until the change is below ``threshold``: (vector, steps),
    steps -1 when ``max_iter`` passed without it."""
    y = np.empty_like(x)
    for step in range(1, max_iter + 1):
        norm = _norm(y, _eigen_pull(indptr, indices, weights, x, y))
        if norm == 0.0:  # (NetworkX: `math.hypot(...) or 1`)
            norm = 1.0
        change = _divide(y, norm, x)
        x, y = y, x
        if change < threshold:
            return x, step
    return x, -1


@nb.njit(parallel=True, cache=True, nogil=True)
def _katz_step(indptr, indices, weights, x, alpha, beta, y):  # pragma: no cover - compiled
    """``y = alpha * A^T x + beta`` (``beta`` an array or one float, :func:`_at`); returns
    ``|y - x|_1``."""
    change = 0.0
    for v in nb.prange(x.size):
        yv = alpha * _in_sum(indptr[v], indptr[v + 1], indices, weights, x) + _at(beta, v)
        y[v] = yv
        change += abs(yv - x[v])
    return change


@nb.njit(cache=True, nogil=True)
def _katz_iterate(indptr, indices, weights, x, alpha, beta, max_iter, limit):  # pragma: no cover
    """As :func:`_eigen_iterate` (``limit``: the threshold), for Katz's step."""
    y = np.empty_like(x)
    for step in range(1, max_iter + 1):
        change = _katz_step(indptr, indices, weights, x, alpha, beta, y)
        x, y = y, x
        if change < limit:
            return x, step
    return x, -1


def _gather_arrays(indices: np.ndarray, weights: np.ndarray | None):
    """The kernels' forms: ids unsigned where they can be (no negative-index check in the
    gather), unit weights as the float 1.0 (a version of the gather without them)."""
    w = 1.0 if weights is None else np.ascontiguousarray(weights, dtype=np.float64)
    return unsigned_ids(indices), w


def eigenvector_iteration(indptr, indices, weights, start, max_iter: int, threshold: float):
    """Eigenvector centrality's power iteration on CPU arrays: ``(vector, steps)``, steps -1
    without convergence in ``max_iter`` steps. ``weights``: the in-arcs' float64 weights, or
    None for unit weights; ``start`` is not modified."""
    ids, w = _gather_arrays(indices, weights)
    x = np.array(start, dtype=np.float64)  # (a copy: the loop overwrites its buffers)
    x, steps = _eigen_iterate(indptr, ids, w, x, int(max_iter), float(threshold))
    return x, int(steps)


def katz_iteration(indptr, indices, weights, start, alpha: float, beta, max_iter: int,
                   threshold: float):  # fmt: skip
    """Katz centrality's iteration on CPU arrays: ``(vector, steps)`` as
    :func:`eigenvector_iteration`; ``beta`` one float or a float64 array."""
    ids, w = _gather_arrays(indices, weights)
    x = np.array(start, dtype=np.float64)
    b = float(beta) if isinstance(beta, float) else np.ascontiguousarray(beta, dtype=np.float64)
    x, steps = _katz_iterate(indptr, ids, w, x, float(alpha), b, int(max_iter), float(threshold))
    return x, int(steps)


def norm_or_one(x: np.ndarray) -> float:
    """``|x|_2`` (NetworkX's ``math.hypot(*x)``), or 1.0 where it is 0."""
    norm = float(_norm(x, _squares(x)))
    return 1.0 if norm == 0.0 else norm
