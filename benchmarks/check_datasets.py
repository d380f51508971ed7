"""Load every real graph in the shared datasets folder and check its counts against the README.

The folder's README.md has a table ``| file | type | origin | vertices | edges | notes |``;
this script parses it, loads each listed file with warpgraph (format detected from the name
and content; "undirected" in the edges column loads it undirected), and compares the vertex
and edge counts. A glob in the file column (``ppi-human/queries/*.graph``) expands to every
match, with ``—`` meaning "not checked". Files present but not in the table are loaded too
(reported, not checked).

Prints a table; exit status 1 on any mismatch or load failure.

Usage: ``python benchmarks/check_datasets.py [--root ../shared/datasets] [--json out.json]``
"""

from __future__ import annotations

import argparse
import glob
import json
import os
import re
import sys
import time
from typing import Any

HERE = os.path.dirname(os.path.abspath(__file__))
DEFAULT_ROOT = os.path.normpath(os.path.join(HERE, "..", "..", "shared", "datasets"))


def _count(text: str) -> int | None:
    m = re.search(r"[\d,]+", text)
    if not m or not m.group(0).replace(",", ""):
        return None
    return int(m.group(0).replace(",", ""))


def parse_readme(path: str) -> list[dict[str, Any]]:
    """Rows of the README table: file pattern, vertices, edges, directedness."""
    rows = []
    with open(path, encoding="utf-8") as f:
        for line in f:
            if not line.startswith("|"):
                continue
            cells = [c.strip() for c in line.strip().strip("|").split("|")]
            if len(cells) < 6 or cells[0] in ("file", "") or set(cells[0]) <= {"-", ":"}:
                continue
            name = cells[0].strip("`")
            edges_cell = cells[4]
            rows.append(
                {
                    "pattern": name,
                    "vertices": _count(cells[3]),
                    "edges": _count(edges_cell),
                    "undirected": "undirected" in edges_cell,
                }
            )
    return rows


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--root", default=DEFAULT_ROOT, help="folder with README.md and the files")
    ap.add_argument("--json", help="also write the results here")
    args = ap.parse_args(argv)

    import warpgraph as wg
    from warpgraph.cli.ui import print_table

    readme = os.path.join(args.root, "README.md")
    if not os.path.exists(readme):
        print(f"no README.md in {args.root}", file=sys.stderr)
        return 1
    expected = parse_readme(readme)
    listed: set[str] = set()
    checks = []
    for row in expected:
        matches = sorted(glob.glob(os.path.join(args.root, row["pattern"])))
        if not matches:
            checks.append((row["pattern"], row, None))
        for path in matches:
            listed.add(os.path.abspath(path))
            checks.append((os.path.relpath(path, args.root), row, path))
    for path in sorted(glob.glob(os.path.join(args.root, "**", "*"), recursive=True)):
        if os.path.isfile(path) and not path.endswith("README.md"):
            if os.path.abspath(path) not in listed:
                checks.append((os.path.relpath(path, args.root), None, path))

    table, results, failures = [], [], 0
    for name, row, path in checks:
        res: dict[str, Any] = {"file": name}
        if path is None:
            res.update(status="MISSING")
            failures += 1
        else:
            directed = False if (row and row["undirected"]) else None
            try:
                fmt = wg.io.detect_format(path)
                t0 = time.perf_counter()
                G = wg.load(path, directed=directed)
                res.update(
                    format=fmt,
                    seconds=time.perf_counter() - t0,
                    vertices=G.num_vertices,
                    edges=G.num_edges,
                    directed=G.is_directed(),
                )
                ok = True
                if row is not None:
                    for key in ("vertices", "edges"):
                        if row[key] is not None and row[key] != res[key]:
                            ok = False
                            res[f"expected_{key}"] = row[key]
                    res["status"] = "ok" if ok else "MISMATCH"
                else:
                    res["status"] = "not in README"
                failures += not ok
            except Exception as exc:  # report every file, then fail
                res.update(status=f"ERROR: {exc}")
                failures += 1
        results.append(res)
        exp = "-" if row is None else f"{row['vertices']}/{row['edges']}"
        table.append(
            (
                name,
                res.get("format", "-"),
                res.get("vertices"),
                res.get("edges"),
                "-" if "directed" not in res else ("dir" if res["directed"] else "undir"),
                exp.replace("None", "—"),
                res.get("seconds"),
                res["status"],
            )
        )
    print_table(
        f"datasets in {args.root}",
        ["file", "format", "vertices", "edges", "kind", "README n/m", "load s", "status"],
        table,
    )
    if args.json:
        with open(args.json, "w") as f:
            json.dump(results, f, indent=2)
    print(f"{len(results) - failures} of {len(results)} files ok")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
