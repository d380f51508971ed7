"""``bfs_tree``'s ``DiGraph`` built by compiled code through CPython's C API (:mod:`._capi`).

The nodes in visiting order, each with a new empty data dict, and one arc from each node's
parent, made the way :mod:`._capi_graph` makes rows (new empty dicts:
``_PyDict_NewPresized(0)`` is ``PyDict_New()``).
"""

from __future__ import annotations

import numba as nb
import numpy as np

from ..cpu.prefetch import prefetch_address as _prefetch
from ..errors import InvalidArgumentError
from ._capi import (
    DECREF,
    PRESIZED,
    SET,
    _call1,
    _call4,
    _decref,
    _fail,
    _items,
    _label,
    _new_dict,
    _put,
    _release_all,
)

__all__ = ["tree_graph"]


@nb.njit(cache=True)
def _tree_labels(fns, order, items, hashes, lab, hp):  # pragma: no cover - compiled
    """Each tree node's label (``lab[p]``, a new reference when ``items`` is 0) and hash
    (``hp[p]``) by discovery position ``p``; 0, or -1 on an error (the new ones released)."""
    for p in range(order.shape[0]):
        hp[p] = hashes[order[p]]
        obj = _label(fns, items, order[p])
        if obj == 0:
            if items == 0:
                for j in range(p):
                    _decref(fns[DECREF], lab[j])
            return _fail(fns, 0)
        lab[p] = obj
    return 0


@nb.njit(cache=True)
def _tree(fns, node_out, succ_out, pred_out, parent_pos, lab, hp):  # pragma: no cover
    """Fill an empty ``DiGraph``'s node, successor and predecessor dicts with the tree whose
    node ``p + 1`` (discovery position) has the parent at position ``parent_pos[p]`` (< p + 1):
    nodes in discovery order, each one's children in discovery order, one new empty data dict
    per edge held by its successor and predecessor entries. 0, or -1 on an error."""
    k = lab.shape[0]
    first = np.zeros(k + 1, dtype=np.int64)  # children by parent position (counting sort)
    for i in range(k - 1):
        first[parent_pos[i] + 1] += 1
    for p in range(k):
        first[p + 1] += first[p]
    fill = first[:k].copy()
    kids = np.empty(max(k - 1, 0), dtype=np.int64)
    for i in range(k - 1):
        q = parent_pos[i]
        kids[fill[q]] = i + 1
        fill[q] += 1
    for p in range(k):  # the node attribute dicts
        if p + 8 < k:
            _prefetch(lab[p + 8])
        nd = _call1(fns[PRESIZED], 0)  # PyDict_New()
        if nd == 0 or _put(fns, node_out, lab[p], nd, hp[p]):
            return _fail(fns, 0)
    data = np.zeros(k, dtype=np.int64)  # the data dict of the edge into p (borrowed)
    for p in range(k):  # the successor rows, a new data dict per edge
        if p + 8 < k:
            _prefetch(lab[p + 8])
        row = _call1(fns[PRESIZED], first[p + 1] - first[p])
        if row == 0:
            return _fail(fns, 0)
        for j in range(first[p], first[p + 1]):
            c = kids[j]
            d = _call1(fns[PRESIZED], 0)
            if d == 0:
                return _fail(fns, row)
            data[c] = d  # the row's once put (alive as long as the graph)
            if _put(fns, row, lab[c], d, hp[c]):
                return _fail(fns, row)
        if _put(fns, succ_out, lab[p], row, hp[p]):
            return _fail(fns, 0)
    for p in range(k):  # the predecessor rows: the parent, with the edge's data dict
        if p + 8 < k:
            _prefetch(lab[p + 8])
        pred = _call1(fns[PRESIZED], 0)
        if pred == 0:
            return _fail(fns, 0)
        if p > 0:
            q = parent_pos[p - 1]
            if _call4(fns[SET], pred, lab[q], data[p], hp[q]):
                return _fail(fns, pred)
        if _put(fns, pred_out, lab[p], pred, hp[p]):
            return _fail(fns, 0)
    return 0


def tree_graph(
    fns: np.ndarray,
    T,
    order: np.ndarray,
    parent_pos: np.ndarray,
    labels: list | np.ndarray | None,
    hashes: np.ndarray,
) -> None:
    """Fill the empty ``networkx.DiGraph`` ``T`` with a tree as NetworkX's ``bfs_tree`` builds
    it, by one compiled loop.

    ``order``: the tree's nodes (dense ids) in discovery order, the root first;
    ``parent_pos``: the discovery position of node ``order[p + 1]``'s parent (below ``p + 1``);
    ``labels``: the node labels by dense id (a plain list, kept alive and unchanged by the
    caller; None: the labels are ``0..n-1``, made here); ``hashes``: the labels' hashes by dense
    id, distinct. ``T`` gets the nodes in discovery order (each a new empty attribute dict),
    each node's children in discovery order as its successors, its parent as its predecessor,
    and one new empty data dict per edge, held by both entries.

    Examples
    --------
    >>> import networkx as nx
    >>> import numpy as np
    >>> from warpgraph.nx._capi import api
    >>> a = api()
    >>> if a is not None:
    ...     T = nx.DiGraph()
    ...     tree_graph(a.fns, T, np.array([2, 0, 1]), np.array([0, 0]), ["a", "b", "c"],
    ...                np.array([hash(x) for x in "abc"]))
    ...     assert list(T.edges) == [("c", "a"), ("c", "b")]

    Raises
    ------
    MemoryError
        When CPython could not allocate a dict (``T`` is then incomplete).
    """
    order = np.ascontiguousarray(order, dtype=np.int64)
    parent_pos = np.ascontiguousarray(parent_pos, dtype=np.int64)
    hashes = np.ascontiguousarray(hashes, dtype=np.int64)
    k = order.size
    bad = (parent_pos < 0) | (parent_pos >= np.arange(1, k)) if parent_pos.size == k - 1 else None
    if bad is None or bad.any():
        raise InvalidArgumentError("each tree node's parent must be discovered before it")
    items = 0 if labels is None else _items(labels)
    lab = np.zeros(k, dtype=np.int64)
    hp = np.empty(k, dtype=np.int64)
    if _tree_labels(fns, order, items, hashes, lab, hp):
        raise MemoryError("could not allocate the node labels")
    try:
        # T's (empty) tables replaced by presized ones: no resize while they fill
        T._node, T._adj, T._pred = (_new_dict(fns, k) for _ in range(3))
        T._succ = T._adj  # (NetworkX's descriptors also keep them one object)
        done = _tree(fns, id(T._node), id(T._succ), id(T._pred), parent_pos, lab, hp)
    finally:
        if items == 0:
            _release_all(fns, lab)
    if done:
        raise MemoryError("could not allocate the tree's dicts")
