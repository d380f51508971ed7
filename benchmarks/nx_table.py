"""Markdown tables of a ``benchmarks/nx_backend.py`` JSON result, as docs/PERFORMANCE.md shows.

One row per function: NetworkX's seconds, then per graph and device the cold / cached
milliseconds and the first-call speedup (bold where the issue's target is met: CPU >= 20x,
GPU >= 100x); then the count of functions meeting it among those NetworkX does not order
strictly. Files from session 14 on add a ceiling column (NetworkX's time over the floor of
returning its result: no backend's first call does better), how many functions are within it,
how many cold calls lost CPU time to the hypervisor, and a second count from the median of the
calls that lost none (beside the count from all calls, not instead of it). Which functions
are ordered is taken from ``nx_backend.ORDERED`` (the current classification), not from the
file, so older files are counted the same way.

Usage::

    python benchmarks/nx_table.py benchmarks/results/networkx_h200_20261122_s7.json
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys

TARGET = {"cpu": 20.0, "gpu": 100.0}


def _ordered() -> set[str]:
    from nx_backend import ORDERED

    return set(ORDERED)


def _speedup(cell: dict, device: str) -> str:
    x = cell["speedup_cold"]
    text = f"{'>' if cell.get('speedup_is_lower_bound') else ''}{x:.0f}x"
    return f"**{text}**" if x >= TARGET[device] else text


def _unstolen_speedup(row: dict, cell: dict) -> float | None:
    """First-call speedup from the median of the cold calls during which the hypervisor stole
    no CPU tick (None without steal records or without such a call): our code's speed on a
    host not shared, shown beside, never instead of, the median of all calls."""
    ticks = cell.get("cold_steal_ticks")
    base = row["networkx_s"] or row.get("networkx_timeout_s")
    if not ticks or base is None or any(t is None for t in ticks):
        return None
    clean = [t for t, k in zip(cell["cold_all_s"], ticks, strict=True) if k == 0]
    return base / statistics.median(clean) if clean else None


def _ceiling(row: dict) -> str:
    """NetworkX's seconds over the floor of returning its result (``nx_backend.result_floor_s``
    plus the dispatcher's own cost): no backend's first call is faster."""
    x = row.get("ceiling_x")
    return "-" if x is None else (f"{x:.0f}x" if x < 1e5 else ">1e5x")


def render(data: dict, ordered: set[str]) -> str:
    graphs = list(dict.fromkeys(r["graph"] for r in data["results"]))
    ceilings = int(any("ceiling_x" in r for r in data["results"]))  # files from session 14 on
    devices = [d for d in ("cpu", "gpu") if any(d in r for r in data["results"])]
    rows: dict[str, dict[str, dict]] = {}
    for r in data["results"]:
        rows.setdefault(r["algorithm"], {})[r["graph"]] = r
    head = ["function"]
    for g in graphs:
        head.append(f"{g} NetworkX s")
        head += [f"{d.upper()} cold / cached ms" for d in devices]
        head += [f"{d.upper()} x" for d in devices]
        if ceilings:
            head.append("ceiling x")
    lines = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    met = {(g, d): 0 for g in graphs for d in devices}
    reachable = {(g, d): 0 for g in graphs for d in devices}
    met_unstolen = {(g, d): 0 for g in graphs for d in devices}
    counted_unstolen = {(g, d): 0 for g in graphs for d in devices}
    counted = 0
    for name, by_graph in rows.items():
        cells = [f"`{name}`" + (" (ordered)" if name in ordered else "")]
        counted += name not in ordered
        for g in graphs:
            r = by_graph.get(g)
            if r is None:
                cells += ["-"] * (1 + 2 * len(devices) + ceilings)
                continue
            nx_s = r["networkx_s"]
            cells.append(">timeout" if nx_s is None else f"{nx_s:.2f}")
            for d in devices:
                c = r[d]
                cells.append(f"{1e3 * c['cold_s']:.1f} / {1e3 * c['cached_median_s']:.1f}")
            for d in devices:
                c = r[d]
                cells.append(_speedup(c, d))
                if name not in ordered and c["speedup_cold"] >= TARGET[d]:
                    met[g, d] += 1
                if name not in ordered and r.get("ceiling_x", float("inf")) >= TARGET[d]:
                    reachable[g, d] += 1
                unstolen = _unstolen_speedup(r, c)
                if unstolen is not None:
                    counted_unstolen[g, d] += name not in ordered
                    met_unstolen[g, d] += name not in ordered and unstolen >= TARGET[d]
            if ceilings:
                cells.append(_ceiling(r))
        lines.append("| " + " | ".join(cells) + " |")
    lines.append("")
    lines.append("| first call, functions not ordered strictly | " + " | ".join(graphs) + " |")
    lines.append("|---|" + "---|" * len(graphs))
    for d in devices:
        label = f"{d.upper()} >= {TARGET[d]:.0f}x"
        lines.append(
            f"| {label} | "
            + " | ".join(
                f"{met[g, d]} of {counted}"
                + (f" ({reachable[g, d]} within the ceiling)" if ceilings else "")
                for g in graphs
            )
            + " |"
        )
    for d in devices:
        if any(counted_unstolen[g, d] for g in graphs):
            lines.append(
                f"| {d.upper()} >= {TARGET[d]:.0f}x, median of the calls with no stolen tick | "
                + " | ".join(f"{met_unstolen[g, d]} of {counted_unstolen[g, d]}" for g in graphs)
                + " |"
            )
    stolen = [
        (t, ticks)
        for r in data["results"]
        for d in devices
        for t, ticks in zip(r[d]["cold_all_s"], r[d].get("cold_steal_ticks") or [], strict=False)
        if ticks is not None
    ]
    if stolen:  # files from session 14 on: the hypervisor's share of the outliers
        hit = [t for t, ticks in stolen if ticks > 0]
        lines.append("")
        lines.append(
            f"Cold calls during which the hypervisor stole CPU time: {len(hit)} of {len(stolen)}"
            + (f" (median {1e3 * sorted(hit)[len(hit) // 2]:.1f} ms)" if hit else "")
            + "."
        )
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    ap.add_argument("result", help="a JSON file written by nx_backend.py --out")
    args = ap.parse_args(argv)
    with open(args.result) as fh:
        data = json.load(fh)
    print(render(data, _ordered()))
    return 0


if __name__ == "__main__":
    sys.exit(main())
