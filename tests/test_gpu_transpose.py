"""The device transpose and arc-source expansion in bounded passes (``gpu/transpose.py``).

The logic runs on NumPy here (``xp=np``) against the CPU radix transpose and a SciPy transpose;
the ``gpu`` tests run the same code through CuPy via ``Graph.reverse_csr`` on the device.
"""

from __future__ import annotations

import numpy as np
import pytest
import scipy.sparse as sp
from hypothesis import given, settings
from hypothesis import strategies as st

from warpgraph import Graph
from warpgraph.cpu.transpose import transpose_csr
from warpgraph.gpu.transpose import arc_source_chunks, arc_sources, transpose_csr_chunked

WEIGHT_DTYPES = [None, np.int32, np.int64, np.float32, np.float64]


@st.composite
def digraphs(draw):
    n = draw(st.integers(1, 25))
    k = draw(st.integers(0, 90))
    ids = st.lists(st.integers(0, n - 1), min_size=k, max_size=k)
    src, dst = np.array(draw(ids), np.int64), np.array(draw(ids), np.int64)
    wdt = draw(st.sampled_from(WEIGHT_DTYPES))
    w = None if wdt is None else (np.arange(k) % 11 - 3).astype(wdt)
    return Graph.from_edges(src, dst, w, num_vertices=n)


@settings(max_examples=60, deadline=None)
@given(G=digraphs(), per_pass=st.sampled_from([1, 2, 7, 1 << 25]))
def test_chunked_transpose_equals_the_cpu_radix_transpose(G, per_pass):
    n = G.num_vertices
    want = transpose_csr(G.indptr, G.indices, n, G.weights, index_dtype=np.int32)
    got = transpose_csr_chunked(
        G.indptr, G.indices, n, G.weights, index_dtype=np.int32, arcs_per_pass=per_pass, xp=np
    )
    np.testing.assert_array_equal(got[0], want[0])
    np.testing.assert_array_equal(got[1], want[1])
    assert got[1].dtype == np.int32
    if G.weights is None:
        assert got[2] is None
    else:
        assert got[2].dtype == G.weights.dtype
        np.testing.assert_array_equal(got[2], want[2])
    # independent oracle: SciPy's transpose (rows sorted), for the structure
    A = sp.csr_array((np.ones(G.num_arcs), G.indices, G.indptr), shape=(n, n))
    T = sp.csr_array(A.T)
    T.sum_duplicates()
    T.sort_indices()
    rows = np.repeat(np.arange(n), np.diff(got[0]))
    pairs = np.unique(np.stack([rows, got[1]]), axis=1)
    Trows = np.repeat(np.arange(n), np.diff(T.indptr))
    assert np.array_equal(pairs, np.stack([Trows, T.indices]))


@given(G=digraphs(), per_pass=st.sampled_from([1, 3, 1 << 25]))
def test_arc_sources_in_passes(G, per_pass):
    want = np.repeat(np.arange(G.num_vertices), np.diff(G.indptr))
    got = arc_sources(G.indptr, G.num_arcs, np.int32, arcs_per_pass=per_pass, xp=np)
    assert got.dtype == np.int32 and np.array_equal(got, want)
    spans = [(a, b) for a, b, _ in arc_source_chunks(G.indptr, G.num_arcs, arcs_per_pass=per_pass)]
    assert all(b - a <= per_pass for a, b in spans)
    assert sum(b - a for a, b in spans) == G.num_arcs


def test_bad_pass_size():
    with pytest.raises(ValueError, match="arcs_per_pass"):
        list(arc_source_chunks(np.array([0, 1]), 1, arcs_per_pass=0))


@pytest.mark.gpu
@settings(max_examples=25, deadline=None)
@given(G=digraphs())
def test_gpu_reverse_csr_equals_the_cpu_one(G):
    import cupy as cp

    want = G.reverse_csr()
    D = G.to("gpu")
    got = D.reverse_csr()
    assert isinstance(got[1], cp.ndarray)
    for a, b in zip(got, want, strict=True):
        if b is None:
            assert a is None
        else:
            assert a.dtype == b.dtype
            np.testing.assert_array_equal(cp.asnumpy(a), b)
    np.testing.assert_array_equal(cp.asnumpy(D._arc_sources()), G._arc_sources())


@pytest.mark.gpu
def test_gpu_reverse_csr_many_passes_with_hubs():
    import cupy as cp

    from warpgraph.generators import kronecker

    G = kronecker(12, 8, seed=3, directed=True, weights="gap", simple=False, device="cpu")
    D = G.to("gpu")
    n = G.num_vertices
    want = G.reverse_csr()
    got = transpose_csr_chunked(
        D.indptr, D.indices, n, D.weights, arcs_per_pass=1000, index_dtype=np.int32, xp=cp
    )
    np.testing.assert_array_equal(cp.asnumpy(got[0]), want[0])
    np.testing.assert_array_equal(cp.asnumpy(got[1]), want[1])
    np.testing.assert_array_equal(cp.asnumpy(got[2]), want[2])
    assert int(cp.bincount(D.indices).max()) > 1000  # in-arc rows span several passes
