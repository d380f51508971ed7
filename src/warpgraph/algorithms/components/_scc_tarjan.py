"""Tarjan's SCC algorithm on the CPU (``scc_cpu(method="tarjan")``), in Pearce's one-pass form:
one index array, SCC ids counted down from n - 1, an explicit call stack (no recursion),
sequential."""

from __future__ import annotations

import numba as nb
import numpy as np


@nb.njit(cache=True, nogil=True)
def _pearce(indptr, indices, rindex, stack, call_v, call_p, root, backward):
    """Tarjan's SCC algorithm in Pearce's space-efficient form (one ``rindex`` array instead
    of index + lowlink + on-stack flag), with an explicit DFS call stack. Each row is scanned
    from its first stored arc, or from its last with ``backward`` (the SCCs are the same; the
    order they close in, and so their ids, follows the scan).

    ``rindex[v]``: 0 unvisited; while ``v`` is open, its DFS index (from 1) lowered to the
    smallest index it reaches; once its SCC is closed, the SCC's id, counted down from ``n``
    to 1 (ids stay above every open index, so closed vertices never lower one; 0 is never an
    id). A vertex without out-arcs is closed on sight (no frame). Returns the number of SCCs;
    ``rindex`` ends as the labels.

    Early exit (as SciPy 1.18's search does for a strongly connected graph; Tarjan and Zwick,
    "Finding strong components using depth-first search", 2024): once every vertex has been
    reached, a vertex whose index drops to the index of its tree's root closes the search.
    Every open vertex then lies in the root's SCC (the path's vertices reach that vertex,
    which reaches the root; a stacked vertex waits for a root on the path), which would close
    last, so they all get the next id at once and the path is not unwound. On a lattice or a
    mesh, one SCC, this skips the unwinding: about half of the arcs and every stack push.
    """
    n = rindex.shape[0]
    step = -1 if backward else 1
    index = 1
    c = n
    sp = 0
    reached = 0  # vertices reached so far
    for s in range(n):
        if rindex[s] != 0:
            continue
        reached += 1
        if indptr[s] == indptr[s + 1]:
            rindex[s] = c
            c -= 1
            continue
        tree_root = index  # (no open vertex of this tree gets a smaller index)
        depth = 0
        call_v[0] = s
        call_p[0] = indptr[s + 1] - 1 if backward else indptr[s]
        root[0] = 1
        rindex[s] = index
        index += 1
        while depth >= 0:
            v = call_v[depth]
            p = call_p[depth]
            end = indptr[v] - 1 if backward else indptr[v + 1]  # (one past the last arc read)
            rv = rindex[v]
            isroot = root[depth]
            descended = False
            while p != end:
                w = np.uint64(indices[p])  # (unsigned: no negative-index fix-up per read)
                p += step
                rw = rindex[w]
                if rw == 0:
                    q = indptr[w]
                    reached += 1
                    if q == indptr[w + np.uint64(1)]:  # a sink: an SCC of its own
                        rindex[w] = c
                        c -= 1
                        continue
                    call_p[depth] = p
                    rindex[v] = rv
                    root[depth] = isroot
                    depth += 1
                    call_v[depth] = w
                    call_p[depth] = indptr[w + np.uint64(1)] - 1 if backward else q
                    root[depth] = 1
                    rindex[w] = index
                    index += 1
                    descended = True
                    break
                if rw < rv:
                    rv = rw
                    isroot = 0
                    if rv == tree_root and reached == n:
                        return _close_all_open(rindex, call_v, depth, stack, sp, c)
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
                    if rindex[u] == tree_root and reached == n:
                        return _close_all_open(rindex, call_v, depth, stack, sp, c)
    return n - c


@nb.njit(cache=True, nogil=True, inline="always")
def _close_all_open(rindex, call_v, depth, stack, sp, c):
    """Give every open vertex (on the DFS path ``call_v[:depth + 1]`` or the SCC stack
    ``stack[:sp]``) the id ``c``: :func:`_pearce`'s early exit. Returns the number of SCCs."""
    for k in range(depth + 1):
        rindex[call_v[k]] = c
    for k in range(sp):
        rindex[stack[k]] = c
    return rindex.shape[0] - c + 1


def tarjan_scc(
    indptr: np.ndarray, indices: np.ndarray, n: int, backward: bool = False
) -> np.ndarray:
    """SCC labels by Tarjan's algorithm in Pearce's one-pass form (iterative, sequential).

    Labels are SCC ids in ``[0, n)``: ``n - 1`` for the first SCC closed, then downwards
    (int32 while ``n < 2**31 - 1``). The search starts at vertices 0, 1, ... and scans each
    row from its first arc (``backward``: from its last), so the order the SCCs close in is
    fixed by the arrays: :func:`warpgraph.csgraph.connected_components` numbers them so, as
    SciPy does. Memory: 21 bytes per vertex, all allocated by NumPy.

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
        bool(backward),
    )
    rindex -= 1
    return rindex
