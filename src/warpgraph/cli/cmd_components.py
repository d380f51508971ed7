"""``warpgraph components FILE``: weakly or strongly connected components from the command line.

Loads a graph, computes its components (after one warm-up run, so the time excludes kernel
compilation and JIT), and prints the number of components, the largest sizes and the time;
optionally verifies the labels, lists the largest components and saves the labels (.npy).
"""

from __future__ import annotations

import argparse
import json

from ._common import add_graph_args, load, save, timed
from .ui import console, print_table


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "components",
        help="weakly or strongly connected components: count, sizes, time",
        description="Weakly (default) or strongly (--strong) connected components. Prints the "
        "number of components, the size of the largest ones and the time of one run after a "
        "warm-up. Labels number the components 0..count-1 in order of their smallest vertex (as "
        "SciPy's connected_components does for weak components); --output saves them (.npy). "
        "--verify checks them by rules (arcs inside labels, acyclic condensation, counts).",
    )
    add_graph_args(p)
    p.add_argument("--strong", action="store_true", help="strongly connected components")
    p.add_argument(
        "--method",
        default="auto",
        help="weak: union_find, afforest, label_propagation (GPU), afforest, sv (CPU); "
        "strong: multistep, fb, coloring, tarjan (CPU); default auto",
    )
    p.add_argument(
        "--config",
        help="method options as JSON, e.g. '{\"samples\": 0}' (weak) or "
        "'{\"trim_iterations\": 2}' (strong)",
    )
    p.add_argument(
        "--sizes",
        type=int,
        nargs="?",
        const=10,
        metavar="K",
        help="list the K largest components (default 10)",
    )
    p.add_argument("--verify", action="store_true", help="check the labels by rules")
    p.add_argument("--output", help="write the labels (int32, one per vertex) as .npy")
    p.add_argument("--json", action="store_true", help="print the results as JSON")
    p.set_defaults(func=run)


def _config(text: str | None, strong: bool):
    from warpgraph.errors import InvalidArgumentError

    if not text:
        return None
    try:
        cfg = json.loads(text)
    except json.JSONDecodeError as exc:
        raise InvalidArgumentError(f"--config is not valid JSON: {exc}") from exc
    if not isinstance(cfg, dict):
        raise InvalidArgumentError("--config must be a JSON object")
    if strong:
        from warpgraph.algorithms.components.scc_config import SCCConfig

        return SCCConfig(**cfg)
    return cfg


def run(args: argparse.Namespace) -> int:
    import numpy as np

    from warpgraph._arrays import to_host
    from warpgraph.algorithms.components import (
        component_sizes,
        connected_components,
        verify_components,
    )

    connection = "strong" if args.strong else "weak"
    config = _config(args.config, args.strong)
    G, dev = load(args, undirected=False)

    def compute():
        return connected_components(
            G, connection=connection, method=args.method, device=dev, config=config
        )

    compute()  # warm-up: kernel compilation, JIT, the reverse CSR of a directed graph
    (count, labels), seconds = timed(f"{connection} components", compute, dev)
    lab = to_host(labels)
    if args.verify:
        verify_components(G, lab, connection)
    save(args.output, lab)
    sizes = to_host(component_sizes(lab)) if count else np.zeros(0, dtype=np.int64)
    order = np.lexsort((np.arange(sizes.size), -sizes))  # largest first, ties by label
    k = 3 if args.sizes is None else max(int(args.sizes), 0)
    top = [(int(c), int(sizes[c])) for c in order[:k]]
    summary = {
        "graph": args.file,
        "device": dev,
        "connection": connection,
        "method": args.method,
        "vertices": G.num_vertices,
        "edges": G.num_edges,
        "directed": G.directed,
        "components": int(count),
        "largest": int(sizes.max()) if sizes.size else 0,
        "singletons": int((sizes == 1).sum()),
        "ms": seconds * 1e3,
        "verified": bool(args.verify),
        "top": [{"component": c, "size": s} for c, s in top],
    }
    if args.json:
        console.print_json(json.dumps(summary))
        return 0
    title = f"{connection} components on {dev}: {args.file}"
    rows = [(key, summary[key]) for key in summary if key not in ("top", "graph", "largest")]
    rows.insert(8, ("largest sizes", ", ".join(f"{s:,}" for _, s in top[:3]) or "-"))
    print_table(title, ["", "value"], rows)
    if args.sizes is not None and top:
        n = max(G.num_vertices, 1)
        print_table(
            f"{len(top)} largest components",
            ["component", "vertices", "% of vertices"],
            [(c, s, 100.0 * s / n) for c, s in top],
        )
    return 0
