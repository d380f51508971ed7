"""Host -> device copies of large arrays through reused page-locked staging buffers.

``cupy.asarray`` of a NumPy array copies from pageable memory: the driver stages it through
its own small pinned buffers, one core copying, and on an H100 host a 1M-edge CSR's 9 MB took
1.3-1.6 ms that way. Here the array is copied in chunks into two page-locked buffers by all
cores (Numba), and the DMA engine sends one chunk while the next is being filled. The buffers
are made once per process (2 x :data:`STAGE_BYTES` of pinned host memory, kept for the life of
the process: pinning memory is slow, and a pool that pinned each graph's size anew would pay
that on every first call).

Examples
--------
>>> import numpy as np
>>> from warpgraph.device import gpu_available
>>> if gpu_available():
...     a = np.arange(3_000_000, dtype=np.int32)
...     assert (to_device(a).get() == a).all()
"""

from __future__ import annotations

import threading
from typing import Any

import numba as nb
import numpy as np

from ..device import cupy
from ..errors import InvalidArgumentError

__all__ = ["DIRECT_MAX_BYTES", "STAGE_BYTES", "to_device"]

#: Size of each of the two pinned staging buffers.
STAGE_BYTES = 4 << 20
#: Arrays up to this size are copied by ``cupy.asarray`` (one call's overhead is then smaller).
DIRECT_MAX_BYTES = 1 << 20

_LOCK = threading.Lock()  # the staging buffers serve one copy at a time
# Two (pinned memory, its bytes) buffers, and per buffer the event recorded after the last copy
# from it (None: none yet). The events are made on whichever device copies: pinned memory is
# every device's (unified addressing), an event is its device's.
_STAGES: list[tuple[Any, np.ndarray]] = []
_PENDING: list[Any] = [None, None]

_HOST_TO_DEVICE = 1  # cudaMemcpyHostToDevice


@nb.njit(parallel=True, cache=True, nogil=True)
def _copy_bytes(src, dst):  # pragma: no cover - compiled
    """``dst[:] = src`` in 64 KiB blocks spread over the cores."""
    block = 1 << 16
    blocks = (src.shape[0] + block - 1) // block
    for b in nb.prange(blocks):
        lo = b * block
        hi = min(src.shape[0], lo + block)
        dst[lo:hi] = src[lo:hi]


def _stages(cp) -> list[tuple[Any, np.ndarray]]:
    if not _STAGES:
        for _ in range(2):
            mem = cp.cuda.alloc_pinned_memory(STAGE_BYTES)
            _STAGES.append((mem, np.frombuffer(mem, dtype=np.uint8, count=STAGE_BYTES)))
    return _STAGES


def to_device(a: np.ndarray) -> Any:
    """A CuPy copy of the NumPy array ``a`` on the current device, in the current stream's
    order (kernels launched on that stream afterwards see it; ``a`` may be freed at once).

    Arrays of at most :data:`DIRECT_MAX_BYTES` go through ``cupy.asarray``; larger ones through
    the pinned staging buffers (see the module docstring).

    Raises
    ------
    InvalidArgumentError
        For an array of Python objects (strings, ...): a GPU holds numbers only.
    DeviceUnavailableError
        Without a usable GPU.
    """
    a = np.asarray(a)
    if a.dtype.hasobject or a.dtype.kind not in "biufc":
        raise InvalidArgumentError(
            f"to_device copies numeric or boolean arrays; got dtype {a.dtype} "
            "(convert the values to numbers first)"
        )
    cp = cupy()
    if a.nbytes <= DIRECT_MAX_BYTES:
        return cp.asarray(a)
    a = np.ascontiguousarray(a)
    out = cp.empty(a.shape, dtype=a.dtype)
    src = a.reshape(-1).view(np.uint8)
    stream = cp.cuda.get_current_stream()
    with _LOCK:
        stages = _stages(cp)
        for i, lo in enumerate(range(0, src.size, STAGE_BYTES)):
            k = i % 2
            mem, view = stages[k]
            if _PENDING[k] is not None:  # the copy from this buffer (this call's or earlier)
                _PENDING[k].synchronize()
            size = min(STAGE_BYTES, src.size - lo)
            _copy_bytes(src[lo : lo + size], view[:size])
            cp.cuda.runtime.memcpyAsync(
                out.data.ptr + lo, mem.ptr, size, _HOST_TO_DEVICE, stream.ptr
            )
            done = cp.cuda.Event(block=False, disable_timing=True)  # on the current device
            done.record(stream)
            _PENDING[k] = done
    return out
