"""``warpgraph convert IN OUT``: convert a graph file between formats (and compressions).

Examples
--------
``warpgraph convert road-NY.pace.gr.xz road-NY.wgb`` (then ``wg.load("road-NY.wgb",
mmap=True)`` reloads it with no parsing); ``warpgraph convert web.txt.gz web.mtx
--undirected --merge first``; ``warpgraph convert g.el g.g500 -w packed=true``;
``warpgraph convert snap.txt snap.wgb --compact-ids --ids-out snap_ids.npy`` (sparse ids
numbered ``0..k-1``; ``np.load("snap_ids.npy")[v]`` is vertex ``v``'s id in the file).
"""

from __future__ import annotations

import argparse
import os
import time
from typing import Any

FORMAT_HELP = "mtx, edgelist, dimacs, metis, konect, edges, pajek, graph500, graphtool, lgraph, wgb"


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "convert",
        help="convert a graph file to another format",
        description="Read IN (any supported format, compressed or not) and write OUT; the "
        "output format and compression follow OUT's name (e.g. g.mtx.gz, g.wgb, g.gr.zst) "
        f"unless --format-out says. Formats: {FORMAT_HELP}. A progress bar shows while large "
        "compressed inputs are inflated. Writes are atomic.",
    )
    p.add_argument("input", metavar="IN", help="graph file to read")
    p.add_argument("output", metavar="OUT", help="file to write")
    p.add_argument("--format-in", help="input format (default: from the name, else the content)")
    p.add_argument("--format-out", help="output format (default: from OUT's extension)")
    d = p.add_mutually_exclusive_group()
    d.add_argument(
        "--directed", dest="directed", action="store_const", const=True, default=None,
        help="make the graph directed (an undirected input gets both arcs of every edge)",
    )  # fmt: skip
    d.add_argument(
        "--undirected", dest="directed", action="store_const", const=False,
        help="make the graph undirected (every arc becomes an edge; see --merge)",
    )  # fmt: skip
    w = p.add_mutually_exclusive_group()
    w.add_argument("--unweighted", dest="weighted", action="store_const", const=False,
                   default=None, help="drop the edge weights")  # fmt: skip
    w.add_argument("--weighted", dest="weighted", action="store_const", const=True,
                   help="require edge weights in the input")  # fmt: skip
    p.add_argument(
        "--merge", choices=["first", "last", "min", "max", "sum"],
        help="merge parallel edges into one, keeping this weight (default: keep them all)",
    )  # fmt: skip
    p.add_argument("--remove-self-loops", action="store_true", help="drop self-loops")
    p.add_argument("--num-vertices", type=int, help="vertex count (formats that do not store it)")
    p.add_argument(
        "--compact-ids", action="store_true",
        help="number the vertices found in the edges 0..k-1 in increasing id order (files with "
        "sparse ids: hashes, labels); vertices in no edge are dropped. The output holds the "
        "new numbers; --ids-out keeps the file's ids (a Pajek output writes them as labels)",
    )  # fmt: skip
    p.add_argument(
        "--ids-out", metavar="NPY",
        help="with --compact-ids: save the file's id of every vertex, in vertex order (.npy)",
    )  # fmt: skip
    p.add_argument(
        "-r", "--read-option", action="append", default=[], metavar="KEY=VALUE",
        help="format-specific reader option, e.g. base=1, counts_line=false, scale=20",
    )  # fmt: skip
    p.add_argument(
        "-w", "--write-option", action="append", default=[], metavar="KEY=VALUE",
        help="format-specific writer option, e.g. packed=true (Graph500), variant=sp (DIMACS)",
    )  # fmt: skip
    p.add_argument("-q", "--quiet", action="store_true", help="no progress bar and no summary")
    p.set_defaults(func=run)


def parse_options(items: list[str]) -> dict[str, Any]:
    """``["base=1", "packed=true", "weight=value"]`` -> ``{"base": 1, "packed": True, ...}``.

    Examples
    --------
    >>> parse_options(["base=1", "packed=true", "weight=value", "x=none", "f=0.5"])
    {'base': 1, 'packed': True, 'weight': 'value', 'x': None, 'f': 0.5}
    """
    from ..errors import InvalidArgumentError

    out: dict[str, Any] = {}
    for item in items:
        if "=" not in item:
            raise InvalidArgumentError(f"option {item!r} must look like KEY=VALUE")
        key, raw = item.split("=", 1)
        low = raw.strip().lower()
        value: Any
        if low in ("true", "yes", "on"):
            value = True
        elif low in ("false", "no", "off"):
            value = False
        elif low in ("none", "null"):
            value = None
        else:
            try:
                value = int(raw)
            except ValueError:
                try:
                    value = float(raw)
                except ValueError:
                    value = raw
        out[key.strip().replace("-", "_")] = value
    return out


def run(args: argparse.Namespace) -> int:
    import warpgraph as wg

    from ..errors import InvalidArgumentError
    from .ui import console, load_with_progress, print_table

    if args.ids_out and not args.compact_ids:
        raise InvalidArgumentError("--ids-out saves the ids --compact-ids replaces: add it")
    read_opts = parse_options(args.read_option)
    write_opts = parse_options(args.write_option)
    size_in = os.path.getsize(args.input) if os.path.exists(args.input) else None
    t0 = time.perf_counter()
    G = load_with_progress(
        args.input,
        enabled=not args.quiet,
        format=args.format_in,
        directed=args.directed,
        weighted=args.weighted,
        merge=args.merge,
        remove_self_loops=args.remove_self_loops,
        num_vertices=args.num_vertices,
        device="cpu",
        compact_ids=args.compact_ids,
        **read_opts,
    )
    t_read = time.perf_counter() - t0
    if args.ids_out:
        _save_ids(args.ids_out, G.vertex_labels)
    t0 = time.perf_counter()
    if args.quiet:
        wg.save(G, args.output, format=args.format_out, **write_opts)
    else:
        with console.status(f"writing {os.path.basename(args.output)}"):
            wg.save(G, args.output, format=args.format_out, **write_opts)
    t_write = time.perf_counter() - t0
    if not args.quiet:
        kind = "directed" if G.is_directed() else "undirected"
        weights = "none" if G.weights is None else str(G.weights.dtype)
        console.print(f"{args.input} -> {args.output}")
        print_table(
            "",
            ["", "value"],
            [
                ("vertices", G.num_vertices),
                ("edges", G.num_edges),
                ("kind", kind),
                ("weights", weights),
                *([("ids saved to", args.ids_out)] if args.ids_out else []),
                ("input bytes", size_in),
                ("output bytes", os.path.getsize(args.output)),
                ("read seconds", t_read),
                ("write seconds", t_write),
            ],
        )
    return 0


def _save_ids(path: str, ids: Any) -> None:
    """The file's ids of the compacted vertices as a ``.npy`` array (int64; the names as
    strings for a Pajek file read with names), written atomically."""
    import numpy as np

    from warpgraph.io._source import atomic_output

    with atomic_output(path, compression=None) as fh:
        np.save(fh, np.asarray(ids))
