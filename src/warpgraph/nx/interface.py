"""The backend object NetworkX loads (entry point ``networkx.backends``).

:func:`convert_from_nx` turns a NetworkX graph into a :class:`WarpgraphGraph`: a CSR
:class:`warpgraph.Graph` over dense ids ``0..n-1`` (in ``G``'s node order) plus the original
node labels, so results go back keyed by the user's nodes. NetworkX caches the converted graph
in ``G.__networkx_cache__`` (unless ``nx.config.cache_converted_graphs`` is off), so a second
call on an unchanged graph does not convert again.
"""

from __future__ import annotations

import inspect
from itertools import chain
from typing import Any

import numpy as np

from ..graph import Graph
from . import FUNCTIONS
from . import algorithms as _algorithms

__all__ = ["SMALL_GRAPH_EDGES", "WarpgraphGraph", "backend_interface"]

#: Below this many edges ``should_run`` declines: converting costs more than it saves.
SMALL_GRAPH_EDGES = 1000


class WarpgraphGraph:
    """A NetworkX graph converted for the warpgraph backend.

    Attributes
    ----------
    graph : warpgraph.Graph
        CSR over dense ids; id ``i`` is node ``nodes[i]``.
    nodes : list
        The original node labels in NetworkX's node order.
    weight : str or None
        Edge attribute read as the weight, if any.
    nx_order : ndarray or None
        The neighbour ids of ``graph.indptr``'s rows in NetworkX's adjacency order (``graph``'s
        rows are sorted by id); order-sensitive functions (``bfs_layers``) need it.
    """

    __networkx_backend__ = "warpgraph"

    def __init__(
        self, graph: Graph, nodes: list, weight: str | None = None, nx_order: Any = None
    ) -> None:
        self.graph = graph
        self.nodes = nodes
        self.weight = weight
        self.nx_order = nx_order
        self.__networkx_cache__: dict = {}
        self._index: dict | None = None
        self._labels: np.ndarray | None = None

    # NetworkX asks these of every graph it dispatches.
    def is_directed(self) -> bool:
        return self.graph.directed

    def is_multigraph(self) -> bool:
        return False

    def __len__(self) -> int:
        return len(self.nodes)

    def __iter__(self):
        return iter(self.nodes)

    def __contains__(self, node: Any) -> bool:
        try:
            return node in self.index
        except TypeError:  # unhashable: a container of nodes, never a node
            return False

    def __repr__(self) -> str:
        return f"WarpgraphGraph({self.graph!r})"

    @property
    def index(self) -> dict:
        """Node label -> dense id (built on first use)."""
        if self._index is None:
            self._index = {v: i for i, v in enumerate(self.nodes)}
        return self._index

    @property
    def labels(self) -> np.ndarray:
        """Node labels as an object array, for fancy indexing by dense ids."""
        if self._labels is None:
            # fromiter keeps tuple labels as single objects (np.array would make a 2-D array).
            self._labels = np.fromiter(self.nodes, dtype=object, count=len(self.nodes))
        return self._labels

    def node_id(self, node: Any) -> int:
        """Dense id of ``node``; raises ``networkx.NodeNotFound`` if it is not in the graph."""
        if node not in self:
            import networkx as nx

            raise nx.NodeNotFound(f"Node {node} is not in G")
        return self.index[node]

    def to_networkx(self):
        """The graph as a NetworkX ``Graph``/``DiGraph`` with the original labels."""
        import networkx as nx

        H = nx.DiGraph() if self.graph.directed else nx.Graph()
        H.add_nodes_from(self.nodes)
        src, dst, w = (None if a is None else _host(a) for a in self.graph.edges())
        lab = self.labels
        ends = zip(lab[src].tolist(), lab[dst].tolist(), strict=True)
        if w is None:
            H.add_edges_from(ends)
        else:
            weighted = ((u, v, x) for (u, v), x in zip(ends, w.tolist(), strict=True))
            H.add_weighted_edges_from(weighted, weight=self.weight or "weight")
        return H


def _host(a: Any) -> np.ndarray:
    return a.get() if hasattr(a, "get") else np.asarray(a)


def _csr_from_adjacency(G: Any, nodes: list, weight: str | None) -> tuple[Graph, np.ndarray]:
    """CSR straight from NetworkX's adjacency dicts: one pass, no edge list in between.

    An undirected NetworkX graph already stores both arcs of every edge (a self-loop once), which
    is warpgraph's layout; a directed one stores out-arcs. Rows are sorted by ``Graph`` (on a
    copy); the neighbour ids in NetworkX's order come back too.
    """
    adj = getattr(G, "_adj", None) or G.adj
    rows = [adj[v] for v in nodes]
    n = len(nodes)
    indptr = np.zeros(n + 1, dtype=np.int64)
    np.cumsum(np.fromiter(map(len, rows), dtype=np.int64, count=n), out=indptr[1:])
    arcs = int(indptr[-1])
    index = {v: i for i, v in enumerate(nodes)}
    indices = np.fromiter(map(index.__getitem__, chain.from_iterable(rows)), np.int64, arcs)
    weights = None
    if weight is not None:
        data = chain.from_iterable(r.values() for r in rows)
        try:
            weights = np.fromiter((d.get(weight, 1) for d in data), np.float64, arcs)
        except (TypeError, ValueError) as exc:
            raise TypeError(f"edge attribute {weight!r} is not numeric: {exc}") from None
        if np.all(weights == np.round(weights)) and np.all(np.abs(weights) < 2**53):
            weights = weights.astype(np.int64)  # integer weights stay integers
    if n >= 2**31 - 1:
        raise NotImplementedError("graphs of 2**31 or more nodes are not supported")
    nx_order = indices.astype(np.int32)
    graph = Graph(indptr, nx_order, weights, directed=G.is_directed())
    if nodes != list(range(n)):
        graph.vertex_labels = nodes
    return graph, nx_order


def _weight_attribute(edge_attrs: Any, preserve_edge_attrs: bool, G: Any) -> str | None:
    """The one edge attribute to read as weights (or None)."""
    if isinstance(edge_attrs, str):
        return edge_attrs
    if edge_attrs:
        names = [k for k in edge_attrs if k is not None]
        if len(names) > 1:
            raise NotImplementedError(
                f"the warpgraph backend reads one edge attribute, got {sorted(map(str, names))}"
            )
        return names[0] if names else None
    if preserve_edge_attrs:
        return "weight"
    return None


class BackendInterface:
    """NetworkX's view of warpgraph: conversions, ``can_run``/``should_run`` and functions."""

    @staticmethod
    def convert_from_nx(
        G: Any,
        edge_attrs: Any = None,
        node_attrs: Any = None,
        preserve_edge_attrs: bool = False,
        preserve_node_attrs: bool = False,
        preserve_graph_attrs: bool = False,
        preserve_all_attrs: bool = False,
        name: str | None = None,
        graph_name: str | None = None,
    ) -> WarpgraphGraph:
        """NetworkX graph -> :class:`WarpgraphGraph`; multigraphs are refused."""
        if isinstance(G, WarpgraphGraph):
            return G
        if G.is_multigraph():
            import networkx as nx

            kind = type(G).__name__
            raise nx.NetworkXNotImplemented(
                f"the warpgraph backend does not support multigraphs (got a {kind}"
                f"{'' if name is None else f' in {name}'}); convert it with nx.Graph(G) or "
                "nx.DiGraph(G) (parallel edges become one) or call without backend='warpgraph'"
            )
        weight = _weight_attribute(edge_attrs, preserve_edge_attrs or preserve_all_attrs, G)
        nodes = list(G)
        graph, nx_order = _csr_from_adjacency(G, nodes, weight)
        return WarpgraphGraph(graph, nodes, weight, nx_order)

    @staticmethod
    def convert_to_nx(result: Any, *, name: str | None = None) -> Any:
        """Backend graphs go back to NetworkX graphs; every other result is already plain."""
        if isinstance(result, WarpgraphGraph):
            return result.to_networkx()
        return result

    @staticmethod
    def can_run(name: str, args: tuple, kwargs: dict) -> bool | str:
        """True when warpgraph computes exactly what NetworkX would for these arguments."""
        func = getattr(_algorithms, name, None)
        if func is None or name not in FUNCTIONS:
            return f"{name} is not implemented by warpgraph"
        try:
            bound = inspect.signature(func).bind(*args, **kwargs)
        except TypeError as exc:
            return f"arguments not understood: {exc}"
        check = _algorithms.ARGUMENT_CHECKS.get(name)
        return True if check is None else check(**bound.arguments)

    @staticmethod
    def should_run(name: str, args: tuple, kwargs: dict) -> bool | str:
        """Decline multigraphs and small graphs, where NetworkX itself is as fast."""
        G = args[0] if args else kwargs.get("G")
        if getattr(G, "__networkx_backend__", "networkx") == "warpgraph":
            return True
        if G is None or not hasattr(G, "number_of_edges"):
            return "no graph argument"
        if G.is_multigraph():
            return "multigraphs are not supported"
        if G.number_of_edges() < SMALL_GRAPH_EDGES:
            return f"graph has fewer than {SMALL_GRAPH_EDGES} edges: conversion costs more"
        return True


for _name in FUNCTIONS:
    setattr(BackendInterface, _name, staticmethod(getattr(_algorithms, _name)))

#: The object behind the ``networkx.backends`` entry point.
backend_interface = BackendInterface()
