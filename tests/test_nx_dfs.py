"""``nx/depth_first.py`` against NetworkX itself and an independent oracle.

NetworkX's seven depth-first functions through the backend (``backend="warpgraph"``, so small
graphs cannot fall back to NetworkX) must give NetworkX's exact items in its order, the same
``DiGraph`` from ``dfs_tree`` (node, successor and predecessor order) and the same exception at
the same point of the iteration. The oracle is a recursive depth-first search written here
(NetworkX's is iterative, with a stack of iterators): its tree edges, first-visit and pop
orders, and the labelled triples from their definitions.
"""

from __future__ import annotations

import math
import random
import sys

import numpy as np
import pytest

nx = pytest.importorskip("networkx")

from nx_compare import backend_device  # noqa: E402  (tests/nx_compare.py)
from nx_labels import random_graph as labelled_graph  # noqa: E402  (tests/nx_labels.py)
from nx_labels import shuffled_labels  # noqa: E402
from warpgraph.nx import depth_first  # noqa: E402

BACKEND = "warpgraph"
if BACKEND not in nx.utils.backends.backends:
    pytest.skip("warpgraph is not registered as a NetworkX backend", allow_module_level=True)

FUNCTIONS = tuple(depth_first.__all__)
LIMITS = (None, 0, 1, 2, 3.5, -1, math.nan, math.inf, -math.inf, 10**400)


def random_graph(seed: int, *, directed: bool, kind: str, n: int | None = None) -> nx.Graph:
    """:func:`nx_labels.random_graph`, without self-loops for every fourth seed."""
    G = labelled_graph(nx, seed, directed=directed, kind=kind, n=n)
    if seed % 4 == 0:
        G.remove_edges_from(list(nx.selfloop_edges(G)))
    return G


def observed(func: str, G, *args, **kwargs) -> tuple:
    """Everything a caller can see of ``func``'s result: the items up to an error, the error's
    type and message; for a graph, its nodes, edges and each node's predecessors in order."""
    items: list = []
    try:
        result = getattr(nx, func)(G, *args, **kwargs)
        if isinstance(result, nx.DiGraph):
            pred = [list(result._pred[v]) for v in result]
            return "graph", list(result.nodes), list(result.edges), pred, dict(result.graph)
        if isinstance(result, dict):
            return "dict", list(result.items())
        for item in result:
            items.append(item)
        return "items", items
    except Exception as exc:
        return "error", items, type(exc), str(exc)


def assert_as_networkx(func: str, G, *args, **kwargs) -> tuple:
    theirs = observed(func, G, *args, **kwargs)
    ours = observed(func, G, *args, backend=BACKEND, **kwargs)
    assert ours == theirs, (func, args, kwargs)
    return ours


def recursive_dfs(G, source, depth_limit) -> list[tuple]:
    """The oracle: labelled triples by definition, from a recursive search. A node is
    searched when found at depth below ``depth_limit`` (the start is at depth 1); one found
    at the limit is visited but its row is not read."""
    limit = len(G) if depth_limit is None else depth_limit
    starts = list(G) if source is None else [source]
    seen: set = set()
    out: list[tuple] = []

    def search(u, depth):
        for v in G[u]:
            if v in seen:
                out.append((u, v, "nontree"))
                continue
            seen.add(v)
            out.append((u, v, "forward"))
            if depth < limit:
                search(v, depth + 1)
                out.append((u, v, "reverse"))
            else:
                out.append((u, v, "reverse-depth_limit"))

    for s in starts:
        if s in seen:
            continue
        seen.add(s)
        out.append((s, s, "forward"))
        search(s, 1)
        out.append((s, s, "reverse"))
    return out


@pytest.mark.parametrize("seed", range(40))
@pytest.mark.parametrize("directed", [False, True])
def test_every_function_as_networkx(seed, directed):
    kinds = ("int", "str", "tuple", "mixed")
    G = random_graph(seed, directed=directed, kind=kinds[seed % 4])
    rng = random.Random(seed)
    nodes = list(G)
    sources = (None, nodes[0], rng.choice(nodes))
    for func in FUNCTIONS:
        for source in sources:
            for limit in LIMITS[: None if seed % 5 == 0 else 3]:
                assert_as_networkx(func, G, source, limit)


@pytest.mark.parametrize("seed", range(30))
@pytest.mark.parametrize("directed", [False, True])
def test_against_the_recursive_oracle(seed, directed):
    G = random_graph(seed + 100, directed=directed, kind="mixed")
    rng = random.Random(seed)
    for source in (None, rng.choice(list(G))):
        for limit in (None, 1, 2, 4):
            want = recursive_dfs(G, source, limit)
            got = list(nx.dfs_labeled_edges(G, source, limit, backend=BACKEND))
            assert got == want
            tree = [(u, v) for u, v, d in want if d == "forward" and u != v]
            assert list(nx.dfs_edges(G, source, limit, backend=BACKEND)) == tree
            pre = [v for _, v, d in want if d == "forward"]
            assert list(nx.dfs_preorder_nodes(G, source, limit, backend=BACKEND)) == pre
            post = [v for _, v, d in want if d == "reverse"]
            assert list(nx.dfs_postorder_nodes(G, source, limit, backend=BACKEND)) == post
            pred = nx.dfs_predecessors(G, source, limit, backend=BACKEND)
            assert pred == {v: u for u, v in tree}


def test_a_path_deeper_than_the_recursion_limit():
    """NetworkX's search is iterative; so is the compiled pass (a 100k-node path)."""
    n = 100_000
    G = nx.path_graph(n)
    assert n > sys.getrecursionlimit()
    post = list(nx.dfs_postorder_nodes(G, 0, backend=BACKEND))
    assert post == list(range(n - 1, -1, -1))
    assert list(nx.dfs_edges(G, n // 2, 3, backend=BACKEND)) == [
        (n // 2, n // 2 - 1),
        (n // 2 - 1, n // 2 - 2),
        (n // 2 - 2, n // 2 - 3),
        (n // 2, n // 2 + 1),
        (n // 2 + 1, n // 2 + 2),
        (n // 2 + 2, n // 2 + 3),
    ]


@pytest.mark.parametrize("directed", [False, True])
@pytest.mark.parametrize("kind", ["int", "str", "tuple"])
def test_large_graphs_through_the_compiled_builders(directed, kind):
    """Past NATIVE_MIN nodes the tree and the dicts are built by the compiled C-API loops
    (int labels 0..n-1 in order: predecessors as a dict of ints)."""
    rng = random.Random(7)
    n = 3000
    G = nx.gnm_random_graph(n, 4 * n, seed=7, directed=directed)
    if kind != "int":
        labels = shuffled_labels(kind, n, rng)
        G = nx.relabel_nodes(G, dict(enumerate(labels)))
    G.add_nodes_from(["isolated-a", "isolated-b"])
    source = next(iter(G))
    for func in FUNCTIONS:
        for s in (source, None):
            assert_as_networkx(func, G, s)
            assert_as_networkx(func, G, s, 5)


def test_missing_and_unhashable_sources_fail_where_networkx_does():
    for G in (nx.path_graph(4), nx.DiGraph(nx.path_graph(4))):
        for func in FUNCTIONS:
            got = assert_as_networkx(func, G, "missing")
            assert got[0] == "error"
            assert got[2] is nx.NetworkXError
            assert assert_as_networkx(func, G, ["not", "hashable"])[2] is TypeError
    # NetworkX yields the start before it reads its row, then fails
    got = observed("dfs_labeled_edges", nx.path_graph(3), 9, backend=BACKEND)
    assert got[1] == [(9, 9, "forward")] and "not in the graph" in got[3]
    got = observed("dfs_preorder_nodes", nx.DiGraph([(0, 1)]), 9, backend=BACKEND)
    assert got[1] == [9] and "not in the digraph" in got[3]


def test_generators_wait_for_the_first_item():
    """Like NetworkX's generators, nothing is raised before iteration starts."""
    G = nx.path_graph(3)
    for func in ("dfs_edges", "dfs_preorder_nodes", "dfs_postorder_nodes", "dfs_labeled_edges"):
        it = getattr(nx, func)(G, "missing", backend=BACKEND)
        with pytest.raises(nx.NetworkXError):
            list(it)
    for func in ("dfs_tree", "dfs_predecessors", "dfs_successors"):
        with pytest.raises(nx.NetworkXError):
            getattr(nx, func)(G, "missing", backend=BACKEND)


def test_null_graph_and_single_nodes():
    for G in (nx.Graph(), nx.DiGraph()):
        for func in FUNCTIONS:
            assert_as_networkx(func, G)
    for G in (nx.empty_graph(1), nx.DiGraph([(0, 0)]), nx.Graph([("a", "a")])):
        for func in FUNCTIONS:
            assert_as_networkx(func, G)
            assert_as_networkx(func, G, next(iter(G)), 1)


def test_dfs_tree_without_a_source_keeps_every_node_in_graph_order():
    G = nx.Graph([(3, 1), (1, 2), (5, 4)])
    G.add_node(0)
    T = nx.dfs_tree(G, backend=BACKEND)
    assert list(T) == [3, 1, 2, 5, 4, 0]
    assert list(T.edges) == [(3, 1), (1, 2), (5, 4)]
    assert T[3][1] is T._pred[1][3]  # one data dict per edge, shared as NetworkX's
    assert_as_networkx("dfs_tree", G)


def test_the_converted_graph_follows_a_change():
    G = nx.path_graph(2000)
    first = list(nx.dfs_preorder_nodes(G, 0, backend=BACKEND))
    G.add_edge(0, 1999)
    G.remove_edge(0, 1)
    assert_as_networkx("dfs_preorder_nodes", G, 0)
    assert list(nx.dfs_preorder_nodes(G, 0, backend=BACKEND)) != first


def test_declined_arguments_run_in_networkx():
    G = nx.path_graph(3)
    backend = nx.utils.backends.backends[BACKEND].load()
    for func in FUNCTIONS:
        assert backend.can_run(func, (G, 0), {"sort_neighbors": sorted}) is not True
        assert backend.can_run(func, (G, 0, "deep"), {}) is not True
        assert backend.can_run(func, (G, 0, 2), {}) is True


def test_stack_limit_matches_networkx_comparisons():
    limits = (None, 0, 1, 2, 2.5, 3.0, -4, -0.5, math.nan, math.inf, -math.inf, 99, 10**400, True)
    for limit in limits:
        got = depth_first.stack_limit(limit, 10)
        for depth in range(1, 12):
            pushes = limit is None or depth < limit
            assert (depth < got) == (pushes and depth <= 10), (limit, depth, got)


def test_compiled_pass_scans_rows_in_stored_order():
    """The pass itself, on a CSR whose row order is not sorted."""
    indptr = np.array([0, 2, 3, 3])
    heads = np.array([2, 1, 2])
    tails, ends, _, pre, post, count = depth_first._depth_first(
        indptr, heads, np.array([0]), 3, 4, False
    )
    assert list(zip(tails[:count], ends[:count], strict=True)) == [(0, 2), (0, 1)]
    assert pre.tolist() == [0, 2, 1] and post.tolist() == [2, 1, 0]


@pytest.mark.gpu
def test_on_the_gpu():
    """The device setting changes nothing (the pass runs on the host); a graph past the GPU
    BFS's threshold checks the dispatch there."""
    G = nx.gnm_random_graph(70_000, 300_000, seed=3)
    with backend_device(nx, "gpu"):
        for func in FUNCTIONS:
            assert_as_networkx(func, G, 0)
        assert_as_networkx("dfs_tree", G)
