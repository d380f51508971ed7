"""Backend selection: where an algorithm runs, and array-module helpers.

Every public function takes ``device="auto" | "cpu" | "gpu"``. ``"auto"`` means the GPU when
CuPy imports and sees a CUDA device, else the CPU. The environment variable
``WARPGRAPH_DEVICE`` (``cpu``, ``gpu`` or ``auto``) overrides ``"auto"`` for a whole program, so
a test suite or a benchmark can pin the backend without touching code.

Examples
--------
>>> from warpgraph.device import resolve_device
>>> resolve_device("cpu")
'cpu'
"""

from __future__ import annotations

import functools
import os
import platform
from typing import Any

import numpy as np

from .errors import DeviceUnavailableError, InvalidArgumentError, OutOfDeviceMemory, OutOfHostMemory

__all__ = [
    "array_module",
    "check_device_memory",
    "check_host_memory",
    "cupy",
    "gpu_available",
    "info",
    "resolve_device",
    "to_numpy",
]

_VALID = ("auto", "cpu", "gpu")


@functools.cache
def _import_cupy():
    """Return the cupy module if it imports and sees at least one device, else ``None``."""
    try:
        import cupy

        if cupy.cuda.runtime.getDeviceCount() < 1:
            return None
        return cupy
    except Exception:  # ImportError, CUDARuntimeError (no driver), ...
        return None


def cupy():
    """The CuPy module, or raise :class:`DeviceUnavailableError` explaining why it is missing."""
    cp = _import_cupy()
    if cp is None:
        raise DeviceUnavailableError(
            "no usable GPU: CuPy is not installed or sees no CUDA device; install "
            "'warpgraph[gpu]' (CUDA 13) or 'warpgraph[gpu12]' (CUDA 12), or use device='cpu'"
        )
    return cp


def gpu_available() -> bool:
    """True when CuPy imports and at least one CUDA device is visible."""
    return _import_cupy() is not None


def resolve_device(device: str | None = "auto") -> str:
    """Turn a user's ``device`` argument into ``"cpu"`` or ``"gpu"``.

    Parameters
    ----------
    device : {"auto", "cpu", "gpu"} or None
        ``None`` is the same as ``"auto"``. ``"auto"`` follows ``WARPGRAPH_DEVICE`` when it is set.

    Returns
    -------
    str
        ``"cpu"`` or ``"gpu"``.

    Raises
    ------
    InvalidArgumentError
        For an unknown device name.
    DeviceUnavailableError
        When ``"gpu"`` is asked for (directly or through the environment) but none is usable.
    """
    if device is None:
        device = "auto"
    if not isinstance(device, str) or device.lower() not in _VALID:
        raise InvalidArgumentError(f"device must be one of {_VALID}, got {device!r}")
    device = device.lower()
    if device == "auto":
        env = os.environ.get("WARPGRAPH_DEVICE", "auto").strip().lower() or "auto"
        if env not in _VALID:
            raise InvalidArgumentError(f"WARPGRAPH_DEVICE must be one of {_VALID}, got {env!r}")
        device = env
    if device == "auto":
        return "gpu" if gpu_available() else "cpu"
    if device == "gpu":
        cupy()  # raises with the reason when unavailable
    return device


def array_module(arr: Any):
    """``numpy`` or ``cupy``, whichever owns ``arr``."""
    if type(arr).__module__.startswith("cupy"):
        return cupy()
    return np


def to_numpy(arr: Any) -> np.ndarray:
    """Copy a CuPy array to the host; pass NumPy (and array-likes) through ``np.asarray``."""
    if type(arr).__module__.startswith("cupy"):
        return arr.get()
    return np.asarray(arr)


def _byte_count(bytes_needed: Any) -> int:
    """``bytes_needed`` as a non-negative int (``InvalidArgumentError`` otherwise)."""
    if isinstance(bytes_needed, bool) or not isinstance(bytes_needed, int | np.integer):
        raise InvalidArgumentError(f"bytes_needed must be an int, got {bytes_needed!r}")
    if bytes_needed < 0:
        raise InvalidArgumentError(f"bytes_needed must be >= 0, got {bytes_needed}")
    return int(bytes_needed)


def check_device_memory(bytes_needed: int, what: str = "data", headroom: float = 1.05) -> None:
    """Raise :class:`OutOfDeviceMemory` if ``bytes_needed`` (times headroom) exceeds free memory.

    CuPy's pool may hold freed blocks; those count as free since the pool reuses them.
    """
    bytes_needed = _byte_count(bytes_needed)
    cp = cupy()
    free, _total = cp.cuda.runtime.memGetInfo()
    pool = cp.get_default_memory_pool()
    free += pool.free_bytes()
    if bytes_needed * headroom > free:
        raise OutOfDeviceMemory(bytes_needed, free, what)


#: Needs below this many bytes are not checked against the host's memory: reading
#: ``/proc/meminfo`` costs ~45 us, a third of building a graph of a few edges.
HOST_CHECK_FLOOR = 1 << 20


def host_memory_available() -> int | None:
    """Bytes the host can still give (Linux ``MemAvailable`` plus free swap), or None where
    that cannot be read (then nothing is refused by :func:`check_host_memory`)."""
    try:
        with open("/proc/meminfo") as meminfo:
            fields = dict(line.split(":", 1) for line in meminfo if ":" in line)
        kib = int(fields["MemAvailable"].split()[0]) + int(fields["SwapFree"].split()[0])
        return kib * 1024
    except (OSError, KeyError, ValueError, IndexError):
        return None


def check_host_memory(bytes_needed: int, what: str = "data", hint: str = "") -> None:
    """Raise :class:`OutOfHostMemory` if ``bytes_needed`` (a lower bound of what an operation
    allocates) exceeds the host's available memory: a clear error before NumPy's bare
    ``MemoryError``, or before pages committed lazily run the machine out of memory later.
    Needs under :data:`HOST_CHECK_FLOOR` pass unread.

    Examples
    --------
    >>> check_host_memory(1 << 20, what="a small array")  # (fits anywhere)
    >>> try:
    ...     check_host_memory(1 << 62, what="a table", hint="make it smaller")
    ... except MemoryError as err:
    ...     print(str(err).split(" needs")[0], "/", str(err).split("; ")[-1])
    a table / make it smaller
    """
    if _byte_count(bytes_needed) < HOST_CHECK_FLOOR:  # (no file read for small graphs)
        return
    free = host_memory_available()
    if free is not None and bytes_needed > free:
        raise OutOfHostMemory(bytes_needed, free, what, hint)


def _gpu_summary() -> list[tuple[str, str]]:
    cp = _import_cupy()
    if cp is None:
        return [("gpu", "none (CuPy missing or no CUDA device)")]
    rows = [("cupy", cp.__version__)]
    rt = cp.cuda.runtime
    rows.append(("cuda runtime", str(rt.runtimeGetVersion())))
    rows.append(("cuda driver", str(rt.driverGetVersion())))
    for i in range(rt.getDeviceCount()):
        p = rt.getDeviceProperties(i)
        name = p["name"].decode() if isinstance(p["name"], bytes) else str(p["name"])
        rows.append(
            (
                f"gpu {i}",
                f"{name}, {p['totalGlobalMem'] / 2**30:.1f} GiB, sm_{p['major']}{p['minor']}, "
                f"{p['multiProcessorCount']} SMs",
            )
        )
    return rows


def _thread_policy() -> str:
    """How CPU calls choose their thread count (``docs/THREADS.md``)."""
    import numba

    from .cpu import threads

    if not threads.DYNAMIC_THREADS:
        return f"fixed: {numba.get_num_threads()} (DYNAMIC_THREADS off)"
    rules = "load average" + (" and fork-join probe" if threads.PROBE_MAX_WORK > 0 else "")
    return f"dynamic: fewer while busy ({rules}); WARPGRAPH_DYNAMIC_THREADS=0 fixes it"


def info(print_out: bool = True) -> dict[str, str]:
    """Versions, CPU threads and GPUs, as a dict (and printed unless ``print_out=False``).

    Examples
    --------
    >>> import warpgraph
    >>> d = warpgraph.info(print_out=False)
    >>> "numpy" in d and "cpu threads" in d
    True
    """
    import numba
    import scipy

    from . import __version__

    rows = [
        ("warpgraph", __version__),
        ("python", platform.python_version()),
        ("platform", platform.platform()),
        ("numpy", np.__version__),
        ("scipy", scipy.__version__),
        ("numba", numba.__version__),
        ("cpu threads", str(numba.config.NUMBA_NUM_THREADS)),
        ("thread count", _thread_policy()),
        ("default device", resolve_device("auto")),
    ]
    rows += _gpu_summary()
    result = dict(rows)
    if print_out:
        width = max(len(k) for k in result)
        for k, v in result.items():
            print(f"{k:<{width}}  {v}")
    return result
