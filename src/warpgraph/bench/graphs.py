"""Benchmark inputs: graph specifications (files or generators), sources, weights, work counts.

A graph is named on the command line either by a file path (any format ``warpgraph.load``
reads) or by a generator spec ``NAME[:ARGS]``: ``ARGS`` is a comma-separated list of positional
values and ``key=value`` pairs, and ``AxB`` stands for two positional integers. A single integer
after ``kronecker``, ``rmat``, ``urand`` or ``uniform`` is the scale::

    kronecker:scale=20            kronecker:20,edgefactor=8,seed=3
    grid:1000x1000                urand:scale=18,seed=1

The generator is ``warpgraph.generators.NAME`` called with those arguments.

Work counts follow Graph500 and GAP: a traversal from ``s`` is credited with the edges of the part
of the graph it reaches, an undirected edge once (``edges``), and the arcs leaving reached
vertices are recorded beside it (``arcs``, the directed count).

Examples
--------
>>> spec = parse_graph_spec("grid:30x40,seed=2")
>>> spec.kind, spec.args, spec.kwargs
('grid', (30, 40), {'seed': 2})
>>> parse_graph_spec("kronecker:12").kwargs
{'scale': 12}
"""

from __future__ import annotations

import math
import os
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from ..errors import InvalidArgumentError
from ..graph import Graph

__all__ = [
    "GraphInfo",
    "GraphSpec",
    "add_weights",
    "load_graph",
    "parse_graph_spec",
    "pick_sources",
]

_SCALE_FIRST = ("kronecker", "rmat", "urand", "uniform", "graph500")

#: Short names accepted in specs for ``warpgraph.generators`` functions.
ALIASES = {
    "grid": "grid_2d",
    "grid2d": "grid_2d",
    "grid3d": "grid_3d",
    "urand": "uniform",
    "road": "road_like",
    "rgg": "random_geometric",
    "er": "erdos_renyi",
    "graph500": "kronecker",
}


@dataclass(frozen=True)
class GraphSpec:
    """A parsed graph name: a file (``kind == "file"``) or a generator call."""

    text: str
    kind: str
    args: tuple = ()
    kwargs: dict = field(default_factory=dict)

    @property
    def path(self) -> str | None:
        return self.text if self.kind == "file" else None

    @property
    def label(self) -> str:
        """Short name for tables: the file's base name, or the spec text."""
        return os.path.basename(self.text) if self.kind == "file" else self.text


def _value(text: str) -> Any:
    low = text.lower()
    if low in ("true", "false"):
        return low == "true"
    if low in ("none", "null"):
        return None
    for cast in (int, float):
        try:
            return cast(text)
        except ValueError:
            pass
    return text


def parse_graph_spec(text: str) -> GraphSpec:
    """Parse a file path or a generator spec ``NAME[:ARGS]`` (see the module docstring).

    Raises
    ------
    InvalidArgumentError
        For an empty text, or a malformed ``key=value`` item.

    Examples
    --------
    >>> parse_graph_spec("kronecker:scale=10,edgefactor=4").kwargs
    {'scale': 10, 'edgefactor': 4}
    """
    if not isinstance(text, str) or not text.strip():
        raise InvalidArgumentError("a graph must be a file path or a generator spec NAME[:ARGS]")
    text = text.strip()
    if os.path.exists(text):
        return GraphSpec(text, "file")
    name, _, rest = text.partition(":")
    if not name.isidentifier():
        raise InvalidArgumentError(
            f"{text!r} is neither an existing file nor a generator spec such as "
            "'kronecker:scale=20' or 'grid:1000x1000'"
        )
    args: list[Any] = []
    kwargs: dict[str, Any] = {}
    for item in filter(None, (p.strip() for p in rest.split(","))):
        if "=" in item:
            key, _, val = item.partition("=")
            if not key.strip().isidentifier():
                raise InvalidArgumentError(f"bad generator argument {item!r} in {text!r}")
            kwargs[key.strip()] = _value(val.strip())
        elif "x" in item and all(p.isdigit() for p in item.split("x")):
            args.extend(int(p) for p in item.split("x"))
        else:
            args.append(_value(item))
    if name in _SCALE_FIRST and len(args) == 1 and isinstance(args[0], int):
        kwargs = {"scale": args.pop(), **kwargs}
    return GraphSpec(text, name, tuple(args), kwargs)


def load_graph(spec: GraphSpec | str, *, directed: bool | None = None, seed: int = 0) -> Graph:
    """Build (generator) or read (file) the graph of ``spec``, returned on the CPU.

    Parameters
    ----------
    spec : GraphSpec or str
    directed : bool, optional
        For files: read as directed or undirected (default: the format's own convention).
    seed : int
        Seed given to generators whose spec names none (so runs are reproducible).

    Raises
    ------
    InvalidArgumentError
        For a generator that ``warpgraph.generators`` does not have.
    """
    if isinstance(spec, str):
        spec = parse_graph_spec(spec)
    if spec.kind == "file":
        import warpgraph as wg

        kwargs = {} if directed is None else {"directed": directed}
        return wg.load(spec.text, **kwargs)
    import importlib

    generators = importlib.import_module("warpgraph.generators")
    fn = getattr(generators, ALIASES.get(spec.kind, spec.kind), None)
    if not callable(fn):
        known = sorted(
            n for n in dir(generators) if not n.startswith("_") and callable(getattr(generators, n))
        )
        raise InvalidArgumentError(
            f"unknown generator {spec.kind!r} in {spec.text!r}; warpgraph.generators has: "
            + (", ".join(known) or "nothing yet")
        )
    import inspect

    kwargs = dict(spec.kwargs)
    params = inspect.signature(fn).parameters
    if "seed" not in kwargs and "seed" in params:
        kwargs["seed"] = seed
    if "scale" in kwargs and "scale" not in params and "n" in params:
        kwargs["n"] = 1 << int(kwargs.pop("scale"))  # urand:scale=20 means n = 2**20
    G = fn(*spec.args, **kwargs)
    if not isinstance(G, Graph):
        raise InvalidArgumentError(f"generator {spec.kind!r} did not return a Graph")
    return G.to("cpu")


def _arc_rows(G: Graph) -> np.ndarray:
    n = G.num_vertices
    return np.repeat(np.arange(n, dtype=G.indices.dtype), np.diff(G.indptr))


def pick_sources(G: Graph, count: int = 64, seed: int = 0) -> np.ndarray:
    """``count`` distinct random vertices with at least one arc to another vertex.

    As Graph500 and GAP do: self-loops do not count, so a source always has a neighbour. Fewer
    are returned when fewer vertices qualify. The same graph and seed give the same sources.

    Parameters
    ----------
    G : Graph
    count : int
    seed : int

    Returns
    -------
    numpy.ndarray of int64

    Examples
    --------
    >>> G = Graph.from_edges([0, 1, 3], [1, 2, 3], num_vertices=5, directed=False)
    >>> sorted(pick_sources(G, 10, seed=1).tolist())    # 3 has only a self-loop, 4 nothing
    [0, 1, 2]
    """
    if count < 1:
        raise InvalidArgumentError(f"count must be >= 1, got {count}")
    G = G.to("cpu")
    rows = _arc_rows(G)
    loops = np.bincount(rows[rows == G.indices], minlength=G.num_vertices)
    candidates = np.flatnonzero(np.diff(G.indptr) - loops > 0).astype(np.int64)
    rng = np.random.default_rng(seed)
    if candidates.size <= count:
        return rng.permutation(candidates)
    return rng.choice(candidates, size=count, replace=False)


def _mix64(x: np.ndarray) -> np.ndarray:
    """SplitMix64 finalizer on uint64 arrays (wrapping arithmetic is intended)."""
    with np.errstate(over="ignore"):
        x = (x ^ (x >> np.uint64(30))) * np.uint64(0xBF58476D1CE4E5B9)
        x = (x ^ (x >> np.uint64(27))) * np.uint64(0x94D049BB133111EB)
        return x ^ (x >> np.uint64(31))


def add_weights(G: Graph, kind: str = "gap", seed: int = 0) -> Graph:
    """A copy of ``G`` with deterministic random weights (symmetric on undirected graphs).

    Parameters
    ----------
    kind : {"gap", "graph500"}
        ``"gap"``: int32 in [1, 255] as GAP's generator; ``"graph500"``: float32 in [0, 1).
    seed : int

    Examples
    --------
    >>> G = add_weights(Graph.from_edges([0, 1], [1, 2], directed=False), "gap")
    >>> W = G.to_scipy(); bool((W != W.T).nnz == 0) and int(W.min()) >= 0
    True
    """
    if kind not in ("gap", "graph500"):
        raise InvalidArgumentError(f"kind must be 'gap' or 'graph500', got {kind!r}")
    H = G.to("cpu")
    u = _arc_rows(H).astype(np.uint64)
    v = H.indices.astype(np.uint64)
    if not H.directed:
        u, v = np.minimum(u, v), np.maximum(u, v)
    with np.errstate(over="ignore"):
        salt = np.uint64(seed) * np.uint64(0xD1B54A32D192ED03)
        key = _mix64(_mix64(u * np.uint64(0x9E3779B97F4A7C15) + v + salt))
    if kind == "gap":
        w = (key % np.uint64(255)).astype(np.int32) + np.int32(1)
    else:
        w = ((key >> np.uint64(40)).astype(np.float32) * np.float32(1.0 / (1 << 24))).astype(
            np.float32
        )
    out = Graph(H.indptr, H.indices, w, directed=H.directed, validate=False)
    return out.to(G.device)


class GraphInfo:
    """Statistics and (cached) work counts of one benchmark graph.

    Parameters
    ----------
    G : Graph
    spec : GraphSpec, optional
    full_stats : bool
        Also compute the diameter estimate and weak components (two BFS plus a component pass).
    """

    def __init__(self, G: Graph, spec: GraphSpec | None = None, *, full_stats: bool = True):
        self.graph = G.to("cpu")
        self.spec = spec
        self.full_stats = full_stats
        self._stats: dict[str, Any] | None = None
        self._work: dict[int, dict[str, int]] = {}
        self._loops: np.ndarray | None = None
        self._components: tuple | None = None

    def stats(self) -> dict[str, Any]:
        """``warpgraph.stats`` of the graph plus its name, origin and scale."""
        if self._stats is None:
            from ..stats import stats

            s = stats(self.graph, diameter=self.full_stats, components=self.full_stats)
            spec = self.spec
            s["name"] = spec.label if spec else None
            s["spec"] = spec.text if spec else None
            origin = {"file": "file", "memory": "memory"}
            s["origin"] = None if spec is None else origin.get(spec.kind, "generator")
            scale = spec.kwargs.get("scale") if spec else None
            n = self.graph.num_vertices
            s["scale"] = scale if scale is not None else (round(math.log2(n), 2) if n else None)
            s["edgefactor"] = spec.kwargs.get("edgefactor") if spec else None
            self._stats = s
        return self._stats

    def graph_work(self) -> dict[str, int]:
        """Work of a whole-graph algorithm: every edge once, and every arc."""
        return {"edges": self.graph.num_edges, "arcs": self.graph.num_arcs}

    def traversal_work(self, source: int) -> dict[str, int]:
        """Edges (undirected once) and arcs inside the part of the graph reached from ``source``.

        Undirected graphs: the source's connected component, from one component labelling of
        the whole graph (so 64 sources cost one pass). Directed graphs: one sequential BFS per
        source, cached.
        """
        source = int(source)
        if source in self._work:
            return self._work[source]
        G = self.graph
        if not G.directed:
            if self._components is None:
                from scipy.sparse import csgraph

                _, labels = csgraph.connected_components(
                    G.to_scipy(dtype=np.int8), directed=True, connection="weak"
                )
                deg = np.diff(G.indptr)
                arcs = np.bincount(labels, weights=deg).astype(np.int64)
                loops = np.bincount(labels, weights=self._self_loops()).astype(np.int64)
                self._components = (labels, arcs, loops)
            labels, arcs, loops = self._components
            c = labels[source]
            work = {"edges": int((arcs[c] + loops[c]) // 2), "arcs": int(arcs[c])}
        else:
            from ..cpu.traverse import bfs_levels

            work = self.reached_work(bfs_levels(G.indptr, G.indices, source) >= 0)
        self._work[source] = work
        return work

    def _self_loops(self) -> np.ndarray:
        """Self-loops per vertex (cached)."""
        if self._loops is None:
            G = self.graph
            rows = _arc_rows(G)
            self._loops = np.bincount(rows[rows == G.indices], minlength=G.num_vertices)
        return self._loops

    def reached_work(self, reached: np.ndarray) -> dict[str, int]:
        """Work credited to a traversal that reached the vertices where ``reached`` is True."""
        G = self.graph
        deg = np.diff(G.indptr)
        arcs = int(deg[reached].sum())
        if G.directed:
            return {"edges": arcs, "arcs": arcs}
        nloops = int(self._self_loops()[reached].sum())
        return {"edges": (arcs + nloops) // 2, "arcs": arcs}
