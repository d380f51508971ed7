"""GPU BFS: every strategy of the frontier engine, on its own and combined, against the oracle.

Each configuration runs on graphs that exercise its code paths (hubs for gathering and the
degree bins, a vertex of degree >= 65536 for the grid-wide bin, a grid with ~60 levels, a
directed graph for bottom-up on in-arcs, self-loops, multi-edges, isolated vertices and several
components), from several sources, with parents; levels must equal SciPy's and the tree must
pass Graph500's checks.
"""

from __future__ import annotations

import itertools
import random

import numpy as np
import pytest
from scipy.sparse import csgraph

import warpgraph as wg
from warpgraph.algorithms.bfs import bfs, bfs_explain, verify_bfs
from warpgraph.errors import InvalidArgumentError
from warpgraph.gpu.frontier.options import CHOICES, TraversalOptions

pytestmark = pytest.mark.gpu


def _levels_oracle(G: wg.Graph, source: int) -> np.ndarray:
    d = csgraph.shortest_path(
        G.to_scipy(dtype=np.int8), directed=G.directed, unweighted=True, indices=source
    )
    return np.where(np.isinf(d), -1, d).astype(np.int32)


def _graphs() -> dict[str, wg.Graph]:
    rng = np.random.default_rng(11)
    out = {
        "kron": wg.generators.kronecker(10, 16, seed=5, device="cpu"),
        "grid": wg.generators.grid_2d(30, 30, device="cpu"),
    }
    n = 600
    out["directed"] = wg.Graph.from_edges(
        rng.integers(0, n, 3000), rng.integers(0, n, 3000), num_vertices=n, directed=True
    )
    # self-loops, multi-edges, isolated vertices, two components
    src = np.r_[rng.integers(0, 200, 800), 250, 250, 251, 252, 252]
    dst = np.r_[rng.integers(0, 200, 800), 250, 251, 251, 253, 253]
    out["multi"] = wg.Graph.from_edges(src, dst, num_vertices=260, directed=False)
    # a hub of degree 70,000 (the grid-wide "extreme" bin) with a tail of 50 vertices
    leaves = 70_000
    hub_src = np.zeros(leaves, np.int64)
    hub_dst = np.arange(1, leaves + 1)
    tail = np.arange(leaves + 1, leaves + 51)
    src = np.r_[hub_src, 5, tail[:-1]]
    dst = np.r_[hub_dst, tail[0], tail[1:]]
    out["star"] = wg.Graph.from_edges(src, dst, directed=False)
    return out


@pytest.fixture(scope="module")
def cases():
    result = []
    for name, G in _graphs().items():
        deg = G.out_degree()
        sources = [int(np.argmax(deg)), int(np.flatnonzero(deg == deg[deg > 0].min())[0])]
        if (deg == 0).any():
            sources.append(int(np.flatnonzero(deg == 0)[0]))
        oracle = np.stack([_levels_oracle(G, s) for s in sources])
        result.append((name, G, G.to("gpu"), np.array(sources), oracle))
    return result


def _check(cases, config=None, direction="auto", only=None):
    for name, G, Gg, sources, oracle in cases:
        if only is not None and name not in only:
            continue
        levels, parents = bfs(
            Gg, sources, parents=True, direction=direction, config=config, device="gpu"
        )
        levels, parents = levels.get(), parents.get()
        for i, s in enumerate(sources):
            msg = f"graph {name}, source {s}, config {config}, direction {direction}"
            np.testing.assert_array_equal(levels[i], oracle[i], err_msg=msg)
            verify_bfs(G, int(s), levels[i], parents[i])


# ---------------------------------------------------------------------------- one dimension
LB_CASES = [
    (lb, sync)
    for lb in CHOICES["load_balance"]
    for sync in ("level", "persistent")
    if not (lb == "merge-path" and sync == "persistent")
]


@pytest.mark.parametrize("lb,sync", LB_CASES)
@pytest.mark.parametrize("direction", ["top-down", "auto"])
def test_load_balance(cases, lb, sync, direction):
    _check(cases, {"load_balance": lb, "sync": sync}, direction)


@pytest.mark.parametrize("gather", CHOICES["gather"])
@pytest.mark.parametrize(
    "lb", ["node1", "node4", "node32", "warp-scan", "warp-search", "block-search"]
)
def test_gather(cases, gather, lb):
    _check(
        cases, {"load_balance": lb, "gather": gather}, "top-down", only=("kron", "star", "multi")
    )


@pytest.mark.parametrize("update", CHOICES["update"])
@pytest.mark.parametrize("sync", CHOICES["sync"])
@pytest.mark.parametrize("direction", ["top-down", "bottom-up", "auto"])
def test_update(cases, update, sync, direction):
    _check(cases, {"update": update, "sync": sync}, direction)


@pytest.mark.parametrize("dedup", CHOICES["dedup"])
@pytest.mark.parametrize("sync", CHOICES["sync"])
@pytest.mark.parametrize("lb", ["node4", "warp-search", "bins"])
def test_dedup(cases, dedup, sync, lb):
    _check(cases, {"dedup": dedup, "sync": sync, "load_balance": lb}, "top-down")


@pytest.mark.parametrize("status", CHOICES["status"])
@pytest.mark.parametrize("sync", CHOICES["sync"])
@pytest.mark.parametrize("direction", ["top-down", "bottom-up", "auto"])
def test_status(cases, status, sync, direction):
    _check(cases, {"status": status, "sync": sync}, direction)


@pytest.mark.parametrize("dedup", ["cas", "none", "block-hash"])
@pytest.mark.parametrize("lb", ["warp-search", "merge-path", "node1"])
def test_edge_frontier(cases, dedup, lb):
    _check(cases, {"frontier": "edge", "dedup": dedup, "load_balance": lb}, "auto")


@pytest.mark.parametrize("rule", ["beamer", "enterprise"])
@pytest.mark.parametrize("hub_cache", [False, True])
@pytest.mark.parametrize("switch_back", [False, True])
@pytest.mark.parametrize("sync", CHOICES["sync"])
def test_direction_rules(cases, rule, hub_cache, switch_back, sync):
    config = {"rule": rule, "hub_cache": hub_cache, "switch_back": switch_back, "sync": sync}
    _check(cases, config, "auto")


@pytest.mark.parametrize("blocks_per_sm", [1, 2])
def test_blocks_per_sm(cases, blocks_per_sm):
    _check(cases, {"blocks_per_sm": blocks_per_sm, "sync": "persistent"}, "auto")


def _check_plan(cases, options: dict, direction: str = "auto", only=None, **plan_kwargs):
    """A GpuBfsPlan with engine-internal knobs: levels against the oracle, tree checked."""
    import cupy as cp

    from warpgraph.algorithms.bfs.gpu import GpuBfsPlan

    for name, G, Gg, sources, oracle in cases:
        if only is not None and name not in only:
            continue
        plan = GpuBfsPlan(
            Gg, TraversalOptions(**options).resolved(), direction=direction, **plan_kwargs
        )
        for i, s in enumerate(sources):
            levels = cp.empty(G.num_vertices, np.int32)
            parents = cp.empty(G.num_vertices, Gg.indices.dtype)
            plan.run(int(s), levels, parents)
            msg = f"graph {name}, source {s}, {options}, {plan_kwargs}, {direction}"
            np.testing.assert_array_equal(levels.get(), oracle[i], err_msg=msg)
            verify_bfs(G, int(s), levels.get(), parents.get())


@pytest.mark.parametrize("degree_status", [False, True])
@pytest.mark.parametrize("sync", CHOICES["sync"])
@pytest.mark.parametrize("lb,dedup", [("node4", "cas"), ("bins", "cas"), ("warp-search", "none")])
def test_degree_status(cases, degree_status, sync, lb, dedup):
    """Unvisited = -(degree + 1) or -1: same levels, unreached vertices end at -1 either way."""
    opts = {"load_balance": lb, "sync": sync, "dedup": dedup}
    for direction in ("auto", "top-down"):
        _check_plan(cases, opts, direction, degree_status=degree_status)


@pytest.mark.parametrize("extreme", [256, 1024, None])
@pytest.mark.parametrize("deal", [False, True])
@pytest.mark.parametrize("sync", CHOICES["sync"])
def test_extreme_class(cases, extreme, deal, sync):
    """The grid-wide bin: every vertex of degree >= 256 in it (many per level), or the default."""
    opts = {"load_balance": "bins", "sync": sync}
    for direction in ("auto", "top-down"):
        _check_plan(cases, opts, direction, extreme_degree=extreme, deal_extreme=deal)


@pytest.mark.parametrize("update", ["ballot", "status"])
def test_extreme_class_regenerated(cases, update):
    """Frontiers rebuilt from the status array sort vertices by the same run-time class bound."""
    opts = {"load_balance": "bins", "update": update, "dedup": "none"}
    _check_plan(cases, opts, "top-down", extreme_degree=256, force_regen=update == "ballot")


# ---------------------------------------------------------------------------- combinations
def _combinations(count: int, seed: int) -> list[dict]:
    keys = ["load_balance", "gather", "update", "dedup", "status", "sync"]
    rng = random.Random(seed)
    out = []
    for values in itertools.product(*(CHOICES[k] for k in keys)):
        cfg = dict(zip(keys, values, strict=True))
        try:
            TraversalOptions(**cfg)
        except wg.errors.InvalidArgumentError:
            continue
        out.append(cfg)
    return rng.sample(out, count)


@pytest.mark.parametrize("config", _combinations(24, seed=2))
def test_random_combinations(cases, config):
    _check(cases, config, "auto")
    _check(cases, config, "top-down", only=("kron", "directed"))


# ---------------------------------------------------------------------------- internal paths
@pytest.mark.parametrize("lb", ["warp-search", "bins"])
@pytest.mark.parametrize("sync", CHOICES["sync"])
@pytest.mark.parametrize("update", ["ballot", "local"])
def test_regeneration_path(cases, lb, sync, update):
    """Every frontier rebuilt from the status array (the queue-overflow path)."""
    import cupy as cp

    from warpgraph.algorithms.bfs.gpu import GpuBfsPlan

    if lb == "bins" and update == "local":
        pytest.skip("bins use ballot or status updates")
    for name, G, Gg, sources, oracle in cases:
        opts = TraversalOptions(load_balance=lb, sync=sync, update=update, dedup="none")
        plan = GpuBfsPlan(Gg, opts.resolved(), force_regen=True)
        for i, s in enumerate(sources):
            levels = cp.empty(G.num_vertices, np.int32)
            parents = cp.empty(G.num_vertices, Gg.indices.dtype)
            plan.run(int(s), levels, parents)
            np.testing.assert_array_equal(levels.get(), oracle[i], err_msg=name)
            verify_bfs(G, int(s), levels.get(), parents.get())
            assert plan.info().regenerations == plan.info().levels


def test_edge_queue_overflow_path(cases):
    import cupy as cp

    from warpgraph.algorithms.bfs.gpu import GpuBfsPlan

    for name, G, Gg, sources, oracle in cases:
        opts = TraversalOptions(frontier="edge", sync="level").resolved()
        plan = GpuBfsPlan(Gg, opts, direction="top-down", edge_capacity=3)
        levels = cp.empty(G.num_vertices, np.int32)
        plan.run(int(sources[0]), levels)
        np.testing.assert_array_equal(levels.get(), oracle[0], err_msg=name)


def test_plain_launch_barrier(cases):
    import cupy as cp

    from warpgraph.algorithms.bfs.gpu import GpuBfsPlan

    for name, G, Gg, sources, oracle in cases:
        plan = GpuBfsPlan(Gg, TraversalOptions().resolved(), barrier="plain")
        assert plan.barrier == "plain"
        levels = cp.empty(G.num_vertices, np.int32)
        for i, s in enumerate(sources):
            plan.run(int(s), levels)
            np.testing.assert_array_equal(levels.get(), oracle[i], err_msg=name)


@pytest.mark.parametrize("sync", CHOICES["sync"])
def test_int64_vertex_ids(cases, sync):
    """The `long long` instantiations (used from 2**31 vertices on) on a small graph."""
    for name, G, _, sources, oracle in cases[:3]:
        G64 = wg.Graph(G.indptr, G.indices.astype(np.int64), directed=G.directed, validate=False)
        Gg = G64.to("gpu")
        levels, parents = bfs(Gg, sources, parents=True, config={"sync": sync}, device="gpu")
        assert parents.dtype == np.int64
        for i, s in enumerate(sources):
            np.testing.assert_array_equal(levels[i].get(), oracle[i], err_msg=name)
            verify_bfs(G, int(s), levels[i].get(), parents[i].get())


def test_gpu_matches_cpu_and_explain(cases):
    _, G, Gg, sources, oracle = cases[0]
    cpu = bfs(G, sources, device="cpu")
    gpu = bfs(Gg, sources, device="gpu").get()
    np.testing.assert_array_equal(cpu, gpu)
    e = bfs_explain(Gg, device="gpu")
    assert e.device == "gpu" and e.features["depth"] >= 2
    assert e.config.engine.load_balance in CHOICES["load_balance"]
    # a CPU graph runs on the GPU when asked (copied there)
    np.testing.assert_array_equal(bfs(G, int(sources[0]), device="gpu").get(), oracle[0])


# ---------------------------------------------------------------------------- level barrier, claims
SYNC_CASES = [
    {"load_balance": "node4"},
    {"load_balance": "bins"},
    {"load_balance": "warp-search", "status": "bitmask"},
    {"load_balance": "node4", "dedup": "none"},
    {"load_balance": "warp-search", "update": "status"},
    {"load_balance": "node4", "blocks_per_sm": 1},
]


@pytest.mark.parametrize("fused_sync", [False, True])
@pytest.mark.parametrize("claim_limit", [0, 64, 1 << 30])
@pytest.mark.parametrize("opts", SYNC_CASES, ids=lambda o: "-".join(map(str, o.values())))
def test_fused_barrier_and_direct_claims(cases, fused_sync, claim_limit, opts):
    """The counter-fused level barrier and atomicMin claims (never, small levels, every level)
    against the ticket barrier and compare-and-swap, with every sink that counts differently."""
    opts = {**opts, "sync": "persistent"}
    for direction in ("auto", "top-down"):
        _check_plan(cases, opts, direction, fused_sync=fused_sync, claim_limit=claim_limit)


def test_thousands_of_levels():
    """A 5,000-vertex path and a 4 x 700 grid: the three rotating counter slots and the fused
    barrier's arrival bits go round thousands of times; levels and depth exact either way."""
    import cupy as cp

    from warpgraph.algorithms.bfs.gpu import CLAIM_LIMIT, GpuBfsPlan

    n = 5000
    path = wg.Graph.from_edges(np.arange(n - 1), np.arange(1, n), num_vertices=n, directed=False)
    thin = wg.generators.grid_2d(4, 700, device="cpu")
    for G in (path, thin):
        Gg = G.to("gpu")
        sources = [0, G.num_vertices // 2 + 1]
        oracle = [_levels_oracle(G, s) for s in sources]
        for fused in (False, True):
            for claim in (0, CLAIM_LIMIT):
                opts = TraversalOptions(load_balance="node4", blocks_per_sm=1).resolved()
                plan = GpuBfsPlan(Gg, opts, fused_sync=fused, claim_limit=claim)
                assert plan.fused_sync == fused
                for s, want in zip(sources, oracle, strict=True):
                    levels = cp.empty(G.num_vertices, np.int32)
                    parents = cp.empty(G.num_vertices, Gg.indices.dtype)
                    plan.run(s, levels, parents)
                    msg = f"n={G.num_vertices}, source {s}, fused {fused}, claim {claim}"
                    np.testing.assert_array_equal(levels.get(), want, err_msg=msg)
                    assert plan.info().levels == int(want.max()) + 1, msg
                    verify_bfs(G, s, levels.get(), parents.get())


@pytest.mark.parametrize("blocks_per_sm", [1, 4])
def test_fused_barrier_repeated(cases, blocks_per_sm):
    """Races show up rarely: 48 sources x 3 runs on the Kronecker graph and the grid with the
    fused barrier (every bottom-up step reads levels written by other blocks just before)."""
    import cupy as cp

    from warpgraph.algorithms.bfs.gpu import GpuBfsPlan

    for name, G, Gg, _, _ in cases[:2]:
        sources = np.random.default_rng(4).choice(G.num_vertices, 48, replace=False)
        d = csgraph.shortest_path(
            G.to_scipy(dtype=np.int8), directed=G.directed, unweighted=True, indices=sources
        )
        oracle = np.where(np.isinf(d), -1, d).astype(np.int32)
        opts = TraversalOptions(load_balance="warp-search", blocks_per_sm=blocks_per_sm)
        plan = GpuBfsPlan(Gg, opts.resolved(), fused_sync=True)
        assert plan.fused_sync
        levels = cp.empty((3 * len(sources), G.num_vertices), np.int32)
        for r in range(3):
            for i, s in enumerate(sources):
                plan.run(int(s), levels[r * len(sources) + i])
        got = levels.get().reshape(3, len(sources), -1)
        for r in range(3):
            np.testing.assert_array_equal(got[r], oracle, err_msg=f"{name}, run {r}")


# ---------------------------------------------------------------------------- session 5 knobs
# (bottom-up / top-down / whole-array batching, the prebuilt launch, the profile)
BATCH_CASES = [
    {"bu_batch": 1},
    {"bu_batch": 2},
    {"bu_batch": 4},
    {"bu_batch": 4, "symmetric_skip": False},
    {"bu_batch": 3, "degree_status": False},
    {"stream_batch": 1, "td_batch": 1},
    {"stream_batch": 4},
    {"stream_batch": 3, "degree_status": False},
    {"td_batch": 2},
    {"td_batch": 4, "fast_launch": False},
    {"fast_launch": True, "bu_batch": 4, "stream_batch": 4, "td_batch": 2},
    {"count_bu": True},
    {"count_bu": True, "count_arcs": 1},
    {"count_arcs": 16, "small_search": True},
    {"small_search": True, "td_batch": 2, "count_bu": True},
    {"small_search": False, "count_bu": False, "count_arcs": 0, "deal_large": False},
    {"deal_large": True, "extreme_degree": 4096, "count_bu": 2},
]


def _kw_id(kw: dict) -> str:
    return "-".join(f"{a}={b}" for a, b in kw.items())


@pytest.mark.parametrize("kw", BATCH_CASES, ids=_kw_id)
def test_batched_sweeps(cases, kw):
    """Batched bottom-up sweeps (K vertices per lane, isolated vertices skipped through the
    status on undirected graphs), batched status reads in top-down expansions and batched
    whole-array passes: levels exact, trees valid, in every direction, with the degree bins
    and with warp-search + block gathering (expand_strided)."""
    for lb in ("bins", "warp-search"):
        for direction in ("auto", "top-down", "bottom-up"):
            _check_plan(cases, {"load_balance": lb, "sync": "persistent"}, direction, **kw)


@pytest.mark.parametrize("bu_batch", [1, 4])
def test_batched_bottom_up_with_hub_cache_and_bitmask(cases, bu_batch):
    """The batched bottom-up sweep probes the hub cache and marks the 8-bit bitmask too."""
    opts = {"load_balance": "bins", "sync": "persistent"}
    _check_plan(cases, opts, "auto", bu_batch=bu_batch, hub_cache=True)
    _check_plan(cases, {**opts, "status": "bitmask"}, "bottom-up", bu_batch=bu_batch)


@pytest.mark.parametrize("kw", [{}, {"count_bu": True, "count_arcs": 1, "small_search": True}])
def test_profile_counts(cases, kw):
    """profile=True: one row per level, directions as info().path, each level's new frontier
    the oracle's vertex count one level down, top-down arcs the frontier's out-degree sum,
    bottom-up arcs at least the new frontier's size; times positive."""
    import cupy as cp

    from warpgraph.algorithms.bfs.gpu import GpuBfsPlan

    for name, G, Gg, sources, oracle in cases:
        deg = np.diff(np.asarray(G.indptr))
        for direction in ("auto", "top-down"):
            plan = GpuBfsPlan(
                Gg,
                TraversalOptions(load_balance="bins", sync="persistent").resolved(),
                direction=direction,
                profile=True,
                fast_launch=True,
                **kw,
            )
            for i, s in enumerate(sources):
                levels = cp.empty(G.num_vertices, np.int32)
                plan.run(int(s), levels)
                np.testing.assert_array_equal(levels.get(), oracle[i])
                info, prof = plan.info(), plan.profile()
                rows = prof["levels"]
                assert len(rows) == info.levels and [r["dir"] for r in rows] == info.path
                assert prof["kernel_us"] > 0 and prof["init_us"] > 0
                for d, r in enumerate(rows):
                    msg = f"{name}, source {s}, level {d}"
                    assert r["frontier"] == int((oracle[i] == d + 1).sum()), msg
                    if r["dir"] == "td":
                        assert r["arcs"] == int(deg[oracle[i] == d].sum()), msg
                    else:
                        assert r["arcs"] >= r["frontier"], msg
    plan = GpuBfsPlan(cases[0][2], TraversalOptions().resolved(), profile=False)
    with pytest.raises(InvalidArgumentError, match="profile=True"):
        plan.profile()


@pytest.mark.parametrize(
    "kwargs, match",
    [
        ({"bu_batch": 0}, "bu_batch must be an int in \\[1, 8\\]"),
        ({"td_batch": 9}, "td_batch must be an int"),
        ({"stream_batch": 2.0}, "stream_batch must be an int"),
        ({"barrier": "spin"}, "barrier must be auto, cooperative or plain"),
    ],
)
def test_engine_knobs_reject_bad_values(cases, kwargs, match):
    from warpgraph.algorithms.bfs.gpu import GpuBfsPlan

    with pytest.raises(InvalidArgumentError, match=match):
        GpuBfsPlan(cases[0][2], TraversalOptions().resolved(), **kwargs)


def test_fast_launch_rows_and_fallback(cases):
    """The prebuilt argument buffer: rows of a 2-D result, parents or not, one plan reused;
    a results array it cannot take goes through the checked launch (and its error)."""
    import cupy as cp

    from warpgraph.algorithms.bfs.gpu import GpuBfsPlan

    _, G, Gg, sources, oracle = cases[0]
    plan = GpuBfsPlan(Gg, TraversalOptions(load_balance="bins").resolved(), fast_launch=True)
    assert plan._fast is not None
    levels = cp.empty((len(sources), G.num_vertices), np.int32)
    parents = cp.empty((len(sources), G.num_vertices), Gg.indices.dtype)
    for rep in range(2):
        for i, s in enumerate(sources):
            plan.run(int(s), levels[i], parents[i] if rep else None)
        np.testing.assert_array_equal(levels.get(), oracle)
    for i, s in enumerate(sources):
        verify_bfs(G, int(s), levels[i].get(), parents[i].get())
    with pytest.raises((InvalidArgumentError, ValueError)):
        plan.run(int(sources[0]), cp.empty(G.num_vertices, np.int64))
