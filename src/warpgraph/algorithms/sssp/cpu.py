"""Single-source shortest paths on the CPU with Numba: delta-stepping, near-far, frontier
Bellman-Ford (H-BF) and Dijkstra.

Methods, each in its own module (this one is the entry point, :func:`sssp_cpu`):

* **delta-stepping** (Meyer and Sanders, 2003) and **near-far** (Davidson et al., 2014): one
  bucket engine, :mod:`._cpu_buckets` (near-far is its one-bucket window);
* **frontier Bellman-Ford** (H-BF, Busato and Bombieri, 2016), negative weights and cycle
  detection: :mod:`._cpu_hbf`;
* **Dijkstra**, an indexed binary heap, one source per thread: :mod:`._cpu_dijkstra`;
* the shortest-path tree of final distances, for every method: :mod:`._cpu_predecessors`.

Delta-stepping, near-far and H-BF share one edge-balanced relax step, atomic where threads meet
(:mod:`._cpu_relax`). **Frontier filtering** (``filtering=True``): a vertex is expanded only if
its distance changed since it was last expanded (``settled[u] != dist[u]``), which removes both
duplicate frontier entries and stale bucket entries (seed 003's duplicate and settled filters).

Distances: int64 for integer weights (unreachable = ``np.iinfo(np.int64).max``), the weights'
float dtype for float weights (unreachable = ``inf``). Python loops run per bucket or round,
never per vertex or arc; the hot loops call no function with array arguments (a Numba call
updates the arrays' reference counts: about 100 ns a push, measured).

Examples
--------
>>> import numpy as np
>>> indptr = np.array([0, 2, 3, 3]); indices = np.array([1, 2, 2], dtype=np.int32)
>>> w = np.array([4, 1, 2], dtype=np.int32)
>>> sssp_cpu(indptr, indices, w, 0, method="delta", delta=2).tolist()
[0, 4, 1]
>>> sssp_cpu(indptr, indices, w, 0, method="hbf").tolist()
[0, 4, 1]
"""

from __future__ import annotations

import numba as nb
import numpy as np

from ...errors import NegativeCycleError
from ._cpu_buckets import _WINDOW, _delta_run
from ._cpu_dijkstra import dijkstra_cpu
from ._cpu_hbf import _bf_run
from ._cpu_predecessors import predecessors_cpu
from ._cpu_relax import _FUSE, _VCHUNKS_PER_THREAD, _infinity, _max_degree

__all__ = ["dijkstra_cpu", "predecessors_cpu", "sssp_cpu", "weight_stats"]

_INT32_SAFE = 2**30  # max weight x n below this: delta-stepping keeps int32 distances


# ---------------------------------------------------------------------------- weight scan
def weight_stats(w: np.ndarray) -> tuple[float, float, float, int]:
    """``(min, max, mean, non_finite_count)`` of a weight array (NumPy reductions).

    Examples
    --------
    >>> weight_stats(np.array([3, -1, 4], dtype=np.int32))
    (-1.0, 4.0, 2.0, 0)
    """
    if w.shape[0] == 0:
        return 0.0, 0.0, 0.0, 0
    lo, hi = float(w.min()), float(w.max())
    if not (np.isfinite(lo) and np.isfinite(hi)):
        return lo, hi, float("nan"), int(w.shape[0] - np.count_nonzero(np.isfinite(w)))
    return lo, hi, float(w.mean(dtype=np.float64)), 0


@nb.njit(parallel=True, cache=True, nogil=True)
def _widen(d32, out):
    """int32 distances into int64 ``out``, the int32 sentinel becoming the int64 one."""
    big = np.iinfo(np.int32).max
    for i in nb.prange(d32.shape[0]):
        x = d32[i]
        out[i] = np.iinfo(np.int64).max if x == big else x


@nb.njit(parallel=True, cache=True, nogil=True)
def _reset_pair(a, b, value):
    """``a[:] = b[:] = value`` in one parallel pass (reused work arrays)."""
    for i in nb.prange(a.shape[0]):
        a[i] = value
        b[i] = value


def _work_arrays(work: dict | None, key: str, count: int, n: int, dtype, value) -> tuple:
    """``count`` (1 or 2) arrays of ``n`` items of ``dtype`` set to ``value``: taken out of
    ``work`` (the caller's per-graph cache) when it holds them, so no other call uses them
    meanwhile (a concurrent call on the same graph allocates its own), else new."""
    arrs = work.pop(key, None) if work is not None else None
    if arrs is None or arrs[0].shape[0] != n or arrs[0].dtype != dtype:
        arrs = tuple(np.empty(n, dtype=dtype) for _ in range(count))
    _reset_pair(arrs[0], arrs[-1], dtype.type(value))
    return arrs


# ---------------------------------------------------------------------------- driver
def _bits_view(dist: np.ndarray) -> np.ndarray:
    if dist.dtype.kind == "f":
        return dist.view(np.int32 if dist.dtype.itemsize == 4 else np.int64)
    return dist


def sssp_cpu(
    indptr: np.ndarray,
    indices: np.ndarray,
    weights: np.ndarray,
    source: int,
    *,
    method: str = "delta",
    delta: float | None = None,
    filtering: bool = True,
    negative: bool | None = None,
    max_abs: float | None = None,
    dist: np.ndarray | None = None,
    stats: dict | None = None,
    work: dict | None = None,
) -> np.ndarray:
    """Distances from one ``source`` with ``method`` ``"delta"``, ``"near_far"`` or ``"hbf"``.

    Trusts its input (``api.sssp`` checks it): non-negative weights for delta/near-far, float
    weights of the distance dtype. ``negative`` and ``max_abs`` describe the weights (computed
    here when not given). ``work``: a dict the caller keeps per graph (``api.sssp`` does), in
    which delta-stepping and near-far keep their working distances and the graph's largest
    out-degree between calls; the returned ``dist`` is never one of them.

    Raises
    ------
    NegativeCycleError
        ``method="hbf"`` and a negative cycle is reachable from ``source``.
    """
    n = indptr.shape[0] - 1
    dtype = np.dtype(np.int64) if weights.dtype.kind in "iu" else weights.dtype
    inf = _infinity(dtype)
    if dist is None:
        dist = np.full(n, inf, dtype=dtype)
    else:
        dist[:] = inf
    settled = np.full(n, inf, dtype=dtype) if method == "hbf" else None
    bits = _bits_view(dist)
    if method in ("delta", "near_far"):
        if delta is None:
            delta = default_delta_from(weights, indptr)
        d = np.int64(max(1, int(delta))) if dtype.kind in "iu" else dtype.type(delta)
        window = 1 if method == "near_far" else _WINDOW
        if max_abs is None and weights.dtype == np.int32:
            max_abs = weight_stats(weights)[1]
        narrow = weights.dtype == np.int32 and max_abs * max(n, 1) < _INT32_SAFE
        if narrow:
            # Every label is the length of a simple path (non-negative weights), so int32
            # distances cannot overflow; half the memory traffic of int64 (GAPBS's choice).
            key, arrs = "int32", _work_arrays(work, "int32", 2, n, np.dtype(np.int32), 2**31 - 1)
            run_dist, run_settled = arrs
            run_bits = run_dist
        else:
            key, arrs = "settled", _work_arrays(work, "settled", 1, n, dtype, inf)
            run_dist, run_settled, run_bits = dist, arrs[0], bits
        dmax = work.get("dmax", -1) if work is not None else -1
        if dmax < 0:
            dmax = int(_max_degree(indptr)) if n > 0 else 0
            if work is not None:
                work["dmax"] = dmax
        vchunks = _VCHUNKS_PER_THREAD * nb.get_num_threads()  # (an argument: see _relax_vstep)
        steps, arcs, pushes, par_steps = _delta_run(indptr, indices, weights, run_dist,
                                                    run_bits, run_settled, source, d, window,
                                                    filtering, True, _FUSE, dmax,
                                                    vchunks)  # fmt: skip
        if narrow:
            _widen(run_dist, dist)
        if work is not None:
            work[key] = arrs  # back for the next call on this graph (``dist`` is not in it)
        if stats is not None:
            stats.update(steps=int(steps), arcs=int(arcs), pushes=int(pushes),
                         parallel_steps=int(par_steps), int32=narrow)  # fmt: skip
        return dist
    if method != "hbf":
        raise ValueError(f"unknown CPU method {method!r}")
    if negative is None or max_abs is None:
        lo, hi, _, _ = weight_stats(weights)
        negative, max_abs = lo < 0, max(abs(lo), abs(hi))
    pred = np.full(n, -1, dtype=np.int64) if negative else np.empty(0, dtype=np.int64)
    mark = np.empty(n if negative else 0, dtype=np.int64)
    args = (indptr, indices, weights, dist, bits, settled, pred, mark, source, filtering,
            bool(negative), float(max_abs))  # fmt: skip
    status, vertex, cycle, rounds, work = _bf_run(*args, True, n + 1)
    if status == 2:
        # A negative cycle is certain: start again on one thread, where the predecessor
        # graph stays consistent and shows the cycle (every cycle in it is negative).
        dist[:] = inf
        settled[:] = inf
        pred[:] = -1
        status, vertex, cycle, rounds, work = _bf_run(*args, False, 4 * n + 64)
    if status == 1:
        raise NegativeCycleError(int(vertex), [int(x) for x in cycle])
    if status in (2, 3):
        raise NegativeCycleError(int(vertex), None)
    if stats is not None:
        stats.update(steps=int(rounds), arcs=int(work))
    return dist


def default_delta_from(weights: np.ndarray, indptr: np.ndarray) -> float:
    """The automatic bucket width (see :func:`warpgraph.algorithms.sssp.config.choose_delta`)."""
    from .config import choose_delta

    n = indptr.shape[0] - 1
    _, hi, mean, _ = weight_stats(weights)
    return choose_delta(mean, hi, weights.shape[0] / max(n, 1), weights.dtype.kind in "iu")
