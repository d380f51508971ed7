"""Obviously-correct eigenvector and Katz centrality for small graphs: NetworkX's iterations on
a SciPy sparse matrix.

Build the ``n x n`` weight matrix ``A`` from the edge list (SciPy sums duplicates, so parallel
edges add; an undirected edge ``(u, v)`` adds to ``A[u, v]`` and ``A[v, u]``, a self-loop once),
then step as NetworkX does (its ``eigenvector_centrality`` and ``katz_centrality``, whose
Python loops compute exactly these products)::

    eigenvector:  y = (A^T + I) x,  x' = y / (|y|_2 or 1)     from x = nstart / sum(nstart)
    Katz:         x' = alpha * A^T x + beta                    from x = nstart (default 0)

until ``|x' - x|_1 < n * tol``; Katz then divides by ``|x'|_2`` when ``normalized`` (unless it
is 0). For tests only: no checks of the arguments.
"""

from __future__ import annotations

import numpy as np
import scipy.sparse as sps

from ...errors import ConvergenceError, InvalidArgumentError

__all__ = ["eigenvector_reference", "katz_reference"]


def _transposed(n: int, src, dst, weights, directed: bool):
    """``A^T`` as a SciPy CSR array (float64)."""
    src = np.asarray(src, dtype=np.int64).reshape(-1)
    dst = np.asarray(dst, dtype=np.int64).reshape(-1)
    w = np.ones(src.size) if weights is None else np.asarray(weights, dtype=np.float64)
    if not directed:
        off = src != dst
        src, dst, w = (np.concatenate((src, dst[off])), np.concatenate((dst, src[off])),
                       np.concatenate((w, w[off])))  # fmt: skip
    return sps.coo_array((w, (dst, src)), shape=(n, n)).tocsr()


def eigenvector_reference(
    n: int,
    src,
    dst,
    weights=None,
    *,
    directed: bool = True,
    max_iter: int = 100,
    tol: float = 1e-6,
    nstart=None,
) -> tuple[np.ndarray, int]:
    """(centrality, steps) from an edge list; ``weights`` None counts each edge as weight 1.

    Raises
    ------
    InvalidArgumentError
        For ``n == 0`` (no eigenvector of an empty matrix).
    ConvergenceError
        When ``max_iter`` steps pass without the L1 change falling below ``n * tol``.
    """
    if n == 0:
        raise InvalidArgumentError("no eigenvector centrality without vertices")
    M = _transposed(n, src, dst, weights, directed) + sps.eye_array(n, format="csr")
    x = np.ones(n) if nstart is None else np.asarray(nstart, dtype=np.float64)
    x = x / x.sum()
    for step in range(1, max_iter + 1):
        y = M @ x
        y = y / (np.linalg.norm(y) or 1.0)
        if np.abs(y - x).sum() < n * tol:
            return y, step
        x = y
    raise ConvergenceError(max_iter, "eigenvector centrality (reference)")


def katz_reference(
    n: int,
    src,
    dst,
    weights=None,
    *,
    directed: bool = True,
    alpha: float = 0.1,
    beta=1.0,
    max_iter: int = 1000,
    tol: float = 1e-6,
    nstart=None,
    normalized: bool = True,
) -> tuple[np.ndarray, int]:
    """(centrality, steps) from an edge list, as :func:`eigenvector_reference`.

    Raises
    ------
    ConvergenceError
        When ``max_iter`` steps pass without the L1 change falling below ``n * tol``.
    """
    if n == 0:
        return np.zeros(0), 0
    At = _transposed(n, src, dst, weights, directed)
    b = np.broadcast_to(np.asarray(beta, dtype=np.float64), (n,))
    x = np.zeros(n) if nstart is None else np.asarray(nstart, dtype=np.float64)
    # A diverging alpha grows x to inf, and inf - inf makes the change NaN: never below the
    # tolerance, so the run ends in ConvergenceError as it should; NumPy's warnings say nothing.
    with np.errstate(over="ignore", invalid="ignore"):
        for step in range(1, max_iter + 1):
            y = alpha * (At @ x) + b
            if np.abs(y - x).sum() < n * tol:
                if normalized:
                    y = y / (np.linalg.norm(y) or 1.0)
                return y, step
            x = y
    raise ConvergenceError(max_iter, "Katz centrality (reference)")
