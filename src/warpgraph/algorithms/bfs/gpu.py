"""GPU BFS on the frontier engine: buffers, kernel selection and the level loop.

A :class:`GpuBfsPlan` is built once per (graph, configuration): it allocates the status array's
companions (two vertex queues, the degree-bin queues, the edge queue, the prefix-sum buffer, the
hub lists, the control block), writes the configuration words and compiles the kernels of
``gpu/kernels/bfs_level.cu`` / ``bfs_persistent.cu``. :meth:`GpuBfsPlan.run` then does one BFS:

* ``sync="persistent"``: one cooperative launch does everything (initialization included);
* ``sync="level"``: an init launch, then per level one expand launch (plus the prefix sum of
  degrees for merge-path, the filter for the edge queue, the two generation passes for the
  "status" update or after a queue overflow) and one small device-to-host copy of the level's
  counters, from which the host chooses the next direction with the same rule as the kernel.

Importing this module does not import CuPy.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

import numpy as np

from ...errors import InvalidArgumentError
from ...gpu.frontier.options import CHOICES, TraversalOptions
from ...gpu.loader import declare, get_kernel
from ...graph import Graph

__all__ = ["BLOCK", "GpuBfsPlan", "GpuRunInfo"]

BLOCK = 256  # WG_FRONTIER_BLOCK
SLOT_WORDS = 16
CTL_GLOBAL = 3 * SLOT_WORDS
CTL_WORDS = CTL_GLOBAL + 16
HUB_LIST = 1024
GEN_ROWS = 6
S_COUNT, S_DEGSUM, S_HUBS, S_HUBLIST, S_OVERFLOW, S_EDGES = 0, 4, 5, 6, 7, 8
G_DEPTH, G_TD, G_BU, G_REGEN, G_PATH = 0, 1, 2, 3, 4
SINK_EDGE = 3
CLASS_LARGE = 256

# configuration word indices (frontier_bfs.cuh, enum Config)
(C_N, C_ARCS, C_QCAP, C_BIGCAP, C_ECAP, C_UPDATE, C_DEDUP, C_GATHER, C_STATUS, C_DIRECTION,
 C_RULE, C_ALPHA_M, C_BETA_M, C_GAMMA_M, C_TAU, C_TOTAL_HUBS, C_HUB_CACHE, C_SWITCH_BACK,
 C_FRONTIER, C_FORCE_REGEN, C_DEGREE_STATUS, C_XCLASS, C_XDEAL, C_FUSED_SYNC,
 C_CLAIM_LIMIT, C_SYMMETRIC, C_COUNT_BU, C_COUNT_ARCS, C_HAS_IN,
 C_DEAL_LARGE) = range(30)  # fmt: skip
C_WORDS = 32
CLASS_EXTREME = 65536
EXTREME_CAP = 2048  # at most this many vertices in the grid-wide bin (see extreme_threshold)
ARRIVE_SHIFT = 52  # frontier_core.cuh: block arrivals in the counter words' top 12 bits
CLAIM_LIMIT = 1 << 16  # top-down levels of at most this many frontier out-arcs claim directly
# frontier_bfs.cuh's compile-time defaults (WG_BFS_BU_BATCH, WG_BFS_STREAM_BATCH): a plan that
# asks for other values compiles its own persistent kernel with them
BU_BATCH = 1
STREAM_BATCH = 4
TD_BATCH = 1  # frontier_advance.cuh, WG_BFS_TD_BATCH
SMALL_SEARCH = 1  # frontier_advance.cuh, WG_BFS_SMALL_SEARCH
# count-only steps (SINK_COUNT), automatic thresholds: a step that writes no queue saves one
# same-address atomic per warp step and costs a queue generation from the status array (two
# sweeps of n and two grid barriers: ~47 us at n = 2^22 on an H200) only when the next step is
# top-down. Bottom-up steps count while more than n / 16 vertices with in-arcs are unreached
# (Kronecker 22, H200: 0.356 ms against 0.394 ms with n / 4, 0.398 ms counting always, 0.457
# ms never); top-down ones when their frontier has more than max(2^18, n / 16) out-arcs
COUNT_BU_DIV = 16
COUNT_ARCS_MIN, COUNT_ARCS_DIV = 1 << 18, 16
# profile area (frontier_bfs.cuh, enum Prof): after the grid barrier's word in `scratch`
PROF_T0, PROF_T_INIT, PROF_T_LOOP, PROF_T_END, PROF_LEVEL, PROF_LEVELS = 0, 1, 2, 3, 8, 64
PROF_WORDS, PROF_OFFSET = PROF_LEVEL + 4 * PROF_LEVELS, 8

DIRECTIONS = {"auto": 0, "top-down": 1, "bottom-up": 2}
RULES = {"beamer": 0, "enterprise": 1}
_LB = CHOICES["load_balance"]
_PERSISTENT_LB = [i for i, name in enumerate(_LB) if name != "merge-path"]

_CTYPE = {np.dtype(np.int32): "int", np.dtype(np.int64): "long long"}


def _declare(ctype: str) -> None:
    """Declare every kernel of one id type, so that each source compiles once per process."""
    declare("bfs_level.cu", f"bfs_init<{ctype}>", f"bfs_filter_edges<{ctype}>",
            f"bfs_gen_count<{ctype}>", f"bfs_gen_write<{ctype}>",
            f"bfs_frontier_degrees<{ctype}>", f"bfs_finalize<{ctype}>",
            *(f"bfs_level_step<{ctype}, {i}>" for i in range(len(_LB))))  # fmt: skip
    declare("bfs_persistent.cu", *(f"bfs_persistent<{ctype}, {i}>" for i in _PERSISTENT_LB))


# int32 ids at import; int64 ids (graphs of 2**31 vertices or more) on first use
_declare("int")


@dataclass
class GpuRunInfo:
    """What one GPU BFS did: number of levels, steps per direction, queue regenerations and the
    direction of each of the first 64 steps (``"td"``/``"bu"``)."""

    levels: int
    top_down_steps: int
    bottom_up_steps: int
    regenerations: int
    path: list[str]


class _DirState:
    """Host copy of the kernels' direction rule (frontier_bfs.cuh, DirState)."""

    def __init__(self, cfg: np.ndarray, source_degree: int):
        self.cfg = cfg
        self.dir = 0
        self.edges_to_check = int(cfg[C_ARCS])
        self.scout = source_degree
        self.hubs = int(source_degree > cfg[C_TAU])
        self.awake = 1

    def choose(self) -> int:
        cfg = self.cfg
        if cfg[C_DIRECTION] == 1:
            self.dir = 0
        elif cfg[C_DIRECTION] == 2:
            self.dir = 1
        elif self.dir == 0:
            if cfg[C_RULE] == 1:
                go = cfg[C_TOTAL_HUBS] > 0 and self.hubs * 100.0 * 1000.0 > float(
                    cfg[C_GAMMA_M]
                ) * float(cfg[C_TOTAL_HUBS])
            else:
                go = float(self.scout) > float(self.edges_to_check) * 1000.0 / float(cfg[C_ALPHA_M])
            if go:
                self.dir = 1
            else:
                self.edges_to_check -= self.scout
        return self.dir

    def after(self, count: int, degsum: int, hubs: int) -> None:
        cfg = self.cfg
        if self.dir == 1 and cfg[C_DIRECTION] == 0 and cfg[C_SWITCH_BACK]:
            stay = count >= self.awake or count * float(cfg[C_BETA_M]) > float(cfg[C_N]) * 1000.0
            if not stay:
                self.dir, self.scout, self.hubs, self.awake = 0, 1, 0, count
                return
        self.scout, self.hubs, self.awake = degsum, hubs, count


def _kernel(name: str, defines: dict | None, cooperative: bool = False):
    """``bfs_persistent.cu``'s kernel ``name``; with ``defines``, compiled alone with them."""
    if not defines:
        return get_kernel("bfs_persistent.cu", name, cooperative=cooperative)
    import cupy as cp

    from ...gpu.loader import Kernel, get_module, read_source
    from ...gpu.signature import kernel_params

    key = (cp.cuda.runtime.getDevice(), name, tuple(sorted(defines.items())), cooperative)
    k = _VARIANTS.get(key)
    if k is None:
        mod = get_module("bfs_persistent.cu", [name], defines=defines)
        params = kernel_params(read_source("bfs_persistent.cu"), name)
        k = Kernel(mod.get_function(name), name, "bfs_persistent.cu", params, cooperative)
        _VARIANTS[key] = k
    return k


_VARIANTS: dict[tuple, Any] = {}


def extreme_threshold(deg: Any, cap: int = EXTREME_CAP) -> int:
    """Out-degree from which the degree bins expand a vertex with the whole grid.

    The smallest degree with fewer than ``cap`` vertices at or above it, within
    ``[4 * BLOCK, 65536]``: hubs of a few thousand edges no longer serialize one block (a block
    per vertex of the "large" class), and the grid-wide class stays short enough for every
    block to walk it (its edges are dealt to the blocks in equal chunks).

    Examples
    --------
    >>> import numpy as np
    >>> extreme_threshold(np.r_[np.full(10, 5000), np.full(100, 3)], cap=8)
    5001
    >>> extreme_threshold(np.full(10, 3))
    1024
    """
    n = int(deg.shape[0])
    floor = 4 * BLOCK
    if n < cap:
        return floor
    xp = type(deg).__module__.split(".")[0]
    if xp == "cupy":
        import cupy as cp

        top = int(cp.partition(deg, n - cap)[n - cap])
    else:
        top = int(np.partition(deg, n - cap)[n - cap])
    return int(min(max(top + 1, floor), CLASS_EXTREME))


def hub_threshold(deg: Any, cap: int = HUB_LIST) -> int:
    """Out-degree above which a vertex is a hub: about ``cap`` hubs, and never below 32."""
    n = int(deg.shape[0])
    if n == 0:
        return 32
    k = min(cap, n)
    xp = type(deg).__module__.split(".")[0]
    if xp == "cupy":
        import cupy as cp

        top = cp.partition(deg, n - k)[n - k]
    else:
        top = np.partition(deg, n - k)[n - k]
    return max(32, int(top))


class GpuBfsPlan:
    """Buffers and kernels for BFS on one GPU graph with one resolved configuration.

    Parameters
    ----------
    G : Graph
        On the GPU.
    options : TraversalOptions
        Resolved engine strategy (no ``None`` field).
    direction : {"auto", "top-down", "bottom-up"}
    rule : {"beamer", "enterprise"}
    alpha, beta, gamma : float
        Switching parameters (gamma in percent of the hubs).
    hub_threshold : int or None
        Hubs have out-degree above it; ``None`` picks about 1024 hubs.
    hub_cache : bool
        Bottom-up steps probe a shared-memory cache of the frontier's hubs first.
    switch_back : bool
        Bottom-up may return to top-down (Beamer's beta rule).
    barrier : {"auto", "cooperative", "plain"}
        How the persistent kernel is launched: cooperatively (all blocks guaranteed resident) or
        plainly with at most the resident number of blocks; ``"auto"`` prefers the first.
    force_regen : bool
        Tests: rebuild every frontier from the status array (the overflow path).
    edge_capacity : int, optional
        Tests: a smaller edge-queue capacity (the edge-overflow path).
    extreme_degree : int, optional
        Degree bins: out-degree of the grid-wide class (>= 256); ``None``:
        :func:`extreme_threshold` of the degrees.
    deal_extreme : bool
        Degree bins: deal the grid-wide class's edges to the blocks in equal chunks (``False``:
        the whole grid expands one extreme vertex after the other).
    degree_status : bool
        Unvisited vertices hold ``-(out-degree + 1)`` in the status array, so that claiming a
        vertex tells its degree (no indptr read at push time); a last pass writes -1.
    fused_sync : bool
        Persistent mode: the level barrier is fused with the read of the level's counters (each
        block adds its arrival to the counter words and waits on them: one round trip instead of
        a ticket barrier and a read). ``False``: ticket barrier, then one thread reads them.
        Not with the degree bins (their kernel is register-bound: compiled out there) nor for
        grids of 4096 blocks or more.
    claim_limit : int
        Persistent mode: top-down levels whose frontier has at most this many out-arcs claim
        vertices with one ``atomicMin`` on the status array instead of a read and a
        compare-and-swap (dedup ``cas`` only; not with the degree bins); 0 never.
    bu_batch : int
        Persistent mode: vertices per lane and step of the bottom-up sweep (their loads are
        issued together); a value other than the kernels' default compiles its own kernel.
    stream_batch : int
        Persistent mode: items per thread and step of the initialization and the final pass.
    td_batch : int
        Persistent mode: arcs per lane and step of top-down expansions (degree bins, gathering):
        their neighbours, then their statuses are loaded together before the visits.
    small_search : bool
        Degree bins: the small class (degree < 32) expanded by warp-search (32 consecutive arcs
        of the warp's 32 vertices per step) instead of one vertex per lane in lock-step.
    count_bu : bool, int or None
        Persistent mode: bottom-up steps write no queue, they only count (the frontier's size
        per degree class, degree sum, hubs; one atomic per warp), while at least this many
        vertices with in-arcs are unreached (``True``: 1, always; ``False`` or 0: never;
        ``None``: n / 16); the queue is generated from the status array when the next step is
        top-down.
    count_arcs : int or None
        Persistent mode, dedup ``cas``: top-down steps whose frontier has more than this many
        out-arcs only count as well; 0 never; ``None``: ``max(2**18, n / 16)``.
    deal_large : bool
        Degree bins: the large class is dealt to the blocks in chunks (as the grid-wide class)
        at levels where it has fewer vertices than the grid has blocks.
    symmetric_skip : bool
        Batched bottom-up sweeps of undirected graphs with the degree status: a status of -1
        (no arcs) skips the vertex, and the status gives its row's length.
    profile : bool
        Persistent mode: compile the kernel with ``WG_BFS_PROFILE`` (per-level timestamps,
        directions, frontier sizes and arcs examined; read them with :meth:`profile`).
    fast_launch : bool
        Persistent mode: launch through an argument buffer built once with the plan (only the
        results' addresses and the source change per search) instead of converting and checking
        every argument and querying the device at each launch.
    """

    def __init__(
        self,
        G: Graph,
        options: TraversalOptions,
        *,
        direction: str = "auto",
        rule: str = "beamer",
        alpha: float = 15.0,
        beta: float = 18.0,
        gamma: float = 30.0,
        hub_threshold_: int | None = None,
        hub_cache: bool = True,
        switch_back: bool = True,
        barrier: str = "auto",
        force_regen: bool = False,
        edge_capacity: int | None = None,
        extreme_degree: int | None = None,
        deal_extreme: bool = True,
        degree_status: bool = True,
        fused_sync: bool = True,
        claim_limit: int = CLAIM_LIMIT,
        bu_batch: int = BU_BATCH,
        stream_batch: int = STREAM_BATCH,
        td_batch: int = TD_BATCH,
        small_search: bool = bool(SMALL_SEARCH),
        count_bu: bool | int | None = None,
        count_arcs: int | None = None,
        deal_large: bool = True,
        symmetric_skip: bool = True,
        profile: bool = False,
        fast_launch: bool = True,
    ):
        from ...device import check_device_memory, cupy
        from ...gpu.launch import sm_count

        cp = cupy()
        self.cp = cp
        self.G = G
        self.options = options
        codes = options.codes()
        self.lb = codes["load_balance"]
        self.bins = options.load_balance == "bins"
        self.level_mode = options.sync == "level"
        self.edge_frontier = options.frontier == "edge"
        self.update = codes["update"]
        n, arcs = G.num_vertices, G.num_arcs
        self.n = n
        self.dtype = np.dtype(G.indices.dtype)
        self.ctype = _CTYPE[self.dtype]
        self.indptr, self.indices = G.indptr, G.indices
        self.rindptr, self.rindices, _ = G.reverse_csr()
        if self.rindices.dtype != self.dtype:  # a reverse CSR built with the narrowest ids
            self.rindices = self.rindices.astype(self.dtype)
        deg = cp.diff(self.indptr)
        tau = hub_threshold(deg) if hub_threshold_ is None else int(hub_threshold_)
        total_hubs = int((deg > tau).sum())
        bigcap = max(1, int((deg >= CLASS_LARGE).sum())) if self.bins else 1
        if extreme_degree is None:
            xclass = extreme_threshold(deg)
        else:
            xclass = max(CLASS_LARGE, int(extreme_degree))
        self.sms = sm_count()

        V = self.dtype
        need = 2 * max(n, 1) * V.itemsize + 3 * HUB_LIST * V.itemsize
        need += 2 * bigcap * V.itemsize if self.bins else 0
        need += 2 * max(arcs, 1) * V.itemsize if options.frontier == "edge" else 0
        need += 8 * max(n, 1) if options.load_balance == "merge-path" else 0
        need += (n + 7) // 8 if options.status == "bitmask" else 0
        # not {G!r}: its edge count would count self-loops through 16 bytes per arc
        check_device_memory(need, what=f"BFS queues and buffers ({n} vertices, {arcs} arcs)")
        self.q = [cp.empty(max(n, 1), V), cp.empty(max(n, 1), V)]
        self.big = [cp.empty(bigcap, V), cp.empty(bigcap, V)] if self.bins else [None, None]
        self.eu = cp.empty(max(arcs, 1), V) if self.edge_frontier else None
        self.ev = cp.empty(max(arcs, 1), V) if self.edge_frontier else None
        self.pre = cp.empty(max(n, 1), np.int64) if options.load_balance == "merge-path" else None
        self.hubs = cp.empty(3 * HUB_LIST, V)
        self.ctl = cp.zeros(CTL_WORDS, np.uint64)
        self.vis8 = cp.zeros((n + 7) // 8 + 8, np.uint8) if options.status == "bitmask" else None

        cfg = np.zeros(C_WORDS, np.int64)
        cfg[C_N], cfg[C_ARCS], cfg[C_QCAP], cfg[C_BIGCAP] = n, arcs, max(n, 1), bigcap
        cfg[C_ECAP] = max(arcs, 1) if self.edge_frontier else 0
        if edge_capacity is not None:
            cfg[C_ECAP] = min(int(cfg[C_ECAP]), int(edge_capacity))
        cfg[C_FORCE_REGEN] = int(bool(force_regen))
        cfg[C_UPDATE], cfg[C_DEDUP] = codes["update"], codes["dedup"]
        cfg[C_GATHER], cfg[C_STATUS] = codes["gather"], codes["status"]
        cfg[C_DIRECTION], cfg[C_RULE] = DIRECTIONS[direction], RULES[rule]
        cfg[C_ALPHA_M], cfg[C_BETA_M] = round(alpha * 1000), round(beta * 1000)
        cfg[C_GAMMA_M] = round(gamma * 1000)
        cfg[C_TAU], cfg[C_TOTAL_HUBS] = tau, total_hubs
        cfg[C_HUB_CACHE], cfg[C_SWITCH_BACK] = int(bool(hub_cache)), int(bool(switch_back))
        cfg[C_FRONTIER] = codes["frontier"]
        cfg[C_DEGREE_STATUS] = int(bool(degree_status))
        cfg[C_XCLASS], cfg[C_XDEAL] = xclass, int(bool(deal_extreme))
        cfg[C_CLAIM_LIMIT] = max(0, int(claim_limit))
        cfg[C_SYMMETRIC] = int(bool(symmetric_skip) and not G.directed)
        if count_bu is None:
            count_bu = max(1, n // COUNT_BU_DIV)
        cfg[C_COUNT_BU] = max(0, int(count_bu))
        if count_arcs is None:
            count_arcs = max(COUNT_ARCS_MIN, n // COUNT_ARCS_DIV)
        cfg[C_COUNT_ARCS] = max(0, int(count_arcs)) if options.dedup == "cas" else 0
        cfg[C_HAS_IN] = int(cp.count_nonzero(cp.diff(self.rindptr))) if n else 0
        cfg[C_DEAL_LARGE] = int(bool(deal_large))
        defines: dict[str, Any] = {}
        for arg, name, value, default in (
            ("bu_batch", "WG_BFS_BU_BATCH", bu_batch, BU_BATCH),
            ("stream_batch", "WG_BFS_STREAM_BATCH", stream_batch, STREAM_BATCH),
            ("td_batch", "WG_BFS_TD_BATCH", td_batch, TD_BATCH),
            ("small_search", "WG_BFS_SMALL_SEARCH", int(bool(small_search)), SMALL_SEARCH),
        ):
            low = 0 if name == "WG_BFS_SMALL_SEARCH" else 1
            if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= 8:
                raise InvalidArgumentError(f"{arg} must be an int in [{low}, 8], got {value!r}")
            if value != default:
                defines[name] = int(value)
        if profile:
            defines["WG_BFS_PROFILE"] = True
        self.defines = defines
        self.cfg_host = cfg
        self.tau, self.total_hubs = tau, total_hubs
        self.extreme_degree = xclass

        t = self.ctype
        if t != "int":
            _declare(t)
        self.barrier = None
        if self.level_mode:
            self.k_init = get_kernel("bfs_level.cu", f"bfs_init<{t}>")
            self.k_step = get_kernel("bfs_level.cu", f"bfs_level_step<{t}, {self.lb}>")
            self.k_filter = get_kernel("bfs_level.cu", f"bfs_filter_edges<{t}>")
            self.k_degrees = get_kernel("bfs_level.cu", f"bfs_frontier_degrees<{t}>")
            self.k_finalize = get_kernel("bfs_level.cu", f"bfs_finalize<{t}>")
            self.gen_grid = max(1, min(math.ceil(max(n, 1) / BLOCK), 4 * self.sms))
        else:
            from ...gpu.launch import max_cooperative_blocks

            self.k_persistent, self.barrier = self._persistent_kernel(
                f"{t}, {self.lb}", barrier, defines
            )
            limit = max_cooperative_blocks(self.k_persistent, BLOCK)
            want = limit if options.blocks_per_sm is None else options.blocks_per_sm * self.sms
            self.gen_grid = max(1, min(limit, want))
        self.k_gen_count = get_kernel("bfs_level.cu", f"bfs_gen_count<{t}>")
        self.k_gen_write = get_kernel("bfs_level.cu", f"bfs_gen_write<{t}>")
        fits = self.gen_grid < 1 << (64 - ARRIVE_SHIFT)  # arrivals fit the counters' top bits
        persistent = not self.level_mode and not self.bins
        cfg[C_FUSED_SYNC] = int(bool(fused_sync) and fits and persistent)
        self.fused_sync = bool(cfg[C_FUSED_SYNC])
        self.cfg = cp.asarray(cfg)
        # generation counters, the grid barrier's word (frontier_sync.cuh), the profile area
        self.scratch = cp.zeros(GEN_ROWS * self.gen_grid + PROF_OFFSET + PROF_WORDS, np.uint64)
        self.profiled = bool(profile) and not self.level_mode
        self._fast = None
        if fast_launch and self.barrier == "cooperative":
            self._fast = self._fast_params()

    @staticmethod
    def _persistent_kernel(targs: str, barrier: str, defines: dict | None = None):
        """The persistent kernel and how to launch it: ``"cooperative"`` (cuLaunchCooperativeKernel
        guarantees that all blocks are resident) or ``"plain"`` (a normal launch sized by the
        occupancy calculator, used where the cooperative build is unavailable). With
        ``defines`` (macros other than the defaults) only this instance is compiled."""
        from ...gpu.loader import KernelCompileError

        name = f"bfs_persistent<{targs}>"
        if barrier not in ("auto", "cooperative", "plain"):
            raise InvalidArgumentError(
                f"barrier must be auto, cooperative or plain, got {barrier!r}"
            )
        if barrier in ("auto", "cooperative"):
            try:
                return _kernel(name, defines, cooperative=True), "cooperative"
            except KernelCompileError:
                if barrier == "cooperative":
                    raise
        return _kernel(name, defines), "plain"

    def _fast_params(self):
        """The persistent kernel's argument buffer (``void*[]``), built once: the holders of the
        levels' and parents' addresses and of the source are rewritten by :meth:`run`."""
        import ctypes

        src_type = ctypes.c_int32 if self.dtype == np.int32 else ctypes.c_int64
        holders: list[Any] = []
        for a in self._args(None, None):
            holders.append(ctypes.c_void_p(0 if a is None else int(a.data.ptr)))
        holders.append(src_type(0))
        buf = (ctypes.c_void_p * len(holders))(*(ctypes.addressof(h) for h in holders))
        return holders, buf, ctypes.addressof(buf), self.k_persistent.ptr

    # ------------------------------------------------------------------ helpers
    def _args(self, levels, parents) -> list:
        return [
            self.indptr, self.indices, self.rindptr, self.rindices, levels, parents, self.vis8,
            self.q[0], self.q[1], self.big[0], self.big[1], self.eu, self.ev, self.pre, self.hubs,
            self.ctl, self.scratch, self.cfg,
        ]  # fmt: skip

    def _grid(self, work: int) -> int:
        return max(1, min(math.ceil(max(work, 1) / BLOCK), 16 * self.sms))

    def _launch(self, kernel, grid: int, args: list) -> None:
        from ...gpu.launch import launch

        launch(kernel, grid * BLOCK, args, block=BLOCK, grid=grid)

    def nbytes(self) -> int:
        """Device bytes held by the plan's buffers."""
        arrays = [*self.q, *self.big, self.eu, self.ev, self.pre, self.hubs, self.ctl]
        arrays += [self.vis8, self.cfg, self.scratch]
        return int(sum(a.nbytes for a in arrays if a is not None))

    # ------------------------------------------------------------------ one BFS
    def run(self, source: int, levels, parents=None) -> None:
        """BFS from ``source`` into ``levels`` (int32, length n) and ``parents`` (ids or None).

        Asynchronous in persistent mode (call :meth:`info` or synchronize to wait).
        """
        src = self.dtype.type(source)
        fast = self._fast
        if (
            fast is not None
            and levels.dtype == np.int32
            and levels.size == self.n
            and levels.flags.c_contiguous
            and (parents is None or (parents.dtype == self.dtype and parents.size == self.n))
            and 0 <= int(src) < self.n
        ):
            holders, _, params, fn = fast
            holders[4].value = int(levels.data.ptr)
            holders[5].value = 0 if parents is None else int(parents.data.ptr)
            holders[-1].value = int(src)
            stream = self.cp.cuda.get_current_stream().ptr
            self.cp.cuda.driver.launchCooperativeKernel(
                fn, self.gen_grid, 1, 1, BLOCK, 1, 1, 0, stream, params
            )
            return
        if not self.level_mode:
            from ...gpu.launch import launch_cooperative

            args = [*self._args(levels, parents), src]
            if self.barrier == "cooperative":
                launch_cooperative(self.k_persistent, args, block=BLOCK, blocks=self.gen_grid)
            else:
                self._launch(self.k_persistent, self.gen_grid, args)
            return
        self._run_levels(src, levels, parents)

    def info(self) -> GpuRunInfo:
        """Statistics of the last run (synchronizes)."""
        g = self.ctl[CTL_GLOBAL : CTL_GLOBAL + 8].get()
        depth = int(g[G_DEPTH])
        path = [("bu" if (int(g[G_PATH]) >> i) & 1 else "td") for i in range(min(depth, 64))]
        return GpuRunInfo(depth, int(g[G_TD]), int(g[G_BU]), int(g[G_REGEN]), path)

    def profile(self) -> dict[str, Any]:
        """Per-level profile of the last run (plans built with ``profile=True``; synchronizes).

        Returns
        -------
        dict
            ``init_us`` (kernel entry to the end of the initialization's barrier), ``loop_us``
            (the levels), ``final_us`` (the final pass), ``kernel_us`` (entry to the last
            block's end) and ``levels``: one dict per level with ``dir`` (``"td"``/``"bu"``),
            ``us`` (its time, barrier included), ``frontier`` (size of the frontier it
            built) and ``arcs`` (top-down: out-arcs of the frontier it expanded; bottom-up:
            in-arcs scanned).
        """
        if not self.profiled:
            raise InvalidArgumentError("this plan was built without profile=True")
        base = GEN_ROWS * self.gen_grid + PROF_OFFSET
        p = self.scratch[base : base + PROF_WORDS].get().astype(np.int64)
        depth = min(self.info().levels, PROF_LEVELS)
        t0, t_init, t_loop, t_end = (int(p[k]) for k in (PROF_T0, PROF_T_INIT, PROF_T_LOOP,
                                                           PROF_T_END))  # fmt: skip
        rows, prev = [], t_init
        for d in range(depth):
            w = p[PROF_LEVEL + 4 * d : PROF_LEVEL + 4 * d + 4]
            rows.append({"dir": "bu" if w[1] else "td", "us": (int(w[0]) - prev) / 1e3,
                         "frontier": int(w[2]), "arcs": int(w[3])})  # fmt: skip
            prev = int(w[0])
        return {
            "init_us": (t_init - t0) / 1e3,
            "loop_us": (t_loop - t_init) / 1e3,
            "final_us": (t_end - t_loop) / 1e3,
            "kernel_us": (t_end - t0) / 1e3,
            "levels": rows,
        }

    def _slot(self, d: int) -> np.ndarray:
        base = (d % 3) * SLOT_WORDS
        return self.ctl[base : base + SLOT_WORDS].get()

    def _count(self, s: np.ndarray) -> int:
        return int(s[S_COUNT : S_COUNT + 4].sum()) if self.bins else int(s[S_COUNT])

    def _overflowed(self, s: np.ndarray) -> bool:
        qcap, bigcap = int(self.cfg_host[C_QCAP]), int(self.cfg_host[C_BIGCAP])
        if s[S_OVERFLOW] or self.cfg_host[C_FORCE_REGEN]:
            return True
        if self.bins:
            return int(s[0]) + int(s[1]) > qcap or int(s[2]) + int(s[3]) > bigcap
        return int(s[S_COUNT]) > qcap

    def _run_levels(self, src, levels, parents) -> None:
        cp = self.cp
        args = self._args(levels, parents)
        bins = np.int32(self.bins)
        self._launch(self.k_init, self._grid(self.n), [*args, src, bins])
        deg = int(self.G.indptr[int(src) + 1].get() - self.G.indptr[int(src)].get())
        st = _DirState(self.cfg_host, deg)
        count, td, bu, regen, path = 1, 0, 0, 0, 0
        d = 0
        while True:
            dir_ = st.choose()
            edge = self.edge_frontier and dir_ == 0
            sink = SINK_EDGE if edge else self.update
            work = self.n if dir_ == 1 else count
            if dir_ == 0 and self.pre is not None:
                q = self.q[d & 1]
                self._launch(self.k_degrees, self._grid(count), [self.indptr, q, count, self.pre])
                cp.cumsum(self.pre[:count], out=self.pre[:count])
                work = count * 4
            self._launch(self.k_step, self._grid(work), [*args, d, dir_, sink])
            if edge:
                s = self._slot(d)
                if s[S_OVERFLOW]:  # more candidate edges than arcs (duplicates): redo directly
                    self.ctl[(d % 3) * SLOT_WORDS : (d % 3 + 1) * SLOT_WORDS] = 0
                    self._launch(self.k_step, self._grid(count), [*args, d, dir_, self.update])
                else:
                    self._launch(self.k_filter, self._grid(int(s[S_EDGES])), [*args, d])
            if dir_ == 1:
                bu += 1
                if d < 64:
                    path |= 1 << d
            else:
                td += 1
            s = self._slot(d) if self.update != 2 else None
            if s is None or self._overflowed(s):
                regen += s is not None
                g = self.gen_grid
                self._launch(self.k_gen_count, g, [*args, d, bins])
                self._launch(self.k_gen_write, g, [*args, d, bins])
                s = self._slot(d)
            count = self._count(s)
            st.after(count, int(s[S_DEGSUM]), int(s[S_HUBS]))
            if count == 0:
                break
            d += 1
        if self.cfg_host[C_DEGREE_STATUS]:
            self._launch(self.k_finalize, self._grid(self.n), args)
        self.ctl[CTL_GLOBAL : CTL_GLOBAL + 5] = cp.asarray(
            np.array([d + 1, td, bu, regen, path], dtype=np.uint64)
        )
