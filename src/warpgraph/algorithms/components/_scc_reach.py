"""Closures inside subgraphs for the CPU multi-step SCC (:mod:`.scc_cpu`): everything a set of
sources reaches without leaving its group (``group[v]``, a subgraph or a colour).

``quadratic`` sweeps all vertices per step (state in a byte: 0 unseen, 1 or 2 the frontier of
this or the next step, 3 done), ``virtual_warp`` the same with arc-balanced thread chunks,
``linear`` expands a queue (vertices claimed by compare-and-swap, per-thread buffers flushed
with one fetch-add), ``hybrid`` the queue with pull sweeps while the frontier is large
(Beamer's direction switch).

Examples
--------
>>> import numpy as np
>>> ptr = np.array([0, 1, 2, 2, 2]); idx = np.array([1, 2], dtype=np.int32)  # 0 -> 1 -> 2, 3
>>> group = np.zeros(4, dtype=np.int32); mark = np.zeros(4, dtype=np.uint8)
>>> b = np.array([0, 4])
>>> _reach(ptr, idx, ptr, idx, group, mark, np.array([0], np.int32), "linear", b, b)
>>> (mark > 0).tolist()
[True, True, True, False]
"""

from __future__ import annotations

import numba as nb
import numpy as np

from ...cpu.atomics import cas
from ...cpu.queues import LOCAL_QUEUE, flush

_DONE = 3  # quadratic reachability: expanded


def _threads() -> int:
    return max(1, nb.get_num_threads())


@nb.njit(parallel=True, cache=True, nogil=True)
def _sweep(ptr, idx, group, mark, cur, nxt, bounds):
    """One quadratic step: expand every vertex marked ``cur``; returns how many were marked."""
    nch = bounds.shape[0] - 1
    cnt = np.zeros(nch, dtype=np.int64)
    for c in nb.prange(nch):
        k = 0
        for v in range(bounds[c], bounds[c + 1]):
            if mark[v] != cur:
                continue
            mark[v] = _DONE
            g = group[v]
            for p in range(ptr[v], ptr[v + 1]):
                w = idx[p]
                if mark[w] == 0 and group[w] == g:
                    mark[w] = nxt
                    k += 1
        cnt[c] = k
    return cnt.sum()


@nb.njit(parallel=True, cache=True, nogil=True)
def _expand(ptr, idx, group, mark, front, nf, out, counter, nthreads):
    """One linear (push) step: expand ``front[:nf]``, claim unseen same-group neighbours into
    ``out``. Returns the arcs of the claimed vertices (Beamer's scout count)."""
    nch = max(1, min(nf // 64 + 1, 8 * nthreads))
    scout = np.zeros(nch, dtype=np.int64)
    for c in nb.prange(nch):
        buf = np.empty(LOCAL_QUEUE, dtype=out.dtype)
        k = 0
        sc = 0
        for i in range((nf * c) // nch, (nf * (c + 1)) // nch):
            v = front[i]
            g = group[v]
            for p in range(ptr[v], ptr[v + 1]):
                w = idx[p]
                if mark[w] == 0 and group[w] == g and cas(mark, w, 0, 1) == 0:
                    sc += ptr[w + 1] - ptr[w]
                    buf[k] = w
                    k += 1
                    if k == LOCAL_QUEUE:
                        flush(buf, k, out, counter)
                        k = 0
        flush(buf, k, out, counter)
        scout[c] = sc
    return scout.sum()


@nb.njit(parallel=True, cache=True, nogil=True)
def _pull(rptr, ridx, group, mark, bounds, out, counter):
    """One bottom-up (pull) sweep, asynchronous: an unseen vertex with a marked predecessor of
    its group (arcs of ``rptr``/``ridx`` lead to it) is marked and queued in ``out``."""
    nch = bounds.shape[0] - 1
    for c in nb.prange(nch):
        buf = np.empty(LOCAL_QUEUE, dtype=out.dtype)
        k = 0
        for v in range(bounds[c], bounds[c + 1]):
            if mark[v] != 0:
                continue
            g = group[v]
            if g < 0:
                continue
            for p in range(rptr[v], rptr[v + 1]):
                u = ridx[p]
                if mark[u] != 0 and group[u] == g:
                    mark[v] = 1
                    buf[k] = v
                    k += 1
                    if k == LOCAL_QUEUE:
                        flush(buf, k, out, counter)
                        k = 0
                    break
        flush(buf, k, out, counter)


@nb.njit(cache=True, nogil=True)
def _expand_serial(ptr, idx, group, mark, front, nf, out, limit):
    """Sequential FIFO expansion of ``front[:nf]`` while at most ``limit`` vertices are pending
    (high-diameter graphs: thousands of thin levels, no parallel region each). Leaves the
    pending vertices in ``front``; returns their number and arcs (scout count)."""
    for i in range(nf):
        out[i] = front[i]
    head, tail = 0, nf
    while head < tail and tail - head <= limit:
        v = out[head]
        head += 1
        g = group[v]
        for p in range(ptr[v], ptr[v + 1]):
            w = idx[p]
            if mark[w] == 0 and group[w] == g:
                mark[w] = 1
                out[tail] = w
                tail += 1
    scout = 0
    for i in range(tail - head):
        v = out[head + i]
        front[i] = v
        scout += ptr[v + 1] - ptr[v]
    return tail - head, scout


SERIAL_FRONTIER = 4096  # linear closures: frontiers up to this size are expanded sequentially
ALPHA = 15  # hybrid: pull once the frontier's arcs exceed 1/ALPHA of all arcs (Beamer)
BETA = 24  # hybrid: push again once a pull sweep marks fewer than n/BETA vertices


def _reach(ptr, idx, rptr, ridx, group, mark, sources, traversal, bounds, bal_bounds) -> None:
    """Mark (non-zero) everything reachable from ``sources`` inside their groups along the arcs
    of ``ptr``/``idx``; ``rptr``/``ridx`` hold the same arcs reversed (for pull sweeps)."""
    if sources.size == 0:
        return
    if traversal in ("linear", "hybrid"):
        n = group.shape[0]
        m = int(ptr[n])
        mark[sources] = 1
        front = np.empty(n, dtype=group.dtype)
        out = np.empty_like(front)
        front[: sources.size] = sources
        nf = sources.size
        counter = np.zeros(1, dtype=np.int64)
        t = _threads()
        pulling = False
        scout = int((ptr[sources + 1] - ptr[sources]).sum())
        while nf > 0:
            counter[0] = 0
            if nf <= SERIAL_FRONTIER and not (traversal == "hybrid" and scout * ALPHA > m):
                pulling = False
                nf, scout = _expand_serial(ptr, idx, group, mark, front, nf, out, SERIAL_FRONTIER)
                continue
            if traversal == "hybrid" and (scout * ALPHA > m if not pulling else nf * BETA >= n):
                pulling = True
                _pull(rptr, ridx, group, mark, bal_bounds, out, counter)
            else:
                pulling = False
                scout = _expand(ptr, idx, group, mark, front, nf, out, counter, t)
            front, out = out, front
            nf = int(counter[0])
        return
    b = bal_bounds if traversal == "virtual_warp" else bounds
    mark[sources] = 1
    cur, nxt = 1, 2
    while _sweep(ptr, idx, group, mark, cur, nxt, b) > 0:
        cur, nxt = nxt, cur
