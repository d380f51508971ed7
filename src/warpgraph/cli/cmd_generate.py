"""``warpgraph generate KIND [params] -o OUT``: make a synthetic graph and write it to a file.

Every generator of :mod:`warpgraph.generators` is available; the output format follows the file
name (or ``--format``), as in :func:`warpgraph.save`.
"""

from __future__ import annotations

import argparse
import time
from dataclasses import dataclass
from typing import Any

from ..errors import InvalidArgumentError
from .ui import console


@dataclass(frozen=True)
class _Kind:
    help: str
    params: tuple[str, ...]  # option destinations this kind accepts
    required: tuple[str, ...] = ()


KINDS = {
    "kronecker": _Kind(
        "Graph500 Kronecker (A,B,C = 0.57,0.19,0.19), 2**scale vertices",
        ("scale", "edgefactor", "directed", "multigraph", "shuffle"),
        ("scale",),
    ),
    "rmat": _Kind(
        "R-MAT with chosen quadrant probabilities",
        ("scale", "edgefactor", "abcd", "permute", "directed", "multigraph"),
        ("scale",),
    ),
    "uniform": _Kind(
        "GAP urand: independent uniform endpoints (n or 2**scale vertices)",
        ("n", "scale", "m", "edgefactor", "directed", "multigraph"),
    ),
    "erdos-renyi": _Kind("G(n, p)", ("n", "p", "directed"), ("n", "p")),
    "grid2d": _Kind("rows x cols grid", ("rows", "cols"), ("rows", "cols")),
    "grid3d": _Kind("x * y * z lattice", ("shape",), ("shape",)),
    "road": _Kind(
        "road-like: connected planar grid subgraph with integer lengths",
        ("n", "rows", "cols", "avg_degree"),
    ),
    "rgg": _Kind(
        "random geometric graph in the unit square/cube (DIMACS rgg radius by default)",
        ("n", "radius", "avg_degree", "dim"),
        ("n",),
    ),
}
_ALIASES = {"kron": "kronecker", "gnp": "erdos-renyi", "urand": "uniform", "geometric": "rgg"}
# option destinations that are generator parameters (the rest: output, seed, device, ...)
_PARAMS = (
    "scale", "edgefactor", "n", "m", "p", "abcd", "rows", "cols", "shape", "radius",
    "avg_degree", "dim", "directed", "multigraph", "shuffle", "permute",
)  # fmt: skip
_DEFAULT_WEIGHTS = {"road": "distance"}


def register(sub: argparse._SubParsersAction) -> None:
    kinds = "\n".join(f"  {k:<12} {v.help}" for k, v in KINDS.items())
    p = sub.add_parser(
        "generate",
        help="generate a synthetic graph (Kronecker, R-MAT, uniform, grid, road, rgg) to a file",
        description="Generate a synthetic graph and write it (format from the file name, "
        "compression from .gz/.bz2/.xz/.zst).\n\nKINDS:\n" + kinds + "\n\nExamples:\n"
        "  warpgraph generate kronecker --scale 20 -o kron20.mtx --seed 1\n"
        "  warpgraph generate kronecker --scale 16 --multigraph -o k16.g500\n"
        "  warpgraph generate road -n 1000000 -o road.gr --seed 7\n"
        "  warpgraph generate rgg -n 65536 --weights distance -o rgg16.mtx",
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    p.add_argument("kind", help="what to generate: " + ", ".join(KINDS))
    p.add_argument("-o", "--output", required=True, help="output file")
    p.add_argument("--format", help="output format when the file name does not tell it")
    p.add_argument("--seed", type=int, default=None, help="random seed (default: fresh entropy)")
    p.add_argument(
        "--weights",
        choices=["none", "gap", "graph500", "distance"],
        default=None,
        help="edge weights: GAP ints in [1,255], Graph500 floats in [0,1), or lengths "
        "(road, rgg); default none (road: distance)",
    )
    p.add_argument("--device", default="auto", choices=["auto", "cpu", "gpu"])
    g = p.add_argument_group("generator parameters (each kind takes some of them)")
    g.add_argument("--scale", type=int, help="log2 of the vertex count (kronecker, rmat, uniform)")
    g.add_argument("--edgefactor", type=int, help="edges per vertex (default 16)")
    g.add_argument("-n", "--vertices", dest="n", type=int, help="number of vertices")
    g.add_argument("-m", "--edges", dest="m", type=int, help="number of edges (uniform)")
    g.add_argument("-p", type=float, help="edge probability (erdos-renyi)")
    g.add_argument("--abcd", type=float, nargs=4, metavar=("A", "B", "C", "D"), help="R-MAT")
    g.add_argument("--rows", type=int)
    g.add_argument("--cols", type=int)
    g.add_argument("--shape", type=int, nargs=3, metavar=("X", "Y", "Z"), help="grid3d size")
    g.add_argument("--radius", type=float, help="connection radius (rgg)")
    g.add_argument("--avg-degree", type=float, help="target average degree (rgg, road)")
    g.add_argument("--dim", type=int, help="dimension 1-3 (rgg, default 2)")
    g.add_argument("--directed", action="store_true", help="directed graph (default undirected)")
    g.add_argument(
        "--multigraph",
        action="store_true",
        help="keep self-loops and repeated edges (default: drop/merge them, as GAP does)",
    )
    g.add_argument("--shuffle", action="store_true", help="shuffle the edge list (kronecker)")
    g.add_argument("--permute", action="store_true", help="permute vertex labels (rmat)")
    p.set_defaults(func=run)


def _kind(name: str) -> str:
    key = _ALIASES.get(name.lower(), name.lower())
    if key not in KINDS:
        raise InvalidArgumentError(
            f"unknown kind {name!r}; choose one of {', '.join(KINDS)} (aliases: "
            + ", ".join(f"{a}={k}" for a, k in _ALIASES.items())
            + ")"
        )
    return key


def _given(args: argparse.Namespace) -> dict[str, Any]:
    out = {}
    for name in _PARAMS:
        value = getattr(args, name, None)
        if value is not None and value is not False:
            out[name] = value
    return out


def _option(name: str) -> str:
    return {"n": "-n", "m": "-m", "p": "-p"}.get(name, "--" + name.replace("_", "-"))


def build(args: argparse.Namespace):
    """The Graph the arguments describe (checks which parameters apply to the kind)."""
    from .. import generators as gen

    kind = _kind(args.kind)
    spec = KINDS[kind]
    given = _given(args)
    extra = [k for k in given if k not in spec.params]
    if extra:
        raise InvalidArgumentError(
            f"{', '.join(_option(k) for k in extra)} does not apply to {kind}; it takes "
            + (", ".join(_option(k) for k in spec.params) or "no parameters")
        )
    missing = [k for k in spec.required if k not in given]
    if missing:
        raise InvalidArgumentError(f"{kind} needs {', '.join(_option(k) for k in missing)}")
    weights = args.weights or _DEFAULT_WEIGHTS.get(kind)
    weights = None if weights == "none" else weights
    common = {"seed": args.seed, "device": args.device}
    simple = not given.get("multigraph", False)
    directed = given.get("directed", False)
    ef = given.get("edgefactor", 16)
    if kind == "kronecker":
        return gen.kronecker(
            given["scale"], ef, directed=directed, weights=weights, simple=simple, **common
        )
    if kind == "rmat":
        a, b, c, d = given.get("abcd", gen.GRAPH500_INITIATOR)
        return gen.rmat(
            given["scale"], ef, a, b, c, d, directed=directed, weights=weights,
            permute=given.get("permute", False), simple=simple, **common,
        )  # fmt: skip
    if kind == "uniform":
        if ("n" in given) == ("scale" in given):
            raise InvalidArgumentError("uniform needs exactly one of -n and --scale")
        n = given["n"] if "n" in given else 1 << given["scale"]
        return gen.uniform(
            n, given.get("m"), directed=directed, edgefactor=given.get("edgefactor"),
            weights=weights, simple=simple, **common,
        )  # fmt: skip
    if kind == "erdos-renyi":
        return gen.erdos_renyi(given["n"], given["p"], directed=directed, weights=weights, **common)
    if kind == "grid2d":
        return gen.grid_2d(given["rows"], given["cols"], weights=weights, **common)
    if kind == "grid3d":
        return gen.grid_3d(*given["shape"], weights=weights, **common)
    if kind == "road":
        return gen.road_like(
            given.get("n"), rows=given.get("rows"), cols=given.get("cols"),
            avg_degree=given.get("avg_degree"), weights=weights, **common,
        )  # fmt: skip
    return gen.random_geometric(
        given["n"], given.get("radius"), avg_degree=given.get("avg_degree"),
        dim=given.get("dim", 2), weights=weights, **common,
    )  # fmt: skip


def run(args: argparse.Namespace) -> int:
    from .. import io

    t0 = time.perf_counter()
    G = build(args)
    t_gen = time.perf_counter() - t0
    t0 = time.perf_counter()
    io.save(G, args.output, format=args.format)
    t_save = time.perf_counter() - t0
    weights = "unweighted" if G.weights is None else f"weights {G.weights.dtype}"
    console.print(
        f"{_kind(args.kind)}: {G.num_vertices:,} vertices, {G.num_edges:,} edges "
        f"({'directed' if G.is_directed() else 'undirected'}, {weights}) generated on "
        f"{G.device} in {t_gen:.2f} s; wrote {args.output} in {t_save:.2f} s"
    )
    return 0
