"""A test helper: make the device report no free memory, so the memory checks refuse."""

from __future__ import annotations


class PoolWithNothingFree:
    """CuPy's default pool, its free blocks read as none: ``free_all_blocks`` keeps the free
    parts of chunks still in use, so after other tests in the process the real pool can hold
    more than a small graph needs (seen on an H100, session 58)."""

    def __init__(self, pool):
        self._pool = pool

    def free_bytes(self) -> int:
        return 0

    def __getattr__(self, name):
        return getattr(self._pool, name)


def no_free_device_memory(monkeypatch) -> None:
    """From here on (for the test), ``warpgraph.device.check_device_memory`` sees 0 bytes free
    of 1 GiB: every check of a positive size raises ``OutOfDeviceMemory``. Allocations still
    work."""
    import cupy as cp

    pool = PoolWithNothingFree(cp.get_default_memory_pool())
    monkeypatch.setattr(cp, "get_default_memory_pool", lambda: pool)
    monkeypatch.setattr(cp.cuda.runtime, "memGetInfo", lambda: (0, 1 << 30))
