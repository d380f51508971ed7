"""GAPBS (the GAP Benchmark Suite, sbeamer/gapbs) as a peer: write the graph, run, parse.

``warpgraph bench --gapbs PATH`` points at a directory holding GAPBS's binaries (``bfs``,
``sssp``, ``cc``, ``pr``, ``tc``, ``bc``; or at one of them). The benchmark graph is written once
per run as a GAPBS edge list (``.el``, or ``.wel`` with integer weights), undirected graphs as
each edge once plus ``-s`` so GAPBS symmetrizes it as it would a GAP input. GAPBS then runs one
trial per source in one process (``-n``) and its ``Trial Time`` lines are parsed; those are
GAPBS's own wall-clock times of the kernel alone, as printed with 5 decimals (10 microsecond
resolution).

Two modes choose the sources: ``"own"`` (default) lets GAPBS pick them with its own seeded
``SourcePicker`` (random vertices with non-zero out-degree: the same rule as ours, different
vertices), in one process; ``"same"`` runs GAPBS once per warpgraph source with ``-r``, which
reloads the graph each time (slow on large graphs, identical sources).

Examples
--------
>>> out = '''Read Time:           0.01000
... Build Time:          0.00200
... Graph has 4 nodes and 5 undirected edges for degree: 1
... Trial Time:          0.00011
... Trial Time:          0.00013
... Average Time:        0.00012
... '''
>>> parsed = parse_gapbs_output(out)
>>> parsed["trial_times"], parsed["num_nodes"], parsed["directed"]
([0.00011, 0.00013], 4, False)
"""

from __future__ import annotations

import errno
import os
import re
import subprocess
import time
from pathlib import Path
from typing import Any

import numpy as np

from ..errors import InvalidArgumentError, WarpgraphError

__all__ = [
    "GAPBS_KERNELS",
    "GapbsError",
    "find_gapbs",
    "parse_gapbs_output",
    "run_gapbs",
    "write_gapbs_graph",
]

#: GAPBS binary for each algorithm name used by warpgraph's benchmark adapters.
GAPBS_KERNELS = {
    "bfs": "bfs",
    "sssp": "sssp",
    "wcc": "cc",
    "cc": "cc",
    "connected_components": "cc",
    "pagerank": "pr",
    "pr": "pr",
    "tc": "tc",
    "triangles": "tc",
    "bc": "bc",
}

_TIME = re.compile(r"^(?P<label>[A-Za-z ]+):\s+(?P<value>[-+0-9.eE]+)\s*$")
_STATS = re.compile(r"Graph has (\d+) nodes and (\d+) (un)?directed edges")
_VERIFY = re.compile(r"^Verification:\s+(\w+)")


class GapbsError(WarpgraphError, RuntimeError):
    """A GAPBS binary failed or printed nothing that could be parsed."""


def find_gapbs(path: str | os.PathLike) -> Path:
    """The directory holding GAPBS's binaries, from a directory or a binary's path.

    Raises
    ------
    InvalidArgumentError
        If ``path`` does not exist.
    """
    p = Path(path).expanduser()
    if not p.exists():
        raise InvalidArgumentError(f"--gapbs {path}: no such file or directory")
    return p if p.is_dir() else p.parent


def gapbs_binary(directory: Path, kernel: str) -> Path | None:
    """Path of GAPBS's ``kernel`` binary in ``directory`` if it exists and is executable."""
    exe = Path(directory) / kernel
    return exe if exe.is_file() and os.access(exe, os.X_OK) else None


def write_gapbs_graph(G: Any, directory: str | os.PathLike, name: str) -> tuple[Path, bool]:
    """Write ``G`` as a GAPBS edge list; returns the path and whether GAPBS must symmetrize.

    Weighted graphs become ``.wel`` with integer weights (GAPBS's weight type is int32); float
    weights are rejected because GAPBS would truncate them.

    Raises
    ------
    InvalidArgumentError
        For non-integer weights.
    """
    import pyarrow as pa
    import pyarrow.csv as pacsv

    src, dst, w = G.to("cpu").edges()
    cols = {"u": src.astype(np.int64), "v": dst.astype(np.int64)}
    suffix = ".el"
    if w is not None:
        if w.dtype.kind not in "iu":
            raise InvalidArgumentError(
                "GAPBS reads integer weights only; this graph has float weights"
            )
        cols["w"] = w.astype(np.int64)
        suffix = ".wel"
    path = Path(directory) / (re.sub(r"[^A-Za-z0-9_.-]+", "_", name) + suffix)
    tmp = path.with_suffix(path.suffix + ".tmp")
    opts = pacsv.WriteOptions(include_header=False, delimiter=" ", quoting_style="none")
    pacsv.write_csv(pa.table(cols), str(tmp), write_options=opts)
    os.replace(tmp, path)
    return path, not G.is_directed()


def parse_gapbs_output(text: str) -> dict[str, Any]:
    """Times and graph size from a GAPBS kernel's standard output.

    Returns
    -------
    dict
        ``trial_times`` (list of seconds), ``average_time``, ``read_time``, ``build_time``,
        ``num_nodes``, ``num_edges``, ``directed`` and ``verification`` (list of PASS/FAIL).

    Raises
    ------
    GapbsError
        If no ``Trial Time`` line is found.
    """
    out: dict[str, Any] = {
        "trial_times": [],
        "average_time": None,
        "read_time": None,
        "build_time": None,
        "num_nodes": None,
        "num_edges": None,
        "directed": None,
        "verification": [],
    }
    keys = {"Read Time": "read_time", "Build Time": "build_time", "Average Time": "average_time"}
    for line in text.splitlines():
        line = line.rstrip()
        m = _STATS.search(line)
        if m:
            out["num_nodes"], out["num_edges"] = int(m.group(1)), int(m.group(2))
            out["directed"] = m.group(3) is None
            continue
        m = _VERIFY.match(line)
        if m:
            out["verification"].append(m.group(1))
            continue
        m = _TIME.match(line)
        if not m:
            continue
        label, value = m.group("label").strip(), float(m.group("value"))
        if label == "Trial Time":
            out["trial_times"].append(value)
        elif label in keys:
            out[keys[label]] = value
    if not out["trial_times"]:
        raise GapbsError("GAPBS printed no 'Trial Time' line; output was:\n" + text[-2000:])
    return out


def run_gapbs(
    binary: str | os.PathLike,
    graph_file: str | os.PathLike,
    *,
    symmetrize: bool,
    trials: int,
    source: int | None = None,
    extra_args: tuple[str, ...] = (),
    timeout: float | None = None,
) -> dict[str, Any]:
    """Run one GAPBS kernel and parse its output (see :func:`parse_gapbs_output`).

    The command is ``BINARY -f FILE [-s] -n TRIALS [-r SOURCE] EXTRA...``; the parsed dict also
    holds ``command`` (a list) and ``stdout``.

    Raises
    ------
    GapbsError
        When the binary exits with an error or times out.
    """
    cmd = [str(binary), "-f", str(graph_file)]
    if symmetrize:
        cmd.append("-s")
    cmd += ["-n", str(int(trials))]
    if source is not None:
        cmd += ["-r", str(int(source))]
    cmd += list(extra_args)
    for attempt in range(5):
        try:
            proc = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout, check=False)
            break
        except subprocess.TimeoutExpired as exc:
            raise GapbsError(f"{' '.join(cmd)} timed out after {timeout} s") from exc
        except OSError as exc:
            # "Text file busy": a binary just built (or written) can still be open for writing
            # in another process for a moment; anything else is a real error.
            if exc.errno != errno.ETXTBSY or attempt == 4:
                raise GapbsError(f"cannot run {cmd[0]}: {exc}") from exc
            time.sleep(0.05 * (attempt + 1))
    if proc.returncode != 0:
        raise GapbsError(
            f"{' '.join(cmd)} exited with status {proc.returncode}: {proc.stderr[-1000:]}"
        )
    parsed = parse_gapbs_output(proc.stdout)
    parsed["command"] = cmd
    parsed["stdout"] = proc.stdout
    return parsed
