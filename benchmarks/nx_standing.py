"""Where the NetworkX backend's speed targets stand, read from the result files.

The issue's targets: first calls on graphs of 1M+ edges, conversion included, >= 20x NetworkX on
the CPU backend and >= 100x with a GPU, for every dispatched function NetworkX does not order
strictly. This script takes every result file of ``nx_backend.py`` (and of ``nx_one_node.py``)
in ``results/`` written on a host of ``--threads`` CPU threads (16: the H100/H200 hosts the
targets were measured on) with all of them given to Numba, keeps for each function, graph and
device the row of the latest session (the ``_sNN`` in the file name; the file's recorded date
breaks ties), and prints one table: each counted function (``nx_backend.CASES`` less
``ORDERED``) with its first-call speedup per graph and device, the session it was measured in,
and the misses. Functions without a row (NetworkX takes hours on these graphs, or no such host
ran them) are listed apart. Nothing is measured here: the figures are the files'. A figure
recorded before a later change to its function (:data:`CHANGED_AT`, kept by hand) is marked
stale; a lower bound under the target (NetworkX stopped at its time limit) is neither met nor
missed.

Usage::

    cd benchmarks; python nx_standing.py                 # Markdown table on stdout
    python nx_standing.py --threads 2 --graphs urand:17  # the 2-core files instead
    python nx_standing.py --stale-commands               # what to run to refresh stale cells
"""

from __future__ import annotations

import argparse
import json
import re
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

#: First-call speedup each device must reach (the issue's targets).
TARGET = {"cpu": 20.0, "gpu": 100.0}
#: When (UTC, the commit's time) a function's path or result on these graphs last changed,
#: where that came after figures still in the files: an older figure is marked stale.
#: de4df98 / 4e55277 built the sets of these functions in NetworkX's iteration order (labels
#: ``0..n-1``: unchanged within noise on 2 cores, but grid:708's directed ``ancestors`` now
#: searches its 27k nodes again in NetworkX's order: 1.6 -> 3.9 ms there; 9be68fb prefetches
#: that search's rows); 2525543 builds the compiled short search's sets in its queue's order
#: and searches a node's component so first; 4a467be hands single-source calls that reach
#: few nodes to NetworkX, af5ec57 calls naming a few nodes of little work; 9b03c59 ran
#: betweenness at 8 GPU blocks per SM (faster on the H200 in the library's own benchmark).
CHANGED_AT: dict[str | tuple[str, str], str] = {  # (a name, or (name, device) for one device)
    "connected_components": "2026-12-05 05:44:03",  # de4df98
    "weakly_connected_components": "2026-12-05 05:44:03",  # de4df98
    "node_connected_component": "2026-12-05 08:28:03",  # 2525543 (a short search first)
    "descendants": "2026-12-05 06:17:56",  # 4e55277
    # 5e7cfb7 / ff4ec0d: a set whose order matters built from the rows of the nodes found,
    # read by all threads (grid:708's 27k ancestors; 9be68fb before)
    "ancestors": "2026-12-07 03:28:43",
    "descendants_at_distance": "2026-12-05 08:28:03",  # 2525543 (its set in NetworkX's order)
    # 4a467be: a search of up to 512 nodes before the conversion (~0.05-0.1 ms on 2 cores)
    "bellman_ford_path_length": "2026-12-05 08:53:28",
    # (closeness_centrality(u), eccentricity(v): 2026-12-05 08:53:28, then below)
    # af5ec57: converted on first use, after a look at the named nodes' rows
    "triangles": "2026-12-05 09:09:56",
    "clustering": "2026-12-05 09:09:56",
    "average_clustering": "2026-12-05 09:09:56",
    ("betweenness_centrality", "gpu"): "2026-12-05 05:20:34",  # 9b03c59 (the GPU's only)
    ("edge_betweenness_centrality", "gpu"): "2026-12-05 05:20:34",  # 9b03c59
    # da30ab6..cdf74fb (2026-12-06 10:46:11): harmonic centrality's sums on the GPU, its
    # searches persistent for small batches; f92b1b0 (12:36:00): global efficiency's searches
    # on the GPU (the CPU's before)
    # d232689: the GPU's iBFS groups (sparse levels, batches of 32 bytes a vertex slot, large
    # batches persistent after a deep one) under every all-pairs measure on the GPU
    ("global_efficiency", "gpu"): "2026-12-06 16:43:59",  # d232689 (f92b1b0 before)
    ("harmonic_diameter", "gpu"): "2026-12-06 16:43:59",  # d232689
    ("harmonic_centrality", "gpu"): "2026-12-06 16:43:59",  # d232689 (cdf74fb before)
    # 596821d: distance_stats' CPU searches grouped by neighbourhood (both devices now changed)
    "closeness_centrality": "2026-12-06 17:02:12",  # 596821d (the GPU's: d232689)
    "diameter": "2026-12-06 17:02:12",  # 596821d
    # f2dc2cc / 83033a5 / 2a3a3db: global efficiency's waves grouped by neighbourhood (CPU;
    # the GPU's batches in deep graphs), the GPU's distance_stats grouped in deep graphs
    # (closeness and diameter on urand:17 measured after them: shallow, not grouped there).
    # 85a40d3 groups harmonic centrality's searches from the targets only: the benchmark's
    # case (64 sampled sources) searches from the sources, a path it did not change.
    "global_efficiency": "2026-12-06 19:04:01",
    "harmonic_diameter": "2026-12-06 19:04:01",
    # c67d7db: one search on the NetworkX dicts in place (nx/_dict_levels.py); measured on the
    # device from the working tree at 00:36 UTC, committed unchanged in its logic after
    "closeness_centrality(u)": "2026-12-07 00:30:00",
    "closeness_centrality(u), directed": "2026-12-07 00:30:00",
    "eccentricity(v)": "2026-12-07 00:30:00",
}
#: Cases of ``nx_one_node.py`` and the function each times.
ONE_NODE_CASES = ("closeness_centrality(u)", "closeness_centrality(u), directed", "eccentricity(v)")


@dataclass(frozen=True)
class Figure:
    """One function's first-call speedup on one graph and device, and where it came from."""

    speedup: float
    lower_bound: bool  # (NetworkX stopped at its time limit: the speedup is at least this)
    verified: bool | None  # (equal to NetworkX's; None: NetworkX's result never came)
    session: int
    date: str
    file: str

    def cell(self, device: str, changed_at: str = "") -> str:
        stale = " (stale)" if self.date[:19] < changed_at else ""  # (dates "%Y-%m-%d %H:%M:%S UTC")
        return self._figure(device) + stale

    def _figure(self, device: str) -> str:
        if self.verified is False:
            return f"**WRONG** (s{self.session})"
        if self.met(device) is None:
            return f">{self.speedup:,.1f}x (s{self.session}, NetworkX stopped)"
        mark = "" if self.met(device) else " **miss**"
        bound = ">" if self.lower_bound else ""
        return f"{bound}{self.speedup:,.1f}x (s{self.session}){mark}"

    def met(self, device: str) -> bool | None:
        """Whether the target is met; None when unknown (a lower bound under it)."""
        if self.verified is False:
            return False
        if self.speedup >= TARGET[device]:
            return True
        return None if self.lower_bound else False


def session_of(name: str) -> int | None:
    """The session number a result file's name carries (``..._s44_grid.json``: 44), or None.

    Examples
    --------
    >>> session_of("networkx_h200_20261203_s44_grid.json"), session_of("networkx_cpu2.json")
    (44, None)
    >>> session_of("nx_s49s50_functions_grid_h200_20261205_s51.json")
    51
    """
    found = re.findall(r"_s(\d+)(?=[_.a-z])", name)  # (the last: "_s49s50_..._s51")
    return int(found[-1]) if found else None


def figures_in(path: Path, threads: int) -> Iterator[tuple[str, str, str, Figure]]:
    """``(graph, function or case, device, figure)`` of every first call timed in the result
    file ``path``, if it is one of ``nx_backend.py``'s or ``nx_one_node.py``'s, carries a
    session number and was written on a host of ``threads`` CPU threads. A row left unchecked
    (NetworkX's result never came) is kept only where NetworkX ran out of time (a lower
    bound); one checked and found unequal is kept, to be shown."""
    session = session_of(path.name)
    if session is None:
        return
    try:
        data = json.loads(path.read_text())
    except (OSError, ValueError):
        return
    if not isinstance(data, dict):
        return
    env = data.get("environment") or {}
    if env.get("cpu_threads") != threads or env.get("numba_threads", threads) != threads:
        return  # (another host, or this host's threads capped: NUMBA_NUM_THREADS)
    date = str(env.get("date", ""))

    def figure(speedup: float, lower_bound: bool = False, verified: bool | None = True) -> Figure:
        return Figure(float(speedup), lower_bound, verified, session, date, path.name)

    for row in data.get("results") or []:
        if not (isinstance(row, dict) and "algorithm" in row and "networkx_s" in row):
            return  # (another benchmark's results)
        for device in ("cpu", "gpu"):
            timed = row.get(device)
            if not (isinstance(timed, dict) and timed.get("speedup_cold")):
                continue
            bound, verified = bool(timed.get("speedup_is_lower_bound")), timed.get("verified")
            if verified is not None or bound:
                fig = figure(timed["speedup_cold"], bound, verified)
                yield row["graph"], row["algorithm"], device, fig
    if data.get("benchmark") == "nx_one_node":
        # (rows before session 52 carry no device: the script's default then was the GPU
        # wherever CuPy saw one)
        seen_gpu = "gpu 0" in (env.get("gpu") or {})
        for row in data.get("rows") or []:
            device = row.get("device") or ("gpu" if seen_gpu else "cpu")
            yield row["graph"], row["case"], device, figure(row["speedup"])


def latest(paths: list[Path], threads: int) -> dict[tuple[str, str, str], Figure]:
    """The latest figure for each ``(graph, function, device)`` among the files ``paths``."""
    best: dict[tuple[str, str, str], Figure] = {}
    for path in paths:
        for graph, name, device, fig in figures_in(path, threads):
            key = (graph, name, device)
            old = best.get(key)
            if old is None or (fig.session, fig.date) > (old.session, old.date):
                best[key] = fig
    return best


def counted_functions() -> list[str]:
    """The benchmark's functions that the targets count (those NetworkX does not order
    strictly), in its table's order, then the one-node cases."""
    from nx_backend import CASES, ORDERED

    return [name for name in CASES if name not in ORDERED] + list(ONE_NODE_CASES)


def standing_table(figures: dict, names: list[str], graphs: list[str]) -> tuple[str, list[str]]:
    """(the Markdown table of ``names`` measured on ``graphs``, the names with no figure)."""
    columns = [(g, d) for g in graphs for d in ("cpu", "gpu")]
    head = "| function | " + " | ".join(f"{g} {d.upper()}" for g, d in columns) + " |"
    lines = [head, "|---" * (len(columns) + 1) + "|"]
    met = dict.fromkeys(columns, 0)
    timed = dict.fromkeys(columns, 0)  # (figures that meet or miss: not the unknown bounds)
    missing = []
    for name in names:
        cells = []
        for g, d in columns:
            fig = figures.get((g, name, d))
            changed_at = CHANGED_AT.get((name, d), CHANGED_AT.get(name, ""))
            if fig is not None and fig.met(d) is not None:
                timed[(g, d)] += 1
                met[(g, d)] += bool(fig.met(d))
            cells.append(fig.cell(d, changed_at) if fig else "")
        if any(cells):
            lines.append(f"| `{name}` | " + " | ".join(cells) + " |")
        else:
            missing.append(name)
    tally = " | ".join(f"{met[c]} of {timed[c]} >= {TARGET[c[1]]:g}x" for c in columns)
    lines.append(f"| **met** | {tally} |")
    lines.append("\n(stale): measured before the change of `nx_standing.CHANGED_AT`.")
    return "\n".join(lines), missing


def stale_cells(figures: dict, names: list[str], graphs: list[str]) -> dict[str, set[str]]:
    """``{function: devices}`` of the cells of ``standing_table`` marked stale."""
    found: dict[str, set[str]] = {}
    for name in names:
        for g in graphs:
            for d in ("cpu", "gpu"):
                fig = figures.get((g, name, d))
                changed_at = CHANGED_AT.get((name, d), CHANGED_AT.get(name, ""))
                if fig is not None and fig.date[:19] < changed_at:
                    found.setdefault(name, set()).add(d)
    return found


def remeasure_commands(
    stale: dict[str, set[str]], graphs: list[str], session: int | None = None
) -> list[str]:
    """The benchmark commands (run from ``benchmarks/`` on a host of 16 threads with a GPU)
    that time the ``stale`` cells again: one ``nx_backend.py`` run per device set, and one
    ``nx_one_node.py`` run per device for the one-node cases, each writing to ``$OUT`` a file
    tagged with ``session`` (the ``_sNN`` this table reads; ``sNN`` left to fill in without).

    Examples
    --------
    >>> remeasure_commands({"triangles": {"cpu", "gpu"}, "eccentricity(v)": {"gpu"}},
    ...                    ["grid:708"])  # doctest: +NORMALIZE_WHITESPACE
    ['python3 nx_backend.py --graphs grid:708 --devices cpu gpu --algorithms triangles
      --nx-jobs 3 --fixed-threads --out $OUT/networkx_stale_cpu_gpu_sNN.json',
     'python3 nx_one_node.py --graphs grid:708 --repeat 3 --device gpu
      --out $OUT/nx_one_node_stale_gpu_sNN.json']
    """
    graph_args, tag = " ".join(graphs), "sNN" if session is None else f"s{session}"
    by_devices: dict[tuple[str, ...], list[str]] = {}
    one_node: set[str] = set()
    for name, devices in stale.items():
        if name in ONE_NODE_CASES:
            one_node |= devices
        else:
            by_devices.setdefault(tuple(sorted(devices)), []).append(name)
    commands = [
        f"python3 nx_backend.py --graphs {graph_args} --devices {' '.join(devices)} "
        f"--algorithms {' '.join(names)} --nx-jobs 3 --fixed-threads "
        f"--out $OUT/networkx_stale_{'_'.join(devices)}_{tag}.json"
        for devices, names in sorted(by_devices.items())
    ]
    commands += [
        f"python3 nx_one_node.py --graphs {graph_args} --repeat 3 --device {device} "
        f"--out $OUT/nx_one_node_stale_{device}_{tag}.json"
        for device in sorted(one_node)
    ]
    return commands


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--results", default=str(Path(__file__).resolve().parent / "results"))
    ap.add_argument("--threads", type=int, default=16, help="CPU threads of the hosts read")
    ap.add_argument("--graphs", nargs="+", default=["urand:17", "grid:708"])
    ap.add_argument(
        "--stale-commands",
        action="store_true",
        help="print the benchmark commands that time the stale cells again, not the table",
    )
    ap.add_argument("--session", type=int, default=None, help="with --stale-commands: the tag")
    args = ap.parse_args(argv)
    paths = sorted(Path(args.results).glob("*.json"))
    figures, names = latest(paths, args.threads), counted_functions()
    if args.stale_commands:
        stale = stale_cells(figures, names, args.graphs)
        print("\n".join(remeasure_commands(stale, args.graphs, args.session)))
        return
    table, missing = standing_table(figures, names, args.graphs)
    print(table)
    if missing:
        print(f"\nNo {args.threads}-thread figure on these graphs: " + ", ".join(missing))


if __name__ == "__main__":
    main()
