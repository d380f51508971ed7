"""Gunrock (gunrock/gunrock, "Essentials" 2.x) as a GPU peer: write the graph, run, parse.

Gunrock's example binaries (``bfs``, ``sssp``...) read a Matrix Market file and, with
``--export_metrics -d DIR -f FILE``, write one JSON document holding each run's time
(``process_times``, milliseconds) and the sources used (``srcs``). Their timer is Gunrock's own
(CUDA events around the enactor loop): it leaves out the problem's reset (distance
initialisation) and the first frontier's preparation, which warpgraph's timings include, so a
side-by-side comparison slightly favours Gunrock.

Undirected graphs are written as ``pattern symmetric`` with each edge once (row > column, 1-based:
Gunrock mirrors off-diagonal entries itself); directed graphs as ``pattern general``. Self-loops
are left out (they change no BFS answer). Gunrock 2.1's ``--binary`` CSR reader cannot be used
(its ``fread`` checks are inverted), so the text format is the only input.

Examples
--------
>>> doc = {"srcs": [3, 7], "process_times": [0.25, 0.5], "num_vertices": 8}
>>> parse_gunrock_metrics(doc)["times_ms"]
[0.25, 0.5]
"""

from __future__ import annotations

import json
import os
import subprocess
import tempfile
from pathlib import Path
from typing import Any

import numpy as np

from ..errors import InvalidArgumentError, WarpgraphError

__all__ = ["GunrockError", "parse_gunrock_metrics", "run_gunrock", "write_gunrock_mtx"]


class GunrockError(WarpgraphError, RuntimeError):
    """A Gunrock binary failed or wrote no metrics that could be parsed."""


def write_gunrock_mtx(G: Any, path: str | os.PathLike) -> Path:
    """Write ``G``'s edges as a Matrix Market pattern file Gunrock's loader reads.

    Parameters
    ----------
    G : Graph
        Any warpgraph graph (weights are not written: BFS ignores them).
    path : path-like
        Output file; written to a temporary name first and renamed when complete.

    Returns
    -------
    Path
        ``path``.

    Examples
    --------
    >>> import tempfile, warpgraph as wg
    >>> G = wg.Graph.from_edges([0, 1], [1, 2], num_vertices=3, directed=False)
    >>> p = write_gunrock_mtx(G, tempfile.mkdtemp() + "/g.mtx")
    >>> p.read_text().splitlines()[1:]
    ['3 3 2', '2 1', '3 2']
    """
    import pyarrow as pa
    import pyarrow.csv as pacsv

    src, dst, _ = G.to("cpu").edges()
    src = np.asarray(src, dtype=np.int64)
    dst = np.asarray(dst, dtype=np.int64)
    if G.is_directed():
        keep = src != dst
        rows, cols, scheme = src[keep], dst[keep], "general"
    else:
        # edges() gives each undirected edge once in either orientation: put the larger end first.
        keep = src != dst
        rows = np.maximum(src, dst)[keep]
        cols = np.minimum(src, dst)[keep]
        scheme = "symmetric"
    n = int(G.num_vertices)
    path = Path(path)
    tmp = path.with_suffix(path.suffix + ".tmp")
    with open(tmp, "wb") as f:
        f.write(f"%%MatrixMarket matrix coordinate pattern {scheme}\n".encode())
        f.write(f"{n} {n} {rows.size}\n".encode())
        opts = pacsv.WriteOptions(include_header=False, delimiter=" ", quoting_style="none")
        pacsv.write_csv(pa.table({"r": rows + 1, "c": cols + 1}), f, write_options=opts)
    os.replace(tmp, path)
    return path


def parse_gunrock_metrics(doc: dict[str, Any]) -> dict[str, Any]:
    """Times and sources from the JSON document Gunrock's ``--export_metrics`` writes.

    Raises
    ------
    GunrockError
        If the document has no run times.
    """
    times = [float(t) for t in doc.get("process_times") or []]
    if not times:
        raise GunrockError("Gunrock's metrics hold no process_times")
    return {
        "times_ms": times,
        "sources": [int(s) for s in doc.get("srcs") or []],
        "num_vertices": doc.get("num_vertices"),
        "num_edges": doc.get("num_edges"),
    }


def run_gunrock(
    binary: str | os.PathLike,
    mtx: str | os.PathLike,
    sources: list[int] | np.ndarray,
    *,
    warmup: bool = True,
    validate: bool = True,
    timeout: float | None = None,
) -> dict[str, Any]:
    """Run a Gunrock example binary from each source in one process and parse its metrics.

    Parameters
    ----------
    binary : path-like
        Gunrock's example binary (e.g. ``bin/bfs``).
    mtx : path-like
        Matrix Market file from :func:`write_gunrock_mtx`.
    sources : sequence of int
        0-based sources (Gunrock's ids are the file's ids minus one, so the same vertices).
    warmup : bool
        Run the first source once more before the timed ones (lazy module loading and caches)
        and drop that run.
    validate : bool
        Ask Gunrock to check the last search against its CPU BFS; its error count is returned
        as ``errors`` (None when not printed).
    timeout : float, optional
        Seconds before the run is stopped.

    Returns
    -------
    dict
        ``times_ms`` (one per source), ``sources``, ``errors``, ``command``.

    Raises
    ------
    InvalidArgumentError
        If ``binary`` is not an executable file.
    GunrockError
        When Gunrock exits with an error, times out or writes no metrics.
    """
    exe = Path(binary)
    if not (exe.is_file() and os.access(exe, os.X_OK)):
        raise InvalidArgumentError(f"--gunrock {binary}: not an executable file")
    srcs = [int(s) for s in sources]
    if not srcs:
        raise InvalidArgumentError("run_gunrock needs at least one source")
    run_srcs = ([srcs[0]] if warmup else []) + srcs
    with tempfile.TemporaryDirectory() as tmp:
        cmd = [str(exe), "-m", str(mtx), "-s", ",".join(map(str, run_srcs))]
        cmd += ["--export_metrics", "-d", tmp, "-f", "metrics.json"]
        if validate:
            cmd.append("--validate")
        try:
            proc = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout)
        except subprocess.TimeoutExpired as exc:
            raise GunrockError(f"{' '.join(cmd)} timed out after {timeout} s") from exc
        if proc.returncode != 0:
            raise GunrockError(f"Gunrock exited with {proc.returncode}: {proc.stderr[-1000:]}")
        files = list(Path(tmp).glob("*.json"))
        if not files:
            raise GunrockError("Gunrock wrote no metrics; output was:\n" + proc.stdout[-1500:])
        parsed = parse_gunrock_metrics(json.loads(files[0].read_text()))
    if warmup:
        parsed["times_ms"] = parsed["times_ms"][1:]
        parsed["sources"] = parsed["sources"][1:]
    errors = None
    for line in proc.stdout.splitlines():
        if line.startswith("Number of errors"):
            errors = int(line.split(":")[-1])
    parsed.update(errors=errors, command=cmd)
    return parsed
