"""Helpers shared by the NetworkX backend modules: device choice, host copies, NetworkX errors,
result sets and dicts, and cheap looks at a NetworkX graph before it is converted.

The device the backend computes on comes from ``nx.config.backends.warpgraph.device``
(``"auto"``, ``"cpu"`` or ``"gpu"``; default ``"auto"``, which follows ``WARPGRAPH_DEVICE`` and
then picks the GPU when one is usable).
"""

from __future__ import annotations

import gc
import math
from collections.abc import Callable, Iterator
from contextlib import ContextDecorator
from itertools import islice, pairwise
from operator import add
from typing import Any

import numpy as np

from .._arrays import to_host
from .._versions import major_minor
from ..device import resolve_device

__all__ = [
    "backend_device",
    "gc_paused",
    "graph_fact",
    "has_edges",
    "host",
    "label_hashes",
    "label_sets",
    "layer_by_sets",
    "local_search",
    "networkx_version",
    "node_dict",
    "node_error",
    "node_sets",
    "not_implemented",
    "path_dict",
    "split_list",
    "try_node_dict",
]


class gc_paused(ContextDecorator):
    """Pause Python's cyclic garbage collector while results are built (context manager or
    decorator). Building a million sets, tuples or dicts would otherwise start hundreds of
    collections, and each full one walks every object of the user's NetworkX graph; these
    results hold no reference cycles. Nested uses leave it to the outermost one."""

    def __enter__(self):
        self._was_enabled = gc.isenabled()
        gc.disable()
        return self

    def __exit__(self, *exc):
        if self._was_enabled:
            gc.enable()
        return False


def host(a: Any) -> np.ndarray:
    """NumPy view or copy of a NumPy/CuPy array."""
    return to_host(a)


def networkx_version() -> tuple[int, int]:
    """The installed NetworkX's ``(major, minor)``, for the few rules that changed between
    the versions supported (3.4 on)."""
    return major_minor("networkx")


def backend_device() -> str:
    """``"cpu"`` or ``"gpu"``: ``nx.config.backends.warpgraph.device`` resolved."""
    import networkx as nx

    cfg = getattr(nx.config.backends, "warpgraph", None)
    device = getattr(cfg, "device", "auto") if cfg is not None else "auto"
    return resolve_device(device)


def node_error(kind: str, node: Any, directed: bool = False) -> Exception:
    """NetworkX's exception, with NetworkX's message, for a node that is not in the graph."""
    import networkx as nx

    if kind == "source":
        return nx.NodeNotFound(f"Source {node} is not in G")
    if kind == "neighbors":  # G.neighbors / G.successors
        where = "digraph" if directed else "graph"
        return nx.NetworkXError(f"The node {node} is not in the {where}.")
    return nx.NetworkXError(f"The node {node} is not in the graph.")


def not_implemented(message: str) -> NotImplementedError:
    """The backend cannot compute this call exactly: NetworkX then runs it (automatic dispatch)
    or reports this message (``backend="warpgraph"``)."""
    return NotImplementedError(f"warpgraph: {message}")


#: Results of fewer entries are built in Python: a compiled call's fixed cost is not worth it.
NATIVE_MIN = 256


def label_hashes(W) -> np.ndarray | None:
    """The hashes of ``W``'s labels by dense id, distinct (read at conversion; ``0..n-1`` for
    the labels ``0..n-1``), or None where they were not read or are not distinct."""
    if W._node_hashes is not None:
        return W._node_hashes
    return np.arange(len(W), dtype=np.int64) if W.identity else None  # hash(i) == i


def _native_labels(W) -> tuple[np.ndarray, list | np.ndarray, np.ndarray] | None:
    """(C functions, labels, distinct label hashes) for :mod:`._capi`'s builders, or None
    where they cannot be used (no C API, or the hashes were not read or not distinct).

    The labels are the existing label objects: a list, or, for labels ``0..n-1`` not listed
    yet, the addresses of the source's ``_node`` keys read from its table (listing 500k keys
    touches every int object: 4 ms on the H200 host, per first call)."""
    from . import _capi

    api = _capi.api()
    hashes = None if api is None else label_hashes(W)
    if hashes is None:
        return None
    n = len(W)
    if hashes.size != n:
        return None
    own = _source_node_table(W) if W.identity and type(W._nodes) is range else None
    if own is not None:
        from . import _dict_probes

        keys = _dict_probes.key_addresses(own)
        if keys is not None:
            return api.fns, keys, hashes
    nodes = W.nodes  # existing label objects (for 0..n-1: the source's, made once if gone)
    if type(nodes) is not list or len(nodes) != n:
        return None
    return api.fns, nodes, hashes


def _source_node_table(W) -> dict | None:
    """The source graph's ``_node`` dict when its keys are ``W``'s labels in ``W``'s order
    (checked in O(1), as :attr:`~.interface.WarpGraph.nodes` does: NetworkX's own methods
    clear the cached conversion when they change the graph), else None."""
    from .interface import _int_ends

    src = W.source
    own = getattr(src, "_node", None) if src is not None else None
    if type(own) is not dict or len(own) != len(W) or not own:
        return None
    if type(W._nodes) is range:
        return own if _int_ends(own) else None
    nodes = W._nodes
    return own if next(iter(own)) is nodes[0] and next(reversed(own)) is nodes[-1] else None


def try_node_dict(
    W,
    ids: np.ndarray | None,
    values: np.ndarray,
    *,
    zero_int: bool = False,
    first_int: bool = False,
) -> dict | None:
    """``{label of ids[j]: values[j]}`` in the order of ``ids`` (None: every node in order),
    built in compiled code, or None where it cannot be (see :func:`node_dict`). Every node in
    order is built from the keys of the source's ``_node`` dict
    (:func:`._capi_nodes.values_for_keys`; ``values`` may still be on the device, read once the
    dict's table is allocated)."""
    values = values if hasattr(values, "__cuda_array_interface__") else np.asarray(values)
    kind = values.dtype.kind
    if values.size < NATIVE_MIN or not (kind in "if" or (kind == "u" and values.itemsize < 8)):
        return None
    from . import _capi, _capi_nodes

    if ids is None:
        api = _capi.api()
        own = _source_node_table(W) if api is not None and not first_int else None
        if own is not None and len(own) == values.size:
            with gc_paused():
                d = _capi_nodes.values_for_keys(api.fns, own, values, zero_int=zero_int)
            if d is not None:
                return d
        ids = np.arange(len(W))
    ids = np.asarray(ids)
    values = host(values)
    found = _native_labels(W)
    if found is None:
        return None
    fns, nodes, hashes = found
    if W.identity and _scattered(ids, len(W)):
        nodes = None  # new ints: no cache miss on each label object (2x faster in random order)
    with gc_paused():
        return _capi_nodes.node_dict(
            fns, ids, nodes, hashes, values, zero_int=zero_int, first_int=first_int
        )


def _scattered(ids: np.ndarray, n: int) -> bool:
    """Whether the ids jump all over ``0..n-1``: in 64 sampled windows of 32 consecutive ids,
    most span over a quarter of the range. The label objects of ``0..n-1`` lie in id order in
    memory, so each is then a cache miss, and making new ``int`` objects is cheaper (500k ids
    in random order: 32 vs 50 ms on 2 cores); in order, or in a lattice's BFS order (a window
    spans a few rows), the existing ones are (9 vs 18 ms, 15 vs 22 ms)."""
    if ids.size < 4096:
        return False
    starts = np.linspace(0, ids.size - 32, 64).astype(np.int64)
    windows = ids[starts[:, None] + np.arange(32)]
    spans = windows.max(axis=1) - windows.min(axis=1)
    return bool(np.count_nonzero(spans > n // 4) * 2 > spans.size)


def node_dict(
    W,
    ids: np.ndarray | None,
    values: Any,
    *,
    zero_int: bool = False,
    first_int: bool = False,
) -> dict:
    """``{label of ids[j]: values[j]}`` for the dense ids ``ids`` (None: every node, in
    NetworkX's order), in their order: NetworkX's per-node results. ``values``: a NumPy or
    CuPy array (read as late as possible: a device still computing it overlaps the work).

    Integer values become ``int`` objects, floats ``float`` ones; ``zero_int``: a zero float
    is the ``int`` 0 (NetworkX's clustering); ``first_int``: the first value is the ``int`` 0
    (the source's distance in NetworkX's shortest paths). Built by one compiled loop calling
    CPython's dict functions with the labels' known hashes (:func:`._capi_nodes.node_dict`, 2-3x
    faster than ``dict(zip(...))``) where the C API is usable and the node hashes are
    distinct; otherwise, and for small results, in Python (the same dict).

    Examples
    --------
    >>> import networkx as nx
    >>> import numpy as np
    >>> from warpgraph.nx.interface import backend_interface
    >>> W = backend_interface.convert_from_nx(nx.path_graph(["a", "b", "c"]))
    >>> node_dict(W, np.array([2, 0]), np.array([1.5, 0.0]), zero_int=True)
    {'c': 1.5, 'a': 0}
    """
    found = try_node_dict(W, ids, values, zero_int=zero_int, first_int=first_int)
    if found is not None:
        return found
    if ids is None:
        ids = np.arange(len(W))
    values = host(values).tolist()
    if zero_int:
        values = [0 if x == 0 else x for x in values]
    if first_int and values:
        values[0] = 0
    with gc_paused():
        return dict(zip(W.label_list(np.asarray(ids, dtype=np.int64)), values, strict=True))


def path_dict(
    W, order: np.ndarray, parents: np.ndarray, roots: int, *, to_source: bool = False
) -> dict:
    """``{label: path}`` for the dense ids ``order``, the first ``roots`` of them each its own
    path ``[root]``, every other one its parent's path (``parents[j]``, a dense id earlier in
    ``order``) plus itself, each a new list, as NetworkX's ``paths[v] + [w]`` makes them;
    ``to_source``: each path reversed (NetworkX's paths to a target, ``[w] + paths[v]``).

    Made by C-level iterators feeding ``dict.update``, which inserts each path before it reads
    the next node's parent: no bytecode runs per node.

    Examples
    --------
    >>> import networkx as nx
    >>> import numpy as np
    >>> from warpgraph.nx.interface import backend_interface
    >>> W = backend_interface.convert_from_nx(nx.path_graph(["a", "b", "c"]))
    >>> path_dict(W, np.array([1, 0, 2]), np.array([-1, 1, 1]), 1)
    {'b': ['b'], 'a': ['b', 'a'], 'c': ['b', 'c']}
    """
    nodes = W.label_list(order)
    paths = {r: [r] for r in nodes[:roots]}
    if len(nodes) > roots:
        own = map(list, zip(nodes[roots:]))  # [w] for each node past the roots
        before = map(paths.__getitem__, W.label_list(parents[roots:]))
        made = map(add, own, before) if to_source else map(add, before, own)
        paths.update(zip(nodes[roots:], made, strict=True))
    return paths


def split_list(items: list, cuts: Any) -> list[list]:
    """``[items[cuts[i]:cuts[i + 1]] for each i]``, each a new list, made by C-level
    iterators (no bytecode per piece): NetworkX's per-node lists of nodes.

    Examples
    --------
    >>> split_list(["a", "b", "c", "d"], [0, 1, 1, 4])
    [['a'], [], ['b', 'c', 'd']]
    """
    cuts = np.asarray(cuts).tolist()
    return list(map(items.__getitem__, map(slice, cuts[:-1], cuts[1:])))


def node_sets(W, members: np.ndarray, bounds: np.ndarray) -> list[set]:
    """``[set of the labels of members[bounds[c]:bounds[c + 1]] for each c]``: NetworkX's
    components. A component of more than half the nodes is the source's node set less the
    other nodes (:func:`_most_nodes`); the others are built by one compiled loop
    (:func:`._capi_nodes.node_sets`) where the C API is usable and every label is an exact ``int``
    or ``str`` (whose hashing runs no Python code), otherwise in Python.

    Examples
    --------
    >>> import networkx as nx
    >>> import numpy as np
    >>> from warpgraph.nx.interface import backend_interface
    >>> W = backend_interface.convert_from_nx(nx.path_graph(3))
    >>> node_sets(W, np.array([0, 2, 1]), np.array([0, 2, 3]))
    [{0, 2}, {1}]
    """
    members = np.asarray(members, dtype=np.int64)
    bounds = np.asarray(bounds, dtype=np.int64)
    sizes = np.diff(bounds)
    with gc_paused():
        if members.size < NATIVE_MIN or 2 * int(sizes.max(initial=0)) <= len(W):
            return _small_sets(W, members, bounds)
        big = int(np.argmax(sizes))
        lo, hi = int(bounds[big]), int(bounds[big + 1])
        inside = None  # (all of them)
        if hi - lo < len(W):
            inside = np.zeros(len(W), dtype=bool)
            inside[members[lo:hi]] = True
        most = _most_nodes(W, inside)
        if most is None:
            return _small_sets(W, members, bounds)
        rest = np.concatenate([members[:lo], members[hi:]])
        rest_bounds = np.delete(bounds, big + 1)
        rest_bounds[big + 1 :] -= hi - lo
        sets = _small_sets(W, rest, rest_bounds)
        sets.insert(big, most)
        return sets


def every_node_set(W) -> set:
    """The set of every node's label, new: a connected graph's one component. Built from the
    source's ``_node`` table (:func:`_most_nodes`) without listing the ids (an ``arange`` of
    501k ids costs ~0.2 ms, its fresh pages more), else as :func:`node_sets` builds one. A
    deferred conversion whose labels were not read takes the keys of the pending graph's
    ``_node`` as they are: a set needs no order.

    Examples
    --------
    >>> import networkx as nx
    >>> from warpgraph.nx.interface import backend_interface
    >>> every_node_set(backend_interface.convert_from_nx(nx.path_graph(["a", "b"]))) == {"a", "b"}
    True
    """
    n = len(W)
    if getattr(W, "labels_unread", False):  # (nothing in order yet: a set needs none)
        return _all_keys(W.pending._node)
    if n >= NATIVE_MIN:
        with gc_paused():
            most = _most_nodes(W, None)
        if most is not None:
            return most
    return node_sets(W, np.arange(n), np.array([0, n]))[0]


def _all_keys(table: dict) -> set:
    """``set(table)``, built in parallel where it can be (:func:`._keyset.key_set`)."""
    if len(table) >= NATIVE_MIN:
        from ._keyset import key_set

        with gc_paused():
            built = key_set(table)
        if built is not None:
            return built
    return set(table)


def label_sets(W, labels: np.ndarray, count: int) -> list[set]:
    """``[set of the labels of the nodes labelled c for c in range(count)]``, each listed in
    id order (``labels``: one int per dense id, ``0..count-1``). As :func:`node_sets`, but a
    label held by most nodes is never grouped: only the other nodes are sorted by label.

    Examples
    --------
    >>> import networkx as nx
    >>> import numpy as np
    >>> from warpgraph.nx.interface import backend_interface
    >>> W = backend_interface.convert_from_nx(nx.path_graph(["a", "b", "c"]))
    >>> [sorted(s) for s in label_sets(W, np.array([1, 0, 1]), 2)]  # (str sets: any order)
    [['b'], ['a', 'c']]

    Raises
    ------
    ValueError
        When ``labels`` is not one label in ``0..count-1`` per node.
    """
    labels = np.asarray(labels, dtype=np.int64)
    bad = ValueError(f"label_sets takes one label >= 0 per node ({len(W)} nodes)")
    if labels.shape != (len(W),):
        raise bad
    try:
        sizes = np.bincount(labels, minlength=count)  # (refuses a negative label)
    except ValueError as exc:
        raise bad from exc
    if sizes.size != count:  # (the compiled grouping writes by label: keep it in bounds)
        raise ValueError(f"labels must be below count={count}, got {int(labels.max())}")
    big = int(np.argmax(sizes)) if count else -1
    with gc_paused():
        if count and labels.size >= NATIVE_MIN and 2 * int(sizes[big]) > len(W):
            inside = labels == big
            most = _most_nodes(W, inside)
            if most is not None:
                others = np.flatnonzero(~inside)
                rest = labels[others]
                rest -= rest > big  # 0..count-2
                members, bounds = _grouped(rest, count - 1)
                sets = _small_sets(W, others[members], bounds)
                sets.insert(big, most)
                return sets
        members, bounds = _grouped(labels, count)
        return _small_sets(W, members, bounds)


def _grouped(labels: np.ndarray, count: int) -> tuple[np.ndarray, np.ndarray]:
    """Positions in ``labels`` grouped by label (``0..count-1``), each group in increasing
    order, and where each group starts (and the last ends): one stable counting sort."""
    from ._results import _row_order

    members = _row_order(labels, labels, count, False)
    bounds = np.zeros(count + 1, dtype=np.int64)
    np.cumsum(np.bincount(labels, minlength=count), out=bounds[1:])
    return members, bounds


def _most_nodes(W, inside: np.ndarray | None) -> set | None:
    """The labels of the ids flagged in ``inside`` (most nodes; None: all), as a set built
    from the keys of the source's ``_node`` dict: in parallel where its table allows
    (:func:`._keyset.key_set`; 2 cores, 131k int keys: 2.0 -> 0.55 ms), otherwise
    ``set(G._node)`` less the labels of the other nodes. Either reuses the dict's stored
    hashes and hashes only the minority, if anything (501k nodes: 5.5 vs 7.7 ms for the
    compiled loop of :func:`._capi_nodes.node_sets`, 2 cores). None when the source graph is gone
    or its node dict is not a plain one of ``len(W)`` nodes."""
    own = _source_node_table(W)
    if own is not None:
        from ._keyset import key_set

        built = key_set(own, inside)
        if built is not None:
            return built
    node = getattr(W.source, "_node", None)
    if type(node) is not dict or len(node) != len(W):
        return None
    most = set(node)
    others = np.flatnonzero(~inside) if inside is not None else np.empty(0, dtype=np.int64)
    if others.size:
        most.difference_update(W.label_list(others))
    return most


def _small_sets(W, members: np.ndarray, bounds: np.ndarray) -> list[set]:
    found = _native_labels(W) if members.size >= NATIVE_MIN else None
    if found is not None:
        from . import _capi_nodes

        labels = None if W.identity and _scattered(members, len(W)) else found[1]
        sets = _capi_nodes.node_sets(found[0], members, bounds, labels)
        if sets is not None:
            return sets
    nodes = W.label_list(members)
    b = bounds.tolist()
    return [set(nodes[lo:hi]) for lo, hi in pairwise(b)]


#: Rows whose lengths estimate a graph's average degree (:func:`local_search`). Each is a
#: cache miss on a first call: 4,096 rows took 0.22 ms on 2 cores (urand:17, after a
#: collection), 512 take 0.02 ms; the estimate only chooses between searching and converting.
DEGREE_SAMPLE_ROWS = 512


def _row_lengths(G: Any):
    """The lengths of ``G``'s adjacency rows (out-rows of a directed graph), lazily."""
    return map(len, G._adj.values())


def graph_fact(G: Any, name: str, compute: Callable[[], Any]) -> Any:
    """``compute()``, kept in the NetworkX graph ``G``'s ``__networkx_cache__`` under
    ``"warpgraph: " + name`` for the next call: NetworkX's own methods clear that cache when
    they change the graph (as they drop its cached conversions). Not kept for a graph view
    (its cache outlives changes to the graph under it) or where the cache is off (``None``).
    For facts that only steer speed (:func:`has_edges`, asked on every automatically
    dispatched call; :func:`local_search`): reading their rows costs ~25 us on a lattice of 1M
    edges, where NetworkX's own answer to a short search may take 20 us.

    Examples
    --------
    >>> import networkx as nx
    >>> G = nx.path_graph(4)
    >>> graph_fact(G, "nodes", lambda: len(G)), G.__networkx_cache__["warpgraph: nodes"]
    (4, 4)
    >>> G.add_edge(4, 5)  # (NetworkX clears the cache)
    >>> "warpgraph: nodes" in G.__networkx_cache__
    False
    """
    cache = getattr(G, "__networkx_cache__", None)
    if not isinstance(cache, dict) or getattr(G, "_graph", None) is not None:
        return compute()
    key = "warpgraph: " + name
    if key in cache:
        return cache[key]
    value = cache[key] = compute()
    return value


def has_edges(G: Any, count: int) -> bool:
    """Whether the NetworkX graph ``G`` has at least ``count`` edges, summing row lengths in
    blocks of 256 rows (C loops) until there are enough: O(count / degree) rows, where
    ``G.number_of_edges()`` sums every node's degree in Python. (An undirected self-loop is
    one row entry, so it counts half an edge here: a threshold test, not a count.)

    Examples
    --------
    >>> import networkx as nx
    >>> has_edges(nx.path_graph(1001), 1000), has_edges(nx.path_graph(1000), 1000)
    (True, False)
    """
    if not hasattr(G, "_adj"):
        return G.number_of_edges() >= count
    return graph_fact(G, f"has {count} edges", lambda: _has_edges(G, count))


def _has_edges(G: Any, count: int) -> bool:
    need = count if G.is_directed() else 2 * count
    lengths, total = _row_lengths(G), 0
    while block := list(islice(lengths, 256)):  # (no len(G._adj): O(n) on a graph view)
        total += sum(block)
        if total >= need:
            return True
    return False


def local_search(G: Any, distance: Any) -> bool:
    """Whether a search of the NetworkX graph ``G`` to ``distance`` likely reaches under 1/16
    of its nodes: a tree of the average out-degree ``d`` to that depth, ``1 + d + ... +
    d**distance`` nodes (an upper estimate on random graphs, whose balls overlap), the degree
    estimated from the first :data:`DEGREE_SAMPLE_ROWS` rows and kept for the graph
    (:func:`graph_fact`; O(1): ``descendants_at_distance`` asks it on every call).

    Examples
    --------
    >>> import networkx as nx
    >>> G = nx.grid_2d_graph(100, 100)  # 10,000 nodes, degree < 4
    >>> local_search(G, 3), local_search(G, 8), local_search(G, 2.0)
    (True, False, False)
    >>> P = nx.path_graph(1000, create_using=nx.DiGraph)  # out-degree < 1: d + 1 nodes
    >>> local_search(P, 10), local_search(P, 100)
    (True, False)
    """
    if type(distance) is not int or distance < 0 or not hasattr(G, "_adj"):
        return False
    n = len(G)
    if n <= 16:
        return False
    d = graph_fact(G, "sampled degree", lambda: _sampled_degree(G, n))
    # the tree's size, in logarithms (a float power overflows for long searches): at most
    # distance + 1 layers of at most d ** distance nodes, and d ** (distance + 1) / (d - 1)
    size = math.log(distance + 1) + distance * math.log(max(d, 1.0))
    if d > 1:
        size = min(size, (distance + 1) * math.log(d) - math.log(d - 1))
    return size < math.log(n / 16)


def _sampled_degree(G: Any, n: int) -> float:
    rows = min(n, DEGREE_SAMPLE_ROWS)
    return sum(islice(_row_lengths(G), rows)) / rows


def layer_by_sets(adj: Any, source: Any, depth: int) -> set:
    """The nodes at exactly ``depth`` hops from ``source`` in the NetworkX adjacency ``adj``
    (``G._adj``: a directed graph's successors), found with set algebra: each layer's rows are
    merged by ``set.update`` and the nodes seen are taken out by ``set -``, both C loops, so
    Python steps through the layers' nodes, not their arcs. For a short search of an
    unconverted graph, where converting would cost far more (``descendants_at_distance``).

    Examples
    --------
    >>> import networkx as nx
    >>> sorted(layer_by_sets(nx.path_graph(5)._adj, 0, 2)), layer_by_sets({0: {}}, 0, 1)
    ([2], set())
    """
    seen = {source}
    layer = {source}
    for _ in range(depth):
        reached = set()
        for u in layer:
            reached.update(adj[u])
        layer = reached - seen  # (iterates ``reached``, the smaller set)
        if not layer:
            return layer
        seen |= layer
    return layer


def nbunch_iter(W, nbunch: Any) -> Iterator:
    """NetworkX's ``G.nbunch_iter(nbunch)`` for a converted graph ``W``: the source graph's own
    where it is still there,
    else the same steps on ``W`` (every node for None, the one node ``nbunch``, or the
    members of the container that are nodes, with the installed version's
    ``NetworkXError`` for a non-iterable or an unhashable member).

    Examples
    --------
    >>> import networkx as nx
    >>> from warpgraph.nx.interface import backend_interface
    >>> W = backend_interface.convert_from_nx(nx.path_graph(3))
    >>> list(nbunch_iter(W, [2, 7, 0])), list(nbunch_iter(W, 1))
    ([2, 0], [1])
    """
    source = W.source
    if source is not None:
        return source.nbunch_iter(nbunch)
    if nbunch is None:
        return iter(W.nodes)
    if nbunch in W:
        return iter([nbunch])
    return _members(W, nbunch)


def _members(W, nbunch: Any) -> Iterator:
    import networkx as nx

    member = None
    try:
        for member in nbunch:
            if W.find(member) >= 0:
                yield member
    except TypeError as err:  # (NetworkX's translations of the TypeErrors, by message)
        exc, message = err, str(err.args[0]) if err.args else ""
        if "iter" in message:
            exc = nx.NetworkXError("nbunch is not a node or a sequence of nodes.")
        if "object is not iterable" in message and networkx_version() >= (3, 5):
            exc = nx.NetworkXError(f"Node {nbunch} is not in the graph.")
        if "hashable" in message:
            exc = nx.NetworkXError(f"Node {member} in sequence nbunch is not a valid node.")
        raise exc from None


def change_watch(G) -> tuple:
    """``(changed, stop)``: ``changed()`` says whether the NetworkX graph behind ``G`` was
    changed by its own methods since now (each clears the graph's ``__networkx_cache__``,
    where a key of this watch's own is left), ``stop()`` removes the key."""
    cache = getattr(G.source, "__networkx_cache__", None)
    if not isinstance(cache, dict):
        return (lambda: False), (lambda: None)
    token = object()
    key = f"warpgraph: change watch {id(token)}"
    cache[key] = token
    return (lambda: cache.get(key) is not token), (lambda: cache.pop(key, None))
