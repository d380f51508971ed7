"""Strongly connected components on the GPU: the multi-step scheme (kernels in ``scc.cu``) and
the max-signature scheme (``method="ecl"``, one persistent kernel in ``scc_ecl.cu``).

The phases and their options are those of :mod:`.scc_config` and :mod:`.scc_cpu` (same state
arrays, same rules); here every step is a kernel launch. Host round trips are few:

* trimming: ``trim_iterations`` passes are launched back to back (``TRIM_FULL`` reads a
  "removed" flag every ``sync_interval`` passes);
* quadratic and virtual-warp closures and the quadratic colour propagation launch
  ``sync_interval`` steps, each with its own "changed" flag, then read the flags once;
* linear closures and the queue-based colour propagation read the frontier length on the
  device (``scc_reach_push``/``scc_color_push``), so ``sync_interval`` levels are launched
  before the host reads one length;
* the hybrid closure reads the frontier length and its arc count after each step (it must
  choose the direction); it runs for a handful of levels on scale-free graphs;
* one read of the number of active vertices after trimming, after each FB round and after
  each coloring round.

``method="ecl"`` is one cooperative launch for the whole decomposition (every round and level
separated by grid barriers, :mod:`.scc_config` describes the scheme) and one read of its
counters at the end. ``method="auto"`` runs it on road-like graphs
(:func:`~.scc_config.auto_scc_method`), the multi-step scheme on the others.

Examples
--------
>>> import cupy as cp  # doctest: +SKIP
>>> lab = scc_gpu(cp.asarray([0, 1, 2, 2]), cp.asarray([1, 0], dtype=cp.int32), 3)  # doctest: +SKIP
>>> lab.tolist()  # doctest: +SKIP
[1, 1, 2]
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ...device import cupy
from ...errors import InvalidArgumentError, WarpgraphError
from ...gpu.launch import launch, launch_cooperative, max_cooperative_blocks, sm_count
from ...gpu.loader import declare, get_kernel
from .scc_config import (
    GPU_SCC_METHODS,
    PIVOTS,
    TRIM_FULL,
    SCCConfig,
    auto_scc_config,
    auto_scc_method,
    method_config,
    scc_graph_stats,
)

__all__ = ["scc_gpu", "transpose_gpu"]

SOURCE = "scc.cu"
_PLAIN = (
    "scc_trim1",
    "scc_trim2_decide",
    "scc_trim2_apply",
    "scc_pivot_best",
    "scc_pivot_pick",
    "scc_mark_pivots",
    "scc_mark_roots",
    "scc_reach_q",
    "scc_reach_push",
    "scc_reach_pull",
    "scc_fb_newid",
    "scc_fb_update",
    "scc_color_init",
    "scc_color_q",
    "scc_color_push",
    "scc_color_update",
    "scc_transpose",
)
_VW = (1, 2, 4, 8, 16, 32)
ALPHA = 15  # hybrid: pull once the frontier's arcs exceed 1/ALPHA of all arcs (Beamer)
BETA = 24  # hybrid: push again once a pull sweep reaches fewer than n/BETA vertices
TRANSPOSE_HUB = 1024  # transpose: rows of this many arcs are scattered by a block (64x: the grid)


def _ctype(dtype) -> str:
    return "int" if np.dtype(dtype) == np.int32 else "long long"


def _names(ct: str) -> list[str]:
    vw = [f"scc_reach_vw<{ct}, {w}>" for w in _VW]
    return [f"{k}<{ct}>" for k in _PLAIN] + vw + [f"scc_reach_hubs<{ct}, {m}>" for m in (0, 1, 2)]


declare(SOURCE, *_names("int"))

ECL_SOURCE = "scc_ecl.cu"
ECL_BLOCK = 512  # threads per block of scc_ecl (its ECL_BLOCK macro)
ECL_BLOCKS_PER_SM = 1
"""Blocks per SM of the persistent ``scc_ecl`` grid (capped by occupancy): one is the cheapest
barrier, and most levels of high-diameter graphs are thin."""
declare(ECL_SOURCE, "scc_ecl<int>")


class _Kernels:
    """The compiled kernels for one id type; ``k.name`` is ``scc_name<V>``."""

    def __init__(self, dtype) -> None:
        self.ct = _ctype(dtype)

    def __getattr__(self, name: str):
        k = get_kernel(SOURCE, f"scc_{name}<{self.ct}>")
        setattr(self, name, k)
        return k

    def vw(self, width: int):
        return get_kernel(SOURCE, f"scc_reach_vw<{self.ct}, {int(width)}>")

    def hubs(self, mode: int):
        return get_kernel(SOURCE, f"scc_reach_hubs<{self.ct}, {int(mode)}>")


def transpose_gpu(indptr: Any, indices: Any, n: int) -> tuple[Any, Any]:
    """``(rindptr, rindices)`` of the reversed arcs on the device (rows in no particular order).

    Examples
    --------
    >>> rp, ri = transpose_gpu(cp.asarray([0, 2, 3, 3]), cp.asarray([1, 2, 2]), 3)  # doctest: +SKIP
    >>> rp.tolist()  # doctest: +SKIP
    [0, 0, 1, 3]
    """
    cp = cupy()
    rindptr = cp.zeros(n + 1, dtype=cp.int64)
    if indices.shape[0]:
        cp.cumsum(cp.bincount(indices, minlength=n), out=rindptr[1:])
    cursor = rindptr[:-1].copy()
    rindices = cp.empty(indices.shape[0], dtype=indices.dtype)
    k = _Kernels(indices.dtype)
    hubs, cnt = cp.empty(n, dtype=indices.dtype), cp.zeros(2, dtype=cp.uint64)
    launch(k.transpose, n, (indptr, indices, n, cursor, rindices, TRANSPOSE_HUB, hubs, cnt))
    # rows of TRANSPOSE_HUB+ arcs were deferred: one block each, the grid for the longest
    args = (indptr, indices, n, None, None, hubs, cnt, 0, None, rindices, cursor.view(cp.uint64))
    launch(k.hubs(2), n, (*args, None))
    return rindptr, rindices


class _Run:
    """One decomposition: device arrays and the phase drivers."""

    def __init__(self, indptr, indices, rindptr, rindices, n: int, cfg: SCCConfig) -> None:
        cp = self.cp = cupy()
        self.n, self.cfg = n, cfg
        self.fw = (indptr, indices)
        self.bw = (rindptr, rindices)
        self.m = int(indices.shape[0])
        self.vt = indices.dtype
        self.k = _Kernels(self.vt)
        self.part = cp.zeros(n, dtype=self.vt)  # one subgraph, id 0
        self.label = cp.full(n, -1, dtype=self.vt)
        self.fmark = cp.zeros(n, dtype=cp.uint32)
        self.bmark = cp.zeros(n, dtype=cp.uint32)
        self.flags = cp.zeros(cfg.sync_interval, dtype=cp.uint32)
        self.lens = cp.zeros(cfg.sync_interval + 1, dtype=cp.uint64)
        self.count = cp.zeros(2, dtype=cp.uint64)  # [0]: vertices left / queue length, [1]: arcs
        self.queues = [cp.empty(n, dtype=self.vt) for _ in range(3)]
        self.hub = cfg.hub_degree
        self.hubs = cp.empty(n, dtype=self.vt)  # deferred hubs of one step (scc_reach_hubs)
        self.hubc = cp.zeros(2 * (cfg.sync_interval + 1), dtype=cp.uint64)
        self.stats: dict[str, Any] = {}

    def steps(self, what: str):
        """Batch counter of a fixed-point loop: every batch but the last changes something, so
        a loop past ``n + 2`` batches is a bug (an error, not a hang). Batches are counted in
        ``stats[what + " batches"]``."""
        key = f"{what} batches"
        for i in range(self.n + 3):
            self.stats[key] = self.stats.get(key, 0) + 1
            yield i
        raise WarpgraphError(f"internal error: the {what} did not reach a fixed point")

    def tally(self, what: str) -> None:
        self.stats[what] = self.stats.get(what, 0) + 1

    # -- trimming
    def trim(self) -> None:
        cfg, n, k = self.cfg, self.n, self.k
        args = (*self.fw, *self.bw, n, self.part, self.label)
        if cfg.trim_iterations == TRIM_FULL:
            self.trim_full()
        else:
            for _ in range(cfg.trim_iterations):
                launch(k.trim1, n, (*args, self.flags[:1]))
        if cfg.trim2 and cfg.trim_iterations != 0:
            launch(k.trim2_decide, n, args)
            launch(k.trim2_apply, n, (n, self.part, self.label))

    def trim_full(self) -> None:
        """Trim-1 to a fixed point (batches of ``sync_interval`` passes per host check)."""
        n, k, K = self.n, self.k, self.cfg.sync_interval
        args = (*self.fw, *self.bw, n, self.part, self.label)
        for _ in self.steps("trim"):
            self.flags.fill(0)
            for i in range(K):
                launch(k.trim1, n, (*args, self.flags[i : i + 1]))
            if int(self.flags[-1]) == 0:
                return

    def active(self) -> int:
        return int(self.cp.count_nonzero(self.part >= 0))

    # -- closures
    def reach(self, fw: bool, group, mark, src, src_len, traversal: str) -> None:
        """Mark everything reachable from ``src[:src_len]`` (already marked 1) in its group,
        along the arcs (``fw``) or against them."""
        ptr, idx = self.fw if fw else self.bw
        n, k, K = self.n, self.k, self.cfg.sync_interval
        if traversal in ("quadratic", "virtual_warp"):
            if traversal == "quadratic":
                kern, work = k.reach_q, n
            else:
                vw = self.cfg.virtual_warp
                kern, work = k.vw(vw), n * vw
            cur, nxt = 1, 2
            for _ in self.steps("closure"):
                self.flags.fill(0)
                self.hubc.fill(0)
                for i in range(K):
                    flag, hc = self.flags[i : i + 1], self.hubc[2 * i : 2 * i + 2]
                    hubs = (self.hub, self.hubs, hc)
                    launch(kern, work, (ptr, idx, n, group, mark, cur, nxt, flag, *hubs))
                    if self.hub:
                        args = (ptr, idx, n, group, mark, self.hubs, hc, nxt, flag, None, None)
                        launch(k.hubs(0), n, (*args, None))
                    cur, nxt = nxt, cur
                if int(self.flags[-1]) == 0:
                    return
        outs = (self.queues[1], self.queues[2])  # src (queues[0]) stays intact
        cur, j = src, 0
        if traversal == "linear":
            lens = self.lens
            lens.fill(0)
            lens[0:1] = src_len
            for _ in self.steps("closure"):
                self.hubc.fill(0)
                for i in range(K):
                    out = outs[j % 2]
                    self.push_step(
                        ptr,
                        idx,
                        group,
                        mark,
                        cur,
                        lens[i : i + 1],
                        out,
                        lens[i + 1 : i + 2],
                        self.hubc[2 * i : 2 * i + 2],
                    )
                    cur, j = out, j + 1
                if int(lens[K]) == 0:
                    return
                lens[0:1] = lens[K : K + 1]
                lens[1:] = 0
        # hybrid: push levels while the frontier is light, pull sweeps while it is heavy
        rptr, ridx = self.bw if fw else self.fw
        cnt = self.count
        nf = int(src_len[0])
        scout = int((ptr[src[:nf] + 1] - ptr[src[:nf]]).sum()) if nf else 0
        pulling = False
        qlen = self.lens[:1]
        qlen[...] = src_len
        for _ in self.steps("closure"):
            if nf == 0:
                return
            cnt.fill(0)
            out = outs[j % 2]
            if (nf * BETA >= n) if pulling else (scout * ALPHA > self.m):
                pulling = True
                launch(k.reach_pull, n, (rptr, ridx, n, group, mark, out, cnt[0:1]))
            else:
                pulling = False
                self.hubc.fill(0)
                self.push_step(ptr, idx, group, mark, cur, qlen, out, cnt[0:1], self.hubc[:2])
            nf, scout = (int(x) for x in self.cp.asnumpy(cnt))
            qlen[...] = cnt[0:1]
            cur, j = out, j + 1

    def push_step(self, ptr, idx, group, mark, cur, cur_len, out, out_len, hc) -> None:
        """One linear step: ``scc_reach_push``, then ``scc_reach_hubs`` for the deferred hubs
        (arcs of the claimed vertices added to ``count[1]``)."""
        n, k, scout = self.n, self.k, self.count[1:2]
        args = (ptr, idx, n, group, mark, cur, cur_len, out, out_len, scout)
        launch(k.reach_push, n, (*args, self.hub, self.hubs, hc))
        if self.hub:
            args = (ptr, idx, n, group, mark, self.hubs, hc, 0, None, out, out_len, scout)
            launch(k.hubs(1), n, args)

    # -- forward-backward
    def fb_round(self) -> int:
        cp, n, k, cfg = self.cp, self.n, self.k, self.cfg
        self.tally("fb rounds")
        rule = PIVOTS.index(cfg.pivot)
        best = cp.zeros(n, dtype=cp.uint64)
        pivot = cp.full(n, n, dtype=self.vt)
        launch(k.pivot_best, n, (self.fw[0], self.bw[0], n, self.part, rule, best))
        launch(k.pivot_pick, n, (self.fw[0], self.bw[0], n, self.part, rule, best, pivot))
        del best
        src, src_len = self.queues[0], cp.zeros(1, dtype=cp.uint64)
        launch(k.mark_pivots, n, (n, self.part, pivot, self.fmark, self.bmark, src, src_len))
        self.reach(True, self.part, self.fmark, src, src_len, cfg.fb_traversal)
        self.reach(False, self.part, self.bmark, src, src_len, cfg.fb_traversal)
        newid = cp.full(3 * n, -1, dtype=self.vt)
        launch(k.fb_newid, n, (n, self.part, self.fmark, self.bmark, newid))
        left = self.count[:1]
        left.fill(0)
        args = (n, self.part, self.label, self.fmark, self.bmark, pivot, newid, left)
        launch(k.fb_update, n, args)
        return int(left[0])

    # -- coloring
    def propagate(self, color, stamp, inq) -> None:
        """Max-colour propagation to a fixed point (queue-based or quadratic)."""
        n, k, K = self.n, self.k, self.cfg.sync_interval
        ptr, idx = self.fw
        if inq is None:
            step = 1
            for _ in self.steps("propagation"):
                self.flags.fill(0)
                for i in range(K):
                    flag = self.flags[i : i + 1]
                    launch(k.color_q, n, (ptr, idx, n, self.part, color, stamp, step, flag))
                    step += 1
                if int(self.flags[-1]) == 0:
                    return
        lens = self.lens
        q = self.queues
        cur, a, b = q[0], q[1], q[2]
        for _ in self.steps("propagation"):
            for i in range(K):
                args = (
                    ptr,
                    idx,
                    self.part,
                    color,
                    inq,
                    cur,
                    lens[i : i + 1],
                    a,
                    lens[i + 1 : i + 2],
                )
                launch(k.color_push, n, args)
                cur, a, b = a, b, cur
            if int(lens[K]) == 0:
                return
            lens[0:1] = lens[K : K + 1]
            lens[1:] = 0

    def coloring(self) -> None:
        cp, n, k, cfg = self.cp, self.n, self.k, self.cfg
        color = cp.empty(n, dtype=self.vt)
        stamp = cp.empty(n, dtype=cp.int32)
        queued = cfg.coloring_traversal in ("linear", "hybrid")
        inq = cp.zeros(n, dtype=cp.uint32) if queued else None
        lens = self.lens
        before = self.active()
        while True:
            self.tally("coloring rounds")
            lens.fill(0)
            q0 = self.queues[0] if queued else None
            launch(k.color_init, n, (n, self.part, color, stamp, inq, q0, lens[0:1]))
            self.propagate(color, stamp, inq)
            src, src_len = self.queues[0], cp.zeros(1, dtype=cp.uint64)
            launch(k.mark_roots, n, (n, color, self.bmark, src, src_len))
            self.reach(False, color, self.bmark, src, src_len, cfg.coloring_traversal)
            left = self.count[:1]
            left.fill(0)
            launch(k.color_update, n, (n, self.part, self.label, color, self.bmark, left))
            now = int(left[0])
            if now == 0:
                return
            # Peel what the round left without a cycle (a path loses one vertex per coloring
            # round: n rounds of n steps; trimming removes it in n / 2 passes).
            self.trim_full()
            now = self.active()
            if now == 0:
                return
            if now >= before:
                raise WarpgraphError(f"internal error: a coloring round left {now} of {before}")
            before = now

    # -- max-signature scheme (ECL-SCC style), one persistent kernel
    def ecl(self) -> None:
        cp, n, cfg = self.cp, self.n, self.cfg
        k = get_kernel(ECL_SOURCE, f"scc_ecl<{self.k.ct}>", cooperative=True)
        blocks = max(1, min(max_cooperative_blocks(k, ECL_BLOCK), ECL_BLOCKS_PER_SM * sm_count()))
        vin = cp.empty(n, dtype=cp.uint64)
        vout = cp.empty(n, dtype=cp.uint64)
        ctl = cp.zeros(16, dtype=cp.uint64)
        # queue stamps: the (zero) closure marks; queues: the three queues and the hub list
        queues = (*self.queues, self.hubs)
        max_rounds = n + 2  # every round finishes a vertex: more is a bug
        trim = int(cfg.trim_iterations != 0)
        args = (*self.fw, *self.bw, n, self.part, self.label, vin, vout, self.fmark, self.bmark)
        launch_cooperative(
            k, (*args, *queues, ctl, cfg.chase, trim, max_rounds), block=ECL_BLOCK, blocks=blocks
        )
        c = [int(x) for x in cp.asnumpy(ctl)]
        self.stats.update(ecl_rounds=c[10], ecl_levels=c[11], ecl_blocks=blocks)
        if c[10] >= max_rounds:
            raise WarpgraphError(f"internal error: the signature scheme left {c[12]} vertices")


def scc_gpu(
    indptr: Any,
    indices: Any,
    n: int,
    *,
    method: str = "auto",
    config: SCCConfig | None = None,
    rindptr: Any = None,
    rindices: Any = None,
    stats: dict[str, Any] | None = None,
):
    """Strongly connected components of a directed CSR graph on the GPU.

    Parameters
    ----------
    indptr, indices : cupy.ndarray
        Out-arc CSR on the device (``indptr`` int64, ``indices`` int32 or int64; NumPy arrays
        are copied over). Self-loops and repeated arcs are allowed.
    n : int
        Number of vertices.
    method : str
        ``"auto"`` (:func:`~.scc_config.auto_scc_method`: ``"ecl"`` on road-like graphs,
        else ``"multistep"``) or one of :data:`~.scc_config.GPU_SCC_METHODS` (Tarjan is CPU
        only).
    config : SCCConfig, optional
        Phase parameters; default :func:`~.scc_config.auto_scc_config` for the GPU.
    rindptr, rindices : cupy.ndarray, optional
        In-arc CSR (``Graph.reverse_csr()`` of a GPU graph); built here when absent.
    stats : dict, optional
        Filled with what ran: ``method`` and ``config`` (as a dict), and counts of rounds and
        host-checked batches (``"fb rounds"``, ``"coloring rounds"``, ``"trim batches"``,
        ``"closure batches"``, ``"propagation batches"``; ``ecl_rounds`` and ``ecl_levels``
        for ``"ecl"``). For benchmarks and diagnosis.

    Returns
    -------
    cupy.ndarray
        int64 label per vertex, equal exactly within an SCC; each label is a vertex id of its SCC.

    Raises
    ------
    InvalidArgumentError
        Unknown method, wrong config type or inconsistent arrays.
    DeviceUnavailableError
        No CuPy or no GPU.

    Examples
    --------
    >>> import cupy as cp  # doctest: +SKIP
    >>> ptr, idx = cp.asarray([0, 1, 2, 2]), cp.asarray([1, 0])  # doctest: +SKIP
    >>> lab = scc_gpu(ptr, idx, 3, method="fb")  # doctest: +SKIP
    >>> bool(lab[0] == lab[1]), int(lab[2])  # doctest: +SKIP
    (True, 2)
    """
    if method != "auto" and method not in GPU_SCC_METHODS:
        raise InvalidArgumentError(
            f"GPU method must be 'auto' or one of {GPU_SCC_METHODS}, got {method!r}"
        )
    if config is not None and not isinstance(config, SCCConfig):
        raise InvalidArgumentError(f"config must be an SCCConfig, got {type(config).__name__}")
    cp = cupy()
    n = int(n)
    indptr, indices = _as_csr(cp, indptr, indices, n, "")
    if n == 0:
        return cp.empty(0, dtype=cp.int64)
    gstats = scc_graph_stats(indptr, n) if method == "auto" or config is None else None
    if method == "auto":
        method = auto_scc_method(indptr, n, "gpu", stats=gstats)
    cfg = auto_scc_config(indptr, indices, n, "gpu", stats=gstats) if config is None else config
    if rindptr is None or rindices is None:
        rindptr, rindices = transpose_gpu(indptr, indices, n)
    else:
        rindptr, rindices = _as_csr(cp, rindptr, rindices, n, "reverse ")
        if rindices.dtype != indices.dtype:
            rindices = rindices.astype(indices.dtype)
    run = _Run(indptr, indices, rindptr, rindices, n, cfg)
    if stats is not None:
        run.stats = stats
        stats.update(method=method, config=cfg.as_dict())
    if method == "ecl":
        run.ecl()
        return run.label.astype(cp.int64)
    run.trim()
    fb_rounds, coloring = method_config(method, cfg)
    left = run.active()
    i = 0
    while left > 0 and fb_rounds != 0 and (fb_rounds < 0 or i < fb_rounds):
        left = run.fb_round()
        i += 1
    if left > 0 and coloring:
        run.trim_full()  # FB leaves acyclic pieces (a path's two sides) that coloring peels slowly
        left = run.active()
    if left > 0 and coloring:
        run.coloring()
    return run.label.astype(cp.int64)


def _as_csr(cp, indptr: Any, indices: Any, n: int, what: str) -> tuple[Any, Any]:
    indptr = cp.ascontiguousarray(cp.asarray(indptr), dtype=cp.int64)
    indices = cp.ascontiguousarray(cp.asarray(indices))
    if indices.dtype not in (cp.int32, cp.int64):
        indices = indices.astype(cp.int64)
    if indices.dtype == cp.int64 and n < 2**31 - 1:
        indices = indices.astype(cp.int32)
    if indptr.shape != (n + 1,):
        raise InvalidArgumentError(f"{what}indptr must have n + 1 = {n + 1} entries")
    if indices.shape[0] != int(indptr[n]):
        raise InvalidArgumentError(f"{what}indices must have indptr[-1] = {int(indptr[n])} entries")
    return indptr, indices
