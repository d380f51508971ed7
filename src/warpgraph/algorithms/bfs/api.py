"""Breadth-first search: ``warpgraph.bfs`` and ``warpgraph.bfs_explain``.

Examples
--------
>>> import warpgraph as wg
>>> G = wg.Graph.from_edges([0, 1, 2, 4], [1, 2, 3, 5], directed=False)
>>> bfs(G, 0, device="cpu").tolist()
[0, 1, 2, 3, -1, -1]
"""

from __future__ import annotations

import weakref
from collections import OrderedDict
from typing import Any

import numpy as np

from ...device import resolve_device
from ...errors import InvalidArgumentError
from ...graph import Graph
from .config import BfsConfig, Explanation, choose_config

__all__ = ["bfs", "bfs_explain", "clear_plans"]

DIRECTIONS = ("auto", "top-down", "bottom-up")
_PLANS: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()
_PLANS_PER_GRAPH = 4


def _check_graph(G: Any) -> Graph:
    if not isinstance(G, Graph):
        raise InvalidArgumentError(f"G must be a warpgraph.Graph, got {type(G).__name__}")
    return G


def _check_sources(source: Any, n: int) -> tuple[np.ndarray, bool]:
    from ..._arrays import to_host

    if isinstance(source, bool | np.bool_):
        raise InvalidArgumentError(f"source must be a vertex id, got {source!r}")
    arr = np.asarray(to_host(source))
    batch = arr.ndim == 1
    if arr.ndim > 1:
        raise InvalidArgumentError(
            f"source must be an int or a 1-D array of ints, got shape {arr.shape}"
        )
    if arr.dtype.kind not in "iu":
        if arr.dtype.kind == "f" and arr.size and np.all(arr == np.floor(arr)):
            arr = arr.astype(np.int64)
        else:
            raise InvalidArgumentError(
                f"source must be integer vertex ids, got {arr.dtype} {source!r}"
            )
    arr = arr.astype(np.int64).reshape(-1)
    if n == 0:
        raise InvalidArgumentError("the graph has no vertex, so there is no source to start from")
    bad = (arr < 0) | (arr >= n)
    if bad.any():
        v = int(arr[np.flatnonzero(bad)[0]])
        raise InvalidArgumentError(
            f"source {v} is not a vertex (the graph has vertices 0..{n - 1})"
        )
    return arr, batch


def clear_plans() -> None:
    """Free the cached GPU BFS plans (queues and buffers kept per graph and configuration)."""
    _PLANS.clear()


def _gpu_plan(G: Graph, cfg: BfsConfig, direction: str):
    from .gpu import GpuBfsPlan

    key = (direction, tuple(sorted(cfg.as_dict().items(), key=lambda kv: kv[0])))
    plans = _PLANS.setdefault(G, OrderedDict())
    plan = plans.get(key)
    if plan is None:
        plan = GpuBfsPlan(
            G,
            cfg.engine,
            direction=direction,
            rule=cfg.rule,
            alpha=cfg.alpha,
            beta=cfg.beta,
            gamma=cfg.gamma,
            hub_threshold_=cfg.hub_threshold,
            hub_cache=bool(cfg.hub_cache),
            switch_back=bool(cfg.switch_back),
            extreme_degree=cfg.extreme_degree,
        )
        plans[key] = plan
        while len(plans) > _PLANS_PER_GRAPH:
            plans.popitem(last=False)
    else:
        plans.move_to_end(key)
    return plan


def bfs(
    G: Graph,
    source: Any,
    *,
    parents: bool = False,
    direction: str = "auto",
    config: Any = None,
    device: str = "auto",
):
    """Breadth-first search levels (and optionally a BFS tree) from one or many sources.

    Parameters
    ----------
    G : Graph
        Directed graphs are traversed along arcs (bottom-up steps use the in-arcs).
    source : int or array_like of int
        Start vertex, or a batch of start vertices (one independent BFS each).
    parents : bool
        Also return a BFS tree: ``parents[v]`` is the vertex ``v`` was reached from,
        ``parents[source] == source``, -1 for unreachable vertices. Any valid tree may come back
        (several parents are often possible); it passes Graph500's checks
        (:func:`warpgraph.algorithms.bfs.verify_bfs`).
    direction : {"auto", "top-down", "bottom-up"}
        ``"auto"`` is direction-optimizing (Beamer; Enterprise's rule with
        ``config={"rule": "enterprise"}``); the others force one direction at every level.
    config : dict, BfsConfig or TraversalOptions, optional
        Engine strategy (load balancing, frontier, update, dedup, status, sync) and switching
        parameters; unset fields are chosen from the graph (see :func:`bfs_explain`).
    device : {"auto", "cpu", "gpu"}
        Where to run; the graph is copied there if it lives elsewhere (move it once with
        ``G.to(...)`` when running many searches).

    Returns
    -------
    levels : ndarray of int32
        Hop distance from the source (-1 when unreachable); shape ``(n,)``, or ``(k, n)`` for
        ``k`` sources. A NumPy array after a CPU run, a CuPy array after a GPU run.
    parents : ndarray
        Only with ``parents=True``: same shape, the graph's id dtype.

    Raises
    ------
    InvalidArgumentError
        Not a Graph, a source that is not a vertex, an unknown direction or config value.
    DeviceUnavailableError
        ``device="gpu"`` without a usable GPU.

    See Also
    --------
    bfs_explain : the configuration chosen for a graph, and why.
    scipy.sparse.csgraph.breadth_first_order, networkx.single_source_shortest_path_length

    Notes
    -----
    The CPU engine (Numba, all threads) is GAPBS-style direction-optimizing BFS with per-thread
    queues and bitmaps. The GPU engine runs the frontier operators of ``warpgraph.gpu.frontier``
    (BFS-4K, Helix and Enterprise strategies), by default in one persistent cooperative kernel
    per search.

    Examples
    --------
    >>> import warpgraph as wg
    >>> from warpgraph.algorithms.bfs import bfs  # also exported as wg.bfs
    >>> G = wg.Graph.from_edges([0, 0, 1, 3], [1, 2, 3, 4], directed=False)
    >>> levels, tree = bfs(G, 0, parents=True, device="cpu")
    >>> levels.tolist(), tree.tolist()
    ([0, 1, 1, 2, 3], [0, 0, 0, 1, 3])
    >>> bfs(G, [0, 4], device="cpu").tolist()
    [[0, 1, 1, 2, 3], [3, 2, 4, 1, 0]]
    """
    G = _check_graph(G)
    if direction not in DIRECTIONS:
        raise InvalidArgumentError(
            f"direction must be one of {', '.join(DIRECTIONS)}, got {direction!r}"
        )
    if not isinstance(parents, bool | np.bool_):
        raise InvalidArgumentError(f"parents must be True or False, got {parents!r}")
    sources, batch = _check_sources(source, G.num_vertices)
    dev = resolve_device(device)
    Gd = G.to(dev)
    cfg, _, _ = choose_config(Gd, config, dev)
    n, k = Gd.num_vertices, sources.shape[0]
    if dev == "cpu":
        from ...cpu.threads import threads_for
        from .cpu import bfs_cpu

        rindptr, rindices, _ = Gd.reverse_csr()
        levels = np.empty((k, n), dtype=np.int32)
        tree = np.empty((k, n), dtype=Gd.indices.dtype) if parents else None
        # (a region or two per level: fewer threads on a busy machine; cpu/threads.py)
        with threads_for(n + Gd.num_arcs):
            for i, s in enumerate(sources):
                bfs_cpu(
                    Gd.indptr, Gd.indices, rindptr, rindices, int(s),
                    want_parents=bool(parents), direction=direction, rule=cfg.rule,
                    alpha=cfg.alpha, beta=cfg.beta, gamma=cfg.gamma,
                    hub_threshold=_cpu_hub_threshold(Gd, cfg),
                    levels=levels[i], parents=None if tree is None else tree[i],
                )  # fmt: skip
    else:
        from ...device import cupy

        cp = cupy()
        from ...device import check_device_memory

        plan = _gpu_plan(Gd, cfg, direction)
        out_bytes = k * n * (4 + (Gd.indices.dtype.itemsize if parents else 0))
        check_device_memory(out_bytes, what=f"BFS results ({k} x {n} levels)")
        levels = cp.empty((k, n), dtype=np.int32)
        tree = cp.empty((k, n), dtype=Gd.indices.dtype) if parents else None
        for i, s in enumerate(sources):
            plan.run(int(s), levels[i], None if tree is None else tree[i])
    if not batch:
        levels = levels[0]
        tree = None if tree is None else tree[0]
    return (levels, tree) if parents else levels


def _cpu_hub_threshold(G: Graph, cfg: BfsConfig) -> int:
    if cfg.hub_threshold is not None:
        return int(cfg.hub_threshold)
    if cfg.rule != "enterprise":
        return 0
    from .gpu import hub_threshold

    return hub_threshold(G.out_degree())


def bfs_explain(G: Graph, config: Any = None, device: str = "auto") -> Explanation:
    """The BFS configuration chosen for ``G`` on ``device``, the statistics it is based on, and
    the reason for each choice.

    Parameters
    ----------
    G : Graph
    config : dict, BfsConfig or TraversalOptions, optional
        Fields already fixed by the caller (reported as "given").
    device : {"auto", "cpu", "gpu"}

    Returns
    -------
    Explanation
        ``str()`` prints one line per setting; ``.as_dict()`` is JSON-ready.

    Examples
    --------
    >>> import warpgraph as wg
    >>> from warpgraph.algorithms.bfs import bfs_explain  # also exported as wg.bfs_explain
    >>> G = wg.Graph.from_edges([0, 1], [1, 2], directed=False)
    >>> e = bfs_explain(G, device="cpu")
    >>> e.config.rule, e.features["max_degree"]
    ('beamer', 2)
    """
    G = _check_graph(G)
    dev = resolve_device(device)
    Gd = G.to(dev)
    cfg, feats, reasons = choose_config(Gd, config, dev)
    return Explanation(dev, cfg, feats, reasons)
