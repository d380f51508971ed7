"""BFS configuration and the automatic choice of strategy from graph statistics.

:class:`BfsConfig` holds the direction rule (Beamer's ``alpha``/``beta``, Enterprise's hub
ratio ``gamma``) and the GPU engine's :class:`~warpgraph.gpu.frontier.TraversalOptions`. Fields
left ``None`` are chosen by :func:`choose_config` from the graph's average degree, Gini
coefficient of degrees, maximum degree and depth from a hub (Helix's Table 7.2 decision rules,
re-derived on Hopper: see docs/BFS.md and ``benchmarks/bfs.py --sweep``).

Examples
--------
>>> cfg = BfsConfig.from_any({"load_balance": "bins", "alpha": 12})
>>> cfg.engine.load_balance, cfg.alpha
('bins', 12.0)
"""

from __future__ import annotations

import dataclasses
import weakref
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from ...errors import InvalidArgumentError
from ...gpu.frontier.options import TraversalOptions
from ...graph import Graph

__all__ = ["BfsConfig", "Explanation", "choose_config", "graph_features"]

RULES = ("beamer", "enterprise")
WARP, BLOCK, EXTREME = 32, 256, 65536
BINS_MIN_DEGREE = 16 * BLOCK  # hubs from which the degree bins (grid-wide class) pay


@dataclass(frozen=True)
class BfsConfig:
    """How a BFS runs. ``None`` means "choose from the graph".

    Parameters
    ----------
    rule : {"beamer", "enterprise"}
        Top-down to bottom-up switch: Beamer's edge rule (``alpha``) or Enterprise's hub rule
        (``gamma`` percent of the hubs in the frontier).
    alpha, beta : float
        Beamer's thresholds (GAPBS defaults 15 and 18).
    gamma : float
        Enterprise's hub-ratio threshold, in percent (30 in the paper).
    switch_back : bool
        Allow bottom-up to return to top-down (Beamer); Enterprise never does.
    hub_threshold : int, optional
        Hubs have out-degree above this; default: about 1024 hubs (never below 32).
    hub_cache : bool, optional
        GPU bottom-up steps probe a shared-memory cache of the frontier's hubs (Enterprise).
    extreme_degree : int, optional
        GPU degree bins: out-degree from which a vertex is expanded by the whole grid (its
        edges dealt to the blocks in equal chunks); default: from the degree distribution (the
        smallest degree with fewer than 2048 vertices above, within [1024, 65536]).
    engine : TraversalOptions
        GPU frontier-engine strategy (load balancing, frontier, update, dedup, status, sync).
    """

    rule: str = "beamer"
    alpha: float = 15.0
    beta: float = 18.0
    gamma: float = 30.0
    switch_back: bool | None = None
    hub_threshold: int | None = None
    hub_cache: bool | None = None
    extreme_degree: int | None = None
    engine: TraversalOptions = field(default_factory=TraversalOptions)

    def __post_init__(self) -> None:
        if self.rule not in RULES:
            raise InvalidArgumentError(f"rule must be one of {', '.join(RULES)}, got {self.rule!r}")
        for name in ("alpha", "beta", "gamma"):
            value = getattr(self, name)
            if isinstance(value, bool) or not isinstance(value, int | float) or not value > 0:
                raise InvalidArgumentError(f"{name} must be a positive number, got {value!r}")
            object.__setattr__(self, name, float(value))
        h = self.hub_threshold
        if h is not None and (isinstance(h, bool) or not isinstance(h, int | np.integer) or h < 0):
            raise InvalidArgumentError(f"hub_threshold must be a non-negative int, got {h!r}")
        x = self.extreme_degree
        if x is not None and (
            isinstance(x, bool) or not isinstance(x, int | np.integer) or x < BLOCK
        ):
            raise InvalidArgumentError(f"extreme_degree must be an int >= {BLOCK}, got {x!r}")
        if not isinstance(self.engine, TraversalOptions):
            raise InvalidArgumentError(f"engine must be TraversalOptions, got {self.engine!r}")

    @classmethod
    def from_any(cls, config: Any) -> BfsConfig:
        """A BfsConfig from ``None``, a BfsConfig, a TraversalOptions or a flat dict whose keys
        are fields of either (engine fields go to ``engine``)."""
        if config is None:
            return cls()
        if isinstance(config, BfsConfig):
            return config
        if isinstance(config, TraversalOptions):
            return cls(engine=config)
        if isinstance(config, dict):
            engine_keys = set(TraversalOptions.fields())
            own_keys = {f.name for f in dataclasses.fields(cls)} - {"engine"}
            unknown = set(config) - engine_keys - own_keys - {"engine"}
            if unknown:
                known = ", ".join(sorted(engine_keys | own_keys))
                raise InvalidArgumentError(
                    f"unknown BFS config key(s) {', '.join(sorted(unknown))}; known: {known}"
                )
            engine = config.get("engine")
            if engine is None:
                engine = TraversalOptions(**{k: v for k, v in config.items() if k in engine_keys})
            elif isinstance(engine, dict):
                engine = TraversalOptions(**engine)
            return cls(engine=engine, **{k: v for k, v in config.items() if k in own_keys})
        raise InvalidArgumentError(
            "config must be None, a dict, BfsConfig or TraversalOptions, "
            f"got {type(config).__name__}"
        )

    def as_dict(self) -> dict[str, Any]:
        """Flat JSON-ready dict (engine fields inlined)."""
        out = {k: v for k, v in dataclasses.asdict(self).items() if k != "engine"}
        out.update(self.engine.as_dict())
        return out


@dataclass
class Explanation:
    """The configuration chosen for a graph, the statistics it came from and why."""

    device: str
    config: BfsConfig
    features: dict[str, Any]
    reasons: dict[str, str]

    def __str__(self) -> str:
        lines = [
            f"BFS on {self.device}: " + ", ".join(f"{k}={v}" for k, v in self.features.items())
        ]
        settings = self.config.as_dict()
        for key, why in self.reasons.items():
            lines.append(f"  {key:14s} {settings.get(key)!s:12s} {why}")
        return "\n".join(lines)

    def as_dict(self) -> dict[str, Any]:
        return {
            "device": self.device,
            "config": self.config.as_dict(),
            "features": dict(self.features),
            "reasons": dict(self.reasons),
        }


_FEATURES: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()


def graph_features(G: Graph, *, depth: bool = True) -> dict[str, Any]:
    """Statistics the rules use (cached per graph): n, arcs, average/max out-degree, Gini of the
    out-degrees, and (``depth=True``) the number of BFS levels from a vertex of maximum degree
    (an eccentricity, i.e. a lower bound of the diameter: Helix's "eccentricity" feature)."""
    from ...stats import degree_gini

    cached = _FEATURES.get(G)
    if cached is not None and ("depth" in cached or not depth):
        return dict(cached)
    n = G.num_vertices
    deg = G.out_degree()
    feats: dict[str, Any] = {
        "n": n,
        "arcs": G.num_arcs,
        "directed": G.directed,
        "avg_degree": round(G.num_arcs / n, 3) if n else 0.0,
        "max_degree": int(deg.max()) if n else 0,
        "gini": round(degree_gini(deg), 4) if n else 0.0,
    }
    if depth and n:
        hub = int(deg.argmax())
        feats["depth"] = _probe_depth(G, hub)
    _FEATURES[G] = feats
    return dict(feats)


def _probe_depth(G: Graph, source: int) -> int:
    """Levels of one BFS from ``source`` (CPU engine on a CPU graph, GPU engine on a GPU one)."""
    if G.device == "gpu":
        from .gpu import GpuBfsPlan

        cp = __import__("cupy")
        opts = TraversalOptions(sync="persistent", blocks_per_sm=1).resolved()
        plan = GpuBfsPlan(G, opts)
        levels = cp.empty(G.num_vertices, np.int32)
        plan.run(source, levels)
        return int(plan.info().levels)
    from .cpu import bfs_cpu

    rindptr, rindices, _ = G.reverse_csr()
    levels, _ = bfs_cpu(G.indptr, G.indices, rindptr, rindices, source)
    return int(levels.max()) + 1


def choose_config(G: Graph, config: Any, device: str) -> tuple[BfsConfig, dict[str, Any], dict]:
    """Fill the ``None`` fields of ``config`` for graph ``G`` on ``device``.

    Returns ``(config, features, reasons)``; ``reasons`` maps each chosen field to a sentence.
    """
    cfg = BfsConfig.from_any(config)
    reasons: dict[str, str] = {}
    e = cfg.engine
    if device == "cpu":
        feats = graph_features(G, depth=False)
        reasons["rule"] = "given" if config else "Beamer's edge rule, as GAPBS"
        return cfg, feats, reasons
    feats = graph_features(G, depth=e.blocks_per_sm is None or e.sync is None)
    avg, gini, dmax = feats["avg_degree"], feats["gini"], feats["max_degree"]
    depth = feats.get("depth", 0)
    changes: dict[str, Any] = {}

    def pick(name: str, value: Any, why: str) -> None:
        if getattr(e, name) is None:
            changes[name] = value
            reasons[name] = why
        else:
            reasons[name] = "given"

    # Helix Table 7.2, re-derived on Hopper (docs/BFS.md, benchmarks/bfs.py --sweep): node-based
    # for regular graphs; Enterprise's degree bins when hubs are big enough to serialize a block
    # (>= 16 block steps; the bins deal them to the whole grid in equal chunks; Kronecker scale
    # 22 on an H200: 0.98 ms against 1.24 ms for warp-search before the dealing); warp-level
    # search otherwise.
    if avg < 5 and gini < 0.2:
        pick("load_balance", "node4", f"avg degree {avg:.1f} < 5 and Gini {gini:.2f} < 0.2")
    elif avg > 2 * WARP and gini < 0.3:
        pick("load_balance", "node32", f"avg degree {avg:.1f} > 64 and Gini {gini:.2f} < 0.3")
    elif avg > WARP and gini < 0.3:
        pick("load_balance", "node16", f"avg degree {avg:.1f} > 32 and Gini {gini:.2f} < 0.3")
    elif dmax >= BINS_MIN_DEGREE and e.update != "local":  # bins cannot use per-thread queues
        why = f"max degree {dmax} >= {BINS_MIN_DEGREE}: hubs dealt to the whole grid"
        pick("load_balance", "bins", why)
    else:
        pick("load_balance", "warp-search", f"irregular degrees (avg {avg:.1f}, Gini {gini:.2f})")
    lb = changes.get("load_balance", e.load_balance)
    if dmax > BLOCK:
        pick("gather", "block", f"max degree {dmax} > block size {BLOCK}")
    elif dmax > WARP:
        pick("gather", "warp", f"max degree {dmax} > warp size")
    else:
        pick("gather", "none", f"max degree {dmax} <= warp size")
    pick("frontier", "vertex", "vertex queue: fewest global accesses (Helix)")
    if lb == "bins":
        pick("update", "ballot", "the degree bins are written by warp ballots")
    else:
        pick("update", "local", "per-thread queues: fewest atomics (measured on Hopper)")
    pick("dedup", "cas", "atomicCAS claims: exact queues, one parent per vertex")
    pick("status", "array", "int32 status array (levels)")
    level_only = lb == "merge-path" or e.frontier == "edge"
    if level_only:
        pick("sync", "level", "the strategy needs a host step between levels")
    else:
        pick("sync", "persistent", f"one cooperative launch per BFS ({depth} levels from a hub)")
    if depth > 64:
        pick("blocks_per_sm", 1, f"{depth} levels: small frontiers, cheapest grid barrier")
    else:
        reasons.setdefault("blocks_per_sm", "all co-resident blocks (large frontiers)")
    engine = e.replace(**changes).resolved()
    own: dict[str, Any] = {}
    if cfg.switch_back is None:
        own["switch_back"] = cfg.rule == "beamer"
        reasons["switch_back"] = "Beamer returns top-down; Enterprise never does"
    if cfg.hub_cache is None:
        own["hub_cache"] = False
        reasons["hub_cache"] = (
            "off: the status array sits in Hopper's L2 (cache measured 4% slower)"
        )
    if lb == "bins":
        reasons["extreme_degree"] = (
            "given"
            if cfg.extreme_degree is not None
            else "from the degree distribution: fewer than 2048 vertices in the grid-wide bin"
        )
    reasons["rule"] = "given" if cfg.rule != "beamer" else "Beamer's edge rule (alpha, beta)"
    return dataclasses.replace(cfg, engine=engine, **own), feats, reasons
