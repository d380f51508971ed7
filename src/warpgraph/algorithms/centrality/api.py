"""Eigenvector and Katz centrality: NetworkX's power iterations, step for step.

Eigenvector centrality (NetworkX's ``eigenvector_centrality``) iterates with ``M = A^T + I``
(``A[u, v]`` the weight of the arc ``u -> v``; the identity shifts the spectrum so that the
iteration converges on bipartite graphs too) from ``x0 = nstart / sum(nstart)``::

    y = x + A^T x,    x' = y / |y|_2          (|y|_2 = 0 divides by 1, as NetworkX)

and stops when ``|x' - x|_1 < n * tol``, returning ``x'``. Katz centrality (NetworkX's
``katz_centrality``) iterates from ``x0 = nstart`` (default 0)::

    x' = alpha * A^T x + beta

stops on the same rule and then, when ``normalized``, multiplies ``x'`` by ``1 / |x'|_2`` (by 1
when that norm is 0). After ``max_iter`` steps without convergence either raises
:class:`~warpgraph.errors.ConvergenceError`.

Both devices compute ``A^T x`` as a pull over the in-arcs (``G.reverse_csr()``; an undirected
graph is its own reverse): each vertex sums ``w(u, v) * x[u]`` over its in-neighbours ``u``,
with no atomics. An undirected edge counts both ways, a self-loop once, and parallel arcs add
their weights, as in NetworkX's adjacency (which has no parallel arcs outside multigraphs).
The values equal NetworkX's to rounding: the sums are added in another order.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from ...errors import ConvergenceError, InvalidArgumentError
from ...graph import Graph
from ..triangles.api import place

__all__ = ["eigenvector_centrality", "in_arcs", "katz_centrality"]


def _check_graph(G: Any, name: str) -> None:
    if not isinstance(G, Graph):
        raise InvalidArgumentError(f"{name} needs a warpgraph.Graph, got {type(G).__name__}")


def _is_number(value: Any) -> bool:
    return isinstance(value, int | float | np.integer | np.floating) and not isinstance(
        value, bool | np.bool_
    )


def _check_tol(tol: Any) -> float:
    if not _is_number(tol) or not float(tol) >= 0:  # (False for NaN too)
        raise InvalidArgumentError(f"tol must be a non-negative number, got {tol!r}")
    return float(tol)


def _check_iterations(max_iter: Any) -> int:
    if isinstance(max_iter, bool) or not isinstance(max_iter, int | np.integer) or max_iter < 0:
        raise InvalidArgumentError(f"max_iter must be a non-negative integer, got {max_iter!r}")
    return int(max_iter)


def _check_finite(value: Any, name: str) -> float:
    if not _is_number(value) or not math.isfinite(float(value)):
        raise InvalidArgumentError(f"{name} must be a finite number, got {value!r}")
    return float(value)


def _vector(values: Any, n: int, name: str, xp, *, non_negative: bool, finite: bool = True) -> Any:
    """``values`` as a float64 array of shape ``(n,)`` on ``xp``, finite (and non-negative)
    unless told otherwise."""
    try:
        a = xp.asarray(values, dtype=np.float64)
    except (TypeError, ValueError) as exc:
        raise InvalidArgumentError(f"{name} must be an array of {n} numbers: {exc}") from None
    if a.shape != (n,):
        raise InvalidArgumentError(f"{name} has shape {a.shape}, expected ({n},)")
    if finite and not bool(xp.isfinite(a).all()):
        raise InvalidArgumentError(f"{name} must hold finite numbers")
    if non_negative and bool((a < 0).any()):
        raise InvalidArgumentError(f"{name} must hold non-negative numbers")
    return a


def _bad_weight(low: float, high: float, non_negative: bool) -> tuple[str, float] | None:
    """(what is wrong, the value) for the smallest and largest weight, or None when fine."""
    if math.isnan(low) or math.isnan(high):  # (a NaN anywhere makes NumPy's min and max NaN)
        return "a NaN", math.nan
    if math.isinf(low) or math.isinf(high):
        return "an infinite", low if math.isinf(low) else high
    if non_negative and low < 0:
        return "a negative", low
    return None


def in_arcs(G: Graph, weights: Any = None, *, non_negative: bool = False, what: str = "centrality"):
    """``(indptr, indices, weights)`` of the in-arcs of ``G`` (where ``G`` lives), the weights
    float64 or None for unit weights; see :func:`eigenvector_centrality` for ``weights``.

    Raises
    ------
    InvalidArgumentError
        Weights of the wrong shape, not numbers, NaN or infinite, or (``non_negative``)
        negative.
    """
    if weights is None or weights is False:
        indptr, indices, _ = G.reverse_csr()
        return indptr, indices, None
    xp = G._xp()
    if weights is True:
        if G.weights is None:
            indptr, indices, _ = G.reverse_csr()
            return indptr, indices, None
        source, w = G, G.weights
    else:
        # (checked below with the graph's own weights, naming the value)
        w = _vector(weights, G.num_arcs, "weights", xp, non_negative=False, finite=False)
        source = Graph(G.indptr, G.indices, w, directed=G.directed, validate=False)
    if w.size:
        found = _bad_weight(float(w.min()), float(w.max()), non_negative)
        if found is not None:
            need = "finite, non-negative" if non_negative else "finite"
            raise InvalidArgumentError(
                f"{what} needs {need} weights; the graph has {found[0]} weight ({found[1]})"
            )
    indptr, indices, rweights = source.reverse_csr()
    return indptr, indices, rweights.astype(np.float64, copy=False)


def eigenvector_centrality(
    G: Graph,
    *,
    max_iter: int = 100,
    tol: float = 1.0e-6,
    nstart: Any = None,
    weights: Any = None,
    device: str = "auto",
    return_iterations: bool = False,
):
    """Eigenvector centrality of every vertex, by NetworkX's power iteration with ``A^T + I``.

    The centrality of ``v`` is proportional to the sum of its in-neighbours' centralities
    (weighted): the dominant left eigenvector of the adjacency matrix, with unit Euclidean norm.
    Each step computes ``y = x + A^T x`` and ``x' = y / |y|_2``; the run stops when
    ``|x' - x|_1 < n * tol`` (NetworkX's rule) and returns ``x'``.

    Parameters
    ----------
    G : Graph
        Directed (in-arcs are summed) or undirected (each edge both ways; a loop once).
    max_iter : int
        Most power steps; :class:`~warpgraph.errors.ConvergenceError` after that many.
    tol : float
        Stop when the L1 change of a step is below ``n * tol``.
    nstart : array_like, optional
        First iterate: ``n`` finite, non-negative numbers with a positive sum (divided by the
        sum). Default: all ones (so ``1 / n`` each).
    weights : None, bool or array_like
        None or False (default): every arc weighs 1 (NetworkX's ``weight=None``). True:
        ``G.weights`` (1 for every arc when ``G`` has none). An array: one weight per arc,
        aligned with ``G.indices`` (an undirected graph's two arcs of an edge should weigh the
        same: each vertex reads its own row). Weights must be finite and non-negative.
    device : {"auto", "cpu", "gpu"}
        Where to compute; the result lives there.
    return_iterations : bool
        Also return the number of steps taken.

    Returns
    -------
    centrality : float64 array of length ``G.num_vertices`` (NumPy or CuPy), unit L2 norm
    iterations : int
        Only with ``return_iterations``.

    Raises
    ------
    InvalidArgumentError
        A graph without vertices (NetworkX: ``NetworkXPointlessConcept``); a parameter out of
        range; an ``nstart`` of the wrong length, negative, not finite or summing to 0;
        negative, NaN or infinite weights.
    ConvergenceError
        No convergence in ``max_iter`` steps.

    Examples
    --------
    >>> import warpgraph as wg
    >>> G = wg.Graph.from_edges([0, 1, 2], [1, 2, 3], directed=False)  # a path of 4
    >>> wg.eigenvector_centrality(G, device="cpu").round(2).tolist()
    [0.37, 0.6, 0.6, 0.37]
    """
    _check_graph(G, "eigenvector_centrality")
    tol = _check_tol(tol)
    max_iter = _check_iterations(max_iter)
    G, dev = place(G, device)
    n = G.num_vertices
    if n == 0:
        raise InvalidArgumentError(
            "eigenvector centrality is not defined for a graph without vertices"
        )
    xp = G._xp()
    if nstart is None:
        start = xp.full(n, 1.0 / n, dtype=np.float64)  # (NetworkX's 1 / n from all ones)
    else:
        start = _vector(nstart, n, "nstart", xp, non_negative=True)
        total = float(start.sum())
        if not 0 < total < math.inf:
            raise InvalidArgumentError(
                f"nstart sums to {total}; it needs a positive entry and a finite float64 sum"
            )
        start = start / total
    indptr, indices, w = in_arcs(G, weights, non_negative=True, what="eigenvector centrality")
    if dev == "gpu":
        from . import gpu

        x, steps = gpu.eigenvector_iteration(indptr, indices, w, start, max_iter, n * tol)
    else:
        from ...cpu.threads import threads_for
        from . import cpu

        with threads_for(n + G.num_arcs):
            x, steps = cpu.eigenvector_iteration(indptr, indices, w, start, max_iter, n * tol)
    if steps < 0:
        raise ConvergenceError(max_iter, "eigenvector centrality's power iteration")
    return (x, steps) if return_iterations else x


def katz_centrality(
    G: Graph,
    *,
    alpha: float = 0.1,
    beta: Any = 1.0,
    max_iter: int = 1000,
    tol: float = 1.0e-6,
    nstart: Any = None,
    normalized: bool = True,
    weights: Any = None,
    device: str = "auto",
    return_iterations: bool = False,
):
    """Katz centrality of every vertex, by NetworkX's iteration ``x' = alpha * A^T x + beta``.

    The centrality of ``v`` is ``beta[v]`` plus ``alpha`` times the (weighted) sum of its
    in-neighbours' centralities. The run stops when ``|x' - x|_1 < n * tol`` (NetworkX's rule);
    it converges when ``alpha`` is below the inverse of the adjacency matrix's spectral radius.

    Parameters
    ----------
    G : Graph
        Directed (in-arcs are summed) or undirected (each edge both ways; a loop once).
    alpha : float
        Attenuation factor (any finite number).
    beta : float or array_like
        Weight given to each vertex's own term: one number for all, or ``n`` finite numbers.
    max_iter : int
        Most steps; :class:`~warpgraph.errors.ConvergenceError` after that many.
    tol : float
        Stop when the L1 change of a step is below ``n * tol``.
    nstart : array_like, optional
        First iterate (``n`` finite numbers, used as given). Default: zeros.
    normalized : bool
        Scale the result to unit Euclidean norm (left as it is when that norm is 0).
    weights : None, bool or array_like
        As in :func:`eigenvector_centrality`, but any finite weights (negative too).
    device : {"auto", "cpu", "gpu"}
        Where to compute; the result lives there.
    return_iterations : bool
        Also return the number of steps taken.

    Returns
    -------
    centrality : float64 array of length ``G.num_vertices`` (NumPy or CuPy)
    iterations : int
        Only with ``return_iterations``.

    Raises
    ------
    InvalidArgumentError
        A parameter out of range or not finite; ``beta`` or ``nstart`` of the wrong length or
        not finite; NaN or infinite weights.
    ConvergenceError
        No convergence in ``max_iter`` steps.

    Examples
    --------
    >>> import warpgraph as wg
    >>> G = wg.Graph.from_edges([0, 1, 2], [1, 2, 3], directed=False)  # a path of 4
    >>> wg.katz_centrality(G, device="cpu").round(4).tolist()
    [0.4757, 0.5232, 0.5232, 0.4757]
    >>> wg.katz_centrality(G, normalized=False, device="cpu").round(4).tolist()
    [1.1236, 1.236, 1.236, 1.1236]
    """
    _check_graph(G, "katz_centrality")
    alpha = _check_finite(alpha, "alpha")
    tol = _check_tol(tol)
    max_iter = _check_iterations(max_iter)
    G, dev = place(G, device)
    n = G.num_vertices
    xp = G._xp()
    if _is_number(beta):
        beta = _check_finite(beta, "beta")
    else:
        beta = _vector(beta, n, "beta", xp, non_negative=False)
    if nstart is None:
        start = xp.zeros(n, dtype=np.float64)
    else:
        start = _vector(nstart, n, "nstart", xp, non_negative=False)
    if n == 0:
        empty = xp.zeros(0, dtype=np.float64)
        return (empty, 0) if return_iterations else empty
    indptr, indices, w = in_arcs(G, weights, what="Katz centrality")
    if dev == "gpu":
        from . import gpu

        x, steps = gpu.katz_iteration(indptr, indices, w, start, alpha, beta, max_iter, n * tol)
        if normalized and steps > 0:
            x *= 1.0 / gpu.norm_or_one(x)  # (NetworkX: s = 1 / hypot(x), 1 for a zero norm)
    else:
        from ...cpu.threads import threads_for
        from . import cpu

        with threads_for(n + G.num_arcs):  # (the norm too: its pass is as parallel)
            x, steps = cpu.katz_iteration(indptr, indices, w, start, alpha, beta, max_iter, n * tol)
            if normalized and steps > 0:
                x *= 1.0 / cpu.norm_or_one(x)
    if steps < 0:
        raise ConvergenceError(max_iter, "Katz centrality's iteration")
    return (x, steps) if return_iterations else x
