"""GPU side of both Langford methods (CuPy): kernel loading and one batch of tasks per call.

Kernels are ``kernels/godfrey.cu`` and ``kernels/miller.cu`` of this package, read with
:mod:`importlib.resources` and compiled by CuPy's ``RawModule`` (NVRTC, ``-std=c++17``) with the
template instance for one n (``godfrey_walk<19, 4>``, ``miller_count<19>``). Each compiled module
is memoized per (device, source, instance); CuPy's disk cache keeps the binary across runs.

Examples
--------
>>> from warpgraph.langford.gpu import godfrey_geometry
>>> godfrey_geometry(19, 14)  # (sub-task bits per task, walk bits per thread, unroll bits)
(8, 14, 4)
"""

from __future__ import annotations

import functools
import importlib.resources
import os
import threading

import numpy as np

from ..errors import WarpgraphError

__all__ = [
    "godfrey_geometry",
    "godfrey_task_sums",
    "kernel_source",
    "miller_task_counts",
    "prepare",
]

_BLOCK = 128
_WALK_BITS = 14  # Gray steps per GPU thread: 2^14 steps amortise the O(n^2) setup
_UNROLL = 4  # 2^U steps unrolled with compile-time flips
_LOCK = threading.Lock()


class LangfordKernelError(WarpgraphError, RuntimeError):
    """NVRTC rejected a Langford kernel (the message carries the compiler log)."""


def kernel_source(name: str) -> str:
    """Text of ``kernels/<name>`` of this package."""
    res = importlib.resources.files("warpgraph.langford").joinpath("kernels", name)
    return res.read_text(encoding="utf-8")


@functools.cache
def _function(device: int, source: str, instance: str):
    from ..device import cupy

    cp = cupy()
    with cp.cuda.Device(device):
        mod = cp.RawModule(
            code=kernel_source(source),
            options=("-std=c++17", "--device-int128"),
            name_expressions=(instance,),
        )
        try:
            return mod.get_function(instance)
        except Exception as exc:  # CompileException, CUDA errors
            raise LangfordKernelError(f"compiling {source} ({instance}) failed:\n{exc}") from exc


def _kernel(source: str, instance: str):
    from ..device import cupy

    cp = cupy()
    with _LOCK:
        return _function(int(cp.cuda.runtime.getDevice()), source, instance)


def godfrey_geometry(n: int, task_bits: int) -> tuple[int, int, int]:
    """(sub_bits, walk_bits, unroll) of the GPU split: each task is cut into 2^sub_bits threads
    that each walk 2^walk_bits Gray steps, unrolled by 2^unroll."""
    rest = 2 * n - 2 - task_bits
    walk = min(rest, _WALK_BITS)
    return rest - walk, walk, min(_UNROLL, walk)


def _godfrey_instance(n: int, task_bits: int) -> str:
    _sub, _walk, unroll = godfrey_geometry(n, task_bits)
    return f"godfrey_walk<{n}, {unroll}>"


def prepare(method: str, n: int, *, task_bits: int = 0, top: int = 0) -> None:
    """Compile the kernel a run will use (so its time is not counted as counting time)."""
    if method == "godfrey":
        _kernel("godfrey.cu", _godfrey_instance(n, task_bits))
    else:
        _kernel("miller.cu", _miller_instance(n))


def _signed192(limbs: np.ndarray) -> int:
    v = 0
    for k in range(6):
        v += int(limbs[k]) << (32 * k)
    v &= (1 << 192) - 1
    return v - (1 << 192) if v >> 191 else v


def godfrey_task_sums(n: int, task0: int, count: int, task_bits: int) -> list[int]:
    """Exact partial sums of the ``count`` consecutive tasks from ``task0`` (see godfrey_cpu)."""
    from ..device import cupy

    cp = cupy()
    sub, walk, _unroll = godfrey_geometry(n, task_bits)
    fn = _kernel("godfrey.cu", _godfrey_instance(n, task_bits))
    out = cp.zeros(count * 6, dtype=cp.uint64)
    threads = count << sub
    grid = (threads + _BLOCK - 1) // _BLOCK
    fn(
        (grid,),
        (_BLOCK,),
        (np.uint64(task0), np.uint64(count), np.int32(sub), np.int32(walk), out),
    )
    limbs = out.get().reshape(count, 6)
    return [_signed192(limbs[i]) for i in range(count)]


def _miller_shared() -> bool:
    """Per-level DFS words in shared memory (default) or local memory
    (``WARPGRAPH_LANGFORD_MILLER_STACK=local``, the thesis' choice)."""
    return os.environ.get("WARPGRAPH_LANGFORD_MILLER_STACK", "shared").strip().lower() != "local"


def _miller_instance(n: int) -> str:
    return f"miller_count<{n}, {'true' if _miller_shared() else 'false'}>"


_MILLER_TARGET = 1 << 21  # sub-tasks per launch: many per thread for the atomic work list
_MILLER_MAX = 1 << 25  # memory cap on sub-tasks per launch (12 bytes each)


def miller_task_counts(n: int, masks: np.ndarray, top: int) -> np.ndarray:
    """Number of completions of each task mask (colours ``top .. 1`` left), on the GPU.

    The tasks are developed further on the CPU (the thesis' client level q) until there are
    about 2^21 sub-tasks or 3 colours remain; each GPU thread then finishes sub-tasks' last
    r = top - q levels, fetching the next from a shared counter when one is done.
    """
    from ..device import cupy
    from . import miller_cpu

    cp = cupy()
    masks = np.ascontiguousarray(masks, dtype=np.int64)
    sub, owner, level = masks, np.arange(len(masks), dtype=np.int64), top
    while level > 3 and len(sub) < _MILLER_TARGET:
        if miller_cpu.expand_size(n, sub, level) > _MILLER_MAX:
            break
        sub, parent = miller_cpu.expand(n, sub, level, 1)
        owner = owner[parent]
        level -= 1
    if len(sub) == 0:
        return np.zeros(len(masks), dtype=np.int64)
    fn = _kernel("miller.cu", _miller_instance(n))
    d_masks = cp.asarray(sub)
    d_owner = cp.asarray(owner.astype(np.int32))
    counts = cp.zeros(len(masks), dtype=cp.uint64)
    nxt = cp.zeros(1, dtype=cp.uint64)
    sms = cp.cuda.Device().attributes["MultiProcessorCount"]
    grid = int(min((len(sub) + _BLOCK - 1) // _BLOCK, sms * 16))
    fn(
        (grid,),
        (_BLOCK,),
        (d_masks, d_owner, np.int64(len(sub)), np.int32(level), counts, nxt),
        shared_mem=(level + 1) * _BLOCK * 8 if _miller_shared() else 0,
    )
    return counts.get().astype(np.int64)
