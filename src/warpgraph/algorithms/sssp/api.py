"""Single-source shortest paths: ``warpgraph.sssp``.

Examples
--------
>>> import warpgraph as wg
>>> G = wg.Graph.from_edges([0, 0, 1], [1, 2, 2], weights=[4, 1, 2], directed=True)
>>> sssp(G, 0, device="cpu").tolist()
[0, 4, 1]
"""

from __future__ import annotations

import math
import weakref
from typing import Any

import numpy as np

from ...device import resolve_device
from ...errors import InvalidArgumentError
from ...graph import Graph
from ..bfs.api import _check_graph, _check_sources
from .config import choose_method

__all__ = ["METHODS", "sssp"]

METHODS = ("auto", "hbf", "near_far", "delta", "dijkstra")
_NON_NEGATIVE = ("near_far", "delta", "dijkstra")
_INT64_SAFE = 2**62


_CACHE: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()
"""Per graph: the unit weights of an unweighted graph, the statistics of ``G.weights`` and the
CPU engine's reused work arrays (``"cpu_work"``: two distance arrays and the largest
out-degree, :func:`.cpu.sssp_cpu`); the graph's arrays are treated as immutable, as everywhere
in warpgraph."""


def _unit_weights(G: Graph, dev: str):
    entry = _CACHE.setdefault(G, {})
    w = entry.get("unit")
    if w is None or w.shape[0] != G.num_arcs:
        if dev == "gpu":
            from ...device import cupy

            w = cupy().ones(G.num_arcs, dtype=np.int32)
        else:
            w = np.ones(G.num_arcs, dtype=np.int32)
        entry["unit"] = w
    return w


def _graph_weight_stats(G: Graph, w) -> tuple[float, float, float, int]:
    """Statistics of ``w``, cached when ``w`` is the graph's own (or unit) weight array."""
    entry = _CACHE.setdefault(G, {})
    own = w is G.weights or w is entry.get("unit")
    if own and entry.get("stats_of") is w:
        return entry["stats"]
    stats = _weight_stats(w)
    if own:
        entry["stats_of"], entry["stats"] = w, stats
    return stats


def _check_weights(G: Graph, weights: Any, dev: str):
    """The weight array to use, on ``dev``, with one of the four supported dtypes."""
    from ... import _arrays

    if weights is None:
        return G.weights if G.weights is not None else _unit_weights(G, dev)
    if isinstance(weights, str | bytes | dict):
        raise InvalidArgumentError(
            f"weights must be an array with one weight per arc, got {type(weights).__name__}"
        )
    try:
        arr = _arrays.as_array(weights, "weights")
    except InvalidArgumentError:
        raise
    except Exception as exc:  # ragged lists and the like
        raise InvalidArgumentError(f"weights is not a 1-D array: {exc}") from exc
    if arr.dtype.kind not in "iuf":
        raise InvalidArgumentError(
            f"weights must be integers or floats (int32, int64, float32, float64), got "
            f"dtype {arr.dtype}"
        )
    if arr.shape[0] != G.num_arcs:
        raise InvalidArgumentError(
            f"weights has {arr.shape[0]} entries but G has {G.num_arcs} arcs (one weight per "
            "entry of G.indices; an undirected graph stores each edge as two arcs)"
        )
    arr = _arrays.as_weight_array(arr, G.num_arcs)
    if dev == "gpu":
        from ...device import cupy

        return cupy().asarray(arr)
    return np.ascontiguousarray(_arrays.to_host(arr))


def _weight_stats(w) -> tuple[float, float, float, int]:
    """(min, max, mean, non-finite count), on whichever device ``w`` lives."""
    if w.shape[0] == 0:
        return 0.0, 0.0, 0.0, 0
    lo, hi = float(w.min()), float(w.max())
    if not (math.isfinite(lo) and math.isfinite(hi)):
        xp = np if isinstance(w, np.ndarray) else __import__("cupy")
        return lo, hi, float("nan"), int(w.shape[0] - int(xp.count_nonzero(xp.isfinite(w))))
    return lo, hi, float(w.mean(dtype=np.float64)), 0


def _check_delta(delta: Any) -> float | None:
    if delta is None:
        return None
    if isinstance(delta, bool | np.bool_):
        raise InvalidArgumentError(f"delta must be a positive number, got {delta!r}")
    try:
        value = float(delta)
    except (TypeError, ValueError) as exc:
        raise InvalidArgumentError(f"delta must be a positive number, got {delta!r}") from exc
    if not math.isfinite(value) or value <= 0:
        raise InvalidArgumentError(f"delta must be a positive finite number, got {delta!r}")
    return value


def sssp(
    G: Graph,
    source: Any,
    *,
    weights: Any = None,
    method: str = "auto",
    delta: float | None = None,
    predecessors: bool = False,
    device: str = "auto",
    filtering: bool = True,
):
    """Shortest-path distances (and optionally a shortest-path tree) from one or many sources.

    Parameters
    ----------
    G : Graph
        Directed graphs are followed along their arcs; an undirected graph's edges both ways.
    source : int or array_like of int
        Start vertex, or a batch of start vertices (one independent search each).
    weights : array_like, optional
        One weight per arc, aligned with ``G.indices`` (int32, int64, float32 or float64;
        smaller integer and float types are widened). Default: ``G.weights``, or 1 for every arc
        when ``G`` has none (hop counts, as int64 distances).
    method : {"auto", "delta", "near_far", "hbf", "dijkstra"}
        ``"delta"``: delta-stepping (parallel buckets of width ``delta``). ``"near_far"``:
        Davidson's near/far piles (one near bucket, one far pile). ``"hbf"``: frontier
        Bellman-Ford (H-BF), the only method that accepts negative weights. ``"dijkstra"``:
        Dijkstra's algorithm with a binary heap, on the CPU, one source per thread (the
        reference). ``"auto"``: ``"hbf"`` when some weight is negative; else ``"delta"`` on the
        CPU, and on the GPU ``"hbf"`` for 8 or more arcs per vertex, ``"near_far"`` below
        (:func:`~warpgraph.algorithms.sssp.config.choose_method`).
    delta : float, optional
        Bucket width of ``"delta"`` and ``"near_far"`` (the near/far threshold step). Default:
        chosen from the mean weight and average degree (see ``docs/SSSP.md``); rounded down
        to a whole number (at least 1) for integer weights.
    predecessors : bool
        Also return a shortest-path tree: ``pred[v]`` is the vertex before ``v`` on a shortest
        path, -1 for the source and for unreachable vertices.
    device : {"auto", "cpu", "gpu"}
        Where to run; the graph is copied there if it lives elsewhere.
    filtering : bool
        Frontier filtering: expand a vertex only if its distance changed since it was last
        expanded (removes duplicate and settled frontier entries). Off only to measure it.

    Returns
    -------
    dist : ndarray
        Distances, shape ``(n,)`` for one source or ``(k, n)`` for ``k`` sources. int64 for
        integer weights, with ``np.iinfo(np.int64).max`` for unreachable vertices; the weights'
        float dtype (float32 or float64) for float weights, with ``inf`` for unreachable
        vertices. A NumPy array after a CPU run, a CuPy array after a GPU run.
    pred : ndarray of int64
        Only with ``predecessors=True``: same shape as ``dist``.

    Raises
    ------
    InvalidArgumentError
        Not a Graph; a source that is not a vertex; an unknown method; weights of the wrong
        length or dtype, NaN or infinite; negative weights with ``"delta"``, ``"near_far"`` or
        ``"dijkstra"``; integer weights so large that int64 distances could overflow.
    NegativeCycleError
        A negative cycle is reachable from a source (``"hbf"``); ``err.vertex`` lies on it
        and ``err.cycle`` lists it in arc order when it was found. An undirected edge of
        negative weight is such a cycle (there and back), as in SciPy.
    DeviceUnavailableError
        ``device="gpu"`` without a usable GPU.

    See Also
    --------
    warpgraph.algorithms.sssp.verify_sssp : check a result (triangle inequality, tight tree).
    scipy.sparse.csgraph.dijkstra, scipy.sparse.csgraph.bellman_ford,
    networkx.single_source_dijkstra_path_length

    Notes
    -----
    Parallel arcs: the lightest counts. Self-loops never shorten a path unless negative (then
    they are negative cycles). Distances are exact for integer weights; for float weights they
    are sums in the weights' dtype, so float32 results can differ from a float64 computation
    (SciPy's) by rounding.

    On the CPU (Numba, all threads): ``"delta"`` keeps GAPBS-style buckets, relaxes each
    bucket's frontier in edge-balanced parallel chunks with compare-and-swap updates;
    ``"near_far"`` is the same engine with one bucket and a far pile; ``"hbf"`` relaxes, round
    by round, the vertices whose distance changed, and bounds its rounds, so a negative cycle
    always ends in :class:`~warpgraph.errors.NegativeCycleError`, never an endless loop.

    Examples
    --------
    >>> import numpy as np
    >>> import warpgraph as wg
    >>> G = wg.Graph.from_edges([0, 0, 1, 2], [1, 2, 3, 3], weights=[1, 5, 1, 1])
    >>> dist, pred = sssp(G, 0, predecessors=True, device="cpu")
    >>> dist.tolist(), pred.tolist()
    ([0, 1, 5, 2], [-1, 0, 0, 1])
    >>> sssp(G, [0, 2], method="hbf", device="cpu").tolist()[1] == [
    ...     np.iinfo(np.int64).max, np.iinfo(np.int64).max, 0, 1]
    True
    >>> H = wg.Graph.from_edges([0, 1], [1, 0], weights=[2.0, -3.0])
    >>> sssp(H, 0, device="cpu")
    Traceback (most recent call last):
    ...
    warpgraph.errors.NegativeCycleError: negative cycle reachable from the source; vertex 0 lies on it (cycle: 0 -> 1)
    """  # noqa: E501
    G = _check_graph(G)
    if method not in METHODS:
        raise InvalidArgumentError(f"method must be one of {', '.join(METHODS)}, got {method!r}")
    for name, flag in (("predecessors", predecessors), ("filtering", filtering)):
        if not isinstance(flag, bool | np.bool_):
            raise InvalidArgumentError(f"{name} must be True or False, got {flag!r}")
    delta = _check_delta(delta)
    if delta is not None and method in ("hbf", "dijkstra"):
        raise InvalidArgumentError(
            f"delta applies to method 'delta' and 'near_far', not {method!r}"
        )
    sources, batch = _check_sources(source, G.num_vertices)
    if method == "dijkstra":
        if device == "gpu":
            raise InvalidArgumentError(
                "method 'dijkstra' runs on the CPU only (it is the reference); use device='cpu' "
                "or a GPU method ('delta', 'near_far', 'hbf')"
            )
        dev = "cpu"
    else:
        dev = resolve_device(device)
    Gd = G.to(dev)
    w = _check_weights(Gd, weights, dev)
    lo, hi, mean, bad = _graph_weight_stats(Gd, w)
    if bad:
        raise InvalidArgumentError(f"weights must be finite; {bad} are NaN or infinite")
    negative = lo < 0
    if method == "auto":
        method = choose_method(negative, dev, Gd.num_arcs / max(Gd.num_vertices, 1))
    if negative and method in _NON_NEGATIVE:
        raise InvalidArgumentError(
            f"method {method!r} needs non-negative weights, but the smallest weight is {lo:g}; "
            "use method='hbf' (Bellman-Ford), which allows negative weights"
        )
    max_abs = max(abs(lo), abs(hi))
    n = Gd.num_vertices
    if w.dtype.kind in "iu" and max_abs * max(n - 1, 1) >= _INT64_SAFE:
        raise InvalidArgumentError(
            f"integer weights up to {max_abs:.0f} on {n} vertices could overflow int64 "
            "distances; scale them down or use float64 weights"
        )
    if dev == "gpu":
        from .gpu import sssp_gpu

        dist, pred = sssp_gpu(Gd.indptr, Gd.indices, w, sources, method=method, delta=delta,
                              predecessors=bool(predecessors), filtering=bool(filtering),
                              directed=Gd.directed, weight_range=(lo, hi, mean))  # fmt: skip
    else:
        dist, pred = _sssp_cpu(Gd, w, sources, method, delta, bool(predecessors),
                               bool(filtering), negative, max_abs, mean)  # fmt: skip
    if not batch:
        dist = dist[0]
        pred = None if pred is None else pred[0]
    return (dist, pred) if predecessors else dist


def _sssp_cpu(G, w, sources, method, delta, predecessors, filtering, negative, max_abs, mean):
    from ...cpu.threads import threads_for

    # Dijkstra runs one source per thread in one region; the others one source at a time, in
    # many short regions each: fewer threads on a busy machine (cpu/threads.py)
    work = (G.num_vertices + G.num_arcs) * (sources.shape[0] if method == "dijkstra" else 1)
    with threads_for(work=work):
        return _sssp_cpu_sources(G, w, sources, method, delta, predecessors, filtering,
                                 negative, max_abs, mean)  # fmt: skip


def _sssp_cpu_sources(G, w, sources, method, delta, predecessors, filtering, negative, max_abs,
                      mean):  # fmt: skip
    from .config import choose_delta
    from .cpu import dijkstra_cpu, predecessors_cpu, sssp_cpu

    n, k = G.num_vertices, sources.shape[0]
    dtype = np.dtype(np.int64) if w.dtype.kind in "iu" else w.dtype
    indptr, indices = G.indptr, G.indices
    if method == "dijkstra":
        dist = dijkstra_cpu(indptr, indices, w, sources, dtype)
    else:
        if method in ("delta", "near_far") and delta is None:
            delta = choose_delta(mean, max_abs, G.num_arcs / max(n, 1), dtype.kind in "iu")
        dist = np.empty((k, n), dtype=dtype)
        # the engine's working distances and the graph's largest out-degree, kept per graph
        # (they depend on its size and arcs only); ``dist`` never shares memory with them
        work = _CACHE.setdefault(G, {}).setdefault("cpu_work", {})
        for i, s in enumerate(sources):
            sssp_cpu(indptr, indices, w, int(s), method=method, delta=delta,
                     filtering=filtering, negative=negative, max_abs=max_abs,
                     dist=dist[i], work=work)  # fmt: skip
    pred = None
    if predecessors:
        pred = np.empty((k, n), dtype=np.int64)
        for i, s in enumerate(sources):
            pred[i] = predecessors_cpu(indptr, indices, w, dist[i], int(s))
    return dist, pred
