"""Single-source calls whose search reaches few nodes of a large graph not converted yet are
answered by NetworkX's own code (``nx/_networkx_own.py``): the same results, the graph left
unconverted; larger searches, small graphs, cached conversions and directed closeness run in
the backend as before."""

from __future__ import annotations

import math
import re

import pytest

nx = pytest.importorskip("networkx")

from warpgraph.nx import _networkx_own, _short_reach  # noqa: E402
from warpgraph.nx._networkx_own import FEW_NODES, MIN_NODES, SHORT_CALLS, _depth  # noqa: E402

BACKEND = "warpgraph"


def _cached(G):
    return next(iter(G.__networkx_cache__["backends"]["warpgraph"].values()))


def _readable() -> bool:
    return _short_reach.within(nx.path_graph(3)._adj, 0, 5) is not _short_reach.UNREADABLE


@pytest.fixture(scope="module")
def graphs():
    """A connected weighted lattice of more than MIN_NODES nodes plus 3-node paths, undirected
    and directed (both ways round each lattice edge, one way along each path)."""
    side = math.isqrt(MIN_NODES) + 2
    G = nx.convert_node_labels_to_integers(nx.grid_2d_graph(side, side))
    for u, v in G.edges():
        G.edges[u, v]["weight"] = (u * 7 + v) % 5 + 1
    n = len(G)
    for i in range(20):
        nx.add_path(G, [n + 3 * i, n + 3 * i + 1, n + 3 * i + 2], weight=2)
    D = nx.DiGraph()
    D.add_nodes_from(G)
    D.add_edges_from((u, v, d) for u, v, d in G.edges(data=True))
    D.add_edges_from((v, u, d) for u, v, d in G.edges(data=True) if u < n)
    return G, D, n


CALLS = {  # name -> call(G, source, **kw)
    "single_source_shortest_path_length": lambda G, s, **k: nx.single_source_shortest_path_length(
        G, s, **k
    ),
    "single_source_shortest_path": lambda G, s, **k: nx.single_source_shortest_path(G, s, **k),
    "bfs_edges": lambda G, s, **k: list(nx.bfs_edges(G, s, **k)),
    "bfs_layers": lambda G, s, **k: list(nx.bfs_layers(G, s, **k)),
    "bfs_tree": lambda G, s, **k: list(nx.bfs_tree(G, s, **k).edges()),
    "bfs_predecessors": lambda G, s, **k: list(nx.bfs_predecessors(G, s, **k)),
    "dfs_edges": lambda G, s, **k: list(nx.dfs_edges(G, s, **k)),
    "dfs_postorder_nodes": lambda G, s, **k: list(nx.dfs_postorder_nodes(G, s, **k)),
    "dfs_labeled_edges": lambda G, s, **k: list(nx.dfs_labeled_edges(G, s, **k)),
    "shortest_path": lambda G, s, **k: nx.shortest_path(G, s, **k),
    "shortest_path_length": lambda G, s, **k: nx.shortest_path_length(G, s, weight="weight", **k),
    "single_source_dijkstra": lambda G, s, **k: nx.single_source_dijkstra(G, s, **k),
    "dijkstra_predecessor_and_distance": lambda G, s, **k: nx.dijkstra_predecessor_and_distance(
        G, s, **k
    ),
    "single_source_bellman_ford_path_length": (
        lambda G, s, **k: nx.single_source_bellman_ford_path_length(G, s, **k)
    ),
    "bellman_ford_path_length": lambda G, s, **k: nx.bellman_ford_path_length(G, s, s + 1, **k),
    "closeness_centrality": lambda G, s, **k: nx.closeness_centrality(G, u=s, **k),
    "descendants_at_distance": lambda G, s, **k: nx.descendants_at_distance(G, s, 10, **k),
}


@pytest.mark.parametrize("name", sorted(CALLS))
@pytest.mark.parametrize("directed", [False, True])
def test_few_nodes_answered_by_networkx_unconverted(graphs, name, directed):
    """From a node of a 3-node component: NetworkX's answer, and the graph never converted
    (its cached conversion still the deferred one)."""
    if not _readable():
        pytest.skip("the C API search is not available on this interpreter")
    G, D, n = graphs
    H = D if directed else G
    call = CALLS[name]
    s = n + 30
    H.__networkx_cache__.clear()
    assert call(H, s, backend=BACKEND) == call(H, s)
    alone = not (directed and name == "closeness_centrality")  # (NetworkX copies G.reverse())
    assert (_cached(H).pending is H) == alone, name


@pytest.mark.parametrize("name", ["single_source_shortest_path_length", "bfs_edges", "dfs_edges"])
def test_a_small_cutoff_is_a_small_search(graphs, name):
    """In the connected lattice, a depth limit of 2 reaches a dozen nodes: NetworkX's call;
    a limit of 200 reaches thousands: the backend's (the graph converted)."""
    if not _readable():
        pytest.skip("the C API search is not available on this interpreter")
    G, _, _ = graphs
    key = "cutoff" if name.startswith("single") else "depth_limit"
    call = CALLS[name]
    for limit, alone in ((2, True), (2.9, True), (200, False), (math.nan, False)):
        G.__networkx_cache__.clear()
        assert call(G, 5, backend=BACKEND, **{key: limit}) == call(G, 5, **{key: limit})
        assert (_cached(G).pending is G) == alone, limit


TARGET_CALLS = {  # name -> call(G, target): searches along a directed graph's in-arcs
    "single_target_shortest_path": lambda G, t, **k: nx.single_target_shortest_path(G, t, **k),
    "single_target_shortest_path_length": lambda G, t, **k: dict(
        nx.single_target_shortest_path_length(G, t, **k)
    ),
    "shortest_path": lambda G, t, **k: nx.shortest_path(G, target=t, **k),
    "shortest_path_length": lambda G, t, **k: nx.shortest_path_length(G, target=t, **k),
    "bfs_edges": lambda G, t, **k: list(nx.bfs_edges(G, t, reverse=True, **k)),
}


@pytest.mark.parametrize("name", sorted(TARGET_CALLS))
def test_searches_to_a_target_count_in_arcs(graphs, name):
    """In the directed lattice, the end of a one-way 3-node path is reached from 2 nodes:
    NetworkX's call, unconverted; its start is reached from none but reaches 2 (out-arcs
    would say few too); a lattice node is reached from all: the backend's."""
    if not _readable():
        pytest.skip("the C API search is not available on this interpreter")
    _, D, n = graphs
    call = TARGET_CALLS[name]
    for t, alone in ((n + 5, True), (n + 3, True), (7, False)):
        D.__networkx_cache__.clear()
        assert call(D, t, backend=BACKEND) == call(D, t), (name, t)
        assert (_cached(D).pending is D) == alone, (name, t)
    P = nx.DiGraph()  # (a long in-path to node 0: out-arcs see nothing, in-arcs everything)
    nx.add_path(P, range(MIN_NODES + 10, -1, -1))
    P.__networkx_cache__.clear()
    assert call(P, 0, backend=BACKEND) == call(P, 0)
    assert _cached(P).pending is None, name  # (converted: the in-arc search reaches all)


@pytest.mark.parametrize("name", ["single_source_shortest_path", "bfs_tree", "dfs_edges"])
@pytest.mark.parametrize("directed", [False, True])
def test_a_depth_limit_is_counted_further(name, directed):
    """Within a depth limit the count runs to FEW_NODES_WITHIN_LIMIT nodes, past FEW_NODES:
    along a path of more than MIN_NODES nodes, a limit reaching FEW_NODES + 1 nodes or exactly
    FEW_NODES_WITHIN_LIMIT is NetworkX's call, one node more the backend's; with no limit the
    path is the backend's, and so is a 1,000-node component (past FEW_NODES, no limit)."""
    from warpgraph.nx._networkx_own import FEW_NODES_WITHIN_LIMIT

    if not _readable():
        pytest.skip("the C API search is not available on this interpreter")
    H = nx.path_graph(MIN_NODES + 100, create_using=nx.DiGraph if directed else nx.Graph)
    nx.add_path(H, range(10**6, 10**6 + 1000))
    key = "cutoff" if name.startswith("single") else "depth_limit"
    call = CALLS[name]
    cases = (
        (0, FEW_NODES + 1, True),
        (0, FEW_NODES_WITHIN_LIMIT, True),
        (0, FEW_NODES_WITHIN_LIMIT + 1, False),
        (0, None, False),
        (10**6, None, False),
        (10**6, 900, True),
    )
    for s, limit, alone in cases:
        H.__networkx_cache__.clear()
        assert call(H, s, backend=BACKEND, **{key: limit}) == call(H, s, **{key: limit})
        assert (_cached(H).pending is H) == alone, (s, limit)


def test_large_searches_and_small_graphs_run_in_the_backend(graphs, monkeypatch):
    """A search of the whole lattice, any search of a graph under MIN_NODES nodes, and a
    weighted one: the backend's own (NetworkX's own is never called), equal to NetworkX's; the
    weighted conversion reads the weights in its scan."""
    G = graphs[0]
    called = []
    monkeypatch.setattr(_networkx_own, "few_within",
                        lambda *a: called.append(a) or False)  # fmt: skip
    small = nx.path_graph(50)
    for H, s in ((G, 0), (small, 3)):
        H.__networkx_cache__.clear()
        got = nx.single_source_dijkstra_path_length(H, s, backend=BACKEND)
        assert list(got.items()) == list(nx.single_source_dijkstra_path_length(H, s).items())
        W = _cached(H)
        assert W.pending is None and W.weight == "weight"
    assert [a[1] for a in called] == [(0,)]  # (asked for the lattice only)


def test_depth_of_a_limit():
    assert [_depth(x) for x in (None, True, 0, 3, 2.9, -1, math.inf, math.nan, "3")] == [
        -1, -1, 0, 3, 2, -1, -1, -1, -1]  # fmt: skip


def test_within_counts_the_ball(graphs):
    """:func:`_short_reach.within` counts the nodes within a number of hops as NetworkX's BFS
    finds them, or gives up past its limit."""
    if not _readable():
        pytest.skip("the C API search is not available on this interpreter")
    G, D, n = graphs
    for H in (G, D):
        for s, hops in ((0, 3), (500, 5), (n + 3, -1), (n + 4, 1)):
            ball = nx.single_source_shortest_path_length(H, s, cutoff=None if hops < 0 else hops)
            assert _short_reach.within(H._adj, s, FEW_NODES, hops) == len(ball) - 1
    assert _short_reach.within(G._adj, 0, FEW_NODES) is _short_reach.GAVE_UP
    assert _short_reach.within(D._pred, n + 5, FEW_NODES) == 2  # (a 3-node path, in-arcs)


def test_every_short_call_is_dispatched_and_deferred():
    """Each function of SHORT_CALLS is a dispatched one, converted on first use."""
    from warpgraph.nx import FUNCTIONS
    from warpgraph.nx.interface import DEFERRED

    assert set(SHORT_CALLS) <= set(FUNCTIONS)
    assert set(SHORT_CALLS) <= DEFERRED


@pytest.mark.parametrize(
    "call",
    [
        lambda G, nodes, **k: nx.triangles(G, nodes, **k),
        lambda G, nodes, **k: nx.clustering(G, nodes, **k),
        lambda G, nodes, **k: nx.average_clustering(G, nodes, **k),
    ],
    ids=["triangles", "clustering", "average_clustering"],
)
def test_few_named_nodes_answered_by_networkx(graphs, call):
    """``triangles`` / ``clustering`` / ``average_clustering`` of a node or a few: NetworkX's
    own call, the graph unconverted; too many nodes, a hub's rows past the bound or an
    iterator of nodes (read once): the backend's. Equal to NetworkX's each time."""
    from warpgraph.nx._networkx_own import LOCAL_ENTRIES, LOCAL_NODES

    G = graphs[0].copy()
    G.add_edges_from((7, 10**6 + i) for i in range(LOCAL_ENTRIES))  # (node 7: a hub)
    G.add_edges_from([(10**6, 10**6 + 1)])  # (a triangle at the hub)
    lattice = list(range(100, 100 + LOCAL_NODES + 1))
    cases = [(5, True), ([5, 300, 301], True), ((5,), True), (set(lattice[:3]), True),
             (lattice, False), (7, False), ([5, 7], False), (iter([5, 6]), False)]  # fmt: skip
    for nodes, alone in cases:
        G.__networkx_cache__.clear()
        fresh = hasattr(nodes, "__next__")  # (an iterator: one for each call)
        try:
            want = call(G, iter([5, 6]) if fresh else nodes)
        except AttributeError:  # (NetworkX's average_clustering of one node: so does ours)
            with pytest.raises(AttributeError):
                call(G, nodes, backend=BACKEND)
            continue
        got = call(G, iter([5, 6]) if fresh else nodes, backend=BACKEND)
        assert got == want and type(got) is type(want), nodes
        if isinstance(want, dict):
            assert list(got) == list(want)
        assert (_cached(G).pending is G) == alone, nodes


@pytest.mark.parametrize("name", ["clustering", "average_clustering"])
def test_few_named_nodes_of_a_digraph_count_predecessor_rows(graphs, name):
    """A directed graph's clustering reads both rows of each node: a node with few successors
    but a hub of predecessors (or next to one) is the backend's; a lattice node is NetworkX's."""
    from warpgraph.nx._networkx_own import LOCAL_ENTRIES

    D = graphs[1].copy()
    D.add_edges_from((10**6 + i, 7) for i in range(LOCAL_ENTRIES))  # (node 7: in-hub)
    D.add_edges_from([(7, 10**6), (10**6 + 1, 10**6)])  # (a triangle at the hub)
    call = getattr(nx, name)
    for nodes, alone in ((5, True), ([5, 300], True), (7, False), ([10**6], False)):
        D.__networkx_cache__.clear()
        try:
            want = call(D, nodes)
        except AttributeError:  # (NetworkX's average_clustering of one node: so does ours)
            with pytest.raises(AttributeError):
                call(D, nodes, backend=BACKEND)
            continue
        got = call(D, nodes, backend=BACKEND)
        assert got == want and type(got) is type(want), nodes
        assert (_cached(D).pending is D) == alone, nodes


MULTI = {  # name -> call(G, sources)
    "bfs_layers": lambda G, s, **k: list(nx.bfs_layers(G, s, **k)),
    "multi_source_dijkstra_path_length": nx.multi_source_dijkstra_path_length,
    "multi_source_dijkstra_path": nx.multi_source_dijkstra_path,
    "multi_source_dijkstra": nx.multi_source_dijkstra,
}


@pytest.mark.parametrize("name", sorted(MULTI))
@pytest.mark.parametrize("directed", [False, True])
def test_few_nodes_from_several_sources(graphs, name, directed):
    """Sources in three 3-node components (a list with a repeat, a tuple, a set): NetworkX's
    answer, the graph unconverted; one source in the lattice: the backend's (converted)."""
    if not _readable():
        pytest.skip("the C API search is not available on this interpreter")
    G, D, n = graphs
    H = D if directed else G
    call = MULTI[name]
    few = [n + 30, n + 4, n + 30, n + 58]
    for sources, alone in ((few, True), (tuple(few), True), (set(few), True),
                           ([n + 4, 5], False)):  # fmt: skip
        H.__networkx_cache__.clear()
        assert call(H, sources, backend=BACKEND) == call(H, sources), sources
        assert (_cached(H).pending is H) == alone, sources
    counted = _short_reach.within_sources(H._adj, (n + 30, n + 4, n + 58), FEW_NODES)
    assert counted == (4 if directed else 6)  # (the rest of each path, or the nodes on)
    if name == "bfs_layers":  # (no sources: no layers)
        assert call(H, [], backend=BACKEND) == call(H, []) == []
    bad_ones = ([n + 4, "no such node"], [[n + 4]])  # (not a node; unhashable)
    bad_ones += () if name == "bfs_layers" else ([], n + 4)  # (none; one node, not iterable)
    for bad in bad_ones:  # (NetworkX's own error, from the backend)
        with pytest.raises((nx.NetworkXException, TypeError, ValueError)) as theirs:
            call(H, bad)
        with pytest.raises(type(theirs.value), match=re.escape(str(theirs.value))):
            call(H, bad, backend=BACKEND)


CUTOFF_CALLS = {  # name -> call(G, source, cutoff)
    "single_source_dijkstra_path_length": lambda G, s, c, **k: (
        nx.single_source_dijkstra_path_length(G, s, cutoff=c, **k)
    ),
    "single_source_dijkstra": lambda G, s, c, **k: nx.single_source_dijkstra(G, s, cutoff=c, **k),
    "dijkstra_predecessor_and_distance": lambda G, s, c, **k: nx.dijkstra_predecessor_and_distance(
        G, s, cutoff=c, **k
    ),
    "multi_source_dijkstra_path": lambda G, s, c, **k: nx.multi_source_dijkstra_path(
        G, [s, s + 2], cutoff=c, **k
    ),
}


@pytest.mark.parametrize("name", sorted(CUTOFF_CALLS))
@pytest.mark.parametrize("directed", [False, True])
def test_a_small_distance_cutoff_is_a_small_search(graphs, name, directed):
    """In the connected lattice (weights 1-5), Dijkstra within a distance of 6 settles a few
    dozen nodes: NetworkX's call, unconverted; within 10,000 (or inf, or a cutoff that is not
    a number) the backend's, converted. Both equal to NetworkX's."""
    G, D, _ = graphs
    H = D if directed else G
    call = CUTOFF_CALLS[name]
    for cutoff, alone in ((6, True), (6.5, True), (0, True), (10_000, False), (math.inf, False)):
        H.__networkx_cache__.clear()
        assert call(H, 300, cutoff, backend=BACKEND) == call(H, 300, cutoff), cutoff
        assert (_cached(H).pending is H) == alone, cutoff


def test_distance_cutoff_search_reads_weights_as_networkx(graphs):
    """:func:`few_within_distance` follows NetworkX's Dijkstra: a missing weight counts 1, a
    None weight hides the edge; it gives up at a negative, NaN or non-numeric weight, a
    weight function, a hub's row past LOCAL_ENTRIES, and a cutoff that is not a number."""
    from warpgraph.nx._networkx_own import LOCAL_ENTRIES, few_within_distance

    P = nx.path_graph(2 * FEW_NODES)
    nx.set_edge_attributes(P, 1, "w")
    assert few_within_distance(P, (0,), FEW_NODES, "w")
    assert not few_within_distance(P, (0,), FEW_NODES + 1, "w")
    assert not few_within_distance(P, (0, 100), FEW_NODES, "w")  # (more from both)
    assert few_within_distance(P, (0,), 10**9, "missing") is False  # (counts 1 each)
    P.edges[5, 6]["w"] = None  # (hidden: nothing past node 5)
    assert few_within_distance(P, (0,), 10**9, "w")
    for bad in (-1, math.nan, "3", 2j):
        P.edges[2, 3]["w"] = bad
        assert few_within_distance(P, (0,), 10, "w") is False, bad
    P.edges[2, 3]["w"] = 1
    assert few_within_distance(P, (0,), 10, lambda u, v, d: 1) is False
    for cutoff in (None, "10", math.nan, math.inf, True):
        assert few_within_distance(P, (0,), cutoff, "w") is False, cutoff
    assert few_within_distance(P, ([0],), 10, "w") is False
    assert few_within_distance(P, ("no such node",), 10, "w") is False
    S = nx.star_graph(LOCAL_ENTRIES + 1)
    assert few_within_distance(S, (0,), 0.5, "weight") is False  # (the hub's row: too long)
    assert few_within_distance(S, (1,), 0.5, "weight") is True


def test_bad_arguments_are_refused_or_left_to_the_backend(graphs):
    """:func:`_short_reach.within` refuses a limit or depth that is not an integer and
    declines a negative limit; the checks before a NetworkX-own call answer False (the
    backend's own code then raises NetworkX's errors) for nodes that are not hashable, not
    nodes, or not a container they read."""
    from warpgraph.nx._networkx_own import few_within, local_work_small

    G = graphs[0]
    with pytest.raises(TypeError):
        _short_reach.within(G._adj, 0, 2.5)
    with pytest.raises(TypeError):
        _short_reach.within(G._adj, 0, 10, "2")
    assert _short_reach.within(G._adj, 0, -1) is _short_reach.UNREADABLE
    assert _short_reach.within_sources(G._adj, (), 10) is _short_reach.UNREADABLE  # (none)
    assert _short_reach.within_sources(G._adj, (0, 1.5), 10) is _short_reach.UNREADABLE
    with pytest.raises(TypeError):
        _short_reach.within_sources(G._adj, (0, 1), 2.5)
    assert few_within(G, ([0],), -1, False) is False  # (unhashable)
    assert few_within(G, ("no such node",), -1, False) is False
    assert local_work_small(G, [[0], 1]) is False
    assert local_work_small(G, ["no such node"]) is False
    assert local_work_small(G, "no such node") is False
    with pytest.raises(nx.NodeNotFound):  # (the backend's own error, as NetworkX's)
        nx.single_source_dijkstra_path_length(G, "no such node", backend=BACKEND)
