"""CPU weak components (Shiloach-Vishkin, Afforest) against SciPy's connected_components."""

from __future__ import annotations

import numpy as np
import pytest
import scipy.sparse as sp
from hypothesis import given
from hypothesis import strategies as st
from scipy.sparse import csgraph

from warpgraph import Graph, generators
from warpgraph.algorithms.components import cpu as wcc


def _min_id_labels(n, src, dst):
    """Oracle: SciPy's partition, each component named by its smallest vertex."""
    A = sp.coo_array((np.ones(len(src)), (src, dst)), shape=(n, n))
    _, lab = csgraph.connected_components(A, directed=True, connection="weak")
    first = np.full(lab.max() + 1 if n else 0, n, dtype=np.int64)
    np.minimum.at(first, lab, np.arange(n))
    return first[lab]


@given(st.integers(1, 40), st.integers(0, 80), st.integers(0, 2**32 - 1), st.booleans())
def test_labels_are_min_ids_of_scipy_components(n, m, seed, directed):
    rng = np.random.default_rng(seed)
    src, dst = rng.integers(0, n, m), rng.integers(0, n, m)
    G = Graph.from_edges(src, dst, num_vertices=n, directed=directed)
    want = _min_id_labels(n, src, dst).tolist()
    assert wcc.weak_component_labels(G).tolist() == want
    assert wcc.sv_labels(G.indptr, G.indices, n).tolist() == want


@pytest.mark.parametrize("parallel_min", [0, 1 << 40])  # force each of the two kernels
def test_large_graph_both_kernels(monkeypatch, parallel_min):
    monkeypatch.setattr(wcc, "PARALLEL_MIN_ARCS", parallel_min)
    src, dst = generators.kronecker_edges(12, 4, seed=5, device="cpu")
    G = Graph.from_edges(src, dst, directed=True)
    n = G.num_vertices
    assert np.array_equal(wcc.sv_labels(G.indptr, G.indices, n), _min_id_labels(n, src, dst))


def test_long_chain_reversed_ids():
    # a path numbered against the hooking direction needs many rounds
    n = 2000
    order = np.arange(n)[::-1]
    G = Graph.from_edges(order[:-1], order[1:], num_vertices=n, directed=True)
    assert set(wcc.weak_component_labels(G).tolist()) == {0}
    assert set(wcc.sv_labels(G.indptr, G.indices, n).tolist()) == {0}


@pytest.mark.parametrize("n", [1, 300, 70_001])
@pytest.mark.parametrize("compressed", [True, False])
def test_canonical_labels_in_parallel_number_components_by_smallest_vertex(
    n, compressed, monkeypatch
):
    # labels naming each vertex's component by a smaller member: chains (as before the last
    # pointer jumping) or, compressed, the smallest member itself
    rng = np.random.default_rng(n)
    comp = np.arange(n, dtype=np.int32)
    joined = np.flatnonzero(rng.random(n) < 0.7)
    joined = joined[joined > 0]
    comp[joined] = rng.integers(0, joined)
    roots = comp.copy()
    while not np.array_equal(roots, roots[roots]):  # oracle: NumPy pointer jumping
        roots = roots[roots]
    if compressed:
        comp = roots.copy()
    want = np.searchsorted(np.unique(roots), roots)
    for parallel_from in (1, 1 << 30):  # the parallel passes, then the serial one
        monkeypatch.setattr(wcc, "PARALLEL_RANK_MIN", parallel_from)
        count, got = wcc.canonical_labels(comp)
        assert count == np.unique(roots).size
        assert got.tolist() == want.tolist()
