"""Checkpoint file of a Langford run: which tasks are finished and the exact sum of their parts.

Tasks are independent, so a run can stop (Ctrl-C, a pre-empted job) and resume later from the
set of finished task ids — the seed computed L(2,27) and L(2,28) this way on a best-effort queue
over weeks. The file is JSON, rewritten atomically (temporary file in the same folder, fsync,
``os.replace``), so a crash leaves either the old or the new version, never a torn one::

    {"format": "warpgraph-langford-checkpoint", "version": 1,
     "job": {"method": "godfrey", "n": 19, "task_bits": 14, "num_tasks": 16384},
     "done": [[0, 511], [1024, 1030]],       # finished task ids as inclusive ranges
     "partial_sum": "123456789...",           # exact sum of the finished tasks' values
     "tasks_by_device": {"gpu": 500, "cpu": 19}}

Examples
--------
>>> import os, tempfile
>>> from warpgraph.langford.checkpoint import Checkpoint
>>> path = os.path.join(tempfile.mkdtemp(), "l7.json")
>>> ck = Checkpoint.open(path, {"method": "godfrey", "n": 7, "num_tasks": 4})
>>> ck.record([0, 1], [10, -3], "cpu"); ck.save()
>>> ck2 = Checkpoint.open(path, {"method": "godfrey", "n": 7, "num_tasks": 4})
>>> sorted(ck2.done), ck2.partial_sum
([0, 1], 7)
"""

from __future__ import annotations

import json
import os
import tempfile
import time
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any

from ..errors import InvalidArgumentError

__all__ = ["Checkpoint"]

_FORMAT = "warpgraph-langford-checkpoint"


def _ranges(ids: Iterable[int]) -> list[list[int]]:
    out: list[list[int]] = []
    for i in sorted(ids):
        if out and out[-1][1] + 1 == i:
            out[-1][1] = i
        else:
            out.append([i, i])
    return out


class Checkpoint:
    """Finished tasks of one job, persisted atomically at ``path``.

    Use :meth:`open` (creates a fresh checkpoint or loads a matching one), :meth:`record` after
    each batch, and :meth:`save` (or :meth:`maybe_save`, rate-limited) to write.
    """

    def __init__(self, path: str | os.PathLike | None, job: Mapping[str, Any]) -> None:
        self.path = None if path is None else Path(path)
        self.job = dict(job)
        self.done: set[int] = set()
        self.partial_sum = 0
        self.tasks_by_device: dict[str, int] = {}
        self._last_save = time.monotonic()

    @classmethod
    def open(cls, path: str | os.PathLike | None, job: Mapping[str, Any]) -> Checkpoint:
        """Load ``path`` if it exists (it must describe the same ``job``), else start empty.

        Raises
        ------
        InvalidArgumentError
            The file is not a Langford checkpoint, is damaged, or belongs to another job
            (other n, method or task split).
        """
        ck = cls(path, job)
        if path is None or not Path(path).exists():
            return ck
        try:
            data = json.loads(Path(path).read_text(encoding="utf-8"))
        except (OSError, ValueError) as exc:
            raise InvalidArgumentError(f"{path}: not a readable checkpoint ({exc})") from exc
        if not isinstance(data, dict) or data.get("format") != _FORMAT:
            raise InvalidArgumentError(f"{path}: not a warpgraph Langford checkpoint")
        if data.get("job") != ck.job:
            raise InvalidArgumentError(
                f"{path}: checkpoint is for job {data.get('job')}, not {ck.job}; "
                "use another file or the same n, method and tasks"
            )
        try:
            num = int(ck.job["num_tasks"])
            for a, b in data["done"]:
                if not 0 <= int(a) <= int(b) < num:
                    raise ValueError(f"task range [{a}, {b}] outside [0, {num})")
                ck.done.update(range(int(a), int(b) + 1))
            ck.partial_sum = int(data["partial_sum"])
            ck.tasks_by_device = {str(k): int(v) for k, v in data["tasks_by_device"].items()}
        except (KeyError, TypeError, ValueError) as exc:
            raise InvalidArgumentError(f"{path}: damaged checkpoint ({exc})") from exc
        return ck

    def record(self, ids: Iterable[int], values: Iterable[int], device: str) -> None:
        """Mark tasks ``ids`` finished with values ``values`` (computed on ``device``)."""
        ids = list(ids)
        self.done.update(ids)
        self.partial_sum += sum(int(v) for v in values)
        self.tasks_by_device[device] = self.tasks_by_device.get(device, 0) + len(ids)

    def save(self) -> None:
        """Write the checkpoint atomically (no-op without a path)."""
        self._last_save = time.monotonic()
        if self.path is None:
            return
        data = {
            "format": _FORMAT,
            "version": 1,
            "job": self.job,
            "done": _ranges(self.done),
            "partial_sum": str(self.partial_sum),
            "tasks_by_device": self.tasks_by_device,
        }
        self.path.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(dir=self.path.parent, prefix=self.path.name, suffix=".tmp")
        try:
            with os.fdopen(fd, "w", encoding="utf-8") as fh:
                json.dump(data, fh)
                fh.flush()
                os.fsync(fh.fileno())
            os.replace(tmp, self.path)
        except BaseException:
            Path(tmp).unlink(missing_ok=True)
            raise

    def maybe_save(self, interval: float) -> None:
        """Save if ``interval`` seconds passed since the last save."""
        if time.monotonic() - self._last_save >= interval:
            self.save()
