"""Strongly connected components (multi-step SCC, FB, coloring, Tarjan, the GPU's max-signature
scheme "ecl") against SciPy.

Every method runs with every configuration in ``CONFIGS`` (together they take every value of
every option) on random graphs (hypothesis) and on the hard cases: long chains in both id
orders, long cycles, one big SCC, DAGs (all singletons), self-loops, isolated vertices, many
small SCCs. Partitions are compared canonically (each label mapped to the smallest vertex of its
class). The CPU runs everywhere; the same cases run on the GPU (``gpu`` marker). The GPU driver
(``scc_gpu``) also runs on the CPU with NumPy and a sequential emulation of the kernels of
``scc.cu`` in random vertex order, so its host logic is checked where no GPU is.
"""

from __future__ import annotations

import functools
import types

import numpy as np
import pytest
import scipy.sparse as sp
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from scipy.sparse.csgraph import connected_components

from warpgraph.algorithms.components import scc_cpu as scc_cpu_module
from warpgraph.algorithms.components import scc_gpu as scc_gpu_module
from warpgraph.algorithms.components.scc_config import (
    ECL_MAX_ARCS,
    GPU_SCC_METHODS,
    TRIM_FULL,
    SCCConfig,
    auto_scc_config,
    auto_scc_method,
    method_config,
)
from warpgraph.algorithms.components.scc_cpu import scc_cpu, tarjan_scc, transpose_csr
from warpgraph.errors import InvalidArgumentError


@pytest.fixture(autouse=True)
def _all_threads(monkeypatch):
    """The parallel kernels are tested in parallel even when the machine is busy."""
    monkeypatch.setattr(scc_cpu_module, "dynamic_threads", lambda threads: threads)


CONFIGS = {
    "default": SCCConfig(),
    "plain_quadratic": SCCConfig(
        trim_iterations=0,
        trim2=False,
        fb_traversal="quadratic",
        coloring_traversal="quadratic",
        pivot="min_id",
        sync_interval=1,
        hub_degree=0,
    ),
    "full_trim_vw4": SCCConfig(
        trim_iterations=TRIM_FULL,
        fb_traversal="virtual_warp",
        coloring_traversal="virtual_warp",
        pivot="max_out_degree",
        virtual_warp=4,
        sync_interval=2,
        hub_degree=2,
    ),
    "hybrid": SCCConfig(
        trim_iterations=1,
        fb_traversal="hybrid",
        coloring_traversal="hybrid",
        sync_interval=3,
        hub_degree=1,
    ),
    "fb3_linear_q": SCCConfig(
        trim_iterations=1,
        trim2=False,
        fb_iterations=3,
        fb_traversal="linear",
        coloring_traversal="quadratic",
        hub_degree=3,
    ),
    "vw32_vw1": SCCConfig(
        trim_iterations=2,
        fb_iterations=0,
        fb_traversal="virtual_warp",
        coloring_traversal="virtual_warp",
        virtual_warp=32,
    ),
    "vw1_hybrid": SCCConfig(
        fb_iterations=2, fb_traversal="virtual_warp", coloring_traversal="linear", virtual_warp=1
    ),
}
METHODS = ("multistep", "fb", "coloring")
CASES = [(m, c) for m in METHODS for c in CONFIGS]
CASE_IDS = [f"{m}-{c}" for m, c in CASES]
# the GPU's "ecl" reads trim_iterations (0: no trim pass) and chase (0: one arc per level)
ECL_CONFIGS = {
    "default": SCCConfig(),
    "ecl_plain": SCCConfig(trim_iterations=0, chase=0),
    "ecl_chase1": SCCConfig(trim_iterations=TRIM_FULL, chase=1),
    "ecl_chase64": SCCConfig(trim_iterations=0, chase=64),
}
CONFIGS.update({k: v for k, v in ECL_CONFIGS.items() if k != "default"})
GPU_CASES = CASES + [("ecl", c) for c in ECL_CONFIGS]
GPU_CASE_IDS = [f"{m}-{c}" for m, c in GPU_CASES]


# ---- helpers ----------------------------------------------------------------------------------


def csr(n: int, src, dst) -> tuple[np.ndarray, np.ndarray]:
    """CSR (indptr int64, indices int32) of the arcs, repeated arcs and self-loops kept."""
    src = np.asarray(src, dtype=np.int64)
    dst = np.asarray(dst, dtype=np.int64)
    order = np.lexsort((dst, src))
    indptr = np.zeros(n + 1, dtype=np.int64)
    np.cumsum(np.bincount(src, minlength=n), out=indptr[1:])
    return indptr, dst[order].astype(np.int32)


def canonical(labels) -> np.ndarray:
    """Each vertex's label replaced by the smallest vertex with the same label."""
    labels = np.asarray(labels)
    if labels.size == 0:
        return labels.astype(np.int64)
    _, first, inverse = np.unique(labels, return_index=True, return_inverse=True)
    return first[inverse]


def oracle(n: int, indptr, indices) -> np.ndarray:
    A = sp.csr_matrix((np.ones(indices.size), indices.copy(), indptr.copy()), shape=(n, n))
    A.sum_duplicates()  # SciPy's strong components go wrong on repeated entries (SciPy 1.17)
    return canonical(connected_components(A, directed=True, connection="strong")[1])


def host(x) -> np.ndarray:
    return x.get() if hasattr(x, "get") else np.asarray(x)


def run(device: str, n, indptr, indices, method, config, reverse: bool = True):
    rp = ri = None
    if reverse:
        rp, ri = transpose_csr(indptr, indices, n)
    if device == "cpu":
        return scc_cpu(indptr, indices, n, method=method, config=config, rindptr=rp, rindices=ri)
    import cupy as cp

    dev = (cp.asarray(a) if a is not None else None for a in (indptr, indices, rp, ri))
    ip, ix, rp, ri = dev
    out = scc_gpu_module.scc_gpu(ip, ix, n, method=method, config=config, rindptr=rp, rindices=ri)
    assert out.dtype == cp.int64
    return out.get()


def check(device, n, src, dst, method, config, reverse=True):
    indptr, indices = csr(n, src, dst)
    got = run(device, n, indptr, indices, method, config, reverse)
    assert got.dtype == np.int64 and got.shape == (n,)
    np.testing.assert_array_equal(canonical(got), oracle(n, indptr, indices))


# ---- graphs -----------------------------------------------------------------------------------


def chain(n, reverse=False):
    s = np.arange(n - 1)
    return (s + 1, s) if reverse else (s, s + 1)


def permuted(n, src, dst, seed):
    p = np.random.default_rng(seed).permutation(n)
    return p[np.asarray(src, dtype=np.int64)], p[np.asarray(dst, dtype=np.int64)]


def cycle(n):
    s = np.arange(n)
    return s, (s + 1) % n


def big_scc(n, seed):
    rng = np.random.default_rng(seed)
    s, d = cycle(n)
    extra = rng.integers(0, n, (2, 3 * n))
    return np.concatenate([s, extra[0]]), np.concatenate([d, extra[1]])


def dag(n, seed):
    rng = np.random.default_rng(seed)
    a, b = rng.integers(0, n, (2, 4 * n))
    keep = a != b
    return permuted(n, np.minimum(a, b)[keep], np.maximum(a, b)[keep], seed)


def many_small(k, seed):
    """k cycles of sizes 1..6 (size 1: a self-loop or nothing), linked by DAG arcs between them."""
    rng = np.random.default_rng(seed)
    src, dst, base, starts = [], [], 0, []
    for _ in range(k):
        size = int(rng.integers(1, 7))
        s = np.arange(size) + base
        if size > 1 or rng.random() < 0.5:
            src.append(s)
            dst.append(base + (np.arange(size) + 1) % size)
        starts.append(base)
        base += size
    starts = np.array(starts)
    i, j = rng.integers(0, k, (2, 3 * k))
    lo, hi = np.minimum(i, j), np.maximum(i, j)
    keep = lo != hi
    src.append(starts[lo[keep]])
    dst.append(starts[hi[keep]] + 0)
    return (*permuted(base, np.concatenate(src), np.concatenate(dst), seed), base)


def named_graphs():
    n = 120
    g = {
        "chain_up": (n, *chain(n)),
        "chain_down": (n, *chain(n, reverse=True)),
        "chain_permuted": (n, *permuted(n, *chain(n), seed=1)),
        "cycle": (500, *cycle(500)),
        "cycle_permuted": (500, *permuted(500, *cycle(500), seed=2)),
        "two_cycles_bridged": (
            200,
            np.r_[np.arange(100), np.arange(100, 200), 5],
            np.r_[(np.arange(100) + 1) % 100, 100 + (np.arange(100) + 1) % 100, 150],
        ),
        "big_scc": (400, *big_scc(400, 3)),
        "dag": (300, *dag(300, 4)),
        "self_loops": (50, np.r_[np.arange(0, 50, 2), 3, 4], np.r_[np.arange(0, 50, 2), 4, 3]),
        "isolated": (30, np.array([2, 3]), np.array([3, 2])),
        # a hub of 200 out- and 150 in-arcs (GPU: hub and giant deferral paths)
        "star": (
            201,
            np.r_[np.zeros(200, np.int64), np.arange(1, 151)],
            np.r_[np.arange(1, 201), np.zeros(150, np.int64)],
        ),
        "empty_arcs": (7, np.zeros(0, np.int64), np.zeros(0, np.int64)),
        "one_vertex_loop": (1, np.array([0]), np.array([0])),
    }
    s, d, nn = many_small(120, 5)
    g["many_small"] = (nn, s, d)
    return g


GRAPHS = named_graphs()


# ---- CPU --------------------------------------------------------------------------------------


@pytest.mark.parametrize("method,config", CASES, ids=CASE_IDS)
@pytest.mark.parametrize("graph", sorted(GRAPHS))
def test_cpu_named_graphs(graph, method, config):
    n, s, d = GRAPHS[graph]
    check("cpu", n, s, d, method, CONFIGS[config])


@st.composite
def digraphs(draw, max_n: int = 24):
    n = draw(st.integers(1, max_n))
    m = draw(st.integers(0, 3 * n))
    ids = st.lists(st.integers(0, n - 1), min_size=m, max_size=m)
    return n, np.array(draw(ids), np.int64), np.array(draw(ids), np.int64)


@settings(max_examples=30)
@given(case=digraphs())
def test_cpu_random_all_configs(case):
    n, s, d = case
    indptr, indices = csr(n, s, d)
    ref = oracle(n, indptr, indices)
    rp, ri = transpose_csr(indptr, indices, n)
    np.testing.assert_array_equal(canonical(tarjan_scc(indptr, indices, n)), ref)
    for method, cfg in CASES:
        got = scc_cpu(
            indptr, indices, n, method=method, config=CONFIGS[cfg], rindptr=rp, rindices=ri
        )
        np.testing.assert_array_equal(canonical(got), ref, err_msg=f"{method} {cfg}")


@pytest.mark.parametrize("graph", sorted(GRAPHS))
def test_cpu_tarjan_and_auto(graph):
    n, s, d = GRAPHS[graph]
    check("cpu", n, s, d, "tarjan", None)
    check("cpu", n, s, d, "multistep", None, reverse=False)  # auto config, own transpose


def test_cpu_kronecker_auto():
    from warpgraph.generators import kronecker

    G = kronecker(12, seed=7, directed=True, device="cpu")
    n = G.num_vertices
    ref = oracle(n, G.indptr, G.indices)
    for method in (*METHODS, "tarjan"):
        got = scc_cpu(G.indptr, G.indices, n, method=method)
        np.testing.assert_array_equal(canonical(got), ref)


def test_transpose_matches_scipy():
    rng = np.random.default_rng(0)
    for n in (1, 5, 64, 1000):
        s, d = rng.integers(0, n, (2, 5 * n))
        indptr, indices = csr(n, s, d)
        rp, ri = transpose_csr(indptr, indices, n)
        A = sp.csr_matrix((np.ones(indices.size), indices, indptr), shape=(n, n)).T.tocsr()
        A.has_sorted_indices = False
        A.sort_indices()
        np.testing.assert_array_equal(rp, A.indptr)
        np.testing.assert_array_equal(np.sort(ri), np.sort(np.repeat(A.indices, 1)))


def test_empty_graph():
    out = scc_cpu(np.zeros(1, np.int64), np.zeros(0, np.int32), 0)
    assert out.dtype == np.int64 and out.size == 0


def test_int64_indices():
    n, s, d = GRAPHS["big_scc"]
    indptr, indices = csr(n, s, d)
    got = scc_cpu(indptr, indices.astype(np.int64), n)
    np.testing.assert_array_equal(canonical(got), oracle(n, indptr, indices))


# ---- configuration ----------------------------------------------------------------------------


@pytest.mark.parametrize(
    "kwargs,match",
    [
        ({"trim_iterations": -2}, "trim_iterations must be an int >= -1"),
        ({"trim_iterations": 1.5}, "trim_iterations must be an int"),
        ({"fb_iterations": -1}, "fb_iterations must be an int >= 0"),
        ({"trim2": 1}, "trim2 must be a bool"),
        ({"pivot": "random"}, "pivot must be one of"),
        ({"fb_traversal": "bfs"}, "fb_traversal must be one of"),
        ({"coloring_traversal": None}, "coloring_traversal must be one of"),
        ({"virtual_warp": 64}, "virtual_warp must be one of"),
        ({"sync_interval": 0}, "sync_interval must be an int >= 1"),
        ({"hub_degree": -1}, "hub_degree must be an int >= 0"),
        ({"chase": -1}, "chase must be an int >= 0"),
    ],
)
def test_config_rejects(kwargs, match):
    with pytest.raises(InvalidArgumentError, match=match):
        SCCConfig(**kwargs)


def test_bad_method_and_arrays():
    indptr, indices = csr(3, [0, 1], [1, 0])
    with pytest.raises(InvalidArgumentError, match="method must be one of"):
        scc_cpu(indptr, indices, 3, method="kosaraju")
    with pytest.raises(InvalidArgumentError, match="config must be an SCCConfig"):
        scc_cpu(indptr, indices, 3, config={"trim_iterations": 1})
    with pytest.raises(InvalidArgumentError, match="indptr must have n \\+ 1 = 5 entries"):
        scc_cpu(indptr, indices, 4)
    with pytest.raises(InvalidArgumentError, match="method must be one of"):
        method_config("tarjan", SCCConfig())
    with pytest.raises(InvalidArgumentError, match="GPU method must be 'auto' or one of"):
        scc_gpu_module.scc_gpu(indptr, indices, 3, method="tarjan")


def test_auto_config_rules():
    # a directed 3-cycle: no vertex without out-arcs -> no trimming; sparse -> linear
    cfg = auto_scc_config(np.array([0, 1, 2, 3]), None, 3, "gpu")
    assert (cfg.trim_iterations, cfg.trim2, cfg.fb_traversal) == (0, False, "linear")
    # a skewed graph with many sinks: trimming (GPU 2 passes, CPU 1), hybrid closures
    deg = np.r_[np.full(10, 200), np.full(990, 0), np.full(1000, 6)]
    indptr = np.r_[0, np.cumsum(deg)]
    gpu = auto_scc_config(indptr, None, deg.size, "gpu")
    cpu = auto_scc_config(indptr, None, deg.size, "cpu")
    assert gpu.trim_iterations == 2 and gpu.fb_traversal == "hybrid" and gpu.virtual_warp == 4
    assert cpu.fb_traversal == "hybrid" and cpu.trim_iterations == 1
    # regular, denser: quadratic on the GPU, hybrid on the CPU
    indptr = np.arange(0, 8 * 101, 8)
    assert auto_scc_config(indptr, None, 100, "gpu").fb_traversal == "quadratic"
    assert auto_scc_config(indptr, None, 100, "cpu").fb_traversal == "hybrid"
    with pytest.raises(InvalidArgumentError, match="device must be"):
        auto_scc_config(indptr, None, deg.size, "tpu")
    grid = np.arange(0, 4 * 101, 4)
    assert auto_scc_method(grid, 100, "cpu") == "tarjan"
    assert auto_scc_method(grid, 100, "gpu") == "ecl"  # road-like: the signature scheme
    skewed = np.r_[0, np.cumsum(deg)]
    assert auto_scc_method(skewed, deg.size, "gpu") == "ecl"  # small: one kernel
    big = {"n": 2**20, "m": 2**24, "avg_degree": 16.0, "max_degree": 5000, "std_degree": 90.0}
    assert auto_scc_method(skewed, deg.size, "gpu", stats=big | {"zero_out": 0.4}) == "multistep"
    assert ECL_MAX_ARCS <= 2**24
    given = {"n": 100, "m": 400, "avg_degree": 4.0, "max_degree": 4, "std_degree": 0.0}
    assert auto_scc_method(skewed, deg.size, "gpu", stats=given | {"zero_out": 0.0}) == "ecl"
    assert auto_scc_method(indptr, 100, "cpu") == "tarjan"  # small
    dense = np.arange(0, 8 * 10**5 + 1, 8)
    assert auto_scc_method(dense, 10**5, "cpu") == "multistep"
    with pytest.raises(InvalidArgumentError, match="device must be"):
        auto_scc_method(grid, 100, "tpu")


# ---- GPU driver, emulated on the CPU ----------------------------------------------------------


_M64 = (1 << 64) - 1


def _mix(x: int) -> int:
    """The 64-bit finalizer of scc_ecl.cu (splitmix64's), on Python ints."""
    x ^= x >> 30
    x = (x * 0xBF58476D1CE4E5B9) & _M64
    x ^= x >> 27
    x = (x * 0x94D049BB133111EB) & _M64
    return x ^ (x >> 31)


class _Emulated:
    """Sequential emulations of the kernels of scc.cu; every grid-stride loop runs in a random
    vertex order (any order is a legal schedule of the parallel kernel)."""

    def __init__(self, seed: int) -> None:
        self.rng = np.random.default_rng(seed)

    def order(self, n):
        return self.rng.permutation(int(n))

    @staticmethod
    def _nbrs(ptr, idx, part, v, r):
        return [int(w) for w in idx[ptr[v] : ptr[v + 1]] if w != v and part[w] == r]

    def _only(self, ptr, idx, part, v, r):
        ws = set(self._nbrs(ptr, idx, part, v, r))
        return ws.pop() if len(ws) == 1 else -1

    @staticmethod
    def _push(queue, qlen, v):
        queue[int(qlen[0])] = v
        qlen[0] += 1

    @staticmethod
    def _score(indptr, rindptr, v, rule):
        dout, din = int(indptr[v + 1] - indptr[v]), int(rindptr[v + 1] - rindptr[v])
        return (dout * din, dout, 0)[rule]

    def trim1(self, ip, ix, rp, ri, n, part, label, flag):
        for v in self.order(n):
            r = part[v]
            if r >= 0 and not (self._nbrs(ip, ix, part, v, r) and self._nbrs(rp, ri, part, v, r)):
                label[v], part[v], flag[0] = v, -1, 1

    def trim2_decide(self, ip, ix, rp, ri, n, part, label):
        for v in self.order(n):
            r = part[v]
            if r < 0:
                continue
            w = self._only(ip, ix, part, v, r)
            if w < 0 or self._only(ip, ix, part, w, r) != v:
                w = self._only(rp, ri, part, v, r)
                if w >= 0 and self._only(rp, ri, part, w, r) != v:
                    w = -1
            if w >= 0:
                label[v] = min(v, w)

    def trim2_apply(self, n, part, label):
        for v in self.order(n):
            if part[v] >= 0 and label[v] >= 0:
                part[v] = -1

    def pivot_best(self, ip, rp, n, part, rule, best):
        for v in self.order(n):
            if part[v] >= 0:
                best[part[v]] = max(best[part[v]], self._score(ip, rp, v, rule))

    def pivot_pick(self, ip, rp, n, part, rule, best, pivot):
        for v in self.order(n):
            r = part[v]
            if r >= 0 and self._score(ip, rp, v, rule) == best[r]:
                pivot[r] = min(pivot[r], v)

    def mark_pivots(self, n, part, pivot, ma, mb, queue, qlen):
        for v in self.order(n):
            if part[v] >= 0 and pivot[part[v]] == v:
                ma[v] = mb[v] = 1
                self._push(queue, qlen, v)

    def mark_roots(self, n, color, mark, queue, qlen):
        for v in self.order(n):
            if color[v] == v:
                mark[v] = 1
                self._push(queue, qlen, v)

    @staticmethod
    def _defer(ptr, v, hub, n, hubs, cnt):
        deg = ptr[v + 1] - ptr[v]
        if hub <= 0 or deg < hub:
            return False
        if deg >= 64 * hub:
            hubs[n - 1 - int(cnt[1])] = v
            cnt[1] += 1
        else:
            hubs[int(cnt[0])] = v
            cnt[0] += 1
        return True

    def reach_q(self, ptr, idx, n, group, mark, cur, nxt, flag, hub, hubs, hub_cnt):
        for v in self.order(n):
            if mark[v] == cur:
                mark[v] = 3
                if self._defer(ptr, v, hub, n, hubs, hub_cnt):
                    continue
                for w in idx[ptr[v] : ptr[v + 1]]:
                    if mark[w] == 0 and group[w] == group[v]:
                        mark[w], flag[0] = nxt, 1

    def _claim(self, ptr, group, mark, v, w, out, out_len, scout):
        if mark[w] == 0 and group[w] == group[v]:
            mark[w] = 1
            self._push(out, out_len, w)
            scout[0] += ptr[w + 1] - ptr[w]

    def reach_push(self, ptr, idx, n, group, mark, qin, in_len, out, out_len, scout, *hub):
        for i in self.order(in_len[0]):
            v = qin[i]
            if not self._defer(ptr, v, *hub[:1], n, *hub[1:]):
                for w in idx[ptr[v] : ptr[v + 1]]:
                    self._claim(ptr, group, mark, v, w, out, out_len, scout)

    def reach_hubs(self, mode, ptr, idx, n, group, mark, hubs, cnt, nxt, flag, out, ln, sc):
        listed = [hubs[n - 1 - i] for i in range(int(cnt[1]))] + list(hubs[: int(cnt[0])])
        for v in listed:
            for w in idx[ptr[v] : ptr[v + 1]]:
                if mode == 2:
                    out[ln[w]] = v
                    ln[w] += 1
                elif mode == 1:
                    self._claim(ptr, group, mark, v, w, out, ln, sc)
                elif mark[w] == 0 and group[w] == group[v]:
                    mark[w], flag[0] = nxt, 1

    def reach_pull(self, rptr, ridx, n, group, mark, out, out_len):
        for v in self.order(n):
            if mark[v] == 0 and group[v] >= 0:
                if any(mark[u] != 0 and group[u] == group[v] for u in ridx[rptr[v] : rptr[v + 1]]):
                    mark[v] = 1
                    self._push(out, out_len, v)

    def fb_newid(self, n, part, fm, bm, newid):
        for v in self.order(n):
            code = int(fm[v] != 0) + 2 * int(bm[v] != 0)
            if part[v] >= 0 and code < 3:
                k = code * n + part[v]
                newid[k] = max(newid[k], v)

    def fb_update(self, n, part, label, fm, bm, pivot, newid, left):
        for v in self.order(n):
            r = part[v]
            if r < 0:
                continue
            code = int(fm[v] != 0) + 2 * int(bm[v] != 0)
            fm[v] = bm[v] = 0
            if code == 3:
                label[v], part[v] = pivot[r], -1
            else:
                part[v] = newid[code * n + r]
                left[0] += 1

    def color_init(self, n, part, color, stamp, inq, queue, qlen):
        for v in self.order(n):
            act = part[v] >= 0
            color[v], stamp[v] = (v, 0) if act else (-1, -1)
            if queue is not None:
                inq[v] = int(act)
                if act:
                    self._push(queue, qlen, v)

    def color_q(self, ptr, idx, n, part, color, stamp, step, flag):
        for v in self.order(n):
            if stamp[v] >= step - 1:
                for w in idx[ptr[v] : ptr[v + 1]]:
                    if part[w] == part[v] and color[w] < color[v]:
                        color[w], stamp[w], flag[0] = color[v], step, 1

    def color_push(self, ptr, idx, part, color, inq, qin, in_len, out, out_len):
        for i in self.order(in_len[0]):
            v = qin[i]
            inq[v] = 0
            for w in idx[ptr[v] : ptr[v + 1]]:
                if part[w] == part[v] and color[w] < color[v]:
                    color[w] = color[v]
                    if inq[w] == 0:
                        inq[w] = 1
                        self._push(out, out_len, w)

    def color_update(self, n, part, label, color, bmark, left):
        for v in self.order(n):
            if part[v] < 0:
                continue
            if bmark[v] != 0:
                label[v], part[v], color[v] = color[v], -1, -1
            else:
                part[v] = color[v]
                left[0] += 1

    # scc_ecl: the persistent kernel's phases in sequence (one legal schedule of it)
    @staticmethod
    def _key(v, r):
        h = _mix((v * 0x9E3779B97F4A7C15 + (r + 1) * 0xD1B54A32D192ED03) & _M64)
        return ((h >> 32) << 32) | int(v)

    def _expand(self, ptr, idx, part, val, stamp, tag, queue, chase):
        out = []
        for b0 in range(0, len(queue), 32):
            batch, rnd = queue[b0 : b0 + 32], 0
            while batch:
                kept = []
                for v in batch:
                    cv, r = int(val[v]), part[v]
                    for w in idx[ptr[v] : ptr[v + 1]]:
                        if part[w] == r and int(val[w]) < cv:
                            val[w] = cv
                            if rnd < chase and len(kept) < 32:
                                kept.append(w)
                            elif stamp[w] != tag:
                                stamp[w] = tag
                                out.append(w)
                batch, rnd = kept, rnd + 1
        return out

    def ecl(self, ip, ix, rp, ri, n, part, label, vin, vout, stamp_f, stamp_b, *rest):
        *_queues, ctl, chase, trim, max_rounds = rest
        level = r = 0
        while r < max_rounds:
            left = 0
            for v in self.order(n):
                c = part[v]
                if c < 0:
                    continue
                if trim and not (self._nbrs(ip, ix, part, v, c) and self._nbrs(rp, ri, part, v, c)):
                    label[v], part[v] = v, -1
                else:
                    left += 1
            if left == 0:
                break
            act = [int(v) for v in self.order(n) if part[v] >= 0]
            for v in act:
                vin[v] = vout[v] = self._key(v, r)
                stamp_f[v] = stamp_b[v] = level + 1
            fq, bq = list(act), list(act)
            while fq or bq:
                tag = level + 2
                fq = self._expand(ip, ix, part, vin, stamp_f, tag, fq, chase)
                bq = self._expand(rp, ri, part, vout, stamp_b, tag, bq, chase)
                level += 1
            for v in self.order(n):
                if part[v] >= 0:
                    a, b = int(vin[v]), int(vout[v])
                    if a == b:
                        label[v], part[v] = a & 0xFFFFFFFF, -1
                    else:
                        part[v] = _mix(a ^ _mix((b + 0x632BE59BD9B4E019) & _M64)) >> 33
            r += 1
        ctl[10], ctl[11] = r, level

    def transpose(self, indptr, indices, n, cursor, rindices, hub, hubs, hub_cnt):
        for u in self.order(n):
            if not self._defer(indptr, u, hub, n, hubs, hub_cnt):
                for v in indices[indptr[u] : indptr[u + 1]]:
                    rindices[cursor[v]] = u
                    cursor[v] += 1


@pytest.fixture
def emulated_gpu(monkeypatch):
    kernels = _Emulated(seed=11)
    fake = types.SimpleNamespace(**{k: getattr(np, k) for k in dir(np) if not k.startswith("__")})
    fake.asnumpy = np.asarray

    def get_kernel(source, name, cooperative=False):
        base = name.split("<")[0].removeprefix("scc_")
        if base == "reach_hubs":
            return functools.partial(kernels.reach_hubs, int(name[-2]))
        return getattr(kernels, "reach_q" if base == "reach_vw" else base)

    monkeypatch.setattr(scc_gpu_module, "cupy", lambda: fake)
    monkeypatch.setattr(scc_gpu_module, "get_kernel", get_kernel)
    monkeypatch.setattr(scc_gpu_module, "launch", lambda k, work, args: k(*args))
    monkeypatch.setattr(scc_gpu_module, "launch_cooperative", lambda k, args, **kw: k(*args))
    monkeypatch.setattr(scc_gpu_module, "max_cooperative_blocks", lambda k, block: 4)
    monkeypatch.setattr(scc_gpu_module, "sm_count", lambda: 2)
    monkeypatch.setattr(scc_gpu_module, "TRANSPOSE_HUB", 2)  # rows of 2+ (128+) arcs deferred
    return scc_gpu_module.scc_gpu


def test_transpose_gpu_emulated(emulated_gpu):
    n, s, d = GRAPHS["star"]
    indptr, indices = csr(n, s, d)
    rp, ri = scc_gpu_module.transpose_gpu(indptr, indices, n)
    want_p, want_i = transpose_csr(indptr, indices, n)
    np.testing.assert_array_equal(rp, want_p)
    rows = np.repeat(np.arange(n), np.diff(rp))
    np.testing.assert_array_equal(np.sort(ri + rows * n), np.sort(want_i + rows * n))


@pytest.mark.parametrize("graph", ["chain_permuted", "cycle", "dag", "many_small", "star"])
def test_gpu_driver_emulated_named(emulated_gpu, graph):
    n, s, d = GRAPHS[graph]
    indptr, indices = csr(n, s, d)
    ref = oracle(n, indptr, indices)
    for method in GPU_SCC_METHODS:
        names = ("default", "plain_quadratic", "full_trim_vw4", "hybrid", "fb3_linear_q")
        if method == "ecl":
            names = tuple(ECL_CONFIGS)
        for name in names:
            got = emulated_gpu(indptr, indices, n, method=method, config=CONFIGS[name])
            np.testing.assert_array_equal(canonical(got), ref, err_msg=f"{method} {name}")


def test_gpu_driver_emulated_ecl_chain(emulated_gpu):
    """Long paths in both id orders and a long cycle with chords: every round of the signature
    scheme, with and without trimming and chasing; stats report the rounds."""
    n = 400
    for src, dst in (chain(n), chain(n, reverse=True), permuted(n, *big_scc(n, 2), seed=3)):
        indptr, indices = csr(n, src, dst)
        ref = oracle(n, indptr, indices)
        for name, cfg in ECL_CONFIGS.items():
            stats = {}
            got = emulated_gpu(indptr, indices, n, method="ecl", config=cfg, stats=stats)
            np.testing.assert_array_equal(canonical(got), ref, err_msg=name)
            assert stats["method"] == "ecl" and stats["ecl_rounds"] >= 1
    stats = {}
    emulated_gpu(*csr(n, *chain(n)), n, stats=stats)  # auto: a path is road-like
    assert stats["method"] == "ecl" and stats["config"]["chase"] == SCCConfig().chase


@settings(max_examples=15, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(case=digraphs(max_n=16))
def test_gpu_driver_emulated_random(emulated_gpu, case):
    n, s, d = case
    indptr, indices = csr(n, s, d)
    ref = oracle(n, indptr, indices)
    np.testing.assert_array_equal(canonical(emulated_gpu(indptr, indices, n)), ref)
    for method, cfg in GPU_CASES:
        got = emulated_gpu(indptr, indices, n, method=method, config=CONFIGS[cfg])
        np.testing.assert_array_equal(canonical(got), ref, err_msg=f"{method} {cfg}")


# ---- GPU --------------------------------------------------------------------------------------


@pytest.mark.gpu
@pytest.mark.parametrize("method,config", GPU_CASES, ids=GPU_CASE_IDS)
@pytest.mark.parametrize("graph", sorted(GRAPHS))
def test_gpu_named_graphs(graph, method, config):
    n, s, d = GRAPHS[graph]
    check("gpu", n, s, d, method, CONFIGS[config])


@pytest.mark.gpu
@settings(max_examples=30)
@given(case=digraphs())
def test_gpu_random_all_configs(case):
    n, s, d = case
    indptr, indices = csr(n, s, d)
    ref = oracle(n, indptr, indices)
    for method, cfg in GPU_CASES:
        got = run("gpu", n, indptr, indices, method, CONFIGS[cfg])
        np.testing.assert_array_equal(canonical(got), ref, err_msg=f"{method} {cfg}")


@pytest.mark.gpu
@pytest.mark.parametrize("graph", sorted(GRAPHS))
def test_gpu_auto_own_transpose(graph):
    n, s, d = GRAPHS[graph]
    check("gpu", n, s, d, "multistep", None, reverse=False)


@pytest.mark.gpu
@pytest.mark.parametrize("hub", [4, 1024])
def test_gpu_transpose(monkeypatch, hub):
    import cupy as cp

    from warpgraph.generators import kronecker

    monkeypatch.setattr(scc_gpu_module, "TRANSPOSE_HUB", hub)
    G = kronecker(14, seed=3, directed=True, device="cpu")
    n = G.num_vertices
    rp, ri = scc_gpu_module.transpose_gpu(cp.asarray(G.indptr), cp.asarray(G.indices), n)
    want_p, want_i = transpose_csr(G.indptr, G.indices, n)
    np.testing.assert_array_equal(rp.get(), want_p)
    rows = np.repeat(np.arange(n, dtype=np.int64), np.diff(want_p))
    got_keys = np.sort(rows * n + ri.get())
    np.testing.assert_array_equal(got_keys, rows * n + want_i)


@pytest.mark.gpu
def test_gpu_kronecker_all_methods():
    from warpgraph.generators import kronecker

    G = kronecker(14, seed=7, directed=True, device="cpu")
    n = G.num_vertices
    ref = oracle(n, G.indptr, G.indices)
    for method, cfg in [*GPU_CASES, ("multistep", None), ("ecl", None), ("auto", None)]:
        got = run("gpu", n, G.indptr, G.indices, method, None if cfg is None else CONFIGS[cfg])
        np.testing.assert_array_equal(canonical(got), ref, err_msg=f"{method} {cfg}")


@pytest.mark.gpu
@pytest.mark.parametrize("chase", [0, 16])
def test_gpu_ecl_oriented_grid(chase):
    """A randomly oriented 200 x 200 grid (the case the signature scheme is for): thousands of
    levels, many rounds, a large SCC among many small ones."""
    from warpgraph.generators import grid_2d_edges

    r = 200
    src, dst = grid_2d_edges(r, r, device="cpu")
    flip = np.random.default_rng(5).random(src.size) < 0.5
    src, dst = np.where(flip, dst, src), np.where(flip, src, dst)
    indptr, indices = csr(r * r, src, dst)
    ref = oracle(r * r, indptr, indices)
    for trim in (0, 1):
        cfg = SCCConfig(trim_iterations=trim, chase=chase)
        got = run("gpu", r * r, indptr, indices, "ecl", cfg)
        np.testing.assert_array_equal(canonical(got), ref, err_msg=f"trim {trim}")
