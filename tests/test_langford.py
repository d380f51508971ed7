"""Langford pairings L(2,n): both methods on every device against known counts and oracles."""

from __future__ import annotations

import itertools
import json
import math

import numpy as np
import pytest

import warpgraph.langford as lf
from warpgraph.errors import DeviceUnavailableError, InvalidArgumentError
from warpgraph.langford import godfrey_cpu, miller_cpu
from warpgraph.langford.checkpoint import Checkpoint

# ---- independent oracles ------------------------------------------------------------------------


def brute_sequences(n: int) -> list[tuple[int, ...]]:
    """Every Langford sequence of n pairs (both orientations), by filling the first empty slot."""
    seq = [0] * (2 * n)
    out = []

    def fill(used: int) -> None:
        if 0 not in seq:
            out.append(tuple(seq))
            return
        p = seq.index(0)
        for k in range(1, n + 1):
            q = p + k + 1
            if not used >> k & 1 and q < 2 * n and seq[q] == 0:
                seq[p] = seq[q] = k
                fill(used | 1 << k)
                seq[p] = seq[q] = 0

    fill(0)
    return out


def godfrey_unoptimized(n: int) -> int:
    """Eq. 1.5 of the seed, summed over all of {-1,1}^(2n) with no optimization."""
    total = 0
    for x in itertools.product((1, -1), repeat=2 * n):
        p = math.prod(x)
        for i in range(1, n + 1):
            p *= sum(x[k] * x[k + i + 1] for k in range(2 * n - i - 1))
        total += p
    q, r = divmod(total, 2 ** (2 * n + 1))
    assert r == 0
    return q


def godfrey_task_direct(n: int, task: int, task_bits: int) -> int:
    """One task's partial sum by direct evaluation (no Gray code, no limbs)."""
    order = godfrey_cpu.walk_order(n)
    free = 2 * n - 2
    low = free - task_bits
    total = 0
    for v in range(1 << low):
        bits = (task << low) | v
        x = [1] * (2 * n)
        for k in range(free):
            if bits >> k & 1:
                x[order[k]] = -1
        p = math.prod(x) * sum(x[k] * x[k + 2] for k in range(n - 1))
        for i in range(2, n + 1):
            p *= sum(x[k] * x[k + i + 1] for k in range(2 * n - i - 1))
        total += p
    return total


@pytest.mark.parametrize("n", range(1, 9))
def test_oracles_agree_with_known_counts(n):
    seqs = brute_sequences(n)
    assert len(seqs) == 2 * lf.KNOWN_COUNTS[n]
    assert {s[::-1] for s in seqs} == set(seqs)
    if n <= 5:
        assert godfrey_unoptimized(n) == lf.KNOWN_COUNTS[n]


# ---- counts on the CPU ----------------------------------------------------------------------


@pytest.mark.parametrize("method", ["godfrey", "miller"])
@pytest.mark.parametrize("n", range(1, 13))
def test_count_cpu_known(n, method):
    assert lf.count(n, method=method, device="cpu") == lf.KNOWN_COUNTS[n]


@pytest.mark.slow
@pytest.mark.parametrize(("n", "method"), [(15, "godfrey"), (16, "godfrey"), (15, "miller")])
def test_count_cpu_known_slow(n, method):
    assert lf.count(n, method=method, device="cpu") == lf.KNOWN_COUNTS[n]


@pytest.mark.parametrize("tasks", [1, 3, 64, 10**6])
@pytest.mark.parametrize("method", ["godfrey", "miller"])
def test_task_split_does_not_change_count(method, tasks):
    res = lf.solve(11, method=method, device="cpu", tasks=tasks)
    assert res.count == 17792
    assert res.num_tasks >= min(tasks, 1)
    assert res.devices["cpu"].tasks == res.num_tasks


def test_unsolvable_n_return_zero_at_once():
    for n in (1, 2, 5, 6, 9, 10, 21, 22, 25, 10**9 + 1, 10**30 + 2):
        res = lf.solve(n, device="cpu")
        assert res.count == 0 and res.num_tasks == 0


@pytest.mark.parametrize(
    ("n", "match"),
    [
        (0, ">= 1"),
        (-3, ">= 1"),
        (2.5, "integer"),
        ("7", "integer"),
        (True, "integer"),
        (27, "n <= 24"),
        (10**6, "n <= 24"),
    ],
)
def test_bad_n(n, match):
    with pytest.raises(InvalidArgumentError, match=match):
        lf.count(n, device="cpu")


def test_bad_arguments():
    with pytest.raises(InvalidArgumentError, match="method"):
        lf.count(7, method="larsen")
    with pytest.raises(InvalidArgumentError, match="device"):
        lf.count(7, device="tpu")
    with pytest.raises(InvalidArgumentError, match="tasks"):
        lf.count(7, device="cpu", tasks=0)


def test_gpu_request_without_gpu_is_clear(monkeypatch):
    import warpgraph.device as dev

    monkeypatch.setattr(dev, "_import_cupy", lambda: None)
    with pytest.raises(DeviceUnavailableError):
        lf.count(7, device="gpu")
    with pytest.raises(DeviceUnavailableError):
        lf.count(7, device="hybrid")


# ---- Godfrey internals ------------------------------------------------------------------------


@pytest.mark.parametrize("n", [3, 4, 7, 8])
def test_godfrey_task_sums_match_direct_evaluation(n):
    bits = min(3, 2 * n - 2)
    got = godfrey_cpu.task_sums(n, list(range(1 << bits)), task_bits=bits, chunk_bits=1)
    want = [godfrey_task_direct(n, t, bits) for t in range(1 << bits)]
    assert got == want
    assert sum(got) == lf.KNOWN_COUNTS[n] * 2 ** (2 * n - 2)


def test_godfrey_chunking_is_exact():
    n, bits = 11, 4
    a = godfrey_cpu.task_sums(n, [5, 9], task_bits=bits, chunk_bits=0)
    b = godfrey_cpu.task_sums(n, [5, 9], task_bits=bits, chunk_bits=6, threads=2)
    assert a == b


@pytest.mark.parametrize("n", [3, 4, 7, 8, 11, 12, 15, 16, 19, 20, 23, 24])
def test_godfrey_tables(n):
    order = godfrey_cpu.walk_order(n)
    assert sorted(order.tolist()) == [p for p in range(2 * n) if p not in (n - 1, n)]
    ga, gb = godfrey_cpu.factor_groups(n)
    assert sorted(ga + gb) == list(range(n))
    bounds = godfrey_cpu.factor_bounds(n)
    pa = math.prod(bounds[i] for i in ga)
    pb = math.prod(bounds[i] for i in gb)
    assert pa < 2**62 and pb < 2**62 and pa * pb < 2**121  # the GPU's int128 and 2^5 blocks
    _ptr, fac, _q = godfrey_cpu.neighbour_table(n)
    assert len(fac) == 2 * ((n - 1) + sum(2 * n - i - 1 for i in range(2, n + 1)))


# ---- Miller internals -------------------------------------------------------------------------


def _rule(n: int, pos: dict[int, int]) -> bool:
    """The symmetry rule: colour n first cube <= (n-2)//2; in the middle, colour n-1 too."""
    half = (n - 2) // 2
    if pos[n] > half:
        return False
    return not (n % 2 == 0 and pos[n] == half and pos[n - 1] > half)


@pytest.mark.parametrize("n", [3, 4, 7, 8, 11])
def test_miller_prefixes_break_reversal_exactly(n):
    """Exactly one orientation of every solution obeys the rule, and the tasks are exactly the
    rule-abiding partial assignments (as a multiset of masks)."""
    if n <= 8:
        for s in brute_sequences(n):
            r = s[::-1]
            ok = [_rule(n, {c: t.index(c) for c in (n, n - 1)}) for t in (s, r)]
            assert sum(ok) == 1
    for depth in range(miller_cpu.min_depth(n), min(n, 5)):
        colours = list(range(n, n - depth, -1))
        want = []
        for pos in itertools.product(*(range(2 * n - 1 - c) for c in colours)):
            mask, ok = 0, True
            for c, i in zip(colours, pos, strict=True):
                pm = (1 << i) | (1 << (i + c + 1))
                ok &= not mask & pm
                mask |= pm
            if ok and _rule(
                n, dict(zip(colours, pos, strict=True)) | {n - 1: pos[1] if depth > 1 else 0}
            ):
                want.append(mask)
        tasks = miller_cpu.prefixes(n, depth)
        assert sorted(tasks.tolist()) == sorted(want)
        assert miller_cpu.count_masks(n, tasks, n - depth).sum() == lf.KNOWN_COUNTS[n]


def test_miller_bad_depth():
    with pytest.raises(InvalidArgumentError, match="depth"):
        miller_cpu.prefixes(8, 1)
    with pytest.raises(InvalidArgumentError, match="depth"):
        miller_cpu.prefixes(8, 8)


# ---- checkpoints ------------------------------------------------------------------------------


@pytest.mark.parametrize("method", ["godfrey", "miller"])
def test_interrupt_and_resume(tmp_path, monkeypatch, method):
    path = tmp_path / "ck.json"
    target = godfrey_cpu if method == "godfrey" else miller_cpu
    name = "task_sums" if method == "godfrey" else "count_masks"
    real = getattr(target, name)
    calls = [0]

    def flaky(*args, **kwargs):
        calls[0] += 1
        if calls[0] == 6:  # 1 warm-up call, then 4 tasks, then the "Ctrl-C"
            raise KeyboardInterrupt
        return real(*args, **kwargs)

    monkeypatch.setattr(target, name, flaky)
    with pytest.raises(KeyboardInterrupt):
        lf.solve(11, method=method, device="cpu", tasks=16, checkpoint=path)
    data = json.loads(path.read_text())
    assert data["job"]["n"] == 11 and data["tasks_by_device"] == {"cpu": 4}
    monkeypatch.setattr(target, name, real)
    res = lf.solve(11, method=method, device="cpu", tasks=16, checkpoint=path)
    assert res.count == 17792
    assert res.resumed_tasks == 4
    assert res.devices["cpu"].tasks == res.num_tasks - 4
    assert not list(tmp_path.glob("*.tmp"))
    # a finished checkpoint answers at once
    again = lf.solve(11, method=method, device="cpu", tasks=16, checkpoint=path)
    assert again.count == 17792 and again.resumed_tasks == again.num_tasks


def test_checkpoint_of_another_job_is_refused(tmp_path):
    path = tmp_path / "ck.json"
    lf.count(7, device="cpu", checkpoint=path)
    with pytest.raises(InvalidArgumentError, match="checkpoint is for job"):
        lf.count(8, device="cpu", checkpoint=path)
    with pytest.raises(InvalidArgumentError, match="checkpoint is for job"):
        lf.count(7, device="cpu", tasks=2, checkpoint=path)


@pytest.mark.parametrize(
    ("text", "match"),
    [
        ("{", "not a readable"),
        ("[]", "not a warpgraph"),
        ('{"format": "warpgraph-langford-checkpoint", "job": {"n": 1}}', "checkpoint is for"),
    ],
)
def test_damaged_checkpoint(tmp_path, text, match):
    path = tmp_path / "ck.json"
    path.write_text(text)
    with pytest.raises(InvalidArgumentError, match=match):
        Checkpoint.open(path, {"n": 2})


def test_checkpoint_range_out_of_bounds(tmp_path):
    path = tmp_path / "ck.json"
    job = {"n": 7, "num_tasks": 4}
    ck = Checkpoint.open(path, job)
    ck.record([0, 1, 3], [1, 2, 3], "cpu")
    ck.save()
    data = json.loads(path.read_text())
    assert data["done"] == [[0, 1], [3, 3]] and data["partial_sum"] == "6"
    data["done"] = [[2, 9]]
    path.write_text(json.dumps(data))
    with pytest.raises(InvalidArgumentError, match="damaged"):
        Checkpoint.open(path, job)


# ---- command line ------------------------------------------------------------------------------


def test_cli_json(capsys):
    from warpgraph.cli.main import main

    assert main(["langford", "8", "--device", "cpu", "--json", "--check"]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert doc["count"] == "150" and doc["devices"]["cpu"]["share"] == 1.0
    assert main(["langford", "7", "--method", "miller", "--device", "cpu"]) == 0
    out = capsys.readouterr().out
    assert "L(2,7) = 26" in out and "tasks" in out
    assert main(["langford", "28"]) == 2


# ---- GPU --------------------------------------------------------------------------------------


@pytest.mark.gpu
@pytest.mark.parametrize("device", ["gpu", "hybrid"])
@pytest.mark.parametrize("method", ["godfrey", "miller"])
def test_count_gpu_known(method, device):
    for n in [3, 4, 7, 8, 11, 12]:
        res = lf.solve(n, method=method, device=device)
        assert res.count == lf.KNOWN_COUNTS[n], (n, method, device)
        assert "gpu" in res.devices


@pytest.mark.gpu
@pytest.mark.parametrize("n", [7, 12])
def test_gpu_task_sums_equal_cpu(n):
    from warpgraph.langford import gpu

    bits = 6
    cpu = godfrey_cpu.task_sums(n, list(range(1 << bits)), task_bits=bits)
    assert gpu.godfrey_task_sums(n, 0, 1 << bits, bits) == cpu
    if n == 7:
        assert cpu == [godfrey_task_direct(n, t, bits) for t in range(1 << bits)]


@pytest.mark.gpu
@pytest.mark.parametrize("stack", ["shared", "local"])
def test_gpu_miller_counts_equal_cpu(monkeypatch, stack):
    from warpgraph.langford import gpu

    monkeypatch.setenv("WARPGRAPH_LANGFORD_MILLER_STACK", stack)
    n, depth = 12, 3
    masks = miller_cpu.prefixes(n, depth)
    want = miller_cpu.count_masks(n, masks, n - depth)
    np.testing.assert_array_equal(gpu.miller_task_counts(n, masks, n - depth), want)


@pytest.mark.gpu
@pytest.mark.parametrize(("n", "method"), [(15, "godfrey"), (16, "godfrey"), (15, "miller")])
def test_count_gpu_larger(n, method):
    assert lf.count(n, method=method, device="gpu") == lf.KNOWN_COUNTS[n]
