"""``number_strongly_connected_components`` on graphs without cycles: answered by the acyclicity
check (a bounded depth-first search, then in-degree peeling) in ``nx/components.py``, against
NetworkX on DAGs, DAGs with self-loops, and cyclic graphs whose cycle the bounded search misses."""

from __future__ import annotations

import numpy as np
import pytest

nx = pytest.importorskip("networkx")

from warpgraph.nx import components  # noqa: E402
from warpgraph.nx.interface import backend_interface  # noqa: E402

BACKEND = "warpgraph"
if BACKEND not in nx.utils.backends.backends:
    pytest.skip("warpgraph is not registered as a NetworkX backend", allow_module_level=True)


def _random_dag(n: int, m: int, seed: int) -> nx.DiGraph:
    """Arcs from lower to higher rank, ranks a random permutation (node order is not
    topological)."""
    rng = np.random.default_rng(seed)
    rank = rng.permutation(n)
    s, d = rng.integers(0, n, m), rng.integers(0, n, m)
    D = nx.DiGraph()
    D.add_nodes_from(rng.permutation(n).tolist())
    D.add_edges_from(
        (int(a), int(b)) if rank[a] < rank[b] else (int(b), int(a))
        for a, b in zip(s, d, strict=True)
        if a != b
    )
    return D


def _down_dag(n: int, m: int, seed: int) -> nx.DiGraph:
    """Arcs from each node to random older (lower) ones, as a growing network's."""
    rng = np.random.default_rng(seed)
    tails = rng.integers(1, n, m)
    heads = (rng.random(m) * tails).astype(np.int64)
    D = nx.DiGraph()
    D.add_nodes_from(range(n))
    D.add_edges_from(zip(tails.tolist(), heads.tolist(), strict=True))
    return D


def _grid_dag(side: int) -> nx.DiGraph:
    return nx.DiGraph((u, v) for u, v in nx.grid_2d_graph(side, side).edges)  # low -> high


def _late_cycle(n: int) -> nx.DiGraph:
    """A long path whose only cycle (two nodes) lies at its far end: the bounded search
    follows the path and gives up before it."""
    D = nx.path_graph(n, create_using=nx.DiGraph)
    D.add_edge(n - 1, n - 2)
    return D


CASES = {
    "random dag": lambda: _random_dag(20000, 60000, seed=1),
    "grid dag": lambda: _grid_dag(120),
    "dag with self-loops": lambda: nx.DiGraph(
        [*_random_dag(8000, 20000, seed=2).edges, *((v, v) for v in range(0, 8000, 3))]
    ),
    "late two-cycle": lambda: _late_cycle(components.CYCLE_SEARCH_ARCS * 3),
    "early cycle": lambda: nx.gnm_random_graph(20000, 100000, seed=3, directed=True),
    "dag plus one back arc": lambda: nx.DiGraph([*_grid_dag(120).edges, ((119, 119), (0, 0))]),
    "no arcs": lambda: nx.empty_graph(5000, create_using=nx.DiGraph),
    "growing network (arcs to older nodes)": lambda: _down_dag(20000, 60000, seed=4),
    "long path (arcs to newer nodes)": lambda: nx.path_graph(50000, create_using=nx.DiGraph),
}


@pytest.mark.parametrize("case", CASES)
def test_count_equals_networkx(case, device):
    D = CASES[case]()
    before = nx.config.backends.warpgraph.device
    nx.config.backends.warpgraph.device = device
    try:
        got = nx.number_strongly_connected_components(D, backend=BACKEND)
    finally:
        nx.config.backends.warpgraph.device = before
    assert got == nx.number_strongly_connected_components(D)


@pytest.mark.parametrize("case", CASES)
def test_acyclic_check_answers_what_networkx_says(case):
    D = CASES[case]()
    W = backend_interface.convert_from_nx(D)
    assert components._acyclic(W) == nx.is_directed_acyclic_graph(
        nx.DiGraph([(u, v) for u, v in D.edges if u != v])
    )


def test_bounded_search_gives_up_and_peeling_decides(monkeypatch):
    """The late cycle is beyond the search's budget: peeling (not the search) finds it."""
    D = _late_cycle(components.CYCLE_SEARCH_ARCS * 3)
    W = backend_interface.convert_from_nx(D)
    g = W.any_order
    indptr, heads = np.asarray(g.indptr), np.asarray(g.indices)
    assert not components._cycle_found(indptr, heads, len(W), components.CYCLE_SEARCH_ARCS)
    assert components._cycle_found(indptr, heads, len(W), 10**9)
    assert not components._peels_away(indptr, heads, len(W))
    assert not components._acyclic(W)


def test_one_way_arcs_in_node_order():
    """Arcs all to lower ids, or all to higher ids: acyclic by the one-pass check; a random
    DAG (ranks shuffled) is not one way but still acyclic (by peeling)."""

    def one_way(D, loops_block=False):
        g = backend_interface.convert_from_nx(D).any_order
        indptr, heads = np.asarray(g.indptr), np.asarray(g.indices)
        return int(components._one_way(indptr, heads, loops_block))

    down = _down_dag(5000, 15000, seed=5)
    assert one_way(down) == -1 and one_way(down.reverse(copy=True)) == 1
    looped = down.copy()
    looped.add_edges_from((v, v) for v in range(0, 5000, 7))  # self-loops do not count
    assert one_way(looped) == -1
    assert one_way(looped, loops_block=True) == 0  # (unless they block: a cycle to NetworkX)
    shuffled = _random_dag(5000, 20000, seed=6)
    assert not one_way(shuffled)
    assert components._acyclic(backend_interface.convert_from_nx(shuffled))
