"""Launch helpers: grid sizing, typed arguments, cooperative launches and CUDA-event timing.

Every warpgraph kernel uses grid-stride loops, so :func:`launch` may cap the grid
(:func:`grid_for`) without changing results. Arguments go through :func:`convert_args`, which
turns Python numbers into exactly the C type each parameter declares and checks the dtype of
every array: CuPy alone would pass any Python ``int`` as 64 bits and any ``float`` as a double.

Importing this module does not import CuPy.

Examples
--------
>>> grid_for(1000, 256, max_blocks=1024)
4
>>> grid_for(10**9, 256, max_blocks=1024)
1024
"""

from __future__ import annotations

import contextlib
import functools
import math
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from ..errors import DeviceUnavailableError, InvalidArgumentError
from .loader import Kernel
from .signature import Param

__all__ = [
    "GpuTime",
    "convert_args",
    "default_max_blocks",
    "gpu_timer",
    "grid_for",
    "launch",
    "launch_cooperative",
    "max_cooperative_blocks",
    "sm_count",
]

BLOCKS_PER_SM = 32
"""Grid cap per SM for grid-stride kernels: 32 blocks of 256 threads is 4 full waves of 2048
resident threads per SM (Hopper), enough to hide latency without idle launch overhead."""


def _cupy():
    from ..device import cupy

    return cupy()


# ---- device queries ---------------------------------------------------------------------------


@functools.cache
def _device_props(dev: int) -> dict[str, Any]:
    return dict(_cupy().cuda.runtime.getDeviceProperties(dev))


def _current_device() -> int:
    return int(_cupy().cuda.runtime.getDevice())


def sm_count(device: int | None = None) -> int:
    """Number of streaming multiprocessors of ``device`` (default: the current one)."""
    dev = _current_device() if device is None else int(device)
    return int(_device_props(dev)["multiProcessorCount"])


def default_max_blocks() -> int:
    """The grid cap :func:`grid_for` uses: ``BLOCKS_PER_SM`` times the SM count, or 4096 when no
    GPU is usable (the value then only matters for tests)."""
    try:
        return BLOCKS_PER_SM * sm_count()
    except DeviceUnavailableError:
        return 4096


def _check_block(block: int) -> int:
    if isinstance(block, bool) or not isinstance(block, int | np.integer):
        raise InvalidArgumentError(f"block must be an int, got {block!r}")
    block = int(block)
    if not 32 <= block <= 1024 or block % 32:
        raise InvalidArgumentError(f"block must be a multiple of 32 in [32, 1024], got {block}")
    return block


def grid_for(n: int, block: int = 256, *, max_blocks: int | None = None) -> int:
    """Blocks for ``n`` work items with ``block`` threads each: ``ceil(n / block)``, capped.

    Parameters
    ----------
    n : int
        Work items (threads wanted). ``n <= 0`` gives 0 (nothing to launch).
    block : int
        Threads per block, a multiple of 32 in [32, 1024] (warp-level helpers need full warps).
    max_blocks : int, optional
        Cap; default :func:`default_max_blocks`. Kernels must use grid-stride loops.

    Examples
    --------
    >>> grid_for(0), grid_for(1, 32, max_blocks=8), grid_for(257, 256, max_blocks=8)
    (0, 1, 2)
    """
    block = _check_block(block)
    n = int(n)
    if n <= 0:
        return 0
    cap = default_max_blocks() if max_blocks is None else int(max_blocks)
    if cap < 1:
        raise InvalidArgumentError(f"max_blocks must be >= 1, got {cap}")
    return min(math.ceil(n / block), cap, 2**31 - 1)


# ---- argument conversion ----------------------------------------------------------------------


#: Array types seen to be CuPy device arrays (the module test below costs ~0.5 us per argument).
_DEVICE_TYPES: set[type] = set()


def _is_device_array(a: Any) -> bool:
    t = type(a)
    if t in _DEVICE_TYPES:
        return True
    if t.__module__.startswith("cupy") and hasattr(a, "__cuda_array_interface__"):
        _DEVICE_TYPES.add(t)
        return True
    return False


def _where(i: int, p: Param | None) -> str:
    return f"argument {i}" + (f" ({p.name}: {p.ctype})" if p is not None and p.name else "")


@functools.cache
def _int_bounds(target: np.dtype) -> tuple[int, int]:
    """``np.iinfo(target)``'s bounds, made once per dtype (``np.iinfo`` costs microseconds, and
    a launch converts several scalars)."""
    info = np.iinfo(target)
    return int(info.min), int(info.max)


def _to_scalar(a: Any, target: np.dtype, i: int, p: Param | None):
    # (the error's wording is made only on error: a launch converts every argument)
    if type(a) is int and target.kind in "iu":  # the common case first
        lo, hi = _int_bounds(target)
        if not lo <= a <= hi:
            raise InvalidArgumentError(f"{_where(i, p)}: {a} does not fit {target}")
        return target.type(a)
    if target.kind == "b":
        if isinstance(a, bool | np.bool_):
            return np.bool_(a)
        raise InvalidArgumentError(f"{_where(i, p)}: expected a bool, got {a!r}")
    if isinstance(a, bool | np.bool_):
        return target.type(int(a))
    if isinstance(a, int | np.integer):
        v = int(a)
        if target.kind in "iu":
            lo, hi = _int_bounds(target)
            if not lo <= v <= hi:
                raise InvalidArgumentError(f"{_where(i, p)}: {v} does not fit {target}")
        return target.type(v)
    if isinstance(a, float | np.floating):
        if target.kind != "f":
            raise InvalidArgumentError(
                f"{_where(i, p)}: float {a!r} given for an integer parameter"
            )
        return target.type(a)
    raise InvalidArgumentError(f"{_where(i, p)}: unsupported argument type {type(a).__name__}")


def _convert_one(a: Any, p: Param | None, i: int):
    if a is None:
        if p is not None and not p.is_pointer:
            raise InvalidArgumentError(f"{_where(i, p)}: None (NULL) given for a scalar parameter")
        return None
    if _is_device_array(a):
        if p is not None and not p.is_pointer:
            raise InvalidArgumentError(f"{_where(i, p)}: an array was given for a scalar parameter")
        if p is not None and p.dtype is not None and a.dtype != p.dtype:
            raise InvalidArgumentError(
                f"{_where(i, p)}: array of dtype {a.dtype}, kernel wants {p.dtype}"
            )
        if not a.flags.c_contiguous:
            raise InvalidArgumentError(f"{_where(i, p)}: array must be C-contiguous")
        return a
    if isinstance(a, np.ndarray):
        raise InvalidArgumentError(
            f"{_where(i, p)}: a host NumPy array was passed to a GPU kernel; move it to the "
            "device with cupy.asarray first"
        )
    if p is not None and p.is_pointer:
        raise InvalidArgumentError(
            f"{_where(i, p)}: a scalar {a!r} was given for a pointer parameter"
        )
    if p is not None and p.dtype is not None:
        return _to_scalar(a, p.dtype, i, p)
    # unknown declared type: only explicitly sized values are safe
    if isinstance(a, bool):
        return np.bool_(a)
    if isinstance(a, np.generic):
        return a
    raise InvalidArgumentError(
        f"{_where(i, p)}: the parameter type is unknown, so pass an explicitly typed NumPy "
        f"scalar (np.int32, np.int64, np.float32, ...) instead of {type(a).__name__} {a!r}"
    )


def convert_args(args: Sequence[Any], params: Sequence[Param] | None = None) -> tuple:
    """Check ``args`` against a kernel's declared ``params`` and convert scalars to their C type.

    Parameters
    ----------
    args : sequence
        CuPy arrays (checked: dtype, C-contiguity), ``None`` (NULL pointer), Python or NumPy
        numbers.
    params : sequence of Param, optional
        The declared parameters (``Kernel.params``). Without them, Python ``int``/``float`` are
        refused because their C width is unknown.

    Returns
    -------
    tuple
        Arguments ready for ``cupy.RawKernel.__call__``.

    Raises
    ------
    InvalidArgumentError
        Wrong count, wrong dtype, host array, out-of-range value, float for an integer, ...

    Examples
    --------
    >>> from warpgraph.gpu.signature import kernel_params
    >>> ps = kernel_params("__global__ void k(int n, long long m, float x) {}", "k")
    >>> [type(a).__name__ for a in convert_args((5, 7, 0.5), ps)]
    ['int32', 'int64', 'float32']
    """
    args = tuple(args)
    if params is not None and len(args) != len(params):
        names = ", ".join(f"{p.ctype} {p.name}" for p in params)
        raise InvalidArgumentError(
            f"kernel takes {len(params)} arguments ({names}), got {len(args)}"
        )
    return tuple(
        _convert_one(a, None if params is None else params[i], i) for i, a in enumerate(args)
    )


def _as_kernel(kernel: Any) -> Kernel:
    if isinstance(kernel, Kernel):
        return kernel
    # a bare cupy.RawKernel: no declared types known
    return Kernel(raw=kernel, name=getattr(kernel, "name", "?"), source="?", params=None)


# ---- launching --------------------------------------------------------------------------------


def launch(
    kernel: Kernel | Any,
    n: int,
    args: Sequence[Any],
    block: int = 256,
    shared_mem: int = 0,
    stream: Any = None,
    *,
    grid: int | None = None,
) -> None:
    """Launch ``kernel`` over ``n`` work items (1-D grid of ``grid_for(n, block)`` blocks).

    Parameters
    ----------
    kernel : Kernel or cupy.RawKernel
        From :func:`warpgraph.gpu.loader.get_kernel` (arguments then checked against the
        declared types) or a bare RawKernel (then scalars must be NumPy scalars).
    n : int
        Work items; nothing is launched when ``n <= 0``.
    args : sequence
        Kernel arguments, see :func:`convert_args`.
    block : int
        Threads per block (multiple of 32).
    shared_mem : int
        Dynamic shared memory per block, in bytes.
    stream : cupy.cuda.Stream, optional
        Stream to launch on (default: CuPy's current stream).
    grid : int, optional
        Explicit number of blocks (overrides ``grid_for``).

    Examples
    --------
    >>> k = get_kernel("degree.cu", "count_degrees<int>")  # doctest: +SKIP
    >>> launch(k, ids.size, (ids, ids.size, counts))  # doctest: +SKIP
    """
    k = _as_kernel(kernel)
    if k.cooperative:
        raise InvalidArgumentError(f"{k.name} is a persistent kernel; use launch_cooperative()")
    conv = convert_args(args, k.params)
    block = _check_block(block)
    g = grid_for(n, block) if grid is None else int(grid)
    if g <= 0:
        return
    k.raw((g,), (block,), conv, shared_mem=int(shared_mem), stream=stream)


def max_cooperative_blocks(kernel: Kernel | Any, block: int = 256, shared_mem: int = 0) -> int:
    """Most blocks of ``kernel`` that can be resident at once on the current device.

    That is the occupancy (blocks per SM, from the CUDA occupancy calculator for this kernel's
    registers and shared memory) times the SM count: the largest grid a cooperative launch
    accepts.
    """
    cp = _cupy()
    k = _as_kernel(kernel)
    block = _check_block(block)
    per_sm = cp.cuda.driver.occupancyMaxActiveBlocksPerMultiprocessor(
        k.raw.kernel.ptr, block, int(shared_mem)
    )
    return int(per_sm) * sm_count()


def _param_buffer(conv: Sequence[Any]):
    """``void*[]`` of pointers to each argument's value, as ``cuLaunchCooperativeKernel`` wants;
    also returns the objects that own those values (keep them alive until the launch)."""
    import ctypes

    holders: list[Any] = []
    addrs: list[int] = []
    for a in conv:
        if a is None or _is_device_array(a):
            h = ctypes.c_void_p(0 if a is None else int(a.data.ptr))
            addrs.append(ctypes.addressof(h))
        else:  # a NumPy scalar of exactly the declared C type
            h = np.array(a)
            addrs.append(h.ctypes.data)
        holders.append(h)
    buf = (ctypes.c_void_p * max(1, len(addrs)))(*addrs)
    holders.append(buf)
    return ctypes.addressof(buf), holders


def launch_cooperative(
    kernel: Kernel,
    args: Sequence[Any],
    block: int = 256,
    blocks: int | None = None,
    shared_mem: int = 0,
    stream: Any = None,
) -> int:
    """Launch a persistent kernel with ``cuLaunchCooperativeKernel``.

    A cooperative launch guarantees that all blocks are resident at once, so the kernel may
    synchronize the whole grid: ``wg::grid_sync`` (``kernels/common.cuh``, no CUDA headers
    needed) or ``cooperative_groups::this_grid().sync()`` where the CUDA headers are installed.
    The launch goes through the driver directly rather than CuPy's
    ``enable_cooperative_groups``, which compiles relocatable device code and so requires
    ``libcudadevrt.a`` from a full CUDA toolkit.

    Parameters
    ----------
    kernel : Kernel
        From ``get_kernel(..., cooperative=True)``.
    args : sequence
        Kernel arguments, see :func:`convert_args`.
    block : int
        Threads per block (multiple of 32).
    blocks : int, optional
        Grid size; default (and maximum) :func:`max_cooperative_blocks`.
    shared_mem : int
        Dynamic shared memory per block, in bytes.
    stream : cupy.cuda.Stream, optional
        Stream to launch on (default: CuPy's current stream).

    Returns
    -------
    int
        The number of blocks launched.

    Raises
    ------
    InvalidArgumentError
        The kernel is not marked cooperative, or ``blocks`` exceeds the co-resident maximum.
    DeviceUnavailableError
        The device does not support cooperative launches.

    Examples
    --------
    >>> name = "grid_sync_sum<double>"
    >>> k = get_kernel("coop_selftest.cu", name, cooperative=True)  # doctest: +SKIP
    >>> launch_cooperative(k, (x, n, partial, out, barrier, 0, arrivals))  # doctest: +SKIP
    528
    """
    cp = _cupy()
    k = _as_kernel(kernel)
    if not k.cooperative:
        raise InvalidArgumentError(
            f"{k.name} is not marked cooperative; get it with get_kernel(..., cooperative=True)"
        )
    if not _device_props(_current_device()).get("cooperativeLaunch", 1):
        raise DeviceUnavailableError("this GPU does not support cooperative kernel launches")
    conv = convert_args(args, k.params)
    block = _check_block(block)
    limit = max_cooperative_blocks(k, block, shared_mem)
    if limit < 1:
        raise InvalidArgumentError(
            f"{k.name} cannot run with block={block} and shared_mem={shared_mem}: no block fits"
        )
    g = limit if blocks is None else int(blocks)
    if not 1 <= g <= limit:
        raise InvalidArgumentError(
            f"cooperative grid of {g} blocks is outside [1, {limit}] (co-resident limit for "
            f"block={block}, shared_mem={shared_mem})"
        )
    params, holders = _param_buffer(conv)
    strm = stream if stream is not None else cp.cuda.get_current_stream()
    cp.cuda.driver.launchCooperativeKernel(
        k.ptr, g, 1, 1, block, 1, 1, int(shared_mem), int(strm.ptr), params
    )
    del holders  # the driver copied the values at launch
    return g


# ---- timing -----------------------------------------------------------------------------------


@dataclass
class GpuTime:
    """Elapsed GPU time of a :func:`gpu_timer` block, in milliseconds (set on exit)."""

    ms: float = float("nan")


@contextlib.contextmanager
def gpu_timer(stream: Any = None) -> Iterator[GpuTime]:
    """Time the GPU work issued inside the ``with`` block with CUDA events.

    The end event is synchronized on exit, so ``t.ms`` is the device time between the two
    events on ``stream`` (default: the current stream), not host time.

    Examples
    --------
    >>> with gpu_timer() as t:  # doctest: +SKIP
    ...     launch(k, n, args)
    >>> t.ms  # doctest: +SKIP
    0.042
    """
    cp = _cupy()
    start, end = cp.cuda.Event(), cp.cuda.Event()
    result = GpuTime()
    start.record(stream)
    try:
        yield result
    finally:
        end.record(stream)
        end.synchronize()
        result.ms = float(cp.cuda.get_elapsed_time(start, end))
