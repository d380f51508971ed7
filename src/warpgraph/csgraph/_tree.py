"""The tree of :func:`warpgraph.csgraph.breadth_first_tree`, made from the search's
predecessors as ``scipy.sparse.csgraph.reconstruct_path`` makes it, in two O(N + nnz) passes.

SciPy's ``reconstruct_path`` sorts the nodes by parent (``argsort``), finds each row's start by
binary search and reads each tree arc's weight by fancy indexing, ``csgraph[parent, child]``
(the sum of that entry's duplicates; undirected: the smaller of both directions, a 0 read as
infinite). On a 708 x 708 lattice those three steps take 13, 12 and 5 ms (2 cores, SciPy
1.17.1). Here one parallel pass over the rows reads every weight, and a counting pass places
the children: the same matrix, each row's children in increasing order (SciPy's are in its
``argsort``'s order, which is not stable, so the stored order of a row may differ; the
entries, explicit zeros, dtype and class do not).
"""

from __future__ import annotations

from typing import Any

import numpy as np
import scipy.sparse as sp
from numba import njit, prange

from .._arrays import to_host
from ..cpu.threads import threads_for
from ._input import _Csr

_TREE_CLASS: dict[Any, type] = {}


def scipy_tree_class(csgraph: Any) -> type:
    """The class SciPy's ``reconstruct_path`` returns for input of this kind (SciPy 1.17: a
    ``csr_matrix`` for sparse matrices, a ``csr_array`` for everything else), asked of SciPy
    once per kind with a 1 x 1 graph, so that it follows the installed version."""
    from scipy.sparse.csgraph import reconstruct_path

    kind = type(csgraph) if sp.issparse(csgraph) else np.ndarray
    if kind not in _TREE_CLASS:
        probe = kind((1, 1)) if sp.issparse(csgraph) else np.zeros((1, 1))
        tree = reconstruct_path(probe, np.array([-9999], dtype=np.int32), True)
        _TREE_CLASS[kind] = type(tree)
    return _TREE_CLASS[kind]


@njit(inline="always")
def _entry(indptr, indices, data, row, col):  # pragma: no cover - compiled
    """``A[row, col]`` as SciPy's fancy indexing reads it: the sum of the row's entries in
    column ``col``, in stored order, 0 if none."""
    total = 0.0
    for k in range(indptr[row], indptr[row + 1]):
        if indices[k] == col:
            total += data[k]
    return total


@njit(parallel=True, cache=True)
def _tree_weights(indptr, indices, data, pred, undirected):  # pragma: no cover - compiled
    """Each node's tree-arc weight (nodes without a parent: unused). Directed: the entry
    ``(pred[c], c)``, found by scanning ``pred[c]``'s row for each child; each parent row is
    scanned once and writes only its own children, so rows run in parallel without races.
    Undirected: the smaller of ``(pred[c], c)`` and ``(c, pred[c])``, each 0 read as
    infinite, a NaN kept (``np.minimum``'s rule)."""
    n = pred.shape[0]
    weight = np.zeros(n, dtype=np.float64)
    for p in prange(n):
        for k in range(indptr[p], indptr[p + 1]):
            c = indices[k]
            if pred[c] == p:
                weight[c] += data[k]  # (duplicates summed in stored order)
    if undirected:
        for c in prange(n):
            p = pred[c]
            if p < 0:
                continue
            forward = weight[c]
            backward = _entry(indptr, indices, data, c, p)
            forward = np.inf if forward == 0 else forward
            backward = np.inf if backward == 0 else backward
            if forward != forward or forward <= backward:
                weight[c] = forward
            else:
                weight[c] = backward
    return weight


@njit(cache=True)
def _children_by_parent(pred, n):  # pragma: no cover - compiled
    """CSR of the tree's shape: ``indptr`` by parent and each row's children in increasing
    order (one counting pass; int32, as SciPy's)."""
    indptr = np.zeros(n + 1, dtype=np.int32)
    for c in range(n):
        if pred[c] >= 0:
            indptr[pred[c] + 1] += 1
    for p in range(n):
        indptr[p + 1] += indptr[p]
    children = np.empty(indptr[n], dtype=np.int32)
    cursor = indptr[:-1].copy()
    for c in range(n):
        p = pred[c]
        if p >= 0:
            children[cursor[p]] = c
            cursor[p] += 1
    return indptr, children


def tree_from_predecessors(A: _Csr, pred: np.ndarray, directed: bool, tree_class: type) -> Any:
    """SciPy's ``reconstruct_path(csgraph, pred, directed)`` for the graph ``A`` read from
    ``csgraph``, as a ``tree_class`` (:func:`scipy_tree_class` of ``csgraph``), ``pred`` on the
    host.

    Examples
    --------
    >>> import scipy.sparse as sp
    >>> from warpgraph.csgraph._input import _read
    >>> M = sp.csr_array([[0, 4, 0], [0, 0, 2], [1, 0, 0]])
    >>> T = tree_from_predecessors(_read(M), np.array([-9999, 0, 1]), True, sp.csr_array)
    >>> T.toarray().tolist()
    [[0.0, 4.0, 0.0], [0.0, 0.0, 2.0], [0.0, 0.0, 0.0]]
    """
    indptr, indices, data = to_host(A.indptr), to_host(A.indices), to_host(A.data)
    pred = np.ascontiguousarray(pred)
    with threads_for(work=A.n + int(indices.shape[0])):
        weight = _tree_weights(indptr, indices, data, pred, not directed)
    tree_indptr, children = _children_by_parent(pred, A.n)
    return tree_class((weight[children], children, tree_indptr), shape=(A.n, A.n))
