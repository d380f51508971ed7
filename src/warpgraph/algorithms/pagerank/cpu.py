"""CPU PageRank: the whole power iteration in one compiled function, one parallel pull per step.

Each step reads ``contrib[u] = x[u] / s[u]`` (the rank a vertex sends along each unit of its
out-weight) and, per vertex ``v`` in parallel, sums it over the in-arcs; the same loop writes
the next ``x``, the next ``contrib``, and adds up the step's L1 change and the rank left on
dangling vertices (Numba reductions), so a step is one pass over the arcs and one fork-join.

The teleport and dangling distributions are arrays, or, when uniform (the default), the one
value ``1 / n`` as a float: Numba compiles a version of the step for each (:func:`_at`), and
the uniform one reads two arrays fewer per vertex with the same arithmetic, so the same ranks.

Ranks and contributions are stored in the run's dtype (float64, or float32: half the bytes
gathered per arc); every sum is accumulated in float64 either way.

The gather asks for the ``contrib`` entries :data:`PREFETCH_ARCS` arcs ahead (a prefetch hint,
:func:`_prefetch`), across the ends of the vertices' arc lists: most of those entries miss the
core's L2, and the processor alone keeps fewer such misses in flight (each list ends on a
mispredicted branch).
"""

from __future__ import annotations

import numba as nb
import numpy as np
from llvmlite import ir
from numba import types
from numba.core import cgutils
from numba.extending import intrinsic, overload

from ...cpu.csr import unsigned_ids
from ...errors import ConvergenceError

__all__ = ["PREFETCH_ARCS", "inverse_out_degrees", "power_iteration", "row_sums"]

PREFETCH_ARCS = 32
"""How many in-arcs ahead the gather prefetches ``contrib``: 24-32 measured best on kron:18 and
urand:18 (2 cores; 16 and 48 less good), for 3-15% of a step."""


@nb.njit(parallel=True, cache=True, nogil=True)
def row_sums(indptr, values):  # pragma: no cover - compiled
    """Sum of ``values`` over each CSR row (float64)."""
    n = indptr.size - 1
    out = np.zeros(n, dtype=np.float64)
    for u in nb.prange(n):
        acc = 0.0
        for a in range(indptr[u], indptr[u + 1]):
            acc += values[a]
        out[u] = acc
    return out


@nb.njit(parallel=True, cache=True, nogil=True)
def inverse_out_degrees(indptr):  # pragma: no cover - compiled
    """``(1 / s, s == 0)`` for the row lengths ``s`` of a CSR (``1 / s`` 0 where ``s == 0``):
    PageRank's set-up with unit weights in one pass (``1.0 / float64(s)``, the bits of NumPy's
    ``1.0 / s.astype(float64)``)."""
    n = indptr.size - 1
    inv = np.empty(n, dtype=np.float64)
    empty = np.empty(n, dtype=np.bool_)
    for u in nb.prange(n):
        d = indptr[u + 1] - indptr[u]
        empty[u] = d == 0
        inv[u] = 1.0 / np.float64(d) if d != 0 else 0.0
    return inv, empty


def _at(values, v):  # pragma: no cover - replaced in compiled code
    """``values[v]`` for an array, ``values`` itself for a float (a uniform distribution)."""
    return values if isinstance(values, float) else values[v]


@overload(_at, inline="always")
def _at_compiled(values, v):  # pragma: no cover - compiled
    if isinstance(values, types.Array):
        return lambda values, v: values[v]
    return lambda values, v: values


def _is_weighted(weights):  # pragma: no cover - replaced in compiled code
    """Whether ``weights`` is the arcs' weight array (not the float standing for unit weights)."""
    return not isinstance(weights, float)


@overload(_is_weighted, inline="always")
def _is_weighted_compiled(weights):  # pragma: no cover - compiled
    # (a constant per compiled version: the unweighted gather carries no test of a run-time flag)
    if isinstance(weights, types.Array):
        return lambda weights: True
    return lambda weights: False


def _inverse_out(out, v):  # pragma: no cover - replaced in compiled code
    """``1 / s[v]`` (0 where ``s[v] == 0``) from ``out``: the array of them, or the out-arc
    CSR's ``indptr`` when the weights are unit (``s[v]`` its row length)."""
    if out.dtype.kind == "f":
        return out[v]
    d = out[v + 1] - out[v]
    return 1.0 / d if d else 0.0


@overload(_inverse_out, inline="always")
def _inverse_out_compiled(out, v):  # pragma: no cover - compiled
    if isinstance(out.dtype, types.Float):
        return lambda out, v: out[v]

    def from_indptr(out, v):
        d = out[v + 1] - out[v]
        # (1.0 / float64(d), as the set-up's 1 / s: the same bits)
        return 1.0 / d if d != 0 else 0.0

    return from_indptr


def _is_dangling(out, dangling, v):  # pragma: no cover - replaced in compiled code
    """``s[v] == 0``: ``dangling[v]``, or an empty row of ``out`` when it is an ``indptr``."""
    return dangling[v] if out.dtype.kind == "f" else out[v + 1] == out[v]


@overload(_is_dangling, inline="always")
def _is_dangling_compiled(out, dangling, v):  # pragma: no cover - compiled
    if isinstance(out.dtype, types.Float):
        return lambda out, dangling, v: dangling[v]
    return lambda out, dangling, v: out[v + 1] == out[v]


@nb.njit(cache=True, nogil=True, inline="always")
def _arc(a):  # pragma: no cover - compiled
    """Arc position ``a`` (never negative) as an unsigned index: Numba then indexes without its
    check for (and wrap of) negative indices, which kept the gather loop from being tight
    (9% of a step on kron:18, 25% on urand:18, 2 cores)."""
    return np.uint64(a)


@intrinsic
def _prefetch(typingctx, array, index):  # pragma: no cover - compiled
    """Hint that ``array[index]`` will be read soon (LLVM's ``prefetch``: read, keep in all cache
    levels). A hint only: it changes no value."""

    def codegen(context, builder, signature, args):
        aryty, idxty = signature.args
        ary = context.make_array(aryty)(context, builder, args[0])
        i = context.cast(builder, args[1], idxty, types.intp)
        ptr = cgutils.get_item_pointer(context, builder, aryty, ary, [i], wraparound=False)
        byte_ptr, i32 = ir.IntType(8).as_pointer(), ir.IntType(32)
        fnty = ir.FunctionType(ir.VoidType(), [byte_ptr, i32, i32, i32])
        fn = builder.module.declare_intrinsic("llvm.prefetch", [byte_ptr], fnty)
        # (address, 0 = read, 3 = keep in every cache level, 1 = data cache)
        builder.call(fn, [builder.bitcast(ptr, byte_ptr), i32(0), i32(3), i32(1)])
        return context.get_dummy_value()

    return types.void(array, index), codegen


@nb.njit(cache=True, nogil=True, inline="always")
def _prefetch_ahead(contrib, indices, a):  # pragma: no cover - compiled
    """Prefetch the ``contrib`` entries of the four arcs :data:`PREFETCH_ARCS` after arc ``a``,
    when they exist (the arcs run on into the next vertices' lists)."""
    b = a + PREFETCH_ARCS
    if b + 4 <= indices.size:
        _prefetch(contrib, indices[_arc(b)])
        _prefetch(contrib, indices[_arc(b + 1)])
        _prefetch(contrib, indices[_arc(b + 2)])
        _prefetch(contrib, indices[_arc(b + 3)])


@nb.njit(cache=True, nogil=True, inline="always")
def _in_sum(start, end, indices, weights, contrib):  # pragma: no cover - compiled
    """``sum(w[a] * contrib[indices[a]])`` over the arcs ``start:end`` (``w`` = 1 when
    ``weights`` is a float, :func:`_is_weighted`), in four interleaved sums: four independent
    loads in flight instead of one chain of additions (~20% faster than one sum on urand:18,
    2 cores). (The remainder loops prefetch nothing: a hint per arc there measured slower.)"""
    s0 = s1 = s2 = s3 = 0.0
    a = start
    if _is_weighted(weights):  # (typed for a float too, through _at: the branch is dropped)
        while a + 4 <= end:
            _prefetch_ahead(contrib, indices, a)
            s0 += _at(weights, _arc(a)) * contrib[indices[_arc(a)]]
            s1 += _at(weights, _arc(a + 1)) * contrib[indices[_arc(a + 1)]]
            s2 += _at(weights, _arc(a + 2)) * contrib[indices[_arc(a + 2)]]
            s3 += _at(weights, _arc(a + 3)) * contrib[indices[_arc(a + 3)]]
            a += 4
        while a < end:
            s0 += _at(weights, _arc(a)) * contrib[indices[_arc(a)]]
            a += 1
    else:
        while a + 4 <= end:
            _prefetch_ahead(contrib, indices, a)
            s0 += contrib[indices[_arc(a)]]
            s1 += contrib[indices[_arc(a + 1)]]
            s2 += contrib[indices[_arc(a + 2)]]
            s3 += contrib[indices[_arc(a + 3)]]
            a += 4
        while a < end:
            s0 += contrib[indices[_arc(a)]]
            a += 1
    return (s0 + s1) + (s2 + s3)


@nb.njit(parallel=True, cache=True, nogil=True)
def _pull_step(
    indptr,
    indices,
    weights,
    contrib,
    x,
    out,
    dangling,
    teleport,
    dangling_to,
    alpha,
    dangling_mass,
    x_next,
    contrib_next,
):  # pragma: no cover - compiled
    """One power step into ``x_next`` / ``contrib_next``; returns (L1 change, next dangling
    mass). ``teleport`` and ``dangling_to`` are arrays or floats (:func:`_at`); ``out`` is
    ``inv_out`` or, with unit weights, the out-arc ``indptr`` (:func:`_inverse_out`)."""
    n = x.size
    change = 0.0
    mass = 0.0
    rest = 1.0 - alpha
    for v in nb.prange(n):
        acc = _in_sum(indptr[v], indptr[v + 1], indices, weights, contrib)
        y = alpha * (acc + dangling_mass * _at(dangling_to, v)) + rest * _at(teleport, v)
        x_next[v] = y
        y = x_next[v]  # (the rank as stored: float32 runs round here; float64 ones do not)
        contrib_next[v] = y * _inverse_out(out, v)
        change += abs(y - x[v])
        if _is_dangling(out, dangling, v):
            mass += y
    return change, mass


@nb.njit(cache=True, nogil=True)
def _iterate(
    indptr,
    indices,
    weights,
    x,
    inv_out,
    dangling,
    out,
    teleport,
    dangling_to,
    alpha,
    max_iter,
    threshold,
):  # pragma: no cover - compiled
    """Power steps from ``x`` until the change is below ``threshold``: (ranks, steps), steps
    -1 when ``max_iter`` passed without it. ``out``: what the steps read the out-weights from
    (``inv_out``, or the out-arc ``indptr`` with unit weights: :func:`_inverse_out`)."""
    n = x.size
    contrib = np.empty_like(x)  # (ranks and contributions in the ranks' dtype)
    mass = 0.0
    for v in range(n):
        contrib[v] = x[v] * inv_out[v]
        if dangling[v]:
            mass += x[v]
    x_next = np.empty_like(x)
    contrib_next = np.empty_like(x)
    for step in range(1, max_iter + 1):
        change, mass = _pull_step(
            indptr,
            indices,
            weights,
            contrib,
            x,
            out,
            dangling,
            teleport,
            dangling_to,
            alpha,
            mass,
            x_next,
            contrib_next,
        )
        x, x_next = x_next, x
        contrib, contrib_next = contrib_next, contrib
        if change < threshold:
            return x, step
    return x, -1


def _distribution(values: np.ndarray, uniform: bool):
    """The kernel's form of a distribution: its one value as a float when ``uniform`` (every
    entry the same ``1 / n``, so the same arithmetic), else the array."""
    return float(values[0]) if uniform else values


def power_iteration(inputs, alpha: float, max_iter: int, tol: float) -> tuple[np.ndarray, int]:
    """Run PageRank's power iteration on the CPU arrays of ``inputs``
    (:class:`~warpgraph.algorithms.pagerank.api.PageRankInputs`).

    Raises
    ------
    ConvergenceError
        When ``max_iter`` steps pass without the L1 change falling below ``n * tol``.
    """
    n = inputs.start.size
    indices = unsigned_ids(inputs.in_indices)  # (no negative-index check in the gather)
    weights = inputs.in_weights
    # (unit weights as the float 1.0: a compiled version of the gather without the weights'
    # test, 3% of a step on kron:18, 2 cores)
    weights = 1.0 if weights is None else np.ascontiguousarray(weights, dtype=np.float64)
    # (with unit weights a step divides by the out-degree, read from the out-arc indptr, instead
    # of reading 1 / s and the dangling mask: the same bits, two streams fewer per vertex, and
    # none on an undirected graph, whose indptr the gather reads already)
    out = inputs.inv_out if inputs.out_indptr is None else inputs.out_indptr
    ranks, steps = _iterate(
        inputs.in_indptr,
        indices,
        weights,
        np.array(inputs.start, dtype=inputs.dtype),  # (a copy: the loop swaps buffers)
        inputs.inv_out,
        inputs.dangling,
        out,
        _distribution(inputs.teleport, inputs.uniform_teleport),
        _distribution(inputs.dangling_to, inputs.uniform_dangling),
        float(alpha),
        int(max_iter),
        float(n * tol),
    )
    if steps < 0:
        raise ConvergenceError(max_iter, "PageRank's power iteration")
    return ranks, int(steps)
