"""Checks for eigenvector and Katz centrality: the claimed vector is what one more step,
computed apart, leaves (nearly) unchanged, by bounds that hold for any correct run.

Notation: ``x`` the claimed vector, ``n`` vertices, ``m`` arcs, ``eps`` the float64 epsilon,
``B`` the matrix a step applies (``A^T`` for a directed graph, ``A`` for an undirected one: each
vertex reads its own row, the same when the weights of an edge's two arcs agree) and
``W = max_u sum_v |B[v, u]|`` its induced L1 norm (the largest out-weight). A run returns
``x = F(x_p)`` for the previous iterate ``x_p`` with ``|x - x_p|_1 < n * tol``.

Eigenvector centrality, ``F(x) = Mx / |Mx|_2`` with ``M = B + I`` (non-negative weights):

1. ``x`` has shape ``(n,)``, finite, non-negative entries;
2. ``| |x|_2 - 1 | <= 8 * eps * (n + 8)`` (a division by the computed norm);
3. ``|F(x) - x|_1 <= (1 + sqrt(n)) * (1 + W) * n * tol / |Mx|_2 + slack``. With ``y = Mx`` and
   ``y_p = M x_p``: ``F(x) - F(x_p) = (y - y_p) / |y| + y_p (1/|y| - 1/|y_p|)``; the first term
   is at most ``|M (x - x_p)|_1 / |y|`` in L1, the second ``|y_p|_1 | |y_p| - |y| | / (|y| |y_p|)
   <= sqrt(n) |y - y_p|_2 / |y|``; and ``|M d|_1 <= (1 + W) |d|_1``. (``|y|_2 >= |x|_2 = 1``
   since ``M >= I`` and ``x >= 0``.) The slack, ``1e-12 + 8 * eps * (n + m + 8) * (2 + sqrt(n))
   * (1 + W)``, covers the rounding of the run's last step, carried through that bound, and of
   the step here.

Katz centrality, ``F(x) = alpha * B x + beta``; ``x = c z`` where ``z`` is the claimed vector
and ``c = |x|_2`` when ``normalized`` (else 1):

1. ``z`` has shape ``(n,)`` and finite entries; with ``alpha >= 0``, ``beta >= 0``, non-negative
   weights and ``nstart`` (if given) non-negative, ``z >= 0`` (every iterate is, exactly);
2. with ``normalized``, ``| |z|_2 - 1 | <= 8 * eps * (n + 8)``, or ``z == 0`` (a zero norm is left
   as it is);
3. ``F(x) - x = F(x) - F(x_p) = alpha * B (x - x_p)``, so ``|F(x) - x|_2 <= |F(x) - x|_1 <=
   |alpha| * W * n * tol``. With ``normalized`` ``c`` is unknown: the check takes the ``c``
   minimizing ``|c (alpha B z - z) + beta|_2`` (least squares), whose residual is at most the
   true ``c``'s. Slack: ``1e-300 + 16 * eps * (n + m + 8) * (1 + |alpha| W) * |mag|_1`` with
   ``mag = |alpha| |B| |x| + |beta| + |x|``, the sizes of the terms a step adds up.

``F`` is computed on the CPU with a SciPy sparse matrix built from the arcs (``G.indptr``,
``G.indices``), not from the kernels' in-arc arrays.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np
import scipy.sparse as sps

from ..._arrays import to_host
from ...errors import InvalidArgumentError, VerificationError

__all__ = ["step_matrix", "verify_eigenvector_centrality", "verify_katz_centrality"]

EPS = float(np.finfo(np.float64).eps)


def _arc_weights(g, weights: Any) -> np.ndarray:
    """One float64 weight per arc of the CPU graph ``g`` (see the ``weights`` parameter of
    :func:`~warpgraph.algorithms.centrality.eigenvector_centrality`)."""
    m = g.num_arcs
    if weights is None or weights is False or (weights is True and g.weights is None):
        return np.ones(m)
    values = g.weights if weights is True else to_host(weights)
    w = np.asarray(values, dtype=np.float64).reshape(-1)
    if w.shape != (m,):
        raise InvalidArgumentError(f"weights has shape {w.shape}, expected ({m},)")
    return w


def step_matrix(G, weights: Any = None) -> sps.csr_array:
    """``B``: ``B[v, u]`` sums the weights ``v`` reads from ``u`` in a step (``A^T`` for a
    directed graph, ``A`` for an undirected one), as a SciPy CSR array on the CPU."""
    g = G.to("cpu")
    n = g.num_vertices
    rows = np.repeat(np.arange(n, dtype=np.int64), np.diff(np.asarray(g.indptr)))
    cols = np.asarray(g.indices, dtype=np.int64)
    w = _arc_weights(g, weights)
    if g.directed:  # arc u -> v: v reads u
        rows, cols = cols, rows
    return sps.coo_array((w, (rows, cols)), shape=(n, n)).tocsr()  # (duplicates summed)


def _claimed(x: Any, n: int, what: str) -> np.ndarray:
    z = np.asarray(to_host(x), dtype=np.float64)
    if z.shape != (n,):
        raise VerificationError(f"{what} has shape {z.shape}, expected ({n},) (rule 1)")
    bad = np.flatnonzero(~np.isfinite(z))
    if bad.size:
        v = int(bad[0])
        raise VerificationError(f"vertex {v}: {what} {z[v]} is not finite (rule 1)")
    return z


def _non_negative(z: np.ndarray, what: str) -> None:
    bad = np.flatnonzero(z < 0)
    if bad.size:
        v = int(bad[0])
        raise VerificationError(f"vertex {v}: {what} {z[v]} is negative (rule 1)")


def _unit_norm(z: np.ndarray, n: int) -> float:
    norm = float(np.linalg.norm(z))
    if not abs(norm - 1.0) <= 8 * EPS * (n + 8):
        raise VerificationError(f"the vector's Euclidean norm is {norm!r}, not 1 (rule 2)")
    return norm


def _out_norm(B: sps.csr_array) -> float:
    """``max_u sum_v |B[v, u]|``."""
    if B.nnz == 0:
        return 0.0
    return float(np.asarray(abs(B).sum(axis=0)).max())


def verify_eigenvector_centrality(G, x, *, tol: float = 1e-6, weights: Any = None) -> None:
    """Raise :class:`VerificationError` naming the rule (and a vertex) if ``x`` is not what
    :func:`~warpgraph.algorithms.centrality.eigenvector_centrality` may return with these
    options (rules in the module docstring)."""
    n = G.num_vertices
    z = _claimed(x, n, "centrality")
    if n == 0:
        return
    _non_negative(z, "centrality")
    _unit_norm(z, n)
    B = step_matrix(G, weights)
    m = G.num_arcs
    W = _out_norm(B)
    y = B @ z + z
    size = float(np.linalg.norm(y))
    diff = np.abs(y / size - z)
    residual = float(diff.sum())
    root = math.sqrt(n)
    bound = (1 + root) * (1 + W) * n * float(tol) / size
    bound += 1e-12 + 8 * EPS * (n + m + 8) * (2 + root) * (1 + W)
    if not residual <= bound:
        v = int(np.argmax(diff))
        raise VerificationError(
            f"one more power step moves the vector by {residual:.3e} in L1 > {bound:.3e}; "
            f"vertex {v} moves most, by {diff[v]:.3e} (rule 3)"
        )


def verify_katz_centrality(
    G,
    x,
    *,
    alpha: float = 0.1,
    beta: Any = 1.0,
    tol: float = 1e-6,
    normalized: bool = True,
    nstart: Any = None,
    weights: Any = None,
) -> None:
    """Raise :class:`VerificationError` naming the rule (and a vertex) if ``x`` is not what
    :func:`~warpgraph.algorithms.centrality.katz_centrality` may return with these options
    (rules in the module docstring)."""
    n = G.num_vertices
    z = _claimed(x, n, "centrality")
    if n == 0:
        return
    alpha = float(alpha)
    b = np.broadcast_to(np.asarray(to_host(beta), dtype=np.float64), (n,))
    B = step_matrix(G, weights)
    start_ok = nstart is None or bool((np.asarray(to_host(nstart)) >= 0).all())
    if alpha >= 0 and (b >= 0).all() and (B.data >= 0).all() and start_ok:
        _non_negative(z, "centrality")
    d = alpha * (B @ z) - z  # F(c z) - c z = c d + beta
    c = 1.0
    if normalized:
        if z.any():
            _unit_norm(z, n)
        dd = float(d @ d)
        c = -float(d @ b) / dd if dd > 0 else 0.0  # (least squares; any c when d is 0)
    r = c * d + b
    residual = float(np.linalg.norm(r))
    W = _out_norm(B)
    xs = np.abs(c * z)
    magnitude = float((abs(alpha) * (abs(B) @ xs) + np.abs(b) + xs).sum())
    m = G.num_arcs
    bound = abs(alpha) * W * n * float(tol)
    bound += 1e-300 + 16 * EPS * (n + m + 8) * (1 + abs(alpha) * W) * magnitude
    if not residual <= bound:
        v = int(np.argmax(np.abs(r)))
        raise VerificationError(
            f"one more step moves the (unnormalized) vector by {residual:.3e} in L2 > "
            f"{bound:.3e}; vertex {v} moves most, by {abs(r[v]):.3e} (rule 3)"
        )
