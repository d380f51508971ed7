"""GPU eigenvector and Katz centrality: one pull kernel per step, the rest in CuPy.

The kernel (:data:`SOURCE`, compiled by CuPy's ``RawModule``: no ``.cu`` file) sums
``w(u, v) * x[u]`` over the in-arcs of every vertex ``v``: ``GROUP`` lanes per vertex (the mean
in-degree rounded up to a power of two, 1..32, as PageRank's group kernel), each lane a strided
share of the arcs, then a shuffle reduction within the group; no atomics. The step's other work
is a few CuPy element-wise operations and reductions: ``y = x + s`` and its norm for
eigenvector centrality, ``alpha * s + beta`` for Katz, and the L1 change, read back once per
step (the one wait for the device) to test NetworkX's stopping rule.

The norm (:func:`_norm`) is scaled by the largest magnitude, so it neither overflows nor
underflows; ``inf`` for an infinite entry, NaN for a NaN, as ``math.hypot``.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ...device import cupy
from ...gpu.launch import grid_for

__all__ = ["SOURCE", "eigenvector_iteration", "group_size", "katz_iteration", "norm_or_one"]

SOURCE = r"""
// s[v] = sum over the in-arcs a of v (indptr[v]..indptr[v+1]) of w[a] * x[indices[a]]
// (w = 1 when WEIGHTED is 0; the weights pointer is then not read). GROUP lanes per vertex,
// grid-stride over the vertices; every lane of a warp runs the same number of rounds (n rounded
// up to whole warps), so the shuffles always see their full group.
template <typename V, int GROUP, int WEIGHTED>
__global__ void wg_centrality_in_sums(const long long* __restrict__ indptr,
                                      const V* __restrict__ indices,
                                      const double* __restrict__ weights,
                                      const double* __restrict__ x, long long n,
                                      double* __restrict__ s) {
    static_assert(GROUP >= 1 && GROUP <= 32 && (GROUP & (GROUP - 1)) == 0, "GROUP: 1..32, 2^k");
    const int lane = (int)(threadIdx.x % GROUP);
    const long long threads = (long long)gridDim.x * blockDim.x;
    const long long groups = threads / GROUP;
    const long long first = ((long long)blockIdx.x * blockDim.x + threadIdx.x) / GROUP;
    const long long per_warp = 32 / GROUP;
    const long long rounded = (n + per_warp - 1) / per_warp * per_warp;
    for (long long v = first; v < rounded; v += groups) {
        double acc = 0.0;
        if (v < n) {
            const long long end = indptr[v + 1];
            for (long long a = indptr[v] + lane; a < end; a += GROUP) {
                const double xu = x[indices[a]];
                acc += WEIGHTED ? weights[a] * xu : xu;
            }
        }
        for (int offset = GROUP / 2; offset > 0; offset /= 2) {
            acc += __shfl_down_sync(0xffffffffu, acc, offset, GROUP);
        }
        if (v < n && lane == 0) s[v] = acc;
    }
}
"""

_TYPES = {"int32": "int", "int64": "long long"}
_BLOCK = 256  # (a multiple of 32: whole warps, so whole groups)
_kernels: dict[tuple[int, str], Any] = {}


def group_size(num_vertices: int, num_arcs: int) -> int:
    """Lanes per vertex: the mean in-degree rounded up to a power of two, between 1 and 32.

    Examples
    --------
    >>> group_size(100, 50), group_size(100, 1500), group_size(10, 10_000)
    (1, 16, 32)
    """
    mean = num_arcs / max(num_vertices, 1)
    g = 1
    while g < mean and g < 32:
        g *= 2
    return g


def _kernel(name: str):
    """The compiled kernel instance ``name`` on the current device (compiled once each)."""
    cp = cupy()
    key = (cp.cuda.Device().id, name)
    if key not in _kernels:
        mod = cp.RawModule(code=SOURCE, options=("-std=c++17",), name_expressions=[name])
        _kernels[key] = mod.get_function(name)
    return _kernels[key]


class _InSums:
    """``pull(x, s)``: ``s[v] = sum(w(u, v) * x[u])`` over the in-arcs, on the device."""

    def __init__(self, indptr, indices, weights) -> None:
        cp = cupy()
        self.indptr = cp.asarray(indptr).astype(cp.int64, copy=False)
        ids = cp.asarray(indices)
        if ids.dtype.name not in _TYPES:
            ids = ids.astype(cp.int64)
        self.indices = ids
        self.n = int(self.indptr.size - 1)
        weighted = weights is not None
        self.weights = (
            cp.asarray(weights).astype(cp.float64, copy=False) if weighted else cp.zeros(1)
        )
        g = group_size(self.n, int(ids.size))
        self.kernel = _kernel(
            f"wg_centrality_in_sums<{_TYPES[ids.dtype.name]}, {g}, {int(weighted)}>"
        )
        self.grid = grid_for(self.n * g, _BLOCK)

    def __call__(self, x, s) -> None:
        if self.grid:
            args = (self.indptr, self.indices, self.weights, x, np.int64(self.n), s)
            self.kernel((self.grid,), (_BLOCK,), args)


def _norm(y):
    """``|y|_2`` as ``math.hypot(*y)`` gives it (to rounding), as a 0-d device array (no wait):
    the largest magnitude times the norm of ``y`` divided by it, which neither overflows nor
    underflows; 0 for all zeros, ``inf`` for an infinite entry, NaN for a NaN."""
    cp = cupy()
    magnitude = cp.abs(y)
    largest = magnitude.max()  # (NaN where y has one)
    finite = cp.isfinite(largest) & (largest > 0)
    scale = cp.where(finite, largest, 1.0)
    norm = cp.where(finite, scale * cp.sqrt(cp.square(y / scale).sum()), largest)
    return cp.where(cp.isinf(magnitude).any(), cp.inf, norm)  # (inf even beside a NaN)


def norm_or_one(x):
    """``|x|_2`` (NetworkX's ``math.hypot(*x)``), or 1.0 where it is 0: a 0-d device array."""
    cp = cupy()
    norm = _norm(x)
    return cp.where(norm == 0, 1.0, norm)


def eigenvector_iteration(indptr, indices, weights, start, max_iter: int, threshold: float):
    """Eigenvector centrality's power iteration on device arrays: ``(vector, steps)``, steps -1
    without convergence in ``max_iter`` steps (see :mod:`.cpu`)."""
    cp = cupy()
    pull = _InSums(indptr, indices, weights)
    x = cp.array(start, dtype=cp.float64)  # (a copy: the loop overwrites its buffers)
    y = cp.empty_like(x)
    for step in range(1, int(max_iter) + 1):
        pull(x, y)
        y += x  # (x[v] + s[v]: the same sum as x[v] + s[v] on the CPU)
        y /= norm_or_one(y)  # (NetworkX: `math.hypot(...) or 1`)
        change = float(cp.abs(y - x).sum())  # (the step's one wait for the device)
        x, y = y, x
        if change < threshold:
            return x, step
    return x, -1


def katz_iteration(indptr, indices, weights, start, alpha: float, beta, max_iter: int,
                   threshold: float):  # fmt: skip
    """Katz centrality's iteration on device arrays: ``(vector, steps)`` as
    :func:`eigenvector_iteration`; ``beta`` one float or a float64 device array."""
    cp = cupy()
    pull = _InSums(indptr, indices, weights)
    x = cp.array(start, dtype=cp.float64)
    y = cp.empty_like(x)
    alpha = float(alpha)
    for step in range(1, int(max_iter) + 1):
        pull(x, y)
        y *= alpha
        y += beta
        change = float(cp.abs(y - x).sum())
        x, y = y, x
        if change < threshold:
            return x, step
    return x, -1
