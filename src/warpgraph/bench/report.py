"""Reports from benchmark result files: a Markdown document and PNG/SVG plots.

``warpgraph report results/*.jsonl -o report/`` writes

* ``report.md`` - machines and versions; a table of median time per run (and GTEPS where the
  algorithm has a work count) for every graph x algorithm x system; the speedup of each warpgraph
  configuration over each peer (peer median / warpgraph median); energy and power where measured;
  and the cells that were skipped or failed, with the reason;
* ``time_per_graph.{png,svg}`` - median time per graph for every system (one panel per
  algorithm, logarithmic axis);
* ``speedup.{png,svg}`` - speedup of the fastest warpgraph system over each peer, per graph;
* ``gteps_vs_scale.{png,svg}`` - GTEPS (harmonic mean) against graph scale (log2 of vertices, or
  the generator's ``scale``), one line per algorithm, system and graph family (generator).

When one (graph, algorithm, system) cell appears in several files or runs, the newest record
wins. Plots need matplotlib (``pip install 'warpgraph[bench]'``); without it the Markdown is
still written and the message says how to get the plots.

Examples
--------
>>> rec = {"status": "ok", "system": "warpgraph", "device": "gpu", "config": {},
...        "algorithm": "bfs", "graph": {"name": "kron20"}, "times": {"median_s": 0.001},
...        "teps": {"gteps": 15.7}, "time": "2026-01-01T00:00:00Z"}
>>> print(markdown_table([rec]).splitlines()[2])
| kron20 | bfs | 1.00 ms (15.7 GTEPS) |
"""

from __future__ import annotations

import os
from collections import defaultdict
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Any

from ..errors import InvalidArgumentError
from .results import read_results

__all__ = ["markdown_report", "markdown_table", "speedup_table", "system_label", "write_report"]

PLOT_FORMATS = ("png", "svg")


def system_label(rec: dict[str, Any]) -> str:
    """``warpgraph/gpu``, ``warpgraph/cpu [direction=push]``, or the peer's name.

    Examples
    --------
    >>> system_label({"system": "warpgraph", "device": "gpu", "config": {"policy": "lb"}})
    'warpgraph/gpu [policy=lb]'
    """
    if rec.get("system") != "warpgraph":
        return str(rec.get("system"))
    label = f"warpgraph/{rec.get('device')}" if rec.get("device") else "warpgraph"
    cfg = rec.get("config") or {}
    if cfg:
        label += " [" + ",".join(f"{k}={v}" for k, v in sorted(cfg.items())) + "]"
    return label


def _graph_name(rec: dict[str, Any]) -> str:
    g = rec.get("graph") or {}
    return str(g.get("name") or g.get("spec") or "?")


def _family(rec: dict[str, Any]) -> str:
    """Graph family for the GTEPS-vs-scale lines: the generator's name, else the graph's name."""
    g = rec.get("graph") or {}
    spec = str(g.get("spec") or "")
    if g.get("origin") == "generator" and spec:
        return spec.split(":", 1)[0]
    return _graph_name(rec)


def _latest(records: Iterable[dict]) -> dict[tuple[str, str, str], dict]:
    """Newest ``ok`` record per (graph, algorithm, system label)."""
    cells: dict[tuple[str, str, str], dict] = {}
    for r in records:
        if r.get("status") != "ok" or (r.get("times") or {}).get("median_s") is None:
            continue
        key = (_graph_name(r), str(r.get("algorithm")), system_label(r))
        if key not in cells or str(r.get("time", "")) >= str(cells[key].get("time", "")):
            cells[key] = r
    return cells


def _fmt_time(seconds: float) -> str:
    if seconds >= 1:
        return f"{seconds:.2f} s"
    if seconds >= 1e-3:
        return f"{seconds * 1e3:.2f} ms"
    return f"{seconds * 1e6:.1f} µs"


def _order(labels: Iterable[str]) -> list[str]:
    """warpgraph systems first (GPU before CPU), then peers alphabetically."""
    return sorted(set(labels), key=lambda s: (not s.startswith("warpgraph"), "/gpu" not in s, s))


def markdown_table(records: Sequence[dict[str, Any]]) -> str:
    """Median time per run (and GTEPS) for every graph x algorithm (rows) x system (columns)."""
    cells = _latest(records)
    systems = _order(k[2] for k in cells)
    rows = sorted({(k[0], k[1]) for k in cells})
    out = ["| graph | algorithm | " + " | ".join(systems) + " |"]
    out.append("|---|---|" + "---:|" * len(systems))
    for g, a in rows:
        line = [g, a]
        for s in systems:
            r = cells.get((g, a, s))
            if r is None:
                line.append("-")
                continue
            text = _fmt_time(r["times"]["median_s"])
            gteps = (r.get("teps") or {}).get("gteps")
            if gteps is not None:
                unit = "GTEPS" if r.get("work_kind", "traversal") == "traversal" else "G edges/s"
                text += f" ({gteps:.3g} {unit})"
            line.append(text)
        out.append("| " + " | ".join(line) + " |")
    return "\n".join(out)


def speedups(records: Sequence[dict[str, Any]]) -> list[tuple[str, str, str, str, float]]:
    """(graph, algorithm, warpgraph system, peer, peer median / warpgraph median) tuples."""
    cells = _latest(records)
    out = []
    for (g, a, s), r in sorted(cells.items()):
        if not s.startswith("warpgraph"):
            continue
        ours = r["times"]["median_s"]
        for (g2, a2, peer), p in sorted(cells.items()):
            if (g2, a2) == (g, a) and not peer.startswith("warpgraph") and ours > 0:
                out.append((g, a, s, peer, p["times"]["median_s"] / ours))
    return out


def speedup_table(records: Sequence[dict[str, Any]]) -> str:
    """Markdown table of :func:`speedups` (rows: graph, algorithm, warpgraph system)."""
    sp = speedups(records)
    peers = _order(t[3] for t in sp)
    if not sp:
        return "_No peer ran on the same graph and algorithm._"
    table: dict[tuple[str, str, str], dict[str, float]] = defaultdict(dict)
    for g, a, s, p, x in sp:
        table[(g, a, s)][p] = x
    out = ["| graph | algorithm | warpgraph | " + " | ".join(f"vs {p}" for p in peers) + " |"]
    out.append("|---|---|---|" + "---:|" * len(peers))
    for (g, a, s), vals in sorted(table.items()):
        line = [g, a, s] + [f"{vals[p]:.3g}x" if p in vals else "-" for p in peers]
        out.append("| " + " | ".join(line) + " |")
    return "\n".join(out)


def _energy_table(records: Sequence[dict[str, Any]]) -> str | None:
    rows = []
    for (g, a, s), r in sorted(_latest(records).items()):
        e = r.get("energy") or {}
        if e.get("energy_j") is None:
            continue
        rows.append(
            [
                g,
                a,
                s,
                f"{e.get('avg_power_w') or 0:.1f}",
                f"{e.get('peak_power_w'):.1f}" if e.get("peak_power_w") is not None else "-",
                f"{e['energy_per_run_j'] * 1e3:.3g}" if e.get("energy_per_run_j") else "-",
                f"{e['teps_per_watt'] / 1e6:.4g}" if e.get("teps_per_watt") else "-",
                str(e.get("method")),
                ", ".join(e.get("throttle_reasons") or []) or "none",
            ]
        )
    if not rows:
        return None
    head = [
        "| graph | algorithm | system | avg W | peak W | mJ/run | MTEPS/W | method | throttling |",
        "|---|---|---|---:|---:|---:|---:|---|---|",
    ]
    return "\n".join(head + ["| " + " | ".join(r) + " |" for r in rows])


def _machines(records: Sequence[dict[str, Any]]) -> list[str]:
    seen = {}
    for r in records:
        env = r.get("env") or {}
        gpu = env.get("gpu") or {}
        key = r.get("run_id")
        if key in seen:
            continue
        v = env.get("versions") or {}
        gpu_text = (
            f"{gpu.get('name')} (driver {gpu.get('driver')}, CUDA {gpu.get('cuda_runtime')}, "
            f"power limit {gpu.get('power_limit_w')} W)"
            if gpu
            else "no GPU"
        )
        seen[key] = (
            f"- run `{key}` ({env.get('date')}): {env.get('cpu')}, {env.get('cpu_threads')} "
            f"threads (Numba {env.get('numba_threads')}); {gpu_text}; warpgraph "
            f"{v.get('warpgraph')}, NumPy {v.get('numpy')}, SciPy {v.get('scipy')}, "
            f"CuPy {v.get('cupy')}"
        )
    return list(seen.values())


def markdown_report(records: Sequence[dict[str, Any]], images: Sequence[str] = ()) -> str:
    """The whole Markdown report (see the module docstring)."""
    parts = ["# warpgraph benchmark report", ""]
    parts += ["## Machines", "", *(_machines(records) or ["- (no environment recorded)"]), ""]
    parts += [
        "## Median time per run",
        "",
        "Median over all timed runs (every source, every repeat); GPU times from CUDA events, "
        "CPU times from the wall clock. GTEPS is the Graph500 harmonic mean of per-run TEPS, "
        "an undirected edge counted once.",
        "",
        markdown_table(records),
        "",
        "## Speedup over peers",
        "",
        "Peer median time divided by warpgraph's, on the same graph (same sources except GAPBS "
        "in its default mode).",
        "",
        speedup_table(records),
        "",
    ]
    energy = _energy_table(records)
    if energy:
        parts += ["## Energy and power", "", energy, ""]
    bad = [r for r in records if r.get("status") != "ok"]
    if bad:
        parts += ["## Skipped or failed", ""]
        for r in bad:
            parts.append(
                f"- {_graph_name(r)} / {r.get('algorithm')} / {system_label(r)}: "
                f"**{r.get('status')}** - {r.get('error')}"
            )
        parts.append("")
    if images:
        parts += ["## Plots", ""] + [f"![{Path(p).stem}]({Path(p).name})" for p in images] + [""]
    return "\n".join(parts)


def _pyplot():
    try:
        import matplotlib

        matplotlib.use("Agg", force=False)
        import matplotlib.pyplot as plt
    except ImportError:
        return None
    return plt


def _grouped_bars(ax, groups: list[str], series: dict[str, dict[str, float]], colors) -> None:
    import numpy as np

    width = 0.8 / max(1, len(series))
    x = np.arange(len(groups))
    for i, (name, values) in enumerate(series.items()):
        ys = [values.get(g, np.nan) for g in groups]
        ax.bar(x + (i - (len(series) - 1) / 2) * width, ys, width, label=name, color=colors[name])
    ax.set_xticks(x)
    ax.set_xticklabels(groups, rotation=30, ha="right", fontsize=8)


def _save(fig, outdir: Path, stem: str, formats: Sequence[str]) -> list[str]:
    paths = []
    fig.tight_layout()
    for fmt in formats:
        p = outdir / f"{stem}.{fmt}"
        fig.savefig(p, bbox_inches="tight", dpi=120)
        paths.append(str(p))
    return paths


def make_plots(
    records: Sequence[dict[str, Any]], outdir: str | os.PathLike, formats=PLOT_FORMATS
) -> list[str]:
    """Write the three plots; returns their paths (empty without matplotlib or data)."""
    plt = _pyplot()
    if plt is None:
        return []
    outdir = Path(outdir)
    cells = _latest(records)
    if not cells:
        return []
    algorithms = sorted({k[1] for k in cells})
    written: list[str] = []
    names = _order([k[2] for k in cells])
    colors = {s: f"C{i % 10}" for i, s in enumerate(names)}

    fig, axes = plt.subplots(len(algorithms), 1, figsize=(9, 3.2 * len(algorithms)), squeeze=False)
    for ax, a in zip(axes[:, 0], algorithms, strict=True):
        graphs = sorted({k[0] for k in cells if k[1] == a})
        series: dict[str, dict[str, float]] = defaultdict(dict)
        for (g, a2, s), r in cells.items():
            if a2 == a:
                series[s][g] = r["times"]["median_s"] * 1e3
        _grouped_bars(ax, graphs, {s: series[s] for s in _order(series)}, colors)
        ax.set_yscale("log")
        ax.set_ylabel("median ms per run")
        ax.set_title(a)
        ax.legend(fontsize=7)
    written += _save(fig, outdir, "time_per_graph", formats)
    plt.close(fig)

    sp = speedups(records)
    if sp:
        best: dict[tuple[str, str, str], float] = {}
        for g, a, _s, p, x in sp:
            best[(g, a, p)] = max(best.get((g, a, p), 0.0), x)
        algs = sorted({k[1] for k in best})
        fig, axes = plt.subplots(len(algs), 1, figsize=(9, 3.2 * len(algs)), squeeze=False)
        for ax, a in zip(axes[:, 0], algs, strict=True):
            graphs = sorted({k[0] for k in best if k[1] == a})
            series = defaultdict(dict)
            for (g, a2, p), x in best.items():
                if a2 == a:
                    series[p][g] = x
            _grouped_bars(ax, graphs, dict(sorted(series.items())), colors)
            ax.axhline(1.0, color="black", linewidth=0.8)
            ax.set_yscale("log")
            ax.set_ylabel("speedup (x)")
            ax.set_title(f"{a}: fastest warpgraph system over each peer")
            ax.legend(fontsize=7)
        written += _save(fig, outdir, "speedup", formats)
        plt.close(fig)

    lines: dict[tuple[str, str, str], list[tuple[float, float]]] = defaultdict(list)
    for (_g, a, s), r in cells.items():
        gteps = (r.get("teps") or {}).get("gteps")
        scale = (r.get("graph") or {}).get("scale")
        if gteps and scale is not None:
            lines[(a, s, _family(r))].append((float(scale), gteps))
    if lines:
        fig, ax = plt.subplots(figsize=(7, 4.5))
        for (a, s, fam), pts in sorted(lines.items()):
            pts.sort()
            label = f"{a} {s} ({fam})"
            ax.plot([p[0] for p in pts], [p[1] for p in pts], marker="o", label=label)
        ax.set_xlabel("scale (log2 vertices)")
        ax.set_ylabel("GTEPS (harmonic mean)")
        ax.set_yscale("log")
        ax.legend(fontsize=7)
        ax.grid(True, alpha=0.3)
        written += _save(fig, outdir, "gteps_vs_scale", formats)
        plt.close(fig)
    return written


def write_report(
    paths: Sequence[str | os.PathLike],
    outdir: str | os.PathLike = "report",
    *,
    formats: Sequence[str] = PLOT_FORMATS,
    plots: bool = True,
) -> dict[str, Any]:
    """Read result files and write ``report.md`` (and the plots) into ``outdir``.

    Returns
    -------
    dict
        ``markdown`` (path), ``images`` (paths), ``records`` (count), ``plots_note`` (why no
        plots were made, or None).

    Raises
    ------
    InvalidArgumentError
        For no input file, a missing file, or an unknown plot format.
    """
    if not paths:
        raise InvalidArgumentError("give at least one result file (JSON lines)")
    bad = [f for f in formats if f not in ("png", "svg", "pdf")]
    if bad:
        raise InvalidArgumentError(f"plot formats must be png, svg or pdf, got {bad}")
    records = read_results(paths)
    outdir = Path(outdir)
    outdir.mkdir(parents=True, exist_ok=True)
    images: list[str] = []
    note = None
    if plots:
        if _pyplot() is None:
            note = "matplotlib is not installed (pip install 'warpgraph[bench]'); no plots"
        else:
            images = make_plots(records, outdir, formats)
    md = outdir / "report.md"
    tmp = md.with_suffix(".md.tmp")
    shown = [p for p in images if p.endswith(".png")] or [p for p in images if p.endswith(".svg")]
    tmp.write_text(markdown_report(records, shown), encoding="utf-8")
    os.replace(tmp, md)
    return {"markdown": str(md), "images": images, "records": len(records), "plots_note": note}
