"""Run independent tasks on the CPU and the GPU at once, with progress and checkpoints.

A job (:class:`Job`) has ``num_tasks`` independent tasks and knows how to compute a batch of
them on each device. :func:`run_job` starts one worker thread per device; each worker takes the
next batch from a shared list of pending task ids, computes it, and records the values in the
:class:`~warpgraph.langford.checkpoint.Checkpoint` (the exact sum of values is all a job needs).
The split between devices is therefore dynamic (the thesis fixed it statically: 80/20 for
Miller, 65/35 for Godfrey) and is measured: tasks and busy seconds per device are returned.

The GPU worker sizes its batches to take about ``gpu_batch_seconds``; the CPU worker takes one
batch of ``cpu_batch`` tasks at a time and stops taking work when the GPU alone would finish
the rest sooner than the CPU finishes one more batch, so the CPU never delays the end. On
Ctrl-C the workers finish their current batch, the checkpoint is saved, and the interrupt is
re-raised; calling again with the same checkpoint file resumes.

Examples
--------
>>> from warpgraph.langford.runner import Job, run_job
>>> job = Job("demo", 10, {"cpu": lambda ids: [i * i for i in ids]})
>>> run_job(job, ["cpu"]).total
285
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from .checkpoint import Checkpoint

__all__ = ["DeviceStats", "Job", "RunStats", "run_job"]


@dataclass
class Job:
    """Tasks ``0 .. num_tasks-1`` and, per device name, a function computing a batch of them.

    ``compute[device](ids)`` returns one exact integer per id; ``header`` identifies the job in
    checkpoint files (n, method, task split).
    """

    name: str
    num_tasks: int
    compute: dict[str, Callable[[list[int]], Sequence[int]]]
    header: dict[str, Any] = field(default_factory=dict)
    cpu_batch: int = 1
    gpu_first_batch: int = 1


@dataclass
class DeviceStats:
    """What one device did: tasks, busy seconds, batches."""

    tasks: int = 0
    seconds: float = 0.0
    batches: int = 0


@dataclass
class RunStats:
    """Outcome of :func:`run_job`."""

    total: int
    seconds: float
    num_tasks: int
    resumed_tasks: int
    devices: dict[str, DeviceStats]


class _Shared:
    def __init__(self, pending: list[int], ck: Checkpoint, on_progress, save_interval: float):
        self.pending = pending
        self.pos = 0
        self.lock = threading.Lock()
        self.ck = ck
        self.on_progress = on_progress
        self.save_interval = save_interval
        self.stop = threading.Event()
        self.error: BaseException | None = None
        self.rate: dict[str, float] = {}  # tasks per second, per device

    def take(self, k: int) -> list[int]:
        with self.lock:
            ids = self.pending[self.pos : self.pos + k]
            self.pos += len(ids)
            return ids

    def remaining(self) -> int:
        with self.lock:
            return len(self.pending) - self.pos

    def done(self, device: str, ids: list[int], values: Sequence[int], stats: DeviceStats, dt):
        with self.lock:
            self.ck.record(ids, values, device)
            stats.tasks += len(ids)
            stats.seconds += dt
            stats.batches += 1
            self.rate[device] = stats.tasks / max(stats.seconds, 1e-9)
            self.ck.maybe_save(self.save_interval)
        if self.on_progress is not None:
            self.on_progress(len(ids))


def _worker(device: str, job: Job, sh: _Shared, stats: DeviceStats, gpu_batch_seconds: float):
    fn = job.compute[device]
    batch = job.gpu_first_batch if device == "gpu" else job.cpu_batch
    try:
        while not sh.stop.is_set():
            if device == "cpu" and "gpu" in sh.rate and "cpu" in sh.rate:
                # leave the tail to the GPU when it would finish it before our next batch
                if sh.remaining() / sh.rate["gpu"] < batch / sh.rate["cpu"]:
                    break
            ids = sh.take(batch)
            if not ids:
                break
            t0 = time.perf_counter()
            values = fn(ids)
            dt = time.perf_counter() - t0
            if len(values) != len(ids):
                raise RuntimeError(f"{device} returned {len(values)} values for {len(ids)} tasks")
            sh.done(device, ids, values, stats, dt)
            if device == "gpu":
                per_task = dt / len(ids)
                batch = max(1, min(4 * batch, int(gpu_batch_seconds / max(per_task, 1e-9))))
    except BaseException as exc:
        sh.error = exc
        sh.stop.set()


def run_job(
    job: Job,
    devices: Sequence[str],
    *,
    checkpoint: str | None = None,
    on_progress: Callable[[int], None] | None = None,
    save_interval: float = 10.0,
    gpu_batch_seconds: float = 0.5,
) -> RunStats:
    """Compute every task of ``job`` on ``devices`` and return the exact sum of task values.

    Parameters
    ----------
    job : Job
    devices : sequence of {"cpu", "gpu"}
        Devices to use; each must have a function in ``job.compute``.
    checkpoint : path, optional
        Resume from and save to this file (see :mod:`warpgraph.langford.checkpoint`).
    on_progress : callable, optional
        Called with the number of tasks each finished batch adds (from a worker thread); called
        once at the start with the number of tasks already done in the checkpoint.
    save_interval : float
        Minimum seconds between checkpoint writes (it is always written at the end).
    gpu_batch_seconds : float
        Target duration of one GPU batch.
    """
    ck = Checkpoint.open(checkpoint, job.header)
    resumed = len(ck.done)
    pending = [i for i in range(job.num_tasks) if i not in ck.done]
    if on_progress is not None and resumed:
        on_progress(resumed)
    sh = _Shared(pending, ck, on_progress, save_interval)
    stats = {d: DeviceStats() for d in devices}
    threads = [
        threading.Thread(
            target=_worker, args=(d, job, sh, stats[d], gpu_batch_seconds), daemon=True
        )
        for d in devices
    ]
    t0 = time.perf_counter()
    for t in threads:
        t.start()
    try:
        for t in threads:
            while t.is_alive():
                t.join(0.2)
    except BaseException:  # KeyboardInterrupt: finish current batches, save, re-raise
        sh.stop.set()
        for t in threads:
            t.join()
        ck.save()
        raise
    seconds = time.perf_counter() - t0
    ck.save()
    if sh.error is not None:
        raise sh.error
    if len(ck.done) != job.num_tasks:  # pragma: no cover - defensive
        raise RuntimeError(f"{job.name}: {job.num_tasks - len(ck.done)} tasks were not computed")
    return RunStats(ck.partial_sum, seconds, job.num_tasks, resumed, stats)
