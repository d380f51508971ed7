"""PageRank: the stationary distribution of a random surfer, by power iteration.

Each step follows NetworkX's ``pagerank`` (its SciPy form) term for term::

    x' = alpha * (x @ P + sum(x[dangling]) * d) + (1 - alpha) * p

where ``P`` is the adjacency matrix with each row divided by its sum (the out-weight of the
vertex), ``dangling`` are the vertices whose row sums to zero, ``p`` the personalization and
``d`` the dangling distribution (``p`` unless given). The iteration stops when the L1 change
``|x' - x|_1`` falls below ``n * tol`` and returns ``x'``; after ``max_iter`` steps without that,
:class:`~warpgraph.errors.ConvergenceError`. An undirected graph counts each edge both ways; a
self-loop once; parallel arcs add their weights.

Both devices compute ``x @ P`` as a pull over the in-arcs (``G.reverse_csr()``): each vertex sums
``w(u, v) * x[u] / s[u]`` over its in-neighbours ``u``, with no atomics, and the same pass
computes the change and the dangling mass for the next step.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ...errors import InvalidArgumentError
from ...graph import Graph
from ..triangles.api import place

__all__ = ["RANK_DTYPES", "PageRankInputs", "pagerank", "prepare", "rank_dtype"]


def _check_number(value: Any, name: str, low: float, high: float = np.inf) -> float:
    if isinstance(value, bool) or not isinstance(value, int | float | np.integer | np.floating):
        raise InvalidArgumentError(f"{name} must be a number, got {type(value).__name__}")
    v = float(value)
    if not (low <= v <= high):
        raise InvalidArgumentError(f"{name} must lie in [{low}, {high}], got {value!r}")
    return v


def _check_iterations(max_iter: Any) -> int:
    if isinstance(max_iter, bool) or not isinstance(max_iter, int | np.integer) or max_iter < 0:
        raise InvalidArgumentError(f"max_iter must be a non-negative integer, got {max_iter!r}")
    return int(max_iter)


def _distribution(values: Any, n: int, name: str, xp) -> Any:
    """``values`` (length ``n``, finite, non-negative, positive sum) divided by its sum, on the
    array module ``xp``; uniform when None."""
    if values is None:
        return xp.full(n, 1.0 / n, dtype=np.float64)
    try:
        a = xp.asarray(values, dtype=np.float64)
    except (TypeError, ValueError) as exc:
        raise InvalidArgumentError(f"{name} must be an array of {n} numbers: {exc}") from None
    if a.shape != (n,):
        raise InvalidArgumentError(f"{name} has shape {a.shape}, expected ({n},)")
    if not bool(xp.isfinite(a).all()) or bool((a < 0).any()):
        raise InvalidArgumentError(f"{name} must hold finite, non-negative numbers")
    with np.errstate(over="ignore"):
        total = float(a.sum())
    if not 0 < total < np.inf:
        raise InvalidArgumentError(
            f"{name} sums to {total}; it needs a positive entry and a finite float64 sum"
        )
    return a / total


class PageRankInputs:
    """What one PageRank run needs on its device, derived once from the graph and the options.

    Attributes
    ----------
    in_indptr, in_indices, in_weights
        The in-arcs (``G.reverse_csr()``); ``in_weights`` is None for unit weights.
    inv_out : array
        ``1 / s[u]`` for the out-weight ``s[u]`` of each vertex, 0 where ``s[u] == 0``.
    dangling : array of bool
        ``s[u] == 0``: the vertex's rank is spread by ``dangling_to``.
    out_indptr : array or None
        With unit weights (``in_weights`` None), ``G.indptr``: ``s[u]`` is its row length, so
        the CPU step computes ``1 / s[u]`` from it (the same value) instead of reading
        ``inv_out`` and ``dangling``; None otherwise.
    start, teleport, dangling_to : arrays
        The first iterate, the personalization ``p`` and the dangling distribution ``d``.
    uniform_teleport : bool
        No personalization was given: ``teleport`` is ``1 / n`` everywhere, so a kernel may read
        that one value instead of the array.
    uniform_dangling : bool
        Neither a personalization nor a dangling distribution was given: the same for
        ``dangling_to``.
    dtype : numpy.dtype
        float64 or float32: how the ranks and the contributions are stored (every sum is
        accumulated in float64 either way).
    """

    def __init__(
        self,
        G: Graph,
        weighted: bool,
        personalization,
        nstart,
        dangling,
        dtype: Any = np.float64,
    ) -> None:
        self.dtype = rank_dtype(dtype)
        xp = G._xp()
        n = G.num_vertices
        w = G.weights if weighted else None
        if w is not None and w.size:
            low, high = float(w.min()), float(w.max())
            if not (low >= 0 and high < np.inf):  # (False for NaN too)
                what = "a NaN" if np.isnan(low) else "a negative" if low < 0 else "an infinite"
                raise InvalidArgumentError(
                    f"PageRank needs finite, non-negative weights; the graph has {what} "
                    f"weight ({low if low != low or low < 0 else high})"
                )
        indptr, indices, rweights = G.reverse_csr()
        self.in_indptr = indptr
        self.in_indices = indices
        self.in_weights = rweights if w is not None else None
        self.out_indptr = G.indptr if w is None else None
        if w is None and G.device == "cpu":
            # (one pass over the out-degrees, two arrays written: 1 / float64(degree) as below)
            from .cpu import inverse_out_degrees

            self.inv_out, self.dangling = inverse_out_degrees(G.indptr)
        else:
            out = _out_weights(G, w, xp)
            self.dangling = out == 0
            with np.errstate(over="ignore", divide="ignore"):
                inv = 1.0 / xp.where(self.dangling, 1.0, out)
                self.inv_out = xp.where(self.dangling, 0.0, inv)
        # (an out-weight that overflows float64, or one so small its inverse does, would drop
        # or blow up that vertex's rank without a word)
        if w is not None and not bool(xp.isfinite(out).all() & xp.isfinite(self.inv_out).all()):
            raise InvalidArgumentError(
                "PageRank needs each vertex's out-weight and its inverse finite in float64; "
                "rescale the weights"
            )
        self.teleport = _distribution(personalization, n, "personalization", xp)
        # (the uniform start is the uniform teleport: one array, read only, for both)
        self.start = (
            self.teleport
            if nstart is None and personalization is None
            else _distribution(nstart, n, "nstart", xp)
        )
        self.dangling_to = (
            self.teleport if dangling is None else _distribution(dangling, n, "dangling", xp)
        )
        self.uniform_teleport = personalization is None
        self.uniform_dangling = dangling is None and personalization is None


RANK_DTYPES = (np.dtype(np.float64), np.dtype(np.float32))


def rank_dtype(dtype: Any) -> np.dtype:
    """``dtype`` as float64 or float32 (a NumPy dtype, type or name), else
    :class:`~warpgraph.errors.InvalidArgumentError`."""
    try:
        d = np.dtype(dtype)
    except TypeError:
        d = None
    if d is None or not any(d == ok for ok in RANK_DTYPES):  # (dtype == None is True)
        raise InvalidArgumentError(f"dtype must be float64 or float32, got {dtype!r}")
    return d


def _out_weights(G: Graph, w, xp) -> Any:
    """Sum of the weights (or count) of each vertex's out-arcs, float64."""
    n = G.num_vertices
    if w is None:
        return xp.diff(G.indptr).astype(np.float64)
    if G.device == "cpu":
        from .cpu import row_sums

        return row_sums(G.indptr, w.astype(np.float64, copy=False))
    # (a histogram of each arc's weight by its tail: per-row accuracy, unlike differences of
    # one prefix sum over every arc)
    return xp.bincount(G._arc_sources(), weights=w.astype(np.float64), minlength=n)


def prepare(
    G: Graph,
    *,
    personalization=None,
    nstart=None,
    dangling=None,
    weighted: bool = True,
    dtype: Any = np.float64,
) -> PageRankInputs:
    """The device arrays of a run on ``G`` (where ``G`` lives), checked; see :func:`pagerank`."""
    return PageRankInputs(G, bool(weighted), personalization, nstart, dangling, dtype)


def pagerank(
    G: Graph,
    alpha: float = 0.85,
    *,
    personalization=None,
    max_iter: int = 100,
    tol: float = 1e-6,
    nstart=None,
    dangling=None,
    weighted: bool = True,
    device: str = "auto",
    dtype: Any = np.float64,
    return_iterations: bool = False,
):
    """PageRank of every vertex, by power iteration (NetworkX's definition and stopping rule).

    Parameters
    ----------
    G : Graph
        Directed or undirected (each edge both ways). Parallel arcs add; a loop counts once.
    alpha : float
        Damping factor in [0, 1]: the probability of following an arc.
    personalization : array_like, optional
        Teleport weights per vertex (non-negative, positive sum; divided by the sum).
        Default uniform.
    max_iter : int
        Most power steps; :class:`~warpgraph.errors.ConvergenceError` after that many.
    tol : float
        Stop when the L1 change of a step is below ``n * tol``.
    nstart : array_like, optional
        First iterate (divided by its sum). Default uniform.
    dangling : array_like, optional
        Where the rank of vertices without out-weight goes. Default ``personalization``.
    weighted : bool
        Use ``G.weights`` (non-negative) as arc weights; False, or no weights, counts arcs.
    device : {"auto", "cpu", "gpu"}
        Where to compute; the result lives there.
    dtype : {float64, float32}
        How the ranks and the contributions gathered along the arcs are stored; sums are
        accumulated in float64 either way. float32 halves the bytes a step gathers (GAPBS and
        cuGraph rank in float32) at float32's precision: ranks within ~1e-5 relative of the
        float64 run's. Below an L1 change of about 1e-7 a step's change is float32 rounding: a
        ``tol`` under about ``1e-7 / n`` buys no accuracy, and the run then stops on an exact
        float32 fixed point or raises :class:`~warpgraph.errors.ConvergenceError`.
    return_iterations : bool
        Also return the number of steps taken.

    Returns
    -------
    ranks : array of length ``G.num_vertices`` (NumPy or CuPy) in ``dtype``, summing to 1
    iterations : int
        Only with ``return_iterations``.

    Raises
    ------
    InvalidArgumentError
        A parameter out of range, a vector of the wrong length or with a non-finite sum;
        negative, NaN or infinite weights, or out-weights that overflow float64.
    ConvergenceError
        No convergence in ``max_iter`` steps.

    Examples
    --------
    >>> import warpgraph as wg
    >>> from warpgraph.algorithms.pagerank import pagerank
    >>> G = wg.Graph.from_edges([0, 1, 2], [1, 2, 0], directed=True)  # a 3-cycle
    >>> pagerank(G, device="cpu").round(6).tolist()
    [0.333333, 0.333333, 0.333333]
    >>> G = wg.Graph.from_edges([0, 1], [2, 2], num_vertices=3, directed=True)
    >>> ranks, steps = pagerank(G, device="cpu", return_iterations=True)
    >>> ranks.round(4).tolist(), steps
    ([0.2128, 0.2128, 0.5745], 23)
    """
    if not isinstance(G, Graph):
        raise InvalidArgumentError(f"pagerank needs a warpgraph.Graph, got {type(G).__name__}")
    alpha = _check_number(alpha, "alpha", 0.0, 1.0)
    tol = _check_number(tol, "tol", 0.0)
    max_iter = _check_iterations(max_iter)
    dtype = rank_dtype(dtype)
    G, dev = place(G, device)
    n = G.num_vertices
    if n == 0:
        empty = G._xp().zeros(0, dtype=dtype)
        return (empty, 0) if return_iterations else empty
    inputs = prepare(
        G,
        personalization=personalization,
        nstart=nstart,
        dangling=dangling,
        weighted=weighted,
        dtype=dtype,
    )
    if dev == "gpu":
        from . import gpu

        ranks, steps = gpu.power_iteration(inputs, alpha, max_iter, tol)
    else:
        from ...cpu.threads import threads_for
        from . import cpu

        with threads_for(n + G.num_arcs):
            ranks, steps = cpu.power_iteration(inputs, alpha, max_iter, tol)
    return (ranks, steps) if return_iterations else ranks
