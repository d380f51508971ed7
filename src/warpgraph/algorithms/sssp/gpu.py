"""GPU single-source shortest paths: H-BF, near-far piles and delta-stepping (``sssp.cu``).

One persistent cooperative launch per source runs the whole search (``sssp_core.cuh`` explains
the kernel); a small launch then writes the source's row of the outputs. Sources of a batch run
one after the other on the stream with no host synchronization in between (except with
negative weights, where each source is checked at once so that a negative cycle can be walked
before the state is reused).

Choices made here, per call:

* **State layout.** Integer weights use 32-bit keys when every distance fits
  (``max|w| * n`` below ``2**32``, or ``3 * max|w| * n`` with negative weights); otherwise 64-bit
  keys. float32 weights use 32-bit keys, float64 weights 64-bit keys. 32-bit keys without
  predecessors and without negative weights use H-BF's packed ``(distance, stamp)`` word (one
  64-bit atomicMin both relaxes and tells whether the target is queued already) or, with
  ``layout="split"``, a 4-byte key array (32-bit atomicMin) with the stamps in a separate array:
  half the bytes for the per-arc distance check, but a second atomic per improvement. Measured
  on an H100 (Kronecker 22, every feature on): packed 4.6 ms, split 5.0 ms per source, so
  ``AUTO_LAYOUT`` is ``"packed"``. With predecessors (or negative
  weights, whose cycle must be walked) the word packs ``(distance, predecessor)`` instead and is
  updated by a compare-and-swap loop, so the predecessor always matches the distance.
* **Features** of the packed and split layouts (``features``, all on by default; ``FEATURES``;
  ``done`` only with the split layout): ``qbuf``
  stages near-queue appends in a per-warp shared-memory buffer (one counter atomic per 256
  entries instead of one per 32-arc round that queues anything: millions of same-address
  atomics at Kronecker scale 22); ``stream`` loads arc ids and weights with evict-first hints;
  ``done`` skips a vertex, or a 256-arc chunk of a large row, whose distance equals the one it
  was last expanded with (not with delta-stepping, whose expansions relax only part of a row);
  ``skip1`` never queues a degree-1 vertex of an undirected graph (its one arc leads back);
  ``ilp`` loads the ids and weights of 4 rounds of a chunk before relaxing them (more memory
  loads in flight per warp). Packed layout only: ``defer`` does not expand a frontier vertex
  that was improved (and queued for the next operation) earlier in the same operation: the
  next operation expands it once, with its lower distance (H-BF's double expansions);
  ``spec`` runs H-BF on a kernel built for H-BF alone (``sssp_persistent<..., 1>``: no far
  pile, delta-stepping or negative-weight code); with it, ``pref`` reads the targets' keys of
  a chunk's 4 loaded rounds before relaxing the first, and ``ilp2`` loads small vertices' arcs
  two rounds at a time. Measured on an H200 (Kronecker 22, docs/SSSP.md): the four together
  took H-BF from 4.0-4.2 to 3.4-3.5 ms per source; ``defer`` slowed delta-stepping by 5%, so
  its default leaves it out.
* **Per-call work.** The weight statistics come from the caller when known (``weight_range``;
  the public ``sssp`` caches them per graph), else from one pass over the weights; the scratch
  buffers and the configuration block are kept between calls of the same shape on the same
  stream (``reuse``; :func:`release_workspace` frees them).
* **delta** (``near_far`` and ``delta``): when not given, ``32 * mean weight / mean out-degree``
  (Davidson et al., IPDPS 2014: a warp's worth of arcs per bucket), at least 1 for integer
  weights; an explicit float delta is rounded up for integer weights.
* **Edge classes** (H-BF's marking phase, ``classify``): by default only for directed graphs in
  which at least a tenth of the vertices are sinks (out-degree 0); the marking costs one pass
  over the arcs, which undirected graphs rarely win back (their only class is the degree-1
  vertex, saving under one arc per vertex).
* **Persistent grid** (``blocks_per_sm``): as many blocks as fit (4 per SM), except near-far and
  delta-stepping on sparse graphs (under 8 arcs per vertex: roads, grids), which run thousands
  of small operations and get 1 block per SM: a cheaper grid barrier. Measured on an H100 on a
  2048 x 2048 grid: near-far 46 -> 31 ms, delta-stepping 52 -> 36 ms (H-BF, whose frontiers
  are larger, is faster with the full grid: 110 vs 121 ms).

Importing this module does not import CuPy.
"""

from __future__ import annotations

import math
import threading
from typing import Any

import numpy as np

from ...errors import InvalidArgumentError, NegativeCycleError, WarpgraphError
from ...gpu.loader import declare, get_kernel

__all__ = ["FEATURES", "METHODS", "auto_delta", "release_workspace", "sssp_gpu"]

SOURCE = "sssp.cu"
METHODS = {"hbf": 0, "near_far": 1, "delta": 2}
BLOCK = 256
BIG_DEG = 256  # sssp_core.cuh
CHUNK = 256
SPARSE_DEGREE = 8  # arcs per vertex below which near-far / delta-stepping use 1 block per SM
PACK, PACK_PRED, WIDE, WIDE_PRED, SPLIT = range(5)
(C_N, C_QCAP, C_CCAP, C_FCAP, C_METHOD, C_FILTER, C_CLASSIFY, C_DELTA, C_LOW, C_NEGB, C_HASNEG,
 C_MAXOPS, C_FORCE, C_FEATURES, C_CDONE) = range(15)  # fmt: skip
C_FUSED, C_CHAIN, C_CLAIM, C_SMALLDEG = 16, 17, 18, 19
CHAIN_ROUNDS = 4
"""Default rounds of chained expansion per warp and operation (near-far, packed layout with
``qbuf`` and filtering; ``sssp_core.cuh`` ``Run::chain``)."""
CLAIM_LIMIT = 16384
"""Operations whose frontier has at most this many small vertices relax without reading the
target first (packed layout, general kernel)."""
FEATURES = {"qbuf": 1, "stream": 2, "done": 4, "skip1": 8, "ilp": 16, "defer": 32, "spec": 64,
            "pref": 128, "ilp2": 256}  # fmt: skip
"""Run-time features of the packed and split layouts (``sssp_core.cuh`` ``Feature``)."""
PACK_ONLY = FEATURES["defer"] | FEATURES["spec"] | FEATURES["pref"] | FEATURES["ilp2"]
SPEC_ONLY = FEATURES["pref"] | FEATURES["ilp2"]  # need the H-BF-only kernel (``spec``)
DEFAULT_FEATURES = sum(FEATURES.values())
SPEC_KERNELS = (1, 2, 3)
"""Builds of the H-BF-only kernel (``sssp_core.cuh`` ``Run``): 1: 2 small / 4 chunk rounds
loaded ahead, 4 blocks per SM; 2: 4 / 8 rounds; 3: 4 / 8 rounds at 3 blocks per SM."""
SPEC_KERNEL = 1
"""The build ``spec`` uses, the only one compiled with the others: builds 2 and 3 measured
1.35x and 1.45x slower on an H200 (Kronecker 22, docs/SSSP.md); ``_spec_kernel`` compiles them
on demand."""
"""``features=None``: every feature that applies (H100 measurements, docs/SSSP.md)."""
LAYOUTS = ("auto", "split", "packed")
AUTO_LAYOUT = "packed"
"""The layout ``layout="auto"`` picks where both apply (H100 measurements, docs/SSSP.md)."""
C_WORDS, CTL_WORDS = 24, 48
ST_DONE, ST_NEGCYCLE, ST_LIMIT, ST_OVERFLOW = 1, 2, 3, 4
STAT_NAMES = ("status", "negv", "ops", "iterations", "splits", "heavy", "regenerations", "farscans")

_W = {"int": np.int32, "long long": np.int64, "float": np.float32, "double": np.float64}
_OUT = {"int": "long long", "long long": "long long", "float": "float", "double": "double"}
# (weight type, mode) pairs instantiated for 32-bit ids; 64-bit ids have no 32-bit predecessor
_COMBOS = [
    ("int", PACK), ("int", PACK_PRED), ("float", PACK), ("float", PACK_PRED),
    ("long long", WIDE), ("long long", WIDE_PRED), ("double", WIDE), ("double", WIDE_PRED),
    ("int", SPLIT), ("float", SPLIT),
]  # fmt: skip


def _declare(vt: str) -> None:
    combos = _COMBOS if vt == "int" else [c for c in _COMBOS if c[1] not in (PACK_PRED, SPLIT)]
    declare(SOURCE, *(f"sssp_persistent<{vt}, {w}, {m}, 0>" for w, m in combos))
    declare(SOURCE, *(f"sssp_persistent<{vt}, {w}, {PACK}, {SPEC_KERNEL}>"
                      for w in ("int", "float")))  # fmt: skip
    declare(SOURCE, *(f"sssp_output<{w}, {m}, {_OUT[w]}>" for w, m in combos))
    declare(SOURCE, f"sssp_indegree<{vt}>", *(f"sssp_classify<{vt}, {w}>" for w in _W))
    declare(SOURCE, *(f"sssp_weight_stats<{w}>" for w in _W))


_declare("int")  # 64-bit ids (graphs of 2**31 vertices or more) on first use


def _ctype(dtype: np.dtype) -> str:
    return {np.dtype(v): k for k, v in _W.items()}[np.dtype(dtype)]


def weight_stats(weights: Any) -> tuple[Any, Any, float]:
    """``(min, max, sum)`` of a CuPy weight array in one pass (Python numbers)."""
    from ...device import cupy
    from ...gpu.launch import launch

    cp = cupy()
    m = int(weights.size)
    if m == 0:
        return 0, 0, 0.0
    out = cp.asarray(np.array([np.iinfo(np.uint64).max, 0, 0], dtype=np.uint64))
    k = get_kernel(SOURCE, f"sssp_weight_stats<{_ctype(weights.dtype)}>")
    launch(k, m, [weights, m, out], block=BLOCK)
    lo, hi, s = out.get()
    s = float(np.array([s], np.uint64).view(np.float64)[0])
    if weights.dtype.kind in "iu":
        sign = np.uint64(1 << 63)
        return int((lo ^ sign).view(np.int64)), int((hi ^ sign).view(np.int64)), s

    def decode(key: np.uint64) -> float:
        b = key & np.uint64((1 << 63) - 1) if key >> np.uint64(63) else ~key
        return float(np.array([b], np.uint64).view(np.float64)[0])

    return decode(lo), decode(hi), s


def auto_delta(mean_weight: float, n: int, m: int, integer: bool) -> float | int:
    """Davidson et al.'s bucket width: ``32 * mean weight / mean out-degree``.

    Examples
    --------
    >>> auto_delta(128.0, 1000, 16000, True)
    256
    >>> auto_delta(0.5, 100, 400, False)
    4.0
    """
    deg = m / max(n, 1)
    d = 32.0 * mean_weight / deg if deg > 0 else 1.0
    if integer:
        return max(1, round(d))
    return d if d > 0 and math.isfinite(d) else 1.0


def _plan_layout(dtype: np.dtype, wmin, wmax, n: int, track: bool, wide_ids: bool,
                 layout: str = "packed"):  # fmt: skip
    """(weight C type, mode, key offset, -B) for this call."""
    amax = max(abs(wmin), abs(wmax))
    neg = wmin < 0
    want = AUTO_LAYOUT if layout == "auto" else layout
    split = want == "split" and not (track or neg or wide_ids)
    if dtype.kind in "iu":
        b = int(amax) * max(n, 1)
        span = 3 * b if neg else b
        low = -2 * b if neg else 0
        if span < 2**32 - 1 and not (track and wide_ids):
            return "int", (PACK_PRED if track else SPLIT if split else PACK), low, -b
        if span < 2**62:
            return "long long", (WIDE_PRED if track else WIDE), low, -b
        raise InvalidArgumentError(
            f"integer weights up to {amax} on {n} vertices: shortest-path distances could "
            "overflow 64-bit integers; use float64 weights"
        )
    negb = -1.5 * float(amax) * max(n, 1)
    if dtype == np.float32 and not (track and wide_ids):
        return "float", (PACK_PRED if track else SPLIT if split else PACK), 0, negb
    return "double", (WIDE_PRED if track else WIDE), 0, negb


def _range_usable(weight_range: Any, dtype: np.dtype) -> bool:
    """Whether caller-given (min, max, mean) can stand for the weights (exact for integers)."""
    lo, hi, _ = weight_range
    if dtype.kind in "iu":  # the caller's statistics are floats: exact below 2**52
        return max(abs(lo), abs(hi)) < 2**52
    return True


def _feature_bits(features: Any) -> int:
    """The bit mask of ``features`` (None: ``DEFAULT_FEATURES``; an int: as is; names of
    ``FEATURES``)."""
    if features is None:
        return DEFAULT_FEATURES
    if isinstance(features, int | np.integer) and not isinstance(features, bool):
        if not 0 <= int(features) <= sum(FEATURES.values()):
            raise InvalidArgumentError(f"features mask {features} has unknown bits")
        return int(features)
    if isinstance(features, str):
        features = [features] if features else []
    bits = 0
    for name in features:
        if name not in FEATURES:
            raise InvalidArgumentError(
                f"unknown SSSP feature {name!r}; known: {', '.join(FEATURES)}"
            )
        bits |= FEATURES[name]
    return bits


_LOCAL = threading.local()
_COOP: dict[tuple[int, int], int] = {}


def _stream_key() -> tuple[int, int]:
    from ...device import cupy

    cp = cupy()
    return cp.cuda.runtime.getDevice(), int(cp.cuda.get_current_stream().ptr)


def _workspace(shape: tuple) -> dict | None:
    """The scratch buffers kept by the last call of this thread, if of this shape and stream."""
    kept = getattr(_LOCAL, "ws", None)
    if kept is not None and kept[0] == (_stream_key(), shape):
        return kept[1]
    return None


def _keep_workspace(shape: tuple, ws: dict) -> None:
    _LOCAL.ws = ((_stream_key(), shape), ws)


def release_workspace() -> None:
    """Free the scratch buffers that GPU SSSP calls of this thread keep for the next call.

    Examples
    --------
    >>> release_workspace()
    """
    _LOCAL.ws = None


def _coop_limit(kernel: Any) -> int:
    """Co-resident blocks of ``kernel`` (the cooperative grid limit), cached per device."""
    from ...gpu.launch import max_cooperative_blocks

    key = (_stream_key()[0], int(kernel.ptr))
    if key not in _COOP:
        _COOP[key] = max_cooperative_blocks(kernel, BLOCK)
    return _COOP[key]


def _cycle_from(pred: np.ndarray, x: int) -> list[int] | None:
    """The cycle reached by walking predecessors from ``x`` (in arc order), or None."""
    n = pred.size
    p = np.where(pred < 0, n, pred).astype(np.int64)
    p = np.append(p, n)  # n: the root sentinel
    y, q, steps = x, p, n
    while steps:  # y = p^n(x) by repeated squaring: on the cycle if there is one
        if steps & 1:
            y = int(q[y])
        q = q[q]
        steps >>= 1
    if y == n:
        return None
    cycle = [y]
    z = int(p[y])
    while z != y and len(cycle) <= n:
        cycle.append(z)
        z = int(p[z])
    return cycle[::-1] if z == y else None


def sssp_gpu(
    indptr: Any,
    indices: Any,
    weights: Any,
    sources: Any,
    *,
    method: str = "hbf",
    delta: float | None = None,
    predecessors: bool = False,
    filtering: bool = True,
    directed: bool = True,
    classify: bool | None = None,
    blocks_per_sm: int | None = None,
    stats: list | None = None,
    layout: str = "auto",
    features: Any = None,
    weight_range: tuple[float, float, float] | None = None,
    reuse: bool = True,
    _force_regen: bool = False,
    _far_capacity: int | None = None,
    _spec_kernel: int | None = None,
    fused_sync: bool = True,
    chain: int | None = None,
    claim_limit: int | None = None,
    small_degree: bool | None = None,
) -> tuple[Any, Any]:
    """Shortest-path distances from each of ``sources`` on the GPU (internal backend).

    Parameters
    ----------
    indptr, indices, weights : cupy.ndarray
        A validated CSR (int64 offsets; int32/int64 ids; int32/int64/float32/float64 weights).
    sources : numpy.ndarray
        int64 source ids, in range.
    method : {"hbf", "near_far", "delta"}
        Frontier Bellman-Ford (negative weights allowed), near-far piles, delta-stepping.
    delta : float, optional
        Bucket width (near-far: threshold step); ``None`` picks :func:`auto_delta`.
    predecessors : bool
        Also return a shortest-path tree.
    filtering : bool
        Frontier filtering: duplicate removal in the frontier and already-settled removal from
        the far pile (off: every improvement is queued, stale far entries are re-expanded).
    directed : bool
        Whether the CSR is a directed graph (it stores both arcs of an undirected one).
    classify : bool, optional
        Mark H-BF's edge classes in the destination ids (``None``: the rule in the module doc).
    blocks_per_sm : int, optional
        Persistent blocks per SM (default: the rule in the module doc).
    stats : list, optional
        Receives one dict per source (operations, expand iterations, splits, ...).
    layout : {"auto", "split", "packed"}
        State layout for 32-bit keys without predecessors and negative weights: ``"split"``
        (4-byte keys, separate stamps) or ``"packed"`` (H-BF's ``(distance, stamp)`` word);
        ``"auto"``: ``AUTO_LAYOUT``. Other calls have one layout each; this is ignored there.
    features : int, iterable of str or None
        Features of the packed and split layouts (names of ``FEATURES`` or their bit mask);
        ``None``: ``DEFAULT_FEATURES``, of which those that apply (``done`` only with the split
        layout and not with delta-stepping, ``skip1`` only for undirected graphs, ``defer``
        only with the packed layout, ``spec``, ``pref`` and ``ilp2`` only for H-BF on the
        packed layout, ``pref`` and ``ilp2`` only with ``spec``).
    weight_range : (min, max, mean), optional
        The weights' statistics when the caller knows them (skips one pass over the weights).
    reuse : bool
        Keep the scratch buffers for the next call of the same shape (on this thread, device and
        stream); off: allocate them for this call only.
    _force_regen, _far_capacity
        Tests only: rebuild every expanded frontier from the stamps (the queue-overflow path);
        a smaller far pile (the far-overflow path, which rescans all vertices).
    _spec_kernel
        Benchmarks and tests: the build of the H-BF-only kernel (``SPEC_KERNELS``) that
        ``spec`` uses instead of ``SPEC_KERNEL``.
    fused_sync : bool
        The counter-fused operation barrier (off: the previous grid barrier + counter read).
    chain : int, optional
        Rounds of chained expansion per warp and operation (near-far on the packed layout with
        ``qbuf`` and filtering; elsewhere ignored); ``None``: ``CHAIN_ROUNDS`` on graphs of
        fewer than ``SPARSE_DEGREE`` arcs per vertex, else off; 0: off.
    claim_limit : int, optional
        Operations with at most this many small frontier vertices relax by atomicMin without a
        read of the target first (packed layout); ``None``: ``CLAIM_LIMIT``; 0: never.
    small_degree : bool, optional
        Near-far and delta-stepping on sparse graphs: check once that every out-degree is below
        256, so that near pushes read no degree (``None``: on; False: off).

    Returns
    -------
    dist : cupy.ndarray, shape (k, n)
        int64 for integer weights (unreachable: ``np.iinfo(np.int64).max``), else the weight
        dtype (unreachable: ``inf``).
    pred : cupy.ndarray of int64, shape (k, n), or None
        Predecessor on a shortest path; -1 for sources and unreachable vertices.

    Raises
    ------
    InvalidArgumentError
        Unknown method, bad delta, negative weights with ``near_far``/``delta``, NaN weights,
        integer weights too large for 64-bit distances.
    NegativeCycleError
        A negative cycle is reachable from a source (vertex and cycle given).

    Examples
    --------
    >>> import cupy as cp  # doctest: +SKIP
    >>> ip, ix = cp.array([0, 1, 2, 2]), cp.array([1, 2], cp.int32)  # doctest: +SKIP
    >>> sssp_gpu(ip, ix, cp.array([4, 5]), np.array([0]))[0].get().tolist()  # doctest: +SKIP
    [[0, 4, 9]]
    """
    from ...device import check_device_memory, cupy
    from ...gpu.launch import launch, launch_cooperative, sm_count

    cp = cupy()
    if method not in METHODS:
        raise InvalidArgumentError(f"method must be one of {', '.join(METHODS)}, got {method!r}")
    if layout not in LAYOUTS:
        raise InvalidArgumentError(f"layout must be one of {', '.join(LAYOUTS)}, got {layout!r}")
    n = int(indptr.size) - 1
    m = int(indices.size)
    sources = np.asarray(sources, dtype=np.int64).reshape(-1)
    k = int(sources.size)
    wdt = np.dtype(weights.dtype)
    out_dtype = np.dtype(np.int64) if wdt.kind in "iu" else wdt
    track = bool(predecessors)
    dist = cp.empty((k, n), dtype=out_dtype)
    pred = cp.empty((k, n), dtype=np.int64) if track else None
    if k == 0 or n == 0:
        return dist, pred
    wide_ids = n >= 2**31 - 1
    if indices.dtype != np.int32 and not wide_ids:
        indices = indices.astype(np.int32)
    vt = "long long" if wide_ids else "int"
    if wide_ids:
        indices = indices.astype(np.int64, copy=False)
        _declare(vt)

    # 1. weights: range, sign, mean
    if weight_range is not None and _range_usable(weight_range, wdt):
        wmin, wmax, wmean = weight_range
    else:
        wmin, wmax, wsum = weight_stats(weights)
        wmean = wsum / max(m, 1)
    if wdt.kind == "f" and (math.isnan(wmin) or math.isnan(wmax)):
        raise InvalidArgumentError("weights contain NaN")
    has_neg = bool(wmin < 0)
    if has_neg and method != "hbf":
        raise InvalidArgumentError(
            f"method={method!r} needs non-negative weights (minimum weight {wmin}); "
            "use method='hbf' for negative weights"
        )
    track = track or has_neg
    wt, mode, low, negb = _plan_layout(wdt, wmin, wmax, n, track, wide_ids, layout)
    if np.dtype(_W[wt]) != wdt:
        weights = weights.astype(_W[wt])
    integer = wt in ("int", "long long")
    if method == "hbf":
        dval = 0
    elif delta is None:
        dval = auto_delta(wmean, n, m, integer)
    else:
        try:
            dval = float(delta)
        except (TypeError, ValueError):
            raise InvalidArgumentError(f"delta must be a positive number, got {delta!r}") from None
        if not (dval > 0 and math.isfinite(dval)):
            raise InvalidArgumentError(f"delta must be a positive finite number, got {delta!r}")
        if integer:
            dval = max(1, math.ceil(dval))

    # 2. edge classes
    if classify is None:
        classify = bool(directed and m and int((cp.diff(indptr) == 0).sum()) * 10 >= n)
    classify = bool(classify) and m > 0 and (wide_ids or n < 2**30)
    if classify:
        indeg = None
        if directed:
            indeg = cp.zeros(n, dtype=np.int32)
            launch(get_kernel(SOURCE, f"sssp_indegree<{vt}>"), m, [indices, m, indeg])
        marked = cp.empty_like(indices)
        ck = get_kernel(SOURCE, f"sssp_classify<{vt}, {wt}>")
        launch(ck, m // 8 + 1, [indptr, indices, weights, indeg, n, int(directed), int(has_neg),
                                marked])  # fmt: skip
        indices = marked
        del indeg

    # 3. features and buffers
    feats = 0
    if mode in (SPLIT, PACK):
        feats = _feature_bits(features)
        if method == "delta" or mode == PACK:  # see FEATURES
            feats &= ~FEATURES["done"]
        if directed:
            feats &= ~FEATURES["skip1"]
        if mode != PACK:
            feats &= ~PACK_ONLY
        if method != "hbf" or not feats & FEATURES["spec"]:
            feats &= ~(FEATURES["spec"] | SPEC_ONLY)
        if features is None and method == "delta":  # measured slower there (docs/SSSP.md)
            feats &= ~FEATURES["defer"]
    V = np.dtype(np.int64 if wide_ids else np.int32)
    near_far = method != "hbf"
    qcap, ccap = max(n, 1), 2 * (m // CHUNK) + 2
    fcap = 2 * max(n, 1) if near_far else 1
    if near_far and _far_capacity is not None:
        fcap = max(1, min(fcap, int(_far_capacity)))
    words = 2 * n if mode == WIDE_PRED else (n + 1) // 2 if mode == SPLIT else n
    done = bool(feats & FEATURES["done"])
    ndone = m // CHUNK + 1
    shape = (n, m, V.str, mode, method, fcap, words, done)
    ws = _workspace(shape) if reuse else None
    if ws is None:
        if reuse:
            release_workspace()  # the kept buffers of another shape go first
        need = 8 * words + 2 * qcap * V.itemsize + 16 * ccap + 2 * fcap * V.itemsize
        need += 4 * n * ((mode != PACK or near_far) + (method == "delta"))
        need += (n * V.itemsize + 8 * ccap) if method == "delta" else 0
        need += 4 * (n + ndone) if done else 0
        check_device_memory(need, what=f"SSSP buffers ({n} vertices, {m} arcs)")
        ws = {
            "word": cp.empty(max(words, 1), dtype=np.uint64),
            "stamp": cp.empty(n, dtype=np.uint32) if (mode != PACK or near_far) else None,
            "rstamp": cp.empty(n, dtype=np.uint32) if method == "delta" else None,
            "q0": cp.empty(qcap, V),
            "q1": cp.empty(qcap, V),
            "c0": cp.empty(ccap, np.uint64),
            "c1": cp.empty(ccap, np.uint64),
            "far0": cp.empty(fcap, V) if near_far else None,
            "far1": cp.empty(fcap, V) if near_far else None,
            "rq": cp.empty(n, V) if method == "delta" else None,
            "rc": cp.empty(ccap, np.uint64) if method == "delta" else None,
            "ctl": cp.zeros(CTL_WORDS, np.uint64),
            "bar": cp.zeros(2, np.uint64),
            "done": cp.empty(n, dtype=np.uint32) if done else None,
            "cdone": cp.empty(ndone, dtype=np.uint32) if done else None,
            "cfg_host": None,
            "cfg": None,
        }
        if reuse:
            _keep_workspace(shape, ws)
    word, stamp, ctl = ws["word"], ws["stamp"], ws["ctl"]
    status = cp.empty((k, 8), np.uint64)  # every entry written by sssp_output

    cfg = np.zeros(C_WORDS, np.int64)
    cfg[C_N], cfg[C_QCAP], cfg[C_CCAP], cfg[C_FCAP] = n, qcap, ccap, fcap
    cfg[C_METHOD], cfg[C_FILTER], cfg[C_CLASSIFY] = METHODS[method], int(filtering), int(classify)
    if integer:
        cfg[C_DELTA], cfg[C_NEGB] = int(dval), int(negb)
    else:
        cfg[C_DELTA] = np.array([float(dval)]).view(np.int64)[0]
        cfg[C_NEGB] = np.array([float(negb)]).view(np.int64)[0]
    cfg[C_LOW], cfg[C_HASNEG] = low, int(has_neg)
    # H-BF needs at most n + 1 expand operations without a negative cycle; near-far and
    # delta-stepping end in far fewer than this bound, which only guards against a bug
    cfg[C_MAXOPS] = 4 * n + 64 if method == "hbf" else 2**31 - 16
    cfg[C_FORCE] = int(bool(_force_regen))
    cfg[C_FEATURES], cfg[C_CDONE] = feats, ndone
    cfg[C_FUSED] = int(bool(fused_sync))
    # chaining pays on sparse deep graphs (grid 2048: 4,648 -> 989 operations, 31 -> 15 ms) and
    # costs on scale-free ones (Kronecker 22 near-far on an H100: 10.7 ms against 8.0 ms)
    sparse = m < SPARSE_DEGREE * n
    cfg[C_CHAIN] = (CHAIN_ROUNDS if sparse else 0) if chain is None else max(0, int(chain))
    cfg[C_CLAIM] = CLAIM_LIMIT if claim_limit is None else max(0, int(claim_limit))
    if near_far and m < SPARSE_DEGREE * n and small_degree is not False and m > 0:
        cfg[C_SMALLDEG] = int(int(cp.diff(indptr).max()) < BIG_DEG)
    if ws["cfg_host"] is None or not np.array_equal(ws["cfg_host"], cfg):
        ws["cfg"], ws["cfg_host"] = cp.asarray(cfg), cfg
    cfg_d = ws["cfg"]

    # 4. kernels and grid
    opt = 0
    if feats & FEATURES["spec"]:  # the H-BF-only kernel
        opt = SPEC_KERNEL if _spec_kernel is None else int(_spec_kernel)
        if opt not in SPEC_KERNELS:
            raise InvalidArgumentError(f"_spec_kernel must be one of {SPEC_KERNELS}, got {opt}")
    run = get_kernel(SOURCE, f"sssp_persistent<{vt}, {wt}, {mode}, {opt}>", cooperative=True)
    ot = _OUT[wt]
    outk = get_kernel(SOURCE, f"sssp_output<{wt}, {mode}, {ot}>")
    limit = _coop_limit(run)
    if blocks_per_sm is None and near_far and m < SPARSE_DEGREE * n:
        blocks_per_sm = 1
    blocks = limit if blocks_per_sm is None else max(1, min(limit, blocks_per_sm * sm_count()))
    odt = np.dtype(_W[ot] if ot != "long long" else np.int64)
    dist_k = dist if odt == out_dtype else cp.empty((k, n), dtype=odt)

    # 5. one persistent launch per source
    args = [indptr, indices, weights, word, stamp, ws["rstamp"], ws["q0"], ws["q1"], ws["c0"],
            ws["c1"], ws["far0"], ws["far1"], ws["rq"], ws["rc"], ctl, ws["bar"], cfg_d,
            ws["done"], ws["cdone"]]  # fmt: skip
    for i, s in enumerate(sources.tolist()):
        ctl.fill(0)
        launch_cooperative(run, [*args, int(s)], block=BLOCK, blocks=blocks)
        launch(outk, n, [word, n, cfg_d, dist_k, pred, ctl, status, i], block=BLOCK)
        if has_neg:
            st = ctl[32:34].get()
            if int(st[0]) == ST_NEGCYCLE:
                _raise_negative_cycle(word, mode, n, int(st[1]) - 1)
    st_host = status.get()
    if stats is not None:
        stats.extend({name: int(v) for name, v in zip(STAT_NAMES, row, strict=True)}
                     for row in st_host)  # fmt: skip
    for row in st_host:
        if int(row[0]) != ST_DONE:
            raise WarpgraphError(
                f"GPU SSSP stopped with status {int(row[0])} after {int(row[2])} operations "
                "(internal error: please report it)"
            )
    if dist_k is not dist:
        dist[...] = dist_k
    if not predecessors:
        pred = None
    return dist, pred


def _raise_negative_cycle(word: Any, mode: int, n: int, x: int) -> None:
    w = word.get()
    if mode == PACK_PRED:
        p = (w & np.uint64(0xFFFFFFFF)).astype(np.int64)
        p[p == 0xFFFFFFFF] = -1
    else:
        p = w[1::2].view(np.int64).copy()
    cycle = _cycle_from(p, x)
    if cycle is None:  # float rounding kept the walk acyclic: name the flagged vertex
        raise NegativeCycleError(x)
    raise NegativeCycleError(cycle[0], cycle)
