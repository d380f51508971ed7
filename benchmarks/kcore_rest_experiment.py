"""An experiment kept for the next try, not library code: the dense rest of the parallel CPU
core peel (the vertices left when it hands over to the bucket peel, 1/16 of them) peeled by
the bucket peel, as ``algorithms/kcore/cpu.py`` does, against frontier rounds whose degree
decrements are counted per thread and merged (no atomics). Prints one JSON row per graph:
the rest's size, levels and rounds, and the median of 5 of each way (results compared).

Session 12, H200 host, 16 threads (``benchmarks/results/kcore_rest_h200_20261122_s12.txt``):
R-MAT 18 46.5 -> 30.5 ms, but soc-Slashdot 8.7 -> 15.1, web-NotreDame 4.2 -> 17.3 and
coAuthorsDBLP 3.8 -> 11.9 ms: each round costs ~60-130 us of launches and merging.

Usage::

    python benchmarks/kcore_rest_experiment.py [DATASET_FILE ...]
"""

import json
import statistics
import sys
import time

import numba as nb
import numpy as np

import warpgraph as wg
from warpgraph.algorithms.kcore import cpu
from warpgraph.generators import rmat


@nb.njit(parallel=True, cache=True)
def _count_round(ip1, ix1, ip2, ix2, frontier, pos, claimed, counts):
    """Each thread's share of the frontier counts, per unclaimed rest vertex, the decrements
    its rows give (``counts[thread, position]``)."""
    T = counts.shape[0]
    F = frontier.shape[0]
    for c in nb.prange(T):
        lo = c * F // T
        hi = (c + 1) * F // T
        for i in range(lo, hi):
            v = frontier[i]
            for side in range(2):
                ip = ip1 if side == 0 else ip2
                ix = ix1 if side == 0 else ix2
                prev = -1
                for p in range(ip[v], ip[v + 1]):
                    u = ix[p]
                    if u == prev or u == v:
                        continue
                    prev = u
                    q = pos[u]
                    if q >= 0 and claimed[u] == 0:
                        counts[c, q] += 1


@nb.njit(parallel=True, cache=True)
def _merge(alive, counts, deg, claimed, k, flag):
    """Sum the threads' counts into the degrees (and clear them); a vertex brought to ``k``
    or below is claimed, its core is ``k``, and it is flagged for the next round."""
    T = counts.shape[0]
    for q in nb.prange(alive.shape[0]):
        tot = 0
        for c in range(T):
            tot += counts[c, q]
            counts[c, q] = 0
        flag[q] = 0
        if tot:
            u = alive[q]
            if claimed[u] == 0:
                d = deg[u] - tot
                if d <= k:
                    claimed[u] = 1
                    deg[u] = k
                    flag[q] = 1
                else:
                    deg[u] = d


def rest_counted(ip1, ix1, ip2, ix2, deg, claimed, alive):
    """Core numbers of the rest ``alive`` by levels of frontier rounds (counted decrements);
    returns the degrees (the core numbers there), the levels and the rounds."""
    n = deg.shape[0]
    pos = np.full(n, -1, dtype=np.int64)
    pos[alive] = np.arange(alive.size)
    T = nb.get_num_threads()
    counts = np.zeros((T, alive.size), dtype=np.int32)
    flag = np.zeros(alive.size, dtype=np.int8)
    left = alive.size
    levels = rounds = 0
    while left:
        live = claimed[alive] == 0
        k = int(deg[alive][live].min())
        frontier = alive[live & (deg[alive] <= k)]
        claimed[frontier] = 1
        levels += 1
        while frontier.size:
            left -= frontier.size
            rounds += 1
            _count_round(ip1, ix1, ip2, ix2, frontier, pos, claimed, counts)
            _merge(alive, counts, deg, claimed, k, flag)
            frontier = alive[flag.view(np.bool_)]
    return deg, levels, rounds


def state_at_rest(ip1, ix1, ip2, ix2):
    """Run src's parallel peel up to its switch to the bucket peel; return the state."""
    saved = cpu._peel
    got = {}

    def capture(a, b, c, d, deg, alive):
        got["deg"], got["alive"] = deg.copy(), alive.copy()
        return saved(a, b, c, d, deg, alive)

    cpu._peel = capture
    try:
        deg0 = cpu.simple_degrees(ip1, ix1) + cpu.simple_degrees(ip2, ix2)
        full = cpu._peel_parallel(ip1, ix1, ip2, ix2, deg0)
    finally:
        cpu._peel = saved
    return full, got


def ms(f, r=5):
    ts = []
    for _ in range(r):
        t0 = time.perf_counter()
        f()
        ts.append(1e3 * (time.perf_counter() - t0))
    return round(statistics.median(ts), 2)


def measure(name: str, G) -> dict:
    """The row of one graph (see the module docstring)."""
    if G.directed:
        ip2, ix2 = G.reverse_csr()[:2]
    else:
        ip2, ix2 = np.zeros_like(G.indptr), G.indices[:0]
    ip1, ix1 = G.indptr, G.indices
    full, got = state_at_rest(ip1, ix1, ip2, ix2)
    if not got:
        return {"graph": name, "rest_vertices": 0}
    deg, alive = got["deg"], got["alive"]
    claimed0 = np.ones(deg.size, dtype=np.int8)
    claimed0[alive] = 0

    def bucket():
        return cpu._peel(ip1, ix1, ip2, ix2, deg.copy(), alive)

    def counted():
        return rest_counted(ip1, ix1, ip2, ix2, deg.copy(), claimed0.copy(), alive)

    def whole():
        return cpu.core_numbers(ip1, ix1, *((ip2, ix2) if G.directed else ()), parallel=True)

    want = bucket()
    got_deg, levels, rounds = counted()
    equal = bool(np.array_equal(want[alive], got_deg[alive]) and np.array_equal(want, full))
    arcs = int((ip1[alive + 1] - ip1[alive]).sum() + (ip2[alive + 1] - ip2[alive]).sum())
    return {
        "graph": name,
        "threads": nb.get_num_threads(),
        "rest_vertices": int(alive.size),
        "rest_arcs": arcs,
        "levels": levels,
        "rounds": rounds,
        "equal": equal,
        "whole_parallel_peel_ms": ms(whole),
        "rest_bucket_ms": ms(bucket),
        "rest_counted_ms": ms(counted),
    }


def main(argv: list[str]) -> int:
    graphs = {"rmat:18": lambda: rmat(18, seed=1, device="cpu")}
    for path in argv:
        graphs[path.split("/")[-1].split(".")[0]] = lambda p=path: wg.load(p)
    for name, make in graphs.items():
        print(json.dumps(measure(name, make())), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
