"""``warpgraph.cpu.prefix``: running sums by parallel chunks equal ``np.cumsum``."""

from __future__ import annotations

import numba as nb
import numpy as np
import pytest

from warpgraph.cpu import prefix


@nb.njit(parallel=True)
def _running(counts, out, totals, size):
    for c in nb.prange(totals.shape[0] - 1):
        run = 0
        for i in range(c * size, min(counts.shape[0], (c + 1) * size)):
            run += counts[i]
            out[i + 1] = run
        totals[c + 1] = run


@pytest.mark.parametrize("rows", [0, 1, 2, 255, 256, 257, 1000, 65_537])
def test_chunk_offsets_give_the_cumulative_sum(rows):
    counts = np.random.default_rng(rows).integers(0, 50, rows)
    count, size = prefix.chunks(rows)
    assert count <= prefix.CHUNKS and count * size >= rows and (count - 1) * size < max(rows, 1)
    out = np.full(rows + 1, -7, dtype=np.int64)  # (out[0] is set too)
    totals = np.full(count + 1, -7, dtype=np.int64)  # (totals[0] is ignored)
    _running(counts, out, totals, size)
    prefix.add_chunk_offsets(out, totals, size)
    np.testing.assert_array_equal(out, np.concatenate([[0], np.cumsum(counts)]))


def test_chunks_of_no_row_and_a_few():
    assert prefix.chunks(0) == (0, 1)
    assert prefix.chunks(-3) == (0, 1)
    assert prefix.chunks(3) == (3, 1)
    assert prefix.chunks(1000) == (250, 4)
    with pytest.raises(TypeError):
        prefix.chunks(2.5)


def test_wrong_arrays_are_refused():
    with pytest.raises(ValueError, match="int64"):
        prefix.add_chunk_offsets(np.zeros(3, np.int32), np.zeros(2, np.int64), 1)
    with pytest.raises(ValueError, match="one-dimensional"):
        prefix.add_chunk_offsets(np.zeros((3, 1), np.int64), np.zeros(2, np.int64), 1)
