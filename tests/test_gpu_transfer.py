"""Host -> device copies through the pinned staging buffers (warpgraph.gpu.transfer)."""

from __future__ import annotations

import numpy as np
import pytest

from warpgraph.gpu import transfer

STAGE = transfer.STAGE_BYTES


SIZES = [8, transfer.DIRECT_MAX_BYTES, transfer.DIRECT_MAX_BYTES + 8, STAGE, STAGE + 8]


@pytest.mark.gpu
@pytest.mark.parametrize("nbytes", [*SIZES, 2 * STAGE, 5 * STAGE + 24])
@pytest.mark.parametrize("dtype", [np.int32, np.int64, np.float64])
def test_copies_every_byte_across_the_stage_seams(nbytes, dtype):
    rng = np.random.default_rng(nbytes)
    a = rng.integers(-(2**30), 2**30, size=nbytes // np.dtype(dtype).itemsize).astype(dtype)
    d = transfer.to_device(a)
    assert d.dtype == a.dtype and d.shape == a.shape
    assert np.array_equal(d.get(), a)


@pytest.mark.gpu
def test_back_to_back_copies_do_not_overwrite_a_pending_stage():
    # the second copy reuses the buffers the first one's DMA may still read
    a = np.arange(3 * STAGE // 8, dtype=np.int64)
    b = -np.arange(3 * STAGE // 8, dtype=np.int64)
    da, db = transfer.to_device(a), transfer.to_device(b)
    assert np.array_equal(da.get(), a) and np.array_equal(db.get(), b)


@pytest.mark.gpu
def test_strided_and_multidimensional_arrays_keep_their_shape():
    a = np.arange(4 * STAGE // 8, dtype=np.int64).reshape(-1, 4)[:, ::2]  # not contiguous
    d = transfer.to_device(a)
    assert d.shape == a.shape and np.array_equal(d.get(), a)


@pytest.mark.gpu
def test_copies_in_the_current_stream_order():
    import cupy as cp

    a = np.arange(3 * STAGE // 4, dtype=np.int32)
    with cp.cuda.Stream(non_blocking=True) as s:
        d = transfer.to_device(a)
        total = int(d.sum(dtype=cp.int64))  # a kernel on the same stream sees the copy
        s.synchronize()
    assert total == int(a.sum(dtype=np.int64))


@pytest.mark.gpu
def test_copies_on_two_devices_share_the_buffers():
    import cupy as cp

    if cp.cuda.runtime.getDeviceCount() < 2:
        pytest.skip("needs two GPUs")
    a = np.arange(3 * STAGE // 8, dtype=np.int64)
    copies = []
    for dev in (0, 1, 0, 1):  # each buffer's last copy was made on the other device
        with cp.cuda.Device(dev):
            copies.append((dev, transfer.to_device(a + dev)))
    for dev, d in copies:
        assert d.device.id == dev and np.array_equal(d.get(), a + dev)


@pytest.mark.parametrize("values", [["a", "b"], [object(), 1], np.array(["x"] * 10)])
def test_refuses_arrays_that_are_not_numbers(values):
    from warpgraph.errors import InvalidArgumentError

    with pytest.raises(InvalidArgumentError, match="numeric or boolean arrays; got dtype"):
        transfer.to_device(np.asarray(values, dtype=object if isinstance(values, list) else None))
