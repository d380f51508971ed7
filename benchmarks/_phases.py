"""Where a first call's result building goes: phase timers and page faults per timed call.

The large results of the NetworkX backend (``k_core``'s subgraph and its kin) are built by
:func:`warpgraph.nx._capi_graph.build_graph` in phases: the copies of the node attribute dicts and
of the edge data dicts (worker threads where allowed), the attribute dicts put into the
result's node dict (with their copies, one at a time, where the workers do not copy), and
the rows. Sessions 26-28 found the
first calls' time in those phases and in the page faults of growing heaps; this module records
them for the benchmark scripts (``nx_fresh_process.py --phases``, ``nx_backend.py --phases``)
so such measurements need no script outside the project.

:class:`PhaseRecorder` replaces the phases' functions by wrappers on their modules while it is
installed (the callers look them up there at each call) and restores them after. A wrapper
adds the wall time and the process's minor page faults of each call to the current record.
The cost is two ``getrusage`` calls per phase call, a few microseconds.

Example
-------
>>> from _phases import PhaseRecorder
>>> with PhaseRecorder() as phases:
...     phases.start()
...     # ... one timed call of the backend ...
...     record = phases.stop()
>>> sorted(record)[:2]
['faults', 'gc_collections']
"""

from __future__ import annotations

import gc
import importlib
import time
from collections.abc import Callable
from typing import Any

#: Recorded phase -> (module, function). ``node_dicts``: the attribute dicts copied and put
#: into ``H._node`` one at a time; where the workers copy them (session 28), ``copies`` takes
#: them first (two calls per build: the node attribute dicts, then the edge data dicts) and
#: ``node_dicts_put`` puts the copies. ``copies`` includes ``worker_copies``; all are part of
#: ``build_graph``, as is ``rows``.
PHASES: dict[str, tuple[str, str]] = {
    "build_graph": ("warpgraph.nx._capi_graph", "build_graph"),
    "node_dicts": ("warpgraph.nx._capi_graph", "_nodes"),
    "node_dicts_put": ("warpgraph.nx._capi_graph", "_put_nodes"),
    "copies": ("warpgraph.nx._parallel_copies", "copy_data_dicts"),
    "worker_copies": ("warpgraph.nx._parallel_copies", "_forge_all"),
    "rows": ("warpgraph.nx._parallel_rows", "fill_rows"),
}


def minor_faults() -> int | None:
    """The process's minor page faults so far (``getrusage``), or None where the platform
    does not count them (no ``resource`` module)."""
    try:
        import resource
    except ImportError:  # (not a Unix)
        return None
    return resource.getrusage(resource.RUSAGE_SELF).ru_minflt


class PhaseRecorder:
    """Per-call records of the phases in :data:`PHASES`, the page faults and the collections.

    Use as a context manager; between :meth:`start` and :meth:`stop` every phase call adds
    ``<phase>_ms`` and ``<phase>_faults`` (and ``<phase>_calls``) to the record.
    """

    def __init__(self, phases: dict[str, tuple[str, str]] | None = None) -> None:
        self.phases = dict(PHASES if phases is None else phases)
        self._saved: list[tuple[Any, str, Callable]] = []
        self._record: dict[str, Any] | None = None
        self._faults0: int | None = None
        self._collections0 = 0

    # ------------------------------------------------------------------ install
    def __enter__(self) -> PhaseRecorder:
        for phase, (module_name, name) in self.phases.items():
            module = importlib.import_module(module_name)
            real = getattr(module, name, None)
            if real is None:  # an older tree (an A/B through PYTHONPATH) lacks this phase
                continue
            self._saved.append((module, name, real))
            setattr(module, name, self._wrap(phase, real))
        return self

    def __exit__(self, *exc: object) -> None:
        for module, name, real in reversed(self._saved):
            setattr(module, name, real)
        self._saved.clear()

    def _wrap(self, phase: str, real: Callable) -> Callable:
        def timed_phase(*args: Any, **kwargs: Any) -> Any:
            record = self._record
            if record is None:  # (outside a recorded call)
                return real(*args, **kwargs)
            f0 = minor_faults()
            t0 = time.perf_counter()
            try:
                return real(*args, **kwargs)
            finally:
                ms = (time.perf_counter() - t0) * 1e3
                record[f"{phase}_ms"] = round(record.get(f"{phase}_ms", 0.0) + ms, 3)
                record[f"{phase}_calls"] = record.get(f"{phase}_calls", 0) + 1
                if f0 is not None:
                    faults = minor_faults() - f0
                    record[f"{phase}_faults"] = record.get(f"{phase}_faults", 0) + faults

        timed_phase.__wrapped__ = real  # type: ignore[attr-defined]
        return timed_phase

    # ------------------------------------------------------------------ one call
    def start(self) -> None:
        """Open a record: what the phases do until :meth:`stop` goes into it."""
        self._record = {}
        self._collections0 = _collections()
        self._faults0 = minor_faults()

    def stop(self) -> dict[str, Any]:
        """Close the record and return it: the phases' times, calls and faults, and the whole
        call's ``faults`` and ``gc_collections`` (collections that ran inside it)."""
        if self._record is None:
            raise RuntimeError("stop() without start()")
        record, self._record = self._record, None
        f1 = minor_faults()
        record["faults"] = None if f1 is None or self._faults0 is None else f1 - self._faults0
        record["gc_collections"] = _collections() - self._collections0
        return record


def _collections() -> int:
    return sum(s["collections"] for s in gc.get_stats())
