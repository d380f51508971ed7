"""NetworkX's search order of the nodes found in place, from their rows read by all threads
(:func:`warpgraph.nx._component_order.reached_order`, :func:`._dict_reach.rows_of_nodes`).

``descendants`` / ``ancestors`` sets iterate as NetworkX's only when built in NetworkX's
search order where keys compete for slots. The oracle is NetworkX's own ``bfs_edges`` (its
order of the nodes found) and, for the sets, NetworkX's functions listed as they iterate.
"""

from __future__ import annotations

import random

import numpy as np
import pytest

nx = pytest.importorskip("networkx")

from warpgraph.nx import _component_order, _cpython, _dict_reach  # noqa: E402
from warpgraph.nx._component_order import reached_order, smallest_mask  # noqa: E402

BACKEND = "warpgraph"
if BACKEND not in nx.utils.backends.backends:
    pytest.skip("warpgraph is not registered as a NetworkX backend", allow_module_level=True)


def _lattice(rows: int, seed: int = 0) -> nx.DiGraph:
    """A lattice oriented from lower to higher labels (``0..n-1`` added in order): a source's
    ancestors are the rectangle before it, ids spread over the graph (their set's order
    matters), with arcs in shuffled order in each row and a few removed (deleted entries)."""
    n = rows * rows
    arcs = [(v, v + 1) for v in range(n) if (v + 1) % rows]
    arcs += [(v, v + rows) for v in range(n - rows)]
    random.Random(seed).shuffle(arcs)
    D = nx.DiGraph()
    D.add_nodes_from(range(n))
    D.add_edges_from(arcs)
    D.remove_edges_from(arcs[::37])
    return D


def _sparse(n: int, seed: int) -> nx.DiGraph:
    """A random digraph of the labels ``0..n-1`` with ~1.1 arcs a node: reaches of all
    sizes, cycles and self-loops."""
    D = nx.gnm_random_graph(n, int(1.1 * n), seed=seed, directed=True)
    D.add_edges_from((v, v) for v in range(0, n, 97))
    return D


def _networkx_order(D: nx.DiGraph, source: int, reverse: bool) -> list:
    return [source, *(v for _, v in nx.bfs_edges(D, source, reverse=reverse))]


GRAPHS = {"lattice": lambda: _lattice(90), "sparse": lambda: _sparse(9000, 3)}


@pytest.mark.parametrize("graph", sorted(GRAPHS))
def test_reached_order_is_networkx_search_order(graph):
    """The source, then the nodes it reaches in NetworkX's ``bfs_edges`` order, through
    ``_succ`` and ``_pred``; equal to the search of the dicts one row at a time."""
    D = GRAPHS[graph]()
    n = len(D)
    checked = 0
    for source in random.Random(1).sample(range(n), 12):
        for rows_of, reverse in ((D._succ, False), (D._pred, True)):
            tables = _cpython.row_tables(rows_of, _dict_reach.MIN_NODES)
            found = _dict_reach.reach(rows_of, hash(source), tables=tables)
            assert tables is not None and found is not None
            order = reached_order(tables, source, found)
            assert order is not None
            assert order.tolist() == _networkx_order(D, source, reverse), (graph, source)
            again = _component_order.search_orders_in_place(
                None, None, [found.size + 1], from_node=source, rows_of=rows_of, tables=tables
            )
            assert again is not None and again.tolist() == order.tolist()
            checked += found.size > 0
    assert checked >= 8


def test_reached_order_refuses_nodes_missing_or_rows_changed():
    """A node left out of ``found`` (a row then reaches a node not among them) or a row
    that reaches a node the tables do not hold: None, so the caller searches the dicts."""
    D = _lattice(70)
    source = 70 * 40 + 40
    tables = _cpython.row_tables(D._pred, _dict_reach.MIN_NODES)
    found = _dict_reach.reach(D._pred, hash(source), tables=tables)
    assert reached_order(tables, source, found) is not None
    for left_out in (0, found.size // 2, found.size - 1):
        assert reached_order(tables, source, np.delete(found, left_out)) is None
    D.add_edge(10**7, int(found[3]))  # (a predecessor the tables do not know)
    assert reached_order(tables, source, found) is None


def test_rows_of_nodes_reads_each_row_in_its_order():
    """Every row of the positions asked, in any order, with repeats and empty rows, equal
    to its dict's keys in order (rows with deleted entries among them)."""
    D = _lattice(80, seed=4)
    D.add_edges_from((v, (v * 7) % 6400) for v in range(0, 6400, 3))
    tables = _cpython.row_tables(D._succ, _dict_reach.MIN_NODES)
    nodes = np.array([6399, 0, 5, 5, 3200, *random.Random(2).sample(range(6400), 500)])
    indptr, heads = _dict_reach.rows_of_nodes(tables, nodes)
    assert indptr.tolist()[0] == 0 and indptr.size == nodes.size + 1
    for i, v in enumerate(nodes.tolist()):
        assert heads[indptr[i] : indptr[i + 1]].tolist() == list(D._succ[v]), v
    D.add_edge(7, 10**7)  # (a node the tables do not hold)
    assert _dict_reach.rows_of_nodes(tables, np.array([3, 7])) is None


def test_near_position_order_keeps_every_node_source_first():
    rng = np.random.default_rng(5)
    for n in (4096, 100_000, 501_264):
        found = rng.choice(n, size=min(n - 1, 30_000), replace=False).astype(np.int64)
        source = int(np.setdiff1d(np.arange(n), found)[0])
        nodes = _component_order._near_position_order(source, found, n)
        assert nodes[0] == source
        assert sorted(nodes[1:].tolist()) == sorted(found.tolist())
        block = max(1, n // 4096)
        assert (np.diff(nodes[1:] // (2 ** int(np.ceil(np.log2(block))))) >= 0).all()


def _answers(monkeypatch, module, name: str) -> list[bool]:
    """Whether each call of ``module.name`` (spied on for the test) gave an answer."""
    answered: list[bool] = []
    real = getattr(module, name)

    def spy(*args):
        found = real(*args)
        answered.append(found is not None)
        return found

    monkeypatch.setattr(module, name, spy)
    return answered


def _cut_lattice(side: int, rows: int, cols: int) -> tuple[nx.Graph, int]:
    """An undirected ``side`` x ``side`` lattice (labels ``0..n-1`` row by row) whose last
    ``rows`` rows' first ``cols`` columns are cut off (a component of high ids), and the
    first id of that block."""
    U = nx.convert_node_labels_to_integers(nx.grid_2d_graph(side, side))
    cut = side * (side - rows)
    U.remove_edges_from([(v, v - side) for v in range(cut, cut + cols)])
    U.remove_edges_from([(v, v + 1) for v in range(cut + cols - 1, side * side, side)])
    return U, cut


def _past_table(found: set) -> bool:
    """Whether a set of int keys found in place is past the short search and holds a key
    beyond its table's smallest mask (so its order matters)."""
    return len(found) > 512 and max(found) > smallest_mask(len(found))


def _equal_unconverted(G, source, *checks) -> None:
    """``descendants`` and ``ancestors`` from ``source``: NetworkX's sets, iterating alike,
    first calls, ``G`` never converted; ``checks`` called with NetworkX's set first."""
    for f in (nx.descendants, nx.ancestors):
        want = f(G, source)
        for check in checks:
            check(want)
        G.__networkx_cache__.clear()
        ours = f(G, source, backend=BACKEND)
        assert ours == want and list(ours) == list(want), (f.__name__, source)
        cached = G.__networkx_cache__.get("backends", {}).get(BACKEND, {}).values()
        assert [W.pending is G for W in cached] == [True]


@pytest.mark.parametrize("from_rows", [True, False])
def test_sets_whose_order_matters_iterate_as_networkx(monkeypatch, from_rows):
    """``descendants`` / ``ancestors`` found in place whose keys do not all sit in their home
    slots, built in NetworkX's order (from the rows read, or the dicts searched again): equal
    and iterating alike, the graph never converted."""
    monkeypatch.setattr(_component_order, "ORDER_FROM_ROWS_READ", from_rows)
    D = _lattice(110, seed=9)
    ordered: list[bool] = []
    for source in (110 * 60 + 70, 110 * 100 + 20, 110 * 30 + 90, 5000):
        _equal_unconverted(D, source, lambda want: ordered.append(_past_table(want)))
    assert sum(ordered) >= 4  # (the sets whose order matters: the path under test)


@pytest.mark.parametrize("from_rows", [True, False])
def test_undirected_component_sets_whose_order_matters(monkeypatch, from_rows):
    """An undirected graph's ``descendants`` / ``ancestors`` (the source's component less
    the source) whose ids lie past its set's table: built in NetworkX's order from the
    component's rows read in place (or the dicts searched again), equal to NetworkX's and
    iterating alike; the ordered path taken, the graph never converted."""
    monkeypatch.setattr(_component_order, "ORDER_FROM_ROWS_READ", from_rows)
    ordered = _answers(monkeypatch, _component_order, "reached_order")
    # The last 100 rows' first 24 columns: a component whose 2,400 ids span 15,000, more
    # than its set's table (8,192 slots), so keys compete for slots.
    U, cut = _cut_lattice(150, 100, 24)
    for source in (cut + 5 * 150 + 7, 150 * 150 - 150 + 3):
        _equal_unconverted(U, source, lambda want: len(want) == 100 * 24 - 1 or pytest.fail())
    assert ordered == ([True] * 4 if from_rows else [])


@pytest.mark.parametrize("share", [1, 10**9])
def test_undirected_small_component_searched_in_place(monkeypatch, share):
    """An undirected graph's ``descendants`` / ``ancestors`` of a node in a small component
    (more than the short search's 512 nodes): searched in place while the workers read at
    most ``1 / SMALL_COMPONENT_SHARE`` of the rows (share 1: the search always finishes),
    else the components pass (share 10**9: it gives up at once); NetworkX's sets either way,
    iterating alike, never converted."""
    from warpgraph.nx import components, reachability

    monkeypatch.setattr(components, "SMALL_COMPONENT_SHARE", share)
    searched = _answers(monkeypatch, reachability, "_reach_set")
    U, cut = _cut_lattice(100, 30, 25)  # (750 nodes cut off)
    for source in (cut + 3 * 100 + 4, 100 * 100 - 100, 7):
        _equal_unconverted(U, source)
    # (the first four in the small component; from node 7, the large one, a worker may read
    # past even share 1's bound, so either path)
    assert searched[:4] == ([True] * 4 if share == 1 else [False] * 4)


def test_positions_outside_the_rows_are_refused():
    """Positions outside the tables' rows, not integers or not 1-D: ``ValueError`` naming
    them (the compiled steps index with them unchecked); nothing is read."""
    D = _lattice(70)
    tables = _cpython.row_tables(D._succ, _dict_reach.MIN_NODES)
    n = len(D)
    bad_nodes = (np.array([0, n]), np.array([-1, 3]), np.array([1.0, 2.0]), np.zeros((2, 2), int))
    for nodes in bad_nodes:
        with pytest.raises(ValueError, match="nodes must"):
            _dict_reach.rows_of_nodes(tables, nodes)
    with pytest.raises(ValueError, match="found must lie in"):
        reached_order(tables, 5, np.array([6, n + 3]))
    with pytest.raises(ValueError, match="found must be a 1-D array"):
        reached_order(tables, 5, np.array([6.0]))
    with pytest.raises(ValueError, match="source must lie in"):
        reached_order(tables, n, np.array([6]))
    indptr, heads = _dict_reach.rows_of_nodes(tables, np.array([], dtype=np.int64))
    assert indptr.tolist() == [0] and heads.size == 0
