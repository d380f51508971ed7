"""NetworkX functions computed by warpgraph, with NetworkX's signatures and result types.

Each function takes the converted graph (:class:`warpgraph.nx.interface.WarpgraphGraph`) and
returns what the NetworkX function returns, keyed by the original node labels. The checks in
:data:`ARGUMENT_CHECKS` (used by ``can_run``) decline the cases where NetworkX means something
warpgraph does not compute; NetworkX then runs them itself (or says the backend cannot).
The functions live by family in :mod:`.traversal`, :mod:`.depth_first`, :mod:`.reachability`,
:mod:`.components`, :mod:`.condensation`, :mod:`.attracting`, :mod:`.dag`, :mod:`.trees`,
:mod:`.clustering`, :mod:`.cores`, :mod:`.shortest_paths`, :mod:`.link_analysis`,
:mod:`.eigenvector` and :mod:`.betweenness`.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping
from numbers import Real
from typing import Any

import numpy as np

from . import FUNCTIONS, depth_first, distance_measures
from ._common import networkx_version
from .all_pairs import (
    all_pairs_bellman_ford_path,
    all_pairs_bellman_ford_path_length,
    all_pairs_dijkstra,
    all_pairs_dijkstra_path,
    all_pairs_dijkstra_path_length,
    all_pairs_shortest_path,
    all_pairs_shortest_path_length,
)
from .attracting import (
    attracting_components,
    is_aperiodic,
    is_attracting_component,
    is_semiconnected,
    number_attracting_components,
)
from .bellman_ford import (
    bellman_ford_path,
    bellman_ford_path_length,
    bellman_ford_predecessor_and_distance,
    find_negative_cycle,
)
from .betweenness import betweenness_centrality, edge_betweenness_centrality
from .clustering import average_clustering, clustering, transitivity, triadic_census, triangles
from .components import (
    connected_components,
    is_connected,
    is_strongly_connected,
    is_weakly_connected,
    node_connected_component,
    number_connected_components,
    number_strongly_connected_components,
    number_weakly_connected_components,
    strongly_connected_components,
    weakly_connected_components,
)
from .condensation import condensation
from .cores import core_number, k_core, k_corona, k_crust, k_shell, k_truss, onion_layers
from .dag import (
    dag_longest_path,
    dag_longest_path_length,
    is_directed_acyclic_graph,
    topological_generations,
    topological_sort,
)
from .depth_first import (
    dfs_edges,
    dfs_labeled_edges,
    dfs_postorder_nodes,
    dfs_predecessors,
    dfs_preorder_nodes,
    dfs_successors,
    dfs_tree,
)
from .distance_measures import (
    average_shortest_path_length,
    barycenter,
    center,
    closeness_centrality,
    diameter,
    eccentricity,
    periphery,
    radius,
    wiener_index,
)
from .efficiency import global_efficiency, harmonic_diameter, local_efficiency
from .eigenvector import eigenvector_centrality, katz_centrality
from .harmonic import harmonic_centrality
from .link_analysis import pagerank
from .reachability import ancestors, descendants
from .shortest_paths import (
    dijkstra_predecessor_and_distance,
    multi_source_dijkstra,
    multi_source_dijkstra_path,
    multi_source_dijkstra_path_length,
    negative_edge_cycle,
    shortest_path_length,
    single_source_bellman_ford,
    single_source_bellman_ford_path,
    single_source_bellman_ford_path_length,
    single_source_dijkstra,
    single_source_dijkstra_path,
    single_source_dijkstra_path_length,
)
from .traversal import (
    bfs_edges,
    bfs_layers,
    bfs_predecessors,
    bfs_successors,
    bfs_tree,
    descendants_at_distance,
    shortest_path,
    single_source_shortest_path,
    single_source_shortest_path_length,
    single_target_shortest_path,
    single_target_shortest_path_length,
)
from .trees import is_arborescence, is_branching, is_forest, is_tree

__all__ = [
    "ARGUMENT_CHECKS",
    "all_pairs_bellman_ford_path",
    "all_pairs_bellman_ford_path_length",
    "all_pairs_dijkstra",
    "all_pairs_dijkstra_path",
    "all_pairs_dijkstra_path_length",
    "all_pairs_shortest_path",
    "all_pairs_shortest_path_length",
    "ancestors",
    "attracting_components",
    "average_clustering",
    "average_shortest_path_length",
    "barycenter",
    "bellman_ford_path",
    "bellman_ford_path_length",
    "bellman_ford_predecessor_and_distance",
    "betweenness_centrality",
    "bfs_edges",
    "bfs_layers",
    "bfs_predecessors",
    "bfs_successors",
    "bfs_tree",
    "center",
    "closeness_centrality",
    "clustering",
    "condensation",
    "connected_components",
    "core_number",
    "dag_longest_path",
    "dag_longest_path_length",
    "descendants",
    "descendants_at_distance",
    "dfs_edges",
    "dfs_labeled_edges",
    "dfs_postorder_nodes",
    "dfs_predecessors",
    "dfs_preorder_nodes",
    "dfs_successors",
    "dfs_tree",
    "diameter",
    "dijkstra_predecessor_and_distance",
    "eccentricity",
    "edge_betweenness_centrality",
    "eigenvector_centrality",
    "find_negative_cycle",
    "global_efficiency",
    "harmonic_centrality",
    "harmonic_diameter",
    "is_aperiodic",
    "is_arborescence",
    "is_attracting_component",
    "is_branching",
    "is_connected",
    "is_directed_acyclic_graph",
    "is_forest",
    "is_semiconnected",
    "is_strongly_connected",
    "is_tree",
    "is_weakly_connected",
    "k_core",
    "k_corona",
    "k_crust",
    "k_shell",
    "k_truss",
    "katz_centrality",
    "local_efficiency",
    "multi_source_dijkstra",
    "multi_source_dijkstra_path",
    "multi_source_dijkstra_path_length",
    "negative_edge_cycle",
    "node_connected_component",
    "number_attracting_components",
    "number_connected_components",
    "number_strongly_connected_components",
    "number_weakly_connected_components",
    "onion_layers",
    "pagerank",
    "periphery",
    "radius",
    "shortest_path",
    "shortest_path_length",
    "single_source_bellman_ford",
    "single_source_bellman_ford_path",
    "single_source_bellman_ford_path_length",
    "single_source_dijkstra",
    "single_source_dijkstra_path",
    "single_source_dijkstra_path_length",
    "single_source_shortest_path",
    "single_source_shortest_path_length",
    "single_target_shortest_path",
    "single_target_shortest_path_length",
    "strongly_connected_components",
    "topological_generations",
    "topological_sort",
    "transitivity",
    "triadic_census",
    "triangles",
    "weakly_connected_components",
    "wiener_index",
]


def _is_directed(G: Any) -> bool:
    return bool(G.is_directed())


def _is_number(x: Any) -> bool:
    return isinstance(x, Real) and not isinstance(x, bool)


def _check_clustering(G, nodes=None, weight=None, **_: Any) -> bool | str:
    return "weighted clustering is not implemented" if weight is not None else True


def _check_triadic_census(G, nodelist=None) -> bool | str:
    return True if nodelist is None else "nodelist= is not implemented"


def _check_undirected(G, **_: Any) -> bool | str:
    return "directed graphs run in NetworkX" if _is_directed(G) else True


def _check_directed(G, **_: Any) -> bool | str:
    return True if _is_directed(G) else "undirected graphs run in NetworkX"


def _check_bfs_tree(G, source=None, reverse=False, depth_limit=None, sort_neighbors=None):
    if sort_neighbors is not None:
        return "sort_neighbors= is not implemented (NetworkX's order is the adjacency order)"
    if depth_limit is not None and not _is_number(depth_limit):
        return f"depth_limit must be a number, got {type(depth_limit).__name__}"
    return True


def _check_bfs_pred(G, source=None, depth_limit=None, sort_neighbors=None):
    return _check_bfs_tree(G, source, False, depth_limit, sort_neighbors)


def _check_bfs_layers(G, sources=None) -> bool | str:
    if networkx_version() >= (3, 5) or sources in G:
        return True
    try:
        one_pass = iter(sources) is sources
    except TypeError:
        return True  # (NetworkX's own error follows)
    if one_pass:  # NetworkX 3.4 lists the iterator, then makes its visited set of what is left
        return "an iterator of sources under NetworkX 3.4 (which reads it twice)"
    return True


def _check_core_k(G, k=None, core_number=None) -> bool | str:
    if k is not None and not _is_number(k):
        return f"k must be a number, got {type(k).__name__}"
    if core_number is not None and not isinstance(core_number, dict):
        return "core_number must be a dict"
    return True


def _check_k_truss(G, k=None) -> bool | str:
    if _is_directed(G):
        return "directed graphs run in NetworkX (which refuses them)"
    return True if _is_number(k) else f"k must be a number, got {type(k).__name__}"


def _check_all_pairs(G, **kwargs: Any) -> bool | str:
    """The all-pairs measures (:mod:`.distance_measures`): unweighted, computed (not given;
    ``closeness_centrality``'s ``u`` and ``eccentricity``'s ``v`` pick the searches) and no
    ``attr`` (``barycenter`` writes it to the graph)."""
    for name in ("sp", "e", "distance", "weight"):
        if kwargs.get(name) is not None:
            return f"{name}= runs in NetworkX (unweighted measures computed here only)"
    if _one_pass(kwargs.get("v")):  # (eccentricity's nbunch: read twice)
        return "an iterator as v runs in NetworkX (it is read once)"
    if kwargs.get("attr") is not None:  # (barycenter's: it writes node attributes)
        return "attr= runs in NetworkX (it writes each node's distance sum to the graph)"
    if kwargs.get("method") not in (None, "unweighted"):
        return "methods other than 'unweighted' run in NetworkX"
    return True


def _check_weight(G, weight="weight", **kwargs: Any) -> bool | str:
    if callable(weight):
        return "weight functions are not implemented (an edge attribute name is)"
    if kwargs.get("cutoff") is not None and not _is_number(kwargs["cutoff"]):
        return "cutoff must be a number"
    return True


def _check_multi_source(G, sources=None, cutoff=None, weight="weight") -> bool | str:
    try:
        one_pass = iter(sources) is sources
    except TypeError:
        return True  # (NetworkX's own error follows)
    if one_pass:  # NetworkX checks each source, then searches from what the iterator has left
        return "an iterator of sources (NetworkX reads it twice)"
    return _check_weight(G, weight, cutoff=cutoff)


def _check_heuristic(G, heuristic=False, weight="weight", **_: Any) -> bool | str:
    if not isinstance(heuristic, bool | int):  # (NetworkX tests it only when it relaxes)
        return f"heuristic not a bool ({type(heuristic).__name__})"
    return _check_weight(G, weight)


def _check_no_target(G, source=None, target=None, cutoff=None, weight="weight", sources=None):
    if target is not None:
        return "a target runs in NetworkX (its search stops there)"
    if sources is not None:
        return _check_multi_source(G, sources, cutoff, weight)
    return _check_weight(G, weight, cutoff=cutoff)


def _check_not_a_view(G, **_: Any) -> bool | str:
    if hasattr(G, "_graph"):  # (NetworkX's views keep the graph they show there)
        return "a view runs in NetworkX (which notices changes to the graph under it)"
    return True


def _check_aperiodic(G) -> bool | str:
    if networkx_version() < (3, 6):
        return (
            "NetworkX before 3.6 searches the rest of a graph that is not strongly connected "
            "in its own order (runs in NetworkX)"
        )
    return True


def _check_longest_path(G, weight="weight", default_weight=1) -> bool | str:
    if weight is None:
        return "weight=None is not implemented (every edge weighs default_weight)"
    return _check_weight(G, weight)


def _check_longest_path_nodes(G, weight="weight", default_weight=1, topo_order=None):
    if topo_order is not None and not isinstance(topo_order, list | tuple):
        return "a topo_order other than a list or tuple runs in NetworkX (an iterator is read once)"
    return _check_longest_path(G, weight, default_weight)


def _check_condensation(G, scc=None) -> bool | str:
    if scc is not None:
        return "a given scc runs in NetworkX (which keeps the objects given)"
    return _check_directed(G)


def _one_end(G, source: Any, target: Any, what: str) -> bool | str:
    """Whether ``shortest_path``/``shortest_path_length`` asks for one dict warpgraph makes:
    from a source, or to a target (``what``: "paths" or "lengths"; NetworkX's search to a
    target of a directed graph runs on its reverse view: replayed here along the in-arcs)."""
    if source is None and target is None:
        return f"all-pairs {what} are not implemented"
    if source is not None and target is not None:
        return (
            f"a source-target {what[:-1]} runs in NetworkX (its bidirectional search stops early)"
        )
    return True


def _check_shortest_path_length(
    G, source=None, target=None, weight=None, method="dijkstra"
) -> bool | str:
    found = _one_end(G, source, target, "lengths")
    return found if found is not True or weight is None else _check_weight(G, weight)


def _check_shortest_path(G, source=None, target=None, weight=None, method="dijkstra") -> bool | str:
    if weight is not None:
        if "single_source_dijkstra_path" not in FUNCTIONS:
            return "weighted paths need warpgraph.algorithms.sssp"
        found = _check_weight(G, weight)
        if found is not True:
            return found
    return _one_end(G, source, target, "paths")


def _is_plain_number(x: Any) -> bool:
    """An ``int``, ``float`` or NumPy number, not a ``bool``: what warpgraph's core takes."""
    return isinstance(x, int | float | np.integer | np.floating) and not isinstance(x, bool)


def _check_node_values(values: Any, name: str) -> bool | str:
    """A ``pagerank`` dict argument warpgraph's core computes with as NetworkX does: a mapping
    of finite, non-negative real numbers (NetworkX reads any ``.get``, and computes with
    negative entries too; whether the entries of the graph's nodes sum to 0 is checked when
    they are read)."""
    if values is None:
        return True
    if not isinstance(values, Mapping):
        return f"{name} is not a mapping ({type(values).__name__})"
    if set(map(type, values.values())) <= {int, float}:  # the usual case: checked at C speed
        try:
            a = np.fromiter(values.values(), dtype=np.float64, count=len(values))
        except OverflowError:
            return f"{name} holds an int too large for a float"
        if np.isfinite(a).all() and (a >= 0).all():
            return True
    for x in values.values():
        if not isinstance(x, Real):
            return f"{name} holds a value that is not a real number ({type(x).__name__})"
        try:
            ok = math.isfinite(x) and x >= 0
        except (OverflowError, TypeError, ValueError):
            ok = False
        if not ok:
            return f"{name} holds a negative, NaN, infinite or huge value ({x!r})"
    return True


def _check_betweenness(G, weight=None, **kwargs: Any) -> bool | str:
    """Unweighted betweenness: weighted (Dijkstra's searches) runs in NetworkX."""
    if weight is not None:
        return "weighted betweenness (Dijkstra's searches) runs in NetworkX"
    return True


def _one_pass(x: Any) -> bool:
    """Whether ``x`` is an iterator (read once: NetworkX could not read it again)."""
    try:
        return iter(x) is x
    except TypeError:
        return False


def _check_harmonic(G, nbunch=None, distance=None, sources=None) -> bool | str:
    """Unweighted, with ``nbunch`` and ``sources`` readable twice (:mod:`.harmonic`)."""
    if distance is not None:
        return "distance= (Dijkstra's searches) runs in NetworkX"
    if _one_pass(nbunch) or _one_pass(sources):
        return "iterators as nbunch or sources run in NetworkX (they are read once)"
    return True


def _check_harmonic_diameter(G, sp=None, weight=None) -> bool | str:
    """Hop distances only: no ``sp``, no weight function (:mod:`.efficiency`)."""
    if sp is not None:
        return "sp= (the caller's own distances) runs in NetworkX"
    if callable(weight):
        return "weight functions run in NetworkX"
    return True


def _check_pagerank(
    G,
    alpha=0.85,
    personalization=None,
    max_iter=100,
    tol=1.0e-6,
    nstart=None,
    weight="weight",
    dangling=None,
) -> bool | str:
    if callable(weight):
        return "weight functions are not implemented (an edge attribute name is)"
    if not _is_plain_number(alpha) or not 0 <= alpha <= 1:
        return f"alpha outside [0, 1] or not a number ({alpha!r})"
    if not _is_plain_number(tol) or not tol >= 0:
        return f"tol negative, NaN or not a number ({tol!r})"
    if isinstance(max_iter, bool) or not isinstance(max_iter, int | np.integer) or max_iter < 0:
        return f"max_iter not a non-negative integer ({max_iter!r})"
    for values, name in ((personalization, "personalization"), (nstart, "nstart"),
                         (dangling, "dangling")):  # fmt: skip
        found = _check_node_values(values, name)
        if found is not True:
            return found
    return True


def _check_plain_values(values: Any, name: str, non_negative: bool) -> bool | str:
    """An ``eigenvector_centrality`` / ``katz_centrality`` dict argument computed with as
    NetworkX does: a mapping of finite ``int`` or ``float`` values (NumPy numbers would make
    NetworkX's arithmetic theirs: float32 for ``np.float32``), non-negative if asked."""
    if values is None:
        return True
    if not isinstance(values, Mapping):
        return f"{name} is not a mapping ({type(values).__name__})"
    if not set(map(type, values.values())) <= {int, float, bool}:
        return f"{name} holds values other than int or float"
    try:
        a = np.fromiter(values.values(), dtype=np.float64, count=len(values))
    except OverflowError:
        return f"{name} holds an int too large for a float"
    if not np.isfinite(a).all():
        return f"{name} holds a NaN or infinite value"
    if non_negative and (a < 0).any():
        return f"{name} holds a negative value (NetworkX's iterates may then be negative)"
    return True


def _check_power_options(max_iter: Any, tol: Any, weight: Any) -> bool | str:
    if callable(weight):
        return "weight functions are not implemented (an edge attribute name is)"
    if weight is not None and not isinstance(weight, str):
        return f"weight is not None or a str ({weight!r})"
    if not _is_plain_number(tol) or not tol >= 0:
        return f"tol negative, NaN or not a number ({tol!r})"
    if isinstance(max_iter, bool) or not isinstance(max_iter, int | np.integer) or max_iter < 0:
        return f"max_iter not a non-negative integer ({max_iter!r})"
    return True


def _check_eigenvector(G, max_iter=100, tol=1.0e-6, nstart=None, weight=None) -> bool | str:
    found = _check_power_options(max_iter, tol, weight)
    return found if found is not True else _check_plain_values(nstart, "nstart", True)


def _check_katz(
    G,
    alpha=0.1,
    beta=1.0,
    max_iter=1000,
    tol=1.0e-6,
    nstart=None,
    normalized=True,
    weight=None,
) -> bool | str:
    found = _check_power_options(max_iter, tol, weight)
    if found is not True:
        return found
    # (Python numbers: NetworkX's arithmetic is then float64's; np.float32 would make it
    # float32's, np.integer ints')
    if type(alpha) not in (int, float, np.float64) or not _finite(alpha):
        return f"alpha not a finite int or float ({alpha!r})"
    if not isinstance(normalized, bool | int | np.bool_ | np.integer):
        return f"normalized not a bool ({normalized!r})"
    if isinstance(beta, Mapping):
        found = _check_plain_values(beta, "beta", False)
        if found is not True:
            return found
        if not normalized and type(alpha) is int and {int, bool} & set(map(type, beta.values())):
            return "int alpha and int beta values without normalizing (NetworkX's values: ints)"
    elif not isinstance(beta, int | float | np.integer | np.floating):
        return f"beta not a number or a dict ({type(beta).__name__})"
    elif not _finite(beta):
        return f"beta NaN, infinite or too large ({beta!r})"
    return _check_plain_values(nstart, "nstart", False)


def _finite(x: Any) -> bool:
    """A number finite as a float (an int past float64's range is not)."""
    try:
        return math.isfinite(x)
    except OverflowError:
        return False


#: ``can_run`` checks per function name (bound arguments as keywords).
ARGUMENT_CHECKS: dict[str, Callable[..., bool | str]] = {
    **dict.fromkeys(distance_measures.__all__, _check_all_pairs),
    "clustering": _check_clustering,
    "average_clustering": _check_clustering,
    "triadic_census": _check_triadic_census,
    "connected_components": _check_undirected,
    "number_connected_components": _check_undirected,
    "is_connected": _check_undirected,
    "node_connected_component": _check_undirected,
    "triangles": _check_undirected,
    "weakly_connected_components": _check_directed,
    "number_weakly_connected_components": _check_directed,
    "is_weakly_connected": _check_directed,
    "strongly_connected_components": _check_directed,
    "number_strongly_connected_components": _check_directed,
    "is_strongly_connected": _check_directed,
    "attracting_components": _check_directed,
    "number_attracting_components": _check_directed,
    "is_attracting_component": _check_directed,
    "is_semiconnected": _check_directed,
    "bfs_edges": _check_bfs_tree,
    "bfs_tree": _check_bfs_tree,
    "bfs_predecessors": _check_bfs_pred,
    "bfs_layers": _check_bfs_layers,
    "bfs_successors": _check_bfs_pred,
    **dict.fromkeys(depth_first.__all__, _check_bfs_pred),  # (the same arguments)
    "k_core": _check_core_k,
    "k_shell": _check_core_k,
    "k_crust": _check_core_k,
    "k_corona": _check_core_k,
    "k_truss": _check_k_truss,
    "single_source_dijkstra_path_length": _check_weight,
    "all_pairs_dijkstra_path_length": _check_weight,
    "all_pairs_dijkstra_path": _check_weight,
    "all_pairs_dijkstra": _check_weight,
    "all_pairs_bellman_ford_path_length": _check_weight,
    "all_pairs_bellman_ford_path": _check_weight,
    "multi_source_dijkstra_path_length": _check_multi_source,
    "multi_source_dijkstra_path": _check_multi_source,
    "single_source_dijkstra_path": _check_weight,
    "dijkstra_predecessor_and_distance": _check_weight,
    "single_source_dijkstra": _check_no_target,
    "single_source_bellman_ford_path": _check_weight,
    "single_source_bellman_ford": _check_no_target,
    "multi_source_dijkstra": _check_no_target,
    "single_source_bellman_ford_path_length": _check_weight,
    "bellman_ford_path_length": _check_weight,
    "bellman_ford_path": _check_weight,
    "bellman_ford_predecessor_and_distance": _check_heuristic,
    "find_negative_cycle": _check_weight,
    "negative_edge_cycle": _check_weight,
    "shortest_path_length": _check_shortest_path_length,
    "shortest_path": _check_shortest_path,
    "pagerank": _check_pagerank,
    "eigenvector_centrality": _check_eigenvector,
    "katz_centrality": _check_katz,
    "betweenness_centrality": _check_betweenness,
    "harmonic_centrality": _check_harmonic,
    "global_efficiency": _check_undirected,
    "harmonic_diameter": _check_harmonic_diameter,
    "local_efficiency": _check_undirected,
    "edge_betweenness_centrality": _check_betweenness,
    "dag_longest_path_length": _check_longest_path,
    "dag_longest_path": _check_longest_path_nodes,
    "condensation": _check_condensation,
    "is_aperiodic": _check_aperiodic,
    "topological_sort": _check_not_a_view,
    "topological_generations": _check_not_a_view,
    "is_branching": _check_directed,
    "is_arborescence": _check_directed,
}
