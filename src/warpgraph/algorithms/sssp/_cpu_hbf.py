"""Frontier Bellman-Ford (H-BF) on the CPU: ``sssp_cpu(method="hbf")`` (:mod:`.cpu`).

H-BF (Busato and Bombieri, IEEE TPDS 2016, thesis ch. 8): every round relaxes the out-arcs of
the vertices whose distance changed in the previous round (:func:`._cpu_relax._relax_step`).
Negative weights are allowed; a negative cycle is found by a round bound (no shortest path has
``n`` arcs), a distance bound (no simple path is shorter than ``-(n - 1) max|w|``) and periodic
searches for a cycle in the predecessor graph (Cherkassky and Goldberg's "walk to root"); a
cycle found there is checked to have negative weight before it is reported.

Examples
--------
>>> import numpy as np
>>> pred = np.array([-1, 2, 1, 0])  # 1 -> 2 -> 1 is a cycle of the predecessor graph
>>> int(_pred_cycle(pred, np.empty(4, np.int64))) in (1, 2)
True
"""

from __future__ import annotations

import numba as nb
import numpy as np

from ._cpu_relax import _ensure, _relax_step, _step_state


@nb.njit(cache=True, nogil=True)
def _pred_cycle(pred, mark):
    """A vertex on a cycle of the predecessor graph, or -1 (``mark`` is scratch, size n)."""
    n = pred.shape[0]
    mark[:] = 0
    for v in range(n):
        if mark[v] != 0:
            continue
        tag = v + 1
        x = v
        while x >= 0 and mark[x] == 0:
            mark[x] = tag
            x = pred[x]
        if x >= 0 and mark[x] == tag:
            return x
    return -1


@nb.njit(cache=True, nogil=True)
def _cycle_of(x, pred, indptr, indices, w):
    """The cycle through ``x`` of the predecessor graph in arc order, and its weight (the
    lightest arc between consecutive vertices), as float64."""
    back = [x]
    y = pred[x]
    while y != x:
        back.append(y)
        y = pred[y]
    k = len(back)
    cyc = np.empty(k, dtype=np.int64)
    cyc[0] = x
    for i in range(1, k):
        cyc[i] = back[k - i]
    total = 0.0
    for i in range(k):
        u, v = cyc[i], cyc[(i + 1) % k]
        best = np.inf
        for e in range(indptr[u], indptr[u + 1]):
            if indices[e] == v:
                best = min(best, np.float64(w[e]))
        total += best
    return cyc, total


@nb.njit(cache=True, nogil=True)
def _bf_run(indptr, indices, w, dist, bits, settled, pred, mark, source, filt, negative, max_abs,
            par, max_rounds):  # fmt: skip
    """Frontier Bellman-Ford from ``source``. Returns ``(status, vertex, cycle)``: status 0 done,
    1 negative cycle (``cycle`` in arc order, ``vertex`` on it), 2 a negative cycle is certain
    (round or distance bound) but none was seen in the predecessor graph yet, 3 ``max_rounds``
    reached; then the rounds and arcs relaxed. ``par=False`` runs on one thread, so the
    predecessors stay consistent and every cycle among them is negative."""
    n = indptr.shape[0] - 1
    vt = indices.dtype
    F = np.empty(64, dtype=vt)
    nxt = np.empty(64, dtype=vt)
    F[0] = source
    f = np.int64(1)
    dist[source] = 0
    buf, flags, tune = _step_state(n, indices, False)
    lower_bound = -np.float64(max_abs) * np.float64(max(n - 1, 1)) if negative else -np.inf
    no_cycle = np.empty(0, dtype=np.int64)
    use_pred = pred if negative else np.empty(0, dtype=np.int64)
    rounds = 0
    work = 0
    last_check_work = 0
    next_check_round = 8
    while f > 0:
        if rounds >= max_rounds:
            return 3, np.int64(F[0]), no_cycle, rounds, work
        rounds += 1
        buf, nch, f, ch = _relax_step(indptr, indices, w, dist, bits, settled, F, f, filt,
                                      np.int64(1), np.int64(-1), buf, use_pred, flags,
                                      lower_bound, par, tune)  # fmt: skip
        out_v, counts = buf[1], buf[3]
        nn = 0
        for c in range(nch):
            nn += counts[c]
        nxt = _ensure(nxt, nn)
        nn = 0
        for c in range(nch):
            base = c * ch
            for j in range(counts[c]):
                nxt[nn] = out_v[base + j]
                nn += 1
        work += buf[0][f] + f
        F, nxt = nxt, F
        f = nn
        if not negative or f == 0:
            continue
        certain = rounds >= n or flags[0] != 0
        if certain or rounds >= next_check_round or work - last_check_work > n + indptr[n]:
            next_check_round = 2 * rounds
            last_check_work = work
            x = _pred_cycle(pred, mark)
            if x >= 0:
                cyc, weight = _cycle_of(x, pred, indptr, indices, w)
                if weight < 0:
                    return 1, x, cyc, rounds, work
            if certain and par:
                return 2, np.int64(F[0]), no_cycle, rounds, work
    return 0, np.int64(-1), no_cycle, rounds, work
