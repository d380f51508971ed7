"""The backend object NetworkX loads (entry point ``networkx.backends``).

:meth:`BackendInterface.convert_from_nx` turns a NetworkX graph into a :class:`WarpgraphGraph`:
a CSR :class:`warpgraph.Graph` over dense ids ``0..n-1`` (in ``G``'s node order) plus the
original node labels, so results go back keyed by the user's nodes. NetworkX caches the
converted graph in ``G.__networkx_cache__`` (unless ``nx.config.cache_converted_graphs`` is
off), so a second call on an unchanged graph does not convert again; the copies of the graph on
the GPU and with weights from other edge attributes are cached on the converted graph too.
How the NetworkX graph is read (its structure, an edge attribute's values) is in
:mod:`._from_networkx`.
"""

from __future__ import annotations

import functools
import inspect
import weakref
from typing import Any

import numpy as np

from ..graph import Graph
from . import FUNCTIONS
from . import algorithms as _algorithms
from ._common import gc_paused, has_edges, host, not_implemented
from ._from_networkx import (
    Weighted,
    _read_weights,
    _rows,
    _structure,
    _view_of_weights,
    _weight_attribute,
)
from ._networkx_own import (
    LOCAL_CALLS,
    SHORT_CALLS,
    WEIGHTED_CALLS,
    answered_by_networkx_when_few,
)

__all__ = ["SMALL_GRAPH_EDGES", "WarpgraphGraph", "Weighted", "backend_interface"]

#: Below this many edges ``should_run`` declines: converting costs more than it saves.
SMALL_GRAPH_EDGES = 1000


class WarpgraphGraph:
    """A NetworkX graph converted for the warpgraph backend.

    Attributes
    ----------
    graph : warpgraph.Graph
        CSR over dense ids on the CPU, rows sorted; id ``i`` is node ``nodes[i]``.
    nodes : list
        The original node labels in NetworkX's node order. For the labels ``0..n-1`` in
        order the conversion passes ``range(n)`` and the list is made on first use, from the
        source graph's own label objects where it is still there: building a result dict or set
        from existing ``int`` objects costs half as much as from new ones.
    weight : str or None
        Edge attribute read as ``graph.weights`` at conversion, if any.
    nx_order : ndarray
        The neighbour ids of ``graph.indptr``'s rows in NetworkX's adjacency order (``graph``'s
        rows are sorted by id); order-sensitive functions (``bfs_layers``) need it.
    any_order : warpgraph.Graph
        The same arcs with rows in NetworkX's order where they are not sorted: for the
        functions whose result does not depend on the order within a row (components, cores,
        BFS levels), which then spare the conversion the row sort (``graph`` is sorted on first
        use: ~4 ms per million edges on 16 cores, ~35 ms on 2).
    source : networkx.Graph or None
        The graph this was converted from (a weak reference), for results that copy its
        attributes (``k_core``) and for weights of other edge attributes.
    """

    __networkx_backend__ = "warpgraph"

    def __init__(
        self,
        graph: Graph,
        nodes: list,
        weight: str | None = None,
        nx_order: Any = None,
        *,
        perm: np.ndarray | None = None,
        source: Any = None,
        weight_kind: str | None = None,
        unsorted_rows: int = 0,
    ) -> None:
        # ``graph``'s rows are sorted, unless ``unsorted_rows`` (then it is the CSR of
        # ``nx_order``, and the sorted one with ``perm`` is made when first asked for)
        self._graph = None if unsorted_rows else graph
        self.any_order = graph
        self._unsorted_rows = unsorted_rows
        self._nodes = nodes
        self._n = len(nodes)
        self.weight = weight
        self.nx_order = host(graph.indices) if nx_order is None else nx_order
        self.__networkx_cache__: dict = {}
        self._sorted_perm = perm  # sorted CSR position -> NetworkX adjacency position
        self._source = None if source is None else weakref.ref(source)
        self._index: dict | None = None
        self._labels: np.ndarray | None = None
        self.identity = False  # the labels are the ints 0..n-1 in order (set by the conversion)
        self._node_hashes: np.ndarray | None = None  # distinct hashes of ``nodes`` (conversion)
        self._lookups = 0
        self._placed: dict = {}
        self._weighted: dict = {}
        # (attr, default) -> (values, kind, hidden) in NetworkX's adjacency order, as read at
        # conversion or first use; the sorted view in ``_weighted`` is made from it when asked
        self._nx_weights: dict = {}
        self._nx_pred_weights: dict = {}
        if weight is not None and graph.weights is not None:
            self._weighted[weight, 1] = Weighted(graph, weight_kind or "float")

    @property
    def nodes(self) -> list:
        """The node labels in NetworkX's order (see the class docstring)."""
        if type(self._nodes) is range:
            src = self.source
            own = getattr(src, "_node", None) if src is not None else None
            same = type(own) is dict and len(own) == self._n and _int_ends(own)
            self._nodes = list(own) if same else list(self._nodes)
        return self._nodes

    @property
    def graph(self) -> Graph:
        """CSR over dense ids, rows sorted by neighbour id (sorted on first use)."""
        if self._graph is None:
            from ._csr import sort_rows

            g = self.any_order
            ids, self._sorted_perm = sort_rows(g.indptr, g.indices, self._unsorted_rows)
            self._graph = Graph(g.indptr, ids, None, directed=g.directed, validate=False)
            self._graph.vertex_labels = g.vertex_labels
            self._graph._num_self_loops = g._num_self_loops  # the same arcs
        return self._graph

    @property
    def _perm(self) -> np.ndarray | None:
        """Sorted CSR position -> NetworkX adjacency position (None: the same)."""
        if self._graph is None:
            _ = self.graph  # sorts the rows and sets the permutation
        return self._sorted_perm

    @classmethod
    def deferred(cls, G: Any) -> WarpgraphGraph:
        """A conversion of ``G`` whose structure is read on first use (any attribute of the
        structure asked for), for a function that may answer from ``G``'s own dicts first
        (:data:`DEFERRED`). Until then it holds ``G`` itself (:attr:`pending`); afterwards it
        is the eager conversion, attribute for attribute."""
        if not (hasattr(G, "_adj") and hasattr(G, "is_directed")):
            raise TypeError(f"a NetworkX graph is deferred, not {type(G).__name__}")
        W = cls.__new__(cls)
        W.__networkx_cache__ = {}
        W._pending = G
        W._source = weakref.ref(G)
        W.weight = None
        return W

    def adopt_labels(self, identity: bool, node_hashes: np.ndarray | None) -> None:
        """On a deferred conversion: take the node labels as a read of the source's dicts
        found them (``identity``: the ints ``0..n-1`` in order; else their distinct hashes by
        dense id, or None), so that results made of labels (sets, dicts) are built without
        converting the structure. Nothing happens once the structure was converted.

        Raises
        ------
        ValueError
            When ``node_hashes`` is not one hash per node (and the labels are not ``0..n-1``).
        """
        G = self.pending
        if not self.labels_unread:
            return
        n = len(G)
        shape = np.shape(node_hashes)
        if not identity and node_hashes is not None and shape != (n,):
            raise ValueError(f"adopt_labels takes one node hash per node ({n}), got shape {shape}")
        self._nodes = range(n) if identity else list(G)
        self._n = n
        self.identity = identity
        self._node_hashes = None if identity else node_hashes
        self._index = None
        self._labels = None
        self._lookups = 0

    @property
    def labels_unread(self) -> bool:
        """A deferred conversion whose node labels were neither adopted
        (:meth:`adopt_labels`) nor converted: nothing is known of their order yet."""
        return self.pending is not None and "_n" not in self.__dict__

    @property
    def pending(self) -> Any:
        """The NetworkX graph not read yet (a deferred conversion), else None."""
        return self.__dict__.get("_pending")

    def __getattr__(self, name: str) -> Any:
        # Reached only for attributes not set: those of the structure, on a deferred
        # conversion. The eager conversion is made now and adopted.
        G = self.__dict__.get("_pending")
        if G is None or name.startswith("__"):
            raise AttributeError(f"{type(self).__name__!r} object has no attribute {name!r}")
        self.convert_pending()
        return getattr(self, name)

    def convert_pending(self, edge_attrs: Any = None) -> None:
        """Make a deferred conversion eager now (nothing happens to an eager one), reading
        the weights of ``edge_attrs`` (``{name: default}``, as NetworkX passes them) in the
        same scan of the dicts: later :meth:`nx_weights` calls for them find them read. A
        deferred function that needs weights calls this; any other first use of the
        structure converts without weights."""
        G = self.__dict__.get("_pending")
        if G is None:
            return
        eager = backend_interface.convert_from_nx(G, edge_attrs=edge_attrs)  # (if it raises,
        own_cache = self.__networkx_cache__  # still deferred)
        del self.__dict__["_pending"]
        self.__dict__.update(eager.__dict__)
        self.__networkx_cache__ = own_cache

    # NetworkX asks these of every graph it dispatches.
    def is_directed(self) -> bool:
        G = self.pending
        return G.is_directed() if G is not None else self.any_order.directed

    def is_multigraph(self) -> bool:
        return False

    def __len__(self) -> int:
        G = self.pending
        return len(G) if G is not None else self._n

    def __iter__(self):
        return iter(self.nodes)

    def __contains__(self, node: Any) -> bool:
        try:
            return self.find(node) >= 0
        except TypeError:  # unhashable: a container of nodes, never a node
            return False

    def find(self, node: Any) -> int:
        """Dense id of ``node``, or -1 when it is not in the graph (``TypeError`` when it is
        not hashable), as a dict look-up finds it (equal hash, then ``is`` or ``==``).

        The first few look-ups do not build :attr:`index` (a dict of every label, 40 ms for
        500k nodes): for the labels ``0..n-1`` an ``int`` is its own id, and otherwise the
        node hashes read at conversion (distinct there) are scanned for ``hash(node)``.
        """
        if self.identity and type(node) is int:  # (first: no index is ever needed for these)
            return node if 0 <= node < self._n else -1
        if self._index is not None or self._node_hashes is None or self._lookups >= 8:
            return self.index.get(node, -1)
        h = hash(node)
        self._lookups += 1
        found = np.flatnonzero(self._node_hashes == h)
        if not found.size:
            return -1
        i = int(found[0])
        label = self.nodes[i]
        return i if label is node or label == node else -1

    def __repr__(self) -> str:
        return f"WarpgraphGraph({self.graph!r})"

    @property
    def index(self) -> dict:
        """Node label -> dense id (built on first use)."""
        if self._index is None:
            with gc_paused():
                self._index = {v: i for i, v in enumerate(self.nodes)}
        return self._index

    @property
    def labels(self) -> np.ndarray:
        """Node labels as an object array, for fancy indexing by dense ids."""
        if self._labels is None:
            # fromiter keeps tuple labels as single objects (np.array would make a 2-D array).
            self._labels = np.fromiter(self.nodes, dtype=object, count=len(self.nodes))
        return self._labels

    def label_list(self, ids: Any) -> list:
        """The labels of dense ids ``ids`` (an integer array, or a boolean mask over the ids) as
        a list. For the labels ``0..n-1`` these are the ids themselves, made as new ``int``
        objects: equal to the graph's, and cheaper to make and to hash than fetching each
        label object from wherever it lies in memory; but every node in order is a copy of
        :attr:`nodes` (the existing objects, in memory order: 5x cheaper for 500k nodes)."""
        ids = np.asarray(ids)
        if ids.size == self._n and (ids.all() if ids.dtype == np.bool_ else _is_arange(ids)):
            return list(self.nodes)
        if self.identity:
            return (np.flatnonzero(ids) if ids.dtype == np.bool_ else ids).tolist()
        return self.labels[ids].tolist()

    @property
    def source(self) -> Any:
        """The NetworkX graph this was converted from, or None when it is gone."""
        return None if self._source is None else self._source()

    def node_id(self, node: Any) -> int:
        """Dense id of ``node``; raises ``networkx.NodeNotFound`` if it is not in the graph."""
        if node not in self:
            import networkx as nx

            raise nx.NodeNotFound(f"Node {node} is not in G")
        return self.find(node)

    def on(self, device: str, graph: Graph | None = None, *, any_order: bool = False) -> Graph:
        """``graph`` (default :attr:`graph`) on ``device``, copied there once and cached.

        With ``any_order`` (for results that do not depend on the order of a row's arcs) the
        default is whichever of :attr:`graph` and :attr:`any_order` is already there, else the
        sorted one if it was made, else :attr:`any_order`: no row sort and one copy at most.
        """
        if graph is None and any_order and self._graph is not self.any_order:
            made = [g for g in (self._graph, self.any_order) if g is not None]
            placed = [g for g in made if g.device == device or (id(g), device) in self._placed]
            graph = (placed or made)[0]
        graph = self.graph if graph is None else graph
        if device == graph.device:
            return graph
        key = (id(graph), device)
        placed = self._placed.get(key)
        if placed is None or placed[0] is not graph:
            placed = self._placed[key] = (graph, graph.to(device))
        return placed[1]

    def weighted(self, attr: str, default: Any = 1) -> Weighted:
        """The graph weighted by edge attribute ``attr`` (``default`` where it is missing).

        Read from the source NetworkX graph on first use and cached.

        Raises
        ------
        NotImplementedError
            When the source graph is gone or no longer matches this conversion.
        """
        key = (attr, default)
        found = self._weighted.get(key)
        if found is not None:
            return found
        read = self.nx_weights(attr, default)
        with gc_paused():
            found = _view_of_weights(self.graph, self._perm, *read)
        self._weighted[key] = found
        return found

    def nx_weights(self, attr: str, default: Any = 1) -> tuple[np.ndarray, str, Any]:
        """``(values, kind, hidden)`` of edge attribute ``attr`` on every arc in NetworkX's
        adjacency order (see :class:`Weighted`), read once and cached; unlike
        :meth:`weighted` it does not sort the rows.

        Raises
        ------
        NotImplementedError
            As :meth:`weighted`.
        """
        return self._arc_values(self._nx_weights, False, attr, default)

    def nx_pred_weights(self, attr: str, default: Any = 1) -> tuple[np.ndarray, str, Any]:
        """As :meth:`nx_weights`, on a directed graph's ``_pred`` rows in NetworkX's order (the
        rows of :func:`._component_order.nx_pred_rows`; the same data dicts, read in that
        order), for NetworkX's weighted searches of its reverse view."""
        return self._arc_values(self._nx_pred_weights, True, attr, default)

    def _arc_values(self, cache: dict, pred: bool, attr: str, default: Any) -> tuple:
        """:meth:`nx_weights` (``pred``: :meth:`nx_pred_weights`), cached in ``cache``."""
        key = (attr, default)
        found = cache.get(key)
        if found is not None:
            return found
        src = self.source
        if src is None:
            raise not_implemented(
                f"weights {attr!r} were not read at conversion and the NetworkX graph is gone"
            )
        from . import _cpython as raw

        rows = list(map(src._pred.__getitem__, self.nodes)) if pred else _rows(src, self.nodes)
        arcs = self.any_order.num_arcs
        if sum(map(len, rows)) != arcs:
            raise not_implemented("the NetworkX graph changed after it was converted")
        table = raw.arc_hashes(rows) if raw.available() else None  # data-dict addresses
        with gc_paused():
            found = cache[key] = _read_weights(rows, attr, default, arcs, table)
        return found

    def constant_weight(self, attr: str, default: Any = 1) -> float | None:
        """The value every arc has for ``attr`` when it is one finite ``int`` or ``float``
        (an attribute missing everywhere gives ``default``), else None. Reads the weights as
        :meth:`nx_weights`, without sorting the rows."""
        from ._csr import count_other_than

        values, kind, hidden = self.nx_weights(attr, default)
        if hidden is not None or kind not in ("int", "float") or not values.size:
            return None
        first = values[0]
        if not np.isfinite(first) or count_other_than(values, first):
            return None
        return float(first)

    def to_networkx(self):
        """The graph as a NetworkX ``Graph``/``DiGraph`` with the original labels."""
        import networkx as nx

        H = nx.DiGraph() if self.graph.directed else nx.Graph()
        H.add_nodes_from(self.nodes)
        graph = self.graph
        if self.weight is not None:
            key = next(k for k in (*self._weighted, *self._nx_weights) if k[0] == self.weight)
            graph = self.weighted(*key).graph
        src, dst, w = (None if a is None else host(a) for a in graph.edges())
        lab = self.labels
        ends = zip(lab[src].tolist(), lab[dst].tolist(), strict=True)
        if w is None:
            H.add_edges_from(ends)
        else:
            weighted = ((u, v, x) for (u, v), x in zip(ends, w.tolist(), strict=True))
            H.add_weighted_edges_from(weighted, weight=self.weight or "weight")
        return H


#: Functions whose graph is converted on first use (:meth:`WarpgraphGraph.deferred`): they may
#: answer from the NetworkX dicts alone, by reading the row lengths in place (131k nodes in
#: well under 1 ms): ``is_strongly_connected``, ``is_attracting_component`` and
#: ``is_aperiodic`` (a node without an out- or an in-arc), ``is_connected``,
#: ``is_weakly_connected`` and ``is_semiconnected`` (a node without any arc; the weak
#: components, read in place, for ``is_semiconnected``).
#: ``descendants_at_distance``: a short search runs on the NetworkX dicts themselves
#: (:func:`.traversal.descendants_at_distance`); so do ``descendants`` and ``ancestors`` while
#: they find few nodes (:mod:`.reachability`). The weak component functions count while they
#: read the dicts, with no conversion (:mod:`._dict_components`). ``is_directed_acyclic_graph``
#: looks for a cycle on the dicts first (:mod:`.dag`). The tree recognition functions count the
#: row entries in place, which answers most graphs that are not trees or forests (:mod:`.trees`).
DEFERRED = frozenset(
    {
        "is_strongly_connected",
        "is_attracting_component",
        "is_aperiodic",
        "is_semiconnected",
        "is_directed_acyclic_graph",
        "is_connected",
        "is_weakly_connected",
        "descendants_at_distance",
        "descendants",
        "ancestors",
        "connected_components",
        "number_connected_components",
        "node_connected_component",
        "weakly_connected_components",
        "number_weakly_connected_components",
        "dag_longest_path_length",
        "dag_longest_path",
        "is_tree",
        "is_forest",
        "is_branching",
        "is_arborescence",
    }
    | SHORT_CALLS.keys()  # (a search that reaches few nodes: NetworkX's own call, first)
    | LOCAL_CALLS.keys()  # (a few nodes of little work named: the same)
)
#: Deferred functions that take edge weights: they read them when they need them, from the
#: source graph (:meth:`WarpgraphGraph.nx_weights`), after the checks on its dicts.
#: ``dag_longest_path_length`` and ``dag_longest_path`` raise NetworkX's ``NetworkXUnfeasible``
#: for a cycle found there.
DEFERRED_WEIGHTED = frozenset({"dag_longest_path_length", "dag_longest_path"}) | WEIGHTED_CALLS


#: Whether :func:`._arenas.keep_object_arenas` ran, with :func:`.._alloc.raise_trim_threshold`
#: (both at the first conversion).
_ARENAS: list[bool] = []


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
        """NetworkX graph -> :class:`WarpgraphGraph`; multigraphs are refused.

        Only the structure is read now, plus the one edge attribute named by ``edge_attrs``;
        other attributes (``preserve_*_attrs``) stay in the NetworkX graph, which the result
        refers to (weakly) and reads when a function needs them.
        """
        if isinstance(G, WarpgraphGraph):
            return G
        if not _ARENAS:  # results of many Python objects to come: their memory kept, once
            from .._alloc import raise_trim_threshold
            from ._arenas import keep_object_arenas

            _ARENAS.append(keep_object_arenas())
            raise_trim_threshold()
        if G.is_multigraph():
            import networkx as nx

            kind = type(G).__name__
            raise nx.NetworkXNotImplemented(
                f"the warpgraph backend does not support multigraphs (got a {kind}"
                f"{'' if name is None else f' in {name}'}); convert it with nx.Graph(G) or "
                "nx.DiGraph(G) (parallel edges become one) or call without backend='warpgraph'"
            )
        weight, default = _weight_attribute(edge_attrs)
        if (
            name in DEFERRED
            and (weight is None or name in DEFERRED_WEIGHTED)
            and type(G).__module__.startswith("networkx.")
        ):
            return WarpgraphGraph.deferred(G)
        with gc_paused():
            attribute = None if weight is None else (weight, default)
            graph, nx_order, unsorted, rows, table, nodes = _structure(G, None, attribute)
            if weight is not None and rows is None:  # listed only if Python reads the weights
                rows = G._adj.values  # in node order (checked by _structure)
        W = WarpgraphGraph(graph, nodes, None, nx_order, unsorted_rows=unsorted, source=G)
        W.identity = graph.vertex_labels is None  # _structure found the labels 0..n-1
        if table is not None:
            W._node_hashes = table.node_hashes
        if weight is not None:  # read now: the cached conversion must not depend on G later
            W.weight = weight
            with gc_paused():  # (the sorted view waits for W.weighted: it sorts the rows)
                arcs = graph.num_arcs
                W._nx_weights[weight, default] = _read_weights(rows, weight, default, arcs, table)
        return W

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
            bound = _signature(name).bind(*args, **kwargs)
        except TypeError as exc:
            return f"arguments not understood: {exc}"
        G = next(iter(bound.arguments.values()), None)  # every function takes G first
        if G is not None and G.is_multigraph():
            return (
                "multigraphs are not supported by the warpgraph backend; convert with "
                "nx.Graph(G) or nx.DiGraph(G) (parallel edges become one)"
            )
        check = _algorithms.ARGUMENT_CHECKS.get(name)
        return True if check is None else check(**bound.arguments)

    @staticmethod
    def should_run(name: str, args: tuple, kwargs: dict) -> bool | str:
        """Decline multigraphs and small graphs, where NetworkX itself is as fast. Asked on
        every automatically dispatched call, so it reads only a few rows, once per graph
        (:func:`._common.graph_fact`): NetworkX's own ``G.number_of_edges()`` sums every
        degree in Python (63 ms on a 501k-node lattice)."""
        G = args[0] if args else kwargs.get("G")
        if getattr(G, "__networkx_backend__", "networkx") == "warpgraph":
            return True
        if G is None or not hasattr(G, "number_of_edges"):
            return "no graph argument"
        if G.is_multigraph():
            return "multigraphs are not supported"
        if not has_edges(G, SMALL_GRAPH_EDGES):
            return f"graph has fewer than {SMALL_GRAPH_EDGES} edges: conversion costs more"
        # (no decline of a short ``descendants_at_distance`` since session 57: ours searches
        # the dicts unconverted, while NetworkX's own code calls the dispatched
        # ``bfs_layers``, which converted the graph: 12 ms on grid:708, then 0.15 ms a call)
        return True


@functools.cache
def _signature(name: str) -> inspect.Signature:
    """The signature of warpgraph's ``name`` (made once: ``inspect.signature`` costs ~30 us,
    and :meth:`BackendInterface.can_run` binds every dispatched call's arguments)."""
    return inspect.signature(getattr(_algorithms, name))


def _is_arange(ids: np.ndarray) -> bool:
    """Whether the integer array ``ids`` is ``0, 1, ..., len - 1``."""
    if ids.size == 0:
        return True
    return bool(ids[0] == 0 and ids[-1] == ids.size - 1 and (np.diff(ids) == 1).all())


def _int_ends(d: dict) -> bool:
    """Whether the dict's first and last keys are the ints ``0`` and ``len - 1``: the
    source still has the labels the conversion found to be ``0..n-1`` (O(1); NetworkX's own
    methods clear the cached conversion when they change the graph)."""
    if not d:
        return True
    first, last = next(iter(d)), next(reversed(d))
    return type(first) is int and type(last) is int and first == 0 and last == len(d) - 1


for _name in FUNCTIONS:  # (a search that reaches few nodes: NetworkX's own call, first)
    _ours = answered_by_networkx_when_few(_name, getattr(_algorithms, _name))
    setattr(BackendInterface, _name, staticmethod(_ours))

#: The object behind the ``networkx.backends`` entry point.
backend_interface = BackendInterface()
