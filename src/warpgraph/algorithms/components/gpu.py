"""Weakly connected components on the GPU (``gpu/kernels/wcc.cu``), and label renumbering.

Three methods, each returning labels that name every component by its smallest vertex (same
dtype as ``indices``):

- :func:`union_find_labels`: ECL-CC style. Every vertex starts at its first neighbour when that
  is smaller, then one pass joins the two ends of every arc by lock-free union-find (find with
  path halving, CAS hook of the larger root under the smaller), then pointer jumping. On a
  symmetric CSR only the arcs ``u -> v`` with ``v < u`` are joined (each edge once).
- :func:`afforest_labels`: Afforest (Sutton, Ben-Nun and Barak, IPDPS 2018). ``neighbor_rounds``
  rounds join every vertex to its r-th neighbour (pointer jumping after each), the most frequent
  label among ``samples`` seeded vertices is taken as the giant component, and the remaining arcs
  are joined only for the vertices outside it. Skipping needs every vertex to see its in-arcs:
  a symmetric CSR, or the reverse CSR of a directed graph; otherwise every vertex's remaining
  out-arcs are joined (no skipping).
- :func:`label_propagation_labels`: every arc lowers the larger label of its two ends to the
  smaller (atomicMin), then pointer jumping, repeated until no label drops (one host read of a
  flag per round).

Every pass over the arcs is :func:`visit_arcs`: warp-cooperative rows, long rows cut into
``CHUNK``-arc pieces drained by a second kernel (see the kernel file's header).

Examples
--------
>>> import cupy as cp
>>> indptr = cp.array([0, 1, 1, 1, 2, 2], dtype=cp.int64)
>>> indices = cp.array([2, 4], dtype=cp.int32)
>>> afforest_labels(indptr, indices, 5).tolist()
[0, 1, 0, 3, 3]
>>> count, labels = canonical_labels(union_find_labels(indptr, indices, 5))
>>> count, labels.tolist()
(3, [0, 1, 0, 2, 2])
"""

from __future__ import annotations

import functools
from typing import Any

import numpy as np

from ...device import cupy
from ...gpu.launch import launch
from ...gpu.loader import declare, get_kernel

__all__ = [
    "CHUNK",
    "afforest_labels",
    "canonical_labels",
    "label_propagation_labels",
    "renumber_by_first_vertex",
    "union_find_labels",
    "visit_arcs",
]

DOCTEST_NEEDS_GPU = True

SOURCE = "wcc.cu"
CHUNK = 1024
"""Arcs per work item of a long row (rows longer than this are split across warps)."""
UNION, MIN_LABEL = 0, 1
_CTYPES = {"int32": "int", "int64": "long long"}

declare(
    SOURCE,
    *(
        name
        for t in _CTYPES.values()
        for name in (
            f"wcc_init<{t}>",
            f"wcc_visit<{t}, 0>",
            f"wcc_visit<{t}, 1>",
            f"wcc_visit_chunks<{t}, 0>",
            f"wcc_visit_chunks<{t}, 1>",
            f"wcc_link_nth<{t}>",
            f"wcc_compress<{t}>",
            f"wcc_flatten<{t}>",
            f"wcc_first_vertex<{t}>",
        )
    ),
)


def _kernel(name: str, dtype: Any, op: int | None = None):
    t = _CTYPES[np.dtype(dtype).name]
    expr = f"{name}<{t}>" if op is None else f"{name}<{t}, {op}>"
    return get_kernel(SOURCE, expr)


def visit_arcs(
    indptr,
    indices,
    n: int,
    label,
    *,
    op: int = UNION,
    start: int = 0,
    skip: int = -1,
    lower_only: bool = False,
    changed=None,
) -> None:
    """One pass over the arcs ``[indptr[u] + start, indptr[u + 1])`` of every vertex ``u`` with
    ``label[u] != skip``: union (``op=UNION``) or minimum-label step (``op=MIN_LABEL``, sets
    ``changed[0]`` when a label drops)."""
    cp = cupy()
    m = int(indices.size)
    if n == 0 or m == 0:
        return
    capacity = m // CHUNK + 1
    q_vertex = cp.empty(capacity, dtype=cp.int64)
    q_begin = cp.empty(capacity, dtype=cp.int64)
    q_end = cp.empty(capacity, dtype=cp.int64)
    q_count = cp.zeros(1, dtype=cp.uint64)
    if changed is None:
        changed = cp.zeros(1, dtype=cp.int32)
    lower = int(bool(lower_only))
    launch(
        _kernel("wcc_visit", label.dtype, op),
        n,
        (indptr, indices, n, label, start, skip, lower, CHUNK, q_vertex, q_begin, q_end,
         q_count, changed),
    )  # fmt: skip
    launch(
        _kernel("wcc_visit_chunks", label.dtype, op),
        capacity * 32,
        (indices, label, lower, q_vertex, q_begin, q_end, q_count, changed),
    )


def compress(label) -> None:
    """Pointer jumping: every entry becomes the root of its tree (a halving pass, which can
    leave a few entries one or two hops short under concurrency, then a read-only flatten)."""
    n = int(label.size)
    launch(_kernel("wcc_compress", label.dtype), n, (label, n))
    launch(_kernel("wcc_flatten", label.dtype), n, (label, n))


def union_find_labels(indptr, indices, n: int, *, symmetric: bool = False):
    """ECL-CC style union-find labels (smallest vertex of each weak component)."""
    cp = cupy()
    label = cp.empty(n, dtype=indices.dtype)
    if n == 0:
        return label
    launch(_kernel("wcc_init", label.dtype), n, (indptr, indices, n, label, 1))
    visit_arcs(indptr, indices, n, label, lower_only=symmetric)
    compress(label)
    return label


@functools.lru_cache(maxsize=16)
def _sample_positions(n: int, samples: int, device: int):
    cp = cupy()
    rng = np.random.default_rng(0)
    return cp.asarray(rng.integers(0, n, size=samples).astype(np.int64))


def most_frequent_label(label, samples: int) -> int:
    """The most frequent label among ``samples`` seeded random vertices (ties: smallest)."""
    cp = cupy()
    pos = _sample_positions(int(label.size), int(samples), cp.cuda.runtime.getDevice())
    values, counts = np.unique(label[pos].get(), return_counts=True)
    return int(values[np.argmax(counts)])


def afforest_labels(
    indptr,
    indices,
    n: int,
    rindptr=None,
    rindices=None,
    *,
    symmetric: bool = False,
    neighbor_rounds: int = 2,
    samples: int = 1024,
):
    """Afforest labels (smallest vertex of each weak component); see the module docstring."""
    cp = cupy()
    label = cp.arange(n, dtype=indices.dtype)
    if n == 0 or indices.size == 0:
        return label
    link = _kernel("wcc_link_nth", label.dtype)
    for r in range(neighbor_rounds):
        launch(link, n, (indptr, indices, n, label, r))
        compress(label)
    use_reverse = rindptr is not None and not symmetric
    if use_reverse and rindices.dtype != indices.dtype:
        # the reverse CSR takes the narrowest id type (int32 below 2**31 vertices) while the
        # forward one may be int64: the kernels need one id type
        rindices = rindices.astype(indices.dtype)
    skip = -1
    if samples > 0 and (symmetric or use_reverse):
        skip = most_frequent_label(label, samples)
    visit_arcs(indptr, indices, n, label, start=neighbor_rounds, skip=skip)
    if use_reverse:
        visit_arcs(rindptr, rindices, n, label, skip=skip)
    compress(label)
    return label


def label_propagation_labels(indptr, indices, n: int, *, max_rounds: int | None = None):
    """Minimum-label propagation with pointer jumping (smallest vertex of each component)."""
    cp = cupy()
    label = cp.arange(n, dtype=indices.dtype)
    if n == 0 or indices.size == 0:
        return label
    changed = cp.zeros(1, dtype=cp.int32)
    rounds = n + 1 if max_rounds is None else int(max_rounds)
    for _ in range(rounds):
        changed.fill(0)
        visit_arcs(indptr, indices, n, label, op=MIN_LABEL, changed=changed)
        compress(label)
        if not int(changed.get()[0]):
            break
    return label


def canonical_labels(min_labels) -> tuple[int, Any]:
    """``(count, labels)`` from smallest-vertex labels: components numbered ``0..count-1`` in
    order of their smallest vertex (int32 while ``n < 2**31``)."""
    cp = cupy()
    n = int(min_labels.size)
    dt = cp.int32 if n < 2**31 else cp.int64
    if n == 0:
        return 0, cp.zeros(0, dtype=dt)
    roots = min_labels == cp.arange(n, dtype=min_labels.dtype)
    rank = cp.cumsum(roots, dtype=dt)
    count = int(rank[-1])
    out = rank[min_labels]
    out -= 1
    return count, out


def renumber_by_first_vertex(labels) -> tuple[int, Any]:
    """``(count, labels)`` for any integer labels (one per component), numbered as
    :func:`canonical_labels` does."""
    cp = cupy()
    n = int(labels.size)
    dt = cp.int32 if n < 2**31 else cp.int64
    if n == 0:
        return 0, cp.zeros(0, dtype=dt)
    lo, hi = int(labels.min()), int(labels.max())
    if lo < 0 or hi >= min(2 * n + 16, np.iinfo(dt).max):  # sparse ids: make them dense first
        _, labels = cp.unique(labels, return_inverse=True)
        hi = int(labels.max())
    labels = cp.ascontiguousarray(labels.reshape(-1).astype(dt))  # values fit dt now
    first = cp.full(hi + 1, n, dtype=dt)
    launch(_kernel("wcc_first_vertex", dt), n, (labels, n, first))
    return canonical_labels(first[labels])
