"""Run the device helpers of ``kernels/common.cuh`` on the GPU, for tests and quick checks.

Each function launches one kernel of ``kernels/selftest.cu`` or ``kernels/coop_selftest.cu``
and returns host (NumPy) results that the caller compares with a NumPy computation. Running
``python -m warpgraph.gpu.selftest`` does that for all of them and prints one line each.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ..device import cupy
from .launch import launch, launch_cooperative, max_cooperative_blocks
from .loader import declare, get_kernel

__all__ = ["block_sums", "grid_sync_sum", "main", "warp_count", "warp_primitives", "warp_reserve"]

_T = {"int32": "int", "int64": "long long", "float32": "float", "float64": "double"}

declare("selftest.cu", *(f"warp_primitives_test<{t}>" for t in _T.values()))
declare("selftest.cu", *(f"block_sum_test<{t}>" for t in _T.values()))
declare("selftest.cu", "warp_reserve_test<long long>")
declare("selftest.cu", "warp_count_test<int>", "warp_count_test<long long>")
declare("coop_selftest.cu", "grid_sync_sum<long long>", "grid_sync_sum<double>")


def warp_primitives(x: Any, block: int = 256) -> dict[str, np.ndarray]:
    """Per 32-item chunk: sum, max, min (``wg::warp_sum/max/min``); per item: inclusive and
    exclusive warp scans (``wg::warp_inclusive_sum``/``warp_exclusive_sum``)."""
    cp = cupy()
    x = cp.ascontiguousarray(cp.asarray(x))
    n = int(x.size)
    chunks = -(-n // 32)
    outs = {k: cp.zeros(chunks, dtype=x.dtype) for k in ("sum", "max", "min")}
    incl, excl = cp.zeros(n, dtype=x.dtype), cp.zeros(n, dtype=x.dtype)
    k = get_kernel("selftest.cu", f"warp_primitives_test<{_T[x.dtype.name]}>")
    launch(k, n, (x, n, outs["sum"], outs["max"], outs["min"], incl, excl), block=block)
    return {**{k: v.get() for k, v in outs.items()}, "incl": incl.get(), "excl": excl.get()}


def warp_reserve(want: Any, block: int = 256) -> tuple[int, np.ndarray]:
    """Item ``i`` reserves ``want[i]`` queue slots with ``wg::warp_reserve`` and writes ``i``
    into them; returns (final counter, queue)."""
    cp = cupy()
    want = cp.ascontiguousarray(cp.asarray(want, dtype=cp.uint64))
    n = int(want.size)
    total = int(want.sum()) if n else 0
    counter = cp.zeros(1, dtype=cp.uint64)
    queue = cp.full(max(total, 1), -1, dtype=cp.int64)
    k = get_kernel("selftest.cu", "warp_reserve_test<long long>")
    launch(k, n, (want, n, counter, queue), block=block)
    return int(counter.get()[0]), queue.get()[:total]


def warp_count(keys: Any, num_keys: int, block: int = 256) -> np.ndarray:
    """Histogram of ``keys`` (values in ``[0, num_keys)``) through ``wg::warp_aggregated_count``."""
    cp = cupy()
    keys = cp.ascontiguousarray(cp.asarray(keys))
    n = int(keys.size)
    counts = cp.zeros(int(num_keys), dtype=cp.uint64)
    k = get_kernel("selftest.cu", f"warp_count_test<{_T[keys.dtype.name]}>")
    launch(k, n, (keys, n, counts), block=block)
    return counts.get()


def block_sums(x: Any, blocks: int, block: int = 256) -> np.ndarray:
    """Per-block sums (``wg::block_sum``) of a grid-stride split of ``x`` over ``blocks`` blocks."""
    cp = cupy()
    x = cp.ascontiguousarray(cp.asarray(x))
    n = int(x.size)
    out = cp.zeros(int(blocks), dtype=x.dtype)
    k = get_kernel("selftest.cu", f"block_sum_test<{_T[x.dtype.name]}>")
    launch(k, n, (x, n, out), block=block, grid=int(blocks))
    return out.get()


def grid_sync_sum(
    x: Any, rounds: int = 4, block: int = 256, blocks: int | None = None
) -> tuple[np.ndarray, int, int]:
    """Cooperative launch of ``grid_sync_sum``: returns (out array, blocks launched, barrier
    errors). ``out[0]`` and every ``out[1 + b]`` must equal ``x.sum()``; errors must be 0."""
    cp = cupy()
    x = cp.ascontiguousarray(cp.asarray(x))
    n = int(x.size)
    k = get_kernel("coop_selftest.cu", f"grid_sync_sum<{_T[x.dtype.name]}>", cooperative=True)
    g = max_cooperative_blocks(k, block) if blocks is None else int(blocks)
    partial = cp.zeros(g, dtype=x.dtype)
    out = cp.zeros(g + 1, dtype=x.dtype)
    barrier = cp.zeros(1, dtype=cp.uint64)
    arrivals = cp.zeros(rounds + 1, dtype=cp.uint64)
    used = launch_cooperative(
        k, (x, n, partial, out, barrier, rounds, arrivals), block=block, blocks=g
    )
    return out.get(), used, int(arrivals.get()[rounds])


def main() -> int:
    """Run every self-test once on random data; print one line each; return 0 if all pass."""
    cp = cupy()
    rng = np.random.default_rng(0)
    ok = True

    def report(name: str, good: bool) -> None:
        nonlocal ok
        ok &= bool(good)
        print(f"{'ok  ' if good else 'FAIL'}  {name}")

    x = rng.integers(-1000, 1000, 1000).astype(np.int64)
    r = warp_primitives(cp.asarray(x))
    pad = np.concatenate([x, np.zeros(-len(x) % 32, x.dtype)]).reshape(-1, 32)
    report("warp_sum", np.array_equal(r["sum"], pad.sum(1)))
    want = rng.integers(0, 4, 1000)
    total, q = warp_reserve(cp.asarray(want))
    report(
        "warp_reserve",
        total == want.sum() and np.array_equal(np.sort(q), np.repeat(np.arange(1000), want)),
    )
    keys = rng.integers(0, 50, 5000).astype(np.int32)
    report(
        "warp_aggregated_count",
        np.array_equal(warp_count(cp.asarray(keys), 50), np.bincount(keys, minlength=50)),
    )
    out, used, errors = grid_sync_sum(cp.asarray(x))
    report(f"grid_sync ({used} blocks)", errors == 0 and np.all(out == x.sum()))
    return 0 if ok else 1


if __name__ == "__main__":
    raise SystemExit(main())
