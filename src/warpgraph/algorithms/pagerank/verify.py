"""Checks for PageRank: a distribution, and a fixed point of one more step computed apart.

Rules (with ``x`` the claimed ranks, ``n`` vertices, ``m`` arcs, ``eps`` the float64 epsilon and
``F`` one power step ``F(x) = alpha * (x @ P + sum(x[dangling]) * d) + (1 - alpha) * p``):

1. *a distribution's entries*: ``x`` has shape ``(n,)`` and every ``x[v]`` is finite and
   non-negative;
2. *total mass*: ``|sum(x) - 1| <= 1e-9 + 64 * eps * (n + m)``. An exact step keeps the sum at
   1 (``sum(F(x)) = alpha * sum(x) + 1 - alpha``); each float step can move it by at most about
   ``eps`` times its number of terms, and with ``alpha < 1`` earlier errors shrink, so the bound
   allows many steps' worth of worst-case rounding yet is far below the mass of a lost or doubled
   vertex on any graph small enough to test;
3. *fixed point*: ``|F(x) - x|_1 <= alpha * n * tol + 1e-12 + 8 * eps * (n + m + 8)``. The run
   stopped at ``x = F(x_prev)`` with ``|x - x_prev|_1 < n * tol``, and ``F`` is an
   ``alpha``-contraction in L1 (every row of ``P`` and ``d`` sums to 1, for any vector, not only
   distributions), so ``|F(x) - x|_1 = |F(x) - F(x_prev)|_1 <= alpha * |x - x_prev|_1``; the slack
   covers the rounding of one step here and in the run (a sum of ``k`` non-negative terms is off
   by at most ``k * eps`` of it).

Ranks stored in float32 (``pagerank(..., dtype=np.float32)``; every sum still in float64) add
their storage rounding, with ``eps32`` float32's epsilon: each stored rank and contribution is
off by at most ``eps32 / 2`` of itself, so one step by at most ``eps32`` in L1 (the ranks sum to
1), and the drift of the sum, shrinking by ``alpha`` a step, stays under
``eps32 / (1 - alpha)``. Rule 2 then allows ``+ 8 * eps32 / (1 - alpha)`` more and rule 3
``+ 4 * eps32``.

``F`` here is computed on the CPU from :meth:`Graph.edges` with a SciPy sparse matrix (each
undirected edge added both ways, a self-loop once, parallel arcs summed), not from
:class:`~warpgraph.algorithms.pagerank.api.PageRankInputs`, so it shares no code with the
kernels. Rules 1 and 2 alone accept any distribution, and rule 3 alone accepts a distribution
scaled by a constant near 1 (``|F(cx*) - cx*|_1 = |1 - c| (1 - alpha)``), hence all three.
"""

from __future__ import annotations

import numpy as np
import scipy.sparse as sps

from ...errors import InvalidArgumentError, VerificationError

__all__ = ["power_step", "verify_pagerank"]

EPS = float(np.finfo(np.float64).eps)


def _host(a):
    return a.get() if hasattr(a, "get") else a


def _distribution(values, n: int, name: str) -> np.ndarray:
    if values is None:
        return np.full(n, 1.0 / n)
    a = np.asarray(_host(values), dtype=np.float64)
    if a.shape != (n,):
        raise InvalidArgumentError(f"{name} has shape {a.shape}, expected ({n},)")
    return a / a.sum()


def power_step(G, *, alpha=0.85, personalization=None, dangling=None, weighted=True):
    """The step ``F`` of ``G`` as a function of a NumPy vector (CPU, SciPy; for checks)."""
    g = G.to("cpu")
    n = g.num_vertices
    src, dst, w = g.edges()
    src = np.asarray(src, dtype=np.int64)
    dst = np.asarray(dst, dtype=np.int64)
    if w is None or not weighted:
        w = np.ones(src.size, dtype=np.float64)
    w = np.asarray(w, dtype=np.float64)
    if not g.directed:  # edges() gives each undirected edge once: add the other direction
        off = src != dst
        src, dst, w = (
            np.concatenate((src, dst[off])),
            np.concatenate((dst, src[off])),
            np.concatenate((w, w[off])),
        )
    A = sps.coo_array((w, (src, dst)), shape=(n, n)).tocsr()  # (duplicates summed)
    At = A.T.tocsr()
    s = np.asarray(A.sum(axis=1)).reshape(n)
    is_dangling = s == 0
    with np.errstate(divide="ignore"):
        inv = np.where(is_dangling, 0.0, 1.0 / np.where(is_dangling, 1.0, s))
    p = _distribution(personalization, n, "personalization")
    d = p if dangling is None else _distribution(dangling, n, "dangling")
    alpha = float(alpha)

    def step(x: np.ndarray) -> np.ndarray:
        return alpha * (At @ (x * inv) + x[is_dangling].sum() * d) + (1 - alpha) * p

    return step


def verify_pagerank(
    G,
    ranks,
    *,
    alpha: float = 0.85,
    personalization=None,
    dangling=None,
    tol: float = 1e-6,
    weighted: bool = True,
) -> None:
    """Raise :class:`VerificationError` naming the rule (and a vertex) if ``ranks`` is not what
    :func:`~warpgraph.algorithms.pagerank.pagerank` may return with these options."""
    host = np.asarray(_host(ranks))
    # (float32 ranks: their storage rounding, module docstring; float64 ones: none beyond EPS)
    stored_eps = float(np.finfo(np.float32).eps) if host.dtype == np.float32 else 0.0
    x = np.asarray(host, dtype=np.float64)
    n = G.num_vertices
    if x.shape != (n,):
        raise VerificationError(f"ranks have shape {x.shape}, expected ({n},) (rule 1)")
    if n == 0:
        return
    bad = np.flatnonzero(~np.isfinite(x))
    if bad.size:
        v = int(bad[0])
        raise VerificationError(f"vertex {v}: rank {x[v]} is not finite (rule 1)")
    bad = np.flatnonzero(x < 0)
    if bad.size:
        v = int(bad[0])
        raise VerificationError(f"vertex {v}: rank {x[v]} is negative (rule 1)")
    m = G.num_arcs
    total = float(x.sum())
    drift = 8 * stored_eps / max(1.0 - float(alpha), 1e-3)
    if not abs(total - 1.0) <= 1e-9 + 64 * EPS * (n + m) + drift:
        v = int(np.argmax(x))
        raise VerificationError(
            f"ranks sum to {total!r}, not 1 (rule 2; the largest is vertex {v}'s, {float(x[v])!r})"
        )
    step = power_step(
        G, alpha=alpha, personalization=personalization, dangling=dangling, weighted=weighted
    )
    diff = np.abs(step(x) - x)
    residual = float(diff.sum())
    bound = float(alpha) * n * float(tol) + 1e-12 + 8 * EPS * (n + m + 8) + 4 * stored_eps
    if not residual <= bound:
        v = int(np.argmax(diff))
        raise VerificationError(
            f"one more power step moves the ranks by {residual:.3e} in L1 > {bound:.3e}; "
            f"vertex {v} moves most, by {diff[v]:.3e} (rule 3)"
        )
