"""Configuration of the multi-step SCC decomposition and its automatic choice from graph statistics.

The multi-step scheme (Busato's thesis, ch. 9, Algorithm 12; used by cuRnet) runs three phases:

1. **trimming**, ``trim_iterations`` passes: an active vertex with no active out-neighbour or no
   active in-neighbour (in its own subgraph) is a trivial SCC; optionally one **trim-2** pass
   then removes isolated 2-cycles;
2. **forward-backward** (FB), ``fb_iterations`` rounds: in every subgraph a pivot is chosen,
   its forward closure F and backward closure B are computed, F ∩ B is an SCC, and F \\ B,
   B \\ F and the rest become three new subgraphs (each closed under SCCs);
3. **coloring** until no vertex is left: the largest vertex id propagates forward inside each
   subgraph to a fixed point, the backward closure of every colour's root inside its colour is an
   SCC, and the colours become the new subgraphs.

Each reachability phase has a traversal strategy (thesis §9.3):

``"quadratic"`` (Q)
    one thread per vertex, every vertex inspected at every step; lowest overhead, best on
    large, regular, low-diameter graphs.
``"virtual_warp"`` (Q_VW)
    quadratic, but a group of ``virtual_warp`` threads shares each adjacency list (better
    balance and coalescing on skewed degrees). On the CPU: quadratic sweeps whose thread chunks
    hold equal numbers of arcs instead of equal numbers of vertices.
``"linear"`` (L)
    frontier queues: only the vertices reached at the previous step are expanded; linear work,
    best on high-diameter graphs.
``"hybrid"``
    linear, plus direction optimization (Beamer): once the frontier's arcs exceed 1/15 of all
    arcs, steps become bottom-up sweeps in which every unreached vertex of a group looks for
    a reached predecessor along the reversed arcs and stops at the first one (far fewer arcs
    on scale-free graphs); push steps resume when a sweep reaches under n/24 vertices. Not in
    the thesis; an extension. Coloring's max propagation runs linear under this choice.

Trimming always uses the quadratic thread-per-vertex pass (as in the thesis).

The GPU has a fourth method, ``"ecl"`` (max-signature propagation, after ECL-SCC): every round
each vertex learns the largest key that reaches it and the largest key it reaches, both inside
its class, in place and for all classes at once; equal pairs are SCCs, the other pairs become
the new classes. The whole decomposition is one persistent kernel (no host round trip per
level), which is what high-diameter graphs need. It reads ``trim_iterations`` (0: no trim
pass, else one trim-1 pass at the start of every round) and ``chase``; the other fields are
multi-step options.

Examples
--------
>>> cfg = SCCConfig(trim_iterations=2, fb_traversal="linear")
>>> cfg.trim_iterations, cfg.fb_traversal, cfg.coloring_traversal
(2, 'linear', 'linear')
>>> SCCConfig(pivot="largest")
Traceback (most recent call last):
...
warpgraph.errors.InvalidArgumentError: pivot must be one of ('max_degree_product', \
'max_out_degree', 'min_id'), got 'largest'
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from typing import Any

import numba as nb
import numpy as np

from ...errors import InvalidArgumentError

__all__ = [
    "ECL_MAX_ARCS",
    "GPU_SCC_METHODS",
    "PIVOTS",
    "SCC_METHODS",
    "TARJAN_MAX_WORK",
    "TARJAN_SERIAL_MAX_VERTICES",
    "TRAVERSALS",
    "TRIM_FULL",
    "SCCConfig",
    "auto_scc_config",
    "auto_scc_method",
    "method_config",
    "scc_graph_stats",
]

SCC_METHODS = ("multistep", "fb", "coloring", "tarjan")
"""Strong-components methods.

``"multistep"``
    trimming + ``fb_iterations`` FB rounds + coloring, all as the config says (the default).
``"fb"``
    trimming, then FB rounds until every vertex is assigned (``fb_iterations`` is ignored;
    no coloring): the FORWARD-BACKWARD algorithm of Fleischer, Hendrickson and Pinar.
``"coloring"``
    trimming, then coloring only (``fb_iterations`` is ignored): Orzan's coloring algorithm.
``"tarjan"``
    Tarjan's sequential algorithm, iterative (no recursion), on the CPU: the baseline. The
    config is ignored.
"""

GPU_SCC_METHODS = ("multistep", "fb", "coloring", "ecl")
"""Methods the GPU backend runs (Tarjan is inherently sequential: CPU only). ``"ecl"``: the
max-signature scheme of ECL-SCC in one persistent kernel (module docstring; GPU only)."""

TRAVERSALS = ("quadratic", "virtual_warp", "linear", "hybrid")
"""Traversal strategies of the reachability phases (module docstring)."""

PIVOTS = ("max_degree_product", "max_out_degree", "min_id")
"""Pivot rules of the FB phase, per subgraph: the active vertex of largest in-degree × out-degree
(the heuristic of [250] in the thesis; likely in the largest SCC), of largest out-degree, or of
smallest id. Ties go to the smallest id; degrees are those of the whole graph."""

TRIM_FULL = -1
"""``trim_iterations`` value meaning "repeat trimming until a pass removes nothing"."""

_VW_SIZES = (1, 2, 4, 8, 16, 32)

TARJAN_MAX_WORK = 1 << 16
"""CPU ``method="auto"``: graphs with fewer vertices + arcs run Tarjan."""

ECL_MAX_ARCS = 1 << 23
"""GPU ``method="auto"``: graphs with fewer arcs run ``"ecl"`` (one kernel, no host round trips),
larger ones ``"multistep"`` unless road-like. H200, ms ecl / multistep: web-NotreDame (1.5 M
arcs) 4.7 / 37.7, soc-Slashdot0902 (0.95 M) 1.7 / 4.9, Kronecker 16 / 18 (3.8 M) 2.8 / 5.0 and
4.4 / 5.6, uniform 2^18 (4.2 M) 2.2 / 2.8, uniform 2^20 out-degree 4 (4.2 M) 5.3 / 7.8; then
Kronecker 20 (16 M) 9.7 / 3.8, uniform 2^20 (16.8 M) 6.0 / 3.8, Kronecker 22 33 / 5.4."""

TARJAN_SERIAL_MAX_VERTICES = 1 << 18
"""CPU ``method="auto"`` with one thread to spare and no cached reverse CSR: graphs of at most
this many vertices run Tarjan (its state, 21 bytes a vertex, stays in cache)."""


@dataclass(frozen=True)
class SCCConfig:
    """Parameters of the multi-step SCC decomposition (thesis ch. 9).

    Parameters
    ----------
    trim_iterations : int
        Trim-1 passes (I_t); 0 disables trimming, ``TRIM_FULL`` (-1) repeats until no vertex
        is removed.
    trim2 : bool
        After trim-1, one trim-2 pass: two active vertices that are each other's only active
        out-neighbour (or only active in-neighbour) form an SCC.
    fb_iterations : int
        Forward-backward rounds (I_f) of ``method="multistep"``; 0 goes straight to coloring.
    pivot : str
        Pivot rule of the FB rounds, one of :data:`PIVOTS`.
    fb_traversal : str
        Traversal of the forward and backward closures of the FB rounds (:data:`TRAVERSALS`).
    coloring_traversal : str
        Traversal of the coloring phase: the max-colour propagation and the backward closures.
    virtual_warp : int
        Threads per vertex of the ``"virtual_warp"`` traversal on the GPU: 1, 2, 4, 8, 16 or 32.
    sync_interval : int
        GPU: fixed-point steps launched back to back between two reads of the "changed" flag
        (fewer host synchronisations, at most ``sync_interval - 1`` idle steps at the end).
    hub_degree : int
        GPU closures: a frontier vertex with at least this many arcs is expanded after its
        step by a whole block (by the whole grid from ``64 * hub_degree`` arcs) instead of by
        its own thread, group or warp, so that one hub does not keep a step waiting; 0 turns
        this off. The CPU ignores it.
    chase : int
        GPU ``"ecl"`` method: a warp expands the vertices it raised itself, up to ``chase``
        more times inside one level (up to 32 vertices a time; the rest wait for the next
        level), so values travel up to ``chase + 1`` arcs per grid barrier on thin frontiers.
        0 is one arc per level (plain level-synchronous propagation). Other methods ignore it.

    Raises
    ------
    InvalidArgumentError
        A field has an unknown value or a wrong type.

    Examples
    --------
    >>> SCCConfig()
    SCCConfig(trim_iterations=3, trim2=True, fb_iterations=1, pivot='max_degree_product', \
fb_traversal='linear', coloring_traversal='linear', virtual_warp=8, sync_interval=4, \
hub_degree=512, chase=16)
    >>> SCCConfig(virtual_warp=3)
    Traceback (most recent call last):
    ...
    warpgraph.errors.InvalidArgumentError: virtual_warp must be one of (1, 2, 4, 8, 16, 32), got 3
    """

    trim_iterations: int = 3
    trim2: bool = True
    fb_iterations: int = 1
    pivot: str = "max_degree_product"
    fb_traversal: str = "linear"
    coloring_traversal: str = "linear"
    virtual_warp: int = 8
    sync_interval: int = 4
    hub_degree: int = 512
    chase: int = 16

    def __post_init__(self) -> None:
        def integer(name: str, lo: int) -> None:
            v = getattr(self, name)
            if isinstance(v, bool) or not isinstance(v, int | np.integer) or int(v) < lo:
                raise InvalidArgumentError(f"{name} must be an int >= {lo}, got {v!r}")
            object.__setattr__(self, name, int(v))

        integer("trim_iterations", TRIM_FULL)
        integer("fb_iterations", 0)
        integer("sync_interval", 1)
        integer("hub_degree", 0)
        integer("chase", 0)
        if not isinstance(self.trim2, bool | np.bool_):
            raise InvalidArgumentError(f"trim2 must be a bool, got {self.trim2!r}")
        object.__setattr__(self, "trim2", bool(self.trim2))
        if self.pivot not in PIVOTS:
            raise InvalidArgumentError(f"pivot must be one of {PIVOTS}, got {self.pivot!r}")
        for name in ("fb_traversal", "coloring_traversal"):
            if getattr(self, name) not in TRAVERSALS:
                raise InvalidArgumentError(
                    f"{name} must be one of {TRAVERSALS}, got {getattr(self, name)!r}"
                )
        vw = self.virtual_warp
        if isinstance(vw, bool) or not isinstance(vw, int | np.integer) or int(vw) not in _VW_SIZES:
            raise InvalidArgumentError(f"virtual_warp must be one of {_VW_SIZES}, got {vw!r}")
        object.__setattr__(self, "virtual_warp", int(vw))

    def replace(self, **changes: Any) -> SCCConfig:
        """A copy with ``changes`` applied (validated again)."""
        return dataclasses.replace(self, **changes)

    def as_dict(self) -> dict[str, Any]:
        """The fields as a plain dict (for JSON results)."""
        return dataclasses.asdict(self)


def method_config(method: str, config: SCCConfig) -> tuple[int, bool]:
    """``(fb_iterations, coloring)`` that ``method`` runs with ``config``.

    ``fb_iterations == -1`` means "until every vertex is assigned"; ``"ecl"`` runs neither
    (its one kernel does the whole decomposition).

    Examples
    --------
    >>> method_config("fb", SCCConfig()), method_config("coloring", SCCConfig())
    ((-1, False), (0, True))
    """
    if method == "multistep":
        return config.fb_iterations, True
    if method == "fb":
        return -1, False
    if method == "coloring":
        return 0, True
    if method == "ecl":
        return 0, False
    raise InvalidArgumentError(f"method must be one of {SCC_METHODS}, got {method!r}")


@nb.njit(cache=True, nogil=True)
def _degree_moments(indptr):
    """Mean, maximum, standard deviation (two passes) and zero count of the out-degrees."""
    n = indptr.shape[0] - 1
    mx = 0
    zeros = 0
    for v in range(n):
        d = indptr[v + 1] - indptr[v]
        mx = max(mx, d)
        zeros += d == 0
    mean = (indptr[n] - indptr[0]) / n
    ss = 0.0
    for v in range(n):
        x = (indptr[v + 1] - indptr[v]) - mean
        ss += x * x
    return mean, mx, np.sqrt(ss / n), zeros


def scc_graph_stats(indptr: Any, n: int) -> dict[str, float]:
    """The out-degree statistics :func:`auto_scc_config` decides from (NumPy or CuPy CSR).

    Returns ``n``, ``m``, ``avg_degree``, ``max_degree``, ``std_degree`` and ``zero_out``
    (fraction of vertices without out-arcs).

    Examples
    --------
    >>> s = scc_graph_stats(np.array([0, 2, 3, 3]), 3)
    >>> s["m"], s["max_degree"], round(s["zero_out"], 3)
    (3, 2, 0.333)
    """
    if n == 0:
        return dict(n=0, m=0, avg_degree=0.0, max_degree=0, std_degree=0.0, zero_out=0.0)
    if isinstance(indptr, np.ndarray):  # one compiled pass, no n-sized temporaries
        mean, mx, std, zeros = _degree_moments(np.ascontiguousarray(indptr, dtype=np.int64))
        return dict(
            n=int(n),
            m=int(indptr[-1]),
            avg_degree=float(mean),
            max_degree=int(mx),
            std_degree=float(std),
            zero_out=float(zeros) / n,
        )
    deg = indptr[1:] - indptr[:-1]
    degf = deg.astype(np.float64)
    return dict(
        n=int(n),
        m=int(indptr[-1]),
        avg_degree=float(degf.mean()),
        max_degree=int(deg.max()),
        std_degree=float(degf.std()),
        zero_out=float((deg == 0).sum()) / n,
    )


def auto_scc_config(
    indptr: Any, indices: Any, n: int, device: str, *, stats: dict[str, float] | None = None
) -> SCCConfig:
    """The configuration chosen from the out-degree distribution and size of a graph.

    The rule follows the best parametrizations of the thesis (Table 9.3), re-checked on
    directed Kronecker graphs (docs/COMPONENTS.md):

    * trimming pays when vertices have no out-arcs (``zero_out``); none: no trimming (road
      networks, meshes, circuits). On the CPU one pass (fastest on Kronecker 18/20 and uniform
      20: benchmarks/results/scc_cpu_2026-11-21.json); on the GPU 2 passes when ``zero_out``
      > 30 %, else 1 (on directed Kronecker graphs the first pass removes 99.9 % of the trivial
      SCCs; every vertex left for coloring costs GPU rounds). trim-2 is off (it removed nothing
      on Kronecker graphs and costs about two trim-1 passes);
    * one FB round from the max in×out-degree pivot (peels the giant SCC of scale-free graphs);
    * sparse, regular graphs (average out-degree <= 4 and maximum <= 16: road-like, high
      diameter) use linear traversals; every other graph uses ``hybrid`` FB closures on the
      CPU (bottom-up sweeps cut the arcs examined about 5-fold on Kronecker graphs), and on
      the GPU skewed graphs (degree standard deviation above the mean) too (directed Kronecker
      scale 22 on an H100: hybrid 3.9 ms, virtual warps 5.0-6.0 ms, quadratic 6.2 ms, linear
      6.3 ms; benchmarks/results/scc_gpu_2026-11-21.json), the others ``quadratic``; the
      ``virtual_warp`` group size is the average degree rounded up to a power of two;
      coloring is ``linear``.

    Parameters
    ----------
    indptr, indices : array
        CSR of the graph (NumPy or CuPy); ``indices`` is not read.
    n : int
        Number of vertices.
    device : {"cpu", "gpu"}
        Backend that will run.
    stats : dict, optional
        :func:`scc_graph_stats` of the graph, when the caller has it already.

    Returns
    -------
    SCCConfig

    Examples
    --------
    >>> ptr = np.array([0, 1, 2, 3])  # a 3-cycle: no trimming, linear everywhere
    >>> cfg = auto_scc_config(ptr, None, 3, "gpu")
    >>> cfg.trim_iterations, cfg.fb_traversal
    (0, 'linear')
    """
    if device not in ("cpu", "gpu"):
        raise InvalidArgumentError(f"device must be 'cpu' or 'gpu', got {device!r}")
    s = scc_graph_stats(indptr, n) if stats is None else stats
    z = s["zero_out"]
    trim = 2 if z > 0.30 and device == "gpu" else 1 if z > 0 else 0
    road_like = s["avg_degree"] <= 4 and s["max_degree"] <= 16
    if road_like:
        fb = "linear"
    elif device == "cpu" or s["std_degree"] > s["avg_degree"]:
        fb = "hybrid"
    else:
        fb = "quadratic"
    vw = 1
    while vw < 32 and vw < s["avg_degree"]:
        vw *= 2
    return SCCConfig(
        trim_iterations=trim,
        trim2=False,
        fb_iterations=1,
        pivot="max_degree_product",
        fb_traversal=fb,
        coloring_traversal="linear",
        virtual_warp=vw,
        sync_interval=4,
        hub_degree=512,
    )


def _local(indptr: Any, indices: Any, n: int, samples: int = 4096) -> bool:
    """True when the graph's arcs join nearby ids: the median ``|u - v|`` of ``samples`` arcs
    (evenly spaced in the CSR) is at most ``max(n / 64, 4 sqrt(n))`` (grids and meshes in
    row order, road networks in their usual order; not random graphs, whose median is about
    ``n / 3``). Works on NumPy or CuPy arrays."""
    m = int(indptr[-1])
    if m == 0:
        return True
    xp = np if isinstance(indptr, np.ndarray) else __import__("cupy")
    pos = xp.linspace(0, m - 1, min(m, samples)).astype(xp.int64)
    src = xp.searchsorted(indptr, pos, side="right") - 1
    gap = xp.abs(src - indices[pos].astype(xp.int64))
    return float(xp.median(gap)) <= max(n / 64, 4 * n**0.5)


def auto_scc_method(
    indptr: Any,
    n: int,
    device: str,
    indices: Any = None,
    *,
    stats: dict[str, float] | None = None,
) -> str:
    """The method ``method="auto"`` should run: on the CPU ``"tarjan"`` for small graphs
    (vertices + arcs < :data:`TARJAN_MAX_WORK`: they fit in cache, and the multi-step scheme's
    fixed costs dominate; directed Kronecker 12: 0.2 ms against 0.9 ms) and for road-like graphs
    (average out-degree <= 4, maximum <= 16) or, when ``indices`` is given, for local graphs
    whatever their degrees (arcs join nearby ids: meshes, road networks, web crawls in crawl
    order), ``"multistep"`` otherwise.

    On a 1024 x 1024 grid (2 cores) Tarjan (Pearce's form) took 16 ms, SciPy 20 ms and the
    multi-step scheme 54-64 ms: thousands of thin BFS levels give parallelism nothing to work
    with, while a DFS walks the mesh in cache order. A random graph of the same degrees
    (uniform, out-degree 4) is the opposite: a DFS misses the cache at every arc (Tarjan
    740 ms, multi-step 190 ms on 2^20 vertices), which the locality test tells apart.

    On the GPU road-like graphs (the same degree rule, any id order) and graphs of fewer than
    :data:`ECL_MAX_ARCS` arcs run ``"ecl"``, the others ``"multistep"``. The multi-step
    scheme's closures and coloring rounds cost one launch per BFS level and a host read per
    batch of levels: a randomly oriented 2048 x 2048 grid took 20
    coloring rounds, 13,000 host-checked batches and 6.0 s on an H200 (4.3 s on an H100;
    SciPy 0.27-0.32 s), the signature scheme 8 rounds, 933 levels in one kernel and 75 ms
    (docs/COMPONENTS.md). Scale-free graphs keep the multi-step scheme: one FB round from the
    hub peels the giant SCC (Kronecker 22 on an H200: 5.4 ms, ``"ecl"`` 33 ms).

    ``stats`` (:func:`scc_graph_stats`) saves computing the degree statistics again.

    Examples
    --------
    >>> ring = np.arange(0, 13, 4)  # 3 vertices of out-degree 4
    >>> auto_scc_method(ring, 3, "cpu"), auto_scc_method(ring, 3, "gpu")
    ('tarjan', 'ecl')
    >>> auto_scc_method(np.arange(0, 8 * 10**5 + 1, 8), 10**5, "gpu")  # small: one kernel
    'ecl'
    >>> auto_scc_method(np.arange(0, 2**24 + 1, 16), 2**20, "gpu")  # 16 M arcs, not road-like
    'multistep'
    >>> auto_scc_method(np.arange(0, 8 * 10**5 + 1, 8), 10**5, "cpu")  # not small or sparse
    'multistep'
    """
    if device not in ("cpu", "gpu"):
        raise InvalidArgumentError(f"device must be 'cpu' or 'gpu', got {device!r}")
    s = scc_graph_stats(indptr, n) if stats is None else stats
    road_like = n > 0 and s["avg_degree"] <= 4 and s["max_degree"] <= 16
    if device != "cpu":
        return "ecl" if road_like or s["m"] < ECL_MAX_ARCS else "multistep"
    if n + s["m"] < TARJAN_MAX_WORK:
        return "tarjan"
    if indices is not None:
        # local ids, any degrees: a DFS in id order stays in cache (web-NotreDame, 2 cores:
        # Tarjan 7-16 ms, multi-step 38-66 ms, SciPy 17-32 ms)
        return "tarjan" if _local(indptr, indices, n) else "multistep"
    return "tarjan" if road_like else "multistep"
