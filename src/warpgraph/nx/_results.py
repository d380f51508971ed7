"""NetworkX graphs built as results, equal to NetworkX's own, adjacency order included.

NetworkX builds ``k_core``'s result as ``G.subgraph(nodes).copy()`` and ``k_truss``'s as
``G.copy()`` minus edges and isolated nodes, one Python call per edge. Here the same dictionaries
are filled directly: the order each adjacency dict would get is computed with array operations,
then each dict is made by one ``dict(zip(...))``.

Order of ``Graph.copy()`` (a view's too): nodes in ``G``'s order; edges added by rows, ``u`` in
node order, ``v`` in ``G[u]``'s order. So in the copy, ``u``'s neighbours are first those
earlier in node order (in node order), then the others (itself included) in ``G[u]``'s order;
one new data dict per edge, shared by its two arcs. For a ``DiGraph`` the successors keep
``G``'s order and the predecessors of ``v`` come in node order of the tails.
"""

from __future__ import annotations

from itertools import chain, islice
from typing import Any

import numpy as np

from ._common import gc_paused

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
    index = W.index
    nodes = set(W.labels[induced].tolist())  # the same insertions, so the same set order
    return np.fromiter((index[v] for v in nodes), dtype=np.int64, count=len(nodes))


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
        return W.to_networkx().subgraph(W.labels[node_keep].tolist()).copy()
    if type(G).__name__ not in ("Graph", "DiGraph") or type(G).__module__.split(".")[0] != (
        "networkx"
    ):  # a subclass may have its own dict factories
        return G.subgraph(W.labels[node_keep].tolist()).copy()
    with gc_paused():
        return _subgraph_copy(W, G, node_keep, arc_keep, induced)


def _subgraph_copy(W, G, node_keep, arc_keep, induced):
    visit = _processing_order(W, node_keep, None if induced is None else np.asarray(induced))
    position = np.full(len(W), -1, dtype=np.int64)
    position[visit] = np.arange(visit.size)
    indptr = np.asarray(W.graph.indptr)
    heads = W.nx_order.astype(np.int64)
    tails = np.repeat(np.arange(indptr.size - 1), np.diff(indptr))
    keep = node_keep[tails] & node_keep[heads]
    if arc_keep is not None:
        keep &= arc_keep
    picked = np.flatnonzero(keep)
    tails, heads = tails[picked], heads[picked]
    tpos, hpos = position[tails], position[heads]
    arc_data = list(chain.from_iterable(G._adj[v].values() for v in W.nodes))
    labels = W.labels
    nodes = labels[visit].tolist()
    kept = len(nodes)
    H = G.__class__()
    H.graph.update(G.graph)
    H._node.update(zip(nodes, map(dict.copy, map(G._node.__getitem__, nodes)), strict=True))
    rank = np.arange(tails.size)  # NetworkX's adjacency order within each row
    if G.is_directed():
        data = list(map(dict.copy, map(arc_data.__getitem__, picked.tolist())))
        out = np.lexsort((rank, tpos))
        H._succ.update(
            _dicts(nodes, tpos[out], labels[heads[out]].tolist(), _pick(data, out), kept)
        )
        into = np.lexsort((tpos, hpos))  # predecessors in visiting order of the tails
        H._pred.update(
            _dicts(nodes, hpos[into], labels[tails[into]].tolist(), _pick(data, into), kept)
        )
        return H
    # One data dict per edge, shared by its two arcs.
    n = max(len(W), 1)
    edge_key = np.minimum(tails, heads) * n + np.maximum(tails, heads)
    _, edge = np.unique(edge_key, return_inverse=True)
    owner = tails <= heads
    first = np.empty(int(edge.max(initial=-1)) + 1, dtype=np.int64)
    first[edge[owner]] = np.flatnonzero(owner)
    copies = list(map(dict.copy, map(arc_data.__getitem__, picked[first].tolist())))
    earlier = hpos < tpos  # neighbours visited before: added to this row in visiting order
    order = np.lexsort((np.where(earlier, hpos, rank), ~earlier, tpos))
    data = _pick(copies, edge[order])
    H._adj.update(_dicts(nodes, tpos[order], labels[heads[order]].tolist(), data, kept))
    return H


def _pick(items: list, idx: np.ndarray) -> list:
    """``[items[i] for i in idx]`` at C speed."""
    return list(map(items.__getitem__, idx.tolist()))


def bfs_tree_graph(labels: np.ndarray, source: int, parents: np.ndarray, children: np.ndarray):
    """``networkx.DiGraph`` of a BFS tree given its arcs in discovery order, as NetworkX's
    ``bfs_tree`` builds it: nodes in discovery order, each node's children in discovery order,
    one new data dict per edge shared by its successor and predecessor entries."""
    import networkx as nx

    with gc_paused():
        T = nx.DiGraph()
        order = np.concatenate(([source], children)).astype(np.int64)
        nodes = labels[order].tolist()
        n = order.size
        position = np.empty(labels.size, dtype=np.int64)
        position[order] = np.arange(n)
        data = [{} for _ in range(children.size)]
        T._node.update(zip(nodes, [{} for _ in range(n)], strict=True))
        by_parent = np.argsort(position[parents], kind="stable")
        kids = labels[children[by_parent]].tolist()
        T._succ.update(_dicts(nodes, position[parents[by_parent]], kids, _pick(data, by_parent), n))
        pred = [{}] + [{p: d} for p, d in zip(labels[parents].tolist(), data, strict=True)]
        T._pred.update(zip(nodes, pred, strict=True))  # node i + 1 <- parents[i]
    return T
