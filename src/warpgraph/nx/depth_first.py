"""Depth-first search functions of NetworkX, in exactly NetworkX's order.

NetworkX's depth-first search (``dfs_labeled_edges``, after D. Eppstein's PADS) keeps a stack
of ``(node, iterator over its neighbours)``; the top node's iterator is advanced until it
yields an unvisited neighbour, which is pushed (while the stack is shorter than
``depth_limit``) and searched first; a node whose iterator is exhausted is popped. Without a
source every node is a start, in node order, unless an earlier search reached it. Every other
DFS function of NetworkX reads that one search: tree edges (``dfs_edges``, ``dfs_tree``,
``dfs_predecessors``, ``dfs_successors``), the nodes at their first visit
(``dfs_preorder_nodes``) or when popped (``dfs_postorder_nodes``: a node reached at the depth
limit is never pushed, so never popped, and is missing there).

Here one sequential Numba pass over the neighbour ids in NetworkX's adjacency order
(``WarpgraphGraph.nx_order``) replays that search, O(n + m), and records what the called
function needs: the labelled arcs, or the tree arcs with the pre- and post-order. A depth-first
order has no parallel form that keeps NetworkX's order, so the pass is the same on every
device. The generators compute their whole result when first advanced, and raise NetworkX's
errors at the same point of the iteration as NetworkX's own (a missing source: after the
start's own ``forward`` triple in ``dfs_labeled_edges`` and after the start in
``dfs_preorder_nodes``, which NetworkX yields before it reads the start's neighbours).
"""

from __future__ import annotations

import math
from collections.abc import Iterator
from typing import Any

import numpy as np
from numba import njit

from ._common import gc_paused, host, node_dict, node_error, split_list
from ._results import _dicts, _pick, bfs_tree_graph

__all__ = [
    "dfs_edges",
    "dfs_labeled_edges",
    "dfs_postorder_nodes",
    "dfs_predecessors",
    "dfs_preorder_nodes",
    "dfs_successors",
    "dfs_tree",
]

#: The labels of ``dfs_labeled_edges``, by the codes the compiled pass records.
LABELS = ("forward", "nontree", "reverse", "reverse-depth_limit")
_FORWARD, _NONTREE, _REVERSE, _AT_LIMIT = range(4)


@njit(cache=True, nogil=True)
def _depth_first(indptr, heads, starts, n, stack_limit, labeled):  # pragma: no cover - compiled
    """NetworkX's depth-first search from each of ``starts`` not reached yet, scanning the rows
    of ``(indptr, heads)`` in stored order; a node is pushed while the stack holds fewer than
    ``stack_limit`` nodes.

    Returns ``(tails, heads, codes, pre, post, count)``: with ``labeled``, the first ``count``
    entries of ``tails, heads, codes`` are ``dfs_labeled_edges``' triples (codes index
    :data:`LABELS`); otherwise they are the tree arcs (codes unused), ``pre`` the nodes in
    first-visit order and ``post`` the popped nodes in pop order (-1 past their ends)."""
    size = heads.shape[0] + 4 * n if labeled else n
    tails = np.empty(size, dtype=np.int64)
    ends = np.empty(size, dtype=np.int64)
    codes = np.empty(size if labeled else 0, dtype=np.int8)
    pre = np.full(0 if labeled else n, -1, dtype=np.int64)
    post = np.full(0 if labeled else n, -1, dtype=np.int64)
    visited = np.zeros(n, dtype=np.bool_)
    stack = np.empty(n, dtype=np.int64)
    at = np.empty(n, dtype=np.int64)  # each stacked node's next position in its row
    count = 0
    n_pre = 0
    n_post = 0
    for s in starts:
        if visited[s]:
            continue
        visited[s] = True
        if labeled:
            tails[count], ends[count], codes[count] = s, s, _FORWARD
            count += 1
        else:
            pre[n_pre] = s
            n_pre += 1
        top = 0
        stack[0] = s
        at[0] = indptr[s]
        while top >= 0:
            u = stack[top]
            p = at[top]
            end = indptr[u + 1]
            pushed = False
            while p < end:
                v = heads[p]
                p += 1
                if visited[v]:
                    if labeled:
                        tails[count], ends[count], codes[count] = u, v, _NONTREE
                        count += 1
                    continue
                visited[v] = True
                tails[count], ends[count] = u, v
                if labeled:
                    codes[count] = _FORWARD
                else:
                    pre[n_pre] = v
                    n_pre += 1
                count += 1
                if top + 1 < stack_limit:
                    at[top] = p
                    top += 1
                    stack[top] = v
                    at[top] = indptr[v]
                    pushed = True
                    break
                if labeled:
                    tails[count], ends[count], codes[count] = u, v, _AT_LIMIT
                    count += 1
            if pushed:
                continue
            top -= 1  # u's row is done: pop it
            if labeled:
                if top >= 0:
                    tails[count], ends[count], codes[count] = stack[top], u, _REVERSE
                    count += 1
            else:
                post[n_post] = u
                n_post += 1
        if labeled:
            tails[count], ends[count], codes[count] = s, s, _REVERSE
            count += 1
    return tails, ends, codes, pre, post, count


def stack_limit(depth_limit: Any, n: int) -> int:
    """The stack size NetworkX stops pushing at: it pushes while ``depth < depth_limit`` for
    the stack's size ``depth`` (from 1), so any number becomes the least int not below it
    (``None`` or above ``n``: no limit; ``NaN``, as every comparison with it fails: 0).

    Examples
    --------
    >>> stack_limit(2.5, 10), stack_limit(None, 10), stack_limit(float("nan"), 10)
    (3, 11, 0)
    >>> stack_limit(-float("inf"), 10), stack_limit(10**400, 10)
    (0, 11)
    """
    if depth_limit is None or depth_limit > n:  # (compared as given: ints of any size)
        return n + 1
    if not depth_limit > 0:  # NaN too
        return 0
    return math.ceil(depth_limit)


def _search(G, source: Any, depth_limit: Any, labeled: bool) -> tuple:
    """:func:`_depth_first` from ``source`` (None: every node in order) on the converted
    graph ``G``; ``source`` must be in ``G``."""
    n = len(G)
    starts = np.arange(n, dtype=np.int64) if source is None else np.array([G.find(source)])
    indptr = host(G.any_order.indptr)
    limit = stack_limit(depth_limit, n)
    return _depth_first(indptr, G.nx_order, starts, n, limit, labeled)


def _missing(G, source: Any) -> bool:
    """Whether ``source`` (not None) is not in ``G`` (``TypeError`` when it is unhashable,
    as NetworkX's ``start in visited``)."""
    return G.find(source) < 0


def _tree_arcs(G, source: Any, depth_limit: Any) -> tuple[np.ndarray, np.ndarray]:
    """``(parents, children)`` dense ids of NetworkX's ``dfs_edges`` in its order; raises its
    ``NetworkXError`` for a source not in ``G``."""
    if source is not None and _missing(G, source):
        raise node_error("neighbors", source, G.is_directed())
    tails, ends, _, _, _, count = _search(G, source, depth_limit, False)
    return tails[:count], ends[:count]


def _edge_pairs(G, first: np.ndarray, second: np.ndarray) -> list[tuple]:
    with gc_paused():
        return list(zip(G.label_list(first), G.label_list(second), strict=True))


def dfs_edges(
    G, source: Any = None, depth_limit: Any = None, *, sort_neighbors: Any = None
) -> Iterator[tuple]:
    """Generator of the DFS tree edges ``(parent, child)`` in NetworkX's order.

    Examples
    --------
    >>> import networkx as nx
    >>> G = nx.path_graph(5)
    >>> list(nx.dfs_edges(G, 0, backend="warpgraph"))
    [(0, 1), (1, 2), (2, 3), (3, 4)]
    """
    parents, children = _tree_arcs(G, source, depth_limit)
    yield from _edge_pairs(G, parents, children)


def dfs_tree(G, source: Any = None, depth_limit: Any = None, *, sort_neighbors: Any = None):
    """The DFS tree (forest, without a source) as a ``networkx.DiGraph`` built as NetworkX
    builds it: with a source, the nodes in first-visit order; without one, every node in
    ``G``'s order. Each node's children in visit order, one new data dict per edge.

    Examples
    --------
    >>> import networkx as nx
    >>> T = nx.dfs_tree(nx.cycle_graph(4), 0, backend="warpgraph")
    >>> list(T.edges)
    [(0, 1), (1, 2), (2, 3)]
    """
    if source is not None:
        G.find(source)  # (NetworkX's T.add_node: TypeError for an unhashable source first)
    parents, children = _tree_arcs(G, source, depth_limit)
    if source is not None:
        return bfs_tree_graph(G, G.find(source), parents, children)
    return _forest_graph(G, parents, children)


def _forest_graph(G, parents: np.ndarray, children: np.ndarray):
    """``networkx.DiGraph`` of every node of ``G`` in its order plus the forest arcs in the
    order given (NetworkX's ``add_nodes_from(G)`` then ``add_edges_from(arcs)``)."""
    import networkx as nx

    n = len(G)
    with gc_paused():
        T = nx.DiGraph()
        nodes = G.label_list(np.arange(n))
        T._node.update(zip(nodes, [{} for _ in range(n)], strict=True))
        data = [{} for _ in range(children.size)]
        by_parent = np.argsort(parents, kind="stable")
        kids = G.label_list(children[by_parent])
        T._succ.update(_dicts(nodes, parents[by_parent], kids, _pick(data, by_parent), n))
        arc_into = np.full(n, -1, dtype=np.int64)
        arc_into[children] = np.arange(children.size)
        made = [{p: d} for p, d in zip(G.label_list(parents), data, strict=True)]
        T._pred.update(
            zip(nodes, [made[j] if j >= 0 else {} for j in arc_into.tolist()], strict=True)
        )
    return T


def dfs_predecessors(
    G, source: Any = None, depth_limit: Any = None, *, sort_neighbors: Any = None
) -> dict:
    """``{child: parent}`` over NetworkX's DFS tree edges, in its order.

    Examples
    --------
    >>> import networkx as nx
    >>> nx.dfs_predecessors(nx.path_graph(4), 0, backend="warpgraph")
    {1: 0, 2: 1, 3: 2}
    """
    parents, children = _tree_arcs(G, source, depth_limit)
    if G.identity:  # the parents' labels are their ids: a dict of ints, built compiled
        return node_dict(G, children, parents)
    with gc_paused():
        return dict(zip(G.label_list(children), G.label_list(parents), strict=True))


def dfs_successors(
    G, source: Any = None, depth_limit: Any = None, *, sort_neighbors: Any = None
) -> dict:
    """``{parent: [children]}`` over NetworkX's DFS tree edges: parents in the order of their
    first tree edge, children in visit order.

    Examples
    --------
    >>> import networkx as nx
    >>> nx.dfs_successors(nx.star_graph(3), 0, backend="warpgraph")
    {0: [1, 2, 3]}
    """
    parents, children = _tree_arcs(G, source, depth_limit)
    if not parents.size:
        return {}
    by_parent = np.argsort(parents, kind="stable")
    grouped = parents[by_parent]
    bounds = np.flatnonzero(np.diff(grouped)) + 1
    firsts = np.concatenate(([0], bounds))
    # the groups in the order of their first edge (the first of a stable sort's group)
    order = np.argsort(by_parent[firsts], kind="stable")
    cuts = np.concatenate((firsts, [grouped.size]))
    with gc_paused():
        lists = split_list(G.label_list(children[by_parent]), cuts)
        keys = G.label_list(grouped[firsts][order])
        return dict(zip(keys, _pick(lists, order), strict=True))


def dfs_preorder_nodes(
    G, source: Any = None, depth_limit: Any = None, *, sort_neighbors: Any = None
) -> Iterator:
    """Generator of the nodes at their first visit, in NetworkX's order.

    Examples
    --------
    >>> import networkx as nx
    >>> list(nx.dfs_preorder_nodes(nx.path_graph(5), 0, depth_limit=2, backend="warpgraph"))
    [0, 1, 2]
    """
    if source is not None and _missing(G, source):
        yield source  # NetworkX yields the start before it reads its neighbours
        raise node_error("neighbors", source, G.is_directed())
    _, _, _, pre, _, _ = _search(G, source, depth_limit, False)
    with gc_paused():
        nodes = G.label_list(pre[: _filled(pre)])
    yield from nodes


def dfs_postorder_nodes(
    G, source: Any = None, depth_limit: Any = None, *, sort_neighbors: Any = None
) -> Iterator:
    """Generator of the nodes as NetworkX's search pops them (a node reached at the depth
    limit is not pushed, so not listed).

    Examples
    --------
    >>> import networkx as nx
    >>> list(nx.dfs_postorder_nodes(nx.path_graph(5), 0, backend="warpgraph"))
    [4, 3, 2, 1, 0]
    """
    if source is not None and _missing(G, source):
        raise node_error("neighbors", source, G.is_directed())
    _, _, _, _, post, _ = _search(G, source, depth_limit, False)
    with gc_paused():
        nodes = G.label_list(post[: _filled(post)])
    yield from nodes


def _filled(ids: np.ndarray) -> int:
    """How many entries of ``ids`` come before its -1 padding."""
    unset = np.flatnonzero(ids < 0)
    return int(unset[0]) if unset.size else ids.size


def dfs_labeled_edges(
    G, source: Any = None, depth_limit: Any = None, *, sort_neighbors: Any = None
) -> Iterator[tuple]:
    """Generator of NetworkX's ``(u, v, label)`` triples, label one of ``"forward"``,
    ``"nontree"``, ``"reverse"`` and ``"reverse-depth_limit"``, in its order.

    Examples
    --------
    >>> import networkx as nx
    >>> edges = nx.dfs_labeled_edges(nx.path_graph(2), 0, backend="warpgraph")
    >>> [label for _, _, label in edges]
    ['forward', 'forward', 'nontree', 'reverse', 'reverse']
    """
    if source is not None and _missing(G, source):
        yield source, source, LABELS[_FORWARD]  # as NetworkX, before reading the neighbours
        raise node_error("neighbors", source, G.is_directed())
    tails, ends, codes, _, _, count = _search(G, source, depth_limit, True)
    with gc_paused():
        names = np.array(LABELS, dtype=object)[codes[:count]].tolist()
        triples = list(
            zip(G.label_list(tails[:count]), G.label_list(ends[:count]), names, strict=True)
        )
    yield from triples
