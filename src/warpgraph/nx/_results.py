"""NetworkX graphs built as results, equal to NetworkX's own, adjacency order included.

NetworkX builds ``k_core``'s result as ``G.subgraph(nodes).copy()`` and ``k_truss``'s as
``G.copy()`` minus edges and isolated nodes, one Python call per edge. Here the same dictionaries
are made directly: by :mod:`._capi` (compiled loops calling CPython's dict functions, with the
dict tables of ``G`` read in place) where it can be used, else in Python: the order each
adjacency dict would get is computed with array operations, then each dict is made by one
``dict(zip(...))``. Filtered views and subclasses are built by NetworkX's own calls.

Order of ``Graph.copy()`` (a view's too): nodes in ``G``'s order; edges added by rows, ``u`` in
node order, ``v`` in ``G[u]``'s order. So in the copy, ``u``'s neighbours are first those
earlier in node order (in node order), then the others (itself included) in ``G[u]``'s order;
one new data dict per edge, shared by its two arcs. For a ``DiGraph`` the successors keep
``G``'s order and the predecessors of ``v`` come in node order of the tails.
"""

from __future__ import annotations

import ctypes
import operator
from itertools import chain, islice
from typing import Any

import numpy as np
from numba import njit, prange

from ._common import gc_paused, label_hashes

__all__ = ["bfs_tree_graph", "subgraph_copy"]


def _dicts(row_labels: list, rows: np.ndarray, col_labels: list, data: list, n_rows: int):
    """``{label: {neighbour: data}}`` from arcs sorted by row (rows as positions 0..n_rows-1)."""
    counts = np.bincount(rows, minlength=n_rows).tolist() if rows.size else [0] * n_rows
    arcs = zip(col_labels, data, strict=True)
    return {label: dict(islice(arcs, k)) for label, k in zip(row_labels, counts, strict=True)}


def _processing_order(W, node_keep: np.ndarray, induced: np.ndarray | None) -> np.ndarray:
    """Dense ids in the order ``copy()`` visits them. A subgraph view iterates its node set
    (``show_nodes``, a Python set) instead of ``G`` when the set is under half of ``G``."""
    kept = np.flatnonzero(node_keep)
    if induced is None or not 2 * kept.size < len(W):
        return kept
    labels = W.label_list(induced)
    nodes = set(labels)  # the same insertions, so the same set order
    if W.identity:  # the labels 0..n-1: each is its own id
        return np.fromiter(nodes, dtype=np.int64, count=len(nodes))
    position = dict(zip(labels, induced.tolist(), strict=True))  # not W.index: O(kept) only
    return np.fromiter(map(position.__getitem__, nodes), dtype=np.int64, count=len(nodes))


def subgraph_copy(
    W, node_keep: np.ndarray, arc_keep: np.ndarray | None = None, induced: Any = None
):
    """``W``'s source graph restricted to ``node_keep`` (and the arcs of ``arc_keep``), equal to
    ``source.subgraph(nodes).copy()`` (``induced``: the ids of ``nodes`` in their order) or to
    ``source.copy()`` minus the other edges and nodes (``induced=None``), attributes copied.

    ``node_keep`` is a boolean mask over dense ids; ``arc_keep`` one over the arcs in NetworkX's
    adjacency order (``W.nx_order``), default every arc between kept nodes.
    """
    G = W.source
    if G is None:  # converted by hand, source gone: the structure only
        return W.to_networkx().subgraph(W.label_list(node_keep)).copy()
    if not np.any(node_keep):  # what copy() gives when nothing is kept: no table is read
        H = G.__class__()
        H.graph.update(G.graph)
        return H
    if (
        type(G).__name__ not in ("Graph", "DiGraph")
        or type(G).__module__.split(".")[0] != "networkx"
        or hasattr(G, "_NODE_OK")
        or type(G._adj) is not dict
    ):  # a subclass may have its own dict factories; a filtered view its own orders; an
        # undirected view of a DiGraph two dicts per edge, which NetworkX's copy() merges
        return _networkx_way(W, G, node_keep, arc_keep, induced)
    if induced is not None and arc_keep is None and _few_arcs(W, np.asarray(induced)):
        return _networkx_way(W, G, node_keep, None, induced)
    with gc_paused():
        visit = _processing_order(W, node_keep, None if induced is None else np.asarray(induced))
        H = _native_copy(W, G, visit, arc_keep)
        return _subgraph_copy(W, G, visit, node_keep, arc_keep) if H is None else H


#: NetworkX's own ``subgraph(nodes).copy()`` costs about 3-5 us per arc of the kept rows (2
#: cores); the compiled build reads the source's whole node and row tables first, about 20-35
#: ns per node (grid:708: 10-18 ms for a 4-node ``k_corona``). So below one kept arc per this
#: many nodes of the source, NetworkX's own calls make the (same) result.
NODES_PER_KEPT_ARC = 200


def _few_arcs(W, induced: np.ndarray) -> bool:
    """Whether the rows of the nodes ``induced`` hold fewer than ``len(W) /
    NODES_PER_KEPT_ARC`` arcs: a result small enough for NetworkX's own calls."""
    limit = len(W) // NODES_PER_KEPT_ARC
    if induced.size >= limit:
        return False
    ids = induced.astype(np.int64, copy=False)
    indptr = np.asarray(W.any_order.indptr)
    return int((indptr[ids + 1] - indptr[ids]).sum()) < limit


def _networkx_way(W, G, node_keep, arc_keep, induced):
    """The result made by NetworkX's own calls (one per edge)."""
    if induced is not None:
        H = G.subgraph(W.label_list(np.asarray(induced, dtype=np.int64))).copy()
    else:
        H = G.copy()
        H.remove_nodes_from(W.label_list(~np.asarray(node_keep, dtype=bool)))
    if arc_keep is not None:
        indptr = np.asarray(W.any_order.indptr)
        tails = np.repeat(np.arange(indptr.size - 1), np.diff(indptr))
        drop = np.flatnonzero(~np.asarray(arc_keep, dtype=bool))
        H.remove_edges_from(
            zip(W.label_list(tails[drop]), W.label_list(W.nx_order[drop]), strict=True)
        )
    return H


def _native_copy(W, G, visit: np.ndarray, arc_keep: np.ndarray | None):
    """The result built by :mod:`._capi` from the dict tables of ``G`` read in place, or None
    where that cannot be done (see :func:`_capi.api`) or ``G`` does not match ``W``."""
    from . import _capi, _capi_graph, _dict_probes
    from . import _cpython as raw

    api = _capi.api()
    hashes = None if api is None else label_hashes(W)
    if hashes is None:  # no C API, or hashes not read or not distinct: the Python path
        return None
    n = len(W)
    node, adj = raw.dict_entries(G._node), raw.dict_entries(G._adj)
    if node is None or adj is None:
        return None
    if node[0].shape != hashes.shape or adj[0].shape != hashes.shape:
        return None
    if not _same_hashes(node[0], adj[0], np.ascontiguousarray(hashes, dtype=np.int64)):
        return None
    indptr = np.ascontiguousarray(W.any_order.indptr, dtype=np.int64)
    visit = np.ascontiguousarray(visit, dtype=np.int64)
    arcs = raw._arcs_at(_capi.gather(adj[1], visit))  # the rows it keeps
    if arcs is None or not _same_lengths(arcs.indptr, indptr, visit):
        return None
    heads = W.nx_order  # (the rows' key hashes are not compared: a stale conversion is the
    # caller's, and equal row lengths keep every index in bounds)
    # G's own label objects, read from its node table (borrowed: G is held); a table with
    # deleted entries is not read so, and the labels 0..n-1 are then made anew
    labels = _dict_probes.key_addresses(G._node)
    if labels is None or labels.size != n:
        labels = None if W.identity else np.fromiter(map(id, W.nodes), dtype=np.int64, count=n)
    H = G.__class__()
    H.graph.update(G.graph)
    ok = _capi_graph.build_graph(
        H,
        api.fns,
        visit,
        indptr,
        heads,
        arc_keep,
        arcs.addresses,
        arcs.indptr,
        node[1],
        labels,
        hashes,
        G._node,
    )
    return H if ok else None


# The checks and the gather of :func:`_native_copy`, each one parallel pass over arrays of a
# node each: serial NumPy comparisons, ``diff`` and fancy indexing took ~5 ms of grid:708's
# ``k_core`` on a 16-core host (they read arrays that many threads wrote).
@njit(cache=True, parallel=True)
def _same_hashes(node_hashes, adj_hashes, hashes):  # pragma: no cover - compiled
    """Whether ``node_hashes`` and ``adj_hashes`` both equal ``hashes`` (same shapes)."""
    differ = 0
    for i in prange(hashes.shape[0]):
        differ += (node_hashes[i] != hashes[i]) | (adj_hashes[i] != hashes[i])
    return differ == 0


@njit(cache=True, parallel=True)
def _same_lengths(sub_indptr, indptr, visit):  # pragma: no cover - compiled
    """Whether row ``p`` of ``sub_indptr`` is as long as row ``visit[p]`` of ``indptr``."""
    differ = 0
    for p in prange(visit.shape[0]):
        u = visit[p]
        differ += (sub_indptr[p + 1] - sub_indptr[p]) != (indptr[u + 1] - indptr[u])
    return differ == 0


def _subgraph_copy(W, G, visit, node_keep, arc_keep):
    position = np.full(len(W), -1, dtype=np.int64)
    position[visit] = np.arange(visit.size)
    indptr = np.asarray(W.any_order.indptr)
    heads = W.nx_order.astype(np.int64)
    tails = np.repeat(np.arange(indptr.size - 1), np.diff(indptr))
    keep = node_keep[tails] & node_keep[heads]
    if arc_keep is not None:
        keep &= arc_keep
    picked = np.flatnonzero(keep)
    tails, heads = tails[picked], heads[picked]
    tpos, hpos = position[tails], position[heads]
    data_of = _DataDicts(W, G)
    label_list = W.label_list
    nodes = label_list(visit)
    kept = len(nodes)
    H = G.__class__()
    H.graph.update(G.graph)
    H._node.update(zip(nodes, map(dict.copy, map(G._node.__getitem__, nodes)), strict=True))
    if G.is_directed():
        copies, slot = data_of.copies(picked, tails, heads)
        out = _row_order(tpos, hpos, kept, False)  # successors in G's order
        data = _pick(copies, slot[out])
        H._succ.update(_dicts(nodes, tpos[out], label_list(heads[out]), data, kept))
        into = _row_order(hpos, tpos, kept, True)  # predecessors in visiting order of the tails
        data = _pick(copies, slot[into])
        H._pred.update(_dicts(nodes, hpos[into], label_list(tails[into]), data, kept))
        return H
    # One data dict per edge, shared by its two arcs: the copy of the arc with tail <= head.
    n = max(len(W), 1)
    edge_key = np.minimum(tails, heads) * n + np.maximum(tails, heads)
    _, edge = np.unique(edge_key, return_inverse=True)
    owner = tails <= heads
    first = np.empty(int(edge.max(initial=-1)) + 1, dtype=np.int64)
    first[edge[owner]] = np.flatnonzero(owner)
    copies, slot = data_of.copies(picked[first], tails[first], heads[first])
    # neighbours visited before come first (in visiting order), then the rest in G[u]'s order
    order = _row_order(tpos, hpos, kept, False, earlier_first=True)
    data = _pick(copies, slot[edge[order]])
    H._adj.update(_dicts(nodes, tpos[order], label_list(heads[order]), data, kept))
    return H


def _objects_at(addresses: np.ndarray):
    """A sequence of the objects at ``addresses`` (CPython), each read with a new reference;
    the caller keeps the objects alive while it is used."""
    buffer = np.ascontiguousarray(addresses, dtype=np.int64)
    return (ctypes.py_object * buffer.size).from_buffer(buffer)


class _DataDicts:
    """Copies of the data dicts of chosen arcs (positions in NetworkX's adjacency order).

    Copying a million dicts that lie scattered over the heap costs ~1 us each in cache misses;
    in address order it is 4x cheaper. Where the dict tables can be read in place
    (:mod:`._cpython`) the arcs' data-dict addresses come from there and the dicts are fetched
    and copied in address order, without a list of every arc's dict; otherwise the dicts are
    listed by iterating ``G``'s rows."""

    def __init__(self, W, G) -> None:
        self._rows = [G._adj[v] for v in W.nodes]
        self._label_list = W.label_list
        self._arcs = W.any_order.num_arcs
        self._all: list | None = None

    def copies(self, arcs: np.ndarray, tails: np.ndarray, heads: np.ndarray) -> tuple:
        """Copies of the data dicts of ``arcs`` (from ``tails`` to ``heads``, dense ids) and
        where each arc's copy is in that list (``copies[slot[i]]`` is a copy of arc
        ``arcs[i]``'s dict). A few arcs are looked up by label."""
        from . import _cpython as raw

        if 16 * arcs.size < self._arcs:
            rows = map(self._rows.__getitem__, tails.tolist())
            found = map(operator.getitem, rows, self._label_list(heads))  # views too
            copied = list(map(dict.copy, found))
            return copied, np.arange(len(copied))
        table = raw.arc_hashes(self._rows) if raw.available() else None
        if table is None or table.addresses.size != self._arcs:
            if self._all is None:
                values = map(operator.methodcaller("values"), self._rows)  # views too
                self._all = list(chain.from_iterable(values))
            copied = list(map(dict.copy, map(self._all.__getitem__, arcs.tolist())))
            return copied, np.arange(len(copied))
        addresses = table.addresses[arcs]
        by_address = np.argsort(addresses, kind="stable")  # runs: timsort is linear on them
        ordered = np.ascontiguousarray(addresses[by_address])
        # The dicts are alive (held by self._rows); reading a py_object takes a new reference.
        found = list(_objects_at(ordered))
        slot = np.empty_like(by_address)
        slot[by_address] = np.arange(by_address.size)
        return list(map(dict.copy, found)), slot


@njit(cache=True)
def _row_order(rows, other, n_rows, by_other, earlier_first=False):  # pragma: no cover
    """Order of arcs (given in NetworkX's adjacency order) in the rows of the copy: grouped by
    ``rows`` (positions 0..n_rows-1); within a row by ``other`` (``by_other``), or with
    ``earlier_first`` the arcs whose ``other`` is below the row first, by ``other``, then the
    rest in the given order; otherwise in the given order."""
    m = rows.shape[0]
    start = np.zeros(n_rows + 1, dtype=np.int64)
    for a in range(m):
        start[rows[a] + 1] += 1
    for r in range(n_rows):
        start[r + 1] += start[r]
    fill = start[:n_rows].copy()
    order = np.empty(m, dtype=np.int64)
    for a in range(m):  # stable counting sort by row
        r = rows[a]
        if earlier_first and other[a] >= r:
            continue
        order[fill[r]] = a
        fill[r] += 1
    split = fill.copy()
    if earlier_first:
        for a in range(m):
            r = rows[a]
            if other[a] >= r:
                order[fill[r]] = a
                fill[r] += 1
    for r in range(n_rows):
        lo = start[r]
        hi = split[r] if earlier_first else (start[r + 1] if by_other else lo)
        if hi - lo > 1:
            keys = other[order[lo:hi]]
            idx = np.argsort(keys, kind="mergesort")
            order[lo:hi] = order[lo:hi][idx]
    return order


def _pick(items: list, idx: np.ndarray) -> list:
    """``[items[i] for i in idx]`` at C speed."""
    return list(map(items.__getitem__, idx.tolist()))


def bfs_tree_graph(W, source: int, parents: np.ndarray, children: np.ndarray):
    """``networkx.DiGraph`` of a BFS tree given its arcs in discovery order, as NetworkX's
    ``bfs_tree`` builds it: nodes in discovery order, each node's children in discovery order,
    one new data dict per edge shared by its successor and predecessor entries. Built by
    :func:`._capi_tree.tree_graph` where the C API is usable and the label hashes are distinct
    (from ``NATIVE_MIN`` nodes), else in Python."""
    import networkx as nx

    from . import _common

    with gc_paused():
        T = nx.DiGraph()
        order = np.concatenate(([source], children)).astype(np.int64)
        n = order.size
        position = np.empty(len(W), dtype=np.int64)
        position[order] = np.arange(n)
        found = _common._native_labels(W) if n >= _common.NATIVE_MIN else None
        if found is not None:
            from . import _capi_tree

            fns, labels, hashes = found
            if W.identity and _common._scattered(order, len(W)):
                labels = None  # new ints: no cache miss on each label object
            _capi_tree.tree_graph(fns, T, order, position[parents], labels, hashes)
            return T
        nodes = W.label_list(order)
        data = [{} for _ in range(children.size)]
        T._node.update(zip(nodes, [{} for _ in range(n)], strict=True))
        by_parent = np.argsort(position[parents], kind="stable")
        kids = W.label_list(children[by_parent])
        T._succ.update(_dicts(nodes, position[parents[by_parent]], kids, _pick(data, by_parent), n))
        pred = [{}] + [{p: d} for p, d in zip(W.label_list(parents), data, strict=True)]
        T._pred.update(zip(nodes, pred, strict=True))  # node i + 1 <- parents[i]
    return T
