"""GPU PageRank: one pull step per launch pair (``kernels/pagerank.cu``), one small read-back.

The in-arcs are split once by in-degree: vertices with at most :data:`HEAVY_DEGREE` in-arcs
are pulled by groups of ``g`` lanes, ``g`` the power of two nearest above the mean in-degree
(Helix's node-based mapping: a road graph gets 4 lanes a vertex, a random graph of degree 16
gets 16), and the few heavier ones (hubs of a skewed graph) by a block each, so no group waits
on a hub. Both kernels finish their vertices in the same pass: next rank, next contribution,
and block sums of the L1 change and the dangling rank, added once per block into a
two-double buffer. The host reads the change after each step (8 bytes), so the run stops on
exactly the step NetworkX's rule names; the dangling rank stays on the device for the next
step.
"""

from __future__ import annotations

from ...device import cupy
from ...errors import ConvergenceError
from ...gpu.launch import launch, sm_count
from ...gpu.loader import declare, get_kernel

__all__ = ["HEAVY_DEGREE", "group_size", "power_iteration"]

SOURCE = "pagerank.cu"
_GROUPS = (1, 2, 4, 8, 16, 32)
_TYPES = {"int32": "int", "int64": "long long"}
declare(
    SOURCE,
    *(
        f"pagerank_pull_group<{t}, {g}, {w}>"
        for t in _TYPES.values()
        for g in _GROUPS
        for w in (0, 1)
    ),
    *(f"pagerank_pull_heavy<{t}, {w}>" for t in _TYPES.values() for w in (0, 1)),
)

#: In-degree above which a vertex gets a block of its own (256 lanes): below it a warp's 32
#: lanes finish within a few rounds; above it one group would hold up its warp.
HEAVY_DEGREE = 1024

_BLOCK = 256


def group_size(num_vertices: int, num_arcs: int) -> int:
    """Lanes per vertex for the group kernel: the mean in-degree rounded up to a power of two,
    between 1 and 32."""
    mean = num_arcs / max(num_vertices, 1)
    g = 1
    while g < mean and g < 32:
        g *= 2
    return g


def power_iteration(inputs, alpha: float, max_iter: int, tol: float):
    """Run PageRank's power iteration on the CuPy arrays of ``inputs``
    (:class:`~warpgraph.algorithms.pagerank.api.PageRankInputs`): (ranks, steps).

    Raises
    ------
    ConvergenceError
        When ``max_iter`` steps pass without the L1 change falling below ``n * tol``.
    """
    cp = cupy()
    indptr, indices = inputs.in_indptr, inputs.in_indices
    n = int(indptr.size - 1)
    weighted = int(inputs.in_weights is not None)
    weights = inputs.in_weights.astype(cp.float64, copy=False) if weighted else cp.zeros(1)
    ctype = _TYPES[indices.dtype.name]
    heavy = cp.flatnonzero(cp.diff(indptr) > HEAVY_DEGREE).astype(indices.dtype)
    g = group_size(n, int(indices.size))
    pull = get_kernel(SOURCE, f"pagerank_pull_group<{ctype}, {g}, {weighted}>")
    pull_heavy = get_kernel(SOURCE, f"pagerank_pull_heavy<{ctype}, {weighted}>")
    heavy_blocks = min(int(heavy.size), 8 * sm_count())

    x = inputs.start.astype(cp.float64, copy=True)
    x_next = cp.empty_like(x)
    contrib = x * inputs.inv_out
    contrib_next = cp.empty_like(x)
    sums = cp.zeros((2, 2), dtype=cp.float64)  # [step parity] -> (L1 change, dangling rank)
    sums[0, 1] = x[inputs.dangling].sum()
    threshold = n * tol
    common = (inputs.inv_out, inputs.dangling, inputs.teleport, inputs.dangling_to)
    for step in range(1, max_iter + 1):
        sums_in, sums_out = sums[(step - 1) % 2], sums[step % 2]
        sums_out.fill(0)
        head = (indptr, indices, weights, contrib, x, *common)
        tail = (float(alpha), sums_in, x_next, contrib_next, sums_out)
        launch(pull, n * g, (*head, n, HEAVY_DEGREE, *tail), block=_BLOCK)
        if heavy_blocks:
            launch(pull_heavy, 0, (*head, heavy, int(heavy.size), *tail), _BLOCK, grid=heavy_blocks)
        x, x_next = x_next, x
        contrib, contrib_next = contrib_next, contrib
        if float(sums_out[0].get()) < threshold:  # (the step's only wait for the device)
            return x, step
    raise ConvergenceError(max_iter, "PageRank's power iteration")
