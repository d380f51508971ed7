"""GPU PageRank: one pull step per launch pair (``kernels/pagerank.cu``), steps queued in batches.

The in-arcs are split once by in-degree: vertices with at most :data:`HEAVY_DEGREE` in-arcs
are pulled by groups of ``g`` lanes, ``g`` the power of two nearest above the mean in-degree
(Helix's node-based mapping: a road graph gets 4 lanes a vertex, a random graph of degree 16
gets 16), and the few heavier ones (hubs of a skewed graph) by a block each, so no group waits
on a hub. Both kernels finish their vertices in the same pass: next rank, next contribution,
and block sums of the L1 change and the dangling rank, added once per block into a
row of a small buffer, one row per step of a batch. The host queues :data:`BATCH_STEPS` steps,
then reads the batch's changes back at once; a step whose previous change was already below
``n * tol`` returns without touching anything, so the run stops on exactly the step NetworkX's
rule names, with the ranks of that step. The dangling rank stays on the device.
"""

from __future__ import annotations

import numpy as np

from ...device import cupy
from ...errors import ConvergenceError
from ...gpu.launch import launch, sm_count
from ...gpu.loader import declare, get_kernel

__all__ = ["BATCH_STEPS", "HEAVY_DEGREE", "group_size", "power_iteration"]

SOURCE = "pagerank.cu"
_GROUPS = (1, 2, 4, 8, 16, 32)
_TYPES = {"int32": "int", "int64": "long long"}
_RANKS = {"float64": "double", "float32": "float"}  # (how ranks and contributions are stored)
declare(
    SOURCE,
    *(
        f"pagerank_pull_group<{t}, {g}, {w}, {r}>"
        for t in _TYPES.values()
        for g in _GROUPS
        for w in (0, 1)
        for r in _RANKS.values()
    ),
    *(
        f"pagerank_pull_heavy<{t}, {w}, {r}>"
        for t in _TYPES.values()
        for w in (0, 1)
        for r in _RANKS.values()
    ),
)

#: In-degree above which a vertex gets a block of its own (256 lanes): below it a warp's 32
#: lanes finish within a few rounds; above it one group would hold up its warp.
HEAVY_DEGREE = 1024

_BLOCK = 256

#: Power steps queued before the host reads their L1 changes: one wait for the device per batch
#: instead of per step; at most ``BATCH_STEPS - 1`` queued steps follow the last one, and they
#: return at once. 8 measured fastest of 1, 4, 8, 16 on four of five graphs (H200, session 44:
#: ``benchmarks/pagerank_batch.py``); replaying a batch as a CUDA graph was slower still, its
#: capture costing more per call than the launches it saves.
BATCH_STEPS = 8


def group_size(num_vertices: int, num_arcs: int) -> int:
    """Lanes per vertex for the group kernel: the mean in-degree rounded up to a power of two,
    between 1 and 32."""
    mean = num_arcs / max(num_vertices, 1)
    g = 1
    while g < mean and g < 32:
        g *= 2
    return g


def _steps_enqueuer(inputs, alpha: float, threshold: float, xs, contribs, sums):
    """A function queueing power steps ``first..last`` (1-based; buffers alternate by step
    parity: step ``s`` reads ``xs[(s - 1) % 2]`` and writes ``xs[s % 2]``) behind one reset of
    ``sums``: row 0 takes the last row (the previous batch's L1 change and dangling rank), the
    others are zeroed, and the batch's step ``j`` reads row ``j - 1`` and adds into row ``j``."""
    cp = cupy()
    indptr, indices = inputs.in_indptr, inputs.in_indices
    n = int(indptr.size - 1)
    weighted = int(inputs.in_weights is not None)
    weights = inputs.in_weights.astype(cp.float64, copy=False) if weighted else cp.zeros(1)
    ctype, rtype = _TYPES[indices.dtype.name], _RANKS[xs[0].dtype.name]
    heavy = cp.flatnonzero(cp.diff(indptr) > HEAVY_DEGREE).astype(indices.dtype)
    g = group_size(n, int(indices.size))
    pull = get_kernel(SOURCE, f"pagerank_pull_group<{ctype}, {g}, {weighted}, {rtype}>")
    pull_heavy = get_kernel(SOURCE, f"pagerank_pull_heavy<{ctype}, {weighted}, {rtype}>")
    heavy_blocks = min(int(heavy.size), 8 * sm_count())
    common = (inputs.inv_out, inputs.dangling, inputs.teleport, inputs.dangling_to)
    tail_scalars = (float(alpha), float(threshold))

    def enqueue(first: int, last: int) -> None:
        sums[0] = sums[-1]
        sums[1:].fill(0)
        for j, step in enumerate(range(first, last + 1), start=1):
            src, dst = (step - 1) % 2, step % 2
            head = (indptr, indices, weights, contribs[src], xs[src], *common)
            tail = (*tail_scalars, sums[j - 1], xs[dst], contribs[dst], sums[j])
            launch(pull, n * g, (*head, n, HEAVY_DEGREE, *tail), block=_BLOCK)
            if heavy_blocks:
                launch(
                    pull_heavy, 0, (*head, heavy, int(heavy.size), *tail), _BLOCK, grid=heavy_blocks
                )

    return enqueue


def power_iteration(
    inputs,
    alpha: float,
    max_iter: int,
    tol: float,
    *,
    batch: int = BATCH_STEPS,
):
    """Run PageRank's power iteration on the CuPy arrays of ``inputs``
    (:class:`~warpgraph.algorithms.pagerank.api.PageRankInputs`): (ranks, steps).

    ``batch`` steps are queued at a time and their L1
    changes read back together; the first below ``n * tol`` ends the run, and the steps queued
    after it do nothing (``kernels/pagerank.cu``), so the result and the step count are those of
    one read-back per step.

    Raises
    ------
    ConvergenceError
        When ``max_iter`` steps pass without the L1 change falling below ``n * tol``.
    """
    cp = cupy()
    n = int(inputs.in_indptr.size - 1)
    threshold = n * tol
    batch = max(1, int(batch))
    x = inputs.start.astype(inputs.dtype, copy=True)  # (ranks stored in the run's dtype)
    xs = (x, cp.empty_like(x))
    contribs = ((x * inputs.inv_out).astype(inputs.dtype), cp.empty_like(x))
    sums = cp.zeros((batch + 1, 2), dtype=cp.float64)  # [step in batch] -> (L1 change, dangling)
    sums[-1, 0] = cp.inf  # (read by the first step as the change before it: not converged)
    # (no mask: no wait for its size)
    sums[-1, 1] = cp.where(inputs.dangling, x.astype(cp.float64), 0.0).sum()
    enqueue = _steps_enqueuer(inputs, alpha, threshold, xs, contribs, sums)
    done = 0
    while done < max_iter:
        last = min(done + batch, max_iter)
        enqueue(done + 1, last)
        changes = sums[1 : last - done + 1].get()[:, 0]  # (the batch's only wait for the device)
        below = np.flatnonzero(changes < threshold)
        if below.size:
            step = done + int(below[0]) + 1
            return xs[step % 2], step
        done = last
    raise ConvergenceError(max_iter, "PageRank's power iteration")
