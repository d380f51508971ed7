"""Thread counts on a busy machine (``warpgraph.cpu.threads``): the fork-join probe that finds
competitors the load average does not show, and the calls that run under it."""

from __future__ import annotations

import numba
import numpy as np
import pytest
import scipy.sparse as sp

from warpgraph import Graph
from warpgraph.cpu import threads as threads_module
from warpgraph.cpu.threads import PARALLEL_MIN_WORK, PROBE_MAX_WORK, threads_for


@pytest.fixture
def fresh_verdicts(monkeypatch):
    """No cached verdict, and none left behind for other tests."""
    monkeypatch.setattr(threads_module, "_verdicts", {})


def fake_machine(monkeypatch, free: int, clock: list[float]) -> list[int]:
    """A machine on which a region of more than ``free`` threads stalls (5 ms) and one of at
    most ``free`` takes 20 us; ``clock[0]`` is the monotonic time. Returns the probed counts."""
    probed: list[int] = []

    def seconds(threads):
        probed.append(threads)
        return 5e-3 if threads > free else 2e-5

    monkeypatch.setattr(threads_module, "_fork_join_seconds", seconds)
    monkeypatch.setattr(threads_module.time, "monotonic", lambda: clock[0])
    # (a pool of 64 threads: the simulated regions never reach Numba's real one)
    monkeypatch.setattr(numba.config, "NUMBA_NUM_THREADS", 64)
    return probed


@pytest.mark.parametrize(
    ("free", "want", "probed"),
    [
        (16, 16, [16]),
        (15, 8, [16, 8]),
        (8, 8, [16, 8]),
        (5, 4, [16, 8, 4]),
        (1, 1, [16, 8, 4, 2]),  # (one thread is not probed: it cannot wait for another)
        (0, 1, [16, 8, 4, 2]),
    ],
)
def test_probe_halves_until_a_region_runs_in_time(monkeypatch, fresh_verdicts, free, want, probed):
    clock = [100.0]
    seen = fake_machine(monkeypatch, free, clock)
    threads_module._verdicts[1] = (0.0, 1)  # (the pool is started: no start-up region)
    assert threads_module.threads_not_stalling(16) == want
    assert seen == probed


def test_verdict_is_reused_for_a_while_then_probed_again(monkeypatch, fresh_verdicts):
    clock = [100.0]
    probed = fake_machine(monkeypatch, 3, clock)
    threads_module._verdicts[1] = (0.0, 1)
    assert threads_module.threads_not_stalling(8) == 2
    count = len(probed)
    clock[0] += threads_module._PROBE_TTL_SECONDS / 2
    assert threads_module.threads_not_stalling(8) == 2
    assert len(probed) == count  # reused: no region run
    clock[0] += threads_module._PROBE_TTL_SECONDS
    assert threads_module.threads_not_stalling(8) == 2
    assert len(probed) == 2 * count  # expired: probed again


def test_a_halved_count_is_not_probed_again_by_a_nested_call(monkeypatch, fresh_verdicts):
    clock = [100.0]
    probed = fake_machine(monkeypatch, 9, clock)
    threads_module._verdicts[1] = (0.0, 1)
    assert threads_module.threads_not_stalling(16) == 8
    assert threads_module.threads_not_stalling(8) == 8
    assert probed == [16, 8]


def test_first_probe_starts_the_pool_untimed(monkeypatch, fresh_verdicts):
    clock = [100.0]
    probed = fake_machine(monkeypatch, 64, clock)
    assert threads_module.threads_not_stalling(2) == 2
    assert probed == [numba.config.NUMBA_NUM_THREADS, 2]


def test_one_thread_is_never_probed(monkeypatch, fresh_verdicts):
    probed = fake_machine(monkeypatch, 0, [0.0])
    assert threads_module.threads_not_stalling(1) == 1
    assert threads_module.threads_not_stalling(0) == 1
    assert probed == []


def test_real_probe_answers_a_count_in_range(fresh_verdicts):
    got = threads_module.threads_not_stalling(2)
    assert 1 <= got <= 2
    assert threads_module._fork_join_seconds(2) >= 0.0


@pytest.mark.parametrize(
    ("work", "dynamic", "probes"),
    [
        (PARALLEL_MIN_WORK - 1, True, False),  # one thread anyway
        (PARALLEL_MIN_WORK, True, True),
        (PROBE_MAX_WORK - 1, True, True),
        (PROBE_MAX_WORK, True, False),  # long regions: a late thread costs little
        (PARALLEL_MIN_WORK, False, False),  # DYNAMIC_THREADS off: every thread
    ],
)
def test_threads_for_probes_moderate_work_only(monkeypatch, work, dynamic, probes):
    monkeypatch.setattr(threads_module, "DYNAMIC_THREADS", dynamic)
    monkeypatch.setattr(threads_module, "dynamic_threads", lambda t: t)
    asked = []
    monkeypatch.setattr(threads_module, "threads_not_stalling", lambda t: asked.append(t) or 1)
    before = numba.get_num_threads()
    with threads_for(work=work) as t:
        assert numba.get_num_threads() == t
    assert numba.get_num_threads() == before
    assert bool(asked) == (probes and before > 1)
    if probes and before > 1:
        assert t == 1


def spy_threads(monkeypatch, module, name) -> list[int]:
    """Replace ``module.name`` by a wrapper recording Numba's thread count at each call."""
    seen: list[int] = []
    original = getattr(module, name)

    def spy(*args, **kwargs):
        seen.append(numba.get_num_threads())
        return original(*args, **kwargs)

    monkeypatch.setattr(module, name, spy)
    return seen


@pytest.fixture
def busy_machine(monkeypatch):
    """Every probe finds the other threads late: one thread (needs two to show it)."""
    if numba.get_num_threads() < 2:
        pytest.skip("needs two Numba threads")
    monkeypatch.setattr(threads_module, "DYNAMIC_THREADS", True)
    monkeypatch.setattr(threads_module, "dynamic_threads", lambda t: t)
    monkeypatch.setattr(threads_module, "threads_not_stalling", lambda t: 1)


def random_csr(n: int = 40_000, degree: int = 4, seed: int = 3) -> sp.csr_array:
    rng = np.random.default_rng(seed)
    rows, cols = rng.integers(0, n, degree * n), rng.integers(0, n, degree * n)
    A = sp.csr_array((rng.integers(1, 10, rows.size).astype(np.float64), (rows, cols)), (n, n))
    A.sum_duplicates()
    return A


def test_graph_checks_run_on_the_threads_allowed(monkeypatch, busy_machine):
    from warpgraph.cpu import csr as csr_module

    seen = spy_threads(monkeypatch, csr_module, "rows_are_sorted")
    A = random_csr()
    Graph(A.indptr, A.indices, directed=True)
    assert seen == [1]


def test_sssp_runs_on_the_threads_allowed(monkeypatch, busy_machine):
    from warpgraph.algorithms.sssp import cpu as sssp_cpu_module
    from warpgraph.algorithms.sssp import sssp

    A = random_csr()
    G = Graph(A.indptr, A.indices, A.data.astype(np.int64), directed=True)
    seen = spy_threads(monkeypatch, sssp_cpu_module, "sssp_cpu")
    dist = sssp(G, 0, method="delta", device="cpu")
    assert seen == [1]
    want = sp.csgraph.dijkstra(A, indices=0)
    assert np.array_equal(np.where(np.isinf(want), np.iinfo(np.int64).max, want), dist)


def test_dijkstra_sources_count_as_work(monkeypatch):
    """Many sources of a small graph are one region of many tasks: not one thread."""
    from warpgraph.algorithms.sssp import api as sssp_api

    works = []
    original = threads_module.threads_for

    def recording(work, *args, **kwargs):
        works.append(work)
        return original(work, *args, **kwargs)

    monkeypatch.setattr(threads_module, "threads_for", recording)
    A = random_csr(n=500)
    G = Graph(A.indptr, A.indices, A.data.astype(np.int64), directed=True)
    sources = np.arange(300)
    dist = sssp_api.sssp(G, sources, method="dijkstra", device="cpu")
    assert works[-1] == 300 * (G.num_vertices + G.num_arcs)
    want = sp.csgraph.dijkstra(A, indices=sources)
    assert np.array_equal(np.where(np.isinf(want), np.iinfo(np.int64).max, want), dist)


def test_csgraph_shortest_path_runs_on_the_threads_allowed(monkeypatch, busy_machine):
    from warpgraph import csgraph
    from warpgraph.csgraph import _shortest

    seen = spy_threads(monkeypatch, _shortest, "_graph")
    A = random_csr()
    got = csgraph.bellman_ford(A, indices=[0, 7], device="cpu")
    assert seen == [1]
    assert np.array_equal(got, sp.csgraph.bellman_ford(A, indices=[0, 7]))


def test_weak_labels_are_numbered_on_the_threads_allowed(monkeypatch, busy_machine):
    from warpgraph import csgraph
    from warpgraph.algorithms.components import cpu as components_cpu

    seen = spy_threads(monkeypatch, components_cpu, "canonical_labels")
    A = random_csr(n=70_000, degree=1)  # (many components, over the parallel numbering's size)
    count, labels = csgraph.connected_components(A, connection="weak", device="cpu")
    assert seen == [1]
    want_count, want = sp.csgraph.connected_components(A, connection="weak")
    assert count == want_count and np.array_equal(labels, want)


def undirected_graph(n: int = 40_000) -> Graph:
    A = random_csr(n=n)
    return Graph(A.indptr, A.indices, directed=True).to_undirected()


def test_bfs_runs_on_the_threads_allowed(monkeypatch, busy_machine):
    from warpgraph.algorithms.bfs import bfs
    from warpgraph.algorithms.bfs import cpu as bfs_cpu_module

    A = random_csr()
    G = Graph(A.indptr, A.indices, directed=True)
    seen = spy_threads(monkeypatch, bfs_cpu_module, "bfs_cpu")
    levels = bfs(G, [0, 5], device="cpu")
    assert seen == [1, 1]
    want = sp.csgraph.shortest_path(A, unweighted=True, indices=[0, 5])
    assert np.array_equal(np.where(np.isinf(want), -1, want), levels)


def test_core_numbers_run_on_the_threads_allowed(monkeypatch, busy_machine):
    import networkx as nx

    from warpgraph.algorithms.kcore import core_number
    from warpgraph.algorithms.kcore import cpu as kcore_cpu_module

    G = undirected_graph()
    seen = spy_threads(monkeypatch, kcore_cpu_module, "core_numbers")
    got = core_number(G, device="cpu")
    assert seen == [1]
    src, dst, _ = G.edges()
    H = nx.Graph()
    H.add_nodes_from(range(G.num_vertices))
    H.add_edges_from(zip(src.tolist(), dst.tolist(), strict=True))
    H.remove_edges_from(nx.selfloop_edges(H))
    want = nx.core_number(H)
    assert got.tolist() == [want[v] for v in range(G.num_vertices)]


def test_k_truss_runs_on_the_threads_allowed(monkeypatch, busy_machine):
    from warpgraph.algorithms.ktruss import fixed_k, k_truss_arcs

    G = undirected_graph(n=20_000)
    seen = spy_threads(monkeypatch, fixed_k, "k_truss_mask")
    mask = k_truss_arcs(G, 3, device="cpu")
    assert seen == [1]
    H = G
    assert mask.dtype == bool and mask.shape == H.indices.shape


@pytest.mark.parametrize(("value", "want"), [("0", False), (" 0 ", False), ("1", True), ("", True)])
def test_environment_turns_dynamic_threads_off(value, want):
    import os
    import subprocess
    import sys

    env = dict(os.environ, WARPGRAPH_DYNAMIC_THREADS=value)
    code = "from warpgraph.cpu import threads; print(threads.DYNAMIC_THREADS)"
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True)
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == str(want)


def test_probe_max_work_zero_keeps_the_load_rule_only(monkeypatch):
    monkeypatch.setattr(threads_module, "PROBE_MAX_WORK", 0)
    monkeypatch.setattr(threads_module, "dynamic_threads", lambda t: t)
    monkeypatch.setattr(threads_module, "threads_not_stalling", lambda t: pytest.fail("probed"))
    before = numba.get_num_threads()
    with threads_for(work=PARALLEL_MIN_WORK) as t:
        assert t == before


@pytest.mark.parametrize("bad", [2.5, "2", True, None, numba.config.NUMBA_NUM_THREADS + 1])
def test_probe_refuses_a_bad_thread_count(bad, fresh_verdicts):
    from warpgraph.errors import InvalidArgumentError

    with pytest.raises(InvalidArgumentError, match="threads must be"):
        threads_module.threads_not_stalling(bad)


def test_probe_takes_numpy_integers(fresh_verdicts):
    assert threads_module.threads_not_stalling(np.int64(1)) == 1
    assert 1 <= threads_module.threads_not_stalling(np.int32(2)) <= 2


@pytest.mark.parametrize("own, want", [(0.0, 2), (0.5, 2), (1.0, 3), (2.5, 4), (9.0, 4)])
def test_load_rule_does_not_count_this_process(monkeypatch, own, want):
    """8 cores at load 7.0: with none of it ours, 2 threads (``8 - 7 + 1``, the rule before
    ``own``); the more of the load is this process's own recent CPU use, the more threads, up
    to the count asked."""
    monkeypatch.setattr(threads_module, "DYNAMIC_THREADS", True)
    monkeypatch.setattr(threads_module.os, "cpu_count", lambda: 8)
    monkeypatch.setattr(threads_module.os, "getloadavg", lambda: (7.0, 0.0, 0.0))
    monkeypatch.setattr(threads_module._own_load, "update", lambda: own)
    assert threads_module.dynamic_threads(4) == want


def test_own_load_averages_cpu_use_over_a_minute(monkeypatch):
    """The process's CPU seconds per second, averaged as the kernel's 1-minute load: a second
    of two busy threads after an idle start adds 2 * (1 - exp(-1/60)); a minute idle after it
    keeps exp(-1) of that."""
    clock = {"wall": 100.0, "cpu": 5.0}
    monkeypatch.setattr(threads_module.time, "monotonic", lambda: clock["wall"])
    monkeypatch.setattr(threads_module.time, "process_time", lambda: clock["cpu"])
    own = threads_module._OwnLoad()
    assert own.update() == 0.0
    clock["wall"] += 1.0
    clock["cpu"] += 2.0
    busy = own.update()
    assert busy == pytest.approx(2 * (1 - np.exp(-1 / 60)))
    clock["wall"] += 60.0
    assert own.update() == pytest.approx(busy * np.exp(-1))
    assert own.update() == pytest.approx(busy * np.exp(-1))  # (no time passed: unchanged)


def test_own_load_sees_real_parallel_work():
    """Half a second of sorting raises the estimate above zero."""
    own = threads_module._OwnLoad()
    x = np.random.default_rng(0).random(1 << 20)
    deadline = threads_module.time.monotonic() + 0.5
    while threads_module.time.monotonic() < deadline:
        np.sort(x)
    assert own.update() > 0.0
