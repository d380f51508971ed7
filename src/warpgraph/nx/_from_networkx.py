"""Reading a NetworkX graph for the backend's conversion (:mod:`.interface`): its structure
(:func:`_structure`: the CSR over dense ids, the labels, the rows read in place) and the values
of one edge attribute as weights (:func:`_read_weights` in NetworkX's order, then
:func:`_view_of_weights`, a :class:`Weighted`).

Examples
--------
>>> import networkx as nx
>>> G = nx.path_graph(3)
>>> nx.set_edge_attributes(G, {(0, 1): 2, (1, 2): 5}, "w")
>>> _weight_attribute({"w": 1}), _identity_labels(list(G))
(('w', 1), True)
>>> graph = _structure(G, list(G))[0]
>>> graph.num_vertices, graph.num_arcs
(3, 4)
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import chain
from typing import Any, NamedTuple

import numpy as np

from ..graph import Graph


class Weighted(NamedTuple):
    """The graph with the weights of one edge attribute, and what kind of values they were.

    ``kind`` is ``"int"`` (every value a Python ``int``: NetworkX's sums are ints), ``"float"``
    (every value a ``float``), ``"mixed"`` (both: the type of a NetworkX distance then depends
    on its path) or ``"other"`` (NumPy scalars, fractions...). ``hidden`` says that some values
    were ``None``: NetworkX's Dijkstra skips those edges, and ``graph`` leaves them out.
    """

    graph: Graph
    kind: str
    hidden: bool = False
    nx_values: np.ndarray | None = None  # the weights in NetworkX's adjacency order ...
    nx_hidden: np.ndarray | None = None  # ... and which of them are None


_PLAIN = ("Graph", "DiGraph")


def _rows(G: Any, nodes: list) -> list:
    adj = getattr(G, "_adj", None) or G.adj
    return list(map(adj.__getitem__, nodes))


def _read_weights(
    rows: Any,
    attr: str,
    default: Any,
    arcs: int,
    table: Any = None,
) -> tuple[np.ndarray, str, np.ndarray | None]:
    """Values of ``attr`` on every arc in NetworkX's adjacency order, their kind (see
    :class:`Weighted`) and the mask of ``None`` values (or None).

    ``table`` (what :func:`_cpython.arc_hashes` or :func:`_cpython.adjacency` read from the
    rows, if it did) lets the values be taken as decoded in the conversion's scan, or decoded
    in place from the data-dict addresses, without a Python call per arc. ``rows`` is the list
    of adjacency dicts, or a function listing them (called only when Python must read them).
    """
    found = None
    decoded = getattr(table, "decoded", None)
    if decoded is not None and decoded.name == attr and decoded.default is default:
        found = _weights_decoded(decoded, arcs)
    elif table is not None and table.addresses is not None and table.addresses.size == arcs:
        from ._dict_attrs import decode_attribute

        found = _weights_decoded(decode_attribute(table.addresses, attr, default), arcs)
    if found is not None:
        return found
    if callable(rows):
        rows = rows()
    values = [d.get(attr, default) for r in rows for d in r.values()]
    types = set(map(type, values))
    hidden = None
    if type(None) in types:
        hidden = np.fromiter((x is None for x in values), dtype=np.bool_, count=arcs)
        values = [0 if x is None else x for x in values]
        types.discard(type(None))
    if types <= {int, bool}:
        kind = "int"
    elif types == {float}:
        kind = "float"
    elif types <= {int, bool, float}:
        kind = "mixed"
    else:
        kind = "other"
    try:
        dtype = np.int64 if kind == "int" else np.float64
        out = np.array(values, dtype=dtype) if values else np.zeros(0, dtype)
    except OverflowError:  # ints beyond int64
        out, kind = np.array(values, dtype=np.float64), "other"
    except (TypeError, ValueError):  # not numbers: the functions leave these to NetworkX
        out, kind = np.zeros(arcs, dtype=np.float64), "other"
    return out, kind, hidden


def _weights_decoded(decoded: Any, arcs: int) -> tuple[np.ndarray, str, np.ndarray | None] | None:
    """:func:`_read_weights` from what the conversion's scan decoded
    (:class:`._dict_attrs.Decoded`); None when a value (or the default, where the attribute is
    missing) is not a plain ``int`` (within int64), ``float`` or ``None``: then Python reads
    them."""
    from ._dict_attrs import FLOAT, INT, MISSING, NONE, OTHER

    counts = decoded.counts
    if counts[OTHER] or counts[MISSING] or decoded.bits.size != arcs:
        return None
    bits, codes = decoded.bits, decoded.codes
    hidden = codes == NONE if counts[NONE] else None
    if not counts[FLOAT]:  # None values hold 0
        return bits, "int", hidden
    floats = bits.view(np.float64)  # None values hold 0, the bits of 0.0
    if not counts[INT]:
        return floats, "float", hidden
    return np.where(codes == INT, bits.astype(np.float64), floats), "mixed", hidden


def _structure(
    G: Any, nodes: list | None = None, attribute: tuple[str, Any] | None = None
) -> tuple[Graph, np.ndarray, int, list, Any, Sequence]:
    """CSR straight from NetworkX's adjacency dicts: one pass, no edge list in between.

    An undirected NetworkX graph already stores both arcs of every edge (a self-loop once), which
    is warpgraph's layout; a directed one stores out-arcs. Returns the unweighted graph with
    its rows in NetworkX's order, those neighbour ids, how many rows are not sorted by id (the
    sort is left to :attr:`WarpgraphGraph.graph`), the adjacency rows read (None when
    they were read in place as ``G._adj``'s values), what :func:`_cpython.adjacency` read
    from them (None when they were iterated in Python), with the edge attribute ``attribute``
    (``(name, default)``) decoded in the same scan, and the node labels in ``G``'s order
    (``nodes``, default ``list(G)``; ``range(n)`` when the table read in place shows the
    labels ``0..n-1`` in order, which spares listing them: 1-3 ms per 500k nodes).

    Where :mod:`._cpython` can read the dict tables (CPython 3.11-3.13) and the node labels
    have distinct hashes, no Python code runs per arc: the neighbour ids come from the keys'
    hashes, looked up in the same parallel pass that walks the tables; otherwise the rows are
    iterated at C level (one label look-up per arc unless the labels are ``0..n-1`` in order).
    """
    n = len(G) if nodes is None else len(nodes)
    if n >= 2**31 - 1:
        raise NotImplementedError("graphs of 2**31 or more nodes are not supported")
    from . import _cpython as raw
    from ._csr import unsorted_rows
    from ._dict_probes import int_range_keys

    nx_order = table = rows = None
    unsorted = None
    if raw.available():
        plain = type(G).__module__.startswith("networkx.") and type(G).__name__ in _PLAIN
        found = raw.graph_adjacency(G._node, G._adj, False, attribute) if plain else None
        if found is not None:  # iter(G) is iter(G._node): the labels are its keys in order
            node_hashes, _, table = found  # the rows (G._adj's values) are listed if needed
        else:
            nodes = list(G) if nodes is None else nodes
            rows = _rows(G, nodes)
            node_hashes = np.fromiter(map(hash, nodes), dtype=np.int64, count=n)
            table = raw.rows_adjacency(node_hashes, rows, False, attribute)
    if table is not None:
        indptr, nx_order, unsorted = table.indptr, table.ids, table.unsorted
        identity = table.identity and (
            int_range_keys(G._node) if found is not None else _identity_labels(nodes)
        )
        if nodes is None:
            nodes = range(n) if identity else list(G)
    else:
        nodes = list(G) if nodes is None else nodes
        rows = _rows(G, nodes)
        indptr = np.zeros(n + 1, dtype=np.int64)
        np.cumsum(np.fromiter(map(len, rows), dtype=np.int64, count=n), out=indptr[1:])
        arcs = int(indptr[-1])
        heads = chain.from_iterable(rows)
        identity = _identity_labels(nodes)
        if identity:  # labels are the ids already: no dictionary look-ups
            nx_order = np.fromiter(heads, np.int64, arcs).astype(np.int32)
        else:
            index = {v: i for i, v in enumerate(nodes)}
            nx_order = np.fromiter(map(index.__getitem__, heads), np.int32, arcs)
    if unsorted is None:
        unsorted = unsorted_rows(indptr, nx_order) if nx_order.size else 0
    graph = Graph(indptr, nx_order, None, directed=G.is_directed(), validate=False)
    if table is not None and table.self_loops >= 0:
        graph._num_self_loops = table.self_loops  # counted by the scan (same arcs, any order)
    if not identity:
        graph.vertex_labels = nodes
    return graph, nx_order, int(unsorted), rows, table, nodes


def _identity_labels(nodes: list) -> bool:
    """Whether the labels are the ints ``0..n-1`` in order."""
    n = len(nodes)
    if not n or type(nodes[0]) is not int or type(nodes[-1]) is not int or nodes[-1] != n - 1:
        return not n
    return set(map(type, nodes)) == {int} and np.array_equal(
        np.fromiter(nodes, dtype=np.int64, count=n), np.arange(n)
    )


def _view_of_weights(
    graph: Graph,
    perm: np.ndarray | None,
    nx_values: np.ndarray,
    kind: str,
    nx_hidden: np.ndarray | None,
) -> Weighted:
    """``graph`` (rows sorted) weighted by the values :func:`_read_weights` read in NetworkX's
    adjacency order; ``perm`` maps a sorted position to its NetworkX position (None: the same)."""
    values, hidden = nx_values, nx_hidden
    if perm is not None:
        from ._csr import take

        values = take(values, perm)
        hidden = None if hidden is None else hidden[perm]
    out = Graph(graph.indptr, graph.indices, values, directed=graph.directed, validate=False)
    out.vertex_labels = graph.vertex_labels
    if hidden is not None:  # NetworkX's shortest paths skip the edges whose weight is None
        from ..algorithms.kcore.api import _arc_subgraph

        out = _arc_subgraph(out, ~hidden, out._arc_sources(), np)
    return Weighted(out, kind, hidden is not None, nx_values, nx_hidden)


def _weight_attribute(edge_attrs: Any) -> tuple[str | None, Any]:
    """The one edge attribute NetworkX asks for (and its default), or ``(None, 1)``."""
    if isinstance(edge_attrs, str):
        return edge_attrs, 1
    if edge_attrs:
        names = [k for k in edge_attrs if k is not None]
        if len(names) > 1:
            raise NotImplementedError(
                f"the warpgraph backend reads one edge attribute, got {sorted(map(str, names))}"
            )
        if names:
            return names[0], edge_attrs[names[0]]
    return None, 1
