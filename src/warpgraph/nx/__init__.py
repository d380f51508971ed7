"""NetworkX backend for warpgraph: ``nx.triangles(G, backend="warpgraph")``.

NetworkX finds the backend through two entry points (see ``pyproject.toml``):
``networkx.backends`` -> :data:`warpgraph.nx.interface.backend_interface` and
``networkx.backend_info`` -> :func:`get_info`. This module is what NetworkX imports when it
starts, so it imports nothing heavy (no NumPy, Numba or CuPy); the backend itself lives in
:mod:`warpgraph.nx.interface` and :mod:`warpgraph.nx.algorithms`. See ``docs/NETWORKX.md``.

The device is chosen by ``nx.config.backends.warpgraph.device`` (``"auto"``, ``"cpu"`` or
``"gpu"``; ``"auto"`` follows the ``WARPGRAPH_DEVICE`` environment variable, then takes the GPU
when one is usable).
"""

from __future__ import annotations

from importlib.util import find_spec

__all__ = [
    "FUNCTIONS",
    "arena_stats",
    "fast_paths",
    "get_info",
    "keep_object_arenas",
    "release_object_arenas",
]

#: Names served from :mod:`warpgraph.nx._arenas` on first use (it imports Numba).
_ARENA_NAMES = ("arena_stats", "keep_object_arenas", "release_object_arenas")


def __getattr__(name: str):
    if name in _ARENA_NAMES:
        from . import _arenas

        return getattr(_arenas, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


_ORDER = "Results in exactly NetworkX's order."
_BFS = (
    "In exactly NetworkX's (BFS discovery) order; not with sort_neighbors or reverse on digraphs."
)
_DFS = "In exactly NetworkX's (depth-first) order; not with sort_neighbors."
_GRAPH = "Returns the same NetworkX graph as NetworkX (attributes and adjacency order included)."
_ALL_PAIRS = (
    "One BFS per node, 64 at a time (iBFS's bitwise status words; device). Unweighted, not "
    "given eccentricities (closeness's u and eccentricity's v search from those nodes only); "
    "usebounds=True on undirected graphs runs in NetworkX."
)
_WEIGHTED = "Exact distances for all-int or all-float weights (others run in NetworkX)."

#: Functions the backend implements, with the notes NetworkX adds to their docstrings.
FUNCTIONS: dict[str, str] = {
    "all_pairs_shortest_path_length": "A generator over the nodes in node order, each dict "
    "single_source_shortest_path_length's (NetworkX's BFS order); a graph changed by its "
    "methods while it runs gives NetworkX's own dicts from then on.",
    "all_pairs_shortest_path": "As all_pairs_shortest_path_length, each dict "
    "single_source_shortest_path's (NetworkX's paths and key order).",
    "all_pairs_dijkstra_path_length": "A generator over the nodes in node order, each dict "
    "single_source_dijkstra_path_length's; the weights checked when called. " + _WEIGHTED,
    "all_pairs_dijkstra_path": "As all_pairs_dijkstra_path_length, each dict "
    "single_source_dijkstra_path's. " + _WEIGHTED,
    "all_pairs_dijkstra": "As all_pairs_dijkstra_path_length, each pair "
    "single_source_dijkstra's. " + _WEIGHTED,
    "all_pairs_bellman_ford_path_length": "A generator over the nodes in node order, each dict "
    "single_source_bellman_ford_path_length's (NetworkX's queue order); the weights checked "
    "when called; a source the replay declines is NetworkX's own call. " + _WEIGHTED,
    "all_pairs_bellman_ford_path": "As all_pairs_bellman_ford_path_length, each dict "
    "single_source_bellman_ford_path's. " + _WEIGHTED,
    "bfs_layers": "Layers in exactly NetworkX's order (rebuilt from warpgraph's BFS levels).",
    "bfs_edges": _BFS,
    "bfs_tree": _BFS,
    "bfs_predecessors": _BFS,
    "bfs_successors": _BFS,
    "dfs_edges": _DFS,
    "dfs_tree": _DFS,
    "dfs_predecessors": _DFS,
    "dfs_successors": _DFS,
    "dfs_preorder_nodes": _DFS,
    "dfs_postorder_nodes": _DFS,
    "dfs_labeled_edges": _DFS,
    "descendants_at_distance": "",
    "descendants": "",
    "ancestors": "",
    "single_source_shortest_path_length": "Keys in exactly NetworkX's (BFS discovery) order.",
    "single_target_shortest_path_length": "Keys in NetworkX's order (a directed graph's "
    "in-arcs searched in its _pred order).",
    "single_source_shortest_path": "Keys in exactly NetworkX's (BFS discovery) order, each "
    "path through the node's BFS parent, as NetworkX's.",
    "single_target_shortest_path": "Keys and paths as NetworkX's (a directed graph's in-arcs "
    "searched in its _pred order).",
    "shortest_path": "With a source and no target, or a target and no source (a directed "
    "graph's in-arcs searched in its _pred order): NetworkX's dict of paths in its order "
    "(Dijkstra's or Bellman-Ford's with a weight). All pairs and a source-target pair run in "
    "NetworkX.",
    "connected_components": "Components come in NetworkX's order (by their first node).",
    "number_connected_components": "",
    "is_connected": "",
    "node_connected_component": "",
    "weakly_connected_components": "Components come in NetworkX's order (by their first node).",
    "number_weakly_connected_components": "",
    "is_weakly_connected": "",
    "strongly_connected_components": _ORDER,
    "number_strongly_connected_components": "",
    "is_strongly_connected": "",
    "attracting_components": _ORDER,
    "number_attracting_components": "",
    "is_attracting_component": "",
    "is_semiconnected": "",
    "condensation": "The same DiGraph as NetworkX (node numbering, mapping key order, "
    "members, arc order); a given scc runs in NetworkX.",
    "is_aperiodic": "From NetworkX 3.6 (earlier versions run in NetworkX).",
    "is_tree": "",
    "is_forest": "",
    "is_branching": "",
    "is_arborescence": "",
    "is_directed_acyclic_graph": "",
    "topological_generations": _ORDER + " A graph changed by its methods while the generator "
    "runs gives NetworkX's generations and errors from then on.",
    "topological_sort": _ORDER + " A graph changed by its methods while the generator runs "
    "gives NetworkX's order and errors from then on.",
    "dag_longest_path_length": "The value and type of NetworkX's (all-int or all-float "
    "weights; others run in NetworkX).",
    "dag_longest_path": "The path NetworkX finds (its topological order and G.pred order "
    "for ties; all-int or all-float weights, a topo_order list or tuple; others run in "
    "NetworkX).",
    "triangles": "",
    "transitivity": "A DiGraph by NetworkX's rule for it (transitive triples over "
    "out-degree pairs).",
    "clustering": "Unweighted only (weighted runs in NetworkX); a DiGraph gets Fagiolo's "
    "directed clustering, as in NetworkX.",
    "average_clustering": "Unweighted only (weighted runs in NetworkX); a DiGraph gets "
    "Fagiolo's directed clustering, as in NetworkX.",
    "core_number": "Directed graphs use in + out degree, as NetworkX does.",
    "k_core": _GRAPH,
    "k_shell": _GRAPH,
    "k_crust": _GRAPH,
    "k_corona": _GRAPH,
    "k_truss": _GRAPH,
    "onion_layers": "Keys in NetworkX's order (by layer, then by the degree each node had "
    "when its round began, then node order).",
    "triadic_census": "Without ``nodelist`` only.",
    "closeness_centrality": _ALL_PAIRS + " Incoming distances on digraphs, as NetworkX; "
    "NetworkX's float operations, so equal values.",
    "eccentricity": _ALL_PAIRS,
    "diameter": _ALL_PAIRS,
    "radius": _ALL_PAIRS,
    "periphery": _ALL_PAIRS + " Nodes in node order.",
    "average_shortest_path_length": _ALL_PAIRS + " (method None or 'unweighted').",
    "center": _ALL_PAIRS + " Nodes in node order; undirected trees in linear time (three "
    "searches), as NetworkX's tree path.",
    "barycenter": _ALL_PAIRS + " Not with attr or sp. Nodes in node order (undirected trees: "
    "in linear time, in tree.centroid's order from NetworkX 3.6, as NetworkX).",
    "wiener_index": _ALL_PAIRS + " NetworkX's value and type (int on digraphs, float "
    "otherwise, inf when not connected); undirected trees in linear time.",
    "betweenness_centrality": "Unweighted (weighted runs in NetworkX): Brandes' searches on "
    "the device, from the same sample of ``k`` sources as NetworkX's (the same call on the "
    "same random state), NetworkX's rescaling; values equal to rounding.",
    "edge_betweenness_centrality": "Unweighted (weighted runs in NetworkX): each arc's share "
    "of the same searches, an undirected edge's two arcs added; edges in ``G.edges()`` order; "
    "the installed NetworkX's rescaling; values equal to rounding.",
    "global_efficiency": "One BFS per node, 64 at a time (iBFS, on the backend's device), "
    "each counting the nodes at "
    "each distance; the sum added in NetworkX's order (sources in node order, nearest "
    "targets first), so NetworkX's float bit for bit.",
    "harmonic_diameter": "Not with sp, nor weights other than 1: one BFS per node, 64 at a "
    "time (iBFS), the sum of 1/d added in NetworkX's order (as global_efficiency), so "
    "NetworkX's float bit for bit; directed graphs along their arcs.",
    "local_efficiency": "Each neighbourhood's efficiency on the CPU in parallel, its sum added "
    "in the order NetworkX's subgraph view lists the neighbours (a Python set's), so "
    "NetworkX's float bit for bit.",
    "harmonic_centrality": "Unweighted (distance= runs in NetworkX), not with fewer nbunch "
    "nodes than sources: one BFS per reported node, 64 at a time, each value added in the "
    "order NetworkX adds it (its sources set's), so equal bits; keys in the nbunch set's order.",
    "pagerank": "NetworkX's power iteration and stopping rule (values equal to rounding, or "
    "within ``n * tol`` in L1 where the two stop a step apart). Negative or non-numeric "
    "weights, alpha outside [0, 1] and negative dict entries run in NetworkX.",
    "eigenvector_centrality": "NetworkX's power iteration with A^T + I and stopping rule "
    "(values equal to rounding, or within ``n * tol`` in L1 where the two stop a step apart). "
    "Negative, NaN or non-numeric weights and nstart entries, and an nstart not keyed by "
    "exactly the nodes, run in NetworkX.",
    "katz_centrality": "NetworkX's iteration and stopping rule (values equal to rounding, or "
    "within ``n * tol`` in L1 where the two stop a step apart). NaN or non-numeric weights "
    "and dict values, NumPy alpha other than float64, and an nstart not keyed by exactly the "
    "nodes run in NetworkX.",
}
if find_spec("warpgraph.algorithms.sssp") is not None:  # weighted SSSP (issue 4) is present
    FUNCTIONS |= {
        "single_source_dijkstra_path_length": _WEIGHTED + " " + _ORDER,
        "multi_source_dijkstra_path_length": _WEIGHTED + " " + _ORDER + " Not with an "
        "iterator of sources (NetworkX reads it twice).",
        "single_source_dijkstra_path": _WEIGHTED + " " + _ORDER,
        "multi_source_dijkstra_path": _WEIGHTED + " " + _ORDER + " Not with an iterator of "
        "sources.",
        "single_source_dijkstra": _WEIGHTED + " " + _ORDER + " Without a target (NetworkX "
        "stops there: such calls run in NetworkX).",
        "multi_source_dijkstra": _WEIGHTED + " " + _ORDER + " Without a target, not with an "
        "iterator of sources.",
        "single_source_bellman_ford_path_length": _WEIGHTED
        + " Keys in NetworkX's queue order (its SPFA replayed, on the CPU).",
        "dijkstra_predecessor_and_distance": _WEIGHTED + " " + _ORDER + " (Predecessor "
        "lists with ties, in the order NetworkX's heap finds them.)",
        "single_source_bellman_ford_path": _WEIGHTED + " " + _ORDER + " Zero-weight cycles "
        "among the first predecessors run in NetworkX.",
        "single_source_bellman_ford": _WEIGHTED + " " + _ORDER + " Without a target.",
        "bellman_ford_path_length": _WEIGHTED + " Int weights: warpgraph's parallel SSSP "
        "on the device; float weights: NetworkX's SPFA replayed on the CPU.",
        "bellman_ford_path": _WEIGHTED + " " + _ORDER + " (The first path through "
        "NetworkX's predecessor lists.)",
        "bellman_ford_predecessor_and_distance": _WEIGHTED + " " + _ORDER + " (Predecessor "
        "lists with ties, NetworkX's SPFA replayed with its heuristic flag.)",
        "find_negative_cycle": _WEIGHTED + " The cycle NetworkX's search finds.",
        "negative_edge_cycle": "",
        "shortest_path_length": "With a source and no target, or a target and no source (a "
        "directed graph's in-arcs searched in its _pred order): the dict of "
        "single_source_shortest_path_length, single_source_dijkstra_path_length or "
        "single_source_bellman_ford_path_length, in NetworkX's order. All pairs and a "
        "source-target pair run in NetworkX.",
    }


def get_info() -> dict:
    """Backend description read by NetworkX at import time (``networkx.backend_info``)."""
    return {
        "backend_name": "warpgraph",
        "project": "warpgraph",
        "package": "warpgraph",
        "url": "https://github.com/warpgraph/warpgraph",
        "short_summary": "GPU and multicore CPU graph algorithms (Numba / CuPy).",
        "default_config": {"device": "auto"},
        "functions": {
            name: ({"additional_docs": note} if note else {}) for name, note in FUNCTIONS.items()
        },
    }


def fast_paths() -> dict[str, bool | int]:
    """Which of the backend's compiled fast paths this process uses. Each is decided once per
    process, at its first use, by checks of the interpreter and a self-test; where one is off,
    results are the same but built the slower way (a failed self-test is also logged as a
    warning on the ``warpgraph.nx`` logger).

    Returns
    -------
    dict
        ``dict_tables_read_in_place``: NetworkX's dicts read by compiled code (CPython
        3.11-3.13 with the GIL); ``sets_written_directly``: result sets' tables written by
        compiled code; ``copies_by_workers``: result graphs' dicts made by worker threads
        (used from ``copy_threads_needed`` Numba threads on); ``tables_sized_in_parallel``:
        large empty result tables made without CPython's one-thread clearing
        (:mod:`._presized`); ``numba_threads``: Numba's thread count now.

    Examples
    --------
    >>> import warpgraph.nx
    >>> paths = warpgraph.nx.fast_paths()
    >>> sorted(paths)  # doctest: +NORMALIZE_WHITESPACE
    ['copies_by_workers', 'copy_threads_needed', 'dict_tables_read_in_place', 'numba_threads',
     'sets_written_directly', 'tables_sized_in_parallel']
    """
    import numba

    from . import _capi, _cpython, _keyset, _parallel_copies, _presized

    raw = _cpython.available()
    return {
        "dict_tables_read_in_place": raw,
        "sets_written_directly": bool(raw and _capi.DIRECT_REFCOUNTS and _keyset._self_tested()),
        "copies_by_workers": _parallel_copies.allowed(),
        "numba_threads": numba.get_num_threads(),
        "copy_threads_needed": _parallel_copies.PARALLEL_COPY_THREADS,
        "tables_sized_in_parallel": _presized.available(),
    }
