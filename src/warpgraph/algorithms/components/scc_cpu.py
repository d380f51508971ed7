"""Strongly connected components on the CPU: the multi-step scheme in parallel Numba, and Tarjan.

Multi-step (Busato's thesis ch. 9; :mod:`.scc_config` describes the phases and options). State per
vertex: ``part[v]`` is the id of the subgraph ("range") that ``v`` belongs to while it is active
and -1 once its SCC is known; ``label[v]`` is then the SCC's id (a vertex id of the SCC). Arcs
between different subgraphs are ignored: every subgraph is a union of SCCs. Subgraph ids are
vertex ids of members, so per-subgraph tables (pivots) are indexed by them.

* trim-1 pass: an active vertex with no active out- or in-neighbour of its subgraph is removed
  (in place: whatever order threads run in, each removed vertex is a trivial SCC);
* trim-2 pass: decisions first (``label``), removals second, so both ends of a pair agree;
* FB round: one pivot per subgraph; forward and backward closures (marks ``fmark``/``bmark``);
  F ∩ B gets the pivot's id; F \\ B, B \\ F and the rest get, as new subgraph id, their largest
  member;
* coloring round: ``color[v] = v``, max propagation to a fixed point along arcs inside each
  subgraph, then the backward closure of each root (``color[r] == r``) inside its colour is an
  SCC; the other vertices take their colour as new subgraph id.

Reachability: ``quadratic`` sweeps all vertices per step (state in a byte: 0 unseen, 1 or 2 the
frontier of this or the next step, 3 done), ``virtual_warp`` the same with arc-balanced thread
chunks, ``linear`` expands a queue (vertices claimed by compare-and-swap, per-thread buffers).

Tarjan: the classic algorithm in Pearce's space-efficient one-pass form (one index array, SCC ids
counted down from n - 1), with an explicit call stack (no recursion), sequential.

Examples
--------
>>> import numpy as np
>>> indptr = np.array([0, 1, 2, 3, 3]); indices = np.array([1, 2, 0], dtype=np.int32)
>>> lab = scc_cpu(indptr, indices, 4)
>>> bool(lab[0] == lab[1] == lab[2]), bool(lab[3] != lab[0])
(True, True)
>>> scc_cpu(indptr, indices, 4, method="tarjan").tolist()
[3, 3, 3, 2]
"""

from __future__ import annotations

from typing import Any

import numba as nb
import numpy as np

from ...cpu.atomics import cas, fetch_add
from ...cpu.threads import PARALLEL_MIN_WORK, dynamic_threads
from ...cpu.transpose import transpose_csr as _transpose
from ...errors import InvalidArgumentError
from .scc_config import SCC_METHODS, SCCConfig, auto_scc_config, method_config

__all__ = ["is_symmetric", "scc_cpu", "scc_cpu_labels", "tarjan_scc", "transpose_csr"]

_LOCAL = 1024  # per-thread queue buffer, flushed with one atomic fetch-add
_DONE = 3  # quadratic reachability: expanded


def _threads() -> int:
    return max(1, nb.get_num_threads())


def _bounds(indptr: np.ndarray, n: int, nchunks: int, by_arcs: bool) -> np.ndarray:
    """Chunk boundaries over the vertices: equal vertex counts, or equal arc counts."""
    nchunks = max(1, min(nchunks, n))
    if not by_arcs or n == 0:
        return np.linspace(0, n, nchunks + 1).astype(np.int64)
    targets = np.linspace(0, int(indptr[n]) + n, nchunks + 1)
    work = indptr + np.arange(n + 1)  # arcs + 1 per vertex
    b = np.searchsorted(work, targets).astype(np.int64)
    b[0], b[-1] = 0, n
    return np.maximum.accumulate(b)


# ---- transpose --------------------------------------------------------------------------------


def transpose_csr(indptr: np.ndarray, indices: np.ndarray, n: int) -> tuple[np.ndarray, np.ndarray]:
    """``(rindptr, rindices)``: the CSR of the reversed arcs (parallel, rows sorted; the
    two-pass radix sort of :func:`warpgraph.cpu.transpose.transpose_csr`).

    Examples
    --------
    >>> rp, ri = transpose_csr(np.array([0, 2, 3, 3]), np.array([1, 2, 2]), 3)
    >>> rp.tolist(), ri.tolist()
    ([0, 0, 1, 3], [0, 0, 1])
    """
    rindptr, rindices, _ = _transpose(indptr, indices, n)
    return rindptr, rindices


@nb.njit(cache=True, nogil=True)
def _equal_csr(indptr, indices, rindptr, rindices):
    n = indptr.shape[0] - 1
    for v in range(n + 1):
        if indptr[v] != rindptr[v]:
            return False
    for p in range(indptr[n]):
        if indices[p] != rindices[p]:
            return False
    return True


def is_symmetric(indptr: Any, indices: Any, rindptr: Any, rindices: Any) -> bool:
    """True when the CSR equals its transpose: every arc has its reverse arc, as often (the
    rows of ``indices`` must be sorted, as in a :class:`~warpgraph.Graph`; unsorted rows only
    make this answer False). Stops at the first difference (O(n) on most directed graphs).

    Examples
    --------
    >>> ptr, idx = np.array([0, 1, 2]), np.array([1, 0])
    >>> is_symmetric(ptr, idx, *transpose_csr(ptr, idx, 2))
    True
    """
    return bool(_equal_csr(indptr, indices, rindptr, rindices))


# ---- trimming ---------------------------------------------------------------------------------


@nb.njit(inline="always", nogil=True)
def _has_nbr(ptr, idx, part, v, r):
    for p in range(ptr[v], ptr[v + 1]):
        w = idx[p]
        if w != v and part[w] == r:
            return True
    return False


@nb.njit(parallel=True, cache=True, nogil=True)
def _trim1(indptr, indices, rindptr, rindices, part, label, bounds):
    """One trim-1 pass; returns the number of vertices removed."""
    nch = bounds.shape[0] - 1
    cnt = np.zeros(nch, dtype=np.int64)
    for c in nb.prange(nch):
        k = 0
        for v in range(bounds[c], bounds[c + 1]):
            r = part[v]
            if r < 0:
                continue
            keep = _has_nbr(indptr, indices, part, v, r)
            if keep:
                keep = _has_nbr(rindptr, rindices, part, v, r)
            if not keep:
                label[v] = v
                part[v] = -1
                k += 1
        cnt[c] = k
    return cnt.sum()


@nb.njit(inline="always", nogil=True)
def _only_nbr(ptr, idx, part, v, r):
    """The single active neighbour ``!= v`` of ``v`` in subgraph ``r``; -1 if none or several."""
    only = -1
    for p in range(ptr[v], ptr[v + 1]):
        w = idx[p]
        if w != v and part[w] == r and w != only:
            if only >= 0:
                return -1
            only = w
    return only


@nb.njit(parallel=True, cache=True, nogil=True)
def _trim2(indptr, indices, rindptr, rindices, part, label, bounds):
    """One trim-2 pass (decide into ``label``, then remove); returns the vertices removed."""
    nch = bounds.shape[0] - 1
    for c in nb.prange(nch):
        for v in range(bounds[c], bounds[c + 1]):
            r = part[v]
            if r < 0:
                continue
            w = _only_nbr(indptr, indices, part, v, r)
            if w < 0 or _only_nbr(indptr, indices, part, w, r) != v:
                w = _only_nbr(rindptr, rindices, part, v, r)
                if w >= 0 and _only_nbr(rindptr, rindices, part, w, r) != v:
                    w = -1
            if w >= 0:
                label[v] = min(v, w)
    cnt = np.zeros(nch, dtype=np.int64)
    for c in nb.prange(nch):
        k = 0
        for v in range(bounds[c], bounds[c + 1]):
            if part[v] >= 0 and label[v] >= 0:
                part[v] = -1
                k += 1
        cnt[c] = k
    return cnt.sum()


def _trim(indptr, indices, rindptr, rindices, part, label, bounds, cfg: SCCConfig) -> int:
    removed = 0
    i = 0
    while cfg.trim_iterations < 0 or i < cfg.trim_iterations:
        k = _trim1(indptr, indices, rindptr, rindices, part, label, bounds)
        removed += k
        i += 1
        if k == 0:
            break
    if cfg.trim2 and cfg.trim_iterations != 0:
        removed += _trim2(indptr, indices, rindptr, rindices, part, label, bounds)
    return removed


# ---- reachability -----------------------------------------------------------------------------


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


@nb.njit(cache=True, nogil=True)
def _flush(buf, k, out, counter):
    if k > 0:
        base = fetch_add(counter, 0, k)
        for i in range(k):
            out[base + i] = buf[i]


@nb.njit(parallel=True, cache=True, nogil=True)
def _expand(ptr, idx, group, mark, front, nf, out, counter, nthreads):
    """One linear (push) step: expand ``front[:nf]``, claim unseen same-group neighbours into
    ``out``. Returns the arcs of the claimed vertices (Beamer's scout count)."""
    nch = max(1, min(nf // 64 + 1, 8 * nthreads))
    scout = np.zeros(nch, dtype=np.int64)
    for c in nb.prange(nch):
        buf = np.empty(_LOCAL, dtype=out.dtype)
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
                    if k == _LOCAL:
                        _flush(buf, k, out, counter)
                        k = 0
        _flush(buf, k, out, counter)
        scout[c] = sc
    return scout.sum()


@nb.njit(parallel=True, cache=True, nogil=True)
def _pull(rptr, ridx, group, mark, bounds, out, counter):
    """One bottom-up (pull) sweep, asynchronous: an unseen vertex with a marked predecessor of
    its group (arcs of ``rptr``/``ridx`` lead to it) is marked and queued in ``out``."""
    nch = bounds.shape[0] - 1
    for c in nb.prange(nch):
        buf = np.empty(_LOCAL, dtype=out.dtype)
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
                    if k == _LOCAL:
                        _flush(buf, k, out, counter)
                        k = 0
                    break
        _flush(buf, k, out, counter)


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


# ---- forward-backward ------------------------------------------------------------------------


@nb.njit(cache=True, nogil=True)
def _pick_pivots(part, score, best, pivot):
    """Per subgraph ``r``: ``pivot[r]`` = active member of largest score (smallest id on ties).
    Returns the pivots."""
    n = part.shape[0]
    k = 0
    for v in range(n):
        r = part[v]
        if r < 0:
            continue
        s = score[v]
        if pivot[r] < 0:
            k += 1
            best[r] = s
            pivot[r] = v
        elif s > best[r]:
            best[r] = s
            pivot[r] = v
    out = np.empty(k, dtype=part.dtype)
    j = 0
    for v in range(n):
        r = part[v]
        if r >= 0 and pivot[r] == v:
            out[j] = v
            j += 1
    return out


@nb.njit(cache=True, nogil=True)
def _fb_new_ids(part, fmark, bmark, newid):
    """``newid[code, r]``: largest active member of subgraph ``r`` with code f + 2b (not F∩B)."""
    for v in range(part.shape[0]):
        r = part[v]
        if r < 0:
            continue
        code = (fmark[v] != 0) + 2 * (bmark[v] != 0)
        if code < 3 and v > newid[code, r]:
            newid[code, r] = v


@nb.njit(parallel=True, cache=True, nogil=True)
def _fb_update(part, label, fmark, bmark, pivot, newid, bounds):
    """Assign F ∩ B to its pivot, move the rest to their new subgraphs, clear the marks.
    Returns the number of active vertices left."""
    nch = bounds.shape[0] - 1
    cnt = np.zeros(nch, dtype=np.int64)
    for c in nb.prange(nch):
        k = 0
        for v in range(bounds[c], bounds[c + 1]):
            r = part[v]
            if r < 0:
                continue
            code = (fmark[v] != 0) + 2 * (bmark[v] != 0)
            fmark[v] = 0
            bmark[v] = 0
            if code == 3:
                label[v] = pivot[r]
                part[v] = -1
            else:
                part[v] = newid[code, r]
                k += 1
        cnt[c] = k
    return cnt.sum()


def _fb_round(G, part, label, fmark, bmark, score, cfg: SCCConfig) -> int:
    indptr, indices, rindptr, rindices, bounds, bal = G
    n = part.shape[0]
    best = np.empty(n, dtype=np.int64)
    pivot = np.full(n, -1, dtype=part.dtype)
    pivots = _pick_pivots(part, score, best, pivot)
    _reach(indptr, indices, rindptr, rindices, part, fmark, pivots, cfg.fb_traversal, bounds, bal)
    _reach(rindptr, rindices, indptr, indices, part, bmark, pivots, cfg.fb_traversal, bounds, bal)
    newid = np.full((3, n), -1, dtype=part.dtype)
    _fb_new_ids(part, fmark, bmark, newid)
    return _fb_update(part, label, fmark, bmark, pivot, newid, bounds)


def _pivot_score(indptr, rindptr, pivot: str) -> np.ndarray:
    n = indptr.shape[0] - 1
    if pivot == "min_id":
        return np.zeros(n, dtype=np.int64)
    out_deg = np.diff(indptr).astype(np.int64)
    if pivot == "max_out_degree":
        return out_deg
    cap = np.int64(1 << 31)
    return np.minimum(out_deg, cap) * np.minimum(np.diff(rindptr).astype(np.int64), cap)


# ---- coloring ---------------------------------------------------------------------------------


@nb.njit(inline="always", nogil=True)
def _raise_to(a, i, val):
    """Atomic ``a[i] = max(a[i], val)``; True when this call raised it."""
    old = a[i]
    while old < val:
        prev = cas(a, i, old, val)
        if prev == old:
            return True
        old = prev
    return False


@nb.njit(parallel=True, cache=True, nogil=True)
def _color_init(part, color, stamp, bounds):
    nch = bounds.shape[0] - 1
    for c in nb.prange(nch):
        for v in range(bounds[c], bounds[c + 1]):
            if part[v] >= 0:
                color[v] = v
                stamp[v] = 0
            else:
                color[v] = -1
                stamp[v] = -1


@nb.njit(parallel=True, cache=True, nogil=True)
def _color_sweep(indptr, indices, part, color, stamp, step, bounds):
    """Quadratic max propagation step ``step``: vertices changed at ``step - 1`` or later push
    their colour; returns the number of raises."""
    nch = bounds.shape[0] - 1
    cnt = np.zeros(nch, dtype=np.int64)
    for c in nb.prange(nch):
        k = 0
        for v in range(bounds[c], bounds[c + 1]):
            if stamp[v] < step - 1:
                continue
            r = part[v]
            cv = color[v]
            for p in range(indptr[v], indptr[v + 1]):
                w = indices[p]
                if part[w] == r and color[w] < cv and _raise_to(color, w, cv):
                    stamp[w] = step
                    k += 1
        cnt[c] = k
    return cnt.sum()


@nb.njit(parallel=True, cache=True, nogil=True)
def _color_expand(indptr, indices, part, color, inq, front, nf, out, counter, nthreads):
    """Linear max propagation step: vertices of ``front`` push their colour; raised neighbours
    not yet queued go to ``out``."""
    nch = max(1, min(nf // 64 + 1, 8 * nthreads))
    for c in nb.prange(nch):
        buf = np.empty(_LOCAL, dtype=out.dtype)
        k = 0
        for i in range((nf * c) // nch, (nf * (c + 1)) // nch):
            v = front[i]
            # cleared before the colour is read, by a locked instruction (a plain store could
            # pass the load on x86): a raise this step does not see re-queues v
            cas(inq, v, 1, 0)
            r = part[v]
            cv = color[v]
            for p in range(indptr[v], indptr[v + 1]):
                w = indices[p]
                if part[w] == r and color[w] < cv and _raise_to(color, w, cv):
                    if inq[w] == 0 and cas(inq, w, 0, 1) == 0:
                        buf[k] = w
                        k += 1
                        if k == _LOCAL:
                            _flush(buf, k, out, counter)
                            k = 0
        _flush(buf, k, out, counter)


@nb.njit(parallel=True, cache=True, nogil=True)
def _color_update(part, label, color, bmark, bounds):
    """Backward-closed vertices get their colour as SCC id; the others their colour as new
    subgraph. Returns the number of active vertices left."""
    nch = bounds.shape[0] - 1
    cnt = np.zeros(nch, dtype=np.int64)
    for c in nb.prange(nch):
        k = 0
        for v in range(bounds[c], bounds[c + 1]):
            if part[v] < 0:
                continue
            if bmark[v] != 0:
                label[v] = color[v]
                part[v] = -1
            else:
                part[v] = color[v]
                k += 1
        cnt[c] = k
    return cnt.sum()


def _coloring(G, part, label, bmark, cfg: SCCConfig) -> None:
    indptr, indices, rindptr, rindices, bounds, bal = G
    n = part.shape[0]
    color = np.empty(n, dtype=part.dtype)
    stamp = np.empty(n, dtype=np.int32)
    linear = cfg.coloring_traversal in ("linear", "hybrid")
    sweep_bounds = bal if cfg.coloring_traversal == "virtual_warp" else bounds
    t = _threads()
    front = out = inq = None
    if linear:
        front = np.empty(n, dtype=part.dtype)
        out = np.empty_like(front)
        inq = np.zeros(n, dtype=np.uint8)
    while True:
        _color_init(part, color, stamp, bounds)
        active = np.flatnonzero(part >= 0).astype(part.dtype)
        if active.size == 0:
            return
        if linear:
            front[: active.size] = active
            inq[active] = 1
            nf = active.size
            counter = np.zeros(1, dtype=np.int64)
            while nf > 0:
                counter[0] = 0
                _color_expand(indptr, indices, part, color, inq, front, nf, out, counter, t)
                front, out = out, front
                nf = int(counter[0])
        else:
            step = 1
            while _color_sweep(indptr, indices, part, color, stamp, step, sweep_bounds) > 0:
                step += 1
        roots = active[color[active] == active]
        trav = cfg.coloring_traversal
        _reach(rindptr, rindices, indptr, indices, color, bmark, roots, trav, bounds, bal)
        if _color_update(part, label, color, bmark, bounds) == 0:
            return


# ---- Tarjan (Pearce's one-pass form) ------------------------------------------------------------


@nb.njit(cache=True, nogil=True)
def _pearce(indptr, indices, rindex, stack, call_v, call_p, root):
    """Tarjan's SCC algorithm in Pearce's space-efficient form (one ``rindex`` array instead
    of index + lowlink + on-stack flag), with an explicit DFS call stack.

    ``rindex[v]``: 0 unvisited; while ``v`` is open, its DFS index (from 1) lowered to the
    smallest index it reaches; once its SCC is closed, the SCC's id, counted down from ``n``
    to 1 (ids stay above every open index, so closed vertices never lower one; 0 is never an
    id). A vertex without out-arcs is closed on sight (no frame). Returns the number of SCCs;
    ``rindex`` ends as the labels.
    """
    n = rindex.shape[0]
    index = 1
    c = n
    sp = 0
    for s in range(n):
        if rindex[s] != 0:
            continue
        if indptr[s] == indptr[s + 1]:
            rindex[s] = c
            c -= 1
            continue
        depth = 0
        call_v[0] = s
        call_p[0] = indptr[s]
        root[0] = 1
        rindex[s] = index
        index += 1
        while depth >= 0:
            v = call_v[depth]
            p = call_p[depth]
            end = indptr[v + 1]
            rv = rindex[v]
            isroot = root[depth]
            descended = False
            while p < end:
                w = indices[p]
                p += 1
                rw = rindex[w]
                if rw == 0:
                    q = indptr[w]
                    if q == indptr[w + 1]:  # a sink: an SCC of its own
                        rindex[w] = c
                        c -= 1
                        continue
                    call_p[depth] = p
                    rindex[v] = rv
                    root[depth] = isroot
                    depth += 1
                    call_v[depth] = w
                    call_p[depth] = q
                    root[depth] = 1
                    rindex[w] = index
                    index += 1
                    descended = True
                    break
                if rw < rv:
                    rv = rw
                    isroot = 0
            if descended:
                continue
            if isroot:  # v closes an SCC: v and the stacked vertices it reached
                index -= 1
                while sp > 0 and rv <= rindex[stack[sp - 1]]:
                    sp -= 1
                    rindex[stack[sp]] = c
                    index -= 1
                rindex[v] = c
                c -= 1
            else:
                rindex[v] = rv
                stack[sp] = v
                sp += 1
            depth -= 1
            if depth >= 0:  # back in the parent: lower it to what v reached
                u = call_v[depth]
                if rindex[v] < rindex[u]:
                    rindex[u] = rindex[v]
                    root[depth] = 0
    return n - c


def tarjan_scc(indptr: np.ndarray, indices: np.ndarray, n: int) -> np.ndarray:
    """SCC labels by Tarjan's algorithm in Pearce's one-pass form (iterative, sequential).

    Labels are SCC ids in ``[0, n)``: ``n - 1`` for the first SCC closed, then downwards
    (int32 while ``n < 2**31 - 1``). Memory: 21 bytes per vertex, all allocated by NumPy.

    Examples
    --------
    >>> tarjan_scc(np.array([0, 1, 2, 2]), np.array([1, 0]), 3).tolist()
    [2, 2, 1]
    """
    n = int(n)
    dt = np.int32 if n < 2**31 - 1 else np.int64  # ids up to n
    rindex = np.zeros(n, dtype=dt)
    if n == 0:
        return rindex
    _pearce(
        indptr,
        indices,
        rindex,
        np.empty(n, dtype=dt),
        np.empty(n, dtype=dt),
        np.empty(n, dtype=np.int64),
        np.empty(n, dtype=np.uint8),
    )
    rindex -= 1
    return rindex


# ---- driver -----------------------------------------------------------------------------------


def _as_csr(indptr: Any, indices: Any, n: int, what: str) -> tuple[np.ndarray, np.ndarray]:
    indptr = np.ascontiguousarray(indptr, dtype=np.int64)
    indices = np.ascontiguousarray(indices)
    if indices.dtype not in (np.int32, np.int64):
        indices = indices.astype(np.int64)
    if indptr.shape != (n + 1,):
        raise InvalidArgumentError(f"{what}indptr must have n + 1 = {n + 1} entries")
    if indices.shape[0] != indptr[n]:
        raise InvalidArgumentError(f"{what}indices must have indptr[-1] = {indptr[n]} entries")
    return indptr, indices


def scc_cpu(
    indptr: Any,
    indices: Any,
    n: int,
    *,
    method: str = "multistep",
    config: SCCConfig | None = None,
    rindptr: Any = None,
    rindices: Any = None,
) -> np.ndarray:
    """Strongly connected components of a directed CSR graph on the CPU.

    Parameters
    ----------
    indptr, indices : numpy.ndarray
        Out-arc CSR (``indptr`` int64, ``indices`` int32 or int64; self-loops and repeated arcs
        allowed).
    n : int
        Number of vertices.
    method : str
        One of :data:`~.scc_config.SCC_METHODS`.
    config : SCCConfig, optional
        Phase parameters; default :func:`~.scc_config.auto_scc_config` for the CPU.
    rindptr, rindices : numpy.ndarray, optional
        In-arc CSR (``Graph.reverse_csr()``); built here when absent (Tarjan does not need it).

    Returns
    -------
    numpy.ndarray
        int64 label per vertex in ``[0, n)``, equal exactly within an SCC (the multi-step
        methods name an SCC by one of its vertices, Tarjan by an SCC id).

    Raises
    ------
    InvalidArgumentError
        Unknown method, wrong config type or inconsistent arrays.

    Examples
    --------
    >>> ptr = np.array([0, 1, 2, 2]); idx = np.array([1, 0])  # 0 <-> 1, and 2 alone
    >>> lab = scc_cpu(ptr, idx, 3, method="coloring")
    >>> bool(lab[0] == lab[1]), bool(lab[2] == 2)
    (True, True)
    """
    labels = scc_cpu_labels(
        indptr, indices, n, method=method, config=config, rindptr=rindptr, rindices=rindices
    )
    return labels.astype(np.int64, copy=False)


def scc_cpu_labels(
    indptr: Any,
    indices: Any,
    n: int,
    *,
    method: str = "multistep",
    config: SCCConfig | None = None,
    rindptr: Any = None,
    rindices: Any = None,
) -> np.ndarray:
    """:func:`scc_cpu` without the final widening: labels in the vertex dtype (int32 while
    ``n < 2**31 - 1``), as the numbering of ``connected_components`` takes them.

    Examples
    --------
    >>> scc_cpu_labels(np.array([0, 1, 2, 2]), np.array([1, 0]), 3).dtype
    dtype('int32')
    """
    if method not in SCC_METHODS:
        raise InvalidArgumentError(f"method must be one of {SCC_METHODS}, got {method!r}")
    if config is not None and not isinstance(config, SCCConfig):
        raise InvalidArgumentError(f"config must be an SCCConfig, got {type(config).__name__}")
    n = int(n)
    indptr, indices = _as_csr(indptr, indices, n, "")
    if n == 0:
        return np.empty(0, dtype=np.int32)
    if method == "tarjan":
        return tarjan_scc(indptr, indices, n)
    cfg = auto_scc_config(indptr, indices, n, "cpu") if config is None else config
    threads = nb.get_num_threads()
    if n + int(indptr[n]) < PARALLEL_MIN_WORK:
        nb.set_num_threads(1)  # this thread's parallel regions only; waking workers costs more
    else:
        nb.set_num_threads(dynamic_threads(threads))
    try:
        if rindptr is None or rindices is None:
            rindptr, rindices = transpose_csr(indptr, indices, n)
        else:
            rindptr, rindices = _as_csr(rindptr, rindices, n, "reverse ")
        return _multistep(indptr, indices, rindptr, rindices, n, method, cfg)
    finally:
        nb.set_num_threads(threads)


def _multistep(indptr, indices, rindptr, rindices, n, method, cfg: SCCConfig) -> np.ndarray:
    vt = np.int32 if n < 2**31 - 1 else np.int64
    t = _threads()
    bounds = _bounds(indptr, n, 8 * t, by_arcs=False)
    bal = _bounds(indptr, n, 8 * t, by_arcs=True)
    G = (indptr, indices, rindptr, rindices, bounds, bal)
    part = np.zeros(n, dtype=vt)  # one subgraph, id 0
    label = np.full(n, -1, dtype=vt)
    left = n - _trim(indptr, indices, rindptr, rindices, part, label, bal, cfg)
    fb_rounds, coloring = method_config(method, cfg)
    fmark = np.zeros(n, dtype=np.uint8)
    bmark = np.zeros(n, dtype=np.uint8)
    if left > 0 and fb_rounds != 0:
        score = _pivot_score(indptr, rindptr, cfg.pivot)
        i = 0
        while left > 0 and (fb_rounds < 0 or i < fb_rounds):
            left = _fb_round(G, part, label, fmark, bmark, score, cfg)
            i += 1
    if left > 0 and coloring:
        _coloring(G, part, label, bmark, cfg)
    return label
