"""Public API: count Langford pairings L(2,n) with Godfrey's or Miller's method, on any device.

Examples
--------
>>> import warpgraph.langford as lf
>>> lf.count(7, device="cpu"), lf.count(8, method="miller", device="cpu")
(26, 150)
>>> lf.count(9)  # n = 1 or 2 (mod 4): no solution, answered at once
0
"""

from __future__ import annotations

import math
import os
import time
from collections.abc import Callable
from dataclasses import dataclass, field

import numpy as np

from ..errors import InvalidArgumentError, VerificationError
from ._common import check_n, solvable
from .runner import DeviceStats, Job, run_job

__all__ = ["LangfordResult", "count", "solve"]

METHODS = ("godfrey", "miller")
DEVICES = ("auto", "cpu", "gpu", "hybrid")


@dataclass
class LangfordResult:
    """Outcome of :func:`solve`.

    Attributes
    ----------
    n, method, count :
        The instance, the method used, and L(2,n).
    seconds : float
        Wall time of the counting (after kernel compilation and task generation).
    setup_seconds : float
        Kernel compilation (GPU, Numba) and task generation.
    num_tasks, resumed_tasks : int
        Tasks of the run, and how many were already done in the checkpoint.
    devices : dict
        Per device ("cpu", "gpu"): tasks done, busy seconds, batches.
    """

    n: int
    method: str
    count: int
    seconds: float = 0.0
    setup_seconds: float = 0.0
    num_tasks: int = 0
    resumed_tasks: int = 0
    devices: dict[str, DeviceStats] = field(default_factory=dict)

    def shares(self) -> dict[str, float]:
        """Fraction of the tasks computed in this run by each device."""
        total = sum(s.tasks for s in self.devices.values())
        return {d: (s.tasks / total if total else 0.0) for d, s in self.devices.items()}


def _numba_ok() -> bool:
    try:
        import numba  # noqa: F401
    except Exception:
        return False
    return True


def _devices(device: str, method: str) -> list[str]:
    from ..device import gpu_available, resolve_device

    if not isinstance(device, str) or device.lower() not in DEVICES:
        raise InvalidArgumentError(f"device must be one of {DEVICES}, got {device!r}")
    device = device.lower()
    if device == "hybrid":
        resolve_device("gpu")
        return ["gpu", "cpu"]
    if device == "auto" and os.environ.get("WARPGRAPH_DEVICE", "auto").strip().lower() in (
        "",
        "auto",
    ):
        if not gpu_available():
            return ["cpu"]
        return ["gpu", "cpu"] if _numba_ok() else ["gpu"]
    return [resolve_device(device)]


def _threads_for_cpu(devices: list[str]) -> int:
    import numba

    n = numba.config.NUMBA_NUM_THREADS
    return max(1, n - 1) if "gpu" in devices else n


def _godfrey_job(n: int, tasks: int | None, devices: list[str]):
    free = 2 * n - 2
    if tasks is None:
        bits = min(max(free - 22, min(free, 6)), 16)
    else:
        bits = min(free, max(0, math.ceil(math.log2(tasks))))
    compute: dict[str, Callable] = {}
    if "cpu" in devices:
        from . import godfrey_cpu

        nthreads = _threads_for_cpu(devices)

        def cpu(ids):
            return godfrey_cpu.task_sums(n, ids, task_bits=bits, threads=nthreads)

        compute["cpu"] = cpu
    if "gpu" in devices:
        from . import gpu

        def gpu_batch(ids):
            out: list[int] = []
            start = 0
            while start < len(ids):  # contiguous runs of task ids (resumed runs have gaps)
                end = start + 1
                while end < len(ids) and ids[end] == ids[end - 1] + 1:
                    end += 1
                out += gpu.godfrey_task_sums(n, ids[start], end - start, bits)
                start = end
            return out

        compute["gpu"] = gpu_batch
    sub, _walk, _u = (0, 0, 0)
    if "gpu" in devices:
        from .gpu import godfrey_geometry

        sub, _walk, _u = godfrey_geometry(n, bits)
    job = Job(
        name=f"godfrey L(2,{n})",
        num_tasks=1 << bits,
        compute=compute,
        header={"method": "godfrey", "n": n, "task_bits": bits, "num_tasks": 1 << bits},
        cpu_batch=1,
        gpu_first_batch=max(1, (1 << 18) >> sub),
    )

    def finish(total: int) -> int:
        q, r = divmod(total, 1 << (2 * n - 2))
        if r != 0 or q < 0:
            raise VerificationError(
                f"Godfrey sum for n = {n} is {total}, not a non-negative multiple of 2^{2 * n - 2}"
            )
        return q

    def prepare():
        if "gpu" in devices:
            from . import gpu

            gpu.prepare("godfrey", n, task_bits=bits)
        if "cpu" in devices:
            from . import godfrey_cpu

            godfrey_cpu.task_sums(n, [0], task_bits=free, chunk_bits=0, threads=1)

    return job, finish, prepare


def _miller_job(n: int, tasks: int | None, devices: list[str]):
    from . import miller_cpu

    lo = miller_cpu.min_depth(n)
    target = 256 if tasks is None else max(1, int(tasks))
    depth = max(lo, min(3, n - 1)) if tasks is None else lo
    masks = miller_cpu.prefixes(n, depth)
    while tasks is not None and len(masks) < target and depth < n - 1:
        depth += 1
        masks = miller_cpu.prefixes(n, depth)
    top = n - depth
    compute: dict[str, Callable] = {}
    if "cpu" in devices:
        import numba

        nthreads = _threads_for_cpu(devices)

        def cpu(ids):
            numba.set_num_threads(nthreads)  # thread-local: this worker only
            sub, owner, level = masks[ids], np.arange(len(ids), dtype=np.int64), top
            while level > 3 and len(sub) < 64 * nthreads:  # enough sub-tasks for the threads
                sub, parent = miller_cpu.expand(n, sub, level, 1)
                owner = owner[parent]
                level -= 1
            per = np.zeros(len(ids), dtype=np.int64)
            np.add.at(per, owner, miller_cpu.count_masks(n, sub, level))
            return [int(v) for v in per]

        compute["cpu"] = cpu
    if "gpu" in devices:
        from . import gpu

        def gpu_batch(ids):
            return [int(v) for v in gpu.miller_task_counts(n, masks[ids], top)]

        compute["gpu"] = gpu_batch
    job = Job(
        name=f"miller L(2,{n})",
        num_tasks=len(masks),
        compute=compute,
        header={"method": "miller", "n": n, "depth": depth, "num_tasks": len(masks)},
        cpu_batch=1,
        gpu_first_batch=max(1, len(masks) // 64),
    )

    def prepare():
        if "gpu" in devices:
            from . import gpu

            gpu.prepare("miller", n)
        if "cpu" in devices:
            miller_cpu.count_masks(n, masks[:1], top)

    return job, (lambda total: total), prepare


def solve(
    n: int,
    *,
    method: str = "godfrey",
    device: str = "auto",
    tasks: int | None = None,
    checkpoint: str | os.PathLike | None = None,
    on_progress: Callable[[int, int], None] | None = None,
) -> LangfordResult:
    """Count L(2,n) and report how the work was done (see :func:`count`).

    ``on_progress(done, total)`` is called as tasks finish (from worker threads).
    """
    n = check_n(n)
    if method not in METHODS:
        raise InvalidArgumentError(f"method must be one of {METHODS}, got {method!r}")
    if tasks is not None and (isinstance(tasks, bool) or not isinstance(tasks, int) or tasks < 1):
        raise InvalidArgumentError(f"tasks must be a positive integer or None, got {tasks!r}")
    if not solvable(n):
        return LangfordResult(n, method, 0)
    devices = _devices(device, method)
    t0 = time.perf_counter()
    build = _godfrey_job if method == "godfrey" else _miller_job
    job, finish, prepare = build(n, tasks, devices)
    prepare()
    setup = time.perf_counter() - t0
    done = [0]

    def progress(k: int) -> None:
        done[0] += k
        if on_progress is not None:
            on_progress(done[0], job.num_tasks)

    stats = run_job(
        job,
        devices,
        checkpoint=None if checkpoint is None else os.fspath(checkpoint),
        on_progress=progress,
    )
    result = finish(stats.total)
    return LangfordResult(
        n,
        method,
        result,
        seconds=stats.seconds,
        setup_seconds=setup,
        num_tasks=stats.num_tasks,
        resumed_tasks=stats.resumed_tasks,
        devices=stats.devices,
    )


def count(
    n: int,
    *,
    method: str = "godfrey",
    device: str = "auto",
    tasks: int | None = None,
    checkpoint: str | os.PathLike | None = None,
) -> int:
    """The number of Langford pairings L(2,n), solutions up to reversal, as an exact int.

    Parameters
    ----------
    n : int
        Number of pairs, 1 <= n <= 24 for n = 0, 3 (mod 4); any n >= 1 that is 1 or 2 (mod 4)
        returns 0 at once (no solution exists).
    method : {"godfrey", "miller"}
        ``"godfrey"``: the algebraic sum over {-1,1}^(2n) in Gray-code order with exact integer
        accumulation (fast; the default). ``"miller"``: bit-mask backtracking over the tree of
        pair placements.
    device : {"auto", "cpu", "gpu", "hybrid"}
        ``"auto"``: GPU and CPU together when CuPy sees a GPU (else the CPU); ``"hybrid"``
        forces both; ``"gpu"`` uses the GPU alone. ``WARPGRAPH_DEVICE`` overrides ``"auto"``.
    tasks : int, optional
        Number of independent tasks to split the work into (Godfrey: rounded up to a power of
        two; Miller: the smallest tree depth giving at least that many). Default: chosen by n.
    checkpoint : path, optional
        File of finished tasks: written atomically as the run goes, and resumed from when it
        exists (for the same n, method and tasks).

    Returns
    -------
    int

    Raises
    ------
    InvalidArgumentError
        n not an integer, n < 1, n > 24 with n = 0, 3 (mod 4), an unknown method or device, a
        checkpoint of another job.
    DeviceUnavailableError
        ``device="gpu"`` or ``"hybrid"`` without a usable GPU.
    VerificationError
        The Godfrey sum is not divisible by 2^(2n-2) (a hardware or software fault).

    Examples
    --------
    >>> from warpgraph.langford import count
    >>> count(3), count(4), count(5), count(11, device="cpu")
    (1, 1, 0, 17792)
    """
    return solve(n, method=method, device=device, tasks=tasks, checkpoint=checkpoint).count
