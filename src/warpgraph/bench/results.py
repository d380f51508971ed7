"""Benchmark records as JSON lines: the schema, a crash-safe writer, and a reader.

Every line of a result file is one self-contained JSON object (one system x algorithm x graph x
device x configuration), so a run interrupted by Ctrl-C or a crash keeps every finished line, and
files from several runs can simply be concatenated. Schema ``warpgraph.bench/1`` (fields that
could not be measured are ``null``):

====================  ============================================================================
``schema``            ``"warpgraph.bench/1"``; a reader accepts the same major version
``run_id``            id shared by the records of one ``warpgraph bench`` invocation
``time``              UTC time the record was written (ISO 8601)
``status``            ``"ok"``, ``"failed"`` or ``"skipped"`` (``error`` says why)
``system``            ``"warpgraph"`` or the peer: ``"scipy"``, ``"networkx"``, ``"igraph"``,
                      ``"networkit"``, ``"gapbs"``
``system_version``    the system's version
``algorithm``         adapter name (``"bfs"``, ``"sssp"``, ``"csr_build"``, ...)
``work_kind``         ``"traversal"`` (TEPS), ``"graph"`` (edges per second) or ``"custom"``
``device``            ``"cpu"`` or ``"gpu"`` (peers run on the CPU)
``config``            keyword arguments given to the algorithm (``{}`` for the default)
``graph``             graph statistics: ``name``, ``spec``, ``origin``, ``scale``, ``n``, ``m``
                      (undirected edges once), ``arcs``, ``directed``, ``weighted``,
                      ``avg_degree``, ``max_degree``, ``gini``, ``self_loops``, ...
``timer``             ``"cuda_event"``, ``"wall"`` or ``"gapbs"`` (GAPBS's own trial timer)
``warmup``            untimed runs before the measured ones
``runs``              one entry per measured run: ``source``, ``seconds``, ``wall_seconds``,
                      ``edges`` (Graph500 counting), ``arcs`` (directed count)
``times``             ``median_s``, ``min_s``, ``max_s``, ``mean_s``, ``stddev_s``, ``runs``
``teps``              Graph500 TEPS statistics (``min_TEPS`` ... ``harmonic_mean_TEPS``,
                      ``harmonic_stddev_TEPS``) plus ``gteps`` (harmonic mean / 1e9)
``energy``            energy reading of a separate loop of runs (method, seconds, energy_j,
                      avg/peak power, clocks, throttle reasons, power limit) plus ``runs``,
                      ``energy_per_run_j``, ``edges_per_joule``, ``teps_per_watt``
``verified``          ``true`` / ``false`` / ``null`` (not checked); ``verified_runs`` counts them
``prepare_seconds``   untimed set-up: moving the graph to the device, converting it for a peer
``env``               :func:`warpgraph.bench.env.environment` (host, CPU, versions, GPU, driver)
``note``              free text (e.g. how GAPBS picked its sources)
====================  ============================================================================

Examples
--------
>>> import tempfile, os
>>> path = os.path.join(tempfile.mkdtemp(), "r.jsonl")
>>> with ResultWriter(path) as w:
...     w.write({"schema": SCHEMA, "system": "warpgraph"})
>>> [r["system"] for r in read_results([path])]
['warpgraph']
"""

from __future__ import annotations

import json
import math
import os
import warnings
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from ..errors import InvalidArgumentError

__all__ = ["SCHEMA", "ResultWriter", "read_results"]

SCHEMA = "warpgraph.bench/1"


def _clean(x: Any) -> Any:
    """NaN/inf become null (JSON has neither); NumPy scalars become Python numbers."""
    if isinstance(x, dict):
        return {str(k): _clean(v) for k, v in x.items()}
    if isinstance(x, list | tuple):
        return [_clean(v) for v in x]
    if hasattr(x, "item") and callable(x.item) and getattr(x, "ndim", 1) == 0:
        x = x.item()
    if isinstance(x, float) and not math.isfinite(x):
        return None
    return x


class ResultWriter:
    """Append records to a JSON-lines file, one flushed and fsynced line per record.

    Parameters
    ----------
    path : str or path
        Created with its parent directories; appended to when it exists.
    """

    def __init__(self, path: str | os.PathLike):
        self.path = Path(path)
        self.path.parent.mkdir(parents=True, exist_ok=True)
        self._f = open(self.path, "a", encoding="utf-8")
        self.count = 0

    def write(self, record: dict[str, Any]) -> None:
        line = json.dumps(_clean(record), default=str, separators=(",", ":"))
        self._f.write(line + "\n")
        self._f.flush()
        os.fsync(self._f.fileno())
        self.count += 1

    def close(self) -> None:
        if not self._f.closed:
            self._f.close()

    def __enter__(self) -> ResultWriter:
        return self

    def __exit__(self, *exc) -> None:
        self.close()


def read_results(paths: Iterable[str | os.PathLike]) -> list[dict[str, Any]]:
    """All records of the given JSON-lines files (blank lines skipped).

    Records of another schema major version are skipped with a warning; a line that is not JSON
    (a run killed mid-write) is skipped with a warning naming file and line.

    Raises
    ------
    InvalidArgumentError
        If a file does not exist.
    """
    major = SCHEMA.rsplit("/", 1)[1].split(".")[0]
    records = []
    for p in paths:
        p = Path(p)
        if not p.is_file():
            raise InvalidArgumentError(f"no such result file: {p}")
        with open(p, encoding="utf-8") as f:
            for lineno, line in enumerate(f, 1):
                if not line.strip():
                    continue
                try:
                    rec = json.loads(line)
                except json.JSONDecodeError:
                    warnings.warn(f"{p}:{lineno}: not a JSON record, skipped", stacklevel=2)
                    continue
                schema = str(rec.get("schema", ""))
                if not schema.startswith("warpgraph.bench/") or (
                    schema.rsplit("/", 1)[1].split(".")[0] != major
                ):
                    warnings.warn(f"{p}:{lineno}: schema {schema!r} is not {SCHEMA}", stacklevel=2)
                    continue
                rec.setdefault("_file", str(p))
                records.append(rec)
    return records
