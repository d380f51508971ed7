"""One search's distances on the NetworkX dicts in place (:mod:`warpgraph.nx._dict_levels`), and
``closeness_centrality(G, u)`` / ``eccentricity(G, v)`` through the backend that use it.

The oracle is NetworkX's ``single_source_shortest_path_length`` (a Python BFS over the same
dicts): the nodes it reaches, the sum and the largest of its distances. Every branch is forced:
layers expanded by the caller and by all threads, bottom-up layers (undirected graphs only),
the layer flags near their one-byte cap, the probe and the depth limit that give up on deep
graphs, and rows that cannot be read so; then the backend on a first call (the graph left
unconverted) against NetworkX's own functions.
"""

from __future__ import annotations

import random

import pytest

nx = pytest.importorskip("networkx")

from warpgraph.nx import _cpython, _dict_levels, _dict_reach, distance_measures  # noqa: E402
from warpgraph.nx._dict_levels import LevelStats, level_stats  # noqa: E402

BACKEND = "warpgraph"
if BACKEND not in nx.utils.backends.backends:
    pytest.skip("warpgraph is not registered as a NetworkX backend", allow_module_level=True)
if not _cpython.available():
    pytest.skip("the dicts cannot be read in place on this interpreter", allow_module_level=True)


def _oracle(G, source, reverse: bool = False) -> LevelStats:
    lengths = nx.single_source_shortest_path_length(G.reverse(copy=False) if reverse else G,
                                                    source)  # fmt: skip
    return LevelStats(len(lengths), sum(lengths.values()), max(lengths.values()))


def _random(n: int, m: int, seed: int, directed: bool = False, labels: str = "int"):
    G = nx.gnm_random_graph(n, m, seed=seed, directed=directed)
    if labels == "str":
        G = nx.relabel_nodes(G, {v: f"v{v}" for v in G})
    elif labels == "tuple":
        G = nx.relabel_nodes(G, {v: (v % 7, v) for v in G})
    return G


def _lollipop(tail: int, seed: int) -> tuple[nx.Graph, int]:
    """A path of ``tail`` nodes ending in a random graph of 6,000 nodes (degree ~10), and the
    path's far end: a search from there is ``tail`` layers deep before the wide ones."""
    G = nx.gnm_random_graph(6000, 30000, seed=seed)
    nx.add_path(G, [*range(6000 + tail - 1, 5999, -1), 0])
    return G, 6000 + tail - 1


@pytest.mark.parametrize("labels", ["int", "str", "tuple"])
@pytest.mark.parametrize("undirected", [True, False])
def test_equals_networkx_undirected(labels, undirected):
    """Shallow random graphs (a few wide layers), from several sources, bottom-up on and off;
    then the isolated node and a node of a small part (the probe finds few nodes near them)."""
    G = _random(9000, 60000, seed=3, labels=labels)
    nodes = list(G)
    for source in random.Random(1).sample(nodes, 5):
        assert level_stats(G._adj, source, undirected=undirected) == _oracle(G, source)
    G.add_node("alone")
    nx.add_path(G, ["p0", "p1", "p2"])
    assert level_stats(G._adj, "alone", undirected=undirected) is None  # (probe: none near)
    found = level_stats(G._adj, "p1", undirected=undirected, probe=False)
    assert found == _oracle(G, "p1") == LevelStats(3, 2, 1)


@pytest.mark.parametrize("reverse", [False, True])
def test_equals_networkx_directed(reverse):
    """``_succ`` gives the distances from the source, ``_pred`` those to it."""
    D = _random(8000, 64000, seed=5, directed=True)
    rows_of = D._pred if reverse else D._succ
    for source in random.Random(2).sample(list(D), 5):
        assert level_stats(rows_of, source) == _oracle(D, source, reverse)


def test_wide_layers_bottom_up_and_serial_alike(monkeypatch):
    """The same search with every layer expanded by the caller, every one by all threads,
    and with the bottom-up layers: one answer (a spy counts the bottom-up layers run)."""
    G = _random(12000, 90000, seed=7)
    want = _oracle(G, 11)
    runs = []
    real = _dict_levels._layers

    def counted(*args):
        runs.append(args[6:8])  # (bits, wide)
        return real(*args)

    monkeypatch.setattr(_dict_levels, "_layers", counted)
    for wide in (1, 1 << 40):
        monkeypatch.setattr(_dict_levels, "WIDE_LAYER", wide)
        for undirected in (False, True):
            assert level_stats(G._adj, 11, undirected=undirected) == want
    assert [r[1] for r in runs] == [1, 1, 1 << 40, 1 << 40]


def test_bottom_up_runs_on_the_last_wide_layers(monkeypatch):
    """An undirected shallow graph takes at least one bottom-up layer, a directed one none."""
    calls = []
    real = _dict_levels._bottom_up_layer

    def spy(*args):
        calls.append(args[-1])  # (the frontier's flag)
        return real(*args)

    monkeypatch.setattr(_dict_levels, "_bottom_up_layer", spy)
    monkeypatch.setattr(_dict_levels, "_layers", _dict_levels._layers.py_func)
    G = _random(6000, 48000, seed=9)
    assert level_stats(G._adj, 0, undirected=True) == _oracle(G, 0)
    assert calls and all(1 < code < _dict_levels._LAST_CODE for code in calls)
    calls.clear()
    D = _random(6000, 48000, seed=9, directed=True)
    assert level_stats(D._succ, 0) == _oracle(D, 0)
    assert calls == []


@pytest.mark.parametrize("tail", [200, 252, 253, 300])
def test_layers_past_the_flags_byte(tail):
    """A search whose wide layers come after ``tail`` narrow ones: the layer flags cap at
    255, so bottom-up stops being tried near there; the answer stays NetworkX's."""
    G, end = _lollipop(tail, seed=tail)
    found = level_stats(G._adj, end, max_depth=10_000, undirected=True, probe=False)
    assert found == _oracle(G, end)


def test_deep_graphs_give_up():
    """The probe refuses a lattice (few nodes within 16 hops); without it, the depth limit
    does; past it, the answer is NetworkX's."""
    L = nx.grid_2d_graph(80, 80)
    H = nx.convert_node_labels_to_integers(L)
    assert level_stats(H._adj, 0, undirected=True) is None
    assert level_stats(H._adj, 0, 157, undirected=True, probe=False) is None
    found = level_stats(H._adj, 0, 158, undirected=True, probe=False)
    assert found == _oracle(H, 0)
    G, end = _lollipop(300, seed=1)
    assert level_stats(G._adj, end, undirected=True, probe=False) is None  # (MAX_DEPTH)


def test_refuses_what_it_cannot_read():
    """Small graphs, rows that are not plain dicts, and a source not in the graph: None (the
    caller converts); the flags are then not kept, and the next search is NetworkX's."""
    assert level_stats(nx.gnm_random_graph(500, 3000, seed=1)._adj, 0) is None  # small
    G = _random(6000, 40000, seed=11)
    assert level_stats(G._adj, "no such node") is None
    odd = _random(6000, 40000, seed=11)
    odd._adj[0] = type("Row", (dict,), {})(odd._adj[0])  # (the source's row: read first)
    assert level_stats(odd._adj, 0, undirected=True) is None
    assert "seen" not in _dict_reach._KEPT
    assert level_stats(G._adj, 0, undirected=True) == _oracle(G, 0)
    with pytest.raises(ValueError, match="max_depth"):
        level_stats(G._adj, 0, -1)
    with pytest.raises(TypeError):
        level_stats(G._adj, 0, 2.5)
    with pytest.raises(TypeError):
        level_stats(G._adj, [0])
    tables = _cpython.row_tables(_random(5000, 20000, seed=1)._adj)
    if tables is not None:
        with pytest.raises(ValueError, match="not its tables"):
            level_stats(G._adj, 0, tables=tables)


def test_kept_buffers_are_clear_and_shared_with_reach():
    """The flags kept after a search are all 0 again, whether the search ended, went deeper
    than allowed or ran bottom-up; ``descendants``' search in place, which shares them,
    stays right after each."""
    G = _random(7000, 50000, seed=13)
    D = _random(7000, 50000, seed=13, directed=True)
    P = nx.path_graph(6000)
    for rows_of, source, depth, want in [
        (G._adj, 5, None, _oracle(G, 5)),
        (P._adj, 0, 100, None),
        (D._succ, 5, None, _oracle(D, 5)),
        (G._adj, 6, None, _oracle(G, 6)),
    ]:
        found = level_stats(rows_of, source, depth, undirected=rows_of is not D._succ,
                            probe=False)  # fmt: skip
        assert found == want
        kept = _dict_reach._KEPT
        assert kept["seen"].size >= len(rows_of) and not kept["seen"].any()
        flags = _dict_reach.reach_flags(D._succ, hash(5))
        assert set(flags.nonzero()[0].tolist()) == nx.descendants(D, 5)


def test_deleted_entries_are_skipped():
    """Rows with deleted entries (edges removed) and nodes removed from the graph."""
    G = _random(8000, 56000, seed=17)
    rng = random.Random(3)
    G.remove_edges_from(rng.sample(list(G.edges()), 20000))
    G.remove_nodes_from(rng.sample(range(1, 8000), 500))
    assert level_stats(G._adj, 0, undirected=True) == _oracle(G, 0)


# ------------------------------------------------------------ through the backend
def _cached(G) -> list:
    return list(G.__networkx_cache__.get("backends", {}).get(BACKEND, {}).values())


@pytest.mark.parametrize("labels", ["int", "str"])
def test_one_node_calls_search_in_place(labels, monkeypatch):
    """``closeness_centrality(G, u)`` (undirected and directed, with and without
    ``wf_improved``) and ``eccentricity(G, v)`` equal NetworkX's on a first call, searched on
    the dicts (a spy sees the search) with the graph left unconverted; with the switch off,
    converted, the same answers."""
    monkeypatch.setattr(nx.config, "cache_converted_graphs", True)
    found = []
    real = _dict_levels.level_stats

    def spy(*args, **kwargs):
        found.append(real(*args, **kwargs))
        return found[-1]

    monkeypatch.setattr(_dict_levels, "level_stats", spy)
    G = _random(7000, 42000, seed=19, labels=labels)
    D = _random(7000, 42000, seed=19, directed=True, labels=labels)
    G.remove_nodes_from(list(G)[6990:])  # (a few nodes fewer: a graph not connected)
    nx.add_path(G, [*list(G)[:2], "tail0", "tail1"])
    u = list(G)[4]
    for switch in (True, False):
        monkeypatch.setattr(distance_measures, "ONE_SEARCH_IN_PLACE", switch)
        for H in (G, D):
            for wf in (True, False):
                H.__networkx_cache__.clear()
                ours = nx.closeness_centrality(H, u=u, wf_improved=wf, backend=BACKEND)
                assert ours == nx.closeness_centrality(H, u=u, wf_improved=wf)
                assert type(ours) is float
                assert [W.pending is H for W in _cached(H)] == [switch]
        for H, v in ((D, u), (nx.gnm_random_graph(6000, 40000, seed=2), 9)):
            assert _outcome(nx.eccentricity, H, v=v, backend=BACKEND) == _outcome(
                nx.eccentricity, H, v=v
            )
    assert len(found) == 6 and all(f is not None for f in found)


def _outcome(f, *args, **kwargs):
    """What ``f`` returns, or the type and message of what it raises."""
    try:
        return f(*args, **kwargs)
    except nx.NetworkXException as e:
        return type(e), str(e)


def test_one_node_errors_are_networkx_errors():
    G = _random(6000, 40000, seed=23)
    G.add_node("alone")
    with pytest.raises(nx.NodeNotFound):
        nx.closeness_centrality(G, u="missing", backend=BACKEND)
    with pytest.raises(nx.NetworkXError, match="not connected"):
        nx.eccentricity(G, v=0, backend=BACKEND)
    assert nx.closeness_centrality(G, u="alone", backend=BACKEND) == 0.0


@pytest.mark.filterwarnings("ignore::UserWarning")
def test_views_and_subclasses_equal_networkx():
    """Graphs whose dicts are not all plain (subgraph, reversed and restricted views) or that
    are not deferred (a subclass) give NetworkX's values too."""

    class Sub(nx.Graph):
        pass

    U = _random(9000, 60000, seed=4)
    D = _random(9000, 60000, seed=4, directed=True)
    graphs = (
        U.subgraph(range(7000)),
        D.reverse(copy=False),
        Sub(U),
        D.subgraph(range(8000)),
        nx.restricted_view(U, [1, 2, 3], [(5, 9)]),
    )
    for G in graphs:
        for u in (4, 10):
            ours = nx.closeness_centrality(G, u=u, backend=BACKEND)
            assert ours == nx.closeness_centrality(G, u=u), type(G).__name__
            assert _outcome(nx.eccentricity, G, v=u, backend=BACKEND) == _outcome(
                nx.eccentricity, G, v=u
            )
